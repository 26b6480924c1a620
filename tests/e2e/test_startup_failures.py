"""Start-up failures end as one sentence on stderr, exit 2, no traceback — and nothing is lost (issue 9)."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from tests.fakes.app_process import QUIET_CONFIG, REPO_ROOT, AppProcess, app_env, run_cli, write_config
from tests.fakes.model_servers import FakeOllama, Reply

pytestmark = pytest.mark.e2e

PREFIX = "openhuman-desktop: "


def the_sentence(stderr: str) -> str:
    """The one sentence a failed start ends with (after any log lines a headless run prints)."""
    assert "Traceback" not in stderr, stderr
    lines = [line for line in stderr.strip().splitlines() if line.strip()]
    assert lines, "nothing on stderr"
    last = lines[-1]
    assert last.startswith(PREFIX), stderr
    sentence = last[len(PREFIX):]
    assert stderr.count(sentence) == 1, stderr  # said once, not also as a log line
    return sentence


@pytest.fixture(scope="module")
def started_once(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A workspace as its first run leaves it (config.toml, HEARTBEAT.md, databases, logs)."""
    workspace = tmp_path_factory.mktemp("startup") / "ws"
    AppProcess(workspace).start().stop()
    return workspace


def can_mount() -> bool:
    """Root with mount namespaces: a private tmpfs can be mounted (and is gone with its process)."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0 or shutil.which("unshare") is None:
        return False
    probe = subprocess.run(
        ["unshare", "-m", "--propagation", "private", "sh", "-c", "mount -t tmpfs -o size=64k tmpfs /mnt"],
        capture_output=True, check=False,
    )
    return probe.returncode == 0


needs_mount = pytest.mark.skipif(not can_mount(), reason="needs root and mount namespaces (unshare -m)")


def run_in_private_mount(script: str, workspace: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Run ``script`` (sh, sets up mounts) then the app on ``workspace``, in a private mount namespace.

    Whatever the script mounts disappears with the process: nothing to clean up, nothing leaks.
    """
    command = f'{script}\nWS="$1"; shift; exec "$PY" -m openhuman_desktop --workspace "$WS" "$@"'
    env = app_env(extra={"PY": sys.executable})
    return subprocess.run(
        ["unshare", "-m", "--propagation", "private", "sh", "-ec", command, "sh", str(workspace), *args],
        cwd=REPO_ROOT, env=env, capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL, check=False,
    )


# --- item 16: read-only, disk full, port taken, nested config, no display ---------------------------


@needs_mount
def test_a_read_only_file_system_under_an_existing_workspace(started_once: Path, tmp_path: Path) -> None:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    script = (f'mount -t tmpfs -o size=16m tmpfs "{workspace}"\n'
              f'cp -a "{started_once}/." "{workspace}/"\n'
              f'mount -o remount,ro "{workspace}"')
    done = run_in_private_mount(script, workspace, "--headless")
    assert done.returncode == 2, done.stderr
    sentence = the_sentence(done.stderr)
    assert "read-only" in sentence and str(workspace) in sentence


@needs_mount
def test_a_read_only_file_system_for_a_new_workspace(tmp_path: Path) -> None:
    mount_point = tmp_path / "ro"
    mount_point.mkdir()
    script = f'mount -t tmpfs -o size=1m,ro tmpfs "{mount_point}"'
    done = run_in_private_mount(script, mount_point / "ws", "--headless")
    assert done.returncode == 2, done.stderr
    assert "read-only" in the_sentence(done.stderr)


@needs_mount
@pytest.mark.parametrize("fresh", [False, True], ids=["existing-workspace", "new-workspace"])
def test_a_full_disk_at_start_is_said_as_such(started_once: Path, tmp_path: Path, fresh: bool) -> None:
    mount_point = tmp_path / "small"
    mount_point.mkdir()
    workspace = mount_point / "ws"
    copy = "" if fresh else f'cp -a "{started_once}" "{workspace}"\n'
    script = (f'mount -t tmpfs -o size=2m tmpfs "{mount_point}"\n{copy}'
              f'dd if=/dev/zero of="{mount_point}/filler" bs=4k 2>/dev/null || true')
    done = run_in_private_mount(script, workspace, "--headless")
    assert done.returncode == 2, done.stderr
    sentence = the_sentence(done.stderr)
    assert "disk full" in sentence or "disk is full" in sentence
    assert "I/O error" not in sentence


