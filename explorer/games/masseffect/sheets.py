"""Squadmate Sheets as data: the Core Ability, the Basic Action Spaces and the Ability Boxes of each Squadmate.

Sections: Squadmate Sheets; Playing a Mission › Squadmate Phase › Action Spaces, Basic Actions, Ability Actions
(Enhanced Actions); Additional Rules › Unlocking Abilities; Squadmate Commentary.

The rulebook describes the sheets but prints none, so the engine ships a **stand-in**:
``explorer/games/masseffect/sheets/standin.toml`` (Ability names from the Squadmate Commentary, every number our
invention; the file says so at its top). A round file may name another sheet file (``sheets = "path.toml"``) with the
same shape::

    [basic]                     # Action Spaces of the Basic Actions, common to every sheet
    move = ["move", "move"]     # each entry one Action Space: "move", "standard" or "enhanced"
    mission = ["standard"]
    revive = ["standard"]

    [[sheets]]
    name = "Garrus"             # the Squadmate
    core_ability = "Aim"
    max_shield_points = 3       # 0..20
    max_hit_points = 5          # 1..20
    revived_hit_points = 2      # the back of the sheet: Hit Points when Revived (1..20; default 2, a stand-in)
    revived_shield_points = 0   # ... and Shield Points when Revived (0..20; default 0, a stand-in)
    analysis_track = 4          # Liara's Analysis track: spaces the token can move right (0..10; 0: no track)
    analysis_cost = 2           # spaces the token goes back when Analysis is used (0..track); both a stand-in
    downed_locks = 3            # Strategy dice Locked on the Downed sheet, off the Pool each Preparation Phase while
                                # Downed (0..4; default 3, a stand-in: the Squadmate's own three dice)
    # What each Core Ability trigger does (Core Abilities: "as explained on the Squadmate Sheet"; all a stand-in,
    # 0 = the trigger is only counted):
    command_tokens = 3          # Shepard's Command: a trigger flips one Command token Ready (0..3, Components: 3)
    command_damage = 1          # ... and a Ready token another Squadmate spends adds this Damage (0..5)
    aim_track = 5               # Garrus' Aim: a trigger moves the Aim Tracker one space right (0..10)
    drone_move = 2              # Tali's Combat Drone: a trigger moves Chatika up to this many hexes (0..6) ...
    drone_damage = 1            # ... then it Damages one Enemy in or adjacent to its hex (0..5) or hacks a Turret
    rage_tokens = 3             # Wrex's Blood Rage: a trigger flips one Calm Rage token Enraged (0..5, Components: 5)
    rage_damage = 1             # ... and each Enemy adjacent to Wrex suffers this Damage (0..5)
    [[sheets.boxes]]            # Ability Boxes, at most 8
    name = "Concussive Shot"
    spaces = ["standard", "enhanced"]   # 1..4 Action Spaces ([] : a Special Rule box, e.g. move_shield)
    unlocked = true             # false: a Locked Ability (cannot be used until unlocked)
    damage = [1, 3]             # Damage to one Enemy: [standard, enhanced] (0..10 each)
    stun = false                # Stun one Minion (Elites cannot be Stunned)
    biotic_effect = false       # a Biotic Effect token on one Enemy
    range = 3                   # the target within this many hexes (Counting Distances); omitted: any distance
    line_of_fire = true         # the target must be in Line of Fire
    enhanced_min_distance = 3   # the Enhanced effect only against a target this far or further (Garrus' commentary)
    requires = []               # an Advanced Ability: the Abilities (one or two) that must be unlocked first
    loyalty = false             # a Loyalty Ability: unlocked only by completing the Squadmate's Loyalty Mission
    disable_turret = false      # the Action Disables one Active Turret (the action's ``turret`` hex) within range
    move_shield = 0             # a Special Rule (spaces = []): Shield Points regained each time the Squadmate
                                # completes a Move Action (Shepard's Barrier, Squadmate Commentary; 0..5)
    # Squadmate Commentary rules (each one's number a stand-in unless the commentary gives it):
    regain_shield = 0           # the Squadmate regains this many Shield Points after the Damage (Tali's Energy
                                # Drain; at full Shield Points the Damage is still dealt, the regain ignored; 0..5)
    biotic_target = "any"       # "no_effect": the Ability has no effect on an Enemy with a Biotic Effect token
                                # (Shepard's Warp); "any": it is used, only no second token (Wrex's Lift Grenade)
    move_points = 2             # an Ability that moves the Squadmate (1..6 Movement Points, e.g. Shepard's
                                # Adrenaline Rush; "die": as many as the die allocated gives, Garrus' Turian Rebel):
                                # not a Move Action, so Barrier does not trigger (the action's path = the route)
    mines = 3                   # Proximity Mine tokens (Garrus; Components: three): the Action spends one
    sabotage_turret = 0         # Damage a Turret (Active or Disabled: it gains a Line of Fire for this) deals to each
                                # Enemy in its Line of Fire (Tali's Sabotage Turret; the action's turret hex; 0..5)
    calibrate = []              # a Special Rule (spaces = []): the Abilities an action's calibrate = true adds Damage
                                # to by the Aim Value (2-3: +1, 4+: +2; once per turn; Garrus' Calibrate)
    rage_bonus = 0              # a Special Rule (spaces = []): an action's battlemaster = true flips one Enraged Rage
                                # token Calm for this much more Damage (refused when all are Calm; once per Action;
                                # Wrex's Krogan Battlemaster; 0..5)
    asari_controller = false    # a Special Rule (spaces = []): once unlocked, Enemies with a Biotic Effect token count
                                # as having no Tags (Liara's Asari Controller)
    ranged_only = false         # the target must have the Ranged Tag, even one whose Tags Asari Controller makes count
                                # as none (Tali's Sabotage Enemy)
    repeats = "Shotgun Blast"   # the Action resolves that Damage box of the same sheet twice, the second time for the
                                # same Damage as the first (Wrex's Shoot It 46 More Times; ruling shoot_it_46)
    former_names = ["Shotgun"]  # names the box had in older sheet files (at most 4): a round file (or a repeats,
                                # requires, calibrate) naming one still finds this box, and plays it under its name
    closer_shield = 0           # a Special Rule (spaces = []): each time an Enemy ends its move closer to the Squadmate
                                # than at its start (Counting Distances), it regains this many Shield Points (Wrex's
                                # What Krogan Do Best; which moves count: ruling krogan_moves; 0..5)
    intuition = 0               # a Special Rule (spaces = []): when an Enemy targets any Squadmate, that Attack deals
                                # this much less Damage, once per Round (Liara's Shadow Broker Intuition; a turn's
                                # intuition = "Enemy" uses it; which Attacks: ruling intuition_attacks; 0..5)

Action Space kinds (Action Spaces): a ``move`` space takes any die showing a Move icon, a ``standard`` space a
Standard or Enhanced Action die, an ``enhanced`` space only an Enhanced Action die.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field, field_validator

from explorer.errors import ScenarioError
from explorer.scenario import read_toml, validate
from explorer.schema import Strict

SpaceKind = Literal["move", "standard", "enhanced"]
DieFace = Literal["move_2", "move_3", "standard", "enhanced", "move_2_or_standard"]
"""The Strategy die icons a player allocates (Strategy Die Icons; the Core Ability icon is never allocated)."""

FACES_FOR: dict[str, frozenset[str]] = {
    "move": frozenset({"move_2", "move_3", "move_2_or_standard"}),
    "standard": frozenset({"standard", "enhanced", "move_2_or_standard"}),
    "enhanced": frozenset({"enhanced"}),
}
"""Action Spaces: the die faces each kind of Action Space accepts (the dual Move (2) / Standard face fits both)."""

MOVEMENT_POINTS: dict[str, int] = {"move_2": 2, "move_3": 3, "move_2_or_standard": 2}
"""Basic Actions › Move: the Movement Points of each Move die face."""

DOWNED_LOCKS_STANDIN = 3
"""A STAND-IN default: the Strategy dice a Downed Squadmate's sheet Locks (Preparation Phase: "Dice that are Locked by a
Downed Squadmate ... reduce the size of the Pool"; Squadmate Sheets › Downed Squadmates: the number is on the back of
the sheet, which the rulebook does not print). 3: the dice the Squadmate would have taken on its own turn (twelve
dice, four Squadmates, three each), so the others' share of the Pool stays what it was. Edit per sheet
(``downed_locks``)."""
DOWNED_LOCKS_MAX = 4
"""At most 4 per sheet: three Downed Squadmates (Shepard Downed ends the Mission) Lock at most the twelve dice."""

STANDIN = "standin"
PROXIMITY_MINES = 3
"""Components: three Proximity Mine tokens (Garrus'; Squadmate Commentary › Garrus Vakarian › Proximity Mines: take
the three when the Ability is unlocked, replenished at the start of each Mission)."""
CALIBRATE_BONUS: tuple[tuple[int, int], ...] = ((4, 2), (2, 1))
"""Squadmate Commentary › Garrus Vakarian › Calibrate (the book's numbers): Aim Value 4 or more: 2 more Damage; 2 or
3: 1 more; below 2: none. ``(least Aim Value, bonus)``, highest first."""
COMMAND_TOKENS = 3
"""Components: three Command tokens (Shepard's; Squadmate Commentary › Commander Shepard › Command Tokens)."""
RAGE_TOKENS = 5
"""Components: five Rage tokens (Wrex's; Squadmate Commentary › Urdnot Wrex › Rage Tokens)."""
"""The built-in stand-in sheet file (``sheets/standin.toml``)."""


class BoxSpec(Strict):
    name: str = Field(min_length=1, max_length=40)
    spaces: list[SpaceKind] = Field(default_factory=list, max_length=4)
    unlocked: bool = True
    damage: list[int] = Field(default_factory=list, max_length=2)
    stun: bool = False
    biotic_effect: bool = False
    range: int | None = Field(default=None, ge=0, le=30)
    line_of_fire: bool = False
    enhanced_min_distance: int | None = Field(default=None, ge=1, le=30)
    requires: list[str] = Field(default_factory=list, max_length=2)
    loyalty: bool = False
    disable_turret: bool = False
    move_shield: int = Field(default=0, ge=0, le=5)
    regain_shield: int = Field(default=0, ge=0, le=5)
    biotic_target: Literal["any", "no_effect"] = "any"
    move_points: int | Literal["die"] | None = None
    mines: int = Field(default=0, ge=0, le=PROXIMITY_MINES)
    sabotage_turret: int = Field(default=0, ge=0, le=5)
    calibrate: list[str] = Field(default_factory=list, max_length=4)
    rage_bonus: int = Field(default=0, ge=0, le=5)
    asari_controller: bool = False
    ranged_only: bool = False
    repeats: str | None = Field(default=None, min_length=1, max_length=40)
    closer_shield: int = Field(default=0, ge=0, le=5)
    intuition: int = Field(default=0, ge=0, le=5)
    former_names: list[Annotated[str, Field(min_length=1, max_length=40)]] = Field(default_factory=list, max_length=4)

    @field_validator("move_points")
    @classmethod
    def _points(cls, v):
        if isinstance(v, int) and not 1 <= v <= 6:
            raise ValueError("move_points is 1..6 or \"die\"")
        return v


class SheetSpec(Strict):
    name: str = Field(min_length=1, max_length=40)
    core_ability: str = Field(min_length=1, max_length=40)
    max_shield_points: int = Field(ge=0, le=20)
    max_hit_points: int = Field(ge=1, le=20)
    revived_hit_points: int = Field(default=2, ge=1, le=20)
    revived_shield_points: int = Field(default=0, ge=0, le=20)
    downed_locks: int = Field(default=DOWNED_LOCKS_STANDIN, ge=0, le=DOWNED_LOCKS_MAX)
    analysis_track: int = Field(default=0, ge=0, le=10)
    analysis_cost: int = Field(default=0, ge=0, le=10)
    command_tokens: int = Field(default=0, ge=0, le=COMMAND_TOKENS)
    command_damage: int = Field(default=0, ge=0, le=5)
    aim_track: int = Field(default=0, ge=0, le=10)
    drone_move: int = Field(default=0, ge=0, le=6)
    drone_damage: int = Field(default=0, ge=0, le=5)
    rage_tokens: int = Field(default=0, ge=0, le=RAGE_TOKENS)
    rage_damage: int = Field(default=0, ge=0, le=5)
    boxes: list[BoxSpec] = Field(default_factory=list, max_length=12)   # the stand-in Liara has 9


class BasicSpec(Strict):
    move: list[SpaceKind] = Field(min_length=1, max_length=4)
    mission: list[SpaceKind] = Field(default_factory=list, max_length=4)
    revive: list[SpaceKind] = Field(default_factory=list, max_length=4)


class SheetFile(Strict):
    basic: BasicSpec
    sheets: list[SheetSpec] = Field(min_length=1, max_length=10)


@dataclass(frozen=True)
class AbilityBox:
    """An Ability Box (or a Basic Action): its Action Spaces' kinds, whether it is unlocked, and its effect on one
    target Enemy (``damage`` = (standard, enhanced); ``stun``; ``biotic_effect``; ``range`` in hexes;
    ``line_of_fire``; ``enhanced_min_distance``; ``disable_turret``: Disables a Turret instead; ``move_shield``: a
    Special Rule box, no Action Space: Shield Points regained on completing a Move Action). ``basic``: a Basic
    Action (Move, Mission, Revive). ``requires``: the Abilities an Advanced Ability needs unlocked first (Advanced
    Abilities and Loyalty Abilities: one, or two for three of Shepard's); ``loyalty``: a Loyalty Ability."""

    name: str
    spaces: tuple[str, ...]
    unlocked: bool = True
    damage: tuple[int, ...] = ()
    stun: bool = False
    biotic_effect: bool = False
    range: int | None = None
    line_of_fire: bool = False
    enhanced_min_distance: int | None = None
    basic: bool = False
    requires: tuple[str, ...] = ()
    loyalty: bool = False
    disable_turret: bool = False
    move_shield: int = 0
    regain_shield: int = 0
    biotic_target: str = "any"
    move_points: int | str | None = None
    mines: int = 0
    sabotage_turret: int = 0
    calibrate: tuple[str, ...] = ()
    rage_bonus: int = 0
    asari_controller: bool = False
    ranged_only: bool = False
    repeats: str | None = None
    closer_shield: int = 0
    intuition: int = 0
    former_names: tuple[str, ...] = ()

    def named(self, name: str) -> bool:
        """``name`` (any case) is this box's name or one of its :attr:`former_names` (an older sheet file's)."""
        n = name.lower()
        return n == self.name.lower() or any(n == f.lower() for f in self.former_names)

    @property
    def has_effect(self) -> bool:
        return bool(self.damage) or self.stun or self.biotic_effect

    @property
    def special_rule(self) -> bool:
        """A Special Rule box the engine plays (no Action Space): Barrier's ``move_shield``, Calibrate's
        ``calibrate``, Krogan Battlemaster's ``rage_bonus``, Asari Controller's ``asari_controller``, What Krogan Do
        Best's ``closer_shield``, Shadow Broker Intuition's ``intuition``."""
        return bool(self.move_shield or self.calibrate or self.rage_bonus or self.asari_controller
                    or self.closer_shield or self.intuition)


@dataclass(frozen=True)
class Sheet:
    """One Squadmate Sheet: ``boxes`` holds the Basic Actions (``Move``, ``Mission``, ``Revive``) then the Ability
    Boxes, by name; ``revived_hit_points`` / ``revived_shield_points``: what the back of the sheet gives back when
    the Squadmate is Revived (Basic Actions › Revive; the rulebook does not print the backs: a stand-in number);
    ``downed_locks``: the Strategy dice the Downed sheet Locks, off the Pool (Preparation Phase; a stand-in, see
    :data:`DOWNED_LOCKS_STANDIN`); ``analysis_track`` / ``analysis_cost``: Liara's Analysis track (spaces) and the
    spaces its token goes back when she uses Analysis (Squadmate Commentary › Analysis; printed on the sheet, a
    stand-in here; 0: no track). The Core Ability triggers of the others (Core Abilities: each icon rolled triggers it
    "as explained on the Squadmate Sheet", not printed in the rulebook; every number a stand-in, 0: only counted):
    ``command_tokens`` / ``command_damage`` (Shepard's Command: a trigger readies a Command token, spent by another
    Squadmate for that much more Damage), ``aim_track`` (Garrus' Aim: a trigger moves the Aim Tracker one space
    right), ``drone_move`` / ``drone_damage`` (Tali's Combat Drone: Chatika moves up to that many hexes, then Damages
    an Enemy or hacks a Turret by it), ``rage_tokens`` / ``rage_damage`` (Wrex's Blood Rage: a Calm Rage token flips
    Enraged and each Enemy adjacent to Wrex suffers that Damage)."""

    name: str
    core_ability: str
    max_shield_points: int
    max_hit_points: int
    boxes: tuple[AbilityBox, ...]
    revived_hit_points: int = 2
    revived_shield_points: int = 0
    downed_locks: int = DOWNED_LOCKS_STANDIN
    analysis_track: int = 0
    analysis_cost: int = 0
    command_tokens: int = 0
    command_damage: int = 0
    aim_track: int = 0
    drone_move: int = 0
    drone_damage: int = 0
    rage_tokens: int = 0
    rage_damage: int = 0

    @property
    def core_effect(self) -> bool:
        """The sheet gives its Core Ability trigger an effect the engine plays (else each trigger is only counted)."""
        return bool(self.analysis_track or self.command_tokens or self.aim_track or self.drone_move
                    or self.rage_tokens)

    def box(self, name: str) -> AbilityBox | None:
        """The box called ``name`` (any case), or once called so (its ``former_names``); ``None`` if none."""
        return (next((b for b in self.boxes if b.name.lower() == name.lower()), None)
                or next((b for b in self.boxes if b.named(name)), None))

    def canonical(self, name: str) -> str:
        """``name`` as the sheet spells it now: a former name (``former_names``) gives the box's name; any other
        name (a box's, in any case, or none of the sheet's) comes back unchanged."""
        b = self.box(name)
        return b.name if b is not None and b.name.lower() != name.lower() else name


def _build(sc: SheetFile, source: str) -> dict[str, Sheet]:
    basic = (AbilityBox("Move", tuple(sc.basic.move), basic=True),
             AbilityBox("Mission", tuple(sc.basic.mission), basic=True),
             AbilityBox("Revive", tuple(sc.basic.revive), basic=True))
    out: dict[str, Sheet] = {}
    for i, s in enumerate(sc.sheets):
        if s.name in out:
            raise ScenarioError(f"sheets[{i}].name", f"{s.name!r} has two sheets", "one sheet per Squadmate", source)
        names = {"move", "mission", "revive"}
        boxes = []
        for j, b in enumerate(s.boxes):
            if b.name.lower() in names:
                raise ScenarioError(f"sheets[{i}].boxes[{j}].name", f"{b.name!r} is used twice on {s.name}'s sheet",
                                    "a name no Basic Action or other box has", source)
            names.add(b.name.lower())
            for k, old in enumerate(b.former_names):
                if old.lower() in names or any(old.lower() == x.name.lower() for x in s.boxes):
                    raise ScenarioError(f"sheets[{i}].boxes[{j}].former_names[{k}]", f"{old!r} is already a name on "
                                        f"{s.name}'s sheet", "a name no Basic Action or box has, nor had", source)
                names.add(old.lower())
            if b.damage and len(b.damage) != 2:
                raise ScenarioError(f"sheets[{i}].boxes[{j}].damage", "give [standard, enhanced] Damage",
                                    "two numbers 0..10", source)
            if any(not 0 <= d <= 10 for d in b.damage):
                raise ScenarioError(f"sheets[{i}].boxes[{j}].damage", f"{b.damage} out of range", "0..10", source)
            boxes.append(AbilityBox(b.name, tuple(b.spaces), b.unlocked, tuple(b.damage), b.stun, b.biotic_effect,
                                    b.range, b.line_of_fire, b.enhanced_min_distance, requires=tuple(b.requires),
                                    loyalty=b.loyalty, disable_turret=b.disable_turret, move_shield=b.move_shield,
                                    regain_shield=b.regain_shield, biotic_target=b.biotic_target,
                                    move_points=b.move_points, mines=b.mines, sabotage_turret=b.sabotage_turret,
                                    calibrate=tuple(b.calibrate), rage_bonus=b.rage_bonus,
                                    asari_controller=b.asari_controller, ranged_only=b.ranged_only,
                                    repeats=b.repeats, closer_shield=b.closer_shield, intuition=b.intuition,
                                    former_names=tuple(b.former_names)))
            if not b.spaces and not boxes[-1].special_rule:
                raise ScenarioError(f"sheets[{i}].boxes[{j}].spaces", f"{b.name!r} has no Action Space and no Special "
                                    "Rule the engine knows", "1..4 Action Spaces, or move_shield, calibrate, "
                                    "rage_bonus, asari_controller, closer_shield or intuition (a Special Rule)", source)
            if b.spaces and boxes[-1].special_rule:
                raise ScenarioError(f"sheets[{i}].boxes[{j}].spaces", f"{b.name!r} is a Special Rule box (move_shield, "
                                    "calibrate, rage_bonus, asari_controller, closer_shield or intuition): it has no "
                                    "Action Space", "[]", source)
        ability_names = {b.name.lower(): b.name for b in s.boxes}
        canon = {**{o.lower(): b.name for b in s.boxes for o in b.former_names}, **ability_names}
        for j, b in enumerate(s.boxes):
            for k, c in enumerate(b.calibrate):
                if c.lower() not in canon or canon[c.lower()] == b.name:
                    raise ScenarioError(f"sheets[{i}].boxes[{j}].calibrate[{k}]", f"{c!r} is not another Ability Box "
                                        f"of {s.name}'s sheet", sorted(set(ability_names.values()) - {b.name}), source)
            if b.repeats is not None:
                rep = next((x for x in s.boxes if x.name == canon.get(b.repeats.lower())), None)
                if rep is None or rep is b or not rep.damage or rep.repeats:
                    raise ScenarioError(f"sheets[{i}].boxes[{j}].repeats", f"{b.repeats!r} is not another Ability Box "
                                        f"of {s.name}'s sheet that deals Damage", sorted(
                                            x.name for x in s.boxes if x.damage and x is not b and not x.repeats),
                                        source)
            for k, r in enumerate(b.requires):
                if r.lower() not in canon or canon[r.lower()] == b.name:
                    raise ScenarioError(f"sheets[{i}].boxes[{j}].requires[{k}]", f"{r!r} is not another Ability Box "
                                        f"of {s.name}'s sheet", sorted(set(ability_names.values()) - {b.name}), source)
        # a reference by a former name plays as the box's name now
        boxes = [replace(x, calibrate=tuple(canon[c.lower()] for c in x.calibrate),
                         requires=tuple(canon[r.lower()] for r in x.requires),
                         repeats=None if x.repeats is None else canon[x.repeats.lower()]) for x in boxes]
        out[s.name] = Sheet(s.name, s.core_ability, s.max_shield_points, s.max_hit_points, basic + tuple(boxes),
                            s.revived_hit_points, s.revived_shield_points, s.downed_locks, s.analysis_track,
                            s.analysis_cost, s.command_tokens, s.command_damage, s.aim_track, s.drone_move,
                            s.drone_damage, s.rage_tokens, s.rage_damage)
        if s.analysis_cost > s.analysis_track:
            raise ScenarioError(f"sheets[{i}].analysis_cost", f"{s.analysis_cost} spaces on a track of "
                                f"{s.analysis_track}", f"0 to {s.analysis_track}", source)
    return out


def parse_sheets(data: Mapping, source: str) -> dict[str, Sheet]:
    """Validate a sheet file (parsed TOML): ``{Squadmate name: Sheet}``.

    Raises:
        ScenarioError: one line naming the file, the field and what is allowed.
    """
    return _build(validate(SheetFile, data, source), source)


@lru_cache(maxsize=8)
def _load(path: str) -> dict[str, Sheet]:
    return parse_sheets(read_toml(Path(path)), path)


def load_sheets(name: str = STANDIN, source: str | None = None) -> dict[str, Sheet]:
    """The sheets of ``name``: ``"standin"`` (the built-in stand-in) or a path to a sheet file.

    Raises:
        ScenarioError: no such file (field ``sheets``), or the file's own errors.
    """
    if name == STANDIN:
        return _load(str(resources.files("explorer.games.masseffect") / "sheets" / "standin.toml"))
    p = Path(name)
    if not p.is_file():
        raise ScenarioError("sheets", f"no sheet file {name!r}", f"{STANDIN!r} or the path of a sheet file", source)
    return _load(str(p.resolve()))
