"""Squadmates and enemies as immutable values, and the rules that change them.

Sections implemented (see :mod:`.sections`): Components › Enemy Tokens (Stunned Enemies, Elite Enemies); Squadmate
Sheets (Downed Squadmates, Mission Commander); Playing a Mission › Damaging Enemies, Step C: Hazard Card › Attacking
(the Squadmate Damage sidebar), End Phase; Additional Rules › Earning XP, Medi-gel Tokens, Grenade and Grenade Cache
Tokens, Intel Cache Tokens; Additional Enemy Rules › Elites (the Resilience Tracker), Stunning Enemies, Biotic
Effects; Ending a Mission (Shepard Downed).

Every rule is a pure function ``rule(value, ...) -> (new value, steps)``: it never mutates its arguments, and the
steps (:class:`explorer.trace.Step`) say which section decided what. Map geometry (who is adjacent, Line of Fire)
lives elsewhere; the functions here take its answers as arguments (e.g. the enemies a Grenade reaches).

Units: Shield Points, Hit Points, Damage and Attack Values are whole points; XP is boxes of the current Mission's
column (0..3).

>>> s = Squadmate("Garrus", shield_points_max=3, hit_points_max=5)
>>> s2, steps = squadmate_damage(s, 4)
>>> (s2.shield_points, s2.hit_points, s2.downed)
(0, 4, False)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

from explorer.errors import RuleViolation
from explorer.hexgrid import Hex
from explorer.options import Rulings
from explorer.text import join_words, plural
from explorer.trace import Step

from . import sections as S

EnemyKind = Literal["minion", "elite"]
Tag = Literal["React", "Ranged", "Rush", "Pin"]
TAGS: tuple[str, ...] = ("React", "Ranged", "Rush", "Pin")
"""The Enemy Tags the engine knows (Icon Reference › Enemy Tokens)."""

DamageSource = Literal["action", "core_ability", "grenade", "inferno", "turret", "other"]
"""Where Damage to an Enemy came from: an Action (Ability Action), a Core Ability trigger, a Grenade, an Inferno hex,
a Turret or anything else (mission rules). Decides whether a Defeat earns XP (Additional Rules › Earning XP)."""

XP_PER_MISSION = 3
"""A Squadmate may gain at most three XP per Mission (Additional Rules › Earning XP)."""

BIOTIC_ATTACK_PENALTY = 2
"""An Enemy with a Biotic Effect token counts its Attack Value as 2 lower, minimum 0 (Biotic Effects)."""

MEDI_GEL_HIT_POINTS = 2
"""A Medi-gel token restores up to 2 Hit Points (Medi-gel Tokens)."""

MEDI_GEL_RANGE = 2
"""Medi-gel reaches the user or another Squadmate within two hexes (Medi-gel Tokens)."""

GRENADE_DAMAGE = {"grenade": 2, "grenade_cache": 3}
"""Damage to each Enemy in or adjacent to the target hex, by token discarded (Grenade and Grenade Cache Tokens)."""

GRENADE_RANGE = 3
"""A Grenade's target hex is in the thrower's Line of Fire and within three hexes (Grenade and Grenade Cache Tokens)."""


# --- Squadmates ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Squadmate:
    """A Squadmate's sheet and miniature (Squadmate Sheets).

    Attributes:
        name: the Squadmate ("Shepard", "Garrus", ...); unique in a scenario.
        shield_points_max, hit_points_max: the rightmost spaces of the Shield Point and Hit Point trackers (>= 0 / >= 1).
        shield_points, hit_points: current values (``None`` at construction means full).
        downed: the sheet is flipped face-down (Downed Squadmates).
        position: the hex of the miniature, or ``None`` when the map does not matter.
        xp: boxes marked in the current Mission's XP column (0..3, Earning XP).
        commander: Commander Shepard (Mission Commander: if Downed the Mission fails; the sheet has no Downed side).
            Defaults to ``name == "Shepard"``.
    """

    name: str
    shield_points_max: int
    hit_points_max: int
    shield_points: int | None = None
    hit_points: int | None = None
    downed: bool = False
    position: Hex | None = None
    xp: int = 0
    commander: bool | None = None

    def __post_init__(self):
        if self.shield_points is None:
            object.__setattr__(self, "shield_points", self.shield_points_max)
        if self.hit_points is None:
            object.__setattr__(self, "hit_points", 0 if self.downed else self.hit_points_max)
        if self.commander is None:
            object.__setattr__(self, "commander", self.name == "Shepard")
        if not 0 <= self.shield_points <= self.shield_points_max:
            raise ValueError(f"{self.name}: Shield Points {self.shield_points} outside 0..{self.shield_points_max}")
        if not 0 <= self.hit_points <= self.hit_points_max:
            raise ValueError(f"{self.name}: Hit Points {self.hit_points} outside 0..{self.hit_points_max}")

    @property
    def damage_to_down(self) -> int:
        """Points of Damage it takes to Down this Squadmate now: Shield Points + Hit Points (0 when Downed)."""
        return 0 if self.downed else self.shield_points + self.hit_points


def squadmate_damage(sq: Squadmate, amount: int, *, by: str = "") -> tuple[Squadmate, list[Step]]:
    """``sq`` suffers ``amount`` points of Damage (Attacking › Squadmate Damage).

    Each point takes a Shield Point; once the Shield Point tracker is at its first space, each point takes a Hit Point
    instead. At 0 Hit Points the Squadmate is Downed (Downed Squadmates); Damage beyond that is lost. Shepard Downed
    ends the Mission in failure (Mission Commander; see :func:`mission_failed`). A Downed Squadmate suffers nothing.

    Raises:
        ValueError: a negative ``amount``.
    """
    if amount < 0:
        raise ValueError("Damage cannot be negative")
    who = f" from {by}" if by else ""
    if sq.downed:
        return sq, [Step(f"{sq.name} is already Downed: the {amount} Damage{who} has no effect", S.DOWNED_SQUADMATES,
                         facts={"squadmate": sq.name, "damage": amount, "shield_points": 0, "hit_points": 0},
                         marks=[sq.name])]
    from_shields = min(amount, sq.shield_points)
    from_hits = min(amount - from_shields, sq.hit_points)
    new = replace(sq, shield_points=sq.shield_points - from_shields, hit_points=sq.hit_points - from_hits)
    detail = ("Each point of Damage takes a Shield Point; with the shields failed, each point takes a Hit Point."
              f" Shields {sq.shield_points} -> {new.shield_points}, Hit Points {sq.hit_points} -> {new.hit_points}.")
    counts = [plural(n, noun) for n, noun in ((from_shields, "Shield Point"), (from_hits, "Hit Point")) if n]
    lost = f"{' and '.join(counts)} lost" if counts else "no Shield Points or Hit Points lost"
    steps = [Step(f"{sq.name} suffers {amount} Damage{who}: {lost}",
                  S.SQUADMATE_DAMAGE, detail, facts={"squadmate": sq.name, "damage": amount,
                  "shield_points": new.shield_points, "hit_points": new.hit_points}, marks=[sq.name])]
    if new.hit_points == 0:
        new = replace(new, downed=True)
        if new.commander:
            steps.append(Step(f"{sq.name} is Downed: the Mission ends in failure", S.MISSION_COMMANDER,
                              "Commander Shepard has no Downed side; Shepard Downed is one of the four ways a "
                               "Mission ends (Ending a Mission).", facts={"squadmate": sq.name, "downed": True,
                              "mission_failed": True}, marks=[sq.name]))
        else:
            steps.append(Step(f"{sq.name} is Downed", S.DOWNED_SQUADMATES,
                              "Hit Points reduced to 0: flip the Squadmate Sheet, set aside the dice in its Action "
                               "Slots and follow the instructions on its back.", facts={"squadmate": sq.name,
                              "downed": True}, marks=[sq.name]))
    return new, steps


def mission_failed(squadmates: Iterable[Squadmate]) -> bool:
    """Whether Commander Shepard is Downed: the Mission ends in failure (Mission Commander; Ending a Mission)."""
    return any(s.commander and s.downed for s in squadmates)


def restore_shields(sq: Squadmate) -> tuple[Squadmate, list[Step]]:
    """End Phase: the Squadmate recovers all Shield Points (cube to the rightmost space of the Shield Track).

    A Downed Squadmate's sheet is face-down and is left as it is (Downed Squadmates)."""
    if sq.downed or sq.shield_points == sq.shield_points_max:
        return sq, []
    new = replace(sq, shield_points=sq.shield_points_max)
    return new, [Step(f"{sq.name} recovers all Shield Points ({sq.shield_points} -> {new.shield_points})", S.END_PHASE,
                      facts={"squadmate": sq.name, "shield_points": new.shield_points}, marks=[sq.name])]


