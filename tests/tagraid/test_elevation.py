"""Elevation (issue 22, item 4): Models standing on scenery; LoF, Partial Cover and Range in 3D.

The exact condition of :mod:`explorer.games.tagraid.elevation` is checked against an independent oracle that samples
points of the two volumes and points along each 3D segment (point inside a prism: plan point inside the footprint,
height below its top).
"""

import math

import numpy as np
import pytest
import shapely
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from explorer.errors import ScenarioError
from explorer.games.tagraid.elevation import (Prism, find_clear_segment_3d, low_interval, segment_clear_3d,
                                              segments_clear_3d, vertical_gap)
from explorer.games.tagraid.geometry import Disc, Segment
from explorer.games.tagraid.lof import TableTop, line_of_fire, partial_cover
from explorer.games.tagraid.options import rulings
from explorer.games.tagraid.pieces import Model, Scenery
from explorer.games.tagraid.ranges import measure_range


# ----------------------------------------------------------------------------------------------- the oracle


def _blocked_3d(p0, p1, prisms, margin, n=600):
    """Whether the 3D segment p0 -> p1 (x, y, z) passes inside a prism, sampled at ``n`` points; prisms grown
    (``margin > 0``) or shrunk (``margin < 0``) by ``margin`` in plan and height. A grown test samples the two
    ends too (a segment that only touches a prism's corner at its end is blocked under ``touching_blocks``); a shrunk
    one leaves them out."""
    t = np.linspace(0.0, 1.0, n) if margin > 0 else np.linspace(0.0, 1.0, n)[1:-1]
    pts = np.asarray(p0)[None, :] + t[:, None] * (np.asarray(p1) - np.asarray(p0))[None, :]
    for pr in prisms:
        geom = pr.polygon if pr.polygon is not None else shapely.Point(pr.disc.x, pr.disc.y).buffer(pr.disc.r, 64)
        geom = geom.buffer(margin, join_style="mitre")
        if geom.is_empty:
            continue
        low = pts[:, 2] < pr.height + margin
        if low.any() and shapely.contains_xy(geom, pts[low, 0], pts[low, 1]).any():
            return True
    return False


def _volume_points(d: Disc, z0: float, z1: float, rng, n: int):
    ang = rng.uniform(0, 2 * math.pi, n)
    rr = d.r * np.sqrt(rng.uniform(0, 1, n))
    zz = rng.uniform(z0, z1, n)
    return np.stack([d.x + rr * np.cos(ang), d.y + rr * np.sin(ang), zz], axis=1)


# ----------------------------------------------------------------------------------------------- the low part


def test_low_interval_cases():
    assert low_interval(1.0, 3.0, 2.0, False) == (0.0, 0.5)      # rising: low at the shooter's end
    assert low_interval(3.0, 1.0, 2.0, False) == (0.5, 1.0)      # falling: low at the target's end
    assert low_interval(1.0, 3.0, 0.5, False) is None            # lower than both tops: never met
    assert low_interval(1.0, 3.0, 3.0, False) == (0.0, 1.0)      # as high as the higher top: met wherever crossed
    assert low_interval(1.0, 1.0, 1.0, False) is None            # a line along the top: touching only
    assert low_interval(1.0, 1.0, 1.0, True) == (0.0, 1.0)       # ... which blocks under touching_blocks
    assert low_interval(1.0, 3.0, math.inf, False) == (0.0, 1.0)


def test_vertical_gap():
    assert vertical_gap(0.0, 0.4, 2.0, 2.4) == pytest.approx(1.6)
    assert vertical_gap(2.0, 2.4, 0.0, 0.4) == pytest.approx(1.6)
    assert vertical_gap(0.0, 1.0, 0.5, 2.0) == 0.0


_box = st.tuples(st.floats(-3, 3), st.floats(-3, 3), st.floats(0.2, 2.0), st.floats(0.2, 2.0), st.floats(0.05, 3.0))


