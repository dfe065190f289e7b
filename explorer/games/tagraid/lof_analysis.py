"""Every verdict of a shooter (Line of Fire, Range Ruler, Partial Cover, Threat Level), computed incrementally.

Rule sections (implemented in :mod:`.lof`, :mod:`.ranges` and :mod:`.megabeast`; this module only decides what to
recompute): Line of Fire and Distances › Line of Fire; MegaBeast › MegaBeast Line of Fire; Distances and
Measurements › Range Ruler; Damage › Partial Cover; Line of Fire and Distances › Range in Hexagons; MegaBeast ›
Threat Level.

Public API:

* :class:`TargetVerdict`, :class:`BlockedRay` — one target's verdicts; :class:`LazyVerdict` — the same with only
  the Line of Fire verdict computed at once (``all_pairs(lazy=True)``), the rest on first read.
* :func:`analyse` — the verdicts of one shooter against every other Model (``cache=`` makes it incremental).
* :class:`LofAnalysisCache` — the cache: :meth:`~LofAnalysisCache.analyse` (one shooter) and
  :meth:`~LofAnalysisCache.all_pairs` (every ordered pair).

**What a pair's verdict depends on.** Every segment from one base to another lies in the convex hull of the two
bases, which lies in their *capsule* (the segment between the centres grown by the larger radius). So the verdicts of
``shooter -> target`` depend only on: the two Models (position, facing, Silhouette, kind, side, declared Move, Angle
of Vision), the other Models whose base comes within :data:`NEAR` of the capsule (they may block; a Model in
Silhouette Contact with the shooter or the target is among them, which is all the Silhouette Contact exceptions look
at), the scenery pieces and hexagons without tile (and the board's edge) that come within :data:`NEAR` of it, the
Silhouette calibration, the Range Ruler calibration (Range only), the Threat Levels (Threat only) and the readings
of the ruling options the computation consulted. Each pair is computed on a *local table* holding just those pieces,
and cached under that key:

* moving or turning one Model recomputes the pairs it belongs to, and the pairs whose capsule it enters or leaves;
* flipping a ruling re-decides only the results that consulted it (each cached result records
  :attr:`Rulings.consulted <explorer.options.Rulings.consulted>` of its computation, and is reused while those
  readings are unchanged): :meth:`LofAnalysisCache.all_pairs` keeps every other pair of its previous call without
  building its key, and the pairs it decides again run on the local tables kept from earlier calls (the same
  Models), whose memo keeps each LoF answer with the readings it consulted and whose searches, explanations and
  Range Ruler searches are taken again for the same obstacles and grazing. So a flip of ``range_measurement``
  measures the Ranges again and nothing else; ``scenery_height`` or ``tileless_occupied_hexagon`` search again
  only where they change the blocking polygons (one obstacle template per set of polygons); ``lof_grazing`` and the
  arc readings search again (their lines differ) on the kept tables; flipping back finds every answer of the first
  reading still cached;
* editing the Range Ruler recomputes Ranges only; the weapon's MODs are read from the cached band each time.

The LoF search (:func:`.geometry.find_clear_segment`) already keeps only the obstacles near the capsule, so a local
table gives identical Line of Fire and Partial Cover verdicts. The Range Ruler's shortest-line search
(:func:`.ranges.measure_range`) also drew candidate lines through every obstacle feature on the table; on a local
table it draws them through the features near the pair only, so in rare cases it reports a slightly longer (still
clear, still along a LoF) shortest line than a search over the whole table, and it is many times faster.
"""

from __future__ import annotations

import copy
import functools
import math
from collections import OrderedDict
from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass, field

import numpy as np
import shapely
from shapely.geometry import LineString

from explorer.hexgrid import Hex, distance
from explorer.options import Rulings

from . import geometry
from .geometry import Disc, Segment
from .lof import (CoverResult, LoFResult, TableTop, _clipped, _combine, _explain_batch, clear_segment,
                  clipped_searches, line_of_fire, partial_cover)
from .megabeast import ThreatLevels, ThreatResult, threat_level
from .options import rulings as default_rulings
from .pieces import Model, disc_in_arc
from .ranges import (DEFAULT_RANGE_CALIBRATION, RangeCalibration, RangeResult, WeaponRanges, arc_searches,
                     measure_range, shortest_of)

__all__ = ["TargetVerdict", "LazyVerdict", "BlockedRay", "analyse", "LofAnalysisCache", "local_table", "NEAR"]

NEAR = 1e-3
"""Board units: pieces within this distance of a pair's capsule belong to its local table (much more than the
geometry's tolerances, 1e-9, and the Silhouette Contact tolerance, 1e-6, so nothing that can matter is left out)."""


# ----------------------------------------------------------------------------------------------------- verdicts


@dataclass
class BlockedRay:
    """An explanatory ray cut at the first obstacle it meets (board units) and that obstacle's label."""

    start: tuple[float, float]
    hit: tuple[float, float]
    end: tuple[float, float]
    obstacle: str


@dataclass
class TargetVerdict:
    """Everything the explorer shows for one target of the shooter.

    Attributes:
        target: Model id.
        lof: the LoF verdict (reason, witness, rule section).
        range: the Range Ruler measurement when there is LoF.
        band, mod: the weapon's effective band and MOD (``mod`` is ``None`` when the weapon cannot fire there).
        cover: Partial Cover (when there is LoF and the target is a Miner or Deployable).
        threat: the Threat Level the MegaBeast uses against the shooter (target is a MegaBeast, shooter a Miner) or
            against the target (shooter is a MegaBeast).
        hex_distance: hexagons between the two Models' hexagons (Range in Hexagons).
        blocked_rays: the explanatory rays of a blocked verdict, cut where they first hit an obstacle.
    """

    target: str
    lof: LoFResult
    range: RangeResult | None = None
    band: str | None = None
    mod: int | None = None
    cover: CoverResult | None = None
    threat: ThreatResult | None = None
    hex_distance: int = 0
    blocked_rays: list[BlockedRay] = field(default_factory=list)

    @property
    def rules(self) -> list[str]:
        """Sections cited for this verdict (LoF first)."""
        out = [str(self.lof.rule)]
        if self.range is not None:
            out.append(str(self.range.rule))
        if self.cover is not None and self.cover.in_cover:
            out.append(str(self.cover.rule))
        if self.threat is not None:
            out.append(str(self.threat.rule))
        return out


class _Details:
    """The deferred part of a :class:`LazyVerdict`: :meth:`get` computes the pair's full :class:`TargetVerdict` once
    (:meth:`LofAnalysisCache.verdict` on the pair's local table, under a copy of the readings of the
    :meth:`LofAnalysisCache.all_pairs` call that made it) and keeps it; the copies of a verdict share one."""

    __slots__ = ("_fill", "full")

    def __init__(self, fill):
        self._fill = fill
        self.full: TargetVerdict | None = None

    def get(self) -> TargetVerdict:
        if self.full is None:
            self.full = self._fill()
            self._fill = None  # the local table and the call's context are no longer needed
        return self.full


def _detail(name: str, doc: str):
    return property(lambda self: getattr(self._details.get(), name), doc=doc)


