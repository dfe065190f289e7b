"""Line of Fire rules (Line of Fire and Distances › Line of Fire; MegaBeast Line of Fire)."""

import math

import pytest
from shapely.geometry import LineString, Polygon, box

from explorer.errors import ScenarioError
from explorer.games.tagraid.geometry import Disc, Obstacles, find_clear_segment, sampled_clear_segment
from explorer.games.tagraid.lof import TableTop, in_lof, line_of_fire, lof_along_route
from explorer.games.tagraid.pieces import SILHOUETTE_BASE_RADIUS, Model, Scenery, disc_in_arc
from explorer.games.tagraid.options import rulings
from explorer.games.tagraid import sections as S
from explorer.hexgrid import Hex, Layout, hex_range

R = SILHOUETTE_BASE_RADIUS[7]
TOUCH = rulings({"lof_grazing": "touching_blocks"})
NO_TOUCH = rulings({"lof_grazing": "touching_does_not_block"})


def sq(name, x0, y0, x1, y1, height=math.inf):
    return Scenery(name, ((x0, y0), (x1, y0), (x1, y1), (x0, y1)), height)


def duel(*scenery, a_facing=0.0, b_facing=180.0, bx=4.0, by=0.0, **kw):
    return TableTop([Model("a", 0, 0, facing=a_facing), Model("b", bx, by, facing=b_facing)], scenery, **kw)


def assert_clear(table, res, rul=NO_TOUCH):
    """Independent check of a witness: it joins the two bases and enters no obstacle."""
    w = res.witness
    a, b = table.disc(res.shooter), table.disc(res.target)
    assert math.hypot(w.p0[0] - a.x, w.p0[1] - a.y) <= a.r + 1e-7
    assert math.hypot(w.p1[0] - b.x, w.p1[1] - b.y) <= b.r + 1e-7
    obs, _ = table.obstacles(table.model(res.shooter), table.model(res.target), rul)
    line = LineString([w.p0, w.p1])
    for lab, p in obs.polygons:
        assert line.intersection(p.buffer(-1e-7)).is_empty, lab
    for lab, d in obs.discs:
        assert line.distance(Polygon([(d.x, d.y), (d.x, d.y), (d.x, d.y)]).centroid) >= d.r - 1e-7, lab


# ---------------------------------------------------------------------------------------------- basic conditions


def test_open_ground_both_see_each_other():
    t = duel()
    r = line_of_fire(t, "a", "b")
    assert r.has_lof and r.reason == "clear" and r.rule == S.LINE_OF_FIRE
    assert_clear(t, r)
    assert line_of_fire(t, "b", "a").has_lof


def test_wall_between_blocks_and_names_the_piece():
    t = duel(sq("crate", 1.8, -1, 2.2, 1))
    r = line_of_fire(t, "a", "b")
    assert not r.has_lof and r.reason == "blocked"
    assert r.blocked_by == ("scenery:crate",)
    assert all(ray.blocked_by for ray in r.rays) and len(r.rays) == 3


def test_narrow_wall_leaves_an_edge_line():
    t = duel(sq("post", 1.9, -0.1, 2.1, 0.1))
    r = line_of_fire(t, "a", "b")
    assert r.has_lof
    assert_clear(t, r)
    centre = r.rays[0]
    assert centre.blocked_by == ("scenery:post",)


def test_other_models_bases_block():
    wall = TableTop([Model("a", 0, 0), Model("b", 4, 0, facing=180),
                     Model("c", 2, 0, silhouette=9), Model("d", 2, 0.9, silhouette=9), Model("e", 2, -0.9, silhouette=9)])
    r = line_of_fire(wall, "a", "b")
    assert not r.has_lof and "model:c" in r.blocked_by


def test_target_behind_is_outside_arc():
    t = duel(a_facing=180.0)
    r = line_of_fire(t, "a", "b")
    assert not r.has_lof and r.reason == "outside_arc" and not r.in_arc


def test_target_partially_in_arc_counts():
    # b's centre is slightly behind a's arc line, but its base crosses it
    t = TableTop([Model("a", 0, 0, facing=90.0), Model("b", 3, -R / 2, facing=180)])
    assert disc_in_arc((0, 0), 90.0, 180.0, t.disc("b"))
    assert line_of_fire(t, "a", "b").has_lof
    t2 = TableTop([Model("a", 0, 0, facing=90.0), Model("b", 3, -R * 1.5, facing=180)])
    assert line_of_fire(t2, "a", "b").reason == "outside_arc"


