"""Geometry primitives of the exact LoF search."""

import math

import numpy as np
import pytest
from shapely.geometry import box

from explorer.games.tagraid.geometry import (Disc, Obstacles, common_tangents, find_clear_segment, gap_segments,
                                             sampled_clear_segment)
from explorer.games.tagraid.pieces import disc_in_arc


@pytest.mark.parametrize("f,g,count", [((0, 0, 1), (5, 0, 1), 4), ((0, 0, 1), (5, 1, 2), 4),
                                       ((0, 0, 0), (3, 4, 0), 1), ((0, 0, 0), (5, 0, 1), 2),
                                       ((0, 0, 1), (1.5, 0, 1), 2)])
def test_common_tangents_touch_both(f, g, count):
    n, c = common_tangents(np.array([f], float), np.array([g], float))
    assert len(n) == count
    for nn, cc in zip(n, c):
        assert math.isclose(np.linalg.norm(nn), 1.0)
        assert math.isclose(abs(nn @ np.array(f[:2]) + cc), f[2], abs_tol=1e-12)
        assert math.isclose(abs(nn @ np.array(g[:2]) + cc), g[2], abs_tol=1e-12)


def test_gap_segment_runs_from_edge_to_edge():
    a, b = Disc(0, 0, 1), Disc(5, 0, 0.5)
    seg = gap_segments(np.array([[0.0, 1.0]]), np.array([0.0]), a, b)[0]
    assert seg.tolist() == pytest.approx([1.0, 0.0, 4.5, 0.0])
    # a line missing b gives NaN
    assert np.isnan(gap_segments(np.array([[0.0, 1.0]]), np.array([-0.9]), a, b)[0]).all()


def test_touching_bases_see_each_other_through_the_contact_point():
    res = find_clear_segment(Disc(0, 0, 1), Disc(2, 0, 1), Obstacles(), touching_blocks=True)
    assert res.contact and res.witness.p0 == pytest.approx((1.0, 0.0))


def test_obstacle_ring_with_holes_and_sampler_soundness():
    ring = box(-3, -3, 8, 3).difference(box(-2, -2, 7, 2))   # a frame around both bases: blocks nothing between
    obs = Obstacles([("frame", ring)])
    a, b = Disc(0, 0, 0.5), Disc(5, 0, 0.5)
    assert find_clear_segment(a, b, obs, touching_blocks=True).witness is not None
    assert sampled_clear_segment(a, b, obs, touching_blocks=True) is not None


@pytest.mark.parametrize("arc,center,expected", [(180, (3, 0), True), (180, (-3, 0), False), (180, (-0.1, 3), True),
                                                 (120, (1, 3), False), (120, (1, 1.5), True), (270, (-3, -0.5), False),
                                                 (270, (-3, 3.5), True), (360, (-3, 0), True)])
def test_arcs(arc, center, expected):
    assert disc_in_arc((0, 0), 0.0, arc, Disc(*center, 0.2)) is expected
