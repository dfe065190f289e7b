"""The layers of the package (docs/design.md, "Layers"): rules → pictures → widgets → pages → serving, and the
command line beside the widgets. No import runs back up, function-level (lazy) imports included, and only widget,
page and serving modules import a UI library.

Every module under ``explorer/`` is parsed with :mod:`ast`; every ``import`` / ``from ... import`` counts, at module
level and inside functions, except those under ``if TYPE_CHECKING:`` (never executed). A module's layer follows from
its path alone (:func:`layer`):

* **serving** — ``explorer/serving/``, ``explorer/app.py``, ``explorer/cli_serve.py`` and any module named
  ``panel_support`` (the Panel/Bokeh server code, wherever it lives while it moves to ``serving/``);
* **pages** — ``explorer/games/<game>/game.py``: a game's registry entry, whose page functions build the widgets
  (imported lazily) and whose ``cli`` builds its command line;
* **widgets** — ``explorer/widgets/``, and any module named ``views`` or ending in ``_views``;
* **commands** — the command line: ``explorer/cli.py``, ``explorer/__main__.py``, ``explorer/cli_*.py`` and a game's
  ``cli.py`` / ``cli_*.py``; it may draw (``explorer render``) but never builds a widget;
* **pictures** — ``explorer/render/``, and any module ending in ``_svg``, ``_picture`` or ``_draw``: static SVG/HTML
  of rules values, python-chess's ``chess.svg``;
* **rules** — everything else (the engines, the file formats, the registry, the trace, the text of outcomes).

The one exception, the notebook display hook: a rules value's ``_repr_svg_`` / ``_repr_html_`` / ``to_svg`` method may
import a picture module inside that method (``Board.to_svg`` → ``render.svg``, ``TableTop._repr_svg_`` →
``lof_picture``, ``MissionMap.to_svg`` → ``map_svg``), as python-chess's ``Board._repr_svg_`` imports ``chess.svg``;
never a widget. A widget module reaches its game's data (built-in scenarios, verdicts, defaults) through the
:class:`~explorer.games.Game` its page is given (``Page.build(game)``) or the registry (``get_game(id)``), never by
importing its ``game`` module.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "explorer"

RULES, PICTURES, COMMANDS, WIDGETS, PAGES, SERVING = "rules", "pictures", "commands", "widgets", "pages", "serving"

MAY_IMPORT = {
    RULES: {RULES},
    PICTURES: {RULES, PICTURES},
    COMMANDS: {RULES, PICTURES, COMMANDS},
    WIDGETS: {RULES, PICTURES, WIDGETS},
    PAGES: {RULES, PICTURES, COMMANDS, WIDGETS, PAGES},
    SERVING: {RULES, PICTURES, COMMANDS, WIDGETS, PAGES, SERVING},
}
"""``{layer: the layers its modules may import}``."""

UI_LIBRARIES = ("ipywidgets", "ipycanvas", "traitlets", "panel", "bokeh", "ipywidgets_bokeh", "jupyter_bokeh",
                "pyviz_comms", "comm", "IPython")
"""Imported only by widget, page and serving modules (``explorer/render/sphinx.py``, a docs-build extension, too)."""

UI_ALLOWED = {WIDGETS, PAGES, SERVING}
DISPLAY_HOOKS = ("_repr_svg_", "_repr_html_", "to_svg")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def layer(name: str) -> str:
    """The layer of module ``name`` (``explorer.games.tagraid.lof_views``), from its path alone (module docstring)."""
    parts = name.split(".")
    last = parts[-1]
    if "serving" in parts[1:-1] or name in ("explorer.app", "explorer.cli_serve") or last == "panel_support" or \
            (len(parts) > 1 and parts[1] == "serving"):
        return SERVING
    if len(parts) == 4 and parts[1] == "games" and last == "game":
        return PAGES
    if (len(parts) > 1 and parts[1] == "widgets") or last == "views" or last.endswith("_views"):
        return WIDGETS
    if name in ("explorer.cli", "explorer.__main__") or (last == "cli" or last.startswith("cli_")):
        return COMMANDS
    if (len(parts) > 1 and parts[1] == "render") or last.endswith(("_svg", "_picture", "_draw")):
        return PICTURES
    return RULES


def _internal(target: str) -> str | None:
    while target and target not in MODULES:
        target = target.rpartition(".")[0]
    return target or None


@cache
def imports(name: str) -> list[tuple[str, int, str | None]]:
    """``(imported module, line, enclosing function or None)`` for every import of module ``name`` (relative imports
    resolved; ``from pkg import mod`` gives ``pkg.mod`` when that is a module), skipping ``if TYPE_CHECKING:``."""
    path = MODULES[name]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    out: list[tuple[str, int, str | None]] = []

    def visit(node: ast.AST, func: str | None) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                for n in child.orelse:
                    visit(n, func)
                continue
            if isinstance(child, ast.Import):
                out.extend((a.name, child.lineno, func) for a in child.names)
            elif isinstance(child, ast.ImportFrom):
                if child.level:
                    base = package[:len(package) - (child.level - 1)]
                    mod = ".".join(base + ([child.module] if child.module else []))
                else:
                    mod = child.module or ""
                out.append((mod, child.lineno, func))
                out.extend((f"{mod}.{a.name}", child.lineno, func) for a in child.names if f"{mod}.{a.name}" in MODULES)
            visit(child, child.name if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef) else func)

    visit(tree, None)
    return out


def test_every_layer_is_populated_and_the_known_modules_sit_where_the_design_says():
    assert {layer(n) for n in MODULES} == set(MAY_IMPORT)
    expect = {
        "explorer.games.tagraid.lof": RULES, "explorer.games.tagraid.lof_report": RULES,
        "explorer.games.tagraid.lof_scenario": RULES, "explorer.games.tagraid.table_scenario": RULES,
        "explorer.games.tagraid.lof_picture": PICTURES, "explorer.render.svg": PICTURES,
        "explorer.games.masseffect.map_svg": PICTURES, "explorer.games.galaxydefenders.map_draw": PICTURES,
        "explorer.games.tagraid.cli_lof": COMMANDS, "explorer.cli_resolve": COMMANDS, "explorer.cli": COMMANDS,
        "explorer.games.tagraid.lof_views": WIDGETS, "explorer.games.tagraid.views": WIDGETS,
        "explorer.widgets.hexboard": WIDGETS, "explorer.games.tagraid.game": PAGES,
        "explorer.app": SERVING, "explorer.cli_serve": SERVING, "explorer.games": RULES, "explorer.board": RULES,
    }
    assert {n: layer(n) for n in expect} == expect


def _violations(check) -> list[str]:
    bad = []
    for name in MODULES:
        for target, line, func in imports(name):
            msg = check(name, target, func)
            if msg:
                bad.append(f"{MODULES[name].relative_to(ROOT)}:{line}: {msg}")
    return bad


def test_no_import_runs_up_the_layers():
    def check(name, target, func):
        t = _internal(target)
        if t is None or t == name:
            return None
        mine, theirs = layer(name), layer(t)
        if theirs in MAY_IMPORT[mine]:
            return None
        if mine == RULES and theirs == PICTURES and func in DISPLAY_HOOKS:
            return None  # the notebook display hook (module docstring)
        return f"{mine} module {name} imports {theirs} module {t}" + (f" (in {func})" if func else "")

    assert _violations(check) == []


def test_only_widgets_pages_and_serving_import_a_ui_library():
    def check(name, target, func):
        top = target.split(".")[0]
        if top in UI_LIBRARIES and layer(name) not in UI_ALLOWED and name != "explorer.render.sphinx":
            return f"{layer(name)} module {name} imports {target}" + (f" (in {func})" if func else "")
        return None

    assert _violations(check) == []


def _cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out = []
    for root in edges:
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            for w in it:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(edges[w]))))
                    break
                if w in on:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    comp = []
                    while True:
                        w = stack.pop()
                        on.discard(w)
                        comp.append(w)
                        if w == v:
                            break
                    if len(comp) > 1:
                        out.append(sorted(comp))
    return out


def import_graph(hooks: bool) -> dict[str, set[str]]:
    """``{module: the explorer modules it imports}``, function-level imports included; ``hooks``: the display hooks'
    imports too."""
    return {n: {t for target, _, func in imports(n) if (hooks or func not in DISPLAY_HOOKS)
                for t in [_internal(target)] if t and t != n} for n in MODULES}


@pytest.mark.parametrize("game", ["tagraid", "masseffect", "galaxydefenders", "dagger"])
def test_the_rules_of_a_game_form_no_import_cycle_through_its_pictures_widgets_or_pages(game):
    """Counting function-level imports, a game's rules may import each other both ways (a cycle among rules
    modules), but no cycle may pass through a module of another layer (before the split, 28 of the 42 TAG Raid
    modules were one cycle through ``lof_views``, ``views`` and ``game``)."""
    prefix = f"explorer.games.{game}"
    graph = import_graph(hooks=False)
    sub = {n: {t for t in ts if t.startswith(prefix)} for n, ts in graph.items() if n.startswith(prefix)}
    crossing = [c for c in _cycles(sub) if {layer(n) for n in c} != {RULES}]
    assert crossing == []
