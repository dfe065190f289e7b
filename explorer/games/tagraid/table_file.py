"""Table files (TOML): a board, the Models on it, and the calibration and rulings for LoF questions.

Format::

    board = "small"                 # a packaged board (explorer/boards/), or an inline [board] table
    shooter = "stonebreaker"        # optional: the Model the LoF explorer starts with
    [weapon]                        # optional: the shooter's weapon MODs per Range Ruler Segment (omit: cannot fire)
    short = 3
    mid = 0
    long = -3
    [threat]                        # optional: a MegaBeast Behavior's Threat Levels by pair of sides
    front = 16
    adjacent = 13
    opposite = 10
    [rulings]                       # optional: ruling option readings
    lof_grazing = "touching_blocks"
    [range]                         # optional: Range Ruler Segment lengths (hex units; default 3.5 each,
    short = 3.5                     #   see ranges.RangeCalibration)
    mid = 3.5
    long = 3.5
    [calibration]                   # optional: base radius / height per Silhouette (hex units)
    base_radius = { "7" = 0.2 }
    [[models]]
    id = "cavecrawler"
    hex = "1,-1"                    # stand in this hexagon (base centre = its centre + [dx, dy]) ...
    offset = [0.1, 0.0]
    # x = 1.2  y = -0.3             # ... or give the base centre directly
    silhouette = 7
    facing = 30.0                   # degrees, board coordinates (clockwise on screen)
    side = "sterling"
    kind = "miner"                  # miner | megabeast | deployable
    declared_move = false
    angle_of_vision = 180.0         # MegaBeast Behavior Angle (omit: 360°)
    on = "tower"                    # optional: the scenery piece it stands on (its height is the Model's elevation;
                                    #   the base must lie entirely on the piece's top; omit: on the ground)

Errors name the field path (``models[1].facing``) and what is allowed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import Field

from explorer.schema import ScenarioHeader, Strict

from explorer.board import MAX_HEX_KEY_CHARS, Board, Coordinate, CoordinatePair, Label, load_board, parse_hex_key
from explorer.errors import ScenarioError, short_repr
from explorer.scenario import read_toml, validate

from .model import MAX_DESCRIPTION, MAX_TITLE, MegaBeast, ModBounds, Name, Rulings, field_bounds
from .lof import TableTop
from .megabeast import ThreatLevels
from .pieces import DEFAULT_CALIBRATION, SILHOUETTE_BASE_RADIUS, SILHOUETTE_HEIGHT, Model, SilhouetteCalibration
from .options import rulings as make_rulings
from .ranges import DEFAULT_RANGE_CALIBRATION, MAX_SEGMENT, MIN_LENGTH, RangeCalibration, WeaponRanges


MAX_MODELS = 100
"""Models on one table (a TAG Raid table has about ten; each pair of Models is checked for overlapping bases)."""
MAX_CALIBRATION = 20
"""Entries in one calibration table (there are at most 20 Silhouette values)."""
_MOD_MIN, _MOD_MAX = field_bounds(ModBounds, "value")  # a Weapon's Range MODs are MODs like any other



Length = Annotated[float, Field(ge=MIN_LENGTH, le=MAX_SEGMENT, allow_inf_nan=False)]


class ModelEntry(Strict):
    id: Name
    hex: Annotated[str, Field(max_length=MAX_HEX_KEY_CHARS)] | None = None
    offset: CoordinatePair = (0.0, 0.0)
    x: Coordinate | None = None
    y: Coordinate | None = None
    silhouette: int = Field(default=7, ge=1, le=20)
    facing: float = Field(default=0.0, ge=-3600.0, le=3600.0, allow_inf_nan=False)
    side: Name = "A"
    kind: Literal["miner", "megabeast", "deployable"] = "miner"
    declared_move: bool = False
    angle_of_vision: float | None = Field(default=None, gt=0, le=360)
    on: Name | None = None


class RangeEntry(Strict):
    short: float = Field(default=DEFAULT_RANGE_CALIBRATION.short, ge=MIN_LENGTH, le=MAX_SEGMENT, allow_inf_nan=False)
    mid: float = Field(default=DEFAULT_RANGE_CALIBRATION.mid, ge=MIN_LENGTH, le=MAX_SEGMENT, allow_inf_nan=False)
    long: float = Field(default=DEFAULT_RANGE_CALIBRATION.long, ge=MIN_LENGTH, le=MAX_SEGMENT, allow_inf_nan=False)


class WeaponEntry(Strict):
    short: int | None = Field(default=None, ge=_MOD_MIN, le=_MOD_MAX)
    mid: int | None = Field(default=None, ge=_MOD_MIN, le=_MOD_MAX)
    long: int | None = Field(default=None, ge=_MOD_MIN, le=_MOD_MAX)
    out_of_range: int | None = Field(default=None, ge=_MOD_MIN, le=_MOD_MAX)


_TL_MIN, _TL_MAX = field_bounds(MegaBeast, "threat_level")  # one set of bounds with the roll scenarios and the CLI


class ThreatEntry(Strict):
    front: int = Field(ge=_TL_MIN, le=_TL_MAX)
    adjacent: int = Field(ge=_TL_MIN, le=_TL_MAX)
    opposite: int = Field(ge=_TL_MIN, le=_TL_MAX)


class CalibrationEntry(Strict):
    base_radius: dict[Annotated[str, Field(max_length=4)], Length] = Field(default_factory=dict,
                                                                           max_length=MAX_CALIBRATION)
    height: dict[Annotated[str, Field(max_length=4)], Length] = Field(default_factory=dict, max_length=MAX_CALIBRATION)


class TableFile(ScenarioHeader):
    title: str = Field(default="", max_length=MAX_TITLE)
    description: str = Field(default="", max_length=MAX_DESCRIPTION)
    board: Label | dict[str, Any]
    shooter: Name | None = None
    weapon: WeaponEntry | None = None
    threat: ThreatEntry | None = None
    models: list[ModelEntry] = Field(default_factory=list, max_length=MAX_MODELS)
    rulings: Rulings = Field(default_factory=dict)
    range: RangeEntry = Field(default_factory=RangeEntry)
    calibration: CalibrationEntry = Field(default_factory=CalibrationEntry)


@dataclass
class LoadedTable:
    """A table file, loaded: the table, its rulings, Range calibration, optional shooter / weapon / Threat Levels,
    and texts."""

    table: TableTop
    rulings: Rulings
    range_calibration: RangeCalibration
    title: str = ""
    description: str = ""
    shooter: str | None = None
    weapon: WeaponRanges | None = None
    threat: ThreatLevels | None = None
    board_ref: str | dict[str, Any] | None = None
    """The file's ``board`` value: a packaged board's name, or the inline ``[board]`` table."""


def file_field(model_ids: list[str] | tuple[str, ...], field: str) -> str:
    """``field`` as a table file writes it: the geometry names a Model ``models.<id>...``, the file lists its Models
    in ``[[models]]``, so ``models.B.on`` becomes ``models[1].on`` (the index in ``model_ids``, the file's order);
    any other field, or an id not in the list, is returned unchanged."""
    if not field.startswith("models."):
        return field
    rest = field[len("models."):]
    for i, mid in enumerate(model_ids):
        if rest == mid or rest.startswith(mid + "."):
            return f"models[{i}]" + rest[len(mid):]
    return field


def _silhouette_map(raw: dict[str, float], base: dict[int, float], field: str, source: str | None) -> dict[int, float]:
    out = dict(base)
    lo, hi = field_bounds(ModelEntry, "silhouette")
    for k, v in raw.items():
        # written as the Silhouette is ("7", not "07": two spellings of one Silhouette would let one win silently)
        s = int(k) if re.fullmatch(r"[1-9][0-9]?", k) else None
        if s is None or not lo <= s <= hi:
            raise ScenarioError(f"{field}.{k}", "is not a Silhouette value", f"a Silhouette value {lo}..{hi} as a "
                                "key such as \"7\"", source)
        if not (MIN_LENGTH <= v <= MAX_SEGMENT):  # the pydantic bound already; kept for callers building raw maps
            raise ScenarioError(f"{field}.{k}", f"{short_repr(v)} is out of range",
                                f"a number of hex units from {MIN_LENGTH} to {MAX_SEGMENT:g}", source)
        out[s] = float(v)
    return out


def board_from_ref(ref: "str | dict[str, Any]", source: str | None = None) -> Board:
    """A file's ``board`` value as a :class:`Board`: a packaged board's name, or an inline ``[board]`` table.

    Raises:
        ScenarioError: an unknown packaged board (field ``board``, lists them) or an invalid inline board.
    """
    if isinstance(ref, str):
        try:
            return load_board(ref)
        except ScenarioError as e:
            raise ScenarioError("board", e.problem, e.allowed, source) from None
    return Board.from_dict(ref, source, "board")


def _other_kind(data: dict[str, Any]) -> str | None:
    """What another kind of scenario file is (a roll scenario, an order or round file, another game's file), from
    its top-level keys; ``None`` when it looks like nothing else."""
    game = data.get("game")
    if isinstance(game, str) and game != "tagraid":
        return f"a scenario of the game {game[:40]!r}"
    kind = data.get("kind")
    if isinstance(kind, str) and kind in ("order", "round"):
        return f"an {kind} file" if kind == "order" else "a round file"
    if "active" in data or "reactive" in data:
        return "a roll scenario (it has [active])"
    return None


def table_from_dict(data: dict[str, Any], source: str | None = None) -> LoadedTable:
    """Build a :class:`LoadedTable` from a parsed table file (see the module docstring).

    Raises:
        ScenarioError: naming the field path: unknown fields, bad values, an unknown packaged board, a Model with
            both or neither of ``hex`` and ``x``/``y``, and every placement error of :class:`TableTop`.
    """
    if isinstance(data, dict) and "board" not in data:
        what = _other_kind(data)
        if what:
            raise ScenarioError("board", f"is missing: this is {what}, not a table file",
                                "a table file (board, models); open this file with 'explorer resolve'", source)
    doc = validate(TableFile, data, source)
    board = board_from_ref(doc.board, source)
    cal = SilhouetteCalibration(_silhouette_map(doc.calibration.base_radius, SILHOUETTE_BASE_RADIUS,
                                                "calibration.base_radius", source),
                                _silhouette_map(doc.calibration.height, SILHOUETTE_HEIGHT, "calibration.height",
                                                source)) \
        if (doc.calibration.base_radius or doc.calibration.height) else DEFAULT_CALIBRATION
    models = []
    for i, m in enumerate(doc.models):
        where = f"models[{i}]"
        if (m.hex is None) == (m.x is None or m.y is None):
            raise ScenarioError(where, "give either hex (with an optional offset) or both x and y",
                                "hex = \"q,r\" or x = ..., y = ...", source)
        h = None
        if m.hex is not None:
            h = parse_hex_key(m.hex, f"{where}.hex", source)
            cx, cy = board.layout.hex_to_pixel(h)
            x, y = cx + m.offset[0], cy + m.offset[1]
        else:
            x, y = float(m.x), float(m.y)
        models.append(Model(m.id, x, y, m.silhouette, m.facing, m.side, m.kind, h, m.declared_move,
                            m.angle_of_vision, m.on))
    try:
        table = TableTop.from_board(board, models, cal)
    except ScenarioError as e:
        raise ScenarioError(file_field([m.id for m in doc.models], e.field), e.problem, e.allowed, source) from None
    from .megabeast import side_pairs

    for i, m in enumerate(doc.models):   # a MegaBeast faces a corner (MegaBeast › Threat Level): checked on loading,
        if m.kind == "megabeast":        # as resolve and `tagraid lof` would refuse it later (.megabeast.side_pairs)
            try:
                side_pairs(board.layout, m.facing)
            except ScenarioError as e:
                raise ScenarioError(f"models[{i}].facing", e.problem, e.allowed, source) from None
    try:
        rul = make_rulings(doc.rulings)
    except ScenarioError as e:
        raise ScenarioError(e.field, e.problem, e.allowed, source) from None
    rng = RangeCalibration(doc.range.short, doc.range.mid, doc.range.long)
    if doc.shooter is not None and doc.shooter not in table.models:
        raise ScenarioError("shooter", f"no Model {short_repr(doc.shooter)}", list(table.models), source)
    weapon = None if doc.weapon is None else WeaponRanges(doc.weapon.short, doc.weapon.mid, doc.weapon.long,
                                                          doc.weapon.out_of_range)
    threat = None if doc.threat is None else ThreatLevels(doc.threat.front, doc.threat.adjacent, doc.threat.opposite)
    return LoadedTable(table, rul, rng, doc.title, doc.description, doc.shooter, weapon, threat, doc.board)


def load_table(source: str | Path, *, text: str | None = None) -> LoadedTable:
    """Read a table file (or ``text``). Raises ScenarioError (see :func:`table_from_dict`)."""
    return table_from_dict(read_toml(source, text=text), str(source))


TABLES_PACKAGE = "explorer.games.tagraid.tables"


def available_tables() -> list[str]:
    """Names of the table files shipped in ``explorer/games/tagraid/tables/``."""
    from importlib import resources

    return sorted(p.name[:-5] for p in resources.files(TABLES_PACKAGE).iterdir() if p.name.endswith(".toml"))


def load_packaged_table(name: str) -> LoadedTable:
    """A packaged table file by name (e.g. ``"lof-demo"``). Raises ScenarioError for an unknown name."""
    from importlib import resources

    names = available_tables()
    if name not in names:
        raise ScenarioError("table", f"unknown packaged table {short_repr(name)}", names)
    f = resources.files(TABLES_PACKAGE).joinpath(f"{name}.toml")
    return load_table(f"{name}.toml", text=f.read_text(encoding="utf-8"))
