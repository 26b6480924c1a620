"""The reference note's "Check urgent emails" in the real headless app (issue 22): the heartbeat sees three urgent
messages and a newsletter arrive in a real dovecot, the analysis recommends forwarding the three, that is a card,
and Go ahead sends exactly those three through a real SMTP server, once each, while the app process is killed
with SIGKILL three times after the approval: before the first send, between the first and the second, and after
the third (before the run's answer). The third restart gives the card back (the gate's guard against a crash
loop) with what was done kept; Go ahead again finishes the run without sending anything again. And the hardest
window: killed while the SMTP server holds back its answer to the first message, the resumed run does not send it
again. An e-mail is never sent twice.
"""

from __future__ import annotations

import contextlib
import re
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from openhuman_desktop.subconscious.approvals import STOPPED_EACH_TIME
from tests.e2e.test_approval_crash_window_e2e import card
from tests.fakes.app_process import AppProcess, wait_for
from tests.fakes.engine_harness import (
    API_KEY,
    API_KEY_ENV,
    LOCAL_MODEL,
    REASONING_MODEL,
    Brain,
    Json,
    all_text,
    config_text,
)
from tests.fakes.model_servers import FakeOllama, FakeOpenAI, Reply
from tests.world.servers import PASSWORD, Dovecot, SmtpInbox, message
from tests.world.test_world_heartbeat import PASSWORD_ENV, email_table

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(300)]

FOLDER = "KillFwd"
BOSS = "boss@example.org"
KILL_AFTER_SENDS = (0, 1, 3)
"""The approved run is killed when it asks the model for its next step with this many sends done."""


def tool_results(body: Json) -> int:
    return sum(1 for m in body.get("messages") or [] if isinstance(m, dict) and m.get("role") == "tool")


class Models:
    """The local model decides (escalate once the urgent mail is there); the reasoning model analyses, then
    carries out the approved forward one email_send at a time, and hangs at each kill point."""

    def __init__(self, kill_after_sends: tuple[int, ...]) -> None:
        self.local = Brain()
        self.reasoning = Brain()
        self.escalate = False
        self.forwarding = False
        self.ids: list[str] = []
        self.kills_left = list(kill_after_sends)
        self.tool_texts: list[str] = []
        self.at_kill_point = threading.Event()
        self.killed_at: list[int] = []
        self.local.decide = lambda task_id, title: "escalate" if self.escalate and "urgent" in title else "noop"
        self.reasoning.execute = self._execute

    def _execute(self, body: Json) -> Reply:
        if not self.forwarding:  # the analysis of the escalated task: it reads the report's new mail
            text = all_text(body)
            lines = re.findall(r"email: [^\n]*\(id ([^)\s]+:\d+)\)", text)
            urgent = [match for match in re.finditer(r"email: ([^\n]*)\(id ([^)\s]+:\d+)\)", text)
                      if "URGENT" in match.group(1)]
            self.ids[:] = sorted({match.group(2) for match in urgent})
            assert len(lines) >= 4, text[-2000:]
            return Reply(content="Three urgent messages arrived, one newsletter.\nRECOMMENDED ACTION: Forward the "
                                 f"three urgent emails ({', '.join(self.ids)}) to {BOSS}")
        done = tool_results(body)
        self.tool_texts[:] = [str(m.get("content") or "") for m in body.get("messages") or []
                              if isinstance(m, dict) and m.get("role") == "tool"]
        if self.kills_left and done == self.kills_left[0]:
            self.kills_left.pop(0)
            self.killed_at.append(done)
            self.at_kill_point.set()
            return Reply(content="(never seen: the app is killed while it waits)", delay=120)
        if done < 3:
            number = done + 1
            return Reply(tool_calls=[{"name": "email_send", "arguments": {
                "to": BOSS, "subject": f"Fwd: URGENT {number}",
                "body": f"Forwarded: urgent matter number {number}."}}])
        return Reply(content=f"Forwarded the three urgent emails to {BOSS}.")


def sent(smtps: SmtpInbox) -> list[tuple[tuple[str, ...], str]]:
    return [(tuple(rcpt), str(mail["Subject"])) for _, rcpt, mail in smtps.received]


@contextlib.contextmanager
def app_with_mail(dovecot: Dovecot, smtps: SmtpInbox, tmp_path: Path, models: Models,
                  folder: str) -> Iterator[AppProcess]:
    """The headless app with [skills.email] on the real servers and the two fake models; killed at the end."""
    with FakeOllama() as ollama, FakeOpenAI(require_api_key=API_KEY) as openai:
        ollama.add_model(LOCAL_MODEL)
        ollama.set_responder(models.local)
        openai.add_model(REASONING_MODEL)
        openai.set_responder(models.reasoning)
        config = config_text(local_url=ollama.url, reasoning_url=openai.url) + email_table(dovecot, smtps, folder)
        app = AppProcess(tmp_path / "ws", config=config, ollama_url=ollama.url,
                         env={API_KEY_ENV: API_KEY, PASSWORD_ENV: PASSWORD}).start()
        try:
            yield app
        finally:
            app.kill()


def email_state(app: AppProcess) -> str | None:
    skill = next(s for s in app.result("skills_list") if s["name"] == "email")
    return str(skill["state"]) if skill["state"] in ("connected", "error") else None


