"""Game-agnostic hexagonal grid: axial coordinates, distances, ranges, layouts, edges and exact line contact.

Conventions (after Red Blob Games, "Hexagonal Grids"):

* **Axial storage, cube algorithms.** A hex is ``Hex(q, r)``; its third cube coordinate is ``s = -q - r``.
* **Screen coordinates** (pixels, or board units when ``size == 1``) have ``y`` pointing *down*; "clockwise" always
  means clockwise as seen on screen.
* **Directions** (:data:`DIRECTIONS`), index ``d`` in ``0..5``::

      d   axial     pointy-top   flat-top
      0   (+1,  0)  E            SE
      1   (+1, -1)  NE           NE
      2   ( 0, -1)  NW           N
      3   (-1,  0)  W            NW
      4   (-1, +1)  SW           SW
      5   ( 0, +1)  SE           S

  Increasing ``d`` turns counter-clockwise on screen; ``d + 3`` is the opposite direction.
* **Corners** of a hex, index ``i`` in ``0..5``, run clockwise on screen. Pointy-top: corner ``i`` is at angle
  ``30° + 60°·i`` (corner 0 is the lower one of the two right-hand corners). Flat-top: corner ``i`` is at angle
  ``60° + 60°·i`` (corner 0 is the lower-right corner). The side towards direction ``d`` runs between corners
  ``(5 - d) % 6`` and ``(6 - d) % 6``.
* **Lattice coordinates** (for exact geometry): the point of fractional axial coordinates ``(q, r)`` has lattice
  coordinates ``(X, Y) = (2q + r, 3r)``. Every hex centre and every hex corner then has *integer* lattice
  coordinates: the centre of ``Hex(q, r)`` is ``(2q + r, 3r)`` and its corners are the centre plus
  ``(1, 1), (0, 2), (-1, 1), (-1, -1), (0, -2), (1, -1)`` (corners 0..5). In a pointy-top layout of size 1 the
  lattice is the screen scaled by ``(2/√3, 2)``, so straight lines stay straight and incidence (crossing, running
  along an edge, touching a corner) is preserved: :func:`classify_segment` decides it with Fractions, no epsilon.

Examples:
    >>> distance(Hex(0, 0), Hex(2, -1))
    2
    >>> len(ring(Hex(0, 0), 2)), len(hex_range(Hex(0, 0), 2))
    (12, 19)
    >>> Layout("pointy").pixel_to_hex(Layout("pointy").hex_to_pixel(Hex(3, -2)))
    Hex(q=3, r=-2)
    >>> c = classify_centres(Hex(0, 0), Hex(1, 1))   # the 30° line between two hexes at distance 2
    >>> c.edges_along
    (Edge(a=Hex(q=0, r=1), b=Hex(q=1, r=0)),)
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Literal, NamedTuple

Number = int | Fraction
LatticePoint = tuple[Number, Number]
Point = tuple[float, float]


# --------------------------------------------------------------------------------------------------------- Hex


class Hex(NamedTuple):
    """A hexagon in axial coordinates ``(q, r)`` (integers). Immutable, hashable, ordered by ``(q, r)``.

    Arithmetic is vector arithmetic (not tuple concatenation): ``Hex(1, 2) + Hex(0, -1) == Hex(1, 1)``,
    ``-h``, ``h * 3`` and ``3 * h`` scale.
    """

    q: int
    r: int

    @property
    def s(self) -> int:
        """Third cube coordinate, ``-q - r``."""
        return -self.q - self.r

    def __add__(self, other: object) -> Hex:  # type: ignore[override]
        if not isinstance(other, tuple) or len(other) != 2:
            return NotImplemented
        return Hex(self.q + other[0], self.r + other[1])

    def __sub__(self, other: object) -> Hex:
        if not isinstance(other, tuple) or len(other) != 2:
            return NotImplemented
        return Hex(self.q - other[0], self.r - other[1])

    def __neg__(self) -> Hex:
        return Hex(-self.q, -self.r)

    def __mul__(self, k: object) -> Hex:  # type: ignore[override]
        if not isinstance(k, int) or isinstance(k, bool):
            return NotImplemented
        return Hex(self.q * k, self.r * k)

    __rmul__ = __mul__  # type: ignore[assignment]

    def __str__(self) -> str:
        return f"{self.q},{self.r}"

    @classmethod
    def parse(cls, text: str) -> Hex:
        """Parse ``"q,r"`` (spaces and parentheses allowed). Raises ValueError otherwise."""
        t = text.strip().strip("()").split(",")
        if len(t) != 2:
            raise ValueError(f"not a hex key: {text!r} (expected 'q,r', e.g. '2,-1')")
        try:
            return cls(int(t[0]), int(t[1]))
        except ValueError:
            raise ValueError(f"not a hex key: {text!r} (expected 'q,r' with whole numbers, e.g. '2,-1')") from None


ORIGIN = Hex(0, 0)

#: The six axial directions, in the order documented in the module docstring (counter-clockwise on screen).
DIRECTIONS: tuple[Hex, ...] = (Hex(1, 0), Hex(1, -1), Hex(0, -1), Hex(-1, 0), Hex(-1, 1), Hex(0, 1))


def direction(d: int) -> Hex:
    """The unit vector of direction ``d`` (taken modulo 6)."""
    return DIRECTIONS[d % 6]


def neighbor(h: Hex, d: int) -> Hex:
    """The hex next to ``h`` in direction ``d`` (modulo 6)."""
    return h + DIRECTIONS[d % 6]


def neighbors(h: Hex) -> tuple[Hex, ...]:
    """The six hexes adjacent to ``h``, in direction order 0..5."""
    return tuple(h + v for v in DIRECTIONS)


def direction_to(a: Hex, b: Hex) -> int:
    """The direction index ``d`` with ``neighbor(a, d) == b``. Raises ValueError if they are not adjacent."""
    try:
        return DIRECTIONS.index(b - a)
    except ValueError:
        raise ValueError(f"hexes {a} and {b} are not adjacent") from None


def length(h: Hex) -> int:
    """Distance from the origin, in hexes."""
    return (abs(h.q) + abs(h.r) + abs(h.s)) // 2


def distance(a: Hex, b: Hex) -> int:
    """Number of steps between two hexes (hexes, integer; 0 for the same hex, 1 for adjacent hexes)."""
    return length(a - b)


def ring(center: Hex, radius: int) -> list[Hex]:
    """The ``6·radius`` hexes at exactly ``radius`` from ``center`` (``[center]`` for radius 0).

    Order: starts at ``center + DIRECTIONS[4] * radius`` and walks counter-clockwise on screen (direction 0 first).
    Raises ValueError for a negative radius.
    """
    if radius < 0:
        raise ValueError(f"radius must be >= 0, got {radius}")
    if radius == 0:
        return [center]
    out = []
    h = center + DIRECTIONS[4] * radius
    for d in range(6):
        for _ in range(radius):
            out.append(h)
            h = neighbor(h, d)
    return out


def spiral(center: Hex, radius: int) -> list[Hex]:
    """All hexes within ``radius`` of ``center``: the centre, then ring 1, ring 2, ... (``3r(r+1)+1`` hexes)."""
    return [h for k in range(radius + 1) for h in ring(center, k)]


def hex_range(center: Hex, radius: int) -> list[Hex]:
    """All hexes at distance ``<= radius`` from ``center``, sorted by ``(q, r)`` (``3r(r+1)+1`` hexes).

    TAG Raid's "Range in Hexagons" icons are ``hex_range(h, 0)`` (same hexagon), ``ring(h, 1)`` (adjacent),
    ``hex_range(h, 1)``, ``hex_range(h, 2)`` and ``ring(h, 1) + ring(h, 2)``.
    """
    if radius < 0:
        raise ValueError(f"radius must be >= 0, got {radius}")
    return [center + Hex(q, r) for q in range(-radius, radius + 1)
            for r in range(max(-radius, -q - radius), min(radius, -q + radius) + 1)]


def cube_round(q: float | Fraction, r: float | Fraction) -> Hex:
    """The hex containing the fractional axial point ``(q, r)`` (ties broken towards the component rounded last)."""
    s = -q - r
    rq, rr, rs = round(q), round(r), round(s)
    dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
    if dq > dr and dq > ds:
        rq = -rr - rs
    elif dr > ds:
        rr = -rq - rs
    return Hex(int(rq), int(rr))


def hex_line(a: Hex, b: Hex) -> list[Hex]:
    """Hexes on the straight line from ``a`` to ``b`` (``distance(a, b) + 1`` hexes, ``a`` first).

    Drawing convenience only: where the line runs along an edge or through a corner, a tiny epsilon nudge picks one
    side. Rules must use :func:`classify_segment` / :func:`classify_centres`, which report such contacts exactly.
    """
    n = distance(a, b)
    if n == 0:
        return [a]
    eps_q, eps_r = 1e-6, 2e-6
    out = []
    for i in range(n + 1):
        t = i / n
        out.append(cube_round(a.q + eps_q + (b.q - a.q) * t, a.r + eps_r + (b.r - a.r) * t))
    return out


# --------------------------------------------------------------------------------------- rotation, reflection

Axis = Literal["q", "r", "s"]


def _cube_transform(q, r, steps: int, axis: Axis | None):
    """Rotate ``steps`` x 60° clockwise (on screen), after reflecting across ``axis`` if given; cube maths."""
    s = -q - r
    if axis is not None:  # keep that coordinate, swap the other two
        if axis == "q":
            r, s = s, r
        elif axis == "r":
            q, s = s, q
        elif axis == "s":
            q, r = r, q
        else:
            raise ValueError(f"axis must be 'q', 'r' or 's', got {axis!r}")
    for _ in range(steps % 6):
        q, r, s = -r, -s, -q
    return q, r


def rotate(h: Hex, steps: int = 1, center: Hex = ORIGIN) -> Hex:
    """Rotate ``h`` about ``center`` by ``steps`` x 60°, clockwise on screen (negative steps: counter-clockwise).

    Direction ``d`` becomes direction ``d - steps`` (mod 6). Distances are preserved.
    """
    q, r = _cube_transform(h.q - center.q, h.r - center.r, steps, None)
    return Hex(q + center.q, r + center.r)


def reflect(h: Hex, axis: Axis = "q", center: Hex = ORIGIN) -> Hex:
    """Mirror ``h`` through ``center``: keeps the cube coordinate ``axis`` (relative to ``center``) and swaps the other
    two. Combine with :func:`rotate` to get all 12 symmetries of the grid."""
    q, r = _cube_transform(h.q - center.q, h.r - center.r, 0, axis)
    return Hex(q + center.q, r + center.r)


def rotate_direction(d: int, steps: int = 1) -> int:
    """The direction that direction ``d`` becomes under :func:`rotate` by ``steps``."""
    return (d - steps) % 6


def reflect_direction(d: int, axis: Axis = "q") -> int:
    """The direction that direction ``d`` becomes under :func:`reflect` across ``axis``."""
    return direction_to(ORIGIN, reflect(DIRECTIONS[d % 6], axis))


def transform_lattice(p: LatticePoint, steps: int = 0, axis: Axis | None = None,
                      center: Hex = ORIGIN) -> tuple[Fraction, Fraction]:
    """Apply the grid symmetry (reflect across ``axis`` if given, then rotate ``steps`` x 60° clockwise) about the
    centre of ``center`` to a lattice point, exactly. Consistent with :func:`rotate` / :func:`reflect` on hexes."""
    q, r = lattice_to_axial(p)
    q, r = _cube_transform(q - center.q, r - center.r, steps, axis)
    return axial_to_lattice(q + center.q, r + center.r)


# ------------------------------------------------------------------------------------------ lattice (exact)

_CORNER_OFFSETS: tuple[tuple[int, int], ...] = ((1, 1), (0, 2), (-1, 1), (-1, -1), (0, -2), (1, -1))


def axial_to_lattice(q: Number, r: Number) -> tuple[Fraction, Fraction]:
    """Lattice coordinates ``(2q + r, 3r)`` of the fractional axial point ``(q, r)``."""
    return Fraction(2 * q + r), Fraction(3 * r)


def lattice_to_axial(p: LatticePoint) -> tuple[Fraction, Fraction]:
    """Fractional axial ``(q, r)`` of a lattice point ``(X, Y)``: ``r = Y/3``, ``q = (3X - Y)/6``."""
    x, y = Fraction(p[0]), Fraction(p[1])
    return (3 * x - y) / 6, y / 3


def lattice_center(h: Hex) -> tuple[int, int]:
    """Integer lattice coordinates of the centre of ``h``: ``(2q + r, 3r)``."""
    return 2 * h.q + h.r, 3 * h.r


def lattice_corners(h: Hex) -> tuple[tuple[int, int], ...]:
    """The six corners of ``h`` in lattice coordinates (integers), corners 0..5 (clockwise on screen)."""
    cx, cy = lattice_center(h)
    return tuple((cx + dx, cy + dy) for dx, dy in _CORNER_OFFSETS)


def hexes_at(p: LatticePoint) -> tuple[Hex, ...]:
    """Sorted hexes whose closed region contains the lattice point ``p``: one hex (interior point), two (a point inside
    an edge) or three (a corner). Exact (Fractions / integers)."""
    x, y = Fraction(p[0]), Fraction(p[1])
    S = math.lcm(x.denominator, y.denominator)
    return _hexes_at_int(int(x * S), int(y * S), S)


# ------------------------------------------------------------------------------------------- edges, corners


@dataclass(frozen=True, order=True, slots=True)
class Edge:
    """The side shared by two adjacent hexes; canonical (``a < b``), so ``Edge(x, y) == Edge(y, x)``.

    Raises ValueError if the hexes are not adjacent. Written ``"q1,r1|q2,r2"`` in scenario files.
    """

    a: Hex
    b: Hex

    def __post_init__(self) -> None:
        a, b = Hex(*self.a), Hex(*self.b)
        if distance(a, b) != 1:
            raise ValueError(f"hexes {a} and {b} are not adjacent, so they share no edge")
        if b < a:
            a, b = b, a
        object.__setattr__(self, "a", a)
        object.__setattr__(self, "b", b)

    @property
    def hexes(self) -> tuple[Hex, Hex]:
        return (self.a, self.b)

    def other(self, h: Hex) -> Hex:
        """The hex across the edge from ``h`` (ValueError if ``h`` is not on this edge)."""
        if h == self.a:
            return self.b
        if h == self.b:
            return self.a
        raise ValueError(f"hex {h} is not on edge {self}")

    def lattice_endpoints(self) -> tuple[tuple[int, int], tuple[int, int]]:
        """The two corners of the edge in lattice coordinates, in corner order of ``a`` (clockwise on screen)."""
        d = direction_to(self.a, self.b)
        cs = lattice_corners(self.a)
        return cs[(5 - d) % 6], cs[(6 - d) % 6]

    def endpoints(self, layout: Layout) -> tuple[Point, Point]:
        """The two corners of the edge in ``layout``'s pixel coordinates."""
        p, q = self.lattice_endpoints()
        return layout.lattice_to_pixel(p), layout.lattice_to_pixel(q)

    def corners(self) -> tuple[Corner, Corner]:
        """The two :class:`Corner` at the ends of the edge."""
        p, q = self.lattice_endpoints()
        return Corner.at(p), Corner.at(q)

    def __str__(self) -> str:
        return f"{self.a}|{self.b}"

    @classmethod
    def parse(cls, text: str) -> Edge:
        """Parse ``"q1,r1|q2,r2"``. Raises ValueError if malformed or the hexes are not adjacent."""
        parts = text.split("|")
        if len(parts) != 2:
            raise ValueError(f"not an edge key: {text!r} (expected 'q1,r1|q2,r2', e.g. '0,0|1,0')")
        return cls(Hex.parse(parts[0]), Hex.parse(parts[1]))


