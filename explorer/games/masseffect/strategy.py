"""The Strategy Pool of Mass Effect: Priority Hagalaz: Strategy dice, the Strategy Roll, Action Spaces.

Sections implemented (titles in :mod:`.sections`):

* Playing a Mission › Sequence of Play › On Point, The Strategy Pool, Strategy Die Icons (the six faces; the Icon
  Reference › Dice lists the same six);
* Playing a Mission › Preparation Phase (the On Point player gathers the Pool; dice Locked by a Downed Squadmate
  reduce it) and Squadmate Sheets › Downed Squadmates;
* Playing a Mission › Squadmate Phase › Step A: Strategy Roll (Lock one die of the previous player, never for the On
  Point Squadmate; roll the rest) and Core Abilities (each icon triggers the Core Ability, icons are re-rolled, repeat
  until none remain);
* Step B: Actions, Action Spaces, Basic Actions (Move: 2 or 3 Movement Points), Ability Actions › Enhanced Actions
  (which faces each space accepts; a Squadmate always takes three dice and may place them without resolving);
* Additional Rules › Paragon Dice and Renegade Tokens (Paragon dice in the Pool and taken on top of the three;
  a Renegade token changes one die after the roll, before the Core Ability triggers);
* Squadmate Commentary › Liara T'Soni › Analysis (her Analysis token moves one space per icon rolled).

The Strategy Roll is a chain of small step functions over immutable state (:class:`RollState`), each named after its
rule and returning ``(new_state, steps)`` where ``steps`` are cited :class:`explorer.trace.Step`:
:func:`lock_die` → :func:`roll_pool` → :func:`use_renegade_token` (optional) → :func:`trigger_core_ability` →
:func:`reroll_icons` → ... until :func:`icons_showing` is empty. Step B is :func:`begin_actions` →
:func:`allocate_die` (× 3, plus Paragon dice) → :func:`end_actions`. The kernel (:mod:`explorer.kernel`) plays them
as :data:`STRATEGY_SEQUENCE` over a :class:`StrategyState` (Preparation Phase, Lock, the roll, one frame per roll
round, Actions); :func:`strategy_roll` plays the roll part (:data:`ROLL_SEQUENCE`).

Dice come from an :class:`explorer.dice.Roller` as d6 faces 1..6 mapped onto :data:`FACES` (the order of the Strategy
Die Icons paragraph; the book prints no numbers on the dice, so the numbering is ours and only matters for scripted
d6 values). The scenario kind ``"strategy"`` is :func:`parse_strategy` / :func:`resolve_strategy`.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Literal

from explorer.dice import Roller
from explorer.errors import RuleViolation, ScenarioError
from explorer.kernel import Context, Each, run
from explorer.options import Rulings
from explorer.text import agree, plural
from explorer.trace import Step

from . import sections as S
from .options import ALL_OPTIONS

# -- the Strategy die ------------------------------------------------------------------------------------------------


class Face(StrEnum):
    """A face of the Strategy die (Sequence of Play › Strategy Die Icons: the book lists the six icons each die
    shows; Icon Reference › Dice names the same six). The value is the name used in scenario files."""

    MOVE_2 = "move_2"
    MOVE_3 = "move_3"
    STANDARD = "standard"
    ENHANCED = "enhanced"
    MOVE_2_OR_STANDARD = "move_2_or_standard"
    CORE = "core"


FACES: tuple[Face, ...] = (Face.MOVE_2, Face.MOVE_3, Face.STANDARD, Face.ENHANCED, Face.MOVE_2_OR_STANDARD, Face.CORE)
"""The six faces of a Strategy die, one each (so each face has probability 1/6). ``FACES[v - 1]`` is the face for a
d6 value ``v`` (our numbering, in the order of the Strategy Die Icons paragraph)."""

ACTION_FACES: tuple[Face, ...] = FACES[:5]
"""The five faces that are not the Core Ability icon: what dice show once a Strategy Roll is over."""

FACE_LABELS: dict[Face, str] = {
    Face.MOVE_2: "Move (2 Movement Points)",
    Face.MOVE_3: "Move (3 Movement Points)",
    Face.STANDARD: "Standard Action",
    Face.ENHANCED: "Enhanced Action",
    Face.MOVE_2_OR_STANDARD: "Move (2 Movement Points) or Standard Action",
    Face.CORE: "Core Ability icon",
}
"""The book's name of each face."""

FACE_SHORT: dict[Face, str] = {Face.MOVE_2: "M2", Face.MOVE_3: "M3", Face.STANDARD: "Std", Face.ENHANCED: "Enh",
                               Face.MOVE_2_OR_STANDARD: "M2/Std", Face.CORE: "Core"}
"""Short labels for dice drawings and compact text."""

STRATEGY_DICE = 12
"""Strategy dice in the box, the full Pool (Sequence of Play › The Strategy Pool)."""
PARAGON_DICE_MAX = 2
"""Paragon dice in the box (Components); one joins the Pool per Paragon Victory, unused ones go back to the box."""
DICE_PER_TURN = 3
"""Dice a Squadmate takes from the Pool each turn (Step B: Actions)."""

SQUADMATES: dict[str, str] = {"Shepard": "Command", "Garrus": "Aim", "Liara": "Analysis",
                              "Tali": "Combat Drone (Chatika)", "Wrex": "Blood Rage"}
"""Each Squadmate's Core Ability (Core Abilities). What a trigger does is printed on the Squadmate Sheet, which the
rulebook does not reproduce; only Liara's Analysis is described (Squadmate Commentary: one space per icon)."""

STRATEGY_OPTION_KEYS: tuple[str, ...] = ("locked_die_icon", "paragon_core_icon", "renegade_timing", "renegade_to_icon",
                                         "renegade_uses", "dual_face_in_move_space", "paragon_counts_toward_three")
"""The ruling options this part consults (defined in :mod:`.options`)."""

SquadmateName = Literal["Shepard", "Garrus", "Liara", "Tali", "Wrex"]


def face_of(value: int) -> Face:
    """The face for a d6 value 1..6 (see :data:`FACES`).

    Raises:
        ValueError: ``value`` is not 1..6.
    """
    if not 1 <= value <= 6:
        raise ValueError(f"a Strategy die has faces 1..6, got {value}")
    return FACES[value - 1]


def _dice(n: int) -> str:
    return "die" if n == 1 else "dice"


def _a(space) -> str:
    return "an" if Space(space) is Space.ENHANCED else "a"


def label(face: Face | None) -> str:
    return "unrolled" if face is None else FACE_LABELS[face]


# -- Action Spaces ------------------------------------------------------------------------------------------------


class Space(StrEnum):
    """The three types of Action Space (Squadmate Phase › Action Spaces)."""

    MOVE = "move"
    STANDARD = "standard"
    ENHANCED = "enhanced"