def test_declared_move_gives_360():
    t = TableTop([Model("a", 0, 0, facing=180.0, declared_move=True), Model("b", 4, 0, facing=180)])
    assert line_of_fire(t, "a", "b").has_lof
    t2 = TableTop([Model("a", 0, 0, facing=180.0), Model("b", 4, 0, facing=180)])
    assert not line_of_fire(t2, "a", "b").has_lof


def test_lof_along_route_checks_every_point():
    t = TableTop([Model("a", 0, 0, facing=180.0), Model("b", 4, 0, facing=180)], [sq("wall", 1.8, -3, 2.2, 0.5)])
    route = [(0, 0), (0, 1.0), (0.5, 1.0)]
    res = lof_along_route(t, "a", route, "b")
    assert [bool(o) for _, o, _ in res] == [False, True, True]   # b sees the mover once it clears the wall
    assert [bool(m) for _, _, m in res] == [False, True, True]   # 360° along the route


def test_in_lof_view_is_set_like():
    t = TableTop([Model("a", 0, 0), Model("b", 4, 0, facing=180), Model("c", -3, 0, facing=0),
                  Model("d", 3, 3, facing=180), Model("e", 2, -3)], [sq("wall", 2.5, 2, 2.7, 4)])
    v = in_lof(t, "a")
    assert "b" in v and "c" not in v and "d" not in v and "a" not in v and "zzz" not in v
    assert sorted(v) == ["b", "e"] and len(v) == 2


# ---------------------------------------------------------------------------------------------- contact rule


def _engaged_table():
    # r is in Silhouette Contact with two enemy TAGs (e1 front, e2 side); a stands behind r; m is r's friend
    return TableTop([
        Model("r", 0, 0, facing=0, side="red"),
        Model("e1", 2 * R, 0, facing=180, side="blue"),
        Model("e2", 0, 2 * R, facing=270, side="green"),
        Model("a", -3, 0, facing=0, side="yellow"),
        Model("f", 3, 2, facing=180, side="red"),
    ])


def test_contact_gives_360_only_to_touching_enemies():
    t = _engaged_table()
    assert t.in_contact("r", "e1") and t.in_contact("r", "e2")
    r_e2 = line_of_fire(t, "r", "e2")
    assert r_e2.has_lof and r_e2.reason == "silhouette_contact" and r_e2.arc_degrees == 360
    r_a = line_of_fire(t, "r", "a")
    assert not r_a.has_lof and r_a.reason == "engaged"
    assert set(r_a.blocked_by) == {"model:e1", "model:e2"}


def test_tr17_attacker_behind_engaged_target():
    """TR-17: A behind R, R engaged with two enemy TAGs: R has no LoF to A; A can still shoot R."""
    t = _engaged_table()
    assert not line_of_fire(t, "r", "a").has_lof
    a_r = line_of_fire(t, "a", "r")
    assert a_r.has_lof
    assert_clear(t, a_r)


def test_friendly_contact_does_not_restrict():
    t = TableTop([Model("r", 0, 0, side="red"), Model("f", 0, 2 * R, side="red"), Model("b", 4, 0, facing=180)])
    assert t.in_contact("r", "f")
    assert line_of_fire(t, "r", "b").has_lof


def test_contact_with_enemy_forbids_lof_to_the_megabeast():
    t = TableTop([Model("r", 0, 0, side="red"), Model("e", -2 * R, 0, side="blue"),
                  Model("mb", 3, 0, silhouette=10, kind="megabeast", side="megabeast", facing=180)])
    assert line_of_fire(t, "r", "mb").reason == "engaged"


# ---------------------------------------------------------------------------------------------- grazing option


def _pinch():
    # two walls touching at one corner (2, 0): the only lines between a and b pass through that corner
    return duel(sq("A", 1.5, 0, 2, 3), sq("B", 2, -3, 2.5, 0))


def _slide():
    # the only line runs along W's lower edge and along the top edges of U and V
    return duel(sq("W", 1.5, 0, 2.5, 3), sq("U", 1.0, -3, 1.4, 0), sq("V", 2.6, -3, 3.0, 0))


