"""Embed a scenario of any game in a page: its picture, its cited steps, the ruling readings used and the outcome.

Game-neutral: every game is reached through the registry (:mod:`explorer.games`), which imports a game package only
when a scenario of that game is asked for; a game draws its scenarios through its optional ``Game.picture``.

Used by ``explorer render SCENARIO --format svg|html|md`` (:mod:`explorer.cli_render`), by the Sphinx directive
``{explorer}`` (:mod:`explorer.render.sphinx`) and by the rulings gallery (:mod:`explorer.render.gallery`).

>>> html = render_scenario("tr-02", "html")
>>> "Face to Face" in html and "explorer-embed" in html
True
"""

from __future__ import annotations

import html
import json
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from explorer.errors import ScenarioError, naming_source, short_repr
from explorer.trace import Trace

FORMATS = ("svg", "html", "md")
"""The formats :func:`render_scenario` writes."""

APP_URL_ENV = "EXPLORER_APP_URL"
"""Environment variable: base URL of the Panel app (default :data:`DEFAULT_APP_URL`)."""

BINDER_URL_ENV = "EXPLORER_BINDER_URL"
"""Environment variable: a Binder launch URL of the repository (``https://mybinder.org/v2/gh/<owner>/<repo>/HEAD``);
unset: the repository's Binder link (:func:`explorer.repository.binder_launch_url`, from ``pyproject.toml``'s
``[project.urls] Repository``), none while that address is the placeholder."""

DEFAULT_APP_URL = "http://localhost:5006"
"""Where ``explorer serve`` / ``./run app`` listen by default."""


@dataclass(frozen=True)
class Rendered:
    """Everything an embed shows, before formatting.

    Attributes:
        name: the scenario id (a built-in id, or a file's stem).
        game_id / game_title: its game.
        kind: the scenario kind (``""`` for a game with one kind).
        title / description: from the scenario file.
        trace: the resolution (cited steps, readings consulted, outcome).
        picture: SVG text, or ``None`` when the game draws nothing for this scenario.
        outcome: the outcome in plain text (the game's ``outcome_text``, else JSON).
        readings: ``[(option key, option title, reading, is default, reading's explanation)]`` for every reading
            the trace consulted.
        live_url: the Panel page that shows this kind of scenario, opened on this scenario (``?scenario=<id>``)
            when the page can open one (:func:`live_link`); ``None``: no page shows it.
        binder_url: the same page on Binder (``<binder>?urlpath=panel/explorer_page?page=...``), or ``None`` (see
            :data:`BINDER_URL_ENV`).
        live_opens: whether ``live_url`` opens this very scenario (``False``: the page opens its defaults).
    """

    name: str
    game_id: str
    game_title: str
    kind: str
    title: str
    description: str
    trace: Trace
    picture: str | None
    outcome: str
    readings: list[tuple[str, str, str, bool, str]]
    live_url: str | None
    binder_url: str | None
    live_opens: bool = False


def _document(name_or_path: str):
    """``(game, scenario, data, name)``: the parsed scenario, its TOML document and its id (a built-in scenario, a
    packaged file opened by name such as the table ``lof-quarry``, or a file)."""
    from explorer.games import find_builtin, load_any, read_toml

    game, sc = load_any(name_or_path)
    hit = find_builtin(name_or_path)
    if hit is not None:
        return game, sc, read_toml(name_or_path, text=game.scenario_text(name_or_path)), name_or_path
    named = {f.name: f for f in game.named_files()}.get(name_or_path)
    if named is not None and not os.path.exists(name_or_path):  # load_any opened it by name, not as a file
        return game, sc, {**named.document, "title": named.title}, name_or_path
    return game, sc, read_toml(name_or_path), Path(name_or_path).stem


def live_page(game, kind: str) -> str | None:
    """The slug of the game's page that shows scenarios of ``kind`` (``Page.kinds``), or ``None`` when no page does."""
    for p in game.pages:
        if (kind or "") in p.kinds:
            return p.slug
    return None


def live_link(game, name: str | None, kind: str) -> tuple[str, bool] | None:
    """``(path and query, opens the scenario)`` of the app page showing scenarios of ``kind``: ``"/tagraid-face-to-
    face?scenario=tr-05"`` when ``name`` is a built-in id and the page can open it (``Page.open``, the app's
    ``?scenario=``), else the bare page path and ``False``; ``None`` when no page shows ``kind``."""
    from urllib.parse import quote

    slug = live_page(game, kind)
    if slug is None:
        return None
    path = f"/{game.id}-{slug}"
    if name and game.page(slug).open is not None and name in game.builtin_names():
        return f"{path}?scenario={quote(name)}", True
    return path, False


