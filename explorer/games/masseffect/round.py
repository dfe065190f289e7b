"""Scenario kind ``round``: one whole Round of a Mission, phase by phase (Playing a Mission › Sequence of Play).

Sections: Preparation Phase (a Hazard card per Squadmate, none for the Downed; the Strategy Pool); Squadmate Phase
(each Squadmate's turn in On Point order, clockwise: Step A, Step B: Actions on the sheet's Action Spaces, Step C:
the Hazard card with every Enemy's Activation); End Phase (Shields recovered, Enemies' tokens removed, the On Point
token passed). Squadmate Sheets come from a sheet file (:mod:`.sheets`; the built-in one is a documented stand-in).

The kernel plays :data:`ROUND_SEQUENCE` over a frozen :class:`RoundState` with a :class:`RoundContext`:
:func:`start_of_round` (Inferno Icons), :func:`preparation_phase`, one frame per turn (:func:`squadmate_turn`) and :func:`round_end_phase`. A declaration
the rules refuse (a Move past its Movement Points, an Action Space used twice, a die on a space that does not take
it, an Ability not unlocked, a target out of range) is a "Not allowed" step citing the rule and naming the field
(``turns[i].actions[j]...``); the Round stops there (:attr:`RoundState.rejected`).

File shape (after the shared header ``game = "masseffect"``, ``kind = "round"``)::

    map = "open"                # a built-in map name or an inline [map] table
    on_point = "Shepard"        # the On Point Squadmate (takes the first turn)
    sheets = "standin"          # the sheet file: "standin" (built-in stand-in) or a path
    [[squadmates]] ...          # seating order, clockwise, with positions (see unit_specs)
    [[enemies]] ...             # with positions
    [[bag]] ...                 # the Enemy Bag's next Minions, in draw order
    [[hazard_deck]]             # the Hazard deck, top card first
    name = "C1"
    [[hazard_deck.instructions]]        # as an activation file's [[hazard]]
    do = "activate"
    types = ["Husk"]
    [[turns]]                   # the players' choices, one table per Squadmate taking a turn
    squadmate = "Shepard"
    [[turns.actions]]           # at most three, in order
    box = "Move"                # a Basic Action (Move, Mission, Revive) or an Ability Box of the sheet
    die = "move_3"              # move_2, move_3, standard, enhanced, move_2_or_standard
    path = ["0,0", "1,0"]       # Move: the route, its own hex first
    target = "Husk"             # an Ability's target Enemy
    resolve = true              # false: the die is placed without resolving the Action
    [turns.choices] ...         # as an activation file's [choices], for this turn's Hazard card

Not simulated in this increment (said in the trace): the Strategy Roll itself (the file declares the faces the
player took: the ``strategy`` kind plays a roll with its Core Ability triggers), Locking a die, Core Abilities,
Mission and Revive effects (the die is placed, the effect is on the sheet's back or the Mission page), Downed
Squadmates' turns (the back of their sheet is not printed in the rulebook: they take no Actions).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, Literal

from pydantic import Field

from explorer.errors import RuleViolation, ScenarioError
from explorer.hexgrid import Hex
from explorer.kernel import Context, Each, Outcome, play, run, trace_of
from explorer.scenario import validate
from explorer.schema import Strict
from explorer.text import plural
from explorer.trace import Step, Trace

from . import sections as S
from .activation import (HAZARD_CARD_SEQUENCE, ActivationContext, Board, Choices, ChoicesSpec, HazardInstruction,
                         Instruction, MapTerrain, _card, _hex_field, _load_map, coolant_leak_end_of_turn,
                         inferno_start_of_round, opportunity_attacks, shrouded_now)
from .options import rulings as _rulings_for
from .results import EnemyAt, Happening, OnPointPassed, Refused, SquadmateAt
from .sheets import FACES_FOR, MOVEMENT_POINTS, STANDIN, DieFace, Sheet, load_sheets
from .unit_specs import EnemySpec, Header, Name, SquadmateSpec, check_rulings, check_units, names_check, parse_hex
from .units import (enemy_damage, enemy_damage_happenings, enemy_end_phase, gain_xp, give_biotic_effect,
                    pass_on_point, restore_shields, stun)

STRATEGY_DICE = 12
"""The Strategy Pool: twelve Strategy dice (The Strategy Pool)."""
DICE_PER_TURN = 3
"""A Squadmate always takes three dice from the Pool on its turn (Step B: Actions)."""


# --- the file -------------------------------------------------------------------------------------------------------


class HazardCardSpec(Strict):
    name: str = Name
    instructions: list[HazardInstruction] = Field(min_length=1, max_length=8)


class ActionSpec(Strict):
    box: str = Name
    die: DieFace
    path: list[str] = Field(default_factory=list, max_length=12)
    target: str | None = Field(default=None, max_length=40)
    resolve: bool = True


class TurnSpec(Strict):
    squadmate: str = Name
    actions: list[ActionSpec] = Field(default_factory=list, max_length=DICE_PER_TURN)
    choices: ChoicesSpec = Field(default_factory=ChoicesSpec)


class RoundScenario(Header):
    """A validated ``round`` scenario (see the module docstring for the file shape)."""

    kind: Literal["round"]
    map: str | dict
    on_point: str = Name
    sheets: str = Field(default=STANDIN, min_length=1, max_length=300)
    squadmates: list[SquadmateSpec] = Field(min_length=1, max_length=5)
    enemies: list[EnemySpec] = Field(default_factory=list, max_length=40)
    bag: list[EnemySpec] = Field(default_factory=list, max_length=30)
    hazard_deck: list[HazardCardSpec] = Field(min_length=1, max_length=64)
    turns: list[TurnSpec] = Field(default_factory=list, max_length=5)


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
    sheets = load_sheets(sc.sheets, source)
    names = [s.name for s in sqs]
    for i, s in enumerate(sqs):
        if s.name not in sheets:
            raise ScenarioError(f"squadmates[{i}].name", f"no sheet for {s.name!r} in {sc.sheets!r}",
                                sorted(sheets), source)
    names_check(sc.on_point, names, "on_point", source)
    enemy_names = [e.name for e in ens]
    seen = set()
    for i, t in enumerate(sc.turns):
        names_check(t.squadmate, names, f"turns[{i}].squadmate", source)
        if t.squadmate in seen:
            raise ScenarioError(f"turns[{i}].squadmate", f"{t.squadmate} takes one turn per Round",
                                "one [[turns]] table per Squadmate", source)
        seen.add(t.squadmate)
        for j, a in enumerate(t.actions):
            f = f"turns[{i}].actions[{j}]"
            for k, h in enumerate(a.path):
                _hex_field(h, f"{f}.path[{k}]", source)
            if a.target is not None:
                names_check(a.target, enemy_names, f"{f}.target", source)
    hands = sum(1 for s in sqs if not s.downed)
    if len(sc.hazard_deck) < hands:
        raise ScenarioError("hazard_deck", f"{len(sc.hazard_deck)} cards; the Preparation Phase draws {hands}",
                            f"at least {hands} cards", source)
    return sc


# --- state, context -------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Action:
    """One declared Action (see :class:`ActionSpec`); ``field``: its place in the file (``turns[i].actions[j]``)."""

    box: str
    die: str
    path: tuple[Hex, ...]
    target: str | None
    resolve: bool
    field: str


@dataclass(frozen=True)
class Turn:
    """A Squadmate's declared turn: its Actions and its choices for the Hazard card."""

    squadmate: str
    actions: tuple[Action, ...]
    choices: Choices


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

    def hand(self, name: str) -> str | None:
        return next((c for s, c in self.hands if s == name), None)


