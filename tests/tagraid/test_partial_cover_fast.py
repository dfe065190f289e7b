"""Partial Cover's clipped umbra (issue 24) gives the former answers (Damage › Partial Cover).

``lof.partial_cover`` now builds the umbra inside the target's base only (``lof._umbra_in_disc``: a convex piece's
shadow as one polygon, a non-convex piece's from the quads that reach the base, shadows that change nothing skipped).
The former computation is kept as ``lof._reference_partial_cover`` / ``lof._reference_cover_region`` (the whole
``umbra``, each shadow a union of quads reaching 4x the distance); on random tables (convex and non-convex pieces in
Silhouette Contact with the target, at an edge or a corner, attackers anywhere, touching the piece or tangent to the
line of one of its edges, every Silhouette) both must give the same verdict, the same pieces, and hidden points that
are hidden (checked again here with ``point_target_clear``); the two regions must be the same set.
"""

import math

import numpy as np
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from shapely.geometry import Point, Polygon

from explorer.errors import ScenarioError
from explorer.games.tagraid import lof
from explorer.games.tagraid.geometry import Obstacles, point_target_clear
from explorer.games.tagraid.lof import TableTop, _reference_partial_cover, partial_cover
from explorer.games.tagraid.options import rulings
from explorer.games.tagraid.pieces import SILHOUETTE_BASE_RADIUS, Model, Scenery

PROP = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                          HealthCheck.filter_too_much])
SILHOUETTES = [1, 3, 5, 8, 10]


def _floats(lo: float, hi: float):
    """Floats in ``[lo, hi]`` without subnormals: a coordinate like 2e-309 now and then makes GEOS fail on the former
    path's unions of quads (the reference here; the new path then answers as the former would, raising too), and no
    table is drawn that way."""
    return st.floats(lo, hi, allow_subnormal=False)


@st.composite
def pieces(draw):
    """A scenery footprint around the origin, about 0.2-1.6 hex units across: a rectangle (a wall or a crate), a
    convex polygon (regular, stretched and turned), or a non-convex one (star-shaped with uneven radii, or an L)."""
    kind = draw(st.sampled_from(["rect", "convex", "star", "L"]))
    turn = draw(_floats(0, 2 * math.pi))
    c, s = math.cos(turn), math.sin(turn)
    if kind == "rect":
        w, h = draw(_floats(0.05, 1.6)), draw(_floats(0.05, 1.6))
        pts = [(-w / 2, -h / 2), (w / 2, -h / 2), (w / 2, h / 2), (-w / 2, h / 2)]
    elif kind == "convex":
        n = draw(st.integers(3, 8))
        sx, sy = draw(_floats(0.1, 0.8)), draw(_floats(0.1, 0.8))
        pts = [(sx * math.cos(2 * math.pi * i / n), sy * math.sin(2 * math.pi * i / n)) for i in range(n)]
    elif kind == "star":
        n = draw(st.integers(4, 9))
        radii = draw(st.lists(_floats(0.15, 0.8), min_size=n, max_size=n))
        pts = [(r * math.cos(2 * math.pi * i / n), r * math.sin(2 * math.pi * i / n)) for i, r in enumerate(radii)]
    else:
        w, h, t = draw(_floats(0.4, 1.4)), draw(_floats(0.4, 1.4)), draw(_floats(0.08, 0.35))
        pts = [(0, 0), (w, 0), (w, t), (t, t), (t, h), (0, h)]
    poly = Polygon([(x * c - y * s, x * s + y * c) for x, y in pts])
    assume(poly.is_valid and poly.area > 1e-3)
    if draw(st.booleans()):
        poly = poly.reverse()  # clockwise corners too
    return poly


def _touching_centre(poly: Polygon, r: float, f: float, spread: float, gap: float, at_corner: bool):
    """A centre at ``r + gap`` from ``poly``: off the edge at fraction ``f`` of its boundary, or off the corner
    before it (``spread`` in [0, 1] turns the direction across the corner's outside angle)."""
    ring = list(poly.exterior.coords)[:-1]
    ccw = poly.exterior.is_ccw
    n = len(ring)
    i = min(int(f * n), n - 1)
    (x0, y0), (x1, y1) = ring[i], ring[(i + 1) % n]
    ex, ey = x1 - x0, y1 - y0
    ln = math.hypot(ex, ey)
    nx, ny = (ey / ln, -ex / ln) if ccw else (-ey / ln, ex / ln)  # outward normal of edge i
    if not at_corner:
        u = f * n - i
        qx, qy = x0 + u * ex, y0 + u * ey
        return qx + nx * (r + gap), qy + ny * (r + gap)
    (xp, yp) = ring[(i - 1) % n]
    px, py = x0 - xp, y0 - yp
    lp = math.hypot(px, py)
    mx, my = (py / lp, -px / lp) if ccw else (-py / lp, px / lp)  # outward normal of the edge before
    a0, a1 = math.atan2(my, mx), math.atan2(ny, nx)
    da = (a1 - a0 + math.pi) % (2 * math.pi) - math.pi
    ang = a0 + spread * da
    return x0 + math.cos(ang) * (r + gap), y0 + math.sin(ang) * (r + gap)


