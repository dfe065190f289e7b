"""The planned-round forecast computed round by round (issue 20, session 10 item 2): alike positions merged at the end
of each round, each played on once per next event card, must give exactly what playing every ordered draw from the
start gives (the earlier way, kept here as the reference), for files past the old 5,040-draw refusal too; the bound
that remains is named in the message."""

from dataclasses import replace
from fractions import Fraction
from itertools import permutations

import pytest

from explorer.errors import ScenarioError
from explorer.games import get_game
from explorer.games.dagger.forecast import (MAX_PLAYOUTS, _fill_deck, planned_forecast, setup_deal_count,
                                            setup_deals, side_mission_draws)
from explorer.games.dagger.round_scenario import parse_round, play_rounds
from explorer.scenario import read_toml


def by_playouts(sc, rounds):
    """The reference: every ordered draw of the top ``rounds`` cards, all rounds played from the start for each."""
    start = sc.board.state
    deck = start.event_deck
    k = min(rounds, len(deck))
    draws = [tuple(deck[i] for i in idx) + tuple(deck[j] for j in range(len(deck)) if j not in idx)
             for idx in permutations(range(len(deck)), k)] or [deck]
    lost = refused = Fraction(0)
    threat: dict = {}
    q = Fraction(1, len(draws))
    for d in draws:
        one = replace(sc, board=replace(sc.board, state=start.evolve(event_deck=d), shuffle_events=False),
                      rounds=sc.rounds[:rounds])
        frames, refusal, first, _ctx = play_rounds(one)
        end = frames[-1].state.game if frames else first.game
        lost += q if end.lost else 0
        refused += q if refusal is not None else 0
        threat[end.threat] = threat.get(end.threat, 0) + q
    return lost, refused, threat, len(draws)


def _five_card_two_rounds():
    """dg-two-rounds with a fifth event card (an extra +2 threat one) and the start at threat 12: losses happen."""
    g = get_game("dagger")
    d = read_toml("t.toml", text=g.scenario_text("dg-two-rounds"))
    d["events"].append({"name": "Stand-in: Pressure", "effects": [{"kind": "threat", "amount": 6}]})
    d["threat"] = 8
    return parse_round(d, "t.toml")


@pytest.mark.parametrize("rounds", [1, 2])
def test_round_by_round_equals_every_ordered_draw_played_from_the_start(rounds):
    sc = _five_card_two_rounds()
    f = planned_forecast(sc, rounds)
    lost, refused, threat, n = by_playouts(sc, rounds)
    assert (f.p_loss, f.refused, dict(f.threat), f.draws) == (lost, refused, threat, n)
    assert f.exact and f.planned and f.positions <= n + 1


def test_a_loss_in_round_1_is_not_played_on_and_still_weighs_its_draws():
    """From threat 16 step 1 of round 1 reaches 20 under every draw: the one position is never played on, and the
    loss weighs all 20 ordered draws of two rounds."""
    g = get_game("dagger")
    d = read_toml("t.toml", text=g.scenario_text("dg-two-rounds"))
    d["events"].append({"name": "Stand-in: Pressure", "effects": [{"kind": "threat", "amount": 6}]})
    d["threat"] = 16
    sc = parse_round(d, "t.toml")
    f = planned_forecast(sc, 2)
    assert f.p_loss == 1 and f.draws == 20 and f.positions == 1
    assert f.reasons == {"threat reached 20": 1} or set(f.reasons.values()) == {1}
    assert by_playouts(sc, 2)[0] == 1


@pytest.mark.slow
def test_setup_round_by_round_equals_every_deal_and_side_order_played_from_the_start():
    """dg-five-rounds over 2 rounds: every Setup deal of the top 2 cards × every order of the side mission deck's top
    cards, played from the start with its probability, equals the merged computation."""
    sc = get_game("dagger").load_builtin("dg-five-rounds")[1]
    su = sc.setup
    f = planned_forecast(sc, 2)
    deals = setup_deals(su.standard_events, su.nemesis_events, 2)
    side = su.side_deck
    top = min(len(side), side_mission_draws(2))
    orders = [tuple(side[i] for i in idx) + tuple(side[j] for j in range(len(side)) if j not in idx)
              for idx in permutations(range(len(side)), top)]
    one = replace(sc, rounds=sc.rounds[:2])
    lost = Fraction(0)
    threat: dict = {}
    for prefix, p in deals.items():
        for order in orders:
            frames, _refusal, first, _ctx = play_rounds(one, dealt=_fill_deck(prefix, su.standard_events,
                                                                              su.nemesis_events), side_dealt=order)
            end = frames[-1].state.game
            w = p / len(orders)
            lost += w if end.lost else 0
            threat[end.threat] = threat.get(end.threat, 0) + w
    assert f.p_loss == lost and dict(f.threat) == threat
    assert (f.draws, f.side_orders) == (len(deals), len(orders))


@pytest.mark.parametrize("standard, top", [(9, 1), (9, 3), (10, 4), (11, 2)])
def test_the_setup_deal_count_is_the_number_of_deals(standard, top):
    names = tuple(f"s{i}" for i in range(standard))
    assert setup_deal_count(standard, 3, top) == len(setup_deals(names, ("n1", "n2", "n3"), top))


def test_past_the_bound_the_message_names_it():
    sc = _five_card_two_rounds()
    with pytest.raises(ScenarioError) as e:
        planned_forecast(sc, 2, max_exact=19)
    msg = str(e.value)
    assert e.value.field == "phases" and "20 ordered draws of the top 2 event cards are too many" in msg
    assert "at most 19 (its bound)" in msg and "\n" not in msg
    sc5 = get_game("dagger").load_builtin("dg-five-rounds")[1]
    with pytest.raises(ScenarioError) as e:
        planned_forecast(sc5, 5)
    assert f"at most {MAX_PLAYOUTS:,} (its bound)" in str(e.value) and "Setup deals of the top 5 event cards" in str(
        e.value)


@pytest.mark.slow
def test_the_old_refusal_size_is_answered():
    """dg-five-rounds over 3 rounds: 1,530 Setup deals × 6 side mission orders = 9,180 play-outs, above the 5,040 the
    forecast refused or cut to the seed's side mission order before; answered exactly now."""
    sc = get_game("dagger").load_builtin("dg-five-rounds")[1]
    f = planned_forecast(sc, 3)
    assert f.exact and f.dealt and (f.draws, f.side_orders) == (1530, 6)
    assert sum(f.threat.values()) == 1 and f.positions < f.draws * f.side_orders
