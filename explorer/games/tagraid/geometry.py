"""Exact continuous geometry for Line of Fire between round bases (no sampling).

Everything here is plain geometry in board units (a hex of size 1 measures 1 from its centre to a corner); the
rules (which obstacles count, arcs, exceptions) live in :mod:`explorer.games.tagraid.lof`.

The question answered by :func:`find_clear_segment` is: given two discs ``A`` (shooter) and ``B`` (target) and a
set of obstacles (polygons and discs), is there a segment from a point of ``A`` to a point of ``B`` that does not
meet any obstacle? It is answered exactly with the *candidate-line* method:

* For a line ``L`` that meets both discs, every segment from ``A`` to ``B`` on ``L`` contains the *gap segment*
  (from where ``L`` leaves ``A`` to where it enters ``B``), so it is enough to test gap segments.
* The set of valid lines is bounded by lines that touch one *feature* (a disc: the two bases, a blocking base;
  a point: an obstacle vertex, a point where an obstacle touches a base). If a valid line exists, one exists that
  touches two features, so testing the common tangents of every pair of features (up to 4 lines per pair: lines
  through two points, tangents from a point to a disc, outer and inner tangents of two discs) is complete.
* Only features inside the region swept by the gap segments (within the capsule around the centre line) matter,
  which keeps the candidate set small; the candidates are tested together with vectorised shapely predicates.

Grazing contact is a parameter: ``touching_blocks=False`` lets a segment touch an obstacle (run along a wall, pass
through a corner, be tangent to a base) as long as it does not enter its interior; candidate lines are then the
extreme lines themselves. ``touching_blocks=True`` treats obstacles as closed sets: a segment must keep a positive
distance from them; the extreme lines are then taken around obstacles grown by ``2·tol`` (vertices become discs of
radius ``2·tol``), and a segment blocks when it comes within ``tol``. Gaps narrower than ``tol`` (default 1e-9 board
units) are the only thing this numeric tolerance can decide; they are far below anything a table can show.
"""

from __future__ import annotations

import functools
import math
import struct
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import shapely
import shapely.ops
from shapely.geometry import LineString, Point, Polygon
from shapely.geometry.base import BaseGeometry

TOL = 1e-9
"""Numeric tolerance in board units (see module docstring)."""

XY = tuple[float, float]


@dataclass(frozen=True)
class Disc:
    """A round base: centre ``(x, y)`` and radius ``r`` (board units, ``r >= 0``)."""

    x: float
    y: float
    r: float

    @property
    def center(self) -> XY:
        return (self.x, self.y)

    def polygon(self, quad_segs: int = 32) -> Polygon:
        """A polygonal approximation (for drawing and area tests only; LoF never uses it)."""
        return Point(self.x, self.y).buffer(self.r, quad_segs=quad_segs) if self.r > 0 else Point(self.x, self.y)

    def distance_to(self, other: "Disc") -> float:
        """Gap between the two discs' edges (negative when they overlap)."""
        return math.hypot(self.x - other.x, self.y - other.y) - self.r - other.r


@dataclass(frozen=True)
class Segment:
    """A segment ``p0 -> p1`` in board units."""

    p0: XY
    p1: XY

    @property
    def length(self) -> float:
        return math.hypot(self.p1[0] - self.p0[0], self.p1[1] - self.p0[1])

    def as_linestring(self) -> LineString:
        return LineString([self.p0, self.p1])


FAST_PATH = True
"""Use the per-table geometry (:class:`PolygonIndex`, cached unions and edges, cached disc centres). ``False`` runs
the former scalar path (each polygon tested on its own, unions rebuilt per query): the benchmarks' baseline and the
property tests' reference. Both paths give bit-identical answers. Switch it with :func:`fast_path`."""


class fast_path:
    """Context manager: ``with fast_path(False): ...`` runs the former scalar path (benchmarks, tests)."""

    def __init__(self, on: bool):
        self.on = on

    def __enter__(self):
        global FAST_PATH
        self.saved, FAST_PATH = FAST_PATH, self.on
        return self

    def __exit__(self, *exc):
        global FAST_PATH
        FAST_PATH = self.saved
        return False


class PolygonIndex:
    """The blocking polygons of one table state (scenery, hexagons without tile, what lies off the board), built
    once and shared by every LoF query on that table: a shapely 2 ``STRtree`` over them, and a cache of the union of
    each set of polygons a query kept (with its eroded test geometry and its edges as arrays), so the union is built
    once per set rather than once per query.

    Args:
        labelled: ``(label, polygon)`` pairs; labels unique.
    """

    MAX_UNIONS = 4096
    """Cached unions kept at most (the cache is emptied when full: a long page session visits many sets)."""

    def __init__(self, labelled: Sequence[tuple[str, BaseGeometry]]):
        self.labels = [lab for lab, _ in labelled]
        self.geoms = np.array([g for _, g in labelled], dtype=object)
        self.id_of = {lab: i for i, lab in enumerate(self.labels)}
        self.tree = shapely.STRtree(self.geoms) if len(self.geoms) else None
        self._unions: dict[tuple, tuple] = {}
        self._eroded: dict[float, dict[int, BaseGeometry]] = {}
        self._regions: dict[tuple, tuple] = {}

    MAX_REGIONS = 65536
    """Cached search regions kept at most (emptied when full)."""

    def regions(self, pairs: Sequence[tuple["Disc", "Disc"]], pad: float) -> list[tuple]:
        """``(region, hits, first)`` of each pair ``(a, b)``: the search region ``capsule(a, b, pad)``, the index
        positions of the polygons meeting it (the tree's ``intersects`` query, in tree order) and the gap segments of
        the first stage of an unclipped search (:func:`_first_stage`), built for every pair not yet cached in one
        vectorised ``buffer``, one tree query and one numpy pass (the same operations on the same numbers as
        :func:`capsule`, ``tree.query(region, predicate="intersects")`` and :func:`_first_stage`, so the same
        results)."""
        keys = [(a.x, a.y, a.r, b.x, b.y, b.r, pad) for a, b in pairs]
        if len(keys) == 1 and keys[0] in self._regions:  # one search's set-up, already built (the usual case)
            return [self._regions[keys[0]]]
        todo = list(dict.fromkeys(k for k in keys if k not in self._regions))
        if todo:
            if len(self._regions) + len(todo) > self.MAX_REGIONS:
                self._regions.clear()
            arr = np.array(todo, dtype=float)
            lines = shapely.linestrings(arr[:, [0, 1, 3, 4]].reshape(-1, 2, 2))
            regs = shapely.buffer(lines, [max(k[2], k[5]) + pad for k in todo], quad_segs=16)
            # prepared (GEOS indexes each region's edges): the features' edge tests (_obstacle_features) ask a
            # region against every edge of the union near it; a prepared predicate gives the same answer, faster
            shapely.prepare(regs)
            if self.tree is not None:
                src, hit = self.tree.query(regs, predicate="intersects")
                cuts = np.searchsorted(src, np.arange(len(todo) + 1))
                hits = [np.sort(hit[cuts[i]:cuts[i + 1]]) for i in range(len(todo))]
            else:
                hits = [np.zeros(0, dtype=np.intp)] * len(todo)
            pair_of = dict(zip(keys, pairs))
            first = _first_stage_batch([pair_of[k] for k in todo], todo)
            for k, g, h in zip(todo, regs, hits):
                self._regions[k] = (g, h, first.get(k))
        return [self._regions[k] for k in keys]

    def ids(self, polygons: Sequence[tuple[str, BaseGeometry]]) -> np.ndarray | None:
        """Index of each of ``polygons`` (``None`` unless every one is in the index as this very object)."""
        out = np.empty(len(polygons), dtype=np.intp)
        for k, (lab, g) in enumerate(polygons):
            i = self.id_of.get(lab)
            if i is None or self.geoms[i] is not g:
                return None
            out[k] = i
        return out

    def eroded(self, ids: np.ndarray, tol: float) -> np.ndarray:
        """The polygons ``ids``, each eroded by ``tol`` (built once per polygon), as an object array."""
        cache = self._eroded.setdefault(tol, {})
        out = np.empty(len(ids), dtype=object)
        for k, i in enumerate(ids):
            g = cache.get(int(i))
            if g is None:
                g = cache[int(i)] = _eroded(self.geoms[i], tol)
                if not g.is_empty:
                    shapely.prepare(g)  # the blockers' tests put it first (see blockers_of_rows)
            out[k] = g
        return out

    def build_unions(self, keys: Sequence[tuple[int, ...]], touching_blocks: bool, tol: float) -> None:
        """Build, for every ``ids`` of ``keys`` not cached yet, what :meth:`union_of` builds, in one vectorised call
        per step: the unions (``union_all`` along the rows of an array padded with ``None``, which makes each row's
        collection as ``union_all`` of the row alone does), their erosions (``buffer`` with the parameters of
        ``Geometry.buffer``), their preparation, WKB and edges' lines. Element by element the same GEOS operations
        on the same geometries as one :meth:`union_of` at a time, so the same results."""
        todo = list(dict.fromkeys(k for k in keys if k and (k, touching_blocks, tol) not in self._unions))
        if len(todo) < 2:
            return
        if len(self._unions) + len(todo) > self.MAX_UNIONS:
            self._unions.clear()
        rows = np.full((len(todo), max(len(k) for k in todo)), None, dtype=object)
        for i, k in enumerate(todo):
            rows[i, :len(k)] = self.geoms[list(k)]
        unions = shapely.union_all(rows, axis=1)
        if touching_blocks:
            tests = unions
        else:  # _eroded: Geometry.buffer(-tol) of the non-empty ones
            tests = unions.copy()
            full = ~shapely.is_empty(unions)
            tests[full] = shapely.buffer(unions[full], -tol, quad_segs=16, cap_style="round", join_style="round",
                                         mitre_limit=5.0, single_sided=False)
        shapely.prepare(tests[~shapely.is_empty(tests)])
        # the edges (_union_edges): polygons' rings read from their WKB, every union's lines made in one call
        kinds = shapely.get_type_id(unions)
        wkbs = shapely.to_wkb(unions, output_dimension=2, byte_order=1)
        ends = [_ring_edges_wkb(w) if t in (3, 6) else None for w, t in zip(wkbs, kinds)]
        sizes = [len(e[0]) for e in ends if e is not None]
        lines = iter(np.split(shapely.linestrings(np.stack([np.concatenate([e[0] for e in ends if e is not None]),
                                                            np.concatenate([e[1] for e in ends if e is not None])],
                                                           axis=1)), np.cumsum(sizes)[:-1])
                     if sum(sizes) else [None] * len(sizes))
        for k, u, tg, e in zip(todo, unions, tests, ends):
            if e is None:
                edges = _union_edges(u)
            else:
                ln = next(lines)
                edges = (e[0], e[1], ln) if len(e[0]) else (np.zeros((0, 2)), np.zeros((0, 2)), None)
            self._unions[(k, touching_blocks, tol)] = (u, tg, edges)

    def union_of(self, ids: tuple[int, ...], touching_blocks: bool, tol: float):
        """``(union, test geometry, edges)`` of the polygons ``ids`` (in that order); ``edges`` is ``(p0, p1,
        linestrings)`` of every ring edge of the union's polygons (see :func:`_obstacle_features`)."""
        key = (ids, touching_blocks, tol)
        got = self._unions.get(key)
        if got is None:
            if len(self._unions) >= self.MAX_UNIONS:
                self._unions.clear()
            union = shapely.union_all(list(self.geoms[list(ids)])) if ids else Polygon()
            test_geom = union if touching_blocks else _eroded(union, tol)
            if not test_geom.is_empty:
                shapely.prepare(test_geom)
            got = self._unions[key] = (union, test_geom, _union_edges(union))
        return got


@dataclass
class Obstacles:
    """The blocking geometry of one query.

    Attributes:
        polygons: ``(label, polygon)`` pairs (scenery footprints, tile-less hexagons). Touching polygons are merged
            for the blocking test, so a line along the common side of two holes is blocked.
        discs: ``(label, Disc)`` pairs (other models' bases).
        index: the table's :class:`PolygonIndex` holding every one of ``polygons`` (optional; speeds the search up
            without changing any answer).
        disc_points: shapely Points at the centres of ``discs`` (optional, same order).
    """

    polygons: list[tuple[str, BaseGeometry]] = field(default_factory=list)
    discs: list[tuple[str, Disc]] = field(default_factory=list)
    index: PolygonIndex | None = field(default=None, repr=False)
    disc_points: np.ndarray | None = field(default=None, repr=False)
    _union: BaseGeometry | None = field(default=None, init=False, repr=False)
    _ids: np.ndarray | None = field(default=None, init=False, repr=False)
    _inverse: np.ndarray | None = field(default=None, init=False, repr=False)
    _edges: tuple | None = field(default=None, init=False, repr=False)
    _template: "Obstacles | None" = field(default=None, init=False, repr=False, compare=False)
    """The polygons-only :meth:`indexed` template these obstacles were made from (:meth:`with_discs`), if any."""

    @classmethod
    def indexed(cls, polygons: list[tuple[str, BaseGeometry]], index: PolygonIndex) -> "Obstacles":
        """Obstacles made of ``polygons`` alone, their places in ``index`` looked up once (a template for
        :meth:`with_discs`: a table keeps one per set of readings)."""
        obs = cls(polygons, [], index)
        obs._indexed()
        return obs

    def with_discs(self, discs: list[tuple[str, Disc]], disc_points: np.ndarray | None = None) -> "Obstacles":
        """These polygons (their index places already looked up) and ``discs``."""
        obs = Obstacles(list(self.polygons), discs, self.index, disc_points)
        obs._ids, obs._inverse = self._ids, self._inverse
        obs._template = self
        return obs

    def _indexed(self) -> bool:
        """Whether the fast path may use :attr:`index` (every polygon found in it)."""
        if not FAST_PATH or self.index is None or self.index.tree is None:
            return False
        if self._inverse is None:
            ids = self.index.ids(self.polygons)
            if ids is None:
                self.index = None
                return False
            inv = np.full(len(self.index.geoms), -1, dtype=np.intp)
            inv[ids] = np.arange(len(ids))
            self._ids, self._inverse = ids, inv
        return True

    @property
    def union(self) -> BaseGeometry:
        if self._union is None:
            self._union = shapely.union_all([p for _, p in self.polygons]) if self.polygons else Polygon()
        return self._union


