"""What each rules command leaves imported (issue 18, "Rules below pictures below widgets"): ``explorer resolve`` of a
scenario of each game and kind, ``explorer tagraid lof``, ``explorer render`` and every odds/forecast verb load no UI
library (docs/design.md, "Layers"), and networkx, shapely and numpy only where the command computes with them.

Each command runs in a fresh interpreter (:func:`cli_helpers.modules_after`), which reports ``sys.modules`` at its end.
The static side of the same rule is ``tests/test_layers.py``."""

from __future__ import annotations

import pytest

from cli_helpers import modules_after

UI = ("ipywidgets", "ipycanvas", "traitlets", "panel", "bokeh", "ipywidgets_bokeh", "comm", "IPython")
NUMERIC = ("networkx", "shapely", "numpy")

TAGRAID_ODDS = ["tagraid", "odds", "--burst-a", "3", "--sv-a", "13", "--burst-b", "1", "--sv-b", "12"]

COMMANDS = {
    # command: the numeric libraries it needs (exactly these load)
    ("resolve", "tr-02"): set(),                       # a roll exchange: dice only
    ("resolve", "tr-22"): {"shapely", "numpy"},         # a table: Line of Fire on shapely (numpy under it)
    ("resolve", "tr-16-order"): {"shapely", "numpy"},   # an Order on a table: LoF and Moves on the board
    ("resolve", "me-diagram-4"): set(),                 # a Mission Map question: hex lines, no graph
    ("resolve", "me-03"): {"networkx"},                 # an enemy activation: movement graph
    ("resolve", "me-diagram-5"): set(),                 # a Strategy Roll
    ("resolve", "me-09"): set(),                        # damage
    ("resolve", "gd-01"): set(),                        # combat
    ("resolve", "gd-05"): set(),                        # conditions
    ("resolve", "dg-03"): set(),                        # a Nemesis Phase: the world map walked without networkx
    ("tagraid", "lof", "lof-demo"): {"shapely", "numpy"},
    ("render", "tr-22", "--format", "svg"): {"shapely", "numpy"},
    tuple(TAGRAID_ODDS): set(),
    ("masseffect", "strategy-odds"): set(),
    ("galaxydefenders", "odds", "--dice", "red=3"): set(),
    ("dagger", "forecast", "dg-three-rounds"): set(),
}


def _loaded(mods: set[str], libs: tuple[str, ...]) -> set[str]:
    return {lib for lib in libs for m in mods if m == lib or m.startswith(lib + ".")}


@pytest.mark.parametrize("argv", list(COMMANDS), ids=" ".join)
def test_a_rules_command_loads_no_ui_library_and_only_the_numeric_libraries_it_needs(argv):
    rc, mods = modules_after(list(argv))
    assert rc == 0
    assert _loaded(mods, UI) == set()
    assert sorted(m for m in mods if m.endswith("_views") or m.startswith("explorer.widgets")) == []
    assert _loaded(mods, NUMERIC) == COMMANDS[argv]


@pytest.mark.parametrize("argv", [TAGRAID_ODDS, ["masseffect", "strategy-odds"]], ids=" ".join)
def test_an_odds_verb_that_reads_no_file_loads_no_pydantic(argv):
    """``explorer tagraid odds`` and ``explorer masseffect strategy-odds`` take numbers, not a file: no pydantic (the
    Strategy Roll's scenario models live in ``masseffect/strategy_scenario.py``)."""
    rc, mods = modules_after(argv)
    assert rc == 0 and _loaded(mods, ("pydantic",)) == set() and "explorer.scenario" not in mods
