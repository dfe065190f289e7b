"""Galaxy Defenders exact combat odds: speed of the convolution against brute-force enumeration, same run.

Run: ``python benchmarks/bench_gd_odds.py [--quick]``. Prints the exact wound distribution time for 12 Hit dice
against up to 5 Blue dice (High Impact) and two Energy Shield stacks (goal: < 10 ms), and the speed-up over brute
force (every face of every die and every Critical draw enumerated through the engine) on a pool brute force can
finish, checking that both give the same Fractions. No timing is asserted; the test suite only runs ``--quick``.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _timing import best  # noqa: E402

from explorer.games.galaxydefenders.calibration import default_calibration  # noqa: E402
from explorer.games.galaxydefenders.combat import AttackModel, TargetState  # noqa: E402
from explorer.games.galaxydefenders.odds import _shields, attack_odds  # noqa: E402
from tests.galaxydefenders.helpers import brute_force  # noqa: E402


def main(quick: bool) -> None:
    cal = default_calibration()
    big_t = TargetState("X", "alien", 10, stacks=(2, 2))
    big_a = AttackModel(target="X", dice={"red": 8, "yellow": 4}, effects=[{"kind": "def_dice_minus", "x": 1}])

    def big():
        _shields.cache_clear()
        return attack_odds(big_t, big_a, cal, True)

    t_big = best(big, 1 if quick else 5)
    print(f"12 Hit dice vs <=5 Blue dice, 2 stacks: {t_big * 1000:.2f} ms (goal < 10 ms)")

    small_t = TargetState("X", "alien", 4, stacks=(1, 1))
    small_a = AttackModel(target="X", dice={"red": 2 if quick else 3}, effects=[{"kind": "critical", "x": 1}])
    exact = attack_odds(small_t, small_a, cal, True, exact=True)
    brute = brute_force(small_t, small_a, cal, True)
    print("exact == brute" if exact.p == brute else "MISMATCH exact != brute")

    def ex():
        _shields.cache_clear()
        return attack_odds(small_t, small_a, cal, True, exact=True)

    t_ex = best(ex, 1 if quick else 3)
    t_bf = best(lambda: brute_force(small_t, small_a, cal, True), 1)
    print(f"{sum(small_a.dice.values())} red dice + Critical 1: exact {t_ex * 1000:.2f} ms, brute force "
          f"{t_bf * 1000:.1f} ms, ratio {t_bf / t_ex:.0f}x")


if __name__ == "__main__":
    main("--quick" in sys.argv)
