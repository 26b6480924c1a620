"""Thousands of malformed requests against one real RPC server: every answer is a clean JSON-RPC answer."""

from __future__ import annotations

import asyncio
import json
import logging
import random
import string
import uuid
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from openhuman_desktop import bootstrap, config
from openhuman_desktop.bootstrap import Services
from openhuman_desktop.paths import Paths
from openhuman_desktop.rpc.memory_methods import memory_methods
from openhuman_desktop.rpc.methods import Method, subconscious_methods
from tests.fakes.app_process import QUIET_CONFIG, UNREACHABLE_OLLAMA, write_config

SEED = 20_240_601
TRIGGER = "openhuman.subconscious_trigger"
MIB = 1024 * 1024
CONTRACT_CODES = {-32700, -32600, -32601, -32602, -32001, -32002}
RESPONSE_KEYS = {"jsonrpc", "id", "result", "error"}
LEAKS = ("Traceback", 'File "', ".py\", line", "Internal error")
JUNK: list[Any] = [
    None, True, False, 0, -1, 1, 1.5, -0.0, 2**63, -(2**63) - 1, 10**30, -(10**40), 1e308, -1e308, 5e-324,
    "", " ", "\x00", "\t\n", "x" * 10_000, "\U0001f642" * 100, "\u202e\ufeff", "pending", "once",
    "cron:* * * * *", "cron:", "<script>alert(1)</script>", "' OR 1=1 --", "%s%s%n", "../../etc/passwd",
    [], {}, [1, 2], {"a": None}, [[[]]], [None], {"": ""}, ["pending"],
]


@dataclass(frozen=True)
class Case:
    """One request body and what kind of junk it is (for the failure message)."""

    kind: str
    body: bytes


@dataclass
class Served:
    services: Services
    url: str
    token: str
    methods: dict[str, Method]


@pytest.fixture
async def served(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Served]:
    """The real app core (store, service, engine, RPC server) on a temporary workspace; no model reachable."""
    monkeypatch.setenv("OLLAMA_HOST", UNREACHABLE_OLLAMA)
    paths = Paths(tmp_path / "workspace")
    write_config(paths.workspace, QUIET_CONFIG)
    services = await bootstrap.build(paths, config.load(paths.config_file))
    try:
        await services.start()
        published = json.loads(paths.rpc_file.read_text(encoding="utf-8"))
        methods = subconscious_methods(services.subconscious, services.approvals) | memory_methods(services.memory)
        yield Served(services, published["url"], published["token"], methods)
    finally:
        await services.aclose()


# --- generators -----------------------------------------------------------------------------------------


def envelope(method: Any = ..., params: Any = ..., request_id: Any = ..., jsonrpc: Any = "2.0") -> dict[str, Any]:
    """A request object; ``...`` leaves a key out."""
    body: dict[str, Any] = {}
    if jsonrpc is not ...:
        body["jsonrpc"] = jsonrpc
    if method is not ...:
        body["method"] = method
    if params is not ...:
        body["params"] = params
    if request_id is not ...:
        body["id"] = request_id
    return body


def dumps(document: Any) -> bytes:
    return json.dumps(document).encode()