def test_the_rpc_port_taken(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        write_config(tmp_path / "ws", QUIET_CONFIG + f"[rpc]\nport = {port}\n")
        done = run_cli("--headless", "--workspace", tmp_path / "ws")
    assert done.returncode == 2, done.stderr
    sentence = the_sentence(done.stderr)
    assert str(port) in sentence
    assert not (tmp_path / "ws" / "run" / "rpc.json").exists()


def test_a_deeply_nested_config(tmp_path: Path) -> None:
    depth = 50_000
    write_config(tmp_path / "ws", "[heartbeat]\nenabled = " + "[" * depth + "]" * depth + "\n")
    done = run_cli("--headless", "--workspace", tmp_path / "ws")
    assert done.returncode == 2, done.stderr
    sentence = the_sentence(done.stderr)
    assert "config.toml" in sentence and "nested" in sentence
    assert "RecursionError" not in done.stderr


def gui_env(**changes: str | None) -> dict[str, str]:
    env = app_env()
    for key, value in changes.items():
        env.pop(key, None)
        if value is not None:
            env[key] = value
    return env


def test_the_gui_without_a_display_says_what_to_do(tmp_path: Path) -> None:
    env = gui_env(DISPLAY=None, WAYLAND_DISPLAY=None, QT_QPA_PLATFORM=None)
    done = subprocess.run(
        [sys.executable, "-m", "openhuman_desktop", "--workspace", str(tmp_path / "ws")],
        cwd=REPO_ROOT, env=env, capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL, check=False,
    )
    assert done.returncode == 2, done.stderr
    sentence = the_sentence(done.stderr)
    assert "--headless" in sentence and "DISPLAY" in sentence
    assert "xcb" not in done.stderr


def test_a_bad_config_at_gui_start_is_logged_and_said(tmp_path: Path) -> None:
    workspace = tmp_path / "ws"
    write_config(workspace, '[heartbeat]\ninterval_minutes = "soon"\n')
    done = subprocess.run(
        [sys.executable, "-m", "openhuman_desktop", "--workspace", str(workspace)],
        cwd=REPO_ROOT, env=gui_env(QT_QPA_PLATFORM="offscreen"), capture_output=True, text=True, timeout=60,
        stdin=subprocess.DEVNULL, check=False,
    )
    assert done.returncode == 2, done.stderr
    sentence = the_sentence(done.stderr)
    assert "interval_minutes" in sentence and "soon" in sentence
    log_text = (workspace / "logs" / "openhuman.log").read_text(encoding="utf-8")
    assert "interval_minutes" in log_text and "soon" in log_text


# --- item 13: an empty database is refused at start, and left as it is -------------------------------


@pytest.mark.parametrize("name", ["subconscious/subconscious.db", "memory/memory.db"])
def test_an_empty_database_stops_the_start_and_is_kept(started_once: Path, tmp_path: Path, name: str) -> None:
    workspace = Path(shutil.copytree(started_once, tmp_path / "ws"))
    database = workspace / name
    for side in (database.with_name(database.name + "-wal"), database.with_name(database.name + "-shm")):
        side.unlink(missing_ok=True)
    database.write_bytes(b"")
    done = run_cli("--headless", "--workspace", workspace)
    assert done.returncode == 2, done.stderr
    sentence = the_sentence(done.stderr)
    assert str(database) in sentence and "empty (0 bytes)" in sentence
    assert database.read_bytes() == b""


# --- item 14: start-up never waits on a model, nor on a HEARTBEAT.md that is not a file ---------------


def test_the_app_answers_at_once_while_the_model_hangs(tmp_path: Path) -> None:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    lines = [f"- Check inbox number {n}" for n in range(20)] + ["- Send the weekly report"]
    (workspace / "HEARTBEAT.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    with FakeOllama() as ollama:
        ollama.add_model("llama3.2:3b")
        ollama.add_model("qwen2.5:14b")
        ollama.default_reply = Reply(content='{"intent": "write"}', delay=3600)  # never answers
        # 21 lines × a 20 s model timeout kept the RPC server closed for 7 minutes before.
        with AppProcess(workspace, ollama_url=ollama.url, start_timeout=20) as app:
            tasks = {t["title"]: t for t in app.result("subconscious_tasks_list") if t["title"] in
                     {line[2:] for line in lines}}
            assert len(tasks) == len(lines)
            assert tasks["Send the weekly report"]["intent"] == "write"  # the keyword intent, at once
            assert tasks["Check inbox number 0"]["intent"] == "read"
            ollama.wait_for_requests(1, path="/api/chat", timeout=20)  # the model is asked in the background
            assert app.result("subconscious_status")["task_count"] >= len(lines)


def test_a_fifo_heartbeat_file_does_not_block_start_up(started_once: Path, tmp_path: Path) -> None:
    workspace = Path(shutil.copytree(started_once, tmp_path / "ws"))
    (workspace / "HEARTBEAT.md").unlink()
    os.mkfifo(workspace / "HEARTBEAT.md")
    app = AppProcess(workspace, start_timeout=20)
    with app:
        assert app.result("subconscious_tasks_list")  # the default tasks are still there
    log_text = (workspace / "logs" / "openhuman.log").read_text(encoding="utf-8")
    assert "HEARTBEAT.md is not a regular file" in log_text
    assert "HEARTBEAT.md is not a regular file" in app.stderr_text()
