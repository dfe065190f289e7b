"""Alien and NPC A.I. activation on a map of Areas: which behavior rule applies first, and where the figure ends.

Sections: 10.1 Biological Ally Structure (the A.I. section: the first relevant behavior rule, starting with the
adjacent one; line of sight and a legal movement path; the "+" rule ignores line of sight), 10.2.1 NPC Movement and
11.11 Movement (Area to Area through centre hexes, redeploy in the destination Area adjacent to the target and as
many opponents as possible, "Move Adjacent to..." into the target's Area else an adjacent Area, move back / move
away, figures are no obstacle but no two end in one Hex, unlocked doors are open, a rule that cannot be applied
passes to the next, no rule: it stays), 9.2 Combat (an "attack" rule whose
target is beyond the weapon's Range cannot be applied, so the next rule is), 11.3.1 Menacing Agent System (an
Archenemy targets the Menacing Agent; targeting happens at the start of the activation), 11 The Aliens (an alien's target, the closest agent, drones and NPCs counting as agents), 5.1 Barrier Hex Side
(only Flying and Burrowing figures cross it; it blocks no line of sight; the hexes stay adjacent), 7.1 Flying,
7.2 Burrowing, 7.3 Seize (the seized agent moves along and ends adjacent to the dragging figure), 11.6 Prime Swarm Units
(the unit's figure closest to the target drives the A.I.; line of sight if either figure has it; the nearest figure
moves first and the other then moves adjacent to it, or as close as possible), 11.8 Multi-hex Aliens (distance from the
base's closest hex; line of sight and adjacency from any base hex; the face hex walks Area to Area and the rest of the
base is placed in an adjacent free hex, same Area first; an end hex without a free neighbour for the rest of the base
is not used).

Line of sight is a Core Set rule that this rulebook does not print: the default is the usual centre-to-centre line,
blocked by a blocking Hex it passes through or a blocking Hex Side it crosses; ruling ``line_of_sight`` offers the
strict reading where grazing a blocking corner or side also blocks (see :mod:`.options`).

The activation is a kernel sequence (:data:`ACTIVATION_SEQUENCE`: Barrier Hex Sides, targeting, the lead figure, the
behavior rules one by one until one is applied, the second figure, Seize) of plain step functions over the frozen
:class:`Activation` with an :class:`ActivationContext`; the state records what each step shows on the map (typed
notes), so the A.I. page draws every step from its frame's state. :func:`play_activation` gives the frames and the
trace, whose result is a typed :class:`ActivationOutcome`.

Scenario kind ``activation`` (TOML)::

    game = "galaxydefenders"
    kind = "activation"
    title = "..."
    [areas]                              # every map hex belongs to exactly one Area (contiguous), max 40 Areas
    A = ["0,0", "1,0", "0,1"]
    B = ["2,0", "3,0", "2,1"]
    [centres]                            # optional: the centre Hex of an Area (default: its hex nearest the mean)
    A = "0,0"
    blocking = ["5,0"]                   # optional: Blocking Hexes
    [[edges]]                            # Hex Sides: barrier | wall (Blocking Hex Side) | door (open = unlocked)
    edge = "1,0|2,0"
    kind = "barrier"
    [activating]
    name = "Flying Critter"
    kind = "alien"                       # alien | npc
    at = "2,0"
    flying = false
    burrowing = false
    archenemy = false                    # Master Alien stage with the Archenemy power (implies master)
    master = false                       # a Master Alien (11.3): ignores Paralyze and Stealth-like powers
    stage = 1                            # optional, a Master Alien's card side: 1 (Stage I) or 2 (Stage II)
    came_from = "3,0"                    # optional: where it came from (move back)
    seize = "Biotech"                    # optional: the agent it drags along (7.3)
    base = "3,0"                         # optional: a multi-hex alien's second base hex (adjacent; ``at`` is the face)
    paralyzed = false                    # skips the activation (10.4.1, 11.9.1; a Master Alien ignores it, 11.3)
    immobilized = false                  # an NPC: only behavior without movement (10.4.1)
    swarm = "3,1"                        # optional: the second figure of a Prime Swarm unit (11.6)
    weapon = "Spit"                      # optional: the weapon its "attack" rules use, and
    range = 1                            #   its Range (0-30; 9.2, counted per ruling range_unit): an attack rule
                                         #   whose target is beyond it cannot be applied, the next rule is
                                         #   (10.2.1, 11.11)
    [[figures]]
    name = "Biotech"
    side = "agent"                       # agent | drone | npc | alien
    at = "1,0"
    menace = 0                           # Menace token level (1 or 2) on the Menacing Agent
    stealth = false                      # a power or item keeps aliens from targeting it (Stealth, Camouflage,
                                         #   Invisibility); a Master Alien ignores it (11.3)
    teleport_points = ["0,0"]            # optional: Teleport Points (a target of an NPC's "+" rule)
    [[rules]]                            # the A.I. section, in card order
    condition = "adjacent"               # adjacent | within | plus
    areas = 1                            # for "within": the target at most this many Areas away
    action = "attack"                    # attack | move_adjacent | move_toward | move_away | stay
    move = 1                             # Areas moved (move actions)
    label = "Adjacent: attack with claws"
    targets = ["alien", "teleport_point", "agent"]   # an NPC's "+" rule: "move toward the closest:" in order

Distance in Areas for a rule's condition counts Areas whose hexes touch (a Barrier Hex Side keeps hexes adjacent,
5.1); every rule also needs a legal movement path (10.1, 11.11), checked on its own.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Annotated, Literal

from pydantic import Field, ValidationInfo, field_validator

from explorer.board import EdgeFeature, EdgeKind, parse_edge_key, parse_hex_key
from explorer.errors import ScenarioError
from explorer.hexgrid import Edge, Hex, classify_centres, distance, neighbors
from explorer.scenario import validate
from explorer.schema import MAX_TITLE, Strict
from explorer.text import join_words, plural

if TYPE_CHECKING:  # imported inside the functions that walk the Areas (outcome text and combat need none)
    import networkx as nx
from explorer.kernel import Context, Each, Outcome, play, trace_of
from explorer.trace import Step, Trace

from . import sections as S
from .edge_file import EdgeModel
from .header import GdScenarioHeader
from .options import rulings as make_rulings

MAX_AREAS = 40
"""Areas on one map."""
MAX_HEXES = 600
"""Hexes on one map (all Areas together), and hexes listed in one Area."""
MAX_WITHIN_AREAS = 10
"""The largest distance of a ``within`` behavior rule, in Areas (``rules[i].areas``)."""
MAX_AREA_NAME = 40
"""Characters in an Area name."""
MAX_RANGE = 30
"""A weapon's Range (Areas or Hexes, ruling ``range_unit``)."""

HexKey = Annotated[str, Field(min_length=1, max_length=20)]
AreaName = Annotated[str, Field(min_length=1, max_length=MAX_AREA_NAME)]


class ActivatingModel(Strict):
    name: str = Field(min_length=1, max_length=40)
    kind: Literal["alien", "npc"] = "alien"
    at: str = Field(max_length=20)
    flying: bool = False
    burrowing: bool = False
    archenemy: bool = False
    master: bool = False
    stage: int | None = Field(None, ge=1, le=2)
    came_from: str | None = Field(None, max_length=20)
    seize: str | None = Field(None, max_length=40)
    base: str | None = Field(None, max_length=20)
    swarm: str | None = Field(None, max_length=20)
    paralyzed: bool = False
    immobilized: bool = False
    weapon: str | None = Field(None, min_length=1, max_length=40)
    range: int | None = Field(None, ge=0, le=MAX_RANGE)


class FigureModel(Strict):
    name: str = Field(min_length=1, max_length=40)
    side: Literal["agent", "drone", "npc", "alien"]
    at: str = Field(max_length=20)
    menace: int = Field(0, ge=0, le=2)
    stealth: bool = False


class RuleModel(Strict):
    condition: Literal["adjacent", "within", "plus"]
    areas: int = Field(0, ge=0, le=MAX_WITHIN_AREAS)
    """The distance of a ``within`` rule, in Areas: 1..:data:`MAX_WITHIN_AREAS` for ``within``, ignored (0 by default) for the other
    conditions. Checked here, so an ``activation`` file and a ``round`` file's ``rules`` refuse ``within`` with
    ``areas = 0`` alike."""
    action: Literal["attack", "move_adjacent", "move_toward", "move_away", "stay"]
    move: int = Field(1, ge=0, le=6)
    label: str = Field("", max_length=120)
    targets: list[Literal["alien", "teleport_point", "agent"]] = Field(default_factory=list, max_length=3)
    attack_after: bool = False
    """A "move ... and attack" rule: in a ``round`` on a map the figure attacks its target after the move (the
    ``activation`` kind shows the move only)."""

    @field_validator("areas")
    @classmethod
    def _within_needs_a_distance(cls, v: int, info: ValidationInfo) -> int:
        if info.data.get("condition") == "within" and v < 1:
            raise ValueError(f"a 'within' rule needs a distance in Areas (allowed: 1 to {MAX_WITHIN_AREAS})")
        return v


