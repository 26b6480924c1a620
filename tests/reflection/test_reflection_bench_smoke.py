"""bench/reflection_bench.py still runs (``--quick``, as a subprocess; its figures are printed, no timing is
asserted): the hook fires on a month of activity, the prompt fits the window, idle reflection asks nothing."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_reflection_bench_prints_its_figures() -> None:
    env = {key: value for key, value in os.environ.items() if key != "OLLAMA_HOST"}
    result = subprocess.run([sys.executable, str(REPO / "bench" / "reflection_bench.py"), "--quick"],
                            capture_output=True, text=True, timeout=110, cwd=str(REPO), env=env,
                            stdin=subprocess.DEVNULL)
    lines = result.stdout.splitlines()
    assert result.returncode == 0, f"exited {result.returncode}:\n{result.stdout}\n{result.stderr}"
    assert any(line.startswith("reflection prompt build over 1,000 + 10,000 entries") and "p95" in line
               for line in lines), lines
    assert any(line.startswith("reflection prompt: hook fired True") for line in lines), lines
    verdicts = [line for line in lines if line.startswith("BUDGET ")]
    assert len(verdicts) == 3 and all(line.split()[1] in ("ok", "MISSED") for line in verdicts), verdicts
    assert any(line.startswith("BUDGET ok idle reflection model calls: 0.00") for line in lines), lines
    assert any(line.startswith("BUDGET ok reflection prompt within the subconscious window") for line in lines)