class LazyVerdict(TargetVerdict):
    """A verdict of :meth:`LofAnalysisCache.all_pairs` with ``lazy=True``: the Line of Fire verdict computed at
    once, everything else on first read.

    Attributes:
        target: Model id.
        lof_verdict: the LoF verdict without its explanation (``line_of_fire(..., explain=False)``: ``has_lof``,
            ``reason``, ``witness``, ``in_arc``, ``arc_degrees``, ``rule``, ``candidates_tested`` as the explained
            verdict has them; ``rays`` empty and, when blocked, ``blocked_by`` empty and a shorter ``detail``).
        hex_distance: hexagons between the two Models' hexagons.
        lof, range, band, mod, cover, threat, blocked_rays: as :class:`TargetVerdict`, computed when one of them is
            first read (all together, on the pair's local table, under the readings of the call that made this
            verdict) and kept; equal to the eager verdict's. Read-only.
        filled: whether they have been computed.

    Equality: equal to any :class:`TargetVerdict` with equal fields (reading them computes them).
    """

    def __init__(self, target: str, lof_verdict: LoFResult, hex_distance: int, details: _Details):
        self.__dict__.update(target=target, lof_verdict=lof_verdict, hex_distance=hex_distance, _details=details)

    lof = _detail("lof", "The explained LoF verdict (computed on first read).")
    range = _detail("range", "The Range Ruler measurement when there is LoF (computed on first read).")
    band = _detail("band", "The weapon's effective band (computed on first read).")
    mod = _detail("mod", "The weapon's MOD (computed on first read).")
    cover = _detail("cover", "Partial Cover (computed on first read).")
    threat = _detail("threat", "The Threat Level (computed on first read).")
    blocked_rays = _detail("blocked_rays", "The cut explanatory rays of a blocked verdict (computed on first read).")

    @property
    def filled(self) -> bool:
        return self._details.full is not None

    def complete(self) -> TargetVerdict:
        """The pair's full :class:`TargetVerdict` (computed now if not yet; the same object on every call): what
        :meth:`LofAnalysisCache.verdict` returns for the pair. The caller holds the cache's lock if it shares it."""
        return self._details.get()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, TargetVerdict):
            return NotImplemented
        return all(getattr(self, f) == getattr(other, f) for f in _VERDICT_FIELDS)

    __hash__ = None  # type: ignore[assignment]  # as the dataclass's (eq without frozen)

    def __repr__(self) -> str:
        state = "filled" if self.filled else "details not read"
        return f"LazyVerdict(target={self.target!r}, has_lof={self.lof_verdict.has_lof}, {state})"


_VERDICT_FIELDS = ("target", "lof", "range", "band", "mod", "cover", "threat", "hex_distance", "blocked_rays")


def _obstacle_geom(table: TableTop, label: str):
    kind, _, ident = label.partition(":")
    if kind == "scenery":
        return table._scenery_polys.get(ident)
    if kind == "hex":
        q, r = (int(v) for v in ident.split(","))
        return table._hole_polys.get(Hex(q, r))
    if kind == "model" and ident in table.models:
        d = table.disc(ident)
        return _disc_polygon(d) if geometry.FAST_PATH else d.polygon(32)
    return None


@functools.lru_cache(maxsize=4096)
def _disc_polygon(d: Disc):
    """``d.polygon(32)``, built once per base position (shapely geometries are immutable)."""
    return d.polygon(32)


def _cut_rays(table: TableTop, lof: LoFResult) -> list[BlockedRay]:
    out = []
    for ray in lof.rays:
        if not ray.blocked_by:
            continue
        p0, p1 = ray.segment.p0, ray.segment.p1
        line = LineString([p0, p1])
        best, best_d, best_lab = None, math.inf, ""
        found = [(lab, g) for lab in ray.blocked_by if (g := _obstacle_geom(table, lab)) is not None]
        if geometry.FAST_PATH and found:  # every intersection in one call (the same GEOS operation)
            geoms = np.empty(len(found), dtype=object)
            geoms[:] = [g for _, g in found]
            inters = shapely.intersection(line, geoms)
        else:
            inters = [line.intersection(g) for _, g in found]
        for (lab, _), inter in zip(found, inters):
            if inter.is_empty:
                continue
            pts = shapely.get_coordinates(inter)
            for x, y in pts:
                d = math.hypot(x - p0[0], y - p0[1])
                if d < best_d:
                    best, best_d, best_lab = (float(x), float(y)), d, lab
        if best is not None:
            out.append(BlockedRay(p0, best, p1, best_lab))
    return out


def _cut_rays_batch(jobs: list[tuple[TableTop, LoFResult]]) -> list[list[BlockedRay]]:
    """:func:`_cut_rays` of each ``(table, lof)`` with every (ray, obstacle) intersection of every job in one GEOS
    call (the fast path's all-pairs batch): the same intersections of the same geometries, walked in the same order,
    so the same cut rays."""
    ends, line_of, geoms, where = [], [], [], []  # where: (job, ray, label) of each intersection
    rays_of: list[list[tuple]] = []
    for j, (table, lof) in enumerate(jobs):
        rows = []
        for ray in lof.rays:
            if not ray.blocked_by:
                continue
            p0, p1 = ray.segment.p0, ray.segment.p1
            k = len(rows)
            rows.append((p0, p1))
            for lab in ray.blocked_by:
                g = _obstacle_geom(table, lab)
                if g is not None:
                    line_of.append(len(ends))
                    geoms.append(g)
                    where.append((j, k, lab))
            ends.append((p0, p1))
        rays_of.append(rows)
    best: dict[tuple[int, int], tuple] = {}
    if geoms:
        # every ray's line built in one call (the same two-point lines LineString([p0, p1]) builds one by one)
        la = shapely.linestrings(np.array(ends, dtype=float).reshape(-1, 2, 2))[np.array(line_of, dtype=np.intp)]
        ga = np.empty(len(geoms), dtype=object)
        ga[:] = geoms
        # every intersection's points in one call (each geometry's points in its own order; an empty one has none),
        # walked as Python floats (the same doubles: the distances below are the same math.hypot of the same
        # differences)
        pts, owner = shapely.get_coordinates(shapely.intersection(la, ga), return_index=True)
        cuts = np.searchsorted(owner, np.arange(len(geoms) + 1)).tolist()
        pts = pts.tolist()
        hypot, inf = math.hypot, math.inf
        for i, (j, k, lab) in enumerate(where):
            lo, hi = cuts[i], cuts[i + 1]
            if lo == hi:
                continue
            p0 = rays_of[j][k][0]
            cur = best.get((j, k), (None, inf, ""))
            for x, y in pts[lo:hi]:
                d = hypot(x - p0[0], y - p0[1])
                if d < cur[1]:
                    cur = ((x, y), d, lab)
            best[(j, k)] = cur
    out = []
    for j, rows in enumerate(rays_of):
        cut = []
        for k, (p0, p1) in enumerate(rows):
            got = best.get((j, k))
            if got is not None and got[0] is not None:
                cut.append(BlockedRay(p0, got[0], p1, got[2]))
        out.append(cut)
    return out


