"""Boards: hex cells (terrain, tile present, special terrain, area, elevation), scenery, edge features, areas.

A :class:`Board` is an immutable value. Its coordinates:

* hexes are axial :class:`~explorer.hexgrid.Hex` ``(q, r)``;
* **board units** (scenery polygons, piece positions, overlays) are the pixel coordinates of the board's
  :attr:`Board.layout` — its orientation with ``size = 1`` and the centre of ``Hex(0, 0)`` at ``(0, 0)``: one unit is
  the centre-to-corner distance of a hex, ``y`` points down; neighbouring centres are ``√3`` units apart.

Scenario files (TOML) describe a board in a ``[board]`` table::

    [board]
    name = "Quarry"
    orientation = "pointy"                      # or "flat"

    shape = { kind = "hexagon", radius = 3 }    # optional: { kind = "rectangle", width = 8, height = 6 }
    terrain = "sand"                            # terrain of the shape's hexes not listed in cells

    [board.cells]                               # cells listed here are added to (or override) the shape's
    "0,0" = "vegetation"                        # shorthand for { terrain = "vegetation" }
    "1,0" = { terrain = "rocky", special = "difficult", area = "pit", elevation = 1 }
    "2,0" = { tile = false }                    # a hexagon without tile (no terrain); shorthand "tileless"

    [[board.scenery]]
    name = "Boulder"
    polygon = [[0.5, -0.5], [1.5, -0.5], [1.0, 0.4]]   # board units
    height = 2.0                                # board units; omit for "taller than anything"

    [[board.edges]]
    edge = "0,0|1,0"
    kind = "wall"                               # wall | door | obstacle | barrier | elevation

Errors name the field path (``board.cells."1,0".terrain``) and the allowed values.

Rule sections (TAG Raid): Terrain (the five terrain types of a tile's hexagons), Special Terrain (Impassable,
Difficult), Interaction with Areas and Silhouettes (inside = at least partially inside; "totally inside"),
Range in Hexagons, MegaBeast › Deployment and Movement Type (tile-less hexagons surrounded by at least four tiles).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, replace
from enum import Enum
from functools import cached_property
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import Field

from .errors import ScenarioError, short_repr
from .hexgrid import (
    ORIGIN, Axis, Edge, Hex, Layout, distance, hex_range, neighbors, reflect, rotate,
)
from .scenario import read_toml, validate
from .schema import FROM_TOML, Strict
from .text import plural

if TYPE_CHECKING:  # shapely (and numpy under it) and networkx are imported by the queries that need them
    import networkx as nx
    import shapely
    from shapely.geometry import Polygon
    from shapely.geometry.base import BaseGeometry

Point = tuple[float, float]

# ----------------------------------------------------------------------------------------------------- limits
# (documented in docs/limits.md; far above a real table: the packaged boards have at most 320 hexes)

MAX_BOARD_HEXES = 10_000
"""Hexes on one board (its shape and its listed cells together). A 10,000-hex board loads in about half a second."""
MAX_HEX_COORD = 1_000
"""Largest ``|q|`` and ``|r|`` of a hex named in a file (cells, shape centre, edges, Model positions)."""
MAX_HEX_KEY_CHARS = 40
"""Characters in a hex key (``"q,r"``) or an edge key (``"q1,r1|q2,r2"``)."""
MAX_BOARD_UNITS = 4_000.0
"""Largest ``|x|`` / ``|y|`` of a point in board units (scenery corners, Model positions), and the largest height."""
MAX_SCENERY = 500
"""Scenery pieces on one board."""
MAX_POLYGON_POINTS = 1_000
"""Corners of one scenery polygon."""
MAX_EDGES = 10_000
"""Edge features on one board."""
MAX_ELEVATION = 100
"""Largest ``|elevation|`` of a cell (height levels)."""
MAX_LABEL = 80
"""Characters in a board, scenery or area name."""

Coordinate = Annotated[float, Field(ge=-MAX_BOARD_UNITS, le=MAX_BOARD_UNITS, allow_inf_nan=False)]
"""A finite board-unit coordinate within :data:`MAX_BOARD_UNITS` (nan and inf are refused)."""
CoordinatePair = Annotated[tuple[Coordinate, Coordinate], FROM_TOML]
"""An ``[x, y]`` point of two :data:`Coordinate` values, written as a TOML array."""
Label = Annotated[str, Field(max_length=MAX_LABEL)]


def parse_hex_key(text: str, field: str, source: str | None = None) -> Hex:
    """``"q,r"`` as a :class:`Hex` with ``|q|, |r| <= MAX_HEX_COORD``.

    Raises:
        ScenarioError: naming ``field``: not a string, longer than :data:`MAX_HEX_KEY_CHARS`, not ``"q,r"`` with
            whole numbers, or a coordinate out of bounds.
    """
    allowed = f"'q,r' with whole numbers -{MAX_HEX_COORD}..{MAX_HEX_COORD}, e.g. '2,-1'"
    if not isinstance(text, str):
        raise ScenarioError(field, f"not a hex key ({short_repr(text)} is not a hexagon)", allowed, source)
    if len(text) > MAX_HEX_KEY_CHARS:
        raise ScenarioError(field, f"not a hex key ({short_repr(text)} is too long)", allowed, source)
    try:
        h = Hex.parse(text)
    except ValueError:
        raise ScenarioError(field, f"not a hex key ({short_repr(text)} is not a hexagon)", allowed, source) from None
    if abs(h.q) > MAX_HEX_COORD or abs(h.r) > MAX_HEX_COORD:
        raise ScenarioError(field, f"hex {h} is out of bounds", allowed, source)
    return h


def parse_edge_key(text: str, field: str, source: str | None = None) -> Edge:
    """``"q1,r1|q2,r2"`` as an :class:`Edge` of two adjacent hexes, each within :data:`MAX_HEX_COORD`.

    Raises:
        ScenarioError: naming ``field`` (see :func:`parse_hex_key`), or the hexes are not adjacent.
    """
    allowed = "'q1,r1|q2,r2' naming two adjacent hexes, e.g. '0,0|1,0'"
    if not isinstance(text, str) or len(text) > 2 * MAX_HEX_KEY_CHARS + 1 or text.count("|") != 1:
        raise ScenarioError(field, f"not an edge key: {short_repr(text)}", allowed, source)
    a, b = (parse_hex_key(p, field, source) for p in text.split("|"))
    try:
        return Edge(a, b)
    except ValueError as e:
        raise ScenarioError(field, str(e), allowed, source) from None


# ----------------------------------------------------------------------------------------------------- values


class Terrain(str, Enum):
    """The terrain type of a tile's hexagon (TAG Raid › Terrain)."""

    VEGETATION = "vegetation"
    SAND = "sand"
    EXCAVATION = "excavation"
    SUPPLIES = "supplies"
    ROCKY = "rocky"


