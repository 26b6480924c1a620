"""A private session bus (a real ``dbus-daemon``) and a fake notification server on it, written with jeepney.

The fake owns ``org.freedesktop.Notifications``, answers ``GetCapabilities`` / ``GetServerInformation`` /
``Notify`` / ``CloseNotification`` as a real server does, records the calls, and emits ``ActionInvoked`` and
``NotificationClosed`` on request. It runs on a daemon thread with its own loop, so sync Qt tests and async tests
can use it alike.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import os
import shutil
import subprocess
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jeepney import DBusAddress, HeaderFields, Message, MessageType, new_error, new_method_return, new_signal
from jeepney.bus_messages import message_bus
from jeepney.io.asyncio import DBusConnection, open_dbus_connection

BUS_CONFIG = """<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:path={socket}</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
"""
NAME = "org.freedesktop.Notifications"
PATH = "/org/freedesktop/Notifications"
EMITTER = DBusAddress(PATH, interface=NAME)


class PrivateBus:
    """A ``dbus-daemon`` of our own (no service directories: nothing is ever activated on it)."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.socket = directory / "bus"
        self.address = f"unix:path={self.socket}"
        self._process: subprocess.Popen[str] | None = None

    def start(self) -> PrivateBus:
        daemon = shutil.which("dbus-daemon")
        if daemon is None:
            raise RuntimeError("dbus-daemon is not installed (Debian: apt-get install dbus-daemon)")
        conf = self.directory / "bus.conf"
        conf.write_text(BUS_CONFIG.format(socket=self.socket))
        self._process = subprocess.Popen([daemon, f"--config-file={conf}", "--nofork", "--print-address"],
                                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        assert self._process.stdout is not None
        printed = self._process.stdout.readline().strip()   # printed once it listens
        if not printed:
            raise RuntimeError("dbus-daemon did not start")
        return self

    def stop(self) -> None:
        process, self._process = self._process, None
        if process is not None:
            process.terminate()
            process.wait(5)
            if process.stdout is not None:
                process.stdout.close()


@dataclass
class Call:
    """One ``Notify`` as the server received it."""

    id: int
    app_name: str
    replaces_id: int
    icon: str
    summary: str
    body: str
    actions: list[str]
    hints: dict[str, Any]
    expire_ms: int

    @property
    def action_keys(self) -> list[str]:
        return self.actions[0::2]

    @property
    def action_labels(self) -> dict[str, str]:
        return dict(zip(self.actions[0::2], self.actions[1::2], strict=True))


@dataclass
class FakeNotificationServer:
    """The fake server; ``capabilities`` decide what it says it supports (``"actions"`` or not)."""

    address: str
    capabilities: list[str] = field(default_factory=lambda: ["actions", "body", "persistence"])
    calls: list[Call] = field(default_factory=list)
    closed: list[int] = field(default_factory=list)
    method_calls: list[str] = field(default_factory=list)
    refuse_notify: bool = False

    def __post_init__(self) -> None:
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._connection: DBusConnection | None = None
        self._next_id = 0
        self._ready = threading.Event()
        self._failure: BaseException | None = None

    # --- life cycle ---------------------------------------------------------------------------------

    def start(self) -> FakeNotificationServer:
        self._thread = threading.Thread(target=self._run, name="fake-notification-server", daemon=True)
        self._thread.start()
        if not self._ready.wait(10):
            raise RuntimeError("the fake notification server did not start")
        if self._failure is not None:
            raise RuntimeError("the fake notification server did not start") from self._failure
        return self

    def stop(self) -> None:
        loop = self._loop
        if loop is not None and self._thread is not None and self._thread.is_alive():
            with contextlib.suppress(RuntimeError):   # its loop ended meanwhile (the bus went away)
                loop.call_soon_threadsafe(self._stopped.set)
            self._thread.join(5)

    def _run(self) -> None:
        loop = asyncio.new_event_loop()
        self._loop = loop
        try:
            loop.run_until_complete(self._serve())
        except BaseException as exc:   # reported by start() when it happens before the name is owned
            self._failure = exc
            self._ready.set()
        finally:
            loop.close()

    async def _serve(self) -> None:
        self._connection = connection = await open_dbus_connection(self.address)
        await connection.send(message_bus.RequestName(NAME))
        self._stopped = asyncio.Event()
        receiving = asyncio.ensure_future(self._receive(connection))
        stopping = asyncio.ensure_future(self._stopped.wait())
        await asyncio.wait({receiving, stopping}, return_when=asyncio.FIRST_COMPLETED)
        for task in (receiving, stopping):
            task.cancel()
        with contextlib.suppress(Exception):
            await connection.close()

    async def _receive(self, connection: DBusConnection) -> None:
        while True:
            message = await connection.receive()
            fields = message.header.fields
            if message.header.message_type == MessageType.signal and fields.get(HeaderFields.member) == "NameAcquired":
                if message.body and message.body[0] == NAME:
                    self._ready.set()
                continue
            if message.header.message_type != MessageType.method_call:
                continue
            if fields.get(HeaderFields.interface) not in (NAME, None) or fields.get(HeaderFields.path) != PATH:
                continue
            await connection.send(self._answer(message))

    def _answer(self, message: Message) -> Message:
        member = message.header.fields.get(HeaderFields.member)
        with self._lock:
            self.method_calls.append(str(member))
        if member == "GetCapabilities":
            return new_method_return(message, "as", (list(self.capabilities),))
        if member == "GetServerInformation":
            return new_method_return(message, "ssss", ("fake-notifications", "tests", "1.0", "1.2"))
        if member == "Notify":
            if self.refuse_notify:
                return new_error(message, "org.freedesktop.DBus.Error.Failed", "s", ("refused by the test",))
            app, replaces, icon, summary, body, actions, hints, expire = message.body
            with self._lock:
                if replaces:
                    notification_id = replaces
                else:
                    self._next_id += 1
                    notification_id = self._next_id
                self.calls.append(Call(notification_id, app, replaces, icon, summary, body, list(actions),
                                       dict(hints), expire))
            return new_method_return(message, "u", (notification_id,))
        if member == "CloseNotification":
            (notification_id,) = message.body
            with self._lock:
                self.closed.append(notification_id)
            self._emit_soon("NotificationClosed", (notification_id, 3))
            return new_method_return(message)
        return new_error(message, "org.freedesktop.DBus.Error.UnknownMethod", "s", (f"no method {member}",))

    def _emit_soon(self, member: str, body: tuple[Any, ...]) -> None:
        asyncio.get_running_loop().call_soon(lambda: asyncio.ensure_future(self._emit(member, body)))

    async def _emit(self, member: str, body: tuple[Any, ...]) -> None:
        assert self._connection is not None
        await self._connection.send(new_signal(EMITTER, member, "uu" if member == "NotificationClosed" else "us",
                                               body))

    # --- what tests do ------------------------------------------------------------------------------

    def invoke(self, notification_id: int, action_key: str) -> None:
        """The user clicks ``action_key`` (a button, or ``"default"``); the notification then closes (2)."""
        self._run_on_loop(self._emit("ActionInvoked", (notification_id, action_key)))
        self._run_on_loop(self._emit("NotificationClosed", (notification_id, 2)))

    def dismiss(self, notification_id: int) -> None:
        """The user closes the notification without choosing anything."""
        self._run_on_loop(self._emit("NotificationClosed", (notification_id, 2)))

    def _run_on_loop(self, coro: Any) -> None:
        assert self._loop is not None
        future: concurrent.futures.Future[None] = asyncio.run_coroutine_threadsafe(coro, self._loop)
        future.result(5)

    def snapshot(self) -> list[Call]:
        with self._lock:
            return list(self.calls)


def environment_without_session_bus() -> dict[str, str]:
    """``os.environ`` minus the session bus address (so nothing reaches the user's real desktop)."""
    return {k: v for k, v in os.environ.items() if k != "DBUS_SESSION_BUS_ADDRESS"}
