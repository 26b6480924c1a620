"""Screenshots of a real desktop notification of a new approval card, and of the Subconscious tab's 30-day chart.

Starts its own X server (Xvfb, display ``:63`` unless ``--display``), a private session bus and a real
notification server on it (GNOME's ``notification-daemon``; ``GTK_THEME=Adwaita:dark`` for the dark one), then the
real app (``DesktopApp`` with the real window, on that display) on a workspace with 30 days of activity. A card is
raised as the engine raises one (``EscalationChanged``); the app's notifier sends it over D-Bus and the screen is
saved with the popup on it. Saves ``notification-<scheme>.png`` (the whole screen), ``notification-popup-<scheme>.png``
(the corner with the popup), ``chart-<scheme>.png`` (the window on the Subconscious tab) and
``chart-empty-<scheme>.png`` (the chart with no decisions yet). Then it clicks the popup's **Go ahead** (xdotool) and
checks that the card was approved through it (the real server's ``ActionInvoked``).

    python scripts/notification_screenshots.py --out screenshots --scheme dark

Needs ``Xvfb`` and ``notification-daemon`` (Debian: ``apt-get install -y xvfb notification-daemon``) and
``dbus-daemon``. From ``scripts/screenshots.py``: ``tab_screenshots(out, scheme, "notification_screenshots.py",
"Notifications")`` — it must keep DISPLAY unset and the platform offscreen is replaced here by ``xcb``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from openhuman_desktop.store.events import EscalationChanged

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from scripts.chat_screenshots import MODEL, running_app, until, write_workspace  # noqa: E402

DAEMON = "/usr/lib/notification-daemon/notification-daemon"
SCREEN = (1280, 800)
GO_AHEAD_FROM_RIGHT, GO_AHEAD_FROM_TOP = 205, 144   # notification-daemon's first button, top right corner
CARD_TITLE = "Forward 3 urgent emails to #team-alerts"
RESULTS = {"noop": "Nothing new", "act": "Sorted 4 new emails into Bills and Travel",
           "escalate": "Waiting for approval", "failed": "The mail server did not answer (timed out after 30 s)"}
CARD_TEXT = "Forward the emails from the landlord and HR to #team-alerts so the team sees them today."


@contextlib.contextmanager
def x_server(display: str) -> Iterator[None]:
    """Xvfb on ``display`` (an X server already there is used as it is)."""
    socket = Path(f"/tmp/.X11-unix/X{display.lstrip(':')}")
    if socket.exists():
        yield
        return
    process = subprocess.Popen(["Xvfb", display, "-screen", "0", f"{SCREEN[0]}x{SCREEN[1]}x24", "-nolisten", "tcp"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 10
        while not socket.exists():
            if time.monotonic() > deadline or process.poll() is not None:
                raise RuntimeError(f"Xvfb did not start on {display}")
            time.sleep(0.05)
        yield
    finally:
        process.terminate()
        process.wait(5)


@contextlib.contextmanager
def notification_server(directory: Path, display: str, scheme: str) -> Iterator[str]:
    """A private session bus with ``notification-daemon`` on it; yields the bus address."""
    from tests.notifications.fake_server import PrivateBus

    bus = PrivateBus(directory).start()
    env = {**os.environ, "DISPLAY": display, "DBUS_SESSION_BUS_ADDRESS": bus.address,
           "GTK_THEME": "Adwaita:dark" if scheme == "dark" else "Adwaita", "NO_AT_BRIDGE": "1"}
    daemon = subprocess.Popen([DAEMON, "--replace"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        yield bus.address
    finally:
        daemon.terminate()
        daemon.wait(5)
        bus.stop()


async def save(widget: Any, path: Path) -> Path:
    """``widget`` as it is on screen (the window without its "no tray" banner)."""
    banner = getattr(widget, "notice_banner", None)
    if banner is not None:
        banner.hide()
    await asyncio.sleep(0.2)      # the loop lays the window out and paints it
    if not widget.grab().save(str(path)):
        raise RuntimeError(f"could not save {path}")
    print(f"saved {path}", flush=True)
    return path


def fill_log(db: Path, now: float) -> None:
    """30 days of decisions: a busy weekday rhythm, quiet weekends, a bad day with failures, a few approvals."""
    today = datetime.fromtimestamp(now).date()
    rows = []
    for back in range(30):
        day = today - timedelta(days=back)
        weekend = day.weekday() >= 5
        counts = {"noop": 14 + (back * 7) % 11 - (8 if weekend else 0), "act": 3 + (back * 5) % 6,
                  "escalate": 1 if back % 4 == 1 else 0, "failed": 5 if back == 9 else (1 if back % 6 == 2 else 0)}
        if back == 0:
            counts = {"noop": 9, "act": 4, "escalate": 1, "failed": 0}
        start = datetime.combine(day, datetime.min.time()).timestamp() + 8 * 3600
        n = 0
        for decision, count in counts.items():
            for _ in range(max(0, count)):
                created = min(now - 60, start + n * 1700)
                n += 1
                rows.append((f"shot-{back}-{n}", "task-1", created, decision, RESULTS[decision], 400 + n * 37, created,
                             "Check urgent emails", 1, created))
    conn = sqlite3.connect(db)
    try:
        conn.executemany(
            """INSERT INTO subconscious_log (id, task_id, tick_at, decision, result, duration_ms, created_at,
                   task_title, generation, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""", rows)
        conn.commit()
    finally:
        conn.close()


async def shoot(out: Path, scheme: str, paths: Any, *, with_rows: bool) -> list[Path]:
    from PySide6.QtGui import QGuiApplication


    saved: list[Path] = []
    async with running_app(paths) as desktop:
        window: Any = desktop.window
        services: Any = desktop.services
        await window.jobs.wait_idle(raise_failures=False)
        window.resize(1100, 760)
        window.move(20, 20)
        window.show_tab("subconscious")
        await window.decisions_view.refresh()
        if not with_rows:
            saved.append(await save(window.decisions_view, out / f"chart-empty-{scheme}.png"))
            return saved
        saved.append(await save(window, out / f"chart-{scheme}.png"))
        saved.append(await save(window.decisions_view, out / f"chart-only-{scheme}.png"))
        task = (await services.subconscious.tasks_list())[0]
        card = await services.store.escalations.create(task_id=task.id, log_id=None, title=CARD_TITLE,
                                                       description=CARD_TEXT, priority="critical", now=time.time())
        services.bus.publish(EscalationChanged(card))
        notifier = desktop.notifier
        assert notifier is not None
        delivered: list[str] = []
        notifier.delivered.connect(lambda _announcement, how: delivered.append(how))
        await until(lambda: bool(delivered), timeout=15)
        if delivered != ["dbus"]:
            raise RuntimeError(f"the notification went to {delivered}, not to the notification server")
        await asyncio.sleep(1.0)   # the daemon fades the popup in
        screen = QGuiApplication.primaryScreen().grabWindow(0)
        path = out / f"notification-{scheme}.png"
        if not screen.save(str(path)):
            raise RuntimeError(f"could not save {path}")
        print(f"saved {path}", flush=True)
        saved.append(path)
        corner = screen.copy(screen.width() - 520, 0, 520, 220)
        popup = out / f"notification-popup-{scheme}.png"
        corner.save(str(popup))
        print(f"saved {popup}", flush=True)
        saved.append(popup)
        await click_go_ahead(services, card.id, screen.width())
    return saved


async def click_go_ahead(services: Any, card_id: str, screen_width: int) -> None:
    """Click the popup's Go ahead as a person would (xdotool) and check the card was approved through it."""
    if shutil.which("xdotool") is None:
        print("notification screenshots: xdotool is missing; Go ahead in the popup not tried", flush=True)
        return
    x, y = screen_width - GO_AHEAD_FROM_RIGHT, GO_AHEAD_FROM_TOP
    subprocess.run(["xdotool", "mousemove", str(x), str(y), "click", "1"], check=False)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        card = await services.store.escalations.get(card_id)
        if card is not None and card.status == "approved":
            print("Go ahead in the notification popup approved the card", flush=True)
            return
        await asyncio.sleep(0.1)
    raise RuntimeError("clicking Go ahead in the notification popup did not approve the card")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--out", type=Path, default=REPO / "screenshots")
    parser.add_argument("--scheme", choices=("light", "dark"), default="light")
    parser.add_argument("--display", default=":63", help="the Xvfb display to start (or use)")
    args = parser.parse_args(argv)
    for tool in ("Xvfb", "dbus-daemon", DAEMON):
        if shutil.which(tool) is None and not Path(tool).exists():
            print(f"notification screenshots: {tool} is missing (apt-get install -y xvfb dbus-daemon "
                  "notification-daemon)", file=sys.stderr)
            return 2
    out = args.out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    os.environ["QT_QPA_PLATFORM"] = "xcb"
    os.environ["DISPLAY"] = args.display
    os.environ["OPENHUMAN_COLOR_SCHEME"] = args.scheme
    os.environ.pop("OLLAMA_HOST", None)
    with tempfile.TemporaryDirectory(prefix="oh-notify-shots-") as tmp, x_server(args.display), \
            notification_server(Path(tmp), args.display, args.scheme) as bus:
        os.environ["DBUS_SESSION_BUS_ADDRESS"] = bus
        from openhuman_desktop.qt import app as desktop_app
        from openhuman_desktop.store import open_subconscious_store
        from tests.fakes.model_servers import FakeOllama

        qapp = desktop_app.make_application()
        with FakeOllama() as ollama:
            ollama.add_model(MODEL, context_length=131_072)
            for with_rows in (False, True):
                paths = write_workspace(Path(tmp) / ("full" if with_rows else "empty"), ollama.url)

                async def create(db: Path) -> None:
                    store = await open_subconscious_store(db)
                    await store.aclose()

                asyncio.run(create(paths.subconscious_db))
                if with_rows:
                    fill_log(paths.subconscious_db, time.time())
                with asyncio.Runner(loop_factory=lambda: desktop_app.new_event_loop(qapp)) as runner:
                    runner.run(shoot(out, args.scheme, paths, with_rows=with_rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
