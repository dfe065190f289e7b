"""The rulings gallery: one MyST Markdown page per game listing every built-in case, generated from the scenarios.

Each case shows its situation (the scenario's title and description), its picture where the game draws one, its
verdict (the outcome), the cited trace, and every ruling option the trace consulted: when another reading of an
option changes the verdict, both readings side by side with the default and why it is the default
(``Game.ruling_options()``); when it does not, a line saying so. Nothing is written by hand, so the gallery cannot
drift from the engine: the docs build (:mod:`explorer.render.sphinx`) regenerates it every time.

Game-neutral: games are reached through the registry (:mod:`explorer.games`).

>>> pages = gallery_pages()
>>> sorted(pages)[:2]
['dagger.md', 'galaxydefenders.md']
"""

from __future__ import annotations

import html
import re
from pathlib import Path

from explorer.errors import ExplorerError
from explorer.trace import Trace

_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>#|{}$~])")


def md_escape(text: str) -> str:
    """``text`` with Markdown/MyST markup characters backslash-escaped (so a step title renders as written)."""
    return _MD_SPECIAL.sub(r"\\\1", text).replace("\n", " ")


def _outcome_text(game, trace: Trace) -> str:
    import json

    return game.outcome_text(trace) if game.outcome_text is not None else \
        "Outcome:\n" + json.dumps(trace.outcome, indent=2, ensure_ascii=False)


def _fence(text: str) -> list[str]:
    ticks = "````" if "```" in text else "```"
    return [f"{ticks}text", text, ticks]


def readings_compared(game, scenario, trace: Trace) -> list[dict]:
    """For every ruling option ``trace`` consulted: ``{"option": RulingOption, "used": reading, "outcomes": {reading:
    (outcome text, outcome dict or None)}, "differs": bool}``; each reading is resolved with the others unchanged
    (an error a reading raises is shown as its outcome)."""
    options = {o.key: o for o in game.ruling_options()}
    out = []
    for key, used in trace.rulings.items():
        o = options.get(key)
        if o is None or len(o.readings) < 2:
            continue
        outcomes: dict[str, tuple[str, dict | None]] = {}
        for reading in o.readings:
            if reading == used:
                outcomes[reading] = (_outcome_text(game, trace), trace.outcome)
                continue
            try:
                t = game.resolve(scenario, rulings={key: reading}, seed=None, reroll=False)
                outcomes[reading] = (_outcome_text(game, t), t.outcome)
            except ExplorerError as e:
                outcomes[reading] = (f"error: {e}", None)
        values = [v for _, v in outcomes.values()]
        out.append({"option": o, "used": used, "outcomes": outcomes,
                    "differs": any(v != values[0] for v in values[1:])})
    return out


def case_markdown(game, name: str, app_url: str = "", binder_url: str = "") -> str:
    """The gallery entry of one built-in scenario (MyST Markdown, a level-2 heading with an explicit target
    ``gallery-<name>``). With ``app_url``, a link to the same scenario live in the app (``?scenario=<id>`` where the
    page can open it, :func:`.embed.live_link`); with ``binder_url``, one to Binder."""
    from explorer.games import read_toml

    from .embed import _strip_prolog, binder_link, live_link

    data = read_toml(name, text=game.scenario_text(name))
    sc = game.load_builtin(name)
    trace = game.resolve(sc, rulings={}, seed=None, reroll=False)
    title = str(data.get("title", name))
    kind = str(data.get("kind", ""))
    out = [f"(gallery-{name})=", f"## {md_escape(title)}", "",
           f"Scenario `{name}`" + (f" (kind `{kind}`)" if kind else "") + f" — `explorer resolve {name}`"
           + _live_md(live_link(game, name, kind), app_url, binder_url, binder_link), ""]
    if data.get("description"):
        out += ["**Situation.** " + md_escape(str(data["description"])), ""]
    picture = game.picture(sc, trace) if game.picture is not None else None
    if picture:
        out += ["<div class='explorer-picture' style='overflow-x:auto'>"
                + _strip_prolog(picture).replace("\n", " ") + "</div>", ""]
    out += ["**Verdict.**", ""] + _fence(_outcome_text(game, trace)) + [""]
    out += ["**Trace.**", ""]
    for n, s in enumerate(trace.steps, 1):
        where = f" ({md_escape(s.section)})" if s.section else ""
        out.append(f"{n}. {md_escape(s.title)}{where} — *{md_escape(str(s.rule))}*")
    out.append("")
    compared = readings_compared(game, sc, trace)
    if compared:
        out += ["**Ruling options consulted.**", ""]
        same = [c for c in compared if not c["differs"]]
        for c in compared:
            if not c["differs"]:
                continue
            o = c["option"]
            out += [f"*Ambiguous:* {md_escape(o.title)} (`{o.key}`, {md_escape(o.section)}) changes the verdict.",
                    "", "<div class='explorer-scroll'><table class='explorer-readings-compared'><tr>"]
            for reading, (text, _v) in c["outcomes"].items():
                tags = [t for t, on in (("default", reading == o.default), ("used here", reading == c["used"])) if on]
                out.append(f"<th><code>{html.escape(reading)}</code>{' (' + ', '.join(tags) + ')' if tags else ''}"
                           "</th>")
            out.append("</tr><tr>")
            for reading, (text, _v) in c["outcomes"].items():
                out.append(f"<td style='vertical-align:top'><small>{html.escape(str(o.readings[reading]))}</small>"
                           f"<pre>{html.escape(text)}</pre></td>")
            out += ["</tr></table></div>", ""]
            if o.why_default:
                out += [f"Why `{o.default}` is the default: {md_escape(o.why_default)}", ""]
        if same:
            out += ["Consulted without changing the verdict here (every reading gives the same outcome): "
                    + ", ".join(f"{md_escape(c['option'].title)} (`{c['option'].key}` = `{c['used']}`)"
                                for c in same) + ".", ""]
    return "\n".join(out)