@dataclass(frozen=True)
class RoundContext(Context):
    """What the Round's steps read and never change: the rulings, the map (``terrain``), the Squadmate ``sheets``,
    the Hazard ``cards`` (name -> instructions) and the declared ``turns``."""

    terrain: Any = None
    sheets: Mapping[str, Sheet] | None = None
    cards: Mapping[str, tuple[Instruction, ...]] | None = None
    turns: tuple[Turn, ...] = ()

    def turn_of(self, name: str) -> Turn | None:
        return next((t for t in self.turns if t.squadmate == name), None)


# --- Preparation Phase ----------------------------------------------------------------------------------------------


def turn_order(squadmates, on_point: str) -> tuple[str, ...]:
    """Squadmate Phase: the On Point Squadmate first, then clockwise (seating order)."""
    names = [s.name for s in squadmates]
    i = names.index(on_point)
    return tuple(names[i:] + names[:i])


def start_of_round(state: RoundState, ctx: RoundContext) -> tuple[RoundState, tuple[Step, ...]]:
    """Inferno Icons: at the start of the Round each Squadmate and Minion in an Inferno hex suffers 1 Damage (Elites
    are unaffected); nothing to say when nobody stands in one."""
    board, steps = inferno_start_of_round(ctx.terrain, state.board)
    return replace(state, board=board), tuple(s.in_section("Start of the Round") for s in steps)


