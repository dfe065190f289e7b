"""Mission-map geometry of Mass Effect: Priority Hagalaz: adjacency, distances, straight lines, Line of Fire, movement.

Rulebook sections: Interacting with the Mission Map › Out of Bounds, Adjacency, Counting Distances, Line of Fire,
Shrouded Areas; Additional Rules › Turrets; Map Features › Elevation Change Icons, Fast Travel Icons.

Public API (``m`` is a :class:`~.map.MissionMap`; hexes are :class:`~explorer.hexgrid.Hex`; ``rulings`` is a
:class:`~explorer.options.Rulings`, a ``{key: reading}`` mapping or ``None`` for the defaults of :mod:`.options`):

* ``adjacent(m, a, b) -> Adjacency`` (truthy iff adjacent) and ``adjacent_hexes(m, h) -> tuple[Hex, ...]``.
* ``distance(m, a, b, *, ignore_walls=False, rulings=None) -> Distance`` (``.value``: int hexes or ``None`` when no
  route exists; ``.route``), ``distance_map(m, source, ...) -> Mapping[Hex, int]`` (cached BFS),
  ``distance_maps(m, ...) -> Mapping[Hex, Mapping[Hex, int]]`` (from every hex at once, one multi-source pass),
  ``within(m, a, b, n, ...) -> Within``, ``hexes_within(m, h, n, ...) -> frozenset[Hex]``.
* ``straight_lines(m, h) -> tuple[StraightLine, ...]`` (the six lines), ``line_of_fire(m, attacker, target, *,
  rulings=None) -> LineOfFire`` (truthy iff in Line of Fire; ``.crossings`` explain every hex side crossed),
  ``lof_all(m, attacker, ...) -> LofFan`` (the six lines, every hex's verdict), ``lof_targets(m, attacker, ...) ->
  frozenset[Hex]`` and ``lof_map(m, ...) -> Mapping[Hex, frozenset[Hex]]`` (all pairs, precomputed once per map and
  rulings).
* ``turret_line_of_fire(m, turret_hex, target, *, sabotaged=False, rulings=None) -> LineOfFire`` and
  ``turret_targets(m, turret_hex, ...) -> frozenset[Hex]`` (one direction, own hex included; Disabled: none).
* ``can_step(m, a, b) -> Movement`` (one Movement Point into a neighbouring hex: adjacency and High→Low only),
  ``movement_graph(m, *, fast_travel=False) -> networkx.DiGraph``, ``adjacency_graph(m) -> networkx.Graph``.
* ``initial_shrouded(m, squadmate_hexes) -> frozenset[str]``, ``areas_revealed(m, h) -> frozenset[str]``.

Every result is a frozen dataclass with ``explain() -> list[str]``, ``to_dict()`` (JSON-ready) and ``rule`` (the
:class:`~explorer.trace.RuleRef` that decides it).

Decisions:

* **Straight lines.** A straight line from a hex runs through the hexes ``h + k·direction(d)``; it crosses each hex
  side it meets at the side's midpoint, perpendicularly, so it never runs along a side nor through a corner. "Directly
  between" therefore means: the hex sides crossed by the line from the attacker's hex to the target's hex (``k``
  sides for a target ``k`` hexes away); no grazing case arises (tested with :func:`explorer.hexgrid.classify_centres`).
* **Walls bordering the attacker's hex block.** The exemption names only Obstacles and doors; walls always block
  ("Characters can't ... attack through walls", Mission Map Page).
* **Characters** never block Line of Fire; the geometry does not know them (queries list the intervening ones).
* **Distance ignoring walls and locked doors** still counts a route through hexes of the map (Out of Bounds hexes are
  not part of a route); on a map without holes it equals the hex distance.
* Open questions are ruling options (:mod:`.options`): ``lof_own_hex_locked_door``, ``lof_out_of_bounds``,
  ``lof_intervening_elevation``, ``distance_elevation``, ``turret_own_hex_exemption``.

Caching: every precomputed structure (graphs, distance maps per source, the all-pairs Line of Fire map per rulings) is
kept in the map value's private cache; maps are immutable, so a cache is never stale.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any


from explorer.errors import ScenarioError
from explorer.hexgrid import DIRECTIONS, Edge, Hex, distance as hex_distance, neighbors
from explorer.options import Rulings
from explorer.text import plural
from explorer.trace import RuleRef

from . import options as opts
from . import sections as S
from .map import FeatureKind, MissionMap

if TYPE_CHECKING:  # imported by the two graph builders only: most queries walk the hexes themselves
    import networkx as nx

RulingsLike = Rulings | Mapping[str, str] | None


def _rulings(r: RulingsLike) -> Rulings:
    if isinstance(r, Rulings):
        return r
    return opts.rulings(r)


def _on_map(m: MissionMap, h: Hex, what: str) -> Hex:
    h = Hex(*h)
    if h not in m:
        raise ScenarioError(what, f"hex {h} is not on the map (Out of Bounds)", "a hex of the map")
    return h


def _line_direction(a: Hex, b: Hex) -> tuple[int, int] | None:
    """``(d, k)`` with ``b == a + k·DIRECTIONS[d]``, ``k >= 1``; ``None`` if ``b`` is not on a straight line from
    ``a`` (or ``a == b``)."""
    dq, dr = b.q - a.q, b.r - a.r
    k = hex_distance(a, b)
    if k == 0:
        return None
    for d, v in enumerate(DIRECTIONS):
        if v.q * k == dq and v.r * k == dr:
            return d, k
    return None


def _ref_dict(r: RuleRef) -> dict[str, str]:
    return {"game": r.game, "section": r.section}


# --------------------------------------------------------------------------------------------------- adjacency


@dataclass(frozen=True)
class Adjacency:
    """Whether hexes ``a`` and ``b`` are adjacent (Interacting with the Mission Map › Adjacency).

    Attributes:
        adjacent: the verdict. ``bool(result)`` is the verdict too.
        edge: the shared side, if the hexes are neighbours on the grid.
        feature: ``"wall"``, ``"locked door"``, ``"unlocked door"``, ``"obstacle"``, ``"elevation change"`` or ``None``.
        reason: one sentence.
    """

    a: Hex
    b: Hex
    adjacent: bool
    edge: Edge | None
    feature: str | None
    reason: str
    rule: RuleRef = S.ADJACENCY

    def __bool__(self) -> bool:
        return self.adjacent

    def explain(self) -> list[str]:
        return [f"{self.a} and {self.b}: {'adjacent' if self.adjacent else 'not adjacent'} — {self.reason}"]

    def to_dict(self) -> dict[str, Any]:
        return {"a": str(self.a), "b": str(self.b), "adjacent": self.adjacent,
                "edge": str(self.edge) if self.edge else None, "feature": self.feature, "reason": self.reason,
                "rule": _ref_dict(self.rule)}


def adjacent(m: MissionMap, a: Hex, b: Hex) -> Adjacency:
    """Adjacency: two map hexes sharing a border are adjacent unless the border has a wall or a locked door; Obstacles,
    unlocked doors and Elevation Change icons do not prevent it (Adjacency; Elevation Change Icons).

    Raises:
        ScenarioError: ``a`` or ``b`` is Out of Bounds.
    """
    a, b = _on_map(m, a, "a"), _on_map(m, b, "b")
    d = hex_distance(a, b)
    if d != 1:
        return Adjacency(a, b, False, None, None, "the same hex" if d == 0 else
                         f"they share no border (hex distance {d})")
    e = Edge(a, b)
    f = m.feature(e)
    if f is None:
        return Adjacency(a, b, True, e, None, "they share a border with nothing on it")
    if f.breaks_adjacency:
        return Adjacency(a, b, False, e, f.label, f"the {f.label} on their border {e} breaks adjacency")
    why = {FeatureKind.OBSTACLE: "an Obstacle does not prevent adjacency",
           FeatureKind.DOOR: "an unlocked door does not prevent adjacency",
           FeatureKind.ELEVATION: "hexes either side of an Elevation Change icon still count as adjacent"}[f.kind]
    return Adjacency(a, b, True, e, f.label, f"they share the border {e} with {'an' if f.label[0] in 'aeiou' else 'a'} "
                     f"{f.label}: {why}",
                     S.ELEVATION_CHANGE if f.kind == FeatureKind.ELEVATION else S.ADJACENCY)


#: ``True``: :func:`_adj_list` builds the list the former way (an :class:`~explorer.hexgrid.Edge` and a feature look-up
#: per neighbouring pair); kept for ``benchmarks/bench_me_distances.py``'s same-run ratio and the equality test.
FORMER_ADJACENCY = False


def _adj_list(m: MissionMap) -> Mapping[Hex, tuple[Hex, ...]]:
    """``{hex: adjacent hexes in direction order}`` (Adjacency), cached per map. The sides that break adjacency (walls,
    locked doors) are collected once from the map's features; every other pair of neighbouring map hexes is adjacent."""
    def former():
        fm = m.feature_map
        out = {}
        for h in m.hexes:
            ns = []
            for n in neighbors(h):
                if n in m.hexes:
                    f = fm.get(Edge(h, n))
                    if f is None or not f.breaks_adjacency:
                        ns.append(n)
            out[h] = tuple(ns)
        return out

    def make():
        broken = set()
        for f in m.features:
            if f.breaks_adjacency:
                a, b = f.edge.a, f.edge.b
                broken.add((a, b))
                broken.add((b, a))
        hexes, new = m.hexes, tuple.__new__
        steps = tuple((v.q, v.r) for v in DIRECTIONS)
        out = {}
        for h in hexes:
            q, r = h
            ns = [new(Hex, (q + dq, r + dr)) for dq, dr in steps]
            out[h] = tuple(n for n in ns if n in hexes and (h, n) not in broken)
        return out
    return m._memo("adj_list", former if FORMER_ADJACENCY else make)


