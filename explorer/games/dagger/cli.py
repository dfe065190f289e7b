"""``explorer dagger ...``: the Marvel D.A.G.G.E.R. verbs beside the registry's ``scenarios | resolve | rulings``.

Sections: Nemesis Phase, End of Round, Winning and Losing (see :mod:`.forecast`).

Examples::

    explorer dagger forecast dg-three-rounds
    explorer dagger forecast my-board.toml --phases 2 --ruling threat_loss_timing=after_mission_check --json
    explorer dagger step dg-team-up --at 9
"""

from __future__ import annotations

import click

from explorer.cli_numbers import PlainInt, check_step, seed_option


@click.command("forecast", epilog="SCENARIO is a built-in id (dg-...) or the path of a nemesis, hero or round TOML file.")
@click.argument("scenario")
@click.option("--phases", type=PlainInt(), default=1, help="Nemesis Phases to look ahead (1..5).")
@click.option("--ruling", multiple=True, help="key=reading (repeatable).")
@click.option("--json", "as_json", is_flag=True, help="Print as JSON.")
def forecast(scenario: str, phases: int, ruling: tuple[str, ...], as_json: bool) -> None:
    """The probability that the heroes lose in the next Nemesis Phase or Phases, named by round (from the scenario's round:
    --phases 3 from round 1 covers rounds 1-3), the event deck shuffled: exact over the ordered draws of the cards
    the phases use. A hero file is looked at after its Hero Phase actions; a round file plays its planned Hero Phases
    (the turns, their rolls as given or rolled from the seed) before each Nemesis Phase: --phases N is P(lose by the
    end of round N), exact, computed round by round (refused, naming the bound, above 60,000 play-outs)."""
    from explorer.errors import ScenarioError, naming_source
    from explorer.games import get_game, load_any, parse_rulings

    from .forecast import forecast_text, loss_forecast

    game, sc = load_any(scenario)
    if game.id != "dagger":
        raise ScenarioError("scenario", f"{scenario!r} is a scenario of {game.title}", "a D.A.G.G.E.R. scenario")
    kind, value = sc
    chosen = parse_rulings(list(ruling), [get_game("dagger")])
    if kind == "hero":
        from .hero_scenario import play_hero

        with naming_source(scenario):   # a refusal while playing names the file, as one while loading does
            _steps, _records, _start, after, _end, _ctx = play_hero(value, chosen)
        board, state = value.board, after
    elif kind == "round":
        from .round_scenario import dealt_board

        board, state = value.board, dealt_board(value, chosen)
    elif kind == "setup":
        raise ScenarioError("scenario", f"{scenario!r} is a setup scenario (no board to play a Nemesis Phase on)",
                            "a nemesis, hero or round scenario")
    else:
        board, state = value, value.state
    try:
        with naming_source(scenario):   # a refusal while playing names the file, as one while loading does
            if kind == "round":
                from .forecast import planned_forecast

                f = planned_forecast(value, phases, chosen)
            else:
                f = loss_forecast(board, phases, chosen, state=state)
    except ScenarioError as e:  # name the option as typed
        if e.field != "phases":
            raise
        raise ScenarioError("--phases", e.problem, e.allowed) from None
    if as_json:
        import json   # only for --json: a text answer needs no JSON encoder

        click.echo(json.dumps(f.to_dict(), indent=2))
        return
    reachable = None
    if kind == "round":
        from .forecast import planned_rounds_within

        reachable = planned_rounds_within(value, len(value.rounds))
    click.echo(forecast_text(f, state, value.phases if kind == "nemesis" else len(value.rounds) if kind == "round"
                             else 1, after_heroes=kind == "hero", planned=kind == "round", reachable=reachable))


@click.command("step", epilog="SCENARIO is a built-in round id (dg-two-rounds, dg-team-up, ...) or a round TOML file.")
@click.argument("scenario")
@click.option("--at", "at", type=PlainInt(), default=1, help="The cited step to show (1 = the first; counted as in "
              "`explorer resolve`).")
@click.option("--seed", type=seed_option(), default=None, help="Seed for Setup and the rolls not given.")
@click.option("--ruling", multiple=True, help="key=reading (repeatable).")
def step(scenario: str, at: int, seed: int | None, ruling: tuple[str, ...]) -> None:
    """A round scenario at one cited step: the step and its rule, each hero's sheet (the tokens on its slots and in
    its supply, damage, cards), the bases' slots, the tracks, the decks and the loss gauges. Step back or forward
    with --at (the play is replayed from the file each time)."""
    from explorer.errors import ScenarioError, naming_source
    from explorer.games import get_game, load_any, parse_rulings

    from .round_view import position_text, round_positions

    game, sc = load_any(scenario)
    if game.id != "dagger" or sc[0] != "round":
        raise ScenarioError("scenario", f"{scenario!r} is not a D.A.G.G.E.R. round scenario", "a round scenario "
                            "(kind = \"round\")")
    readings = parse_rulings(list(ruling), [get_game("dagger")])
    with naming_source(scenario):   # a refusal while playing names the file, as one while loading does
        positions = round_positions(sc[1], readings, seed)
    check_step(at, len(positions), scenario)
    click.echo(position_text(positions[at - 1], at, len(positions)))


def cli_app() -> click.Group:
    """The Marvel D.A.G.G.E.R. verbs."""
    return click.Group("dagger", commands=[forecast, step],
                       help="Marvel D.A.G.G.E.R.: the loss probability of the next one or more Nemesis Phases (more under "
                            "`explorer resolve`).")
