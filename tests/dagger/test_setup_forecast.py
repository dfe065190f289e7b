"""`explorer dagger forecast` over a Setup-dealt event deck for a planned round (issue 20 item 6): P(lose by the end
of round N) with the file's planned Hero Phases, exact over the deals Setup can make of the top N event cards (Setup:
9 standard events at random, 3 piles of 3, a nemesis event shuffled into each pile, pile 1 on top)."""

import copy
from fractions import Fraction
from itertools import combinations, permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.games import get_game
from explorer.games.dagger.forecast import _fill_deck, planned_forecast, setup_deals
from explorer.games.dagger.round_scenario import parse_round, play_rounds
from explorer.scenario import read_toml


def _brute(standard, nemesis, top):
    """Pile 1 by brute force: every 3-set of the standard events, with each nemesis event (dealt to pile 1 at
    random), in every order."""
    out = {}
    sets = list(combinations(standard, 3))
    for nem in nemesis:
        for s in sets:
            for order in permutations(s + (nem,)):
                key = order[:top]
                out[key] = out.get(key, Fraction(0)) + Fraction(1, len(nemesis) * len(sets) * 24)
    return out


@settings(max_examples=12, deadline=None)
@given(st.integers(9, 12), st.integers(1, 4))
def test_the_setup_deals_of_the_top_cards_are_exact(pool, top):
    standard = tuple(f"E{i}" for i in range(pool))
    nemesis = ("N1", "N2", "N3")
    got = setup_deals(standard, nemesis, top)
    assert got == _brute(standard, nemesis, top) and sum(got.values()) == 1


def test_a_deal_past_pile_1_has_one_nemesis_event_in_each_pile():
    deals = setup_deals(tuple(f"E{i}" for i in range(9)), ("N1", "N2", "N3"), 6)
    assert sum(deals.values()) == 1
    nem = ("N1", "N2", "N3")
    assert all(sum(c in nem for c in d[:4]) == 1 and sum(c in nem for c in d[4:]) <= 1 for d in deals)
    assert all(len(set(d)) == 6 for d in deals)                      # no nemesis event in two piles
    for d in list(deals)[:50]:
        deck = _fill_deck(d, tuple(f"E{i}" for i in range(9)), nem)
        assert len(deck) == 12 and deck[:6] == d and len(set(deck)) == 12
        assert [sum(c in nem for c in deck[4 * p:4 * p + 4]) for p in range(3)] == [1, 1, 1]


def _doc(rounds=1):
    g = get_game("dagger")
    d = copy.deepcopy(read_toml("dg-setup-round", text=g.scenario_text("dg-setup-round")))
    d["rounds"] = d["rounds"] * rounds
    return d


def test_the_forecast_over_setup_deals_weighs_each_top_card_by_its_chance():
    sc = parse_round(_doc(), "t.toml")
    f = planned_forecast(sc, 1, max_exact=13 * 6 - 1)    # conditioned on the seed's side mission deck (see below)
    assert f.exact and f.dealt and f.planned and f.draws == 13     # 10 standard events or any of the 3 nemesis ones
    assert sum(f.threat.values()) == 1 and f.to_dict()["setup_dealt"] is True
    want: dict[int, Fraction] = {}
    for (card,), p in setup_deals(sc.setup.standard_events, sc.setup.nemesis_events, 1).items():
        frames = play_rounds(sc, dealt=_fill_deck((card,), sc.setup.standard_events, sc.setup.nemesis_events))[0]
        t = frames[-1].state.game.threat
        want[t] = want.get(t, Fraction(0)) + p
    assert f.threat == want
    assert setup_deals(sc.setup.standard_events, sc.setup.nemesis_events, 1)[(sc.setup.nemesis_events[0],)] == \
        Fraction(1, 12)                       # the 1st nemesis event: in pile 1 one time in 3, then 1 card of its 4


