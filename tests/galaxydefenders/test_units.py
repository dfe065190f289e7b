"""Prime Swarm units (11.6) and multi-hex aliens (11.8) in the A.I. activation: which figure or base hex the A.I.
reads, line of sight and adjacency from any of them, and where the second figure / rest of the base ends."""

from __future__ import annotations

import tomllib

import pytest
from hypothesis import given, settings, strategies as st

from explorer.errors import ScenarioError
from explorer.games import get_game, load_any
from explorer.hexgrid import Hex, distance

G = get_game("galaxydefenders")


def doc(name: str) -> dict:
    return tomllib.loads(G.scenario_text(name))


def resolve_doc(d: dict, **r):
    from test_hostile_files import to_toml

    game, sc = load_any("t.toml", text=to_toml(d))
    return game.resolve(sc, rulings=r)


def test_prime_swarm_book_scenario():
    t = G.resolve(G.load_builtin("gd-ai-prime-swarm"))
    o = t.outcome
    assert o["start"] == "4,1"                       # the B figure, closer to the Hulk, leads
    assert distance(Hex.parse(o["end"]), Hex.parse(o["second"])) == 1
    assert any(s.rule.section == "11.6 Prime Swarm Units" and "closer" in s.title for s in t.steps)


def test_multi_hex_book_scenario():
    t = G.resolve(G.load_builtin("gd-ai-multi-hex"))
    o = t.outcome
    end, second = Hex.parse(o["end"]), Hex.parse(o["second"])
    assert distance(end, second) == 1
    assert distance(end, Hex(7, 1)) == 1 and distance(end, Hex(8, 1)) == 1   # engages both agents
    assert second not in (Hex(7, 1), Hex(8, 1))


def test_a_multi_hex_alien_is_adjacent_through_its_rear_hex():
    """11.8: adjacency from any base hex: the face is 2 hexes away, the rest of the base touches the Hulk."""
    d = doc("gd-ai-multi-hex")
    d["activating"].update(at="5,1", base="6,1")
    d["figures"] = [{"name": "Hulk", "side": "agent", "at": "7,1"}]
    o = resolve_doc(d).outcome
    assert o["rule"] == 0 and o["action"] == "attack" and o["end"] == "5,1" and o["second"] == "6,1"


def test_a_prime_swarm_sees_the_target_if_either_figure_does():
    d = doc("gd-ai-prime-swarm")
    d["activating"].update(at="3,1", swarm="6,1")
    d["blocking"] = ["4,1"]                          # blocks 3,1's line to 7,1... the 6,1 figure is adjacent anyway
    o = resolve_doc(d).outcome
    assert o["rule"] == 0 and o["start"] == "6,1"


@pytest.mark.parametrize("patch,field", [
    ({"base": "5,1"}, "activating.base"),            # not adjacent to at = 1,1
    ({"base": "0,1", "swarm": "4,1"}, "activating.swarm"),
    ({"swarm": "7,1"}, "activating.swarm"),          # the Hulk stands there
    ({"kind": "npc", "base": "0,1"}, "activating.base"),
])
def test_bad_units_name_the_field(patch, field):
    d = doc("gd-ai-prime-swarm")
    d["activating"].pop("swarm")
    d["activating"].update(patch)
    with pytest.raises(ScenarioError) as e:
        resolve_doc(d)
    assert e.value.field == field and e.value.source == "t.toml"


MAP = [Hex(q, r) for q in range(0, 9) for r in range(0, 3)]   # Areas A, B, C of the built-in map


@settings(max_examples=40, deadline=None)
@given(lead=st.sampled_from(MAP), other=st.sampled_from(MAP), swarm=st.booleans())
def test_the_second_part_ends_next_to_the_first_whenever_it_moved(lead, other, swarm):
    """Whatever the start, the unit never ends on an occupied hex, and after a move the second figure / base hex is
    adjacent to the first (this map always has a free adjacent hex)."""
    if lead == other or Hex(7, 1) in (lead, other) or (not swarm and distance(lead, other) != 1):
        return
    d = doc("gd-ai-prime-swarm")
    d["activating"].pop("swarm")
    d["activating"].update({"at": f"{lead.q},{lead.r}", ("swarm" if swarm else "base"): f"{other.q},{other.r}"})
    t = resolve_doc(d)
    o = t.outcome
    end, second = Hex.parse(o["end"]), Hex.parse(o["second"])
    assert Hex(7, 1) not in (end, second) and end != second
    if o["path"] and len(o["path"]) > 1:
        assert distance(end, second) == 1
    else:
        assert {end, second} == {lead, other}
