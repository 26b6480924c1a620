"""The secrets the app holds and where they must never arrive: a model server's request or a log.

The autouse fixture in ``tests/conftest.py`` opens a watch around every test. It learns the secrets as they
appear: the tokens the app publishes (``run/rpc.json``, ``run/webapp.json``, ``channels/webapp-link.json``,
through :func:`spy_on_private_files` in this process and :class:`~tests.fakes.app_process.AppProcess` for the
app in a subprocess), and the values of environment variables named like ``*_TOKEN``, ``*_KEY``, ``*_SECRET`` or
``*PASSWORD*`` that a test sets (in this process, or for the app it starts). The fake model servers report
themselves and what they receive; a logging handler keeps the records; the app's log files are read at the end.
A leak fails the test, naming the secret and where it went (never its value).

It stays cheap: nothing is searched while the test runs, and at the end only when the test had a secret.
"""

from __future__ import annotations

import json
import logging
import os
import re
import sys
import threading
import weakref
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, Protocol

from openhuman_desktop.applog import QUIET_LOGGERS

SECRET_NAME = re.compile(r"(_TOKEN|_KEY|_SECRET)$|PASSWORD", re.IGNORECASE)
MIN_SECRET_CHARS = 8
"""Shorter values ("1", "true") are settings, not secrets, and would match everywhere."""
PUBLISHED = {"rpc.json": "the RPC token", "webapp.json": "the web app's key", "webapp-link.json": "the web app's key"}
SCRATCH_DEPTH = 3
"""How deep below a test's ``tmp_path`` a workspace is looked for (``tmp_path/ws``, ``tmp_path/a/b``)."""
_FORMATTER = logging.Formatter()


class Received(Protocol):
    """What a fake model server recorded of one request."""

    @property
    def path(self) -> str: ...

    @property
    def target(self) -> str: ...

    @property
    def raw(self) -> bytes: ...


class _Records(logging.Handler):
    """Keeps every record that reaches the root logger while a test runs (searched only at its end)."""

    def __init__(self) -> None:
        super().__init__(logging.NOTSET)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)
        note_environment()  # a variable set for a moment (around an app's life) is seen while it is set


def _secret_environment() -> dict[bytes, bytes]:
    """The secret-named variables of this process (bytes: no decoding of every name)."""
    for _ in range(3):  # another thread may change the environment while it is read
        try:
            return {name: value for name, value in os.environb.items() if _SECRET_NAME_BYTES.search(name)}
        except RuntimeError:
            continue
    return {}


_SECRET_NAME_BYTES = re.compile(SECRET_NAME.pattern.encode(), re.IGNORECASE)


