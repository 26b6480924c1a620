"""What the first-run set-up writes: the chosen server and models as ``ConfigEdit`` changes (no Qt here)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from openhuman_desktop import config
from openhuman_desktop.llm.discovery import FoundServer, same_place


@dataclass(frozen=True)
class Choice:
    """The server and the model of each tier the person picked (``subconscious``, the reflection tier, and
    ``embedding`` None: not used)."""

    server: FoundServer
    local: str
    reasoning: str
    embedding: str | None = None
    subconscious: str | None = None

    def tiers(self) -> list[tuple[str, str]]:
        picked = [("local", self.local), ("reasoning", self.reasoning)]
        picked += [("subconscious", self.subconscious)] if self.subconscious else []
        return picked + ([("embedding", self.embedding)] if self.embedding else [])


def config_changes(choice: Choice, settings: config.Settings,
                   environ: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The dotted keys to set (or remove) in config.toml for ``choice``.

    An Ollama other than ``[ollama] host`` becomes the host, unless ``OLLAMA_HOST`` is set (it would win over
    the file): then each tier gets the address as its ``base_url``. An OpenAI-compatible server becomes each
    tier's ``base_url``. Only the tiers picked change; an embedding table that does not exist yet is added.
    """
    from openhuman_desktop.config_edit import REMOVE  # tomlkit: imported where the file is written, off the loop

    environ = os.environ if environ is None else environ
    server = choice.server
    changes: dict[str, Any] = {}
    tier_url: Any = REMOVE
    key_env: Any = REMOVE
    provider = server.provider
    if provider == "ollama":
        if not same_place(server.base_url, settings.ollama_host):
            if environ.get("OLLAMA_HOST", "").strip():
                tier_url = server.base_url
            else:
                changes["ollama.host"] = server.base_url
    else:
        tier_url = server.base_url
        key_env = server.candidate.api_key_env or REMOVE
    for tier, model in choice.tiers():
        if settings.model(tier) is None:
            table = {"provider": provider, "model": model}
            if tier_url is not REMOVE:
                table["base_url"] = tier_url
            if key_env is not REMOVE:
                table["api_key_env"] = key_env
            changes[f"models.{tier}"] = table
            continue
        changes[f"models.{tier}.provider"] = provider
        changes[f"models.{tier}.model"] = model
        changes[f"models.{tier}.base_url"] = tier_url
        changes[f"models.{tier}.api_key_env"] = key_env
    return changes
