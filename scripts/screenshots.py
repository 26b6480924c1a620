"""Screenshots of the real app under Xvfb: tray icon, tooltip and menu, the window (light, dark, no tray).

Run it through ``scripts/screenshots.sh`` (which installs the X tools in CI). It prepares a workspace
(tasks, log rows of every decision, pending approvals, memories), starts ``python -m openhuman_desktop``
on a private X server with a tray host (trayer), drives it like a person (xdotool: hover, right-click,
keys, a second launch) and saves PNGs into ``screenshots/``. Along the way it checks what a person would
notice: the tray icon appears, a second launch exits 0 and shows the window, Quit and SIGTERM end the
app with exit code 0. Any failure makes the exit code non-zero.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from scripts import webapp_screenshots  # noqa: E402
from tests.fakes.model_servers import FakeOllama, Reply  # noqa: E402

TOOLS = ("Xvfb", "trayer", "xdotool")
APT_PACKAGES = "xvfb trayer xdotool"
SCREEN = (1280, 800)
TRAY_HEIGHT = 32
MODEL = "llama3.2:3b"
WINDOW_NAME = "Intelligence"


class ScreenshotError(Exception):
    """Something a person would have noticed went wrong."""


# --- the workspace ----------------------------------------------------------------------------------


USER_TASKS = (
    ("Check urgent emails", "pending"),
    ("Send daily summary to Slack", "cron:0 18 * * *"),
    ("Summarize Notion updates", "once"),
    ("Remind me to renew the passport", "cron:0 9 * * 1"),
)
# (task index, decision, result, minutes ago, duration ms); index -1..-3 are the built-in tasks
LOG_ROWS = (
    (0, "escalate", "Waiting for approval: 3 urgent emails from the landlord and HR", 4, 5210),
    (1, "act", "Posted the summary of 12 finished items to #daily", 9, 8420),
    (-1, "noop", "Nothing new", 9, 310),
    (-2, "noop", "Nothing new", 9, 280),
    (2, "failed", "Notion did not answer (HTTP 503); will try again on the next tick", 14, 30050),
    (-3, "act", "Ollama, memory and connections are healthy; disk 71 % used", 14, 1900),
    (3, "dismissed", "Skipped: draft a renewal reminder email", 60, 2400),
    (0, "cancelled", "Cancelled: a newer tick (Run Now) replaced this one", 75, 1200),
    (1, "noop", "Nothing new", 120, 260),
)
ESCALATIONS = (
    (0, "Forward 3 urgent emails to #team-alerts",
     "Forward the emails from the landlord and HR to #team-alerts so the team sees them today.",
     "critical"),
    (2, "Create a Notion page for the new project",
     "Create a page 'Project Atlas' under Projects with the three notes found today.",
     "normal"),
)
MEMORIES = (
    "The passport expires on 2026-09-30.",
    "Weekly digest goes to #daily on Fridays.",
    "Prefers short summaries with links.",
)


def write_config(workspace: Path, ollama_url: str) -> None:
    workspace.mkdir(parents=True, exist_ok=True)
    (workspace / "config.toml").write_text(
        "[heartbeat]\ninterval_minutes = 60\n\n"
        f'[ollama]\nhost = "{ollama_url}"\n\n'
        f'[models.local]\nprovider = "ollama"\nmodel = "{MODEL}"\n\n'
        f'[models.reasoning]\nprovider = "ollama"\nmodel = "{MODEL}"\n',
        encoding="utf-8",
    )


async def fill_workspace(workspace: Path) -> None:
    """Tasks, log rows of every decision, pending approvals, memories and tick counters, via the core."""
    from openhuman_desktop import bootstrap, config
    from openhuman_desktop.paths import Paths
    from openhuman_desktop.store.engine_state import EngineState

    paths = Paths(workspace)
    paths.ensure()
    services = await bootstrap.build(paths, config.load(paths.config_file, environ={}))
    try:
        service = services.subconscious
        await service.seed_defaults()
        await service.sync_heartbeat_file()
        system = [task for task in await service.tasks_list() if task.is_system]
        user = [await service.tasks_add(title, schedule) for title, schedule in USER_TASKS]
        now = time.time()
        rows: dict[int, str] = {}
        for generation, (index, decision, result, minutes, duration) in enumerate(reversed(LOG_ROWS), start=1):
            task = user[index] if index >= 0 else system[-index - 1]
            at = now - minutes * 60
            entry = await services.store.log.start(task.id, task.title, at, generation, at)
            await services.store.log.finish(entry.id, decision, result, duration, at + duration / 1000)
            rows.setdefault(index, entry.id)
        for index, title, description, priority in ESCALATIONS:
            await services.store.escalations.create(
                task_id=user[index].id, log_id=rows.get(index), title=title, description=description,
                priority=priority, now=now - 240,
            )
        for text in MEMORIES:
            await services.memory.add(text)
        await services.store.state.save(EngineState(total_ticks=128, last_tick_at=now - 4 * 60))
    finally:
        await services.aclose()


# --- the X session ----------------------------------------------------------------------------------


def run_tool(*args: str, env: dict[str, str], timeout: float = 10, check: bool = True) -> str:
    done = subprocess.run(args, env=env, capture_output=True, text=True, timeout=timeout, check=False)
    if check and done.returncode != 0:
        raise ScreenshotError(f"{' '.join(args)} failed ({done.returncode}): {done.stderr.strip()}")
    return done.stdout


def wait_for(what: str, check: Callable[[], Any], timeout: float = 20.0, interval: float = 0.05) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise ScreenshotError(f"timed out after {timeout:.0f} s waiting for {what}")
        time.sleep(interval)


@dataclass
class XSession:
    """A private Xvfb display with an optional tray host; only processes started here are stopped here."""

    env: dict[str, str]
    processes: list[subprocess.Popen[bytes]] = field(default_factory=list)
    tray: subprocess.Popen[bytes] | None = None

    def start_tray(self) -> None:
        self.tray = subprocess.Popen(
            ["trayer", "--edge", "top", "--align", "right", "--widthtype", "request", "--height", str(TRAY_HEIGHT),
             "--SetDockType", "true", "--transparent", "false", "--tint", "0x2d2d2d", "--expand", "true",
             "--iconspacing", "4"],
            env=self.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        self.processes.append(self.tray)
        wait_for("the tray host", self.panel_id)

    def stop_tray(self) -> None:
        if self.tray is not None:
            stop_process(self.tray)
            self.tray = None

    def panel_id(self) -> str | None:
        out = run_tool("xdotool", "search", "--name", "^panel$", env=self.env, check=False).split()
        return out[0] if out else None

    def geometry(self, window: str) -> tuple[int, int, int, int]:
        values: dict[str, int] = {}
        for line in run_tool("xdotool", "getwindowgeometry", "--shell", window, env=self.env).splitlines():
            key, _, value = line.partition("=")
            if key in ("X", "Y", "WIDTH", "HEIGHT"):
                values[key] = int(value)
        return values["X"], values["Y"], values["WIDTH"], values["HEIGHT"]

    def tray_icon_rect(self) -> tuple[int, int, int, int] | None:
        """Where the embedded tray icon is; None while the panel is empty."""
        panel = self.panel_id()
        if panel is None:
            return None
        x, y, width, height = self.geometry(panel)
        if width <= 4:  # trayer's empty panel is 2 px wide
            return None
        return x, y, width, height

    def visible_window(self, name: str) -> str | None:
        out = run_tool("xdotool", "search", "--onlyvisible", "--name", name, env=self.env, check=False).split()
        return out[-1] if out else None

    def mouse(self, *args: str) -> None:
        run_tool("xdotool", *args, env=self.env)

    def focus(self, window: str) -> None:
        """Keyboard focus to ``window`` (there is no window manager to activate it)."""
        run_tool("xdotool", "windowfocus", "--sync", window, env=self.env)
        time.sleep(0.2)


def stop_process(process: subprocess.Popen[Any], timeout: float = 10) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout)


@contextmanager
def x_session() -> Iterator[XSession]:
    read, write = os.pipe()
    xvfb = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write), "-screen", "0", f"{SCREEN[0]}x{SCREEN[1]}x24", "-nolisten", "tcp",
         "-noreset"],
        pass_fds=(write,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    os.close(write)
    try:
        with os.fdopen(read) as pipe:
            display = pipe.readline().strip()
        if not display:
            raise ScreenshotError("Xvfb did not start")
        env = {**os.environ, "DISPLAY": f":{display}", "QT_QPA_PLATFORM": "xcb"}
        for key in ("WAYLAND_DISPLAY", "OPENHUMAN_WORKSPACE", "OLLAMA_HOST", "OPENHUMAN_COLOR_SCHEME"):
            env.pop(key, None)
        session = XSession(env)
        try:
            yield session
        finally:
            for process in reversed(session.processes):
                stop_process(process)
    finally:
        stop_process(xvfb)


# --- grabbing -------------------------------------------------------------------------------------------


class Grabber:
    """Takes screenshots of the X display with Qt (no ImageMagick needed)."""

    def __init__(self, display: str, out: Path) -> None:
        os.environ["DISPLAY"] = display
        os.environ["QT_QPA_PLATFORM"] = "xcb"
        from PySide6.QtGui import QGuiApplication

        self._app = QGuiApplication.instance() or QGuiApplication(["screenshots"])
        self.out = out
        self.saved: list[Path] = []

    def _save(self, pixmap: Any, name: str, scale: int = 1) -> Path:
        from PySide6.QtCore import Qt

        if pixmap.isNull():
            raise ScreenshotError(f"could not grab {name}")
        if scale > 1:
            pixmap = pixmap.scaled(pixmap.width() * scale, pixmap.height() * scale,
                                   Qt.AspectRatioMode.KeepAspectRatio, Qt.TransformationMode.FastTransformation)
        path = self.out / f"{name}.png"
        if not pixmap.save(str(path)):
            raise ScreenshotError(f"could not write {path}")
        self.saved.append(path)
        print(f"  saved {path.relative_to(self.out.parent) if self.out.parent in path.parents else path}")
        return path

    def region(self, name: str, x: int, y: int, width: int, height: int, scale: int = 1) -> Path:
        screen = self._app.primaryScreen()
        return self._save(screen.grabWindow(0, x, y, width, height), name, scale)

    def window(self, name: str, window_id: str) -> Path:
        screen = self._app.primaryScreen()
        return self._save(screen.grabWindow(int(window_id)), name)

    def icon_sheet(self, name: str) -> Path:
        """Every tray state at panel sizes, on a light and a dark panel colour."""
        from PySide6.QtCore import QPoint
        from PySide6.QtGui import QColor, QImage, QPainter, QPixmap

        from openhuman_desktop.qt import icons

        rows = [(state, 0) for state in icons.TRAY_STATES] + [(icons.ATTENTION, 2), (icons.ATTENTION, 14)]
        sizes = (16, 22, 24, 32, 48)
        cell = 56
        image = QImage(cell * len(sizes) * 2 + 24, cell * len(rows) + 16, QImage.Format.Format_ARGB32)
        image.fill(QColor("#F3F4F6"))
        painter = QPainter(image)
        half = cell * len(sizes) + 12
        painter.fillRect(half, 0, image.width() - half, image.height(), QColor("#1F2937"))
        for column_base in (8, half + 4):
            for row, (state, count) in enumerate(rows):
                for column, size in enumerate(sizes):
                    x = column_base + column * cell + (cell - size) // 2
                    y = 8 + row * cell + (cell - size) // 2
                    painter.drawImage(QPoint(x, y), icons.render(state, size, count))
        painter.end()
        return self._save(QPixmap.fromImage(image), name)


# --- the app ----------------------------------------------------------------------------------------------


class App:
    """``python -m openhuman_desktop --workspace WS`` on the X session."""

    def __init__(self, session: XSession, workspace: Path, logs: Path, extra_env: dict[str, str] | None = None,
                 label: str = "app") -> None:
        self.session = session
        self.workspace = workspace
        self.env = {**session.env, "PYTHONPATH": str(REPO), **(extra_env or {})}
        self.log_path = logs / f"{label}.stderr.txt"
        self._log = self.log_path.open("wb")
        self.started = time.monotonic()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "openhuman_desktop", "--workspace", str(workspace)],
            env=self.env, stdin=subprocess.DEVNULL, stdout=self._log, stderr=subprocess.STDOUT,
        )
        session.processes.append(self.process)

    def check_alive(self) -> None:
        if self.process.poll() is not None:
            raise ScreenshotError(f"the app exited with {self.process.returncode}:\n{self.tail()}")

    def tail(self, lines: int = 30) -> str:
        self._log.flush()
        text = self.log_path.read_text(encoding="utf-8", errors="replace").splitlines()
        log_file = self.workspace / "logs" / "openhuman.log"
        if log_file.exists():
            text += ["--- openhuman.log ---"] + log_file.read_text(encoding="utf-8", errors="replace").splitlines()
        return "\n".join(text[-lines:])

    def wait_ready(self, timeout: float = 60) -> None:
        rpc = self.workspace / "run" / "rpc.json"

        def ready() -> bool:
            self.check_alive()
            return rpc.exists()

        wait_for("the app to start (run/rpc.json)", ready, timeout)

    def cli(self, *args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "openhuman_desktop", "--workspace", str(self.workspace), *args],
            env=self.env, capture_output=True, text=True, timeout=timeout, check=False,
        )

    def wait_exit(self, how: str, timeout: float = 30) -> None:
        try:
            code = self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            raise ScreenshotError(f"the app did not exit within {timeout:.0f} s after {how}:\n{self.tail()}") from None
        if code != 0:
            raise ScreenshotError(f"the app exited with {code} after {how}:\n{self.tail()}")
        if (self.workspace / "run" / "rpc.json").exists():
            raise ScreenshotError(f"run/rpc.json is still there after {how}")
        print(f"  {how}: exit code 0, run/rpc.json removed")

    def close(self) -> None:
        stop_process(self.process)
        self._log.close()


def open_window_by_second_launch(app: App) -> str:
    done = app.cli()
    if done.returncode != 0:
        raise ScreenshotError(f"a second launch exited with {done.returncode}: {done.stderr.strip()}")
    print(f"  second launch: exit code 0 ({done.stderr.strip()})")
    return str(wait_for("the Intelligence window", lambda: app.session.visible_window(WINDOW_NAME), 20))


def open_tray_menu(session: XSession) -> tuple[int, int, int, int]:
    rect = wait_for("the tray icon", session.tray_icon_rect)
    x, y, width, height = rect
    session.mouse("mousemove", str(x + width // 2), str(y + height // 2))
    time.sleep(0.3)
    session.mouse("click", "3")
    time.sleep(0.8)
    return rect


def pointer_away(session: XSession) -> None:
    session.mouse("mousemove", "400", "500")
    time.sleep(0.3)


def hover_tray_icon(session: XSession) -> None:
    """Rest the pointer on the tray icon until its tooltip shows (it must arrive from elsewhere)."""
    x, y, width, height = wait_for("the tray icon", session.tray_icon_rect)
    session.mouse("mousemove", "400", "500")
    time.sleep(0.3)
    session.mouse("mousemove", str(x + width // 2), str(y + height // 2))
    time.sleep(2.0)  # the tooltip needs a moment of hovering


def close_menu(session: XSession) -> None:
    session.mouse("key", "Escape")
    time.sleep(0.3)
    pointer_away(session)


def settle(seconds: float = 1.2) -> None:
    """Give the app time to load and paint (it is another process; nothing to wait on)."""
    time.sleep(seconds)


def wait_in_tray(app: App, session: XSession) -> None:
    """Until the app's tray icon shows and it answers, then a moment to paint."""
    wait_for("the tray icon", session.tray_icon_rect, timeout=30)
    print(f"  tray icon visible {time.monotonic() - app.started:.2f} s after launch")
    app.wait_ready()
    settle(0.8)


