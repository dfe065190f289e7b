"""Issue 19, item (g) of the Round, begun: Mission Objectives (Paragon, Renegade, Secondary, Loyalty, Preliminary:
an attached Objective cannot be attempted before its Preliminary one) completed by a Mission Action the file
declares (the Mission Rules page is the mission's, not the rulebook's), and Ending a Mission (a Paragon, Renegade or
Loyalty Objective ends it at once; time runs out after the file's ``time_limit`` Rounds; Shepard Downed). Built-in
me-round-objectives, golden trace tests/masseffect/golden/me-round-objectives.txt."""

from pathlib import Path

import pytest
from golden_helpers import check_golden, trace_text

from explorer.errors import ScenarioError
from explorer.games.masseffect import sections as S
from explorer.games.masseffect.game import GAME
from explorer.games.masseffect.round import parse_round, resolve_round
from explorer.scenario import read_toml

SCENARIOS = Path(__file__).parents[2] / "explorer" / "games" / "masseffect" / "scenarios"
GOLDEN = Path(__file__).parent / "golden"


def data():
    return read_toml(SCENARIOS / "me-round-objectives.toml")


def resolve(d, rulings=None):
    return resolve_round(parse_round(d, "x.toml"), rulings)


def test_golden_trace():
    check_golden(GOLDEN, "me-round-objectives", trace_text(resolve(data())))


def test_paragon_victory_ends_the_mission_at_once():
    t = resolve(data())
    o = t.result
    assert o.ending == "Paragon Victory" and o.completed == ("Open the lab", "Evacuate the scientists")
    assert o.to_json()["ending"] == "Paragon Victory"
    ends, last = t.steps[-2:]
    assert ends.rule == S.ENDING_A_MISSION and ends.section == "Turn 2: Liara"
    assert last.rule == S.WAR_READINESS and last.facts["war_readiness"] == 3 and last.facts["standin"]
    assert not any(s.section == "End Phase" for s in t.steps)          # the Round stops with the Mission
    assert o.discard == ("Husks",)                                     # Liara's card is never flipped
    assert GAME.outcome_text(t).startswith("Outcome: The Mission ends: Paragon Victory")


def test_an_attached_objective_waits_for_its_preliminary_one():
    d = data()
    d["turns"][0]["actions"] = d["turns"][0]["actions"][:1]           # Shepard never opens the lab
    t = resolve(d)
    last = t.steps[-1]
    assert last.facts["field"] == "turns[1].actions[0].completes" and last.rule == S.MISSION_OBJECTIVES
    assert "Preliminary Objective 'Open the lab'" in t.result.rejected


def test_a_secondary_objective_does_not_end_the_mission_and_time_runs_out():
    d = data()
    d["time_limit"] = 1
    d["turns"][1]["actions"][0]["completes"] = "Download the research"
    t = resolve(d)
    o = t.result
    assert o.completed == ("Open the lab", "Download the research") and o.ending == "Failure: time ran out"
    assert t.steps[-2].rule == S.ENDING_A_MISSION and t.steps[-2].section == "End Phase"
    # War Readiness: 1 for the Secondary Objective (during the Mission), 0 for the Failure (stand-in amounts)
    war = [s for s in t.steps if s.rule == S.WAR_READINESS]
    assert [(s.facts["war_readiness"], s.section) for s in war] == [(1, "Turn 2: Liara"), (0, "End Phase")]
    assert o.to_json()["war_readiness"] == 1


def test_renegade_victory_and_completed_twice():
    d = data()
    d["turns"][1]["actions"][0]["completes"] = "Purge the lab"
    assert resolve(d).result.ending == "Renegade Victory"
    d = data()
    d["turns"][1]["actions"][0]["completes"] = "Open the lab"
    t = resolve(d)
    assert "already completed" in t.result.rejected


def test_no_objectives_no_new_outcome_keys():
    js = resolve_round(parse_round(read_toml(SCENARIOS / "me-round-1.toml"), "x.toml")).result.to_json()
    assert "ending" not in js and "objectives_completed" not in js


