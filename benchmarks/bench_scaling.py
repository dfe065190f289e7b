"""Benchmark: resolving a roll exchange is linear in the number of Reactive Miners, up to the cap and beyond.

Run:  PYTHONPATH=$PWD python benchmarks/bench_scaling.py          (N = 12 .. 100 = MAX_REACTIVE, then 400, 1600)
      PYTHONPATH=$PWD python benchmarks/bench_scaling.py --quick  (small N, for the test suite: runs, no verdict)

For each N the same run builds a scenario with N Reactive Miners (a mix of Ranged Attack, Close Combat, Evade and
Idle AROs, the Active Miner's Burst 20 split over up to 20 of them), as TOML text, and times (best of several):
* ``load``: the loading gate + validation (``load_scenario_text``);
* ``resolve``: ``resolve_detailed`` (trace and structured result).
It prints time / N for each, and the ratio of time / N to that of the smallest N. Linear work keeps the ratio near 1
(fixed costs make it fall below 1); a lookup per Miner through a list (what the resolver did before: ``list.index``
with pydantic equality) made it grow with N: measured 3.8x at N = 100 and 36x at N = 1600 (5.4 s).

N above ``MAX_REACTIVE`` cannot come from a file; those rows copy validated Miners past the cap in memory
(``model_copy``) only to show the trend.

Verdict: ``linear`` when every resolve ratio is below 2 (a quadratic path would give N_max / N_min = 8 at the cap).
"""

from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from _timing import best  # noqa: E402

from explorer.games.tagraid.model import MAX_REACTIVE  # noqa: E402
from explorer.games.tagraid.resolve import resolve_detailed  # noqa: E402
from explorer.games.tagraid.scenarios import load_scenario_text  # noqa: E402

SKILLS = ("ranged_attack", "evade", "close_combat_attack", "idle")


def scenario_toml(n: int) -> str:
    """A valid scenario with ``n`` Reactive Miners (``n`` >= 1), as TOML text."""
    k = min(n, 20)
    lines = ['title = "Scaling"', "seed = 7", "", "[active]", 'name = "Active"', 'skill = "ranged_attack"',
             "attribute = 13", "armor = 3", "wounds = 3", "", "[active.weapon]", 'name = "Rifle"', "damage = 13",
             "burst = 20", ""]
    for i in range(k):
        share = 20 // k + (1 if i < 20 % k else 0)
        lines += ["[[active.attacks]]", f'target = "R{i}"', f"burst = {share}", 'mods = { Range = 3 }', ""]
    for i in range(n):
        sk = SKILLS[i % 4]
        lines += ["[[reactive]]", f'name = "R{i}"', f'skill = "{sk}"', "attribute = 11", "armor = 2", "wounds = 2",
                  f"silhouette_contact = {'true' if sk == 'close_combat_attack' else 'false'}", "mods = { Sight = -3 }"]
        if sk in ("ranged_attack", "close_combat_attack"):
            lines += ["weapon = { damage = 12, burst = 1 }"]
        lines.append("")
    return "\n".join(lines)


def beyond_cap(n: int):
    """A scenario with ``n`` > MAX_REACTIVE Reactive Miners, copied in memory past the cap (never from a file)."""
    base = load_scenario_text(scenario_toml(MAX_REACTIVE), "bench")
    extra = [base.reactive[i % MAX_REACTIVE].model_copy(update={"name": f"X{i}"}) for i in range(n - MAX_REACTIVE)]
    return base.model_copy(update={"reactive": [*base.reactive, *extra]})


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="small N only, for the test suite")
    args = ap.parse_args()
    sizes = [4, 8, 16] if args.quick else [12, 25, 50, MAX_REACTIVE]
    extra = [] if args.quick else [4 * MAX_REACTIVE, 16 * MAX_REACTIVE]
    repeat = 3 if args.quick else 7
    rows = []
    for n in sizes + extra:
        if n <= MAX_REACTIVE:
            text = scenario_toml(n)
            sc = load_scenario_text(text, "bench")
            t_load = best(lambda: load_scenario_text(text, "bench"), repeat)
        else:
            sc, t_load = beyond_cap(n), None
        res = resolve_detailed(sc)
        assert len(res.miners) == n + 1 and res.trace.steps
        t_res = best(lambda: resolve_detailed(sc), repeat)
        rows.append((n, t_load, t_res))
    n0, l0, r0 = rows[0]
    print(f"Reactive Miners: {', '.join(str(r[0]) for r in rows)} (cap MAX_REACTIVE = {MAX_REACTIVE}; rows above it "
          "are built in memory)")
    print(f"{'N':>6} {'load ms':>9} {'load/N µs':>10} {'ratio':>6} {'resolve ms':>11} {'resolve/N µs':>13} "
          f"{'ratio':>6}")
    worst = 0.0
    for n, tl, tr in rows:
        ratio_r = (tr / n) / (r0 / n0)
        worst = max(worst, ratio_r)
        load = (f"{tl * 1e3:9.2f} {tl / n * 1e6:10.1f} {(tl / n) / (l0 / n0):6.2f}" if tl is not None
                else f"{'-':>9} {'-':>10} {'-':>6}")
        print(f"{n:>6} {load} {tr * 1e3:11.2f} {tr / n * 1e6:13.1f} {ratio_r:6.2f}")
    print(f"largest resolve ratio of time/N to N = {n0}: {worst:.2f}")
    if not args.quick:
        print("verdict:", "linear" if worst < 2 else "NOT LINEAR (a lookup per Miner is scanning a list?)")


if __name__ == "__main__":
    main()
