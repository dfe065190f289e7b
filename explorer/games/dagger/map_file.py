"""The file format of a Marvel D.A.G.G.E.R. world map (the ``[map]`` table of a map file or an inline scenario map):
its pydantic models (``docs/dagger-map-format.md``).

Imported by :func:`.worldmap.map_from_dict` when a map is validated, never by playing a validated scenario (its
:class:`.worldmap.WorldMap` is frozen dataclasses: :mod:`explorer.parsecache`).
"""

from __future__ import annotations

from pydantic import Field

from explorer.schema import StrictFrozen

from .worldmap import MAX_LINKS, MAX_SPACES

NAME = Field(min_length=1, max_length=40)


class RegionModel(StrictFrozen):
    """``[[map.regions]]``: ``name`` (<= 40 characters), optional ``title``."""

    name: str = NAME
    title: str = Field("", max_length=80)


class SpaceModel(StrictFrozen):
    """``[[map.spaces]]``: ``name``, ``region`` (a region's name), optional ``number`` (1..99: a numbered space, where
    the Iliad may be placed), drawing position ``x``, ``y`` (0..2000 units)."""

    name: str = NAME
    region: str = NAME
    number: int | None = Field(None, ge=1, le=99)
    x: float = Field(0, ge=0, le=2000)
    y: float = Field(0, ge=0, le=2000)


class MapModel(StrictFrozen):
    """The ``[map]`` table (see ``docs/dagger-map-format.md``)."""

    name: str = Field("", max_length=60)
    title: str = Field("", max_length=120)
    note: str = Field("", max_length=2000)
    regions: list[RegionModel] = Field(min_length=1, max_length=20)
    spaces: list[SpaceModel] = Field(min_length=2, max_length=MAX_SPACES)
    links: list[str] = Field(min_length=1, max_length=MAX_LINKS)
    bases: list[str] = Field(min_length=1, max_length=8)
    asgard: str = NAME
    bifrost: str = NAME
