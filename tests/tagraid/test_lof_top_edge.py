"""A sight line that grazes the top edge of a scenery piece (issue 22): the line is exactly level with the piece's
top where it crosses the footprint's edge, above it everywhere inside. Line of Fire and Distances › Line of Fire asks
for a line 'without being obstructed' and says nothing of a line that only touches an obstacle's edge; the reading is
ruling ``lof_grazing`` (default ``touching_does_not_block``: only a line that enters an obstacle is obstructed), the
same reading as for a line touching a corner in plan. Exact values (dyadic numbers: no rounding), property tests."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from shapely.geometry import box

from explorer.games.tagraid.elevation import Prism, low_interval, segment_clear_3d
from explorer.games.tagraid.geometry import Segment
from explorer.games.tagraid.options import LOF_GRAZING

EIGHTHS = st.integers(1, 40).map(lambda k: k / 8)


def _piece(x0: float, x1: float, h: float) -> Prism:
    return Prism("scenery:block", h, box(x0, -1.0, x1, 1.0))


@settings(max_examples=200, deadline=None)
@given(ta=EIGHTHS, rise=EIGHTHS, m=st.sampled_from([1, 2, 4]), depth=EIGHTHS, up=st.booleans())
def test_a_line_level_with_a_top_edge_follows_the_ruling(ta, rise, m, depth, up):
    """The line from height ``ta`` rises to the piece's top ``h = ta + rise`` exactly where it reaches the near edge
    (``x0``, a fraction ``1/m`` of the way... m in 1, 2, 4) and is above the top over the rest of the footprint: clear
    when touching does not block, blocked when it does. Mirrored (``up`` False): the line comes down and touches the
    far top edge."""
    length = 8.0
    x0 = length / (2 * m)                     # where the line is exactly level with the top (exact in binary)
    h = ta + rise
    tb = ta + rise * (length / x0)            # exact: length / x0 is a power of two
    piece = _piece(x0, x0 + depth, h)
    seg = Segment((0.0, 0.0), (length, 0.0))
    if not up:                                # the same line walked the other way round
        piece = _piece(length - x0 - depth, length - x0, h)
        seg, ta, tb = Segment((0.0, 0.0), (length, 0.0)), tb, ta
    assert segment_clear_3d(seg, ta, tb, [piece], touching_blocks=False)
    assert not segment_clear_3d(seg, ta, tb, [piece], touching_blocks=True)


@settings(max_examples=100, deadline=None)
@given(ta=EIGHTHS, rise=EIGHTHS, m=st.sampled_from([1, 2, 4]), depth=EIGHTHS, below=EIGHTHS)
def test_a_line_one_step_below_the_top_edge_is_blocked_either_way(ta, rise, m, depth, below):
    """Control: the same piece a little higher than the line at its edge blocks under both readings (the test above
    cannot pass by a piece that is never met)."""
    length = 8.0
    x0 = length / (2 * m)
    h = ta + rise
    tb = ta + rise * (length / x0)
    piece = _piece(x0, x0 + depth, h + below)
    seg = Segment((0.0, 0.0), (length, 0.0))
    for tb_ in (tb,):
        assert not segment_clear_3d(seg, ta, tb_, [piece], touching_blocks=False)
        assert not segment_clear_3d(seg, ta, tb_, [piece], touching_blocks=True)


@given(h=EIGHTHS, x0=st.integers(1, 3).map(float), depth=EIGHTHS)
def test_a_level_line_along_the_top_face(h, x0, depth):
    """A level line exactly at the top's height slides along the top face: it touches, never enters."""
    seg = Segment((0.0, 0.0), (8.0, 0.0))
    piece = _piece(x0, x0 + depth, h)
    assert low_interval(h, h, h, False) is None and low_interval(h, h, h, True) == (0.0, 1.0)
    assert segment_clear_3d(seg, h, h, [piece], touching_blocks=False)
    assert not segment_clear_3d(seg, h, h, [piece], touching_blocks=True)


def test_the_ruling_names_the_top_edge():
    text = " ".join(LOF_GRAZING.readings.values())
    assert "top edge" in text and LOF_GRAZING.default == "touching_does_not_block"
