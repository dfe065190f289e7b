"""Property check (issue 24): the parts of the Line of Fire fast path added in session 12 give, on many random
tables, exactly what they replace. Run from the repository root::

    PYTHONPATH=$PWD python benchmarks/fuzz_lof_parts.py [--tables 1000] [--seed 0]

On each random table (radius 4, 6-9 Models, scenery, hexagons without tile; both grazing readings alternately):

* ``geometry._union_edges`` (one get_rings/get_coordinates call) == the ring-by-ring walk it replaced, on the union
  of the table's polygons and on unions of random subsets of them;
* ``lof_analysis._near_static`` (one STRtree ``dwithin`` query per kind of piece, every capsule at once) == the
  per-pair ``shapely.dwithin`` tests of ``local_table``, for every pair of Models;
* ``geometry._features`` (arrays on the indexed path) == the list build of ``_obstacle_features`` and
  ``_contact_points``, row by row, bit for bit, for every search of the table;
* ``geometry.shortest_clear_segments`` reusing the set-ups of ``find_clear_segments`` (``keep=``/``searches=``) ==
  ``shortest_clear_segment`` of each pair alone, bit for bit;
* every ordered pair's LoF on the fast path == on the former path (``fast_path(False)``), as
  ``bench_lof_fast.py --agree`` does.

Prints one line per check with the count of cases compared and exits 1 on any difference.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np
import shapely

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from explorer.games.tagraid import geometry as G  # noqa: E402
from explorer.games.tagraid import lof_analysis as LA  # noqa: E402
from explorer.games.tagraid.lof import line_of_fire  # noqa: E402
from explorer.games.tagraid.options import rulings  # noqa: E402
from explorer.games.tagraid.random_tables import random_table  # noqa: E402
from explorer.hexgrid import Layout  # noqa: E402

L = Layout()


def ring_walk_edges(union):
    """The former ``geometry._union_edges``: every ring edge of the polygons of ``union``, ring by ring."""
    p0s, p1s = [], []
    for part in getattr(union, "geoms", [union]):
        if part.is_empty or part.geom_type != "Polygon":
            continue
        for ring in [part.exterior, *part.interiors]:
            pts = np.asarray(ring.coords)
            if len(pts) < 2:
                continue
            p0s.append(pts[:-1])
            p1s.append(pts[1:])
    if not p0s:
        return np.zeros((0, 2)), np.zeros((0, 2)), None
    p0, p1 = np.concatenate(p0s), np.concatenate(p1s)
    return p0, p1, shapely.linestrings(np.stack([p0, p1], axis=1))


def same_edges(a, b) -> bool:
    if (a[2] is None) != (b[2] is None):
        return False
    if a[0].tobytes() != b[0].tobytes() or a[1].tobytes() != b[1].tobytes() or a[0].shape != b[0].shape:
        return False
    return a[2] is None or bool(np.all(shapely.equals_exact(a[2], b[2], 0.0)))


def table_of(seed: int):
    rng = np.random.default_rng(seed)
    return random_table(seed, radius=4, n_models=int(rng.integers(6, 10)), n_scenery=int(rng.integers(4, 14)),
                        n_holes=int(rng.integers(0, 9)), scenery_size=(0.1, 1.2), silhouettes=(3, 5, 7, 8),
                        n_sides=2, layout=L)


def check_table(seed: int, counts: dict) -> list[str]:
    """Every check on the random table ``seed``; returns the differences found (empty when none)."""
    bad: list[str] = []
    grazing = bool(seed % 2)
    rul = rulings({"lof_grazing": "touching_blocks"}) if grazing else rulings()
    t = table_of(seed)
    ids = sorted(t.models)
    ms = [t.models[i] for i in ids]
    rng = np.random.default_rng(seed + 1)
    # 1. union edges
    ix = t.polygon_index()
    if len(ix.geoms):
        sets = [list(range(len(ix.geoms)))] + [sorted(rng.choice(len(ix.geoms), size=int(rng.integers(1, len(ix.geoms) + 1)),
                                                                 replace=False).tolist()) for _ in range(3)]
        for ids_ in sets:
            u = shapely.union_all(list(ix.geoms[ids_]))
            for g in (u, G._eroded(u, G.TOL)):
                counts["union edges"] += 1
                if not same_edges(G._union_edges(g), ring_walk_edges(g)):
                    bad.append(f"table {seed}: union edges differ for polygons {ids_}")
    # 2. static pieces near every capsule
    static = LA._Static(t)
    pairs = [(s, u) for k, s in enumerate(ms) for u in ms[k + 1:]]
    if pairs:
        caps = [LA._capsule_axis(t, s, u) for s, u in pairs]
        axes = np.empty(len(caps), dtype=object)
        axes[:] = [c[0] for c in caps]
        got = LA._near_static(static, axes, np.array([c[1] for c in caps], dtype=float))
        for (s, u), near in zip(pairs, got):
            ref = LA.local_table(t, s, u, (), static)
            loc = LA.local_table(t, s, u, (), static, near=near)
            counts["near static pieces"] += 1
            if (ref.scenery, list(ref._hole_polys), ref._off_board is None) != \
                    (loc.scenery, list(loc._hole_polys), loc._off_board is None):
                bad.append(f"table {seed}: static pieces near {s.id}-{u.id} differ")
    # 3. features as arrays; 4. range searches reusing the LoF set-ups
    items = [(t.disc(s), t.disc(u), t.obstacles(s, u, rul.copy())[0]) for s in ms for u in ms if s is not u]
    keep: list = []
    found = G.find_clear_segments(items, touching_blocks=grazing, keep=keep)
    tol = G.TOL
    grow = 2 * tol if grazing else 0.0
    for (a, b, obs), srch in zip(items, keep):
        if srch is None:
            continue
        local = srch.local
        union = local._union if local._union is not None else local.union
        region = obs.index.regions([(a, b)], 10 * tol)[0][0]
        feats = [(a.x, a.y, a.r), (b.x, b.y, b.r)] + G._obstacle_features(local, union, region, grow)
        if not union.is_empty:
            for d in (a, b):
                feats += [(x, y, grow) for x, y in G._contact_points(d, union, tol)]
        ref = np.array(feats, dtype=float)
        counts["features"] += 1
        if ref.shape != srch.features.shape or ref.tobytes() != srch.features.tobytes():
            bad.append(f"table {seed}: features differ for a search")
    clear = [(it, s) for it, s, r in zip(items, keep, found) if r.witness is not None and not r.contact]
    if clear:
        got = G.shortest_clear_segments([it for it, _ in clear], touching_blocks=grazing, searches=[s for _, s in clear])
        ref = [G.shortest_clear_segment(a, b, o, touching_blocks=grazing) for (a, b, o), _ in clear]
        counts["range searches"] += len(clear)
        if got != ref:
            bad.append(f"table {seed}: Range Ruler segments differ")
    # 5. LoF of every ordered pair, fast path == former path
    facts = []
    for fast in (True, False):
        with G.fast_path(fast):
            tt = table_of(seed)
            facts.append([(r.has_lof, r.reason, r.witness, r.blocked_by, r.candidates_tested)
                          for r in (line_of_fire(tt, x, y, rul.copy(), explain=False) for x in ids for y in ids
                                    if x != y)])
    counts["LoF pairs, fast == former"] += len(facts[0])
    if facts[0] != facts[1]:
        bad.append(f"table {seed}: LoF differs between the fast and the former path")
    return bad


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=0, help="first table seed")
    a = ap.parse_args(argv)
    counts = {k: 0 for k in ("union edges", "near static pieces", "features", "range searches",
                             "LoF pairs, fast == former")}
    bad: list[str] = []
    t0 = time.perf_counter()
    for seed in range(a.seed, a.seed + a.tables):
        bad += check_table(seed, counts)
    for k, v in counts.items():
        print(f"{k}: {v} compared")
    print(f"{a.tables} random tables, {len(bad)} differences ({time.perf_counter() - t0:.0f} s)")
    for line in bad[:20]:
        print("MISMATCH", line)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
