"""Mass Effect scenario files of kind ``"strategy"``: the file's pydantic models, :func:`parse_strategy` and
:func:`resolve_strategy`, which plays the Strategy Roll's sequence (:data:`.strategy.STRATEGY_SEQUENCE`). Apart from
:mod:`.strategy` so that the odds verb, which reads no file, loads no pydantic.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

from pydantic import Field

from explorer.schema import MAX_TITLE, ScenarioHeader
from explorer.schema import Strict as _Strict

from explorer.dice import Dice, Roller
from explorer.errors import ScenarioError
from explorer.kernel import play, trace_of
from explorer.options import Rulings
from explorer.scenario import validate
from explorer.text import plural
from explorer.trace import Trace

from . import sections as S
from .options import ALL_OPTIONS
from .results import OddsLine, StrategyOutcome
from .strategy import first_drawn_round, rounds_after_a_draw
from .strategy import (ACTION_FACES, CORE_ELEMENT, fixed_faces_allowed, DICE_PER_TURN, PARAGON_DICE_MAX, SQUADMATES, STRATEGY_DICE, STRATEGY_SEQUENCE, UNKNOWN,
                       Face, RenegadeUse, Space, SquadmateName, StrategyContext, StrategyState, fill_spaces,
                       pool_for_turn)

# -- scenario kind "strategy" --------------------------------------------------------------------------------------

FaceName = Literal["move_2", "move_3", "standard", "enhanced", "move_2_or_standard", "core"]
FaceOrUnknown = Literal["move_2", "move_3", "standard", "enhanced", "move_2_or_standard", "core", "?"]
SpaceName = Literal["move", "standard", "enhanced"]


class SquadmateModel(_Strict):
    """Who rolls: ``name`` (Shepard, Garrus, Liara, Tali, Wrex), their Renegade tokens (0..8, the box holds 8) and
    where their Core Ability's element starts (``core_track``: Shepard's Ready Command tokens, Garrus' Aim Value,
    Liara's Analysis token, Wrex's Enraged Rage tokens; 0 to the stand-in sheet's size of it)."""

    name: SquadmateName
    renegade_tokens: int = Field(default=0, ge=0, le=8)
    core_track: int = Field(default=0, ge=0, le=10)


class PoolModel(_Strict):
    """The Pool at this roll. ``turn``: 1 (On Point) to 4; ``locked_by_downed``: Strategy dice Locked on Downed
    Squadmates' sheets (0..12); ``paragon_dice``: Paragon dice in the Mission (0..2); ``paragon_taken``: of those,
    taken earlier this Round; ``showing``: faces left by the previous player (``S1``.., then ``P1``..; ``"?"``:
    not known; needed to Lock); ``lock``: the id of the die to Lock."""

    turn: int = Field(default=1, ge=1, le=4)
    locked_by_downed: int = Field(default=0, ge=0, le=STRATEGY_DICE)
    paragon_dice: int = Field(default=0, ge=0, le=PARAGON_DICE_MAX)
    paragon_taken: int = Field(default=0, ge=0, le=PARAGON_DICE_MAX)
    showing: list[FaceOrUnknown] | None = Field(default=None, max_length=STRATEGY_DICE + PARAGON_DICE_MAX)
    lock: str | None = Field(default=None, max_length=4)


class RenegadeModel(_Strict):
    """One Renegade token: set die ``die`` to ``face`` in roll round ``round`` (1 = after the first roll)."""

    die: str = Field(max_length=4)
    face: FaceName
    round: int = Field(default=1, ge=1, le=50)


class AllocateModel(_Strict):
    """One die allocated in Step B: ``die`` id, ``space`` type, ``resolve`` (false: placed without resolving)."""

    die: str = Field(max_length=4)
    space: SpaceName
    resolve: bool = True


