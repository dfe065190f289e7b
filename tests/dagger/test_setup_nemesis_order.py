"""Setup shuffles one nemesis event into EACH pile (rulebook, Setup): which nemesis event goes into which pile is
random (seeded), so neither a Setup nor the exact forecast over it depends on the order the file lists them
(issue 20, tester's fault 1)."""

import copy
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.games import get_game
from explorer.games.dagger.forecast import planned_forecast, setup_deals
from explorer.games.dagger.round_scenario import parse_round
from explorer.games.dagger.setup_scenario import parse_setup, resolve_setup
from explorer.scenario import read_toml

ORDERS = [(0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)]


def _doc(order=(0, 1, 2)):
    g = get_game("dagger")
    d = copy.deepcopy(read_toml("dg-setup-round", text=g.scenario_text("dg-setup-round")))
    for e in d["events"]:
        if e.get("name") == "Nemesis event: Gambit":
            e.pop("spawns", None)
            e["effects"] = [{"kind": "threat", "amount": 5, "text": "x"}]
    nem = d["setup"]["nemesis_events"]
    d["setup"]["nemesis_events"] = [nem[i] for i in order]
    return d


@settings(max_examples=6, deadline=None)
@given(st.sampled_from(ORDERS[1:]))
def test_the_forecast_does_not_depend_on_the_order_of_the_nemesis_events(order):
    base = planned_forecast(parse_round(_doc(), "a.toml"), 1)
    other = planned_forecast(parse_round(_doc(order), "b.toml"), 1)
    assert base.to_dict() == other.to_dict()
    gambit = sum(p for t, p in base.threat.items() if t >= 9)       # only Gambit's +5 reaches 9
    assert gambit == Fraction(1, 12)                                 # in pile 1: 1/3; on its top: 1/4


def test_the_top_card_is_each_nemesis_event_with_one_chance_in_twelve():
    deals = setup_deals(tuple(f"E{i}" for i in range(9)), ("N1", "N2", "N3"), 1)
    assert {d: p for d, p in deals.items() if d[0].startswith("N")} == {
        ("N1",): Fraction(1, 12), ("N2",): Fraction(1, 12), ("N3",): Fraction(1, 12)}


def test_every_nemesis_event_reaches_pile_1_over_the_seeds():
    sc = parse_setup({"heroes": ["A"], "first_strike": {"name": "1st Strike"}}, "s.toml")
    seen = {next(c for c in resolve_setup(sc, seed=s).result.piles[0] if c.startswith("Nemesis")) for s in range(40)}
    assert seen == {"Nemesis event 1", "Nemesis event 2", "Nemesis event 3"}
