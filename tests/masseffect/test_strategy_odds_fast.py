"""The exact Strategy Pool odds as one integer sum (issue 24) equal the former sum of Fractions, everywhere."""

from __future__ import annotations

from fractions import Fraction

import pytest

from explorer.games.masseffect import strategy_odds as SO
from explorer.games.masseffect.options import rulings
from explorer.games.masseffect.strategy import ACTION_FACES, Face, Space

SPACES = [SO.FULL_SPACES, (Space.STANDARD, Space.STANDARD, Space.ENHANCED), (Space.MOVE,), (Space.ENHANCED,) * 2,
          (Space.MOVE, Space.MOVE, Space.STANDARD, Space.ENHANCED)]


def former_p_can_fill(spaces, pool, locked, paragon, r) -> Fraction:
    """The former exact path: every composition's Fraction added up, ``_fillable`` on the raw counts."""
    sp = tuple(Space(s) for s in spaces)
    dual = r.reading("dual_face_in_move_space") == "move_2"
    total = Fraction(0)
    for counts, p in SO.pool_counts(pool, locked, paragon, True, r).items():
        if SO._fillable.__wrapped__(counts, sp, dual):
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
