"""Boards: cells, tiles, Special Terrain, areas, edge features, movement graph, scenario files and validation."""

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from shapely.geometry import Point

from explorer.board import (
    SAND, TILELESS, Board, Cell, EdgeFeature, EdgeKind, Scenery, Special, Terrain, available_boards, fixture_board,
    load_board, small_board,
)
from explorer.errors import ScenarioError
from explorer.hexgrid import ORIGIN, Edge, Hex, distance, hex_range, neighbors, ring


def board_toml(cells: str, extra: str = "") -> str:
    return f'[board]\nname = "t"\n[board.cells]\n{cells}\n{extra}'


# --------------------------------------------------------------------------------------------------- cells

def test_cell_rules():
    assert Cell(Terrain.ROCKY).passable
    assert not Cell(Terrain.ROCKY, special=Special.IMPASSABLE).passable
    assert Cell(Terrain.ROCKY, special=Special.DIFFICULT).passable
    assert not TILELESS.passable and TILELESS.terrain is None
    assert Cell("sand").terrain is Terrain.SAND
    with pytest.raises(ValueError, match="needs a terrain"):
        Cell()
    with pytest.raises(ValueError, match="no terrain"):
        Cell(Terrain.SAND, tile=False)
    with pytest.raises(ValueError, match="needs a tile"):
        Cell(None, tile=False, special=Special.DIFFICULT)


def test_builders_sizes():
    assert len(Board.hexagon(3)) == 37
    assert len(Board.hexagon(0)) == 1
    r = Board.rectangle(20, 16)
    assert len(r) == 320 and Hex(0, 0) in r
    f = Board.rectangle(7, 5, orientation="flat")
    assert len(f) == 35 and f.layout.orientation == "flat"
    # rectangles are rectangles on screen: every row (pointy) spans the same x range
    xs = {}
    for h in r:
        x, y = r.layout.hex_to_pixel(h)
        xs.setdefault(round(y, 6), []).append(x)
    spans = {(round(min(v), 3), round(max(v), 3)) for v in xs.values()}
    assert len(spans) == 2  # even rows and odd rows (shifted by half a hex)
    with pytest.raises(ScenarioError, match="positive size"):
        Board.rectangle(0, 3)
    b = Board.hexagon(2, lambda h: TILELESS if h == ORIGIN else SAND)
    assert b.tileless == {ORIGIN} and len(b.tiles) == 18


def test_mapping_interface():
    b = small_board()
    assert Hex(0, 0) in b and Hex(9, 9) not in b
    assert b[Hex(1, 0)].special is Special.IMPASSABLE
    assert list(b) == sorted(b) and len(b) == 19
    with pytest.raises(KeyError):
        b[Hex(9, 9)]
    with pytest.raises(TypeError):
        b.cells[Hex(0, 0)] = SAND  # type: ignore[index]
    assert b.areas == {"pit": frozenset({Hex(-2, 0), Hex(-2, 1), Hex(-1, 0)})}
    assert b.with_special(Special.DIFFICULT) == {Hex(-1, 1)}


# ----------------------------------------------------------------------------------------------- movement

def test_movement_respects_tiles_impassable_and_walls():
    b = small_board()
    # (0,0) and (2,-1) have no tile, (1,0) is Impassable, a wall sits between (0,1) and (1,1)
    assert not b.can_step(Hex(0, 1), Hex(0, 0))
    assert not b.can_step(Hex(1, -1), Hex(1, 0))
    assert not b.can_step(Hex(0, 1), Hex(1, 1)) and not b.can_step(Hex(1, 1), Hex(0, 1))
    assert b.can_step(Hex(-1, 2), Hex(0, 2))  # open door
    assert b.can_step(Hex(0, 1), Hex(-1, 1))  # Difficult Terrain can be entered
    assert not b.can_step(Hex(0, 1), Hex(0, 3))  # not adjacent / off board
    # (1,1) is then reached around the wall through (0,2), (1,2)? (1,2) is off board: only via (2,0)
    p = b.path(Hex(0, 1), Hex(1, 1))
    assert p is not None and p[0] == Hex(0, 1) and p[-1] == Hex(1, 1)
    assert all(b.can_step(x, y) for x, y in zip(p, p[1:]))
    assert b.move_distance(Hex(0, 1), Hex(1, 1)) == len(p) - 1 > distance(Hex(0, 1), Hex(1, 1))
    assert b.path(Hex(0, 1), Hex(0, 0)) is None  # no tile: Miners cannot enter
    g = b.graph()
    assert Hex(0, 0) not in g and Hex(1, 0) not in g and b.graph() is g


