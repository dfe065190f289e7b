"""Issue 19, item 1 of this session: Paragon dice and Renegade tokens inside a Round (Additional Rules › Paragon Dice
and Renegade Tokens). Paragon dice join the Pool each Round and are taken on top of the three dice; a Renegade
token is returned to the game box to set one die after the roll and before the Core Ability triggers, and the tokens
a file gives with ``renegade_victories`` are kept from turn to turn. Built-in me-round-paragon, golden trace
tests/masseffect/golden/me-round-paragon.txt."""

import copy
from pathlib import Path

import pytest
from golden_helpers import check_golden, trace_text
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.errors import ScenarioError
from explorer.games.masseffect import sections as S
from explorer.games.masseffect.round import parse_round, resolve_round
from explorer.scenario import read_toml

SCENARIOS = Path(__file__).parents[2] / "explorer" / "games" / "masseffect" / "scenarios"
GOLDEN = Path(__file__).parent / "golden"


def data():
    return read_toml(SCENARIOS / "me-round-paragon.toml")


def resolve(d, rulings=None):
    return resolve_round(parse_round(d, "x.toml"), rulings)


def refused(t):
    return next(s for s in t.steps if s.title.startswith("Not allowed"))


def test_golden_trace():
    check_golden(GOLDEN, "me-round-paragon", trace_text(resolve(data())))


def test_the_paragon_die_gives_a_fourth_action_and_stays_out_of_the_next_roll():
    t = resolve(data())
    o = t.result
    assert o.rejected is None
    shepard = next(s for s in o.squadmates if s.name == "Shepard")
    assert shepard.hex == "-2,2"                     # the fourth Action (P1, Move 2) was walked
    assert [s.title for s in t.steps if s.rule == S.PARAGON_DICE] == [
        "1 Paragon die (P1) joins the Strategy Pool", "P1 is a Paragon die: taken on top of the three dice"]
    assert "Garrus makes the Strategy Roll with 9 dice" in [s.title for s in t.steps]
    assert o.to_json()["renegade_tokens"] == {"Shepard": 1, "Garrus": 0}
    assert "Husk B" in o.returned_to_bag             # the Enhanced die the token made


def test_a_fourth_strategy_die_is_refused_naming_the_field():
    d = data()
    d["turns"][0]["actions"][3] = {"box": "Move", "die": "move_2", "path": ["-1,2", "-2,2"]}
    t = resolve(d)
    st_ = refused(t)
    assert st_.rule == S.PARAGON_DICE
    assert "turns[0].actions[3].die" in st_.title and "only Paragon dice are taken on top" in st_.title
    assert t.result.rejected.endswith("(turns[0].actions[3].die)")


def test_a_fifth_action_with_one_paragon_die_is_refused():
    d = data()
    d["turns"][0]["actions"].append({"box": "Move", "die": "move_2", "path": ["-2,2", "-2,3"]})
    st_ = refused(resolve(d))
    assert st_.rule == S.PARAGON_DICE and "(turns[0].actions[4])" in st_.title


def test_by_face_an_action_never_takes_a_paragon_die():
    d = data()
    d["turns"][0]["roll"]["rolls"][0][3] = "standard"    # no Move 2 Strategy die left: only P1 shows Move 2
    d["turns"][0]["roll"]["rolls"][0][5] = "standard"
    d["turns"][0]["roll"]["rolls"][0][8] = "standard"
    d["turns"][0]["roll"]["rolls"][0][11] = "standard"
    del d["turns"][0]["actions"][3]["die_id"]
    st_ = refused(resolve(d))
    assert "no die left in Shepard's Strategy Roll shows Move 2" in st_.title
    assert "(turns[0].actions[3].die)" in st_.title


def test_any_die_reading_lets_the_paragon_die_be_one_of_the_three():
    d = data()
    d["turns"][0]["actions"] = [d["turns"][0]["actions"][0], d["turns"][0]["actions"][1],
                                d["turns"][0]["actions"][3] | {"path": ["0,0", "-1,1"]}]
    any_die = copy.deepcopy(d)                          # Shepard takes three dice, P1 one of them: ten are left for
    any_die["turns"][1]["roll"]["rolls"][0].append("?")  # Garrus, the tenth rolled from the seed
    t = resolve(any_die, {"paragon_counts_toward_three": "any_die"})
    assert t.result.rejected is None
    assert not [s for s in t.steps if s.title.startswith("Placed without") and "Shepard" in s.section]  # P1, S1, S2
    t2 = resolve(d)                                     # extra_only: one more Strategy die must be taken
    assert [s for s in t2.steps if s.title.startswith("Placed without") and "Shepard" in s.section]


