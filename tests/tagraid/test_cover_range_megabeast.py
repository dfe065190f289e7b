"""Partial Cover, Range Ruler, Range in Hexagons, MegaBeast geometry."""

import math

import numpy as np
import pytest
from shapely.geometry import LineString

from explorer.errors import ScenarioError
from explorer.games.tagraid import sections as S
from explorer.games.tagraid.geometry import Obstacles, point_target_clear, sample_boundary
from explorer.games.tagraid.lof import TableTop, line_of_fire, partial_cover
from explorer.games.tagraid.megabeast import (ThreatLevels, corner_angles, interior_deployment_hexes, side_pairs,
                                              sides_facing, threat_level)
from explorer.games.tagraid.pieces import SILHOUETTE_BASE_RADIUS, Model, Scenery
from explorer.games.tagraid.options import rulings
from explorer.games.tagraid.ranges import (OUT_OF_RANGE, HexRange, RangeCalibration, WeaponRanges, adjacent,
                                           hexes_in_range, in_hex_range, measure_range, models_in_hex_range,
                                           one_to_two, same_hexagon, same_or_adjacent, up_to_two)
from explorer.hexgrid import Hex, Layout, hex_range, neighbors

R = SILHOUETTE_BASE_RADIUS[7]
CAL2 = RangeCalibration(2.0, 2.0, 2.0)  # Segments of 2 hex units: the band tests below do not depend on the default


def sq(name, x0, y0, x1, y1, height=math.inf):
    return Scenery(name, ((x0, y0), (x1, y0), (x1, y1), (x0, y1)), height)


def duel(*scenery, bx=4.0, by=0.0):
    return TableTop([Model("a", 0, 0, facing=0), Model("b", bx, by, facing=180)], scenery)


# ---------------------------------------------------------------------------------------------- Partial Cover


def test_low_box_in_front_gives_partial_cover():
    t = duel(sq("box", 3.4, -0.5, 4 - R, 0.05))
    c = partial_cover(t, "a", "b")
    assert c.in_cover and c.pieces == ("box",) and c.rule == S.PARTIAL_COVER
    assert c.lof.has_lof
    q = c.hidden_points["box"]
    # the hidden point is on b's base and really hidden from all of a by the box
    assert math.hypot(q[0] - 4, q[1]) <= R
    assert not point_target_clear(t.disc("a"), q, Obstacles([("box", t.scenery[0].polygon())]),
                                  touching_blocks=False)
    assert c.to_step().facts["pieces"] == ["box"]


def test_scenery_behind_the_target_gives_no_cover():
    t = duel(sq("box", 4 + R, -0.5, 4.6, 0.5))
    c = partial_cover(t, "a", "b")
    assert c.touching == ("box",) and not c.in_cover


def test_scenery_beside_the_target_hides_nothing():
    t = duel(sq("kerb", 3.8, -1, 4.2, -R))
    c = partial_cover(t, "a", "b")
    assert c.touching == ("kerb",) and not c.in_cover


def test_not_touching_is_not_cover_even_if_hiding():
    t = duel(sq("box", 3.0, -0.5, 3.3, 0.05))
    c = partial_cover(t, "a", "b")
    assert c.touching == () and not c.in_cover


def test_no_lof_means_no_cover():
    t = duel(sq("bunker", 3.0, -2, 4 - R, 2))
    c = partial_cover(t, "a", "b")
    assert not c.lof.has_lof and not c.in_cover and "no LoF" in c.detail


def test_low_scenery_gives_no_cover_when_it_does_not_block():
    t = duel(sq("box", 3.4, -0.5, 4 - R, 0.05, height=0.05))
    assert partial_cover(t, "a", "b").in_cover
    assert not partial_cover(t, "a", "b", rulings({"scenery_height": "lower_than_both_does_not_block"})).in_cover


