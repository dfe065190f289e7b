"""An agent's full attack (9.2 Combat, 9.5.2.2 the Power Suit's weapon, 8.2.3 -X ATK Dice and 'cannot use Bolt'):
dice added by powers and items, the weapon's other effect symbols, the Power Suit's weapon, against Energy Shields
and the Defend roll. Exact odds against brute-force enumeration of the engine's own steps and against Monte Carlo;
file and command-line refusals; property tests."""

import json
import math
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.cli import main
from explorer.dice import SeededRoller
from explorer.errors import ScenarioError
from explorer.games.galaxydefenders.calibration import default_calibration
from explorer.games.galaxydefenders.combat import (AttackModel, HitRoll, TableDice, TargetState, dice_pool,
                                                   parse_combat, resolve_attack)
from explorer.games.galaxydefenders.odds import attack_odds, hit_roll_distribution, summary, wounds_distribution
from explorer.games.galaxydefenders.options import rulings

from .helpers import brute_force

CAL = default_calibration()
SUIT = dict(attacker_kind="agent", power_suit_weapon=True)

CASES = [
    ("+1 red die from a power, Critical 1 on a Bolt, vs 2,1 shields",
     TargetState("X", "alien", 4, stacks=(2, 1)),
     dict(dice={"red": 2}, bonus_dice={"red": 1}, effects=[{"kind": "critical", "x": 1, "trigger": "bolt"}])),
    ("Power Suit weapon red+blue, wings works like the Bolt: Lethal",
     TargetState("X", "alien", 3, stacks=(1,)),
     dict(dice={"red": 1, "blue": 1}, effect_symbols=["bolt", "wings"], effects=[{"kind": "lethal", "trigger": "bolt"}],
          **SUIT)),
    ("multi-colour weapon, the agent adds a blue die, -1 ATK Dice drops a red",
     TargetState("X", "alien", 5),
     dict(dice={"red": 1, "blue": 1}, bonus_dice={"blue": 1}, atk_dice_minus=1, drop=["red"],
          effects=[{"kind": "def_dice_minus", "x": 1, "trigger": "bolt"}])),
    ("cannot use Bolt, weapon also uses shield results: Critical 1",
     TargetState("X", "alien", 3),
     dict(dice={"blue": 2}, effect_symbols=["bolt", "shield"], no_bolt=True,
          effects=[{"kind": "critical", "x": 1, "trigger": "bolt"}])),
    ("a weapon whose only effect symbol is wings: Bolts do nothing",
     TargetState("X", "alien", 3),
     dict(dice={"red": 2}, effect_symbols=["wings"], effects=[{"kind": "lethal", "trigger": "bolt"}])),
]


@pytest.mark.parametrize("name, target, kw", CASES, ids=[c[0] for c in CASES])
@pytest.mark.parametrize("high_impact", [True, False])
@pytest.mark.parametrize("reading", ["all_effect_symbols", "bolt_only"])
def test_agent_attack_exact_equals_brute_force(name, target, kw, high_impact, reading):
    attack = AttackModel(target=target.name, **kw)
    r = {"no_bolt_other_symbols": reading}
    exact = attack_odds(target, attack, CAL, high_impact, r, exact=True)
    assert exact.p == brute_force(target, attack, CAL, high_impact, r)
    assert sum(exact.p.values()) == 1


def test_bonus_dice_are_rolled_and_named():
    a = AttackModel(target="X", dice={"red": 1, "blue": 1}, bonus_dice={"blue": 2}, atk_dice_minus=1, drop=["red"])
    assert dice_pool(a) == {"blue": 3}
    _, _, hr, steps = resolve_attack({"X": TargetState("X", "alien", 9)}, a, TableDice(CAL, None, SeededRoller(3)),
                                     True, rulings())
    assert len(hr.faces) == 3
    first = next(s for s in steps if s.section == "Hit roll")
    assert first.title == "+2 blue dice from powers and items" and first.rule.section == "9.2 Combat"


def test_power_suit_weapon_ignores_jam_and_ammo_and_its_other_symbol_triggers():
    a = AttackModel(target="X", dice={"red": 2, "blue": 1}, effect_symbols=["bolt", "wings"],
                    effects=[{"kind": "critical", "x": 1, "trigger": "bolt"}],
                    rolled={"hit": {"red": ["hit", "ammo"], "blue": ["wings"]}, "defend": {"X": ["blank"]},
                            "critical": {"X": ["c1-damage"]}},
                    **SUIT)
    t, res, hr, steps = resolve_attack({"X": TargetState("X", "alien", 5)}, a, TableDice(CAL, a.rolled, None),
                                       True, rulings())
    assert (hr.hits, hr.bolts, hr.others) == (1, 0, 1)
    suit = next(s for s in steps if s.rule.section == "9.5.2.2 Combat")
    assert suit.title == "Power Suit weapon: 0 jam results and 1 ammo result ignored"
    assert res[0].critical == "c1-damage"          # the wings result triggered the Critical, like a Bolt
    assert (res[0].blue_dice, res[0].hit_wounds, res[0].wounds) == (1, 1, 2)   # the hit, then 1 additional damage