def grab_tray_icon(session: XSession, grab: Grabber, name: str) -> None:
    """The tray icon, magnified four times, with a little of the panel around it."""
    x, y, width, height = wait_for("the tray icon", session.tray_icon_rect)
    grab.region(name, x - 8, y, width + 16, height, scale=4)


def stop_with_sigterm(app: App) -> None:
    app.process.send_signal(signal.SIGTERM)
    app.wait_exit("SIGTERM")


# --- the scenarios ----------------------------------------------------------------------------------------


def tray_scenario(session: XSession, grab: Grabber, workspace: Path, logs: Path, ollama: FakeOllama) -> None:
    print("light theme, with a system tray:")
    app = App(session, workspace, logs, label="light")
    try:
        wait_in_tray(app, session)
        grab_tray_icon(session, grab, "tray-attention")
        hover_tray_icon(session)
        grab.region("tray-tooltip", SCREEN[0] - 420, 0, 420, 160)
        open_tray_menu(session)
        grab.region("tray-menu", SCREEN[0] - 360, 0, 360, 280)
        close_menu(session)

        window = open_window_by_second_launch(app)
        settle()
        grab.window("window-subconscious", window)
        for key, name in (("ctrl+2", "window-skills"), ("ctrl+3", "window-memory")):
            session.focus(window)
            session.mouse("key", key)
            settle(0.8)
            grab.window(name, window)
        session.focus(window)
        session.mouse("key", "ctrl+1")

        # A tick that takes a while: the tray thinks, the log shows rows in progress.
        ollama.set_responder(slow_noop_evaluations(delay=6.0))
        triggered = app.cli("rpc", "subconscious_trigger")
        if triggered.returncode != 0:
            raise ScreenshotError(f"rpc subconscious_trigger failed: {triggered.stderr}")
        settle(1.5)
        grab_tray_icon(session, grab, "tray-thinking")
        grab.window("window-thinking", window)
        wait_for("the tick to finish", lambda: app_state(app) != "ticking", timeout=30, interval=0.3)

        # The local model fails: the tray shows a problem and says why.
        ollama.set_responder(failing_evaluations)
        added = app.cli("rpc", "subconscious_tasks_add", json.dumps({"title": "Check the backup log"}))
        if added.returncode != 0:  # a new task changes the situation, so the idle gate lets the model in
            raise ScreenshotError(f"rpc subconscious_tasks_add failed: {added.stderr}")
        app.cli("rpc", "subconscious_trigger")
        wait_for("the degraded state", lambda: app_state(app) == "degraded", timeout=30, interval=0.3)
        settle(0.8)
        grab_tray_icon(session, grab, "tray-problem")
        hover_tray_icon(session)
        grab.region("tray-problem-tooltip", SCREEN[0] - 720, 0, 720, 160)
        open_tray_menu(session)
        grab.region("tray-problem-menu", SCREEN[0] - 420, 0, 420, 280)
        close_menu(session)
        ollama.set_responder(None)

        # Quit from the tray menu, with the keyboard as a person might: Up wraps to "Quit".
        open_tray_menu(session)
        session.mouse("key", "Up")
        time.sleep(0.2)
        session.mouse("key", "Return")
        app.wait_exit("Quit from the tray menu")
    finally:
        app.close()


