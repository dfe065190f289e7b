"""The benchmark scripts run (quick mode: correctness only, no timing assertions)."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_bench_odds_quick_runs_and_checks_against_brute_force():
    out = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench_odds.py"), "--quick"],
                         capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert "exact == brute" in out.stdout and "6 vs 3 complete" in out.stdout and "SV table" in out.stdout
    assert "MISMATCH" not in out.stdout + out.stderr


def test_bench_odds_exact_quick_runs_and_checks_new_against_old():
    out = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench_odds_exact.py"), "--quick"],
                         capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert "6 vs 3 complete" in out.stdout and "new == old" in out.stdout and "speed-up" in out.stdout
    assert "MISMATCH" not in out.stdout + out.stderr


def test_bench_lof_incremental_quick_runs_and_matches_fresh_and_full_analyses():
    out = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench_lof_incremental.py"), "--quick"],
                         capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert "== fresh analysis" in out.stdout and "same verdicts" in out.stdout and "speed-up" in out.stdout
    assert "MISMATCH" not in out.stdout + out.stderr


def test_bench_cli_start_quick_runs_and_odds_imports_nothing_heavy():
    out = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench_cli_start.py"), "--quick"],
                         capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert "explorer tagraid odds" in out.stdout and "import time of" in out.stdout
    assert "must not load for `explorer tagraid odds`: none loaded" in out.stdout
    assert "MISMATCH" not in out.stdout + out.stderr


def test_bench_dagger_quick_runs_and_matches_the_deep_copy_baseline():
    out = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench_dagger.py"), "--quick"],
                         capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert "step functions == deep-copy baseline on all 20 shared seeds" in out.stdout
    assert "200 Nemesis Phases: loss probability next round" in out.stdout and "speed-up per phase" in out.stdout
    assert "threat reached 20" in out.stdout                    # the position loses for some event orders
    assert "seeded estimate within 4 sigma: yes" in out.stdout
    assert "planned forecast, dg-five-rounds, 2 rounds: 900 play-outs" in out.stdout
    assert "old path agrees" in out.stdout and "speed-up (old / round by round, same run)" in out.stdout
    assert "quiet play against loud, planned forecast of dg-five-rounds" in out.stdout
    assert "2 rounds (84 positions, P(lose) = 0)" in out.stdout and "same forecast" in out.stdout
    assert "forecast loop before and after session 12, dg-five-rounds, 2 rounds" in out.stdout
    assert "ratio before / after" in out.stdout and out.stdout.count("same forecast") == 2
    assert "MISMATCH" not in out.stdout + out.stderr
