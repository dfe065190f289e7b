"""The incremental LoF analysis (lof_analysis.LofAnalysisCache): after any sequence of moves, turns, declared Moves,
ruling flips and Range Ruler edits its verdicts equal a fresh analysis; it recomputes only what changed; and its
local tables give the former whole-table analysis's verdicts."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from explorer.errors import ScenarioError
from explorer.games.tagraid.lof import line_of_fire
from explorer.games.tagraid.lof_analysis import LofAnalysisCache, _reference_analyse, analyse
from explorer.games.tagraid.lof_views import LOF_RULING_KEYS, LofExplorer, default_lof_scenario, table_with_models
from explorer.games.tagraid.options import rulings as tag_rulings
from explorer.games.tagraid.random_tables import random_table
from explorer.games.tagraid.ranges import RangeCalibration

OPTIONS = tag_rulings().options

action = st.one_of(
    st.tuples(st.just("move"), st.integers(0, 5), st.floats(-1.5, 1.5), st.floats(-1.5, 1.5)),
    st.tuples(st.just("turn"), st.integers(0, 5), st.sampled_from([-90.0, -15.0, -1.0, 1.0, 15.0, 45.0, 180.0])),
    st.tuples(st.just("declare_move"), st.integers(0, 5)),
    st.tuples(st.just("flip"), st.sampled_from(LOF_RULING_KEYS), st.integers(0, 3)),
    st.tuples(st.just("ruler"), st.sampled_from([1.0, 2.5, 3.5, 6.0])),
)


def _apply(table, rul, cal, act):
    """One user action; returns (table, calibration, the Model id it touched or None). Illegal moves are skipped."""
    kind = act[0]
    ids = list(table.models)
    if kind in ("move", "turn", "declare_move"):
        mid = ids[act[1] % len(ids)]
        m = table.models[mid]
        if kind == "move":
            m = m.moved_to(m.x + act[2], m.y + act[3])
        elif kind == "turn":
            m = replace(m, facing=(m.facing + act[2]) % 360.0)
        else:
            m = replace(m, declared_move=not m.declared_move)
        try:
            return table_with_models(table, {**table.models, mid: m}), cal, mid
        except ScenarioError:
            return table, cal, mid
    if kind == "flip":
        readings = list(OPTIONS[act[1]].readings)
        rul.set(act[1], readings[act[2] % len(readings)])
        return table, cal, None
    return table, RangeCalibration(act[1], 3.5, 3.5), None


def _fresh(table, shooter, rul, cal):
    r = rul.copy()
    return analyse(table, shooter, r, cal), r.consulted


def _dense_table(seed: int):
    """Six Models close together among scenery and hexagons without tile: many bases block, touch or graze."""
    return random_table(seed, radius=3, n_models=6, n_scenery=4, n_holes=3, n_sides=2, scenery_size=(0.3, 1.0),
                        scenery_height=(0.1, 1.0), silhouettes=(3, 5, 7, 8))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10_000), st.lists(st.integers(0, 3), min_size=len(LOF_RULING_KEYS),
                                        max_size=len(LOF_RULING_KEYS)),
       st.lists(action, min_size=2, max_size=6))
@pytest.mark.slow
def test_incremental_verdicts_equal_a_fresh_analysis_after_random_actions(seed, readings, actions):
    table = _dense_table(seed)
    cache, rul, cal = LofAnalysisCache(), tag_rulings(), RangeCalibration()
    for key, i in zip(LOF_RULING_KEYS, readings):
        rul.set(key, list(OPTIONS[key].readings)[i % len(OPTIONS[key].readings)])
    ids = list(table.models)
    cache.all_pairs(table, rul, cal)
    for act in actions:
        table, cal, touched = _apply(table, rul, cal, act)
        shooter = touched or ids[0]
        r = rul.copy()
        got = cache.analyse(table, shooter, r, cal)
        want, consulted = _fresh(table, shooter, rul, cal)
        assert got == want, act
        assert r.consulted == consulted
    r = rul.copy()
    assert cache.all_pairs(table, r, cal) == LofAnalysisCache().all_pairs(table, rul.copy(), cal)


def _small_table():
    return random_table(3, radius=5, n_models=6, n_scenery=6, n_holes=5, n_sides=2, scenery_size=(0.3, 1.2))


def test_moving_one_model_recomputes_only_pairs_near_it():
    table = _small_table()
    cache, rul = LofAnalysisCache(), tag_rulings()
    cache.all_pairs(table, rul)
    n_pairs = len(table.models) * (len(table.models) - 1)
    first = cache.computed
    assert first >= n_pairs
    # nothing changed: everything reused
    cache.all_pairs(table, rul)
    assert cache.computed == first
    # move one Model a little: its own pairs recompute, plus pairs whose capsule it touches
    mid = next(iter(table.models))
    m = table.models[mid]
    moved = None
    for dx, dy in ((0.05, 0.0), (-0.05, 0.0), (0.0, 0.05), (0.0, -0.05)):
        try:
            moved = table_with_models(table, {**table.models, mid: m.moved_to(m.x + dx, m.y + dy)})
            break
        except ScenarioError:
            continue
    assert moved is not None
    before = cache.computed
    got = cache.all_pairs(moved, rul)
    recomputed = cache.computed - before
    assert 0 < recomputed < first
    assert got == LofAnalysisCache().all_pairs(moved, tag_rulings())


def test_a_ruling_flip_recomputes_only_what_consulted_it():
    table = _small_table()
    cache, rul = LofAnalysisCache(), tag_rulings()
    cache.all_pairs(table, rul)
    done = cache.computed
    # no MegaBeast on this table: nothing consults megabeast_corner_side
    rul.set("megabeast_corner_side", [k for k in OPTIONS["megabeast_corner_side"].readings
                                      if k != rul.reading("megabeast_corner_side")][0])
    cache.all_pairs(table, rul)
    assert cache.computed == done
    # range_measurement: only the Ranges (pairs with LoF) recompute
    with_lof = sum(1 for v in cache.all_pairs(table, rul).values() if v.lof.has_lof)
    assert with_lof > 0
    rul.set("range_measurement", "edge_to_edge")
    got = cache.all_pairs(table, rul)
    assert cache.computed - done == with_lof
    assert got == LofAnalysisCache().all_pairs(table, rul.copy())
    # flipping back reuses the earlier results
    rul.set("range_measurement", OPTIONS["range_measurement"].default)
    cache.all_pairs(table, rul)
    assert cache.computed - done == with_lof


def test_turning_a_model_reuses_pairs_whose_arc_verdict_is_unchanged():
    table = _small_table()
    cache, rul = LofAnalysisCache(), tag_rulings()
    mid = next(iter(table.models))
    cache.analyse(table, mid, rul)
    done = cache.computed
    m = table.models[mid]
    turned = table_with_models(table, {**table.models, mid: replace(m, facing=(m.facing + 1.0) % 360)})
    got = cache.analyse(turned, mid, rul)
    assert cache.computed - done < len(table.models) - 1
    assert got == analyse(turned, mid, tag_rulings())


def test_megabeast_turns_and_threat_levels_on_the_quarry():
    sc = default_lof_scenario()
    ex = LofExplorer(sc)
    mb = next(m.id for m in ex.models.values() if m.kind == "megabeast")
    miner = next(m.id for m in ex.models.values() if m.kind == "miner")
    ex.set_shooter(miner)
    for step in (lambda: ex.rotate_model(mb, 1), lambda: ex.set_shooter(mb), lambda: ex.rotate_model(mb, -1),
                 lambda: ex._on_ruling("megabeast_corner_side", list(OPTIONS["megabeast_corner_side"].readings)[-1]),
                 lambda: ex.set_shooter(miner)):
        step()
        assert ex.verdicts == analyse(ex.table, ex.shooter, ex.rulings.copy(), ex.calibration, ex.weapon, ex.threat)


def _same_as_reference(new, old):
    for a, b in zip(new, old, strict=True):
        assert a.target == b.target and a.hex_distance == b.hex_distance
        for f in ("has_lof", "reason", "witness", "blocked_by", "rays", "in_arc", "arc_degrees", "detail", "rule"):
            assert getattr(a.lof, f) == getattr(b.lof, f), (a.target, f)
        # a local table consults only the readings that can matter there (e.g. no hexagon without tile near)
        assert set(a.lof.rulings.items()) <= set(b.lof.rulings.items())
        assert a.blocked_rays == b.blocked_rays and a.threat == b.threat
        assert (a.cover is None) == (b.cover is None)
        if a.cover is not None:
            assert (a.cover.in_cover, a.cover.pieces, a.cover.hidden_points, a.cover.touching, a.cover.detail) == \
                (b.cover.in_cover, b.cover.pieces, b.cover.hidden_points, b.cover.touching, b.cover.detail)
        assert (a.range is None) == (b.range is None)
        if a.range is not None:
            # the Range search on a local table tries the candidate lines of the features near the pair only: its
            # shortest clear line is never shorter than the whole table's, and in practice the same or very close
            assert a.band == b.band and a.mod == b.mod
            assert 0 <= a.range.distance - b.range.distance < 1e-2


@pytest.mark.slow
def test_local_tables_give_the_former_whole_table_verdicts_on_the_quarry():
    sc = default_lof_scenario()
    table = sc.table()
    for shooter in (sc.shooter, "Peeker"):
        r_new, r_old = tag_rulings(), tag_rulings()
        new = analyse(table, shooter, r_new, sc.calibration, sc.weapon, sc.threat)
        old = _reference_analyse(table, shooter, r_old, sc.calibration, sc.weapon, sc.threat)
        _same_as_reference(new, old)
        assert set(r_new.consulted.items()) <= set(r_old.consulted.items())


def test_local_tables_give_the_former_whole_table_verdicts_on_a_random_table():
    table = _small_table()
    for shooter in list(table.models)[:2]:
        _same_as_reference(analyse(table, shooter), _reference_analyse(table, shooter))


def test_explorer_without_cache_is_the_former_full_recompute():
    ex = LofExplorer(incremental=False)
    assert ex.analysis_cache is None
    fast = LofExplorer()
    _same_as_reference(fast.verdicts, ex.verdicts)


def test_turning_under_seen_part_in_arc_recomputes_the_clipped_search():
    from explorer.games.tagraid.lof import TableTop
    from explorer.games.tagraid.pieces import Model

    # b's centre is just outside a's 180° arc (facing 0: x >= 0), part of its base inside: only that part counts
    table = TableTop([Model("a", 0.0, 0.0, 5, facing=0.0), Model("b", -0.15, 3.0, 5, side="B")])
    rul = tag_rulings({"lof_arc_part": "seen_part_in_arc"})
    cache = LofAnalysisCache()
    before = cache.analyse(table, "a", rul.copy())[0]
    for turn in (4.0, -4.0, 2.0):
        a = table.models["a"]
        table = table_with_models(table, {**table.models, "a": replace(a, facing=(a.facing + turn) % 360)})
        got = cache.analyse(table, "a", rul.copy())[0]
        assert got == analyse(table, "a", rul.copy())[0]
    assert got.lof.has_lof and before.lof.has_lof
    # the part of b in the arc moved, so did the Range Ruler's shortest line to it
    assert got.range.measured != before.range.measured


def test_near_others_keeps_every_base_that_can_touch_a_segment_between_the_two():
    from explorer.games.tagraid.lof import TableTop
    from explorer.games.tagraid.lof_analysis import NEAR, _Pieces
    from explorer.games.tagraid.pieces import Model

    s, t = Model("s", 0.0, 0.0, 8), Model("t", 6.0, 0.0, 3, side="B")
    probe = TableTop([s, t])
    rs, rm = probe.disc(s).r, probe.disc(Model("m", 0, 0, 5)).r
    for dy, inside in ((rs + rm - 0.01, True), (rs + rm + NEAR / 2, True), (rs + rm + 2 * NEAR, False)):
        table = TableTop([s, t, Model("m", 3.0, dy, 5, side="C")], validate=False)
        assert bool(_Pieces(table).near_others(s, t)) is inside, dy
    # a base grazing the outer tangent of the two bases blocks a line the fresh analysis must see
    table = TableTop([s, t, Model("m", 3.0, rs + rm - 0.05, 5, side="C"), Model("n", 3.0, -rs - rm + 0.05, 5)])
    _same_as_reference(analyse(table, "s"), _reference_analyse(table, "s"))


def _all_pairs_facts(got):
    out = []
    for k, v in sorted(got.items()):
        lof = v.lof
        out.append((k, lof.has_lof, lof.reason, lof.witness, lof.blocked_by, lof.candidates_tested,
                    [(r.segment, r.blocked_by) for r in lof.rays], list(v.blocked_rays),
                    v.range and (v.range.distance, v.range.measured, v.range.ruler), v.cover and v.cover.in_cover))
    return out


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10_000), st.lists(st.integers(0, 3), min_size=len(LOF_RULING_KEYS),
                                        max_size=len(LOF_RULING_KEYS)),
       st.lists(action, min_size=1, max_size=4))
def test_batched_all_pairs_equal_the_former_path_after_random_actions(seed, readings, actions):
    """LofAnalysisCache.all_pairs on the fast path (the missing pairs' searches batched before the verdicts,
    lof_analysis.LofAnalysisCache._batch_searches) gives, after every action, the former path's answers
    (geometry.fast_path(False): one search at a time, nothing batched): witnesses, candidate counts, explanatory and
    cut rays, Range and Partial Cover, bit for bit."""
    from explorer.games.tagraid.geometry import fast_path

    answers = {}
    for fast in (True, False):
        with fast_path(fast):
            table = _dense_table(seed)
            rul = tag_rulings({k: list(OPTIONS[k].readings)[i % len(OPTIONS[k].readings)]
                               for k, i in zip(LOF_RULING_KEYS, readings)})
            cal = RangeCalibration()
            cache = LofAnalysisCache()
            seq = [_all_pairs_facts(cache.all_pairs(table, rul.copy(), cal))]
            for act in actions:
                table, cal, _ = _apply(table, rul, cal, act)
                seq.append(_all_pairs_facts(cache.all_pairs(table, rul.copy(), cal)))
            answers[fast] = seq
    assert answers[True] == answers[False]


def test_all_pairs_batches_the_missing_searches(monkeypatch):
    """The batch is really used: a cold all_pairs runs one batched call covering many searches, and a move batches
    only searches of pairs whose LoF is not cached."""
    from explorer.games.tagraid import geometry

    calls = []
    real = geometry.find_clear_segments
    monkeypatch.setattr(geometry, "find_clear_segments", lambda items, **kw: calls.append(len(items)) or real(items, **kw))
    table = _dense_table(3)
    cache = LofAnalysisCache()
    cache.all_pairs(table, tag_rulings())
    assert len(calls) == 1 and calls[0] >= 10
    mid = next(iter(table.models))
    m = table.models[mid]
    for dx in (0.05, -0.05, 0.1, -0.1):
        try:
            moved = table_with_models(table, {**table.models, mid: m.moved_to(m.x + dx, m.y)})
            break
        except ScenarioError:
            continue
    cache.all_pairs(moved, tag_rulings())
    assert len(calls) == 2 and 0 < calls[1] < calls[0]


move_only = st.tuples(st.just("move"), st.integers(0, 5), st.floats(-1.5, 1.5), st.floats(-1.5, 1.5))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10_000), st.lists(st.integers(0, 3), min_size=len(LOF_RULING_KEYS),
                                        max_size=len(LOF_RULING_KEYS)),
       st.lists(st.one_of(move_only, move_only, action), min_size=1, max_size=5))
def test_all_pairs_by_dependency_equal_a_fresh_analysis(seed, readings, actions):
    """all_pairs after a Model moves recomputes only the pairs the move can change (its own, and those whose
    corridor its old or new base comes near: lof_analysis._dirty_pairs) and reuses the rest from the previous call:
    after every action the verdicts (rays, Range, Cover) and the readings consulted equal a fresh cache's."""
    table = _dense_table(seed)
    rul = tag_rulings({k: list(OPTIONS[k].readings)[i % len(OPTIONS[k].readings)]
                       for k, i in zip(LOF_RULING_KEYS, readings)})
    cal = RangeCalibration()
    cache = LofAnalysisCache()
    cache.all_pairs(table, rul.copy(), cal)
    for act in actions:
        table, cal, _ = _apply(table, rul, cal, act)
        r_inc, r_fresh = rul.copy(), rul.copy()
        got = cache.all_pairs(table, r_inc, cal)
        want = LofAnalysisCache().all_pairs(table, r_fresh, cal)
        assert _all_pairs_facts(got) == _all_pairs_facts(want), act
        assert got == want, act
        assert list(r_inc.consulted.items()) == list(r_fresh.consulted.items())


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10_000), st.lists(st.integers(0, 3), min_size=len(LOF_RULING_KEYS),
                                        max_size=len(LOF_RULING_KEYS)),
       st.lists(st.one_of(move_only, move_only, action), min_size=1, max_size=5), st.integers(0, 2))