def test_cover_matches_sampled_visibility():
    """Partial Cover iff some point of the target's base is hidden from every point of the attacker (sampled)."""
    rng = np.random.default_rng(3)
    for _ in range(25):
        h = rng.uniform(-0.4, 0.4)
        w = rng.uniform(0.05, 0.5)
        t = duel(sq("box", 4 - R - w, h - 0.3, 4 - R, h))
        if not t.scenery_in_contact("b"):
            continue
        c = partial_cover(t, "a", "b")
        poly = t.scenery[0].polygon()
        hidden_any = False
        for q in sample_boundary(t.disc("b").__class__(4, 0, R * 0.98), 48):
            if not point_target_clear(t.disc("a"), tuple(q), Obstacles([("box", poly)]), touching_blocks=False):
                hidden_any = True
                break
        if hidden_any:
            assert c.in_cover or not c.lof.has_lof
        if c.in_cover:
            assert c.lof.has_lof


# ---------------------------------------------------------------------------------------------- Range Ruler


@pytest.mark.parametrize("bx,band", [(2.0, "short"), (4.0, "mid"), (6.0, "long"), (7.0, OUT_OF_RANGE)])
def test_bands_by_distance(bx, band):
    r = measure_range(duel(bx=bx), "a", "b", calibration=CAL2)
    assert r.band == band and r.rule == S.RANGE_RULER
    assert r.distance == pytest.approx(bx - 2 * R)


def test_default_calibration_is_two_hexagons_across_the_flats_per_segment():
    # documented derivation (RangeCalibration): 2 x sqrt(3) hex units, rounded to 3.5; three equal Segments
    from explorer.games.tagraid.ranges import DEFAULT_RANGE_CALIBRATION as D

    assert D.short == D.mid == D.long == round(2 * math.sqrt(3) * 2) / 2 == 3.5
    assert [e for _, _, e in D.edges()] == [3.5, 7.0, 10.5]
    r = measure_range(duel(bx=6.0), "a", "b")  # 6 hex units apart: Mid Range under the default
    assert r.band == "mid"


def test_segment_end_touching_target_counts_as_overlap():
    cal = RangeCalibration(short=2.0, mid=2.0, long=2.0)
    assert cal.band_of(2.0) == "short" and cal.band_of(2.0 + 1e-6) == "mid" and cal.band_of(6.01) == OUT_OF_RANGE
    with pytest.raises(ScenarioError, match="is out of range .allowed: a number of hex units from 0.01 to 100"):
        RangeCalibration(short=0)


def test_weapon_mods_and_out_of_range():
    w = WeaponRanges(short=3, mid=0, long=None)
    assert w.mod("short") == ("short", 3) and w.mod("mid") == ("mid", 0)
    assert w.mod("long") == (OUT_OF_RANGE, None)          # beyond the Segments the weapon has MODs for
    assert WeaponRanges(3, 0, -3, out_of_range=-6).mod(OUT_OF_RANGE) == (OUT_OF_RANGE, -6)
    r = measure_range(duel(bx=6.0), "a", "b", calibration=CAL2)
    assert r.weapon(w) == (OUT_OF_RANGE, None)
    assert r.weapon(WeaponRanges(0, 0, -3)) == ("long", -3)
    with pytest.raises(ScenarioError):
        w.mod("extreme")


def test_ruler_follows_lof_around_a_post():
    post = sq("post", 1.9, -0.1, 2.1, 0.1)
    t = duel(post)
    along = measure_range(t, "a", "b")
    e2e = measure_range(t, "a", "b", rulings({"range_measurement": "edge_to_edge"}))
    assert e2e.distance == pytest.approx(4 - 2 * R)
    assert along.distance > e2e.distance + 0.01
    # no clear segment between the bases is shorter (dense brute force over boundary points)
    pa, pb = sample_boundary(t.disc("a"), 256), sample_boundary(t.disc("b"), 256)
    poly = post.polygon().buffer(-1e-9)
    best = min(math.dist(p, q) for p in pa for q in pb
               if abs(p[1]) < 0.2 and abs(q[1]) < 0.2 and not LineString([p, q]).intersects(poly))
    assert along.distance <= best + 1e-6
    assert not LineString([along.measured.p0, along.measured.p1]).intersects(poly)
    # a calibration where the two readings give different bands
    cal = RangeCalibration(short=(4 - 2 * R) + 0.005, mid=2, long=2)
    assert measure_range(t, "a", "b", calibration=cal).band == "mid"
    assert measure_range(t, "a", "b", rulings({"range_measurement": "edge_to_edge"}), calibration=cal).band == "short"


