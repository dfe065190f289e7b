"""Property check (issue 24 item 5): the Line of Fire fast path keeps the exact answer, on thousands of random tables
and thousands of tables built to sit on a tie. Run from the repository root::

    PYTHONPATH=$PWD python benchmarks/fuzz_lof_exact.py [--tables 1000] [--degenerate 4000] [--seed 0]
        [--budget SECONDS] [--progress 100]
    PYTHONPATH=$PWD python benchmarks/fuzz_lof_exact.py --quick   (the CI slice: tests/tagraid/test_fuzz_lof_exact.py)

Random tables (``fuzz_lof_parts.table_of``: radius 4, 6-9 Models, 4-13 scenery pieces, 0-8 hexagons without tile,
silhouettes 3/5/7/8); table ``s`` is read under ``READINGS[s % 4]`` (the default, ``lof_grazing = touching_blocks``,
``lof_arc_part = seen_part_in_arc``, low scenery and tileless hexagons exempt). On each:

* **agreement**: every ordered pair's ``line_of_fire`` with its explanation (verdict, reason, witness, blockers, rays
  and their blockers, candidates tested, arc, readings consulted) on the fast path equals the former exact path
  (``geometry.fast_path(False)``: each polygon on its own, unions rebuilt per query, no caches) bit for bit, and so do
  the Range Ruler and Partial Cover of every pair with LoF;
* **symmetry**: the geometric half (``clear_segment(..., arc_part=False)``, fast path) finds a clear segment from A to
  B exactly when it finds one from B to A;
* **translation**: the table moved by a random hexagon vector (|dq|, |dr| <= 6: tiles, scenery and Models) gives every
  ordered pair the same verdict and reason.

Tables built on a tie (``--degenerate N``: half of each kind, random sizes, distances, rotations and integer
offsets, both grazing readings):

* **single vertex**: a square whose corner sits exactly on an outer common tangent of two equal bases (or reaches
  across it by 0.05), a wall hiding the centre line: the only clear lines pass by that vertex;
* **along a wall**: a wall whose side lies along an outer common tangent of the two bases, a hexagon hole made of two
  touching boxes and a blocking base between them.

On each: the clear-segment search (witness, candidates tested, contact) and the explanation (rays, blockers) fast ==
former; the search from B to A finds a line exactly when the one from A to B does; the same configuration moved by
another integer vector gets the same verdict. Prints one line per check with its count and every difference (the
case's numbers: a reproducer), and exits 1 on any difference.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np
import shapely
from shapely import affinity
from shapely.geometry import Polygon, box

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from fuzz_lof_parts import table_of  # noqa: E402

from explorer.games.tagraid import geometry as G  # noqa: E402
from explorer.games.tagraid.geometry import Disc, Obstacles, PolygonIndex, fast_path, find_clear_segment  # noqa: E402
from explorer.games.tagraid.lof import TableTop, _explain_rays, clear_segment, line_of_fire, partial_cover  # noqa: E402
from explorer.games.tagraid.options import rulings  # noqa: E402
from explorer.games.tagraid.pieces import Model, Scenery  # noqa: E402
from explorer.games.tagraid.ranges import measure_range  # noqa: E402
from explorer.hexgrid import Hex, Layout  # noqa: E402

L = Layout()
READINGS = ({}, {"lof_grazing": "touching_blocks"}, {"lof_arc_part": "seen_part_in_arc"},
            {"scenery_height": "lower_than_both_does_not_block", "tileless_occupied_hexagon": "exempt"})


# ------------------------------------------------------------------------------------------------ random tables


def _lof_facts(r):
    return (r.has_lof, r.reason, r.witness, r.blocked_by, [(ray.segment, ray.blocked_by) for ray in r.rays],
            r.candidates_tested, r.in_arc, r.rulings)


def _answers(seed: int, fast: bool, readings: dict) -> list:
    """Every ordered pair's explained LoF, and Range Ruler and Partial Cover where it has LoF, on a fresh table."""
    with fast_path(fast):
        t = table_of(seed)
        ids = sorted(t.models)
        out = []
        for a in ids:
            for b in ids:
                if a == b:
                    continue
                r = rulings(readings)
                lof = line_of_fire(t, a, b, r)
                out.append(((a, b), _lof_facts(lof)))
                if lof.has_lof:
                    rng = measure_range(t, a, b, r)
                    cov = partial_cover(t, a, b, r)
                    out.append(((a, b), (rng.distance, rng.band, rng.ruler, rng.measured, cov.in_cover, cov.pieces,
                                         cov.hidden_points)))
                out.append(((a, b), tuple(sorted(r.consulted.items()))))
        return out


