"""Mission maps of Mass Effect: Priority Hagalaz: the grid of hexes, its icons, edge features, areas and Turrets.

Rulebook sections: The Mission Book › Mission Map Page, Hexes, Map Iconography; Interacting with the Mission Map ›
Out of Bounds, Shrouded Areas; Additional Rules › Turrets; Map Features (Bonus Loot, Fast Travel, Inferno, Coolant
Leaks, Terminals, Elevation Change).

Public API (geometry lives in :mod:`.geometry`):

* :class:`MissionMap` — an immutable, hashable value: ``hexes`` (the grid; every other hex is Out of Bounds),
  ``icons`` (per hex), ``features`` (edge features on hex sides), ``areas`` (named, some Shrouded), ``turrets``,
  ``high_ground`` (the High Ground hexes; all other hexes are Low Ground). Accessors: ``m.feature(edge)``,
  ``m.icons_at(h)``, ``m.area_of(h)``, ``m.turret_at(h)``, ``m.is_high(h)``, ``h in m``, ``len(m)``. Changes return
  new maps: ``with_door(edge, locked)``, ``with_turret(h, active)``, ``with_shrouded(names)``, ``with_features``,
  ``transformed(steps, axis)`` (rotate/reflect everything).
* :func:`map_from_dict` / :func:`load_map_toml` / :func:`load_map` (built-in name) / :func:`available_maps`:
  loading through :func:`explorer.scenario.read_toml` + :func:`explorer.scenario.validate`; every malformed map is a
  one-line :class:`~explorer.errors.ScenarioError` naming the file, the field and what is allowed.
* :func:`check_placements` — the validator every scenario kind reuses for characters placed on a map (hex on the
  map, one character per hex, unique names).
* :func:`map_to_dict` / :func:`map_to_toml` — the inverse (round trip).

The file format's pydantic models live in :mod:`.map_file`, imported by :func:`map_from_dict` only: a validated
map plays without pydantic (issue 18).

Map-file format (a ``[map]`` table; also the body of ``explorer/games/masseffect/maps/<name>.toml``; see
``docs/masseffect-map-format.md``)::

    [map]
    name = "diagram-1"                       # optional, <= 60 characters
    title = "Diagram 1: Adjacency"           # optional
    note = "Our reconstruction ..."          # optional free text (<= 2000 characters)
    orientation = "pointy"                   # or "flat" (drawing only; directions keep their axial meaning)
    shape = { kind = "hexagon", radius = 2 } # optional; or { kind = "rectangle", width = 12, height = 10 }
    hexes = ["3,0"]                          # hexes added to the shape (axial "q,r", |q|, |r| <= 99)
    out_of_bounds = ["0,2"]                  # hexes removed from the shape
    high_ground = ["1,1", "2,1"]             # High Ground hexes (everything else is Low Ground)

    [map.icons]                              # per-hex icons, "kind" or "kind:label"
    "0,0" = ["start:garrus"]
    "2,-1" = ["spawn", "loot"]
    "4,1" = ["fast_travel:A"]                # Fast Travel icons come in matching pairs (same label)

    [[map.edges]]                            # one feature per hex side; both hexes must be on the map
    edge = "0,0|1,0"
    kind = "wall"                            # wall | door | obstacle | elevation
    # locked = true                          # doors: required (true = locked door token, false = unlocked)
    # high = "0,0"                           # elevation: the High Ground side (one of the edge's two hexes)

    [[map.areas]]
    name = "hangar"
    hexes = ["0,0", "1,0"]
    shrouded = false

    [[map.turrets]]
    hex = "3,-1"
    facing = "W"                             # 0..5 or a direction name (pointy: E NE NW W SW SE; flat: SE NE N NW SW S)
    active = true

Icon kinds (:class:`Icon`): spawn, elite_spawn, start, objective, loot, refugee, terminal, inferno, coolant_leak,
fast_travel, bonus_loot, map_exit; ``turret`` icons come from ``[[map.turrets]]`` (listing ``turret`` in
``[map.icons]`` is allowed only on a Turret's hex).

Decisions (documented, not in the book): High Ground / Low Ground are two levels, as the Elevation Change section
describes them; two neighbouring map hexes at different elevations must share an Elevation Change icon or a wall
(anything else would let a character walk up without crossing an icon). Walls and doors may not sit on an outer edge
(one side Out of Bounds): the grid's boundary already closes the map. Two different areas that share a border must be
separated there by a wall or a door ("separated by walls and doors", Shrouded Areas).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from enum import Enum
from importlib import resources
from pathlib import Path
from typing import Any, Literal

from explorer.errors import ScenarioError
from explorer.hexgrid import (
    ORIGIN, Axis, Edge, Hex, distance, hex_range, neighbors, reflect, reflect_direction, rotate,
    rotate_direction,
)
from explorer.scenario import read_toml
from explorer.text import join_words, plural

#: Largest absolute axial coordinate accepted in a map or scenario file.
COORD_LIMIT = 99
#: Most hexes a map may have.
MAX_HEXES = 2500

DIRECTION_NAMES: dict[str, tuple[str, ...]] = {
    "pointy": ("E", "NE", "NW", "W", "SW", "SE"),
    "flat": ("SE", "NE", "N", "NW", "SW", "S"),
}
"""Screen names of the six axial directions (index 0..5, see :mod:`explorer.hexgrid`) per orientation."""


# ----------------------------------------------------------------------------------------------------- values


class Icon(str, Enum):
    """Hex icons of a Mission Map (The Mission Book › Mission Map Page, Map Iconography; Map Features)."""

    SPAWN = "spawn"
    ELITE_SPAWN = "elite_spawn"
    START = "start"
    OBJECTIVE = "objective"
    LOOT = "loot"
    REFUGEE = "refugee"
    TERMINAL = "terminal"
    INFERNO = "inferno"
    COOLANT_LEAK = "coolant_leak"
    FAST_TRAVEL = "fast_travel"
    TURRET = "turret"
    BONUS_LOOT = "bonus_loot"
    MAP_EXIT = "map_exit"


ICON_KINDS: tuple[str, ...] = tuple(i.value for i in Icon)


@dataclass(frozen=True, order=True, slots=True)
class MapIcon:
    """An icon on a hex: its kind and an optional label (Fast Travel pair "A"/"B", Terminal "1"/"2", a Start hex's
    Squadmate "garrus", an Elite Spawn variant). Written ``"kind"`` or ``"kind:label"``."""

    kind: Icon
    label: str = ""

    def __str__(self) -> str:
        return f"{self.kind.value}:{self.label}" if self.label else self.kind.value

    @classmethod
    def parse(cls, text: str) -> MapIcon:
        """Parse ``"kind"`` / ``"kind:label"``. Raises ValueError for an unknown kind or an over-long label."""
        kind, _, label = text.strip().partition(":")
        try:
            k = Icon(kind.strip().lower())
        except ValueError:
            raise ValueError(f"unknown icon {kind!r}") from None
        label = label.strip()
        if len(label) > 20:
            raise ValueError(f"icon label {label!r} is longer than 20 characters")
        return cls(k, label)


class FeatureKind(str, Enum):
    """Features on a hex side (Mission Map Page; Map Features › Elevation Change Icons)."""

    WALL = "wall"
    DOOR = "door"
    OBSTACLE = "obstacle"
    ELEVATION = "elevation"


FEATURE_KINDS: tuple[str, ...] = tuple(k.value for k in FeatureKind)


@dataclass(frozen=True, order=True, slots=True)
class EdgeFeature:
    """A feature on the side ``edge`` between two map hexes.

    Attributes:
        edge: the hex side (canonical pair).
        kind: wall, door, obstacle or elevation (an Elevation Change icon).
        locked: doors only: ``True`` for a locked door token, ``False`` for an unlocked one.
        high: elevation only: the edge's hex on the High Ground side.
    """

    edge: Edge
    kind: FeatureKind
    locked: bool = False
    high: Hex | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "kind", FeatureKind(self.kind))
        if self.kind != FeatureKind.DOOR and self.locked:
            raise ValueError(f"only a door can be locked, not a {self.kind.value}")
        if self.kind == FeatureKind.ELEVATION:
            if self.high not in self.edge.hexes:
                raise ValueError(f"the High Ground side of elevation change {self.edge} must be one of its hexes "
                                 f"({self.edge.a} or {self.edge.b}), got {self.high}")
        elif self.high is not None:
            raise ValueError(f"only an elevation change has a High Ground side, not a {self.kind.value}")

    @property
    def label(self) -> str:
        """Short name: ``"wall"``, ``"locked door"``, ``"unlocked door"``, ``"obstacle"``, ``"elevation change"``."""
        if self.kind == FeatureKind.DOOR:
            return "locked door" if self.locked else "unlocked door"
        return "elevation change" if self.kind == FeatureKind.ELEVATION else self.kind.value

    @property
    def breaks_adjacency(self) -> bool:
        """Walls and locked doors break adjacency (and block movement); obstacles, unlocked doors and elevation
        changes do not (Adjacency; Elevation Change Icons)."""
        return self.kind == FeatureKind.WALL or (self.kind == FeatureKind.DOOR and self.locked)


@dataclass(frozen=True, order=True, slots=True)
class Turret:
    """A Turret (Additional Rules › Turrets): its hex, the one direction of its Line of Fire (0..5, axial direction
    index of :mod:`explorer.hexgrid`) and its Turret Status token (``active``; ``False`` = Disabled)."""

    hex: Hex
    facing: int
    active: bool = True

    def __post_init__(self) -> None:
        if not (isinstance(self.facing, int) and 0 <= self.facing <= 5):
            raise ValueError(f"a Turret's facing is a direction 0..5, got {self.facing!r}")


@dataclass(frozen=True, order=True, slots=True)
class Area:
    """A named area of the map (Shrouded Areas): its hexes and whether it is Shrouded now."""

    name: str
    hexes: frozenset[Hex]
    shrouded: bool = False


# ------------------------------------------------------------------------------------------------ MissionMap


def _err(fld: str, problem: str, allowed: str | None = None) -> ScenarioError:
    return ScenarioError(fld, problem, allowed)


@dataclass(frozen=True, eq=True)
class MissionMap:
    """A Mission Map (The Mission Book › Mission Map Page): an immutable, hashable value.

    Attributes:
        hexes: the grid; anything else is Out of Bounds.
        icons: ``((hex, (MapIcon, ...)), ...)`` sorted by hex (use :meth:`icons_at`).
        features: edge features sorted by edge, at most one per side (use :meth:`feature`).
        areas: named areas (disjoint sets of map hexes), some Shrouded.
        turrets: Turrets sorted by hex, at most one per hex.
        high_ground: High Ground hexes; the others are Low Ground.
        name, title, note: labels; orientation: ``"pointy"`` or ``"flat"`` (drawing only).

    Raises:
        ScenarioError: on construction, for any inconsistency (feature on a hex not on the map, wall or door on an outer
            edge, unpaired Fast Travel icon, elevation mismatch without an icon, overlapping areas...), one line each.
    """

    hexes: frozenset[Hex]
    icons: tuple[tuple[Hex, tuple[MapIcon, ...]], ...] = ()
    features: tuple[EdgeFeature, ...] = ()
    areas: tuple[Area, ...] = ()
    turrets: tuple[Turret, ...] = ()
    high_ground: frozenset[Hex] = frozenset()
    name: str = ""
    title: str = ""
    note: str = ""
    orientation: Literal["pointy", "flat"] = "pointy"
    _cache: dict = field(default_factory=dict, init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "hexes", frozenset(Hex(*h) for h in self.hexes))
        object.__setattr__(self, "high_ground", frozenset(Hex(*h) for h in self.high_ground))
        icons = tuple(sorted((Hex(*h), tuple(sorted(ic))) for h, ic in self.icons if ic))
        object.__setattr__(self, "icons", icons)
        object.__setattr__(self, "features", tuple(sorted(self.features, key=lambda f: f.edge)))
        object.__setattr__(self, "areas", tuple(sorted(self.areas, key=lambda a: a.name)))
        object.__setattr__(self, "turrets", tuple(sorted(self.turrets)))
        self._validate()

    # -- validation
    def _validate(self) -> None:
        if not self.hexes:
            raise _err("map", "the map has no hexes", "a shape and/or a list of hexes")
        if len(self.hexes) > MAX_HEXES:
            raise _err("map", f"the map has {len(self.hexes)} hexes", f"at most {MAX_HEXES}")
        for h in self.hexes:
            if abs(h.q) > COORD_LIMIT or abs(h.r) > COORD_LIMIT:
                raise _err("map.hexes", f"coordinate out of bounds: {h}", f"|q| and |r| <= {COORD_LIMIT}")
        for h in self.high_ground:
            if h not in self.hexes:
                raise _err("map.high_ground", f"hex {h} is not on the map (Out of Bounds)", "hexes of the map")
        seen_icon_hexes = set()
        for h, ics in self.icons:
            if h in seen_icon_hexes:
                raise _err("map.icons", f"hex {h} is listed twice", "one entry per hex")
            seen_icon_hexes.add(h)
            if h not in self.hexes:
                raise _err(f"map.icons.{h}", f"icon on hex {h}, which is not on the map (Out of Bounds)",
                           "hexes of the map")
        seen_edges: set[Edge] = set()
        for f in self.features:
            if f.edge in seen_edges:
                raise _err("map.edges", f"edge {f.edge} has two features", "one feature per hex side")
            seen_edges.add(f.edge)
            out = [h for h in f.edge.hexes if h not in self.hexes]
            if out and f.kind in (FeatureKind.WALL, FeatureKind.DOOR) and len(out) == 1:
                raise _err("map.edges", f"a {f.kind.value} on the outer edge {f.edge} (hex {out[0]} is Out of "
                           "Bounds)", "walls and doors between two hexes of the map; the grid's boundary already "
                           "closes the map")
            if out:
                raise _err("map.edges", f"{f.label} on edge {f.edge}: hex {out[0]} is not on the map (Out of Bounds)",
                           "edges between two hexes of the map")
        self._validate_elevation()
        self._validate_icons()
        self._validate_areas()
        seen_t = set()
        for t in self.turrets:
            if t.hex not in self.hexes:
                raise _err("map.turrets", f"Turret on hex {t.hex}, which is not on the map (Out of Bounds)",
                           "hexes of the map")
            if t.hex in seen_t:
                raise _err("map.turrets", f"two Turrets on hex {t.hex}", "one Turret per hex")
            seen_t.add(t.hex)

    def _validate_elevation(self) -> None:
        fmap = self.feature_map
        for f in self.features:
            if f.kind == FeatureKind.ELEVATION:
                low = f.edge.other(f.high)  # type: ignore[arg-type]
                hi_ok, lo_ok = f.high in self.high_ground, low not in self.high_ground
                if not (hi_ok and lo_ok):
                    listed = "neither" if not hi_ok and lo_ok else "both" if hi_ok else "the other side"
                    raise _err("map.edges", f"elevation change {f.edge} says {f.high} is High Ground and {low} Low "
                               f"Ground, but high_ground lists {listed}",
                               "high_ground containing the 'high' hex of every elevation change and not the other")
        for h in self.high_ground:
            for n in neighbors(h):
                if n in self.hexes and n not in self.high_ground:
                    f = fmap.get(Edge(h, n))
                    if f is None or f.kind not in (FeatureKind.ELEVATION, FeatureKind.WALL):
                        raise _err("map.high_ground", f"High Ground hex {h} borders Low Ground hex {n} without an "
                                   f"Elevation Change icon or a wall"
                                   + (f" (the edge has {f.label})" if f else ""),
                                   "an elevation (or wall) edge on every border between High and Low Ground")

    def _validate_icons(self) -> None:
        pairs: dict[str, list[Hex]] = {}
        turret_hexes = {t.hex for t in self.turrets}
        for h, ics in self.icons:
            for ic in ics:
                if ic.kind == Icon.FAST_TRAVEL:
                    pairs.setdefault(ic.label, []).append(h)
                if ic.kind == Icon.TURRET and h not in turret_hexes:
                    raise _err(f"map.icons.{h}", f"a turret icon on hex {h} without a Turret there",
                               "declare Turrets in [[map.turrets]] (hex, facing, active)")
        for label, hs in pairs.items():
            if len(hs) != 2:
                raise _err("map.icons", f"Fast Travel icon {('fast_travel:' + label) if label else 'fast_travel'} "
                           f"is on {plural(len(hs), 'hex', 'hexes')} ({', '.join(map(str, hs))})",
                           "matching pairs: exactly two hexes per Fast Travel label")

    def _validate_areas(self) -> None:
        owner: dict[Hex, str] = {}
        names = set()
        for a in self.areas:
            if not a.name or len(a.name) > 40:
                raise _err("map.areas", f"area name {a.name!r}", "1 to 40 characters")
            if a.name in names:
                raise _err("map.areas", f"area {a.name!r} is defined twice", "unique area names")
            names.add(a.name)
            for h in a.hexes:
                if h not in self.hexes:
                    raise _err(f"map.areas.{a.name}", f"hex {h} is not on the map (Out of Bounds)", "hexes of the map")
                if h in owner:
                    raise _err(f"map.areas.{a.name}", f"hex {h} is already in area {owner[h]!r}",
                               "each hex in at most one area")
                owner[h] = a.name
        fmap = self.feature_map
        for h, an in owner.items():
            for n in neighbors(h):
                bn = owner.get(n)
                if bn is not None and bn != an:
                    f = fmap.get(Edge(h, n))
                    if f is None or f.kind not in (FeatureKind.WALL, FeatureKind.DOOR):
                        raise _err("map.areas", f"areas {an!r} and {bn!r} share the border {Edge(h, n)} with no "
                                   "wall or door", "areas separated by walls and doors (Shrouded Areas)")

    # -- accessors
    def __contains__(self, h: object) -> bool:
        return h in self.hexes

    def __iter__(self) -> Iterator[Hex]:
        return iter(sorted(self.hexes))

    def __len__(self) -> int:
        return len(self.hexes)

    def __repr__(self) -> str:
        return (f"MissionMap({self.name or 'unnamed'!r}, {len(self.hexes)} hexes, {len(self.features)} edge features, "
                f"{len(self.areas)} areas, {len(self.turrets)} turrets)")

    def __getstate__(self) -> dict:
        """Pickled without its memo (``_cache``, rebuilt on demand): the parse cache keeps a validated map query's
        maps (:mod:`explorer.plain`) as the file made them, never what a run computed from them."""
        return {**self.__dict__, "_cache": {}}

    def _memo(self, key, make):
        c = self._cache
        if key not in c:
            c[key] = make()
        return c[key]

    @property
    def feature_map(self) -> Mapping[Edge, EdgeFeature]:
        """``{edge: feature}``."""
        return self._memo("feature_map", lambda: {f.edge: f for f in self.features})

    def feature(self, edge: Edge) -> EdgeFeature | None:
        """The feature on ``edge``, or ``None``."""
        return self.feature_map.get(edge)

    def feature_between(self, a: Hex, b: Hex) -> EdgeFeature | None:
        """The feature on the side shared by neighbouring hexes ``a`` and ``b`` (ValueError if not neighbours)."""
        return self.feature_map.get(Edge(a, b))

    @property
    def icon_map(self) -> Mapping[Hex, tuple[MapIcon, ...]]:
        """``{hex: icons}`` including a ``turret`` icon on every Turret hex."""
        def make():
            d = {h: ics for h, ics in self.icons}
            for t in self.turrets:
                if not any(i.kind == Icon.TURRET for i in d.get(t.hex, ())):
                    d[t.hex] = tuple(sorted((*d.get(t.hex, ()), MapIcon(Icon.TURRET))))
            return d
        return self._memo("icon_map", make)

    def icons_at(self, h: Hex) -> tuple[MapIcon, ...]:
        """The icons on hex ``h`` (``()`` if none)."""
        return self.icon_map.get(h, ())

    def has_icon(self, h: Hex, kind: Icon | str) -> bool:
        k = Icon(kind)
        return any(i.kind == k for i in self.icons_at(h))

    def hexes_with(self, kind: Icon | str, label: str | None = None) -> tuple[Hex, ...]:
        """Sorted hexes carrying an icon of ``kind`` (and ``label`` if given)."""
        k = Icon(kind)
        return tuple(sorted(h for h, ics in self.icon_map.items()
                            if any(i.kind == k and (label is None or i.label == label) for i in ics)))

    def fast_travel_partner(self, h: Hex) -> Hex | None:
        """The other hex sharing ``h``'s Fast Travel icon (Map Features › Fast Travel Icons), or ``None``."""
        for i in self.icons_at(h):
            if i.kind == Icon.FAST_TRAVEL:
                return next(x for x in self.hexes_with(Icon.FAST_TRAVEL, i.label) if x != h)
        return None

    @property
    def area_map(self) -> Mapping[Hex, Area]:
        return self._memo("area_map", lambda: {h: a for a in self.areas for h in a.hexes})

    def area_of(self, h: Hex) -> Area | None:
        """The area holding ``h``, or ``None``."""
        return self.area_map.get(h)

    def area(self, name: str) -> Area:
        """The area called ``name`` (KeyError lists the names)."""
        for a in self.areas:
            if a.name == name:
                return a
        raise KeyError(f"no area {name!r} (areas: {', '.join(a.name for a in self.areas) or 'none'})")

    def is_shrouded(self, h: Hex) -> bool:
        """Whether ``h`` lies in a Shrouded area (Shrouded Areas)."""
        a = self.area_of(h)
        return bool(a and a.shrouded)

    def turret_at(self, h: Hex) -> Turret | None:
        return self._memo("turret_map", lambda: {t.hex: t for t in self.turrets}).get(h)

    def is_high(self, h: Hex) -> bool:
        """Whether ``h`` is High Ground (Elevation Change Icons)."""
        return h in self.high_ground

    def elevation(self, h: Hex) -> str:
        """``"High Ground"`` or ``"Low Ground"``."""
        return "High Ground" if h in self.high_ground else "Low Ground"

    def direction_name(self, d: int) -> str:
        """Screen name of direction ``d`` in this map's orientation (``"E"``, ``"NE"``...)."""
        return DIRECTION_NAMES[self.orientation][d % 6]

    @property
    def extent(self) -> int:
        """Largest hex distance between two map hexes' coordinates bounds (an upper bound for straight lines)."""
        def make():
            qs = [h.q for h in self.hexes]
            rs = [h.r for h in self.hexes]
            ss = [h.s for h in self.hexes]
            return max(max(qs) - min(qs), max(rs) - min(rs), max(ss) - min(ss))
        return self._memo("extent", make)

    # -- changes (new maps)
    def with_features(self, add: Iterable[EdgeFeature] = (), remove: Iterable[Edge] = ()) -> MissionMap:
        """A copy with features on ``remove`` edges taken away, then ``add`` placed (replacing any on their edge)."""
        fm = dict(self.feature_map)
        for e in remove:
            fm.pop(e, None)
        for f in add:
            fm[f.edge] = f
        return replace(self, features=tuple(fm.values()))

    def with_door(self, edge: Edge, locked: bool) -> MissionMap:
        """A copy with the door on ``edge`` locked or unlocked (ValueError if there is no door)."""
        f = self.feature(edge)
        if f is None or f.kind != FeatureKind.DOOR:
            raise ValueError(f"there is no door on edge {edge}")
        return self.with_features([replace(f, locked=locked)])

    def with_turret(self, h: Hex, active: bool) -> MissionMap:
        """A copy with the Turret on ``h`` Active or Disabled (ValueError if there is none)."""
        t = self.turret_at(h)
        if t is None:
            raise ValueError(f"there is no Turret on hex {h}")
        return replace(self, turrets=tuple(replace(x, active=active) if x.hex == h else x for x in self.turrets))

    def with_shrouded(self, names: Iterable[str]) -> MissionMap:
        """A copy where exactly the areas in ``names`` are Shrouded (KeyError for an unknown name)."""
        names = set(names)
        unknown = names - {a.name for a in self.areas}
        if unknown:
            raise KeyError(f"no {'area' if len(unknown) == 1 else 'areas'} {join_words(sorted(unknown))} "
                           f"(areas: {', '.join(a.name for a in self.areas)})")
        return replace(self, areas=tuple(replace(a, shrouded=a.name in names) for a in self.areas))

    def transformed(self, steps: int = 0, axis: Axis | None = None, center: Hex = ORIGIN) -> MissionMap:
        """The map reflected across ``axis`` (if given) then rotated ``steps`` x 60° clockwise about ``center``:
        hexes, icons, features (an elevation change's High side), areas, Turrets and their facing all move together.
        Every adjacency, distance and Line of Fire verdict is preserved (tested)."""
        def th(h: Hex) -> Hex:
            if axis is not None:
                h = reflect(h, axis, center)
            return rotate(h, steps, center)

        def td(d: int) -> int:
            if axis is not None:
                d = reflect_direction(d, axis)
            return rotate_direction(d, steps)

        return MissionMap(
            hexes=frozenset(th(h) for h in self.hexes),
            icons=tuple((th(h), ics) for h, ics in self.icons),
            features=tuple(replace(f, edge=Edge(th(f.edge.a), th(f.edge.b)),
                                   high=th(f.high) if f.high is not None else None) for f in self.features),
            areas=tuple(replace(a, hexes=frozenset(th(h) for h in a.hexes)) for a in self.areas),
            turrets=tuple(replace(t, hex=th(t.hex), facing=td(t.facing)) for t in self.turrets),
            high_ground=frozenset(th(h) for h in self.high_ground),
            name=self.name, title=self.title, note=self.note, orientation=self.orientation)

    # -- conversions
    def to_dict(self) -> dict[str, Any]:
        return map_to_dict(self)

    def to_toml(self) -> str:
        return map_to_toml(self)

    def to_svg(self, **kwargs: Any) -> str:
        """A static SVG of the map (lazy import of :mod:`.map_svg`)."""
        from .map_svg import render_map
        return render_map(self, **kwargs)

    def _repr_svg_(self) -> str:
        return self.to_svg()