class StrategyScenario(ScenarioHeader):
    """A ``kind = "strategy"`` scenario (see :func:`parse_strategy`); its ``title`` defaults to "Strategy Roll"."""

    title: str = Field(default="Strategy Roll", max_length=MAX_TITLE)
    game: Literal["masseffect"]
    kind: Literal["strategy"]
    seed: int | None = Field(default=None, ge=0, le=2**63 - 1)
    rulings: dict[str, str] = Field(default_factory=dict, max_length=len(ALL_OPTIONS))
    squadmate: SquadmateModel
    pool: PoolModel = Field(default_factory=PoolModel)
    rolls: list[list[FaceOrUnknown]] = Field(default_factory=list, max_length=20)
    renegade: list[RenegadeModel] = Field(default_factory=list, max_length=8)
    allocate: list[AllocateModel] = Field(default_factory=list, max_length=DICE_PER_TURN + PARAGON_DICE_MAX)

    @property
    def on_point(self) -> bool:
        """The On Point Squadmate takes the first turn of the Round (Sequence of Play › On Point)."""
        return self.pool.turn == 1


def parse_strategy(data: Mapping, source: str) -> StrategyScenario:
    """Validate a ``kind = "strategy"`` scenario (TOML already parsed).

    Tables: ``[squadmate]`` (name, renegade_tokens), ``[pool]`` (turn, locked_by_downed, paragon_dice,
    paragon_taken, showing, lock), ``rolls`` (fixed faces per roll round: ``[[...first roll...], [...re-roll 1...]]``
    in Pool order, one face per die rolled; ``"?"`` leaves a die to the seed and the step names the dice so rolled;
    a shorter list is an error, never filled from the seed), ``[[renegade]]`` (die, face, round), ``[[allocate]]`` (die,
    space, resolve), optional ``seed`` and
    ``[rulings]``. Faces: ``move_2``, ``move_3``, ``standard``, ``enhanced``, ``move_2_or_standard``, ``core``.

    Raises:
        ScenarioError: naming the file, the field path and the allowed values (pydantic bounds; a ``showing`` list
            whose length is not the Pool's; a ``lock`` that is not a die of the Pool or is asked by the On Point
            Squadmate; fixed first-roll faces that are not one per die rolled; an unknown ruling; ``[[allocate]]`` or
            ``[[renegade]]`` while a face of the roll is left to the seed, issue #25 item 4). A re-roll's list
            that is not one face per icon die, or a missing list when every face so far was fixed, is refused when
            the roll is played (:func:`.strategy._roll`).
    """
    sc = validate(StrategyScenario, data, source)
    try:
        rulings_of(sc)
        pool, _ = pool_for_turn(sc.pool.turn, sc.pool.paragon_dice, sc.pool.locked_by_downed, sc.pool.paragon_taken)
    except ScenarioError as e:
        field = e.field if e.field.startswith("rulings") else f"pool.{e.field}"
        raise ScenarioError(field, e.problem, e.allowed, source) from None
    ids = [d.id for d in pool]
    if sc.pool.showing is not None and len(sc.pool.showing) != len(pool):
        raise ScenarioError("pool.showing", f"{plural(len(sc.pool.showing), 'face')} for a Pool of {plural(len(pool), 'die')} "
                            f"({', '.join(ids)})", f"exactly {len(pool)} faces", source)
    if sc.pool.lock is not None:
        if sc.on_point:
            raise ScenarioError("pool.lock", "the On Point Squadmate (turn 1) cannot Lock a die: they must roll every "
                                f"die [{S.STRATEGY_ROLL}]", "no lock on turn 1", source)
        if sc.pool.lock not in ids:
            raise ScenarioError("pool.lock", f"no die {sc.pool.lock!r} in the Pool", ids, source)
        if sc.pool.showing is None:
            raise ScenarioError("pool.showing", "is required to Lock a die (the faces the previous player left)",
                                f"{len(pool)} faces", source)
        if sc.pool.showing[ids.index(sc.pool.lock)] == UNKNOWN:
            raise ScenarioError(f"pool.showing[{ids.index(sc.pool.lock)}]", f"the Locked die {sc.pool.lock} must "
                                "show a known face (the result the previous player left)",
                                [f.value for f in ACTION_FACES], source)
    rolled = len(pool) - (sc.pool.lock is not None)
    if sc.rolls and sc.rolls[0] and len(sc.rolls[0]) != rolled:
        raise ScenarioError("rolls[0]", f"{plural(len(sc.rolls[0]), 'fixed face')} for the {plural(rolled, 'die')} rolled",
                            fixed_faces_allowed(rolled), source)
    late = rounds_after_a_draw(sc.rolls)
    if late is not None:
        raise ScenarioError(*late, source)
    for i, a in enumerate(sc.allocate):
        if a.die not in ids:
            raise ScenarioError(f"allocate[{i}].die", f"no die {a.die!r} in the Pool", ids, source)
    for i, u in enumerate(sc.renegade):
        if u.die not in ids:
            raise ScenarioError(f"renegade[{i}].die", f"no die {u.die!r} in the Pool", ids, source)
    top = core_track_of(sc.squadmate.name)[1]
    if sc.squadmate.core_track > top:
        raise ScenarioError("squadmate.core_track", f"{sc.squadmate.core_track}, but {sc.squadmate.name}'s "
                            f"{CORE_ELEMENT[sc.squadmate.name][1]} go up to {top} on the stand-in sheet",
                            f"0 to {top}", source)
    if len(sc.renegade) > sc.squadmate.renegade_tokens:
        raise ScenarioError("renegade", f"{len(sc.renegade)} uses but {sc.squadmate.name} has "
                            f"{plural(sc.squadmate.renegade_tokens, 'Renegade token')}",
                            f"at most {sc.squadmate.renegade_tokens} uses", source)
    _check_declarations_fixed_by_the_file(sc, source)
    return sc


