"""Judgement by design (issue 24): the change as evidence, relevance before the model, one narrow question per
task, tasks as condition and action, confidence from log-probabilities."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from openhuman_desktop.llm import OpenAICompatClient
from openhuman_desktop.llm.base import TokenLogprob, token_logprobs
from openhuman_desktop.llm.tokens import TokenCounter
from openhuman_desktop.store import Task
from openhuman_desktop.subconscious.changes import FileHistory, describe, diff_lines
from openhuman_desktop.subconscious.decisions import ChangeItem, Report
from openhuman_desktop.subconscious.evaluator import REASON_CHARS
from openhuman_desktop.subconscious.evidence import changed_subject, compared, evidence
from openhuman_desktop.subconscious.judgement import ANSWER_TOKENS, LOW_MARGIN, Judge, decision_margin
from openhuman_desktop.subconscious.relevance import names_subject, subject_names, touches
from openhuman_desktop.subconscious.task_rules import MEMORIES, TaskRule, TaskRules, derive, kind_of

TOKENS = TokenCounter()


def make_task(title: str, *, last_run_at: float | None = 100.0, intent: str = "read", task_id: str = "t1") -> Task:
    return Task(id=task_id, title=title, source="user", recurrence="pending", enabled=True, last_run_at=last_run_at,
                next_run_at=None, completed=False, created_at=1.0, intent=intent, origin="user",
                intent_source="keyword", updated_at=1.0)


def report(*items: ChangeItem) -> Report:
    return Report(text="## Changed workspace files\n", signature="s", tokens=10, items=tuple(items))


# --- the change, not the file head ------------------------------------------------------------------


def test_an_appended_deadline_far_down_a_file_reaches_the_report(tmp_path: Path) -> None:
    history = FileHistory(tmp_path / "seen.db")
    body = "".join(f"Paragraph {n}: revenue and costs were discussed at length.\n" for n in range(12))
    (tmp_path / "report.md").write_text(body, encoding="utf-8")
    history.changes(tmp_path, [("report.md", len(body))], None, 10.0)
    assert len(body) > 600
    (tmp_path / "report.md").write_text(body + "DEADLINE: the final draft is due on Thursday.\n", encoding="utf-8")
    [change] = history.changes(tmp_path, [("report.md", len(body) + 46)], 10.0, 20.0)
    assert change.status == "changed" and change.added == ("DEADLINE: the final draft is due on Thursday.",)
    assert "DEADLINE" in describe(change) and "Paragraph 0" not in describe(change)


def test_an_edited_figure_looks_different_from_a_new_line(tmp_path: Path) -> None:
    added, removed = diff_lines("Revenue grew 8 % over the quarter.\nTwo releases.\n",
                               "Revenue grew 8.4 % over the quarter.\nTwo releases.\n")
    assert added == ["Revenue grew 8.4 % over the quarter."] and removed == ["Revenue grew 8 % over the quarter."]
    assert diff_lines("a\n", "a\nDEADLINE Friday\n") == (["DEADLINE Friday"], [])


def test_a_tick_whose_span_did_not_move_sees_the_same_change_again(tmp_path: Path) -> None:
    """A failed evaluation leaves the span where it was: the diff is against the same old version."""
    history = FileHistory(tmp_path / "seen.db")
    (tmp_path / "a.txt").write_text("one\n", encoding="utf-8")
    history.changes(tmp_path, [("a.txt", 4)], None, 10.0)
    (tmp_path / "a.txt").write_text("one\ntwo\n", encoding="utf-8")
    first = history.changes(tmp_path, [("a.txt", 8)], 10.0, 20.0)
    again = FileHistory(tmp_path / "seen.db").changes(tmp_path, [("a.txt", 8)], 10.0, 30.0)  # kept on disk
    assert first[0].added == again[0].added == ("two",)
    later = FileHistory(tmp_path / "seen.db").changes(tmp_path, [("a.txt", 8)], 20.0, 40.0)
    assert later[0].status == "same", "once the span moved past it, the change is old news"


def test_binary_and_large_files_are_named_not_read(tmp_path: Path) -> None:
    (tmp_path / "photo.jpg").write_bytes(b"\xff\xd8" + bytes(100))
    [change] = FileHistory(None).changes(tmp_path, [("photo.jpg", 102)], None, 1.0)
    assert change.status == "binary" and "photo.jpg" in describe(change)


# --- tasks as condition and action ----------------------------------------------------------------


@pytest.mark.parametrize(("title", "paths", "kind", "watches", "targets"), [
    ("Tell me when the parcel in tracking.txt is delivered", ("tracking.txt",), "act", "", ()),
    ("Draft a reply whenever my landlord writes to me", (), "escalate", "", ()),
    ("Check my inbox folder for urgent emails", ("inbox/",), "act", "", ()),
    ("Log each workout I tell you about in workouts.md", (), "act", MEMORIES, ("workouts.md",)),
    ("Review the new lease when it arrives in documents/", ("documents/",), "escalate", "", ()),
    ("When the quarterly numbers land in finance/, write a short analysis", ("finance/",), "escalate", "", ()),
    ("Review new memory updates for actionable items", (), "act", MEMORIES, ()),
    ("Watch stock.csv and alert me when any item has fewer than 5 left", ("stock.csv",), "act", "", ()),
    ("Draft a reply in drafts/ when my landlord writes", (), "escalate", "", ()),
    ("Let me know when a company invites me to an interview. Job mails land in mail/jobs/", ("mail/jobs/",), "act",
     "", ()),
    ("Keep an eye on lab/runs.csv. If a run's accuracy comes in under 0.80, dig into it", ("lab/runs.csv",),
     "escalate", "", ()),
    # where the action looks after its condition is material, not a watch: the reboot is found by its words
    ("If db-prod-1 reboots, go through ops/logs/ and work out why", (), "escalate", "", ()),
    ("Whenever I tell you something in the flat has broken, add a line to home/fix.md so I can send it", (), "act",
     MEMORIES, ("home/fix.md",)),
    ("Tell me when I'm down to 7 tablets or fewer", (), "act", "", ()),
])
def test_a_title_reads_as_condition_and_action(title: str, paths: tuple[str, ...], kind: str, watches: str,
                                               targets: tuple[str, ...]) -> None:
    """A title of several sentences is read from the one with the condition, the others name where to look;
    a figure ("0.80") is no file; "in the flat" is where things are, not where the user writes."""
    rule = derive(title)
    assert (rule.watch_paths, rule.kind, rule.watches, rule.targets) == (paths, kind, watches, targets)


@pytest.mark.parametrize(("action", "kind"), [
    ("Work out a budget", "escalate"), ("Figure out why it failed", "escalate"), ("Translate it", "escalate"),
    ("Email the landlord", "escalate"), ("Pay the bill", "escalate"), ("Order more ink", "escalate"),
    ("Send me a reminder", "act"), ("Email me", "act"), ("Write a short summary of it", "act"),
    ("Make a note", "act"), ("Remind me to pay the bill", "act"), ("Check it against my budget", "escalate"),
    ("Ask me whether to renew it", "act"), ("Make me a packing list", "escalate"),
    ("Write me a cover letter", "escalate"), ("Send me a draft reply", "escalate"),
    ("Put together a prep brief", "escalate"), ("Look into it", "escalate"),
    ("Go through the logs and work out what caused it", "escalate"), ("Tell me and draft a reply", "escalate"),
    ("Tell me the date and order number", "act"), ("Tell me and plan B", "act"),
])
def test_the_actions_verb_says_what_it_takes_and_telling_the_user_is_small(action: str, kind: str) -> None:
    assert kind_of(action) == kind
    assert derive(f"{action} when the invoice from Acme arrives in inbox/").kind == kind


def test_relevance_follows_what_the_task_watches() -> None:
    parcel = derive("Tell me when the parcel in tracking.txt is delivered")
    assert touches(parcel, ChangeItem("file", "tracking.txt", "Out for delivery", "changed"))
    assert not touches(parcel, ChangeItem("file", "notes/recipes.md", "parcel of butter", "new"))
    assert not touches(parcel, ChangeItem("memory", "", "the parcel came"))
    backup = derive("Tell me if the nightly backup fails")
    assert touches(backup, ChangeItem("file", "logs/backup.log", "backup finished OK", "changed"))
    assert not touches(backup, ChangeItem("file", "notes/books.md", "Books to read", "new"))
    workouts = derive("Log each workout I tell you about in workouts.md")
    assert touches(workouts, ChangeItem("memory", "", "I ran 5 km"))
    assert not touches(workouts, ChangeItem("file", "workouts.md", "- ran 5 km", "changed")), "its own target"
    same = ChangeItem("file", "tracking.txt", "", "same")
    assert not touches(parcel, same)


def test_evidence_is_a_condition_word_the_change_newly_says() -> None:
    parcel = derive("Tell me when the parcel in tracking.txt is delivered")
    assert evidence(parcel, [ChangeItem("file", "tracking.txt", "10:14 DELIVERED to the neighbour", "changed")])
    assert evidence(parcel, [ChangeItem("file", "tracking.txt", "07:55 Out for delivery", "changed")]) is None
    assert evidence(parcel, [ChangeItem("file", "tracking.txt", "the parcel was not delivered", "changed")]) is None
    deadline = derive("Tell me when report.md mentions a deadline")
    edit = ChangeItem("file", "report.md", "the deadline moved 8.4 %", "changed", "the deadline moved 8 %")
    assert evidence(deadline, [edit]) is None, "a word that was there before is not news"


def test_the_users_own_rule_wins_and_is_kept(tmp_path: Path) -> None:
    rules = TaskRules(tmp_path / "rules.db")
    mine = TaskRule(("post/",), ("letter",), "", (), "a letter arrives", "tell me", "act")
    rules.set("t1", mine)
    again = TaskRules(tmp_path / "rules.db").for_task("t1", "Tell me when the parcel in tracking.txt is delivered")
    assert again.watch_paths == ("post/",) and again.source == "user"
    rules.set("t1", None)
    assert TaskRules(tmp_path / "rules.db").for_task("t1", "Tell me when x.md changes").watch_paths == ("x.md",)


# --- the narrow question --------------------------------------------------------------------------


def completion(content: str, logprobs: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    choice: dict[str, Any] = {"index": 0, "message": {"role": "assistant", "content": content},
                              "finish_reason": "stop"}
    if logprobs is not None:
        choice["logprobs"] = {"content": logprobs}
    return {"choices": [choice], "usage": {"prompt_tokens": 50, "completion_tokens": 20}}


def answer_tokens(reason: str, decision: str, alternative: str, chosen: float,
                  other: float) -> tuple[str, list[dict[str, Any]]]:
    """An answer and its tokens: the decision's first token with one alternative listed."""
    pieces = ['{"evaluations": [{"task_id": "1", "reason": "', reason, '", "decision": "', decision, '"}]}']
    tokens = []
    for piece in pieces:
        entry: dict[str, Any] = {"token": piece, "logprob": -0.01, "top_logprobs": [{"token": piece, "logprob": -0.01}]}
        if piece == decision:
            entry = {"token": piece, "logprob": chosen, "top_logprobs": [
                {"token": decision, "logprob": chosen}, {"token": alternative, "logprob": other}]}
        tokens.append(entry)
    return "".join(pieces), tokens