def test_a_turn_without_a_roll_cannot_declare_a_fourth_action():
    d = data()
    del d["turns"][0]["roll"]
    d["turns"][0]["actions"][3].pop("die_id")
    st_ = refused(resolve(d))
    assert st_.rule == S.PARAGON_DICE and "(turns[0].actions[3])" in st_.title


def test_renegade_tokens_are_kept_from_round_to_round():
    d = data()
    d["rounds"] = 2
    d["hazard_deck"] += [{"name": f"Quiet {k}", "instructions": [{"do": "spawn", "at": "closest"}]}
                         for k in range(2)]
    again = copy.deepcopy(d["turns"][1])
    again["round"] = 2
    again["roll"]["rolls"] = [["move_2"] * 13]           # round 2: Garrus, On Point, rolls all thirteen dice
    d["turns"].append(again)
    t = resolve(d)
    st_ = refused(t)
    assert st_.rule == S.RENEGADE_TOKENS or "Renegade" in st_.title
    assert "turns[2].roll.renegade" in st_.title


def test_paragon_die_set_aside_when_downed_comes_back_next_round():
    d = data()
    d["rounds"] = 2
    d["enemies"].append({"name": "Brute", "type": "Brute", "attack_value": 9, "shield_value": 6, "position": "-3,1"})
    d["hazard_deck"][1]["instructions"][0]["types"] = ["Brute"]
    d["hazard_deck"] += [{"name": f"Quiet {k}", "instructions": [{"do": "spawn", "at": "closest"}]}
                         for k in range(2)]
    del d["turns"][0]["actions"][3]                     # Shepard leaves P1 in the Pool ...
    g = d["turns"][1]
    g["roll"]["rolls"] = [g["roll"]["rolls"][0] + ["move_2"]]
    g["actions"].append({"box": "Move", "die": "move_2", "die_id": "P1", "path": ["-3,0", "-4,0"]})
    g["actions"][1]["path"] = ["-3,0", "-4,1"]          # ... Garrus takes it, stays by the Brute and is Downed
    g["actions"] = g["actions"][:1] + [{"box": "Move", "die": "move_2", "die_id": "P1", "path": ["-3,0", "-4,1"]}]
    t = resolve(d)
    assert t.result.rejected is None, t.result.rejected
    back = [s for s in t.steps if s.title == "P1, set aside when Garrus was Downed, is back in the Strategy Pool"]
    assert len(back) == 1 and back[0].section.startswith("Round 2")


def test_file_errors():
    d = data()
    d["renegade_victories"] = 5                         # two Squadmates: 10 tokens, the box holds 8
    with pytest.raises(ScenarioError) as e:
        parse_round(d, "x.toml")
    assert "renegade_victories" in str(e.value) and "at most 4" in str(e.value)
    d = data()
    d["turns"][1]["roll"]["renegade_tokens"] = 1
    with pytest.raises(ScenarioError) as e:
        parse_round(d, "x.toml")
    assert "turns[1].roll.renegade_tokens" in str(e.value)
    d = data()
    d["turns"][0]["actions"][3]["die_id"] = "P2"
    with pytest.raises(ScenarioError) as e:
        parse_round(d, "x.toml")
    assert "turns[0].actions[3].die_id" in str(e.value) and "P1 to P1" in str(e.value)
    d = data()
    d["paragon_dice"] = 3
    with pytest.raises(ScenarioError) as e:
        parse_round(d, "x.toml")
    assert "paragon_dice" in str(e.value)


@settings(max_examples=12, deadline=None)
@given(n_actions=st.integers(1, 5), paragon=st.integers(0, 2))
def test_actions_never_exceed_three_plus_the_paragon_dice(n_actions, paragon):
    """Property: a turn plays at most three Actions plus one per Paragon die; one more is refused (Paragon Dice)."""
    d = data()
    d["paragon_dice"] = paragon
    faces = ["standard"] * (12 + paragon)
    d["turns"] = [{"squadmate": "Shepard", "roll": {"rolls": [faces]},
                   "actions": [{"box": "Mission", "die": "standard", "die_id": f"P{k - 2}" if k >= 3 else None,
                                "resolve": False} for k in range(n_actions)]}]
    for a in d["turns"][0]["actions"]:
        if a["die_id"] is None:
            del a["die_id"]
    if n_actions > 3 + paragon:
        with pytest.raises(ScenarioError):
            parse_round(d, "x.toml")                    # names a Paragon die the Pool does not hold
        return
    t = resolve(d)
    # the Mission box has one Action Space: a second Mission die is refused by Action Spaces, never allowed
    taken = [s for s in t.steps if s.title.startswith("Shepard allocates")]
    assert len(taken) <= 3 + paragon
