"""The settings in force, reloaded when config.toml changes; an invalid edit keeps the last good ones."""

from __future__ import annotations

import logging
from pathlib import Path

from openhuman_desktop import config, events
from openhuman_desktop.config import Settings
from openhuman_desktop.errors import ConfigError

log = logging.getLogger(__name__)


class LiveSettings:
    """Holds the current :class:`Settings`; call :meth:`reload` when the file changed.

    Args:
        path: config.toml.
        loaded: the settings read at start-up.
        bus: where ``StatusChanged`` and ``Notified`` are published after a reload.
    """

    def __init__(self, path: Path, loaded: config.LoadedConfig, bus: events.EventBus) -> None:
        self.path = path
        self._current = loaded.settings
        self._bus = bus
        self.problem: str | None = None  # why the last edit was rejected (the previous settings stay)
        self.problem_summary: str | None = None  # the same without the file's path, for short status lines

    def __call__(self) -> Settings:
        return self._current

    @property
    def current(self) -> Settings:
        return self._current

    async def reload(self) -> bool:
        """Re-read the file. Returns True when new settings took effect."""
        try:
            loaded = config.load(self.path)
        except ConfigError as exc:
            self.problem, self.problem_summary = str(exc), _summary(exc)
            log.warning("config not reloaded, keeping the previous settings: %s", exc)
            self._bus.publish(events.Notified("Configuration not applied", f"{exc} The previous settings stay."))
            self._bus.publish(events.StatusChanged())  # the status says so until the file is fixed
            return False
        was_rejected = self.problem is not None
        self.problem = self.problem_summary = None
        for warning in loaded.warnings:
            log.warning("%s", warning)
        if loaded.settings == self._current:
            if was_rejected:
                log.info("config.toml is valid again (the settings in force are unchanged)")
                self._bus.publish(events.StatusChanged())
            return False
        self._current = loaded.settings
        log.info("configuration reloaded from %s", self.path)
        self._bus.publish(events.StatusChanged())
        return True


def _summary(exc: ConfigError) -> str:
    """What is wrong in a rejected config.toml, without the path (the status line names the file)."""
    if exc.key == "(syntax)":
        return f"it is not valid TOML ({exc.value})"
    if exc.key == "(file)":
        return f"{exc.value} (expected {exc.expected})"
    return f"{exc.key} = {exc.value!r} is invalid: expected {exc.expected}"
