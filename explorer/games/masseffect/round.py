"""Scenario kind ``round``: one whole Round of a Mission, phase by phase (Playing a Mission › Sequence of Play).

Sections: Preparation Phase (a Hazard card per Squadmate, none for the Downed; the Strategy Pool); Squadmate Phase
(each Squadmate's turn in On Point order, clockwise: Step A, Step B: Actions on the sheet's Action Spaces, Step C:
the Hazard card with every Enemy's Activation); End Phase (Shields recovered, Enemies' tokens removed, the On Point
token passed). Squadmate Sheets come from a sheet file (:mod:`.sheets`; the built-in one is a documented stand-in).

The kernel plays :data:`ROUND_SEQUENCE` over a frozen :class:`RoundState` with a :class:`RoundContext`:
:func:`start_of_round` (Inferno Icons), :func:`preparation_phase`, one frame per turn (:func:`squadmate_turn`),
:func:`round_end_phase` and :func:`ending_a_mission`; :func:`play_round` then splits each turn's frame at every Step A,
Action, Opportunity Attack and Hazard card task (:func:`split_turn_frames`: the step-through's frames). A declaration
the rules refuse (a Move past its Movement Points, an Action Space used twice, a die on a space that does not take
it, an Ability not unlocked, a target out of range) is a "Not allowed" step citing the rule and naming the field
(``turns[i].actions[j]...``); the Round stops there (:attr:`RoundState.rejected`).

File shape (after the shared header ``game = "masseffect"``, ``kind = "round"``)::

    map = "open"                # a built-in map name or an inline [map] table
    on_point = "Shepard"        # the On Point Squadmate (takes the first turn)
    rounds = 1                  # Rounds to play (1..12; several: ROUNDS_SEQUENCE, sections "Round r · ...")
    reshuffles = [["C2", "C1"]] # the new deck's order each time the Hazard deck runs out (else: the seed)
    sheets = "standin"          # the sheet file: "standin" (built-in stand-in) or a path
    downed_locks = { Tali = 0 } # dice a Downed sheet Locks, over the sheet file's downed_locks (0..4; stand-in: 3)
    [[squadmates]] ...          # seating order, clockwise, with positions (see unit_specs)
    [[enemies]] ...             # with positions
    [[bag]] ...                 # the Enemy Bag's draws, in order: a Minion token (no position), or
    [[bag]]                     # a Minion Defeated earlier and back in the Bag by this draw:
    returned = "Husk A"         # (with no declared draw left: the only token in the Bag; two or more: refused)
    [[hazard_deck]]             # the Hazard deck, top card first
    name = "C1"
    [[hazard_deck.instructions]]        # as an activation file's [[hazard]], plus "activate_turrets"
    do = "activate"                     # (with damage = N: each Active Turret hits each Squadmate in its
    types = ["Husk"]                    # Line of Fire for N)
    [[turns]]                   # the players' choices, one table per Squadmate taking a turn (per Round)
    squadmate = "Shepard"
    round = 1                   # the Round of this turn (default 1)
    [[turns.actions]]           # at most three, in order
    box = "Move"                # a Basic Action (Move, Mission, Revive) or an Ability Box of the sheet
    die = "move_3"              # move_2, move_3, standard, enhanced, move_2_or_standard
    path = ["0,0", "1,0"]       # Move: the route, its own hex first
    target = "Husk"             # an Ability's target Enemy
    resolve = true              # false: the die is placed without resolving the Action
    [turns.choices] ...         # as an activation file's [choices], for this turn's Hazard card

A turn may play its Strategy Roll (Step A) instead of declaring the faces it took::

    [turns.roll]                # the strategy kind's own steps: Lock, roll, Core Ability triggers, re-rolls
    lock = "S5"                 # a die the previous player left (never on the On Point Squadmate's turn)
    rolls = [["standard", "core", "?"], ["move_2"]]  # one face per die rolled, per roll round; "?": seed
    renegade_tokens = 1         # Renegade tokens held; [[turns.roll.renegade]] die, face, round: one spent
    place = ["S9"]              # the dice taken without an Action (default: the first that fit free spaces)

The Pool's dice keep their ids (``S1``..``S12``) all Round; an Action then takes the first die showing its ``die``
face, or the die ``die_id`` names. ``box = "Revive"`` with ``target = "<Squadmate>"`` Revives a Downed Squadmate in
an adjacent hex with the Hit and Shield Points the back of its sheet gives (sheet file: ``revived_hit_points``,
``revived_shield_points``; a stand-in); whether it takes its turn this Round is the ruling ``revived_turn``.

Loot and the Inventory (Loot Tokens; Grenade and Grenade Cache Tokens; Medi-gel Tokens)::

    inventory = ["medi_gel"]    # the squad's Inventory at the start of the Round
    [loot]                      # face-down Loot tokens on the map: hex -> kinds
    "0,-1" = ["grenade", "medi_gel"]
    [[turns.actions.items]]     # a token used at the start or end of that Action
    use = "grenade"             # grenade, grenade_cache (at = the target hex) or medi_gel (target = a Squadmate)
    when = "end"
    at = "3,-1"

Unlocking an Ability when a Squadmate's XP column fills (the player's choice, declared)::

    [[unlocks]]
    squadmate = "Shepard"
    box = "Warp"                # a Locked Ability of the sheet, usable as soon as the third XP box is marked

Mission Objectives and Ending a Mission::

    time_limit = 3              # time runs out after the End Phase of this Round (a Failure)
    [[objectives]]
    name = "Evacuate the scientists"
    kind = "paragon"            # paragon, renegade, secondary, loyalty, preliminary
    after = "Open the lab"      # the Preliminary Objective it is attached to
    [[turns.actions]]
    box = "Mission"             # a Mission Action the Mission Rules page allows ...
    die = "standard"
    completes = "Open the lab"  # ... completing this Objective

Paragon dice and Renegade tokens (Additional Rules › Paragon Dice and Renegade Tokens)::

    paragon_dice = 1            # Paragon Victories on the Campaign Map: P1.. join the Pool every Round (0..2)
    renegade_victories = 1      # each Squadmate holds this many Renegade tokens, kept from turn to turn
    [[turns.actions]]           # a fourth (fifth) Action takes a Paragon die, named by its id, on top of the three
    box = "Move"
    die = "move_2"
    die_id = "P1"

An Action that names only a face never takes a Paragon die. Whether a Paragon die may be one of the three dice is the
ruling ``paragon_counts_toward_three``. With ``renegade_victories`` a turn's ``[[turns.roll.renegade]]`` spends the
Squadmate's own tokens (a turn then gives no ``renegade_tokens``).

Ending a Mission with Intel Caches; Advanced and Loyalty Abilities; Turrets Disabled during play::

    intel_gathered = 2          # Intel Gathered boxes already marked on the Campaign Map (every third has an icon)
    loyalty_mission = "Liara"   # a Loyalty Mission: its Loyalty Objective unlocks this Squadmate's Loyalty Ability
    [[intel_unlocks]]           # the Ability unlocked for each icon box marked at the Mission's end, in order
    squadmate = "Garrus"
    box = "Overload"
    [[turns.actions]]
    box = "Hack Turret"         # an Ability Box with disable_turret = true (sheet file)
    die = "standard"
    turret = "3,-1"             # the Turret it Disables

When the Mission ends (an Objective, time, Shepard Downed) with tokens in the Inventory, "Ending a Mission" marks one
Intel Gathered box per Intel Cache token and returns every carried token to the game box. An Advanced Ability
(``requires`` in the sheet file) is unlocked only once the Abilities it requires are; a Loyalty Ability (``loyalty``)
only by the Loyalty Objective of its Squadmate's Loyalty Mission: any other unlock is refused naming ``unlocks[i].box``
or ``intel_unlocks[i].box``.

Paragon and Renegade Victories (Paragon Dice and Renegade Tokens): a file that gives ``paragon_dice`` or
``renegade_victories`` tracks the campaign, and a Paragon or Renegade Victory then says what the next Mission starts
with (the outcome's ``next_mission``). Downed Squadmates: no Hazard card, no Strategy Roll, no Actions (declaring them
is refused naming the field); the dice on the sheet of a Squadmate Downed during a turn are set aside. An ``intuition``
on the turn of a Squadmate Downed when it starts stands only if that turn's Hazard card is resolved (ruling
``downed_hazard_card = resolved``): otherwise no Enemy Activates then, and it is refused naming ``turns[i].intuition``.

Mission Actions under the Mission Rules page's rules (Basic Actions › Mission; the book prints no such page)::

    [[mission_actions]]
    name = "Hack the terminal"
    icon = "terminal"           # or hexes = ["1,-1"]; adjacent = true: in or adjacent to one; neither: anywhere
    progress = 2                # Progress Boxes (1..6), one per Mission Action
    completes = "Open the lab"  # the Objective completed when the last box is marked
    [[turns.actions]]
    box = "Mission"
    die = "standard"
    mission = "Hack the terminal"

War Readiness (Overview › War Readiness): scored for each Secondary Objective and when the Mission ends, amounts from
``[war_readiness]`` (``paragon``, ``renegade``, ``loyalty``, ``secondary``, ``failure``, ``marked``) else
:data:`WAR_READINESS_STANDIN`. Liara's Analysis after the Strategy Roll: ``[turns.analysis] card_of = "Garrus"``
(``when = "until_hazard_card"``, just before Step C, under the ruling of the same name ``analysis_window =
until_hazard_card``; the older spelling ``"before_hazard_card"`` still loads); ``analysis_token = N``: where her token
starts, 0 to her sheet's ``analysis_track``. Dice Locked by a Downed sheet: the sheet file's ``downed_locks`` (stand-in 3), per Squadmate
``downed_locks = { Tali = 0 }``.

Core Abilities (Playing a Mission › Squadmate Phase › Core Abilities: each icon rolled triggers the Squadmate's Core
Ability "as explained on the Squadmate Sheet", which the rulebook does not print; the effects are the sheet file's, a
stand-in in the built-in sheets, each resolved at its trigger, before the re-roll)::

    command_ready = 1           # Shepard's Ready Command tokens at the start (0..the sheet's command_tokens)
    aim_value = 2               # Garrus' Aim Tracker at the start (0..the sheet's aim_track)
    enraged = 1                 # Wrex's Rage tokens showing their Enraged side at the start (0..the sheet's rage_tokens)
    chatika = "1,0"             # Tali's drone Chatika (a token) at the start; default: Tali's hex
    [[turns.actions]]
    box = "Pistol Burst"        # an Ability that deals Damage ...
    die = "standard"
    target = "Husk"
    command = true              # ... spending one Ready Command token (+command_damage; ruling command_self)
    aim = true                  # (Garrus) ... spending his Aim Value (+that much Damage, the tracker back to 0)
    [[turns.drone]]             # Tali: one entry per Core Ability trigger, in order
    path = ["0,0", "1,0", "2,-1"]   # Chatika's route, its own hex first (at most drone_move hexes)
    target = "Husk"             # an Enemy in or adjacent to Chatika's hex (drone_damage Damage; ruling drone_react)
    turret = "3,-1"             # or an Active Turret in or adjacent to it, hacked (Disabled)

Squadmate Commentary rules (the commentary gives the rule, the sheet file the effect; a stand-in in the built-in
sheets)::

    [unlocked]                  # Abilities unlocked in earlier Missions (Locked on the sheet; Advanced ones with
    Garrus = ["Calibrate", "Proximity Mines"]   # what they require)
    proximity_mines = 2         # Garrus' Proximity Mine tokens left (0..3; default: all three once unlocked)
    [[turns.actions]]
    box = "Concussive Shot"
    die = "standard"
    target = "Husk"
    calibrate = true            # Garrus' Calibrate: Aim Value 2-3 +1, 4+ +2 (once per turn; ruling calibrate_aim)
    battlemaster = true         # Wrex's Krogan Battlemaster: an Enraged Rage token flipped Calm for more Damage
    [[turns.actions]]
    box = "Adrenaline Rush"     # an Ability that moves (sheet move_points): path as a Move's; not a Move Action
    die = "standard"            # (no Barrier; the Pin Tag: ruling pin_ability_move)
    path = ["0,0", "1,0"]
    [[turns.actions]]
    box = "Sabotage Turret"     # a Turret (Active or Disabled) fires at the Enemies in its Line of Fire
    die = "standard"
    turret = "3,-1"
    [[turns.actions]]
    box = "Shoot It 46 More Times"  # Wrex's Shotgun Blast resolved twice, the same Damage both times (ruling
    die = "enhanced"            # shoot_it_46)
    target = "Husk A"
    second_target = "Husk B"    # the second Blast's Enemy (default: target)
    [[turns]]
    squadmate = "Tali"
    intuition = "Husk C"        # Liara's Shadow Broker Intuition readied for Husk C's next Attack on any Squadmate
                                # this turn (ruling intuition_attacks; once per Round, a stand-in)

Energy Drain regains a Shield Point after its Damage (at full Shield Points only the Damage); Warp has no effect on an
Enemy with a Biotic Effect token; Lift Grenade is used on one all the same (no second token). Sabotage Enemy chooses an
Enemy with the Ranged Tag, even one Asari Controller makes count as having none; What Krogan Do Best gives Wrex a
Shield Point back each time an Enemy ends its move closer to him (Counting Distances; ruling krogan_moves).

Wrex's Blood Rage needs no declaration: each trigger flips a Calm Rage token Enraged and each Enemy adjacent to Wrex
suffers the sheet's ``rage_damage``. A sheet without these numbers (0) only counts its triggers, said in the trace.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field as dc_field, replace
from typing import Annotated, Any, Literal

from pydantic import Field, field_validator

from explorer.dice import Dice
from explorer.errors import RuleViolation, ScenarioError
from explorer.hexgrid import Hex
from explorer.kernel import Context, Each, Frame, Outcome, play, run, trace_of
from explorer.scenario import validate
from explorer.schema import Strict
from explorer.text import plural
from explorer.trace import Step, Trace

from . import sections as S
from .activation import (HAZARD_CARD_SEQUENCE, ActivationContext, Board, Choices, ChoicesSpec, HazardInstruction,
                         Instruction, MapTerrain, _card, _hex_field, _load_map, coolant_leak_end_of_turn,
                         inferno_start_of_round, opportunity_attacks, shrouded_now, what_krogan_do_best)
from .options import rulings as _rulings_for
from .results import EnemyAt, Happening, MediGel, OnPointPassed, Refused, Revived, SquadmateAt, SquadmateMoved
from .sheets import (CALIBRATE_BONUS, DOWNED_LOCKS_MAX, FACES_FOR, MOVEMENT_POINTS, PROXIMITY_MINES, STANDIN, DieFace,
                     Sheet, load_sheets)
from .strategy import (PARAGON_DICE_MAX, ROLL_SEQUENCE, SQUADMATES, Die, Face, RenegadeUse, StrategyContext,
                       rounds_after_a_draw,
                       StrategyState, begin_strategy_roll, lock_die)
from .strategy_scenario import FaceOrUnknown, RenegadeModel
from .unit_specs import (BagSpec, EnemySpec, Header, Name, SquadmateSpec, check_bag, check_rulings, check_units,
                         names_check, parse_hex)
from .units import (GRENADE_DAMAGE, enemy_damage, enemy_damage_happenings, enemy_end_phase, gain_xp,
                    give_biotic_effect, medi_gel, pass_on_point, restore_shields, stun)

STRATEGY_DICE = 12
"""The Strategy Pool: twelve Strategy dice (The Strategy Pool)."""
DICE_PER_TURN = 3
"""A Squadmate always takes three dice from the Pool on its turn (Step B: Actions)."""
GRENADE_RANGE = 3
"""Grenade and Grenade Cache Tokens: the target hex is within three hexes (and in Line of Fire)."""
INTEL_BOXES = 30
"""The most Intel Gathered boxes a file may say are marked (the Campaign Map's count is not in the rulebook)."""
INTEL_ICON_EVERY = 3
"""The Campaign Map: every third Intel Gathered box marked lets a Squadmate unlock an Ability (its box has an icon)."""
RENEGADE_TOKENS_IN_BOX = 8
"""Components: eight Renegade tokens (each Squadmate takes one per Renegade Victory: Setup G)."""


# --- the file -------------------------------------------------------------------------------------------------------


class RoundHazardInstruction(HazardInstruction):
    """A Hazard card instruction of a round file: the ``activation`` kind's, plus ``do = "activate_turrets"`` with
    the ``damage`` the card shows (Additional Rules › Turrets: the amount is on the Hazard card)."""

    do: Literal["activate", "activate_elites", "activate_spawned", "activate_furthest", "spawn", "special",
                "activate_turrets"]
    damage: int = Field(default=1, ge=1, le=10)


class HazardCardSpec(Strict):
    name: str = Name
    instructions: list[RoundHazardInstruction] = Field(min_length=1, max_length=8)


LootKind = Literal["grenade", "grenade_cache", "medi_gel", "intel_cache"]
"""What a Loot token shows once flipped (Loot Tokens: the Grenade, Grenade Cache, Medi-gel and Intel Cache tokens)."""

LOOT_IN_BOX: dict[str, int] = {"grenade": 2, "grenade_cache": 1, "medi_gel": 5, "intel_cache": 4}
"""Components: how many tokens of each kind the box holds (2 + 1 + 5 + 4: the twelve Loot tokens)."""

LOOT_LABEL: dict[str, str] = {"grenade": "Grenade", "grenade_cache": "Grenade Cache", "medi_gel": "Medi-gel",
                              "intel_cache": "Intel Cache"}
"""The book's name of each token kind."""


class ItemSpec(Strict):
    """A token of the Inventory used at the ``start`` or ``end`` of an Action: a Grenade (Cache) thrown at hex ``at``,
    or Medi-gel on Squadmate ``target`` (Grenade and Grenade Cache Tokens; Medi-gel Tokens)."""

    use: Literal["grenade", "grenade_cache", "medi_gel"]
    when: Literal["start", "end"] = "end"
    at: str | None = Field(default=None, max_length=20)
    target: str | None = Field(default=None, max_length=40)


class DroneSpec(Strict):
    """One Core Ability trigger of Tali's Combat Drone: Chatika's ``path`` (its own hex first; empty: it stays), then
    the Enemy it Damages (``target``) or the Active Turret it hacks (``turret``), each in or adjacent to its hex."""

    path: list[Annotated[str, Field(max_length=20)]] = Field(default_factory=list, max_length=7)
    target: str | None = Field(default=None, max_length=40)
    turret: str | None = Field(default=None, max_length=20)


class ActionSpec(Strict):
    box: str = Name
    die: DieFace
    die_id: str | None = Field(default=None, min_length=2, max_length=4)
    path: list[str] = Field(default_factory=list, max_length=12)
    target: str | None = Field(default=None, max_length=40)
    resolve: bool = True
    items: list[ItemSpec] = Field(default_factory=list, max_length=4)
    completes: str | None = Field(default=None, max_length=60)
    turret: str | None = Field(default=None, max_length=20)
    mission: str | None = Field(default=None, max_length=60)
    command: bool = False
    aim: bool = False
    calibrate: bool = False
    battlemaster: bool = False
    second_target: str | None = Field(default=None, max_length=40)


class UnlockSpec(Strict):
    """The Ability a Squadmate's player unlocks when its XP column fills this Mission (Unlocking Abilities: the
    player's choice)."""

    squadmate: str = Name
    box: str = Field(min_length=1, max_length=40)


WAR_READINESS_STANDIN: dict[str, int] = {"paragon": 3, "renegade": 2, "loyalty": 1, "secondary": 1, "failure": 0}
"""A STAND-IN: the War Readiness points a Mission scores (Overview › War Readiness; Victory and Defeat; Mission
Objectives; Loyalty Objectives). The rulebook says only that War Readiness is scored each time the squad completes a
Mission and for Secondary Objectives, that a Paragon Victory scores more than a Renegade Victory and that a Loyalty
Objective scores "a small amount"; the amounts are on the Mission Rules pages, which it does not print. These numbers
keep that order (Paragon 3 > Renegade 2; Loyalty and a Secondary Objective 1; a Failure 0) and nothing more: a round
file's ``[war_readiness]`` table replaces any of them with the Mission's own."""

WAR_READINESS_MAX = 100
"""Bound on the War Readiness a file says is already marked on the Campaign Map (the box count is not in the book)."""


class WarReadinessSpec(Strict):
    """The War Readiness this Mission scores (its Mission Rules page; defaults: :data:`WAR_READINESS_STANDIN`) and
    the points already ``marked`` on the Campaign Map before it."""

    paragon: int = Field(default=WAR_READINESS_STANDIN["paragon"], ge=0, le=20)
    renegade: int = Field(default=WAR_READINESS_STANDIN["renegade"], ge=0, le=20)
    loyalty: int = Field(default=WAR_READINESS_STANDIN["loyalty"], ge=0, le=20)
    secondary: int = Field(default=WAR_READINESS_STANDIN["secondary"], ge=0, le=20)
    failure: int = Field(default=WAR_READINESS_STANDIN["failure"], ge=0, le=20)
    marked: int = Field(default=0, ge=0, le=WAR_READINESS_MAX)


class MissionActionSpec(Strict):
    """A rule of the Mission Rules page that lets a die be allocated to the Mission Action (Basic Actions › Mission:
    only such a rule allows it, and it says what happens). The rulebook prints no Mission Rules page, so the file
    gives the rule: its ``name``; where the Squadmate must be (``hexes``, or every hex with map ``icon`` such as
    ``terminal`` or ``objective``; ``adjacent``: in or adjacent to one; neither: anywhere); ``progress``: the
    Progress Boxes it marks, one per Mission Action (Mission Rules Page: "Progress Boxes, which you will be
    instructed to mark"); ``completes``: the Objective completed when the last box is marked."""

    name: str = Field(min_length=1, max_length=60)
    hexes: list[Annotated[str, Field(max_length=20)]] = Field(default_factory=list, max_length=20)
    icon: Literal["objective", "terminal", "refugee", "loot", "spawn", "start"] | None = None
    adjacent: bool = False
    progress: int = Field(default=1, ge=1, le=6)
    completes: str | None = Field(default=None, max_length=60)


class ObjectiveSpec(Strict):
    """A Mission Objective (Mission Objectives): its ``name``, its ``kind`` (``paragon``, ``renegade``,
    ``secondary``, ``loyalty``, ``preliminary``), the Preliminary Objective it is attached to (``after``) and
    whether it is ``completed`` already. What completes it is on the Mission Rules page: here a Mission Action whose
    ``completes`` names it."""

    name: str = Field(min_length=1, max_length=60)
    kind: Literal["paragon", "renegade", "secondary", "loyalty", "preliminary"]
    after: str | None = Field(default=None, max_length=60)
    completed: bool = False


class RollSpec(Strict):
    """Step A played by the engine: ``lock`` (a die id of the Pool the previous player left), ``rolls`` (fixed faces
    per roll round, Pool order, ``"?"``: from the seed), ``renegade_tokens`` held and ``renegade`` tokens spent,
    ``place`` (the ids of the dice taken without resolving an Action; default: the first that fit)."""

    lock: str | None = Field(default=None, min_length=2, max_length=4)
    rolls: list[Annotated[list[FaceOrUnknown], Field(max_length=STRATEGY_DICE + PARAGON_DICE_MAX)]] = Field(default_factory=list,
                                                                                        max_length=20)
    renegade_tokens: int = Field(default=0, ge=0, le=8)
    renegade: list[RenegadeModel] = Field(default_factory=list, max_length=8)
    place: list[Annotated[str, Field(min_length=2, max_length=4)]] | None = Field(default=None,
                                                                               max_length=DICE_PER_TURN)


MAX_ROUNDS = 12
"""The most Rounds one round file plays."""


class AnalysisSpec(Strict):
    """Liara uses Analysis this turn (Squadmate Commentary › Liara T'Soni › Analysis) on the Hazard card face-down
    next to ``card_of``'s sheet, ``when``: right after the Strategy Roll (``before_actions``) or just before Step C
    (``until_hazard_card``, allowed by the ruling reading of the same name, ``analysis_window = until_hazard_card``).
    The older spelling ``"before_hazard_card"`` loads as ``until_hazard_card`` (files written before the names
    agreed keep opening)."""

    card_of: str = Name
    when: Literal["before_actions", "until_hazard_card"] = "before_actions"

    @field_validator("when", mode="before")
    @classmethod
    def _old_spelling(cls, v):
        return "until_hazard_card" if v == "before_hazard_card" else v


class TurnSpec(Strict):
    squadmate: str = Name
    round: int = Field(default=1, ge=1, le=MAX_ROUNDS)
    roll: RollSpec | None = None
    analysis: AnalysisSpec | None = None
    drone: list[DroneSpec] = Field(default_factory=list, max_length=20)
    intuition: str | None = Field(default=None, min_length=1, max_length=40)
    actions: list[ActionSpec] = Field(default_factory=list, max_length=DICE_PER_TURN + PARAGON_DICE_MAX)
    choices: ChoicesSpec = Field(default_factory=ChoicesSpec)


class RoundScenario(Header):
    """A validated ``round`` scenario (see the module docstring for the file shape)."""

    kind: Literal["round"]
    map: str | dict
    on_point: str = Name
    sheets: str = Field(default=STANDIN, min_length=1, max_length=300)
    squadmates: list[SquadmateSpec] = Field(min_length=1, max_length=5)
    enemies: list[EnemySpec] = Field(default_factory=list, max_length=40)
    bag: list[BagSpec] = Field(default_factory=list, max_length=30)
    hazard_deck: list[HazardCardSpec] = Field(min_length=1, max_length=64)
    turns: list[TurnSpec] = Field(default_factory=list, max_length=5 * MAX_ROUNDS)
    rounds: int = Field(default=1, ge=1, le=MAX_ROUNDS)
    reshuffles: list[Annotated[list[Annotated[str, Field(max_length=40)]], Field(max_length=64)]] = Field(
        default_factory=list, max_length=MAX_ROUNDS)
    objectives: list[ObjectiveSpec] = Field(default_factory=list, max_length=8)
    time_limit: int | None = Field(default=None, ge=1, le=30)
    unlocks: list[UnlockSpec] = Field(default_factory=list, max_length=5)
    loot: dict[Annotated[str, Field(max_length=20)], Annotated[list[LootKind], Field(max_length=12)]] = Field(
        default_factory=dict, max_length=12)
    inventory: list[LootKind] = Field(default_factory=list, max_length=12)
    paragon_dice: int = Field(default=0, ge=0, le=PARAGON_DICE_MAX)
    renegade_victories: int | None = Field(default=None, ge=0, le=RENEGADE_TOKENS_IN_BOX)
    intel_gathered: int = Field(default=0, ge=0, le=INTEL_BOXES)
    intel_unlocks: list[UnlockSpec] = Field(default_factory=list, max_length=INTEL_BOXES // INTEL_ICON_EVERY)
    loyalty_mission: str | None = Field(default=None, max_length=40)
    downed_locks: dict[Annotated[str, Field(max_length=40)], Annotated[int, Field(ge=0, le=DOWNED_LOCKS_MAX)]] = Field(
        default_factory=dict, max_length=5)
    war_readiness: WarReadinessSpec | None = None
    mission_actions: list[MissionActionSpec] = Field(default_factory=list, max_length=8)
    analysis_token: int = Field(default=0, ge=0, le=10)
    command_ready: int = Field(default=0, ge=0, le=3)
    aim_value: int = Field(default=0, ge=0, le=10)
    enraged: int = Field(default=0, ge=0, le=5)
    chatika: str | None = Field(default=None, max_length=20)
    unlocked: dict[Annotated[str, Field(max_length=40)], Annotated[list[Annotated[str, Field(max_length=40)]],
                   Field(max_length=10)]] = Field(default_factory=dict, max_length=5)
    proximity_mines: int | None = Field(default=None, ge=0, le=PROXIMITY_MINES)


def parse_round(data: Mapping[str, Any], source: str) -> RoundScenario:
    """Validate a ``round`` scenario document (parsed TOML).

    Raises:
        ScenarioError: a field out of bounds or unknown, an unknown map or sheet file, a Squadmate without a sheet,
            a character off the map, a name that does not exist, a turn given twice, a Hazard deck too short for the
            Round, bad hexes.
    """
    from .map import check_placements

    sc = validate(RoundScenario, data, source)
    check_rulings(sc.rulings, source)
    m = _load_map(sc.map, source)
    sqs, ens = check_units(sc.squadmates, sc.enemies, source, need_positions=True)
    check_placements(m, [(s.name, s.position) for s in sqs], "squadmates", source)
    check_placements(m, [(e.name, e.position) for e in ens], "enemies", source)
    check_bag(sc.bag, ens, [s.name for s in sqs], source)
    sheets = load_sheets(sc.sheets, source)
    names = [s.name for s in sqs]
    for i, s in enumerate(sqs):
        if s.name not in sheets:
            raise ScenarioError(f"squadmates[{i}].name", f"no sheet for {s.name!r} in {sc.sheets!r}",
                                sorted(sheets), source)
    names_check(sc.on_point, names, "on_point", source)
    for i, s in enumerate(sqs):
        if s.commander and s.downed:
            raise ScenarioError(f"squadmates[{i}].downed", f"{s.name} is Commander Shepard: when Shepard is Downed "
                                "the Mission ends in failure at once (Mission Commander; Ending a Mission), so no "
                                "Round starts with Shepard Downed", "false", source)
    for who in sc.downed_locks:
        names_check(who, names, f"downed_locks.{who}", source)
    if sc.renegade_victories and sc.renegade_victories * len(sqs) > RENEGADE_TOKENS_IN_BOX:
        raise ScenarioError("renegade_victories", f"{sc.renegade_victories} Renegade tokens for each of "
                            f"{len(sqs)} Squadmates; the box holds {RENEGADE_TOKENS_IN_BOX}",
                            f"at most {RENEGADE_TOKENS_IN_BOX // len(sqs)}", source)
    for i, t in enumerate(sc.turns):  # before any check that reads a turn's sheet by its Squadmate's name
        names_check(t.squadmate, names, f"turns[{i}].squadmate", source)
    _canonical_box_names(sc, sheets)
    _check_analysis_token(sc, sheets, names, source)
    _check_core(sc, sheets, names, m, source)
    enemy_names = [e.name for e in ens]
    seen = set()
    for i, t in enumerate(sc.turns):
        if t.round > sc.rounds:
            raise ScenarioError(f"turns[{i}].round",
                                f"round {t.round}, but the file plays {plural(sc.rounds, 'Round')}",
                                f"1 to {sc.rounds}", source)
        if (t.round, t.squadmate) in seen:
            raise ScenarioError(f"turns[{i}].squadmate", f"{t.squadmate} takes one turn per Round",
                                "one [[turns]] table per Squadmate and Round", source)
        seen.add((t.round, t.squadmate))
        _check_roll(t, i, source, sc.paragon_dice, sc.renegade_victories is not None)
        if t.analysis is not None:
            if not sheets[t.squadmate].analysis_track:
                raise ScenarioError(f"turns[{i}].analysis", f"{t.squadmate}'s sheet has no Analysis track",
                                    [n for n, sh in sheets.items() if sh.analysis_track] or "no such sheet", source)
            if t.roll is None:
                raise ScenarioError(f"turns[{i}].analysis", "Analysis follows the Strategy Roll: the turn needs a "
                                    "[turns.roll]", "a [turns.roll] table for the turn", source)
            names_check(t.analysis.card_of, names, f"turns[{i}].analysis.card_of", source)
        for j, a in enumerate(t.actions):
            f = f"turns[{i}].actions[{j}]"
            for k, h in enumerate(a.path):
                _hex_field(h, f"{f}.path[{k}]", source)
            if a.target is not None:
                if a.box.lower() == "revive":
                    names_check(a.target, names, f"{f}.target", source)
                else:
                    names_check(a.target, enemy_names, f"{f}.target", source)
            for k, it in enumerate(a.items):
                if it.use == "medi_gel":
                    if it.target is None:
                        raise ScenarioError(f"{f}.items[{k}].target", "Medi-gel needs the Squadmate it is used on",
                                            names, source)
                    names_check(it.target, names, f"{f}.items[{k}].target", source)
                else:
                    if it.at is None:
                        raise ScenarioError(f"{f}.items[{k}].at", "a Grenade needs its target hex", "a hex 'q,r'",
                                            source)
                    if _hex_field(it.at, f"{f}.items[{k}].at", source) not in m:
                        raise ScenarioError(f"{f}.items[{k}].at", f"hex {it.at} is not on the map", "a hex of the map",
                                            source)
            if a.die_id is not None and t.roll is None:
                raise ScenarioError(f"{f}.die_id", "names a die of a rolled Pool, but this turn has no [turns.roll]",
                                    "no die_id, or a [turns.roll] table for the turn", source)
    counts = dict.fromkeys(LOOT_IN_BOX, 0)
    for h, tokens in sc.loot.items():
        if _hex_field(h, f"loot.{h}", source) not in m:
            raise ScenarioError(f"loot.{h}", f"hex {h} is not on the map", "a hex of the map", source)
        for tok in tokens:
            counts[tok] += 1
    for tok in sc.inventory:
        counts[tok] += 1
    for tok, n in counts.items():
        if n > LOOT_IN_BOX[tok]:
            raise ScenarioError("loot", f"{n} {tok} tokens on the map and in the Inventory; the box holds "
                                f"{LOOT_IN_BOX[tok]}", f"at most {LOOT_IN_BOX[tok]}", source)
    _check_objectives(sc, source)
    for i, u in enumerate(sc.unlocks):
        names_check(u.squadmate, names, f"unlocks[{i}].squadmate", source)
        if u.squadmate in [x.squadmate for x in sc.unlocks[:i]]:
            raise ScenarioError(f"unlocks[{i}].squadmate", f"{u.squadmate} fills one XP column per Mission",
                                "one unlock per Squadmate", source)
        box = sheets[u.squadmate].box(u.box)
        locked = [b.name for b in sheets[u.squadmate].boxes if not b.unlocked]
        if box is None or box.unlocked:
            raise ScenarioError(f"unlocks[{i}].box", f"{u.box!r} is not a Locked Ability of {u.squadmate}'s sheet",
                                locked or "no Locked Ability", source)
    _check_unlocked(sc, sheets, names, source)
    _check_intel_unlocks(sc, source)
    for i, u in enumerate(sc.intel_unlocks):
        names_check(u.squadmate, names, f"intel_unlocks[{i}].squadmate", source)
        box = sheets[u.squadmate].box(u.box)
        if box is None or box.unlocked:
            raise ScenarioError(f"intel_unlocks[{i}].box", f"{u.box!r} is not a Locked Ability of {u.squadmate}'s "
                                "sheet", [b.name for b in sheets[u.squadmate].boxes if not b.unlocked]
                                or "no Locked Ability", source)
    if sc.loyalty_mission is not None:
        names_check(sc.loyalty_mission, names, "loyalty_mission", source)
        if any(o.kind in ("paragon", "renegade") for o in sc.objectives):
            raise ScenarioError("loyalty_mission", "a Loyalty Mission has no Paragon or Renegade Objective",
                                "no loyalty_mission, or only Loyalty, Secondary and Preliminary Objectives", source)
    for i, t in enumerate(sc.turns):
        for j, a in enumerate(t.actions):
            if a.turret is not None:
                f = f"turns[{i}].actions[{j}].turret"
                if _hex_field(a.turret, f, source) not in {tt.hex for tt in m.turrets}:
                    raise ScenarioError(f, f"no Turret at {a.turret}", [str(tt.hex) for tt in m.turrets]
                                        or "no Turret on this map", source)
    cards = [c.name for c in sc.hazard_deck]
    if len(set(cards)) != len(cards):
        raise ScenarioError("hazard_deck", "two cards with one name", "a name per card", source)
    for k, c in enumerate(sc.hazard_deck):
        for j, ins in enumerate(c.instructions):
            if (ins.do == "special") != (ins.text is not None):
                raise ScenarioError(f"hazard_deck[{k}].instructions[{j}].text", "only a Special instruction "
                                    "(do = 'special') has a text, and it must have one",
                                    "a text of 1-300 characters with do = 'special', else none", source)
    for k, order in enumerate(sc.reshuffles):
        bad = next((c for c in order if c not in cards), None)
        if bad is not None or len(set(order)) != len(order):
            raise ScenarioError(f"reshuffles[{k}]", f"{bad!r} is not a card of the Hazard deck" if bad else
                                "a card named twice", "card names of hazard_deck, each once", source)
    hands = sum(1 for s in sqs if not s.downed)
    if len(sc.hazard_deck) < hands:
        raise ScenarioError("hazard_deck", f"{len(sc.hazard_deck)} cards; the Preparation Phase draws {hands}",
                            f"at least {hands} cards", source)
    return sc


def _canonical_box_names(sc: RoundScenario, sheets: Mapping[str, Sheet]) -> None:
    """Every box a round file names by a former name of its sheet (a sheet box's ``former_names``, e.g. the stand-in
    Wrex's "Shotgun", now "Shotgun Blast" as the Squadmate Commentary calls it) is renamed in place to the box's name
    now, so an older file loads and plays as before and every step says the name the sheet uses. Fields:
    ``turns[i].actions[j].box``, ``unlocks[i].box``, ``intel_unlocks[i].box``, ``unlocked.<Squadmate>[k]``. A name
    no sheet box has, nor had, is left for the checks that refuse it."""
    for t in sc.turns:
        if t.squadmate in sheets:
            for a in t.actions:
                a.box = sheets[t.squadmate].canonical(a.box)
    for u in (*sc.unlocks, *sc.intel_unlocks):
        if u.squadmate in sheets:
            u.box = sheets[u.squadmate].canonical(u.box)
    for who, boxes in sc.unlocked.items():
        if who in sheets:
            boxes[:] = [sheets[who].canonical(b) for b in boxes]


def _check_analysis_token(sc: RoundScenario, sheets: Mapping[str, Sheet], names: list[str], source: str) -> None:
    """``analysis_token``: where Liara's Analysis token starts, a space of her track (Squadmate Commentary › Liara
    T'Soni › Analysis): 0 to the ``analysis_track`` of the sheet that has one (0 when no Squadmate's does)."""
    tracks = {n: sheets[n].analysis_track for n in names if sheets[n].analysis_track}
    track = max(tracks.values(), default=0)
    if sc.analysis_token > track:
        who = max(tracks, key=tracks.get) if tracks else None
        raise ScenarioError("analysis_token", f"{sc.analysis_token} spaces along, but "
                            + (f"{who}'s Analysis track has {track} spaces" if who else
                               "no Squadmate's sheet has an Analysis track"), f"0 to {track}", source)


def _check_core(sc: RoundScenario, sheets: Mapping[str, Sheet], names: list[str], m, source: str) -> None:
    """The Core Ability fields: ``command_ready`` within the Command tokens of the sheet that has them,
    ``aim_value`` within the Aim Tracker, ``chatika`` a hex of the map with a Combat Drone sheet in the squad, and
    each turn's ``drone`` only for that sheet, in a turn that rolls (a trigger comes from a Strategy Roll)."""
    def owner(attr: str) -> tuple[str | None, int]:
        have = [(n, getattr(sheets[n], attr)) for n in names if getattr(sheets[n], attr)]
        return have[0] if have else (None, 0)
    for field, attr, what in (("command_ready", "command_tokens", "Command tokens"),
                              ("aim_value", "aim_track", "Aim Tracker spaces"),
                              ("enraged", "rage_tokens", "Rage tokens")):
        who, top = owner(attr)
        if getattr(sc, field) > top:
            raise ScenarioError(field, f"{getattr(sc, field)}, but " + (f"{who}'s sheet has {top} {what}" if who else
                                f"no Squadmate's sheet has {what} ({attr})"), f"0 to {top}", source)
    drone, _ = owner("drone_move")
    if sc.chatika is not None:
        if drone is None:
            raise ScenarioError("chatika", "no Squadmate's sheet has a Combat Drone (drone_move)", "no chatika",
                                source)
        if _hex_field(sc.chatika, "chatika", source) not in m:
            raise ScenarioError("chatika", f"hex {sc.chatika} is not on the map", "a hex of the map", source)
    for i, t in enumerate(sc.turns):
        if t.drone and (not sheets[t.squadmate].drone_move or t.roll is None):
            raise ScenarioError(f"turns[{i}].drone", f"{t.squadmate}'s sheet has no Combat Drone" if not
                                sheets[t.squadmate].drone_move else "Chatika moves on a Core Ability trigger: the "
                                "turn needs a [turns.roll]", "a drone only in a rolled turn of " + (drone or
                                                                                                  "a Combat Drone sheet"),
                                source)
        for k, d in enumerate(t.drone):
            for j, h in enumerate(d.path):
                if _hex_field(h, f"turns[{i}].drone[{k}].path[{j}]", source) not in m:
                    raise ScenarioError(f"turns[{i}].drone[{k}].path[{j}]", f"hex {h} is not on the map",
                                        "a hex of the map", source)
            if d.target is not None and d.turret is not None:
                raise ScenarioError(f"turns[{i}].drone[{k}].turret", "Chatika Damages an Enemy or hacks a Turret",
                                    "target or turret, not both", source)
            if d.target is not None:
                names_check(d.target, [e.name for e in sc.enemies], f"turns[{i}].drone[{k}].target", source)
            if d.turret is not None and _hex_field(d.turret, f"turns[{i}].drone[{k}].turret", source) not in {
                    tt.hex for tt in m.turrets}:
                raise ScenarioError(f"turns[{i}].drone[{k}].turret", f"no Turret at {d.turret}",
                                    [str(tt.hex) for tt in m.turrets] or "no Turret on this map", source)
        for j, a in enumerate(t.actions):
            if a.aim and not sheets[t.squadmate].aim_track:
                raise ScenarioError(f"turns[{i}].actions[{j}].aim", f"{t.squadmate}'s sheet has no Aim Tracker",
                                    "aim only on the Actions of a sheet with an aim_track", source)


def _check_unlocked(sc: RoundScenario, sheets: Mapping[str, Sheet], names: list[str], source: str) -> None:
    """``unlocked``: the Locked Abilities of each Squadmate's sheet marked unlocked in earlier Missions (Unlocking
    Abilities: usable "for the rest of the campaign"); an Advanced one needs the Abilities it requires unlocked too
    (on the sheet or in the list). ``unlocks`` may not unlock one of them again. ``proximity_mines``: the Proximity
    Mine tokens left (0..3), only with a sheet whose Proximity Mines box is unlocked."""
    for who, boxes in sc.unlocked.items():
        names_check(who, names, f"unlocked.{who}", source)
        sheet = sheets[who]
        locked = [b.name for b in sheet.boxes if not b.unlocked and not b.basic]
        for k, name in enumerate(boxes):
            b = sheet.box(name)
            if b is None or b.unlocked or b.basic:
                raise ScenarioError(f"unlocked.{who}[{k}]", f"{name!r} is not a Locked Ability of {who}'s sheet",
                                    locked or "no Locked Ability", source)
            mine = {x.lower() for x in boxes}
            missing = [r for r in b.requires if r.lower() not in mine and not sheet.box(r).unlocked]
            if missing:
                raise ScenarioError(f"unlocked.{who}[{k}]", f"{b.name} is an Advanced Ability: {' and '.join(missing)} "
                                    "must be unlocked first (Advanced Abilities and Loyalty Abilities)",
                                    f"list {' and '.join(missing)} too", source)
    for i, u in enumerate(sc.unlocks):
        if u.box.lower() in {x.lower() for x in sc.unlocked.get(u.squadmate, [])}:
            raise ScenarioError(f"unlocks[{i}].box", f"{u.box!r} is already unlocked (the file's unlocked)",
                                "an Ability still Locked", source)
    if sc.proximity_mines is not None:
        have = [n for n in names for b in sheets[n].boxes if b.mines and (b.unlocked or b.name.lower() in {
            x.lower() for x in sc.unlocked.get(n, [])})]
        if not have:
            raise ScenarioError("proximity_mines", "no Squadmate has an unlocked Ability with Proximity Mine tokens "
                                "(a sheet box's mines)", "no proximity_mines", source)


def _check_intel_unlocks(sc: RoundScenario, source: str) -> None:
    """``intel_unlocks``: one per icon box (every :data:`INTEL_ICON_EVERY` th: The Campaign Map) that the file's
    Intel Cache tokens (``loot`` and ``inventory``) can mark after ``intel_gathered``; an entry no box could use is
    refused rather than left unread."""
    caches = sum(t.count("intel_cache") for t in sc.loot.values()) + sc.inventory.count("intel_cache")
    last = min(INTEL_BOXES, sc.intel_gathered + caches)
    icons = sum(1 for k in range(sc.intel_gathered + 1, last + 1) if k % INTEL_ICON_EVERY == 0)
    if len(sc.intel_unlocks) > icons:
        raise ScenarioError(f"intel_unlocks[{icons}]", f"{len(sc.intel_unlocks)} unlocks, but the file's "
                            f"{plural(caches, 'Intel Cache token')} after {sc.intel_gathered} marked boxes reach "
                            f"{plural(icons, 'icon box', 'icon boxes')}", f"at most {icons} entries", source)


def _check_objectives(sc: "RoundScenario", source: str) -> None:
    """Mission Objectives: unique names; ``after`` names a Preliminary Objective; Loyalty Objectives replace the
    Paragon and Renegade ones (Loyalty Objectives); a Mission Action's ``completes`` names an Objective."""
    names = [o.name for o in sc.objectives]
    for i, o in enumerate(sc.objectives):
        if o.name in names[:i]:
            raise ScenarioError(f"objectives[{i}].name", f"a second Objective named {o.name!r}", "unique names",
                                source)
        if o.after is not None:
            pre = next((p for p in sc.objectives if p.name == o.after), None)
            if pre is None or pre.kind != "preliminary":
                raise ScenarioError(f"objectives[{i}].after", f"{o.after!r} is not a Preliminary Objective",
                                    [p.name for p in sc.objectives if p.kind == "preliminary"], source)
    rules = [r.name for r in sc.mission_actions]
    m = _load_map(sc.map, source)
    for i, r in enumerate(sc.mission_actions):
        f = f"mission_actions[{i}]"
        if r.name in rules[:i]:
            raise ScenarioError(f"{f}.name", f"a second Mission Action rule named {r.name!r}", "unique names", source)
        if "hexes" in r.model_fields_set and not r.hexes:
            raise ScenarioError(f"{f}.hexes", "an empty list (leave hexes out for anywhere)",
                                "one or more hexes of the map, each once", source)
        for k, h in enumerate(r.hexes):
            if h in r.hexes[:k] or _hex_field(h, f"{f}.hexes[{k}]", source) in {
                    _hex_field(x, f"{f}.hexes[{k}]", source) for x in r.hexes[:k]}:
                raise ScenarioError(f"{f}.hexes[{k}]", f"hex {h} is listed twice", "each hex once", source)
        if r.hexes and r.icon:
            raise ScenarioError(f"{f}.icon", "give hexes or an icon, not both", "hexes = [...] or icon = ...", source)
        for k, h in enumerate(r.hexes):
            if _hex_field(h, f"{f}.hexes[{k}]", source) not in m:
                raise ScenarioError(f"{f}.hexes[{k}]", f"hex {h} is not on the map", "a hex of the map", source)
        if r.icon and not m.hexes_with(r.icon):
            raise ScenarioError(f"{f}.icon", f"no {r.icon} icon on the map", "an icon the map shows", source)
        if r.completes is not None:
            names_check(r.completes, names, f"{f}.completes", source)
    for i, t in enumerate(sc.turns):
        for j, a in enumerate(t.actions):
            f = f"turns[{i}].actions[{j}]"
            if a.mission is not None:
                if a.box.lower() != "mission":
                    raise ScenarioError(f"{f}.mission", "only the Mission Action follows a Mission Rules page rule",
                                        'box = "Mission"', source)
                if a.completes is not None:
                    raise ScenarioError(f"{f}.completes", "the rule named by mission says what it completes",
                                        "mission or completes, not both", source)
                names_check(a.mission, rules, f"{f}.mission", source)
    kinds = {o.kind for o in sc.objectives}
    if "loyalty" in kinds and kinds & {"paragon", "renegade"}:
        raise ScenarioError("objectives", "a Loyalty Objective with Paragon or Renegade ones",
                            "Loyalty Objectives appear in place of the Paragon and Renegade Objectives", source)
    for i, t in enumerate(sc.turns):
        for j, a in enumerate(t.actions):
            if a.completes is not None:
                if a.box.lower() != "mission":
                    raise ScenarioError(f"turns[{i}].actions[{j}].completes", "only a Mission Action completes an "
                                        "Objective here", 'box = "Mission"', source)
                names_check(a.completes, names, f"turns[{i}].actions[{j}].completes", source)


def _check_roll(t: TurnSpec, i: int, source: str, paragon: int = 0, renegade_held: bool = False) -> None:
    """A turn's ``[turns.roll]``: a Squadmate whose Core Ability the engine knows, Renegade uses within the tokens
    held (``renegade_held``: the file's ``renegade_victories`` gives them, so the turn declares none), die ids of the
    Strategy Pool (``S1``..``S12``, ``P1``..: the ``paragon`` dice)."""
    if t.roll is None:
        return
    f = f"turns[{i}].roll"
    if t.squadmate not in SQUADMATES:
        raise ScenarioError(f"turns[{i}].squadmate", f"{t.squadmate} has no Core Ability the Strategy Roll knows",
                            sorted(SQUADMATES), source)
    if renegade_held and t.roll.renegade_tokens:
        raise ScenarioError(f"{f}.renegade_tokens", "the file gives renegade_victories: each Squadmate's Renegade "
                            "tokens come from it and are kept from turn to turn", "no renegade_tokens in the turn",
                            source)
    ids = [f"S{k + 1}" for k in range(STRATEGY_DICE)] + [f"P{k + 1}" for k in range(paragon)]
    for name, die in ([("lock", t.roll.lock)] + [(f"renegade[{k}].die", u.die) for k, u in enumerate(t.roll.renegade)]
                      + [(f"place[{k}]", d) for k, d in enumerate(t.roll.place or ())]
                      + [(f"actions[{k}].die_id", a.die_id) for k, a in enumerate(t.actions)]):
        if die is not None and die not in ids:
            where = f"turns[{i}].{name}" if name.startswith("actions") else f"{f}.{name}"
            raise ScenarioError(where, f"no die {die!r} in the Strategy Pool",
                                "S1 to S12" + (f", P1 to P{paragon}" if paragon else ""), source)
    for r, faces in enumerate(t.roll.rolls):
        if len(faces) > STRATEGY_DICE + paragon:
            raise ScenarioError(f"{f}.rolls[{r}]", f"{len(faces)} faces; the Pool holds "
                                f"{plural(STRATEGY_DICE + paragon, 'die', 'dice')}",
                                f"at most {STRATEGY_DICE + paragon} faces", source)
    late = rounds_after_a_draw(t.roll.rolls, f"{f}.")
    if late is not None:
        raise ScenarioError(*late, source)
    if not renegade_held and len(t.roll.renegade) > t.roll.renegade_tokens:
        raise ScenarioError(f"{f}.renegade", f"{len(t.roll.renegade)} uses but {t.squadmate} holds "
                            f"{plural(t.roll.renegade_tokens, 'Renegade token')}",
                            f"at most {t.roll.renegade_tokens} uses", source)


# --- state, context -------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Item:
    """A Loot token used at the ``when`` (start / end) of an Action (see :class:`ItemSpec`); ``field``: its place in
    the file (``turns[i].actions[j].items[k]``)."""

    use: str
    when: str
    at: Hex | None
    target: str | None
    field: str


@dataclass(frozen=True)
class Action:
    """One declared Action (see :class:`ActionSpec`); ``field``: its place in the file (``turns[i].actions[j]``);
    ``die_id``: the die of a rolled Pool it takes (``None``: the first die showing ``die``)."""

    box: str
    die: str
    path: tuple[Hex, ...]
    target: str | None
    resolve: bool
    field: str
    die_id: str | None = None
    items: tuple[Item, ...] = ()
    completes: str | None = None
    turret: Hex | None = None
    mission: str | None = None
    command: bool = False
    aim: bool = False
    calibrate: bool = False
    battlemaster: bool = False
    second_target: str | None = None


@dataclass(frozen=True)
class Drone:
    """One trigger of Tali's Combat Drone as the file declares it (see :class:`DroneSpec`); ``field``:
    ``turns[i].drone[k]``."""

    path: tuple[Hex, ...]
    target: str | None
    turret: Hex | None
    field: str


@dataclass(frozen=True)
class Roll:
    """A turn's Step A as the file declares it (see :class:`RollSpec`); ``field``: ``turns[i].roll``."""

    lock: str | None
    rolls: tuple[tuple[str, ...], ...]
    renegade_tokens: int
    renegade: tuple[RenegadeUse, ...]
    place: tuple[str, ...] | None
    field: str


@dataclass(frozen=True)
class Turn:
    """A Squadmate's declared turn: its Strategy Roll (``None``: the dice's faces are declared by the Actions), its
    Actions and its choices for the Hazard card."""

    squadmate: str
    actions: tuple[Action, ...]
    choices: Choices
    roll: Roll | None = None
    round: int = 1
    analysis: tuple[str, str] | None = None
    field: str = ""
    drone: tuple[Drone, ...] = ()
    intuition: str | None = None


@dataclass(frozen=True)
class RoundState:
    """A Round so far.

    Attributes:
        board: every character (the map's Board; its ``log`` is what happened, in order).
        on_point: the On Point Squadmate; ``order``: this Round's turn order (On Point first, clockwise).
        deck: the Hazard deck's card names, top first; ``discard``: the discard pile, oldest first.
        hands: ``(Squadmate, card)`` dealt face-down in the Preparation Phase.
        pool: Strategy dice left in the Pool.
        used: ``(Squadmate, box, space index)`` of every Action Space holding a die this Round.
        rejected: the refused declaration's message (the Round stops there), or ``None``.
        dice: the Strategy Pool's dice, showing the faces the last player left (``face`` ``None``: not known, the
            turn declared its faces without a roll); ``rolled``: they are the current Squadmate's Strategy Roll
            (Step B takes its dice from them).
        revived: the Squadmates Revived this Round (Basic Actions › Revive).
        loot: ``(hex, tokens)`` of the face-down Loot tokens still on the map; ``inventory``: the squad's Inventory
            (Loot Tokens), in the order the tokens were gained.
        round: the Round being played (1 ...); ``reshuffled``: how many times the discard pile became the deck.
        completed: the Mission Objectives completed so far; ``ending``: how the Mission ended ("Paragon Victory",
            "Renegade Victory", "Loyalty Victory", "Failure: time ran out"), ``None`` while it goes on (Shepard
            Downed is :attr:`Board.failed`).
        unlocked: ``(Squadmate, box)`` of the Abilities unlocked during play (Unlocking Abilities).
        taken: the ids of the dice the current Squadmate has taken from its Strategy Roll this turn.
        paragon_on_sheets: ``(Squadmate, die id)`` of the Paragon dice on a sheet this Round (Paragon Dice).
        renegade: ``(Squadmate, tokens held)`` when the file gives ``renegade_victories`` (Renegade Tokens: kept
            from turn to turn, each spent one back in the game box); ``()`` otherwise.
        disabled_turrets: the Turrets Disabled during play (Turrets: the token flipped; no Line of Fire).
        intel_marked: the Intel Gathered boxes marked when the Mission ended (Intel Cache Tokens), numbered from 1.
        campaign_next: ``(Paragon dice, Renegade Victories)`` the next Mission starts with, once a Paragon or
            Renegade Victory ended this one in a file that tracks them (:attr:`RoundContext.campaign`); else
            ``None``.
        locked: ``(Squadmate, dice)`` Locked on Downed sheets when this Round's Pool was gathered (Preparation
            Phase; the sheet file's ``downed_locks``); ``revived_dice``: the Revived Squadmates whose Locked dice
            are due back in the Pool once the current Actions are over (ruling ``revived_locked_dice = at_revive``).
        analysis_token: the spaces Liara's Analysis token stands right of the start of its track.
        command_ready: Shepard's Ready Command tokens; ``aim``: Garrus' Aim Value (his Aim Tracker); ``chatika``:
            the hex of Tali's drone token (``None``: no Combat Drone in the squad); ``enraged``: Wrex's Enraged Rage
            tokens (Core Abilities; the sheet file's numbers).
        mines: Garrus' Proximity Mine tokens left (Squadmate Commentary › Garrus Vakarian › Proximity Mines: three
            at the start of each Mission once unlocked, three taken at once when unlocked during one).
        calibrated: ``(Round, Squadmate)`` of each turn in which Calibrate was used (once per turn).
        blasts: ``(Round, Squadmate, die face, bonus Damage, why)`` of each resolved Action on a box another box
            ``repeats`` (Wrex's Shotgun Blast, for Shoot It 46 More Times under ``shoot_it_46 = repeat_first``).
        intuition_used: the Rounds in which Shadow Broker Intuition was used (the stand-in's once per Round).
        sheets: the Squadmate Sheets this Round is played with (the file's sheet file), for what a view shows of
            them (track lengths); never compared.
        progress: ``(Mission Action rule, Progress Boxes marked)`` (Mission Rules Page; Basic Actions › Mission).
        war_readiness: War Readiness scored so far this Mission (Overview › War Readiness: Secondary Objectives,
            then the Mission's outcome).
    """

    board: Board
    on_point: str
    order: tuple[str, ...] = ()
    deck: tuple[str, ...] = ()
    discard: tuple[str, ...] = ()
    hands: tuple[tuple[str, str], ...] = ()
    pool: int = STRATEGY_DICE
    used: tuple[tuple[str, str, int], ...] = ()
    rejected: str | None = None
    dice: tuple[Die, ...] = ()
    rolled: bool = False
    revived: tuple[str, ...] = ()
    loot: tuple[tuple[Hex, tuple[str, ...]], ...] = ()
    inventory: tuple[str, ...] = ()
    round: int = 1
    reshuffled: int = 0
    rounds_to_play: int = 1
    completed: tuple[str, ...] = ()
    ending: str | None = None
    unlocked: tuple[tuple[str, str], ...] = ()
    taken: tuple[str, ...] = ()
    paragon_on_sheets: tuple[tuple[str, str], ...] = ()
    renegade: tuple[tuple[str, int], ...] = ()
    disabled_turrets: tuple[Hex, ...] = ()
    intel_marked: tuple[int, ...] = ()
    campaign_next: tuple[int, int] | None = None
    locked: tuple[tuple[str, int], ...] = ()
    revived_dice: tuple[str, ...] = ()
    war_readiness: int = 0
    progress: tuple[tuple[str, int], ...] = ()
    analysis_token: int = 0
    command_ready: int = 0
    aim: int = 0
    chatika: Hex | None = None
    enraged: int = 0
    mines: int = 0
    calibrated: tuple[tuple[int, str], ...] = ()
    blasts: tuple[tuple[int, str, str, int, str], ...] = ()
    intuition_used: tuple[int, ...] = ()
    sheets: Mapping[str, Sheet] | None = dc_field(default=None, compare=False, repr=False)

    def hand(self, name: str) -> str | None:
        return next((c for s, c in self.hands if s == name), None)


@dataclass(frozen=True)
class RoundContext(Context):
    """What the Round's steps read and never change: the rulings, the map (``terrain``), the Squadmate ``sheets``,
    the Hazard ``cards`` (name -> instructions) and the declared ``turns``. ``cuts`` (``None``, or a list
    :func:`play_round` passes in) is an observer, never read by a step: each Squadmate's turn appends ``(its final
    state, ((label, state, steps told), ...))`` there, the points where a step-through shows the board within the turn
    (after each Action, Opportunity Attack, Hazard card task); see :func:`split_turn_frames`."""

    terrain: Any = None
    sheets: Mapping[str, Sheet] | None = None
    cards: Mapping[str, tuple[Instruction, ...]] | None = None
    turns: tuple[Turn, ...] = ()
    rounds: int = 1
    reshuffles: tuple[tuple[str, ...], ...] = ()
    objectives: Mapping[str, tuple[str, str | None]] | None = None
    time_limit: int | None = None
    unlocks: Mapping[str, str] | None = None
    paragon_dice: int = 0
    renegade_victories: int | None = None
    intel_gathered: int = 0
    intel_unlocks: tuple[tuple[str, str], ...] = ()
    loyalty_mission: str | None = None
    cuts: list | None = None
    mission_actions: Mapping[str, Any] | None = None
    """The Mission Rules page's rules allowing the Mission Action (name -> :class:`MissionActionSpec`)."""
    war_readiness: Mapping[str, int] | None = None
    """War Readiness per outcome (``paragon``, ``renegade``, ``loyalty``, ``secondary``, ``failure``) and ``marked``;
    ``None``: the Mission has no Objectives (nothing is scored)."""
    war_standin: bool = True
    """The amounts are :data:`WAR_READINESS_STANDIN` (the file gives no ``[war_readiness]``)."""
    downed_locks: Mapping[str, int] | None = None
    """The round file's ``downed_locks``: per Squadmate, the dice its Downed sheet Locks, over the sheet file's."""
    standin_sheets: bool = True
    """The sheets are the built-in stand-in (steps say a sheet's number is one)."""
    standin_sheet_file: bool = True
    """The sheet file is the built-in stand-in (a round file's ``downed_locks`` aside): the Core Ability numbers are
    a stand-in."""
    campaign: bool = False
    """The file tracks the campaign's Paragon and Renegade Victories (it gives ``paragon_dice`` or
    ``renegade_victories``): a Victory then says what the next Mission starts with."""

    def turn_of(self, name: str, round: int = 1) -> Turn | None:
        return next((t for t in self.turns if t.squadmate == name and t.round == round), None)

    def section(self, state: "RoundState", name: str) -> str:
        """A trace section: ``name``, prefixed with the Round when the file plays several."""
        return f"Round {state.round} · {name}" if self.rounds > 1 else name


# --- Preparation Phase ----------------------------------------------------------------------------------------------


def turn_order(squadmates, on_point: str) -> tuple[str, ...]:
    """Squadmate Phase: the On Point Squadmate first, then clockwise (seating order)."""
    names = [s.name for s in squadmates]
    i = names.index(on_point)
    return tuple(names[i:] + names[:i])


def start_of_round(state: RoundState, ctx: RoundContext) -> tuple[RoundState, tuple[Step, ...]]:
    """Inferno Icons: at the start of the Round each Squadmate and Minion in an Inferno hex suffers 1 Damage (Elites
    are unaffected); nothing to say when nobody stands in one. With :attr:`RoundContext.cuts`, a step-through's frame
    ends after each character's Inferno Damage."""
    return _observed(_start_of_round, state, ctx)


def _start_of_round(state: RoundState, ctx: RoundContext, cut) -> tuple[RoundState, tuple[Step, ...]]:
    """:func:`start_of_round`'s rules; ``cut(label, state, n)`` (or ``None``) observes the frame boundaries."""
    board, steps = inferno_start_of_round(ctx.terrain, state.board, None if cut is None else (
        lambda b, n: _mark(cut, "Inferno", replace(state, board=b), n)))
    new, more = _failure_scored(state, replace(state, board=board), ctx)
    return new, tuple(s.in_section(ctx.section(state, "Start of the Round")) for s in [*steps, *more])


def _observed(rules, state: RoundState, ctx: RoundContext, *args) -> tuple[RoundState, tuple[Step, ...]]:
    """``rules(state, ctx, *args, cut)``; with :attr:`RoundContext.cuts` the frame boundaries it tells ``cut`` are
    recorded there with its final state (see :func:`split_turn_frames`)."""
    if ctx.cuts is None:
        return rules(state, ctx, *args, None)
    group: list = []
    new, steps = rules(state, ctx, *args, lambda label, st, k: group.append((label, st, k)))
    if group:
        ctx.cuts.append((new, tuple(group)))
    return new, steps


def preparation_phase(state: RoundState, ctx: RoundContext) -> tuple[RoundState, tuple[Step, ...]]:
    """Preparation Phase: a Hazard card drawn face-down for each Squadmate, none for a Downed one; then the On Point
    player gathers the twelve Strategy dice into the Pool. With :attr:`RoundContext.cuts`, a step-through's frame
    ends after each card drawn and after the Pool is gathered."""
    return _observed(_preparation, state, ctx)


def _preparation(state: RoundState, ctx: RoundContext, cut) -> tuple[RoundState, tuple[Step, ...]]:
    """:func:`preparation_phase`'s rules; ``cut(label, state, n)`` (or ``None``) observes the frame boundaries."""
    order = turn_order(state.board.squadmates, state.on_point)
    hands, steps = [], _renegade_held(state, ctx)
    if steps:
        _mark(cut, "Renegade tokens held", state, len(steps))
    for name in order:
        if state.board.squadmate(name).downed:
            steps.append(Step(f"{name} is Downed: no Hazard card", S.PREPARATION_PHASE, marks=(name,)))
            continue
        if not state.deck:
            state, more = _reshuffle(state, ctx)
            steps += more
            _mark(cut, "Hazard deck reshuffled", state, len(steps))
            if not state.deck:
                steps.append(Step(f"No Hazard card left to draw for {name}: the deck and the discard pile are empty "
                                  "(every card is in a Squadmate's hand)", S.HAZARD_CARD, marks=(name,)))
                continue
        card = state.deck[0]
        hands.append((name, card))
        steps.append(Step(f"Hazard card {card} drawn face-down for {name}", S.PREPARATION_PHASE,
                          facts={"squadmate": name, "card": card}, marks=(name,)))
        state = replace(state, deck=state.deck[1:])
        _mark(cut, f"Hazard card for {name}", replace(state, hands=tuple(
            h for h in state.hands if h[0] not in dict(hands)) + tuple(hands)), len(steps))
        if not state.deck and state.discard and ctx.rulings.reading("hazard_reshuffle") == "when_empty":
            state, more = _reshuffle(state, ctx)
            steps += more
            _mark(cut, "Hazard deck reshuffled", replace(state, hands=tuple(
                h for h in state.hands if h[0] not in dict(hands)) + tuple(hands)), len(steps))
    deck = state.deck
    locks = _downed_locks(state, ctx)
    downed = [q.name for q in state.board.squadmates if q.downed]
    n = STRATEGY_DICE - sum(k for _, k in locks)
    detail = ("Dice Locked on a Downed Squadmate's sheet reduce the Pool: "
              + ", ".join(f"{plural(k, 'die', 'dice')} on {who}'s" for who, k in locks)
              + " (the back of the sheet, not printed in the rulebook: the sheet file's downed_locks, "
              f"{'a stand-in' if ctx.standin_sheets else 'the file given'}); they stay off the Pool while the "
              "Squadmate is Downed." if locks else
              f"{' and '.join(downed)} Downed, but the file's downed_locks Lock no die on "
              f"{'that sheet' if len(downed) == 1 else 'those sheets'}: all twelve form the Pool." if downed else
              "No Squadmate is Downed: no die is Locked on a sheet, all twelve form the Pool.")
    steps.append(Step(f"The Strategy Pool: {plural(n, 'Strategy die', 'Strategy dice')}, gathered by "
                      f"{state.on_point} (On Point)", S.STRATEGY_POOL if not locks else S.DOWNED_SQUADMATES, detail,
                      facts={"pool": n, **({"locked_by_downed": dict(locks)} if locks else {})},
                      marks=tuple(w for w, _ in locks)))
    held = tuple(h for h in state.hands if h[0] not in dict(hands))
    _mark(cut, "Strategy Pool", replace(state, order=order, hands=held + tuple(hands), pool=n,
                                        dice=tuple(Die(f"S{i + 1}") for i in range(n)), used=(),
                                        revived=()), len(steps))
    if ctx.paragon_dice:
        steps += _paragon_dice_join(state, ctx)
    held = tuple(h for h in state.hands if h[0] not in dict(hands))
    new = replace(state, order=order, deck=deck, hands=held + tuple(hands), pool=n + ctx.paragon_dice, locked=locks,
                  revived_dice=(),
                  dice=tuple(Die(f"S{i + 1}") for i in range(n))
                  + tuple(Die(f"P{i + 1}", paragon=True) for i in range(ctx.paragon_dice)),
                  used=(), revived=(), paragon_on_sheets=())
    return new, tuple(s.in_section(ctx.section(state, "Preparation Phase")) for s in steps)


def _downed_locks(state: RoundState, ctx: RoundContext) -> tuple[tuple[str, int], ...]:
    """Preparation Phase; Squadmate Sheets › Downed Squadmates: ``(Squadmate, dice)`` Locked on the sheet of each
    Downed Squadmate when the On Point player gathers the Pool (the number is printed on the back of the sheet, which
    the rulebook does not reproduce: the sheet file's ``downed_locks``; the built-in stand-in says 3, a Squadmate's
    own three dice of the turn it cannot take). Nothing is Locked for a Squadmate with none."""
    locks = ((s.name, (ctx.downed_locks or {}).get(s.name, ctx.sheets[s.name].downed_locks))
             for s in state.board.squadmates if s.downed)
    return tuple((n, k) for n, k in locks if k)


def _renegade_held(state: RoundState, ctx: RoundContext) -> list[Step]:
    """Setting Up a Mission (step G); Renegade Tokens: when the file tracks them (``renegade_victories``), the Renegade
    tokens each Squadmate holds as the Round begins, told first in the Preparation Phase: in Round 1 one per Renegade
    Victory on the Campaign Map, later what is left after the tokens spent (each goes back to the game box)."""
    if ctx.renegade_victories is None:
        return []
    held = ", ".join(f"{n} {k}" for n, k in state.renegade)
    why = (f"Each Squadmate received one per Renegade Victory marked on the Campaign Map (the file's "
           f"renegade_victories = {ctx.renegade_victories}) at the start of the Mission"
           + ("" if state.round == 1 else "; a token spent went back to the game box") + ".")
    return [Step(f"Renegade tokens held: {held}", S.RENEGADE_TOKENS, why,
                 facts={"renegade_tokens": dict(state.renegade)}, marks=tuple(n for n, _ in state.renegade))]


def _paragon_dice_join(state: RoundState, ctx: RoundContext) -> list[Step]:
    """Paragon Dice: the file's ``paragon_dice`` (one per Paragon Victory on the Campaign Map) join the Strategy
    Pool each Round; one set aside last Round because the Squadmate whose sheet held it was Downed comes back now,
    whether or not that Squadmate is still Downed."""
    ids = [f"P{i + 1}" for i in range(ctx.paragon_dice)]
    steps = [Step(f"{plural(ctx.paragon_dice, 'Paragon die', 'Paragon dice')} ({', '.join(ids)}) "
                  f"{'joins' if ctx.paragon_dice == 1 else 'join'} the Strategy Pool", S.PARAGON_DICE,
                  "One per Paragon Victory marked on the Campaign Map (the file's paragon_dice); a Squadmate may take "
                  "Paragon dice on top of its three dice (a fourth or fifth Action).",
                  facts={"paragon_dice": ctx.paragon_dice})]
    for who, die in state.paragon_on_sheets:
        if state.board.squadmate(who).downed:
            steps.append(Step(f"{die}, set aside when {who} was Downed, is back in the Strategy Pool", S.PARAGON_DICE,
                              "At the start of the next Round it returns whether or not the Squadmate is still "
                              "Downed.", facts={"die": die}, marks=(who,)))
    return steps


def _reshuffle(state: RoundState, ctx: RoundContext) -> tuple[RoundState, list[Step]]:
    """Step C: Hazard Card: the deck ran out: the discard pile is shuffled and turned face-down as the new deck; its
    order is the file's next ``reshuffles`` entry (it must hold exactly the discarded cards), else drawn from the
    seed.

    Raises:
        ScenarioError: a declared order that is not the discard pile (field ``reshuffles[k]``).
    """
    pile = state.discard
    if not pile:
        return state, []
    k = state.reshuffled
    if k < len(ctx.reshuffles):
        order = ctx.reshuffles[k]
        if sorted(order) != sorted(pile):
            raise ScenarioError(f"reshuffles[{k}]", f"{', '.join(order)} is not the discard pile "
                                f"({', '.join(pile)})", "the discarded cards, each once, in the new deck's order")
        how = "the order the file gives"
    else:
        rest, order = list(pile), []
        while rest:
            order.append(rest.pop(ctx.dice.roll(len(rest), "Hazard deck shuffle") - 1))
        order = tuple(order)
        how = "shuffled with the seed"
    st = Step(f"The Hazard deck ran out: the discard pile ({plural(len(pile), 'card')}) is shuffled into a new deck: "
              f"{', '.join(order)}", S.HAZARD_CARD, f"Top card first; {how}.", facts={"deck": list(order)})
    return replace(state, deck=tuple(order), discard=(), reshuffled=k + 1), [st]


# --- a Squadmate's turn ---------------------------------------------------------------------------------------------


def turn_numbers(state: RoundState) -> range:
    """The turns of the Squadmate Phase: one per Squadmate, in :attr:`RoundState.order`."""
    return range(1, len(state.order) + 1)


def round_stopped(state: RoundState) -> bool:
    """The Mission has ended (Shepard is Downed, an Objective that ends it was completed, time ran out) or a
    declaration was refused."""
    return state.board.failed or state.rejected is not None or state.ending is not None


def _space(state: RoundState, ctx: RoundContext, who: str, act: Action) -> tuple[str, int]:
    """Action Spaces: the box's first free Action Space that takes the die; refusals name the rule and the field."""
    sheet = ctx.sheets[who]
    box = sheet.box(act.box)
    if box is None:
        raise RuleViolation(f"{who}'s sheet has no box {act.box!r} (boxes: {', '.join(b.name for b in sheet.boxes)})",
                            S.SQUADMATE_SHEETS, field=f"{act.field}.box", step="Step B: Actions")
    if not box.unlocked and (who, box.name) not in state.unlocked:
        raise RuleViolation(f"{who}'s {box.name} is a Locked Ability: it cannot be used until unlocked",
                            S.UNLOCKING_ABILITIES, field=f"{act.field}.box", step="Step B: Actions")
    if not box.spaces:
        raise RuleViolation(f"{who}'s {box.name} is a Special Rule: it has no Action Space to take a die",
                            S.SQUADMATE_SHEETS, field=f"{act.field}.box", step="Step B: Actions")
    free = [k for k in range(len(box.spaces)) if (who, box.name, k) not in state.used]
    if not free:
        raise RuleViolation(f"every Action Space of {who}'s {box.name} already holds a die this Round",
                            S.ACTIONS, field=f"{act.field}.box", step="Step B: Actions")
    fits = [k for k in free if act.die in FACES_FOR[box.spaces[k]]]
    if not fits:
        kinds = ", ".join(sorted({box.spaces[k] for k in free}))
        raise RuleViolation(f"a {act.die} die cannot go on {who}'s {box.name} ({kinds} Action Space)",
                            S.ACTION_SPACES, field=f"{act.field}.die", step="Step B: Actions")
    return box.name, fits[0]


def _hit(board: Board, ctx: RoundContext, who: str, enemy, amount: int, source: str, seen=None, drone: bool = False
         ) -> tuple[Board, list[Step]]:
    """Damaging Enemies: ``amount`` Damage from ``who`` to ``enemy`` (Elites' Resilience Tracker included); a
    Defeated Minion goes back to the Enemy Bag and the Squadmate gains 1 XP (Earning XP; for a Grenade as the ruling
    ``xp_outside_actions`` reads it); an Enemy with the React Tag Damaged but not Defeated moves one hex toward
    ``who`` (The React Tag). ``seen(label, board, n)`` (or ``None``): the frame-boundary observer, told the board
    after the Damage when a React move follows (``n``: steps told so far here). ``drone``: the Damage is Chatika's,
    whose React Tag move the ruling ``drone_react`` decides (``no_move``: toward no one, said in a step)."""
    from .damage import react_inferno, react_tag
    from .units import defeat_earns_xp

    res = enemy_damage(enemy, amount, by=who)
    steps = [s for s in res.steps if not (res.react and s.rule == S.REACT_TAG)]
    board = board.with_enemy(enemy.name, res.enemy).logged(*enemy_damage_happenings(enemy, res, amount, who))
    if res.defeated:
        if enemy.kind == "minion":
            board = board.returned(enemy)
        _seen(seen, f"Damage to {enemy.name}", board, len(steps))
        if defeat_earns_xp(source, ctx.rulings):
            sq, more = gain_xp(board.squadmate(who), enemy.name)
            board = board.with_squadmate(sq)
            steps += more
        else:
            what = "a Core Ability trigger is not an Action" if source == "core_ability" else \
                "a Grenade is not an Ability"
            steps.append(Step(f"{who} gains no XP for {enemy.name}: {what} (ruling "
                              f"xp_outside_actions = {ctx.rulings.reading('xp_outside_actions')})", S.EARNING_XP,
                              marks=(who,)))
    elif res.react and drone and ctx.rulings.reading("drone_react") == "no_move":
        steps.append(Step(f"{enemy.name} has the React Tag but moves toward no one: Chatika, a token, Damaged it "
                          "(ruling drone_react = no_move)", S.REACT_TAG, marks=(enemy.name,)))
    elif res.react:
        _seen(seen, f"Damage to {enemy.name}", board, len(steps))
        board, more = react_tag(board, ctx, enemy.name, who)
        steps += more
        moved, burn = react_inferno(board, ctx, enemy.name, enemy.position)
        if burn:                                     # the React move's frame ends before the Inferno hex's Damage
            _seen(seen, f"React Tag: {enemy.name}", board, len(steps))
            board, steps = moved, steps + burn
        if board.enemy(enemy.name) is None:          # Defeated by the Inferno hex its React move entered
            return board, steps
        if board.krogan is not None and ctx.rulings.reading("krogan_moves") == "any_move":
            _seen(seen, f"React Tag: {enemy.name}", board, len(steps))
            board, more = what_krogan_do_best(ctx.terrain, board, enemy.name, enemy.position,
                                              board.enemy(enemy.name).position)
            steps += more
    return board, steps


def _seen(seen, label: str, board: Board, told: int) -> None:
    """Tell a board observer (if any) the board after ``told`` steps (see :func:`_hit`)."""
    if seen is not None:
        seen(label, board, told)


def _shifted(seen, base: int):
    """``seen`` for a part whose steps come after ``base`` steps already told (``None`` stays ``None``)."""
    return None if seen is None else (lambda label, b, k: seen(label, b, base + k))


def _ability(board: Board, ctx: RoundContext, who: str, act: Action, seen=None, bonus: tuple[int, str] = (0, "")
             ) -> tuple[Board, list[Step]]:
    """Ability Actions: the box's effect on its target Enemy (Damage, Stun, a Biotic Effect token), checked against
    the box's range and Line of Fire; Enhanced effects with an Enhanced die (Enhanced Actions). ``seen``: the board
    observer of :func:`_hit`, also told the board after the Damage when a Stun or Biotic Effect follows. ``bonus``:
    ``(Damage, why)`` added by a Core Ability token spent on it (:func:`_core_bonus`)."""
    box = ctx.sheets[who].box(act.box)
    if not box.has_effect:
        return board, [Step(f"{who}'s {box.name}: its effect is not modelled by the stand-in sheet (die placed)",
                            S.ABILITY_ACTIONS)]
    if act.target is None:
        raise RuleViolation(f"{box.name} needs a target Enemy", S.ABILITY_ACTIONS, field=f"{act.field}.target",
                            step="Step B: Actions")
    enemy = board.enemy(act.target)
    if enemy is None:
        raise RuleViolation(f"{act.target} is no longer on the map", S.ABILITY_ACTIONS,
                            field=f"{act.field}.target", step="Step B: Actions")
    me = board.squadmate(who)
    terrain = ctx.terrain
    if enemy.shrouded or shrouded_now(terrain, board, enemy.position):
        raise RuleViolation(f"{act.target} is in a Shrouded area and cannot be targeted", S.SHROUDED_AREAS,
                            field=f"{act.field}.target", step="Step B: Actions")
    dist = terrain.distance(me.position, enemy.position)
    if box.range is not None and (dist is None or dist > box.range):
        raise RuleViolation(f"{act.target} is {dist if dist is not None else 'unreachable'} hexes from {who}; "
                            f"{box.name} reaches {box.range}", S.COUNTING_DISTANCES, field=f"{act.field}.target",
                            step="Step B: Actions")
    if box.line_of_fire and not terrain.line_of_fire(me.position, enemy.position):
        raise RuleViolation(f"{act.target} is not in {who}'s Line of Fire", S.LINE_OF_FIRE,
                            field=f"{act.field}.target", step="Step B: Actions")
    enhanced = act.die == "enhanced"
    steps: list[Step] = []
    if box.ranged_only:
        if not enemy.has_tag("Ranged"):
            raise RuleViolation(f"{box.name} chooses an Enemy with the Ranged Tag: {act.target} has none",
                                S.COMMENTARY_TALI_SABOTAGE_ENEMY, field=f"{act.field}.target", step="Step B: Actions")
        if board.tags_ignored(enemy):
            steps.append(Step(f"{act.target} has a Biotic Effect token, so Asari Controller makes it count as having "
                              f"no Tags; {who}'s {box.name} may still choose it for its Ranged Tag",
                              S.COMMENTARY_TALI_SABOTAGE_ENEMY, "The commentary: an Enemy with a Ranged Tag can still "
                              "be chosen even if it has a Biotic Effect token, once Liara has Asari Controller.",
                              facts={"enemy": act.target, "ranged": True}, marks=(act.target,)))
    if box.biotic_target == "no_effect" and enemy.biotic_effect:
        if ctx.rulings.reading("warp_on_biotic") == "no_effect":
            return board.shown(1), [Step(f"{who}'s {box.name} has no effect on {act.target}: it already has a Biotic "
                                         "Effect token (the die stays on the Action Space; ruling warp_on_biotic = "
                                         "no_effect)", COMMENTARY.get(box.name, S.BIOTIC_EFFECTS),
                                         "An Enemy cannot have more than one Biotic Effect token (Biotic Effects).",
                                         facts={"enemy": enemy.name, "effect": False}, marks=(who, act.target))]
        steps.append(Step(f"{act.target} already has a Biotic Effect token: {who}'s {box.name} loses only its token "
                          "(ruling warp_on_biotic = token_only)", COMMENTARY.get(box.name, S.BIOTIC_EFFECTS),
                          marks=(act.target,)))
    if box.biotic_effect and enemy.biotic_effect and box.name in COMMENTARY:
        steps.append(Step(f"{box.name} may still be used on {act.target}, which already has a Biotic Effect token: "
                          + ("its Damage is dealt, but " if box.damage else "") + "no second token is placed",
                          COMMENTARY[box.name], marks=(act.target,)))
    if enhanced and box.enhanced_min_distance is not None and (dist or 0) < box.enhanced_min_distance:
        enhanced = False
        steps.append(Step(f"{act.target} is {dist} hexes away: the Enhanced {box.name} needs "
                          f"{box.enhanced_min_distance} or more, so the standard version is used",
                          S.SQUADMATE_COMMENTARY, marks=(act.target,)))
    version = "Enhanced " if enhanced else ""
    extra = f", +{bonus[0]} Damage: {bonus[1]}" if bonus[0] else ""
    steps.insert(0, Step(f"{who} uses {version}{box.name} on {act.target} ({plural(dist, 'hex', 'hexes')}{extra})",
                         S.ENHANCED_ACTIONS if enhanced else S.ABILITY_ACTIONS, marks=(who, act.target)))
    if box.damage:
        amount = box.damage[1 if enhanced else 0] + bonus[0]
        board, more = _hit(board, ctx, who, enemy, amount, "action", _shifted(seen, len(steps)))
        steps += more
        enemy = board.enemy(enemy.name)
        if enemy is not None and (box.stun or box.biotic_effect):
            _seen(seen, f"Damage to {enemy.name}", board, len(steps))
    if box.stun and enemy is not None:
        e2, more = stun(enemy)
        board = board.with_enemy(enemy.name, e2)
        steps += more
        enemy = e2
    if box.biotic_effect and enemy is not None:
        e2, more = give_biotic_effect(enemy)
        board = board.with_enemy(enemy.name, e2)
        steps += more
    return board.shown(len(steps)), steps


COMMENTARY = {"Warp": S.COMMENTARY_SHEPARD_WARP, "Lift Grenade": S.COMMENTARY_WREX_LIFT_GRENADE,
              "Lift": S.COMMENTARY_LIARA_LIFT, "Warp Ammo": S.COMMENTARY_LIARA_LIFT,
              "Biotic Explosion": S.COMMENTARY_LIARA_LIFT}
"""Ability Boxes whose Biotic Effect rule the Squadmate Commentary states for that Ability (Warp: no effect on an
Enemy with a token; Lift Grenade, and Liara's Lift, Warp Ammo and Biotic Explosion: one token per Enemy, so no
second one); the steps cite it."""


def _spend_mine(state: RoundState, ctx: RoundContext, who: str, act: Action, box: str
                ) -> tuple[RoundState, list[Step]]:
    """Squadmate Commentary › Garrus Vakarian › Proximity Mines: the Action spends one of the Proximity Mine tokens
    (three, replenished at the start of each Mission once unlocked; what a mine does is the sheet file's, a
    stand-in in the built-in sheets).

    Raises:
        RuleViolation: no token left (field ``turns[i].actions[j].box``).
    """
    if state.mines < 1:
        raise RuleViolation(f"{who} has no Proximity Mine token left: they are replenished only at the start of the "
                            "next Mission", S.COMMENTARY_GARRUS_PROXIMITY_MINES, field=f"{act.field}.box",
                            step="Step B: Actions")
    st = Step(f"{who} places one of his Proximity Mine tokens ({state.mines} -> {state.mines - 1} left)",
              S.COMMENTARY_GARRUS_PROXIMITY_MINES, "The tokens are replenished at the start of each Mission. What a "
              f"mine does is printed on the sheet, not in the rulebook: the sheet file's {box} ({_standin(ctx)}).",
              facts={"mines": state.mines - 1}, marks=(who,))
    return replace(state, mines=state.mines - 1), [st]


def _commentary_bonus(state: RoundState, ctx: RoundContext, who: str, act: Action, box: str,
                      bonus: tuple[int, str]) -> tuple[RoundState, tuple[int, str], list[Step]]:
    """The Squadmate Commentary's Special Rules that add Damage to an Ability Action, over ``bonus`` (the Core
    Ability's, :func:`_core_bonus`):

    * ``calibrate`` (Garrus Vakarian › Calibrate, the book's numbers): with an unlocked Special Rule box listing
      ``box`` in its ``calibrate``, Aim Value 2 or 3 adds 1 Damage, 4 or more adds 2, below 2 none; once per turn;
      Abilities it does not list (Armor-Piercing Rounds) refused. Whether the Aim Tracker goes back to 0 is the
      ruling ``calibrate_aim``. The Aim Value is read before an ``aim`` spend on the same Action.
    * ``battlemaster`` (Urdnot Wrex › Krogan Battlemaster): with an unlocked box with ``rage_bonus``, one Enraged
      Rage token is flipped Calm for that much more Damage; refused when every Rage token is Calm. Once per Action:
      the flag is one per Action. The effect is the sheet file's (a stand-in in the built-in sheets).

    Raises:
        RuleViolation: no such unlocked box, not an Ability it boosts, a second Calibrate this turn, every Rage token
            Calm (field ``turns[i].actions[j].calibrate`` / ``.battlemaster``).
    """
    extra, why = bonus
    whys = [why] if why else []
    steps: list[Step] = []
    step = "Step B: Actions"
    sheet = ctx.sheets[who]
    if act.calibrate:
        f = f"{act.field}.calibrate"
        cal = next((b for b in sheet.boxes if b.calibrate), None)
        if cal is None or not is_unlocked(state, ctx, who, cal.name):
            raise RuleViolation(f"{who} has no unlocked Calibrate" if cal is None else
                                f"{who}'s {cal.name} is a Locked Ability: it cannot be used until unlocked",
                                S.UNLOCKING_ABILITIES if cal else S.COMMENTARY_GARRUS_CALIBRATE, field=f, step=step)
        if box.lower() not in {c.lower() for c in cal.calibrate}:
            raise RuleViolation(f"{cal.name} has no effect on {box}: only {' and '.join(cal.calibrate)} can deal its "
                                "additional Damage", S.COMMENTARY_GARRUS_CALIBRATE, field=f, step=step)
        if (state.round, who) in state.calibrated:
            raise RuleViolation(f"{who} already used {cal.name} this turn: only once per turn",
                                S.COMMENTARY_GARRUS_CALIBRATE, field=f, step=step)
        aim = state.aim
        n = next((b for least, b in CALIBRATE_BONUS if aim >= least), 0)
        reading = ctx.rulings.reading("calibrate_aim")
        after = 0 if reading == "spent" else aim
        state = replace(state, calibrated=state.calibrated + ((state.round, who),),
                        aim=after if not act.aim else state.aim)
        tracker = (f"the Aim Tracker back to 0 (ruling calibrate_aim = spent)" if reading == "spent" else
                   "the Aim Tracker stays (ruling calibrate_aim = kept)")
        steps.append(Step(f"{who}'s {cal.name} on {box}: Aim Value {aim} -> +{n} Damage; {tracker}",
                          S.COMMENTARY_GARRUS_CALIBRATE, "Aim Value 2 or 3: 1 additional Damage; 4 or more: 2; "
                          "once per turn.", facts={"aim": aim, "damage": n}, marks=(who,)))
        if n:
            extra += n
            whys.append(f"{cal.name} (Aim Value {aim})")
    if act.battlemaster:
        f = f"{act.field}.battlemaster"
        kb = next((b for b in sheet.boxes if b.rage_bonus), None)
        if kb is None or not is_unlocked(state, ctx, who, kb.name):
            raise RuleViolation(f"{who} has no unlocked Krogan Battlemaster" if kb is None else
                                f"{who}'s {kb.name} is a Locked Ability: it cannot be used until unlocked",
                                S.UNLOCKING_ABILITIES if kb else S.COMMENTARY_WREX_BATTLEMASTER, field=f, step=step)
        if state.enraged < 1:
            raise RuleViolation(f"every one of {who}'s Rage tokens shows its Calm side: {kb.name} cannot be used",
                                S.COMMENTARY_WREX_BATTLEMASTER, field=f, step=step)
        n = kb.rage_bonus
        state = replace(state, enraged=state.enraged - 1)
        steps.append(Step(f"{who}'s {kb.name} on {box}: one Enraged Rage token flipped Calm ({state.enraged + 1} -> "
                          f"{state.enraged} Enraged), +{n} Damage", S.COMMENTARY_WREX_BATTLEMASTER,
                          "Not with every Rage token Calm; once per Action. What it gives is printed on the sheet, "
                          f"not in the rulebook: the sheet file's rage_bonus ({_standin(ctx)}).",
                          facts={"enraged": state.enraged, "damage": n}, marks=(who,)))
        extra += n
        whys.append(kb.name)
    return state, (extra, " and ".join(whys)), steps


def _energy_drain(board: Board, ctx: RoundContext, who: str, box: str) -> tuple[Board, list[Step]]:
    """Squadmate Commentary › Tali'Zorah nar Rayya › Energy Drain: after its Damage the Squadmate regains the box's
    ``regain_shield`` Shield Points (the sheet file's number, a stand-in), up to its maximum; with full Shield Points
    the Damage was still dealt and the regain is simply ignored."""
    b = ctx.sheets[who].box(box)
    sq = board.squadmate(who)
    if sq.downed:
        return board, []
    if sq.shield_points >= sq.shield_points_max:
        return board.shown(1), [Step(f"{box}: {who} has full Shield Points ({sq.shield_points}): the Damage is dealt, "
                                     "the Shield Point to regain is ignored", S.COMMENTARY_TALI_ENERGY_DRAIN,
                                     facts={"squadmate": who, "shield_points": sq.shield_points, "regained": 0},
                                     marks=(who,))]
    new = min(sq.shield_points + b.regain_shield, sq.shield_points_max)
    st = Step(f"{box}: {who} regains {plural(new - sq.shield_points, 'Shield Point')} ({sq.shield_points} -> {new})",
              S.COMMENTARY_TALI_ENERGY_DRAIN, f"How many is printed on the sheet: the sheet file's regain_shield "
              f"({_standin(ctx)}).", facts={"squadmate": who, "shield_points": new, "regained": new - sq.shield_points},
              marks=(who,))
    return board.with_squadmate(replace(sq, shield_points=new)).shown(1), [st]


def _ability_move(state: RoundState, ctx: RoundContext, who: str, act: Action, box: str, seen=None
                  ) -> tuple[RoundState, list[Step]]:
    """An Ability that moves the Squadmate along ``act.path`` (Squadmate Commentary: Shepard's Adrenaline Rush,
    Garrus' Turian Rebel): the box's ``move_points`` Movement Points, or (``"die"``) those of the die allocated, as a
    Move Action's (Turian Rebel). Leaving an Active Enemy's adjacency provokes Opportunity Attacks (the Squadmate
    moves by choice, not forced); whether the Pin Tag ends it is the ruling ``pin_ability_move``. It is not a Move
    Action: Barrier does not trigger (Commander Shepard › Barrier, said when the Squadmate has it). Loot in the hexes
    entered is picked up (Loot Tokens: "moves into").

    Raises:
        RuleViolation: ``move_points = "die"`` with a die that shows no Move icon, or the path refused (too long, a
            hex it cannot enter; field ``turns[i].actions[j].path[k]``).
    """
    b = ctx.sheets[who].box(box)
    mp = MOVEMENT_POINTS.get(act.die) if b.move_points == "die" else b.move_points
    if mp is None:
        raise RuleViolation(f"{box} moves as many hexes as its die's Move icon gives; a {act.die} die shows none",
                            S.COMMENTARY_GARRUS_TURIAN_REBEL, field=f"{act.field}.die", step="Step B: Actions")
    steps = [Step(f"{who}'s {box}: {plural(mp, 'Movement Point')}" + (
        f" from the {_FACE_WORDS[act.die]} die, as a Move Action's" if b.move_points == "die" else ""),
        S.COMMENTARY_GARRUS_TURIAN_REBEL if b.move_points == "die" else S.ABILITY_ACTIONS,
        "Not a Move Action: an Ability that lets the Squadmate move." + (
            "" if b.move_points == "die" else f" The number is the sheet file's move_points ({_standin(ctx)})."),
        facts={"movement_points": mp}, marks=(who,))]
    pin_ends = ctx.rulings.reading("pin_ability_move") == "any_move"
    try:
        limit_words = ((f"its {_FACE_WORDS[act.die]} die", f"{act.field}.die") if b.move_points == "die" else
                       (f"{box} (the sheet file's move_points)", None))
        board, more = opportunity_attacks(ctx.terrain, state.board, who, act.path, movement_points=mp,
                                          rulings=ctx.rulings, on_step=_shifted(seen, len(steps)), ability=box,
                                          pin_ends=pin_ends, limit_words=limit_words, path_field=f"{act.field}.path")
    except RuleViolation as v:
        raise RuleViolation(v.reason, v.rule, field=f"{act.field}.{v.rejection.field}", step="Step B: Actions") from None
    steps += more
    _seen(seen, box, board, len(steps))
    state = replace(state, board=board)
    if not board.failed:
        state, more = _pick_up_loot(state, ctx, who)
        steps += more
        _seen(seen, "Loot", state.board, len(steps))
    barrier = next((x for x in ctx.sheets[who].boxes if x.move_shield and is_unlocked(state, ctx, who, x.name)), None)
    if barrier is not None and not state.board.squadmate(who).downed:
        steps.append(Step(f"{who}'s {barrier.name} does not trigger: {box} moved {who}, but it is not a Move Action",
                          S.COMMENTARY_SHEPARD_BARRIER, "Only completing a Move Action regains the Shield Point.",
                          marks=(who,)))
        state = replace(state, board=state.board.shown(1))
    return state, steps


def _sabotage_turret(state: RoundState, ctx: RoundContext, who: str, act: Action, box: str, seen=None
                     ) -> tuple[RoundState, list[Step]]:
    """Squadmate Commentary › Tali'Zorah nar Rayya › Sabotage Turret: the Turret at ``act.turret`` (within the box's
    range) deals the box's ``sabotage_turret`` Damage (the sheet file's, a stand-in) to each Enemy in its Line of Fire
    (its own hex and its one straight line: Additional Rules › Turrets); a Disabled Turret temporarily gains a Line
    of Fire for this. Enemies in a Shrouded area cannot be targeted and are skipped. The Damage is Tali's Action's
    (XP, React Tag toward her). ``seen``: the board observer of :func:`_hit`, also told the board after each Enemy's
    Damage.

    Raises:
        RuleViolation: no ``turret``, or the Turret out of range or Line of Fire (field ``turret``).
    """
    from .geometry import turret_targets

    field, step = f"{act.field}.turret", "Step B: Actions"
    b = ctx.sheets[who].box(box)
    if act.turret is None:
        raise RuleViolation(f"{box} needs the hex of the Turret it sabotages", S.COMMENTARY_TALI_SABOTAGE_TURRET,
                            field=field, step=step)
    t = next(x for x in ctx.terrain.map.turrets if x.hex == act.turret)
    me = state.board.squadmate(who).position
    dist = ctx.terrain.distance(me, t.hex)
    if b.range is not None and (dist is None or dist > b.range):
        raise RuleViolation(f"the Turret at {t.hex} is {dist if dist is not None else 'unreachable'} hexes from "
                            f"{who}; {box} reaches {b.range}", S.COUNTING_DISTANCES, field=field, step=step)
    if b.line_of_fire and not ctx.terrain.line_of_fire(me, t.hex):
        raise RuleViolation(f"the Turret at {t.hex} is not in {who}'s Line of Fire", S.LINE_OF_FIRE, field=field,
                            step=step)
    disabled = not t.active or t.hex in state.disabled_turrets
    hexes = turret_targets(ctx.terrain.map, t.hex, sabotaged=True, rulings=ctx.rulings)
    board = state.board
    hit = [e for e in board.enemies if e.position in hexes]
    steps = [Step(f"{who}'s {box}: the {'Disabled' if disabled else 'Active'} Turret at {t.hex} fires at the Enemies "
                  f"in its Line of Fire ({', '.join(e.name for e in hit) or 'none'}), {b.sabotage_turret} Damage each",
                  S.COMMENTARY_TALI_SABOTAGE_TURRET,
                  ("A Disabled Turret has no Line of Fire, but gains one for this Ability. " if disabled else "")
                  + f"Its Line of Fire: {', '.join(str(h) for h in sorted(hexes))}. The Damage is the sheet file's "
                  f"sabotage_turret ({_standin(ctx)}).",
                  facts={"turret": str(t.hex), "targets": [e.name for e in hit]}, marks=(who, str(t.hex)))]
    board = board.shown(1)
    for e in hit:
        cur = board.enemy(e.name)
        if cur is None:
            continue
        if cur.shrouded or shrouded_now(ctx.terrain, board, cur.position):
            steps.append(Step(f"{e.name} is in a Shrouded area: it cannot be targeted", S.SHROUDED_AREAS,
                              marks=(e.name,)))
            board = board.shown(1)
            continue
        board, more = _hit(board, ctx, who, cur, b.sabotage_turret, "action", _shifted(seen, len(steps)))
        steps += more
        _seen(seen, f"Damage to {e.name}", board, len(steps))
    return replace(state, board=board), steps


def _shoot_it_again(state: RoundState, ctx: RoundContext, who: str, act: Action, box: str, cut, base: int, seen=None
                    ) -> tuple[RoundState, list[Step]]:
    """Squadmate Commentary › Urdnot Wrex › Shoot It 46 More Times: the box's ``repeats`` Action (Wrex's Shotgun
    Blast, the stand-in sheet's box of that name) is resolved a second time, dealing "the same amount of Damage as the
    first".
    Which first: the ruling ``shoot_it_46``. ``twice`` (default): this Ability's die resolves it twice, on ``target``
    then on ``second_target`` (default: the same Enemy), both with this die's icon and the same bonus (a Ready
    Command token, Aim, Krogan Battlemaster spent once, on this Action). ``repeat_first``: the Shotgun Blast Wrex
    resolved earlier this turn is repeated on ``second_target`` (default ``target``) with that Action's icon and
    bonus. ``cut``/``base``: the Action's frame observer and its steps so far; ``seen``: the board observer.

    Raises:
        RuleViolation: no target (``turns[i].actions[j].target``), the second target gone
            (``.second_target``), no Shotgun Blast this turn under ``repeat_first`` (``.box``), a bonus flag under
            ``repeat_first`` (the flag's field).
    """
    sheet = ctx.sheets[who]
    rep = sheet.box(sheet.box(box).repeats)
    reading = ctx.rulings.reading("shoot_it_46")
    step = "Step B: Actions"
    if act.target is None:
        raise RuleViolation(f"{box} needs a target Enemy for its {rep.name} Action", S.COMMENTARY_WREX_SHOOT_IT_46,
                            field=f"{act.field}.target", step=step)
    steps: list[Step] = []
    if reading == "repeat_first":
        flag = next((f for f in ("command", "aim", "calibrate", "battlemaster") if getattr(act, f)), None)
        if flag is not None:
            raise RuleViolation(f"{box} deals the same Damage as the first {rep.name} (ruling shoot_it_46 = "
                                "repeat_first): nothing can be added to it", S.COMMENTARY_WREX_SHOOT_IT_46,
                                field=f"{act.field}.{flag}", step=step)
        first = next((b for b in reversed(state.blasts) if b[:2] == (state.round, who)), None)
        if first is None:
            raise RuleViolation(f"{who} resolved no {rep.name} Action this turn for {box} to repeat (ruling "
                                "shoot_it_46 = repeat_first)", S.COMMENTARY_WREX_SHOOT_IT_46,
                                field=f"{act.field}.box", step=step)
        die, bonus = first[2], (first[3], first[4])
        amount = rep.damage[1 if die == "enhanced" else 0] + bonus[0]
        steps.append(Step(f"{who}'s {box}: his {rep.name} resolved a second time, for the same {amount} Damage as the "
                          f"first (its {_FACE_WORDS.get(die, die)} icon; ruling shoot_it_46 = repeat_first)",
                          S.COMMENTARY_WREX_SHOOT_IT_46, facts={"repeats": rep.name, "damage": amount},
                          marks=(who,)))
        again = replace(act, box=rep.name, die=die, target=act.second_target or act.target)
        board, more = _second_blast(state.board.shown(1), ctx, who, act, again, _shifted(seen, len(steps)), bonus)
        return replace(state, board=board), steps + more
    state, bonus, more = _core_bonus(state, ctx, who, act, box)
    steps += more
    state, bonus, more = _commentary_bonus(state, ctx, who, act, box, bonus)
    steps += more
    amount = rep.damage[1 if act.die == "enhanced" else 0] + bonus[0]
    steps.append(Step(f"{who}'s {box}: {rep.name} resolved twice with this {_FACE_WORDS.get(act.die, act.die)} die, "
                      f"{amount} Damage each time (ruling shoot_it_46 = twice)", S.COMMENTARY_WREX_SHOOT_IT_46,
                      "The second time deals the same Damage as the first: Standard 2, Enhanced 4 on the sheet.",
                      facts={"repeats": rep.name, "damage": amount}, marks=(who,)))
    board = state.board.shown(len(steps))
    first = replace(act, box=rep.name)
    board, more = _ability_checked(board, ctx, who, first, _shifted(seen, len(steps)), bonus)
    steps += more
    second = act.second_target or act.target
    if board.enemy(second) is None:
        raise RuleViolation(f"{second} is no longer on the map after the first {rep.name}: name the second target "
                            "with second_target", S.COMMENTARY_WREX_SHOOT_IT_46, field=f"{act.field}.second_target",
                            step=step)
    _mark(cut, f"{box}: first {rep.name}", replace(state, board=board), base + len(steps))
    steps.append(Step(f"{box}: the second {rep.name}, on {second}, for the same {amount} Damage",
                      S.COMMENTARY_WREX_SHOOT_IT_46, facts={"target": second, "damage": amount}, marks=(who, second)))
    board, more = _second_blast(board.shown(1), ctx, who, act, replace(first, target=second),
                                _shifted(seen, len(steps)), bonus)
    return replace(state, board=board), steps + more


def _second_blast(board: Board, ctx: RoundContext, who: str, act: Action, again: Action, seen, bonus
                  ) -> tuple[Board, list[Step]]:
    """The second Shotgun Blast of :func:`_shoot_it_again`; a refusal about its target names ``second_target`` when
    the file gave one."""
    try:
        return _ability_checked(board, ctx, who, again, seen, bonus)
    except RuleViolation as v:
        if act.second_target is not None and v.rejection.field == f"{act.field}.target":
            raise RuleViolation(v.reason, v.rule, field=f"{act.field}.second_target", step=v.rejection.step) from None
        raise


def _ability_checked(board: Board, ctx: RoundContext, who: str, act: Action, seen=None, bonus=(0, "")
                     ) -> tuple[Board, list[Step]]:
    """:func:`_ability`, its refusals from the unit rules (Stunning an Elite...) naming the target field."""
    try:
        return _ability(board, ctx, who, act, seen, bonus)
    except RuleViolation as v:
        if v.rejection.field:
            raise
        raise RuleViolation(v.reason, v.rule, field=f"{act.field}.target", step="Step B: Actions") from None


_FACE_WORDS = {"move_2": "Move 2", "move_3": "Move 3", "standard": "Standard", "enhanced": "Enhanced",
               "move_2_or_standard": "Move 2 or Standard", "core": "Core Ability"}
"""A die face as a step names it ("a die showing Move 2"): the file's face ids in the book's words."""

def _refusal(v: RuleViolation, field: str, step: str) -> RuleViolation:
    """``v`` again, naming ``field`` (a refusal raised by the Strategy Roll's own steps names no field; their rule is
    a section title string, turned back into a reference here)."""
    rule = v.rule
    prefix = f"{S.GAME}: "
    if isinstance(rule, str) and rule.startswith(prefix):
        rule = S.ref(rule[len(prefix):])
    return RuleViolation(v.reason, rule, field=field, step=step)


def _strategy_roll(state: RoundState, ctx: RoundContext, who: str, roll: Roll, turn: Turn | None = None, mark=None
                   ) -> tuple[RoundState, list[Step]]:
    """Step A: Strategy Roll, played by the ``strategy`` kind's own steps (:func:`.strategy.begin_strategy_roll`,
    :func:`.strategy.lock_die`, then :data:`.strategy.ROLL_SEQUENCE`: roll, Renegade tokens, Core Ability triggers
    and re-rolls until no icon remains) over the dice the Pool holds now, showing what the previous player left.
    Each trigger's effect follows it (:func:`_core_ability_effects`; ``turn``: the declared turn, for Chatika's
    moves; ``mark``: the frame-boundary observer).

    Raises:
        RuleViolation: an illegal Lock (the On Point Squadmate, a die showing no known face) or Renegade use, naming
            ``turns[i].roll.lock`` / ``.renegade``; an empty Pool (``turns[i].roll``).
        ScenarioError: more fixed faces than dice in a roll round (``turns[i].roll.rolls[r]``).
    """
    step = "Step A: Strategy Roll"
    if not state.dice:
        raise RuleViolation("the Strategy Pool is empty: no die is left to roll", S.STRATEGY_ROLL, field=roll.field,
                            step=step)
    tracked = ctx.renegade_victories is not None
    tokens = dict(state.renegade).get(who, 0) if tracked else roll.renegade_tokens
    rs, steps = begin_strategy_roll(who, who == state.on_point, state.dice, tokens)
    if roll.lock is not None:
        try:
            rs, more = lock_die(rs, roll.lock, ctx.rulings)
        except RuleViolation as v:
            raise _refusal(v, f"{roll.field}.lock", step) from None
        steps += more
    sctx = StrategyContext(ctx.rulings, ctx.dice, squadmate=who, renegade_tokens=tokens,
                           fixed_rounds=roll.rolls, renegade=roll.renegade)
    try:
        final, more = run(StrategyState(roll=rs), ROLL_SEQUENCE, sctx)
    except RuleViolation as v:
        raise _refusal(v, f"{roll.field}.renegade", step) from None
    except ScenarioError as e:
        raise ScenarioError(f"{roll.field}.{e.field}", e.problem, e.allowed) from None
    base = len(steps)
    state, more = _core_ability_effects(state, ctx, who, turn, more, None if mark is None else (
        lambda label, st, k: mark(label, st, base + k)), final.roll.rolled, final.roll.trigger_rounds)
    steps += more
    track = ctx.sheets[who].analysis_track
    if track and final.roll.triggers:
        token = min(track, state.analysis_token + final.roll.triggers)
        lost = state.analysis_token + final.roll.triggers - token
        steps.append(Step(f"Analysis token: {plural(final.roll.triggers, 'space')} to the right, one per icon "
                          f"rolled ({state.analysis_token} -> {token} of {track})", S.COMMENTARY_LIARA,
                          (f"The track ends at {track}: {plural(lost, 'space')} not moved. " if lost else "")
                          + "Now Liara may decide whether to use Analysis (the track's length is the sheet's: "
                          "analysis_track, a stand-in).", facts={"analysis_token": token, "moved": token -
                                                                 state.analysis_token}, marks=(who,)))
        state = replace(state, analysis_token=token)
    if tracked:
        state = replace(state, renegade=tuple((n, final.roll.renegade_tokens if n == who else k)
                                              for n, k in state.renegade))
    return replace(state, dice=final.roll.dice, rolled=True, taken=()), steps


def _take_die(state: RoundState, ctx: RoundContext, who: str, act: Action) -> tuple[RoundState, Die]:
    """Step B: Actions: the die of the rolled Pool an Action takes (``die_id``, else the first Strategy die showing
    ``die``: a Paragon die is only taken when ``die_id`` names it), removed from the Pool.

    Raises:
        RuleViolation: no such die left, or it shows another face (field ``die_id`` / ``die``); a fourth die that is
            not a Paragon die (Paragon Dice).
    """
    want = _FACE_WORDS.get(act.die, act.die)
    if act.die_id is not None:
        d = next((d for d in state.dice if d.id == act.die_id), None)
        if d is None:
            raise RuleViolation(f"{act.die_id} is not in the Strategy Pool (left: "
                                f"{', '.join(x.id for x in state.dice) or 'none'})", S.ACTIONS,
                                field=f"{act.field}.die_id", step="Step B: Actions")
        if d.face is None or d.face.value != act.die:
            shows = _FACE_WORDS.get(d.face.value, d.face.value) if d.face else "no known face"
            raise RuleViolation(f"{act.die_id} shows {shows}, not {want}", S.ACTIONS, field=f"{act.field}.die",
                                step="Step B: Actions")
    else:
        d = next((d for d in state.dice if d.face is not None and d.face.value == act.die and not d.paragon), None)
        if d is None:
            left = ", ".join(f"{x.id} {_FACE_WORDS.get(x.face.value, x.face.value) if x.face else '?'}"
                             for x in state.dice) or "none"
            raise RuleViolation(f"no die left in {who}'s Strategy Roll shows {want} (left: {left})", S.ACTIONS,
                                field=f"{act.field}.die", step="Step B: Actions")
    _check_three_dice(state, ctx, who, act, d)
    state = replace(state, dice=tuple(x for x in state.dice if x.id != d.id), taken=state.taken + (d.id,))
    if d.paragon:
        state = replace(state, paragon_on_sheets=state.paragon_on_sheets + ((who, d.id),))
    return state, d


def _counted(state: RoundState, ctx: RoundContext) -> int:
    """The dice taken this turn that count toward the three a Squadmate must take: its Strategy dice (ruling
    ``paragon_counts_toward_three = extra_only``) or every die (``any_die``). Consulted only with Paragon dice in
    the Pool."""
    if ctx.paragon_dice and ctx.rulings.reading("paragon_counts_toward_three") == "any_die":
        return len(state.taken)
    return sum(1 for i in state.taken if not i.startswith("P"))


def _check_three_dice(state: RoundState, ctx: RoundContext, who: str, act: Action, d: Die) -> None:
    """Step B: Actions; Paragon Dice: a Squadmate takes three dice; only Paragon dice are taken on top of them.

    Raises:
        RuleViolation: a fourth die that is not a Paragon die (field ``die_id``, else ``die``).
    """
    if d.paragon or _counted(state, ctx) < DICE_PER_TURN:
        return
    field = f"{act.field}.die_id" if act.die_id else f"{act.field}.die"
    raise RuleViolation(f"{d.id} would be {who}'s fourth die: only Paragon dice are taken on top of the three",
                        S.PARAGON_DICE, field=field, step="Step B: Actions")


def _revive(board: Board, ctx: RoundContext, who: str, act: Action) -> tuple[Board, list[Step]]:
    """Basic Actions › Revive: the target, a Downed Squadmate in a hex adjacent to ``who``, is Revived with the Hit
    and Shield Points the back of its sheet gives (the sheet file's ``revived_hit_points`` /
    ``revived_shield_points``: the rulebook does not print the backs, the built-in numbers are a stand-in).

    Raises:
        RuleViolation: no target, a target that is not Downed or not adjacent (field ``target``).
    """
    step = "Step B: Actions"
    if act.target is None:
        raise RuleViolation("Revive needs a target: a Downed Squadmate in an adjacent hex", S.BASIC_ACTIONS,
                            field=f"{act.field}.target", step=step)
    me, sq = board.squadmate(who), board.squadmate(act.target)
    if not sq.downed:
        raise RuleViolation(f"{act.target} is not Downed: Revive chooses a Downed Squadmate", S.BASIC_ACTIONS,
                            field=f"{act.field}.target", step=step)
    if not ctx.terrain.adjacent(me.position, sq.position):
        raise RuleViolation(f"{act.target} at {sq.position} is not in a hex adjacent to {who} at {me.position}",
                            S.BASIC_ACTIONS, field=f"{act.field}.target", step=step)
    sheet = ctx.sheets[act.target]
    hp = min(sheet.revived_hit_points, sq.hit_points_max)
    sh = min(sheet.revived_shield_points, sq.shield_points_max)
    board = board.with_squadmate(replace(sq, downed=False, hit_points=hp, shield_points=sh))
    board = board.logged(Revived(who, act.target, hp, sh))
    st = Step(f"{who} Revives {act.target}: back in the fight with {hp} Hit Points and {sh} Shield Points",
              S.BASIC_ACTIONS, "The Revived Squadmate follows the back of its sheet, which the rulebook does not "
              "print: these numbers are the sheet file's revived_hit_points / revived_shield_points (the built-in "
              "sheets are a stand-in).", facts={"revived": act.target, "hit_points": hp, "shield_points": sh},
              marks=(who, act.target))
    return board.shown(1), [st]


def _action(state: RoundState, ctx: RoundContext, who: str, act: Action, cut=None) -> tuple[RoundState, list[Step]]:
    """Step B: one declared Action: its die (taken from a rolled Pool), its Action Space, its effect (a Move with its
    Opportunity Attacks, Revive, a Mission Action, an Ability, a Turret Disabled), the Inventory tokens used at its
    start, and the Loot picked up by a Move. ``cut(label, state, n)``: the frame-boundary observer (after each
    Opportunity Attack; ``n`` counts this Action's steps)."""
    die = None
    if state.rolled:
        state, die = _take_die(state, ctx, who, act)
    box, k = _space(state, ctx, who, act)
    if (act.command or act.aim) and (not act.resolve or not (ctx.sheets[who].box(box).damage
                                                             or ctx.sheets[who].box(box).repeats)
                                     or ctx.sheets[who].box(box).disable_turret):
        what = "a Ready Command token" if act.command else "the Aim Value"
        raise RuleViolation(f"{what} adds Damage to an Ability Action that deals Damage: {who}'s {box} "
                            + ("is placed without resolving" if not act.resolve else "deals none"),
                            S.CORE_ABILITIES, field=f"{act.field}.{'command' if act.command else 'aim'}",
                            step="Step B: Actions")
    sb = ctx.sheets[who].box(box)
    for flag, what, rule in (("calibrate", "Calibrate", S.COMMENTARY_GARRUS_CALIBRATE),
                             ("battlemaster", "Krogan Battlemaster", S.COMMENTARY_WREX_BATTLEMASTER)):
        if getattr(act, flag) and (not act.resolve or not (sb.damage or sb.repeats) or sb.move_points is not None):
            raise RuleViolation(f"{what} adds Damage to an Ability Action that deals Damage: {who}'s {box} "
                                + ("is placed without resolving" if not act.resolve else "deals none"), rule,
                                field=f"{act.field}.{flag}", step="Step B: Actions")
    if box == "Mission" and act.mission is None and act.completes is None:
        allowed = ", ".join(ctx.mission_actions or ()) or "none in this file"
        raise RuleViolation("a die goes on the Mission Action only when a rule of the Mission Rules page allows it: "
                            f"name one with mission (the file's [[mission_actions]]: {allowed})", S.BASIC_ACTIONS,
                            field=f"{act.field}.mission", step="Step B: Actions")
    state = replace(state, used=state.used + ((who, box, k),))
    face = _FACE_WORDS.get(act.die, act.die)
    what = f"{die.id} showing {face}" if die is not None else f"a die showing {face}"
    steps = [Step(f"{who} allocates {what} to {box} (Action Space {k + 1})", S.ACTION_SPACES,
                  facts={"box": box, "space": k + 1, "die": act.die, **({"die_id": die.id} if die else {})})]
    _mark(cut, f"Die on {box}", state, len(steps))
    if die is not None and die.paragon:
        steps.append(Step(f"{die.id} is a Paragon die: taken on top of the three dice", S.PARAGON_DICE,
                          f"Ruling paragon_counts_toward_three = {ctx.rulings.reading('paragon_counts_toward_three')}.",
                          facts={"paragon": die.id}, marks=(who,)))
    def seen_from(base: int, now: RoundState):
        """The board observer for a part of this Action told after ``base`` steps, over the state ``now``."""
        if cut is None:
            return None
        return lambda label, b, k: cut(label, replace(now, board=b), base + k)

    for it in act.items:
        if it.when == "start":
            state, more = _use_item(state, ctx, who, it, seen_from(len(steps), state))
            steps += more
            _mark(cut, LOOT_LABEL[it.use], state, len(steps))
    board = state.board
    if not act.resolve:
        steps.append(Step(f"{box} is not resolved: the die is only placed", S.ACTIONS))
    elif box == "Move":
        try:
            board, more = opportunity_attacks(ctx.terrain, board, who, act.path,
                                              movement_points=MOVEMENT_POINTS[act.die], rulings=ctx.rulings,
                                              on_step=seen_from(len(steps), state),
                                              limit_words=(f"its {_FACE_WORDS[act.die]} die", f"{act.field}.die"),
                                              path_field=f"{act.field}.path")
        except RuleViolation as v:
            raise RuleViolation(v.reason, v.rule, field=f"{act.field}.{v.rejection.field}",
                                step="Step B: Actions") from None
        steps += more
        _mark(cut, "Move", replace(state, board=board), len(steps))
    elif box == "Revive":
        board, more = _revive(board, ctx, who, act)
        state = replace(state, revived=state.revived + (act.target,))
        steps += more
        if dict(state.locked).get(act.target):
            _mark(cut, "Revive", replace(state, board=board), len(steps))
            k = dict(state.locked)[act.target]
            reading = ctx.rulings.reading("revived_locked_dice")
            if reading == "at_revive":
                state = replace(state, revived_dice=state.revived_dice + (act.target,))
                why = "they return to the Pool once the current Actions are over, for the next Strategy Roll"
            else:
                why = "they stay off the Pool until the next Round's Pool is gathered"
            steps.append(Step(f"{plural(k, 'die', 'dice')} Locked on {act.target}'s Downed sheet: {why} (ruling "
                              f"revived_locked_dice = {reading})", S.DOWNED_SQUADMATES,
                              facts={"locked": k, "returned": reading == "at_revive"}, marks=(act.target,)))
    elif box == "Mission" and act.mission is not None:
        state, more = _mission_action(replace(state, board=board), ctx, who, act, None if cut is None else (
            lambda label, st, k, base=len(steps): cut(label, st, base + k)))
        board = state.board
        steps += more
    elif box == "Mission" and act.completes is not None:
        state, more = _complete_objective(state, ctx, act, None if cut is None else (
            lambda label, st, k, base=len(steps): cut(label, st, base + k)))
        steps += more
    elif ctx.sheets[who].box(box).disable_turret:
        state, more = _disable_turret(state, ctx, who, act, box)
        steps += more
    elif sb.move_points is not None:
        state, more = _ability_move(replace(state, board=board), ctx, who, act, box, seen_from(len(steps), state))
        board = state.board
        steps += more
    elif sb.sabotage_turret:
        state, more = _sabotage_turret(replace(state, board=board), ctx, who, act, box, seen_from(len(steps), state))
        board = state.board
        steps += more
    elif sb.repeats:
        state, more = _shoot_it_again(replace(state, board=board), ctx, who, act, box, cut, len(steps),
                                      seen_from(len(steps), state))
        board = state.board
        steps += more
    else:
        if sb.mines:
            state, more = _spend_mine(state, ctx, who, act, box)
            steps += more
            _mark(cut, "Proximity Mine token", state, len(steps))
        state, bonus, more = _core_bonus(state, ctx, who, act, box)
        steps += more
        state, bonus, more = _commentary_bonus(state, ctx, who, act, box, bonus)
        steps += more
        if more:
            _mark(cut, " and ".join(n for n, on in (("Calibrate", act.calibrate),
                                                    ("Krogan Battlemaster", act.battlemaster)) if on),
                  state, len(steps))
        board, more = _ability_checked(board, ctx, who, act, seen_from(len(steps), state), bonus)
        steps += more
        if any((b.repeats or "").lower() == box.lower() for b in ctx.sheets[who].boxes):
            state = replace(state, blasts=state.blasts + ((state.round, who, act.die) + bonus,))
        if sb.regain_shield:
            _mark(cut, box, replace(state, board=board), len(steps))
            board, more = _energy_drain(board, ctx, who, box)
            steps += more
    state = replace(state, board=board)
    if box == "Move" and act.resolve:
        state, more = _pick_up_loot(state, ctx, who, None if cut is None else (
            lambda label, st, k, base=len(steps): cut(label, st, base + k)))
        steps += more
        if not state.board.failed:
            _mark(cut, "Move", state, len(steps))
            state, more = _move_completed(state, ctx, who)
            steps += more
    return state, steps


def _core_bonus(state: RoundState, ctx: RoundContext, who: str, act: Action, box: str
                ) -> tuple[RoundState, tuple[int, str], list[Step]]:
    """Core Abilities, spent on an Ability Action that deals Damage (the effects are the sheet file's, a stand-in in
    the built-in sheets): ``command``: one of Shepard's Ready Command tokens is flipped back (Squadmate Commentary ›
    Commander Shepard › Command Tokens) for the sheet's ``command_damage`` more Damage; who may spend one is the
    ruling ``command_self`` (consulted when Shepard does). ``aim`` (Garrus): his Aim Value is spent, that much more
    Damage, the Aim Tracker back to 0. Returns the state, ``(extra Damage, why)`` and the steps.

    Raises:
        RuleViolation: no Ready Command token, Shepard spending his own under ``command_self = others_only``, or the
            Aim Tracker at 0 (field ``turns[i].actions[j].command`` / ``.aim``).
    """
    extra, why, steps = 0, [], []
    step = "Step B: Actions"
    if act.command:
        f = f"{act.field}.command"
        commander = next((n for n, sh in ctx.sheets.items() if sh.command_tokens
                          and any(q.name == n for q in state.board.squadmates)), None)
        if commander is None:
            raise RuleViolation("no Squadmate of the squad has Command tokens (a sheet's command_tokens)",
                                S.CORE_ABILITIES, field=f, step=step)
        if who == commander and ctx.rulings.reading("command_self") == "others_only":
            raise RuleViolation(f"{who} Commands the other Squadmates: he does not spend his own Ready Command token "
                                "(ruling command_self = others_only)", S.CORE_ABILITIES, field=f, step=step)
        if state.command_ready < 1:
            raise RuleViolation(f"no Ready Command token ({commander}'s Command triggers ready them)",
                                S.COMMENTARY_SHEPARD_COMMAND, field=f, step=step)
        n = ctx.sheets[commander].command_damage
        state = replace(state, command_ready=state.command_ready - 1)
        steps.append(Step(f"{who} spends one of {commander}'s Ready Command tokens on {box}: +{n} Damage "
                          f"({state.command_ready + 1} -> {state.command_ready} Ready)", S.COMMENTARY_SHEPARD_COMMAND,
                          "The token is flipped back from its Command side. What it gives is printed on the sheet, "
                          f"not in the rulebook: the sheet file's command_damage ({_standin(ctx)})."
                          + (" Ruling command_self = shepard_too." if who == commander else ""),
                          facts={"command_ready": state.command_ready, "damage": n}, marks=(who, commander)))
        extra += n
        why.append("a Ready Command token")
    if act.aim:
        f = f"{act.field}.aim"
        if state.aim < 1:
            raise RuleViolation(f"{who}'s Aim Tracker is at 0: no Aim Value to spend", S.CORE_ABILITIES, field=f,
                                step=step)
        n = state.aim
        state = replace(state, aim=0)
        steps.append(Step(f"{who} spends his Aim Value {n} on {box}: +{n} Damage (Aim Tracker {n} -> 0)",
                          S.CORE_ABILITIES, "What Aim does is printed on the sheet, not in the rulebook (which names "
                          "the Aim Tracker and the Aim Value): the engine's stand-in effect on the sheet file's "
                          f"aim_track ({_standin(ctx)}).",
                          facts={"aim": 0, "damage": n}, marks=(who,)))
        extra += n
        why.append(f"Aim Value {n}")
    return state, (extra, " and ".join(why)), steps


def _standin(ctx: RoundContext) -> str:
    """How a step names the sheet file's numbers: the built-in stand-in, or the file given."""
    return "a stand-in" if ctx.standin_sheet_file else "the file given"


def _core_ability_effects(state: RoundState, ctx: RoundContext, who: str, turn: Turn | None, roll_steps,
                          mark=None, rolled=(), trigger_rounds=()) -> tuple[RoundState, list[Step]]:
    """Core Abilities: each icon rolled triggers the current Squadmate's Core Ability, resolved before the icons are
    re-rolled: the roll's steps with each trigger's effect told right after its "Icon on ..." step
    (:func:`_core_trigger`). A sheet whose file gives its Core Ability no effect (Liara's Analysis is told after the
    roll, :func:`_strategy_roll`) leaves the steps as they are. ``mark(label, state, n)``: the frame-boundary
    observer, told the state after each trigger's change (``n``: steps told so far), its Pool showing the faces of
    the trigger's roll round (``rolled``: :attr:`.strategy.RollState.rolled`, over the dice ``state`` holds;
    ``trigger_rounds``: :attr:`.strategy.RollState.trigger_rounds`, the roll round of each trigger).

    Raises:
        RuleViolation: a declared ``drone`` entry refused, or more entries than triggers (field
            ``turns[i].drone[k]``).
    """
    sheet = ctx.sheets[who]
    if not (sheet.command_tokens or sheet.aim_track or sheet.drone_move or sheet.rage_tokens):
        return state, list(roll_steps)
    out: list[Step] = []
    k = 0
    for st in roll_steps:
        out.append(st)
        if "trigger" not in st.facts:
            continue
        faces = {i: Face(f) for r, got in rolled if r <= trigger_rounds[k] for i, f in got}
        dice = tuple(replace(d, face=faces.get(d.id, d.face)) for d in state.dice)
        base = len(out)
        state, more = _core_trigger(state, ctx, who, turn, k, None if mark is None else (
            lambda label, s2, n, base=base, dice=dice: mark(label, replace(s2, dice=dice, rolled=True), base + n)))
        out += more
        k += 1
        if mark is not None:
            mark(f"Core Ability trigger {k}", replace(state, dice=dice, rolled=True), len(out))
    drone = turn.drone if turn is not None else ()
    if len(drone) > k:
        raise RuleViolation(f"{plural(len(drone), '[[turns.drone]] entry', '[[turns.drone]] entries')}, but {who}'s Strategy Roll triggered the Combat Drone "
                            f"{plural(k, 'time')}", S.CORE_ABILITIES, field=drone[k].field,
                            step="Step A: Strategy Roll")
    return state, out


def _core_trigger(state: RoundState, ctx: RoundContext, who: str, turn: Turn | None, k: int, mark=None
                  ) -> tuple[RoundState, list[Step]]:
    """Trigger ``k`` (from 0) of ``who``'s Core Ability (Core Abilities: "as explained on the Squadmate Sheet"; the
    rulebook names each Core Ability and its element, the sheet file gives the effect, a stand-in in the built-in
    sheets): Command readies a Command token (Components: three; Squadmate Commentary › Commander Shepard ›
    Command Tokens: Ready is the Command side up); Aim moves the Aim Tracker one space right; Combat Drone moves
    Chatika and lets it Damage an Enemy or hack a Turret (:func:`_drone`); Blood Rage flips a Calm Rage token
    Enraged (Squadmate Commentary › Urdnot Wrex › Rage Tokens) and Damages each Enemy adjacent to Wrex
    (:func:`_blood_rage`). A token or track already full: nothing more to flip or move, said so."""
    sheet = ctx.sheets[who]
    n = k + 1
    src = _standin(ctx)
    steps: list[Step] = []
    if sheet.command_tokens:
        top = sheet.command_tokens
        ready = min(top, state.command_ready + 1)
        steps.append(Step(f"Command (trigger {n}): " + (f"a Command token flipped to its Ready side ({ready} of {top} "
                                                         "Ready)" if ready > state.command_ready else
                                                         f"all {top} Command tokens are Ready: nothing to flip"),
                          S.COMMENTARY_SHEPARD_COMMAND, "A Ready Command token has its Command side up; another "
                          "Squadmate may spend one on an Action (command = true). The effect is printed on the sheet, "
                          f"not in the rulebook: the sheet file's command_tokens and command_damage ({src}).",
                          facts={"command_ready": ready}, marks=(who,)))
        state = replace(state, command_ready=ready)
    if sheet.aim_track:
        top = sheet.aim_track
        aim = min(top, state.aim + 1)
        steps.append(Step(f"Aim (trigger {n}): " + (f"the Aim Tracker moves one space right (Aim Value {state.aim} -> "
                                                     f"{aim} of {top})" if aim > state.aim else
                                                     f"the Aim Tracker is at its end ({top}): no space to move"),
                          S.CORE_ABILITIES, "The Aim Tracker is the element Garrus' Core Ability uses (Squadmate "
                          "Sheets); he may spend the Aim Value on a Damage Ability (aim = true). The track and the "
                          f"effect are printed on the sheet, not in the rulebook: the sheet file's aim_track ({src}).",
                          facts={"aim": aim}, marks=(who,)))
        state = replace(state, aim=aim)
    if sheet.rage_tokens:
        state, more = _blood_rage(state, ctx, who, n, mark)
        steps += more
    if sheet.drone_move:
        entry = turn.drone[k] if turn is not None and k < len(turn.drone) else None
        state, more = _drone(state, ctx, who, n, entry, mark)
        steps += more
    return state, steps


def _blood_rage(state: RoundState, ctx: RoundContext, who: str, n: int, mark=None) -> tuple[RoundState, list[Step]]:
    """Wrex's Blood Rage, trigger ``n``: one Calm Rage token flipped to its Enraged side (up to the sheet's
    ``rage_tokens``), then "damage to multiple Enemies at once" (Core Abilities): each Enemy adjacent to Wrex
    (Adjacency; never one in a Shrouded area, which cannot be targeted) suffers the sheet's ``rage_damage``, one at
    a time in the file's order (the player's to order), Defeats and React Tags as for any Damage."""
    sheet = ctx.sheets[who]
    top = sheet.rage_tokens
    enraged = min(top, state.enraged + 1)
    board = state.board
    me = board.squadmate(who).position
    terrain = ctx.terrain
    near = [e for e in board.enemies if e.position is not None and terrain.adjacent(me, e.position)]
    hidden = [e.name for e in near if e.shrouded or shrouded_now(terrain, board, e.position)]
    hit = [e for e in near if e.name not in hidden]
    steps = [Step(f"Blood Rage (trigger {n}): " + (f"a Calm Rage token flipped to its Enraged side ({enraged} of {top} "
                                                    "Enraged)" if enraged > state.enraged else
                                                    f"all {top} Rage tokens are Enraged already")
                  + (f"; {sheet.rage_damage} Damage to each Enemy adjacent to {who}: "
                     + ", ".join(e.name for e in hit) if hit else f"; no Enemy adjacent to {who} to Damage"),
                  S.COMMENTARY_WREX_RAGE, "Blood Rage deals Damage to several Enemies at once (Core Abilities); "
                  "the Enemies are Damaged one at a time in the file's order. The tokens, the Damage and who suffers "
                  f"it are printed on the sheet, not in the rulebook: the sheet file's rage_tokens and rage_damage "
                  f"({_standin(ctx)})." + (f" {', '.join(hidden)}: in a Shrouded area, cannot be targeted."
                                          if hidden else ""),
                  facts={"enraged": enraged, "damaged": [e.name for e in hit]}, marks=(who, *[e.name for e in hit]))]
    state = replace(state, enraged=enraged)
    for e in hit:
        if not sheet.rage_damage:
            break
        cur = state.board.enemy(e.name)
        if cur is None:
            continue
        board, more = _hit(state.board, ctx, who, cur, sheet.rage_damage, "core_ability", None if mark is None else (
            lambda label, b, k, base=len(steps), now=state: mark(label, replace(now, board=b), base + k)))
        steps += more
        state = replace(state, board=board)
        if mark is not None:
            mark(f"Blood Rage: {e.name}", state, len(steps))
    return state, steps


def _drone(state: RoundState, ctx: RoundContext, who: str, n: int, entry: Drone | None, mark=None
           ) -> tuple[RoundState, list[Step]]:
    """Tali's Combat Drone, trigger ``n``: Chatika "can rove ahead to attack enemies and hack doors and Turrets"
    (Core Abilities). Chatika is a token, not a character (Squadmate Commentary › Tali'Zorah nar Rayya › Combat
    Drone): it moves up to the sheet's ``drone_move`` hexes between adjacent hexes (walls and locked doors stop it;
    a hex holding a character does not: The Mission Book › Hexes, any number of tokens), then Damages one Enemy in
    or adjacent to its hex for the sheet's ``drone_damage`` (not one in a Shrouded area) or hacks one Active Turret
    there (Disabled). Its React Tag: ruling ``drone_react``. ``entry`` ``None``: the file gives nothing for this
    trigger, Chatika stays.

    Raises:
        RuleViolation: a route not from Chatika's hex, through non-adjacent hexes or too long; a target out of reach
            or Shrouded; a Turret out of reach or already Disabled (fields of ``turns[i].drone[k]``).
    """
    sheet = ctx.sheets[who]
    terrain = ctx.terrain
    at = state.chatika
    rule, src, step = S.COMMENTARY_TALI_DRONE, _standin(ctx), "Step A: Strategy Roll"
    if entry is None:
        return state, [Step(f"Combat Drone (trigger {n}): Chatika stays at {at} (the file's drone gives nothing for "
                            "this trigger)", rule, marks=(str(at),))]
    steps: list[Step] = []
    if entry.path:
        if entry.path[0] != at:
            raise RuleViolation(f"Chatika is at {at}, the route starts at {entry.path[0]}", rule,
                                field=f"{entry.field}.path[0]", step=step)
        if len(entry.path) - 1 > sheet.drone_move:
            raise RuleViolation(f"a route of {plural(len(entry.path) - 1, 'hex', 'hexes')}; Chatika moves up to "
                                f"{sheet.drone_move} (the sheet file's drone_move, {src})", rule,
                                field=f"{entry.field}.path", step=step)
        for j, (a, b) in enumerate(zip(entry.path, entry.path[1:])):
            if not terrain.adjacent(a, b):
                raise RuleViolation(f"{a} and {b} are not adjacent (a wall, a locked door, or not neighbours)",
                                    S.ADJACENCY, field=f"{entry.field}.path[{j + 1}]", step=step)
        at = entry.path[-1]
        state = replace(state, chatika=at)
        steps.append(Step(f"Combat Drone (trigger {n}): Chatika moves {' -> '.join(map(str, entry.path))}", rule,
                          "Chatika is a token, not a character: it may share a hex with a character, Enemies ignore "
                          f"it and it cannot be Damaged. How far it moves is printed on the sheet, not in the "
                          f"rulebook: the sheet file's drone_move ({src}).", facts={"chatika": str(at)},
                          marks=(str(at),)))
        if mark is not None:
            mark("Chatika moves", state, len(steps))
    if entry.target is not None:
        enemy = state.board.enemy(entry.target)
        f = f"{entry.field}.target"
        if enemy is None or enemy.position is None:
            raise RuleViolation(f"{entry.target} is no longer on the map", rule, field=f, step=step)
        if enemy.shrouded or shrouded_now(terrain, state.board, enemy.position):
            raise RuleViolation(f"{entry.target} is in a Shrouded area and cannot be targeted", S.SHROUDED_AREAS,
                                field=f, step=step)
        if enemy.position != at and not terrain.adjacent(at, enemy.position):
            raise RuleViolation(f"{entry.target} at {enemy.position} is neither in nor adjacent to Chatika's hex "
                                f"{at}", rule, field=f, step=step)
        steps.append(Step(f"Combat Drone (trigger {n}): Chatika attacks {entry.target} for {sheet.drone_damage} "
                          "Damage", rule, f"The Damage is printed on the sheet, not in the rulebook: the sheet file's "
                          f"drone_damage ({src}).", marks=(str(at), entry.target)))
        board, more = _hit(state.board, ctx, who, enemy, sheet.drone_damage, "core_ability", None if mark is None
                           else (lambda label, b, k, base=len(steps), now=state:
                                 mark(label, replace(now, board=b), base + k)), drone=True)
        steps += more
        state = replace(state, board=board)
    if entry.turret is not None:
        f = f"{entry.field}.turret"
        turret = next(t for t in terrain.map.turrets if t.hex == entry.turret)
        if not turret.active or turret.hex in state.disabled_turrets:
            raise RuleViolation(f"the Turret at {turret.hex} is already Disabled", S.TURRETS, field=f, step=step)
        if turret.hex != at and not terrain.adjacent(at, turret.hex):
            raise RuleViolation(f"the Turret at {turret.hex} is neither in nor adjacent to Chatika's hex {at}", rule,
                                field=f, step=step)
        state = replace(state, disabled_turrets=state.disabled_turrets + (turret.hex,))
        steps.append(Step(f"Combat Drone (trigger {n}): Chatika hacks the Turret at {turret.hex}: Disabled, its "
                          "token flipped (no Line of Fire, no Damage from now on)", S.TURRETS,
                          "The overview: Chatika can hack doors and Turrets.", facts={"turret": str(turret.hex)},
                          marks=(str(at), str(turret.hex))))
    if not entry.path and entry.target is None and entry.turret is None:
        steps.append(Step(f"Combat Drone (trigger {n}): Chatika stays at {at}", rule, marks=(str(at),)))
    return state, steps


def _move_completed(state: RoundState, ctx: RoundContext, who: str) -> tuple[RoundState, list[Step]]:
    """Squadmate Commentary › Commander Shepard › Barrier: a Special Rule box with ``move_shield`` (unlocked)
    triggers when the Squadmate completes a Move Action (after its Movement, Opportunity Attacks and Loot; never for
    other movement, a die placed without resolving, or a Squadmate Downed on the way): it regains that many Shield
    Points, up to its maximum. A Move Action the Pin Tag ended: the ruling ``barrier_pin`` (consulted only then)."""
    box = next((b for b in ctx.sheets[who].boxes if b.move_shield and is_unlocked(state, ctx, who, b.name)), None)
    sq = state.board.squadmate(who)
    if box is None or sq.downed:
        return state, []
    moved = next((e for e in reversed(state.board.log) if isinstance(e, SquadmateMoved) and e.squadmate == who),
                 None)
    if moved is not None and "Pin Tag" in moved.stopped_by and ctx.rulings.reading("barrier_pin") == "not_completed":
        return state, [Step(f"{who}'s {box.name} does not trigger: the Pin Tag cut the Move Action short (ruling "
                            "barrier_pin = not_completed)", S.COMMENTARY_SHEPARD_BARRIER, marks=(who,))]
    new = min(sq.shield_points + box.move_shield, sq.shield_points_max)
    pinned = (f" (ended by {moved.stopped_by}: completed, ruling barrier_pin = completed)"
              if moved is not None and "Pin Tag" in moved.stopped_by else "")
    what = (f"regains {plural(new - sq.shield_points, 'Shield Point')} ({sq.shield_points} -> {new})"
            if new > sq.shield_points else f"has full Shield Points ({new}): nothing to regain")
    st = Step(f"{box.name}: {who} completes a Move Action{pinned} and {what}", S.COMMENTARY_SHEPARD_BARRIER,
              "It triggers only when a Move Action is completed, not for other movement.",
              facts={"squadmate": who, "shield_points": new, "regained": new - sq.shield_points}, marks=(who,))
    return replace(state, board=state.board.with_squadmate(replace(sq, shield_points=new)).shown(1)), [st]


def _mission_action(state: RoundState, ctx: RoundContext, who: str, act: Action, cut=None
                    ) -> tuple[RoundState, list[Step]]:
    """Basic Actions › Mission: the die goes on the Mission Action under the Mission Rules page rule ``act.mission``
    (:class:`MissionActionSpec`): ``who`` must stand where the rule says (its hexes or icon hexes, or adjacent with
    ``adjacent``); the Action marks one of its Progress Boxes; once all are marked, the Objective it ``completes``
    is completed (:func:`_complete_objective`: Preliminary Objectives first, a Paragon, Renegade or Loyalty one ends
    the Mission). A rule whose boxes are all marked allows no further die.

    Raises:
        RuleViolation: ``who`` not where the rule says, every box already marked (field ``mission``); the
            Objective's own refusals (field ``mission`` of the action, naming the rule's
            ``mission_actions[k].completes``: the action itself has no ``completes``).
    """
    rule = ctx.mission_actions[act.mission]
    field, step = f"{act.field}.mission", "Step B: Actions"
    me = state.board.squadmate(who).position
    where = tuple(parse_hex(h) for h in rule.hexes) or (ctx.terrain.map.hexes_with(rule.icon) if rule.icon else ())
    if where and not any(me == h or (rule.adjacent and ctx.terrain.adjacent(me, h)) for h in where):
        need = ("in or adjacent to " if rule.adjacent else "in ") + (
            f"a {rule.icon} hex" if rule.icon else "hex " + " or ".join(map(str, where)))
        raise RuleViolation(f"{act.mission!r} needs {who} {need}; {who} is at {me}", S.MISSION_RULES_PAGE,
                            field=field, step=step)
    done = dict(state.progress).get(rule.name, 0)
    if done >= rule.progress:
        raise RuleViolation(f"every Progress Box of {rule.name!r} is marked already ({done}/{rule.progress})",
                            S.MISSION_RULES_PAGE, field=field, step=step)
    done += 1
    state = replace(state, progress=tuple((n, v) for n, v in state.progress if n != rule.name) + ((rule.name,
                                                                                                   done),))
    what = f" at {me}" if where else ""
    then = (f": all marked, {rule.completes!r} is completed" if done == rule.progress and rule.completes else
            f": {rule.progress - done} to go" if done < rule.progress else ": all marked")
    steps = [Step(f"{who}'s Mission Action ({rule.name}){what}: Progress Box {done}/{rule.progress} marked{then}",
                  S.MISSION_RULES_PAGE, "The Mission Rules page allows the die here and says what it does (the "
                  "file's [[mission_actions]]: the rulebook prints no Mission Rules page).",
                  facts={"mission_action": rule.name, "progress": done, "of": rule.progress}, marks=(who,))]
    _mark(cut, "Progress Box", state, len(steps))
    if done == rule.progress and rule.completes:
        ki = list(ctx.mission_actions).index(rule.name)
        state, more = _complete_objective(state, ctx, replace(act, completes=rule.completes), None if cut is None
                                          else (lambda label, st, k, base=len(steps): cut(label, st, base + k)),
                                          field=field, by=f" (mission_actions[{ki}].completes names it)")
        steps += more
    return state, steps


def _disable_turret(state: RoundState, ctx: RoundContext, who: str, act: Action, box: str
                    ) -> tuple[RoundState, list[Step]]:
    """Additional Rules › Turrets: the Action Disables the Turret at ``act.turret`` (its token flipped to the
    Disabled side: no Line of Fire, no Damage from then on), within the box's range (Counting Distances) and, if the
    box says so, in Line of Fire.

    Raises:
        RuleViolation: no ``turret`` hex, a Turret already Disabled, out of range or Line of Fire (field ``turret``).
    """
    field, step = f"{act.field}.turret", "Step B: Actions"
    if act.turret is None:
        raise RuleViolation(f"{box} needs the hex of the Turret it Disables", S.TURRETS, field=field, step=step)
    turret = next(t for t in ctx.terrain.map.turrets if t.hex == act.turret)
    if not turret.active or turret.hex in state.disabled_turrets:
        raise RuleViolation(f"the Turret at {turret.hex} is already Disabled", S.TURRETS, field=field, step=step)
    b = ctx.sheets[who].box(box)
    me = state.board.squadmate(who).position
    dist = ctx.terrain.distance(me, turret.hex)
    if b.range is not None and (dist is None or dist > b.range):
        raise RuleViolation(f"the Turret at {turret.hex} is {dist if dist is not None else 'unreachable'} hexes from "
                            f"{who}; {box} reaches {b.range}", S.COUNTING_DISTANCES, field=field, step=step)
    if b.line_of_fire and not ctx.terrain.line_of_fire(me, turret.hex):
        raise RuleViolation(f"the Turret at {turret.hex} is not in {who}'s Line of Fire", S.LINE_OF_FIRE,
                            field=field, step=step)
    st = Step(f"{who}'s {box}: the Turret at {turret.hex} is Disabled, its token flipped (no Line of Fire, no Damage "
              "from now on)", S.TURRETS, f"{plural(dist, 'hex', 'hexes')} away; a Disabled Turret stays Disabled.",
              facts={"turret": str(turret.hex)}, marks=(who, str(turret.hex)))
    return replace(state, disabled_turrets=state.disabled_turrets + (turret.hex,)), [st]


def _end_of_action(state: RoundState, ctx: RoundContext, who: str, act: Action, cut=None
                   ) -> tuple[RoundState, list[Step]]:
    """The tokens of the Inventory used at the end of ``act`` (:func:`_use_item`), after its effects (which stand
    even when one of these is refused). ``cut(label, state, n)``: the frame-boundary observer (after each token and
    each Enemy a Grenade Damages)."""
    steps: list[Step] = []
    for it in act.items:
        if it.when == "end" and not state.board.failed:
            seen = None if cut is None else (lambda label, b, k, base=len(steps), now=state:
                                             cut(label, replace(now, board=b), base + k))
            state, more = _use_item(state, ctx, who, it, seen)
            steps += more
            _mark(cut, LOOT_LABEL[it.use], state, len(steps))
    return state, steps


ENDINGS = {"paragon": "Paragon Victory", "renegade": "Renegade Victory", "loyalty": "Loyalty Victory"}
"""Ending a Mission: the Objectives whose completion ends the Mission, and the victory each gives."""


def _complete_objective(state: RoundState, ctx: RoundContext, act: Action, cut=None, *, field: str | None = None,
                        by: str = "") -> tuple[RoundState, list[Step]]:
    """Mission Objectives: the Mission Action completes ``act.completes`` (the Mission Rules page allows it: the
    file says so). An Objective attached to a Preliminary Objective cannot be attempted before that one is
    completed (Preliminary Objectives). A Paragon, Renegade or Loyalty Objective ends the Mission at once with its
    Victory (Ending a Mission); a Secondary or Preliminary one does not.

    Raises:
        RuleViolation: already completed, or its Preliminary Objective is not (``field``, default the action's
            ``completes``; ``by``: where the file names the Objective, said in the message).
    """
    name = act.completes
    kind, after = ctx.objectives[name]
    field, step = field or f"{act.field}.completes", "Step B: Actions"
    if name in state.completed:
        raise RuleViolation(f"the Objective {name!r}{by} is already completed", S.MISSION_OBJECTIVES, field=field,
                            step=step)
    if after is not None and after not in state.completed:
        raise RuleViolation(f"{name!r}{by} cannot be attempted until its Preliminary Objective {after!r} is "
                            "completed", S.MISSION_OBJECTIVES, field=field, step=step)
    steps = [Step(f"{kind.title()} Objective completed: {name}", S.MISSION_OBJECTIVES,
                  "The Mission Rules page says what completes it; the file declares this Mission Action does.",
                  facts={"objective": name, "kind": kind})]
    state = replace(state, completed=state.completed + (name,))
    _mark(cut, "Objective completed", state, len(steps))
    if kind == "secondary":
        state, more = _score_war_readiness(state, ctx, "secondary", f"the Secondary Objective {name!r}")
        steps += more
    opened = [o for o, (_, a) in ctx.objectives.items() if a == name]
    if opened:
        steps.append(Step(f"Now {', '.join(map(repr, opened))} can be attempted", S.MISSION_OBJECTIVES))
    if kind == "loyalty" and ctx.loyalty_mission is not None:
        state, more = _loyalty_unlock(state, ctx, ctx.loyalty_mission)
        steps += more
        _mark(cut, "Loyalty Ability", state, len(steps))
    if kind in ENDINGS:
        steps.append(Step(f"The Mission ends: {ENDINGS[kind]}", S.ENDING_A_MISSION,
                          "The Mission Rules page says what to do now (a Story Paragraph, the Campaign Map).",
                          facts={"ending": ENDINGS[kind]}))
        state = replace(state, ending=ENDINGS[kind])
        state, more = _score_war_readiness(state, ctx, kind, f"the {ENDINGS[kind]}")
        steps += more
        if ctx.campaign and kind in ("paragon", "renegade"):
            state, more = _campaign_reward(state, ctx, kind)
            steps += more
    return state, steps


def _score_war_readiness(state: RoundState, ctx: RoundContext, what: str, why: str) -> tuple[RoundState, list[Step]]:
    """Overview › War Readiness: the squad scores War Readiness each time it completes a Mission (``what``:
    ``paragon``, ``renegade``, ``loyalty``, ``failure``) and for each Secondary Objective completed (``secondary``).
    The amounts are the Mission Rules page's: the file's ``[war_readiness]``, else :data:`WAR_READINESS_STANDIN`
    (said so). Nothing when the Mission has no Objectives (:attr:`RoundContext.war_readiness` ``None``)."""
    if ctx.war_readiness is None:
        return state, []
    n = ctx.war_readiness[what]
    total = state.war_readiness + n
    source = ("a STAND-IN amount: the rulebook gives none (the Mission Rules page does); a round file's "
              f"[war_readiness] {what} sets it" if ctx.war_standin else f"the file's war_readiness.{what}")
    order = ""
    if what in ("paragon", "renegade"):
        p, r = ctx.war_readiness["paragon"], ctx.war_readiness["renegade"]
        order = (" The rulebook says a Paragon Victory usually scores more War Readiness than a Renegade Victory"
                 + (f"; this Mission's amounts ({p} and {r}) do not." if p <= r else "."))
    st = Step(f"War Readiness: {n} for {why} ({total} this Mission; {ctx.war_readiness['marked'] + total} on the "
              "Campaign Map)", S.WAR_READINESS, f"{n} is {source}.{order}",
              facts={"war_readiness": n, "this_mission": total, "campaign": ctx.war_readiness["marked"] + total,
                     "standin": ctx.war_standin})
    return replace(state, war_readiness=total), [st]


def _campaign_reward(state: RoundState, ctx: RoundContext, kind: str) -> tuple[RoundState, list[Step]]:
    """Paragon Dice and Renegade Tokens: what the squad gains for the rest of the campaign, the only Paragon and
    Renegade reward the rulebook gives (it keeps no Paragon or Renegade points): a Paragon Victory adds a Paragon die
    to the Strategy Pool of each later Mission; after a Renegade Victory each Squadmate receives one more Renegade
    token at the start of each later Mission. The two Objectives are mutually exclusive (Paragon and Renegade Paths):
    the Victory that ended the Mission is the only one. Told only when the file tracks the campaign
    (:attr:`RoundContext.campaign`); the box's two Paragon dice and eight Renegade tokens bound the counts."""
    paragon, renegade = ctx.paragon_dice, ctx.renegade_victories or 0
    n = len(state.board.squadmates)
    if kind == "paragon":
        new = min(paragon + 1, PARAGON_DICE_MAX)
        capped = "" if new > paragon else f" (the box holds {PARAGON_DICE_MAX}: no further die)"
        st = Step(f"Paragon Victory: the squad gains a Paragon die: each later Mission's Strategy Pool holds "
                  f"{plural(new, 'Paragon die', 'Paragon dice')}{capped}", S.PARAGON_DICE,
                  "Paragon Victories marked on the Campaign Map; the Renegade Objective can no longer be completed "
                  "(the outcomes are mutually exclusive).", facts={"paragon_dice": new})
        return replace(state, campaign_next=(new, renegade)), [st]
    new = renegade + 1 if (renegade + 1) * n <= RENEGADE_TOKENS_IN_BOX else renegade
    capped = "" if new > renegade else f" (the box holds {RENEGADE_TOKENS_IN_BOX} tokens: no further one each)"
    st = Step(f"Renegade Victory: at the start of each later Mission each Squadmate receives "
              f"{plural(new, 'Renegade token')}{capped}", S.RENEGADE_TOKENS,
              "One per Renegade Victory marked on the Campaign Map; the Paragon Objective can no longer be completed "
              "(the outcomes are mutually exclusive).", facts={"renegade_victories": new})
    return replace(state, campaign_next=(paragon, new)), [st]


def _loyalty_unlock(state: RoundState, ctx: RoundContext, who: str) -> tuple[RoundState, list[Step]]:
    """Mission Objectives › Loyalty Objectives: completing one lets the Squadmate whose Loyalty Mission this is (the
    file's ``loyalty_mission``) unlock its Loyalty Ability (Advanced Abilities and Loyalty Abilities)."""
    box = next((b for b in ctx.sheets[who].boxes if b.loyalty), None)
    if box is None or is_unlocked(state, ctx, who, box.name):
        why = "has no Loyalty Ability on its sheet" if box is None else f"has unlocked {box.name} already"
        return state, [Step(f"{who} {why}: nothing to unlock", S.ADVANCED_ABILITIES, marks=(who,))]
    name = _check_prerequisites(state, ctx, who, box.name, "loyalty_mission", "loyalty")
    st = Step(f"{who}'s Loyalty Mission is complete: {who} unlocks the Loyalty Ability {name}", S.ADVANCED_ABILITIES,
              "A Loyalty Ability is unlocked only this way (the Story Paragraph after the Loyalty Mission).",
              facts={"squadmate": who, "unlocked": name}, marks=(who,))
    return _unlocked_now(state, ctx, who, name, st)


def _unlocked_now(state: RoundState, ctx: RoundContext, who: str, name: str, st: Step
                  ) -> tuple[RoundState, list[Step]]:
    """``who``'s Ability ``name`` is unlocked during the Mission (step ``st`` says so), and what that does at once
    (Squadmate Commentary): Proximity Mines' three tokens are taken immediately; Asari Controller makes Enemies with a
    Biotic Effect token count as having no Tags from now on."""
    state = replace(state, unlocked=state.unlocked + ((who, name),))
    b = ctx.sheets[who].box(name)
    steps = [st]
    if b.mines:
        state = replace(state, mines=b.mines)
        steps.append(Step(f"{who} takes the {b.mines} Proximity Mine tokens at once",
                          S.COMMENTARY_GARRUS_PROXIMITY_MINES, "Unlocked during a Mission, the Ability's tokens are "
                          "taken immediately; from then on they are replenished at the start of each Mission.",
                          facts={"mines": b.mines}, marks=(who,)))
    if b.asari_controller:
        state = replace(state, board=replace(state.board, asari_controller=True))
        steps.append(Step(f"{name} unlocked: from now on Enemies with a Biotic Effect token count as having no Tags",
                          S.COMMENTARY_LIARA_ASARI_CONTROLLER, "A Ranged Enemy with a token then cannot Attack a "
                          "Squadmate it is not adjacent to.", marks=(who,)))
    if b.closer_shield:
        state = replace(state, board=replace(state.board, krogan=(who, b.closer_shield)))
    return state, steps


def _unlock_on_xp(state: RoundState, ctx: RoundContext, who: str, before: int) -> tuple[RoundState, list[Step]]:
    """Earning XP; Unlocking Abilities: when an Action fills the third box of ``who``'s XP column, its player
    immediately unlocks an Ability of their choice: the file's ``unlocks`` entry for it (none: the step says the
    choice is not given)."""
    from .units import XP_PER_MISSION

    now = state.board.squadmate(who).xp
    if not before < XP_PER_MISSION <= now:
        return state, []
    box = (ctx.unlocks or {}).get(who)
    if box is None:
        return state, [Step(f"{who}'s XP column is full: {who} may unlock an Ability (the file names none)",
                            S.UNLOCKING_ABILITIES, marks=(who,))]
    index = list(ctx.unlocks).index(who)
    field = f"unlocks[{index}].box"
    name = _check_prerequisites(state, ctx, who, box, field, "xp")
    st = Step(f"{who}'s XP column is full: {who} unlocks {name}, usable at once", S.UNLOCKING_ABILITIES,
              "As soon as the third box is marked, the player unlocks an Ability of their choice (the file's unlocks).",
              facts={"squadmate": who, "unlocked": name}, marks=(who,))
    return _unlocked_now(state, ctx, who, name, st)


def is_unlocked(state: RoundState, ctx: RoundContext, who: str, box: str) -> bool:
    """``who``'s Ability ``box`` is unlocked: on the sheet already, or during play (Unlocking Abilities)."""
    b = ctx.sheets[who].box(box)
    return b is not None and (b.unlocked or (who, b.name) in state.unlocked)


def _check_prerequisites(state: RoundState, ctx: RoundContext, who: str, box: str, field: str, how: str) -> str:
    """Advanced Abilities and Loyalty Abilities: an Advanced Ability is unlocked only once the Abilities it requires
    are (one, or two for three of Shepard's); a Loyalty Ability only by completing the Squadmate's Loyalty Mission
    (``how`` = ``"loyalty"``), never by XP or Intel. Returns the box's name as the sheet spells it.

    Raises:
        RuleViolation: a Loyalty Ability unlocked another way, an Advanced Ability whose required Abilities are not
            all unlocked (naming ``field``).
    """
    b = ctx.sheets[who].box(box)
    step = "Unlocking Abilities"
    if b.loyalty and how != "loyalty":
        raise RuleViolation(f"{who}'s {b.name} is a Loyalty Ability: only completing {who}'s Loyalty Mission "
                            "unlocks it", S.ADVANCED_ABILITIES, field=field, step=step)
    missing = [r for r in b.requires if not is_unlocked(state, ctx, who, r)]
    if missing:
        raise RuleViolation(f"{who}'s {b.name} is an Advanced Ability: {' and '.join(missing)} must be unlocked "
                            "first", S.ADVANCED_ABILITIES, field=field, step=step)
    return b.name


def _pick_up_loot(state: RoundState, ctx: RoundContext, who: str, cut=None) -> tuple[RoundState, list[Step]]:
    """Loot Tokens: the Loot tokens in each hex ``who`` moved into during its Move (the hexes walked: the log's last
    :class:`~.results.SquadmateMoved`) are flipped face-up and added to the squad's Inventory. Tokens in a hex it only
    passed through: the ruling ``loot_pickup`` (consulted only then). ``cut(label, state, n)``: the frame-boundary
    observer, told the state after each hex's tokens."""
    moved = next((e for e in reversed(state.board.log) if isinstance(e, SquadmateMoved) and e.squadmate == who),
                 None)
    if moved is None or len(moved.path) < 2 or not state.loot:
        return state, []
    entered = [parse_hex(h) for h in moved.path[1:]]
    on_map = dict(state.loot)
    hits = [h for h in dict.fromkeys(entered) if h in on_map]
    if any(h != entered[-1] for h in hits) and ctx.rulings.reading("loot_pickup") == "end_of_move":
        passed = [h for h in hits if h != entered[-1]]
        hits = [h for h in hits if h == entered[-1]]
        steps = [Step(f"{who} only passes through {', '.join(map(str, passed))}: the Loot there stays face-down "
                      "(ruling loot_pickup = end_of_move)", S.LOOT_TOKENS, marks=(who,))]
    else:
        steps = []
    inventory = list(state.inventory)
    for h in hits:
        tokens = on_map.pop(h)
        inventory += tokens
        names = ", ".join(LOOT_LABEL[t] for t in tokens)
        steps.append(Step(f"{who} moves into {h}: {plural(len(tokens), 'Loot token')} flipped face-up ({names}), "
                          "added to the Inventory", S.LOOT_TOKENS, "Any Squadmate can use the Inventory's tokens.",
                          facts={"hex": str(h), "tokens": tuple(tokens), "inventory": tuple(inventory)},
                          marks=(who,)))
        _mark(cut, f"Loot at {h}", replace(state, loot=tuple((x, t) for x, t in state.loot if x in on_map),
                                           inventory=tuple(inventory)), len(steps))
    loot = tuple((h, t) for h, t in state.loot if h in on_map)
    return replace(state, loot=loot, inventory=tuple(inventory)), steps


def _use_item(state: RoundState, ctx: RoundContext, who: str, it: Item, seen=None) -> tuple[RoundState, list[Step]]:
    """A token of the Inventory discarded at the start or end of an Action (Grenade and Grenade Cache Tokens;
    Medi-gel Tokens).

    Raises:
        RuleViolation: no such token in the Inventory (field ``items[k].use``); a Grenade's hex more than three hexes
            away or not in Line of Fire (``items[k].at``); Medi-gel on a Squadmate out of reach or Downed
            (``items[k].target``).
    """
    step = "Step B: Actions"
    label = LOOT_LABEL[it.use]
    rule = S.MEDI_GEL if it.use == "medi_gel" else S.GRENADES
    if it.use not in state.inventory:
        held = ", ".join(LOOT_LABEL[t] for t in state.inventory) or "empty"
        raise RuleViolation(f"no {label} token in the Inventory ({held})", rule, field=f"{it.field}.use", step=step)
    inventory = list(state.inventory)
    inventory.remove(it.use)
    state = replace(state, inventory=tuple(inventory))
    if it.use == "medi_gel":
        board = state.board
        user, target = board.squadmate(who), board.squadmate(it.target)
        dist = ctx.terrain.distance(user.position, target.position)
        try:
            new, steps = medi_gel(user, target, dist, ctx.rulings)
        except RuleViolation as v:
            raise _refusal(v, f"{it.field}.target", step) from None
        board = board.with_squadmate(new).logged(
            MediGel(who, target.name, new.hit_points - target.hit_points, target.hit_points, new.hit_points,
                    target.downed and not new.downed))
        return replace(state, board=board.shown(len(steps))), steps
    return _grenade(state, ctx, who, it, seen)


def _grenade(state: RoundState, ctx: RoundContext, who: str, it: Item, seen=None) -> tuple[RoundState, list[Step]]:
    """Grenade and Grenade Cache Tokens: a target hex in ``who``'s Line of Fire and within three hexes (Counting
    Distances); each Enemy in it or adjacent to it suffers 2 Damage (Grenade) or 3 (Grenade Cache). An Enemy in a
    Shrouded area in the blast: the ruling ``grenade_shrouded`` (consulted only then).

    Raises:
        RuleViolation: the hex is too far or not in Line of Fire (field ``items[k].at``).
    """
    board, terrain = state.board, ctx.terrain
    me = board.squadmate(who)
    dmg = GRENADE_DAMAGE[it.use]
    label = LOOT_LABEL[it.use]
    dist = terrain.distance(me.position, it.at)
    if dist is None or dist > GRENADE_RANGE:
        raise RuleViolation(f"hex {it.at} is {dist if dist is not None else 'unreachable'} hexes from {who}: a "
                            f"Grenade's target hex is within {GRENADE_RANGE}", S.GRENADES, field=f"{it.field}.at",
                            step="Step B: Actions")
    if it.at != me.position and not terrain.line_of_fire(me.position, it.at):
        raise RuleViolation(f"hex {it.at} is not in {who}'s Line of Fire", S.GRENADES, field=f"{it.field}.at",
                            step="Step B: Actions")
    blast = [e for e in board.enemies if e.position == it.at or terrain.adjacent(e.position, it.at)]
    steps: list[Step] = []
    hidden = [e for e in blast if e.shrouded or shrouded_now(terrain, board, e.position)]
    if hidden and ctx.rulings.reading("grenade_shrouded") == "spared":
        blast = [e for e in blast if e not in hidden]
        steps.append(Step(f"{', '.join(e.name for e in hidden)} in a Shrouded area: no Damage (ruling "
                          "grenade_shrouded = spared)", S.SHROUDED_AREAS, marks=tuple(e.name for e in hidden)))
    names = ", ".join(e.name for e in blast) or "no Enemy"
    steps.insert(0, Step(f"{who} throws a {label} at {it.at} ({plural(dist, 'hex', 'hexes')}, in Line of Fire): "
                         f"{dmg} Damage to each "
                         f"Enemy in or adjacent to it: {names}", S.GRENADES, "The token goes back to the game box.",
                         facts={"token": it.use, "hex": str(it.at), "damage": dmg,
                                "targets": [e.name for e in blast]}, marks=(who, *(e.name for e in blast))))
    for e in blast:
        now = board.enemy(e.name)
        if now is None:
            continue
        if e in hidden:                       # ruling grenade_shrouded = damaged: the token stays Shrouded
            board, more = _hit(board.with_enemy(e.name, replace(now, shrouded=False)), ctx, who,
                               replace(now, shrouded=False), dmg, "grenade", _shifted(seen, len(steps)))
            if board.enemy(e.name) is not None:
                board = board.with_enemy(e.name, replace(board.enemy(e.name), shrouded=now.shrouded))
        else:
            board, more = _hit(board, ctx, who, now, dmg, "grenade", _shifted(seen, len(steps)))
        steps += more
        _seen(seen, f"{label}: {e.name}", board, len(steps))
    return replace(state, board=board.shown(len(steps))), steps


def _free_spaces(state: RoundState, ctx: RoundContext, who: str) -> list[tuple[str, int, str]]:
    """``(box, index, kind)`` of every Action Space of ``who``'s sheet a die may still be placed on without
    resolving: not holding a die, not in a Locked Ability (one unlocked in an earlier Mission, the file's
    ``[unlocked]``, or during this one is free), not the Mission Action (a die goes there only when the Mission
    Rules page allows it)."""
    return [(b.name, k, kind) for b in ctx.sheets[who].boxes
            if b.name != "Mission" and is_unlocked(state, ctx, who, b.name)
            for k, kind in enumerate(b.spaces) if (who, b.name, k) not in state.used]


def _fit(dice, free, rulings) -> tuple | None:
    """Distinct free Action Spaces, one per die of ``dice`` in order, each taking that die's face (Action Spaces),
    or ``None``."""
    from itertools import permutations

    from .strategy import accepts

    for spaces in permutations(free, len(dice)):
        if all(accepts(sp[2], d.face, rulings) for sp, d in zip(spaces, dice)):
            return spaces
    return None


def _best_fit(pool, need: int, free, rulings) -> tuple[tuple[Die, ...], tuple]:
    """The first ``need`` dice of ``pool`` (Pool order, by combinations) that all fit free spaces; when none do, the
    largest number that does: ``(dice placed, their spaces)``."""
    from itertools import combinations

    for k in range(need, 0, -1):
        for combo in combinations(pool, k):
            spaces = _fit(combo, free, rulings)
            if spaces is not None:
                return combo, spaces
    return (), ()


def _place_rest(state: RoundState, ctx: RoundContext, who: str, roll: Roll, need: int
                ) -> tuple[RoundState, list[Step]]:
    """Step B: a Squadmate must always take three dice: the dice not used for an Action (``roll.place``, else the
    first of the Pool that fit) go on free matching Action Spaces without resolving them (Action Spaces; the
    Move or Standard face as the ruling ``dual_face_in_move_space`` reads it). When too few dice fit the free spaces,
    the ruling ``dice_without_space`` says whether the rest are still taken (set aside) or stay in the Pool.

    Raises:
        RuleViolation: ``place`` names a die not in the Pool, too few or too many dice, or dice that do not fit the
            free spaces while other dice of the Pool would (field ``turns[i].roll.place``).
    """
    step = "Step B: Actions"
    free = _free_spaces(state, ctx, who)
    if roll.place is not None:
        if len(roll.place) != need:
            raise RuleViolation(f"{who} takes {plural(need, 'more die', 'more dice')} without an Action, "
                                f"not {len(roll.place)}: three dice in all", S.ACTIONS, field=f"{roll.field}.place",
                                step=step)
        chosen = []
        for j, i in enumerate(roll.place):
            d = next((d for d in state.dice if d.id == i), None)
            if d is None:
                raise RuleViolation(f"{i} is not in the Strategy Pool", S.ACTIONS, field=f"{roll.field}.place[{j}]",
                                    step=step)
            chosen.append(d)
        placed, spaces = _best_fit(chosen, need, free, ctx.rulings)
        if len(placed) < need and len(_best_fit(state.dice, need, free, ctx.rulings)[0]) > len(placed):
            raise RuleViolation(f"{', '.join(roll.place)} cannot all go on free matching Action Spaces of {who}'s "
                                "sheet, and other dice of the Pool can", S.ACTION_SPACES, field=f"{roll.field}.place",
                                step=step)
        rest = [d for d in chosen if d not in placed]
    else:
        strategy = tuple(d for d in state.dice if not d.paragon)    # Paragon dice are never required
        placed, spaces = _best_fit(strategy, need, free, ctx.rulings)
        rest = [d for d in strategy if d not in placed][:need - len(placed)]
    steps: list[Step] = []
    taken = {d.id for d in placed}
    if placed:
        where = ", ".join(f"{d.id} ({_FACE_WORDS[d.face.value]}) on {sp[0]} (Action Space {sp[1] + 1})"
                          for d, sp in zip(placed, spaces))
        steps.append(Step(f"Placed without resolving the Actions: {where}", S.ACTIONS,
                          "A Squadmate always takes three dice; those it does not use go on matching Action Spaces "
                          "without resolving them.", facts={"placed": sorted(taken)}))
    if rest:
        reading = ctx.rulings.reading("dice_without_space")
        ids = ", ".join(d.id for d in rest)
        if reading == "set_aside":
            taken |= {d.id for d in rest}
            steps.append(Step(f"No free Action Space takes {ids}: taken from the Pool all the same and set aside",
                              S.ACTIONS, "Ruling dice_without_space = set_aside: a Squadmate always takes three "
                              "dice from the Pool.", facts={"set_aside": [d.id for d in rest]}))
        else:
            steps.append(Step(f"No free Action Space takes {ids}: {'it stays' if len(rest) == 1 else 'they stay'} "
                              "in the Pool", S.ACTIONS, "Ruling dice_without_space = left_in_pool: a die is only "
                              "taken by allocating it to an Action Space.", facts={"left": [d.id for d in rest]}))
    state = replace(state, dice=tuple(d for d in state.dice if d.id not in taken),
                    used=state.used + tuple((who, sp[0], sp[1]) for sp in spaces))
    return state, steps


@dataclass(frozen=True)
class TurretFire:
    """A Hazard card's "Activate Turrets" instruction: every Active Turret deals ``damage`` to each Squadmate in its
    Line of Fire (Additional Rules › Turrets)."""

    damage: int


def _card_blocks(card: tuple) -> list:
    """A card's instructions in blocks: runs of Enemy instructions (played by the ``activation`` kind's
    :data:`~.activation.HAZARD_CARD_SEQUENCE`) and :class:`TurretFire` instructions, in the card's order."""
    blocks: list = []
    for ins in card:
        if isinstance(ins, TurretFire):
            blocks.append(ins)
        elif blocks and isinstance(blocks[-1], tuple):
            blocks[-1] = blocks[-1] + (ins,)
        else:
            blocks.append((ins,))
    return blocks


def _resolve_card(board: Board, ctx: RoundContext, choices: Choices, card: tuple, disabled: tuple = (),
                  on_task=None) -> tuple[Board, list[Step]]:
    """Step C: the card's instructions in order: Enemy instructions by :data:`~.activation.HAZARD_CARD_SEQUENCE`
    (later runs continue the same card: "Activate Spawned Enemy" still refers to its Spawn), Turrets by
    :func:`_turrets_fire`."""
    from .activation import CardInstruction

    actx = ActivationContext(ctx.rulings, None, ctx.terrain, choices)
    steps: list[Step] = []
    started = False
    for block in _card_blocks(card):
        if isinstance(block, TurretFire):
            board, more = _turrets_fire(board, ctx, block.damage, disabled, None if on_task is None else (
                lambda b, k, base=len(steps): on_task(b, base + k, "Step C: Turrets Activate")))
            steps += more
            if on_task is not None and more:
                on_task(board, len(steps), "Step C: Turrets Activate")
        else:
            if not started:
                start, sequence = replace(board, hazard=block), HAZARD_CARD_SEQUENCE
                started = True
            else:
                todo = tuple(CardInstruction(i) for i in range(1, len(block) + 1))
                start, sequence = replace(board, hazard=block, agenda=todo), HAZARD_CARD_SEQUENCE[1:]
            board = start
            for frame in play(start, sequence, actx):       # one frame per task: an Enemy's Activation, a Spawn...
                board = frame.state
                steps += frame.steps
                if on_task is not None and frame.steps:
                    on_task(board, len(steps), _task_label(frame.steps[0]))
        if board.failed:
            break
    return board, steps


def _task_label(first: Step) -> str:
    """A Hazard card task's frame label: "Step C: " and its first step's title (shortened)."""
    title = first.title if len(first.title) <= 60 else first.title[:59].rstrip() + "…"
    return f"Step C: {title}"


def _turrets_fire(board: Board, ctx: RoundContext, damage: int, disabled: tuple = (), seen=None
                  ) -> tuple[Board, list[Step]]:
    """Additional Rules › Turrets: each Active Turret (in hex order; a Squadmate in several Lines of Fire takes each
    Turret's Damage in turn, so the order changes no total) deals ``damage`` to each Squadmate in its Line of Fire
    (its own hex and one straight line in its facing: :func:`.geometry.turret_targets`); a Disabled Turret (on the
    map, or one of the hexes ``disabled`` during play) has no Line of Fire. A Downed Squadmate is not Damaged again.
    ``seen(board, n)`` (or ``None``): the frame-boundary observer, told the board after each Squadmate's Damage."""
    from .geometry import turret_targets

    m = ctx.terrain.map
    steps = [Step(f"Turrets Activate: {damage} Damage to each Squadmate in an Active Turret's Line of Fire",
                  S.TURRETS, "The amount is the Hazard card's." if m.turrets else "There is no Turret on this map.",
                  facts={"damage": damage, "turrets": len(m.turrets)})]
    board = board.shown(1)
    for t in m.turrets:
        if not t.active or t.hex in disabled:
            steps.append(Step(f"Turret at {t.hex} is Disabled: no Line of Fire, no Damage", S.TURRETS))
            board = board.shown(1)
            continue
        hexes = turret_targets(m, t.hex, rulings=ctx.rulings)
        hit = [s.name for s in board.squadmates if s.position in hexes and not s.downed]
        steps.append(Step(f"Turret at {t.hex}: {', '.join(hit) if hit else 'no Squadmate'} in its Line of Fire",
                          S.TURRETS, f"Its Line of Fire: {', '.join(str(h) for h in sorted(hexes))}.",
                          facts={"turret": str(t.hex), "targets": hit}, marks=tuple(hit)))
        board = board.shown(1)
        for name in hit:
            board, more = board.hurt(name, damage, f"the Turret at {t.hex}")
            steps += more
            if seen is not None:
                seen(board, len(steps))
            if board.failed:
                return board, steps
    return board, steps


def _downed_card(state: RoundState, ctx: RoundContext, who: str, card: str, first: Step, section: str
                 ) -> tuple[RoundState, tuple[Step, ...]]:
    """A Squadmate Downed after the Preparation Phase still holds its face-down Hazard card when its turn comes: the
    ruling ``downed_hazard_card`` says whether it is resolved (with the Downed Squadmate as the current one) or
    discarded unresolved."""
    steps = [first]
    hands = tuple(h for h in state.hands if h[0] != who)
    if ctx.rulings.reading("downed_hazard_card") == "discarded":
        steps.append(Step(f"{who}'s Hazard card {card} is discarded unresolved (ruling downed_hazard_card = "
                          "discarded)", S.HAZARD_CARD, facts={"card": card}, marks=(who,)))
        state = replace(state, hands=hands, discard=state.discard + (card,))
    else:
        steps.append(Step(f"Step C: {who}'s Hazard card {card} is flipped and resolved all the same (ruling "
                          "downed_hazard_card = resolved)", S.HAZARD_CARD, facts={"card": card}, marks=(who,)))
        turn = ctx.turn_of(who, state.round) or Turn(who, (), Choices())
        board, more = _resolve_card(state.board, ctx, turn.choices, ctx.cards[card], state.disabled_turrets)
        steps += more
        state = replace(state, board=board, hands=hands, discard=state.discard + (card,))
    return state, tuple(s.in_section(section) for s in steps)


def _downed_intuition(state: RoundState, ctx: RoundContext, who: str, card: str | None, turn: Turn, first: Step,
                      section: str) -> tuple[RoundState, tuple[Step, ...]]:
    """Shadow Broker Intuition declared (``turns[i].intuition``) for the turn of ``who``, Downed when that turn starts.
    Liara may use it when an Enemy targets any Squadmate (Squadmate Commentary), so it stands only when an Enemy can
    activate on this turn: ``who``'s face-down Hazard card is resolved (ruling ``downed_hazard_card = resolved``).
    Then it is declared and lapses at the turn's end like any other (:func:`_declare_intuition`,
    :func:`_intuition_over`).

    Raises nothing; a refused declaration is the "Not allowed" step (field ``turns[i].intuition``): no Hazard card
    next to ``who``'s sheet (none drawn for a Squadmate Downed in the Preparation Phase), or the ruling
    ``downed_hazard_card = discarded``; or any refusal of :func:`_declare_intuition`.
    """
    f, step = f"{turn.field}.intuition", "Shadow Broker Intuition"
    try:
        if card is None or ctx.rulings.reading("downed_hazard_card") == "discarded":
            why = ("no Hazard card lies next to its sheet" if card is None else
                   f"its Hazard card {card} is discarded unresolved (ruling downed_hazard_card = discarded)")
            raise RuleViolation(f"{who} is Downed and {why}: no Enemy Activates on its turn, so Shadow Broker "
                                "Intuition has no Attack to answer; declare it on the turn of a Squadmate who is not "
                                "Downed, or under ruling downed_hazard_card = resolved", S.DOWNED_SQUADMATES,
                                field=f, step=step)
        state, more = _declare_intuition(state, ctx, who, turn)
    except RuleViolation as v:
        state, bad = _not_allowed(state, v)
        return state, (bad.in_section(section),)
    state, steps = _downed_card(state, ctx, who, card, first, section)
    state, over = _intuition_over(state, turn)
    return state, (steps[0], *(s.in_section(section) for s in more), *steps[1:],
                   *(s.in_section(section) for s in over))


def squadmate_turn(state: RoundState, ctx: RoundContext, n: int) -> tuple[RoundState, tuple[Step, ...]]:
    """Squadmate Phase: turn ``n`` (from 1) of :attr:`RoundState.order`: Step A (with a ``[turns.roll]``: the
    Strategy Roll played by :func:`_strategy_roll`, Lock, Core Ability triggers and re-rolls; without: the dice taken
    from the Pool, their faces declared by the Actions), Step B (the declared Actions, each on a free matching Action
    Space of the sheet; with a roll, each takes a die of it and the dice not used are placed without resolving),
    Step C (the Hazard card dealt to this Squadmate, resolved with it as the current Squadmate, then discarded;
    none for a Squadmate Revived this Round), then Coolant Leaks. A refused declaration is a "Not allowed" step and
    ends the Round's play. A Downed Squadmate takes no Actions; one Revived this Round takes its turn as the ruling
    ``revived_turn`` reads it. With :attr:`RoundContext.cuts` the turn's frame boundaries are recorded there."""
    return _observed(_turn_then_set_aside, state, ctx, n)


def _turn_then_set_aside(state: RoundState, ctx: RoundContext, n: int, cut) -> tuple[RoundState, tuple[Step, ...]]:
    """:func:`_turn`, then the dice of any Squadmate it Downed set aside (:func:`_dice_set_aside`)."""
    new, steps = _turn(state, ctx, n, cut)
    new, more = _failure_scored(state, new, ctx)
    return _dice_set_aside(new), steps + tuple(s.in_section(ctx.section(state, f"Turn {n}: {state.order[n - 1]}"))
                                               for s in more)


def _failure_scored(before: RoundState, after: RoundState, ctx: RoundContext) -> tuple[RoundState, list[Step]]:
    """Ending a Mission; Overview › War Readiness: when Shepard is Downed (Mission Commander) between ``before`` and
    ``after`` the Mission ends in Failure, and the War Readiness the Mission Rules page gives a Failure is scored, a
    step of its own (nothing when the Mission has no Objectives, :func:`_score_war_readiness`)."""
    if before.board.failed or not after.board.failed or after.rejected is not None:
        return after, []
    return _score_war_readiness(after, ctx, "failure", "the Failure (Shepard is Downed)")


def _dice_set_aside(state: RoundState) -> RoundState:
    """Attacking › Squadmate Damage; Downed Squadmates: a Squadmate Downed this turn has its sheet flipped and the
    dice in its Action Slots set aside, so its Action Spaces hold none when it is Revived (the Downed step already
    says so). Its Paragon dice stay listed in :attr:`RoundState.paragon_on_sheets`: they return next Round."""
    downed = {s.name for s in state.board.squadmates if s.downed}
    used = tuple(u for u in state.used if u[0] not in downed)
    return state if used == state.used else replace(state, used=used)


def _turn(state: RoundState, ctx: RoundContext, n: int, cut) -> tuple[RoundState, tuple[Step, ...]]:  # noqa: C901
    """:func:`squadmate_turn`'s rules; ``cut(label, state, n)`` (or ``None``) observes where a step-through may show
    the board within the turn (``n``: steps told so far)."""
    who = state.order[n - 1]
    section = ctx.section(state, f"Turn {n}: {who}")
    board = replace(state.board, current=who)
    state = replace(state, board=board)
    if board.squadmate(who).downed:
        declared = ctx.turn_of(who, state.round)
        if declared is not None and (declared.actions or declared.roll is not None):
            field = declared.roll.field if declared.roll is not None else declared.actions[0].field
            state, st = _not_allowed(state, RuleViolation(
                f"{who} is Downed: its sheet is face-down, it makes no Strategy Roll and takes no Actions until "
                "another Squadmate Revives it", S.DOWNED_SQUADMATES, field=field, step="Step A: Strategy Roll"))
            return state, (st.in_section(section),)
        st = Step(f"{who} is Downed: the sheet's back is not printed in the rulebook, no Actions here",
                  S.DOWNED_SQUADMATES, marks=(who,))
        card = state.hand(who)
        if declared is not None and declared.intuition is not None:
            return _downed_intuition(state, ctx, who, card, declared, st, section)
        if card is None:
            return state, (st.in_section(section),)
        return _downed_card(state, ctx, who, card, st, section)
    if who in state.revived and ctx.rulings.reading("revived_turn") == "no_turn":
        st = Step(f"{who} was Revived this Round: no turn until the next Round (ruling revived_turn = no_turn)",
                  S.BASIC_ACTIONS, marks=(who,))
        return state, (st.in_section(section),)
    turn = ctx.turn_of(who, state.round) or Turn(who, (), Choices())
    steps: list[Step] = []
    try:
        if turn.intuition is not None:
            state, more = _declare_intuition(state, ctx, who, turn)
            steps += more
        if turn.roll is None:
            paragon = sum(1 for d in state.dice if d.paragon)
            take = min(DICE_PER_TURN, state.pool - paragon)
            if len(turn.actions) > take:
                raise RuleViolation(f"{who} takes {plural(take, 'die')} and declares {len(turn.actions)} Actions: a "
                                    "further Action needs a Paragon die, named by die_id in a turn with a "
                                    "[turns.roll]", S.PARAGON_DICE, field=turn.actions[take].field,
                                    step="Step A: Strategy Roll")
            steps.append(Step(f"Step A: {who} takes {plural(take, 'die', 'dice')} from the Strategy Pool "
                              f"({state.pool} -> {state.pool - take})",
                              S.STRATEGY_ROLL, "The roll itself is not simulated here: the file declares the faces "
                              "taken (the "
                              "strategy kind plays a Strategy Roll with its Core Ability triggers).",
                              facts={"pool": state.pool - take}))
            state = replace(state, pool=state.pool - take,
                            dice=tuple(replace(d, face=None) for d in state.dice[take:]))
        else:
            paragon = sum(1 for d in state.dice if d.paragon)
            any_die = bool(paragon) and ctx.rulings.reading("paragon_counts_toward_three") == "any_die"
            take = min(DICE_PER_TURN, len(state.dice) if any_die else len(state.dice) - paragon)
            xp = state.board.squadmate(who).xp
            state, more = _strategy_roll(state, ctx, who, turn.roll, turn, None if cut is None else (
                lambda label, st, k, base=len(steps): cut(label, st, base + k)))
            steps += more
            state, more = _unlock_on_xp(state, ctx, who, xp)
            steps += more
            if len(turn.actions) > take + paragon:
                held = plural(take, 'die') if not paragon else (
                    f"{plural(take, 'die')} to take and {plural(paragon, 'Paragon die', 'Paragon dice')}")
                raise RuleViolation(f"the Strategy Pool held {held}: no die for a further Action",
                                    S.PARAGON_DICE if paragon else S.ACTIONS,
                                    field=turn.actions[take + paragon].field, step="Step B: Actions")
        _mark(cut, "Step A: Strategy Roll", state, len(steps))
        if turn.analysis is not None and turn.analysis[1] == "before_actions":
            state, more = _analysis(state, ctx, who, turn, None if cut is None else (
                lambda label, st, k, base=len(steps): cut(label, st, base + k)))
            steps += more
            _mark(cut, "Analysis", state, len(steps))
        for j, act in enumerate(turn.actions):
            xp = state.board.squadmate(who).xp
            pending: list = []                 # an Action's own frame boundaries, told once it is not refused
            sub = None if cut is None else (lambda label, st, k, base=len(steps), a=f"Action {j + 1} ({act.box})":
                                            pending.append((f"{a}: {label}", st, base + k)))
            state, more = _action(state, ctx, who, act, sub)
            for label, st, k in pending:
                cut(label, st, k)
            steps += more
            _mark(cut, f"Action {j + 1} ({act.box})", state, len(steps))
            stop = bool(state.board.failed or state.ending)
            if not stop:
                pending = []
                sub = None if cut is None else (lambda label, st, k, base=len(steps), a=f"Action {j + 1} ({act.box})":
                                                pending.append((f"{a}: {label}", st, base + k)))
                state, more = _end_of_action(state, ctx, who, act, sub)
                for label, st, k in pending:
                    cut(label, st, k)
                steps += more
                stop = state.board.failed
            if not stop:
                state, more = _unlock_on_xp(state, ctx, who, xp)
                steps += more
            _mark(cut, f"Action {j + 1} ({act.box})", state, len(steps))
            if stop:
                break
        if state.ending:
            return state, tuple(s.in_section(section) for s in steps)
        done = len(turn.actions) if turn.roll is None else _counted(state, ctx)
        if done < take and not state.board.failed:
            if turn.roll is None:
                left = plural(take - len(turn.actions), "more die", "more dice")
                steps.append(Step(f"{left} placed on matching Action Spaces without resolving the Actions", S.ACTIONS))
            else:
                state, more = _place_rest(state, ctx, who, turn.roll, take - done)
                steps += more
                _mark(cut, "Dice placed", state, len(steps))
        if turn.roll is not None:
            left = ", ".join(f"{d.id} {_FACE_WORDS[d.face.value]}" for d in state.dice) or "none"
            steps.append(Step(f"Actions over: {plural(len(state.dice), 'die')} left in the Strategy Pool ({left})",
                              S.ACTIONS, "The next Squadmate rolls what remains and may Lock one of these dice."
                              if state.dice else "", facts={"pool": len(state.dice)}))
            state = replace(state, rolled=False, pool=len(state.dice))
        if state.revived_dice:
            state, more = _locked_dice_back(state)
            steps += more
        _mark(cut, "Step B: Actions over", state, len(steps))
        if turn.analysis is not None and turn.analysis[1] == "until_hazard_card" and not state.board.failed:
            state, more = _analysis(state, ctx, who, turn, None if cut is None else (
                lambda label, st, k, base=len(steps): cut(label, st, base + k)))
            steps += more
            _mark(cut, "Analysis", state, len(steps))
    except RuleViolation as v:
        state, st = _not_allowed(state, v)
        steps.append(st)
        return state, tuple(s.in_section(section) for s in steps)
    if not state.board.failed:
        card = state.hand(who)
        if card is None:
            steps.append(Step(f"Step C: {who} has no Hazard card (Downed in the Preparation Phase, none was drawn)",
                              S.HAZARD_CARD, "A Hazard card is drawn in the Preparation Phase for each Squadmate "
                              "who is not Downed; Step C flips that card.", marks=(who,)))
        else:
            steps.append(Step(f"Step C: {who} flips Hazard card {card}", S.HAZARD_CARD, facts={"card": card}))
            _mark(cut, f"Step C: Hazard card {card}", state, len(steps))
            on_task = None
            if cut is not None:
                def on_task(b, k, label, base=len(steps), before=state):
                    cut(label, replace(before, board=b), base + k)
            board, more = _resolve_card(state.board, ctx, turn.choices, ctx.cards[card], state.disabled_turrets,
                                        on_task)
            steps += more
            state = replace(state, board=board, discard=state.discard + (card,),
                            hands=tuple(h for h in state.hands if h[0] != who))
        if not state.board.failed:
            board, more = coolant_leak_end_of_turn(ctx.terrain, state.board, who)
            steps += more
            state = replace(state, board=board)
    if turn.intuition is not None:
        state, more = _intuition_over(state, turn)
        steps += more
    return state, tuple(s.in_section(section) for s in steps)


def _declare_intuition(state: RoundState, ctx: RoundContext, who: str, turn: Turn) -> tuple[RoundState, list[Step]]:
    """Squadmate Commentary › Liara T'Soni › Shadow Broker Intuition, declared for a turn (``turns[i].intuition``,
    an Enemy on the map): the next time that Enemy targets any Squadmate this turn (Attacking; an Opportunity Attack
    under the ruling ``intuition_attacks = opportunity_too``), that Attack deals the sheet's ``intuition`` less
    Damage (a stand-in: once per Round, :attr:`RoundState.intuition_used`).

    Raises:
        RuleViolation: no such box in the squad, Locked, its owner Downed, already used this Round, or no such
            Enemy on the map (field ``turns[i].intuition``).
    """
    f, step = f"{turn.field}.intuition", "Shadow Broker Intuition"
    owner = next(((sq.name, b) for sq in state.board.squadmates for b in ctx.sheets[sq.name].boxes if b.intuition),
                 None)
    if owner is None:
        raise RuleViolation("no Squadmate of the squad has Shadow Broker Intuition (a sheet box with intuition)",
                            S.COMMENTARY_LIARA_SHADOW_BROKER, field=f, step=step)
    name, b = owner
    if not is_unlocked(state, ctx, name, b.name):
        raise RuleViolation(f"{name}'s {b.name} is a Locked Ability: it cannot be used until unlocked",
                            S.UNLOCKING_ABILITIES, field=f, step=step)
    if state.board.squadmate(name).downed:
        raise RuleViolation(f"{name} is Downed: she cannot use {b.name}", S.DOWNED_SQUADMATES, field=f, step=step)
    if state.round in state.intuition_used:
        raise RuleViolation(f"{b.name} was already used this Round: once per Round (the sheet file's, a stand-in)",
                            S.COMMENTARY_LIARA_SHADOW_BROKER, field=f, step=step)
    if state.board.enemy(turn.intuition) is None:
        names = ", ".join(e.name for e in state.board.enemies) or "none"
        raise RuleViolation(f"{turn.intuition} is not on the map (Enemies: {names})",
                            S.COMMENTARY_LIARA_SHADOW_BROKER, field=f, step=step)
    st = Step(f"{name} readies {b.name} for {turn.intuition}: the next time it targets any Squadmate this turn, that "
              f"Attack deals {b.intuition} less Damage", S.COMMENTARY_LIARA_SHADOW_BROKER,
              "Usable when an Enemy targets any Squadmate, not just Liara; which Attacks: ruling intuition_attacks = "
              f"{ctx.rulings.reading('intuition_attacks')}. What it does is the sheet file's intuition "
              f"({_standin(ctx)}).", facts={"enemy": turn.intuition, "damage": b.intuition}, marks=(name,))
    board = replace(state.board, intuition=(name, turn.intuition, b.intuition))
    return replace(state, board=board), [st]


def _intuition_over(state: RoundState, turn: Turn) -> tuple[RoundState, list[Step]]:
    """The turn's end for a declared Shadow Broker Intuition: used (spent for this Round) or, when its Enemy targeted
    no Squadmate, not used (the declaration lapses)."""
    if state.board.intuition is None:
        return replace(state, intuition_used=state.intuition_used + (state.round,)), []
    who, enemy, _ = state.board.intuition
    st = Step(f"{enemy} targeted no Squadmate this turn: {who}'s Shadow Broker Intuition is not used",
              S.COMMENTARY_LIARA_SHADOW_BROKER, facts={"enemy": enemy, "used": False}, marks=(who,))
    return replace(state, board=replace(state.board, intuition=None)), [st]


def _locked_dice_back(state: RoundState) -> tuple[RoundState, list[Step]]:
    """Ruling ``revived_locked_dice = at_revive``: the dice Locked on the sheet of each Squadmate Revived during these
    Actions rejoin the Pool (not rolled yet: the next Strategy Roll rolls them), numbered after the dice gathered."""
    steps = []
    for who in state.revived_dice:
        k = dict(state.locked).get(who, 0)
        top = max([int(d.id[1:]) for d in state.dice if not d.paragon] + [STRATEGY_DICE - sum(
            n for _, n in state.locked)])
        new = tuple(Die(f"S{top + i + 1}") for i in range(k))
        state = replace(state, dice=state.dice + new, pool=state.pool + k,
                        locked=tuple(x for x in state.locked if x[0] != who))
        steps.append(Step(f"{plural(k, 'die', 'dice')} Locked on {who}'s sheet back in the Strategy Pool "
                          f"({', '.join(d.id for d in new)}): {state.pool} now", S.DOWNED_SQUADMATES,
                          "Ruling revived_locked_dice = at_revive: Revived, the sheet Locks them no longer; the next "
                          "Strategy Roll rolls them.", facts={"returned": [d.id for d in new], "pool": state.pool},
                          marks=(who,)))
    return replace(state, revived_dice=()), steps


def _analysis(state: RoundState, ctx: RoundContext, who: str, turn: Turn, mark=None
              ) -> tuple[RoundState, list[Step]]:
    """Squadmate Commentary › Liara T'Soni › Analysis: after the Strategy Roll (every icon triggered, the token
    moved one space right per icon), Liara may use Analysis on a Hazard card face-down next to a Squadmate Sheet,
    never one still in the deck. When: right after the roll, or later up to Step C as the ruling ``analysis_window``
    allows.
    What it costs and does is printed on her sheet, not in the rulebook: the sheet file's ``analysis_cost`` (spaces
    the token goes back) and a stand-in effect, the chosen card discarded unresolved and the deck's top card dealt
    face-down in its place (reshuffled first if the deck is empty). ``mark(label, state, n)`` (or ``None``): the
    frame-boundary observer, told the state after the card is discarded.

    Raises:
        RuleViolation: too late for the ruling (field ``turns[i].analysis.when``); the token short of the cost, or no
            face-down card next to that sheet (``turns[i].analysis.card_of``).
    """
    card_of, when = turn.analysis
    step = "Step A: Strategy Roll"
    if when == "until_hazard_card" and ctx.rulings.reading("analysis_window") == "before_actions":
        raise RuleViolation("Analysis is used right after the Strategy Roll, before Step B (ruling analysis_window = "
                            "before_actions)", S.COMMENTARY_LIARA, field=f"{turn.field}.analysis.when", step=step)
    sheet = ctx.sheets[who]
    if state.analysis_token < sheet.analysis_cost:
        raise RuleViolation(f"the Analysis token is {state.analysis_token} of {sheet.analysis_track} spaces along; "
                            f"Analysis needs {sheet.analysis_cost}", S.COMMENTARY_LIARA,
                            field=f"{turn.field}.analysis", step=step)
    card = state.hand(card_of)
    if card is None:
        raise RuleViolation(f"no Hazard card lies face-down next to {card_of}'s sheet (flipped already, or none was "
                            "drawn); a card still in the deck cannot be chosen", S.COMMENTARY_LIARA,
                            field=f"{turn.field}.analysis.card_of", step=step)
    token = state.analysis_token - sheet.analysis_cost
    state = replace(state, analysis_token=token, hands=tuple(h for h in state.hands if h[0] != card_of),
                    discard=state.discard + (card,))
    steps = [Step(f"{who} uses Analysis on {card_of}'s face-down Hazard card {card}: discarded unresolved "
                  f"(token {token + sheet.analysis_cost} -> {token})", S.COMMENTARY_LIARA,
                  ("Ruling analysis_window = until_hazard_card. " if when == "until_hazard_card" else "")
                  + "Only a card face-down next to a sheet can be chosen. The cost and the effect are printed on "
                  "Liara's sheet, not in the rulebook: the sheet file's analysis_cost and a stand-in effect (the card "
                  "is replaced by the deck's top card).", facts={"card": card, "of": card_of, "analysis_token": token},
                  marks=(who, card_of))]
    if mark is not None:
        mark("Analysis: card discarded", state, 1)
    if not state.deck:
        state, more = _reshuffle(state, ctx)
        steps += more
    if state.deck:
        new = state.deck[0]
        state = replace(state, deck=state.deck[1:], hands=state.hands + ((card_of, new),))
        steps.append(Step(f"Hazard card {new} dealt face-down next to {card_of}'s sheet in its place",
                          S.COMMENTARY_LIARA, facts={"card": new, "of": card_of}, marks=(card_of,)))
    else:
        steps.append(Step(f"No card left to deal: {card_of} has no Hazard card this Round", S.HAZARD_CARD,
                          marks=(card_of,)))
    return state, steps


def _mark(cut, label: str, state: RoundState, told: int) -> None:
    """Tell the frame-boundary observer (if any) that the board after ``told`` steps of the turn is ``state``."""
    if cut is not None:
        cut(label, state, told)


def split_turn_frames(frames, cuts) -> tuple[Frame, ...]:
    """The kernel frames of a Round (one per phase and per Squadmate's turn), each turn's frame split at the
    boundaries its play recorded in :attr:`RoundContext.cuts`: one frame per Step A, Action, Opportunity Attack,
    Hazard card flip and task (an Enemy's Activation, a Spawn, the Turrets), and the rest of the turn, named
    ``"<label> · <turn frame's name>"`` (``"Action 2 (Move) · Turn 1"``), each holding the state after its steps.
    The Preparation and End Phases are split the same way (each Hazard card drawn, the Pool; each Squadmate's Shields,
    each Enemy's tokens) and an Action within itself (its die allocated, each Damage, Loot hex, Inventory token):
    a step that tells of a change is always the last of its piece, so the board drawn with it shows the change.
    The steps, in order, are the turn frame's, so the trace is unchanged; the last piece holds the turn's final
    state."""
    groups = list(cuts or ())
    out: list[Frame] = []
    for f in frames:
        at = next((i for i, (st, _g) in enumerate(groups) if st is f.state), None)
        group = groups.pop(at)[1] if at is not None else None     # each turn's own frame, once (a later empty
        if not group:                                              # frame may hold the very same state)
            out.append(f)
            continue
        pieces: list[Frame] = []
        done = 0
        for label, st, k in group:
            if k > done:
                pieces.append(Frame(f"{label} · {f.name}", st, f.steps[done:k]))
                done = k
            elif pieces and k == done:           # a later boundary after the same steps (an Action's end after
                pieces[-1] = Frame(f"{label} · {f.name}", st, pieces[-1].steps)   # its Move): its name and state
        if done < len(f.steps):
            last = "Not allowed · " if f.state.rejected else "End of the turn · " if "Turn " in f.name else ""
            pieces.append(Frame(f"{last}{f.name}", f.state, f.steps[done:]))
        elif pieces:
            pieces[-1] = replace(pieces[-1], state=f.state)
        out += pieces or [f]
    return tuple(out)


def _not_allowed(state: RoundState, v: RuleViolation) -> tuple[RoundState, Step]:
    """A refused declaration: the "Not allowed" step citing the rule and naming the field; the Round stops."""
    title = f"Not allowed: {v.reason} [{v.section}] ({v.rejection.field})"
    board = state.board.logged(Refused(title))
    st = Step(title, S.ref(v.section) if isinstance(v.section, str) else S.ACTIONS,
              facts={"rejected": True, "field": v.rejection.field})
    return replace(state, board=board, rejected=f"{v.reason} [{v.section}] ({v.rejection.field})"), st


# --- End Phase -----------------------------------------------------------------------------------------------------


def round_end_phase(state: RoundState, ctx: RoundContext) -> tuple[RoundState, tuple[Step, ...]]:
    """End Phase: every Squadmate recovers all Shield Points; Damage and Biotic Effect tokens are removed from every
    Enemy and Stunned Enemies not in Shrouded areas flip to Active; the On Point token passes to the right,
    skipping Downed Squadmates. Not played once the Mission has ended or a declaration was refused. With
    :attr:`RoundContext.cuts`, a step-through's frame ends after each Squadmate's and each Enemy's tokens."""
    return _observed(_end_phase, state, ctx)


def _end_phase(state: RoundState, ctx: RoundContext, cut) -> tuple[RoundState, tuple[Step, ...]]:
    """:func:`round_end_phase`'s rules; ``cut(label, state, n)`` (or ``None``) observes the frame boundaries."""
    if round_stopped(state):
        return state, ()
    board = state.board
    steps: list[Step] = [Step("End Phase", S.END_PHASE)]
    sqs = []
    for s in board.squadmates:
        new, more = restore_shields(s)
        sqs.append(new)
        steps += more
        if more:
            _mark(cut, f"{s.name}'s Shields", replace(state, board=replace(
                board, squadmates=tuple(sqs) + board.squadmates[len(sqs):])), len(steps))
    ens = []
    for e in board.enemies:
        new, more = enemy_end_phase(replace(e, shrouded=e.shrouded or shrouded_now(ctx.terrain, board, e.position)))
        ens.append(replace(new, shrouded=e.shrouded))
        steps += more
        if more:
            _mark(cut, f"{e.name}'s tokens", replace(state, board=replace(
                board, squadmates=tuple(sqs), enemies=tuple(ens) + board.enemies[len(ens):])), len(steps))
    board = replace(board, squadmates=tuple(sqs), enemies=tuple(ens))
    nxt, more = pass_on_point(board.squadmates, state.on_point, ctx.rulings)
    steps += more
    board = board.logged(OnPointPassed(state.on_point, nxt, len(board.squadmates) == 1))
    ending = None
    if ctx.time_limit is not None and state.round >= ctx.time_limit:
        ending = "Failure: time ran out"
        steps.append(Step(f"Time runs out after Round {state.round}: the Mission ends in Failure", S.ENDING_A_MISSION,
                          "How long the squad has is the Mission Rules page's (the file's time_limit, in Rounds).",
                          facts={"ending": ending}))
    state = replace(state, board=board, on_point=nxt, ending=ending)
    if ending:
        state, more = _score_war_readiness(state, ctx, "failure", "the Failure")
        steps += more
    return state, tuple(
        s.in_section(ctx.section(state, "End Phase")) for s in steps)


def mission_ended(state: RoundState) -> tuple[int, ...]:
    """The items of the "Ending a Mission" entry: ``(the Round,)`` once the Mission has ended (not by a refusal) with
    tokens in the Inventory, else ``()`` (no frame)."""
    if state.rejected is not None or not (state.ending or state.board.failed) or not state.inventory:
        return ()
    return (state.round,)


def ending_a_mission(state: RoundState, ctx: RoundContext, _round: int = 0) -> tuple[RoundState, tuple[Step, ...]]:
    """Ending a Mission (:func:`_ending`); with :attr:`RoundContext.cuts`, a step-through's frame ends after the
    Intel Gathered boxes are marked and after each Ability they unlock."""
    return _observed(_ending, state, ctx)


def _ending(state: RoundState, ctx: RoundContext, cut) -> tuple[RoundState, tuple[Step, ...]]:
    """Ending a Mission, once it has ended (an Objective, time, Shepard Downed) with tokens in the Inventory: for
    each Intel Cache token an Intel Gathered box is marked on the Campaign Map, in order after the file's
    ``intel_gathered``; a marked box with an icon (every third: The Campaign Map) lets one Squadmate unlock an
    Ability at once (the file's ``intel_unlocks``, in order; Advanced and Loyalty prerequisites apply); then the
    Intel Cache, Grenade (Cache) and Medi-gel tokens carried go back to the game box (Intel Cache Tokens; Grenade
    and Grenade Cache Tokens; Medi-gel Tokens). Nothing to say otherwise. A prerequisite not met is refused."""
    if state.rejected is not None or not (state.ending or state.board.failed) or not state.inventory:
        return state, ()
    section = ctx.section(state, "Ending a Mission")
    steps: list[Step] = []
    intel = state.inventory.count("intel_cache")
    try:
        if intel:
            first = ctx.intel_gathered + 1
            marked = tuple(k for k in range(first, first + intel) if k <= INTEL_BOXES)
            boxes = ", ".join(map(str, marked))
            steps.append(Step(f"Ending a Mission: {plural(intel, 'Intel Cache token')} in the Inventory: Intel "
                              f"Gathered {'box' if len(marked) == 1 else 'boxes'} {boxes} marked on the Campaign Map",
                              S.INTEL_CACHES, f"Marked in order, after the {ctx.intel_gathered} already marked (the "
                              "file's intel_gathered); the Intel Cache tokens then return to the game box.",
                              facts={"marked": list(marked)}))
            state = replace(state, intel_marked=marked)
            _mark(cut, "Intel Gathered", state, len(steps))
            icons = [k for k in marked if k % INTEL_ICON_EVERY == 0]
            for n, k in enumerate(icons):
                if n >= len(ctx.intel_unlocks):
                    steps.append(Step(f"Intel Gathered box {k} has an icon: one Squadmate may unlock an Ability "
                                      "(the file's intel_unlocks names none)", S.CAMPAIGN_MAP))
                    continue
                who, box = ctx.intel_unlocks[n]
                name = _check_prerequisites(state, ctx, who, box, f"intel_unlocks[{n}].box", "intel")
                steps.append(Step(f"Intel Gathered box {k} has an icon: {who} unlocks {name}", S.UNLOCKING_ABILITIES,
                                  "A marked box with an icon lets one Squadmate unlock an Ability at once (the file's "
                                  "intel_unlocks).", facts={"squadmate": who, "unlocked": name}, marks=(who,)))
                state = replace(state, unlocked=state.unlocked + ((who, name),))
                _mark(cut, f"{who} unlocks {name}", state, len(steps))
    except RuleViolation as v:
        state, st = _not_allowed(state, v)
        return state, tuple(s.in_section(section) for s in [*steps, st])
    for kinds, rule in ((("grenade", "grenade_cache"), S.GRENADES), (("medi_gel",), S.MEDI_GEL)):
        carried = [t for t in state.inventory if t in kinds]
        if carried:
            names = ", ".join(f"{state.inventory.count(t)} {LOOT_LABEL[t]}" for t in dict.fromkeys(carried))
            steps.append(Step(f"Carried at the end of the Mission: {names}, returned to the game box", rule))
    return replace(state, inventory=()), tuple(s.in_section(section) for s in steps)


ROUND_SEQUENCE = (("Start of the Round", start_of_round), ("Preparation Phase", preparation_phase),
                  Each("Turn {item}", turn_numbers, squadmate_turn, stop=round_stopped),
                  ("End Phase", round_end_phase), Each("Ending a Mission", mission_ended, ending_a_mission))
"""The ``round`` kind as the kernel plays it: Inferno Damage at the start of the Round, the Preparation Phase, one
frame per Squadmate's turn (until the Mission
ends or a declaration is refused), the End Phase."""


@dataclass(frozen=True)
class Phase:
    """One frame of a several-Round play: Round ``round``'s ``kind`` (``start``, ``prep``, ``turn`` ``n``, ``end``)."""

    round: int
    kind: str
    n: int = 0

    def __str__(self) -> str:
        what = {"start": "Start of the Round", "prep": "Preparation Phase", "end": "End Phase"}.get(self.kind,
                                                                                                  f"Turn {self.n}")
        return f"Round {self.round} · {what}"


def mission_phases(state: RoundState) -> tuple[Phase, ...]:
    """Every phase of every Round the file plays, in order (a Round: its start, the Preparation Phase, one turn per
    Squadmate, the End Phase; Sequence of Play: once the End Phase is over a new Round begins)."""
    n = len(state.board.squadmates)
    return tuple(p for r in range(1, state.rounds_to_play + 1)
                 for p in (Phase(r, "start"), Phase(r, "prep"), *(Phase(r, "turn", k) for k in range(1, n + 1)),
                           Phase(r, "end")))


def mission_phase(state: RoundState, ctx: RoundContext, phase: Phase) -> tuple[RoundState, tuple[Step, ...]]:
    """One phase of a several-Round play (:data:`ROUNDS_SEQUENCE`): the same step functions as one Round's."""
    if phase.kind == "start":
        return start_of_round(replace(state, round=phase.round), ctx)
    if phase.kind == "prep":
        return preparation_phase(state, ctx)
    if phase.kind == "turn":
        return squadmate_turn(state, ctx, phase.n)
    return round_end_phase(state, ctx)


ROUNDS_SEQUENCE = (Each("{item}", mission_phases, mission_phase, stop=round_stopped),
                   Each("Round {item} · Ending a Mission", mission_ended, ending_a_mission))
"""A round file with ``rounds`` > 1 as the kernel plays it: Round after Round, one frame per phase and turn (the
frames of :data:`ROUND_SEQUENCE`, named "Round r · ..."), until the Mission ends or a declaration is refused."""


def sequence_of(scenario: RoundScenario) -> tuple:
    """The sequence a round file is played by: :data:`ROUND_SEQUENCE` for one Round (its frames "Start of the
    Round", "Preparation Phase", "Turn n", "End Phase"), :data:`ROUNDS_SEQUENCE` for ``rounds`` > 1."""
    return ROUND_SEQUENCE if scenario.rounds == 1 else ROUNDS_SEQUENCE


# --- outcome, resolve -----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RoundOutcome(Outcome):
    """A Round played: every Squadmate and Enemy where it ends, the Minions returned to the Enemy Bag, the next On
    Point Squadmate, the Hazard discard pile, the dice left in the Pool, whether the Mission failed, the refused
    declaration (or ``None``) and :attr:`events` (what happened, in order)."""

    squadmates: tuple[SquadmateAt, ...]
    enemies: tuple[EnemyAt, ...]
    returned_to_bag: tuple[str, ...]
    on_point: str
    discard: tuple[str, ...]
    pool: int
    mission_failed: bool
    rejected: str | None
    events: tuple[Happening, ...] = ()
    loot_in_play: bool = False
    inventory: tuple[str, ...] = ()
    loot: tuple[tuple[str, tuple[str, ...]], ...] = ()
    mission_rules: bool = False
    completed: tuple[str, ...] = ()
    ending: str | None = None
    renegade: tuple[tuple[str, int], ...] = ()
    intel_marked: tuple[int, ...] = ()
    turrets_disabled: tuple[str, ...] = ()
    campaign_next: tuple[int, int] | None = None
    war_readiness: int | None = None
    core: tuple[tuple[str, Any], ...] = ()
    """The Core Ability elements at the end (``command_ready``, ``aim``, ``enraged``), each only when not 0."""
    mines: tuple[str, int] | None = None
    """``(Squadmate, Proximity Mine tokens left)`` when a Squadmate has Proximity Mines unlocked (Squadmate Commentary
    › Garrus Vakarian › Proximity Mines), else ``None``; said in the outcome text and, in :meth:`to_json`, as
    ``"proximity_mines": {Squadmate: tokens left}`` (only then)."""
    kind = "round"

    @property
    def removed(self) -> tuple[str, ...]:
        return ()

    def to_json(self) -> dict[str, Any]:
        return {"squadmates": {s.name: s.to_json() for s in self.squadmates},
                "enemies": {e.name: e.to_json() for e in self.enemies},
                "returned_to_bag": list(self.returned_to_bag), "on_point": self.on_point,
                "hazard_discard": list(self.discard), "pool": self.pool, "mission_failed": self.mission_failed,
                "rejected": self.rejected,
                **({"inventory": list(self.inventory), "loot": {h: list(t) for h, t in self.loot}}
                   if self.loot_in_play else {}),
                **({"objectives_completed": list(self.completed), "ending": self.ending} if self.mission_rules else {}),
                **({"renegade_tokens": dict(self.renegade)} if self.renegade else {}),
                **({"intel_gathered_marked": list(self.intel_marked)} if self.intel_marked else {}),
                **({"turrets_disabled": list(self.turrets_disabled)} if self.turrets_disabled else {}),
                **({"war_readiness": self.war_readiness} if self.war_readiness is not None else {}),
                **({"core_abilities": dict(self.core)} if self.core else {}),
                **({"proximity_mines": {self.mines[0]: self.mines[1]}} if self.mines is not None else {}),
                **({"next_mission": {"paragon_dice": self.campaign_next[0],
                                     "renegade_victories": self.campaign_next[1]}} if self.campaign_next else {})}


def round_start(scenario: RoundScenario, rulings: Mapping[str, str] | None = None, seed: int | None = None
                ) -> tuple[RoundState, RoundContext]:
    """The initial :class:`RoundState` and the :class:`RoundContext` of a ``round`` scenario: its rulings (the
    file's, then ``rulings``) and a fresh :class:`~explorer.dice.Dice` (``seed``, else the file's ``seed``; the
    Strategy Rolls' faces the file does not fix come from it). A replay needs a new context (fresh dice)."""
    r = _rulings_for({**scenario.rulings, **(rulings or {})})
    terrain = MapTerrain(_load_map(scenario.map, None), r)
    sqs, ens = check_units(scenario.squadmates, scenario.enemies, None, need_positions=True)
    bag = check_bag(scenario.bag, ens, [s.name for s in sqs], None)
    board = Board(sqs, ens, scenario.on_point, bag)
    cards = {c.name: tuple(TurretFire(i.damage) if i.do == "activate_turrets" else _card(_CardView([i]))[0]
                           for i in c.instructions) for c in scenario.hazard_deck}
    turns = []
    for i, t in enumerate(scenario.turns):
        ch = t.choices
        choices = Choices(tuple(ch.activation_order), tuple(ch.attack_target),
                          {k: parse_hex(v) for k, v in ch.advance_to.items()},
                          tuple(parse_hex(h) for h in ch.spawn_hex), tuple(ch.opportunity_order))
        acts = tuple(Action(a.box, a.die, tuple(parse_hex(h) for h in a.path), a.target, a.resolve,
                            f"turns[{i}].actions[{j}]", a.die_id,
                            tuple(Item(it.use, it.when, parse_hex(it.at) if it.at else None, it.target,
                                       f"turns[{i}].actions[{j}].items[{k}]") for k, it in enumerate(a.items)),
                            a.completes, parse_hex(a.turret) if a.turret else None, a.mission, a.command, a.aim,
                            a.calibrate, a.battlemaster, a.second_target)
                     for j, a in enumerate(t.actions))
        drone = tuple(Drone(tuple(parse_hex(h) for h in d.path), d.target, parse_hex(d.turret) if d.turret else None,
                            f"turns[{i}].drone[{k}]") for k, d in enumerate(t.drone))
        roll = None
        if t.roll is not None:
            ro = t.roll
            roll = Roll(ro.lock, tuple(tuple(f) for f in ro.rolls), ro.renegade_tokens,
                        tuple(RenegadeUse(u.die, Face(u.face), u.round) for u in ro.renegade),
                        None if ro.place is None else tuple(ro.place), f"turns[{i}].roll")
        turns.append(Turn(t.squadmate, acts, choices, roll, t.round,
                          (t.analysis.card_of, t.analysis.when) if t.analysis else None, f"turns[{i}]", drone,
                          t.intuition))
    state = RoundState(board, scenario.on_point, deck=tuple(c.name for c in scenario.hazard_deck),
                       rounds_to_play=scenario.rounds,
                       loot=tuple((parse_hex(h), tuple(v)) for h, v in scenario.loot.items() if v),
                       inventory=tuple(scenario.inventory))
    dice = Dice(seed=seed if seed is not None else scenario.seed)
    sheets = load_sheets(scenario.sheets)
    drone = next((s for s in sqs if sheets[s.name].drone_move), None)
    chatika = parse_hex(scenario.chatika) if scenario.chatika else drone.position if drone is not None else None
    unlocked = tuple((who, sheets[who].box(b).name) for who, bs in scenario.unlocked.items() for b in bs)
    mine_box = next((b for s in sqs for b in sheets[s.name].boxes
                     if b.mines and (b.unlocked or (s.name, b.name) in unlocked)), None)
    mines = (scenario.proximity_mines if scenario.proximity_mines is not None
             else mine_box.mines if mine_box is not None else 0)
    if any(b.asari_controller and (b.unlocked or (s.name, b.name) in unlocked) for s in sqs
           for b in sheets[s.name].boxes):
        state = replace(state, board=replace(state.board, asari_controller=True))
    krogan = next(((s.name, b.closer_shield) for s in sqs for b in sheets[s.name].boxes
                   if b.closer_shield and (b.unlocked or (s.name, b.name) in unlocked)), None)
    if krogan is not None:
        state = replace(state, board=replace(state.board, krogan=krogan))
    state = replace(state, completed=tuple(o.name for o in scenario.objectives if o.completed),
                    unlocked=unlocked, mines=mines,
                    analysis_token=scenario.analysis_token, command_ready=scenario.command_ready,
                    aim=scenario.aim_value, chatika=chatika, enraged=scenario.enraged, sheets=sheets,
                    renegade=() if scenario.renegade_victories is None else tuple(
                        (s.name, scenario.renegade_victories) for s in sqs))
    return state, RoundContext(r, dice, terrain, sheets, cards, tuple(turns), scenario.rounds,
                               tuple(tuple(o) for o in scenario.reshuffles),
                               {o.name: (o.kind, o.after) for o in scenario.objectives}, scenario.time_limit,
                               {u.squadmate: u.box for u in scenario.unlocks}, scenario.paragon_dice,
                               scenario.renegade_victories, scenario.intel_gathered,
                               tuple((u.squadmate, u.box) for u in scenario.intel_unlocks), scenario.loyalty_mission,
                               standin_sheets=scenario.sheets == STANDIN and not scenario.downed_locks,
                               standin_sheet_file=scenario.sheets == STANDIN,
                               downed_locks=dict(scenario.downed_locks),
                               war_readiness=(scenario.war_readiness or WarReadinessSpec()).model_dump()
                               if scenario.objectives or scenario.war_readiness else None,
                               war_standin=scenario.war_readiness is None,
                               mission_actions={r.name: r for r in scenario.mission_actions},
                               campaign="paragon_dice" in scenario.model_fields_set
                               or scenario.renegade_victories is not None)


@dataclass(frozen=True)
class _CardView:
    """A Hazard card's instructions in the shape :func:`.activation._card` reads."""

    hazard: list


def round_outcome(state: RoundState, loot_in_play: bool = False, mission_rules: bool = False,
                  war: Mapping[str, int] | None = None) -> RoundOutcome:
    """The typed outcome of a played Round (``loot_in_play``: the file has Loot tokens or an Inventory, so the
    outcome lists them; ``mission_rules``: it has Objectives or a time limit, so the outcome gives the Objectives
    completed and how the Mission ended)."""
    b = state.board
    return RoundOutcome(
        tuple(SquadmateAt(s.name, s.shield_points, s.hit_points, s.downed, hex=str(s.position)) for s in b.squadmates),
        tuple(EnemyAt(e.name, e.damage, e.stunned, hex=str(e.position)) for e in b.enemies),
        b.returned_to_bag, state.on_point, state.discard, state.pool, b.failed, state.rejected, b.log,
        loot_in_play, state.inventory, tuple((str(h), t) for h, t in state.loot), mission_rules, state.completed,
        state.ending or ("Failure: Shepard is Downed" if b.failed else None), state.renegade, state.intel_marked,
        tuple(str(h) for h in state.disabled_turrets), state.campaign_next,
        None if war is None else state.war_readiness,
        tuple((k, v) for k, v in (("command_ready", state.command_ready), ("aim", state.aim),
                                  ("enraged", state.enraged)) if v),
        _mine_owner(state))


def _mine_owner(state: RoundState) -> tuple[str, int] | None:
    """``(Squadmate, Proximity Mine tokens left)`` when a Squadmate's unlocked box has Proximity Mine tokens (on the
    sheet, or unlocked earlier / during play), else ``None``."""
    for sq in state.board.squadmates:
        sheet = (state.sheets or {}).get(sq.name)
        for b in sheet.boxes if sheet is not None else ():
            if b.mines and (b.unlocked or (sq.name, b.name) in state.unlocked):
                return sq.name, state.mines
    return None


def play_round(scenario: RoundScenario, rulings: Mapping[str, str] | None = None, seed: int | None = None,
               *, fine: bool = True):
    """The frames of a ``round`` scenario and its trace (typed result :class:`RoundOutcome`). The kernel plays
    :data:`ROUND_SEQUENCE` (one frame per phase and per turn); with ``fine`` (the default) each turn's frame is
    split (:func:`split_turn_frames`) so that a step-through shows the board after each Action, Opportunity
    Attack and Hazard card task. The trace is the same either way."""
    state, ctx = round_start(scenario, rulings, seed)
    ctx = replace(ctx, cuts=[] if fine else None)
    frames = play(state, sequence_of(scenario), ctx)
    final = frames[-1].state if frames else state
    trace = trace_of(scenario.title or "A Round", frames, ctx.rulings.consulted)
    if fine:
        frames = split_turn_frames(frames, ctx.cuts)
    return frames, trace.with_result(round_outcome(final, bool(scenario.loot or scenario.inventory),
                                                   bool(scenario.objectives) or scenario.time_limit is not None,
                                                   ctx.war_readiness))


def resolve_round(scenario: RoundScenario, rulings: Mapping[str, str] | None = None,
                  seed: int | None = None) -> Trace:
    """Play one Round (:data:`ROUND_SEQUENCE`). ``seed`` (else the file's) rolls the Strategy Roll faces a
    ``[turns.roll]`` does not fix; turns without a roll declare their faces; the Enemy Bag's draws are the file's
    ``bag``.

    Returns:
        a Trace whose typed ``result`` is a :class:`RoundOutcome`; its JSON ``outcome`` is ``{"squadmates": {name:
        {hex, shield_points, hit_points, downed}}, "enemies": {name: {hex, damage, stunned}}, "returned_to_bag",
        "on_point" (next Round's), "hazard_discard", "pool" (dice left), "mission_failed", "rejected"}``, plus
        ``"war_readiness"`` (scored this Mission, when it has Objectives), ``"inventory"`` (token kinds) and
        ``"loot"`` ({hex: tokens still face-down}) when the file has Loot, ``"proximity_mines"`` ({Squadmate: tokens
        left}) when a Squadmate has Proximity Mines unlocked (Squadmate Commentary › Garrus Vakarian › Proximity
        Mines).
    """
    return play_round(scenario, rulings, seed)[1]
