"""Property tests (hypothesis) and Monte Carlo checks of the exact odds engine for large Bursts."""

from dataclasses import replace
from fractions import Fraction as Fr

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from explorer.errors import ScenarioError
from explorer.games.tagraid.odds import SideSpec, evade, face_to_face, split_burst, sv_table, versus_megabeast
from explorer.games.tagraid.options import rulings as make_rulings
from explorer.games.tagraid.rolls import classify_die, compare, face_keys, saving_rolls

READINGS = st.sampled_from(["literal", "excess_to_die"])


@st.composite
def sides(draw, max_burst=8, sv=st.integers(-3, 25)):
    return SideSpec(draw(sv), draw(st.integers(0, max_burst)),
                    draw(st.one_of(st.none(), st.integers(-2, 22))),
                    draw(st.sampled_from(["N", "DA", "EXP", "AP"])),
                    draw(st.one_of(st.none(), st.integers(0, 6))))


FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(sides(), sides(), READINGS)
def test_probabilities_sum_to_one_and_wounds_are_capped(a, b, reading):
    r = face_to_face(a, b, rulings={"sv_above_20": reading}, exact=True)
    assert r.p_a_wins + r.p_b_wins + r.p_nobody == 1
    assert sum(r.outcomes.values()) == 1
    for lst in (r.wounds_to_a, r.wounds_to_b, r.saving_rolls_to_a, r.saving_rolls_to_b):
        assert sum(lst) == 1 and all(p >= 0 for p in lst)
    if a.opponent_wounds is not None:
        assert len(r.wounds_to_b) - 1 <= a.opponent_wounds
    if b.opponent_wounds is not None:
        assert len(r.wounds_to_a) - 1 <= b.opponent_wounds
    # at most Burst dice survive; a side that does not roll never wins
    assert all(h + c <= (a.burst if w == "a" else b.burst) for (w, h, c) in r.outcomes if w)
    if a.burst == 0:
        assert r.p_a_wins == 0


@FAST
@given(sides(), sides(), READINGS)
def test_swapping_sides_swaps_results(a, b, reading):
    ru = {"sv_above_20": reading}
    ab, ba = face_to_face(a, b, rulings=ru, exact=True), face_to_face(b, a, rulings=ru, exact=True)
    assert (ab.p_a_wins, ab.p_b_wins, ab.p_nobody) == (ba.p_b_wins, ba.p_a_wins, ba.p_nobody)
    flip = {"a": "b", "b": "a", None: None}
    assert ab.outcomes == {(flip[w], h, c): p for (w, h, c), p in ba.outcomes.items()}
    assert ab.wounds_to_a == ba.wounds_to_b and ab.wounds_to_b == ba.wounds_to_a


@FAST
@given(st.integers(-2, 19), st.integers(0, 8), sides(sv=st.integers(-2, 25)))
def test_higher_sv_never_lowers_winning_chance(sv, burst, b):
    """Literal reading, SV up to 20."""
    lo = face_to_face(SideSpec(sv, burst), b, exact=True)
    hi = face_to_face(SideSpec(sv + 1, burst), b, exact=True)
    assert hi.p_a_wins >= lo.p_a_wins and hi.p_b_wins <= lo.p_b_wins


@FAST
@given(st.integers(-2, 25), st.integers(0, 19), sides(max_burst=20), READINGS)
def test_more_burst_never_lowers_winning_chance(sv, burst, b, reading):
    ru = {"sv_above_20": reading}
    lo = face_to_face(SideSpec(sv, burst), b, rulings=ru)
    hi = face_to_face(SideSpec(sv, burst + 1), b, rulings=ru)
    assert hi.p_a_wins >= lo.p_a_wins - 1e-12 and hi.p_b_wins <= lo.p_b_wins + 1e-12


@FAST
@given(sides(), sides(), st.integers(-2, 21))
def test_higher_attack_damage_never_lowers_expected_wounds(a, b, dmg):
    a1 = SideSpec(a.sv, a.burst, dmg, a.ammunition, a.opponent_wounds)
    a2 = SideSpec(a.sv, a.burst, dmg + 1, a.ammunition, a.opponent_wounds)
    assert face_to_face(a2, b, exact=True).expected_wounds_to_b >= face_to_face(a1, b, exact=True).expected_wounds_to_b


@FAST
@given(sides(max_burst=6), sides(max_burst=6))
def test_float_path_matches_exact_path(a, b):
    f, e = face_to_face(a, b), face_to_face(a, b, exact=True)
    assert abs(f.p_a_wins - float(e.p_a_wins)) < 1e-12 and abs(f.p_nobody - float(e.p_nobody)) < 1e-12
    assert len(f.wounds_to_b) == len(e.wounds_to_b)
    assert all(abs(x - float(y)) < 1e-12 for x, y in zip(f.wounds_to_b, e.wounds_to_b))