def adjacent_hexes(m: MissionMap, h: Hex) -> tuple[Hex, ...]:
    """The hexes adjacent to ``h`` (Adjacency), in direction order."""
    return _adj_list(m)[_on_map(m, h, "hex")]


def adjacency_graph(m: MissionMap) -> nx.Graph:
    """Undirected graph of the map hexes with an edge between every two adjacent hexes (cached; do not mutate)."""
    def make():
        import networkx as nx

        g = nx.Graph()
        g.add_nodes_from(m.hexes)
        g.add_edges_from((h, n) for h, ns in _adj_list(m).items() for n in ns)
        return g
    return m._memo("adjacency_graph", make)


# ---------------------------------------------------------------------------------------------------- movement


@dataclass(frozen=True)
class Movement:
    """Whether a character may spend one Movement Point to move from ``a`` into ``b``."""

    a: Hex
    b: Hex
    allowed: bool
    reason: str
    rule: RuleRef = S.ADJACENCY

    def __bool__(self) -> bool:
        return self.allowed

    def explain(self) -> list[str]:
        return [f"{self.a} -> {self.b}: {'may move' if self.allowed else 'may not move'} — {self.reason}"]

    def to_dict(self) -> dict[str, Any]:
        return {"a": str(self.a), "b": str(self.b), "allowed": self.allowed, "reason": self.reason,
                "rule": _ref_dict(self.rule)}


