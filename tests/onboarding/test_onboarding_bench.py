"""bench/onboarding_bench.py still runs (--quick, as a subprocess; no timing is asserted)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.e2e
def test_the_onboarding_bench_prints_its_three_budgets() -> None:
    env = {key: value for key, value in os.environ.items() if key != "OLLAMA_HOST"}
    env["QT_QPA_PLATFORM"] = "offscreen"
    result = subprocess.run([sys.executable, str(REPO / "bench" / "onboarding_bench.py"), "--quick"],
                            capture_output=True, text=True, timeout=110, cwd=str(REPO), env=env,
                            stdin=subprocess.DEVNULL)
    assert result.returncode == 0, f"{result.stdout}\n{result.stderr}"
    verdicts = [line for line in result.stdout.splitlines() if line.startswith("BUDGET ")]
    assert len(verdicts) == 3 and all(line.split()[1] in ("ok", "MISSED") for line in verdicts), verdicts
    assert "1/1 finished" in result.stdout