@st.composite
def tables(draw):
    """A target touching a piece (at an edge or a corner, the gap 0 or under the contact tolerance) and an attacker:
    anywhere within 6 hex units, touching the piece, or with its base tangent to the line of one of the piece's
    edges; sometimes a second piece touching the target."""
    poly = draw(pieces())
    ox, oy = draw(_floats(-3, 3)), draw(_floats(-3, 3))
    poly = Polygon([(x + ox, y + oy) for x, y in poly.exterior.coords])
    sb, sa = draw(st.sampled_from(SILHOUETTES[:-1])), draw(st.sampled_from(SILHOUETTES))
    rb, ra = SILHOUETTE_BASE_RADIUS[sb], SILHOUETTE_BASE_RADIUS[sa]
    gap = draw(st.sampled_from([0.0, 1e-12, 5e-7]))
    bx, by = _touching_centre(poly, rb, draw(_floats(0, 0.999)), draw(_floats(0, 1)), gap, draw(st.booleans()))
    where = draw(st.sampled_from(["free", "free", "touching", "edge line"]))
    if where == "free":
        d, ang = draw(_floats(0, 6)), draw(_floats(0, 2 * math.pi))
        ax, ay = bx + (ra + rb + d) * math.cos(ang), by + (ra + rb + d) * math.sin(ang)
    elif where == "touching":
        ax, ay = _touching_centre(poly, ra, draw(_floats(0, 0.999)), draw(_floats(0, 1)), 0.0, draw(st.booleans()))
    else:  # the attacker's base tangent to the line through an edge, somewhere along it
        ring = list(poly.exterior.coords)
        i = draw(st.integers(0, len(ring) - 2))
        (x0, y0), (x1, y1) = ring[i], ring[i + 1]
        ln = math.hypot(x1 - x0, y1 - y0)
        u = draw(_floats(-6, 6)) / ln
        side = draw(st.sampled_from([1, -1]))
        ax = x0 + u * (x1 - x0) + side * ra * (y1 - y0) / ln
        ay = y0 + u * (y1 - y0) - side * ra * (x1 - x0) / ln
    assume(poly.distance(Point(ax, ay)) >= ra - 1e-12)
    assume(math.hypot(ax - bx, ay - by) >= ra + rb)
    scenery = [Scenery("p", tuple(poly.exterior.coords)[:-1])]
    if draw(st.booleans()):  # a second piece touching the target: a small square off another side
        ang = draw(_floats(0, 2 * math.pi))
        cx, cy = bx + (rb + 0.1 + 1e-9) * math.cos(ang), by + (rb + 0.1 + 1e-9) * math.sin(ang)
        sq = Polygon([(cx - 0.1, cy - 0.1), (cx + 0.1, cy - 0.1), (cx + 0.1, cy + 0.1), (cx - 0.1, cy + 0.1)])
        sq = Polygon([(cx + (x - cx) * math.cos(ang) - (y - cy) * math.sin(ang),
                       cy + (x - cx) * math.sin(ang) + (y - cy) * math.cos(ang)) for x, y in sq.exterior.coords])
        if not sq.intersects(poly) and sq.distance(Point(ax, ay)) >= ra:
            scenery.append(Scenery("q", tuple(sq.exterior.coords)[:-1]))
    kind_a = "megabeast" if sa == 10 else "miner"
    models = [Model("a", ax, ay, silhouette=sa, facing=math.degrees(math.atan2(by - ay, bx - ax)),
                    side="megabeast" if sa == 10 else "A", kind=kind_a),
              Model("b", bx, by, silhouette=sb, side="B")]
    try:
        return TableTop(models, scenery, validate=True)
    except ScenarioError:
        assume(False)


def _hidden(table: TableTop, sid: str, q) -> bool:
    b = table.disc("b")
    return (math.hypot(q[0] - b.x, q[1] - b.y) <= b.r
            and not point_target_clear(table.disc("a"), q, Obstacles([(sid, table._scenery_polys[sid])]),
                                       touching_blocks=lof._grazing(rulings())))


@PROP
@given(tables())
def test_partial_cover_equals_the_former_computation(table):
    new, old = partial_cover(table, "a", "b"), _reference_partial_cover(table, "a", "b")
    assert (new.in_cover, new.pieces, new.touching, new.detail) == (old.in_cover, old.pieces, old.touching, old.detail)
    assert set(new.hidden_points) == set(old.hidden_points) == set(new.pieces)
    for sid in new.pieces:
        assert _hidden(table, sid, new.hidden_points[sid]) and _hidden(table, sid, old.hidden_points[sid])