def edge_between(a: Hex, b: Hex) -> Edge:
    """The edge shared by adjacent hexes ``a`` and ``b`` (ValueError if not adjacent)."""
    return Edge(a, b)


def edges_of(h: Hex) -> tuple[Edge, ...]:
    """The six edges of ``h``, in direction order 0..5."""
    return tuple(Edge(h, n) for n in neighbors(h))


@dataclass(frozen=True, order=True, slots=True)
class Corner:
    """A grid vertex, identified by the three hexes meeting there (sorted). Build with :meth:`Corner.at` or
    :func:`corners_of`."""

    hexes: tuple[Hex, Hex, Hex]

    @classmethod
    def at(cls, p: LatticePoint) -> Corner:
        """The corner at lattice point ``p`` (ValueError if ``p`` is not a grid corner)."""
        hs = hexes_at(p)
        if len(hs) != 3:
            raise ValueError(f"lattice point {p} is not a hex corner")
        return cls(hs)  # type: ignore[arg-type]

    def lattice(self) -> tuple[int, int]:
        """Integer lattice coordinates of the corner."""
        common = set(lattice_corners(self.hexes[0])) & set(lattice_corners(self.hexes[1]))
        common &= set(lattice_corners(self.hexes[2]))
        (p,) = common
        return p

    def point(self, layout: Layout) -> Point:
        """The corner in ``layout``'s pixel coordinates."""
        return layout.lattice_to_pixel(self.lattice())

    def edges(self) -> tuple[Edge, Edge, Edge]:
        """The three edges meeting at the corner."""
        a, b, c = self.hexes
        return (Edge(a, b), Edge(a, c), Edge(b, c))

    def __str__(self) -> str:
        return "/".join(str(h) for h in self.hexes)


