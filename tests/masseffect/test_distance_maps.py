"""``geometry.distance_maps`` (one multi-source pass, issue 24) gives every source's ``distance_map`` exactly."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given

from explorer.hexgrid import Hex
from explorer.games.masseffect import geometry as G

from .test_geometry import PROP, hexagon, random_maps

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from bench_me_geometry import random_mission_map  # noqa: E402

MODES = [dict(ignore_walls=False), dict(ignore_walls=True),
         dict(ignore_walls=False, rulings={"distance_elevation": "movement"})]


def _check(m, kw):
    every = G.distance_maps(m, **kw)
    assert sorted(every) == sorted(m.hexes)
    for src in sorted(m.hexes):
        want = G.distance_map(m, src, **kw)
        row = every[src]
        assert dict(row) == dict(want) and len(row) == len(want)
        for h in m.hexes:  # absent exactly where there is no route
            assert (h in row) == (h in want) and row.get(h) == want.get(h)


@PROP
@given(random_maps())
def test_every_source_matches_its_breadth_first_search(m):
    for kw in MODES:
        _check(m, kw)


@pytest.mark.parametrize("seed", [3, 8])
def test_a_walled_map_with_high_ground_matches(seed):
    m = random_mission_map(14, 10, seed)
    for kw in MODES:
        _check(replace(m), kw)


def test_rows_are_read_only_views_and_cached_per_mode():
    m = hexagon(2)
    a, b = G.distance_maps(m), G.distance_maps(m)
    assert a is b and G.distance_maps(m, ignore_walls=True) is not a
    row = a[Hex(0, 0)]
    assert row[Hex(0, 0)] == 0 and max(row.values()) == 2 and Hex(9, 9) not in row
    with pytest.raises(KeyError):
        row[Hex(9, 9)]
    with pytest.raises(TypeError):
        row[Hex(0, 0)] = 5


def test_bench_me_distances_quick_checks_every_source():
    import subprocess

    root = Path(__file__).resolve().parents[2]
    out = subprocess.run([sys.executable, str(root / "benchmarks" / "bench_me_distances.py"), "--quick"],
                         capture_output=True, text=True, timeout=300, cwd=root,
                         env={"PYTHONPATH": str(root), "PATH": "/usr/bin:/bin"})
    assert out.returncode == 0, out.stderr
    assert out.stdout.count("identical for all") == 3 and "ratio" in out.stdout
    assert "Strategy Pool exact odds, 8 + 1 Paragon dice" in out.stdout and ", identical" in out.stdout
    assert "MISMATCH" not in out.stdout + out.stderr


def test_a_corridor_longer_than_127_hexes_matches():
    """Distances past 127 no longer fit the one-byte matrix: the wide path gives them exactly."""
    from explorer.games.masseffect.map import MissionMap

    m = MissionMap(hexes=frozenset(Hex(q, r) for q in range(-75, 75) for r in (0, 1)))
    for kw in MODES:
        _check(m, kw)
    assert G.distance_maps(m)[Hex(-75, 0)][Hex(74, 1)] == 150


@PROP
@given(random_maps())
def test_the_adjacency_builder_equals_the_former_one(m):
    modes = ("adjacent", "movement", "ignore_walls")
    now = [G._succ(replace(m), mode) for mode in modes]
    G.FORMER_ADJACENCY = True
    try:
        former = [G._succ(replace(m), mode) for mode in modes]
    finally:
        G.FORMER_ADJACENCY = False
    assert now == former
    assert all(type(n) is Hex for succ in now for ns in succ.values() for n in ns)