def test_megabeast_graph_and_interior_spaces():
    """MegaBeast › Deployment and Movement Type: it moves through hexagons without tile; Interior deployment needs a
    tile-less hexagon surrounded by at least four tiles."""
    b = small_board()
    mb = lambda h, c: not c.tile  # noqa: E731
    assert set(b.graph(mb).nodes) == {Hex(0, 0), Hex(2, -1)}
    assert b.path(Hex(0, 0), Hex(2, -1), mb) is None  # not adjacent, no tile-less route
    # (0,0): 6 tile neighbours (one Impassable: still a tile); (2,-1) is on the rim with exactly 4 tile neighbours
    assert b.tileless_surrounded(4) == {Hex(0, 0), Hex(2, -1)}
    assert b.tileless_surrounded(5) == {Hex(0, 0)}
    assert not b.replace_cells({Hex(2, 0): None}).tileless_surrounded(4) - {Hex(0, 0)}
    assert b.closest(Hex(2, 0), b.tileless) == [Hex(2, -1)]
    assert b.closest(Hex(1, -1), b.tileless) == [Hex(0, 0), Hex(2, -1)]  # a tie: both are returned
    assert b.closest(Hex(1, -1), []) == []


def test_range_in_hexagons():
    b = Board.hexagon(4)
    h = Hex(1, -1)
    assert b.within(h, 0) == {h}
    assert b.within(h, 1, 1) == set(ring(h, 1))
    assert len(b.within(h, 1)) == 7 and len(b.within(h, 2)) == 19 and len(b.within(h, 2, 1)) == 18
    edge = Hex(4, 0)
    assert len(b.within(edge, 1)) == 4  # off-board hexes are not counted


# ------------------------------------------------------------------------------------------- areas, geometry

def test_interaction_with_areas():
    """Interaction with Areas and Silhouettes: inside = at least partially inside; totally inside on request;
    merely touching the boundary is outside."""
    b = small_board()
    lay = b.layout
    x, y = lay.hex_to_pixel(Hex(-1, 0))
    assert b.in_area(Point(x, y).buffer(0.3), "pit", totally=True)
    # a base centred on the pit's outer edge towards (0,-1): partially inside only
    ex, ey = [(p + q) / 2 for p, q in zip(*lay.edge_points(Hex(-1, 0), 1))]
    base = Point(ex, ey).buffer(0.3)
    assert b.in_area(base, "pit") and not b.in_area(base, "pit", totally=True)
    # a base tangent to that edge from outside is not inside
    cx, cy = lay.hex_to_pixel(Hex(0, -1))
    import math
    dx, dy = ex - cx, ey - cy
    d = math.hypot(dx, dy)
    r = d  # touches the edge midpoint from (0,-1)'s centre
    assert not b.in_area(Point(cx, cy).buffer(r - 1e-9), "pit")
    assert b.hexes_overlapping(base) == {Hex(-1, 0), Hex(0, -1)}
    assert b.hexes_overlapping(Point(x, y).buffer(0.3), totally=True) == {Hex(-1, 0)}
    with pytest.raises(ScenarioError, match="unknown area 'nope'.*'pit'"):
        b.in_area(base, "nope")
    assert b.in_area(base, [Hex(0, -1)])


def test_regions():
    b = small_board()
    assert abs(b.tileless_region.area - 2 * b.hex_shape(ORIGIN).area) < 1e-9
    assert b.region([]).is_empty
    two = b.region([Hex(0, 0), Hex(1, 0)])
    assert two.geom_type == "Polygon" and abs(two.area - 2 * b.hex_shape(ORIGIN).area) < 1e-9


def test_hex_shape_matches_layout():
    b = Board.hexagon(1)
    s = b.hex_shape(Hex(1, 0))
    assert abs(s.area - 3 * 3 ** 0.5 / 2) < 1e-9
    assert s.contains(Point(*b.layout.hex_to_pixel(Hex(1, 0))))


# --------------------------------------------------------------------------------------------- symmetries

