"""The command line (CONTRACT §1): ``rpc``, ``--version``, ``--help``, config errors and ``doctor``."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from openhuman_desktop import __version__
from tests.fakes.app_process import QUIET_CONFIG, REPO_ROOT, AppProcess, app_env, run_cli, write_config
from tests.fakes.model_servers import FakeOllama

pytestmark = pytest.mark.e2e

LOCAL_MODEL, REASONING_MODEL = "llama3.2:3b", "qwen2.5:14b"  # the defaults of config.toml (CONTRACT §3)


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppProcess]:
    with AppProcess(tmp_path_factory.mktemp("cli") / "workspace") as running:
        yield running


def rpc(workspace: Path, *args: str) -> tuple[int, str, str]:
    done = run_cli("--workspace", workspace, "rpc", *args)
    return done.returncode, done.stdout, done.stderr


def one_line(text: str) -> str:
    lines = text.strip().splitlines()
    assert len(lines) == 1, text
    assert "Traceback" not in text
    return lines[0]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


# --- rpc --------------------------------------------------------------------------------------------


def test_rpc_prints_the_result(app: AppProcess) -> None:
    code, out, err = rpc(app.workspace, "subconscious_status")
    assert code == 0, err
    status = json.loads(out)
    assert status["interval_minutes"] == 60
    assert status["task_count"] == len(app.result("subconscious_tasks_list"))


def test_rpc_accepts_the_full_method_name(app: AppProcess) -> None:
    code, out, err = rpc(app.workspace, "openhuman.subconscious_tasks_list", '{"enabled_only": true}')
    assert code == 0, err
    assert json.loads(out) == app.result("subconscious_tasks_list", {"enabled_only": True})


def test_rpc_with_params_changes_the_running_instance(app: AppProcess) -> None:
    code, out, err = rpc(app.workspace, "subconscious_tasks_add", '{"title": "Added from the command line"}')
    assert code == 0, err
    task = json.loads(out)
    assert task["title"] == "Added from the command line"
    assert task["source"] == "user"
    assert task in app.result("subconscious_tasks_list")
    code, out, err = rpc(app.workspace, "subconscious_tasks_remove", json.dumps([task["id"]]))
    assert code == 0, err
    assert json.loads(out) == {"removed": task["id"]}


def test_rpc_prints_unicode(app: AppProcess) -> None:
    title = "Café ☕ — 日本語 \U0001f642"
    code, out, err = rpc(app.workspace, "subconscious_tasks_add", json.dumps({"title": title}, ensure_ascii=False))
    assert code == 0, err
    assert json.loads(out)["title"] == title


def test_workspace_may_follow_the_command(app: AppProcess) -> None:
    done = run_cli("rpc", "--workspace", app.workspace, "subconscious_status")
    assert done.returncode == 0, done.stderr
    assert "state" in json.loads(done.stdout)
    done = run_cli("rpc", "subconscious_status", env={"OPENHUMAN_WORKSPACE": str(app.workspace)})
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize(("args", "code", "words"), [
    (("subconscious_tasks_add", '{"title": ""}'), -32602, ["title"]),
    (("subconscious_tasks_add", '{"title": "x", "recurrence": "weekly"}'), -32602, ["recurrence"]),
    (("subconscious_tasks_remove", '{"task_id": "nope"}'), -32001, []),
    (("no_such_method",), -32601, ["no_such_method"]),
    (("subconscious_status", '"a string"'), -32600, []),
])
def test_rpc_errors_go_to_stderr_with_exit_1(app: AppProcess, args: tuple[str, ...], code: int,
                                              words: list[str]) -> None:
    exit_code, out, err = rpc(app.workspace, *args)
    assert exit_code == 1
    assert out == ""
    line = one_line(err)
    assert line.startswith(f"error {code}: ")
    for word in words:
        assert word in line


def test_removing_a_system_task_from_the_command_line(app: AppProcess) -> None:
    system = next(task for task in app.result("subconscious_tasks_list") if task["source"] == "system")
    exit_code, out, err = rpc(app.workspace, "subconscious_tasks_remove", json.dumps({"task_id": system["id"]}))
    assert (exit_code, out) == (1, "")
    assert one_line(err).startswith("error -32002: ")


def test_params_that_are_not_json(app: AppProcess) -> None:
    exit_code, out, err = rpc(app.workspace, "subconscious_tasks_add", "{title: nope}")
    assert exit_code == 2
    assert out == ""
    assert "PARAMS_JSON" in one_line(err)


def test_no_running_instance(tmp_path: Path) -> None:
    exit_code, out, err = rpc(tmp_path / "never-started", "subconscious_status")
    assert exit_code == 2
    assert out == ""
    assert "--headless" in one_line(err)


def test_a_stale_rpc_json_means_no_running_instance(tmp_path: Path) -> None:
    run = tmp_path / "ws" / "run"
    run.mkdir(parents=True)
    (run / "rpc.json").write_text(json.dumps(
        {"url": f"http://127.0.0.1:{free_port()}/rpc", "token": "old", "pid": 999_999}), encoding="utf-8")
    exit_code, out, err = rpc(tmp_path / "ws", "subconscious_status")
    assert (exit_code, out) == (2, "")
    one_line(err)
    (run / "rpc.json").write_text("{not json", encoding="utf-8")
    exit_code, out, err = rpc(tmp_path / "ws", "subconscious_status")
    assert (exit_code, out) == (2, "")
    one_line(err)


def test_after_a_clean_stop_there_is_no_instance(tmp_path: Path) -> None:
    app = AppProcess(tmp_path / "ws").start()
    assert rpc(app.workspace, "subconscious_status")[0] == 0
    app.stop()
    exit_code, _, err = rpc(app.workspace, "subconscious_status")
    assert exit_code == 2
    one_line(err)


@pytest.mark.parametrize("thread_id", ["cli:work", "cli:my week", "cli:" + "w" * 196, "telegram:42", "webapp:never"])
def test_a_well_formed_thread_without_runs_is_not_found(app: AppProcess, thread_id: str) -> None:
    """Not "invalid params": the thread is one ``agent_send`` takes, it has just no run yet (RPC and the agent
    used to disagree on what a thread id may be: ``cli:`` + 196 characters was valid to one, not the other)."""
    error = app.error("agent_state_get", {"thread_id": thread_id})
    assert error["code"] == -32001, error
    assert app.error("agent_history", {"thread_id": thread_id})["code"] == -32001


def test_a_thread_that_names_no_channel_is_invalid_params(app: AppProcess) -> None:
    error = app.error("agent_state_get", {"thread_id": "work"})
    assert error["code"] == -32602 and "names no channel" in error["message"]


def test_rpc_into_a_closed_pipe_prints_no_traceback(app: AppProcess) -> None:
    """``openhuman-desktop rpc … | head`` when ``head`` has already gone: no BrokenPipeError on stderr."""
    read_end, write_end = os.pipe()
    os.close(read_end)  # no reader at all: the first write fails with EPIPE, whatever the timing
    try:
        done = subprocess.run(
            [sys.executable, "-m", "openhuman_desktop", "--workspace", str(app.workspace), "rpc",
             "subconscious_tasks_list"],
            cwd=REPO_ROOT, env=app_env(), stdout=write_end, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
            text=True, timeout=60, check=False,
        )
    finally:
        os.close(write_end)
    assert "Traceback" not in done.stderr
    assert "BrokenPipe" not in done.stderr
    assert done.stderr == ""
    assert done.returncode == 0


def test_a_taken_rpc_port_is_one_sentence_not_a_traceback(tmp_path: Path) -> None:
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        workspace = tmp_path / "ws"
        write_config(workspace, f"{QUIET_CONFIG}\n[rpc]\nport = {port}\n")
        done = run_cli("--workspace", workspace, "--headless")
    assert done.returncode != 0
    assert "Traceback" not in done.stderr
    assert f"cannot listen on 127.0.0.1:{port}" in done.stderr
    assert "set [rpc] port = 0 in config.toml" in done.stderr


# --- version, help ----------------------------------------------------------------------------------


def test_version() -> None:
    done = run_cli("--version")
    assert done.returncode == 0
    assert __version__ in done.stdout


def test_help_mentions_the_commands() -> None:
    done = run_cli("--help")
    assert done.returncode == 0
    for word in ("rpc", "doctor", "--headless", "--workspace", "--version", "METHOD"):
        assert word in done.stdout


# --- config.toml ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "key", "value"), [
    ('[heartbeat]\ninterval_minutes = "soon"\n', "interval_minutes", "soon"),
    ("[heartbeat]\nenabled = 3\n", "enabled", "3"),
    ('[models.local]\nprovider = "carrier-pigeon"\n', "provider", "carrier-pigeon"),
])
def test_an_invalid_config_value_stops_the_start(tmp_path: Path, text: str, key: str, value: str) -> None:
    workspace = tmp_path / "ws"
    write_config(workspace, text)
    done = run_cli("--headless", "--workspace", workspace)
    assert done.returncode == 2
    line = one_line(done.stderr.strip().splitlines()[-1])
    assert str(workspace / "config.toml") in line
    assert key in line
    assert value in line
    assert not (workspace / "run" / "rpc.json").exists()


def test_an_unknown_config_key_is_a_warning(tmp_path: Path) -> None:
    config = QUIET_CONFIG + "colour = \"blue\"\n\n[telepathy]\nenabled = true\n"
    with AppProcess(tmp_path / "ws", config=config) as app:
        assert app.result("subconscious_status")["interval_minutes"] == 60
        stderr = app.stderr_text()
    warnings = [line for line in stderr.splitlines() if line.startswith("WARNING") and "config" in line]
    assert any("heartbeat.colour" in line for line in warnings), stderr
    assert any("telepathy" in line for line in warnings), stderr


# --- doctor -----------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def started_once(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh workspace as its first run leaves it (config.toml, HEARTBEAT.md, the database)."""
    workspace = tmp_path_factory.mktemp("doctor") / "ws"
    AppProcess(workspace, config=None).start().stop()
    return workspace


