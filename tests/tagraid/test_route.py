"""LoF along a declared Move route, exact over every moment (Move › Effects; Line of Fire exceptions)."""

import math

import numpy as np
import pytest
from shapely.geometry import LineString, Point

from explorer.errors import ScenarioError
from explorer.games.tagraid.lof import TableTop, line_of_fire, lof_along_route, lof_during_move
from explorer.games.tagraid.pieces import SILHOUETTE_BASE_RADIUS, Model, Scenery

R = SILHOUETTE_BASE_RADIUS[7]


def sq(name, x0, y0, x1, y1):
    return Scenery(name, ((x0, y0), (x1, y0), (x1, y1), (x0, y1)))


def window_table(facing=0.0, window=(0.0, 0.05)):
    lo, hi = window
    return TableTop([Model("o", 0, 0, facing=facing, side="red"), Model("m", 4, -2, facing=90, side="blue")],
                    [sq("wall_top", 2.0, hi, 2.2, 3.0), sq("wall_bottom", 2.0, -3.0, 2.2, lo)])


def test_window_seen_between_route_points():
    t = window_table()
    route = [(4, -2), (4, 2)]
    # checked only at the route's points, the mover is never seen ...
    assert [bool(x) for _, x, _ in lof_along_route(t, "m", route, "o")] == [False, False]
    # ... but it crosses the window's line of sight on the way
    res = lof_during_move(t, "m", route, "o")
    assert res.observer_sees_mover and res.mover_sees_observer and res.observer_leg == 0
    w = res.observer_witness
    assert LineString([(4, -2), (4, 2)]).distance(Point(w.p1)) <= R + 1e-7
    assert not LineString([w.p0, w.p1]).intersects(t.scenery[0].polygon().buffer(-1e-7))
    assert not LineString([w.p0, w.p1]).intersects(t.scenery[1].polygon().buffer(-1e-7))


def test_observer_arc_is_fixed_but_mover_sees_360():
    t = window_table(facing=180.0)
    res = lof_during_move(t, "m", [(4, -2), (4, 2)], "o")
    assert not res.observer_sees_mover and res.mover_sees_observer


def test_arc_pieces_of_a_leg():
    # observer faces north (270°, screen up); the mover walks from south (behind) to north (in front)
    t = TableTop([Model("o", 0, 0, facing=270.0, side="red"), Model("m", 3, 3, side="blue")],
                 [sq("screen", 1.0, -4, 1.4, 4)])
    res = lof_during_move(t, "m", [(3, 3), (3, -3)], "o")
    assert not res.observer_sees_mover            # the screen hides the whole leg
    t2 = TableTop([Model("o", 0, 0, facing=270.0, side="red"), Model("m", 3, 3, side="blue")],
                  [sq("screen", 1.0, -1, 1.4, 4)])
    res2 = lof_during_move(t2, "m", [(3, 3), (3, -3)], "o")
    assert res2.observer_sees_mover and res2.observer_witness.p1[1] < -1 + R   # seen past the screen, in the arc


def test_engaged_observer_sees_the_mover_only_if_it_ends_in_contact():
    t = TableTop([Model("o", 0, 0, side="red"), Model("e", -2 * R, 0, side="green"), Model("m", 3, 0, side="blue")])
    assert not lof_during_move(t, "m", [(3, 0), (1, 0)], "o").observer_sees_mover
    assert lof_during_move(t, "m", [(3, 0), (2 * R, 0)], "o").observer_sees_mover


def test_route_through_scenery_is_an_error():
    t = window_table()
    with pytest.raises(ScenarioError) as e:
        lof_during_move(t, "m", [(4, -2), (0.5, -2), (0.5, 2)], "o")
    assert e.value.field == "route[0]" and "scenery:wall_bottom" in str(e.value)
    with pytest.raises(ScenarioError, match="overlap"):
        lof_during_move(t, "m", [(4, -2), (1.0, 0.0)], "o")


def test_exact_route_agrees_with_dense_positions():
    """Whenever some position among 120 along a leg gives the observer LoF, the exact route check does too."""
    rng = np.random.default_rng(5)
    checked = seen = 0
    for _ in range(25):
        lo = rng.uniform(-1, 1)
        w = rng.uniform(0.01, 0.3)
        facing = rng.uniform(-60, 60)
        t = window_table(facing=facing, window=(lo, lo + w))
        p, q = (rng.uniform(3, 5), rng.uniform(-3, 3)), (rng.uniform(3, 5), rng.uniform(-3, 3))
        t = t.with_model(Model("m", *p, side="blue"))
        res = lof_during_move(t, "m", [p, q], "o")
        any_pos = False
        for s in np.linspace(0, 1, 120):
            pos = (p[0] + s * (q[0] - p[0]), p[1] + s * (q[1] - p[1]))
            if line_of_fire(t.with_model(Model("m", *pos, side="blue")), "o", "m", explain=False).has_lof:
                any_pos = True
                break
        checked += 1
        if any_pos:
            seen += 1
            assert res.observer_sees_mover
        if res.observer_sees_mover:
            wseg = res.observer_witness
            assert LineString([p, q]).distance(Point(wseg.p1)) <= R + 1e-7
    assert checked == 25 and seen > 0
