"""One GUI per workspace: a second launch asks the running one (QLocalServer) to show its window."""

from __future__ import annotations

import hashlib
import logging
import os
import time
from pathlib import Path

from PySide6.QtCore import QObject, Signal
from PySide6.QtNetwork import QLocalServer, QLocalSocket

log = logging.getLogger(__name__)

ACTIVATE = b"activate"
MAX_MESSAGE = 64


def server_name(workspace: Path) -> str:
    """The local socket name for ``workspace``: per user and per workspace, short enough for any OS.

    Two workspaces get two names, so two instances on two workspaces run side by side.
    """
    digest = hashlib.sha256(str(workspace.expanduser().resolve()).encode()).hexdigest()[:20]
    user = os.getuid() if hasattr(os, "getuid") else os.environ.get("USERNAME", "user")
    return f"openhuman-{user}-{digest}"


class InstanceServer(QObject):
    """Listens on the workspace's socket; emits ``activated`` when a second launch says "activate".

    Call :meth:`listen` only while holding the workspace lock: whoever holds it is the only live
    instance, so a socket left by a crashed one is stale and is removed first.
    """

    activated = Signal()

    def __init__(self, name: str, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.name = name
        self._server = QLocalServer(self)
        self._server.setSocketOptions(QLocalServer.SocketOption.UserAccessOption)
        self._server.newConnection.connect(self._on_server_new_connection)
        self._buffers: dict[QLocalSocket, bytes] = {}

    @property
    def is_listening(self) -> bool:
        return self._server.isListening()

    def listen(self) -> bool:
        """Start listening (removing a stale socket first); False, with a log line, if that fails."""
        QLocalServer.removeServer(self.name)
        if self._server.listen(self.name):
            log.info("single-instance socket: %s", self._server.fullServerName())
            return True
        log.warning("cannot listen on %s: %s; a second launch will not find this window",
                    self.name, self._server.errorString())
        return False

    def close(self) -> None:
        """Stop listening and drop open connections (removes the socket file)."""
        for socket in list(self._buffers):
            self._drop(socket)
        self._buffers.clear()
        if self._server.isListening():
            self._server.close()

    def _drop(self, socket: QLocalSocket) -> None:
        # Cut our connections first: a socket must not call back into us while it is torn down.
        self._buffers.pop(socket, None)
        socket.readyRead.disconnect()
        socket.disconnected.disconnect()
        socket.abort()
        socket.deleteLater()

    def _on_server_new_connection(self) -> None:
        while self._server.hasPendingConnections():
            socket = self._server.nextPendingConnection()
            if socket is None:
                break
            self._buffers[socket] = b""
            socket.readyRead.connect(lambda s=socket: self._on_socket_ready_read(s))
            socket.disconnected.connect(lambda s=socket: self._on_socket_disconnected(s))
            if socket.bytesAvailable():
                self._on_socket_ready_read(socket)

    def _on_socket_ready_read(self, socket: QLocalSocket) -> None:
        if socket not in self._buffers:
            return
        data = self._buffers[socket] + bytes(socket.readAll().data())
        while b"\n" in data:
            line, data = data.split(b"\n", 1)
            self._on_message(line.strip())
        if len(data) > MAX_MESSAGE:
            log.warning("single-instance socket: message too long; connection dropped")
            self._drop(socket)
            return
        self._buffers[socket] = data

    def _on_socket_disconnected(self, socket: QLocalSocket) -> None:
        rest = self._buffers.get(socket, b"").strip()
        self._drop(socket)
        if rest:
            self._on_message(rest)

    def _on_message(self, message: bytes) -> None:
        if message == ACTIVATE:
            log.info("a second launch asked for the window")
            self.activated.emit()
        elif message:
            log.warning("single-instance socket: unknown message %r ignored", message[:MAX_MESSAGE])


def send_activate(name: str, timeout: float = 3.0) -> bool:
    """Ask the instance listening on ``name`` to show its window; True once the message is delivered.

    Retries until ``timeout`` seconds have passed: the first instance may hold the workspace lock
    while it is still starting and not yet listening. Blocking is fine here: this runs before the
    event loop, in a process that exits right after.
    """
    deadline = time.monotonic() + timeout
    while True:
        socket = QLocalSocket()
        socket.connectToServer(name)
        if socket.waitForConnected(500):
            socket.write(ACTIVATE + b"\n")
            delivered = socket.waitForBytesWritten(1000)
            socket.disconnectFromServer()
            if socket.state() != QLocalSocket.LocalSocketState.UnconnectedState:
                socket.waitForDisconnected(500)
            if delivered:
                return True
        if time.monotonic() >= deadline:
            log.info("no running window answered on %s: %s", name, socket.errorString())
            return False
        time.sleep(0.1)  # not on an event loop: this process has not started one
