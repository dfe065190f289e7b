"""TAG Raid roll-exchange scenario: the pydantic v2 schema and its cross-field checks.

A scenario is one Order at its Resolution step (Activating a Miner › Order Expenditure Sequence, step 5): the Active
Miner's second Skill (its attacks, split over one or more targets), the Reactive Miners' AROs and, optionally, the
MegaBeast. Fixed dice may be given for any roll; dice not given are rolled from ``seed``.

Every model forbids unknown fields, so a misspelt field is an error. Use :func:`parse_scenario` (or
:func:`explorer.games.tagraid.scenarios.load_scenario`) rather than the models directly: it runs pydantic through
:func:`explorer.scenario.validate` (errors name the field path and what is allowed) and then the checks pydantic
cannot express (Burst split, dice counts, target names, reserved MOD names).

The full format is documented in ``docs/scenario-format.md``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, ClassVar, Literal

from pydantic import BaseModel, Field

from explorer.errors import ScenarioError, short_repr
from explorer.scenario import toml_key, validate
from explorer.schema import MAX_TITLE as SCHEMA_MAX_TITLE
from explorer.schema import ScenarioHeader, Strict
from explorer.text import plural

from .bursts import active_dice, aro_burst, attack_burst, is_range_mod  # noqa: F401 (their home before)
from .options import ALL_OPTIONS

Face = Field(ge=1, le=20)

# ----------------------------------------------------------------------------------------------------------------------
# limits (documented in docs/limits.md): far above a real table, low enough that any file resolves in milliseconds

MAX_REACTIVE = 100
"""Reactive Miners in one scenario (a TAG Raid table has a handful; the resolver is linear in this number)."""
MAX_MODS = 16
"""Named MODs in one ``mods`` / ``damage_mods`` table."""
MOD_MIN, MOD_MAX = -30, 30
"""Bounds of one MOD (the rulebook's MODs are ±3 and ±6; ±30 moves any Attribute across its whole range)."""
MOD_TOTAL_MIN, MOD_TOTAL_MAX = -30, 30
"""Bounds of the sum of the MODs declared for one roll (the Miner's ``mods`` plus the target's share's ``mods``) and
of one Attack's ``damage_mods``."""
MAX_DICE = 40
"""Fixed faces in one ``dice`` list (the largest Burst: Weapon Burst 20 plus Burst MOD 20)."""
MAX_SAVE_DICE = 400
"""Fixed faces in one ``save_dice`` list (Saving Rolls come from every hit on the Miner; faces beyond those needed
are ignored, faces missing are rolled)."""
MAX_TRAITS = 8
"""Traits listed on one Weapon or Miner."""
MAX_NAME = 80
"""Characters in a name (Miner, Weapon, MOD, target)."""
MAX_TITLE = SCHEMA_MAX_TITLE
"""Characters in a ``title`` (the scenario header's bound, :data:`explorer.schema.MAX_TITLE`)."""
MAX_DESCRIPTION = 10_000
"""Characters in a ``description`` of a TAG Raid file (roll, table, order and round files): TAG Raid's own bound,
above the header's 4,000 (:data:`explorer.schema.MAX_DESCRIPTION`), which its files had before the header was shared;
redeclared on each top so that older files keep opening."""
MAX_RULINGS = 64
"""Entries in a ``[rulings]`` table (each must name a known option anyway)."""
SEED_MIN, SEED_MAX = 0, 2**63 - 1
MAX_MEGABEAST_WOUNDS = 50
"""Positions on the MegaBeast's Wounds Bar (and so Fury Level Tokens on it)."""


class ModBounds(BaseModel):
    """The bounds of MODs, for :func:`field_bounds`: ``value`` (one MOD) and ``total`` (the MODs declared for one
    roll). ``explorer odds`` and the widgets read them from here, like every other bound."""

    value: int = Field(ge=MOD_MIN, le=MOD_MAX)
    total: int = Field(ge=MOD_TOTAL_MIN, le=MOD_TOTAL_MAX)


Name = Annotated[str, Field(min_length=1, max_length=MAX_NAME)]
ModValue = Annotated[int, Field(ge=MOD_MIN, le=MOD_MAX)]
Mods = Annotated[dict[Name, ModValue], Field(max_length=MAX_MODS)]
Dice = Annotated[list[int], Field(max_length=MAX_DICE)]
SaveDice = Annotated[list[int], Field(max_length=MAX_SAVE_DICE)]
Rulings = Annotated[dict[Annotated[str, Field(max_length=MAX_NAME)], Annotated[str, Field(max_length=MAX_NAME)]],
                    Field(max_length=MAX_RULINGS)]
AmmunitionName = Literal["N", "DA", "EXP", "AP"]
WeaponTrait = Literal["Armor = 0"]
ToolTrait = Literal["Ranged Attack -3"]
StateName = Literal["Slowed"]
"""States a Weapon's impacts (or a MegaBeast's Behavior Attack) can cause (States: the rulebook defines Slowed)."""
ActiveSkill = Literal["ranged_attack", "close_combat_attack", "evade", "idle"]
AroSkill = Literal["ranged_attack", "close_combat_attack", "evade", "idle", "none"]

RESERVED_MOD_WORDS = ("cover",)
"""MOD names containing these words are derived by the engine (set ``partial_cover`` on the target instead)."""


class Weapon(Strict):
    """A Weapon card (Skills and Tools › Tools, Ammunition, Traits).

    ``damage``: the Weapon's Damage (0..30); ``burst``: d20s rolled in the Active Turn (0..20);
    ``ammunition``: N, DA, EXP or AP; ``traits``: Weapon Traits (only ``"Armor = 0"`` changes a roll);
    ``states``: States its impacts cause (Traits: "its impacts apply a State"; Damage › Saving Roll: entered even
    when the Saving Roll is passed); ``needs_lof``: the card carries the LoF symbol (default ``true``). An Attack
    without it does not require LoF to its target and, under the ruling ``partial_cover_glyph = lof_symbol`` (the
    default), its targets do not benefit from Partial Cover: no -3 to the roll, no -3 to the Attack Damage (Damage ›
    Partial Cover; Common Skills › Ranged Attack, Requirements).
    """

    name: Name = "Weapon"
    damage: int = Field(ge=0, le=30)
    burst: int = Field(default=1, ge=0, le=20)
    ammunition: AmmunitionName = "N"
    traits: list[WeaponTrait] = Field(default_factory=list, max_length=MAX_TRAITS)
    states: list[StateName] = Field(default_factory=list, max_length=1)
    needs_lof: bool = True


class Neomaterials(Strict):
    """Neomaterial Units a player holds: ``scoring_zone`` (lost by half on the TAG's death) and ``warehouse`` (kept)."""

    scoring_zone: int = Field(default=0, ge=0, le=99)
    warehouse: int = Field(default=0, ge=0, le=99)


class Attack(Strict):
    """The share of the Active Miner's Burst aimed at one target (Common Skills › Ranged / Close Combat Attack).

    ``target``: the name of a Reactive Miner or of the MegaBeast; ``burst``: dice aimed at it (may be omitted when
    there is a single target: the whole Burst); ``mods``: named MODs for this target only (Range, ...);
    ``damage_mods``: named MODs to the Attack Damage; ``dice``: fixed faces, one per die of ``burst``;
    ``out_of_range``: the target is beyond the Weapon's Range (a Ranged Attack then fails automatically; put the
    MOD of a Weapon that may fire Out of Range in ``mods`` instead); ``lof``: the shooter has Line of Fire to this
    target at Resolution (a Ranged Attack requires it: without it for every target the Skill counts as Idle; for some
    targets of a split Burst the ruling ``split_burst_without_lof`` decides: Common Skills › Ranged Attack,
    Requirements; Activating a Miner › Order Expenditure Sequence, step 5).
    """

    target: Name
    burst: int | None = Field(default=None, ge=0, le=MAX_DICE)
    out_of_range: bool = False
    lof: bool = True
    mods: Mods = Field(default_factory=dict)
    damage_mods: Mods = Field(default_factory=dict)
    dice: Dice | None = None


class AtActivation(Strict):
    """Where a Miner stood when the Order was activated (Activating a Miner › Order Expenditure Sequence, step 1),
    before the Active Miner's first Skill (Move) changed anything; the Miner's other fields describe Resolution.

    ``silhouette_contact``: in Silhouette Contact with an enemy Miner at that moment (a Ranged Attack requires not
    being so during the Order Activation step: Common Skills › Ranged Attack, Requirements).
    """

    silhouette_contact: bool = False


class _Miner(Strict):
    name: Name
    attribute: int = Field(default=0, ge=0, le=30)
    mods: Mods = Field(default_factory=dict)
    weapon: Weapon | None = None
    burst_mod: int = Field(default=0, ge=-20, le=20)
    armor: int = Field(default=0, ge=0, le=30)
    wounds: int = Field(default=3, ge=1, le=30)
    partial_cover: bool = False
    traits: list[ToolTrait] = Field(default_factory=list, max_length=MAX_TRAITS)
    enemy_tags_in_contact: int = Field(default=0, ge=0, le=6)
    neomaterials: Neomaterials = Field(default_factory=Neomaterials)
    save_dice: SaveDice | None = None
    at_activation: AtActivation | None = None
    states: list[StateName] = Field(default_factory=list, max_length=1)


class ActiveMiner(_Miner):
    """The Active Miner: its second Skill and how its Burst is split over its targets."""

    skill: ActiveSkill
    attacks: list[Attack] = Field(default_factory=list, max_length=MAX_REACTIVE + 1)
    lof_to_attackers: bool = True
    dice: Dice | None = None


class ReactiveMiner(_Miner):
    """A Reactive Miner and its ARO (``none``: no ARO declared). AROs always target the Active Miner.

    ``burst_mod``: a Tool card or Skill MOD to the ARO's Burst (an ARO has Burst 1 otherwise);
    ``lof_to_active`` / ``same_hexagon``: the situation that grants the ARO and sets the Evade MOD;
    ``silhouette_contact``: this Miner and the Active Miner are in Silhouette Contact (a Close Combat Attack between
    them requires it; a Ranged Attack by either is not allowed with it: Common Skills › Close Combat Attack /
    Ranged Attack, Requirements);
    ``target_not_attacked``: the Active Miner declared an Attack on this Miner, but at Resolution none of it is aimed
    at it (the Attack counts as Idle, e.g. no LoF to a target, or under ``split_burst_without_lof = share_lost`` the
    share aimed at it is lost): the Miner gained its right to an ARO at step 4 as a target, but it is not attacked
    (Activating a Miner › Order Expenditure Sequence, steps 4 and 5).
    """

    skill: AroSkill
    out_of_range: bool = False
    target_not_attacked: bool = False
    lof_to_active: bool = True
    same_hexagon: bool = False
    silhouette_contact: bool = False
    damage_mods: Mods = Field(default_factory=dict)
    dice: Dice | None = None


class BehaviorAttack(Strict):
    """The MegaBeast's Behavior Attack, applied to the Active Miner when the MegaBeast prevails.

    ``hits``: impacts it causes (each forces Saving Rolls by ``ammunition``); ``ranged``: whether it needs LoF
    (then the Active Miner's Partial Cover lowers its Attack Damage).
    """

    name: Name = "Behavior Attack"
    damage: int = Field(ge=0, le=30)
    ammunition: AmmunitionName = "N"
    hits: int = Field(default=1, ge=0, le=10)
    ranged: bool = False
    traits: list[WeaponTrait] = Field(default_factory=list, max_length=MAX_TRAITS)
    states: list[StateName] = Field(default_factory=list, max_length=1)


class MegaBeast(Strict):
    """The MegaBeast (MegaBeast › Wounds, Rage Level, Threat Level, Skills, Attacks, and AROs).

    ``threat_level``: the Threat Level of the Hexagon side where the ARO occurs (its "roll");
    ``wounds``: positions left on its Wounds Bar (Fury Level Tokens included); ``fury_tokens``: which of those
    positions hold a Fury Level Token (1 = the next to be removed); ``hunting_trophy``: T-Bezoar Units in the Hunting
    Trophy (0..3); ``aro``: whether it declared its Behavior ARO (it had LoF to the Active TAG);
    ``silhouette_contact``: the Active Miner is in Silhouette Contact with it (a Close Combat Attack on it requires
    it; the MegaBeast is not an enemy Miner, so it does not forbid a Ranged Attack).
    """

    name: Name = "MegaBeast"
    threat_level: int = Field(ge=0, le=20)
    wounds: int = Field(ge=1, le=MAX_MEGABEAST_WOUNDS)
    fury_tokens: list[int] = Field(default_factory=list, max_length=MAX_MEGABEAST_WOUNDS)
    hunting_trophy: int = Field(default=3, ge=0, le=3)
    aro: bool = True
    silhouette_contact: bool = False
    behavior_attack: BehaviorAttack | None = None


class Scenario(ScenarioHeader):
    """A roll exchange: one Order's Resolution. ``reactive`` is listed in Timeline order. Its ``title`` and
    ``description`` are the scenario header's, the description bounded by TAG Raid's own :data:`MAX_DESCRIPTION`
    (10,000 characters: older files keep opening)."""

    kind: ClassVar[str] = "roll"
    """The scenario kind (:data:`explorer.games.tagraid.game.KINDS`)."""

    title: str = Field(default="Roll exchange", max_length=MAX_TITLE)
    description: str = Field(default="", max_length=MAX_DESCRIPTION)
    seed: int | None = Field(default=None, ge=SEED_MIN, le=SEED_MAX)
    active: ActiveMiner
    reactive: list[ReactiveMiner] = Field(default_factory=list, max_length=MAX_REACTIVE)
    megabeast: MegaBeast | None = None
    rulings: Rulings = Field(default_factory=dict)


def field_bounds(model: type[BaseModel], name: str) -> tuple[int | None, int | None]:
    """``(lowest, highest)`` allowed for the whole-number field ``name`` of ``model`` (``None``: unbounded), read from
    its pydantic constraints: the one set of bounds that the TOML format, ``explorer odds`` and the widgets share.

    Example: ``field_bounds(MegaBeast, "threat_level") == (0, 20)``.

    Raises:
        KeyError: ``model`` has no field ``name``.
    """
    info = model.model_fields[name]
    lo = hi = None
    for m in info.metadata:
        lo = getattr(m, "ge", lo) if getattr(m, "ge", None) is not None else lo
        hi = getattr(m, "le", hi) if getattr(m, "le", None) is not None else hi
    return lo, hi


def check_bounded(value: int, model: type[BaseModel], name: str, option: str, what: str) -> int:
    """``value`` if it is within :func:`field_bounds` of ``model.name``, else a :class:`ScenarioError` naming
    ``option`` and the allowed range (e.g. ``--sv-a``: ``a whole number 0..30 (the Success Value)``)."""
    lo, hi = field_bounds(model, name)
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        rng = f"{lo}..{hi}" if lo is not None and hi is not None else (f">= {lo}" if lo is not None else f"<= {hi}")
        raise ScenarioError(option, f"{short_repr(value)} is out of range", f"a whole number {rng} ({what})")
    return value


# ----------------------------------------------------------------------------------------------------------------------
# cross-field checks


def _err(field: str, problem: str, allowed: Any = None, source: str | None = None) -> ScenarioError:
    return ScenarioError(field, problem, allowed, source)


def is_reserved_mod(name: str) -> bool:
    """Whether a MOD name is one the engine derives (it contains a word of :data:`RESERVED_MOD_WORDS`, e.g.
    "Cover", "Partial cover"): files, ``explorer odds`` and widgets refuse such a name."""
    return any(w in name.lower() for w in RESERVED_MOD_WORDS)


def _check_mods(mods: Mapping[str, int], field: str, source: str | None) -> None:
    for name in mods:
        if is_reserved_mod(name):
            raise _err(f"{field}.{name}", "Partial Cover MODs are derived by the engine, not declared",
                       "set 'partial_cover = true' on the target Miner instead", source)


def check_mod_total(total: int, field: str, what: str, source: str | None = None) -> int:
    """``total`` (the sum of the MODs declared for one roll, or of one Attack's Damage MODs) if it is within
    :func:`field_bounds` ``(ModBounds, "total")``, else a :class:`ScenarioError` naming ``field``."""
    lo, hi = field_bounds(ModBounds, "total")
    if not lo <= total <= hi:  # type: ignore[operator]
        raise _err(field, f"the MODs {what} sum to {short_repr(total)}", f"MODs summing to {lo}..{hi}", source)
    return total


def _check_dice(dice: list[int] | None, need: int, field: str, what: str, source: str | None) -> None:
    if dice is None:
        return
    for i, v in enumerate(dice):
        if not 1 <= v <= 20:
            raise _err(f"{field}[{i}]", f"{v} is not a d20 face", "whole numbers 1 to 20", source)
    if len(dice) != need:
        raise _err(field, f"{plural(len(dice), 'die')} given but {what} rolls {need}", f"exactly {plural(need, 'die')}", source)


def check_scenario(sc: Scenario, source: str | None = None) -> Scenario:
    """Checks pydantic cannot express; raises :class:`ScenarioError` naming the field and what is allowed."""
    names = [sc.active.name] + [r.name for r in sc.reactive] + ([sc.megabeast.name] if sc.megabeast else [])
    first_use: dict[str, int] = {}
    for i, n in enumerate(names):
        if first_use.setdefault(n, i) != i:
            raise _err("reactive" if sc.megabeast is None or n != sc.megabeast.name else "megabeast.name",
                       f"the name {short_repr(n)} is used twice", "a different name for every Miner and the MegaBeast",
                       source)
    targets = [r.name for r in sc.reactive] + ([sc.megabeast.name] if sc.megabeast else [])
    target_set = set(targets)
    a = sc.active
    attacking = a.skill in ("ranged_attack", "close_combat_attack")
    _check_mods(a.mods, "active.mods", source)
    check_mod_total(sum(a.mods.values()), "active.mods", "declared for the Active Miner's roll", source)
    if attacking:
        if a.weapon is None:
            raise _err("active.weapon", f"a {a.skill.replace('_', ' ')} needs a Weapon",
                       "a [active.weapon] table with damage, burst, ammunition", source)
        if not a.attacks:
            raise _err("active.attacks", "an attack needs at least one target",
                       "one [[active.attacks]] table per target", source)
        total = attack_burst(a)
        seen: set[str] = set()
        for i, at in enumerate(a.attacks):
            f = f"active.attacks[{i}]"
            if at.target not in target_set:
                raise _err(f"{f}.target", f"unknown target {short_repr(at.target)}",
                           targets or "a Reactive Miner's name", source)
            if at.target in seen:
                raise _err(f"{f}.target", f"{short_repr(at.target)} is targeted twice", "each target once", source)
            seen.add(at.target)
            _check_mods(at.mods, f"{f}.mods", source)
            check_mod_total(sum(a.mods.values()) + sum(at.mods.values()), f"{f}.mods",
                            f"declared for the roll against {short_repr(at.target)} (active.mods included)", source)
            check_mod_total(sum(at.damage_mods.values()), f"{f}.damage_mods", "to this Attack's Damage", source)
            if at.burst is None:
                if len(a.attacks) > 1:
                    raise _err(f"{f}.burst", "with several targets each one needs its share of the Burst",
                               f"whole numbers summing to {total}", source)
                at.burst = total
        split = sum(at.burst or 0 for at in a.attacks)
        if split != total:
            shares = " + ".join(str(at.burst) for at in a.attacks)
            raise _err("active.attacks", f"the Burst split {shares} = {split} does not match the Burst {total} "
                       f"(Weapon {a.weapon.burst}{a.burst_mod:+d} MOD)" if a.burst_mod else
                       f"the Burst split {shares} = {split} does not match the Weapon's Burst {total}",
                       f"shares summing to {total}", source)
        for i, at in enumerate(a.attacks):
            if at.out_of_range and a.skill == "ranged_attack":
                continue
            _check_dice(at.dice, at.burst or 0, f"active.attacks[{i}].dice", f"the share aimed at {at.target!r}",
                        source)
        if a.dice is not None:
            raise _err("active.dice", "attack dice are given per target",
                       "active.attacks[i].dice (active.dice is only for Evade)", source)
    else:
        if a.attacks:
            raise _err("active.attacks", f"{short_repr(a.skill)} attacks nobody",
                       "no [[active.attacks]] unless the skill is "
                       "'ranged_attack' or 'close_combat_attack'", source)
        _check_dice(a.dice, 1 if a.skill == "evade" else 0, "active.dice", f"{a.skill.title()}", source)
    _check_dice(a.save_dice, len(a.save_dice or []), "active.save_dice", "", source)
    for i, r in enumerate(sc.reactive):
        f = f"reactive[{i}]"
        _check_mods(r.mods, f"{f}.mods", source)
        check_mod_total(sum(r.mods.values()), f"{f}.mods", f"declared for {short_repr(r.name)}'s roll", source)
        check_mod_total(sum(r.damage_mods.values()), f"{f}.damage_mods", "to this Attack's Damage", source)
        if r.skill in ("ranged_attack", "close_combat_attack") and r.weapon is None:
            raise _err(f"{f}.weapon", f"a {r.skill.replace('_', ' ')} ARO needs a Weapon",
                       "a weapon table with damage and ammunition", source)
        if not (r.out_of_range and r.skill == "ranged_attack"):
            _check_dice(r.dice, aro_burst(r), f"{f}.dice", f"its {r.skill} ARO", source)
        _check_dice(r.save_dice, len(r.save_dice or []), f"{f}.save_dice", "", source)
    if sc.megabeast:
        for i, p in enumerate(sc.megabeast.fury_tokens):
            if not 1 <= p <= sc.megabeast.wounds:
                raise _err(f"megabeast.fury_tokens[{i}]", f"position {p} is not on the Wounds Bar",
                           f"1 to {sc.megabeast.wounds}", source)
    known = {o.key: o for o in ALL_OPTIONS}
    for k, v in sc.rulings.items():
        if k not in known:
            raise _err(f"rulings.{toml_key(k)}", "unknown ruling option", sorted(known), source)
        if v not in known[k].readings:
            raise _err(f"rulings.{toml_key(k)}", f"unknown reading {short_repr(v)}", list(known[k].readings), source)
    return sc


def parse_scenario(data: Mapping[str, Any], source: str | None = None) -> Scenario:
    """Validate a scenario document (a dict, e.g. parsed TOML).

    Returns:
        the validated :class:`Scenario` (single-target attacks get their ``burst`` filled in).
    Raises:
        ScenarioError: naming the field path (``active.attacks[1].burst``), the problem and the allowed values.
    """
    return check_scenario(validate(Scenario, data, source), source)
