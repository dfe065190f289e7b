"""The Line of Fire fast path (issue 24) gives exactly the answers of the former scalar path.

``geometry.fast_path(False)`` runs the former code (each polygon tested on its own, unions rebuilt per query, every
feature pair's tangents computed in a loop); the fast path uses the table's :class:`PolygonIndex`, cached unions and
discs, the direction-cone filter of feature pairs and the per-table ``clear_segment`` memo. Every comparison here is
exact (witness coordinates bit for bit, candidate counts, blockers), on random tables and on degenerate ones built to
sit on a tie: lines through a single vertex, walls along the common tangent of the two bases.
"""

import math

import numpy as np
import pytest
import shapely
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from shapely import affinity
from shapely.geometry import Polygon, box

from explorer.games.tagraid import geometry as G
from explorer.games.tagraid.geometry import Disc, Obstacles, PolygonIndex, fast_path, find_clear_segment
from explorer.games.tagraid.lof import TableTop, line_of_fire, partial_cover
from explorer.games.tagraid.options import rulings
from explorer.games.tagraid.pieces import Model, Scenery
from explorer.games.tagraid.random_tables import random_table
from explorer.games.tagraid.ranges import measure_range
from explorer.hexgrid import Hex, Layout

L = Layout()
READINGS = [rulings(), rulings({"lof_grazing": "touching_blocks"}), rulings({"lof_arc_part": "seen_part_in_arc"}),
            rulings({"scenery_height": "lower_than_both_does_not_block",
                     "tileless_occupied_hexagon": "exempt"})]
PROPS = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _table(seed: int, n_models: int = 7) -> TableTop:
    return random_table(seed, radius=4, n_models=n_models, n_scenery=10, n_holes=6, scenery_size=(0.1, 1.2),
                        silhouettes=(3, 5, 7, 8), n_sides=2, layout=L)


def _lof_facts(r):
    return (r.has_lof, r.reason, r.witness, r.blocked_by, [(ray.segment, ray.blocked_by) for ray in r.rays],
            r.candidates_tested, r.in_arc, r.rulings)


def _all_answers(seed: int, fast: bool, rul) -> list:
    """Every ordered pair's LoF (explained), Range and Partial Cover on a freshly built table."""
    with fast_path(fast):
        t = _table(seed)
        ids = sorted(t.models)
        out = []
        for a in ids:
            for b in ids:
                if a == b:
                    continue
                r = rul.copy()
                lof = line_of_fire(t, a, b, r)
                out.append(_lof_facts(lof))
                if lof.has_lof:
                    rng = measure_range(t, a, b, r)
                    cov = partial_cover(t, a, b, r)
                    out.append((rng.distance, rng.band, rng.ruler, rng.measured, cov.in_cover, cov.pieces, cov.hidden_points))
                out.append(tuple(sorted(r.consulted.items())))
        return out


@PROPS
@given(st.integers(0, 2**31), st.sampled_from(range(len(READINGS))))
def test_fast_path_equals_former_path_on_random_tables(seed, k):
    assert _all_answers(seed, True, READINGS[k]) == _all_answers(seed, False, READINGS[k])


def test_the_switch_reaches_the_former_path(monkeypatch):
    """The comparison above is not vacuous: with the switch off the former loop runs, with it on it does not."""
    calls = []
    real = G._common_tangents_loop
    monkeypatch.setattr(G, "_common_tangents_loop", lambda f, g: calls.append(1) or real(f, g))
    _all_answers(3, True, READINGS[0])
    assert not calls
    _all_answers(3, False, READINGS[0])
    assert calls


def test_a_second_query_reuses_the_table_geometry():
    t = _table(11)
    ids = sorted(t.models)
    line_of_fire(t, ids[0], ids[1], rulings())
    ix = t.polygon_index()
    assert ix.tree is not None and len(ix.geoms) == len(t._scenery_polys) + len(t._hole_polys) + 1
    before = len(ix._unions)
    for b in ids[1:]:
        line_of_fire(t, ids[0], b, rulings(), explain=False)
    assert 0 < len(ix._unions) and len(ix._unions) >= before
    t2 = t.with_model(t.models[ids[0]].moved_to(t.models[ids[0]].x, t.models[ids[0]].y))
    assert t2.polygon_index() is not ix  # a new table state builds its own


# ------------------------------------------------------------------------------------ degenerate, built on a tie


def _search_both(a: Disc, b: Disc, labelled, discs, touching_blocks: bool, clip=()):
    with fast_path(False):
        slow = find_clear_segment(a, b, Obstacles(list(labelled), list(discs)), touching_blocks=touching_blocks,
                                  clip=clip)
    fast = find_clear_segment(a, b, Obstacles(list(labelled), list(discs), PolygonIndex(labelled)),
                              touching_blocks=touching_blocks, clip=clip)
    return fast, slow


def _explained_both(a: Disc, b: Disc, labelled, discs, touching_blocks: bool):
    """The explanation of a LoF verdict (rays and their blockers, the blockers across the region between the
    bases) on the former path and on the fast path (blockers of all rays in one broadcast call, the region's
    intersections and distances vectorised)."""
    from explorer.games.tagraid.lof import _explain_rays, _relevant_blockers

    out = []
    for fast in (True, False):
        with fast_path(fast):
            obs = Obstacles(list(labelled), list(discs), PolygonIndex(labelled) if fast else None)
            rays = _explain_rays(a, b, obs, touching_blocks)
            out.append(([(r.segment, r.blocked_by) for r in rays], _relevant_blockers(a, b, obs, rays)))
    _check_batch([(a, b, labelled, discs, touching_blocks), (b, a, labelled, discs, touching_blocks),
                  (a, b, labelled, discs, not touching_blocks), (b, a, labelled, [], touching_blocks)])
    return out