class ActivationScenario(GdScenarioHeader):
    """A validated ``activation`` scenario (see the module docstring)."""

    kind: Literal["activation"] = "activation"
    title: str = Field("A.I. activation", max_length=MAX_TITLE)
    areas: dict[AreaName, Annotated[list[HexKey], Field(min_length=1, max_length=MAX_HEXES)]] = Field(
        min_length=1, max_length=MAX_AREAS)
    centres: dict[AreaName, HexKey] = Field(default_factory=dict, max_length=MAX_AREAS)
    blocking: list[HexKey] = Field(default_factory=list, max_length=MAX_HEXES)
    edges: list[EdgeModel] = Field(default_factory=list, max_length=400)
    activating: ActivatingModel
    figures: list[FigureModel] = Field(default_factory=list, max_length=30)
    teleport_points: list[HexKey] = Field(default_factory=list, max_length=10)
    rules: list[RuleModel] = Field(min_length=1, max_length=12)


# ------------------------------------------------------------------------------------------------ the map

@dataclass(frozen=True)
class AreaMap:
    """Hexes grouped into Areas. ``area_of`` maps each hex to its Area, ``centre`` each Area to its centre hex,
    ``blocking`` the Blocking Hexes, ``features`` the Hex Sides (``explorer.board.EdgeFeature``)."""

    area_of: Mapping[Hex, str]
    centre: Mapping[str, Hex]
    blocking: frozenset[Hex]
    features: Mapping[Edge, EdgeFeature]

    def hexes(self, area: str) -> list[Hex]:
        return sorted(h for h, a in self.area_of.items() if a == area)

    def can_step(self, a: Hex, b: Hex, crosses_barriers: bool) -> bool:
        """A legal step between adjacent hexes: both on the map and not Blocking, no Blocking Hex Side or locked
        door between them; a Barrier Hex Side only for Flying/Burrowing figures (5.1, 11.11)."""
        if b not in self.area_of or b in self.blocking or distance(a, b) != 1:
            return False
        f = self.features.get(Edge(a, b))
        if f is None:
            return True
        if f.kind == EdgeKind.BARRIER:
            return crosses_barriers
        if f.kind == EdgeKind.DOOR:
            return f.open
        return not f.blocks_movement

    def graph(self, crosses_barriers: bool) -> nx.Graph:
        """Hex movement graph for a figure that can (not) cross Barrier Hex Sides."""
        import networkx as nx
        g = nx.Graph()
        g.add_nodes_from(h for h in self.area_of if h not in self.blocking)
        for h in list(g.nodes):
            for n in neighbors(h):
                if h < n and n in g and self.can_step(h, n, crosses_barriers):
                    g.add_edge(h, n)
        return g

    def area_graph(self, crosses_barriers: bool) -> nx.Graph:
        """Areas joined when a legal step leads from one to the other."""
        import networkx as nx
        g = nx.Graph()
        g.add_nodes_from(set(self.area_of.values()))
        for a, b in self.graph(crosses_barriers).edges:
            if self.area_of[a] != self.area_of[b]:
                g.add_edge(self.area_of[a], self.area_of[b])
        return g

    def line_of_sight(self, a: Hex, b: Hex, strict: bool) -> tuple[bool, str]:
        """Centre-to-centre line of sight: blocked by a Blocking Hex whose interior it crosses or a Blocking Hex Side
        (wall, closed door) it crosses; Barrier Hex Sides never block (5.1). ``strict``: grazing a Blocking Hex's
        corner or running along a blocking side also blocks. Returns ``(clear, why)``."""
        if a == b:
            return True, "same hex"
        c = classify_centres(a, b)
        for h in c.hexes_crossed:
            if h in self.blocking and h not in (a, b):
                return False, f"the line crosses Blocking Hex {h}"
        for e in c.edges_crossed + (c.edges_along if strict else ()):
            f = self.features.get(e)
            if f is not None and f.blocks_lof:
                return False, f"the line {'crosses' if e in c.edges_crossed else 'runs along'} a {f.kind.value} " \
                              f"Hex Side ({e})"
        if strict:
            for corner in c.corners_touched:
                if any(h in self.blocking for h in corner.hexes if h not in (a, b)):
                    return False, f"the line grazes a Blocking Hex at corner {corner}"
        return True, "clear centre-to-centre line"


def parse_map(sc: ActivationScenario, source: str) -> AreaMap:
    """The scenario's Areas, centres, Blocking Hexes and Hex Sides.

    Raises:
        ScenarioError: a hex in two Areas, an Area that is not contiguous, a centre outside its Area, an edge between
            non-adjacent hexes or off the map, more than :data:`MAX_HEXES` hexes.
    """
    import networkx as nx
    area_of: dict[Hex, str] = {}
    for name, keys in sc.areas.items():
        if not keys:
            raise ScenarioError(f"areas.{name}", "an Area needs at least one hex", "a list of \"q,r\" hexes", source)
        for i, k in enumerate(keys):
            h = parse_hex_key(k, f"areas.{name}[{i}]", source)
            if h in area_of:
                raise ScenarioError(f"areas.{name}[{i}]", f"hex {h} is already in Area {area_of[h]!r}",
                                    "each hex in one Area", source)
            area_of[h] = name
    if len(area_of) > MAX_HEXES:
        raise ScenarioError("areas", f"{len(area_of)} hexes", f"at most {MAX_HEXES}", source)
    for name in sc.areas:
        hs = {h for h, a in area_of.items() if a == name}
        g = nx.Graph()
        g.add_nodes_from(hs)
        g.add_edges_from((h, n) for h in hs for n in neighbors(h) if n in hs)
        if not nx.is_connected(g):
            raise ScenarioError(f"areas.{name}", f"Area {name!r} is not contiguous ({nx.number_connected_components(g)}"
                                " separate groups of hexes)", "hexes joined by adjacency", source)
    centre: dict[str, Hex] = {}
    for name in sc.areas:
        hs = sorted(h for h, a in area_of.items() if a == name)
        if name in sc.centres:
            c = parse_hex_key(sc.centres[name], f"centres.{name}", source)
            if area_of.get(c) != name:
                raise ScenarioError(f"centres.{name}", f"hex {c} is not in Area {name!r}", [str(h) for h in hs],
                                    source)
        else:
            hs = [h for h in hs if h.__str__() not in sc.blocking and f"{h.q},{h.r}" not in sc.blocking] or hs
            mq = sum(h.q for h in hs) / len(hs)
            mr = sum(h.r for h in hs) / len(hs)
            c = min(hs, key=lambda h: ((h.q - mq) ** 2 + (h.r - mr) ** 2 + (h.q - mq) * (h.r - mr), h))
        centre[name] = c
    for name in sc.centres:
        if name not in sc.areas:
            raise ScenarioError(f"centres.{name}", f"no Area named {name!r}", sorted(sc.areas), source)
    blocking = set()
    for i, k in enumerate(sc.blocking):
        h = parse_hex_key(k, f"blocking[{i}]", source)
        if h not in area_of:
            raise ScenarioError(f"blocking[{i}]", f"hex {h} is not on the map", "a hex listed in an Area", source)
        blocking.add(h)
    feats: dict[Edge, EdgeFeature] = {}
    for i, e in enumerate(sc.edges):
        edge = parse_edge_key(e.edge, f"edges[{i}].edge", source)
        if edge.a not in area_of and edge.b not in area_of:
            raise ScenarioError(f"edges[{i}].edge", f"edge {edge} is off the map", "an edge of a map hex", source)
        if edge in feats:
            raise ScenarioError(f"edges[{i}].edge", f"a second Hex Side feature on {edge}", "one per edge", source)
        if e.open and e.kind != "door":
            raise ScenarioError(f"edges[{i}].open", f"a {e.kind} cannot be open", "open only for a door", source)
        feats[edge] = EdgeFeature(edge, EdgeKind(e.kind), open=e.open)
    return AreaMap(area_of, centre, frozenset(blocking), feats)