def preparation_phase(state: RoundState, ctx: RoundContext) -> tuple[RoundState, tuple[Step, ...]]:
    """Preparation Phase: a Hazard card drawn face-down for each Squadmate, none for a Downed one; then the On Point
    player gathers the twelve Strategy dice into the Pool."""
    order = turn_order(state.board.squadmates, state.on_point)
    deck, hands, steps = state.deck, [], []
    for name in order:
        if state.board.squadmate(name).downed:
            steps.append(Step(f"{name} is Downed: no Hazard card", S.PREPARATION_PHASE, marks=(name,)))
            continue
        hands.append((name, deck[0]))
        steps.append(Step(f"Hazard card {deck[0]} drawn face-down for {name}", S.PREPARATION_PHASE,
                          facts={"squadmate": name, "card": deck[0]}, marks=(name,)))
        deck = deck[1:]
    steps.append(Step(f"The Strategy Pool: {plural(STRATEGY_DICE, 'Strategy die', 'Strategy dice')}, gathered by {state.on_point} "
                      f"(On Point)", S.STRATEGY_POOL,
                      "Dice Locked by a Downed Squadmate would reduce it: the sheets' backs are not printed, so none "
                      "are Locked here.", facts={"pool": STRATEGY_DICE}))
    new = replace(state, order=order, deck=deck, hands=tuple(hands), pool=STRATEGY_DICE)
    return new, tuple(s.in_section("Preparation Phase") for s in steps)


# --- a Squadmate's turn ---------------------------------------------------------------------------------------------


def turn_numbers(state: RoundState) -> range:
    """The turns of the Squadmate Phase: one per Squadmate, in :attr:`RoundState.order`."""
    return range(1, len(state.order) + 1)


def round_stopped(state: RoundState) -> bool:
    """Shepard is Downed (the Mission ends) or a declaration was refused."""
    return state.board.failed or state.rejected is not None


def _space(state: RoundState, ctx: RoundContext, who: str, act: Action) -> tuple[str, int]:
    """Action Spaces: the box's first free Action Space that takes the die; refusals name the rule and the field."""
    sheet = ctx.sheets[who]
    box = sheet.box(act.box)
    if box is None:
        raise RuleViolation(f"{who}'s sheet has no box {act.box!r} (boxes: {', '.join(b.name for b in sheet.boxes)})",
                            S.SQUADMATE_SHEETS, field=f"{act.field}.box", step="Step B: Actions")
    if not box.unlocked:
        raise RuleViolation(f"{who}'s {box.name} is a Locked Ability: it cannot be used until unlocked",
                            S.UNLOCKING_ABILITIES, field=f"{act.field}.box", step="Step B: Actions")
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