def corners_of(h: Hex) -> tuple[Corner, ...]:
    """The six corners of ``h``, corners 0..5."""
    return tuple(Corner.at(p) for p in lattice_corners(h))


# ----------------------------------------------------------------------------------------------------- Layout

_SQ3 = math.sqrt(3.0)


@dataclass(frozen=True)
class Layout:
    """Maps hexes to screen points and back with a 2x2 matrix (Red Blob Games).

    Args:
        orientation: ``"pointy"`` (pointy-top, rows of hexes) or ``"flat"`` (flat-top, columns).
        size: centre-to-corner distance, in pixels (1.0 = "board units": the unit of scenery coordinates).
        origin: pixel position of the centre of ``Hex(0, 0)``.

    Screen ``y`` points down. Raises ValueError for an unknown orientation or a non-positive size.
    """

    orientation: Literal["pointy", "flat"] = "pointy"
    size: float = 1.0
    origin: Point = (0.0, 0.0)
    _f: tuple[float, float, float, float] = field(init=False, repr=False, compare=False)
    _b: tuple[float, float, float, float] = field(init=False, repr=False, compare=False)
    _start: float = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.orientation == "pointy":
            f, b, start = (_SQ3, _SQ3 / 2, 0.0, 1.5), (_SQ3 / 3, -1 / 3, 0.0, 2 / 3), 0.5
        elif self.orientation == "flat":
            f, b, start = (1.5, 0.0, _SQ3 / 2, _SQ3), (2 / 3, 0.0, -1 / 3, _SQ3 / 3), 1.0
        else:
            raise ValueError(f"orientation must be 'pointy' or 'flat', got {self.orientation!r}")
        if not self.size > 0:
            raise ValueError(f"size must be > 0, got {self.size!r}")
        object.__setattr__(self, "_f", f)
        object.__setattr__(self, "_b", b)
        object.__setattr__(self, "_start", start)
        object.__setattr__(self, "origin", (float(self.origin[0]), float(self.origin[1])))

    def axial_to_pixel(self, q: float, r: float) -> Point:
        """Pixel position of the fractional axial point ``(q, r)``."""
        f0, f1, f2, f3 = self._f
        return ((f0 * q + f1 * r) * self.size + self.origin[0], (f2 * q + f3 * r) * self.size + self.origin[1])

    def hex_to_pixel(self, h: Hex) -> Point:
        """Pixel position of the centre of ``h``."""
        return self.axial_to_pixel(h.q, h.r)

    def pixel_to_axial(self, p: Point) -> tuple[float, float]:
        """Fractional axial ``(q, r)`` of a pixel point."""
        b0, b1, b2, b3 = self._b
        x, y = (p[0] - self.origin[0]) / self.size, (p[1] - self.origin[1]) / self.size
        return b0 * x + b1 * y, b2 * x + b3 * y

    def pixel_to_hex(self, p: Point) -> Hex:
        """The hex containing pixel point ``p`` (on a boundary, one of the touching hexes)."""
        return cube_round(*self.pixel_to_axial(p))

    def lattice_to_pixel(self, p: LatticePoint) -> Point:
        """Pixel position of a lattice point (see the module docstring)."""
        q, r = lattice_to_axial(p)
        return self.axial_to_pixel(float(q), float(r))

    def pixel_to_lattice(self, p: Point) -> tuple[float, float]:
        """Lattice coordinates (floats) of a pixel point. For exact work convert with ``Fraction`` deliberately."""
        q, r = self.pixel_to_axial(p)
        return 2 * q + r, 3 * r

    def corner_offset(self, i: int) -> Point:
        """Offset of corner ``i`` from a hex centre, in pixels."""
        angle = 2 * math.pi * (self._start + i) / 6
        return self.size * math.cos(angle), self.size * math.sin(angle)

    def corners(self, h: Hex) -> list[Point]:
        """The six corners of ``h`` in pixels, corners 0..5 (clockwise on screen; see the module docstring)."""
        cx, cy = self.hex_to_pixel(h)
        return [(cx + dx, cy + dy) for dx, dy in (self.corner_offset(i) for i in range(6))]

    def edge_points(self, h: Hex, d: int) -> tuple[Point, Point]:
        """The two ends (pixels) of the side of ``h`` towards direction ``d``: corners ``(5-d)%6`` then ``(6-d)%6``."""
        cs = self.corners(h)
        return cs[(5 - d) % 6], cs[(6 - d) % 6]

    def direction_angle(self, d: int) -> float:
        """Screen angle of direction ``d`` in degrees: 0 along +x, increasing clockwise on screen (y down), in
        ``[0, 360)`` (pointy: 0, 300, 240, 180, 120, 60; flat: 30, 330, 270, 210, 150, 90)."""
        x, y = self.axial_to_pixel(*DIRECTIONS[d % 6])
        return round(math.degrees(math.atan2(y, x)), 9) % 360.0

    def transform_pixel(self, p: Point, steps: int = 0, axis: Axis | None = None, center: Hex = ORIGIN) -> Point:
        """Apply the grid symmetry of :func:`transform_lattice` to a pixel point (floats). Use it to rotate scenery
        polygons consistently with :func:`rotate` on hexes."""
        q, r = self.pixel_to_axial(p)
        q, r = _cube_transform(q - center.q, r - center.r, steps, axis)
        return self.axial_to_pixel(q + center.q, r + center.r)

    def scaled(self, size: float, origin: Point = (0.0, 0.0)) -> Layout:
        """The same orientation at another size/origin."""
        return Layout(self.orientation, size, origin)


