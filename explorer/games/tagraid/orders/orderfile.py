"""Order files: ``kind = "order"`` TAG Raid scenarios — a table, the Miners' cards, and one Order's declarations.

Sections: as :mod:`.sequence` (the whole Order Expenditure Sequence). Format (TOML)::

    game = "tagraid"
    kind = "order"
    title = "..."; description = "..."; seed = 1
    board = "small"                      # a packaged board, or an inline [board] table (explorer/boards format)
    movement_segment = 1.732             # optional: board units per Movement Ruler Segment
    range = { short = 3.5, mid = 3.5, long = 3.5 }  # optional: Range Ruler Segment lengths (as in table files)
    timeline = ["blue", "red"]           # optional: sides in Timeline order (default: order of first appearance)
    [rulings]                            # optional: ruling option readings
    [[miners]]                           # placement (as in table files) plus the Miner card
    id = "A"; side = "blue"; hex = "0,0"; offset = [0.0, 0.0]  # or x = ..., y = ...
    facing = 0.0; silhouette = 7        # optional: on = "block" (stands on that scenery piece; as in table files)
    movement = [3, 2]; close_combat = 12; ranged_attack = 13; evade = 12; armor = 4; wounds = 3; orders = 2
    states = []; aro_without_lof = false; miner_type = "TAG"; scoring_zone = 0; warehouse = 0
    [[miners.weapons]]
    name = "Rifle"; damage = 13; burst = 3; ammunition = "N"; kind = "ranged"; needs_lof = true; states = []
    range = { short = 3, mid = 0, long = -3 }   # optional: Range MODs per Segment (out_of_range = MOD if it may
                                         # fire Out of Range); omitted: Range is not measured, no Range MOD
    [megabeast]                          # optional
    id = "Stoorworm"; hex = "0,0"; facing = 90.0; silhouette = 10; wounds = 10; fury_tokens = []; hunting_trophy = 3
    behavior = { front = 16, adjacent = 13, opposite = 10, angle_of_vision = 180.0, moves = false,
                 attack = { name = "Bite", damage = 14, ammunition = "N" } }
    [[access_points]]                    # optional (Respawn)
    number = 1; hex = "2,0"              # or x, y
    token_radius = 0.25                  # optional (Tool Containers and Loot; a documented default)
    [[tool_containers]]                  # optional
    id = "C1"; hex = "0,0"               # or x, y
    [[tool_deck]]                        # optional: top card first
    name = "Heavy Rifle"; kind = "tool"; weapon = { name = "Heavy Rifle", damage = 15, burst = 2 }
    [[loot_tokens]]                      # optional: a TAG's Loot Token and its Loot Zone
    owner = "R"; hex = "1,1"; units = 2; cards = [{ name = "Mining Drill" }]
    drawn_this_round = [{ miner = "A", container = "C2" }]
    # on a Miner: tools = [{ name = "Scanner" }]; tool_slots = 2
    [order]
    active = "A"
    move = { route = [[1.0, 0.5], "1,0"], facing = 90.0 }   # points (x, y) or hexagon keys (their centres)
    # optional in a move: on = ["", "block"]: the surface at each route point (a scenery piece's id, "" the ground);
    # a leg between two surfaces climbs: one whole Segment (ruling climb_segment)
    # or move = { route = [...], interact = { target = "C1", equip = true, discard = [] } } (Tool Containers and Loot)
    second = { skill = "ranged_attack", weapon = "Rifle", targets = [{ target = "R", burst = 3 }] }
    # optional: fire_from = 0.5 (the fraction of the Move route) or [x, y] (a point on it): where the Ranged Attack
    # is executed from (its LoF and Partial Cover are measured there); default: ruling route_fire_point (start of the Move)
    aros = [{ miner = "R", skill = "ranged_attack", weapon = "Rifle", step = 4 }]
    # optional on a Ranged Attack ARO: fire_at = 1.0 or [x, y]: the point of the Active Miner's Move route it is fired
    # at (its Range and the Active Miner's Partial Cover are measured there); default: the Active Miner's fire_from
    evade_moves = { X = [1.5, 0.2] }     # wished for; dropped with a cited step if the Evade Roll forbids it
    # optional: evade_on = { X = "block" }: the surface an Evade movement ends on ("" the ground) when it climbs up
    # or down a piece (the whole Segment; ruling evade_climb); omitted: the Miner stays on its surface
    [dice]                               # optional fixed dice; the rest are rolled from seed
    rolls = { A = [4, 11, 16], R = [9] }
    saves = { R = [3, 17] }
    respawn = [7]

Errors: a one-line :class:`~explorer.errors.ScenarioError` naming the field and what is allowed; a declaration the
rules refuse is an :class:`~explorer.errors.RuleViolation` (a ScenarioError) naming the declaration's field.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Annotated, Any, ClassVar, Literal

from pydantic import Field

from explorer.schema import FROM_TOML, ScenarioHeader, Strict

from explorer.board import MAX_HEX_KEY_CHARS, Board, Coordinate, CoordinatePair, Label, parse_hex_key
from explorer.errors import RuleViolation, ScenarioError
from explorer.scenario import toml_key, validate
from explorer.text import plural
from explorer.trace import Trace

from ..megabeast import ThreatLevels
from ..model import MAX_DESCRIPTION, MAX_TITLE, Name, Rulings
from ..options import ALL_OPTIONS
from ..ranges import WeaponRanges, RangeCalibration
from ..table_file import RangeEntry, WeaponEntry as RangeModsEntry, board_from_ref
from ..outcomes import (AroRightLine, LootTokenLine, LootZoneLine, MegaBeastAfter, MinerAfter, OrderOutcome,
                        PairLine)
from .declarations import AroDecl, AttackShare, Interaction, MoveDecl, OrderDeclarations, OrderDice, SkillDecl
from .resolution import roll_numbers
from .sequence import Frame, play, trace_of
from .state import (DEFAULT_MOVEMENT_SEGMENT, DEFAULT_TOKEN_RADIUS, DEFAULT_TOOL_SLOTS, BehaviorCard, LootToken,
                    LootZone, MegaBeastState, MinerState, OrderState, TableGeometry, ToolCard, ToolContainer,
                    WeaponCard)

MAX_MINERS = 24
"""Miners in one order file (a TAG Raid table has one TAG per player, up to a handful of players)."""
MAX_ROUTE = 32
"""Points in one Move route."""
MAX_WEAPONS = 8
MAX_ACCESS_POINTS = 20
MAX_DICE = 60
MAX_CONTAINERS = 12
"""Tool Containers on a table (the rulebook places 4)."""
MAX_TOOL_DECK = 60
"""Cards in the Tool Deck."""
MAX_TOOLS = 10
"""Tool Slots on a Miner, and Tool Cards in one Loot Zone."""
MAX_CARD_TEXT = 2000



HexKey = Annotated[str, Field(max_length=MAX_HEX_KEY_CHARS)]
RoutePoint = HexKey | CoordinatePair
Face = Annotated[int, Field(ge=1, le=20)]
StateName = Literal["Slowed"]
MovementValue = Annotated[int, Field(ge=0, le=10)]
"""One of a Miner's two Movement values (first and second), in Movement Ruler Segments."""


