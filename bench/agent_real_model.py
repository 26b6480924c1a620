"""The agent on a real small model: chats through the real headless app, both tiers on SmolLM2-135M.

The real app (``python -m openhuman_desktop --headless``) in a workspace of its own (``notes.md``, ``todo.md``
and a few other files), both ``[models.*]`` tiers on the recording proxy (``bench/model_proxy.py``) in front of
one llama.cpp server (``bench/real_model_server.py``). Each chat goes in with ``agent_send`` and is followed
with ``agent_run_follow`` until the run has finished, as ``openhuman-desktop chat`` does. Per chat:

- the run's status, permission and (if it failed) its error sentence; wall time from send to finish;
- the node sequence (``agent_history``) and whether the plan is valid: the journal's ``plan`` entry of
  ``agent_execution`` (read from ``agent/ledger.db``) holds a ``subtasks`` list; how many plan requests it
  took (the first answer, the repair);
- sub-agents, tool calls executed through the journal (``sub:i:call:n:j`` entries with a result), how many of
  them the model wrote as text rather than as native calls, errors among them, ``tools_used`` of the Run;
- streamed pieces (content deltas of the pass-2 stream as the server sent them, each one a ``TextStreamed``)
  and follow answers with text; the answer's length; whether the streamed text is the Run's response;
- world-timeline entries of the run, and a check that a read run changed nothing.

Totals across chats at the end; ``BUDGET`` lines for what the issue asks of a real-model run (a chat that
completes with a valid plan, a journaled tool call and a streamed answer) and for what must never happen
(a run that does not finish, a write in a read run). Figures only: nothing here asserts a duration.
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import common, real_model_server  # noqa: E402
from bench.common import budget, figure, load_note, machine, note  # noqa: E402
from bench.model_proxy import Exchange, ModelProxy  # noqa: E402
from bench.real_model import App, config_for, serve_model  # noqa: E402
from openhuman_desktop.orchestration import prompts  # noqa: E402
from openhuman_desktop.orchestration.text_calls import text_tool_calls  # noqa: E402
from tests.fakes.agent_model import kind_of  # noqa: E402

SHOWN = ("pass1", "plan", "subagent", "pick", "reply", "pass2")
"""The model answers printed per chat (the intent probes, compression and summaries are only counted)."""
FOLLOW_TIMEOUT = 30
CHAT_TIMEOUT = 1_200.0
"""Longer than the run deadline (900 s): a run that outlives it has hung."""

FILES = {
    "notes.md": "# Notes\n\nCall the plumber on Tuesday about the kitchen tap.\nThe garden needs water on Sunday.\n",
    "todo.md": "# To do\n\n- pay the electricity bill\n",
    "projects/garden.md": "Garden plan: tomatoes in the south bed, beans along the fence.\n",
}


@dataclass(frozen=True)
class Chat:
    """One message to the agent, its thread, and the permission it should get."""

    text: str
    thread: str
    want: str
    quick: bool = False


CHATS = (
    Chat("What files are in my workspace?", "desktop", "read", quick=True),
    Chat("What is in notes.md?", "desktop", "read"),
    Chat("Append the line 'buy milk' to todo.md", "webapp:bench", "write", quick=True),
    Chat("Hello! How are you today?", "cli", "read"),
    Chat("Does my garden plan mention beans?", "telegram:42", "read"),
)


@dataclass
class Outcome:
    """What one chat did (see the module docstring)."""

    chat: Chat
    run: dict[str, Any]
    wall: float
    nodes: list[str]
    plan_valid: bool
    plan_fallback: bool
    plan_requests: int
    subtasks: int
    calls: int
    call_errors: int
    text_calls: int
    picked_calls: int
    native_calls: int
    tool_names: list[str]
    pieces: int
    follow_pieces: int
    streamed: str
    timeline: list[dict[str, Any]]
    model_calls: Counter[str] = field(default_factory=Counter)
    refused: int = 0
    exchanges: list[Exchange] = field(default_factory=list)

    @property
    def status(self) -> str:
        return str(self.run["status"])

    @property
    def answer(self) -> str:
        return str(self.run.get("response") or "")

    @property
    def carried(self) -> bool:
        """The issue's bar: completed, a valid plan, at least one journaled tool call, a streamed answer."""
        return self.status == "completed" and self.plan_valid and self.calls > 0 and self.pieces > 0


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="2 chats (a read question and the write request)")
    parser.add_argument("--url", help="an OpenAI-compatible server to use (default: start our own llama.cpp)")
    parser.add_argument("--model", default=real_model_server.MODEL_ALIAS, help="the model id it offers")
    parser.add_argument("--port", type=int, default=0, help="port for our own server (default: a free one)")
    parser.add_argument("--n-ctx", type=int, default=real_model_server.DEFAULT_CONTEXT)
    parser.add_argument("--threads", type=int, default=real_model_server.DEFAULT_THREADS)
    parser.add_argument("--safety-cap", type=int, default=512,
                        help="max_tokens the proxy adds to requests sent without a cap (0: none)")
    parser.add_argument("--app-repo", type=Path, help="run the app from this checkout")
    parser.add_argument("--repeat", type=int, default=1, help="send the list of chats this many times")
    return parser.parse_args(argv)


