"""The CI slice of benchmarks/fuzz_lof_exact.py (issue 24 item 5): fast path == exact former path, symmetry and
translation, on a few random tables and on tables built on a tie (lines through a single vertex, along a wall). The
big run (thousands of tables) is the script's own: its numbers are in benchmarks/README.md."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))

import numpy as np  # noqa: E402
import shapely  # noqa: E402

from explorer.games.tagraid import geometry as G  # noqa: E402


def test_fuzz_lof_exact_quick_slice_finds_no_difference():
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "fuzz_lof_exact.py"), "--quick"],
                         capture_output=True, text=True, timeout=600, cwd=ROOT, env=env)
    assert out.returncode == 0, out.stdout + out.stderr
    for check in ("agreement (pairs)", "symmetry (unordered pairs)", "translation (pairs)",
                  "single_vertex: agreement: 20", "along_wall: agreement: 20", "along_wall: translation: 20"):
        assert check in out.stdout
    assert "0 differences (MET" in out.stdout


def _outer_tangent(a, b, other_side):
    n, c = G.common_tangents(np.array([[a.x, a.y, a.r]]), np.array([[b.x, b.y, b.r]]))
    outer = [(nn, cc) for nn, cc in zip(n, c) if np.sign(nn @ [a.x, a.y] + cc) == np.sign(nn @ [b.x, b.y] + cc)]
    return outer[1 if other_side else 0]


def test_the_tie_generators_sit_on_the_tie():
    """A generated case really is a tie: the square's corner lies on an outer common tangent of the bases (or 0.05
    across it), the wall's side along one (distance 0 to the tangent segment, never crossing it)."""
    from fuzz_lof_exact import along_wall, degenerate_case, single_vertex

    for k in range(40):
        name, args, _grazing, _off = degenerate_case(k, 3)
        if name == "single_vertex":
            a, b, labelled, _ = single_vertex(*args)
            corner = labelled[0][1]
            gaps = []
            for other in (False, True):
                nn, cc = _outer_tangent(a, b, other)
                gaps.append(min(abs(nn @ p + cc) for p in np.asarray(corner.exterior.coords)))
            assert min(gaps) < 1e-9 or abs(min(gaps) - 0.05) < 1e-9, (args, gaps)
        else:
            a, b, labelled, _ = along_wall(*args)
            nn, cc = _outer_tangent(a, b, args[-1])
            pa = np.array([a.x, a.y]) - (nn @ [a.x, a.y] + cc) * nn
            pb = np.array([b.x, b.y]) - (nn @ [b.x, b.y] + cc) * nn
            wall = labelled[0][1]
            assert shapely.LineString([pa, pb]).distance(wall) < 1e-9, args
            # every corner of the wall on the far side of the tangent from the bases (up to rounding)
            side = np.sign(nn @ [a.x, a.y] + cc)
            assert all(side * (nn @ p + cc) < 1e-9 for p in np.asarray(wall.exterior.coords)), args


def test_count_lof_shapely_calls_finds_no_scalar_predicate():
    """benchmarks/count_lof_shapely_calls.py (item 1's shape) on a small table: it counts both paths, and the fast
    path calls no scalar shapely predicate (the former path does)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "count_lof_shapely_calls.py"), "--models", "6"],
                         capture_output=True, text=True, timeout=600, cwd=ROOT, env=env)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "no scalar shapely predicate or measure on the fast path: MET" in out.stdout
    assert out.stdout.count("scalar calls") == 2 and "STRtree built" in out.stdout