def test_no_lof_no_range():
    r = measure_range(duel(sq("wall", 1.8, -2, 2.2, 2)), "a", "b")
    assert r.band is None and r.distance is None
    with pytest.raises(ScenarioError):
        r.weapon(WeaponRanges())


def test_ruler_bands_for_drawing():
    r = measure_range(duel(), "a", "b", calibration=CAL2)
    names = [n for n, _ in r.bands()]
    assert names == ["short", "mid", "long"]
    assert sum(s.length for _, s in r.bands()) == pytest.approx(6.0)
    assert r.to_step().facts["band"] == "mid"


# ---------------------------------------------------------------------------------------------- Range in Hexagons


def test_hex_range_sizes():
    o = Hex(2, -1)
    assert [len(hexes_in_range(k, o)) for k in HexRange] == [1, 6, 7, 19, 18]
    assert hexes_in_range("same", o) == [o]
    assert set(hexes_in_range("adjacent", o)) == set(neighbors(o))
    with pytest.raises(ScenarioError, match="unknown Range"):
        in_hex_range("three", o, o)


def test_hex_range_predicates():
    o = Hex(0, 0)
    two = Hex(2, -1)
    assert same_hexagon(o, o) and not same_hexagon(o, Hex(1, 0))
    assert adjacent(o, Hex(1, 0)) and not adjacent(o, o)
    assert same_or_adjacent(o, o) and same_or_adjacent(o, Hex(0, 1)) and not same_or_adjacent(o, two)
    assert up_to_two(o, o) and up_to_two(o, two) and not up_to_two(o, Hex(3, 0))
    assert one_to_two(o, two) and not one_to_two(o, o)


def test_models_in_hex_range():
    L = Layout()
    t = TableTop([Model("a", *L.hex_to_pixel(Hex(0, 0))), Model("b", *L.hex_to_pixel(Hex(1, 0))),
                  Model("c", *L.hex_to_pixel(Hex(2, 0))), Model("d", *L.hex_to_pixel(Hex(3, 0)))])
    assert models_in_hex_range(t, "a", "same_and_adjacent") == ["b"]
    assert models_in_hex_range(t, "a", "from_1_to_2") == ["b", "c"]


# ---------------------------------------------------------------------------------------------- MegaBeast


LEVELS = ThreatLevels(front=8, adjacent=5, opposite=2)


def _mb_table(miner_angle, facing=30.0, aov=180.0, dist=None):
    L = Layout()
    cells = {h: True for h in hex_range(Hex(0, 0), 3)}
    cells[Hex(0, 0)] = False
    mb = Model("stoorworm", 0.0, 0.0, silhouette=10, kind="megabeast", side="megabeast", facing=facing,
               angle_of_vision=aov)
    d = dist if dist is not None else SILHOUETTE_BASE_RADIUS[10] + R
    a = math.radians(miner_angle)
    cc = Model("cavecrawler", d * math.cos(a), d * math.sin(a), facing=miner_angle + 180)
    return TableTop([mb, cc], tiles=cells, layout=L)


def test_side_pairs_from_facing():
    L = Layout()
    assert corner_angles(L) == [30.0, 90.0, 150.0, 210.0, 270.0, 330.0]
    pairs = side_pairs(L, 30.0)
    assert sorted(d for d, p in pairs.items() if p == "front") == [0, 5]
    assert sorted(d for d, p in pairs.items() if p == "adjacent") == [1, 4]
    assert sorted(d for d, p in pairs.items() if p == "opposite") == [2, 3]
    with pytest.raises(ScenarioError, match="corner"):
        side_pairs(L, 0.0)


