"""Typed outcomes of the four Mass Effect scenario kinds, and the typed record of what happened to each character.

Sections summarised (each trace step cites its own): Interacting with the Mission Map (``map``: :class:`MapOutcome`),
Playing a Mission › Step A: the Strategy Roll (``strategy``: :class:`StrategyOutcome`), Attacking › Squadmate Damage,
Damaging Enemies, Additional Enemy Rules › Elites, End Phase (``damage``: :class:`DamageOutcome`), Step C: Hazard
Card (``activation``: :class:`ActivationOutcome`).

Each outcome is a frozen :class:`explorer.kernel.Outcome`: its ``to_json()`` is the JSON object ``explorer resolve
--json`` and the golden files show, and the outcome text (:mod:`.outcome`), ``Game.picture`` and the pages read its
attributes. The ``damage`` and ``activation`` outcomes also carry :attr:`~DamageOutcome.events`: one typed
:data:`Happening` per thing that happened to a character, in order, written by the step functions as they change the
state (never parsed back from a step's facts).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Union

from explorer.kernel import Outcome

__all__ = ["ActivationOutcome", "Attack", "BioticEffect", "DamageOutcome", "Downed", "EliteDamaged", "EnemyAdvanced",
           "EnemyReacted",
           "EnemyAt", "Happening", "InvalidActivation", "MapAnswer", "MapOutcome", "MediGel", "MinionDamaged",
           "NotActivated", "OddsLine", "OnPointPassed", "OpportunityAttack", "Refused", "SquadmateAt",
           "Revealed", "SquadmateDamaged", "SquadmateMoved", "Spawned", "StrategyOutcome", "Stunned", "TargetTie"]


# ---------------------------------------------------------------------------------------------------------- map


# MapAnswer and MapOutcome live in .map_results (a map question's answer imports none of the other kinds' outcomes,
# issue 18); imported here so that every outcome is found in this module too.
from .map_results import MapAnswer, MapOutcome  # noqa: E402


# ------------------------------------------------------------------------------------------------------ strategy


@dataclass(frozen=True)
class OddsLine:
    """The exact odds of this Pool before the roll (:func:`.strategy_odds.strategy_odds_table`): the numbers the
    outcome text and the page show, and the whole ``table`` (JSON) for ``--json``.

    Attributes:
        pool, paragon: Strategy and Paragon dice; ``locked``: the Locked die's face value, or ``None``.
        p_fill, p_enhanced: P(fill Move + Standard + Enhanced), P(at least one Enhanced): ``(float, exact)``.
        expected_triggers: the expected number of Core Ability triggers; ``trigger_pmf``: P(k triggers), k = 0, 1...
    """

    pool: int
    paragon: int
    locked: str | None
    p_fill: tuple[float, str]
    p_enhanced: tuple[float, str]
    expected_triggers: float
    trigger_pmf: tuple[float, ...]
    table: Mapping[str, Any]

    @classmethod
    def of(cls, table: Mapping[str, Any]) -> "OddsLine":
        """The line of an odds table, as :func:`.strategy_odds.strategy_odds_table` returns it."""
        def pair(x):
            return (x["float"], x["exact"])
        pmf = table["triggers"]["pmf"]
        return cls(table["pool"], table["paragon"], table["locked"], pair(table["p_fill_move_standard_enhanced"]),
                   pair(table["p_at_least_one_enhanced"]), table["triggers"]["expected"]["float"],
                   tuple(pmf[str(k)]["float"] for k in range(len(pmf))), table)


@dataclass(frozen=True)
class StrategyOutcome(Outcome):
    """A Strategy Roll resolved (Step A), and the Actions' dice allocated when the scenario allocates (Step B).

    Attributes:
        squadmate, core_ability: who rolled and their Core Ability; ``on_point``: first turn of the Round.
        pool_size: dice in the Pool; ``locked``: the Locked die's id, or ``None``.
        final: ``(die id, face value)`` in Pool order after the roll; ``final_counts``: ``(face value, count)``.
        triggers, icons_per_round, roll_rounds, renegade_used: the Core Ability triggers, icons per roll round, roll
            rounds and Renegade tokens used.
        rolled: ``(roll round, ((die id, face value), ...))`` per roll and re-roll, in order.
        can_fill: the dice ids that fill Move + Standard + Enhanced, or ``None``.
        analysis_moves: Liara's Analysis token moves, ``None`` for another Squadmate.
        taken, pool_left: ``(die id, space)`` allocated and ``(die id, face)`` left, ``None`` when nothing is
            allocated.
        odds: the odds before the roll, ``None`` for a Pool without Strategy dice.
    """

    squadmate: str
    core_ability: str
    on_point: bool
    pool_size: int
    locked: str | None
    final: tuple[tuple[str, str], ...]
    final_counts: tuple[tuple[str, int], ...]
    triggers: int
    icons_per_round: tuple[int, ...]
    roll_rounds: int
    renegade_used: int
    can_fill: tuple[str, ...] | None
    rolled: tuple[tuple[int, tuple[tuple[str, str], ...]], ...] = ()
    analysis_moves: int | None = None
    taken: tuple[tuple[str, str], ...] | None = None
    pool_left: tuple[tuple[str, str], ...] | None = None
    odds: OddsLine | None = None
    kind = "strategy"

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "squadmate": self.squadmate, "core_ability": self.core_ability, "on_point": self.on_point,
            "pool_size": self.pool_size, "locked": self.locked, "final": dict(self.final),
            "final_counts": dict(self.final_counts), "triggers": self.triggers,
            "icons_per_round": list(self.icons_per_round), "roll_rounds": self.roll_rounds,
            "renegade_used": self.renegade_used,
            "can_fill_move_standard_enhanced": None if self.can_fill is None else list(self.can_fill),
        }
        if self.analysis_moves is not None:
            d["analysis_moves"] = self.analysis_moves
        if self.taken is not None:
            d["taken"] = dict(self.taken)
            d["pool_left"] = dict(self.pool_left or ())
        if self.odds is not None:
            d["odds"] = self.odds.table
        return d


# ---------------------------------------------------------------------------------------- what happened, in order


@dataclass(frozen=True)
class Refused:
    """A declaration the rules refuse, or an event about an Enemy no longer on the board: ``text`` says which."""

    text: str


@dataclass(frozen=True)
class TargetTie:
    """Attacking: potential targets ``tied`` on ``tie_value`` (``measure``: Hit Points, or Shield + Hit Points); the
    current Squadmate ``chooser``'s player chooses; the trace follows ``target`` (``by_choice``: the player's choice,
    else the seating order)."""

    tied: tuple[str, ...]
    tie_value: int
    measure: str
    chooser: str
    target: str
    by_choice: bool


@dataclass(frozen=True)
class Attack:
    """Attacking: ``enemy`` Attacks ``target`` (its Squadmate Damage follows)."""

    enemy: str
    target: str


@dataclass(frozen=True)
class OpportunityAttack:
    """Opportunity Attacks: ``squadmate`` left ``enemy``'s adjacency (its Squadmate Damage follows)."""

    enemy: str
    squadmate: str


