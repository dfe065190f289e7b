"""The exact Strategy Pool odds as one integer sum over capped face counts (issue 24) equal the former sum of
Fractions, everywhere; the fill test by Hall's condition equals trying every choice of faces."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import pytest

from explorer.games.masseffect import strategy_odds as SO
from explorer.games.masseffect.options import rulings
from explorer.games.masseffect.strategy import ACTION_FACES, Face, Space

SPACES = [SO.FULL_SPACES, (Space.STANDARD, Space.STANDARD, Space.ENHANCED), (Space.MOVE,), (Space.ENHANCED,) * 2,
          (Space.MOVE, Space.MOVE, Space.STANDARD, Space.ENHANCED)]


def former_p_can_fill(spaces, pool, locked, paragon, r) -> Fraction:
    """The former exact path: every composition's Fraction added up, each tested by trying every choice of faces."""
    sp = tuple(Space(s) for s in spaces)
    dual = r.reading("dual_face_in_move_space") == "move_2"
    total = Fraction(0)
    for counts, p in SO.pool_counts(pool, locked, paragon, True, r).items():
        if SO._fillable_by_trying(counts, sp, dual):
            total += p
    return total


@pytest.mark.parametrize("dual", ["move_2", "standard_only"])
@pytest.mark.parametrize("locked", [None] + [f.value for f in ACTION_FACES])
def test_fill_odds_equal_the_former_sum_for_every_pool(dual, locked):
    r = rulings({"dual_face_in_move_space": dual})
    for pool in range(1, 13):
        for paragon in (0, 1, 2):
            if pool + paragon > 9 and locked not in (None, "enhanced"):
                continue  # the large pools once per reading are enough (and slow on the former path)
            for spaces in SPACES:
                got = SO.p_can_fill(spaces, pool, locked, paragon, True, r)
                assert type(got) is Fraction
                assert got == former_p_can_fill(spaces, pool, locked, paragon, r), (spaces, pool, paragon)


def test_table_total_counts_and_float_path_unchanged():
    r = rulings({"locked_die_icon": "triggers_and_rerolls"})
    t = SO.strategy_odds_table(12, "core", paragon=2, rulings=r)
    assert t["total_counts"] == {"exact": "1", "float": 1.0}
    # the float path still adds the float probabilities one by one
    want = 0.0
    dual = rulings().reading("dual_face_in_move_space") == "move_2"
    for counts, p in SO.pool_counts(12, None, 2, False, rulings()).items():
        if SO._fillable(counts, SO.FULL_SPACES, dual):
            want += p
    assert SO.p_can_fill(SO.FULL_SPACES, 12, None, 2, False, rulings()) == want
    assert Face.CORE not in ACTION_FACES


def test_former_path_switch_gives_the_same_table(monkeypatch):
    new = SO.strategy_odds_table(9, "move_2", paragon=1)
    monkeypatch.setattr(SO, "FORMER_PATH", True)
    assert SO.strategy_odds_table(9, "move_2", paragon=1) == new


@pytest.mark.parametrize("dual", [True, False])
def test_fill_test_by_halls_condition_equals_trying_every_choice(dual):
    for spaces in SPACES + [(), (Space.STANDARD,) * 3, (Space.MOVE, Space.ENHANCED, Space.ENHANCED)]:
        for counts in itertools.product(range(len(spaces) + 2), repeat=len(ACTION_FACES)):
            assert SO._fillable(counts, spaces, dual) == SO._fillable_by_trying(counts, spaces, dual), (spaces, counts)


@pytest.mark.parametrize("cap", [0, 1, 2, 3, 4])
def test_capped_counts_add_up_every_composition(cap):
    """Brute force: every composition's multinomial coefficient, grouped by its capped counts."""
    for n in range(0, 15):
        want: dict = {}
        for c in itertools.product(range(n + 1), repeat=len(ACTION_FACES) - 1):
            if sum(c) <= n:
                c = c + (n - sum(c),)
                k = tuple(min(x, cap) for x in c)
                want[k] = want.get(k, 0) + math.factorial(n) // math.prod(math.factorial(x) for x in c)
        got = dict(SO._capped_multinomials(n, cap))
        assert got == want, (n, cap)
        assert sum(got.values()) == 5 ** n


@pytest.mark.parametrize("dual", ["move_2", "standard_only"])
def test_fill_odds_equal_rolling_every_face_of_small_pools(dual):
    """Brute force on the dice themselves: every one of the 5^rolled final faces, filled by the engine's own
    exhaustive search (``strategy.fill_spaces``), for every space set, nothing Locked and each Locked face."""
    from explorer.games.masseffect.strategy import fill_spaces

    r = rulings({"dual_face_in_move_space": dual})
    for rolled in range(0, 6):
        for locked in [None] + list(ACTION_FACES):
            if rolled + (locked is not None) == 0 or (rolled == 5 and locked is not None):
                continue
            for spaces in SPACES:
                hits = sum(fill_spaces(list(faces) + ([locked] if locked else []), spaces, r) is not None
                           for faces in itertools.product(ACTION_FACES, repeat=rolled))
                got = SO.p_can_fill(spaces, rolled + (locked is not None), locked and locked.value, 0, True, r)
                assert got == Fraction(hits, 5 ** rolled), (rolled, locked, spaces)
