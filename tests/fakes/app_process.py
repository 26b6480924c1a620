"""Start the real app (``python -m openhuman_desktop``) as a subprocess and talk to its JSON-RPC server."""

from __future__ import annotations

import json
import os
import resource
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from types import TracebackType
from typing import IO, Any, Self

import httpx

from tests.fakes.secret_watch import WATCH

REPO_ROOT = Path(__file__).resolve().parents[2]
METHOD_PREFIX = "openhuman."
# Nothing listens on port 1: a model call fails at once, so tests never reach a real Ollama by accident.
UNREACHABLE_OLLAMA = "http://127.0.0.1:1"
# A heartbeat an hour away: no scheduled tick interferes with a test (``subconscious_trigger`` still works).
QUIET_CONFIG = "[heartbeat]\ninterval_minutes = 60\n"
START_TIMEOUT = 30.0
STOP_TIMEOUT = 30.0


class AppExited(AssertionError):
    """The app process exited (or never published ``run/rpc.json``) while a test expected it to run."""


def app_env(ollama_url: str | None = UNREACHABLE_OLLAMA, extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment for a child process: a copy of ours with ``OLLAMA_HOST`` set (None keeps ours).

    ``OPENHUMAN_WORKSPACE`` is removed so only ``--workspace`` selects the workspace.
    """
    WATCH.add_environment(extra or {}, "the app's environment")  # no model or log may see them (conftest.py)
    env = dict(os.environ)
    env.pop("OPENHUMAN_WORKSPACE", None)
    env["PYTHONUNBUFFERED"] = "1"
    if ollama_url is not None:
        env["OLLAMA_HOST"] = ollama_url
    env.update(extra or {})
    return env


def run_cli(
    *args: str | os.PathLike[str],
    ollama_url: str | None = UNREACHABLE_OLLAMA,
    env: Mapping[str, str] | None = None,
    timeout: float = 60.0,
) -> subprocess.CompletedProcess[str]:
    """Run ``python -m openhuman_desktop ARGS`` to its end and return its exit code, stdout and stderr.

    Args:
        args: the command-line arguments, e.g. ``("--workspace", ws, "rpc", "subconscious_status")``.
        ollama_url: ``OLLAMA_HOST`` for the child (default: an address where nothing listens).
        env: extra environment variables.
        timeout: seconds before the child is killed and ``subprocess.TimeoutExpired`` is raised.
    """
    return subprocess.run(
        [sys.executable, "-m", "openhuman_desktop", *map(str, args)],
        cwd=REPO_ROOT, env=app_env(ollama_url, env), capture_output=True, text=True, timeout=timeout,
        stdin=subprocess.DEVNULL, check=False,
    )


def wait_for(condition: Callable[[], Any], timeout: float = 20.0, what: str = "condition") -> Any:
    """Poll ``condition`` until it returns something truthy (returned), or fail after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.01)
    raise AssertionError(f"{what} not reached within {timeout} s")


def finished_run(app: AppProcess, run_id: str, timeout: float = 30.0) -> dict[str, Any]:
    """The agent run ``run_id`` of ``app`` once it is no longer queued or running (``agent_run_get``)."""
    def done() -> dict[str, Any] | None:
        run: dict[str, Any] = app.result("agent_run_get", {"run_id": run_id})
        return run if run["status"] not in ("queued", "running") else None
    result: dict[str, Any] = wait_for(done, timeout, f"the end of run {run_id}")
    return result


def write_config(workspace: Path, text: str) -> None:
    """Create the workspace (mode 0700) if needed and write ``config.toml`` into it."""
    workspace.mkdir(mode=0o700, parents=True, exist_ok=True)
    (workspace / "config.toml").write_text(text, encoding="utf-8")


