"""Mass Effect distances from every hex: one multi-source pass (``geometry.distance_maps``) against one
breadth-first search per source (``geometry.distance_map`` for every hex), and the Strategy Pool's exact odds against
the former exact path, measured in the same run (issue 24).

Run: PYTHONPATH=$PWD python benchmarks/bench_me_distances.py [--width 40 --height 30 --repeat 3] [--quick]

The map is ``bench_me_geometry.random_mission_map`` (40 x 30 = 1,180 hexes after its Out of Bounds holes, walls,
doors, obstacles, a High Ground platform). Each run uses a fresh map value (empty caches). Two rows: the map's
adjacency list built inside the timing (what a first question on a new map costs; each path builds it its own way:
the former path with ``geometry.FORMER_ADJACENCY``, an Edge and a feature look-up per neighbouring pair), and built
beforehand (the distances alone). The adjacency lists of both builders are compared too. CPU time (``time.process_time``), best of ``--repeat``. The answers are compared
for every source in every mode. Goal: < 100 ms at 1,180 hexes.
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
import time
from dataclasses import replace

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from bench_me_geometry import random_mission_map  # noqa: E402

from explorer.games.masseffect import geometry as G  # noqa: E402


def cpu(fn, repeat: int) -> tuple[float, object]:
    best, out = float("inf"), None
    for _ in range(repeat):
        out = None
        gc.collect()  # no collection of an earlier run's garbage (the compared maps: 1.4 million entries) inside
        t0 = time.process_time()
        out = fn()
        best = min(best, time.process_time() - t0)
    return best, out


def strategy_odds(a) -> bool:
    """The Strategy Pool's exact odds table (12 Strategy dice + 2 Paragon dice: 14 rolled), cold caches, against the
    former exact path (``strategy_odds.FORMER_PATH``); the tables must be equal."""
    from explorer.games.masseffect import strategy_odds as SO

    pool = (8, 1) if a.quick else (12, 2)

    def run(former: bool):
        SO.FORMER_PATH = former
        try:
            for f in (SO.final_counts, SO._fillable, SO._fillable_former, SO._capped_multinomials, SO._at_least,
                      SO._hall_sets, SO._accepted):
                f.cache_clear()
            return SO.strategy_odds_table(*pool[:1], paragon=pool[1])
        finally:
            SO.FORMER_PATH = False

    t_new, new = cpu(lambda: run(False), a.repeat)
    t_old, old = cpu(lambda: run(True), a.repeat)
    goal = "" if a.quick else (" MET" if t_new < 0.02 else " MISSED") + " (< 20 ms)"
    print(f"Strategy Pool exact odds, {pool[0]} + {pool[1]} Paragon dice (cold caches): {t_new * 1e3:.1f} ms, former "
          f"path {t_old * 1e3:.1f} ms, ratio {t_old / t_new:.1f}x, {'identical' if new == old else 'MISMATCH'}{goal}")
    return new == old


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--width", type=int, default=40)
    ap.add_argument("--height", type=int, default=30)
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--quick", action="store_true", help="a 12 x 9 map, one run (correctness; used by the tests)")
    a = ap.parse_args(argv)
    if a.quick:
        a.width, a.height, a.repeat = 12, 9, 1
    m = random_mission_map(a.width, a.height, a.seed)
    hs = sorted(m.hexes)
    print(f"Mass Effect distances from every hex: {len(hs)} hexes, {len(m.features)} edge features; "
          f"load {os.getloadavg()[0]:.1f}; CPU time, best of {a.repeat}")
    ok = True
    G.FORMER_ADJACENCY = True
    try:
        former = [G._succ(replace(m), mode) for mode in ("adjacent", "movement", "ignore_walls")]
    finally:
        G.FORMER_ADJACENCY = False
    now = [G._succ(replace(m), mode) for mode in ("adjacent", "movement", "ignore_walls")]
    same = former == now
    ok &= same
    print(f"  adjacency lists (three modes), former and new builder: {'identical' if same else 'MISMATCH'}")
    for kw in (dict(), dict(ignore_walls=True), dict(rulings={"distance_elevation": "movement"})):
        new = G.distance_maps(replace(m), **kw)
        old = {h: G.distance_map(m, h, **kw) for h in hs}
        same = all(dict(new[h]) == old[h] for h in hs)
        ok &= same
        print(f"  {kw or 'default'}: {'identical' if same else 'MISMATCH'} for all {len(hs)} sources")
    del new, old  # not alive (nor walked by the collector) during the timings
    for warm in (False, True):
        def fresh():
            mm = replace(m)
            if warm:
                G._succ(mm, "adjacent")
            return mm

        G.FORMER_ADJACENCY = True  # the former code: its adjacency list and one search per source
        try:
            maps = [fresh() for _ in range(a.repeat)]
            t_old, _ = cpu(lambda: (lambda mm: {h: G.distance_map(mm, h) for h in hs})(maps.pop()), a.repeat)
        finally:
            G.FORMER_ADJACENCY = False
        maps = [fresh() for _ in range(a.repeat)]
        t_new, _ = cpu(lambda: G.distance_maps(maps.pop()), a.repeat)
        label = "adjacency built beforehand" if warm else "fresh map (adjacency built in the timing)"
        goal = "" if a.quick else (" MET" if t_new < 0.1 else " MISSED") + " (< 100 ms)"
        print(f"{label:42}: one pass {t_new * 1e3:8.1f} ms, one search per source {t_old * 1e3:8.1f} ms, "
              f"ratio {t_old / t_new:5.1f}x{goal}")
    ok &= strategy_odds(a)
    if not ok:
        print("MISMATCH", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