def _step_ok(m: MissionMap, a: Hex, b: Hex) -> bool:
    f = m.feature(Edge(a, b))
    return not (f is not None and f.kind == FeatureKind.ELEVATION and f.high == b)


def can_step(m: MissionMap, a: Hex, b: Hex) -> Movement:
    """One Movement Point moves a character into an adjacent hex (Basic Actions › Move; Adjacency); across an
    Elevation Change icon only from High Ground to Low Ground (Elevation Change Icons). Occupancy is not checked here.

    Raises:
        ScenarioError: ``a`` or ``b`` is Out of Bounds.
    """
    adj = adjacent(m, a, b)
    if not adj:
        return Movement(adj.a, adj.b, False, f"not adjacent: {adj.reason}", adj.rule)
    if not _step_ok(m, adj.a, adj.b):
        return Movement(adj.a, adj.b, False, "an Elevation Change icon can be crossed from High Ground to Low Ground "
                        f"only, and {adj.b} is the High Ground side", S.ELEVATION_CHANGE)
    if adj.feature == "elevation change":
        return Movement(adj.a, adj.b, True, "down from High Ground to Low Ground across the Elevation Change icon",
                        S.ELEVATION_CHANGE)
    return Movement(adj.a, adj.b, True, adj.reason, adj.rule)


def movement_graph(m: MissionMap, *, fast_travel: bool = False) -> nx.DiGraph:
    """Directed graph of single moves (one Movement Point each): adjacent hexes, High→Low only across Elevation Change
    icons; with ``fast_travel`` (Squadmates only, Fast Travel Icons) also between the two hexes of each Fast Travel
    pair (edge attribute ``fast_travel=True``). Cached; do not mutate."""
    def make():
        import networkx as nx

        g = nx.DiGraph()
        g.add_nodes_from(m.hexes)
        for h, ns in _adj_list(m).items():
            for n in ns:
                if _step_ok(m, h, n):
                    g.add_edge(h, n, fast_travel=False)
        if fast_travel:
            for h in m.hexes:
                p = m.fast_travel_partner(h)
                if p is not None and not g.has_edge(h, p):
                    g.add_edge(h, p, fast_travel=True)
        return g
    return m._memo(("movement_graph", fast_travel), make)


# ---------------------------------------------------------------------------------------------------- distance


def _distance_mode(ignore_walls: bool, r: Rulings) -> str:
    if ignore_walls:
        return "ignore_walls"
    return "movement" if r.reading("distance_elevation") == "movement" else "adjacent"


def _succ(m: MissionMap, mode: str) -> Mapping[Hex, tuple[Hex, ...]]:
    """``{hex: the hexes one step of a distance route goes to}``, cached per map and mode: ``"adjacent"`` (Counting
    Distances), ``"movement"`` (also never Low to High across an Elevation Change icon), ``"ignore_walls"`` (every
    neighbouring map hex)."""
    def make():
        if mode == "adjacent":
            return _adj_list(m)
        if mode == "movement":
            if FORMER_ADJACENCY:
                return {h: tuple(n for n in ns if _step_ok(m, h, n)) for h, ns in _adj_list(m).items()}
            up = {(f.edge.other(f.high), f.high) for f in m.features if f.kind == FeatureKind.ELEVATION}
            return {h: tuple(n for n in ns if (h, n) not in up) for h, ns in _adj_list(m).items()}
        if FORMER_ADJACENCY:
            return {h: tuple(n for n in neighbors(h) if n in m.hexes) for h in m.hexes}
        hexes, new = m.hexes, tuple.__new__
        steps = tuple((v.q, v.r) for v in DIRECTIONS)
        return {h: tuple(n for n in (new(Hex, (h[0] + dq, h[1] + dr)) for dq, dr in steps) if n in hexes)
                for h in hexes}
    return m._memo(("succ", mode), make)


def _bfs(succ: Mapping[Hex, tuple[Hex, ...]], source: Hex) -> tuple[dict[Hex, int], dict[Hex, Hex]]:
    """Breadth-first search: ``(distance map, parent map)``; the parent of a hex is the first hex (in BFS order, then
    direction order) it was reached from, so routes are deterministic."""
    dist = {source: 0}
    parent: dict[Hex, Hex] = {}
    q = deque([source])
    while q:
        h = q.popleft()
        dh = dist[h] + 1
        for n in succ[h]:
            if n not in dist:
                dist[n] = dh
                parent[n] = h
                q.append(n)
    return dist, parent


def _search(m: MissionMap, mode: str, source: Hex) -> tuple[dict[Hex, int], dict[Hex, Hex]]:
    return m._memo(("bfs", mode, source), lambda: _bfs(_succ(m, mode), source))


def distance_map(m: MissionMap, source: Hex, *, ignore_walls: bool = False,
                 rulings: RulingsLike = None) -> Mapping[Hex, int]:
    """``{hex: distance from source}`` for every hex reachable from ``source`` through adjacent hexes (Counting
    Distances); with ``ignore_walls``, walls and locked doors are ignored (the route still runs through map hexes).
    Breadth-first search, cached per (source, mode). Hexes with no route are absent.

    Raises:
        ScenarioError: ``source`` is Out of Bounds.
    """
    source = _on_map(m, source, "source")
    mode = _distance_mode(ignore_walls, _rulings(rulings))
    return _search(m, mode, source)[0]


