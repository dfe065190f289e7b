"""The LoF benchmark runs (quick mode: correctness only, no timing assertions)."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_bench_lof_quick():
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench_lof.py"), "--quick"],
                         capture_output=True, text=True, timeout=300, cwd=ROOT, env=env)
    assert out.returncode == 0, out.stderr
    assert "sampler-only (exact missed, must be 0): 0" in out.stdout
    assert "thin slits (8, each with a clear line): exact found 8/8" in out.stdout
    assert "MISMATCH" not in out.stdout + out.stderr


def test_bench_lof_fast_quick_checks_fast_against_former_path():
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench_lof_fast.py"), "--quick", "--agree", "3"],
                         capture_output=True, text=True, timeout=600, cwd=ROOT, env=env)
    assert out.returncode == 0, out.stderr
    # 10 rows (three of them the lazy analysis, all_pairs(lazy=True)), then two per flipped reading
    # (bench_lof_fast.FLIP_READINGS: 8), each checked against a full recompute
    assert out.stdout.count("identical") == 10 + 2 * 8 and "ratio = former path time" in out.stdout
    assert out.stdout.count("flip it back") == 8
    assert "agreement: 3/3 random tables identical" in out.stdout
    assert "MISMATCH" not in out.stdout + out.stderr


def test_bench_lof_vs_tree_runs_each_tree_in_its_own_process():
    """bench_lof_vs_tree.py with this tree as its own baseline: one round of the move row, the two processes'
    answers identical (each child imports the explorer package from the tree it was given, and checks it)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench_lof_vs_tree.py"), "--baseline", str(ROOT),
                          "--rounds", "1", "--rows", "move"], capture_output=True, text=True, timeout=600, cwd=ROOT,
                         env=env)
    assert out.returncode == 0, out.stderr
    assert "after one Model moves" in out.stdout and "identical" in out.stdout
    assert "MISMATCH" not in out.stdout + out.stderr


def test_bench_partial_cover_quick_checks_the_clipped_umbra_against_the_former():
    """bench_partial_cover.py --quick: every row's answers identical between the clipped umbra and the former one
    (the default and the crowded tables, the page's shooter picks on the default table)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench_partial_cover.py"), "--quick"],
                         capture_output=True, text=True, timeout=600, cwd=ROOT, env=env)
    assert out.returncode == 0, out.stderr
    assert out.stdout.count("identical") == 5 and "ratio = former time / clipped time" in out.stdout
    assert "MISMATCH" not in out.stdout + out.stderr
