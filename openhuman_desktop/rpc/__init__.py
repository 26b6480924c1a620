"""The local JSON-RPC API (CONTRACT §4): framing, methods, server and the command-line client.

The face exports the framing (``Dispatcher``, ``RpcError``), the method table and the server; the table and the
server are imported on first use, so the command-line client (``rpc.client``) stays light.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from openhuman_desktop.rpc.protocol import Dispatcher, RpcError

if TYPE_CHECKING:
    from openhuman_desktop.rpc.methods import Method, MethodTable, Param
    from openhuman_desktop.rpc.server import RpcServer

__all__ = ["Dispatcher", "Method", "MethodTable", "Param", "RpcError", "RpcServer"]


def __getattr__(name: str) -> Any:
    """The method table and the server, imported when first asked for."""
    if name in ("Method", "MethodTable", "Param"):
        from openhuman_desktop.rpc import methods

        return getattr(methods, name)
    if name == "RpcServer":
        from openhuman_desktop.rpc.server import RpcServer

        return RpcServer
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
