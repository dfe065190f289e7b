"""Scenario kind ``hero`` of Marvel D.A.G.G.E.R.: Hero Phase actions on a board, each with its exact odds, then
(optionally) the Nemesis Phase that follows — "if Hero B fights Thug 1, what does step 1 add, and does the 1st strike
still fail?"

Rulebook sections: Gameplay › Hero Phase › Aspect Actions (Move, Fight, Defy, Rest), Additional Rules › Empowered and
Primed, Missions, Damage and Defeat (through :mod:`.hero_phase`); then the Nemesis Phase (through :mod:`.nemesis`).

A ``hero`` document is a ``nemesis`` document (the board: map, heroes, enemies, missions, events, choices, rulings;
``docs/dagger-map-format.md``) plus::

    kind = "hero"
    die = [0, 0, 0, 1, 1, 2]          # optional: the custom die's faces (successes per face); default: the stand-in
    then_phase = true                 # optional: play the Nemesis Phases after the actions (phases, stop_after)
    [[actions]]
    do = "move"                       # move | fight | defy | rest | ability
    hero = "Hero B"
    path = ["Cairo"]                  # move: the spaces entered; move_value overrides the hero's move
    [[actions]]
    do = "fight"
    hero = "Hero B"
    enemy = "Thug 1"                  # fight: an enemy in the hero's space; defy: mission = "..."
    successes = 2                     # optional: the roll's result, applied; without it only the odds are given
    dice = 3                          # optional: overrides ATK / DFI / tactic
    spend_empowered = true            # optional (default: spend the token only when it makes the difference)
    [[actions]]
    do = "ability"                    # a hero ability's effect (no roll):
    effect = "damage_each_enemy_nearby"   # the one effect so far: each enemy nearby suffers `amount` damage
    amount = 1                        # (nearby pieces: ruling nearby_pieces, handed case DG-08)

``Trace.outcome``: ``actions`` (per action: ``do``, ``hero``, ``target``, ``dice``, ``need``, ``p`` and
``p_with_empowered`` as ``{"exact", "float"}``, ``successes``, ``result``), ``threat_start``, ``threat``,
``after_actions`` (threat, enemies ``{id: [space, damage]}``, heroes ``{name: [space, damage]}``, missions
``{name: progress}``, team_up), ``lost``, ``won``, ``phase`` (true when the Nemesis Phase was played), ``die``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import Field

from explorer.errors import RuleViolation, ScenarioError
from explorer.kernel import Context, Each, Sequence, play_until_refused, steps_of
from explorer.options import Rulings
from explorer.scenario import validate
from explorer.schema import Strict
from explorer.text import join_words, plural
from explorer.trace import Step, Trace

from . import hero_phase as HP
from . import sections as S
from .nemesis import PhaseContext, play_phases
from .nemesis_scenario import NAME, NemesisScenario, initial_state, check_paths, parse_board, phase_context
from .results import HeroAction, HeroOutcome, Snapshot, probability_json
from .state import GameState

MAX_ACTIONS = 20


class ActionDetails(Strict):
    """The details of one aspect action (Gameplay › Hero Phase › Aspect Actions), the one definition shared by a
    ``hero`` file's ``[[actions]]`` (:class:`ActionModel`) and a ``round`` file's ``[[rounds.turns]]``
    (:class:`.round_scenario.TurnModel`): ``path`` (the spaces entered) and ``move_value`` (Move: at most 9, a move
    value of 6 with a BOOST), ``enemy`` (Fight), ``mission`` (Defy), ``successes`` (the roll, 0..60), ``dice``
    (overrides ATK / DFI / tactic), ``spend_empowered``, ``progress_per_success`` (1..5), ``recover`` (Rest) and
    ``nemesis_to`` (where a defeated nemesis is moved)."""

    path: list[str] = Field(default_factory=list, max_length=9)
    move_value: int | None = Field(None, ge=1, le=9)
    enemy: str = Field("", max_length=60)
    mission: str = Field("", max_length=60)
    successes: int | None = Field(None, ge=0, le=60)
    dice: int | None = Field(None, ge=1, le=HP.MAX_DICE)
    spend_empowered: bool | None = None
    progress_per_success: int = Field(1, ge=1, le=5)
    recover: int | None = Field(None, ge=0, le=60)
    nemesis_to: str | None = Field(None, max_length=60)


class ActionModel(ActionDetails):
    """One ``[[actions]]`` entry: ``do`` and ``hero``, the :class:`ActionDetails`, and an ability's ``effect`` and
    ``amount``. A ``hero`` file has no BOOST, so its Move is bounded by the hero's move value (at most 6)."""

    do: Literal["move", "fight", "defy", "rest", "ability"]
    hero: str = NAME
    path: list[str] = Field(default_factory=list, max_length=6)
    move_value: int | None = Field(None, ge=1, le=6)
    effect: Literal["damage_each_enemy_nearby"] = "damage_each_enemy_nearby"
    amount: int = Field(1, ge=1, le=10)

    @classmethod
    def for_turn(cls, do: str, hero: str, details: ActionDetails, **changes: Any) -> ActionModel:
        """The action a ``round`` turn resolves: its :class:`ActionDetails` with ``changes`` (BOOST, a support card,
        the rolled successes), not re-validated against the ``hero`` file's bounds (a BOOST may take a Move past
        6: the round file has checked its own)."""
        values = {k: getattr(details, k) for k in ActionDetails.model_fields}
        return cls.model_construct(do=do, hero=hero, **{**values, **changes})


