"""Exact LoF vs the 64-point boundary-sampling baseline, measured in the same run.

Run from the repository root::

    PYTHONPATH=$PWD python benchmarks/bench_lof.py [--boards 4] [--models 20] [--radius 10]

For each random board (a hexagonal board of radius 10 = 331 hexagons, some without tiles, random scenery, 20 Models)
it times, for every unordered pair of Models, the geometric part of LoF (is there a clear segment between the two
bases?) with the exact candidate-line method and with the sampler (64 points on each base edge, 4096 segments), and
counts agreement: where the sampler finds a segment the exact method must too; where only the exact method finds one,
the sampler missed a gap. It then times the full rule (arcs, exceptions) for all ordered pairs of the 20 Models.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from explorer.games.tagraid.geometry import sampled_clear_segment
from explorer.games.tagraid.lof import TableTop, clear_segment, line_of_fire
from explorer.games.tagraid.random_tables import random_table
from explorer.games.tagraid.options import rulings
from explorer.hexgrid import Layout

L = Layout()


def random_board(seed: int, radius: int, n_models: int, n_scenery: int, n_holes: int) -> TableTop:
    return random_table(seed, radius=radius, n_models=n_models, n_scenery=n_scenery, n_holes=n_holes,
                        extent=radius * 1.5, scenery_size=(0.2, 1.5), scenery_height=None, silhouettes=(5, 7, 8),
                        n_sides=4, max_tries=5000, layout=L)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--boards", type=int, default=4)
    ap.add_argument("--models", type=int, default=20)
    ap.add_argument("--radius", type=int, default=10)
    ap.add_argument("--scenery", type=int, default=40)
    ap.add_argument("--holes", type=int, default=30)
    ap.add_argument("--quick", action="store_true", help="one small board (correctness check, seconds)")
    args = ap.parse_args()
    if args.quick:
        args.boards, args.models, args.radius, args.scenery, args.holes = 1, 8, 5, 12, 8
    rul = rulings()
    rows = []
    tot = dict(pairs=0, both=0, neither=0, exact_only=0, sample_only=0, t_exact=0.0, t_sample=0.0, t_rule=0.0,
               ordered=0)
    for b in range(args.boards):
        t = random_board(b, args.radius, args.models, args.scenery, args.holes)
        ids = sorted(t.models)
        pairs = [(a, c) for i, a in enumerate(ids) for c in ids[i + 1:]]
        te = ts = 0.0
        counts = dict(both=0, neither=0, exact_only=0, sample_only=0)
        for a, c in pairs:
            _, obs, _ = clear_segment(t, a, c, rul)        # obstacles (shared by both methods, not timed)
            t0 = time.perf_counter()
            res, _, _ = clear_segment(t, a, c, rul)
            t1 = time.perf_counter()
            smp = sampled_clear_segment(t.disc(a), t.disc(c), obs, touching_blocks=False, n=64)
            t2 = time.perf_counter()
            te += t1 - t0
            ts += t2 - t1
            e, s = res.witness is not None, smp is not None
            counts["both" if e and s else "neither" if not e and not s else "exact_only" if e else "sample_only"] += 1
        t0 = time.perf_counter()
        n_lof = sum(line_of_fire(t, a, c, rul, explain=False).has_lof for a in ids for c in ids if a != c)
        t_rule = time.perf_counter() - t0
        rows.append((b, len(t.tiles), len(ids), len(pairs), counts, te, ts, t_rule, n_lof))
        for k in counts:
            tot[k] += counts[k]
        tot["pairs"] += len(pairs)
        tot["t_exact"] += te
        tot["t_sample"] += ts
        tot["t_rule"] += t_rule
        tot["ordered"] += len(ids) * (len(ids) - 1)

    hdr = (f"{'board':>5} {'hexes':>5} {'models':>6} {'pairs':>5} {'both':>5} {'neither':>7} {'exact only':>10} "
           f"{'sample only':>11} {'exact ms/pair':>13} {'sample ms/pair':>14} {'speed-up':>8} "
           f"{'all-pairs rule s':>16} {'LoF':>4}")
    print(hdr)
    print("-" * len(hdr))
    for b, nh, nm, np_, c, te, ts, tr, nl in rows:
        print(f"{b:>5} {nh:>5} {nm:>6} {np_:>5} {c['both']:>5} {c['neither']:>7} {c['exact_only']:>10} "
              f"{c['sample_only']:>11} {1e3 * te / np_:>13.2f} {1e3 * ts / np_:>14.2f} {ts / te:>7.1f}x "
              f"{tr:>16.2f} {nl:>4}")
    print("-" * len(hdr))
    print(f"total pairs {tot['pairs']}: agreement where sampling is decisive (sampler found LoF): "
          f"{tot['both']}/{tot['both'] + tot['sample_only']}; sampler-only (exact missed, must be 0): "
          f"{tot['sample_only']}; gaps the sampler missed: {tot['exact_only']}")
    print(f"exact {1e3 * tot['t_exact'] / tot['pairs']:.2f} ms/pair vs sampling "
          f"{1e3 * tot['t_sample'] / tot['pairs']:.2f} ms/pair: exact is "
          f"{tot['t_sample'] / tot['t_exact']:.1f}x faster")
    print(f"full rule, all ordered pairs of {args.models} Models on a {rows[0][1]}-hex board: "
          f"{tot['t_rule'] / len(rows):.2f} s per board "
          f"({1e3 * tot['t_rule'] / tot['ordered']:.2f} ms per ordered pair)")

    slits(8 if args.quick else 30)
    if tot["sample_only"]:
        raise SystemExit("MISMATCH: the sampler found LoF the exact method missed")


def slits(n: int = 30, seed: int = 7) -> None:
    """Thin slits (0.0001-0.005 hex units wide) in a wall between two bases, random directions."""
    from shapely import affinity
    from shapely.geometry import Point, box

    from explorer.games.tagraid.geometry import Disc, Obstacles, find_clear_segment

    rng = np.random.default_rng(seed)
    r = 27.5 / 140
    exact_found = sampled_found = 0
    te = ts = 0.0
    for _ in range(n):
        w = rng.uniform(1e-4, 5e-3)
        off = rng.uniform(-(r - 2 * w), r - 2 * w)
        ang = rng.uniform(0, 360)
        walls = [affinity.rotate(p, ang, origin=(0, 0)) for p in (box(1.9, off + w / 2, 2.1, 3),
                                                                  box(1.9, -3, 2.1, off - w / 2))]
        b = affinity.rotate(Point(4, 0), ang, origin=(0, 0))
        A, B = Disc(0, 0, r), Disc(b.x, b.y, r)
        obs = Obstacles([("w1", walls[0]), ("w2", walls[1])])
        t0 = time.perf_counter()
        exact_found += find_clear_segment(A, B, obs, touching_blocks=False).witness is not None
        t1 = time.perf_counter()
        sampled_found += sampled_clear_segment(A, B, obs, touching_blocks=False, n=64) is not None
        ts += time.perf_counter() - t1
        te += t1 - t0
    if exact_found != n:
        raise SystemExit("MISMATCH: the exact method missed a slit")
    print(f"thin slits ({n}, each with a clear line): exact found {exact_found}/{n} "
          f"({1e3 * te / n:.2f} ms each), 64-point sampling found {sampled_found}/{n} ({1e3 * ts / n:.2f} ms each)")


if __name__ == "__main__":
    main()