def _ability(board: Board, ctx: RoundContext, who: str, act: Action) -> tuple[Board, list[Step]]:
    """Ability Actions: the box's effect on its target Enemy (Damage, Stun, a Biotic Effect token), checked against
    the box's range and Line of Fire; Enhanced effects with an Enhanced die (Enhanced Actions)."""
    from .damage import react_tag

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
    if enhanced and box.enhanced_min_distance is not None and (dist or 0) < box.enhanced_min_distance:
        enhanced = False
        steps.append(Step(f"{act.target} is {dist} hexes away: the Enhanced {box.name} needs "
                          f"{box.enhanced_min_distance} or more, so the standard version is used",
                          S.SQUADMATE_COMMENTARY, marks=(act.target,)))
    version = "Enhanced " if enhanced else ""
    steps.insert(0, Step(f"{who} uses {version}{box.name} on {act.target} ({dist} hexes)",
                         S.ENHANCED_ACTIONS if enhanced else S.ABILITY_ACTIONS, marks=(who, act.target)))
    if box.damage:
        amount = box.damage[1 if enhanced else 0]
        res = enemy_damage(enemy, amount, by=who)
        steps += res.steps
        board = board.with_enemy(enemy.name, res.enemy).logged(*enemy_damage_happenings(enemy, res, amount, who))
        if res.defeated:
            if enemy.kind == "minion":
                board = replace(board, returned_to_bag=board.returned_to_bag + (enemy.name,))
            sq, more = gain_xp(board.squadmate(who), enemy.name)
            board = board.with_squadmate(sq)
            steps += more
        elif res.react:
            steps = [s for s in steps if s.rule != S.REACT_TAG]
            board, more = react_tag(board, ctx, enemy.name, who)
            steps += more
        enemy = board.enemy(enemy.name)
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


def _ability_checked(board: Board, ctx: RoundContext, who: str, act: Action) -> tuple[Board, list[Step]]:
    """:func:`_ability`, its refusals from the unit rules (Stunning an Elite...) naming the target field."""
    try:
        return _ability(board, ctx, who, act)
    except RuleViolation as v:
        if v.rejection.field:
            raise
        raise RuleViolation(v.reason, v.rule, field=f"{act.field}.target", step="Step B: Actions") from None


_FACE_WORDS = {"move_2": "Move 2", "move_3": "Move 3", "standard": "Standard", "enhanced": "Enhanced",
               "move_2_or_standard": "Move 2 or Standard", "core": "Core Ability"}
"""A die face as a step names it ("a die showing Move 2"): the file's face ids in the book's words."""

def _action(state: RoundState, ctx: RoundContext, who: str, act: Action) -> tuple[RoundState, list[Step]]:
    box, k = _space(state, ctx, who, act)
    state = replace(state, used=state.used + ((who, box, k),))
    face = _FACE_WORDS.get(act.die, act.die)
    steps = [Step(f"{who} allocates a die showing {face} to {box} (Action Space {k + 1})", S.ACTION_SPACES,
                  facts={"box": box, "space": k + 1, "die": act.die})]
    board = state.board
    if not act.resolve:
        steps.append(Step(f"{box} is not resolved: the die is only placed", S.ACTIONS))
    elif box == "Move":
        try:
            board, more = opportunity_attacks(ctx.terrain, board, who, act.path,
                                              movement_points=MOVEMENT_POINTS[act.die], rulings=ctx.rulings)
        except RuleViolation as v:
            raise RuleViolation(v.reason, v.rule, field=f"{act.field}.{v.rejection.field}",
                                step="Step B: Actions") from None
        steps += more
    elif box in ("Mission", "Revive"):
        what = ("the Mission Rules page says what it does" if box == "Mission"
                else "the Revived Squadmate follows the back of its sheet")
        steps.append(Step(f"{box}: the die is placed; {what} (not modelled here)", S.BASIC_ACTIONS))
    else:
        board, more = _ability_checked(board, ctx, who, act)
        steps += more
    return replace(state, board=board), steps


