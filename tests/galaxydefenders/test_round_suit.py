"""The Power Suit in a round (issue 21, item c): 9.5 (it leaves play without a Battery), 9.5.1 equip / unequip with
the Action, 9.5.2.1 the movement bonus, 9.5.2.2 its weapon with the Combat activity (ruling combat_activity),
9.5.2.3 its energy shields refreshed in each Refresh phase."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_hostile_files import to_toml

from explorer.errors import RuleViolation, ScenarioError
from explorer.games import load_any

from .helpers import resolve

AGENTS = [{"name": "Hulk"}, {"name": "Marine"}]


def _run(turns, suit=None, rulings=None):
    doc = {"game": "galaxydefenders", "kind": "round", "agents": AGENTS,
           "power_suit": suit or {"batteries": 2, "equipped_by": "Hulk"}, "turns": turns}
    if rulings:
        doc["rulings"] = rulings
    game, sc = load_any("r.toml", text=to_toml(doc))
    return game.resolve(sc)


def test_the_built_in_round_with_a_power_suit():
    t = resolve("gd-round-power-suit")
    o = t.result
    assert o.suit.equipped_by == "Marine" and o.suit.batteries == 0 and o.suit_shields == 3
    assert t.outcome["power_suit"] == {"batteries": 0, "equipped_by": "Marine", "shields_left": 3}
    secs = [s.rule.section for s in t.steps]
    for sec in ("9.5.2.3 Energy Shields", "9.5.2.2 Combat", "9.5.1 How to Equip a Power Suit", "9.5.2.1 Movement"):
        assert sec in secs
    assert any(s.title == "+2 movement from the Mark I suit" for s in t.steps)


def test_a_round_without_suit_activities_reports_no_suit_in_its_outcome():
    assert "power_suit" not in resolve("gd-round-agents").outcome


@pytest.mark.parametrize("turns, suit, section, field, words", [
    ([{"agent": "Marine", "activities": [{"kind": "action", "suit": "equip"}]}], None,
     "9.5.1 How to Equip a Power Suit", "turns[0].activities[0].suit", "unequip it first"),
    ([{"agent": "Marine", "activities": [{"kind": "combat", "suit": "weapon"}]}], None, "9.5.2.2 Combat",
     "turns[0].activities[0].suit", "does not wear"),
    ([{"agent": "Marine", "activities": [{"kind": "action", "suit": "unequip"}]}], None,
     "9.5.1 How to Equip a Power Suit", "turns[0].activities[0].suit", "does not wear"),
    ([{"agent": "Hulk", "activities": [{"kind": "action", "suit": "equip"}]}], None,
     "9.5.1 How to Equip a Power Suit", "turns[0].activities[0].suit", "already wears"),
    ([{"agent": "Hulk", "activities": [{"kind": "action", "suit": "weapon"}]}], None, "9.5.2.2 Combat",
     "turns[0].activities[0].suit", "combat_activity"),
    ([{"agent": "Hulk", "activities": [{"kind": "action", "suit": "unequip"}, {"kind": "action", "suit": "equip"}]}],
     None, "6.2.1.1 Free Action Activity", "turns[0].activities[1]", "Action activity"),
    ([{"agent": "Marine", "activities": [{"kind": "action", "suit": "equip"}]}], {"batteries": 0},
     "9.5 Power Suit", "turns[0].activities[0].suit", "no longer in play"),
])
def test_suit_refusals_cite_the_section(turns, suit, section, field, words):
    with pytest.raises(RuleViolation) as e:
        _run(turns, suit)
    assert e.value.section == section and e.value.rejection.field == field and words in e.value.reason


def test_the_weapon_with_the_action_when_the_combat_activity_is_the_action():
    t = _run([{"agent": "Hulk", "activities": [{"kind": "action", "suit": "weapon"}]}],
             rulings={"combat_activity": "is_the_action"})
    assert any(s.rule.section == "9.5.2.2 Combat" for s in t.steps)
    with pytest.raises(RuleViolation):
        _run([{"agent": "Hulk", "activities": [{"kind": "combat", "suit": "weapon"}, {"kind": "action",
                                                                                     "suit": "unequip"}]}],
             rulings={"combat_activity": "is_the_action"})


def test_shields_refresh_only_while_the_suit_is_in_play():
    t = _run([], {"batteries": 0, "equipped_by": "Hulk", "energy_shields": 3, "shields_left": 0})
    assert t.result.suit is None and t.result.suit_shields is None
    assert not any(s.rule.section == "9.5.2.3 Energy Shields" for s in t.steps)
    t = _run([], {"batteries": 1, "energy_shields": 3, "shields_left": 3})
    assert t.result.suit_shields == 3 and not any(s.rule.section == "9.5.2.3 Energy Shields" for s in t.steps)


@pytest.mark.parametrize("turns, suit, field", [
    ([{"agent": "Hulk", "activities": [{"kind": "move", "suit": "equip"}]}], None, "turns[0].activities[0].suit"),
    ([{"agent": "Hulk", "activities": [{"kind": "move", "suit": "weapon"}]}], None, "turns[0].activities[0].suit"),
    ([], {"batteries": 1, "equipped_by": "Nobody"}, "power_suit.equipped_by"),
    ([], {"batteries": 1, "energy_shields": 2, "shields_left": 3}, "power_suit.shields_left"),
    ([], {"batteries": 1, "suit_model": "mark_iii"}, "power_suit.suit_model"),
])
def test_file_refusals(turns, suit, field):
    with pytest.raises(ScenarioError) as e:
        _run(turns, suit)
    assert e.value.field == field and e.value.source == "r.toml"


@settings(max_examples=50, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["Hulk", "Marine"]), st.sampled_from(["equip", "unequip"])), max_size=2,
                unique_by=lambda x: x[0]), st.sampled_from([None, "Hulk", "Marine"]))
def test_at_most_one_wearer_and_each_change_by_the_right_agent(acts, wearer):
    """Oracle apart from the engine: equip needs the suit free, unequip needs the agent to wear it; one Action each."""
    who, ok = wearer, True
    for agent, what in acts:
        if what == "equip":
            ok = ok and who is None
            who = agent if ok else who
        else:
            ok = ok and who == agent
            who = None if ok else who
    turns = [{"agent": a, "activities": [{"kind": "action", "suit": w}]} for a, w in acts]
    try:
        t = _run(turns, {"batteries": 1, "equipped_by": wearer} if wearer else {"batteries": 1})
    except RuleViolation:
        assert not ok
        return
    assert ok and (t.result.suit.equipped_by == who)


# ------------------------------------------------------------------ the suit's Flying ability (9.5; 7.1.1)

def _map_suit(flying: bool, to: str = "6,0"):
    """gd-round-map-suit with the Marine walking 4,0 -> 5,0 -> across the Barrier Hex Side 5,0|6,0, the open row-2
    crossing closed by two more Barrier Hex Sides (so Areas B and C are parted for a figure on the ground)."""
    import tomllib

    from explorer.games import get_game

    g = get_game("galaxydefenders")
    doc = tomllib.loads(g.scenario_text("gd-round-map-suit"))
    doc["agents"][0]["at"] = "4,0"
    doc["power_suit"]["flying"] = flying
    doc["map"]["edges"] += [{"edge": "5,2|6,2", "kind": "barrier"}, {"edge": "5,2|6,1", "kind": "barrier"}]
    doc["turns"] = [{"agent": "Marine", "activities": [{"kind": "move", "to": to}]}]
    doc.pop("close_encounter", None)
    for t in doc.get("turns", []):
        t.pop("close_encounter", None)
    _, sc = load_any("r.toml", text=to_toml(doc))
    return g.resolve(sc)


def test_a_suit_with_the_flying_ability_crosses_a_barrier_hex_side():
    """9.5: a Power Suit's sheet may give the Flying ability ("the ability to move through Barrier Hexes"); 7.1.1:
    agents acquire Flying in a temporary way, thanks to power suits. Before session 14 the file could not say it and
    an agent in such a suit was refused at the Barrier (5.1)."""
    t = _map_suit(True)
    walk = next(s for s in t.steps if s.title.startswith("Marine walks"))
    assert walk.facts["path"] == ["4,0", "5,0", "6,0"]
    assert "Flying" in walk.detail and "Power Suit" in walk.detail
    with pytest.raises(RuleViolation) as e:
        _map_suit(False)
    assert "only Flying figures cross Barrier Hex Sides" in str(e.value)
