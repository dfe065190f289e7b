"""Game state of a TAG Raid table as pure, immutable values (frozen dataclasses and tuples).

Sections: Miner Card › Attributes (Movement with its two values, Close Combat Attack, Ranged Attack, Evade, Armor,
Wounds, Silhouette); Activating a Miner (Orders: each belongs to one Miner; TAGs have 2); Skills and Tools › Tools
(Weapon cards, Traits, whether a Tool needs LoF); States (one Token per State); Prospecting Control Panel (Scoring
Zone, Warehouse); Game Sequence › Timeline; Respawn (Access Points).

Nothing here changes in place: every step of the Order Expenditure Sequence returns a new :class:`OrderState`
(``dataclasses.replace``), so replaying the same declarations from the same initial state gives an equal state.
Positions are board units of the hex layout (a hexagon measures 1 from centre to corner); facings are degrees.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, replace
from typing import Any

from explorer.errors import ScenarioError, short_repr
from explorer.hexgrid import Hex

from ..lof import TableTop
from ..megabeast import ThreatLevels
from ..pieces import DEFAULT_CALIBRATION, Model, SilhouetteCalibration
from ..ranges import DEFAULT_RANGE_CALIBRATION, RangeCalibration, WeaponRanges

DEFAULT_MOVEMENT_SEGMENT = math.sqrt(3.0)
"""Length of one Movement Ruler Segment in board units (hex units). The rulebook prints the ruler but gives no
length in hexagons; this documented, editable default is one hexagon across its flats (the distance between the
centres of two neighbouring hexagons), so a Movement of 3 crosses about three hexagons. Order files may set
``movement_segment``."""


@dataclass(frozen=True)
class WeaponCard:
    """A Weapon (Tool) card (Skills and Tools › Tools, Ammunition, Traits).

    ``kind``: ``"ranged"`` (has Range MODs, uses Ranged Attack) or ``"close_combat"`` (uses Close Combat Attack);
    ``needs_lof``: the Tool carries the LoF symbol (a Ranged Attack with it requires LoF to the target: Common
    Skills › Ranged Attack, Requirements; without it its targets get no Partial Cover, ruling
    ``partial_cover_glyph``); ``states``: States its impacts cause (Traits); ``ranges``: its Range MODs per Range
    Ruler Segment (:class:`~explorer.games.tagraid.ranges.WeaponRanges`; ``None``: the card's MODs are not given, so
    the Range is not measured and no Range MOD applies, as before Range was built into Orders)."""

    name: str
    damage: int
    burst: int = 1
    ammunition: str = "N"
    kind: str = "ranged"
    needs_lof: bool = True
    traits: tuple[str, ...] = ()
    states: tuple[str, ...] = ()
    ranges: WeaponRanges | None = None


DEFAULT_TOOL_SLOTS = 2
"""Tool Slots on a Miner card. The rulebook shows the Slots on the card but prints no number for them; this
documented, editable default is two (order and round files may set ``tool_slots`` per Miner)."""

DEFAULT_TOKEN_RADIUS = 0.25
"""Radius of a Tool Container or Loot Token in board units. The rulebook gives no token size; this documented,
editable default is a quarter of a hexagon (order and round files may set ``token_radius``)."""


@dataclass(frozen=True)
class ToolCard:
    """A card of the Tool Deck (Tool Containers and Loot), as data: ``kind`` ``"tool"`` (equipped in a free Tool
    Slot; ``weapon`` when it is a Weapon) or ``"other"`` (its instructions, ``text``, are followed: not executed
    here); ``teseum`` / ``t_bezoar``: Neomaterial Units it grants, added to the Scoring Zone when drawn."""

    name: str
    kind: str = "tool"
    weapon: WeaponCard | None = None
    teseum: int = 0
    t_bezoar: int = 0
    text: str = ""


@dataclass(frozen=True)
class ToolContainer:
    """A Tool Container on the table (Tool Containers and Loot): its id and centre (board units)."""

    id: str
    x: float
    y: float


@dataclass(frozen=True)
class LootToken:
    """A TAG's Loot Token on the table (Tool Containers and Loot › Loot): its id, the TAG it belongs to (``owner``)
    and its centre (board units). What it holds is its owner's :class:`LootZone`."""

    id: str
    owner: str
    x: float
    y: float