def _prism(i, b):
    x, y, w, h, height = b
    return Prism(f"scenery:p{i}", height, shapely.box(x, y, x + w, y + h))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_box, min_size=1, max_size=4), st.floats(0, 3), st.floats(0, 3),
       st.tuples(st.floats(-5, 5), st.floats(-5, 5), st.floats(-5, 5), st.floats(-5, 5)), st.booleans())
def test_segment_condition_matches_pointwise_sampling(boxes, ta, tb, seg, touching):
    """The exact per-segment condition (low part against the footprint) agrees with sampling the 3D segment: a
    segment it calls clear passes no shrunk prism; one it calls blocked passes a grown one."""
    prisms = [_prism(i, b) for i, b in enumerate(boxes)]
    x0, y0, x1, y1 = seg
    clear = segment_clear_3d(Segment((x0, y0), (x1, y1)), ta, tb, prisms, touching_blocks=touching)
    if clear:
        assert not _blocked_3d((x0, y0, ta), (x1, y1, tb), prisms, -1e-3)
    else:
        assert _blocked_3d((x0, y0, ta), (x1, y1, tb), prisms, 1e-3, n=4000)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_box, min_size=1, max_size=3), st.floats(0.0, 2.5), st.floats(0.0, 2.5), st.floats(0.1, 1.0),
       st.floats(0.1, 1.0), st.integers(0, 10**6))
def test_search_matches_dense_sampling_of_both_volumes(boxes, za, zb, ha, hb, seed):
    """Any point of one volume to any point of the other: a witness is a clear line from the two tops (checked by
    sampling the 3D segment), and whenever dense sampling of the two volumes finds a line clear of the grown prisms,
    the search finds one."""
    a, b = Disc(-4.5, 0.3, 0.3), Disc(4.5, -0.2, 0.4)
    prisms = [_prism(i, bx) for i, bx in enumerate(boxes)]
    prisms = [p for p in prisms if p.polygon.distance(shapely.Point(a.x, a.y)) > a.r
              and p.polygon.distance(shapely.Point(b.x, b.y)) > b.r]
    ta, tb = za + ha, zb + hb
    res = find_clear_segment_3d(a, b, ta, tb, prisms, touching_blocks=False)
    if res.witness is not None:
        (x0, y0), (x1, y1) = res.witness.p0, res.witness.p1
        assert math.hypot(x0 - a.x, y0 - a.y) <= a.r + 1e-9 and math.hypot(x1 - b.x, y1 - b.y) <= b.r + 1e-9
        assert not _blocked_3d((x0, y0, ta), (x1, y1, tb), prisms, -1e-3)
    rng = np.random.default_rng(seed)
    pa, pb = _volume_points(a, za, ta, rng, 300), _volume_points(b, zb, tb, rng, 300)
    robust = any(not _blocked_3d(p, q, prisms, 0.02, n=300) for p, q in zip(pa, pb))
    if robust:
        assert res.witness is not None


# ----------------------------------------------------------------------------------------------- worked cases


BLOCK = Scenery("block", ((2.0, -1.0), (3.0, -1.0), (3.0, 1.0), (2.0, 1.0)), 2.0)


def _tr37(ax: float, *, t_on: str | None = "block", tx: float = 2.4, extra=(), **kw):
    a = Model("A", ax, 0.0, 3, 180.0, "A", **kw)
    t = Model("T", tx, 0.0, 3, 0.0, "B", on=t_on)
    return TableTop([a, t, *extra], [BLOCK, *[s for s in [kw.pop("_s", None)] if s]])