@dataclass(frozen=True)
class SquadmateMoved:
    """Basic Actions › Move: ``squadmate`` moves along ``path`` (hex keys, its own first: the hexes walked);
    ``forced``: no Opportunity Attacks. When the Move Action ended early (The Pin Tag, Downed): ``planned`` is the
    whole route declared and ``stopped_by`` says why; ``lost``: the Movement Points not spent (``None``: the die was
    not declared)."""

    squadmate: str
    path: tuple[str, ...]
    forced: bool = False
    planned: tuple[str, ...] = ()
    stopped_by: str = ""
    lost: int | None = None


@dataclass(frozen=True)
class EnemyReacted:
    """The React Tag: ``enemy`` moved ``start`` -> ``end`` toward ``toward``; ``why``: no hex nearer ``toward`` could
    be entered (then ``start == end``: it stayed, or it sidestepped: ruling ``react_blocked``)."""

    enemy: str
    start: str
    end: str
    toward: str
    why: str = ""

    @property
    def text(self) -> str:
        if self.start == self.end:
            return f"{self.enemy} (React Tag) stays at {self.start}" + (f": {self.why}" if self.why else "")
        if self.why:                                            # ruling react_blocked = sidestep
            return f"{self.enemy} (React Tag) sidesteps {self.start} → {self.end}: {self.why}"
        return f"{self.enemy} (React Tag) moves {self.start} → {self.end}, toward {self.toward}"


@dataclass(frozen=True)
class Revealed:
    """Shrouded Areas: ``by`` stood in ``hex`` by an unlocked door into ``area``, revealing it; ``enemies`` flipped
    to their Active side."""

    area: str
    by: str
    hex: str
    enemies: tuple[str, ...] = ()

    @property
    def text(self) -> str:
        flipped = f": {', '.join(self.enemies)} flipped Active" if self.enemies else ""
        return f"{self.by} reveals Shrouded area {self.area} from {self.hex}{flipped}"


