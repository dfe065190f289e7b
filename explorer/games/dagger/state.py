"""Game state of Marvel D.A.G.G.E.R. as immutable values (frozen dataclasses and tuples).

Rulebook sections: Setup (threat and team-up tracks, the nemesis sheet, the nemesis mission deck of a 1st strike
and missions I–III, the side mission deck, the event deck, the five bases), Additional Rules › Missions (progress
values, some by number of heroes; threat values; side, hero, nemesis and 1st strike missions), Damage and Defeat
(health, damage, stun, shattered side), Nemesis Phase (event cards: text, nemesis-ability icon, activation row, spawn
row).

Card texts beyond what the rulebook states are **data the user enters**: an :class:`Effect` is one small, typed
effect (advance threat, advance team-up, damage heroes, add progress, overrun a base, or a note with no game effect).
The example cards in ``cards/examples.toml`` are marked as examples, not printed cards.

Every change returns a new value; nothing here mutates. :meth:`GameState.evolve` and :func:`evolve` are the cheap
copy-with used on the Nemesis Phase's hot path: the same result as ``dataclasses.replace`` (unknown field names raise
``TypeError``) without re-running ``__init__`` field by field (``benchmarks/bench_dagger.py``).
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, Literal, TypeVar

EffectKind = Literal["threat", "team_up", "damage_heroes", "progress", "overrun", "note"]
EnemyKind = Literal["standard", "nemesis_specific", "elite", "nemesis"]
MissionKind = Literal["first_strike", "nemesis", "side", "hero"]

THREAT_LOSS = 20
"""Threat reaching this value loses the game (Winning and Losing)."""
SIDE_SLOTS = 3
"""Side mission slots on the board (Missions › Side Missions)."""

_T = TypeVar("_T")
_setattr = object.__setattr__


def evolve(obj: _T, **changes: Any) -> _T:
    """A copy of the frozen, slotted dataclass value ``obj`` with ``changes`` (field name -> value): what
    ``dataclasses.replace`` returns, without its per-field ``__init__`` round trip. The copy shares every unchanged
    field with ``obj`` (values are immutable, so sharing is safe).

    Raises:
        TypeError: a name in ``changes`` that is not a field of ``obj``.
    """
    cls = type(obj)
    new = object.__new__(cls)
    for name in cls.__slots__:
        _setattr(new, name, changes.pop(name) if name in changes else getattr(obj, name))
    if changes:
        raise TypeError(f"{cls.__name__} has no such field: {', '.join(sorted(changes))}")
    return new


@dataclass(frozen=True, slots=True)
class Effect:
    """One effect of a card, mission or nemesis ability, as data.

    Attributes:
        kind: ``"threat"`` (advance the threat track by ``amount``), ``"team_up"`` (advance the team-up track),
            ``"damage_heroes"`` (each hero selected by ``where`` suffers ``amount`` damage), ``"progress"`` (place
            ``amount`` progress on ``mission``; a side or hero mission with enough is completed at once),
            ``"overrun"`` (place an overrun token on ``base``), ``"note"`` (text only: no change to the state; the
            trace shows it).
        amount: -20..20 (threat, team-up) or 0..20 (damage, progress).
        where: for ``damage_heroes``: ``"all"``, ``"space:<name>"``, ``"nearby:<name>"`` (the spaces nearby a
            space; ruling ``nearby_space_itself``), ``"nemesis_space"`` or ``"nearby_nemesis"`` (heroes nearby the
            nemesis: its own space and the adjacent ones; ruling ``nearby_pieces``).
        mission: for ``progress``: the mission's name. base: for ``overrun``: the base's name.
        text: what the card says, in the user's words.
    """

    kind: EffectKind
    amount: int = 0
    where: str = "all"
    mission: str = ""
    base: str = ""
    text: str = ""


@dataclass(frozen=True, slots=True)
class SpawnIcon:
    """A spawn icon of an event card's spawn row (or a 1st strike's setup): ``enemy`` (``"rank-1"`` .. ``"rank-4"``
    or ``"nemesis-specific"``), the ``space`` it is placed on, and ``pips`` (1..4: it applies when pips <= the number
    of heroes)."""

    enemy: str
    space: str
    pips: int = 1


@dataclass(frozen=True, slots=True)
class EventCard:
    """An event card: ``name``, ``text`` (its event text as the user describes it), ``effects`` (that text as data),
    ``nemesis_icon`` (which ability of the nemesis sheet it triggers, ``""`` for none), ``activate`` (the activation
    row: ``"rank-1"``..``"rank-4"``, ``"nemesis-specific"``, ``"elite"``, ``"nemesis"``), ``spawns`` (the spawn row),
    ``example`` (``True`` for a shipped example card, not a printed one)."""

    name: str
    text: str = ""
    effects: tuple[Effect, ...] = ()
    nemesis_icon: str = ""
    activate: tuple[str, ...] = ()
    spawns: tuple[SpawnIcon, ...] = ()
    example: bool = False


@dataclass(frozen=True, slots=True)
class Mission:
    """A mission card in play or in a deck.

    Attributes:
        name: unique among the missions of a scenario.
        kind: ``"first_strike"``, ``"nemesis"`` (I, II, III), ``"side"`` or ``"hero"``.
        progress: progress tokens on it. progress_value: tokens needed (already chosen for the number of heroes), or
            ``None`` for an asterisk mission (completed by its described condition) or an elite side mission.
        threat_value: a nemesis mission fails when the track reaches it (ruling ``mission_fail_comparison``); a side
            or hero mission's threat value is added in step 1; ``None`` when the card shows none.
        ongoing: the ongoing effect at the bottom of the card (step 3). on_pass / on_fail: the green-check / red-X
            effects of a nemesis mission.
        space: the board space it marks (side missions), or ``""``. elite: the elite enemy's id for an elite side
            mission, or ``""``. team_up: team-up gained on completion. hero: the owning hero (hero missions).
        condition_met: for an asterisk mission (no progress value): whether its described condition is met now.
        dagger_progress: the mission calls for a D.A.G.G.E.R. action, which places this many progress tokens on it
            (a stand-in for the mission's text); 0: it calls for none.
    """

    name: str
    kind: MissionKind
    progress: int = 0
    progress_value: int | None = None
    threat_value: int | None = None
    ongoing: tuple[Effect, ...] = ()
    on_pass: tuple[Effect, ...] = ()
    on_fail: tuple[Effect, ...] = ()
    space: str = ""
    elite: str = ""
    team_up: int = 0
    hero: str = ""
    condition_met: bool = False
    dagger_progress: int = 0


@dataclass(frozen=True, slots=True)
class EliteSpec:
    """The elite enemy of an elite side mission: ``name``, ``health``, ``power`` (its attack damage)."""

    name: str
    health: int
    power: int


@dataclass(frozen=True, slots=True)
class SideCard:
    """A card of the side mission deck: the :class:`Mission` it becomes and, for an elite side mission, its
    :class:`EliteSpec` (placed on the mission's space when revealed)."""

    mission: Mission
    elite: EliteSpec | None = None


@dataclass(frozen=True, slots=True)
class EnemyType:
    """The enemy card of one rank (or the nemesis-specific enemy): ``key`` (``"rank-1"``..``"rank-4"`` or
    ``"nemesis-specific"``), ``name``, ``rank`` (1..4; the nemesis-specific card's rank orders its activation),
    ``power`` (attack damage), ``health``, ``standees`` (how many exist: a spawn with none left advances threat)."""

    key: str
    name: str
    rank: int
    power: int
    health: int
    standees: int


@dataclass(frozen=True, slots=True)
class Enemy:
    """An enemy standee on the board.

    Attributes:
        id: unique name ("Hand Ninja 1"). kind: ``"standard"``, ``"nemesis_specific"``, ``"elite"``, ``"nemesis"``.
        type_key: its :class:`EnemyType` key (standard and nemesis-specific), ``""`` otherwise.
        rank: 1..4 for standard and nemesis-specific enemies (activation order), ``0`` for elites and the nemesis.
        power: damage its attack deals. health, damage: it is defeated when damage reaches health.
        space: where it stands. primed: has a primed token. stunned: the nemesis's stun token.
    """

    id: str
    kind: EnemyKind
    space: str
    power: int
    health: int
    damage: int = 0
    rank: int = 0
    type_key: str = ""
    primed: bool = False
    stunned: bool = False


@dataclass(frozen=True, slots=True)
class Hero:
    """A hero: ``name``, ``space`` (``""`` while its standee is off the board after a defeat), ``health``,
    ``damage``, ``shattered`` (its aspect sheet shows the shattered side), ``eliminated`` (its player is out),
    ``next_health`` (health of the other side of the hero sheet, used after a defeat).

    The hero sheet's values used by the Hero Phase helpers (:mod:`.hero_phase`; ``0`` = not entered): ``move``
    (spaces per Move action, 0..6), ``atk`` (Fight dice), ``dfi`` (Defy dice), ``tactic`` (Rest dice), ``rest_auto``
    (automatic successes of its Rest action), each 0..10, and ``empowered`` (an empowered token on its sheet)."""

    name: str
    space: str
    health: int
    damage: int = 0
    shattered: bool = False
    eliminated: bool = False
    next_health: int = 0
    move: int = 0
    atk: int = 0
    dfi: int = 0
    tactic: int = 0
    rest_auto: int = 0
    empowered: bool = False


@dataclass(frozen=True, slots=True)
class NemesisSheet:
    """The nemesis sheet: ``name``, ``threat_value`` (added in step 1; also the threat for a nemesis-specific spawn
    with no standee left), ``abilities`` (``((icon, effects), ...)``: the ability an event's icon triggers),
    ``showdown_health`` (its health in the Final Showdown, already chosen for the number of players)."""

    name: str
    threat_value: int
    abilities: tuple[tuple[str, tuple[Effect, ...]], ...] = ()
    showdown_health: int = 0

    def ability(self, icon: str) -> tuple[Effect, ...] | None:
        """The effects for ``icon``, or ``None`` if the sheet has no such ability."""
        return next((e for i, e in self.abilities if i == icon), None)


@dataclass(frozen=True, slots=True)
class ChoiceMade:
    """One choice point the rules leave to the table, met while playing (:class:`.nemesis.Choices`).

    Attributes:
        input: where the choice is given: ``"<kind>.<id>"`` (``"attack_target.Thug 1"``, ``"base_tie.Brute 1"``,
            ``"move_via.Brute 1"``, ``"respawn.Hero A"``) or ``"activation_order"``.
        options: what could be chosen (the tied enemies, for an activation order).
        chosen: what was taken (the order taken, for an activation order).
        default_used: no valid input was given: the stated default was taken.
        default, why_default: the default and why it is the default (not for an activation order).
        note: what was wrong with an input that was ignored, or ``""``.
        group: the activation group of tied enemies (``"power 1"``, ``"elite"``), for an activation order.
    """

    input: str
    options: tuple[str, ...]
    chosen: str | tuple[str, ...]
    default_used: bool
    default: str = ""
    why_default: str = ""
    note: str = ""
    group: str = ""

    def to_json(self) -> dict[str, Any]:
        """The JSON object of ``explorer resolve --json`` (outcome ``choices`` and the steps' ``choice`` facts)."""
        if self.input == "activation_order":
            order = list(self.chosen)
            return {"input": self.input, "options": order, "chosen": order, "default_used": self.default_used,
                    "group": self.group}
        out = {"input": self.input, "options": list(self.options), "chosen": self.chosen,
               "default_used": self.default_used, "default": self.default, "why_default": self.why_default}
        if self.note:
            out["note"] = self.note
        return out


# -- what happened: typed records the Nemesis Phase adds to GameState.events (the outcome text reads them)


@dataclass(frozen=True, slots=True)
class MissionChecked:
    """Step 2 checked the top nemesis mission ``mission`` (``kind`` ``"first_strike"`` or ``"nemesis"``):
    ``result`` ``"passed"``, ``"failed"`` or ``"open"`` (not completed)."""

    mission: str
    kind: str
    result: str


@dataclass(frozen=True, slots=True)
class BaseOverrun:
    """An overrun token was placed on ``base``."""

    base: str


@dataclass(frozen=True, slots=True)
class HeroDefeated:
    """``hero`` was defeated; ``eliminated``: it was already shattered, so its player is out."""

    hero: str
    eliminated: bool = False


@dataclass(frozen=True, slots=True)
class HeroDamaged:
    """``hero`` suffered damage: it now has ``damage`` of ``health``."""

    hero: str
    damage: int
    health: int


@dataclass(frozen=True, slots=True)
class ActivationItem:
    """The item an enemy's activation is to resolve, as determined when the activation began (Nemesis Phase › 3 ›
    Activate enemies: the first of attack, overrun, move): ``action`` (``"attack"``, ``"overrun"``,
    ``"overrun_again"``, ``"move"`` or ``"none"``), ``target`` (the hero attacked, or the base a move heads for),
    ``base`` (the base in its space, for an overrun), ``start`` → ``to`` (a move's step), and ``words``, the item in a
    few words (``"attack Hero A on Latveria"``). What it takes to land the item as determined: ``recs`` (the choice
    points met: the hero attacked; the base tie and the route), ``names`` (the heroes in its space, an attack),
    ``distance`` (lines to the target base before the step), ``scope`` (``"region"`` or ``"anywhere"``) and ``tied``
    (every base at that distance), a move's."""

    action: str
    target: str = ""
    base: str = ""
    start: str = ""
    to: str = ""
    words: str = ""
    # how to land it: bookkeeping of the same determination, left out of equality (two items that do the same are
    # equal)
    recs: tuple[ChoiceMade, ...] = field(default=(), compare=False)
    names: tuple[str, ...] = field(default=(), compare=False)
    distance: int = field(default=0, compare=False)
    scope: str = field(default="", compare=False)
    tied: tuple[str, ...] = field(default=(), compare=False)


@dataclass(frozen=True, slots=True)
class EnemyActed:
    """One enemy activation: ``action`` is ``"attack"`` (``target`` hero, ``power`` damage), ``"overrun"`` or
    ``"overrun_again"`` (``base``), ``"move"`` (``start`` → ``to``, toward ``target`` base), ``"stun_cleared"``,
    ``"stopped"``, ``"item_lost"`` or ``"none"`` (no operational base to head for).

    ``"item_lost"``: after an interrupt inside the activation, the item determined as it began (``item``) can no
    longer land as determined (ruling ``interrupted_item = as_determined``): the activation resolves nothing.

    ``"stopped"``: the nemesis was stunned during its own activation (an interrupt defeated it before its item
    landed): ``item`` is the :class:`ActivationItem` that did not resolve (its ``action`` and ``words``; ``target``,
    ``base``, ``start`` and ``to`` repeat the item's), and ``cleared`` says whether the stun and damage were removed
    at once (ruling ``nemesis_stunned_mid_activation = this_activation``) or stay for its next activation
    (``skip_next``)."""

    enemy: str
    action: str
    target: str = ""
    power: int = 0
    base: str = ""
    start: str = ""
    to: str = ""
    item: ActivationItem | None = None
    cleared: bool = False


@dataclass(frozen=True, slots=True)
class EnemySpawned:
    """Enemy ``enemy`` was spawned on ``space``."""

    enemy: str
    space: str


@dataclass(frozen=True, slots=True)
class SideMissionRevealed:
    """Side mission ``mission`` was revealed into slot ``slot`` (1-based)."""

    mission: str
    slot: int


@dataclass(frozen=True, slots=True)
class ShowdownBegan:
    """The Final Showdown began (the last nemesis mission was completed)."""


@dataclass(frozen=True, slots=True)
class HeroMissionCompleted:
    """Hero mission ``mission`` of ``hero`` was completed (Additional Rules › Missions › Hero Missions: discarded;
    the hero gains its hero-specific support card)."""

    mission: str
    hero: str


Event = (MissionChecked | BaseOverrun | HeroDefeated | HeroDamaged | EnemyActed | EnemySpawned | SideMissionRevealed
         | ShowdownBegan | HeroMissionCompleted)
"""What a Nemesis Phase records in :attr:`GameState.events`."""


@dataclass(frozen=True, slots=True)
class Gauge:
    """How close one loss condition is (Winning and Losing).

    Attributes:
        name: ``"threat"``, ``"bases"``, ``"events"``, ``"heroes"`` or ``"deadline"``.
        value, limit: the gauge's numbers (the deadline's value is a round number or ``None``, its limit ``None``).
        lost: the condition is reached. text: the gauge in words (``"threat 14/20"``).
    """

    name: str
    value: int | None
    limit: int | None
    lost: bool
    text: str

    def to_json(self) -> dict:
        """``{"name", "value", "limit", "lost", "text"}`` (the Winning and Losing step's ``gauges`` fact)."""
        return {"name": self.name, "value": self.value, "limit": self.limit, "lost": self.lost, "text": self.text}


@dataclass(frozen=True)
class GameState:
    """The whole game at one moment (an immutable value).

    Attributes:
        round: the round number (1-based). players: the number of heroes in the game (eliminated players still count).
        threat, team_up: the two tracks (threat 0..; the heroes lose when it reaches :data:`THREAT_LOSS`).
        heroes, enemies: in play (the nemesis is the enemy of kind ``"nemesis"``).
        bases: ``((base name, space), ...)``: the five bases (the Iliad on its token's space).
        overrun: base names with an overrun token.
        nemesis_deck: the nemesis mission deck, top first (the 1st strike on top at the start).
        completed_nemesis: nemesis missions slid under the board, with ``"passed"`` / ``"failed"``.
        side_slots: the three side mission slots (``None`` = empty). side_deck: top first.
        hero_missions: hero missions in play. event_deck: top first. discard: discarded events.
        current_event: the event card being resolved in step 3 (``None`` otherwise).
        enemy_types: the enemy cards in play (``key`` -> type). nemesis: the sheet. showdown: Final Showdown started.
        first_player: index into ``heroes``. elimination_deadline: the round whose Hero Phase must end with the Final
            Showdown started (after a player is eliminated), or ``None``.
        lost: reasons the heroes have lost (empty while the game goes on). won: the heroes won.
        activating: the enemies the current event's activation row activates, in activation order (step 3; empty
            otherwise).
        acting: the enemy whose activation has begun and whose item (attack, overrun or move) has not resolved yet:
            set only while an interrupt inside that activation is played (point ``"3.activation.N.interrupt"``,
            :func:`.nemesis.begin_activation`); ``""`` otherwise.
        acting_item: the item that activation is to resolve (:class:`ActivationItem`), as determined before the
            interrupt (:func:`.nemesis.announce_activation`); ``None`` when no activation is interrupted.
        log: one short line per completed action, for replay checks.
        choices: every choice point met so far (:class:`ChoiceMade`), in order.
        events: what happened so far that the outcome reports (missions checked, bases overrun, heroes damaged and
            defeated, enemy activations and spawns, side missions revealed, the Final Showdown), in order.
        (``log``, ``choices`` and ``events`` are history: two states that differ only there are equal.)
    """

    round: int
    players: int
    threat: int
    team_up: int
    heroes: tuple[Hero, ...]
    enemies: tuple[Enemy, ...]
    bases: tuple[tuple[str, str], ...]
    overrun: frozenset[str]
    nemesis_deck: tuple[Mission, ...]
    side_slots: tuple[Mission | None, ...]
    side_deck: tuple[SideCard, ...]
    hero_missions: tuple[Mission, ...]
    event_deck: tuple[EventCard, ...]
    enemy_types: tuple[EnemyType, ...]
    nemesis: NemesisSheet
    discard: tuple[EventCard, ...] = ()
    current_event: EventCard | None = None
    completed_nemesis: tuple[tuple[str, str], ...] = ()
    showdown: bool = False
    first_player: int = 0
    elimination_deadline: int | None = None
    lost: tuple[str, ...] = ()
    won: bool = False
    activating: tuple[str, ...] = ()
    acting: str = ""
    acting_item: ActivationItem | None = None
    log: tuple[str, ...] = field(default=(), compare=False)
    choices: tuple[ChoiceMade, ...] = field(default=(), compare=False)
    events: tuple[Event, ...] = field(default=(), compare=False)

    # -- lookups
    def base_space(self, base: str) -> str:
        return dict(self.bases)[base]

    def operational_bases(self) -> dict[str, str]:
        """``{base name: space}`` of the bases with no overrun token, in base order."""
        return {b: s for b, s in self.bases if b not in self.overrun}

    def base_at(self, space: str) -> str | None:
        """The base on ``space`` (at most one), or ``None``."""
        return next((b for b, s in self.bases if s == space), None)

    def enemy(self, enemy_id: str) -> Enemy:
        return next(e for e in self.enemies if e.id == enemy_id)

    def nemesis_enemy(self) -> Enemy | None:
        return next((e for e in self.enemies if e.kind == "nemesis"), None)

    def enemy_type(self, key: str) -> EnemyType | None:
        return next((t for t in self.enemy_types if t.key == key), None)

    def heroes_in(self, space: str) -> tuple[Hero, ...]:
        """Heroes standing on ``space`` (standees on the board only)."""
        return tuple(h for h in self.heroes if h.space == space and not h.eliminated)

    def active_missions(self) -> tuple[Mission, ...]:
        """Missions in play: the top nemesis mission, the side missions, the hero missions."""
        top = self.nemesis_deck[:1]
        return top + tuple(m for m in self.side_slots if m is not None) + self.hero_missions

    # -- changes
    def evolve(self, **changes: Any) -> GameState:
        """A copy with ``changes`` (field name -> value), like ``dataclasses.replace`` but a dictionary copy: the
        Nemesis Phase's hot path (a state has 23 fields and a phase makes a dozen copies).

        Raises:
            TypeError: a name that is not a field of :class:`GameState`.
        """
        if not changes.keys() <= _GAME_STATE_FIELDS:
            raise TypeError(f"GameState has no such field: {', '.join(sorted(changes.keys() - _GAME_STATE_FIELDS))}")
        new = object.__new__(GameState)
        d = new.__dict__
        d.update(self.__dict__)
        d.update(changes)
        return new

    def with_threat(self, delta: int, why: str) -> GameState:
        return self.evolve(threat=max(0, self.threat + delta), log=self.log + (f"threat {delta:+d}: {why}",))

    def with_enemy(self, enemy: Enemy) -> GameState:
        return self.evolve(enemies=tuple(enemy if e.id == enemy.id else e for e in self.enemies))

    def with_hero(self, hero: Hero) -> GameState:
        return self.evolve(heroes=tuple(hero if h.name == hero.name else h for h in self.heroes))

    def with_mission(self, mission: Mission) -> GameState:
        """Replace the mission of the same name wherever it is (nemesis deck, side slots, hero missions)."""
        def sub(m):
            return mission if m is not None and m.name == mission.name else m
        return self.evolve(nemesis_deck=tuple(sub(m) for m in self.nemesis_deck),
                       side_slots=tuple(sub(m) for m in self.side_slots),
                       hero_missions=tuple(sub(m) for m in self.hero_missions))

    def losing(self, reason: str) -> GameState:
        return self if reason in self.lost else self.evolve(lost=self.lost + (reason,))


_GAME_STATE_FIELDS = frozenset(f.name for f in fields(GameState))
