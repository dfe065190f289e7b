"""`explorer rulings`: every place the rulebook is silent or ambiguous, with its readings and the default.

A judge can read the list, and pass ``--ruling key=reading`` to ``explorer resolve`` / ``explorer odds`` (or flip the
option in the widgets) to see the other reading's result.
"""

from __future__ import annotations

import json
import textwrap
from typing import Annotated

import typer

from .games.tagraid.options import ALL_OPTIONS


def rulings_table() -> list[dict]:
    """JSON-friendly list of the TAG Raid ruling options: key, title, section, readings, default, why_default."""
    return [{"key": o.key, "title": o.title, "section": o.section, "readings": dict(o.readings),
             "default": o.default, "why_default": o.why_default} for o in ALL_OPTIONS]


def rulings_text() -> str:
    """The ruling options as plain text (one block per option, the default marked with ``*``)."""
    out = []
    wrap = textwrap.TextWrapper(width=100, initial_indent="      ", subsequent_indent="      ")
    for o in ALL_OPTIONS:
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


def register(app: typer.Typer) -> None:
    """Add ``explorer rulings`` to the CLI app."""

    @app.command("rulings")
    def rulings_cmd(as_json: Annotated[bool, typer.Option("--json", help="Print as JSON.")] = False) -> None:
        """List the ruling options (TAG Raid): what the rulebook leaves open, both readings, the default."""
        if as_json:
            typer.echo(json.dumps(rulings_table(), indent=2, ensure_ascii=False))
        else:
            typer.echo(rulings_text())
