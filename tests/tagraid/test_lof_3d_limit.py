"""Line of Fire between Models at different heights: where the answer is a search, not a proof (issue 22).

The named limit ``lof_3d_search`` (docs/limits.md): with a piece whose top lies between the two Silhouettes' tops
across the plan, a "no LoF" verdict comes from testing candidate lines (sampled points of both bases and the lines
grazing each top corner); every other verdict is exact. These tests pin where the answer is flagged, that the flag
reaches the words, the JSON and the page, and that the flagged verdict agrees with a dense search here.
"""

from __future__ import annotations

import numpy as np

from explorer.games.tagraid.elevation import segments_clear_3d
from explorer.games.tagraid.lof import LIMIT_3D_SEARCH, TableTop, line_of_fire
from explorer.games.tagraid.pieces import Model, Scenery

TOWER = Scenery("tower", ((-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)), 2.0)
WALL = Scenery("wall", ((3.4, -1.0), (3.5, -1.0), (3.5, 1.0), (3.4, 1.0)), 1.0)


def _table(ax: float, *pieces: Scenery) -> TableTop:
    return TableTop([Model("A", ax, 0.0, 3, 0.0, "A", on="tower"), Model("G", 4.0, 0.0, 3, 180.0, "B")],
                    [TOWER, *(pieces or (WALL,))])


def test_blocked_by_a_piece_between_the_tops_is_flagged_not_proved():
    """A (S3) in the middle of a tower 2 high cannot see down past the tower's own edge to G on the ground beyond
    a wall 1 high: both pieces' tops lie between the two Silhouettes' tops, so the verdict is the sampled stage's
    and says so (exact False, the limit named in the detail and the step's facts)."""
    r = line_of_fire(_table(0.0), "A", "G")
    assert not r.has_lof and r.reason == "blocked" and r.exact is False
    assert LIMIT_3D_SEARCH in r.detail and "Not proved" in r.detail
    step = r.to_step()
    assert step.facts["exact"] is False and step.facts["limit"] == LIMIT_3D_SEARCH


def test_flagged_verdict_agrees_with_a_dense_search():
    """The truth in this configuration is 'no LoF': no line of 160 x 160 random top-to-top pairs (the tops are the
    best points of each volume, elevation.py) is clear, checked with the exact per-line test."""
    t = _table(0.0)
    rng = np.random.default_rng(7)
    a, g = t.disc(t.model("A")), t.disc(t.model("G"))

    def pts(d, n):
        ang, rr = rng.uniform(0, 2 * np.pi, n), d.r * np.sqrt(rng.uniform(0, 1, n))
        return np.stack([d.x + rr * np.cos(ang), d.y + rr * np.sin(ang)], axis=1)

    pa, pg = pts(a, 160), pts(g, 160)
    segs = np.concatenate([np.repeat(pa, len(pg), axis=0), np.tile(pg, (len(pa), 1))], axis=1)
    prisms, _ = t.prisms(t.model("A"), t.model("G"), __import__("explorer.games.tagraid.options",
                                                                fromlist=["rulings"]).rulings())
    assert not segments_clear_3d(segs, t.top(t.model("A")), t.top(t.model("G")), prisms, touching_blocks=False).any()


def test_exact_verdicts_are_not_flagged():
    """From the tower's edge A sees G past the tower's own edge (a checked clear line found by the same sampled
    stage: exact); a low wall lower than both tops is never met (exact); a flat table is never flagged."""
    r = line_of_fire(_table(0.8, Scenery("low", ((3.4, -1.0), (3.5, -1.0), (3.5, 1.0), (3.4, 1.0)), 0.2)), "A", "G")
    assert r.has_lof and r.exact is True and LIMIT_3D_SEARCH not in r.detail
    flat = TableTop([Model("A", 0.0, 0.0, 3, 0.0, "A"), Model("G", 4.0, 0.0, 3, 180.0, "B")], [WALL])
    f = line_of_fire(flat, "A", "G")
    assert not f.has_lof and f.exact is True and "exact" not in f.to_step().facts


