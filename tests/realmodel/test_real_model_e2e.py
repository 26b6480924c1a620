"""The real headless app against a real small model (issue 10): llama.cpp's OpenAI-compatible server with
SmolLM2-135M-Instruct, both tiers, behind the bench's recording proxy.

Opt-in: skipped unless ``OPENHUMAN_REAL_MODEL=1`` (the plain ``pytest`` run stays fast and offline). The
server comes from ``OPENHUMAN_REAL_MODEL_URL`` when set, else this module starts one on a free port
(``bench/real_model_server.py``: installs the server venv and the model first when they are missing).

The budgets of the issue are asserted. Those the product does not meet yet are listed in ``NOT_MET_YET``:
they xfail with the measured figure in the reason (``pytest -rx`` shows it) instead of failing; remove a
name from the set once its fix is merged, or set ``OPENHUMAN_REAL_MODEL_STRICT=1`` to make them all fail.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

if os.environ.get("OPENHUMAN_REAL_MODEL") != "1":
    pytest.skip("real-model test: set OPENHUMAN_REAL_MODEL=1 (see tests/realmodel)", allow_module_level=True)

from bench import real_model_server  # noqa: E402
from bench.model_proxy import Exchange, ModelProxy  # noqa: E402
from bench.real_model import BASE_FILES, USER_TASKS, App, config_for, decided, tick_failed, write  # noqa: E402

pytestmark = [pytest.mark.realmodel, pytest.mark.timeout(1500)]

NOT_MET_YET: frozenset[str] = frozenset()
"""Budgets main missed when this test was written (2026-12-01 baseline); the issue-10 fixes should empty it."""
STRICT = os.environ.get("OPENHUMAN_REAL_MODEL_STRICT") == "1"
TICKS = 2
FILES = MEMORIES = 50
VALID_SHARE = 0.95
SAFETY_CAP = 512


@dataclass
class Run:
    """What a few real ticks did: every model request, and per tick the due rows and how many were decided."""

    exchanges: list[Exchange] = field(default_factory=list)
    ticks: list[tuple[str, int, int]] = field(default_factory=list)  # (label, due, decided)
    undecided: dict[str, str] = field(default_factory=dict)  # per tick, what its undecided rows said
    big_phase: str = ""
    leftover_rows: int = 0
    exit_code: int | None = None


@pytest.fixture(scope="module")
def run(server_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Run]:
    """10 due tasks (3 system + 7 user) for ``TICKS`` ticks, then one tick with 50 changed files and 50 memories."""
    proxy = ModelProxy(server_url, safety_cap=SAFETY_CAP)
    result = Run()
    root: Path = tmp_path_factory.mktemp("real-model")
    proxy.phase = "setup"
    app = App(root / "ws", proxy, config_for(proxy, real_model_server.MODEL_ALIAS, real_model_server.DEFAULT_CONTEXT),
              BASE_FILES)
    try:
        for title, _ in USER_TASKS:
            app.call("subconscious_tasks_add", {"title": title})
        for number in range(1, TICKS + 1):
            write(app.paths.workspace / "notes" / f"day-{number}.md", f"Day {number}: nothing else to report.\n")
            proxy.phase = f"tick {number}"
            result.ticks.append(measured_tick(app, proxy.phase, result.undecided))
        for number in range(FILES):
            lines = [f"Meeting notes {number}: item {n} of the roadmap, owner Sam, due in {n + 2} weeks."
                     for n in range(12)]
            write(app.paths.workspace / "inbox" / f"notes-{number:03d}.md", "\n".join(lines) + "\n")
        for number in range(MEMORIES):
            app.call("memory_add", {"text": f"Memory {number}: the dentist appointment moved to the "
                                            f"{number % 28 + 1}th at {9 + number % 8}:30; bring the insurance card."})
        proxy.phase = result.big_phase = f"tick with {FILES} files + {MEMORIES} memories"
        result.ticks.append(measured_tick(app, proxy.phase, result.undecided))
        result.leftover_rows = sum(1 for row in app.call("subconscious_log_list", {"limit": 1000})
                                   if row["decision"] == "in_progress")
    finally:
        app.rpc.close()
        result.exit_code = app.process.stop()
        proxy.settle()
        result.exchanges = proxy.chats()
        proxy.close()
    yield result


def measured_tick(app: App, label: str, undecided: dict[str, str]) -> tuple[str, int, int]:
    """The tick's due rows and how many got a decision; what the others said goes into ``undecided``."""
    _, rows, before = app.tick()
    failed = tick_failed(app, before)
    said = sorted({f"{row['decision']}: {str(row.get('result') or '')[:160]}" for row in rows
                   if not decided(row, failed)})
    if said:
        status = app.call("subconscious_status")
        undecided[label] = "; ".join(said) + f" (last error: {status.get('last_error')})"
    return label, len(rows), sum(decided(row, failed) for row in rows)