class Fuzzer:
    """Generates the malformed bodies, deterministically from one seed."""

    def __init__(self, methods: dict[str, Method], task_ids: list[str]) -> None:
        self.rng = random.Random(SEED)
        # A valid trigger starts a tick that calls the (absent) model; ticks and supersedes are tested
        # elsewhere, so triggers get only invalid params here.
        self.methods = {name: method for name, method in methods.items() if name != TRIGGER}
        self.task_ids = task_ids

    def cases(self) -> Iterator[Case]:
        yield from self.binary(200)
        yield from self.text(150)
        yield from self.mutations(400)
        yield from self.nesting()
        yield from self.wrong_types()
        yield from self.huge()
        yield from self.unknown_methods(200)
        yield from self.envelopes(400)
        yield from self.batches(150)
        for value in JUNK:
            yield Case("trigger with params", dumps(envelope(TRIGGER, {"now": value}, 1)))
            yield Case("trigger with params", dumps(envelope(TRIGGER, [value], 1)))

    # -- raw bytes and text --

    def binary(self, count: int) -> Iterator[Case]:
        for _ in range(count):
            yield Case("binary", self.rng.randbytes(self.rng.randint(0, 300)))

    def random_char(self) -> str:
        while True:
            code = self.rng.choice([self.rng.randint(0, 0x7F), self.rng.randint(0x80, 0xFFFF),
                                    self.rng.randint(0x10000, 0x10FFFF)])
            if not 0xD800 <= code <= 0xDFFF:
                return chr(code)

    def text(self, count: int) -> Iterator[Case]:
        for _ in range(count):
            yield Case("utf-8 text", "".join(self.random_char() for _ in range(self.rng.randint(0, 200))).encode())

    def valid_request(self) -> dict[str, Any]:
        name = self.rng.choice(sorted(self.methods))
        params = {param.name: self.baseline(param.name) for param in self.methods[name].params if param.required}
        return envelope(name, params, self.rng.randint(0, 1000))

    def mutations(self, count: int) -> Iterator[Case]:
        alphabet = '{}[]",:0123456789.eE+-aeflnrstu\\ \x00\xff'
        for _ in range(count):
            text = bytearray(dumps(self.valid_request()))
            for _ in range(self.rng.randint(1, 6)):
                where = self.rng.randrange(len(text) + 1)
                action = self.rng.randrange(4)
                if action == 0 and text:
                    del text[min(where, len(text) - 1)]
                elif action == 1:
                    text[where:where] = self.rng.choice(alphabet).encode("latin-1")
                elif action == 2:
                    del text[where:]
                else:
                    text[where:where] = text[: self.rng.randint(0, len(text))]
            yield Case("mutated json", bytes(text))

    # -- structure --

    def nesting(self) -> Iterator[Case]:
        yield Case("deep array", b"[" * 100_000)
        yield Case("deep array", b"[" * 100_000 + b"]" * 100_000)
        yield Case("deep object", b'{"a":' * 50_000 + b"1" + b"}" * 50_000)
        for depth in (10, 100, 500, 900, 1_000, 2_000, 5_000, 50_000):
            nested = "[" * depth + "]" * depth
            for template in (
                '{"jsonrpc":"2.0","method":"openhuman.subconscious_tasks_add","params":{"title":%s},"id":1}',
                '{"jsonrpc":"2.0","method":"openhuman.memory_add","params":{"text":"x","tags":%s},"id":1}',
                '{"jsonrpc":"2.0","method":"openhuman.subconscious_status","params":%s,"id":1}',
                '{"jsonrpc":"2.0","method":"openhuman.subconscious_status","id":%s}',
                '[%s]',
            ):
                yield Case(f"nesting {depth}", (template % nested).encode())
        for _ in range(40):
            depth = self.rng.randint(1, 3_000)
            opener, closer = self.rng.choice([("[", "]"), ('{"k":', "}")])
            yield Case("random nesting", (opener * depth + "0" + closer * depth).encode())

    def baseline(self, name: str) -> Any:
        """A plausible value for a required parameter."""
        if name == "task_id" and self.task_ids:
            return self.rng.choice(self.task_ids + [str(uuid.uuid4())])
        if name.endswith("_id"):
            return str(uuid.uuid4())
        return f"fuzz {self.rng.randint(0, 10**6)}"

    def wrong_types(self) -> Iterator[Case]:
        for name, method in sorted(self.methods.items()):
            names = [param.name for param in method.params]
            required = {param.name: self.baseline(param.name) for param in method.params if param.required}
            for param in method.params:
                for value in JUNK:
                    params = dict(required)
                    params[param.name] = value
                    yield Case(f"{name}.{param.name}", dumps(envelope(name, params, 1)))
                position = names.index(param.name)
                prefix = [required.get(other) for other in names[:position]]
                yield Case(f"{name}[{position}]", dumps(envelope(name, [*prefix, self.rng.choice(JUNK)], 2)))
            yield Case(f"{name} surplus", dumps(envelope(name, [None] * (len(names) + 1), 3)))
            yield Case(f"{name} unknown", dumps(envelope(name, {**required, "surprise": 1}, 4)))
            yield Case(f"{name} missing", dumps(envelope(name, {}, 5)))
            yield Case(f"{name} notification", dumps(envelope(name, {"surprise": self.rng.choice(JUNK)})))

    def huge(self) -> Iterator[Case]:
        big = "x" * 900_000
        yield Case("huge title", dumps(envelope("openhuman.subconscious_tasks_add", {"title": big}, 1)))
        yield Case("huge text", dumps(envelope("openhuman.memory_add", {"text": big}, 1)))
        yield Case("huge query", dumps(envelope("openhuman.memory_search", {"query": big}, 1)))
        yield Case("huge method", dumps(envelope("openhuman." + big, {}, 1)))
        yield Case("huge id", dumps(envelope("openhuman.subconscious_status", {}, big)))
        yield Case("huge task id", dumps(envelope("openhuman.subconscious_tasks_remove", {"task_id": big}, 1)))
        yield Case("huge recurrence", dumps(envelope("openhuman.subconscious_tasks_add",
                                                     {"title": "x", "recurrence": "cron:" + big}, 1)))
        yield Case("huge param name", dumps(envelope("openhuman.subconscious_status", {big: 1}, 1)))
        yield Case("many params", dumps(envelope("openhuman.subconscious_status",
                                                 {f"k{i}": i for i in range(40_000)}, 1)))
        yield Case("long array", dumps(envelope("openhuman.subconscious_tasks_list", list(range(150_000)), 1)))
        yield Case("huge integer", b'{"jsonrpc":"2.0","method":"openhuman.subconscious_log_list",'
                                   b'"params":{"before":' + b"9" * 5_000 + b'},"id":1}')
        yield Case("huge integer id", b'{"jsonrpc":"2.0","method":"openhuman.subconscious_status","id":'
                                      + b"9" * 4_000 + b"}")
        yield Case("long float", b'{"jsonrpc":"2.0","method":"openhuman.subconscious_log_list",'
                                 b'"params":{"before":1.' + b"1" * 100_000 + b'},"id":1}')
        yield Case("whitespace", b" " * (MIB - 10) + b"{}")
        yield Case("over the limit", b" " * (MIB + 1))
        yield Case("over the limit", dumps(envelope("openhuman.subconscious_tasks_add", {"title": "y" * MIB}, 1)))

    def unknown_methods(self, count: int) -> Iterator[Case]:
        known = sorted(self.methods)
        for _ in range(count):
            choice = self.rng.randrange(5)
            if choice == 0:
                name = "".join(self.random_char() for _ in range(self.rng.randint(1, 40)))
            elif choice == 1:
                name = "openhuman." + "".join(self.rng.choices(string.ascii_letters + "_.", k=self.rng.randint(0, 30)))
            elif choice == 2:
                name = self.rng.choice(known).removeprefix("openhuman.")
            elif choice == 3:
                name = self.rng.choice(known).upper()
            else:
                name = self.rng.choice(known) + self.rng.choice([" ", "\x00", "_", ".", "()", "/"])
            yield Case("unknown method", dumps(envelope(name, self.rng.choice([{}, [], ...]),
                                                        self.rng.choice([1, "x", None, ...]))))

    def junk_value(self) -> Any:
        return self.rng.choice(JUNK)

    def random_envelope(self) -> Any:
        roll = self.rng.random()
        if roll < 0.1:
            return self.junk_value()
        method = self.rng.choice([*sorted(self.methods), *JUNK, ...])
        params = self.rng.choice([{}, [], ..., *JUNK, {"title": self.junk_value()}, [self.junk_value()]])
        request_id = self.rng.choice([1, "id", None, 1.5, -7, ..., True, [], {}, 10**30])
        jsonrpc = self.rng.choice(["2.0", "2.0", "2.0", "1.0", 2.0, 2, None, "", ...])
        document = envelope(method, params, request_id, jsonrpc)
        if isinstance(document, dict) and self.rng.random() < 0.1:
            document["extra"] = self.junk_value()
        return document

    def envelopes(self, count: int) -> Iterator[Case]:
        for _ in range(count):
            yield Case("envelope", dumps(self.random_envelope()))

    def batches(self, count: int) -> Iterator[Case]:
        for _ in range(count):
            batch = [self.random_envelope() for _ in range(self.rng.randint(1, 40))]
            yield Case("batch", dumps(batch))
        yield Case("empty batch", b"[]")
        yield Case("batch of batches", dumps([[envelope("openhuman.subconscious_status", {}, 1)]] * 5))
        yield Case("batch of 1001", dumps([envelope("openhuman.subconscious_status", {}, i) for i in range(1001)]))
        yield Case("batch of 1000", dumps([envelope("openhuman.subconscious_status", {}, i) for i in range(1000)]))
        yield Case("notifications", dumps([envelope("openhuman.subconscious_status", {})] * 20))