def test_lazy_all_pairs_equal_the_eager_analysis(seed, readings, actions, read_when):
    """all_pairs(lazy=True) after every action: each LazyVerdict's LoF verdict is the eager verdict's (has_lof,
    reason, witness, arc, candidates) and, once read, every part (explanation, cut rays, Range, Cover) equals a
    fresh eager analysis's, whether the parts are read at once, one action later (after the cache moved on, a
    ruling flipped or the Range Ruler changed) or never; the readings the verdicts consulted are the eager ones'
    minus those only the deferred parts read."""
    from explorer.games.tagraid.lof_analysis import LazyVerdict

    table = _dense_table(seed)
    rul = tag_rulings({k: list(OPTIONS[k].readings)[i % len(OPTIONS[k].readings)]
                       for k, i in zip(LOF_RULING_KEYS, readings)})
    cal = RangeCalibration()
    cache = LofAnalysisCache()
    pending = []
    for act in [("flip", LOF_RULING_KEYS[0], 0)] + list(actions):
        table, cal, _ = _apply(table, rul, cal, act)
        r_lazy, r_fresh = rul.copy(), rul.copy()
        got = cache.all_pairs(table, r_lazy, cal, lazy=True)
        want = LofAnalysisCache().all_pairs(table, r_fresh, cal)
        assert got.keys() == want.keys()
        for k, v in got.items():
            assert isinstance(v, LazyVerdict)
            w = want[k].lof
            lv = v.lof_verdict
            assert (lv.has_lof, lv.reason, lv.witness, lv.in_arc, lv.arc_degrees, lv.rule, lv.candidates_tested) == (
                w.has_lof, w.reason, w.witness, w.in_arc, w.arc_degrees, w.rule, w.candidates_tested), (act, k)
            assert v.hex_distance == want[k].hex_distance
        assert set(r_lazy.consulted.items()) <= set(r_fresh.consulted.items())
        if read_when == 0:
            assert _all_pairs_facts(got) == _all_pairs_facts(want), act
            assert got == want and want == got
            assert all(v.filled for v in got.values())
        elif read_when == 1:
            pending.append((got, want))
    for got, want in pending:  # read one or more actions later
        assert _all_pairs_facts(got) == _all_pairs_facts(want)
        assert got == want


