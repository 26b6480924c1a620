"""The names of the channels, in one place: where runs come from and where their answers go (CONTRACT §8, §9).

A thread id starts with one of :data:`SOURCES` (``telegram:<chat_id>``); the hub drives the channels of
:data:`HUB_CHANNELS`; config.toml has a ``[channels.NAME]`` table for each of :data:`CONFIGURED`. A new channel
adds its name here (and to ``ChannelName``).
"""

from __future__ import annotations

from typing import Final, Literal

ChannelName = Literal["desktop", "cli", "webapp", "telegram", "subconscious"]
DESKTOP: Final = "desktop"
CLI: Final = "cli"
WEBAPP: Final = "webapp"
TELEGRAM: Final = "telegram"
SUBCONSCIOUS: Final = "subconscious"

SOURCES: tuple[ChannelName, ...] = (DESKTOP, CLI, WEBAPP, TELEGRAM, SUBCONSCIOUS)
"""Every channel source a run may have: the first part of its thread id."""
HUB_CHANNELS: tuple[ChannelName, ...] = (DESKTOP, WEBAPP, TELEGRAM)
"""The channels the hub drives (the command line and the heartbeat are no channels of the hub's)."""
CONFIGURED: tuple[ChannelName, ...] = (TELEGRAM, WEBAPP)
"""The channels with a ``[channels.NAME]`` table in config.toml."""
