"""What each rules command leaves imported (issue 18, "Rules below pictures below widgets"): ``explorer resolve`` of a
scenario of each game and kind, ``explorer tagraid lof``, ``explorer render`` and every odds/forecast verb load no UI
library (docs/design.md, "Layers"), and networkx, shapely and numpy only where the command computes with them.

Each command runs in a fresh interpreter (:func:`cli_helpers.modules_after`), which reports ``sys.modules`` at its end.
The static side of the same rule is ``tests/test_layers.py``."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from cli_helpers import ROOT, modules_after

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


NOT_NEEDED = {
    # command: rules modules of its own game it must not load (each once did, for one name it needed)
    ("resolve", "gd-01"): {"explorer.games.galaxydefenders.phases",       # the Menace token: now .menace
                           "explorer.games.galaxydefenders.conditions"},  # the outcome text's isinstance check
    ("resolve", "dg-03"): {"explorer.games.dagger.setup_scenario"},       # SetupOutcome: now in .results
    ("dagger", "forecast", "dg-three-rounds"): {"explorer.games.dagger.results"},  # reports no playthrough
    ("resolve", "tr-02"): {"explorer.games.masseffect.game", "explorer.games.dagger.game",   # found in the first game
                           "explorer.games.tagraid.outcomes",     # the outcome text asks for a roll exchange first
                           "explorer.games.tagraid.lof_report"},  # (the Order/table outcomes bring the LoF words)
    tuple(TAGRAID_ODDS): {"random", "json", "html"},       # rolls nothing, writes no JSON
    ("masseffect", "strategy-odds"): {"random", "json"},
}


@pytest.mark.parametrize("argv", list(NOT_NEEDED), ids=" ".join)
def test_a_resolve_loads_only_the_rules_modules_of_its_kind(argv):
    """A ``combat`` does not load the phase scenarios (six pydantic formats) for the Menace token, nor a Nemesis
    Phase the ``setup`` format for the outcome text's type check; a forecast reports no playthrough (no outcome types),
    a TAG Raid built-in imports no later game, and the odds verbs roll no dice and write no JSON (issue 18: every verb
    under 150 ms of CPU; docs/design.md note 43)."""
    rc, mods = modules_after(list(argv))
    assert rc == 0
    assert NOT_NEEDED[argv] & mods == set()


def test_a_file_format_module_builds_no_validator_until_a_file_is_read():
    """Every file format is a ``Strict`` model with ``defer_build``: importing ``explorer.board`` (as a Galaxy
    Defenders combat does, for the hex-side types) builds none of its five models; the first validation builds
    one."""
    code = ("import explorer.board as b, explorer.schema as s\n"
            "models = [b.CellModel, b.SceneryModel, b.EdgeModel, b.ShapeModel, b.BoardModel]\n"
            "print(all(issubclass(m, s.Strict) for m in models), [m.__pydantic_complete__ for m in models])\n"
            "b.ShapeModel.model_validate({'kind': 'hexagon', 'radius': 2})\n"
            "print(b.ShapeModel.__pydantic_complete__)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                         env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["True", "[False,", "False,", "False,", "False,", "False]", "True"]


CACHED = {
    # command: a module of the file format that validates it on the first run (never on the next)
    ("resolve", "dg-03"): "explorer.games.dagger.nemesis_file",
    ("dagger", "forecast", "dg-three-rounds"): "explorer.games.dagger.nemesis_file",
    ("resolve", "tr-02"): "explorer.games.tagraid.model",
    ("resolve", "me-diagram-4"): "explorer.games.masseffect.query_file",
    ("resolve", "me-01"): "explorer.games.masseffect.map_file",
    ("resolve", "gd-01"): "explorer.games.galaxydefenders.combat_file",
    ("resolve", "gd-book-mark"): "explorer.games.galaxydefenders.calibration_file",
    ("galaxydefenders", "odds", "--dice", "red=3"): "explorer.games.galaxydefenders.combat_file",   # the defaults
}
"""Commands whose built-in scenario, once validated, plays without pydantic (:mod:`explorer.parsecache`; issue 18:
every verb under 150 ms of CPU). D.A.G.G.E.R.'s parsed values are frozen dataclasses and its rules modules define no
pydantic model (the file formats live in ``nemesis_file.py`` and ``map_file.py``); a TAG Raid roll exchange and a
Galaxy Defenders combat are kept as the pydantic-free snapshots of their models (:mod:`explorer.plain`), and their
resolvers import no model module (Galaxy Defenders' packaged default calibration is cached too); a Mass Effect map
question is frozen dataclasses (the file formats live in ``query_file.py`` and ``map_file.py``). ``explorer
galaxydefenders odds`` reads no file, but builds its attack over the combat model's defaults, cached once read."""

FILE_MODULES = ("explorer.schema", "explorer.games.dagger.nemesis_file", "explorer.games.dagger.map_file",
                "explorer.games.tagraid.model", "explorer.games.masseffect.query_file",
                "explorer.games.masseffect.map_file", "explorer.games.galaxydefenders.combat_file",
                "explorer.games.galaxydefenders.calibration_file", "explorer.games.galaxydefenders.header",
                "explorer.games.galaxydefenders.activation")
"""Modules that define pydantic models, which no cached command of :data:`CACHED` may import."""


@pytest.mark.parametrize("argv", list(CACHED), ids=" ".join)
def test_a_cached_builtin_plays_without_pydantic_or_the_toml_parser(argv, tmp_path):
    env = {"EXPLORER_CACHE": "on", "EXPLORER_CACHE_DIR": str(tmp_path / "cache")}
    rc, cold = modules_after(list(argv), env)      # validates the file (pydantic) and fills the cache
    assert rc == 0 and "pydantic" in cold and CACHED[argv] in cold
    rc, warm = modules_after(list(argv), env)
    assert rc == 0
    assert _loaded(warm, ("pydantic", "pydantic_core", "tomllib")) == set()
    assert {*FILE_MODULES, CACHED[argv]} & warm == set()
    assert _loaded(warm, UI + NUMERIC) == set()