def _threat(table: TableTop, s: Model, t: Model, threat: ThreatLevels | None, rulings: Rulings) -> ThreatResult | None:
    if threat is not None and t.kind == "megabeast" and s.kind == "miner":
        return threat_level(table, t, s, threat, rulings)
    if threat is not None and s.kind == "megabeast" and t.kind == "miner":
        return threat_level(table, s, t, threat, rulings)
    return None


def _reference_analyse(table: TableTop, shooter: str, rulings: Rulings | None = None,
                       calibration: RangeCalibration = DEFAULT_RANGE_CALIBRATION, weapon: WeaponRanges | None = None,
                       threat: ThreatLevels | None = None) -> list[TargetVerdict]:
    """The former full analysis (every query on the whole table, nothing cached): the baseline of
    ``benchmarks/bench_lof_incremental.py`` and of the tests."""
    rulings = rulings or default_rulings()
    weapon = weapon or WeaponRanges()
    s = table.model(shooter)
    out = []
    for t in table.models.values():
        if t.id == s.id:
            continue
        lof = line_of_fire(table, s, t, rulings)
        v = TargetVerdict(t.id, lof, hex_distance=distance(table.hex_of(s), table.hex_of(t)))
        if lof.has_lof:
            v.range = measure_range(table, s, t, rulings, calibration)
            if v.range.band is not None:
                v.band, v.mod = weapon.mod(v.range.band)
            if t.kind != "megabeast":
                v.cover = partial_cover(table, s, t, rulings)
        else:
            v.blocked_rays = _cut_rays(table, lof)
        v.threat = _threat(table, s, t, threat, rulings)
        out.append(v)
    return out


# ----------------------------------------------------------------------------------------------------- local tables


class _Static:
    """The parts of a table that do not move (scenery, hexagons without tile, the board's edge), with arrays for
    fast "near this capsule" queries."""

    def __init__(self, table: TableTop):
        self.scenery_ids = [s.id for s in table.scenery]
        self.scenery_geoms = np.array([table._scenery_polys[i] for i in self.scenery_ids], dtype=object)
        self.hole_hexes = list(table._hole_polys)
        self.hole_geoms = np.array([table._hole_polys[h] for h in self.hole_hexes], dtype=object)
        for arr in (self.scenery_geoms, self.hole_geoms):
            if len(arr):
                shapely.prepare(arr)
        self.scenery_tree = shapely.STRtree(self.scenery_geoms) if len(self.scenery_geoms) else None
        self.hole_tree = shapely.STRtree(self.hole_geoms) if len(self.hole_geoms) else None
        self.off_board = table._off_board
        if self.off_board is not None:
            shapely.prepare(self.off_board)


def _static_key(table: TableTop) -> Hashable:
    tiles = None if table.tiles is None else frozenset(table.tiles.items())
    cal = table.calibration
    return (table.scenery, tiles, table.layout, tuple(sorted(cal.base_radius.items())),
            tuple(sorted(cal.height.items())))


class _Key:
    """A hashable key whose hash is computed once (a pair's key is looked up for LoF, Range and Cover)."""

    __slots__ = ("value", "_hash")

    def __init__(self, value: tuple):
        self.value = value
        self._hash = hash(value)

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Key) and self._hash == other._hash and self.value == other.value


class _Pieces:
    """Per-call facts about the Models of a table: base radius and the key of each Model as a possible obstacle
    (an obstacle's facing, declared Move, Angle of Vision and hexagon never matter to another pair)."""

    def __init__(self, table: TableTop):
        cal = self.calibration = table.calibration
        self.models = list(table.models.values())
        self.radius = {m.id: m.disc(cal).r for m in self.models}
        self.as_obstacle = {m.id: (m.id, m.x, m.y, m.silhouette, m.side, m.kind) for m in self.models}
        self._index = {m.id: i for i, m in enumerate(self.models)}
        self._near: dict[str, np.ndarray] = {}
        self._hexes: dict[str, Hex] = {}
        self.keys: dict[tuple[str, str], tuple] = {}  # (s, t) -> (others, base key), see LofAnalysisCache.verdict

    def hex_of(self, table: TableTop, m: Model) -> Hex:
        h = self._hexes.get(m.id)
        if h is None:
            h = self._hexes[m.id] = table.hex_of(m)
        return h

    def near_others(self, s: Model, t: Model) -> tuple[Model, ...]:
        """The other Models whose base comes within :data:`NEAR` of the capsule of ``s`` and ``t`` (table order):
        the distance from a base's centre to the segment between the two centres is at most
        ``max(r_s, r_t) + NEAR + r``. Computed for every target of ``s`` at once (numpy) and kept for this call."""
        rows = self._near.get(s.id)
        if rows is None:
            rows = self._near[s.id] = self._near_rows(s)
        i = self._index[t.id]
        return tuple(self.models[j] for j in np.flatnonzero(rows[i]) if j != i)

    def _near_rows(self, s: Model) -> np.ndarray:
        """``rows[i, j]``: Model j is near the capsule of ``s`` and Model i (``s`` itself excluded)."""
        return self._near_block([self._index[s.id]])[0]

    def prefetch_near(self, shooters: Iterable[Model]) -> None:
        """The rows of :meth:`near_others` of every one of ``shooters`` not computed yet, in one numpy pass (the same
        arithmetic element by element as one shooter at a time)."""
        todo = list(dict.fromkeys(m.id for m in shooters if m.id not in self._near))
        if len(todo) > 1:
            for sid, rows in zip(todo, self._near_block([self._index[i] for i in todo])):
                self._near[sid] = rows

    def _near_block(self, idx: list[int]) -> np.ndarray:
        """``rows[k, i, j]``: Model j is near the capsule of Model ``idx[k]`` and Model i (``idx[k]`` excluded): the
        distance from j's centre to the segment between the two centres is at most ``max(r_s, r_i) + NEAR + r_j``
        (each product and sum written out, so that one shooter or many give the same bits)."""
        xy = np.array([(m.x, m.y) for m in self.models], dtype=float).reshape(-1, 2)
        r = np.array([self.radius[m.id] for m in self.models], dtype=float)
        ix = np.array(idx, dtype=np.intp)
        d = xy[None, :, :] - xy[ix][:, None, :]               # s -> target i (rows) and s -> model j (columns)
        dx, dy = d[:, :, 0], d[:, :, 1]
        ll = dx * dx + dy * dy                                # |s t_i|^2
        dot = dx[:, :, None] * dx[:, None, :] + dy[:, :, None] * dy[:, None, :]   # (t_i - s) . (m_j - s)
        with np.errstate(divide="ignore", invalid="ignore"):
            u = np.where(ll[:, :, None] > 0, np.clip(dot / ll[:, :, None], 0.0, 1.0), 0.0)
        fx = dx[:, None, :] - u * dx[:, :, None]
        fy = dy[:, None, :] - u * dy[:, :, None]
        reach = np.maximum(r[ix][:, None], r[None, :])[:, :, None] + NEAR + r[None, None, :]
        rows = np.hypot(fx, fy) <= reach
        rows[np.arange(len(ix)), :, ix] = False
        return rows

    def looker_key(self, m: Model, other: Model, chosen: Mapping[str, str]) -> tuple:
        """The key of ``m`` drawing LoF to ``other``: every field, but its facing only as far as it matters. The
        facing decides whether ``other`` is in ``m``'s arc, restricts the target to the part in the arc under
        ``lof_arc_part = seen_part_in_arc`` and, for a Miner, restricts the line's start to its front half under
        ``lof_shooter_arc = front_half``; with a 360° arc it does not matter at all. The key also says whether the
        shooter-side clip applies: ``lof_shooter_arc`` is consulted only when chosen (its default restricts
        nothing), so the readings an entry consulted cannot tell a front-half search from an unclipped one with the
        same facing (both under ``seen_part_in_arc``)."""
        arc = m.arc_degrees()
        front = arc < 360.0 and m.kind == "miner" and chosen.get("lof_shooter_arc") == "front_half"
        if arc >= 360.0:
            facing: object = None
        elif chosen.get("lof_arc_part") == "seen_part_in_arc" or front:
            facing = m.facing
        else:
            facing = disc_in_arc(m.center, m.facing, arc, Disc(other.x, other.y, self.radius[other.id]))
        return (m.id, m.x, m.y, m.silhouette, m.side, m.kind, m.hex, m.declared_move, m.angle_of_vision, facing, front)


