"""Benchmark (issue 24): Partial Cover with the umbra clipped to the target's base, against the former umbra, measured
in the same run.

Run from the repository root::

    PYTHONPATH=$PWD python benchmarks/bench_partial_cover.py            (about a minute on a loaded machine)
    PYTHONPATH=$PWD python benchmarks/bench_partial_cover.py --quick    (one repetition, no crowded page: correctness)

``lof.partial_cover`` intersects the shadows of a scenery piece cast from points of the attacker's base
(``lof._umbra_in_disc``): starting from the target's base, each convex piece's shadow one polygon built at once for
all points, a non-convex piece's from the quads that reach the base, shadows that already hold what is left
skipped. The baseline is the former computation kept in the same module (``lof._reference_partial_cover``; for the
page rows, ``lof._cover_region`` patched to ``lof._reference_cover_region``): the whole umbra, each shadow a union of quads reaching 4x the distance, then
its part in the target's base. Each row checks the answers are the same (verdict, pieces, Models in contact,
sentence; the hidden points may differ in their last digits, both confirmed exactly hidden).

Times are CPU time (``time.process_time``), the median of ``--repeat`` runs (the two paths alternate, each run on a
freshly built table or a fresh page with an empty verdict cache, so nothing computed survives from one run to the
next); CPU time and medians because other processes share the machine; the ratio compares two paths measured in the
same run, under the same load.

Rows:

* the default quarry table (``default_lof_scenario``, 11 Models, 8 pieces), ``partial_cover`` of every ordered pair
  (what a page's rows ask: Line of Fire included, the same both ways), then the part that changed only
  (``lof._hidden_point``: the umbra's region in the base and the exact check of a point of it) for each pair whose
  target touches a piece that blocks LoF;
* a crowded table (``slow_neighbour.crowded_link``: the default table with Miners added up to 45 Models), the same
  two rows;
* the Line of Fire page (``LofExplorer``): picking a shooter never picked before (``set_shooter``, the whole
  analysis of its row and the redraw, without the browser), on the default table and (without ``--quick``) on the
  crowded one: CPU per pick, the median over the picks of a fresh page.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import sys
import time
from unittest.mock import patch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from explorer.games.tagraid import lof  # noqa: E402
from explorer.games.tagraid.lof import TableTop  # noqa: E402
from explorer.games.tagraid.options import rulings as make_rulings  # noqa: E402


def _fresh(table: TableTop) -> TableTop:
    """The same table as a new object: no memo or cache of the old one survives."""
    return TableTop(list(table.models.values()), table.scenery, table.tiles, table.layout, table.calibration,
                    validate=False)


def _answer(c) -> tuple:
    return (c.attacker, c.target, c.in_cover, c.pieces, c.touching, c.detail, sorted(c.hidden_points))


def _pairs(table: TableTop) -> list[tuple[str, str]]:
    ids = sorted(table.models)
    return [(a, b) for a in ids for b in ids if a != b]


def _cover_jobs(table: TableTop, rul) -> list[tuple]:
    """(attacker disc, target disc, piece id, piece, touching_blocks) for each ordered pair and each piece in contact
    with the target that blocks LoF between them: what ``_hidden_point`` is asked."""
    out = []
    for a, b in _pairs(table):
        s, t = table.model(a), table.model(b)
        if table.elevated_pair(s, t):
            continue
        obs, _ = table.obstacles(s, t, rul)
        blocking = {lab.split(":", 1)[1] for lab, _ in obs.polygons if lab.startswith("scenery:")}
        for sid in table.scenery_in_contact(t):
            if sid in blocking:
                out.append((table.disc(s), table.disc(t), sid, table._scenery_polys[sid], lof._grazing(rul)))
    return out


def time_cover(table: TableTop, repeat: int) -> dict:
    """Median CPU of ``partial_cover`` over every ordered pair, and of ``_hidden_point`` over the pairs in contact,
    both ways; and whether the answers agree."""
    rul = make_rulings()
    pairs = _pairs(table)
    jobs = _cover_jobs(table, rul)
    t = {"new": [], "old": [], "new_pts": [], "old_pts": []}
    ans = {}
    for _ in range(repeat):
        for key, fn, region_of in (("new", lof.partial_cover, lof._cover_region),
                                   ("old", lof._reference_partial_cover, lof._reference_cover_region)):
            fresh = _fresh(table)
            t0 = time.process_time()
            got = [fn(fresh, a, b, rul.copy()) for a, b in pairs]
            t[key].append(time.process_time() - t0)
            ans[key] = [_answer(c) for c in got]
            t0 = time.process_time()
            pts = [lof._hidden_point(a, b, sid, poly, tb, region_of) for a, b, sid, poly, tb in jobs]
            t[key + "_pts"].append(time.process_time() - t0)
            ans[key + "_pts"] = [p is None for p in pts]
    med = {k: statistics.median(v) for k, v in t.items()}
    return {**med, "pairs": len(pairs), "jobs": len(jobs), "in_cover": sum(a[2] for a in ans["new"]),
            "same": ans["new"] == ans["old"] and ans["new_pts"] == ans["old_pts"]}


def time_page(link: str | None, picks: int, repeat: int) -> dict:
    """Median CPU of picking a shooter never picked before on a fresh page (empty shared verdict cache), both ways."""
    from explorer.games.tagraid import lof_views
    from explorer.games.tagraid.lof_views import LofExplorer
    from explorer.urlstate import decode_state

    def run(former: bool):
        lof_views._SHARED_CACHE = None  # an empty verdict cache: every row computed
        lx = LofExplorer()
        if link is not None:
            lx.load_url_state(decode_state(link))
        ids = [m for m in lx.models if m != lx.shooter][:picks]
        times, answers = [], []
        for m in ids:
            with (patch.object(lof, "_cover_region", lof._reference_cover_region) if former
                  else contextlib.nullcontext()):
                t0 = time.process_time()
                lx.set_shooter(m)
                times.append(time.process_time() - t0)
            answers.append([(v.target, None if v.cover is None else (v.cover.in_cover, v.cover.pieces))
                            for v in lx.verdicts])
        return statistics.median(times), answers, len(ids)

    t = {"new": [], "old": []}
    ans = {}
    for _ in range(repeat):
        for key in ("new", "old"):
            med, ans[key], n = run(key == "old")
            t[key].append(med)
    lof_views._SHARED_CACHE = None
    return {"new": statistics.median(t["new"]), "old": statistics.median(t["old"]), "picks": n,
            "same": ans["new"] == ans["old"]}


def _ms(s: float) -> str:
    return f"{1e3 * s:,.1f} ms"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="one repetition, no crowded page: correctness only")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--picks", type=int, default=6, help="shooters picked on each page")
    args = ap.parse_args(argv)
    repeat = 1 if args.quick else args.repeat
    from slow_neighbour import crowded_link

    from explorer.games.tagraid.lof_scenario import default_lof_scenario
    from explorer.games.tagraid.lof_views import LofExplorer
    from explorer.urlstate import decode_state

    load0 = os.getloadavg()[0]
    print(f"Partial Cover, clipped umbra vs the former umbra (same run); python {sys.version.split()[0]}, "
          f"{os.cpu_count()} cpus, load {load0:.1f}; CPU time, median of {repeat}")
    default = default_lof_scenario().table()
    link = crowded_link()
    lx = LofExplorer(incremental=False)
    lx.load_url_state(decode_state(link))
    crowded = lx.table
    rows, ok = [], True
    for name, table in (("default quarry table", default), (f"crowded table ({len(crowded.models)} Models)", crowded)):
        r = time_cover(table, repeat)
        ok &= r["same"]
        same = "identical" if r["same"] else "MISMATCH"
        rows.append((f"{name}: partial_cover, all {r['pairs']} ordered pairs ({r['in_cover']} in cover)",
                     _ms(r["new"]), _ms(r["old"]), f"{r['old'] / r['new']:.2f}x", same))
        rows.append((f"{name}: the umbra's region and its check only, {r['jobs']} pairs in contact",
                     _ms(r["new_pts"]), _ms(r["old_pts"]),
                     f"{r['old_pts'] / r['new_pts']:.2f}x" if r["new_pts"] > 0 else "-", same))
    pages = [("default quarry table", None)] + ([] if args.quick else [("crowded table", link)])
    for name, lk in pages:
        r = time_page(lk, args.picks, repeat)
        ok &= r["same"]
        rows.append((f"Line of Fire page, {name}: pick a new shooter (median of {r['picks']} picks)", _ms(r["new"]),
                     _ms(r["old"]), f"{r['old'] / r['new']:.2f}x", "identical" if r["same"] else "MISMATCH"))
    w = max(len(r[0]) for r in rows)
    print(f"{'case':<{w}}  {'clipped':>11}  {'former':>11}  {'ratio':>7}  answers")
    for name, new, old, ratio, same in rows:
        print(f"{name:<{w}}  {new:>11}  {old:>11}  {ratio:>7}  {same}")
    print(f"ratio = former time / clipped time; load {load0:.1f} -> {os.getloadavg()[0]:.1f}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