def medi_gel(user: Squadmate, target: Squadmate, distance: int | None, rulings: Rulings) -> tuple[Squadmate, list[Step]]:
    """``user`` discards a Medi-gel token from the Inventory at the start or end of an Action; ``target`` (the user or
    another Squadmate within :data:`MEDI_GEL_RANGE` hexes, ``distance`` counted as in Counting Distances, ``None`` when
    not checked) recovers up to :data:`MEDI_GEL_HIT_POINTS` Hit Points, never above the tracker's maximum
    (Additional Rules › Medi-gel Tokens).

    A Downed target is decided by the ruling option ``medi_gel_on_downed``.

    Raises:
        RuleViolation: target out of range, or Downed under the reading ``not_a_target``.
    """
    if target.name != user.name and distance is not None and distance > MEDI_GEL_RANGE:
        raise RuleViolation(f"{target.name} is {distance} hexes from {user.name}; Medi-gel reaches the user or a "
                            f"Squadmate within {MEDI_GEL_RANGE} hexes", S.MEDI_GEL.section)
    steps = []
    revived = False
    if target.downed:
        reading = rulings.reading("medi_gel_on_downed")
        if reading == "not_a_target":
            raise RuleViolation(f"{target.name} is Downed: Medi-gel restores Hit Points of a Squadmate in play; a "
                                "Downed Squadmate comes back through Revive (ruling medi_gel_on_downed = "
                                "not_a_target)", S.MEDI_GEL.section)
        revived = True
    gained = min(MEDI_GEL_HIT_POINTS, target.hit_points_max - target.hit_points)
    new = replace(target, hit_points=target.hit_points + gained, downed=target.downed and gained == 0)
    steps.append(Step(f"{user.name} uses Medi-gel on {target.name}: +{gained} Hit Points "
                       f"({target.hit_points} -> {new.hit_points})" + (" and no longer Downed" if revived else ""),
                      S.MEDI_GEL, "Up to 2 Hit Points, not above the tracker's maximum; the token goes back to the "
                       "game box.", facts={"user": user.name, "squadmate": target.name, "hit_points": new.hit_points,
                      "revived": revived and not new.downed}, marks=[user.name, target.name]))
    return new, steps


