"""Built-in TAG Raid scenarios (packaged TOML files) and scenario loading.

>>> [s["name"] for s in list_scenarios()][:1]
['book-f2f-1v1']
>>> load_scenario(DEFAULT_SCENARIO).active.name
'StoneBreaker'
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from explorer.errors import ScenarioError, short_repr
from explorer.scenario import read_toml

from .model import Scenario, parse_scenario

DEFAULT_SCENARIO = "book-f2f-1v1"
"""The scenario the app opens with: the rulebook's Face to Face 1 vs 1 example."""

_ORDER = ["book-f2f-1v1", "book-normal-roll", "book-f2f-and-normal", "book-two-f2f", "book-stoorworm"]


def _dir():
    return resources.files(__package__) / "scenarios"


def _names() -> list[str]:
    found = sorted(p.name[:-5] for p in _dir().iterdir() if p.name.endswith(".toml"))
    return [n for n in _ORDER if n in found] + [n for n in found if n not in _ORDER]


def list_scenarios() -> list[dict[str, str]]:
    """Built-in scenarios, book examples first then handed cases: ``[{"name", "title", "description"}]``."""
    out = []
    for n in _names():
        data = read_toml(n, text=(_dir() / f"{n}.toml").read_text(encoding="utf-8"))
        out.append({"name": n, "title": str(data.get("title", n)), "description": str(data.get("description", ""))})
    return out


def load_scenario_text(text: str, source: str = "<text>") -> Scenario:
    """Parse and validate scenario TOML given as text (e.g. from a widget editor).

    Raises:
        ScenarioError: invalid TOML or an invalid field (the message names the field path and the allowed values).
    """
    return parse_scenario(read_toml(source, text=text), source)


def load_scenario(name_or_path: str | Path) -> Scenario:
    """A built-in scenario by name (see :func:`list_scenarios`) or a TOML file by path.

    Raises:
        ScenarioError: unknown name / missing file (lists the built-in names), invalid TOML or an invalid field.
    """
    s = str(name_or_path)
    names = _names()
    if s in names:
        return load_scenario_text((_dir() / f"{s}.toml").read_text(encoding="utf-8"), f"{s} (built-in)")
    try:
        data = read_toml(Path(s))
    except ScenarioError as e:
        if e.problem.startswith("file not found"):
            raise ScenarioError("", f"file not found, and no built-in scenario is named {short_repr(s)}",
                                "a built-in name (" + ", ".join(names) + ") or the path of a .toml file",
                                s) from None
        raise
    return parse_scenario(data, s)


def scenario_toml(name: str) -> str:
    """The TOML text of a built-in scenario (for editors and docs).

    Raises:
        ScenarioError: unknown name.
    """
    if name not in _names():
        raise ScenarioError("", f"unknown built-in scenario {short_repr(name)}", _names())
    return (_dir() / f"{name}.toml").read_text(encoding="utf-8")

