"""The MCP client against a real server process (the SDK's server side, tests/skills/mcp_fixture_server.py)."""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from openhuman_desktop.clock import SystemClock
from openhuman_desktop.llm.tokens import TokenCounter
from openhuman_desktop.skills.base import SkillRegistry, Tool, ToolContext
from openhuman_desktop.skills.mcp.server import IDEMPOTENT_MARK, McpSkill
from tests.fakes.clock import FakeClock
from tests.skills.mcp_support import FIXTURE, fixture_settings, wait_state

WRITES = ToolContext(run_id="r1", writes_allowed=True)
READS = ToolContext(run_id="r1", writes_allowed=False)


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("FIXTURE_DIR", str(tmp_path))
    return tmp_path


async def started(settings_: object, **kwargs: object) -> McpSkill:
    skill = McpSkill(settings_, SystemClock(), TokenCounter(), environ={"FIXTURE_DIR": os.environ["FIXTURE_DIR"],
                                                                        **kwargs.pop("environ", {})},  # type: ignore[dict-item]
                     **kwargs)  # type: ignore[arg-type]
    skill.start()
    await wait_state(skill, "connected", "error")
    return skill


@pytest.fixture
async def fx(folder: Path) -> AsyncIterator[McpSkill]:
    skill = await started(fixture_settings("fx", env={"FIXTURE_DIR": str(folder)}, write_tools=("lying_read",),
                                           timeout_seconds=30))
    assert skill.state == "connected", skill.reason
    yield skill
    await skill.stop()


def tool(skill: McpSkill, name: str) -> Tool:
    return next(t for t in skill.tools() if t.name == f"{skill.name}__{name}")


async def test_tools_are_read_only_by_the_hint_or_the_person_and_write_otherwise(fx: McpSkill) -> None:
    access = {info.name: info.access for info in fx.listed_tools()}
    assert access["fx__big"] == "read"             # readOnlyHint = true
    assert access["fx__append_note"] == "write"    # no hint: the worst is assumed
    assert access["fx__lying_read"] == "write"     # the hint lies; write_tools says so
    assert access["fx__grant"] == "write"          # its description claims read-only and pre-approval: ignored
    assert "pre-approved" in tool(fx, "grant").spec.description  # still shown as the server's words …
    assert tool(fx, "grant").spec.description.startswith("[fx] ")  # … marked as whose they are
    assert tool(fx, "put_note").observe is not None  # idempotentHint: may be run again after a kill
    assert tool(fx, "append_note").observe is None   # not idempotent: never run again blindly
    assert tool(fx, "append_note").target_of({"path": "n.txt", "text": "x"}) == "n.txt"  # checked against a card
    registry = SkillRegistry()
    registry.add(fx)
    assert registry.skill_of("fx__append_note") == "fx" and registry.skill_of("files_write") is None


async def test_a_write_tool_refuses_a_run_that_may_not_write(fx: McpSkill, folder: Path) -> None:
    result = await tool(fx, "append_note").run({"path": "n.txt", "text": "hi"}, READS)
    assert result.is_error and not (folder / "n.txt").exists()
    result = await tool(fx, "append_note").run({"path": "n.txt", "text": "hi"}, WRITES)
    assert not result.is_error and (folder / "n.txt").read_text() == "hi\n"
    (mutation,) = result.mutations
    assert mutation.kind == "mcp_write" and mutation.target == "fx/append_note → n.txt"


async def test_an_idempotent_write_observes_the_same_each_time(fx: McpSkill) -> None:
    observe = tool(fx, "put_note").observe
    assert observe is not None
    assert await observe({"path": "a"}) == await observe({"path": "b"}) == IDEMPOTENT_MARK


async def test_results_big_image_and_error(fx: McpSkill) -> None:
    big = await tool(fx, "big").run({}, READS)
    assert not big.is_error and len(big.text) < 20_000
    assert "The result was cut to 2,000 tokens" in big.text
    assert TokenCounter().count(big.text) <= 2_100
    picture = await tool(fx, "picture").run({}, READS)
    assert picture.text.startswith("[image: image/png, 100 bytes, not shown]")
    failed = await tool(fx, "fail").run({}, READS)
    assert failed.is_error and "failed on purpose" in failed.text