def test_no_bolt_reading_decides_only_with_another_symbol():
    a = AttackModel(target="X", dice={"red": 1}, effect_symbols=["bolt", "wings"], no_bolt=True,
                    effects=[{"kind": "lethal", "trigger": "bolt"}])
    from explorer.games.galaxydefenders.combat import effect_active

    eff = a.effects[0]
    t = TargetState("X", "alien", 3)
    for reading, want in (("all_effect_symbols", False), ("bolt_only", True)):
        r = rulings({"no_bolt_other_symbols": reading})
        assert effect_active(eff, HitRoll(1, 0, others=1), a, t, r) is want
        assert "no_bolt_other_symbols" in r.consulted
        r2 = rulings({"no_bolt_other_symbols": reading})
        assert effect_active(eff, HitRoll(1, 1, others=0), a, t, r2) is False
        assert "no_bolt_other_symbols" not in r2.consulted


def test_monte_carlo_power_suit_attack_within_confidence_bound():
    target = TargetState("X", "alien", 6, stacks=(2, 1))
    attack = AttackModel(target="X", dice={"red": 4, "blue": 3}, bonus_dice={"red": 1},
                         effect_symbols=["bolt", "wings"], effects=[{"kind": "critical", "x": 1, "trigger": "bolt"},
                                                                   {"kind": "def_dice_minus", "x": 1}], **SUIT)
    d = attack_odds(target, attack, CAL, True)
    w = wounds_distribution(d)
    mean = w.mean()
    var = sum(p * (k - mean) ** 2 for k, p in w.items())
    p_crit = float(sum(p for o, p in d.items() if o[3]))
    n, roller, r = 3000, SeededRoller(99), rulings()
    total = crit = 0
    for _ in range(n):
        _, res, _, _ = resolve_attack({"X": target}, attack, TableDice(CAL, None, roller), True, r)
        total += res[0].wounds
        crit += res[0].critical is not None
    assert abs(total / n - mean) < 4 * math.sqrt(var / n)
    assert abs(crit / n - p_crit) < 4 * math.sqrt(p_crit * (1 - p_crit) / n) + 1e-9


def test_hit_roll_distribution_tracks_bolts_and_other_symbols_apart():
    d = hit_roll_distribution(AttackModel(target="X", dice={"blue": 1}, effect_symbols=["bolt", "wings"]), CAL,
                              exact=True)
    # blue: hit, shield, shield, bolt, wings, blank
    assert d.p == {(1, False, False): Fraction(1, 6), (0, False, False): Fraction(3, 6),
                   (0, True, False): Fraction(1, 6), (0, False, True): Fraction(1, 6)}


# ------------------------------------------------------------------------------------------------ refusals

BASE = {"game": "galaxydefenders", "kind": "combat", "targets": [{"name": "X", "health": 3}]}


@pytest.mark.parametrize("attack, field", [
    ({"dice": {"red": 2}, "bonus_dice": {"blue": 1}}, "attacks[0].bonus_dice.blue"),
    ({"fixed_hits": 2, "bonus_dice": {"red": 1}}, "attacks[0].bonus_dice"),
    ({"dice": {"red": 2}, "power_suit_weapon": True}, "attacks[0].dice"),
    ({"dice": {"red": 1, "blue": 1}, "power_suit_weapon": True, "attacker_kind": "alien"},
     "attacks[0].power_suit_weapon"),
    ({"dice": {"red": 1, "blue": 1}, "power_suit_weapon": True, "effect_symbols": ["bolt", "jam"]},
     "attacks[0].effect_symbols"),
    ({"dice": {"red": 1}, "effect_symbols": ["bolt", "bolt"]}, "attacks[0].effect_symbols"),
    ({"dice": {"red": 1, "blue": 1}, "bonus_dice": {"blue": 1}, "atk_dice_minus": 1}, "attacks[0].drop"),
])
def test_file_refusals_name_the_field(attack, field):
    with pytest.raises(ScenarioError) as e:
        parse_combat({**BASE, "attacks": [{"target": "X", **attack}]}, "f.toml")
    assert e.value.field == field and e.value.source == "f.toml"


