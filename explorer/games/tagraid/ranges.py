"""Range Ruler (Short / Mid / Long / Out of Range) and Range in Hexagons.

Sections: Distances and Measurements › Range Ruler; Line of Fire and Distances › Range in Hexagons.

The rulebook gives no lengths for the Range Ruler's Segments, so they are a calibration setting
(:class:`RangeCalibration`, in hex units: a hexagon of size 1 measures 1 from centre to corner and √3 across its
flats), shown to users, never a hidden constant.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from enum import Enum

from explorer.errors import ScenarioError, short_repr
from explorer.hexgrid import Hex, distance, hex_range
from explorer.options import Rulings
from explorer.trace import RuleRef, Step

from . import sections as S
from .geometry import Segment, shortest_clear_segment
from .lof import LoFResult, TableTop, _grazing, arc_clips, clear_segment, clipped_searches, line_of_fire
from .pieces import Model
from .options import rulings as default_rulings

BANDS: tuple[str, ...] = ("short", "mid", "long")
OUT_OF_RANGE = "out_of_range"


MIN_LENGTH = 0.01
"""Shortest Range Ruler Segment, base radius or height, in hex units (1.4 mm at the 140 mm hexagon): a positive
length far below anything a printed ruler or a Model's base has, and far above the float underflow (``5e-324``) at
which distances stop meaning anything."""
MAX_SEGMENT = 100.0
"""Longest Range Ruler Segment, base radius or height, in hex units."""


@dataclass(frozen=True)
class RangeCalibration:
    """Lengths of the Range Ruler's three Segments, in hex units (an assumption: the rulebook prints none).

    Default: each Segment 3.5 hex units long. Derivation: two hexagons measured across their flats
    (2 x sqrt(3) = 3.46 hex units, rounded to 3.5), so the Short Segment reaches as far as the longest Range in
    Hexagons the rulebook prints ("up to 2 Hexagons away"), and the three equal Segments end about six hexagons
    (10.5 hex units, about 1.5 m at the 140 mm hexagon of :class:`~explorer.games.tagraid.pieces.SilhouetteCalibration`)
    from the attacker's base edge: a shooter in the middle of a 20 x 16 hexagon board reaches most of it, and a
    target across the board is Out of Range. Change it (table files: ``[range]``; the explorer's side panel) to
    match your printed ruler.

    Raises:
        ScenarioError: a length outside :data:`MIN_LENGTH`..:data:`MAX_SEGMENT` (or not a finite number).
    """

    short: float = 3.5
    mid: float = 3.5
    long: float = 3.5

    def __post_init__(self):
        for name in BANDS:
            v = getattr(self, name)
            if not (isinstance(v, (int, float)) and not isinstance(v, bool) and MIN_LENGTH <= v <= MAX_SEGMENT):
                raise ScenarioError(f"range_calibration.{name}", f"Segment length {short_repr(v)} is out of range",
                                    f"a number of hex units from {MIN_LENGTH} to {MAX_SEGMENT:g}")

    def edges(self) -> list[tuple[str, float, float]]:
        """``[(band, start, end)]`` from the attacker's base edge (hex units)."""
        out, start = [], 0.0
        for name in BANDS:
            end = start + getattr(self, name)
            out.append((name, start, end))
            start = end
        return out

    def band_of(self, distance: float) -> str:
        """The shortest Segment that reaches ``distance`` (a Segment reaching exactly to the target overlaps it)."""
        for name, _, end in self.edges():
            if distance <= end + 1e-12:
                return name
        return OUT_OF_RANGE

    def rounded(self, distance: float, digits: int) -> float:
        """``distance`` (hex units) rounded to ``digits`` decimals the way its band is decided: to the nearest value
        when that stays in the same band, else towards the distance's own band (a gap of 3.500001 past a Segment
        ending at 3.5 is Mid and prints 3.501, never 3.5). Every printed distance goes through here."""
        r = round(distance, digits)
        band = self.band_of(distance)
        if self.band_of(r) == band:
            return r
        step = 10.0 ** -digits
        r = (math.ceil(distance / step) if r < distance else math.floor(distance / step)) * step
        return round(r, digits)


DEFAULT_RANGE_CALIBRATION = RangeCalibration()


@dataclass(frozen=True)
class WeaponRanges:
    """A Ranged Weapon's MODs per Range Ruler Segment; ``None`` = the weapon has no MOD there, so a target there is
    Out of Range. ``out_of_range``: the MOD for weapons that may fire Out of Range (``None``: they may not)."""

    short: int | None = 0
    mid: int | None = 0
    long: int | None = None
    out_of_range: int | None = None

    def mod(self, band: str) -> tuple[str, int | None]:
        """``(effective band, MOD)`` for a measured band. A band without a MOD is Out of Range; the MOD is ``None``
        when the weapon cannot fire there (the Ranged Attack automatically fails). Section: Range Ruler; Ranged
        Attack › Ranged Combat MODs.

        Raises:
            ScenarioError: an unknown band.
        """
        if band not in (*BANDS, OUT_OF_RANGE):
            raise ScenarioError("band", f"unknown band {short_repr(band)}", (*BANDS, OUT_OF_RANGE))
        if band != OUT_OF_RANGE:
            m = getattr(self, band)
            if m is not None:
                return band, m
        return OUT_OF_RANGE, self.out_of_range


DEFAULT_WEAPON_RANGES = WeaponRanges(short=3, mid=0, long=-3, out_of_range=None)
"""The shooter's Range MODs when a table gives none (the Line of Fire explorer's default: +3 / 0 / -3, cannot fire
Out of Range). An editable default: the rulebook prints weapon profiles on cards, not in the rules."""


@dataclass
class RangeResult:
    """A Range Ruler measurement.

    Attributes:
        distance: hex units from the attacker's base edge to the target's Silhouette along the ruler (``None``
            without LoF under ``along_lof``).
        band: ``"short" | "mid" | "long" | "out_of_range"`` (``None`` without LoF).
        ruler: where the ruler lies: from the attacker's base edge, along the measuring line, for the whole ruler
            length (for drawing bands).
        measured: the measured segment (attacker's base edge to the target's Silhouette).
        lof: the LoF result used.
        calibration: Segment lengths used.
        elevated: the ruler ran in three dimensions (a Model of the pair stands on scenery, :mod:`.elevation`).
    """

    attacker: str
    target: str
    distance: float | None
    band: str | None
    ruler: Segment | None
    measured: Segment | None
    lof: LoFResult
    calibration: RangeCalibration
    rulings: dict[str, str] = field(default_factory=dict)
    rule: RuleRef = S.RANGE_RULER
    detail: str = ""
    elevated: bool = False

    def how(self) -> str:
        """How this ruler was measured, in one sentence (Distances and Measurements › Range Ruler; ruling
        ``range_measurement``; :mod:`.elevation` for a pair where a Model stands on scenery)."""
        edge = self.rulings.get("range_measurement") == "edge_to_edge"
        if self.elevated:
            return ("A Model stands on scenery, so the Ruler runs in three dimensions: its length combines "
                    + ("the gap between the two bases" if edge else
                       "the plan length of the shortest clear Line of Fire segment the 3D search found")
                    + " (across) with the vertical gap between the two Silhouettes' height ranges (up or down; 0 "
                    "when they overlap): √(across² + up or down²).")
        if edge:
            return "The Ruler is laid from base edge to base edge (ruling 'range_measurement = edge_to_edge')."
        return "The Ruler is laid along the shortest clear Line of Fire segment between the two bases."

    def weapon(self, weapon: WeaponRanges) -> tuple[str, int | None]:
        """``(band, MOD)`` for a weapon (see :meth:`WeaponRanges.mod`)."""
        if self.band is None:
            raise ScenarioError("target", f"{self.attacker} has no LoF to {self.target}: no Range to measure")
        return weapon.mod(self.band)

    def bands(self) -> list[tuple[str, Segment]]:
        """The ruler's Segments as board segments (for drawing)."""
        if self.ruler is None:
            return []
        (x0, y0), (x1, y1) = self.ruler.p0, self.ruler.p1
        length = self.ruler.length or 1.0
        ux, uy = (x1 - x0) / length, (y1 - y0) / length
        return [(n, Segment((x0 + ux * s, y0 + uy * s), (x0 + ux * e, y0 + uy * e)))
                for n, s, e in self.calibration.edges()]

    def shown(self, digits: int) -> float:
        """The distance rounded to ``digits`` decimals the way its band is decided
        (:meth:`RangeCalibration.rounded`)."""
        return self.calibration.rounded(self.distance, digits)

    def to_step(self) -> Step:
        title = (f"{self.target} is at {self.band.replace('_', ' ')} ({self.shown(2):.2f} hex units)"
                 if self.band else f"no Range: {self.attacker} has no LoF to {self.target}")
        return Step(title, self.rule, self.detail, {"distance": self.distance, "band": self.band,
                                                    "segments": [self.calibration.short, self.calibration.mid,
                                                                 self.calibration.long]},
                    (self.attacker, self.target), "Range")


def _preranged(table: TableTop, s: Model, t: Model, obs, tb: bool, mode: str | None = None) -> tuple | None:
    """``(segment,)``: the shortest clear segment :meth:`.lof_analysis.LofAnalysisCache.all_pairs` measured for this
    pair's local table beforehand (:func:`.geometry.shortest_clear_segments`), taken only for the very same
    obstacles (the same polygon template on the same local table, whose Models do not change) and the same arc
    clipping (``mode``: :func:`arc_searches`' first value; ``None``: no clip); ``None`` otherwise."""
    from . import geometry

    if not geometry.FAST_PATH or table._memo is None or obs._template is None:
        return None
    key = (s.id, t.id, tb, id(obs._template)) + ((mode,) if mode is not None else ())
    got = table.__dict__.get("_preranged", {}).get(key)
    if got is None or got[0] is not obs._template:
        return None
    return (got[1],)


def arc_searches(s: Model, a, b, rulings: Rulings) -> tuple[str, list[tuple]] | None:
    """The Range Ruler's searches that the arc readings clip, for shooter ``s`` (base ``a``) and target base ``b``:
    :func:`.lof.clipped_searches` (the LoF search's alternatives), each run as
    :func:`.geometry.shortest_clear_segment` from ``x`` to ``y`` under ``clip``, its segment turned end for end
    when ``turned``; ``None`` when nothing is clipped (one unclipped search).
    Modes: ``"target"`` (``lof_arc_part = seen_part_in_arc``: the line ends in the part of the target inside the
    arc), ``"shooter"`` (``lof_shooter_arc = front_half``, a Miner: it leaves the front half of the shooter's base;
    searched from the target), ``"both"`` (both chosen). Consults ``lof_arc_part`` exactly as
    :func:`measure_range` always has (only for a shooter whose arc is under 360° and whose front half is not
    already required)."""
    if s.arc_degrees() >= 360.0:
        return None
    shooter_side = _shooter_side(s, rulings)
    arc_part = (rulings.chosen("lof_arc_part") if shooter_side else rulings.reading("lof_arc_part")) \
        == "seen_part_in_arc"
    if not (shooter_side or arc_part):
        return None
    return clipped_searches(s, a, b, arc_part, shooter_side)  # the LoF search's own alternatives


def shortest_of(segments) -> Segment | None:
    """The shortest of the searches' segments (``None`` entries skipped; the first of equal lengths), or ``None``."""
    found = [x for x in segments if x is not None]
    return min(found, key=lambda v: v.length) if found else None


def _shooter_side(s: Model, rulings: Rulings) -> bool:
    """Whether ruling ``lof_shooter_arc = front_half`` restricts where on ``s`` a line may start (a Miner with a
    180° arc; consulted only when chosen, as :func:`.lof.clear_segment` reads it)."""
    return s.kind == "miner" and s.arc_degrees() < 360.0 and rulings.chosen("lof_shooter_arc") == "front_half"


def _inside(point, clips) -> bool:
    """Whether ``point`` lies in one of the half-plane alternatives ``clips`` (:func:`.lof.arc_clips`; ``[]``: no
    clip, everything is inside)."""
    return not clips or any(all(hx * point[0] + hy * point[1] + hc >= -1e-9 for hx, hy, hc in c) for c in clips)


def measure_range(table: TableTop, attacker: Model | str, target: Model | str, rulings: Rulings | None = None,
                  calibration: RangeCalibration = DEFAULT_RANGE_CALIBRATION) -> RangeResult:
    """Place the Range Ruler from ``attacker`` to ``target``. Section: Distances and Measurements › Range Ruler.

    The ruler starts at the edge of the attacker's base and follows the LoF; the shortest Segment overlapping the
    target's Silhouette gives the Range. Under ``range_measurement = along_lof`` (default) the distance is the
    shortest clear LoF segment between the two bases (:func:`~explorer.games.tagraid.geometry.shortest_clear_segment`:
    the LoF search's own features and candidate lines, plus the lines where the length is stationary among those
    touching one feature; exact, so a feature moved by a hair cannot flip the band); under ``edge_to_edge`` it is the
    gap between the two bases. Without LoF there is no Range (``band = None``). The ruler follows only lines the LoF
    readings allow: under ``lof_arc_part = seen_part_in_arc`` ending in the part of the target inside the arc, under
    ``lof_shooter_arc = front_half`` leaving the front half of the shooter's base.
    """
    rulings = rulings or default_rulings()
    s = table.model(attacker) if isinstance(attacker, str) else attacker
    t = table.model(target) if isinstance(target, str) else target
    lof = line_of_fire(table, s, t, rulings, explain=False)
    reading = rulings.reading("range_measurement")
    used = dict(lof.rulings) | {"range_measurement": reading}
    a, b = table.disc(s), table.disc(t)
    if not lof.has_lof:
        return RangeResult(s.id, t.id, None, None, None, None, lof, calibration, used,
                           detail=f"{s.id} has no LoF to {t.id}; the Range Ruler must follow a LoF.")
    dx, dy = b.x - a.x, b.y - a.y
    dl = math.hypot(dx, dy)
    if table.elevated_pair(s, t):
        return _measure_range_3d(table, s, t, rulings, calibration, lof, reading, used)
    if reading == "edge_to_edge" or lof.reason == "silhouette_contact" or a.distance_to(b) <= 1e-9:
        p0 = (a.x + dx * a.r / dl, a.y + dy * a.r / dl)
        p1 = (b.x - dx * b.r / dl, b.y - dy * b.r / dl)
        seg = Segment(p0, p1) if a.distance_to(b) > 0 else Segment(p0, p0)
    else:
        _, obs, _ = clear_segment(table, s, t, rulings)
        if lof.reason == "reciprocity":
            seg = lof.witness
        else:
            tb = _grazing(rulings)
            clipped = arc_searches(s, a, b, rulings)
            pre = _preranged(table, s, t, obs, tb, clipped[0] if clipped else None)
            if pre is not None:  # measured beforehand with other pairs (LofAnalysisCache.all_pairs)
                best = pre[0]
            elif clipped is None:
                best = shortest_clear_segment(a, b, obs, touching_blocks=tb)
            else:  # the arc readings: the ruler follows a line they allow (its start in the front half, under
                # lof_shooter_arc = front_half; its end in the part of the target inside the arc, under
                # lof_arc_part = seen_part_in_arc), the shortest over the arc's half-plane alternatives
                runs = [(shortest_clear_segment(x, y, obs, touching_blocks=tb, clip=c), turned)
                        for x, y, c, turned in clipped[1]]
                best = shortest_of(Segment(w.p1, w.p0) if turned and w is not None else w for w, turned in runs)
            seg = best if best is not None else lof.witness
    d = seg.length
    band = calibration.band_of(d)
    (x0, y0), (x1, y1) = seg.p0, seg.p1
    ux, uy = ((x1 - x0) / d, (y1 - y0) / d) if d > 0 else (dx / dl, dy / dl)
    total = calibration.edges()[-1][2]
    ruler = Segment((x0, y0), (x0 + ux * total, y0 + uy * total))
    return RangeResult(s.id, t.id, d, band, ruler, seg, lof, calibration, used,
                       detail=f"the ruler from {s.id}'s base edge reaches {t.id} after {calibration.rounded(d, 2):.2f} hex units: "
                       f"{band.replace('_', ' ')} (Segments {calibration.short:g}/{calibration.mid:g}/"
                       f"{calibration.long:g} hex units).")


def _measure_range_3d(table: TableTop, s: Model, t: Model, rulings: Rulings, calibration: RangeCalibration,
                      lof: LoFResult, reading: str, used: dict) -> RangeResult:
    """:func:`measure_range` for a pair where a Model stands on scenery (:mod:`.elevation`).

    The ruler runs in three dimensions: its length is the plan length of the segment it follows combined with the
    vertical gap between the two Silhouettes' height ranges (``sqrt(plan² + gap²)``; the gap is 0 when the height
    ranges overlap). Plan length: under ``edge_to_edge`` the gap between the bases; under ``along_lof`` the shortest
    of the centre line's gap segment (when its sight line is clear) and the clear segments the 3D LoF search found
    (a search, so the shortest clear line may be a hair shorter than the one measured)."""
    from .elevation import segment_clear_3d, vertical_gap

    a, b = table.disc(s), table.disc(t)
    dx, dy = b.x - a.x, b.y - a.y
    dl = math.hypot(dx, dy) or 1.0
    p0 = (a.x + dx * a.r / dl, a.y + dy * a.r / dl)
    p1 = (b.x - dx * b.r / dl, b.y - dy * b.r / dl)
    centre = Segment(p0, p1) if a.distance_to(b) > 0 else Segment(p0, p0)
    seg = centre
    if reading == "along_lof" and lof.reason != "silhouette_contact" and a.distance_to(b) > 1e-9:
        res, _, _ = clear_segment(table, s, t, rulings)
        prisms, _ = table.prisms(s, t, rulings)
        found = [w for w in (*getattr(res, "clear", ()), res.witness, lof.witness) if w is not None]
        # the centre line only where the arc readings let a line start and end there (lof_shooter_arc =
        # front_half: its start in the shooter's front half; lof_arc_part = seen_part_in_arc: its end in the arc)
        clips = arc_clips(s.center, s.facing, s.arc_degrees()) if s.arc_degrees() < 360.0 else []
        starts = _inside(centre.p0, clips) if _shooter_side(s, rulings) else True
        ends = _inside(centre.p1, clips) if clips and rulings.reading("lof_arc_part") == "seen_part_in_arc" else True
        if starts and ends and segment_clear_3d(centre, table.top(s), table.top(t), prisms,
                                                touching_blocks=_grazing(rulings)):
            found.append(centre)
        seg = min(found, key=lambda v: v.length) if found else centre
    gap = vertical_gap(table.elevation(s), table.top(s), table.elevation(t), table.top(t))
    d = math.hypot(seg.length, gap)
    band = calibration.band_of(d)
    (x0, y0), (x1, y1) = seg.p0, seg.p1
    pl = seg.length
    ux, uy = ((x1 - x0) / pl, (y1 - y0) / pl) if pl > 0 else (dx / dl, dy / dl)
    total = calibration.edges()[-1][2]
    ruler = Segment((x0, y0), (x0 + ux * total, y0 + uy * total))
    rise = f" and {calibration.rounded(gap, 2):.2f} up or down" if gap > 0 else ""
    return RangeResult(s.id, t.id, d, band, ruler, seg, lof, calibration, used, elevated=True,
                       detail=f"the ruler from {s.id}'s Silhouette reaches {t.id} after {calibration.rounded(d, 2):.2f} "
                       f"hex units ({calibration.rounded(pl, 2):.2f} across{rise}): {band.replace('_', ' ')} (Segments "
                       f"{calibration.short:g}/{calibration.mid:g}/{calibration.long:g} hex units).")


# ----------------------------------------------------------------------------------------------------- hexagons


class HexRange(str, Enum):
    """The five Range-in-Hexagons icons (Line of Fire and Distances › Range in Hexagons)."""

    SAME = "same"                        # the hexagon the Miner is in
    ADJACENT = "adjacent"                # hexagons adjacent to the Miner's or MegaBeast's
    SAME_AND_ADJACENT = "same_and_adjacent"
    UP_TO_2 = "up_to_2"                  # from the Miner's hexagon to 2 hexagons away
    FROM_1_TO_2 = "from_1_to_2"          # from the adjacent hexagons to 2 hexagons away

    @property
    def bounds(self) -> tuple[int, int]:
        return _BOUNDS[self]


_BOUNDS = {HexRange.SAME: (0, 0), HexRange.ADJACENT: (1, 1), HexRange.SAME_AND_ADJACENT: (0, 1),
           HexRange.UP_TO_2: (0, 2), HexRange.FROM_1_TO_2: (1, 2)}


def _as_range(kind: HexRange | str) -> HexRange:
    try:
        return HexRange(kind)
    except ValueError:
        raise ScenarioError("range", f"unknown Range in Hexagons {short_repr(kind)}",
                            [k.value for k in HexRange]) from None


def in_hex_range(kind: HexRange | str, origin: Hex, other: Hex) -> bool:
    """Whether ``other`` is within the Range in Hexagons ``kind`` of ``origin`` (hex distance between the bounds)."""
    lo, hi = _as_range(kind).bounds
    return lo <= distance(origin, other) <= hi


def hexes_in_range(kind: HexRange | str, origin: Hex) -> list[Hex]:
    """Every hexagon within ``kind`` of ``origin`` (board bounds not applied), in :func:`hex_range` order."""
    lo, hi = _as_range(kind).bounds
    return [h for h in hex_range(origin, hi) if distance(origin, h) >= lo]


def same_hexagon(a: Hex, b: Hex) -> bool:
    return in_hex_range(HexRange.SAME, a, b)


def adjacent(a: Hex, b: Hex) -> bool:
    return in_hex_range(HexRange.ADJACENT, a, b)


def same_or_adjacent(a: Hex, b: Hex) -> bool:
    return in_hex_range(HexRange.SAME_AND_ADJACENT, a, b)


def up_to_two(a: Hex, b: Hex) -> bool:
    return in_hex_range(HexRange.UP_TO_2, a, b)


def one_to_two(a: Hex, b: Hex) -> bool:
    return in_hex_range(HexRange.FROM_1_TO_2, a, b)


def models_in_hex_range(table: TableTop, model: str, kind: HexRange | str) -> list[str]:
    """Ids of the other Models whose hexagon is within ``kind`` of ``model``'s hexagon (Range in Hexagons)."""
    h = table.hex_of(model)
    return [m for m in table.models if m != model and in_hex_range(kind, h, table.hex_of(m))]


# ----------------------------------------------------------------------------------------------------- trace


def ranged_attack_geometry(table: TableTop, attacker: Model | str, target: Model | str,
                           weapon: WeaponRanges | None = None, rulings: Rulings | None = None,
                           calibration: RangeCalibration = DEFAULT_RANGE_CALIBRATION):
    """The geometric questions of a Ranged Attack as a :class:`~explorer.trace.Trace`: LoF (Line of Fire), Range
    (Range Ruler; the weapon's MOD when ``weapon`` is given) and Partial Cover.

    ``result``: a :class:`.outcomes.RangedGeometry` (JSON ``outcome``: ``{"has_lof", "band", "partial_cover",
    "cover_pieces", "range_mod", "can_fire"}``; ``range_mod``/``can_fire`` only with a weapon; ``can_fire`` is
    ``False`` without LoF or Out of Range without an Out-of-Range MOD: Ranged Attack › Requirements and Ranged Combat
    MODs).
    """
    from explorer.trace import Trace

    from .lof import partial_cover
    from .outcomes import RangedGeometry

    rulings = rulings or default_rulings()
    s = table.model(attacker) if isinstance(attacker, str) else attacker
    t = table.model(target) if isinstance(target, str) else target
    trace = Trace(f"Ranged Attack geometry: {s.id} -> {t.id}")
    lof = line_of_fire(table, s, t, rulings)
    trace.steps.append(lof.to_step())
    band, mod, cover = None, None, None
    if lof.has_lof:
        rng = measure_range(table, s, t, rulings, calibration)
        trace.steps.append(rng.to_step())
        band = rng.band
        if weapon is not None:
            wband, mod = rng.weapon(weapon)
            trace.add(f"Range MOD {mod:+d} ({wband.replace('_', ' ')})" if mod is not None
                      else "Out of Range: the Ranged Attack automatically fails", S.RANGED_ATTACK,
                      "The weapon's MOD for the measured Segment; a weapon without a MOD there is Out of Range.",
                      section="Range", marks=(s.id, t.id), band=wband, mod=mod)
        cover = partial_cover(table, s, t, rulings)
        trace.steps.append(cover.to_step())
    trace.rulings = dict(rulings.consulted)
    return trace.with_result(RangedGeometry(
        lof.has_lof, band, cover is not None and cover.in_cover, tuple(cover.pieces) if cover is not None else (),
        weapon is not None, mod, mod is not None))
