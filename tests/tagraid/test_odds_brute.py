"""Exact odds == brute-force enumeration (rolls.compare + saving_rolls, every roll), exact Fractions.

Covers every Burst pair 0..3 vs 0..2, SVs <= 0, 1, mid, 20 and above 20 under both ``sv_above_20`` readings,
every ammunition, Attack Damage below 0 / inside / above 20, Wounds caps, and the MegaBeast under every reading.
"""

import itertools
import math
from fractions import Fraction as Fr

import pytest

from explorer.games.tagraid.odds import SideSpec, face_to_face, normal_roll, versus_megabeast
from odds_brute import brute_f2f, brute_megabeast

SVS = [-2, 0, 1, 7, 12, 20, 23]
AMMO = ["N", "DA", "EXP", "AP"]
DAMAGES = [None, -1, 0, 7, 13, 20, 25]
WOUNDS = [None, 0, 1, 2, 3]


def _strip(lst):
    lst = list(lst)
    while len(lst) > 1 and not lst[-1]:
        lst.pop()
    return lst


def assert_same(engine, brute):
    assert engine.outcomes == {k: v for k, v in brute["outcomes"].items() if v}
    assert (engine.p_a_wins, engine.p_b_wins, engine.p_nobody) == (brute["p_a_wins"], brute["p_b_wins"],
                                                                   brute["p_nobody"])
    for name in ("saving_rolls_to_a", "saving_rolls_to_b", "wounds_to_a", "wounds_to_b"):
        assert _strip(getattr(engine, name)) == _strip(brute[name]), name
    assert all(isinstance(p, Fr) for p in engine.outcomes.values())


def _side(i, sv, burst):
    """Deterministic variety of ammunition / damage / Wounds across the grid."""
    return SideSpec(sv, burst, DAMAGES[i % len(DAMAGES)], AMMO[(i // 2) % len(AMMO)], WOUNDS[(i // 3) % len(WOUNDS)])


def _cases(burst_pairs, svs_a, svs_b):
    i = 0
    for (na, nb) in burst_pairs:
        for sa, sb in itertools.product(svs_a, svs_b):
            for reading in (["literal", "excess_to_die"] if max(sa, sb) > 20 else ["literal"]):
                i += 1
                yield pytest.param(_side(i, sa, na), _side(i + 5, sb, nb), {"sv_above_20": reading},
                                   id=f"{na}v{nb}-sv{sa}v{sb}-{reading}")


SMALL = [(na, nb) for na in range(4) for nb in range(3) if na + nb <= 3]


@pytest.mark.parametrize("a,b,rulings", list(_cases(SMALL, SVS, SVS)))
def test_small_bursts_every_sv_pair(a, b, rulings):
    assert_same(face_to_face(a, b, rulings=rulings, exact=True), brute_f2f(a, b, rulings))


def _n_classes(sv, reading):
    from odds_brute import _classes
    from explorer.games.tagraid.options import rulings as mk
    return len(_classes(sv, mk({"sv_above_20": reading})))


def _cost(param):
    """Number of rolls.compare calls the grouped brute force makes for a case."""
    a, b, rulings = param.values
    r = rulings["sv_above_20"]
    return math.comb(_n_classes(a.sv, r) + a.burst - 1, a.burst) * math.comb(_n_classes(b.sv, r) + b.burst - 1, b.burst)


def _budgeted(params, budget=20_000):
    """Cases within the budget run by default; the rest are marked slow (run them with -m slow)."""
    return [p if _cost(p) <= budget else pytest.param(*p.values, id=p.id, marks=pytest.mark.slow) for p in params]


BIGGER = _budgeted(list(_cases([(3, 1), (2, 2), (1, 3), (3, 2)], SVS, SVS)))


@pytest.mark.parametrize("a,b,rulings", BIGGER)
def test_four_and_five_dice_every_sv_pair(a, b, rulings):
    assert_same(face_to_face(a, b, rulings=rulings, exact=True), brute_f2f(a, b, rulings))


@pytest.mark.parametrize("ammo", AMMO)
@pytest.mark.parametrize("damage", [3, 12])
def test_all_ammunition_with_crits(ammo, damage):
    a = SideSpec(14, 2, damage, ammo, None)
    b = SideSpec(11, 1, damage + 1, ammo, 2)
    assert_same(face_to_face(a, b, exact=True), brute_f2f(a, b))


@pytest.mark.parametrize("na,nb", [(1, 1), (2, 1)])
def test_grouped_enumeration_matches_full_product(na, nb):
    """The class-grouped brute force is itself checked against the plain 20^n product."""
    a, b = SideSpec(12, na, 9, "DA", 2), SideSpec(22, nb, 14, "EXP", None)
    for rulings in ({"sv_above_20": "literal"}, {"sv_above_20": "excess_to_die"}):
        full = brute_f2f(a, b, rulings, faces="all")
        grouped = brute_f2f(a, b, rulings, faces="classes")
        assert full == grouped
        assert_same(face_to_face(a, b, rulings=rulings, exact=True), full)


@pytest.mark.parametrize("sv", [-1, 0, 1, 9, 20, 21, 25])
@pytest.mark.parametrize("burst", [0, 1, 3])
def test_normal_roll(sv, burst):
    a = SideSpec(sv, burst, 12, "DA", 3)
    for reading in ("literal", "excess_to_die"):
        r = {"sv_above_20": reading}
        assert_same(normal_roll(a, rulings=r, exact=True), brute_f2f(a, SideSpec(0, 0), r))


@pytest.mark.parametrize("crit", ["must_exceed", "critical_wins"])
@pytest.mark.parametrize("equal", ["megabeast_prevails", "tie"])
@pytest.mark.parametrize("sv,burst,threat", [(12, 1, 5), (7, 1, 8), (8, 2, 8), (12, 3, 8), (15, 2, 2), (23, 2, 8),
                                             (5, 2, 0), (20, 1, 25), (0, 2, 5), (10, 0, 5)])
@pytest.mark.parametrize("ammo,wounds", [("EXP", 2), ("N", None), ("DA", 3)])
def test_megabeast_vs_brute(crit, equal, sv, burst, threat, ammo, wounds):
    rulings = {"megabeast_critical": crit, "megabeast_equal": equal}
    if sv > 20:
        rulings["sv_above_20"] = "excess_to_die"
    miner = SideSpec(sv, burst, 15, ammo, wounds)
    eng = versus_megabeast(miner, threat, rulings=rulings, exact=True)
    bru = brute_megabeast(miner, threat, rulings)
    assert eng.outcomes == {k: v for k, v in bru["outcomes"].items() if v}
    assert _strip(eng.wounds_to_b) == _strip(bru["wounds_to_b"])
    assert _strip(eng.saving_rolls_to_b) == _strip(bru["saving_rolls_to_b"])
    assert eng.p_a_wins + eng.p_b_wins + eng.p_nobody == 1
    assert eng.rulings["megabeast_critical"] == crit and eng.rulings["megabeast_equal"] == equal