# --- reading what a run did -----------------------------------------------------------------------------


def journal_rows(ledger: Path, run_id: str) -> list[tuple[int, str, Any, Any]]:
    """(step, key, intent, result) of the run's journal entries, read-only (the app keeps writing)."""
    conn = sqlite3.connect(f"file:{ledger}?mode=ro", uri=True, timeout=10)
    try:
        rows = conn.execute("SELECT step, key, intent, result FROM journal WHERE run_id = ? ORDER BY step, key",
                            (run_id,)).fetchall()
    finally:
        conn.close()
    return [(step, key, _loads(intent), _loads(result)) for step, key, intent, result in rows]


def _loads(text: str | None) -> Any:
    if text is None:
        return None
    try:
        return json.loads(text)
    except ValueError:
        return text


def call_names(rows: list[tuple[int, str, Any, Any]]) -> tuple[list[str], int, int]:
    """The tool names of the executed calls (from the model answer that asked for each), and how many of
    those calls were native ``tool_calls`` and how many written as text."""
    answers = {key: result for _, key, _, result in rows if ":model:" in key and isinstance(result, dict)}
    names, native, text = [], 0, 0
    for _, key, _, result in rows:
        if ":call:" not in key or result is None:
            continue
        _, index, _, n, j = key.split(":")
        answer = answers.get(f"sub:{index}:model:{n}") or {}
        recorded = answer.get("tool_calls") or []
        if recorded:
            native += 1
            calls = [str(c.get("name")) for c in recorded]
        else:
            text += 1
            calls = [c.name for c in text_tool_calls(str(answer.get("content", "")))]
        names.append(calls[int(j)] if int(j) < len(calls) else "?")
    return names, native, text


def kind(exchange: Exchange) -> str:
    """The agent request an exchange was (the fake model's names), ``pick`` for a sub-agent's tool pick,
    ``intent`` for the permission classifier's questions."""
    messages = exchange.body.get("messages") or []
    found = kind_of(messages)
    if found != "unknown":
        return found
    system = next((str(m.get("content", "")) for m in messages if m.get("role") == "system"), "")
    if prompts.PICK_ROLE in system:
        return "pick"
    return "intent" if "Classify a task" in system else found


def kinds(chats: list[Exchange]) -> Counter[str]:
    return Counter(kind(e) for e in chats)


