"""Benchmark (issue 24): this tree's Line of Fire against a baseline tree's, measured in the same run.

``bench_lof_fast.py`` compares the fast path with the former path *of the same code*; this script compares two
checkouts (e.g. the code at the start of a session with the code now), each row run alternately in a fresh Python
process of each tree, so that both see the same load. Make the baseline checkout with e.g.
``git archive <commit> | tar -x -C /tmp/lof-base``, then, from the repository root::

    PYTHONPATH=$PWD python benchmarks/bench_lof_vs_tree.py --baseline /tmp/lof-base [--rounds 5]

Rows (the boards of ``bench_lof_fast.py``: radius 10, 331 hexagons, 40 scenery pieces, 30 hexagons without tile):
all ordered pairs of 20 and of 40 Models (the full rule, ``line_of_fire``, fresh table), the incremental analysis
(``LofAnalysisCache.all_pairs``: LoF, Range, Partial Cover) after one Model moves (median of 9 moves), the cold
analysis of every pair, and the warm analysis after one ruling flips (``flip_*``: lof_grazing, scenery_height on a
board whose scenery is all tall, range_measurement, mod_cap, which no verdict reads, and the two arc readings,
lof_arc_part = seen_part_in_arc and lof_shooter_arc = front_half, which clip the searches; goal: a page
interaction's 100 ms). CPU time (``time.process_time``); each round gives one time per tree and row, the table
prints the median over the rounds and the ratio baseline / this tree. Each process also returns a digest of its
answers; the two trees' digests must be equal (printed as "identical").

``--fuzz N [--seed S]`` times nothing: it compares the two trees' answers on N random tables (those of
``fuzz_lof_parts.py``: radius 4, 6-9 Models, five sets of readings in turn): every ordered pair's LoF with its
explanation (rays, blockers, detail), and ``LofAnalysisCache.all_pairs`` (LoF, Range Ruler, Partial Cover, cut rays)
cold and after three random moves, one digest per table, the tables' readings in turn: the defaults,
``lof_grazing = touching_blocks``, ``lof_arc_part = seen_part_in_arc``, ``lof_shooter_arc = front_half`` and all three
(the arc readings clip the searches). A change meant to keep every answer must print 0 differ.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

_CHILD = r'''
import hashlib, json, statistics, sys, time
import numpy as np
FUZZ_READINGS = ({}, {"lof_grazing": "touching_blocks"}, {"lof_arc_part": "seen_part_in_arc"},
                 {"lof_shooter_arc": "front_half"},
                 {"lof_arc_part": "seen_part_in_arc", "lof_shooter_arc": "front_half", "lof_grazing": "touching_blocks"})
from dataclasses import replace
import explorer
from explorer.errors import ScenarioError
from explorer.games.tagraid.lof import line_of_fire
from explorer.games.tagraid.lof_analysis import LofAnalysisCache
from explorer.games.tagraid.lof_views import table_with_models
from explorer.games.tagraid.options import rulings as make_rulings
from explorer.games.tagraid.random_tables import random_table
from explorer.hexgrid import Layout
assert explorer.__file__.startswith(sys.argv[2]), (explorer.__file__, sys.argv[2])
L = Layout()
def board(seed, radius, n_models, n_scenery, n_holes):  # as bench_lof_fast.board
    return random_table(seed, radius=radius, n_models=n_models, n_scenery=n_scenery, n_holes=n_holes,
                        extent=radius * 1.5, scenery_size=(0.2, 1.5), scenery_height=None, silhouettes=(5, 7, 8),
                        n_sides=4, max_tries=5000, layout=L)
def all_pairs(table, rul):
    ids = sorted(table.models)
    return [line_of_fire(table, a, b, rul, explain=False) for a in ids for b in ids if a != b]
def facts(results):
    return [(r.has_lof, r.reason, r.witness, r.blocked_by, r.candidates_tested) for r in results]
def _nudged(table, rng, turn):  # as bench_lof_incremental._nudged (moves only)
    ids = list(table.models)
    for _ in range(200):
        mid = ids[rng.integers(len(ids))]
        m = table.models[mid]
        new = m.moved_to(m.x + float(rng.uniform(-0.4, 0.4)), m.y + float(rng.uniform(-0.4, 0.4)))
        try:
            return table_with_models(table, {**table.models, mid: new}), mid
        except ScenarioError:
            continue
    raise RuntimeError("no legal nudge found")
row = sys.argv[1]
rul = make_rulings()
def digest(x):
    return hashlib.sha256(repr(x).encode()).hexdigest()[:16]
if row in ("pairs20", "pairs40"):
    table = board(0, 10, 20 if row == "pairs20" else 40, 40, 30)
    t0 = time.process_time()
    got = all_pairs(table, rul)
    dt = time.process_time() - t0
    out = (dt, digest(facts(got)))
elif row == "cold":
    table = board(0, 10, 20, 40, 30)
    t0 = time.process_time()
    got = LofAnalysisCache().all_pairs(table, rul.copy())
    dt = time.process_time() - t0
    out = (dt, digest([(k, v.lof.has_lof, v.lof.witness, v.range and v.range.distance, v.cover and v.cover.in_cover,
                        [(b.hit, b.obstacle) for b in v.blocked_rays]) for k, v in sorted(got.items())]))
elif row == "move":  # the incremental analysis after one Model moves, median of 9 moves
    table = board(0, 10, 20, 40, 30)
    cache = LofAnalysisCache()
    cache.all_pairs(table, rul.copy())
    rng = np.random.default_rng(1)
    times, ans = [], []
    for _ in range(9):
        table, _mid = _nudged(table, rng, False)
        t0 = time.process_time()
        got = cache.all_pairs(table, rul.copy())
        times.append(time.process_time() - t0)
        ans.append([(k, v.lof.has_lof, v.lof.witness, v.range and v.range.distance, v.cover and v.cover.in_cover,
                     [(b.hit, b.obstacle) for b in v.blocked_rays]) for k, v in sorted(got.items())])
    out = (statistics.median(times), digest(ans))
elif row.startswith("flip_"):  # the warm analysis of every pair after one ruling flips
    key, reading = {"flip_grazing": ("lof_grazing", "touching_blocks"),
                    "flip_height": ("scenery_height", "lower_than_both_does_not_block"),
                    "flip_range": ("range_measurement", "edge_to_edge"),
                    "flip_unread": ("mod_cap", "cap_12"),
                    "flip_arc_part": ("lof_arc_part", "seen_part_in_arc"),
                    "flip_shooter_arc": ("lof_shooter_arc", "front_half")}[row]
    table = board(0, 10, 20, 40, 30)
    cache = LofAnalysisCache()
    cache.all_pairs(table, rul.copy())
    flipped = make_rulings({key: reading})
    t0 = time.process_time()
    got = cache.all_pairs(table, flipped.copy())
    dt = time.process_time() - t0
    out = (dt, digest([(k, v.lof.has_lof, v.lof.witness, v.lof.rulings, v.range and v.range.distance,
                        v.cover and v.cover.in_cover, [(b.hit, b.obstacle) for b in v.blocked_rays])
                       for k, v in sorted(got.items())]))
elif row.startswith("fuzz:"):  # answers only: one digest per random table (fuzz_lof_parts.table_of's tables)
    first, count = (int(x) for x in row[5:].split(":"))
    def verdict_facts(got):
        return [(k, v.lof.has_lof, v.lof.reason, v.lof.witness, v.lof.blocked_by, v.lof.candidates_tested,
                 [(r.segment, r.blocked_by) for r in v.lof.rays], v.range and (v.range.distance, v.range.band,
                 v.range.ruler, v.range.measured, v.range.detail), v.cover and (v.cover.in_cover, v.cover.pieces,
                 sorted(v.cover.hidden_points.items()), v.cover.touching, v.cover.detail), v.lof.detail,
                 [(b.hit, b.obstacle) for b in v.blocked_rays]) for k, v in sorted(got.items())]
    t0 = time.process_time()
    digs = []
    for seed in range(first, first + count):
        r_ = np.random.default_rng(seed)
        table = random_table(seed, radius=4, n_models=int(r_.integers(6, 10)), n_scenery=int(r_.integers(4, 14)),
                             n_holes=int(r_.integers(0, 9)), scenery_size=(0.1, 1.2), silhouettes=(3, 5, 7, 8),
                             n_sides=2, layout=L)
        rr = make_rulings(FUZZ_READINGS[seed % len(FUZZ_READINGS)])
        ids = sorted(table.models)
        ans = [[(r.has_lof, r.reason, r.witness, r.blocked_by, r.candidates_tested, r.detail,
                 [(y.segment, y.blocked_by) for y in r.rays])
                for r in (line_of_fire(table, a, b, rr.copy(), explain=True) for a in ids for b in ids if a != b)]]
        cache = LofAnalysisCache()
        ans.append(verdict_facts(cache.all_pairs(table, rr.copy())))
        rng = np.random.default_rng(seed + 7)
        for _ in range(3):  # the incremental path after moves
            table, _mid = _nudged(table, rng, False)
            ans.append(verdict_facts(cache.all_pairs(table, rr.copy())))
        digs.append(digest(ans))
    out = (time.process_time() - t0, digs)
print(json.dumps(out))
'''

ROWS = {"pairs20": ("all 380 ordered pairs, 20 Models (full rule, cold)", 0.1),
        "pairs40": ("all 1,560 ordered pairs, 40 Models (full rule, cold)", 0.4),
        "move": ("after one Model moves: incremental LoF + Range + Cover (median of 9)", 0.02),
        "cold": ("all pairs, cold LoF + Range + Cover, 20 Models", None),
        "flip_grazing": ("flip lof_grazing, warm LoF + Range + Cover, 20 Models", 0.1),
        "flip_height": ("flip scenery_height (all scenery tall), warm, 20 Models", 0.1),
        "flip_range": ("flip range_measurement, warm, 20 Models", 0.1),
        "flip_unread": ("flip mod_cap (read by no verdict), warm, 20 Models", 0.1),
        "flip_arc_part": ("flip lof_arc_part to seen_part_in_arc (clipped searches), warm, 20 Models", 0.1),
        "flip_shooter_arc": ("flip lof_shooter_arc to front_half (clipped searches), warm, 20 Models", 0.1)}


def _run(tree: Path, row: str) -> tuple[float, str]:
    env = dict(os.environ, PYTHONPATH=str(tree))
    got = subprocess.run([sys.executable, "-c", _CHILD, row, str(tree)], cwd="/", env=env, capture_output=True, text=True,
                         check=True)
    # the child imports the explorer package from ``tree`` only (it checks); its helpers copy bench_lof_fast's
    dt, dig = json.loads(got.stdout.strip().splitlines()[-1])
    return dt, dig


def _fuzz(trees: dict[str, Path], first: int, count: int, chunk: int = 50) -> int:
    """Compare the answers of the two trees on ``count`` random tables from seed ``first`` (chunks of ``chunk``
    tables per process); prints the differing seeds and returns 1 on any difference."""
    got: dict[str, list[str]] = {k: [] for k in trees}
    cpu = dict.fromkeys(trees, 0.0)
    for start in range(first, first + count, chunk):
        n = min(chunk, first + count - start)
        for k, tree in trees.items():
            dt, digs = _run(tree, f"fuzz:{start}:{n}")
            got[k] += digs
            cpu[k] += dt
    bad = [first + i for i, (x, y) in enumerate(zip(got["baseline"], got["this tree"])) if x != y]
    print(f"{count} random tables (seeds {first}..{first + count - 1}; LoF of every ordered pair with its "
          f"explanation, the analysis' LoF + Range + Cover + cut rays cold and after 3 moves; five sets "
          f"of readings in turn, the arc readings among them): {len(bad)} differ; CPU baseline {cpu['baseline']:.1f} s, this tree "
          f"{cpu['this tree']:.1f} s")
    for seed in bad[:20]:
        print("MISMATCH on table", seed)
    return 1 if bad else 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--baseline", required=True, type=Path, help="a checkout of the baseline tree")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--rows", nargs="*", default=list(ROWS), choices=list(ROWS))
    ap.add_argument("--fuzz", type=int, default=0, metavar="N",
                    help="instead of timing: compare the two trees' answers on N random tables (see the docstring)")
    ap.add_argument("--seed", type=int, default=0, help="first random table of --fuzz")
    a = ap.parse_args(argv)
    trees = {"baseline": a.baseline.resolve(), "this tree": ROOT}
    if a.fuzz:
        return _fuzz(trees, a.seed, a.fuzz)
    times = {(r, k): [] for r in a.rows for k in trees}
    digests = {(r, k): set() for r in a.rows for k in trees}
    loads = []
    for i in range(a.rounds):
        loads.append(os.getloadavg()[0])
        for r in a.rows:
            order = list(trees.items()) if i % 2 == 0 else list(trees.items())[::-1]
            for k, tree in order:
                dt, dig = _run(tree, r)
                times[(r, k)].append(dt)
                digests[(r, k)].add(dig)
    print(f"LoF, this tree vs {a.baseline} (same run, alternating processes); CPU time, median of {a.rounds} rounds; "
          f"1-min load at each round: {', '.join(f'{x:.1f}' for x in loads)}")
    ok = True
    for r in a.rows:
        name, goal = ROWS[r]
        tb, tn = statistics.median(times[(r, "baseline")]), statistics.median(times[(r, "this tree")])
        same = digests[(r, "baseline")] == digests[(r, "this tree")] and len(digests[(r, "this tree")]) == 1
        ok &= same
        g = "" if goal is None else ("MET" if tn < goal else "MISSED") + f" (< {goal * 1e3:.0f} ms)"
        print(f"  {name:72s} baseline {tb * 1e3:8.1f} ms  this tree {tn * 1e3:8.1f} ms  ratio {tb / tn:5.2f}x  "
              f"{'identical' if same else 'MISMATCH'}  {g}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