def card_of_three(app: AppProcess, dovecot: Dovecot, smtps: SmtpInbox, models: Models,
                  folder: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """"Check urgent emails" (read only) sees three urgent messages and a newsletter arrive after its baseline;
    its analysis recommends forwarding the three: the task and its pending card."""
    dovecot.create(folder)
    for task in app.result("subconscious_tasks_list"):
        app.result("subconscious_tasks_update", {"task_id": task["id"], "enabled": False})
    task = app.result("subconscious_tasks_add", {"title": "Check urgent emails"})
    app.result("subconscious_tasks_update", {"task_id": task["id"], "intent": "read"})
    app.result("subconscious_trigger")  # the baseline: the folder is empty
    assert wait_for(lambda: email_state(app), what="the mailbox's first check") == "connected"
    for number in range(1, 4):
        dovecot.append(folder, message(f"Client {number} <c{number}@example.org>", f"URGENT {number}",
                                       f"Urgent matter number {number}."))
    dovecot.append(folder, message("News <news@example.org>", "Weekly newsletter", "Nothing urgent."))
    models.escalate = True
    triggered = [time.monotonic()]
    app.result("subconscious_trigger")

    def pending_card() -> dict[str, Any] | None:
        if time.monotonic() - triggered[0] > 15:  # a tick under way when the mail came: one more
            triggered[0] = time.monotonic()
            app.result("subconscious_trigger")
        cards = app.result("subconscious_escalations_list", {"status": "pending"})
        return cards[0] if cards else None

    escalation: dict[str, Any] = wait_for(pending_card, timeout=90, what="the card of the recommended forward")
    assert len(models.ids) == 3 and BOSS in escalation["description"]
    assert all(found in escalation["description"] for found in models.ids)
    assert smtps.received == [], "the analysis sends nothing"
    return task, escalation


def settled(app: AppProcess, escalation_id: str) -> dict[str, Any]:
    def done() -> dict[str, Any] | None:
        state = card(app.db_file, escalation_id)
        return None if state["decision"] == "in_progress" else state

    result: dict[str, Any] = wait_for(done, timeout=60, what="the approved forward to finish")
    return result


SENT_ONCE = [((BOSS,), f"Fwd: URGENT {n}") for n in range(1, 4)]


def test_go_ahead_on_a_forward_of_three_sends_each_once_across_three_kill_9s(
        dovecot: Dovecot, smtps: SmtpInbox, tmp_path: Path) -> None:
    models = Models(kill_after_sends=KILL_AFTER_SENDS)
    with app_with_mail(dovecot, smtps, tmp_path, models, FOLDER) as app:
        task, escalation = card_of_three(app, dovecot, smtps, models, FOLDER)
        models.forwarding = True
        app.result("subconscious_escalations_approve", {"escalation_id": escalation["id"]})
        for expected in KILL_AFTER_SENDS:
            assert models.at_kill_point.wait(60), f"the approved run never asked for its step after {expected}"
            models.at_kill_point.clear()
            assert len(sent(smtps)) == expected, (expected, sent(smtps))
            app.kill()  # SIGKILL while the run waits for the model: nothing of the app is cleaned up
            app.start()

        state = settled(app, escalation["id"])
        assert models.killed_at == list(KILL_AFTER_SENDS)
        # Three restarts in one approval: the card comes back (never a crash loop), what was done is kept.
        assert (state["status"], state["note"]) == ("pending", STOPPED_EACH_TIME), state
        assert sent(smtps) == SENT_ONCE
        app.result("subconscious_escalations_approve", {"escalation_id": escalation["id"]})
        state = settled(app, escalation["id"])
        assert (state["status"], state["decision"]) == ("approved", "act"), state
        assert sent(smtps) == SENT_ONCE
        runs = app.result("agent_runs_list", {"thread_id": f"subconscious:{task['id']}", "limit": 100})
        approved = [run for run in runs if run["escalation_id"] == escalation["id"]]
        assert [(run["purpose"], run["status"]) for run in approved] == [("approved", "completed")]
        timeline = [entry for entry in app.result("world_timeline", {"limit": 100})
                    if "email" in str(entry).lower()]
        assert len(timeline) == 3, timeline
        assert not app.result("subconscious_escalations_list", {"status": "pending"})

        app.stop()
        app.start()  # and once more, cleanly: nothing is sent again
        app.result("subconscious_trigger")
        wait_for(lambda: email_state(app), what="the mailbox's check after the restart")
        app.stop()
        assert len(smtps.received) == 3


def test_a_kill_while_the_smtp_server_holds_its_answer_never_sends_that_message_again(
        dovecot: Dovecot, smtps: SmtpInbox, tmp_path: Path) -> None:
    """The hardest window: the server has the first message, the app is killed before it hears "250 OK". The
    send is journaled as begun and not finished, so the resumed run does not make it again: the model is told
    it may have happened, and the other two go out once each."""
    models = Models(kill_after_sends=())
    smtps.hold_subject = "Fwd: URGENT 1"
    with app_with_mail(dovecot, smtps, tmp_path, models, FOLDER + "2") as app:
        task, escalation = card_of_three(app, dovecot, smtps, models, FOLDER + "2")
        models.forwarding = True
        app.result("subconscious_escalations_approve", {"escalation_id": escalation["id"]})
        assert smtps.holding.wait(60), "the first send never reached the SMTP server"
        app.kill()
        smtps.hold_subject = None
        app.start()
        state = settled(app, escalation["id"])
        assert (state["status"], state["decision"]) == ("approved", "act"), state
        assert sent(smtps) == SENT_ONCE, "the interrupted send was made again"
        assert any("may or may not have happened" in text or "already taken effect" in text
                   for text in models.tool_texts), models.tool_texts
        app.stop()
