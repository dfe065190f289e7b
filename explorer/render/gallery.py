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
from dataclasses import dataclass
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


@dataclass(frozen=True)
class CaseMeta:
    """What the gallery's filter and section pages know of one entry: its game, scenario id, title, kind, the rule
    sections its trace cites (in first-cited order) and whether a ruling option changes its verdict
    (``ambiguous``) or was only consulted (``options``)."""

    game: str
    name: str
    title: str
    kind: str
    sections: tuple[str, ...]
    options: tuple[str, ...]
    ambiguous: bool


def case_markdown(game, name: str, app_url: str = "", binder_url: str = "") -> str:
    """The gallery entry of one built-in scenario (MyST Markdown, a level-2 heading with an explicit target
    ``gallery-<name>``). With ``app_url``, a link to the same scenario live in the app (``?scenario=<id>`` where the
    page can open it, :func:`.embed.live_link`); with ``binder_url``, one to Binder."""
    return _case(game, name, app_url, binder_url)[0]


def _case(game, name: str, app_url: str = "", binder_url: str = "") -> tuple[str, CaseMeta]:
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
    sections = tuple(dict.fromkeys(s.rule.section for s in trace.steps if s.rule.section))
    meta = CaseMeta(game.id, name, title, kind or "roll", sections, tuple(c["option"].key for c in compared),
                    any(c["differs"] for c in compared))
    return "\n".join(out), meta


def _live_md(link, app_url: str, binder_url: str, binder_link) -> str:
    if link is None:
        return ""
    route, opens = link
    what = "open it live" if opens else "its page live (opens its defaults)"
    out = f" · [{what}]({app_url.rstrip('/')}{route})" if app_url else f" · live page: `{route}`"
    return out + (f" · [Binder]({binder_link(binder_url, route)})" if binder_url else "")


def game_page(game, app_url: str = "", binder_url: str = "") -> str:
    """The gallery page of one game: every built-in scenario, in the game's display order."""
    return _game_page(game, app_url, binder_url)[0]


def _game_page(game, app_url: str = "", binder_url: str = "") -> tuple[str, list[CaseMeta]]:
    names = game.builtin_names()
    out = [f"(gallery-{game.id})=", f"# Rulings gallery: {md_escape(game.title)}", "",
           f"Every built-in case of {md_escape(game.title)} ({len(names)} scenarios: rulebook examples and handed "
           "rulings), resolved by the engine when these pages were built. Each one is also a test. "
           "{ref}`Filter every game's cases <gallery-filter>` by kind, rule section or ruling option.", ""]
    out += [f"- {{ref}}`{n} <gallery-{n}>`" for n in names] + [""]
    metas = []
    for n in names:
        text, meta = _case(game, n, app_url, binder_url)
        out += [text, ""]
        metas.append(meta)
    return "\n".join(out), metas


def section_page_name(game_id: str, section: str) -> str:
    """The file name (without ``.md``) of the gallery page of one rule section: ``section-<game id>-<slug>``."""
    slug = re.sub(r"[^a-z0-9]+", "-", section.lower()).strip("-") or "section"
    return f"section-{game_id}-{slug}"[:120]


FILTER_JS = """
(function () {
  var root = document.getElementById('explorer-gallery-filter');
  if (!root) return;
  var sel = function (name) { return root.querySelector('[data-filter=' + name + ']'); };
  var rows = root.querySelectorAll('tbody tr');
  var count = root.querySelector('.explorer-filter-count');
  function apply() {
    var game = sel('game').value, kind = sel('kind').value, section = sel('section').value;
    var ruling = sel('ruling').checked, shown = 0;
    rows.forEach(function (tr) {
      var ok = (!game || tr.dataset.game === game) && (!kind || tr.dataset.kind === kind)
        && (!section || tr.dataset.sections.split('|').indexOf(section) >= 0)
        && (!ruling || tr.dataset.ruling === 'yes');
      tr.style.display = ok ? '' : 'none';
      if (ok) shown++;
    });
    count.textContent = shown + ' of ' + rows.length + ' cases';
  }
  root.querySelectorAll('[data-filter]').forEach(function (e) { e.addEventListener('change', apply); });
  apply();
})();
"""
"""The gallery filter's script (runs in the page: no server, no library): hides the table rows that do not match."""