def binder_link(binder_url: str, route: str) -> str:
    """A Binder launch URL opening app route ``route`` (``"/dagger-nemesis-phase?scenario=dg-01"``) through
    jupyter-panel-proxy's ``explorer_page`` app (``apps/explorer_page.py``)."""
    from urllib.parse import quote

    page, _, query = route.lstrip("/").partition("?")
    target = f"panel/explorer_page?page={page}" + (f"&{query}" if query else "")
    return f"{binder_url.rstrip('/')}?urlpath={quote(target, safe='')}"


def collect(name_or_path: str | Path, rulings: Mapping[str, str] | None = None, *, app_url: str | None = None,
            binder_url: str | None = None) -> Rendered:
    """Load, resolve and draw a scenario (see :class:`Rendered`).

    Args:
        name_or_path: a built-in scenario id of any game, a packaged file's name (:class:`~explorer.games.NamedFile`:
            the TAG Raid table ``lof-quarry``), or the path of a scenario TOML file.
        rulings: ``{option key: reading}`` overriding the scenario's own ``[rulings]``.
        app_url: base URL of the Panel app (default: ``$EXPLORER_APP_URL`` or :data:`DEFAULT_APP_URL`).
        binder_url: Binder launch URL (default: ``$EXPLORER_BINDER_URL``, else the repository's,
            :func:`explorer.repository.binder_launch_url`; ``""`` or none known: no Binder link).

    Raises:
        ScenarioError: unknown scenario, invalid file, unknown ruling option or reading.
    """
    game, sc, data, name = _document(str(name_or_path))
    with naming_source(str(name_or_path)):   # a refusal while resolving or drawing names the file
        trace = game.resolve(sc, rulings=dict(rulings or {}), seed=None, reroll=False)
        picture = game.picture(sc, trace) if game.picture is not None else None
    outcome = game.outcome_text(trace) if game.outcome_text is not None else \
        "Outcome:\n" + json.dumps(trace.outcome, indent=2, ensure_ascii=False)
    options = {o.key: o for o in game.ruling_options()}
    readings = []
    for key, value in trace.rulings.items():
        o = options.get(key)
        readings.append((key, o.title if o else key, value, bool(o and o.default == value),
                         str(o.readings.get(value, "")) if o else ""))
    kind = str(data.get("kind", ""))
    app = (app_url or os.environ.get(APP_URL_ENV) or DEFAULT_APP_URL).rstrip("/")
    link = live_link(game, name, kind)
    if binder_url is None:   # the environment, else the repository's address (none while it is the placeholder)
        from explorer.repository import binder_launch_url

        binder_url = os.environ.get(BINDER_URL_ENV) or binder_launch_url()
    binder = binder_url or None
    return Rendered(name, game.id, game.title, kind, str(data.get("title", name)), str(data.get("description", "")),
                    trace, picture, outcome, readings, f"{app}{link[0]}" if link else None,
                    binder_link(binder, link[0]) if binder and link else None, bool(link and link[1]))


# ------------------------------------------------------------------------------------------------------- formats

def _svg_size(svg: str) -> tuple[float, float]:
    """Width and height of an SVG document (from ``width``/``height``, else its ``viewBox``)."""
    head = svg[:svg.find(">") + 1]
    w = re.search(r"\bwidth=['\"]([\d.]+)", head)
    h = re.search(r"\bheight=['\"]([\d.]+)", head)
    if w and h:
        return float(w.group(1)), float(h.group(1))
    vb = re.search(r"viewBox=['\"][-\d.]+[ ,]+[-\d.]+[ ,]+([\d.]+)[ ,]+([\d.]+)", head)
    return (float(vb.group(1)), float(vb.group(2))) if vb else (600.0, 400.0)


def _strip_prolog(svg: str) -> str:
    """The ``<svg ...>`` element alone (no XML declaration or doctype), to nest or inline it."""
    i = svg.find("<svg")
    return svg[i:] if i >= 0 else svg


def _wrap(text: str, width: int) -> list[str]:
    import textwrap

    return textwrap.wrap(text, width) or [""]


