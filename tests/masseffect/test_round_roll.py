"""Issue 19, items (a) and (b) of the Round: the Strategy Roll played inside a Squadmate's turn (the ``strategy``
kind's own steps: Lock, roll, Core Ability triggers and re-rolls), Step B taking its dice from that roll, the dice
not used placed without resolving (ruling ``dice_without_space``), and Revive (Basic Actions; the back of the sheet
as stand-in data; ruling ``revived_turn``). Built-in me-round-2, golden trace tests/masseffect/golden/me-round-2.txt.
"""

import copy
from pathlib import Path

import pytest
from golden_helpers import check_golden, trace_text
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.errors import ScenarioError
from explorer.games.masseffect import sections as S
from explorer.games.masseffect.game import GAME
from explorer.games.masseffect.outcome import outcome_text
from explorer.games.masseffect.round import ROUND_SEQUENCE, parse_round, resolve_round, round_start
from explorer.games.masseffect.strategy import Face
from explorer.kernel import play
from explorer.scenario import read_toml

SCENARIOS = Path(__file__).parents[2] / "explorer" / "games" / "masseffect" / "scenarios"
GOLDEN = Path(__file__).parent / "golden"


def data():
    return read_toml(SCENARIOS / "me-round-2.toml")


def resolve(d, rulings=None, seed=None):
    return resolve_round(parse_round(d, "x.toml"), rulings, seed)


def frames_of(d, rulings=None, seed=None):
    state, ctx = round_start(parse_round(d, "x.toml"), rulings, seed)
    return state, ctx, play(state, ROUND_SEQUENCE, ctx)


def turn(d, who):
    return next(t for t in d["turns"] if t["squadmate"] == who)


def test_golden_trace():
    check_golden(GOLDEN, "me-round-2", trace_text(resolve(data())))


def test_each_turn_rolls_what_the_pool_holds_and_takes_three_dice():
    _, _, frames = frames_of(data())
    by = {f.name: f.state for f in frames}
    # the Pool shrinks by three per turn: 12 -> 9 -> 6 -> 3 -> 0; the ids stay the same all Round
    assert [len(by[f"Turn {n}"].dice) for n in (1, 2, 3, 4)] == [9, 6, 3, 0]
    assert [d.id for d in by["Turn 1"].dice] == ["S4", "S5", "S6", "S7", "S8", "S9", "S10", "S11", "S12"]
    # no die shows the Core Ability icon once a roll is over (icons are re-rolled until none remain)
    assert all(d.face is not Face.CORE for n in (1, 2, 3) for d in by[f"Turn {n}"].dice)
    # Garrus Locked S5: it kept the Enhanced face Shepard left, and his Enhanced Concussive Shot used it
    t = resolve(data())
    lock = [s for s in t.steps if s.title.startswith("Lock S5")]
    assert lock and lock[0].rule == S.STRATEGY_ROLL and lock[0].section == "Turn 2: Garrus"
    assert any(s.title == "Garrus allocates S5 showing Enhanced to Concussive Shot (Action Space 1)" for s in t.steps)
    assert any(s.title.startswith("Roll 8 dice") and s.section == "Turn 2: Garrus" for s in t.steps)
    # Core Ability triggers: Shepard 3 (2, then 1), Garrus 2, Liara 2 (her Analysis commentary cited)
    triggers = [s for s in t.steps if "triggers (trigger" in s.title]
    assert [s.section.split(": ")[1] for s in triggers] == ["Shepard"] * 3 + ["Garrus"] * 2 + ["Liara"] * 2
    assert all(s.rule == S.COMMENTARY_LIARA for s in triggers if "Liara" in s.section)


def test_rulebook_diagram_5_lock_one_roll_the_other_five():
    """Step A, Diagram 5: six dice left after the second Squadmate; the third keeps the Enhanced one and rolls
    the other five."""
    d = data()
    turn(d, "Liara")["roll"] = {"lock": "S12", "rolls": [["standard", "standard", "move_2", "move_3", "standard"]]}
    turn(d, "Liara")["actions"] = [{"box": "Revive", "die": "standard", "target": "Tali"}]
    t = resolve(d)
    liara = [s for s in t.steps if s.section == "Turn 3: Liara"]
    assert liara[1].title == "Lock S12, keeping Enhanced Action"
    assert liara[2].title.startswith("Roll 5 dice: S7 Std, S8 Std, S9 M2, S10 M3, S11 Std")
    assert t.result.rejected is None