def budget_missed(name: str, message: str) -> None:
    """Fail, or xfail with the measured figure while ``name`` is a budget main does not meet yet."""
    if name in NOT_MET_YET and not STRICT:
        pytest.xfail(f"not met yet (issue 10): {message}")
    pytest.fail(message)


def describe(exchanges: list[Exchange]) -> str:
    kinds: dict[tuple[str, str, str], int] = {}
    for e in exchanges:
        key = (e.tier, e.phase, e.response_format or ("tools" if e.tools else "text"))
        kinds[key] = kinds.get(key, 0) + 1
    return ", ".join(f"{tier}/{phase}/{kind}: {count}" for (tier, phase, kind), count in sorted(kinds.items()))


def test_the_app_ticks_to_the_end_and_stops_cleanly(run: Run) -> None:
    assert [due for _, due, _ in run.ticks] == [10] * (TICKS + 1)
    assert run.leftover_rows == 0, "a row was left in_progress"
    assert run.exit_code == 0
    assert run.exchanges, "the app sent no request to the model"


def test_every_request_carries_an_output_cap(run: Run) -> None:
    uncapped = [e for e in run.exchanges if e.max_tokens is None]
    if uncapped:
        budget_missed("output cap", f"{len(uncapped)} of {len(run.exchanges)} requests had no max_tokens "
                                    f"({describe(uncapped)})")


def test_no_context_length_refusal_with_50_files_and_50_memories(run: Run) -> None:
    big = [e for e in run.exchanges if e.phase == run.big_phase]
    refused = [e for e in big if e.refused_for_context]
    assert big, "the big tick sent no request"
    if refused:
        budget_missed("context length", f"{len(refused)} of {len(big)} requests refused for context length: "
                                        f"{refused[0].error[:200]}")


def test_at_least_95_percent_of_due_tasks_get_a_valid_decision(run: Run) -> None:
    shares = {label: decided_count / due for label, due, decided_count in run.ticks}
    worst = min(shares, key=lambda label: shares[label])
    if shares[worst] < VALID_SHARE:
        gave_up = sum(e.client_gone for e in run.exchanges)
        budget_missed("valid decisions", "valid decisions per tick: " + ", ".join(
            f"{label} {decided_count}/{due}" for label, due, decided_count in run.ticks)
            + (f"; the app gave up waiting on {gave_up} requests (client timeout)" if gave_up else "")
            + "".join(f"\n{label}: {said}; its slowest model request took "
                      f"{max((e.seconds for e in run.exchanges if e.phase == label), default=0):.0f} s"
                      for label, said in run.undecided.items()))


def test_requests_took_real_model_time(run: Run) -> None:
    """A sanity check on the rig itself: the proxy saw real answers with the server's usage."""
    answered = [e for e in run.exchanges if e.done and not e.refused]
    assert answered and all(e.prompt_tokens for e in answered)