class Server:
    """An OpenAI-compatible server in-process (httpx.MockTransport): answers with ``reply(body)``."""

    def __init__(self, reply: Callable[[dict[str, Any]], dict[str, Any]]) -> None:
        self.bodies: list[dict[str, Any]] = []

        def handle(request: httpx.Request) -> httpx.Response:
            body = json.loads(request.content)
            self.bodies.append(body)
            return httpx.Response(200, json=reply(body))

        self.client = OpenAICompatClient("m", "http://model.test/v1", api_key_env=None,
                                         http=httpx.AsyncClient(transport=httpx.MockTransport(handle)))

    def judge(self, window: int | None = 8192) -> Judge:
        return Judge(lambda: self.client, TOKENS, lambda: window)


async def test_a_task_no_change_touches_is_noop_without_a_model_call() -> None:
    server = Server(lambda body: completion("{}"))
    task = make_task("Tell me when the parcel in tracking.txt is delivered")
    evaluation = await server.judge().evaluate([task], report(ChangeItem("file", "notes/recipes.md", "Pancakes")))
    assert evaluation.decisions[task.id].decision == "noop" and evaluation.model_calls == 0
    assert server.bodies == []
    assert "notes/recipes.md" in evaluation.decisions[task.id].reason


async def test_a_touched_task_gets_one_narrow_question_with_the_change_and_a_pinned_enum() -> None:
    content, tokens = answer_tokens("DELIVERED means it arrived", "act", "noop", -0.05, -4.0)
    server = Server(lambda body: completion(content, tokens))
    parcel = make_task("Tell me when the parcel in tracking.txt is delivered")
    other = make_task("Draft a reply whenever my landlord writes to me", task_id="t2")
    change = ChangeItem("file", "tracking.txt", "2026-12-02 10:14 DELIVERED", "changed")
    evaluation = await server.judge().evaluate([parcel, other], report(change))
    assert evaluation.decisions["t1"].decision == "act" and evaluation.decisions["t2"].decision == "noop"
    assert evaluation.model_calls == 1 and evaluation.touched == 1
    [body] = server.bodies
    prompt = body["messages"][-1]["content"]
    assert "- [1] Tell me when the parcel in tracking.txt is delivered" in prompt.splitlines()
    assert "DELIVERED" in prompt and "landlord" not in prompt, "only this task and the change that touched it"
    schema = body["response_format"]["json_schema"]["schema"]
    item = schema["properties"]["evaluations"]["items"]["properties"]
    assert item["decision"]["enum"] == ["act", "noop"], "noop is not a free default"
    assert list(item)[:2] == ["task_id", "reason"] and list(item)[-2] == "decision", "reasoning before the verdict"
    assert body["logprobs"] is True and body["top_logprobs"] >= 2
    system = body["messages"][0]["content"]
    assert "prefer noop" not in system.lower()


