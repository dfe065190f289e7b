"""The rule index pages of the documentation site: one MyST Markdown page per game listing every rulebook section (in
rulebook order) with the code that implements it, the built-in scenarios and the tests that cite it, and the ruling
options it leaves open; sections no code cites are listed too, and gathered at the top as the coverage gaps.

Generated from :mod:`explorer.rule_index` at every docs build (:mod:`explorer.render.sphinx`, written to
``docs/rule-index/``, not checked in), like the rulings gallery. A definition is written as a Sphinx
cross-reference (``{py:obj}``), which is a link wherever the API reference documents it (autodoc) and plain code
elsewhere; a scenario links to its gallery entry when the gallery is built too.

Game-neutral: games are reached through the registry (:mod:`explorer.games`).

>>> pages = rule_index_pages(["tagraid"])
>>> sorted(pages)
['index.md', 'tagraid.md']
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

from explorer.render.gallery import md_escape
from explorer.rule_index import CodeRef, RuleIndex, SectionEntry, build_index


def section_label(game_id: str, entry: SectionEntry) -> str:
    """The explicit target of a section's heading: ``rule-<game id>-<slug>`` (``rule-tagraid-face-to-face``), from
    its first constant (or its title when ``sections.py`` does not list it)."""
    base = entry.constants[0] if entry.constants else entry.title
    return f"rule-{game_id}-" + (re.sub(r"[^a-z0-9]+", "-", base.lower()).strip("-") or "section")


def _code_line(c: CodeRef) -> str:
    short = c.qualname or c.module.rsplit(".", 1)[-1]
    role = "py:mod" if c.kind == "module" else "py:obj"
    ref = f"`{short}`" if "<" in short else f"{{{role}}}`{short} <{c.dotted}>`"
    where = f"`{c.path}:{c.line}`"
    what = {"module": "module", "name": "module-level name"}.get(c.kind, c.kind)
    how = " and ".join({"constant": "names the constant", "docstring": "docstring cites the title"}[h] for h in c.how)
    summary = f" — {md_escape(c.summary)}" if c.summary else ""
    return f"- {ref} ({what}, {where}; {how}){summary}"


def section_markdown(index: RuleIndex, entry: SectionEntry, gallery: bool = True) -> str:
    """One section's entry (a level-2 heading with the target :func:`section_label`): its constants, code, scenarios
    (gallery links when ``gallery``), tests and ruling options."""
    out = [f"({section_label(index.game, entry)})=", f"## {md_escape(entry.title)}", ""]
    names = ", ".join(f"`{c}`" for c in entry.constants) if entry.constants else \
        "not in `sections.py` (cited by a trace)"
    out += [f"Constant: {names}" + ("" if entry.implemented else " · **no code cites this section**"), ""]
    if entry.code:
        out += ["**Code.**", ""] + [_code_line(c) for c in entry.code] + [""]
    if entry.scenarios:
        cited = [f"{{ref}}`{n} <gallery-{n}>`" if gallery else f"`{n}`" for n in entry.scenarios]
        out += ["**Scenarios whose trace cites it.** " + ", ".join(cited), ""]
    if entry.tests:
        out += ["**Tests.**", ""] + [f"- `{t.nodeid}` (line {t.line})" for t in entry.tests] + [""]
    if entry.rulings:
        out += ["**Ruling options left open here.** " + ", ".join(f"`{k}`" for k in entry.rulings)
                + " (`explorer rulings`)", ""]
    return "\n".join(out)


def game_page(index: RuleIndex, gallery: bool = True) -> str:
    """The rule index page of one game: its counts, the coverage gaps, then every section in rulebook order."""
    gaps = index.gaps
    out = [f"(rule-index-{index.game})=", f"# Rule index: {md_escape(index.title)}", "",
           f"Every section of the rulebook that the code knows (`sections.py`, in rulebook order): "
           f"{len(index.sections)} sections, {len(index.sections) - len(gaps)} cited by code, {len(gaps)} by none. "
           f"Under each: the functions that implement it, the built-in scenarios whose trace cites it, the tests "
           f"that cite it and the ruling options it leaves open. The same on the command line: "
           f"`explorer rules --game {index.game} [--section TEXT] [--json]`.", ""]
    if gaps:
        out += ["**Coverage gaps** (no code cites these sections): "
                + ", ".join(f"{{ref}}`{md_escape(s.title)} <{section_label(index.game, s)}>`" for s in gaps), ""]
    for s in index.sections:
        out += [section_markdown(index, s, gallery), ""]
    return "\n".join(out)


def rule_index_pages(game_ids: Iterable[str] | None = None, gallery: bool = True) -> dict[str, str]:
    """``{file name: MyST Markdown}``: ``index.md`` (a table of the games with their counts, and the toctree) and
    ``<game id>.md`` per game (all registered games when ``game_ids`` is ``None``).

    Raises:
        ScenarioError: an unknown game id.
    """
    from explorer.games import game_ids as registered

    indexes = [build_index(g) for g in (registered() if game_ids is None else game_ids)]
    pages = {f"{ix.game}.md": game_page(ix, gallery) for ix in indexes}
    index = ["# Rule index", "",
             "Every rulebook section of every game, in rulebook order, with the code that implements it (found in "
             "the source: the functions that name the section's constant in `sections.py` or cite its title in "
             "their docstring), the built-in scenarios whose trace cites it and the tests that cite it — so a "
             "section title leads to its code in seconds. Sections no code cites are listed too: they are the "
             "coverage gaps. Generated at build time (`explorer.rule_index`); on the command line: "
             "`explorer rules --game <id>`.", "",
             "| game | sections | cited by code | gaps | scenarios citing a section |", "|---|---|---|---|---|"]
    for ix in indexes:
        cited = len({n for s in ix.sections for n in s.scenarios})
        index.append(f"| {{doc}}`{md_escape(ix.title)} <{ix.game}>` | {len(ix.sections)} | "
                     f"{len(ix.sections) - len(ix.gaps)} | {len(ix.gaps)} | {cited} |")
    index += ["", "```{toctree}", ":maxdepth: 1", ":hidden:", ""] + [ix.game for ix in indexes] + ["```", ""]
    pages["index.md"] = "\n".join(index)
    return pages


def write_rule_index(directory: str | Path, gallery: bool = True) -> list[Path]:
    """Write :func:`rule_index_pages` into ``directory`` (created if needed); a file whose text is unchanged is not
    rewritten (so Sphinx does not rebuild it). Returns the paths."""
    d = Path(directory)
    d.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, text in rule_index_pages(gallery=gallery).items():
        p = d / name
        if not p.exists() or p.read_text(encoding="utf-8") != text:
            p.write_text(text, encoding="utf-8")
        paths.append(p)
    return paths


__all__ = ["rule_index_pages", "write_rule_index", "game_page", "section_markdown", "section_label"]
