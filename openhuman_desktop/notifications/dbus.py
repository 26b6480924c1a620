"""The freedesktop Notifications client over the session D-Bus (jeepney, asyncio).

Qt's QtDBus sends Python ints as signed 32-bit values, so its ``Notify`` call is refused; jeepney sends the
spec's types (``susssasa{sv}i``). See https://specifications.freedesktop.org/notification-spec/latest/.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from jeepney import DBusAddress, HeaderFields, MatchRule, Message, MessageType, new_method_call
from jeepney.bus_messages import message_bus
from jeepney.io.asyncio import DBusConnection, DBusRouter, open_dbus_connection
from jeepney.io.common import RouterClosed
from jeepney.wrappers import DBusErrorResponse, unwrap_msg

from openhuman_desktop.errors import AppError

log = logging.getLogger(__name__)

BUS_NAME = "org.freedesktop.Notifications"
OBJECT_PATH = "/org/freedesktop/Notifications"
INTERFACE = "org.freedesktop.Notifications"
NOTIFY_SIGNATURE = "susssasa{sv}i"
CALL_TIMEOUT = 3.0          # seconds: a notification server that does not answer by then is treated as gone
URGENCY = {"low": 0, "normal": 1, "critical": 2}
SIGNALS = ("ActionInvoked", "NotificationClosed")
BUS_DRIVER = "org.freedesktop.DBus"


class NotificationsUnavailable(AppError):
    """No notification server could be reached on the session bus (the caller falls back to the tray)."""


@dataclass(frozen=True)
class ActionInvoked:
    """The user chose an action (a button, or ``"default"``: a click on the notification itself)."""

    notification_id: int
    action_key: str


@dataclass(frozen=True)
class NotificationClosed:
    """A notification went away; ``reason``: 1 expired, 2 dismissed by the user, 3 closed by a call, 4 other."""

    notification_id: int
    reason: int


Signal = ActionInvoked | NotificationClosed
SignalHandler = Callable[[Signal], None]


def _address() -> DBusAddress:
    return DBusAddress(OBJECT_PATH, bus_name=BUS_NAME, interface=INTERFACE)


def _unavailable(what: str, exc: BaseException) -> NotificationsUnavailable:
    return NotificationsUnavailable(f"The desktop notification server {what} ({type(exc).__name__}: {exc}).")


class DesktopNotifications:
    """One connection to the session bus and its ``org.freedesktop.Notifications`` server.

    Open it with :meth:`connect`; ``on_signal`` receives :class:`ActionInvoked` and :class:`NotificationClosed`
    for the notifications this connection sent (the server emits them to everyone; others' are ignored). Only
    signals sent by the current owner of ``org.freedesktop.Notifications`` count: any program on the bus can emit
    a look-alike ``ActionInvoked``, and a restarted server counts its ids from 1 again (ours are then forgotten).
    """

    def __init__(self, connection: DBusConnection, router: DBusRouter, on_signal: SignalHandler | None,
                 owner: str | None = None) -> None:
        self._connection = connection
        self._router = router
        self._on_signal = on_signal
        self._owner = owner
        self._sent: set[int] = set()
        self._queue: asyncio.Queue[Message] = asyncio.Queue(maxsize=256)
        rule = MatchRule(type="signal", interface=INTERFACE, path=OBJECT_PATH)
        self._filter = router.filter(rule, queue=self._queue)
        self._owner_filter = router.filter(_owner_changed_rule(), queue=self._queue)   # same queue: in bus order
        self._listener = asyncio.get_running_loop().create_task(self._listen(), name="dbus-notification-signals")
        self._is_closed = False
        self._is_broken = False

    @classmethod
    async def connect(cls, bus: str = "SESSION", *, on_signal: SignalHandler | None = None,
                      timeout: float = CALL_TIMEOUT) -> DesktopNotifications:
        """Connect to ``bus`` (``"SESSION"``, or a D-Bus address such as ``unix:path=/run/user/1000/bus``).

        Raises:
            NotificationsUnavailable: there is no session bus, or nobody owns the notifications name on it.
        """
        try:
            connection = await asyncio.wait_for(open_dbus_connection(bus), timeout)
        except (OSError, KeyError, RuntimeError, ValueError, EOFError, TimeoutError) as exc:
            raise _unavailable("cannot be reached: no session bus", exc) from exc
        router = DBusRouter(connection)
        try:
            match = MatchRule(type="signal", interface=INTERFACE, path=OBJECT_PATH)
            await asyncio.wait_for(router.send_and_get_reply(message_bus.AddMatch(match)), timeout)
            await asyncio.wait_for(router.send_and_get_reply(message_bus.AddMatch(_owner_changed_rule())), timeout)
            reply = await asyncio.wait_for(router.send_and_get_reply(message_bus.NameHasOwner(BUS_NAME)), timeout)
            (has_owner,) = unwrap_msg(reply)
            owner: str | None = None
            if has_owner:
                reply = await asyncio.wait_for(router.send_and_get_reply(message_bus.GetNameOwner(BUS_NAME)),
                                               timeout)
                (owner,) = unwrap_msg(reply)
        except (OSError, EOFError, TimeoutError, DBusErrorResponse) as exc:
            await _close(connection, router)
            raise _unavailable("did not answer", exc) from exc
        if not has_owner:
            # A bus may still start the server on demand (D-Bus activation): the first call then does.
            log.debug("no owner of %s yet; the first call may activate it", BUS_NAME)
        return cls(connection, router, on_signal, owner)

    async def _call(self, method: str, signature: str | None = None, body: tuple[Any, ...] = ()) -> tuple[Any, ...]:
        if self._is_closed:
            raise NotificationsUnavailable("The desktop notification connection is closed.")
        message = new_method_call(_address(), method, signature, body)
        try:
            reply = await asyncio.wait_for(self._router.send_and_get_reply(message), CALL_TIMEOUT)
            result: tuple[Any, ...] = unwrap_msg(reply)
            if self._owner is None:   # activated by this call: its answer names the server
                self._owner = reply.header.fields.get(HeaderFields.sender)
        except DBusErrorResponse as exc:
            raise NotificationsUnavailable(
                f"The desktop notification server refused {method} ({exc.name}: {' '.join(map(str, exc.data))})."
            ) from exc
        except (OSError, EOFError, TimeoutError, RouterClosed) as exc:
            self._is_broken = True
            raise _unavailable("stopped answering", exc) from exc
        return result

    async def capabilities(self) -> frozenset[str]:
        """What the server supports (``"actions"``, ``"body"``, ``"body-markup"``, ``"persistence"`` …)."""
        (caps,) = await self._call("GetCapabilities")
        return frozenset(str(cap) for cap in caps)

    async def server_information(self) -> tuple[str, str, str, str]:
        """``(name, vendor, version, spec_version)`` of the server, e.g. ``("dunst", "knopwob", "1.9", "1.2")``."""
        name, vendor, version, spec = await self._call("GetServerInformation")
        return str(name), str(vendor), str(version), str(spec)

    async def notify(
        self,
        summary: str,
        body: str = "",
        *,
        app_name: str = "OpenHuman",
        actions: Sequence[tuple[str, str]] = (),
        replaces_id: int = 0,
        icon: str = "",
        urgency: str = "normal",
        expire_ms: int = -1,
        hints: Mapping[str, tuple[str, Any]] | None = None,
    ) -> int:
        """Show a notification; returns its id (for :meth:`close` and the signals).

        Args:
            actions: ``(key, label)`` pairs; the key ``"default"`` is what a click on the notification does.
            urgency: ``"low"``, ``"normal"`` or ``"critical"``.
            expire_ms: -1 lets the server decide, 0 never expires.
            hints: extra ``{name: (dbus_signature, value)}`` hints, e.g. ``{"desktop-entry": ("s", "app")}``.

        Raises:
            NotificationsUnavailable: the server is gone, or refused the call.
        """
        flat: list[str] = []
        for key, label in actions:
            flat.extend((key, label))
        all_hints: dict[str, tuple[str, Any]] = {"urgency": ("y", URGENCY.get(urgency, 1))}
        all_hints.update(hints or {})
        (notification_id,) = await self._call(
            "Notify", NOTIFY_SIGNATURE,
            (app_name, replaces_id & 0xFFFFFFFF, icon, summary, body, flat, all_hints, expire_ms),
        )
        self._sent.add(int(notification_id))
        return int(notification_id)

    async def close(self, notification_id: int) -> None:
        """Take a notification off the screen (it emits ``NotificationClosed`` with reason 3)."""
        await self._call("CloseNotification", "u", (notification_id & 0xFFFFFFFF,))

    async def _listen(self) -> None:
        while True:
            message = await self._queue.get()
            member = message.header.fields.get(HeaderFields.member)
            if message.header.message_type != MessageType.signal:
                continue
            if member == "NameOwnerChanged":
                self._server_changed(message)
                continue
            if member not in SIGNALS:
                continue
            if self._owner is None or message.header.fields.get(HeaderFields.sender) != self._owner:
                log.warning("%s signal not from the notification server (%s) ignored", member,
                            message.header.fields.get(HeaderFields.sender))
                continue
            try:
                notification_id, value = int(message.body[0]), message.body[1]
            except (IndexError, TypeError, ValueError):
                log.warning("malformed %s signal from the notification server: %r", member, message.body)
                continue
            if notification_id not in self._sent:
                continue   # another application's notification
            signal: Signal = (ActionInvoked(notification_id, str(value)) if member == "ActionInvoked"
                              else NotificationClosed(notification_id, int(value)))
            if isinstance(signal, NotificationClosed):
                self._sent.discard(notification_id)
            if self._on_signal is not None:
                try:
                    self._on_signal(signal)
                except Exception:
                    log.exception("handling %s failed", signal)

    def _server_changed(self, message: Message) -> None:
        if message.header.fields.get(HeaderFields.sender) != BUS_DRIVER:
            return
        try:
            name, _old, new = (str(part) for part in message.body)
        except (TypeError, ValueError):
            return
        if name != BUS_NAME:
            return
        previous, self._owner = self._owner, new or None
        if previous is not None and previous != self._owner:
            log.info("the notification server %s", f"is now {new}" if new else "went away")
            self._sent.clear()   # a new server's ids are not the ones we were given

    @property
    def is_connected(self) -> bool:
        """False once closed, or once a call found the bus connection gone."""
        return not (self._is_closed or self._is_broken or self._listener.done())

    async def aclose(self) -> None:
        """Stop listening and close the bus connection; safe to call twice."""
        if self._is_closed:
            return
        self._is_closed = True
        self._filter.close()
        self._owner_filter.close()
        self._listener.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._listener
        await _close(self._connection, self._router)


def _owner_changed_rule() -> MatchRule:
    rule = MatchRule(type="signal", sender=BUS_DRIVER, interface=BUS_DRIVER, member="NameOwnerChanged",
                     path="/org/freedesktop/DBus")
    rule.add_arg_condition(0, BUS_NAME)
    return rule


async def _close(connection: DBusConnection, router: DBusRouter) -> None:
    with contextlib.suppress(Exception):
        await router.__aexit__(None, None, None)
    with contextlib.suppress(OSError, RuntimeError):
        await connection.close()
