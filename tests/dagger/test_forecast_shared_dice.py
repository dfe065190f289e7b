"""The planned forecast shares one Hero Phase's dice among the event cards' Nemesis Phases (session 12, speed): it
relies on the Nemesis Phase and the End of Round rolling no dice, and says so loudly if one ever does."""

import pytest

import explorer.games.dagger.round_scenario as R
from explorer.games import get_game
from explorer.games.dagger.forecast import _UniformDeck, planned_forecast


def test_a_nemesis_phase_that_rolled_would_stop_the_forecast(monkeypatch):
    real = R.play_nemesis_and_end

    def rolling(state, ctx):
        ctx.dice.roll(1)                   # what the forecast must never silently share
        return real(state, ctx)

    monkeypatch.setattr(R, "play_nemesis_and_end", rolling)
    sc = get_game("dagger").load_builtin("dg-two-rounds")[1]
    with pytest.raises(RuntimeError, match="rolled dice"):
        planned_forecast(sc, 2)


def test_the_remembered_deck_is_the_rebuilt_one():
    cards = ("A", "B", "C", "D")
    draw = _UniformDeck(cards)
    for prefix in [(), (2,), (2, 0), (3, 1, 0)]:
        first = draw.deck(prefix)
        assert first == draw.deck(prefix) == ((cards[prefix[-1]],) if prefix else ()) + tuple(
            c for i, c in enumerate(cards) if i not in prefix)
