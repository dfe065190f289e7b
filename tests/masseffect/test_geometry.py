"""Mass Effect mission-map geometry: handed cases ME-01/03/04, the rulebook's diagrams, rulings, and properties."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from explorer.errors import ScenarioError
from explorer.hexgrid import DIRECTIONS, Edge, Hex, classify_centres, hex_range, neighbors
from explorer.hexgrid import distance as hex_distance
from explorer.games.masseffect import geometry as G
from explorer.games.masseffect import sections as S
from explorer.games.masseffect.map import (
    EdgeFeature, FeatureKind, Icon, MapIcon, MissionMap, Turret, load_map,
)

O = Hex(0, 0)


def hexagon(radius=4, features=(), **kw) -> MissionMap:
    return MissionMap(frozenset(hex_range(O, radius)), features=tuple(features), **kw)


def feat(a, b, kind, **kw) -> EdgeFeature:
    return EdgeFeature(Edge(Hex(*a), Hex(*b)), FeatureKind(kind), **kw)


# --------------------------------------------------------------------------------------------- handed cases


def test_me01_obstacle_bordering_attacker_is_ignored_variant_blocks():
    """ME-01: Garrus 0,0, Husk 3,0; an Obstacle on 0,0|1,0 -> LoF; on 1,0|2,0 instead -> no LoF."""
    m = hexagon(features=[feat((0, 0), (1, 0), "obstacle")])
    lof = G.line_of_fire(m, O, Hex(3, 0))
    assert lof.in_lof and lof.direction == 0
    assert [c.effect for c in lof.crossings] == ["ignored", "clear", "clear"]
    assert lof.crossings[0].feature == "obstacle"
    m2 = hexagon(features=[feat((1, 0), (2, 0), "obstacle")])
    lof2 = G.line_of_fire(m2, O, Hex(3, 0))
    assert not lof2.in_lof
    assert [c.effect for c in lof2.crossings] == ["clear", "blocks", "clear"]
    assert "does not border" in lof2.reason


def test_me03_wall_breaks_adjacency_distance_two_never_adjacent():
    """ME-03: Garrus 0,0, Husk 1,0, a wall on 0,0|1,0: not adjacent, distance 2 (e.g. via 1,-1); moving to -1,0 Garrus
    was never adjacent to the Husk (so no Opportunity Attack can be provoked)."""
    m = hexagon(features=[feat((0, 0), (1, 0), "wall")])
    adj = G.adjacent(m, O, Hex(1, 0))
    assert not adj and adj.feature == "wall" and adj.rule == S.ADJACENCY
    d = G.distance(m, O, Hex(1, 0))
    assert d.value == 2 and len(d.route) == 3 and d.route[1] in (Hex(1, -1), Hex(0, 1))
    # the geometric fact for Opportunity Attacks: adjacent neither before nor after the move
    assert not G.adjacent(m, O, Hex(1, 0)) and not G.adjacent(m, Hex(-1, 0), Hex(1, 0))
    assert Hex(1, 0) not in G.adjacent_hexes(m, O)


def test_me04_wall_on_the_line_distance_four_not_within_three_no_lof():
    m = hexagon(features=[feat((1, 0), (2, 0), "wall")])
    d = G.distance(m, O, Hex(3, 0))
    assert d.value == 4 and d.hex_distance == 3
    assert not G.within(m, O, Hex(3, 0), 3)
    assert G.within(m, O, Hex(3, 0), 3, ignore_walls=True)
    assert G.distance(m, O, Hex(3, 0), ignore_walls=True).value == 3
    lof = G.line_of_fire(m, O, Hex(3, 0))
    assert not lof and lof.blockers[0].feature == "wall" and lof.blockers[0].step == 2


# ------------------------------------------------------------------------------------------------ diagrams


def test_diagram_1_adjacency():
    m = load_map("diagram-1")
    got = {n: bool(G.adjacent(m, O, n)) for n in neighbors(O)}
    assert sorted(n for n, v in got.items() if v) == sorted([Hex(1, 0), Hex(1, -1), Hex(-1, 1), Hex(0, 1)])
    assert G.adjacent(m, O, Hex(1, 0)).feature == "obstacle"
    assert G.adjacent(m, O, Hex(0, -1)).feature == "wall"
    assert G.adjacent(m, O, Hex(-1, 0)).feature == "locked door"


def test_diagram_2_distances():
    m = load_map("diagram-2")
    assert G.distance(m, O, Hex(3, 0)).value == 4
    assert G.distance(m, O, Hex(3, 0), ignore_walls=True).value == 3
    assert not G.within(m, O, Hex(3, 0), 3) and G.within(m, O, Hex(3, 0), 3, ignore_walls=True)


def test_diagram_3_six_lines():
    m = load_map("diagram-3")
    lines = G.straight_lines(m, O)
    assert [len(ln.hexes) for ln in lines] == [3] * 6
    assert G.lof_targets(m, O) == frozenset(h for ln in lines for h in ln.hexes)
    assert len(G.lof_all(m, O).targets) == 18


DIAGRAM_4 = {1: ((2, 0), True), 5: ((4, 0), True), 6: ((-2, 2), True), 7: ((0, 2), True),
             2: ((2, -2), False), 3: ((1, -2), False), 4: ((-3, 0), False)}


@pytest.mark.parametrize("husk", sorted(DIAGRAM_4))
def test_diagram_4_husks(husk):
    m = load_map("diagram-4")
    h, expected = DIAGRAM_4[husk]
    lof = G.line_of_fire(m, O, Hex(*h))
    assert lof.in_lof is expected
    if husk == 2:
        assert lof.blockers[0].feature == "obstacle" and lof.blockers[0].step > 1
    if husk == 3:
        assert lof.direction is None
    if husk == 4:
        assert lof.blockers[0].feature == "wall"
    if husk in (1, 5):
        assert lof.crossings[0].effect == "ignored" and lof.crossings[0].feature == "obstacle"


def test_diagram_9_elevation():
    m = load_map("diagram-9")
    hi, lo, lo_far = Hex(0, -1), Hex(0, 0), Hex(0, 2)
    assert m.is_high(hi) and not m.is_high(lo)
    assert G.adjacent(m, hi, lo) and G.adjacent(m, hi, lo).feature == "elevation change"
    assert G.can_step(m, hi, lo) and not G.can_step(m, lo, hi)
    assert G.line_of_fire(m, hi, lo) and G.line_of_fire(m, lo, hi)        # adjacent: elevation does not matter
    lof = G.line_of_fire(m, hi, lo_far)
    assert not lof and lof.rule == S.ELEVATION_CHANGE and not lof.blockers
    assert not G.line_of_fire(m, lo_far, hi)
    assert G.line_of_fire(m, lo, lo_far)                                   # same elevation
    # distance: adjacency (default) vs movement reading
    assert G.distance(m, Hex(0, 0), Hex(0, -2)).value == 2
    d = G.distance(m, Hex(0, 0), Hex(0, -2), rulings={"distance_elevation": "movement"})
    assert d.value is None and d.rulings == {"distance_elevation": "movement"}
    assert G.distance(m, Hex(0, -2), Hex(0, 0), rulings={"distance_elevation": "movement"}).value == 2


def test_diagram_10_concussive_shot_targets():
    m = load_map("diagram-10")
    h1, h2 = Hex(2, 0), Hex(-3, 3)
    assert G.distance(m, O, h1).value == 2 and G.distance(m, O, h2).value == 3
    assert G.line_of_fire(m, O, h1) and G.line_of_fire(m, O, h2)


# ---------------------------------------------------------------------------------------------- LoF details


def test_wall_bordering_attacker_hex_blocks_and_door_or_obstacle_there_is_ignored():
    for kind, kw, expected in (("wall", {}, False), ("obstacle", {}, True), ("door", {"locked": False}, True),
                               ("door", {"locked": True}, True)):
        m = hexagon(features=[feat((0, 0), (1, 0), kind, **kw)])
        assert bool(G.line_of_fire(m, O, Hex(2, 0))) is expected, kind
    m = hexagon(features=[feat((0, 0), (1, 0), "door", locked=True)])
    lof = G.line_of_fire(m, O, Hex(2, 0), rulings={"lof_own_hex_locked_door": "blocks"})
    assert not lof and lof.rulings["lof_own_hex_locked_door"] == "blocks"
    # an unlocked door further along blocks, as does a locked one
    for locked in (False, True):
        m = hexagon(features=[feat((1, 0), (2, 0), "door", locked=locked)])
        assert not G.line_of_fire(m, O, Hex(3, 0))


def test_obstacle_bordering_only_the_target_blocks_so_lof_is_not_always_symmetric():
    m = hexagon(features=[feat((1, 0), (2, 0), "obstacle")])
    assert not G.line_of_fire(m, O, Hex(2, 0))
    assert G.line_of_fire(m, Hex(2, 0), O)


def test_straight_lines_never_graze_a_side_or_corner():
    """'Directly between' on a straight line: the line from centre to centre crosses each side it meets at its
    midpoint; it never runs along a side nor touches a corner, so no grazing rule is needed."""
    for d, v in enumerate(DIRECTIONS):
        for k in range(1, 5):
            c = classify_centres(O, v * k)
            assert not c.edges_along and not c.corners_touched
            assert c.edges_crossed == tuple(Edge(v * (i - 1), v * i) for i in range(1, k + 1))


def test_out_of_bounds_gap_on_the_line():
    hexes = frozenset(hex_range(O, 3)) - {Hex(2, 0)}
    m = MissionMap(hexes)
    lof = G.line_of_fire(m, O, Hex(3, 0))
    assert not lof and lof.blockers[0].feature == "out of bounds"
    assert G.line_of_fire(m, O, Hex(3, 0), rulings={"lof_out_of_bounds": "ignored"})
    assert Hex(3, 0) not in G.lof_targets(m, O)
    assert Hex(3, 0) in G.lof_targets(m, O, rulings={"lof_out_of_bounds": "ignored"})
    assert G.distance(m, O, Hex(3, 0)).value == 4


def test_intervening_elevation_ruling():
    # two Low Ground ends with a High Ground strip (the row r = 0) between them
    strip = frozenset(h for h in hex_range(O, 3) if h.r == 0)
    feats = []
    for h in strip:
        for n in neighbors(h):
            if n in hex_range(O, 3) and n not in strip:
                feats.append(EdgeFeature(Edge(h, n), FeatureKind.ELEVATION, high=h))
    m2 = MissionMap(frozenset(hex_range(O, 3)), features=tuple(feats), high_ground=strip)
    p, q = Hex(0, -2), Hex(0, 2)
    assert G.line_of_fire(m2, p, q)
    lof = G.line_of_fire(m2, p, q, rulings={"lof_intervening_elevation": "blocks"})
    assert not lof and "another elevation" in lof.reason
    assert q not in G.lof_targets(m2, p, rulings={"lof_intervening_elevation": "blocks"})
    assert q in G.lof_targets(m2, p)


def test_turret_line_of_fire():
    m = hexagon(3, turrets=(Turret(Hex(2, 0), 3),), features=[feat((2, 0), (1, 0), "obstacle")])
    t = Hex(2, 0)
    assert G.turret_line_of_fire(m, t, t)                 # own hex included
    assert G.turret_line_of_fire(m, t, Hex(-1, 0))        # obstacle on its own side ignored (default)
    assert not G.turret_line_of_fire(m, t, Hex(-1, 0), rulings={"turret_own_hex_exemption": "none"})
    assert not G.turret_line_of_fire(m, t, Hex(3, 0))     # one direction only
    assert not G.turret_line_of_fire(m, t, Hex(1, 1))
    assert G.turret_targets(m, t) == {Hex(2, 0), Hex(1, 0), Hex(0, 0), Hex(-1, 0), Hex(-2, 0), Hex(-3, 0)}
    off = m.with_turret(t, active=False)
    assert not G.turret_line_of_fire(off, t, t) and G.turret_targets(off, t) == frozenset()
    assert G.turret_line_of_fire(off, t, Hex(0, 0), sabotaged=True)
    with pytest.raises(ScenarioError, match="no Turret"):
        G.turret_line_of_fire(m, O, O)


def test_out_of_bounds_hex_raises_one_line():
    m = hexagon(2)
    with pytest.raises(ScenarioError, match=r"hex 5,0 is not on the map \(Out of Bounds\)"):
        G.line_of_fire(m, O, Hex(5, 0))


def test_movement_graph_and_fast_travel():
    m = MissionMap(frozenset(hex_range(O, 3)), icons=((Hex(-3, 0), (MapIcon(Icon.FAST_TRAVEL, "A"),)),
                                                      (Hex(3, 0), (MapIcon(Icon.FAST_TRAVEL, "A"),))),
                   features=(feat((0, 0), (1, 0), "wall"), feat((0, 1), (0, 0), "door", locked=True)))
    g = G.movement_graph(m)
    assert not g.has_edge(O, Hex(1, 0)) and not g.has_edge(O, Hex(0, 1)) and g.has_edge(O, Hex(-1, 0))
    gf = G.movement_graph(m, fast_travel=True)
    assert gf.has_edge(Hex(-3, 0), Hex(3, 0)) and gf.edges[Hex(-3, 0), Hex(3, 0)]["fast_travel"]
    opened = m.with_door(Edge(O, Hex(0, 1)), locked=False)
    assert G.adjacent(opened, O, Hex(0, 1)) and not G.adjacent(m, O, Hex(0, 1))


def test_shrouded_areas():
    from explorer.games.masseffect.map import Area
    west = frozenset(h for h in hex_range(O, 2) if h.q < 0)
    east = frozenset(hex_range(O, 2)) - west
    feats = []
    for h in west:
        for n in neighbors(h):
            if n in east:
                feats.append(EdgeFeature(Edge(h, n), FeatureKind.WALL))
    door = Edge(Hex(-1, 0), O)
    feats = [f for f in feats if f.edge != door] + [EdgeFeature(door, FeatureKind.DOOR, locked=False)]
    m = MissionMap(frozenset(hex_range(O, 2)), features=tuple(feats), areas=(Area("west", west), Area("east", east)))
    assert G.initial_shrouded(m, [Hex(-1, 0)]) == {"east"}
    m = m.with_shrouded(["east"])
    assert m.is_shrouded(O) and not m.is_shrouded(Hex(-1, 0))
    assert G.areas_revealed(m, Hex(-1, 0)) == {"east"}
    assert G.areas_revealed(m, Hex(-2, 0)) == frozenset()


# ------------------------------------------------------------------------------------------------ properties


@st.composite
def random_maps(draw, radius=4, holes=True):
    """A hexagonal map with random holes, walls, doors, obstacles, and a High Ground blob with icons/walls around it."""
    all_hexes = hex_range(O, radius)
    hexes = set(all_hexes)
    if holes:
        for h in draw(st.lists(st.sampled_from(all_hexes), max_size=6)):
            hexes.discard(h)
    if not hexes:
        hexes = {O}
    high = set(draw(st.lists(st.sampled_from(sorted(hexes)), max_size=8)))
    feats: dict[Edge, EdgeFeature] = {}
    inner = sorted({Edge(h, n) for h in hexes for n in neighbors(h) if n in hexes})
    for h in high:
        for n in neighbors(h):
            if n in hexes and n not in high:
                e = Edge(h, n)
                kind = draw(st.sampled_from(["elevation", "elevation", "wall"]))
                feats[e] = EdgeFeature(e, FeatureKind(kind), high=h if kind == "elevation" else None)
    if inner:
        for e in draw(st.lists(st.sampled_from(inner), max_size=14)):
            if e in feats:
                continue
            kind = draw(st.sampled_from(["wall", "door", "obstacle"]))
            feats[e] = EdgeFeature(e, FeatureKind(kind), locked=draw(st.booleans()) if kind == "door" else False)
    return MissionMap(frozenset(hexes), features=tuple(feats.values()), high_ground=frozenset(high))


PROP = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@PROP
@given(random_maps())
def test_distance_at_least_hex_distance_and_adjacency_symmetric(m):
    hs = sorted(m.hexes)
    for a in hs[::4]:
        dm = G.distance_map(m, a)
        for b, d in dm.items():
            assert d >= hex_distance(a, b)
        for b in hs:
            assert bool(G.adjacent(m, a, b)) == bool(G.adjacent(m, b, a))
            res = G.distance(m, a, b)
            dd = res.value
            assert dd == dm.get(b)
            if dd is not None:
                r = res.route
                assert len(r) == dd + 1 and all(G.adjacent(m, x, y) for x, y in zip(r, r[1:]))


@PROP
@given(random_maps(holes=False))
def test_distance_ignoring_walls_is_hex_distance_without_holes(m):
    for a in sorted(m.hexes)[::5]:
        for b in m.hexes:
            assert G.distance(m, a, b, ignore_walls=True).value == hex_distance(a, b)


def _exempt_borders(m, h):
    return any((f := m.feature(Edge(h, n))) is not None and f.kind in (FeatureKind.OBSTACLE, FeatureKind.DOOR)
               for n in neighbors(h) if n in m.hexes)


@PROP
@given(random_maps(radius=3))
def test_lof_symmetric_when_no_obstacle_or_door_borders_either_hex(m):
    hs = [h for h in sorted(m.hexes) if not _exempt_borders(m, h)]
    for a in hs:
        for b in hs:
            assert bool(G.line_of_fire(m, a, b)) == bool(G.line_of_fire(m, b, a)), (a, b)


@PROP
@given(random_maps(radius=3), st.sampled_from([{}, {"lof_out_of_bounds": "ignored"},
                                                {"lof_own_hex_locked_door": "blocks"},
                                                {"lof_intervening_elevation": "blocks"}]))
def test_lof_map_agrees_with_pairwise_line_of_fire(m, rul):
    lm = G.lof_map(m, rulings=rul)
    for a in m.hexes:
        expected = frozenset(b for b in m.hexes if G.line_of_fire(m, a, b, rulings=rul))
        assert lm[a] == expected, a


@PROP
@given(random_maps(radius=3), st.integers(0, 5), st.sampled_from([None, "q", "r", "s"]))
def test_rotating_or_reflecting_a_map_preserves_every_verdict(m, steps, axis):
    from explorer.hexgrid import reflect, rotate
    t = m.transformed(steps, axis)

    def th(h):
        return rotate(reflect(h, axis) if axis else h, steps)

    hs = sorted(m.hexes)
    for a in hs[::2]:
        for b in hs:
            assert bool(G.adjacent(m, a, b)) == bool(G.adjacent(t, th(a), th(b)))
            assert G.distance(m, a, b).value == G.distance(t, th(a), th(b)).value
            assert bool(G.line_of_fire(m, a, b)) == bool(G.line_of_fire(t, th(a), th(b)))
            assert bool(G.can_step(m, a, b) if hex_distance(a, b) == 1 else False) == \
                bool(G.can_step(t, th(a), th(b)) if hex_distance(a, b) == 1 else False)


def test_transformed_turret_keeps_its_line():
    m = hexagon(3, turrets=(Turret(Hex(2, -1), 4),))
    for steps in range(6):
        for axis in (None, "q", "r", "s"):
            from explorer.hexgrid import reflect, rotate
            t = m.transformed(steps, axis)
            th = lambda h: rotate(reflect(h, axis) if axis else h, steps)  # noqa: E731
            assert G.turret_targets(t, th(Hex(2, -1))) == {th(h) for h in G.turret_targets(m, Hex(2, -1))}
