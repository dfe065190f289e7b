"""Scenario kind "map": built-in scenarios reproduce the rulebook and the handed cases; errors; rulings; JSON."""

from __future__ import annotations

import json

import pytest

from explorer.errors import ScenarioError
from explorer.scenario import read_toml
from explorer.games.masseffect import sections as S
from explorer.games.masseffect.queries import (
    load_map_query, map_query_names, parse_map_query, resolve_map_query,
)


def answers(name, **kw):
    t = resolve_map_query(load_map_query(name), **kw)
    return t, t.outcome["answers"]


def test_builtin_map_scenarios_are_listed():
    assert {"me-01", "me-03-geometry", "me-04", "me-diagram-1", "me-diagram-2", "me-diagram-3", "me-diagram-4",
            "me-diagram-9", "me-diagram-10"} <= set(map_query_names())


def test_me01_and_its_variant():
    t, a = answers("me-01")
    assert [x["in_lof"] for x in a] == [True, False]
    assert a[1]["edit"]["add"][0]["edge"] == "1,0|2,0"
    assert all(s.rule == S.LINE_OF_FIRE for s in t.steps)
    assert t.steps[0].facts["crossings"][0]["effect"] == "ignored"


def test_me03():
    t, a = answers("me-03-geometry")
    assert a[0]["adjacent"] is False and a[1]["distance"] == 2
    assert a[2]["allowed"] is True and a[3]["adjacent"] is False      # never adjacent: before nor after the move
    assert t.steps[0].rule == S.ADJACENCY and t.steps[1].rule == S.COUNTING_DISTANCES


def test_me04():
    t, a = answers("me-04")
    assert a[0]["distance"] == 4
    assert a[1]["within"] is False and a[2]["within"] is True and a[2]["distance"] == 3
    assert a[3]["in_lof"] is False
    assert t.steps[3].facts["crossings"][1]["feature"] == "wall"


def test_diagram_1():
    _, a = answers("me-diagram-1")
    assert {x["b"]: x["adjacent"] for x in a} == {"1,0": True, "1,-1": True, "0,-1": False, "-1,0": False,
                                                  "-1,1": True, "0,1": True}


def test_diagram_2():
    _, a = answers("me-diagram-2")
    assert [x.get("distance") for x in a] == [4, 3, 4, 3]
    assert [a[2]["within"], a[3]["within"]] == [False, True]


def test_diagram_3():
    _, a = answers("me-diagram-3")
    assert len(a[0]["targets"]) == 18


def test_diagram_4():
    t, a = answers("me-diagram-4")
    assert {x["b"]: x["in_lof"] for x in a} == {"Husk 1": True, "Husk 2": False, "Husk 3": False, "Husk 4": False,
                                                "Husk 5": True, "Husk 6": True, "Husk 7": True}
    assert t.steps[4].facts["intervening"] == ["Husk 1"]
    assert t.steps[5].facts["intervening"] == ["Shepard"]
    assert "intervening characters are ignored" in t.steps[5].detail


def test_diagram_9():
    t, a = answers("me-diagram-9")
    assert a[0]["adjacent"] is True
    assert [a[1]["allowed"], a[2]["allowed"], a[3]["allowed"]] == [True, True, False]
    assert [a[4]["in_lof"], a[5]["in_lof"], a[6]["in_lof"]] == [True, False, True]
    assert t.steps[5].rule == S.ELEVATION_CHANGE
    assert a[7]["distance"] == 3
    _, b = answers("me-diagram-9", rulings={"distance_elevation": "movement"})
    assert b[7]["distance"] is None              # from Low Ground the route cannot climb the icon


def test_diagram_10_concussive_shot():
    _, a = answers("me-diagram-10")
    assert [a[0]["in_lof"], a[1]["at_least"], a[1]["distance"]] == [True, False, 2]
    assert [a[2]["in_lof"], a[3]["at_least"], a[3]["distance"]] == [True, True, 3]


@pytest.mark.parametrize("name", ["me-01", "me-03-geometry", "me-04", "me-diagram-1", "me-diagram-2", "me-diagram-3",
                                  "me-diagram-4", "me-diagram-9", "me-diagram-10"])
