"""TAG Raid Line of Fire (exact), Partial Cover and the table the Models stand on.

Rule sections implemented (see :mod:`explorer.games.tagraid.sections`):

* Line of Fire and Distances › Line of Fire — :func:`line_of_fire`: the target totally or partially inside the
  shooter's front 180° arc, and some segment from any point of the shooter's Silhouette (its base disc) to any point
  of the target's that crosses no scenery piece, no other Model's base and no hexagon without tile. Exceptions:
  reciprocity, 360° LoF for a Miner that declared Move, 360° LoF only to enemy Miners in Silhouette Contact.
* MegaBeast › MegaBeast Line of Fire — the Angle of Vision from its Behavior (360° when none) and LoF drawn through
  hexagons without tiles.
* Damage › Partial Cover — :func:`partial_cover`.

The segment search is exact (candidate lines, :mod:`explorer.games.tagraid.geometry`), never sampled. The two arc
conditions are read literally as independent: the target must be at least partly in the arc, and some clear segment
must join the two volumes.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace

import numpy as np
import shapely
from shapely.errors import GEOSException
from shapely.geometry import Polygon
from shapely.geometry.base import BaseGeometry

from explorer.errors import ScenarioError, short_repr
from explorer.hexgrid import Hex, Layout, lattice_corners
from explorer.options import Rulings
from explorer.text import join_words
from explorer.trace import RuleRef, Step

from . import sections as S
from . import geometry as _geometry
from .geometry import (XY, ClearResult, ClipBoth, Disc, Obstacles, PolygonIndex, Segment, blockers_of, blockers_of_rows,
                       find_clear_segment, find_clear_segment_to_swept, find_clear_segments, gap_segments,
                       common_tangents, point_target_clear)
from .pieces import (DEFAULT_CALIBRATION, Model, Scenery, SilhouetteCalibration, disc_in_arc, validate_models)
from .options import rulings as default_rulings

CONTACT_TOLERANCE = 1e-6
"""Two bases (or a base and a scenery piece) closer than this (board units) are in Silhouette Contact. A placement
setting: a table cannot show a smaller gap."""


# ----------------------------------------------------------------------------------------------------- the table


@functools.lru_cache(maxsize=4096)
def _hex_polygon(layout: Layout, h: Hex) -> Polygon:
    return Polygon([layout.lattice_to_pixel(p) for p in lattice_corners(h)])


@functools.lru_cache(maxsize=16)
def _tile_geometry(layout: Layout, tiles: tuple[tuple[Hex, bool], ...]):
    """``(hexagons without tile as polygons, the board's outline, what lies off it)`` for a table's tiles; computed
    once per board and shared by every table on it (shapely geometries are immutable)."""
    holes = {h: _hex_polygon(layout, h) for h, t in tiles if not t}
    if not tiles:
        return holes, None, None
    board = shapely.union_all([_hex_polygon(layout, h) for h, _ in tiles])
    x0, y0, x1, y1 = board.bounds
    outside = shapely.box(x0 - 10, y0 - 10, x1 + 10, y1 + 10).difference(board)
    return holes, board, (None if outside.is_empty else outside)


class TableTop:
    """Models, scenery and hexagons (with or without tile) for LoF questions. Immutable by convention; ``with_model``
    returns a new table.

    Args:
        models: the Models (ids unique).
        scenery: scenery pieces (footprints in board units).
        tiles: ``{Hex: has_tile}`` for the hexagons of the board; ``None`` = an unbounded, fully tiled plane.
            Hexagons not in the mapping are off the board; for LoF they are hexagons without tiles too (label
            ``"off_board"``), so a Miner cannot see across a notch in the board's outline.
        layout: the hex layout (board units: size 1).
        calibration: Silhouette base radii and heights.
        validate: check the placement (see :meth:`validate`).

    Raises:
        ScenarioError: an invalid placement (see :meth:`validate`).
    """

    def __init__(self, models: Iterable[Model], scenery: Iterable[Scenery] = (),
                 tiles: Mapping[Hex, bool] | None = None, layout: Layout | None = None,
                 calibration: SilhouetteCalibration = DEFAULT_CALIBRATION, validate: bool = True):
        self.models: dict[str, Model] = {}
        for m in models:
            if m.id in self.models:
                raise ScenarioError(f"models.{m.id}", "two Models have the same id")
            self.models[m.id] = m
        self.scenery: tuple[Scenery, ...] = tuple(scenery)
        self.tiles: dict[Hex, bool] | None = None if tiles is None else {Hex(*h): bool(t) for h, t in tiles.items()}
        self.layout = layout or Layout("pointy", 1.0)
        self.calibration = calibration
        self._scenery_polys = {s.id: s.polygon() for s in self.scenery}
        self._hole_polys, self._board, self._off_board = _tile_geometry(
            self.layout, tuple(sorted(self.tiles.items())) if self.tiles else ())
        self.board = None  # the explorer.board.Board this table came from, if any (for drawing)
        self._memo: dict | None = None  # see _table_memo (set by lof_analysis.local_table, None otherwise)
        if validate:
            self.validate()

    def _repr_svg_(self) -> str:
        """The table as an SVG picture (bases, arcs, scenery, hexagons): :class:`.lof_picture.LofSnapshot` (the
        notebook display hook: the one place a rules module may import a picture, docs/design.md "Layers")."""
        from .lof_picture import LofSnapshot

        return LofSnapshot.of_table(self).to_svg()

    @classmethod
    def from_board(cls, board, models: Iterable[Model], calibration: SilhouetteCalibration = DEFAULT_CALIBRATION,
                   validate: bool = True) -> "TableTop":
        """A table from an :class:`explorer.board.Board` (cells with ``tile``; scenery with ``name``, ``polygon``,
        ``height`` (``None`` = tall) and ``blocks_lof``)."""
        scenery = [Scenery(s.name, tuple(tuple(p) for p in s.polygon),
                           math.inf if s.height is None else float(s.height))
                   for s in board.scenery if getattr(s, "blocks_lof", True)]
        tiles = {h: board[h].tile for h in board}
        table = cls(models, scenery, tiles, board.layout, calibration, validate)
        table.board = board
        return table

    # -- queries

    def hex_polygon(self, h: Hex) -> Polygon:
        """The hexagon as a polygon (board units). Corners come from the hex grid's exact lattice, so neighbouring
        hexagons share bit-identical corners and their union has no slivers."""
        return _hex_polygon(self.layout, h)

    def model(self, model_id: str) -> Model:
        try:
            return self.models[model_id]
        except KeyError:
            raise ScenarioError("model", f"no Model {short_repr(model_id)} on the table", sorted(self.models)) from None

    def disc(self, m: Model | str) -> Disc:
        m = self.model(m) if isinstance(m, str) else m
        if not _geometry.FAST_PATH:
            return m.disc(self.calibration)
        return self._disc_entry(m)[2]

    def _disc_entry(self, m: Model) -> tuple:
        """``(model, calibration, Disc, shapely Point at its centre)``, built once per Model object and calibration
        (a copy of the table shares the cache; the identity checks keep it right)."""
        cache = self.__dict__.get("_discs")
        if cache is None:
            cache = self._discs = {}
        got = cache.get(m.id)
        if got is None or got[0] is not m or got[1] is not self.calibration:
            d = m.disc(self.calibration)
            got = cache[m.id] = (m, self.calibration, d, shapely.Point(d.x, d.y))
        return got

    def polygon_index(self) -> PolygonIndex:
        """Every polygon that may block LoF on this table (scenery, hexagons without tile, off the board) in a
        :class:`.geometry.PolygonIndex`, built once per table and shared by its copies (whose polygons are a subset
        of the same objects)."""
        ix = self.__dict__.get("_polygon_index")
        if ix is None:
            labelled = [(f"scenery:{sid}", p) for sid, p in self._scenery_polys.items()]
            labelled += [(f"hex:{h.q},{h.r}", p) for h, p in self._hole_polys.items()]
            if self._off_board is not None:
                labelled.append(("off_board", self._off_board))
            ix = self._polygon_index = PolygonIndex(labelled)
        return ix

    def hex_of(self, m: Model | str) -> Hex:
        """The hexagon a Model stands in (its ``hex``, else the hexagon containing its base centre)."""
        m = self.model(m) if isinstance(m, str) else m
        if m.hex is not None or not _geometry.FAST_PATH:
            return m.hex_in(self.layout)
        cache = self.__dict__.get("_hexes")
        if cache is None:
            cache = self._hexes = {}
        got = cache.get(m.id)
        if got is None or got[0] is not m or got[1] is not self.layout:
            got = cache[m.id] = (m, self.layout, m.hex_in(self.layout))
        return got[2]

    def with_model(self, m: Model) -> "TableTop":
        """A new table where ``m`` replaces the Model with the same id (or is added)."""
        ms = dict(self.models)
        ms[m.id] = m
        return TableTop(ms.values(), self.scenery, self.tiles, self.layout, self.calibration)

    def without(self, model_id: str) -> "TableTop":
        ms = {k: v for k, v in self.models.items() if k != model_id}
        return TableTop(ms.values(), self.scenery, self.tiles, self.layout, self.calibration, validate=False)

    def in_contact(self, a: Model | str, b: Model | str, tol: float = CONTACT_TOLERANCE) -> bool:
        """Silhouette Contact between two Models (bases touching). Line of Fire and Distances › Interaction with
        Areas and Silhouettes. With a Model on scenery the two Silhouettes' height ranges must meet as well."""
        if abs(self.disc(a).distance_to(self.disc(b))) > tol:
            return False
        a = self.model(a) if isinstance(a, str) else a
        b = self.model(b) if isinstance(b, str) else b
        if a.on is None and b.on is None:
            return True
        from .elevation import vertical_gap

        return vertical_gap(self.elevation(a), self.top(a), self.elevation(b), self.top(b)) <= tol

    def enemy_miners_in_contact(self, s: Model) -> list[str]:
        """Ids of the enemy Miners in Silhouette Contact with Miner ``s`` (table order); kept per table state."""
        cache = self.__dict__.get("_engaged")
        if cache is None or cache[0] is not self.models or cache[1] is not self.calibration:
            cache = self._engaged = (self.models, self.calibration, {})
        got = cache[2].get(s.id) if _geometry.FAST_PATH else None
        if got is None or got[0] is not s:
            got = cache[2][s.id] = (s, [m.id for m in self.models.values() if m.id != s.id and s.is_enemy_miner_of(m)
                                        and self.in_contact(s, m)])
        return list(got[1])

    def scenery_in_contact(self, m: Model | str, tol: float = CONTACT_TOLERANCE) -> list[str]:
        d = self.disc(m)
        c = shapely.Point(d.center)
        return [sid for sid, p in self._scenery_polys.items() if p.distance(c) <= d.r + tol]

    def validate(self) -> None:
        """Check the placement.

        Raises:
            ScenarioError: overlapping bases; a Model whose ``hex`` does not contain its base centre; a Model off the
                board; a Miner or Deployable on (or overhanging) a hexagon without tile; a base overlapping a scenery
                piece; an unknown Silhouette.
        """
        validate_models(list(self.models.values()), self.calibration)
        for m in self.models.values():
            d = self.disc(m)
            where = f"models.{m.id}"
            if m.hex is not None:
                c = self.hex_polygon(m.hex)
                if c.distance(shapely.Point(m.center)) > 1e-9:
                    raise ScenarioError(f"{where}.hex", f"hexagon {m.hex} does not contain the base centre "
                                        f"({m.x:g}, {m.y:g})", f"the hexagon {self.layout.pixel_to_hex(m.center)} "
                                        "or one touching the centre")
            h = self.hex_of(m)
            if self.tiles is not None:
                if h not in self.tiles:
                    raise ScenarioError(where, f"the base centre is off the board (hexagon {h})",
                                        "a hexagon of the board")
                if m.kind != "megabeast":
                    if not self.tiles[h]:
                        raise ScenarioError(where, f"{short_repr(m.id)} stands on hexagon {h}, which has no tile",
                                            "Miners and Deployable Tools stand on tiles (Move › Requirements)")
                    circle = d.polygon()
                    if self._board is not None and circle.difference(self._board).area > 1e-9:
                        raise ScenarioError(where, f"the base of {short_repr(m.id)} overhangs the edge of the board",
                                            "a base entirely on tiles (Move › Requirements)")
                    for hh, poly in self._hole_polys.items():
                        if poly.intersection(circle).area > 1e-9:
                            raise ScenarioError(where,
                                                f"the base of {short_repr(m.id)} overhangs hexagon {hh}, which has no "
                                                "tile", "a base entirely on tiles (Move › Requirements)")
            circle = d.polygon()
            if m.on is not None:
                self._validate_standing(m, circle)
            for sid, poly in self._scenery_polys.items():
                if sid == m.on:
                    continue
                if poly.intersection(circle).area > 1e-9:
                    raise ScenarioError(where,
                                        f"the base of {short_repr(m.id)} overlaps scenery piece {short_repr(sid)}",
                                        "bases may touch scenery (Silhouette Contact) but not overlap it")

    def _validate_standing(self, m: Model, circle) -> None:
        """A Model standing on a piece: the piece exists, has a height, and holds the whole base (Move ›
        Requirements: a surface at least as big as the base)."""
        where = f"models.{m.id}.on"
        piece = self._scenery_by_id().get(m.on)
        if piece is None:
            raise ScenarioError(where, f"no scenery piece {short_repr(m.on)}", sorted(self._scenery_by_id()) or
                                ["the id of a scenery piece of the board"])
        if not math.isfinite(piece.height):
            raise ScenarioError(where, f"scenery piece {short_repr(m.on)} has no height",
                                "a piece with a height (board.scenery height = ...)")
        if circle.difference(self._scenery_polys[m.on]).area > 1e-9:
            raise ScenarioError(where, f"the base of {short_repr(m.id)} overhangs the top of {short_repr(m.on)}",
                                "a base entirely on the piece's top (Move › Requirements: a surface at least as big "
                                "as the base)")

    # -- elevation (Move › Effects: climbing; see :mod:`.elevation`)

    def _scenery_by_id(self) -> dict[str, Scenery]:
        got = self.__dict__.get("_by_id")
        if got is None or got[0] is not self.scenery:
            got = self._by_id = (self.scenery, {sc.id: sc for sc in self.scenery})
        return got[1]

    def elevation(self, m: Model | str) -> float:
        """Height (hex units) of the surface a Model stands on: 0 on the ground, else the height of the piece named
        by its ``on``."""
        m = self.model(m) if isinstance(m, str) else m
        if m.on is None:
            return 0.0
        piece = self._scenery_by_id().get(m.on)
        if piece is None or not math.isfinite(piece.height):
            raise ScenarioError(f"models.{m.id}.on", f"no scenery piece with a height named {short_repr(m.on)}",
                                sorted(self._scenery_by_id()))
        return float(piece.height)

    def top(self, m: Model | str) -> float:
        """Height of the top of a Model's Silhouette: its elevation plus its Silhouette height (hex units)."""
        m = self.model(m) if isinstance(m, str) else m
        return self.elevation(m) + m.height(self.calibration)

    @property
    def has_elevation(self) -> bool:
        """Some Model stands on scenery (the table's LoF questions involving it are answered in 3D)."""
        return any(m.on is not None for m in self.models.values())

    def elevated_pair(self, a: Model, b: Model) -> bool:
        """One of the two Models stands on scenery: their LoF, Range and Partial Cover are answered in 3D
        (:mod:`.elevation`); pairs on the ground keep the flat answers."""
        return a.on is not None or b.on is not None

    def prisms(self, shooter: Model, target: Model, rulings: Rulings) -> tuple[list, dict[str, str]]:
        """The obstacles of an elevated pair as :class:`.elevation.Prism` (scenery up to its height, other Models
        up to their tops, hexagons without tile and off the board at every height) and the readings used
        (``tileless_occupied_hexagon``, ``elevation_own_piece``)."""
        from .elevation import INF, Prism

        used: dict[str, str] = {}
        exempt: frozenset = frozenset()
        megabeast = shooter.kind == "megabeast"
        if not megabeast and self._hole_polys:
            own = rulings.reading("tileless_occupied_hexagon")
            used["tileless_occupied_hexagon"] = own
            if own == "exempt":
                exempt = frozenset(h for h in (self.hex_of(shooter), self.hex_of(target)) if h in self._hole_polys)
        own_piece = rulings.reading("elevation_own_piece")
        used["elevation_own_piece"] = own_piece
        skip = {shooter.on, target.on} - {None} if own_piece == "ignored" else set()
        out = [Prism(f"scenery:{sc.id}", sc.height, self._scenery_polys[sc.id]) for sc in self.scenery
               if sc.id not in skip]
        if not megabeast:
            out += [Prism(f"hex:{h.q},{h.r}", INF, p) for h, p in self._hole_polys.items() if h not in exempt]
            if self._off_board is not None:
                out.append(Prism("off_board", INF, self._off_board))
        out += [Prism(f"model:{m.id}", self.top(m), disc=self.disc(m)) for m in self.models.values()
                if m.id not in (shooter.id, target.id)]
        return out, used

    # -- obstacles

    def obstacles(self, shooter: Model, target: Model, rulings: Rulings) -> tuple[Obstacles, dict[str, str]]:
        """What may block LoF between ``shooter`` and ``target`` under ``rulings``; also the readings used."""
        used = {}
        height_rule = rulings.reading("scenery_height")
        used["scenery_height"] = height_rule
        hs, ht = shooter.height(self.calibration), target.height(self.calibration)
        low = min(hs, ht) if height_rule == "lower_than_both_does_not_block" else None
        exempt: frozenset = frozenset()
        if shooter.kind != "megabeast" and self._hole_polys:
            own = rulings.reading("tileless_occupied_hexagon")
            used["tileless_occupied_hexagon"] = own
            if own == "exempt":  # only the hexagons without tile matter (the key of the cache below)
                exempt = frozenset(h for h in (self.hex_of(shooter), self.hex_of(target)) if h in self._hole_polys)
        megabeast = shooter.kind == "megabeast"
        if not _geometry.FAST_PATH:
            polys = self._blocking_polygons(low, exempt, megabeast)
            discs = [(f"model:{m.id}", self.disc(m)) for m in self.models.values()
                     if m.id not in (shooter.id, target.id)]
            return Obstacles(polys, discs), used
        # the fast path: the polygons (and their places in the table's PolygonIndex) kept once per set of readings
        # and per set of pieces: a copy of the table (a pair's local table, :func:`.lof_analysis.local_table`) shares
        # this attribute but may hold other scenery, hexagons without tile or board edge, so the cache is dropped
        # as soon as those are other objects (else a local table would take the obstacles of another pair's)
        cache = self._blocking_cache()
        got = cache.get((low, exempt, megabeast))
        if got is None:
            # one template per set of polygons: readings that leave the same polygons (a height rule no piece here
            # is low enough for, an exemption of hexagons that have their tile) share its searches and geometry
            polys = self._blocking_polygons(low, exempt, megabeast)
            same = cache.setdefault("by_labels", {})
            labels = tuple(lab for lab, _ in polys)
            got = same.get(labels)
            if got is None:
                got = same[labels] = Obstacles.indexed(polys, self.polygon_index())
            cache[(low, exempt, megabeast)] = got
        return got.with_discs(*self._other_discs(shooter.id, target.id)), used

    def _blocking_cache(self) -> dict:
        """The fast path's cache of :meth:`obstacles` (readings -> indexed polygons, and polygon labels -> indexed
        polygons), kept per set of blocking pieces: the very same scenery, scenery polygons, hexagons without tile
        and off-board region (tested by identity, as the other per-table caches)."""
        pieces = (self.scenery, self._scenery_polys, self._hole_polys, self._off_board, self.polygon_index())
        got = self.__dict__.get("_blocking")
        if got is None or len(got[0]) != len(pieces) or any(a is not b for a, b in zip(got[0], pieces)):
            got = self._blocking = (pieces, {})
        return got[1]

    def _other_discs(self, a: str, b: str) -> tuple[list, np.ndarray]:
        """``([("model:<id>", Disc)], shapely Points)`` of every Model but ``a`` and ``b``, in table order (the
        obstacles' discs), built once per unordered pair and set of Models (callers do not mutate them)."""
        rows = self._labelled_discs()
        cache = self.__dict__.get("_other")
        if cache is None or cache[0] is not rows:
            cache = self._other = (rows, {})
        key = (a, b) if a <= b else (b, a)
        got = cache[1].get(key)
        if got is None:
            entries = [e for e in rows if e[0] not in key]
            points = np.empty(len(entries), dtype=object)
            points[:] = [e[3] for e in entries]
            got = cache[1][key] = ([(e[1], e[2]) for e in entries], points)
        return got

    def _labelled_discs(self) -> list[tuple]:
        """``(id, "model:<id>", Disc, shapely Point)`` of every Model in table order, built once per set of Models
        and calibration (the fast path's :meth:`obstacles`)."""
        got = self.__dict__.get("_labelled")
        if got is None or got[0] is not self.models or got[1] is not self.calibration:
            rows = [(e[0].id, f"model:{e[0].id}", e[2], e[3])
                    for e in (self._disc_entry(m) for m in self.models.values())]
            got = self._labelled = (self.models, self.calibration, rows)
        return got[2]

    def _blocking_polygons(self, low: float | None, exempt: frozenset, megabeast: bool) -> list:
        """``(label, polygon)`` of the scenery at least ``low`` high (every piece when ``low`` is ``None``), the
        hexagons without tile outside ``exempt`` and what lies off the board (neither for a MegaBeast shooter)."""
        polys: list[tuple[str, BaseGeometry]] = []
        for s in self.scenery:
            if low is not None and s.height < low:
                continue
            polys.append((f"scenery:{s.id}", self._scenery_polys[s.id]))
        if not megabeast and self._hole_polys:
            polys += [(f"hex:{h.q},{h.r}", p) for h, p in self._hole_polys.items() if h not in exempt]
        if not megabeast and self._off_board is not None:
            polys.append(("off_board", self._off_board))
        return polys


# ----------------------------------------------------------------------------------------------------- results


@dataclass
class Ray:
    """A segment drawn for explanation and what blocks it (empty tuple: clear)."""

    segment: Segment
    blocked_by: tuple[str, ...]


@dataclass
class LoFResult:
    """The answer to "can ``shooter`` draw LoF to ``target``?".

    Attributes:
        shooter, target: Model ids.
        has_lof: the verdict.
        reason: ``"clear"`` (a clear segment and the target in the arc), ``"silhouette_contact"`` (enemy Miners in
            Silhouette Contact: 360°), ``"reciprocity"``, ``"outside_arc"``, ``"blocked"`` or ``"engaged"`` (the
            shooter is in Silhouette Contact with an enemy Miner and the target is not one of those).
        witness: a clear segment (board units) from the shooter's Silhouette to the target's when ``has_lof``.
        blocked_by: obstacle labels (``"scenery:<id>"``, ``"model:<id>"``, ``"hex:<q>,<r>"``) that cross the region
            between the two bases when blocked; ``()`` otherwise.
        rays: explanatory segments (the centre line and the two outer common tangents) with their blockers.
        in_arc: the target is totally or partially inside the shooter's arc.
        arc_degrees: the arc used (180, 360, or the MegaBeast's Angle of Vision).
        rule: the section that decided the verdict.
        rulings: readings consulted.
        candidates_tested: candidate lines tested by the exact search.
        detail: one-sentence explanation.
        exact: ``False`` only for a "blocked" verdict between Models at different heights reached by the sampled
            stage of :func:`.elevation.find_clear_segment_3d` (limit :data:`LIMIT_3D_SEARCH`: a piece whose top lies
            between the two Silhouettes' tops crosses the plan, and no clear line was found among the candidate
            lines tested; a search, not a proof). Every other verdict is proved.
        resolution: with ``exact = False``, the bound of that search (board units): every line joining two points of
            a net of each base with that spacing was tested, so no clear line stays farther than this from the
            footprints it passes below the top of (:func:`.elevation.find_clear_segment_3d`); ``None`` otherwise.
    """

    shooter: str
    target: str
    has_lof: bool
    reason: str
    rule: RuleRef
    witness: Segment | None = None
    blocked_by: tuple[str, ...] = ()
    rays: list[Ray] = field(default_factory=list)
    in_arc: bool = True
    arc_degrees: float = 180.0
    rulings: dict[str, str] = field(default_factory=dict)
    candidates_tested: int = 0
    detail: str = ""
    exact: bool = True
    resolution: float | None = None

    def __bool__(self) -> bool:
        return self.has_lof

    def to_step(self) -> Step:
        title = f"{self.shooter} {'has' if self.has_lof else 'has no'} LoF to {self.target} ({self.reason})"
        marks = (self.shooter, self.target, *self.blocked_by)
        facts = {"has_lof": self.has_lof, "reason": self.reason, "in_arc": self.in_arc,
                 "arc_degrees": self.arc_degrees, "blocked_by": list(self.blocked_by),
                 "witness": None if self.witness is None else [list(self.witness.p0), list(self.witness.p1)]}
        if not self.exact:
            facts["exact"] = False
            facts["limit"] = LIMIT_3D_SEARCH
            if self.resolution is not None:
                facts["resolution"] = round(self.resolution, 6)
        return Step(title, self.rule, self.detail, facts, marks, "Line of Fire")


from .lof_report import LIMIT_3D_SEARCH  # noqa: E402  (the named limit; defined where the answers' words are)


def limit_3d_words(candidates: int, resolution: float | None = None) -> str:
    """The words the LoF answer adds to a verdict reached under :data:`LIMIT_3D_SEARCH` (``candidates``: lines
    tested; ``resolution``: the bound of the search, board units, :attr:`LoFResult.resolution`)."""
    if resolution is None:
        return (f" Not proved (limit {LIMIT_3D_SEARCH}): a piece whose top lies between the two Silhouettes' tops "
                f"crosses between them, and none of the {candidates} candidate lines tested is clear; a thinner clear "
                "line over its top edge is not ruled out.")
    return (f" Not proved (limit {LIMIT_3D_SEARCH}): a piece whose top lies between the two Silhouettes' tops crosses "
            f"between them, and none of the {candidates} candidate lines tested is clear; they include every line "
            f"between two nets that come within {resolution:.3f} hex units of every point of either base, so no clear "
            f"line keeps more than {resolution:.3f} hex units from the pieces it passes below the top of (a thinner "
            "one over a top edge is not ruled out).")


def _grazing(rulings: Rulings) -> bool:
    return rulings.reading("lof_grazing") == "touching_blocks"


def _explain_rays(a: Disc, b: Disc, obstacles: Obstacles, touching_blocks: bool) -> list[Ray]:
    dx, dy = b.x - a.x, b.y - a.y
    dl = math.hypot(dx, dy)
    n0 = np.array([[-dy / dl, dx / dl]])
    c0 = np.array([-(n0[0, 0] * a.x + n0[0, 1] * a.y)])
    f = np.array([[a.x, a.y, a.r]])
    g = np.array([[b.x, b.y, b.r]])
    n1, c1 = common_tangents(f, g)
    # outer tangents: both discs on the same side (signed distances r_a and +r_b)
    sa = n1 @ np.array([a.x, a.y]) + c1
    sb = n1 @ np.array([b.x, b.y]) + c1
    outer = np.sign(sa) == np.sign(sb)
    segs = gap_segments(np.concatenate([n0, n1[outer]]), np.concatenate([c0, c1[outer]]), a, b)
    kept = [Segment((float(s[0]), float(s[1])), (float(s[2]), float(s[3]))) for s in segs if not np.isnan(s).any()]
    if not _geometry.FAST_PATH:
        return [Ray(seg, tuple(blockers_of(seg, obstacles, touching_blocks=touching_blocks))) for seg in kept]
    return [Ray(seg, tuple(found))
            for seg, found in zip(kept, blockers_of_rows(kept, obstacles, touching_blocks=touching_blocks))]


def _relevant_blockers(a: Disc, b: Disc, obstacles: Obstacles, rays: list[Ray]) -> tuple[str, ...]:
    from .geometry import capsule

    region = capsule(a, b)
    found = {lab for r in rays for lab in r.blocked_by}
    if _geometry.FAST_PATH:  # the same GEOS operations, one vectorised call each
        if obstacles.polygons:
            geoms = np.empty(len(obstacles.polygons), dtype=object)
            geoms[:] = [p for _, p in obstacles.polygons]
            area = shapely.area(shapely.intersection(geoms, region))
            found.update(obstacles.polygons[i][0] for i in np.flatnonzero(area > 1e-12))
        if obstacles.discs:
            dist = shapely.distance(region, shapely.points([d.center for _, d in obstacles.discs]))
            r = np.array([d.r for _, d in obstacles.discs], dtype=float)
            found.update(obstacles.discs[i][0] for i in np.flatnonzero(dist < r))
        return tuple(sorted(found))
    for lab, p in obstacles.polygons:
        if p.intersection(region).area > 1e-12:
            found.add(lab)
    for lab, d in obstacles.discs:
        if region.distance(shapely.Point(d.center)) < d.r:
            found.add(lab)
    return tuple(sorted(found))


def _explain_batch(items: Sequence[tuple[Disc, Disc, Obstacles, bool, bool]]) -> list[tuple | None]:
    """The explanations of many LoF verdicts computed together (the fast path's batch over a whole table's pairs):
    for each ``(a, b, obstacles, touching_blocks, blocked)`` the pair ``(rays, blockers)`` that
    :func:`_explain_rays` and, when ``blocked``, :func:`_relevant_blockers` give (``blockers`` is ``None`` when not
    ``blocked``), or ``None`` for an item left to them (not indexed obstacles, a base on top of the other, or a
    near tie in the outer-tangent test below).

    Exact: element by element the same arithmetic as :func:`_explain_rays` (the tangents of
    :func:`.geometry._tangent_blocks` and the gap segments of :func:`.geometry._gap_params_xy` computed for all items'
    rows at once; ``+ - * /`` and square roots are correctly rounded, so the same numbers), and the same GEOS
    predicates on the same geometries (one call over every (ray, polygon) pair rather than one call per verdict).
    The one test done differently is which common tangents are outer (both bases on the same side): the single
    verdict takes the signs of a matrix product, the batch those of the same sums written out; an item where one of
    them is within ``1e-9`` of zero (a sign the rounding could flip) is left to :func:`_explain_rays`. Its disc
    blockers are found item by item (:func:`.geometry._discs_block`, as the single verdict does)."""
    from types import SimpleNamespace

    from .geometry import TOL, _discs_block, _gap_params_xy, _segments_to_lines, _tangent_blocks

    out: list[tuple | None] = [None] * len(items)
    todo = []
    for k, (a, b, obs, tb, blocked) in enumerate(items):
        dl = math.hypot(b.x - a.x, b.y - a.y)
        if dl > 0 and obs._indexed():
            todo.append((k, dl))
    if not todo:
        return out
    A = np.array([[items[k][0].x, items[k][0].y, items[k][0].r] for k, _ in todo], dtype=float)
    B = np.array([[items[k][1].x, items[k][1].y, items[k][1].r] for k, _ in todo], dtype=float)
    dl = np.array([d for _, d in todo], dtype=float)
    m = len(todo)
    # the centre line, as _explain_rays computes it (the same operations on the same floats)
    dx, dy = B[:, 0] - A[:, 0], B[:, 1] - A[:, 1]
    n0x, n0y = -dy / dl, dx / dl
    c0 = -(n0x * A[:, 0] + n0y * A[:, 1])
    n, c, valid = _tangent_blocks(A, B)                          # (4, m, 2), (4, m), (4, m)
    sa = n[..., 0] * A[:, 0] + n[..., 1] * A[:, 1] + c
    sb = n[..., 0] * B[:, 0] + n[..., 1] * B[:, 1] + c
    near = valid & ((np.abs(sa) <= 1e-9) | (np.abs(sb) <= 1e-9))
    outer = valid & (np.sign(sa) == np.sign(sb))
    tie = near.any(axis=0)
    # every item's rows: the centre line, then its outer tangents in block order
    rows_item, rows_nx, rows_ny, rows_c = [], [], [], []
    for i in range(m):
        if tie[i]:
            continue
        rows_item.append(i)
        rows_nx.append(n0x[i])
        rows_ny.append(n0y[i])
        rows_c.append(c0[i])
        for blk in range(4):
            if outer[blk, i]:
                rows_item.append(i)
                rows_nx.append(n[blk, i, 0])
                rows_ny.append(n[blk, i, 1])
                rows_c.append(c[blk, i])
    if not rows_item:
        return out
    ri = np.array(rows_item)
    ga = SimpleNamespace(x=A[ri, 0], y=A[ri, 1], r=A[ri, 2])
    gb = SimpleNamespace(x=B[ri, 0], y=B[ri, 1], r=B[ri, 2])
    px, py, ux, uy, ta, tb_, bad = _gap_params_xy(np.array(rows_nx), np.array(rows_ny), np.array(rows_c), ga, gb, ())
    segs = np.stack([px + ta * ux, py + ta * uy, px + tb_ * ux, py + tb_ * uy], axis=1)
    segs[bad] = np.nan
    kept_rows = ~np.isnan(segs).any(axis=1)
    per_item: dict[int, list[int]] = {}
    for row, i in enumerate(rows_item):
        per_item.setdefault(i, [])
        if kept_rows[row]:
            per_item[i].append(row)
    seg_obj = {row: Segment((float(segs[row, 0]), float(segs[row, 1])), (float(segs[row, 2]), float(segs[row, 3])))
               for rows in per_item.values() for row in rows}
    found: dict[int, list[str]] = {row: [] for row in seg_obj}
    # polygons: one broadcast call per grazing reading over every (ray, polygon) pair of every item
    for tb in (False, True):
        li, geoms, labels = [], [], []
        for i, rows in per_item.items():
            a, b, obs, t_b, _ = items[todo[i][0]]
            if t_b is not tb or not obs.polygons or not rows:
                continue
            g = obs.index.geoms[obs._ids] if tb else obs.index.eroded(obs._ids, TOL)
            for row in rows:
                li.extend([row] * len(g))
                geoms.extend(g)
                labels.extend(lab for lab, _ in obs.polygons)
        if not li:
            continue
        lines = _segments_to_lines(np.array([[*seg_obj[r].p0, *seg_obj[r].p1] for r in li], dtype=float))
        garr = np.empty(len(geoms), dtype=object)
        garr[:] = geoms
        # eroded polygons (prepared by the index) first when not grazing: GEOS uses a preparation only there
        hit = shapely.dwithin(lines, garr, TOL) if tb else shapely.intersects(garr, lines)
        for row, lab, h in zip(li, labels, hit):
            if h:
                found[row].append(lab)
    rays_of: dict[int, list[Ray]] = {}
    for i, rows in per_item.items():
        a, b, obs, tb, _ = items[todo[i][0]]
        if obs.discs and rows:
            arr = np.array([[*seg_obj[r].p0, *seg_obj[r].p1] for r in rows], dtype=float)
            d = np.array([[dd.x, dd.y, dd.r] for _, dd in obs.discs])
            for r, hits in zip(rows, _discs_block(arr, d, tb, TOL)):
                found[r] += [obs.discs[j][0] for j in np.flatnonzero(hits)]
        rays_of[i] = [Ray(seg_obj[r], tuple(found[r])) for r in rows]
    # the blockers across the region between the bases (blocked verdicts only): the same GEOS operations, batched
    blocked = [i for i in rays_of if items[todo[i][0]][4]]
    regions = {}
    if blocked:
        lines = shapely.linestrings([[items[todo[i][0]][0].center, items[todo[i][0]][1].center] for i in blocked])
        radii = np.array([max(items[todo[i][0]][0].r, items[todo[i][0]][1].r) for i in blocked], dtype=float)
        for i, reg in zip(blocked, shapely.buffer(lines, radii, quad_segs=16)):
            regions[i] = reg
        pi, pg, pl = [], [], []
        di, dp, dr, dlab = [], [], [], []
        for i in blocked:
            obs = items[todo[i][0]][2]
            for lab, p in obs.polygons:
                pi.append(i)
                pg.append(p)
                pl.append(lab)
            for lab, d in obs.discs:
                di.append(i)
                dp.append(d.center)
                dr.append(d.r)
                dlab.append(lab)
        extra: dict[int, set] = {i: {lab for r in rays_of[i] for lab in r.blocked_by} for i in blocked}
        if pi:
            garr = np.empty(len(pg), dtype=object)
            garr[:] = pg
            rarr = np.empty(len(pi), dtype=object)
            rarr[:] = [regions[i] for i in pi]
            area = shapely.area(shapely.intersection(garr, rarr))
            for i, lab, ar in zip(pi, pl, area):
                if ar > 1e-12:
                    extra[i].add(lab)
        if di:
            rarr = np.empty(len(di), dtype=object)
            rarr[:] = [regions[i] for i in di]
            dist = shapely.distance(rarr, shapely.points(dp))
            for i, lab, dd, r in zip(di, dlab, dist, dr):
                if dd < r:
                    extra[i].add(lab)
    for i, rays in rays_of.items():
        k = todo[i][0]
        out[k] = (rays, tuple(sorted(extra[i])) if items[k][4] else None)
    return out


def _explained(table: "TableTop", s: Model, t: Model, a: Disc, b: Disc, obs: Obstacles, tb: bool,
               blocked: bool) -> tuple[list[Ray], tuple[str, ...]]:
    """``(rays, blockers)`` of a verdict: :func:`_explain_rays` and (``blocked``) :func:`_relevant_blockers`, or the
    answer :meth:`.lof_analysis.LofAnalysisCache.all_pairs` batched beforehand for this pair's local table
    (:func:`_explain_batch`), taken only for the very same obstacles (the same polygon template on the same local
    table, whose Models do not change)."""
    if _geometry.FAST_PATH and table._memo is not None and obs._template is not None:
        got = table.__dict__.get("_preexplained", {}).get((s.id, t.id, tb, id(obs._template)))
        if got is not None and got[0] is obs._template and (got[2] is not None or not blocked):
            return list(got[1]), (got[2] if blocked else ())
    rays = _explain_rays(a, b, obs, tb)
    return rays, (_relevant_blockers(a, b, obs, rays) if blocked else ())


def arc_clips(origin: XY, facing: float, arc: float) -> list[list[tuple[float, float, float]]]:
    """The shooter's arc as half-planes: a list of alternatives, each a list of half-planes to intersect
    (``[]`` for 360°; one half-plane for 180°; a wedge of two for less; two alternatives for more than 180°)."""
    if arc >= 360.0:
        return []
    half = arc / 2

    def hp(deg):
        nx, ny = math.cos(math.radians(deg)), math.sin(math.radians(deg))
        return (nx, ny, -(nx * origin[0] + ny * origin[1]))

    if abs(arc - 180.0) < 1e-12:
        return [[hp(facing)]]
    n1, n2 = hp(facing + half - 90), hp(facing - half + 90)
    return [[n1, n2]] if arc < 180.0 else [[n1], [n2]]


def _state_memo(table: TableTop) -> dict | None:
    """A memo for a table without ``_memo`` (the fast path only): kept on the table and dropped as soon as its Models,
    scenery, hexagons or calibration are other objects (a copy with other Models, :func:`.lof_scenario.
    table_with_models`), so a hit is always a question asked on the same table state."""
    if not _geometry.FAST_PATH:
        return None
    got = table.__dict__.get("_auto_memo")
    if got is not None:
        st = got[0]   # the same objects, tested one by one (no generator: this runs for every question)
        if st[0] is table.models and st[1] is table.scenery and st[2] is table._scenery_polys and \
                st[3] is table._hole_polys and st[4] is table._off_board and st[5] is table.calibration and \
                st[6] is table.layout:
            return got[1]
    state = (table.models, table.scenery, table._scenery_polys, table._hole_polys, table._off_board, table.calibration,
             table.layout)
    got = table._auto_memo = (state, {})
    return got[1]


def _in_arc(table: TableTop, s: Model, t: Model) -> bool:
    """``disc_in_arc(s.center, s.facing, s.arc_degrees(), table.disc(t))`` (Line of Fire › the arc condition), kept
    per table state on the fast path (an all-pairs run asks it of each pair up to three times)."""
    memo = table._memo if table._memo is not None else _state_memo(table)
    if memo is None:
        return disc_in_arc(s.center, s.facing, s.arc_degrees(), table.disc(t))
    arcs = memo.get("_arcs")
    if arcs is None:
        arcs = memo["_arcs"] = {}
    got = arcs.get((s.id, t.id))
    if got is None or got[0] is not s or got[1] is not t:
        got = arcs[(s.id, t.id)] = (s, t, disc_in_arc(s.center, s.facing, s.arc_degrees(), table.disc(t)))
    return got[2]


def _table_memo(copy_value=lambda v: v, auto: bool = False):
    """Memoise a query ``fn(table, shooter, target, rulings, **kw)`` on a table that carries a ``_memo`` dict (the
    short-lived per-pair tables of :func:`.lof_analysis.local_table`, where LoF, the Range Ruler and Partial Cover
    ask the same LoF questions several times); a table without one (``_memo is None``, the default) computes as
    before. Each answer is kept with the readings its computation consulted and reused for any rulings that agree
    on those readings (flipping a ruling the question never read reuses it; flipping back reuses the first answer).
    A hit replays those readings into ``rulings.consulted``; ``copy_value`` copies the parts of a result that
    callers mutate."""
    def deco(fn):
        @functools.wraps(fn)
        def wrapper(table, shooter, target, rulings=None, **kw):
            memo = getattr(table, "_memo", None)
            if memo is None and auto:
                memo = _state_memo(table)
            if memo is None:
                return fn(table, shooter, target, rulings, **kw)
            rulings = rulings or default_rulings()
            s = table.model(shooter) if isinstance(shooter, str) else shooter
            t = table.model(target) if isinstance(target, str) else target
            # keyed without the readings: each answer is kept with the readings its computation consulted and
            # reused while those agree (a flipped ruling the question never read reuses it). lof_shooter_arc is in
            # the key: clear_segment looks at it without consulting it when it is at its default.
            key = (fn.__name__, s, t, tuple(sorted(kw.items())), rulings.chosen("lof_shooter_arc"))
            variants = memo.get(key)
            if variants is None:
                variants = memo[key] = []
            chosen = rulings._chosen
            for value, consulted in variants:
                for k, v in consulted:
                    if chosen.get(k) != v:
                        break
                else:
                    rulings.consulted.update(consulted)
                    return copy_value(value)
            fresh = rulings.copy()
            value = fn(table, s, t, fresh, **kw)
            consulted = tuple(fresh.consulted.items())
            variants.append((value, consulted))
            rulings.consulted.update(consulted)
            return copy_value(value)
        return wrapper
    return deco


@_table_memo(copy_value=lambda v: (v[0], v[1], dict(v[2])), auto=True)
def clear_segment(table: TableTop, shooter: Model | str, target: Model | str, rulings: Rulings | None = None,
                  *, arc_part: bool | None = None):
    """The geometric half of LoF only (no arc test, no exceptions): ``(ClearResult, Obstacles, readings)``.

    ``arc_part``: restrict the target to the part inside the shooter's arc (default: as ruling option
    ``lof_arc_part`` says). Under ruling ``lof_shooter_arc = front_half`` (consulted only when chosen: the default
    ``any_point`` restricts nothing) a Miner's line must leave the part of its base inside its arc (the search runs
    from the target, clipping the shooter's disc); with ``lof_arc_part = seen_part_in_arc`` as well, both ends are
    clipped (:class:`.geometry.ClipBoth`).
    """
    rulings = rulings or default_rulings()
    s = table.model(shooter) if isinstance(shooter, str) else shooter
    t = table.model(target) if isinstance(target, str) else target
    if table.elevated_pair(s, t):  # a Model on scenery: the 3D answer (elevation.py); flat pairs run as before
        return _clear_segment_3d(table, s, t, rulings, arc_part)
    obs, used = table.obstacles(s, t, rulings)
    tb = _grazing(rulings)
    used["lof_grazing"] = rulings.reading("lof_grazing")
    narrow = s.arc_degrees() < 360.0
    if narrow and arc_part is None:
        used["lof_arc_part"] = rulings.reading("lof_arc_part")
        arc_part = used["lof_arc_part"] == "seen_part_in_arc"
    arc_part = narrow and bool(arc_part)
    a, b = table.disc(s), table.disc(t)
    shooter_side = s.kind == "miner" and narrow and rulings.chosen("lof_shooter_arc") == "front_half"
    if shooter_side or arc_part:
        if shooter_side:
            used["lof_shooter_arc"] = rulings.reading("lof_shooter_arc")
        mode, runs = clipped_searches(s, a, b, arc_part, shooter_side)
        res = _prebatched(table, (s.id, t.id, tb, id(obs._template), mode), obs)
        if res is None:  # (an answer batched beforehand needs no regions)
            _prefetch_regions(table)
            res = _combine(_run(x, y, obs, tb, c, turned) for x, y, c, turned in runs)
    else:
        res = _batched_search(table, s, t, obs, tb, rulings)
        if res is None:  # (an answer batched beforehand needs no regions)
            _prefetch_regions(table)
            res = find_clear_segment(a, b, obs, touching_blocks=tb)
    return res, obs, used


def clipped_searches(s: Model, a: Disc, b: Disc, arc_part: bool, shooter_side: bool) -> tuple[str, list[tuple]]:
    """The LoF searches of shooter ``s`` (base ``a``) to target base ``b`` that the arc readings clip, as
    :func:`clear_segment` runs them: ``(mode, [(x, y, clip, turned), ...])``, one
    :func:`.geometry.find_clear_segment` from ``x`` to ``y`` under ``clip`` per half-plane alternative of the arc
    (:func:`arc_clips`), in order, its witness turned end for end when ``turned``. Modes: ``"both"``
    (``lof_shooter_arc = front_half`` and ``lof_arc_part = seen_part_in_arc``: both ends clipped,
    :class:`.geometry.ClipBoth`), ``"shooter"`` (front half only: searched from the target, the shooter's disc
    clipped), ``"target"`` (the part of the target inside the arc only)."""
    clips = arc_clips(s.center, s.facing, s.arc_degrees())
    if shooter_side and arc_part:
        return "both", [(a, b, ClipBoth(c, c), False) for c in clips]
    if shooter_side:
        return "shooter", [(b, a, c, True) for c in clips]
    return "target", [(a, b, c, False) for c in clips]


def _run(x: Disc, y: Disc, obs: Obstacles, tb: bool, clip, turned: bool) -> ClearResult:
    """One search of :func:`clipped_searches`: :func:`.geometry.find_clear_segment`, its witness turned back when
    ``turned``."""
    r = find_clear_segment(x, y, obs, touching_blocks=tb, clip=clip)
    if turned and r.witness is not None:
        r.witness = Segment(r.witness.p1, r.witness.p0)
    return r


def _combine(results) -> ClearResult:
    """The answer of a search over half-plane alternatives from each alternative's answer, in order (``results``
    may be lazy: nothing after the first alternative with a clear line is asked for): the first clear line found,
    with the candidates tested by every alternative up to it."""
    res = None
    for r in results:
        if res is None:
            res = r
        else:
            res.candidates_tested += r.candidates_tested
            res.witness, res.contact = (r.witness, r.contact) if res.witness is None else (res.witness, res.contact)
        if res.witness is not None:
            break
    return res


def _prebatched(table: TableTop, key: tuple, obs: Obstacles) -> ClearResult | None:
    """A copy of the answer :meth:`.lof_analysis.LofAnalysisCache.all_pairs` batched beforehand under ``key`` on a
    pair's local table (``(shooter, target, grazing, id(obstacles' template))``, plus :func:`clipped_searches`'
    mode for a clipped search), for the very same obstacles; ``None`` otherwise (the caller searches on its
    own)."""
    if not _geometry.FAST_PATH or obs._template is None or table._memo is None:
        return None
    got = table.__dict__.get("_prebatched", {}).get(key)
    if got is None or got[0] is not obs._template:
        return None
    r = got[1]
    return ClearResult(r.witness, r.candidates_tested, r.contact)


def _arc_setup(s: Model, rulings: Rulings, used: dict, arc_part: bool | None):
    """``(alternatives, (shooter_side, target_side))`` of the arc readings, as :func:`clear_segment` reads them: the
    arc's half-plane alternatives (``None``: nothing clipped) and whether they clip the shooter's end
    (``lof_shooter_arc = front_half``) and the target's (``lof_arc_part = seen_part_in_arc``); both may."""
    if s.arc_degrees() < 360.0:
        if arc_part is None:
            used["lof_arc_part"] = rulings.reading("lof_arc_part")
            arc_part = used["lof_arc_part"] == "seen_part_in_arc"
        shooter_side = s.kind == "miner" and rulings.chosen("lof_shooter_arc") == "front_half"
        if shooter_side:
            used["lof_shooter_arc"] = rulings.reading("lof_shooter_arc")
        clips = arc_clips(s.center, s.facing, s.arc_degrees())
        if arc_part or shooter_side:
            return clips, (shooter_side, arc_part)
    return None, (False, False)


def _clear_segment_3d(table: TableTop, s: Model, t: Model, rulings: Rulings, arc_part: bool | None):
    """:func:`clear_segment` for a pair where a Model stands on scenery (:func:`.elevation.find_clear_segment_3d`
    between the tops of the two cylinders). The obstacles returned (for explanations) are the footprints of the
    pieces that can block this pair's lines (lower than both tops left out)."""
    from .elevation import as_obstacles, classify, find_clear_segment_3d

    prisms, used = table.prisms(s, t, rulings)
    tb = _grazing(rulings)
    used["lof_grazing"] = rulings.reading("lof_grazing")
    clips, (shooter_side, target_side) = _arc_setup(s, rulings, used, arc_part)
    a, b = table.disc(s), table.disc(t)
    ta, tt = table.top(s), table.top(t)
    alternatives = clips if clips is not None else [()]
    res = None
    for c in alternatives:
        r = find_clear_segment_3d(a, b, ta, tt, prisms, touching_blocks=tb,
                                  clip=c if target_side else (), shooter_clip=c if shooter_side else ())
        if res is None:
            res = r
        else:
            res.candidates_tested += r.candidates_tested
            if res.witness is None:
                # blocked in every alternative so far: proved only if every one was proved (a found line is)
                exact = r.exact if r.witness is not None else res.exact and r.exact
                res.witness, res.contact, res.clear = r.witness, r.contact, r.clear
                res.resolution = None if exact else max(x for x in (res.resolution, r.resolution) if x is not None)
                res.exact = exact
        if res.witness is not None:
            break
    full, partial = classify(ta, tt, prisms, tb)
    return res, as_obstacles(full + [p for p, _ in partial]), used


def _batched_search(table: TableTop, s: Model, t: Model, obs: Obstacles, tb: bool,
                    rulings: Rulings) -> ClearResult | None:
    """The fast path's batched searches (:func:`.geometry.find_clear_segments`, each answer the one-search answer).

    On a whole table: from the second search on a table state, the first search of a shooter's row (the table's very
    first search aside) runs the searches to every target in its arc together and keeps them for the table state;
    the first search of a second shooter's row runs every remaining shooter's row with it (a whole-table question:
    one batch rather than one per row; shooters whose searches the arc readings clip left out). On a pair's local table
    (:func:`.lof_analysis.local_table`): the answer :meth:`.lof_analysis.LofAnalysisCache.all_pairs` batched for it
    beforehand. Either way an answer is taken only for the very same obstacles (the same polygon template, the
    same Models). ``None`` when the caller should search on its own (the former path, a table's first search, a pair
    outside the batch). Called only for searches without clip from the shooter's side."""
    if not _geometry.FAST_PATH or obs._template is None:
        return None
    if table._memo is not None:  # a pair's local table: the answers batched for it beforehand, if any
        return _prebatched(table, (s.id, t.id, tb, id(obs._template)), obs)
    memo = _state_memo(table)
    if memo is None:
        return None
    found = memo.setdefault("_batched", {})
    got = found.get((s.id, t.id, tb, id(obs._template)))
    if got is None:
        seen = memo.setdefault("_rows", set())
        row = (s.id, tb, rulings.key())
        if row in seen:  # this shooter's row is done (a pair outside it): search alone
            return None
        if not seen:  # the table's first search: alone (its shooter's row is batched from its next search on)
            seen.add(None)
            return None
        seen.add(row)
        shooters = [s]
        if len(seen) > 2:  # a second shooter's row on this table state: a whole-table question, every row at once
            shooters += [u for u in table.models.values()
                         if u.id != s.id and (u.id, tb, rulings.key()) not in seen and not _clipped(u, rulings)]
            seen.update((u.id, tb, rulings.key()) for u in shooters)
        items, keys = [], []
        for sh in shooters:
            a = table.disc(sh)
            for u in table.models.values():
                if u.id == sh.id or not _in_arc(table, sh, u):
                    continue
                o = obs if sh is s and u.id == t.id else table.obstacles(sh, u, rulings.copy())[0]
                items.append((a, table.disc(u), o))
                keys.append((sh.id, u.id, o._template))
        for (sid, uid, tmpl), r in zip(keys, find_clear_segments(items, touching_blocks=tb)):
            found[(sid, uid, tb, id(tmpl))] = (tmpl, r)
        got = found.get((s.id, t.id, tb, id(obs._template)))
        if got is None:
            return None
    tmpl, r = got
    if tmpl is not obs._template:
        return None
    return ClearResult(r.witness, r.candidates_tested, r.contact)


def _clipped(s: Model, rulings: Rulings) -> bool:
    """Whether the arc readings clip ``s``'s searches (:func:`clear_segment` then runs :func:`clipped_searches`, not
    the unclipped batch): an arc under 360° under ``lof_arc_part = seen_part_in_arc``, or a Miner's under
    ``lof_shooter_arc = front_half``: the decision :func:`clear_segment` makes when not told ``arc_part``. Reads
    the readings without consulting them (for the batches, which record nothing)."""
    if s.arc_degrees() >= 360.0:
        return False
    return rulings.chosen("lof_arc_part") == "seen_part_in_arc" or (
        s.kind == "miner" and rulings.chosen("lof_shooter_arc") == "front_half")


def _prefetch_regions(table: TableTop) -> None:
    """The fast path: on a table state's first search, the search region of every ordered pair of its Models and
    the polygons meeting it, built together (:meth:`.geometry.PolygonIndex.regions`: one vectorised buffer, one tree
    query) rather than one pair at a time. The index keeps them by the bases' coordinates, so after a move only the
    pairs of the moved Model are built again. Changes no answer (the same regions, the same polygons)."""
    if not _geometry.FAST_PATH or table.__dict__.get("_regions_for") is table.models:
        return
    table._regions_for = table.models
    ix = table.polygon_index()
    if ix.tree is None or len(table.models) < 3:
        return
    ms = [(m, table.disc(m)) for m in table.models.values()]
    # only pairs whose target is at least partly in the shooter's arc are ever searched by line_of_fire (others are
    # built on demand, the same regions either way)
    ix.regions([(a, b) for s, a in ms for t, b in ms if a is not b and _in_arc(table, s, t)], 10 * _geometry.TOL)


@_table_memo()
def line_of_fire(table: TableTop, shooter: Model | str, target: Model | str, rulings: Rulings | None = None,
                 *, explain: bool = True, _reciprocity: bool = True) -> LoFResult:
    """Can ``shooter`` draw LoF to ``target``?

    Sections: Line of Fire and Distances › Line of Fire (conditions and exceptions); MegaBeast › MegaBeast Line of
    Fire. Ruling options consulted: ``lof_grazing``, ``scenery_height``, ``tileless_occupied_hexagon``,
    ``megabeast_reciprocity`` (see :mod:`explorer.games.tagraid.options`).

    Order of the checks: (1) a Miner in Silhouette Contact with an enemy Miner sees (360°) exactly the enemy Miners it
    touches and nothing else; (2) the target must be at least partly inside the arc (180°; 360° after declaring Move;
    a MegaBeast's Angle of Vision); (3) a clear segment between the two Silhouettes; (4) reciprocity when the
    target's own LoF to the shooter is clear but the shooter's is not (only possible when the two see through
    different obstacles: a MegaBeast, under ``megabeast_reciprocity = includes_megabeast``).

    Args:
        table: the table.
        shooter, target: Models or their ids (must differ).
        rulings: TAG Raid rulings (defaults when ``None``).
        explain: also compute explanatory rays and blockers (a little slower).

    Returns:
        :class:`LoFResult`.

    Raises:
        ScenarioError: unknown Model id, or shooter and target the same.
    """
    rulings = rulings or default_rulings()
    s = table.model(shooter) if isinstance(shooter, str) else shooter
    t = table.model(target) if isinstance(target, str) else target
    if s.id == t.id:
        raise ScenarioError("target", "a Model cannot draw LoF to itself", "another Model's id")
    a, b = table.disc(s), table.disc(t)
    arc = s.arc_degrees()
    lof_rule = S.MEGABEAST_LOF if s.kind == "megabeast" else S.LINE_OF_FIRE

    # (1) Silhouette Contact with enemy Miners
    if s.kind == "miner":
        engaged = table.enemy_miners_in_contact(s)
        if engaged:
            if t.id in engaged:
                d = math.hypot(b.x - a.x, b.y - a.y) or 1.0
                p = (a.x + (b.x - a.x) * a.r / d, a.y + (b.y - a.y) * a.r / d)
                return LoFResult(s.id, t.id, True, "silhouette_contact", S.LINE_OF_FIRE, Segment(p, p),
                                 arc_degrees=360.0, detail=f"{s.id} is in Silhouette Contact with enemy Miner {t.id}: "
                                 "360° LoF to the enemy Miners it touches.")
            return LoFResult(s.id, t.id, False, "engaged", S.LINE_OF_FIRE, arc_degrees=360.0,
                             blocked_by=tuple(f"model:{e}" for e in engaged),
                             detail=f"{s.id} is in Silhouette Contact with enemy {'Miner' if len(engaged) == 1 else 'Miners'} "
                             f"{join_words(engaged)} and can "
                             f"only draw LoF to them, not to {t.id}.")

    # (2) arc
    in_arc = _in_arc(table, s, t)
    if not in_arc:
        return LoFResult(s.id, t.id, False, "outside_arc", lof_rule, in_arc=False, arc_degrees=arc,
                         detail=f"{t.id} is entirely outside {s.id}'s {arc:g}° arc.")

    # (3) a clear segment
    res, obs, used = clear_segment(table, s, t, rulings)
    if res.witness is not None:
        why = "360° after declaring Move, " if (s.kind == "miner" and s.declared_move) else ""
        rays = _explained(table, s, t, a, b, obs, _grazing(rulings), False)[0] if explain and not res.contact else []
        return LoFResult(s.id, t.id, True, "clear", lof_rule, res.witness, (), rays, True, arc, used,
                         res.candidates_tested, f"{t.id} is in {s.id}'s {arc:g}° arc ({why}at least partly) and a "
                         "clear line joins the two Silhouettes.")

    # (4) reciprocity
    if not _reciprocity:
        pass
    elif t.kind != "megabeast" or rulings.reading("megabeast_reciprocity") == "includes_megabeast":
        if t.kind == "megabeast":
            used["megabeast_reciprocity"] = "includes_megabeast"
        back = (line_of_fire(table, t, s, rulings, explain=False, _reciprocity=False)
                if s.kind != "megabeast" else None)
        if back is not None and back.has_lof and back.reason == "clear":
            w = back.witness
            return LoFResult(s.id, t.id, True, "reciprocity", S.LINE_OF_FIRE, Segment(w.p1, w.p0), (), [], True, arc,
                             used | back.rulings, res.candidates_tested + back.candidates_tested,
                             f"{t.id} can draw LoF to {s.id}, who has {t.id} in its front arc: reciprocity.")
    elif t.kind == "megabeast":
        used["megabeast_reciprocity"] = "miners_only"

    rays, blockers = _explained(table, s, t, a, b, obs, _grazing(rulings), True) if explain else ([], ())
    exact = getattr(res, "exact", True)
    resolution = None if exact else getattr(res, "resolution", None)
    return LoFResult(s.id, t.id, False, "blocked", lof_rule, None, blockers, rays, True, arc, used,
                     res.candidates_tested, f"every line between {s.id} and {t.id} is obstructed"
                     + (f" (by {', '.join(blockers)})." if blockers else ".")
                     + ("" if exact else limit_3d_words(res.candidates_tested, resolution)), exact, resolution)


class InLoF:
    """Lazy, set-like view of the Models a Model can draw LoF to: ``"b" in view``, ``len(view)``, iteration (ids)."""

    def __init__(self, table: TableTop, shooter: str, rulings: Rulings | None = None):
        self.table, self.shooter, self.rulings = table, shooter, rulings or default_rulings()
        self._cache: dict[str, LoFResult] = {}

    def result(self, target: str) -> LoFResult:
        if target not in self._cache:
            self._cache[target] = line_of_fire(self.table, self.shooter, target, self.rulings, explain=False)
        return self._cache[target]

    def __contains__(self, target: object) -> bool:
        return isinstance(target, str) and target in self.table.models and target != self.shooter and \
            self.result(target).has_lof

    def __iter__(self) -> Iterator[str]:
        return (t for t in self.table.models if t != self.shooter and self.result(t).has_lof)

    def __len__(self) -> int:
        return sum(1 for _ in self)


def in_lof(table: TableTop, shooter: str, rulings: Rulings | None = None) -> InLoF:
    """The Models ``shooter`` can draw LoF to, as a lazy set-like view (see :class:`InLoF`)."""
    table.model(shooter)
    return InLoF(table, shooter, rulings)


def lof_along_route(table: TableTop, mover: str, route: Sequence[XY], observer: str,
                    rulings: Rulings | None = None) -> list[tuple[XY, LoFResult, LoFResult]]:
    """LoF at each point of a declared Move route, both ways: ``[(point, observer→mover, mover→observer)]``.

    The mover has 360° LoF along its route (Move › Effects; Line of Fire exceptions). The route is the list of
    positions the user gives (its corners, or finer points); LoF is decided exactly at each of them.

    Raises:
        ScenarioError: a route point where the mover's base would overlap another base or scenery.
    """
    m = table.model(mover)
    out = []
    for i, p in enumerate(route):
        moved = replace(m, x=float(p[0]), y=float(p[1]), hex=None, declared_move=True)
        try:
            t2 = table.with_model(moved)
        except ScenarioError as e:
            raise ScenarioError(f"route[{i}]", e.problem, e.allowed) from None
        out.append((tuple(p), line_of_fire(t2, observer, mover, rulings, explain=False),
                    line_of_fire(t2, mover, observer, rulings, explain=False)))
    return out


@dataclass
class RouteLoF:
    """LoF between a Miner moving along its declared route and another Model, over the whole route (exact on a flat
    table; with a Model on scenery, sampled with the bound :attr:`resolution`).

    Attributes:
        mover, observer: Model ids.
        observer_sees_mover: the observer can draw LoF to the mover at some moment of the route (the ARO question).
        observer_witness: a clear segment from the observer to the mover's base at such a moment.
        observer_leg: index of the route leg (``route[i] -> route[i+1]``) where it was found.
        mover_sees_observer: the mover (360° while moving) can draw LoF to the observer at some moment.
        mover_witness, mover_leg: likewise.
        rule: Move › Effects / Line of Fire exceptions.
        resolution: ``None`` when the verdict is exact (the flat check); for the 3D check (a Model on scenery), the
            bound of a "no LoF" verdict in board units (see :func:`_lof_during_move_3d`); spacing: the most two
            sampled positions of a one-surface leg lie apart there (:func:`route_spacing`).
    """

    mover: str
    observer: str
    observer_sees_mover: bool
    observer_witness: Segment | None
    observer_leg: int | None
    mover_sees_observer: bool
    mover_witness: Segment | None
    mover_leg: int | None
    rulings: dict[str, str] = field(default_factory=dict)
    rule: RuleRef = S.MOVE
    detail: str = ""
    resolution: float | None = None
    spacing: float | None = None

    def to_step(self) -> Step:
        return Step(f"{self.observer} {'sees' if self.observer_sees_mover else 'never sees'} {self.mover} along its "
                    "route", self.rule, self.detail,
                    {"observer_sees_mover": self.observer_sees_mover, "mover_sees_observer": self.mover_sees_observer,
                     "observer_leg": self.observer_leg, "mover_leg": self.mover_leg,
                     **({"route_resolution": round(self.resolution, 6), "route_spacing": round(self.spacing, 6)}
                        if self.resolution is not None else {})},
                    (self.mover, self.observer), "Line of Fire")


def _arc_pieces(origin: XY, facing: float, arc: float, p: XY, q: XY, r: float) -> list[tuple[float, float]]:
    """Parameter pieces ``[t0, t1]`` of the leg ``p -> q`` where a base of radius ``r`` is at least partly in the
    arc (exact for 180° and 360°; other arcs via a 1024-sided polygon of the grown wedge)."""
    if arc >= 360.0:
        return [(0.0, 1.0)]
    if abs(arc - 180.0) < 1e-12:
        fx, fy = math.cos(math.radians(facing)), math.sin(math.radians(facing))
        g0 = fx * (p[0] - origin[0]) + fy * (p[1] - origin[1]) + r
        g1 = fx * (q[0] - origin[0]) + fy * (q[1] - origin[1]) + r
        if g0 >= 0 and g1 >= 0:
            return [(0.0, 1.0)]
        if g0 < 0 and g1 < 0:
            return []
        t = g0 / (g0 - g1)
        return [(t, 1.0)] if g1 >= 0 else [(0.0, t)]
    from .pieces import arc_polygon_points

    wedge = Polygon(arc_polygon_points(origin, facing, arc, 1e3, n=1024)).buffer(r, quad_segs=256)
    leg = shapely.LineString([p, q])
    length = leg.length
    pieces = []
    inter = leg.intersection(wedge)
    for part in getattr(inter, "geoms", [inter]):
        if part.is_empty or part.geom_type not in ("LineString", "Point"):
            continue
        ts = [leg.project(shapely.Point(c)) / length for c in part.coords]
        pieces.append((min(ts), max(ts)))
    return pieces


ROUTE_SAMPLES = 16
"""The fewest points sampled along each leg of a route when LoF along it is asked with a Model on scenery
(:func:`lof_during_move`); a longer leg gets more, so consecutive samples are at most :func:`route_spacing` apart."""


def route_spacing(r_mover: float, r_observer: float) -> float:
    """The most two consecutive sampled positions of a route on one surface lie apart in the 3D route check
    (board units): ``2 delta``, with ``delta = max(r_mover, r_observer) / NET_DIVISIONS`` the bound of the nets of
    the 3D LoF search (:data:`.elevation.NET_DIVISIONS`: 1/8 of the larger base radius), so every position of such a
    leg lies within ``delta`` of a sample."""
    from .elevation import NET_DIVISIONS

    return 2.0 * max(r_mover, r_observer) / NET_DIVISIONS


def route_samples(p: XY, q: XY, spacing: float) -> list[float]:
    """Fractions ``0 .. 1`` of the leg ``p -> q`` sampled: at least :data:`ROUTE_SAMPLES` steps, and steps of at
    most ``spacing`` board units, so every position of the leg lies within ``spacing / 2`` of a sample."""
    n = max(ROUTE_SAMPLES, int(math.ceil(math.dist(p, q) / spacing)))
    return [k / n for k in range(n + 1)]


def _lof_during_move_3d(table: TableTop, mover: str, route: Sequence[XY], observer: str, rulings: Rulings,
                        surfaces: Sequence[str | None]) -> "RouteLoF":
    """:func:`lof_during_move` when the mover climbs or either Model stands on scenery: LoF (3D, :mod:`.elevation`)
    at the route's points and at positions along each leg that stays on one surface, at most :func:`route_spacing`
    ``= 2 delta`` apart (:func:`route_samples`; ``delta`` = 1/8 of the larger base radius); a climbing leg is judged at its two ends (the Miner at the
    foot, then on top: Move › Effects, the climbed position counts for LoF).

    Sampled, with a stated bound (:attr:`RouteLoF.resolution`): a LoF found is a checked clear line (proved). "Never
    sees" means: at no position of a one-surface leg is there a clear line that keeps more than ``resolution =
    delta + e`` in plan from every footprint it passes below the top of (scenery, other bases, hexagons without
    tile), with its end inside the observer's arc by more than ``delta``; ``e`` is the bound of the 3D search at the
    sampled positions (0 where it proved its verdict, else its own net bound, :attr:`LoFResult.resolution`). Why:
    the nearest sample is within ``delta`` on the same surface; moving the mover's end of such a line by that offset
    moves each point of the line by at most ``delta`` and leaves every height unchanged (the heights depend only on
    the fraction of the way), so the moved line is clear with a margin over ``e`` and the search at that sample
    finds a clear line. (The 3D search at a position is not given the route's other positions: a line missed
    between samples is one squeezed past an edge, as for the search itself.)"""
    m = table.model(mover)
    pts = [(float(x), float(y)) for x, y in route]
    legs = list(zip(range(len(pts)), pts, pts[1:])) or [(0, pts[0], pts[0])]
    used: dict[str, str] = {}
    o_seen = m_seen = False
    o_wit = m_wit = o_leg = m_leg = None
    ms = {k: v for k, v in table.models.items() if k != mover}
    spacing = route_spacing(table.disc(m).r, table.disc(table.model(observer)).r)
    search = 0.0   # the largest bound of a 3D search that did not prove "blocked"
    for i, p, q in legs:
        sp, sq = surfaces[i], surfaces[min(i + 1, len(surfaces) - 1)]
        ts = [0.0, 1.0] if sp != sq else route_samples(p, q, spacing)
        for t in ts:
            x, y = p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])
            here = replace(m, x=x, y=y, hex=None, declared_move=True, on=sq if t == 1.0 else sp)
            t2 = TableTop([*ms.values(), here], table.scenery, table.tiles, table.layout, table.calibration,
                          validate=False)
            if not o_seen:
                r1 = line_of_fire(t2, observer, mover, rulings, explain=False)
                used |= r1.rulings
                if r1.has_lof:
                    o_seen, o_wit, o_leg = True, r1.witness, i
                elif not r1.exact:
                    search = max(search, r1.resolution or 0.0)
            if not m_seen:
                r2 = line_of_fire(t2, mover, observer, rulings, explain=False)
                used |= r2.rulings
                if r2.has_lof:
                    m_seen, m_wit, m_leg = True, r2.witness, i
                elif not r2.exact:
                    search = max(search, r2.resolution or 0.0)
            if o_seen and m_seen:
                break
    resolution = spacing / 2 + search   # spacing / 2 = delta: every position within it of a sample
    detail = (f"{observer} {'can' if o_seen else 'cannot'} draw LoF to {mover} at some point of its route"
              + (f" (leg {o_leg})" if o_seen else "") + f"; {mover}, with 360° LoF while moving, "
              + ("can" if m_seen else "cannot") + f" draw LoF to {observer} (positions on scenery: sampled along "
              f"each leg at most {spacing:.3f} hex units apart; {route_bound_words(resolution, spacing)}).")
    return RouteLoF(mover, observer, o_seen, o_wit, o_leg, m_seen, m_wit, m_leg, used, detail=detail,
                    resolution=resolution, spacing=spacing)


