"""The Telegram channel in the real app (a subprocess): kill -9 between receipt and answer loses nothing and
repeats nothing, the token never reaches a log, ``channels_status`` over RPC, and ``doctor``'s line."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.fakes.agent_model import PLAN, AgentModel, AgentScript
from tests.fakes.app_process import AppProcess, run_cli, wait_for
from tests.fakes.model_servers import FakeOllama
from tests.fakes.telegram_api import TOKEN, FakeTelegram
from tests.fakes.telegram_harness import LOCAL_MODEL, OWNER, REASONING_MODEL, TOKEN_ENV, telegram_config

pytestmark = pytest.mark.e2e


@pytest.fixture
def ollama() -> Iterator[FakeOllama]:
    with FakeOllama() as server:
        server.add_model(LOCAL_MODEL, context_length=8192)
        server.add_model(REASONING_MODEL, context_length=32768)
        yield server


@pytest.fixture
def telegram() -> Iterator[FakeTelegram]:
    with FakeTelegram() as server:
        yield server


def app_for(workspace: Path, ollama: FakeOllama, telegram: FakeTelegram, token: str | None = TOKEN) -> AppProcess:
    env = {TOKEN_ENV: token} if token is not None else {}
    return AppProcess(workspace, ollama_url=ollama.url, config=telegram_config(ollama.url, telegram.url), env=env)


def telegram_status(app: AppProcess) -> dict[str, object]:
    entry: dict[str, object] = app.result("channels_status")["telegram"]
    return entry


def test_kill_9_between_receipt_and_answer_neither_repeats_nor_loses_the_message(
    ollama: FakeOllama, telegram: FakeTelegram, tmp_path: Path
) -> None:
    model = AgentModel(AgentScript(answer="The answer, exactly once."))
    model.delays[PLAN] = 60.0  # the run waits in its plan request: received and recorded, not answered
    ollama.set_responder(model)
    app = app_for(tmp_path / "ws", ollama, telegram)
    with app:
        wait_for(lambda: telegram_status(app)["state"] == "connected", what="connected")
        assert telegram_status(app) == {"enabled": True, "state": "connected",
                                        "state_reason": "Connected as @openhuman_test_bot."}
        update_id = telegram.send_text(OWNER, "What should I do today?")
        wait_for(lambda: model.count(PLAN) >= 1, what="the run at work")
        [run] = app.result("agent_runs_list", {"thread_id": f"telegram:{OWNER}"})
        assert run["status"] in ("queued", "running")
        app.kill()
    assert telegram.sent_texts(OWNER) == []
    # Telegram may not have got the confirmation before the kill: it sends the update again.
    telegram.rewind(update_id)
    model.delays.clear()
    with app:
        telegram.wait_for(lambda: telegram.sent_texts(OWNER), what="the answer")
        wait_for(lambda: telegram.pending_updates == 0, what="the update confirmed")
        runs = app.result("agent_runs_list", {"thread_id": f"telegram:{OWNER}"})
        assert [r["id"] for r in runs] == [run["id"]] and runs[0]["status"] == "completed"
    assert telegram.sent_texts(OWNER) == ["The answer, exactly once."]  # after a clean stop too
    model.script = AgentScript(answer="A second answer.")
    with app:  # a third start delivers nothing again: the outbox would send it before a new message's answer
        telegram.send_text(OWNER, "And now?")
        telegram.wait_for(lambda: len(telegram.sent_texts(OWNER)) >= 2, what="the second answer")
    assert telegram.sent_texts(OWNER) == ["The answer, exactly once.", "A second answer."]


def test_the_token_never_appears_in_the_log_or_the_terminal(
    ollama: FakeOllama, telegram: FakeTelegram, tmp_path: Path
) -> None:
    ollama.set_responder(AgentModel(AgentScript(answer="fine")))
    telegram.revoke()  # getMe refused: PTB's InvalidToken carries the token in its message
    app = app_for(tmp_path / "ws", ollama, telegram)
    with app:
        wait_for(lambda: "401" in str(telegram_status(app)["state_reason"]), what="the 401 in the status")
        telegram.heal()
        telegram.fail("sendMessage", 500, "Internal Server Error", count=1)  # the hub logs and retries
        wait_for(lambda: telegram_status(app)["state"] == "connected", timeout=30, what="connected again")
        telegram.send_text(OWNER, "hello")
        telegram.wait_for(lambda: telegram.sent_texts(OWNER) == ["fine"], timeout=30, what="the answer")
        assert len(telegram.calls_of("sendMessage", OWNER)) == 2
        stderr = app.stderr_text()
    log_text = "".join(path.read_text(encoding="utf-8", errors="replace")
                       for path in (tmp_path / "ws" / "logs").iterdir())
    assert "telegram" in log_text and "401" in log_text  # the failures were logged …
    secret = TOKEN.split(":", 1)[1]
    for text in (log_text, stderr, app.stderr_text()):
        assert secret not in text  # … without the token


def test_doctor_says_what_is_wrong_with_telegram_and_the_fix(
    ollama: FakeOllama, telegram: FakeTelegram, tmp_path: Path
) -> None:
    workspace = tmp_path / "ws"
    workspace.mkdir(mode=0o700)
    (workspace / "config.toml").write_text(telegram_config(ollama.url, telegram.url), encoding="utf-8")

    def telegram_line(env: dict[str, str]) -> str:
        done = run_cli("--workspace", workspace, "doctor", ollama_url=ollama.url, env=env)
        [line] = [line for line in done.stdout.splitlines() if " telegram: " in line]
        return line

    missing = telegram_line({})
    assert missing.startswith("FAIL telegram: the environment variable OPENHUMAN_TEST_TELEGRAM_TOKEN is not set")
    assert "fix: export OPENHUMAN_TEST_TELEGRAM_TOKEN=" in missing
    assert telegram_line({TOKEN_ENV: "  "}).startswith("FAIL telegram: the environment variable")

    telegram.revoke()
    refused = telegram_line({TOKEN_ENV: TOKEN})
    assert refused.startswith("FAIL telegram: Telegram refused the bot token") and "401" in refused
    assert "fix: get the bot's token from @BotFather" in refused and TOKEN not in refused

    telegram.heal()
    fine = telegram_line({TOKEN_ENV: TOKEN})
    assert fine == "ok   telegram: @openhuman_test_bot answers; 2 allowed chats"
    assert [c.method for c in telegram.calls if c.method != "getMe"] == []  # doctor changes nothing

    port = telegram.port
    telegram.stop()
    down = telegram_line({TOKEN_ENV: TOKEN})
    assert down.startswith(f"FAIL telegram: Telegram cannot be reached at http://127.0.0.1:{port}")
    assert "fix: check the network connection" in down
