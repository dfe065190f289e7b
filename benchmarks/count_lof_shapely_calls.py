"""Count (issue 24 item 1): the shapely calls of an all-pairs Line of Fire run, scalar against vectorised, on the fast
path and on the former path (``geometry.fast_path(False)``) of the same code, in the same run.

Run from the repository root::

    PYTHONPATH=$PWD python benchmarks/count_lof_shapely_calls.py [--models 20]

The table is ``bench_lof_fast.board(0, 10, n, 40, 30)`` (331 hexagons, 40 scenery pieces, 30 hexagons without
tile). Two runs on a fresh table each: the full rule for every ordered pair (``line_of_fire``, ``explain=False``) and
the cold analysis (``LofAnalysisCache.all_pairs``: LoF, Range Ruler, Partial Cover). Every public function of the
``shapely`` namespace is wrapped (geometry methods such as ``g.intersects(h)`` and ``g.bounds`` call those too); a
call is *vectorised* when one of its arguments is an array or list of more than one element, else *scalar*. Also
counted: ``pieces.Model.disc`` (a Model's disc built) and ``shapely.STRtree`` built.

Item 1 asks for geometry built once per table state, an STRtree for the scenery near each segment, all candidate
segments tested in vectorised calls and no scalar ``intersects`` in loops. Two verdict lines, on the fast path of
both runs: no scalar predicate or measure (intersects, dwithin, distance, intersection, contains, covers, crosses,
touches, within, ...) called, and each Model's disc built at most once; each prints MET, or MISSED with the counts.
"""

from __future__ import annotations

import argparse
import collections
import functools
import inspect
import os
import sys

import numpy as np
import shapely

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

PREDICATES = ("intersects", "dwithin", "distance", "intersection", "contains", "contains_properly", "covers",
              "covered_by", "crosses", "touches", "within", "overlaps", "disjoint")
COUNTS: collections.Counter = collections.Counter()


def _kind(args) -> str:
    for a in args:
        if (isinstance(a, np.ndarray) and a.size > 1) or (isinstance(a, (list, tuple)) and len(a) > 1):
            return "vectorised"
    return "scalar"


def _install() -> None:
    """Wrap every public function of ``shapely`` (and ``STRtree``, ``pieces.Model.disc``) to count its calls."""
    for name in dir(shapely):
        f = getattr(shapely, name)
        if name.startswith("_") or not callable(f) or inspect.isclass(f) or inspect.ismodule(f):
            continue

        def wrap(f=f, name=name):
            @functools.wraps(f)
            def w(*a, **k):
                COUNTS[(name, _kind(a))] += 1
                return f(*a, **k)
            return w
        setattr(shapely, name, wrap())
    tree = shapely.STRtree

    class CountedTree(tree):
        def __init__(self, *a, **k):
            COUNTS[("STRtree built", "")] += 1
            super().__init__(*a, **k)
    shapely.STRtree = CountedTree
    from explorer.games.tagraid import pieces

    disc = pieces.Model.disc

    def counted_disc(self, *a, **k):
        COUNTS[("Model.disc", "")] += 1
        return disc(self, *a, **k)
    pieces.Model.disc = counted_disc


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--models", type=int, default=20)
    a = ap.parse_args(argv)
    _install()
    import bench_lof_fast as B

    from explorer.games.tagraid.geometry import fast_path
    from explorer.games.tagraid.lof_analysis import LofAnalysisCache
    from explorer.games.tagraid.options import rulings

    rul = rulings()
    runs = {"full rule, every ordered pair": lambda t: B.all_pairs(t, rul),
            "cold analysis (LoF + Range + Cover)": lambda t: LofAnalysisCache().all_pairs(t, rul.copy())}
    n = a.models
    print(f"shapely calls, all {n * (n - 1)} ordered pairs of {n} Models on 331 hexagons (40 scenery, 30 without tile)")
    scalar_bad, disc_bad = [], []
    for label, run in runs.items():
        got = {}
        for fast in (True, False):
            with fast_path(fast):
                table = B.board(0, 10, n, 40, 30)
                COUNTS.clear()
                run(table)
                got[fast] = collections.Counter(COUNTS)
        print(f"\n{label}:  fast path / former path")
        names = sorted({k for c in got.values() for k in c}, key=lambda k: -(got[True][k] + got[False][k]))
        for k in names:
            print(f"  {k[0]:24s} {k[1]:10s} {got[True][k]:7,d} / {got[False][k]:7,d}")
        tot = {f: (sum(v for k, v in got[f].items() if k[1] == "scalar"),
                   sum(v for k, v in got[f].items() if k[1] == "vectorised")) for f in (True, False)}
        print(f"  scalar calls {tot[True][0]:,} / {tot[False][0]:,}; vectorised {tot[True][1]:,} / {tot[False][1]:,}")
        bad_scalar = sum(v for k, v in got[True].items() if k[1] == "scalar" and k[0] in PREDICATES)
        if bad_scalar:
            scalar_bad.append(f"{label}: {bad_scalar}")
        discs = got[True][("Model.disc", "")]
        if discs > n:
            disc_bad.append(f"{label}: {discs} for {n} Models")
    print("\nitem 1: no scalar shapely predicate or measure on the fast path: "
          + ("MET" if not scalar_bad else "MISSED (" + "; ".join(scalar_bad) + ")"))
    print("item 1: each Model's disc built at most once per table state (pieces.Model.disc): "
          + ("MET" if not disc_bad else "MISSED (" + "; ".join(disc_bad) + ")"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