def route_bound_words(resolution: float, spacing: float) -> str:
    """What a "no LoF at any point of the route" verdict of the 3D route check guarantees (board units)."""
    return (f"a position between samples is missed only if every clear line there passes within {resolution:.3f} "
            f"hex units of something it passes below the top of, or its end lies within {spacing / 2:.3f} of the "
            "arc's edge")


def lof_during_move(table: TableTop, mover: str, route: Sequence[XY], observer: str,
                    rulings: Rulings | None = None, *, surfaces: Sequence[str | None] | None = None) -> RouteLoF:
    """LoF between a Miner moving along ``route`` (its base centre goes ``route[0] -> route[1] -> ...``) and
    ``observer``, over every moment of the route, exactly: each leg's swept region (a capsule) is searched with the
    candidate-line method. Sections: Move › Effects (360° LoF while moving); Line of Fire and Distances › Line of
    Fire (exceptions); Orders and AROs (a Reactive Miner with LoF to the Active Miner at some point may ARO).

    The observer's arc is fixed; the moving base must be at least partly in it at the moment it is seen. An observer
    in Silhouette Contact with an enemy Miner other than the mover sees the mover only if the route ends in contact
    with it. Uses the ``any_part`` reading of ``lof_arc_part`` (the route check does not clip the moving base to the
    arc).

    ``surfaces``: the surface at each route point (a scenery piece's id, ``None``: the ground; default: the
    mover's own all along). When the mover climbs or either Model stands on scenery, LoF is asked in 3D at points
    sampled along the route (:func:`_lof_during_move_3d`).

    Raises:
        ScenarioError: fewer than one route point, or a leg along which the mover's base would overlap scenery,
            another base, a hexagon without tile or the edge of the board (``route[i]``).
    """
    rulings = rulings or default_rulings()
    m = table.model(mover)
    o = table.model(observer)
    if len(route) < 1:
        raise ScenarioError("route", "is empty", "at least one point (x, y)")
    if surfaces is None:
        surfaces = (m.on,) * len(route)
    if m.on is not None or o.on is not None or any(x is not None for x in surfaces):
        if len(surfaces) != len(route):
            raise ScenarioError("surfaces", f"{len(surfaces)} surfaces for {len(route)} route points",
                                "one per route point")
        return _lof_during_move_3d(table, mover, route, observer, rulings, surfaces)
    pts = [(float(x), float(y)) for x, y in route]
    r = table.disc(m).r
    others = table.without(mover)
    blockers: list[tuple[str, BaseGeometry]] = [(f"scenery:{k}", v) for k, v in table._scenery_polys.items()]
    if m.kind != "megabeast":
        blockers += [(f"hex:{h.q},{h.r}", v) for h, v in table._hole_polys.items()]
        if table._off_board is not None:
            blockers.append(("off_board", table._off_board))
    blockers += [(f"model:{k}", others.disc(k).polygon()) for k in others.models]
    for i in range(len(pts)):
        leg = shapely.LineString([pts[i], pts[i + 1]]) if i + 1 < len(pts) else shapely.Point(pts[i])
        swept = leg.buffer(r, quad_segs=32)
        for lab, g in blockers:
            if swept.intersection(g).area > 1e-6:
                raise ScenarioError(f"route[{i}]", f"the base of {short_repr(mover)} would overlap {lab} here",
                                    "a route clear of scenery, other bases and hexagons without tiles "
                                    "(Move › Requirements)")
    legs = list(zip(pts, pts[1:])) or [(pts[0], pts[0])]
    used: dict[str, str] = {}

    # observer -> mover
    o_seen, o_wit, o_leg = False, None, None
    engaged = o.kind == "miner" and any(
        o.is_enemy_miner_of(x) and x.id != m.id and table.in_contact(o, x) for x in table.models.values())
    obs_o, u1 = table.obstacles(o, m, rulings)
    used |= u1
    used["lof_grazing"] = rulings.reading("lof_grazing")
    tb = _grazing(rulings)
    a_disc = table.disc(o)
    if engaged:
        end = m.moved_to(*pts[-1])
        if o.is_enemy_miner_of(m) and abs(a_disc.distance_to(end.disc(table.calibration))) <= CONTACT_TOLERANCE:
            o_seen, o_wit, o_leg = True, None, len(legs) - 1
    else:
        for i, (p, q) in enumerate(legs):
            for t0, t1 in _arc_pieces(o.center, o.facing, o.arc_degrees(), p, q, r):
                pp = (p[0] + t0 * (q[0] - p[0]), p[1] + t0 * (q[1] - p[1]))
                qq = (p[0] + t1 * (q[0] - p[0]), p[1] + t1 * (q[1] - p[1]))
                res = find_clear_segment_to_swept(a_disc, pp, qq, r, obs_o, touching_blocks=tb)
                if res.witness is not None:
                    o_seen, o_wit, o_leg = True, res.witness, i
                    break
            if o_seen:
                break
    # mover -> observer (360° while moving)
    obs_m, u2 = table.obstacles(m, o, rulings)
    used |= u2
    m_seen, m_wit, m_leg = False, None, None
    for i, (p, q) in enumerate(legs):
        res = find_clear_segment_to_swept(a_disc, p, q, r, obs_m, touching_blocks=tb)
        if res.witness is not None:
            m_seen, m_wit, m_leg = True, Segment(res.witness.p1, res.witness.p0), i
            break
    detail = (f"{observer} {'can' if o_seen else 'cannot'} draw LoF to {mover} at some point of its route"
              + (f" (leg {o_leg})" if o_seen else "") + f"; {mover}, with 360° LoF while moving, "
              + ("can" if m_seen else "cannot") + f" draw LoF to {observer}.")
    return RouteLoF(mover, observer, o_seen, o_wit, o_leg, m_seen, m_wit, m_leg, used, detail=detail)


