"""One declaration style (issue 18 item 7): every table of every file format is an ``explorer.schema.Strict`` model,
and every scenario document's top extends ``ScenarioHeader``, keeping its format's own bounds."""

from __future__ import annotations

from importlib import import_module

import pytest
from pydantic import BaseModel

from explorer.schema import MAX_DESCRIPTION, MAX_TITLE, ScenarioHeader, Strict, StrictFrozen


def _load_every_format() -> None:
    for module in ("explorer.games.tagraid.model", "explorer.games.tagraid.table_file",
                   "explorer.games.tagraid.table_scenario",
                   "explorer.games.tagraid.orders.orderfile", "explorer.games.tagraid.orders.roundfile",
                   "explorer.games.masseffect.damage", "explorer.games.masseffect.activation",
                   "explorer.games.masseffect.query_file", "explorer.games.masseffect.strategy_scenario",
                   "explorer.games.masseffect.map_file", "explorer.games.galaxydefenders.combat_file",
                   "explorer.games.galaxydefenders.calibration_file", "explorer.games.galaxydefenders.activation",
                   "explorer.games.galaxydefenders.phases", "explorer.games.galaxydefenders.conditions",
                   "explorer.games.dagger.nemesis_file", "explorer.games.dagger.map_file"):
        import_module(module)


LONG_DESCRIPTION = {"Scenario", "TableFile", "TableFields", "OrderFile", "RoundFile", "MatchFile"}
"""TAG Raid's tops with its own description bound (``explorer.games.tagraid.model.MAX_DESCRIPTION``)."""


def _subclasses(cls: type) -> set[type]:
    out: set[type] = set()
    for sub in cls.__subclasses__():
        out |= {sub} | _subclasses(sub)
    return out


def _bound(model: type[BaseModel], name: str) -> int | None:
    return next((m.max_length for m in model.model_fields[name].metadata if getattr(m, "max_length", None)), None)


def _tops() -> list[type[BaseModel]]:
    """The scenario documents' tops: the strict models of explorer's games with both a title and a description."""
    _load_every_format()
    models = _subclasses(Strict) | _subclasses(StrictFrozen)
    return sorted((m for m in models if m.__module__.startswith("explorer.games.")
                   and {"title", "description"} <= set(m.model_fields)), key=lambda m: (m.__module__, m.__name__))


def test_the_tops_are_found():
    names = {m.__name__ for m in _tops()}
    assert {"Scenario", "TableFile", "OrderFile", "RoundFile", "CombatScenario", "NemesisScenarioModel",
            "DamageScenario", "StrategyScenario"} <= names


@pytest.mark.parametrize("model", _tops(), ids=lambda m: f"{m.__module__}.{m.__name__}")
def test_every_scenario_top_extends_the_header_and_keeps_its_bounds(model):
    assert issubclass(model, ScenarioHeader), f"{model.__name__} does not extend explorer.schema.ScenarioHeader"
    assert _bound(model, "title") == MAX_TITLE
    # TAG Raid's roll, table, order and round files always allowed a 10,000-character description: redeclared so that
    # old files keep opening (a kind = "table" reference to a packaged table always had the header's)
    want = 10_000 if model.__name__ in LONG_DESCRIPTION else MAX_DESCRIPTION
    assert _bound(model, "description") == want


def test_a_tag_raid_description_longer_than_the_header_bound_still_opens():
    from explorer.games.tagraid.model import parse_scenario

    doc = {"description": "x" * 9_000, "active": {"name": "A", "skill": "idle"}}
    assert len(parse_scenario(doc, "t.toml").description) == 9_000


# --- strict types (issue 18 item 7, issue 25): one strict base for every game ---------------------------------------

def _nodes(schema):
    """Every dict node of a pydantic core schema."""
    if isinstance(schema, dict):
        yield schema
        for v in schema.values():
            yield from _nodes(v)
    elif isinstance(schema, (list, tuple)):
        for v in schema:
            yield from _nodes(v)


def _format_models() -> list[type[BaseModel]]:
    _load_every_format()
    import_module("explorer.board")
    for module in ("explorer.games.tagraid.orders.matchfile", "explorer.games.galaxydefenders.round",
                   "explorer.games.galaxydefenders.missions", "explorer.games.galaxydefenders.cards",
                   "explorer.games.galaxydefenders.calibration", "explorer.games.dagger.round_scenario",
                   "explorer.games.dagger.hero_scenario", "explorer.games.dagger.setup_scenario",
                   "explorer.games.masseffect.round", "explorer.games.masseffect.sheets",
                   "explorer.games.masseffect.map"):
        import_module(module)
    models = _subclasses(Strict) | _subclasses(StrictFrozen)
    return sorted((m for m in models if m.__module__.startswith("explorer.")),
                  key=lambda m: (m.__module__, m.__name__))


def test_every_format_model_is_strictly_typed():
    models = _format_models()
    assert len(models) > 150
    for m in models:
        assert m.model_config.get("strict") is True, f"{m.__module__}.{m.__name__} converts values (not strict)"
        assert m.model_config.get("extra") == "forbid", m


def test_only_what_toml_cannot_write_is_taken_as_written():
    """A tuple (an array in TOML), an ``Enum`` (its value's text) or a set is marked ``FROM_TOML`` (``strict`` off
    on that node only); every other node keeps the model's strict rule."""
    loose = {"tuple", "enum", "set", "frozenset"}
    for m in _format_models():
        m.model_rebuild(force=True)
        for node in _nodes(m.__pydantic_core_schema__):
            t = node.get("type")
            if not isinstance(t, str):
                continue
            if t in loose:
                assert node.get("strict") is False, f"{m.__module__}.{m.__name__}: a {t} field without FROM_TOML"
            elif t in ("int", "float", "bool", "str", "list", "dict", "literal") and "strict" in node:
                assert node["strict"] is not False, f"{m.__module__}.{m.__name__}: a {t} field is not strict"


def test_a_toml_array_for_a_pair_and_a_text_for_a_kind_are_taken_their_entries_stay_strict():
    from explorer.board import CellModel, SceneryModel, Terrain
    from explorer.errors import ScenarioError
    from explorer.scenario import validate

    assert validate(CellModel, {"terrain": "sand"}).terrain is Terrain.SAND
    assert validate(SceneryModel, {"name": "s", "polygon": [[0, 0], [1, 0.5], [0, 1]]}).polygon[1] == (1.0, 0.5)
    with pytest.raises(ScenarioError, match=r"polygon\[1\]\[0\]'?: '1' is not a finite number"):
        validate(SceneryModel, {"name": "s", "polygon": [[0, 0], ["1", 0.5], [0, 1]]})
    with pytest.raises(ScenarioError, match="terrain"):
        validate(CellModel, {"terrain": 1})
