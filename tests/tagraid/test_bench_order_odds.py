"""The whole-Order odds benchmark runs (quick mode: correctness only, no timing assertions): its Order has the
structure it claims (a split Burst 3, three AROs) and the roll-by-roll resolver agrees with the exact odds."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_bench_order_odds_quick():
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench_order_odds.py"), "--quick"],
                         capture_output=True, text=True, timeout=300, cwd=ROOT, env=env)
    assert out.returncode == 0, out.stderr + out.stdout
    assert "Monte Carlo (100 resolutions) agrees" in out.stdout
    assert "MISMATCH" not in out.stdout + out.stderr