@settings(max_examples=30, deadline=None)
@given(st.integers(-5, 5), st.sampled_from([None, "q", "r", "s"]))
def test_transformed_board_preserves_movement_and_areas(k, axis):
    from explorer.hexgrid import reflect, rotate
    b = small_board()
    t = b.transformed(k, axis)
    th = lambda h: rotate(reflect(h, axis) if axis else h, k)  # noqa: E731
    assert {th(h) for h in b} == set(t)
    for h in b:
        assert t[th(h)] == b[h]
    for a in b:
        for n in neighbors(a):
            assert t.can_step(th(a), th(n)) == b.can_step(a, n)
    assert t.move_distance(th(Hex(0, 1)), th(Hex(1, 1))) == b.move_distance(Hex(0, 1), Hex(1, 1))
    assert t.tileless_surrounded() == {th(h) for h in b.tileless_surrounded()}
    # scenery moves with the board: the hexes it overlaps are the transformed ones
    assert t.hexes_overlapping(t.scenery[0].shape) == {th(h) for h in b.hexes_overlapping(b.scenery[0].shape)}
    assert t.scenery[0].shape.is_valid


def test_six_rotations_come_back():
    b = small_board()
    t = b
    for _ in range(6):
        t = t.rotated(1, Hex(1, -1))
    assert dict(t.cells) == dict(b.cells) and dict(t.edge_features) == dict(b.edge_features)
    for p, q in zip(t.scenery[0].polygon, b.scenery[0].polygon):
        assert abs(p[0] - q[0]) < 1e-9 and abs(p[1] - q[1]) < 1e-9
    assert t.rotated(1) != b


# ---------------------------------------------------------------------------------------- scenario format

def test_round_trip_dict_and_toml():
    for b in (small_board(), fixture_board(), Board.rectangle(5, 4, orientation="flat")):
        assert Board.from_dict(b.to_dict()) == b
        assert Board.from_toml("mem.toml", text=b.to_toml()) == b


def test_packaged_boards():
    assert {"fixture", "small"} <= set(available_boards())
    f = load_board("fixture")
    assert f == fixture_board()  # the packaged file is what the generator makes
    assert load_board("small") == small_board()
    assert len(f) >= 300 and f.tileless and f.scenery and f.edge_features
    assert f.tileless_surrounded(4) and f.with_special(Special.IMPASSABLE) and f.with_special(Special.DIFFICULT)
    with pytest.raises(ScenarioError, match="unknown packaged board 'nope'.*'fixture'"):
        load_board("nope")


def test_edge_features_defaults_and_file():
    b = Board.from_toml("t.toml", text=board_toml('"0,0" = { terrain = "sand" }\n"1,0" = { terrain = "sand" }\n'
                                                   '"0,1" = { terrain = "sand" }',
                                                   '[[board.edges]]\nedge = "1,0|0,0"\nkind = "door"\n'
                                                   '[[board.edges]]\nedge = "0,0|0,1"\nkind = "obstacle"\n'
                                                   'blocks_lof = true\n'))
    door = b.feature(Edge(Hex(0, 0), Hex(1, 0)))
    assert door is not None and door.kind is EdgeKind.DOOR and door.blocks_movement and door.blocks_lof
    obs = b.feature(Edge(Hex(0, 1), Hex(0, 0)))
    assert obs is not None and obs.blocks_movement and obs.blocks_lof
    assert EdgeFeature(Edge(ORIGIN, Hex(1, 0)), EdgeKind.OBSTACLE).blocks_lof is False
    assert EdgeFeature(Edge(ORIGIN, Hex(1, 0)), "door", open=True).blocks_movement is False
    assert Board.from_dict(b.to_dict()) == b


