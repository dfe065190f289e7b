"""TAG Raid roll primitives: Success Value, die classification, Face to Face cancellation, Saving Roll counts.

These are the small pure functions that both the step-by-step resolver and the exact odds engine use, so the
two can never disagree about a rule.

Sections: Rolls › Successful Roll, Modifiers (MOD), Criticals, Normal Roll, Face to Face Rolls;
Skills and Tools › Ammunition, Traits; Damage › Saving Roll, Partial Cover.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum

from explorer.options import Rulings

from .options import rulings as default_rulings

FAILURE, CRITICAL_KEY = 0, 100
"""Ordering keys: a failure is 0, a success is its (effective) value 1..20, a Critical is 100."""


class Ammunition(str, Enum):
    """Ammunition types (Skills and Tools › Ammunition)."""

    N = "N"
    DA = "DA"
    EXP = "EXP"
    AP = "AP"

    @property
    def saves_per_hit(self) -> int:
        """Saving Rolls per uncancelled hit: N 1, DA 2, EXP 3, AP 1."""
        return {"N": 1, "DA": 2, "EXP": 3, "AP": 1}[self.value]


@dataclass(frozen=True)
class SuccessValue:
    """A Success Value with its derivation.

    Attributes:
        attribute: the Attribute the Skill uses.
        mods: ``{name: MOD}`` as declared (e.g. ``{"Range": 3, "Partial Cover": -3}``).
        mod_total: the total actually applied (after the ``mod_cap`` ruling).
        value: ``attribute + mod_total`` (may be <= 0 or > 20).
        capped: whether the ``mod_cap`` ruling changed the total.
    """

    attribute: int
    mods: Mapping[str, int]
    mod_total: int
    value: int
    capped: bool = False


def success_value(attribute: int, mods: Mapping[str, int] | None = None, rulings: Rulings | None = None) -> SuccessValue:
    """Apply named MODs to an Attribute (Rolls › Successful Roll, Modifiers (MOD)).

    The ``mod_cap`` ruling option decides whether the total is clamped to ±12 (TAG Raid is silent).
    """
    rulings = rulings or default_rulings()
    mods = dict(mods or {})
    raw = sum(mods.values())
    total = raw
    if rulings.reading("mod_cap") == "cap_12":
        total = max(-12, min(12, raw))
    return SuccessValue(attribute, mods, total, attribute + total, capped=total != raw)


@dataclass(frozen=True)
class DieResult:
    """One d20 compared to a Success Value (Rolls › Successful Roll, Criticals).

    Attributes:
        face: the face rolled, 1..20.
        sv: the Success Value rolled against.
        effective: the value compared in a Face to Face Roll (the face, plus the excess under the
            ``sv_above_20 = excess_to_die`` reading).
        kind: ``"failure"``, ``"success"`` or ``"critical"``.
    """

    face: int
    sv: int
    effective: int
    kind: str

    @property
    def success(self) -> bool:
        return self.kind != "failure"

    @property
    def critical(self) -> bool:
        return self.kind == "critical"

    @property
    def key(self) -> int:
        """Ordering key for Face to Face comparisons: failure 0 < success (its effective value) < Critical 100."""
        return CRITICAL_KEY if self.kind == "critical" else self.effective if self.kind == "success" else FAILURE


def classify_die(face: int, sv: int, rulings: Rulings | None = None) -> DieResult:
    """Classify one d20 face against a Success Value.

    Literal TAG Raid: success when ``face <= sv``, Critical when ``face == sv``. With an SV above 20 the
    ``sv_above_20`` ruling option decides (see :data:`explorer.games.tagraid.options.SV_ABOVE_20`).
    """
    rulings = rulings or default_rulings()
    if sv > 20:
        if rulings.reading("sv_above_20") == "excess_to_die":
            eff = face + (sv - 20)
            return DieResult(face, sv, eff, "critical" if eff >= 20 else "success")
        return DieResult(face, sv, face, "success")
    if face == sv:
        return DieResult(face, sv, face, "critical")
    return DieResult(face, sv, face, "success" if face <= sv else "failure")


def face_keys(sv: int, rulings: Rulings | None = None) -> list[int]:
    """The ordering key of each face 1..20 (index 0 is face 1) against ``sv``; what the odds engine needs."""
    return [classify_die(f, sv, rulings).key for f in range(1, 21)]


@dataclass(frozen=True)
class Comparison:
    """The cancellation of a Face to Face Roll between two dice pools (Rolls › Face to Face Rolls, Criticals).

    Attributes:
        a, b: the classified dice of each side, in roll order.
        a_survives, b_survives: per die, whether it is an uncancelled success.
        a_cancelled_by, b_cancelled_by: per die, indices of the opposing dice that cancel it (empty for
            failures, which are simply discarded, and for survivors).
    """

    a: tuple[DieResult, ...]
    b: tuple[DieResult, ...]
    a_survives: tuple[bool, ...]
    b_survives: tuple[bool, ...]
    a_cancelled_by: tuple[tuple[int, ...], ...]
    b_cancelled_by: tuple[tuple[int, ...], ...]

    @property
    def a_hits(self) -> int:
        return sum(1 for d, s in zip(self.a, self.a_survives) if s and not d.critical)

    @property
    def a_crits(self) -> int:
        return sum(1 for d, s in zip(self.a, self.a_survives) if s and d.critical)

    @property
    def b_hits(self) -> int:
        return sum(1 for d, s in zip(self.b, self.b_survives) if s and not d.critical)

    @property
    def b_crits(self) -> int:
        return sum(1 for d, s in zip(self.b, self.b_survives) if s and d.critical)

    @property
    def winner(self) -> str | None:
        """``"a"``, ``"b"`` or ``None`` (both fail, or a tie: equal results or Criticals on both sides)."""
        if any(self.a_survives):
            return "a"
        if any(self.b_survives):
            return "b"
        return None


def _cancellers(die: DieResult, others: Sequence[DieResult]) -> tuple[int, ...]:
    """Indices of opposing successes that cancel ``die``: any success with an equal or higher key.

    A higher success cancels a lower one even when it is itself cancelled; equal results cancel each other
    (the tie rule); a Critical cancels every non-critical success and is only cancelled by an enemy Critical.
    """
    if not die.success:
        return ()
    return tuple(j for j, o in enumerate(others) if o.success and o.key >= die.key)


def compare(a: Sequence[DieResult], b: Sequence[DieResult]) -> Comparison:
    """Cancel two classified dice pools against each other (Rolls › Face to Face Rolls, Criticals).

    Pure and symmetric: ``compare(b, a)`` is ``compare(a, b)`` with the sides swapped. A die survives exactly
    when it is a success whose key is strictly above every opposing success's key, so at most one side keeps
    dice. Either pool may be empty (an empty side is a Normal Roll for the other).
    """
    a, b = tuple(a), tuple(b)
    a_by = tuple(_cancellers(d, b) for d in a)
    b_by = tuple(_cancellers(d, a) for d in b)
    return Comparison(a, b,
                      tuple(d.success and not c for d, c in zip(a, a_by)),
                      tuple(d.success and not c for d, c in zip(b, b_by)),
                      a_by, b_by)


def saving_rolls(hits: int, crits: int, ammunition: Ammunition | str, megabeast: bool = False) -> int:
    """Number of Saving Rolls produced by uncancelled non-critical ``hits`` and ``crits``.

    Each impact forces 1 (N, AP), 2 (DA) or 3 (EXP) Saving Rolls; each Critical adds one more
    (Skills and Tools › Ammunition). The MegaBeast is immune to Critical hits and ignores that extra roll
    (MegaBeast › Wounds).
    """
    ammo = Ammunition(ammunition)
    extra = 0 if megabeast else crits
    return ammo.saves_per_hit * (hits + crits) + extra


def round_up_half(x: int) -> int:
    """Halve and round up, as every division in TAG Raid does (Rolls: rounding)."""
    return math.ceil(x / 2)


@dataclass(frozen=True)
class AttackDamage:
    """Attack Damage and its derivation (Damage › Saving Roll).

    Attributes:
        weapon_damage: the weapon's Damage.
        armor: the target's Armor Attribute as printed.
        effective_armor: armor after Traits / AP (``Armor = 0`` trait → 0; AP → half, rounded up).
        partial_cover: whether the -3 for Partial Cover was applied (never halved by AP).
        mods: other named MODs to the Attack Damage.
        value: the Attack Damage; a Saving Roll fails when the d20 is at most this value.
    """

    weapon_damage: int
    armor: int
    effective_armor: int
    partial_cover: bool
    mods: Mapping[str, int]
    value: int


def attack_damage(weapon_damage: int, armor: int, ammunition: Ammunition | str = "N", *, partial_cover: bool = False,
                  armor_zero: bool = False, mods: Mapping[str, int] | None = None) -> AttackDamage:
    """Attack Damage = weapon Damage − Armor (AP: half, rounded up; ``Armor = 0`` trait: 0) − 3 for Partial Cover
    ± other MODs (Damage › Saving Roll; Skills and Tools › Ammunition (AP), Traits; Damage › Partial Cover).

    The caller decides whether Partial Cover applies (only to attacks that need LoF).
    """
    ammo = Ammunition(ammunition)
    eff = 0 if armor_zero else round_up_half(armor) if ammo is Ammunition.AP else armor
    mods = dict(mods or {})
    value = weapon_damage - eff - (3 if partial_cover else 0) + sum(mods.values())
    return AttackDamage(weapon_damage, armor, eff, partial_cover, mods, value)


def save_fails(face: int, damage: int) -> bool:
    """A Saving Roll fails (one Wound) when the d20 is at most the Attack Damage (Damage › Saving Roll)."""
    return face <= damage


def fail_probability(damage: int) -> float:
    """Chance that one Saving Roll fails: ``clamp(damage, 0, 20) / 20``."""
    return max(0, min(20, damage)) / 20