def _capsule_axis(table: TableTop, s: Model, t: Model):
    """The axis of the capsule of ``s`` and ``t`` (the segment between the centres, or the centre when they
    coincide) and its reach ``max(r_a, r_b) + NEAR``, the same for ``s -> t`` and ``t -> s``."""
    a, b = sorted((s, t), key=lambda m: m.id)  # the same table for s -> t and t -> s
    a, b = table.disc(a), table.disc(b)  # the table's kept discs (built once per Model and calibration)
    axis = LineString([a.center, b.center]) if a.center != b.center else shapely.Point(a.center)
    return axis, max(a.r, b.r) + NEAR


def _near_static(static: _Static, axes: np.ndarray, reach: np.ndarray) -> list[tuple[set, set, bool]]:
    """For each capsule (``axes[i]``, ``reach[i]``, see :func:`_capsule_axis`): the ids of the scenery pieces, the
    hexagons without tile and whether the board's edge lie within its reach. The predicate of :func:`local_table`
    (``shapely.dwithin``, element by element), asked of every capsule at once: one STRtree query per kind of piece,
    which tests ``dwithin`` only where the envelopes come within reach (the others cannot be within it)."""
    out = [(set(), set(), False) for _ in range(len(axes))]
    for tree, names, slot in ((static.scenery_tree, static.scenery_ids, 0), (static.hole_tree, static.hole_hexes, 1)):
        if tree is None or not len(axes):
            continue
        qi, gi = tree.query(axes, predicate="dwithin", distance=reach)
        for i, g in zip(qi.tolist(), gi.tolist()):
            out[i][slot].add(names[g])
    if static.off_board is not None and len(axes):
        hit = shapely.dwithin(static.off_board, axes, reach)
        out = [(a, b, bool(h)) for (a, b, _), h in zip(out, hit)]
    return out


def local_table(table: TableTop, s: Model, t: Model, others: Iterable[Model] | None = None,
                static: _Static | None = None, near: tuple[set, set, bool] | None = None) -> TableTop:
    """A copy of ``table`` holding only what can matter to ``s -> t`` and ``t -> s``: the two Models, the other
    Models near their capsule (``others``; default: found on ``table``), and the scenery, hexagons without tile and
    board edge within :data:`NEAR` of the capsule (same order as on ``table``). Shares geometry with ``table`` (no
    copy, no validation). ``near``: those static pieces, already found (:func:`_near_static`)."""
    static = static or _Static(table)
    others = _Pieces(table).near_others(s, t) if others is None else tuple(others)
    keep_ids = {m.id for m in others} | {s.id, t.id}
    table.polygon_index()  # built before the copy, so every local table shares it (and its cached unions)
    loc = copy.copy(table)
    loc.models = {k: m for k, m in table.models.items() if k in keep_ids}
    if near is None:
        # the pieces within max(r_a, r_b) + NEAR of the segment between the centres: the capsule, exactly (no
        # buffer)
        axis, reach = _capsule_axis(table, s, t)
        near_s = (shapely.dwithin(static.scenery_geoms, axis, reach) if len(static.scenery_geoms)
                  else np.zeros(0, dtype=bool))
        keep_s = {sid for sid, ok in zip(static.scenery_ids, near_s) if ok}
        near_h = (shapely.dwithin(static.hole_geoms, axis, reach) if len(static.hole_geoms)
                  else np.zeros(0, dtype=bool))
        keep_h = {h for h, ok in zip(static.hole_hexes, near_h) if ok}
        edge = static.off_board is not None and bool(shapely.dwithin(static.off_board, axis, reach))
    else:
        keep_s, keep_h, edge = near
    loc.scenery = tuple(sc for sc in table.scenery if sc.id in keep_s)
    loc._scenery_polys = {k: p for k, p in table._scenery_polys.items() if k in keep_s}
    loc._hole_polys = {h: p for h, p in table._hole_polys.items() if h in keep_h}
    loc._off_board = static.off_board if edge else None
    loc._memo = {}  # the pair's LoF, Range and Cover ask the same LoF questions: answer each once
    return loc


# ----------------------------------------------------------------------------------------------------- the cache