def parse_activation(data: dict, source: str) -> ActivationScenario:
    """Validate an ``activation`` scenario (``game`` and ``kind`` included).

    Raises:
        ScenarioError: see :func:`parse_map`; a figure off the map, on a Blocking Hex or sharing a hex; duplicate
            names; ``seize`` naming no agent; ``within`` without ``areas``; unknown ruling keys or readings.
    """
    from .combat import with_source

    sc = validate(ActivationScenario, data, source)
    amap = parse_map(sc, source)
    with with_source(source):
        make_rulings(sc.rulings)
    seen: dict[Hex, str] = {}
    names = [sc.activating.name] + [f.name for f in sc.figures]
    for i, (name, at, field) in enumerate([(sc.activating.name, sc.activating.at, "activating.at")]
                                          + [(f.name, f.at, f"figures[{j}].at") for j, f in enumerate(sc.figures)]):
        h = parse_hex_key(at, field, source)
        if h not in amap.area_of or h in amap.blocking:
            raise ScenarioError(field, f"{name} stands on {h}, which is not an open map hex",
                                "a hex of an Area, not Blocking", source)
        if h in seen:
            raise ScenarioError(field, f"{name} and {seen[h]} share hex {h}", "one figure per hex", source)
        seen[h] = name
        if names.count(name) > 1:
            raise ScenarioError(field.replace(".at", ".name"), f"{name!r} is used twice", "unique names", source)
    if sc.activating.came_from is not None:
        h = parse_hex_key(sc.activating.came_from, "activating.came_from", source)
        if h not in amap.area_of:
            raise ScenarioError("activating.came_from", f"hex {h} is not on the map", "a map hex", source)
    a = sc.activating
    if a.base is not None and a.swarm is not None:
        raise ScenarioError("activating.swarm", "a figure is either multi-hex or a Prime Swarm unit",
                            "base or swarm, not both", source)
    for key in ("base", "swarm"):
        v = getattr(a, key)
        if v is None:
            continue
        h = parse_hex_key(v, f"activating.{key}", source)
        if key == "base" and (d := distance(h, parse_hex_key(a.at, "activating.at", source))) != 1:
            raise ScenarioError("activating.base", f"hex {h} is the face hex ('at') itself" if d == 0
                                else f"hex {h} is not adjacent to {a.at}", "a hex adjacent to 'at', not 'at' "
                                "itself (a two-hex base, 11.8)", source)
        if h not in amap.area_of or h in amap.blocking:
            raise ScenarioError(f"activating.{key}", f"hex {h} is not an open map hex", "a hex of an Area, not "
                                "Blocking", source)
        if h in seen:
            raise ScenarioError(f"activating.{key}", f"{seen[h]} already stands on {h}", "a free hex", source)
        if a.kind != "alien":
            raise ScenarioError(f"activating.{key}", "only aliens are multi-hex or Prime Swarm units",
                                "omit it for an NPC", source)
    if (a.master or a.archenemy or a.stage is not None) and a.kind != "alien":
        raise ScenarioError("activating.master" if a.master else "activating.archenemy" if a.archenemy
                            else "activating.stage", "only an alien can be a Master Alien (11.3)",
                            "omit it for an NPC", source)
    if a.stage is not None and not (a.master or a.archenemy):
        raise ScenarioError("activating.stage", "a stage is a side of a Master Alien card (11.3)",
                            "master = true with it, or omit it", source)
    for j, f in enumerate(sc.figures):
        if f.stealth and f.side == "alien":
            raise ScenarioError(f"figures[{j}].stealth", "Stealth-like powers keep aliens from targeting an agent, "
                                "a drone or an NPC (11.3)", "omit it for an alien", source)
    if a.immobilized and a.kind != "npc":
        raise ScenarioError("activating.immobilized", "Immobilized is an NPC Body Condition (10.4.1)",
                            "omit it for an alien", source)
    if sc.activating.seize is not None:
        agents = [f.name for f in sc.figures if f.side == "agent"]
        if sc.activating.seize not in agents:
            raise ScenarioError("activating.seize", f"no agent named {sc.activating.seize!r}", agents, source)
    for i, k in enumerate(sc.teleport_points):
        h = parse_hex_key(k, f"teleport_points[{i}]", source)
        if h not in amap.area_of or h in amap.blocking:
            raise ScenarioError(f"teleport_points[{i}]", f"hex {h} is not an open map hex", "a hex of an Area, not "
                                "Blocking", source)
    for i, r in enumerate(sc.rules):
        if r.targets and (r.condition != "plus" or r.action != "move_toward" or sc.activating.kind != "npc"):
            raise ScenarioError(f"rules[{i}].targets", "a list of targets belongs to an NPC's '+' rule that moves "
                                "toward the closest of them (10.2.1)", "omit it, or condition = 'plus', action = "
                                "'move_toward' on an NPC", source)
        if len(set(r.targets)) != len(r.targets):
            raise ScenarioError(f"rules[{i}].targets", "a target kind is listed twice", "each of alien, "
                                "teleport_point, agent at most once", source)
        if r.condition == "within" and r.areas < 1:
            raise ScenarioError(f"rules[{i}].areas", "a 'within' rule needs a distance in Areas",
                                f"1 to {MAX_WITHIN_AREAS}", source)
    return sc


# ------------------------------------------------------------------------------------------------ state

@dataclass(frozen=True)
class Figure:
    """A figure on the map: ``name``, ``side`` (agent, drone, npc, alien), ``at``, Menace token level and
    ``stealth`` (a power or item keeps aliens other than Master Aliens from targeting it, 11.3)."""

    name: str
    side: str
    at: Hex
    menace: int = 0
    stealth: bool = False


@dataclass(frozen=True)
class TargetCandidate:
    """An opponent at targeting time and its distance in Areas along legal steps (``None``: no legal path)."""

    name: str
    areas: int | None


@dataclass(frozen=True)
class EndCandidate:
    """A hex the figure could end its move in (10.2.1, 11.11), kept or dropped and why."""

    hex: Hex
    area: str
    adjacent_to_target: bool
    engages: int
    centre: bool
    kept: bool
    why: str


@dataclass(frozen=True)
class RuleVerdict:
    """One behavior rule checked: its ``index`` in card order, whether it applies and why (the step's detail)."""

    index: int
    applies: bool
    why: str
    at: Hex | None = None
    """The activating unit's hex the rule was read from (:func:`used_hex`: a base hex / Prime Swarm figure with line
    of sight to the target first, then the closer); ``None``: no target."""


@dataclass(frozen=True)
class Targeted:
    """What a targeting step shows: the target (``None``: none) and every opponent's distance (``None`` for an
    Archenemy, which targets the Menacing Agent without measuring)."""

    target: str | None
    candidates: tuple[TargetCandidate, ...] | None = None
    at: Hex | None = None
    """The activating unit's hex the target is measured from (:func:`used_hex`; 11.6, 11.8: the closest figure /
    base hex); ``None``: no target."""


@dataclass(frozen=True)
class Walked:
    """A move Area to Area through centre hexes: the hexes walked."""

    path: tuple[Hex, ...]


@dataclass(frozen=True)
class EndChosen:
    """The end hex of a move and every candidate hex kept or dropped."""

    end: Hex
    candidates: tuple[EndCandidate, ...]


@dataclass(frozen=True)
class LeadChosen:
    """A Prime Swarm's figure closer to the target, which the unit's A.I. uses (11.6)."""

    lead: Hex


@dataclass(frozen=True)
class SecondPlaced:
    """A Prime Swarm's other figure or a multi-hex alien's rest of base placed (11.6, 11.8)."""

    at: Hex


@dataclass(frozen=True)
class Seized:
    """A seized agent placed next to the dragging figure (7.3)."""

    who: str
    at: Hex


Note = Targeted | RuleVerdict | Walked | EndChosen | LeadChosen | SecondPlaced | Seized | None
"""What one step of an activation shows on the map (``None``: nothing beyond its text)."""


@dataclass(frozen=True)
class Activation:
    """The activation between steps (immutable).

    Attributes:
        mover: the activating figure (a Prime Swarm's lead figure, a multi-hex alien's face hex).
        others: every other figure.
        crosses_barriers: Flying or Burrowing (5.1).
        target: the target chosen at the start, or ``None``.
        candidates: every opponent's distance at targeting (``None``: not measured).
        sighted: when no opponent can be reached by a legal path, the closest one counted in Areas regardless of
            paths: the behavior rules measure it, and each then fails for want of a legal movement path.
        rule: index of the behavior rule applied, or ``None``.
        action: its action, or ``None``.
        path: the hexes walked.
        extra: a Prime Swarm's other figure / a multi-hex alien's second base hex, or ``None``; ``extra_kind``
            ``"swarm"`` / ``"base"``.
        start, start_extra, before: the unit's hexes and its distance in Areas to the target before the behavior
            rules (after the lead figure is chosen).
        offset: the rule the current run of checks started from (after a move that could not be applied).
        done: a behavior rule was applied (the checks stop).
        skipped: a Paralyzed figure skips the whole activation (10.4.1, 11.9.1).
        verdicts: every behavior rule checked so far.
        notes: one :data:`Note` per step so far, in order: what each step shows on the map.
        numbers: the behavior rule indices to check, card order.
    """

    mover: Figure
    others: tuple[Figure, ...]
    crosses_barriers: bool
    target: Figure | None = None
    rule: int | None = None
    path: tuple[Hex, ...] = ()
    extra: Hex | None = None
    extra_kind: str | None = None
    candidates: tuple[TargetCandidate, ...] | None = None
    sighted: Figure | None = None
    action: str | None = None
    start: Hex | None = None
    start_extra: Hex | None = None
    before: int | None = None
    offset: int = 0
    done: bool = False
    skipped: bool = False
    verdicts: tuple[RuleVerdict, ...] = ()
    notes: tuple[Note, ...] = ()
    numbers: tuple[int, ...] = ()

    @property
    def unit(self) -> tuple[Hex, ...]:
        """Every hex of the activating unit: the mover's, and the second base hex / Prime Swarm figure if any."""
        return (self.mover.at,) if self.extra is None else (self.mover.at, self.extra)

    def figure(self, name: str) -> Figure:
        return next(f for f in self.others if f.name == name)

    def noted(self, steps, *notes: Note) -> "Activation":
        """This state with ``notes`` recorded for ``steps`` (``None`` for each step without one)."""
        pad = (None,) * (len(steps) - len(notes))
        return replace(self, notes=self.notes + tuple(notes[:len(steps)]) + pad)