class Special(str, Enum):
    """Special Terrain marked with a Special Terrain Token (TAG Raid › Special Terrain).

    ``IMPASSABLE``: no Miner may traverse it. ``DIFFICULT``: acting in it makes a Miner Slowed.
    """

    IMPASSABLE = "impassable"
    DIFFICULT = "difficult"


class EdgeKind(str, Enum):
    """Kinds of edge features (for games whose walls and doors sit on hex sides)."""

    WALL = "wall"
    DOOR = "door"
    OBSTACLE = "obstacle"
    BARRIER = "barrier"
    ELEVATION = "elevation"


#: Default ``(blocks_movement, blocks_lof)`` of each edge kind (a scenario may override either). An open door blocks
#: neither.
EDGE_DEFAULTS: dict[EdgeKind, tuple[bool, bool]] = {
    EdgeKind.WALL: (True, True),
    EdgeKind.DOOR: (True, True),
    EdgeKind.OBSTACLE: (True, False),
    EdgeKind.BARRIER: (True, False),
    EdgeKind.ELEVATION: (False, False),
}


@dataclass(frozen=True, slots=True)
class Cell:
    """One hexagon of the board.

    Attributes:
        terrain: the tile's terrain type; ``None`` exactly when there is no tile.
        tile: whether a tile covers this hexagon (Miners cannot move through hexagons without tiles; nor can LoF
            cross them; the MegaBeast lives in them).
        special: Special Terrain on the tile, or ``None``.
        area: name of the game area the hexagon belongs to, or ``None``.
        elevation: height level (whole number; 0 = ground).
    """

    terrain: Annotated[Terrain, FROM_TOML] | None = None
    tile: bool = True
    special: Annotated[Special, FROM_TOML] | None = None
    area: str | None = None
    elevation: int = 0

    def __post_init__(self) -> None:
        if self.terrain is not None and not isinstance(self.terrain, Terrain):
            object.__setattr__(self, "terrain", Terrain(self.terrain))
        if self.special is not None and not isinstance(self.special, Special):
            object.__setattr__(self, "special", Special(self.special))
        if not self.tile:
            if self.terrain is not None:
                raise ValueError("a hexagon without tile has no terrain")
            if self.special is not None:
                raise ValueError("Special Terrain needs a tile")
        elif self.terrain is None:
            raise ValueError("a tile needs a terrain")

    @property
    def passable(self) -> bool:
        """A Miner may enter: a tile that is not Impassable Terrain."""
        return self.tile and self.special != Special.IMPASSABLE


#: The cell of a hexagon without tile.
TILELESS = Cell(terrain=None, tile=False)
SAND = Cell(Terrain.SAND)


@dataclass(frozen=True, slots=True)
class Scenery:
    """A piece of scenery: a simple polygon in board units with a height.

    Attributes:
        name: label shown in views.
        polygon: corners ``(x, y)`` in board units, in order (not repeating the first).
        height: height in board units, or ``None`` for "taller than anything on the board".
        blocks_lof: whether it blocks Line of Fire at all.
    """

    name: str
    polygon: tuple[Point, ...]
    height: float | None = None
    blocks_lof: bool = True

    @property
    def shape(self) -> Polygon:
        """The shapely polygon (board units)."""
        from shapely.geometry import Polygon

        return Polygon(self.polygon)


@dataclass(frozen=True, slots=True)
class EdgeFeature:
    """A feature on a hex side.

    Attributes:
        edge: the side (canonical pair of hexes).
        kind: wall, door, obstacle, barrier or elevation (change of level).
        blocks_movement, blocks_lof: what it blocks (defaults per kind: :data:`EDGE_DEFAULTS`; an open door blocks
            nothing).
        open: for doors.
    """

    edge: Edge
    kind: Annotated[EdgeKind, FROM_TOML] = EdgeKind.WALL
    blocks_movement: bool | None = None
    blocks_lof: bool | None = None
    open: bool = False

    def __post_init__(self) -> None:
        kind = EdgeKind(self.kind)
        object.__setattr__(self, "kind", kind)
        if self.open and kind != EdgeKind.DOOR:
            raise ValueError(f"only a door can be open, not a {kind.value}")
        mv, lof = EDGE_DEFAULTS[kind]
        if kind == EdgeKind.DOOR and self.open:
            mv, lof = False, False
        if self.blocks_movement is None:
            object.__setattr__(self, "blocks_movement", mv)
        if self.blocks_lof is None:
            object.__setattr__(self, "blocks_lof", lof)


# ----------------------------------------------------------------------------------------------- scenario schema

