"""Scenario kind ``round`` (issue 19, item 1 begun): the Preparation Phase (a Hazard card per Squadmate, none for the
Downed), the Squadmate Phase turn loop in On Point order, Step B on the sheet's Action Spaces (the stand-in sheets),
Step C, the End Phase; refusals naming the field. Golden trace: tests/masseffect/golden/me-round-1.txt."""

from pathlib import Path

import pytest
from golden_helpers import check_golden, trace_text

from explorer.errors import ScenarioError
from explorer.games.masseffect import sections as S
from explorer.games.masseffect.game import GAME
from explorer.games.masseffect.round import ROUND_SEQUENCE, parse_round, play_round, resolve_round, round_start
from explorer.games.masseffect.sheets import FACES_FOR, load_sheets, parse_sheets
from explorer.kernel import play
from explorer.scenario import read_toml

SCENARIOS = Path(__file__).parents[2] / "explorer" / "games" / "masseffect" / "scenarios"
GOLDEN = Path(__file__).parent / "golden"


def data():
    return read_toml(SCENARIOS / "me-round-1.toml")


def play_data(d, rulings=None):
    return resolve_round(parse_round(d, "x.toml"), rulings)


def test_golden_trace():
    check_golden(GOLDEN, "me-round-1", trace_text(play_data(data())))


def test_round_phases_and_values():
    t = play_data(data())
    o = t.result
    assert o.rejected is None and not o.mission_failed
    prep = [s for s in t.steps if s.section == "Preparation Phase" and s.rule == S.PREPARATION_PHASE]
    assert [s.facts.get("squadmate") for s in prep] == ["Shepard", "Garrus", "Liara", None]
    assert "Tali is Downed: no Hazard card" in prep[-1].title
    sections = list(dict.fromkeys(s.section for s in t.steps))
    assert sections == ["Preparation Phase", "Turn 1: Shepard", "Turn 2: Garrus", "Turn 3: Liara", "Turn 4: Tali",
                        "End Phase"]
    # Tali Downed: her sheet Locks 3 of the 12 dice (the stand-in's downed_locks), the three turns take the other 9
    assert o.discard == ("Husks advance", "Guardian fire", "Reinforcements") and o.pool == 0
    assert o.on_point == "Liara"                     # to the right of Shepard, skipping the Downed Tali
    where = {s.name: (s.hex, s.shield_points, s.hit_points) for s in o.squadmates}
    assert where["Shepard"] == ("0,-2", 4, 6)        # Attacked for 2 by Husk B, Shields back in the End Phase
    enemies = {e.name: (e.hex, e.damage) for e in o.enemies}
    assert enemies == {"Husk B": ("1,-3", 0), "Guardian": ("-2,-1", 0), "Trooper": ("-4,4", 0)}
    assert o.returned_to_bag == ("Husk A",)


def test_time_travel_by_replay():
    state, ctx = round_start(parse_round(data(), "x.toml"))
    frames = play(state, ROUND_SEQUENCE, ctx)
    assert [f.name for f in frames] == ["Start of the Round", "Preparation Phase", "Turn 1", "Turn 2", "Turn 3",
                                        "Turn 4", "End Phase"]
    back = play(state, ROUND_SEQUENCE, ctx, upto=2)
    assert back[-1].state == frames[1].state and back[-1].state.hands[0] == ("Shepard", "Husks advance")


def _refused(patch_turn, **where):
    d = data()
    d["turns"][0]["actions"] = patch_turn
    t = play_data(d)
    assert t.result.rejected is not None
    return t


@pytest.mark.parametrize("actions,field,rule", [
    ([{"box": "Warp", "die": "standard", "target": "Husk A"}], "turns[0].actions[0].box", S.UNLOCKING_ABILITIES),
    ([{"box": "Shoot", "die": "standard", "target": "Husk B"}, {"box": "Shoot", "die": "standard", "target": "Husk B"},
      {"box": "Shoot", "die": "standard", "target": "Husk B"}], "turns[0].actions[2].box", S.ACTIONS),
    ([{"box": "Shoot", "die": "move_3", "target": "Husk A"}], "turns[0].actions[0].die", S.ACTION_SPACES),
    ([{"box": "Move", "die": "move_2", "path": ["0,0", "0,-1", "0,-2", "1,-2"]}], "turns[0].actions[0].path[3]",
     S.BASIC_ACTIONS),
    ([{"box": "Move", "die": "standard", "path": ["0,0", "0,-1"]}], "turns[0].actions[0].die", S.ACTION_SPACES),
    ([{"box": "Fly", "die": "standard"}], "turns[0].actions[0].box", S.SQUADMATE_SHEETS),
])
def test_refusals_name_the_field_and_cite_the_rule(actions, field, rule):
    t = _refused(actions)
    last = t.steps[-1]
    assert last.title.startswith("Not allowed") and last.facts["field"] == field and last.rule == rule
    assert field in t.result.rejected and "\n" not in t.result.rejected
    assert not any(s.section == "End Phase" for s in t.steps)      # the Round stops at the refusal


