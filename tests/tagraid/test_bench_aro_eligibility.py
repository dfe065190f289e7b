"""The ARO eligibility benchmark runs (quick mode: correctness only, no timing assertions)."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_bench_aro_eligibility_quick():
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench_aro_eligibility.py"), "--quick"],
                         capture_output=True, text=True, timeout=300, cwd=ROOT, env=env)
    assert out.returncode == 0, out.stderr
    assert "sampled-only (exact missed, must be 0): 0" in out.stdout
    assert "MISMATCH" not in out.stdout + out.stderr and "no clear 6-hexagon route" not in out.stdout
