"""The world map of Marvel D.A.G.G.E.R. as a graph: spaces joined by dotted lines, regions, bases, Asgard, the Bifrost.

Rulebook sections: Setup (the five bases: New York, Atlantis, Madripoor, Wakanda and the Iliad token's numbered
space; the Bifrost token on its slot on Asgard), Gameplay › Hero Phase › Aspect Actions (Move: to an adjacent space,
"connected by dotted lines"), D.A.G.G.E.R. Actions (Asgard is not a base and is never overrun), Nemesis Phase › 3
(enemies move toward the nearest operational base of their region, else the nearest anywhere), Additional Rules ›
Nearby and Overrun (nearby = the same or an adjacent space; nothing is nearby itself).

The printed map is not in the rulebook. ``maps/default.toml`` is a documented **stand-in** (five bases, six regions,
Asgard and the Bifrost, numbered spaces for the Iliad) so the engine has a board; enter the real map in the same
format (``docs/dagger-map-format.md``) to use it instead.

Public API:

* :class:`WorldMap` — an immutable value: ``spaces`` (:class:`Space`: name, region, number, x, y), ``links`` (pairs of
  space names), ``regions``, ``bases`` (the four printed bases' spaces), ``asgard``, ``bifrost``. Queries (networkx):
  :meth:`WorldMap.adjacent`, :meth:`WorldMap.distance` (lines crossed), :meth:`WorldMap.nearby_spaces`,
  :meth:`WorldMap.steps_toward` (the neighbours one line closer), :meth:`WorldMap.region_of`,
  :meth:`WorldMap.numbered_space`.
* :func:`nearest_operational_bases` — ``NearestBases(distance, bases, scope)`` with every tied base listed.
* :func:`map_from_dict`, :func:`load_map_file`, :func:`load_map` (built-in name), :func:`available_maps`: loading
  through :func:`explorer.scenario.read_toml` + :func:`explorer.scenario.validate`; every malformed map raises a
  one-line :class:`~explorer.errors.ScenarioError` naming the file, the field and what is allowed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from explorer.errors import ScenarioError
from explorer.scenario import read_toml, validate

if TYPE_CHECKING:  # networkx is imported where a query needs it: loading a map (the forecast) does not
    import networkx as nx

FIXED_BASES: tuple[str, ...] = ("New York", "Atlantis", "Madripoor", "Wakanda")
"""The four bases printed on the board (Setup); the fifth, the Iliad, is a token placed on a numbered space."""
ILIAD = "Iliad"
"""The name of the fifth base (the Iliad token)."""

MAPS = Path(__file__).with_name("maps")
"""The built-in maps' directory (``maps/<name>.toml``)."""

MAX_SPACES = 200
MAX_LINKS = 800
@dataclass(frozen=True, slots=True)
class Space:
    """A space of the world map: ``name``, ``region``, ``number`` (``None`` when unnumbered), drawing ``x``, ``y``."""

    name: str
    region: str
    number: int | None = None
    x: float = 0.0
    y: float = 0.0


@dataclass(frozen=True, slots=True)
class NearestBases:
    """The answer to "nearest operational base": ``distance`` (lines), ``bases`` (every base name at that distance,
    in map order; ties are the 1st player's choice), ``scope`` (``"region"`` or ``"anywhere"``)."""

    distance: int
    bases: tuple[str, ...]
    scope: str


def _err(fld: str, problem: str, allowed: str | None = None, source: str | None = None) -> ScenarioError:
    return ScenarioError(fld, problem, allowed, source)