def gain_xp(sq: Squadmate, enemy: str) -> tuple[Squadmate, list[Step]]:
    """``sq`` marks one XP box for Defeating ``enemy``, unless its column already holds :data:`XP_PER_MISSION`
    (Additional Rules › Earning XP: Defeats do not overflow to the next column)."""
    if sq.xp >= XP_PER_MISSION:
        return sq, [Step(f"{sq.name} Defeated {enemy} but already has {XP_PER_MISSION} XP this Mission: no more",
                         S.EARNING_XP, facts={"squadmate": sq.name, "xp": sq.xp, "gained": 0}, marks=[sq.name])]
    new = replace(sq, xp=sq.xp + 1)
    note = " (column full: the Squadmate may unlock an Ability)" if new.xp == XP_PER_MISSION else ""
    return new, [Step(f"{sq.name} gains 1 XP for Defeating {enemy} ({new.xp}/{XP_PER_MISSION}){note}", S.EARNING_XP,
                      facts={"squadmate": sq.name, "xp": new.xp, "gained": 1}, marks=[sq.name])]


def pass_on_point(order: Sequence[Squadmate], on_point: str, rulings: Rulings) -> tuple[str, list[Step]]:
    """End Phase: the On Point token passes to the Squadmate whose sheet is to the right of the current On Point
    Squadmate, skipping Downed Squadmates (Playing a Mission › End Phase).

    ``order`` is the seating, clockwise around the table, i.e. the turn order starting anywhere (Squadmate Phase:
    turns go clockwise). Which neighbour "to the right" is decided by the ruling option ``on_point_direction``.
    If every other Squadmate is Downed, or there is no other Squadmate, the token stays where it is.

    Raises:
        ValueError: ``on_point`` is not in ``order``.
    """
    names = [s.name for s in order]
    if on_point not in names:
        raise ValueError(f"On Point Squadmate {on_point!r} is not one of {names}")
    reading = rulings.reading("on_point_direction")
    step = -1 if reading == "right_hand_neighbour" else 1
    i = names.index(on_point)
    skipped = []
    for k in range(1, len(order) + 1):
        cand = order[(i + step * k) % len(order)]
        if cand.name == on_point:
            break
        if cand.downed:
            skipped.append(cand.name)
            continue
        why = ("players sit facing the table and turns go clockwise, so the sheet on the right is the previous one in "
               "turn order" if step == -1 else "the next Squadmate in (clockwise) turn order")
        skip = f"; skipped Downed {', '.join(skipped)}" if skipped else ""
        return cand.name, [Step(f"On Point passes from {on_point} to {cand.name}", S.END_PHASE,
                                f"Ruling on_point_direction = {reading}: {why}{skip}.", facts={"on_point": cand.name,
                                "skipped": skipped}, marks=[cand.name])]
    why = "the only Squadmate" if len(order) == 1 else "every other Squadmate is Downed"
    return on_point, [Step(f"On Point stays with {on_point}: {why}", S.END_PHASE,
                           facts={"on_point": on_point, "skipped": skipped}, marks=[on_point])]


