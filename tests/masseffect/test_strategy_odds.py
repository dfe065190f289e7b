"""Exact Strategy Roll odds against brute-force enumeration (small pools, exact Fractions), against the step
functions themselves (every d6 script up to a depth), against Monte Carlo through the step functions (large pools,
within a confidence bound), and hypothesis properties."""

from __future__ import annotations

import itertools
import json
import math
from collections import Counter
from fractions import Fraction
from functools import lru_cache

import pytest
from hypothesis import given, settings, strategies as st

from explorer.dice import ScriptedRoller, SeededRoller
from explorer.errors import DiceScriptExhausted, ScenarioError
from explorer.games.masseffect.options import rulings
from explorer.games.masseffect.strategy import (
    ACTION_FACES, FACES, Die, Face, Space, begin_strategy_roll, fill_spaces, icons_showing, lock_die, strategy_roll)
from explorer.games.masseffect.strategy_odds import (
    FULL_SPACES, expected_rounds, expected_triggers, final_counts, p_at_least_one, p_can_fill, pool_counts,
    rounds_cdf, strategy_odds_table, trigger_dist, triggers_cdf, triggers_pmf)

SIXTH = Fraction(1, 6)


# -- an independent oracle: follow the rule literally, enumerating every face of every roll --------------------------

@lru_cache(maxsize=None)
def oracle(n: int, kmax: int) -> dict:
    """``{(final counts, triggers): probability}`` for ``n`` dice, all triggers ``<= kmax``, by enumerating the 6^n
    faces of each roll and recursing into the re-roll of the icons (the rule's loop, no formula)."""
    out: dict = {}
    if n == 0:
        return {((0,) * 5, 0): Fraction(1)}
    w = SIXTH ** n
    for faces in itertools.product(FACES, repeat=n):
        icons = faces.count(Face.CORE)
        if icons > kmax:
            continue
        here = tuple(faces.count(f) for f in ACTION_FACES)
        for (counts, k), p in oracle(icons, kmax - icons).items():
            key = (tuple(a + b for a, b in zip(here, counts)), k + icons)
            out[key] = out.get(key, 0) + w * p
    return out


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_formulas_equal_brute_force_enumeration(n):
    kmax = 6 if n <= 3 else 4
    brute = oracle(n, kmax)
    fc = final_counts(n, exact=True)
    for counts in fc:
        for k in range(kmax + 1):
            assert brute.get((counts, k), 0) == fc[counts] * triggers_pmf(n, k, exact=True), (counts, k)
    # the brute force has no other outcomes
    assert set(c for c, _ in brute) <= set(fc)


def test_engine_step_functions_equal_the_formulas_by_exhaustive_scripts():
    """Run strategy_roll on every d6 script (branching whenever the roller asks for a die) up to n + kmax dice:
    the engine's own outcomes add up to the exact joint distribution."""
    for n, kmax in ((1, 4), (2, 3), (3, 2)):
        got: dict = {}

        def explore(prefix):
            st0, _ = begin_strategy_roll("Tali", True, tuple(Die(f"S{i + 1}") for i in range(n)))
            try:
                st1, _ = strategy_roll(st0, ScriptedRoller(prefix, max_face=6))
            except DiceScriptExhausted:
                if len(prefix) < n + kmax:
                    for v in range(1, 7):
                        explore(prefix + [v])
                return
            key = (tuple(st1.faces().count(f) for f in ACTION_FACES), st1.triggers)
            got[key] = got.get(key, 0) + SIXTH ** len(prefix)

        explore([])
        for counts, p in final_counts(n, exact=True).items():
            for k in range(kmax + 1):
                assert got.get((counts, k), 0) == p * triggers_pmf(n, k, exact=True), (n, counts, k)


def test_fill_probability_equals_enumeration_of_final_faces():
    r = rulings()
    for rolled, locked in ((3, None), (4, None), (5, "enhanced"), (4, "move_2_or_standard"), (5, None)):
        total = Fraction(0)
        for faces in itertools.product(ACTION_FACES, repeat=rolled):
            allf = list(faces) + ([Face(locked)] if locked else [])
            if fill_spaces(allf, FULL_SPACES, r) is not None:
                total += Fraction(1, 5 ** rolled)
        pool = rolled + (locked is not None)
        assert p_can_fill(FULL_SPACES, pool, locked, exact=True) == total
    assert p_can_fill(FULL_SPACES, 2, exact=True) == 0  # three spaces need three dice


