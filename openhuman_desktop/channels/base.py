"""What every channel is: the message it hands in, the port the hub drives it through, its status."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final, Literal, Protocol

from openhuman_desktop.orchestration.ports import Run
from openhuman_desktop.store.records import Escalation

ChannelState = Literal["disabled", "starting", "connected", "degraded", "stopped"]
DISABLED: Final = "disabled"
STARTING: Final = "starting"
CONNECTED: Final = "connected"
DEGRADED: Final = "degraded"
STOPPED: Final = "stopped"
STATES: tuple[ChannelState, ...] = (DISABLED, STARTING, CONNECTED, DEGRADED, STOPPED)
"""A channel's ``state``: off in config.toml, coming up, working, failing (``state_reason`` says why and it
retries by itself), or stopped with the app."""


@dataclass(frozen=True)
class InboundMessage:
    """A message for the agent, whichever channel it came from.

    Attributes:
        thread_id: the conversation it belongs to (``desktop``, ``webapp:<session>``, ``telegram:<chat_id>``).
        text: what the person wrote.
        source_key: the channel's own id of the message, when it has one that survives a restart (a Telegram
            update): handed in twice, it still makes one run.
    """

    thread_id: str
    text: str
    source_key: str | None = None


@dataclass(frozen=True)
class ChannelStatus:
    """A channel's health for ``channels_status``, the window and ``doctor``."""

    enabled: bool
    state: ChannelState
    state_reason: str
    extra: Mapping[str, Any] = field(default_factory=dict)
    """More of the channel's entry in ``channels_status`` (the web app's ``url``)."""

    def to_json(self) -> dict[str, Any]:
        return {"enabled": self.enabled, "state": self.state, "state_reason": self.state_reason, **self.extra}


class Channel(Protocol):
    """One channel, as the hub drives it. The notification methods are called from the event bus and must
    return at once (schedule work, never block); ``deliver`` may take its time.

    ``name`` is the channel source of its threads (``desktop``, ``webapp``, ``telegram``).
    """

    name: str

    async def start(self) -> None:
        """Begin taking messages (after the unfinished runs have resumed). A channel that cannot come up (bad
        token, port in use) does not raise: its status says why and it retries by itself."""

    async def stop(self) -> None:
        """Stop taking messages and let go of its sockets (before the ledger closes)."""

    async def reconfigure(self) -> None:
        """config.toml changed: restart if this channel's own settings did (enable, disable, new port)."""

    def status(self) -> ChannelStatus: ...

    def run_started(self, run: Run) -> None:
        """A run of one of its threads started working (show "typing…")."""

    def progress(self, run_id: str, thread_id: str, node: str) -> None:
        """A run of one of its threads finished node ``node`` (the desktop shows it under the answer)."""

    def text_streamed(self, run_id: str, thread_id: str, delta: str) -> None:
        """More of the answer of a run of one of its threads."""

    async def deliver(self, run: Run) -> None:
        """The run has finished: show its answer (or, for a failed run, its one-sentence error) as the final
        message. Return once delivered (or once it never can be, said in the log); raise to have the hub try
        again later (the network is down): an answer is delivered at least once, even across a restart."""

    def card_changed(self, escalation: Escalation) -> None:
        """A card this channel shows was raised or resolved (``escalation.status``)."""


class Approvals(Protocol):
    """The approval gate as channels see it (``subconscious.approvals.ApprovalGate``): the cards, Go ahead (or
    Retry) / Skip (each at most once) and Fix in Skills' answer."""

    async def escalations_list(self, status: object = None) -> list[Escalation]: ...

    async def escalations_approve(self, escalation_id: object) -> str:
        """Raises: NotFound: no such card. Conflict: it is not pending any more (nothing is done)."""
        ...

    async def escalations_dismiss(self, escalation_id: object) -> str:
        """Raises: NotFound: no such card. Conflict: it is not pending any more."""
        ...

    async def skill_advice(self, escalation_id: object) -> str:
        """The state of the skill a card is about and where to fix it (Fix in Skills off the desktop).

        Raises: NotFound: no such card."""
        ...
