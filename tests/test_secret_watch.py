"""The watch behind the autouse fixture ``no_secret_reaches_a_model_or_a_log`` (tests/conftest.py): each way a
secret can leave is seen, and what may carry a secret (an API key's header) is not a leak. Each test runs a watch
of its own, so the session's watch sees none of these planted leaks."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from openhuman_desktop import private_file
from tests.fakes.model_servers import FakeOllama, FakeOpenAI
from tests.fakes.secret_watch import WATCH, SecretWatch, configured_secrets

TOKEN = "tok-3c9f0a4e6b1d2f87"


@pytest.fixture
def watch() -> Iterator[SecretWatch]:
    """A second watch, open for the test (the session's keeps running too)."""
    own = SecretWatch()
    own.begin()
    try:
        yield own
    finally:
        own.end()


@pytest.fixture
def ollama(watch: SecretWatch) -> Iterator[FakeOllama]:
    with FakeOllama() as server:
        server.add_model("llama3.2:3b")
        WATCH.unwatch_server(server)  # leaks on purpose: only the test's own watch searches it
        watch.watch_server(server)
        yield server


def chat(url: str, text: str, headers: dict[str, str] | None = None) -> None:
    body = {"model": "llama3.2:3b", "stream": False, "messages": [{"role": "user", "content": text}]}
    httpx.post(f"{url}/api/chat", json=body, headers=headers).raise_for_status()


def test_a_published_token_in_a_request_is_a_leak_named_without_its_value(
        watch: SecretWatch, ollama: FakeOllama, tmp_path: Path) -> None:
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "rpc.json").write_text(json.dumps({"url": "x", "token": TOKEN}), encoding="utf-8")
    watch.add_workspace(tmp_path)
    chat(ollama.url, "hello")
    chat(ollama.url, f"the file said {TOKEN} and more")

    [leak] = watch.end()

    assert leak.startswith("the RPC token reached a request to FakeOllama /api/chat (the test's #2): ")
    assert "<the RPC token> and more" in leak and TOKEN not in leak


def test_an_environment_secret_in_a_body_is_a_leak_and_in_its_header_is_not(
        watch: SecretWatch, monkeypatch: pytest.MonkeyPatch) -> None:
    with FakeOpenAI(require_api_key="sk-live-0123456789abcdef") as openai:
        WATCH.unwatch_server(openai)
        watch.watch_server(openai)
        monkeypatch.setenv("OPENHUMAN_TEST_KEY", "sk-live-0123456789abcdef")
        monkeypatch.setenv("OPENHUMAN_TEST_RETRIES", "sk-live-not-a-secret-name")
        monkeypatch.setenv("SHORT_TOKEN", "1")
        body = {"model": "m", "messages": [{"role": "user", "content": "hi 1 sk-live-not-a-secret-name"}]}
        headers = {"Authorization": "Bearer sk-live-0123456789abcdef"}
        httpx.post(f"{openai.url}/chat/completions", json=body, headers=headers).raise_for_status()
        assert watch.end() == [], "the key belongs in the Authorization header"

        monkeypatch.delenv("OPENHUMAN_TEST_KEY")
        watch.begin()
        monkeypatch.setenv("OPENHUMAN_TEST_KEY", "sk-live-0123456789abcdef")  # set during the test
        body["messages"] = [{"role": "user", "content": "my key is sk-live-0123456789abcdef"}]
        httpx.post(f"{openai.url}/chat/completions", json=body, headers=headers).raise_for_status()
        monkeypatch.delenv("OPENHUMAN_TEST_KEY")  # unset before the end: seen while the request came in
        [leak] = watch.end()
    assert leak.startswith("OPENHUMAN_TEST_KEY from the environment reached a request to FakeOpenAI")


@pytest.mark.logs_expected  # the log lines are the point: the watch must find the key in them
def test_a_token_in_a_log_record_or_a_log_file_is_a_leak(watch: SecretWatch, tmp_path: Path) -> None:
    watch.add(TOKEN, "the web app's key")
    watch.add("short", "too short to be a secret")
    logging.getLogger("openhuman_desktop.test").warning("connected with %s", TOKEN[:6])
    logging.getLogger("openhuman_desktop.test").warning("short words")
    assert watch.end(tmp_path) == []

    watch.begin()
    watch.add(TOKEN, "the web app's key")
    try:
        raise ValueError(f"refused {TOKEN}")
    except ValueError:
        logging.getLogger("openhuman_desktop.test").exception("the channel failed")
    logs = tmp_path / "ws" / "logs"
    logs.mkdir(parents=True)
    (logs / "openhuman.log.1").write_text(f"2026-01-01 INFO x: url#token={TOKEN}\n", encoding="utf-8")

    leaks = watch.end(tmp_path)

    assert [leak.split(":", 1)[0] for leak in leaks] == [
        "the web app's key reached a log record of openhuman_desktop.test (ERROR)",
        f"the web app's key reached the log file {logs / 'openhuman.log.1'}"]