def test_limit_reaches_the_words_json_and_page():
    from types import SimpleNamespace

    from explorer.games.tagraid.lof_picture import verdict_table_html
    from explorer.games.tagraid.lof_report import verdict_line, verdict_to_dict

    r = line_of_fire(_table(0.0), "A", "G")
    v = SimpleNamespace(target="G", lof=r, range=None, cover=None, hex_distance=3, threat=None, rules=(), band=None,
                        mod=None)
    assert f"not proved: limit {LIMIT_3D_SEARCH}" in verdict_line(v, "A")
    assert verdict_to_dict(v)["lof"]["limit"] == LIMIT_3D_SEARCH
    assert "lof-limit" in verdict_table_html([v], "A")


# ---------------------------------------------------------------------------------------------- the bound, proved
# A "no LoF" under the limit comes with ``resolution`` (delta): every line joining two net points was tested. The
# certificate checked below: a plan segment p -> q whose low parts (fractions fixed by the heights alone) keep a plan
# distance m from every footprint stays clear when each end moves by at most m, so if any pair has m > delta + TOL,
# the net pair next to it is clear and the verdict must be "LoF". The brute force computes m exactly (shapely
# distances) for dense random pairs of both bases.

import math  # noqa: E402

import pytest  # noqa: E402
import shapely  # noqa: E402
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from explorer.games.tagraid.elevation import low_interval, net_points, segment_clear_3d  # noqa: E402
from explorer.games.tagraid.geometry import TOL, Disc  # noqa: E402
from explorer.games.tagraid.options import rulings  # noqa: E402


def _disc_points(d: Disc, n: int, rng) -> np.ndarray:
    ang, rr = rng.uniform(0, 2 * np.pi, n), d.r * np.sqrt(rng.uniform(0, 1, n))
    edge = np.linspace(0, 2 * np.pi, n // 4, endpoint=False)
    return np.concatenate([np.stack([d.x + rr * np.cos(ang), d.y + rr * np.sin(ang)], axis=1),
                           np.stack([d.x + d.r * np.cos(edge), d.y + d.r * np.sin(edge)], axis=1)])


def _margins(segs: np.ndarray, ta: float, tb: float, prisms, touching_blocks: bool) -> np.ndarray:
    """For each plan segment, the least plan distance from a low part of it to that piece's footprint (0 when it
    crosses one): the certificate of the comment above."""
    m = np.full(len(segs), np.inf)
    for pr in prisms:
        iv = low_interval(ta, tb, pr.height, touching_blocks)
        if iv is None:
            continue
        t0, t1 = iv
        p, d = segs[:, :2], segs[:, 2:] - segs[:, :2]
        a, b = p + t0 * d, p + t1 * d
        lines = shapely.linestrings(np.stack([a, b], axis=1))
        if pr.polygon is not None:
            m = np.minimum(m, shapely.distance(lines, pr.polygon))
        if pr.disc is not None:
            c = shapely.points(pr.disc.x, pr.disc.y)
            m = np.minimum(m, np.maximum(shapely.distance(lines, c) - pr.disc.r, 0.0))
    return m


@st.composite
def _towers(draw):
    """A Model on a tower and a Model on the ground beyond one or two walls lower than the higher top; either may
    shoot (looking down or up)."""
    th = draw(st.floats(0.8, 3.0), label="tower height")
    tower = Scenery("tower", ((-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)), th)
    r = 1 / 7
    ax, ay = draw(st.floats(-1 + r, 1 - r), label="A x"), draw(st.floats(-1 + r, 1 - r), label="A y")
    gx, gy = draw(st.floats(2.6, 5.0), label="G x"), draw(st.floats(-1.5, 1.5), label="G y")
    walls = []
    for k in range(draw(st.integers(1, 2), label="walls")):
        wx = draw(st.floats(1.05, gx - 0.3), label=f"wall {k} x")
        wy = draw(st.floats(-1.5, 1.5), label=f"wall {k} y")
        half = draw(st.floats(0.05, 1.2), label=f"wall {k} half length")
        h = draw(st.floats(0.1, th + 0.3), label=f"wall {k} height")
        walls.append(Scenery(f"wall{k}", ((wx, wy - half), (wx + 0.1, wy - half), (wx + 0.1, wy + half),
                                          (wx, wy + half)), h))
    if draw(st.booleans(), label="slit"):   # a tall wall with a narrow slit: few lines get through
        sx, sy = draw(st.floats(1.3, gx - 0.4), label="slit x"), draw(st.floats(-1.0, 1.0), label="slit y")
        gap = draw(st.floats(0.005, 0.15), label="slit width")
        walls += [Scenery("slit-lo", ((sx, -3.0), (sx + 0.05, -3.0), (sx + 0.05, sy), (sx, sy)), 9.0),
                  Scenery("slit-hi", ((sx, sy + gap), (sx + 0.05, sy + gap), (sx + 0.05, 3.0), (sx, 3.0)), 9.0)]
    table = TableTop([Model("A", ax, ay, 3, 0.0, "A", on="tower"), Model("G", gx, gy, 3, 180.0, "B")],
                     [tower, *walls])
    shooter = draw(st.sampled_from(["A", "G"]), label="shooter")
    grazing = draw(st.sampled_from(["touching_does_not_block", "touching_blocks"]), label="lof_grazing")
    return table, shooter, "G" if shooter == "A" else "A", rulings({"lof_grazing": grazing})


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=_towers(), seed=st.integers(0, 2**16))
def test_no_lof_never_hides_a_line_with_a_margin_over_the_resolution(case, seed):
    """Property against a dense brute force (about 48,000 pairs of points of the two bases, margins exact): a "no
    LoF" verdict that is exact has no clear pair at all; one under the limit has no pair whose margin exceeds its
    stated resolution; a "LoF" verdict's witness is clear."""
    table, s, t, rul = case
    r = line_of_fire(table, s, t, rul)
    ms, mt = table.model(s), table.model(t)
    prisms, _ = table.prisms(ms, mt, rul)
    ta, tb = table.top(ms), table.top(mt)
    touching = rul.reading("lof_grazing") == "touching_blocks"
    if r.has_lof:
        if r.reason == "clear":
            assert segment_clear_3d(r.witness, ta, tb, prisms, touching_blocks=touching)
        return
    assert r.reason == "blocked"
    rng = np.random.default_rng(seed)
    pa, pb = _disc_points(table.disc(ms), 200, rng), _disc_points(table.disc(mt), 200, rng)
    segs = np.concatenate([np.repeat(pa, len(pb), axis=0), np.tile(pb, (len(pa), 1))], axis=1)
    if r.exact:
        assert not segments_clear_3d(segs, ta, tb, prisms, touching_blocks=touching).any()
    else:
        assert r.resolution is not None and r.resolution == pytest.approx(1 / 7 / 8)
        worst = float(_margins(segs, ta, tb, prisms, touching).max())
        assert worst <= r.resolution + TOL, (worst, r.resolution)