def test_tr37_on_top_of_the_block_partial_cover_from_its_edge():
    """TR-37: T stands on a block taller than A's Silhouette, back from the edge. A (on the ground) sees T's top over
    the edge, and the edge hides T's feet: Partial Cover through Silhouette Contact with the block it stands on (not
    for being higher)."""
    table = _tr37(6.0)
    lof = line_of_fire(table, "A", "T")
    assert lof.has_lof and lof.reason == "clear"
    cover = partial_cover(table, "A", "T")
    assert cover.in_cover and cover.pieces == ("block",) and "block" in cover.touching
    rng = measure_range(table, "A", "T")
    # 3.21 across (edge to edge on the centre line: clear) and 1.61 up: sqrt(3.214^2 + 1.607^2)
    assert rng.distance == pytest.approx(math.hypot(6.0 - 0.142857 - 2.4 - 0.142857, 2.0 - 55 / 140), abs=1e-4)
    assert rng.band == "mid"


def test_tr37_from_higher_ground_no_cover():
    """From a tower higher than the block, A looks down on T's whole Silhouette: no Partial Cover."""
    tower = Scenery("tower", ((8.0, -1.0), (9.0, -1.0), (9.0, 1.0), (8.0, 1.0)), 3.0)
    a = Model("A", 8.5, 0.0, 3, 180.0, "A", on="tower")
    t = Model("T", 2.4, 0.0, 3, 0.0, "B", on="block")
    table = TableTop([a, t], [BLOCK, tower])
    assert line_of_fire(table, "A", "T").has_lof
    assert not partial_cover(table, "A", "T").in_cover


def test_close_below_the_edge_hidden_by_the_block():
    """A stands close to the block's foot: the line from A's top to T's top crosses the block below its top edge;
    under elevation_own_piece = ignored T sees over its own edge and there is LoF (and no cover from that piece)."""
    table = _tr37(3.2)
    lof = line_of_fire(table, "A", "T")
    assert not lof.has_lof and "scenery:block" in lof.blocked_by
    r = rulings({"elevation_own_piece": "ignored"})
    assert line_of_fire(table, "A", "T", r).has_lof
    assert not partial_cover(table, "A", "T", r).in_cover
    assert r.consulted["elevation_own_piece"] == "ignored"


def test_behind_the_block_on_the_ground_blocked():
    """A ground Model behind the block stays hidden from a ground Model (both lower than the block)."""
    b = Model("B", 0.5, 0.0, 3, 0.0, "B")
    table = _tr37(6.0, extra=(b,))
    assert not line_of_fire(table, "A", "B").has_lof


def test_low_wall_from_a_tower_clear_and_covered():
    """A on a tower sees a ground Model over a low wall that would block it on a flat board (scenery_height =
    all_blocks), and the wall touching the target still hides its feet: Partial Cover."""
    tower = Scenery("tower", ((3.0, -1.0), (5.0, -1.0), (5.0, 1.0), (3.0, 1.0)), 1.5)
    wall = Scenery("wall", ((-0.6, -1.0), (-0.4, -1.0), (-0.4, 1.0), (-0.6, 1.0)), 0.3)
    g = Model("G", -0.6 - 40 / 280, 0.0, 3, 0.0, "B")
    up = Model("A", 4.5, 0.0, 3, 180.0, "A", on="tower")
    table = TableTop([up, g], [tower, wall])
    assert line_of_fire(table, "A", "G").has_lof
    assert partial_cover(table, "A", "G").in_cover
    down = TableTop([Model("A", 1.0, 0.0, 3, 180.0, "A"), g], [tower, wall])
    assert not line_of_fire(down, "A", "G").has_lof   # the flat answer on the ground is unchanged


def test_flat_pairs_on_an_elevated_table_keep_the_flat_answer():
    """Only pairs with a Model on scenery go through the 3D path: two ground Models behind a low wall still follow
    scenery_height."""
    wall = Scenery("wall", ((-0.1, -1.0), (0.1, -1.0), (0.1, 1.0), (-0.1, 1.0)), 0.1)
    a, b = Model("A", -2.0, 0.0, 3, 0.0, "A"), Model("B", 2.0, 0.0, 3, 180.0, "B")
    c = Model("C", 5.5, 0.0, 3, 180.0, "B", on="tower")
    tower = Scenery("tower", ((5.0, -1.0), (6.0, -1.0), (6.0, 1.0), (5.0, 1.0)), 1.0)
    table = TableTop([a, b, c], [wall, tower])
    assert not line_of_fire(table, "A", "B").has_lof
    assert line_of_fire(table, "A", "B", rulings({"scenery_height": "lower_than_both_does_not_block"})).has_lof
    assert line_of_fire(table, "A", "C").has_lof   # over the low wall (0.1) to the tower's top