class HeroPartModel(Strict):
    """The ``hero`` kind's own keys."""

    actions: list[ActionModel] = Field(min_length=1, max_length=MAX_ACTIONS)
    die: list[int] = Field(default_factory=lambda: list(HP.DEFAULT_DIE.faces), min_length=2, max_length=20)
    then_phase: bool = False


@dataclass(frozen=True)
class HeroScenario:
    """A parsed ``hero`` scenario: the ``board`` (a :class:`.nemesis_scenario.NemesisScenario`), the ``actions``,
    the ``die`` (:class:`.hero_phase.DieTable`) and ``then_phase``."""

    board: NemesisScenario
    actions: tuple[ActionModel, ...]
    die: HP.DieTable
    then_phase: bool

    @property
    def title(self) -> str:
        return self.board.title

    @property
    def world(self):
        return self.board.world


def parse_hero(data: Mapping[str, Any], source: str) -> HeroScenario:
    """Validate a ``kind = "hero"`` document.

    Raises:
        ScenarioError: one line naming ``source`` and the field (the board's errors as for ``nemesis`` files; an
            action's as ``actions[i].<field>``; a die face as ``die[i]``).
    """
    own = {k: data[k] for k in ("actions", "die", "then_phase") if k in data}
    part = validate(HeroPartModel, own, source)
    try:
        die = HP.DieTable(tuple(part.die), "from the file" if "die" in own else HP.DEFAULT_DIE.name)
    except ScenarioError as e:
        raise ScenarioError(e.field.replace("die.faces", "die"), e.problem, e.allowed, source) from None
    board = parse_board({k: v for k, v in data.items() if k not in own}, source, ("actions", "die", "then_phase"))
    check_paths({f"actions[{i}].path": a.path for i, a in enumerate(part.actions)}, board.world, source)
    heroes = {h.name: h for h in board.state.heroes}
    for i, a in enumerate(part.actions):
        if a.successes is not None and a.do in ROLLS and a.hero in heroes:
            dice = a.dice if a.dice is not None else getattr(heroes[a.hero], ROLLS[a.do])
            check_successes(a.successes, dice, die, f"actions[{i}].successes", source)
    return HeroScenario(board, tuple(part.actions), die, part.then_phase)


ROLLS: dict[str, str] = {"fight": "atk", "defy": "dfi", "rest": "tactic"}
"""The actions that roll dice (Gameplay › Hero Phase › Aspect Actions) and the hero value giving their dice."""


def check_successes(successes: int, dice: int, die: HP.DieTable, field: str, source: str) -> None:
    """A file's ``successes`` (the result of one roll of ``dice`` dice of ``die``, before an empowered token) must be
    one that roll can give: 0 .. ``dice`` × the die's best face (Gameplay › Hero Phase › Aspect Actions: roll the
    number of dice matching the value).

    Raises:
        ScenarioError: one line naming ``source``, ``field``, the dice rolled and the most they can give.
    """
    most = dice * max(die.faces)
    if successes > most:
        raise ScenarioError(field, f"{plural(successes, 'success', 'successes')} from a roll of "
                            f"{plural(dice, 'die', 'dice')}, which can give at most {most} "
                            f"(best face {max(die.faces)})", f"0..{most}", source)


def _snapshot(state: GameState) -> Snapshot:
    return Snapshot(state.threat, state.team_up, state.enemies, state.heroes,
                    tuple((m.name, m.progress) for m in state.active_missions()))