def dark_scenario(session: XSession, grab: Grabber, workspace: Path, logs: Path) -> None:
    print("dark theme, with a system tray:")
    app = App(session, workspace, logs, extra_env={"OPENHUMAN_COLOR_SCHEME": "dark"}, label="dark")
    try:
        wait_in_tray(app, session)
        open_tray_menu(session)
        grab.region("tray-menu-dark", SCREEN[0] - 360, 0, 360, 280)
        close_menu(session)
        window = open_window_by_second_launch(app)
        settle()
        grab.window("window-dark", window)
        stop_with_sigterm(app)
    finally:
        app.close()


def hidpi_scenario(session: XSession, grab: Grabber, workspace: Path, logs: Path) -> None:
    print("HiDPI (QT_SCALE_FACTOR=2), with a system tray:")
    app = App(session, workspace, logs, extra_env={"QT_SCALE_FACTOR": "2"}, label="hidpi")
    try:
        wait_in_tray(app, session)
        grab_tray_icon(session, grab, "tray-attention-hidpi")
        open_tray_menu(session)
        grab.region("tray-menu-hidpi", SCREEN[0] - 560, 0, 560, 520)
        close_menu(session)
        stop_with_sigterm(app)
    finally:
        app.close()


def no_tray_scenario(session: XSession, grab: Grabber, workspace: Path, logs: Path) -> None:
    print("no system tray:")
    session.stop_tray()
    app = App(session, workspace, logs, label="no-tray")
    try:
        app.wait_ready()
        window = str(wait_for("the window (no tray: it opens by itself)",
                              lambda: session.visible_window(WINDOW_NAME), 30))
        settle()
        grab.window("window-no-tray", window)
        session.focus(window)
        session.mouse("key", "ctrl+w")
        app.wait_exit("closing the window without a tray")
    finally:
        app.close()