def damage_happenings(before: Squadmate, after: Squadmate, amount: int, by: str = "") -> tuple:
    """What :func:`squadmate_damage` did, as typed records (:class:`.results.SquadmateDamaged`, then
    :class:`.results.Downed` when this Damage Downed it)."""
    from .results import Downed, SquadmateDamaged

    out: tuple = (SquadmateDamaged(before.name, amount, by, before.shield_points - after.shield_points,
                                   before.hit_points - after.hit_points, before.downed),)
    if after.downed and not before.downed:
        out += (Downed(before.name, bool(after.commander)),)
    return out


class Roster:
    """What every frozen state holding ``squadmates`` and ``enemies`` (and a ``log`` of :data:`.results.Happening`)
    can answer and change, always into a new value: the Mass Effect sequence states (:class:`.damage.DamageState`,
    :class:`.activation.Board`) extend it."""

    squadmates: tuple[Squadmate, ...]
    enemies: tuple[Enemy, ...]
    log: tuple

    def squadmate(self, name: str) -> Squadmate:
        return next(s for s in self.squadmates if s.name == name)

    def enemy(self, name: str) -> Enemy | None:
        return next((e for e in self.enemies if e.name == name), None)

    def with_squadmate(self, sq: Squadmate):
        return replace(self, squadmates=tuple(sq if s.name == sq.name else s for s in self.squadmates))

    def with_enemy(self, name: str, enemy: Enemy | None):
        """This state with ``enemy`` in place of the Enemy ``name``; ``None`` removes it from the board."""
        if enemy is None:
            return replace(self, enemies=tuple(e for e in self.enemies if e.name != name))
        return replace(self, enemies=tuple(enemy if e.name == name else e for e in self.enemies))

    def logged(self, *happenings):
        """This state with ``happenings`` added to its :attr:`log`, in order."""
        return replace(self, log=self.log + tuple(happenings))

    @property
    def failed(self) -> bool:
        """Shepard is Downed: the Mission ends in failure (Mission Commander)."""
        return mission_failed(self.squadmates)


