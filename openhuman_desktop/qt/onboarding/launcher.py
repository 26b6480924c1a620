"""When the set-up opens: on the first launch, when the local model does not work after its first check, and
from the tray ("Set up models…"). One window at a time; a closed one is replaced by a fresh one."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from openhuman_desktop import events
from openhuman_desktop.qt.asyncutil import Jobs

if TYPE_CHECKING:
    from openhuman_desktop.bootstrap import Services
    from openhuman_desktop.qt.onboarding.window import OnboardingWindow

log = logging.getLogger(__name__)

Factory = Callable[["Services"], "OnboardingWindow"]


def onboarding_window(services: Services) -> OnboardingWindow:
    """The real window on the running app's settings and config.toml (imported when first opened: most starts
    never show it)."""
    from openhuman_desktop.qt.onboarding.window import OnboardingWindow

    return OnboardingWindow(lambda: services.settings.current, services.paths.config_file)


async def first_check(services: Any, tier: str = "local") -> None:
    """Return once the model health of ``tier`` has been checked (the check runs in the background at start)."""
    models = services.models
    if tier in models.health:
        return
    changed = asyncio.Event()
    unsubscribe = services.bus.subscribe(events.StatusChanged, lambda _event: changed.set())
    try:
        while tier not in models.health:
            changed.clear()
            await changed.wait()
    finally:
        unsubscribe()


class OnboardingLauncher:
    """Owns the set-up window of a running app (``DesktopApp.onboarding``)."""

    def __init__(self, services: Services, factory: Factory = onboarding_window) -> None:
        self._services = services
        self.factory = factory
        self.window: OnboardingWindow | None = None
        self.opened = 0
        """How many times a window was opened (the triggers' tests count them)."""
        self._jobs = Jobs()

    def start(self) -> None:
        """Open now on the first launch, else once the local model's first check says it does not work."""
        self._jobs.spawn(self.open_if_needed(), name="onboarding-trigger")

    async def open_if_needed(self) -> bool:
        services = self._services
        if services.first_run:
            log.info("first launch: opening the set-up")
            self.open()
            return True
        await first_check(services)
        problem = services.models.problem("local")
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
            window = self.factory(self._services)
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