def _check_declarations_fixed_by_the_file(sc: StrategyScenario, source: str) -> None:
    """Validity never depends on a draw (issue #25 item 4): an ``[[allocate]]`` names a die whose face decides the
    Action Spaces it may take, and a ``[[renegade]]`` use a die and a roll round; both hold for every draw only when
    the file fixes every face of the Strategy Roll (``rolls`` given, no ``"?"``: a face left to the seed decides
    which dice show an icon, so which are re-rolled and in how many rounds). Otherwise the file is refused before
    any die is rolled, whatever the seed (Strategy Roll; Step B: Actions).

    Raises:
        ScenarioError: naming the first ``allocate[i].die`` (else ``renegade[i].die``).
    """
    declared = ([(f"allocate[{i}].die", a.die, "on an Action Space") for i, a in enumerate(sc.allocate)]
                + [(f"renegade[{i}].die", u.die, "with a Renegade token") for i, u in enumerate(sc.renegade)])
    if not declared:
        return
    j = first_drawn_round(sc.rolls)
    if not sc.rolls or not sc.rolls[0]:
        why = "no 'rolls' fixes the Strategy Roll's faces: every die is rolled from the seed"
    elif j is None:
        return
    elif not sc.rolls[j]:
        why = f"rolls[{j}] is an empty list: its dice are rolled from the seed"
    else:
        k = list(sc.rolls[j]).index(UNKNOWN)
        why = f"rolls[{j}][{k}] is {UNKNOWN!r}: that die is rolled from the seed"
    field, die, how = declared[0]
    raise ScenarioError(field, f"plays {die} {how}, but {why}, and the faces decide which dice are re-rolled and "
                        "which Action Space a die may take: the file would hold for some draws and not others",
                        "every face of 'rolls' fixed (no '?') to declare [[allocate]] or [[renegade]], or neither "
                        "declared (the roll alone)", source)


def core_track_of(name: str) -> tuple[int, int]:
    """``(rage_damage, size)`` of ``name``'s Core Ability element on the built-in stand-in sheet (Command tokens, Aim
    Tracker, Analysis track, Rage tokens; Tali: Chatika, no track: 0)."""
    from .sheets import load_sheets

    sh = load_sheets()[name]
    size = {"Shepard": sh.command_tokens, "Garrus": sh.aim_track, "Liara": sh.analysis_track, "Tali": 0,
            "Wrex": sh.rage_tokens}[name]
    return sh.rage_damage, size


def rulings_of(sc: StrategyScenario, override: Mapping[str, str] | None = None) -> Rulings:
    """The scenario's ``[rulings]`` then ``override`` over the defaults.

    Raises:
        ScenarioError: unknown option or reading.
    """
    chosen = dict(sc.rulings)
    chosen.update(override or {})
    return Rulings(ALL_OPTIONS, chosen)


