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


def test_the_built_in_counted_in_areas_an_attack_rule_beyond_range_passes_to_the_next_rule():
    t = resolve("gd-round-range")
    titles = [s.title for s in t.steps]
    assert "Xeno is within Rifle's Range" in titles
    assert "Within 1 Area: spit: applies" in titles     # the Xeno's Spit (Range 1) reaches 1 Area
    skip = next(s for s in t.steps if s.title == "Within 2 Areas: spit: does not apply")
    assert skip.rule == S.WEAPON_RANGE == S.AGENT_COMBAT and "2 Areas" in skip.detail and "(11.11)" in skip.detail
    nxt = titles.index("Within 2 Areas: spit: does not apply") + 1
    assert titles[nxt] == "Within 2 Areas: move 1 Area and spit: applies"
    assert "Marine is within Acid Spit's Range" in titles
    marine, = t.result.agents
    assert marine.wounds == 2                          # the Xeno's 1 wound and the Stalker's 1


def test_the_built_in_counted_in_hexes_plays_too_and_an_attack_after_a_move_can_fall_short():
    t = resolve("gd-round-range", range_unit="hexes")   # newcomer #6: the Marine's shot was refused here
    titles = [s.title for s in t.steps]
    assert "Xeno is within Rifle's Range" in titles
    assert "Within 1 Area: spit: does not apply" in titles
    assert "Within 1 Area: move adjacent and spit: applies" in titles
    short = next(s for s in t.steps if s.title == "Stalker cannot attack Marine: beyond Acid Spit's Range")
    assert short.rule == S.WEAPON_RANGE and "3 Hexes" in short.detail
    marine, = t.result.agents
    assert marine.wounds == 1                          # the Xeno's only
    assert "range_unit = hexes" in t.to_text()


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


def test_an_npc_attack_rule_beyond_its_weapons_range_passes_to_its_next_rule():
    d = shoot_doc(8, None)
    d["npcs"] = [{"name": "Rock", "controller": "Marine", "at": "1,0",
                  "rules": [{"condition": "within", "areas": 3, "action": "attack", "label": "Within 3: shoot"},
                            {"condition": "within", "areas": 3, "action": "move_toward", "label": "Within 3: close"}],
                  "weapon": {"name": "Pistol", "dice": {"red": 1}, "range": 1}}]
    d["turns"] = [{"agent": "Marine", "activities": [{"kind": "activate_npc", "npc": "Rock"}]}]
    t = run(d)
    skip = next(s for s in t.steps if s.title == "Within 3: shoot: does not apply")
    assert skip.rule == S.WEAPON_RANGE and "(10.2.1)" in skip.detail and "Beyond Pistol's Range" in skip.detail
    assert any(s.title == "Within 3: close: applies" for s in t.steps) and t.result.aliens[0].wounds == 0
    d["npcs"][0]["weapon"]["range"] = 2
    t = run(d)
    assert any(s.title == "Within 3: shoot: applies" and "within Pistol's Range" in s.detail for s in t.steps)
    assert t.result.aliens[0].wounds == 1


def ai_doc(rng: int | None, q: int = 6) -> dict:
    act = {"name": "Xeno", "at": f"{q},0"} | ({} if rng is None else {"weapon": "Spit", "range": rng})
    return {"game": "galaxydefenders", "kind": "activation", "areas": ROW, "activating": act,
            "figures": [{"name": "Marine", "side": "agent", "at": "0,0"}],
            "rules": [{"condition": "within", "areas": 2, "action": "attack", "label": "Within 2: spit"},
                      {"condition": "within", "areas": 2, "action": "move_adjacent", "label": "Within 2: close"}]}


@settings(max_examples=25, deadline=None)
@given(q=st.integers(1, 8), rng=st.integers(0, 3), unit=st.sampled_from(["areas", "hexes"]))
def test_property_the_activation_kind_attacks_exactly_when_within_range_else_applies_the_next_rule(q, rng, unit):
    t = run(ai_doc(rng, q), range_unit=unit)
    d = q // 3 if unit == "areas" else q
    assert (t.result.action == "attack") == (d <= rng)
    if d > rng:
        assert t.result.rule == 1 and any(s.rule == S.WEAPON_RANGE and s.title == "Within 2: spit: does not apply"
                                          for s in t.steps)


def test_the_activation_kind_without_a_range_attacks_and_does_not_consult_range_unit():
    t = run(ai_doc(None))
    assert t.result.action == "attack" and "range_unit" not in t.to_text()
    assert "range_unit = areas" in run(ai_doc(1)).to_text()
