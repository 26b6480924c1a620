"""Skills through MCP servers (CONTRACT §12.1): the app as an MCP client, the servers' tools under the gate.

Nothing here imports the ``mcp`` SDK at import time (``launch.load_sdk`` loads it in a worker thread).
"""

from __future__ import annotations

from openhuman_desktop.skills.mcp.manager import McpSkills
from openhuman_desktop.skills.mcp.server import McpSkill

__all__ = ["McpSkill", "McpSkills"]
