"""Elevation: Models standing on scenery, and Line of Fire, Partial Cover and Range in three dimensions.

Sections: Skills › Move (Effects: moving up or down an obstacle takes a whole Segment whatever its height, and the
position counts for LoF); Line of Fire and Distances › Line of Fire (lines join any point of one volume to any point
of the other); Damage › Partial Cover; Interaction with Areas and Silhouettes › Silhouette Contact (contact with a
piece of terrain); Distances and Measurements › Range Ruler.

The volumes (units: hex units, the board's; heights from the table's ground level):

* a Model is a vertical cylinder: its base disc, from its *elevation* ``z`` (0 on the ground, the piece's height when
  it stands on a scenery piece) up to ``z + h`` (``h`` its Silhouette height, :class:`.pieces.SilhouetteCalibration`);
* a scenery piece is a vertical prism: its footprint from the ground up to its ``height``;
* a hexagon without tile, or what lies off the board, blocks at every height (as on a flat table);
* another Model blocks as the prism of its base from the ground up to its top (the Move rule puts a standing base
  entirely on the piece below it, so the column under an elevated base is that piece).

The exact condition (derived here, tested against dense sampling of both volumes in tests/tagraid/test_elevation.py).
Take a segment from a point ``P`` of the shooter's volume to a point ``Q`` of the target's. Every obstacle stands on
the ground, so raising either end raises every point of the segment and can only clear it: if any segment with the
plan view ``p -> q`` is clear, the one from the *top* of the shooter's cylinder above ``p`` (height ``Ta``) to the
top of the target's above ``q`` (``Tb``) is. Along that segment the height is ``z(t) = Ta + t (Tb - Ta)``; an
obstacle of height ``H`` can only be met where ``z(t) < H`` (at or below ``H`` under ``lof_grazing =
touching_blocks``): a sub-interval of ``t`` at one end of the segment (:func:`low_interval`). So the plan segment
is clear in 3D exactly when, for every obstacle, the *low part* of the plan segment (the points over which the line
is below the obstacle's top) misses the obstacle's footprint (:func:`segment_clear_3d`): an obstacle lower than both
tops is never met, one at least as high as both tops is met wherever the plan segment crosses it (the flat rule),
and one in between blocks only when the line crosses its footprint before rising above (or after dropping below)
its top edge.

Existence of such a segment (:func:`find_clear_segment_3d`): with no obstacle of the in-between kind the search is
the exact flat search (:func:`.geometry.find_clear_segment`) on the obstacles at least as high as both tops. With
some, two exact flat searches bracket the answer (those pieces as full obstacles: a clear line is clear in 3D; those
pieces removed: no clear line means none in 3D), and in between the plan segments joining a dense set of points of
the two bases (their edges and inner rings), the lines passing exactly over each corner of an in-between piece's top
from each of those points, and the bracketing witness are tested exactly: a witness found is always a checked clear
line. When none of those is clear, every plan segment joining two points of a *net* of each base is tested
(:func:`net_points`, spacing set by :data:`NET_DIVISIONS`): every point of the base (within the arc's half-planes)
lies within ``delta = max(r_a, r_b) / NET_DIVISIONS`` of a net point. A "blocked" verdict after that stage is not a
proof but it is bounded: the heights along a line depend only on the fraction ``t`` of the way, so moving each end
by at most ``delta`` moves every point of the line (the low parts included) by at most ``delta``; a clear line that
stays more than ``delta`` (plus :data:`.geometry.TOL`) in plan from every footprint it passes below the top of
therefore has a tested neighbour that is clear too. So "blocked" here means: no clear line with a margin over
``delta``; only a line thinner than that (squeezed over a top edge) can have been missed
(:attr:`Clear3D.resolution`; tests/tagraid/test_lof_3d_limit.py checks the bound against a dense brute force).
An exact decision would search the 4-parameter space of plan segments, whose boundaries include the lines grazing a
top edge at a fixed fraction of the way; that is not built (the named limit ``lof_3d_search``, docs/limits.md).
On one plan line the space shrinks to a single segment: every in-between piece's condition asks the point where the
sight line crosses its height, ``(1 - s) p + s q`` (``s`` fixed by the heights), to lie before the piece (rising
line) or beyond it (falling), and that point only moves back as ``p`` and ``q`` move back along the line; so the
line's best segment runs from the far end of the shooter's chord to the near end of the target's (rising), or from
the near end to the far end (falling). An exact decision over the remaining 2-parameter family needs the meeting
points of the curves where that crossing point lies on a piece's edge (docs/limits.md says why it is not built).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import shapely
from shapely.geometry.base import BaseGeometry

from .geometry import TOL, ClipBoth, Disc, Obstacles, Segment, blocked_mask, find_clear_segment, point_target_clear
from . import geometry as _geometry

INF = math.inf


@dataclass(frozen=True)
class Prism:
    """An obstacle for the 3D test: a footprint (a polygon, or a base disc) standing from the ground up to
    ``height`` (hex units; ``math.inf`` = blocks at every height)."""

    label: str
    height: float
    polygon: BaseGeometry | None = None
    disc: Disc | None = None


def low_interval(ta: float, tb: float, h: float, touching_blocks: bool) -> tuple[float, float] | None:
    """The fractions ``t`` of the segment (``0`` at the shooter's end, ``1`` at the target's) over which the sight
    line from height ``ta`` to height ``tb`` is below ``h`` (at or below it when ``touching_blocks``): ``(t0, t1)``
    with ``0 <= t0 <= t1 <= 1``, or ``None`` when the line never is.

    >>> low_interval(1.0, 3.0, 2.0, False)
    (0.0, 0.5)
    >>> low_interval(1.0, 3.0, 0.5, False) is None
    True
    """
    if h == INF:
        return (0.0, 1.0)
    below = (lambda z: z <= h) if touching_blocks else (lambda z: z < h)
    if ta == tb:
        return (0.0, 1.0) if below(ta) else None
    ts = (h - ta) / (tb - ta)
    if tb > ta:  # rising: low at the start
        if ts <= 0.0 and not (touching_blocks and ts == 0.0):
            return None
        return (0.0, min(1.0, max(0.0, ts)))
    if ts >= 1.0 and not (touching_blocks and ts == 1.0):
        return None
    return (max(0.0, min(1.0, ts)), 1.0)


def classify(ta: float, tb: float, prisms: Sequence[Prism], touching_blocks: bool):
    """``(full, partial)``: the prisms met wherever the plan segment crosses them, and those met only on a low part
    (with their :func:`low_interval`). Prisms never met are left out."""
    full, partial = [], []
    for pr in prisms:
        iv = low_interval(ta, tb, pr.height, touching_blocks)
        if iv is None:
            continue
        if iv == (0.0, 1.0):
            full.append(pr)
        else:
            partial.append((pr, iv))
    return full, partial


def as_obstacles(prisms: Sequence[Prism]) -> Obstacles:
    """The flat obstacles of ``prisms`` (their footprints)."""
    return Obstacles([(p.label, p.polygon) for p in prisms if p.polygon is not None],
                     [(p.label, p.disc) for p in prisms if p.disc is not None])


def _geom(obs: Obstacles, touching_blocks: bool, tol: float):
    union = obs.union
    geom = union if touching_blocks else _geometry._eroded(union, tol)
    if not geom.is_empty:
        shapely.prepare(geom)
    return geom


def segments_clear_3d(segs: np.ndarray, ta: float, tb: float, prisms: Sequence[Prism], *, touching_blocks: bool,
                      tol: float = TOL) -> np.ndarray:
    """Which plan segments (rows ``x0, y0, x1, y1``: shooter end first) carry a clear sight line between the two
    tops (heights ``ta`` at the start and ``tb`` at the end). Exact (see the module docstring)."""
    segs = np.asarray(segs, dtype=float).reshape(-1, 4)
    ok = np.ones(len(segs), dtype=bool)
    groups: dict[tuple[float, float], list[Prism]] = {}
    for pr in prisms:
        iv = low_interval(ta, tb, pr.height, touching_blocks)
        if iv is not None and iv[1] - iv[0] > 0.0:
            groups.setdefault(iv, []).append(pr)
    for (t0, t1), prs in groups.items():
        if not ok.any():
            break
        p, d = segs[:, :2], segs[:, 2:] - segs[:, :2]
        sub = np.concatenate([p + t0 * d, p + t1 * d], axis=1)
        obs = as_obstacles(prs)
        hit = blocked_mask(sub[ok], Obstacles(discs=obs.discs), touching_blocks=touching_blocks, tol=tol,
                           polygon=_geom(obs, touching_blocks, tol))
        ok[np.flatnonzero(ok)[hit]] = False
    return ok


def segment_clear_3d(seg: Segment, ta: float, tb: float, prisms: Sequence[Prism], *, touching_blocks: bool,
                     tol: float = TOL) -> bool:
    """:func:`segments_clear_3d` for one segment."""
    return bool(segments_clear_3d(np.array([[*seg.p0, *seg.p1]]), ta, tb, prisms,
                                  touching_blocks=touching_blocks, tol=tol)[0])


def disc_samples(d: Disc, n: int = 40) -> np.ndarray:
    """Points of a base for the search: ``n`` on its edge, ``n // 2`` on the ring at half its radius, its centre."""
    out = [np.array([[d.x, d.y]])]
    for k, rr in ((n, d.r), (max(4, n // 2), d.r / 2)):
        ang = np.linspace(0.0, 2 * math.pi, k, endpoint=False)
        out.append(np.stack([d.x + rr * np.cos(ang), d.y + rr * np.sin(ang)], axis=1))
    return np.concatenate(out)


def _clip(points: np.ndarray, clip) -> np.ndarray:
    for hx, hy, hc in clip:
        points = points[hx * points[:, 0] + hy * points[:, 1] + hc >= -TOL]
    return points


NET_DIVISIONS = 8
"""The resolution of the last stage of :func:`find_clear_segment_3d`: its nets put a point within
``max(r_a, r_b) / NET_DIVISIONS`` of every point of either base (about 140 points on the larger base)."""


def _project_convex(g: np.ndarray, d: Disc, clip) -> np.ndarray | None:
    """The nearest point to ``g`` of the convex region ``d`` cut by the half-planes ``clip`` (``hx x + hy y + hc
    >= 0``), ``None`` when the region is empty. Exact: the nearest point lies in the region's interior (``g``
    itself) or on a face cut by one or two of the constraints, so every such candidate is tried and the nearest
    one inside kept."""
    c = np.array([d.x, d.y])

    def inside(p):
        return (np.hypot(*(p - c)) <= d.r + 1e-12 and all(hx * p[0] + hy * p[1] + hc >= -1e-12
                                                           for hx, hy, hc in clip))

    if inside(g):
        return g
    cands = []
    v = g - c
    n = float(np.hypot(*v))
    cands.append(c + (v / n * d.r if n > 0 else np.array([d.r, 0.0])))      # on the circle
    lines = [(np.array([hx, hy], dtype=float), float(hc)) for hx, hy, hc in clip]
    for h, hc in lines:                                                       # on one line
        cands.append(g - (h @ g + hc) / (h @ h) * h)
        # the line meets the circle: the two points
        foot = c - (h @ c + hc) / (h @ h) * h
        dist = float(np.hypot(*(foot - c)))
        if dist <= d.r:
            u = np.array([-h[1], h[0]]) / float(np.hypot(*h))
            k = math.sqrt(max(d.r * d.r - dist * dist, 0.0))
            cands += [foot + k * u, foot - k * u]
    for i in range(len(lines)):                                               # two lines meet
        for j in range(i + 1, len(lines)):
            m = np.array([lines[i][0], lines[j][0]])
            if abs(np.linalg.det(m)) > 1e-15:
                cands.append(np.linalg.solve(m, -np.array([lines[i][1], lines[j][1]])))
    ok = [p for p in cands if inside(p)]
    if not ok:
        return None
    return min(ok, key=lambda p: float(np.hypot(*(p - g))))


def net_points(d: Disc, delta: float, clip=()) -> np.ndarray:
    """Points of base ``d`` (within the half-planes ``clip``), rows ``x, y``, such that every point of that region
    lies within ``delta`` of one of them.

    Method: a square grid of spacing ``delta * sqrt(2)`` (every point of the plane lies within ``delta`` of a grid
    point) over the disc grown by ``delta``, each grid point moved to the nearest point of the region (the region
    is convex, so that move brings a grid point no farther from any point of the region: the bound holds);
    duplicates dropped. Shape ``(n, 2)``, ``n = 0`` when the region is empty.

    Raises:
        ValueError: ``delta <= 0``.
    """
    if not delta > 0.0:
        raise ValueError(f"net spacing {delta!r} is not positive")
    h = delta * math.sqrt(2.0)
    k = int(math.ceil((d.r + delta) / h))
    ii = np.arange(-k, k + 1) * h
    gx, gy = np.meshgrid(ii + d.x, ii + d.y)
    grid = np.stack([gx.ravel(), gy.ravel()], axis=1)
    grid = grid[np.hypot(grid[:, 0] - d.x, grid[:, 1] - d.y) <= d.r + delta]
    pts = [q for g in grid if (q := _project_convex(g, d, clip)) is not None]
    if not pts:
        return np.zeros((0, 2))
    return np.unique(np.round(np.array(pts), 12), axis=0)


@dataclass
class Clear3D:
    """What :func:`find_clear_segment_3d` found.

    Attributes:
        witness: a plan segment whose sight line between the two tops is clear (``None``: none found).
        candidates_tested: plan segments tested.
        exact: ``True`` when the verdict is proved (a checked witness, or an exact flat search showing none); ``False``
            only for "none found" after the sampled stage.
        clear: every clear candidate segment found by the sampled stage (for the Range Ruler).
        resolution: for a verdict that is not exact, the ``delta`` of the nets tested (board units): no clear line
            stays more than ``delta`` (plus :data:`.geometry.TOL`) in plan from the footprints it passes below the
            top of; ``None`` otherwise.
    """

    witness: Segment | None
    candidates_tested: int
    exact: bool = True
    contact: bool = False
    clear: tuple[Segment, ...] = ()
    resolution: float | None = None


def find_clear_segment_3d(a: Disc, b: Disc, ta: float, tb: float, prisms: Sequence[Prism], *, touching_blocks: bool,
                          tol: float = TOL, clip=(), shooter_clip=(), samples: int = 40) -> Clear3D:
    """A plan segment from base ``a`` (top at height ``ta``) to base ``b`` (top at ``tb``) whose sight line between
    the tops is clear of ``prisms`` (see the module docstring for the method and where it is exact).

    Args:
        clip: half-planes restricting the target's end (the part inside the shooter's arc).
        shooter_clip: half-planes restricting the shooter's end.
    """
    full, partial = classify(ta, tb, prisms, touching_blocks)
    full_obs = as_obstacles(full)

    def flat(obs: Obstacles):
        if shooter_clip and clip:  # both ends clipped (lof_shooter_arc = front_half with seen_part_in_arc)
            return find_clear_segment(a, b, obs, touching_blocks=touching_blocks, tol=tol,
                                      clip=ClipBoth(clip, shooter_clip))
        if shooter_clip:
            r = find_clear_segment(b, a, obs, touching_blocks=touching_blocks, tol=tol, clip=shooter_clip)
            if r.witness is not None:
                r.witness = Segment(r.witness.p1, r.witness.p0)
            return r
        return find_clear_segment(a, b, obs, touching_blocks=touching_blocks, tol=tol, clip=clip)

    relaxed = flat(full_obs)
    if relaxed.witness is None or not partial or relaxed.contact:
        return Clear3D(relaxed.witness, relaxed.candidates_tested, True, relaxed.contact)
    tested = relaxed.candidates_tested
    strict = flat(as_obstacles(full + [pr for pr, _ in partial]))
    tested += strict.candidates_tested
    if strict.witness is not None:
        return Clear3D(strict.witness, tested, True)
    pa = _clip(disc_samples(a, samples), shooter_clip)
    pb = _clip(disc_samples(b, samples), clip)
    segs = np.concatenate([np.repeat(pa, len(pb), axis=0), np.tile(pb, (len(pa), 1))], axis=1)
    w = relaxed.witness
    segs = np.concatenate([np.array([[*w.p0, *w.p1]]), _grazing_candidates(a, b, pa, pb, partial, clip,
                                                                             shooter_clip), segs])
    ok = segments_clear_3d(segs, ta, tb, prisms, touching_blocks=touching_blocks, tol=tol)
    tested += len(segs)
    found = tuple(Segment((float(s[0]), float(s[1])), (float(s[2]), float(s[3]))) for s in segs[ok])
    if found:
        return Clear3D(found[0], tested, True, clear=found)
    # the bounded stage: every line joining two net points (a clear line with a margin over delta has one nearby)
    delta = max(a.r, b.r) / NET_DIVISIONS
    na, nb = net_points(a, delta, shooter_clip), net_points(b, delta, clip)
    segs = np.concatenate([np.repeat(na, len(nb), axis=0), np.tile(nb, (len(na), 1))], axis=1)
    ok = segments_clear_3d(segs, ta, tb, prisms, touching_blocks=touching_blocks, tol=tol)
    tested += len(segs)
    found = tuple(Segment((float(s[0]), float(s[1])), (float(s[2]), float(s[3]))) for s in segs[ok])
    if found:
        return Clear3D(found[0], tested, True, clear=found)
    return Clear3D(None, tested, False, resolution=delta)


def _grazing_candidates(a: Disc, b: Disc, pa: np.ndarray, pb: np.ndarray, partial, clip, shooter_clip) -> np.ndarray:
    """Plan segments whose sight line passes exactly over a corner of an in-between piece's top (the lines that
    graze a top edge): for each sampled point of one base and each corner ``v``, the point of the other base that
    puts the line at the piece's height right above ``v`` (``(1 - t) p + t q = v``, ``t`` the fraction where the
    line crosses that height), kept when it lies on that base."""
    out = []
    for pr, (t0, t1) in partial:
        t = t1 if t0 == 0.0 else t0
        if not (0.0 < t < 1.0) or pr.polygon is None:
            continue
        verts = [np.asarray(g.exterior.coords)[:-1] for g in getattr(pr.polygon, "geoms", [pr.polygon])]
        for v in np.concatenate(verts):
            q = pa + (v[None, :] - pa) / t            # from the shooter's points
            ok = (np.hypot(q[:, 0] - b.x, q[:, 1] - b.y) <= b.r) & _clip_mask(q, clip)
            if ok.any():
                out.append(np.concatenate([pa[ok], q[ok]], axis=1))
            p = (v[None, :] - t * pb) / (1.0 - t)      # from the target's points
            ok = (np.hypot(p[:, 0] - a.x, p[:, 1] - a.y) <= a.r) & _clip_mask(p, shooter_clip)
            if ok.any():
                out.append(np.concatenate([p[ok], pb[ok]], axis=1))
    return np.concatenate(out) if out else np.zeros((0, 4))


def _clip_mask(points: np.ndarray, clip) -> np.ndarray:
    m = np.ones(len(points), dtype=bool)
    for hx, hy, hc in clip:
        m &= hx * points[:, 0] + hy * points[:, 1] + hc >= -TOL
    return m


def hidden_point(attacker: Disc, ta: float, x: tuple[float, float], zx: float, piece: Prism, *,
                 touching_blocks: bool, tol: float = TOL) -> bool | None:
    """Whether the point at plan position ``x`` and height ``zx`` is hidden by ``piece`` alone from every point of
    the attacker's volume (base ``attacker``, top ``ta``). ``None`` when the exact reduction does not apply (the
    piece lower than the point but higher than the attacker's top: callers sample).

    Method (exact): the attacker's top is its best point (as in the module docstring). With ``H`` the piece's
    height: ``H`` at most both ``ta`` and ``zx`` hides nothing; ``H`` at least both is the flat test from the whole
    base; ``ta > H > zx`` (looking down past the piece's top edge) is the flat test from the base shrunk about ``x``
    by the fraction of the line that is above ``H`` (the low part of every line ends at ``x``).
    """
    obs = as_obstacles([piece])
    iv = low_interval(ta, zx, piece.height, touching_blocks)
    if iv is None:
        return False
    if iv == (0.0, 1.0):
        return not point_target_clear(attacker, x, obs, touching_blocks=touching_blocks, tol=tol)
    t0, t1 = iv
    if t1 == 1.0:  # looking down: low part [t0, 1] ends at x
        k = 1.0 - t0
        shrunk = Disc(x[0] + k * (attacker.x - x[0]), x[1] + k * (attacker.y - x[1]), k * attacker.r)
        return not point_target_clear(shrunk, x, obs, touching_blocks=touching_blocks, tol=tol)
    return None


def hidden_point_sampled(attacker: Disc, ta: float, x: tuple[float, float], zx: float, piece: Prism, *,
                         touching_blocks: bool, samples: int = 64, tol: float = TOL) -> bool:
    """:func:`hidden_point` by sampling the attacker's base (the one case without an exact reduction): its edge and
    rings (``samples``) and a net within ``attacker.r / NET_DIVISIONS`` of every point of it (:func:`net_points`).
    Bound of a ``True`` ("hidden"): no line from the attacker to the point keeps more than that in plan from the
    piece where it passes below its top (moving the line's attacker end by up to that moves each of its points by at
    most as much; heights depend only on the fraction of the way)."""
    pa = np.concatenate([disc_samples(attacker, samples), net_points(attacker, attacker.r / NET_DIVISIONS)])
    segs = np.concatenate([pa, np.tile(np.array(x, dtype=float), (len(pa), 1))], axis=1)
    return not segments_clear_3d(segs, ta, zx, [piece], touching_blocks=touching_blocks, tol=tol).any()


def vertical_gap(z0: float, z1: float, w0: float, w1: float) -> float:
    """The vertical distance between the height intervals ``[z0, z1]`` and ``[w0, w1]`` (0 when they overlap)."""
    return max(0.0, w0 - z1, z0 - w1)
