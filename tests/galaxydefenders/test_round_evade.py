"""Engagement and Evade for drones, and a failed Evade (issue 21 gaps 3-4). A drone (Vigil, GD-5) counts as a
normal agent for most purposes (9.7.4.2, 9.7.4.3) and 7.2 names drones among the figures Burrowing aliens leave
free, so an engaged drone walks away only after an Evade; its walk is paid from its tile's movement, never from
its owner's allowance (it is the Device's own move on the owner's Action, not a Movement activity). The Core Set's
Evade test is not printed: a file says ``evade = "failed"``, and ruling ``failed_evade`` (a STAND-IN) says what an
agent's failed Evade does to its Movement activity."""

from __future__ import annotations

import tomllib

import pytest

from explorer.errors import RuleViolation, ScenarioError
from explorer.games import get_game, load_any
from explorer.games.galaxydefenders import sections as S
from explorer.games.galaxydefenders.options import ALL_OPTIONS
from test_hostile_files import to_toml

from .helpers import resolve

G = get_game("galaxydefenders")


def doc() -> dict:
    return tomllib.loads(G.scenario_text("gd-round-evade"))


def run(d, **rulings):
    game, sc = load_any("r.toml", text=to_toml(d))
    return game.resolve(sc, rulings=rulings)


def refused(d, **rulings) -> RuleViolation:
    with pytest.raises(RuleViolation) as e:
        run(d, **rulings)
    assert "\n" not in str(e.value)
    return e.value


def test_the_built_in_evade_round():
    t = resolve("gd-round-evade")
    pos = t.outcome["positions"]
    assert pos["Marine"] == "3,0" and pos["Vigil (Marine)"] == "2,2"
    assert pos["Biotech"] == "5,2" and pos["GD-5 (Biotech)"] == "6,1"           # both failed their Evade
    vigil = next(s for s in t.steps if s.title == "Vigil (Marine) is engaged in combat with Xeno: it Evades")
    assert vigil.rule == S.VIGIL
    walk = next(s for s in t.steps if s.title.startswith("Vigil (Marine) walks 4,1 → 2,2"))
    assert walk.title.endswith("2 of 4 movement points")          # its tile's 4, not the Marine's 1 left
    failed = next(s for s in t.steps if s.title.startswith("Biotech is engaged") and "Evade fails" in s.title)
    assert "Movement activity ends" in failed.title and "STAND-IN" in failed.detail
    gd5 = next(s for s in t.steps if s.title.startswith("GD-5 (Biotech) is engaged"))
    assert gd5.rule == S.GD5 and "still fights" in gd5.detail
    assert t.outcome["aliens"]["Xeno"]["wounds"] == 2 and t.rulings["failed_evade"] == "movement_ends"


def test_the_option_is_declared_as_a_stand_in_with_both_readings():
    o = next(o for o in ALL_OPTIONS if o.key == "failed_evade")
    assert set(o.readings) == {"movement_ends", "walk_only"} and o.default == "movement_ends"
    assert "STAND-IN" in o.title and "6.2" in o.section and "9.2.2" in o.why_default


def test_an_engaged_drone_walking_without_an_evade_is_refused_naming_the_activity():
    d = doc()
    del d["turns"][0]["activities"][1]["evade"]
    e = refused(d)
    assert "turns[0].activities[1].evade" in str(e) and "Vigil (Marine) is engaged in combat with Xeno" in str(e)
    assert "9.7.4.2 Vigil" in str(e) and "a drone counts as a normal agent" in str(e)


def test_a_drone_not_engaged_has_no_evade():
    d = doc()
    d["drones"][0]["at"] = "2,1"
    e = refused(d)
    assert "turns[0].activities[1].evade" in str(e) and "not engaged" in str(e)


def test_a_drones_walk_is_paid_from_its_tile_not_from_its_owners_allowance():
    d = doc()
    d["turns"][0]["activities"][0]["to"] = "4,0"                # the Marine spends all 4 of his points
    d["turns"][0]["activities"][1]["to"] = "0,2"                # Vigil 4 Hexes: its own 4
    t = run(d)
    assert t.outcome["positions"]["Marine"] == "4,0" and t.outcome["positions"]["Vigil (Marine)"] == "0,2"
    d["turns"][0]["activities"][1]["to"] = "0,0"                # 5 Hexes: more than its tile's 4
    e = refused(d)
    assert "turns[0].activities[1].to" in str(e) and "needs 5 movement points" in str(e)


def test_a_drone_walk_is_no_second_movement_activity():
    """Under movement_activity = once an agent's second ``move`` is refused; the drone's walk after the agent's
    own move is not one (it comes with the Action, 9.7.4.2)."""
    t = run(doc(), movement_activity="once")
    assert t.outcome["positions"]["Vigil (Marine)"] == "2,2"


def _split_after_failure(second_evade=True):
    d = doc()
    acts = d["turns"][1]["activities"]
    acts.insert(1, {"kind": "move", "to": "4,2", **({"evade": True} if second_evade else {})})
    return d


def test_movement_ends_refuses_a_later_move_after_a_failed_evade():
    e = refused(_split_after_failure(), movement_activity="split")
    assert "turns[1].activities[1]" in str(e) and "Evade failed at activities[0]" in str(e)
    assert "failed_evade = movement_ends" in str(e) and "6.2 Battle Phase" in str(e)


def test_walk_only_lets_a_split_move_try_again_and_spends_nothing_on_the_failure():
    t = run(_split_after_failure(), movement_activity="split", failed_evade="walk_only")
    assert t.outcome["positions"]["Biotech"] == "4,2"
    walk = next(s for s in t.steps if s.title.startswith("Biotech walks 5,2 → 4,2"))
    assert walk.title.endswith(": 1 Hex, 1 of 4 movement points")   # the failed Evade spent no point
    assert any("only this walk is lost" in s.detail for s in t.steps)


def test_a_failed_evade_when_not_engaged_is_refused():
    d = doc()
    d["agents"][1]["at"] = "8,2"
    d["turns"][1]["activities"][0]["to"] = "7,2"
    e = refused(d)
    assert "turns[1].activities[0].evade" in str(e) and "not engaged" in str(e)


@pytest.mark.parametrize("act", [{"kind": "action", "to": "3,2", "evade": "failed"},
                                 {"kind": "combat", "evade": True}, {"kind": "move", "evade": "failed"}])
def test_evade_only_on_a_walk_is_refused_at_parse_time_in_one_line(act):
    d = doc()
    d["turns"][1]["activities"] = [act]
    with pytest.raises(ScenarioError) as e:
        run(d)
    assert "turns[1].activities[0].evade" in str(e.value) and "\n" not in str(e.value)


def test_a_bad_evade_value_names_the_field():
    d = doc()
    d["turns"][1]["activities"][0]["evade"] = "maybe"
    with pytest.raises(ScenarioError) as e:
        run(d)
    assert "turns[1].activities[0].evade" in str(e.value) or "turns.1.activities.0.evade" in str(e.value)