@pytest.mark.parametrize("who,patch,field,rule", [
    ("Shepard", {"roll": {"lock": "S1"}}, "turns[0].roll.lock", S.STRATEGY_ROLL),       # On Point: no Lock
    ("Shepard", {"actions": [{"box": "Shoot", "die": "enhanced", "die_id": "S2", "target": "Husk A"}]},
     "turns[0].actions[0].die", S.ACTIONS),                                            # S2 shows Standard
    ("Shepard", {"actions": [{"box": "Shoot", "die": "move_2_or_standard", "target": "Husk A"},
                             {"box": "Shoot", "die": "move_2_or_standard", "target": "Husk A"}]},
     "turns[0].actions[1].die", S.ACTIONS),                                            # only S8 shows it
    ("Garrus", {"actions": [{"box": "Concussive Shot", "die": "standard", "die_id": "S1", "target": "Husk B"}]},
     "turns[1].actions[0].die_id", S.ACTIONS),                                         # S1 went with Shepard
    ("Liara", {"actions": [{"box": "Revive", "die": "standard", "target": "Garrus"}]},
     "turns[2].actions[0].target", S.BASIC_ACTIONS),                                   # Garrus is not Downed
    ("Liara", {"actions": [{"box": "Revive", "die": "standard"}]}, "turns[2].actions[0].target", S.BASIC_ACTIONS),
    ("Liara", {"roll": {"rolls": [["standard"] * 6], "place": ["S9", "S10"]}}, "turns[2].roll.place", S.ACTIONS),
    ("Liara", {"roll": {"rolls": [["standard"] * 6], "place": ["S1"]}}, "turns[2].roll.place[0]", S.ACTIONS),
    ("Liara", {"roll": {"rolls": [["move_3", "move_3", "move_3", "standard", "standard", "standard"]],
                        "place": ["S9"]},
               "actions": [{"box": "Move", "die": "move_3", "path": ["-1,1", "0,1"]},
                           {"box": "Move", "die": "move_3", "path": ["0,1", "-1,1"]}]},
     "turns[2].roll.place", S.ACTION_SPACES),          # both Move spaces hold a die: S9 fits no free space
])
def test_refusals_name_the_field_and_cite_the_rule(who, patch, field, rule):
    d = data()
    turn(d, who).update(patch)
    t = resolve(d)
    last = t.steps[-1]
    assert last.title.startswith("Not allowed") and last.facts["field"] == field and last.rule == rule
    assert field in t.result.rejected and not any(s.section == "End Phase" for s in t.steps)


def test_lock_needs_a_face_the_previous_player_left():
    d = data()
    del turn(d, "Shepard")["roll"]                   # Shepard declares his faces: the Pool's faces are not known
    t = resolve(d)
    assert t.steps[-1].facts["field"] == "turns[1].roll.lock" and "shows no result" in t.result.rejected


def test_revive_needs_an_adjacent_hex():
    d = data()
    d["squadmates"][3]["position"] = "-3,3"          # two hexes from Liara at -1,1
    t = resolve(d)
    assert t.steps[-1].facts["field"] == "turns[2].actions[0].target" and "adjacent" in t.result.rejected


def test_revived_squadmate_comes_back_with_the_sheet_numbers_and_takes_on_point():
    o = resolve(data()).result
    tali = next(s for s in o.squadmates if s.name == "Tali")
    assert (tali.downed, tali.hit_points, tali.shield_points, tali.hex) == (False, 2, 2, "-2,1")
    assert o.on_point == "Tali"                      # no longer Downed: the token passes to her (End Phase)
    assert "Liara Revives Tali (2 Hit Points, 0 Shield Points)" in outcome_text(resolve(data()))


def test_ruling_revived_turn_no_turn():
    t = resolve(data(), {"revived_turn": "no_turn"})
    tali = [s for s in t.steps if s.section == "Turn 4: Tali"]
    assert len(tali) == 1 and "no turn until the next Round" in tali[0].title
    assert t.result.pool == 3 and t.rulings["revived_turn"] == "no_turn"


def test_ruling_dice_without_space():
    d = data()
    # Tali rolls three Move dice: her sheet has two Move spaces, so the third die fits no free space
    turn(d, "Tali")["roll"] = {"rolls": [["move_3", "move_3", "move_3"]]}
    turn(d, "Tali")["actions"] = []
    t = resolve(d)
    assert any(s.title.startswith("No free Action Space takes S12: taken from the Pool") for s in t.steps)
    assert t.result.pool == 0 and t.rulings["dice_without_space"] == "set_aside"
    t = resolve(d, {"dice_without_space": "left_in_pool"})
    assert t.result.pool == 1 and any("S12: it stays in the Pool" in s.title for s in t.steps)