def _live_md(link, app_url: str, binder_url: str, binder_link) -> str:
    if link is None:
        return ""
    route, opens = link
    what = "open it live" if opens else "its page live (opens its defaults)"
    out = f" · [{what}]({app_url.rstrip('/')}{route})" if app_url else f" · live page: `{route}`"
    return out + (f" · [Binder]({binder_link(binder_url, route)})" if binder_url else "")


def game_page(game, app_url: str = "", binder_url: str = "") -> str:
    """The gallery page of one game: every built-in scenario, in the game's display order."""
    names = game.builtin_names()
    out = [f"(gallery-{game.id})=", f"# Rulings gallery: {md_escape(game.title)}", "",
           f"Every built-in case of {md_escape(game.title)} ({len(names)} scenarios: rulebook examples and handed "
           "rulings), resolved by the engine when these pages were built. Each one is also a test.", ""]
    out += [f"- {{ref}}`{n} <gallery-{n}>`" for n in names] + [""]
    for n in names:
        out += [case_markdown(game, n, app_url, binder_url), ""]
    return "\n".join(out)


def gallery_pages(app_url: str = "", binder_url: str = "") -> dict[str, str]:
    """``{file name: MyST Markdown}``: ``index.md`` (the gallery's table of contents) and ``<game id>.md`` per game
    (live and Binder links when ``app_url`` / ``binder_url`` are given)."""
    from explorer.games import all_games

    games = all_games()
    pages = {f"{g.id}.md": game_page(g, app_url, binder_url) for g in games}
    index = ["# Rulings gallery", "",
             "Every built-in scenario of every game: the situation, the verdict, the trace with the rulebook section "
             "of each step, and — where the rulebook is open — both readings side by side with the default and why. "
             "Generated from the scenario files at build time (`explorer.render.gallery`), so it cannot drift from "
             "the engine.", "", "```{toctree}", ":maxdepth: 1", ""]
    index += [g.id for g in games] + ["```", ""]
    index += [f"- {md_escape(g.title)}: {len(g.builtin_names())} cases" for g in games] + [""]
    pages["index.md"] = "\n".join(index)
    return pages


def write_gallery(directory: str | Path, app_url: str = "", binder_url: str = "") -> list[Path]:
    """Write :func:`gallery_pages` into ``directory`` (created if needed); a file whose text is unchanged is not
    rewritten (so Sphinx does not rebuild it). Returns the paths."""
    d = Path(directory)
    d.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, text in gallery_pages(app_url, binder_url).items():
        p = d / name
        if not p.exists() or p.read_text(encoding="utf-8") != text:
            p.write_text(text, encoding="utf-8")
        paths.append(p)
    return paths


__all__ = ["gallery_pages", "write_gallery", "game_page", "case_markdown", "readings_compared", "md_escape"]