@pytest.mark.parametrize("cells, extra, field, match", [
    ('"0,0" = { terrain = "lava" }', "", 'board.cells."0,0".terrain', "'vegetation'.*'sand'.*'excavation'.*'rocky'"),
    ('"0,0" = { terrain = "sand", special = "slippery" }', "", 'board.cells."0,0".special', "'impassable'"),
    ('"0,0" = { terrain = "sand", colour = "red" }', "", 'board.cells."0,0".colour', "'terrain'.*'elevation'"),
    ('"a,b" = { terrain = "sand" }', "", 'board.cells."a,b"', "'q,r' with whole numbers"),
    ('"1" = { terrain = "sand" }', "", 'board.cells."1"', "'q,r'"),
    ('"1.5,0" = { terrain = "lava" }', "", 'board.cells."1.5,0"', "not a hex key"),
    ('"0,0" = { terrain = "sand" }\n"0, 0" = { terrain = "rocky" }', "", 'board.cells."0, 0"',
     "duplicate cell.*'0,0' and '0, 0'.*hex 0,0"),
    ('"0,0" = { tile = false, terrain = "sand" }', "", 'board.cells."0,0".terrain', "no terrain"),
    ('"0,0" = { }', "", 'board.cells."0,0".terrain', "required for a tile.*'vegetation'"),
    ('"0,0" = { tile = false, special = "difficult" }', "", 'board.cells."0,0".special', "needs a tile"),
    ('"0,0" = { terrain = "sand", elevation = 1.5 }', "", 'board.cells."0,0".elevation', "whole number"),
    ('"0,0" = { terrain = "sand" }', '[[board.scenery]]\nname = "x"\npolygon = [[0,0],[2,2],[2,0],[0,2]]',
     "board.scenery[0].polygon", "Self-intersection.*simple polygon"),
    ('"0,0" = { terrain = "sand" }', '[[board.scenery]]\nname = "x"\npolygon = [[0,0],[1,1],[2,2]]',
     "board.scenery[0].polygon", "Self-intersection|no area"),
    ('"0,0" = { terrain = "sand" }', '[[board.scenery]]\nname = "x"\npolygon = [[0,0],[1,1]]',
     "board.scenery[0].polygon", "at least 3"),
    ('"0,0" = { terrain = "sand" }', '[[board.scenery]]\nname = "x"\npolygon = [[0,0],[1,0],[0,1]]\nheight = -1',
     "board.scenery[0].height", r"-1 is too small \(allowed: 0 to 4000\)"),
    ('"0,0" = { terrain = "sand" }', '[[board.edges]]\nedge = "0,0|2,0"', "board.edges[0].edge", "not adjacent"),
    ('"0,0" = { terrain = "sand" }', '[[board.edges]]\nedge = "0,0"', "board.edges[0].edge", "q1,r1|q2,r2"),
    ('"0,0" = { terrain = "sand" }', '[[board.edges]]\nedge = "0,0|1,0"\nkind = "fence"',
     "board.edges[0].kind", "'wall'.*'door'.*'barrier'"),
    ('"0,0" = { terrain = "sand" }', '[[board.edges]]\nedge = "5,5|6,5"', "board.edges[0].edge", "off the board"),
    ('"0,0" = { terrain = "sand" }', '[[board.edges]]\nedge = "0,0|1,0"\nopen = true', "board.edges[0].open",
     "only a door"),
    ('"0,0" = { terrain = "sand" }', '[[board.edges]]\nedge = "0,0|1,0"\n[[board.edges]]\nedge = "1,0|0,0"',
     "board.edges[1].edge", "second feature"),
])
def test_validation_errors_name_field_and_allowed(cells, extra, field, match):
    with pytest.raises(ScenarioError) as ei:
        Board.from_toml("bad.toml", text=board_toml(cells, extra))
    e = ei.value
    assert e.field == field, str(e)
    assert e.source == "bad.toml"
    import re
    assert re.search(match, str(e)), str(e)


def test_validation_whole_document():
    with pytest.raises(ScenarioError, match="board.*required"):
        Board.from_toml("x.toml", text="[other]\na = 1\n")
    with pytest.raises(ScenarioError, match="orientation.*'pointy'.*'flat'"):
        Board.from_toml("x.toml", text='[board]\norientation = "round"\n[board.cells]\n"0,0" = {terrain="sand"}\n')
    with pytest.raises(ScenarioError, match="board.cells.*at least one hex.*board.shape"):
        Board.from_toml("x.toml", text='[board]\n[board.cells]\n')
    with pytest.raises(ScenarioError, match="must be a table"):
        Board.from_dict([1, 2])  # type: ignore[arg-type]
    with pytest.raises(ScenarioError, match="not valid TOML"):
        Board.from_toml("x.toml", text="[board\n")


def test_shape_shorthand_and_overrides():
    text = ('[board]\nshape = { kind = "hexagon", radius = 2, center = "1,1" }\nterrain = "rocky"\n'
            '[board.cells]\n"1,1" = "tileless"\n"2,1" = "vegetation"\n"5,5" = { terrain = "sand", area = "far" }\n')
    b = Board.from_toml("s.toml", text=text)
    assert len(b) == 20 and b[Hex(1, 1)] == TILELESS and b[Hex(2, 1)] == Cell(Terrain.VEGETATION)
    assert b[Hex(0, 1)] == Cell(Terrain.ROCKY) and b.areas == {"far": frozenset({Hex(5, 5)})}
    assert Board.from_dict(b.to_dict()) == b
    r = Board.from_toml("r.toml", text='[board]\norientation = "flat"\nshape = { kind = "rectangle", width = 4, '
                        'height = 3 }\n')
    assert r == Board.rectangle(4, 3, SAND, orientation="flat", name="")