@pytest.fixture
def fresh(started_once: Path, tmp_path: Path) -> Path:
    """A private copy of :func:`started_once` (modes kept: the workspace stays 0700)."""
    return Path(shutil.copytree(started_once, tmp_path / "ws"))


def test_doctor_all_ok_with_the_models_present(fresh: Path) -> None:
    with FakeOllama() as ollama:
        ollama.add_model(LOCAL_MODEL, context_length=8192)
        ollama.add_model(REASONING_MODEL, context_length=32768)
        done = run_cli("--workspace", fresh, "doctor", ollama_url=ollama.url)
    lines = done.stdout.strip().splitlines()
    assert done.returncode == 0, done.stdout + done.stderr
    assert len(lines) >= 5  # workspace, config, database and the two model tiers
    assert all(line.startswith("ok") for line in lines), done.stdout
    for word in ("workspace", "config", "database", "integrity ok", LOCAL_MODEL, REASONING_MODEL):
        assert word in done.stdout


def test_doctor_shows_each_tiers_context_window_and_where_it_came_from(fresh: Path) -> None:
    write_config(fresh, f'[models.local]\nmodel = "{LOCAL_MODEL}"\ncontext_window = 2048\n')
    with FakeOllama() as ollama:
        ollama.add_model(LOCAL_MODEL, context_length=8192)
        ollama.add_model(REASONING_MODEL, context_length=32768)
        done = run_cli("--workspace", fresh, "doctor", ollama_url=ollama.url)
    assert done.returncode == 0, done.stdout + done.stderr
    [local] = [line for line in done.stdout.splitlines() if line.startswith("ok   model local")]
    [reasoning] = [line for line in done.stdout.splitlines() if line.startswith("ok   model reasoning")]
    assert "context window 2048 tokens (set in config.toml)" in local
    assert "context window 32768 tokens (reported by the server)" in reasoning
    assert "warning" not in done.stdout