@dataclass(frozen=True)
class LootZone:
    """A TAG's Loot Zone on the Prospecting Control Panel: the Neomaterial Units (Teseum or T-Bezoar) and the Tool
    cards it holds."""

    owner: str
    units: int = 0
    cards: tuple[ToolCard, ...] = ()


@dataclass(frozen=True)
class MinerState:
    """One Miner on the table (Miner Card; Activating a Miner; States).

    Attributes:
        id: the Miner's name (unique). side: its player (Mining Corporation); Miners of different sides are enemies.
        x, y: base centre (board units); facing: degrees; silhouette: Silhouette value.
        movement: the two Movement values in Segments (first Move of the Order, second Move).
        close_combat, ranged_attack, evade, armor: Attributes. wounds: Wounds left; max_wounds: the card's value.
        orders: Orders left this Round (TAGs have 2). states: State names held (one Token per State).
        weapons: Weapon cards carried. aro_without_lof: it has a Skill that allows an ARO without LoF.
        miner_type: ``"TAG"`` or another Prospecting Crew member (MegaBeasts only gain AROs from TAGs).
        scoring_zone, warehouse: Neomaterial Units its player holds (Prospecting Control Panel).
        on_table: ``False`` between Death and Respawn.
        tools: Tool cards in its Tool Slots (a Tool that is a Weapon can be used as one); tool_slots: how many.
        tool_slot_numbers: the Slot (1 .. ``tool_slots``) each card of ``tools`` sits in, in the same order
            (empty: Slots 1, 2, ... in order). secured_slots: the Slots that carry the Secured symbol (Miner Card ›
            Additional Information: their cards are neither lost nor placed in the Loot Zone on Death).
    """

    id: str
    side: str
    x: float
    y: float
    facing: float = 0.0
    silhouette: int = 7
    movement: tuple[int, int] = (3, 2)
    close_combat: int = 12
    ranged_attack: int = 12
    evade: int = 12
    armor: int = 4
    wounds: int = 3
    max_wounds: int = 3
    orders: int = 2
    states: tuple[str, ...] = ()
    weapons: tuple[WeaponCard, ...] = ()
    aro_without_lof: bool = False
    miner_type: str = "TAG"
    scoring_zone: int = 0
    warehouse: int = 0
    on_table: bool = True
    tools: tuple[ToolCard, ...] = ()
    tool_slots: int = DEFAULT_TOOL_SLOTS
    tool_slot_numbers: tuple[int, ...] = ()
    secured_slots: tuple[int, ...] = ()
    on: str | None = None
    """The scenery piece it stands on (``None``: the ground); see :mod:`explorer.games.tagraid.elevation`."""

    @property
    def slots_used(self) -> tuple[int, ...]:
        """The Slot number of each card of :attr:`tools`, in the same order."""
        return self.tool_slot_numbers if len(self.tool_slot_numbers) == len(self.tools) else tuple(
            range(1, len(self.tools) + 1))

    def free_slots(self) -> tuple[int, ...]:
        """The Tool Slots holding no card, lowest first."""
        used = set(self.slots_used)
        return tuple(n for n in range(1, self.tool_slots + 1) if n not in used)

    def secured_tools(self) -> tuple[tuple[int, ToolCard], ...]:
        """``((Slot, card), ...)`` of the cards in Secured Slots."""
        return tuple((n, t) for n, t in zip(self.slots_used, self.tools) if n in self.secured_slots)

    def with_tools(self, slotted: tuple[tuple[int, ToolCard], ...]) -> "MinerState":
        """This Miner with exactly these ``(Slot, card)`` equipped, in this order (the order they were equipped:
        :attr:`tools` keeps it)."""
        slotted = tuple(slotted)
        return replace(self, tools=tuple(t for _, t in slotted), tool_slot_numbers=tuple(n for n, _ in slotted))

    @property
    def all_weapons(self) -> tuple[WeaponCard, ...]:
        """Its Weapon cards, then the Weapons among the Tools in its Tool Slots."""
        return self.weapons + tuple(t.weapon for t in self.tools if t.weapon is not None)

    def weapon(self, name: str | None, kind: str | None = None) -> WeaponCard:
        """The Weapon card ``name`` (``None``: the first one of ``kind``).

        Raises:
            ScenarioError: no such Weapon (lists the Miner's Weapons).
        """
        for w in self.all_weapons:
            if (name is None and (kind is None or w.kind == kind)) or w.name == name:
                return w
        raise ScenarioError(f"{self.id}.weapon", f"{self.id} carries no {short_repr(name) if name else kind} Weapon",
                            [w.name for w in self.all_weapons] or "a Weapon card on the Miner")

    def model(self, declared_move: bool = False) -> Model:
        """The Miner as a :class:`~explorer.games.tagraid.pieces.Model` for Line of Fire questions."""
        return Model(self.id, self.x, self.y, self.silhouette, self.facing, self.side, "miner", None, declared_move,
                     None, self.on)


