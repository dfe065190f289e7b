"""`explorer rules`: the rule index of a game (:mod:`explorer.rule_index`): every rulebook section with the code that
implements it, the built-in scenarios whose traces cite it, the tests that cite it and the ruling options it leaves
open; sections no code cites are listed too (the coverage gaps)."""

from __future__ import annotations

import json

import click


@click.command("rules")
@click.option("--game", default=None, help="Only this game (a game id; default: every game).")
@click.option("--section", "section", default=None, metavar="TEXT",
              help="Only the sections whose title (or constant name) contains TEXT (case ignored).")
@click.option("--json", "as_json", is_flag=True, help="Print as JSON.")
def rules_command(game: str | None, section: str | None, as_json: bool) -> None:
    """List each rulebook section (in rulebook order) with the functions that implement it (module:function,
    file:line), the built-in scenarios and the tests that cite it; a section no code cites says so. Cached until a
    source file changes."""
    from .errors import ScenarioError, short_repr
    from .games import game_ids
    from .rule_index import build_index, index_text

    if game is not None and game not in game_ids():
        raise ScenarioError("--game", f"unknown game {short_repr(game)}", game_ids())
    indexes = [build_index(g) for g in ([game] if game else game_ids())]
    picked = [(ix, ix.matching(section) if section is not None else ix.sections) for ix in indexes]
    if section is not None and not any(entries for _ix, entries in picked):
        raise ScenarioError("--section", f"no section title or constant contains {short_repr(section)}",
                            "part of a title as `explorer rules" + (f" --game {game}" if game else "")
                            + "` lists them, e.g. " + repr(indexes[0].sections[0].title))
    if as_json:
        data = [{**ix.to_dict(), "sections": [s.to_dict() for s in entries]} for ix, entries in picked]
        click.echo(json.dumps(data[0] if game else data, indent=2, ensure_ascii=False))
        return
    click.echo("\n".join(index_text(ix, entries) for ix, entries in picked if entries or section is None).rstrip("\n"))
