"""Screenshots of the installed desktop bundle (not ``python -m``) under Xvfb, light and dark: the tray menu and
the Intelligence window, to see that the bundle looks like the app from source (fonts, SVG icons, palette).

Usage: ``python scripts/bundle_screenshots.py [--bundle dist/openhuman-desktop] [--out screenshots]``; build the
bundle first (``python packaging/build.py``). Saves ``bundle-tray-menu-{light,dark}.png`` and
``bundle-window-{light,dark}.png``; exit code 1 when anything fails (a missing bundle is exit code 2).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from scripts.screenshots import (  # noqa: E402
    MODEL,
    SCREEN,
    TOOLS,
    App,
    Grabber,
    ScreenshotError,
    XSession,
    close_menu,
    fill_workspace,
    open_tray_menu,
    open_window_by_second_launch,
    settle,
    stop_with_sigterm,
    wait_in_tray,
    write_config,
    x_session,
)
from tests.fakes.model_servers import FakeOllama, Reply  # noqa: E402

NAME = "openhuman-desktop"


def bundle_env(session: XSession, extra: dict[str, str]) -> dict[str, str]:
    """The X session's environment without anything that would let the bundle use this checkout's Python."""
    env = {**session.env, **extra}
    for key in ("PYTHONPATH", "PYTHONHOME", "QT_PLUGIN_PATH"):
        env.pop(key, None)
    return env


class BundleApp(App):
    """The bundle's executable on the X session (the rest as :class:`scripts.screenshots.App`)."""

    def __init__(self, session: XSession, bundle: Path, workspace: Path, logs: Path, scheme: str) -> None:
        # App.__init__ starts ``python -m``: set up the same fields with the bundle instead.
        import time

        self.session = session
        self.workspace = workspace
        self.executable = bundle / NAME
        self.env = bundle_env(session, {"OPENHUMAN_COLOR_SCHEME": scheme})
        self.log_path = logs / f"bundle-{scheme}.stderr.txt"
        self._log = self.log_path.open("wb")
        self.started = time.monotonic()
        self.process = subprocess.Popen(
            [str(self.executable), "--workspace", str(workspace)], env=self.env, cwd=tempfile.gettempdir(),
            stdin=subprocess.DEVNULL, stdout=self._log, stderr=subprocess.STDOUT,
        )
        session.processes.append(self.process)

    def cli(self, *args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
        return subprocess.run([str(self.executable), "--workspace", str(self.workspace), *args], env=self.env,
                              capture_output=True, text=True, timeout=timeout, check=False)


def capture(session: XSession, grab: Grabber, bundle: Path, workspace: Path, logs: Path, scheme: str) -> None:
    print(f"the bundle, {scheme}:")
    app = BundleApp(session, bundle, workspace, logs, scheme)
    try:
        wait_in_tray(app, session)
        open_tray_menu(session)
        grab.region(f"bundle-tray-menu-{scheme}", SCREEN[0] - 360, 0, 360, 280)
        close_menu(session)
        window = open_window_by_second_launch(app)
        settle()
        grab.window(f"bundle-window-{scheme}", window)
        stop_with_sigterm(app)
    finally:
        app.close()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--bundle", type=Path, default=REPO / "dist" / NAME, help="the bundle folder")
    parser.add_argument("--out", type=Path, default=REPO / "screenshots", help="where the PNGs go")
    args = parser.parse_args(argv)
    bundle = args.bundle.resolve()
    if not (bundle / NAME).is_file():
        print(f"bundle screenshots: {bundle / NAME} does not exist; build it with `python packaging/build.py`",
              file=sys.stderr)
        return 2
    missing = [tool for tool in TOOLS if shutil.which(tool) is None]
    if missing:
        print(f"bundle screenshots: missing {', '.join(missing)}", file=sys.stderr)
        return 2
    out: Path = args.out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    scratch = Path(tempfile.mkdtemp(prefix="openhuman-bundle-screens-"))
    logs = scratch / "logs"
    logs.mkdir()
    failed = False
    try:
        with FakeOllama() as ollama, x_session() as session:
            ollama.add_model(MODEL, context_length=8192)
            ollama.default_reply = Reply(content="read")
            grab = Grabber(session.env["DISPLAY"], out)
            session.start_tray()
            for scheme in ("light", "dark"):
                workspace = scratch / scheme
                write_config(workspace, ollama.url)
                asyncio.run(fill_workspace(workspace))
                try:
                    capture(session, grab, bundle, workspace, logs, scheme)
                except ScreenshotError as exc:
                    failed = True
                    print(f"bundle screenshots: {scheme}: {exc}", file=sys.stderr)
    finally:
        if failed:
            print(f"workspaces and logs kept in {scratch}")
        else:
            shutil.rmtree(scratch, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    os.environ.setdefault("QT_API", "pyside6")
    sys.exit(main())
