"""Ruling no_pain_without_dice (issue 21, item h; Storybook 5.5.1, 8.1): a power's standard shield result when
"-X Def Dice" leaves no Blue die; both readings, exact odds against brute force, the built-in."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.games.galaxydefenders.calibration import default_calibration
from explorer.games.galaxydefenders.combat import AttackModel, TargetState
from explorer.games.galaxydefenders.odds import attack_odds, wounds_distribution

from .helpers import brute_force, resolve

CAL = default_calibration()


@pytest.mark.parametrize("reading, wounds", [("cancels", 1), ("needs_dice", 2)])
def test_the_built_in_under_both_readings(reading, wounds):
    t = resolve("gd-no-pain-no-dice", no_pain_without_dice=reading)
    assert t.result.target("Hulk").wounds == wounds
    assert t.rulings["no_pain_without_dice"] == reading


def test_not_consulted_when_a_blue_die_is_rolled_or_against_lethal():
    t = TargetState("Hulk", "agent", 8, standard_shields=1)
    for effects in ([{"kind": "def_dice_minus", "x": 1}], [{"kind": "lethal"}]):
        a = AttackModel(target="Hulk", fixed_hits=2, effects=effects, attacker_kind="alien")
        from explorer.games.galaxydefenders.options import rulings
        r = rulings()
        attack_odds(t, a, CAL, True, r, exact=True)
        assert "no_pain_without_dice" not in r.consulted


@pytest.mark.parametrize("reading", ["cancels", "needs_dice"])
def test_exact_equals_brute_force(reading):
    t = TargetState("Hulk", "agent", 6, standard_shields=1, stacks=(1,))
    a = AttackModel(target="Hulk", dice={"red": 2, "yellow": 1}, effects=[{"kind": "def_dice_minus", "x": 2}])
    r = {"no_pain_without_dice": reading}
    assert attack_odds(t, a, CAL, True, r, exact=True).p == brute_force(t, a, CAL, True, r)


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 6), st.integers(1, 5), st.integers(0, 2), st.booleans())
def test_needs_dice_never_deals_fewer_wounds(hits, minus, shields, hi):
    t = TargetState("Hulk", "agent", 30, standard_shields=shields)
    a = AttackModel(target="Hulk", fixed_hits=hits, effects=[{"kind": "def_dice_minus", "x": minus}])
    ew = {r: wounds_distribution(attack_odds(t, a, CAL, hi, {"no_pain_without_dice": r}, exact=True)).mean()
          for r in ("cancels", "needs_dice")}
    assert ew["needs_dice"] >= ew["cancels"]
    if hits <= minus and shields:
        assert ew["needs_dice"] == ew["cancels"] + min(hits, shields)