@pytest.mark.parametrize("table", [_pinch, _slide], ids=["corner", "along_edge"])
def test_grazing_reading_decides(table):
    t = table()
    soft = line_of_fire(t, "a", "b", NO_TOUCH)
    hard = line_of_fire(t, "a", "b", TOUCH)
    assert soft.has_lof and soft.rulings["lof_grazing"] == "touching_does_not_block"
    assert not hard.has_lof and hard.rulings["lof_grazing"] == "touching_blocks"


def test_grazing_tangent_to_a_base():
    # blockers above and below; the only line is tangent to base c
    c_r = SILHOUETTE_BASE_RADIUS[5]
    t = TableTop([Model("a", 0, 0), Model("b", 4, 0, facing=180), Model("c", 2, -c_r, silhouette=5)],
                 [sq("roof", 1.0, 0, 3.0, 3)])
    assert line_of_fire(t, "a", "b", NO_TOUCH).has_lof
    assert not line_of_fire(t, "a", "b", TOUCH).has_lof
    # a hair of room makes both readings agree
    t2 = TableTop([Model("a", 0, 0), Model("b", 4, 0, facing=180), Model("c", 2, -c_r - 1e-4, silhouette=5)],
                  [sq("roof", 1.0, 0, 3.0, 3)])
    assert line_of_fire(t2, "a", "b", TOUCH).has_lof


def test_thin_slit_found_exactly_and_missed_by_sampling():
    a, b = Disc(0, 0, R), Disc(4, 0, R)
    obs = Obstacles([("w1", box(1.9, 0.051, 2.1, 3)), ("w2", box(1.9, -3, 2.1, 0.049))])
    exact = find_clear_segment(a, b, obs, touching_blocks=True)
    assert exact.witness is not None
    line = LineString([exact.witness.p0, exact.witness.p1])
    assert line.distance(obs.union) > 0
    assert sampled_clear_segment(a, b, obs, touching_blocks=True) is None


# ---------------------------------------------------------------------------------------------- hexagons, heights


def _holes_table(mb_in_hole=False, **models):
    cells = {h: True for h in hex_range(Hex(0, 0), 3)}
    cells[Hex(1, 0)] = False        # a hole between a (at Hex(0,0)) and b (at Hex(2,0))
    L = Layout()
    ms = [Model("a", *L.hex_to_pixel(Hex(0, 0)), facing=0), Model("b", *L.hex_to_pixel(Hex(2, 0)), facing=180)]
    return cells, L, ms


def test_hexagon_without_tile_blocks_miners():
    cells, L, ms = _holes_table()
    t = TableTop(ms, tiles=cells, layout=L)
    r = line_of_fire(t, "a", "b")
    assert not r.has_lof and "hex:1,0" in r.blocked_by


def test_megabeast_sees_through_hexagons_without_tiles_and_reciprocity_option():
    cells, L, ms = _holes_table()
    cells[Hex(3, 0)] = False
    mb = Model("mb", *L.hex_to_pixel(Hex(3, 0)), silhouette=10, kind="megabeast", side="megabeast",
               facing=150.0, angle_of_vision=None)
    # a sees across the hole at (1,0) only by the MegaBeast's own LoF
    t = TableTop([ms[0], mb], tiles=cells, layout=L)
    mb_a = line_of_fire(t, "mb", "a")
    assert mb_a.has_lof and mb_a.rule == S.MEGABEAST_LOF and mb_a.arc_degrees == 360
    a_mb = line_of_fire(t, "a", "mb")
    assert not a_mb.has_lof and a_mb.rulings["megabeast_reciprocity"] == "miners_only"
    a_mb2 = line_of_fire(t, "a", "mb", rulings({"megabeast_reciprocity": "includes_megabeast"}))
    assert a_mb2.has_lof and a_mb2.reason == "reciprocity"


def test_megabeast_own_hole_exempt_or_not():
    cells = {h: True for h in hex_range(Hex(0, 0), 3)}
    cells[Hex(2, 0)] = False
    L = Layout()
    a = Model("a", *L.hex_to_pixel(Hex(0, 0)), facing=0)
    # a MegaBeast on a base that fits inside its hexagon (S8 here), so the hole surrounds it
    mb = Model("mb", *L.hex_to_pixel(Hex(2, 0)), silhouette=8, kind="megabeast", side="megabeast", facing=210.0)
    t = TableTop([a, mb], tiles=cells, layout=L)
    assert line_of_fire(t, "a", "mb").has_lof
    strict = rulings({"tileless_occupied_hexagon": "blocks"})
    # the default MegaBeast base (S10) overhangs its hexagon: that part is seen even under the strict reading
    big = TableTop([a, mb.__class__(**{**mb.__dict__, "silhouette": 10})], tiles=cells, layout=L)
    assert line_of_fire(big, "a", "mb", strict).has_lof
    assert not line_of_fire(t, "a", "mb", strict).has_lof
    both = rulings({"tileless_occupied_hexagon": "blocks", "megabeast_reciprocity": "includes_megabeast"})
    assert line_of_fire(t, "a", "mb", both).reason == "reciprocity"