@dataclass(frozen=True)
class SquadmateDamaged:
    """Squadmate Damage: ``amount`` points from ``by`` (``""``: not named): ``shields`` Shield Points and ``hits`` Hit
    Points lost; ``already_downed``: no effect."""

    squadmate: str
    amount: int
    by: str
    shields: int
    hits: int
    already_downed: bool = False


@dataclass(frozen=True)
class Downed:
    """Downed Squadmates: ``squadmate`` is Downed; ``commander``: it is Shepard and the Mission ends in failure."""

    squadmate: str
    commander: bool = False

    @property
    def text(self) -> str:
        return f"{self.squadmate} is Downed" + (": the Mission ends in failure" if self.commander else "")


@dataclass(frozen=True)
class MinionDamaged:
    """Damaging Enemies: a Minion suffers ``amount`` Damage from ``by`` (``""``: not named); ``defeated``: back to
    the Enemy Bag."""

    enemy: str
    amount: int
    by: str
    defeated: bool


@dataclass(frozen=True)
class EliteDamaged:
    """Elites: ``amount`` Damage from ``by`` on Resilience ``level`` (1-based): ``damage`` of ``shield_value`` stays
    on it, or the level is ``exhausted`` with ``discarded`` excess disregarded; ``defeated``: its last level."""

    enemy: str
    amount: int
    by: str
    level: int
    damage: int
    shield_value: int
    exhausted: bool
    discarded: int = 0
    defeated: bool = False


@dataclass(frozen=True)
class Stunned:
    """Stunning Enemies: ``enemy`` flipped to its Stunned side (``already``: it was)."""

    enemy: str
    already: bool = False


@dataclass(frozen=True)
class BioticEffect:
    """Biotic Effects: ``enemy`` gets a Biotic Effect token: Attack Value ``attack_value`` counts as ``counts_as``
    (``already``: it had one: no second token)."""

    enemy: str
    attack_value: int
    counts_as: int
    already: bool = False


@dataclass(frozen=True)
class MediGel:
    """Medi-gel Tokens: ``user`` restores ``gained`` Hit Points of ``squadmate`` (now ``hit_points``); ``revived``:
    it was Downed."""

    user: str
    squadmate: str
    gained: int
    before: int
    hit_points: int
    revived: bool = False


@dataclass(frozen=True)
class EnemyAdvanced:
    """Advancing: ``enemy`` ends its Advance at ``end`` from ``start`` (hex keys; equal: it stays); ``why``: the kept
    hex's reason (``""`` when it stays)."""

    enemy: str
    start: str
    end: str
    why: str = ""


@dataclass(frozen=True)
class NotActivated:
    """Step C: Hazard Card: ``enemy`` is not Activated (``stunned``: Stunned; else in a Shrouded area)."""

    enemy: str
    stunned: bool

    @property
    def text(self) -> str:
        return f"{self.enemy} is {'Stunned' if self.stunned else 'in a Shrouded area'}: not Activated"


@dataclass(frozen=True)
class Spawned:
    """Spawning Minions: ``enemy`` is placed at ``hex``."""

    enemy: str
    hex: str


@dataclass(frozen=True)
class InvalidActivation:
    """Invalid Activations: the card names ``enemy_type`` and no Enemy of it is on the board."""

    enemy_type: str

    @property
    def text(self) -> str:
        return f"Invalid Activation: no {self.enemy_type} on the board"


@dataclass(frozen=True)
class Revived:
    """Basic Actions › Revive: ``by`` Revives the Downed ``squadmate``, back with ``hit_points`` and
    ``shield_points`` (the back of its sheet: the sheet file's numbers)."""

    by: str
    squadmate: str
    hit_points: int
    shield_points: int

    @property
    def text(self) -> str:
        return (f"{self.by} Revives {self.squadmate} ({self.hit_points} Hit Points, {self.shield_points} Shield "
                "Points)")


@dataclass(frozen=True)
class OnPointPassed:
    """End Phase: the On Point token passes from ``previous`` to ``to`` (equal: it stays, every other Squadmate is
    Downed, or ``alone``: there is no other Squadmate)."""

    previous: str
    to: str
    alone: bool = False

    @property
    def text(self) -> str:
        if self.to == self.previous:
            return f"On Point stays with {self.previous}: " + ("the only Squadmate" if self.alone else
                                                               "every other Squadmate is Downed")
        return f"On Point passes from {self.previous} to {self.to}"