class WeaponEntry(Strict):
    name: Name
    damage: int = Field(ge=0, le=30)
    burst: int = Field(default=1, ge=0, le=20)
    ammunition: Literal["N", "DA", "EXP", "AP"] = "N"
    kind: Literal["ranged", "close_combat"] = "ranged"
    needs_lof: bool = True
    traits: list[Literal["Armor = 0", "Ranged Attack -3"]] = Field(default_factory=list, max_length=8)
    states: list[StateName] = Field(default_factory=list, max_length=1)
    range: RangeModsEntry | None = None


class ToolCardEntry(Strict):
    name: Name
    kind: Literal["tool", "other"] = "tool"
    weapon: WeaponEntry | None = None
    teseum: int = Field(default=0, ge=0, le=99)
    t_bezoar: int = Field(default=0, ge=0, le=99)
    text: str = Field(default="", max_length=MAX_CARD_TEXT)


class EquippedToolEntry(ToolCardEntry):
    slot: int | None = Field(default=None, ge=1, le=MAX_TOOLS)


class MinerEntry(Strict):
    id: Name
    side: Name
    hex: HexKey | None = None
    offset: CoordinatePair = (0.0, 0.0)
    x: Coordinate | None = None
    y: Coordinate | None = None
    facing: float = Field(default=0.0, ge=-3600.0, le=3600.0, allow_inf_nan=False)
    silhouette: int = Field(default=7, ge=1, le=20)
    movement: Annotated[tuple[MovementValue, MovementValue], FROM_TOML] = (3, 2)
    close_combat: int = Field(default=12, ge=0, le=30)
    ranged_attack: int = Field(default=12, ge=0, le=30)
    evade: int = Field(default=12, ge=0, le=30)
    armor: int = Field(default=4, ge=0, le=30)
    wounds: int = Field(default=3, ge=1, le=30)
    max_wounds: int | None = Field(default=None, ge=1, le=30)
    orders: int = Field(default=2, ge=0, le=10)
    states: list[StateName] = Field(default_factory=list, max_length=1)
    weapons: list[WeaponEntry] = Field(default_factory=list, max_length=MAX_WEAPONS)
    aro_without_lof: bool = False
    miner_type: Literal["TAG", "Prospector"] = "TAG"
    scoring_zone: int = Field(default=0, ge=0, le=99)
    warehouse: int = Field(default=0, ge=0, le=99)
    tools: list[EquippedToolEntry] = Field(default_factory=list, max_length=MAX_TOOLS)
    tool_slots: int = Field(default=DEFAULT_TOOL_SLOTS, ge=0, le=MAX_TOOLS)
    secured_slots: list[Annotated[int, Field(ge=1, le=MAX_TOOLS)]] = Field(default_factory=list, max_length=MAX_TOOLS)
    on: Annotated[str, Field(max_length=80)] | None = None


class BehaviorAttackEntry(Strict):
    name: Name = "Behavior Attack"
    damage: int = Field(ge=0, le=30)
    ammunition: Literal["N", "DA", "EXP", "AP"] = "N"
    hits: int = Field(default=1, ge=0, le=10)
    ranged: bool = False
    states: list[StateName] = Field(default_factory=list, max_length=1)