def test_megabeast_angle_of_vision():
    mb = Model("mb", 0, 0, silhouette=10, kind="megabeast", side="megabeast", facing=0.0, angle_of_vision=120.0)
    t = TableTop([mb, Model("f", 3, 0.5, facing=180), Model("s", 0, 3, facing=270), Model("k", -3, 0)])
    assert line_of_fire(t, "mb", "f").has_lof
    assert line_of_fire(t, "mb", "s").reason == "outside_arc"
    assert line_of_fire(t, "mb", "k").reason == "outside_arc"


def test_scenery_height_option():
    t = duel(sq("low_wall", 1.8, -1, 2.2, 1, height=0.1))
    assert not line_of_fire(t, "a", "b").has_lof
    r = line_of_fire(t, "a", "b", rulings({"scenery_height": "lower_than_both_does_not_block"}))
    assert r.has_lof and r.rulings["scenery_height"] == "lower_than_both_does_not_block"
    tall = duel(sq("tall_wall", 1.8, -1, 2.2, 1, height=5.0))
    assert not line_of_fire(tall, "a", "b", rulings({"scenery_height": "lower_than_both_does_not_block"})).has_lof


def test_tr19_same_hexagon_outside_lof():
    """TR-19: A ends behind R in R's hexagon: R has no LoF to A (so the Evade -3 MOD condition holds)."""
    from explorer.games.tagraid.ranges import same_hexagon

    L = Layout()
    cx, cy = L.hex_to_pixel(Hex(1, 1))
    t = TableTop([Model("r", cx + 0.3, cy, facing=0.0), Model("a", cx - 0.2, cy, facing=0.0)],
                 tiles={h: True for h in hex_range(Hex(0, 0), 3)}, layout=L)
    assert same_hexagon(t.hex_of("r"), t.hex_of("a"))
    assert line_of_fire(t, "r", "a").reason == "outside_arc"
    assert line_of_fire(t, "a", "r").has_lof


# ---------------------------------------------------------------------------------------------- placements


def test_invalid_placements_are_clear_errors():
    with pytest.raises(ScenarioError, match="overlaps the base"):
        TableTop([Model("a", 0, 0), Model("b", R, 0)])
    with pytest.raises(ScenarioError, match="unknown Silhouette"):
        TableTop([Model("a", 0, 0, silhouette=42)])
    cells = {h: True for h in hex_range(Hex(0, 0), 2)}
    cells[Hex(1, 0)] = False
    L = Layout()
    with pytest.raises(ScenarioError, match="has no tile") as e:
        TableTop([Model("a", *L.hex_to_pixel(Hex(1, 0)))], tiles=cells, layout=L)
    assert e.value.field == "models.a"
    with pytest.raises(ScenarioError, match="overhangs"):
        TableTop([Model("a", 0.8, 0.0)], tiles=cells, layout=L)
    with pytest.raises(ScenarioError, match="off the board"):
        TableTop([Model("a", 20, 0)], tiles=cells, layout=L)
    with pytest.raises(ScenarioError, match="overlaps scenery"):
        TableTop([Model("a", 0, 0)], [sq("box", -0.1, -0.1, 0.1, 0.1)])
    with pytest.raises(ScenarioError, match="does not contain"):
        TableTop([Model("a", 0, 0, hex=Hex(2, 0))])
    with pytest.raises(ScenarioError, match="same id"):
        TableTop([Model("a", 0, 0), Model("a", 3, 0)])
    t = duel()
    with pytest.raises(ScenarioError, match="itself"):
        line_of_fire(t, "a", "a")
    with pytest.raises(ScenarioError, match="no Model"):
        line_of_fire(t, "a", "zz")


def test_result_renders_as_step():
    r = line_of_fire(duel(sq("crate", 1.8, -1, 2.2, 1)), "a", "b")
    st = r.to_step()
    assert st.rule == S.LINE_OF_FIRE and st.facts["has_lof"] is False and "scenery:crate" in st.marks


