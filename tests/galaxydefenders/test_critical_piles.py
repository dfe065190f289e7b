"""Critical piles (8.2): a drawn token stays out of its pile (on the figure, or discarded) until the pile is empty;
then the discarded tokens are reshuffled into a new pile (when exactly: ruling ``critical_pile_reform``)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.dice import Dice
from explorer.errors import ScenarioError
from explorer.games import get_game
from explorer.games.galaxydefenders.calibration import default_calibration
from explorer.games.galaxydefenders.combat import CriticalPiles, TableDice
from explorer.games.galaxydefenders.options import rulings as make_rulings

G = get_game("galaxydefenders")
CAL = default_calibration()
PILE_1 = sum(t.count for t in CAL.pile(1))


def _steps(name, **rulings):
    return [s.title for s in G.resolve(G.load_builtin(name), rulings=rulings).steps]


def test_the_pile_is_recreated_the_moment_it_empties_by_default():
    titles = _steps("gd-critical-pile")
    drawn = titles.index("Critical 1 token drawn: c1-damage")
    assert titles[drawn + 1] == "The Critical 1 pile is empty: its 9 discarded tokens are reshuffled into a new pile"
    assert sum("reshuffled" in t for t in titles) == 1


def test_next_draw_recreates_it_at_the_second_draw_with_the_instant_token_too():
    titles = _steps("gd-critical-pile", critical_pile_reform="next_draw")
    first = titles.index("Critical 1 token drawn: c1-damage")
    reform = titles.index("The Critical 1 pile is empty: its 10 discarded tokens are reshuffled into a new pile")
    assert reform > first and "Critical 1 token drawn" in titles[reform + 1]


def test_a_drawn_token_stays_out_until_the_pile_empties():
    """Seeded draws of a whole pile: every token exactly its count before the pile is recreated."""
    for seed in range(30):
        piles, dice = CriticalPiles(CAL, rulings=make_rulings()), Dice(seed=seed)
        got = [piles.draw(1, dice) for _ in range(PILE_1)]
        assert sorted(got) == sorted(t.id for t in CAL.pile(1) for _ in range(t.count))
        assert piles.reformed == []                  # nothing was discarded: the empty pile waits
        assert piles.draw(1, dice) is None           # and with an empty discard pile nothing can be drawn


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from(["when_empty", "next_draw"]))
def test_tokens_are_conserved_across_a_reform(seed, reform):
    """Every draw discarded (as instant or incompatible tokens are): pile + discard pile always hold the whole pile,
    and a new pile holds exactly what was discarded."""
    piles, dice = CriticalPiles(CAL, reform=reform), Dice(seed=seed)
    for _ in range(3 * PILE_1):
        tid = piles.draw(1, dice)
        assert tid is not None
        piles.to_discard(tid)
        assert len(piles.pile[1]) + len(piles.discard[1]) == PILE_1
    assert len(piles.reformed) >= 2
    assert all(n == (PILE_1 if reform == "next_draw" else PILE_1 - 1) for _, n, _ in piles.reformed)


def test_a_fixed_draw_of_a_token_already_out_is_refused():
    kind, sc = G.load_builtin("gd-07")
    sc = sc.model_copy(update={"critical_discard": ["c2-atk-dice"]})
    with pytest.raises(ScenarioError) as e:
        G.resolve((kind, sc))
    assert "rolled.critical.Xeno-Gamma[1]" in str(e.value) and "no 'c2-atk-dice' token is left" in str(e.value)


def test_critical_discard_beyond_a_tokens_count_is_refused():
    with pytest.raises(ScenarioError) as e:
        CriticalPiles(CAL, discard=["c1-paralyzed", "c1-paralyzed"])
    assert "critical_discard" in str(e.value) and "each token at most its count" in str(e.value)


def test_an_incompatible_token_goes_to_the_discard_pile():
    piles = CriticalPiles(CAL, discard=[t.id for t in CAL.pile(1) for _ in range(t.count)
                                        if t.id != "c1-movement"][:PILE_1 - 2])
    # left in the pile: c1-movement (agents only) and one more token
    left = list(piles.pile[1])
    assert "c1-movement" in left and len(left) == 2
    table = TableDice(CAL, None, Dice(seed=1), piles=piles)
    discarded, tok = table.critical("Xeno", 1, "alien")
    assert tok.compatible("alien") and set(discarded) <= {"c1-movement"}
    if discarded:
        assert "c1-movement" in piles.discard[1] or any(lv == 1 for lv, _, _ in piles.reformed)
