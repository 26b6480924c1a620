"""When the set-up opens: on the first launch, when the local model does not work after its first check, and
from the tray ("Set up models…"). One window at a time; a closed one is replaced by a fresh one."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from openhuman_desktop import config, events
from openhuman_desktop.qt.asyncutil import Jobs

if TYPE_CHECKING:
    from openhuman_desktop.llm.pool import ModelClients
    from openhuman_desktop.qt.onboarding.window import OnboardingWindow

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class OnboardingPorts:
    """What the set-up uses of the running app (built by ``qt/wiring.py``'s ``onboarding_ports``).

    Attributes:
        first_run: config.toml was created by this start.
        models: the model clients, for the local model's first health check and its problem.
        bus: where ``StatusChanged`` says a health check ended.
        settings: the settings in force.
        config_file: the config.toml the set-up writes.
    """

    first_run: bool
    models: ModelClients
    bus: events.EventBus
    settings: Callable[[], config.Settings]
    config_file: Path


Factory = Callable[[OnboardingPorts], "OnboardingWindow"]


def onboarding_window(ports: OnboardingPorts) -> OnboardingWindow:
    """The real window on the running app's settings and config.toml (imported when first opened: most starts
    never show it)."""
    from openhuman_desktop.qt.onboarding.window import OnboardingWindow

    return OnboardingWindow(ports.settings, ports.config_file)


async def first_check(ports: OnboardingPorts, tier: str = "local") -> None:
    """Return once the model health of ``tier`` has been checked (the check runs in the background at start)."""
    models = ports.models
    if tier in models.health:
        return
    changed = asyncio.Event()
    unsubscribe = ports.bus.subscribe(events.StatusChanged, lambda _event: changed.set())
    try:
        while tier not in models.health:
            changed.clear()
            await changed.wait()
    finally:
        unsubscribe()


class OnboardingLauncher:
    """Owns the set-up window of a running app (``DesktopApp.onboarding``)."""

    def __init__(self, ports: OnboardingPorts, factory: Factory = onboarding_window) -> None:
        self._ports = ports
        self.factory = factory
        self.window: OnboardingWindow | None = None
        self.opened = 0
        """How many times a window was opened (the triggers' tests count them)."""
        self._jobs = Jobs()

    def start(self) -> None:
        """Open now on the first launch, else once the local model's first check says it does not work."""
        self._jobs.spawn(self.open_if_needed(), name="onboarding-trigger")

    async def open_if_needed(self) -> bool:
        ports = self._ports
        if ports.first_run:
            log.info("first launch: opening the set-up")
            self.open()
            return True
        await first_check(ports)
        problem = ports.models.problem("local")
        if problem is None:
            return False
        log.info("the local model does not work (%s): opening the set-up", problem)
        self.open()
        return True

    def open(self) -> OnboardingWindow:
        """Bring the set-up to the front (a new one if none is open)."""
        window = self.window
        if window is None or not window.isVisible():
            if window is not None:
                self._retire(window)
            window = self.factory(self._ports)
            self.window = window
            self.opened += 1
        window.bring_to_front()
        return window

    def _retire(self, window: OnboardingWindow) -> None:
        async def close() -> None:
            await window.aclose()
            window.deleteLater()

        self._jobs.spawn(close(), name="onboarding-retire")

    async def aclose(self) -> None:
        """Cancel the trigger and close the window (its download stops; Ollama keeps the bytes)."""
        await self._jobs.aclose()
        window, self.window = self.window, None
        if window is not None:
            window.hide()
            await window.aclose()
            window.deleteLater()
