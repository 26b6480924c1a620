"""bench/webapp_bench.py still runs (``--quick``, as a subprocess; no timing asserted)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.e2e
def test_webapp_bench_prints_its_figures() -> None:
    done = subprocess.run([sys.executable, str(REPO / "bench" / "webapp_bench.py"), "--quick"], cwd=REPO,
                          capture_output=True, text=True, timeout=180, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "A first delta at the WebSocket client" in done.stdout
    assert "BUDGET ok webapp B every message answered once: 12/12" in done.stdout
