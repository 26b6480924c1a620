"""The scripted agent model of the kill tests: it plans from the user's own words (so runs of several threads can go
on at once), a sub-task per group of markers, whose sub-agent appends each marker to the file the message names."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from tests.fakes.agent_model import PLAN, SUBAGENT, AgentModel, AgentScript, call, say
from tests.fakes.model_servers import Reply

HOLD = 60.0
"""A model answer held this long is held until the kill (the fake cuts it short when it stops)."""
TASK_PREFIX = "task:"

_ASK = re.compile(r"append these lines to (\S+): ([^\n]*)")


def ask(path: str, groups: Sequence[Sequence[str]]) -> str:
    """The user's message: one sub-task per group, each appending its markers (one line each) to ``path``;
    a marker ``task:<title>`` adds a heartbeat task instead. (Not "Please append … to log.md": a single edit of
    one file is planned without a model, and these runs must pass through every node.)"""
    return f"I want you to append these lines to {path}: {' | '.join(' '.join(group) for group in groups)}"


class KillModel(AgentModel):
    """The scripted agent model, planning from the user's message (so runs of several threads can go on at
    once): a sub-task per group of markers, whose sub-agent appends each marker, then says so.

    ``hold_after_tool``: hold the sub-agent request that follows a tool result (the write is done, the
    model is thinking). ``on_request(kind)`` is called as each request arrives.
    """

    def __init__(self) -> None:
        super().__init__(AgentScript(reply="The lines are appended."))
        self.hold_after_tool = False

    def _answer(self, kind: str, messages: Sequence[Mapping[str, Any]]) -> Reply:
        users = [str(m.get("content", "")) for m in messages if m.get("role") == "user"]
        if kind == PLAN:
            # The last request in the prompt is this run's (the conversation before it comes first).
            found = next(reversed(list(_ASK.finditer(users[0] if users else ""))), None)
            if found is None:
                return Reply(content='{"subtasks": []}')
            path, groups = found.group(1), [g.split() for g in found.group(2).split("|")]
            return Reply(content=json.dumps({"subtasks": [
                {"title": f"Append {' '.join(group)} to {path}", "instructions": f"Append {' '.join(group)}"}
                for group in groups]}))
        if kind == SUBAGENT:
            title = (users[0] if users else "").removeprefix("Sub-task: ").split("\n", 1)[0]
            words = title.split()
            markers, path = words[1:-2], words[-1] if len(words) >= 4 else "log.md"
            step = sum(1 for m in messages if m.get("role") == "assistant")
            after_tool = bool(messages) and messages[-1].get("role") == "tool"
            delay = HOLD if self.hold_after_tool and after_tool else 0.0
            if step < len(markers):
                marker = markers[step]
                if marker.startswith(TASK_PREFIX):
                    return Reply(tool_calls=call("subconscious_tasks_add", title=marker).tool_calls, delay=delay)
                return Reply(tool_calls=call("files_append", path=path, text=f"{marker}\n").tool_calls, delay=delay)
            return Reply(content=say(f"Appended {' '.join(markers)}.").content, delay=delay)
        return super()._answer(kind, messages)