class BehaviorEntry(Strict):
    front: int = Field(ge=0, le=20)
    adjacent: int = Field(ge=0, le=20)
    opposite: int = Field(ge=0, le=20)
    angle_of_vision: float | None = Field(default=180.0, gt=0, le=360)
    moves: bool = False
    attack: BehaviorAttackEntry | None = None


class MegaBeastEntry(Strict):
    id: Name = "MegaBeast"
    hex: HexKey
    facing: float = Field(default=30.0, ge=-3600.0, le=3600.0, allow_inf_nan=False)
    silhouette: int = Field(default=10, ge=1, le=20)
    wounds: int = Field(ge=1, le=50)
    fury_tokens: list[Annotated[int, Field(ge=1, le=50)]] = Field(default_factory=list, max_length=50)
    hunting_trophy: int = Field(default=3, ge=0, le=3)
    behavior: BehaviorEntry


class AccessPointEntry(Strict):
    number: int = Field(ge=1, le=20)
    hex: HexKey | None = None
    x: Coordinate | None = None
    y: Coordinate | None = None


class InteractionEntry(Strict):
    target: Name
    equip: bool = True
    discard: list[Name] = Field(default_factory=list, max_length=MAX_TOOLS)
    slot: int | None = Field(default=None, ge=1, le=MAX_TOOLS)


class MoveEntry(Strict):
    route: list[RoutePoint] = Field(default_factory=list, max_length=MAX_ROUTE)
    facing: float | None = Field(default=None, ge=-3600.0, le=3600.0, allow_inf_nan=False)
    interact: InteractionEntry | None = None
    on: list[Annotated[str, Field(max_length=80)]] | None = Field(default=None, max_length=MAX_ROUTE)


class ContainerEntry(Strict):
    id: Name
    hex: HexKey | None = None
    x: Coordinate | None = None
    y: Coordinate | None = None


class LootTokenEntry(Strict):
    owner: Name
    hex: HexKey | None = None
    x: Coordinate | None = None
    y: Coordinate | None = None
    units: int = Field(default=0, ge=0, le=99)
    cards: list[ToolCardEntry] = Field(default_factory=list, max_length=MAX_TOOLS)


class DrawEntry(Strict):
    miner: Name
    container: Name


RouteFraction = Annotated[float, Field(ge=0.0, le=1.0, allow_inf_nan=False)]


class ShareEntry(Strict):
    target: Name
    burst: int | None = Field(default=None, ge=0, le=20)


class SecondEntry(Strict):
    skill: Literal["move", "ranged_attack", "close_combat_attack", "evade", "idle"]
    weapon: Name | None = None
    targets: list[ShareEntry] = Field(default_factory=list, max_length=MAX_MINERS + 1)
    move: MoveEntry | None = None
    fire_from: RouteFraction | CoordinatePair | None = None


class AroEntry(Strict):
    miner: Name
    skill: Literal["ranged_attack", "close_combat_attack", "evade", "idle", "none"]
    weapon: Name | None = None
    step: Literal[2, 4] | None = None
    fire_at: RouteFraction | CoordinatePair | None = None


class OrderEntry(Strict):
    active: Name
    move: MoveEntry = Field(default_factory=MoveEntry)
    second: SecondEntry = Field(default_factory=lambda: SecondEntry(skill="idle"))
    aros: list[AroEntry] = Field(default_factory=list, max_length=MAX_MINERS + 1)
    evade_moves: dict[Name, CoordinatePair | HexKey] = Field(default_factory=dict,
                                                                            max_length=MAX_MINERS)
    evade_on: dict[Name, Name | Literal[""]] = Field(default_factory=dict, max_length=MAX_MINERS)


DiceList = Annotated[list[Face], Field(max_length=MAX_DICE)]


class DiceEntry(Strict):
    rolls: dict[Name, DiceList] = Field(default_factory=dict, max_length=MAX_MINERS + 1)
    saves: dict[Name, DiceList] = Field(default_factory=dict, max_length=MAX_MINERS + 1)
    respawn: DiceList = Field(default_factory=list)


class TableFields(ScenarioHeader):
    """The table part shared by order and round files: board, Miners, MegaBeast, Access Points, Timeline, rulings."""

    game: Literal["tagraid"] = "tagraid"
    title: str = Field(default="Order", max_length=MAX_TITLE)
    description: str = Field(default="", max_length=MAX_DESCRIPTION)
    seed: int = Field(default=0, ge=0, le=2**63 - 1)
    board: Label | dict[str, Any]
    movement_segment: float = Field(default=DEFAULT_MOVEMENT_SEGMENT, gt=0, le=100, allow_inf_nan=False)
    range: RangeEntry = Field(default_factory=RangeEntry)
    timeline: list[Name] = Field(default_factory=list, max_length=MAX_MINERS)
    rulings: Rulings = Field(default_factory=dict)
    miners: list[MinerEntry] = Field(min_length=1, max_length=MAX_MINERS)
    access_points: list[AccessPointEntry] = Field(default_factory=list, max_length=MAX_ACCESS_POINTS)
    token_radius: float = Field(default=DEFAULT_TOKEN_RADIUS, gt=0, le=2, allow_inf_nan=False)
    tool_containers: list[ContainerEntry] = Field(default_factory=list, max_length=MAX_CONTAINERS)
    loot_tokens: list[LootTokenEntry] = Field(default_factory=list, max_length=MAX_MINERS)
    tool_deck: list[ToolCardEntry] = Field(default_factory=list, max_length=MAX_TOOL_DECK)
    drawn_this_round: list[DrawEntry] = Field(default_factory=list, max_length=MAX_MINERS * MAX_CONTAINERS)