def squadmate_turn(state: RoundState, ctx: RoundContext, n: int) -> tuple[RoundState, tuple[Step, ...]]:
    """Squadmate Phase: turn ``n`` (from 1) of :attr:`RoundState.order`: Step A (the dice taken from the Pool),
    Step B (the declared Actions, each on a free matching Action Space of the sheet), Step C (the Hazard card dealt
    to this Squadmate, resolved with it as the current Squadmate, then discarded), then Coolant Leaks. A refused
    declaration is a "Not allowed" step and ends the Round's play. A Downed Squadmate takes no Actions."""
    who = state.order[n - 1]
    section = f"Turn {n}: {who}"
    board = replace(state.board, current=who)
    state = replace(state, board=board)
    if board.squadmate(who).downed:
        st = Step(f"{who} is Downed: the sheet's back is not printed in the rulebook, no Actions here",
                  S.DOWNED_SQUADMATES, marks=(who,))
        return state, (st.in_section(section),)
    turn = ctx.turn_of(who) or Turn(who, (), Choices())
    take = min(DICE_PER_TURN, state.pool)
    steps = [Step(f"Step A: {who} takes {plural(take, 'die', 'dice')} from the Strategy Pool ({state.pool} -> {state.pool - take})",
                  S.STRATEGY_ROLL, "The roll itself is not simulated here: the file declares the faces taken (the "
                  "strategy kind plays a Strategy Roll with its Core Ability triggers).",
                  facts={"pool": state.pool - take})]
    state = replace(state, pool=state.pool - take)
    try:
        for act in turn.actions:
            state, more = _action(state, ctx, who, act)
            steps += more
            if state.board.failed:
                break
        if len(turn.actions) < take and not state.board.failed:
            left = plural(take - len(turn.actions), "more die", "more dice")
            steps.append(Step(f"{left} placed on matching Action Spaces without resolving the Actions", S.ACTIONS))
    except RuleViolation as v:
        title = f"Not allowed: {v.reason} [{v.section}] ({v.rejection.field})"
        board = state.board.logged(Refused(title))
        steps.append(Step(title, S.ref(v.section) if isinstance(v.section, str) else S.ACTIONS,
                          facts={"rejected": True, "field": v.rejection.field}))
        state = replace(state, board=board, rejected=f"{v.reason} [{v.section}] ({v.rejection.field})")
        return state, tuple(s.in_section(section) for s in steps)
    if not state.board.failed:
        card = state.hand(who)
        steps.append(Step(f"Step C: {who} flips Hazard card {card}", S.HAZARD_CARD, facts={"card": card}))
        actx = ActivationContext(ctx.rulings, None, ctx.terrain, turn.choices)
        board, more = run(replace(state.board, hazard=ctx.cards[card]), HAZARD_CARD_SEQUENCE, actx)
        steps += more
        state = replace(state, board=board, discard=state.discard + (card,),
                        hands=tuple(h for h in state.hands if h[0] != who))
        if not board.failed:
            board, more = coolant_leak_end_of_turn(ctx.terrain, board, who)
            steps += more
            state = replace(state, board=board)
    return state, tuple(s.in_section(section) for s in steps)


# --- End Phase -----------------------------------------------------------------------------------------------------


def round_end_phase(state: RoundState, ctx: RoundContext) -> tuple[RoundState, tuple[Step, ...]]:
    """End Phase: every Squadmate recovers all Shield Points; Damage and Biotic Effect tokens are removed from every
    Enemy and Stunned Enemies not in Shrouded areas flip to Active; the On Point token passes to the right,
    skipping Downed Squadmates. Not played once the Mission has ended or a declaration was refused."""
    if round_stopped(state):
        return state, ()
    board = state.board
    steps: list[Step] = [Step("End Phase", S.END_PHASE)]
    sqs = []
    for s in board.squadmates:
        new, more = restore_shields(s)
        sqs.append(new)
        steps += more
    ens = []
    for e in board.enemies:
        new, more = enemy_end_phase(replace(e, shrouded=e.shrouded or shrouded_now(ctx.terrain, board, e.position)))
        ens.append(replace(new, shrouded=e.shrouded))
        steps += more
    board = replace(board, squadmates=tuple(sqs), enemies=tuple(ens))
    nxt, more = pass_on_point(board.squadmates, state.on_point, ctx.rulings)
    steps += more
    board = board.logged(OnPointPassed(state.on_point, nxt))
    return replace(state, board=board, on_point=nxt), tuple(s.in_section("End Phase") for s in steps)


ROUND_SEQUENCE = (("Start of the Round", start_of_round), ("Preparation Phase", preparation_phase),
                  Each("Turn {item}", turn_numbers, squadmate_turn, stop=round_stopped),
                  ("End Phase", round_end_phase))
