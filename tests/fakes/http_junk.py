"""Malformed HTTP, as anyone who can reach a port on 127.0.0.1 may send it, and a raw client to send it with."""

from __future__ import annotations

import asyncio
import contextlib
import random

PATIENCE = 10.0


def junk_requests(host: str, count: int, seed: int = 5_138) -> list[bytes]:
    """``count`` requests that are not valid HTTP/1.1 (bad request lines, headers, lengths, chunking, pipelined
    garbage after a good request, binary noise), the same for the same seed."""
    good = f"GET / HTTP/1.1\r\nHost: {host}\r\n\r\n".encode()
    fixed = [
        b"GET / HTTP/1.1\r\nHost: " + host.encode() + b"\r\nBad Header Line\r\n\r\n",
        b"GET / HTTP/9.9\r\nHost: " + host.encode() + b"\r\n\r\n",
        b"GET /" + b"a" * 20_000 + b" HTTP/1.1\r\nHost: " + host.encode() + b"\r\n\r\n",
        b"GET / HTTP/1.1\r\nHost: " + host.encode() + b"\r\nX: " + b"b" * 20_000 + b"\r\n\r\n",
        b"POST / HTTP/1.1\r\nHost: " + host.encode() + b"\r\nContent-Length: -1\r\n\r\n",
        b"POST / HTTP/1.1\r\nHost: " + host.encode() + b"\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello",
        b"POST / HTTP/1.1\r\nHost: " + host.encode() + b"\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n",
        b"POST / HTTP/1.1\r\nHost: " + host.encode() + b"\r\nTransfer-Encoding: chunked, gzip\r\n\r\n0\r\n\r\n",
        b"POST / HTTP/1.1\r\nHost: " + host.encode()
        + b"\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
        b"GET / HTTP/1.1\r\nHost: " + host.encode() + b"\r\nX-Nul: a\x00b\r\n\r\n",
        b"GET /\x7f\x01 HTTP/1.1\r\nHost: " + host.encode() + b"\r\n\r\n",
        b"GET / HTTP/1.1\r\n Host: folded\r\n\r\n",
        good + b"NOT-A-METHOD / HTTP/1.1\r\n\r\n",
        good + b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\r\n\r\n",
        good + b"GET / HTTP/1.1\r\nHost: " + host.encode() + b"\r\nBroken\r\n\r\n",
    ]
    rng = random.Random(seed)
    cases: list[bytes] = []
    while len(cases) < count:
        base = rng.choice(fixed)
        roll = rng.random()
        if roll < 0.5:
            cases.append(base)
        elif roll < 0.8:  # the pipelined kinds with noise after a good request
            noise = bytes(rng.randrange(1, 256) for _ in range(rng.randrange(4, 64)))
            cases.append(good + noise + b"\r\n\r\n")
        else:  # a good request with one byte of its head turned into a control character
            head = bytearray(good)
            head[rng.randrange(0, len(head) - 4)] = rng.choice(b"\x00\x01\x7f\x0b")
            cases.append(bytes(head))
    return cases


async def send_raw(port: int, data: bytes, *, patience: float = PATIENCE) -> bytes:
    """Send ``data`` on a new connection to 127.0.0.1:``port``; everything the server answered until it closed
    the connection (or ``patience`` seconds passed)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    answer = b""
    try:
        writer.write(data)
        with contextlib.suppress(OSError):
            await writer.drain()
        with contextlib.suppress(TimeoutError, OSError):
            async with asyncio.timeout(patience):
                while chunk := await reader.read(65_536):
                    answer += chunk
    finally:
        writer.close()
        with contextlib.suppress(OSError):
            await writer.wait_closed()
    return answer