class OrderFile(TableFields):
    kind: Literal["order"]
    megabeast: MegaBeastEntry | None = None
    order: OrderEntry
    dice: DiceEntry = Field(default_factory=DiceEntry)


@dataclass(frozen=True)
class OrderScenario:
    """A parsed order file: the initial :class:`.state.OrderState`, the Order's declarations and dice, and texts."""

    title: str
    description: str
    initial: OrderState
    declarations: OrderDeclarations
    dice: OrderDice
    source: str = ""
    kind: ClassVar[str] = "order"
    """The scenario kind (:data:`explorer.games.tagraid.game.KINDS`)."""


def _point(board: Board, p, field: str, source: str) -> tuple[float, float]:
    if isinstance(p, str):
        return board.layout.hex_to_pixel(parse_hex_key(p, field, source))
    return (float(p[0]), float(p[1]))


def _move(board: Board, m: MoveEntry, field: str, source: str) -> MoveDecl:
    it = None if m.interact is None else Interaction(m.interact.target, m.interact.equip, tuple(m.interact.discard),
                                                  m.interact.slot)
    on = None if m.on is None else tuple(x or None for x in m.on)
    return MoveDecl(tuple(_point(board, p, f"{field}.route[{i}]", source) for i, p in enumerate(m.route)), m.facing,
                    it, on)


def tool_card(e: ToolCardEntry) -> ToolCard:
    """A Tool Deck card from its file entry."""
    w = None if e.weapon is None else weapon_card(e.weapon)
    return ToolCard(e.name, e.kind, w, e.teseum, e.t_bezoar, e.text)


def weapon_card(w: WeaponEntry) -> WeaponCard:
    ranges = None if w.range is None else WeaponRanges(w.range.short, w.range.mid, w.range.long, w.range.out_of_range)
    return WeaponCard(w.name, w.damage, w.burst, w.ammunition, w.kind, w.needs_lof, tuple(w.traits), tuple(w.states),
                      ranges)


def _place(board: Board, e, field: str, source: str) -> tuple[float, float]:
    """A token's centre from ``hex`` or ``x``/``y`` (exactly one of them)."""
    if (e.hex is not None and (e.x is not None or e.y is not None)) or (e.hex is None and (e.x is None
                                                                                         or e.y is None)):
        raise ScenarioError(field, "give either hex or both x and y", "hex = \"q,r\" or x = ..., y = ...", source)
    if e.hex is not None:
        return board.layout.hex_to_pixel(parse_hex_key(e.hex, f"{field}.hex", source))
    return (float(e.x), float(e.y))


def behavior_card(b: BehaviorEntry) -> BehaviorCard:
    """A MegaBeast Behavior card from its file entry."""
    attack = None if b.attack is None else tuple(b.attack.model_dump().items())
    return BehaviorCard(ThreatLevels(b.front, b.adjacent, b.opposite), b.angle_of_vision, b.moves, attack)


def megabeast_state(e: MegaBeastEntry, xy: tuple[float, float]) -> MegaBeastState:
    """The MegaBeast from its file entry, its base centre at ``xy`` (board units)."""
    return MegaBeastState(e.id, xy[0], xy[1], e.facing % 360.0, behavior_card(e.behavior), e.silhouette, e.wounds,
                          tuple(e.fury_tokens), e.hunting_trophy)


def _timeline(given, miners, source: str) -> tuple[str, ...]:
    """The Timeline: the ``timeline`` a file gives, or the sides in order of first appearance when it gives none.

    The Timeline is a line of every Mining Corporation, each once (Game Sequence › Timeline), so a given
    ``timeline`` must name each side that has Miners exactly once, and no other.

    Raises:
        ScenarioError: a side named twice, a side of a Miner left out, or a side no Miner has (field ``timeline``).
    """
    sides = list(dict.fromkeys(m.side for m in miners))
    if not given:
        return tuple(sides)
    allowed = f"every side of the Miners once, in Timeline order ({', '.join(repr(x) for x in sides)})"
    twice = [x for i, x in enumerate(given) if x in given[:i]]
    if twice:
        raise ScenarioError("timeline", f"names {twice[0]!r} twice", allowed, source)
    missing = [x for x in sides if x not in given]
    if missing:
        who = [m.id for m in miners if m.side == missing[0]]
        raise ScenarioError("timeline", f"leaves out {missing[0]!r}, the side of {', '.join(who)}: the Timeline lines "
                            "up every Mining Corporation (Game Sequence › Timeline)", allowed, source)
    extra = [x for x in given if x not in sides]
    if extra:
        raise ScenarioError("timeline", f"names {extra[0]!r}, a side no Miner has", allowed, source)
    return tuple(given)