async def test_an_escalating_task_is_asked_for_escalate_not_act() -> None:
    content, tokens = answer_tokens("the landlord wrote", "escalate", "noop", -0.1, -5.0)
    server = Server(lambda body: completion(content, tokens))
    task = make_task("Draft a reply whenever my landlord writes to me")
    change = ChangeItem("file", "inbox/keller.txt", "From: Thomas Keller (landlord)\nSubject: Rent", "new")
    evaluation = await server.judge().evaluate([task], report(change))
    assert evaluation.decisions[task.id].decision == "escalate"
    schema = server.bodies[0]["response_format"]["json_schema"]["schema"]
    assert schema["properties"]["evaluations"]["items"]["properties"]["decision"]["enum"] == ["escalate", "noop"]


async def test_an_unsure_noop_against_a_change_that_names_the_condition_acts() -> None:
    content, tokens = answer_tokens("not sure", "noop", "act", -0.6, -0.9)  # margin 0.3: unsure
    server = Server(lambda body: completion(content, tokens))
    task = make_task("Tell me when the parcel in tracking.txt is delivered")
    change = ChangeItem("file", "tracking.txt", "10:14 DELIVERED, handed to the neighbour", "changed")
    evaluation = await server.judge().evaluate([task], report(change))
    decision = evaluation.decisions[task.id]
    assert decision.decision == "act" and "delivered" in decision.reason.lower()
    assert len(server.bodies) == 1, "the change says it: the noop is overruled without asking again"


