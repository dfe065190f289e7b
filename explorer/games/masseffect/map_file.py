"""The file format of a Mass Effect Mission Map (the ``[map]`` table of a map file or an inline scenario map, and a
map query's per-question ``edit``): its pydantic models.

Imported by :func:`.map.map_from_dict` and the map query's parser (:func:`.queries.parse_map_query`) when a file is
validated, never by playing a validated scenario: its :class:`.map.MissionMap` is frozen dataclasses, so a cached
built-in (:mod:`explorer.plain`, :mod:`explorer.parsecache`) answers without pydantic (issue 18).
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from explorer.schema import Strict as _Strict

from .map import MAX_HEXES

HexKey = Field(max_length=24)


class ShapeModel(_Strict):
    kind: Literal["hexagon", "rectangle"]
    radius: int | None = Field(default=None, ge=0, le=28)
    center: str = Field(default="0,0", max_length=24)
    width: int | None = Field(default=None, ge=1, le=60)
    height: int | None = Field(default=None, ge=1, le=60)


class EdgeModel(_Strict):
    edge: str = Field(max_length=50)
    kind: Literal["wall", "door", "obstacle", "elevation"]
    locked: bool | None = None
    high: str | None = Field(default=None, max_length=24)


class AreaModel(_Strict):
    name: str = Field(min_length=1, max_length=40)
    hexes: list[str] = Field(default_factory=list, max_length=MAX_HEXES)
    shrouded: bool = False


class TurretModel(_Strict):
    hex: str = Field(max_length=24)
    facing: int | str
    active: bool = True


class MapModel(_Strict):
    name: str = Field(default="", max_length=60)
    title: str = Field(default="", max_length=200)
    note: str = Field(default="", max_length=2000)
    orientation: Literal["pointy", "flat"] = "pointy"
    shape: ShapeModel | None = None
    hexes: list[str] = Field(default_factory=list, max_length=MAX_HEXES)
    out_of_bounds: list[str] = Field(default_factory=list, max_length=MAX_HEXES)
    high_ground: list[str] = Field(default_factory=list, max_length=MAX_HEXES)
    icons: dict[str, list[str]] = Field(default_factory=dict, max_length=MAX_HEXES)
    edges: list[EdgeModel] = Field(default_factory=list, max_length=4 * MAX_HEXES)
    areas: list[AreaModel] = Field(default_factory=list, max_length=64)
    turrets: list[TurretModel] = Field(default_factory=list, max_length=32)