def _check_batch(cases) -> int:
    """lof._explain_batch over all ``(a, b, labelled, discs, touching_blocks)`` cases at once (each blocked and not
    blocked) equals _explain_rays and _relevant_blockers of each case alone on the fast path; returns how many items
    the batch answered (the others it leaves to the single path: a near tie)."""
    from explorer.games.tagraid.lof import _explain_batch, _explain_rays, _relevant_blockers

    items, want = [], []
    for a, b, labelled, discs, tb in cases:
        obs = Obstacles(list(labelled), list(discs), PolygonIndex(labelled))
        for blocked in (True, False):
            items.append((a, b, obs, tb, blocked))
            rays = _explain_rays(a, b, obs, tb)
            want.append(([(r.segment, r.blocked_by) for r in rays],
                         _relevant_blockers(a, b, obs, rays) if blocked else None))
    answered = 0
    for got, w in zip(_explain_batch(items), want):
        if got is not None:
            answered += 1
            assert ([(r.segment, r.blocked_by) for r in got[0]], got[1]) == w
    return answered


def _placed(geoms, angle: float, dx: float, dy: float):
    return [affinity.translate(affinity.rotate(g, angle, origin=(0, 0)), dx, dy) for g in geoms]


@settings(max_examples=200, deadline=None)
@given(st.floats(0.1, 0.4), st.floats(2.0, 8.0), st.floats(0.05, 0.95), st.sampled_from([0.0, 90.0, 180.0, 30.0]),
       st.integers(-20, 20), st.integers(-20, 20), st.booleans(), st.booleans())
def test_lines_through_a_single_vertex(r, dist, at, angle, dx, dy, inward, grazing):
    """A square whose corner sits exactly on the outer common tangent of two equal bases (pointing at it from
    outside, or reaching across it), with a wall hiding the centre line: the only clear lines pass by that vertex."""
    x = at * dist
    corner = Polygon([(x, r), (x - 0.3, r + 0.3), (x, r + 0.6), (x + 0.3, r + 0.3)])
    if inward:
        corner = affinity.translate(corner, 0.0, -0.05)
    wall = box(dist / 2 - 0.05, -r - 1.0, dist / 2 + 0.05, r * 0.5)
    geoms = _placed([corner, wall], angle, dx, dy)
    c = _placed([shapely.Point(0, 0), shapely.Point(dist, 0)], angle, dx, dy)
    a, b = Disc(c[0].x, c[0].y, r), Disc(c[1].x, c[1].y, r)
    labelled = [("scenery:corner", geoms[0]), ("scenery:wall", geoms[1])]
    fast, slow = _search_both(a, b, labelled, [], grazing)
    assert (fast.witness, fast.candidates_tested, fast.contact) == (slow.witness, slow.candidates_tested,
                                                                    slow.contact)
    fast_x, slow_x = _explained_both(a, b, labelled, [], grazing)
    assert fast_x == slow_x


@settings(max_examples=200, deadline=None)
@given(st.floats(0.1, 0.4), st.floats(0.1, 0.4), st.floats(2.0, 8.0), st.sampled_from([0.0, 60.0, 90.0, 45.0]),
       st.integers(-20, 20), st.integers(-20, 20), st.booleans(), st.booleans())
def test_walls_along_the_common_tangent(ra, rb, dist, angle, dx, dy, grazing, other_side):
    """Walls whose side lies along an outer common tangent of the two bases (a line running along a wall), holes
    made of touching polygons, and a blocking base in between."""
    a0, b0 = Disc(0.0, 0.0, ra), Disc(dist, 0.0, rb)
    n, c = G.common_tangents(np.array([[a0.x, a0.y, a0.r]]), np.array([[b0.x, b0.y, b0.r]]))
    outer = [(nn, cc) for nn, cc in zip(n, c) if np.sign(nn @ [a0.x, a0.y] + cc) == np.sign(nn @ [b0.x, b0.y] + cc)]
    nn, cc = outer[1 if other_side else 0]
    # a thick wall whose near side is the tangent line, from 30% to 70% of the way
    ux, uy = -nn[1], nn[0]
    p = -cc * nn
    side = -np.sign(nn @ [a0.x, a0.y] + cc)  # away from the bases
    u = np.array([ux, uy]) * np.sign(ux or 1)  # along the tangent, from A's side towards B's
    q0, q1 = p + u * 0.3 * dist, p + u * 0.7 * dist
    wall = Polygon([tuple(q0), tuple(q1), tuple(q1 + side * 0.5 * nn), tuple(q0 + side * 0.5 * nn)]).buffer(0)
    assert shapely.LineString([p, p + u * dist]).distance(wall) < 1e-9  # the wall's side lies along the tangent
    half1 = box(dist * 0.45, -0.05, dist * 0.5, 0.05)
    half2 = box(dist * 0.5, -0.05, dist * 0.55, 0.05)  # touches half1: merged for the blocking test
    geoms = _placed([wall, half1, half2], angle, dx, dy)
    cs = _placed([shapely.Point(0, 0), shapely.Point(dist, 0), shapely.Point(dist * 0.5, 0.6)], angle, dx, dy)
    a, b = Disc(cs[0].x, cs[0].y, ra), Disc(cs[1].x, cs[1].y, rb)
    labelled = [("scenery:wall", geoms[0]), ("hex:0,0", geoms[1]), ("hex:1,0", geoms[2])]
    discs = [("model:x", Disc(cs[2].x, cs[2].y, 0.2))]
    fast, slow = _search_both(a, b, labelled, discs, grazing)
    assert (fast.witness, fast.candidates_tested) == (slow.witness, slow.candidates_tested)
    fast_r, slow_r = _search_both(b, a, labelled, discs, grazing)
    assert (fast_r.witness, fast_r.candidates_tested) == (slow_r.witness, slow_r.candidates_tested)
    assert (fast.witness is None) == (fast_r.witness is None)  # symmetry of the geometric question
    fast_x, slow_x = _explained_both(a, b, labelled, discs, grazing)
    assert fast_x == slow_x and any(blocked for _, blocked in fast_x[0])  # some ray meets the wall or the base