async def test_a_sure_noop_stands_and_an_unsure_yes_to_nothing_relevant_is_noop() -> None:
    content, tokens = answer_tokens("it is only out for delivery", "noop", "act", -0.01, -6.0)
    server = Server(lambda body: completion(content, tokens))
    task = make_task("Tell me when the parcel in tracking.txt is delivered")
    out = ChangeItem("file", "tracking.txt", "07:55 Out for delivery", "changed")
    assert (await server.judge().evaluate([task], report(out))).decisions[task.id].decision == "noop"
    content, tokens = answer_tokens("maybe", "act", "noop", -0.6, -0.8)
    unsure = Server(lambda body: completion(content, tokens))
    assert (await unsure.judge().evaluate([task], report(out))).decisions[task.id].decision == "noop"


async def test_an_unsure_act_on_a_task_that_may_write_escalates_unless_the_change_says_the_condition() -> None:
    content, tokens = answer_tokens("an expense", "act", "noop", -0.5, -0.9)
    server = Server(lambda body: completion(content, tokens))
    task = make_task("Add every expense I mention in my journal to expenses.csv", intent="write")
    change = ChangeItem("file", "notes/journal.md", "paid 42 EUR to the plumber", "changed")
    assert evidence(derive(task.title), [change]) == "42 eur", "an expense is a sum of money"
    decision = (await server.judge().evaluate([task], report(change))).decisions[task.id]
    assert decision.decision == "act", "the change says what the task waits for: the write it asked for"
    assert derive(task.title).kind == "act"

    # Nothing in the change says it (Ben's new address is still Ben's): unsure whether to write, a card instead.
    content, tokens = answer_tokens("it changed", "act", "noop", -0.5, -0.9)
    server = Server(lambda body: completion(content, tokens))
    task = make_task("Append the new address to contacts.md when Ben's address changes", intent="write", task_id="t2")
    moved = ChangeItem("file", "notes/people.md", "Ben: Gran Via 30, Madrid", "changed", "Ben: Calle Mayor 12")
    assert evidence(derive(task.title), [moved]) is None
    decision = (await server.judge().evaluate([task], report(moved))).decisions[task.id]
    assert decision.decision == "escalate", "unsure whether to write on its own: a card instead"


async def test_a_first_look_asks_every_new_task_in_one_request() -> None:
    def reply(body: dict[str, Any]) -> dict[str, Any]:
        prompt = body["messages"][-1]["content"]
        ids = [line[3:].split("]", 1)[0] for line in prompt.splitlines() if line.startswith("- [")]
        return completion(json.dumps({"evaluations": [{"task_id": i, "reason": "r", "decision": "noop"}
                                                      for i in ids]}))

    server = Server(reply)
    tasks = [make_task(f"Task number {n}", last_run_at=None, task_id=f"t{n}") for n in range(5)]
    evaluation = await server.judge().evaluate(tasks, report())
    assert len(server.bodies) == 1 and len(evaluation.decisions) == 5


async def test_a_report_without_items_is_evaluated_as_before() -> None:
    def reply(body: dict[str, Any]) -> dict[str, Any]:
        return completion(json.dumps({"evaluations": [{"task_id": "1", "reason": "r", "decision": "act"}]}))

    server = Server(reply)
    task = make_task("Tell me when the parcel in tracking.txt is delivered")
    plain = Report(text="## Changed workspace files\n- tracking.txt", signature="s", tokens=10)
    evaluation = await server.judge().evaluate([task], plain)
    assert evaluation.decisions[task.id].decision == "act" and len(server.bodies) == 1