@settings(max_examples=60, deadline=None)
@given(cx=st.floats(-2, 2), cy=st.floats(-2, 2), rad=st.floats(0.05, 1.0), k=st.integers(2, 16),
       planes=st.lists(st.tuples(st.floats(-math.pi, math.pi), st.floats(-1.2, 1.2)), max_size=2),
       seed=st.integers(0, 2**16))
def test_net_points_cover_the_base_within_delta(cx, cy, rad, k, planes, seed):
    """Every point of a base cut by up to two half-planes lies within delta of a net point, and every net point lies
    in that region (what the bound above rests on)."""
    d, delta = Disc(cx, cy, rad), rad / k
    clip = tuple((math.cos(a), math.sin(a), -(math.cos(a) * cx + math.sin(a) * cy) + off * rad) for a, off in planes)
    net = net_points(d, delta, clip)
    rng = np.random.default_rng(seed)
    x = _disc_points(d, 4000, rng)
    for hx, hy, hc in clip:
        x = x[hx * x[:, 0] + hy * x[:, 1] + hc >= 0]
        if len(net):
            assert (hx * net[:, 0] + hy * net[:, 1] + hc >= -1e-9).all()
    if len(net):
        assert (np.hypot(net[:, 0] - cx, net[:, 1] - cy) <= rad + 1e-9).all()
    if len(x):
        assert len(net)
        near = np.min(np.hypot(x[:, None, 0] - net[None, :, 0], x[:, None, 1] - net[None, :, 1]), axis=1)
        assert near.max() <= delta + 1e-9


