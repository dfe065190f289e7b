"""Weapon Range on the round's map (9.2: the Range printed with a weapon is the maximum allowed range; counted in
Areas or Hexes per ruling range_unit): an agent's attack beyond it is refused, an NPC's or alien's attack its A.I.
called for is not made."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_hostile_files import to_toml

from explorer.errors import RuleViolation
from explorer.games import load_any
from explorer.games.galaxydefenders import sections as S

from .helpers import resolve

ROW = {"A": ["0,0", "1,0", "2,0"], "B": ["3,0", "4,0", "5,0"], "C": ["6,0", "7,0", "8,0"]}


def shoot_doc(q: int, rng: int | None) -> dict:
    weapon = {"name": "Rifle", "dice": {"red": 1}} | ({} if rng is None else {"range": rng})
    return {"game": "galaxydefenders", "kind": "round", "seed": 3, "map": {"areas": ROW},
            "agents": [{"name": "Marine", "at": "0,0", "weapon": weapon}],
            "aliens": [{"name": "Xeno", "at": f"{q},0", "health": 9}],
            "turns": [{"agent": "Marine", "activities": [
                {"kind": "combat", "target": "Xeno",
                 "rolled": {"hit": {"red": ["hit"]}, "defend": {"Xeno": ["blank"]}}}]}]}


def run(d, **rulings):
    game, sc = load_any("r.toml", text=to_toml(d))
    return game.resolve(sc, rulings=rulings)


def test_the_built_in_an_alien_beyond_its_range_does_not_attack_one_within_does():
    t = resolve("gd-round-range")
    titles = [s.title for s in t.steps]
    assert "Xeno is within Rifle's Range" in titles
    skip = next(s for s in t.steps if s.title == "Xeno cannot attack Marine: beyond Spit's Range")
    assert skip.rule == S.ALIEN_COMBAT and "2 Areas" in skip.detail and "Range is 1" in skip.detail
    assert "Marine is within Long Spit's Range" in titles
    marine, = t.result.agents
    assert marine.wounds == 1                          # the Stalker's 1 hit only, not the Xeno's 2
    assert not any("Spit targets" in x and "Long" not in x for x in titles)


def test_an_agents_attack_beyond_its_range_is_refused_with_the_field():
    with pytest.raises(RuleViolation) as e:
        run(shoot_doc(6, 1))
    assert e.value.field == "turns[0].activities[0].target"
    assert "beyond Rifle's Range" in e.value.reason and "2 Areas" in e.value.reason
    assert e.value.rule == S.AGENT_COMBAT


def test_counted_in_hexes_under_the_other_reading():
    run(shoot_doc(6, 2))                                # 2 Areas: within
    with pytest.raises(RuleViolation, match="6 Hexes"):
        run(shoot_doc(6, 2), range_unit="hexes")
    t = run(shoot_doc(2, 2), range_unit="hexes")
    assert "range_unit = hexes" in t.to_text()


def test_a_weapon_without_a_range_is_not_checked_and_the_ruling_not_consulted():
    t = run(shoot_doc(8, None))
    assert "range_unit" not in t.to_text() and not any("Range" in s.title for s in t.steps)


@settings(max_examples=30, deadline=None)
@given(q=st.integers(1, 8), rng=st.integers(0, 3))
def test_property_the_attack_is_made_exactly_when_the_areas_between_are_within_range(q, rng):
    areas = q // 3                                     # Marine in Area A; A | B | C, three hexes each
    try:
        t = run(shoot_doc(q, rng))
    except RuleViolation as e:
        assert areas > rng and "beyond" in e.reason
        return
    assert areas <= rng and t.result.aliens[0].wounds == 1


def test_an_npc_beyond_its_weapons_range_does_not_attack():
    d = shoot_doc(8, None)
    d["npcs"] = [{"name": "Rock", "controller": "Marine", "at": "1,0",
                  "rules": [{"condition": "within", "areas": 3, "action": "attack"}],
                  "weapon": {"name": "Pistol", "dice": {"red": 1}, "range": 1}}]
    d["turns"] = [{"agent": "Marine", "activities": [{"kind": "activate_npc", "npc": "Rock"}]}]
    t = run(d)
    skip = [s for s in t.steps if s.title == "Rock cannot attack Xeno: beyond Pistol's Range"]
    assert skip and skip[0].rule == S.NPC_COMBAT and t.result.aliens[0].wounds == 0
    d["npcs"][0]["weapon"]["range"] = 2
    t = run(d)
    assert any(s.title == "Xeno is within Pistol's Range" for s in t.steps)