def test_enhanced_concussive_shot_distance_from_the_commentary():
    d = data()
    d["turns"][1]["actions"] = [{"box": "Concussive Shot", "die": "enhanced", "target": "Husk B"}]
    t = play_data(d)                                 # Husk B is 3 hexes from Garrus: Enhanced, 3 Damage
    assert any(s.title.startswith("Garrus uses Enhanced Concussive Shot") for s in t.steps)
    assert t.result.returned_to_bag == ("Husk A", "Husk B")
    d["squadmates"][1]["position"] = "2,-3"          # 2 hexes: the standard version (1 Damage)
    d["turns"][1]["actions"][0]["target"] = "Husk B"
    t = play_data(d)
    assert any(s.rule == S.SQUADMATE_COMMENTARY and "standard version" in s.title for s in t.steps)


def test_file_errors():
    d = data()
    d["hazard_deck"] = d["hazard_deck"][:2]
    with pytest.raises(ScenarioError) as e:
        parse_round(d, "x.toml")
    assert e.value.field == "hazard_deck"
    d = data()
    d["turns"].append({"squadmate": "Shepard"})
    with pytest.raises(ScenarioError, match="one turn per Round"):
        parse_round(d, "x.toml")
    d = data()
    d["sheets"] = "/no/such/sheets.toml"
    with pytest.raises(ScenarioError) as e:
        parse_round(d, "x.toml")
    assert e.value.field == "sheets"


def test_standin_sheets_are_data_and_say_so():
    sheets = load_sheets()
    assert set(sheets) == {"Shepard", "Garrus", "Liara", "Tali", "Wrex"}
    assert sheets["Garrus"].box("Concussive Shot").enhanced_min_distance == 3
    assert all(sheets[n].box("Move").spaces for n in sheets)
    text = (Path(__file__).parents[2] / "explorer/games/masseffect/sheets/standin.toml").read_text()
    assert "STAND-IN" in text and "NOT the printed sheets" in text
    assert FACES_FOR["enhanced"] == frozenset({"enhanced"})
    with pytest.raises(ScenarioError) as e:
        parse_sheets({"basic": {"move": ["move"]}, "sheets": [{"name": "X", "core_ability": "Y", "max_shield_points": 1,
                                                               "max_hit_points": 1, "boxes": [{"name": "Move",
                                                                                               "spaces": ["move"]}]}]},
                     "s.toml")
    assert e.value.field == "sheets[0].boxes[0].name"


def test_round_goes_through_the_registry():
    kind, sc = GAME.parse_data(data(), "x.toml")
    trace = GAME.resolve((kind, sc))
    assert GAME.outcome_text(trace).startswith("Outcome: ") and "On Point: Liara" in GAME.outcome_text(trace)
    assert len(play_round(sc, fine=False)[0]) == 7       # the kernel's frames: phases and turns
    assert len(play_round(sc)[0]) > 7                      # split at each Action, Opportunity Attack, card task


def test_stunning_an_elite_is_refused_naming_the_target():
    d = data()
    d["enemies"].append({"name": "Brute", "kind": "elite", "attack_value": 3, "resilience": [4, 5],
                         "position": "-2,1"})
    d["turns"][2]["actions"] = [{"box": "Stasis", "die": "standard", "target": "Brute"}]
    t = play_data(d)
    assert t.steps[-1].facts["field"] == "turns[2].actions[0].target" and "Elite" in t.result.rejected


def test_pictures_of_a_round_and_of_damage_on_a_map():
    kind, sc = GAME.parse_data(data(), "x.toml")
    svg = GAME.picture((kind, sc), GAME.resolve((kind, sc)))
    assert svg and svg.lstrip().startswith("<svg") and "Liara" in svg
    kind, sc = GAME.load_builtin("me-react-tag")
    assert GAME.picture((kind, sc), GAME.resolve((kind, sc)))


def test_inferno_at_the_start_of_the_round():
    d = data()
    d["map"]["icons"]["-1,1"] = ["inferno"]          # Liara stands in an Inferno hex
    t = play_data(d)
    first = t.steps[0]
    assert first.section == "Start of the Round" and "Liara is in Inferno hex" in first.title
    assert t.steps[1].title.startswith("Liara suffers 1 Damage")
