"""MegaBeast geometry: Threat Level per hexagon side, the side a Miner attacks from, Interior Deployment cells.

Sections: MegaBeast › Threat Level; MegaBeast › Deployment and Movement Type; MegaBeast › MegaBeast Line of Fire
(its Angle of Vision is :attr:`Model.angle_of_vision`, used by :func:`explorer.games.tagraid.lof.line_of_fire`).

Facing: the Threat Level example shows the Angle of Vision covering two sides of the MegaBeast's hexagon, so the
MegaBeast faces one of its hexagon's *corners*: the two sides meeting at that corner are the front pair, the next two
the adjacent pair, the last two (meeting at the opposite corner) the opposite pair.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

from explorer.errors import ScenarioError, short_repr
from explorer.hexgrid import DIRECTIONS, Hex, Layout, neighbors
from explorer.options import Rulings
from explorer.trace import RuleRef, Step

from . import sections as S
from .lof import TableTop
from .pieces import Model
from .options import rulings as default_rulings

PAIRS: tuple[str, ...] = ("front", "adjacent", "opposite")


@dataclass(frozen=True)
class ThreatLevels:
    """A Behavior's three Threat Levels: for the two sides in the Angle of Vision (``front``), the two next to them
    (``adjacent``) and the two opposite (``opposite``)."""

    front: int
    adjacent: int
    opposite: int

    def of(self, pair: str) -> int:
        return getattr(self, pair)


DEFAULT_THREAT_LEVELS = ThreatLevels(front=16, adjacent=13, opposite=10)
"""The MegaBeast Behavior's Threat Levels when a table gives none (the Line of Fire explorer's default). An editable
default: Behavior cards are printed, not in the rules."""


def side_angle(layout: Layout, d: int) -> float:
    """Direction (degrees, board coordinates) from a hexagon's centre to the middle of its side towards direction
    ``d`` (the hex grid's direction index 0..5)."""
    x0, y0 = layout.hex_to_pixel(Hex(0, 0))
    x1, y1 = layout.hex_to_pixel(DIRECTIONS[d])
    return math.degrees(math.atan2(y1 - y0, x1 - x0))


def corner_angles(layout: Layout) -> list[float]:
    """Directions (degrees) of the six corners of a hexagon, the MegaBeast's possible facings, in ``[0, 360)``."""
    return sorted(round(math.degrees(math.atan2(dy, dx)) % 360.0, 9)
                  for dx, dy in (layout.corner_offset(i) for i in range(6)))


def _diff(a: float, b: float) -> float:
    return abs((a - b + 180.0) % 360.0 - 180.0)


def side_pairs(layout: Layout, facing: float, tol: float = 1e-6) -> dict[int, str]:
    """``{direction d: "front" | "adjacent" | "opposite"}`` for the six sides of a MegaBeast facing ``facing``.

    Raises:
        ScenarioError: ``facing`` does not point at a corner of the hexagon (the allowed facings are listed).
    """
    corners = corner_angles(layout)
    if min(_diff(facing, c) for c in corners) > tol:
        raise ScenarioError("megabeast.facing", f"facing {facing:g}° does not point at a corner of its hexagon",
                            ", ".join(f"{c:g}°" for c in corners))
    out = {}
    for d in range(6):
        delta = _diff(side_angle(layout, d), facing)
        out[d] = "front" if delta < 60 else ("adjacent" if delta < 120 else "opposite")
    return out


def threat_by_side(layout: Layout, facing: float, levels: ThreatLevels) -> dict[int, int]:
    """Threat Level of each side (direction index → level). Section: MegaBeast › Threat Level."""
    return {d: levels.of(p) for d, p in side_pairs(layout, facing).items()}


def sides_facing(layout: Layout, mb_hex: Hex, point: tuple[float, float], tol: float = 1e-9) -> tuple[int, ...]:
    """The side(s) of ``mb_hex`` facing ``point``: the side crossed by the ray from the hexagon's centre to the
    point; two sides when the ray passes exactly through a corner. Raises ScenarioError at the centre itself."""
    cx, cy = layout.hex_to_pixel(mb_hex)
    if math.hypot(point[0] - cx, point[1] - cy) < 1e-12:
        raise ScenarioError("miner", "the Miner is at the MegaBeast's hexagon centre: no side faces it")
    ang = math.degrees(math.atan2(point[1] - cy, point[0] - cx))
    diffs = sorted((_diff(ang, side_angle(layout, d)), d) for d in range(6))
    if abs(diffs[0][0] - 30.0) <= tol * 1e3 and abs(diffs[1][0] - 30.0) <= tol * 1e3:
        return tuple(sorted((diffs[0][1], diffs[1][1])))
    return (diffs[0][1],)


@dataclass
class ThreatResult:
    """The Threat Level the MegaBeast uses against a Miner.

    Attributes:
        level: the Threat Level (the MegaBeast's "roll").
        sides: the side(s) of its hexagon facing the Miner (direction indices).
        pair: ``"front" | "adjacent" | "opposite"`` of the side used.
        by_side: the Threat Level of every side.
    """

    megabeast: str
    miner: str
    level: int
    sides: tuple[int, ...]
    pair: str
    by_side: dict[int, int]
    rulings: dict[str, str]
    rule: RuleRef = S.MEGABEAST_THREAT
    detail: str = ""

    def to_step(self) -> Step:
        return Step(f"{self.megabeast} uses Threat Level {self.level} ({self.pair} side)", self.rule, self.detail,
                    {"level": self.level, "sides": list(self.sides), "pair": self.pair,
                     "by_side": {str(k): v for k, v in self.by_side.items()}}, (self.megabeast, self.miner),
                    "Threat Level")


def threat_level(table: TableTop, megabeast: Model | str, miner: Model | str, levels: ThreatLevels,
                 rulings: Rulings | None = None) -> ThreatResult:
    """The Threat Level for the side of the MegaBeast's hexagon where the ARO occurs, i.e. the side facing the Miner
    (the ray from the hexagon's centre to the Miner's base centre). Along a corner: ruling option
    ``megabeast_corner_side``. Section: MegaBeast › Threat Level.

    Raises:
        ScenarioError: the first Model is not a MegaBeast, or its facing does not point at a corner.
    """
    rulings = rulings or default_rulings()
    mb = table.model(megabeast) if isinstance(megabeast, str) else megabeast
    mi = table.model(miner) if isinstance(miner, str) else miner
    if mb.kind != "megabeast":
        raise ScenarioError("megabeast", f"{short_repr(mb.id)} is a {mb.kind}, not a MegaBeast",
                            ["a Model of kind megabeast"])
    pairs = side_pairs(table.layout, mb.facing)
    by_side = {d: levels.of(p) for d, p in pairs.items()}
    sides = sides_facing(table.layout, table.hex_of(mb), mi.center)
    used = {}
    if len(sides) == 2:
        reading = rulings.reading("megabeast_corner_side")
        used["megabeast_corner_side"] = reading
        pick = max if reading == "higher" else min
        side = pick(sides, key=lambda d: by_side[d])
        detail = (f"{mi.id} is exactly in line with the corner between sides {sides[0]} and {sides[1]}; "
                  f"the {reading} Threat Level applies")
    else:
        side = sides[0]
        detail = f"side {side} of {mb.id}'s hexagon faces {mi.id}"
    return ThreatResult(mb.id, mi.id, by_side[side], sides, pairs[side], by_side, used,
                        detail=detail + f" ({pairs[side]} pair: Threat Level {by_side[side]}).")


def interior_deployment_hexes(tiles: Mapping[Hex, bool], min_tiles: int = 4) -> list[Hex]:
    """Hexagons without tile surrounded by at least ``min_tiles`` (4) hexagons with tiles: where a MegaBeast with
    Interior Deployment and Movement may be placed. Hexagons missing from ``tiles`` count as without tile.
    Section: MegaBeast › Deployment and Movement Type."""
    out = []
    for h, has in sorted(tiles.items()):
        if has:
            continue
        if sum(1 for n in neighbors(h) if tiles.get(n, False)) >= min_tiles:
            out.append(h)
    return out
