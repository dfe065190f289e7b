"""`explorer resolve` and `explorer scenarios`: resolve a scenario of any game, list the built-in scenarios.

A built-in scenario id belongs to one game; a TOML file names its game with ``game = "<id>"`` (no key: a TAG Raid
roll scenario). See :func:`explorer.games.load_any`.

Examples::

    explorer scenarios
    explorer scenarios --game masseffect --json
    explorer resolve book-f2f-1v1
    explorer resolve my-exchange.toml --seed 7 --ruling sv_above_20=excess_to_die --json
    explorer resolve my-table.toml --shooter A --target B     # the roll exchange the board decides
"""

from __future__ import annotations

import json
from typing import Annotated, Optional

import typer


def resolve_command(
    scenario: Annotated[str, typer.Argument(help="A built-in scenario name (see `explorer scenarios`) or a TOML file.")],
    seed: Annotated[Optional[int], typer.Option("--seed", min=0, max=2**63 - 1,
                                                help="Seed for the dice the scenario does not fix (0..2^63-1).")] = None,
    reroll: Annotated[bool, typer.Option("--reroll", help="Ignore the scenario's fixed dice: roll every die "
                                                          "from the seed.")] = False,
    ruling: Annotated[Optional[list[str]], typer.Option("--ruling", help="Choose a reading: key=reading "
                                                                         "(repeatable).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the trace as JSON.")] = False,
    shooter: Annotated[Optional[str], typer.Option("--shooter", help="A table file or table scenario: the Active "
                                                                      "Miner (default: the table's shooter).")] = None,
    target: Annotated[Optional[list[str]], typer.Option("--target", help="A table file or table scenario: resolve "
                                                                          "the shooter's attack on this Model "
                                                                          "(repeatable: a split Burst).")] = None,
) -> None:
    """Resolve a scenario of any game step by step, citing the rulebook."""
    from .errors import ScenarioError
    from .games import load_any, parse_rulings

    game, sc = load_any(scenario)
    if shooter or target:
        ask = getattr(sc, "with_question", None)  # table scenarios (a board and its Models) answer this question
        if ask is None:
            raise ScenarioError("--shooter" if shooter else "--target", "applies only to a table file or table "
                                "scenario", "a file with a board and [[models]], or e.g. tr-22", scenario)
        sc = ask(shooter, tuple(target or ()))
    trace = game.resolve(sc, rulings=parse_rulings(ruling, [game]), seed=seed, reroll=reroll)
    if as_json:
        typer.echo(json.dumps(trace.to_dict(), indent=2, ensure_ascii=False))
    else:
        typer.echo(trace.to_text())
        if game.outcome_text is not None:
            typer.echo("")
            typer.echo(game.outcome_text(trace))


def scenarios_command(
    game: Annotated[Optional[str], typer.Option("--game", help="Only this game's scenarios (a game id).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the list as JSON.")] = False,
) -> None:
    """List the built-in scenarios of every game (rulebook examples and handed rulings)."""
    from .games import all_games, get_game

    games = [get_game(game)] if game else all_games()
    items = [(g, s) for g in games for s in g.scenarios()]
    if as_json:
        typer.echo(json.dumps([{"name": s.name, "title": s.title, "description": s.description, "game": g.id,
                                "kind": s.kind} for g, s in items], indent=2, ensure_ascii=False))
        return
    width = max((len(s.name) for _, s in items), default=4)
    for g in games:
        typer.echo(f"{g.title} ({g.id})")
        for s in g.scenarios():
            star = "*" if s.name == g.default_scenario else " "
            kind = f"[{s.kind}] " if s.kind else ""
            typer.echo(f"  {star} {s.name:<{width}}  {kind}{s.title}")
        typer.echo("")
    typer.echo("(* = a game's default scenario; resolve one with `explorer resolve <name>`)")


def register(app: typer.Typer) -> None:
    """Add ``resolve`` and ``scenarios`` to the CLI app."""
    app.command("resolve")(resolve_command)
    app.command("scenarios")(scenarios_command)