"""The ``round`` kind as the kernel plays it: Inferno Damage at the start of the Round, the Preparation Phase, one
frame per Squadmate's turn (until the Mission
ends or a declaration is refused), the End Phase."""


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
    kind = "round"

    @property
    def removed(self) -> tuple[str, ...]:
        return ()

    def to_json(self) -> dict[str, Any]:
        return {"squadmates": {s.name: s.to_json() for s in self.squadmates},
                "enemies": {e.name: e.to_json() for e in self.enemies},
                "returned_to_bag": list(self.returned_to_bag), "on_point": self.on_point,
                "hazard_discard": list(self.discard), "pool": self.pool, "mission_failed": self.mission_failed,
                "rejected": self.rejected}


def round_start(scenario: RoundScenario, rulings: Mapping[str, str] | None = None
                ) -> tuple[RoundState, RoundContext]:
    """The initial :class:`RoundState` and the :class:`RoundContext` of a ``round`` scenario."""
    r = _rulings_for({**scenario.rulings, **(rulings or {})})
    terrain = MapTerrain(_load_map(scenario.map, None), r)
    sqs, ens = check_units(scenario.squadmates, scenario.enemies, None, need_positions=True)
    bag = tuple(b.build() for b in scenario.bag)
    board = Board(sqs, ens, scenario.on_point, bag)
    cards = {c.name: tuple(_card(_CardView(c.instructions))) for c in scenario.hazard_deck}
    turns = []
    for i, t in enumerate(scenario.turns):
        ch = t.choices
        choices = Choices(tuple(ch.activation_order), tuple(ch.attack_target),
                          {k: parse_hex(v) for k, v in ch.advance_to.items()},
                          tuple(parse_hex(h) for h in ch.spawn_hex), tuple(ch.opportunity_order))
        acts = tuple(Action(a.box, a.die, tuple(parse_hex(h) for h in a.path), a.target, a.resolve,
                            f"turns[{i}].actions[{j}]") for j, a in enumerate(t.actions))
        turns.append(Turn(t.squadmate, acts, choices))
    state = RoundState(board, scenario.on_point, deck=tuple(c.name for c in scenario.hazard_deck))
    return state, RoundContext(r, None, terrain, load_sheets(scenario.sheets), cards, tuple(turns))


@dataclass(frozen=True)
class _CardView:
    """A Hazard card's instructions in the shape :func:`.activation._card` reads."""

    hazard: list


def round_outcome(state: RoundState) -> RoundOutcome:
    """The typed outcome of a played Round."""
    b = state.board
    return RoundOutcome(
        tuple(SquadmateAt(s.name, s.shield_points, s.hit_points, s.downed, hex=str(s.position)) for s in b.squadmates),
        tuple(EnemyAt(e.name, e.damage, e.stunned, hex=str(e.position)) for e in b.enemies),
        b.returned_to_bag, state.on_point, state.discard, state.pool, b.failed, state.rejected, b.log)


def play_round(scenario: RoundScenario, rulings: Mapping[str, str] | None = None):
    """The kernel frames of a ``round`` scenario (:data:`ROUND_SEQUENCE`) and its trace (typed result
    :class:`RoundOutcome`)."""
    state, ctx = round_start(scenario, rulings)
    frames = play(state, ROUND_SEQUENCE, ctx)
    final = frames[-1].state if frames else state
    trace = trace_of(scenario.title or "A Round", frames, ctx.rulings.consulted)
    return frames, trace.with_result(round_outcome(final))


def resolve_round(scenario: RoundScenario, rulings: Mapping[str, str] | None = None,
                  seed: int | None = None) -> Trace:
    """Play one Round (:data:`ROUND_SEQUENCE`). ``seed`` is unused (the dice taken are declared; the Enemy Bag's
    draws are the file's ``bag``).

    Returns:
        a Trace whose typed ``result`` is a :class:`RoundOutcome`; its JSON ``outcome`` is ``{"squadmates": {name:
        {hex, shield_points, hit_points, downed}}, "enemies": {name: {hex, damage, stunned}}, "returned_to_bag",
        "on_point" (next Round's), "hazard_discard", "pool" (dice left), "mission_failed", "rejected"}``.
    """
    return play_round(scenario, rulings)[1]
