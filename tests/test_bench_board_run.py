"""benchmarks/bench_board.py runs and reports one message per batched redraw, and one for a full redraw of all four
layers (no timing assertions)."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_bench_board_runs_and_counts_messages():
    out = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench_board.py")], capture_output=True,
                         text=True, timeout=300, cwd=ROOT, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert out.returncode == 0, out.stderr
    assert "board: 320 hexes" in out.stdout
    assert "batched      :" in out.stdout and "    1 message(s)" in out.stdout
    # one message for the whole redraw: the board's layers share one canvas manager and one hold (session 16)
    assert "full redraw (4 layers)" in out.stdout and ", 1 messages" in out.stdout
