"""The real MCP servers the tests start (none written by us), installed once into a cache folder.

Standard library only, so it runs with any ``python3``:

    python3 scripts/mcp_servers.py install   # skipped when the same versions are already there
    python3 scripts/mcp_servers.py path      # prints the folder (what OPENHUMAN_MCP_SERVERS should name)

From PyPI into a venv of their own (they depend on other versions of the ``mcp`` SDK than the app):
``mcp-server-time``, ``mcp-server-fetch``, ``mcp-server-git``. From npm into ``npm/`` (Node 20 is on the
machine): ``@modelcontextprotocol/server-filesystem``, ``-memory``, ``-everything``. The folder is
``OPENHUMAN_MCP_SERVERS``, default ``~/.cache/openhuman-ci/mcp-servers``; the tests look there.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

PYPI = ("mcp-server-time==2026.10.19", "mcp-server-fetch==2026.10.24", "mcp-server-git==2026.10.19")
NPM = ("@modelcontextprotocol/server-filesystem@2026.8.31", "@modelcontextprotocol/server-memory@2026.8.31",
       "@modelcontextprotocol/server-everything@2026.8.31")
PROGRAMS = ("venv/bin/mcp-server-time", "venv/bin/mcp-server-fetch", "venv/bin/mcp-server-git",
            "npm/node_modules/.bin/mcp-server-filesystem", "npm/node_modules/.bin/mcp-server-memory",
            "npm/node_modules/.bin/mcp-server-everything")


def folder() -> Path:
    return Path(os.environ.get("OPENHUMAN_MCP_SERVERS") or Path.home() / ".cache" / "openhuman-ci" / "mcp-servers")


def install() -> int:
    root = folder()
    marker = root / "installed.json"
    wanted = {"pypi": list(PYPI), "npm": list(NPM)}
    if marker.exists() and json.loads(marker.read_text()) == wanted and all((root / p).exists() for p in PROGRAMS):
        print(f"MCP servers already installed in {root}")
        return 0
    root.mkdir(parents=True, exist_ok=True)
    venv = root / "venv"
    if not (venv / "bin" / "python").exists():
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    subprocess.run([str(venv / "bin" / "pip"), "install", "-q", "--disable-pip-version-check", *PYPI], check=True)
    npm = shutil.which("npm")
    if npm is None:
        print("npm is not installed: the npm MCP servers are left out", file=sys.stderr)
        return 1
    subprocess.run([npm, "install", "--prefix", str(root / "npm"), "--no-audit", "--no-fund", "--silent", *NPM],
                   check=True)
    missing = [program for program in PROGRAMS if not (root / program).exists()]
    if missing:
        print(f"not installed: {', '.join(missing)}", file=sys.stderr)
        return 1
    marker.write_text(json.dumps(wanted))
    print(f"MCP servers installed in {root}")
    return 0


def main() -> int:
    command = sys.argv[1] if len(sys.argv) > 1 else "install"
    if command == "path":
        print(folder())
        return 0
    if command == "install":
        return install()
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