def accepts(space: Space | str, face: Face | str, rulings: Rulings | None = None) -> bool:
    """Whether a die showing ``face`` may be allocated to an Action Space of type ``space`` (Action Spaces).

    A Move space takes any Move icon (Move 2, Move 3, and the dual face under ``dual_face_in_move_space = move_2``);
    a Standard space takes Standard or Enhanced (and the dual face); an Enhanced space only Enhanced. The Core Ability
    icon never fills a space (no icon remains after the roll).
    """
    space, face = Space(space), Face(face)
    if space is Space.MOVE:
        if face is Face.MOVE_2_OR_STANDARD:
            return _rulings(rulings).reading("dual_face_in_move_space") == "move_2"
        return face in (Face.MOVE_2, Face.MOVE_3)
    if space is Space.STANDARD:
        return face in (Face.STANDARD, Face.ENHANCED, Face.MOVE_2_OR_STANDARD)
    return face is Face.ENHANCED


def movement_points(face: Face | str) -> int | None:
    """Movement Points a Move Action gets from a die showing ``face`` (Basic Actions › Move), ``None`` if no Move."""
    return {Face.MOVE_2: 2, Face.MOVE_3: 3, Face.MOVE_2_OR_STANDARD: 2}.get(Face(face))


def fill_spaces(faces: Sequence[Face | str], spaces: Sequence[Space | str],
                rulings: Rulings | None = None) -> tuple[int, ...] | None:
    """One way to fill ``spaces`` (one die each, distinct dice) from dice showing ``faces``: for each space the index
    of its die in ``faces``, or ``None`` if impossible (Action Spaces). Small exhaustive search (pools are tiny)."""
    faces = [Face(f) for f in faces]
    spaces = [Space(s) for s in spaces]
    if len(spaces) > len(faces):
        return None
    ok = [[accepts(s, f, rulings) for f in faces] for s in spaces]
    for combo in itertools.permutations(range(len(faces)), len(spaces)):
        if all(ok[i][d] for i, d in enumerate(combo)):
            return combo
    return None


# -- the Pool ----------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Die:
    """One die of the Strategy Pool: ``id`` (``"S1"``.. for Strategy dice, ``"P1"``.. for Paragon dice), the ``face``
    it shows (``None`` before it is rolled), and whether it is a ``paragon`` die."""

    id: str
    face: Face | None = None
    paragon: bool = False

    def text(self) -> str:
        return f"{self.id} {FACE_SHORT[self.face] if self.face else '?'}"


def gather_pool(paragon_dice: int = 0, locked_by_downed: int = 0) -> tuple[tuple[Die, ...], list[Step]]:
    """The Strategy Pool at the start of a Round (Preparation Phase): the twelve Strategy dice minus those Locked by
    Downed Squadmates, plus every Paragon die (Paragon dice set aside when a Squadmate was Downed come back at the
    start of the next Round). Returns the dice (``S1``.., then ``P1``..; not yet rolled) and the cited steps.

    Raises:
        ScenarioError: ``paragon_dice`` outside 0..2 or ``locked_by_downed`` outside 0..12.
    """
    if not 0 <= paragon_dice <= PARAGON_DICE_MAX:
        raise ScenarioError("paragon_dice", plural(paragon_dice, "Paragon die", "Paragon dice"), f"0 to {PARAGON_DICE_MAX}")
    if not 0 <= locked_by_downed <= STRATEGY_DICE:
        raise ScenarioError("locked_by_downed", f"{plural(locked_by_downed, 'die')} Locked", f"0 to {STRATEGY_DICE}")
    n = STRATEGY_DICE - locked_by_downed
    dice = tuple(Die(f"S{i + 1}") for i in range(n)) + tuple(Die(f"P{i + 1}", paragon=True)
                                                             for i in range(paragon_dice))
    steps = [Step(f"The On Point player gathers {plural(n, 'Strategy die', 'Strategy dice')}", S.PREPARATION_PHASE,
                  f"Twelve Strategy dice form the Pool; {locked_by_downed} are Locked by Downed Squadmates and stay "
                  "off it." if locked_by_downed else "All twelve Strategy dice form the Pool.",
                  {"strategy_dice": n, "locked_by_downed": locked_by_downed}, section="Strategy Pool")]
    if locked_by_downed:
        steps.append(Step(f"{plural(locked_by_downed, 'die')} {agree(locked_by_downed, 'stays', 'stay')} Locked on "
                          "Downed Squadmate sheets", S.DOWNED_SQUADMATES,
                          "A Downed Squadmate's sheet holds dice Locked until they are Revived (the number is printed "
                          "on the sheet's Downed side, not in the rulebook: an input here).",
                          {"locked_by_downed": locked_by_downed}, section="Strategy Pool"))
    if paragon_dice:
        verb = "joins" if paragon_dice == 1 else "join"
        steps.append(Step(f"{paragon_dice} Paragon {_dice(paragon_dice)} {verb} the Pool", S.PARAGON_DICE,
                          "One Paragon die per Paragon Victory is added to the Strategy Pool in each later Mission.",
                          {"paragon_dice": paragon_dice}, section="Strategy Pool"))
    return dice, steps


def pool_for_turn(turn: int, paragon_dice: int = 0, locked_by_downed: int = 0,
                  paragon_taken: int = 0) -> tuple[tuple[Die, ...], list[Step]]:
    """The dice left in the Pool when the ``turn``-th Squadmate of the Round rolls (1 = On Point): each earlier
    Squadmate took three Strategy dice (Sequence of Play › The Strategy Pool: the Pool gets smaller over the Round),
    and ``paragon_taken`` Paragon dice were taken on top. Remaining dice are renumbered ``S1``.., ``P1``...

    Raises:
        ScenarioError: bad counts, or an empty Pool (the field and the allowed range are named).
    """
    dice, steps = gather_pool(paragon_dice, locked_by_downed)
    if not 1 <= turn <= 4:
        raise ScenarioError("turn", f"turn {turn}", "1 (On Point) to 4: a Mission has four Squadmates")
    if not 0 <= paragon_taken <= paragon_dice:
        raise ScenarioError("paragon_taken", f"{plural(paragon_taken, 'Paragon die', 'Paragon dice')} taken", f"0 to {paragon_dice}")
    n = STRATEGY_DICE - locked_by_downed - DICE_PER_TURN * (turn - 1)
    if turn > 1 and n < 0:
        raise ScenarioError("turn", f"{turn - 1} earlier Squadmates cannot each take three dice from "
                            f"{STRATEGY_DICE - locked_by_downed}", "a smaller turn or fewer dice Locked by Downed")
    n = max(n, 0)
    k = paragon_dice - paragon_taken
    if n + k < 1:
        raise ScenarioError("turn", "no die is left in the Pool for this Squadmate", "a Pool of at least one die")
    if turn > 1:
        who = "Squadmate" if turn == 2 else "Squadmates"
        left = plural(n, "Strategy die", "Strategy dice") + (" remains" if n == 1 else " remain")
        taken = plural(paragon_taken, "Paragon die", "Paragon dice") + (" was" if paragon_taken == 1 else " were")
        steps.append(Step(f"{turn - 1} {who} already took their dice: {left}",
                          S.STRATEGY_POOL, "Each Squadmate takes three dice from the Pool on their turn, so the Pool "
                          "gets smaller over the Round." + (f" {taken} taken on top." if paragon_taken else ""),
                          {"strategy_dice": n, "paragon_dice": k, "turns_before": turn - 1}, section="Strategy Pool"))
    pool = tuple(Die(f"S{i + 1}") for i in range(n)) + tuple(Die(f"P{i + 1}", paragon=True) for i in range(k))
    return pool, steps