def strategy_start(scenario: StrategyScenario, rulings: Mapping[str, str] | None = None, seed: int | None = None,
                   roller: Roller | None = None) -> tuple[StrategyState, StrategyContext]:
    """The initial state and the context of a ``strategy`` scenario: its rulings (the file's, then ``rulings``), its
    dice (``roller``, else ``seed``, else the file's seed) and its declarations."""
    sc = scenario
    dice = roller if roller is not None else Dice(seed=seed if seed is not None else sc.seed)
    ctx = StrategyContext(rulings_of(sc, rulings), dice, sc.squadmate.name, sc.squadmate.renegade_tokens, sc.pool.turn,
                          sc.pool.paragon_dice, sc.pool.locked_by_downed, sc.pool.paragon_taken,
                          None if sc.pool.showing is None else tuple(sc.pool.showing), sc.pool.lock,
                          tuple(tuple(f) for f in sc.rolls),
                          tuple(RenegadeUse(u.die, Face(u.face), u.round) for u in sc.renegade),
                          tuple((a.die, a.space, a.resolve) for a in sc.allocate),
                          (sc.squadmate.core_track, core_track_of(sc.squadmate.name)[1]),
                          core_track_of(sc.squadmate.name)[0])
    return StrategyState(core=sc.squadmate.core_track), ctx


def resolve_strategy(scenario: StrategyScenario, rulings: Mapping[str, str] | None = None,
                     seed: int | None = None, roller: Roller | None = None) -> Trace:
    """Resolve a Strategy Roll scenario into a cited :class:`Trace`.

    ``seed`` overrides the scenario's seed; ``roller`` (tests) overrides both. Fixed faces in ``rolls`` are used
    first in each roll round. ``Trace.outcome``: ``final`` ({die id: face}), ``final_counts`` (face → count),
    ``triggers``, ``icons_per_round``, ``roll_rounds``, ``locked``, ``on_point``, ``renegade_used``,
    ``can_fill`` (Move + Standard + Enhanced: the dice ids, or null), ``taken`` / ``pool_left`` when dice are
    allocated, ``analysis_moves`` for Liara, and ``odds`` (:func:`~.strategy_odds.strategy_odds_table` for this
    Pool before the roll).

    Raises:
        ScenarioError: bad rulings or fixed dice that do not fit the roll.
        RuleViolation: an illegal Lock, Renegade use or allocation (the message names the rule).
    """
    from .strategy_odds import strategy_odds_table

    sc = scenario
    start, ctx = strategy_start(sc, rulings, seed, roller)
    r = ctx.rulings
    frames = play(start, STRATEGY_SEQUENCE, ctx)
    final = frames[-1].state
    state, pool, locked_face = final.roll, final.pool, final.locked_face
    trace = trace_of(sc.title, frames)
    faces = [d.face for d in state.dice]
    fill = fill_spaces(faces, (Space.MOVE, Space.STANDARD, Space.ENHANCED), r)
    taken = pool_left = None
    if final.actions is not None:
        act = final.actions
        taken = tuple((p.die.id, p.space.value) for p in act.placed)
        pool_left = tuple((d.id, d.face.value) for d in act.pool)
    n_strategy = sum(not d.paragon for d in pool)
    locked_paragon = sc.pool.lock is not None and sc.pool.lock.startswith("P")
    odds = None
    if n_strategy >= 1:  # the odds table counts 1..12 Strategy dice; a Pool of Paragon dice only has none
        odds = OddsLine.of(strategy_odds_table(n_strategy, locked_face.value if locked_face else None,
                                               paragon=len(pool) - n_strategy, rulings=r, max_triggers=8,
                                               locked_is_paragon=locked_paragon))
    trace.rulings = dict(r.consulted)
    return trace.with_result(StrategyOutcome(
        sc.squadmate.name, SQUADMATES[sc.squadmate.name], sc.on_point, len(pool), sc.pool.lock,
        tuple((d.id, d.face.value) for d in state.dice),
        tuple((f.value, sum(d.face is f for d in state.dice)) for f in ACTION_FACES),
        state.triggers, tuple(state.icons_per_round), state.roll_round, state.renegade_used,
        tuple(state.dice[i].id for i in fill) if fill else None, state.rolled,
        state.triggers if sc.squadmate.name == "Liara" else None, taken, pool_left, odds))