class DistanceRow(Mapping[Hex, int]):
    """``{hex: distance}`` from one source, read-only, backed by one row of :func:`distance_maps`' matrix: the same
    items as :func:`distance_map` (hexes with no route are absent), iterated in the map's sorted hex order."""

    __slots__ = ("_index", "_hexes", "_row")

    def __init__(self, index: Mapping[Hex, int], hexes: Sequence[Hex], row):
        self._index, self._hexes, self._row = index, hexes, row

    def __getitem__(self, h: Hex) -> int:
        i = self._index.get(h)
        if i is None or self._row[i] < 0:
            raise KeyError(h)
        return int(self._row[i])

    def __iter__(self) -> Iterator[Hex]:
        return (self._hexes[i] for i in (self._row >= 0).nonzero()[0])

    def __len__(self) -> int:
        return int((self._row >= 0).sum())


def distance_maps(m: MissionMap, *, ignore_walls: bool = False,
                  rulings: RulingsLike = None) -> Mapping[Hex, Mapping[Hex, int]]:
    """:func:`distance_map` from every hex at once: ``{source: {hex: distance}}`` (Counting Distances), the same
    distances, computed in one multi-source breadth-first pass and cached per map and mode.

    Every source's search advances together, one level per step: the hexes a source reaches at the next level are
    those its at most six successors reached at this level and it has not reached yet, a bitwise OR of bit sets (one
    bit per hex, packed in 64-bit words with numpy); each distance is kept in binary, one bit plane per binary digit,
    and unpacked once at the end (one byte per pair while every distance is under 128). Rows are :class:`DistanceRow` views (a hex with no route is absent). The
    per-source :func:`distance_map` (a dict in breadth-first order, with the parents routes are drawn from) is
    unchanged; this is for questions about every hex at once.
    """
    mode = _distance_mode(ignore_walls, _rulings(rulings))
    return m._memo(("distance_maps", mode), lambda: _all_distances(m, mode))