# --- Enemies ------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Enemy:
    """An Enemy token on the map (Components › Enemy Tokens).

    Attributes:
        name: this token's label, unique in a scenario ("Husk 1").
        type: the Enemy type a Hazard card activates ("Husk"); defaults to ``name``.
        kind: ``"minion"`` or ``"elite"``.
        attack_value: the printed Attack Value (>= 0).
        shield_value: a Minion's Shield Value; for an Elite, ignored (see ``resilience``).
        tags: a subset of :data:`TAGS`.
        stunned: Stunned side face-up (not Active: no Activation, no Opportunity Attacks).
        biotic_effect: carries a Biotic Effect token (at most one).
        damage: Damage tokens next to it (for an Elite: on its current Resilience level).
        resilience: an Elite's Resilience Tracker, Shield Values top to bottom (empty for a Minion).
        exhausted: how many levels of the Resilience Tracker are marked, from the top.
        position: its hex, or ``None`` when the map does not matter.
        shrouded: it stands in a Shrouded area (does not Activate, cannot be targeted, stays Stunned side up).
    """

    name: str
    kind: EnemyKind = "minion"
    attack_value: int = 0
    shield_value: int = 1
    tags: frozenset[str] = field(default_factory=frozenset)
    stunned: bool = False
    biotic_effect: bool = False
    damage: int = 0
    resilience: tuple[int, ...] = ()
    exhausted: int = 0
    position: Hex | None = None
    shrouded: bool = False
    type: str = ""

    def __post_init__(self):
        if not self.type:
            object.__setattr__(self, "type", self.name)
        object.__setattr__(self, "tags", frozenset(self.tags))
        object.__setattr__(self, "resilience", tuple(self.resilience))
        unknown = set(self.tags) - set(TAGS)
        if unknown:
            raise ValueError(f"{self.name}: unknown Tags {sorted(unknown)} (known: {', '.join(TAGS)})")
        if self.kind == "elite" and not self.resilience:
            raise ValueError(f"{self.name}: an Elite needs a Resilience Tracker")
        if self.kind == "minion" and self.resilience:
            raise ValueError(f"{self.name}: a Minion has no Resilience Tracker")
        if not 0 <= self.exhausted <= len(self.resilience):
            raise ValueError(f"{self.name}: {self.exhausted} exhausted levels of a {len(self.resilience)}-level tracker")

    @property
    def current_shield_value(self) -> int:
        """The Shield Value Damage is counted against: a Minion's, or an Elite's current top Resilience level."""
        if self.kind == "elite":
            return self.resilience[self.exhausted] if self.exhausted < len(self.resilience) else 0
        return self.shield_value

    @property
    def effective_attack_value(self) -> int:
        """The Attack Value in use: 2 lower with a Biotic Effect token, minimum 0 (Biotic Effects)."""
        if self.biotic_effect:
            return max(0, self.attack_value - BIOTIC_ATTACK_PENALTY)
        return self.attack_value

    @property
    def active(self) -> bool:
        """Active side face-up (not Stunned, not Shrouded)."""
        return not self.stunned and not self.shrouded

    def has_tag(self, tag: str, *, tags_ignored: bool = False) -> bool:
        """Whether the Enemy has ``tag``; ``tags_ignored`` (e.g. Liara's Asari Controller on an Enemy with a Biotic
        Effect token, Squadmate Commentary › Liara T'Soni) makes it count as having no Tags."""
        return not tags_ignored and tag in self.tags


@dataclass(frozen=True)
class EnemyDamageResult:
    """What one Attack's Damage did to an Enemy.

    Attributes:
        enemy: the Enemy afterwards (``None`` if Defeated: a Minion back to the Enemy Bag, an Elite off the board).
        defeated: whether this Damage Defeated it.
        exhausted_level: the 1-based Resilience level exhausted by this Damage, or ``None``.
        discarded: excess Damage disregarded (Elites) or beyond the Shield Value (Minions: nothing to keep).
        react: the React Tag triggers (Damaged, not Defeated): it moves one hex toward the attacker.
    """

    enemy: Enemy | None
    defeated: bool
    exhausted_level: int | None
    discarded: int
    react: bool
    steps: tuple[Step, ...]


