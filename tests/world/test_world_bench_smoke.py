"""bench/world_bench.py still runs (--quick: 2,000 messages in a real dovecot), and prints each of its budgets."""

from __future__ import annotations

import pytest

from tests.test_bench_smoke import assert_budgets, run_bench
from tests.world.servers import need


@pytest.mark.e2e
@pytest.mark.timeout(150)
def test_world_bench_prints_its_budgets_and_the_client_comparison() -> None:
    need("dovecot")
    lines = run_bench("world_bench.py")
    assert_budgets(lines, 6)
    compared = any(line.startswith("# imapclient on a thread: loop stall p99") for line in lines)
    assert compared or any("aioimaplib is not installed" in line for line in lines), lines
    assert any("message bytes fetched: 0" in line for line in lines), lines
