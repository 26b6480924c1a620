"""Channels: where messages for the agent come from and where its answers go (Telegram, the web app, the
desktop Chat tab), all through one hub (CONTRACT §9)."""

from openhuman_desktop.channels.base import Channel, ChannelStatus, InboundMessage
from openhuman_desktop.channels.hub import ChannelHub

__all__ = ["Channel", "ChannelHub", "ChannelStatus", "InboundMessage"]