def filter_html(metas: list[CaseMeta], titles: dict[str, str]) -> str:
    """The gallery's client-side filter: selects for game, kind and rule section, a "changes with a ruling option"
    box, and a table of every case (linking its entry and its section pages) whose rows carry the values as
    ``data-`` attributes; :data:`FILTER_JS` shows the matching rows. ``titles``: ``{game id: title}``."""
    e = html.escape
    kinds = sorted({m.kind for m in metas})
    sections = sorted({(m.game, s) for m in metas for s in m.sections})

    def options(values) -> str:
        return "<option value=''>all</option>" + "".join(f"<option value='{e(v)}'>{e(label)}</option>"
                                                          for v, label in values)

    out = ["<div id='explorer-gallery-filter' class='explorer-gallery-filter'>",
           "<p class='explorer-filter-controls'>",
           f"<label>Game <select data-filter='game'>{options((g, t) for g, t in titles.items())}</select></label> ",
           f"<label>Kind <select data-filter='kind'>{options((k, k) for k in kinds)}</select></label> ",
           "<label>Rule section <select data-filter='section'>"
           f"{options((f'{g}:{s}', f'{titles[g]} — {s}') for g, s in sections)}</select></label> ",
           "<label><input type='checkbox' data-filter='ruling'> a ruling option changes the verdict</label> ",
           "<span class='explorer-filter-count'></span></p>",
           "<div class='explorer-scroll'><table class='explorer-gallery-table'><thead><tr><th>case</th><th>game</th>"
           "<th>kind</th><th>rule sections</th><th>ruling options</th></tr></thead><tbody>"]
    for m in metas:
        secs = "|".join(f"{m.game}:{s}" for s in m.sections)
        links = ", ".join(f"<a href='{section_page_name(m.game, s)}.html'>{e(s)}</a>" for s in m.sections)
        opts = ", ".join(f"<code>{e(o)}</code>" for o in m.options) + (" (changes the verdict)" if m.ambiguous else "")
        out.append(f"<tr data-game='{e(m.game)}' data-kind='{e(m.kind)}' data-sections='{e(secs)}' "
                   f"data-ruling='{'yes' if m.ambiguous else 'no'}'><td><a href='{e(m.game)}.html#gallery-{e(m.name)}'>"
                   f"<code>{e(m.name)}</code></a> {e(m.title)}</td><td>{e(titles[m.game])}</td><td>{e(m.kind)}</td>"
                   f"<td>{links}</td><td>{opts}</td></tr>")
    out += ["</tbody></table></div></div>", f"<script>{FILTER_JS}</script>"]
    return "\n".join(out)


def section_pages(metas: list[CaseMeta], titles: dict[str, str]) -> dict[str, str]:
    """``{file name: MyST Markdown}``: one page per rule section a built-in case cites, listing those cases (each
    linking its gallery entry) with their kind and whether a ruling option changes the verdict."""
    by: dict[tuple[str, str], list[CaseMeta]] = {}
    for m in metas:
        for s in m.sections:
            by.setdefault((m.game, s), []).append(m)
    pages = {}
    for (g, s), cases in sorted(by.items()):
        name = section_page_name(g, s)
        out = [f"({name})=", f"# {md_escape(s)}", "",
               f"{md_escape(titles[g])}: the {len(cases)} built-in case{'s' if len(cases) != 1 else ''} whose trace "
               "cites this rulebook section.", ""]
        for m in cases:
            flag = " — *a ruling option changes the verdict*" if m.ambiguous else ""
            out.append(f"- {{ref}}`{m.name} <gallery-{m.name}>` ({m.kind}): {md_escape(m.title)}{flag}")
        pages[f"{name}.md"] = "\n".join(out + [""])
    return pages


def gallery_pages(app_url: str = "", binder_url: str = "") -> dict[str, str]:
    """``{file name: MyST Markdown}``: ``index.md`` (the gallery's table of contents and its client-side filter),
    ``<game id>.md`` per game (live and Binder links when ``app_url`` / ``binder_url`` are given), ``sections.md``
    and one ``section-<game>-<slug>.md`` per rule section a case cites (:func:`section_pages`)."""
    from explorer.games import all_games

    games = all_games()
    pages, metas = {}, []
    for g in games:
        pages[f"{g.id}.md"], m = _game_page(g, app_url, binder_url)
        metas += m
    titles = {g.id: g.title for g in games}
    per_section = section_pages(metas, titles)
    pages.update(per_section)
    index = ["# Rulings gallery", "",
             "Every built-in scenario of every game: the situation, the verdict, the trace with the rulebook section "
             "of each step, and — where the rulebook is open — both readings side by side with the default and why. "
             "Generated from the scenario files at build time (`explorer.render.gallery`), so it cannot drift from "
             "the engine.", "", "```{toctree}", ":maxdepth: 1", ""]
    index += [g.id for g in games] + ["sections", "```", ""]
    index += [f"- {md_escape(g.title)}: {len(g.builtin_names())} cases" for g in games] + [""]
    index += ["(gallery-filter)=", "## Find a case", "",
              "Pick a game, a kind, a rule section, or only the cases a ruling option changes (the filter runs in "
              "your browser).", "", filter_html(metas, titles), ""]
    pages["index.md"] = "\n".join(index)
    sections = ["# Cases by rule section", "",
                "One page per rulebook section the built-in cases cite, listing those cases.", "",
                "```{toctree}", ":maxdepth: 1", ""] + [n[:-3] for n in sorted(per_section)] + ["```", ""]
    pages["sections.md"] = "\n".join(sections)
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


__all__ = ["gallery_pages", "write_gallery", "game_page", "case_markdown", "readings_compared", "md_escape", "CaseMeta",
           "filter_html", "section_pages", "section_page_name"]
