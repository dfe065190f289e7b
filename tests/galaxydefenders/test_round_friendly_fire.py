"""NPC friendly fire (10.2.2; Storybook 6): with the round's ``friendly_fire`` ON, an NPC's (an agent's, a drone's)
Area Damage or Explosion also reaches its allies in the Areas, each defending on its own (ruling
``friendly_fire_reach``). Worked example: ``gd-round-npc-friendly-fire``."""

from __future__ import annotations

import tomllib

import pytest
from test_hostile_files import to_toml

from explorer.errors import ScenarioError
from explorer.games import get_game, load_any
from explorer.games.galaxydefenders import sections as S

from .helpers import resolve

GAME = get_game("galaxydefenders")


def _doc() -> dict:
    return tomllib.loads(GAME.scenario_text("gd-round-npc-friendly-fire"))


def _run(doc: dict, **rulings):
    _, sc = load_any("r.toml", text=to_toml(doc))
    return GAME.resolve(sc, rulings=rulings)


def _rolled(doc: dict) -> dict:
    return doc["turns"][0]["activities"][0]["rolled"]


def test_worked_example_the_marine_in_the_area_is_hit_and_defends():
    t = resolve("gd-round-npc-friendly-fire")
    out = t.result.to_json()
    assert out["aliens"]["Xeno"]["wounds"] == 2          # 2 hits, 2 blank Blue dice
    assert out["agents"]["Marine"]["wounds"] == 1        # 2 hits, 1 shield
    assert out["agents"]["Biotech"]["wounds"] == 0       # another Area
    assert out["npcs"]["Sgt. Rock"]["wounds"] == 0       # never its own target
    ff = next(s for s in t.steps if s.title.startswith("Friendly Fire is ON"))
    assert ff.rule == S.NPC_COMBAT and "10.2.2" in ff.detail
    assert "Area damage reaches Xeno, Marine" in [s.title for s in t.steps]
    assert t.rulings["friendly_fire_reach"] == "area_allies"


def test_off_by_default_reaches_no_ally_and_consults_no_ruling():
    doc = _doc()
    del doc["friendly_fire"]
    del _rolled(doc)["defend"]["Marine"]
    t = _run(doc)
    assert t.result.to_json()["agents"]["Marine"]["wounds"] == 0
    assert "Area damage reaches Xeno" in [s.title for s in t.steps]
    assert "friendly_fire_reach" not in t.rulings
    assert not any("Friendly Fire" in s.title for s in t.steps)


def test_none_printed_reading_reaches_no_ally():
    doc = _doc()
    del _rolled(doc)["defend"]["Marine"]
    t = _run(doc, friendly_fire_reach="none_printed")
    assert t.result.to_json()["agents"]["Marine"]["wounds"] == 0
    assert any(s.title.endswith("no ally is reached") for s in t.steps)


def test_a_single_target_weapon_is_unchanged():
    doc = _doc()
    doc["npcs"][0]["weapon"]["damage"] = "single"
    r = _rolled(doc)
    del r["defend"]["Marine"]
    t = _run(doc)
    assert t.result.to_json()["agents"]["Marine"]["wounds"] == 0
    assert "friendly_fire_reach" not in t.rulings


def test_an_explosion_reaches_the_allies_one_area_away_too():
    doc = _doc()
    doc["npcs"][0]["weapon"]["damage"] = "explosion"
    _rolled(doc)["defend"]["Biotech"] = ["blank", "blank"]
    out = _run(doc).result.to_json()
    assert out["agents"]["Biotech"]["wounds"] == 2       # Area A is adjacent to Area B by a walking path
    assert out["agents"]["Marine"]["wounds"] == 1
    assert out["npcs"]["Sgt. Rock"]["wounds"] == 0


def test_an_agents_area_attack_follows_the_same_rule():
    doc = _doc()
    doc["agents"][0]["weapon"] = {"name": "Grenade", "dice": {"red": 1}, "damage": "area"}
    doc["turns"][0]["activities"] = [{"kind": "action"}, {"kind": "combat", "target": "Xeno", "rolled": {
        "hit": {"red": ["hit"]}, "defend": {"Xeno": ["blank"], "Marine": ["blank"]}}},
        {"kind": "activate_npc", "npc": "Sgt. Rock", "rolled": {"hit": {"red": ["wings", "wings"]}}}]
    t = _run(doc)
    assert t.result.to_json()["agents"]["Marine"]["wounds"] == 1
    ff = next(s for s in t.steps if s.title.startswith("Friendly Fire is ON: Biotech"))
    assert ff.rule == S.LEVEL_OF_DIFFICULTY


def test_an_ally_is_never_the_primary_target():
    doc = _doc()
    doc["agents"][0]["weapon"] = {"name": "Grenade", "dice": {"red": 1}, "damage": "area"}
    doc["turns"][0]["activities"].append({"kind": "combat", "target": "Marine"})
    with pytest.raises(ScenarioError, match="no alien named 'Marine'"):
        _run(doc)
