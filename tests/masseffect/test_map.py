"""Mission maps: loading the [map] format, built-in maps, one-line errors for malformed maps, round trips."""

from __future__ import annotations

import pytest

from explorer.errors import ScenarioError
from explorer.hexgrid import Edge, Hex
from explorer.games.masseffect import geometry as G
from explorer.games.masseffect.map import (
    DEFAULT_MAP, FeatureKind, Icon, MissionMap, available_maps, check_placements, load_map, load_map_toml,
    map_from_dict,
)


def load(text: str) -> MissionMap:
    return load_map_toml("bad.toml", text=text)


BASE = '[map]\nshape = { kind = "hexagon", radius = 2 }\n'


def test_builtin_maps_load_and_round_trip():
    assert {"diagram-1", "diagram-2", "diagram-3", "diagram-4", "diagram-9", "diagram-10", DEFAULT_MAP} <= set(
        available_maps())
    for name in available_maps():
        m = load_map(name)
        assert load_map(name) is m                     # cached: geometry caches are shared
        assert "reconstruction" in m.note or "our own design" in m.note
        again = load_map_toml("rt.toml", text=m.to_toml())
        assert again == m and hash(again) == hash(m)


def test_demo_map_is_mission_sized_with_every_feature():
    m = load_map(DEFAULT_MAP)
    assert 150 <= len(m) <= 300
    kinds = {f.kind for f in m.features}
    assert kinds == set(FeatureKind)
    assert any(f.kind == FeatureKind.DOOR and f.locked for f in m.features)
    assert any(f.kind == FeatureKind.DOOR and not f.locked for f in m.features)
    for icon in (Icon.SPAWN, Icon.ELITE_SPAWN, Icon.START, Icon.INFERNO, Icon.COOLANT_LEAK, Icon.FAST_TRAVEL,
                 Icon.TURRET, Icon.TERMINAL, Icon.OBJECTIVE, Icon.LOOT):
        assert m.hexes_with(icon), icon
    assert len(m.areas) >= 3 and m.turrets and m.high_ground
    start = m.hexes_with(Icon.START)
    assert G.initial_shrouded(m, start) == {a.name for a in m.areas if a.shrouded}
    ft = m.hexes_with(Icon.FAST_TRAVEL, "A")
    assert m.fast_travel_partner(ft[0]) == ft[1]


def test_full_format_parses():
    m = load(BASE + '''orientation = "flat"
hexes = ["3,0"]
out_of_bounds = ["-2,0"]
high_ground = ["1,0"]
[map.icons]
"0,0" = ["start:garrus", "loot"]
"2,0" = ["fast_travel:A"]
"0,2" = ["fast_travel:A"]
[[map.edges]]
edge = "0,0|1,0"
kind = "elevation"
high = "1,0"
[[map.edges]]
edge = "1,0|1,-1"
kind = "wall"
[[map.edges]]
edge = "1,0|2,-1"
kind = "wall"
[[map.edges]]
edge = "1,0|2,0"
kind = "wall"
[[map.edges]]
edge = "1,0|0,1"
kind = "elevation"
high = "1,0"
[[map.edges]]
edge = "-1,0|0,0"
kind = "door"
locked = true
[[map.edges]]
edge = "0,1|-1,1"
kind = "obstacle"
[[map.edges]]
edge = "1,0|1,1"
kind = "wall"
[[map.turrets]]
hex = "-1,1"
facing = "N"
''')
    assert Hex(3, 0) in m and Hex(-2, 0) not in m and len(m) == 19
    assert m.turrets[0].facing == 2 and m.orientation == "flat"
    assert m.feature(Edge(Hex(-1, 0), Hex(0, 0))).locked
    assert m.has_icon(Hex(-1, 1), "turret")
    assert [str(i) for i in m.icons_at(Hex(0, 0))] == ["start:garrus", "loot"] or \
        {str(i) for i in m.icons_at(Hex(0, 0))} == {"start:garrus", "loot"}


