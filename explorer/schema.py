"""The two pydantic bases every file format shares: a strict model and a scenario header.

Every table of every file format (scenario files, maps, boards, calibrations, order and round files) is a
:class:`Strict` model: an unknown key is an error naming it (a misspelt field is never silently ignored), and every
number and list carries bounds. A scenario document's top level extends :class:`ScenarioHeader` (its ``title`` and
``description``, bounded the same way in every game); each format adds its own ``game``/``kind`` literals and fields.
:func:`explorer.scenario.validate` turns pydantic's errors into one :class:`~explorer.errors.ScenarioError` line.

This module imports pydantic; game-neutral modules that must start fast (``explorer --help``, the ``odds`` verbs)
import it only when a file is read. Both bases set ``defer_build``: a model's validator is built when a file of its
format is first validated, so a command pays only for the formats it reads (``explorer resolve gd-01`` imports
``explorer.board`` for its hex-side types and builds none of its five models; ``tests/test_cli_imports.py``).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

MAX_TITLE = 200
"""The longest ``title`` of a scenario document, in characters."""
MAX_DESCRIPTION = 4000
"""The longest ``description`` of a scenario document, in characters."""


class Strict(BaseModel):
    """A table of a file format: unknown keys are refused (``extra="forbid"``)."""

    model_config = ConfigDict(extra="forbid", defer_build=True)


class StrictFrozen(BaseModel):
    """Like :class:`Strict`, and immutable once validated (``frozen=True``): for values the engine keeps and shares
    (a world map, a calibration)."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


class StrictTyped(BaseModel):
    """Like :class:`Strict`, and no value is converted to a field's type (pydantic ``strict=True``): ``true`` or
    ``"3"`` for a number, ``1`` or ``"yes"`` for a yes/no, ``3`` for a name are refused naming the field, where
    lax validation would read them as 1, 3, true and ``"3"``. TOML integers stay integers (an integer is accepted
    for a decimal field). Used by the Mass Effect file formats."""

    model_config = ConfigDict(extra="forbid", strict=True, defer_build=True)


class ScenarioHeader(Strict):
    """The top of every scenario document: its ``title`` (at most :data:`MAX_TITLE` characters) and
    ``description`` (at most :data:`MAX_DESCRIPTION`). A format whose title is required, or has another default,
    redeclares ``title``; a format whose files always allowed a longer description keeps its own bound by
    redeclaring ``description`` (TAG Raid's 10,000 characters: its older files keep opening)."""

    title: str = Field("", max_length=MAX_TITLE)
    description: str = Field("", max_length=MAX_DESCRIPTION)


class StrictTypedHeader(ScenarioHeader):
    """:class:`ScenarioHeader` with :class:`StrictTyped`'s no-conversion rule."""

    model_config = ConfigDict(extra="forbid", strict=True, defer_build=True)