def test_the_forecast_command_answers_for_a_setup_round_file(tmp_path):
    import contextlib
    import io

    from explorer.cli import main
    from explorer.tomlwrite import dumps

    path = tmp_path / "two.toml"
    path.write_text(dumps(_doc(2)), encoding="utf-8")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(["dagger", "forecast", str(path), "--phases", "2"])
    text = out.getvalue()
    assert code == 0 and text.startswith("P(the heroes lose by the end of round 2) = ")
    assert "Setup deals of the top 2 event cards" in text and "as Setup deals it" in text
    assert "12 event cards in the deck" in text


@pytest.mark.parametrize("rounds", [0, 3])
def test_phases_outside_the_planned_rounds_are_refused(rounds):
    from explorer.errors import ScenarioError

    with pytest.raises(ScenarioError) as e:
        planned_forecast(parse_round(_doc(2), "t.toml"), rounds)
    assert e.value.field == "phases"


# ------------------------------------------- exact over the side mission deck too (issue 20, session 9 item 2)

def _brute_over_side_deck(sc, rounds):
    """Every deal of the top event cards × every whole order of the side mission deck, played out (no bound
    on what is drawn): the threat distribution."""
    from explorer.games.dagger.forecast import _fill_deck as fill

    su = sc.setup
    orders = list(permutations(su.side_deck))
    want: dict[int, Fraction] = {}
    for prefix, p in setup_deals(su.standard_events, su.nemesis_events, rounds).items():
        for order in orders:
            frames = play_rounds(sc, dealt=fill(prefix, su.standard_events, su.nemesis_events),
                                 side_dealt=order)[0]
            t = frames[-1].state.game.threat
            want[t] = want.get(t, Fraction(0)) + p / len(orders)
    return want


def test_the_setup_forecast_is_exact_over_the_side_mission_deck_too():
    sc = parse_round(_doc(), "t.toml")
    f = planned_forecast(sc, 1)
    assert f.side_orders == 6 and f.side_top == 3 and f.to_dict()["side_orders"] == 6
    assert f.threat == _brute_over_side_deck(sc, 1) and sum(f.threat.values()) == 1
    # the seed's side deck alone gives another answer: the order matters, so the old forecast conditioned on it
    seeded: dict[int, Fraction] = {}
    for (card,), p in setup_deals(sc.setup.standard_events, sc.setup.nemesis_events, 1).items():
        frames = play_rounds(sc, dealt=_fill_deck((card,), sc.setup.standard_events, sc.setup.nemesis_events))[0]
        t = frames[-1].state.game.threat
        seeded[t] = seeded.get(t, Fraction(0)) + p
    assert seeded != f.threat


def test_a_side_order_given_replaces_the_seeds_on_the_board():
    sc = parse_round(_doc(), "t.toml")
    order = tuple(reversed(sc.setup.side_deck))
    frames = play_rounds(sc, side_dealt=order)[0]
    board = next(f.state.game for f in frames if f.name == "Setup › the board")
    assert tuple(m.name for m in board.side_slots if m is not None) == order[:1]
    assert tuple(c.mission.name for c in board.side_deck) == order[1:]


def test_too_many_side_orders_condition_on_the_seeds_and_say_so():
    from explorer.games.dagger.forecast import forecast_text

    sc = parse_round(_doc(), "t.toml")
    f = planned_forecast(sc, 1, max_exact=13 * 6 - 1)       # the deals fit, deals × side orders do not
    assert f.exact and f.side_orders == 0 and "side_orders" in f.to_dict()
    text = forecast_text(f, sc.board.state, planned=True)
    assert "conditioned on the side mission deck in the order the file's seed shuffles it" in text
    assert "orders of the side mission deck" not in text
    full = forecast_text(planned_forecast(sc, 1), sc.board.state, planned=True)
    assert "and the 6 orders of the side mission deck's top 3 cards" in full and "conditioned" not in full