# -- Step A: the Strategy Roll -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RollState:
    """The Strategy Roll in progress (immutable; every step function returns a new one).

    Attributes:
        squadmate: who is rolling (a key of :data:`SQUADMATES`).
        on_point: whether they are On Point (first turn of the Round; they may not Lock).
        dice: the Pool, in order; faces as shown (before the first roll: the faces left by the previous player).
        locked: id of the Locked die, if any.
        roll_round: 0 before the first roll; 1 after it; 2 after the first re-roll of icons; ...
        triggered_round: the last roll round whose icons have triggered the Core Ability.
        triggers: Core Ability triggers so far.
        icons_per_round: icons that triggered, per roll round.
        trigger_rounds: the roll round of each Core Ability trigger so far, in trigger order (trigger ``n`` is
            ``trigger_rounds[n - 1]``).
        renegade_tokens: the Squadmate's Renegade tokens left.
        renegade_used: tokens returned during this roll.
        rolled: ``(roll round, ((die id, face value), ...))`` of every roll and re-roll so far, in order (what the
            page shows row by row).
    """

    squadmate: str
    on_point: bool
    dice: tuple[Die, ...]
    locked: str | None = None
    roll_round: int = 0
    triggered_round: int = 0
    triggers: int = 0
    icons_per_round: tuple[int, ...] = ()
    trigger_rounds: tuple[int, ...] = ()
    renegade_tokens: int = 0
    renegade_used: int = 0
    rolled: tuple[tuple[int, tuple[tuple[str, str], ...]], ...] = ()

    def die(self, die_id: str) -> Die:
        for d in self.dice:
            if d.id == die_id:
                return d
        raise RuleViolation(f"there is no die {die_id!r} in the Strategy Pool (dice: "
                            f"{', '.join(d.id for d in self.dice)})", str(S.STRATEGY_ROLL))

    def faces(self) -> tuple[Face | None, ...]:
        return tuple(d.face for d in self.dice)


def _rulings(rulings: Rulings | None) -> Rulings:
    return rulings if rulings is not None else Rulings(ALL_OPTIONS)


def _set_face(dice: tuple[Die, ...], die_id: str, face: Face | None) -> tuple[Die, ...]:
    return tuple(replace(d, face=face) if d.id == die_id else d for d in dice)


def begin_strategy_roll(squadmate: str, on_point: bool, pool: Sequence[Die],
                        renegade_tokens: int = 0) -> tuple[RollState, list[Step]]:
    """Step A begins: the player picks up the dice that remain in the Pool (Step A: Strategy Roll).

    Raises:
        ScenarioError: unknown Squadmate or an empty Pool.
    """
    if squadmate not in SQUADMATES:
        raise ScenarioError("squadmate.name", f"unknown Squadmate {squadmate!r}", list(SQUADMATES))
    if not pool:
        raise ScenarioError("pool", "the Strategy Pool is empty", "at least one die")
    state = RollState(squadmate, on_point, tuple(pool), renegade_tokens=renegade_tokens)
    who = f"{squadmate} (On Point)" if on_point else squadmate
    steps = [Step(f"{who} makes the Strategy Roll with {plural(len(pool), 'die')}", S.STRATEGY_ROLL,
                  "The player picks up every die that remains in the Strategy Pool.",
                  {"pool": [d.id for d in pool], "on_point": on_point}, section="Strategy Roll")]
    if on_point:
        steps.append(Step("On Point: no die may be Locked", S.ON_POINT,
                          "The On Point Squadmate goes first in the Round, so there is no previous player's die to "
                          "keep: they roll the whole Pool.", section="Strategy Roll"))
    return state, steps


def lock_die(state: RollState, die_id: str, rulings: Rulings | None = None) -> tuple[RollState, list[Step]]:
    """Lock one die rolled by the previous player, keeping its face (Step A: Strategy Roll).

    Raises:
        RuleViolation: the roller is On Point (they must roll every die), a die is already Locked, the Pool was
            already rolled, the die is not in the Pool or shows nothing, or it shows the Core Ability icon under
            ``locked_die_icon = cannot_exist``.
    """
    sec = str(S.STRATEGY_ROLL)
    if state.on_point:
        raise RuleViolation("the On Point Squadmate cannot Lock a die: going first in the Round, they must roll every "
                            "die in the Pool", sec)
    if state.roll_round:
        raise RuleViolation("a die is Locked before the Pool is rolled, not after", sec)
    if state.locked is not None:
        raise RuleViolation(f"only a single die may be Locked ({state.locked} already is)", sec)
    d = state.die(die_id)
    if d.face is None:
        raise RuleViolation(f"{die_id} shows no result from the previous player to keep", sec)
    if d.face is Face.CORE and _rulings(rulings).reading("locked_die_icon") == "cannot_exist":
        raise RuleViolation(f"{die_id} cannot show the Core Ability icon at the end of the previous turn (icons are "
                            "re-rolled until none remain; ruling locked_die_icon = cannot_exist)", sec)
    step = Step(f"Lock {die_id}, keeping {label(d.face)}", S.STRATEGY_ROLL,
                "Before rolling, the player may keep a single die as the previous player left it.",
                {"die": die_id, "face": d.face.value}, (die_id,), "Strategy Roll")
    return replace(state, locked=die_id), [step]


UNKNOWN = "?"
"""In fixed dice and ``showing`` lists: a die whose face is not given (rolled from the seed / not known)."""


def fixed_faces_allowed(n: int) -> str:
    """The one "allowed" text for a list of fixed faces that must give one face per die rolled (``n`` dice): used
    wherever a fixed-faces list of the wrong length is refused, too long or too short."""
    return f"exactly {n} faces, one per die in Pool order ({UNKNOWN!r} leaves a die to the seed)"


