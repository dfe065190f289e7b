"""Round built-ins for rules of issue 19's audit: Inferno Damage at the start of the Round
(me-round-inferno), a Low Ground -> High Ground Move refused naming the field, and the legal High -> Low move
(me-round-elevation), a Mission ending because time runs out (me-round-time-out), Coolant Leaks (me-round-coolant).
Goldens in tests/masseffect/golden."""

from pathlib import Path

import pytest
from golden_helpers import check_golden, trace_text

from explorer.games.masseffect.round import parse_round, resolve_round
from explorer.scenario import read_toml

SCENARIOS = Path(__file__).parents[2] / "explorer" / "games" / "masseffect" / "scenarios"
GOLDEN = Path(__file__).parent / "golden"
NAMES = ["me-round-inferno", "me-round-elevation", "me-round-time-out", "me-round-coolant"]


def data(name):
    return read_toml(SCENARIOS / f"{name}.toml")


def play(d, rulings=None):
    return resolve_round(parse_round(d, "x.toml"), rulings)


@pytest.mark.parametrize("name", NAMES)
def test_golden_trace(name):
    check_golden(GOLDEN, name, trace_text(play(data(name))))


def test_inferno_damages_squadmate_and_minion_not_elite():
    t = play(data("me-round-inferno"))
    first = [s for s in t.steps if s.rule.section == "Map Features › Inferno Icons"]
    assert [s.title for s in first] == ["Start of the Round: Shepard is in Inferno hex 0,0",
                                        "Start of the Round: Husk A is in Inferno hex 2,-2",
                                        "Brute is an Elite: unaffected by the Inferno hex"]
    burn = next(s for s in t.steps if s.title.startswith("Shepard suffers 1 Damage from an Inferno hex"))
    assert "Shields 4 -> 3" in burn.detail
    assert any(s.title.startswith("Husk A suffers 1 Damage") and "Defeated" in s.title for s in t.steps)
    assert "Husk A" in t.outcome["returned_to_bag"] and "Brute" in t.outcome["enemies"]
    # back in the Enemy Bag, Husk A is the token Shepard's card Spawns (the file declares no other draw)
    assert t.outcome["enemies"]["Husk A"] == {"hex": "3,-3", "damage": 0, "stunned": False}


def test_inferno_before_preparation():
    titles = [s.title for s in play(data("me-round-inferno")).steps]
    assert titles.index("Start of the Round: Shepard is in Inferno hex 0,0") < \
        next(i for i, x in enumerate(titles) if x.startswith("Hazard card Quiet drawn"))


def test_low_to_high_move_refused_naming_the_field():
    d = data("me-round-elevation")
    d["squadmates"][0]["position"] = "0,0"
    d["turns"][0]["actions"][0]["path"] = ["0,0", "1,0"]
    t = play(d)
    refusal = next(s for s in t.steps if s.title.startswith("Not allowed"))
    assert refusal.facts == {"rejected": True, "field": "turns[0].actions[0].path[1]"}
    assert refusal.rule.section == "Map Features › Elevation Change Icons"
    assert "1,0 is the High Ground side" in refusal.title
    assert t.outcome["squadmates"]["Shepard"]["hex"] == "0,0"


def test_high_to_low_move_is_legal():
    t = play(data("me-round-elevation"))
    assert not any(s.title.startswith("Not allowed") for s in t.steps)
    assert any(s.title == "Shepard's Move Action ends at -1,0: 2 of 2 Movement Points spent" for s in t.steps)
    assert t.outcome["squadmates"]["Shepard"]["hex"] == "-1,0"


def test_time_runs_out_after_the_last_round():
    t = play(data("me-round-time-out"))
    end = next(s for s in t.steps if s.title.startswith("Time runs out"))
    assert end.title == "Time runs out after Round 2: the Mission ends in Failure"
    assert end.facts == {"ending": "Failure: time ran out"} and end.rule.section == "Ending a Mission"
    assert t.steps[-1].title.startswith("War Readiness") and end is t.steps[-2]


def test_no_time_out_before_the_limit():
    d = data("me-round-time-out") | {"time_limit": 3}
    assert not any(s.title.startswith("Time runs out") for s in play(d).steps)


def _coolant(path):
    """Shepard (4 Shield Points) moves along ``path`` on a map with a Coolant Leak on -1,0; a Husk far off that the
    Hazard card Activates (it Advances, never reaching him)."""
    return {"game": "masseffect", "kind": "round", "title": "Coolant Leak", "on_point": "Shepard",
            "map": {"name": "coolant", "shape": {"kind": "hexagon", "radius": 4}, "icons": {"-1,0": ["coolant_leak"]}},
            "squadmates": [{"name": "Shepard", "max_shield_points": 4, "max_hit_points": 6, "position": "0,0"}],
            "enemies": [{"name": "Husk", "attack_value": 1, "shield_value": 3, "position": "4,-4"}],
            "hazard_deck": [{"name": "A", "instructions": [{"do": "activate", "types": ["Husk"]}]}],
            "turns": [{"squadmate": "Shepard", "actions": [{"box": "Move", "die": "move_2", "path": path}]}]}


def test_a_coolant_leak_damages_the_squadmate_who_ends_the_turn_there_after_the_hazard_card():
    """Map Features › Coolant Leaks in a Round: 2 Damage when the Squadmate ENDS the turn in the hex, so after Step C's
    Hazard card; walking through it does nothing; Enemies are unaffected."""
    t = play(_coolant(["0,0", "-1,0"]))
    titles = [s.title for s in t.steps]
    leak = titles.index("Shepard ends the turn in Coolant Leak hex -1,0")
    assert titles.index("Step C: Shepard flips Hazard card A") < leak
    assert titles[leak + 1].startswith("Shepard suffers 2 Damage from a Coolant Leak")
    assert next(s for s in t.steps if s.title.startswith("Shepard suffers 2 Damage")).detail.endswith(
        "Shields 4 -> 2, Hit Points 6 -> 6.")
    passed = play(_coolant(["0,0", "-1,0", "-2,0"]))            # through it, ending on -2,0: nothing
    assert not any(s.rule.section == "Map Features › Coolant Leaks" for s in passed.steps)


def test_the_coolant_builtin_hurts_only_the_squadmate_ending_the_turn_there():
    """me-round-coolant: Shepard walks through a leak (nothing), the Husk Advances onto one (Enemies are unaffected),
    Garrus ends his turn on one: 2 Damage to his Shield Points, after his Hazard card."""
    t = play(data("me-round-coolant"))
    leak = [s.title for s in t.steps if s.rule.section == "Map Features › Coolant Leaks"]
    assert leak == ["Garrus ends the turn in Coolant Leak hex 2,-1"]
    assert t.outcome["enemies"]["Husk"] == {"hex": "0,-2", "damage": 0, "stunned": False}
    hurt = next(s for s in t.steps if s.title.startswith("Garrus suffers 2 Damage from a Coolant Leak"))
    assert hurt.detail.endswith("Shields 3 -> 1, Hit Points 5 -> 5.")
