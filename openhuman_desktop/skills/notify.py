"""The notification skill: the assistant tells the user something through a desktop notification."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from openhuman_desktop import events
from openhuman_desktop.errors import InvalidInput
from openhuman_desktop.llm.base import ToolSpec
from openhuman_desktop.skills._args import checked_tool, object_schema
from openhuman_desktop.skills.base import CONNECTED, Mutation, SkillHealth, SkillSetting, Tool, ToolResult

MAX_TITLE_CHARS = 200
MAX_BODY_CHARS = 2_000

NOTIFY_SPEC = ToolSpec(
    name="notify_user",
    description="Show the user a desktop notification (only for what they should see now).",
    parameters=object_schema(
        {"title": {"type": "string", "minLength": 1, "maxLength": MAX_TITLE_CHARS,
                   "description": "Short headline."},
         "body": {"type": "string", "maxLength": MAX_BODY_CHARS,
                  "description": "A few sentences."}},
        required=["title", "body"],
    ),
)


class NotificationSkill:
    """Publishes :class:`events.Notified`; the GUI shows it, headless mode logs it."""

    name = "notify"
    title = "Desktop notifications"
    description = "Shows the user a desktop notification."

    def __init__(self, bus: events.EventBus) -> None:
        self._bus = bus
        self._tools = (checked_tool(NOTIFY_SPEC, writes=True, run=self._notify),)

    def tools(self) -> Sequence[Tool]:
        return self._tools

    def settings(self) -> Sequence[SkillSetting]:
        return ()

    async def health(self) -> SkillHealth:
        return SkillHealth(CONNECTED, "Built in")

    async def _notify(self, args: dict[str, Any]) -> ToolResult:
        title = " ".join(args["title"].split())
        if not title:
            raise InvalidInput("title", "must not be blank")
        self._bus.publish(events.Notified(title, args["body"].strip()))
        # No observe: a notification leaves nothing to look at, so an interrupted one is never sent twice.
        mutation = Mutation("message_sent", "desktop notification", f"notified the user: {title[:80]!r}")
        return ToolResult(f"The user was notified: {title!r}.", mutations=(mutation,))