def _text_lines(r: Rendered) -> list[tuple[str, str]]:
    """``[(style, text)]``: the embed as lines (title, description, steps, readings, outcome)."""
    out: list[tuple[str, str]] = [("h", r.title), ("i", f"{r.game_title} — scenario {r.name}")]
    out += [("p", line) for line in _wrap(r.description, 104)] if r.description else []
    current = None
    for n, s in enumerate(r.trace.steps, 1):
        if s.section != current:
            current = s.section
            if current:
                out.append(("b", current))
        out += [("p", (f"{n:>2}. " if k == 0 else "    ") + line)
                for k, line in enumerate(_wrap(f"{s.title}  [{s.rule}]", 104))]
    if r.readings:
        out.append(("b", "Ruling readings used"))
        out += [("p", f"  {key} = {value}" + (" (default)" if default else "")) for key, _t, value, default, _e
                in r.readings]
    out.append(("b", "Outcome"))
    lines = r.outcome.splitlines()
    verdict = lines[0].removeprefix("Outcome:").strip() if lines else ""   # "Outcome: <the answer>" or a header
    for line in ([verdict] if verdict else []) + [x for x in lines[1:] if x.strip()]:
        indent = line[:len(line) - len(line.lstrip())]
        out += [("p", (indent if k == 0 else indent + "  ") + part)
                for k, part in enumerate(_wrap(line.strip(), 104 - len(indent)))]
    return out


def to_svg(r: Rendered) -> str:
    """One standalone SVG: the picture (if any) above the steps, readings and outcome as text lines."""
    lines = _text_lines(r)
    pw, ph = _svg_size(r.picture) if r.picture else (0.0, 0.0)
    line_h = 16
    width = max(pw, 800.0)
    height = ph + 20 + line_h * len(lines) + 10
    out = [f"<svg xmlns='http://www.w3.org/2000/svg' width='{width:.0f}' height='{height:.0f}' "
           f"viewBox='0 0 {width:.0f} {height:.0f}' font-family='sans-serif' font-size='12'>",
           f"<title>{html.escape(r.title)}</title>", f"<rect width='{width:.0f}' height='{height:.0f}' fill='white'/>"]
    if r.picture:
        inner = _strip_prolog(r.picture)
        inner = re.sub(r"^<svg\b", f"<svg x='0' y='0'", inner, count=1)
        out.append(inner)
    y = ph + 20
    style = {"h": "font-size='15' font-weight='bold'", "b": "font-weight='bold'", "i": "font-style='italic'",
             "p": "font-family='monospace' xml:space='preserve'"}
    for kind, text in lines:
        y += line_h
        out.append(f"<text x='8' y='{y}' {style[kind]}>{html.escape(text)}</text>")
    out.append("</svg>")
    return "\n".join(out)


def _links_html(r: Rendered) -> str:
    links = []
    if r.live_url:
        if r.live_opens:
            links.append(f"<a class='explorer-live' href='{html.escape(r.live_url)}'>Open <code>"
                         f"{html.escape(r.name)}</code> live in the app</a>")
        else:
            links.append(f"<a class='explorer-live' href='{html.escape(r.live_url)}'>Open the "
                         f"{html.escape(r.game_title)} page live</a> (this page opens its defaults: set "
                         f"<code>{html.escape(r.name)}</code> up there)")
    else:
        links.append("no live page for this game in the app yet")
    if r.binder_url:
        links.append(f"<a class='explorer-binder' href='{html.escape(r.binder_url)}'>Launch on Binder</a>")
    return "<p class='explorer-links'>" + " · ".join(links) + "</p>"


