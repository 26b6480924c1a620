"""Smoke-start the desktop bundle the way a person and CI would, and measure it against running from source.

Usage (from the checkout, with the venv that has the test extras and PyInstaller)::

    .venv/bin/python packaging/smoke.py --build          # build dist/openhuman-desktop, then check it
    .venv/bin/python packaging/smoke.py                  # check an existing bundle
    .venv/bin/python packaging/smoke.py --display :64    # a fixed Xvfb display (default: a free one)

Checks, each printed as one ``ok``/``FAIL`` line (exit code 1 when any fails):

1. ``--version`` of the bundle; what is in it: every module of ours, none of those packaging/lean.py leaves
   out, no unused Qt plugin or GTK library.
2. ``--headless`` on a fresh workspace against a fake Ollama on 127.0.0.1: ``run/rpc.json`` appears,
   ``openhuman-desktop rpc subconscious_status`` through the bundle answers, a tick runs to its end, the web
   app serves its page byte for byte, HEARTBEAT.md is written, ``doctor`` passes (the tokenizer line: exact
   counts), SIGTERM ends it with exit code 0 and no traceback on stderr or in the log.
3. The tray app offscreen (``QT_QPA_PLATFORM=offscreen``) and on a private Xvfb display with a tray host
   (trayer): the tray icon is embedded, RPC answers, SIGTERM → exit code 0, no traceback.
4. The install script: install into a temporary home, start the installed launcher, uninstall.
   With ``--screenshots DIR``: the bundle's tray menu and window under Xvfb, light and dark.
5. Figures: bundle size (MB, files) and start time (launch → RPC answers), the bundle and
   ``python -m openhuman_desktop`` from source side by side, headless and GUI offscreen.

Needs ``Xvfb``, ``trayer`` and ``xdotool`` for 3 (``--no-x`` skips that part, saying so).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

ROOT = Path(__file__).resolve().parent.parent
for _path in (ROOT, ROOT / "packaging"):
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))

import httpx  # noqa: E402

from bench.responders import noop_responder  # noqa: E402
from openhuman_desktop import __version__  # noqa: E402
from tests.fakes.model_servers import FakeOllama  # noqa: E402

import build as bundle_build  # noqa: E402  (packaging/build.py)
import lean  # noqa: E402  (packaging/lean.py)

NAME = "openhuman-desktop"
QUIET_CONFIG = "[heartbeat]\ninterval_minutes = 60\n"  # no scheduled tick while we look
START_TIMEOUT = 60.0
STOP_TIMEOUT = 30.0
X_TOOLS = ("Xvfb", "trayer", "xdotool")
WEB_ASSETS = {"/": "webapp/index.html", "/app.css": "webapp/app.css", "/app.js": "webapp/app.js",
              "/markdown.js": "webapp/markdown.js", "/favicon.svg": "icons/app.svg"}
RESOURCES = ROOT / "openhuman_desktop" / "resources"


class SmokeFailure(Exception):
    """A check failed; the message says what was seen."""


@dataclass
class Report:
    """The ok/FAIL lines and the figures of one smoke run."""

    failures: int = 0
    figures: list[str] = field(default_factory=list)

    def check(self, name: str, run: Callable[[], str]) -> bool:
        """Run one check and print its line; a failure is counted, never raised."""
        started = time.monotonic()
        try:
            detail = run()
        except (SmokeFailure, OSError, subprocess.SubprocessError, httpx.HTTPError, ValueError, ImportError) as exc:
            self.failures += 1
            print(f"FAIL {name}: {exc}", flush=True)
            return False
        print(f"ok   {name}: {detail} ({time.monotonic() - started:.1f} s)", flush=True)
        return True


# --- starting the app ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Launcher:
    """How one kind of app is started: the bundle's executable, or this checkout from source."""

    label: str
    command: tuple[str, ...]
    pythonpath: str | None  # None: PYTHONPATH is removed (a bundle must not need it)

    def env(self, extra: dict[str, str] | None = None) -> dict[str, str]:
        env = dict(os.environ)
        for key in ("OPENHUMAN_WORKSPACE", "OLLAMA_HOST", "OPENHUMAN_COLOR_SCHEME", "PYTHONPATH", "PYTHONHOME",
                    "QT_PLUGIN_PATH", "QT_QPA_PLATFORM", "TIKTOKEN_CACHE_DIR"):
            env.pop(key, None)
        if self.pythonpath is not None:
            env["PYTHONPATH"] = self.pythonpath
        env["PYTHONUNBUFFERED"] = "1"
        env.update(extra or {})
        return env


