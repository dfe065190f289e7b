"""Benchmark: the exact odds engine (explorer.games.tagraid.odds) against brute-force enumeration.

Run:  python benchmarks/bench_odds.py          (full: brute force up to 3 vs 2 = 3.2 million rolls, ~1 minute)
      python benchmarks/bench_odds.py --quick  (correctness only: tiny cases, for the test suite)

The baseline is measured in the same run: enumerate every one of the 20^(nA+nB) ordered rolls, cancel them with
rolls.compare, count Saving Rolls with rolls.saving_rolls, then mix binomials for the Wounds. Where that is
infeasible (20^9 rolls for 6 vs 3), the baseline time is EXTRAPOLATED from the measured cost per roll and labelled
so. Every brute-force case measured is also checked for exact equality with the engine (Fractions).

Targets (2-core machine): 6 vs 3 complete result with both Wounds distributions < 5 ms; 10 vs 10 and 20 vs 20
< 50 ms; the whole SV 1-20 x SV 1-20 table < 2 s.
"""

from __future__ import annotations

import argparse
import itertools
import math
import os
import statistics
import sys
import time
from fractions import Fraction

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from explorer.games.tagraid.odds import SideSpec, face_to_face, sv_table  # noqa: E402
from explorer.games.tagraid.options import rulings as make_rulings  # noqa: E402
from explorer.games.tagraid.rolls import classify_die, compare, saving_rolls  # noqa: E402


def brute_force(a: SideSpec, b: SideSpec, exact: bool = True) -> dict:
    """Baseline: every ordered roll of both sides; p_a/p_b/nobody and both Wounds distributions."""
    r = make_rulings()
    da = [classify_die(f, a.sv, r) for f in range(1, 21)]
    db = [classify_die(f, b.sv, r) for f in range(1, 21)]
    counts = {"a": 0, "b": 0, None: 0}
    saves_a: dict[int, int] = {}
    saves_b: dict[int, int] = {}
    rolls_b = list(itertools.product(db, repeat=b.burst))
    for ra in itertools.product(da, repeat=a.burst):
        for rb in rolls_b:
            c = compare(ra, rb)
            counts[c.winner] += 1
            sb = saving_rolls(c.a_hits, c.a_crits, a.ammunition)
            sa = saving_rolls(c.b_hits, c.b_crits, b.ammunition)
            saves_b[sb] = saves_b.get(sb, 0) + 1
            saves_a[sa] = saves_a.get(sa, 0) + 1
    total = 20 ** (a.burst + b.burst)

    def wounds(saves, side):
        p = Fraction(max(0, min(20, side.attack_damage)), 20)
        out: dict[int, Fraction] = {}
        for s, cnt in saves.items():
            for k in range(s + 1):
                kk = k if side.opponent_wounds is None else min(k, side.opponent_wounds)
                out[kk] = out.get(kk, 0) + Fraction(cnt, total) * math.comb(s, k) * p ** k * (1 - p) ** (s - k)
        return [out.get(i, Fraction(0)) for i in range(max(out) + 1)]

    return {"p_a_wins": Fraction(counts["a"], total), "p_b_wins": Fraction(counts["b"], total),
            "p_nobody": Fraction(counts[None], total), "wounds_to_b": wounds(saves_b, a),
            "wounds_to_a": wounds(saves_a, b), "rolls": total}


def _strip(lst):
    lst = list(lst)
    while len(lst) > 1 and not lst[-1]:
        lst.pop()
    return lst


def timed(fn, repeat: int = 5, min_time: float = 0.05) -> float:
    """Median seconds per call over ``repeat`` batches (each batch runs at least ``min_time``)."""
    fn()  # warm-up (imports, coefficient tables)
    n = 1
    while True:
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        dt = time.perf_counter() - t0
        if dt >= min_time or n >= 1 << 16:
            break
        n *= 2
    samples = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        samples.append((time.perf_counter() - t0) / n)
    return statistics.median(samples)


def fmt_t(s: float) -> str:
    if s >= 3600:
        return f"{s / 3600:.3g} h"
    if s >= 1:
        return f"{s:.3g} s"
    if s >= 1e-3:
        return f"{s * 1e3:.3g} ms"
    return f"{s * 1e6:.3g} us"


