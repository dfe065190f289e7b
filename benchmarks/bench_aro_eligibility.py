"""ARO eligibility along a 6-hexagon Move for 20 Models: the exact route check vs LoF at densely sampled points.

Run from the repository root::

    PYTHONPATH=$PWD python benchmarks/bench_aro_eligibility.py [--boards 3] [--models 20] [--step 0.02] [--quick]

Sections: Activating a Miner › Orders and AROs (a Reactive Miner with LoF to the Active Miner at some point of its
Move may declare an ARO); Common Skills › Move (360° LoF while moving).

For each random board (radius 8, scenery, hexagons without tile, 20 Models) a mover and a route through the centres
of 6 successive neighbouring hexagons (clear of scenery, bases and holes) are picked; then, for every other Model:

* exact: :func:`explorer.games.tagraid.lof.lof_during_move` (every moment of every leg, candidate lines over the
  swept capsule), as the ARO check of the Order Expenditure Sequence uses it;
* baseline: the full LoF rule (:func:`explorer.games.tagraid.lof.line_of_fire`, observer to mover) at points sampled
  every ``--step`` board units along the route: the mover (360° while moving) is placed at each point once and every
  observer is checked there (``lof_arc_part = any_part``, as the route check reads it).

Agreement: wherever the sampler finds LoF at a point the exact check must say "eligible" (``sampled-only`` must be
0); "exact-only" counts observers that see the mover only between two samples (a glimpse the sampler missed). Both
are timed in the same run; the ratio is the result (target: exact and >= 10x faster).
"""

from __future__ import annotations

import argparse
import math
import sys
import time

import numpy as np

from explorer.errors import ScenarioError
from dataclasses import replace

from explorer.games.tagraid.lof import line_of_fire, lof_during_move
from explorer.games.tagraid.options import rulings
from explorer.games.tagraid.random_tables import random_table
from explorer.hexgrid import Layout, neighbors

L = Layout()


def find_route(t, rng, rul, tries: int = 400):
    """A mover and a route (its position, then the centres of 6 successive neighbouring hexagons) clear of
    obstacles, or ``None``."""
    ids = sorted(t.models)
    for _ in range(tries):
        mover = ids[rng.integers(len(ids))]
        m = t.model(mover)
        h = L.pixel_to_hex(m.center)
        route = [m.center]
        seen = {h}
        ok = True
        for _ in range(6):
            options = [n for n in neighbors(h) if n not in seen and n in t.tiles and t.tiles[n]]
            if not options:
                ok = False
                break
            h = options[rng.integers(len(options))]
            seen.add(h)
            route.append(L.hex_to_pixel(h))
        if not ok:
            continue
        other = next(x for x in ids if x != mover)
        try:
            lof_during_move(t, mover, route, other, rul)
        except ScenarioError:
            continue
        return mover, route
    return None


def sample(route, step: float):
    pts = [route[0]]
    for a, b in zip(route, route[1:]):
        n = max(1, math.ceil(math.dist(a, b) / step))
        pts += [(a[0] + (b[0] - a[0]) * k / n, a[1] + (b[1] - a[1]) * k / n) for k in range(1, n + 1)]
    return pts


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--boards", type=int, default=3)
    ap.add_argument("--models", type=int, default=20)
    ap.add_argument("--radius", type=int, default=8)
    ap.add_argument("--step", type=float, default=0.02, help="sampling step along the route, board units")
    ap.add_argument("--quick", action="store_true", help="one small board (correctness, seconds)")
    args = ap.parse_args()
    if args.quick:
        args.boards, args.models, args.radius, args.step = 1, 6, 4, 0.25
    rul = rulings({"lof_arc_part": "any_part"})
    tot = dict(observers=0, both=0, neither=0, exact_only=0, sampled_only=0, t_exact=0.0, t_sampled=0.0, points=0)
    print(f"{'board':>5} {'models':>6} {'route':>6} {'points':>6} {'eligible':>8} {'exact only':>10} "
          f"{'sampled only':>12} {'exact ms':>9} {'sampled ms':>10} {'ratio':>6}")
    for b in range(args.boards):
        t = random_table(100 + b, radius=args.radius, n_models=args.models, n_scenery=args.radius * 3,
                         n_holes=args.radius * 2, extent=args.radius * 1.4, scenery_size=(0.2, 1.2),
                         scenery_height=None, silhouettes=(5, 7, 8), n_sides=4, max_tries=5000, layout=L)
        found = find_route(t, np.random.default_rng(b), rul)
        if found is None:
            print(f"{b:>5} no clear 6-hexagon route found")
            continue
        mover, route = found
        pts = sample(route, args.step)
        observers = [x for x in sorted(t.models) if x != mover]
        t0 = time.perf_counter()
        exact = {o: lof_during_move(t, mover, route, o, rul).observer_sees_mover for o in observers}
        t1 = time.perf_counter()
        sampled = dict.fromkeys(observers, False)
        m = t.model(mover)
        for p in pts:
            tp = t.with_model(replace(m, x=p[0], y=p[1], hex=None, declared_move=True))
            for o in observers:
                if not sampled[o] and line_of_fire(tp, o, mover, rul, explain=False).has_lof:
                    sampled[o] = True
        t2 = time.perf_counter()
        c = dict(both=0, neither=0, exact_only=0, sampled_only=0)
        for o in observers:
            e, s = exact[o], sampled[o]
            c["both" if e and s else "neither" if not e and not s else "exact_only" if e else "sampled_only"] += 1
        for k in c:
            tot[k] += c[k]
        tot["observers"] += len(observers)
        tot["t_exact"] += t1 - t0
        tot["t_sampled"] += t2 - t1
        tot["points"] += len(pts)
        length = sum(math.dist(a, b) for a, b in zip(route, route[1:]))
        print(f"{b:>5} {len(t.models):>6} {length:>6.2f} {len(pts):>6} {c['both'] + c['exact_only']:>8} "
              f"{c['exact_only']:>10} {c['sampled_only']:>12} {(t1 - t0) * 1e3:>9.1f} {(t2 - t1) * 1e3:>10.1f} "
              f"{(t2 - t1) / max(t1 - t0, 1e-9):>6.1f}")
    ratio = tot["t_sampled"] / max(tot["t_exact"], 1e-9)
    print(f"observers {tot['observers']}, sample points {tot['points']} (every {args.step} board units)")
    print(f"sampled-only (exact missed, must be 0): {tot['sampled_only']}")
    print(f"exact-only (glimpses between samples): {tot['exact_only']}")
    print(f"exact {tot['t_exact'] * 1e3:.1f} ms, sampled {tot['t_sampled'] * 1e3:.1f} ms: exact is {ratio:.1f}x faster")
    if tot["sampled_only"]:
        print("MISMATCH: the exact check missed LoF the sampler found")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