class LofAnalysisCache:
    """Cached verdicts keyed on the table state of each pair (see the module docstring for what the key holds).

    One cache may serve any number of tables (the static part of a table is part of the key). Results are shared:
    callers must not mutate the :class:`LoFResult` / :class:`RangeResult` / ... objects they get.

    Args:
        max_entries: least recently used entries beyond this are dropped.
        by_dependency: :meth:`all_pairs` reuses, from its previous call, the pairs a move cannot change (see
            :func:`_dirty_pairs`) without building their keys; ``False`` builds every pair's key and looks it up
            (the former incremental path: the benchmarks' baseline). The same answers either way.

    Attributes:
        computed, reused: counters of pair components computed and taken from the cache (for tests and benchmarks).
    """

    def __init__(self, max_entries: int = 50_000, by_dependency: bool = True):
        self.max_entries = max_entries
        self.by_dependency = by_dependency
        self._entries: OrderedDict[Hashable, list[tuple[tuple[tuple[str, str], ...], object]]] = OrderedDict()
        self._statics: dict[Hashable, tuple[int, _Static]] = {}
        self._last: _LastCall | None = None
        self._locals: OrderedDict[tuple, tuple[tuple[str, ...], tuple[Model, ...], TableTop]] = OrderedDict()
        self.computed = 0
        self.reused = 0

    def clear(self) -> None:
        self._entries.clear()
        self._statics.clear()
        self._locals.clear()
        self._last = None

    def __len__(self) -> int:
        return len(self._entries)

    def _kept_local(self, token: int, lkey: tuple, table: TableTop) -> TableTop | None:
        """The local table an earlier call built for ``lkey`` (the pair and the Models near it) on the same static
        table (``token``), when ``table`` has the same Models in the same order and the very same (or equal) ones
        among them (``None`` otherwise). Its memo, searches, explanations and Range Ruler searches come with it: a
        flipped ruling reuses every answer that did not read it (the memo keeps each answer with the readings it
        consulted) and every search whose obstacles and grazing are unchanged."""
        got = self._locals.get((token, lkey))
        if got is None:
            return None
        order, models, lt = got
        now = table.models
        if order != tuple(now) or not all((m2 := now.get(m.id)) is m or m2 == m for m in models):
            return None
        self._locals.move_to_end((token, lkey))
        return lt

    def _keep_local(self, token: int, lkey: tuple, table: TableTop, lt: TableTop) -> TableTop:
        """Keep ``lt`` for :meth:`_kept_local` (the least recently used dropped beyond :data:`MAX_LOCAL_TABLES`)."""
        key = (token, lkey)
        self._locals[key] = (tuple(table.models), tuple(lt.models.values()), lt)
        self._locals.move_to_end(key)
        if len(self._locals) > MAX_LOCAL_TABLES:
            self._locals.popitem(last=False)
        return lt

    def _static(self, table: TableTop) -> tuple[int, _Static]:
        key = _static_key(table)
        got = self._statics.get(key)
        if got is None:
            got = self._statics[key] = (len(self._statics), _Static(table))
        return got

    def _get(self, key: Hashable, chosen: Mapping[str, str], compute, rulings: Rulings):
        """The cached value of ``key`` computed under readings agreeing with ``chosen`` on every reading it
        consulted; else ``compute(fresh_rulings)``, stored with the readings it consulted. The caller's ``rulings``
        records the readings consulted either way."""
        variants = self._entries.get(key)
        if variants is not None:
            self._entries.move_to_end(key)
            for consulted, value in variants:
                if all(chosen.get(k) == v for k, v in consulted):
                    self.reused += 1
                    rulings.consulted.update(consulted)
                    return value
        fresh = rulings.copy()
        value = compute(fresh)
        consulted = tuple(fresh.consulted.items())
        rulings.consulted.update(consulted)
        self.computed += 1
        if variants is None:
            variants = self._entries[key] = []
        variants.append((consulted, value))
        if len(self._entries) > self.max_entries:
            self._entries.popitem(last=False)
        return value

    def verdict(self, table: TableTop, s: Model, t: Model, rulings: Rulings, calibration: RangeCalibration,
                weapon: WeaponRanges, threat: ThreatLevels | None, *, _ctx=None, _late=None) -> TargetVerdict:
        """The verdict of ``s -> t`` on ``table`` (computed on the pair's local table, or reused).

        ``_late`` (:meth:`all_pairs` on the fast path): ``(jobs, verdicts)`` lists; the cut rays of a blocked verdict
        computed here are left empty and queued in ``jobs`` (local table, LoF, the list to fill), and every blocked
        verdict in ``verdicts``, for :meth:`_finish_cut_rays` to fill in one batch."""
        (token, static), pieces, chosen, shared = _ctx or self._context(table, rulings)
        others, base = pieces.keys.get((s.id, t.id)) or self._pair_key(token, pieces, chosen, s, t)
        loc: list[TableTop] = []

        def local() -> TableTop:
            # one local table (and its LoF memo) per unordered pair and call: t -> s asks the LoF questions that
            # s -> t asked for reciprocity, and the other way round
            if not loc:
                key = (min(s.id, t.id), max(s.id, t.id), tuple(m.id for m in others))
                if key not in shared:
                    shared[key] = self._kept_local(token, key, table) or self._keep_local(
                        token, key, table, local_table(table, s, t, others, static))
                loc.append(shared[key])
            return loc[0]

        def compute_lof(r: Rulings):
            lt = local()
            lof = line_of_fire(lt, s, t, r)
            if lof.has_lof:
                return lof, []
            if _late is not None:  # filled by _finish_cut_rays, with the other verdicts' cut rays
                cut: list[BlockedRay] = []
                _late[0].append((lt, lof, cut))
                return lof, cut
            return lof, _cut_rays(lt, lof)

        lof, rays = self._get(("lof",) + base, chosen, compute_lof, rulings)
        v = TargetVerdict(t.id, lof, hex_distance=distance(pieces.hex_of(table, s), pieces.hex_of(table, t)),
                          blocked_rays=list(rays))
        if _late is not None and not lof.has_lof:
            _late[1].append((v, rays))
        if lof.has_lof:
            v.range = self._get(("range", calibration) + base, chosen,
                                lambda r: measure_range(local(), s, t, r, calibration), rulings)
            if v.range.band is not None:
                v.band, v.mod = weapon.mod(v.range.band)
            if t.kind != "megabeast":
                v.cover = self._get(("cover",) + base, chosen, lambda r: partial_cover(local(), s, t, r), rulings)
        if threat is not None and "megabeast" in (s.kind, t.kind):
            v.threat = self._get(("threat", token, s, t, threat), chosen,
                                 lambda r: _threat(table, s, t, threat, r), rulings)
        return v

    def _context(self, table: TableTop, rulings: Rulings):
        return self._static(table), _Pieces(table), rulings.as_dict(), {}

    def analyse(self, table: TableTop, shooter: str, rulings: Rulings | None = None,
                calibration: RangeCalibration = DEFAULT_RANGE_CALIBRATION, weapon: WeaponRanges | None = None,
                threat: ThreatLevels | None = None, *, lazy: bool = False) -> list[TargetVerdict]:
        """As :func:`analyse`, reusing every pair whose state is unchanged.

        ``lazy=True``: :class:`LazyVerdict` s, as :meth:`all_pairs` makes them (only each target's Line of Fire
        verdict computed now; the rest, equal to the eager verdict's, on first read under a copy of ``rulings``).
        The Line of Fire page draws these first and reads the rest on its worker (``LofExplorer.update``). When the
        whole verdict of every target is cached already (each pair's explained LoF verdict: a prefetch, another
        session), the eager verdicts instead (plain :class:`TargetVerdict` s: nothing is left to read later)."""
        rulings = rulings or default_rulings()
        weapon = weapon or WeaponRanges()
        s = table.model(shooter)
        ctx = self._context(table, rulings)
        if lazy and not all(self._cached(("lof",) + (ctx[1].keys.get((s.id, t.id)) or self._pair_key(
                ctx[0][0], ctx[1], ctx[2], s, t))[1], ctx[2]) for t in table.models.values() if t.id != s.id):
            snap = rulings.copy()
            return [self._lazy_verdict(table, s, t, rulings, snap, calibration, weapon, threat, ctx)
                    for t in table.models.values() if t.id != s.id]
        return [self.verdict(table, s, t, rulings, calibration, weapon, threat, _ctx=ctx)
                for t in table.models.values() if t.id != s.id]

    def all_pairs(self, table: TableTop, rulings: Rulings | None = None,
                  calibration: RangeCalibration = DEFAULT_RANGE_CALIBRATION, weapon: WeaponRanges | None = None,
                  threat: ThreatLevels | None = None, *, lazy: bool = False
                  ) -> dict[tuple[str, str], TargetVerdict]:
        """``{(shooter, target): verdict}`` for every ordered pair of Models on ``table``.

        ``lazy=True``: each verdict is a :class:`LazyVerdict`: only the Line of Fire verdict of each pair is computed
        now (``line_of_fire(..., explain=False)``, the batched searches); its explanation, cut rays, Range Ruler,
        Partial Cover and Threat Level are computed when first read, one pair at a time, and equal the eager
        verdict's. ``rulings.consulted`` then records the readings the LoF verdicts consulted, not those the
        deferred parts will read. The page reads those parts for one shooter's targets only; the benchmarks time
        both modes (``benchmarks/bench_lof_fast.py``)."""
        rulings = rulings or default_rulings()
        weapon = weapon or WeaponRanges()
        ctx = self._context(table, rulings)
        ms = list(table.models.values())
        pairs = [(s, t) for s in ms for t in ms if s.id != t.id]
        if not geometry.FAST_PATH:
            self._last = None
            if lazy:
                snap = rulings.copy()
                return {(s.id, t.id): self._lazy_verdict(table, s, t, rulings, snap, calibration, weapon, threat, ctx)
                        for s, t in pairs}
            return {(s.id, t.id): self.verdict(table, s, t, rulings, calibration, weapon, threat, _ctx=ctx)
                    for s, t in pairs}
        setting = (ctx[0][0], calibration, weapon, threat, lazy)
        last = self._last
        kept: dict[tuple[str, str], tuple[TargetVerdict, tuple]] = {}
        if self.by_dependency and last is not None and last.setting == setting and last.ids == tuple(m.id for m in ms):
            dirty = _dirty_pairs(ms, last.models, ctx[1])
            changed = {k for k, v in ctx[2].items() if last.chosen.get(k) != v}
            if changed and lazy:  # a deferred part may read any reading: every pair is made again (its LoF
                dirty[:] = True    # verdict reused from the cache when the readings it consulted are unchanged)
            elif changed:  # flipped rulings: the pairs whose verdicts read one of them are decided again
                dirty |= _reading_dirty(ms, last, changed)
            rows, lp = dirty.tolist(), last.pairs
            kept = {(s.id, t.id): lp[(s.id, t.id)] for s, row in zip(ms, rows) for t, d in zip(ms, row)
                    if not d and s is not t}
            pairs = [(s, t) for s, t in pairs if (s.id, t.id) not in kept]
        self._batch_searches(table, pairs, rulings, ctx, lazy=lazy)
        done: dict[tuple[str, str], tuple[TargetVerdict, tuple]] = dict(kept)
        late: tuple[list, list] = ([], [])
        snap = rulings.copy() if lazy else None
        try:
            for s, t in pairs:
                r = rulings.copy()
                if lazy:
                    v = self._lazy_verdict(table, s, t, r, snap, calibration, weapon, threat, ctx)
                else:
                    v = self.verdict(table, s, t, r, calibration, weapon, threat, _ctx=ctx, _late=late)
                done[(s.id, t.id)] = (v, tuple(r.consulted.items()))
            self._finish_cut_rays(late)
        except BaseException:
            self.clear()  # no cached verdict may keep cut rays left to fill
            raise
        self.reused += len(kept)
        self._last = _LastCall(setting, tuple(m.id for m in ms), ms, done, ctx[2])
        out = {}
        update, new = rulings.consulted.update, object.__new__
        seen = None
        for s in ms:
            for t in ms:
                if s.id != t.id:
                    v, consulted = done[(s.id, t.id)]
                    if consulted is not seen:  # in pair order, as the verdicts consulted them
                        update(consulted)
                        seen = consulted
                    if lazy:  # read-only: the caller gets the kept verdict itself
                        out[(s.id, t.id)] = v
                        continue
                    # the caller's own verdict (the kept one stays as computed): copy.copy's shallow copy, made
                    # directly (a plain dataclass: its fields are its __dict__)
                    out[(s.id, t.id)] = w = new(TargetVerdict)
                    w.__dict__.update(v.__dict__)
                    w.blocked_rays = list(v.blocked_rays)
        return out

    def _lazy_verdict(self, table: TableTop, s: Model, t: Model, rulings: Rulings, snap: Rulings,
                      calibration: RangeCalibration, weapon: WeaponRanges, threat: ThreatLevels | None,
                      ctx) -> LazyVerdict:
        """The :class:`LazyVerdict` of ``s -> t``: the LoF verdict without explanation (cached under the pair's key
        like the others; ``rulings`` records what it consulted) and, deferred, :meth:`verdict` under a copy of
        ``snap`` (the call's readings) on the same context."""
        (token, static), pieces, chosen, shared = ctx
        others, base = pieces.keys.get((s.id, t.id)) or self._pair_key(token, pieces, chosen, s, t)

        def compute(r: Rulings) -> LoFResult:
            key = (min(s.id, t.id), max(s.id, t.id), tuple(m.id for m in others))
            lt = shared.get(key)
            if lt is None:
                lt = shared[key] = self._kept_local(token, key, table) or self._keep_local(
                    token, key, table, local_table(table, s, t, others, static))
            return line_of_fire(lt, s, t, r, explain=False)

        lofv = self._get(("lof_verdict",) + base, chosen, compute, rulings)
        details = _Details(lambda: self.verdict(table, s, t, snap.copy(), calibration, weapon, threat, _ctx=ctx))
        return LazyVerdict(t.id, lofv, distance(pieces.hex_of(table, s), pieces.hex_of(table, t)), details)

    @staticmethod
    def _finish_cut_rays(late: tuple[list, list]) -> None:
        """Fill the cut rays :meth:`verdict` left for later (``late``), all in one :func:`_cut_rays_batch`."""
        jobs, verdicts = late
        if jobs:
            for (_, _, cut), got in zip(jobs, _cut_rays_batch([(lt, lof) for lt, lof, _ in jobs])):
                cut.extend(got)
        for v, rays in verdicts:
            v.blocked_rays = list(rays)

    @staticmethod
    def _pair_key(token, pieces: _Pieces, chosen: Mapping[str, str], s: Model, t: Model) -> tuple:
        """``(others, (key,))``: the Models near the pair and the pair's key (kept in ``pieces.keys``)."""
        others = pieces.near_others(s, t)
        got = pieces.keys[(s.id, t.id)] = (others, (_Key((token, pieces.looker_key(s, t, chosen),
                                                         pieces.looker_key(t, s, chosen),
                                                         tuple(pieces.as_obstacle[m.id] for m in others))),))
        return got

    def _cached(self, key: Hashable, chosen: Mapping[str, str]) -> bool:
        """Whether :meth:`_get` would reuse a value for ``key`` (no side effect)."""
        variants = self._entries.get(key)
        return variants is not None and any(all(chosen.get(k) == v for k, v in consulted)
                                            for consulted, _ in variants)

    def _batch_searches(self, table: TableTop, pairs: list[tuple[Model, Model]], rulings: Rulings, ctx, *,
                        lazy: bool = False) -> None:
        """The fast path: before the verdicts, the clear-segment searches of every pair whose LoF is not cached (both
        ways, as LoF and its reciprocity check may ask) run together on the pairs' local tables
        (:func:`.geometry.find_clear_segments`); each local table keeps its answers for :func:`.lof.clear_segment`,
        which takes them only for the very same obstacles. Only searches without clip from the shooter's side, to a
        target in the arc of a shooter not in Silhouette Contact with an enemy Miner, are batched (the others are
        searched as before). The same batch then computes what the verdicts of those searches will ask: the
        explanations of every verdict :func:`.lof.line_of_fire` will explain (:func:`.lof._explain_batch`) and, under
        ``range_measurement = along_lof``, the Range Ruler of every pair found clear
        (:func:`.geometry.shortest_clear_segments`; :data:`_BATCH_RANGES`), each kept on the pair's local table
        for the same obstacles only (``lazy``: the searches only, for the LoF verdicts of
        :meth:`_lazy_verdict`). Changes no answer."""
        (token, static), pieces, chosen, shared = ctx
        r0 = rulings.copy()
        tb = r0.reading("lof_grazing") == "touching_blocks"
        items, dests, queued = [], [], set()
        todo, new_lkeys = [], {}
        pieces.prefetch_near(s for s, _ in pairs)
        for s, t in pairs:
            others, base = self._pair_key(token, pieces, chosen, s, t)
            if self._cached(("lof_verdict" if lazy else "lof",) + base, chosen):
                continue
            lkey = (min(s.id, t.id), max(s.id, t.id), tuple(m.id for m in others))
            if lkey not in shared and lkey not in new_lkeys:
                kept = self._kept_local(token, lkey, table)
                if kept is not None:
                    shared[lkey] = kept
                else:
                    new_lkeys[lkey] = (s, t, others)
            todo.append((s, t, lkey))
        if new_lkeys:  # the static pieces near every new local table's capsule, in one query per kind of piece
            caps = [_capsule_axis(table, s, t) for s, t, _ in new_lkeys.values()]
            axes = np.empty(len(caps), dtype=object)
            axes[:] = [c[0] for c in caps]
            nears = _near_static(static, axes, np.array([c[1] for c in caps], dtype=float))
            for (lkey, (s, t, others)), near in zip(new_lkeys.items(), nears):
                shared[lkey] = self._keep_local(token, lkey, table,
                                                local_table(table, s, t, others, static, near=near))
        clipped = []  # (local table, shooter, target, obstacles) of flat searches the arc readings clip
        for s, t, lkey in todo:
            lt = shared[lkey]
            for x, y in ((s, t), (t, s)):
                if (id(lt), x.id, y.id) in queued:
                    continue
                queued.add((id(lt), x.id, y.id))
                if x.kind == "miner" and lt.enemy_miners_in_contact(x):
                    continue
                if not disc_in_arc(x.center, x.facing, x.arc_degrees(), lt.disc(y)):
                    continue
                obs = lt.obstacles(x, y, r0)[0]
                if obs._template is None:
                    continue
                if _clipped(x, r0):
                    if not lt.elevated_pair(x, y):  # (an elevated pair's search is the 3D one)
                        clipped.append((lt, x, y, obs))
                    continue
                done = lt.__dict__.get("_prebatched", {}).get((x.id, y.id, tb, id(obs._template)))
                if done is not None and done[0] is obs._template:
                    continue  # searched by an earlier call on this very local table (a ruling flipped since)
                items.append((lt.disc(x), lt.disc(y), obs))
                dests.append((lt, x.id, y.id, obs._template))
        if clipped:
            self._batch_clipped_searches(clipped, r0, tb)
        if clipped and not lazy and _BATCH_RANGES and r0.reading("range_measurement") == "along_lof":
            self._batch_clipped_ranges(clipped, r0, tb)
        if not items:
            return
        expl, where = [], []
        setups: list = []
        found = geometry.find_clear_segments(items, touching_blocks=tb, keep=setups)
        for (lt, xid, yid, tmpl), (ax, ay, obs), res in zip(dests, items, found):
            lt.__dict__.setdefault("_prebatched", {})[(xid, yid, tb, id(tmpl))] = (tmpl, res)
        if lazy:
            return
        for (lt, xid, yid, tmpl), (ax, ay, obs), res in zip(dests, items, found):
            if res.witness is None or not res.contact:  # line_of_fire will explain this verdict
                expl.append((ax, ay, obs, tb, res.witness is None))
                where.append((lt, xid, yid, tmpl))
        for (lt, xid, yid, tmpl), got in zip(where, _explain_batch(expl)):
            if got is not None:
                lt.__dict__.setdefault("_preexplained", {})[(xid, yid, tb, id(tmpl))] = (tmpl, *got)
        # the Range Ruler of every pair the search found clear (measure_range takes it for the same obstacles)
        if _BATCH_RANGES and r0.reading("range_measurement") == "along_lof":
            rng = [(lt, xid, yid, tmpl, ax, ay, obs, setup)
                   for (lt, xid, yid, tmpl), (ax, ay, obs), res, setup in zip(dests, items, found, setups)
                   if res.witness is not None and not res.contact
                   and not lt.elevated_pair(lt.models[xid], lt.models[yid])]
            # the same bases, obstacles and grazing as the LoF search: its set-up (obstacles, features) serves
            segs = geometry.shortest_clear_segments([(ax, ay, obs) for *_, ax, ay, obs, _ in rng], touching_blocks=tb,
                                                    searches=[r[-1] for r in rng])
            for (lt, xid, yid, tmpl, *_), seg in zip(rng, segs):
                lt.__dict__.setdefault("_preranged", {})[(xid, yid, tb, id(tmpl))] = (tmpl, seg)

    @staticmethod
    def _batch_clipped_searches(clipped: list, r0: Rulings, tb: bool) -> None:
        """The LoF searches the arc readings clip (:func:`.lof.clipped_searches`: every half-plane alternative of
        the arc, from the target's side under ``lof_shooter_arc = front_half``) of every pair ``(local table,
        shooter, target, obstacles)`` of ``clipped`` (flat pairs with the target in the arc), run as one batch
        (:func:`.geometry.find_clear_segments` with clips; each answer the one-search answer) and each pair's answer
        combined over its alternatives as :func:`.lof.clear_segment` combines them, kept on the local table for
        it (the same obstacles and clipping only). Changes no answer."""
        items, clips, dests = [], [], []
        arc_part = r0.reading("lof_arc_part") == "seen_part_in_arc"
        front = r0.chosen("lof_shooter_arc") == "front_half"
        for lt, x, y, obs in clipped:
            mode, runs = clipped_searches(x, lt.disc(x), lt.disc(y), arc_part, x.kind == "miner" and front)
            key = (x.id, y.id, tb, id(obs._template), mode)
            done = lt.__dict__.get("_prebatched", {}).get(key)
            if done is not None and done[0] is obs._template:
                continue  # searched by an earlier call on this very local table
            dests.append((lt, key, obs._template, [turned for *_, turned in runs]))
            items += [(sx, sy, obs) for sx, sy, _, _ in runs]
            clips += [c for _, _, c, _ in runs]
        if not items:
            return
        found = geometry.find_clear_segments(items, touching_blocks=tb, clips=clips)
        k = 0
        for lt, key, tmpl, turns in dests:
            rs = found[k:k + len(turns)]
            k += len(turns)
            for r, turned in zip(rs, turns):
                if turned and r.witness is not None:
                    r.witness = Segment(r.witness.p1, r.witness.p0)
            lt.__dict__.setdefault("_prebatched", {})[key] = (tmpl, _combine(rs))

    @staticmethod
    def _batch_clipped_ranges(clipped: list, r0: Rulings, tb: bool) -> None:
        """The Range Ruler searches of the pairs whose lines the arc readings clip (``lof_arc_part =
        seen_part_in_arc``, ``lof_shooter_arc = front_half``; :func:`.ranges.arc_searches`), for every pair
        ``(local table, shooter, target, obstacles)`` of ``clipped`` with a clear line between bases not in contact
        (its LoF search, :func:`.lof.clear_segment`, is kept on the local table for :func:`.lof.line_of_fire` to
        reuse), run as one batch (:func:`.geometry.shortest_clear_segments`: each answer the one-search answer, bit for bit) and
        kept on the local table for :func:`.ranges.measure_range`, for the same obstacles and arc clipping only.
        Changes no answer."""
        runs, dests = [], []
        for lt, x, y, obs in clipped:
            a, b = lt.disc(x), lt.disc(y)
            if a.distance_to(b) <= 1e-9:
                continue
            searches = arc_searches(x, a, b, r0)
            if searches is None:
                continue
            key = (x.id, y.id, tb, id(obs._template), searches[0])
            done = lt.__dict__.get("_preranged", {}).get(key)
            if done is not None and done[0] is obs._template:
                continue  # measured by an earlier call on this very local table
            res = clear_segment(lt, x, y, r0)[0]
            if res.witness is None or res.contact:  # no Range along a LoF to measure, or measured edge to edge
                continue
            dests.append((lt, key, obs._template, len(searches[1])))
            runs += [(sx, sy, obs, c, turned) for sx, sy, c, turned in searches[1]]
        if not runs:
            return
        segs = geometry.shortest_clear_segments([(sx, sy, obs) for sx, sy, obs, _, _ in runs], touching_blocks=tb,
                                                clips=[c for *_, c, _ in runs])
        segs = [Segment(w.p1, w.p0) if turned and w is not None else w for w, (*_, turned) in zip(segs, runs)]
        k = 0
        for lt, key, tmpl, n in dests:
            lt.__dict__.setdefault("_preranged", {})[key] = (tmpl, shortest_of(segs[k:k + n]))
            k += n