def side_pair(na: int, nb: int) -> tuple[SideSpec, SideSpec]:
    return SideSpec(14, na, 12, "EXP", 8), SideSpec(12, nb, 10, "DA", None)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="tiny cases, correctness only (used by the tests)")
    args = ap.parse_args(argv)
    quick = args.quick

    measured = [(1, 1), (2, 1)] if quick else [(1, 1), (2, 1), (2, 2), (3, 2)]
    engine_only = [(6, 3)] if quick else [(4, 3), (6, 3), (10, 10), (20, 20)]
    targets = {(6, 3): 5e-3, (10, 10): 50e-3, (20, 20): 50e-3}
    rows = []
    per_roll = None
    repeat = 1 if quick else 5
    for na, nb in measured:
        a, b = side_pair(na, nb)
        t0 = time.perf_counter()
        bf = brute_force(a, b)
        t_bf = time.perf_counter() - t0
        per_roll = t_bf / bf["rolls"]
        ex = face_to_face(a, b, exact=True)
        ok = ((ex.p_a_wins, ex.p_b_wins, ex.p_nobody) == (bf["p_a_wins"], bf["p_b_wins"], bf["p_nobody"])
              and _strip(ex.wounds_to_a) == _strip(bf["wounds_to_a"])
              and _strip(ex.wounds_to_b) == _strip(bf["wounds_to_b"]))
        if not ok:
            print(f"MISMATCH engine vs brute force at {na} vs {nb}", file=sys.stderr)
            return 1
        t_f = timed(lambda: face_to_face(a, b), repeat=repeat, min_time=0.0 if quick else 0.05)
        t_x = timed(lambda: face_to_face(a, b, exact=True), repeat=repeat, min_time=0.0 if quick else 0.05)
        rows.append((f"{na} vs {nb} complete", fmt_t(t_f), fmt_t(t_x), fmt_t(t_bf) + " (measured)",
                     f"{t_bf / t_f:,.0f}x", "exact == brute", ""))
    for na, nb in engine_only:
        a, b = side_pair(na, nb)
        t_f = timed(lambda: face_to_face(a, b), repeat=repeat, min_time=0.0 if quick else 0.05)
        t_x = timed(lambda: face_to_face(a, b, exact=True), repeat=repeat if na < 20 else 1,
                    min_time=0.0 if quick else 0.05)
        t_bf = per_roll * 20 ** (na + nb)
        goal = targets.get((na, nb))
        verdict = "" if goal is None or quick else ("MET" if t_f < goal else "MISSED") + f" (< {fmt_t(goal)})"
        rows.append((f"{na} vs {nb} complete", fmt_t(t_f), fmt_t(t_x), fmt_t(t_bf) + " (EXTRAPOLATED)",
                     f"{t_bf / t_f:.3g}x", "", verdict))
    # the whole SV table (win/lose/nobody for SV 1..20 x 1..20), Burst 3 vs 1
    svs = range(1, 21) if not quick else range(1, 4)
    t_tab = timed(lambda: sv_table(3, 1, svs_a=svs, svs_b=svs), repeat=repeat, min_time=0.0 if quick else 0.2)
    cells = len(svs) ** 2
    a, b = SideSpec(12, 3, 12), SideSpec(12, 1, 10)
    if quick:
        t_cell_bf = per_roll * 20 ** 4
        bf_label = "(EXTRAPOLATED)"
    else:
        t0 = time.perf_counter()
        brute_force(a, b)
        t_cell_bf = time.perf_counter() - t0
        bf_label = f"(1 cell measured, x{cells} EXTRAPOLATED)"
    t_tab_x = timed(lambda: sv_table(3, 1, svs_a=svs, svs_b=svs, exact=True), repeat=1, min_time=0.0)
    tab = sv_table(3, 1, svs_a=svs, svs_b=svs, exact=True)
    for sa, sb in [(svs[0], svs[-1]), (svs[-1], svs[0])]:
        f = face_to_face(SideSpec(sa, 3), SideSpec(sb, 1), exact=True)
        if tab.cell(sa, sb) != (f.p_a_wins, f.p_b_wins, f.p_nobody):
            print("MISMATCH sv_table vs face_to_face", file=sys.stderr)
            return 1
    rows.append((f"SV table {len(svs)}x{len(svs)}, 3 vs 1", fmt_t(t_tab), fmt_t(t_tab_x),
                 fmt_t(t_cell_bf * cells) + " " + bf_label, f"{t_cell_bf * cells / t_tab:,.0f}x", "",
                 ("MET" if t_tab < 2 else "MISSED") + " (< 2 s)" if not quick else ""))

    head = ("case", "engine float", "engine exact", "brute force", "speed-up", "check", "target")
    widths = [max(len(str(r[i])) for r in rows + [head]) for i in range(len(head))]
    line = lambda r: "  ".join(str(c).ljust(w) for c, w in zip(r, widths))  # noqa: E731
    print(f"Odds engine benchmark{' (quick: correctness only)' if quick else ''}; python {sys.version.split()[0]}, "
          f"{os.cpu_count()} cpus")
    print(f"brute force cost per roll (measured, largest case): {fmt_t(per_roll)}")
    print(line(head))
    print(line(["-" * w for w in widths]))
    for r in rows:
        print(line(r))
    print("speed-up = brute force time / engine float time; EXTRAPOLATED = cost per roll x 20^(nA+nB), not run.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
