"""The person's world (issue 22): what watching a mailbox costs on a real dovecot, and which IMAP client to use.

Measured against Debian's dovecot started by this script (the test suite's own, tests/world/servers.py), with a
folder of 10,000 messages and the app's own mail skill (``EmailSkill``) connected to it directly (timings), and a
second one through a byte-counting TCP proxy so that the bytes an idle check reads are counted on the wire (the
proxy is threads of this process: it would slow the timed checks down):

- the first tick after a start (a new skill, so a new connection: TLS, LOGIN, STATUS) with 20 new messages;
- a later tick with 20 new (the connection kept: NOOP, STATUS, SEARCH of the new UIDs, FETCH of the 20);
- a tick with nothing new: its time, the bytes the server sent, the message bytes fetched (must be 0);
- the report's mail section built from a full watch log (500 items: what the file keeps at most);
- a feed that did not change: the body bytes of its conditional GET (must be 0);
- the event loop's stall (p99 of a 1 ms timer's lateness) while the 10,000-message folder is read again after
  a UIDVALIDITY change (the heaviest read the watch makes: INTERNALDATE of every message of the last day);
- the same heavy read with ``aioimaplib`` on the event loop (when installed: ``pip install -e '.[bench]'``) and
  with ``imapclient`` on a worker thread as the skill does it: the loop's stall and the wall time of each.

    python bench/world_bench.py            # ~2 min (filling the folder takes most of it)
    python bench/world_bench.py --quick    # 2,000 messages, fewer rounds: the smoke test

A missed budget is printed (``BUDGET MISSED``), never an error.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import re
import socket
import ssl
import sys
import tempfile
import threading
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bench.common import budget, figure, load_note, machine, ms_since, note, percentile  # noqa: E402
from openhuman_desktop.config_skills import EmailSettings, FeedsSettings  # noqa: E402
from openhuman_desktop.skills.world import imap  # noqa: E402
from openhuman_desktop.skills.world._watch import WatchItem  # noqa: E402
from openhuman_desktop.skills.world.email import EmailSkill  # noqa: E402
from openhuman_desktop.skills.world.feeds import FeedsSkill  # noqa: E402
from openhuman_desktop.skills.world.manager import section_text  # noqa: E402
from tests.world.servers import PASSWORD, USER, Dovecot, WebServer, rss  # noqa: E402

ENV = "BENCH_MAIL_PW"
FOLDER = "Big"
NEW = 20
APPEND_BATCH = 500


class CountingProxy:
    """A TCP proxy on 127.0.0.1 in front of one port, counting the bytes the server sends back."""

    def __init__(self, port: int) -> None:
        self._upstream = port
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port = int(self._listener.getsockname()[1])
        self.from_server = 0
        self._lock = threading.Lock()
        self._closing = False
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while not self._closing:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            server = socket.create_connection(("127.0.0.1", self._upstream))
            threading.Thread(target=self._pump, args=(client, server, False), daemon=True).start()
            threading.Thread(target=self._pump, args=(server, client, True), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket, counted: bool) -> None:
        try:
            while True:
                data = source.recv(65536)
                if not data:
                    break
                if counted:
                    with self._lock:
                        self.from_server += len(data)
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for end in (source, sink):
                with contextlib.suppress(OSError):
                    end.shutdown(socket.SHUT_RDWR)

    def close(self) -> None:
        self._closing = True
        self._listener.close()


def mail(number: int, when: datetime) -> bytes:
    body = (f"Message number {number}. " + "The quarterly figures are attached, please look at them. " * 12)
    return (f"From: Sender {number % 97} <s{number % 97}@example.org>\r\nTo: {USER}@example.org\r\n"
            f"Subject: Report {number}\r\nDate: {when.strftime('%a, %d %b %Y %H:%M:%S +0000')}\r\n"
            f"Message-ID: <bench-{number}-{time.time_ns()}@example.org>\r\n\r\n{body}\r\n").encode()


def fill(dovecot: Dovecot, count: int) -> None:
    """``count`` messages in FOLDER with IMAP MULTIAPPEND (what the tests' APPEND does, in batches)."""
    client = dovecot.client()
    try:
        if not client.folder_exists(FOLDER):
            client.create_folder(FOLDER)
        now = datetime.now(UTC)
        for start in range(0, count, APPEND_BATCH):
            batch = [{"msg": mail(n, now), "date": now} for n in range(start, min(count, start + APPEND_BATCH))]
            client.multiappend(FOLDER, batch)
    finally:
        client.logout()


def add_new(dovecot: Dovecot, count: int, serial: int) -> None:
    client = dovecot.client()
    try:
        client.multiappend(FOLDER, [mail(1_000_000 + serial * 100 + n, datetime.now(UTC)) for n in range(count)])
    finally:
        client.logout()


def new_skill(folder: Path, port: int, cert: Path) -> EmailSkill:
    skill = EmailSkill(folder, {ENV: PASSWORD})
    skill.configure(EmailSettings(enabled=True, imap_host="127.0.0.1", imap_port=port, username=USER,
                                  password_env=ENV, folders=(FOLDER,), security="tls", ca_file=str(cert)))
    return skill


async def lag_during(work: Callable[[], Awaitable[Any]]) -> tuple[list[float], float]:
    """The lateness (ms) of a 1 ms timer on this loop while ``work`` runs, and the work's wall time (ms)."""
    samples: list[float] = []
    done = asyncio.Event()

    async def ticker() -> None:
        while not done.is_set():
            started = time.perf_counter()
            await asyncio.sleep(0.001)
            samples.append(max(0.0, ms_since(started) - 1.0))

    probe = asyncio.create_task(ticker())
    started = time.perf_counter()
    try:
        await work()
    finally:
        wall = ms_since(started)
        done.set()
        await probe
    return samples, wall


# --- the heavy read, three ways ---------------------------------------------------------------------


def since_day() -> str:
    return (datetime.now(UTC) - timedelta(days=1)).strftime("%d-%b-%Y")


async def heavy_read_aioimaplib(dovecot: Dovecot) -> int:
    """STATUS, SELECT, UID SEARCH SINCE, UID FETCH INTERNALDATE of every match in chunks of 100 and the first
    4 KiB of the newest 20, on the event loop with aioimaplib; the answers parsed as a caller must (its lines
    are raw bytes). Returns how many dates were read."""
    import aioimaplib

    context = ssl.create_default_context(cafile=str(dovecot.cert))
    client = aioimaplib.IMAP4_SSL("127.0.0.1", dovecot.tls_port, ssl_context=context, timeout=60)
    await client.wait_hello_from_server()
    await client.login(USER, PASSWORD)
    try:
        await client.status(FOLDER, "(MESSAGES UIDNEXT UIDVALIDITY)")
        await client.select(FOLDER)  # its EXAMINE does not enter the selected state (aioimaplib 2.0)
        found = await client.uid_search(f"SINCE {since_day()}")
        uids = sorted(int(word) for line in found.lines[:-1] for word in line.split() if word.isdigit())
        dates = 0
        for start in range(0, len(uids), imap.FETCH_CHUNK):
            chunk = uids[start:start + imap.FETCH_CHUNK]
            answer = await client.uid("fetch", ",".join(map(str, chunk)), "(INTERNALDATE)")
            for line in answer.lines:
                text = line.decode("ascii", "replace") if isinstance(line, bytes | bytearray) else str(line)
                stamp = re.search(r'INTERNALDATE "([^"]+)"', text)
                if stamp:
                    datetime.strptime(stamp.group(1), "%d-%b-%Y %H:%M:%S %z")
                    dates += 1
        newest = ",".join(map(str, uids[-NEW:]))
        answer = await client.uid("fetch", newest, "(BODY.PEEK[]<0.4096>)")
        for line in answer.lines:
            if isinstance(line, bytes | bytearray) and line.startswith(b"From:"):
                imap.summary_of(FOLDER, 0, bytes(line))
        await client.close()
        return dates
    finally:
        await client.logout()


def heavy_read_imapclient(dovecot: Dovecot) -> int:
    """The same read with imapclient (meant for a worker thread)."""
    client = dovecot.client()
    try:
        client.folder_status(FOLDER, [b"MESSAGES", b"UIDNEXT", b"UIDVALIDITY"])
        client.select_folder(FOLDER, readonly=True)
        uids = sorted(client.search([b"SINCE", (datetime.now(UTC) - timedelta(days=1)).date()]))
        dates = 0
        for start in range(0, len(uids), imap.FETCH_CHUNK):
            chunk = uids[start:start + imap.FETCH_CHUNK]
            dates += sum(1 for data in client.fetch(chunk, [b"INTERNALDATE"]).values() if b"INTERNALDATE" in data)
        for data in client.fetch(uids[-NEW:], [b"BODY.PEEK[]<0.4096>"]).values():
            raw = next((value for key, value in data.items() if key.startswith(b"BODY[")), b"")
            imap.summary_of(FOLDER, 0, raw)
        client.close_folder()
        return dates
    finally:
        client.logout()


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="2,000 messages and few rounds (smoke test)")
    parser.add_argument("--messages", type=int, default=10_000)
    options = parser.parse_args()
    size = 2_000 if options.quick else options.messages
    rounds = 2 if options.quick else 8
    note(machine())
    load_note()

    dovecot = Dovecot.start()
    proxy = CountingProxy(dovecot.tls_port)
    try:
        started = time.perf_counter()
        fill(dovecot, size)
        note(f"{size:,} messages put in {FOLDER!r} with MULTIAPPEND in {ms_since(started) / 1000:.1f} s")
        with tempfile.TemporaryDirectory(prefix="oh-world-bench-") as tmp:
            state = Path(tmp) / "skills" / "email"
            skill = new_skill(state, dovecot.tls_port, dovecot.cert)
            started = time.perf_counter()
            await skill.poll(time.time())  # the baseline: the first look ever
            note(f"the first look ever (the baseline: one STATUS): {ms_since(started):.1f} ms, "
                 f"state {skill.state}")
            await skill.aclose()

            first: list[float] = []
            for serial in range(rounds):  # a new skill each time: what a tick right after a start does
                add_new(dovecot, NEW, serial)
                skill = new_skill(state, dovecot.tls_port, dovecot.cert)
                started = time.perf_counter()
                await skill.poll(time.time())
                first.append(ms_since(started))
                assert len(skill.new_items(None)) == NEW * (serial + 1), "every new message is an item"
                if serial < rounds - 1:
                    await skill.aclose()
            summary = figure(f"first tick after a start, {size:,} messages, {NEW} new (connect, TLS, login, "
                             "STATUS, SEARCH, FETCH)", first)
            budget("first tick after start with 20 new", summary.median, 1000, "ms")

            later: list[float] = []
            for serial in range(rounds, rounds * 3):
                add_new(dovecot, NEW, serial)
                started = time.perf_counter()
                await skill.poll(time.time())
                later.append(ms_since(started))
            summary = figure(f"a later tick, {NEW} new (connection kept)", later)
            budget("later tick with 20 new", summary.median, 200, "ms")

            idle: list[float] = []
            for _ in range(rounds * 2):
                started = time.perf_counter()
                await skill.poll(time.time())
                idle.append(ms_since(started))
            figure("a tick with nothing new (NOOP + STATUS)", idle)
            counted = new_skill(Path(tmp) / "counted", proxy.port, dovecot.cert)
            await counted.poll(time.time())  # its baseline
            wire: list[int] = []
            fetched: list[int] = []
            for _ in range(rounds * 2):
                before_wire, before_fetch = proxy.from_server, counted._imap().bytes_read
                await counted.poll(time.time())
                wire.append(proxy.from_server - before_wire)
                fetched.append(counted._imap().bytes_read - before_fetch)
            await counted.aclose()
            note(f"bytes the server sent per idle check: {min(wire)}–{max(wire)} (NOOP and STATUS answers, "
                 f"TLS records); message bytes fetched: {max(fetched)}")
            budget("message bytes fetched on a tick with nothing new", float(max(fetched)), 0, "bytes")

            # The report's section from a full log: MAX_ITEMS lines in the file, the newest shown, the rest noted.
            for n in range(600):
                skill.log.add([WatchItem(f"{FOLDER}\x001\x00{10_000_000 + n}", time.time(), time.time() - n,
                                         f"email: Sender <s@example.org>, Subject {n}, 2026-12-02 10:00, "
                                         + "first words of the message " * 5)])
            builds: list[float] = []
            for _ in range(200):
                started = time.perf_counter()
                section_text(skill, skill.new_items(None))
                skill.log.signature()
                builds.append(ms_since(started))
            summary = figure(f"report section build ({len(skill.log.items)} items in the log)", builds)
            budget("report section build", summary.p95, 20, "ms")

            # The heaviest read the watch makes: the folder rebuilt on the server, every date of the day read.
            point = skill.log.source(FOLDER)
            point["validity"] = int(point["validity"]) - 1
            point["checked"] = time.time()
            samples, wall = await lag_during(lambda: skill.poll(time.time()))
            stall = percentile(samples, 0.99)
            note(f"the skill re-reading {size:,} messages after a UIDVALIDITY change (imapclient on its thread): "
                 f"wall {wall:.0f} ms, loop stall p99 {stall:.2f} ms, max {max(samples):.2f} ms "
                 f"(n={len(samples)})")
            budget("event-loop stall while a large mailbox syncs (p99)", stall, 16, "ms")
            await skill.aclose()

        await compare_clients(dovecot, rounds)
        await feeds_idle()
    finally:
        proxy.close()
        dovecot.stop()


