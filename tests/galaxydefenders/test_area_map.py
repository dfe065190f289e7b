"""Explosion and Area damage with a [map]: each target's Area relation computed from its hexes (8.4, 11.8), a
multi-hex alien reached once however many of its base hexes are in reached Areas (issue 21, item 3)."""

from __future__ import annotations

import copy
import tomllib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_hostile_files import to_toml

from explorer.errors import ScenarioError
from explorer.games import get_game, load_any

from .helpers import resolve

GAME = get_game("galaxydefenders")


def _doc() -> dict:
    return tomllib.loads(GAME.scenario_text("gd-explosion-map"))


def _run(doc: dict):
    game, sc = load_any("x.toml", text=to_toml(doc))
    return game.resolve(sc)


def _reached(trace) -> list[str]:
    return [t.name for t in trace.result.attacks[0].results]


def test_explosion_reaches_the_targeted_area_and_the_walkable_adjacent_ones_only():
    tr = resolve("gd-explosion-map")
    assert _reached(tr) == ["Xeno-Gamma", "Wormoon", "Digger"]      # not the Sentinel (Barrier), not Area E
    step = next(s for s in tr.steps if s.title.startswith("Areas from the map"))
    assert step.rule.section == "8.4 Explosion" and step.facts["targeted_area"] == "B"
    assert step.facts["relations"]["Sentinel"] == ["adjacent", False]
    assert step.facts["relations"]["Flying Critter"] == ["other", True]
    once = [s for s in tr.steps if "applies once" in s.title]
    assert [s.rule.section for s in once] == ["11.8 Multi-hex Aliens"] and "Wormoon" in once[0].title


def test_area_damage_stays_in_the_targeted_area():
    doc = _doc()
    doc["attacks"][0]["damage"] = "area"
    assert _reached(_run(doc)) == ["Xeno-Gamma", "Wormoon"]


def test_a_multi_hex_alien_with_only_its_rear_hex_in_the_area_is_hit_once():
    doc = _doc()
    doc["targets"][1].update(at="4,1", base="3,1")                    # face in C, rear hex in B
    tr = _run(doc)
    assert _reached(tr).count("Wormoon") == 1
    assert tr.result.target("Wormoon").wounds == 3                    # 3 hits once, not 6


def test_a_barrier_parts_areas_for_the_explosion_but_a_wall_removed_joins_them():
    doc = _doc()
    doc["map"]["edges"] = [e for e in doc["map"]["edges"] if "2,2" not in e["edge"] and "1,2" not in e["edge"]
                           and "3,2" not in e["edge"]]
    doc["attacks"][0]["rolled"]["defend"]["Sentinel"] = ["blank"] * 3
    assert "Sentinel" in _reached(_run(doc))


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(["0,0", "0,1", "1,1", "5,0", "5,1", "7,1", "1,2", "3,2", "4,0", "6,1"]),
       st.sampled_from(["area", "explosion"]))
def test_a_target_is_reached_at_most_once_and_only_when_its_area_allows(hex_key, damage):
    doc = _doc()
    doc["targets"][2]["at"] = hex_key                                  # move the Digger
    doc["attacks"][0]["damage"] = damage
    doc["attacks"][0]["rolled"] = None
    doc["attacks"][0].pop("rolled")
    doc["seed"] = 1
    tr = _run(doc)
    names = _reached(tr)
    assert len(names) == len(set(names))
    rel = next(s for s in tr.steps if s.title.startswith("Areas from the map")).facts["relations"]["Digger"]
    expected = rel[0] in ("target", "same") or (damage == "explosion" and rel == ["adjacent", True])
    assert ("Digger" in names) == expected


@pytest.mark.parametrize("path,value,field,allowed", [
    (("targets", 0, "at"), "50,50", "targets[0].at", "a hex of an Area"),
    (("targets", 1, "base"), "0,0", "targets[1].base", "adjacent to 'at'"),
    (("targets", 2, "at"), "2,0", "targets[2].at", "one figure per hex"),
    (("targets", 0, "area"), "same", "targets[0].area", "omit area"),
    (("map", "areas", "A"), ["0,0", "5,5"], "map.areas.A", "hexes joined by adjacency"),
    (("map", "edges"), [{"edge": "0,0|3,0"}], "map.edges[0].edge", "adjacent"),
])
def test_map_fields_out_of_bounds_name_the_file_and_field(path, value, field, allowed):
    doc = copy.deepcopy(_doc())
    cur = doc
    for k in path[:-1]:
        cur = cur[k]
    cur[path[-1]] = value
    with pytest.raises(ScenarioError) as e:
        load_any("bad.toml", text=to_toml(doc))
    msg = str(e.value)
    assert "\n" not in msg and msg.startswith("bad.toml: field '" + field), msg
    assert allowed in (e.value.allowed or ""), msg


def test_a_hex_without_a_map_is_refused():
    doc = tomllib.loads(GAME.scenario_text("gd-04"))
    doc["targets"][0]["at"] = "0,0"
    with pytest.raises(ScenarioError) as e:
        load_any("bad.toml", text=to_toml(doc))
    assert e.value.field == "targets[0].at" and "[map]" in e.value.allowed