# ----------------------------------------------------------------------------------------------- placement


def test_standing_validation():
    with pytest.raises(ScenarioError, match="no scenery piece"):
        TableTop([Model("T", 2.4, 0.0, 3, on="nope")], [BLOCK])
    with pytest.raises(ScenarioError, match="overhangs the top"):
        TableTop([Model("T", 2.9, 0.0, 3, on="block")], [BLOCK])
    with pytest.raises(ScenarioError, match="has no height"):
        TableTop([Model("T", 2.4, 0.0, 3, on="tall")], [Scenery("tall", BLOCK.points)])
    with pytest.raises(ScenarioError, match="overlaps scenery"):   # on the ground inside the footprint: refused
        TableTop([Model("T", 2.4, 0.0, 3)], [BLOCK])


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_box, st.lists(_box, min_size=0, max_size=2), st.floats(0.0, 1.0), st.floats(1.5, 3.0), st.floats(0.05, 0.95),
       st.integers(0, 10**6))
def test_search_in_between_pieces_matches_dense_sampling(mid, walls, za, zb, frac, seed):
    """The sampled stage (a piece whose top lies between the two tops, with full-height walls around): same
    properties as above, on cases built to reach it."""
    a, b = Disc(-4.5, 0.3, 0.3), Disc(4.5, -0.2, 0.4)
    ta, tb = za + 0.4, zb + 0.4
    x, y, w, h, _ = mid
    prisms = [Prism("scenery:mid", ta + frac * (tb - ta), shapely.box(x, y, x + w, y + h))]
    prisms += [Prism(f"scenery:w{i}", 10.0, shapely.box(bx[0], bx[1], bx[0] + bx[2] / 4, bx[1] + bx[3]))
               for i, bx in enumerate(walls)]
    prisms = [p for p in prisms if p.polygon.distance(shapely.Point(a.x, a.y)) > a.r
              and p.polygon.distance(shapely.Point(b.x, b.y)) > b.r]
    res = find_clear_segment_3d(a, b, ta, tb, prisms, touching_blocks=False)
    if res.witness is not None:
        (x0, y0), (x1, y1) = res.witness.p0, res.witness.p1
        assert not _blocked_3d((x0, y0, ta), (x1, y1, tb), prisms, -1e-3)
    rng = np.random.default_rng(seed)
    pa, pb = _volume_points(a, za, ta, rng, 300), _volume_points(b, zb, tb, rng, 300)
    if any(not _blocked_3d(p, q, prisms, 0.02, n=300) for p, q in zip(pa, pb)):
        assert res.witness is not None


# ----------------------------------------------------------------------------------------------- built-ins


@pytest.mark.parametrize("name", ["tr-elev-37", "tr-elev-tower", "tr-elev-tower-own-edge"])
def test_elevation_table_goldens(name):
    """The table built-ins' traces (reviewed goldens)."""
    from pathlib import Path

    from golden_helpers import check_golden, trace_text

    from explorer.games import get_game

    g = get_game("tagraid")
    check_golden(Path(__file__).parent / "golden", name, trace_text(g.resolve(g.load_builtin(name))))


