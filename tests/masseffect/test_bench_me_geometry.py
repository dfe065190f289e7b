"""benchmarks/bench_me_geometry.py runs on a small map, checks its fast results against the naive ones, and prints
its ratios (no timing assertions)."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_bench_me_geometry_smoke():
    out = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench_me_geometry.py"), "--width", "8",
                          "--height", "6", "--pairs", "200", "--repeat", "1"], capture_output=True, text=True,
                         timeout=300, cwd=ROOT, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert out.returncode == 0, out.stderr
    assert "map: 47 hexes" in out.stdout
    assert "ratio Line of Fire naive / lof_map" in out.stdout and "ratio distances naive / distance maps" in out.stdout
