"""``openhuman.channels_status`` (CONTRACT §9)."""

from __future__ import annotations

from openhuman_desktop.channels import ChannelHub
from openhuman_desktop.rpc.methods import Json, Method
from openhuman_desktop.rpc.protocol import METHOD_PREFIX


def channel_methods(hub: ChannelHub) -> dict[str, Method]:
    """The ``openhuman.channels_*`` methods."""

    async def status(p: dict[str, Json]) -> Json:
        return hub.status()

    return {METHOD_PREFIX + "channels_status": Method((), status)}