@PROP
@given(tables())
def test_the_clipped_umbra_is_the_former_umbra_inside_the_base(table):
    """Each touching piece's region in the target's base: the same set both ways (up to 1e-9 of area, for vertices
    computed in another order), and the same "nothing there" (``None``)."""
    a, b = table.disc("a"), table.disc("b")
    far = 4 * (math.hypot(b.x - a.x, b.y - a.y) + b.r + 1)
    for sid in table.scenery_in_contact("b"):
        poly = table._scenery_polys[sid]
        new, old = lof._cover_region(a, poly, b, far), lof._reference_cover_region(a, poly, b, far)
        if new is None or old is None:
            other = old if new is None else new
            assert other is None or other.area <= 1e-9
        else:
            assert new.symmetric_difference(old).area <= 1e-9


def test_a_wall_in_front_of_the_target_hides_the_same_point_region():
    """A worked example: a wall between the attacker and the target, touching the target; the hidden region is the
    same both ways and the verdict is cover."""
    r = SILHOUETTE_BASE_RADIUS[7]
    wall = Scenery("wall", ((3.0, -0.5), (4 - r, -0.5), (4 - r, 0.05), (3.0, 0.05)))
    table = TableTop([Model("a", 0, 0), Model("b", 4, 0, facing=180, side="B")], [wall])
    new, old = partial_cover(table, "a", "b"), _reference_partial_cover(table, "a", "b")
    assert new.in_cover and old.in_cover and new.pieces == old.pieces == ("wall",)
    a, b = table.disc("a"), table.disc("b")
    region = lof._cover_region(a, table._scenery_polys["wall"], b, 20.0)
    assert region is not None and region.area > 0.01
    assert region.symmetric_difference(lof._reference_cover_region(a, table._scenery_polys["wall"], b, 20.0)).area \
        < 1e-12


def test_convex_shadow_matches_the_union_of_quads():
    """The one-polygon shadow of a convex piece equals the union of quads within reach (random points around a
    hexagon), and the non-convex or degenerate cases are handed back (``None``)."""
    hexagon = Polygon([(math.cos(k * math.pi / 3), math.sin(k * math.pi / 3)) for k in range(6)])
    ring = lof._convex_ring(hexagon)
    assert ring is not None
    rng = np.random.default_rng(5)
    pts = rng.uniform(-4, 4, size=(60, 2))
    pts = pts[np.hypot(pts[:, 0], pts[:, 1]) > 1.2]
    reach = np.full(len(pts), 3.0)
    got, first, last = lof._convex_shadows(pts, ring, 30.0, reach)
    assert sum(g is not None for g in got) >= len(pts) // 2
    # small discs around the hexagon: where the quick test says a shadow holds one, shapely agrees
    discs = [Point(x, y).buffer(rad, quad_segs=8) for x, y, rad in zip(rng.uniform(-3, 3, 40), rng.uniform(-3, 3, 40),
                                                                         rng.uniform(0.05, 0.5, 40))]
    shown = 0
    for p, g, f, la in zip(pts, got, first, last):
        if g is None:
            assert np.isnan(f).all() and np.isnan(la).all()
            continue
        ref = lof._shadow((float(p[0]), float(p[1])), hexagon, 30.0)
        window = Point(*p).buffer(3.0, quad_segs=16)
        assert g.is_valid
        assert g.intersection(window).symmetric_difference(ref.intersection(window)).area < 1e-9
        for d in discs:
            if d.within(window):
                held = lof._covered_by_shadows(np.asarray(d.exterior.coords), p[None], f[None], la[None])[0]
                shown += bool(held)
                assert not held or ref.covers(d)
    assert shown > 0
    el = Polygon([(0, 0), (1, 0), (1, 0.2), (0.2, 0.2), (0.2, 1), (0, 1)])
    assert lof._convex_ring(el) is None
    inside, _, _ = lof._convex_shadows(np.array([[0.0, 0.0]]), ring, 30.0, np.array([3.0]))
    assert inside[0] is None
    on_edge_line, _, _ = lof._convex_shadows(np.array([[2.0, 0.0]]),
                                             lof._convex_ring(Polygon([(0, 0), (1, 0), (1, 1)])), 30.0,
                                             np.array([3.0]))
    assert on_edge_line[0] is None


def test_a_geos_failure_on_the_clipped_shapes_falls_back_to_the_former_computation(monkeypatch):
    from shapely.errors import GEOSException

    r = SILHOUETTE_BASE_RADIUS[7]
    poly = Polygon([(3.0, -0.5), (4 - r, -0.5), (4 - r, 0.05), (3.0, 0.05)])
    a, b = (Model("a", 0, 0).disc(), Model("b", 4, 0).disc())
    want = lof._reference_cover_region(a, poly, b, 20.0)

    def fails(*args, **kw):
        raise GEOSException("TopologyException: side location conflict")

    monkeypatch.setattr(lof, "_umbra_in_disc", fails)
    got = lof._cover_region(a, poly, b, 20.0)
    assert got is not None and got.equals(want)