def _roll(dice_ids: Sequence[str], roller: Roller, fixed: Sequence[Face | str | None], what: str) -> dict[str, Face]:
    """The faces of ``dice_ids`` rolled: ``fixed`` gives one face per die (``"?"`` / ``None``: from ``roller``), or
    is empty (every die from ``roller``).

    Raises:
        ScenarioError: ``fixed`` gives some faces but not one per die (field ``fixed``): a shorter list is never
            filled from the seed without a word.
    """
    n = len(dice_ids)
    if len(fixed) > n:
        raise ScenarioError("fixed", f"{len(fixed)} fixed faces for {n} {_dice(n)} ({what})", fixed_faces_allowed(n))
    if 0 < len(fixed) < n:
        raise ScenarioError("fixed", f"{len(fixed)} fixed {'face' if len(fixed) == 1 else 'faces'} for the {n} "
                            f"{_dice(n)} rolled ({what}): one face per die", fixed_faces_allowed(n))
    out = {}
    for i, did in enumerate(dice_ids):
        given = fixed[i] if i < len(fixed) else None
        out[did] = Face(given) if given not in (None, UNKNOWN) else face_of(roller.roll(6, f"{did} ({what})"))
    return out


def _seeded(dice_ids: Sequence[str], fixed: Sequence[Face | str | None]) -> str:
    """A step's note naming the dice of a roll with fixed faces that the seed rolled (their ``"?"``): ``""`` when
    the roll fixes none (every die from the seed) or all."""
    seeded = [d for d, f in zip(dice_ids, fixed) if f in (None, UNKNOWN)]
    if not fixed or not seeded:
        return ""
    return f" Rolled from the seed ({UNKNOWN!r} given): {', '.join(seeded)}."


def roll_pool(state: RollState, roller: Roller, fixed: Sequence[Face | str] = ()) -> tuple[RollState, list[Step]]:
    """Roll every die of the Pool except the Locked one (Step A: Strategy Roll). ``fixed`` gives the faces of the
    first ``len(fixed)`` dice rolled (in Pool order; ``None`` or ``"?"`` leaves a die to the roller); the roller
    rolls the rest.

    Raises:
        RuleViolation: the Pool was already rolled.
        ScenarioError: more fixed faces than dice rolled (field ``fixed``).
    """
    if state.roll_round:
        raise RuleViolation("the Strategy Pool is rolled once; afterwards only icons are re-rolled",
                            str(S.CORE_ABILITIES))
    ids = [d.id for d in state.dice if d.id != state.locked]
    got = _roll(ids, roller, fixed, "Strategy Roll")
    dice = tuple(replace(d, face=got[d.id]) if d.id in got else d for d in state.dice)
    new = replace(state, dice=dice, roll_round=1,
                  rolled=state.rolled + ((1, tuple((i, f.value) for i, f in got.items())),))
    step = Step(f"Roll {plural(len(ids), 'die')}: " + ", ".join(f"{i} {FACE_SHORT[f]}" for i, f in got.items())
                if ids else "No die to roll (the only die is Locked)", S.STRATEGY_ROLL,
                "All dice left in the Pool are rolled" + (f", except the Locked {state.locked}." if state.locked
                                                          else ".") + _seeded(ids, fixed),
                {"round": 1, "rolled": {i: f.value for i, f in got.items()}}, tuple(ids), "Strategy Roll")
    return new, [step]


def icons_showing(state: RollState) -> tuple[str, ...]:
    """Ids of the dice showing the Core Ability icon (they must trigger and be re-rolled)."""
    return tuple(d.id for d in state.dice if d.face is Face.CORE)


def use_renegade_token(state: RollState, die_id: str, face: Face | str,
                       rulings: Rulings | None = None) -> tuple[RollState, list[Step]]:
    """Return one Renegade token to the box and change one die to any result (Renegade Tokens): after the Pool is
    rolled, before the Core Ability triggers.

    Raises:
        RuleViolation: no token left; before the roll or after the Core Ability triggered this round; a later roll
            round under ``renegade_timing = first_roll``; a second token under ``renegade_uses = one_per_turn``; the
            icon as the new face under ``renegade_to_icon = action_faces_only``.
    """
    r = _rulings(rulings)
    sec = str(S.RENEGADE_TOKENS)
    face = Face(face)
    if state.renegade_tokens <= 0:
        raise RuleViolation(f"{state.squadmate} has no Renegade token left", sec)
    if state.roll_round == 0:
        raise RuleViolation("a Renegade token changes a die after the Strategy Pool is rolled", sec)
    if state.triggered_round >= state.roll_round:
        raise RuleViolation("a Renegade token is used before the Core Ability triggers, not after", sec)
    if state.roll_round > 1 and r.reading("renegade_timing") == "first_roll":
        raise RuleViolation("a Renegade token is used after the first roll of the Pool only (ruling "
                            "renegade_timing = first_roll)", sec)
    if state.renegade_used and r.reading("renegade_uses") == "one_per_turn":
        raise RuleViolation("one Renegade token per turn (ruling renegade_uses = one_per_turn)", sec)
    if face is Face.CORE and r.reading("renegade_to_icon") == "action_faces_only":
        raise RuleViolation("the new result must be an Action face (ruling renegade_to_icon = action_faces_only)",
                            sec)
    d = state.die(die_id)
    new = replace(state, dice=_set_face(state.dice, die_id, face), renegade_tokens=state.renegade_tokens - 1,
                  renegade_used=state.renegade_used + 1)
    step = Step(f"Renegade token: {die_id} {FACE_SHORT[d.face] if d.face else '?'} → {FACE_SHORT[face]}",
                S.RENEGADE_TOKENS, "The player returns one Renegade token to the game box and sets one die to the "
                "result they choose, before the Core Ability triggers.",
                {"die": die_id, "from": d.face.value if d.face else None, "to": face.value,
                 "tokens_left": new.renegade_tokens}, (die_id,), "Strategy Roll")
    return new, [step]


def trigger_core_ability(state: RollState, rulings: Rulings | None = None,
                         on_trigger: Callable[[int], Sequence[Step]] | None = None
                         ) -> tuple[RollState, list[Step]]:
    """Each icon showing triggers the current Squadmate's Core Ability once (Core Abilities): one cited step per
    trigger. Under ``paragon_core_icon = rerolled_without_trigger`` an icon on a Paragon die does not trigger.
    ``on_trigger(n)``, when given, returns the steps of what trigger ``n`` (1-based over the whole roll) does;
    they follow that trigger's step.

    Raises:
        RuleViolation: the Pool is not rolled yet, or this roll round already triggered.
    """
    if state.roll_round == 0 or state.triggered_round >= state.roll_round:
        raise RuleViolation("the Core Ability triggers once per icon of each roll, after that roll",
                            str(S.CORE_ABILITIES))
    r = _rulings(rulings)
    icons = icons_showing(state)
    paragon_reading = r.reading("paragon_core_icon") if any(state.die(i).paragon for i in icons) else None
    if state.locked in icons:
        r.reading("locked_die_icon")
    ability = SQUADMATES[state.squadmate]
    steps = []
    n = state.triggers
    for i in icons:
        if state.die(i).paragon and paragon_reading == "rerolled_without_trigger":
            steps.append(Step(f"Icon on Paragon die {i}: no trigger", S.PARAGON_DICE,
                              "Ruling paragon_core_icon = rerolled_without_trigger: the icon is only re-rolled.",
                              {"die": i, "round": state.roll_round}, (i,), "Core Ability"))
            continue
        n += 1
        detail = f"Each icon rolled triggers {state.squadmate}'s Core Ability ({ability}), resolved as the Squadmate " \
                 "Sheet says."
        rule = S.CORE_ABILITIES
        if state.squadmate == "Liara":
            detail += " Liara's Analysis token moves one space to the right."
            rule = S.COMMENTARY_LIARA
        steps.append(Step(f"Icon on {i}: {ability} triggers (trigger {n})", rule, detail,
                          {"die": i, "round": state.roll_round, "trigger": n}, (i,), "Core Ability"))
        if on_trigger is not None:
            steps.extend(on_trigger(n))
    new = replace(state, triggers=n, triggered_round=state.roll_round,
                  icons_per_round=state.icons_per_round + (len(icons),),
                  trigger_rounds=state.trigger_rounds + (state.roll_round,) * (n - state.triggers))
    if not icons:
        steps.append(Step("No icon showing: the Strategy Roll is over", S.CORE_ABILITIES,
                          "Trigger and re-roll repeat until no icon remains; the dice now show only Action faces.",
                          {"round": state.roll_round, "triggers": n}, section="Core Ability"))
    return new, steps


