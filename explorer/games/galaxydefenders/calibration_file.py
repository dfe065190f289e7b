"""The file format of a Galaxy Defenders calibration (``data/calibration.toml``, ``--calibration``, a scenario's
``[calibration]`` table): its pydantic models.

Imported by :func:`.calibration.calibration_from_data` when a table is validated, never by playing a validated
scenario (its :class:`.calibration.Calibration` is frozen dataclasses; issue 18).
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from explorer.schema import Strict

from .calibration import EFFECTS, MAX_COLOURS, MAX_SIDES


class _DieModel(Strict):
    sides: int = Field(6, ge=2, le=MAX_SIDES)
    faces: list[str] = Field(min_length=2, max_length=MAX_SIDES)


class _TokenModel(Strict):
    id: str = Field(min_length=1, max_length=40)
    level: int = Field(ge=1, le=2)
    effect: Literal[EFFECTS]  # type: ignore[valid-type]
    x: int = Field(0, ge=0, le=5)
    compat: Literal["agents", "others", "all"] = "all"
    count: int = Field(1, ge=1, le=20)


class _CalibrationModel(Strict):
    defend_die: str | None = Field(None, max_length=20)
    dice: dict[str, _DieModel] | None = Field(None, max_length=MAX_COLOURS)
    critical_tokens: list[_TokenModel] | None = Field(None, max_length=60)
