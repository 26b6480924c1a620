"""Helpers for the MCP tests: the fixture server's settings, waiting for a state, finding the real servers."""

from __future__ import annotations

import asyncio
import os
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

from openhuman_desktop.config_skills import McpServerSettings
from openhuman_desktop.skills.mcp.server import McpSkill

FIXTURE = Path(__file__).with_name("mcp_fixture_server.py")
SERVERS_ENV = "OPENHUMAN_MCP_SERVERS"
REQUIRED_ENV = "OPENHUMAN_MCP_SERVERS_REQUIRED"
"""Set by .ci/run: a missing real server fails the test instead of skipping it."""
DEFAULT_SERVERS = Path.home() / ".cache" / "openhuman-ci" / "mcp-servers"


def fixture_settings(name: str = "fx", *extra_args: str, **changes: Any) -> McpServerSettings:
    """The fixture server started with the test's own Python (which has the ``mcp`` SDK), its files in
    ``$FIXTURE_DIR`` (the test's folder)."""
    env = {"FIXTURE_DIR": os.environ.get("FIXTURE_DIR", "."), **changes.pop("env", {})}
    return McpServerSettings(name, command=sys.executable, args=(str(FIXTURE), *extra_args), env=env, **changes)


async def wait_state(skill: McpSkill, *states: str, timeout: float = 30.0) -> None:
    """Wait (really) until the server is in one of ``states``."""
    async with asyncio.timeout(timeout):
        while skill.state not in states:
            await asyncio.sleep(0.02)


def servers_dir() -> Path:
    return Path(os.environ.get(SERVERS_ENV) or DEFAULT_SERVERS)


def real_server(program: str) -> str:
    """The path of a real MCP server's program (``mcp-server-time``, ``mcp-server-filesystem`` …) installed by
    .ci/run under :func:`servers_dir`; skips (outside CI) or fails (CI) when it is missing."""
    root = servers_dir()
    for folder in (root / "venv" / "bin", root / "npm" / "node_modules" / ".bin"):
        candidate = folder / program
        if candidate.exists():
            return str(candidate)
    found = shutil.which(program)
    if found:
        return found
    message = (f"{program} is not installed under {root} (.ci/run installs the real MCP servers there; "
               f"set {SERVERS_ENV} to another folder)")
    if os.environ.get(REQUIRED_ENV) or os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)
