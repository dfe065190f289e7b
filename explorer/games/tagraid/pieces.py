"""Models on the board: round bases, Silhouettes, facing, arcs.

Units: board units, where a hexagon of size 1 measures 1 from its centre to a corner (the hex grid's
``Layout(size=1.0)``); screen ``y`` points down. Facing is in degrees measured in board coordinates from ``+x``
towards ``+y`` (so clockwise on screen), the same sense as :func:`explorer.hexgrid.rotate`.

The rulebook gives a Model's width by its base and its height by the Silhouette printed on the rulers, but no
numbers (Miner Card › Attributes; MegaBeast › Silhouette). Both are therefore *calibration settings*
(:class:`SilhouetteCalibration`), with documented defaults, never hidden constants.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

from explorer.errors import ScenarioError, short_repr
from explorer.hexgrid import Hex, Layout

from .geometry import XY, Disc

Kind = Literal["miner", "megabeast", "deployable"]
KINDS: tuple[str, ...] = ("miner", "megabeast", "deployable")

MEGABEAST_SILHOUETTE = 10
"""Silhouette value used for MegaBeasts in :data:`SILHOUETTE_BASE_RADIUS` (their cards print their own value; set
``Model.silhouette`` to it and add the value to the calibration if it is not 10)."""

# Default calibration. Reference: the Infinity family's usual base diameters per Silhouette (25 mm for S1-S2,
# 40 mm for S3-S4, 55 mm for S5-S7, 70 mm for S8) at an assumed hexagon of 140 mm from centre to corner. The
# MegaBeast (S10 here) gets a base slightly wider than its hexagon (radius 0.9 hex units; the hexagon's flats are at
# 0.866), so Miners standing on the neighbouring tiles can reach Silhouette Contact with it (Close Combat Attacks
# against it need contact). Heights are the Silhouette templates' usual heights at the same scale. All of these are
# assumptions: change them with SilhouetteCalibration(...).
HEX_SIZE_MM = 140.0
_BASE_DIAMETER_MM = {1: 25, 2: 25, 3: 40, 4: 40, 5: 55, 6: 55, 7: 55, 8: 70, 9: 105, 10: 252}
_HEIGHT_MM = {1: 20, 2: 40, 3: 55, 4: 60, 5: 65, 6: 75, 7: 90, 8: 100, 9: 150, 10: 200}
SILHOUETTE_BASE_RADIUS: dict[int, float] = {s: d / 2 / HEX_SIZE_MM for s, d in _BASE_DIAMETER_MM.items()}
"""Default base radius per Silhouette value, in hex units (centre-to-corner = 1)."""
SILHOUETTE_HEIGHT: dict[int, float] = {s: h / HEX_SIZE_MM for s, h in _HEIGHT_MM.items()}
"""Default Silhouette height per Silhouette value, in hex units."""


@dataclass(frozen=True)
class SilhouetteCalibration:
    """Base radius and height per Silhouette value (hex units). Defaults: :data:`SILHOUETTE_BASE_RADIUS`,
    :data:`SILHOUETTE_HEIGHT` (see the module docstring for where they come from)."""

    base_radius: Mapping[int, float] = field(default_factory=lambda: dict(SILHOUETTE_BASE_RADIUS))
    height: Mapping[int, float] = field(default_factory=lambda: dict(SILHOUETTE_HEIGHT))

    def radius(self, silhouette: int, field_name: str = "silhouette") -> float:
        """Base radius of a Silhouette. Raises ScenarioError for an unknown value."""
        if silhouette not in self.base_radius:
            raise ScenarioError(field_name, f"unknown Silhouette {short_repr(silhouette)}",
                                [str(s) for s in self.base_radius])
        return float(self.base_radius[silhouette])

    def height_of(self, silhouette: int, field_name: str = "silhouette") -> float:
        if silhouette not in self.height:
            raise ScenarioError(field_name, f"unknown Silhouette {short_repr(silhouette)}",
                                [str(s) for s in self.height])
        return float(self.height[silhouette])


DEFAULT_CALIBRATION = SilhouetteCalibration()


@dataclass(frozen=True)
class Model:
    """A Model on the board.

    Attributes:
        id: unique name ("cavecrawler").
        x, y: base centre, board units.
        silhouette: Silhouette value (key of the calibration table).
        facing: degrees (see module docstring). Irrelevant for a 360° Angle of Vision.
        side: player / faction; Models with different sides are enemies. MegaBeasts use ``"megabeast"``.
        kind: ``"miner"``, ``"megabeast"`` or ``"deployable"``.
        hex: the hexagon it stands in (``None``: the hexagon containing the base centre).
        declared_move: the Miner declared Move this Order: 360° LoF (Line of Fire, exceptions; Move › Effects).
        angle_of_vision: degrees of the front arc; ``None`` = the default (180° for Miners and Deployables; for a
            MegaBeast, ``None`` means its Behavior defines no Angle, so 360°).
        on: id of the scenery piece the Model stands on (``None``: the ground). Its elevation is then that piece's
            height (:meth:`.lof.TableTop.elevation`; Move › Effects: climbing up or down an obstacle).
    """

    id: str
    x: float
    y: float
    silhouette: int = 7
    facing: float = 0.0
    side: str = "A"
    kind: Kind = "miner"
    hex: Hex | None = None
    declared_move: bool = False
    angle_of_vision: float | None = None
    on: str | None = None

    @property
    def center(self) -> XY:
        return (self.x, self.y)

    def disc(self, calibration: SilhouetteCalibration = DEFAULT_CALIBRATION) -> Disc:
        return Disc(self.x, self.y, calibration.radius(self.silhouette, f"models.{self.id}.silhouette"))

    def height(self, calibration: SilhouetteCalibration = DEFAULT_CALIBRATION) -> float:
        return calibration.height_of(self.silhouette, f"models.{self.id}.silhouette")

    def arc_degrees(self) -> float:
        """Width of the arc in which this Model can draw LoF right now (360 when moving or a MegaBeast without a
        Behavior Angle)."""
        if self.kind == "megabeast":
            return 360.0 if self.angle_of_vision is None else float(self.angle_of_vision)
        if self.declared_move:
            return 360.0
        return 180.0 if self.angle_of_vision is None else float(self.angle_of_vision)

    def moved_to(self, x: float, y: float, hex: Hex | None = None, on: str | None | object = ...) -> "Model":
        """This Model at ``(x, y)``; ``on``: the piece it stands on there (default: unchanged)."""
        if on is ...:
            return replace(self, x=x, y=y, hex=hex)
        return replace(self, x=x, y=y, hex=hex, on=on)

    def is_enemy_miner_of(self, other: "Model") -> bool:
        return self.kind == "miner" and other.kind == "miner" and self.side != other.side

    def hex_in(self, layout: Layout) -> Hex:
        return self.hex if self.hex is not None else layout.pixel_to_hex(self.center)


def facing_vector(deg: float) -> XY:
    rad = math.radians(deg)
    return (math.cos(rad), math.sin(rad))


def disc_in_arc(origin: XY, facing_deg: float, arc_deg: float, target: Disc, tol: float = 1e-9) -> bool:
    """Whether ``target`` is totally or partially inside the arc of ``arc_deg`` degrees centred on ``facing_deg``
    with its apex at ``origin`` (the shooter's base centre). The arc is closed: a target touching its edge counts.

    Line of Fire and Distances › Line of Fire (front 180° arc); MegaBeast Line of Fire (Angle of Vision).
    """
    if arc_deg >= 360.0:
        return True
    dx, dy = target.x - origin[0], target.y - origin[1]
    dist = math.hypot(dx, dy)
    if dist <= target.r + tol:
        return True  # the target covers the apex
    half = math.radians(arc_deg) / 2
    ang = math.atan2(dy, dx) - math.radians(facing_deg)
    ang = (ang + math.pi) % (2 * math.pi) - math.pi
    if abs(ang) <= half + 1e-12:
        return True
    # distance from the target's centre to the two edge rays
    for sgn in (1, -1):
        ex, ey = math.cos(math.radians(facing_deg) + sgn * half), math.sin(math.radians(facing_deg) + sgn * half)
        t = max(0.0, dx * ex + dy * ey)
        if math.hypot(dx - t * ex, dy - t * ey) <= target.r + tol:
            return True
    return False


def arc_polygon_points(origin: XY, facing_deg: float, arc_deg: float, radius: float, n: int = 24) -> list[XY]:
    """Points of a pie slice showing an arc (for drawing): apex, then the arc's edge at ``radius``."""
    if arc_deg >= 360.0:
        return [(origin[0] + radius * math.cos(2 * math.pi * i / n), origin[1] + radius * math.sin(2 * math.pi * i / n))
                for i in range(n)]
    half = arc_deg / 2
    pts = [origin]
    for i in range(n + 1):
        a = math.radians(facing_deg - half + arc_deg * i / n)
        pts.append((origin[0] + radius * math.cos(a), origin[1] + radius * math.sin(a)))
    return pts


@dataclass(frozen=True)
class Scenery:
    """A piece of scenery: footprint polygon (board units) and height (hex units; ``math.inf`` = unknown/tall).

    Attributes:
        id: unique name.
        points: the footprint's corners, in order.
        height: only used by the ``scenery_height`` ruling option.
    """

    id: str
    points: tuple[XY, ...]
    height: float = math.inf

    def polygon(self):
        from shapely.geometry import Polygon

        return Polygon(self.points)


def validate_models(models: Sequence[Model], calibration: SilhouetteCalibration = DEFAULT_CALIBRATION,
                    tol: float = 1e-9) -> None:
    """Basic checks of a set of Models (unique ids, known kinds and Silhouettes, no overlapping bases).

    Raises:
        ScenarioError: naming the offending Model's field.
    """
    seen: dict[str, Model] = {}
    discs: list = []
    for m in models:
        if m.id in seen:
            raise ScenarioError(f"models.{m.id}", "two Models have the same id")
        if m.kind not in KINDS:
            raise ScenarioError(f"models.{m.id}.kind", f"unknown kind {short_repr(m.kind)}", KINDS)
        for name in ("x", "y", "facing"):
            v = getattr(m, name)
            if not isinstance(v, (int, float)) or not math.isfinite(v):
                raise ScenarioError(f"models.{m.id}.{name}", f"{short_repr(v)} is not a finite number",
                                    "a finite number")
        if m.angle_of_vision is not None and not (0 < m.angle_of_vision <= 360):
            raise ScenarioError(f"models.{m.id}.angle_of_vision", f"{short_repr(m.angle_of_vision)} is out of range",
                                "degrees in (0, 360]")
        discs.append(m.disc(calibration))  # each base once (a crowded table has hundreds of pairs)
        seen[m.id] = m
    ms = list(seen.values())
    for i, a in enumerate(ms):
        da = discs[i]
        for b, db in zip(ms[i + 1:], discs[i + 1:]):
            if da.distance_to(db) < -tol:
                raise ScenarioError(f"models.{b.id}", f"its base overlaps the base of {short_repr(a.id)}",
                                    "bases may touch (Silhouette Contact) but not overlap")