@FAST
@given(st.integers(-2, 25), st.integers(0, 6), st.integers(-1, 22),
       st.sampled_from(["must_exceed", "critical_wins"]), st.sampled_from(["megabeast_prevails", "tie"]),
       st.one_of(st.none(), st.integers(0, 5)))
def test_megabeast_properties(sv, burst, threat, crit, equal, wounds):
    ru = {"megabeast_critical": crit, "megabeast_equal": equal}
    m = versus_megabeast(SideSpec(sv, burst, 10, "EXP", wounds), threat, rulings=ru, exact=True)
    assert m.p_a_wins + m.p_b_wins + m.p_nobody == 1 and sum(m.wounds_to_b) == 1
    if wounds is not None:
        assert len(m.wounds_to_b) - 1 <= wounds
    if equal == "megabeast_prevails":
        assert m.p_nobody == 0
    # the critical_wins reading never gives the Miner less than must_exceed
    other = versus_megabeast(SideSpec(sv, burst, 10, "EXP", wounds), threat,
                             rulings={"megabeast_critical": "must_exceed", "megabeast_equal": equal}, exact=True)
    assert m.p_a_wins >= other.p_a_wins


def test_sv_table_matches_face_to_face():
    t = sv_table(3, 1, exact=True)
    for sa, sb in [(1, 1), (12, 12), (20, 5), (7, 19)]:
        f = face_to_face(SideSpec(sa, 3), SideSpec(sb, 1), exact=True)
        assert t.cell(sa, sb) == (f.p_a_wins, f.p_b_wins, f.p_nobody)
    assert all(sum(t.cell(a, b)) == 1 for a in range(1, 21) for b in range(1, 21))
    assert len(t.to_dict()["win_a"]) == 20


# ---------------------------------------------------------------------------------------------------------------
# Monte Carlo for large Bursts (fixed seed; every probability within 5 standard errors)
# ---------------------------------------------------------------------------------------------------------------

def _keys_array(sv, reading):
    return np.array([0] + face_keys(sv, make_rulings({"sv_above_20": reading})))


def simulate(a, b, n, seed, reading="literal"):
    """Vectorised simulation: a die survives iff its key is above the opponent's best key (checked against
    rolls.compare in test_survival_rule_matches_compare); Saving Rolls drawn as binomials."""
    rng = np.random.default_rng(seed)
    ka, kb = _keys_array(a.sv, reading), _keys_array(b.sv, reading)
    fa = ka[rng.integers(1, 21, size=(n, a.burst))]
    fb = kb[rng.integers(1, 21, size=(n, b.burst))]
    best_a = fa.max(axis=1) if a.burst else np.zeros(n, int)
    best_b = fb.max(axis=1) if b.burst else np.zeros(n, int)
    sa = fa > best_b[:, None]
    sb = fb > best_a[:, None]
    res = {}
    for name, s, f, side in (("a", sa, fa, a), ("b", sb, fb, b)):
        crits = (s & (f == 100)).sum(axis=1)
        hits = s.sum(axis=1) - crits
        per = {"N": 1, "DA": 2, "EXP": 3, "AP": 1}[side.ammunition]
        saves = per * (hits + crits) + crits
        p = max(0, min(20, side.attack_damage)) / 20
        wounds = rng.binomial(saves, p)
        if side.opponent_wounds is not None:
            wounds = np.minimum(wounds, side.opponent_wounds)
        res[name] = (hits, crits, wounds)
    return res


def _check(p, freq, n, sigmas=5.0):
    se = max(np.sqrt(p * (1 - p) / n), 1 / n)
    assert abs(freq - p) <= sigmas * se, (p, freq, se)