def test_closed_forms():
    assert p_at_least_one("enhanced", 6, exact=True) == 1 - Fraction(4, 5) ** 6
    assert p_at_least_one("enhanced", 6, "enhanced", exact=True) == 1
    assert p_at_least_one("core", 6, exact=True) == 0
    assert triggers_pmf(12, 0, exact=True) == Fraction(5, 6) ** 12
    assert expected_triggers(12, exact=True) == Fraction(12, 5)
    # E[T] from the pmf (long sum) agrees with t/5
    assert abs(sum(k * triggers_pmf(7, k) for k in range(200)) - 7 / 5) < 1e-12
    assert abs(sum(1 - rounds_cdf(5, r) for r in range(0, 200)) - float(expected_rounds(5, exact=True))) < 1e-12
    assert rounds_cdf(3, 1, exact=True) == Fraction(5, 6) ** 3
    # a locked die is not rolled: pool 6 with a lock behaves as 5 rolled dice plus a fixed face
    t = strategy_odds_table(6, "enhanced")
    assert t["rolled"] == 5 and t["triggers"]["expected"]["exact"] == "1"
    assert t["faces"]["enhanced"]["expected_count"]["exact"] == "2"


def test_paragon_and_locked_icon_readings_in_odds():
    base = strategy_odds_table(3, None, paragon=1)
    assert base["rolled"] == 4 and base["triggering_dice"] == 4
    no = strategy_odds_table(3, None, paragon=1, rulings=rulings({"paragon_core_icon": "rerolled_without_trigger"}))
    assert no["rolled"] == 4 and no["triggering_dice"] == 3
    with pytest.raises(ScenarioError, match="locked"):
        strategy_odds_table(4, "core")
    trig = strategy_odds_table(4, "core", rulings=rulings({"locked_die_icon": "triggers_and_rerolls"}))
    assert trig["rolled"] == 4 and trig["triggers"]["pmf"]["0"]["exact"] == "0"
    assert Fraction(trig["triggers"]["expected"]["exact"]) == 1 + Fraction(4, 5)
    strict = strategy_odds_table(3, None, rulings=rulings({"dual_face_in_move_space": "standard_only"}))
    assert strict["p_fill_move_standard_enhanced"]["float"] < strategy_odds_table(3, None)[
        "p_fill_move_standard_enhanced"]["float"]


def test_table_is_json_and_bounded():
    t = strategy_odds_table(12, None, max_triggers=5)
    json.dumps(t)
    assert set(t["triggers"]["pmf"]) == {"0", "1", "2", "3", "4", "5"}
    total = sum(Fraction(v["exact"]) for v in t["triggers"]["pmf"].values())
    total += Fraction(t["triggers"]["p_more"]["exact"])
    assert total == 1 and t["total_counts"]["exact"] == "1"
    for bad in ({"pool": 0}, {"pool": 13}, {"pool": 3, "paragon": 3}, {"pool": 3, "locked": "bogus"},
                {"pool": 3, "max_triggers": 99}):
        kw = dict(bad)
        with pytest.raises(ScenarioError):
            strategy_odds_table(kw.pop("pool"), kw.pop("locked", None), **kw)


# -- Monte Carlo through the step functions ----------------------------------------------------------------------

def _simulate(pool: int, locked: str | None, runs: int, seed: int):
    roller = SeededRoller(seed)
    rr = rulings()
    dice = tuple(Die(f"S{i + 1}", Face(locked) if (locked and i == 0) else None) for i in range(pool))
    trig, enh, fill, zero, counts = [], 0, 0, 0, Counter()
    for _ in range(runs):
        st0, _ = begin_strategy_roll("Garrus", locked is None, dice)
        if locked:
            st0, _ = lock_die(st0, "S1", rr)
        st1, _ = strategy_roll(st0, roller, rulings=rr)
        faces = st1.faces()
        trig.append(st1.triggers)
        zero += st1.triggers == 0
        enh += Face.ENHANCED in faces
        fill += fill_spaces(faces, FULL_SPACES, rr) is not None
        counts.update(faces)
    return trig, enh, fill, zero, counts