@dataclass
class _LastCall:
    """What :meth:`LofAnalysisCache.all_pairs` answered last: the setting (static table, readings, Range Ruler,
    weapon, Threat Levels), the Models in table order and each ordered pair's verdict with the readings it
    consulted."""

    setting: tuple
    ids: tuple[str, ...]
    models: list[Model]
    pairs: dict[tuple[str, str], tuple[TargetVerdict, tuple]]
    chosen: dict[str, str]


def _reading_dirty(ms: list[Model], last: _LastCall, changed: set[str]) -> np.ndarray:
    """``dirty[i, j]``: the verdict of ``ms[i] -> ms[j]`` (from ``last``) consulted one of the ``changed`` readings,
    so a ruling flip must decide it again; the others keep their verdicts without a key built. One reading is looked
    at without being consulted when at its default: ``lof_shooter_arc`` (:func:`.lof.clear_segment` restricts a
    Miner's line to its front half only under ``front_half``), so when it changes every pair with a Miner whose arc
    is under 360° (either way: reciprocity asks the target's LoF too) is decided again."""
    n = len(ms)
    dirty = np.zeros((n, n), dtype=bool)
    for i, s in enumerate(ms):
        for j, t in enumerate(ms):
            if i != j and any(k in changed for k, _ in last.pairs[(s.id, t.id)][1]):
                dirty[i, j] = True
    if "lof_shooter_arc" in changed:
        arc = np.array([m.kind == "miner" and m.arc_degrees() < 360.0 for m in ms], dtype=bool)
        dirty |= arc[:, None] | arc[None, :]
    return dirty


