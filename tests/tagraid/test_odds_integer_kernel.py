"""The integer exact kernel (counts over 20^n, one Fraction conversion at the end) gives the very same rationals as
the former all-Fraction path, kept callable as ``odds._fraction_reference()``, on random inputs.

Compared field by field with ``==`` and by type (every probability of an exact result is a Fraction, so JSON output
writes ``"0"`` and ``"n/d"`` strings exactly as before).
"""

from dataclasses import fields
from fractions import Fraction

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from explorer.distributions import binomial_counts, binomial_pmf, fractions_over
from explorer.games.tagraid import odds as O

READINGS = st.sampled_from(["literal", "excess_to_die"])
FAST = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def sides(draw, max_burst=6, sv=st.integers(-3, 25)):
    return O.SideSpec(draw(sv), draw(st.integers(0, max_burst)),
                      draw(st.one_of(st.none(), st.integers(-2, 22))),
                      draw(st.sampled_from(["N", "DA", "EXP", "AP"])),
                      draw(st.one_of(st.none(), st.integers(0, 6))))


def _all_fractions(x) -> bool:
    if isinstance(x, dict):
        return all(_all_fractions(v) for v in x.values())
    if isinstance(x, (list, tuple)):
        return all(_all_fractions(v) for v in x)
    return isinstance(x, Fraction)


_PROBS = ("p_a_wins", "p_b_wins", "p_nobody", "outcomes", "wounds_to_a", "wounds_to_b", "saving_rolls_to_a",
          "saving_rolls_to_b")


def _same_f2f(new: O.F2FOdds, old: O.F2FOdds) -> None:
    for f in fields(O.F2FOdds):
        assert getattr(new, f.name) == getattr(old, f.name), f.name
    for name in _PROBS:
        assert _all_fractions(getattr(new, name)), name
    assert new.to_dict() == old.to_dict()


def _reference(fn, *args, **kw):
    with O._fraction_reference():
        return fn(*args, **kw)


def test_reference_switch_really_runs_the_fraction_path(monkeypatch):
    calls = []
    monkeypatch.setattr(O, "_face_to_face_int", lambda *a: calls.append(a))
    a, b = O.SideSpec(12, 2, 13), O.SideSpec(11, 1, 12)
    _reference(O.face_to_face, a, b, exact=True)
    assert calls == []
    O.face_to_face(a, b, exact=True)
    assert len(calls) == 1
    assert O._INTEGER_EXACT


@FAST
@given(sides(), sides(), READINGS)
def test_face_to_face_integer_kernel_equals_fraction_path(a, b, reading):
    r = {"sv_above_20": reading}
    _same_f2f(O.face_to_face(a, b, rulings=r, exact=True), _reference(O.face_to_face, a, b, rulings=r, exact=True))


@FAST
@given(sides(max_burst=8), st.integers(-2, 25), st.sampled_from(["must_exceed", "critical_wins"]),
       st.sampled_from(["megabeast_prevails", "tie"]), READINGS)
def test_versus_megabeast_integer_kernel_equals_fraction_path(miner, threat, crit, equal, reading):
    r = {"megabeast_critical": crit, "megabeast_equal": equal, "sv_above_20": reading}
    _same_f2f(O.versus_megabeast(miner, threat, rulings=r, exact=True),
              _reference(O.versus_megabeast, miner, threat, rulings=r, exact=True))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 5), st.integers(0, 5), st.lists(st.integers(-2, 24), min_size=1, max_size=4),
       st.lists(st.integers(-2, 24), min_size=1, max_size=4), READINGS)
def test_sv_table_integer_kernel_equals_fraction_path(na, nb, svs_a, svs_b, reading):
    r = {"sv_above_20": reading}
    new = O.sv_table(na, nb, svs_a=svs_a, svs_b=svs_b, rulings=r, exact=True)
    old = _reference(O.sv_table, na, nb, svs_a=svs_a, svs_b=svs_b, rulings=r, exact=True)
    assert new == old
    assert _all_fractions([new.win_a, new.win_b, new.nobody])
    assert new.to_dict() == old.to_dict()


def _same_multi(new: O.MultiOdds, old: O.MultiOdds) -> None:
    assert new.kind == old.kind and new.rulings == old.rulings and new.exact == old.exact
    for name in ("wounds_to_focus", "saving_rolls_to_focus", "p_focus_unhurt_rolls", "p_focus_wins_all"):
        assert getattr(new, name) == getattr(old, name), name
        assert _all_fractions(getattr(new, name)), name
    for p, q in zip(new.pairs, old.pairs, strict=True):
        _same_f2f(p, q)
    assert new.to_dict() == old.to_dict()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.integers(-3, 24), sides(max_burst=3)), min_size=1, max_size=3),
       st.one_of(st.none(), st.integers(0, 5)), READINGS)
def test_evade_integer_kernel_equals_fraction_path(pairs, wounds, reading):
    svs = [sv for sv, _ in pairs]
    attackers = [a for _, a in pairs]
    r = {"sv_above_20": reading}
    _same_multi(O.evade(svs, attackers, evader_wounds=wounds, rulings=r, exact=True),
                _reference(O.evade, svs, attackers, evader_wounds=wounds, rulings=r, exact=True))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(sides(max_burst=3), sides(max_burst=3)), min_size=1, max_size=3),
       st.one_of(st.none(), st.integers(0, 5)))
def test_split_burst_integer_kernel_equals_fraction_path(pairs, wounds):
    act = [a for a, _ in pairs]
    rea = [b for _, b in pairs]
    _same_multi(O.split_burst(act, rea, active_wounds=wounds, exact=True),
                _reference(O.split_burst, act, rea, active_wounds=wounds, exact=True))


@given(st.integers(0, 12), st.integers(0, 20))
def test_binomial_counts_are_the_binomial_over_a_common_denominator(n, k):
    assert fractions_over(binomial_counts(n, k, 20), 20 ** n) == binomial_pmf(n, Fraction(k, 20))