def slow_noop_evaluations(delay: float) -> Callable[[Any], Reply]:
    """Evaluation requests answer "noop" for every task after ``delay`` seconds; other chats answer at once."""

    def respond(body: Any) -> Reply:
        if not (isinstance(body, dict) and body.get("format")):
            return Reply(content="read")
        text = json.dumps(body.get("messages", []))
        ids = sorted(set(part.split("]")[0] for part in text.split("- [")[1:]))
        evaluations = [{"task_id": task_id, "decision": "noop", "reason": "Nothing new.", "priority": "normal"}
                       for task_id in ids]
        return Reply(content=json.dumps({"evaluations": evaluations}), delay=delay)

    return respond


def failing_evaluations(body: Any) -> Reply:
    """The local model's server fails every evaluation (HTTP 500)."""
    if isinstance(body, dict) and body.get("format") and "evaluations" in json.dumps(body.get("format")):
        return Reply(status=500, error="model runner crashed (out of memory)")
    return Reply(content="read")


def app_state(app: App) -> str | None:
    done = app.cli("rpc", "subconscious_status", timeout=20)
    return str(json.loads(done.stdout).get("state")) if done.returncode == 0 else None


# --- main ---------------------------------------------------------------------------------------------------


# The windows' own screenshot scripts (each runs the real app or window under its own Xvfb; --out, --scheme).
WINDOW_SCRIPTS = (
    ("chat_screenshots.py", "Chat"), ("agent_screenshots.py", "Agent"), ("memory_screenshots.py", "Memory"),
    ("settings_screenshots.py", "Settings"), ("notification_screenshots.py", "Notifications"),
    ("onboarding_screenshots.py", "Onboarding"), ("skills_screenshots.py", "Skills"),
    ("desktop_screenshots.py", "Chat and Subconscious (issue 25)"),
    ("world_screenshots.py", "Mail, feeds, calendars and Slack (issue 22)"),
)


