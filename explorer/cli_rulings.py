"""`explorer rulings`: every place a rulebook is silent or ambiguous, with its readings and the default, per game.

A judge can read the list, and pass ``--ruling key=reading`` to ``explorer resolve`` (or flip the option in the
widgets) to see the other reading's result.
"""

from __future__ import annotations

import json
import textwrap

import click

from explorer.text import plural


def rulings_table(game: str | None = None) -> list[dict]:
    """JSON-friendly list of the ruling options of every game (or of ``game``): game, key, title, section, readings,
    default, why_default.

    Raises:
        ScenarioError: unknown game id.
    """
    from .games import all_games, get_game

    return [{"game": g.id, "key": o.key, "title": o.title, "section": o.section, "readings": dict(o.readings),
             "default": o.default, "why_default": o.why_default}
            for g in ([get_game(game)] if game else all_games()) for o in g.ruling_options()]


def rulings_text(game: str | None = None) -> str:
    """The ruling options as plain text, one heading per game, one block per option (the default marked ``*``)."""
    from .games import all_games, get_game

    out = []
    wrap = textwrap.TextWrapper(width=100, initial_indent="      ", subsequent_indent="      ")
    for g in [get_game(game)] if game else all_games():
        options = g.ruling_options()
        out += [f"# {g.title} ({g.id}): {plural(len(options), 'ruling option')}", ""]
        for o in options:
            out.append(f"{o.key}: {o.title}")
            out.append(f"    left open by: {o.section}")
            for name, text in o.readings.items():
                out.append(f"  {'*' if name == o.default else ' '} {name}")
                out.append(wrap.fill(text))
            if o.why_default:
                out.append(wrap.fill(f"default because: {o.why_default}"))
            out.append("")
    out.append("(* = default; choose another with --ruling key=reading)")
    return "\n".join(out)


@click.command("rulings")
@click.option("--game", default=None, help="Only this game (a game id).")
@click.option("--json", "as_json", is_flag=True, help="Print as JSON.")
def rulings_command(game: str | None, as_json: bool) -> None:
    """List the ruling options of every game: what each rulebook leaves open, both readings, the default."""
    if as_json:
        click.echo(json.dumps(rulings_table(game), indent=2, ensure_ascii=False))
    else:
        click.echo(rulings_text(game))


def register(group: click.Group) -> None:
    """Add ``explorer rulings`` to a click group."""
    group.add_command(rulings_command)