MAX_LOCAL_TABLES = 4096
"""Local tables :class:`LofAnalysisCache` keeps from one call to the next, least recently used dropped first (about
twenty times the 190 unordered pairs of 20 Models; the stale ones of moved Models are dropped as they age)."""

_BATCH_RANGES = True
"""Whether :meth:`LofAnalysisCache._batch_searches` also measures the Range Ruler of every pair its searches found
clear, all together (:func:`.geometry.shortest_clear_segments`); ``False`` leaves each to :func:`.ranges.measure_range`
(the same answers; a switch for benchmarks and tests)."""

DEPENDENCY_MARGIN = 1e-6
"""Board units added to :data:`NEAR` by :func:`_dirty_pairs` (a conservative margin over the rounding of the
nearness test of :meth:`_Pieces.near_others`)."""


def _dirty_pairs(ms: list[Model], before: list[Model], pieces: _Pieces) -> np.ndarray:
    """``dirty[i, j]``: the ordered pair ``ms[i] -> ms[j]`` may have another key than in the previous call, where the
    Models were ``before`` (same ids, same order). A pair is clean when neither of its Models changed and no Model
    that changed comes within ``NEAR + DEPENDENCY_MARGIN`` of the pair's capsule, at its old place or at its new
    one: then the pair's local table holds the same Models, so its key and verdicts are the previous ones
    (scenery, readings and calibrations are checked equal by the caller). One numpy pass per changed Model and
    place (pair corridors against the base)."""
    n = len(ms)
    changed = [k for k, (m, old) in enumerate(zip(ms, before)) if m is not old and m != old]
    dirty = np.zeros((n, n), dtype=bool)
    if not changed:
        return dirty
    xy = np.array([(m.x, m.y) for m in ms], dtype=float).reshape(-1, 2)
    r = np.array([pieces.radius[m.id] for m in ms], dtype=float)
    reach = np.maximum(r[:, None], r[None, :]) + NEAR + DEPENDENCY_MARGIN
    d = xy[None, :, :] - xy[:, None, :]                      # i -> j
    ll = (d * d).sum(axis=2)
    cal = pieces.calibration
    for k in changed:
        dirty[k, :] = dirty[:, k] = True
        for m in (before[k], ms[k]):
            p = np.array([m.x, m.y], dtype=float) - xy             # i -> the base's centre
            dot = (d * p[:, None, :]).sum(axis=2)
            with np.errstate(divide="ignore", invalid="ignore"):
                u = np.where(ll > 0, np.clip(dot / ll, 0.0, 1.0), 0.0)
            fx = p[:, None, 0] - u * d[:, :, 0]
            fy = p[:, None, 1] - u * d[:, :, 1]
            dirty |= np.hypot(fx, fy) <= reach + m.disc(cal).r
    return dirty


def analyse(table: TableTop, shooter: str, rulings: Rulings | None = None,
            calibration: RangeCalibration = DEFAULT_RANGE_CALIBRATION, weapon: WeaponRanges | None = None,
            threat: ThreatLevels | None = None, *, cache: LofAnalysisCache | None = None) -> list[TargetVerdict]:
    """The verdict for every other Model on ``table`` as a target of ``shooter`` (in the table's Model order).

    Each pair is computed on its local table (:func:`local_table`); pass a :class:`LofAnalysisCache` as ``cache`` to
    reuse the pairs whose state did not change since an earlier call (a fresh cache is used otherwise).
    ``rulings.consulted`` records every reading the verdicts depend on.

    Raises:
        ScenarioError: unknown shooter; a MegaBeast facing that does not point at a corner of its hexagon.
    """
    return (cache or LofAnalysisCache()).analyse(table, shooter, rulings, calibration, weapon, threat)
