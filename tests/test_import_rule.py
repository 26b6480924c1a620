"""The import-linter contract covers every module but ``qt`` and the entry point (headless never loads Qt)."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_contract_lists_every_module_outside_qt() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contract = config["tool"]["importlinter"]["contracts"][0]
    listed = set(contract["source_modules"])
    package = ROOT / "openhuman_desktop"
    present = {
        f"openhuman_desktop.{path.stem}"
        for path in package.iterdir()
        if path.name not in ("qt", "resources", "__pycache__", "__init__.py", "__main__.py")
        and (path.suffix == ".py" or (path / "__init__.py").exists())
    }
    assert present - listed == set(), "add these modules to the import-linter contract in pyproject.toml"


def test_headless_core_does_not_load_qt() -> None:
    code = (
        "import sys, openhuman_desktop.bootstrap, openhuman_desktop.headless, openhuman_desktop.doctor;"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('PySide6', 'qasync')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.strip() == "[]"