def test_a_move_reuses_the_pairs_far_from_it_and_recomputes_the_corridors_it_crosses():
    from explorer.games.tagraid.lof import TableTop
    from explorer.games.tagraid.lof_analysis import _dirty_pairs, _Pieces
    from explorer.games.tagraid.pieces import Model

    # a and b far apart with an empty corridor; c and d elsewhere; m (base radius 1/7, like a and b) moves from
    # beside c into the a-b corridor, 0.2 from its axis: its base overlaps the capsule
    ms = [Model("a", 0.0, 0.0, 3), Model("b", 6.0, 0.0, 3, side="B"), Model("c", 0.0, 6.0, 3),
          Model("d", 6.0, 6.0, 3, side="B"), Model("m", 3.0, 8.0, 3, side="C")]
    before = TableTop(ms)
    after = table_with_models(before, {**before.models, "m": before.models["m"].moved_to(3.0, 0.2)})
    dirty = _dirty_pairs(list(after.models.values()), list(before.models.values()), _Pieces(after))
    ids = list(after.models)
    pair = lambda x, y: dirty[ids.index(x), ids.index(y)]  # noqa: E731
    assert pair("a", "b") and pair("b", "a")          # m's new base is in their corridor
    assert pair("m", "a") and pair("c", "m")          # m's own pairs
    assert not pair("a", "c") and not pair("b", "d")  # far from both of m's places
    assert pair("c", "d") == pair("d", "c")           # m's old place: near the c-d corridor or not, both ways
    # and the cache really keeps the clean pairs: their verdicts are the previous call's
    cache = LofAnalysisCache()
    cache.all_pairs(before, tag_rulings())
    reused = cache.reused
    got = cache.all_pairs(after, tag_rulings())
    assert cache.reused - reused >= int((~dirty).sum()) - len(ids)  # every clean ordered pair at least
    assert got == LofAnalysisCache().all_pairs(after, tag_rulings())
    # moving it back out of the corridor: its old place (in the corridor) still marks a-b
    back = table_with_models(after, {**after.models, "m": after.models["m"].moved_to(3.0, 8.0)})
    dirty = _dirty_pairs(list(back.models.values()), list(after.models.values()), _Pieces(back))
    assert pair("a", "b")


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10_000), st.booleans())
def test_cut_rays_in_one_batch_equal_one_verdict_at_a_time(seed, grazing):
    """lof_analysis._cut_rays_batch (every blocked verdict's ray/obstacle intersections in one GEOS call, as
    all_pairs fills them) gives each verdict's _cut_rays exactly: the same first hits, points and obstacles."""
    from explorer.games.tagraid.lof import line_of_fire
    from explorer.games.tagraid.lof_analysis import _cut_rays, _cut_rays_batch

    table = _dense_table(seed)
    rul = tag_rulings({"lof_grazing": "touching_blocks"} if grazing else {})
    jobs = [(table, lof) for s in table.models for t in table.models
            if s != t and not (lof := line_of_fire(table, s, t, rul.copy())).has_lof]
    got = _cut_rays_batch(jobs)
    assert got == [_cut_rays(tb, lof) for tb, lof in jobs]
    assert len(got) == len(jobs)