async def test_a_call_that_hangs_is_cancelled_at_its_time_limit_and_the_server_goes_on(folder: Path) -> None:
    skill = await started(fixture_settings("fx", timeout_seconds=2))
    try:
        result = await tool(skill, "hang").run({}, READS)   # the tool sleeps an hour
        assert result.is_error and "did not answer within 2 seconds and was cancelled" in result.text
        async with asyncio.timeout(10):
            while "hang cancelled" not in (folder / "calls.log").read_text():
                await asyncio.sleep(0.05)
        assert not (await tool(skill, "env_value").run({"name": "FIXTURE_DIR"}, READS)).is_error
    finally:
        await skill.stop()


async def test_a_stopped_run_cancels_its_call_on_the_server(fx: McpSkill, folder: Path) -> None:
    call = asyncio.ensure_future(tool(fx, "hang").run({"seconds": 60}, READS))
    async with asyncio.timeout(10):
        while not (folder / "calls.log").exists():
            await asyncio.sleep(0.02)
    call.cancel()
    with pytest.raises(asyncio.CancelledError):
        await call
    async with asyncio.timeout(10):
        while "hang cancelled" not in (folder / "calls.log").read_text():
            await asyncio.sleep(0.05)


async def test_the_server_gets_a_minimal_environment_plus_env_and_env_from(folder: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOME_APP_SECRET", "must-not-leak")
    settings_ = fixture_settings("fx", env={"FIXTURE_DIR": str(folder), "LANG": "C.UTF-8"},
                                 env_from={"SERVICE_TOKEN": "MY_TOKEN_VAR"})
    skill = await started(settings_, environ={"MY_TOKEN_VAR": "t0ken", "SOME_APP_SECRET": "must-not-leak"})
    try:
        assert skill.state == "connected", skill.reason
        names = (await tool(skill, "env_names").run({}, READS)).text.split()
        assert "SOME_APP_SECRET" not in names and "MY_TOKEN_VAR" not in names
        assert {"SERVICE_TOKEN", "LANG", "FIXTURE_DIR", "PATH"} <= set(names)
        assert (await tool(skill, "env_value").run({"name": "SERVICE_TOKEN"}, READS)).text == "t0ken"
    finally:
        await skill.stop()


async def test_a_missing_variable_is_an_error_that_names_it(folder: Path) -> None:
    skill = await started(fixture_settings("fx", env_from={"SERVICE_TOKEN": "MY_UNSET_VAR"}))
    try:
        assert skill.state == "error"
        assert "MY_UNSET_VAR" in skill.reason and "not set" in skill.reason
        assert skill.tools() == ()
    finally:
        await skill.stop()


async def test_a_program_that_does_not_exist_is_an_error_in_words(folder: Path) -> None:
    from openhuman_desktop.config_skills import McpServerSettings

    skill = await started(McpServerSettings("nope", command="no-such-mcp-server-program"))
    try:
        assert skill.state == "error" and "was not found" in skill.reason
    finally:
        await skill.stop()


async def test_a_server_that_hangs_at_start_is_an_error_and_holds_nothing(folder: Path) -> None:
    skill = McpSkill(fixture_settings("slow", "--hang-at-start"), SystemClock(), TokenCounter(),
                     environ={"FIXTURE_DIR": str(folder)}, start_timeout=4.0)
    turns: list[float] = []

    async def measure() -> None:   # the loop goes on while the server does not answer
        while True:
            await asyncio.sleep(0.05)
            turns.append(time.perf_counter())

    ticker = asyncio.ensure_future(measure())
    skill.start()
    try:
        await wait_state(skill, "error", timeout=20)
        assert "did not answer within 4 seconds at start-up and is tried again after a pause" in skill.reason
        assert skill.reason.count(". ") == 0 and skill.reason.endswith(".")   # one sentence
        assert "fixture: starting, and never answering" in skill.reason  # its stderr
        waited = len(turns)
    finally:
        ticker.cancel()
        await skill.stop()
    assert waited >= 20   # 4 s of waiting: the loop turned throughout (20 turns would be 1 s of sleeps)


async def test_a_crash_mid_call_is_a_failed_call_then_a_restart_with_back_off(folder: Path) -> None:
    clock = FakeClock()
    skill = McpSkill(fixture_settings("fx"), clock, TokenCounter(), environ={"FIXTURE_DIR": str(folder)})
    skill.start()
    try:
        await wait_state(skill, "connected")
        result = await tool(skill, "crash").run({}, READS)
        assert result.is_error and "stopped during the call" in result.text
        await wait_state(skill, "disconnected")
        assert skill.reason.startswith("The server exited and is tried again after a pause (1 s, growing to 5 min): ")
        assert skill.reason.endswith("fixture: about to crash on purpose.")
        assert skill.tools() == ()
        async with asyncio.timeout(10):
            while clock.sleeping == 0:
                await asyncio.sleep(0.01)
        assert clock.sleeps[-1] == 1.0
        await clock.advance(1.0)
        await wait_state(skill, "connected")
        assert not (await tool(skill, "env_value").run({"name": "X"}, READS)).is_error
    finally:
        await skill.stop()


async def test_repeated_failures_back_off_from_1_second_to_5_minutes(folder: Path) -> None:
    from openhuman_desktop.config_skills import McpServerSettings

    clock = FakeClock()
    skill = McpSkill(McpServerSettings("nope", command="no-such-mcp-server-program"), clock, TokenCounter())
    skill.start()
    try:
        for _ in range(11):
            async with asyncio.timeout(10):
                while clock.sleeping == 0:
                    await asyncio.sleep(0.01)
            await clock.advance(clock.sleeps[-1])
        assert clock.sleeps[:10] == [1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0, 256.0, 300.0]
    finally:
        await skill.stop()


async def test_a_changed_tool_list_is_followed(fx: McpSkill) -> None:
    assert "fx__grown" not in {t.name for t in fx.tools()}
    assert not (await tool(fx, "grow").run({}, READS)).is_error
    async with asyncio.timeout(10):
        while "fx__grown" not in {t.name for t in fx.tools()}:
            await asyncio.sleep(0.02)
    assert (await tool(fx, "grown").run({}, READS)).text == "I am new"


async def test_stopping_ends_the_servers_whole_process_group(fx: McpSkill, folder: Path) -> None:
    (pid_file,) = folder.glob("pid-*")
    pgid = int(pid_file.read_text())
    os.killpg(pgid, 0)  # alive
    await fx.stop()
    assert fx.state == "disabled" and fx.tools() == ()
    with pytest.raises(ProcessLookupError):
        os.killpg(pgid, 0)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def test_streamable_http_with_a_header_from_a_variable(folder: Path) -> None:
    from openhuman_desktop.config_skills import McpServerSettings

    port = free_port()
    server = subprocess.Popen([sys.executable, str(FIXTURE), "--http", str(port)], env={**os.environ},
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        async with asyncio.timeout(30):
            while True:
                try:
                    with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                        break
                except OSError:
                    await asyncio.sleep(0.1)
        settings_ = McpServerSettings("web", url=f"http://127.0.0.1:{port}/mcp",
                                      headers_from={"Authorization": "MY_SERVER_AUTH"})
        skill = await started(settings_, environ={"MY_SERVER_AUTH": "Bearer s3cret"})
        try:
            assert skill.state == "connected", skill.reason
            assert (await tool(skill, "whoami").run({}, READS)).text == "Bearer s3cret"
        finally:
            await skill.stop()
    finally:
        server.terminate()
        server.wait(10)


async def test_a_watched_resource_is_read_each_tick_and_a_change_is_seen(folder: Path) -> None:
    (folder / "note.txt").write_text("first", encoding="utf-8")
    skill = await started(fixture_settings("fx", watch=("note://current",)))
    try:
        assert skill.state == "connected" and not skill.subscribed
        await skill.poll_watches(100.0)
        assert skill.changed_since(None) == []  # the baseline is not news
        (folder / "note.txt").write_text("second", encoding="utf-8")
        await skill.poll_watches(200.0)
        assert skill.changed_since(150.0) == [(200.0, "note://current")]
        await skill.poll_watches(300.0)
        assert skill.changed_since(250.0) == []
    finally:
        await skill.stop()


async def test_doctor_has_a_line_per_skill(folder: Path) -> None:
    from openhuman_desktop import config, config_skills, doctor
    from openhuman_desktop.config_skills import McpServerSettings

    settings = config.Settings(skills=config_skills.SkillsSettings(mcp={
        "fx": fixture_settings("fx"), "nope": McpServerSettings("nope", command="no-such-mcp-server-program"),
        "off": McpServerSettings("off", command="x", enabled=False)}))
    lines = [check.line() for check in await doctor.check_skills(settings)]
    assert lines[:4] == ["ok   skill files: Workspace files, built in", "ok   skill memory: Memory, built in",
                         "ok   skill subconscious_tasks: Subconscious tasks, built in",
                         "ok   skill notify: Desktop notifications, built in"]
    assert lines[4].startswith(f"ok   skill fx: MCP server {sys.executable}: ") and "read, " in lines[4]
    assert lines[5] == ("FAIL skill nope: MCP server no-such-mcp-server-program: The program "
                        "'no-such-mcp-server-program' was not found — fix: install it or give its full path in the "
                        "skill's command")
    assert len(lines) == 6   # a disabled server has no line

