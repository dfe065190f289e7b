"""Benchmark: the incremental Line of Fire analysis (lof_analysis.LofAnalysisCache) against today's full recompute,
measured in the same run.

Run from the repository root::

    PYTHONPATH=$PWD python benchmarks/bench_lof_incremental.py            (full: ~2-4 minutes on 2 cores)
    PYTHONPATH=$PWD python benchmarks/bench_lof_incremental.py --quick    (small board, correctness; for the tests)

Part 1, all pairs: a random hexagonal board of radius 10 (331 hexagons, some without tile, random scenery) with 20
Models. Times every ordered pair's LoF + Range + Partial Cover (a) cold with an empty cache, (b) warm after one Model
moves (median of several moves), (c) warm after one Model turns, and checks that the warm result equals a fresh
analysis. The baseline is the former full analysis (every query on the whole table, nothing reused):
``lof_analysis._reference_analyse`` for every shooter; it takes minutes for 20 Models, so by default it runs for
``--reference-shooters`` shooters and is scaled to 20 (labelled EXTRAPOLATED); ``--reference-shooters 20`` measures
it all.

Part 2, the explorer: the Line of Fire explorer on the built-in quarry (``LofExplorer()``, 320 hexagons, 11 Models)
with the cache (``incremental=True``) and without it (``incremental=False``, today's behaviour: every interaction
rebuilds the table and re-runs the whole analysis), the same interactions in the same order: turning, nudging the
shooter and another Model, flipping rulings, editing the Range Ruler, picking another shooter. Each time covers the
analysis and the widget update in Python (not the browser's drawing).

Targets (issue #12): all pairs for 20 Models < 100 ms warm after one Model moves; every interaction < 150 ms.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from dataclasses import replace

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from explorer.errors import ScenarioError  # noqa: E402
from explorer.games.tagraid.lof_analysis import LofAnalysisCache, _reference_analyse  # noqa: E402
from explorer.games.tagraid.lof_views import LofExplorer, table_with_models  # noqa: E402
from explorer.games.tagraid.options import rulings as make_rulings  # noqa: E402
from explorer.games.tagraid.random_tables import random_table  # noqa: E402
from explorer.hexgrid import Layout  # noqa: E402


def _ms(s: float) -> str:
    return f"{s * 1e3:,.0f} ms" if s >= 0.01 else f"{s * 1e3:.1f} ms"


def _timed(fn):
    t0 = time.perf_counter()
    out = fn()
    return time.perf_counter() - t0, out


def _nudged(table, rng, turn: bool):
    """The table with one random Model moved by up to 0.4 hex units (or turned by 15-90°), a legal placement."""
    ids = list(table.models)
    for _ in range(200):
        mid = ids[rng.integers(len(ids))]
        m = table.models[mid]
        if turn:
            new = replace(m, facing=(m.facing + float(rng.uniform(15, 90))) % 360)
        else:
            new = m.moved_to(m.x + float(rng.uniform(-0.4, 0.4)), m.y + float(rng.uniform(-0.4, 0.4)))
        try:
            return table_with_models(table, {**table.models, mid: new}), mid
        except ScenarioError:
            continue
    raise RuntimeError("no legal nudge found")


def all_pairs_part(quick: bool, ref_shooters: int, moves: int) -> tuple[list[tuple], bool]:
    radius, n_models = (4, 6) if quick else (10, 20)
    table = random_table(0, radius=radius, n_models=n_models, n_scenery=12 if quick else 40,
                         n_holes=6 if quick else 30, extent=radius * 1.5, scenery_size=(0.2, 1.5),
                         scenery_height=None, silhouettes=(5, 7, 8), n_sides=4, max_tries=5000, layout=Layout())
    n = len(table.models)
    rul = make_rulings()
    rows = []
    ids = list(table.models)
    k = n if quick else max(1, min(ref_shooters, n))
    t_ref, _ = _timed(lambda: [_reference_analyse(table, s, rul.copy()) for s in ids[:k]])
    t_ref_all = t_ref * n / k
    ref_label = "measured" if k == n else f"{k} shooters measured, x{n / k:.3g} EXTRAPOLATED"
    cache = LofAnalysisCache()
    t_cold, _ = _timed(lambda: cache.all_pairs(table, rul.copy()))
    rows.append((f"all {n * (n - 1)} pairs, cold (empty cache)", _ms(t_cold), _ms(t_ref_all) + f" ({ref_label})",
                 f"{t_ref_all / t_cold:.1f}x", "", ""))
    rng = np.random.default_rng(1)
    ok = True
    for turn in (False, True):
        times, recomputed = [], []
        for _ in range(moves):
            table, _mid = _nudged(table, rng, turn)
            before = cache.computed
            dt, got = _timed(lambda: cache.all_pairs(table, rul.copy()))
            times.append(dt)
            recomputed.append(cache.computed - before)
        fresh = LofAnalysisCache().all_pairs(table, rul.copy())
        same = got == fresh
        ok &= same
        med = statistics.median(times)
        goal = "" if quick else ("MET" if med < 0.1 else "MISSED") + " (< 100 ms)"
        rows.append((f"all pairs, warm after one Model {'turns' if turn else 'moves'} (median of {moves})",
                     _ms(med), _ms(t_ref_all) + f" ({ref_label})", f"{t_ref_all / med:.1f}x",
                     f"{statistics.median(recomputed):.0f} results recomputed; "
                     + ("== fresh analysis" if same else "MISMATCH with a fresh analysis"), goal))
    hits, _ = _timed(lambda: cache.all_pairs(table, rul.copy()))
    rows.append(("all pairs, nothing changed", _ms(hits), _ms(t_ref_all) + f" ({ref_label})",
                 f"{t_ref_all / hits:.0f}x", "", ""))
    board = f"{radius}-radius board ({3 * radius * (radius + 1) + 1} hexagons), {n} Models"
    return [(board,)] + rows, ok


def explorer_part(quick: bool) -> tuple[list[tuple], bool]:
    def script(ex: LofExplorer):
        ids = list(ex.models)
        first = ex.shooter
        other = [i for i in ids if i != first]
        nudge = other[2]
        steps = [
            ("turn the shooter", lambda: ex.rotate_model(ex.shooter, 1)),
            ("turn it back", lambda: ex.rotate_model(ex.shooter, -1)),
            ("nudge another Model", lambda: ex.move_model(nudge, ex.models[nudge].x + 0.1, ex.models[nudge].y)),
            ("nudge the shooter", lambda: ex.move_model(first, ex.models[first].x + 0.05, ex.models[first].y)),
            ("flip lof_grazing", lambda: ex._on_ruling("lof_grazing", "touching_blocks")),
            ("flip it back", lambda: ex._on_ruling("lof_grazing", "touching_does_not_block")),
            ("flip range_measurement", lambda: ex._on_ruling("range_measurement", "edge_to_edge")),
            ("edit the Range Ruler", lambda: setattr(ex.cal_inputs["short"], "value", "4")),
            ("pick another shooter", lambda: ex.set_shooter(other[0])),
            ("pick the first again", lambda: ex.set_shooter(first)),
            ("turn another Model", lambda: ex.rotate_model(other[3], 1)),
        ]
        return steps[:4] if quick else steps

    t_new_init, new = _timed(lambda: LofExplorer(incremental=True))
    t_old_init, old = _timed(lambda: LofExplorer(incremental=False))
    rows = [("open the explorer", _ms(t_new_init), _ms(t_old_init), f"{t_old_init / t_new_init:.1f}x", "", "")]
    ok = True
    new_steps, old_steps = script(new), script(old)
    new_times = []
    for (name, f_new), (_, f_old) in zip(new_steps, old_steps):
        t_new, _ = _timed(f_new)
        t_old, _ = _timed(f_old)
        new_times.append(t_new)
        same = [(v.target, v.lof.has_lof, v.lof.reason, v.lof.witness, v.band, v.mod) for v in new.verdicts] == \
            [(v.target, v.lof.has_lof, v.lof.reason, v.lof.witness, v.band, v.mod) for v in old.verdicts]
        ok &= same
        goal = "" if quick else ("MET" if t_new < 0.15 else "MISSED") + " (< 150 ms)"
        rows.append((name, _ms(t_new), _ms(t_old), f"{t_old / t_new:.1f}x",
                     "same verdicts" if same else "MISMATCH of verdicts", goal))
    rows.append(("median interaction", _ms(statistics.median(new_times)), "", "", "", ""))
    return [("LofExplorer() on the quarry (320 hexagons, 11 Models)",)] + rows, ok


def _table(rows: list[tuple], head: tuple) -> None:
    title, body = rows[0][0], rows[1:]
    widths = [max(len(str(r[i])) for r in body + [head]) for i in range(len(head))]
    line = lambda r: "  ".join(str(c).ljust(w) for c, w in zip(r, widths))  # noqa: E731
    print(f"\n{title}")
    print(line(head))
    print(line(["-" * w for w in widths]))
    for r in body:
        print(line(r))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="small board, few steps: correctness (used by the tests)")
    ap.add_argument("--reference-shooters", type=int, default=3,
                    help="shooters the former full analysis is timed for (scaled to all; 20 = measure all)")
    ap.add_argument("--moves", type=int, default=5, help="moves (and turns) timed in part 1")
    args = ap.parse_args(argv)
    print(f"Incremental LoF analysis vs the full recompute{' (quick: correctness only)' if args.quick else ''}; "
          f"python {sys.version.split()[0]}, {os.cpu_count()} cpus, load {os.getloadavg()[0]:.1f}")
    rows1, ok1 = all_pairs_part(args.quick, args.reference_shooters, 2 if args.quick else args.moves)
    _table(rows1, ("case", "incremental", "full recompute (today)", "speed-up", "check", "target"))
    rows2, ok2 = explorer_part(args.quick)
    _table(rows2, ("interaction", "incremental", "full recompute (today)", "speed-up", "check", "target"))
    print("\nspeed-up = full recompute time / incremental time, both measured in this run (unless EXTRAPOLATED).")
    if not (ok1 and ok2):
        print("MISMATCH", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