@dataclass(frozen=True)
class BehaviorCard:
    """The MegaBeast's Behavior on its current MegaBeast Event card, as data (MegaBeast Events and MegaBeast's
    Behavior): its Angle of Vision (``None``: 360°), the Threat Levels by side pair, whether it moves in ARO, and the
    Attack it declares as ARO (``attack``: a roll-scenario ``behavior_attack`` table, or ``None``)."""

    threat: ThreatLevels
    angle_of_vision: float | None = 180.0
    moves: bool = False
    attack: tuple[tuple[str, Any], ...] | None = None


@dataclass(frozen=True)
class MegaBeastState:
    """The MegaBeast (MegaBeast › Wounds, Rage Level, Threat Level; Behavior): position (board units, its hexagon
    without tile), facing (degrees), Silhouette, Wounds left, Fury Level Token positions, Hunting Trophy and
    Behavior."""

    id: str
    x: float
    y: float
    facing: float
    behavior: BehaviorCard
    silhouette: int = 10
    wounds: int = 10
    fury_tokens: tuple[int, ...] = ()
    hunting_trophy: int = 3

    def model(self) -> Model:
        return Model(self.id, self.x, self.y, self.silhouette, self.facing, "megabeast", "megabeast", None, False,
                     self.behavior.angle_of_vision)


@dataclass(frozen=True, eq=False)
class TableGeometry:
    """What does not move during a game: the board (hexagons with or without tile, Special Terrain), scenery, the
    Silhouette calibration, the Movement Ruler Segment length and the Access Points (``{number: (x, y)}``, where a
    respawning TAG's base centre is placed). Compared by identity: a replay shares its initial state's geometry."""

    board: Any
    calibration: SilhouetteCalibration = DEFAULT_CALIBRATION
    movement_segment: float = DEFAULT_MOVEMENT_SEGMENT
    access_points: tuple[tuple[int, tuple[float, float]], ...] = ()
    token_radius: float = DEFAULT_TOKEN_RADIUS
    range_calibration: RangeCalibration = DEFAULT_RANGE_CALIBRATION

    @functools.cached_property
    def _empty(self) -> TableTop:
        return TableTop.from_board(self.board, [], self.calibration, validate=False)

    @property
    def layout(self):
        return self.board.layout

    def table(self, models: tuple[Model, ...], validate: bool = False) -> TableTop:
        """A :class:`~explorer.games.tagraid.lof.TableTop` with these Models on this board (memoised)."""
        return _table(self, tuple(models), validate)

    def hex_of(self, x: float, y: float) -> Hex:
        return self.layout.pixel_to_hex((x, y))


@functools.lru_cache(maxsize=512)
def _table(geo: TableGeometry, models: tuple[Model, ...], validate: bool) -> TableTop:
    return TableTop.from_board(geo.board, models, geo.calibration, validate=validate)


@dataclass(frozen=True)
class AroRight:
    """A Reactive Miner's (or the MegaBeast's) right to an ARO in this Order (Orders and AROs): the step it is
    gained at (2 or 4), why (``"lof"``, ``"without_lof_skill"``, ``"targeted"``, ``"same_hexagon"``), whether only
    Evade is allowed, the route leg where LoF appeared (``None`` when not by LoF) and a witness segment for drawing."""

    miner: str
    step: int
    reason: str
    evade_only: bool = False
    leg: int | None = None
    witness: tuple[tuple[float, float], tuple[float, float]] | None = None
    detail: str = ""