def test_file_errors():
    d = data()
    turn(d, "Garrus")["roll"]["lock"] = "S13"
    with pytest.raises(ScenarioError) as e:
        parse_round(d, "x.toml")
    assert e.value.field == "turns[1].roll.lock"
    d = data()
    turn(d, "Garrus")["roll"]["renegade"] = [{"die": "S4", "face": "standard"}]
    with pytest.raises(ScenarioError) as e:
        parse_round(d, "x.toml")
    assert e.value.field == "turns[1].roll.renegade"
    d = data()
    del turn(d, "Garrus")["roll"]
    with pytest.raises(ScenarioError) as e:
        parse_round(d, "x.toml")
    assert e.value.field == "turns[1].actions[0].die_id"
    d = data()
    turn(d, "Shepard")["roll"]["rolls"][0] = ["standard"] * 13
    with pytest.raises(ScenarioError):
        parse_round(d, "x.toml")
    d = data()
    turn(d, "Liara")["actions"][0]["target"] = "Husk A"       # Revive targets a Squadmate
    with pytest.raises(ScenarioError) as e:
        parse_round(d, "x.toml")
    assert e.value.field == "turns[2].actions[0].target"


def test_renegade_token_inside_the_round():
    d = data()
    turn(d, "Garrus")["roll"]["renegade_tokens"] = 1
    turn(d, "Garrus")["roll"]["renegade"] = [{"die": "S4", "face": "enhanced"}]
    turn(d, "Garrus")["roll"]["rolls"] = [turn(d, "Garrus")["roll"]["rolls"][0], ["move_2"]]
    t = resolve(d)
    assert any(s.rule == S.RENEGADE_TOKENS and s.title.startswith("Renegade token: S4 Core") for s in t.steps)
    assert sum("Aim triggers" in s.title for s in t.steps) == 1          # S4 changed before the triggers
    assert t.result.rejected is None


def test_round_goes_through_the_registry_with_a_seed():
    d = data()
    for tn in d["turns"]:
        tn["roll"]["rolls"] = []                     # every face from the seed
        tn["actions"] = []
    kind, sc = GAME.parse_data(d, "x.toml")
    a, b = GAME.resolve((kind, sc), seed=5), GAME.resolve((kind, sc), seed=5)
    assert trace_text(a) == trace_text(b)


def _unfixed(d):
    d = copy.deepcopy(d)
    for tn in d["turns"]:
        tn["roll"] = {"lock": tn["roll"].get("lock")} if tn["roll"].get("lock") else {}
        tn["actions"] = [a for a in tn["actions"] if a["box"] in ("Move", "Revive")]
        for a in tn["actions"]:
            a.pop("die_id", None)
    return d


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10**6), upto=st.integers(0, 7))
def test_replay_from_any_frame_gives_the_same_round(seed, upto):
    """Time travel: replaying the first ``upto`` entries with fresh dice of the same seed gives the same frames."""
    d = _unfixed(data())
    _, _, full = frames_of(d, seed=seed)
    state, ctx = round_start(parse_round(d, "x.toml"), None, seed)
    part = play(state, ROUND_SEQUENCE, ctx, upto=upto)
    n = len(part)
    assert part == full[:n]


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_every_turn_takes_three_dice_and_no_icon_survives_a_roll(seed):
    """Step B: a Squadmate always takes three dice (ruling dice_without_space = set_aside), whatever the roll."""
    d = _unfixed(data())
    d["squadmates"][3]["downed"] = False
    d["hazard_deck"].append({"name": "Spare", "instructions": [{"do": "activate_elites"}]})
    for tn in d["turns"]:
        tn["roll"].pop("lock", None)
        tn["actions"] = []
    _, _, frames = frames_of(d, seed=seed)
    turns = [f.state for f in frames if f.name.startswith("Turn")]
    assert [len(s.dice) for s in turns] == [9, 6, 3, 0] and not any(s.rejected for s in turns)
    for s in turns:
        assert all(x.face is not Face.CORE for x in s.dice)
    used = [sum(1 for u in s.used) for s in turns]
    assert all(b - a <= 3 for a, b in zip([0] + used, used))