def shifted(t: TableTop, dq: int, dr: int) -> TableTop:
    """``t`` moved by the hexagon vector ``(dq, dr)`` (tiles, scenery and Models)."""
    ox, oy = L.hex_to_pixel(Hex(dq, dr))
    ms = [Model(m.id, m.x + ox, m.y + oy, m.silhouette, m.facing, m.side, m.kind) for m in t.models.values()]
    sc = [Scenery(s.id, tuple((x + ox, y + oy) for x, y in s.points), s.height) for s in t.scenery]
    tiles = {Hex(h.q + dq, h.r + dr): v for h, v in t.tiles.items()}
    return TableTop(ms, sc, tiles, L, validate=False)


def check_table(seed: int, counts: dict) -> list[str]:
    bad: list[str] = []
    readings = READINGS[seed % len(READINGS)]
    fast, former = _answers(seed, True, readings), _answers(seed, False, readings)
    counts["agreement (pairs)"] += sum(1 for k, v in fast if len(v) == 8)
    if fast != former:
        first = next(k for (k, x), (_, y) in zip(fast, former) if x != y) if len(fast) == len(former) else None
        bad.append(f"agreement: table {seed} readings {readings}: fast != former path (first pair {first})")
    t = table_of(seed)
    rul = rulings(readings)
    ids = sorted(t.models)
    for i, a in enumerate(ids):
        for b in ids[i + 1:]:
            ab = clear_segment(t, a, b, rul.copy(), arc_part=False)[0].witness is None
            ba = clear_segment(t, b, a, rul.copy(), arc_part=False)[0].witness is None
            counts["symmetry (unordered pairs)"] += 1
            if ab != ba:
                bad.append(f"symmetry: table {seed} readings {readings}: {a}->{b} clear={not ab}, {b}->{a} "
                           f"clear={not ba}")
    rng = np.random.default_rng(seed + 7)
    dq, dr = (int(x) for x in rng.integers(-6, 7, size=2))
    t2 = shifted(t, dq, dr)
    for a in ids:
        for b in ids:
            if a != b:
                r1 = line_of_fire(t, a, b, rul.copy(), explain=False)
                r2 = line_of_fire(t2, a, b, rul.copy(), explain=False)
                counts["translation (pairs)"] += 1
                if (r1.has_lof, r1.reason) != (r2.has_lof, r2.reason):
                    bad.append(f"translation: table {seed} readings {readings} moved by ({dq}, {dr}): {a}->{b} "
                               f"{(r1.has_lof, r1.reason)} != {(r2.has_lof, r2.reason)}")
    return bad


# ------------------------------------------------------------------------------------------- built on a tie


def _placed(geoms, angle: float, dx: float, dy: float):
    return [affinity.translate(affinity.rotate(g, angle, origin=(0, 0)), dx, dy) for g in geoms]


def single_vertex(r: float, dist: float, at: float, angle: float, dx: int, dy: int, inward: bool):
    """Two equal bases of radius ``r``, ``dist`` apart, turned by ``angle`` degrees and moved by ``(dx, dy)``; a
    square whose corner sits on their outer common tangent ``at`` (0-1) of the way (``inward``: 0.05 across it)
    and a wall hiding the centre line. Returns ``(a, b, labelled polygons, discs)``."""
    x = at * dist
    corner = Polygon([(x, r), (x - 0.3, r + 0.3), (x, r + 0.6), (x + 0.3, r + 0.3)])
    if inward:
        corner = affinity.translate(corner, 0.0, -0.05)
    wall = box(dist / 2 - 0.05, -r - 1.0, dist / 2 + 0.05, r * 0.5)
    geoms = _placed([corner, wall], angle, dx, dy)
    c = _placed([shapely.Point(0, 0), shapely.Point(dist, 0)], angle, dx, dy)
    return (Disc(c[0].x, c[0].y, r), Disc(c[1].x, c[1].y, r),
            [("scenery:corner", geoms[0]), ("scenery:wall", geoms[1])], [])


