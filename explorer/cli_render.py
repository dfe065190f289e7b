"""`explorer render`: a scenario of any game as SVG, HTML or Markdown, for documentation without Sphinx.

What is rendered (see :func:`explorer.render.embed.render_scenario`): the scenario's picture where its game draws one
(a Mass Effect Mission Map, the D.A.G.G.E.R. world map), the cited step list, the ruling readings used, the outcome,
and links to the game's live page in the Panel app and to Binder.

Examples::

    explorer render tr-02 --format md
    explorer render me-04 --format svg -o me-04.svg
    explorer render tr-05 --format html --ruling sv_above_20=excess_to_die -o tr-05.html

With ``--format md -o FILE.md`` the picture is written next to it as ``FILE.svg`` and linked; with ``--format html
-o FILE`` the output is a whole HTML document (printed to stdout it is the fragment, for pasting into a page).
"""

from __future__ import annotations

import html
from pathlib import Path

import click


@click.command("render", epilog="\b\nSCENARIO is a built-in scenario name, a packaged TAG Raid table such as\n"
                                 "lof-quarry (`explorer scenarios` lists both), or the path of a TOML file.")
@click.argument("scenario")
@click.option("--format", "-f", "fmt", default="html", help="svg | html | md")
@click.option("--ruling", multiple=True, help="Choose a reading: key=reading (repeatable).")
@click.option("--output", "-o", "output_arg", default=None, metavar="FILE",
              help="Write to this file instead of stdout (a new or regular file; - is stdout).")
def render_command(scenario: str, fmt: str, ruling: tuple[str, ...], output_arg: str | None) -> None:
    """Render a scenario (picture, cited steps, readings, outcome) as SVG, HTML or Markdown."""
    from .errors import ScenarioError
    from .games import load_any, parse_rulings
    from .outpath import check_output, write_output
    from .render.embed import FORMATS, collect, to_html, to_markdown, to_svg

    if fmt not in FORMATS:
        raise ScenarioError("--format", f"unknown format {fmt!r}", list(FORMATS))
    # before any work: one line naming the option, the path and what is allowed, not an OS error after the work
    output = None if output_arg is None else check_output(output_arg, "--output")
    if output is not None and fmt == "md":  # the picture is written next to the Markdown file
        pic = output.with_suffix(".svg")
        check_output(pic, "--output (its picture, " + pic.name[:80] + ")", stdout_ok=False)
    game, _sc = load_any(scenario)
    r = collect(scenario, parse_rulings(list(ruling), [game]))
    if fmt == "svg":
        text = to_svg(r)
    elif fmt == "md":
        href = None
        if output is not None and r.picture:
            pic = output.with_suffix(".svg")
            write_output(pic, r.picture, "--output (its picture, " + pic.name[:80] + ")")
            href = pic.name
        text = to_markdown(r, href)
    else:
        text = to_html(r)
        if output is not None:
            css = (Path(__file__).parent / "render" / "static" / "explorer.css").read_text(encoding="utf-8")
            text = (f"<!doctype html>\n<html><head><meta charset='utf-8'><meta name='viewport' "
                    f"content='width=device-width, initial-scale=1'><title>{html.escape(r.title)}</title>"
                    f"<style>{css}</style></head>"
                    f"<body style='font-family:sans-serif;max-width:60em;margin:auto'>\n{text}\n</body></html>\n")
    if output is None:
        click.echo(text, nl=not text.endswith("\n"))
    else:
        write_output(output, text, "--output")


def register(group: click.Group) -> None:
    """Add ``render`` to a click group."""
    group.add_command(render_command)
