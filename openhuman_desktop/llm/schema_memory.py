"""Which form of JSON schema each OpenAI-compatible server accepts, remembered across starts.

llama.cpp's server answers ``response_format`` type ``json_schema`` with HTTP 500; the client then falls back to
``json_object`` with the schema. Without a memory every start (and every new client) wasted one request on the
refusal. The form that worked is kept per server and model in a small JSON file of the workspace.
"""

from __future__ import annotations

import json
import logging
import threading
from pathlib import Path

log = logging.getLogger(__name__)


class SchemaMemory:
    """``(base URL, model) -> schema level`` (``openai_compat.JSON_SCHEMA`` …), kept in ``path`` (None: in memory).

    Small and rarely written (only when a server's form changes); reads come from memory.
    """

    def __init__(self, path: Path | None) -> None:
        self._path = path
        self._lock = threading.Lock()
        self._levels: dict[str, int] | None = None

    @staticmethod
    def _key(base_url: str, model: str) -> str:
        return f"{base_url.rstrip('/')} {model}"

    def _load(self) -> dict[str, int]:
        if self._levels is None:
            levels: dict[str, int] = {}
            if self._path is not None:
                try:
                    data = json.loads(self._path.read_text(encoding="utf-8"))
                    if isinstance(data, dict):
                        levels = {str(k): int(v) for k, v in data.items() if isinstance(v, int)}
                except FileNotFoundError:
                    pass
                except (OSError, ValueError) as exc:
                    log.info("the remembered schema forms could not be read (%s); starting afresh", exc)
            self._levels = levels
        return self._levels

    def get(self, base_url: str, model: str) -> int | None:
        with self._lock:
            return self._load().get(self._key(base_url, model))

    def set(self, base_url: str, model: str, level: int) -> None:
        with self._lock:
            levels = self._load()
            key = self._key(base_url, model)
            if levels.get(key) == level:
                return
            levels[key] = level
            if self._path is None:
                return
            try:
                self._path.parent.mkdir(parents=True, exist_ok=True)
                partial = self._path.with_suffix(".part")
                partial.write_text(json.dumps(levels, indent=1, sort_keys=True), encoding="utf-8")
                partial.replace(self._path)
            except OSError as exc:
                log.info("the schema form of %s could not be remembered: %s", base_url, exc)
