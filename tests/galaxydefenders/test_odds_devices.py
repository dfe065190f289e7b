"""Devices in the exact odds (issue 21 item 7: "an agent's full attack with Powers and Devices"): the agent's own
attack and the attack of the drone its Device deployed (Vigil 9.7.4.2, GD-5 9.7.4.3: activated with the agent's
Action, it "immediately moves and fights"; its weapon never jams; GD-5's attacks always deal Area Damage), in one
turn on one target. :func:`~explorer.games.galaxydefenders.odds.turn_odds` against brute-force enumeration of every
die face and Critical token the engine's own several-attack sequence draws, and against Monte Carlo through it."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.dice import SeededRoller
from explorer.games.galaxydefenders.calibration import default_calibration
from explorer.games.galaxydefenders.combat import AttackModel, TargetState
from explorer.games.galaxydefenders.odds import attack_odds, summary, turn_odds

from .helpers import brute_force_turn, play_turn

CAL = default_calibration()


def _drone(kind: str, **kw) -> AttackModel:
    """The stand-in drone tile's weapon as an attack (round_signals.DRONE_TILES)."""
    from explorer.games.galaxydefenders.odds import drone_attack

    return drone_attack(kind, "X", **kw)


def _with(attack: AttackModel, **update) -> AttackModel:
    return AttackModel(**{**attack.model_dump(), **update})


# Small pools (the brute force replays the engine once per prefix of choices): the drone's tile weapon given as one
# die; the stand-in tiles themselves are checked by Monte Carlo below.
VIGIL_1 = _drone("vigil", dice={"yellow": 1})
TURNS = [
    ("agent red Critical 1, then Vigil, vs 1 shield", TargetState("X", "alien", 3, stacks=(1,)),
     [AttackModel(target="X", dice={"red": 1}, effects=[{"kind": "critical", "x": 1}]), VIGIL_1]),
    pytest.param("Power +1 hit, agent Mark 1, then GD-5 Critical 1 on a marked target", TargetState("X", "alien", 3),
                 [AttackModel(target="X", dice={"yellow": 1}, bonus_hits=1, effects=[{"kind": "mark", "x": 1}]),
                  _with(_drone("gd-5", dice={"red": 1}),
                        effects=[{"kind": "critical", "x": 1, "trigger": "target_marked"}])],
                 marks=pytest.mark.slow, id="Power +1 hit, agent Mark 1, then GD-5 Critical 1 on a marked target"),
    ("Lethal agent attack kills before Vigil", TargetState("X", "alien", 2, stacks=(1, 0)),
     [AttackModel(target="X", fixed_hits=3, effects=[{"kind": "lethal"}]), VIGIL_1]),
    ("two Critical 1 attacks: the second draw is from the pile less the first token (8.2)",
     TargetState("X", "alien", 9), [AttackModel(target="X", fixed_hits=1, effects=[{"kind": "critical", "x": 1}]),
                                    AttackModel(target="X", fixed_hits=1, effects=[{"kind": "lethal"},
                                                                                   {"kind": "critical", "x": 1}])]),
    ("Vigil first, then the agent's Poison on an NPC", TargetState("X", "npc", 3),
     [VIGIL_1, AttackModel(target="X", dice={"red": 1}, effects=[{"kind": "poison", "x": 1}])]),
]


@pytest.mark.parametrize("name, target, seq", TURNS, ids=[t[0] if isinstance(t, tuple) else t.id for t in TURNS])
def test_turn_odds_equal_brute_force(name, target, seq):
    exact = turn_odds(target, seq, CAL, True, exact=True)
    assert exact.p == brute_force_turn(target, seq)
    assert sum(exact.p.values()) == 1


def test_one_attack_turn_is_the_single_attack_odds():
    t = TargetState("X", "alien", 4, stacks=(2,))
    a = AttackModel(target="X", dice={"red": 2, "yellow": 1}, effects=[{"kind": "critical", "x": 2}])
    assert summary(turn_odds(t, [a], CAL, exact=True)) == summary(attack_odds(t, a, CAL, exact=True))


