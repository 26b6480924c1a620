"""``[skills.slack]`` (CONTRACT §12.2): ``slack_post`` through an incoming webhook.

The webhook's URL is a secret (anyone who has it can post): it is read from the variable ``webhook_env`` names
at each post and appears nowhere else. Slack answers ``ok``; a removed webhook 404 ``no_service``; too many posts
429 with ``Retry-After``, which is waited out (briefly) and tried again.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import httpx

from openhuman_desktop.config_reader import check_url
from openhuman_desktop.config_skills import SlackSettings
from openhuman_desktop.errors import UserFacingError
from openhuman_desktop.llm.base import ToolSpec
from openhuman_desktop.secret_env import secret_from
from openhuman_desktop.skills._args import checked_tool, object_schema
from openhuman_desktop.skills.base import CONNECTED, DISABLED, ERROR, Mutation, SkillSetting, ToolResult
from openhuman_desktop.skills.world._http import USER_AGENT
from openhuman_desktop.skills.world._watch import clip
from openhuman_desktop.skills.world.base import WorldSkill

log = logging.getLogger(__name__)

MAX_TEXT = 39_000
"""Slack cuts a message's text at 40,000 characters."""
MAX_RETRY_WAIT = 30.0
"""Seconds of ``Retry-After`` waited out at most (longer: the post fails and says when to try)."""
RETRIES = 2
TIMEOUT = 20.0

POST_SPEC = ToolSpec(
    name="slack_post",
    description="Post a message to the user's Slack channel (through its incoming webhook). Slack's mrkdwn "
                "formatting works (*bold*, _italic_, <url|text>).",
    parameters=object_schema({"text": {"type": "string", "minLength": 1, "maxLength": MAX_TEXT}},
                             required=["text"]),
)


class SlackSkill(WorldSkill):
    """Posts to the webhook of ``[skills.slack]``: ``connected`` when its variable holds a URL."""

    name = "slack"
    title = "Slack"
    description = "Posts messages to a Slack channel through an incoming webhook."

    def __init__(self, environ: Mapping[str, str] | None = None, client: httpx.AsyncClient | None = None,
                 on_change: Callable[[], None] | None = None,
                 sleep: Callable[[float], Any] = asyncio.sleep) -> None:
        super().__init__()
        self.config = SlackSettings()
        self._environ = os.environ if environ is None else environ
        self._client = client
        self._on_change = on_change or (lambda: None)
        self._sleep = sleep
        # No observe (Tool.observe): a webhook cannot be asked what it got, so a post a kill interrupted may or may
        # not have happened; it is never posted again by itself, the user gets a card for it.
        self._tools = (checked_tool(POST_SPEC, writes=True, run=self._post),)

    def configure(self, settings: SlackSettings) -> None:
        self.config = settings
        self.enabled = settings.enabled
        self.refresh()

    def refresh(self) -> None:
        """The state from the variable (set or not, a URL or not); a post's own failure stays until the next."""
        if not self.enabled:
            changed = self.set_state(DISABLED, "Turned off: set enabled = true in [skills.slack] (Settings > "
                                               "Skills).")
        else:
            problem = self._url_problem()
            if problem:
                changed = self.set_state(ERROR, problem)
            elif self.state in (ERROR, DISABLED) and not self._failed_post:
                changed = self.set_state(CONNECTED, "The webhook's address is set; posts go to its channel.")
            else:
                changed = False
        if changed:
            self._on_change()

    _failed_post = False

    def _url_problem(self) -> str:
        name = self.config.webhook_env
        value = secret_from(self._environ, name).strip()
        if not value:
            return f"The variable ${name} that should hold the Slack webhook's address is not set in the app's " \
                   "environment."
        try:
            check_url(value, lambda: ValueError())
        except ValueError:
            return f"The variable ${name} does not hold a web address (https://hooks.slack.com/services/...)."
        return ""

    async def health(self) -> Any:
        self.refresh()
        return await super().health()

    def settings(self) -> Sequence[SkillSetting]:
        return (SkillSetting("Webhook from", f"${self.config.webhook_env}" if self.config.webhook_env else
                             "(not set)"),)

    def _http(self) -> httpx.AsyncClient:
        if self._client is None:
            self._client = httpx.AsyncClient(timeout=TIMEOUT, trust_env=False, follow_redirects=False,
                                             headers={"User-Agent": USER_AGENT})
        return self._client

    async def _post(self, args: dict[str, Any]) -> ToolResult:
        problem = self._url_problem()
        if problem:
            raise UserFacingError(f"Not posted: {problem}")
        url = secret_from(self._environ, self.config.webhook_env).strip()
        text = args["text"]
        for attempt in range(RETRIES + 1):
            try:
                response = await self._http().post(url, json={"text": text})
            except httpx.HTTPError as exc:
                # The address is secret: the error names the service, never the URL.
                raise UserFacingError(f"Not posted: Slack's webhook could not be reached "
                                      f"({type(exc).__name__}).") from exc
            body = response.text.strip()[:200]
            if response.status_code == 200:
                self._failed_post = False
                if self.set_state(CONNECTED, "The webhook's address is set; posts go to its channel."):
                    self._on_change()
                mutation = Mutation("message_sent", "slack", f"posted {clip(text, 60)!r}")
                return ToolResult("Posted to Slack.", mutations=(mutation,))
            if response.status_code == 429 and attempt < RETRIES:
                wait = _retry_after(response.headers.get("Retry-After"))
                if wait <= MAX_RETRY_WAIT:
                    log.info("slack: rate limited; trying again in %.0f s", wait)
                    await self._sleep(wait)
                    continue
                raise UserFacingError(f"Not posted: Slack asks to wait {wait:.0f} s before the next post "
                                      "(rate limited).")
            reason = _reason(response.status_code, body)
            if response.status_code in (403, 404, 410):
                self._failed_post = True
                if self.set_state(ERROR, reason):
                    self._on_change()
            raise UserFacingError(f"Not posted: {reason}")
        raise UserFacingError("Not posted: Slack kept answering 'rate limited'.")

    async def test(self) -> str:
        """Settings' Test button: whether the variable holds a webhook address (nothing is posted)."""
        problem = self._url_problem()
        if problem:
            raise UserFacingError(problem)
        return f"${self.config.webhook_env} holds a webhook address; nothing was posted."

    async def aclose(self) -> None:
        if self._client is not None:
            await self._client.aclose()


def _retry_after(value: str | None) -> float:
    try:
        return max(0.0, float(value)) if value else 1.0
    except ValueError:
        return 1.0


def _reason(status: int, body: str) -> str:
    words = {
        "no_service": "Slack says the webhook no longer exists (no_service): make a new one and put its address "
                      "in the variable.",
        "no_team": "Slack says the webhook's workspace no longer exists (no_team).",
        "channel_not_found": "Slack says the webhook's channel no longer exists (channel_not_found).",
        "channel_is_archived": "Slack says the webhook's channel is archived (channel_is_archived).",
        "invalid_token": "Slack says the webhook's token is not valid (invalid_token).",
        "action_prohibited": "Slack says an administrator blocked this webhook (action_prohibited).",
        "posting_to_general_channel_denied": "Slack says only admins may post to that channel.",
        "invalid_payload": "Slack could not read the message (invalid_payload).",
        "no_text": "Slack says the message has no text (no_text).",
    }
    return words.get(body, f"Slack's webhook answered HTTP {status} ({clip(body, 80) or 'no reason given'}).")