@dataclass(frozen=True)
class OrderState:
    """The table during one Order (Activating a Miner › Order Expenditure Sequence).

    Attributes:
        geometry: the board (shared by every state of a replay).
        miners: every Miner, in Timeline order of their players. megabeast: the MegaBeast or ``None``.
        timeline: sides (players) in Timeline order.
        active: the Active Miner's id (``None`` before step 1). step: the last step done (``""``, ``"activation"``,
            ...). start: where the Active Miner stood when the Order was activated (x, y).
        contact_at_activation: enemy Miners in Silhouette Contact with the Active Miner at activation.
        routes: the Active Miner's Move routes in this Order (each a tuple of points, start included).
        fire_point: the point of its first Move's route from which the Active Miner executes its Ranged Attack, when
            its declaration names one or ruling ``route_fire_point = move_start`` (the default) takes the route's
            start (``None``: where it stands, the end of the Move: no Move, or ``move_end``).
        aro_points: ``((miner, (x, y)), ...)``: the point of the Active Miner's first Move route a Ranged Attack ARO
            is fired at, when its declaration names one (``fire_at``; otherwise the Active Miner's firing point, or
            the end of its Move).
        second: the second Skill's declaration, once made. rights: ARO rights granted (:class:`AroRight`).
        aros: ``((miner, declaration), ...)`` AROs declared. resolution: the roll exchange resolved at step 5
            (:class:`~explorer.games.tagraid.resolve.Resolution`; ``None`` before step 5).
        pending_states: ``((miner, State), ...)`` entered this Order, applied at its end.
        dead: Miners that died this Order. teseum, t_bezoar: ``((side, Units), ...)`` gained this Order.
        megabeast_facing_before: its facing before a Conclusion redirection.
        rulings: ``((option key, reading), ...)`` chosen for this game (the rest take their defaults).
        states_entered: ``((miner, State), ...)`` that took effect at the End of the Order (5.3).
        evade_moved: ``((miner, (x, y)), ...)`` Evade movements made at 5.1; evade_dropped: ``((miner, why), ...)``
            declared Evade movements dropped at 5.1 because the Evade Roll did not allow them.
        megabeast_moved: ``((x, y) before, (x, y) after)`` when the MegaBeast's Behavior moved it in ARO.
        containers: Tool Containers on the table. loot_tokens: Loot Tokens on the table. loot_zones: every TAG's
            Loot Zone (:class:`LootZone`). tool_deck: the Tool Deck, top card first; tool_discard: its discard pile.
        container_draws: ``((miner, container), ...)`` Tool Cards drawn this Game Round (one per Tool Container).
        interactions: ``((miner, what happened), ...)`` Tool Container and Loot Token interactions of this Order.
        consulted: ``((option key, reading), ...)`` the ruling options this Order's own steps consulted, in the
            order they did (``megabeast_facing_tie``, ``tool_container_draws``, ``loot_token_megabeast``): the
            readings its trace lists besides those of the roll exchange.
    """

    geometry: TableGeometry
    miners: tuple[MinerState, ...]
    megabeast: MegaBeastState | None = None
    timeline: tuple[str, ...] = ()
    active: str | None = None
    step: str = ""
    start: tuple[float, float] | None = None
    contact_at_activation: tuple[str, ...] = ()
    routes: tuple[tuple[tuple[float, float], ...], ...] = ()
    route_surfaces: tuple[tuple[str | None, ...], ...] = ()
    """The surface at each point of each of :attr:`routes` (a scenery piece's id, ``None``: the ground); empty when
    no Move of the Order climbs or starts on scenery."""
    fire_point: tuple[float, float] | None = None
    aro_points: tuple[tuple[str, tuple[float, float]], ...] = ()
    second: Any = None
    rights: tuple[AroRight, ...] = ()
    aros: tuple[tuple[str, Any], ...] = ()
    resolution: Any = None
    pending_states: tuple[tuple[str, str], ...] = ()
    dead: tuple[str, ...] = ()
    teseum: tuple[tuple[str, int], ...] = ()
    t_bezoar: tuple[tuple[str, int], ...] = ()
    megabeast_facing_before: float | None = None
    rulings: tuple[tuple[str, str], ...] = ()
    states_entered: tuple[tuple[str, str], ...] = ()
    evade_moved: tuple[tuple[str, tuple[float, float]], ...] = ()
    evade_dropped: tuple[tuple[str, str], ...] = ()
    megabeast_moved: tuple[tuple[float, float], tuple[float, float]] | None = None
    containers: tuple[ToolContainer, ...] = ()
    loot_tokens: tuple[LootToken, ...] = ()
    loot_zones: tuple[LootZone, ...] = ()
    tool_deck: tuple[ToolCard, ...] = ()
    tool_discard: tuple[ToolCard, ...] = ()
    container_draws: tuple[tuple[str, str], ...] = ()
    interactions: tuple[tuple[str, str], ...] = ()
    consulted: tuple[tuple[str, str], ...] = ()
    respawn_drawn: int = 0
    """Respawn d20s of this Order rolled from the seed, not given by the file's ``dice.respawn`` (5.3; issue #25
    item 4: a later Order of the Round then depends on a draw, :func:`.round.drawn_dice`)."""

    def consulting(self, readings: dict[str, str]) -> "OrderState":
        """This state with ``readings`` (``{option key: reading}``) added to :attr:`consulted`."""
        return replace(self, consulted=self.consulted + tuple(readings.items())) if readings else self

    # -- lookups

    def loot_zone(self, owner: str) -> LootZone:
        """A TAG's Loot Zone (empty when it has none yet)."""
        return next((z for z in self.loot_zones if z.owner == owner), LootZone(owner))

    def with_loot_zone(self, z: LootZone) -> "OrderState":
        rest = tuple(x for x in self.loot_zones if x.owner != z.owner)
        return replace(self, loot_zones=rest + (z,))

    def tokens(self) -> tuple[tuple[str, float, float], ...]:
        """Every Tool Container and Loot Token on the table as ``(id, x, y)``."""
        return tuple((c.id, c.x, c.y) for c in self.containers) + tuple((t.id, t.x, t.y) for t in self.loot_tokens)

    def miner(self, miner_id: str) -> MinerState:
        """A Miner by id. Raises ScenarioError naming the Miners on the table."""
        for m in self.miners:
            if m.id == miner_id:
                return m
        raise ScenarioError("miner", f"no Miner {short_repr(miner_id)}", [m.id for m in self.miners])

    def with_miner(self, m: MinerState) -> "OrderState":
        return replace(self, miners=tuple(m if x.id == m.id else x for x in self.miners))

    @property
    def active_miner(self) -> MinerState:
        if self.active is None:
            raise ScenarioError("active", "no Miner has been activated yet", "declare the Activation first")
        return self.miner(self.active)

    def right_of(self, miner_id: str) -> AroRight | None:
        return next((r for r in self.rights if r.miner == miner_id), None)

    def aro_of(self, miner_id: str):
        return next((d for m, d in self.aros if m == miner_id), None)

    def enemies_of(self, m: MinerState) -> tuple[MinerState, ...]:
        return tuple(x for x in self.miners if x.side != m.side and x.on_table)

    def timeline_key(self, m: MinerState) -> int:
        return self.timeline.index(m.side) if m.side in self.timeline else len(self.timeline)

    def models(self, moving: str | None = None) -> tuple[Model, ...]:
        """Every Model on the table (Miners on the table, then the MegaBeast); ``moving`` has 360° LoF."""
        out = tuple(m.model(m.id == moving) for m in self.miners if m.on_table)
        return out + ((self.megabeast.model(),) if self.megabeast else ())

    def table(self, moving: str | None = None) -> TableTop:
        return self.geometry.table(self.models(moving))

    def ruling_set(self):
        """The :class:`~explorer.options.Rulings` of this game."""
        from ..options import rulings

        return rulings(dict(self.rulings))