def reroll_icons(state: RollState, roller: Roller, fixed: Sequence[Face | str] = ()) -> tuple[RollState, list[Step]]:
    """Re-roll every die showing the icon, after the Core Ability triggered for them (Core Abilities). A Locked die
    re-rolled here (only possible under ``locked_die_icon = triggers_and_rerolls``) is no longer Locked.

    Raises:
        RuleViolation: the icons of this round have not triggered yet, or none is showing.
        ScenarioError: more fixed faces than icon dice (field ``fixed``).
    """
    icons = icons_showing(state)
    if state.triggered_round < state.roll_round or not icons:
        raise RuleViolation("icons are re-rolled after they trigger the Core Ability", str(S.CORE_ABILITIES))
    rnd = state.roll_round + 1
    got = _roll(icons, roller, fixed, f"re-roll {rnd - 1}")
    dice = tuple(replace(d, face=got[d.id]) if d.id in got else d for d in state.dice)
    new = replace(state, dice=dice, roll_round=rnd, locked=None if state.locked in got else state.locked,
                  rolled=state.rolled + ((rnd, tuple((i, f.value) for i, f in got.items())),))
    rolled = ", ".join(f"{i} → {FACE_SHORT[f]}" for i, f in got.items())
    step = Step(f"Re-roll {len(icons)} icon {_dice(len(icons))}: {rolled}",
                S.CORE_ABILITIES, "Once the triggers are resolved, every die showing an icon is re-rolled."
                + _seeded(icons, fixed),
                {"round": rnd, "rolled": {i: f.value for i, f in got.items()}}, tuple(icons), "Strategy Roll")
    return new, [step]


@dataclass(frozen=True)
class RenegadeUse:
    """A Renegade token spent in roll round ``round`` (1 = after the first roll) to set ``die`` to ``face``."""

    die: str
    face: Face
    round: int = 1


MAX_ROLL_ROUNDS = 500
"""Safety stop for the trigger/re-roll loop (a seeded roller ends it with probability 1; 500 rounds of icons have
probability below 6^-500)."""


@dataclass(frozen=True)
class StrategyState:
    """A Squadmate's Strategy Roll and Actions as the kernel plays them (the frozen state of
    :data:`STRATEGY_SEQUENCE`).

    Attributes:
        pool: the dice the Pool holds for this turn (Preparation Phase; ``()`` until gathered).
        roll: the roll in progress (:class:`RollState`), ``None`` until the Pool is picked up.
        locked_face: the face of the Locked die (its value before the roll), or ``None``.
        ended: the last roll round showed no icon: the Strategy Roll is over.
        actions: Step B in progress (:class:`ActionState`), ``None`` when no die is allocated.
        core: where the Core Ability's element stands (:attr:`StrategyContext.core_track`): Shepard's Ready Command
            tokens, Garrus' Aim Value, Liara's Analysis token (spaces right), Wrex's Enraged Rage tokens.
    """

    pool: tuple[Die, ...] = ()
    roll: RollState | None = None
    locked_face: Face | None = None
    ended: bool = False
    actions: ActionState | None = None
    core: int = 0


@dataclass(frozen=True)
class StrategyContext(Context):
    """What the Strategy Roll reads and never changes: the ruling readings, the dice (``dice``: a
    :class:`explorer.dice.Dice` or any :class:`~explorer.dice.Roller`) and the scenario's declarations: who rolls
    (``squadmate``, ``renegade_tokens``), the Pool (``turn``, ``paragon_dice``, ``locked_by_downed``,
    ``paragon_taken``, the faces ``showing``, the die to ``lock``), the fixed faces per roll round
    (``fixed_rounds``), the Renegade tokens spent (``renegade``) and the dice allocated in Step B (``allocate``:
    ``(die id, space, resolve)``)."""

    squadmate: str = ""
    renegade_tokens: int = 0
    turn: int = 1
    paragon_dice: int = 0
    locked_by_downed: int = 0
    paragon_taken: int = 0
    showing: tuple[str, ...] | None = None
    lock: str | None = None
    fixed_rounds: tuple[tuple[Face | str, ...], ...] = ()
    renegade: tuple[RenegadeUse, ...] = ()
    allocate: tuple[tuple[str, str, bool], ...] = ()
    core_track: tuple[int, int] | None = None
    """``(start, top)`` of the Core Ability's element (the sheet file's numbers): each trigger is then applied as
    far as the strategy kind has the state (:func:`apply_core_triggers`); ``None``: the triggers are only counted."""
    core_damage: int = 0
    """Wrex's Blood Rage Damage per trigger (the sheet file's ``rage_damage``), named in the step that says why it is
    not dealt here."""


def first_drawn_round(rolls: Sequence[Sequence[Face | str | None]]) -> int | None:
    """The index of the first roll round of ``rolls`` (a ``rolls`` field: fixed faces per roll round) that leaves a
    die to the seed (an empty list, or a ``"?"``), or ``None`` when every face is fixed (or none is given)."""
    for i, faces in enumerate(rolls):
        if not faces or any(f in (None, UNKNOWN) for f in faces):
            return i
    return None


