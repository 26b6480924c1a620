"""What the fake model answers in the benchmarks (importable by a model server in its own process)."""

from __future__ import annotations

import json
import re
from typing import Any

from tests.fakes.model_servers import Reply

TASK_LINE = re.compile(r"^- \[([^\]]+)\]", re.MULTILINE)


def _prompt(body: Any) -> str:
    return "\n".join(str(m.get("content", "")) for m in body.get("messages", []) if isinstance(m, dict))


def noop_responder(body: Any) -> Reply:
    """What an instant model would say: ``noop`` for every ``- [ID]`` line of the prompt."""
    evaluations = [{"task_id": task_id, "decision": "noop", "reason": "Nothing new.", "priority": "normal"}
                   for task_id in TASK_LINE.findall(_prompt(body))]
    return Reply(content=json.dumps({"evaluations": evaluations}))


def mixed_responder(body: Any) -> Reply:
    """Evaluations: every tenth task ``act``, the rest ``noop``; executions answer a line at once."""
    if not isinstance(body, dict):
        return Reply(content="ok")
    ids = TASK_LINE.findall(_prompt(body))
    if not body.get("format") or not ids:
        return Reply(content="Checked the project folder: nothing needs doing.")
    evaluations = [{"task_id": task_id, "decision": "act" if n % 10 == 0 else "noop",
                    "reason": "Something changed." if n % 10 == 0 else "Nothing new.", "priority": "normal"}
                   for n, task_id in enumerate(ids)]
    return Reply(content=json.dumps({"evaluations": evaluations}))


def constant_responder(answer: str) -> Any:
    """A model that answers every judgement question the same (``"yes"`` or ``"no"``, whatever the change): what
    the app settles on its own, with nothing from a model (``bench/judgement.py --constant``). It fills in the
    schema the request pins: every task alias, ``condition_met`` when asked, and a decision from the enum (the
    first that is not ``noop`` for yes)."""

    def respond(body: Any) -> Reply:
        schema = body.get("response_format", {}).get("json_schema", {}).get("schema", {}) if isinstance(
            body, dict) else {}
        item = schema.get("properties", {}).get("evaluations", {}).get("items", {}).get("properties", {})
        aliases = item.get("task_id", {}).get("enum") or TASK_LINE.findall(_prompt(body)) or ["1"]
        allowed = item.get("decision", {}).get("enum") or ["noop", "act"]
        acting = [d for d in allowed if d != "noop"]
        decision = (acting[0] if acting else allowed[0]) if answer == "yes" else (
            "noop" if "noop" in allowed else allowed[0])
        evaluations = [{"task_id": alias, "reason": f"Always {answer}.",
                        **({"condition_met": answer} if "condition_met" in item else {}), "decision": decision}
                       for alias in aliases]
        return Reply(content=json.dumps({"evaluations": evaluations}))

    return respond


# --- the agent (bench/gui_bench.py's chat stall) ------------------------------------------------------

AGENT_SUBTASKS = (("List the workspace", "List the files of the workspace."),
                  ("Read the notes", "Read notes.md and say what it is about."),
                  ("Read the to-do list", "Read todo.md and list what is left."))
AGENT_ANSWER_PIECES = 300
AGENT_ANSWER = " ".join(f"Point {n}: the notes and the to-do list say nothing urgent today." for n in range(40))


def _agent_model() -> Any:
    from tests.fakes.agent_model import AgentModel, AgentScript, call, say

    steps = {"List the workspace": [call("files_list", path="."), say("Three files: notes.md, todo.md, a plan.")],
             "Read the notes": [call("files_read", path="notes.md"), say("The notes are about the garden.")],
             "Read the to-do list": [call("files_read", path="todo.md"), say("Two things are left to do.")]}
    return AgentModel(AgentScript(instructions="Look at the notes and the to-do list.", subtasks=AGENT_SUBTASKS,
                                  steps=steps, reply="The notes are about the garden; two to-dos are left.",
                                  answer=AGENT_ANSWER, compression="Listed and read two files; nothing changed."))


_AGENT: Any = None


def agent_responder(body: Any) -> Reply:
    """A chat run of the agent: pass 1, a plan of 3 sub-tasks that each call a read tool, the reply, and a
    pass-2 answer streamed in :data:`AGENT_ANSWER_PIECES` pieces (tests/fakes/agent_model.py answers)."""
    global _AGENT
    from dataclasses import replace

    from tests.fakes.agent_model import PASS2, kind_of

    if _AGENT is None:
        _AGENT = _agent_model()
    reply: Reply = _AGENT(body)
    messages = body.get("messages") or [] if isinstance(body, dict) else []
    if kind_of([m for m in messages if isinstance(m, dict)]) == PASS2:
        reply = replace(reply, pieces=AGENT_ANSWER_PIECES)
    return reply