# --------------------------------------------------------------------------------- exact contact classification

ContactKind = Literal["hex", "edge", "corner"]


class Piece(NamedTuple):
    """A maximal open stretch ``t0 < t < t1`` of a segment (``t`` = 0 at ``p0``, 1 at ``p1``) inside one hex's
    interior (``hex`` set, ``edge`` None) or running along one edge (``edge`` set, ``hex`` None)."""

    t0: Fraction
    t1: Fraction
    hex: Hex | None
    edge: Edge | None


class Contact(NamedTuple):
    """An isolated point of a segment on the grid lines, at parameter ``t``: a corner (``corner`` set) or a point
    inside an edge (``edge`` set), where the segment crosses the edge (or starts/ends on it)."""

    t: Fraction
    corner: Corner | None
    edge: Edge | None


@dataclass(frozen=True)
class SegmentContact:
    """How a segment meets the hex grid, exactly.

    Attributes:
        p0, p1: the segment's ends, lattice coordinates (Fractions).
        hexes_crossed: hexes whose *interior* the segment passes through, in order along the segment (for a
            degenerate segment, a point, the hex holding it if the point is inside a hex).
        edges_along: edges the segment runs along for a positive length, in order.
        edges_crossed: edges whose relative interior the segment meets at a single point (crossing it transversally,
            or starting/ending on it), in order.
        corners_touched: corners the segment passes through (including at its ends), in order.
        pieces: the segment cut into :class:`Piece` stretches (open intervals of ``t``), in order.
        contacts: the isolated grid contacts (:class:`Contact`) between and at the ends of the pieces, in order.
        start, end: the hexes whose closed region holds ``p0`` / ``p1`` (1, 2 or 3 hexes each).
    """

    p0: tuple[Fraction, Fraction]
    p1: tuple[Fraction, Fraction]
    hexes_crossed: tuple[Hex, ...]
    edges_along: tuple[Edge, ...]
    edges_crossed: tuple[Edge, ...]
    corners_touched: tuple[Corner, ...]
    pieces: tuple[Piece, ...]
    contacts: tuple[Contact, ...]
    start: tuple[Hex, ...]
    end: tuple[Hex, ...]

    @property
    def grazes(self) -> bool:
        """True if the segment touches a corner or runs along an edge (where games need a grazing-contact rule)."""
        return bool(self.corners_touched or self.edges_along)

    def hexes_touched(self) -> frozenset[Hex]:
        """Every hex whose closed region the segment meets (interiors, edges along/crossed, corners)."""
        out = set(self.hexes_crossed) | set(self.start) | set(self.end)
        for e in (*self.edges_along, *self.edges_crossed):
            out.update(e.hexes)
        for c in self.corners_touched:
            out.update(c.hexes)
        return frozenset(out)


