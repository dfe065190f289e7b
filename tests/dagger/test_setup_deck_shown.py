"""While Setup runs, a round position shows the event deck the rules hold at that step, not the file's card list
(issue 20, tester's fault 2): no deck before Setup stacks the piles, then the 12 cards Setup dealt."""

from explorer.games import get_game
from explorer.games.dagger.round_view import position_text, round_positions
from explorer.games.dagger.round_views import position_html


def _positions():
    return round_positions(get_game("dagger").load_builtin("dg-setup-round")[1])


def test_the_event_deck_is_not_built_before_setup_stacks_it_then_holds_12_cards():
    pos = _positions()
    setup = [p for p in pos if p.in_setup]
    stacked = next(i for i, p in enumerate(setup) if p.step.title.startswith("The event deck:"))
    assert all(p.events_left is None for p in setup[:stacked])
    assert all(p.events_left == 12 for p in setup[stacked:])
    text = position_text(setup[0], 1, len(pos))
    assert "13" not in text and "event deck not built yet" in text
    assert "event deck not built yet" in position_html(setup[0], 1, len(pos))
    assert "12 event cards left" in position_text(setup[stacked], stacked + 1, len(pos))
    first_round = next(p for p in pos if not p.in_setup)
    assert first_round.events_left == 12


def test_the_round_page_gauges_show_the_deck_setup_holds():
    from explorer.games.dagger.round_views import RoundStepper

    page = RoundStepper("dg-setup-round", get_game("dagger"))
    pos = _positions()
    page.draw(pos[0], 1, len(pos))
    assert "event deck not built yet" in page.gauges.value and "event cards left 13" not in page.gauges.value