# -------------------------------------------------------------------------------------------- file format
# (its pydantic models: :mod:`.map_file`, imported by :func:`map_from_dict` only)


def parse_hex(text: str, fld: str, source: str | None = None) -> Hex:
    """Parse a hex key ``"q,r"`` with ``|q|, |r| <= COORD_LIMIT``.

    Raises:
        ScenarioError: malformed key or coordinate out of bounds (names ``fld``).
    """
    try:
        h = Hex.parse(str(text))
    except ValueError:
        raise ScenarioError(fld, f"not a hex key: {text!r}", "'q,r' with whole numbers, e.g. '2,-1'", source) from None
    if abs(h.q) > COORD_LIMIT or abs(h.r) > COORD_LIMIT:
        raise ScenarioError(fld, f"coordinate out of bounds: {h}", f"|q| and |r| <= {COORD_LIMIT}", source)
    return h


def parse_edge(text: str, fld: str, source: str | None = None) -> Edge:
    """Parse an edge ``"q1,r1|q2,r2"`` between neighbouring hexes.

    Raises:
        ScenarioError: malformed, out of bounds, or the two hexes are not neighbours.
    """
    parts = str(text).split("|")
    if len(parts) != 2:
        raise ScenarioError(fld, f"not an edge key: {text!r}", "'q1,r1|q2,r2', e.g. '0,0|1,0'", source)
    a, b = parse_hex(parts[0], fld, source), parse_hex(parts[1], fld, source)
    if distance(a, b) != 1:
        raise ScenarioError(fld, f"hexes {a} and {b} are not neighbours (hex distance {distance(a, b)}), so they "
                            "share no edge", "an edge between two neighbouring hexes, e.g. '0,0|1,0'", source)
    return Edge(a, b)