# ----------------------------------------------------------------------------------------------------- ruling flips

FLIP_KEYS = LOF_RULING_KEYS + ("lof_shooter_arc", "elevation_own_piece")
"""Every reading the LoF analysis consults: the explorer's, plus lof_shooter_arc (looked at unconsulted at its
default) and elevation_own_piece."""


def _flipped(rul, key: str, i: int):
    """``rul`` with ``key`` at its ``i``-th reading (mod the count); ``lof_shooter_arc = front_half`` and ``lof_arc_part
    = seen_part_in_arc`` together are not built, so setting one of them puts the other back to its default."""
    readings = list(OPTIONS[key].readings)
    out = rul.copy()
    clash = {"lof_shooter_arc": "lof_arc_part", "lof_arc_part": "lof_shooter_arc"}.get(key)
    if clash:
        out.set(clash, OPTIONS[clash].default)
    out.set(key, readings[i % len(readings)])
    return out


def _same_as_exact_path(table, got, rul) -> None:
    """``got`` (all_pairs) against the exact full path: every shooter's former whole-table analysis with the fast
    path off (geometry.fast_path(False): each polygon on its own, nothing batched or cached)."""
    from explorer.games.tagraid.geometry import fast_path

    with fast_path(False):
        for s in table.models:
            _same_as_reference([got[(s, t)] for t in table.models if t != s], _reference_analyse(table, s, rul.copy()))