@PROPS
@given(st.integers(0, 2**31), st.sampled_from(range(len(READINGS))))
def test_batched_explanations_equal_one_verdict_at_a_time(seed, k):
    """The explanations of every ordered pair of a random table computed in one batch (lof._explain_batch, as
    LofAnalysisCache.all_pairs does for the verdicts it recomputes) equal each verdict's own (_explain_rays,
    _relevant_blockers) bit for bit: rays, their blockers, the blockers across the region; the batch answers
    (almost) every item rather than leaving them to the single path."""
    t = _table(seed)
    rul = READINGS[k].copy()
    tb = rul.reading("lof_grazing") == "touching_blocks"
    cases = []
    for s in t.models.values():
        for u in t.models.values():
            if s.id != u.id:
                obs = t.obstacles(s, u, rul)[0]
                cases.append((t.disc(s), t.disc(u), obs.polygons, obs.discs, tb))
    assert _check_batch(cases) >= 0.9 * 2 * len(cases)


# ------------------------------------------------------------------------------------ symmetry and translation


def _shifted(t: TableTop, dq: int, dr: int) -> TableTop:
    """``t`` moved by the hex vector ``(dq, dr)`` (tiles, scenery and Models)."""
    ox, oy = L.hex_to_pixel(Hex(dq, dr))
    ms = [Model(m.id, m.x + ox, m.y + oy, m.silhouette, m.facing, m.side, m.kind) for m in t.models.values()]
    sc = [Scenery(s.id, tuple((x + ox, y + oy) for x, y in s.points), s.height) for s in t.scenery]
    tiles = {Hex(h.q + dq, h.r + dr): v for h, v in t.tiles.items()}
    return TableTop(ms, sc, tiles, L, validate=False)


@PROPS
@given(st.integers(0, 2**31), st.integers(-6, 6), st.integers(-6, 6))
def test_translation_and_symmetry_on_the_fast_path(seed, dq, dr):
    t = _table(seed, n_models=6)
    t2 = _shifted(t, dq, dr)
    rul = rulings({"lof_arc_part": "any_part"})
    ids = sorted(t.models)
    for a in ids:
        for b in ids:
            if a < b:
                r1 = line_of_fire(t, a, b, rul, explain=False)
                assert r1.has_lof == line_of_fire(t2, a, b, rul, explain=False).has_lof
                # the geometric half is symmetric: a clear segment one way is one the other way
                from explorer.games.tagraid.lof import clear_segment

                ab, _, _ = clear_segment(t, a, b, rul, arc_part=False)
                ba, _, _ = clear_segment(t, b, a, rul, arc_part=False)
                assert (ab.witness is None) == (ba.witness is None)


def test_cone_filter_never_drops_a_candidate():
    """The direction-cone filter of feature pairs keeps every candidate line of the unfiltered pairs, in order."""
    rng = np.random.default_rng(5)
    for _ in range(300):
        a = Disc(*rng.uniform(-3, 3, 2), rng.choice([0.15, 0.2, 0.3]))
        b = Disc(*(np.array([a.x, a.y]) + rng.uniform(0.8, 6, 2) * rng.choice([-1, 1], 2)), rng.choice([0.15, 0.3]))
        if a.distance_to(b) <= 0:
            continue
        k = int(rng.integers(3, 40))
        feats = np.column_stack([rng.uniform(-6, 6, (k, 2)), rng.choice([0.0, 0.0, 2e-9, 0.2], k)])
        feats[0], feats[1] = (a.x, a.y, a.r), (b.x, b.y, b.r)
        fast = G._pair_candidates(a, b, feats)
        with fast_path(False):
            slow = G._pair_candidates(a, b, feats)
        assert all(np.array_equal(x, y) for x, y in zip(fast, slow))


@pytest.mark.parametrize("seed", [0, 1])
def test_common_tangents_blocks_bit_identical(seed):
    rng = np.random.default_rng(seed)
    m = 5000
    f = np.column_stack([np.round(rng.uniform(-9, 9, (m, 2)), 1), rng.choice([0.0, 0.2, 2e-9], m)])
    g = np.column_stack([np.round(rng.uniform(-9, 9, (m, 2)), 1), rng.choice([0.0, 0.3, 2e-9], m)])
    g[:500] = f[:500]
    fast = G.common_tangents(f, g)
    slow = G._common_tangents_loop(f, g)
    for x, y in zip(fast, slow):
        assert x.shape == y.shape and np.array_equal(x.view(np.int64), y.view(np.int64))
    assert len(fast[0]) > m