def _tool_slots(m: MinerEntry, f: str, source: str) -> tuple[int, ...]:
    """The Slot of each of a Miner's Tool cards (Miner Card: Tool Slots, some with the Secured symbol): a card's
    ``slot``, or else the lowest Slot no card names; ``()`` when no card names one and no Slot is Secured (Slots 1,
    2, ... in order).

    Raises:
        ScenarioError: a Slot or Secured Slot above ``tool_slots``, named twice, or two cards in one Slot.
    """
    for j, n in enumerate(m.secured_slots):
        if n > m.tool_slots:
            raise ScenarioError(f"{f}.secured_slots[{j}]", f"Slot {n} is not on a card with "
                                f"{plural(m.tool_slots, 'Tool Slot')}", f"1 to {m.tool_slots}", source)
    if len(set(m.secured_slots)) != len(m.secured_slots):
        raise ScenarioError(f"{f}.secured_slots", "a Slot is named twice", "each Slot number once", source)
    named = [t.slot for t in m.tools if t.slot is not None]
    for j, t in enumerate(m.tools):
        if t.slot is not None and t.slot > m.tool_slots:
            raise ScenarioError(f"{f}.tools[{j}].slot", f"Slot {t.slot} is not on a card with "
                                f"{plural(m.tool_slots, 'Tool Slot')}", f"1 to {m.tool_slots}", source)
        if t.slot is not None and named.count(t.slot) > 1:
            raise ScenarioError(f"{f}.tools[{j}].slot", f"two Tool Cards in Slot {t.slot}",
                                "one card per Tool Slot", source)
    if not named and not m.secured_slots:
        return ()
    free = [n for n in range(1, m.tool_slots + 1) if n not in named]
    return tuple(t.slot if t.slot is not None else free.pop(0) for t in m.tools)


def _weapon_names_once(m, weapons, f: str, source: str) -> None:
    """A declaration names its Weapon (``weapon = "Rifle"``), so each Weapon a Miner carries (its Weapon cards,
    then the Weapons of the Tools in its Slots) has a name of its own: with two of one name, the second could never
    be declared and its profile was silently never used.

    Raises:
        ScenarioError: naming ``miners[i].weapons[j].name`` or ``miners[i].tools[k]``."""
    seen: set[str] = set()
    named = [(f"{f}.weapons[{j}].name", w.name) for j, w in enumerate(weapons)]
    named += [(f"{f}.tools[{k}]", c.weapon.name) for k, c in enumerate(tool_card(t) for t in m.tools)
              if c.weapon is not None]
    for field, name in named:
        if name in seen:
            raise ScenarioError(field, f"{m.id} already carries a Weapon named {name!r}",
                                "a name no other Weapon of this Miner has (a declaration names its Weapon)", source)
        seen.add(name)