BAD = [
    # (snippet appended to BASE, expected message fragment)
    ('[[map.edges]]\nedge = "0,0|2,0"\nkind = "wall"\n',
     "field 'map.edges[0].edge': hexes 0,0 and 2,0 are not neighbours (hex distance 2)"),
    ('[[map.edges]]\nedge = "2,0|3,0"\nkind = "wall"\n',
     "field 'map.edges[0].edge': a wall on the outer edge 2,0|3,0 (hex 3,0 is Out of Bounds)"),
    ('[[map.edges]]\nedge = "2,0|3,0"\nkind = "door"\nlocked = false\n',
     "a door on the outer edge 2,0|3,0"),
    ('[[map.edges]]\nedge = "3,0|4,0"\nkind = "obstacle"\n', "obstacle on edge 3,0|4,0: hex 3,0 is not on the map"),
    ('[map.icons]\n"5,0" = ["loot"]\n', "an icon on hex 5,0, which is not on the map (Out of Bounds)"),
    ('[map.icons]\n"0,0" = ["laser"]\n', "field 'map.icons.\"0,0\"[0]': unknown icon 'laser' (allowed: one of spawn"),
    ('[map.icons]\n"0,0" = ["fast_travel:A"]\n', "Fast Travel icon fast_travel:A is on 1 hex"),
    ('[map.icons]\n"0,0" = ["turret"]\n', "a turret icon on hex 0,0 without a Turret there"),
    ('hexes = ["100,0"]\n', "field 'map.hexes[0]': coordinate out of bounds: 100,0 (allowed: |q| and |r| <= 99)"),
    ('hexes = ["a,b"]\n', "not a hex key: 'a,b'"),
    ('[[map.edges]]\nedge = "0,0|1,0"\nkind = "door"\n', "field 'map.edges[0].locked': a door needs its state"),
    ('[[map.edges]]\nedge = "0,0|1,0"\nkind = "wall"\nlocked = true\n', "only doors are locked or unlocked"),
    ('[[map.edges]]\nedge = "0,0|1,0"\nkind = "wall"\n[[map.edges]]\nedge = "1,0|0,0"\nkind = "obstacle"\n',
     "edge 0,0|1,0 already has a feature (map.edges[0])"),
    ('[[map.edges]]\nedge = "0,0|1,0"\nkind = "elevation"\nhigh = "0,0"\n',
     "elevation change 0,0|1,0 says 0,0 is High Ground and 1,0 Low Ground, but high_ground lists neither"),
    ('[[map.edges]]\nedge = "0,0|1,0"\nkind = "elevation"\nhigh = "2,0"\n', "hex 2,0 is not on edge 0,0|1,0"),
    ('high_ground = ["0,0"]\n', "High Ground hex 0,0 borders Low Ground hex 1,0 without an Elevation Change icon"),
    ('[[map.edges]]\nedge = "0,0|1,0"\nkind = "bridge"\n', "field 'map.edges[0].kind'"),
    ('[[map.turrets]]\nhex = "0,0"\nfacing = "UP"\n',
     "field 'map.turrets[0].facing': unknown direction 'UP' (allowed: 0..5 or one of E, NE, NW, W, SW, SE)"),
    ('[[map.turrets]]\nhex = "9,0"\nfacing = 0\n', "a Turret on hex 9,0, which is not on the map"),
    ('[[map.areas]]\nname = "a"\nhexes = ["0,0"]\n[[map.areas]]\nname = "b"\nhexes = ["1,0"]\n',
     "areas 'a' and 'b' share the border 0,0|1,0 with no wall or door"),
    ('[[map.areas]]\nname = "a"\nhexes = ["0,0"]\n[[map.areas]]\nname = "a"\nhexes = ["2,0"]\n',
     "area 'a' is defined twice"),
    ('colour = "red"\n', "field 'map.colour': unknown field"),
]


@pytest.mark.parametrize("snippet,fragment", BAD, ids=[b[1][:40] for b in BAD])
def test_malformed_maps_give_one_line_errors(snippet, fragment):
    with pytest.raises(ScenarioError) as e:
        load(BASE + snippet)
    msg = str(e.value)
    assert "\n" not in msg
    assert msg.startswith("bad.toml: ")
    assert fragment in msg, msg


def test_map_needs_hexes_and_a_map_table():
    with pytest.raises(ScenarioError, match="the map has no hexes"):
        load('[map]\nname = "x"\n')
    with pytest.raises(ScenarioError, match=r"field 'map': is required"):
        load('[other]\nx = 1\n')
    with pytest.raises(ScenarioError, match="is required for a hexagon"):
        load('[map]\nshape = { kind = "hexagon" }\n')
    with pytest.raises(ScenarioError, match=r"40 is too large \(allowed: 0 to 28\)"):
        load('[map]\nshape = { kind = "hexagon", radius = 40 }\n')
    with pytest.raises(ScenarioError, match="unknown built-in map 'nowhere'"):
        load_map("nowhere")


def test_map_from_dict_is_the_same_gate():
    m = map_from_dict({"shape": {"kind": "rectangle", "width": 3, "height": 2}})
    assert sorted(m.hexes) == sorted([Hex(0, 0), Hex(1, 0), Hex(2, 0), Hex(0, 1), Hex(1, 1), Hex(2, 1)])


def test_check_placements_errors():
    m = load(BASE)
    check_placements(m, [("Garrus", Hex(0, 0)), ("Husk", Hex(1, 0))])
    with pytest.raises(ScenarioError, match=r"field 'characters\[1\].hex': two characters on hex 0,0 \(Garrus and "
                                            r"Husk\)"):
        check_placements(m, [("Garrus", Hex(0, 0)), ("Husk", Hex(0, 0))])
    with pytest.raises(ScenarioError, match=r"Husk is on hex 7,0, which is not on the map \(Out of Bounds\)"):
        check_placements(m, [("Husk", Hex(7, 0))])
    with pytest.raises(ScenarioError, match="a second character named 'Husk'"):
        check_placements(m, [("Husk", Hex(0, 0)), ("Husk", Hex(1, 0))])


def test_changes_return_new_maps():
    m = load_map("diagram-1")
    door = Edge(Hex(-1, 0), Hex(0, 0))
    open_ = m.with_door(door, locked=False)
    assert m.feature(door).locked and not open_.feature(door).locked
    assert open_ != m
    with pytest.raises(ValueError, match="no door"):
        m.with_door(Edge(Hex(0, 0), Hex(0, 1)), locked=False)


def test_static_svg_draws_features_icons_and_lof():
    import xml.etree.ElementTree as ET
    m = load_map("diagram-4")
    svg = m._repr_svg_()
    ET.fromstring(svg)
    assert svg.count('data-kind="wall"') == 3 and svg.count('data-kind="obstacle"') == 2
    from explorer.games.masseffect.map_svg import render_map
    svg = render_map(m, characters={"Garrus": (Hex(0, 0), "squadmate"), "Husk 4": (Hex(-3, 0), "enemy")},
                     lof_from=Hex(0, 0), distance_from=Hex(0, 0))
    ET.fromstring(svg)
    assert "blocked: walls always block" in svg and "Garrus (squadmate) on 0,0" in svg
    assert "distance 4" in svg