class SecretWatch:
    """The secrets of the running test, the requests and logs to search, and the search.

    Args:
        every_server: search what every fake model server receives (the session's watch); otherwise only the
            servers given to :meth:`watch_server`.
    """

    def __init__(self, *, every_server: bool = False) -> None:
        self._lock = threading.Lock()
        self._active = False
        self._every_server = every_server
        self._secrets: dict[str, str] = {}  # value → what it is, for this test
        self._lasting: dict[str, str] = {}  # registered between tests (a module's app): kept for later tests
        self._baseline = _secret_environment()  # what was set before: the machine's, not a test's
        self._servers: weakref.WeakSet[Any] = weakref.WeakSet()
        self._ignored: weakref.WeakSet[Any] = weakref.WeakSet()
        self._received: list[tuple[str, Received]] = []
        self._log_folders: set[Path] = set()
        self._handler: _Records | None = None

    # --- learning the secrets ---------------------------------------------------------------------------

    def add(self, value: object, what: str) -> None:
        """``value`` must reach no model and no log (ignored when it is too short to be a secret)."""
        if not isinstance(value, str) or len(value.strip()) < MIN_SECRET_CHARS:
            return
        with self._lock:
            (self._secrets if self._active else self._lasting).setdefault(value.strip(), what)

    def knows(self, value: str) -> str | None:
        """What the secret ``value`` is, when the watch knows it (for this test or for good), else None."""
        with self._lock:
            return self._secrets.get(value.strip()) or self._lasting.get(value.strip())

    def add_published(self, path: Path) -> None:
        """The token in one of the app's published files (``run/rpc.json`` …), if it is there."""
        what = PUBLISHED.get(path.name)
        if what is None:
            return
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return
        if isinstance(data, dict):
            self.add(data.get("token"), what)

    def add_workspace(self, workspace: Path, environ: Mapping[str, str] | None = None) -> None:
        """A workspace of the app: its published tokens now, and its log files at the end of the test.

        Args:
            environ: the environment of the app (in a subprocess) that uses this workspace: the secrets in the
                variables its ``config.toml`` names are learnt too.
        """
        for name in ("run/rpc.json", "run/webapp.json", "channels/webapp-link.json"):
            self.add_published(workspace / name)
        for name, value in configured_secrets(workspace / "config.toml", environ or {}).items():
            self.add(value, f"the secret in ${name}")
        with self._lock:
            self._log_folders.add(workspace / "logs")

    def add_environment(self, values: Mapping[str, str], where: str = "the environment") -> None:
        """The values of the variables in ``values`` whose names say they hold a secret."""
        for name, value in values.items():
            if SECRET_NAME.search(name):
                self.add(value, f"{name} from {where}")

    def note_environment(self) -> None:
        """Secret-named variables of this process that were set after the watch began (by a test)."""
        if not self._active:
            return
        for name, value in _secret_environment().items():
            if self._baseline.get(name) != value:
                self.add(os.fsdecode(value), f"{os.fsdecode(name)} from the environment")

    def watch_server(self, server: object) -> None:
        """Search what ``server`` receives (a watch of its own; the session's searches every server)."""
        with self._lock:
            self._servers.add(server)
            self._ignored.discard(server)

    def unwatch_server(self, server: object) -> None:
        """Stop searching ``server`` (a test of a watch of its own leaks on purpose)."""
        with self._lock:
            self._servers.discard(server)
            self._ignored.add(server)

    def received(self, server: object, request: Received) -> None:
        """A fake model server received ``request``: searched at the end of the test, if one is running."""
        if not self._active or server in self._ignored or not (self._every_server or server in self._servers):
            return
        with self._lock:
            self._received.append((type(server).__name__, request))

    # --- the test's window ----------------------------------------------------------------------------

    def begin(self) -> None:
        """A test starts: forget its predecessor's secrets and requests."""
        _OPEN.add(self)
        with self._lock:
            self._secrets = {}
            self._received = []
            self._log_folders = set()
            self._active = True
        self._handler = _Records()
        logging.getLogger().addHandler(self._handler)

    def end(self, scratch: Path | None = None) -> list[str]:
        """The test ended: every leak it caused, one sentence each (empty when none).

        Args:
            scratch: the test's ``tmp_path``: tokens left there by an app that was killed, and log files of
                apps started without :class:`AppProcess`.
        """
        handler, self._handler = self._handler, None
        if handler is not None:
            logging.getLogger().removeHandler(handler)
        self.note_environment()
        _OPEN.discard(self)
        folders = set(self._log_folders)
        if scratch is not None:
            for workspace in _workspaces(scratch):
                for name in ("run/rpc.json", "run/webapp.json", "channels/webapp-link.json"):
                    self.add_published(workspace / name)
                folders.add(workspace / "logs")
        with self._lock:
            self._active = False
            secrets = {**self._lasting, **self._secrets}
            received, self._received = self._received, []
        if not secrets:
            return []
        found = _Finder(secrets)
        leaks: list[str] = []
        for number, (server, request) in enumerate(received, start=1):
            text = request.target + "\n" + request.raw.decode("utf-8", errors="replace")
            leaks += found.in_text(text, f"a request to {server} {request.path} (the test's #{number})")
        for record in handler.records if handler is not None else ():
            if _is_kept(record):
                leaks += found.in_text(_record_text(record), f"a log record of {record.name} ({record.levelname})")
        for folder in sorted(folders):
            for path in sorted(folder.glob("openhuman.log*")):
                try:
                    text = path.read_text(encoding="utf-8", errors="replace")
                except OSError:
                    continue
                leaks += found.in_text(text, f"the log file {path}")
        return leaks


def _workspaces(scratch: Path) -> list[Path]:
    """Folders below ``scratch`` (itself included, at most ``SCRATCH_DEPTH`` down) that hold ``run/``,
    ``channels/`` or ``logs/``: the workspaces of apps this test ran, killed or stopped."""
    found: list[Path] = []
    pending = [(os.fspath(scratch), 0)]
    while pending:
        folder, depth = pending.pop()
        try:
            with os.scandir(folder) as listing:
                names = [entry.name for entry in listing if entry.is_dir(follow_symlinks=False)]
        except OSError:
            continue
        if {"run", "channels", "logs"} & set(names):
            found.append(Path(folder))
        if depth < SCRATCH_DEPTH:
            pending.extend((os.path.join(folder, name), depth + 1) for name in names)
    return found