def table_state(doc: TableFields, board: Board, megabeast: MegaBeastState | None, source: str,
                deploying: bool = False) -> OrderState:
    """The initial :class:`.state.OrderState` of an order or round file's table (no Order under way).
    ``deploying`` (match files): every Miner starts off the table, before Initial Deployment, and may have no
    position (its position, when given, is where it is deployed: :mod:`.deployment`).

    Raises:
        ScenarioError: an unknown ruling or reading, duplicate ids, a Miner placed both by hex and by x/y (or by
            neither), or a Model off the tiles or overlapping another (naming ``miners[i]`` or ``megabeast``), a
            ``timeline`` that does not line up every side of the Miners once.
    """
    known = {o.key: o for o in ALL_OPTIONS}
    for k, v in doc.rulings.items():
        if k not in known:
            raise ScenarioError(f"rulings.{toml_key(k)}", "unknown ruling option", sorted(known), source)
        if v not in known[k].readings:
            raise ScenarioError(f"rulings.{toml_key(k)}", f"unknown reading {v!r}", list(known[k].readings), source)
    miners = []
    seen: set[str] = set()
    for i, m in enumerate(doc.miners):
        f = f"miners[{i}]"
        if m.id in seen:
            raise ScenarioError(f"{f}.id", f"the id {m.id!r} is used twice", "a different id for every Miner", source)
        seen.add(m.id)
        unplaced = m.hex is None and m.x is None and m.y is None
        if (m.hex is not None and (m.x is not None or m.y is not None)) or (m.hex is None and (m.x is None
                                                                                         or m.y is None)) and not (
                deploying and unplaced):
            raise ScenarioError(f, "give either hex (with an optional offset) or both x and y",
                                "hex = \"q,r\" or x = ..., y = ...", source)
        if deploying and unplaced:
            x, y = 0.0, 0.0
        elif m.hex is not None:
            cx, cy = board.layout.hex_to_pixel(parse_hex_key(m.hex, f"{f}.hex", source))
            x, y = cx + m.offset[0], cy + m.offset[1]
        else:
            x, y = float(m.x), float(m.y)
        weapons = tuple(weapon_card(w) for w in m.weapons)
        _weapon_names_once(m, weapons, f, source)
        if len(m.tools) > m.tool_slots:
            raise ScenarioError(f"{f}.tools", f"{len(m.tools)} Tool Cards in {plural(m.tool_slots, 'Tool Slot')}",
                                f"at most tool_slots = {m.tool_slots}", source)
        slots = _tool_slots(m, f, source)
        miners.append(MinerState(m.id, m.side, x, y, m.facing % 360.0, m.silhouette, tuple(m.movement),
                                 m.close_combat, m.ranged_attack, m.evade, m.armor, m.wounds,
                                 m.max_wounds or m.wounds, m.orders, tuple(m.states), weapons, m.aro_without_lof,
                                 m.miner_type, m.scoring_zone, m.warehouse, True, tuple(tool_card(t) for t in m.tools),
                                 m.tool_slots, slots, tuple(sorted(m.secured_slots)), m.on))
        if deploying:
            miners[-1] = replace(miners[-1], on_table=False)
    if megabeast is not None and megabeast.id in seen:
        raise ScenarioError("megabeast.id", f"the id {megabeast.id!r} is a Miner's", "a name no Miner has", source)
    aps = []
    numbered: dict[int, int] = {}
    for i, ap in enumerate(doc.access_points):
        if ap.number in numbered:
            raise ScenarioError(f"access_points[{i}].number", f"Access Point {ap.number} is already "
                                f"access_points[{numbered[ap.number]}]: a d20 face names one Access Point",
                                f"a number from 1 to 20 no other Access Point has", source)
        numbered[ap.number] = i
        if (ap.hex is not None and (ap.x is not None or ap.y is not None)) or (ap.hex is None and (
                ap.x is None or ap.y is None)):
            raise ScenarioError(f"access_points[{i}]", "give either hex or both x and y", "hex = \"q,r\" or x, y",
                                source)
        aps.append((ap.number, board.layout.hex_to_pixel(parse_hex_key(ap.hex, f"access_points[{i}].hex", source))
                    if ap.hex is not None else (float(ap.x), float(ap.y))))
    timeline = _timeline(doc.timeline, miners, source)
    geo = TableGeometry(board, movement_segment=doc.movement_segment, access_points=tuple(aps),
                        token_radius=doc.token_radius,
                        range_calibration=RangeCalibration(doc.range.short, doc.range.mid, doc.range.long))
    containers, tokens, zones = _tokens(doc, board, seen | ({megabeast.id} if megabeast else set()), source)
    initial = OrderState(geo, tuple(sorted(miners, key=lambda m: timeline.index(m.side))), megabeast, timeline,
                         rulings=tuple(sorted(doc.rulings.items())), containers=containers, loot_tokens=tokens,
                         loot_zones=zones, tool_deck=tuple(tool_card(c) for c in doc.tool_deck),
                         container_draws=tuple((d.miner, d.container) for d in doc.drawn_this_round))
    try:
        geo.table(initial.models(), validate=True)
    except ScenarioError as e:
        fld = e.field
        if fld.startswith("models."):
            mid = fld.split(".")[1]
            idx = next((i for i, m in enumerate(doc.miners) if m.id == mid), None)
            fld = f"miners[{idx}]" + fld[len("models." + mid):] if idx is not None else "megabeast"
        raise ScenarioError(fld, e.problem, e.allowed, source) from None
    r = geo.token_radius
    for i, (tid, x, y) in enumerate(initial.tokens()):
        h = geo.hex_of(x, y)
        fld = (f"tool_containers[{i}]" if i < len(containers) else f"loot_tokens[{i - len(containers)}]")
        if h not in board or not board[h].tile:
            raise ScenarioError(fld, f"{tid} is not on a tile", "a hexagon with a tile", source)
        for m in initial.models():
            if math.dist((x, y), (m.x, m.y)) < r + geo.calibration.radius(m.silhouette) - 1e-6:
                raise ScenarioError(fld, f"{tid} is under {m.id}'s base", "a place no base covers", source)
    for i, d in enumerate(doc.drawn_this_round):
        if d.miner not in seen:
            raise ScenarioError(f"drawn_this_round[{i}].miner", f"no Miner {d.miner!r}", sorted(seen), source)
        if d.container not in [c.id for c in containers]:
            raise ScenarioError(f"drawn_this_round[{i}].container", f"no Tool Container {d.container!r}",
                                [c.id for c in containers] or "a tool_containers id", source)
    return initial


def _tokens(doc: TableFields, board: Board, taken: set[str], source: str):
    """Tool Containers, Loot Tokens (ids ``Loot <owner>``) and their owners' Loot Zones from the file."""
    containers = []
    ids = set(taken)
    for i, c in enumerate(doc.tool_containers):
        if c.id in ids:
            raise ScenarioError(f"tool_containers[{i}].id", f"the id {c.id!r} is used twice",
                                "a name no Miner, MegaBeast or other token has", source)
        ids.add(c.id)
        x, y = _place(board, c, f"tool_containers[{i}]", source)
        containers.append(ToolContainer(c.id, x, y))
    tokens, zones = [], []
    tags = {m.id for m in doc.miners if m.miner_type == "TAG"}
    for i, t in enumerate(doc.loot_tokens):
        f = f"loot_tokens[{i}]"
        if t.owner not in tags:
            raise ScenarioError(f"{f}.owner", f"{t.owner!r} is not a TAG of this table (only TAGs have a Loot Token)",
                                sorted(tags), source)
        if any(z.owner == t.owner for z in zones):
            raise ScenarioError(f"{f}.owner", f"{t.owner} has one Loot Token already", "one Loot Token per TAG",
                                source)
        x, y = _place(board, t, f, source)
        tokens.append(LootToken(f"Loot {t.owner}", t.owner, x, y))
        zones.append(LootZone(t.owner, t.units, tuple(tool_card(c) for c in t.cards)))
    return tuple(containers), tuple(tokens), tuple(zones)