def test_monte_carlo_agent_and_gd5_within_confidence_bound():
    target = TargetState("X", "alien", 6, stacks=(2, 1))
    seq = [AttackModel(target="X", dice={"red": 3, "blue": 1}, bonus_dice={"red": 1},
                       effects=[{"kind": "critical", "x": 2}]), _drone("gd-5")]
    d = turn_odds(target, seq, CAL, True)
    w = d.map(lambda o: o[1])
    mean = w.mean()
    var = sum(p * (k - mean) ** 2 for k, p in w.items())
    p_down = float(sum(p for o, p in d.items() if o[2] != "alive"))
    n = 2000
    roller = SeededRoller(2121)
    total = down = 0
    for _ in range(n):
        out = play_turn(target, seq, roller)
        total += out[1]
        down += out[2] != "alive"
    assert abs(total / n - mean) < 4 * math.sqrt(var / n)
    assert abs(down / n - p_down) < 4 * math.sqrt(p_down * (1 - p_down) / n) + 1e-9


def test_a_drone_adds_to_the_agents_attack():
    t = TargetState("X", "alien", 30, stacks=(1,))
    a = AttackModel(target="X", dice={"red": 2})
    alone = turn_odds(t, [a], CAL, exact=True).map(lambda o: o[1]).mean()
    both = turn_odds(t, [a, _drone("vigil")], CAL, exact=True).map(lambda o: o[1]).mean()
    assert both > alone


def test_the_shield_the_first_attack_used_stays_used():
    """11.7: the stacks refresh only in the Refresh phase: a 1-hit Vigil attack after a 1-hit attack that used the one
    shield wounds; alone it never does."""
    t = TargetState("X", "alien", 5, stacks=(1,))
    one = AttackModel(target="X", fixed_hits=1, effects=[{"kind": "lethal"}])
    drone = AttackModel(**{**_drone("vigil", fixed_hits=1).model_dump(), "effects": [{"kind": "lethal"}]})
    assert turn_odds(t, [drone], CAL, exact=True).p == {(0, 0, "alive", (None,)): 1}
    assert turn_odds(t, [one, drone], CAL, exact=True).p == {(1, 1, "alive", (None, None)): 1}


def test_the_hologram_cannot_attack():
    from explorer.errors import ScenarioError

    with pytest.raises(ScenarioError) as e:
        _drone("hologram")
    assert "9.7.4.1" in str(e.value) and "cannot perform attacks" in str(e.value)


def test_drone_weapons_never_jam_and_gd5_deals_area_damage():
    v, g = _drone("vigil"), _drone("gd-5")
    assert v.attacker_kind == g.attacker_kind == "drone"
    assert "jam" not in v.effect_symbols and "jam" not in g.effect_symbols
    assert g.damage == "area" and v.damage == "single"


@settings(max_examples=25, deadline=None)
@given(st.integers(1, 3), st.lists(st.integers(0, 2), max_size=2), st.integers(2, 9))
def test_property_a_second_attack_never_lowers_the_wounds_or_the_chance_of_a_kill(red, sh, health):
    t = TargetState("X", "alien", health, stacks=tuple(sh))
    a = AttackModel(target="X", dice={"red": red}, effects=[{"kind": "critical", "x": 1}])
    alone = turn_odds(t, [a], CAL, exact=True)
    both = turn_odds(t, [a, _drone("vigil")], CAL, exact=True)
    assert sum(both.p.values()) == 1
    assert both.map(lambda o: o[1]).mean() >= alone.map(lambda o: o[1]).mean()
    down = lambda d: sum((p for o, p in d.items() if o[2] != "alive"), Fraction(0))  # noqa: E731
    assert down(both) >= down(alone)


# ------------------------------------------------------------------------------------------------ the odds verb