def rounds_after_a_draw(rolls: Sequence[Sequence[Face | str | None]], prefix: str = "") -> tuple[str, str, str] | None:
    """Validity never depends on a draw (issue #25 item 4): once a roll round leaves a die to the seed, which dice
    show an icon, so how many are re-rolled and in how many rounds, depends on that draw; a fixed list for a later
    round would hold for some draws and not others. Returns ``(field, problem, allowed)`` of the first such list
    (``prefix`` put before ``rolls``), or ``None`` (Strategy Roll: icons re-rolled until none shows)."""
    j = first_drawn_round(rolls)
    if j is None or j + 1 >= len(rolls):
        return None
    k = next((k for k, f in enumerate(rolls[j]) if f in (None, UNKNOWN)), 0)
    how = "is an empty list" if not rolls[j] else f"has {UNKNOWN!r} for die {k + 1}"
    return (f"{prefix}rolls[{j + 1}]", f"fixes the faces of re-roll {j + 1}, but rolls[{j}] {how}: that die is "
            "rolled from the seed, and whether it shows an icon decides how many dice are re-rolled after it, so "
            "the list would fit some draws and not others",
            f"no list after rolls[{j}] (the later re-rolls are then rolled from the seed), or every face of "
            f"rolls[{j}] fixed")


def _fixed(ctx: StrategyContext, rnd: int) -> Sequence[Face | str]:
    return ctx.fixed_rounds[rnd - 1] if rnd - 1 < len(ctx.fixed_rounds) else ()


def _fixed_reroll(ctx: StrategyContext, roll: RollState) -> Sequence[Face | str]:
    """The fixed faces of the re-roll after roll round ``roll.roll_round``. A scenario that gives ``rolls`` gives a
    list for every roll round; when an earlier list left dice to the seed (``"?"``), a re-roll it could not foresee
    (or an empty list left all of them) is rolled from the seed, every die named as such in its step.

    Raises:
        ScenarioError: ``rolls`` fixes every face so far but has no list for this re-roll (field ``rolls``).
    """
    rnd = roll.roll_round + 1
    fixed = _fixed(ctx, rnd)
    if fixed or not ctx.fixed_rounds:
        return fixed
    n = len(icons_showing(roll))
    if any(not faces or any(f in (None, UNKNOWN) for f in faces) for faces in ctx.fixed_rounds):
        return (UNKNOWN,) * n
    raise ScenarioError("rolls", f"{plural(len(ctx.fixed_rounds), 'list')} of faces, but the icons of roll round "
                        f"{rnd - 1} are re-rolled ({n} {_dice(n)}): roll round {rnd} has no list",
                        f"a list rolls[{rnd - 1}] of {plural(n, 'face')} ({UNKNOWN!r} leaves a die to the seed)")


def preparation_phase(state: StrategyState, ctx: StrategyContext) -> tuple[StrategyState, tuple[Step, ...]]:
    """Preparation Phase and Step A: the dice left in the Pool for this turn (Paragon dice, dice Locked on Downed
    Squadmates' sheets), showing the faces the previous player left; the Squadmate picks them up."""
    pool, steps = pool_for_turn(ctx.turn, ctx.paragon_dice, ctx.locked_by_downed, ctx.paragon_taken)
    if ctx.showing is not None:
        pool = tuple(replace(d, face=None if f == UNKNOWN else Face(f)) for d, f in zip(pool, ctx.showing))
    roll, st = begin_strategy_roll(ctx.squadmate, ctx.turn == 1, pool, ctx.renegade_tokens)
    return replace(state, pool=pool, roll=roll), tuple(steps + st)


def _at_field(e: RuleViolation, field: str, allowed: Sequence[str] | str | None = None) -> RuleViolation:
    """``e`` (a refusal of the rules functions, which know no file) as the refusal of the scenario's ``field``, with
    the values it could take there: one line naming the field, the reason, the allowed values and the section."""
    if e.rejection.field:
        return e
    return RuleViolation(e.reason, e.rule, field=field, step=e.step, allowed=allowed)


def lock_a_die(state: StrategyState, ctx: StrategyContext) -> tuple[StrategyState, tuple[Step, ...]]:
    """Step A: Strategy Roll: Lock one die rolled by the previous player (when the scenario Locks one).

    Raises:
        RuleViolation: naming ``pool.lock`` (:func:`lock_die`'s refusals)."""
    if ctx.lock is None:
        return state, ()
    try:
        roll, steps = lock_die(state.roll, ctx.lock, ctx.rulings)
    except RuleViolation as e:
        raise _at_field(e, "pool.lock", [d.id for d in state.roll.dice if d.face not in (None, Face.CORE)]) from None
    return replace(state, roll=roll, locked_face=roll.die(ctx.lock).face), tuple(steps)


def roll_the_pool(state: StrategyState, ctx: StrategyContext) -> tuple[StrategyState, tuple[Step, ...]]:
    """Step A: Strategy Roll: roll every die left in the Pool except the Locked one."""
    try:
        roll, steps = roll_pool(state.roll, ctx.dice, _fixed(ctx, 1))
    except ScenarioError as e:
        raise ScenarioError("rolls[0]", e.problem, e.allowed) from None
    return replace(state, roll=roll), tuple(steps)


def core_abilities(state: StrategyState, ctx: StrategyContext, rnd: int,
                   on_trigger: Callable[[int], Sequence[Step]] | None = None
                   ) -> tuple[StrategyState, tuple[Step, ...]]:
    """Roll round ``rnd``: the Renegade tokens spent in it (Renegade Tokens), then each icon triggers the Core
    Ability (Core Abilities; ``on_trigger`` as in :func:`trigger_core_ability`); icons left are re-rolled, which
    makes the next roll round; none left ends the roll."""
    roll, steps = state.roll, []
    for k, use in enumerate(ctx.renegade):
        if use.round != rnd:
            continue
        try:
            roll, st = use_renegade_token(roll, use.die, use.face, ctx.rulings)
        except RuleViolation as e:  # the use of the file's [[renegade]] table that the rules refuse
            raise _at_field(e, f"renegade[{k}]") from None
        steps += st
    roll, st = trigger_core_ability(roll, ctx.rulings, on_trigger)
    steps += st
    if not icons_showing(roll):
        return replace(state, roll=roll, ended=True), tuple(steps)
    if roll.roll_round >= MAX_ROLL_ROUNDS:
        raise RuntimeError("the Strategy Roll did not end: icons kept coming up")
    try:
        roll, st = reroll_icons(roll, ctx.dice, _fixed_reroll(ctx, roll))
    except ScenarioError as e:
        raise ScenarioError(f"rolls[{roll.roll_round}]", e.problem, e.allowed) from None
    return replace(state, roll=roll), tuple(steps + st)


CORE_ELEMENT = {"Shepard": ("Command", "Command tokens", S.COMMENTARY_SHEPARD_COMMAND),
                "Garrus": ("Aim", "Aim Tracker", S.CORE_ABILITIES),
                "Liara": ("Analysis", "Analysis token", S.COMMENTARY_LIARA),
                "Tali": ("Combat Drone", "drone Chatika", S.COMMENTARY_TALI_DRONE),
                "Wrex": ("Blood Rage", "Rage tokens", S.COMMENTARY_WREX_RAGE)}
"""Each Core Ability's name, the element it uses (Squadmate Sheets: "Each Core Ability uses a different unique
element") and the section a trigger's effect cites."""


