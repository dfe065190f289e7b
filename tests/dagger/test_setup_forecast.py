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
    f = planned_forecast(sc, 1)
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