def enemy_damage(enemy: Enemy, amount: int, *, by: str = "") -> EnemyDamageResult:
    """``enemy`` suffers ``amount`` Damage from one Attack (Damaging Enemies; Additional Enemy Rules › Elites).

    A Minion is Defeated when its Damage tokens reach its Shield Value (returned to the Enemy Bag). An Elite's Damage
    counts against the top unexhausted Shield Value of its Resilience Tracker: when it reaches it, that level is
    marked, the Attack's excess Damage is disregarded and its Damage tokens are removed; the last level exhausted
    Defeats it (removed from the board). A Stunned or Shrouded Enemy takes Damage like any other. XP is not decided
    here (see :func:`gain_xp`, :func:`defeat_earns_xp`). The React Tag (Damaged, not Defeated) is reported in
    ``react``; moving the Enemy needs the map.

    Raises:
        ValueError: a negative ``amount``.
        RuleViolation: the Enemy is in a Shrouded area (it cannot be targeted: Shrouded Areas).
    """
    if amount < 0:
        raise ValueError("Damage cannot be negative")
    if enemy.shrouded:
        raise RuleViolation(f"{enemy.name} is in a Shrouded area and cannot be targeted", S.SHROUDED_AREAS.section)
    who = f" from {by}" if by else ""
    total = enemy.damage + amount
    sv = enemy.current_shield_value
    steps: list[Step] = []
    if enemy.kind == "minion":
        if total >= sv:
            steps.append(Step(f"{enemy.name} suffers {amount} Damage{who}: {total} >= Shield Value {sv}, Defeated",
                              S.DAMAGING_ENEMIES, "A Defeated Minion is returned to the Enemy Bag.",
                              facts={"enemy": enemy.name, "damage": total, "shield_value": sv, "defeated": True},
                              marks=[enemy.name]))
            return EnemyDamageResult(None, True, None, total - sv, False, tuple(steps))
        new = replace(enemy, damage=total)
        steps.append(Step(f"{enemy.name} suffers {amount} Damage{who}: {total} of Shield Value {sv}",
                          S.DAMAGING_ENEMIES, "Damage tokens stay until the end of the Round.",
                          facts={"enemy": enemy.name, "damage": total, "shield_value": sv, "defeated": False},
                          marks=[enemy.name]))
        react = _react_steps(new, amount, by, steps)
        return EnemyDamageResult(new, False, None, 0, react, tuple(steps))
    level = enemy.exhausted + 1
    levels = len(enemy.resilience)
    if total < sv:
        new = replace(enemy, damage=total)
        steps.append(Step(f"{enemy.name} suffers {amount} Damage{who}: {total} of {sv} on Resilience level "
                           f"{level}/{levels}", S.ELITES, facts={"enemy": enemy.name, "damage": total,
                          "shield_value": sv, "level": level, "exhausted": enemy.exhausted, "defeated": False},
                          marks=[enemy.name]))
        react = _react_steps(new, amount, by, steps)
        return EnemyDamageResult(new, False, None, 0, react, tuple(steps))
    excess = total - sv
    new = replace(enemy, damage=0, exhausted=enemy.exhausted + 1)
    remaining = list(enemy.resilience[new.exhausted:])
    defeated = new.exhausted == levels
    tail = ("the last level: Defeated, removed from the board" if defeated
            else f"next level Shield Value {remaining[0]}")
    sum_text = f"{enemy.damage} + {amount} = {total}" if enemy.damage else f"{total}"
    steps.append(Step(f"{enemy.name} suffers {amount} Damage{who}: {sum_text} reaches {sv}, Resilience level {level}/"
                       f"{levels} exhausted, {excess} excess disregarded; {tail}", S.ELITES,
                      "The level's progress box is marked and its Damage tokens are removed; excess Damage from "
                       "that Attack is disregarded.", facts={"enemy": enemy.name, "damage": 0, "shield_value": sv,
                      "level": level, "exhausted": new.exhausted, "discarded": excess, "remaining": remaining,
                      "defeated": defeated}, marks=[enemy.name]))
    if defeated:
        return EnemyDamageResult(None, True, level, excess, False, tuple(steps))
    react = _react_steps(new, amount, by, steps)
    return EnemyDamageResult(new, False, level, excess, react, tuple(steps))