@pytest.mark.parametrize("patch,field", [
    (lambda d: d["objectives"][1].update(after="Purge the lab"), "objectives[1].after"),
    (lambda d: d["objectives"].append({"name": "Wrex's honour", "kind": "loyalty"}), "objectives"),
    (lambda d: d["objectives"].append({"name": "Open the lab", "kind": "secondary"}), "objectives[4].name"),
    (lambda d: d["turns"][1]["actions"][0].update(completes="Win"), "turns[1].actions[0].completes"),
    (lambda d: d["turns"][0]["actions"][0].update(completes="Open the lab"), "turns[0].actions[0].completes"),
])
def test_file_errors(patch, field):
    d = data()
    patch(d)
    with pytest.raises(ScenarioError) as e:
        parse_round(d, "x.toml")
    assert e.value.field == field


# --- Unlocking Abilities: the third XP box marked during the Round (built-in me-round-unlock) ----------------------


def unlock_data():
    return read_toml(SCENARIOS / "me-round-unlock.toml")


def test_unlock_golden_trace():
    check_golden(GOLDEN, "me-round-unlock", trace_text(resolve(unlock_data())))


def test_the_third_xp_box_unlocks_the_chosen_ability_at_once():
    t = resolve(unlock_data())
    unlock = next(s for s in t.steps if s.rule == S.UNLOCKING_ABILITIES)
    assert unlock.title == "Shepard's XP column is full: Shepard unlocks Warp, usable at once"
    assert any(s.title == "Shepard uses Warp on Husk B (1 hex)" for s in t.steps)
    assert t.result.rejected is None
    shepard = next(s for s in t.result.squadmates if s.name == "Shepard")
    assert (shepard.shield_points, shepard.hit_points) == (4, 6)      # Husk B's Attack Value counts as 0


def test_without_the_unlock_warp_stays_locked():
    d = unlock_data()
    d["unlocks"] = []
    t = resolve(d)
    assert any("may unlock an Ability (the file names none)" in s.title for s in t.steps)
    last = t.steps[-1]
    assert last.facts["field"] == "turns[0].actions[2].box" and last.rule == S.UNLOCKING_ABILITIES
    d = unlock_data()
    d["squadmates"][0]["xp"] = 1                      # the column is not full after one Defeat
    t = resolve(d)
    assert t.steps[-1].facts["field"] == "turns[0].actions[2].box"


@pytest.mark.parametrize("unlocks,field", [
    ([{"squadmate": "Shepard", "box": "Shoot"}], "unlocks[0].box"),              # not a Locked Ability
    ([{"squadmate": "Shepard", "box": "Warp"}, {"squadmate": "Shepard", "box": "Warp"}], "unlocks[1].squadmate"),
    ([{"squadmate": "Joker", "box": "Warp"}], "unlocks[0].squadmate"),
])
def test_unlock_file_errors(unlocks, field):
    d = unlock_data()
    d["unlocks"] = unlocks
    with pytest.raises(ScenarioError) as e:
        parse_round(d, "x.toml")
    assert e.value.field == field


@pytest.mark.parametrize("kind,amount", [("paragon", 3), ("renegade", 2)])
def test_war_readiness_a_paragon_victory_scores_more_than_a_renegade_one(kind, amount):
    """Overview › War Readiness; Victory and Defeat: the stand-in amounts keep the book's order (Paragon > Renegade),
    and a file's [war_readiness] replaces them (here with the campaign's points already marked)."""
    from explorer.games.masseffect.round import WAR_READINESS_STANDIN

    assert WAR_READINESS_STANDIN["paragon"] > WAR_READINESS_STANDIN["renegade"] > WAR_READINESS_STANDIN["failure"]
    d = data()
    if kind == "renegade":
        d["turns"][0]["actions"][1]["completes"] = "Purge the lab"
    t = resolve(d)
    assert t.result.to_json()["war_readiness"] == amount
    d["war_readiness"] = {"paragon": 7, "renegade": 4, "marked": 5}
    t = resolve(d)
    war = next(s for s in t.steps if s.rule == S.WAR_READINESS)
    n = {"paragon": 7, "renegade": 4}[kind]
    assert war.facts == {"war_readiness": n, "this_mission": n, "campaign": 5 + n, "standin": False}
    assert "war_readiness." + kind in war.detail


def test_war_readiness_bounds_and_no_objectives_no_score():
    d = data()
    d["war_readiness"] = {"paragon": 21}
    with pytest.raises(ScenarioError, match="war_readiness.paragon"):
        parse_round(d, "x.toml")
    d["war_readiness"] = {"marked": -1}
    with pytest.raises(ScenarioError, match="war_readiness.marked"):
        parse_round(d, "x.toml")
