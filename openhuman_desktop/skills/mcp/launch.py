"""What connecting to an MCP server needs before and around the SDK: the SDK-facing module loaded once off the
event loop, the secrets its table names by variable, and the real error inside a task group's wrappings."""

from __future__ import annotations

import asyncio
import importlib
from collections.abc import Mapping
from types import ModuleType

from openhuman_desktop.config_skills import McpServerSettings
from openhuman_desktop.secret_env import secret_from

_SDK: ModuleType | None = None
_SDK_LOCK = asyncio.Lock()


def leaf_error(exc: BaseException) -> BaseException:
    """The first real error inside task-group wrappings."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    return exc


async def load_sdk() -> ModuleType:
    """The SDK-facing module, imported once in a worker thread (about a second here: never on the loop)."""
    global _SDK
    if _SDK is not None:
        return _SDK
    async with _SDK_LOCK:
        if _SDK is None:
            _SDK = await asyncio.to_thread(importlib.import_module, "openhuman_desktop.skills.mcp._session")
    return _SDK


def resolve_secrets(config: McpServerSettings,
                    environ: Mapping[str, str]) -> tuple[dict[str, str], dict[str, str]] | str:
    """``env`` and the ``env_from`` values, and the ``headers_from`` values; or why they cannot be had."""
    env = dict(config.env)
    headers: dict[str, str] = {}
    for target, names, what in ((env, config.env_from, "env_from"),
                                (headers, config.headers_from, "headers_from")):
        for key, variable in names.items():
            value = secret_from(environ, variable)
            if not value:
                return (f"The variable {variable} ({what} {key}) is not set where OpenHuman was started; set "
                        "it and restart the app, or change the skill's settings.")
            target[key] = value
    return env, headers