_TERRAINS = [t.value for t in Terrain]
_SPECIALS = [s.value for s in Special]
_EDGE_KINDS = [k.value for k in EdgeKind]


class CellModel(Strict):
    terrain: Annotated[Terrain, FROM_TOML] | None = None
    tile: bool = True
    special: Annotated[Special, FROM_TOML] | None = None
    area: Label | None = None
    elevation: int = Field(default=0, ge=-MAX_ELEVATION, le=MAX_ELEVATION)


class SceneryModel(Strict):
    name: Label
    polygon: list[CoordinatePair] = Field(min_length=3, max_length=MAX_POLYGON_POINTS)
    height: float | None = Field(default=None, ge=0, le=MAX_BOARD_UNITS, allow_inf_nan=False)
    blocks_lof: bool = True


class EdgeModel(Strict):
    edge: Annotated[str, Field(max_length=2 * MAX_HEX_KEY_CHARS + 1)]
    kind: Annotated[EdgeKind, FROM_TOML] = EdgeKind.WALL
    blocks_movement: bool | None = None
    blocks_lof: bool | None = None
    open: bool = False


class ShapeModel(Strict):
    kind: Literal["hexagon", "rectangle"]
    radius: int | None = Field(default=None, ge=0, le=57)  # 3·57·58 + 1 = 9,919 hexes <= MAX_BOARD_HEXES
    width: int | None = Field(default=None, ge=1, le=200)
    height: int | None = Field(default=None, ge=1, le=200)  # width · height <= MAX_BOARD_HEXES, checked on load
    center: Annotated[str, Field(max_length=MAX_HEX_KEY_CHARS)] = "0,0"


class BoardModel(Strict):
    """Schema of the ``[board]`` table."""

    name: Label = ""
    orientation: Literal["pointy", "flat"] = "pointy"
    shape: ShapeModel | None = None
    terrain: Annotated[Terrain, FROM_TOML] = Terrain.SAND
    cells: dict[str, CellModel] = Field(default={}, max_length=MAX_BOARD_HEXES)
    scenery: list[SceneryModel] = Field(default=[], max_length=MAX_SCENERY)
    edges: list[EdgeModel] = Field(default=[], max_length=MAX_EDGES)


def _quote_path(path: str) -> str:
    """``board.cells.1,0.terrain`` -> ``board.cells."1,0".terrain`` (TOML dotted-key style)."""
    parts = path.split(".")
    out = []
    for p in parts:
        head, bracket, rest = p.partition("[")
        if head and not head.startswith('"') and not head.replace("_", "").isalnum():   # quoted already: kept
            head = f'"{head}"'
        out.append(head + bracket + rest)
    return ".".join(out)


# ------------------------------------------------------------------------------------------------------ Board


