"""Multi-hex aliens on the round's map (11.8): the two-hex base occupies both hexes, is attacked when one base hex
is in line of sight, is reached once by Area Damage, is read by an NPC by the base hex it sees, and walks with the
rest of its base placed next to its face hex; the map picture draws the base."""

from __future__ import annotations

import copy
import tomllib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_hostile_files import to_toml

from explorer.errors import RuleViolation, ScenarioError
from explorer.games import get_game, load_any
from explorer.games.galaxydefenders import sections as S
from explorer.games.galaxydefenders.round_map import Placed
from explorer.hexgrid import Hex, distance

from .helpers import resolve

G = get_game("galaxydefenders")


def doc() -> dict:
    return tomllib.loads(G.scenario_text("gd-round-multi-hex"))


def run(d, **rulings):
    game, sc = load_any("r.toml", text=to_toml(d))
    return game.resolve(sc, rulings=rulings)


def test_the_built_in_attacked_through_its_base_hit_once_and_walking_with_its_base():
    t = resolve("gd-round-multi-hex")
    titles = [s.title for s in t.steps]
    # the Marine sees 5,2 but not the face 5,1 (behind Blocking Hex 4,1): one base hex is enough
    see = next(s for s in t.steps if s.title.startswith("Marine can attack Crimson Nightmare"))
    assert see.rule == S.MULTI_HEX
    # Area Damage: the Nightmare, both hexes in Area B, defends once
    marine = [s for s in t.steps if s.section == "Agent turn 1: Marine: Defence: Crimson Nightmare"]
    assert sum(1 for s in marine if "rolls" in s.title) == 2        # Sgt. Rock's shot, then the grenade: one each
    assert "Sgt. Rock reads Crimson Nightmare by 5,2, a base hex in its line of sight" in titles
    o = t.outcome
    assert o["positions"]["Crimson Nightmare"] == "2,1" and o["bases"] == {"Crimson Nightmare": "1,1"}
    assert o["aliens"]["Crimson Nightmare"]["wounds"] == 3 and o["agents"]["Marine"]["wounds"] == 2


def test_no_line_of_sight_to_either_base_hex_is_refused():
    d = doc()
    d["aliens"][0]["base"] = "5,0"
    d["npcs"] = []
    d["turns"][0]["activities"] = d["turns"][0]["activities"][1:]
    d["agents"][0]["at"] = "2,2"                 # 2,2 sees neither 5,1 nor 5,0 past Blocking Hex 4,1
    d["turns"][0]["activities"][0]["rolled"]["defend"].pop("Xeno", None)
    with pytest.raises(RuleViolation) as e:
        run(d)
    assert "neither hex of its base" in e.value.reason and e.value.rejection.field.endswith("activities[0].target")


def test_the_rest_of_the_base_is_occupied():
    d = doc()
    d["npcs"] = []
    d["turns"][0]["activities"] = [{"kind": "move", "to": "5,2"}]
    d["turns"][0].pop("close_encounter")
    with pytest.raises(RuleViolation) as e:
        run(d)
    assert "occupied by Crimson Nightmare" in e.value.reason


@pytest.mark.parametrize("base, field", [("0,0", "aliens[0].base"), ("4,1", "aliens[0].base"),
                                         ("3,0", "aliens[0].base")])
def test_a_bad_base_is_refused_naming_the_field(base, field):
    d = doc()
    if base == "3,0":
        d["aliens"][0]["at"] = "4,0"                     # adjacent, but the Xeno stands there
    d["aliens"][0]["base"] = base                        # 0,0: not adjacent; 4,1: a Blocking Hex
    with pytest.raises(ScenarioError) as e:
        run(d)
    assert e.value.field == field


def test_the_picture_draws_the_two_hex_base():
    from explorer.games.galaxydefenders.round import round_frames
    from explorer.games.galaxydefenders.round_map import map_of
    from explorer.games.galaxydefenders.round_picture import map_svg, positions_from, sheets_html
    from explorer.options import Rulings  # noqa: F401

    _k, sc = G.load_builtin("gd-round-multi-hex")
    from explorer.games.galaxydefenders.options import rulings as make
    pos = positions_from(round_frames(sc, make({})))
    svg = map_svg(map_of(sc), pos[0])
    assert "Crimson Nightmare: two-hex base 5,1 + 5,2" in svg and "rest of its base on 5,2" in svg
    assert "5,1 + 5,2" in sheets_html(pos[0]) and "two-hex base (11.8)" in sheets_html(pos[0])
    assert "2,1 + 1,1" in sheets_html(pos[-1])