def test_tr09_threat_level_of_the_side_attacked_from():
    """TR-09: a Cavecrawler on a Threat-5 side, partly inside the Angle of Vision: Threat Level 5, and LoF."""
    t = _mb_table(-60.0)
    assert t.in_contact("stoorworm", "cavecrawler")
    assert line_of_fire(t, "stoorworm", "cavecrawler").has_lof
    r = threat_level(t, "stoorworm", "cavecrawler", LEVELS)
    assert r.level == 5 and r.pair == "adjacent" and r.sides == (1,) and r.rule == S.MEGABEAST_THREAT
    assert r.by_side == {0: 8, 5: 8, 1: 5, 4: 5, 2: 2, 3: 2}


@pytest.mark.parametrize("angle,level,pair", [(10.0, 8, "front"), (120.0, 5, "adjacent"), (180.0, 2, "opposite")])
def test_threat_levels_all_round(angle, level, pair):
    r = threat_level(_mb_table(angle), "stoorworm", "cavecrawler", LEVELS)
    assert (r.level, r.pair) == (level, pair)


def test_corner_ruling_option():
    t = _mb_table(-30.0, dist=1.3)       # exactly along the corner between side 0 (front, 8) and side 1 (adjacent, 5)
    assert sides_facing(t.layout, Hex(0, 0), t.model("cavecrawler").center) == (0, 1)
    hi = threat_level(t, "stoorworm", "cavecrawler", LEVELS)
    lo = threat_level(t, "stoorworm", "cavecrawler", LEVELS, rulings({"megabeast_corner_side": "lower"}))
    assert (hi.level, hi.rulings) == (8, {"megabeast_corner_side": "higher"})
    assert (lo.level, lo.rulings) == (5, {"megabeast_corner_side": "lower"})


def test_threat_level_needs_a_megabeast():
    t = _mb_table(0.0)
    with pytest.raises(ScenarioError, match="not a MegaBeast"):
        threat_level(t, "cavecrawler", "stoorworm", LEVELS)


def test_interior_deployment_cells():
    tiles = {h: True for h in hex_range(Hex(0, 0), 2)}
    for h in (Hex(0, 0), Hex(-1, 0), Hex(2, -2), Hex(1, 1)):
        tiles[h] = False
    # (0,0): 5 tiles around (one neighbour is the hole (-1,0)); (-1,0): 5; (1,1) on the board's edge: 4 tiles;
    # (2,-2) a corner of the board: 3 neighbours only
    assert interior_deployment_hexes(tiles) == [Hex(-1, 0), Hex(0, 0), Hex(1, 1)]
    assert interior_deployment_hexes(tiles, min_tiles=5) == [Hex(-1, 0), Hex(0, 0)]


def test_ranged_attack_geometry_trace():
    from explorer.games.tagraid.ranges import ranged_attack_geometry

    t = duel(sq("box", 3.4, -0.5, 4 - R, 0.05))
    tr = ranged_attack_geometry(t, "a", "b", WeaponRanges(short=3, mid=0, long=-3))
    assert tr.outcome == {"has_lof": True, "band": "mid", "partial_cover": True, "cover_pieces": ["box"],
                          "range_mod": 0, "can_fire": True}
    assert [s.rule for s in tr.steps] == [S.LINE_OF_FIRE, S.RANGE_RULER, S.RANGED_ATTACK, S.PARTIAL_COVER]
    assert tr.rulings["lof_grazing"] == "touching_does_not_block" and "range_measurement" in tr.rulings
    assert "Partial Cover" in tr.to_text()
    blocked = ranged_attack_geometry(duel(sq("wall", 1.8, -2, 2.2, 2)), "a", "b", WeaponRanges())
    assert blocked.outcome["has_lof"] is False and blocked.outcome["can_fire"] is False and len(blocked.steps) == 1