class AppProcess:
    """``python -m openhuman_desktop --headless --workspace DIR`` in a subprocess.

    Usage::

        with AppProcess(tmp_path / "ws") as app:       # starts, waits for run/rpc.json
            task = app.call("subconscious_tasks_add", {"title": "Check my inbox"})["result"]
            response = app.raw(b"not json")             # any bytes, any headers
        # leaving the block stops it with SIGTERM and asserts exit code 0

    Args:
        workspace: the workspace directory (created by the app if missing).
        ollama_url: ``OLLAMA_HOST`` for the app, e.g. ``FakeOllama().url``; the default is an address where
            nothing listens (never a real Ollama); None keeps the caller's environment.
        config: text written to ``config.toml`` before each start (default :data:`QUIET_CONFIG`: no
            scheduled tick for an hour); None leaves the file alone (the app writes its default on first run).
        env: extra environment variables.
        args: extra command-line arguments.
        start_timeout: seconds to wait for ``run/rpc.json``.
        open_files: the app's limit of open files (``RLIMIT_NOFILE``), or None to inherit ours.
    """

    def __init__(
        self,
        workspace: Path,
        *,
        ollama_url: str | None = UNREACHABLE_OLLAMA,
        config: str | None = QUIET_CONFIG,
        env: Mapping[str, str] | None = None,
        args: Sequence[str] = (),
        start_timeout: float = START_TIMEOUT,
        open_files: int | None = None,
    ) -> None:
        self.workspace = Path(workspace)
        self.ollama_url = ollama_url
        self.config = config
        self.env = dict(env or {})
        self.args = tuple(args)
        self.start_timeout = start_timeout
        self.open_files = open_files
        self.process: subprocess.Popen[bytes] | None = None
        self.url = ""
        self.token = ""
        self._stderr: IO[bytes] | None = None
        self._stdout: IO[bytes] | None = None
        self._last_output = ("", "")  # (stdout, stderr) of the last run, kept after it ended
        self._http: httpx.Client | None = None
        self._next_id = 0

    # --- files ----------------------------------------------------------------------------------

    @property
    def rpc_file(self) -> Path:
        return self.workspace / "run" / "rpc.json"

    @property
    def db_file(self) -> Path:
        """The subconscious database (CONTRACT §2)."""
        return self.workspace / "subconscious" / "subconscious.db"

    @property
    def pid(self) -> int:
        if self.process is None:
            raise RuntimeError("the app is not started")
        return self.process.pid

    @property
    def environment(self) -> dict[str, str]:
        """The app's environment as :meth:`start` gives it (ours with :attr:`env` on top)."""
        return {**os.environ, **self.env}

    def stderr_text(self) -> str:
        """Everything the process wrote to stderr (while it runs, or of the last run once it ended)."""
        return self._read(self._stderr) if self._stderr is not None else self._last_output[1]

    def stdout_text(self) -> str:
        """Like :meth:`stderr_text`, for stdout."""
        return self._read(self._stdout) if self._stdout is not None else self._last_output[0]

    @staticmethod
    def _read(stream: IO[bytes] | None) -> str:
        if stream is None or stream.closed:
            return ""
        stream.flush()
        stream.seek(0)
        return stream.read().decode("utf-8", errors="replace")

    # --- lifecycle ------------------------------------------------------------------------------

    def start(self) -> Self:
        """Start the process and wait until it published ``run/rpc.json`` (its own, by pid).

        Raises:
            AppExited: the process exited first, or the file did not appear within ``start_timeout``.
        """
        if self.process is not None:
            raise RuntimeError("the app is already started")
        if self.config is not None:
            write_config(self.workspace, self.config)
        self._last_output = ("", "")
        self._stdout = tempfile.TemporaryFile()  # noqa: SIM115 - closed in _close_streams
        self._stderr = tempfile.TemporaryFile()  # noqa: SIM115 - closed in _close_streams
        self.process = subprocess.Popen(
            [sys.executable, "-m", "openhuman_desktop", "--headless", "--workspace", str(self.workspace),
             *self.args],
            cwd=REPO_ROOT, env=app_env(self.ollama_url, self.env), stdin=subprocess.DEVNULL,
            stdout=self._stdout, stderr=self._stderr, preexec_fn=self._limits if self.open_files else None,
        )
        try:
            self._wait_for_rpc_file()
        except BaseException:
            self.kill()
            raise
        self._http = httpx.Client(timeout=30.0)
        return self

    def _limits(self) -> None:
        """In the child before it runs the app: its limit of open files."""
        assert self.open_files is not None
        resource.setrlimit(resource.RLIMIT_NOFILE, (self.open_files, self.open_files))

    def _wait_for_rpc_file(self) -> None:
        assert self.process is not None
        deadline = time.monotonic() + self.start_timeout
        while time.monotonic() < deadline:
            code = self.process.poll()
            if code is not None:
                raise AppExited(f"the app exited with code {code} before it listened; stderr:\n{self.stderr_text()}")
            data = self.read_rpc_file()
            if data is not None and data.get("pid") == self.process.pid:
                self.url, self.token = str(data["url"]), str(data["token"])
                WATCH.add(self.token, "the RPC token")
                WATCH.add_workspace(self.workspace, self.environment)
                return
            time.sleep(0.05)
        raise AppExited(f"no run/rpc.json after {self.start_timeout} s; stderr:\n{self.stderr_text()}")

    def read_rpc_file(self) -> dict[str, Any] | None:
        """The parsed ``run/rpc.json``, or None when it is missing or unreadable."""
        try:
            data = json.loads(self.rpc_file.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return data if isinstance(data, dict) else None

    def stop(self, timeout: float = STOP_TIMEOUT, *, expect_code: int | None = 0) -> int:
        """Send SIGTERM, wait for the exit and return the exit code (asserted to be ``expect_code``)."""
        process = self._require_process()
        self._close_http()
        # the web app's key, before a clean exit removes run/webapp.json
        WATCH.add_workspace(self.workspace, self.environment)
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
        try:
            code = process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            raise AssertionError(f"the app did not exit within {timeout} s of SIGTERM; stderr:\n"
                                 f"{self.stderr_text()}") from None
        stderr = self.stderr_text()
        self.process = None
        self._close_streams()
        if expect_code is not None:
            assert code == expect_code, f"exit code {code} (expected {expect_code}); stderr:\n{stderr}"
        return code

    def kill(self) -> None:
        """SIGKILL (like ``kill -9``) and reap the process; nothing is cleaned up by the app."""
        self._close_http()
        WATCH.add_workspace(self.workspace, self.environment)
        process, self.process = self.process, None
        if process is not None:
            if process.poll() is None:
                process.kill()
            process.wait(STOP_TIMEOUT)
        self._close_streams()

    def wait_exit(self, timeout: float = STOP_TIMEOUT) -> int:
        """Wait for the process to exit on its own and return its exit code (then ``stop``/``kill`` cleans up)."""
        code = self._require_process().wait(timeout)
        return code

    def _require_process(self) -> subprocess.Popen[bytes]:
        if self.process is None:
            raise RuntimeError("the app is not started")
        return self.process

    def _close_http(self) -> None:
        http, self._http = self._http, None
        if http is not None:
            http.close()

    def _close_streams(self) -> None:
        if self._stdout is not None and self._stderr is not None:
            self._last_output = (self._read(self._stdout), self._read(self._stderr))
        for stream in (self._stdout, self._stderr):
            if stream is not None:
                stream.close()
        self._stdout = self._stderr = None

    def __enter__(self) -> Self:
        return self.start() if self.process is None else self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if self.process is None:
            self._close_streams()
            return
        if exc_type is None:
            self.stop()
        else:
            self.kill()

    # --- requests -------------------------------------------------------------------------------

    @property
    def http(self) -> httpx.Client:
        if self._http is None:
            raise RuntimeError("the app is not running")
        return self._http

    def call(self, method: str, params: Any = None, *, request_id: Any = None) -> dict[str, Any]:
        """One JSON-RPC request; returns the response document (``{"result": ...}`` or ``{"error": ...}``).

        Args:
            method: with or without the ``openhuman.`` prefix.
            params: an object or array; None sends no ``params``.
            request_id: the ``id`` (default: a fresh number).
        """
        if not method.startswith(METHOD_PREFIX):
            method = METHOD_PREFIX + method
        if request_id is None:
            self._next_id += 1
            request_id = self._next_id
        body: dict[str, Any] = {"jsonrpc": "2.0", "method": method, "id": request_id}
        if params is not None:
            body["params"] = params
        response = self.raw(json.dumps(body).encode())
        assert response.status_code == 200, f"HTTP {response.status_code}: {response.text}"
        document = response.json()
        assert isinstance(document, dict), document
        assert document.get("id") == request_id, document
        return document

    def result(self, method: str, params: Any = None) -> Any:
        """The ``result`` of a call (fails the test on a JSON-RPC error)."""
        document = self.call(method, params)
        assert "error" not in document, f"{method}({params!r}) failed: {document['error']}"
        return document["result"]

    def error(self, method: str, params: Any = None) -> dict[str, Any]:
        """The ``error`` object of a call that must fail (fails the test on a result)."""
        document = self.call(method, params)
        assert "error" in document, f"{method}({params!r}) succeeded: {document.get('result')!r}"
        error: dict[str, Any] = document["error"]
        return error

    def raw(
        self,
        body: bytes | str,
        headers: Mapping[str, str] | None = None,
        *,
        method: str = "POST",
        token: str | None = None,
        authorize: bool = True,
    ) -> httpx.Response:
        """Send any body with any headers to the RPC URL.

        Args:
            body: the request body as is.
            headers: extra headers (an ``Authorization`` given here wins).
            method: the HTTP method.
            token: the bearer token to send (default: the right one).
            authorize: False sends no ``Authorization`` header at all.
        """
        sent: dict[str, str] = {"Content-Type": "application/json"}
        if authorize:
            sent["Authorization"] = f"Bearer {self.token if token is None else token}"
        sent.update(headers or {})
        content = body.encode() if isinstance(body, str) else body
        return self.http.request(method, self.url, content=content, headers=sent)
