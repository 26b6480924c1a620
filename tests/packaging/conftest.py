"""The packaging scripts (``packaging/*.py`` are scripts, not a package) loaded by path for their tests."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

PACKAGING = Path(__file__).resolve().parents[2] / "packaging"


def load_script(name: str) -> ModuleType:
    """``packaging/<name>.py`` as the module ``openhuman_packaging_<name>`` (loaded once)."""
    module_name = f"openhuman_packaging_{name}"
    if module_name in sys.modules:
        return sys.modules[module_name]
    spec = importlib.util.spec_from_file_location(module_name, PACKAGING / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module  # dataclasses look their module up while the class is made
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def lean() -> ModuleType:
    return load_script("lean")


@pytest.fixture(scope="session")
def installer() -> ModuleType:
    return load_script("install")


@pytest.fixture(scope="session")
def builder() -> ModuleType:
    return load_script("build")


@pytest.fixture(scope="session")
def smoke() -> ModuleType:
    return load_script("smoke")