flip_or_move = st.one_of(
    st.tuples(st.just("move"), st.integers(0, 5), st.floats(-1.5, 1.5), st.floats(-1.5, 1.5)),
    st.tuples(st.just("flip"), st.sampled_from(FLIP_KEYS), st.integers(0, 3)),
)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10_000), st.lists(flip_or_move, min_size=2, max_size=5))
def test_all_pairs_after_moves_and_ruling_flips_equals_a_full_recompute_and_the_exact_path(seed, actions):
    """Moves and ruling flips in any order (every reading the analysis consults, lof_shooter_arc included): after each
    one all_pairs (the pairs kept from the previous call, the local tables and their searches kept across calls)
    equals a full recompute with a fresh cache, verdicts and readings consulted; at the end it also agrees with the
    exact full path (whole table, fast path off). Bigger runs: benchmarks/bench_lof_fast.py --flips."""
    table = _dense_table(seed)
    rul, cal = tag_rulings(), RangeCalibration()
    cache = LofAnalysisCache()
    cache.all_pairs(table, rul.copy(), cal)
    for act in actions:
        if act[0] == "flip":
            rul = _flipped(rul, act[1], act[2])
        else:
            table, cal, _ = _apply(table, rul, cal, act)
        r_inc, r_fresh = rul.copy(), rul.copy()
        got = cache.all_pairs(table, r_inc, cal)
        want = LofAnalysisCache().all_pairs(table, r_fresh, cal)
        assert _all_pairs_facts(got) == _all_pairs_facts(want), act
        assert got == want, act
        assert list(r_inc.consulted.items()) == list(r_fresh.consulted.items()), act
    _same_as_exact_path(table, got, rul)