OPEN = [f"{q},{r}" for q in range(9) for r in range(3) if (q, r) != (4, 1)]


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(OPEN), st.integers(0, 5))
def test_property_after_its_activation_the_base_is_whole_and_alone(face, k):
    f = Hex.parse(face)
    nb = [h for h in (Hex(f.q + dq, f.r + dr) for dq, dr in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)))
          if f"{h.q},{h.r}" in OPEN]
    b = nb[k % len(nb)]
    d = doc()
    d["npcs"] = []
    d["aliens"] = [d["aliens"][0]]
    d["aliens"][0]["at"], d["aliens"][0]["base"] = face, f"{b.q},{b.r}"
    d["agents"][0]["at"] = "0,1" if face not in ("0,1",) and f"{b.q},{b.r}" != "0,1" else "8,1"
    d["turns"][0]["activities"] = []
    try:
        t = run(d)
    except RuleViolation:
        return
    o = t.outcome
    end, base = Hex.parse(o["positions"]["Crimson Nightmare"]), Hex.parse(o["bases"]["Crimson Nightmare"])
    assert distance(end, base) == 1
    assert Hex.parse(o["positions"]["Marine"]) not in (end, base)
    assert "4,1" not in (o["positions"]["Crimson Nightmare"], o["bases"]["Crimson Nightmare"])


@pytest.mark.parametrize("scenario, path", [("gd-round-multi-hex", ("aliens", 0)), ("gd-ai-multi-hex", ("activating",)),
                                            ("gd-explosion-map", ("targets", 1))])
def test_a_base_on_its_own_face_hex_says_the_base_must_differ_from_at(scenario, path):
    """Every format with a two-hex base (round, activation, combat): ``base`` equal to ``at`` is refused as the face
    hex itself, not as "not adjacent to" itself nor as a figure sharing its own hex."""
    d = tomllib.loads(G.scenario_text(scenario))
    fig = d
    for k in path:
        fig = fig[k]
    fig["base"] = fig["at"]
    with pytest.raises(ScenarioError) as e:
        run(d)
    msg = str(e.value)
    assert e.value.field.endswith("base"), msg
    assert "('at') itself" in msg and "not 'at' itself" in msg, msg
    assert "not adjacent" not in msg and "share hex" not in msg and "already stands" not in msg, msg


def test_every_attack_is_drawn_along_its_line_of_sight_to_the_hex_the_rules_used():
    """The picture draws an attack from the attacker's hex to the target hex the rules read it by: on a multi-hex
    alien, the base hex in line of sight (5,2), never a face hex behind the Blocking Hex 4,1; every line drawn is a
    clear line of sight; the map's key names the Blocking Hex's "I" token."""
    from explorer.games.galaxydefenders.options import rulings as make
    from explorer.games.galaxydefenders.round import round_frames
    from explorer.games.galaxydefenders.round_map import Attacked, map_of
    from explorer.games.galaxydefenders.round_picture import MAP_LEGEND, map_svg, positions_from

    _k, sc = G.load_builtin("gd-round-multi-hex")
    amap = map_of(sc)
    pos = positions_from(round_frames(sc, make({})))
    lines = {}
    for p in pos:
        for n in p.fresh:
            if isinstance(n, Attacked):
                assert n.line is not None, n
                assert amap.line_of_sight(n.line[0], n.line[1], False)[0], n
                lines[(n.attacker, n.target)] = n.line
                assert f"{n.attacker} attacks {n.target} (line of sight {n.line[0]} → {n.line[1]})" in map_svg(amap, p)
    assert lines[("Marine", "Crimson Nightmare")][1] == Hex(5, 2)
    assert lines[("Sgt. Rock", "Crimson Nightmare")][1] == Hex(5, 2)
    step = next(p.step for p in pos if p.step.title.startswith("Marine can attack Crimson Nightmare"))
    assert "5,2, a hex of its two-hex base, is in line of sight" in step.title
    assert "Blocking Hex" in MAP_LEGEND and ">I</span> Blocking Hex" in MAP_LEGEND and "attack" in MAP_LEGEND
