"""One GUI per workspace: the local socket, a second launch, stale sockets, two workspaces side by side."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtNetwork import QLocalServer, QLocalSocket
from pytestqt.qtbot import QtBot

from openhuman_desktop import config
from openhuman_desktop.instance import InstanceLock
from openhuman_desktop.paths import Paths
from openhuman_desktop.qt import app
from openhuman_desktop.qt.single_instance import InstanceServer, send_activate, server_name


@pytest.fixture
def server(qapp: Any, tmp_path: Path) -> Iterator[InstanceServer]:
    instance = InstanceServer(server_name(tmp_path / "workspace"))
    assert instance.listen()
    yield instance
    instance.close()
    instance.deleteLater()


def full_path(name: str) -> str:
    probe = QLocalServer()
    probe.listen(name)
    path = probe.fullServerName()
    probe.close()
    return path


def test_the_name_depends_on_the_workspace(tmp_path: Path) -> None:
    one, two = tmp_path / "one", tmp_path / "two"
    assert server_name(one) == server_name(tmp_path / "x" / ".." / "one")
    assert server_name(one) != server_name(two)
    assert len(server_name(tmp_path / ("deep" * 40))) < 60  # fits any socket path limit


def test_second_launch_activates_the_first(qtbot: QtBot, server: InstanceServer) -> None:
    with qtbot.wait_signal(server.activated, timeout=5000):
        assert send_activate(server.name, timeout=2)


def test_nothing_listening_means_no_activation(qapp: Any, tmp_path: Path) -> None:
    assert not send_activate(server_name(tmp_path / "nobody"), timeout=0.3)


def test_a_stale_socket_is_replaced(qtbot: QtBot, tmp_path: Path) -> None:
    name = server_name(tmp_path / "crashed")
    path = full_path(name)
    stale = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    stale.bind(path)  # a crashed instance leaves its socket file behind
    stale.close()
    assert Path(path).exists()
    instance = InstanceServer(name)
    try:
        assert instance.listen()
        with qtbot.wait_signal(instance.activated, timeout=5000):
            assert send_activate(name, timeout=2)
    finally:
        instance.close()


def test_two_workspaces_run_side_by_side(qtbot: QtBot, tmp_path: Path) -> None:
    first, second = InstanceServer(server_name(tmp_path / "a")), InstanceServer(server_name(tmp_path / "b"))
    try:
        assert first.listen() and second.listen()
        woken: list[str] = []
        first.activated.connect(lambda: woken.append("first"))
        with qtbot.wait_signal(second.activated, timeout=5000):
            assert send_activate(second.name, timeout=2)
        qtbot.wait(100)
        assert woken == []
    finally:
        first.close()
        second.close()


def test_unknown_messages_are_ignored(qtbot: QtBot, server: InstanceServer, caplog: pytest.LogCaptureFixture) -> None:
    client = QLocalSocket()
    client.connectToServer(server.name)
    assert client.waitForConnected(2000)
    woken: list[bool] = []
    server.activated.connect(lambda: woken.append(True))
    client.write(b"format c:\n")
    client.waitForBytesWritten(1000)
    qtbot.wait_until(lambda: any("unknown message" in r.getMessage() for r in caplog.records), timeout=5000)
    client.disconnectFromServer()
    assert woken == []


def test_message_split_across_writes_still_counts(qtbot: QtBot, server: InstanceServer) -> None:
    client = QLocalSocket()
    client.connectToServer(server.name)
    assert client.waitForConnected(2000)
    with qtbot.wait_signal(server.activated, timeout=5000):
        client.write(b"acti")
        client.waitForBytesWritten(1000)
        qtbot.wait(50)
        client.write(b"vate")
        client.waitForBytesWritten(1000)
        client.disconnectFromServer()  # no newline: the end of the connection ends the message


def test_a_second_run_hands_over_and_exits_0(qtbot: QtBot, tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    paths = Paths(tmp_path / "workspace")
    paths.ensure()
    lock = InstanceLock(paths.workspace, paths.instance_lock)
    lock.acquire()  # "the first instance"
    first = InstanceServer(server_name(paths.workspace))
    try:
        assert first.listen()
        with qtbot.wait_signal(first.activated, timeout=5000):
            assert app.run(paths, config.load(paths.config_file)) == 0
        assert "already running" in capsys.readouterr().err
    finally:
        first.close()
        lock.release()


def test_a_second_run_next_to_a_headless_instance_explains_and_exits_1(
        qapp: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    paths = Paths(tmp_path / "workspace")
    paths.ensure()
    lock = InstanceLock(paths.workspace, paths.instance_lock)
    lock.acquire()  # held, but nobody listens: a --headless instance has no window
    monkeypatch.setattr(app, "send_activate", lambda name: send_activate(name, timeout=0.2))
    try:
        assert app.run(paths, config.load(paths.config_file)) == 1
        assert "already running on the workspace" in capsys.readouterr().err
    finally:
        lock.release()
