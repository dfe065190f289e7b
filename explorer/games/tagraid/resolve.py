"""Step-by-step resolution of a TAG Raid roll exchange (Order Expenditure Sequence, step 5: Resolution).

:func:`resolve` turns a validated :class:`~explorer.games.tagraid.model.Scenario` into a
:class:`~explorer.trace.Trace` whose steps are grouped in sections (Declarations, Success Values, Rolls, Face to Face
Rolls, Saving Rolls, Wounds and Neomaterials, Effects). Every step cites its rulebook section, carries JSON facts and
marks the dice it talks about (``"A.1"`` is the Active Miner's first die, ``"B.2"`` the first Reactive Miner's second
die, ``"C.s1"`` the second Reactive Miner's first Saving Roll, ``"MB"`` the MegaBeast's Threat Level).

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
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from explorer.dice import Dice, Roller
from explorer.options import Rulings
from explorer.text import agree, plural
from explorer.trace import Trace

from . import sections as S
from .model import ReactiveMiner, Scenario, Weapon, aro_burst, attack_burst, is_range_mod
from .options import rulings as make_rulings
from .rolls import (Ammunition, AttackDamage, Comparison, DieResult, SuccessValue, attack_damage, classify_die, compare,
                    round_up_half, saving_rolls, success_value)

__all__ = ["resolve", "resolve_detailed", "Resolution", "MinerResult", "Pair", "SavingRolls", "SaveDie", "Loot",
           "MegaBeastResult", "Pool"]

ATTACKS = ("ranged_attack", "close_combat_attack")
SKILL_NAMES = {"ranged_attack": "Ranged Attack", "close_combat_attack": "Close Combat Attack", "evade": "Evade",
               "idle": "Idle", "none": "no ARO"}
STATE_REFS = {"Slowed": S.SLOWED_STATE}
SKILL_REFS = {"ranged_attack": S.RANGED_ATTACK, "close_combat_attack": S.CLOSE_COMBAT_ATTACK, "evade": S.EVADE,
              "idle": S.IDLE, "none": S.ORDERS_AND_AROS}


# ----------------------------------------------------------------------------------------------------------------------
# pools


@dataclass
class Pool:
    """Dice rolled for one purpose.

    Attributes:
        owner: the Miner's name (or the MegaBeast's).
        purpose: ``"attack"``, ``"evade"`` or ``"threat"`` (the MegaBeast's Threat Level).
        target: whom the attack is aimed at (``None`` for Evade / Threat Level).
        ids: die ids (``"A.1"``...).
        dice: the classified dice.
        sv: the Success Value (``None`` for the MegaBeast).
        source: ``"given"``, ``"seed"``, ``"roller"`` or ``"threat level"``.
    """

    owner: str
    purpose: str
    target: str | None
    ids: list[str]
    dice: list[DieResult]
    sv: SuccessValue | None
    source: str = "given"

    def describe(self, idx: Sequence[int] | None = None) -> str:
        idx = range(len(self.dice)) if idx is None else idx
        return ", ".join(f"{self.dice[i].face} ({self.ids[i]})" for i in idx) or "nothing"

    def facts(self) -> list[dict[str, Any]]:
        return [{"id": i, "face": d.face, "effective": d.effective, "kind": d.kind} for i, d in zip(self.ids, self.dice)]


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
    def dice(self) -> list[DieResult]:
        """Every die it rolled (all pools), in id order."""
        return [d for p in self.pools for d in p.dice]


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
    """

    trace: Trace
    rulings: Mapping[str, str]
    miners: Mapping[str, MinerResult]
    megabeast: MegaBeastResult | None
    pairs: tuple[Pair, ...]
    saving_rolls: tuple[SavingRolls, ...]
    dead: tuple[str, ...]
    evade_moves: tuple[str, ...]

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

    def saves_of(self, target: str) -> list[SavingRolls]:
        """The Saving Rolls made by (or, for the MegaBeast, produced against) ``target``."""
        return list(self._saves_by_target.get(target, ()))


@dataclass
class _Impact:
    """Uncancelled successes of one attacker on one target, waiting for Saving Rolls."""

    attacker: str
    target: str
    hits: int
    crits: int
    damage: int
    ammunition: str
    ranged: bool
    traits: tuple[str, ...] = ()
    damage_mods: dict[str, int] = field(default_factory=dict)
    weapon: str = "Weapon"
    from_megabeast: bool = False
    states: tuple[str, ...] = ()


def _letter(i: int) -> str:
    return chr(ord("B") + i) if i < 24 else f"R{i + 1}"


def _named_sum(mods: Mapping[str, int]) -> str:
    return " ".join(f"{v:+d} {k}" for k, v in mods.items())


# ----------------------------------------------------------------------------------------------------------------------
# the resolver


class _Resolver:
    def __init__(self, sc: Scenario, roller: Roller | None, rulings: Rulings):
        self.sc, self.r = sc, rulings
        self.dice = Dice(roller, sc.seed)
        self.t = Trace(sc.title)
        self.active = sc.active
        self.letters = {sc.active.name: "A", **{m.name: _letter(i) for i, m in enumerate(sc.reactive)}}
        if sc.megabeast:
            self.letters[sc.megabeast.name] = "MB"
        self.pairs: list[dict[str, Any]] = []
        self.impacts: list[_Impact] = []
        self.evade_results: dict[str, list[bool]] = {}
        self.evade_moves: list[str] = []
        self.aro: dict[str, str] = {}
        self.megabeast_prevails = False
        self.outcome: dict[str, Any] = {}
        # structured record (Resolution)
        self.pools: list[Pool] = []
        self.pair_results: list[Pair] = []
        self.save_results: list[SavingRolls] = []
        self._last_cmp: tuple[Comparison | None, Comparison | None] = (None, None)
        self.mb_reorients = False
        # lookups by name (dicts, so that resolving is linear in the number of Miners: benchmarks/bench_scaling.py)
        self._reactive_index = {m.name: i for i, m in enumerate(sc.reactive)}
        self._contact = [m.name for m in sc.reactive if m.silhouette_contact]
        self._contact_set = frozenset(self._contact)
        self._attacks_for: tuple[Any, dict[str, Any]] = (None, {})

    def _attack_at(self, target: str):
        """The Active Miner's share of its attack aimed at ``target`` (an :class:`Attack`), or ``None``. Indexed
        once per version of ``self.active`` (a failed Close Combat share replaces it)."""
        a = self.active
        if self._attacks_for[0] is not a:
            self._attacks_for = (a, {at.target: at for at in a.attacks})
        return self._attacks_for[1].get(target)

    # -- declarations ------------------------------------------------------------------------------------------------

    def _attacked(self, name: str) -> bool:
        at = self._attack_at(name)
        return self.active.skill in ATTACKS and at is not None and (at.burst or 0) > 0

    def _contact_names(self) -> list[str]:
        """Reactive Miners in Silhouette Contact with the Active Miner."""
        return self._contact

    def enemy_tags_in_contact(self, m) -> int:
        """Enemy TAGs in Silhouette Contact with ``m``: its ``enemy_tags_in_contact`` (which may count Miners outside
        the scenario), and at least the scenario's Miners marked in contact with it."""
        if m is self.active or m.name == self.active.name:
            return max(m.enemy_tags_in_contact, len(self._contact_names()))
        return max(m.enemy_tags_in_contact, 1 if m.silhouette_contact else 0)

    def _in_contact_with(self, target: str) -> bool:
        """Whether the Active Miner is in Silhouette Contact with ``target`` (a Reactive Miner or the MegaBeast)."""
        mb = self.sc.megabeast
        if mb is not None and target == mb.name:
            return mb.silhouette_contact
        return target in self._contact_set

    def _ranged_contact(self, m, now: bool, said: str, letter: str) -> str | None:
        """Why a Ranged Attack by ``m`` fails the Requirement of no Silhouette Contact with an enemy Miner during the
        Order Activation step (Common Skills › Ranged Attack, Requirements), or ``None``. ``now``: ``m`` is in such
        contact at Resolution, where the Active Miner's Move (step 1.2) left it; ``said``: the reason given for that.
        ``m.at_activation``: where it stood when the Order was activated (omitted: as at Resolution)."""
        if m.at_activation is None:
            return said if now else None
        if m.at_activation.silhouette_contact:
            return ("a Ranged Attack requires not being in Silhouette Contact with an enemy Miner during the Order "
                    f"Activation step, and {m.name} was in Silhouette Contact with an enemy Miner when the Order was "
                    "activated" + ("" if now else " (it no longer is at Resolution: that does not help)"))
        if not now:
            return None
        reading = self.r.reading("ranged_attack_activation_contact")
        if reading == "activation_step":
            return (f"{said}; {m.name} was not in contact when the Order was activated, but the contact was made by "
                    "the Active Miner's Move, which is part of the Activation step (ruling "
                    "'ranged_attack_activation_contact = activation_step')")
        self.t.add(f"{m.name} was not in Silhouette Contact with an enemy Miner when the Order was activated: its "
                   "Ranged Attack meets that Requirement", S.RANGED_ATTACK_REQUIREMENTS,
                   "Ruling 'ranged_attack_activation_contact = activation_moment': only the moment the Order is "
                   "activated counts, so the contact made by the Active Miner's Move does not forbid it.",
                   section="Declarations", marks=(letter,), miner=m.name, requirement="no_contact_at_activation",
                   met=True)
        return None

    def _requirement_step(self, who: str, skill: str, letter: str, reason: str, rule, **facts) -> None:
        """The Requirement a declared Skill fails, citing the Skill's Requirements (the Idle step follows)."""
        self.t.add(f"{who}'s {SKILL_NAMES[skill]} fails its Requirements", rule, reason[0].upper() + reason[1:] + ".",
                   section="Declarations", marks=(letter,), miner=who, declared=skill, requirement_failed=reason,
                   **facts)

    def _lose_shares(self, a: Any, failed: list[str], title: str, rule: Any, detail: str) -> None:
        """A split Skill whose shares at ``failed`` targets fail their Requirement, under the reading that keeps the
        rest (``split_burst_without_lof = share_lost``, ``cc_target_out_of_contact = share_fails``): a Declarations
        step, and the Active Miner's Attack without those shares (Burst 0, no dice)."""
        self.t.add(title, rule, detail, section="Declarations", marks=("A",), miner=a.name, failed_targets=failed)
        self.active = a.model_copy(update={"attacks": [
            at.model_copy(update={"burst": 0, "dice": None}) if at.target in failed else at for at in a.attacks]})

    def _active_requirements(self) -> tuple[str | None, Any]:
        """Why the Active Miner's attack fails its Requirements (``None``: it meets them) and the section."""
        a = self.active
        if a.skill == "ranged_attack":
            who = ", ".join(self._contact_names()) or plural(a.enemy_tags_in_contact, "enemy Miner")
            reason = self._ranged_contact(
                a, self.enemy_tags_in_contact(a) > 0,
                f"a Ranged Attack requires not being in Silhouette Contact with an enemy Miner, and {a.name} is in "
                f"Silhouette Contact with {who}", "A")
            if reason:
                return reason, S.RANGED_ATTACK_REQUIREMENTS
        if a.skill == "ranged_attack":
            blind = [at.target for at in a.attacks if not at.lof]
            split = bool(blind) and len(blind) < len(a.attacks)
            if split and self.r.reading("split_burst_without_lof") == "share_lost":
                self._lose_shares(a, blind, f"{a.name}'s Ranged Attack shares at {', '.join(blind)} are lost: no LoF",
                                  S.RANGED_ATTACK_REQUIREMENTS,
                                  "A Ranged Attack requires LoF to its target; under the ruling split_burst_without_lof"
                                  " = share_lost only those shares are lost (not rolled) and the shares at targets in "
                                  "LoF are resolved.")
                return None, None
            if blind:
                return (f"a Ranged Attack requires LoF to its target, and {a.name} has no LoF to {', '.join(blind)}"
                        + (" (ruling split_burst_without_lof = whole_skill_idle: the shares at targets in LoF are "
                           "lost too)" if split else "")), S.RANGED_ATTACK_REQUIREMENTS
        if a.skill == "close_combat_attack":
            away = [at.target for at in a.attacks if not self._in_contact_with(at.target)]
            if away and len(away) < len(a.attacks) and self.r.reading("cc_target_out_of_contact") == "share_fails":
                self._lose_shares(a, away, f"{a.name}'s Close Combat Attack shares at {', '.join(away)} fail: not "
                                  "in Silhouette Contact", S.CLOSE_COMBAT_ATTACK,
                                  "A Close Combat Attack requires Silhouette Contact with its target; under the ruling "
                                  "cc_target_out_of_contact = share_fails only those shares are lost (not rolled) and "
                                  "the shares at targets in contact are resolved.")
                return None, None
            if away:
                return (f"a Close Combat Attack requires Silhouette Contact with its target, and {a.name} is not in "
                        f"Silhouette Contact with {', '.join(away)}"), S.CLOSE_COMBAT_REQUIREMENTS
        return None, None

    def declarations(self) -> None:
        a, sec = self.active, "Declarations"
        reason, rule = self._active_requirements()
        a = self.active  # the requirements check may drop shares of the Burst (cc_target_out_of_contact)
        if reason:
            self._requirement_step(a.name, a.skill, "A", reason, rule)
            self.t.add(f"{a.name} (Active) declared a {SKILL_NAMES[a.skill]} that does not meet its Requirements: it "
                       f"counts as Idle", S.ORDER_EXPENDITURE_SEQUENCE,
                       f"Resolution checks Requirements ({SKILL_REFS[a.skill].section}); it fails them (above). A "
                       "Skill that fails its Requirements counts as Idle (Common Skills › Idle).", section=sec,
                       marks=("A",),
                       miner=a.name, declared=a.skill, skill="idle", requirement=reason)
            a = self.active = a.model_copy(update={"skill": "idle", "attacks": []})
        if a.skill in ATTACKS:
            split = ", ".join(f"{at.burst} at {at.target}" for at in a.attacks)
            self.t.add(f"{a.name} (Active) declares {SKILL_NAMES[a.skill]} with {a.weapon.name}: Burst "
                       f"{attack_burst(a)} ({split})", SKILL_REFS[a.skill],
                       "The Active Miner's Weapon rolls its full Burst; with several targets the split is declared "
                       "with the Attack.", section=sec, marks=("A",), miner=a.name, skill=a.skill,
                       burst=attack_burst(a), split={at.target: at.burst for at in a.attacks})
            self._burst_floor(a.name, a.weapon.burst, a.burst_mod, "A", "active.burst_mod", "Weapon's Burst")
        else:
            self.t.add(f"{a.name} (Active) declares {SKILL_NAMES[a.skill]}", SKILL_REFS[a.skill],
                       "Evade is always allowed to the Active Miner; Idle performs no action." if a.skill == "evade"
                       else "Idle only activates the Miner, which may generate AROs.",
                       section=sec, marks=("A",), miner=a.name, skill=a.skill)
        for m in self.sc.reactive:
            self.aro[m.name] = self._check_aro(m, sec)
        mb = self.sc.megabeast
        if mb:
            if mb.aro:
                what = mb.behavior_attack.name if mb.behavior_attack else "its Behavior ARO"
                self.t.add(f"{mb.name} declares its Behavior ARO ({what}) against {a.name}; its Threat Level on that "
                           f"side is {mb.threat_level}", S.MEGABEAST_AROS,
                           "The MegaBeast does not roll: the Threat Level of the Hexagon side where the ARO occurs is "
                           "its result.", section=sec, marks=("MB",), threat_level=mb.threat_level)
            else:
                self.t.add(f"{mb.name} declares no ARO", S.MEGABEAST_AROS,
                           "Without LoF to the Active TAG the MegaBeast gains no ARO (if attacked it only reorients "
                           "during the Conclusion).", section=sec, marks=("MB",))

    def _check_aro(self, m: ReactiveMiner, sec: str) -> str:
        attacked = self._attacked(m.name)
        letter = self.letters[m.name]
        if m.skill == "none":
            self.t.add(f"{m.name} declares no ARO", S.ORDERS_AND_AROS, section=sec, marks=(letter,), miner=m.name,
                       skill="none")
            return "none"
        declared_target = m.target_not_attacked or (self.sc.active.skill in ATTACKS and any(
            at.target == m.name for at in self.sc.active.attacks))
        if declared_target and not (m.lof_to_active or attacked or m.same_hexagon):
            # the right to an ARO came at step 4, as a target; at Resolution the Attack counts as Idle, so the ARO is
            # checked against its own Requirements like any other (Order Expenditure Sequence, step 5)
            need = {"ranged_attack": ("a Ranged Attack requires LoF to its target", S.RANGED_ATTACK_REQUIREMENTS),
                    "close_combat_attack": ("a Close Combat Attack requires Silhouette Contact with its target",
                                            S.CLOSE_COMBAT_REQUIREMENTS),
                    "evade": ("a Reactive Miner may only Evade when attacked or in the Active Miner's Hexagon",
                              S.EVADE_REQUIREMENTS),
                    "idle": (None, None)}[m.skill]
            lost = ("that Attack counts as Idle" if self.active.skill not in ATTACKS else
                    "the share of the Burst aimed at it is lost")
            why = (f"as the target of {self.active.name}'s Attack, {m.name} gained its right to an ARO at step 4, but "
                   f"{lost}: at Resolution {m.name} is not attacked, has no LoF to {self.active.name} and is not in "
                   "its Hexagon")
            if need[0] is None:
                self.t.add(f"{m.name} declares an Idle ARO", S.ORDERS_AND_AROS, why[0].upper() + why[1:] + ".",
                           section=sec, marks=(letter,), miner=m.name, skill="idle", burst=0, attacked=False,
                           aro_right_step=4)
                return "idle"
            reason = f"{why}; {need[0]}"
            self._requirement_step(m.name, m.skill, letter, reason, need[1], aro_right_step=4)
            self.t.add(f"{m.name}'s {SKILL_NAMES[m.skill]} ARO does not meet its Requirements: it counts as Idle",
                       S.ORDER_EXPENDITURE_SEQUENCE, f"Resolution checks Requirements ({SKILL_REFS[m.skill].section})"
                       "; it fails them (above). A Skill that fails its Requirements counts as Idle (Common Skills › "
                       "Idle).", section=sec, marks=(letter,), miner=m.name, declared=m.skill, skill="idle",
                       requirement=reason, aro_right_step=4)
            return "idle"
        if not (m.lof_to_active or attacked or m.same_hexagon):
            self.t.add(f"{m.name} has no right to an ARO: no LoF to {self.active.name}, not attacked, not in its "
                       f"Hexagon", S.ORDERS_AND_AROS,
                       "A Reactive Miner may only declare an ARO with LoF to the Active Miner, when it is the target "
                       "of an Attack, or (Evade only) when the Active Miner is in its Hexagon.",
                       section=sec, marks=(letter,), miner=m.name, declared=m.skill, skill="none")
            return "none"
        # the right to an ARO: at step 2 (after the Move) with LoF to the Active Miner or in its Hexagon, else at
        # step 4, once the second Skill makes it the target of an Attack (Order Expenditure Sequence)
        right_step = 2 if (m.lof_to_active or m.same_hexagon) else 4
        reason = rule = None
        if not m.lof_to_active and not attacked and m.skill != "evade":
            reason = "without LoF and not attacked, a Miner in the Active Miner's Hexagon may only Evade"
        elif m.skill == "ranged_attack" and not m.lof_to_active:
            reason = (f"{m.name} gained the right to an ARO only at step 4, as the target of the Attack, and at "
                      f"Resolution it has no LoF to {self.active.name}: a Ranged Attack requires LoF to its target")
            rule = S.RANGED_ATTACK_REQUIREMENTS
        elif m.skill == "ranged_attack" and (said := self._ranged_contact(
                m, self.enemy_tags_in_contact(m) > 0,
                "a Ranged Attack requires not being in Silhouette Contact with an enemy Miner"
                + (f", and {m.name} is in Silhouette Contact with {self.active.name}" if m.silhouette_contact else ""),
                letter)):
            reason, rule = said, S.RANGED_ATTACK_REQUIREMENTS
        elif m.skill == "close_combat_attack" and not m.silhouette_contact:
            reason = (f"a Close Combat Attack requires Silhouette Contact with its target, and {m.name} is not in "
                      f"Silhouette Contact with {self.active.name}")
            rule = S.CLOSE_COMBAT_REQUIREMENTS
        elif m.skill == "evade" and not (attacked or m.same_hexagon):
            reason = "a Reactive Miner may only Evade when attacked or in the Active Miner's Hexagon"
            rule = S.EVADE_REQUIREMENTS
        if reason:
            if rule is not None:
                self._requirement_step(m.name, m.skill, letter, reason, rule, aro_right_step=right_step)
            why = "it fails them (above)" if rule is not None else f"here {reason}"
            self.t.add(f"{m.name}'s {SKILL_NAMES[m.skill]} ARO does not meet its Requirements: it counts as Idle",
                       S.ORDER_EXPENDITURE_SEQUENCE, f"Resolution checks Requirements ({SKILL_REFS[m.skill].section})"
                       f"; {why}. A Skill that fails its Requirements counts as Idle (Common Skills › Idle).",
                       section=sec, marks=(letter,), miner=m.name, declared=m.skill, skill="idle",
                       requirement=reason, aro_right_step=right_step)
            return "idle"
        burst = aro_burst(m)
        if m.skill in ATTACKS:
            detail = ("An ARO has Burst 1" + (f"; a Burst MOD of {m.burst_mod:+d} makes it {burst}." if m.burst_mod
                                                  else "."))
            title = (f"{m.name} declares a {SKILL_NAMES[m.skill]} ARO with {m.weapon.name} at {self.active.name}: "
                     f"Burst {burst}")
        elif m.skill == "evade":
            detail = "Evade is a single Roll whatever the Burst of the attacks it opposes."
            title = f"{m.name} declares an Evade ARO"
        else:
            detail, title = "Idle performs no action.", f"{m.name} declares an Idle ARO"
        self.t.add(title, S.ORDERS_AND_AROS, detail, section=sec, marks=(letter,), miner=m.name, skill=m.skill,
                   burst=burst, attacked=attacked, aro_right_step=right_step)
        if m.skill in ATTACKS:
            i = self._reactive_index[m.name]
            self._burst_floor(m.name, 1, m.burst_mod, letter, f"reactive[{i}].burst_mod", "ARO's Burst 1")
        return m.skill

    def _burst_floor(self, who: str, base: int, mod: int, letter: str, field: str, what: str) -> None:
        """A Burst MOD that would take the Burst below 0 (Skills and Tools › Tools: Burst is the number of d20s
        rolled; Activating a Miner › Orders and AROs: a MOD may change an ARO's Burst): the Burst stays at 0 and the
        Miner rolls no dice. Said in a step, never silently."""
        if base + mod >= 0:
            return
        self.t.add(f"{who}'s Burst {base} {mod:+d} = {base + mod} cannot go below 0: Burst 0, {who} rolls no dice",
                   S.TOOLS, f"Burst is the number of d20s rolled, so it cannot be negative; the {what} with a Burst "
                   f"MOD of {mod:+d} ({field}) leaves none. The Skill is still declared (it can still be opposed "
                   "and generate AROs) but it rolls nothing.", section="Declarations", marks=(letter,),
                   miner=who, field=field, burst_before_floor=base + mod, burst=0)

    # -- success values ----------------------------------------------------------------------------------------------

    def _only_ranged(self, who: str, skill: str, letter: str,
                     sources: Sequence[tuple[str, Mapping[str, int]]]) -> set[str]:
        """Range MODs named on a Skill that is not a Ranged Attack: dropped, in one cited step.

        Range MODs (any MOD whose name has the word "Range": ``Range``, ``Long Range``, ``Out of Range``...) come
        from the Range Ruler for a Ranged Weapon and modify only the Ranged Attack Attribute (Rolls › Modifiers
        (MOD); Distances and Measurements › Range Ruler); Close Combat Weapons have no Range MODs (Skills and Tools ›
        Tools), and Evade has its own MODs only (Common Skills › Evade). ``sources``: ``(scenario field, mods)``.
        Returns the names dropped."""
        if skill == "ranged_attack":
            return set()
        dropped = [(f"{f}.{k}", k, v) for f, mods in sources for k, v in mods.items() if is_range_mod(k)]
        if not dropped:
            return set()
        what = ", ".join(f"{v:+d} {k}" for _, k, v in dropped)
        self.t.add(f"{who}'s {what} ignored: Range MODs apply only to Ranged Attacks, not to "
                   f"{SKILL_NAMES[skill]}", S.RANGE_RULER,
                   "Range MODs come from a Ranged Weapon's Range and modify only the Ranged Attack Attribute; Close "
                   "Combat Weapons have no Range MODs (Skills and Tools › Tools) and Evade applies only its own MODs "
                   "(Common Skills › Evade). Ignored: " + ", ".join(f for f, _, _ in dropped) + ".",
                   section="Success Values", marks=(letter,), miner=who, skill=skill,
                   ignored_mods={f: v for f, _, v in dropped})
        return {k for _, k, _ in dropped}

    def _attack_mods(self, attacker, skill: str, base: Mapping[str, int], target_miner,
                     drop: set[str] = frozenset()) -> dict[str, int]:
        mods = {k: v for k, v in attacker.mods.items() if k not in drop}
        for k, v in base.items():
            if k in drop:
                continue
            mods[k if k not in mods else f"{k} (this target)"] = v
        if skill == "ranged_attack" and target_miner is not None:
            if target_miner.partial_cover:
                mods["Partial Cover"] = -3
            if "Ranged Attack -3" in target_miner.traits:
                mods["Ranged Attack -3 trait"] = -3
        if skill == "close_combat_attack" and self.enemy_tags_in_contact(attacker) > 1:
            mods["Contact with several enemy TAGs"] = -3
        return mods

    def _evade_mods(self, m, conditions: list[str], drop: set[str] = frozenset()) -> dict[str, int]:
        mods = {k: v for k, v in m.mods.items() if k not in drop}
        if conditions:
            mods["Evade MOD"] = -3
        return mods

    def _sv_step(self, who: str, what: str, sv: SuccessValue, ref, letter: str, extra: str = "") -> None:
        parts = f"{sv.attribute} {_named_sum(sv.mods)}".strip()
        capped = f" (total MOD capped at {sv.mod_total:+d})" if sv.capped else ""
        self.t.add(f"{who} {what}: SV {sv.value} = {parts}{capped}", ref,
                   ("Success Value = Attribute with every MOD applied. " + extra).strip(),
                   section="Success Values", marks=(letter,), miner=who, sv=sv.value, attribute=sv.attribute,
                   mods=dict(sv.mods), mod_total=sv.mod_total)

    # -- rolls -------------------------------------------------------------------------------------------------------

    def _roll(self, owner: str, purpose: str, target: str | None, sv: SuccessValue, n: int, script, field: str,
              first_index: int) -> Pool:
        letter = self.letters[owner]
        faces, source = self.dice.take(script, n, field, f"{owner} {purpose}")
        ids = [f"{letter}.{first_index + i}" for i in range(len(faces))]
        dice = [classify_die(f, sv.value, self.r) for f in faces]
        if sv.value > 20:
            self.r.reading("sv_above_20")
        pool = Pool(owner, purpose, target, ids, dice, sv, source)
        self.pools.append(pool)
        return pool

    def _roll_step(self, p: Pool) -> None:
        if not p.dice:
            return
        kinds = [d.kind for d in p.dice]
        summary = ", ".join(f"{k} {kinds.count(k)}" for k in ("critical", "success", "failure") if kinds.count(k))
        aim = f" at {p.target}" if p.target else ""
        detail = ("A die equal to or below the SV succeeds; equal to the SV it is a Critical.")
        if p.sv and p.sv.value > 20:
            reading = self.r.reading("sv_above_20")
            detail += (f" The SV is above 20; reading '{reading}': " +
                       ("no die can equal it, so every die succeeds and none is a Critical." if reading == "literal"
                        else "the excess is added to every die and 20 or more is a Critical."))
        src = self.dice.fact(p.source)
        self.t.add(f"{p.owner} rolls {p.describe()} for {SKILL_NAMES.get(p.purpose, p.purpose) if p.purpose != 'attack' else 'the attack'}"
                   f"{aim} against SV {p.sv.value}: {summary} ({self.dice.says(p.source)})", S.SUCCESSFUL_ROLL if not any(
                       d.critical for d in p.dice) else S.CRITICALS, detail, section="Rolls", marks=tuple(p.ids),
                   miner=p.owner, target=p.target, sv=p.sv.value, dice=p.facts(), source=src)

    # -- face to face ------------------------------------------------------------------------------------------------

    def _f2f_steps(self, a: Pool, b: Pool, cmp: Comparison, sec: str, ref) -> None:
        """One step per die and reason that cancels something, then the discarded dice and the result.

        A die's victims are split by the rule that cancels them (Rolls › Face to Face Rolls, Criticals): Criticals
        cancel each other; a Critical cancels every non-critical success; equal results cancel each other; a
        success cancels lower ones. When both sides rolled Criticals, the non-critical successes are not beaten by a
        Critical but simply discarded: one step per side says so."""
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
                    self.t.add(f"{side.owner}'s {d.face} ({side.ids[j]}) cancels {other.owner}'s "
                               f"{other.describe(group)}", rule, why[0].upper() + why[1:] + ".", section=sec,
                               marks=(side.ids[j], *[other.ids[i] for i in group]),
                               canceller=side.ids[j], cancelled=[other.ids[i] for i in group])
            if discarded:
                discarded.sort()
                one = len(discarded) == 1
                self.t.add(f"{other.owner}'s non-critical success{'' if one else 'es'} {other.describe(discarded)} "
                           f"{'is' if one else 'are'} discarded: both sides rolled Criticals", S.FACE_TO_FACE,
                           "When both sides roll Criticals, the Criticals cancel each other and non-critical "
                           "successes are discarded.", section=sec, marks=tuple(other.ids[i] for i in discarded),
                           discarded=[other.ids[i] for i in discarded])
        fails = [(p, i) for p in (a, b) for i, d in enumerate(p.dice) if not d.success]
        if fails:
            self.t.add("Failures are discarded: " + "; ".join(f"{p.owner}'s {p.dice[i].face} ({p.ids[i]})"
                                                              for p, i in fails), S.FACE_TO_FACE,
                       section=sec, marks=tuple(p.ids[i] for p, i in fails), failed=[p.ids[i] for p, i in fails])

    def _result_step(self, a: Pool, b: Pool, cmp: Comparison, sec: str, a_keeps: list[int],
                     b_keeps: list[int]) -> str:
        if a_keeps or b_keeps:
            w, keeps = (a, a_keeps) if a_keeps else (b, b_keeps)
            self.t.add(f"{w.owner} wins the Face to Face Roll with {w.describe(keeps)} uncancelled", S.FACE_TO_FACE,
                       section=sec, marks=tuple(w.ids[i] for i in keeps), winner=w.owner,
                       kept=[w.ids[i] for i in keeps])
            return "win"
        any_success = any(d.success for d in a.dice) and any(d.success for d in b.dice)
        if any_success:
            crit = any(d.critical for d in a.dice) and any(d.critical for d in b.dice)
            self.t.add("Tie: no success survives, no effects are applied" + (" (Criticals on both sides)" if crit
                                                                           else ""), S.BREAKING_TIES,
                       "A tie (Criticals or not) cancels both rolls; the Order is still spent.", section=sec,
                       marks=tuple(a.ids + b.ids), winner=None, result="tie")
            return "tie"
        self.t.add("No side keeps a success: nobody wins", S.FACE_TO_FACE, section=sec,
                   marks=tuple(a.ids + b.ids), winner=None, result="no success")
        return "none"

    def face_to_face(self, a: Pool, b: Pool, *, a_cancel_pool: Pool | None = None) -> tuple[list[int], list[int], str]:
        """Compare two pools; returns indices of a's and b's uncancelled dice and the result kind.

        ``a_cancel_pool`` (Evade vs a split attack, reading ``all_dice``): the dice that may cancel b's successes, when
        larger than the dice that may hit b.
        """
        sec = "Face to Face Rolls"
        ref = S.FACE_TO_FACE_EVADE if "evade" in (a.purpose, b.purpose) else S.FACE_TO_FACE
        cmp = compare(a.dice, b.dice)
        a_keeps = [i for i, s in enumerate(cmp.a_survives) if s]
        if a_cancel_pool is not None:
            wide = compare(a_cancel_pool.dice, b.dice)
            b_keeps = [i for i, s in enumerate(wide.b_survives) if s]
            self._f2f_steps(a_cancel_pool, b, wide, sec, ref)
        else:
            b_keeps = [i for i, s in enumerate(cmp.b_survives) if s]
            self._f2f_steps(a, b, cmp, sec, ref)
        if a_keeps and b_keeps:  # only possible with the all_dice reading (never from one compare())
            raise AssertionError("both sides keep dice")
        kind = self._result_step(a, b, cmp, sec, a_keeps, b_keeps)
        self._last_cmp = (cmp, wide if a_cancel_pool is not None else None)
        return a_keeps, b_keeps, kind

    # -- main --------------------------------------------------------------------------------------------------------

    def run(self) -> Trace:
        self.declarations()
        sc, a, r = self.sc, self.active, self.r
        reactive = {m.name: m for m in sc.reactive}
        mb = sc.megabeast
        # who attacks the Active Miner
        attackers_of_active = [m for m in sc.reactive if self.aro[m.name] in ATTACKS]
        mb_attacks = bool(mb and mb.aro)

        # ---------------------------------------------------------------- success values and rolls
        pools_active: dict[str, Pool] = {}
        evade_pool: Pool | None = None
        n = 1
        if a.skill in ATTACKS:
            for i, at in enumerate(a.attacks):
                tgt = reactive.get(at.target)
                drop = self._only_ranged(a.name, a.skill, "A", [("active.mods", a.mods)] * (i == 0) +
                                         [(f"active.attacks[{i}].mods", at.mods)])
                drop |= {k for k in a.mods if is_range_mod(k)} if a.skill != "ranged_attack" else set()
                mods = self._attack_mods(a, a.skill, at.mods, tgt, drop)
                sv = success_value(a.attribute, mods, r)
                self._sv_step(a.name, f"{SKILL_NAMES[a.skill]} at {at.target}", sv,
                              S.RANGED_ATTACK if a.skill == "ranged_attack" else S.CLOSE_COMBAT_ATTACK, "A",
                              self._mod_notes(mods))
                oor = at.out_of_range and a.skill == "ranged_attack"
                if oor:
                    self._out_of_range(a.name, at.target, "A")
                pools_active[at.target] = self._roll(a.name, "attack", at.target, sv, 0 if oor else at.burst or 0,
                                                     at.dice, f"active.attacks[{i}].dice", n)
                n += at.burst or 0
        elif a.skill == "evade":
            conds = []
            if (attackers_of_active or mb_attacks) and not a.lof_to_attackers:
                conds.append("it is attacked without LoF to its attacker")
            if self.enemy_tags_in_contact(a) > 1:
                conds.append("it is in Silhouette Contact with more than one enemy TAG")
            drop = self._only_ranged(a.name, "evade", "A", [("active.mods", a.mods)])
            sv = success_value(a.attribute, self._evade_mods(a, conds, drop), r)
            self._sv_step(a.name, "Evade", sv, S.EVADE, "A", self._evade_note(conds))
            evade_pool = self._roll(a.name, "evade", None, sv, 1, a.dice, "active.dice", 1)
        pools_reactive: dict[str, Pool] = {}
        for i, m in enumerate(sc.reactive):
            skill = self.aro[m.name]
            letter = self.letters[m.name]
            if skill in ATTACKS:
                drop = self._only_ranged(m.name, skill, letter, [(f"reactive[{i}].mods", m.mods)])
                mods = self._attack_mods(m, skill, {}, a, drop)
                sv = success_value(m.attribute, mods, r)
                self._sv_step(m.name, f"{SKILL_NAMES[skill]} ARO at {a.name}", sv,
                              S.RANGED_ATTACK if skill == "ranged_attack" else S.CLOSE_COMBAT_ATTACK, letter,
                              self._mod_notes(mods))
                oor = m.out_of_range and skill == "ranged_attack"
                if oor:
                    self._out_of_range(m.name, a.name, letter)
                pools_reactive[m.name] = self._roll(m.name, "attack", a.name, sv, 0 if oor else aro_burst(m),
                                                    m.dice, f"reactive[{i}].dice", 1)
            elif skill == "evade":
                attacked = self._attacked(m.name)
                conds = []
                if attacked and not m.lof_to_active:
                    conds.append("it is attacked without LoF to its attacker")
                if m.same_hexagon and not m.lof_to_active:
                    conds.append("the Active Miner is outside its LoF and in its Hexagon")
                if self.enemy_tags_in_contact(m) > 1:
                    conds.append("it is in Silhouette Contact with more than one enemy TAG")
                drop = self._only_ranged(m.name, "evade", letter, [(f"reactive[{i}].mods", m.mods)])
                sv = success_value(m.attribute, self._evade_mods(m, conds, drop), r)
                self._sv_step(m.name, "Evade", sv, S.EVADE, letter, self._evade_note(conds))
                pools_reactive[m.name] = self._roll(m.name, "evade", None, sv, 1, m.dice, f"reactive[{i}].dice", 1)
        mb_pool = None
        if mb:
            tl = DieResult(mb.threat_level, mb.threat_level, mb.threat_level, "success")
            mb_pool = Pool(mb.name, "threat", None, ["MB"], [tl], None, "threat level")
        self.mb_pool = mb_pool
        for p in [*pools_active.values(), *([evade_pool] if evade_pool else []), *pools_reactive.values()]:
            self._roll_step(p)

        # ---------------------------------------------------------------- face to face / normal rolls
        for m in sc.reactive:
            self._pair_reactive(m, pools_active.get(m.name), evade_pool, pools_reactive.get(m.name), pools_active)
        if mb:
            self._pair_megabeast(mb, pools_active.get(mb.name), evade_pool, mb_pool)
        if evade_pool is not None and a.name not in self.evade_results:
            ok = evade_pool.dice[0].success
            self.t.add(f"Normal Evade Roll: {a.name} is not attacked; {evade_pool.describe()} "
                       f"{'is a Critical success' if evade_pool.dice[0].critical else 'succeeds' if ok else 'fails'}",
                       S.EVADE, "An Evade that faces no attack is a Normal Roll.", section="Normal Rolls",
                       marks=tuple(evade_pool.ids), miner=a.name, success=ok)
            self.evade_results[a.name] = [ok]
            self.pairs.append({"active": a.name, "kind": "normal_evade", "winner": a.name if ok else None})
            self.pair_results.append(Pair("normal_evade", a.name, None, False, evade_pool, None,
                                          compare(evade_pool.dice, ()), a.name if ok else None,
                                          "win" if ok else "none"))

        # ---------------------------------------------------------------- saving rolls, wounds, neomaterials
        self.saving_rolls_and_wounds()
        self._evade_effects(evade_pool, pools_reactive)
        self.outcome["evade_moves"] = list(self.evade_moves)
        if mb and not mb.aro and a.skill in ATTACKS and any(x.target == mb.name and (x.burst or 0) > 0
                                                            for x in a.attacks):
            self.t.add(f"Conclusion: {mb.name} declared no ARO but was attacked, so it reorients towards "
                       f"{a.name}", S.ORDER_EXPENDITURE_SEQUENCE,
                       "During the Conclusion it turns to have the Active Miner and as many TAGs as possible in its "
                       "Angle of Vision.", section="Conclusion", marks=("MB", "A"))
            self.outcome["megabeast"]["reorients"] = True
            self.mb_reorients = True
        self.end_of_order_states()
        self.t.rulings = dict(self.r.consulted)
        self.t.outcome = self.outcome
        return self.t

    def resolution(self) -> Resolution:
        """The structured result (call after :meth:`run`)."""
        o, sc = self.outcome, self.sc
        moves = o.get("evade_moves", [])
        moving, dead = set(moves), set(o.get("dead", []))
        pools_of: dict[str, list[Pool]] = {}
        for p in self.pools:
            pools_of.setdefault(p.owner, []).append(p)
        miners: dict[str, MinerResult] = {}
        for m in [self.active, *sc.reactive]:
            role = "active" if m is self.active else "reactive"
            declared = sc.active.skill if role == "active" else m.skill
            skill = self.active.skill if role == "active" else self.aro[m.name]
            loot = o.get("loot", {}).get(m.name)
            miners[m.name] = MinerResult(
                m.name, self.letters[m.name], role, declared, skill,
                tuple(pools_of.get(m.name, ())), m.wounds, o["wounds"].get(m.name, 0),
                o["wounds_left"].get(m.name, m.wounds), m.name in dead,
                o.get("saving_rolls", {}).get(m.name, 0), o.get("failed_saves", {}).get(m.name, 0),
                o.get("teseum", {}).get(m.name, 0), o.get("t_bezoar", {}).get(m.name, 0),
                Loot(**loot) if loot else None, m.name in moving)
        mbr = None
        if sc.megabeast is not None:
            mb, om = sc.megabeast, o.get("megabeast", {})
            mbr = MegaBeastResult(mb.name, mb.threat_level, self.mb_pool, mb.wounds, om.get("wounds", 0),
                                  om.get("wounds_left", mb.wounds), bool(om.get("killed")),
                                  tuple(om.get("fury_tokens_removed", ())), om.get("t_bezoar", 0),
                                  bool(om.get("prevailed")), self.mb_reorients)
        return Resolution(self.t, dict(self.t.rulings), miners, mbr, tuple(self.pair_results),
                          tuple(self.save_results), tuple(o.get("dead", [])), tuple(moves))

    def _out_of_range(self, who: str, target: str, letter: str) -> None:
        self.t.add(f"{target} is Out of Range of {who}'s Weapon: the Ranged Attack fails automatically (no dice)",
                   S.RANGED_ATTACK, "Only Weapons that say so may fire Out of Range (their MOD is then on the card).",
                   section="Rolls", marks=(letter,), miner=who, target=target)

    # -- notes -------------------------------------------------------------------------------------------------------

    @staticmethod
    def _mod_notes(mods: Mapping[str, int]) -> str:
        notes = []
        if "Partial Cover" in mods:
            notes.append("The target is in Partial Cover: -3 to the Ranged Attack.")
        if "Ranged Attack -3 trait" in mods:
            notes.append("The target is equipped with a Tool with the 'Ranged Attack -3' Trait.")
        if "Contact with several enemy TAGs" in mods:
            notes.append("In Silhouette Contact with more than one enemy TAG: -3 to Close Combat.")
        return " ".join(notes)

    @staticmethod
    def _evade_note(conds: list[str]) -> str:
        if not conds:
            return "No Evade MOD applies."
        if len(conds) == 1:
            return f"Evade MOD -3: {conds[0]}."
        return f"A single Evade MOD of -3 although several situations apply ({'; '.join(conds)})."

    # -- pairs -------------------------------------------------------------------------------------------------------

    def _normal(self, p: Pool, what: str) -> tuple[int, int]:
        ok = [i for i, d in enumerate(p.dice) if d.success]
        hits = sum(1 for i in ok if not p.dice[i].critical)
        crits = len(ok) - hits
        self.t.add(f"Normal Roll: {p.owner}'s {what} is unopposed; {len(ok)} of {len(p.dice)} succeed"
                   + (f" ({crits} Critical)" if crits else ""), S.NORMAL_ROLL,
                   "Skills that do not affect each other directly use Normal Rolls: each die at or below the SV "
                   "succeeds.", section="Normal Rolls", marks=tuple(p.ids), miner=p.owner, target=p.target,
                   successes=[p.ids[i] for i in ok], hits=hits, crits=crits)
        return hits, crits

    def _impact(self, attacker, target: str, hits: int, crits: int, skill: str, damage_mods=None) -> AttackDamage:
        """Queue the uncancelled hits of ``attacker`` on ``target`` for Saving Rolls; returns the Attack Damage one
        of its hits does to ``target`` (computed whether or not anything hits)."""
        w: Weapon = attacker.weapon
        imp = _Impact(attacker.name, target, hits, crits, w.damage, w.ammunition, skill == "ranged_attack",
                      tuple(w.traits), dict(damage_mods or {}), w.name, states=tuple(w.states))
        if hits + crits:
            self.impacts.append(imp)
        return self._attack_damage(imp)

    def _attack_damage(self, imp: _Impact) -> AttackDamage:
        """Attack Damage of an impact on a Miner (Damage › Saving Roll, Partial Cover; Ammunition AP; Traits
        ``Armor = 0``). Partial Cover only counts against an attack that needs LoF."""
        target, _ = self._miner(imp.target)
        return attack_damage(imp.damage, target.armor, Ammunition(imp.ammunition),
                             partial_cover=target.partial_cover and imp.ranged,
                             armor_zero="Armor = 0" in imp.traits, mods=imp.damage_mods)

    def _pair_reactive(self, m: ReactiveMiner, ap: Pool | None, evade: Pool | None, rp: Pool | None,
                       pools_active: dict[str, Pool]) -> None:
        a, skill = self.active, self.aro[m.name]
        at = self._attack_at(m.name)
        pair: dict[str, Any] = {"active": a.name, "reactive": m.name}
        pa: Pool | None = None
        pb: Pool | None = None
        cmp: Comparison | None = None
        wide_cmp: Comparison | None = None
        damage: dict[str, AttackDamage] = {}
        if ap is not None and ap.dice and rp is not None and rp.dice:
            wide = None
            if skill == "evade" and len([p for p in pools_active.values() if p.dice]) > 1:
                if self.r.reading("evade_vs_split_attack") == "all_dice":
                    dice = [d for p in pools_active.values() for d in p.dice]
                    ids = [i for p in pools_active.values() for i in p.ids]
                    wide = Pool(a.name, "attack", None, ids, dice, ap.sv, ap.source)
                    self.t.add(f"{m.name}'s Evade opposes the whole Attack: all of {a.name}'s dice may cancel it, "
                               f"only those aimed at {m.name} may hit it", S.FACE_TO_FACE_EVADE,
                               "Ruling 'evade_vs_split_attack = all_dice'.", section="Face to Face Rolls",
                               marks=tuple(ids))
            kind_name = "Evade" if skill == "evade" else SKILL_NAMES[skill]
            self.t.add(f"Face to Face Roll: {a.name} ({ap.describe()}) against {m.name}'s {kind_name} "
                       f"({rp.describe()})", S.FACE_TO_FACE_EVADE if skill == "evade" else S.FACE_TO_FACE,
                       "Both Skills affect each other directly, so the dice are compared.",
                       section="Face to Face Rolls", marks=tuple(ap.ids + rp.ids))
            a_keeps, r_keeps, kind = self.face_to_face(ap, rp, a_cancel_pool=wide)
            pa, pb, (cmp, wide_cmp) = ap, rp, self._last_cmp
            winner = a.name if a_keeps else m.name if r_keeps else None
            pair.update(kind="face_to_face", winner=winner, result=kind)
            ah = sum(1 for i in a_keeps if not ap.dice[i].critical)
            damage[a.name] = self._impact(a, m.name, ah, len(a_keeps) - ah, a.skill, at.damage_mods if at else None)
            if skill in ATTACKS:
                rh = sum(1 for i in r_keeps if not rp.dice[i].critical)
                damage[m.name] = self._impact(m, a.name, rh, len(r_keeps) - rh, skill, m.damage_mods)
            else:
                self.evade_results.setdefault(m.name, []).append(bool(r_keeps))
            pair.update(hits={a.name: ah, m.name: sum(1 for i in r_keeps if not rp.dice[i].critical)},
                        crits={a.name: len(a_keeps) - ah, m.name: sum(1 for i in r_keeps if rp.dice[i].critical)})
        elif ap is not None and ap.dice:
            h, c = self._normal(ap, f"attack at {m.name}")
            damage[a.name] = self._impact(a, m.name, h, c, a.skill, at.damage_mods if at else None)
            pa, cmp = ap, compare(ap.dice, ())
            pair.update(kind="normal_roll", winner=a.name if h + c else None, hits={a.name: h}, crits={a.name: c})
        elif rp is not None and rp.dice and skill in ATTACKS:
            if evade is not None and evade.dice:
                self.t.add(f"Face to Face Roll: {a.name}'s Evade ({evade.describe()}) against {m.name}'s "
                           f"{SKILL_NAMES[skill]} ({rp.describe()})", S.EVADE,
                           "A single Evade Roll opposes every enemy attack individually.",
                           section="Face to Face Rolls", marks=tuple(evade.ids + rp.ids))
                e_keeps, r_keeps, kind = self.face_to_face(evade, rp)
                pa, pb, (cmp, wide_cmp) = evade, rp, self._last_cmp
                rh = sum(1 for i in r_keeps if not rp.dice[i].critical)
                damage[m.name] = self._impact(m, a.name, rh, len(r_keeps) - rh, skill, m.damage_mods)
                self.evade_results.setdefault(a.name, []).append(bool(e_keeps))
                winner = a.name if e_keeps else m.name if r_keeps else None
                pair.update(kind="face_to_face", winner=winner, result=kind, hits={m.name: rh},
                            crits={m.name: len(r_keeps) - rh})
            else:
                h, c = self._normal(rp, f"{SKILL_NAMES[skill]} ARO at {a.name}")
                damage[m.name] = self._impact(m, a.name, h, c, skill, m.damage_mods)
                pb, cmp = rp, compare((), rp.dice)
                pair.update(kind="normal_roll", winner=m.name if h + c else None, hits={m.name: h},
                            crits={m.name: c})
        elif rp is not None and rp.dice and skill == "evade":
            ok = rp.dice[0].success
            who = (f"no attack die opposes {m.name}" if self._attacked(m.name) else f"{m.name} is not attacked")
            self.t.add(f"Normal Evade Roll: {who}; {rp.describe()} "
                       f"{'is a Critical success' if rp.dice[0].critical else 'succeeds' if ok else 'fails'}",
                       S.EVADE, "Not attacked but in the Active Miner's Hexagon: the Evade is a Normal Roll.",
                       section="Normal Rolls", marks=tuple(rp.ids), miner=m.name, success=ok)
            self.evade_results.setdefault(m.name, []).append(ok)
            pair.update(kind="normal_evade", winner=m.name if ok else None)
            pb, cmp = rp, compare((), rp.dice)
        else:
            return
        self.pairs.append(pair)
        self.pair_results.append(Pair(pair["kind"], a.name, m.name, False, pa, pb, cmp, pair["winner"],
                                      pair.get("result", "win" if pair["winner"] else "none"),
                                      dict(pair.get("hits", {})), dict(pair.get("crits", {})), damage, wide_cmp))

    def _megabeast_compare(self, p: Pool, mb_pool: Pool, opposed: bool) -> tuple[list[int], bool]:
        """Which of ``p``'s dice beat the Threat Level, and whether the MegaBeast prevails (only when opposed)."""
        tl = mb_pool.dice[0].effective
        dice = list(p.dice)
        low_crits = [i for i, d in enumerate(dice) if d.critical and d.effective <= tl]
        if low_crits:
            if self.r.reading("megabeast_critical") == "must_exceed":
                for i in low_crits:
                    d = dice[i]
                    dice[i] = DieResult(d.face, d.sv, d.effective, "success")
                self.t.add(f"{p.owner}'s Critical {p.describe(low_crits)} does not exceed Threat Level {tl}",
                           S.MEGABEAST_WOUNDS, "Ruling 'megabeast_critical = must_exceed': against the MegaBeast "
                           "a success must exceed the Threat Level, a Critical included.",
                           section="Face to Face Rolls", marks=tuple(p.ids[i] for i in low_crits))
            else:
                one = len(low_crits) == 1
                self.t.add(f"{p.owner}'s Critical{'' if one else 's'} {p.describe(low_crits)} "
                           f"{'is' if one else 'are'} at or below Threat Level {tl}: a Critical still wins",
                           S.CRITICALS, "Ruling 'megabeast_critical = critical_wins'.",
                           section="Face to Face Rolls", marks=tuple(p.ids[i] for i in low_crits))
        cmp = compare(dice, mb_pool.dice)
        self._last_cmp = (cmp, None)
        self._mb_result = "win"
        keeps = [i for i, s in enumerate(cmp.a_survives) if s]
        lower = [i for i, c in enumerate(cmp.a_cancelled_by) if c]
        if lower:
            self.t.add(f"Threat Level {tl} cancels {p.owner}'s {p.describe(lower)}", S.MEGABEAST_THREAT,
                       "The Threat Level counts as the MegaBeast's roll: successes that do not exceed it do not "
                       "count.", section="Face to Face Rolls", marks=("MB", *[p.ids[i] for i in lower]))
        if keeps:
            # dice that win because they exceed the Threat Level, and Criticals at or below it that win only by the
            # reading megabeast_critical = critical_wins (they must not be said to exceed it)
            by_crit = [i for i in keeps if i in low_crits]
            above = [i for i in keeps if i not in low_crits]
            if above:
                self.t.add(f"{p.owner}'s {p.describe(above)} {agree(len(above), 'exceeds', 'exceed')} Threat Level "
                           f"{tl}", S.MEGABEAST_THREAT, section="Face to Face Rolls",
                           marks=tuple(p.ids[i] for i in above))
            if by_crit:
                one = len(by_crit) == 1
                self.t.add(f"{p.owner}'s Critical{'' if one else 's'} {p.describe(by_crit)} beat"
                           f"{'s' if one else ''} Threat Level {tl} as a Critical, not by exceeding it",
                           S.CRITICALS, "Ruling 'megabeast_critical = critical_wins': a Critical wins the Face to "
                           "Face Roll against the Threat Level even when it does not exceed it.",
                           section="Face to Face Rolls", marks=tuple(p.ids[i] for i in by_crit))
            equal_idx = [i for i, d in enumerate(dice) if d.success and d.key == tl]
            if opposed and equal_idx:
                # the other dice win anyway; the reading only says whether an equal result ties with the Threat
                # Level (both cancelled) or is simply beaten by it (the Resolution's comparison records which)
                reading = self.r.reading("megabeast_equal")
                self.t.add(f"{p.owner}'s {p.describe(equal_idx)} {agree(len(equal_idx), 'equals', 'equal')} Threat "
                           f"Level {tl}: " + ("they cancel each other" if reading == "tie" else "not enough, beaten "
                                              "by it"), S.BREAKING_TIES if reading == "tie" else S.MEGABEAST_THREAT,
                           f"Ruling 'megabeast_equal = {reading}'. It does not change the result: "
                           f"{p.describe(keeps)} still {agree(len(keeps), 'wins', 'win')} against the Threat "
                           f"Level.",
                           section="Face to Face Rolls", marks=("MB", *[p.ids[i] for i in equal_idx]))
                if reading != "tie":
                    self._last_cmp = (Comparison(cmp.a, cmp.b, cmp.a_survives, cmp.b_survives, cmp.a_cancelled_by,
                                                 (tuple(j for j in cmp.b_cancelled_by[0] if j not in equal_idx),)),
                                      None)
            return keeps, False
        if not opposed:
            self._mb_result = "none"
            return [], False
        equal = any(d.success and d.key == tl for d in dice)
        if equal and self.r.reading("megabeast_equal") == "tie":
            self.t.add(f"{p.owner}'s best success equals Threat Level {tl}: a tie, nothing happens", S.BREAKING_TIES,
                       "Ruling 'megabeast_equal = tie'.", section="Face to Face Rolls", marks=("MB",))
            self._mb_result = "tie"
            return [], False
        if equal:  # megabeast_equal = megabeast_prevails: an equal result does not cancel the Threat Level
            self._last_cmp = (Comparison(cmp.a, cmp.b, cmp.a_survives, (True,), cmp.a_cancelled_by, ((),)), None)
        self.t.add(f"{self.sc.megabeast.name} prevails: no success of {p.owner} exceeds Threat Level {tl}",
                   S.MEGABEAST_THREAT, ("Ruling 'megabeast_equal = megabeast_prevails': an equal result is not "
                                        "enough. " if equal else "") + "The effect of its Behavior is applied.",
                   section="Face to Face Rolls", marks=("MB",))
        return [], True

    def _pair_megabeast(self, mb, ap: Pool | None, evade: Pool | None, mb_pool: Pool) -> None:
        a = self.active
        pair: dict[str, Any] = {"active": a.name, "megabeast": mb.name, "threat_level": mb.threat_level}
        at = self._attack_at(mb.name)
        prevails = False
        pa: Pool | None = None
        cmp: Comparison | None = None
        opposed_by: Pool | None = mb_pool
        result = "none"
        if ap is not None and ap.dice:
            pa = ap
            if mb.aro:
                self.t.add(f"Face to Face Roll: {a.name} ({ap.describe()}) against {mb.name}'s Threat Level "
                           f"{mb.threat_level}", S.MEGABEAST_THREAT,
                           "A wound needs a successful roll above the Threat Level of the side the ARO occurs on.",
                           section="Face to Face Rolls", marks=(*ap.ids, "MB"))
                keeps, prevails = self._megabeast_compare(ap, mb_pool, True)
                cmp, result = self._last_cmp[0], self._mb_result
                pair["kind"] = "face_to_face"
            else:
                reading = self.r.reading("megabeast_no_aro")
                if reading == "threat_level":
                    self.t.add(f"{mb.name} declared no ARO; {a.name}'s attack ({ap.describe()}) must still exceed "
                               f"Threat Level {mb.threat_level}", S.MEGABEAST_THREAT,
                               "Ruling 'megabeast_no_aro = threat_level'. Without an ARO the MegaBeast cannot "
                               "prevail.", section="Face to Face Rolls", marks=(*ap.ids, "MB"))
                    keeps, _ = self._megabeast_compare(ap, mb_pool, False)
                    cmp, result = self._last_cmp[0], self._mb_result
                    pair["kind"] = "threat_level"
                else:
                    h, c = self._normal(ap, f"attack at {mb.name}")
                    keeps = [i for i, d in enumerate(ap.dice) if d.success]
                    cmp = compare(ap.dice, ())
                    opposed_by = None  # the Threat Level plays no part
                    result = "win" if keeps else "none"
                    self.t.add(f"Ruling 'megabeast_no_aro = normal_roll': every success wounds {mb.name}",
                               S.NORMAL_ROLL, section="Normal Rolls", marks=tuple(ap.ids[i] for i in keeps))
                    pair["kind"] = "normal_roll"
            hits = sum(1 for i in keeps if not ap.dice[i].critical)
            crits = len(keeps) - hits
            if keeps:
                self.impacts.append(_Impact(a.name, mb.name, hits, crits, a.weapon.damage, a.weapon.ammunition,
                                            a.skill == "ranged_attack", tuple(a.weapon.traits),
                                            dict(at.damage_mods if at else {}), a.weapon.name,
                                            states=tuple(a.weapon.states)))
            pair.update(winner=a.name if keeps else (mb.name if prevails else None), hits={a.name: hits},
                        crits={a.name: crits})
        elif mb.aro and evade is not None and evade.dice:
            self.t.add(f"Face to Face Roll: {a.name}'s Evade ({evade.describe()}) against {mb.name}'s Threat Level "
                       f"{mb.threat_level}", S.MEGABEAST_THREAT,
                       "The Threat Level also sets how hard the MegaBeast's Attacks are to evade.",
                       section="Face to Face Rolls", marks=(*evade.ids, "MB"))
            keeps, prevails = self._megabeast_compare(evade, mb_pool, True)
            pa, (cmp, _), result = evade, self._last_cmp, self._mb_result
            self.evade_results.setdefault(a.name, []).append(bool(keeps))
            pair.update(kind="face_to_face", winner=a.name if keeps else (mb.name if prevails else None))
        elif mb.aro:
            prevails = True
            self.t.add(f"{mb.name}'s Behavior ARO is unopposed: its Threat Level {mb.threat_level} stands as a "
                       f"success", S.MEGABEAST_AROS, f"{a.name} neither attacks nor evades the MegaBeast, so its result "
                       "(the Threat Level) is not opposed.", section="Normal Rolls", marks=("MB",))
            pair.update(kind="unopposed", winner=mb.name)
            cmp, result = compare((), mb_pool.dice), "win"
        else:
            return
        pair["megabeast_prevails"] = prevails
        self.megabeast_prevails = prevails
        damage: dict[str, AttackDamage] = {}
        if mb.behavior_attack:
            ba = mb.behavior_attack
            imp = _Impact(mb.name, a.name, ba.hits, 0, ba.damage, ba.ammunition, ba.ranged, tuple(ba.traits), {},
                          ba.name, from_megabeast=True, states=tuple(ba.states))
            damage[mb.name] = self._attack_damage(imp)
        if prevails and mb.behavior_attack and mb.behavior_attack.hits:
            self.impacts.append(imp)
        elif prevails:
            self.t.add(f"{mb.name}'s Behavior effect applies to {a.name} (no Behavior Attack with damage given)",
                       S.MEGABEAST_AROS, section="Face to Face Rolls", marks=("MB",))
        self.pairs.append(pair)
        if result == "win" and pair["winner"] is None:
            result = "none"
        self.pair_results.append(Pair(pair["kind"], a.name, mb.name, True, pa, opposed_by, cmp, pair["winner"],
                                      result, dict(pair.get("hits", {})), dict(pair.get("crits", {})), damage, None,
                                      prevails))

    def _evade_effects(self, evade: Pool | None, pools_reactive: dict[str, Pool]) -> None:
        """Evade movement (Common Skills › Evade): a successful Evade Roll lets the Miner move one Segment."""
        if not self.evade_results:
            return
        order = [self.active.name] + [m.name for m in self.sc.reactive]
        for name in order:
            res = self.evade_results.get(name)
            if res is None:
                continue
            if len(res) > 1:
                reading = self.r.reading("evade_movement")
                ok = all(res) if reading == "wins_all" else any(res)
                note = (f" Ruling 'evade_movement = {reading}': the single Evade Roll faced {len(res)} attacks and "
                        f"won {sum(res)}.")
            else:
                ok, note = res[0], ""
            letter = self.letters[name]
            if ok:
                self.evade_moves.append(name)
                self.t.add(f"{name}'s Evade succeeds: it may move one Segment", S.EVADE,
                           "The move may enter or leave Silhouette Contact and generates no ARO; the Active Miner "
                           "moves first, then Reactive Miners in Timeline order." + note, section="Effects",
                           marks=(letter,), miner=name)
            else:
                self.t.add(f"{name}'s Evade does not succeed: no Evade movement", S.EVADE, note.strip(),
                           section="Effects", marks=(letter,), miner=name)

    # -- states ------------------------------------------------------------------------------------------------------

    def _causes_states(self) -> bool:
        """Whether any attack in the scenario can cause a State (only then does the outcome list ``states``)."""
        sc = self.sc
        weapons = [m.weapon for m in [sc.active, *sc.reactive] if m.weapon is not None]
        if sc.megabeast is not None and sc.megabeast.behavior_attack is not None:
            weapons.append(sc.megabeast.behavior_attack)
        return any(w.states for w in weapons)

    def end_of_order_states(self) -> None:
        """States caused by successful Attacks (Damage › Saving Roll; States; Activating a Miner › Order Expenditure
        Sequence, step 5.3): the target of uncancelled hits of a Weapon that causes a State enters it whether or not
        it passed its Saving Rolls, at the end of the Order, with one Token per State (a Miner that already has the
        Token gets no second one). The MegaBeast (ruling ``megabeast_states``) and a Miner that died in this Order
        (ruling ``state_on_death``) are the open cases. Sets ``outcome["states"]`` = ``{target: [State, ...]}``
        (the States entered) when any attack in the scenario can cause a State."""
        if not self._causes_states():
            return
        sec, entered = "End of the Order", {}
        dead = set(self.outcome.get("dead", []))
        mb = self.sc.megabeast
        for imp in self.impacts:
            for state in imp.states:
                letter = self.letters.get(imp.target, "MB")
                facts = dict(section=sec, marks=(letter,), target=imp.target, attacker=imp.attacker, state=state)
                if mb is not None and imp.target == mb.name:
                    reading = self.r.reading("megabeast_states")
                    if reading == "not_affected":
                        self.t.add(f"{imp.target} does not enter the {state} State ({imp.attacker}'s {imp.weapon})",
                                   S.STATES, "Ruling 'megabeast_states = not_affected': States affect Miners.",
                                   entered=False, **facts)
                        continue
                    why = "Ruling 'megabeast_states = affected'. "
                    already = False
                else:
                    miner, _ = self._miner(imp.target)
                    why = ""
                    if imp.target in dead:
                        reading = self.r.reading("state_on_death")
                        if reading == "cleared":
                            self.t.add(f"{imp.target} died in this Order: it does not enter the {state} State",
                                       S.DEATH, "Ruling 'state_on_death = cleared': Death removes the Miner's State "
                                       "Tokens and it Respawns.", entered=False, **facts)
                            continue
                        why = "Ruling 'state_on_death = applies_after_respawn'. "
                    already = state in miner.states
                if already or state in entered.get(imp.target, []):
                    self.t.add(f"{imp.target} already has a {state} Token: no second one ({imp.attacker}'s "
                               f"{imp.weapon})", S.STATES, "A Miner can only have 1 Token per State.",
                               entered=False, **facts)
                    continue
                saves = [r for r in self.save_results if r.attacker == imp.attacker and r.target == imp.target]
                failed = sum(1 for r in saves for d in r.dice if d.failed)
                made = sum(len(r.dice) for r in saves)
                how = (f"although it passed {'its' if made > 1 else 'the'} {made} Saving Roll{'s' if made > 1 else ''}"
                       if saves and made and not failed else
                       f"it failed {failed} of {made} Saving Rolls" if made else "it makes no Saving Roll")
                entered.setdefault(imp.target, []).append(state)
                self.t.add(f"{imp.target} enters the {state} State at the end of the Order ({imp.attacker}'s "
                           f"{imp.weapon} hit it; {how})", STATE_REFS.get(state, S.STATES),
                           why + "A successful Attack whose Weapon causes a State puts the target in it even if the "
                           "Saving Roll was passed (Damage › Saving Roll); Miners are affected at the end of the Order "
                           "and get one Token per State (States).", entered=True, **facts)
        if not entered and not any(imp.states for imp in self.impacts):
            self.t.add("No State is caused: no Attack that causes one hit its target", S.STATES, section=sec)
        self.outcome["states"] = entered

    # -- saving rolls and wounds -------------------------------------------------------------------------------------

    def _miner(self, name: str):
        if name == self.active.name:
            return self.active, "active"
        i = self._reactive_index.get(name)
        if i is not None:
            return self.sc.reactive[i], f"reactive[{i}]"
        return None, "megabeast"

    def saving_rolls_and_wounds(self) -> None:
        sec = "Saving Rolls"
        mb = self.sc.megabeast
        caused: dict[str, list[tuple[str, int, bool]]] = {}  # target -> [(attacker, wounds caused, megabeast?)]
        saves_made: dict[str, int] = {}
        failed: dict[str, int] = {}
        if not self.impacts:
            self.t.add("No uncancelled success: no Saving Rolls", S.DAMAGE, section=sec)
        for imp in self.impacts:
            ammo = Ammunition(imp.ammunition)
            if mb and imp.target == mb.name:
                n = saving_rolls(imp.hits, imp.crits, ammo, megabeast=True)
                ignored = saving_rolls(imp.hits, imp.crits, ammo) - n
                got = imp.hits + imp.crits
                self.t.add(f"{imp.attacker}'s {plural(got, 'uncancelled success', 'uncancelled successes')} with "
                           f"{ammo.value} ammunition {agree(got, 'produces', 'produce')} {plural(n, 'Saving Roll')}: "
                           f"{plural(n, 'Wound')} to {mb.name}", S.MEGABEAST_WOUNDS,
                           f"{ammo.value} forces {plural(ammo.saves_per_hit, 'Saving Roll')} per impact. MegaBeasts make no "
                           "Saving Rolls: each one produced is a Wound."
                           + (f" Immune to Critical hits: the {plural(ignored, 'extra Saving Roll')} "
                              f"{agree(ignored, 'is', 'are')} ignored."
                              if ignored else ""),
                           section=sec, marks=("MB",), attacker=imp.attacker, target=imp.target, hits=imp.hits,
                           crits=imp.crits, saving_rolls=n, ignored_critical_rolls=ignored)
                caused.setdefault(imp.target, []).append((imp.attacker, n, False))
                self.save_results.append(SavingRolls(imp.attacker, imp.target, imp.weapon, imp.hits, imp.crits,
                                                     ammo.value, n, None, (), n, True, False, ignored))
                continue
            target, path = self._miner(imp.target)
            n = saving_rolls(imp.hits, imp.crits, ammo)
            ad: AttackDamage = self._attack_damage(imp)
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
            elif ad.partial_cover and ammo is Ammunition.AP:
                cover_note = " AP halves only the Armor, never the Partial Cover MOD."
            self.t.add(f"{imp.attacker}'s {imp.weapon}: Attack Damage {ad.value} = {' '.join(parts)} against "
                       f"{imp.target}", S.SAVING_ROLL if not ad.partial_cover else S.PARTIAL_COVER,
                       "Attack Damage = Weapon Damage - Armor - 3 for Partial Cover +/- other MODs." + cover_note,
                       section=sec, marks=(self.letters[imp.target],), attacker=imp.attacker, target=imp.target,
                       attack_damage=ad.value, effective_armor=ad.effective_armor, partial_cover=ad.partial_cover)
            extra = "" if not imp.crits else f" + {imp.crits} for {agree(imp.crits, 'a Critical hit', 'Critical hits')}"
            faces, source = self.dice.take(target.save_dice, n, f"{path}.save_dice", f"{imp.target} Saving Roll")
            start = saves_made.get(imp.target, 0)
            letter = self.letters[imp.target]
            ids = [f"{letter}.s{start + i + 1}" for i in range(n)]
            fails = [i for i, f in enumerate(faces) if f <= ad.value]
            saves_made[imp.target] = start + n
            failed[imp.target] = failed.get(imp.target, 0) + len(fails)
            self.t.add(f"{imp.target} makes {plural(n, 'Saving Roll')} against {imp.attacker}: "
                       f"{ammo.saves_per_hit} x {plural(imp.hits + imp.crits, 'impact')}{extra} ({ammo.value})",
                       S.AMMUNITION, "Each impact forces Saving Rolls by Ammunition (N 1, DA 2, EXP 3, AP 1); each "
                       "Critical hit adds one.", section=sec, marks=tuple(ids), attacker=imp.attacker,
                       target=imp.target, hits=imp.hits, crits=imp.crits, saving_rolls=n)
            if n:
                src = self.dice.fact(source)
                self.t.add(f"{imp.target} rolls {', '.join(f'{f} ({i})' for f, i in zip(faces, ids))} against "
                           f"Attack Damage {ad.value}: {len(fails)} failed ({self.dice.says(source)})", S.SAVING_ROLL,
                           "A Saving Roll at or below the Attack Damage fails and costs one Wounds point.",
                           section=sec, marks=tuple(ids[i] for i in fails) or tuple(ids),
                           dice=[{"id": i, "face": f, "failed": f <= ad.value} for f, i in zip(faces, ids)],
                           source=src, failed=len(fails))
            caused.setdefault(imp.target, []).append((imp.attacker, len(fails), imp.from_megabeast))
            self.save_results.append(SavingRolls(imp.attacker, imp.target, imp.weapon, imp.hits, imp.crits,
                                                 ammo.value, n, ad,
                                                 tuple(SaveDie(i, f, f <= ad.value) for f, i in zip(faces, ids)),
                                                 len(fails), False, imp.from_megabeast, 0, source))
        self.outcome.update(pairs=self.pairs, saving_rolls=saves_made, failed_saves=failed)
        self.wounds(caused)

    def wounds(self, caused: dict[str, list[tuple[str, int, bool]]]) -> None:
        sec = "Wounds and Neomaterials"
        mb = self.sc.megabeast
        wounds_lost: dict[str, int] = {}
        wounds_left: dict[str, int] = {}
        teseum: dict[str, int] = {}
        t_bezoar: dict[str, int] = {}
        dead: list[str] = []
        loot: dict[str, dict[str, int | bool]] = {}
        dying: list[tuple[str, bool]] = []
        order = [m.name for m in self.sc.reactive] + [self.active.name]
        for name in order:
            entries = [e for e in caused.get(name, []) if e[1] > 0]
            miner, _ = self._miner(name)
            if not entries:
                continue
            had = miner.wounds
            total = sum(e[1] for e in entries)
            lost = min(total, had)
            if len(entries) > 1 and total > had:
                reading = self.r.reading("teseum_several_attackers")
            else:
                reading = "timeline"
            left = had
            for attacker, n, from_mb in sorted(entries, key=lambda e: e[2]):  # players first, MegaBeast last
                real = min(n, left)
                left -= real
                if from_mb:
                    self.t.add(f"{name} loses {plural(real, 'Wounds point')} to {attacker}" +
                               (f" ({n - real} below 0 count for nothing)" if n > real else ""), S.DEATH,
                               "The MegaBeast gains no Neomaterials.", section=sec, marks=(self.letters[name],),
                               attacker=attacker, target=name, wounds=real)
                    continue
                gain = real if reading == "timeline" else min(n, had)
                dies = had - lost == 0
                per_wound = self.r.reading("teseum_per_wound") if real and not dies else "every_point"
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
                self.t.add(f"{name} loses {plural(real, 'Wounds point')} to {attacker}: {attacker}'s player gains "
                           f"{plural(gain, 'Teseum Unit')}" + (f" ({'; '.join(notes)})" if notes else ""),
                           S.NEOMATERIALS, "One Teseum Unit per point taken from an enemy TAG's Wounds; points below "
                           "0 provide nothing." + (f" Ruling 'teseum_several_attackers = {reading}'."
                                                   if len(entries) > 1 and total > had else "")
                           + (f" Ruling 'teseum_per_wound = {per_wound}'." if real and not dies else ""),
                           section=sec, marks=(self.letters[name],), attacker=attacker, target=name, wounds=real,
                           teseum=gain)
            wounds_lost[name] = lost
            wounds_left[name] = had - lost
            if had - lost == 0:
                dying.append((name, any(e[2] for e in entries)))
        if mb and mb.name in caused:
            n = sum(e[1] for e in caused[mb.name])
            lost = min(n, mb.wounds)
            attacker = caused[mb.name][0][0]
            fury = sorted(p for p in mb.fury_tokens if p <= lost)
            killed = lost == mb.wounds
            trophy = mb.hunting_trophy if killed else 0
            t_bezoar[attacker] = lost + trophy
            wounds_lost[mb.name] = lost
            wounds_left[mb.name] = mb.wounds - lost
            self.t.add(f"{mb.name} loses {plural(lost, 'Wound')}: {attacker}'s player gains "
                       f"{plural(lost, 'T-Bezoar Unit')}"
                       + (f" ({n - lost} below 0 give nothing)" if n > lost else ""), S.MEGABEAST_WOUNDS,
                       "One T-Bezoar Unit per Wound caused to the MegaBeast"
                       + ("; Fury Level Tokens count as Wounds and become active when removed." if fury else "."),
                       section=sec, marks=("MB",), wounds=lost, t_bezoar=lost, fury_tokens_removed=fury,
                       attacker=attacker, target=mb.name)
            if fury:
                self.t.add(f"{plural(len(fury), 'Fury Level Token')} removed: their Fury effects become active",
                           S.MEGABEAST_RAGE, section=sec, marks=("MB",), positions=fury)
            if killed:
                dead.append(mb.name)
                self.t.add(f"{mb.name} suffers its last Wound and dies: +{trophy} T-Bezoar from the Hunting Trophy "
                           f"(total {lost + trophy})", S.MEGABEAST_WOUNDS,
                           "The player who inflicts the last Wound takes the Hunting Trophy.", section=sec,
                           marks=("MB",), hunting_trophy=trophy, total=lost + trophy)
            self.outcome["megabeast"] = {"wounds": lost, "wounds_left": mb.wounds - lost, "killed": killed,
                                         "fury_tokens_removed": fury, "t_bezoar": lost + trophy,
                                         "prevailed": self.megabeast_prevails}
        elif mb:
            self.outcome["megabeast"] = {"wounds": 0, "wounds_left": mb.wounds, "killed": False,
                                         "fury_tokens_removed": [], "t_bezoar": 0, "prevailed": self.megabeast_prevails}
        # Neomaterials are collected first, then each Miner that died applies the steps of Death (Death, MinerBot)
        for name, mb_involved in dying:
            miner, _ = self._miner(name)
            dead.append(name)
            gained = teseum.get(name, 0) + t_bezoar.get(name, 0)
            sz = miner.neomaterials.scoring_zone + gained
            kept = round_up_half(sz)
            rest = sz - kept
            loot[name] = {"scoring_zone_before": sz, "kept": kept, "to_loot_zone": 0 if mb_involved else rest,
                          "to_reserve": rest if mb_involved else 0, "warehouse": miner.neomaterials.warehouse,
                          "megabeast_involved": mb_involved, "gained_this_order": gained}
            self.t.add(f"{name} reaches 0 Wounds and dies", S.DEATH,
                       "It is removed, its Wounds and State Tokens are cleared and it Respawns at an Access Point "
                       "(a d20 roll).", section=sec, marks=(self.letters[name],), miner=name)
            where = ("the reserve (the MegaBeast was involved: the loot is lost; Tool cards are discarded)"
                     if mb_involved else f"{name}'s Loot Zone with its Tool cards")
            plus = f" (including the {gained} gained in this Order, collected before Death)" if gained else ""
            self.t.add(f"{name}'s player keeps {kept} of {sz} Neomaterial Units in the Scoring Zone{plus}; {rest} go "
                       f"to {where}; the {miner.neomaterials.warehouse} in the Warehouse are not lost",
                       S.DEATH_OF_A_TAG, "On a TAG's death its player keeps half of its Scoring Zone units, "
                       "rounded up; Warehouse units are never placed as Loot.", section=sec,
                       marks=(self.letters[name],), **loot[name])
            self.t.add(f"{name} Respawns", S.RESPAWN, "A d20 picks the Access Point; in its Active Turn it may "
                       "still use its remaining Orders.", section=sec, marks=(self.letters[name],))
        if not wounds_lost:
            self.t.add("No Wounds are lost", S.SAVING_ROLL, section=sec)
        for m in [self.active, *self.sc.reactive]:
            wounds_lost.setdefault(m.name, 0)
            wounds_left.setdefault(m.name, m.wounds)
        self.outcome.update(wounds=wounds_lost, wounds_left=wounds_left, dead=dead, teseum=teseum,
                            t_bezoar=t_bezoar, loot=loot, evade_moves=list(self.evade_moves))


def _rulings_for(sc: Scenario, rulings: Rulings | Mapping[str, str] | None) -> Rulings:
    if isinstance(rulings, Rulings):
        return Rulings(rulings.options.values(), rulings.as_dict())
    chosen = dict(sc.rulings)
    chosen.update(rulings or {})
    return make_rulings(chosen)


def resolve(scenario: Scenario, roller: Roller | None = None,
            rulings: Rulings | Mapping[str, str] | None = None) -> Trace:
    """Resolve one Order's roll exchange into an explained :class:`~explorer.trace.Trace`.

    Args:
        scenario: a validated :class:`~explorer.games.tagraid.model.Scenario` (see
            :func:`~explorer.games.tagraid.scenarios.load_scenario`).
        roller: where every die comes from, in resolution order (Active attack dice target by target, the Active
            Evade die, each Reactive Miner's dice in Timeline order, then Saving Rolls). ``None``: the scenario's
            fixed dice where given, and a :class:`~explorer.dice.SeededRoller` of ``scenario.seed`` for the others.
        rulings: a :class:`~explorer.options.Rulings` (used as is) or ``{option key: reading}`` overriding the
            scenario's ``[rulings]`` table.

    Returns:
        the Trace; ``trace.rulings`` lists every ruling option consulted, ``trace.outcome`` holds ``pairs`` (one per
        opposed or unopposed roll: kind, winner, hits, crits), ``saving_rolls`` and ``failed_saves`` per Miner,
        ``wounds``, ``wounds_left``, ``dead``, ``teseum`` / ``t_bezoar`` gained per Miner's player, ``loot`` per dead
        TAG, ``evade_moves`` and ``megabeast``.

    Raises:
        ScenarioError: unknown ruling option or reading; fewer fixed Saving Roll dice than needed.
        DiceScriptExhausted: an explicit ScriptedRoller ran out.

    Sections: Order Expenditure Sequence (Resolution); Rolls; Damage; Death; Common Skills; Ammunition; Traits;
    Tool Containers and Loot; MegaBeast.
    """
    return resolve_detailed(scenario, roller, rulings).trace


def resolve_detailed(scenario: Scenario, roller: Roller | None = None,
                     rulings: Rulings | Mapping[str, str] | None = None) -> Resolution:
    """Resolve one Order's roll exchange into a :class:`Resolution`: the cited trace (``.trace``, exactly what
    :func:`resolve` returns) plus the same ruling as typed data: per Miner its Success Values and dice pools (die ids
    ``"A.1"``...), per pair the kind and the :class:`~explorer.games.tagraid.rolls.Comparison`, the Saving Rolls with
    their :class:`~explorer.games.tagraid.rolls.AttackDamage` and each die's pass/fail, Wounds, deaths and
    Neomaterials. Views draw from it, so what they show is the engine's ruling.

    Args, Raises and Sections: as :func:`resolve`.
    """
    res = _Resolver(scenario, roller, _rulings_for(scenario, rulings))
    res.run()
    return res.resolution()
