"""The file format of a Mass Effect ``kind = "map"`` scenario (questions about a Mission Map): its pydantic models
(the format itself: :mod:`.queries`' docstring and ``docs/masseffect-map-format.md``).

Imported by :func:`.queries.parse_map_query` when a file is validated, never by answering a validated one: its
:class:`.queries.MapQuery` is frozen plain values, so a cached built-in answers without pydantic (issue 18).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from explorer.schema import MAX_TITLE, ScenarioHeader
from explorer.schema import Strict as _Strict

from .map_file import EdgeModel


class CharacterModel(_Strict):
    name: str = Field(min_length=1, max_length=40)
    side: Literal["squadmate", "enemy"]
    hex: str = Field(max_length=24)
    tags: list[str] = Field(default_factory=list, max_length=8)


class EditModel(_Strict):
    remove: list[str] = Field(default_factory=list, max_length=50)
    add: list[EdgeModel] = Field(default_factory=list, max_length=50)


class QuestionModel(_Strict):
    ask: Literal["adjacent", "distance", "within", "at_least", "lof", "lof_all", "turret_lof", "step"]
    a: str | None = Field(default=None, max_length=40)
    b: str | None = Field(default=None, max_length=40)
    n: int | None = Field(default=None, ge=0, le=99)
    ignore_walls: bool = False
    turret: str | None = Field(default=None, max_length=24)
    label: str = Field(default="", max_length=200)
    edit: EditModel | None = None


class MapQueryFile(ScenarioHeader):
    """A ``kind = "map"`` scenario file as pydantic validates it; its ``title`` is required.
    :func:`.queries.parse_map_query` checks the rest and returns a :class:`.queries.MapQuery`."""

    title: str = Field(min_length=1, max_length=MAX_TITLE)
    game: Literal["masseffect"]
    kind: Literal["map"]
    seed: int | None = Field(default=None, ge=0, le=2**63 - 1)
    rulings: dict[str, str] = Field(default_factory=dict, max_length=64)
    map: str | dict[str, Any]
    characters: list[CharacterModel] = Field(default_factory=list, max_length=64)
    questions: list[QuestionModel] = Field(min_length=1, max_length=100)