# ----------------------------------------------------------------------------------------------------- Partial Cover


def _shadow(point: XY, poly: Polygon, far: float) -> BaseGeometry:
    """Points ``q`` such that the segment from ``point`` to ``q`` meets ``poly`` (within ``far`` of it)."""
    parts = [poly]
    ax, ay = point
    coords = list(poly.exterior.coords)
    for (x0, y0), (x1, y1) in zip(coords, coords[1:]):
        d0, d1 = math.hypot(x0 - ax, y0 - ay), math.hypot(x1 - ax, y1 - ay)
        if d0 < 1e-12 or d1 < 1e-12:
            continue
        q0 = (x0 + far * (x0 - ax) / d0, y0 + far * (y0 - ay) / d0)
        q1 = (x1 + far * (x1 - ax) / d1, y1 + far * (y1 - ay) / d1)
        quad = Polygon([(x0, y0), (x1, y1), q1, q0])
        if quad.is_valid and quad.area > 1e-15:
            parts.append(quad)
    return shapely.union_all(parts)


def _umbra_points(attacker: Disc, piece: Polygon, extra_points: int = 64) -> list[XY]:
    """The points of ``attacker``'s edge whose shadows :func:`umbra` intersects: for each vertex of ``piece`` outside
    the disc, its two tangent points, then ``extra_points`` evenly spaced edge points (in that order)."""
    pts: list[XY] = []
    for vx, vy in list(piece.exterior.coords)[:-1]:
        dx, dy = vx - attacker.x, vy - attacker.y
        dd = math.hypot(dx, dy)
        if dd <= attacker.r:
            continue
        base = math.atan2(dy, dx)
        off = math.acos(attacker.r / dd)
        pts += [(attacker.x + attacker.r * math.cos(base + s * off), attacker.y + attacker.r * math.sin(base + s * off))
                for s in (1, -1)]
    for i in range(extra_points):
        ang = 2 * math.pi * i / extra_points
        pts.append((attacker.x + attacker.r * math.cos(ang), attacker.y + attacker.r * math.sin(ang)))
    return pts