def enemy_damage_happenings(before: Enemy, res: EnemyDamageResult, amount: int, by: str = "") -> tuple:
    """What :func:`enemy_damage` did, as one typed record (:class:`.results.MinionDamaged` or
    :class:`.results.EliteDamaged`)."""
    from .results import EliteDamaged, MinionDamaged

    if before.kind == "minion":
        return (MinionDamaged(before.name, amount, by, res.defeated),)
    total, sv = before.damage + amount, before.current_shield_value
    level = before.exhausted + 1
    if total < sv:
        return (EliteDamaged(before.name, amount, by, level, total, sv, False),)
    return (EliteDamaged(before.name, amount, by, level, 0, sv, True, total - sv, res.defeated),)


def _react_steps(enemy: Enemy, amount: int, by: str, steps: list[Step]) -> bool:
    if amount <= 0 or not enemy.has_tag("React"):
        return False
    toward = by or "the attacker"
    steps.append(Step(f"{enemy.name} (React Tag) was Damaged but not Defeated: it moves one hex toward {toward}",
                      S.REACT_TAG, facts={"enemy": enemy.name, "react_toward": by or None}, marks=[enemy.name]))
    return True


def defeat_earns_xp(source: DamageSource, rulings: Rulings) -> bool:
    """Whether a Defeat by Damage from ``source`` earns the Squadmate 1 XP (Damaging Enemies; Earning XP; Elites).

    An Action (Ability Action) always does; Inferno, Turret and other Damage never does (no Squadmate's Action); a
    Core Ability trigger or a Grenade is decided by the ruling option ``xp_outside_actions``.
    """
    if source == "action":
        return True
    if source in ("core_ability", "grenade"):
        reading = rulings.reading("xp_outside_actions")
        return source == "core_ability" and reading in ("core_abilities", "core_abilities_and_grenades") or \
            source == "grenade" and reading == "core_abilities_and_grenades"
    return False


def stun(enemy: Enemy) -> tuple[Enemy, list[Step]]:
    """Stun ``enemy``: flip it Stunned side up (Additional Enemy Rules › Stunning Enemies). A Stunned Enemy keeps its
    Damage tokens and Shield Value, is never Activated and makes no Opportunity Attacks.

    Raises:
        RuleViolation: an Elite (only Minions can be Stunned: Squadmate Commentary › Liara T'Soni, Garrus' Overload),
            or an Enemy in a Shrouded area (cannot be targeted).
    """
    if enemy.kind == "elite":
        raise RuleViolation(f"{enemy.name} is an Elite: only Minions can be Stunned",
                            f"{S.STUNNING_ENEMIES.section}; {S.LIARA_COMMENTARY.section}")
    if enemy.shrouded:
        raise RuleViolation(f"{enemy.name} is in a Shrouded area and cannot be targeted", S.SHROUDED_AREAS.section)
    if enemy.stunned:
        return enemy, [Step(f"{enemy.name} is already Stunned", S.STUNNING_ENEMIES, facts={"enemy": enemy.name,
                            "stunned": True}, marks=[enemy.name])]
    return replace(enemy, stunned=True), [Step(f"{enemy.name} is Stunned: flipped to its Stunned side",
                                               S.STUNNING_ENEMIES, "It cannot make Opportunity Attacks and is never "
                                                "Activated until flipped back in the End Phase.",
                                               facts={"enemy": enemy.name, "stunned": True}, marks=[enemy.name])]