# --- confidence -----------------------------------------------------------------------------------


def test_the_margin_is_read_at_the_decisions_first_token() -> None:
    content, raw = answer_tokens("because", "noop", "act", -0.2, -2.7)
    tokens = token_logprobs(completion(content, raw))
    assert decision_margin(content, tokens, ("act", "noop")) == pytest.approx(2.5)
    split = [TokenLogprob('{"decision": "', -0.01), TokenLogprob("no", -1.0, (("no", -1.0), ("act", -1.3))),
             TokenLogprob('op"}', -0.01)]
    assert decision_margin('{"decision": "noop"}', split, ("act", "noop")) == pytest.approx(0.3)
    assert decision_margin(content, [], ("act", "noop")) is None
    alone = [TokenLogprob('{"decision": "', 0.0), TokenLogprob("act", -0.1, (("act", -0.1), (" the", -9.0))),
             TokenLogprob('"}', 0.0)]
    assert decision_margin('{"decision": "act"}', alone, ("act", "noop")) is None, "the other answer not listed"
    yes = [TokenLogprob('{"condition_met": "', 0.0), TokenLogprob("yes", -0.2, (("yes", -0.2), ("no", -2.2))),
           TokenLogprob('", "decision": "noop"}', 0.0)]
    assert decision_margin('{"condition_met": "yes", "decision": "noop"}', yes, ("yes", "no"),
                           key="condition_met") == pytest.approx(2.0)
    assert LOW_MARGIN > 0 and not math.isnan(2.0)


async def test_the_model_answers_yes_or_no_and_the_tasks_rule_says_what_that_means() -> None:
    """Qwen2.5-0.5B reasoned "the parcel is delivered" and then wrote noop: yes or no is what it can answer."""
    content = ('{"evaluations": [{"task_id": "1", "reason": "The parcel is delivered.", "condition_met": "yes", '
               '"decision": "noop"}]}')
    turned = content.replace('"yes"', '"no"')  # and asked the other way round, no: it is not still undelivered
    server = Server(lambda body: completion(turned if "once more" in body["messages"][-1]["content"] else content))
    task = make_task("Tell me when the parcel in tracking.txt is delivered")
    change = ChangeItem("file", "tracking.txt", "10:14 handed to the neighbour", "changed")
    evaluation = await server.judge().evaluate([task], report(change))
    assert evaluation.decisions[task.id].decision == "act"
    item = server.bodies[0]["response_format"]["json_schema"]["schema"]["properties"]["evaluations"]["items"]
    assert list(item["properties"])[:4] == ["task_id", "reason", "condition_met", "decision"]
    assert item["properties"]["condition_met"]["enum"] == ["yes", "no"]
    escalating = make_task("Draft a reply whenever my landlord writes to me", task_id="t9")
    mail = ChangeItem("file", "inbox/keller.txt", "From: Thomas Keller (landlord)", "new")
    decided = (await server.judge().evaluate([escalating], report(mail))).decisions["t9"]
    assert decided.decision == "escalate"


def test_ollama_style_logprobs_are_read_too() -> None:
    raw = {"message": {"content": "x"}, "logprobs": [{"token": "x", "logprob": -0.5, "top_logprobs": []}]}
    assert token_logprobs(raw) == [TokenLogprob("x", -0.5, ())]


# --- what the judge reads about health, and what the user is told ---------------------------------


def test_health_reaches_the_judge_without_addresses_or_advice() -> None:
    from openhuman_desktop.subconscious.report import for_the_judge

    assert for_the_judge("Ollama is not running at http://127.0.0.1:11434 — start it with `ollama serve`.") == \
        "Ollama is not running at the server"
    plain = for_the_judge("model m at http://x/v1 is ready, context window 4096 tokens (assumed: the server does "
                          "not say; set context_window in [models.local])")
    assert "http" not in plain and "context_window" not in plain and "assumed" not in plain


async def test_a_narrow_question_shows_health_only_to_the_task_about_it() -> None:
    content, tokens = answer_tokens("the reasoning model is down", "act", "noop", -0.1, -5.0)
    server = Server(lambda body: completion(content, tokens))
    problem = ChangeItem("models", "", "reasoning model: problem — Cannot reach the server", "problem")
    memo = ChangeItem("memory", "", "the parcel came today")
    health = make_task("Monitor system health (Ollama, memory, connections)", task_id="h")
    parcel = make_task("Remind me of anything about the parcel I told you", task_id="p")
    evaluation = await server.judge().evaluate([health, parcel], report(problem, memo))
    assert evaluation.decisions["h"].decision == "act"
    prompts = {body["messages"][-1]["content"].splitlines()[1]: body["messages"][-1]["content"]
               for body in server.bodies}
    assert "Cannot reach" in prompts["- [1] Monitor system health (Ollama, memory, connections)"]
    assert "Cannot reach" not in prompts["- [1] Remind me of anything about the parcel I told you"]