def test_odds_verb_device_is_the_turns_exact_odds(capsys):
    import json

    from explorer.cli import main

    argv = ["galaxydefenders", "odds", "--dice", "red=2", "--bonus-hits", "1", "--shields", "2", "--health", "5",
            "--device", "vigil", "--drone-dice", "yellow=1", "--json", "--exact"]
    assert main(argv) == 0
    s = json.loads(capsys.readouterr().out)
    t = TargetState("target", "alien", 5, stacks=(2,))
    seq = [AttackModel(target="target", dice={"red": 2}, bonus_hits=1), _drone("vigil", dice={"yellow": 1})]
    want = json.loads(json.dumps(summary(turn_odds(t, [seq[0], _with(seq[1], target="target")], CAL, exact=True))))
    assert {k: s[k] for k in want} == want
    assert s["attacks"] == ["agent", "Vigil"] and s["rulings"] == {"combat_activity": "separate"}
    assert s["drone"]["sections"][:2] == ["9.7.4 Devices", "9.7.4.2 Vigil"]
    assert main(argv[:-2] + ["--device-first"]) == 0
    out = capsys.readouterr().out
    assert "9.7.4.2 Vigil" in out and "first, then the agent's attack" in out and "never jams" in out


def test_odds_verb_stand_in_tile_is_said_and_gd5_deals_area_damage(capsys):
    from explorer.cli import main

    assert main(["galaxydefenders", "odds", "--dice", "red=1", "--device", "gd-5"]) == 0
    out = capsys.readouterr().out
    assert "9.7.4.3 GD-5" in out and "STAND-IN" in out and "Area Damage" in out


@pytest.mark.parametrize("argv, field, text", [
    (["--device", "hologram"], "--device", "cannot perform attacks"),
    (["--device", "jetpack"], "--device", "not a drone"),
    (["--device", "vigil", "--ruling", "combat_activity=is_the_action"], "--device", "combat_activity"),
    (["--drone-dice", "red=1"], "--drone-dice", "no drone"),
    (["--device-first"], "--device-first", "no drone"),
    (["--device", "vigil", "--drone-dice", "red=1", "--drone-fixed-hits", "2"], "--drone-dice", "not both"),
    (["--device", "vigil", "--drone-dice", "pink=1"], "--drone-dice", "colour"),
    (["--device", "vigil", "--drone-fixed-hits", "99"], "--drone-fixed-hits", "0 to 20"),
])
def test_odds_verb_device_refusals_are_one_line(capsys, argv, field, text):
    from explorer.cli import main

    assert main(["galaxydefenders", "odds", "--dice", "red=1", *argv]) == 2
    err = capsys.readouterr().err
    assert f"'{field}'" in err and text in err and err.count("\n") == 1


@pytest.mark.parametrize("spelling", ["GD-5", " gd-5 ", "gd5"])
def test_odds_verb_device_spellings(capsys, spelling):
    """Any case, spaces around, and the old spelling gd5 (a round file still reads it) name GD-5; before, a
    spelling other than the exact id passed the check and crashed the output (KeyError)."""
    import json

    from explorer.cli import main

    assert main(["galaxydefenders", "odds", "--dice", "red=1", "--device", spelling, "--json"]) == 0
    s = json.loads(capsys.readouterr().out)
    assert s["drone"]["device"] == "gd-5" and s["drone"]["sections"][1] == "9.7.4.3 GD-5"
    assert main(["galaxydefenders", "odds", "--dice", "red=1", "--device", spelling]) == 0
    assert "9.7.4.3 GD-5" in capsys.readouterr().out


@settings(max_examples=30, deadline=None)
@given(st.text(max_size=12), st.sampled_from([None, "red=1", "pink=2", "red=0", "red=13", "x"]),
       st.sampled_from([None, "1", "-1", "a"]))
def test_property_odds_verb_device_options_answer_or_refuse_in_one_line(device, dice, hits):
    """Any --device text with any --drone-dice / --drone-fixed-hits: the odds, or exit 2 (a one-line refusal);
    never a traceback."""
    import contextlib
    import io

    from explorer.cli import main

    argv = ["galaxydefenders", "odds", "--dice", "red=1", "--device", device]
    argv += ["--drone-dice", dice] if dice is not None else []
    argv += ["--drone-fixed-hits", hits] if hits is not None else []
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        assert main(argv) in (0, 2)