def test_board_adapter():
    from explorer.board import Board, Cell
    from explorer.board import Scenery as BoardScenery

    cells = {h: (Cell(tile=False) if h == Hex(1, 0) else Cell("sand")) for h in hex_range(Hex(0, 0), 3)}
    board = Board(cells, [BoardScenery("rock", ((2.0, 1.0), (2.5, 1.0), (2.5, 1.5)), None)])
    L = board.layout
    t = TableTop.from_board(board, [Model("a", *L.hex_to_pixel(Hex(0, 0))),
                                    Model("b", *L.hex_to_pixel(Hex(2, 0)), facing=180)])
    assert t.tiles[Hex(1, 0)] is False and t.scenery[0].height == math.inf
    assert not line_of_fire(t, "a", "b").has_lof


def test_notch_in_the_board_outline_blocks_like_a_hexagon_without_tile():
    L = Layout()
    cells = {h: True for h in hex_range(Hex(0, 0), 2)}
    del cells[Hex(1, 0)]                 # a missing hexagon at the edge of the outline ...
    del cells[Hex(2, -1)]
    del cells[Hex(2, 0)]                 # ... opening a notch between a and b
    a = Model("a", *L.hex_to_pixel(Hex(1, -1)), facing=90)
    b = Model("b", *L.hex_to_pixel(Hex(1, 1)), facing=270)
    t = TableTop([a, b], tiles=cells, layout=L)
    r = line_of_fire(t, "a", "b")
    assert not r.has_lof and "off_board" in r.blocked_by
    mb = Model("b", *L.hex_to_pixel(Hex(1, 1)), silhouette=8, kind="megabeast", side="mb", facing=270)
    assert line_of_fire(TableTop([a, mb], tiles=cells, layout=L), "b", "a").has_lof


def test_adjacent_holes_leave_no_slit_along_their_common_side():
    from explorer.hexgrid import edge_between

    L = Layout()
    cells = {h: True for h in hex_range(Hex(0, 0), 3)}
    holes = [Hex(1, -1), Hex(1, 0), Hex(2, -1)]
    for h in holes:
        cells[h] = False
    t = TableTop([Model("a", -1.5, 0.0), Model("b", 4.0, 0.0, facing=180)], tiles=cells, layout=L)
    obs, _ = t.obstacles(t.model("a"), t.model("b"), NO_TOUCH)
    holes_union = __import__("shapely").union_all([p for lab, p in obs.polygons if lab.startswith("hex:")])
    assert holes_union.geom_type == "Polygon" and not holes_union.interiors
    p0, p1 = edge_between(Hex(1, -1), Hex(1, 0)).endpoints(L)
    along = LineString([p0, p1])
    assert along.intersects(holes_union.buffer(-1e-9))   # the common side is inside the merged hole


def test_arc_part_option():
    # b straddles a's arc line (x = 0, facing +x); a wall hides b's part inside the arc, the part behind is open
    b_r = SILHOUETTE_BASE_RADIUS[8]
    # (b faces away, so reciprocity cannot give a the LoF back)
    t = TableTop([Model("a", 0, 0, facing=0.0), Model("b", 0.05, 3.0, silhouette=8, facing=90)],
                 [sq("wall", -0.05, 2.6, 1.0, 2.7)])
    assert t.disc("b").r == b_r
    lit = line_of_fire(t, "a", "b")
    assert lit.has_lof and lit.rulings["lof_arc_part"] == "any_part"
    strict = line_of_fire(t, "a", "b", rulings({"lof_arc_part": "seen_part_in_arc"}))
    assert not strict.has_lof and strict.rulings["lof_arc_part"] == "seen_part_in_arc"
    # if b faces a, b sees a, and reciprocity gives a its LoF back even under the strict reading
    t_rec = t.with_model(Model("b", 0.05, 3.0, silhouette=8, facing=270))
    rec = line_of_fire(t_rec, "a", "b", rulings({"lof_arc_part": "seen_part_in_arc"}))
    assert rec.has_lof and rec.reason == "reciprocity"
    # move the wall behind the arc line: the part in the arc is seen, both readings agree
    t2 = TableTop([Model("a", 0, 0, facing=0.0), Model("b", 0.05, 3.0, silhouette=8, facing=270)],
                  [sq("wall", -1.0, 1.5, 0.0, 1.6)])
    w = line_of_fire(t2, "a", "b", rulings({"lof_arc_part": "seen_part_in_arc"}))
    assert w.has_lof and w.witness.p1[0] >= -1e-9          # it ends on the part inside the arc