def test_elevation_table_built_in_values():
    from explorer.games import get_game

    g = get_game("tagraid")
    out = g.resolve(g.load_builtin("tr-elev-37")).result
    text = repr(out)
    assert "T" in text
    from explorer.games.tagraid.table_file import load_packaged_table

    t = load_packaged_table("tr-elev-37").table
    assert t.elevation("T") == 2.0 and t.top("T") == pytest.approx(2.0 + 55 / 140)
    assert partial_cover(t, "A", "T").in_cover and not line_of_fire(t, "A", "B").has_lof
    tw = load_packaged_table("tr-elev-tower").table
    assert line_of_fire(tw, "A", "G").has_lof and partial_cover(tw, "A", "G").pieces == ("wall",)
    assert not line_of_fire(tw, "A", "H").has_lof
    assert line_of_fire(tw, "A", "H", rulings({"elevation_own_piece": "ignored"})).has_lof


def test_old_table_files_load_unchanged():
    """A table file without `on` loads with every Model on the ground (elevation 0) and the flat path."""
    from explorer.games.tagraid.table_file import available_tables, load_packaged_table

    for name in available_tables():
        if name.startswith("tr-elev"):
            continue
        t = load_packaged_table(name).table
        assert not t.has_elevation and all(t.elevation(m) == 0.0 for m in t.models)


# ----------------------------------------------------------------------------------------------- Move: climbing


def _climb_order(route, on, *, movement=(3, 2), rulings_=None):
    import tomllib
    from importlib.resources import files

    data = tomllib.loads((files("explorer.games.tagraid") / "scenarios" / "tr-elev-climb-order.toml").read_text())
    data["order"]["move"]["route"] = route
    data["order"]["move"]["on"] = on
    data["miners"][0]["movement"] = list(movement)
    data.pop("dice", None)
    data["order"].pop("aros", None)
    data["order"]["second"] = {"skill": "idle"}
    if rulings_:
        data["rulings"] = rulings_
    return data


def _play(data):
    from explorer.games import get_game

    g = get_game("tagraid")
    return g.resolve(g.parse_data(data, "<test>"))


def test_climb_takes_a_whole_segment_of_its_own():
    """Move › Effects: 1.33 Segments to the foot of the block round up to 2, and the climb takes the third; with
    Movement 2 the same route is refused; under climb_segment = one_segment_length it uses 2.33 and is still
    refused at 2, allowed at 3."""
    from explorer.errors import RuleViolation

    ok = _play(_climb_order([[0.8, 0.0], [1.6, 0.0]], ["", "block"]))
    move = next(s for s in ok.steps if "climb" in s.title)
    assert "3.00 of 3 Segments" in move.title and "on top of block" in move.title
    with pytest.raises(RuleViolation, match="uses 3.00"):
        _play(_climb_order([[0.8, 0.0], [1.6, 0.0]], ["", "block"], movement=(2, 2)))
    alt = _play(_climb_order([[0.8, 0.0], [1.6, 0.0]], ["", "block"],
                             rulings_={"climb_segment": "one_segment_length"}))
    assert "2.33 of 3 Segments" in next(s for s in alt.steps if "climb" in s.title).title
    with pytest.raises(RuleViolation, match="uses 2.33"):
        _play(_climb_order([[0.8, 0.0], [1.6, 0.0]], ["", "block"], movement=(2, 2),
                           rulings_={"climb_segment": "one_segment_length"}))


def test_climb_refusals():
    from explorer.errors import RuleViolation

    with pytest.raises(RuleViolation, match="would cross scenery block"):   # walking into the block, no climb
        _play(_climb_order([[1.6, 0.0]], [""]))
    with pytest.raises(RuleViolation, match="no scenery piece"):
        _play(_climb_order([[0.8, 0.0], [1.6, 0.0]], ["", "nope"]))
    with pytest.raises(RuleViolation, match="surfaces for 2 route points"):
        _play(_climb_order([[0.8, 0.0], [1.6, 0.0]], ["block"]))
    with pytest.raises(RuleViolation, match="cannot end its Move there"):  # the base overhangs the block's top
        _play(_climb_order([[0.8, 0.0], [1.1, 0.0]], ["", "block"]))