@dataclass
class ClearResult:
    """What :func:`find_clear_segment` found.

    Attributes:
        witness: a clear segment from ``A`` to ``B`` (``None`` when there is none).
        candidates_tested: how many candidate lines were tested.
        contact: ``True`` when ``A`` and ``B`` touch (the witness is then the single contact point).
    """

    witness: Segment | None
    candidates_tested: int
    contact: bool = False


# ------------------------------------------------------------------------------------------------- tangent lines


def common_tangents(f: np.ndarray, g: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """All common tangent lines of feature pairs.

    Args:
        f, g: arrays of shape ``(n, 3)``: ``(x, y, r)`` rows (``r = 0`` is a point).

    Returns:
        ``(normals, offsets)``: arrays ``(m, 2)`` and ``(m,)`` of lines ``{p : n·p + c = 0}`` with ``|n| = 1``
        (for every pair, the lines at signed distance ``r_f`` from ``f`` and ``±r_g`` from ``g``).

    The lines come in four blocks (``s = +1, h = +1``; ``+1, -1``; ``-1, +1``; ``-1, -1``), each in pair order. The
    fast path computes the four blocks as one ``(4, n)`` array, with the same arithmetic on every element, so its
    answer is bit-identical to the former loop (:func:`_common_tangents_loop`, kept as the reference).
    """
    if not FAST_PATH:
        return _common_tangents_loop(f, g)
    n, c, valid = _tangent_blocks(f, g)
    return n[valid], c[valid]


def _tangent_blocks(f: np.ndarray, g: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The four blocks of :func:`common_tangents` before masking: normals ``(4, n, 2)``, offsets ``(4, n)`` and the
    mask ``(4, n)`` of the lines that exist (shared by :func:`common_tangents` and :func:`_first_stage_batch`)."""
    d = g[:, :2] - f[:, :2]
    dd = np.einsum("ij,ij->i", d, d)
    ok = dd > 1e-24
    perp = np.stack([-d[:, 1], d[:, 0]], axis=1)
    fr, gr = f[:, 2], g[:, 2]
    dr = _S2 * gr - fr
    disc = dd - dr * dr
    valid = ok & (disc >= -1e-18)
    valid[2:] &= (gr > 0) & (fr > 0)  # with a point, s = -1 repeats the s = +1 lines
    root = np.sqrt(np.maximum(disc, 0.0))  # = np.clip(disc, 0.0, None)
    valid[1::2] &= ~((fr == 0) & (gr == 0)) & (root[1::2] > 0)  # through two points there is one line
    with np.errstate(invalid="ignore", divide="ignore"):
        n = (dr[..., None] * d + (_H * root)[..., None] * perp) / np.where(ok, dd, 1.0)[:, None]
    c = fr - (n[..., 0] * f[:, 0] + n[..., 1] * f[:, 1])
    return n, c, valid


_S2 = np.array([1.0, 1.0, -1.0, -1.0])[:, None]
_H = np.array([1.0, -1.0, 1.0, -1.0])[:, None]


def _common_tangents_loop(f: np.ndarray, g: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The former :func:`common_tangents` (one block at a time): the reference of the fast path."""
    normals, offsets = [], []
    d = g[:, :2] - f[:, :2]
    dd = np.einsum("ij,ij->i", d, d)
    ok = dd > 1e-24
    perp = np.stack([-d[:, 1], d[:, 0]], axis=1)
    both_points = (f[:, 2] == 0) & (g[:, 2] == 0)
    for s2 in (1.0, -1.0):
        dr = s2 * g[:, 2] - f[:, 2]
        disc = dd - dr * dr
        valid = ok & (disc >= -1e-18)
        if s2 < 0:
            valid &= (g[:, 2] > 0) & (f[:, 2] > 0)  # with a point, s2 = -1 repeats the s2 = +1 lines
        root = np.sqrt(np.clip(disc, 0.0, None))
        for h in (1.0, -1.0):
            if h < 0:
                valid = valid & ~both_points & (root > 0)  # through two points there is one line
            with np.errstate(invalid="ignore", divide="ignore"):
                n = (dr[:, None] * d + h * root[:, None] * perp) / np.where(ok, dd, 1.0)[:, None]
            c = f[:, 2] - np.einsum("ij,ij->i", n, f[:, :2])
            normals.append(n[valid])
            offsets.append(c[valid])
    if not normals:
        return np.zeros((0, 2)), np.zeros(0)
    return np.concatenate(normals), np.concatenate(offsets)


def _chords(px, py, ux, uy, cx, cy, r):
    """Parameter interval where the lines ``p + t·u`` meet disc ``(c, r)`` (NaN when they miss)."""
    tc = (cx - px) * ux + (cy - py) * uy
    qx, qy = px + tc * ux - cx, py + tc * uy - cy
    h2 = r * r - (qx * qx + qy * qy)
    # np.clip(h2, 0.0, None) is np.maximum(h2, 0.0) (numpy's own _clip); called directly, as the threshold's max
    floor = -1e-12 * (max(r, 1.0) if type(r) is float or np.ndim(r) == 0 else np.maximum(r, 1.0))
    h = np.sqrt(np.where(h2 >= floor, np.maximum(h2, 0.0), np.nan))
    return tc - h, tc + h


HalfPlane = tuple[float, float, float]
"""``(nx, ny, c)``: the closed half-plane ``{p : nx·x + ny·y + c >= 0}``."""


class ClipBoth(tuple):
    """A ``clip`` that restricts both ends: the tuple holds the half-planes restricting the target (``b``), as any
    ``clip``; :attr:`shooter` holds those restricting the shooter (``a``). Passed as ``clip`` to
    :func:`find_clear_segment` and :func:`shortest_clear_segment` (every function between them hands ``clip`` on
    unchanged; only the gap segments and the features read :attr:`shooter`). Used when ruling options
    ``lof_shooter_arc = front_half`` and ``lof_arc_part = seen_part_in_arc`` are chosen together."""

    shooter: tuple

    def __new__(cls, target: Sequence[HalfPlane], shooter: Sequence[HalfPlane]) -> "ClipBoth":
        obj = super().__new__(cls, tuple(tuple(h) for h in target))
        obj.shooter = tuple(tuple(h) for h in shooter)
        return obj


def _shooter_clip(clip: Sequence[HalfPlane]) -> tuple:
    """The half-planes restricting the shooter's end (:class:`ClipBoth`; ``()`` for any other ``clip``)."""
    return getattr(clip, "shooter", ())


def _clip_chord(t0: np.ndarray, t1: np.ndarray, px, py, ux, uy, half_planes) -> tuple[np.ndarray, np.ndarray]:
    """The chord ``[t0, t1]`` of lines ``p + t·u`` cut by ``half_planes`` (``t0`` NaN where nothing is left)."""
    for hx, hy, hc in half_planes:
        du = hx * ux + hy * uy
        dp = hx * px + hy * py + hc
        with np.errstate(invalid="ignore", divide="ignore"):
            tstar = -dp / np.where(np.abs(du) > 1e-15, du, 1.0)
        t0 = np.where(du > 1e-15, np.maximum(t0, tstar), t0)
        t1 = np.where(du < -1e-15, np.minimum(t1, tstar), t1)
        empty = (np.abs(du) <= 1e-15) & (dp < -1e-12)
        t0 = np.where(empty, np.nan, t0)
    if half_planes:
        t0 = np.where(t0 > t1 + 1e-12, np.nan, t0)
    return t0, t1


def gap_segments(normals: np.ndarray, offsets: np.ndarray, a: Disc, b: Disc,
                 clip: Sequence[HalfPlane] = ()) -> np.ndarray:
    """Gap segments of lines meeting both discs: array ``(m, 4)`` of ``x0, y0, x1, y1`` (rows of NaN where a line
    misses a disc). ``p0`` lies on ``a``'s edge, ``p1`` on ``b``'s edge. With ``clip``, the target is the part of
    ``b`` inside every half-plane of ``clip`` (``p1`` then lies on that part's boundary)."""
    px, py, ux, uy, ta, tb, bad = _gap_params(normals, offsets, a, b, clip)
    out = np.stack([px + ta * ux, py + ta * uy, px + tb * ux, py + tb * uy], axis=1)
    out[bad] = np.nan
    return out


def _gap_params(normals: np.ndarray, offsets: np.ndarray, a: Disc, b: Disc, clip: Sequence[HalfPlane]):
    """The lines as ``p + t·u`` and their gap segments' parameters: ``(px, py, ux, uy, ta, tb, bad)`` (``bad``:
    the line misses a disc; see :func:`gap_segments`)."""
    return _gap_params_xy(normals[:, 0], normals[:, 1], offsets, a, b, clip)


def _gap_params_xy(nx: np.ndarray, ny: np.ndarray, offsets: np.ndarray, a: Disc, b: Disc,
                   clip: Sequence[HalfPlane]):
    """:func:`_gap_params` with the normals given as their two columns ``nx``, ``ny``."""
    px, py = -offsets * nx, -offsets * ny
    ux, uy = -ny, nx
    a0, a1 = _chords(px, py, ux, uy, a.x, a.y, a.r)
    b0, b1 = _chords(px, py, ux, uy, b.x, b.y, b.r)
    if _shooter_clip(clip):  # ClipBoth: the shooter's end restricted too
        a0, a1 = _clip_chord(a0, a1, px, py, ux, uy, _shooter_clip(clip))
    b0, b1 = _clip_chord(b0, b1, px, py, ux, uy, clip)
    forward = a1 <= b0
    ta = np.where(forward, a1, a0)
    tb = np.where(forward, b0, b1)
    bad = np.isnan(a0) | np.isnan(b0) | (~forward & ~(b1 <= a0))
    return px, py, ux, uy, ta, tb, bad


# ------------------------------------------------------------------------------------------------- blocking tests


def _segments_to_lines(segs: np.ndarray):
    return shapely.linestrings(segs.reshape(-1, 2, 2))


def _discs_block(segs: np.ndarray, d: np.ndarray, touching_blocks: bool, tol: float) -> np.ndarray:
    """``(n segments, k discs)``: which disc (rows ``x, y, r`` of ``d``) blocks which segment (see
    :func:`blocked_mask`)."""
    x0, y0, x1, y1 = (segs[:, i][:, None] for i in range(4))
    vx, vy = x1 - x0, y1 - y0
    ll = vx * vx + vy * vy
    with np.errstate(invalid="ignore", divide="ignore"):
        t = np.clip(((d[:, 0] - x0) * vx + (d[:, 1] - y0) * vy) / np.where(ll > 0, ll, 1.0), 0.0, 1.0)
    dist = np.hypot(x0 + t * vx - d[:, 0], y0 + t * vy - d[:, 1])
    limit = d[:, 2] + tol if touching_blocks else d[:, 2] - tol
    return dist <= limit if touching_blocks else dist < limit


def blocked_mask(segs: np.ndarray, obstacles: Obstacles, *, touching_blocks: bool, tol: float = TOL,
                 polygon: BaseGeometry | None = None) -> np.ndarray:
    """Which segments (rows ``x0, y0, x1, y1``) meet an obstacle.

    ``touching_blocks=False``: only entering an obstacle's interior (deeper than ``tol``) blocks.
    ``touching_blocks=True``: coming within ``tol`` of an obstacle blocks.
    ``polygon`` overrides ``obstacles.union`` (an already prepared union).
    """
    n = len(segs)
    out = np.zeros(n, dtype=bool)
    if n == 0:
        return out
    if obstacles.discs:
        d = np.array([[dd.x, dd.y, dd.r] for _, dd in obstacles.discs])
        out |= np.any(_discs_block(segs, d, touching_blocks, tol), axis=1)
    geom = obstacles.union if polygon is None else polygon
    if not geom.is_empty:
        todo = ~out
        if np.any(todo):
            lines = _segments_to_lines(segs[todo])
            if FAST_PATH:  # the (prepared) obstacle geometry first: GEOS uses its preparation only in that place
                hit = shapely.dwithin(geom, lines, tol) if touching_blocks else shapely.intersects(geom, lines)
            elif touching_blocks:
                hit = shapely.dwithin(lines, geom, tol)
            else:
                hit = shapely.intersects(lines, geom)
            out[np.flatnonzero(todo)] = hit
    return out


def blockers_of_rows(segs: Sequence[Segment], obstacles: Obstacles, *, touching_blocks: bool,
                     tol: float = TOL) -> list[list[str]]:
    """:func:`blockers_of` of each of ``segs``. Fast path (indexed obstacles): every (segment, polygon) predicate
    in one broadcast shapely call and every (segment, disc) test in one numpy pass, element by element the
    predicates and arithmetic of :func:`blockers_of`, so the same labels in the same order."""
    if not segs:
        return []
    if not obstacles._indexed():
        return [blockers_of(seg, obstacles, touching_blocks=touching_blocks, tol=tol) for seg in segs]
    arr = np.array([[*seg.p0, *seg.p1] for seg in segs], dtype=float)
    out: list[list[str]] = [[] for _ in segs]
    if obstacles.polygons:
        ids = obstacles._ids
        lines = _segments_to_lines(arr)[:, None]
        if touching_blocks:
            hit = shapely.dwithin(lines, obstacles.index.geoms[ids][None, :], tol)
        else:
            # the (prepared) eroded polygons first: GEOS uses a preparation only there; a symmetric predicate
            hit = shapely.intersects(obstacles.index.eroded(ids, tol)[None, :], lines)
        for i, row in enumerate(hit):
            out[i] += [obstacles.polygons[j][0] for j in np.flatnonzero(row)]
    if obstacles.discs:
        d = np.array([[dd.x, dd.y, dd.r] for _, dd in obstacles.discs])
        for i, row in enumerate(_discs_block(arr, d, touching_blocks, tol)):
            out[i] += [obstacles.discs[j][0] for j in np.flatnonzero(row)]
    return out


def blockers_of(seg: Segment, obstacles: Obstacles, *, touching_blocks: bool, tol: float = TOL) -> list[str]:
    """Labels of the obstacles that block ``seg`` (each obstacle tested on its own; polygons first, in order).

    Fast path: every polygon tested in one vectorised call (each one eroded once per table, by its
    :class:`PolygonIndex`), every disc in one numpy pass: the same predicates, so the same labels."""
    arr = np.array([[*seg.p0, *seg.p1]])
    if obstacles._indexed():
        found = []
        if obstacles.polygons:
            ids = obstacles._ids
            line = _segments_to_lines(arr)[0]
            if touching_blocks:
                hit = shapely.dwithin(line, obstacles.index.geoms[ids], tol)
            else:
                hit = shapely.intersects(obstacles.index.eroded(ids, tol), line)
            found += [obstacles.polygons[i][0] for i in np.flatnonzero(hit)]
        if obstacles.discs:
            d = np.array([[dd.x, dd.y, dd.r] for _, dd in obstacles.discs])
            found += [obstacles.discs[i][0] for i in np.flatnonzero(_discs_block(arr, d, touching_blocks, tol)[0])]
        return found
    found = []
    for label, poly in obstacles.polygons:
        geom = poly if touching_blocks else _eroded(poly, tol)
        if blocked_mask(arr, Obstacles(), touching_blocks=touching_blocks, tol=tol, polygon=geom)[0]:
            found.append(label)
    for label, disc in obstacles.discs:
        if blocked_mask(arr, Obstacles(discs=[(label, disc)]), touching_blocks=touching_blocks, tol=tol)[0]:
            found.append(label)
    return found


def _eroded(geom: BaseGeometry, tol: float) -> BaseGeometry:
    return geom.buffer(-tol) if not geom.is_empty else geom


# ------------------------------------------------------------------------------------------------- the search


def capsule(a: Disc, b: Disc, pad: float = 0.0) -> Polygon:
    """A region containing every segment from ``a`` to ``b`` (the centre segment grown by the larger radius)."""
    return LineString([a.center, b.center]).buffer(max(a.r, b.r) + pad, quad_segs=16)


def _vertices(geom: BaseGeometry) -> np.ndarray:
    if geom.is_empty:
        return np.zeros((0, 2))
    return shapely.get_coordinates(shapely.boundary(geom) if geom.geom_type in ("Polygon", "MultiPolygon")
                                   else geom)


_BOUNDS_MARGIN = 1e-6
"""Board units by which the distance from a base's centre to an obstacle's bounding box must exceed the contact
reach before :func:`_contact_points` skips the obstacle without asking GEOS (far above the rounding of either
distance)."""


def _contact_points(disc: Disc, geom: BaseGeometry, tol: float, bounds: tuple | None = None) -> list[XY]:
    """Points where an obstacle's boundary meets the edge of ``disc``: the nearest boundary point of a part that
    touches the disc, and every crossing of a boundary edge with the circle (obstacles overlapping a base, e.g. a
    hexagon without tile under the edge of a large MegaBeast base). Extreme lines can pivot on them.

    ``bounds``: ``geom``'s bounding box (the fast path): when the disc's centre is farther from it than the reach
    plus :data:`_BOUNDS_MARGIN`, GEOS's distance, which is at least that, exceeds the reach too: no point."""
    pts: list[XY] = []
    if geom.is_empty:
        return pts
    if bounds is not None:
        dx = max(bounds[0] - disc.x, 0.0, disc.x - bounds[2])
        dy = max(bounds[1] - disc.y, 0.0, disc.y - bounds[3])
        if math.hypot(dx, dy) > disc.r + 1e3 * tol + _BOUNDS_MARGIN:
            return pts
    c = Point(disc.center)
    if geom.distance(c) > disc.r + 1e3 * tol:
        return pts
    for part in getattr(geom, "geoms", [geom]):
        if part.distance(c) > disc.r + 1e3 * tol:
            continue
        q = shapely.ops.nearest_points(part.boundary, c)[0]
        if abs(q.distance(c) - disc.r) <= 1e3 * tol:
            pts.append((q.x, q.y))
        if part.geom_type == "Polygon":
            rings = [np.asarray(part.exterior.coords)] + [np.asarray(r.coords) for r in part.interiors]
        else:
            rings = [shapely.get_coordinates(part)]
        for ring in rings:
            p0, p1 = ring[:-1], ring[1:]
            dvec = p1 - p0
            f = p0 - np.array(disc.center)
            a = np.einsum("ij,ij->i", dvec, dvec)
            b = 2 * np.einsum("ij,ij->i", f, dvec)
            cc = np.einsum("ij,ij->i", f, f) - disc.r ** 2
            disc_ = b * b - 4 * a * cc
            ok = (a > 0) & (disc_ >= 0)
            root = np.sqrt(np.where(ok, disc_, 0.0))
            for sgn in (-1.0, 1.0):
                t = (-b + sgn * root) / np.where(a > 0, 2 * a, 1.0)
                sel = ok & (t >= 0) & (t <= 1)
                pts += [tuple(map(float, xy)) for xy in (p0[sel] + t[sel, None] * dvec[sel])]
    return pts


def _local_obstacles(obstacles: Obstacles, region: BaseGeometry, *, touching_blocks: bool,
                     tol: float, hits: np.ndarray | None = None,
                     near: np.ndarray | None = None) -> tuple[Obstacles, BaseGeometry, BaseGeometry]:
    """The obstacles near ``region`` (polygons meeting it, discs within their radius + 10 ``tol``), their union, and
    the prepared geometry segments are tested against (the union, eroded by ``tol`` unless touching blocks).

    Fast path (``obstacles.index`` set): the polygons come from one STRtree query (same predicate, same order as
    in ``obstacles.polygons``), the discs from one vectorised distance call, and the union, its test geometry and
    its edges from the index's cache (keyed by the set of polygons kept), so every answer is the scalar path's.
    ``near``: that distance test of the discs, already made (:func:`find_clear_segments`)."""
    if obstacles._indexed():
        ix = obstacles.index
        pos = obstacles._inverse[ix.tree.query(region, predicate="intersects") if hits is None else hits]
        pos = np.sort(pos[pos >= 0])
        polys = [obstacles.polygons[i] for i in pos]
        if obstacles.discs and near is not None:
            discs = [obstacles.discs[i] for i in np.flatnonzero(near)]
        elif obstacles.discs:
            pts = obstacles.disc_points
            if pts is None:
                pts = shapely.points([d.center for _, d in obstacles.discs])
            r = np.array([d.r for _, d in obstacles.discs])
            near = shapely.distance(region, pts) <= r + 10 * tol
            discs = [obstacles.discs[i] for i in np.flatnonzero(near)]
        else:
            discs = []
        local = Obstacles(polys, discs)
        union, test_geom, edges = ix.union_of(tuple(int(i) for i in obstacles._ids[pos]), touching_blocks, tol)
        local._union = union
        local._edges = edges
        return local, union, test_geom
    polys = [(lab, g) for lab, g in obstacles.polygons if g.intersects(region)]
    discs = [(lab, d) for lab, d in obstacles.discs if region.distance(Point(d.center)) <= d.r + 10 * tol]
    local = Obstacles(polys, discs)
    union = local.union
    test_geom = union if touching_blocks else _eroded(union, tol)
    if not test_geom.is_empty:
        shapely.prepare(test_geom)
    return local, union, test_geom


def _obstacle_features(local: Obstacles, union: BaseGeometry, region: BaseGeometry,
                       grow: float, hit: np.ndarray | None = None) -> list[tuple[float, float, float]]:
    """Candidate-line features of the obstacles: each disc (radius grown by ``grow``) and both end vertices of every
    polygon edge that meets ``region`` (discs of radius ``grow``), as ``(x, y, r)`` triples.

    A vertex outside ``region`` still matters when its edge crosses the region: the lines through a vertex that stay
    clear end where they turn parallel to an edge at that vertex, i.e. on the line through the edge's two ends, and
    a segment may run along an edge that crosses the region from end to end.

    ``hit``: on the fast path, ``shapely.intersects(region, lines)`` of the union's edges, already asked
    (:func:`_prefetch_features`)."""
    feats = [(d.x, d.y, d.r + grow) for _, d in local.discs]
    if union.is_empty:
        return feats
    edges = local._edges
    if edges is not None:  # the fast path: the union's edges as arrays, one vectorised test
        p0, p1, lines = edges
        if lines is None:
            return feats
        if hit is None:
            hit = shapely.intersects(region, lines)
        verts = _unique_rows(np.concatenate([p0[hit], p1[hit]]))
        feats += [(float(x), float(y), grow) for x, y in verts]
        return feats
    ends = []
    for part in getattr(union, "geoms", [union]):
        if part.geom_type != "Polygon":
            continue
        for ring in [part.exterior, *part.interiors]:
            pts = np.asarray(ring.coords)
            if len(pts) < 2:
                continue
            hit = shapely.intersects(region, shapely.linestrings(np.stack([pts[:-1], pts[1:]], axis=1)))
            ends += [pts[:-1][hit], pts[1:][hit]]
    if ends:
        verts = np.unique(np.concatenate(ends), axis=0)
        feats += [(float(x), float(y), grow) for x, y in verts]
    return feats


_PY_UNIQUE_ROWS = 64
"""Up to this many rows :func:`_unique_rows` works on Python tuples (numpy's per-call cost dominates below)."""
_copysign = math.copysign


def _unique_rows(v: np.ndarray) -> np.ndarray:
    """``np.unique(v, axis=0)`` for ``(n, 2)`` float rows: sorted by x then y, duplicates dropped. Fast path: a
    ``lexsort`` when no coordinate is zero or not finite (rows that compare equal are then the same bits, so which
    of them is kept cannot matter; with a zero, ``-0.0 == 0.0`` could keep either, so ``np.unique`` decides); up to
    :data:`_PY_UNIQUE_ROWS` rows without NaN or ``-0.0``, a set of tuples, sorted."""
    if 2 <= len(v) <= _PY_UNIQUE_ROWS:
        rows = v.tolist()
        if not any(x != x or y != y or (x == 0.0 and _copysign(1.0, x) < 0.0) or (y == 0.0 and _copysign(1.0, y) < 0.0)
                   for x, y in rows):
            # no NaN and no -0.0: rows that compare equal are the same bits, so a set keeps exactly np.unique's rows,
            # and tuples of floats sort as np.unique sorts rows (x, then y)
            return np.array(sorted(set(map(tuple, rows))), dtype=float).reshape(-1, 2)
    if len(v) < 2 or not np.all(v != 0) or not np.isfinite(v).all():
        return np.unique(v, axis=0)
    s = v[np.lexsort((v[:, 1], v[:, 0]))]
    keep = np.ones(len(s), dtype=bool)
    keep[1:] = (s[1:] != s[:-1]).any(axis=1)
    return s[keep]


def _union_edges(union: BaseGeometry) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """Every ring edge of the polygons of ``union`` as ``(p0 (m, 2), p1 (m, 2), linestrings (m,))`` (the edges
    :func:`_obstacle_features` tests; ``linestrings`` is ``None`` when there is no ring of two points)."""
    if union.geom_type in ("Polygon", "MultiPolygon"):
        p0, p1 = _ring_edges_wkb(shapely.to_wkb(union, output_dimension=2, byte_order=1))
        if not len(p0):
            return np.zeros((0, 2)), np.zeros((0, 2)), None
        return p0, p1, shapely.linestrings(np.stack([p0, p1], axis=1))
    # every ring of every non-empty polygon part (exterior first, then the interiors, in order), its points in one
    # get_coordinates call; an edge joins two consecutive points of the same ring
    parts = shapely.get_parts(union) if union.geom_type in ("MultiPolygon", "GeometryCollection") else \
        np.array([union], dtype=object)
    parts = parts[(shapely.get_type_id(parts) == 3) & ~shapely.is_empty(parts)]
    if not len(parts):
        return np.zeros((0, 2)), np.zeros((0, 2)), None
    pts, ring = shapely.get_coordinates(shapely.get_rings(parts), return_index=True)
    same = ring[1:] == ring[:-1]
    if not same.any():
        return np.zeros((0, 2)), np.zeros((0, 2)), None
    p0, p1 = pts[:-1][same], pts[1:][same]
    return p0, p1, shapely.linestrings(np.stack([p0, p1], axis=1))


_U32 = struct.Struct("<I")


def _ring_edges_wkb(wkb: bytes) -> tuple[np.ndarray, np.ndarray]:
    """``(p0, p1)`` of every ring edge of a little-endian 2-D WKB Polygon or MultiPolygon (polygon by polygon, each
    exterior ring then its interiors, point by point): the coordinates read as stored (the same doubles that
    ``get_rings``/``get_coordinates`` give, without one shapely call per step)."""
    u32 = _U32.unpack_from
    off = 1
    kind = u32(wkb, off)[0]
    off += 4
    if kind == 6:   # MultiPolygon: its count, then each Polygon with its own header
        n_polys = u32(wkb, off)[0]
        off += 4
    else:
        n_polys = 1
    p0s, p1s = [], []
    for _ in range(n_polys):
        if kind == 6:
            off += 5    # the Polygon's byte order and type
        n_rings = u32(wkb, off)[0]
        off += 4
        for _ in range(n_rings):
            n = u32(wkb, off)[0]
            off += 4
            if n >= 2:
                pts = np.frombuffer(wkb, dtype="<f8", count=2 * n, offset=off).reshape(n, 2)
                p0s.append(pts[:-1])
                p1s.append(pts[1:])
            off += 16 * n
    if not p0s:
        return np.zeros((0, 2)), np.zeros((0, 2))
    return np.concatenate(p0s).astype(float, copy=False), np.concatenate(p1s).astype(float, copy=False)


def _first_clear(segs: np.ndarray, local: Obstacles, *, touching_blocks: bool, tol: float,
                 polygon: BaseGeometry) -> Segment | None:
    """The first of ``segs`` (shape ``(n, 4)``: x0, y0, x1, y1) that :func:`blocked_mask` finds clear, or ``None``."""
    if len(segs) == 0:
        return None
    free = np.flatnonzero(~blocked_mask(segs, local, touching_blocks=touching_blocks, tol=tol, polygon=polygon))
    if len(free):
        s = segs[free[0]]
        return Segment((float(s[0]), float(s[1])), (float(s[2]), float(s[3])))
    return None


def _line_through(a: Disc, b) -> tuple[np.ndarray, np.ndarray]:
    """The line through the centres of ``a`` and ``b`` (anything with ``.x``, ``.y``) as ``(normals (1, 2),
    offsets (1,))``: the points ``p`` with ``n @ p + c == 0``."""
    dx, dy = b.x - a.x, b.y - a.y
    dl = math.hypot(dx, dy)
    n0 = np.array([[-dy / dl, dx / dl]])
    return n0, np.array([-(n0[0, 0] * a.x + n0[0, 1] * a.y)])


@dataclass
class _Search:
    """What one search between two bases works on: the obstacles near the pair, the prepared blocking geometry and
    the candidate-line features (``(k, 3)`` rows ``x, y, r``: the two bases first, then obstacle discs, polygon
    vertices, points where an obstacle meets a base, and where clipping lines cross the target's edge)."""

    local: Obstacles
    test_geom: BaseGeometry
    _make_features: object = field(repr=False)
    first: np.ndarray | None = field(default=None, repr=False)
    """The first stage's gap segments when already known (see :meth:`PolygonIndex.regions`)."""
    _features: np.ndarray | None = field(default=None, repr=False)
    edge_query: tuple | None = field(default=None, repr=False)
    """``(region, edge lines)`` of :func:`_obstacle_features` on the fast path (for :func:`_prefetch_features`);
    ``_make_features`` then takes the hits as its argument."""

    @property
    def features(self) -> np.ndarray:
        """Built on first use: the first stage of the LoF search (the centre line and the two bases' tangents)
        needs none, and most clear pairs end there."""
        if self._features is None:
            self._features = self._make_features()
        return self._features


def _search_setup(a: Disc, b: Disc, obstacles: Obstacles, *, touching_blocks: bool, tol: float,
                  clip: Sequence[HalfPlane], near: np.ndarray | None = None) -> _Search:
    """The features and obstacles of :func:`find_clear_segment` (and :func:`shortest_clear_segment`, which must see
    exactly the same ones so that a Range is measured along a line the LoF search accepts)."""
    first = None
    if obstacles._indexed():  # the region, the polygons meeting it and the first stage, cached by the table's index
        region, hits, first = obstacles.index.regions([(a, b)], 10 * tol)[0]
    else:
        region, hits = capsule(a, b, pad=10 * tol), None
    local, union, test_geom = _local_obstacles(obstacles, region, touching_blocks=touching_blocks, tol=tol, hits=hits,
                                               near=near)
    edges = local._edges
    query = (region, edges[2]) if (edges is not None and edges[2] is not None and not union.is_empty) else None
    srch = _Search(local, test_geom,
                   lambda hit=None: _features(a, b, local, union, region, touching_blocks, tol, clip, hit),
                   first if not clip else None, edge_query=query)
    if not FAST_PATH:
        srch.features  # the former path built them at once
    return srch


def _prefetch_features(searches: Sequence[_Search]) -> None:
    """Build the features of every search in ``searches`` that has none yet, the edge tests of all of them
    (``shapely.intersects(region, edges)``, one per search in :func:`_obstacle_features`) asked in one vectorised
    call: element by element the same predicate on the same geometries, so the same features."""
    todo = [sr for sr in searches if sr._features is None and sr.edge_query is not None]
    if len(todo) > 1:
        sizes = [len(sr.edge_query[1]) for sr in todo]
        regions = np.empty(len(todo), dtype=object)
        regions[:] = [sr.edge_query[0] for sr in todo]
        hits = shapely.intersects(np.repeat(regions, sizes), np.concatenate([sr.edge_query[1] for sr in todo]))
        for sr, hit in zip(todo, np.split(hits, np.cumsum(sizes)[:-1])):
            sr._features = sr._make_features(hit)


def _features(a: Disc, b: Disc, local: Obstacles, union: BaseGeometry, region: BaseGeometry, touching_blocks: bool,
              tol: float, clip: Sequence[HalfPlane], hit: np.ndarray | None = None) -> np.ndarray:
    """The candidate-line features of a search (see :class:`_Search`; ``hit``: see :func:`_obstacle_features`)."""
    grow = 2 * tol if touching_blocks else 0.0
    verts = None
    if FAST_PATH and not union.is_empty and local._edges is not None:
        # _obstacle_features' polygon vertices kept as an array (the same numbers: a row of floats is the
        # array of the same floats), the rows placed where that list had them
        feats = [(a.x, a.y, a.r), (b.x, b.y, b.r)] + [(d.x, d.y, d.r + grow) for _, d in local.discs]
        p0, p1, lines = local._edges
        if lines is not None:
            if hit is None:
                hit = shapely.intersects(region, lines)
            v = _unique_rows(np.concatenate([p0[hit], p1[hit]]))
            verts = np.column_stack([v, np.full(len(v), grow)])
        head = np.array(feats, dtype=float).reshape(-1, 3)
        feats = []
    else:
        feats = [(a.x, a.y, a.r), (b.x, b.y, b.r)] + _obstacle_features(local, union, region, grow, hit)
        head = None
    if not union.is_empty:
        bounds = union.bounds if head is not None else None  # the fast path: the bounding-box test first
        for disc in (a, b):
            feats += [(x, y, grow) for x, y in _contact_points(disc, union, tol, bounds)]
    for disc, planes in ((b, clip), (a, _shooter_clip(clip))):  # where the clipping lines cross the clipped edge
        for hx, hy, hc in planes:
            dist = hx * disc.x + hy * disc.y + hc
            if abs(dist) < disc.r:
                half = math.sqrt(disc.r * disc.r - dist * dist)
                fx, fy = disc.x - dist * hx, disc.y - dist * hy
                for sgn in (1, -1):
                    q = (fx - sgn * half * hy, fy + sgn * half * hx)
                    if all(h2x * q[0] + h2y * q[1] + h2c >= -1e-12 for h2x, h2y, h2c in planes):
                        feats.append((q[0], q[1], grow))
    if head is None:
        return np.array(feats, dtype=float)
    return np.concatenate([head] + ([verts] if verts is not None else []) + [np.array(feats, dtype=float).reshape(-1, 3)])


@functools.lru_cache(maxsize=256)
def _pair_indices(k: int) -> tuple[np.ndarray, np.ndarray]:
    """Row indices ``(i, j)``, ``i < j < k``, of every pair of ``k`` features except the two bases' own ``(0, 1)``."""
    ii, jj = np.triu_indices(k, 1)
    keep = ~((ii == 0) & (jj == 1))
    ii, jj = ii[keep], jj[keep]
    ii.flags.writeable = jj.flags.writeable = False
    return ii, jj


_CONE_MARGIN = 1e-4
"""Radians added to the direction cone of :func:`_may_meet_both` (far above the ``1e-12`` board units the selection
of candidate lines allows, even where ``asin`` is steep)."""


def _may_meet_both(a: Disc, b: Disc, f: np.ndarray, g: np.ndarray) -> np.ndarray:
    """Which feature pairs ``(f[i], g[i])`` may have a common tangent meeting both discs (a conservative filter:
    every pair it drops has none, so the candidates kept are exactly those of the unfiltered pairs, in order).

    A line meeting both discs makes an angle ``θ`` with the centre line where ``|sin θ| <= (r_a + r_b) / D``; a line
    tangent to ``f`` and ``g`` makes an angle ``φ`` with ``g - f`` where ``|sin φ| <= (r_f + r_g) / |g - f|``; so the
    angle between ``g - f`` and the centre line (as lines, in ``[0, π/2]``) is at most ``θ + φ``."""
    ax, ay = b.x - a.x, b.y - a.y
    dl = math.hypot(ax, ay)
    if dl <= 0.0:
        return np.ones(len(f), dtype=bool)
    dx, dy = g[:, 0] - f[:, 0], g[:, 1] - f[:, 1]
    dd = np.hypot(dx, dy)
    with np.errstate(invalid="ignore", divide="ignore"):
        psi = np.arctan2(np.abs(dx * ay - dy * ax), np.abs(dx * ax + dy * ay))   # in [0, π/2]
        phi = np.arcsin(np.clip((f[:, 2] + g[:, 2]) / dd, 0.0, 1.0))
    theta = math.asin(min(1.0, (a.r + b.r) / dl))
    return ~(psi > theta + phi + _CONE_MARGIN)  # NaN (coincident centres) keeps the pair


def _pair_candidates(a: Disc, b: Disc, feats: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Common tangents of every pair of features except the two bases' own pair, kept when they meet both bases."""
    k = len(feats)
    if k <= 2:
        return np.zeros((0, 2)), np.zeros(0)
    ii, jj = _pair_indices(k) if FAST_PATH else _pair_indices.__wrapped__(k)
    if FAST_PATH:
        keep = _may_meet_both(a, b, feats[ii], feats[jj])
        ii, jj = ii[keep], jj[keep]
    n2, c2 = common_tangents(feats[ii], feats[jj])
    da = np.abs(n2 @ np.array([a.x, a.y]) + c2)
    db = np.abs(n2 @ np.array([b.x, b.y]) + c2)
    sel = (da <= a.r + 1e-12) & (db <= b.r + 1e-12)
    return n2[sel], c2[sel]


def _first_stage(a: Disc, b: Disc) -> tuple[np.ndarray, np.ndarray]:
    """The lines of the search's first stage: the centre line, then the common tangents of the two bases."""
    n0, c0 = _line_through(a, b)
    n1, c1 = common_tangents(np.array([(a.x, a.y, a.r)], dtype=float), np.array([(b.x, b.y, b.r)], dtype=float))
    return np.concatenate([n0, n1]), np.concatenate([c0, c1])


def _first_stage_batch(pairs: Sequence[tuple[Disc, Disc]], keys: Sequence) -> dict:
    """``{key: segments}``: the gap segments (NaN rows dropped) of :func:`_first_stage`'s lines of every pair, with
    no clip, computed for all pairs in one numpy pass: element by element the same operations on the same numbers
    as :func:`common_tangents` and :func:`gap_segments` (the centre line by :func:`_line_through` itself), so each
    pair's rows are bit for bit those of the one-pair computation, in the same order. Empty on the former path."""
    if not FAST_PATH or not pairs:
        return {}
    f = np.array([(a.x, a.y, a.r) for a, _ in pairs], dtype=float)
    g = np.array([(b.x, b.y, b.r) for _, b in pairs], dtype=float)
    n, c, valid = _tangent_blocks(f, g)   # common_tangents, keeping the (4, n) blocks and their mask
    # every pair's lines in its own order: the centre line, then its valid tangents block by block
    m = len(pairs)
    lines_n = np.zeros((m, 5, 2))
    lines_c = np.zeros((m, 5))
    keep = np.ones((m, 5), dtype=bool)
    same = np.zeros(m, dtype=bool)  # coincident centres: no centre line (left to the one-pair path)
    for i, (a, b) in enumerate(pairs):
        if a.x == b.x and a.y == b.y:
            same[i] = True
            continue
        n0, c0 = _line_through(a, b)
        lines_n[i, 0], lines_c[i, 0] = n0[0], c0[0]
    lines_n[:, 1:] = n.transpose(1, 0, 2)
    lines_c[:, 1:] = c.T
    keep[:, 1:] = valid.T
    # gap_segments with one pair of bases per line
    segs = _gap_segments_rows(lines_n.reshape(-1, 2), lines_c.reshape(-1), np.repeat(f, 5, axis=0),
                              np.repeat(g, 5, axis=0)).reshape(m, 5, 4)
    good = keep & ~np.isnan(segs).any(axis=2)
    return {k: segs[i][good[i]] for i, k in enumerate(keys) if not same[i]}


def _gap_segments_rows(nn: np.ndarray, cc: np.ndarray, fa: np.ndarray, fb: np.ndarray, *, tclip=None,
                       sclip=None) -> np.ndarray:
    """:func:`gap_segments` with a pair of bases per line: ``fa``, ``fb`` rows ``x, y, r``; element by element the
    same operations on the same numbers, so each row is bit for bit the one-pair result. ``tclip``, ``sclip``: each
    row's half-planes restricting the target's and the shooter's end (:func:`_lane_half_planes`; ``None``: no clip),
    applied as :func:`_gap_params_xy` applies a ``clip``."""
    nx, ny = nn[:, 0], nn[:, 1]
    px, py = -cc * nx, -cc * ny
    ux, uy = -ny, nx
    a0, a1 = _chords(px, py, ux, uy, fa[:, 0], fa[:, 1], fa[:, 2])
    b0, b1 = _chords(px, py, ux, uy, fb[:, 0], fb[:, 1], fb[:, 2])
    if sclip is not None:
        a0, a1 = _clip_chord_lanes(a0, a1, px, py, ux, uy, sclip)
    if tclip is not None:
        b0, b1 = _clip_chord_lanes(b0, b1, px, py, ux, uy, tclip)
    forward = a1 <= b0
    ta = np.where(forward, a1, a0)
    tb = np.where(forward, b0, b1)
    bad = np.isnan(a0) | np.isnan(b0) | (~forward & ~(b1 <= a0))
    segs = np.stack([px + ta * ux, py + ta * uy, px + tb * ux, py + tb * uy], axis=1)
    segs[bad] = np.nan
    return segs


def _blocked_rows(seg_lists: Sequence[np.ndarray], searches: Sequence["_Search"], *, touching_blocks: bool,
                  tol: float) -> list[np.ndarray]:
    """:func:`blocked_mask` of each ``seg_lists[i]`` against ``searches[i]``'s local obstacles and test geometry,
    for all searches in one pass: every (segment, disc) pair of :func:`_discs_block` and every (segment, polygon)
    predicate computed element by element on the same numbers, so each mask is the one-search mask."""
    sizes = [len(x) for x in seg_lists]
    n = sum(sizes)
    out = np.zeros(n, dtype=bool)
    if n == 0:
        return [out[:0] for _ in sizes]
    segs = np.concatenate([x for x in seg_lists if len(x)]) if n else np.zeros((0, 4))
    starts = np.concatenate([[0], np.cumsum(sizes)])
    # discs: each search's segments against its own discs, flattened (segment-major, as the (n, k) matrix)
    rows, drows = [], []
    for i, srch in enumerate(searches):
        if sizes[i] and srch.local.discs:
            d = np.array([[dd.x, dd.y, dd.r] for _, dd in srch.local.discs])
            k = len(d)
            rows.append(np.repeat(np.arange(starts[i], starts[i + 1]), k))
            drows.append(np.tile(d, (sizes[i], 1)))
    if rows:
        si, d = np.concatenate(rows), np.concatenate(drows)
        x0, y0, x1, y1 = (segs[si, j] for j in range(4))
        vx, vy = x1 - x0, y1 - y0
        ll = vx * vx + vy * vy
        with np.errstate(invalid="ignore", divide="ignore"):
            t = np.clip(((d[:, 0] - x0) * vx + (d[:, 1] - y0) * vy) / np.where(ll > 0, ll, 1.0), 0.0, 1.0)
        dist = np.hypot(x0 + t * vx - d[:, 0], y0 + t * vy - d[:, 1])
        hit = dist <= d[:, 2] + tol if touching_blocks else dist < d[:, 2] - tol
        out[si[hit]] = True
    # polygons: each remaining segment against its search's (prepared) test geometry
    geoms = np.empty(n, dtype=object)
    has = np.zeros(n, dtype=bool)
    for i, srch in enumerate(searches):
        if sizes[i] and not srch.test_geom.is_empty:
            geoms[starts[i]:starts[i + 1]] = srch.test_geom
            has[starts[i]:starts[i + 1]] = True
    todo = np.flatnonzero(~out & has)
    if len(todo):
        lines = _segments_to_lines(segs[todo])
        # the prepared test geometries first: GEOS uses a geometry's preparation only as the first argument (the
        # predicates are symmetric: the same answers, many times faster)
        if touching_blocks:
            out[todo] = shapely.dwithin(geoms[todo], lines, tol)
        else:
            out[todo] = shapely.intersects(geoms[todo], lines)
    return [out[starts[i]:starts[i + 1]] for i in range(len(sizes))]


def _pair_candidates_rows(items: Sequence[tuple[Disc, Disc, np.ndarray]]) -> list[tuple[np.ndarray, np.ndarray]]:
    """:func:`_pair_candidates` (fast path) of several searches ``(a, b, features)`` at once: the direction-cone
    filter and the common tangents of every search's feature pairs in one numpy pass (element by element the same
    arithmetic, each search's lines regrouped block by block in its own order); the final selection stays per
    search. Each result is bit for bit the one-search result."""
    F, G, owner, ax_, ay_, th_ = [], [], [], [], [], []
    for p, (a, b, feats) in enumerate(items):
        k = len(feats)
        if k <= 2:
            continue
        ii, jj = _pair_indices(k)
        F.append(feats[ii])
        G.append(feats[jj])
        owner.append(np.full(len(ii), p))
        ax, ay = b.x - a.x, b.y - a.y
        dl = math.hypot(ax, ay)
        ax_.append(ax)
        ay_.append(ay)
        th_.append(math.asin(min(1.0, (a.r + b.r) / dl)))
    out = [(np.zeros((0, 2)), np.zeros(0))] * len(items)
    if not F:
        return out
    sizes = [len(x) for x in F]
    f, g, owner = np.concatenate(F), np.concatenate(G), np.concatenate(owner)
    ax, ay, theta = (np.repeat(np.array(v, dtype=float), sizes) for v in (ax_, ay_, th_))
    # _may_meet_both, per row
    dx, dy = g[:, 0] - f[:, 0], g[:, 1] - f[:, 1]
    dd = np.hypot(dx, dy)
    with np.errstate(invalid="ignore", divide="ignore"):
        psi = np.arctan2(np.abs(dx * ay - dy * ax), np.abs(dx * ax + dy * ay))
        phi = np.arcsin(np.clip((f[:, 2] + g[:, 2]) / dd, 0.0, 1.0))
    keep = ~(psi > theta + phi + _CONE_MARGIN)
    f, g, owner = f[keep], g[keep], owner[keep]
    n, c, valid = _tangent_blocks(f, g)
    # every search's valid lines block by block, in one pass: the four blocks one after the other, each in owner
    # order, then a stable sort by owner (each search's block 0 rows, then its block 1 rows, ...)
    m = len(owner)
    order = np.argsort(np.tile(owner, 4), kind="stable")
    keep_rows = valid.reshape(-1)[order]
    order = order[keep_rows]
    n_all, c_all = n.reshape(4 * m, 2)[order], c.reshape(-1)[order]
    cuts = np.searchsorted(np.tile(owner, 4)[order], np.arange(len(items) + 1))
    for p, (a, b, feats) in enumerate(items):
        lo, hi = cuts[p], cuts[p + 1]
        if len(feats) <= 2:
            continue
        # fresh contiguous arrays, as the concatenation of the four blocks made them (the matrix products below
        # then run on the same arrays)
        n2 = n_all[lo:hi].copy()
        c2 = c_all[lo:hi].copy()
        da = np.abs(n2 @ np.array([a.x, a.y]) + c2)
        db = np.abs(n2 @ np.array([b.x, b.y]) + c2)
        sel = (da <= a.r + 1e-12) & (db <= b.r + 1e-12)
        out[p] = (n2[sel], c2[sel])
    return out


def find_clear_segments(items: Sequence[tuple[Disc, Disc, Obstacles]], *, touching_blocks: bool,
                        tol: float = TOL, keep: list | None = None,
                        clips: Sequence[Sequence[HalfPlane]] | None = None) -> list[ClearResult]:
    """:func:`find_clear_segment` of many searches ``(a, b, obstacles)`` at once, each answer the one-search answer
    (witness bit for bit, candidate count). ``clips``: each search's ``clip`` (default: none); a clipped search's
    first-stage and candidate lines are cut by its half-planes as :func:`find_clear_segment` cuts them (one
    :func:`gap_segments` call per clipped search), its blocking tests asked with the others'.

    Each search's obstacles, features and first-stage segments are set up as by :func:`find_clear_segment`; the
    blocking tests of the first stage, the direction-cone filter and common tangents of the feature pairs, the gap
    segments of the candidate lines and their blocking tests run for all searches together (element by element the
    same arithmetic and predicates). Searches between touching bases, or whose obstacles are not indexed, and every
    search on the former path (``fast_path(False)``), go through :func:`find_clear_segment` itself.

    ``keep``: a list that receives each search's set-up (its obstacles and features; ``None`` for a search made by
    :func:`find_clear_segment`), for :func:`shortest_clear_segments` of the same searches to reuse.
    """
    out: list[ClearResult | None] = [None] * len(items)
    if keep is not None:
        keep[:] = [None] * len(items)
    clips = clips if clips is not None else [()] * len(items)
    fast = []
    for k, (a, b, obs) in enumerate(items):
        if not FAST_PATH or a.distance_to(b) <= tol or not obs._indexed():
            out[k] = find_clear_segment(a, b, obs, touching_blocks=touching_blocks, tol=tol, clip=clips[k])
        else:
            fast.append(k)
    # the regions (one call per index) and the discs' distance test of _local_obstacles, for all searches at once
    regions: dict[int, BaseGeometry] = {}
    by_index: dict[int, list[int]] = {}
    for k in fast:
        by_index.setdefault(id(items[k][2].index), []).append(k)
    for ks in by_index.values():
        ix = items[ks[0]][2].index
        got = ix.regions([(items[k][0], items[k][1]) for k in ks], 10 * tol)
        regions.update((k, g[0]) for k, g in zip(ks, got))
        # the unions of every search's polygons (the sets _local_obstacles will ask for), built together
        keys = []
        for k, g in zip(ks, got):
            obs = items[k][2]
            pos = obs._inverse[g[1]]
            keys.append(tuple(int(i) for i in obs._ids[np.sort(pos[pos >= 0])]))
        ix.build_unions(keys, touching_blocks, tol)
    with_discs = [k for k in fast if items[k][2].discs]
    near: dict[int, np.ndarray] = {}
    if with_discs:
        regs, pts, rr, cuts = [], [], [], [0]
        for k in with_discs:
            obs = items[k][2]
            p = obs.disc_points
            if p is None:
                p = shapely.points([d.center for _, d in obs.discs])
            regs.append(np.full(len(p), regions[k], dtype=object))
            pts.append(p)
            rr.append(np.array([d.r for _, d in obs.discs]))
            cuts.append(cuts[-1] + len(p))
        hit = shapely.distance(np.concatenate(regs), np.concatenate(pts)) <= np.concatenate(rr) + 10 * tol
        near = {k: hit[cuts[i]:cuts[i + 1]] for i, k in enumerate(with_discs)}
    work = []
    for k in fast:
        a, b, obs = items[k]
        srch = _search_setup(a, b, obs, touching_blocks=touching_blocks, tol=tol, clip=clips[k], near=near.get(k))
        if keep is not None:
            keep[k] = srch
        work.append([k, a, b, srch, srch.first])
    # the first-stage lines of the searches without one kept (the clipped ones): their gap segments in one pass
    bare = [w for w in work if w[4] is None]
    if bare:
        lines = [_first_stage(a, b) for _, a, b, _, _ in bare]
        sizes = [len(n) for n, _ in lines]
        cl = [clips[w[0]] for w in bare]
        segs = _gap_segments_rows(np.concatenate([n for n, _ in lines]), np.concatenate([c for _, c in lines]),
                                  np.repeat(np.array([(w[1].x, w[1].y, w[1].r) for w in bare], dtype=float), sizes, 0),
                                  np.repeat(np.array([(w[2].x, w[2].y, w[2].r) for w in bare], dtype=float), sizes, 0),
                                  tclip=_lane_half_planes([tuple(c) for c in cl], sizes),
                                  sclip=_lane_half_planes([_shooter_clip(c) for c in cl], sizes))
        for w, part in zip(bare, np.split(segs, np.cumsum(sizes)[:-1])):
            w[4] = part[~np.isnan(part).any(axis=1)]
    # 1. the centre line and the common tangents of the two bases
    masks = _blocked_rows([w[4] for w in work], [w[3] for w in work], touching_blocks=touching_blocks, tol=tol)
    later = []
    for (k, a, b, srch, first), blocked in zip(work, masks):
        free = np.flatnonzero(~blocked)
        if len(free):
            s = first[free[0]]
            out[k] = ClearResult(Segment((float(s[0]), float(s[1])), (float(s[2]), float(s[3]))), len(first))
        else:
            later.append((k, a, b, srch, len(first)))
    # 2. every pair of features (their edge tests asked together)
    _prefetch_features([w[3] for w in later])
    cands = _pair_candidates_rows([(a, b, srch.features) for _, a, b, srch, _ in later])
    # the gap segments of every search's candidate lines in one pass (row by row the same arithmetic)
    sizes = [len(n2) for n2, _ in cands]
    seg_lists = [np.zeros((0, 4))] * len(later)
    if sum(sizes):
        fa = np.array([(a.x, a.y, a.r) for _, a, _, _, _ in later], dtype=float)
        fb = np.array([(b.x, b.y, b.r) for _, _, b, _, _ in later], dtype=float)
        cl = [clips[k] for k, *_ in later]  # a clipped search's lines cut by its own half-planes
        segs = _gap_segments_rows(np.concatenate([n2.reshape(-1, 2) for n2, _ in cands]),
                                  np.concatenate([c2 for _, c2 in cands]), np.repeat(fa, sizes, axis=0),
                                  np.repeat(fb, sizes, axis=0), tclip=_lane_half_planes([tuple(c) for c in cl], sizes),
                                  sclip=_lane_half_planes([_shooter_clip(c) for c in cl], sizes))
        for i, part in enumerate(np.split(segs, np.cumsum(sizes)[:-1])):
            if sizes[i]:
                seg_lists[i] = part[~np.isnan(part).any(axis=1)]
    masks = _blocked_rows(seg_lists, [w[3] for w in later], touching_blocks=touching_blocks, tol=tol)
    for (k, a, b, srch, tested), segs, blocked in zip(later, seg_lists, masks):
        free = np.flatnonzero(~blocked)
        w = None
        if len(free):
            s = segs[free[0]]
            w = Segment((float(s[0]), float(s[1])), (float(s[2]), float(s[3])))
        out[k] = ClearResult(w, tested + len(segs))
    return out


def find_clear_segment(a: Disc, b: Disc, obstacles: Obstacles, *, touching_blocks: bool,
                       tol: float = TOL, clip: Sequence[HalfPlane] = ()) -> ClearResult:
    """Exact search for a segment from a point of ``a`` to a point of ``b`` clear of ``obstacles``.

    Args:
        a, b: the two bases (must not overlap each other).
        obstacles: what blocks (polygons and discs); obstacles should not overlap ``a`` or ``b``.
        touching_blocks: grazing policy (see module docstring).
        tol: numeric tolerance in board units.
        clip: half-planes restricting the target to a part of ``b`` (e.g. the part inside the shooter's arc); the
            chord endpoints where their lines cross ``b``'s edge join the features. A :class:`ClipBoth` restricts
            the shooter's end as well (its chord endpoints on ``a``'s edge join the features too).

    Returns:
        :class:`ClearResult` (``witness`` is ``None`` when every segment is blocked).
    """
    if a.distance_to(b) <= tol:  # the bases touch: the contact point joins them
        d = math.hypot(b.x - a.x, b.y - a.y) or 1.0
        p = (a.x + (b.x - a.x) * a.r / d, a.y + (b.y - a.y) * a.r / d)
        if all(hx * p[0] + hy * p[1] + hc >= -tol for hx, hy, hc in (*clip, *_shooter_clip(clip))):
            return ClearResult(Segment(p, p), 0, contact=True)
    srch = _search_setup(a, b, obstacles, touching_blocks=touching_blocks, tol=tol, clip=clip)
    tested = 0

    def try_lines(normals, offsets):
        nonlocal tested
        segs = gap_segments(normals, offsets, a, b, clip)
        segs = segs[~np.isnan(segs).any(axis=1)]
        tested += len(segs)
        return _first_clear(segs, srch.local, touching_blocks=touching_blocks, tol=tol, polygon=srch.test_geom)

    # 1. the centre line and the common tangents of the two bases
    if srch.first is not None:
        tested += len(srch.first)
        w = _first_clear(srch.first, srch.local, touching_blocks=touching_blocks, tol=tol, polygon=srch.test_geom)
    else:
        w = try_lines(*_first_stage(a, b))
    if w is not None:
        return ClearResult(w, tested)
    # 2. every pair of features
    n2, c2 = _pair_candidates(a, b, srch.features)
    if len(n2):
        w = try_lines(n2, c2)
        if w is not None:
            return ClearResult(w, tested)
    return ClearResult(None, tested)


# ------------------------------------------------------------------------------------------------- shortest clear


_ARC_SAMPLES = 32
"""Lines sampled along each clear arc of a feature's family before the golden-section refinement."""
_GOLDEN_STEPS = 60
"""Golden-section iterations: the bracket shrinks by 0.618**60 (about 3e-13 of two sample steps)."""


def _tangent_lines(feats: np.ndarray, phi: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Lines tangent to feature ``feats[i]`` with normal angle ``phi[i, j]`` (the feature's centre at signed
    distance ``+r`` from the line): ``(normals (..., 2), offsets (...))``."""
    n = np.stack([np.cos(phi), np.sin(phi)], axis=-1)
    c = feats[:, None, 2] - n[..., 0] * feats[:, None, 0] - n[..., 1] * feats[:, None, 1]
    return n, c


def _gap_lengths(normals: np.ndarray, offsets: np.ndarray, a: Disc, b: Disc, clip) -> np.ndarray:
    """Gap segment lengths of the lines (``inf`` where a line misses a base)."""
    shape = offsets.shape
    if FAST_PATH:  # the same coordinates, without stacking them into segments first
        px, py, ux, uy, ta, tb, bad = _gap_params(normals.reshape(-1, 2), offsets.reshape(-1), a, b, clip)
        g = np.hypot((px + tb * ux) - (px + ta * ux), (py + tb * uy) - (py + ta * uy))
        g[bad] = np.inf
        return g.reshape(shape)
    segs = gap_segments(normals.reshape(-1, 2), offsets.reshape(-1), a, b, clip)
    g = np.hypot(segs[:, 2] - segs[:, 0], segs[:, 3] - segs[:, 1]).reshape(shape)
    return np.where(np.isnan(g), np.inf, g)


def _family_minima(a: Disc, b: Disc, feats: np.ndarray, pair_n: np.ndarray, pair_c: np.ndarray, clip,
                   is_clear) -> tuple[np.ndarray, np.ndarray]:
    """:func:`_family_minima_steps` run on its own (its golden-section search alone)."""
    return _drive(_family_minima_steps(a, b, feats, pair_n, pair_c, clip, is_clear))


def _drive(gen):
    """Run a search written as a generator (:func:`_family_minima_steps`, :func:`_shortest_steps`) on its own: each
    golden-section job it yields is solved alone (:func:`_golden_one`); returns what the generator returns."""
    try:
        job = next(gen)
        while True:
            job = gen.send(_golden_one(job))
    except StopIteration as stop:
        return stop.value


def _golden_one(job) -> np.ndarray:
    """The golden-section loop of one search's lanes, as :func:`_family_minima` always ran it: on Python floats up to
    :data:`_GOLDEN_SCALAR_LANES` lanes, else on numpy arrays; a clipped search's (``job[8]``, the ``clip``) on numpy
    arrays with its half-planes (:func:`_golden_lanes`, bit for bit :func:`_golden_numpy` with the clip)."""
    a, b, f, blo, bhi, x1, x2, ratio, clip = job
    if clip:  # a clipped search: the lanes' loop with the clip's half-planes (_golden_lanes), as _golden_batch
        return _golden_batch([job])[0]
    if len(f) <= _GOLDEN_SCALAR_LANES:
        return _golden_scalar(a, b, f, blo, bhi, x1, x2, ratio)
    return _golden_numpy(_lane_gap(f, a, b), blo, bhi, x1, x2, ratio)


def _lane_gap(f: np.ndarray, a, b):
    """The gap length of the line tangent to feature ``f[i]`` at normal angle ``p[i]`` (no clip), as a function of
    ``p``; ``a`` and ``b`` are the bases, or objects whose ``x``, ``y``, ``r`` are arrays with one value per lane."""
    fx, fy, fr = f[:, 0], f[:, 1], f[:, 2]

    def gap(p):
        nx, ny = np.cos(p), np.sin(p)
        px, py, ux, uy, ta, tb, bad = _gap_params_xy(nx, ny, fr - nx * fx - ny * fy, a, b, ())
        g = np.hypot((px + tb * ux) - (px + ta * ux), (py + tb * uy) - (py + ta * uy))
        g[bad] = np.inf
        return g
    return gap


def _golden_batch(jobs: list) -> list[np.ndarray]:
    """The golden-section loops of many searches run as one: every lane of every job in one array, each lane with its
    own bases (:func:`_lane_gap`) and, for a clipped search (``job[8]``), its own half-planes (the target's, and under
    :class:`ClipBoth` the shooter's; :func:`_lane_half_planes`). Element by element the arithmetic of
    :func:`_golden_numpy` on each job alone, which :func:`_golden_scalar` repeats bit for bit (numpy's ``cos``, ``sin`` and ``hypot`` are taken
    element by element whatever the length of the array; ``tests/tagraid/test_lof_fast_path.py`` checks the
    batch against each job alone)."""
    from types import SimpleNamespace

    if not jobs:
        return []
    sizes = [len(j[2]) for j in jobs]
    f = np.concatenate([j[2] for j in jobs])
    ga = SimpleNamespace(**{k: np.repeat([getattr(j[0], k) for j in jobs], sizes).astype(float) for k in "xyr"})
    gb = SimpleNamespace(**{k: np.repeat([getattr(j[1], k) for j in jobs], sizes).astype(float) for k in "xyr"})
    cat = [np.concatenate([j[i] for j in jobs]) for i in (3, 4, 5, 6)]
    clips = [j[8] for j in jobs]
    tclip = _lane_half_planes([tuple(c) for c in clips], sizes)
    sclip = _lane_half_planes([_shooter_clip(c) for c in clips], sizes)
    best = _golden_lanes(f, ga, gb, *cat, jobs[0][7], tclip=tclip, sclip=sclip)
    return np.split(best, np.cumsum(sizes)[:-1])


_NO_HALF_PLANE = (0.0, 0.0, 1.0)
"""The half-plane ``0·x + 0·y + 1 >= 0`` (the whole plane): :func:`_lane_half_planes`' padding. In
:func:`_clip_chord` it changes nothing, bit for bit: its ``du`` is 0, so neither end moves, and its ``dp`` is 1, so
the chord is never emptied."""


def _lane_half_planes(clips: Sequence[Sequence[HalfPlane]], sizes: Sequence[int]):
    """The half-planes of each job's ``clip`` repeated over its ``sizes[j]`` lanes: ``(hx, hy, hc)``, three arrays of
    shape ``(K, lanes)`` (``K`` the most half-planes of any job; the others padded with :data:`_NO_HALF_PLANE`
    after their own, so each lane meets its own half-planes in their order); ``None`` when no job has one."""
    k = max((len(c) for c in clips), default=0)
    if k == 0:
        return None
    rows = np.array([list(c) + [_NO_HALF_PLANE] * (k - len(c)) for c in clips], dtype=float)  # (jobs, K, 3)
    lanes = np.repeat(rows, sizes, axis=0)                                                   # (lanes, K, 3)
    return lanes[:, :, 0].T.copy(), lanes[:, :, 1].T.copy(), lanes[:, :, 2].T.copy()


def _clip_chord_lanes(t0: np.ndarray, t1: np.ndarray, px, py, ux, uy, planes) -> tuple[np.ndarray, np.ndarray]:
    """:func:`_clip_chord` with one set of half-planes per lane (``planes``: :func:`_lane_half_planes`' arrays):
    element by element the same operations in the same order (a lane's padding changes nothing; the final test
    changes no chord that was not cut, whose ``t0 <= t1``)."""
    hxs, hys, hcs = planes
    where, maximum, minimum, absolute, nan = np.where, np.maximum, np.minimum, np.abs, np.nan
    for hx, hy, hc in zip(hxs, hys, hcs):
        du = hx * ux + hy * uy
        dp = hx * px + hy * py + hc
        with np.errstate(invalid="ignore", divide="ignore"):
            tstar = -dp / where(absolute(du) > 1e-15, du, 1.0)
        t0 = where(du > 1e-15, maximum(t0, tstar), t0)
        t1 = where(du < -1e-15, minimum(t1, tstar), t1)
        empty = (absolute(du) <= 1e-15) & (dp < -1e-12)
        t0 = where(empty, nan, t0)
    t0 = where(t0 > t1 + 1e-12, nan, t0)
    return t0, t1


def _golden_lanes(f: np.ndarray, a, b, blo: np.ndarray, bhi: np.ndarray, x1: np.ndarray, x2: np.ndarray,
                  ratio: float, *, tclip=None, sclip=None) -> np.ndarray:
    """``_golden_numpy(_lane_gap(f, a, b), blo, bhi, x1, x2, ratio)`` (``a``, ``b``: one base per lane) with fewer
    numpy calls and the same result bit for bit: the two bases' chords (:func:`_chords`) computed as one array of
    twice the lanes (every element the same operations on the same operands), the lanes' constants (``r * r``, the
    threshold ``-1e-12 * max(r, 1)``) once for the whole loop, ``ratio * (bhi - blo)`` once per step (the loop
    computed the same product twice) and the bracket's next points selected in one step each (the loop's
    ``keep_x``/``keep_g`` were a selection of the same values). ``cos``, ``sin``, ``hypot`` and ``sqrt`` are called on
    arrays of the same lanes as before (the first three element by element, ``sqrt`` correctly rounded).

    ``tclip``, ``sclip``: each lane's half-planes restricting the target's and the shooter's end
    (:func:`_lane_half_planes`; ``None``: none), applied as :func:`_gap_params_xy` applies a ``clip``
    (:func:`_clip_chord_lanes`), so a clipped search ends on :func:`_golden_numpy`'s angles with its ``clip``."""
    m = len(f)
    fx, fy, fr = f[:, 0], f[:, 1], f[:, 2]
    cx, cy, cr = (np.concatenate([getattr(a, k), getattr(b, k)]) for k in "xyr")
    rr = cr * cr
    floor = -1e-12 * np.maximum(cr, 1.0)
    where, isnan, sqrt, maximum, hypot, inf, nan = np.where, np.isnan, np.sqrt, np.maximum, np.hypot, np.inf, np.nan
    cat = np.concatenate

    def gap(p):
        nx, ny = np.cos(p), np.sin(p)
        no = -(fr - nx * fx - ny * fy)
        px, py = no * nx, no * ny
        ux, uy = -ny, nx
        px2, py2, ux2, uy2 = cat([px, px]), cat([py, py]), cat([ux, ux]), cat([uy, uy])
        tc = (cx - px2) * ux2 + (cy - py2) * uy2
        qx, qy = px2 + tc * ux2 - cx, py2 + tc * uy2 - cy
        h2 = rr - (qx * qx + qy * qy)
        h = sqrt(where(h2 >= floor, maximum(h2, 0.0), nan))
        lo, hi = tc - h, tc + h
        a0, a1, b0, b1 = lo[:m], hi[:m], lo[m:], hi[m:]
        if sclip is not None:
            a0, a1 = _clip_chord_lanes(a0, a1, px, py, ux, uy, sclip)
        if tclip is not None:
            b0, b1 = _clip_chord_lanes(b0, b1, px, py, ux, uy, tclip)
        forward = a1 <= b0
        ta = where(forward, a1, a0)
        tb = where(forward, b0, b1)
        bad = isnan(a0) | isnan(b0) | (~forward & ~(b1 <= a0))
        g = hypot((px + tb * ux) - (px + ta * ux), (py + tb * uy) - (py + ta * uy))
        return where(bad, inf, g)

    g1, g2 = gap(x1), gap(x2)
    for _ in range(_GOLDEN_STEPS):
        left = g1 <= g2
        bhi, blo = where(left, x2, bhi), where(left, blo, x1)
        rd = ratio * (bhi - blo)
        new_x = where(left, bhi - rd, blo + rd)
        new_g = gap(new_x)
        # left: x1, x2 = new_x, x1 (the kept point); else: x1, x2 = x2 (the kept point), new_x
        x1, x2 = where(left, new_x, x2), where(left, x1, new_x)
        g1, g2 = where(left, new_g, g2), where(left, g1, new_g)
    return where(g1 <= g2, x1, x2)


def _family_minima_steps(a: Disc, b: Disc, feats: np.ndarray, pair_n: np.ndarray, pair_c: np.ndarray, clip,
                         is_clear):
    """Lines where the gap length is locally smallest among the clear lines tangent to one feature.

    The lines tangent to feature ``f`` form a one-parameter family (normal angle ``phi``). The lines of the family
    that also touch another feature (among ``pair_n``/``pair_c``, the common tangents of every pair, the two bases'
    included) cut it into arcs; inside an arc the line touches nothing else, so it meets both bases or misses one,
    and is clear or blocked, all along the arc (the features include every polygon edge's ends, so a line cannot
    turn into an obstacle without passing through a feature). ``is_clear(segs)`` is called on one line per arc;
    on each clear arc the gap length is sampled and every local minimum refined by golden-section search (the arc's
    ends are already among the pair candidates)."""
    k = len(feats)
    if k == 0 or len(pair_n) == 0:
        return np.zeros((0, 2)), np.zeros(0)
    # which features each pair line touches (signed distance +-r), oriented per feature
    sd = pair_n @ feats[:, :2].T + pair_c[:, None]                      # (m, k)
    touch = np.abs(np.abs(sd) - feats[None, :, 2]) <= 1e-9 * (1 + np.abs(sd))
    li, fi = np.nonzero(touch)
    sign = np.where(sd[li, fi] >= 0, 1.0, -1.0)
    phi = np.arctan2(sign * pair_n[li, 1], sign * pair_n[li, 0]) % (2 * np.pi)
    point = feats[fi, 2] == 0  # lines through a point appear twice in the family (phi and phi + pi)
    fi = np.concatenate([fi, fi[point]])
    phi = np.concatenate([phi, (phi[point] + np.pi) % (2 * np.pi)])
    if FAST_PATH and len(fi) and not np.isnan(phi).any():
        fam, lo, hi = _family_arcs(fi, phi)
    else:
        fam, lo, hi = [], [], []
        for f in np.unique(fi):
            br = np.unique(np.round(np.sort(phi[fi == f]), 15))
            if len(br) == 0:
                continue
            nxt = np.append(br[1:], br[0] + 2 * np.pi)
            keep = nxt - br > 1e-12
            fam.append(np.full(int(keep.sum()), f))
            lo.append(br[keep])
            hi.append(nxt[keep])
        if not fam:
            return np.zeros((0, 2)), np.zeros(0)
        fam, lo, hi = np.concatenate(fam), np.concatenate(lo), np.concatenate(hi)
    f = feats[fam]
    # one line per arc: inside both bases' reach and clear?
    mid_n, mid_c = _tangent_lines(f, ((lo + hi) / 2)[:, None])
    segs = gap_segments(mid_n[:, 0], mid_c[:, 0], a, b, clip)
    ok = ~np.isnan(segs).any(axis=1)
    ok[ok] = is_clear(segs[ok])
    if not ok.any():
        return np.zeros((0, 2)), np.zeros(0)
    f, lo, hi = f[ok], lo[ok], hi[ok]
    t = np.linspace(0.0, 1.0, _ARC_SAMPLES + 1)
    x = lo[:, None] + (hi - lo)[:, None] * t[None, :]
    g = _gap_lengths(*_tangent_lines(f, x), a, b, clip)
    inner = (g[:, 1:-1] <= g[:, :-2]) & (g[:, 1:-1] <= g[:, 2:]) & np.isfinite(g[:, 1:-1])
    ai, si = np.nonzero(inner)
    if len(ai) == 0:
        return np.zeros((0, 2)), np.zeros(0)
    f = f[ai]
    blo, bhi = x[ai, si], x[ai, si + 2]
    ratio = (math.sqrt(5) - 1) / 2

    x1, x2 = bhi - ratio * (bhi - blo), blo + ratio * (bhi - blo)
    if FAST_PATH:  # the caller runs it: alone (_golden_one) or with other searches' (_golden_batch)
        best = yield (a, b, f, blo, bhi, x1, x2, ratio, clip)
    else:
        def gap(p):
            return _gap_lengths(*_tangent_lines(f, p[:, None]), a, b, clip)[:, 0]
        best = _golden_numpy(gap, blo, bhi, x1, x2, ratio)
    n, c = _tangent_lines(f, best[:, None])
    return n[:, 0], c[:, 0]


def _family_arcs(fi: np.ndarray, phi: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The arcs of :func:`_family_minima_steps` (``fam``, ``lo``, ``hi``) for every feature at once: its loop over
    the features (each one's angles sorted, rounded to 15 decimals, made unique, each paired with the next one and
    the last with the first plus 2π, arcs under 1e-12 dropped) as one lexsort. Element by element the same
    rounding and the same sums; the same order (features ascending, angles ascending). For angles without NaN (so
    equal values are the same bits: the angles are taken modulo 2π, which never gives -0.0)."""
    r = np.round(phi, 15)
    order = np.lexsort((r, fi))
    fs, rs = fi[order], r[order]
    new = np.ones(len(rs), dtype=bool)
    new[1:] = (fs[1:] != fs[:-1]) | (rs[1:] != rs[:-1])
    fs, br = fs[new], rs[new]
    last = np.ones(len(fs), dtype=bool)        # the last angle of its feature
    last[:-1] = fs[1:] != fs[:-1]
    head = np.ones(len(fs), dtype=bool)        # the first angle of its feature
    head[1:] = last[:-1]
    start = np.maximum.accumulate(np.where(head, np.arange(len(fs)), 0))  # where its feature's angles start
    nxt = np.empty_like(br)
    nxt[:-1] = br[1:]
    nxt[last] = br[start[last]] + 2 * np.pi
    keep = nxt - br > 1e-12
    return fs[keep], br[keep], nxt[keep]


def _golden_numpy(gap, blo: np.ndarray, bhi: np.ndarray, x1: np.ndarray, x2: np.ndarray,
                  ratio: float) -> np.ndarray:
    """The golden-section loop of :func:`_family_minima` on numpy arrays (all lanes at once): the best angle of each
    lane, ``gap(angles)`` giving the gap lengths."""
    g1, g2 = gap(x1), gap(x2)
    for _ in range(_GOLDEN_STEPS):
        left = g1 <= g2  # the minimum is in [blo, x2]: drop (x2, bhi]; else in [x1, bhi]: drop [blo, x1)
        bhi, blo = np.where(left, x2, bhi), np.where(left, blo, x1)
        keep_x, keep_g = np.where(left, x1, x2), np.where(left, g1, g2)
        new_x = np.where(left, bhi - ratio * (bhi - blo), blo + ratio * (bhi - blo))
        new_g = gap(new_x)
        x1, g1 = np.where(left, new_x, keep_x), np.where(left, new_g, keep_g)
        x2, g2 = np.where(left, keep_x, new_x), np.where(left, keep_g, new_g)
    return np.where(g1 <= g2, x1, x2)


_GOLDEN_SCALAR_LANES = 24
"""Up to this many lanes (local minima) the golden-section search runs lane by lane on Python floats
(:func:`_golden_scalar`), where numpy's per-call cost would dominate; more lanes stay in numpy."""


def _golden_scalar(a: Disc, b: Disc, f: np.ndarray, blo: np.ndarray, bhi: np.ndarray, x1: np.ndarray,
                   x2: np.ndarray, ratio: float) -> np.ndarray:
    """The golden-section loop of :func:`_family_minima` (no clip) with the same result bit for bit: every
    ``+ - * /`` and square root is the same IEEE 754 operation on the same operands in the same order, done on
    Python floats instead of numpy arrays (both correctly rounded); ``cos``, ``sin`` and ``hypot``, whose results
    may depend on the implementation, are still numpy's, called on all lanes at once as before. ``np.where`` turns
    into ``if``; ``np.maximum(h2, 0.0)`` into ``h2 if h2 > 0.0 else 0.0`` (only the sign of a zero could differ,
    and it cannot reach a length). Returns the best angle of each lane."""
    ax, ay, ar, bx, by, br = a.x, a.y, a.r, b.x, b.y, b.r
    fa, fb = -1e-12 * max(ar, 1.0), -1e-12 * max(br, 1.0)
    fx, fy, fr = f[:, 0].tolist(), f[:, 1].tolist(), f[:, 2].tolist()
    m = len(fx)
    lanes = range(m)
    nan, inf, sqrt = math.nan, math.inf, math.sqrt
    cos, sin, hypot, asarray = np.cos, np.sin, np.hypot, np.asarray

    def gap(xs: list) -> list:
        arr = asarray(xs, dtype=float)
        cs, ss = cos(arr).tolist(), sin(arr).tolist()
        dxs, dys, bads = [0.0] * m, [0.0] * m, []
        for i in lanes:
            nx, ny = cs[i], ss[i]
            c = fr[i] - nx * fx[i] - ny * fy[i]
            px, py = -c * nx, -c * ny
            ux, uy = -ny, nx
            tc = (ax - px) * ux + (ay - py) * uy           # _chords(..., a)
            qx, qy = px + tc * ux - ax, py + tc * uy - ay
            h2 = ar * ar - (qx * qx + qy * qy)
            h = sqrt(h2 if h2 > 0.0 else 0.0) if h2 >= fa else nan
            a0, a1 = tc - h, tc + h
            tc = (bx - px) * ux + (by - py) * uy           # _chords(..., b)
            qx, qy = px + tc * ux - bx, py + tc * uy - by
            h2 = br * br - (qx * qx + qy * qy)
            h = sqrt(h2 if h2 > 0.0 else 0.0) if h2 >= fb else nan
            b0, b1 = tc - h, tc + h
            forward = a1 <= b0
            ta, tb = (a1, b0) if forward else (a0, b1)
            if a0 != a0 or b0 != b0 or (not forward and not (b1 <= a0)):
                bads.append(i)
            dxs[i] = (px + tb * ux) - (px + ta * ux)
            dys[i] = (py + tb * uy) - (py + ta * uy)
        g = hypot(asarray(dxs, dtype=float), asarray(dys, dtype=float)).tolist()
        for i in bads:
            g[i] = inf
        return g

    lo, hi, x1, x2 = blo.tolist(), bhi.tolist(), x1.tolist(), x2.tolist()
    g1, g2 = gap(x1), gap(x2)
    new_x = [0.0] * m
    keep_x, keep_g, left = [0.0] * m, [0.0] * m, [False] * m
    for _ in range(_GOLDEN_STEPS):
        for i in lanes:
            if g1[i] <= g2[i]:  # the minimum is in [blo, x2]: drop (x2, bhi]
                left[i] = True
                hi[i] = x2[i]
                keep_x[i], keep_g[i] = x1[i], g1[i]
                new_x[i] = hi[i] - ratio * (hi[i] - lo[i])
            else:               # in [x1, bhi]: drop [blo, x1)
                left[i] = False
                lo[i] = x1[i]
                keep_x[i], keep_g[i] = x2[i], g2[i]
                new_x[i] = lo[i] + ratio * (hi[i] - lo[i])
        new_g = gap(new_x)
        for i in lanes:
            if left[i]:
                x1[i], g1[i], x2[i], g2[i] = new_x[i], new_g[i], keep_x[i], keep_g[i]
            else:
                x1[i], g1[i], x2[i], g2[i] = keep_x[i], keep_g[i], new_x[i], new_g[i]
    return np.array([x1[i] if g1[i] <= g2[i] else x2[i] for i in lanes], dtype=float)


def shortest_clear_segments(items: Sequence[tuple[Disc, Disc, Obstacles]], *, touching_blocks: bool,
                            tol: float = TOL, searches: Sequence | None = None,
                            clips: Sequence[Sequence[HalfPlane]] | None = None) -> list[Segment | None]:
    """:func:`shortest_clear_segment` of each ``(a, b, obstacles)``, their golden-section searches run as one
    (:func:`_golden_batch`) and their features' edge tests asked together (:func:`_prefetch_features`): the same
    answers, bit for bit, as one search at a time.

    ``searches``: for each item, the set-up :func:`find_clear_segments` made for the same ``a``, ``b``,
    ``obstacles``, ``touching_blocks`` and ``tol`` (its ``keep``), or ``None``; the same obstacles and features
    :func:`_search_setup` would build again (only for an item without clip). ``clips``: each item's ``clip`` (the
    half-planes restricting ``b``, or a :class:`ClipBoth`; default: none for every item)."""
    clips = clips if clips is not None else [()] * len(items)
    srchs = []
    for k, (a, b, obs) in enumerate(items):
        srch = searches[k] if searches is not None and not clips[k] else None
        if srch is None and a.distance_to(b) > tol:
            srch = _search_setup(a, b, obs, touching_blocks=touching_blocks, tol=tol, clip=clips[k])
        srchs.append(srch)
    if FAST_PATH:
        _prefetch_features([sr for sr in srchs if sr is not None])
    gens = [_shortest_steps(a, b, obs, touching_blocks=touching_blocks, tol=tol, clip=c, srch=sr)
            for (a, b, obs), sr, c in zip(items, srchs, clips)]
    out: list[Segment | None] = [None] * len(gens)
    live, jobs = [], []
    for k, gen in enumerate(gens):
        try:
            jobs.append(next(gen))
            live.append(k)
        except StopIteration as stop:
            out[k] = stop.value
    while live:
        nxt_live, nxt_jobs = [], []
        for k, best in zip(live, _golden_batch(jobs)):
            try:
                nxt_jobs.append(gens[k].send(best))
                nxt_live.append(k)
            except StopIteration as stop:
                out[k] = stop.value
        live, jobs = nxt_live, nxt_jobs
    return out


def shortest_clear_segment(a: Disc, b: Disc, obstacles: Obstacles, *, touching_blocks: bool, tol: float = TOL,
                           clip: Sequence[HalfPlane] = ()) -> Segment | None:
    """The shortest clear gap segment between ``a`` and ``b`` (from ``a``'s edge to ``b``'s, or to the part of
    ``b`` inside ``clip``), or ``None`` when no clear segment exists: what the Range Ruler measures along the LoF.

    Same features and candidate lines as :func:`find_clear_segment`, so every segment it accepts is one the LoF
    search accepts too. Over the set of clear lines the gap length is smallest either (1) on the centre line (the
    unconstrained minimum), (2) on a line touching two features (the LoF candidates), or (3) on a line touching one
    feature where the length is stationary among the lines touching that feature; (3) is found on each arc of that
    feature's lines between two candidates of (2) that is clear (see :func:`_family_minima`), by sampling the arc
    and refining each local minimum by golden-section search. Candidates are tested in
    order of length and the first clear one is returned. Under ``touching_blocks`` the features are grown by
    ``2·tol`` (as in the LoF search), so the answer is a clear line within ``2·tol`` of the infimum.
    """
    return _drive(_shortest_steps(a, b, obstacles, touching_blocks=touching_blocks, tol=tol, clip=clip))


def _shortest_steps(a: Disc, b: Disc, obstacles: Obstacles, *, touching_blocks: bool, tol: float,
                    clip: Sequence[HalfPlane], srch: _Search | None = None):
    """:func:`shortest_clear_segment` as a generator yielding its golden-section job (see :func:`_drive`);
    ``srch``: its :func:`_search_setup`, already made."""
    if a.distance_to(b) <= tol:
        return find_clear_segment(a, b, obstacles, touching_blocks=touching_blocks, tol=tol, clip=clip).witness
    if srch is None:
        srch = _search_setup(a, b, obstacles, touching_blocks=touching_blocks, tol=tol, clip=clip)
    n0, c0 = _line_through(a, b)
    n1, c1 = common_tangents(srch.features[:1], srch.features[1:2])
    n2, c2 = _pair_candidates(a, b, srch.features)

    def is_clear(segs):
        return ~blocked_mask(segs, srch.local, touching_blocks=touching_blocks, tol=tol, polygon=srch.test_geom)

    n3, c3 = yield from _family_minima_steps(a, b, srch.features, np.concatenate([n1, n2]), np.concatenate([c1, c2]),
                                             clip, is_clear)
    segs = gap_segments(np.concatenate([n0, n1, n2, n3]), np.concatenate([c0, c1, c2, c3]), a, b, clip)
    segs = segs[~np.isnan(segs).any(axis=1)]
    if len(segs) == 0:
        return None
    lengths = np.hypot(segs[:, 2] - segs[:, 0], segs[:, 3] - segs[:, 1])
    order = np.argsort(lengths, kind="stable")
    segs = segs[order]
    chunk = 32
    for start in range(0, len(segs), chunk):
        w = _first_clear(segs[start:start + chunk], srch.local, touching_blocks=touching_blocks, tol=tol,
                         polygon=srch.test_geom)
        if w is not None:
            return w
        chunk = min(chunk * 2, 4096)
    return None


def point_target_clear(a: Disc, q: XY, obstacles: Obstacles, *, touching_blocks: bool, tol: float = TOL) -> bool:
    """Whether some segment from disc ``a`` to the point ``q`` avoids ``obstacles`` (exact, same method)."""
    return find_clear_segment(a, Disc(q[0], q[1], 0.0), obstacles, touching_blocks=touching_blocks,
                              tol=tol).witness is not None


# ------------------------------------------------------------------------------------------------- sampling oracle


def sample_boundary(d: Disc, n: int = 64) -> np.ndarray:
    """``n`` points evenly spaced on the edge of ``d`` (shape ``(n, 2)``)."""
    ang = np.linspace(0.0, 2 * math.pi, n, endpoint=False)
    return np.stack([d.x + d.r * np.cos(ang), d.y + d.r * np.sin(ang)], axis=1)


def sampled_clear_segment(a: Disc, b: Disc, obstacles: Obstacles, *, touching_blocks: bool, n: int = 64,
                          tol: float = TOL, clip: Sequence[HalfPlane] = ()) -> Segment | None:
    """The baseline a table-top tool would use: try all ``n × n`` segments between ``n`` points on each edge.

    Sound (a segment it returns is clear) but incomplete: it misses gaps narrower than its sampling. Test oracle and
    benchmark baseline only; the rules use :func:`find_clear_segment`.
    """
    if a.distance_to(b) <= tol:
        return find_clear_segment(a, b, obstacles, touching_blocks=touching_blocks, tol=tol, clip=clip).witness
    pa, pb = sample_boundary(a, n), sample_boundary(b, n)
    for hx, hy, hc in clip:
        pb = pb[hx * pb[:, 0] + hy * pb[:, 1] + hc >= 0]
    if len(pb) == 0:
        return None
    segs = np.concatenate([np.repeat(pa, len(pb), axis=0), np.tile(pb, (len(pa), 1))], axis=1)
    union = obstacles.union
    geom = union if touching_blocks else _eroded(union, tol)
    if not geom.is_empty:
        shapely.prepare(geom)
    # a segment between boundary points may cut through the bases themselves; that is allowed (it is inside a
    # Silhouette), so only obstacles are tested
    mask = blocked_mask(segs, obstacles, touching_blocks=touching_blocks, tol=tol, polygon=geom)
    free = np.flatnonzero(~mask)
    if len(free) == 0:
        return None
    s = segs[free[0]]
    return Segment((float(s[0]), float(s[1])), (float(s[2]), float(s[3])))


# ------------------------------------------------------------------------------------------------- swept bases


def _seg_interval(px, py, ux, uy, p: XY, q: XY, r: float):
    """Parameter interval where lines ``p0 + t·u`` meet the capsule of segment ``pq`` and radius ``r`` (NaN: miss).
    The capsule is convex: the union of its end discs and its rectangle, whose intervals overlap."""
    lo1, hi1 = _chords(px, py, ux, uy, p[0], p[1], r)
    lo2, hi2 = _chords(px, py, ux, uy, q[0], q[1], r)
    L = math.hypot(q[0] - p[0], q[1] - p[1])
    ex, ey = (q[0] - p[0]) / L, (q[1] - p[1]) / L
    nx_, ny_ = -ey, ex
    s0 = (px - p[0]) * ex + (py - p[1]) * ey
    d0 = (px - p[0]) * nx_ + (py - p[1]) * ny_
    su = ux * ex + uy * ey
    du = ux * nx_ + uy * ny_
    lo3 = np.full_like(px, -np.inf)
    hi3 = np.full_like(px, np.inf)
    for base, rate, lo_b, hi_b in ((s0, su, 0.0, L), (d0, du, -r, r)):
        with np.errstate(invalid="ignore", divide="ignore"):
            t_a = (lo_b - base) / rate
            t_b = (hi_b - base) / rate
        moving = np.abs(rate) > 1e-15
        lo3 = np.where(moving, np.maximum(lo3, np.minimum(t_a, t_b)), np.where((base >= lo_b) & (base <= hi_b),
                                                                               lo3, np.nan))
        hi3 = np.where(moving, np.minimum(hi3, np.maximum(t_a, t_b)), hi3)
    lo3 = np.where(lo3 > hi3, np.nan, lo3)
    hi3 = np.where(np.isnan(lo3), np.nan, hi3)
    with np.errstate(invalid="ignore"):
        lo = np.fmin(np.fmin(lo1, lo2), lo3)
        hi = np.fmax(np.fmax(hi1, hi2), hi3)
    return lo, hi


def find_clear_segment_to_swept(a: Disc, p: XY, q: XY, r: float, obstacles: Obstacles, *, touching_blocks: bool,
                                tol: float = TOL) -> ClearResult:
    """Exact search for a clear segment from disc ``a`` to the region swept by a base of radius ``r`` moving from
    ``p`` to ``q`` (a capsule): is the moving base visible from ``a`` at some moment of that stretch?

    Same candidate-line method as :func:`find_clear_segment`: the capsule's boundary is made of its two end circles
    and their outer common tangents, so the two end discs are the target's features.
    """
    if math.hypot(q[0] - p[0], q[1] - p[1]) <= 1e-12:
        return find_clear_segment(a, Disc(p[0], p[1], r), obstacles, touching_blocks=touching_blocks, tol=tol)
    seg = LineString([p, q])
    centre = Point(a.center)
    near = shapely.ops.nearest_points(seg, centre)[0]
    if seg.distance(centre) <= a.r + r + tol:  # the moving base touches a at some moment
        return find_clear_segment(a, Disc(near.x, near.y, r), obstacles, touching_blocks=touching_blocks, tol=tol)
    pad = 0.01 * max(a.r, r) + 10 * tol
    region = shapely.convex_hull(shapely.union_all([centre.buffer(a.r + pad, quad_segs=16),
                                                    seg.buffer(r + pad, quad_segs=16)]))
    local, union, test_geom = _local_obstacles(obstacles, region, touching_blocks=touching_blocks, tol=tol)
    grow = 2 * tol if touching_blocks else 0.0
    feats = [(a.x, a.y, a.r), (p[0], p[1], r), (q[0], q[1], r)] + _obstacle_features(local, union, region, grow)
    if not union.is_empty:
        feats += [(x, y, grow) for x, y in _contact_points(a, union, tol)]
        for part in getattr(union, "geoms", [union]):  # obstacles touching the swept region
            if part.distance(seg) <= r + 1e3 * tol:
                w = shapely.ops.nearest_points(part.boundary, seg)[0]
                feats.append((w.x, w.y, grow))
    F = np.array(feats, dtype=float)
    tested = 0

    def try_lines(normals, offsets):
        nonlocal tested
        nx, ny = normals[:, 0], normals[:, 1]
        px_, py_ = -offsets * nx, -offsets * ny
        ux, uy = -ny, nx
        a0, a1 = _chords(px_, py_, ux, uy, a.x, a.y, a.r)
        b0, b1 = _seg_interval(px_, py_, ux, uy, p, q, r)
        forward = a1 <= b0
        ta = np.where(forward, a1, a0)
        tb = np.where(forward, b0, b1)
        bad = np.isnan(a0) | np.isnan(b0) | (~forward & ~(b1 <= a0))
        segs = np.stack([px_ + ta * ux, py_ + ta * uy, px_ + tb * ux, py_ + tb * uy], axis=1)[~bad]
        tested += len(segs)
        return _first_clear(segs, local, touching_blocks=touching_blocks, tol=tol, polygon=test_geom)

    n0, c0 = _line_through(a, near)
    w = try_lines(n0, c0)
    if w is not None:
        return ClearResult(w, tested)
    ii, jj = np.triu_indices(len(F), 1)
    n2, c2 = common_tangents(F[ii], F[jj])
    da = np.abs(n2 @ np.array([a.x, a.y]) + c2)
    sp, sq = n2 @ np.array(p) + c2, n2 @ np.array(q) + c2
    dseg = np.where(np.sign(sp) != np.sign(sq), 0.0, np.minimum(np.abs(sp), np.abs(sq)))
    sel = (da <= a.r + 1e-12) & (dseg <= r + 1e-12)
    w = try_lines(n2[sel], c2[sel])
    return ClearResult(w, tested)
