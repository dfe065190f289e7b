"""`explorer resolve` and `explorer scenarios`: resolve a scenario of any game, list the built-in scenarios.

A built-in scenario id belongs to one game; a TOML file names its game with ``game = "<id>"`` (no key: a TAG Raid
roll scenario); a packaged file a game opens by name (TAG Raid's tables, such as the Line of Fire page's
``lof-quarry``: :class:`explorer.games.NamedFile`) is listed by ``explorer scenarios`` and opens like a file. See
:func:`explorer.games.load_any`.

Examples::

    explorer scenarios
    explorer scenarios --game masseffect --json
    explorer scenarios --export tr-02 -o my-exchange.toml    # a built-in's file, to edit and resolve as a file
    explorer resolve book-f2f-1v1
    explorer resolve my-exchange.toml --seed 7 --ruling sv_above_20=excess_to_die --json
    explorer resolve my-table.toml --shooter A --target B     # the roll exchange the board decides
    explorer resolve lof-quarry --shooter Peeker              # a packaged table, as the Line of Fire page opens it
"""

from __future__ import annotations

import json

import click

from .cli_numbers import seed_option

SCENARIO_HELP = ("\b\nSCENARIO is a built-in scenario name, a packaged TAG Raid table such as\n"
                 "lof-quarry (the Line of Fire page's; `explorer scenarios` lists both),\nor the path of a TOML file.")
"""The help's last paragraph (``\\b``: kept as written, so that no name is broken at its hyphen)."""


@click.command("resolve", epilog=SCENARIO_HELP)
@click.argument("scenario")
@click.option("--seed", type=seed_option(), default=None,
              help="Seed for the dice the scenario does not fix (0..2^63-1).")
@click.option("--reroll", is_flag=True, help="Ignore the scenario's fixed dice: roll every die from the seed.")
@click.option("--ruling", multiple=True, help="Choose a reading: key=reading (repeatable).")
@click.option("--json", "as_json", is_flag=True, help="Print the trace as JSON.")
@click.option("--shooter", default=None, help="A table file or table scenario: the Active Miner (default: the "
                                              "table's shooter).")
@click.option("--target", multiple=True, help="A table file or table scenario: resolve the shooter's attack on "
                                              "this Model (repeatable: a split Burst).")
def resolve_command(scenario: str, seed: int | None, reroll: bool, ruling: tuple[str, ...], as_json: bool,
                    shooter: str | None, target: tuple[str, ...]) -> None:
    """Resolve a scenario of any game step by step, citing the rulebook."""
    from .errors import ScenarioError, naming_source
    from .games import load_any, parse_rulings

    game, sc = load_any(scenario, plain=not (shooter or target))   # a built-in from the cache: no pydantic
    if shooter or target:
        ask = getattr(sc, "with_question", None)  # table scenarios (a board and its Models) answer this question
        if ask is None:
            raise ScenarioError("--shooter" if shooter else "--target", "applies only to a table file or table "
                                "scenario", "a file with a board and [[models]], or e.g. tr-22", scenario)
        sc = ask(shooter, tuple(target or ()))
    readings = parse_rulings(list(ruling), [game])
    with naming_source(scenario):   # the gate: a refusal while resolving names the file, as one while loading does
        trace = game.resolve(sc, rulings=readings, seed=seed, reroll=reroll)
    if as_json:
        click.echo(json.dumps(trace.to_dict(), indent=2, ensure_ascii=False))
    else:
        click.echo(trace.to_text())
        if game.outcome_text is not None:
            click.echo("")
            click.echo(game.outcome_text(trace))


@click.command("scenarios")
@click.option("--game", default=None, help="Only this game's scenarios (a game id).")
@click.option("--json", "as_json", is_flag=True, help="Print the list as JSON.")
@click.option("--export", "export", default=None, metavar="NAME",
              help="Print the TOML file of this built-in scenario (or packaged table) instead of the list; "
                   "`explorer resolve` opens the written file exactly as it opens NAME.")
@click.option("--output", "-o", default=None, metavar="PATH",
              help="With --export: write the file here instead of stdout (a new or regular file; - is stdout).")
def scenarios_command(game: str | None, as_json: bool, export: str | None, output: str | None) -> None:
    """List the built-in scenarios of every game (rulebook examples and handed rulings), and the packaged files
    `explorer resolve` also opens by name (TAG Raid's tables); or, with --export NAME, write one of them as a TOML
    file to start your own from."""
    from .games import all_games, get_game

    if export is not None or output is not None:
        _export(export, output, game, as_json)
        return
    games = [get_game(game)] if game else all_games()
    items = [(g, s) for g in games for s in g.scenarios()]
    if as_json:
        click.echo(json.dumps([{"name": s.name, "title": s.title, "description": s.description, "game": g.id,
                                "kind": s.kind} for g, s in items], indent=2, ensure_ascii=False))
        return
    named = {g.id: g.named_files() for g in games}
    width = max((len(s.name) for _, s in items), default=4)
    width = max([width] + [len(f.name) for files in named.values() for f in files])
    for g in games:
        click.echo(f"{g.title} ({g.id})")
        for s in g.scenarios():
            star = "*" if s.name == g.default_scenario else " "
            kind = f"[{s.kind}] " if s.kind else ""
            click.echo(f"  {star} {s.name:<{width}}  {kind}{s.title}")
        if named[g.id]:
            click.echo(f"  {named[g.id][0].heading}:")
            for f in named[g.id]:
                click.echo(f"    {f.name:<{width}}  {f.title}")
        click.echo("")
    click.echo("(* = a game's default scenario; resolve one with `explorer resolve <name>`)")


def _export(name: str | None, output_arg: str | None, game: str | None, as_json: bool) -> None:
    """``explorer scenarios --export NAME [-o PATH]``: the packaged TOML text of a built-in scenario, byte for byte
    (a packaged table such as ``lof-quarry``: its file), to stdout (no ``-o``, or ``-o -``) or the file ``output_arg``.

    Raises:
        ScenarioError: ``-o`` without ``--export``; ``--json`` with it; ``--game`` naming another game than NAME's;
            an unknown NAME (lists near names, as ``explorer resolve`` does); an output path that is not a regular
            file or a new one (:func:`explorer.outpath.check_output`), before anything is written.
    """
    from .errors import ScenarioError
    from .games import export_text
    from .outpath import check_output, write_output

    if name is None:
        raise ScenarioError("--output", "applies only with --export NAME", "explorer scenarios --export NAME -o PATH")
    if as_json:
        raise ScenarioError("--json", "does not apply to --export (the file is TOML)", "omit --json")
    # before any work: one line naming the option, the path and what is allowed
    output = None if output_arg is None else check_output(output_arg, "--output")
    g, text = export_text(name)
    if game is not None and game != g.id:
        raise ScenarioError("--game", f"{name!r} is a scenario of {g.id!r}, not of {game!r}", f"--game {g.id}")
    if output is None:
        click.echo(text, nl=not text.endswith("\n"))
    else:
        write_output(output, text, "--output")


def register(group: click.Group) -> None:
    """Add ``resolve`` and ``scenarios`` to a click group."""
    group.add_command(resolve_command)
    group.add_command(scenarios_command)
