"""scripts/docstrings.py counts what it says it counts, and CI's floor fails below it."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "docstrings.py"


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("docstrings_script", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_counts_public_definitions_and_skips_the_rest(tmp_path: Path) -> None:
    script = _script()
    source = tmp_path / "sample.py"
    source.write_text(
        '"""A module."""\n'
        "def documented():\n    '''Yes.'''\n"
        "def bare():\n    def nested():\n        pass\n"
        "def _private():\n    pass\n"
        "class Port:\n    '''A class.'''\n    def __init__(self):\n        pass\n"
        "    def method(self):\n        pass\n    @property\n    def value(self):\n        '''Doc.'''\n"
        "    @value.setter\n    def value(self, v):\n        pass\n"
        "class _Hidden:\n    def shown(self):\n        '''Doc.'''\n",
        encoding="utf-8",
    )
    tally = script.Tally()
    script.ROOT = tmp_path
    script.measure(source, tally)
    # documented, Port, Port.value, _Hidden.shown documented; bare and Port.method not.
    assert tally.documented == 4
    assert [line.rsplit(":", 1)[1] for line in tally.missing] == ["bare", "method"]


def test_ci_floor_fails_below_it() -> None:
    ok = subprocess.run([sys.executable, str(SCRIPT), "--min-core", "0"], capture_output=True, text=True, cwd=ROOT)
    assert ok.returncode == 0 and "docstrings, core" in ok.stdout and "docstrings, qt/" in ok.stdout
    failed = subprocess.run([sys.executable, str(SCRIPT), "--min-core", "100.1"], capture_output=True, text=True,
                            cwd=ROOT)
    assert failed.returncode == 1 and "below" in failed.stderr
