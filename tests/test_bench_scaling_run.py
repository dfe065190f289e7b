"""benchmarks/bench_scaling.py runs (quick mode: small N, no timing verdict; the timings are the benchmark's job)."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_bench_scaling_quick_runs():
    out = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench_scaling.py"), "--quick"],
                         capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert "resolve/N" in out.stdout and "largest resolve ratio" in out.stdout


def test_the_resolver_indexes_miners_by_name():
    """Each lookup by name is a dict lookup: the resolver never calls list.index on the Reactive Miners."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from bench_scaling import scenario_toml

    from explorer.games.tagraid.resolve import resolve_detailed
    from explorer.games.tagraid.scenarios import load_scenario_text

    sc = load_scenario_text(scenario_toml(30), "t")

    class NoIndex(list):
        def index(self, *a, **k):
            raise AssertionError("linear lookup of a Miner")

    sc = sc.model_copy(update={"reactive": NoIndex(sc.reactive)})
    res = resolve_detailed(sc)
    assert len(res.miners) == 31 and res.miner("B").name == "R0" and res.pair_with("R0") is not None