def _opponents(mover_kind: str, others) -> list[Figure]:
    """Aliens oppose agents, drones and NPCs (11: they count as agents); an NPC opposes aliens."""
    if mover_kind == "alien":
        return [f for f in others if f.side in ("agent", "drone", "npc")]
    return [f for f in others if f.side == "alien"]


def area_distance(amap: AreaMap, g: nx.Graph, a: Hex, b: Hex) -> int | None:
    """Distance in Areas between the Areas of two hexes along legal steps (``None``: no legal path)."""
    import networkx as nx
    try:
        return nx.shortest_path_length(g, amap.area_of[a], amap.area_of[b])
    except nx.NetworkXNoPath:
        return None


def range_distance(amap: AreaMap, frm: tuple[Hex, ...] | list[Hex], to: Hex | tuple[Hex, ...],
                   counted: str) -> int | None:
    """The distance a weapon's Range is checked against (9.2; ruling ``range_unit`` gives ``counted``), from the
    nearest of the attacker's hexes (a multi-hex base or a Prime Swarm's figures, 11.6, 11.8) to the nearest of
    ``to`` (one hex, or a target's hexes: a multi-hex base, 11.8).

    ``counted == "hexes"``: the hex distance. Else (``"areas"``) the Areas stepped through between the two Areas
    (0: the same Area), a Barrier Hex Side keeping its Areas adjacent (5.1) and a wall or closed door not; ``None``
    when no chain of Areas joins them. Line of sight is checked on its own."""
    tos = (to,) if isinstance(to, Hex) else tuple(to)
    if counted == "hexes":
        return min(distance(h, t) for h in frm for t in tos)
    g = amap.area_graph(True)
    ds = [d for d in (area_distance(amap, g, h, t) for h in frm for t in tos) if d is not None]
    return min(ds) if ds else None


# ------------------------------------------------------------------------------------------------ step functions

def select_target(state: Activation, ctx: ActivationContext) -> tuple[Activation, tuple[Step, ...]]:
    """Targeting at the start of the activation (11.3.1; an NPC's target: 10.2.1, an alien's: 11.11, aliens counting
    drones and NPCs as agents, 11): the Menacing
    Agent for an Archenemy, else the closest opponent in Areas (legal walking path); ties are the controlling
    player's choice (first by name, 10.1)."""
    amap, archenemy, kind = ctx.amap, ctx.activating.archenemy, ctx.activating.kind
    master = is_master_alien(ctx.activating)
    sec = "Targeting"
    first: tuple[Step, ...] = ()
    if ctx.activating.stage is not None:
        first = (Step(f"{ctx.activating.name} is at Stage {'I' * ctx.activating.stage}: that side's A.I. section "
                      "applies", S.MASTER_ALIENS, "Each side of a Master Alien card is a stage with its own A.I., "
                      "powers, weapons and armor; the behavior rules below are this stage's.", section=sec,
                      facts={"stage": ctx.activating.stage}),)
    if ctx.activating.paralyzed:
        if master:
            first += (Step(f"{ctx.activating.name} ignores Paralyze", S.MASTER_ALIENS, "Master Aliens are immune to "
                          "any Paralyze effect and ignore effects preventing their activation.", section=sec),)
        else:
            steps = first + (Step(f"{ctx.activating.name} is Paralyzed: it skips its activation",
                          S.NPC_BODY_CONDITION if kind == "npc" else S.PARALYZED,
                          "Until the token is removed in the next Refresh phase.",
                          section=sec, facts={"skipped": True}),)
            return replace(state, numbers=(), done=True, skipped=True).noted(steps), steps
    state, first = state.noted(first), first
    if kind == "alien":
        hidden = [f for f in _opponents(kind, state.others) if f.stealth]
        if hidden and master:
            more = (Step(f"{ctx.activating.name} ignores {join_words([f.name for f in hidden])}'s Stealth",
                         S.MASTER_ALIENS, "Master Aliens ignore any power or item preventing them from targeting "
                         "an agent (Stealth, Camouflage, Invisibility...).", section=sec,
                         marks=tuple(str(f.at) for f in hidden), facts={"ignored": [f.name for f in hidden]}),)
            state, first = state.noted(more), first + more
        elif hidden:
            more = (Step(f"{join_words([f.name for f in hidden])} cannot be targeted (Stealth)", S.POWERS_ITEMS,
                         "A power or item on the figure keeps aliens from targeting it; only Master Aliens ignore "
                         "it (11.3).", section=sec, marks=tuple(str(f.at) for f in hidden),
                         facts={"hidden": [f.name for f in hidden]}),)
            state, first = state.noted(more), first + more
            visible = tuple(f for f in state.others if not (f.stealth and f.side != "alien"))
            new, steps = _select_target(replace(state, others=visible), ctx, amap, archenemy, kind, sec)
            return replace(new, others=state.others), first + steps
    new, steps = _select_target(state, ctx, amap, archenemy, kind, sec)
    return new, first + steps


TARGETING_TIME = {
    "alien": "Targeting happens at the start of the activation: 11.3.1 says so of Master Aliens \"like any standard "
             "alien\".",
    "npc": "Targeting happens at the start of the activation: the book states it for aliens (11.3.1); 10.2 gives an "
           "NPC no other time, so it is read the same way.",
}
"""The detail saying when a target is fixed, by activating kind. The book states the timing once, in 11.3.1, for
Master Aliens as true of "any standard alien"; the NPC rules (10.2) print no timing of their own."""


def is_master_alien(activating) -> bool:
    """A Master Alien (11.3): declared ``master``, or with the Archenemy power (a Master Alien power, 11.3.1)."""
    return bool(activating.master or activating.archenemy)


def _select_target(state: Activation, ctx: ActivationContext, amap, archenemy: bool, kind: str, sec: str
                   ) -> tuple[Activation, tuple[Step, ...]]:
    opp = _opponents(kind, state.others)
    if not opp:
        steps = (Step("No opponent in play: nothing to target", S.ALIENS if kind == "alien"
                      else S.NPC_MOVEMENT, "", section=sec),)
        return state.noted(steps), steps
    if archenemy:
        menacing = [f for f in opp if f.side == "agent" and f.menace]
        if menacing:
            t = menacing[0]
            steps = (Step(f"Archenemy: targets the Menacing Agent {t.name} (Menace {t.menace})", S.MENACE,
                          "Its A.I. uses the distance to the Menacing Agent, not the closest agent; the target is "
                          "fixed for the whole activation.", section=sec, marks=(str(t.at),),
                          facts={"target": t.name}),)
            return replace(state, target=t).noted(steps, Targeted(t.name, at=used_hex(state, ctx, t))), steps
    g = amap.area_graph(state.crosses_barriers)
    rows = []
    for f in opp:
        ds = [d for d in (area_distance(amap, g, h, f.at) for h in state.unit) if d is not None]
        rows.append((f, min(ds) if ds else None))
    cands = tuple(TargetCandidate(f.name, d) for f, d in rows)
    reach = [(f, d) for f, d in rows if d is not None]
    listing = "; ".join(f"{f.name} {'no legal path' if d is None else plural(d, 'Area')}" for f, d in rows)
    if not reach:
        rg = amap.area_graph(True)
        near = sorted(((d, f.name, f) for f in opp for d in [min((x for x in (area_distance(amap, rg, h, f.at)
                                                                              for h in state.unit)
                                                               if x is not None), default=None)]
                       if d is not None), key=lambda x: (x[0], x[1]))
        sighted = near[0][2] if near else None
        rule = S.ALIEN_MOVEMENT if kind == "alien" else S.NPC_MOVEMENT
        steps = (Step("No opponent can be reached by a legal path", rule, listing, section=sec,
                      facts={"candidates": [{"name": f.name, "areas": d} for f, d in rows]}),)
        return replace(state, candidates=cands, sighted=sighted).noted(steps, Targeted(None, cands)), steps
    best = min(d for _, d in reach)
    tied = sorted(f.name for f, d in reach if d == best)
    t = next(f for f, _ in reach if f.name == tied[0])
    tie = f" Tie between {', '.join(tied)}: the controlling player chooses ({t.name} here)." if len(tied) > 1 else ""
    who = "agent (drones and NPCs count as agents)" if kind == "alien" else "alien"
    step = Step(f"Target: the closest {who}, {t.name} ({plural(best, 'Area')})",
                S.ALIENS if kind == "alien" else S.NPC_MOVEMENT,
                f"Distances: {listing}.{tie} {TARGETING_TIME[kind]}",
                section=sec,
                marks=(str(t.at),), facts={"target": t.name,
                                           "candidates": [{"name": f.name, "areas": d} for f, d in rows]})
    return replace(state, target=t, candidates=cands).noted((step,), Targeted(t.name, cands, used_hex(state, ctx, t))), \
        (step,)