def _core_effect(who: str, n: int, at: int, top: int, damage: int) -> tuple[int, Step]:
    """What trigger ``n`` of ``who``'s Core Ability does to its element standing at ``at`` (of ``top``), as the
    strategy kind can play it (no map, no Enemies): ``(new position, step)``."""
    name, element, rule = CORE_ELEMENT[who]
    new = min(top, at + 1)
    src = ("The element and its size are printed on the sheet, not in the rulebook: the built-in stand-in sheet's "
           "numbers.")
    if who == "Tali":
        return at, Step(f"{name} (trigger {n}): Chatika's move and attack are not played here", rule,
                        "Chatika roves over the map and Damages an Enemy or hacks a Turret next to it; the strategy kind "
                        "has no map or Enemies, so only the trigger is counted (a round file plays it).",
                        facts={"core": at}, marks=(who,), section="Core Ability")
    moved = new > at
    if who == "Shepard":
        title = (f"a Command token flipped to its Ready side ({new} of {top} Ready)" if moved
                 else f"all {top} Command tokens are Ready: nothing to flip")
        detail = "Another Squadmate may spend a Ready token on an Action (a round file plays that). " + src
    elif who == "Garrus":
        title = (f"the Aim Tracker moves one space right (Aim Value {at} -> {new} of {top})" if moved
                 else f"the Aim Tracker is at its end ({top}): no space to move")
        detail = "Garrus may spend the Aim Value on a Damage Ability (a round file plays that). " + src
    elif who == "Liara":
        title = (f"the Analysis token moves one space right ({at} -> {new} of {top})" if moved
                 else f"the Analysis token is at the end of its track ({top}): no space to move")
        detail = "One space to the right per icon rolled (Squadmate Commentary). " + src
    else:
        title = (f"a Calm Rage token flipped to its Enraged side ({new} of {top} Enraged)" if moved
                 else f"all {top} Rage tokens are Enraged already")
        title += f"; its {damage} Damage to each Enemy adjacent to Wrex is not dealt here"
        detail = ("The strategy kind has no map or Enemies to Damage (a round file plays Blood Rage's Damage). "
                  + src)
    return new, Step(f"{name} (trigger {n}): {title}", rule, detail, facts={"core": new}, marks=(who,),
                     section="Core Ability")


def apply_core_triggers(state: StrategyState, ctx: StrategyContext, rnd: int
                        ) -> tuple[StrategyState, tuple[Step, ...]]:
    """Roll round ``rnd`` as :func:`core_abilities` plays it, each Core Ability trigger followed by what it does to
    the Squadmate's element (:data:`CORE_ELEMENT`; :attr:`StrategyContext.core_track`, the sheet's numbers), before
    the icons are re-rolled (Core Abilities: trigger, then re-roll). What needs the map (Chatika's move and attack,
    Blood Rage's Damage) is said in the step and not played."""
    if ctx.core_track is None or ctx.squadmate not in CORE_ELEMENT:
        return core_abilities(state, ctx, rnd)
    top, at = ctx.core_track[1], [state.core]

    def effect(n: int) -> tuple[Step, ...]:
        at[0], step = _core_effect(ctx.squadmate, n, at[0], top, ctx.core_damage)
        return (step,)

    new, steps = core_abilities(state, ctx, rnd, effect)
    return replace(new, core=at[0]), steps


def roll_rounds(state: StrategyState) -> range:
    """Roll rounds 1, 2, ... (the play stops at the first one that shows no icon)."""
    return range(1, MAX_ROLL_ROUNDS + 1)


def roll_is_over(state: StrategyState) -> bool:
    """No icon showing: the Strategy Roll is over (Core Abilities)."""
    return state.ended


def end_of_the_roll(state: StrategyState, ctx: StrategyContext) -> tuple[StrategyState, tuple[Step, ...]]:
    """The roll is over: every Renegade token and fixed face the scenario declares must have had its roll round.

    Raises:
        RuleViolation: a Renegade token for a roll round that never happened (Renegade Tokens).
        ScenarioError: fixed faces for a roll round that never happened (field ``rolls``).
    """
    n = state.roll.roll_round
    pending = [u for u in ctx.renegade if u.round > n]
    if pending:
        u = pending[0]
        raise RuleViolation(f"the Renegade token for {u.die} in roll round {u.round} has no such round (the roll "
                            f"ended after round {n})", str(S.RENEGADE_TOKENS))
    if len(ctx.fixed_rounds) > n:
        raise ScenarioError("rolls", f"{len(ctx.fixed_rounds)} rounds of fixed dice given, but the roll ended after "
                            f"{plural(n, 'round')}", f"at most {n} rounds")
    return state, ()


def step_b_actions(state: StrategyState, ctx: StrategyContext) -> tuple[StrategyState, tuple[Step, ...]]:
    """Step B: Actions: the dice allocated to Action Spaces, in order, then the three-dice rule (when the scenario
    allocates)."""
    if not ctx.allocate:
        return state, ()
    act, steps = begin_actions(state.roll), []
    for i, (die, space, resolve) in enumerate(ctx.allocate):
        try:
            act, st = allocate_die(act, die, space, resolve, ctx.rulings)
        except RuleViolation as e:  # name the file's [[allocate]] field and what it could be there
            d = next((x for x in act.pool if x.id == die), None)
            if d is None or not accepts(Space(space), d.face, ctx.rulings):
                raise _at_field(e, f"allocate[{i}].die", [x.id for x in act.pool if accepts(Space(space), x.face,
                                                                                            ctx.rulings)]) from None
            raise _at_field(e, f"allocate[{i}].die") from None
        steps += st
    act, st = end_actions(act, ctx.rulings)
    return replace(state, actions=act), tuple(steps + st)


ROLL_SEQUENCE = (("Strategy Roll", roll_the_pool), Each("Roll round {item}", roll_rounds, core_abilities,
                                                         stop=roll_is_over),
                 ("End of the roll", end_of_the_roll))
"""Step A from a picked-up (and maybe Locked) Pool: roll, then trigger and re-roll round after round until no icon
remains."""

STRATEGY_SEQUENCE = (("Preparation Phase", preparation_phase), ("Lock a die", lock_a_die),
                     ("Strategy Roll", roll_the_pool), Each("Roll round {item}", roll_rounds, apply_core_triggers,
                                                           stop=roll_is_over),
                     ("End of the roll", end_of_the_roll), ("Step B: Actions", step_b_actions))
"""The ``strategy`` kind as the kernel plays it: gather the Pool, Lock, roll, the Core Ability rounds (each trigger
applied to its element: :func:`apply_core_triggers`), Actions."""