def bundle_launcher(bundle: Path) -> Launcher:
    return Launcher("bundle", (str(bundle / NAME),), None)


def source_launcher() -> Launcher:
    return Launcher("source", (sys.executable, "-m", "openhuman_desktop"), str(ROOT))


def traceback_in(*texts: str) -> str | None:
    """The first line of a Python traceback in any of ``texts``, or None."""
    for text in texts:
        for line in text.splitlines():
            if line.startswith("Traceback (most recent call last)"):
                return line
    return None


class RunningApp:
    """The app in a subprocess on ``workspace``; its output goes to files, read on failure."""

    def __init__(self, launcher: Launcher, workspace: Path, args: Sequence[str] = (),
                 env: dict[str, str] | None = None) -> None:
        self.launcher = launcher
        self.workspace = workspace
        self.args = tuple(args)
        self.env = launcher.env(env)
        self._stdout: IO[bytes] = tempfile.TemporaryFile()  # noqa: SIM115 - closed in close()
        self._stderr: IO[bytes] = tempfile.TemporaryFile()  # noqa: SIM115 - closed in close()
        self.process: subprocess.Popen[bytes] | None = None
        self.url = self.token = ""
        self.started = 0.0

    def start(self) -> RunningApp:
        self.started = time.perf_counter()
        self.process = subprocess.Popen(
            [*self.launcher.command, "--workspace", str(self.workspace), *self.args],
            cwd=tempfile.gettempdir(), env=self.env, stdin=subprocess.DEVNULL, stdout=self._stdout,
            stderr=self._stderr,
        )
        return self

    def output(self) -> str:
        parts = []
        for stream in (self._stdout, self._stderr):
            stream.flush()
            stream.seek(0)
            parts.append(stream.read().decode("utf-8", errors="replace"))
        return "\n".join(parts)

    def log(self) -> str:
        try:
            return (self.workspace / "logs" / "openhuman.log").read_text(encoding="utf-8", errors="replace")
        except FileNotFoundError:
            return ""

    def wait_ready(self, timeout: float = START_TIMEOUT) -> float:
        """Wait until ``run/rpc.json`` names this process and a status call answers; the seconds since start."""
        assert self.process is not None
        deadline = time.monotonic() + timeout
        rpc_file = self.workspace / "run" / "rpc.json"
        with httpx.Client(timeout=5.0) as http:
            while time.monotonic() < deadline:
                code = self.process.poll()
                if code is not None:
                    raise SmokeFailure(f"{self.launcher.label} exited with {code} before RPC answered:\n"
                                       f"{self.output()[-2000:]}")
                try:
                    data = json.loads(rpc_file.read_text(encoding="utf-8"))
                except (OSError, ValueError):
                    data = None
                if isinstance(data, dict) and data.get("pid") == self.process.pid:
                    self.url, self.token = str(data["url"]), str(data["token"])
                    if self._answers(http):
                        return time.perf_counter() - self.started
                time.sleep(0.01)
        raise SmokeFailure(f"{self.launcher.label}: no RPC answer within {timeout:.0f} s:\n{self.output()[-2000:]}")

    def _answers(self, http: httpx.Client) -> bool:
        try:
            self.call("subconscious_status", http=http)
        except (httpx.HTTPError, SmokeFailure):
            return False
        return True

    def call(self, method: str, params: Any = None, http: httpx.Client | None = None) -> Any:
        body: dict[str, Any] = {"jsonrpc": "2.0", "id": 1, "method": "openhuman." + method}
        if params is not None:
            body["params"] = params
        post = http.post if http is not None else httpx.post
        response = post(self.url, json=body, headers={"Authorization": f"Bearer {self.token}"}, timeout=10.0)
        document = response.json()
        if "error" in document:
            raise SmokeFailure(f"{method} failed: {document['error']}")
        return document["result"]

    def stop(self) -> None:
        """SIGTERM; it must exit 0 with no traceback on stderr or in the log."""
        assert self.process is not None
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            code = self.process.wait(STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            raise SmokeFailure(f"{self.launcher.label} did not exit within {STOP_TIMEOUT:.0f} s of SIGTERM") from None
        if code != 0:
            raise SmokeFailure(f"{self.launcher.label} exited with {code} after SIGTERM:\n{self.output()[-2000:]}")
        found = traceback_in(self.output(), self.log())
        if found:
            raise SmokeFailure(f"{self.launcher.label} wrote a traceback:\n{self.output()[-2000:]}\n"
                               f"{self.log()[-2000:]}")

    def close(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        self._stdout.close()
        self._stderr.close()


@contextmanager
def running(launcher: Launcher, workspace: Path, args: Sequence[str] = (),
            env: dict[str, str] | None = None) -> Iterator[RunningApp]:
    """Start the app, wait for RPC, yield it, and stop it (a clean exit is part of the check)."""
    workspace.mkdir(mode=0o700, parents=True, exist_ok=True)
    if not (workspace / "config.toml").exists():
        (workspace / "config.toml").write_text(QUIET_CONFIG, encoding="utf-8")
    app = RunningApp(launcher, workspace, args, env).start()
    try:
        app.wait_ready()
        yield app
        app.stop()
    finally:
        app.close()


def run_cli(launcher: Launcher, *args: str, env: dict[str, str] | None = None,
            timeout: float = 60.0) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*launcher.command, *args], env=launcher.env(env), cwd=tempfile.gettempdir(),
                          capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL, check=False)


