"""The step-by-step resolver and the exact odds engine agree: enumerate every die of small exchanges through
resolve() and compare the frequencies with explorer.games.tagraid.odds (skipped until the odds engine is merged)."""

from collections import Counter
from fractions import Fraction
from itertools import product

import pytest

from explorer.games.tagraid.resolve import resolve

from engine_helpers import build, miner

odds = pytest.importorskip("explorer.games.tagraid.odds")


class _Then20:
    """Attack dice from a list, then 20s (every Saving Roll passes; only their count matters here)."""

    def __init__(self, faces):
        self.faces = list(faces)

    def roll(self, sides=20, label=""):
        return self.faces.pop(0) if self.faces else 20


CASES = [
    (12, 1, 12, 1, "N", {}),
    (14, 1, 12, 1, "DA", {}),
    (5, 1, 17, 1, "EXP", {}),
    (23, 1, 10, 1, "N", {"sv_above_20": "literal"}),
    (23, 1, 10, 1, "AP", {"sv_above_20": "excess_to_die"}),
    (12, 2, 13, 1, "N", {}),
]


@pytest.mark.parametrize("sv_a,burst_a,sv_b,burst_b,ammo,rulings", CASES)
def test_face_to_face_frequencies_equal_exact_odds(sv_a, burst_a, sv_b, burst_b, ammo, rulings):
    weapon = {"damage": 13, "burst": burst_a, "ammunition": ammo}
    sc = build(miner("A", attribute=sv_a, weapon=weapon, wounds=30, attacks=[{"target": "B"}]),
               [miner("B", attribute=sv_b, burst_mod=burst_b - 1, wounds=30,
                      weapon={"damage": 13, "burst": 1, "ammunition": ammo})])
    outcomes, saves_b, saves_a = Counter(), Counter(), Counter()
    n = 0
    for faces in product(range(1, 21), repeat=burst_a + burst_b):
        t = resolve(sc, roller=_Then20(faces), rulings=rulings)
        p = t.outcome["pairs"][0]
        w = p["winner"]
        key = ("a", p["hits"]["A"], p["crits"]["A"]) if w == "A" else \
            ("b", p["hits"]["B"], p["crits"]["B"]) if w == "B" else (None, 0, 0)
        outcomes[key] += 1
        saves_b[t.outcome["saving_rolls"].get("B", 0)] += 1
        saves_a[t.outcome["saving_rolls"].get("A", 0)] += 1
        n += 1
    ex = odds.face_to_face(odds.SideSpec(sv_a, burst_a, 0, ammo), odds.SideSpec(sv_b, burst_b, 0, ammo),
                           rulings=rulings, exact=True)
    assert {k: Fraction(v, n) for k, v in outcomes.items()} == {k: v for k, v in ex.outcomes.items() if v}
    assert [Fraction(saves_b[k], n) for k in range(len(ex.saving_rolls_to_b))] == list(ex.saving_rolls_to_b)
    assert [Fraction(saves_a[k], n) for k in range(len(ex.saving_rolls_to_a))] == list(ex.saving_rolls_to_a)


MB_CASES = [
    (12, 2, 8, "EXP", {}),
    (7, 2, 8, "N", {"megabeast_critical": "critical_wins"}),
    (9, 2, 9, "DA", {"megabeast_equal": "tie"}),
    (9, 2, 9, "DA", {"megabeast_equal": "megabeast_prevails", "megabeast_critical": "must_exceed"}),
    (22, 1, 20, "N", {"sv_above_20": "excess_to_die"}),
]


@pytest.mark.parametrize("sv,burst,tl,ammo,rulings", MB_CASES)
def test_versus_megabeast_frequencies_equal_exact_odds(sv, burst, tl, ammo, rulings):
    sc = build(miner("A", "close_combat_attack", attribute=sv, wounds=30,
                     weapon={"damage": 13, "burst": burst, "ammunition": ammo}, attacks=[{"target": "MB"}]),
               [], {"name": "MB", "threat_level": tl, "wounds": 50, "silhouette_contact": True})
    outcomes, produced = Counter(), Counter()
    n = 0
    for faces in product(range(1, 21), repeat=burst):
        t = resolve(sc, roller=_Then20(faces), rulings=rulings)
        p = t.outcome["pairs"][0]
        key = ("a", p["hits"]["A"], p["crits"]["A"]) if p["winner"] == "A" else \
            ("b", 0, 0) if p["winner"] == "MB" else (None, 0, 0)
        outcomes[key] += 1
        produced[t.outcome["megabeast"]["wounds"]] += 1
        n += 1
    ex = odds.versus_megabeast(odds.SideSpec(sv, burst, 13, ammo), tl, rulings=rulings, exact=True)
    assert {k: Fraction(v, n) for k, v in outcomes.items()} == {k: v for k, v in ex.outcomes.items() if v}
    assert [Fraction(produced[k], n) for k in range(len(ex.saving_rolls_to_b))] == list(ex.saving_rolls_to_b)