def follow_chat(app: App, chat: Chat) -> tuple[dict[str, Any], float, int, str]:
    """Send ``chat`` and follow it to the end: (the finished Run, wall seconds, follow answers with text,
    the text streamed)."""
    started = time.perf_counter()
    sent = app.call("agent_send", {"text": chat.text, "thread_id": chat.thread})
    after, pieces, text = 0, 0, ""
    deadline = time.monotonic() + CHAT_TIMEOUT
    while True:
        if time.monotonic() > deadline:
            raise TimeoutError(f"the run of {chat.text!r} did not finish in {CHAT_TIMEOUT:g} s (it hangs)")
        found = app.call("agent_run_follow", {"run_id": sent["run_id"], "after": after, "timeout": FOLLOW_TIMEOUT})
        if found["text"]:
            pieces += 1
            text += found["text"]
        after = found["offset"]
        if found["run"] is not None:
            return found["run"], time.perf_counter() - started, pieces, text


def run_chat(app: App, proxy: ModelProxy, number: int, chat: Chat) -> Outcome:
    proxy.phase = f"chat {number}"
    run, wall, follow_pieces, streamed = follow_chat(app, chat)
    proxy.settle()
    chats = proxy.chats(proxy.phase)
    history = app.call("agent_history", {"thread_id": chat.thread, "limit": 100})
    nodes = [c["node"] for c in reversed(history) if c.get("run_id") == run["id"]]
    rows = journal_rows(app.paths.workspace / "agent" / "ledger.db", run["id"])
    plan = next((result for _, key, _, result in rows if key == "plan"), None)
    plan_valid = isinstance(plan, dict) and isinstance(plan.get("subtasks"), list)
    subtasks = len(plan["subtasks"]) if plan_valid and isinstance(plan, dict) else 0
    executed = [result for _, key, _, result in rows if ":call:" in key and result is not None]
    names, objects, text = call_names(rows)
    native = min(objects, sum(e.tool_calls for e in proxy.chats(proxy.phase)))
    timeline = [e for e in app.call("world_timeline", {"limit": 1000}) if e.get("run_id") == run["id"]]
    by_kind = kinds(chats)
    fallback = isinstance(plan, dict) and bool(plan.get("fallback"))
    return Outcome(chat, run, wall, nodes, plan_valid, fallback, by_kind.get("plan", 0), subtasks, len(executed),
                   sum(1 for r in executed if isinstance(r, dict) and r.get("is_error")), text, objects - native,
                   native, names,
                   sum(e.stream_pieces for e in chats if e.stream), follow_pieces, streamed, timeline,
                   by_kind, sum(1 for e in chats if e.refused), chats)


def report(model: str, number: int, outcome: Outcome) -> None:
    run = outcome.run
    print(f"{model} chat {number} {outcome.chat.text!r} ({outcome.chat.thread}): {outcome.status}, "
          f"{outcome.wall:.1f} s, permission {run.get('permission')} (want {outcome.chat.want}), "
          f"plan {'valid' if outcome.plan_valid else 'INVALID'} ({outcome.subtasks} sub-task(s), "
          f"{outcome.plan_requests} plan request(s){', blank twice: the fallback' if outcome.plan_fallback else ''}), "
          f"tool calls executed {outcome.calls} (errors {outcome.call_errors}, written as text {outcome.text_calls}, "
          f"from the JSON tool pick {outcome.picked_calls}, native {outcome.native_calls}), "
          f"tools_used {run.get('tools_used')}, streamed pieces {outcome.pieces} "
          f"(follow answers with text {outcome.follow_pieces}), answer {len(outcome.answer)} chars, "
          f"timeline entries {len(outcome.timeline)}", flush=True)
    note(f"  nodes: {' > '.join(outcome.nodes)}")
    note(f"  model calls by kind: {dict(outcome.model_calls)}; refused by the server {outcome.refused}")
    if outcome.tool_names:
        note(f"  calls: {', '.join(outcome.tool_names)}")
    if run.get("error"):
        note(f"  error: {run['error']}")
    if outcome.streamed and outcome.streamed != outcome.answer:
        note("  the streamed text differs from the Run's response")
    note(f"  answer: {' '.join(outcome.answer.split())[:300]!r}")
    for entry in outcome.timeline:
        note(f"  timeline: {entry.get('event_signature')}")
    for exchange in outcome.exchanges:
        if (what := kind(exchange)) in SHOWN:
            said = exchange.content if exchange.status == 200 else f"HTTP {exchange.status}"
            note(f"  {what} ({exchange.response_format or 'text'}, tools {exchange.tools}, {exchange.seconds:.1f} s, "
                 f"completion {exchange.completion_tokens}): {' '.join(said.split())[:240]!r}")