# --- the checks ---------------------------------------------------------------------------------------


def our_modules() -> set[str]:
    """Every module of ``openhuman_desktop`` in this checkout, by dotted name."""
    package = ROOT / "openhuman_desktop"
    names = set()
    for path in package.rglob("*.py"):
        parts = path.relative_to(ROOT).with_suffix("").parts
        names.add(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


def bundled_modules(executable: Path) -> set[str]:
    """The Python modules in the bundle's archive (read with PyInstaller's own reader)."""
    from PyInstaller.archive.readers import CArchiveReader  # type: ignore[import-untyped]

    archive = CArchiveReader(str(executable))
    [pyz] = [name for name in archive.toc if name.endswith(".pyz")]
    return set(archive.open_embedded_archive(pyz).toc)


def check_lean(bundle: Path) -> str:
    """Nothing left out is in, everything of ours is: the modules in the archive, the files in the folder."""
    internal = bundle / "_internal"
    files = [path.relative_to(internal).as_posix() for path in internal.rglob("*") if path.is_file()]
    unwanted = [name for name in files if lean.is_unwanted(name) or lean.is_unwanted_data(name)
                or name.startswith(("libgtk-3.", "libgdk-3.", "libcairo."))]
    if unwanted:
        raise SmokeFailure(f"left-out files are in the bundle: {', '.join(sorted(unwanted)[:10])}")
    modules = bundled_modules(bundle / NAME)
    excluded = sorted(name for name in modules
                      if any(name == top or name.startswith(top + ".") for top in lean.EXCLUDED_MODULES))
    if excluded:
        raise SmokeFailure(f"excluded modules are in the bundle: {', '.join(excluded[:10])}")
    ours = our_modules()
    missing = sorted(ours - modules)
    if missing:
        raise SmokeFailure(f"modules of ours are missing from the bundle: {', '.join(missing[:10])}")
    return (f"{len(modules)} modules (all {len(ours)} of ours, none of the {len(lean.EXCLUDED_MODULES)} left out); "
            "no GTK, no unused Qt plugin, no Qt translations")


def check_version(bundle: Launcher) -> str:
    done = run_cli(bundle, "--version")
    expected = f"{NAME} {__version__}"
    if done.returncode != 0 or done.stdout.strip() != expected:
        raise SmokeFailure(f"--version printed {done.stdout.strip()!r} (exit {done.returncode}), expected "
                           f"{expected!r}; stderr: {done.stderr.strip()[-500:]}")
    return expected


def fake_ollama() -> FakeOllama:
    """A fake Ollama with the default config's models that says ``noop`` to every task of a tick."""
    server = FakeOllama()
    server.add_model("llama3.2:3b", context_length=8192)
    server.add_model("qwen2.5:14b", context_length=32768)
    server.set_responder(noop_responder)
    return server


def check_headless(bundle: Launcher, root: Path, ollama: FakeOllama) -> str:
    workspace = root / "headless"
    env = {"OLLAMA_HOST": ollama.url}
    with running(bundle, workspace, ["--headless"], env) as app:
        done = run_cli(bundle, "--workspace", str(workspace), "rpc", "subconscious_status", env=env)
        if done.returncode != 0:
            raise SmokeFailure(f"`rpc subconscious_status` through the bundle exited {done.returncode}: "
                               f"{done.stderr.strip()}")
        status = json.loads(done.stdout)
        if status.get("state") != "idle":
            raise SmokeFailure(f"status is {status.get('state')!r} ({status.get('state_reason')}), expected idle")
        app.call("subconscious_trigger")
        ticks = wait_until(lambda: app.call("subconscious_status")["total_ticks"] >= 1, "the first tick", 60)
        if not ticks or not ollama.chat_requests:
            raise SmokeFailure("the tick sent no evaluation request to the model")
        web = web_app_pages(workspace)
        heartbeat = workspace / "HEARTBEAT.md"
        if heartbeat.read_bytes() != (RESOURCES / "HEARTBEAT.md").read_bytes():
            raise SmokeFailure(f"{heartbeat} differs from the shipped HEARTBEAT.md")
        doctor = run_cli(bundle, "--workspace", str(workspace), "doctor", env=env)
        if doctor.returncode != 0 or "ok   tokenizer: cl100k_base, exact" not in doctor.stdout:
            raise SmokeFailure(f"doctor through the bundle (exit {doctor.returncode}):\n{doctor.stdout}{doctor.stderr}")
    return (f"rpc status answered (state idle), a tick evaluated {status['task_count']} tasks, {web}, "
            "HEARTBEAT.md written, doctor all ok (tokenizer exact), SIGTERM → exit 0")


def web_app_pages(workspace: Path) -> str:
    """Every file of the web page, fetched from the running app and compared with the checkout's."""
    try:
        data = json.loads((workspace / "run" / "webapp.json").read_text(encoding="utf-8"))
    except FileNotFoundError:
        log = (workspace / "logs" / "openhuman.log").read_text(encoding="utf-8", errors="replace")
        errors = [line for line in log.splitlines() if line.startswith(("ERROR", "CRITICAL", "FileNotFound"))]
        raise SmokeFailure("the web app did not start (no run/webapp.json); the log says: "
                           + " | ".join(errors[-3:] or ["nothing"])) from None
    base = str(data["url"]).split("#")[0].split("?")[0].rstrip("/")
    with httpx.Client(timeout=10.0) as http:
        for path, name in WEB_ASSETS.items():
            response = http.get(base + path)
            if response.status_code != 200 or response.content != (RESOURCES / name).read_bytes():
                raise SmokeFailure(f"the web app's {path} answered HTTP {response.status_code} with "
                                   f"{len(response.content)} bytes, not the {name} of the checkout")
    return f"the web app served its {len(WEB_ASSETS)} files"


def check_gui_offscreen(bundle: Launcher, root: Path, ollama: FakeOllama) -> str:
    workspace = root / "gui-offscreen"
    env = {"OLLAMA_HOST": ollama.url, "QT_QPA_PLATFORM": "offscreen"}
    with running(bundle, workspace, (), env) as app:
        status = app.call("subconscious_status")
    return f"the tray app ran offscreen, RPC answered (state {status['state']}), SIGTERM → exit 0"


def wait_until(condition: Callable[[], Any], what: str, timeout: float = 20.0) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.05)
    raise SmokeFailure(f"{what}: not within {timeout:.0f} s")