Happening = Union[Refused, TargetTie, Attack, OpportunityAttack, SquadmateMoved, Revealed, EnemyReacted,
                  SquadmateDamaged, Downed,
                  MinionDamaged, EliteDamaged, Stunned, BioticEffect, MediGel, EnemyAdvanced, NotActivated, Spawned,
                  InvalidActivation, OnPointPassed, Revived]
"""One thing that happened to a character, as the step functions record it (in order) on the state."""


# ---------------------------------------------------------------------------------------- damage and activation


@dataclass(frozen=True)
class SquadmateAt:
    """A Squadmate after the scenario: ``hex`` (``activation``, ``damage`` on a map; else ``None``), Shields, Hit
    Points, Downed, and ``xp`` (``damage``; ``None`` for ``activation``)."""

    name: str
    shield_points: int
    hit_points: int
    downed: bool
    hex: str | None = None
    xp: int | None = None

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {} if self.hex is None else {"hex": self.hex}
        d.update(shield_points=self.shield_points, hit_points=self.hit_points, downed=self.downed)
        if self.xp is not None:
            d["xp"] = self.xp
        return d


@dataclass(frozen=True)
class EnemyAt:
    """An Enemy on the board after the scenario: ``hex`` (``activation``; ``damage`` on a map), its Damage, Stunned;
    and for ``damage``
    the Resilience levels ``exhausted``, ``biotic_effect`` and ``to_defeat`` (Damage still needed at least; ``None``
    for ``activation``)."""

    name: str
    damage: int
    stunned: bool
    hex: str | None = None
    exhausted: int | None = None
    biotic_effect: bool = False
    to_defeat: int | None = None

    def to_json(self) -> dict[str, Any]:
        if self.hex is not None and self.exhausted is None:           # activation
            return {"hex": self.hex, "damage": self.damage, "stunned": self.stunned}
        d = {"damage": self.damage, "exhausted": self.exhausted, "stunned": self.stunned,
             "biotic_effect": self.biotic_effect, "to_defeat": self.to_defeat}
        return d if self.hex is None else {"hex": self.hex, **d}       # damage on a map: where it stands too


@dataclass(frozen=True)
class DamageOutcome(Outcome):
    """A ``damage`` scenario's events played: every Squadmate (seating order) and Enemy left on the board, the Minions
    returned to the Enemy Bag and the Elites removed, the On Point Squadmate, whether the Mission failed, the indices
    of the refused events, and :attr:`events` (what happened, in order)."""

    squadmates: tuple[SquadmateAt, ...]
    enemies: tuple[EnemyAt, ...]
    returned_to_bag: tuple[str, ...]
    removed: tuple[str, ...]
    on_point: str | None
    mission_failed: bool
    rejected: tuple[int, ...]
    events: tuple[Happening, ...] = ()
    kind = "damage"

    def to_json(self) -> dict[str, Any]:
        return {"squadmates": {s.name: s.to_json() for s in self.squadmates},
                "enemies": {e.name: e.to_json() for e in self.enemies},
                "returned_to_bag": list(self.returned_to_bag), "removed": list(self.removed),
                "on_point": self.on_point, "mission_failed": self.mission_failed, "rejected": list(self.rejected)}


@dataclass(frozen=True)
class ActivationOutcome(Outcome):
    """An ``activation`` scenario resolved: every Squadmate and Enemy where the activation leaves it, the Minions
    returned to the Enemy Bag, whether the Mission failed, the refused Move (its message, or ``None``), and
    :attr:`events` (what happened, in order)."""

    squadmates: tuple[SquadmateAt, ...]
    enemies: tuple[EnemyAt, ...]
    returned_to_bag: tuple[str, ...]
    mission_failed: bool
    rejected: str | None
    events: tuple[Happening, ...] = ()
    kind = "activation"

    @property
    def removed(self) -> tuple[str, ...]:
        return ()

    @property
    def on_point(self) -> None:
        return None

    def to_json(self) -> dict[str, Any]:
        return {"squadmates": {s.name: s.to_json() for s in self.squadmates},
                "enemies": {e.name: e.to_json() for e in self.enemies},
                "returned_to_bag": list(self.returned_to_bag), "mission_failed": self.mission_failed,
                "rejected": self.rejected}