class Board:
    """A hex board: cells, scenery, edge features and areas. Immutable; transforms return new boards.

    Args:
        cells: ``{Hex: Cell}``; hexes not in the mapping are off the board.
        scenery: scenery pieces (board units).
        edge_features: features on hex sides (at most one per edge; at least one of its hexes on the board).
        orientation: ``"pointy"`` or ``"flat"``; fixes :attr:`layout` (board units).
        name: display name.

    Raises:
        ScenarioError: an edge feature off the board, two features on one edge, or an invalid scenery polygon.

    Set-like: ``h in board``, ``len(board)``, iteration over hexes in ``(q, r)`` order, ``board[h] -> Cell``
    (KeyError off the board).
    """

    def __init__(self, cells: Mapping[Hex, Cell], scenery: Iterable[Scenery] = (),
                 edge_features: Iterable[EdgeFeature] = (), orientation: Literal["pointy", "flat"] = "pointy",
                 name: str = ""):
        self._cells: dict[Hex, Cell] = {Hex(*h): c for h, c in sorted(cells.items())}
        self.scenery: tuple[Scenery, ...] = tuple(scenery)
        self.orientation = orientation
        self.layout = Layout(orientation)
        self.name = name
        feats: dict[Edge, EdgeFeature] = {}
        for i, f in enumerate(edge_features):
            if f.edge in feats:
                raise ScenarioError(f"board.edges[{i}].edge", f"a second feature on edge {f.edge}",
                                    "at most one feature per edge")
            if f.edge.a not in self._cells and f.edge.b not in self._cells:
                raise ScenarioError(f"board.edges[{i}].edge", f"edge {f.edge} is off the board",
                                    "an edge with at least one hex on the board")
            feats[f.edge] = f
        self._features = feats
        for i, s in enumerate(self.scenery):
            _check_polygon(s.polygon, f"board.scenery[{i}].polygon")

    # -- mapping-like
    def __contains__(self, h: object) -> bool:
        return h in self._cells

    def __getitem__(self, h: Hex) -> Cell:
        return self._cells[h]

    def get(self, h: Hex, default: Cell | None = None) -> Cell | None:
        return self._cells.get(h, default)

    def __iter__(self) -> Iterator[Hex]:
        return iter(self._cells)

    def __len__(self) -> int:
        return len(self._cells)

    @property
    def cells(self) -> Mapping[Hex, Cell]:
        """Read-only view ``{Hex: Cell}``."""
        from types import MappingProxyType
        return MappingProxyType(self._cells)

    @property
    def edge_features(self) -> Mapping[Edge, EdgeFeature]:
        """Read-only view ``{Edge: EdgeFeature}``."""
        from types import MappingProxyType
        return MappingProxyType(self._features)

    def feature(self, edge: Edge) -> EdgeFeature | None:
        """The feature on ``edge``, if any."""
        return self._features.get(edge)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Board):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    def __repr__(self) -> str:
        return (f"Board({self.name!r}, {len(self)} hexes, {len(self.tiles)} tiles, {len(self.scenery)} scenery, "
                f"{len(self._features)} edge features, {self.orientation})")

    # -- queries
    @cached_property
    def tiles(self) -> frozenset[Hex]:
        """Hexes covered by a tile."""
        return frozenset(h for h, c in self._cells.items() if c.tile)

    @cached_property
    def tileless(self) -> frozenset[Hex]:
        """Hexes on the board without a tile (TAG Raid: Miners cannot enter them; the MegaBeast can)."""
        return frozenset(h for h, c in self._cells.items() if not c.tile)

    @cached_property
    def areas(self) -> Mapping[str, frozenset[Hex]]:
        """``{area name: hexes}`` from the cells' ``area``."""
        out: dict[str, set[Hex]] = {}
        for h, c in self._cells.items():
            if c.area is not None:
                out.setdefault(c.area, set()).add(h)
        return {k: frozenset(v) for k, v in sorted(out.items())}

    def with_special(self, special: Special | None) -> frozenset[Hex]:
        """Hexes with the given Special Terrain (``None``: tiles without any)."""
        return frozenset(h for h, c in self._cells.items() if c.tile and c.special == special)

    def neighbors(self, h: Hex) -> tuple[Hex, ...]:
        """Adjacent hexes that are on the board (any cell, tile or not), in direction order."""
        return tuple(n for n in neighbors(h) if n in self._cells)

    def can_step(self, a: Hex, b: Hex, passable: Callable[[Hex, Cell], bool] | None = None) -> bool:
        """Whether a piece may step from ``a`` to adjacent ``b``: both on the board, ``b`` passable (default: a tile
        that is not Impassable Terrain, TAG Raid › Special Terrain) and no edge feature blocking movement."""
        if a not in self._cells or b not in self._cells or distance(a, b) != 1:
            return False
        ok = passable or _default_passable
        if not ok(b, self._cells[b]):
            return False
        f = self._features.get(Edge(a, b))
        return not (f is not None and f.blocks_movement)

    def steps(self, h: Hex, passable: Callable[[Hex, Cell], bool] | None = None) -> tuple[Hex, ...]:
        """Hexes a piece in ``h`` may step to (see :meth:`can_step`)."""
        return tuple(n for n in neighbors(h) if self.can_step(h, n, passable))

    def graph(self, passable: Callable[[Hex, Cell], bool] | None = None) -> nx.Graph:
        """Movement graph (networkx, undirected): nodes are the passable hexes, edges the steps between them.

        ``passable(hex, cell)`` chooses the nodes (default: tiles without Impassable Terrain; for a MegaBeast pass
        ``lambda h, c: not c.tile``). The default graph is cached; do not mutate it.
        """
        if passable is None and "_graph" in self.__dict__:
            return self.__dict__["_graph"]
        import networkx as nx

        ok = passable or _default_passable
        g = nx.Graph()
        nodes = [h for h, c in self._cells.items() if ok(h, c)]
        g.add_nodes_from(nodes)
        node_set = set(nodes)
        for h in nodes:
            for n in neighbors(h):
                if n in node_set and h < n:
                    f = self._features.get(Edge(h, n))
                    if not (f is not None and f.blocks_movement):
                        g.add_edge(h, n)
        if passable is None:
            self.__dict__["_graph"] = g
        return g

    def path(self, a: Hex, b: Hex, passable: Callable[[Hex, Cell], bool] | None = None) -> list[Hex] | None:
        """A shortest path of steps from ``a`` to ``b`` (both included), or ``None`` if there is none.
        ``a`` need not itself be passable (a piece may stand on an odd cell)."""
        g = self.graph(passable)
        if b not in g:
            return None
        if a not in g:
            g = g.copy()
            g.add_node(a)
            g.add_edges_from((a, n) for n in self.steps(a, passable) if n in g)
        import networkx as nx

        try:
            return nx.shortest_path(g, a, b)
        except nx.NetworkXNoPath:
            return None

    def move_distance(self, a: Hex, b: Hex, passable: Callable[[Hex, Cell], bool] | None = None) -> int | None:
        """Number of steps on the shortest path (``None`` if unreachable); compare :func:`hexgrid.distance`."""
        p = self.path(a, b, passable)
        return None if p is None else len(p) - 1

    def within(self, h: Hex, radius: int, min_radius: int = 0) -> frozenset[Hex]:
        """Board hexes at hex distance ``min_radius..radius`` from ``h`` (TAG Raid › Range in Hexagons: same
        hexagon = ``(0, 0)``, adjacent = ``(1, 1)``, same or adjacent = ``(1, 0)``, up to 2 = ``(2, 0)``, from
        adjacent to 2 = ``(2, 1)``)."""
        return frozenset(x for x in hex_range(h, radius) if x in self._cells and distance(h, x) >= min_radius)

    def closest(self, target: Hex, candidates: Iterable[Hex]) -> list[Hex]:
        """All ``candidates`` at the smallest hex distance from ``target``, sorted (ties are kept: the rules let a
        player choose, e.g. MegaBeast › Deployment and Movement Type, "the Hexagon or Hexagons without tile that is
        closest")."""
        cs = list(candidates)
        if not cs:
            return []
        best = min(distance(target, c) for c in cs)
        return sorted(c for c in cs if distance(target, c) == best)

    def tileless_surrounded(self, min_tiles: int = 4) -> frozenset[Hex]:
        """Tile-less hexes with at least ``min_tiles`` of their 6 neighbours covered by a tile (TAG Raid › MegaBeast ›
        Deployment and Movement Type: Interior deployment uses ``min_tiles = 4``)."""
        return frozenset(h for h in self.tileless
                         if sum(1 for n in neighbors(h) if n in self.tiles) >= min_tiles)

    # -- geometry (board units)
    def hex_shape(self, h: Hex) -> Polygon:
        """The hexagon ``h`` as a shapely polygon in board units."""
        from shapely.geometry import Polygon

        return Polygon(self.layout.corners(h))

    @cached_property
    def _hex_tree(self) -> tuple[shapely.STRtree, list[Hex]]:
        import shapely

        hs = list(self._cells)
        return shapely.STRtree([self.hex_shape(h) for h in hs]), hs

    def hexes_overlapping(self, geom: BaseGeometry, totally: bool = False) -> frozenset[Hex]:
        """Board hexes a shape is inside, in the sense of TAG Raid › Interaction with Areas and Silhouettes.

        Args:
            geom: a shapely geometry in board units (e.g. a base: ``Point(x, y).buffer(radius)``).
            totally: ``False``: hexes the shape is at least partially inside (their interiors overlap; touching the
                boundary only does not count). ``True``: hexes that contain the whole shape.
        """
        tree, hs = self._hex_tree
        out = set()
        for i in tree.query(geom):
            poly = self.hex_shape(hs[int(i)])
            if (poly.covers(geom) if totally else geom.relate_pattern(poly, "T********")):
                out.add(hs[int(i)])
        return frozenset(out)

    def in_area(self, geom: BaseGeometry, area: str | Iterable[Hex], totally: bool = False) -> bool:
        """Whether a shape (board units) is inside an area: at least partially (default) or totally
        (TAG Raid › Interaction with Areas and Silhouettes). ``area`` is an area name or a set of hexes.

        Raises:
            ScenarioError: unknown area name (lists the board's areas).
        """
        if isinstance(area, str):
            if area not in self.areas:
                raise ScenarioError("area", f"unknown area {short_repr(area)}",
                                    sorted(self.areas) or "no areas on this board")
            hexes = self.areas[area]
        else:
            hexes = frozenset(area)
        region = self.region(hexes)
        return bool(region.covers(geom)) if totally else bool(geom.relate_pattern(region, "T********"))

    def region(self, hexes: Iterable[Hex]) -> BaseGeometry:
        """The union of the given hexagons as one shapely geometry (board units; empty for no hexes)."""
        import shapely

        return shapely.union_all([self.hex_shape(h) for h in hexes])

    @cached_property
    def tileless_region(self) -> BaseGeometry:
        """Union of the hexagons without tile (board units), e.g. for TAG Raid LoF, which they block for Miners."""
        return self.region(sorted(self.tileless))

    @cached_property
    def scenery_tree(self) -> shapely.STRtree:
        """STRtree over the scenery polygons (indices into :attr:`scenery`)."""
        import shapely

        return shapely.STRtree([s.shape for s in self.scenery])

    def bounds(self) -> tuple[float, float, float, float]:
        """``(minx, miny, maxx, maxy)`` of all hexes and scenery, board units."""
        xs, ys = [], []
        for h in self._cells:
            for x, y in self.layout.corners(h):
                xs.append(x)
                ys.append(y)
        for s in self.scenery:
            for x, y in s.polygon:
                xs.append(x)
                ys.append(y)
        return min(xs), min(ys), max(xs), max(ys)

    # -- symmetries (for property tests: every verdict must survive rotating/reflecting the whole board)
    def transformed(self, steps: int = 0, axis: Axis | None = None, center: Hex = ORIGIN) -> Board:
        """The board reflected across ``axis`` (if given) then rotated ``steps`` x 60° clockwise about ``center``:
        cells, edge features and scenery move together (see :func:`hexgrid.rotate`, :meth:`Layout.transform_pixel`)."""
        if steps % 6 == 0 and axis is None:
            return self
        def th(h: Hex) -> Hex:
            return rotate(reflect(h, axis, center) if axis else h, steps, center)

        def tp(p: Point) -> Point:
            return self.layout.transform_pixel(p, steps, axis, center)

        scen = []
        for s in self.scenery:
            pts = [tp(p) for p in s.polygon]
            if axis is not None:
                pts.reverse()  # keep the winding
            scen.append(replace(s, polygon=tuple(pts)))
        return Board({th(h): c for h, c in self._cells.items()}, scen,
                     [replace(f, edge=Edge(th(f.edge.a), th(f.edge.b))) for f in self._features.values()],
                     self.orientation, self.name)

    def rotated(self, steps: int = 1, center: Hex = ORIGIN) -> Board:
        """:meth:`transformed` with a rotation only."""
        return self.transformed(steps, None, center)

    def replace_cells(self, changes: Mapping[Hex, Cell | None]) -> Board:
        """A copy with some cells replaced (``None`` removes the hex from the board)."""
        cells = dict(self._cells)
        for h, c in changes.items():
            if c is None:
                cells.pop(h, None)
            else:
                cells[h] = c
        return Board(cells, self.scenery, self._features.values(), self.orientation, self.name)

    # -- builders
    @classmethod
    def hexagon(cls, radius: int, cell: Cell | Callable[[Hex], Cell] = SAND, center: Hex = ORIGIN,
                orientation: Literal["pointy", "flat"] = "pointy", name: str = "") -> Board:
        """A hexagon-shaped board of ``3·radius·(radius+1) + 1`` hexes; ``cell`` is a Cell or a function of the hex."""
        make = cell if callable(cell) else (lambda h: cell)
        return cls({h: make(h) for h in hex_range(center, radius)}, orientation=orientation, name=name)

    @classmethod
    def rectangle(cls, width: int, height: int, cell: Cell | Callable[[Hex], Cell] = SAND,
                  orientation: Literal["pointy", "flat"] = "pointy", name: str = "") -> Board:
        """A rectangular board of ``width x height`` hexes (pointy: ``height`` rows of ``width`` hexes, odd rows
        shifted right; flat: ``width`` columns of ``height`` hexes), with ``Hex(0, 0)`` at the top-left."""
        if width < 1 or height < 1:
            raise ScenarioError("board", f"a rectangle needs a positive size, got {width} x {height}",
                                "width >= 1 and height >= 1")
        make = cell if callable(cell) else (lambda h: cell)
        if orientation == "pointy":
            hexes = [Hex(col - (row // 2), row) for row in range(height) for col in range(width)]
        else:
            hexes = [Hex(col, row - (col // 2)) for col in range(width) for row in range(height)]
        return cls({h: make(h) for h in hexes}, orientation=orientation, name=name)

    # -- scenario format
    def to_dict(self) -> dict[str, Any]:
        """The ``[board]`` table (TOML-ready: only str/int/float/bool/list/dict; defaults omitted)."""
        cells: dict[str, Any] = {}
        for h, c in self._cells.items():
            d: dict[str, Any] = {}
            if not c.tile:
                d["tile"] = False
            else:
                d["terrain"] = c.terrain.value  # type: ignore[union-attr]
            if c.special is not None:
                d["special"] = c.special.value
            if c.area is not None:
                d["area"] = c.area
            if c.elevation:
                d["elevation"] = c.elevation
            cells[str(h)] = d
        out: dict[str, Any] = {"name": self.name, "orientation": self.orientation, "cells": cells}
        if self.scenery:
            out["scenery"] = []
            for s in self.scenery:
                sd: dict[str, Any] = {"name": s.name, "polygon": [[float(x), float(y)] for x, y in s.polygon]}
                if s.height is not None:
                    sd["height"] = float(s.height)
                if not s.blocks_lof:
                    sd["blocks_lof"] = False
                out["scenery"].append(sd)
        if self._features:
            out["edges"] = []
            for f in self._features.values():
                ed: dict[str, Any] = {"edge": str(f.edge), "kind": f.kind.value}
                mv, lof = EDGE_DEFAULTS[f.kind]
                if f.kind == EdgeKind.DOOR and f.open:
                    mv, lof = False, False
                    ed["open"] = True
                if f.blocks_movement != mv:
                    ed["blocks_movement"] = f.blocks_movement
                if f.blocks_lof != lof:
                    ed["blocks_lof"] = f.blocks_lof
                out["edges"].append(ed)
        return out

    def to_toml(self) -> str:
        """The board as a TOML ``[board]`` document (readable: one line per cell)."""
        return _board_toml(self.to_dict())

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], source: str | None = None, path: str = "board") -> Board:
        """Build a board from a ``[board]`` table.

        Args:
            data: the table (parsed TOML / JSON).
            source: where it came from (file name), for messages.
            path: the table's field path in the document, prefixed to error fields.

        Raises:
            ScenarioError: naming the field path and the allowed values: unknown fields, unknown terrain / special /
                edge kind, a hex key that is not ``"q,r"``, two keys naming the same hex, terrain on a tile-less hex,
                Special Terrain without a tile, a malformed or non-adjacent edge, an invalid scenery polygon.
        """
        if not isinstance(data, Mapping):
            raise ScenarioError(path, f"must be a table, got {type(data).__name__}", "a [board] table", source)
        raw_cells = data.get("cells")
        if isinstance(raw_cells, Mapping):  # hex keys first, so later messages can quote them safely
            if len(raw_cells) > MAX_BOARD_HEXES:
                raise ScenarioError(f"{path}.cells", f"{len(raw_cells):,} cells listed",
                                    f"at most {MAX_BOARD_HEXES:,} hexes on a board", source)
            norm: dict[str, Any] = {}
            for key, value in raw_cells.items():
                parse_hex_key(str(key), f'{path}.cells."{key}"', source)
                if isinstance(value, str):  # shorthand: "sand" or "tileless"
                    if value == "tileless":
                        value = {"tile": False}
                    elif value in _TERRAINS:
                        value = {"terrain": value}
                    else:
                        raise ScenarioError(f'{path}.cells."{key}"', f"unknown terrain {short_repr(value)}",
                                            [*_TERRAINS, "tileless", "or a table such as { terrain = \"sand\" }"],
                                            source)
                norm[key] = value
            data = {**data, "cells": norm}
        try:
            model = validate(BoardModel, data, source)
        except ScenarioError as e:
            field_ = _quote_path(f"{path}.{e.field}" if e.field else path)
            allowed = e.allowed
            if e.problem.startswith("unknown field") and allowed is None and e.field.startswith("cells."):
                allowed = "one of " + ", ".join(repr(n) for n in CellModel.model_fields)
            raise ScenarioError(field_, e.problem, allowed, source) from None
        cells: dict[Hex, Cell] = {}
        if model.shape is not None:
            cells = _shape_cells(model.shape, model.terrain, model.orientation, f"{path}.shape", source)
        elif not model.cells:
            raise ScenarioError(f"{path}.cells", "is required (a board needs at least one hex)",
                                f"a [{path}.cells] table, or a {path}.shape", source)
        keys: dict[Hex, str] = {}
        for key, cm in model.cells.items():
            where = _quote_path(f"{path}.cells.{key}")
            h = parse_hex_key(key, where, source)
            if h in keys:
                raise ScenarioError(where,
                                    f"duplicate cell: {short_repr(keys[h])} and {short_repr(key)} both name hex {h}",
                                    "each hex once", source)
            if not cm.tile and cm.terrain is not None:
                raise ScenarioError(f"{where}.terrain", "a hexagon without tile has no terrain",
                                    "omit terrain when tile = false", source)
            if cm.tile and cm.terrain is None:
                raise ScenarioError(f"{where}.terrain", "is required for a tile", _TERRAINS, source)
            if not cm.tile and cm.special is not None:
                raise ScenarioError(f"{where}.special", "Special Terrain needs a tile",
                                    "omit special when tile = false", source)
            cells[h] = Cell(cm.terrain, cm.tile, cm.special, cm.area, cm.elevation)
            keys[h] = key
        if len(cells) > MAX_BOARD_HEXES:
            raise ScenarioError(f"{path}.cells", f"the shape and the cells make {len(cells):,} hexes",
                                f"at most {MAX_BOARD_HEXES:,} hexes on a board", source)
        scenery = []
        for i, sm in enumerate(model.scenery):
            _check_polygon(sm.polygon, f"{path}.scenery[{i}].polygon", source)
            scenery.append(Scenery(sm.name, tuple((float(x), float(y)) for x, y in sm.polygon), sm.height,
                                   sm.blocks_lof))
        feats = []
        for i, em in enumerate(model.edges):
            edge = parse_edge_key(em.edge, f"{path}.edges[{i}].edge", source)
            if em.open and em.kind != EdgeKind.DOOR:
                raise ScenarioError(f"{path}.edges[{i}].open", f"only a door can be open, not a {em.kind.value}",
                                    "open = true with kind = \"door\"", source)
            feats.append(EdgeFeature(edge, em.kind, em.blocks_movement, em.blocks_lof, em.open))
        try:
            return cls(cells, scenery, feats, model.orientation, model.name)
        except ScenarioError as e:
            raise ScenarioError(e.field, e.problem, e.allowed, source) from None

    @classmethod
    def from_toml(cls, source: str | Path, *, text: str | None = None, key: str = "board") -> Board:
        """Read a board from the ``[board]`` table (``key``) of a TOML file (or ``text``).

        Raises:
            ScenarioError: missing file, bad TOML, no ``[board]`` table, or any :meth:`from_dict` problem.
        """
        data = read_toml(source, text=text)
        if key not in data:
            raise ScenarioError(key, "is required but missing", f"a [{key}] table", str(source))
        return cls.from_dict(data[key], str(source), key)

    # -- views
    def to_svg(self, **kwargs: Any) -> str:
        """Static SVG (see :func:`explorer.render.svg.render_board` for the keyword arguments)."""
        from .render.svg import render_board
        return render_board(self, **kwargs)

    def _repr_svg_(self) -> str:
        return self.to_svg()


def _shape_cells(shape: ShapeModel, terrain: Terrain, orientation: Literal["pointy", "flat"], where: str,
                 source: str | None) -> dict[Hex, Cell]:
    cell = Cell(terrain)
    if shape.kind == "hexagon":
        if shape.radius is None:
            raise ScenarioError(f"{where}.radius", "is required for a hexagon", "a whole number >= 0", source)
        center = parse_hex_key(shape.center, f"{where}.center", source)
        return dict(Board.hexagon(shape.radius, cell, center, orientation).cells)
    for f in ("width", "height"):
        if getattr(shape, f) is None:
            raise ScenarioError(f"{where}.{f}", "is required for a rectangle", "a whole number >= 1", source)
    if shape.width * shape.height > MAX_BOARD_HEXES:  # type: ignore[operator]
        raise ScenarioError(where, f"a {shape.width} x {shape.height} rectangle has {shape.width * shape.height:,} "
                            "hexes", f"width x height <= {MAX_BOARD_HEXES:,}", source)
    return dict(Board.rectangle(shape.width, shape.height, cell, orientation).cells)  # type: ignore[arg-type]


def _default_passable(h: Hex, c: Cell) -> bool:
    return c.passable


def _check_polygon(points: Iterable[Iterable[float]], field_: str, source: str | None = None) -> None:
    pts = [tuple(p) for p in points]
    allowed = "a simple polygon: at least 3 distinct corners [x, y] in board units, listed in order around it"
    if len(pts) < 3:
        raise ScenarioError(field_, f"has {plural(len(pts), 'corner')}", allowed, source)
    for i, p in enumerate(pts):
        if len(p) != 2 or not all(isinstance(v, (int, float)) and math.isfinite(v) for v in p):
            raise ScenarioError(f"{field_}[{i}]", f"{short_repr(p)} is not a finite point", allowed, source)
    from shapely.geometry import Polygon
    from shapely.validation import explain_validity

    poly = Polygon(pts)
    if not poly.is_valid or poly.area == 0:
        why = explain_validity(poly) if not poly.is_valid else "it has no area"
        raise ScenarioError(field_, f"not a valid polygon ({why})", allowed, source)


def _toml_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, str):
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(v, list):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{k} = {_toml_value(x)}" for k, x in v.items()) + " }" if v else "{}"
    raise TypeError(type(v))


def _board_toml(d: Mapping[str, Any], key: str = "board") -> str:
    lines = [f"[{key}]", f"name = {_toml_value(d['name'])}", f"orientation = {_toml_value(d['orientation'])}", "",
             f"[{key}.cells]"]
    for k, v in d["cells"].items():
        lines.append(f'"{k}" = {_toml_value(v)}')
    for s in d.get("scenery", []):
        lines += ["", f"[[{key}.scenery]]"] + [f"{k} = {_toml_value(v)}" for k, v in s.items()]
    for e in d.get("edges", []):
        lines += ["", f"[[{key}.edges]]"] + [f"{k} = {_toml_value(v)}" for k, v in e.items()]
    return "\n".join(lines) + "\n"


# -------------------------------------------------------------------------------------------- packaged boards

BOARDS_PACKAGE = "explorer.boards"


def available_boards() -> list[str]:
    """Names of the boards shipped in ``explorer/boards/`` (file names without ``.toml``)."""
    return sorted(p.name[:-5] for p in resources.files(BOARDS_PACKAGE).iterdir() if p.name.endswith(".toml"))


def load_board(name: str) -> Board:
    """A packaged board by name (e.g. ``"fixture"``, ``"small"``).

    Raises:
        ScenarioError: unknown name (lists the available boards).
    """
    names = available_boards()
    if name not in names:
        raise ScenarioError("board", f"unknown packaged board {short_repr(name)}", names)
    f = resources.files(BOARDS_PACKAGE).joinpath(f"{name}.toml")
    return Board.from_toml(f"{name}.toml", text=f.read_text(encoding="utf-8"))


def fixture_board(width: int = 20, height: int = 16, seed: int = 7) -> Board:
    """Generate the fixture board (what ``explorer/boards/fixture.toml`` holds for the defaults): a pointy
    ``width x height`` rectangle with terrain patches, tile-less hexes (a channel and holes, some of them Interior
    MegaBeast spaces), Special Terrain, two areas, scenery and a few edge features. Deterministic for a seed."""
    rng = random.Random(seed)
    base = Board.rectangle(width, height)
    hexes = list(base)
    terrains = list(Terrain)
    seeds = {rng.choice(hexes): rng.choice(terrains) for _ in range(max(4, len(hexes) // 25))}
    cells: dict[Hex, Cell] = {}
    for h in hexes:
        t = min(seeds.items(), key=lambda kv: (distance(h, kv[0]), kv[0]))[1]
        cells[h] = Cell(t)
    # a tile-less channel through the middle rows, with two bridges
    row = height // 2
    for h in hexes:
        col = h.q + h.r // 2
        if h.r == row and col not in (3, width - 4):
            cells[h] = TILELESS
    # holes: single tile-less hexes inside tiles
    for _ in range(max(3, len(hexes) // 40)):
        h = rng.choice(hexes)
        if h.r not in (row - 1, row, row + 1):
            cells[h] = TILELESS
    # special terrain and areas
    tiles = [h for h in hexes if cells[h].tile]
    for h in rng.sample(tiles, max(2, len(tiles) // 30)):
        cells[h] = replace(cells[h], special=Special.IMPASSABLE)
    tiles = [h for h in hexes if cells[h].tile and cells[h].special is None]
    for h in rng.sample(tiles, max(2, len(tiles) // 20)):
        cells[h] = replace(cells[h], special=Special.DIFFICULT)
    a1 = hexes[len(hexes) // 5]
    for h in hex_range(a1, 1):
        if h in cells and cells[h].tile:
            cells[h] = replace(cells[h], area="access-1", elevation=1)
    a2 = hexes[(4 * len(hexes)) // 5]
    for h in hex_range(a2, 1):
        if h in cells and cells[h].tile:
            cells[h] = replace(cells[h], area="tool-container")
    lay = Layout("pointy")
    scenery = []
    for i in range(max(3, len(hexes) // 50)):
        h = rng.choice(tiles)
        cx, cy = lay.hex_to_pixel(h)
        w, hh = rng.uniform(0.5, 1.4), rng.uniform(0.4, 1.0)
        if i % 2:
            pts = ((cx - w, cy - hh), (cx + w, cy - hh), (cx + w, cy + hh), (cx - w, cy + hh))
        else:
            pts = ((cx, cy - hh), (cx + w, cy + hh / 2), (cx - w, cy + hh / 2))
        scenery.append(Scenery(f"rock {i + 1}", tuple((round(x, 3), round(y, 3)) for x, y in pts),
                               None if i % 3 == 0 else round(rng.uniform(1.0, 3.0), 2)))
    feats = []
    for h in rng.sample(tiles, 4):
        n = neighbors(h)[rng.randrange(6)]
        e = Edge(h, n)
        if n in cells and all(f.edge != e for f in feats):
            feats.append(EdgeFeature(e, rng.choice([EdgeKind.WALL, EdgeKind.DOOR, EdgeKind.OBSTACLE])))
    return Board(cells, scenery, feats, "pointy", "Fixture quarry")


def small_board() -> Board:
    """A 19-hex board with one of everything (for the golden SVG and docs)."""
    cells = {h: Cell(list(Terrain)[(h.q - h.r) % 5]) for h in hex_range(ORIGIN, 2)}
    cells[Hex(0, 0)] = TILELESS
    cells[Hex(2, -1)] = TILELESS
    cells[Hex(1, 0)] = Cell(Terrain.ROCKY, special=Special.IMPASSABLE)
    cells[Hex(-1, 1)] = Cell(Terrain.VEGETATION, special=Special.DIFFICULT)
    for h in (Hex(-2, 0), Hex(-2, 1), Hex(-1, 0)):
        cells[h] = replace(cells[h], area="pit", elevation=-1)
    lay = Layout("pointy")
    cx, cy = lay.hex_to_pixel(Hex(0, -2))
    pts = ((cx - 0.6, cy - 0.4), (cx + 0.7, cy - 0.3), (cx + 0.2, cy + 0.6))
    scenery = [Scenery("boulder", tuple((round(x, 3), round(y, 3)) for x, y in pts), 2.0)]
    feats = [EdgeFeature(Edge(Hex(0, 1), Hex(1, 1)), EdgeKind.WALL),
             EdgeFeature(Edge(Hex(-1, 2), Hex(0, 2)), EdgeKind.DOOR, open=True)]
    return Board(cells, scenery, feats, "pointy", "Small example")


__all__ = [
    "Terrain", "Special", "EdgeKind", "EDGE_DEFAULTS", "Cell", "TILELESS", "SAND", "Scenery", "EdgeFeature", "Board",
    "BoardModel", "available_boards", "load_board", "fixture_board", "small_board",
]