def strategy_roll(state: RollState, roller: Roller, fixed_rounds: Sequence[Sequence[Face | str]] = (),
                  renegade: Sequence[RenegadeUse] = (), rulings: Rulings | None = None
                  ) -> tuple[RollState, list[Step]]:
    """Run Step A from a state after :func:`begin_strategy_roll` (and :func:`lock_die`): roll, use Renegade tokens,
    trigger and re-roll until no icon remains (:data:`ROLL_SEQUENCE`). ``fixed_rounds[r]`` fixes the first faces
    rolled in roll round ``r + 1`` (round 1: the Pool; later rounds: the icon dice, in Pool order).

    Raises:
        RuleViolation: an illegal Renegade use (see :func:`use_renegade_token`).
        ScenarioError: a round's fixed faces outnumber its dice (field ``rolls[r]``), or fixed faces given for a
            round that never happens (field ``rolls``).
    """
    ctx = StrategyContext(_rulings(rulings), roller, fixed_rounds=tuple(tuple(f) for f in fixed_rounds),
                          renegade=tuple(renegade))
    final, steps = run(StrategyState(roll=state), ROLL_SEQUENCE, ctx)
    return final.roll, list(steps)


# -- Step B: Actions ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Placement:
    """A die on an Action Space of the Squadmate Sheet; ``resolved``: whether the Action was resolved (a Squadmate
    may place dice without resolving the Action)."""

    die: Die
    space: Space
    resolved: bool = True


@dataclass(frozen=True)
class ActionState:
    """Step B in progress: the dice still in the Pool and the dice placed on the sheet (immutable)."""

    squadmate: str
    pool: tuple[Die, ...]
    placed: tuple[Placement, ...] = ()
    strategy_at_start: int = 0
    dice_at_start: int = 0

    def strategy_taken(self) -> int:
        return sum(not p.die.paragon for p in self.placed)


def begin_actions(state: RollState) -> ActionState:
    """Step B starts with the rolled Pool (no icon may remain).

    Raises:
        RuleViolation: an icon still shows (the Strategy Roll is not over).
    """
    if state.roll_round == 0 or icons_showing(state):
        raise RuleViolation("Actions start once the Strategy Roll is over (no icon showing)", str(S.CORE_ABILITIES))
    return ActionState(state.squadmate, state.dice, (), sum(not d.paragon for d in state.dice), len(state.dice))


def _must_take(state: ActionState, rulings: Rulings) -> str:
    return rulings.reading("paragon_counts_toward_three")


def allocate_die(state: ActionState, die_id: str, space: Space | str, resolve: bool = True,
                 rulings: Rulings | None = None) -> tuple[ActionState, list[Step]]:
    """Allocate a die from the Pool to an Action Space with a matching icon (Step B: Actions; Action Spaces).

    Raises:
        RuleViolation: the die is not in the Pool, the space does not accept its face, or a fourth Strategy die
            (Paragon dice are taken on top of the three; under ``paragon_counts_toward_three = any_die`` a fourth
            die of any kind must be a Paragon die).
    """
    r = _rulings(rulings)
    space = Space(space)
    die = next((d for d in state.pool if d.id == die_id), None)
    if die is None:
        raise RuleViolation(f"{die_id} is not in the Strategy Pool (left: {', '.join(d.id for d in state.pool)})",
                            str(S.ACTIONS))
    if not accepts(space, die.face, r):
        raise RuleViolation(f"{_a(space).title()} {space.value.title()} Action space cannot take {die_id} showing "
                            f"{label(die.face)}",
                            str(S.ACTION_SPACES))
    if not die.paragon:
        reading = _must_take(state, r)
        taken = state.strategy_taken() if reading == "extra_only" else len(state.placed)
        if taken >= DICE_PER_TURN:
            raise RuleViolation(f"{die_id} would be a fourth die: with three dice on the sheet the Actions step is "
                                "over (only Paragon dice are taken on top)", str(S.ACTIONS))
    new = ActionState(state.squadmate, tuple(d for d in state.pool if d.id != die_id),
                      state.placed + (Placement(die, space, resolve),), state.strategy_at_start, state.dice_at_start)
    if die.paragon:
        rule, why = S.PARAGON_DICE, "A Paragon die is taken in addition to the three dice."
    elif die.face is Face.ENHANCED and space is Space.STANDARD:
        rule, why = S.ENHANCED_ACTIONS, "A Standard space also takes an Enhanced die; some Actions then give their " \
                                        "improved effect."
    else:
        rule, why = S.ACTION_SPACES, "The space shows a matching icon."
    mp = movement_points(die.face) if space is Space.MOVE else None
    what = (f" ({plural(mp, 'Movement Point')})" if mp else "") + ("" if resolve else ", placed without resolving the Action")
    steps = [Step(f"{die_id} ({FACE_SHORT[die.face]}) on {_a(space)} {space.value.title()} Action space{what}", rule,
                  why + ("" if resolve else " A Squadmate may place a die without resolving its Action."),
                  {"die": die_id, "face": die.face.value, "space": space.value, "resolved": resolve,
                   **({"movement_points": mp} if mp else {})}, (die_id,), "Actions")]
    return new, steps


def end_actions(state: ActionState, rulings: Rulings | None = None) -> tuple[ActionState, list[Step]]:
    """The Actions step ends: check the three-dice rule (Step B: Actions) and report the Pool left for the next
    Squadmate. If fewer than three dice are left (dice Locked by Downed Squadmates), every die left must be taken.

    Raises:
        RuleViolation: fewer dice taken than the rule requires.
    """
    r = _rulings(rulings)
    reading = _must_take(state, r)
    if reading == "extra_only":
        need = min(DICE_PER_TURN, state.strategy_at_start)
        have = state.strategy_taken()
        what = "Strategy dice"
    else:
        need = min(DICE_PER_TURN, state.dice_at_start)
        have = len(state.placed)
        what = "dice"
    if have < need:
        raise RuleViolation(f"{state.squadmate} took {have} {what} but must take {need}: a Squadmate always takes "
                            "three dice from the Pool (placing them without resolving if they wish)", str(S.ACTIONS))
    steps = [Step(f"Actions over: {plural(len(state.placed), 'die')} on the sheet, {len(state.pool)} left in the Pool",
                  S.ACTIONS, "A Squadmate takes three dice each turn" + (" (all that were left)" if need < 3 else "")
                  + "; the next Squadmate rolls what remains.",
                  {"taken": [p.die.id for p in state.placed], "pool_left": [d.id for d in state.pool]},
                  tuple(d.id for d in state.pool), "Actions")]
    return state, steps


# -- scenario kind "strategy": in .strategy_scenario (its pydantic models are loaded only when a file is read, so
# ``explorer masseffect strategy-odds`` imports no pydantic); the names stay importable from here.

_SCENARIO_NAMES = ('FaceName', 'FaceOrUnknown', 'SpaceName', 'SquadmateModel', 'PoolModel', 'RenegadeModel',
                   'AllocateModel', 'StrategyScenario', 'parse_strategy', 'rulings_of', 'strategy_start',
                   'resolve_strategy')


def __getattr__(name: str):
    if name in _SCENARIO_NAMES:
        from . import strategy_scenario

        return getattr(strategy_scenario, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