@pytest.mark.logs_expected  # the log lines are the point: the watch must find the key in them
def test_what_the_app_publishes_in_this_process_is_learnt(watch: SecretWatch, tmp_path: Path) -> None:
    private_file.write_private_json(tmp_path / "webapp-link.json", {"token": TOKEN, "port": 1})
    logging.getLogger("openhuman_desktop.test").error("key %s", TOKEN)
    leaks = WATCH.end(tmp_path)  # the session's watch: the spy told it
    WATCH.begin()  # (the fixture closes it again)
    assert [leak.split(":", 1)[0] for leak in leaks] == [
        "the web app's key reached a log record of openhuman_desktop.test (ERROR)"]
    assert watch.end() == [], "a watch learns only what it is told"


def test_a_secret_the_app_reads_from_a_variable_of_any_name_is_learnt() -> None:
    from openhuman_desktop.config_skills import SlackSettings
    from openhuman_desktop.skills.world.slack import SlackSkill

    hook = "https://hooks.slack.com/services/T0/B0/ordinaryNameSecret"
    SlackSkill({"TEAM_CHANNEL": hook}).configure(SlackSettings(True, "TEAM_CHANNEL"))  # reads it for its state

    assert WATCH.knows(hook) == "the secret in $TEAM_CHANNEL"
    assert WATCH.knows("https://hooks.slack.com/services/T0/B0/other") is None


def test_the_secrets_a_config_names_are_found_for_an_app_in_a_subprocess(tmp_path: Path) -> None:
    (tmp_path / "config.toml").write_text(
        '[models.reasoning]\nprovider = "openai"\nmodel = "m"\nbase_url = "http://127.0.0.1:1/v1"\n'
        'api_key_env = "MY_API"\n'
        '[channels.telegram]\ntoken_env = "MY_BOT"\n'
        '[skills.email]\nenabled = true\nimap_host = "127.0.0.1"\nusername = "me"\npassword_env = "MY_MAIL"\n'
        '[skills.slack]\nenabled = true\nwebhook_env = "MY_HOOK"\n'
        '[skills.mcp.gh]\ncommand = "x"\nenv = { LANG = "C.UTF-8" }\nenv_from = { GITHUB_TOKEN = "MY_PAT" }\n'
        '[skills.mcp.remote]\nurl = "http://127.0.0.1:9/mcp"\nheaders_from = { Authorization = "MY_AUTH" }\n',
        encoding="utf-8")
    environ = {name: f"value-of-{name}" for name in ("MY_API", "MY_BOT", "MY_MAIL", "MY_HOOK", "MY_PAT", "MY_AUTH")}

    found = configured_secrets(tmp_path / "config.toml", {**environ, "LANG": "C.UTF-8", "OTHER": "x" * 20})

    assert found == environ
    assert configured_secrets(tmp_path / "missing.toml", environ) == {}


def test_a_library_the_log_quiets_may_name_a_secret_below_warning(
        watch: SecretWatch, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)  # as a test that looks at httpx's requests does: every record is made
    watch.add(TOKEN, "the secret in $TEAM_CHANNEL")
    logging.getLogger("httpx").info("HTTP Request: POST https://hooks.example/%s", TOKEN)  # applog drops it
    logging.getLogger("httpcore.http11").debug("send %s", TOKEN)
    assert watch.end() == []

    watch.begin()
    watch.add(TOKEN, "the secret in $TEAM_CHANNEL")
    logging.getLogger("httpx").warning("failed: %s", TOKEN)
    logging.getLogger("openhuman_desktop.test").debug("posting to %s", TOKEN)
    assert [leak.split(":", 1)[0] for leak in watch.end()] == [
        "the secret in $TEAM_CHANNEL reached a log record of httpx (WARNING)",
        "the secret in $TEAM_CHANNEL reached a log record of openhuman_desktop.test (DEBUG)"]