def resolve_action(state: GameState, sc: HeroScenario, i: int, a: ActionModel, *, charge: str | None = None,
                   rulings: Rulings | None = None) -> tuple[GameState, list[Step], HeroAction]:
    """One action ``a`` (the file's ``actions[i]``) on ``state``: a Move, a hero ability's effect, or the odds of a
    Fight / Defy / Rest and then its result when ``successes`` is given. Returns ``(state, steps, record)``; the
    ``round`` kind resolves its aspect actions with it too, passing a Rest's ``charge`` (the support card charged,
    ``""`` none: :func:`.hero_phase.rest`; ``None``, a ``hero`` file: support cards not tracked). ``rulings``: the
    readings an ability's "each enemy nearby" consults (``nearby_pieces``; ``None``: the defaults).

    Raises:
        RuleViolation: an action the Aspect Actions forbid (field relative to the action: ``path``, ``enemy``...).
        ScenarioError: a missing or unknown input (field ``actions[i].<field>`` or relative).
    """
    steps: list[Step] = []
    world, die = sc.world, sc.die
    if a.do == "move":
        state, steps = HP.move_hero(state, world, a.hero, a.path, a.move_value)
        end = next(h.space for h in state.heroes if h.name == a.hero)
        return state, steps, HeroAction(a.do, a.hero, f"moved to {end}", end)
    if a.do == "ability":
        hit = tuple(e.id for e in HP.enemies_nearby(state, world, a.hero, rulings))
        state, steps = HP.hit_each_enemy_nearby(state, world, a.hero, a.amount, rulings=rulings)
        what = f"hits each enemy nearby for {a.amount} damage: " + (join_words(hit) if hit else "no enemy is nearby")
        return state, steps, HeroAction(a.do, a.hero, what, ", ".join(hit), hit=hit)
    rest_totals = None
    if a.do == "fight":
        if not a.enemy:
            raise ScenarioError(f"actions[{i}].enemy", "is required for a fight", "an enemy's id", sc.board.source)
        odds = HP.fight_odds(state, a.hero, a.enemy, die=die, dice=a.dice)
        target = a.enemy
        what = f"defeats {a.enemy}"
    elif a.do == "defy":
        if not a.mission:
            raise ScenarioError(f"actions[{i}].mission", "is required for a defy", "a mission's name",
                                sc.board.source)
        odds = HP.defy_odds(state, a.hero, a.mission, die=die, dice=a.dice,
                            progress_per_success=a.progress_per_success)
        target = a.mission
        what = f"completes {a.mission}"
    else:
        dist = HP.rest_distribution(state, a.hero, die=die, dice=a.dice)
        h = next(h for h in state.heroes if h.name == a.hero)
        need = h.damage
        odds = HP.action_odds(max(0, (a.dice if a.dice is not None else h.tactic)), need, die=die,
                              automatic=h.rest_auto, empowered=h.empowered,
                              note=f"{plural(h.tactic if a.dice is None else a.dice, 'tactic die', 'tactic dice')} + {h.rest_auto} automatic")
        target = a.hero
        rest_totals = tuple(dist.items())
        what = f"recovers all {need} damage"
    title = f"Odds that {a.hero} {what} with this action: {float(odds.p):.3f} ({odds.p})"
    if a.do == "rest" and odds.need == 0:        # nothing to recover: the whole Rest can go to charge
        title = f"{a.hero} has no damage to recover: every success of this Rest can charge a support card"
    steps.append(Step(title, S.ASPECT_ACTIONS,
                      f"{odds.note}. Die: {die.name} (faces {join_words(die.faces)} successes)."
                      + ("" if odds.empowered else f" The odds of the same with an empowered token: "
                                                  f"{float(odds.p_with_empowered):.3f}."),
                      {"p": probability_json(odds.p), "need": odds.need, "dice": odds.dice}, (a.hero, target),
                      HP.SECTION))

    def record(result: str, successes: int | None) -> HeroAction:
        return HeroAction(a.do, a.hero, result, target, True, odds.dice, odds.need, odds.p, odds.p_with_empowered,
                          odds.empowered, rest_totals, successes)

    if a.successes is None:
        return state, steps, record("odds only", None)
    if a.do == "fight":
        state, more = HP.fight(state, a.hero, a.enemy, a.successes, spend_empowered=a.spend_empowered,
                               nemesis_to=a.nemesis_to, world=world)
    elif a.do == "defy":
        state, more = HP.defy(state, a.hero, a.mission, a.successes, spend_empowered=a.spend_empowered,
                              progress_per_success=a.progress_per_success)
    else:
        state, more = HP.rest(state, a.hero, a.successes, recover=a.recover, spend_empowered=bool(a.spend_empowered),
                              charge=charge)
    return state, steps + more, record(more[-1].title, a.successes)


@dataclass(frozen=True)
class HeroPhaseState:
    """The board while a ``hero`` scenario's actions are played: the ``game``, how many actions the file
    ``declared``, and the actions ``done`` so far (:class:`.results.HeroAction`, in order)."""

    game: GameState
    declared: int
    done: tuple[HeroAction, ...] = ()


