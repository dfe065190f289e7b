"""Mass Effect mission-map geometry: all-pairs Line of Fire and all distance maps on a ~300-hex map, against a naive
per-pair baseline measured in the same run.

Run: PYTHONPATH=$PWD python benchmarks/bench_me_geometry.py [--width 20 --height 15 --pairs 3000 --seed 3]

* fast, Line of Fire: ``geometry.lof_map`` on a fresh map value (no warm cache): six line walks per hex, stopping at
  the first blocker.
* naive, Line of Fire: ``geometry.line_of_fire`` for each (attacker, target) pair, recomputed from scratch; timed on a
  fixed random sample of pairs and scaled to all n² pairs (the full loop would take many seconds).
* fast, distances: ``geometry.distance_map`` from every hex on a fresh map value (one BFS per source, cached).
* naive, distances: ``networkx.shortest_path_length`` for each pair on the adjacency graph (no distance-map reuse),
  sampled and scaled the same way.
The fast results are checked against the naive ones on the sample.
"""

from __future__ import annotations

import argparse
import random
from dataclasses import replace

import networkx as nx
from _timing import best

from explorer.hexgrid import Edge, Hex, neighbors
from explorer.games.masseffect import geometry as G
from explorer.games.masseffect.map import EdgeFeature, FeatureKind, MissionMap


def random_mission_map(width: int = 20, height: int = 15, seed: int = 3) -> MissionMap:
    """A rectangle of ``width x height`` hexes (offset rows) with random walls, doors, obstacles and a High Ground
    platform bounded by Elevation Change icons; a few Out of Bounds holes."""
    rng = random.Random(seed)
    hexes = {Hex(c - r // 2, r) for r in range(height) for c in range(width)}
    for h in rng.sample(sorted(hexes), max(1, len(hexes) // 60)):
        hexes.discard(h)
    c0, r0 = width // 2, height // 3
    high = {Hex(c - r // 2, r) for r in range(r0, r0 + 3) for c in range(c0, c0 + 4)} & hexes
    feats: dict[Edge, EdgeFeature] = {}
    for h in high:
        for n in neighbors(h):
            if n in hexes and n not in high:
                feats[Edge(h, n)] = EdgeFeature(Edge(h, n), FeatureKind.ELEVATION, high=h)
    inner = sorted({Edge(h, n) for h in hexes for n in neighbors(h) if n in hexes} - set(feats))
    for e in rng.sample(inner, len(inner) // 8):
        k = rng.choice([FeatureKind.WALL, FeatureKind.WALL, FeatureKind.DOOR, FeatureKind.OBSTACLE])
        feats[e] = EdgeFeature(e, k, locked=rng.random() < 0.5 if k == FeatureKind.DOOR else False)
    return MissionMap(frozenset(hexes), features=tuple(feats.values()), high_ground=frozenset(high),
                      name="bench")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--width", type=int, default=20)
    ap.add_argument("--height", type=int, default=15)
    ap.add_argument("--pairs", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args(argv)
    m = random_mission_map(a.width, a.height, a.seed)
    hs = sorted(m.hexes)
    n = len(hs)
    rng = random.Random(a.seed)
    sample = [(rng.choice(hs), rng.choice(hs)) for _ in range(a.pairs)]
    fresh = [replace(m) for _ in range(2 * a.repeat + 2)]   # new values: empty caches

    def fast_lof():
        mm = fresh.pop()
        return G.lof_map(mm)

    def naive_lof():
        return [bool(G.line_of_fire(m, x, y)) for x, y in sample]

    def fast_dist():
        mm = fresh.pop()
        return {h: G.distance_map(mm, h) for h in hs}

    graph = G.adjacency_graph(m)

    def naive_dist():
        out = []
        for x, y in sample:
            try:
                out.append(nx.shortest_path_length(graph, x, y))
            except nx.NetworkXNoPath:
                out.append(None)
        return out

    # correctness on the sample
    lm, dm = G.lof_map(m), {h: G.distance_map(m, h) for h in hs}
    assert naive_lof() == [y in lm[x] for x, y in sample]
    assert naive_dist() == [dm[x].get(y) for x, y in sample]

    t_fast_lof = best(fast_lof, a.repeat)
    t_naive_lof = best(naive_lof, a.repeat) * (n * n) / len(sample)
    t_fast_dist = best(fast_dist, a.repeat)
    t_naive_dist = best(naive_dist, a.repeat) * (n * n) / len(sample)
    print(f"map: {n} hexes, {len(m.features)} edge features ({n * n} ordered pairs; naive timed on {len(sample)} "
          "pairs and scaled)")
    print(f"all-pairs Line of Fire, lof_map        : {t_fast_lof * 1e3:9.1f} ms")
    print(f"all-pairs Line of Fire, per-pair naive : {t_naive_lof * 1e3:9.1f} ms")
    print(f"all distance maps, cached BFS          : {t_fast_dist * 1e3:9.1f} ms")
    print(f"all distances, per-pair networkx naive : {t_naive_dist * 1e3:9.1f} ms")
    print(f"ratio Line of Fire naive / lof_map     : {t_naive_lof / t_fast_lof:7.1f}x")
    print(f"ratio distances naive / distance maps  : {t_naive_dist / t_fast_dist:7.1f}x")
    warm = best(lambda: G.lof_map(m), a.repeat)
    print(f"lof_map again on the same map (cached) : {warm * 1e6:9.1f} µs")


if __name__ == "__main__":
    main()