@pytest.mark.parametrize("key", FLIP_KEYS)
def test_flipping_a_ruling_and_back_gives_the_full_recompute_answers(key):
    """Flip one reading, then flip it back: each answer equals a full recompute (a fresh cache) and the exact path;
    the flip decides again only the results that consulted the reading, and the flip back decides nothing again
    (every answer of the first reading is still kept)."""
    table = _dense_table(7)
    base = tag_rulings()
    cache = LofAnalysisCache()
    first = cache.all_pairs(table, base.copy())
    consulted_it = sum(key in dict(consulted) for _, consulted in cache._last.pairs.values())
    done = cache.computed
    other = _flipped(base, key, list(OPTIONS[key].readings).index(base.reading(key)) + 1)
    r = other.copy()
    flipped = cache.all_pairs(table, r)
    assert flipped == LofAnalysisCache().all_pairs(table, other.copy())
    _same_as_exact_path(table, flipped, other)
    after_flip = cache.computed
    assert after_flip - done <= 3 * len(first)
    if consulted_it == 0 and key != "lof_shooter_arc":
        assert after_flip == done  # nothing read it: nothing decided again
    else:
        assert after_flip > done
    r_back = base.copy()
    back = cache.all_pairs(table, r_back)
    assert back == first == LofAnalysisCache().all_pairs(table, base.copy())
    assert cache.computed == after_flip  # flipping back: every answer kept
    r_fresh = base.copy()
    LofAnalysisCache().all_pairs(table, r_fresh)
    assert list(r_back.consulted.items()) == list(r_fresh.consulted.items())