@dataclass(frozen=True)
class HeroContext(Context):
    """What the actions read besides the state: the ``scenario`` (its map, its die and its declared actions) and the
    rulings (shared with the Nemesis Phase that may follow, so that one trace lists the readings consulted)."""

    scenario: HeroScenario | None = None


def action_numbers(state: HeroPhaseState) -> range:
    """The declared actions, numbered from 1 (the items of :data:`HERO_ACTIONS`)."""
    return range(1, state.declared + 1)


def take_action(state: HeroPhaseState, ctx: HeroContext, number: int) -> tuple[HeroPhaseState, tuple[Step, ...]]:
    """Gameplay › Hero Phase › Aspect Actions: the file's action ``number`` (Move, Fight, Defy or Rest; the
    :mod:`.hero_phase` helpers): its exact odds, then its result when the roll's successes are given.

    Raises:
        RuleViolation: an action the rules forbid (naming its rule and this step).
        ScenarioError: an input outside the file format (its field under ``actions[i]``).
    """
    i = number - 1
    sc = ctx.scenario
    a = sc.actions[i]
    try:
        game, steps, rec = resolve_action(state.game, sc, i, a, rulings=ctx.rulings)
    except RuleViolation as v:
        raise RuleViolation(v.reason, v.rule, field=f"actions[{i}]" + (f".{v.rejection.field}" if v.rejection.field
                                                                        else ""),
                            step=f"action {number} ({a.do})", source=sc.board.source) from None
    except ScenarioError as e:
        raise ScenarioError(f"actions[{i}].{e.field}" if not e.field.startswith("actions[") else e.field,
                            e.problem, e.allowed, sc.board.source) from None
    return HeroPhaseState(game, state.declared, state.done + (rec,)), tuple(steps)


HERO_ACTIONS: Sequence = (Each("action {item}", action_numbers, take_action),)
"""A ``hero`` scenario's Hero Phase actions, one frame each, in the file's order (played with
:func:`explorer.kernel.play_until_refused`: a refused action ends them)."""


def play_hero(sc: HeroScenario, rulings: Mapping[str, str] | None = None, seed: int | None = None
              ) -> tuple[list[Step], list[HeroAction], GameState, GameState, GameState, PhaseContext]:
    """``(steps, action records, start, after the actions, end, ctx)``: the actions, then the Nemesis Phases when
    ``then_phase``. An action the rules forbid (a :class:`~explorer.errors.RuleViolation`) ends the actions with a
    "Not allowed" step."""
    ctx = phase_context(sc.board, rulings)
    start = initial_state(sc.board, seed)
    first = HeroPhaseState(start, len(sc.actions))
    frames, refusal = play_until_refused(first, HERO_ACTIONS, HeroContext(rulings=ctx.rulings, scenario=sc))
    steps = list(steps_of(frames))
    played = frames[-1].state if frames else first
    records = list(played.done)
    if refusal is not None:
        a = sc.actions[len(records)]
        why = f"{refusal.reason} [{refusal.section}]"       # the reason and the rule that refuses it
        steps.append(Step(f"Not allowed: {why}", S.ASPECT_ACTIONS, "", {"rejected": True}, (a.hero,), HP.SECTION))
        records.append(HeroAction(a.do, a.hero, f"not allowed: {why}", allowed=False))
    after = state = played.game
    if sc.then_phase and not state.won:
        frames = play_phases(state, ctx, sc.board.phases, start=sc.board.start, stop=sc.board.stop)
        steps += steps_of(frames)
        state = frames[-1].state if frames else state
    return steps, records, start, after, state, ctx


def resolve_hero(sc: HeroScenario, rulings: Mapping[str, str] | None = None, seed: int | None = None) -> Trace:
    """Resolve a ``hero`` scenario into a cited :class:`Trace` whose result is a :class:`.results.HeroOutcome` (module
    docstring: the JSON outcome's keys)."""
    steps, records, start, after, end, ctx = play_hero(sc, rulings, seed)
    trace = Trace(sc.title or "Hero Phase", steps, dict(ctx.rulings.consulted))
    return trace.with_result(HeroOutcome(tuple(records), start.threat, end.threat, _snapshot(after), end.lost,
                                         end.won, sc.then_phase, sc.die.faces, tuple(sorted(end.overrun)),
                                         end.events))


__all__ = ["ActionDetails", "ActionModel", "HeroScenario", "parse_hero", "resolve_hero", "play_hero", "HERO_ACTIONS", "HeroPhaseState",
           "HeroContext", "take_action", "resolve_action"]
