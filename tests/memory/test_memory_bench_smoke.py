"""bench/memory_bench.py still runs (--quick, as a subprocess; no timing asserted)."""

from __future__ import annotations

from tests.test_bench_smoke import assert_budgets, figures, run_bench


def test_memory_bench_prints_its_figures() -> None:
    lines = run_bench("memory_bench.py")
    assert len(figures(lines, "memory search hybrid ")) == 2
    assert len(figures(lines, "memory search vector only ")) == 2
    backfill = figures(lines, "memory back-fill 500 memories against the fake Ollama")
    assert len(backfill) == 1 and "8 batches of <= 64" in backfill[0] and "500 of 500 with vectors" in backfill[0]
    assert_budgets(lines, 2)