def test_a_flip_nothing_read_keeps_every_pair_without_building_keys(monkeypatch):
    """A ruling no verdict consulted (mod_cap: a MOD cap, never read by LoF, Range or Cover): all_pairs keeps every
    pair of its previous call as it is, without building a single pair key or local table."""
    table = _small_table()
    cache, rul = LofAnalysisCache(), tag_rulings()
    first = cache.all_pairs(table, rul.copy())
    built = []
    monkeypatch.setattr(LofAnalysisCache, "_pair_key", lambda *a: built.append(a) or pytest.fail("key built"))
    rul.set("mod_cap", [k for k in OPTIONS["mod_cap"].readings if k != rul.reading("mod_cap")][0])
    assert cache.all_pairs(table, rul.copy()) == first
    assert built == []


def test_a_height_rule_that_leaves_the_same_obstacles_searches_nothing_again(monkeypatch):
    """scenery_height on a table whose scenery is all tall: both readings leave the same polygons, so the flip shares
    the obstacle template, and every clear-segment search (batched or alone) of the first reading serves the
    second; only the readings recorded in the answers change. Equal to a full recompute."""
    from explorer.games.tagraid import geometry

    table = random_table(3, radius=5, n_models=6, n_scenery=6, n_holes=5, n_sides=2, scenery_size=(0.3, 1.2),
                         scenery_height=None)
    cache, rul = LofAnalysisCache(), tag_rulings()
    cache.all_pairs(table, rul.copy())
    searched = []
    real_many, real_one = geometry.find_clear_segments, geometry.find_clear_segment
    monkeypatch.setattr(geometry, "find_clear_segments", lambda items, **kw: searched.extend(items)
                        or real_many(items, **kw))
    monkeypatch.setattr(geometry, "find_clear_segment", lambda *a, **kw: searched.append(a) or real_one(*a, **kw))
    import explorer.games.tagraid.lof as lof_mod

    monkeypatch.setattr(lof_mod, "find_clear_segment", geometry.find_clear_segment)
    rul.set("scenery_height", "lower_than_both_does_not_block")
    got = cache.all_pairs(table, rul.copy())
    assert searched == []
    monkeypatch.undo()
    assert got == LofAnalysisCache().all_pairs(table, rul.copy())
    assert any(v.lof.rulings.get("scenery_height") == "lower_than_both_does_not_block" for v in got.values())


