"""The Power Suit on a round's map (9.5, 9.5.1): the empty suit occupies its Hex (agents, aliens and NPCs cross it,
aliens ignore it and never end their movement there, an agent ends there only to equip it), equip in its Hex with
the Action, unequip to an adjacent Hex joined by a legal walking path, the Recall Power Suit special Action of the
later missions, and the suit's figure leaving the map when it cannot pay its Battery."""

from __future__ import annotations

import tomllib
from importlib import resources

import pytest
from test_hostile_files import to_toml

from explorer.errors import RuleViolation, ScenarioError
from explorer.games import load_any
from explorer.games.galaxydefenders.options import rulings as make_rulings
from explorer.games.galaxydefenders.round import round_frames

from .helpers import resolve

SCEN = resources.files("explorer.games.galaxydefenders") / "scenarios" / "gd-round-suit-empty.toml"


def _doc():
    return tomllib.loads(SCEN.read_text(encoding="utf-8"))


def _load(doc):
    return load_any("s.toml", text=to_toml(doc))


def _run(doc):
    game, sc = _load(doc)
    return game.resolve(sc)


def _step(t, start):
    return next(s for s in t.steps if s.title.startswith(start))


def test_the_built_in_leaves_the_suit_on_the_map_then_recalls_it():
    t = resolve("gd-round-suit-empty")
    s = _step(t, "Hulk unequips Power Suit Mark I and steps out to 1,1")
    assert s.rule.section == "9.5.1 How to Equip a Power Suit"
    end = _step(t, "Ends in ")
    assert end.title != "Ends in 2,1 (Area A)" and "5 hexes tie" in end.detail    # 6 next to the Hulk, less the suit's
    assert _step(t, "Marine recalls Power Suit Mark I").facts["recalled_from"] == "2,1"
    pos = t.outcome["positions"]
    assert pos["Hulk"] == "1,1" and pos["Marine"] == "2,2" and "Power Suit Mark I" not in pos
    assert t.outcome["power_suit"]["equipped_by"] == "Marine"


def test_the_empty_suit_is_a_figure_between_the_unequip_and_the_recall():
    _, (_, sc) = _load(_doc())
    frames = round_frames(sc, make_rulings())
    after_hulk = frames[1].state
    suit = [p for p in after_hulk.figures if p.side == "power_suit"]
    assert [(p.name, str(p.at)) for p in suit] == [("Power Suit Mark I", "2,1")]
    assert not any(p.side == "power_suit" for p in frames[-1].state.figures)


def _walk_in(then_equip=True):
    doc = _doc()
    del doc["power_suit"]["equipped_by"]
    doc["power_suit"].update(at="2,1", recall=False)
    doc["agents"][0]["at"] = "1,1"
    doc["agents"][1]["at"] = "3,0"
    acts = [{"kind": "move", "to": "2,1"}]
    if then_equip:
        acts += [{"kind": "action", "suit": "equip"}, {"kind": "move", "to": "3,2", "what": "on"}]
    doc["turns"] = [{"agent": "Marine", "activities": acts}]
    return doc


def test_an_agent_walks_into_the_suits_hex_and_equips_it():
    t = _run(_walk_in())
    assert _step(t, "Marine equips Power Suit Mark I")
    assert t.outcome["positions"]["Marine"] == "3,2"


def test_ending_in_the_suits_hex_without_equipping_is_refused():
    with pytest.raises(RuleViolation) as e:
        _run(_walk_in(then_equip=False))
    assert "9.5.1" in str(e.value) and "holds the empty Power Suit Mark I" in str(e.value)
    assert "turns[0].activities[0].to" in str(e.value)


def test_equipping_from_another_hex_needs_the_recall_action():
    doc = _walk_in()
    doc["turns"][0]["activities"] = [{"kind": "action", "suit": "equip"}]
    with pytest.raises(RuleViolation) as e:
        _run(doc)
    assert "not in the suit's Hex 2,1" in str(e.value)


def test_recall_needs_the_missions_special_action():
    doc = _doc()
    doc["power_suit"]["recall"] = False
    with pytest.raises(ScenarioError) as e:
        _run(doc)
    assert "turns[1].activities[0].suit" in str(e.value) and "9.5.1" in str(e.value)


@pytest.mark.parametrize("place, words", [(None, "name the adjacent Hex"), ("0,1", "not an open Hex next to"),
                                          ("8,2", "not an open Hex next to")])
def test_an_unequip_on_a_map_needs_an_adjacent_hex(place, words):
    doc = _doc()
    act = doc["turns"][0]["activities"][0]
    if place is None:
        del act["place"]
    else:
        act["place"] = place
    with pytest.raises(RuleViolation) as e:
        _run(doc)
    assert words in str(e.value) and "turns[0].activities[0].place" in str(e.value)


def test_an_unequip_across_a_barrier_is_refused():
    doc = _doc()
    doc["map"]["edges"] = [{"edge": "2,1|1,1", "kind": "barrier"}]
    with pytest.raises(RuleViolation) as e:
        _run(doc)
    assert "no legal walking path" in str(e.value)


def test_the_suits_hex_in_the_file():
    doc = _walk_in()
    del doc["power_suit"]["at"]
    with pytest.raises(ScenarioError) as e:
        _run(doc)
    assert "power_suit.at" in str(e.value)
    doc = _doc()
    doc["power_suit"]["at"] = "5,2"
    with pytest.raises(ScenarioError) as e:
        _run(doc)
    assert "power_suit.at" in str(e.value) and "wears the suit" in str(e.value)


def test_a_suit_without_a_battery_leaves_the_map():
    doc = _walk_in(then_equip=False)
    doc["power_suit"]["batteries"] = 0
    doc["turns"] = [{"agent": "Marine", "activities": [{"kind": "move", "to": "2,1"}]}]
    t = _run(doc)                                   # the suit left play in the Refresh phase: its Hex is free
    assert _step(t, "Power Suit Mark I has no Battery to pay: it leaves play")
    assert t.outcome["positions"]["Marine"] == "2,1" and "Power Suit Mark I" not in t.outcome["positions"]