def test_climbed_position_counts_for_lof_and_aro():
    """From the ground R and A do not see each other; on top of the block they do: R gains its ARO on the climbing
    leg (leg 2), and the Miner ends standing on the block."""
    t = _play(_climb_order([[0.8, 0.0], [1.6, 0.0]], ["", "block"]))
    aro = next(s for s in t.steps if "right to an ARO" in s.title)
    assert aro.title.startswith("R gains") and "leg 2" in aro.detail
    ground = _play(_climb_order([[0.8, 0.0]], [""]))
    assert next(s for s in ground.steps if "ARO" in s.title and s.title.startswith("R")).title.startswith("R has no")


def test_picture_and_verdict_table_show_heights():
    """The LoF picture labels each piece's height and the Models standing on scenery; the verdict table names the
    piece under the Model; a flat table draws as before (no height labels)."""
    from explorer.games.tagraid.lof_picture import LofSnapshot
    from explorer.games.tagraid.table_file import load_packaged_table

    lt = load_packaged_table("tr-elev-tower")
    snap = LofSnapshot.of_table(lt.table, shooter="A", rulings=lt.rulings)
    svg = snap.to_svg()
    assert "↑1.5" in svg and "↑0.3" in svg and "A ↑1.5 on tower" in svg
    assert "(on tower, ↑1.5) has LoF to" in snap.verdicts_html()
    flat = load_packaged_table("lof-demo")
    assert "↑" not in LofSnapshot.of_table(flat.table, shooter=flat.shooter, rulings=flat.rulings).to_svg()


def test_order_picture_shows_the_climb():
    """The Order picture (explorer render, the Orders page) labels the Miner standing on the block and the pieces'
    heights once a route climbs."""
    from explorer.games import get_game
    from explorer.games.tagraid.game import picture

    g = get_game("tagraid")
    sc = g.load_builtin("tr-elev-climb-order")
    svg = picture(sc, g.resolve(sc))
    assert "↑1 on block" in svg and "↑0.6<" in svg


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.floats(0.0, 3.0), st.booleans()), min_size=1, max_size=6))
def test_climb_segments_used_readings(legs):
    """A climb takes one whole Segment: under own_segment at least as many Segments as under one_segment_length, and
    at most one more per climb; without climbs both are the measured length in Segments."""
    from explorer.games.tagraid.orders.move import climb_segments_used

    own = climb_segments_used(legs, 1.5, "own_segment")
    add = climb_segments_used(legs, 1.5, "one_segment_length")
    climbs = sum(c for _, c in legs)
    assert own >= add - 1e-9 and own <= add + climbs + 1e-9
    assert add == pytest.approx(sum(d for d, c in legs if not c) / 1.5 + climbs)
    if not climbs:
        assert own == pytest.approx(add)


def test_arc_readings_on_an_elevated_pair():
    """The arc readings apply in 3D as on a flat table: under lof_shooter_arc = front_half the line leaves the front
    half of the shooter's base (the witness starts there); under lof_arc_part = seen_part_in_arc it ends on the part
    of the target inside the arc."""
    from dataclasses import replace

    from explorer.games.tagraid.table_file import load_packaged_table

    tw = load_packaged_table("tr-elev-tower").table
    a = tw.model("A")
    tw = tw.with_model(replace(a, facing=90.0))      # G lies on the edge of A's arc (due west)
    r = rulings({"lof_shooter_arc": "front_half"})
    lof = line_of_fire(tw, "A", "G", r)
    assert lof.has_lof and lof.witness.p0[1] >= a.y - 1e-9
    assert r.consulted["lof_shooter_arc"] == "front_half"
    r2 = rulings({"lof_arc_part": "seen_part_in_arc"})
    lof2 = line_of_fire(tw, "A", "G", r2)
    assert lof2.has_lof and lof2.witness.p1[1] >= a.y - 1e-9