def test_every_step_cites_a_section_and_outcome_is_json(name):
    t, _ = answers(name)
    assert t.steps and all(s.rule.game == "Mass Effect" and s.rule.section for s in t.steps)
    json.dumps(t.to_dict())


def test_scenario_rulings_then_argument_override():
    text = load_text("me-01") + '\n'
    data = read_toml("x.toml", text=text)
    data["rulings"] = {"lof_out_of_bounds": "ignored"}
    q = parse_map_query(data, "x.toml")
    t = resolve_map_query(q)
    assert t.rulings["lof_out_of_bounds"] == "ignored"
    t = resolve_map_query(q, rulings={"lof_out_of_bounds": "blocks"})
    assert t.rulings["lof_out_of_bounds"] == "blocks"


def load_text(name):
    from importlib import resources
    return (resources.files("explorer.games.masseffect") / "scenarios" / f"{name}.toml").read_text(encoding="utf-8")


HEAD = 'game = "masseffect"\nkind = "map"\ntitle = "t"\nmap = "diagram-3"\n'
CHARS = '[[characters]]\nname = "Garrus"\nside = "squadmate"\nhex = "0,0"\n'


@pytest.mark.parametrize("body,fragment", [
    (CHARS + '[[characters]]\nname = "Husk"\nside = "enemy"\nhex = "0,0"\n'
             '[[questions]]\nask = "lof_all"\na = "Garrus"\n',
     "field 'characters[1].hex': two characters on hex 0,0 (Garrus and Husk)"),
    (CHARS.replace('"0,0"', '"9,9"') + '[[questions]]\nask = "lof_all"\na = "9,9"\n',
     "Garrus is on hex 9,9, which is not on the map (Out of Bounds)"),
    (CHARS + '[[questions]]\nask = "lof"\na = "Garrus"\nb = "Wrex"\n',
     "field 'questions[0].b': no character named 'Wrex' (allowed: a hex 'q,r' or one of 'Garrus')"),
    (CHARS + '[[questions]]\nask = "within"\na = "Garrus"\nb = "1,0"\n', "field 'questions[0].n': is required"),
    (CHARS + '[[questions]]\nask = "shoot"\na = "Garrus"\n', "field 'questions[0].ask'"),
    (CHARS + '[[questions]]\nask = "turret_lof"\nturret = "0,0"\nb = "1,0"\n', "there is no Turret on hex 0,0"),
    (CHARS + '[[questions]]\nask = "lof"\na = "Garrus"\nb = "1,0"\n'
             'edit = { add = [{ edge = "3,0|4,0", kind = "wall" }] }\n', "a wall on the outer edge 3,0|4,0"),
    (CHARS, "field 'questions': is required"),
    ('[rulings]\nlof_out_of_bounds = "maybe"\n' + CHARS + '[[questions]]\nask = "lof_all"\na = "Garrus"\n',
     "unknown reading 'maybe'"),
])
def test_bad_scenarios_one_line(body, fragment):
    data = read_toml("bad.toml", text=HEAD + body)
    with pytest.raises(ScenarioError) as e:
        parse_map_query(data, "bad.toml")
    assert fragment in str(e.value) and "\n" not in str(e.value)


def test_inline_map_errors_carry_the_map_path():
    text = ('game = "masseffect"\nkind = "map"\ntitle = "t"\n[map]\nshape = { kind = "hexagon", radius = 1 }\n'
            '[[map.edges]]\nedge = "0,0|1,1"\nkind = "wall"\n[[questions]]\nask = "lof_all"\na = "0,0"\n')
    with pytest.raises(ScenarioError, match=r"bad.toml: field 'map.edges\[0\].edge': hexes 0,0 and 1,1 are not "
                                            "neighbours"):
        parse_map_query(read_toml("bad.toml", text=text), "bad.toml")


def test_unknown_builtin_map_name():
    with pytest.raises(ScenarioError, match="unknown built-in map 'atlantis'"):
        parse_map_query(read_toml("x", text=HEAD.replace("diagram-3", "atlantis") + CHARS
                                  + '[[questions]]\nask = "lof_all"\na = "Garrus"\n'), "x")
