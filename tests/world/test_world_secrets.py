"""The world skills' secrets (CONTRACT §12.2): the mailbox's password and the Slack webhook's address, read from
the variables ``password_env`` and ``webhook_env`` name (names that do not look like secrets), reach no model
request and no log while the heartbeat reads mail, acts on it and posts to Slack, and a model asks for every file
of the app. The autouse watch (tests/conftest.py) learns them from the app's own reads (``secret_env``); this
test also searches for them itself."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from tests.fakes.engine_harness import Json, Reply, all_text, bodies, open_harness
from tests.fakes.secret_watch import WATCH
from tests.world import test_world_heartbeat as heartbeat
from tests.world.servers import PASSWORD, Dovecot, SmtpInbox, WebServer, message
from tests.world.test_world_heartbeat import configure, email_table

PASSWORD_ENV = "OH_MAIL_LOGIN"
HOOK_ENV = "OH_TEAM_CHANNEL"
ASKED_FOR = ("config.toml", "channels/webapp-link.json", "skills/email/state.json")


async def test_the_mail_password_and_the_webhook_address_reach_no_model_and_no_log(
        dovecot: Dovecot, smtps: SmtpInbox, web_server: WebServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG, logger="openhuman_desktop")
    hook = web_server.url + "/services/T7/B7/k3yPart0fTheHook"
    monkeypatch.setenv(PASSWORD_ENV, PASSWORD)
    monkeypatch.setenv(HOOK_ENV, hook)
    dovecot.create("Secrets1")
    async with open_harness(tmp_path, monkeypatch) as h:
        slack = f'\n[skills.slack]\nenabled = true\nwebhook_env = "{HOOK_ENV}"\n'
        mail = email_table(dovecot, smtps, "Secrets1").replace(heartbeat.PASSWORD_ENV, PASSWORD_ENV)
        await configure(h, mail + slack)
        await h.add_task("Check urgent emails and send a summary to Slack", intent="write")
        h.local.decide = lambda task_id, title: "act"

        def execute(body: Json) -> Reply:  # every tool that could carry a secret, then the summary
            asked = sum(1 for m in body.get("messages", []) if m.get("role") == "tool")
            calls = [{"name": "slack_post", "arguments": {"text": "Summary: the shop is offline."}},
                     {"name": "email_search", "arguments": {"query": "URGENT"}},
                     *({"name": "files_read", "arguments": {"path": path}} for path in ASKED_FOR)]
            if asked < len(calls):
                return Reply(tool_calls=[calls[asked]])
            return Reply(content="Posted the summary of the urgent mail.")

        h.local.execute = execute  # type: ignore[assignment]
        dovecot.append("Secrets1", message("CEO <ceo@example.org>", "URGENT: server down", "Call me now."))
        await h.tick()
        await h.clock.advance(600)
        dovecot.append("Secrets1", message("CEO <ceo@example.org>", "URGENT: still down", "Call me again."))
        await h.tick()

        assert web_server.state.posts, "the heartbeat posted to Slack (it read the webhook's address)"
        assert WATCH.knows(PASSWORD) == f"the secret in ${PASSWORD_ENV}"
        assert WATCH.knows(hook) == f"the secret in ${HOOK_ENV}"
        assert any("URGENT: server down" in all_text(body) for body in bodies(h.ollama)), "the model saw the mail"
        sent = [request.target + request.raw.decode("utf-8", "replace")
                for server in (h.ollama, h.openai) if server is not None for request in server.requests]
        assert not [text for text in sent if PASSWORD in text or "k3yPart0fTheHook" in text]
    logged = [record.getMessage() for record in caplog.records if record.name.startswith("openhuman_desktop")]
    assert logged and not [line for line in logged if PASSWORD in line or "k3yPart0fTheHook" in line]