def _is_kept(record: logging.LogRecord) -> bool:
    """Whether the app's log keeps ``record``: everything of its own (DEBUG too, should it ever be turned on),
    and what a library its log quiets (``applog.QUIET_LOGGERS``: httpx names every URL) says at WARNING or
    above. A test that turns those libraries up (``caplog.set_level(DEBUG)``) sees more than the app logs."""
    if record.levelno >= logging.WARNING:
        return True
    return not any(record.name == quiet or record.name.startswith(quiet + ".") for quiet in QUIET_LOGGERS)


def _record_text(record: logging.LogRecord) -> str:
    try:
        text = record.getMessage()
    except Exception:  # a broken record is the logging test's own business
        text = str(record.msg)
    if record.exc_info:
        text += "\n" + _FORMATTER.formatException(record.exc_info)
    return text


class _Finder:
    """One search for all the secrets at once."""

    def __init__(self, secrets: Mapping[str, str]) -> None:
        self._what = dict(secrets)

    def in_text(self, text: str, where: str) -> list[str]:
        found = []
        for value, what in self._what.items():
            start = text.find(value)  # str.find is a fast substring search; most texts hold no secret
            while start >= 0:
                end = start + len(value)
                found.append(f"{what} reached {where}: …{text[max(0, start - 40):start]}<{what}>{text[end:end + 40]}…")
                start = text.find(value, end)
        return found


_OPEN: weakref.WeakSet[SecretWatch] = weakref.WeakSet()
WATCH = SecretWatch(every_server=True)
"""The one watch of the test session (the fixture, the fake servers and AppProcess report to it)."""


def note_environment() -> None:
    """Every open watch notes the secret-named variables set now (a variable set for a moment is seen)."""
    for watch in list(_OPEN):
        watch.note_environment()


def received(server: object, request: Received) -> None:
    """What a fake model server calls for each request it records."""
    for watch in list(_OPEN):
        watch.note_environment()
        watch.received(server, request)


def spy_on_private_files() -> None:
    """Let the watch see every token the app publishes in this process (``private_file.write_private_json``).

    Call it before the app's modules bind the function by name (``tests/conftest.py`` does, first thing);
    modules that already did are patched too.
    """
    from openhuman_desktop import private_file

    original: Callable[[Path, object], None] = private_file.write_private_json

    def write_private_json(path: Path, data: object) -> None:
        if isinstance(data, dict):
            WATCH.add(data.get("token"), PUBLISHED.get(Path(path).name, f"the token in {Path(path).name}"))
        original(path, data)

    _spy(private_file, "write_private_json", write_private_json)


def spy_on_secret_reads() -> None:
    """Let the watch learn every secret the app reads in this process: a key, a token, a password or a webhook
    address from the variable its config names (``secret_env.secret_from``), whatever the variable is called.

    Call it before the app's modules bind the function by name (``tests/conftest.py`` does, first thing).
    """
    from openhuman_desktop import secret_env

    original: Callable[[Mapping[str, str] | None, str | None], str] = secret_env.secret_from

    def secret_from(environ: Mapping[str, str] | None, name: str | None) -> str:
        value = original(environ, name)
        WATCH.add(value, f"the secret in ${name}")
        return value

    _spy(secret_env, "secret_from", secret_from)


def _spy(module: Any, name: str, spy: Callable[..., Any]) -> None:
    """Put ``spy`` in place of ``module.name``, in the app's modules that already bound it by name too."""
    original = getattr(module, name)
    if getattr(original, "is_secret_spy", False):
        return
    spy.is_secret_spy = True  # type: ignore[attr-defined]
    spy.__doc__ = original.__doc__
    setattr(module, name, spy)
    for module_name, other in list(sys.modules.items()):
        if module_name.startswith("openhuman_desktop") and getattr(other, name, None) is original:
            setattr(other, name, spy)


def configured_secrets(config_file: Path, environ: Mapping[str, str]) -> dict[str, str]:
    """The values in ``environ`` of the variables that ``config_file`` names as holding a secret
    (``api_key_env``, ``token_env``, ``password_env``, ``webhook_env``, ``env_from``, ``headers_from``), by
    variable name; empty when the file is missing or invalid. For an app in a subprocess, whose reads the spy
    does not see."""
    from openhuman_desktop import config

    try:
        settings = config.load(config_file, environ).settings
    except config.ConfigError:
        return {}
    names = {model.api_key_env or "" for model in settings.models.values()}
    names |= {settings.channels.telegram.token_env, settings.skills.email.password_env,
              settings.skills.slack.webhook_env}
    for server in settings.skills.mcp.values():
        names |= {*server.env_from.values(), *server.headers_from.values()}
    return {name: environ[name] for name in sorted(names) if name and environ.get(name)}