def along_wall(ra: float, rb: float, dist: float, angle: float, dx: int, dy: int, other_side: bool):
    """Bases of radii ``ra`` and ``rb``, ``dist`` apart; a thick wall whose near side is one of their outer common
    tangents from 30 % to 70 % of the way, a hexagon hole of two touching boxes on the centre line and a base
    above it; turned by ``angle`` and moved by ``(dx, dy)``. Returns ``(a, b, labelled polygons, discs)``."""
    a0, b0 = Disc(0.0, 0.0, ra), Disc(dist, 0.0, rb)
    n, c = G.common_tangents(np.array([[a0.x, a0.y, a0.r]]), np.array([[b0.x, b0.y, b0.r]]))
    outer = [(nn, cc) for nn, cc in zip(n, c) if np.sign(nn @ [a0.x, a0.y] + cc) == np.sign(nn @ [b0.x, b0.y] + cc)]
    nn, cc = outer[1 if other_side else 0]
    ux = -nn[1]
    p = -cc * nn
    side = -np.sign(nn @ [a0.x, a0.y] + cc)
    u = np.array([ux, nn[0]]) * np.sign(ux or 1)  # along the tangent, from A's side towards B's (x +-1: exact)
    q0, q1 = p + u * 0.3 * dist, p + u * 0.7 * dist
    wall = Polygon([tuple(q0), tuple(q1), tuple(q1 + side * 0.5 * nn), tuple(q0 + side * 0.5 * nn)]).buffer(0)
    half1 = box(dist * 0.45, -0.05, dist * 0.5, 0.05)
    half2 = box(dist * 0.5, -0.05, dist * 0.55, 0.05)
    geoms = _placed([wall, half1, half2], angle, dx, dy)
    cs = _placed([shapely.Point(0, 0), shapely.Point(dist, 0), shapely.Point(dist * 0.5, 0.6)], angle, dx, dy)
    return (Disc(cs[0].x, cs[0].y, ra), Disc(cs[1].x, cs[1].y, rb),
            [("scenery:wall", geoms[0]), ("hex:0,0", geoms[1]), ("hex:1,0", geoms[2])],
            [("model:x", Disc(cs[2].x, cs[2].y, 0.2))])


def degenerate_case(k: int, seed: int):
    """Case ``k`` (even: single vertex, odd: along a wall): ``(name, args, grazing, offset2)``."""
    rng = np.random.default_rng([seed, k])
    grazing = bool(rng.integers(2))
    off2 = tuple(int(x) for x in rng.integers(-20, 21, size=2))
    if k % 2 == 0:
        args = (float(rng.uniform(0.1, 0.4)), float(rng.uniform(2.0, 8.0)), float(rng.uniform(0.05, 0.95)),
                float(rng.choice([0.0, 90.0, 180.0, 30.0, rng.uniform(0, 360)])), int(rng.integers(-20, 21)),
                int(rng.integers(-20, 21)), bool(rng.integers(2)))
        return "single_vertex", args, grazing, off2
    args = (float(rng.uniform(0.1, 0.4)), float(rng.uniform(0.1, 0.4)), float(rng.uniform(2.0, 8.0)),
            float(rng.choice([0.0, 60.0, 90.0, 45.0, rng.uniform(0, 360)])), int(rng.integers(-20, 21)),
            int(rng.integers(-20, 21)), bool(rng.integers(2)))
    return "along_wall", args, grazing, off2


