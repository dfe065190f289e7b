"""The loss probability of the next one or more Nemesis Phases: exact over the ordered draws of the top k event cards, equal to
playing every full order of the deck, and a seeded sample agrees with it."""

from fractions import Fraction
from itertools import permutations

import pytest

from explorer.errors import ScenarioError
from explorer.games.dagger.forecast import loss_forecast
from explorer.games.dagger.nemesis import PhaseContext, play_phases
from explorer.games.dagger.options import rulings

from .helpers import builtin


def position(threat=14):
    sc = builtin("dg-three-rounds")
    return sc, sc.state.evolve(threat=threat, nemesis_deck=(), showdown=True)


def every_full_order(sc, start, phases):
    lost = []
    for deck in permutations(start.event_deck):
        frames = play_phases(start.evolve(event_deck=deck), PhaseContext(world=sc.world, rulings=rulings(), choices=sc.choices), phases)
        lost.append(bool(frames[-1].state.lost))
    return Fraction(sum(lost), len(lost))


@pytest.mark.parametrize("phases", [1, 2])
def test_exact_forecast_equals_every_full_deck_order(phases):
    sc, start = position()
    f = loss_forecast(sc, phases, state=start)
    assert f.exact and f.draws == {1: 4, 2: 12}[phases]          # 4 cards: 4 first draws, 4 x 3 ordered pairs
    assert f.p_loss == every_full_order(sc, start, phases)
    assert sum(f.threat.values()) == 1
    if phases == 1:
        assert f.p_loss == Fraction(1, 2) and f.reasons == {"threat reached 20": Fraction(1, 2)}


def test_sampled_forecast_agrees_with_the_exact_one():
    sc, start = position()
    exact = loss_forecast(sc, 2, state=start)
    sampled = loss_forecast(sc, 2, state=start, max_exact=1, samples=2000, seed=3)
    assert not sampled.exact and sampled.draws == 2000
    p = float(exact.p_loss)
    assert abs(float(sampled.p_loss) - p) <= 4 * (p * (1 - p) / 2000) ** 0.5


def test_more_phases_than_cards_loses_for_want_of_an_event():
    sc, start = position(threat=0)
    f = loss_forecast(sc, 5, state=start)
    assert f.reasons.get("no event card to draw", 0) + f.reasons.get("threat reached 20", 0) >= 1 and f.p_loss == 1


def test_bounds():
    sc, start = position()
    for kw, field in (({"phases": 6}, "phases"), ({"max_exact": 0}, "max_exact"), ({"samples": 0}, "samples")):
        with pytest.raises(ScenarioError, match=field):
            loss_forecast(sc, state=start, **kw)