@dataclass(frozen=True, eq=True)
class WorldMap:
    """The world map (an immutable value; the graph and distances are computed once and cached).

    Attributes:
        spaces: every space, in file order (map order breaks no rule tie; it only orders listings).
        links: the dotted lines, as sorted ``(a, b)`` name pairs.
        regions: ``((name, title), ...)``.
        bases: the spaces of the printed bases, in file order (normally :data:`FIXED_BASES`).
        asgard: the Asgard space (not a base, never overrun). bifrost: the space of the Bifrost token's slot.
        name, title, note: labels.

    Raises:
        ScenarioError: on construction, for a link to an unknown space, a self-loop, a duplicate space, region, number
            or link, a space in an unknown region, a base or Asgard that is not a space, Asgard listed as a base, or a
            map whose spaces are not all connected.
    """

    spaces: tuple[Space, ...]
    links: tuple[tuple[str, str], ...]
    regions: tuple[tuple[str, str], ...]
    bases: tuple[str, ...]
    asgard: str
    bifrost: str
    name: str = ""
    title: str = ""
    note: str = ""
    _cache: dict = field(default_factory=dict, init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        self._validate()

    def _validate(self) -> None:
        region_names = [r for r, _ in self.regions]
        for i, r in enumerate(region_names):
            if r in region_names[:i]:
                raise _err(f"map.regions[{i}].name", f"duplicate region {r!r}", "unique region names")
        names: dict[str, int] = {}
        numbers: dict[int, str] = {}
        for i, s in enumerate(self.spaces):
            if s.name in names:
                raise _err(f"map.spaces[{i}].name", f"duplicate space {s.name!r}", "unique space names")
            names[s.name] = i
            if s.region not in region_names:
                raise _err(f"map.spaces[{i}].region", f"space {s.name!r} is in unknown region {s.region!r}",
                           "one of " + ", ".join(repr(r) for r in region_names))
            if s.number is not None:
                if s.number in numbers:
                    raise _err(f"map.spaces[{i}].number", f"number {s.number} is on {numbers[s.number]!r} and "
                               f"{s.name!r}", "each number on one space")
                numbers[s.number] = s.name
        seen: set[tuple[str, str]] = set()
        for i, (a, b) in enumerate(self.links):
            for end in (a, b):
                if end not in names:
                    raise _err(f"map.links[{i}]", f"line {a}|{b} names unknown space {end!r}", "names of spaces")
            if a == b:
                raise _err(f"map.links[{i}]", f"line {a}|{b} joins a space to itself", "two different spaces")
            if (a, b) in seen:
                raise _err(f"map.links[{i}]", f"line {a}|{b} is listed twice", "each line once")
            seen.add((a, b))
        for i, b in enumerate(self.bases):
            if b not in names:
                raise _err(f"map.bases[{i}]", f"base {b!r} is not a space", "names of spaces")
            if b in self.bases[:i]:
                raise _err(f"map.bases[{i}]", f"base {b!r} is listed twice", "each base once")
        if self.asgard not in names:
            raise _err("map.asgard", f"Asgard {self.asgard!r} is not a space", "names of spaces")
        if self.asgard in self.bases:
            raise _err("map.bases", f"Asgard ({self.asgard!r}) is listed as a base",
                       "bases other than Asgard (Asgard is not a base)")
        if self.bifrost not in names:
            raise _err("map.bifrost", f"the Bifrost slot {self.bifrost!r} is not a space", "names of spaces")
        comps = self._components()
        if len(comps) > 1:
            comps = sorted((sorted(c) for c in comps), key=len)
            raise _err("map.links", f"space {comps[0][0]!r} cannot be reached from {comps[-1][0]!r}",
                       "lines joining every space to the others")

    def _neighbours(self) -> dict[str, set[str]]:
        """``{space: the spaces joined to it by a line}`` (cached). The queries below walk this themselves: the
        Nemesis Phase and ``explorer dagger forecast`` need no networkx (:attr:`graph` imports it when asked)."""
        nbrs = self._cache.get("neighbours")
        if nbrs is None:
            nbrs = {s.name: set() for s in self.spaces}
            for a, b in self.links:
                nbrs[a].add(b)
                nbrs[b].add(a)
            self._cache["neighbours"] = nbrs
        return nbrs

    def _components(self) -> list[set[str]]:
        """The connected groups of spaces, each found from its first space in file order (as
        ``networkx.connected_components`` lists them)."""
        nbrs = self._neighbours()
        seen: set[str] = set()
        out = []
        for s in nbrs:
            if s in seen:
                continue
            comp, todo = {s}, [s]
            while todo:
                for n in nbrs[todo.pop()]:
                    if n not in comp:
                        comp.add(n)
                        todo.append(n)
            seen |= comp
            out.append(comp)
        return out

    # -- graph
    @property
    def graph(self) -> nx.Graph:
        """The map as an undirected :class:`networkx.Graph` (nodes: space names with ``region``; edges: lines).
        Shared and cached: do not mutate."""
        g = self._cache.get("graph")
        if g is None:
            import networkx as nx

            g = nx.Graph()
            for s in self.spaces:
                g.add_node(s.name, region=s.region)
            g.add_edges_from(self.links)
            self._cache["graph"] = g
        return g

    def _dist(self, within_region: str | None = None) -> dict[str, dict[str, int]]:
        key = ("dist", within_region)
        d = self._cache.get(key)
        if d is None:  # breadth first from every space (as networkx.all_pairs_shortest_path_length)
            keep = {s.name for s in self.spaces if within_region is None or s.region == within_region}
            nbrs = self._neighbours()
            d = {}
            for a in self.names:
                if a not in keep:
                    continue
                dist, level, k = {a: 0}, [a], 0
                while level:
                    k += 1
                    nxt = []
                    for u in level:
                        for n in nbrs[u]:
                            if n in keep and n not in dist:
                                dist[n] = k
                                nxt.append(n)
                    level = nxt
                d[a] = dist
            self._cache[key] = d
        return d

    @property
    def names(self) -> tuple[str, ...]:
        """Space names in map order."""
        n = self._cache.get("names")
        if n is None:
            n = self._cache["names"] = tuple(s.name for s in self.spaces)
        return n

    def space(self, name: str) -> Space:
        """The :class:`Space` called ``name``. Raises KeyError for an unknown name."""
        by = self._cache.get("by_name")
        if by is None:
            by = self._cache["by_name"] = {s.name: s for s in self.spaces}
        return by[name]

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and name in self._neighbours()

    def region_of(self, name: str) -> str:
        """The region of space ``name``."""
        return self.space(name).region

    def adjacent(self, name: str) -> tuple[str, ...]:
        """Spaces joined to ``name`` by a line, in map order (computed once per map)."""
        adj = self._cache.get("adjacent")
        if adj is None:
            g = self._neighbours()
            adj = self._cache["adjacent"] = {a: tuple(n for n in self.names if n in g[a]) for a in self.names}
        return adj[name]

    def distance(self, a: str, b: str, within_region: str | None = None) -> int | None:
        """Lines crossed on a shortest route from ``a`` to ``b`` (0 for the same space); with ``within_region``, only
        through spaces of that region (``None`` if no such route)."""
        return self._dist(within_region).get(a, {}).get(b)

    def nearby_spaces(self, name: str, *, include_self: bool) -> tuple[str, ...]:
        """The spaces nearby ``name`` (Additional Rules › Nearby and Overrun): adjacent spaces, plus ``name`` itself
        when ``include_self`` (whether the pieces on a hero's or enemy's own space are nearby it is the ruling option
        ``nearby_pieces``; whether a space counts as nearby itself is the ruling option ``nearby_space_itself``)."""
        return ((name,) if include_self else ()) + self.adjacent(name)

    def steps_toward(self, start: str, target: str, within_region: str | None = None) -> tuple[str, ...]:
        """The spaces adjacent to ``start`` that are one line closer to ``target`` (every first step of a shortest
        route), in map order; ``()`` if ``start == target`` or ``target`` is unreachable."""
        d = self._dist(within_region)
        here = d.get(start, {}).get(target)
        if not here:
            return ()
        return tuple(n for n in self.adjacent(start) if d.get(n, {}).get(target) == here - 1)

    def numbered_space(self, number: int) -> str | None:
        """The space printed with ``number``, or ``None``."""
        return next((s.name for s in self.spaces if s.number == number), None)

    def iliad_space(self, where: str | int, fld: str = "iliad", source: str | None = None) -> str:
        """Check a placement of the Iliad token (Setup: the 1st player chooses a numbered space) and return its space.

        Args:
            where: a space name or its number.

        Raises:
            ScenarioError: not a numbered space, or a printed base's space.
        """
        numbered = [s.name for s in self.spaces if s.number is not None and s.name not in self.bases]
        name = self.numbered_space(where) if isinstance(where, int) else where
        if name is None or name not in self or self.space(name).number is None or name in self.bases:
            raise _err(fld, f"the Iliad must be on a numbered space that is not a printed base, got {where!r}",
                       "one of " + ", ".join(repr(n) for n in numbered), source)
        return name


def nearest_operational_bases(world: WorldMap, space: str, operational: Mapping[str, str],
                              region_distance: str = "whole_map") -> NearestBases | None:
    """The nearest operational base for an enemy on ``space`` (Nemesis Phase › 3 › Activate enemies, Move): the
    nearest operational base in its region, or if its region has none (reachable), the nearest anywhere.

    Args:
        operational: ``{base name: space}`` of the operational bases only.
        region_distance: reading of the ruling option ``region_distance`` (``"whole_map"`` or ``"within_region"``).

    Returns:
        ``NearestBases`` with every base at the least distance (a tie is the 1st player's choice), or ``None`` when no
        base is operational. Answers are cached on the map per (space, operational bases, reading): at most
        spaces x 2^bases x 2 entries.
    """
    key = ("nearest", space, tuple(operational.items()), region_distance)
    hit = world._cache.get(key, _MISS)
    if hit is not _MISS:
        return hit
    world._cache[key] = answer = _nearest_operational_bases(world, space, operational, region_distance)
    return answer


_MISS = object()


def _nearest_operational_bases(world: WorldMap, space: str, operational: Mapping[str, str],
                               region_distance: str) -> NearestBases | None:
    region = world.region_of(space)
    in_region = {b: s for b, s in operational.items() if world.region_of(s) == region}
    scope_region = region if region_distance == "within_region" else None
    cand = {b: world.distance(space, s, scope_region) for b, s in in_region.items()}
    cand = {b: d for b, d in cand.items() if d is not None}
    scope = "region"
    if not cand:
        cand = {b: world.distance(space, s) for b, s in operational.items()}
        cand = {b: d for b, d in cand.items() if d is not None}
        scope = "anywhere"
    if not cand:
        return None
    best = min(cand.values())
    return NearestBases(best, tuple(b for b in operational if cand.get(b) == best), scope)


# ----------------------------------------------------------------------------------------------------- loading


def _split_link(text: str, i: int, source: str | None) -> tuple[str, str]:
    a, sep, b = text.partition("|")
    if not sep or "|" in b or not a.strip() or not b.strip():
        raise _err(f"map.links[{i}]", f"{text!r} is not two space names joined by '|'", '"New York|Atlantis"',
                   source)
    a, b = a.strip(), b.strip()
    return (a, b) if a <= b else (b, a)


def map_from_dict(data: Mapping[str, Any], source: str | None = None) -> WorldMap:
    """A :class:`WorldMap` from the ``[map]`` table (a dict).

    Raises:
        ScenarioError: a malformed table or an inconsistent map (one line naming ``source`` and the field).
    """
    from .map_file import MapModel   # pydantic: only when a map is validated

    try:
        m = validate(MapModel, data, source)
    except ScenarioError as e:
        raise ScenarioError(f"map.{e.field}" if e.field else "map", e.problem, e.allowed, source) from None
    try:
        return WorldMap(
            spaces=tuple(Space(s.name, s.region, s.number, s.x, s.y) for s in m.spaces),
            links=tuple(_split_link(t, i, source) for i, t in enumerate(m.links)),
            regions=tuple((r.name, r.title) for r in m.regions),
            bases=tuple(m.bases), asgard=m.asgard, bifrost=m.bifrost, name=m.name, title=m.title, note=m.note)
    except ScenarioError as e:
        if e.source is None and source is not None:
            raise ScenarioError(e.field, e.problem, e.allowed, source) from None
        raise


def load_map_file(path: str | Path) -> WorldMap:
    """Load a map file (a TOML document with a ``[map]`` table).

    Raises:
        ScenarioError: unreadable file, invalid TOML, missing ``[map]``, or a malformed map.
    """
    data = read_toml(path)
    if not isinstance(data.get("map"), dict):
        raise _err("map", "is required but missing", "a [map] table", str(path))
    return map_from_dict(data["map"], str(path))


def available_maps() -> list[str]:
    """Names of the built-in maps (``maps/<name>.toml``)."""
    d = MAPS
    return sorted(p.name[:-5] for p in d.iterdir() if p.name.endswith(".toml"))


_builtin: dict[str, WorldMap] = {}


def load_map(name: str = "default") -> WorldMap:
    """A built-in map by name (cached; maps are immutable).

    Raises:
        ScenarioError: unknown name (lists the built-in maps).
    """
    if name not in _builtin:
        if name not in available_maps():
            raise _err("map", f"unknown built-in map {name!r}", available_maps())
        f = MAPS / f"{name}.toml"
        text = f.read_text(encoding="utf-8")
        data = read_toml(f"{name}.toml (built-in map)", text=text)
        _builtin[name] = map_from_dict(data["map"], f"{name}.toml (built-in map)")
    return _builtin[name]


def links_text(links: Iterable[tuple[str, str]]) -> list[str]:
    """Lines as ``"a|b"`` strings (the file format)."""
    return [f"{a}|{b}" for a, b in links]
