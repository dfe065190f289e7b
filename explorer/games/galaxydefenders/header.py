"""The top of every Galaxy Defenders scenario file: :class:`GdScenarioHeader`, the fields each ``kind`` shares.

A format subclasses it, redeclares ``kind`` as its own literal (and ``title`` with its default), then adds its
fields; redeclared fields keep their place, so an unknown-field message lists ``title, description, game, kind,
seed, rulings`` first in every format."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from explorer.schema import MAX_TITLE, ScenarioHeader

from .options import ALL_OPTIONS

SEED_MAX = 2**63 - 1
"""The largest ``seed`` of a scenario file."""
MAX_RULINGS = len(ALL_OPTIONS)
"""The most ``rulings`` entries of a scenario file: one per ruling option of the game (each value at most 40
characters; a page passes every option's reading)."""


class GdScenarioHeader(ScenarioHeader):
    """``game`` (always ``"galaxydefenders"``), ``kind`` (each format's literal), ``title``, ``seed`` (``None``: a
    random one; 0..:data:`SEED_MAX`) and ``rulings`` (ruling option -> reading, at most :data:`MAX_RULINGS`)."""

    game: Literal["galaxydefenders"] = "galaxydefenders"
    kind: str
    title: str = Field("Galaxy Defenders", max_length=MAX_TITLE)
    seed: int | None = Field(None, ge=0, le=SEED_MAX)
    rulings: dict[str, Annotated[str, Field(max_length=40)]] = Field(default_factory=dict, max_length=MAX_RULINGS)
