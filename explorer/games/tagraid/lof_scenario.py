"""The Line of Fire explorer's scenario as a rules value (no widgets, no drawing): a table file's board, Models,
shooter, Range calibration, weapon and Threat Levels (:class:`LofScenario`), the packaged default
(:func:`default_lof_scenario`), the ruling options the explorer lets users flip (:data:`LOF_RULING_KEYS`) and a table
with some Models moved (:func:`table_with_models`).

``explorer tagraid lof`` (:mod:`.cli_lof`), the pictures (:mod:`.lof_picture`) and the widget (:mod:`.lof_views`)
all start from here.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace

from explorer.board import Board
from explorer.errors import ScenarioError, short_repr

from .board_roll import DEFAULT_THREAT_LEVELS, DEFAULT_WEAPON_RANGES
from .lof import TableTop
from .megabeast import ThreatLevels
from .pieces import DEFAULT_CALIBRATION, Model, SilhouetteCalibration, validate_models
from .ranges import DEFAULT_RANGE_CALIBRATION, RangeCalibration, WeaponRanges
from .table_file import LoadedTable, load_packaged_table

LOF_RULING_KEYS: tuple[str, ...] = ("lof_grazing", "lof_arc_part", "lof_shooter_arc", "scenery_height",
                                    "tileless_occupied_hexagon", "megabeast_reciprocity", "range_measurement",
                                    "megabeast_corner_side")
"""The ruling options the LoF explorer lets users flip."""

ELEVATION_RULING_KEYS: tuple[str, ...] = ("elevation_own_piece",)
"""Ruling options the LoF explorer offers (and ``explorer tagraid lof`` lists, and a saved table file carries) only
when a Model of the table stands on scenery: the only case they are consulted (:mod:`.elevation`)."""


def lof_ruling_keys(models: Iterable[Model]) -> tuple[str, ...]:
    """The ruling options that apply to a table with ``models``: :data:`LOF_RULING_KEYS`, then
    :data:`ELEVATION_RULING_KEYS` when one of them stands on scenery (``Model.on``)."""
    return LOF_RULING_KEYS + (ELEVATION_RULING_KEYS if any(m.on is not None for m in models) else ())

@dataclass
class LofScenario:
    """A board, the Models on it and the explorer's settings.

    Attributes:
        board: the board (hexagons with/without tile, scenery).
        models: the Models (see :class:`explorer.games.tagraid.pieces.Model`).
        shooter: id of the Model drawing LoF.
        calibration: Range Ruler Segment lengths (hex units).
        calibration_pieces: base radius / height per Silhouette.
        weapon: the shooter's weapon MODs per Segment.
        threat: the MegaBeast Behavior's Threat Levels (front / adjacent / opposite pairs of sides).
        title: display name.
        rulings: the readings the table file chose (``{option key: reading}``); the explorer opens with them.
        board_ref: the table file's ``board`` value (a packaged board's name or an inline table); ``None``: written
            inline from ``board`` when the state is saved.
    """

    board: Board
    models: list[Model]
    shooter: str
    calibration: RangeCalibration = DEFAULT_RANGE_CALIBRATION
    weapon: WeaponRanges = field(default_factory=lambda: DEFAULT_WEAPON_RANGES)
    threat: ThreatLevels = field(default_factory=lambda: DEFAULT_THREAT_LEVELS)
    title: str = ""
    calibration_pieces: SilhouetteCalibration = DEFAULT_CALIBRATION
    rulings: dict[str, str] = field(default_factory=dict)
    board_ref: str | dict | None = None

    def table(self, validate: bool = True) -> TableTop:
        """The :class:`TableTop` of this scenario (raises ScenarioError for an illegal placement)."""
        return TableTop.from_board(self.board, self.models, self.calibration_pieces, validate=validate)


NO_MODELS = "the table has no Model (Line of Fire is measured from one: the shooter is the first Model)"
"""Why a table file without Models is refused where Line of Fire is asked of it (field ``models``)."""

DEFAULT_TABLE = "lof-quarry"
"""The packaged table file (``explorer/games/tagraid/tables/lof-quarry.toml``) behind :func:`default_lof_scenario`."""


def scenario_from_table(loaded: LoadedTable, shooter: str | None = None) -> LofScenario:
    """A :class:`LofScenario` from a loaded table file (:func:`~.table_file.load_table`): its board, Models, Range
    calibration, weapon, Threat Levels, readings and shooter (``shooter`` overrides the file's; default: the first
    Model).

    Raises:
        ScenarioError: a table without a board, without Models (field ``models``: the callers name the file), or an
            unknown shooter.
    """
    t = loaded.table
    if t.board is None:
        raise ScenarioError("board", "the table has no board", "a table file with a board")
    sid = shooter or loaded.shooter or next(iter(t.models), None)
    if sid is None:
        raise ScenarioError("models", NO_MODELS, "at least one [[models]] entry")
    if sid not in t.models:
        raise ScenarioError("shooter", f"no Model {short_repr(sid)}", list(t.models))
    sc = LofScenario(t.board, list(t.models.values()), sid, loaded.range_calibration, title=loaded.title,
                     calibration_pieces=t.calibration, rulings=loaded.rulings.as_dict(), board_ref=loaded.board_ref)
    if loaded.weapon is not None:
        sc.weapon = loaded.weapon
    if loaded.threat is not None:
        sc.threat = loaded.threat
    return sc


def default_lof_scenario() -> LofScenario:
    """The built-in LoF scenario, loaded from the packaged table file ``lof-quarry`` (:data:`DEFAULT_TABLE`): the
    320-hex *Quarry* board, ten Miners and the MegaBeast *Stoorworm* in the Interior hexagon (3, 10). Under the
    default Range Ruler calibration the shooter *Cutter* shows every kind of verdict: clear LoF at Short, Mid and Long
    Range, Out of Range, outside the 180° arc, LoF blocked by scenery, by a Model and by hexagons without tile,
    Partial Cover (*Peeker* against the pylon) and the Stoorworm's Threat Level by side."""
    return scenario_from_table(load_packaged_table(DEFAULT_TABLE))


def table_with_models(table: TableTop, models: Mapping[str, Model]) -> TableTop:
    """``table`` with ``models`` (same ids, some moved or turned) in place of its Models, validated as
    :meth:`TableTop.validate <.lof.TableTop.validate>` would (the same checks, the same messages) but without
    rebuilding the board's geometry, and checking the board placement of the changed Models only (the others were
    valid on ``table`` and the board did not change).

    Raises:
        ScenarioError: an invalid placement (see :meth:`TableTop.validate <.lof.TableTop.validate>`).
    """
    changed = {k: m for k, m in models.items() if table.models.get(k) != m}
    if set(models) == set(table.models) and all(
            m.kind != "megabeast" and replace(m, facing=table.models[k].facing,
                                              declared_move=table.models[k].declared_move) == table.models[k]
            for k, m in changed.items()):
        # only Miners turned (or declared a Move): no base moved, so nothing the checks look at changed (a
        # MegaBeast's facing is checked: it must point at a corner of its hexagon)
        out = copy.copy(table)
        out.models = dict(models)
        return out
    validate_models(list(models.values()), table.calibration)
    if changed:
        probe = copy.copy(table)
        probe.models = changed
        probe.validate()
    out = copy.copy(table)
    out.models = dict(models)
    return out


__all__ = ["LOF_RULING_KEYS", "ELEVATION_RULING_KEYS", "lof_ruling_keys", "LofScenario", "DEFAULT_TABLE",
           "scenario_from_table", "default_lof_scenario", "table_with_models"]