def _search(a, b, labelled, discs, grazing, fast: bool):
    with fast_path(fast):
        obs = Obstacles(list(labelled), list(discs), PolygonIndex(labelled) if fast else None)
        res = find_clear_segment(a, b, obs, touching_blocks=grazing)
        rays = _explain_rays(a, b, obs, grazing)
    return res, [(r.segment, r.blocked_by) for r in rays]


def check_degenerate(k: int, seed: int, counts: dict) -> list[str]:
    name, args, grazing, off2 = degenerate_case(k, seed)
    build = single_vertex if name == "single_vertex" else along_wall
    a, b, labelled, discs = build(*args)
    where = f"{name}{args} grazing={grazing}"
    bad = []
    (fast, fast_rays), (slow, slow_rays) = (_search(a, b, labelled, discs, grazing, f) for f in (True, False))
    counts[f"{name}: agreement"] += 1
    if (fast.witness, fast.candidates_tested, fast.contact, fast_rays) != (slow.witness, slow.candidates_tested,
                                                                            slow.contact, slow_rays):
        bad.append(f"agreement: {where}: fast {fast.witness} ({fast.candidates_tested} tested) != former "
                   f"{slow.witness} ({slow.candidates_tested} tested)")
    back, _ = _search(b, a, labelled, discs, grazing, True)
    counts[f"{name}: symmetry"] += 1
    if (back.witness is None) != (fast.witness is None):
        bad.append(f"symmetry: {where}: A->B clear={fast.witness is not None}, B->A clear={back.witness is not None}")
    moved = list(args)
    moved[-3:-1] = off2
    a2, b2, labelled2, discs2 = build(*moved)
    there, _ = _search(a2, b2, labelled2, discs2, grazing, True)
    counts[f"{name}: translation"] += 1
    if (there.witness is None) != (fast.witness is None):
        bad.append(f"translation: {where} moved to offset {off2}: clear={there.witness is not None} there, "
                   f"{fast.witness is not None} here")
    return bad


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=1000, help="random tables (default 1000)")
    ap.add_argument("--degenerate", type=int, default=4000, help="tables built on a tie (default 4000)")
    ap.add_argument("--seed", type=int, default=0, help="first random table; seed of the tie cases")
    ap.add_argument("--budget", type=float, default=0.0,
                    help="stop the random tables after this many seconds of wall time (the count reached is printed)")
    ap.add_argument("--progress", type=int, default=0, help="print a line every this many random tables")
    ap.add_argument("--quick", action="store_true", help="4 random tables and 40 tie cases (the CI slice)")
    a = ap.parse_args(argv)
    if a.quick:
        a.tables, a.degenerate = 4, 40
    from collections import Counter

    counts: Counter = Counter()
    bad: list[str] = []
    print(f"LoF fast path == exact former path: {a.tables} random tables from seed {a.seed}, {a.degenerate} tables "
          f"built on a tie; load {os.getloadavg()[0]:.1f}")
    t0 = time.process_time()
    for k in range(a.degenerate):
        bad += check_degenerate(k, a.seed, counts)
    t1 = time.process_time()
    wall0, done = time.monotonic(), 0
    for s in range(a.seed, a.seed + a.tables):
        if a.budget and time.monotonic() - wall0 > a.budget:
            print(f"  stopped by --budget {a.budget:.0f} s after {done} random tables")
            break
        bad += check_table(s, counts)
        done += 1
        if a.progress and done % a.progress == 0:
            print(f"  ... {done} tables, {len(bad)} differences, CPU {time.process_time() - t1:.0f} s", flush=True)
    t2 = time.process_time()
    counts["random tables"] = done
    for key in sorted(counts):
        print(f"  {key}: {counts[key]:,} compared")
    for line in bad[:50]:
        print("  DIFFERS " + line)
    print(f"{len(bad)} differences ({'MET' if not bad else 'MISSED'}: the fast path keeps the exact answer); CPU "
          f"{t2 - t1:.1f} s random tables, {t1 - t0:.1f} s tie cases; load {os.getloadavg()[0]:.1f}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
