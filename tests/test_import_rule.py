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


def test_layers_contract_puts_every_module_on_a_floor() -> None:
    """A new top-level module or package must be given its floor (ARCHITECTURE.md), or an upward import from it
    would go unnoticed."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    (layers,) = [c for c in config["tool"]["importlinter"]["contracts"] if c["type"] == "layers"]
    assert layers["containers"] == ["openhuman_desktop"]
    on_a_floor = {name.strip() for floor in layers["layers"] for name in floor.replace("|", ":").split(":")}
    package = ROOT / "openhuman_desktop"
    present = {
        path.stem for path in package.iterdir()
        if path.name not in ("resources", "__pycache__", "__init__.py")
        and (path.suffix == ".py" or (path / "__init__.py").exists())
    }
    assert present - on_a_floor == set(), "put these modules on a floor of the layers contract in pyproject.toml"
    assert on_a_floor - present == set(), "the layers contract names modules that do not exist"