@contextmanager
def x_display(display: str) -> Iterator[dict[str, str]]:
    """A private Xvfb display (``auto``: a free number) with trayer as the tray host; yields the X env."""
    read, write = os.pipe()
    command = ["Xvfb", "-screen", "0", "1280x800x24", "-nolisten", "tcp", "-noreset"]
    if display == "auto":
        command[1:1] = ["-displayfd", str(write)]
    else:
        command.insert(1, display)
    xvfb = subprocess.Popen(command, pass_fds=(write,), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    os.close(write)
    processes: list[subprocess.Popen[bytes]] = [xvfb]
    try:
        if display == "auto":
            with os.fdopen(read) as pipe:
                display = ":" + pipe.readline().strip()
        else:
            os.close(read)
        env = {"DISPLAY": display, "QT_QPA_PLATFORM": "xcb"}
        wait_until(lambda: x_answers(env) or xvfb.poll() is not None, f"Xvfb on {display}", 20)
        if xvfb.poll() is not None:
            error = xvfb.stderr.read().decode(errors="replace") if xvfb.stderr else ""
            raise SmokeFailure(f"Xvfb could not start on {display}: {error.strip()[-300:]}")
        tray = subprocess.Popen(
            ["trayer", "--edge", "top", "--align", "right", "--widthtype", "request", "--height", "32",
             "--SetDockType", "true", "--transparent", "false", "--expand", "true"],
            env={**os.environ, **env}, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        processes.append(tray)
        wait_until(lambda: panel(env), "the tray host (trayer)", 20)
        yield env
    finally:
        for process in reversed(processes):
            if process.poll() is None:
                process.terminate()
                try:
                    process.wait(10)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()
        if xvfb.stderr is not None:
            xvfb.stderr.close()


def xdotool(env: dict[str, str], *args: str) -> str:
    done = subprocess.run(["xdotool", *args], env={**os.environ, **env}, capture_output=True, text=True,
                          timeout=10, check=False)
    return done.stdout if done.returncode == 0 else ""


def x_answers(env: dict[str, str]) -> bool:
    return bool(xdotool(env, "getdisplaygeometry").strip())


def panel(env: dict[str, str]) -> str | None:
    found = xdotool(env, "search", "--name", "^panel$").split()
    return found[0] if found else None


def tray_icon_width(env: dict[str, str]) -> int:
    """The width of trayer's panel: 2 px while empty, more once an icon is embedded."""
    window = panel(env)
    if window is None:
        return 0
    for line in xdotool(env, "getwindowgeometry", "--shell", window).splitlines():
        key, _, value = line.partition("=")
        if key == "WIDTH":
            return int(value)
    return 0


def check_gui_x(bundle: Launcher, root: Path, ollama: FakeOllama, display: str) -> str:
    workspace = root / "gui-x"
    with x_display(display) as x_env:
        env = {"OLLAMA_HOST": ollama.url, **x_env}
        with running(bundle, workspace, (), env) as app:
            wait_until(lambda: tray_icon_width(x_env) > 4, "the tray icon in the tray host", 30)
            status = app.call("subconscious_status")
            output = app.output()
        if "qt.qpa" in output or "Could not load the Qt platform plugin" in output:
            raise SmokeFailure(f"Qt complained about its platform plugin:\n{output[-1500:]}")
        wait_until(lambda: tray_icon_width(x_env) <= 4, "the tray icon to go after SIGTERM", 10)
    return (f"on Xvfb {x_env['DISPLAY']} the tray icon was embedded, RPC answered (state {status['state']}), "
            "SIGTERM → exit 0, icon gone")


def check_install(bundle: Path, root: Path) -> str:
    home = root / "home"
    env = {**os.environ, "HOME": str(home), "XDG_DATA_HOME": str(home / ".local" / "share"),
           "XDG_CONFIG_HOME": str(home / ".config")}
    script = ROOT / "packaging" / "install.py"

    def run(*args: str) -> None:
        done = subprocess.run([sys.executable, str(script), *args], env=env, capture_output=True, text=True,
                              timeout=120, check=False)
        if done.returncode != 0:
            raise SmokeFailure(f"install.py {' '.join(args)} exited {done.returncode}: {done.stderr.strip()}")

    run("install", "--bundle", str(bundle))
    launcher = home / ".local" / "bin" / NAME
    entry = home / ".local" / "share" / "applications" / "io.openhuman.Desktop.desktop"
    icon = home / ".local" / "share" / "icons" / "hicolor" / "scalable" / "apps" / "io.openhuman.Desktop.svg"
    for path in (launcher, entry, icon):
        if not path.exists():
            raise SmokeFailure(f"after install {path} is missing")
    exec_line = next(line for line in entry.read_text(encoding="utf-8").splitlines() if line.startswith("Exec="))
    version = subprocess.run([str(launcher), "--version"], capture_output=True, text=True, timeout=60, check=False,
                             env=Launcher("installed", (), None).env())
    if version.stdout.strip() != f"{NAME} {__version__}":
        raise SmokeFailure(f"the installed launcher printed {version.stdout!r} {version.stderr[-300:]!r}")
    validated = ""
    if shutil.which("desktop-file-validate"):
        checked = subprocess.run(["desktop-file-validate", str(entry)], capture_output=True, text=True, check=False)
        if checked.returncode != 0 or checked.stdout.strip():
            raise SmokeFailure(f"desktop-file-validate: {checked.stdout.strip()} {checked.stderr.strip()}")
        validated = ", desktop-file-validate clean"
    run("uninstall")
    left = [str(path) for path in (launcher, entry, icon, home / ".local" / "opt" / NAME) if path.exists()]
    if left:
        raise SmokeFailure(f"after uninstall these are still there: {', '.join(left)}")
    return f"installed ({exec_line}), the launcher ran{validated}, uninstalled without a trace"


def start_times(launchers: Sequence[Launcher], root: Path, ollama: FakeOllama, runs: int) -> list[str]:
    """Launch → RPC answers, headless and GUI offscreen, for each launcher in turn (interleaved runs)."""
    modes: tuple[tuple[str, list[str], dict[str, str]], ...] = (
        ("headless", ["--headless"], {}), ("GUI offscreen", [], {"QT_QPA_PLATFORM": "offscreen"}))
    lines = []
    for mode, args, extra in modes:
        times: dict[str, list[float]] = {launcher.label: [] for launcher in launchers}
        for n in range(runs):
            for launcher in launchers:
                workspace = root / f"timing-{launcher.label}-{mode.replace(' ', '-')}"
                app = RunningApp(launcher, workspace, args, {"OLLAMA_HOST": ollama.url, **extra})
                if n == 0:
                    workspace.mkdir(mode=0o700, parents=True, exist_ok=True)
                    (workspace / "config.toml").write_text(QUIET_CONFIG, encoding="utf-8")
                try:
                    app.start()
                    times[launcher.label].append(app.wait_ready())
                    app.stop()
                finally:
                    app.close()
        cells = [f"{label} median {statistics.median(values):.2f} s (min {min(values):.2f}, max {max(values):.2f})"
                 for label, values in times.items()]
        lines.append(f"start time {mode} (launch → RPC answers, n={runs}): " + "; ".join(cells))
    return lines


# --- main ---------------------------------------------------------------------------------------------


def missing_x_tools() -> list[str]:
    return [tool for tool in X_TOOLS if shutil.which(tool) is None]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--bundle", type=Path, default=ROOT / "dist" / NAME, help="the bundle folder")
    parser.add_argument("--build", action="store_true", help="build it first (packaging/build.py)")
    parser.add_argument("--display", default="auto", help="Xvfb display, e.g. :64 (default: a free one)")
    parser.add_argument("--no-x", action="store_true", help="skip the Xvfb check (no X tools here)")
    parser.add_argument("--runs", type=int, default=3, help="launches timed per kind and mode")
    parser.add_argument("--screenshots", type=Path, metavar="DIR",
                        help="then save screenshots of the bundle under Xvfb into DIR (scripts/bundle_screenshots.py)")
    args = parser.parse_args(argv)
    report = Report()
    started = time.monotonic()
    bundle = args.bundle.resolve()
    if args.build:
        build_started = time.monotonic()
        try:
            bundle = bundle_build.build(bundle.parent, ROOT / "build" / "pyinstaller")
        except bundle_build.BuildError as exc:
            print(f"FAIL build: {exc}", flush=True)
            return 1
        report.figures.append(f"build time {time.monotonic() - build_started:.0f} s")
    if not (bundle / NAME).is_file():
        print(f"FAIL bundle: {bundle / NAME} does not exist; build it with `python packaging/build.py` "
              "(or pass --build)", flush=True)
        return 1
    size = bundle_build.bundle_size(bundle)
    report.figures.append(f"bundle size {size.describe()} ({bundle})")
    launcher = bundle_launcher(bundle)
    with tempfile.TemporaryDirectory(prefix="openhuman-smoke-") as temporary, fake_ollama() as ollama:
        root = Path(temporary)
        report.check("--version", lambda: check_version(launcher))
        report.check("lean", lambda: check_lean(bundle))
        report.check("headless", lambda: check_headless(launcher, root, ollama))
        report.check("GUI offscreen", lambda: check_gui_offscreen(launcher, root, ollama))
        missing = missing_x_tools()
        if args.no_x:
            print("skip GUI on Xvfb: --no-x", flush=True)
        elif missing:
            report.check("GUI on Xvfb", lambda: _raise(f"{', '.join(missing)} not installed "
                                                       "(apt-get install xvfb trayer xdotool), or pass --no-x"))
        else:
            report.check("GUI on Xvfb", lambda: check_gui_x(launcher, root, ollama, args.display))
        report.check("install", lambda: check_install(bundle, root))
        if args.screenshots is not None:
            report.check("screenshots", lambda: bundle_screenshots(bundle, args.screenshots.resolve()))
        timing: list[str] = []
        if report.check("start times", lambda: _times(timing, [launcher, source_launcher()], root, ollama,
                                                       args.runs)):
            report.figures.extend(timing)
    print("== figures", flush=True)
    for line in report.figures:
        print(f"   {line}", flush=True)
    verdict = "all checks passed" if not report.failures else f"{report.failures} check(s) FAILED"
    print(f"smoke: {verdict} in {time.monotonic() - started:.0f} s", flush=True)
    return 0 if not report.failures else 1


def bundle_screenshots(bundle: Path, out: Path) -> str:
    """The tray menu and the window of the bundle, light and dark (scripts/bundle_screenshots.py)."""
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "bundle_screenshots.py"), "--bundle", str(bundle),
                           "--out", str(out)], capture_output=True, text=True, timeout=180, check=False,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    if done.returncode != 0:
        raise SmokeFailure(f"scripts/bundle_screenshots.py exited {done.returncode}:\n{done.stdout}{done.stderr}")
    lines = [line.strip() for line in done.stdout.splitlines()]
    saved = [line.removeprefix("saved ") for line in lines if line.startswith("saved ")]  # a path may hold spaces
    return f"{len(saved)} PNGs in {out}: " + ", ".join(Path(name).name for name in saved)


def _times(into: list[str], launchers: list[Launcher], root: Path, ollama: FakeOllama, runs: int) -> str:
    into.extend(start_times(launchers, root, ollama, runs))
    return f"{runs} launches of each, interleaved"


def _raise(message: str) -> str:
    raise SmokeFailure(message)


if __name__ == "__main__":
    sys.exit(main())