def _all_distances(m: MissionMap, mode: str) -> dict[Hex, DistanceRow]:
    import numpy as np

    hexes = sorted(m.hexes)
    n = len(hexes)
    if n == 0:
        return {}
    index = {h: i for i, h in enumerate(hexes)}
    succ = _succ(m, mode)
    nexts = [[index[x] for x in succ[h]] for h in hexes]
    width = max(1, max(len(s) for s in nexts))
    nxt_of = np.full((n, width), n, dtype=np.intp)  # n: an extra all-zero row
    for v, s in enumerate(nexts):
        nxt_of[v, :len(s)] = s
    # Row v of ``ring``: the hexes at distance exactly ``level`` from source v, one bit each. A hex is at distance
    # level + 1 from v iff it is at distance level from one of v's successors and not nearer to v.
    words = (n + 63) // 64
    ring = np.zeros((n + 1, words), dtype=np.uint64)
    ring[:n].view(np.uint8)[:, :(n + 7) // 8] = np.packbits(np.eye(n, dtype=bool), axis=1, bitorder="little")
    seen = ring[:n].copy()
    planes: list = []
    level = 0
    while True:
        level += 1
        nxt = ring[nxt_of[:, 0]]
        for k in range(1, width):
            nxt |= ring[nxt_of[:, k]]
        nxt &= ~seen
        if not nxt.any():
            break
        seen |= nxt
        while len(planes) < level.bit_length():
            planes.append(np.zeros_like(seen))
        for k in range(level.bit_length()):
            if level >> k & 1:
                planes[k] |= nxt
        ring[:n] = nxt

    def unpack(bits):
        return np.unpackbits(bits.view(np.uint8), axis=1, count=n, bitorder="little")

    small = len(planes) <= 7  # every distance fits a signed byte
    dist = np.zeros((n, n), dtype=np.int8 if small else np.int32)
    for k, plane in enumerate(planes):
        bits = unpack(plane)
        dist |= (bits << k).view(np.int8) if small else bits.astype(np.int32) << k
    dist[unpack(seen) == 0] = -1
    return {h: DistanceRow(index, hexes, dist[i]) for i, h in enumerate(hexes)}


@dataclass(frozen=True)
class Distance:
    """The distance from ``a`` to ``b`` in hexes (Counting Distances): the number of hex borders crossed by a shortest
    route through adjacent hexes.

    Attributes:
        value: hexes, or ``None`` if no route exists.
        route: one shortest route ``(a, ..., b)`` (``()`` if none).
        hex_distance: the plain grid distance (what the count would be with nothing in the way).
        ignore_walls: whether walls and locked doors were ignored.
    """

    a: Hex
    b: Hex
    value: int | None
    route: tuple[Hex, ...]
    hex_distance: int
    ignore_walls: bool
    reason: str
    rulings: dict[str, str] = field(default_factory=dict)
    rule: RuleRef = S.COUNTING_DISTANCES

    def explain(self) -> list[str]:
        v = "no route" if self.value is None else f"{self.value} hex{'es' if self.value != 1 else ''}"
        return [f"distance {self.a} -> {self.b}"
                + (" (ignoring walls and locked doors)" if self.ignore_walls else "") + f": {v}", self.reason]

    def to_dict(self) -> dict[str, Any]:
        return {"a": str(self.a), "b": str(self.b), "distance": self.value, "route": [str(h) for h in self.route],
                "hex_distance": self.hex_distance, "ignore_walls": self.ignore_walls, "reason": self.reason,
                "rulings": dict(self.rulings), "rule": _ref_dict(self.rule)}


def distance(m: MissionMap, a: Hex, b: Hex, *, ignore_walls: bool = False, rulings: RulingsLike = None) -> Distance:
    """Counting Distances: the shortest route from ``a`` to ``b`` moving only between adjacent hexes (not through walls
    or locked doors; with ``ignore_walls``, ignoring them). The ruling ``distance_elevation`` decides whether a route
    may climb an Elevation Change icon.

    Raises:
        ScenarioError: ``a`` or ``b`` is Out of Bounds.
    """
    r = _rulings(rulings)
    a, b = _on_map(m, a, "a"), _on_map(m, b, "b")
    mode = _distance_mode(ignore_walls, r)
    dm = distance_map(m, a, ignore_walls=ignore_walls, rulings=r)
    hd = hex_distance(a, b)
    used = {k: v for k, v in r.consulted.items() if k == "distance_elevation"}
    if b not in dm:
        why = ("no route through adjacent hexes joins them (walls and locked doors"
               + (", or Elevation Change icons climbed from Low Ground" if mode == "movement" else "") + " cut it)")
        return Distance(a, b, None, (), hd, ignore_walls, why, used)
    route = _route(m, mode, a, b)
    v = dm[b]
    path = " -> ".join(map(str, route))
    if v == hd:
        why = f"a shortest route crosses {plural(v, 'hex border')}: {path} (the same as the hex distance)"
    else:
        why = (f"a shortest route crosses {plural(v, 'hex border')}: {path}; the {hd}-border routes are cut by walls or "
               "locked doors" + (" or an Elevation Change icon" if mode == "movement" else "")
               + " (or leave the map)")
    return Distance(a, b, v, route, hd, ignore_walls, why, used)


def _route(m: MissionMap, mode: str, a: Hex, b: Hex) -> tuple[Hex, ...]:
    """One shortest route ``a -> b`` (deterministic: BFS parents from ``a``)."""
    parent = _search(m, mode, a)[1]
    path = [b]
    while path[-1] != a:
        path.append(parent[path[-1]])
    return tuple(reversed(path))


@dataclass(frozen=True)
class Within:
    """Whether ``b`` is within ``n`` hexes of ``a`` ("within N hexes": distance no greater than N)."""

    distance: Distance
    n: int
    within: bool
    rule: RuleRef = S.COUNTING_DISTANCES

    def __bool__(self) -> bool:
        return self.within

    def explain(self) -> list[str]:
        d = self.distance.value
        return [f"{self.distance.b} is {'' if self.within else 'not '}within {self.n} hexes of {self.distance.a}: "
                f"distance {'none (no route)' if d is None else d} {'<=' if self.within else '>'} {self.n}",
                *self.distance.explain()[1:]]

    def to_dict(self) -> dict[str, Any]:
        return {"n": self.n, "within": self.within, "distance": self.distance.to_dict(), "rule": _ref_dict(self.rule)}


def within(m: MissionMap, a: Hex, b: Hex, n: int, *, ignore_walls: bool = False, rulings: RulingsLike = None) -> Within:
    """"Within N hexes": the distance (Counting Distances) between ``a`` and ``b`` is at most ``n``."""
    d = distance(m, a, b, ignore_walls=ignore_walls, rulings=rulings)
    return Within(d, n, d.value is not None and d.value <= n)


def hexes_within(m: MissionMap, h: Hex, n: int, *, ignore_walls: bool = False,
                 rulings: RulingsLike = None) -> frozenset[Hex]:
    """Every map hex within ``n`` hexes of ``h`` (Counting Distances), ``h`` included."""
    return frozenset(x for x, d in distance_map(m, h, ignore_walls=ignore_walls, rulings=rulings).items() if d <= n)


# ------------------------------------------------------------------------------------------------ straight lines


@dataclass(frozen=True)
class StraightLine:
    """One of the six straight lines radiating from ``origin`` (Line of Fire, Diagram 3): direction ``d`` (0..5) and the
    map hexes on it in order; ``gap`` is the first Out of Bounds hex where the line leaves the map (or ``None`` if it
    runs to the edge of the grid's bounds); ``beyond`` are map hexes further on past a gap."""

    origin: Hex
    d: int
    hexes: tuple[Hex, ...]
    gap: Hex | None
    beyond: tuple[Hex, ...] = ()


def straight_lines(m: MissionMap, h: Hex) -> tuple[StraightLine, ...]:
    """The six straight lines from ``h`` (direction order 0..5)."""
    h = _on_map(m, h, "hex")

    def make():
        out = []
        for d, v in enumerate(DIRECTIONS):
            hs, gap, beyond = [], None, []
            for k in range(1, m.extent + 1):
                x = Hex(h.q + v.q * k, h.r + v.r * k)
                if x not in m.hexes:
                    if gap is None:
                        gap = x
                    continue
                (beyond if gap is not None else hs).append(x)
            out.append(StraightLine(h, d, tuple(hs), gap, tuple(beyond)))
        return tuple(out)
    return m._memo(("lines", h), make)


# ------------------------------------------------------------------------------------------------ Line of Fire


@dataclass(frozen=True)
class Crossing:
    """A hex side crossed by a straight line, ``step`` sides from the origin (1 = a side of the origin's hex).

    Attributes:
        feature: ``"wall"``, ``"locked door"``, ``"unlocked door"``, ``"obstacle"``, ``"elevation change"``,
            ``"out of bounds"`` (the hex entered is not on the map) or ``None``.
        effect: ``"blocks"``, ``"ignored"`` (a blocker the rules exempt) or ``"clear"``.
        why: one sentence.
    """

    step: int
    edge: Edge
    entered: Hex
    feature: str | None
    effect: str
    why: str

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["edge"], d["entered"] = str(self.edge), str(self.entered)
        return d


@dataclass(frozen=True)
class LineOfFire:
    """Whether ``target`` is in the Line of Fire of ``attacker`` (a character's hex, or a Turret's).

    Attributes:
        in_lof: the verdict (``bool(result)`` too).
        direction: the straight line (0..5) the target is on, or ``None``.
        hexes: the hexes walked from the attacker to the target, both included (``()`` if not on a line).
        crossings: every hex side crossed, with the feature found and its effect.
        elevation: a sentence about the two ends' elevations ("" if not checked).
        reason: the deciding sentence.
        turret: whether the attacker is a Turret.
        rulings: the readings consulted.
    """

    attacker: Hex
    target: Hex
    in_lof: bool
    direction: int | None
    hexes: tuple[Hex, ...]
    crossings: tuple[Crossing, ...]
    elevation: str
    reason: str
    turret: bool = False
    rulings: dict[str, str] = field(default_factory=dict)
    rule: RuleRef = S.LINE_OF_FIRE

    def __bool__(self) -> bool:
        return self.in_lof

    @property
    def blockers(self) -> tuple[Crossing, ...]:
        return tuple(c for c in self.crossings if c.effect == "blocks")

    def explain(self) -> list[str]:
        who = "Turret on " if self.turret else ""
        lines = [f"{self.target} is {'' if self.in_lof else 'not '}in the Line of Fire of {who}{self.attacker}: "
                 f"{self.reason}"]
        if self.direction is not None:
            lines.append(f"straight line {self.direction}: " + " -> ".join(map(str, self.hexes)))
        for c in self.crossings:
            lines.append(f"  side {c.step} ({c.edge}): {c.feature or 'nothing'} — {c.effect}: {c.why}")
        if self.elevation:
            lines.append(self.elevation)
        return lines

    def to_dict(self) -> dict[str, Any]:
        return {"attacker": str(self.attacker), "target": str(self.target), "in_lof": self.in_lof,
                "direction": self.direction, "hexes": [str(h) for h in self.hexes],
                "crossings": [c.to_dict() for c in self.crossings], "elevation": self.elevation,
                "reason": self.reason, "turret": self.turret, "rulings": dict(self.rulings),
                "rule": _ref_dict(self.rule)}


@dataclass(frozen=True)
class _LofRules:
    own_hex_locked_door_blocks: bool
    out_of_bounds_blocks: bool
    intervening_elevation_blocks: bool
    turret_exemption: bool


def _lof_rules(r: Rulings, turret: bool) -> _LofRules:
    return _LofRules(
        r.reading("lof_own_hex_locked_door") == "blocks",
        r.reading("lof_out_of_bounds") == "blocks",
        r.reading("lof_intervening_elevation") == "blocks",
        (r.reading("turret_own_hex_exemption") == "applies") if turret else True,
    )


def _consulted(r: Rulings, turret: bool) -> dict[str, str]:
    keys = ["lof_own_hex_locked_door", "lof_out_of_bounds", "lof_intervening_elevation"]
    if turret:
        keys.append("turret_own_hex_exemption")
    return {k: r.consulted[k] for k in keys if k in r.consulted}


def _crossing(m: MissionMap, step: int, prev: Hex, cur: Hex, lr: _LofRules, turret: bool) -> Crossing:
    e = Edge(prev, cur)
    who = "the Turret's" if turret else "the attacker's"
    if cur not in m.hexes:
        if lr.out_of_bounds_blocks:
            return Crossing(step, e, cur, "out of bounds", "blocks",
                            f"the line leaves the map: {cur} is Out of Bounds (ruling lof_out_of_bounds=blocks)")
        return Crossing(step, e, cur, "out of bounds", "clear",
                        f"{cur} is Out of Bounds; the line goes on (ruling lof_out_of_bounds=ignored)")
    if prev not in m.hexes:
        return Crossing(step, e, cur, None, "clear", "the line comes back onto the map")
    f = m.feature(e)
    if f is None:
        return Crossing(step, e, cur, None, "clear", "nothing on this side")
    if f.kind == FeatureKind.WALL:
        return Crossing(step, e, cur, f.label, "blocks",
                        "walls always block" + (f" (the exemption for {who} own hex covers only Obstacles and doors)"
                                                if step == 1 else ""))
    if f.kind == FeatureKind.ELEVATION:
        return Crossing(step, e, cur, f.label, "clear", "an Elevation Change icon is not a wall, door or Obstacle")
    if step == 1:
        if not lr.turret_exemption:
            return Crossing(step, e, cur, f.label, "blocks", f"borders the Turret's own hex, but the exemption is for "
                            "a character's hex (ruling turret_own_hex_exemption=none)")
        if f.kind == FeatureKind.DOOR and f.locked and lr.own_hex_locked_door_blocks:
            return Crossing(step, e, cur, f.label, "blocks", f"a locked door blocks even on a side of {who} own hex "
                            "(ruling lof_own_hex_locked_door=blocks)")
        return Crossing(step, e, cur, f.label, "ignored", f"it borders {who} own hex, so it is ignored")
    return Crossing(step, e, cur, f.label, "blocks", f"{'an' if f.label[0] in 'aeiou' else 'a'} {f.label} directly "
                    f"between that does not border {who} own hex")


def _lof(m: MissionMap, a: Hex, b: Hex, r: Rulings, turret: Hex | None = None, turret_dir: int | None = None,
         turret_active: bool = True, sabotaged: bool = False) -> LineOfFire:
    is_t = turret is not None
    lr = _lof_rules(r, is_t)
    used = _consulted(r, is_t)
    if is_t and not turret_active and not sabotaged:
        return LineOfFire(a, b, False, None, (), (), "", "the Turret is Disabled: it has no Line of Fire", True, used,
                          S.TURRETS)
    if a == b:
        if is_t:
            return LineOfFire(a, b, True, turret_dir, (a,), (), "", "a Turret's Line of Fire includes its own hex",
                              True, used, S.TURRETS)
        return LineOfFire(a, b, False, None, (), (), "", "the same hex (a hex holds a single character)", False, used)
    dk = _line_direction(a, b)
    if dk is None or (is_t and dk[0] != turret_dir):
        why = ("not on one of the six straight lines from the attacker's hex" if not is_t else
               f"not on the Turret's one line (direction {turret_dir})")
        return LineOfFire(a, b, False, None, (), (), "", why, is_t, used, S.TURRETS if is_t else S.LINE_OF_FIRE)
    d, k = dk
    v = DIRECTIONS[d]
    hexes = [a] + [Hex(a.q + v.q * i, a.r + v.r * i) for i in range(1, k + 1)]
    crossings = tuple(_crossing(m, i, hexes[i - 1], hexes[i], lr, is_t) for i in range(1, k + 1))
    rule = S.TURRETS if is_t else S.LINE_OF_FIRE
    blocks = [c for c in crossings if c.effect == "blocks"]
    ea, eb = m.elevation(a), m.elevation(b)
    elev = ""
    elev_blocks = False
    if ea != eb:
        if adjacent(m, a, b):
            elev = f"{a} is {ea} and {b} is {eb}, but they are adjacent, so elevation does not matter"
        else:
            elev = f"{a} is {ea} and {b} is {eb}: different elevations and not adjacent"
            elev_blocks = True
    elif lr.intervening_elevation_blocks:
        other = [h for h in hexes[1:-1] if h in m.hexes and m.elevation(h) != ea]
        if other:
            elev = (f"both ends are {ea}, but {other[0]} between them is {m.elevation(other[0])} (ruling "
                    "lof_intervening_elevation=blocks)")
            elev_blocks = True
    if blocks:
        c = blocks[0]
        reason = f"blocked at side {c.step} ({c.edge}): {c.why}"
    elif elev_blocks:
        reason = ("a character never counts as in the Line of Fire of a character or Turret at a different elevation "
                  "unless adjacent" if ea != eb else "ground of another elevation lies between them")
        rule = S.ELEVATION_CHANGE
    else:
        ign = [c for c in crossings if c.effect == "ignored"]
        reason = "nothing blocks the straight line" + (
            f" ({ign[0].feature} on side 1 ignored: it borders the {'Turret' if is_t else 'attacker'}'s own hex)"
            if ign else "")
        if elev:
            reason += "; " + elev
    return LineOfFire(a, b, not blocks and not elev_blocks, d, tuple(hexes), crossings, elev, reason, is_t, used, rule)


def line_of_fire(m: MissionMap, attacker: Hex, target: Hex, *, rulings: RulingsLike = None) -> LineOfFire:
    """Line of Fire from a character's hex (Interacting with the Mission Map › Line of Fire; Elevation Change Icons).

    ``target`` is in Line of Fire when it lies on one of the six straight lines from ``attacker`` and no wall, door
    (locked or unlocked) or Obstacle is directly between them, except Obstacles and doors on a side of the attacker's
    own hex (ignored; see ruling ``lof_own_hex_locked_door``); characters never block; ends at different elevations
    see each other only when adjacent. Rulings: ``lof_out_of_bounds``, ``lof_intervening_elevation``.

    Raises:
        ScenarioError: ``attacker`` or ``target`` is Out of Bounds.
    """
    r = _rulings(rulings)
    return _lof(m, _on_map(m, attacker, "attacker"), _on_map(m, target, "target"), r)


def turret_line_of_fire(m: MissionMap, turret_hex: Hex, target: Hex, *, sabotaged: bool = False,
                        rulings: RulingsLike = None) -> LineOfFire:
    """A Turret's Line of Fire (Additional Rules › Turrets): its own hex and the one straight line in its facing;
    a Disabled Turret has none (``sabotaged=True``: Tali's Sabotage Turret gives it one temporarily). Otherwise as a
    character's (ruling ``turret_own_hex_exemption`` for features on its own hex's sides).

    Raises:
        ScenarioError: no Turret on ``turret_hex``, or a hex Out of Bounds.
    """
    r = _rulings(rulings)
    th = _on_map(m, turret_hex, "turret")
    t = m.turret_at(th)
    if t is None:
        raise ScenarioError("turret", f"there is no Turret on hex {th}",
                            ", ".join(str(x.hex) for x in m.turrets) or "no Turrets on this map")
    return _lof(m, th, _on_map(m, target, "target"), r, turret=th, turret_dir=t.facing, turret_active=t.active,
                sabotaged=sabotaged)


@dataclass(frozen=True)
class LofFan:
    """The six straight lines from ``attacker`` with every map hex on them judged (the widget draws this).

    ``lines[d]`` is a tuple of :class:`LineOfFire` for the map hexes on line ``d``, nearest first."""

    attacker: Hex
    lines: tuple[tuple[LineOfFire, ...], ...]

    @property
    def targets(self) -> frozenset[Hex]:
        return frozenset(x.target for line in self.lines for x in line if x.in_lof)

    def explain(self) -> list[str]:
        out = []
        for d, line in enumerate(self.lines):
            ok = [str(x.target) for x in line if x.in_lof]
            no = [f"{x.target} ({x.reason})" for x in line if not x.in_lof]
            out.append(f"line {d}: in LoF {', '.join(ok) or 'none'}" + (f"; not: {'; '.join(no)}" if no else ""))
        return out

    def to_dict(self) -> dict[str, Any]:
        return {"attacker": str(self.attacker), "targets": sorted(str(h) for h in self.targets),
                "lines": [[x.to_dict() for x in line] for line in self.lines]}


def lof_all(m: MissionMap, attacker: Hex, *, rulings: RulingsLike = None) -> LofFan:
    """Every map hex on the six straight lines from ``attacker``, each with its :class:`LineOfFire` verdict."""
    r = _rulings(rulings)
    a = _on_map(m, attacker, "attacker")
    lines = straight_lines(m, a)
    return LofFan(a, tuple(tuple(_lof(m, a, x, r) for x in (*ln.hexes, *ln.beyond)) for ln in lines))


def _lof_key(r: Rulings) -> tuple[bool, bool, bool]:
    lr = _lof_rules(r, False)
    return lr.own_hex_locked_door_blocks, lr.out_of_bounds_blocks, lr.intervening_elevation_blocks


def lof_map(m: MissionMap, *, rulings: RulingsLike = None) -> Mapping[Hex, frozenset[Hex]]:
    """All-pairs Line of Fire for characters: ``{attacker hex: hexes in its Line of Fire}``, computed once per map and
    rulings by walking each of the six lines from each hex and stopping at the first blocker (blocking is monotone
    along a line; elevation is judged per target). Agrees with :func:`line_of_fire` pair by pair (tested)."""
    r = _rulings(rulings)
    key = ("lof_map", _lof_key(r))
    return m._memo(key, lambda: _compute_lof_map(m, _lof_rules(r, False)))


def _compute_lof_map(m: MissionMap, lr: _LofRules) -> dict[Hex, frozenset[Hex]]:
    fm = m.feature_map
    hexes = m.hexes
    high = m.high_ground
    adj = _adj_list(m)
    ext = m.extent
    out: dict[Hex, frozenset[Hex]] = {}
    wall, door, obst = FeatureKind.WALL, FeatureKind.DOOR, FeatureKind.OBSTACLE
    for a in hexes:
        ea = a in high
        seen = []
        for v in DIRECTIONS:
            prev = a
            for k in range(1, ext + 1):
                cur = Hex(a.q + v.q * k, a.r + v.r * k)
                if cur not in hexes:
                    if lr.out_of_bounds_blocks:
                        break
                    prev = cur
                    continue
                if prev in hexes:
                    f = fm.get(Edge(prev, cur))
                    if f is not None:
                        if f.kind == wall:
                            break
                        if f.kind == door or f.kind == obst:
                            if k > 1 or (f.kind == door and f.locked and lr.own_hex_locked_door_blocks):
                                break
                ec = cur in high
                if ec == ea:
                    seen.append(cur)
                elif k == 1 and cur in adj[a]:
                    seen.append(cur)  # different elevations, but adjacent
                    if lr.intervening_elevation_blocks:
                        break
                elif lr.intervening_elevation_blocks:
                    # every later same-elevation target has this hex between: blocked from here on
                    break
                prev = cur
        out[a] = frozenset(seen)
    return out


def lof_targets(m: MissionMap, attacker: Hex, *, rulings: RulingsLike = None) -> frozenset[Hex]:
    """The map hexes in the Line of Fire of a character on ``attacker`` (from :func:`lof_map`)."""
    return lof_map(m, rulings=rulings)[_on_map(m, attacker, "attacker")]


def turret_targets(m: MissionMap, turret_hex: Hex, *, sabotaged: bool = False,
                   rulings: RulingsLike = None) -> frozenset[Hex]:
    """The map hexes in a Turret's Line of Fire (its own hex first included; empty when Disabled and not
    ``sabotaged``)."""
    r = _rulings(rulings)
    th = _on_map(m, turret_hex, "turret")
    t = m.turret_at(th)
    if t is None:
        raise ScenarioError("turret", f"there is no Turret on hex {th}",
                            ", ".join(str(x.hex) for x in m.turrets) or "no Turrets on this map")
    line = straight_lines(m, th)[t.facing]
    cands = (th, *line.hexes, *line.beyond)
    return frozenset(x for x in cands if turret_line_of_fire(m, th, x, sabotaged=sabotaged, rulings=r))


# ------------------------------------------------------------------------------------------------ Shrouded areas


def initial_shrouded(m: MissionMap, squadmate_hexes: Iterable[Hex]) -> frozenset[str]:
    """Shrouded Areas: at the start of a Mission, every area without at least one Squadmate is Shrouded."""
    occupied = {a.name for h in squadmate_hexes if (a := m.area_of(Hex(*h))) is not None}
    return frozenset(a.name for a in m.areas if a.name not in occupied)


def areas_revealed(m: MissionMap, h: Hex) -> frozenset[str]:
    """Shrouded Areas: the Shrouded areas revealed by a Squadmate standing on ``h``: those an unlocked door on a side of
    ``h`` leads into."""
    h = _on_map(m, h, "hex")
    out = set()
    for n in neighbors(h):
        f = m.feature_map.get(Edge(h, n)) if n in m.hexes else None
        if f is not None and f.kind == FeatureKind.DOOR and not f.locked:
            a = m.area_of(n)
            if a is not None and a.shrouded and a != m.area_of(h):
                out.add(a.name)
    return frozenset(out)
