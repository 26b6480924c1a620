"""A run's incoming text as the nodes read it, and the prompt blocks they build from the state (moved out of
:mod:`nodes`)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from openhuman_desktop.orchestration import prompts
from openhuman_desktop.orchestration.direct import (
    AppendDone,
)
from openhuman_desktop.orchestration.ports import (
    CHAT,
    Run,
)
from openhuman_desktop.orchestration.state import (
    MESSAGES,
)
from openhuman_desktop.orchestration.subagent import (
    CallRecord,
    SubagentTrace,
)
from openhuman_desktop.skills.base import Tool

MAX_INPUT_CHARS = 16_000
MAX_HEARTBEAT_CHARS = 2_000_000
INPUT_CUT = "\n[… the message was cut here at 16,000 characters]"
RECENT_MESSAGES = 6
RECENT_CHARS = 1_500

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029]+")


def normalise(text: str, limit: int = MAX_INPUT_CHARS) -> str:
    """An inbound message as the state keeps it: control characters as one space, stripped, capped."""
    clean = _CONTROL.sub(" ", text.replace("\r\n", "\n").replace("\r", "\n")).strip()
    return clean if len(clean) <= limit else clean[:limit] + INPUT_CUT.replace("16,000", f"{limit:,}")


def run_input(run: Run) -> str:
    """A run's incoming text, normalised. A heartbeat run's text is the heartbeat's own prompt (the task and
    its situation report, already cut to the reasoning window), so only a channel's message is capped."""
    return normalise(run.input, MAX_INPUT_CHARS if run.purpose == CHAT else MAX_HEARTBEAT_CHARS)

def recent_text(values: Mapping[str, Any], *, skip_last: bool) -> str:
    """The conversation's last messages as a prompt block (empty when there are none)."""
    messages = list(values.get(MESSAGES) or [])
    if skip_last and messages:
        messages = messages[:-1]
    lines = []
    for message in messages[-RECENT_MESSAGES:]:
        if isinstance(message, Mapping):
            content = str(message.get("content", ""))
            content = content if len(content) <= RECENT_CHARS else content[:RECENT_CHARS] + " […]"
            lines.append(f"{message.get('role', '?')}: {content}")
    return f"{prompts.CONVERSATION_INTRO}\n" + "\n".join(lines) + "\n\n" if lines else ""


def steering_block(steering: Mapping[str, Any] | None) -> str:
    """The user's steering as a prompt block (empty when there is none)."""
    if not steering or not str(steering.get("text", "")).strip():
        return ""
    return f"{prompts.STEERING_INTRO}\n{steering['text']}\n\n"


def tools_block(tools: Sequence[Tool], note: str = "") -> str:
    """The sub-agents' tools as a prompt block."""
    listed = "\n".join(f"- {tool.name}: {tool.spec.description}" for tool in tools) or "- (none)"
    return f"Tools the sub-agents have:\n{listed}\n{note + chr(10) if note else ''}\n"


UNCERTAIN_LABEL = "may or may not have happened; the user is asked"
"""How a call that may or may not have happened is listed (the reply's results, the Run's tools used)."""


def _call_label(call: CallRecord) -> str:
    return UNCERTAIN_LABEL if call.uncertain else "error" if call.is_error else "ok"


def append_done(call: CallRecord) -> AppendDone:
    """What an append call carried out (or did not), for the chat's reply."""
    arguments = call.arguments if isinstance(call.arguments, Mapping) else {}
    return AppendDone(str(arguments.get("path") or ""), str(arguments.get("text") or ""),
                      call.changed, call.uncertain, call.text if call.is_error or call.uncertain else "")


def results_block(traces: Sequence[SubagentTrace]) -> str:
    """The sub-agents' answers and tool calls as a prompt block."""
    if not traces:
        return "There were no sub-tasks (nothing needed a tool).\n"
    parts = [prompts.RESULTS_INTRO]
    for trace in traces:
        ran = ", ".join(f"{c.name} ({_call_label(c)})" for c in trace.calls) or "none"
        part = f"### {trace.index + 1}. {trace.subtask.title}\n{trace.text or '(no answer)'}\nTool calls: {ran}"
        if trace.unexecuted:
            part += f"\nAsked for but not carried out: {', '.join(trace.unexecuted)}"
        parts.append(part)
    return "\n\n".join(parts) + "\n"