def used_hex(state: Activation, ctx: ActivationContext, t: Figure | None, sight: bool = False) -> Hex | None:
    """The hex of the activating unit the rules read ``t`` from (11.6, 11.8: a Prime Swarm's closest figure, a
    multi-hex alien's closest base hex): the closest in Areas along legal steps, then in hexes; with ``sight``, a hex
    with line of sight to ``t`` first (a unit sees its target when one of its hexes does). The mover's hex for a
    one-hex figure; ``None`` without a target. The A.I. page draws the targeting and rule lines from it."""
    if t is None:
        return None
    if len(state.unit) == 1:
        return state.mover.at
    g = ctx.amap.area_graph(state.crosses_barriers)

    def key(h: Hex):
        d = area_distance(ctx.amap, g, h, t.at)
        seen = ctx.amap.line_of_sight(h, t.at, ctx.strict_los)[0] if sight else True
        return (not seen, d is None, d or 0, distance(h, t.at))

    return min(state.unit, key=key)


def walk_areas(state: Activation, amap: AreaMap, goal_area: str, areas: int) -> tuple[list[str], list[Hex]]:
    """Area to Area through centre hexes (11.11): up to ``areas`` Areas along a shortest Area path toward
    ``goal_area``. Returns ``(Areas entered, hex path)``."""
    import networkx as nx
    ag = amap.area_graph(state.crosses_barriers)
    hg = amap.graph(state.crosses_barriers)
    route = nx.shortest_path(ag, amap.area_of[state.mover.at], goal_area)[1:areas + 1]
    path = [state.mover.at]
    for a in route:
        sub = hg.subgraph([h for h in hg if amap.area_of[h] in (amap.area_of[path[-1]], a)])
        try:
            leg = nx.shortest_path(sub, path[-1], amap.centre[a])
        except (nx.NetworkXNoPath, nx.NodeNotFound):
            try:
                leg = nx.shortest_path(hg, path[-1], amap.centre[a])
            except (nx.NetworkXNoPath, nx.NodeNotFound):
                # the centre hex cannot be reached (an Area cut by a Barrier or a wall): "another Hex of the Area"
                # (11.11), the reachable one nearest the centre
                reach = nx.node_connected_component(hg, path[-1]) if path[-1] in hg else set()
                spots = sorted((distance(h, amap.centre[a]), h) for h in reach if amap.area_of[h] == a)
                if not spots:
                    break
                leg = nx.shortest_path(hg, path[-1], spots[0][1])
        path += leg[1:]
    return route, path


def end_hex(state: Activation, amap: AreaMap, dest: str, kind: str, strict_adjacent: bool
            ) -> tuple[Hex | None, list[dict], list[Step]]:
    """Redeploy at the end of the move (10.2.1, 11.11): every free hex of the destination Area is a candidate; kept
    are those adjacent to the target if any, then those engaging the most opponents, then the centre hex; each
    candidate is listed with the rule that keeps or drops it. With ``strict_adjacent`` (a "Move Adjacent to" rule)
    and no free hex adjacent to the target in ``dest``, hexes adjacent to the target in an adjacent Area are tried.
    """
    sec = "End of movement"
    t = state.target
    occupied = {f.at: f.name for f in state.others}
    if state.extra_kind == "swarm":
        occupied[state.extra] = f"{state.mover.name}'s other figure"
    opp = _opponents(kind, state.others)
    hg = amap.graph(state.crosses_barriers)
    start_area = amap.area_of[state.mover.at]

    def base_fits(h: Hex) -> bool:
        return any(n in amap.area_of and n not in amap.blocking and n not in occupied for n in neighbors(h))

    def reachable(h: Hex) -> bool:
        import networkx as nx
        return h == state.mover.at or (h in hg and state.mover.at in hg and nx.has_path(hg, state.mover.at, h))

    areas = [dest]
    if strict_adjacent and t is not None and not any(distance(h, t.at) == 1 and h not in occupied
                                                     for h in amap.hexes(dest)):
        near = sorted(set(amap.area_graph(state.crosses_barriers).neighbors(amap.area_of[t.at])) | {start_area})
        areas = [dest] + [a for a in near if a != dest]
    cands = []
    for a in areas:
        for h in amap.hexes(a):
            if h in amap.blocking:
                continue
            row = {"hex": str(h), "area": a, "adjacent_to_target": bool(t and distance(h, t.at) == 1),
                   "engages": sum(1 for f in opp if distance(h, f.at) == 1), "centre": h == amap.centre[a]}
            if h in occupied and h != state.mover.at:
                row.update(kept=False, why=f"occupied by {occupied[h]}: no figure ends on an occupied Hex")
            elif not reachable(h):
                row.update(kept=False, why="no legal movement path")
            elif state.extra_kind == "base" and not base_fits(h):
                row.update(kept=False, why="no free adjacent hex for the rest of the two-hex base (11.8)")
            elif a != dest and not row["adjacent_to_target"]:
                row.update(kept=False, why="an adjacent Area is used only to end adjacent to the target")
            else:
                row.update(kept=True, why="")
            cands.append(row)
    live = [c for c in cands if c["kept"]]
    if any(c["adjacent_to_target"] for c in live):
        for c in live:
            if not c["adjacent_to_target"]:
                c.update(kept=False, why="not adjacent to the target, and a free hex adjacent to it exists")
    if any(c["area"] == dest for c in cands if c["kept"]):
        for c in cands:
            if c["kept"] and c["area"] != dest:
                c.update(kept=False, why="the destination Area has a hex adjacent to the target")
    live = [c for c in cands if c["kept"]]
    if live and any(c["adjacent_to_target"] or c["engages"] for c in live):
        best = max(c["engages"] for c in live)
        for c in live:
            if c["engages"] < best:
                c.update(kept=False, why=f"engages {plural(c['engages'], 'opponent')}; another hex engages {best}")
    elif live:
        for c in live:
            if not c["centre"]:
                c.update(kept=False, why="not adjacent to any opponent: it stays on the centre hex it moved to")
    live = [c for c in cands if c["kept"]]
    for c in live:
        c["why"] = "kept" + (": adjacent to the target" if c["adjacent_to_target"] else "") + \
                   (f", engages {c['engages']}" if c["engages"] else "")
    rule = S.NPC_MOVEMENT if kind == "npc" else S.ALIEN_MOVEMENT
    if not live:
        return None, cands, [Step(f"No free hex to end in Area {dest}", rule, "", section=sec,
                                  facts={"candidates": cands})]
    chosen = Hex.parse(sorted(live, key=lambda c: (not c["centre"], c["hex"]))[0]["hex"])
    tie = f" {len(live)} hexes tie: the controlling player chooses ({chosen} here)." if len(live) > 1 else ""
    return chosen, cands, [Step(f"Ends in {chosen} (Area {amap.area_of[chosen]})", rule,
                                "Redeploy in the destination Area: adjacent to the target and as many opponents as "
                                f"possible.{tie}", section=sec, marks=(str(chosen),),
                                facts={"candidates": cands, "end": str(chosen)})]