# --- checks ---------------------------------------------------------------------------------------------


def strict_json(text: str) -> Any:
    def refuse(name: str) -> Any:
        raise AssertionError(f"the response holds {name}, which is not JSON")

    return json.loads(text, parse_constant=refuse)


def check_answer(answer: Any, case: Case) -> None:
    assert isinstance(answer, dict), (case.kind, answer)
    assert set(answer) <= RESPONSE_KEYS, (case.kind, answer)
    assert answer.get("jsonrpc") == "2.0", (case.kind, answer)
    assert "id" in answer
    request_id = answer["id"]
    assert request_id is None or isinstance(request_id, str | int | float) and not isinstance(request_id, bool)
    assert ("result" in answer) != ("error" in answer), (case.kind, answer)
    if "error" in answer:
        error = answer["error"]
        assert set(error) <= {"code", "message", "data"}, (case.kind, error)
        assert error["code"] in CONTRACT_CODES, (case.kind, case.body[:300], error)
        message = error["message"]
        assert isinstance(message, str) and message, (case.kind, error)
        assert len(message) < 2_000, (case.kind, len(message))
        for leak in LEAKS:
            assert leak not in message, (case.kind, message)


def check_response(response: httpx.Response, case: Case) -> None:
    if len(case.body) > MIB:
        assert response.status_code == 413, (case.kind, response.status_code)
        return
    assert response.status_code in (200, 204), (case.kind, case.body[:300], response.status_code, response.text)
    if response.status_code == 204:
        assert response.content == b""
        return
    document = strict_json(response.text)
    if isinstance(document, list):
        assert document, case.kind
        assert isinstance(strict_json(case.body.decode("utf-8", "surrogatepass")), list), case.kind
        for answer in document:
            check_answer(answer, case)
    else:
        check_answer(document, case)


