"""The Range Ruler follows the shortest clear LoF (Distances and Measurements › Range Ruler; Line of Fire and
Distances › Line of Fire): property tests of :func:`~explorer.games.tagraid.geometry.shortest_clear_segment` and
:func:`~explorer.games.tagraid.ranges.measure_range` against brute force over densely sampled lines."""

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from explorer.games.tagraid.geometry import (Disc, Obstacles, blocked_mask, gap_segments, sample_boundary,
                                             shortest_clear_segment)
from explorer.games.tagraid.lof import clear_segment
from explorer.games.tagraid.options import rulings
from explorer.games.tagraid.random_tables import random_table
from explorer.games.tagraid.ranges import measure_range
from explorer.hexgrid import Layout

GRAZING = ("touching_does_not_block", "touching_blocks")
PROPS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def blocked(segs: np.ndarray, obs: Obstacles, touching_blocks: bool) -> np.ndarray:
    """The LoF blocking test (touching does not block: only entering an obstacle deeper than the tolerance)."""
    geom = obs.union if touching_blocks or obs.union.is_empty else obs.union.buffer(-1e-9)
    return blocked_mask(segs, obs, touching_blocks=touching_blocks, polygon=geom)


def brute_shortest(a: Disc, b: Disc, obs: Obstacles, touching_blocks: bool, n: int = 24) -> float:
    """The shortest clear gap segment among the n*n lines through a point of a's edge and a point of b's edge
    (576 lines by default): an upper bound of the true shortest clear segment."""
    pa, pb = sample_boundary(a, n), sample_boundary(b, n)
    p = np.repeat(pa, len(pb), axis=0)
    q = np.tile(pb, (len(pa), 1))
    d = q - p
    ok = np.hypot(d[:, 0], d[:, 1]) > 1e-12
    p, d = p[ok], d[ok]
    normals = np.stack([-d[:, 1], d[:, 0]], axis=1) / np.hypot(d[:, 0], d[:, 1])[:, None]
    offsets = -np.einsum("ij,ij->i", normals, p)
    segs = gap_segments(normals, offsets, a, b)
    segs = segs[~np.isnan(segs).any(axis=1)]
    free = segs[~blocked(segs, obs, touching_blocks)]
    if len(free) == 0:
        return math.inf
    return float(np.min(np.hypot(free[:, 2] - free[:, 0], free[:, 3] - free[:, 1])))


@pytest.mark.slow
@PROPS
@given(seed=st.integers(0, 100_000), grazing=st.sampled_from(GRAZING))
def test_range_never_longer_than_sampled_clear_lines(seed, grazing):
    table = random_table(seed, radius=3, n_models=4, n_scenery=4, n_holes=3, layout=Layout())
    rul = rulings({"lof_grazing": grazing})
    tb = grazing == "touching_blocks"
    ids = sorted(table.models)
    for i, s in enumerate(ids):
        for t in ids[i + 1:]:
            a, b = table.disc(s), table.disc(t)
            if a.distance_to(b) <= 1e-6:
                continue
            _, obs, _ = clear_segment(table, s, t, rul, arc_part=False)
            seg = shortest_clear_segment(a, b, obs, touching_blocks=tb)
            brute = brute_shortest(a, b, obs, tb)
            if seg is None:
                assert brute == math.inf  # no clear line found exactly: sampling finds none either
                continue
            arr = np.array([[*seg.p0, *seg.p1]])
            assert not blocked(arr, obs, tb)[0]  # the measured segment is clear
            for p, disc in ((seg.p0, a), (seg.p1, b)):  # from edge to edge
                assert abs(math.hypot(p[0] - disc.x, p[1] - disc.y) - disc.r) < 1e-7
            assert seg.length >= a.distance_to(b) - 1e-9
            assert seg.length <= brute + 1e-9
            rng = measure_range(table, s, t, rul)
            if rng.lof.reason == "clear" and table.model(s).arc_degrees() < 360:
                # measure_range restricts nothing under the default lof_arc_part: the same shortest line
                assert abs(rng.distance - seg.length) < 1e-12


@PROPS
@given(dy=st.floats(-0.09, 0.09), eps=st.sampled_from([0.0, 1e-7, -1e-7]), grazing=st.sampled_from(GRAZING))
def test_band_is_stable_when_an_apex_moves_a_hair(dy, eps, grazing):
    """TR-22 generalised: an apex under the centre line at depth 0.1 - dy; the Range is the line touching it parallel
    to the centre line, and moving the apex by 1e-7 moves the Range by about as little (no jump to another line)."""
    from shapely.geometry import Polygon

    a, b = Disc(0.0, 0.0, 0.196), Disc(6.0, 0.0, 0.196)

    def length(e):
        apex = (3.0, -0.1 + dy + e)
        obs = Obstacles([("spire", Polygon([(2.5, 5.0), (3.5, 5.0), apex]))])
        return shortest_clear_segment(a, b, obs, touching_blocks=grazing == "touching_blocks").length

    d0, d1 = length(0.0), length(eps)
    depth = 0.1 - dy
    assert abs(d0 - (6 - 2 * math.sqrt(0.196 ** 2 - depth ** 2))) < 1e-6
    assert abs(d1 - d0) < 1e-5