def summary(model: str, outcomes: list[Outcome], proxy: ModelProxy, workspace: Path) -> None:
    statuses = Counter(o.status for o in outcomes)
    carried = sum(o.carried for o in outcomes)
    print(f"{model} chats: {len(outcomes)}, statuses {dict(statuses)}, plans valid "
          f"{sum(o.plan_valid for o in outcomes)} (blank twice, the fallback: {sum(o.plan_fallback for o in outcomes)})"
          f", with a tool call executed {sum(o.calls > 0 for o in outcomes)}, tool calls executed "
          f"{sum(o.calls for o in outcomes)} (written as text {sum(o.text_calls for o in outcomes)}, from the pick "
          f"{sum(o.picked_calls for o in outcomes)}, errors {sum(o.call_errors for o in outcomes)}), streamed answers "
          f"{sum(o.pieces > 0 for o in outcomes)}, permission as expected "
          f"{sum(o.run.get('permission') == o.chat.want for o in outcomes)}, the issue's bar (completed, valid plan, "
          f"journaled tool call, streamed answer) {carried}", flush=True)
    figure(f"{model} chat wall (send to finished)", [o.wall * 1000 for o in outcomes])
    chats = proxy.chats()
    by_kind = kinds(chats)
    print(f"{model} model requests: {len(chats)} {dict(by_kind)}, refused by the server "
          f"{sum(e.refused for e in chats)} {dict(Counter(e.status for e in chats if e.refused))}, without a cap "
          f"{sum(e.max_tokens is None for e in chats)}, answered with native tool_calls "
          f"{sum(e.tool_calls > 0 for e in chats)}, finish 'length' "
          f"{sum(e.finish_reason == 'length' for e in chats)}", flush=True)
    todo = (workspace / "todo.md").read_text(encoding="utf-8")
    note(f"todo.md after the chats: {todo!r}")
    read_writes = sum(len(o.timeline) for o in outcomes if o.run.get("permission") != "write")
    budget(f"{model}: chats that did not finish (hung)", sum(o.status in ("queued", "running") for o in outcomes),
           0, "chats")
    budget(f"{model}: no chat reached the issue's bar (completed, valid plan, journaled tool call, streamed)",
           0 if carried else 1, 0, "")
    budget(f"{model}: writes in read runs (timeline entries)", read_writes, 0, "entries")
    budget(f"{model}: requests sent without an output cap", sum(e.max_tokens is None for e in chats), 0, "requests")


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    note(machine())
    load_note()
    if args.app_repo is not None:
        common.REPO = args.app_repo.resolve()
        note(f"app under test: {common.REPO}")
    chosen = [chat for chat in CHATS if chat.quick or not args.quick] * max(1, args.repeat)
    url, stop_server = serve_model(args)
    proxy = ModelProxy(url, safety_cap=args.safety_cap or None)
    outcomes: list[Outcome] = []
    try:
        with tempfile.TemporaryDirectory(prefix="oh-agent-real-") as tmp:
            proxy.phase = "setup"
            app = App(Path(tmp) / "chat", proxy, config_for(proxy, args.model, args.n_ctx), FILES)
            try:
                for number, chat in enumerate(chosen, 1):
                    outcome = run_chat(app, proxy, number, chat)
                    outcomes.append(outcome)
                    report(args.model, number, outcome)
                summary(args.model, outcomes, proxy, app.paths.workspace)
            finally:
                app.close()
    finally:
        proxy.close()
        stop_server()
    return 0


if __name__ == "__main__":
    os.environ.pop("OLLAMA_HOST", None)
    sys.exit(main())