async def compare_clients(dovecot: Dovecot, rounds: int) -> None:
    """The same heavy read with aioimaplib on the loop and imapclient on a thread, interleaved."""
    try:
        import aioimaplib  # noqa: F401
    except ImportError:
        note("aioimaplib is not installed (pip install -e '.[bench]'): the comparison of clients is skipped")
        return
    results: dict[str, tuple[list[float], list[float], list[float]]] = {
        "aioimaplib on the loop": ([], [], []), "imapclient on a thread": ([], [], [])}
    for _ in range(max(2, rounds // 2)):
        for name, work in (("aioimaplib on the loop", lambda: heavy_read_aioimaplib(dovecot)),
                           ("imapclient on a thread", lambda: asyncio.to_thread(heavy_read_imapclient, dovecot))):
            samples, wall = await lag_during(work)
            p99s, maxes, walls = results[name]
            p99s.append(percentile(samples, 0.99))
            maxes.append(max(samples))
            walls.append(wall)
    for name, (p99s, maxes, walls) in results.items():
        note(f"{name}: loop stall p99 median {sorted(p99s)[len(p99s) // 2]:.2f} ms (worst run "
             f"{max(p99s):.2f}), max stall {max(maxes):.1f} ms, wall median {sorted(walls)[len(walls) // 2]:.0f} ms")


async def feeds_idle() -> None:
    """A feed that did not change: its conditional GET comes back 304 with no body."""
    server = await WebServer().start()
    try:
        server.state.put("/feed.xml", rss([(f"id{n}", f"Item {n}", "Tue, 01 Dec 2026 10:00:00 GMT")
                                           for n in range(50)]), "application/rss+xml")
        skill = FeedsSkill(None)
        skill.configure(FeedsSettings(enabled=True, urls=(server.url + "/feed.xml",)))
        await skill.poll(time.time())
        before = server.state.bytes_sent
        started = time.perf_counter()
        await skill.poll(time.time())
        took = ms_since(started)
        note(f"a feed that did not change: {took:.1f} ms, body bytes {server.state.bytes_sent - before}")
        budget("feed body bytes on a tick with nothing new", float(server.state.bytes_sent - before), 0, "bytes")
        await skill.aclose()
    finally:
        await server.stop()


if __name__ == "__main__":
    if os.environ.get("PYTHONASYNCIODEBUG"):
        note("asyncio debug mode is on: figures are slower than the app's")
    asyncio.run(main())
