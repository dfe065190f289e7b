"""Benchmark (issue 24): the Line of Fire fast path against the former path, measured in the same run.

Run from the repository root::

    PYTHONPATH=$PWD python benchmarks/bench_lof_fast.py            (about a minute on a loaded machine)
    PYTHONPATH=$PWD python benchmarks/bench_lof_fast.py --quick    (small boards: correctness only)
    PYTHONPATH=$PWD python benchmarks/bench_lof_fast.py --agree 1000   (fast == former on 1,000 random tables)

The former path is the same code with ``geometry.fast_path(False)`` (each polygon tested on its own, unions rebuilt
per query, tangents computed block by block, no per-table caches): it gives bit-identical answers, which each row
checks. Times are CPU time (``time.process_time``), the median of ``--repeat`` runs, each on a freshly built table
so that no cache survives from one run to the next (CPU time and medians because other processes share the
machine; the ratios compare two paths measured in the same run, under the same load).

Rows:

* all ordered pairs, the full rule (``line_of_fire``, arcs and exceptions, ``explain=False``), 20 Models on a
  331-hexagon board with 40 scenery pieces and 30 hexagons without tile; the same with 40 Models. Goals: < 100 ms
  and < 400 ms of CPU.
* after one Model moves: (a) the full rule on the new table (nothing reused), (b) the incremental analysis
  (``LofAnalysisCache.all_pairs``: LoF, Range and Partial Cover of every ordered pair, recomputing only the pairs
  the move can change), median of ``--moves`` moves; (c) the same incremental analysis with and without the
  dependency test (``LofAnalysisCache(by_dependency=False)``: every pair's key built and looked up). Goal: < 20 ms.
* after one Model moves, the LoF verdicts only (``LofAnalysisCache.all_pairs(lazy=True)``, issue 24 session 16): every
  ordered pair's Line of Fire verdict (has LoF or not, reason, witness: what the all-pairs rows above compute, the
  full rule with ``explain=False``), recomputing only the pairs the move can change; each pair's explanation, cut
  rays, Range Ruler and Partial Cover are computed when first read (:class:`lof_analysis.LazyVerdict`). Timed
  against the eager incremental analysis (LoF + Range + Cover + explanations of every recomputed pair) of the same
  moves in the same run. Goal: < 20 ms. Two more rows say what reading costs, so that nothing is hidden: the lazy
  call plus reading every part of the moved Model's row (the page shows one shooter's targets), and the lazy call
  plus reading every part of every pair (one pair at a time, not batched: more than the eager analysis). The
  answers are read after the timing and checked equal to the eager analysis's: the verdicts (has LoF, reason,
  witness) of the lazy row, whose other parts are never read (reading them would fill the verdicts later moves
  keep), and every part of the two reading rows.
* the cold analysis of every ordered pair (LoF, Range and Partial Cover, an empty cache) with the Range Ruler's
  searches batched (``lof_analysis._BATCH_RANGES``, their golden-section loops run as one) and one pair at a time.
* ruling flips (issue 24 item 2, "re-decide only what the ruling reads"): for each of :data:`FLIP_READINGS`, the
  warm analysis of every ordered pair right after the flip, and after flipping back, against a full recompute under
  the same readings (a fresh cache), every answer checked equal to the full recompute's. The issue sets no goal of
  its own for a flip in the engine; the rows print MET/MISSED against a page interaction's 100 ms.

``--flips N``: on N random dense tables, six random moves and ruling flips each; after every action
``LofAnalysisCache.all_pairs`` must equal a fresh cache's (verdicts and readings consulted): the big run of the
property test ``tests/tagraid/test_lof_incremental.py::test_all_pairs_after_moves_and_ruling_flips_...``.

Record (issue 24, session 9, 2 cores shared with other jobs; see docs/limits.md "Line of Fire timings" for the
numbers before and after): written there, not here, so that one place holds them.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from bench_lof_incremental import _nudged  # noqa: E402

from explorer.games.tagraid import lof_analysis  # noqa: E402
from explorer.games.tagraid.geometry import fast_path  # noqa: E402
from explorer.games.tagraid.lof import line_of_fire  # noqa: E402
from explorer.games.tagraid.lof_analysis import LofAnalysisCache  # noqa: E402
from explorer.games.tagraid.options import rulings as make_rulings  # noqa: E402
from explorer.games.tagraid.random_tables import random_table  # noqa: E402
from explorer.hexgrid import Layout  # noqa: E402

L = Layout()


def board(seed: int, radius: int, n_models: int, n_scenery: int, n_holes: int):
    return random_table(seed, radius=radius, n_models=n_models, n_scenery=n_scenery, n_holes=n_holes,
                        extent=radius * 1.5, scenery_size=(0.2, 1.5), scenery_height=None, silhouettes=(5, 7, 8),
                        n_sides=4, max_tries=5000, layout=L)


def all_pairs(table, rul):
    ids = sorted(table.models)
    return [line_of_fire(table, a, b, rul, explain=False) for a in ids for b in ids if a != b]


def facts(results):
    return [(r.has_lof, r.reason, r.witness, r.blocked_by, r.candidates_tested) for r in results]


def timed(make, fn, fast: bool, repeat: int):
    """Median CPU time of ``fn(make())`` over ``repeat`` fresh tables, and the last answer."""
    times, out = [], None
    for _ in range(repeat):
        with fast_path(fast):
            table = make()
            t0 = time.process_time()
            out = fn(table)
            times.append(time.process_time() - t0)
    return statistics.median(times), out


def _ms(s: float) -> str:
    return f"{1e3 * s:,.1f} ms"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="small boards, one run: correctness (used by the tests)")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--moves", type=int, default=9)
    ap.add_argument("--agree", type=int, default=0, help="also check fast == former on this many random tables")
    ap.add_argument("--flips", type=int, default=0,
                    help="also check, on this many random tables, that all_pairs after random moves and ruling flips "
                         "equals a full recompute (a fresh cache) after each action")
    args = ap.parse_args(argv)
    rul = make_rulings()
    radius, scenery, holes = (5, 12, 8) if args.quick else (10, 40, 30)
    sizes = (6, 10) if args.quick else (20, 40)
    repeat = 1 if args.quick else args.repeat
    print(f"LoF fast path vs the former path (same run); python {sys.version.split()[0]}, {os.cpu_count()} cpus, "
          f"load {os.getloadavg()[0]:.1f}; CPU time, median of {repeat}")
    ok = True
    rows = []
    for n, goal in zip(sizes, (0.1, 0.4)):
        def make(n=n):
            return board(0, radius, n, scenery, holes)

        t_old, r_old = timed(make, lambda t: all_pairs(t, rul), False, repeat)
        t_new, r_new = timed(make, lambda t: all_pairs(t, rul), True, repeat)
        same = facts(r_old) == facts(r_new)
        ok &= same
        hexes = 3 * radius * (radius + 1) + 1
        rows.append((f"all {n * (n - 1)} ordered pairs, {n} Models, {hexes} hexagons (full rule)", _ms(t_new),
                     _ms(t_old), f"{t_old / t_new:.2f}x", "identical" if same else "MISMATCH",
                     "" if args.quick else ("MET" if t_new < goal else "MISSED") + f" (< {goal * 1e3:.0f} ms)"))

    # after one move
    n = sizes[0]
    moves = 2 if args.quick else args.moves
    res = {}
    for fast in (True, False):
        with fast_path(fast):
            table = board(0, radius, n, scenery, holes)
            cache = LofAnalysisCache()
            cache.all_pairs(table, rul.copy())
            rng = np.random.default_rng(1)
            full, inc, answers = [], [], []
            for _ in range(moves):
                table, _mid = _nudged(table, rng, False)
                t0 = time.process_time()
                got = cache.all_pairs(table, rul.copy())
                inc.append(time.process_time() - t0)
                fresh = _nudged_like(board(0, radius, n, scenery, holes), table)
                t0 = time.process_time()
                answers.append(facts(all_pairs(fresh, rul)))
                full.append(time.process_time() - t0)
                answers.append([(k, v.lof.has_lof, v.lof.witness, v.range and v.range.distance,
                                 v.cover and v.cover.in_cover) for k, v in sorted(got.items())])
            res[fast] = (statistics.median(full), statistics.median(inc), answers)
    same = res[True][2] == res[False][2]
    ok &= same
    # the incremental path with and without the dependency test (the same fast path otherwise)
    dep = {}
    for by_dep in (True, False):
        table = board(0, radius, n, scenery, holes)
        cache = LofAnalysisCache(by_dependency=by_dep)
        cache.all_pairs(table, rul.copy())
        rng = np.random.default_rng(1)
        inc, answers = [], []
        for _ in range(moves):
            table, _mid = _nudged(table, rng, False)
            t0 = time.process_time()
            got = cache.all_pairs(table, rul.copy())
            inc.append(time.process_time() - t0)
            answers.append(got)
        dep[by_dep] = (statistics.median(inc), answers)
    same_dep = dep[True][1] == dep[False][1]
    ok &= same_dep
    rows.append((f"after one Model moves: full rule again, {n} Models (median of {moves})", _ms(res[True][0]),
                 _ms(res[False][0]), f"{res[False][0] / res[True][0]:.2f}x", "identical" if same else "MISMATCH",
                 "" if args.quick else ("MET" if res[True][0] < 0.02 else "MISSED") + " (< 20 ms)"))
    rows.append((f"after one Model moves: incremental LoF + Range + Cover (median of {moves})", _ms(res[True][1]),
                 _ms(res[False][1]), f"{res[False][1] / res[True][1]:.2f}x", "identical" if same else "MISMATCH",
                 "" if args.quick else ("MET" if res[True][1] < 0.02 else "MISSED") + " (< 20 ms)"))
    # the LoF verdicts only (lazy=True), and what reading the deferred parts costs, against the eager analysis
    lazy = {}
    for mode in ("eager", "lazy", "lazy+row", "lazy+all"):
        table = board(0, radius, n, scenery, holes)
        cache = LofAnalysisCache()
        cache.all_pairs(table, rul.copy(), lazy=mode != "eager")
        rng = np.random.default_rng(1)
        inc, answers = [], []
        for _ in range(moves):
            table, mid = _nudged(table, rng, False)
            t0 = time.process_time()
            got = cache.all_pairs(table, rul.copy(), lazy=mode != "eager")
            if mode == "lazy+row":
                for t in table.models:
                    if t != mid:
                        got[(mid, t)].range  # noqa: B018  (reading one part computes them all)
            elif mode == "lazy+all":
                for v in got.values():
                    v.range  # noqa: B018
            inc.append(time.process_time() - t0)
            if mode == "lazy":  # the verdicts only: reading the rest would fill the kept verdicts of later moves
                answers.append([(k, v.lof_verdict.has_lof, v.lof_verdict.reason, v.lof_verdict.witness)
                                for k, v in sorted(got.items())])
            else:
                answers.append([(k, v.lof.has_lof, v.lof.reason, v.lof.witness, v.lof.blocked_by, v.blocked_rays,
                                 v.range and v.range.distance, v.band, v.mod, v.cover and v.cover.in_cover)
                                for k, v in sorted(got.items())])
        lazy[mode] = (statistics.median(inc), answers)
    verdicts_only = [[row[:4] for row in move] for move in lazy["eager"][1]]
    same_lazy = lazy["lazy"][1] == verdicts_only and all(lazy[m][1] == lazy["eager"][1] for m in ("lazy+row",
                                                                                               "lazy+all"))
    ok &= same_lazy
    for mode, what, goal in (("lazy", "LoF verdicts only, the rest on read (lazy=True)", True),
                             ("lazy+row", "lazy, then every part of the moved Model's row read", False),
                             ("lazy+all", "lazy, then every part of every pair read", False)):
        t_l, t_e = lazy[mode][0], lazy["eager"][0]
        rows.append((f"after one Model moves: {what} vs eager LoF + Range + Cover (median of {moves})", _ms(t_l),
                     _ms(t_e), f"{t_e / t_l:.2f}x", "identical" if same_lazy else "MISMATCH",
                     "" if args.quick or not goal else ("MET" if t_l < 0.02 else "MISSED") + " (< 20 ms)"))
    rows.append((f"after one Model moves: incremental by dependency vs every pair's key looked up (median of "
                 f"{moves})", _ms(dep[True][0]), _ms(dep[False][0]), f"{dep[False][0] / dep[True][0]:.2f}x",
                 "identical" if same_dep else "MISMATCH",
                 "" if args.quick else ("MET" if dep[True][0] < 0.02 else "MISSED") + " (< 20 ms)"))
    # the cold analysis (LoF + Range + Cover of every ordered pair) with the Range Ruler's searches batched (their
    # golden-section loops run as one) and measured one pair at a time (lof_analysis._BATCH_RANGES = False)
    cold = {}
    for batch in (True, False):
        lof_analysis._BATCH_RANGES = batch
        times, got = [], None
        for _ in range(repeat):
            table = board(0, radius, n, scenery, holes)
            t0 = time.process_time()
            got = LofAnalysisCache().all_pairs(table, rul.copy())
            times.append(time.process_time() - t0)
        cold[batch] = (statistics.median(times), [(k, v.lof.has_lof, v.lof.witness, v.blocked_rays, v.range and (
            v.range.distance, v.range.measured), v.cover and v.cover.in_cover) for k, v in sorted(got.items())])
    lof_analysis._BATCH_RANGES = True
    same_cold = cold[True][1] == cold[False][1]
    ok &= same_cold
    rows.append((f"all pairs, cold LoF + Range + Cover: Range Ruler batched vs one pair at a time (median of {repeat})",
                 _ms(cold[True][0]), _ms(cold[False][0]), f"{cold[False][0] / cold[True][0]:.2f}x",
                 "identical" if same_cold else "MISMATCH", ""))
    # ruling flips (item 2: "when a ruling flips, reuse the geometry and re-decide only what the ruling reads"): the
    # warm cache under the other reading against a full recompute (a fresh cache) under it, same table, same run
    flip_rows, flip_ok = flip_part(board(0, radius, n, scenery, holes), repeat, args.quick)
    ok &= flip_ok
    rows += flip_rows
    head = ("case", "fast path", "former path", "ratio", "answers", "goal")
    widths = [max(len(str(r[i])) for r in rows + [head]) for i in range(len(head))]
    for r in [head, tuple("-" * w for w in widths)] + rows:
        print("  ".join(str(c).ljust(w) for c, w in zip(r, widths)))
    print("ratio = former path time / fast path time, both measured in this run (the dependency row: the former column "
          "is the fast path with LofAnalysisCache(by_dependency=False); the lazy rows: the former column is the eager "
          "LofAnalysisCache.all_pairs (LoF + Range + Cover + explanations of every recomputed pair), the fast column "
          "all_pairs(lazy=True), which computes the LoF verdicts of the recomputed pairs (has LoF, reason, witness) "
          "and leaves Range, Cover, explanations and cut rays to be computed when read, plus the reading the row "
          "names; the cold row: the fast path with "
          "lof_analysis._BATCH_RANGES = False; the flip rows: the former column is a full recompute under the flipped "
          "readings, a fresh LofAnalysisCache, and the fast path the warm cache after the flip).")

    if args.flips:
        ok &= flips_agree(args.flips)
    if args.agree:
        bad = 0
        t0 = time.perf_counter()
        for seed in range(args.agree):
            mk = (lambda seed=seed: random_table(seed, radius=4, n_models=6, n_scenery=8, n_holes=5, n_sides=2,
                                                layout=L))
            a = timed(mk, lambda t: all_pairs(t, rul), True, 1)[1]
            b = timed(mk, lambda t: all_pairs(t, rul), False, 1)[1]
            bad += facts(a) != facts(b)
        print(f"agreement: {args.agree - bad}/{args.agree} random tables identical on every ordered pair "
              f"({time.perf_counter() - t0:.0f} s)")
        ok &= bad == 0
    if not ok:
        print("MISMATCH between the fast and the former path", file=sys.stderr)
        return 1
    return 0


FLIP_READINGS = (("lof_grazing", "touching_blocks"), ("lof_arc_part", "seen_part_in_arc"),
                 ("lof_shooter_arc", "front_half"), ("scenery_height", "lower_than_both_does_not_block"),
                 ("tileless_occupied_hexagon", "blocks"), ("range_measurement", "edge_to_edge"),
                 ("megabeast_reciprocity", "includes_megabeast"), ("mod_cap", "cap_12"))
"""The readings flipped by the flip rows: every LoF reading the explorer offers, lof_shooter_arc, and one ruling
no LoF verdict reads (mod_cap)."""


def flip_part(table, repeat: int, quick: bool = False) -> tuple[list[tuple], bool]:
    """Rows: for each of :data:`FLIP_READINGS`, the warm incremental analysis (``LofAnalysisCache.all_pairs`` of
    every ordered pair, LoF + Range + Cover) after the flip, and after flipping back, against a full recompute under
    the same readings (a fresh cache: today's cold analysis), median CPU time of ``repeat`` runs; each answer checked
    equal to the full recompute's. The warm cache is rebuilt for every run (one flip per cache)."""
    rows, ok = [], True
    base = make_rulings()
    for key, reading in FLIP_READINGS:
        flipped = base.copy()
        flipped.set(key, reading)
        t_flip, t_back, t_full = [], [], []
        same = True
        for _ in range(repeat):
            cache = LofAnalysisCache()
            first = cache.all_pairs(table, base.copy())
            t0 = time.process_time()
            got = cache.all_pairs(table, flipped.copy())
            t1 = time.process_time()
            back = cache.all_pairs(table, base.copy())
            t2 = time.process_time()
            full = LofAnalysisCache().all_pairs(table, flipped.copy())
            t3 = time.process_time()
            t_flip.append(t1 - t0)
            t_back.append(t2 - t1)
            t_full.append(t3 - t2)
            same &= got == full and back == first
        ok &= same
        f, b, full = (statistics.median(x) for x in (t_flip, t_back, t_full))
        tag = "identical" if same else "MISMATCH"
        n = len(table.models)
        rows.append((f"flip {key} -> {reading}, {n} Models: warm vs full recompute", _ms(f), _ms(full),
                     f"{full / f:.2f}x", tag,
                     "" if quick else ("MET" if f < 0.1 else "MISSED") + " (< 100 ms, a page interaction's budget)"))
        rows.append(("  ... and flip it back", _ms(b), _ms(full), f"{full / b:.2f}x", tag,
                     "" if quick else ("MET" if b < 0.1 else "MISSED") + " (< 100 ms)"))
    return rows, ok


def flips_agree(tables: int) -> bool:
    """On ``tables`` random dense tables: random moves and flips of every reading the analysis consults; after each
    action ``LofAnalysisCache.all_pairs`` equals a fresh cache's (verdicts and readings consulted). Prints the
    count."""
    from explorer.errors import ScenarioError
    from explorer.games.tagraid.lof_scenario import LOF_RULING_KEYS
    from explorer.games.tagraid.lof_views import table_with_models

    keys = LOF_RULING_KEYS + ("lof_shooter_arc", "elevation_own_piece")
    options = make_rulings().options
    bad, actions = 0, 0
    t0 = time.perf_counter()
    for seed in range(tables):
        rng = np.random.default_rng(seed)
        table = random_table(seed, radius=3, n_models=6, n_scenery=4, n_holes=3, n_sides=2,
                             scenery_size=(0.3, 1.0), scenery_height=(0.1, 1.0), silhouettes=(3, 5, 7, 8), layout=L)
        rul = make_rulings()
        cache = LofAnalysisCache()
        cache.all_pairs(table, rul.copy())
        for _ in range(6):
            if rng.random() < 0.5:
                key = keys[rng.integers(len(keys))]
                clash = {"lof_shooter_arc": "lof_arc_part", "lof_arc_part": "lof_shooter_arc"}.get(key)
                if clash:
                    rul.set(clash, options[clash].default)
                readings = list(options[key].readings)
                rul.set(key, readings[rng.integers(len(readings))])
            else:
                ids = list(table.models)
                mid = ids[rng.integers(len(ids))]
                m = table.models[mid]
                try:
                    table = table_with_models(table, {**table.models, mid: m.moved_to(
                        m.x + float(rng.uniform(-1.5, 1.5)), m.y + float(rng.uniform(-1.5, 1.5)))})
                except ScenarioError:
                    pass
            r_inc, r_fresh = rul.copy(), rul.copy()
            got = cache.all_pairs(table, r_inc)
            want = LofAnalysisCache().all_pairs(table, r_fresh)
            actions += 1
            bad += got != want or list(r_inc.consulted.items()) != list(r_fresh.consulted.items())
    print(f"flips and moves: {actions - bad}/{actions} actions on {tables} random tables equal to a full recompute "
          f"({time.perf_counter() - t0:.0f} s)")
    return bad == 0


def _nudged_like(fresh, table):
    """``fresh`` (the same board built anew, so no cache is shared) with ``table``'s Models."""
    from explorer.games.tagraid.lof import TableTop

    return TableTop(table.models.values(), fresh.scenery, fresh.tiles, fresh.layout, fresh.calibration,
                    validate=False)


if __name__ == "__main__":
    sys.exit(main())