async def test_a_tick_that_decides_noop_for_everything_although_things_changed_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.fakes.engine_harness import open_harness

    async with open_harness(tmp_path, monkeypatch) as h:
        await h.add_task("Tell me when the parcel in tracking.txt is delivered")
        await h.tick()
        calls = len(h.local_bodies("evaluation"))
        await h.clock.advance(300)
        h.write_file("notes/recipes.md", "Pancakes: flour, eggs, milk.")
        await h.tick()
        assert len(h.local_bodies("evaluation")) == calls, "a change that concerns no task costs no model call"
        status = await h.service.status()
        assert status["state"] == "idle" and "none concerned a task" in status["state_reason"]


async def test_a_model_too_slow_to_answer_fails_only_the_tasks_it_was_asked_about() -> None:
    def slow(request: httpx.Request) -> httpx.Response:
        raise httpx.ReadTimeout("no answer", request=request)

    client = OpenAICompatClient("m", "http://slow.test/v1", api_key_env=None,
                                http=httpx.AsyncClient(transport=httpx.MockTransport(slow)))
    judge = Judge(lambda: client, TOKENS, lambda: 8192)
    parcel = make_task("Tell me when the parcel in tracking.txt is delivered")
    other = make_task("Draft a reply whenever my landlord writes to me", task_id="t2")
    evaluation = await judge.evaluate([parcel, other], report(ChangeItem("file", "tracking.txt", "DELIVERED")))
    assert "t1" in evaluation.problems and "did not answer" in evaluation.problems["t1"]
    assert evaluation.decisions["t2"].decision == "noop", "the untouched task needed no model"


async def test_an_unsure_yes_to_a_change_of_what_the_task_names_stands() -> None:
    # "Anna's address changes": no word of its own for a change to say; the replaced line naming Anna is the
    # evidence, so an unsure yes stands. The same unsure yes to Ben's line is noop.
    task = make_task("Tell me when Anna's address changes in contacts.md")
    rule = derive(task.title)
    anna = ChangeItem("file", "contacts.md", "Anna Berg: Elbchaussee 77, 22763 Hamburg", "changed",
                      "Anna Berg: Lindenstrasse 4, 20095 Hamburg")
    ben = ChangeItem("file", "contacts.md", "Ben Ortiz: Gran Via 30, Madrid", "changed",
                     "Ben Ortiz: Calle Mayor 12, Madrid")
    assert changed_subject(rule, [anna]) == "anna" and changed_subject(rule, [ben]) is None
    assert changed_subject(derive("Tell me when the parcel in tracking.txt is delivered"), [anna]) is None
    content, tokens = answer_tokens("Anna's line changed", "act", "noop", -0.6, -0.8)
    server = Server(lambda body: completion(content, tokens))
    assert (await server.judge().evaluate([task], report(anna))).decisions[task.id].decision == "act"
    assert (await server.judge().evaluate([task], report(ben))).decisions[task.id].decision == "noop"


async def test_every_narrow_question_has_the_same_system_prompt() -> None:
    # A server that keeps the last prompt's prefix evaluates the instructions once, not once per task.
    content, tokens = answer_tokens("it happened", "act", "noop", -0.05, -4.0)
    server = Server(lambda body: completion(content, tokens))
    parcel = make_task("Tell me when the parcel in tracking.txt is delivered")
    landlord = make_task("Draft a reply whenever my landlord writes to me", task_id="t2")
    changes = report(ChangeItem("file", "tracking.txt", "10:14 DELIVERED", "changed"),
                     ChangeItem("file", "inbox/keller.txt", "From: Thomas Keller (landlord)", "new"))
    await server.judge().evaluate([parcel, landlord], changes)
    systems = {body["messages"][0]["content"] for body in server.bodies}
    assert len(server.bodies) == 2 and len(systems) == 1
    assert 'decision \\"escalate\\"' in json.dumps(server.bodies[1]["messages"][-1]["content"])


def yes_no_tokens(met: str, chosen: float, other: float) -> tuple[str, list[dict[str, Any]]]:
    """A narrow answer with ``condition_met`` and its first token's alternative."""
    alternative = "no" if met == "yes" else "yes"
    pieces = ['{"evaluations": [{"task_id": "1", "reason": "r", "condition_met": "', met, '", "decision": "noop"}]}']
    tokens: list[dict[str, Any]] = []
    for piece in pieces:
        entry: dict[str, Any] = {"token": piece, "logprob": -0.01, "top_logprobs": [{"token": piece, "logprob": -0.01}]}
        if piece == met:
            entry = {"token": piece, "logprob": chosen, "top_logprobs": [
                {"token": met, "logprob": chosen}, {"token": alternative, "logprob": other}]}
        tokens.append(entry)
    return "".join(pieces), tokens