def _close(hits: int, runs: int, p: float, z: float = 4.5) -> bool:
    return abs(hits / runs - p) <= z * math.sqrt(p * (1 - p) / runs) + 1e-9


@pytest.mark.parametrize("pool, locked", [(12, None), (6, "standard")])
def test_monte_carlo_through_step_functions(pool, locked):
    runs = 2000
    trig, enh, fill, zero, counts = _simulate(pool, locked, runs, seed=pool)
    t = strategy_odds_table(pool, locked)
    m = t["rolled"]
    mean = sum(trig) / runs
    var = m * (1 / 6) / (5 / 6) ** 2  # negative binomial variance
    assert abs(mean - t["triggers"]["expected"]["float"]) <= 4.5 * math.sqrt(var / runs)
    assert _close(zero, runs, t["triggers"]["pmf"]["0"]["float"])
    assert _close(enh, runs, t["p_at_least_one_enhanced"]["float"])
    assert _close(fill, runs, t["p_fill_move_standard_enhanced"]["float"])
    assert counts[Face.CORE] == 0
    for f in ACTION_FACES:  # each rolled die ends on each Action face with probability 1/5
        fixed = locked is not None and Face(locked) is f
        assert _close(counts[f] - fixed * runs, runs * m, 1 / 5)


# -- properties --------------------------------------------------------------------------------------------------

@settings(max_examples=60, deadline=None)
@given(pool=st.integers(1, 12), paragon=st.integers(0, 2), lock=st.booleans(), seed=st.integers(0, 10**6),
       face=st.sampled_from(ACTION_FACES))
def test_roll_properties(pool, paragon, lock, seed, face):
    dice = tuple(Die(f"S{i + 1}", face) for i in range(pool)) + tuple(
        Die(f"P{i + 1}", face, paragon=True) for i in range(paragon))
    st0, _ = begin_strategy_roll("Wrex", not lock, dice)
    if lock:
        st0, _ = lock_die(st0, "S1")
    st1, steps = strategy_roll(st0, SeededRoller(seed))
    assert not icons_showing(st1) and Face.CORE not in st1.faces()          # no icon after the roll
    assert [d.id for d in st1.dice] == [d.id for d in dice]                 # pool size and dice conserved
    assert st1.triggers == sum(st1.icons_per_round) == sum("trigger" in s.facts for s in steps)
    assert st1.icons_per_round[-1] == 0 and len(st1.icons_per_round) == st1.roll_round
    if lock:
        assert st1.dice[0].face is face and st1.locked == "S1"


@settings(max_examples=40, deadline=None)
@given(pool=st.integers(1, 12), paragon=st.integers(0, 2), locked=st.none() | st.sampled_from(ACTION_FACES),
       reading=st.sampled_from(["like_strategy_die", "rerolled_without_trigger"]))
def test_distributions_sum_to_one(pool, paragon, locked, reading):
    r = rulings({"paragon_core_icon": reading})
    assert pool_counts(pool, locked, paragon, exact=True, rulings=r).total() == 1
    d, tail = trigger_dist(pool, locked, paragon, 12, exact=True, rulings=r)
    assert d.total() + tail == 1 and tail >= 0
    assert all(sum(c) == pool + paragon for c in pool_counts(pool, locked, paragon, exact=True, rulings=r))
    assert triggers_cdf(pool, 400) == pytest.approx(1.0)


@settings(max_examples=20, deadline=None)
@given(pool=st.integers(1, 11))
def test_more_dice_never_hurt(pool):
    assert p_can_fill(FULL_SPACES, pool + 1, exact=True) >= p_can_fill(FULL_SPACES, pool, exact=True)
    assert p_can_fill([Space.ENHANCED], pool, exact=True) == p_at_least_one("enhanced", pool, exact=True)


def test_locked_paragon_die_in_odds():
    r = rulings({"paragon_core_icon": "rerolled_without_trigger"})
    a = strategy_odds_table(3, "enhanced", paragon=1, rulings=r, locked_is_paragon=True)
    b = strategy_odds_table(3, "enhanced", paragon=1, rulings=r)
    assert a["rolled"] == b["rolled"] == 3
    assert a["triggering_dice"] == 3 and b["triggering_dice"] == 2


def test_module_doctests():
    import doctest

    import explorer.games.masseffect.strategy_odds as mod
    assert doctest.testmod(mod).failed == 0
