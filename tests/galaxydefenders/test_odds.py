"""Exact odds (explorer/games/galaxydefenders/odds.py) against brute-force enumeration of every random choice the
engine makes (exact Fractions), against Monte Carlo through the step functions, and property tests."""

import math
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.dice import SeededRoller
from explorer.games.galaxydefenders.calibration import default_calibration
from explorer.games.galaxydefenders.combat import AttackModel, TableDice, TargetState, resolve_attack
from explorer.games.galaxydefenders.odds import attack_odds, hit_distribution, summary, wounds_distribution
from explorer.games.galaxydefenders.options import rulings

from .helpers import brute_force

CAL = default_calibration()

SMALL = [
    ("2 red vs 1 shield", TargetState("X", "alien", 3, stacks=(1,)), dict(dice={"red": 2})),
    ("red+yellow, Lethal, two stacks", TargetState("X", "alien", 2, stacks=(1, 1)),
     dict(dice={"red": 1, "yellow": 1}, effects=[{"kind": "lethal", "trigger": "bolt"}])),
    ("2 blue, -1 Def Dice, No Pain", TargetState("A", "agent", 2, standard_shields=1),
     dict(dice={"blue": 2}, effects=[{"kind": "def_dice_minus", "x": 1}])),
    ("fixed 3 hits, Critical 1 vs alien", TargetState("X", "alien", 4),
     dict(fixed_hits=3, effects=[{"kind": "critical", "x": 1}])),
    ("red, Mark on Bolt then Critical 2 when marked, vs agent", TargetState("A", "agent", 3),
     dict(dice={"red": 2}, effects=[{"kind": "mark", "x": 2, "trigger": "bolt"},
                                   {"kind": "critical", "x": 2, "trigger": "target_marked"}])),
    ("Poison on an NPC, items cancel 1", TargetState("N", "npc", 2, cancel_hits=1),
     dict(dice={"yellow": 2}, effects=[{"kind": "poison", "x": 1}])),
]


@pytest.mark.parametrize("name, target, kw", SMALL, ids=[s[0] for s in SMALL])
@pytest.mark.parametrize("high_impact", [True, False])
def test_exact_equals_brute_force(name, target, kw, high_impact):
    attack = AttackModel(target=target.name, **kw)
    exact = attack_odds(target, attack, CAL, high_impact, exact=True)
    brute = brute_force(target, attack, CAL, high_impact)
    assert exact.p == brute
    assert sum(exact.p.values()) == 1


def test_exact_equals_brute_force_under_other_readings():
    target = TargetState("X", "alien", 9, stacks=(1,))
    attack = AttackModel(target="X", dice={"red": 3}, effects=[{"kind": "def_dice_minus", "x": 1}])
    r = {"def_dice_minus_base": "total_hits"}
    assert attack_odds(target, attack, CAL, True, r, exact=True).p == brute_force(target, attack, CAL, True, r)


def test_monte_carlo_large_pool_within_confidence_bound():
    target = TargetState("X", "alien", 8, stacks=(2, 2))
    attack = AttackModel(target="X", dice={"red": 6, "blue": 4}, effects=[{"kind": "critical", "x": 2}])
    d = attack_odds(target, attack, CAL, True)
    mean = wounds_distribution(d).mean()
    var = sum(p * (k - mean) ** 2 for k, p in wounds_distribution(d).items())
    p_down = float(sum(p for o, p in d.items() if o[2] != "alive"))
    n = 3000
    roller = SeededRoller(1234)
    total = down = 0
    r = rulings()
    for _ in range(n):
        state, res, _, _ = resolve_attack({"X": target}, attack, TableDice(CAL, None, roller), True, r)
        total += res[0].wounds
        down += state["X"].status() != "alive"
    assert abs(total / n - mean) < 4 * math.sqrt(var / n)
    assert abs(down / n - p_down) < 4 * math.sqrt(p_down * (1 - p_down) / n) + 1e-9


def test_hit_distribution_convolves_the_faces():
    d = hit_distribution(AttackModel(target="X", dice={"red": 1}, bonus_hits=2), CAL, exact=True)
    assert d.p == {(3, False): Fraction(1, 2), (2, True): Fraction(1, 6), (2, False): Fraction(1, 3)}


def test_summary_is_json_friendly_and_sums_to_one():
    d = attack_odds(TargetState("X", "alien", 3), AttackModel(target="X", dice={"red": 2},
                                                              effects=[{"kind": "critical", "x": 1}]), CAL, exact=True)
    s = summary(d)
    assert sum(Fraction(v) for v in s["wounds"].values()) == 1
    assert Fraction(s["p_critical"]) == sum(Fraction(v) for v in s["critical_tokens"].values())


# ------------------------------------------------------------------------------------------------ properties

pools = st.dictionaries(st.sampled_from(["red", "yellow", "blue"]), st.integers(1, 3), min_size=1, max_size=2)
stacks = st.lists(st.integers(0, 3), max_size=2)


def _attack(pool, lethal, minus):
    eff = ([{"kind": "lethal"}] if lethal else []) + ([{"kind": "def_dice_minus", "x": minus}] if minus else [])
    return AttackModel(target="X", dice=pool, effects=eff + [{"kind": "critical", "x": 1}])


def _ew(target, attack, hi):
    return wounds_distribution(attack_odds(target, attack, CAL, hi, exact=True)).mean()


@settings(max_examples=40, deadline=None)
@given(pools, stacks, st.booleans(), st.integers(0, 2), st.booleans(), st.integers(1, 8))
def test_distribution_sums_to_one(pool, sh, lethal, minus, hi, health):
    d = attack_odds(TargetState("X", "alien", health, stacks=tuple(sh)), _attack(pool, lethal, minus), CAL, hi,
                    exact=True)
    assert sum(d.p.values()) == 1


@settings(max_examples=40, deadline=None)
@given(pools, st.sampled_from(["red", "yellow", "blue"]), stacks, st.booleans(), st.integers(0, 2), st.booleans())
def test_more_attack_dice_never_lower_expected_wounds(pool, colour, sh, lethal, minus, hi):
    t = TargetState("X", "alien", 30, stacks=tuple(sh))
    more = dict(pool)
    more[colour] = more.get(colour, 0) + 1
    assert _ew(t, _attack(more, lethal, minus), hi) >= _ew(t, _attack(pool, lethal, minus), hi)


@settings(max_examples=40, deadline=None)
@given(pools, stacks, st.integers(0, 1), st.booleans(), st.integers(0, 2), st.booleans())
def test_more_energy_shields_never_raise_expected_wounds(pool, sh, which, lethal, minus, hi):
    sh = sh or [0]
    more = list(sh)
    more[min(which, len(more) - 1)] += 1
    a = _attack(pool, lethal, minus)
    assert _ew(TargetState("X", "alien", 30, stacks=tuple(more)), a, hi) <= \
        _ew(TargetState("X", "alien", 30, stacks=tuple(sh)), a, hi)


@settings(max_examples=40, deadline=None)
@given(pools, stacks, st.integers(0, 2), st.booleans())
def test_more_blue_dice_never_raise_expected_wounds(pool, sh, minus, hi):
    t = TargetState("X", "alien", 30, stacks=tuple(sh))
    # one less "-X Def Dice" means one more Blue die (or as many)
    assert _ew(t, _attack(pool, False, minus), hi) <= _ew(t, _attack(pool, False, minus + 1), hi)