def order_declarations(board: Board, o: OrderEntry, d: DiceEntry, seed: int, field: str,
                       source: str) -> tuple[OrderDeclarations, OrderDice]:
    """One Order's declarations and dice from its file entry (``field``: where it sits in the file, e.g. ``order``
    or ``orders[2]``, for messages about hexagon keys).

    Raises:
        ScenarioError: a malformed hexagon key in a route or Evade movement.
    """
    def _at(v):
        return None if v is None else (float(v) if isinstance(v, (int, float)) else (float(v[0]), float(v[1])))

    ff = o.second.fire_from
    second = SkillDecl(o.second.skill, o.second.weapon, tuple(AttackShare(t.target, t.burst) for t in o.second.targets),
                       _move(board, o.second.move, f"{field}.second.move", source) if o.second.move else None,
                       None if ff is None else (float(ff) if isinstance(ff, (int, float)) else (float(ff[0]),
                                                                                                 float(ff[1]))))
    decl = OrderDeclarations(
        o.active, _move(board, o.move, f"{field}.move", source), second,
        tuple(AroDecl(a.miner, a.skill, a.weapon, a.step, _at(a.fire_at)) for a in o.aros),
        tuple((k, _point(board, v, f"{field}.evade_moves.{toml_key(k)}", source)) for k, v in o.evade_moves.items()),
        _evade_on(o, field, source))
    dice = OrderDice(tuple((k, tuple(v)) for k, v in d.rolls.items()),
                     tuple((k, tuple(v)) for k, v in d.saves.items()), tuple(d.respawn), seed)
    return decl, dice


def _evade_on(o: OrderEntry, field: str, source: str) -> tuple[tuple[str, str | None], ...]:
    """The ``evade_on`` surfaces (``""`` the ground → ``None``); each names a Miner given an Evade movement.

    Raises:
        ScenarioError: a surface for a Miner without an ``evade_moves`` point."""
    for k in o.evade_on:
        if k not in o.evade_moves:
            raise ScenarioError(f"{field}.evade_on.{toml_key(k)}", f"{k} has no Evade movement point",
                                "a Miner named in evade_moves", source)
    return tuple((k, v or None) for k, v in o.evade_on.items())


def parse_order(data: Mapping[str, Any], source: str) -> OrderScenario:
    """Validate an order file (a dict, e.g. parsed TOML without its ``game`` key).

    Raises:
        ScenarioError: naming the field path and what is allowed (unknown fields, bounds, an unknown board, a Miner
            placed off the tiles or overlapping, duplicate ids, an unknown ruling).
    """
    doc = validate(OrderFile, data, source)
    board = board_from_ref(doc.board, source)
    mb = None
    if doc.megabeast is not None:
        mb = megabeast_state(doc.megabeast, board.layout.hex_to_pixel(
            parse_hex_key(doc.megabeast.hex, "megabeast.hex", source)))
    initial = table_state(doc, board, mb, source)
    decl, dice = order_declarations(board, doc.order, doc.dice, doc.seed, "order", source)
    return OrderScenario(doc.title, doc.description, initial, decl, dice, source)


def _rounded(p) -> tuple[float, float]:
    return (round(p[0], 6), round(p[1], 6))


def _counted_as_idle(frames: tuple[Frame, ...], res) -> tuple[tuple[str, str], ...]:
    """``((miner, Skill declared), ...)`` of every Skill that failed its Requirements at Resolution and counted as Idle
    (Order Expenditure Sequence, step 5): those the Board checks turned to Idle before the roll exchange (a Weapon of
    the wrong kind, no LoF from the firing point; their steps carry ``declared`` and ``skill = "idle"``), then those
    the roll exchange found failing (Silhouette Contact at activation, ...), each Miner once."""
    found: dict[str, str] = {}
    for f in frames:
        for s in f.steps:
            fx = s.facts
            if (s.section.startswith("5 Resolution") and fx.get("skill") == "idle" and "miner" in fx
                    and fx.get("declared") not in (None, "idle", "none")):
                found.setdefault(fx["miner"], fx["declared"])
    for n, r in (res.miners.items() if res is not None else ()):
        if r.skill == "idle" and r.declared not in ("idle", "none"):
            found.setdefault(n, r.declared)
    return tuple(found.items())