def give_biotic_effect(enemy: Enemy) -> tuple[Enemy, list[Step]]:
    """Place a Biotic Effect token on ``enemy`` (Additional Enemy Rules › Biotic Effects): its Attack Value counts 2
    lower (minimum 0) until the End Phase. An Enemy never has more than one: a second has no effect.

    Raises:
        RuleViolation: an Enemy in a Shrouded area (cannot be targeted).
    """
    if enemy.shrouded:
        raise RuleViolation(f"{enemy.name} is in a Shrouded area and cannot be targeted", S.SHROUDED_AREAS.section)
    if enemy.biotic_effect:
        return enemy, [Step(f"{enemy.name} already has a Biotic Effect token: a second one cannot be placed",
                            S.BIOTIC_EFFECTS, "An Enemy token never has more than one Biotic Effect token.",
                            facts={"enemy": enemy.name, "attack_value": enemy.effective_attack_value},
                            marks=[enemy.name])]
    new = replace(enemy, biotic_effect=True)
    return new, [Step(f"{enemy.name} gets a Biotic Effect token: Attack Value {enemy.attack_value} counts as "
                       f"{new.effective_attack_value}", S.BIOTIC_EFFECTS, "2 lower, to a minimum of 0.",
                      facts={"enemy": enemy.name, "attack_value": new.effective_attack_value}, marks=[enemy.name])]


def enemy_end_phase(enemy: Enemy) -> tuple[Enemy, list[Step]]:
    """End Phase for one Enemy: remove its Damage and Biotic Effect tokens; flip it Active if Stunned and not in a
    Shrouded area (Playing a Mission › End Phase; Stunning Enemies). An Elite's marked Resilience levels stay."""
    changes = []
    new = enemy
    if enemy.damage:
        changes.append(f"{plural(enemy.damage, 'Damage token')} removed")
        new = replace(new, damage=0)
    if enemy.biotic_effect:
        changes.append("Biotic Effect token removed")
        new = replace(new, biotic_effect=False)
    if enemy.stunned and not enemy.shrouded:
        changes.append("flipped to its Active side")
        new = replace(new, stunned=False)
    if not changes:
        return enemy, []
    kept = " (stays Stunned side up: Shrouded area)" if enemy.stunned and enemy.shrouded else ""
    return new, [Step(f"{enemy.name}: " + ", ".join(changes) + kept, S.END_PHASE, facts={"enemy": enemy.name,
                      "damage": 0, "biotic_effect": False, "stunned": new.stunned}, marks=[enemy.name])]


def intel_at_mission_end(intel_tokens: int, boxes_marked: int, icon_boxes: Iterable[int],
                         boxes_total: int) -> tuple[int, list[int], list[Step]]:
    """End of a Mission: each Intel Cache token in the Inventory marks the next empty Intel Gathered box on the
    Campaign Map, left to right; each marked box with an icon lets one Squadmate unlock an Ability (Additional Rules ›
    Intel Cache Tokens). The box layout is Campaign Map data the rulebook does not print: pass it in.

    Args:
        intel_tokens: Intel Cache tokens in the Inventory (>= 0).
        boxes_marked: boxes already marked (0..boxes_total).
        icon_boxes: 1-based positions of the boxes that show an icon.
        boxes_total: how many Intel Gathered boxes the map has.

    Returns:
        ``(boxes marked now, positions of newly marked icon boxes, steps)``. Tokens beyond the last box mark nothing.
    """
    icons = set(icon_boxes)
    end = min(boxes_total, boxes_marked + intel_tokens)
    newly = list(range(boxes_marked + 1, end + 1))
    unlocks = [b for b in newly if b in icons]
    icon = f"; icon {'box' if len(unlocks) == 1 else 'boxes'} {join_words(unlocks)}: a Squadmate unlocks an Ability " \
        "for each" if unlocks else ""
    steps = [Step(f"{plural(len(newly), 'Intel Gathered box', 'Intel Gathered boxes')} marked "
                   f"({boxes_marked} -> {end}){icon}", S.INTEL_CACHES, "Intel Cache tokens go back to the game box.",
                  facts={"marked": end, "unlocks": unlocks})]
    return end, unlocks, steps