# --- the test -------------------------------------------------------------------------------------------


async def test_malformed_requests_never_break_the_server(served: Served, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.ERROR, logger="openhuman_desktop")
    service = served.services.subconscious
    task_ids = [task.id for task in await service.tasks_list()]
    user_task = await service.tasks_add("A task the fuzzer may poke")
    cases = list(Fuzzer(served.methods, [*task_ids, user_task.id]).cases())
    assert len(cases) >= 2_000
    headers = {"Authorization": f"Bearer {served.token}", "Content-Type": "application/json"}
    limit = asyncio.Semaphore(8)
    failures: list[str] = []

    async with httpx.AsyncClient(timeout=60) as client:

        async def send(case: Case) -> None:
            async with limit:
                response = await client.post(served.url, content=case.body, headers=headers)
            try:
                check_response(response, case)
            except AssertionError as exc:
                failures.append(f"{case.kind}: {exc}"[:1_000])

        await asyncio.gather(*(send(case) for case in cases))
        assert not failures, f"{len(failures)} bad answers, e.g.:\n" + "\n".join(failures[:10])

        status = await client.post(served.url, headers=headers, json=envelope(
            "openhuman.subconscious_status", {}, "after"))
        assert status.status_code == 200
        assert status.json()["result"]["task_count"] >= 3
    errors = [record for record in caplog.records if record.levelno >= logging.ERROR]
    assert not errors, [record.getMessage() for record in errors]
    assert await served.services.store.db.integrity_check() == "ok"


async def test_unauthorized_junk_is_refused_before_parsing(served: Served) -> None:
    rng = random.Random(SEED)
    async with httpx.AsyncClient(timeout=30) as client:
        for _ in range(50):
            body = rng.randbytes(rng.randint(0, 200))
            token = rng.choice(["y", "x", served.token[:-1], served.token + "x", served.token.upper()])
            response = await client.post(served.url, content=body, headers={"Authorization": f"Bearer {token}"})
            assert response.status_code == 401
            assert served.token not in response.text
        response = await client.post(served.url, headers={"Authorization": f"Bearer {served.token}"},
                                     json=envelope("openhuman.subconscious_status", {}, 1))
        assert response.status_code == 200


# --- product bugs the fuzzer found (fixed; kept as regression tests) ---------------------------------


async def test_a_nul_title_is_invalid_params(served: Served) -> None:
    async with httpx.AsyncClient(timeout=30) as client:
        for title in ("\x00", "\x00 Check my inbox"):
            response = await client.post(served.url, headers={"Authorization": f"Bearer {served.token}"},
                                         json=envelope("openhuman.subconscious_tasks_add", {"title": title}, 1))
            error = response.json().get("error")
            assert error is not None and error["code"] == -32602, response.text
            assert "title" in error["message"]


async def test_a_cancelled_write_leaves_no_open_transaction(served: Served) -> None:
    db = served.services.store.db
    write = asyncio.ensure_future(db.execute("INSERT OR REPLACE INTO engine_state (key, value) VALUES ('fuzz', '1')"))
    await asyncio.sleep(0)  # it takes the lock and hands BEGIN IMMEDIATE to the database thread
    write.cancel()
    await asyncio.gather(write, return_exceptions=True)
    await db.execute("INSERT OR REPLACE INTO engine_state (key, value) VALUES ('fuzz', '2')")
    await served.services.subconscious.tasks_add("Still writable after a cancelled write")