def move(state: Activation, amap: AreaMap, r, kind: str, came_from: Hex | None
         ) -> tuple[Activation | None, list[Step], list[Note]]:
    """Apply a move action (``move_adjacent``, ``move_toward``, ``move_away``); ``None`` when it cannot be applied
    (then the next rule is tried, 11.11). Returns ``(state or None, steps, one note per step)``."""
    import networkx as nx
    sec = "Movement"
    rule = S.NPC_MOVEMENT if kind == "npc" else S.ALIEN_MOVEMENT
    t = state.target
    ag = amap.area_graph(state.crosses_barriers)
    here = amap.area_of[state.mover.at]
    steps: list[Step] = []
    notes: dict[int, Note] = {}
    if r.action == "move_away":
        if came_from is not None and amap.area_of[came_from] != here and \
                ag.has_edge(here, amap.area_of[came_from]):
            dest = amap.area_of[came_from]
            steps.append(Step(f"Move back: toward Area {dest}, where it came from", rule, "", section=sec))
        else:
            opts = sorted(ag.neighbors(here))
            if not opts:
                return None, [Step("Move away: no Area can be entered", rule, "", section=sec)], [None]
            far = {a: nx.shortest_path_length(ag, a, amap.area_of[t.at]) if t and nx.has_path(
                ag, a, amap.area_of[t.at]) else 99 for a in opts}
            best = max(far.values())
            tied = [a for a in opts if far[a] == best]
            dest = tied[0]
            away = ", ".join(f"{a} ({plural(far[a], 'Area')})" for a in opts)
            steps.append(Step(f"Move away from {t.name if t else 'the closest opponent'}: Area {dest}", rule,
                              f"No way back; the Areas next to it are {away} from the target."
                              + (f" Tie: the controlling player chooses ({dest})." if len(tied) > 1 else ""),
                              section=sec))
        route, path = walk_areas(state, amap, dest, r.move)
        steps.append(Step(f"Moves {plural(len(route), 'Area')}: {' → '.join([here] + route)}", rule,
                          "Area to Area through centre hexes.", section=sec, marks=tuple(map(str, path)),
                          facts={"path": [str(h) for h in path]}))
        notes[len(steps) - 1] = Walked(tuple(path))
    else:
        goal = amap.area_of[t.at]
        if here == goal and r.action == "move_toward":
            steps.append(Step(f"Already at {t.name}: it remains in its current position", rule,
                              "Moving toward a closest target it already reached leaves it where it is.",
                              section=sec, marks=(str(state.mover.at),)))
            return state, steps, [None]
        elif here == goal or r.move == 0:
            route, path = [], [state.mover.at]
        else:
            route, path = walk_areas(state, amap, goal, r.move)
        if route:
            steps.append(Step(f"Moves {plural(len(route), 'Area')}: {' → '.join([here] + route)}", rule,
                              "Area to Area through centre hexes; other figures are no obstacle.", section=sec,
                              marks=tuple(map(str, path)), facts={"path": [str(h) for h in path]}))
            notes[len(steps) - 1] = Walked(tuple(path))
    dest_area = amap.area_of[path[-1]]
    mover = replace(state.mover, at=path[-1])
    s2 = replace(state, mover=state.mover)
    h, cands, st = end_hex(replace(s2, mover=replace(mover, at=state.mover.at)), amap, dest_area, kind,
                           r.action == "move_adjacent")
    if h is not None:
        notes[len(steps)] = EndChosen(h, tuple(EndCandidate(Hex.parse(c["hex"]), c["area"], c["adjacent_to_target"],
                                                            c["engages"], c["centre"], c["kept"], c["why"])
                                               for c in cands))
    steps += st
    if h is None:
        steps.append(Step("The rule cannot be applied: the next rule is tried", rule, "", section=sec))
        return None, steps, [notes.get(i) for i in range(len(steps))]
    if h != path[-1]:
        hg = amap.graph(state.crosses_barriers)
        path = path + nx.shortest_path(hg, path[-1], h)[1:]
    return (replace(state, mover=replace(state.mover, at=h), path=tuple(path)), steps,
            [notes.get(i) for i in range(len(steps))])


def lead_figure(state: Activation, ctx: ActivationContext) -> tuple[Activation, tuple[Step, ...]]:
    """Which part of a two-figure or two-hex unit the A.I. measures from (11.6, 11.8): the Prime Swarm figure, or
    the base hex, closest to the target (in Areas along legal steps, then in hexes). A Prime Swarm's closest figure
    becomes the mover; a multi-hex alien keeps walking with its face hex (``at``), its rules reading the closest
    base hex. No step for a one-hex, one-figure alien or without a target. The unit's hexes and its distance to
    the target are recorded here, before the behavior rules."""
    new, steps = _lead(state, ctx.amap)
    note = LeadChosen(new.mover.at) if steps and new.extra_kind == "swarm" else None
    new = replace(new, start=new.mover.at, start_extra=new.extra,
                  before=_unit_distance(new, ctx) if new.target else None)
    return new.noted(steps, note), steps


def _lead(state: Activation, amap: AreaMap) -> tuple[Activation, tuple[Step, ...]]:
    if state.extra is None or state.target is None:
        return state, ()
    t = state.target
    g = amap.area_graph(state.crosses_barriers)

    def key(h: Hex):
        d = area_distance(amap, g, h, t.at)
        return (d is None, d if d is not None else 0, distance(h, t.at), h != state.mover.at)

    lead = min(state.unit, key=key)
    if state.extra_kind == "swarm":
        other = state.extra if lead == state.mover.at else state.mover.at
        st = replace(state, mover=replace(state.mover, at=lead), extra=other)
        return st, (Step(f"Prime Swarm: the figure on {lead} is the closer to {t.name}; the unit's A.I. uses it",
                         S.PRIME_SWARM, f"The other figure is on {other}; it moves after the first, to end "
                         "adjacent to it.", section="Targeting", marks=(str(lead),), facts={"lead": str(lead)}),)
    return state, (Step(f"Multi-hex base {state.mover.at}+{state.extra}: distances are read from {lead}, the hex "
                        f"closest to {t.name}", S.MULTI_HEX, "Line of sight and adjacency count from any base hex; "
                        f"the face hex ({state.mover.at}) leads a move.", section="Targeting", marks=(str(lead),),
                        facts={"lead": str(lead)}),)


def place_second(state: Activation, ctx: ActivationContext) -> tuple[Activation, tuple[Step, ...]]:
    """After the move (11.6, 11.8): the Prime Swarm's other figure moves adjacent to the first (along a legal path;
    as close as possible when no adjacent hex is free); a multi-hex alien's rest of base goes in a free hex adjacent
    to the face hex. Preference among free hexes: the lead's Area first (11.8), then the most opponents engaged
    and adjacency to the target (the redeploy guideline of 11.11); a remaining tie is the players' choice (hex
    order here). Nothing moves when the lead did not move."""
    amap, kind, start_extra = ctx.amap, ctx.activating.kind, state.start_extra
    if start_extra is None or state.extra is None or state.mover.at == state.start:
        return state, ()
    swarm = state.extra_kind == "swarm"
    rule = S.PRIME_SWARM if swarm else S.MULTI_HEX
    sec = "End of movement"
    lead = state.mover.at
    occupied = {f.at for f in state.others}
    opp = _opponents(kind, state.others)
    hg = amap.graph(state.crosses_barriers)

    def free(h: Hex) -> bool:
        import networkx as nx
        ok = h in amap.area_of and h not in amap.blocking and h not in occupied and h != lead
        if ok and swarm:
            ok = h == start_extra or (h in hg and start_extra in hg and nx.has_path(hg, start_extra, h))
        return ok

    def score(h: Hex):
        return (amap.area_of[h] != amap.area_of[lead], -sum(1 for f in opp if distance(h, f.at) == 1),
                not (state.target and distance(h, state.target.at) == 1), h)

    cands = sorted((h for h in neighbors(lead) if free(h)), key=score)
    rows = [{"hex": str(h), "area": amap.area_of[h], "engages": sum(1 for f in opp if distance(h, f.at) == 1),
             "adjacent_to_target": bool(state.target and distance(h, state.target.at) == 1)} for h in cands]
    if cands:
        spot, why = cands[0], f"a free hex adjacent to {lead}" + (", in the same Area" if amap.area_of[cands[0]] ==
                                                                  amap.area_of[lead] else ", in an adjacent Area")
    else:
        ring = sorted((h for h in amap.area_of if free(h)), key=lambda h: (distance(h, lead), h))
        if not ring:
            steps = (Step(f"No free hex for {'the other figure' if swarm else 'the rest of the base'}: it stays",
                          rule, "", section=sec),)
            return state.noted(steps), steps
        spot, why = ring[0], f"no free hex adjacent to {lead}: as close as possible ({distance(ring[0], lead)} hexes)"
    what = "The other Prime Swarm figure" if swarm else "The rest of the two-hex base"
    steps = (Step(f"{what} goes to {spot}", rule, why[0].upper() + why[1:] + ".", section=sec, marks=(str(spot),),
                  facts={"second": str(spot), "candidates": rows}),)
    return replace(state, extra=spot).noted(steps, SecondPlaced(spot)), steps