def tab_screenshots(out: Path, scheme: str, script: str = "chat_screenshots.py", tab: str = "Chat") -> bool:
    """Run one of :data:`WINDOW_SCRIPTS` (e.g. the Chat tab with a long streamed answer and a card); False
    when it failed or took longer than 180 s."""
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen",
           "PYTHONPATH": str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    env.pop("DISPLAY", None)
    command = [sys.executable, str(REPO / "scripts" / script), "--out", str(out), "--scheme", scheme]
    try:
        done = subprocess.run(command, env=env, timeout=180, check=False)
    except subprocess.TimeoutExpired:
        print(f"screenshots: the {tab} tab ({scheme}) took longer than 180 s", file=sys.stderr)
        return False
    if done.returncode != 0:
        print(f"screenshots: the {tab} tab ({scheme}) failed (exit {done.returncode})", file=sys.stderr)
    return done.returncode == 0


def missing_tools() -> list[str]:
    return [tool for tool in TOOLS if shutil.which(tool) is None]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=REPO / "screenshots", help="where the PNGs go")
    parser.add_argument("--keep", action="store_true", help="keep the temporary workspaces and logs")
    parser.add_argument("--web-only", action="store_true", help="only the web app's page (needs no X server)")
    args = parser.parse_args(argv)
    if args.web_only:
        return webapp_screenshots.main(["--out", str(args.out)])
    missing = missing_tools()
    if missing:
        print(f"screenshots: missing {', '.join(missing)}; install them with: apt-get install -y {APT_PACKAGES}",
              file=sys.stderr)
        return 2
    out: Path = args.out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    for old in out.glob("*.png"):
        old.unlink()
    scratch = Path(tempfile.mkdtemp(prefix="openhuman-screens-"))
    logs = scratch / "logs"
    logs.mkdir()
    failed = False
    try:
        with FakeOllama() as ollama, x_session() as session:
            ollama.add_model(MODEL, context_length=8192)
            ollama.default_reply = Reply(content="read")
            grab = Grabber(session.env["DISPLAY"], out)
            grab.icon_sheet("tray-icons")
            scenarios: list[tuple[str, Callable[[Path], None]]] = [
                ("tray", lambda ws: tray_scenario(session, grab, ws, logs, ollama)),
                ("dark", lambda ws: dark_scenario(session, grab, ws, logs)),
                ("hidpi", lambda ws: hidpi_scenario(session, grab, ws, logs)),
                ("no-tray", lambda ws: no_tray_scenario(session, grab, ws, logs)),
            ]
            session.start_tray()
            for name, scenario in scenarios:
                workspace = scratch / name
                write_config(workspace, ollama.url)
                asyncio.run(fill_workspace(workspace))
                try:
                    scenario(workspace)
                except ScreenshotError as exc:
                    failed = True
                    print(f"screenshots: {name}: {exc}", file=sys.stderr)
        for problem in webapp_screenshots.capture(out):  # the web app's page: headless chromium, no X needed
            failed = True
            print(f"screenshots: web app: {problem}", file=sys.stderr)
    except ScreenshotError as exc:
        failed = True
        print(f"screenshots: {exc}", file=sys.stderr)
    finally:
        for scheme in ("light", "dark"):
            for script, what in WINDOW_SCRIPTS:
                failed = not tab_screenshots(out, scheme, script, what) or failed
        if args.keep or failed:
            print(f"workspaces and logs kept in {scratch}")
        else:
            shutil.rmtree(scratch, ignore_errors=True)
    print(f"{len(list(out.glob('*.png')))} screenshots in {out}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