def order_result(frames: tuple[Frame, ...]) -> OrderOutcome:
    """The typed outcome of a played Order (:class:`.outcomes.OrderOutcome`): ARO rights (step and reason), AROs
    declared, the roll exchange (its typed outcome, and, lifted from it so the summary reads the trace's own numbers,
    its rolls, Saving Rolls and Wounds lost), Wounds / States / positions after the Order, States entered at the End
    of the Order, Evade movements made and dropped, deaths, Neomaterials gained (by side), Tools and Loot, and the
    MegaBeast's facing and move."""
    first, last = frames[0].state, frames[-1].state
    res = last.resolution
    roll = res.outcome if res is not None else None
    saves, failed, wounds = ({}, {}, {}) if res is None else roll_numbers(res)[:3]
    mb = last.megabeast
    aros = {**{m: d.skill for m, d in last.aros},
            **({mb.id: "behavior"} if mb is not None and last.right_of(mb.id) is not None else {})}
    tools = tuple((m.id, tuple(t.name for t in m.tools)) for m in last.miners if m.tools)
    zones = tuple(LootZoneLine(z.owner, z.units, tuple(c.name for c in z.cards)) for z in last.loot_zones
                  if z.units or z.cards)
    return OrderOutcome(
        active=last.active,
        aro_rights=tuple(AroRightLine(r.miner, r.step, r.reason, r.evade_only) for r in last.rights),
        aros=tuple(aros.items()),
        roll=roll,
        pairs=tuple(PairLine(p.active, p.opponent, p.kind, p.winner) for p in (res.pairs if res is not None else ())),
        saving_rolls=tuple(dict(saves).items()), failed_saves=tuple(dict(failed).items()),
        wounds_lost=tuple((k, v) for k, v in dict(wounds).items() if v),
        miners=tuple(MinerAfter(m.id, m.wounds, tuple(m.states), m.orders, m.on_table, _rounded((m.x, m.y)),
                                m.scoring_zone, m.on) for m in last.miners),
        states_entered=tuple(last.states_entered),
        evade_moved=tuple((m, _rounded(p)) for m, p in last.evade_moved),
        evade_dropped=tuple(last.evade_dropped),
        evade_allowed=tuple(sorted(res.evade_moves)) if res is not None else (),
        counted_as_idle=_counted_as_idle(frames, res),
        dead=tuple(last.dead),
        teseum=tuple((k, v) for k, v in last.teseum if v), t_bezoar=tuple((k, v) for k, v in last.t_bezoar if v),
        # Tool Containers and Loot: only when the table has any (the outcome of other Orders is unchanged)
        interactions=tuple(last.interactions) if last.interactions else None,
        tools=tools if tools or any(m.tools for m in first.miners) else None,
        loot_tokens=(tuple(LootTokenLine(t.id, t.owner, _rounded((t.x, t.y))) for t in last.loot_tokens)
                     if last.loot_tokens or first.loot_tokens else None),
        loot_zones=zones if zones or any(z.units or z.cards for z in first.loot_zones) else None,
        megabeast=None if mb is None else MegaBeastAfter(
            mb.wounds, mb.facing, first.megabeast.facing, last.megabeast_facing_before,
            bool(res is not None and res.megabeast is not None and res.megabeast.killed),
            (_rounded(last.megabeast_moved[0]), _rounded(last.megabeast_moved[1])) if last.megabeast_moved
            else None))


def outcome(frames: tuple[Frame, ...]) -> dict[str, Any]:
    """The JSON answer of a played Order: :func:`order_result` as JSON."""
    return order_result(frames).to_json()


def order_outcome_text(o: OrderOutcome) -> str:
    """The plain-text summary of a played Order (``trace.result`` of :func:`resolve_order`):
    :meth:`.outcomes.OrderOutcome.text`."""
    return o.text()


@contextmanager
def errors_name(source: str):
    """Within the block, a refusal (:class:`~explorer.errors.RuleViolation`) or a :class:`ScenarioError` that names no file is
    raised again naming ``source`` (the order or round file being played); one that names its file passes as is."""
    try:
        yield
    except RuleViolation as e:
        if e.source is not None:
            raise
        raise RuleViolation.of(e.rejection, source) from None
    except ScenarioError as e:
        if e.source is not None:
            raise
        raise ScenarioError(e.field, e.problem, e.allowed, source) from None


def resolve_order(scenario: OrderScenario, rulings: Mapping[str, str] | None = None,
                  seed: int | None = None, reroll: bool = False) -> Trace:
    """Play the whole Order and return its cited Trace (sections by sequence step; ``result`` from
    :func:`order_result`).

    ``rulings`` override the file's; ``seed`` replaces the file's seed for dice not given; ``reroll`` ignores the
    file's fixed dice (every die is rolled from the seed).

    Raises:
        RuleViolation: a declaration the rules refuse (names the field, the reason and the section).
    """
    from dataclasses import replace

    initial, dice = scenario.initial, scenario.dice
    if reroll:
        dice = replace(dice, rolls=(), saves=(), respawn=())
    if rulings:
        initial = replace(initial, rulings=tuple(sorted({**dict(initial.rulings), **dict(rulings)}.items())))
    if seed is not None:
        dice = replace(dice, seed=seed)
    with errors_name(scenario.source or scenario.title):
        frames = play(initial, scenario.declarations, dice)
    return trace_of(scenario.title, frames).with_result(order_result(frames))
