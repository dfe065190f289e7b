"""benchmarks/bench_gd_odds.py runs in quick mode and its exact odds equal brute force (no timing asserted)."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_bench_gd_odds_quick():
    out = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench_gd_odds.py"), "--quick"],
                         capture_output=True, text=True, timeout=300, cwd=ROOT,
                         env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert out.returncode == 0, out.stderr
    assert "exact == brute" in out.stdout and "MISMATCH" not in out.stdout
