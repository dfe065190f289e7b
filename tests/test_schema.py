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
                   "explorer.games.masseffect.queries", "explorer.games.masseffect.strategy_scenario",
                   "explorer.games.galaxydefenders.combat", "explorer.games.galaxydefenders.activation",
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