def umbra(attacker: Disc, piece: Polygon, far: float = 50.0, extra_points: int = 64) -> BaseGeometry:
    """The points hidden from every point of ``attacker`` by ``piece`` alone (its full shadow), as a polygon.

    Computed as the intersection of the shadows cast from the tangent points of every vertex of ``piece`` on the
    attacker's edge (where the umbra's boundary lines come from) plus ``extra_points`` evenly spaced edge points;
    every shadow contains the umbra, so the result can only be slightly larger than it, never smaller. Callers confirm
    a hidden point exactly with :func:`explorer.games.tagraid.geometry.point_target_clear`.
    """
    out: BaseGeometry | None = None
    for p in _umbra_points(attacker, piece, extra_points):
        sh = _shadow(p, piece, far)
        out = sh if out is None else out.intersection(sh)
        if out.is_empty:
            break
    return out if out is not None else Polygon()


def _convex_ring(piece: Polygon) -> np.ndarray | None:
    """``piece``'s corners counter-clockwise (shape ``(n, 2)``, not closed) when it is strictly convex (every turn the
    same way by more than 1e-9 radians, turning once, no repeated corner, no hole); ``None`` otherwise."""
    if piece.interiors:
        return None
    c = np.asarray(piece.exterior.coords, dtype=float)[:-1]
    if len(c) < 3:
        return None
    e = np.roll(c, -1, axis=0) - c
    e2 = np.roll(e, -1, axis=0)
    lens = np.hypot(e[:, 0], e[:, 1])
    if lens.min() <= 1e-12:
        return None
    cross = e[:, 0] * e2[:, 1] - e[:, 1] * e2[:, 0]
    turn = np.arctan2(cross, (e * e2).sum(axis=1))
    sines = cross / (lens * np.roll(lens, -1))
    if np.all(sines > 1e-9) and abs(turn.sum() - 2 * math.pi) < 1e-6:
        return c
    if np.all(sines < -1e-9) and abs(turn.sum() + 2 * math.pi) < 1e-6:
        return c[::-1].copy()
    return None


