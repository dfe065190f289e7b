"""Order files: ``kind = "order"`` TAG Raid scenarios — a table, the Miners' cards, and one Order's declarations.

Sections: as :mod:`.sequence` (the whole Order Expenditure Sequence). Format (TOML)::

    game = "tagraid"
    kind = "order"
    title = "..."; description = "..."; seed = 1
    board = "small"                      # a packaged board, or an inline [board] table (explorer/boards format)
    movement_segment = 1.732             # optional: board units per Movement Ruler Segment
    timeline = ["blue", "red"]           # optional: sides in Timeline order (default: order of first appearance)
    [rulings]                            # optional: ruling option readings
    [[miners]]                           # placement (as in table files) plus the Miner card
    id = "A"; side = "blue"; hex = "0,0"; offset = [0.0, 0.0]  # or x = ..., y = ...
    facing = 0.0; silhouette = 7
    movement = [3, 2]; close_combat = 12; ranged_attack = 13; evade = 12; armor = 4; wounds = 3; orders = 2
    states = []; aro_without_lof = false; miner_type = "TAG"; scoring_zone = 0; warehouse = 0
    [[miners.weapons]]
    name = "Rifle"; damage = 13; burst = 3; ammunition = "N"; kind = "ranged"; needs_lof = true; states = []
    [megabeast]                          # optional
    id = "Stoorworm"; hex = "0,0"; facing = 90.0; silhouette = 10; wounds = 10; fury_tokens = []; hunting_trophy = 3
    behavior = { front = 16, adjacent = 13, opposite = 10, angle_of_vision = 180.0, moves = false,
                 attack = { name = "Bite", damage = 14, ammunition = "N" } }
    [[access_points]]                    # optional (Respawn)
    number = 1; hex = "2,0"              # or x, y
    [order]
    active = "A"
    move = { route = [[1.0, 0.5], "1,0"], facing = 90.0 }   # points (x, y) or hexagon keys (their centres)
    second = { skill = "ranged_attack", weapon = "Rifle", targets = [{ target = "R", burst = 3 }] }
    aros = [{ miner = "R", skill = "ranged_attack", weapon = "Rifle", step = 4 }]
    evade_moves = { X = [1.5, 0.2] }     # wished for; dropped with a cited step if the Evade Roll forbids it
    [dice]                               # optional fixed dice; the rest are rolled from seed
    rolls = { A = [4, 11, 16], R = [9] }
    saves = { R = [3, 17] }
    respawn = [7]

Errors: a one-line :class:`~explorer.errors.ScenarioError` naming the field and what is allowed; a declaration the
rules refuse is an :class:`.declarations.IllegalDeclaration` (a ScenarioError) naming the declaration's field.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from explorer.board import MAX_HEX_KEY_CHARS, Board, Coordinate, Label, parse_hex_key
from explorer.errors import ScenarioError
from explorer.scenario import validate
from explorer.trace import Trace

from ..megabeast import ThreatLevels
from ..model import MAX_DESCRIPTION, MAX_TITLE, Name, Rulings
from ..options import ALL_OPTIONS
from ..table_file import board_from_ref
from .declarations import (AroDecl, AttackShare, IllegalDeclaration, MoveDecl, OrderDeclarations, OrderDice,
                           SkillDecl)
from .sequence import Frame, play, trace_of
from .state import (DEFAULT_MOVEMENT_SEGMENT, BehaviorCard, MegaBeastState, MinerState, OrderState, TableGeometry,
                    WeaponCard)

MAX_MINERS = 24
"""Miners in one order file (a TAG Raid table has one TAG per player, up to a handful of players)."""
MAX_ROUTE = 32
"""Points in one Move route."""
MAX_WEAPONS = 8
MAX_ACCESS_POINTS = 20
MAX_DICE = 60


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


HexKey = Annotated[str, Field(max_length=MAX_HEX_KEY_CHARS)]
RoutePoint = HexKey | tuple[Coordinate, Coordinate]
Face = Annotated[int, Field(ge=1, le=20)]
StateName = Literal["Slowed"]


class WeaponEntry(_Strict):
    name: Name
    damage: int = Field(ge=0, le=30)
    burst: int = Field(default=1, ge=0, le=20)
    ammunition: Literal["N", "DA", "EXP", "AP"] = "N"
    kind: Literal["ranged", "close_combat"] = "ranged"
    needs_lof: bool = True
    traits: list[Literal["Armor = 0", "Ranged Attack -3"]] = Field(default_factory=list, max_length=8)
    states: list[StateName] = Field(default_factory=list, max_length=1)


class MinerEntry(_Strict):
    id: Name
    side: Name
    hex: HexKey | None = None
    offset: tuple[Coordinate, Coordinate] = (0.0, 0.0)
    x: Coordinate | None = None
    y: Coordinate | None = None
    facing: float = Field(default=0.0, ge=-3600.0, le=3600.0, allow_inf_nan=False)
    silhouette: int = Field(default=7, ge=1, le=20)
    movement: tuple[Annotated[int, Field(ge=0, le=10)], Annotated[int, Field(ge=0, le=10)]] = (3, 2)
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


class BehaviorAttackEntry(_Strict):
    name: Name = "Behavior Attack"
    damage: int = Field(ge=0, le=30)
    ammunition: Literal["N", "DA", "EXP", "AP"] = "N"
    hits: int = Field(default=1, ge=0, le=10)
    ranged: bool = False
    states: list[StateName] = Field(default_factory=list, max_length=1)


class BehaviorEntry(_Strict):
    front: int = Field(ge=0, le=20)
    adjacent: int = Field(ge=0, le=20)
    opposite: int = Field(ge=0, le=20)
    angle_of_vision: float | None = Field(default=180.0, gt=0, le=360)
    moves: bool = False
    attack: BehaviorAttackEntry | None = None


class MegaBeastEntry(_Strict):
    id: Name = "MegaBeast"
    hex: HexKey
    facing: float = Field(default=30.0, ge=-3600.0, le=3600.0, allow_inf_nan=False)
    silhouette: int = Field(default=10, ge=1, le=20)
    wounds: int = Field(ge=1, le=50)
    fury_tokens: list[Annotated[int, Field(ge=1, le=50)]] = Field(default_factory=list, max_length=50)
    hunting_trophy: int = Field(default=3, ge=0, le=3)
    behavior: BehaviorEntry


class AccessPointEntry(_Strict):
    number: int = Field(ge=1, le=20)
    hex: HexKey | None = None
    x: Coordinate | None = None
    y: Coordinate | None = None


class MoveEntry(_Strict):
    route: list[RoutePoint] = Field(default_factory=list, max_length=MAX_ROUTE)
    facing: float | None = Field(default=None, ge=-3600.0, le=3600.0, allow_inf_nan=False)


class ShareEntry(_Strict):
    target: Name
    burst: int | None = Field(default=None, ge=0, le=20)


class SecondEntry(_Strict):
    skill: Literal["move", "ranged_attack", "close_combat_attack", "evade", "idle"]
    weapon: Name | None = None
    targets: list[ShareEntry] = Field(default_factory=list, max_length=MAX_MINERS + 1)
    move: MoveEntry | None = None


class AroEntry(_Strict):
    miner: Name
    skill: Literal["ranged_attack", "close_combat_attack", "evade", "idle", "none"]
    weapon: Name | None = None
    step: Literal[2, 4] | None = None


class OrderEntry(_Strict):
    active: Name
    move: MoveEntry = Field(default_factory=MoveEntry)
    second: SecondEntry = Field(default_factory=lambda: SecondEntry(skill="idle"))
    aros: list[AroEntry] = Field(default_factory=list, max_length=MAX_MINERS + 1)
    evade_moves: dict[Name, tuple[Coordinate, Coordinate] | HexKey] = Field(default_factory=dict,
                                                                            max_length=MAX_MINERS)


DiceList = Annotated[list[Face], Field(max_length=MAX_DICE)]


class DiceEntry(_Strict):
    rolls: dict[Name, DiceList] = Field(default_factory=dict, max_length=MAX_MINERS + 1)
    saves: dict[Name, DiceList] = Field(default_factory=dict, max_length=MAX_MINERS + 1)
    respawn: DiceList = Field(default_factory=list)


class OrderFile(_Strict):
    kind: Literal["order"]
    title: str = Field(default="Order", max_length=MAX_TITLE)
    description: str = Field(default="", max_length=MAX_DESCRIPTION)
    seed: int = Field(default=0, ge=0, le=2**63 - 1)
    board: Label | dict[str, Any]
    movement_segment: float = Field(default=DEFAULT_MOVEMENT_SEGMENT, gt=0, le=100, allow_inf_nan=False)
    timeline: list[Name] = Field(default_factory=list, max_length=MAX_MINERS)
    rulings: Rulings = Field(default_factory=dict)
    miners: list[MinerEntry] = Field(min_length=1, max_length=MAX_MINERS)
    megabeast: MegaBeastEntry | None = None
    access_points: list[AccessPointEntry] = Field(default_factory=list, max_length=MAX_ACCESS_POINTS)
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


def _point(board: Board, p, field: str, source: str) -> tuple[float, float]:
    if isinstance(p, str):
        return board.layout.hex_to_pixel(parse_hex_key(p, field, source))
    return (float(p[0]), float(p[1]))


def _move(board: Board, m: MoveEntry, field: str, source: str) -> MoveDecl:
    return MoveDecl(tuple(_point(board, p, f"{field}.route[{i}]", source) for i, p in enumerate(m.route)), m.facing)


def parse_order(data: Mapping[str, Any], source: str) -> OrderScenario:
    """Validate an order file (a dict, e.g. parsed TOML without its ``game`` key).

    Raises:
        ScenarioError: naming the field path and what is allowed (unknown fields, bounds, an unknown board, a Miner
            placed off the tiles or overlapping, duplicate ids, an unknown ruling).
    """
    doc = validate(OrderFile, data, source)
    board = board_from_ref(doc.board, source)
    known = {o.key: o for o in ALL_OPTIONS}
    for k, v in doc.rulings.items():
        if k not in known:
            raise ScenarioError(f"rulings.{k}", "unknown ruling option", sorted(known), source)
        if v not in known[k].readings:
            raise ScenarioError(f"rulings.{k}", f"unknown reading {v!r}", list(known[k].readings), source)
    miners = []
    seen: set[str] = set()
    for i, m in enumerate(doc.miners):
        f = f"miners[{i}]"
        if m.id in seen:
            raise ScenarioError(f"{f}.id", f"the id {m.id!r} is used twice", "a different id for every Miner", source)
        seen.add(m.id)
        if (m.hex is not None and (m.x is not None or m.y is not None)) or (m.hex is None and (m.x is None
                                                                                         or m.y is None)):
            raise ScenarioError(f, "give either hex (with an optional offset) or both x and y",
                                "hex = \"q,r\" or x = ..., y = ...", source)
        if m.hex is not None:
            cx, cy = board.layout.hex_to_pixel(parse_hex_key(m.hex, f"{f}.hex", source))
            x, y = cx + m.offset[0], cy + m.offset[1]
        else:
            x, y = float(m.x), float(m.y)
        weapons = tuple(WeaponCard(w.name, w.damage, w.burst, w.ammunition, w.kind, w.needs_lof, tuple(w.traits),
                                   tuple(w.states)) for w in m.weapons)
        miners.append(MinerState(m.id, m.side, x, y, m.facing % 360.0, m.silhouette, tuple(m.movement),
                                 m.close_combat, m.ranged_attack, m.evade, m.armor, m.wounds,
                                 m.max_wounds or m.wounds, m.orders, tuple(m.states), weapons, m.aro_without_lof,
                                 m.miner_type, m.scoring_zone, m.warehouse))
    mb = None
    if doc.megabeast is not None:
        e = doc.megabeast
        if e.id in seen:
            raise ScenarioError("megabeast.id", f"the id {e.id!r} is a Miner's", "a name no Miner has", source)
        cx, cy = board.layout.hex_to_pixel(parse_hex_key(e.hex, "megabeast.hex", source))
        b = e.behavior
        attack = None if b.attack is None else tuple(b.attack.model_dump().items())
        mb = MegaBeastState(e.id, cx, cy, e.facing % 360.0,
                            BehaviorCard(ThreatLevels(b.front, b.adjacent, b.opposite), b.angle_of_vision, b.moves,
                                         attack), e.silhouette, e.wounds, tuple(e.fury_tokens), e.hunting_trophy)
    aps = []
    for i, ap in enumerate(doc.access_points):
        if (ap.hex is not None and (ap.x is not None or ap.y is not None)) or (ap.hex is None and (
                ap.x is None or ap.y is None)):
            raise ScenarioError(f"access_points[{i}]", "give either hex or both x and y", "hex = \"q,r\" or x, y",
                                source)
        aps.append((ap.number, board.layout.hex_to_pixel(parse_hex_key(ap.hex, f"access_points[{i}].hex", source))
                    if ap.hex is not None else (float(ap.x), float(ap.y))))
    sides = list(doc.timeline) + [m.side for m in miners if m.side not in doc.timeline]
    timeline = tuple(dict.fromkeys(sides))
    geo = TableGeometry(board, movement_segment=doc.movement_segment, access_points=tuple(aps))
    initial = OrderState(geo, tuple(sorted(miners, key=lambda m: timeline.index(m.side))), mb, timeline,
                         rulings=tuple(sorted(doc.rulings.items())))
    try:
        geo.table(initial.models(), validate=True)
    except ScenarioError as e:
        fld = e.field
        if fld.startswith("models."):
            mid = fld.split(".")[1]
            idx = next((i for i, m in enumerate(doc.miners) if m.id == mid), None)
            fld = f"miners[{idx}]" + fld[len("models." + mid):] if idx is not None else "megabeast"
        raise ScenarioError(fld, e.problem, e.allowed, source) from None
    o = doc.order
    second = SkillDecl(o.second.skill, o.second.weapon, tuple(AttackShare(t.target, t.burst) for t in o.second.targets),
                       _move(board, o.second.move, "order.second.move", source) if o.second.move else None)
    decl = OrderDeclarations(
        o.active, _move(board, o.move, "order.move", source), second,
        tuple(AroDecl(a.miner, a.skill, a.weapon, a.step) for a in o.aros),
        tuple((k, _point(board, v, f"order.evade_moves.{k}", source)) for k, v in o.evade_moves.items()))
    dice = OrderDice(tuple((k, tuple(v)) for k, v in doc.dice.rolls.items()),
                     tuple((k, tuple(v)) for k, v in doc.dice.saves.items()), tuple(doc.dice.respawn), doc.seed)
    return OrderScenario(doc.title, doc.description, initial, decl, dice, source)


def outcome(frames: tuple[Frame, ...]) -> dict[str, Any]:
    """The JSON answer of a played Order: ARO rights (step and reason), AROs declared, the roll exchange's outcome
    (``roll``; and, lifted from it so the summary reads the trace's own numbers, ``pairs``, ``saving_rolls``,
    ``failed_saves``, ``wounds_lost``), Wounds / States / positions after the Order, ``states_entered`` at the End of
    the Order, Evade movements made and dropped, deaths, Neomaterials gained (by side) and the MegaBeast's facing and
    move."""
    last = frames[-1].state
    res = last.resolution
    roll = res.trace.outcome if res is not None else None
    out: dict[str, Any] = {
        "active": last.active,
        "aro_rights": {r.miner: {"step": r.step, "reason": r.reason, "evade_only": r.evade_only}
                       for r in last.rights},
        "aros": {**{m: d.skill for m, d in last.aros},
                 **({last.megabeast.id: "behavior"} if last.megabeast is not None
                    and last.right_of(last.megabeast.id) is not None else {})},
        "roll": roll,
        "pairs": list((roll or {}).get("pairs", [])),
        "saving_rolls": dict((roll or {}).get("saving_rolls", {})),
        "failed_saves": dict((roll or {}).get("failed_saves", {})),
        "wounds_lost": {k: v for k, v in (roll or {}).get("wounds", {}).items() if v},
        "miners": {m.id: {"wounds": m.wounds, "states": list(m.states), "orders": m.orders, "on_table": m.on_table,
                          "position": [round(m.x, 6), round(m.y, 6)], "scoring_zone": m.scoring_zone}
                   for m in last.miners},
        "states_entered": [[m, st] for m, st in last.states_entered],
        "evade_moved": {m: [round(p[0], 6), round(p[1], 6)] for m, p in last.evade_moved},
        "evade_dropped": dict(last.evade_dropped),
        "evade_allowed": sorted(res.evade_moves) if res is not None else [],
        "counted_as_idle": {n: r.declared for n, r in (res.miners.items() if res is not None else ())
                            if r.skill == "idle" and r.declared not in ("idle", "none")},
        "dead": list(last.dead),
        "teseum": {k: v for k, v in last.teseum if v}, "t_bezoar": {k: v for k, v in last.t_bezoar if v},
    }
    if last.megabeast is not None:
        mb = last.megabeast
        start = frames[0].state.megabeast
        out["megabeast"] = {"wounds": mb.wounds, "facing": mb.facing, "facing_at_start": start.facing,
                            "facing_before": last.megabeast_facing_before,
                            "killed": bool(res is not None and res.megabeast is not None and res.megabeast.killed),
                            "moved": ([list(map(lambda v: round(v, 6), p)) for p in last.megabeast_moved]
                                      if last.megabeast_moved else None)}
    return out


def order_outcome_text(o: Mapping[str, Any]) -> str:
    """The plain-text summary of a played Order (``trace.outcome`` of :func:`resolve_order`), built only from the
    numbers the trace reports: ARO rights and AROs, the winner of every Face to Face / Normal Roll, Saving Rolls,
    Wounds lost, States entered, Evade movements (made, not taken, dropped), deaths, Teseum / T-Bezoar, and the
    MegaBeast's move and facing."""
    lines = ["Outcome:"]
    rights = o.get("aro_rights", {})
    lines.append("  ARO rights: " + (", ".join(f"{m} (step {r['step']}, {r['reason'].replace('_', ' ')}"
                                              + (", Evade only" if r.get("evade_only") else "") + ")"
                                              for m, r in rights.items()) or "none"))
    aros = {m: s for m, s in o.get("aros", {}).items()}
    if aros:
        lines.append("  AROs declared: " + ", ".join(f"{m} {s.replace('_', ' ')}" for m, s in aros.items()))
    for m, declared in o.get("counted_as_idle", {}).items():
        lines.append(f"  {m}'s {declared.replace('_', ' ')} fails its Requirements at Resolution: counted as Idle")
    for p in o.get("pairs", []):
        other = p.get("reactive") or p.get("megabeast")
        who = f"{p['active']} vs {other}" if other else p["active"]
        lines.append(f"  - {who}: {p['kind'].replace('_', ' ')}, winner {p.get('winner') or 'none'}")
    if not o.get("pairs") and o.get("roll") is not None:
        lines.append("  No roll: no Skill of this Order or its AROs needed one")
    saves = {k: v for k, v in o.get("saving_rolls", {}).items() if v}
    if saves:
        fails = o.get("failed_saves", {})
        lines.append("  Saving Rolls: " + ", ".join(f"{k} {v} ({fails.get(k, 0)} failed)" for k, v in saves.items()))
    lost = o.get("wounds_lost", {})
    lines.append("  Wounds lost: " + (", ".join(f"{k} {v}" for k, v in lost.items()) or "none"))
    if o.get("states_entered"):
        lines.append("  States entered at the End of the Order: "
                     + ", ".join(f"{m} {st}" for m, st in o["states_entered"]))
    moved = o.get("evade_moved", {})
    for m in o.get("evade_allowed", []):
        lines.append(f"  Evade movement: {m} " + ("moves one Segment" if m in moved else
                                                  "may move one Segment and stays"))
    for m, why in o.get("evade_dropped", {}).items():
        lines.append(f"  Evade movement: {m}'s declared move is dropped: {why}")
    if o.get("dead"):
        lines.append("  Dead: " + ", ".join(o["dead"]))
    gains = [f"{k} +{v} Teseum" for k, v in o.get("teseum", {}).items() if v]
    gains += [f"{k} +{v} T-Bezoar" for k, v in o.get("t_bezoar", {}).items() if v]
    lines.append("  Neomaterials: " + (", ".join(gains) or "none gained"))
    mb = o.get("megabeast")
    if mb:
        parts = [f"{mb['wounds']} Wounds left" + (" (killed)" if mb.get("killed") else "")]
        if mb.get("moved"):
            parts.append(f"moved from ({mb['moved'][0][0]:.2f}, {mb['moved'][0][1]:.2f}) to "
                         f"({mb['moved'][1][0]:.2f}, {mb['moved'][1][1]:.2f})")
        if mb.get("facing_at_start", mb["facing"]) != mb["facing"]:
            why = ("redirected at Conclusion" if mb.get("facing_before") is not None else "turned by its move")
            parts.append(f"facing {mb['facing_at_start']:g}° -> {mb['facing']:g}° ({why})")
        else:
            parts.append(f"facing {mb['facing']:g}° (unchanged)")
        lines.append("  MegaBeast: " + ", ".join(parts))
    return "\n".join(lines)


def resolve_order(scenario: OrderScenario, rulings: Mapping[str, str] | None = None,
                  seed: int | None = None) -> Trace:
    """Play the whole Order and return its cited Trace (sections by sequence step; ``outcome`` from :func:`outcome`).

    ``rulings`` override the file's; ``seed`` replaces the file's seed for dice not given.

    Raises:
        IllegalDeclaration: a declaration the rules refuse (names the field, the reason and the section).
    """
    from dataclasses import replace

    initial, dice = scenario.initial, scenario.dice
    if rulings:
        initial = replace(initial, rulings=tuple(sorted({**dict(initial.rulings), **dict(rulings)}.items())))
    if seed is not None:
        dice = replace(dice, seed=seed)
    try:
        frames = play(initial, scenario.declarations, dice)
    except IllegalDeclaration as e:
        if e.source is not None:
            raise
        raise IllegalDeclaration(e.rejection, scenario.source or scenario.title) from None
    except ScenarioError as e:
        if e.source is not None:
            raise
        raise ScenarioError(e.field, e.problem, e.allowed, scenario.source or scenario.title) from None
    t = trace_of(scenario.title, frames)
    t.outcome = outcome(frames)
    return t
