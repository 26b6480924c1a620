"""``--headless``: the same core on a plain asyncio loop, until SIGINT or SIGTERM."""

from __future__ import annotations

import asyncio
import logging
import signal

from openhuman_desktop import bootstrap, config, events
from openhuman_desktop.instance import InstanceLock
from openhuman_desktop.paths import Paths
from openhuman_desktop.store.events import EscalationChanged

log = logging.getLogger(__name__)


async def serve(paths: Paths, loaded: config.LoadedConfig, ready: asyncio.Event | None = None) -> int:
    """Run until a stop signal; then shut down cleanly. Returns the exit code."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop.set)
    services = await bootstrap.build(paths, loaded)
    services.bus.subscribe(events.Notified, lambda e: log.info("notification: %s — %s", e.title, e.body))
    services.bus.subscribe(EscalationChanged, _log_new_card)
    try:
        await services.start()
        bootstrap.freeze_startup_objects()
        log.info("OpenHuman is running headless on %s (RPC %s)", paths.workspace, services.rpc.url)
        if ready is not None:
            ready.set()
        await stop.wait()
        log.info("stopping")
    finally:
        await services.aclose()
        for signum in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(signum)
    return 0


def _log_new_card(event: EscalationChanged) -> None:
    card = event.escalation
    if card.status == "pending":
        log.info("notification: Approval needed — %s", card.title)


def run(paths: Paths, loaded: config.LoadedConfig) -> int:
    """Hold the workspace lock and serve until a stop signal.

    Raises:
        UserFacingError: start-up failed (already running, database, workspace, RPC port); the caller
            prints the sentence and exits 2.
    """
    lock = InstanceLock(paths.workspace, paths.instance_lock)
    lock.acquire()
    try:
        return asyncio.run(serve(paths, loaded))
    finally:
        lock.release()
