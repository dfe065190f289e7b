"""Built-in TAG Raid scenarios (packaged TOML files) and scenario loading.

>>> [s["name"] for s in list_scenarios()][:1]
['book-f2f-1v1']
>>> load_scenario(DEFAULT_SCENARIO).active.name
'StoneBreaker'
"""

from __future__ import annotations

from pathlib import Path
from explorer.errors import ScenarioError, short_repr
from explorer.scenario import read_toml

from explorer.games import Game, get_game

from .model import Scenario


def _game() -> Game:
    """TAG Raid's :class:`~explorer.games.Game`, through the registry (a rules module never imports the game module,
    which wires the pages: docs/design.md, "Layers")."""
    return get_game("tagraid")


DEFAULT_SCENARIO = _game().page_default("face-to-face")
"""The scenario the Face to Face page opens with (the registry's rule, :attr:`explorer.games.Page.default`): the
rulebook's Face to Face 1 vs 1 example."""


def _names() -> list[str]:
    return _game().builtin_names()


def list_scenarios() -> list[dict[str, str]]:
    """Built-in roll-exchange scenarios, book examples first then handed cases: ``[{"name", "title",
    "description"}]``. Whole Orders on a table (``kind = "order"``) are listed by :func:`list_order_scenarios`."""
    return [{"name": s.name, "title": s.title, "description": s.description} for s in _game().scenarios()
            if s.kind in ("", "roll")]


def list_order_scenarios() -> list[dict[str, str]]:
    """Built-in whole-Order scenarios (``kind = "order"``, :mod:`.orders.orderfile`)."""
    return [{"name": s.name, "title": s.title, "description": s.description} for s in _game().scenarios()
            if s.kind == "order"]


def load_scenario_text(text: str, source: str = "<text>") -> Scenario:
    """Parse and validate scenario TOML given as text (e.g. from a widget editor).

    Raises:
        ScenarioError: invalid TOML or an invalid field (the message names the field path and the allowed values).
    """
    return _game().parse_data(read_toml(source, text=text), source)


def load_scenario(name_or_path: str | Path) -> Scenario:
    """A built-in scenario by name (see :func:`list_scenarios`) or a TOML file by path.

    Raises:
        ScenarioError: unknown name / missing file (lists the built-in names), invalid TOML or an invalid field.
    """
    s = str(name_or_path)
    names = _names()
    if s in names:
        return _game().load_builtin(s)
    try:
        data = read_toml(Path(s))
    except ScenarioError as e:
        if e.problem.startswith("file not found"):
            raise ScenarioError("", f"file not found, and no built-in scenario is named {short_repr(s)}",
                                "a built-in name (" + ", ".join(names) + ") or the path of a .toml file",
                                s) from None
        raise
    return _game().parse_data(data, s)


def scenario_toml(name: str) -> str:
    """The TOML text of a built-in scenario (for editors and docs).

    Raises:
        ScenarioError: unknown name.
    """
    return _game().scenario_text(name)