@pytest.mark.parametrize(("answer", "expected"), [
    (("yes", -0.6, -0.8), "noop"),   # an unsure yes that nothing in the change supports: noop
    (("yes", -0.6, -3.6), "noop"),   # as sure as SmolLM2 is of its near misses: noop
    (("yes", -0.01, -6.0), "act"),   # a sure one stands, although no word says so
    (("no", -0.3, -0.5), "noop"),
])
async def test_a_yes_that_nothing_supports_stands_only_when_the_model_is_sure(
        answer: tuple[str, float, float], expected: str) -> None:
    content, tokens = yes_no_tokens(*answer)
    server = Server(lambda body: completion(content, tokens))
    task = make_task("Log each workout I tell you about in workouts.md")
    memory = ChangeItem("memory", "", "Spent the evening at the sauna with Tom", "new")
    assert touches(derive(task.title), memory) and evidence(derive(task.title), [memory]) is None
    decision = (await server.judge().evaluate([task], report(memory))).decisions[task.id]
    assert len(server.bodies) == 1, "with log-probabilities the answer is weighed, not asked the other way round"
    assert server.bodies[0]["repeat_penalty"] == 1.0, "the yes its reason wrote is not penalised"
    assert decision.decision == expected


async def test_a_model_that_says_yes_to_everything_acts_only_where_the_change_says_so() -> None:
    # SmolLM2 said yes to "out for delivery", an edited figure and a newsletter. A yes that no word of the
    # change supports is asked the other way round; yes to both is no answer, and the task stays noop.
    content = ('{"evaluations": [{"task_id": "1", "reason": "Yes", "condition_met": "yes", "decision": "noop"}]}')
    server = Server(lambda body: completion(content))
    task = make_task("Tell me when the parcel in tracking.txt is delivered")
    out = ChangeItem("file", "tracking.txt", "07:55 Out for delivery", "changed")
    assert (await server.judge().evaluate([task], report(out))).decisions[task.id].decision == "noop"
    assert len(server.bodies) == 2 and "still NOT" in server.bodies[1]["messages"][-1]["content"]
    delivered = ChangeItem("file", "tracking.txt", "10:14 DELIVERED to the neighbour", "changed")
    assert (await server.judge().evaluate([task], report(delivered))).decisions[task.id].decision == "act"
    assert len(server.bodies) == 3, "a yes the change itself supports is not asked twice"
    landlord = make_task("Draft a reply whenever my landlord writes to me", task_id="t2")
    mail = ChangeItem("file", "inbox/keller.txt", "From: Thomas Keller (landlord)\nRent from March", "new")
    assert (await server.judge().evaluate([landlord], report(mail))).decisions["t2"].decision == "escalate"


# --- the subject: a change about another flight, person or sender is no news ------------------------------


def test_the_names_a_condition_is_about_are_its_capitalised_words() -> None:
    assert subject_names("the flight to Lisbon in flights.md costs less than 300 EUR") == {"lisbon"}
    assert subject_names("Anna's address changes in contacts.md") == {"anna"}
    assert subject_names("the invoice from Acme arrives in invoices/") == {"acme"}
    assert subject_names("the meeting on Friday moves to March") == set(), "times are no subject"
    assert subject_names("anything urgent I told you") == set()
    assert subject_names("Check my inbox folder for urgent emails", mid_sentence=False) == set()
    assert subject_names("The parcel is delivered") == set()
    assert subject_names("Log each workout I tell you about", mid_sentence=False) == set()
    assert subject_names("Anna's birthday comes up", mid_sentence=False) == {"anna"}