def _bits(x: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(x).view(np.int64)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_batched_first_stage_bit_identical(seed):
    """The first stage of every pair built together (PolygonIndex.regions) equals the one-pair computation bit for
    bit: the same lines, the same gap segments, in the same order (so the same witness and candidate count); also on
    touching, nested-like, point and tiny bases and on integer grids where tangents sit on ties."""
    rng = np.random.default_rng(seed)
    pairs = []
    for _ in range(600):
        grid = rng.random() < 0.5
        xy = np.round(rng.uniform(-6, 6, 4), 1) if grid else rng.uniform(-6, 6, 4)
        ra, rb = rng.choice([0.0, 2e-9, 0.15, 0.3, 0.5], 2)
        pairs.append((Disc(xy[0], xy[1], ra), Disc(xy[2], xy[3], rb)))
    pairs.append((Disc(0.0, 0.0, 0.3), Disc(0.6, 0.0, 0.3)))  # touching
    pairs.append((Disc(1.0, 1.0, 0.3), Disc(1.0, 1.0, 0.2)))  # coincident centres: left to the one-pair path
    keys = list(range(len(pairs)))
    batch = G._first_stage_batch(pairs, keys)
    assert len(batch) == len(pairs) - 1
    for k, (a, b) in enumerate(pairs):
        if k not in batch:
            continue
        n, c = G._first_stage(a, b)
        one = G.gap_segments(n, c, a, b)
        one = one[~np.isnan(one).any(axis=1)]
        assert batch[k].shape == one.shape and np.array_equal(_bits(batch[k]), _bits(one))


def test_batched_regions_equal_capsule_and_tree_query():
    t = _table(4, n_models=8)
    ix = t.polygon_index()
    discs = [t.disc(m) for m in t.models.values()]
    pairs = [(a, b) for a in discs for b in discs if a is not b]
    got = ix.regions(pairs, 10 * G.TOL)
    for (a, b), (region, hits, _first) in zip(pairs, got):
        ref = G.capsule(a, b, pad=10 * G.TOL)
        assert shapely.to_wkb(region) == shapely.to_wkb(ref)
        assert np.array_equal(hits, np.sort(ix.tree.query(ref, predicate="intersects")))


@pytest.mark.parametrize("seed", [0, 1])
def test_unique_rows_equals_numpy_unique(seed):
    rng = np.random.default_rng(seed)
    for _ in range(300):
        n = int(rng.integers(0, 40))
        v = np.round(rng.uniform(-3, 3, (n, 2)), int(rng.integers(0, 3)))
        if n and rng.random() < 0.3:
            v = np.concatenate([v, v[rng.integers(0, n, n)]])
        if n and rng.random() < 0.2:
            v[0, 0] = -0.0
        got, ref = G._unique_rows(v), np.unique(v, axis=0)
        assert got.shape == ref.shape and np.array_equal(_bits(got), _bits(ref))


def _numpy_gap(a, b, f):
    """The former path's gap function of the golden-section search (tangent lines stacked, numpy all through)."""
    def gap(p):
        with fast_path(False):
            return G._gap_lengths(*G._tangent_lines(f, p[:, None]), a, b, ())[:, 0]
    return gap


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_golden_section_on_python_floats_bit_identical(seed):
    """The golden-section loop run lane by lane on Python floats (the Range Ruler's fast path) ends on the same
    angles, bit for bit, as the numpy loop, on random bases and features: brackets where the lines meet both bases,
    miss one of them (infinite lengths), straddle that edge, are tiny or wide; point and disc features; bases on
    integer grids (ties)."""
    rng = np.random.default_rng(seed)
    ratio = (math.sqrt(5) - 1) / 2
    lanes_seen = 0
    for _ in range(400):
        grid = rng.random() < 0.3
        xy = np.round(rng.uniform(-5, 5, 4), 0) if grid else rng.uniform(-5, 5, 4)
        a, b = Disc(xy[0], xy[1], float(rng.choice([0.15, 0.3, 0.5]))), Disc(xy[2], xy[3], float(rng.choice([0.0, 0.15, 0.3])))
        if a.distance_to(b) <= 0:
            continue
        m = int(rng.integers(1, G._GOLDEN_SCALAR_LANES + 1))
        mid = (np.array([a.x, a.y]) + np.array([b.x, b.y])) / 2
        f = np.column_stack([mid + rng.normal(0, 1.5, (m, 2)), rng.choice([0.0, 2e-9, 0.2], m)])
        ang = math.atan2(b.y - a.y, b.x - a.x) + math.pi / 2
        blo = ang + rng.normal(0, 0.6, m) + rng.choice([0.0, math.pi], m)
        bhi = blo + rng.choice([1e-9, 1e-3, 0.05, 0.4, 2.0], m)
        x1, x2 = bhi - ratio * (bhi - blo), blo + ratio * (bhi - blo)
        fast = G._golden_scalar(a, b, f, blo, bhi, x1, x2, ratio)
        slow = G._golden_numpy(_numpy_gap(a, b, f), blo, bhi, x1, x2, ratio)
        assert np.array_equal(_bits(fast), _bits(slow))
        lanes_seen += m
    assert lanes_seen > 2000


def test_range_ruler_equals_the_former_path_with_either_golden_loop(monkeypatch):
    """Every Range Ruler answer on random tables equals the former path's with the Python-float loop used for every
    lane count and with it never used (so both branches of the switch are compared, not just the default)."""
    for lanes in (10**6, 0):
        monkeypatch.setattr(G, "_GOLDEN_SCALAR_LANES", lanes)
        for seed in (11, 12):
            assert _all_answers(seed, True, READINGS[0]) == _all_answers(seed, False, READINGS[0])


@pytest.mark.parametrize("grazing", [False, True])
def test_batched_searches_equal_one_search_each(grazing):
    """find_clear_segments (every search of a shooter's row together) gives each search's own answer: the witness
    bit for bit, the candidate count, contact; on random tables, every ordered pair, both grazing readings."""
    rul = READINGS[1] if grazing else READINGS[0]
    n = 0
    for seed in range(12):
        t = _table(seed, n_models=8)
        ids = sorted(t.models)
        items = [(t.disc(s), t.disc(u), t.obstacles(t.models[s], t.models[u], rul.copy())[0])
                 for s in ids for u in ids if s != u]
        got = G.find_clear_segments(items, touching_blocks=grazing)
        ref = [find_clear_segment(a, b, o, touching_blocks=grazing) for a, b, o in items]
        assert [(r.witness, r.candidates_tested, r.contact) for r in got] == \
               [(r.witness, r.candidates_tested, r.contact) for r in ref]
        n += sum(r.witness is None for r in ref)
    assert n > 50  # blocked pairs, which go through the feature stage, are compared too


@pytest.mark.parametrize("grazing", [False, True])
def test_batched_range_searches_equal_one_search_each(grazing):
    """shortest_clear_segments (the Range Ruler's searches of many pairs, their golden-section loops run as one over
    every lane of every pair, geometry._golden_batch) gives each pair's shortest_clear_segment bit for bit, on random
    tables, every ordered pair with a clear line, both grazing readings; golden-section loops of several pairs were
    really batched."""
    rul = READINGS[1] if grazing else READINGS[0]
    jobs = []
    real = G._golden_batch

    def spy(js):
        jobs.append(len(js))
        return real(js)

    n = 0
    for seed in range(8):
        t = _table(seed, n_models=8)
        ids = sorted(t.models)
        items = [(t.disc(s), t.disc(u), t.obstacles(t.models[s], t.models[u], rul.copy())[0])
                 for s in ids for u in ids if s != u]
        items = [it for it, r in zip(items, G.find_clear_segments(items, touching_blocks=grazing))
                 if r.witness is not None]
        G._golden_batch = spy
        try:
            got = G.shortest_clear_segments(items, touching_blocks=grazing)
        finally:
            G._golden_batch = real
        ref = [G.shortest_clear_segment(a, b, o, touching_blocks=grazing) for a, b, o in items]
        assert got == ref
        n += len(items)
    assert n > 100 and max(jobs) > 5


def test_all_pairs_on_a_table_use_the_batched_rows(monkeypatch):
    """line_of_fire over every ordered pair of a whole table runs the shooters' rows batched (from the second search
    on: the first shooter's row, then every other row in one batch when a second shooter's row is asked) and answers
    as the former path does; a single question on a fresh table searches alone."""
    calls = []
    real = G.find_clear_segments
    import explorer.games.tagraid.lof as lof_mod
    monkeypatch.setattr(lof_mod, "find_clear_segments", lambda items, **kw: calls.append(len(items)) or real(items, **kw))
    t = _table(21, n_models=8)
    ids = sorted(t.models)
    line_of_fire(t, ids[0], ids[1], READINGS[0], explain=False)
    assert not calls
    fast = [_lof_facts(line_of_fire(t, a, b, READINGS[0], explain=False)) for a in ids for b in ids if a != b]
    # the first shooter's row, then every other shooter's row with targets in its arc, together
    assert len(calls) == 2 and calls[1] > calls[0] and sum(calls) >= 10
    with fast_path(False):
        t2 = _table(21, n_models=8)
        slow = [_lof_facts(line_of_fire(t2, a, b, READINGS[0], explain=False)) for a in ids for b in ids if a != b]
    assert fast == slow


# ------------------------------------------------------------------ session 12: the parts added (issue 24)

import sys as _sys  # noqa: E402
from pathlib import Path as _Path  # noqa: E402

_sys.path.insert(0, str(_Path(__file__).resolve().parents[2] / "benchmarks"))
import fuzz_lof_parts  # noqa: E402


@pytest.mark.parametrize("seed", [0, 1, 2, 3, 4, 5])
def test_session12_parts_equal_what_they_replace(seed):
    """On random tables (both grazing readings): the union edges read in one call equal the ring walk, the static
    pieces found for every capsule in one STRtree query equal local_table's per-pair dwithin tests, the features
    built as arrays equal the list build bit for bit, the Range Ruler searches reusing the LoF searches' set-ups
    equal one search each, and LoF equals the former path (benchmarks/fuzz_lof_parts.py runs the same checks on a
    thousand tables)."""
    counts = {k: 0 for k in ("union edges", "near static pieces", "features", "range searches",
                             "LoF pairs, fast == former")}
    assert fuzz_lof_parts.check_table(seed, counts) == []
    assert all(v > 0 for v in counts.values()), counts


def test_union_edges_of_a_polygon_with_a_hole_and_of_nothing():
    """A union with a hole: the exterior's edges then the hole's, as the ring walk gives them; an empty union and a
    line have no edges."""
    ring = box(0, 0, 4, 4).difference(box(1, 1, 2, 2)).union(box(6, 0, 7, 1))
    got = G._union_edges(ring)
    ref = fuzz_lof_parts.ring_walk_edges(ring)
    assert fuzz_lof_parts.same_edges(got, ref) and len(got[0]) == 12
    for empty in (Polygon(), shapely.LineString([(0, 0), (1, 1)])):
        assert G._union_edges(empty)[2] is None


def test_range_searches_reuse_the_lof_setups():
    """find_clear_segments(keep=) hands its set-ups to shortest_clear_segments(searches=), which then builds no
    search set-up of its own, and answers as one search at a time."""
    t = _table(3, n_models=8)
    ids = sorted(t.models)
    items = [(t.disc(s), t.disc(u), t.obstacles(t.models[s], t.models[u], READINGS[0].copy())[0])
             for s in ids for u in ids if s != u]
    keep: list = []
    found = G.find_clear_segments(items, touching_blocks=False, keep=keep)
    clear = [(it, k) for it, k, r in zip(items, keep, found) if r.witness is not None and k is not None]
    assert len(clear) > 10
    real, made = G._search_setup, []
    G._search_setup = lambda *a, **kw: made.append(1) or real(*a, **kw)
    try:
        got = G.shortest_clear_segments([it for it, _ in clear], touching_blocks=False, searches=[k for _, k in clear])
    finally:
        G._search_setup = real
    assert not made
    assert got == [G.shortest_clear_segment(a, b, o, touching_blocks=False) for (a, b, o), _ in clear]


# ---------------------------------------------------------------------------------------------- session 14 parts


@pytest.mark.parametrize("grazing", [False, True])
def test_unions_built_together_equal_one_at_a_time(grazing):
    """PolygonIndex.build_unions (every new set's union, erosion, preparation and edges in one vectorised call each)
    stores what union_of builds one set at a time: the union and the test geometry WKB for WKB, the same edges, the
    same preparation; on random tables' polygons, random sets, the empty set. The erosion's parameters matter: the
    module function's own default (quad_segs=8) would give other geometries, which this comparison sees."""
    n, other = 0, 0
    for seed in range(10):
        ix = _table(seed).polygon_index()
        rng = np.random.default_rng(seed)
        sets = [tuple(sorted(rng.choice(len(ix.geoms), size=int(rng.integers(1, min(6, len(ix.geoms)) + 1)),
                                        replace=False).tolist())) for _ in range(8)] + [()]
        labelled = list(zip(ix.labels, ix.geoms))
        ref, new = PolygonIndex(labelled), PolygonIndex(labelled)
        new.build_unions(sets, grazing, G.TOL)
        for k in sets:
            a, b = ref.union_of(k, grazing, G.TOL), new.union_of(k, grazing, G.TOL)
            assert shapely.to_wkb(a[0]) == shapely.to_wkb(b[0]) and shapely.to_wkb(a[1]) == shapely.to_wkb(b[1])
            assert fuzz_lof_parts.same_edges(a[2], b[2])
            assert shapely.is_prepared(a[1]) == shapely.is_prepared(b[1])
            n += 1
            if k and not a[0].is_empty:
                other += shapely.to_wkb(shapely.buffer(a[0], -G.TOL)) != shapely.to_wkb(G._eroded(a[0], G.TOL))
    assert n > 80 and other > 0


def _family_arcs_loop(fi, phi):
    """The former per-feature loop of _family_minima_steps (the reference of _family_arcs)."""
    fam, lo, hi = [], [], []
    for f in np.unique(fi):
        br = np.unique(np.round(np.sort(phi[fi == f]), 15))
        nxt = np.append(br[1:], br[0] + 2 * np.pi)
        keep = nxt - br > 1e-12
        fam.append(np.full(int(keep.sum()), f))
        lo.append(br[keep])
        hi.append(nxt[keep])
    return np.concatenate(fam), np.concatenate(lo), np.concatenate(hi)


@pytest.mark.parametrize("seed", [0, 1])
def test_family_arcs_equal_the_per_feature_loop(seed):
    """The arcs of every feature's family found in one lexsort are the loop's, bit for bit and in its order: random
    angles, angles on coarse grids (exact repeats), angles 1e-13 apart (equal after rounding to 15 decimals), zero."""
    rng = np.random.default_rng(seed)
    for k in range(2000):
        n = int(rng.integers(1, 50))
        fi = rng.integers(0, int(rng.integers(1, 10)), n).astype(np.intp)
        phi = rng.uniform(0, 2 * np.pi, n)
        if k % 2:
            q = float(rng.choice([4.0, 16.0, 1e6]))
            phi = np.round(phi * q) / q
        if k % 5 == 0 and n > 1:
            phi[: n // 2] = phi[n // 2: 2 * (n // 2)] + rng.choice([0.0, 1e-13, 1e-16], n // 2)
        if k % 7 == 0:
            phi[0] = 0.0
        for x, y in zip(G._family_arcs(fi, phi), _family_arcs_loop(fi, phi)):
            assert x.dtype == y.dtype and x.shape == y.shape and np.array_equal(_bits(x), _bits(y))


def _golden_jobs(rng, n_jobs):
    from types import SimpleNamespace

    ratio = (math.sqrt(5) - 1) / 2
    jobs = []
    while len(jobs) < n_jobs:
        xy = np.round(rng.uniform(-5, 5, 4), 0) if rng.random() < 0.3 else rng.uniform(-5, 5, 4)
        a = Disc(xy[0], xy[1], float(rng.choice([0.15, 0.3, 0.5])))
        b = Disc(xy[2], xy[3], float(rng.choice([0.0, 0.15, 0.3, 1.5])))
        if a.distance_to(b) <= 0:
            continue
        m = int(rng.integers(1, 12))
        mid = (np.array([a.x, a.y]) + np.array([b.x, b.y])) / 2
        f = np.column_stack([mid + rng.normal(0, 1.5, (m, 2)), rng.choice([0.0, 2e-9, 0.2], m)])
        ang = math.atan2(b.y - a.y, b.x - a.x) + math.pi / 2
        blo = ang + rng.normal(0, 0.6, m) + rng.choice([0.0, math.pi], m)
        bhi = blo + rng.choice([1e-9, 1e-3, 0.05, 0.4, 2.0], m)
        jobs.append((a, b, f, blo, bhi))
    sizes = [len(j[2]) for j in jobs]
    f = np.concatenate([j[2] for j in jobs])
    ga = SimpleNamespace(**{k: np.repeat([getattr(j[0], k) for j in jobs], sizes).astype(float) for k in "xyr"})
    gb = SimpleNamespace(**{k: np.repeat([getattr(j[1], k) for j in jobs], sizes).astype(float) for k in "xyr"})
    blo, bhi = np.concatenate([j[3] for j in jobs]), np.concatenate([j[4] for j in jobs])
    return f, ga, gb, blo, bhi, bhi - ratio * (bhi - blo), blo + ratio * (bhi - blo), ratio


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_golden_lanes_bit_identical_to_the_numpy_loop(seed):
    """The batched golden-section loop with fewer numpy calls (_golden_lanes) ends on the same angles, bit for bit, as
    _golden_numpy with _lane_gap, over many lanes of many bases (lines meeting both bases, missing one, tiny and wide
    brackets, point and disc features, bases on integer grids); a one-ulp change of the starting points changes
    some answer (so the comparison can fail)."""
    rng = np.random.default_rng(seed)
    moved = 0
    for _ in range(150):
        f, ga, gb, blo, bhi, x1, x2, ratio = _golden_jobs(rng, int(rng.integers(1, 8)))
        ref = G._golden_numpy(G._lane_gap(f, ga, gb), blo, bhi, x1, x2, ratio)
        assert np.array_equal(_bits(G._golden_lanes(f, ga, gb, blo, bhi, x1, x2, ratio)), _bits(ref))
        moved += not np.array_equal(_bits(G._golden_lanes(f, ga, gb, blo, bhi, np.nextafter(x1, np.inf), x2, ratio)),
                                    _bits(ref))
    assert moved > 0


def test_unique_rows_on_every_path():
    """_unique_rows equals np.unique(axis=0) bit for bit on the Python path (up to 64 rows), the lexsort path and
    np.unique itself: duplicates, zeros, -0.0, infinities, NaN, 0 to 100 rows."""
    rng = np.random.default_rng(7)
    for k in range(3000):
        n = int(rng.integers(0, 100))
        v = rng.integers(-3, 4, (n, 2)).astype(float) * float(rng.choice([1.0, 0.5, 1 / 3]))
        if k % 3 == 0:
            v = np.concatenate([v, v[: n // 2]])
        if n and k % 7 == 0:
            v[0, 0] = -0.0
        if n and k % 11 == 0:
            v[-1, 1] = np.inf
        if n and k % 13 == 0:
            v[0, 1] = np.nan
        got, ref = G._unique_rows(v), np.unique(v, axis=0)
        assert got.shape == ref.shape and got.tobytes() == ref.tobytes()


def test_pair_candidates_rows_equal_one_search_each():
    """_pair_candidates_rows (every search's tangent lines regrouped by one stable sort) gives each search's
    _pair_candidates, bit for bit, on random bases and features (points and discs, searches of 0 to 14 features)."""
    rng = np.random.default_rng(3)
    n = 0
    for _ in range(300):
        items = []
        for _ in range(int(rng.integers(1, 8))):
            a = Disc(*rng.uniform(-5, 5, 2), float(rng.uniform(0.2, 0.8)))
            b = Disc(*rng.uniform(-5, 5, 2), float(rng.uniform(0.2, 0.8)))
            k = int(rng.integers(0, 14))
            extra = np.column_stack([rng.uniform(-5, 5, (k, 2)), rng.choice([0.0, 0.0, 0.3], k)])
            items.append((a, b, np.concatenate([[[a.x, a.y, a.r], [b.x, b.y, b.r]], extra])))
        for (a, b, feats), (n2, c2) in zip(items, G._pair_candidates_rows(items)):
            rn, rc = G._pair_candidates(a, b, feats)
            assert n2.shape == rn.shape and np.array_equal(_bits(n2), _bits(rn))
            assert np.array_equal(_bits(c2), _bits(rc))
            n += len(rn)
    assert n > 1000


def test_rulings_copies_share_the_key_until_a_reading_is_set():
    r = rulings()
    c = r.copy()
    assert c.key() == tuple(sorted(r.as_dict().items())) and c.key() is r.key()
    c.set("lof_grazing", "touching_blocks")
    assert c.key() == tuple(sorted(c.as_dict().items())) and c.key() != r.key()
    assert r.key() == tuple(sorted(r.as_dict().items()))


def _clipped_gap(a, b, f, clip):
    """The gap function a clipped search's golden-section loop ran before clipped searches were batched (the fast
    path's: the lines as ``p + t·u``, the clip applied by _gap_params_xy)."""
    fx, fy, fr = f[:, 0], f[:, 1], f[:, 2]

    def gap(p):
        nx, ny = np.cos(p), np.sin(p)
        px, py, ux, uy, ta, tb, bad = G._gap_params_xy(nx, ny, fr - nx * fx - ny * fy, a, b, clip)
        g = np.hypot((px + tb * ux) - (px + ta * ux), (py + tb * uy) - (py + ta * uy))
        g[bad] = np.inf
        return g
    return gap


def _random_clip(rng, a, b):
    """No clip, a half-plane or a wedge through ``a``'s centre (lof.arc_clips), restricting the target or, as a
    ClipBoth, both ends."""
    from explorer.games.tagraid.lof import arc_clips

    kind = int(rng.integers(0, 4))
    if kind == 0:
        return ()
    facing = math.degrees(math.atan2(b.y - a.y, b.x - a.x)) + float(rng.normal(0, 60))
    arc = float(rng.choice([90.0, 120.0, 180.0, 270.0]))
    alts = arc_clips((a.x, a.y), facing, arc)
    c = tuple(tuple(h) for h in alts[int(rng.integers(0, len(alts)))])
    return G.ClipBoth(c, c) if kind == 3 else c


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_clipped_golden_jobs_batched_bit_identical_to_each_alone(seed):
    """Golden-section jobs of clipped searches (the Range Ruler under lof_arc_part = seen_part_in_arc or
    lof_shooter_arc = front_half), batched with unclipped ones and with each other (_golden_batch: each lane its own
    half-planes, padded), end on the same angles, bit for bit, as each job's former loop (_golden_numpy with the
    clipped gap function); _golden_one of a clipped job too. Some clipped jobs end elsewhere without their clip (so a
    batch that dropped the half-planes would fail the comparison)."""
    rng = np.random.default_rng(seed)
    ratio = (math.sqrt(5) - 1) / 2
    moved = clipped = 0
    for _ in range(60):
        jobs, refs = [], []
        for _ in range(int(rng.integers(1, 7))):
            f, ga, gb, blo, bhi, x1, x2, _ = _golden_jobs(rng, 1)
            a, b = Disc(ga.x[0], ga.y[0], ga.r[0]), Disc(gb.x[0], gb.y[0], gb.r[0])
            clip = _random_clip(rng, a, b)
            clipped += bool(clip)
            jobs.append((a, b, f, blo, bhi, x1, x2, ratio, clip))
            refs.append(G._golden_numpy(_clipped_gap(a, b, f, clip), blo, bhi, x1, x2, ratio))
        for got, ref in zip(G._golden_batch(jobs), refs):
            assert np.array_equal(_bits(got), _bits(ref))
        for job, ref in zip(jobs, refs):
            if job[8]:
                assert np.array_equal(_bits(G._golden_one(job)), _bits(ref))
                a, b, f, blo, bhi, x1, x2 = job[:7]
                free = G._golden_numpy(_clipped_gap(a, b, f, ()), blo, bhi, x1, x2, ratio)
                moved += not np.array_equal(_bits(free), _bits(ref))
    assert clipped > 60 and moved > 0


@pytest.mark.parametrize("grazing", [False, True])
def test_clipped_searches_batched_equal_one_search_each(grazing):
    """find_clear_segments and shortest_clear_segments with clips (the searches the arc readings clip: a half-plane
    or a wedge on the target, or a ClipBoth on both ends, mixed with unclipped ones in one batch) give each search's
    own answer: witness bit for bit, candidate count, contact; the Range Ruler's segment bit for bit. Blocked
    searches (the feature stage) and clipped searches whose answer differs from the unclipped one are among them
    (so a batch that dropped the clips would fail)."""
    rul = READINGS[1] if grazing else READINGS[0]
    rng = np.random.default_rng(5)
    blocked = differs = 0
    for seed in range(10):
        t = _table(seed, n_models=8)
        ids = sorted(t.models)
        items, clips = [], []
        for s in ids:
            for u in ids:
                if s != u:
                    a, b = t.disc(s), t.disc(u)
                    items.append((a, b, t.obstacles(t.models[s], t.models[u], rul.copy())[0]))
                    clips.append(_random_clip(rng, a, b))
        got = G.find_clear_segments(items, touching_blocks=grazing, clips=clips)
        ref = [find_clear_segment(a, b, o, touching_blocks=grazing, clip=c) for (a, b, o), c in zip(items, clips)]
        assert [(r.witness, r.candidates_tested, r.contact) for r in got] == \
               [(r.witness, r.candidates_tested, r.contact) for r in ref]
        free = [find_clear_segment(a, b, o, touching_blocks=grazing) for a, b, o in items]
        blocked += sum(r.witness is None for r in ref)
        differs += sum(bool(c) and (r.witness, r.candidates_tested) != (f.witness, f.candidates_tested)
                       for r, f, c in zip(ref, free, clips))
        keep = [(it, c) for it, c, r in zip(items, clips, ref) if r.witness is not None and not r.contact]
        rng_got = G.shortest_clear_segments([it for it, _ in keep], touching_blocks=grazing, clips=[c for _, c in keep])
        rng_ref = [G.shortest_clear_segment(a, b, o, touching_blocks=grazing, clip=c) for (a, b, o), c in keep]
        assert rng_got == rng_ref
    assert blocked > 50 and differs > 50
