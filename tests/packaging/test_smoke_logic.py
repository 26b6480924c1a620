"""packaging/smoke.py's own logic (the smoke itself starts the built bundle; CI runs it): the bundle is started
without this checkout's Python path, a traceback anywhere fails the check, and "every module of ours" is every
module of the package."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import pytest


def test_the_bundle_runs_without_our_python_path(smoke: ModuleType, monkeypatch: pytest.MonkeyPatch,
                                                tmp_path: Path) -> None:
    monkeypatch.setenv("PYTHONPATH", "/somewhere")
    monkeypatch.setenv("OPENHUMAN_WORKSPACE", "/elsewhere")
    monkeypatch.setenv("QT_QPA_PLATFORM", "offscreen")
    bundle_env = smoke.bundle_launcher(tmp_path).env({"OLLAMA_HOST": "http://127.0.0.1:9"})
    assert "PYTHONPATH" not in bundle_env and "OPENHUMAN_WORKSPACE" not in bundle_env
    assert "QT_QPA_PLATFORM" not in bundle_env  # each check says which platform it wants
    assert bundle_env["OLLAMA_HOST"] == "http://127.0.0.1:9"
    source_env = smoke.source_launcher().env()
    assert source_env["PYTHONPATH"] == str(smoke.ROOT)
    assert smoke.bundle_launcher(tmp_path).command == (str(tmp_path / "openhuman-desktop"),)


def test_a_traceback_anywhere_is_found(smoke: ModuleType) -> None:
    assert smoke.traceback_in("INFO started\nWARNING model down\n", "") is None
    log = "ERROR channel webapp failed to start\nTraceback (most recent call last):\n  File ...\n"
    assert smoke.traceback_in("clean stderr", log) == "Traceback (most recent call last):"


def test_every_module_of_ours_is_expected_in_the_bundle(smoke: ModuleType) -> None:
    ours = smoke.our_modules()
    for name in ("openhuman_desktop", "openhuman_desktop.__main__", "openhuman_desktop.qt.app",
                 "openhuman_desktop.bootstrap", "openhuman_desktop.channels.webapp", "openhuman_desktop.llm.tokens"):
        assert name in ours
    assert not any(name.endswith("__init__") for name in ours)