def test_doctor_with_a_model_missing(fresh: Path) -> None:
    with FakeOllama() as ollama:
        ollama.add_model(LOCAL_MODEL)
        done = run_cli("--workspace", fresh, "doctor", ollama_url=ollama.url)
    assert done.returncode == 1
    [failure] = [line for line in done.stdout.splitlines() if line.startswith("FAIL")]
    assert REASONING_MODEL in failure and "fix:" in failure


def test_doctor_with_ollama_down(fresh: Path) -> None:
    done = run_cli("--workspace", fresh, "doctor", ollama_url="http://127.0.0.1:1")
    assert done.returncode == 1
    lines = done.stdout.strip().splitlines()
    failures = [line for line in lines if line.startswith("FAIL")]
    assert len(failures) >= 2, done.stdout  # the local and the reasoning tier
    for line in failures:
        assert "fix:" in line
        assert "127.0.0.1:1" in line or "Ollama" in line
    assert [line for line in lines if not line.startswith("FAIL")], "workspace, config and database still pass"
    assert all(line.startswith(("ok", "FAIL")) for line in lines)
    assert "Traceback" not in done.stdout + done.stderr


def test_doctor_reports_an_invalid_config(fresh: Path) -> None:
    write_config(fresh, '[heartbeat]\ninterval_minutes = "soon"\n')
    done = run_cli("--workspace", fresh, "doctor")
    assert done.returncode == 1
    [line] = [line for line in done.stdout.splitlines() if "interval_minutes" in line]
    assert line.startswith("FAIL") and "soon" in line and "fix:" in line