def _convex_shadows(points: np.ndarray, ring: np.ndarray, far: float,
                    reach: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`_shadow` of a strictly convex piece (corners ``ring``, shape ``(n, 2)``, counter-clockwise) from each of
    ``points`` (shape ``(m, 2)``), each as one polygon equal to it within ``reach[i]`` of ``points[i]``; ``None``
    where the construction does not apply (the caller then uses :func:`_shadow`). Returns the shadows (shape
    ``(m,)``, object) and the two corners where each shadow's sides leave the piece (``first``: where the far corners
    start, ``last``: where they end; shape ``(m, 2)``, NaN where the shadow is ``None``).

    From a point outside a convex piece, the edges facing away from the point (the back chain) form one run; the
    shadow's quads of those edges tile the part of the shadow behind the piece, and the quads of the facing edges lie
    inside the piece or beyond the back chain's far ends. So the shadow is the ring: the facing corners, then the back
    chain's corners pushed ``far`` along their rays from the point (the same far corners as :func:`_shadow`'s), in
    the same order (``n + 2`` corners). Within ``reach`` it equals :func:`_shadow` when every far edge of the back
    chain is farther than ``reach`` from the point. ``None`` when the point is on or inside the piece, within 1e-12
    of a corner, or nearly in line with an edge (sine below 1e-9), or a far edge comes within ``reach``.
    """
    m, n = len(points), len(ring)
    out = np.full(m, None, dtype=object)
    first, last = np.full((m, 2), np.nan), np.full((m, 2), np.nan)
    if m == 0:
        return out, first, last
    d = ring[None, :, :] - points[:, None, :]  # (m, n, 2): from each point to each corner
    dist = np.hypot(d[..., 0], d[..., 1])
    e = np.roll(ring, -1, axis=0) - ring
    elen = float(np.hypot(e[:, 0], e[:, 1]).max())
    cross = e[None, :, 0] * d[..., 1] - e[None, :, 1] * d[..., 0]  # > 0: edge i faces the point
    back = cross < 0
    nb = back.sum(axis=1)
    starts = back & ~np.roll(back, 1, axis=1)
    ok = ((dist.min(axis=1) >= 1e-12) & (np.abs(cross).min(axis=1) > 1e-9 * elen * dist.max(axis=1))
          & (nb > 0) & (nb < n) & (starts.sum(axis=1) == 1))
    if not ok.any():
        return out, first, last
    use = np.flatnonzero(ok)
    points, d, dist, back, nb, starts = points[use], d[use], dist[use], back[use], nb[use], starts[use]
    k0 = starts.argmax(axis=1)
    j = np.arange(n + 2)[None, :]
    n_front = (n - nb + 1)[:, None]
    is_front = j < n_front
    idx = np.where(is_front, (k0[:, None] + nb[:, None] + j) % n, (k0[:, None] + j - n_front) % n)  # (m, n + 2)
    rows = np.arange(len(use))[:, None]
    dd, rr = d[rows, idx], dist[rows, idx]
    corner = ring[idx]
    farx = corner[..., 0] + far * dd[..., 0] / rr
    fary = corner[..., 1] + far * dd[..., 1] / rr
    xs = np.where(is_front, corner[..., 0], farx)
    ys = np.where(is_front, corner[..., 1], fary)
    # every far edge (between two pushed corners) farther than reach from its point
    ax, ay = xs[:, :-1] - points[:, 0:1], ys[:, :-1] - points[:, 1:2]
    sx, sy = xs[:, 1:] - xs[:, :-1], ys[:, 1:] - ys[:, :-1]
    t = np.clip(-(ax * sx + ay * sy) / np.maximum(sx * sx + sy * sy, 1e-300), 0.0, 1.0)
    gap = np.hypot(ax + t * sx, ay + t * sy)
    far_edge = ~is_front[:, :-1] & ~is_front[:, 1:]
    near = np.where(far_edge, gap, np.inf).min(axis=1)
    fine = near > reach[use] * (1 + 1e-9) + 1e-9
    if fine.any():
        out[use[fine]] = shapely.polygons(np.stack([xs[fine], ys[fine]], axis=-1))
        first[use[fine]] = ring[k0[fine]]
        last[use[fine]] = ring[(k0[fine] + nb[fine]) % n]
    return out, first, last


def _covered_by_shadows(xy: np.ndarray, points: np.ndarray, first: np.ndarray, last: np.ndarray) -> np.ndarray:
    """For each shadow of :func:`_convex_shadows` (cast from ``points[i]``, its sides leaving the piece at
    ``first[i]`` and ``last[i]``), whether the points ``xy`` (shape ``(k, 2)``: every vertex of a region within the
    shadow's reach) all lie more than 1e-9 inside both sides and beyond the chord ``last -> first``. The chord runs
    inside the (convex) piece, so a segment from the shadow's point to anything between the sides and beyond the
    chord crosses the piece: such a region lies in the shadow (a half-plane holds a polygon when it holds its
    vertices). ``False`` means "not shown", not "outside". Shape ``(m,)``, bool."""
    def left(o: np.ndarray, u: np.ndarray) -> np.ndarray:  # (m,): min over xy of the distance left of o + t u
        ln = np.hypot(u[:, 0], u[:, 1])
        c = u[:, None, 0] * (xy[None, :, 1] - o[:, None, 1]) - u[:, None, 1] * (xy[None, :, 0] - o[:, None, 0])
        with np.errstate(invalid="ignore", divide="ignore"):
            return c.min(axis=1) / ln

    with np.errstate(invalid="ignore"):
        inside = ((left(first, first - points) > 1e-9) & (left(last, points - last) > 1e-9)
                  & (left(last, first - last) > 1e-9))
    return inside


def _shadow_near(point: XY, piece: Polygon, coords: np.ndarray, far: float, region: BaseGeometry) -> BaseGeometry:
    """:func:`_shadow` (the same quads, built at once), keeping only the quads that meet ``region``: the same set
    within ``region``. ``coords``: ``piece``'s closed exterior ring, shape ``(n + 1, 2)``."""
    px, py = point
    x0, x1 = coords[:-1], coords[1:]
    d0 = np.hypot(x0[:, 0] - px, x0[:, 1] - py)
    d1 = np.hypot(x1[:, 0] - px, x1[:, 1] - py)
    keep = (d0 >= 1e-12) & (d1 >= 1e-12)
    x0, x1, d0, d1 = x0[keep], x1[keep], d0[keep], d1[keep]
    if not len(x0):
        return piece
    q0 = np.stack([x0[:, 0] + far * (x0[:, 0] - px) / d0, x0[:, 1] + far * (x0[:, 1] - py) / d0], axis=1)
    q1 = np.stack([x1[:, 0] + far * (x1[:, 0] - px) / d1, x1[:, 1] + far * (x1[:, 1] - py) / d1], axis=1)
    quads = shapely.polygons(np.stack([x0, x1, q1, q0, x0], axis=1))
    quads = quads[shapely.is_valid(quads) & (shapely.area(quads) > 1e-15)]
    quads = quads[shapely.intersects(quads, region)]
    return shapely.union_all(np.concatenate([[piece], quads])) if len(quads) else piece


def _umbra_in_disc(attacker: Disc, piece: Polygon, target: Disc, far: float, extra_points: int = 64) -> BaseGeometry:
    """``umbra(attacker, piece, far).intersection(target.polygon(64))`` as a set, computed inside the target's disc.

    The same shadows (:func:`_umbra_points`) are intersected, starting from the target's polygon
    (``target.polygon(64)``), so the work stays the size of the target's base, and stopping once nothing is left.
    Each shadow is built as one polygon when ``piece`` is strictly convex (:func:`_convex_shadows`, all at once), else
    from :func:`_shadow`'s quads that meet what is left (:func:`_shadow_near`). The tangent points' shadows come
    first; an evenly spaced point's shadow that holds what they leave is skipped (it changes nothing): shown from its
    sides and chord (:func:`_covered_by_shadows`), else by ``shapely.covers``. Only the vertices of the result can
    differ from the former path's (:func:`_reference_cover_region`); ``tests/tagraid/test_partial_cover_fast.py``
    checks that both give the same set and the same Partial Cover on random tables. Shapes: discs and ``far`` in
    board units; returns a (possibly empty) Polygon or MultiPolygon.
    """
    region = target.polygon(64)
    ring = _convex_ring(piece)
    coords = np.asarray(piece.exterior.coords, dtype=float)
    pts = np.array(_umbra_points(attacker, piece, extra_points), dtype=float).reshape(-1, 2)
    first_xy = last_xy = None
    if ring is not None:
        reach = np.hypot(target.x - pts[:, 0], target.y - pts[:, 1]) + target.r
        shadows, first_xy, last_xy = _convex_shadows(pts, ring, far, reach)
    else:
        shadows = np.full(len(pts), None, dtype=object)
    first = len(pts) - extra_points  # the tangent points' shadows (they draw the umbra's edges) come first

    def cut(i: int) -> None:
        nonlocal region
        sh = shadows[i]
        if sh is None:
            sh = _shadow_near((float(pts[i, 0]), float(pts[i, 1])), piece, coords, far, region)
        region = region.intersection(sh)

    for i in range(first):
        cut(i)
        if region.is_empty:
            return region
    rest = np.arange(first, len(pts))
    built = rest[np.not_equal(shadows[rest], None)]
    # an evenly spaced point's shadow that already holds what is left changes nothing: skipped (shown by the sides
    # and chord of the shadow, else by shapely)
    skip: set[int] = set()
    if len(built):
        held = _covered_by_shadows(shapely.get_coordinates(region), pts[built], first_xy[built], last_xy[built])
        skip = set(built[held].tolist())
        ask = built[~held]
        if len(ask):
            skip |= set(ask[shapely.covers(shadows[ask], region)].tolist())
    for i in rest:
        if int(i) not in skip:
            cut(int(i))
            if region.is_empty:
                break
    return region


@dataclass
class CoverResult:
    """Partial Cover of ``target`` against ``attacker``.

    Attributes:
        in_cover: the target is in Silhouette Contact with a scenery piece that hides part of its Silhouette from
            the attacker, and the attacker has LoF (otherwise there is no attack to take cover from).
        pieces: ids of the scenery pieces giving cover.
        hidden_points: for each piece, a point of the target's base hidden by it (confirmed exactly).
        touching: ids of all scenery pieces in Silhouette Contact with the target.
        lof: the attacker's LoF result.
        rule: Damage › Partial Cover.
    """

    attacker: str
    target: str
    in_cover: bool
    pieces: tuple[str, ...]
    hidden_points: dict[str, XY]
    touching: tuple[str, ...]
    lof: LoFResult
    rule: RuleRef = S.PARTIAL_COVER
    detail: str = ""
    resolution: float | None = None
    """``None``: the verdict is proved. With a Model on scenery (:func:`_partial_cover_3d`), the bound of a verdict
    reached by sampling (board units): see there."""

    def __bool__(self) -> bool:
        return self.in_cover

    def to_step(self) -> Step:
        title = (f"{self.target} is in Partial Cover ({', '.join(self.pieces)})" if self.in_cover
                 else f"{self.target} is not in Partial Cover")
        return Step(title, self.rule, self.detail, {"in_cover": self.in_cover, "pieces": list(self.pieces),
                                                    "touching": list(self.touching),
                                                    **({"resolution": round(self.resolution, 6)}
                                                       if self.resolution is not None else {})},
                    (self.attacker, self.target, *(f"scenery:{p}" for p in self.pieces)), "Partial Cover")


def _cover_region(a: Disc, poly: Polygon, b: Disc, far: float) -> BaseGeometry | None:
    """The part of ``b``'s polygon (``b.polygon(64)``) inside ``umbra(a, poly, far)`` (:func:`_umbra_in_disc`);
    ``None`` when it stays ``1e-9`` or more outside ``b``'s edge. Should GEOS fail on the clipped shapes (a topology
    error on near-degenerate coordinates), the former computation (:func:`_reference_cover_region`) answers."""
    try:
        region = _umbra_in_disc(a, poly, b, far)
    except GEOSException:
        return _reference_cover_region(a, poly, b, far)
    if region.is_empty or region.distance(shapely.Point(b.center)) >= b.r - 1e-9:
        return None
    return region


def _reference_cover_region(a: Disc, poly: Polygon, b: Disc, far: float) -> BaseGeometry | None:
    """The former :func:`_cover_region` (session 16 and before): the whole :func:`umbra` (every shadow a union of
    quads reaching ``far``), then its part in ``b``'s polygon. Kept as the baseline of
    ``benchmarks/bench_partial_cover.py`` and the reference of ``tests/tagraid/test_partial_cover_fast.py``."""
    um = umbra(a, poly, far=far)
    if um.is_empty or um.distance(shapely.Point(b.center)) >= b.r - 1e-9:
        return None
    return um.intersection(b.polygon(64))


def _hidden_point(a: Disc, b: Disc, sid: str, poly: Polygon, tb: bool, region_of=_cover_region) -> XY | None:
    """A point of ``b``'s base hidden from every point of ``a``'s by ``poly`` alone (confirmed exactly with
    :func:`point_target_clear`), or ``None``. Tried: a representative point of the region that the umbra
    (``region_of``) leaves in ``b``'s base, then one of each of its parts."""
    region = region_of(a, poly, b, 4 * (math.hypot(b.x - a.x, b.y - a.y) + b.r + 1))
    if region is None or region.is_empty or region.area <= 1e-12:
        return None
    # confirm exactly: a point of the region that no segment from the attacker reaches past this piece
    cands = [region.representative_point()]
    if hasattr(region, "geoms"):
        cands += [g.representative_point() for g in region.geoms]
    for q in cands:
        if not point_target_clear(a, (q.x, q.y), Obstacles([(sid, poly)]), touching_blocks=tb):
            return (q.x, q.y)
    return None


def partial_cover(table: TableTop, attacker: Model | str, target: Model | str,
                  rulings: Rulings | None = None) -> CoverResult:
    """Is ``target`` in Partial Cover against ``attacker``? Section: Damage › Partial Cover.

    A piece gives cover when the target is in Silhouette Contact with it (within :data:`CONTACT_TOLERANCE`) and
    some part of the target's base (of positive area) cannot be seen from any point of the attacker's base because of
    that piece. Pieces that do not block LoF under ``scenery_height`` give no cover. Only the piece in contact is
    considered as the hiding piece.
    """
    return _partial_cover(table, attacker, target, rulings, _cover_region)


def _reference_partial_cover(table: TableTop, attacker: Model | str, target: Model | str,
                             rulings: Rulings | None = None) -> CoverResult:
    """:func:`partial_cover` as it was computed before (:func:`_reference_cover_region`): the baseline of
    ``benchmarks/bench_partial_cover.py`` and the reference of ``tests/tagraid/test_partial_cover_fast.py``."""
    return _partial_cover(table, attacker, target, rulings, _reference_cover_region)


def _partial_cover(table: TableTop, attacker: Model | str, target: Model | str, rulings: Rulings | None,
                   region_of) -> CoverResult:
    rulings = rulings or default_rulings()
    s = table.model(attacker) if isinstance(attacker, str) else attacker
    t = table.model(target) if isinstance(target, str) else target
    lof = line_of_fire(table, s, t, rulings, explain=False)
    if table.elevated_pair(s, t):
        return _partial_cover_3d(table, s, t, rulings, lof)
    a, b = table.disc(s), table.disc(t)
    touching = tuple(table.scenery_in_contact(t))
    obs, _ = table.obstacles(s, t, rulings)
    blocking = {lab.split(":", 1)[1] for lab, _ in obs.polygons if lab.startswith("scenery:")}
    tb = _grazing(rulings)
    pieces, hidden = [], {}
    for sid in touching:
        if sid not in blocking:
            continue
        q = _hidden_point(a, b, sid, table._scenery_polys[sid], tb, region_of)
        if q is not None:
            pieces.append(sid)
            hidden[sid] = q
    in_cover = bool(pieces) and lof.has_lof
    if not touching:
        detail = f"{t.id} is in Silhouette Contact with no scenery piece."
    elif not lof.has_lof:
        detail = f"{s.id} has no LoF to {t.id}, so there is no attack to take cover from."
    elif pieces:
        detail = f"{', '.join(pieces)} touches {t.id} and hides part of its Silhouette from {s.id}."
    else:
        detail = f"{s.id} sees the whole Silhouette of {t.id} past the scenery it touches."
    return CoverResult(s.id, t.id, in_cover, tuple(pieces), hidden, touching, lof, detail=detail)


def _cover_detail(s: Model, t: Model, touching, lof, pieces) -> str:
    if not touching:
        return f"{t.id} is in Silhouette Contact with no scenery piece."
    if not lof.has_lof:
        return f"{s.id} has no LoF to {t.id}, so there is no attack to take cover from."
    if pieces:
        return f"{', '.join(pieces)} touches {t.id} and hides part of its Silhouette from {s.id}."
    return f"{s.id} sees the whole Silhouette of {t.id} past the scenery it touches."


def _partial_cover_3d(table: TableTop, s: Model, t: Model, rulings: Rulings, lof: LoFResult) -> CoverResult:
    """:func:`partial_cover` for a pair where a Model stands on scenery (:mod:`.elevation`).

    The pieces in Silhouette Contact with the target: the one it stands on, and pieces touching its base in plan
    that rise at least to its feet. A piece gives cover when some point of the target's Silhouette is hidden by that
    piece alone from every point of the attacker's; the lowest points (its feet) are the most hidden, so the test
    runs on points of the target's base at its elevation. Under ``elevation_own_piece = ignored`` the piece the
    target stands on gives no cover.

    Points of the target's base tried: its centre, rings, the point nearest each piece, then a net
    (:func:`.elevation.net_points`) putting a tried point within ``delta_b = r_b / NET_DIVISIONS`` (1/8 of its base
    radius) of every point of the base. Each point is judged exactly (:func:`.elevation.hidden_point`) except when
    the piece is lower than the point but higher than the attacker's top; then the attacker's base is tried at its
    rings and a net within ``delta_a = r_a / NET_DIVISIONS`` of each of its points
    (:func:`.elevation.hidden_point_sampled`). Bounds (:attr:`CoverResult.resolution`):

    * "not in cover": no point of the base whose whole ``delta_b``-neighbourhood is hidden (only a hidden sliver
      narrower than that can have been missed); ``resolution = delta_b``;
    * "in cover" from an exact point: proved (``resolution`` ``None``); from the sampled case: no line from the
      attacker to that point keeps more than ``delta_a`` in plan from the piece where it passes below its top
      (moving the line's attacker end by up to ``delta_a`` moves each point of it by at most that, heights
      unchanged); ``resolution = delta_a``.
    """
    from shapely.ops import nearest_points

    from .elevation import NET_DIVISIONS, Prism, disc_samples, hidden_point, hidden_point_sampled, net_points

    a, b = table.disc(s), table.disc(t)
    ta, zb = table.top(s), table.elevation(t)
    own = rulings.reading("elevation_own_piece") if t.on is not None else None
    by_id = table._scenery_by_id()
    touching = tuple(sid for sid in table.scenery_in_contact(t) if sid == t.on or by_id[sid].height >= zb)
    tb = _grazing(rulings)
    pieces, hidden = [], {}
    inner = Disc(b.x, b.y, b.r * (1 - 1e-6))
    delta_b = b.r / NET_DIVISIONS
    pts = np.concatenate([disc_samples(inner, 24), net_points(inner, delta_b)])
    sampled_cover = False
    tried_any = False
    for sid in touching:
        if sid == t.on and own == "ignored":
            continue
        tried_any = True
        poly = table._scenery_polys[sid]
        piece = Prism(f"scenery:{sid}", by_id[sid].height, poly)
        near = nearest_points(poly, shapely.Point(b.center))[0]
        dx, dy = near.x - b.x, near.y - b.y
        dd = math.hypot(dx, dy)
        extra = [(b.x + dx / dd * b.r * 0.999, b.y + dy / dd * b.r * 0.999)] if dd > 1e-12 else []
        for x in extra + [tuple(map(float, q)) for q in pts]:
            got = hidden_point(a, ta, x, zb, piece, touching_blocks=tb)
            exact = got is not None
            if got is None:
                got = hidden_point_sampled(a, ta, x, zb, piece, touching_blocks=tb)
            if got:
                pieces.append(sid)
                hidden[sid] = x
                sampled_cover = sampled_cover or not exact
                break
    in_cover = bool(pieces) and lof.has_lof
    resolution = None
    detail = _cover_detail(s, t, touching, lof, pieces)
    if lof.has_lof and tried_any and not pieces:
        resolution = delta_b
        detail += (f" (Points of {t.id}'s base tried at its feet within {delta_b:.3f} hex units of every point of "
                   "it: a hidden part narrower than that is not ruled out.)")
    elif in_cover and sampled_cover:
        resolution = a.r / NET_DIVISIONS
        detail += (f" (Looking up past the piece's top edge: lines from {s.id}'s base tried from points within "
                   f"{resolution:.3f} hex units of every point of it; a clear line closer than that to the piece is "
                   "not ruled out.)")
    return CoverResult(s.id, t.id, in_cover, tuple(pieces), hidden, touching, lof, detail=detail,
                       resolution=resolution)