def _dedup(seq: Iterable) -> tuple:
    seen, out = set(), []
    for x in seq:
        if x not in seen:
            seen.add(x)
            out.append(x)
    return tuple(out)


def classify_segment(p0: LatticePoint, p1: LatticePoint) -> SegmentContact:
    """Classify exactly how the segment ``p0``-``p1`` meets the hex grid.

    Args:
        p0, p1: points in **lattice coordinates** (see the module docstring): ints or Fractions (floats are converted
            exactly with ``Fraction(x)``, so a float that is not exactly on a grid line will not count as touching it).
            Hex centres are :func:`lattice_center`, corners :func:`lattice_corners`; any point of fractional axial
            coordinates ``(q, r)`` is :func:`axial_to_lattice`. ``p0 == p1`` is allowed (a point).

    Returns:
        :class:`SegmentContact`: hexes whose interior it crosses, edges it runs along or crosses, corners it touches.

    The segment is cut at every parameter where it meets a line of the three families that carry hex edges
    (``X`` integer, ``X + Y`` even, ``Y - X`` even); every corner lies on one line of each family, so every edge
    crossing and corner contact is a cut point. Between cuts the open piece is in one hex interior or along one
    edge, decided at its midpoint; each cut point is classified as a corner, a point inside an edge, or nothing.
    All arithmetic is in Fractions. Cost is linear in the segment's length in hexes.
    """
    x0, y0 = Fraction(p0[0]), Fraction(p0[1])
    x1, y1 = Fraction(p1[0]), Fraction(p1[1])
    # integer core: scale the lattice by D so both ends are integer points
    D = math.lcm(x0.denominator, y0.denominator, x1.denominator, y1.denominator)
    ax, ay = int(x0 * D), int(y0 * D)
    dx, dy = int(x1 * D) - ax, int(y1 * D) - ay
    start = _hexes_at_int(ax, ay, D)
    end = _hexes_at_int(ax + dx, ay + dy, D)
    if dx == 0 and dy == 0:
        contacts0 = []
        if len(start) == 3:
            contacts0.append(Contact(Fraction(0), _corner(start), None))
        elif len(start) == 2:
            contacts0.append(Contact(Fraction(0), None, _edge(*start)))
        return SegmentContact((x0, y0), (x1, y1), start if len(start) == 1 else (),
                              (), tuple(c.edge for c in contacts0 if c.edge), tuple(c.corner for c in contacts0
                                                                                     if c.corner),
                              (), tuple(contacts0), start, end)
    # the three line families, as linear forms with integer values at scaled points: X = k·D, X + Y = 2k·D,
    # Y - X = 2k·D. t = n / M for a common denominator M.
    forms = [(ax, dx, D), (ax + ay, dx + dy, 2 * D), (ay - ax, dy - dx, 2 * D)]
    M = math.lcm(*(abs(du) for _, du, _ in forms if du))
    ns = {0, M}
    for u0, du, step in forms:
        if du == 0:
            continue
        lo, hi = (u0, u0 + du) if du > 0 else (u0 + du, u0)
        k = -((-lo) // step)  # ceil(lo / step)
        v = k * step
        scale = M // du  # t = (v - u0) / du = (v - u0) * scale / M
        while v <= hi:
            ns.add((v - u0) * scale)
            v += step
    cuts = sorted(ns)

    def hexes_at_n(n2: int) -> tuple[Hex, ...]:  # the point at t = n2 / (2M)
        S = 2 * M * D
        return _hexes_at_int(2 * M * ax + dx * n2, 2 * M * ay + dy * n2, S)

    raw: list[tuple[int, int, Hex | None, Edge | None]] = []
    for n0, n1 in zip(cuts, cuts[1:]):
        hs = hexes_at_n(n0 + n1)
        if len(hs) == 1:
            raw.append((n0, n1, hs[0], None))
        else:  # the open piece lies on a grid line: along one edge
            raw.append((n0, n1, None, _edge(*hs)))
    along = {p[3] for p in raw if p[3] is not None}
    contacts: list[Contact] = []
    contact_ns = set()
    for n in cuts:
        hs = hexes_at_n(2 * n)
        if len(hs) == 3:
            contacts.append(Contact(Fraction(n, M), _corner(hs), None))
            contact_ns.add(n)
        elif len(hs) == 2:
            e = _edge(*hs)
            if e not in along:  # a point inside an edge we run along is part of that stretch, not a crossing
                contacts.append(Contact(Fraction(n, M), None, e))
                contact_ns.add(n)
    merged: list[list] = []
    for n0, n1, h, e in raw:  # merge stretches split by a cut that is no grid contact
        if merged and merged[-1][2] == h and merged[-1][3] == e and n0 not in contact_ns:
            merged[-1][1] = n1
        else:
            merged.append([n0, n1, h, e])
    pieces = tuple(Piece(Fraction(n0, M), Fraction(n1, M), h, e) for n0, n1, h, e in merged)
    return SegmentContact(
        p0=(x0, y0), p1=(x1, y1),
        hexes_crossed=_dedup(p.hex for p in pieces if p.hex is not None),
        edges_along=_dedup(p.edge for p in pieces if p.edge is not None),
        edges_crossed=_dedup(c.edge for c in contacts if c.edge is not None),
        corners_touched=_dedup(c.corner for c in contacts if c.corner is not None),
        pieces=pieces, contacts=tuple(contacts), start=start, end=end)


def _round_div(n: int, d: int) -> int:
    """round(n / d) for d > 0 (halves up), in integers."""
    return (2 * n + d) // (2 * d)


def _hexes_at_int(X: int, Y: int, S: int) -> tuple[Hex, ...]:
    """:func:`hexes_at` for the lattice point ``(X/S, Y/S)`` (integers, ``S > 0``), in integer arithmetic."""
    d = 6 * S
    qn, rn = 3 * X - Y, 2 * Y
    sn = -qn - rn
    rq, rr, rs = _round_div(qn, d), _round_div(rn, d), _round_div(sn, d)
    eq, er, es = abs(rq * d - qn), abs(rr * d - rn), abs(rs * d - sn)
    if eq > er and eq > es:
        rq = -rr - rs
    elif er > es:
        rr = -rq - rs
    kind = _closed_int(rq, rr, X, Y, S)
    if kind == 2:
        return (Hex(rq, rr),)
    out = [Hex(rq, rr)] if kind else []
    for vq, vr in DIRECTIONS:
        if _closed_int(rq + vq, rr + vr, X, Y, S):
            out.append(Hex(rq + vq, rr + vr))
    out.sort()
    return tuple(out)


def _closed_int(q: int, r: int, X: int, Y: int, S: int) -> int:
    ddx, ddy = X - (2 * q + r) * S, Y - 3 * r * S
    a, b, c = abs(ddx), abs(ddx + ddy), abs(ddy - ddx)
    S2 = 2 * S
    if a > S or b > S2 or c > S2:
        return 0
    return 2 if (a < S and b < S2 and c < S2) else 1


def _edge(a: Hex, b: Hex) -> Edge:
    """Edge from two adjacent hexes already sorted (no checks)."""
    e = object.__new__(Edge)
    object.__setattr__(e, "a", a)
    object.__setattr__(e, "b", b)
    return e


def _corner(hs: tuple[Hex, ...]) -> Corner:
    c = object.__new__(Corner)
    object.__setattr__(c, "hexes", hs)
    return c


def classify_centres(a: Hex, b: Hex) -> SegmentContact:
    """:func:`classify_segment` for the line from the centre of ``a`` to the centre of ``b``."""
    return classify_segment(lattice_center(a), lattice_center(b))