def test_a_table_asked_whole_table_questions_first_gives_the_same_verdicts():
    """Regression (order-dependent verdicts): the fast path's obstacle cache of a table is an attribute that a copy
    shares, and a pair's local table is such a copy. Once the whole table had answered a LoF question, every local
    table built from it took the obstacles of the first local table that asked (Stoorworm -> Crawler came out clear
    through rocks 1 and 4, once a Miner had asked on the whole table), and the process-wide analysis cache of the
    page then kept that verdict. The same table
    must give the same verdict objects whatever was asked of it before."""
    sc = default_lof_scenario()
    shooter = next(m.id for m in sc.table().models.values() if m.kind == "megabeast")

    def fresh():
        return analyse(sc.table(), shooter, tag_rulings(), sc.calibration, sc.weapon, sc.threat)

    reference = fresh()
    assert any(not v.lof.has_lof and any(b.startswith("scenery:") for b in v.lof.blocked_by) for v in reference)
    warmed = sc.table()
    miner = next(m.id for m in warmed.models.values() if m.kind == "miner")
    for t in warmed.models:  # a Miner's whole-table questions first: they start the table's own obstacle cache
        if t != miner:
            line_of_fire(warmed, miner, t)
    assert analyse(warmed, shooter, tag_rulings(), sc.calibration, sc.weapon, sc.threat) == reference
    assert fresh() == reference


@pytest.mark.parametrize("arc_readings", [{"lof_arc_part": "seen_part_in_arc"},
                                          {"lof_shooter_arc": "front_half"},
                                          {"lof_arc_part": "seen_part_in_arc", "lof_shooter_arc": "front_half"}])
def test_clipped_range_rulers_batched_equal_one_pair_at_a_time(monkeypatch, arc_readings):
    """Under the arc readings (the target's part in the arc, the shooter's front half, both) all_pairs measures the
    Range Ruler of every clipped pair in one batch (lof_analysis.LofAnalysisCache._batch_clipped_ranges, one
    geometry.shortest_clear_segments call with clips), and every verdict (LoF, rays, Range, Partial Cover) equals the
    one measured pair by pair (lof_analysis._BATCH_RANGES off), on dense random tables and after a ruling flip to
    the readings on a warm cache."""
    from explorer.games.tagraid import geometry, lof_analysis

    real = geometry.shortest_clear_segments
    clipped_calls = []

    def spy(items, **kw):
        if kw.get("clips") is not None:
            clipped_calls.append(sum(bool(c) for c in kw["clips"]))
        return real(items, **kw)

    batched_pairs = 0
    for seed in range(6):
        table = random_table(seed, radius=4, n_models=8, n_scenery=6, n_holes=4, n_sides=2,
                             scenery_size=(0.3, 1.0), scenery_height=None, silhouettes=(3, 5, 7, 8))
        answers = {}
        for batched in (True, False):
            monkeypatch.setattr(lof_analysis, "_BATCH_RANGES", batched)
            monkeypatch.setattr(geometry, "shortest_clear_segments", spy if batched else real)
            cold = LofAnalysisCache().all_pairs(table, tag_rulings(arc_readings), RangeCalibration())
            warm_cache = LofAnalysisCache()
            warm_cache.all_pairs(table, tag_rulings(), RangeCalibration())
            warm = warm_cache.all_pairs(table, tag_rulings(arc_readings), RangeCalibration())
            answers[batched] = (_all_pairs_facts(cold), _all_pairs_facts(warm))
        assert answers[True] == answers[False]
        assert answers[True][0] == answers[True][1]
        batched_pairs += sum(1 for f in answers[True][0] if f[-2] is not None)
    assert clipped_calls and max(clipped_calls) >= 5 and batched_pairs > 50