def test_cli_agent_attack_json_equals_the_engine(capsys):
    argv = ["galaxydefenders", "odds", "--dice", "red=2,blue=1", "--power-suit-weapon", "--bonus-dice", "red=1",
            "--effect-symbols", "bolt,wings", "--on-effect", "--critical", "1", "--shields", "2,1", "--health", "5",
            "--json", "--exact"]
    assert main(argv) == 0
    got = json.loads(capsys.readouterr().out)
    attack = AttackModel(target="target", dice={"red": 2, "blue": 1}, bonus_dice={"red": 1},
                         effect_symbols=["bolt", "wings"], effects=[{"kind": "critical", "x": 1, "trigger": "bolt"}],
                         **SUIT)
    want = summary(attack_odds(TargetState("target", "alien", 5, stacks=(2, 1)), attack, CAL, exact=True))
    assert {k: got[k] for k in want} == json.loads(json.dumps(want))


@pytest.mark.parametrize("argv, option", [
    (["--dice", "red=2", "--bonus-dice", "blue=1"], "--bonus-dice"),
    (["--dice", "red=2", "--power-suit-weapon"], "--power-suit-weapon"),
    (["--dice", "red=1,blue=1", "--atk-dice-minus", "1"], "--drop"),
    (["--dice", "red=1", "--effect-symbols", "zap"], "--effect-symbols"),
    (["--dice", "red=1", "--on-effect"], "--on-effect"),
    (["--fixed-hits", "2", "--critical", "1", "--on-effect"], "--on-effect"),
])
def test_cli_refusals_are_one_line_naming_the_option(capsys, argv, option):
    assert main(["galaxydefenders", "odds", *argv]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and f"'{option}'" in err


# ------------------------------------------------------------------------------------------------ properties

def _ew(target, attack, r=None):
    return wounds_distribution(attack_odds(target, attack, CAL, True, r, exact=True)).mean()


EFFECTS = st.lists(st.sampled_from([{"kind": "lethal", "trigger": "bolt"},
                                    {"kind": "critical", "x": 1, "trigger": "bolt"},
                                    {"kind": "def_dice_minus", "x": 1, "trigger": "bolt"}]), max_size=2)


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 2), st.integers(1, 2), st.sampled_from(["red", "blue"]), st.integers(1, 2), EFFECTS,
       st.lists(st.integers(0, 2), max_size=2))
def test_a_power_adding_dice_never_lowers_expected_wounds(red, blue, colour, extra, effects, sh):
    t = TargetState("X", "alien", 30, stacks=tuple(sh))
    base = AttackModel(target="X", dice={"red": red, "blue": blue}, effects=effects, **SUIT)
    more = AttackModel(target="X", dice={"red": red, "blue": blue}, bonus_dice={colour: extra}, effects=effects,
                       **SUIT)
    assert _ew(t, more) >= _ew(t, base)


@settings(max_examples=30, deadline=None)
@given(st.dictionaries(st.sampled_from(["red", "yellow", "blue"]), st.integers(1, 2), min_size=1, max_size=2),
       st.sampled_from(["wings", "shield", "jam", "ammo"]), EFFECTS, st.booleans())
def test_another_effect_symbol_never_lowers_expected_wounds(pool, symbol, effects, no_bolt):
    t = TargetState("X", "alien", 30, stacks=(1,))
    a = AttackModel(target="X", dice=pool, effects=effects, no_bolt=no_bolt)
    b = AttackModel(target="X", dice=pool, effects=effects, no_bolt=no_bolt, effect_symbols=["bolt", symbol])
    for reading in ("all_effect_symbols", "bolt_only"):
        r = {"no_bolt_other_symbols": reading}
        assert _ew(t, b, r) >= _ew(t, a, r)
        if no_bolt and reading == "all_effect_symbols":
            assert _ew(t, b, r) == _ew(t, a, r)


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 3), st.integers(1, 3), EFFECTS)
def test_the_suit_weapon_flag_changes_no_odds(red, blue, effects):
    """9.5.2.2's ignored jam and ammo results deal no wound either way: only the trace differs."""
    t = TargetState("X", "alien", 30, stacks=(2,))
    a = AttackModel(target="X", dice={"red": red, "blue": blue}, effects=effects)
    b = AttackModel(target="X", dice={"red": red, "blue": blue}, effects=effects, **SUIT)
    assert attack_odds(t, a, CAL, exact=True).p == attack_odds(t, b, CAL, exact=True).p
