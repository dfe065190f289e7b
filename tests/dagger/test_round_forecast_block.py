"""The Round page's loss forecast block (issue 20 item 5): the numbers of `explorer dagger forecast`, computed on
demand, cleared when the file or a ruling changes, refused over the play-out bound."""

import contextlib
import io
import json
from fractions import Fraction
from pathlib import Path

import pytest

from explorer.games import get_game, load_any
from explorer.games.dagger.forecast import planned_forecast
from explorer.games.dagger.round_views import RoundStepper, compute_forecast, forecast_block_html

SCENARIOS = Path(__file__).parents[2] / "explorer" / "games" / "dagger" / "scenarios"


def cli_forecast(scenario: str, phases: int, *rulings: str) -> dict:
    from explorer.cli import main

    out = io.StringIO()
    args = ["dagger", "forecast", scenario, "--phases", str(phases), "--json"]
    for r in rulings:
        args += ["--ruling", r]
    with contextlib.redirect_stdout(out):
        assert main(args) == 0
    return json.loads(out.getvalue())


def shown_p(page: RoundStepper) -> float:
    html = page.forecast.value
    assert "dg-round-forecast-p" in html, html
    return float(html.split("dg-round-forecast-p'>")[1].split("<")[0])


@pytest.mark.parametrize("rounds", [1, 2])
def test_the_block_shows_the_clis_and_planned_forecasts_probability_for_dg_two_rounds(rounds):
    page = RoundStepper("dg-two-rounds", get_game("dagger"))
    assert page.forecast_rounds.options == (1, 2) and page.forecast_rounds.value == 2
    assert page.forecast.value == ""                       # computed on demand only
    page.forecast_rounds.value = rounds
    page.compute_forecast()
    f = planned_forecast(get_game("dagger").load_builtin("dg-two-rounds")[1], rounds)
    cli = cli_forecast("dg-two-rounds", rounds)
    assert Fraction(cli["p_loss"]["exact"]) == f.p_loss
    assert shown_p(page) == round(float(f.p_loss), 4)
    assert f"by the end of round {rounds}) = " in page.forecast.value
    assert f"{f.draws} ordered draws" in page.forecast.value


def _threat_15(tmp_path) -> tuple[str, str]:
    """dg-two-rounds from threat 15: lost by round 1 when threat at 20 is judged at once, never when a completed
    mission may reset it first (ruling threat_loss_timing)."""
    text = (SCENARIOS / "dg-two-rounds.toml").read_text().replace("threat = 2", "threat = 15", 1)
    path = tmp_path / "threat15.toml"
    path.write_text(text)
    return text, str(path)


def test_a_ruling_change_clears_the_answer_and_the_new_one_follows_the_reading(tmp_path):
    text, path = _threat_15(tmp_path)
    page = RoundStepper("dg-two-rounds", get_game("dagger"))
    page.open_text(text, "threat15.toml")
    page.compute_forecast()
    sc = load_any(path)[1][1]
    assert shown_p(page) == float(planned_forecast(sc, 2).p_loss) == 1.0
    assert Fraction(cli_forecast(path, 2)["p_loss"]["exact"]) == 1
    page.rulings_box["threat_loss_timing"].value = "after_mission_check"
    assert page.forecast.value == ""                       # the answer of the other reading is gone
    page.compute_forecast()
    assert shown_p(page) == float(planned_forecast(sc, 2, {"threat_loss_timing": "after_mission_check"}).p_loss)
    assert shown_p(page) == 0.0
    page.forecast_rounds.value = 1                          # another N: cleared too
    assert page.forecast.value == ""
    page.compute_forecast()
    page.load("dg-two-rounds")                              # another file: cleared
    assert page.forecast.value == ""


def test_a_late_answer_for_an_earlier_ruling_is_dropped_and_computing_is_shown(tmp_path):
    text, _path = _threat_15(tmp_path)
    waiting = []
    page = RoundStepper("dg-two-rounds", get_game("dagger"))
    page.open_text(text, "threat15.toml")
    page.set_offloader(lambda compute, apply: waiting.append((compute, apply)))
    page.compute_forecast()
    assert "computing…" in page.forecast.value and page.forecast_button.disabled
    page.rulings_box["threat_loss_timing"].value = "after_mission_check"
    assert page.forecast.value == "" and not page.forecast_button.disabled
    compute, apply = waiting.pop()
    apply(compute())                                        # the answer for the old reading arrives late
    assert page.forecast.value == ""
    page.compute_forecast()
    compute, apply = waiting.pop()
    apply(compute())
    assert shown_p(page) == 0.0


def test_the_dropdown_offers_only_the_rounds_the_exact_forecast_plays():
    """dg-five-rounds plans 5 rounds; 5 are over the play-out bound (77,760 Setup deals > 60,000), 4 are not: the
    dropdown offers 1..4 (it offered 5, then refused it), the count the CLI hint uses."""
    from explorer.games.dagger.forecast import MAX_PLAYOUTS, _exact_playouts, planned_rounds_within

    sc = get_game("dagger").load_builtin("dg-five-rounds")[1]
    assert len(sc.rounds) == 5 and _exact_playouts(sc, 5) > MAX_PLAYOUTS >= _exact_playouts(sc, 4)
    page = RoundStepper("dg-five-rounds", get_game("dagger"))
    assert page.forecast_rounds.options == (1, 2, 3, 4) == tuple(range(1, planned_rounds_within(sc, 5) + 1))
    assert page.forecast_rounds.value == 4
    page.load("dg-two-rounds")                             # a file within the bound: every planned round offered
    assert page.forecast_rounds.options == (1, 2) and page.forecast_rounds.value == 2


def test_over_the_play_out_bound_the_forecast_refuses_as_the_cli_does():
    sc = get_game("dagger").load_builtin("dg-five-rounds")[1]
    html = forecast_block_html(compute_forecast(sc, 5, {}))
    assert "Not computed" in html and "60,000" in html
    assert "dg-round-forecast-p" not in html


def test_a_file_over_the_bound_in_its_first_round_keeps_n_1_and_refuses(monkeypatch):
    import explorer.games.dagger.round_views as rv

    monkeypatch.setattr(rv, "planned_rounds_within", lambda sc, rounds: 0)
    page = RoundStepper("dg-two-rounds", get_game("dagger"))
    assert page.forecast_rounds.options == (1,)