def to_html(r: Rendered, *, heading: bool = True) -> str:
    """An HTML fragment (``<div class="explorer-embed">``): inline SVG picture, steps with their sections, readings
    table, outcome, links to the live page and Binder. Self-contained (inline styles only)."""
    e = html.escape
    out = [f"<div class='explorer-embed' data-scenario='{e(r.name)}' data-game='{e(r.game_id)}'>"]
    if heading:
        out.append(f"<p class='explorer-embed-title'><b>{e(r.title)}</b> <i>({e(r.game_title)}, "
                   f"<code>{e(r.name)}</code>)</i></p>")
        if r.description:
            out.append(f"<p>{e(r.description)}</p>")
    if r.picture:
        out.append("<div class='explorer-picture' style='overflow-x:auto'>" + _strip_prolog(r.picture) + "</div>")
    current = None
    out.append("<div class='explorer-steps'><ol class='explorer-steps' start='1'>")
    for n, s in enumerate(r.trace.steps, 1):
        if s.section != current:  # a section heading between numbered lists that keep counting
            current = s.section
            if current:
                out.append(f"</ol><p class='explorer-section' style='margin:.3em 0 0'><b>{e(current)}</b></p>"
                           f"<ol class='explorer-steps' start='{n}'>")
        out.append(f"<li>{e(s.title)} <span class='explorer-rule'>[{e(str(s.rule))}]</span>"
                   + (f"<br><small>{e(s.detail)}</small>" if s.detail else "") + "</li>")
    out.append("</ol></div>")
    if r.readings:
        out.append("<table class='explorer-readings'><tr><th>Ruling option</th><th>Reading used</th><th></th></tr>")
        for key, title, value, default, expl in r.readings:
            out.append(f"<tr><td>{e(title)} (<code>{e(key)}</code>)</td><td><code>{e(value)}</code>"
                       f"{' (default)' if default else ''}</td><td><small>{e(expl)}</small></td></tr>")
        out.append("</table>")
    out.append(f"<pre class='explorer-outcome'>{e(r.outcome)}</pre>")
    out.append(_links_html(r))
    out.append("</div>")
    return "\n".join(out)


def to_markdown(r: Rendered, picture_href: str | None = None) -> str:
    """Markdown: heading, description, the picture (an image link to ``picture_href``, else the SVG inlined as raw
    HTML), the numbered steps with their sections, the readings, the outcome and the links."""
    out = [f"### {r.title}", "", f"*{r.game_title}, scenario `{r.name}`*", ""]
    if r.description:
        out += [r.description, ""]
    if r.picture:
        out += [f"![{r.title}]({picture_href})" if picture_href else _strip_prolog(r.picture).replace("\n", " "), ""]
    current = None
    for n, s in enumerate(r.trace.steps, 1):
        if s.section != current:
            current = s.section
            if current:
                out += ["", f"**{current}**", ""]
        out.append(f"{n}. {s.title} — *{s.rule}*")
    out.append("")
    if r.readings:
        out += ["Ruling readings used:", ""]
        out += [f"- {title} (`{key}`): `{value}`" + (" (default)" if default else "")
                for key, title, value, default, _e in r.readings]
        out.append("")
    out += ["```text", r.outcome, "```", ""]
    if r.live_url:
        out.append(f"[Open `{r.name}` live]({r.live_url})" if r.live_opens else
                   f"[Open the page live]({r.live_url}) (it opens its defaults: set `{r.name}` up there)")
    if r.binder_url:
        out.append(f"[Launch on Binder]({r.binder_url})")
    return "\n".join(out).rstrip() + "\n"


def render_scenario(name_or_path: str | Path, fmt: str = "html", rulings: Mapping[str, str] | None = None,
                    **kwargs: Any) -> str:
    """A scenario of any game rendered for a page.

    Args:
        name_or_path: a built-in scenario id (``"tr-02"``, ``"me-04"``) or the path of a scenario TOML file.
        fmt: ``"svg"`` (one standalone SVG document: picture, then the steps, readings and outcome as text),
            ``"html"`` (a fragment ``<div class="explorer-embed">`` with an inline SVG picture) or ``"md"``
            (Markdown; the picture inlined as raw SVG unless ``picture_href`` names an image file to link).
        rulings: ``{option key: reading}`` overriding the scenario's own readings.
        kwargs: ``app_url``, ``binder_url`` (see :func:`collect`); ``picture_href`` for ``md``.

    Raises:
        ScenarioError: an unknown format (lists :data:`FORMATS`), an unknown scenario, an invalid file, an unknown
            ruling option or reading.
    """
    if fmt not in FORMATS:
        raise ScenarioError("--format", f"unknown format {short_repr(fmt)}", list(FORMATS))
    href = kwargs.pop("picture_href", None)
    r = collect(name_or_path, rulings, **kwargs)
    if fmt == "svg":
        return to_svg(r)
    if fmt == "md":
        return to_markdown(r, href)
    return to_html(r)


__all__ = ["FORMATS", "Rendered", "collect", "render_scenario", "to_svg", "to_html", "to_markdown", "live_page",
           "live_link", "binder_link"]
