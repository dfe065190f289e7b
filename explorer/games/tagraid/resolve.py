"""Step-by-step resolution of a TAG Raid roll exchange (Activating a Miner › Order Expenditure Sequence, step 5:
Resolution, 5.1 Effects, 5.2 Conclusion, 5.3 End of the Order; Rolls; Damage; Death; Common Skills; Ammunition;
Traits; Tool Containers and Loot; Neomaterials; MegaBeast; States).

:func:`resolve` turns a validated :class:`~explorer.games.tagraid.model.Scenario` into a
:class:`~explorer.trace.Trace` whose steps are grouped in sections (Declarations, Success Values, Rolls, Face to Face
Rolls, Saving Rolls, Wounds and Neomaterials, Effects). Every step cites its rulebook section, carries JSON facts and
marks the dice it talks about (``"A.1"`` is the Active Miner's first die, ``"B.2"`` the first Reactive Miner's second
die, ``"C.s1"`` the second Reactive Miner's first Saving Roll, ``"MB"`` the MegaBeast's Threat Level).

The resolution is a rule sequence of the kernel (:mod:`explorer.kernel`): :data:`ROLL_STEPS` lists its steps in
rulebook order, each a plain function ``step(state, ctx) -> (state, steps)`` over the frozen :class:`RollState`, with
the scenario, the ruling readings and the dice in the :class:`RollContext`:

1. Resolution checks the Requirements of the declared Skills (a Skill that fails them counts as Idle):
   :func:`check_active_requirements`, :func:`declare_active_skill`, :func:`declare_aros`,
   :func:`declare_megabeast_aro`;
2. the measurements and MODs give each roll its Success Value (Rolls › Modifiers): :func:`success_values`;
3. the players roll (Rolls): :func:`roll_dice`;
4. the rolls are compared (Rolls › Face to Face Rolls, Normal Roll; MegaBeast › Threat Level):
   :func:`face_to_face_rolls`, :func:`megabeast_threat_level`, :func:`unopposed_evade`;
5. 5.1 Effects: :func:`saving_rolls`, :func:`lose_wounds` (Teseum per Wounds point), :func:`megabeast_wounds`
   (T-Bezoar, Fury Level Tokens, Hunting Trophy), :func:`death` (Loot, Respawn), :func:`evade_movement`;
6. 5.2 Conclusion: :func:`megabeast_reorients`; 5.3 End of the Order: :func:`end_of_order_states`.

The dice arithmetic is the shared primitives of :mod:`explorer.games.tagraid.rolls` (``success_value``,
``classify_die``, ``compare``, ``saving_rolls``, ``attack_damage``), so this resolver and the exact odds engine cannot
disagree about a rule.

Who faces whom (Rolls › Face to Face Rolls: both Miners must affect each other directly, otherwise Normal Rolls):

* the Active Miner's share of Burst aimed at a Reactive Miner who attacks it back or Evades: one Face to Face Roll
  per target (a split Burst gives several independent Face to Face Rolls);
* aimed at a Reactive Miner who does not oppose it (Idle, no ARO): Normal Rolls;
* a Reactive Miner attacking an Active Miner that attacks somebody else or is Idle: Normal Rolls; if the Active Miner
  Evades, its single Evade Roll opposes every attack individually;
* the MegaBeast never rolls: its Threat Level is its result in every Face to Face Roll.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from functools import cached_property
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from explorer.errors import ExplorerError, ScenarioError
from explorer.dice import Dice, Roller
from explorer.kernel import Context, Frame, Outcome, play, steps_of
from explorer.options import Rulings
from explorer.text import agree, plural
from explorer.trace import Step, Trace

from . import sections as S
from .bursts import aro_burst, attack_burst, is_range_mod
from .options import rulings as make_rulings
from .rolls import (Ammunition, AttackDamage, Comparison, DieResult, SuccessValue, attack_damage, classify_die, compare,
                    round_up_half, saving_rolls as saving_roll_count, success_value)

if TYPE_CHECKING:   # the models name the shapes; a cached scenario is their pydantic-free snapshot (explorer.plain)
    from .model import ActiveMiner, Attack, ReactiveMiner, Scenario

__all__ = ["resolve", "resolve_detailed", "Resolution", "MinerResult", "Pair", "SavingRolls", "SaveDie", "Loot",
           "MegaBeastResult", "Pool", "RollOutcome", "RollState", "RollContext", "ROLL_STEPS", "roll_frames",
           "roll_sequences"]

ATTACKS = ("ranged_attack", "close_combat_attack")
SKILL_NAMES = {"ranged_attack": "Ranged Attack", "close_combat_attack": "Close Combat Attack", "evade": "Evade",
               "idle": "Idle", "none": "no ARO"}
STATE_REFS = {"Slowed": S.SLOWED_STATE}
SKILL_REFS = {"ranged_attack": S.RANGED_ATTACK, "close_combat_attack": S.CLOSE_COMBAT_ATTACK, "evade": S.EVADE,
              "idle": S.IDLE, "none": S.ORDERS_AND_AROS}

DECLARATIONS, SUCCESS_VALUES, ROLLS, FACE_TO_FACE_ROLLS, NORMAL_ROLLS = (
    "Declarations", "Success Values", "Rolls", "Face to Face Rolls", "Normal Rolls")
SAVING_ROLLS, WOUNDS, EFFECTS, CONCLUSION, END_OF_ORDER = (
    "Saving Rolls", "Wounds and Neomaterials", "Effects", "Conclusion", "End of the Order")
"""The trace sections, in the order the steps fill them."""


# ----------------------------------------------------------------------------------------------------------------------
# pools


@dataclass(frozen=True)
class Pool:
    """Dice rolled for one purpose (Rolls): a frozen value.

    Attributes:
        owner: the Miner's name (or the MegaBeast's).
        purpose: ``"attack"``, ``"evade"`` or ``"threat"`` (the MegaBeast's Threat Level).
        target: whom the attack is aimed at (``None`` for Evade / Threat Level).
        ids: die ids (``"A.1"``...), a tuple.
        dice: the classified dice, a tuple in the order of ``ids``.
        sv: the Success Value (``None`` for the MegaBeast).
        source: ``"given"``, ``"seed"``, ``"roller"`` or ``"threat level"``.
    """

    owner: str
    purpose: str
    target: str | None
    ids: tuple[str, ...]
    dice: tuple[DieResult, ...]
    sv: SuccessValue | None
    source: str = "given"

    def describe(self, idx: Sequence[int] | None = None) -> str:
        """``"5 (A.1), 12 (A.2)"``: the faces with their ids (of the dice at ``idx``, all by default)."""
        idx = range(len(self.dice)) if idx is None else idx
        return ", ".join(f"{self.dice[i].face} ({self.ids[i]})" for i in idx) or "nothing"

    def facts(self) -> list[dict[str, Any]]:
        """The dice as the ``dice`` fact of a roll step (JSON: id, face, effective result, kind)."""
        return [{"id": i, "face": d.face, "effective": d.effective, "kind": d.kind}
                for i, d in zip(self.ids, self.dice)]


@dataclass(frozen=True)
class Pair:
    """One opposed or unopposed roll of the exchange (Rolls › Face to Face Rolls, Normal Roll; MegaBeast › Threat
    Level): the same entries, in the same order, as ``trace.outcome["pairs"]``.

    Attributes:
        kind: ``"face_to_face"``, ``"normal_roll"``, ``"normal_evade"`` (an Evade Roll nobody opposes),
            ``"threat_level"`` (an attack on a MegaBeast without ARO, ruling ``megabeast_no_aro = threat_level``) or
            ``"unopposed"`` (the MegaBeast's Behavior ARO that nobody opposes).
        active: the Active Miner's name. opponent: the Reactive Miner's or MegaBeast's name (``None`` for the Active
            Miner's unopposed Evade).
        megabeast: whether the opponent is the MegaBeast.
        a: the Active side's dice in this pair (its attack share at ``opponent``, or its Evade), ``None`` if it does
            not roll against ``opponent``. b: the opponent's dice (the MegaBeast's is its Threat Level, one token
            with id ``"MB"``), ``None`` if it does not roll (or, ruling ``megabeast_no_aro = normal_roll``, when
            the Threat Level plays no part).
        comparison: :func:`~explorer.games.tagraid.rolls.compare` of the dice as compared, ``a`` against ``b``
            (indices are positions in ``a.dice`` / ``b.dice``; a Normal Roll is compared against no dice, so its
            survivors are its successes). Against the MegaBeast, a Critical at or below the Threat Level is compared
            as a plain success under ``megabeast_critical = must_exceed`` (``comparison.a`` shows it), and when an
            equal result is not enough (``megabeast_equal = megabeast_prevails``) the Threat Level is not cancelled
            by it; when the MegaBeast declared no ARO it cannot prevail, whatever ``comparison.b_survives`` says. When
            only ``b`` rolls (or the MegaBeast's Behavior ARO is unopposed), ``a`` is ``None`` and the comparison
            is no dice against ``b``'s.
        cancel_comparison: ruling ``evade_vs_split_attack = all_dice`` only: every die of the Active Miner's Attack
            against the evader's die (which cancels the Evade); else ``None``.
        winner: the name of the side that keeps uncancelled successes (the MegaBeast when it prevails), or ``None``.
        result: ``"win"``, ``"tie"`` (every success cancelled) or ``"none"`` (no success on either side).
        hits, crits: ``{name: uncancelled non-critical successes / Criticals}`` of the sides that attack.
        attack_damage: ``{attacker name: AttackDamage against the other side}`` for every side of the pair whose
            Skill is an attack on a Miner (the MegaBeast's Behavior Attack included), whether or not it hits: what
            one of its hits would do (Damage › Saving Roll, Partial Cover; Ammunition AP; Traits). An attack on the
            MegaBeast has none (no Armor roll).
        megabeast_prevails: the MegaBeast prevails over the Active Miner (its Behavior Attack applies).
        threat_level: against the MegaBeast, the Threat Level of the side where the exchange happens; else ``None``.
    """

    kind: str
    active: str
    opponent: str | None
    megabeast: bool
    a: Pool | None
    b: Pool | None
    comparison: Comparison | None
    winner: str | None
    result: str
    hits: Mapping[str, int] = field(default_factory=dict)
    crits: Mapping[str, int] = field(default_factory=dict)
    attack_damage: Mapping[str, AttackDamage] = field(default_factory=dict)
    cancel_comparison: Comparison | None = None
    megabeast_prevails: bool = False
    threat_level: int | None = None

    def __post_init__(self) -> None:
        for name in ("hits", "crits", "attack_damage"):     # read-only views of copies: a Pair never changes
            object.__setattr__(self, name, MappingProxyType(dict(getattr(self, name))))

    def to_json(self) -> dict[str, Any]:
        """The pair as an entry of the JSON outcome's ``pairs``: ``active``, ``reactive`` / ``megabeast`` (and its
        ``threat_level``), ``kind``, ``winner``, ``result`` (Face to Face Rolls between Miners), ``hits`` and
        ``crits`` (when a side attacks), ``megabeast_prevails`` (against the MegaBeast)."""
        if self.megabeast:
            out: dict[str, Any] = {"active": self.active, "megabeast": self.opponent,
                                   "threat_level": self.threat_level, "kind": self.kind, "winner": self.winner}
        else:
            out = {"active": self.active}
            if self.opponent is not None:
                out["reactive"] = self.opponent
            out.update(kind=self.kind, winner=self.winner)
            if self.kind == "face_to_face":
                out["result"] = self.result
        if self.hits:
            out.update(hits=dict(self.hits), crits=dict(self.crits))
        if self.megabeast:
            out["megabeast_prevails"] = self.megabeast_prevails
        return out


@dataclass(frozen=True)
class SaveDie:
    """One Saving Roll die: ``id`` (``"B.s1"``: the first Reactive Miner's first Saving Roll), ``face`` and whether it
    ``failed`` (face at most the Attack Damage: one Wound; Damage › Saving Roll)."""

    id: str
    face: int
    failed: bool


@dataclass(frozen=True)
class SavingRolls:
    """The Saving Rolls one attacker's uncancelled hits force on one target (Skills and Tools › Ammunition; Damage ›
    Saving Roll; MegaBeast › Wounds).

    Attributes:
        attacker, target: names. weapon: the attacker's Weapon (or Behavior Attack) name.
        hits, crits: uncancelled non-critical successes and Criticals. ammunition: ``"N"``, ``"DA"``, ``"EXP"``,
            ``"AP"``.
        count: Saving Rolls produced (per impact 1 N/AP, 2 DA, 3 EXP, plus 1 per Critical; the MegaBeast ignores the
            Critical's extra roll).
        attack_damage: the Attack Damage rolled against; ``None`` against the MegaBeast (no roll).
        dice: the Saving Roll dice, in order (empty against the MegaBeast).
        wounds: Wounds caused before capping at the Wounds left (failed dice; against the MegaBeast every Saving
            Roll produced).
        against_megabeast: the target is the MegaBeast. from_megabeast: the attacker is the MegaBeast.
        ignored_critical_rolls: extra Critical rolls the MegaBeast ignores.
        source: where the dice came from: ``"given"``, ``"seed"``, ``"roller"`` or ``"none"``.
    """

    attacker: str
    target: str
    weapon: str
    hits: int
    crits: int
    ammunition: str
    count: int
    attack_damage: AttackDamage | None
    dice: tuple[SaveDie, ...]
    wounds: int
    against_megabeast: bool = False
    from_megabeast: bool = False
    ignored_critical_rolls: int = 0
    source: str = "none"


@dataclass(frozen=True)
class Loot:
    """What a dead TAG's player keeps and loses (Death › Death of a TAG; Tool Containers and Loot): Neomaterial
    Units in the ``scoring_zone_before`` (gains of this Order included), ``kept`` (half, rounded up), ``to_loot_zone``
    or ``to_reserve`` (when the MegaBeast was involved), the ``warehouse`` (never lost) and ``gained_this_order``."""

    scoring_zone_before: int
    kept: int
    to_loot_zone: int
    to_reserve: int
    warehouse: int
    megabeast_involved: bool
    gained_this_order: int


@dataclass(frozen=True)
class MinerResult:
    """One Miner in the exchange.

    Attributes:
        name; letter: the prefix of its die ids (``"A"`` Active, ``"B"``, ``"C"``... Reactive Miners in Timeline
            order); role: ``"active"`` or ``"reactive"``.
        declared: the Skill declared; skill: the Skill used at Resolution (``"idle"`` when its Requirements fail,
            ``"none"`` for no ARO).
        pools: the dice it rolled, in roll order (one per attack target, or its Evade); each carries its
            :class:`~explorer.games.tagraid.rolls.SuccessValue` (``pool.sv``) and die ids.
        wounds_before, wounds_lost, wounds_left: Wounds (losses capped at the Wounds left; Death).
        dead: it reached 0 Wounds. saving_rolls, failed_saves: Saving Rolls it made and failed.
        teseum, t_bezoar: Neomaterial Units its player gains in this Order. loot: its :class:`Loot` if it died.
        evade_move: its successful Evade lets it move one Segment.
    """

    name: str
    letter: str
    role: str
    declared: str
    skill: str
    pools: tuple[Pool, ...]
    wounds_before: int
    wounds_lost: int
    wounds_left: int
    dead: bool
    saving_rolls: int
    failed_saves: int
    teseum: int = 0
    t_bezoar: int = 0
    loot: Loot | None = None
    evade_move: bool = False

    @property
    def sv(self) -> SuccessValue | None:
        """The Success Value of its first roll (``None`` if it rolls nothing: Idle, no ARO)."""
        return self.pools[0].sv if self.pools else None

    @property
    def dice(self) -> tuple[DieResult, ...]:
        """Every die it rolled (all pools), in id order."""
        return tuple(d for p in self.pools for d in p.dice)


@dataclass(frozen=True)
class MegaBeastResult:
    """The MegaBeast after the exchange (MegaBeast › Wounds, Rage Level): ``threat_level`` used, ``wounds_before`` /
    ``wounds_lost`` / ``wounds_left``, ``killed``, ``fury_tokens_removed`` (positions), ``t_bezoar`` (Units gained
    by the attacker's player, Hunting Trophy included), whether it ``prevailed`` and ``reorients`` (Conclusion)."""

    name: str
    threat_level: int
    pool: Pool
    wounds_before: int
    wounds_lost: int
    wounds_left: int
    killed: bool
    fury_tokens_removed: tuple[int, ...]
    t_bezoar: int
    prevailed: bool
    reorients: bool = False

    def to_json(self) -> dict[str, Any]:
        """The JSON outcome's ``megabeast``: ``wounds`` (lost), ``wounds_left``, ``killed``, ``fury_tokens_removed``,
        ``t_bezoar``, ``prevailed`` and, when it reorients in the Conclusion, ``reorients``."""
        out = {"wounds": self.wounds_lost, "wounds_left": self.wounds_left, "killed": self.killed,
               "fury_tokens_removed": list(self.fury_tokens_removed), "t_bezoar": self.t_bezoar,
               "prevailed": self.prevailed}
        if self.reorients:
            out["reorients"] = True
        return out


@dataclass(frozen=True)
class Resolution:
    """The structured result of :func:`resolve_detailed`: everything the trace says, as data.

    Die ids (the same marks the trace steps carry): ``"A.1"``, ``"A.2"``... the Active Miner's dice (attack shares
    numbered on across targets, in declaration order); ``"B.1"``... the first Reactive Miner's, ``"C.1"`` the
    second's; ``"B.s1"`` the first Reactive Miner's first Saving Roll die; ``"MB"`` the MegaBeast's Threat Level.

    Attributes:
        trace: the cited :class:`~explorer.trace.Trace` (what :func:`resolve` returns).
        rulings: ``{option: reading}`` consulted (``trace.rulings``).
        miners: ``{name: MinerResult}``, the Active Miner first, then Reactive Miners in Timeline order.
        megabeast: :class:`MegaBeastResult` or ``None``.
        pairs: every :class:`Pair`, in resolution order.
        saving_rolls: every :class:`SavingRolls`, in resolution order.
        dead: names of Miners (and the MegaBeast) that died. evade_moves: Miners whose Evade lets them move.
        frames: the kernel frames of the resolution (:func:`roll_frames`), one per step of :data:`ROLL_STEPS`: what a
            step-through view draws from (:meth:`at`).
    """

    trace: Trace
    rulings: Mapping[str, str]
    miners: Mapping[str, MinerResult]
    megabeast: MegaBeastResult | None
    pairs: tuple[Pair, ...]
    saving_rolls: tuple[SavingRolls, ...]
    dead: tuple[str, ...]
    evade_moves: tuple[str, ...]
    frames: tuple[Frame[RollState], ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "miners", MappingProxyType(dict(self.miners)))    # read-only, in the same order
        object.__setattr__(self, "rulings", MappingProxyType(dict(self.rulings)))

    @property
    def active(self) -> MinerResult:
        return next(iter(self.miners.values()))

    # indexes built once on first use (views ask once per Miner: a linear scan each time would be quadratic)
    @cached_property
    def _by_letter(self) -> dict[str, MinerResult]:
        return {m.letter: m for m in reversed(list(self.miners.values()))}

    @cached_property
    def _pair_by_opponent(self) -> dict[str, Pair]:
        out: dict[str, Pair] = {}
        for p in self.pairs:
            out.setdefault(p.opponent, p)
        return out

    @cached_property
    def _saves_by_target(self) -> dict[str, list[SavingRolls]]:
        out: dict[str, list[SavingRolls]] = {}
        for sv in self.saving_rolls:
            out.setdefault(sv.target, []).append(sv)
        return out

    def miner(self, key: str) -> MinerResult:
        """A Miner by name or die-id letter (``"A"``, ``"B"``...). Raises ``KeyError`` if unknown."""
        if key in self.miners:
            return self.miners[key]
        return self._by_letter[key]

    def pair_with(self, opponent: str) -> Pair | None:
        """The pair of the Active Miner against ``opponent`` (a name), or ``None``."""
        return self._pair_by_opponent.get(opponent)

    def saves_of(self, target: str) -> tuple[SavingRolls, ...]:
        """The Saving Rolls made by (or, for the MegaBeast, produced against) ``target``."""
        return tuple(self._saves_by_target.get(target, ()))

    def at(self, state: "RollState") -> "Resolution":
        """The exchange as it stands in ``state`` (the :class:`RollState` of one of :attr:`frames`): the same Miners
        and dice (the faces are the exchange's inputs), with only the rolls compared, the Saving Rolls made, the
        Wounds lost, the deaths and the Evade movements of the steps played so far. The state of the last frame
        gives back this resolution's pairs, Saving Rolls and Wounds."""
        lost, left, dead = dict(state.wounds_lost), dict(state.wounds_left), set(state.dead)
        miners = {n: replace(m, wounds_lost=lost.get(n, 0), wounds_left=left.get(n, m.wounds_before),
                             dead=n in dead) for n, m in self.miners.items()}
        mb = self.megabeast
        if mb is not None:
            mb = state.megabeast or replace(mb, wounds_lost=0, wounds_left=mb.wounds_before, killed=False,
                                            prevailed=state.megabeast_prevails)
        return Resolution(self.trace, self.rulings, miners, mb, state.pairs, state.saves, state.dead,
                          state.evade_moves, self.frames)

    @property
    def outcome(self) -> "RollOutcome":
        """The typed outcome (``trace.result``): what ``trace.outcome`` says, as data."""
        return self.trace.result




@dataclass(frozen=True)
class RollOutcome(Outcome):
    """The typed outcome of a roll exchange (``trace.result`` of :func:`resolve`); :meth:`to_json` is the trace's
    JSON ``outcome``. Mappings keep the order the trace reports them in.

    Attributes:
        pairs: every :class:`Pair` (opposed or unopposed roll), in resolution order.
        saving_rolls, failed_saves: ``{Miner: Saving Rolls made / failed}`` per Miner that made any (Damage ›
            Saving Roll).
        megabeast: the MegaBeast after the exchange (:class:`MegaBeastResult`), or ``None`` without one.
        wounds, wounds_left: ``{name: Wounds lost / left}``: the Miners hit first (Timeline order, the Active Miner
            last), then the MegaBeast when wounded, then every other Miner (0 lost).
        dead: Miners (and the MegaBeast) that died (Death).
        teseum, t_bezoar: ``{attacker: Neomaterial Units its player gains}`` (Neomaterials; MegaBeast › Wounds).
        loot: ``{dead TAG: Loot}`` (Death of a TAG). evade_moves: Miners whose Evade lets them move one Segment.
        states: ``{target: States entered}`` at the end of the Order, or ``None`` when no attack of the scenario can
            cause a State (then the JSON has no ``states``).
    """

    pairs: tuple[Pair, ...]
    saving_rolls: Mapping[str, int]
    failed_saves: Mapping[str, int]
    megabeast: MegaBeastResult | None
    wounds: Mapping[str, int]
    wounds_left: Mapping[str, int]
    dead: tuple[str, ...]
    teseum: Mapping[str, int]
    t_bezoar: Mapping[str, int]
    loot: Mapping[str, Loot]
    evade_moves: tuple[str, ...]
    states: Mapping[str, tuple[str, ...]] | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"pairs": [p.to_json() for p in self.pairs], "saving_rolls": dict(self.saving_rolls),
                               "failed_saves": dict(self.failed_saves)}
        if self.megabeast is not None:
            out["megabeast"] = self.megabeast.to_json()
        out.update(wounds=dict(self.wounds), wounds_left=dict(self.wounds_left), dead=list(self.dead),
                   teseum=dict(self.teseum), t_bezoar=dict(self.t_bezoar),
                   loot={k: asdict(v) for k, v in self.loot.items()}, evade_moves=list(self.evade_moves))
        if self.states is not None:
            out["states"] = {k: list(v) for k, v in self.states.items()}
        return out


# ----------------------------------------------------------------------------------------------------------------------
# the state and the context of the sequence


@dataclass(frozen=True)
class Impact:
    """Uncancelled successes of one attacker on one target, waiting for Saving Rolls (Damage › Saving Roll): what the
    attacker's Weapon (or the MegaBeast's Behavior Attack) does with each of them."""

    attacker: str
    target: str
    hits: int
    crits: int
    damage: int
    ammunition: str
    ranged: bool
    traits: tuple[str, ...] = ()
    damage_mods: Mapping[str, int] = field(default_factory=dict)
    weapon: str = "Weapon"
    from_megabeast: bool = False
    states: tuple[str, ...] = ()
    lof_symbol: bool = True
    """The Weapon's card carries the LoF symbol (Damage › Partial Cover: ruling ``partial_cover_glyph``)."""


@dataclass(frozen=True)
class PlannedRoll:
    """A roll whose Success Value is set (Rolls › Modifiers), waiting for its dice (Rolls): ``n`` d20s of ``owner``
    for ``purpose`` (``"attack"`` at ``target``, or ``"evade"``), the fixed faces of the scenario field ``path``
    (``script``, ``None``: rolled) and the number of its first die id (``first_index``)."""

    owner: str
    purpose: str
    target: str | None
    sv: SuccessValue
    n: int
    script: tuple[int, ...] | None
    path: str
    first_index: int


@dataclass(frozen=True)
class RollState:
    """The roll exchange after each step of :data:`ROLL_STEPS` (a frozen value; each step returns a new one).

    Attributes:
        active: the Active Miner as it resolves: counted as Idle when its Skill fails its Requirements, without the
            shares of a split Skill that fail theirs (the declared one is ``ctx.scenario.active``).
        aro: the Skill each Reactive Miner uses at Resolution, in Timeline order (``"idle"`` when its ARO fails its
            Requirements, ``"none"``: no ARO).
        planned: the rolls whose Success Values are set, in roll order (:func:`success_values`).
        pools: the dice rolled, in roll order: the Active Miner's attack shares in declaration order (or its Evade),
            then each Reactive Miner's (:func:`roll_dice`). megabeast_pool: the MegaBeast's Threat Level as its roll.
        pairs: every opposed or unopposed roll compared so far. impacts: uncancelled successes waiting for Saving
            Rolls. evade_results: ``(evader, won)`` for each attack an Evade Roll faced. megabeast_prevails: the
            MegaBeast prevailed over the Active Miner.
        saves: the Saving Rolls made (:func:`saving_rolls`).
        wounds_lost, wounds_left, teseum, t_bezoar: ``(name, number)`` in the order the trace reports them.
        dying: ``(Miner, the MegaBeast was involved)`` for each Miner that reached 0 Wounds, before its Death.
        megabeast: the MegaBeast after the exchange. dead: who died. loot: ``(dead TAG, Loot)``.
        evade_moves: Miners whose Evade lets them move. states: ``(target, States entered)``, or ``None`` when no
            attack of the scenario can cause a State.
    """

    active: ActiveMiner
    aro: tuple[str, ...] = ()
    planned: tuple[PlannedRoll, ...] = ()
    pools: tuple[Pool, ...] = ()
    megabeast_pool: Pool | None = None
    pairs: tuple[Pair, ...] = ()
    impacts: tuple[Impact, ...] = ()
    evade_results: tuple[tuple[str, bool], ...] = ()
    megabeast_prevails: bool = False
    saves: tuple[SavingRolls, ...] = ()
    wounds_lost: tuple[tuple[str, int], ...] = ()
    wounds_left: tuple[tuple[str, int], ...] = ()
    teseum: tuple[tuple[str, int], ...] = ()
    t_bezoar: tuple[tuple[str, int], ...] = ()
    dying: tuple[tuple[str, bool], ...] = ()
    megabeast: MegaBeastResult | None = None
    dead: tuple[str, ...] = ()
    loot: tuple[tuple[str, Loot], ...] = ()
    evade_moves: tuple[str, ...] = ()
    states: tuple[tuple[str, tuple[str, ...]], ...] | None = None


@dataclass(frozen=True)
class RollContext(Context):
    """What the steps of a roll exchange read and never change: the kernel's ``rulings`` (a
    :class:`~explorer.options.Rulings`) and ``dice`` (an :class:`~explorer.dice.Dice`), and the scenario.

    Attributes:
        scenario: the roll exchange as declared (:class:`~explorer.games.tagraid.model.Scenario`).
        letters: ``{name: die-id letter}``: ``"A"`` the Active Miner, ``"B"``, ``"C"``... the Reactive Miners in
            Timeline order, ``"MB"`` the MegaBeast.
        reactive_index: ``{name: position in scenario.reactive}``.
        contact: the Reactive Miners in Silhouette Contact with the Active Miner, in Timeline order.
    """

    scenario: Scenario | None = None
    letters: Mapping[str, str] = field(default_factory=dict)
    reactive_index: Mapping[str, int] = field(default_factory=dict)
    contact: tuple[str, ...] = ()

    @classmethod
    def of(cls, sc: Scenario, rulings: Rulings, dice: Dice) -> "RollContext":
        """The context of ``sc`` (lookups by name are built once: resolving stays linear in the number of Miners,
        benchmarks/bench_scaling.py)."""
        letters = {sc.active.name: "A", **{m.name: _letter(i) for i, m in enumerate(sc.reactive)}}
        if sc.megabeast:
            letters[sc.megabeast.name] = "MB"
        return cls(rulings, dice, sc, letters, {m.name: i for i, m in enumerate(sc.reactive)},
                   tuple(m.name for m in sc.reactive if m.silhouette_contact))

    @cached_property
    def contact_set(self) -> frozenset[str]:
        return frozenset(self.contact)


def _letter(i: int) -> str:
    return chr(ord("B") + i) if i < 24 else f"R{i + 1}"


def _named_sum(mods: Mapping[str, int]) -> str:
    return " ".join(f"{v:+d} {k}" for k, v in mods.items())


def _shares(active: ActiveMiner) -> dict[str, Attack]:
    """The Active Miner's attack shares by target."""
    return {at.target: at for at in active.attacks}


def _attacked(active: ActiveMiner, shares: Mapping[str, Attack], name: str) -> bool:
    """Whether ``name`` is attacked at Resolution: a share of the Active Miner's attack with dice is aimed at it."""
    at = shares.get(name)
    return active.skill in ATTACKS and at is not None and (at.burst or 0) > 0


def _enemy_tags_in_contact(m: Any, ctx: RollContext) -> int:
    """Enemy TAGs in Silhouette Contact with ``m``: its ``enemy_tags_in_contact`` (which may count Miners outside
    the scenario), and at least the scenario's Miners marked in contact with it."""
    if m.name == ctx.scenario.active.name:
        return max(m.enemy_tags_in_contact, len(ctx.contact))
    return max(m.enemy_tags_in_contact, 1 if m.silhouette_contact else 0)


def _in_contact_with(target: str, ctx: RollContext) -> bool:
    """Whether the Active Miner is in Silhouette Contact with ``target`` (a Reactive Miner or the MegaBeast)."""
    mb = ctx.scenario.megabeast
    if mb is not None and target == mb.name:
        return mb.silhouette_contact
    return target in ctx.contact_set


def _miner(state: RollState, ctx: RollContext, name: str) -> tuple[Any, str]:
    """The Miner called ``name`` (the Active Miner as it resolves) and its scenario field path; ``(None,
    "megabeast")`` for the MegaBeast."""
    if name == state.active.name:
        return state.active, "active"
    i = ctx.reactive_index.get(name)
    if i is not None:
        return ctx.scenario.reactive[i], f"reactive[{i}]"
    return None, "megabeast"


def _requirement_step(who: str, skill: str, letter: str, reason: str, rule, **facts) -> Step:
    """The Requirement a declared Skill fails, citing the Skill's Requirements (the Idle step follows)."""
    return Step(f"{who}'s {SKILL_NAMES[skill]} fails its Requirements", rule, reason[0].upper() + reason[1:] + ".",
                dict(miner=who, declared=skill, requirement_failed=reason, **facts), (letter,), DECLARATIONS)


def _ranged_contact(m: Any, now: bool, said: str, letter: str, ctx: RollContext) -> tuple[str | None, tuple[Step, ...]]:
    """Why a Ranged Attack by ``m`` fails the Requirement of no Silhouette Contact with an enemy Miner during the
    Order Activation step (Common Skills › Ranged Attack, Requirements), or ``None``; and the step that says it meets
    it under the reading ``activation_moment``. ``now``: ``m`` is in such contact at Resolution, where the Active
    Miner's Move (step 1.2) left it; ``said``: the reason given for that. ``m.at_activation``: where it stood when the
    Order was activated (omitted: as at Resolution)."""
    if m.at_activation is None:
        return (said if now else None), ()
    if m.at_activation.silhouette_contact:
        return ("a Ranged Attack requires not being in Silhouette Contact with an enemy Miner during the Order "
                f"Activation step, and {m.name} was in Silhouette Contact with an enemy Miner when the Order was "
                "activated" + ("" if now else " (it no longer is at Resolution: that does not help)")), ()
    if not now:
        return None, ()
    reading = ctx.rulings.reading("ranged_attack_activation_contact")
    if reading == "activation_step":
        return (f"{said}; {m.name} was not in contact when the Order was activated, but the contact was made by "
                "the Active Miner's Move, which is part of the Activation step (ruling "
                "'ranged_attack_activation_contact = activation_step')"), ()
    return None, (Step(f"{m.name} was not in Silhouette Contact with an enemy Miner when the Order was activated: "
                       "its Ranged Attack meets that Requirement", S.RANGED_ATTACK_REQUIREMENTS,
                       "Ruling 'ranged_attack_activation_contact = activation_moment': only the moment the Order is "
                       "activated counts, so the contact made by the Active Miner's Move does not forbid it.",
                       dict(miner=m.name, requirement="no_contact_at_activation", met=True), (letter,),
                       DECLARATIONS),)


def _lose_shares(a: ActiveMiner, failed: list[str], title: str, rule: Any, detail: str) -> tuple[ActiveMiner, Step]:
    """A split Skill whose shares at ``failed`` targets fail their Requirement, under the reading that keeps the
    rest (``split_burst_without_lof = share_lost``, ``cc_target_out_of_contact = share_fails``): the Active Miner's
    Attack without those shares (Burst 0, no dice) and the Declarations step that says so."""
    kept = a.model_copy(update={"attacks": [
        at.model_copy(update={"burst": 0, "dice": None}) if at.target in failed else at for at in a.attacks]})
    return kept, Step(title, rule, detail, dict(miner=a.name, failed_targets=failed), ("A",), DECLARATIONS)


def _burst_floor(who: str, base: int, mod: int, letter: str, path: str, what: str) -> tuple[Step, ...]:
    """A Burst MOD that would take the Burst below 0 (Skills and Tools › Tools: Burst is the number of d20s
    rolled; Activating a Miner › Orders and AROs: a MOD may change an ARO's Burst): the Burst stays at 0 and the
    Miner rolls no dice. Said in a step, never silently."""
    if base + mod >= 0:
        return ()
    return (Step(f"{who}'s Burst {base} {mod:+d} = {base + mod} cannot go below 0: Burst 0, {who} rolls no dice",
                 S.TOOLS, f"Burst is the number of d20s rolled, so it cannot be negative; the {what} with a Burst "
                 f"MOD of {mod:+d} ({path}) leaves none. The Skill is still declared (it can still be opposed "
                 "and generate AROs) but it rolls nothing.",
                 dict(miner=who, field=path, burst_before_floor=base + mod, burst=0), (letter,), DECLARATIONS),)


# ----------------------------------------------------------------------------------------------------------------------
# Resolution: Requirements and declarations


def check_active_requirements(state: RollState, ctx: RollContext) -> tuple[RollState, tuple[Step, ...]]:
    """Order Expenditure Sequence, step 5 (Resolution): the Active Miner's Skill is checked against its Requirements
    (Common Skills › Ranged Attack / Close Combat Attack, Requirements); a Skill that fails them counts as Idle. A
    split Skill may lose only the shares that fail (rulings ``split_burst_without_lof``,
    ``cc_target_out_of_contact``)."""
    a, out = state.active, []
    reason = rule = None
    if a.skill == "ranged_attack":
        who = ", ".join(ctx.contact) or plural(a.enemy_tags_in_contact, "enemy Miner")
        reason, said = _ranged_contact(
            a, _enemy_tags_in_contact(a, ctx) > 0,
            f"a Ranged Attack requires not being in Silhouette Contact with an enemy Miner, and {a.name} is in "
            f"Silhouette Contact with {who}", "A", ctx)
        out += said
        rule = S.RANGED_ATTACK_REQUIREMENTS if reason else None
    if reason is None and a.skill == "ranged_attack" and a.weapon.needs_lof:  # no LoF symbol: LoF not required
        blind = [at.target for at in a.attacks if not at.lof]
        split = bool(blind) and len(blind) < len(a.attacks)
        if split and ctx.rulings.reading("split_burst_without_lof") == "share_lost":
            a, lost = _lose_shares(a, blind, f"{a.name}'s Ranged Attack shares at {', '.join(blind)} are lost: no LoF",
                                   S.RANGED_ATTACK_REQUIREMENTS,
                                   "A Ranged Attack requires LoF to its target; under the ruling "
                                   "split_burst_without_lof = share_lost only those shares are lost (not rolled) and "
                                   "the shares at targets in LoF are resolved.")
            return replace(state, active=a), (*out, lost)
        if blind:
            reason = (f"a Ranged Attack requires LoF to its target, and {a.name} has no LoF to {', '.join(blind)}"
                      + (" (ruling split_burst_without_lof = whole_skill_idle: the shares at targets in LoF are "
                         "lost too)" if split else ""))
            rule = S.RANGED_ATTACK_REQUIREMENTS
    if reason is None and a.skill == "close_combat_attack":
        away = [at.target for at in a.attacks if not _in_contact_with(at.target, ctx)]
        if away and len(away) < len(a.attacks) and ctx.rulings.reading("cc_target_out_of_contact") == "share_fails":
            a, lost = _lose_shares(a, away, f"{a.name}'s Close Combat Attack shares at {', '.join(away)} fail: not "
                                   "in Silhouette Contact", S.CLOSE_COMBAT_ATTACK,
                                   "A Close Combat Attack requires Silhouette Contact with its target; under the "
                                   "ruling cc_target_out_of_contact = share_fails only those shares are lost (not "
                                   "rolled) and the shares at targets in contact are resolved.")
            return replace(state, active=a), (*out, lost)
        if away:
            reason = (f"a Close Combat Attack requires Silhouette Contact with its target, and {a.name} is not in "
                      f"Silhouette Contact with {', '.join(away)}")
            rule = S.CLOSE_COMBAT_REQUIREMENTS
    if not reason:
        return state, tuple(out)
    out.append(_requirement_step(a.name, a.skill, "A", reason, rule))
    out.append(Step(f"{a.name} (Active) declared a {SKILL_NAMES[a.skill]} that does not meet its Requirements: it "
                    f"counts as Idle", S.ORDER_EXPENDITURE_SEQUENCE,
                    f"Resolution checks Requirements ({SKILL_REFS[a.skill].section}); it fails them (above). A "
                    "Skill that fails its Requirements counts as Idle (Common Skills › Idle).",
                    dict(miner=a.name, declared=a.skill, skill="idle", requirement=reason), ("A",), DECLARATIONS))
    return replace(state, active=a.model_copy(update={"skill": "idle", "attacks": []})), tuple(out)


def declare_active_skill(state: RollState, ctx: RollContext) -> tuple[RollState, tuple[Step, ...]]:
    """Activating a Miner › Order Expenditure Sequence: the Active Miner's second Skill as it resolves (Common
    Skills › Ranged Attack, Close Combat Attack, Evade, Idle): the Weapon's full Burst and its split over the
    targets, or the Evade / Idle; a Burst MOD never takes the Burst below 0 (Skills and Tools › Tools)."""
    a = state.active
    if a.skill in ATTACKS:
        split = ", ".join(f"{at.burst} at {at.target}" for at in a.attacks)
        return state, (
            Step(f"{a.name} (Active) declares {SKILL_NAMES[a.skill]} with {a.weapon.name}: Burst "
                 f"{attack_burst(a)} ({split})", SKILL_REFS[a.skill],
                 "The Active Miner's Weapon rolls its full Burst; with several targets the split is declared "
                 "with the Attack.", dict(miner=a.name, skill=a.skill, burst=attack_burst(a),
                                          split={at.target: at.burst for at in a.attacks}), ("A",), DECLARATIONS),
            *_burst_floor(a.name, a.weapon.burst, a.burst_mod, "A", "active.burst_mod", "Weapon's Burst"))
    return state, (Step(f"{a.name} (Active) declares {SKILL_NAMES[a.skill]}", SKILL_REFS[a.skill],
                        "Evade is always allowed to the Active Miner; Idle performs no action." if a.skill == "evade"
                        else "Idle only activates the Miner, which may generate AROs.",
                        dict(miner=a.name, skill=a.skill), ("A",), DECLARATIONS),)


def declare_aros(state: RollState, ctx: RollContext) -> tuple[RollState, tuple[Step, ...]]:
    """Activating a Miner › Orders and AROs; Order Expenditure Sequence, steps 2, 4 and 5: each Reactive Miner's ARO,
    in Timeline order: its right to an ARO (LoF to the Active Miner, the target of an Attack, or Evade in its
    Hexagon) and the Requirements of the Skill at Resolution (a Skill that fails them counts as Idle)."""
    shares = _shares(state.active)
    aro, out = [], []
    for m in ctx.scenario.reactive:
        skill, steps = _check_aro(m, state.active, shares, ctx)
        aro.append(skill)
        out += steps
    return replace(state, aro=tuple(aro)), tuple(out)


def _check_aro(m: ReactiveMiner, active: ActiveMiner, shares: Mapping[str, Attack], ctx: RollContext
               ) -> tuple[str, list[Step]]:
    """The Skill ``m`` uses at Resolution and the Declarations steps that explain it."""
    sec, sc = DECLARATIONS, ctx.scenario
    attacked = _attacked(active, shares, m.name)
    letter = ctx.letters[m.name]
    if m.skill == "none":
        return "none", [Step(f"{m.name} declares no ARO", S.ORDERS_AND_AROS, "", dict(miner=m.name, skill="none"),
                             (letter,), sec)]
    declared_target = m.target_not_attacked or (sc.active.skill in ATTACKS and any(
        at.target == m.name for at in sc.active.attacks))
    if declared_target and not (m.lof_to_active or attacked or m.same_hexagon):
        # the right to an ARO came at step 4, as a target; at Resolution the Attack counts as Idle, so the ARO is
        # checked against its own Requirements like any other (Order Expenditure Sequence, step 5)
        need = {"ranged_attack": ("a Ranged Attack requires LoF to its target", S.RANGED_ATTACK_REQUIREMENTS),
                "close_combat_attack": ("a Close Combat Attack requires Silhouette Contact with its target",
                                        S.CLOSE_COMBAT_REQUIREMENTS),
                "evade": ("a Reactive Miner may only Evade when attacked or in the Active Miner's Hexagon",
                          S.EVADE_REQUIREMENTS),
                "idle": (None, None)}[m.skill]
        lost = ("that Attack counts as Idle" if active.skill not in ATTACKS else
                "the share of the Burst aimed at it is lost")
        why = (f"as the target of {active.name}'s Attack, {m.name} gained its right to an ARO at step 4, but "
               f"{lost}: at Resolution {m.name} is not attacked, has no LoF to {active.name} and is not in "
               "its Hexagon")
        if need[0] is None:
            return "idle", [Step(f"{m.name} declares an Idle ARO", S.ORDERS_AND_AROS, why[0].upper() + why[1:] + ".",
                                 dict(miner=m.name, skill="idle", burst=0, attacked=False, aro_right_step=4),
                                 (letter,), sec)]
        reason = f"{why}; {need[0]}"
        return "idle", [
            _requirement_step(m.name, m.skill, letter, reason, need[1], aro_right_step=4),
            Step(f"{m.name}'s {SKILL_NAMES[m.skill]} ARO does not meet its Requirements: it counts as Idle",
                 S.ORDER_EXPENDITURE_SEQUENCE, f"Resolution checks Requirements ({SKILL_REFS[m.skill].section})"
                 "; it fails them (above). A Skill that fails its Requirements counts as Idle (Common Skills › "
                 "Idle).", dict(miner=m.name, declared=m.skill, skill="idle", requirement=reason, aro_right_step=4),
                 (letter,), sec)]
    if not (m.lof_to_active or attacked or m.same_hexagon):
        return "none", [Step(f"{m.name} has no right to an ARO: no LoF to {active.name}, not attacked, not in its "
                             f"Hexagon", S.ORDERS_AND_AROS,
                             "A Reactive Miner may only declare an ARO with LoF to the Active Miner, when it is the "
                             "target of an Attack, or (Evade only) when the Active Miner is in its Hexagon.",
                             dict(miner=m.name, declared=m.skill, skill="none"), (letter,), sec)]
    # the right to an ARO: at step 2 (after the Move) with LoF to the Active Miner or in its Hexagon, else at
    # step 4, once the second Skill makes it the target of an Attack (Order Expenditure Sequence)
    right_step = 2 if (m.lof_to_active or m.same_hexagon) else 4
    out: list[Step] = []
    reason = rule = None
    if not m.lof_to_active and not attacked and m.skill != "evade":
        reason = "without LoF and not attacked, a Miner in the Active Miner's Hexagon may only Evade"
    elif m.skill == "ranged_attack" and not m.lof_to_active and m.weapon.needs_lof:
        reason = (f"{m.name} gained the right to an ARO only at step 4, as the target of the Attack, and at "
                  f"Resolution it has no LoF to {active.name}: a Ranged Attack requires LoF to its target")
        rule = S.RANGED_ATTACK_REQUIREMENTS
    elif m.skill == "close_combat_attack" and not m.silhouette_contact:
        reason = (f"a Close Combat Attack requires Silhouette Contact with its target, and {m.name} is not in "
                  f"Silhouette Contact with {active.name}")
        rule = S.CLOSE_COMBAT_REQUIREMENTS
    elif m.skill == "evade" and not (attacked or m.same_hexagon):
        reason = "a Reactive Miner may only Evade when attacked or in the Active Miner's Hexagon"
        rule = S.EVADE_REQUIREMENTS
    elif m.skill == "ranged_attack":
        said, met = _ranged_contact(
            m, _enemy_tags_in_contact(m, ctx) > 0,
            "a Ranged Attack requires not being in Silhouette Contact with an enemy Miner"
            + (f", and {m.name} is in Silhouette Contact with {active.name}" if m.silhouette_contact else ""),
            letter, ctx)
        out += met
        if said:
            reason, rule = said, S.RANGED_ATTACK_REQUIREMENTS
    if reason:
        if rule is not None:
            out.append(_requirement_step(m.name, m.skill, letter, reason, rule, aro_right_step=right_step))
        why = "it fails them (above)" if rule is not None else f"here {reason}"
        out.append(Step(f"{m.name}'s {SKILL_NAMES[m.skill]} ARO does not meet its Requirements: it counts as Idle",
                        S.ORDER_EXPENDITURE_SEQUENCE, f"Resolution checks Requirements "
                        f"({SKILL_REFS[m.skill].section}); {why}. A Skill that fails its Requirements counts as Idle "
                        "(Common Skills › Idle).", dict(miner=m.name, declared=m.skill, skill="idle",
                                                        requirement=reason, aro_right_step=right_step),
                        (letter,), sec))
        return "idle", out
    burst = aro_burst(m)
    if m.skill in ATTACKS:
        detail = ("An ARO has Burst 1" + (f"; a Burst MOD of {m.burst_mod:+d} makes it {burst}." if m.burst_mod
                                              else "."))
        title = (f"{m.name} declares a {SKILL_NAMES[m.skill]} ARO with {m.weapon.name} at {active.name}: "
                 f"Burst {burst}")
    elif m.skill == "evade":
        detail = "Evade is a single Roll whatever the Burst of the attacks it opposes."
        title = f"{m.name} declares an Evade ARO"
    else:
        detail, title = "Idle performs no action.", f"{m.name} declares an Idle ARO"
    out.append(Step(title, S.ORDERS_AND_AROS, detail, dict(miner=m.name, skill=m.skill, burst=burst,
                                                            attacked=attacked, aro_right_step=right_step),
                    (letter,), sec))
    if m.skill in ATTACKS:
        out += _burst_floor(m.name, 1, m.burst_mod, letter, f"reactive[{ctx.reactive_index[m.name]}].burst_mod",
                            "ARO's Burst 1")
    return m.skill, out


def declare_megabeast_aro(state: RollState, ctx: RollContext) -> tuple[RollState, tuple[Step, ...]]:
    """MegaBeast › Skills, Attacks, and AROs: the MegaBeast's Behavior ARO (it does not roll: the Threat Level of
    the Hexagon side where the ARO occurs is its result), or no ARO without LoF to the Active TAG."""
    mb = ctx.scenario.megabeast
    if mb is None:
        return state, ()
    if mb.aro:
        what = mb.behavior_attack.name if mb.behavior_attack else "its Behavior ARO"
        return state, (Step(f"{mb.name} declares its Behavior ARO ({what}) against {state.active.name}; its Threat "
                            f"Level on that side is {mb.threat_level}", S.MEGABEAST_AROS,
                            "The MegaBeast does not roll: the Threat Level of the Hexagon side where the ARO occurs "
                            "is its result.", dict(threat_level=mb.threat_level), ("MB",), DECLARATIONS),)
    return state, (Step(f"{mb.name} declares no ARO", S.MEGABEAST_AROS,
                        "Without LoF to the Active TAG the MegaBeast gains no ARO (if attacked it only reorients "
                        "during the Conclusion).", {}, ("MB",), DECLARATIONS),)


# ----------------------------------------------------------------------------------------------------------------------
# Resolution: measurements, MODs and Success Values; the rolls


def _only_ranged(who: str, skill: str, letter: str, sources: Sequence[tuple[str, Mapping[str, int]]]
                 ) -> tuple[set[str], tuple[Step, ...]]:
    """Range MODs named on a Skill that is not a Ranged Attack: dropped, in one cited step.

    Range MODs (any MOD whose name has the word "Range": ``Range``, ``Long Range``, ``Out of Range``...) come
    from the Range Ruler for a Ranged Weapon and modify only the Ranged Attack Attribute (Rolls › Modifiers
    (MOD); Distances and Measurements › Range Ruler); Close Combat Weapons have no Range MODs (Skills and Tools ›
    Tools), and Evade has its own MODs only (Common Skills › Evade). ``sources``: ``(scenario field, mods)``.
    Returns the names dropped and the step."""
    if skill == "ranged_attack":
        return set(), ()
    dropped = [(f"{f}.{k}", k, v) for f, mods in sources for k, v in mods.items() if is_range_mod(k)]
    if not dropped:
        return set(), ()
    what = ", ".join(f"{v:+d} {k}" for _, k, v in dropped)
    return {k for _, k, _ in dropped}, (
        Step(f"{who}'s {what} ignored: Range MODs apply only to Ranged Attacks, not to {SKILL_NAMES[skill]}",
             S.RANGE_RULER,
             "Range MODs come from a Ranged Weapon's Range and modify only the Ranged Attack Attribute; Close "
             "Combat Weapons have no Range MODs (Skills and Tools › Tools) and Evade applies only its own MODs "
             "(Common Skills › Evade). Ignored: " + ", ".join(f for f, _, _ in dropped) + ".",
             dict(miner=who, skill=skill, ignored_mods={f: v for f, _, v in dropped}), (letter,), SUCCESS_VALUES),)


def _attack_mods(attacker: Any, skill: str, base: Mapping[str, int], target_miner: Any, ctx: RollContext,
                 drop: set[str] = frozenset()) -> dict[str, int]:
    mods = {k: v for k, v in attacker.mods.items() if k not in drop}
    for k, v in base.items():
        if k in drop:
            continue
        mods[k if k not in mods else f"{k} (this target)"] = v
    if skill == "ranged_attack" and target_miner is not None:
        if target_miner.partial_cover and cover_counts(attacker.weapon is None or attacker.weapon.needs_lof, ctx):
            mods["Partial Cover"] = -3
        if "Ranged Attack -3" in target_miner.traits:
            mods["Ranged Attack -3 trait"] = -3
    if skill == "close_combat_attack" and _enemy_tags_in_contact(attacker, ctx) > 1:
        mods["Contact with several enemy TAGs"] = -3
    return mods


def cover_counts(lof_symbol: bool, ctx: RollContext) -> bool:
    """Whether a target's Partial Cover counts against a Ranged Attack whose card has (``lof_symbol``) or lacks the
    LoF symbol (Damage › Partial Cover: "Attacks without" the glyph give no Partial Cover; ruling
    ``partial_cover_glyph``, consulted only for an Attack without the symbol)."""
    return lof_symbol or ctx.rulings.reading("partial_cover_glyph") == "every_ranged_attack"


def _no_cover_note(attacker: Any, skill: str, target_miner: Any, mods: Mapping[str, int]) -> str:
    """The note of a Success Value whose target is in Partial Cover that does not count (an Attack without the LoF
    symbol), else ``""``."""
    if (skill != "ranged_attack" or target_miner is None or not target_miner.partial_cover
            or "Partial Cover" in mods):
        return ""
    return (f" {target_miner.name} is in Partial Cover, but {attacker.weapon.name} lacks the LoF symbol: targets "
            "of an Attack without it cannot benefit from Partial Cover (Damage › Partial Cover; ruling "
            "partial_cover_glyph = lof_symbol), so no -3 MOD.")


def _evade_mods(m: Any, conditions: list[str], drop: set[str] = frozenset()) -> dict[str, int]:
    mods = {k: v for k, v in m.mods.items() if k not in drop}
    if conditions:
        mods["Evade MOD"] = -3
    return mods


def _mod_notes(mods: Mapping[str, int]) -> str:
    notes = []
    if "Partial Cover" in mods:
        notes.append("The target is in Partial Cover: -3 to the Ranged Attack.")
    if "Ranged Attack -3 trait" in mods:
        notes.append("The target is equipped with a Tool with the 'Ranged Attack -3' Trait.")
    if "Contact with several enemy TAGs" in mods:
        notes.append("In Silhouette Contact with more than one enemy TAG: -3 to Close Combat.")
    return " ".join(notes)


def _evade_note(conds: list[str]) -> str:
    if not conds:
        return "No Evade MOD applies."
    if len(conds) == 1:
        return f"Evade MOD -3: {conds[0]}."
    return f"A single Evade MOD of -3 although several situations apply ({'; '.join(conds)})."


def _sv_step(who: str, what: str, sv: SuccessValue, ref, letter: str, extra: str = "") -> Step:
    parts = f"{sv.attribute} {_named_sum(sv.mods)}".strip()
    capped = f" (total MOD capped at {sv.mod_total:+d})" if sv.capped else ""
    return Step(f"{who} {what}: SV {sv.value} = {parts}{capped}", ref,
                ("Success Value = Attribute with every MOD applied. " + extra).strip(),
                dict(miner=who, sv=sv.value, attribute=sv.attribute, mods=dict(sv.mods), mod_total=sv.mod_total),
                (letter,), SUCCESS_VALUES)


def _out_of_range(who: str, target: str, letter: str) -> Step:
    return Step(f"{target} is Out of Range of {who}'s Weapon: the Ranged Attack fails automatically (no dice)",
                S.RANGED_ATTACK, "Only Weapons that say so may fire Out of Range (their MOD is then on the card).",
                dict(miner=who, target=target), (letter,), ROLLS)


def _script(dice: Sequence[int] | None) -> tuple[int, ...] | None:
    return None if dice is None else tuple(dice)


def success_values(state: RollState, ctx: RollContext) -> tuple[RollState, tuple[Step, ...]]:
    """Order Expenditure Sequence, step 5: the measurements are made and the MODs applied (Rolls › Modifiers (MOD);
    Common Skills › Ranged Attack, Close Combat Attack, Evade; Damage › Partial Cover): the Success Value of every
    roll, the Active Miner's shares target by target, then each Reactive Miner's; an attack Out of Range rolls no
    dice."""
    sc, a, r = ctx.scenario, state.active, ctx.rulings
    reactive = {m.name: m for m in sc.reactive}
    aro = dict(zip((m.name for m in sc.reactive), state.aro))
    attackers_of_active = [m for m in sc.reactive if aro[m.name] in ATTACKS]
    mb_attacks = bool(sc.megabeast and sc.megabeast.aro)
    planned: list[PlannedRoll] = []
    out: list[Step] = []
    n = 1
    if a.skill in ATTACKS:
        for i, at in enumerate(a.attacks):
            tgt = reactive.get(at.target)
            drop, said = _only_ranged(a.name, a.skill, "A", [("active.mods", a.mods)] * (i == 0) +
                                      [(f"active.attacks[{i}].mods", at.mods)])
            out += said
            drop |= {k for k in a.mods if is_range_mod(k)} if a.skill != "ranged_attack" else set()
            mods = _attack_mods(a, a.skill, at.mods, tgt, ctx, drop)
            sv = success_value(a.attribute, mods, r)
            out.append(_sv_step(a.name, f"{SKILL_NAMES[a.skill]} at {at.target}", sv,
                                S.RANGED_ATTACK if a.skill == "ranged_attack" else S.CLOSE_COMBAT_ATTACK, "A",
                                _mod_notes(mods) + _no_cover_note(a, a.skill, tgt, mods)))
            oor = at.out_of_range and a.skill == "ranged_attack"
            if oor:
                out.append(_out_of_range(a.name, at.target, "A"))
            planned.append(PlannedRoll(a.name, "attack", at.target, sv, 0 if oor else at.burst or 0,
                                       _script(at.dice), f"active.attacks[{i}].dice", n))
            n += at.burst or 0
    elif a.skill == "evade":
        conds = []
        if (attackers_of_active or mb_attacks) and not a.lof_to_attackers:
            conds.append("it is attacked without LoF to its attacker")
        if _enemy_tags_in_contact(a, ctx) > 1:
            conds.append("it is in Silhouette Contact with more than one enemy TAG")
        drop, said = _only_ranged(a.name, "evade", "A", [("active.mods", a.mods)])
        out += said
        sv = success_value(a.attribute, _evade_mods(a, conds, drop), r)
        out.append(_sv_step(a.name, "Evade", sv, S.EVADE, "A", _evade_note(conds)))
        planned.append(PlannedRoll(a.name, "evade", None, sv, 1, _script(a.dice), "active.dice", 1))
    shares = _shares(a)
    for i, m in enumerate(sc.reactive):
        skill = state.aro[i]
        letter = ctx.letters[m.name]
        if skill in ATTACKS:
            drop, said = _only_ranged(m.name, skill, letter, [(f"reactive[{i}].mods", m.mods)])
            out += said
            mods = _attack_mods(m, skill, {}, a, ctx, drop)
            sv = success_value(m.attribute, mods, r)
            out.append(_sv_step(m.name, f"{SKILL_NAMES[skill]} ARO at {a.name}", sv,
                                S.RANGED_ATTACK if skill == "ranged_attack" else S.CLOSE_COMBAT_ATTACK, letter,
                                _mod_notes(mods) + _no_cover_note(m, skill, a, mods)))
            oor = m.out_of_range and skill == "ranged_attack"
            if oor:
                out.append(_out_of_range(m.name, a.name, letter))
            planned.append(PlannedRoll(m.name, "attack", a.name, sv, 0 if oor else aro_burst(m), _script(m.dice),
                                       f"reactive[{i}].dice", 1))
        elif skill == "evade":
            attacked = _attacked(a, shares, m.name)
            conds = []
            if attacked and not m.lof_to_active:
                conds.append("it is attacked without LoF to its attacker")
            if m.same_hexagon and not m.lof_to_active:
                conds.append("the Active Miner is outside its LoF and in its Hexagon")
            if _enemy_tags_in_contact(m, ctx) > 1:
                conds.append("it is in Silhouette Contact with more than one enemy TAG")
            drop, said = _only_ranged(m.name, "evade", letter, [(f"reactive[{i}].mods", m.mods)])
            out += said
            sv = success_value(m.attribute, _evade_mods(m, conds, drop), r)
            out.append(_sv_step(m.name, "Evade", sv, S.EVADE, letter, _evade_note(conds)))
            planned.append(PlannedRoll(m.name, "evade", None, sv, 1, _script(m.dice), f"reactive[{i}].dice", 1))
    return replace(state, planned=tuple(planned)), tuple(out)


def _roll_step(p: Pool, ctx: RollContext) -> Step:
    kinds = [d.kind for d in p.dice]
    summary = ", ".join(f"{k} {kinds.count(k)}" for k in ("critical", "success", "failure") if kinds.count(k))
    aim = f" at {p.target}" if p.target else ""
    detail = "A die equal to or below the SV succeeds; equal to the SV it is a Critical."
    if p.sv and p.sv.value > 20:
        reading = ctx.rulings.reading("sv_above_20")
        detail += (f" The SV is above 20; reading '{reading}': " +
                   ("no die can equal it, so every die succeeds and none is a Critical." if reading == "literal"
                    else "the excess is added to every die and 20 or more is a Critical."))
    what = SKILL_NAMES.get(p.purpose, p.purpose) if p.purpose != "attack" else "the attack"
    return Step(f"{p.owner} rolls {p.describe()} for {what}{aim} against SV {p.sv.value}: {summary} "
                f"({ctx.dice.says(p.source)})", S.SUCCESSFUL_ROLL if not any(d.critical for d in p.dice)
                else S.CRITICALS, detail,
                dict(miner=p.owner, target=p.target, sv=p.sv.value, dice=p.facts(), source=ctx.dice.fact(p.source)),
                tuple(p.ids), ROLLS)


def roll_dice(state: RollState, ctx: RollContext) -> tuple[RollState, tuple[Step, ...]]:
    """Rolls; Rolls › Successful Roll, Criticals: every planned roll takes its dice (the scenario's fixed faces, else
    the seed), in order, and each die is a success (at or below the SV), a Critical (equal to it) or a failure. The
    MegaBeast does not roll: its Threat Level is its result (MegaBeast › Threat Level)."""
    pools = []
    for p in state.planned:
        letter = ctx.letters[p.owner]
        faces, source = ctx.dice.take(p.script, p.n, p.path, f"{p.owner} {p.purpose}")
        ids = tuple(f"{letter}.{p.first_index + i}" for i in range(len(faces)))
        dice = tuple(classify_die(f, p.sv.value, ctx.rulings) for f in faces)
        if p.sv.value > 20:
            ctx.rulings.reading("sv_above_20")
        pools.append(Pool(p.owner, p.purpose, p.target, ids, dice, p.sv, source))
    mb, mb_pool = ctx.scenario.megabeast, None
    if mb:
        tl = DieResult(mb.threat_level, mb.threat_level, mb.threat_level, "success")
        mb_pool = Pool(mb.name, "threat", None, ("MB",), (tl,), None, "threat level")
    return (replace(state, pools=tuple(pools), megabeast_pool=mb_pool),
            tuple(_roll_step(p, ctx) for p in pools if p.dice))


# ----------------------------------------------------------------------------------------------------------------------
# Resolution: the rolls compared (cancellation)


def _cancellation_steps(a: Pool, b: Pool, cmp: Comparison, ref) -> list[Step]:
    """One step per die and reason that cancels something, then the discarded dice.

    A die's victims are split by the rule that cancels them (Rolls › Face to Face Rolls, Criticals): Criticals
    cancel each other; a Critical cancels every non-critical success; equal results cancel each other; a
    success cancels lower ones. When both sides rolled Criticals, the non-critical successes are not beaten by a
    Critical but simply discarded: one step per side says so."""
    sec, out = FACE_TO_FACE_ROLLS, []
    both_crit = any(d.critical for d in a.dice) and any(d.critical for d in b.dice)
    for side, other, by in ((a, b, cmp.b_cancelled_by), (b, a, cmp.a_cancelled_by)):
        discarded: list[int] = []
        # dice of `side` that cancel dice of `other`
        for j in range(len(side.dice)):
            victims = [i for i, c in enumerate(by) if j in c]
            if not victims:
                continue
            d = side.dice[j]
            if d.critical:
                groups = [([i for i in victims if other.dice[i].critical], "Criticals cancel each other",
                           S.CRITICALS)]
                plain = [i for i in victims if not other.dice[i].critical]
                if both_crit:
                    discarded += [i for i in plain if i not in discarded]
                else:
                    groups.append((plain, "a Critical cancels every non-critical success, even a higher one",
                                   S.CRITICALS))
            else:
                groups = [([i for i in victims if other.dice[i].key == d.key], "equal results cancel each other",
                           ref),
                          ([i for i in victims if other.dice[i].key < d.key],
                           "a success cancels enemy successes with a lower result, even if it is itself "
                           "cancelled", ref)]
            for group, why, rule in groups:
                if not group:
                    continue
                out.append(Step(f"{side.owner}'s {d.face} ({side.ids[j]}) cancels {other.owner}'s "
                                f"{other.describe(group)}", rule, why[0].upper() + why[1:] + ".",
                                dict(canceller=side.ids[j], cancelled=[other.ids[i] for i in group]),
                                (side.ids[j], *[other.ids[i] for i in group]), sec))
        if discarded:
            discarded.sort()
            one = len(discarded) == 1
            out.append(Step(f"{other.owner}'s non-critical success{'' if one else 'es'} {other.describe(discarded)} "
                            f"{'is' if one else 'are'} discarded: both sides rolled Criticals", S.FACE_TO_FACE,
                            "When both sides roll Criticals, the Criticals cancel each other and non-critical "
                            "successes are discarded.", dict(discarded=[other.ids[i] for i in discarded]),
                            tuple(other.ids[i] for i in discarded), sec))
    fails = [(p, i) for p in (a, b) for i, d in enumerate(p.dice) if not d.success]
    if fails:
        out.append(Step("Failures are discarded: " + "; ".join(f"{p.owner}'s {p.dice[i].face} ({p.ids[i]})"
                                                               for p, i in fails), S.FACE_TO_FACE, "",
                        dict(failed=[p.ids[i] for p, i in fails]), tuple(p.ids[i] for p, i in fails), sec))
    return out


def _result_step(a: Pool, b: Pool, a_keeps: list[int], b_keeps: list[int]) -> tuple[str, Step]:
    """Who wins the Face to Face Roll (Rolls › Face to Face Rolls, Breaking Ties): ``"win"``, ``"tie"`` or
    ``"none"``, and the step that says it."""
    sec = FACE_TO_FACE_ROLLS
    if a_keeps or b_keeps:
        w, keeps = (a, a_keeps) if a_keeps else (b, b_keeps)
        return "win", Step(f"{w.owner} wins the Face to Face Roll with {w.describe(keeps)} uncancelled",
                           S.FACE_TO_FACE, "", dict(winner=w.owner, kept=[w.ids[i] for i in keeps]),
                           tuple(w.ids[i] for i in keeps), sec)
    if any(d.success for d in a.dice) and any(d.success for d in b.dice):
        crit = any(d.critical for d in a.dice) and any(d.critical for d in b.dice)
        return "tie", Step("Tie: no success survives, no effects are applied" + (" (Criticals on both sides)" if crit
                                                                                  else ""), S.BREAKING_TIES,
                           "A tie (Criticals or not) cancels both rolls; the Order is still spent.",
                           dict(winner=None, result="tie"), (*a.ids, *b.ids), sec)
    return "none", Step("No side keeps a success: nobody wins", S.FACE_TO_FACE, "",
                        dict(winner=None, result="no success"), (*a.ids, *b.ids), sec)


@dataclass(frozen=True)
class _Compared:
    """A Face to Face Roll of two pools: the indices of ``a``'s and ``b``'s uncancelled dice, the result kind, the
    comparison (and the wider one of ``evade_vs_split_attack = all_dice``) and the steps."""

    a_keeps: tuple[int, ...]
    b_keeps: tuple[int, ...]
    kind: str
    comparison: Comparison
    wide: Comparison | None
    steps: tuple[Step, ...]


def _face_to_face(a: Pool, b: Pool, a_cancel_pool: Pool | None = None) -> _Compared:
    """Compare two pools (Rolls › Face to Face Rolls). ``a_cancel_pool`` (Evade vs a split attack, reading
    ``all_dice``): the dice that may cancel b's successes, when larger than the dice that may hit b."""
    ref = S.FACE_TO_FACE_EVADE if "evade" in (a.purpose, b.purpose) else S.FACE_TO_FACE
    cmp = compare(a.dice, b.dice)
    a_keeps = [i for i, s in enumerate(cmp.a_survives) if s]
    wide = None
    if a_cancel_pool is not None:
        wide = compare(a_cancel_pool.dice, b.dice)
        b_keeps = [i for i, s in enumerate(wide.b_survives) if s]
        steps = _cancellation_steps(a_cancel_pool, b, wide, ref)
    else:
        b_keeps = [i for i, s in enumerate(cmp.b_survives) if s]
        steps = _cancellation_steps(a, b, cmp, ref)
    if a_keeps and b_keeps:  # only possible with the all_dice reading (never from one compare())
        raise AssertionError("both sides keep dice")
    kind, said = _result_step(a, b, a_keeps, b_keeps)
    return _Compared(tuple(a_keeps), tuple(b_keeps), kind, cmp, wide, (*steps, said))


def _normal(p: Pool, what: str) -> tuple[int, int, Step]:
    """A Normal Roll (Rolls › Normal Roll): its uncancelled hits and Criticals, and the step."""
    ok = [i for i, d in enumerate(p.dice) if d.success]
    hits = sum(1 for i in ok if not p.dice[i].critical)
    crits = len(ok) - hits
    return hits, crits, Step(
        f"Normal Roll: {p.owner}'s {what} is unopposed; {len(ok)} of {len(p.dice)} succeed"
        + (f" ({crits} Critical)" if crits else ""), S.NORMAL_ROLL,
        "Skills that do not affect each other directly use Normal Rolls: each die at or below the SV succeeds.",
        dict(miner=p.owner, target=p.target, successes=[p.ids[i] for i in ok], hits=hits, crits=crits),
        tuple(p.ids), NORMAL_ROLLS)


def _weapon_impact(attacker: Any, target: str, hits: int, crits: int, skill: str, damage_mods=None) -> Impact:
    w = attacker.weapon
    return Impact(attacker.name, target, hits, crits, w.damage, w.ammunition, skill == "ranged_attack",
                  tuple(w.traits), dict(damage_mods or {}), w.name, states=tuple(w.states), lof_symbol=w.needs_lof)


def _attack_damage(imp: Impact, state: RollState, ctx: RollContext) -> AttackDamage:
    """Attack Damage of an impact on a Miner (Damage › Saving Roll, Partial Cover; Ammunition AP; Traits
    ``Armor = 0``). Partial Cover only counts against an attack that needs LoF, and (ruling ``partial_cover_glyph``)
    whose card carries the LoF symbol."""
    target, _ = _miner(state, ctx, imp.target)
    return attack_damage(imp.damage, target.armor, Ammunition(imp.ammunition),
                         partial_cover=target.partial_cover and imp.ranged and cover_counts(imp.lof_symbol, ctx),
                         armor_zero="Armor = 0" in imp.traits, mods=imp.damage_mods)


def _keeps(p: Pool, keeps: Sequence[int]) -> tuple[int, int]:
    """Uncancelled non-critical successes and Criticals among ``keeps``."""
    hits = sum(1 for i in keeps if not p.dice[i].critical)
    return hits, len(keeps) - hits


def face_to_face_rolls(state: RollState, ctx: RollContext) -> tuple[RollState, tuple[Step, ...]]:
    """Rolls › Face to Face Rolls, Normal Roll; Face to Face: Evade: each Reactive Miner in Timeline order against the
    Active Miner: the dice of Skills that affect each other directly are compared (a success cancels lower enemy
    successes, equal ones cancel each other, a Critical cancels every non-critical success), the others are Normal
    Rolls; the uncancelled successes wait for their Saving Rolls."""
    a, sc = state.active, ctx.scenario
    shares = _shares(a)
    attack_pools = {p.target: p for p in state.pools if p.owner == a.name and p.purpose == "attack"}
    evade = next((p for p in state.pools if p.owner == a.name and p.purpose == "evade"), None)
    by_owner = {p.owner: p for p in state.pools if p.owner != a.name}
    pairs, impacts, evades, out = list(state.pairs), list(state.impacts), list(state.evade_results), []
    for m, skill in zip(sc.reactive, state.aro):
        at = shares.get(m.name)
        ap, rp = attack_pools.get(m.name), by_owner.get(m.name)
        pa: Pool | None = None
        pb: Pool | None = None
        cmp: Comparison | None = None
        wide_cmp: Comparison | None = None
        damage: dict[str, AttackDamage] = {}
        result: str | None = None
        hits: dict[str, int] = {}
        crits: dict[str, int] = {}

        def hit(imp: Impact) -> AttackDamage:
            if imp.hits + imp.crits:
                impacts.append(imp)
            return _attack_damage(imp, state, ctx)

        if ap is not None and ap.dice and rp is not None and rp.dice:
            wide = None
            if skill == "evade" and len([p for p in attack_pools.values() if p.dice]) > 1:
                if ctx.rulings.reading("evade_vs_split_attack") == "all_dice":
                    dice = tuple(d for p in attack_pools.values() for d in p.dice)
                    ids = tuple(i for p in attack_pools.values() for i in p.ids)
                    wide = Pool(a.name, "attack", None, ids, dice, ap.sv, ap.source)
                    out.append(Step(f"{m.name}'s Evade opposes the whole Attack: all of {a.name}'s dice may cancel "
                                    f"it, only those aimed at {m.name} may hit it", S.FACE_TO_FACE_EVADE,
                                    "Ruling 'evade_vs_split_attack = all_dice'.", {}, ids, FACE_TO_FACE_ROLLS))
            kind_name = "Evade" if skill == "evade" else SKILL_NAMES[skill]
            out.append(Step(f"Face to Face Roll: {a.name} ({ap.describe()}) against {m.name}'s {kind_name} "
                            f"({rp.describe()})", S.FACE_TO_FACE_EVADE if skill == "evade" else S.FACE_TO_FACE,
                            "Both Skills affect each other directly, so the dice are compared.", {},
                            (*ap.ids, *rp.ids), FACE_TO_FACE_ROLLS))
            f2f = _face_to_face(ap, rp, wide)
            out += f2f.steps
            pa, pb, cmp, wide_cmp = ap, rp, f2f.comparison, f2f.wide
            winner = a.name if f2f.a_keeps else m.name if f2f.b_keeps else None
            kind, result = "face_to_face", f2f.kind
            ah, ac = _keeps(ap, f2f.a_keeps)
            rh, rc = _keeps(rp, f2f.b_keeps)
            damage[a.name] = hit(_weapon_impact(a, m.name, ah, ac, a.skill, at.damage_mods if at else None))
            if skill in ATTACKS:
                damage[m.name] = hit(_weapon_impact(m, a.name, rh, rc, skill, m.damage_mods))
            else:
                evades.append((m.name, bool(f2f.b_keeps)))
            hits, crits = {a.name: ah, m.name: rh}, {a.name: ac, m.name: rc}
        elif ap is not None and ap.dice:
            h, c, said = _normal(ap, f"attack at {m.name}")
            out.append(said)
            damage[a.name] = hit(_weapon_impact(a, m.name, h, c, a.skill, at.damage_mods if at else None))
            pa, cmp = ap, compare(ap.dice, ())
            kind, winner, hits, crits = "normal_roll", a.name if h + c else None, {a.name: h}, {a.name: c}
        elif rp is not None and rp.dice and skill in ATTACKS:
            if evade is not None and evade.dice:
                out.append(Step(f"Face to Face Roll: {a.name}'s Evade ({evade.describe()}) against {m.name}'s "
                                f"{SKILL_NAMES[skill]} ({rp.describe()})", S.EVADE,
                                "A single Evade Roll opposes every enemy attack individually.", {},
                                (*evade.ids, *rp.ids), FACE_TO_FACE_ROLLS))
                f2f = _face_to_face(evade, rp)
                out += f2f.steps
                pa, pb, cmp, wide_cmp = evade, rp, f2f.comparison, f2f.wide
                rh, rc = _keeps(rp, f2f.b_keeps)
                damage[m.name] = hit(_weapon_impact(m, a.name, rh, rc, skill, m.damage_mods))
                evades.append((a.name, bool(f2f.a_keeps)))
                winner = a.name if f2f.a_keeps else m.name if f2f.b_keeps else None
                kind, result, hits, crits = "face_to_face", f2f.kind, {m.name: rh}, {m.name: rc}
            else:
                h, c, said = _normal(rp, f"{SKILL_NAMES[skill]} ARO at {a.name}")
                out.append(said)
                damage[m.name] = hit(_weapon_impact(m, a.name, h, c, skill, m.damage_mods))
                pb, cmp = rp, compare((), rp.dice)
                kind, winner, hits, crits = "normal_roll", m.name if h + c else None, {m.name: h}, {m.name: c}
        elif rp is not None and rp.dice and skill == "evade":
            ok = rp.dice[0].success
            who = f"no attack die opposes {m.name}" if _attacked(a, shares, m.name) else f"{m.name} is not attacked"
            out.append(Step(f"Normal Evade Roll: {who}; {rp.describe()} "
                            f"{'is a Critical success' if rp.dice[0].critical else 'succeeds' if ok else 'fails'}",
                            S.EVADE, "Not attacked but in the Active Miner's Hexagon: the Evade is a Normal Roll.",
                            dict(miner=m.name, success=ok), tuple(rp.ids), NORMAL_ROLLS))
            evades.append((m.name, ok))
            kind, winner = "normal_evade", m.name if ok else None
            pb, cmp = rp, compare((), rp.dice)
        else:
            continue
        pairs.append(Pair(kind, a.name, m.name, False, pa, pb, cmp, winner,
                          result if result is not None else "win" if winner else "none", hits, crits, damage,
                          wide_cmp))
    return (replace(state, pairs=tuple(pairs), impacts=tuple(impacts), evade_results=tuple(evades)),
            tuple(out))


@dataclass(frozen=True)
class _AgainstThreat:
    """A roll against the MegaBeast's Threat Level: the indices of the dice that beat it, whether the MegaBeast
    prevails, the comparison as made, the result kind and the steps."""

    keeps: tuple[int, ...]
    prevails: bool
    comparison: Comparison
    result: str
    steps: tuple[Step, ...]


def _against_threat_level(p: Pool, mb_pool: Pool, opposed: bool, ctx: RollContext) -> _AgainstThreat:
    """Which of ``p``'s dice beat the Threat Level, and whether the MegaBeast prevails (only when opposed):
    MegaBeast › Threat Level; Rolls › Criticals, Breaking Ties (rulings ``megabeast_critical``,
    ``megabeast_equal``). Its steps are headed Face to Face Rolls when ``opposed`` (the MegaBeast declared its
    ARO), Normal Rolls otherwise (nothing opposes the roll: Rolls › Normal Roll)."""
    sec, out = FACE_TO_FACE_ROLLS if opposed else NORMAL_ROLLS, []
    tl = mb_pool.dice[0].effective
    dice = list(p.dice)
    low_crits = [i for i, d in enumerate(dice) if d.critical and d.effective <= tl]
    if low_crits:
        if ctx.rulings.reading("megabeast_critical") == "must_exceed":
            for i in low_crits:
                d = dice[i]
                dice[i] = DieResult(d.face, d.sv, d.effective, "success")
            out.append(Step(f"{p.owner}'s Critical {p.describe(low_crits)} does not exceed Threat Level {tl}",
                            S.MEGABEAST_WOUNDS, "Ruling 'megabeast_critical = must_exceed': against the MegaBeast "
                            "a success must exceed the Threat Level, a Critical included.", {},
                            tuple(p.ids[i] for i in low_crits), sec))
        else:
            one = len(low_crits) == 1
            out.append(Step(f"{p.owner}'s Critical{'' if one else 's'} {p.describe(low_crits)} "
                            f"{'is' if one else 'are'} at or below Threat Level {tl}: a Critical still wins",
                            S.CRITICALS, "Ruling 'megabeast_critical = critical_wins'.", {},
                            tuple(p.ids[i] for i in low_crits), sec))
    cmp = compare(dice, mb_pool.dice)
    keeps = [i for i, s in enumerate(cmp.a_survives) if s]
    lower = [i for i, c in enumerate(cmp.a_cancelled_by) if c]
    if lower:
        out.append(Step(f"Threat Level {tl} cancels {p.owner}'s {p.describe(lower)}", S.MEGABEAST_THREAT,
                        "The Threat Level counts as the MegaBeast's roll: successes that do not exceed it do not "
                        "count.", {}, ("MB", *[p.ids[i] for i in lower]), sec))
    if keeps:
        # dice that win because they exceed the Threat Level, and Criticals at or below it that win only by the
        # reading megabeast_critical = critical_wins (they must not be said to exceed it)
        by_crit = [i for i in keeps if i in low_crits]
        above = [i for i in keeps if i not in low_crits]
        if above:
            out.append(Step(f"{p.owner}'s {p.describe(above)} {agree(len(above), 'exceeds', 'exceed')} Threat Level "
                            f"{tl}", S.MEGABEAST_THREAT, "", {}, tuple(p.ids[i] for i in above), sec))
        if by_crit:
            one = len(by_crit) == 1
            out.append(Step(f"{p.owner}'s Critical{'' if one else 's'} {p.describe(by_crit)} beat"
                            f"{'s' if one else ''} Threat Level {tl} as a Critical, not by exceeding it",
                            S.CRITICALS, "Ruling 'megabeast_critical = critical_wins': a Critical wins the Face to "
                            "Face Roll against the Threat Level even when it does not exceed it.", {},
                            tuple(p.ids[i] for i in by_crit), sec))
        equal_idx = [i for i, d in enumerate(dice) if d.success and d.key == tl]
        if opposed and equal_idx:
            # the other dice win anyway; the reading only says whether an equal result ties with the Threat
            # Level (both cancelled) or is simply beaten by it (the Resolution's comparison records which)
            reading = ctx.rulings.reading("megabeast_equal")
            out.append(Step(f"{p.owner}'s {p.describe(equal_idx)} {agree(len(equal_idx), 'equals', 'equal')} Threat "
                            f"Level {tl}: " + ("they cancel each other" if reading == "tie" else "not enough, beaten "
                                               "by it"), S.BREAKING_TIES if reading == "tie" else S.MEGABEAST_THREAT,
                            f"Ruling 'megabeast_equal = {reading}'. It does not change the result: "
                            f"{p.describe(keeps)} still {agree(len(keeps), 'wins', 'win')} against the Threat "
                            f"Level.", {}, ("MB", *[p.ids[i] for i in equal_idx]), sec))
            if reading != "tie":
                cmp = Comparison(cmp.a, cmp.b, cmp.a_survives, cmp.b_survives, cmp.a_cancelled_by,
                                 (tuple(j for j in cmp.b_cancelled_by[0] if j not in equal_idx),))
        return _AgainstThreat(tuple(keeps), False, cmp, "win", tuple(out))
    if not opposed:
        return _AgainstThreat((), False, cmp, "none", tuple(out))
    equal = any(d.success and d.key == tl for d in dice)
    if equal and ctx.rulings.reading("megabeast_equal") == "tie":
        out.append(Step(f"{p.owner}'s best success equals Threat Level {tl}: a tie, nothing happens",
                        S.BREAKING_TIES, "Ruling 'megabeast_equal = tie'.", {}, ("MB",), sec))
        return _AgainstThreat((), False, cmp, "tie", tuple(out))
    if equal:  # megabeast_equal = megabeast_prevails: an equal result does not cancel the Threat Level
        cmp = Comparison(cmp.a, cmp.b, cmp.a_survives, (True,), cmp.a_cancelled_by, ((),))
    out.append(Step(f"{ctx.scenario.megabeast.name} prevails: no success of {p.owner} exceeds Threat Level {tl}",
                    S.MEGABEAST_THREAT, ("Ruling 'megabeast_equal = megabeast_prevails': an equal result is not "
                                         "enough. " if equal else "") + "The effect of its Behavior is applied.",
                    {}, ("MB",), sec))
    return _AgainstThreat((), True, cmp, "win", tuple(out))


def megabeast_threat_level(state: RollState, ctx: RollContext) -> tuple[RollState, tuple[Step, ...]]:
    """MegaBeast › Threat Level; Skills, Attacks, and AROs: the Active Miner's attack (or Evade) against the
    MegaBeast's Threat Level, which is the MegaBeast's roll: a success must exceed it to count; when the MegaBeast
    prevails its Behavior Attack applies (ruling ``megabeast_no_aro`` when it declared no ARO)."""
    mb, a = ctx.scenario.megabeast, state.active
    if mb is None:
        return state, ()
    mb_pool = state.megabeast_pool
    ap = next((p for p in state.pools if p.owner == a.name and p.purpose == "attack" and p.target == mb.name), None)
    evade = next((p for p in state.pools if p.owner == a.name and p.purpose == "evade"), None)
    at = _shares(a).get(mb.name)
    impacts, evades, out = list(state.impacts), list(state.evade_results), []
    prevails = False
    pa: Pool | None = None
    cmp: Comparison | None = None
    opposed_by: Pool | None = mb_pool
    result = "none"
    hits: dict[str, int] = {}
    crits: dict[str, int] = {}
    sec = FACE_TO_FACE_ROLLS
    if ap is not None and ap.dice:
        pa = ap
        if mb.aro:
            out.append(Step(f"Face to Face Roll: {a.name} ({ap.describe()}) against {mb.name}'s Threat Level "
                            f"{mb.threat_level}", S.MEGABEAST_THREAT,
                            "A wound needs a successful roll above the Threat Level of the side the ARO occurs on.",
                            {}, (*ap.ids, "MB"), sec))
            vs = _against_threat_level(ap, mb_pool, True, ctx)
            out += vs.steps
            keeps, prevails, cmp, result, kind = vs.keeps, vs.prevails, vs.comparison, vs.result, "face_to_face"
        elif ctx.rulings.reading("megabeast_no_aro") == "threat_level":
            # no ARO: nothing opposes the roll, so it is not a Face to Face Roll (Rolls › Normal Roll)
            out.append(Step(f"{mb.name} declared no ARO; {a.name}'s attack ({ap.describe()}) must still exceed "
                            f"Threat Level {mb.threat_level}", S.MEGABEAST_THREAT,
                            "Ruling 'megabeast_no_aro = threat_level'. Without an ARO the MegaBeast cannot "
                            "prevail.", {}, (*ap.ids, "MB"), NORMAL_ROLLS))
            vs = _against_threat_level(ap, mb_pool, False, ctx)
            out += vs.steps
            keeps, cmp, result, kind = vs.keeps, vs.comparison, vs.result, "threat_level"
        else:
            _, _, said = _normal(ap, f"attack at {mb.name}")
            keeps = tuple(i for i, d in enumerate(ap.dice) if d.success)
            cmp = compare(ap.dice, ())
            opposed_by = None  # the Threat Level plays no part
            result = "win" if keeps else "none"
            out += (said, Step(f"Ruling 'megabeast_no_aro = normal_roll': every success wounds {mb.name}",
                               S.NORMAL_ROLL, "", {}, tuple(ap.ids[i] for i in keeps), NORMAL_ROLLS))
            kind = "normal_roll"
        h, c = _keeps(ap, keeps)
        if keeps:
            w = a.weapon
            impacts.append(Impact(a.name, mb.name, h, c, w.damage, w.ammunition, a.skill == "ranged_attack",
                                  tuple(w.traits), dict(at.damage_mods if at else {}), w.name,
                                  states=tuple(w.states), lof_symbol=w.needs_lof))
        winner = a.name if keeps else (mb.name if prevails else None)
        hits, crits = {a.name: h}, {a.name: c}
    elif mb.aro and evade is not None and evade.dice:
        out.append(Step(f"Face to Face Roll: {a.name}'s Evade ({evade.describe()}) against {mb.name}'s Threat Level "
                        f"{mb.threat_level}", S.MEGABEAST_THREAT,
                        "The Threat Level also sets how hard the MegaBeast's Attacks are to evade.", {},
                        (*evade.ids, "MB"), sec))
        vs = _against_threat_level(evade, mb_pool, True, ctx)
        out += vs.steps
        pa, prevails, cmp, result = evade, vs.prevails, vs.comparison, vs.result
        evades.append((a.name, bool(vs.keeps)))
        kind, winner = "face_to_face", a.name if vs.keeps else (mb.name if prevails else None)
    elif mb.aro:
        prevails = True
        out.append(Step(f"{mb.name}'s Behavior ARO is unopposed: its Threat Level {mb.threat_level} stands as a "
                        f"success", S.MEGABEAST_AROS, f"{a.name} neither attacks nor evades the MegaBeast, so its "
                        "result (the Threat Level) is not opposed.", {}, ("MB",), NORMAL_ROLLS))
        kind, winner = "unopposed", mb.name
        cmp, result = compare((), mb_pool.dice), "win"
    else:
        return state, ()
    damage: dict[str, AttackDamage] = {}
    ba = mb.behavior_attack
    if ba:
        imp = Impact(mb.name, a.name, ba.hits, 0, ba.damage, ba.ammunition, ba.ranged, tuple(ba.traits), {},
                     ba.name, from_megabeast=True, states=tuple(ba.states))
        damage[mb.name] = _attack_damage(imp, state, ctx)
    if prevails and ba and ba.hits:
        impacts.append(imp)
    elif prevails:
        out.append(Step(f"{mb.name}'s Behavior effect applies to {a.name} (no Behavior Attack with damage given)",
                        S.MEGABEAST_AROS, "", {}, ("MB",), sec))
    if result == "win" and winner is None:
        result = "none"
    pair = Pair(kind, a.name, mb.name, True, pa, opposed_by, cmp, winner, result, hits, crits, damage, None,
                prevails, mb.threat_level)
    return (replace(state, pairs=(*state.pairs, pair), impacts=tuple(impacts), evade_results=tuple(evades),
                    megabeast_prevails=prevails), tuple(out))


def unopposed_evade(state: RollState, ctx: RollContext) -> tuple[RollState, tuple[Step, ...]]:
    """Common Skills › Evade; Rolls › Normal Roll: an Active Miner's Evade that faces no attack is a Normal Roll."""
    a = state.active
    evade = next((p for p in state.pools if p.owner == a.name and p.purpose == "evade"), None)
    if evade is None or any(name == a.name for name, _ in state.evade_results):
        return state, ()
    ok = evade.dice[0].success
    said = Step(f"Normal Evade Roll: {a.name} is not attacked; {evade.describe()} "
                f"{'is a Critical success' if evade.dice[0].critical else 'succeeds' if ok else 'fails'}",
                S.EVADE, "An Evade that faces no attack is a Normal Roll.", dict(miner=a.name, success=ok),
                tuple(evade.ids), NORMAL_ROLLS)
    pair = Pair("normal_evade", a.name, None, False, evade, None, compare(evade.dice, ()), a.name if ok else None,
                "win" if ok else "none")
    return replace(state, pairs=(*state.pairs, pair), evade_results=(*state.evade_results, (a.name, ok))), (said,)


# ----------------------------------------------------------------------------------------------------------------------
# 5.1 Effects: Saving Rolls, Wounds, Neomaterials, Death, Evade movement


def saving_rolls(state: RollState, ctx: RollContext) -> tuple[RollState, tuple[Step, ...]]:
    """Damage › Saving Roll, Partial Cover; Skills and Tools › Ammunition; Traits; MegaBeast › Wounds: each
    attacker's uncancelled successes force Saving Rolls on their target (per impact 1 N/AP, 2 DA, 3 EXP, plus 1 per
    Critical) against the Attack Damage (Weapon Damage - Armor - 3 for Partial Cover); each failure costs one Wounds
    point. The MegaBeast makes none: each Saving Roll produced is a Wound."""
    sec, mb, out, saves = SAVING_ROLLS, ctx.scenario.megabeast, [], []
    made: dict[str, int] = {}
    if not state.impacts:
        out.append(Step("No uncancelled success: no Saving Rolls", S.DAMAGE, "", {}, (), sec))
    for imp in state.impacts:
        ammo = Ammunition(imp.ammunition)
        if mb and imp.target == mb.name:
            n = saving_roll_count(imp.hits, imp.crits, ammo, megabeast=True)
            ignored = saving_roll_count(imp.hits, imp.crits, ammo) - n
            got = imp.hits + imp.crits
            out.append(Step(f"{imp.attacker}'s {plural(got, 'uncancelled success', 'uncancelled successes')} with "
                            f"{ammo.value} ammunition {agree(got, 'produces', 'produce')} {plural(n, 'Saving Roll')}: "
                            f"{plural(n, 'Wound')} to {mb.name}", S.MEGABEAST_WOUNDS,
                            f"{ammo.value} forces {plural(ammo.saves_per_hit, 'Saving Roll')} per impact. MegaBeasts "
                            "make no Saving Rolls: each one produced is a Wound."
                            + (f" Immune to Critical hits: the {plural(ignored, 'extra Saving Roll')} "
                               f"{agree(ignored, 'is', 'are')} ignored." if ignored else ""),
                            dict(attacker=imp.attacker, target=imp.target, hits=imp.hits, crits=imp.crits,
                                 saving_rolls=n, ignored_critical_rolls=ignored), ("MB",), sec))
            saves.append(SavingRolls(imp.attacker, imp.target, imp.weapon, imp.hits, imp.crits, ammo.value, n, None,
                                     (), n, True, False, ignored))
            continue
        target, path = _miner(state, ctx, imp.target)
        n = saving_roll_count(imp.hits, imp.crits, ammo)
        ad = _attack_damage(imp, state, ctx)
        parts = [f"Damage {ad.weapon_damage}"]
        if "Armor = 0" in imp.traits:
            parts.append(f"- Armor 0 ('Armor = 0' Trait; printed {ad.armor})")
        elif ammo is Ammunition.AP:
            parts.append(f"- Armor {ad.effective_armor} (AP: half of {ad.armor}, rounded up)")
        else:
            parts.append(f"- Armor {ad.armor}")
        if ad.partial_cover:
            parts.append("- 3 Partial Cover")
        for k, v in ad.mods.items():
            parts.append(f"{v:+d} {k}")
        cover_note = ""
        if target.partial_cover and not imp.ranged:
            cover_note = " Partial Cover does not help against an attack that needs no LoF."
        elif target.partial_cover and not ad.partial_cover:  # an Attack without the LoF symbol
            cover_note = (f" {imp.weapon} lacks the LoF symbol: targets of an Attack without it cannot benefit from "
                          "Partial Cover (Damage › Partial Cover; ruling partial_cover_glyph = lof_symbol).")
        elif ad.partial_cover and ammo is Ammunition.AP:
            cover_note = " AP halves only the Armor, never the Partial Cover MOD."
        letter = ctx.letters[imp.target]
        out.append(Step(f"{imp.attacker}'s {imp.weapon}: Attack Damage {ad.value} = {' '.join(parts)} against "
                        f"{imp.target}", S.PARTIAL_COVER if ad.partial_cover or (target.partial_cover and imp.ranged)
                        else S.SAVING_ROLL,
                        "Attack Damage = Weapon Damage - Armor - 3 for Partial Cover +/- other MODs." + cover_note,
                        dict(attacker=imp.attacker, target=imp.target, attack_damage=ad.value,
                             effective_armor=ad.effective_armor, partial_cover=ad.partial_cover), (letter,), sec))
        extra = "" if not imp.crits else f" + {imp.crits} for {agree(imp.crits, 'a Critical hit', 'Critical hits')}"
        faces, source = ctx.dice.take(target.save_dice, n, f"{path}.save_dice", f"{imp.target} Saving Roll",
                                      decides=False)   # Saving Rolls decide Wounds, no later count of dice
        start = made.get(imp.target, 0)
        ids = [f"{letter}.s{start + i + 1}" for i in range(n)]
        fails = [i for i, f in enumerate(faces) if f <= ad.value]
        made[imp.target] = start + n
        out.append(Step(f"{imp.target} makes {plural(n, 'Saving Roll')} against {imp.attacker}: "
                        f"{ammo.saves_per_hit} x {plural(imp.hits + imp.crits, 'impact')}{extra} ({ammo.value})",
                        S.AMMUNITION, "Each impact forces Saving Rolls by Ammunition (N 1, DA 2, EXP 3, AP 1); each "
                        "Critical hit adds one.", dict(attacker=imp.attacker, target=imp.target, hits=imp.hits,
                                                       crits=imp.crits, saving_rolls=n), tuple(ids), sec))
        if n:
            out.append(Step(f"{imp.target} rolls {', '.join(f'{f} ({i})' for f, i in zip(faces, ids))} against "
                            f"Attack Damage {ad.value}: {len(fails)} failed ({ctx.dice.says(source)})",
                            S.SAVING_ROLL, "A Saving Roll at or below the Attack Damage fails and costs one Wounds "
                            "point.", dict(dice=[{"id": i, "face": f, "failed": f <= ad.value}
                                                 for f, i in zip(faces, ids)],
                                           source=ctx.dice.fact(source), failed=len(fails)),
                            tuple(ids[i] for i in fails) or tuple(ids), sec))
        saves.append(SavingRolls(imp.attacker, imp.target, imp.weapon, imp.hits, imp.crits, ammo.value, n, ad,
                                 tuple(SaveDie(i, f, f <= ad.value) for f, i in zip(faces, ids)), len(fails), False,
                                 imp.from_megabeast, 0, source))
    return replace(state, saves=tuple(saves)), tuple(out)


def _caused(state: RollState) -> dict[str, list[tuple[str, int, bool]]]:
    """``{target: [(attacker, Wounds caused, by the MegaBeast?), ...]}`` from the Saving Rolls, in their order."""
    caused: dict[str, list[tuple[str, int, bool]]] = {}
    for sr in state.saves:
        caused.setdefault(sr.target, []).append((sr.attacker, sr.wounds, sr.from_megabeast))
    return caused


def lose_wounds(state: RollState, ctx: RollContext) -> tuple[RollState, tuple[Step, ...]]:
    """Damage; Death; Neomaterials: Teseum and T-Bezoar Units: each Miner hit (in Timeline order, the Active Miner
    last) loses one Wounds point per failed Saving Roll, never below 0; the attacker's player gains one Teseum Unit
    per point taken (rulings ``teseum_several_attackers``, ``teseum_per_wound``); the MegaBeast gains none."""
    sec, r, out = WOUNDS, ctx.rulings, []
    caused = _caused(state)
    lost_of, left_of, teseum, dying = [], [], dict(state.teseum), []
    for name in [*(m.name for m in ctx.scenario.reactive), state.active.name]:
        entries = [e for e in caused.get(name, []) if e[1] > 0]
        if not entries:
            continue
        miner, _ = _miner(state, ctx, name)
        letter = ctx.letters[name]
        had = miner.wounds
        total = sum(e[1] for e in entries)
        lost = min(total, had)
        reading = r.reading("teseum_several_attackers") if len(entries) > 1 and total > had else "timeline"
        left = had
        for attacker, n, from_mb in sorted(entries, key=lambda e: e[2]):  # players first, MegaBeast last
            real = min(n, left)
            left -= real
            if from_mb:
                out.append(Step(f"{name} loses {plural(real, 'Wounds point')} to {attacker}" +
                                (f" ({n - real} below 0 count for nothing)" if n > real else ""), S.DEATH,
                                "The MegaBeast gains no Neomaterials.",
                                dict(attacker=attacker, target=name, wounds=real), (letter,), sec))
                continue
            gain = real if reading == "timeline" else min(n, had)
            dies = had - lost == 0
            per_wound = r.reading("teseum_per_wound") if real and not dies else "every_point"
            if per_wound == "on_death":
                gain = 0
            teseum[attacker] = teseum.get(attacker, 0) + gain
            # the wording comes from the numbers reported: points removed (real), points beyond 0 (n - real),
            # Units gained (gain)
            notes = []
            if n > real and gain > real:
                notes.append(f"{plural(n - real, 'point')} below 0, counted by the reading "
                             f"'teseum_several_attackers = {reading}'")
            elif n > real:
                notes.append(f"{plural(n - real, 'point')} below 0 {agree(n - real, 'gives', 'give')} nothing")
            if per_wound == "on_death":
                notes.append(f"{name} does not die, and ruling 'teseum_per_wound = on_death' pays Teseum only "
                             "for a kill")
            rule = ("One Teseum Unit per point taken from an enemy TAG's Wounds; points below 0 provide nothing."
                    + (f" Ruling 'teseum_several_attackers = {reading}'." if len(entries) > 1 and total > had
                       else ""))
            if reading == "each_attacker":  # the rule that pays points another attack already took below 0
                rule = (f"Ruling 'teseum_several_attackers = each_attacker': each player gains one Teseum Unit per "
                        f"point its own attack removed, capped at the {plural(had, 'Wounds point')} {name} had, "
                        "even points another player's attack had already taken (the MinerBot note under Death: "
                        "each of them obtains Teseum); together the attackers of this Order removed "
                        f"{plural(total, 'point')}.")
            out.append(Step(f"{name} loses {plural(real, 'Wounds point')} to {attacker}: {attacker}'s player gains "
                            f"{plural(gain, 'Teseum Unit')}" + (f" ({'; '.join(notes)})" if notes else ""),
                            S.NEOMATERIALS, rule
                            + (f" Ruling 'teseum_per_wound = {per_wound}'." if real and not dies else ""),
                            dict(attacker=attacker, target=name, wounds=real, teseum=gain), (letter,), sec))
        lost_of.append((name, lost))
        left_of.append((name, had - lost))
        if had - lost == 0:
            dying.append((name, any(e[2] for e in entries)))
    return replace(state, wounds_lost=(*state.wounds_lost, *lost_of), wounds_left=(*state.wounds_left, *left_of),
                   teseum=tuple(teseum.items()), dying=(*state.dying, *dying)), tuple(out)


def megabeast_wounds(state: RollState, ctx: RollContext) -> tuple[RollState, tuple[Step, ...]]:
    """MegaBeast › Wounds, Rage Level: the MegaBeast loses one Wound per Saving Roll produced; the attacker's player
    gains one T-Bezoar Unit per Wound, and the Hunting Trophy for the last one; the Fury Level Tokens removed
    become active."""
    mb = ctx.scenario.megabeast
    if mb is None:
        return state, ()
    sec, out = WOUNDS, []
    entries = _caused(state).get(mb.name)
    if not entries:
        result = MegaBeastResult(mb.name, mb.threat_level, state.megabeast_pool, mb.wounds, 0, mb.wounds, False, (),
                                 0, state.megabeast_prevails)
        return replace(state, megabeast=result), ()
    n = sum(e[1] for e in entries)
    lost = min(n, mb.wounds)
    attacker = entries[0][0]
    fury = sorted(p for p in mb.fury_tokens if p <= lost)
    killed = lost == mb.wounds
    trophy = mb.hunting_trophy if killed else 0
    out.append(Step(f"{mb.name} loses {plural(lost, 'Wound')}: {attacker}'s player gains "
                    f"{plural(lost, 'T-Bezoar Unit')}" + (f" ({n - lost} below 0 give nothing)" if n > lost else ""),
                    S.MEGABEAST_WOUNDS, "One T-Bezoar Unit per Wound caused to the MegaBeast"
                    + ("; Fury Level Tokens count as Wounds and become active when removed." if fury else "."),
                    dict(wounds=lost, t_bezoar=lost, fury_tokens_removed=fury, attacker=attacker, target=mb.name),
                    ("MB",), sec))
    if fury:
        out.append(Step(f"{plural(len(fury), 'Fury Level Token')} removed: their Fury effects become active",
                        S.MEGABEAST_RAGE, "", dict(positions=fury), ("MB",), sec))
    if killed:
        out.append(Step(f"{mb.name} suffers its last Wound and dies: +{trophy} T-Bezoar from the Hunting Trophy "
                        f"(total {lost + trophy})", S.MEGABEAST_WOUNDS,
                        "The player who inflicts the last Wound takes the Hunting Trophy.",
                        dict(hunting_trophy=trophy, total=lost + trophy), ("MB",), sec))
    result = MegaBeastResult(mb.name, mb.threat_level, state.megabeast_pool, mb.wounds, lost, mb.wounds - lost,
                             killed, tuple(fury), lost + trophy, state.megabeast_prevails)
    return replace(state, megabeast=result, t_bezoar=(*state.t_bezoar, (attacker, lost + trophy)),
                   wounds_lost=(*state.wounds_lost, (mb.name, lost)),
                   wounds_left=(*state.wounds_left, (mb.name, mb.wounds - lost)),
                   dead=(*state.dead, mb.name) if killed else state.dead), tuple(out)


def death(state: RollState, ctx: RollContext) -> tuple[RollState, tuple[Step, ...]]:
    """Death; Tool Containers and Loot › Loot (Death of a TAG); Respawn: the Neomaterials of this Order are collected
    first, then each Miner at 0 Wounds dies: its player keeps half of its Scoring Zone Units (rounded up), the rest
    goes to its Loot Zone (to the reserve when the MegaBeast was involved), the Warehouse is never lost, and it
    Respawns."""
    sec, out = WOUNDS, []
    dead, loot = list(state.dead), list(state.loot)
    gains = dict(state.teseum)
    bezoar = dict(state.t_bezoar)
    for name, mb_involved in state.dying:
        miner, _ = _miner(state, ctx, name)
        letter = ctx.letters[name]
        dead.append(name)
        gained = gains.get(name, 0) + bezoar.get(name, 0)
        sz = miner.neomaterials.scoring_zone + gained
        kept = round_up_half(sz)
        rest = sz - kept
        lt = Loot(sz, kept, 0 if mb_involved else rest, rest if mb_involved else 0, miner.neomaterials.warehouse,
                  mb_involved, gained)
        loot.append((name, lt))
        out.append(Step(f"{name} reaches 0 Wounds and dies", S.DEATH,
                        "It is removed, its Wounds and State Tokens are cleared and it Respawns at an Access Point "
                        "(a d20 roll).", dict(miner=name), (letter,), sec))
        where = ("the reserve (the MegaBeast was involved: the loot is lost; Tool cards are discarded)"
                 if mb_involved else f"{name}'s Loot Zone with its Tool cards")
        plus = f" (including the {gained} gained in this Order, collected before Death)" if gained else ""
        out.append(Step(f"{name}'s player keeps {kept} of {sz} Neomaterial Units in the Scoring Zone{plus}; {rest} go "
                        f"to {where}; the {miner.neomaterials.warehouse} in the Warehouse are not lost",
                        S.DEATH_OF_A_TAG, "On a TAG's death its player keeps half of its Scoring Zone units, "
                        "rounded up; Warehouse units are never placed as Loot.", asdict(lt), (letter,), sec))
        out.append(Step(f"{name} Respawns", S.RESPAWN, "A d20 picks the Access Point; in its Active Turn it may "
                        "still use its remaining Orders.", {}, (letter,), sec))
    if not state.wounds_lost:
        out.append(Step("No Wounds are lost", S.SAVING_ROLL, "", {}, (), sec))
    lost, left = dict(state.wounds_lost), dict(state.wounds_left)
    for m in [state.active, *ctx.scenario.reactive]:
        lost.setdefault(m.name, 0)
        left.setdefault(m.name, m.wounds)
    return replace(state, wounds_lost=tuple(lost.items()), wounds_left=tuple(left.items()), dead=tuple(dead),
                   loot=tuple(loot)), tuple(out)


def evade_movement(state: RollState, ctx: RollContext) -> tuple[RollState, tuple[Step, ...]]:
    """Common Skills › Evade (Order Expenditure Sequence, 5.1 Effects): a successful Evade Roll lets the Miner move
    one Segment, the Active Miner first, then Reactive Miners in Timeline order (ruling ``evade_movement`` when one
    Evade Roll faced several attacks)."""
    if not state.evade_results:
        return state, ()
    results: dict[str, list[bool]] = {}
    for name, won in state.evade_results:
        results.setdefault(name, []).append(won)
    moves, out = [], []
    for name in [state.active.name, *(m.name for m in ctx.scenario.reactive)]:
        res = results.get(name)
        if res is None:
            continue
        if len(res) > 1:
            reading = ctx.rulings.reading("evade_movement")
            ok = all(res) if reading == "wins_all" else any(res)
            note = (f" Ruling 'evade_movement = {reading}': the single Evade Roll faced {len(res)} attacks and "
                    f"won {sum(res)}.")
        else:
            ok, note = res[0], ""
        letter = ctx.letters[name]
        if ok:
            moves.append(name)
            out.append(Step(f"{name}'s Evade succeeds: it may move one Segment", S.EVADE,
                            "The move may enter or leave Silhouette Contact and generates no ARO; the Active Miner "
                            "moves first, then Reactive Miners in Timeline order." + note, dict(miner=name),
                            (letter,), EFFECTS))
        else:
            out.append(Step(f"{name}'s Evade does not succeed: no Evade movement", S.EVADE, note.strip(),
                            dict(miner=name), (letter,), EFFECTS))
    return replace(state, evade_moves=tuple(moves)), tuple(out)


# ----------------------------------------------------------------------------------------------------------------------
# 5.2 Conclusion, 5.3 End of the Order


def megabeast_reorients(state: RollState, ctx: RollContext) -> tuple[RollState, tuple[Step, ...]]:
    """Order Expenditure Sequence, 5.2 Conclusion (MegaBeast › Skills, Attacks, and AROs): a MegaBeast that declared
    no ARO but was attacked reorients towards the Active Miner."""
    mb, a = ctx.scenario.megabeast, state.active
    if not (mb and not mb.aro and a.skill in ATTACKS and any(x.target == mb.name and (x.burst or 0) > 0
                                                             for x in a.attacks)):
        return state, ()
    said = Step(f"Conclusion: {mb.name} declared no ARO but was attacked, so it reorients towards {a.name}",
                S.ORDER_EXPENDITURE_SEQUENCE, "During the Conclusion it turns to have the Active Miner and as many "
                "TAGs as possible in its Angle of Vision.", {}, ("MB", "A"), CONCLUSION)
    return replace(state, megabeast=replace(state.megabeast, reorients=True)), (said,)


def _causes_states(sc: Scenario) -> bool:
    """Whether any attack in the scenario can cause a State (only then does the outcome list ``states``)."""
    weapons = [m.weapon for m in [sc.active, *sc.reactive] if m.weapon is not None]
    if sc.megabeast is not None and sc.megabeast.behavior_attack is not None:
        weapons.append(sc.megabeast.behavior_attack)
    return any(w.states for w in weapons)


def end_of_order_states(state: RollState, ctx: RollContext) -> tuple[RollState, tuple[Step, ...]]:
    """States; Damage › Saving Roll; Order Expenditure Sequence, 5.3 End of the Order: the target of uncancelled hits
    of a Weapon that causes a State enters it whether or not it passed its Saving Rolls, at the end of the Order, with
    one Token per State (a Miner that already has the Token gets no second one). The MegaBeast (ruling
    ``megabeast_states``) and a Miner that died in this Order (ruling ``state_on_death``) are the open cases. Only
    when an attack of the scenario can cause a State."""
    if not _causes_states(ctx.scenario):
        return state, ()
    sec, entered, out = END_OF_ORDER, {}, []
    dead = set(state.dead)
    mb = ctx.scenario.megabeast
    for imp in state.impacts:
        for st in imp.states:
            letter = ctx.letters.get(imp.target, "MB")
            facts = dict(target=imp.target, attacker=imp.attacker, state=st)
            if mb is not None and imp.target == mb.name:
                reading = ctx.rulings.reading("megabeast_states")
                if reading == "not_affected":
                    out.append(Step(f"{imp.target} does not enter the {st} State ({imp.attacker}'s {imp.weapon})",
                                    S.STATES, "Ruling 'megabeast_states = not_affected': States affect Miners.",
                                    dict(entered=False, **facts), (letter,), sec))
                    continue
                why = "Ruling 'megabeast_states = affected'. "
                already = False
            else:
                miner, _ = _miner(state, ctx, imp.target)
                why = ""
                if imp.target in dead:
                    reading = ctx.rulings.reading("state_on_death")
                    if reading == "cleared":
                        out.append(Step(f"{imp.target} died in this Order: it does not enter the {st} State",
                                        S.DEATH, "Ruling 'state_on_death = cleared': Death removes the Miner's State "
                                        "Tokens and it Respawns.", dict(entered=False, **facts), (letter,), sec))
                        continue
                    why = "Ruling 'state_on_death = applies_after_respawn'. "
                already = st in miner.states
            if already or st in entered.get(imp.target, []):
                out.append(Step(f"{imp.target} already has a {st} Token: no second one ({imp.attacker}'s "
                                f"{imp.weapon})", S.STATES, "A Miner can only have 1 Token per State.",
                                dict(entered=False, **facts), (letter,), sec))
                continue
            saves = [r for r in state.saves if r.attacker == imp.attacker and r.target == imp.target]
            failed = sum(1 for r in saves for d in r.dice if d.failed)
            made = sum(len(r.dice) for r in saves)
            how = (f"although it passed {'its' if made > 1 else 'the'} {made} Saving Roll{'s' if made > 1 else ''}"
                   if saves and made and not failed else
                   f"it failed {failed} of {made} Saving Rolls" if made else "it makes no Saving Roll")
            entered.setdefault(imp.target, []).append(st)
            out.append(Step(f"{imp.target} enters the {st} State at the end of the Order ({imp.attacker}'s "
                            f"{imp.weapon} hit it; {how})", STATE_REFS.get(st, S.STATES),
                            why + "A successful Attack whose Weapon causes a State puts the target in it even if the "
                            "Saving Roll was passed (Damage › Saving Roll); Miners are affected at the end of the "
                            "Order and get one Token per State (States).", dict(entered=True, **facts), (letter,),
                            sec))
    if not entered and not any(imp.states for imp in state.impacts):
        out.append(Step("No State is caused: no Attack that causes one hit its target", S.STATES, "", {}, (), sec))
    return replace(state, states=tuple((k, tuple(v)) for k, v in entered.items())), tuple(out)


# ----------------------------------------------------------------------------------------------------------------------
# the sequence


ROLL_STEPS = (
    ("5 Resolution: the Active Miner's Requirements", check_active_requirements),
    ("5 Resolution: the Active Miner's Skill", declare_active_skill),
    ("5 Resolution: the AROs", declare_aros),
    ("5 Resolution: the MegaBeast's ARO", declare_megabeast_aro),
    ("5 Resolution: MODs and Success Values", success_values),
    ("5 Resolution: Rolls", roll_dice),
    ("5 Resolution: Face to Face and Normal Rolls", face_to_face_rolls),
    ("5 Resolution: the MegaBeast's Threat Level", megabeast_threat_level),
    ("5 Resolution: an unopposed Evade", unopposed_evade),
    ("5.1 Effects: Saving Rolls", saving_rolls),
    ("5.1 Effects: Wounds and Teseum", lose_wounds),
    ("5.1 Effects: the MegaBeast's Wounds and T-Bezoar", megabeast_wounds),
    ("5.1 Effects: Death", death),
    ("5.1 Effects: Evade movement", evade_movement),
    ("5.2 Conclusion", megabeast_reorients),
    ("5.3 End of the Order: States", end_of_order_states),
)
"""The roll resolution of an Order (Activating a Miner › Order Expenditure Sequence, step 5 to 5.3) as the kernel
plays it: ``(step name, step function)`` in rulebook order."""


def roll_sequences() -> dict[str, Any]:
    """The TAG Raid rule sequences of this module, for ``Game.sequences``."""
    return {"roll resolution": ROLL_STEPS}


def _outcome(state: RollState) -> RollOutcome:
    saving, failed = {}, {}
    for sr in state.saves:
        if not sr.against_megabeast:
            saving[sr.target] = saving.get(sr.target, 0) + sr.count
            failed[sr.target] = failed.get(sr.target, 0) + sr.wounds
    return RollOutcome(state.pairs, saving, failed, state.megabeast, dict(state.wounds_lost),
                       dict(state.wounds_left), state.dead, dict(state.teseum), dict(state.t_bezoar),
                       dict(state.loot), state.evade_moves,
                       None if state.states is None else dict(state.states))


def _resolution(trace: Trace, frames: tuple[Frame[RollState], ...], o: RollOutcome, ctx: RollContext) -> Resolution:
    state = frames[-1].state
    sc = ctx.scenario
    moving, dead = set(o.evade_moves), set(o.dead)
    pools_of: dict[str, list[Pool]] = {}
    for p in state.pools:
        pools_of.setdefault(p.owner, []).append(p)
    aro = dict(zip((m.name for m in sc.reactive), state.aro))
    miners: dict[str, MinerResult] = {}
    for m in [state.active, *sc.reactive]:
        role = "active" if m is state.active else "reactive"
        declared = sc.active.skill if role == "active" else m.skill
        skill = state.active.skill if role == "active" else aro[m.name]
        miners[m.name] = MinerResult(
            m.name, ctx.letters[m.name], role, declared, skill, tuple(pools_of.get(m.name, ())), m.wounds,
            o.wounds.get(m.name, 0), o.wounds_left.get(m.name, m.wounds), m.name in dead,
            o.saving_rolls.get(m.name, 0), o.failed_saves.get(m.name, 0), o.teseum.get(m.name, 0),
            o.t_bezoar.get(m.name, 0), o.loot.get(m.name), m.name in moving)
    return Resolution(trace, dict(trace.rulings), miners, o.megabeast, o.pairs, state.saves, o.dead, o.evade_moves,
                      frames)


def _rulings_for(sc: Scenario, rulings: Rulings | Mapping[str, str] | None) -> Rulings:
    if isinstance(rulings, Rulings):
        return Rulings(rulings.options.values(), rulings.as_dict())
    chosen = dict(sc.rulings)
    chosen.update(rulings or {})
    return make_rulings(chosen)


def resolve(scenario: Scenario, roller: Roller | None = None,
            rulings: Rulings | Mapping[str, str] | None = None, *, exact_dice: bool = False) -> Trace:
    """Resolve one Order's roll exchange into an explained :class:`~explorer.trace.Trace`.

    Args:
        scenario: a validated :class:`~explorer.games.tagraid.model.Scenario` (see
            :func:`~explorer.games.tagraid.scenarios.load_scenario`).
        roller: where every die comes from, in resolution order (Active attack dice target by target, the Active
            Evade die, each Reactive Miner's dice in Timeline order, then Saving Rolls). ``None``: the scenario's
            fixed dice where given, and a :class:`~explorer.dice.SeededRoller` of ``scenario.seed`` for the others.
        rulings: a :class:`~explorer.options.Rulings` (used as is) or ``{option key: reading}`` overriding the
            scenario's ``[rulings]`` table.
        exact_dice: refuse fixed Saving Roll faces the exchange does not roll under any reading of the ruling
            options it consulted (issue #25 item 4; a file's dice: ``Game.resolve`` and order files pass ``True``).
            ``False`` (programmatic callers, tests) lets a ``save_dice`` list hold spare faces.

    Returns:
        the Trace; ``trace.rulings`` lists every ruling option consulted, ``trace.result`` is the typed
        :class:`RollOutcome` and ``trace.outcome`` its JSON: ``pairs`` (one per opposed or unopposed roll: kind,
        winner, hits, crits), ``saving_rolls`` and ``failed_saves`` per Miner, ``wounds``, ``wounds_left``,
        ``dead``, ``teseum`` / ``t_bezoar`` gained per Miner's player, ``loot`` per dead TAG, ``evade_moves``,
        ``megabeast`` and (when an attack can cause one) ``states``.

    Raises:
        ScenarioError: unknown ruling option or reading; fewer fixed Saving Roll dice than needed; more than any
            reading rolls (``exact_dice``).
        DiceScriptExhausted: an explicit ScriptedRoller ran out.

    Sections: Order Expenditure Sequence (Resolution); Rolls; Damage; Death; Common Skills; Ammunition; Traits;
    Tool Containers and Loot; MegaBeast.
    """
    return resolve_detailed(scenario, roller, rulings, exact_dice=exact_dice).trace


def resolve_detailed(scenario: Scenario, roller: Roller | None = None,
                     rulings: Rulings | Mapping[str, str] | None = None, *, exact_dice: bool = False) -> Resolution:
    """Resolve one Order's roll exchange into a :class:`Resolution`: the cited trace (``.trace``, exactly what
    :func:`resolve` returns) plus the same ruling as typed data: per Miner its Success Values and dice pools (die ids
    ``"A.1"``...), per pair the kind and the :class:`~explorer.games.tagraid.rolls.Comparison`, the Saving Rolls with
    their :class:`~explorer.games.tagraid.rolls.AttackDamage` and each die's pass/fail, Wounds, deaths and
    Neomaterials. Views draw from it, so what they show is the engine's ruling.

    Args, Raises and Sections: as :func:`resolve`.
    """
    frames, ctx = _play(scenario, roller, rulings, exact_dice=exact_dice)
    state = frames[-1].state
    trace = Trace(scenario.title, list(steps_of(frames)), dict(ctx.rulings.consulted))
    outcome = _outcome(state)
    trace.with_result(outcome)
    return _resolution(trace, frames, outcome, ctx)


def _play(scenario: Scenario, roller: Roller | None, rulings: Rulings | Mapping[str, str] | None,
          upto: int | None = None, exact_dice: bool = False) -> tuple[tuple[Frame[RollState], ...], RollContext]:
    ctx = RollContext.of(scenario, _rulings_for(scenario, rulings), Dice(roller, scenario.seed))
    frames = play(RollState(scenario.active), ROLL_STEPS, ctx, upto=upto)
    if upto is None and exact_dice:
        _check_saves_used(scenario, ctx)
    return frames, ctx


def _check_saves_used(scenario: Scenario, ctx: RollContext) -> None:
    """Issue #25 item 4: every fixed Saving Roll face is used, or the file is refused (a face is never dropped in
    silence). A list that gives the faces of another reading of a ruling option the exchange consulted (TR-05's
    four faces: two Saving Rolls under the default reading of ``sv_above_20``, four under the other) is accepted:
    one file holds the dice of every reading a judge may pick. Checked only while every deciding die was given
    (:meth:`explorer.dice.Dice.check_used`)."""
    sides = [("active", scenario.active), *((f"reactive[{i}]", r) for i, r in enumerate(scenario.reactive))]
    lists = {f"{path}.save_dice": m.save_dice for path, m in sides}
    try:
        ctx.dice.check_used(lists)
    except ScenarioError as refusal:
        faces = lists.get(refusal.field) or []
        for key in ctx.rulings.consulted:
            for reading in ctx.rulings.options[key].readings:
                if reading == ctx.rulings.consulted[key]:
                    continue
                other = ctx.rulings.copy()
                other.set(key, reading)
                octx = RollContext.of(scenario, other, Dice(None, scenario.seed))
                try:
                    play(RollState(scenario.active), ROLL_STEPS, octx)
                except ExplorerError:
                    continue
                if octx.dice.cursor.get(refusal.field, 0) >= len(faces):
                    return
        raise


def roll_frames(scenario: Scenario, roller: Roller | None = None,
                rulings: Rulings | Mapping[str, str] | None = None, *, upto: int | None = None
                ) -> tuple[Frame[RollState], ...]:
    """The roll resolution step by step (:func:`explorer.kernel.play` of :data:`ROLL_STEPS`): one
    :class:`~explorer.kernel.Frame` per step, its ``state`` the :class:`RollState` after it (what a step-through view
    draws) and its ``steps`` the cited steps of the trace it adds. ``upto``: only the first ``upto`` steps (going back
    is replaying with a smaller ``upto``: the dice come again from the same fixed faces and seed).

    Args and Raises: as :func:`resolve`.
    """
    return _play(scenario, roller, rulings, upto)[0]