def seize(state: Activation, ctx: ActivationContext) -> tuple[Activation, tuple[Step, ...]]:
    """Seize (7.3): the seized agent moves along (inheriting Flying/Burrowing) and is placed in a free hex adjacent to
    the dragging figure, or as close as possible (first free hex in direction order; the players choose)."""
    amap, who = ctx.amap, ctx.activating.seize
    if not who or len(state.path) < 2:
        return state, ()
    occupied = {f.at for f in state.others if f.name != who} | {state.mover.at}
    here = amap.area_of[state.mover.at]
    free = sorted((h for h in neighbors(state.mover.at) if h in amap.area_of and h not in amap.blocking
                   and h not in occupied), key=lambda h: amap.area_of[h] != here)
    if not free:
        ring = sorted((h for h in amap.area_of if h not in occupied and h not in amap.blocking),
                      key=lambda h: (distance(h, state.mover.at), h))
        free = ring[:1]
    spot = free[0]
    others = tuple(replace(f, at=spot) if f.name == who else f for f in state.others)
    steps = (Step(f"{who} is seized and placed in {spot}, adjacent to {state.mover.name}", S.SEIZE,
                  "The seized agent moves with the dragging figure, crossing what it crosses, and ends adjacent to it.",
                  section="Seize", marks=(str(spot),), facts={"seized": who, "at": str(spot)}),)
    return replace(state, others=others).noted(steps, Seized(who, spot)), steps


# ------------------------------------------------------------------------------------------------ the sequence

@dataclass(frozen=True)
class ActivationOutcome(Outcome):
    """The typed outcome of an ``activation`` scenario: who moved, its target, the rule applied (index, or
    ``None``) and its action, start and end hexes, the path, the distance in Areas to the target before and after,
    every other figure's hex, and a second figure's / base hex's (``None`` for a one-hex, one-figure unit)."""

    mover: str
    target: str | None
    rule: int | None
    action: str | None
    start: Hex
    end: Hex
    path: tuple[Hex, ...]
    areas_before: int | None
    areas_after: int | None
    figures: tuple[tuple[str, Hex], ...]
    second: Hex | None = None
    skipped: bool = False

    def to_json(self) -> dict:
        out = {"mover": self.mover, "target": self.target, "rule": self.rule, "action": self.action,
               "start": str(self.start), "end": str(self.end), "path": [str(h) for h in self.path],
               "areas_before": self.areas_before, "areas_after": self.areas_after,
               "figures": {n: str(h) for n, h in self.figures}}
        if self.second is not None:
            out["second"] = str(self.second)
        if self.skipped:
            out["skipped"] = True
        return out


@dataclass(frozen=True)
class ActivationContext(Context):
    """What the A.I. steps read: the map (``amap``), the scenario's activating figure and behavior ``rules``,
    ``strict_los`` (ruling ``line_of_sight``), ``rulings``."""

    amap: AreaMap | None = None
    activating: ActivatingModel | None = None
    rules: tuple[RuleModel, ...] = ()
    strict_los: bool = False
    teleport_points: tuple[str, ...] = ()


def _unit_distance(state: Activation, ctx: ActivationContext) -> int | None:
    g = ctx.amap.area_graph(state.crosses_barriers)
    ds = [d for d in (area_distance(ctx.amap, g, h, state.target.at) for h in state.unit) if d is not None]
    return min(ds) if ds else None


def barriers(state: Activation, ctx: ActivationContext) -> tuple[Activation, tuple[Step, ...]]:
    """7.1.2 Flying (aliens and NPCs), 7.2 Burrowing, 5.1 Barrier Hex Side: whether the figure crosses Barrier Hex
    Sides."""
    a = ctx.activating
    if state.crosses_barriers:
        steps = (Step(f"{a.name} {'flies' if a.flying else 'burrows'}: it crosses Barrier Hex Sides",
                      S.FLYING_ALIENS_NPCS if a.flying else S.BURROWING, "", section="Setup"),)
    elif any(f.kind == EdgeKind.BARRIER for f in ctx.amap.features.values()):
        steps = (Step(f"{a.name} cannot cross Barrier Hex Sides: they count as Blocking Hex Sides for it",
                      S.BARRIER_HEX_SIDE, "They block no line of sight, and hexes across them stay adjacent.",
                      section="Setup"),)
    else:
        steps = ()
    return state.noted(steps), steps


def rule_indices(state: Activation) -> tuple[int, ...]:
    """The items of the behavior-rule entry of :data:`ACTIVATION_SEQUENCE`: every rule index, card order."""
    return state.numbers


def rule_applied(state: Activation) -> bool:
    """The behavior-rule checks stop once a rule was applied."""
    return state.done


def check_rule(state: Activation, ctx: ActivationContext, i: int) -> tuple[bool, Step]:
    """Whether behavior rule ``i`` applies (10.1, 11.11): its distance condition, line of sight (except the "+"
    rule) and, for a move, a legal movement path. Returns ``(applies, step)``; a rule is named by its label, or by
    its place among the rules checked since the last move that could not be applied."""
    amap, kind, r = ctx.amap, ctx.activating.kind, ctx.rules[i]
    sec = "Behavior rules"
    rule_ref = S.NPC_AI if kind == "npc" else S.ALIEN_MOVEMENT
    t = state.target or state.sighted
    name = r.label or f"rule {i - state.offset + 1} ({r.condition}" \
                      f"{' ' + str(r.areas) if r.condition == 'within' else ''}: {r.action})"
    if r.targets:
        return True, Step(f"{name}: applies", S.NPC_MOVEMENT, "The + rule applies whatever the distance and needs no "
                          "line of sight; its target is the first of its listed targets that a legal walking path "
                          "reaches.", section=sec, facts={"behavior": i, "applies": True, "action": r.action})
    if t is None:
        return False, Step(f"{name}: no target", rule_ref, "", section=sec, facts={"behavior": i, "applies": False})
    g = amap.area_graph(state.crosses_barriers)
    ds = [x for x in (area_distance(amap, g, h, t.at) for h in state.unit) if x is not None]
    d = min(ds) if ds else None
    if d is None:
        rg = amap.area_graph(True)
        dr = min((x for x in (area_distance(amap, rg, h, t.at) for h in state.unit) if x is not None), default=None)
    else:
        dr = d
    near = min(distance(h, t.at) for h in state.unit)
    if r.condition == "adjacent":
        ok, why = near == 1, f"{t.name} is {plural(near, 'hex', 'hexes')} away (Barrier sides keep hexes adjacent)"
    elif r.condition == "within":
        ok = dr is not None and dr <= r.areas
        why = f"{t.name} is {'unreachable' if dr is None else plural(dr, 'Area')} away (needs {r.areas} or fewer)"
    else:
        ok, why = True, "the + rule applies whatever the distance"
    if ok and ctx.activating.immobilized and r.action in ("move_adjacent", "move_toward", "move_away"):
        return False, Step(f"{name}: does not apply", S.NPC_BODY_CONDITION, f"{ctx.activating.name} is Immobilized: "
                           "it follows only behavior without movement until the next Refresh phase.", section=sec,
                           facts={"behavior": i, "applies": False})
    if ok and r.condition != "plus":
        sights = [amap.line_of_sight(h, t.at, ctx.strict_los) for h in state.unit]
        los, los_why = next((x for x in sights if x[0]), sights[0])
        if not los:
            ok, why = False, f"no line of sight to {t.name}: {los_why}"
        else:
            why += f"; line of sight: {los_why}"
    if ok and (r.action in ("move_adjacent", "move_toward") or state.target is None) and d is None:
        ok, why = False, f"{why}; but no legal movement path to {t.name}, and every behavior rule needs one"
    if not ok:
        return False, Step(f"{name}: does not apply", rule_ref, why + ".", section=sec,
                           facts={"behavior": i, "applies": False})
    if r.action == "attack" and ctx.activating.range is not None:
        within, words = _within_range(state, ctx, t)
        if not within:
            nxt = "10.2.1" if kind == "npc" else "11.11"
            return False, Step(f"{name}: does not apply", S.WEAPON_RANGE, f"{words} (ruling range_unit): the attack "
                               f"cannot be made, so the rule cannot be applied and the next one is tried ({nxt}).",
                               section=sec, marks=(str(t.at),), facts={"behavior": i, "applies": False,
                                                                       "beyond_range": True})
        why += f"; {words[0].lower()}{words[1:]}"
    return True, Step(f"{name}: applies", rule_ref, why + ".", section=sec, marks=(str(t.at),),
                      facts={"behavior": i, "applies": True, "action": r.action})