def test_cli_forecast(capsys):
    import json

    from explorer.cli import main

    assert main(["dagger", "forecast", "dg-loss-no-event"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("P(the heroes lose in the Nemesis Phase of round ")
    assert ") = 1.0000 (1), the event deck is empty" in out.splitlines()[0]
    assert "no event card to draw: 1.0000" in out
    assert main(["dagger", "forecast", "dg-hero-fight", "--phases", "2", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["exact"] and d["draws"] == 12 and d["phases"] == 2
    assert main(["dagger", "forecast", "dg-01", "--phases", "9"]) == 2
    assert "field '--phases'" in capsys.readouterr().err
    assert main(["dagger", "forecast", "tr-05"]) == 2


def test_cli_forecast_of_a_multi_round_scenario_names_its_rounds(capsys):
    """dg-three-rounds plays three Nemesis Phases from round 1: the forecast says which round(s) it covers, from which
    position, and how to cover the scenario's three phases."""
    from explorer.cli import main

    assert main(["dagger", "forecast", "dg-three-rounds"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("P(the heroes lose in the Nemesis Phase of round 1) = ")
    assert out[1].startswith("  from round 1 at the start of the Nemesis Phase: threat 2, 4 event cards")
    assert any(line.startswith("  threat at the end of round 1: ") for line in out)
    assert out[-1] == "  the scenario plays the Nemesis Phases of rounds 1-3; --phases 3 forecasts them all"
    assert main(["dagger", "forecast", "dg-three-rounds", "--phases", "3"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("P(the heroes lose in the Nemesis Phases of rounds 1-3) = 0.1667 (1/6), exact over the "
                             "24 ordered draws of the top 3 event cards")
    assert any(line.startswith("  threat at the end of round 3: ") for line in out)
    assert not any("--phases" in line for line in out)


def test_cli_forecast_of_a_planned_round(capsys):
    """A round file: P(lose by the end of round N) playing the planned Hero Phases before each Nemesis Phase. With
    one round it equals the Nemesis Phase forecast from the board round 1's plan leaves (dg-two-rounds: Thug 1
    removed, the 1st strike at 3/4, team-up 1)."""
    from explorer.cli import main
    from explorer.games import get_game
    from explorer.games.dagger.forecast import planned_forecast
    from explorer.games.dagger.round_scenario import after_hero_phase

    sc = get_game("dagger").load_builtin("dg-two-rounds")[1]
    after = after_hero_phase(sc)
    assert after.team_up == 1 and "Thug 1" not in {e.id for e in after.enemies}
    f = loss_forecast(sc.board, 1, None, state=after)
    p = planned_forecast(sc, 1)
    assert (p.p_loss, p.threat, p.draws) == (f.p_loss, f.threat, f.draws)
    assert p.threat == {0: Fraction(1, 2), 1: Fraction(1, 2)}     # the 1st strike fails (threat 7), then an event
    assert main(["dagger", "forecast", "dg-two-rounds"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("P(the heroes lose by the end of round 1) = 0.0000 (0), exact over the 4 ordered draws")
    assert out[1].startswith("  from round 1 at the start of the Hero Phase: threat 2")
    assert main(["dagger", "forecast", "dg-two-rounds", "--phases", "3"]) == 2
    assert "the rounds the file plans" in capsys.readouterr().err
    assert main(["dagger", "forecast", "dg-setup"]) == 2
    assert "setup scenario" in capsys.readouterr().err


def test_planned_forecast_equals_every_full_deck_order():
    """Two planned rounds: the exact forecast over the 12 ordered draws of 2 cards equals playing the file's rounds
    with every one of the 24 full orders of the deck."""
    from collections import Counter
    from dataclasses import replace

    from explorer.games import get_game
    from explorer.games.dagger.forecast import planned_forecast
    from explorer.games.dagger.round_scenario import play_rounds

    sc = get_game("dagger").load_builtin("dg-two-rounds")[1]
    f = planned_forecast(sc, 2)
    ends = Counter()
    orders = list(permutations(sc.board.state.event_deck))
    for deck in orders:
        one = replace(sc, board=replace(sc.board, state=sc.board.state.evolve(event_deck=deck)))
        frames, refusal, _start, _ctx = play_rounds(one)
        assert refusal is None
        ends[frames[-1].state.game.threat] += 1
    assert f.threat == {t: Fraction(c, len(orders)) for t, c in ends.items()}
    assert f.refused == 0 and f.planned and f.to_dict()["planned"] is True


def test_a_plan_the_draw_makes_illegal_is_counted_as_refused():
    """Round 2's plan has Hero B fight Thug 1 on Cairo: only the event that spawns a Thug there (1 card of 4 drawn
    in round 1) leaves that turn legal; under the other 3/4 of the draws the turn is refused (no such enemy in play),
    named as a refusal, not a file error, and not counted as a loss."""
    from explorer.games import get_game
    from explorer.games.dagger.forecast import planned_forecast
    from explorer.games.dagger.round_scenario import parse_round, resolve_round
    from explorer.scenario import read_toml

    g = get_game("dagger")
    d = read_toml("t.toml", text=g.scenario_text("dg-two-rounds"))
    turns = d["rounds"][1]["turns"]
    turns[0] = {"hero": "Hero B", "token": "standard", "slot": "fight", "enemy": "Thug 1", "successes": 0}
    turns[3] = {"hero": "Hero B", "token": "boosted", "slot": "move", "path": ["Wakanda"]}
    turns[6] = {"hero": "Hero B", "token": "standard", "slot": "dagger"}
    sc = parse_round(d, "t.toml")
    assert resolve_round(sc).result.refused == ""            # the file's deck order: Rising Tension spawns Thug 1
    f = planned_forecast(sc, 2)
    assert f.refused == Fraction(3, 4) and f.p_loss == 0
    d["events"] = d["events"][1:]                              # no Rising Tension: the turn is refused
    o = resolve_round(parse_round(d, "t.toml")).result
    assert o.refused_field == "rounds[1].turns[0].enemy" and "no enemy 'Thug 1'" in o.refused


def test_one_ordered_draw_is_said_in_the_singular():
    """A planned round over a 1-card deck: "exact over the 1 ordered draw of the top 1 event card" (issue 20, a)."""
    import contextlib
    import io

    from explorer.cli import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["dagger", "forecast", "dg-team-up"]) == 0
    assert "exact over the 1 ordered draw of the top 1 event card" in out.getvalue()


def test_the_hint_offers_only_the_rounds_the_exact_forecast_plays(capsys):
    """dg-five-rounds plans 5 rounds, but Setup's deals of the top 5 event cards (77,760) are over the exact
    forecast's bound, so `--phases 5` is refused: the hint offers `--phases 4` (it said `--phases 5 forecasts them
    all`), and a forecast of 4 says no more can be forecast. A file within the bound still hears "them all"."""
    from explorer.cli import main
    from explorer.games import get_game
    from explorer.games.dagger.forecast import MAX_PLAYOUTS, planned_rounds_within, setup_deal_count

    sc = get_game("dagger").load_builtin("dg-five-rounds")[1]
    su = sc.setup
    assert setup_deal_count(len(su.standard_events), len(su.nemesis_events), 5) > MAX_PLAYOUTS
    assert planned_rounds_within(sc, 5) == 4
    assert main(["dagger", "forecast", "dg-five-rounds"]) == 0
    out = capsys.readouterr().out
    assert "--phases 4 forecasts the first 4 (more are over the exact forecast's bound of 60,000 play-outs)" in out
    assert "--phases 5" not in out
    assert main(["dagger", "forecast", "dg-five-rounds", "--phases", "5"]) == 2
    assert "too many for the exact forecast" in capsys.readouterr().err
    two = get_game("dagger").load_builtin("dg-two-rounds")[1]
    assert planned_rounds_within(two, 2) == 2
    assert main(["dagger", "forecast", "dg-two-rounds"]) == 0
    assert "--phases 2 forecasts them all" in capsys.readouterr().out
