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