@pytest.mark.parametrize(("title", "named", "other"), [
    ("Tell me when the flight to Lisbon in flights.md costs less than 300 EUR",
     ChangeItem("file", "flights.md", "- Lisbon, 3 March, return 10 March: 289 EUR (checked 2 December)", "changed",
                "- Lisbon, 3 March, return 10 March: 340 EUR (checked 1 December)"),
     ChangeItem("file", "flights.md", "- Porto, 5 March: 250 EUR (checked 2 December)", "changed")),
    ("Let me know when the invoice from Acme arrives in invoices/",
     ChangeItem("file", "invoices/acme-2026-11.txt", "Invoice AC-2291 from Acme Tools, November, 860 EUR", "new"),
     ChangeItem("file", "invoices/globex-2026-11.txt", "Invoice GX-5630 from Globex, November, 120 EUR.", "new")),
    ("When the job offer from Lumen arrives, write a comparison with my current job",
     ChangeItem("file", "career/lumen-offer.md", "Offer: senior analyst, 66,000 EUR, 30 days off", "new"),
     ChangeItem("file", "career/nordbank-offer.md", "Offer from Nordbank: analyst, 60,000 EUR", "new")),
    ("Tell me when Anna's address changes in contacts.md",
     ChangeItem("file", "contacts.md", "Anna Berg: Elbchaussee 77, 22763 Hamburg", "changed",
                "Anna Berg: Lindenstrasse 4, 20095 Hamburg"),
     ChangeItem("file", "contacts.md", "Ben Ortiz: Gran Via 30, Madrid", "changed", "Ben Ortiz: Calle Mayor 12")),
])
async def test_a_sure_yes_to_a_change_about_another_subject_is_noop_without_a_model_call(
        title: str, named: ChangeItem, other: ChangeItem) -> None:
    yes, no = yes_no_tokens("yes", -0.01, -8.0), yes_no_tokens("no", -0.01, -8.0)

    def reply(body: dict[str, Any]) -> dict[str, Any]:  # sure the condition is met; asked again, sure too
        return completion(*(no if "once more" in body["messages"][-1]["content"] else yes))

    server = Server(reply)
    task = make_task(title)
    rule = derive(title)
    assert names_subject(rule, named) and touches(rule, named)
    assert not names_subject(rule, other) and not touches(rule, other)
    evaluation = await server.judge().evaluate([task], report(other))
    assert evaluation.decisions[task.id].decision == "noop" and server.bodies == []
    evaluation = await server.judge().evaluate([task], report(named))
    assert evaluation.decisions[task.id].decision == rule.kind
    assert len(server.bodies) >= 1 or compared(rule, [named]) is not None, "asked, or a figure the app compared"


def test_a_condition_without_a_name_is_named_by_any_change() -> None:
    rule = derive("Tell me when the parcel in tracking.txt is delivered")
    assert names_subject(rule, ChangeItem("file", "tracking.txt", "2 Dec 10:14 DELIVERED (Hamburg depot)", "changed"))
    memory = derive("Prepare a packing list when I book a trip")
    assert touches(memory, ChangeItem("memory", "", "Booked flights to Lisbon for 3 to 10 March."))


async def test_an_unsure_yes_to_a_message_from_whom_the_task_names_is_noop() -> None:
    # "When Carys sends my audition piece": her mail is from whom the task names, but what it says is not the
    # piece; a small model's unsure yes to it stands no more than to any near miss. A sure one stands.
    task = make_task("When Carys sends my audition piece, make me a practice plan for the week")
    mail = ChangeItem("file", "mail/carys.txt", "From: Carys Hughes\nStill choosing between two songs, more soon!",
                      "new")
    rule = derive(task.title)
    assert evidence(rule, [mail]) is None and changed_subject(rule, [mail]) == "cary"
    content, tokens = answer_tokens("Carys wrote", "escalate", "noop", -0.5, -2.9)
    server = Server(lambda body: completion(content, tokens))
    assert (await server.judge().evaluate([task], report(mail))).decisions[task.id].decision == "noop"
    content, tokens = answer_tokens("Carys sent the piece", "escalate", "noop", -0.01, -5.0)
    server = Server(lambda body: completion(content, tokens))
    assert (await server.judge().evaluate([task], report(mail))).decisions[task.id].decision == "escalate"


async def test_the_models_first_answer_is_kept_for_the_bench_even_where_the_app_overrules_it() -> None:
    content = ('{"evaluations": [{"task_id": "1", "reason": "Yes", "condition_met": "yes", "decision": "noop"}]}')
    server = Server(lambda body: completion(content))
    judge = server.judge()
    task = make_task("Tell me when the parcel in tracking.txt is delivered")
    out = ChangeItem("file", "tracking.txt", "07:55 Out for delivery", "changed")
    assert (await judge.evaluate([task], report(out))).decisions[task.id].decision == "noop"
    assert len(server.bodies) == 2, "asked again, turned around: yes to both is no answer"
    assert judge.last_confidence[task.id].decision == "yes", "the model's own yes, though the app decided noop"
    untouched = make_task("Tell me when my landlord writes", task_id="t3")
    await judge.evaluate([untouched], report(out))
    assert judge.last_confidence == {}, "a task never asked has no answer, and the last evaluation's are gone"


def test_the_longest_answer_the_grammar_allows_closes_inside_the_cap_even_at_one_token_a_character() -> None:
    """SmolLM2 looped on "1.1.1…" in its reason: each character a token of its own, the JSON left open."""
    frame = json.dumps({"evaluations": [{"task_id": "1", "reason": "", "condition_met": "yes",
                                         "decision": "escalate", "priority": "important"}]})
    assert REASON_CHARS + TOKENS.count(frame) <= ANSWER_TOKENS, "the grammar's cut reason leaves room to close"
