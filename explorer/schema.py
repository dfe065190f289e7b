"""The pydantic bases every file format shares: a strict model and a scenario header.

Every table of every file format (scenario files, maps, boards, calibrations, order and round files, of every game)
is a :class:`Strict` model (or :class:`StrictFrozen`, its immutable twin):

- an unknown key is an error naming it (a misspelt field is never silently ignored), and every number and list
  carries bounds;
- no value is converted to a field's type (pydantic ``strict=True``): ``true`` or ``"3"`` for a number, ``3.0`` for
  a whole number, ``1`` or ``"yes"`` for a yes/no, ``3`` for a name are refused naming the field and the type it
  takes, where lax validation would read them as 1, 3, 3, true and ``"3"`` and hide the slip. A TOML integer is
  accepted for a decimal field (``x = 3`` for 3.0).

What TOML cannot write is not a conversion: a field typed as a tuple (a pair of coordinates) is written as an array,
and a field typed as an ``Enum`` by the value's text; such fields carry :data:`FROM_TOML`, which takes the array or the
text while every entry inside stays strictly typed.

A scenario document's top level extends :class:`ScenarioHeader` (its ``title`` and ``description``, bounded the same
way in every game); each format adds its own ``game``/``kind`` literals and fields. :func:`explorer.scenario.validate`
turns pydantic's errors into one :class:`~explorer.errors.ScenarioError` line naming the file, the field and what is
allowed.

This module imports pydantic; game-neutral modules that must start fast (``explorer --help``, the ``odds`` verbs)
import it only when a file is read. The bases set ``defer_build``: a model's validator is built when a file of its
format is first validated, so a command pays only for the formats it reads (``explorer resolve gd-01`` imports
``explorer.board`` for its hex-side types and builds none of its five models; ``tests/test_cli_imports.py``).
"""

from __future__ import annotations

import pydantic
from pydantic import BaseModel, ConfigDict, Field

MAX_TITLE = 200
"""The longest ``title`` of a scenario document, in characters."""
MAX_DESCRIPTION = 4000
"""The longest ``description`` of a scenario document, in characters."""

FROM_TOML = pydantic.Strict(False)
"""The mark (``Annotated[tuple[float, float], FROM_TOML]``, ``Annotated[Terrain, FROM_TOML]``) of a field whose type a
TOML file cannot write: a tuple, written as an array of its entries, or an ``Enum``, written as its value's text (a
set, written as an array). Only that outer shape is taken as written: the entries of the tuple keep the strict rule,
and an ``Enum`` still takes only its values' texts."""


class Strict(BaseModel):
    """A table of a file format: unknown keys are refused (``extra="forbid"``) and no value is converted to a field's
    type (``strict=True``; see the module's docstring)."""

    model_config = ConfigDict(extra="forbid", strict=True, defer_build=True)


class StrictFrozen(BaseModel):
    """Like :class:`Strict`, and immutable once validated (``frozen=True``): for values the engine keeps and shares
    (a world map, a calibration)."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, defer_build=True)


class ScenarioHeader(Strict):
    """The top of every scenario document: its ``title`` (at most :data:`MAX_TITLE` characters) and
    ``description`` (at most :data:`MAX_DESCRIPTION`). A format whose title is required, or has another default,
    redeclares ``title``; a format whose files always allowed a longer description keeps its own bound by
    redeclaring ``description`` (TAG Raid's 10,000 characters: its older files keep opening)."""

    title: str = Field("", max_length=MAX_TITLE)
    description: str = Field("", max_length=MAX_DESCRIPTION)