@pytest.mark.parametrize("a,b,reading", [
    (SideSpec(14, 10, 12, "EXP", None), SideSpec(12, 10, 10, "DA", 6), "literal"),
    (SideSpec(11, 20, 9, "N", 8), SideSpec(15, 20, 13, "AP", None), "literal"),
    (SideSpec(23, 20, 14, "DA", 10), SideSpec(17, 12, 11, "N", None), "excess_to_die"),
    (SideSpec(9, 6, 12, "EXP", None), SideSpec(12, 3, 10, "DA", None), "literal"),
])
def test_monte_carlo_large_bursts(a, b, reading):
    n = 200_000
    sim = simulate(a, b, n, seed=20261129, reading=reading)
    eng = face_to_face(a, b, rulings={"sv_above_20": reading})
    ha, ca, wb = sim["a"]
    hb, cb, wa = sim["b"]
    a_wins = (ha + ca) > 0
    b_wins = (hb + cb) > 0
    assert not np.any(a_wins & b_wins)
    _check(eng.p_a_wins, a_wins.mean(), n)
    _check(eng.p_b_wins, b_wins.mean(), n)
    for (w, h, c), p in eng.outcomes.items():
        if p > 1e-4:
            if w == "a":
                freq = (a_wins & (ha == h) & (ca == c)).mean()
            elif w == "b":
                freq = (b_wins & (hb == h) & (cb == c)).mean()
            else:
                freq = (~a_wins & ~b_wins).mean()
            _check(p, freq, n)
    for k, p in enumerate(eng.wounds_to_b):
        _check(p, (wb == k).mean(), n)
    for k, p in enumerate(eng.wounds_to_a):
        _check(p, (wa == k).mean(), n)
    assert abs(eng.expected_wounds_to_b - wb.mean()) <= 5 * max(wb.std(), 1e-9) / np.sqrt(n) + 1e-9


def test_survival_rule_matches_compare():
    """The Monte Carlo shortcut (survive iff key > opponent's best key) is what rolls.compare does."""
    rng = np.random.default_rng(7)
    for reading in ("literal", "excess_to_die"):
        r = make_rulings({"sv_above_20": reading})
        for _ in range(400):
            na, nb = rng.integers(0, 21, size=2)
            sva, svb = rng.integers(-2, 26, size=2)
            da = [classify_die(int(f), int(sva), r) for f in rng.integers(1, 21, size=na)]
            db = [classify_die(int(f), int(svb), r) for f in rng.integers(1, 21, size=nb)]
            cmp = compare(da, db)
            best_b = max((d.key for d in db), default=0)
            best_a = max((d.key for d in da), default=0)
            assert list(cmp.a_survives) == [d.key > best_b for d in da]
            assert list(cmp.b_survives) == [d.key > best_a for d in db]


def test_rejects_bad_sides():
    with pytest.raises(ScenarioError, match="burst.*0..20"):
        SideSpec(12, 21)
    with pytest.raises(ScenarioError, match="burst"):
        SideSpec(12, -1)
    with pytest.raises(ScenarioError, match="ammunition.*'N', 'DA', 'EXP', 'AP'"):
        SideSpec(12, 1, 10, "PLASMA")
    with pytest.raises(ScenarioError, match="sv.*whole number"):
        SideSpec("12", 1)
    with pytest.raises(ScenarioError, match="opponent_wounds"):
        SideSpec(12, 1, 10, "N", -1)
    with pytest.raises(ScenarioError, match="rulings.sv_above_20"):
        face_to_face(SideSpec(12, 1), SideSpec(12, 1), rulings={"sv_above_20": "maybe"})
    with pytest.raises(ScenarioError, match="threat_level"):
        versus_megabeast(SideSpec(12, 1), "8")


@FAST
@given(st.lists(st.integers(-2, 22), min_size=1, max_size=3), st.data())
def test_evade_properties(svs, data):
    attackers = [data.draw(sides(max_burst=5)) for _ in svs]
    cap = data.draw(st.one_of(st.none(), st.integers(0, 6)))
    m = evade(svs, attackers, evader_wounds=cap, exact=True)
    assert sum(m.wounds_to_focus) == 1 and sum(m.saving_rolls_to_focus) == 1
    if cap is not None:
        assert len(m.wounds_to_focus) - 1 <= cap
    else:   # linearity of expectation over the attacks, dependent or not
        assert m.expected_wounds_to_focus == sum(p.expected_wounds_to_a for p in m.pairs)
    # P(winning every roll) <= P(winning any single one); P(unhurt) <= P(unhurt by any single attack)
    assert all(m.p_focus_wins_all <= p.p_a_wins for p in m.pairs)
    assert all(m.p_focus_unhurt_rolls <= 1 - p.p_b_wins for p in m.pairs)


@FAST
@given(st.lists(st.tuples(sides(max_burst=4), sides(max_burst=3)), min_size=1, max_size=3),
       st.one_of(st.none(), st.integers(0, 6)))
def test_split_burst_properties(pairs, cap):
    m = split_burst([p[0] for p in pairs], [p[1] for p in pairs], active_wounds=cap, exact=True)
    assert sum(m.wounds_to_focus) == 1
    if cap is not None:
        assert len(m.wounds_to_focus) - 1 <= cap
    if len(pairs) == 1 and cap is None:
        a, b = pairs[0]
        f = face_to_face(a, replace(b, opponent_wounds=None), exact=True)   # active_wounds overrides the reactive's
        assert m.wounds_to_focus == f.wounds_to_a and m.p_focus_wins_all == f.p_a_wins
