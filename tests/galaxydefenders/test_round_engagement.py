"""Engagement and Evade in a round on a map: an agent next to an alien is engaged in combat and walks away only after
an Evade (a Core Set test this book names in 7.3, 10.2.1 and 11.11 but does not print: the file says it passed);
Burrowing aliens never engage (7.2); standing up while engaged takes the entire movement activity (9.2.2); NPCs and
aliens disengage without an Evade test (10.2.1, 11.11)."""

from __future__ import annotations

import tomllib
from importlib import resources

import pytest
from test_hostile_files import to_toml

from explorer.errors import RuleViolation, ScenarioError
from explorer.games import load_any

from .helpers import resolve

SCEN = resources.files("explorer.games.galaxydefenders") / "scenarios" / "gd-round-engagement.toml"


def _doc():
    return tomllib.loads(SCEN.read_text(encoding="utf-8"))


def _run(doc):
    game, sc = load_any("e.toml", text=to_toml(doc))
    return game.resolve(sc)


def _step(t, start):
    return next(s for s in t.steps if s.title.startswith(start))


def test_the_built_in_cites_each_engagement_rule():
    t = resolve("gd-round-engagement")
    assert _step(t, "Marine is engaged in combat with Xeno: it Evades").rule.section == "6.2 Battle Phase"
    assert _step(t, "Infiltrator spends its entire movement activity").rule.section.startswith("9.2.2")
    assert _step(t, "Biotech moves away from Diggers freely").rule.section == "7.2 Burrowing"
    assert _step(t, "Xeno disengages from Infiltrator without an Evade test").rule.section == "11.11 Movement"
    assert t.outcome["positions"]["Marine"] == "2,1" and t.outcome["positions"]["Biotech"] == "6,2"


def test_an_engaged_agent_without_an_evade_is_refused():
    doc = _doc()
    del doc["turns"][0]["activities"][0]["evade"]
    with pytest.raises(RuleViolation) as e:
        _run(doc)
    assert "turns[0].activities[0].evade" in str(e.value) and "engaged in combat with Xeno" in str(e.value)


def test_an_evade_next_to_burrowing_aliens_only_is_refused():
    doc = _doc()
    doc["turns"][2]["activities"][0]["evade"] = True
    with pytest.raises(RuleViolation) as e:
        _run(doc)
    assert "turns[2].activities[0].evade" in str(e.value) and "7.2" in str(e.value)
    assert "Diggers (Burrowing) never engages" in str(e.value)


def test_an_evade_with_no_alien_adjacent_is_refused():
    doc = _doc()
    doc["agents"][0]["at"] = "0,0"
    doc["turns"][0]["activities"][0]["to"] = "1,0"
    with pytest.raises(RuleViolation) as e:
        _run(doc)
    assert "no alien adjacent" in str(e.value)


def test_an_evade_belongs_to_a_walk():
    doc = _doc()
    doc["turns"][1]["activities"][0]["evade"] = True
    with pytest.raises(ScenarioError) as e:
        _run(doc)
    assert "turns[1].activities[0].evade" in str(e.value)


def test_standing_up_while_engaged_leaves_no_walk():
    doc = _doc()
    doc["turns"][1]["activities"][0].update(to="4,2", evade=True)
    with pytest.raises(RuleViolation) as e:
        _run(doc)
    assert "standing up takes its entire movement activity" in str(e.value) and "9.2.2" in str(e.value)


def test_standing_up_when_not_engaged_pays_the_token_cost():
    doc = _doc()
    doc["agents"][1]["at"] = "3,2"
    t = _run(doc)
    assert _step(t, "Infiltrator spends 1 movement point to go from Prone to Standing")


def test_an_npc_disengages_without_an_evade_test():
    doc = _doc()
    del doc["aliens"][1], doc["turns"][2]                 # no Diggers: the Knight's closest alien is the Xeno
    doc["npcs"] = [{"name": "Knight", "controller": "Marine", "at": "5,0",
                    "rules": [{"condition": "plus", "action": "move_away", "move": 1}]}]
    doc["turns"][0]["activities"].append({"kind": "activate_npc", "npc": "Knight"})
    t = _run(doc)
    s = _step(t, "Knight disengages from Xeno without an Evade test")
    assert s.rule.section == "10.2.1 NPC Movement"


def test_a_burrowing_alien_never_disengages():
    doc = _doc()
    doc["aliens"][1]["rules"] = [{"condition": "plus", "action": "move_away", "move": 1}]
    doc["turns"][2]["activities"] = []
    doc["turns"][2]["close_encounter"] = {"card": 26, "activates": ["Diggers"]}
    del doc["turns"][2]
    doc["turns"][1]["close_encounter"] = {"card": 26, "activates": ["Diggers"]}
    t = _run(doc)
    assert not any("Diggers disengages" in s.title for s in t.steps)
    assert t.outcome["positions"]["Diggers"] != "8,0"


def test_an_npc_attack_ignores_its_jam_results():
    """10.2.2: an NPC's weapon never jams: a jam face on its Hit roll stops nothing, and the hits on the other dice
    wound as they would (the NPC attacks while engaged, from where it stands)."""
    doc = _doc()
    del doc["aliens"][1], doc["turns"][2]
    doc["npcs"] = [{"name": "Knight", "controller": "Marine", "at": "5,0",
                    "weapon": {"name": "Blaster", "dice": {"yellow": 2}},
                    "rules": [{"condition": "adjacent", "action": "attack"}]}]
    doc["turns"][0]["activities"].append({"kind": "activate_npc", "npc": "Knight", "rolled": {
        "hit": {"yellow": ["jam", "hit"]}, "defend": {"Xeno": ["blank"]}}})
    t = _run(doc)
    assert "never jams" in _step(t, "Knight attacks Xeno with Blaster").detail
    assert _step(t, "Knight rolls 2 dice: 1 hit").facts["hits"] == 1
    assert t.outcome["aliens"]["Xeno"]["wounds"] == 1