def test_the_bound_is_stated_in_the_words_facts_json_and_page():
    """The tower case: the detail, the step's facts, the verdict line, the JSON and the page cell give the
    resolution (1/8 of the base radius, 1/7 hex unit: 0.018)."""
    from types import SimpleNamespace

    from explorer.games.tagraid.lof_picture import verdict_table_html
    from explorer.games.tagraid.lof_report import verdict_line, verdict_to_dict

    r = line_of_fire(_table(0.0), "A", "G")
    assert r.resolution == pytest.approx(1 / 56) and "within 0.018 hex units of every point" in r.detail
    assert r.to_step().facts["resolution"] == pytest.approx(1 / 56, abs=1e-6)
    v = SimpleNamespace(target="G", lof=r, range=None, cover=None, hex_distance=3, threat=None, rules=(), band=None,
                        mod=None)
    assert "no clear line with a margin over 0.018 hex units" in verdict_line(v, "A")
    assert verdict_to_dict(v)["lof"]["resolution"] == pytest.approx(1 / 56, abs=1e-6)
    assert "margin over 0.018 hex units" in verdict_table_html([v], "A")


def _chord(p, u, c, r):
    """Where the line ``p + t u`` (``u`` a unit vector) meets the circle ``(c, r)``: ``(t0, t1)``."""
    d = p - c
    b = d @ u
    s = np.sqrt(max(b * b - (d @ d - r * r), 0.0))
    return -b - s, -b + s


def test_a_clear_line_stays_clear_from_its_best_chord_ends():
    """The reduction docs/limits.md states for an exact 3D search (issue 22, session 15): for a clear top-to-top
    plan segment p -> q, the segment on the same line from the far end of the shooter's chord to the near end of the
    target's (sight line rising), or from the near end to the far end (falling), is clear too: every in-between
    piece's crossing point (1 - s) p + s q only moves away from the piece. Random towers, walls and positions, both
    directions (A on the tower shooting down, G on the ground shooting up); every clear random segment checked."""
    from explorer.games.tagraid.options import rulings

    rng = np.random.default_rng(3)
    checked = 0
    for _ in range(20):
        th = float(rng.uniform(0.6, 2.5))
        pieces = [Scenery("tower", ((-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)), th)]
        for k in range(int(rng.integers(1, 4))):
            x0, y0, w = float(rng.uniform(1.3, 3.3)), float(rng.uniform(-1.5, 1.0)), float(rng.uniform(0.05, 0.5))
            pieces.append(Scenery(f"w{k}", ((x0, y0), (x0 + w, y0), (x0 + w, y0 + float(rng.uniform(0.2, 1.5))),
                                            (x0, y0 + 0.3)), float(rng.uniform(0.1, th + 0.8))))
        t = TableTop([Model("A", float(rng.uniform(-0.7, 0.7)), float(rng.uniform(-0.5, 0.5)), 3, 0.0, "A", on="tower"),
                      Model("G", 4.0, float(rng.uniform(-0.6, 0.6)), 3, 180.0, "B")], pieces)
        for s_id, g_id in (("A", "G"), ("G", "A")):
            s, g = t.model(s_id), t.model(g_id)
            a, b = t.disc(s), t.disc(g)
            ta, tb = t.top(s), t.top(g)
            prisms, _ = t.prisms(s, g, rulings())

            def pts(d, n):
                ang, rr = rng.uniform(0, 2 * np.pi, n), d.r * np.sqrt(rng.uniform(0, 1, n))
                return np.stack([d.x + rr * np.cos(ang), d.y + rr * np.sin(ang)], axis=1)

            pa, pb = pts(a, 40), pts(b, 40)
            segs = np.concatenate([np.repeat(pa, len(pb), axis=0), np.tile(pb, (len(pa), 1))], axis=1)
            ok = segments_clear_3d(segs, ta, tb, prisms, touching_blocks=False)
            best = []
            for sg in segs[ok]:
                p, q = sg[:2], sg[2:]
                u = (q - p) / np.linalg.norm(q - p)
                a0, a1 = _chord(p, u, np.array([a.x, a.y]), a.r)
                b0, b1 = _chord(p, u, np.array([b.x, b.y]), b.r)
                lo, hi = (a0, b0) if tb > ta else (a1, b1)
                best.append([*(p + lo * u), *(p + hi * u)])
            if best:
                assert segments_clear_3d(np.array(best), ta, tb, prisms, touching_blocks=False).all()
                checked += len(best)
    assert checked > 5_000  # the configurations do have clear lines to check