def parse_direction(value: int | str, orientation: str, fld: str, source: str | None = None) -> int:
    """A direction index 0..5 from an int or a screen name of ``orientation``'s :data:`DIRECTION_NAMES`."""
    names = DIRECTION_NAMES[orientation]
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 5:
        return value
    if isinstance(value, str) and value.strip().upper() in names:
        return names.index(value.strip().upper())
    raise ScenarioError(fld, f"unknown direction {value!r}", f"0..5 or one of {', '.join(names)}", source)


def _shape_hexes(shape: ShapeModel, source: str | None) -> set[Hex]:
    if shape.kind == "hexagon":
        if shape.radius is None:
            raise ScenarioError("map.shape.radius", "is required for a hexagon", "a whole number 0..28", source)
        c = parse_hex(shape.center, "map.shape.center", source)
        hs = set(hex_range(c, shape.radius))
    else:
        for f in ("width", "height"):
            if getattr(shape, f) is None:
                raise ScenarioError(f"map.shape.{f}", "is required for a rectangle", "a whole number 1..60", source)
        hs = {Hex(col - (row // 2), row) for row in range(shape.height) for col in range(shape.width)}  # type: ignore
    for h in hs:
        if abs(h.q) > COORD_LIMIT or abs(h.r) > COORD_LIMIT:
            raise ScenarioError("map.shape", f"coordinate out of bounds: {h}", f"|q| and |r| <= {COORD_LIMIT}", source)
    return hs


def map_from_dict(data: Mapping[str, Any], source: str | None = None, path: str = "map") -> MissionMap:
    """Build a :class:`MissionMap` from a ``[map]`` table (the dict under ``map``).

    Raises:
        ScenarioError: one line naming ``source``, the field (``map.edges[3].edge``) and what is allowed.
    """
    if not isinstance(data, Mapping):
        raise ScenarioError(path, f"must be a table (got {type(data).__name__})", "a [map] table or a built-in map "
                            "name", source)
    from explorer.scenario import validate

    from .map_file import MapModel   # pydantic: only when a map is validated, never by a validated map's player

    try:
        model = validate(MapModel, data, source)
    except ScenarioError as e:
        raise ScenarioError(f"{path}.{e.field}" if e.field else path, e.problem, e.allowed, source) from None
    hexes: set[Hex] = _shape_hexes(model.shape, source) if model.shape else set()
    for i, k in enumerate(model.hexes):
        hexes.add(parse_hex(k, f"{path}.hexes[{i}]", source))
    for i, k in enumerate(model.out_of_bounds):
        hexes.discard(parse_hex(k, f"{path}.out_of_bounds[{i}]", source))
    if not hexes:
        raise ScenarioError(path, "the map has no hexes", "a shape and/or a list of hexes", source)
    if len(hexes) > MAX_HEXES:
        raise ScenarioError(path, f"the map has {len(hexes)} hexes", f"at most {MAX_HEXES}", source)

    def on_map(h: Hex, fld: str, what: str) -> Hex:
        if h not in hexes:
            raise ScenarioError(fld, f"{what} on hex {h}, which is not on the map (Out of Bounds)", "hexes of the map",
                                source)
        return h

    high = frozenset(on_map(parse_hex(k, f"{path}.high_ground[{i}]", source), f"{path}.high_ground[{i}]",
                            "High Ground") for i, k in enumerate(model.high_ground))
    icons = []
    for k, lst in model.icons.items():
        fld = f'{path}.icons."{k}"'
        h = on_map(parse_hex(k, fld, source), fld, "an icon")
        if len(lst) > 8:
            raise ScenarioError(fld, f"{len(lst)} icons on one hex", "at most 8", source)
        ics = []
        for j, t in enumerate(lst):
            try:
                ics.append(MapIcon.parse(t))
            except ValueError as e:
                raise ScenarioError(f"{fld}[{j}]", str(e), "one of " + ", ".join(ICON_KINDS) + " (optionally "
                                    "'kind:label')", source) from None
        icons.append((h, tuple(ics)))
    features: list[EdgeFeature] = []
    seen: dict[Edge, int] = {}
    for i, em in enumerate(model.edges):
        fld = f"{path}.edges[{i}]"
        e = parse_edge(em.edge, f"{fld}.edge", source)
        out = [h for h in e.hexes if h not in hexes]
        if out and em.kind in ("wall", "door") and len(out) == 1:
            raise ScenarioError(f"{fld}.edge", f"a {em.kind} on the outer edge {e} (hex {out[0]} is Out of Bounds)",
                                "walls and doors between two hexes of the map; the grid's boundary already closes "
                                "the map", source)
        if out:
            raise ScenarioError(f"{fld}.edge", f"{em.kind} on edge {e}: hex {out[0]} is not on the map (Out of "
                                "Bounds)", "edges between two hexes of the map", source)
        if e in seen:
            raise ScenarioError(f"{fld}.edge", f"edge {e} already has a feature (map.edges[{seen[e]}])",
                                "one feature per hex side", source)
        seen[e] = i
        if em.kind == "door":
            if em.locked is None:
                raise ScenarioError(f"{fld}.locked", "a door needs its state", "locked = true or locked = false",
                                    source)
        elif em.locked is not None:
            raise ScenarioError(f"{fld}.locked", f"only doors are locked or unlocked, not a {em.kind}",
                                "omit 'locked'", source)
        hi = None
        if em.kind == "elevation":
            if em.high is None:
                raise ScenarioError(f"{fld}.high", "an elevation change needs its High Ground side",
                                    f"'{e.a}' or '{e.b}'", source)
            hi = parse_hex(em.high, f"{fld}.high", source)
            if hi not in e.hexes:
                raise ScenarioError(f"{fld}.high", f"hex {hi} is not on edge {e}", f"'{e.a}' or '{e.b}'", source)
        elif em.high is not None:
            raise ScenarioError(f"{fld}.high", f"only an elevation change has a High Ground side, not a {em.kind}",
                                "omit 'high'", source)
        features.append(EdgeFeature(e, FeatureKind(em.kind), bool(em.locked), hi))
    areas = []
    for i, am in enumerate(model.areas):
        fld = f"{path}.areas[{i}]"
        hs = frozenset(on_map(parse_hex(k, f"{fld}.hexes[{j}]", source), f"{fld}.hexes[{j}]", f"area {am.name!r}")
                       for j, k in enumerate(am.hexes))
        areas.append(Area(am.name, hs, am.shrouded))
    turrets = []
    for i, tm in enumerate(model.turrets):
        fld = f"{path}.turrets[{i}]"
        h = on_map(parse_hex(tm.hex, f"{fld}.hex", source), f"{fld}.hex", "a Turret")
        turrets.append(Turret(h, parse_direction(tm.facing, model.orientation, f"{fld}.facing", source), tm.active))
    try:
        return MissionMap(frozenset(hexes), tuple(icons), tuple(features), tuple(areas), tuple(turrets), high,
                          model.name, model.title, model.note, model.orientation)
    except ScenarioError as e:
        raise ScenarioError(e.field, e.problem, e.allowed, source) from None


def load_map_toml(source: str | Path, *, text: str | None = None) -> MissionMap:
    """Load a map file (a TOML document with a ``[map]`` table).

    Raises:
        ScenarioError: unreadable file, invalid TOML, missing ``[map]`` table, or any malformed field.
    """
    data = read_toml(source, text=text)
    extra = sorted(set(data) - {"map"})
    if "map" not in data:
        raise ScenarioError("map", "is required but missing", "a [map] table", str(source))
    if extra:
        raise ScenarioError(extra[0], "unknown field", "only a [map] table in a map file", str(source))
    return map_from_dict(data["map"], str(source))


def _maps_dir():
    return resources.files(__package__) / "maps"


def available_maps() -> list[str]:
    """Names of the built-in maps (``explorer/games/masseffect/maps/*.toml``)."""
    return sorted(p.name[:-5] for p in _maps_dir().iterdir() if p.name.endswith(".toml"))


def load_map(name: str) -> MissionMap:
    """A built-in map by name (cached: the same object every call, so geometry caches are shared).

    Raises:
        ScenarioError: unknown name (lists the built-in maps).
    """
    m = _LOADED.get(name)
    if m is None:
        names = available_maps()
        if name not in names:
            raise ScenarioError("map", f"unknown built-in map {name!r}", names)
        f = _maps_dir() / f"{name}.toml"
        m = _LOADED[name] = load_map_toml(f"{name}.toml (built-in)", text=f.read_text(encoding="utf-8"))
    return m


_LOADED: dict[str, MissionMap] = {}

DEFAULT_MAP = "demo-mission"
"""The map the widgets open by default (a mission-sized demo map of our own design)."""


def map_to_dict(m: MissionMap) -> dict[str, Any]:
    """The ``[map]`` table of ``m`` (TOML-ready; hexes listed explicitly, defaults omitted)."""
    d: dict[str, Any] = {}
    for k in ("name", "title", "note"):
        if getattr(m, k):
            d[k] = getattr(m, k)
    if m.orientation != "pointy":
        d["orientation"] = m.orientation
    d["hexes"] = [str(h) for h in sorted(m.hexes)]
    if m.high_ground:
        d["high_ground"] = [str(h) for h in sorted(m.high_ground)]
    if m.icons:
        d["icons"] = {str(h): [str(i) for i in ics] for h, ics in m.icons}
    edges = []
    for f in m.features:
        e: dict[str, Any] = {"edge": str(f.edge), "kind": f.kind.value}
        if f.kind == FeatureKind.DOOR:
            e["locked"] = f.locked
        if f.high is not None:
            e["high"] = str(f.high)
        edges.append(e)
    if edges:
        d["edges"] = edges
    if m.areas:
        d["areas"] = [{"name": a.name, "hexes": [str(h) for h in sorted(a.hexes)], "shrouded": a.shrouded}
                      for a in m.areas]
    if m.turrets:
        d["turrets"] = [{"hex": str(t.hex), "facing": m.direction_name(t.facing), "active": t.active}
                        for t in m.turrets]
    return d


def _tv(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'
    if isinstance(v, list):
        return "[" + ", ".join(_tv(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{k} = {_tv(x)}" for k, x in v.items()) + " }"
    raise TypeError(type(v))


def map_to_toml(m: MissionMap) -> str:
    """A map file for ``m`` (``load_map_toml(..., text=map_to_toml(m)) == m``)."""
    d = map_to_dict(m)
    lines = ["[map]"]
    for k in ("name", "title", "note", "orientation", "hexes", "high_ground"):
        if k in d:
            lines.append(f"{k} = {_tv(d[k])}")
    if "icons" in d:
        lines += ["", "[map.icons]"] + [f'"{k}" = {_tv(v)}' for k, v in d["icons"].items()]
    for table in ("edges", "areas", "turrets"):
        for item in d.get(table, []):
            lines += ["", f"[[map.{table}]]"] + [f"{k} = {_tv(v)}" for k, v in item.items()]
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------------------- character placement


def check_placements(m: MissionMap, placements: Iterable[tuple[str, Hex]], fld: str = "characters",
                     source: str | None = None) -> None:
    """Check characters placed on a map (Hexes: each hex holds a single character).

    Args:
        placements: ``(name, hex)`` in file order; errors name ``{fld}[i].hex`` / ``{fld}[i].name``.

    Raises:
        ScenarioError: a hex not on the map (Out of Bounds), two characters on one hex, or a repeated name.
    """
    by_hex: dict[Hex, str] = {}
    names: set[str] = set()
    for i, (name, h) in enumerate(placements):
        if name in names:
            raise ScenarioError(f"{fld}[{i}].name", f"a second character named {name!r}", "unique names", source)
        names.add(name)
        if h not in m:
            raise ScenarioError(f"{fld}[{i}].hex", f"{name} is on hex {h}, which is not on the map (Out of Bounds)",
                                "a hex of the map", source)
        if h in by_hex:
            raise ScenarioError(f"{fld}[{i}].hex", f"two characters on hex {h} ({by_hex[h]} and {name})",
                                "one character per hex (Hexes)", source)
        by_hex[h] = name