@pytest.mark.parametrize("arc", [120.0, 180.0, 270.0])
def test_arc_part_clip_agrees_with_sampling(arc):
    from explorer.games.tagraid.lof import arc_clips

    rng = __import__("numpy").random.default_rng(int(arc))
    for _ in range(40):
        bx, by = rng.uniform(-3, 3, 2)
        a, b = Disc(0, 0, R), Disc(bx, by, R)
        if a.distance_to(b) < 0.05:
            continue
        cx, cy = rng.uniform(-2, 2, 2)
        obs = Obstacles([("w", box(cx, cy, cx + rng.uniform(0.1, 1.5), cy + rng.uniform(0.1, 1.5)))])
        if obs.polygons[0][1].distance(Polygon(a.polygon())) < 0.01 or \
                obs.polygons[0][1].distance(Polygon(b.polygon())) < 0.01:
            continue
        facing = rng.uniform(0, 360)
        for clip in arc_clips((0, 0), facing, arc):
            s = sampled_clear_segment(a, b, obs, touching_blocks=False, clip=clip, n=64)
            e = find_clear_segment(a, b, obs, touching_blocks=False, clip=clip)
            if s is not None:
                assert e.witness is not None
            if e.witness is not None:
                assert all(hx * e.witness.p1[0] + hy * e.witness.p1[1] + hc >= -1e-9 for hx, hy, hc in clip)


def test_svg_views():
    # TableTop._repr_svg_ and LofSnapshot.of_table draw through the same overlays as the LoF explorer widget
    from explorer.games.tagraid.lof_views import LofSnapshot

    t = duel(sq("post", 1.9, -0.1, 2.1, 0.1), sq("box", 3.4, -0.5, 4 - R, 0.05))
    snap = LofSnapshot.of_table(t, "a", ruler_to="b")
    (v,) = snap.verdicts
    assert v.lof.has_lof and v.cover.in_cover and v.cover.pieces == ("box",)
    svg = snap.to_svg()
    assert svg.startswith("<svg") and "#1a9641" in svg and "Partial Cover" in svg
    assert "Range Ruler: short Segment" in svg and ">a<" in svg and ">b<" in svg
    assert t._repr_svg_().startswith("<svg")
    blocked = duel(sq("wall", 1.8, -2, 2.2, 2))
    svg = LofSnapshot.of_table(blocked, "a").to_svg()
    assert "#d7191c" in svg and "blocked by scenery wall" in svg and "blocked by wall" in svg


def test_non_finite_and_bad_arcs_rejected():
    with pytest.raises(ScenarioError, match="finite") as e:
        TableTop([Model("a", float("nan"), 0)])
    assert e.value.field == "models.a.x"
    with pytest.raises(ScenarioError, match="out of range"):
        TableTop([Model("a", 0, 0, angle_of_vision=400)])


@pytest.mark.parametrize("grazing,lof", [("touching_does_not_block", True), ("touching_blocks", False)])
def test_lof_grazing_through_the_single_point_where_two_obstacles_meet(grazing, lof):
    """Two squares meet at one corner, (0, 0); the only clear line passes through that point (every parallel line
    enters one of them). The ruling's readings name this case (issue 22)."""
    from explorer.games.tagraid.lof import TableTop, line_of_fire
    from explorer.games.tagraid.options import LOF_GRAZING, rulings
    from explorer.games.tagraid.pieces import Model, Scenery

    sc = [Scenery("P", ((-1, 0), (0, 0), (0, 1), (-1, 1)), 5.0), Scenery("Q", ((0, -1), (1, -1), (1, 0), (0, 0)), 5.0)]
    t = TableTop([Model("A", -3, -3, 1, 45.0, "A"), Model("B", 3, 3, 1, 225.0, "B")], sc)
    r = line_of_fire(t, "A", "B", rulings({"lof_grazing": grazing}))
    assert r.has_lof is lof
    if lof:
        (x0, y0), (x1, y1) = r.witness.p0, r.witness.p1
        assert abs(x0 * (y1 - y0) - y0 * (x1 - x0)) < 1e-9  # the witness passes through (0, 0)
    assert "two obstacles meet" in LOF_GRAZING.readings[grazing]