@pytest.mark.parametrize("text, field, match", [
    ('[board]\nshape = { kind = "hexagon" }', "board.shape.radius", "required for a hexagon"),
    ('[board]\nshape = { kind = "rectangle", width = 3 }', "board.shape.height", "required for a rectangle"),
    ('[board]\nshape = { kind = "circle", radius = 3 }', "board.shape.kind", "'hexagon' or 'rectangle'"),
    ('[board]\nshape = { kind = "hexagon", radius = 3, centre = "0,0" }', "board.shape.centre",
     "'kind'.*'radius'.*'center'"),
    ('[board]\nshape = { kind = "hexagon", radius = 3, center = "x" }', "board.shape.center", "q,r"),
    ('[board]\nshape = { kind = "hexagon", radius = -1 }', "board.shape.radius", r"-1 is too small \(allowed: 0 to 57\)"),
    ('[board]\nterrain = "mud"\nshape = { kind = "hexagon", radius = 1 }', "board.terrain", "'vegetation'"),
    ('[board]\n[board.cells]\n"0,0" = "lava"', 'board.cells."0,0"', "unknown terrain.*'rocky'.*'tileless'"),
])
def test_shape_errors(text, field, match):
    import re
    with pytest.raises(ScenarioError) as ei:
        Board.from_toml("s.toml", text=text)
    assert ei.value.field == field, str(ei.value)
    assert re.search(match, str(ei.value)), str(ei.value)


def test_python_api_validation():
    with pytest.raises(ScenarioError, match="Self-intersection"):
        Board({ORIGIN: SAND}, [Scenery("x", ((0, 0), (2, 2), (2, 0), (0, 2)))])


def test_replace_cells():
    b = small_board()
    c = b.replace_cells({Hex(0, 0): Cell(Terrain.SAND), Hex(2, 0): None})
    assert c[Hex(0, 0)].tile and Hex(2, 0) not in c and len(c) == 18 and len(b) == 19
    assert replace(b[Hex(1, 1)], area="x").area == "x"


def test_fixture_generator_is_deterministic_and_sized():
    a, b = fixture_board(), fixture_board()
    assert a == b
    big = fixture_board(40, 30, seed=3)
    assert len(big) == 1200 and big.tileless


def test_hex_range_matches_board_hexagon():
    assert set(Board.hexagon(3, center=Hex(2, 2))) == set(hex_range(Hex(2, 2), 3))


cells_strategy = st.dictionaries(
    st.builds(Hex, st.integers(-6, 6), st.integers(-6, 6)),
    st.one_of(
        st.just(TILELESS),
        st.builds(Cell, st.sampled_from(list(Terrain)), st.just(True), st.sampled_from([None, *Special]),
                  st.sampled_from([None, "a", "b c", 'q"uote']), st.integers(-3, 3)),
    ),
    min_size=1, max_size=40)


@settings(max_examples=60, deadline=None)
@given(cells_strategy, st.sampled_from(["pointy", "flat"]), st.data())
def test_random_boards_round_trip_through_toml(cells, orientation, data):
    hexes = sorted(cells)
    feats = {}
    for h in data.draw(st.lists(st.sampled_from(hexes), max_size=4)):
        n = neighbors(h)[data.draw(st.integers(0, 5))]
        e = Edge(h, n)
        kind = data.draw(st.sampled_from(list(EdgeKind)))
        feats[e] = EdgeFeature(e, kind, open=kind == EdgeKind.DOOR and data.draw(st.booleans()),
                               blocks_lof=data.draw(st.sampled_from([None, True, False])))
    b = Board(cells, [Scenery("s", ((0.0, 0.0), (1.5, 0.25), (0.5, 1.0)), data.draw(st.sampled_from([None, 2.5])))],
              feats.values(), orientation, "random")
    again = Board.from_toml("rt.toml", text=b.to_toml())
    assert again == b
    assert dict(again.cells) == dict(b.cells) and dict(again.edge_features) == dict(b.edge_features)