def _within_range(state: Activation, ctx: ActivationContext, t: Figure) -> tuple[bool, str]:
    """Whether ``t`` is within the activating figure's weapon Range (:func:`range_distance`; consults ruling
    ``range_unit``). Returns ``(within, words)``."""
    a = ctx.activating
    counted = ctx.rulings.reading("range_unit")
    d = range_distance(ctx.amap, state.unit, t.at, counted)
    weapon = a.weapon or "its weapon"
    if d is None:
        return False, f"no chain of Areas leads to {t.name}: beyond {weapon}'s Range {a.range}"
    words = f"{t.name} is {plural(d, *(('Hex', 'Hexes') if counted == 'hexes' else ('Area', 'Areas')))} away; " \
            f"{weapon}'s Range is {a.range}"
    return d <= a.range, ("Within " if d <= a.range else "Beyond ") + f"{weapon}'s Range: {words}"


def try_behavior_rule(state: Activation, ctx: ActivationContext, i: int) -> tuple[Activation, tuple[Step, ...]]:
    """One behavior rule of the A.I. section, in card order (10.1, 11.11): checked (:func:`check_rule`); when it
    applies, an attack or "stay" is its action, and a move is carried out (:func:`move`) or, when it cannot be
    applied, passes to the next rule."""
    applies, step = check_rule(state, ctx, i)
    verdict = RuleVerdict(i, applies, step.detail, used_hex(state, ctx, state.target or state.sighted,
                                                            sight=not ctx.rules[i].targets))
    state = replace(state, verdicts=state.verdicts + (verdict,)).noted((step,), verdict)
    if not applies:
        return state, (step,)
    r, kind = ctx.rules[i], ctx.activating.kind
    if r.targets:
        target, st = first_matching_target(state, ctx, r.targets)
        state = replace(state, target=target).noted(st, *([None] * (len(st) - 1)),
                                                    Targeted(target.name if target else None,
                                                             at=used_hex(state, ctx, target)))
        if target is None:
            return replace(state, offset=i + 1), (step, *st)
        step = (step, *st)
    else:
        step = (step,)
    if r.action in ("attack", "stay"):
        act = Step(f"{'Attacks ' + state.target.name if r.action == 'attack' else 'Stays'} without moving",
                   S.ALIEN_COMBAT if r.action == "attack" and kind == "alien" else
                   S.NPC_COMBAT if r.action == "attack" else S.NPC_MOVEMENT if kind == "npc" else S.ALIEN_MOVEMENT,
                   "", section="Action")
        return replace(state, rule=i, action=r.action, done=True).noted((act,)), (*step, act)
    came = Hex.parse(ctx.activating.came_from) if ctx.activating.came_from else None
    moved, steps, notes = move(replace(state, rule=i), ctx.amap, r, kind, came)
    if moved is None:
        return replace(state, offset=i + 1).noted(steps, *notes), (*step, *steps)
    return replace(moved, action=r.action, done=True).noted(steps, *notes), (*step, *steps)


TARGET_WORDS = {"alien": "Alien", "teleport_point": "Teleport Point", "agent": "Agent"}
"""How an NPC card's "+" rule names each kind of target (10.2.1)."""


def first_matching_target(state: Activation, ctx: ActivationContext, kinds) -> tuple[Figure | None, list[Step]]:
    """10.2.1: an NPC's "+" rule listing several targets ("move toward the closest: Alien; Teleport Point;
    Agent") moves toward the first kind that matches: the closest one of that kind that a legal walking path
    reaches; a kind with none in play, or none reachable, is skipped; later kinds are ignored. A Teleport Point is
    a target named after its hex. Returns ``(the target, or None when no kind matches, steps)``."""
    amap = ctx.amap
    g = amap.area_graph(state.crosses_barriers)
    steps: list[Step] = []
    for k in kinds:
        if k == "teleport_point":
            pool = [Figure(f"Teleport Point {h}", "teleport_point", h)
                    for h in (Hex.parse(x) for x in ctx.teleport_points)]
        else:
            pool = [f for f in state.others if f.side == k]
        rows = [(f, min((x for x in (area_distance(amap, g, h, f.at) for h in state.unit) if x is not None),
                        default=None)) for f in pool]
        reach = sorted(((d, distance(state.mover.at, f.at), f.name, f) for f, d in rows if d is not None),
                       key=lambda x: x[:3])
        word = TARGET_WORDS[k]
        if not reach:
            why = f"no {word} in play" if not pool else f"no {word} can be reached by a legal walking path (" + \
                "; ".join(f.name for f, _ in rows) + ")"
            steps.append(Step(f"{word}: skipped, {why}", S.NPC_MOVEMENT, "The first matching condition indicates "
                              "the target; a target kind with nothing reachable does not match.", section="Targeting",
                              facts={"kind": k, "target": None}))
            continue
        d, _, _, f = reach[0]
        steps.append(Step(f"{word}: the closest is {f.name} ({plural(d, 'Area')}): the target", S.NPC_MOVEMENT,
                          "The first matching condition indicates the target; the conditions after it are ignored.",
                          section="Targeting", marks=(str(f.at),), facts={"kind": k, "target": f.name}))
        return f, steps
    return None, steps + [Step("No listed target matches: the rule cannot be applied", S.NPC_MOVEMENT, "",
                               section="Targeting")]


def no_rule_applies(state: Activation, ctx: ActivationContext) -> tuple[Activation, tuple[Step, ...]]:
    """10.2.1, 11.11: no behavior rule can be applied: the figure stays (no step when the last rule's move was the
    one that could not be applied, or a rule was applied)."""
    if state.done or state.offset >= len(ctx.rules):
        return state, ()
    steps = (Step("No behavior rule can be applied: it stays where it is",
                  S.NPC_MOVEMENT if ctx.activating.kind == "npc" else S.ALIEN_MOVEMENT, "", section="Behavior rules",
                  facts={"applies": None}),)
    return state.noted(steps), steps


ACTIVATION_SEQUENCE = (
    ("Setup", barriers),
    ("Targeting", select_target),
    ("Lead figure", lead_figure),
    Each("Behavior rule {item}", rule_indices, try_behavior_rule, stop=rule_applied),
    ("No rule applies", no_rule_applies),
    ("Second figure", place_second),
    ("Seize", seize),
)
"""An alien or NPC activation in rulebook order: Barrier Hex Sides, targeting, the lead figure, the behavior rules
one by one until one is applied, the second figure or base hex, Seize."""


def activation_initial(scenario: ActivationScenario) -> Activation:
    """The activation before its first step: the figures where the scenario puts them."""
    a = scenario.activating
    mover = Figure(a.name, a.kind, Hex.parse(a.at))
    others = tuple(Figure(f.name, f.side, Hex.parse(f.at), f.menace, f.stealth) for f in scenario.figures)
    extra = a.base or a.swarm
    return Activation(mover, others, a.flying or a.burrowing, extra=Hex.parse(extra) if extra else None,
                      extra_kind="base" if a.base else "swarm" if a.swarm else None,
                      numbers=tuple(range(len(scenario.rules))))


def play_activation(scenario: ActivationScenario, rulings: Mapping[str, str] | None = None
                    ) -> tuple[tuple, Trace]:
    """Play :data:`ACTIVATION_SEQUENCE` on the kernel: ``(frames, trace)``; the trace's ``result`` is an
    :class:`ActivationOutcome`. The A.I. page draws each step from its frame's state."""
    r = make_rulings({**scenario.rulings, **dict(rulings or {})})
    amap = parse_map(scenario, "scenario")
    ctx = ActivationContext(rulings=r, amap=amap, activating=scenario.activating, rules=tuple(scenario.rules),
                            strict_los=r.reading("line_of_sight") == "strict",
                            teleport_points=tuple(scenario.teleport_points))
    frames = play(activation_initial(scenario), ACTIVATION_SEQUENCE, ctx)
    s = frames[-1].state
    after = _unit_distance(s, ctx) if s.target else None
    outcome = ActivationOutcome(scenario.activating.name, s.target.name if s.target else None, s.rule, s.action,
                                s.start, s.mover.at, s.path, s.before, after,
                                tuple((f.name, f.at) for f in s.others), s.extra, s.skipped)
    return frames, trace_of(scenario.title, frames, r.consulted).with_result(outcome)


def resolve_activation(scenario: ActivationScenario, rulings: Mapping[str, str] | None = None,
                       seed: int | None = None) -> Trace:
    """One alien or NPC activation (:data:`ACTIVATION_SEQUENCE`): target, first applicable rule (moves that
    cannot be applied fall through), movement, end hex, Seize.

    Returns:
        A :class:`Trace` whose ``result`` is an :class:`ActivationOutcome` (``outcome``: ``{"mover", "target",
        "rule" (index or None), "action", "start", "end", "path": [hex], "areas_before", "areas_after" (Area
        distance to the target), "figures": {name: hex}}``, and ``"second"`` for a two-figure or two-hex unit).
    """
    return play_activation(scenario, rulings)[1]
