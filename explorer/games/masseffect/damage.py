"""Scenario kind ``damage``: a sequence of Damage events applied to Squadmates and Enemies, optionally an End Phase.

Sections: Playing a Mission › Damaging Enemies (React Tag reported), Step C: Hazard Card › Attacking (Squadmate
Damage), End Phase; Squadmate Sheets › Downed Squadmates, Mission Commander; Additional Rules › Earning XP, Grenade
and Grenade Cache Tokens, Medi-gel Tokens; Additional Enemy Rules › Elites, Stunning Enemies, Biotic Effects; Ending
a Mission. The rules themselves are in :mod:`.units`; this module reads the file and plays the events in order on
the kernel (:data:`DAMAGE_SEQUENCE`: one frame per event, :func:`play_event`, over a frozen :class:`DamageState`).

File shape (after the shared header ``game = "masseffect"``, ``kind = "damage"``, ``title``, ``description``,
``[rulings]``)::

    on_point = "Shepard"        # optional: the On Point Squadmate, for an End Phase (default: the first listed)
    map = "open"                # optional: a built-in map name or an inline [map] table; then every character
                                # has a position, a React Tag Enemy moves, and "activate" events are allowed
    [[squadmates]] ...          # see unit_specs; listed in seating order, clockwise
    [[enemies]] ...
    [[events]]
    type = "enemy_damage"       # target (an Enemy), amount (0..30), by (a Squadmate), source
                                # ("action" default, "core_ability", "grenade", "inferno", "turret", "other"),
                                # react_to (with a map: the hex a React Tag Enemy moves to when several are nearer)
    [[events]]
    type = "activate"           # with a map: a Hazard card Activates enemy, current (the current Squadmate):
                                # it Attacks a potential target, else it Advances (Step C: Hazard Card)
    [[events]]
    type = "enemy_attack"       # enemy Attacks target (a Squadmate) for its Attack Value (Biotic Effect: -2)
    [[events]]
    type = "squadmate_damage"   # target (a Squadmate), amount, by (free text)
    [[events]]
    type = "grenade"            # by, token ("grenade" 2 Damage / "grenade_cache" 3), targets (the Enemies in or
                                # adjacent to the target hex, as the map says)
    [[events]]
    type = "medi_gel"           # by, target, distance (hexes, optional)
    [[events]]
    type = "stun"               # target;  "biotic_effect": target;  "end_phase": no fields

A rule that forbids an event (e.g. Stunning an Elite) is a step "not allowed" and the event changes nothing. Once
Shepard is Downed the Mission has ended and later events are not played.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Annotated, Any, Literal, Union

from pydantic import Field

from explorer.errors import RuleViolation, ScenarioError
from explorer.kernel import Context, Each, play, trace_of
from explorer.scenario import validate
from explorer.schema import Strict
from explorer.text import plural
from explorer.trace import Step, Trace

from . import options as O
from . import sections as S
from .unit_specs import EnemySpec, Header, Name, SquadmateSpec, check_rulings, check_units, names_check, parse_hex
from .results import (Attack, BioticEffect, DamageOutcome, EnemyAt, EnemyReacted, Happening, MediGel, OnPointPassed,
                      Refused, SquadmateAt, Stunned)
from .units import (GRENADE_DAMAGE, Enemy, Roster, Squadmate, damage_happenings, defeat_earns_xp, enemy_damage,
                    enemy_damage_happenings, enemy_end_phase, gain_xp, give_biotic_effect, medi_gel, pass_on_point,
                    restore_shields, squadmate_damage, stun)

MAX_EVENTS = 60


class EnemyDamageEvent(Strict):
    type: Literal["enemy_damage"]
    target: str = Name
    amount: int = Field(ge=0, le=30)
    by: str = Field(default="", max_length=40)
    source: Literal["action", "core_ability", "grenade", "inferno", "turret", "other"] = "action"
    react_to: str | None = Field(default=None, max_length=20)


class ActivateEvent(Strict):
    type: Literal["activate"]
    enemy: str = Name
    current: str = Name


class EnemyAttackEvent(Strict):
    type: Literal["enemy_attack"]
    enemy: str = Name
    target: str = Name


class SquadmateDamageEvent(Strict):
    type: Literal["squadmate_damage"]
    target: str = Name
    amount: int = Field(ge=0, le=30)
    by: str = Field(default="", max_length=40)


class GrenadeEvent(Strict):
    type: Literal["grenade"]
    by: str = Name
    token: Literal["grenade", "grenade_cache"] = "grenade"
    targets: list[str] = Field(default_factory=list, max_length=7)


class MediGelEvent(Strict):
    type: Literal["medi_gel"]
    by: str = Name
    target: str = Name
    distance: int | None = Field(default=None, ge=0, le=50)


class StunEvent(Strict):
    type: Literal["stun"]
    target: str = Name


class BioticEvent(Strict):
    type: Literal["biotic_effect"]
    target: str = Name


class EndPhaseEvent(Strict):
    type: Literal["end_phase"]


Event = Annotated[Union[EnemyDamageEvent, ActivateEvent, EnemyAttackEvent, SquadmateDamageEvent, GrenadeEvent,
                        MediGelEvent,
                        StunEvent, BioticEvent, EndPhaseEvent], Field(discriminator="type")]


class DamageScenario(Header):
    """A validated ``damage`` scenario (see the module docstring for the file shape)."""

    kind: Literal["damage"]
    on_point: str | None = Field(default=None, max_length=40)
    map: str | dict | None = None
    squadmates: list[SquadmateSpec] = Field(default_factory=list, max_length=5)
    enemies: list[EnemySpec] = Field(default_factory=list, max_length=40)
    events: list[Event] = Field(default_factory=list, max_length=MAX_EVENTS)


@dataclass(frozen=True)
class DamageState(Roster):
    """The units a ``damage`` scenario changes (the frozen state of :data:`DAMAGE_SEQUENCE`).

    Attributes:
        squadmates: in seating order, clockwise; ``enemies``: on the board.
        on_point: the On Point Squadmate (End Phase passes it on).
        returned_to_bag, removed: Minions Defeated (back to the Enemy Bag) and Elites Defeated (off the board).
        declared: how many events the file declares (the sequence plays them one after another).
        rejected: the 0-based indices of the events the rules refuse (they change nothing).
        log: what happened to each character so far, in order (:data:`.results.Happening`).
    """

    squadmates: tuple[Squadmate, ...]
    enemies: tuple[Enemy, ...]
    on_point: str | None
    returned_to_bag: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()
    declared: int = 0
    rejected: tuple[int, ...] = ()
    log: tuple[Happening, ...] = ()


@dataclass(frozen=True)
class DamageContext(Context):
    """What the events read and never change: the ruling readings (``rulings``) and the file's ``events`` in order
    (no dice: ``dice`` is ``None``)."""

    events: tuple[Any, ...] = ()
    terrain: Any = None


def parse_damage(data: Mapping[str, Any], source: str) -> DamageScenario:
    """Validate a ``damage`` scenario document (parsed TOML).

    Raises:
        ScenarioError: a field out of bounds or unknown (path and allowed values named), or a cross-field problem (a
            name used twice, an event naming an unknown Squadmate/Enemy, a Squadmate damaging a Squadmate...).
    """
    sc = validate(DamageScenario, data, source)
    check_units(sc.squadmates, sc.enemies, source, need_positions=sc.map is not None)
    check_rulings(sc.rulings, source)
    if sc.map is not None:
        from .activation import _load_map
        from .map import check_placements

        m = _load_map(sc.map, source)
        check_placements(m, [(s.name, parse_hex(s.position)) for s in sc.squadmates], "squadmates", source)
        check_placements(m, [(e.name, parse_hex(e.position)) for e in sc.enemies], "enemies", source)
    sq = [s.name for s in sc.squadmates]
    en = [e.name for e in sc.enemies]
    if sc.on_point is not None:
        names_check(sc.on_point, sq, "on_point", source)
    for i, ev in enumerate(sc.events):
        f = f"events[{i}]"
        if isinstance(ev, EnemyDamageEvent):
            names_check(ev.target, en, f"{f}.target", source)
            if ev.react_to is not None:
                if sc.map is None:
                    raise ScenarioError(f"{f}.react_to", "a React move needs the map", "omit it, or give a map",
                                        source)
                try:
                    parse_hex(ev.react_to)
                except ValueError as e:
                    raise ScenarioError(f"{f}.react_to", str(e), "an axial hex 'q,r'", source) from None
            if ev.by:
                names_check(ev.by, sq, f"{f}.by", source)
            elif ev.source in ("action", "core_ability", "grenade"):
                raise ScenarioError(f"{f}.by", f"Damage from source {ev.source!r} is dealt by a Squadmate", sq, source)
        elif isinstance(ev, ActivateEvent):
            if sc.map is None:
                raise ScenarioError(f"{f}.type", "an Activation needs the map (adjacency, Line of Fire, Advancing)",
                                    "a scenario with map = ...", source)
            names_check(ev.enemy, en, f"{f}.enemy", source)
            names_check(ev.current, sq, f"{f}.current", source)
        elif isinstance(ev, EnemyAttackEvent):
            names_check(ev.enemy, en, f"{f}.enemy", source)
            names_check(ev.target, sq, f"{f}.target", source)
        elif isinstance(ev, SquadmateDamageEvent):
            names_check(ev.target, sq, f"{f}.target", source)
        elif isinstance(ev, GrenadeEvent):
            names_check(ev.by, sq, f"{f}.by", source)
            for j, t in enumerate(ev.targets):
                names_check(t, en, f"{f}.targets[{j}]", source)
        elif isinstance(ev, MediGelEvent):
            names_check(ev.by, sq, f"{f}.by", source)
            names_check(ev.target, sq, f"{f}.target", source)
        elif isinstance(ev, (StunEvent, BioticEvent)):
            names_check(ev.target, en, f"{f}.target", source)
    return sc


# --- one step function per event ---------------------------------------------------------------------------------


def _gone(state: DamageState, name: str) -> tuple[DamageState, tuple[Step, ...]]:
    title = f"{name} is no longer on the board: nothing happens"
    return state.logged(Refused(title)), (Step(title, S.DAMAGING_ENEMIES, marks=(name,),
                                               facts={"enemy": name, "rejected": True}),)


def react_tag(state: DamageState, ctx: DamageContext, name: str, attacker: str,
              react_to: str | None = None) -> tuple[DamageState, tuple[Step, ...]]:
    """Damaging Enemies › The React Tag, on the map: the Enemy moves one hex towards the Squadmate who attacked it,
    into a free adjacent hex nearer that Squadmate (Counting Distances; a hex holding a character cannot be entered,
    Advancing; High -> Low only across an Elevation Change). Several equally near: ``react_to`` if it is one of them,
    else the smallest ``(q, r)`` (the player's choice, documented default). None free (or already adjacent to the
    attacker): ruling ``react_blocked`` (stay, or sidestep to a free hex no further away)."""
    terrain = ctx.terrain
    e, a = state.enemy(name), state.squadmate(attacker)
    start = e.position
    d0 = terrain.distance(start, a.position)
    occupied = {c.position: c.name for c in (*state.squadmates, *state.enemies) if c.position is not None}
    near = {n: terrain.distance(n, a.position) for n in terrain.step_hexes(start)}
    nearer = sorted(n for n, d in near.items() if d is not None and d0 is not None and d < d0)
    free = [n for n in nearer if n not in occupied]
    why = ""
    if free:
        want = parse_hex(react_to) if react_to else None
        if want is not None and want not in free:  # a choice that is not an option is refused, never replaced
            raise RuleViolation(f"react_to {want} is not a free adjacent hex nearer {attacker} (the choices: "
                                f"{', '.join(map(str, free))})", S.REACT_TAG)
        pick = want if want is not None else free[0]
        how = ("your choice" if want is not None else "default: smallest (q, r)") if len(free) > 1 else "the only one"
        detail = (f"Free adjacent hexes nearer {attacker}: {', '.join(map(str, free))} ({how})."
                  + (f" Occupied: {', '.join(f'{n} ({occupied[n]})' for n in nearer if n in occupied)}."
                     if len(free) < len(nearer) else ""))
    else:
        blocked = ("it is already adjacent to " + attacker if d0 == 1 else
                   "no hex nearer " + attacker + " can be entered" if not nearer else
                   "every hex nearer " + attacker + " holds a character ("
                   + ", ".join(f"{n}: {occupied[n]}" for n in nearer) + ")")
        reading = ctx.rulings.reading("react_blocked")
        side = sorted(n for n, d in near.items() if n not in occupied and d is not None and d0 is not None
                      and d <= d0) if reading == "sidestep" else []
        pick = side[0] if side else start
        detail = f"Ruling react_blocked = {reading}" + (
            f": it sidesteps to a free hex no further away (default: smallest (q, r) of {', '.join(map(str, side))})."
            if side else ": it stays.")
        why = blocked
    if pick == start:
        title = f"React Tag: {name}, Damaged but not Defeated, stays at {start}: {why}"
    elif why:
        title = f"React Tag: {name}, Damaged but not Defeated, sidesteps {start} -> {pick}: {why}"
    else:
        title = (f"React Tag: {name}, Damaged but not Defeated, moves one hex toward {attacker} at {a.position}: "
                 f"{start} -> {pick} ({d0} -> {plural(terrain.distance(pick, a.position), 'hex', 'hexes')})")
    moved = replace(e, position=pick)
    state = state.with_enemy(name, moved).logged(EnemyReacted(name, str(start), str(pick), attacker, why))
    steps = [Step(title, S.REACT_TAG, detail, facts={"enemy": name, "from": str(start), "to": str(pick),
                                                     "toward": attacker},
                  marks=tuple(map(str, (name, start, pick))))]
    return state, tuple(steps)


def react_inferno(state, ctx, name: str, start) -> tuple[Any, list[Step]]:
    """Map Features › Inferno Icons after a React Tag move (:func:`react_tag`): the Minion ``name``, moved from
    ``start`` into an Inferno hex, suffers 1 Damage (Elites are unaffected; no move, no Damage). ``state``: a
    :class:`DamageState` or an activation ``Board``. Returns the state and the steps (none when nothing happens)."""
    e = state.enemy(name)
    is_inferno = getattr(ctx.terrain, "is_inferno", None)
    if e is None or e.position == start or e.kind != "minion" or is_inferno is None or not is_inferno(e.position):
        return state, []
    return _react_into_inferno(state, e)


REACT_INFERNO_DAMAGE = 1
"""Damage a Minion suffers when its React Tag move enters an Inferno hex (Map Features › Inferno Icons: a Minion
moving into one suffers 1 Damage; Elites are unaffected)."""


def _react_into_inferno(state, moved: Enemy):
    """Map Features › Inferno Icons: the React Tag moved Minion ``moved`` into an Inferno hex, so it suffers 1 Damage
    (no Squadmate's Action: no XP, no second React move); Defeated, it goes back to the Enemy Bag. ``state``: a
    :class:`DamageState` or an activation ``Board`` (both have ``with_enemy``, ``logged``, ``returned_to_bag``)."""
    res = enemy_damage(moved, REACT_INFERNO_DAMAGE)
    steps = [Step(f"{moved.name} moved into Inferno hex {moved.position}: {REACT_INFERNO_DAMAGE} Damage", S.INFERNO,
                  "A Minion that moves into an Inferno hex suffers 1 Damage, a React Tag move included; Elites are "
                  "unaffected.", facts={"enemy": moved.name, "damage": REACT_INFERNO_DAMAGE},
                  marks=(moved.name, str(moved.position))), *res.steps]
    state = state.with_enemy(moved.name, res.enemy).logged(
        *enemy_damage_happenings(moved, res, REACT_INFERNO_DAMAGE))
    if res.defeated:
        state = (state.returned(moved) if hasattr(state, "returned")     # a Round's board: back in the Enemy Bag
                 else replace(state, returned_to_bag=state.returned_to_bag + (moved.name,)))
    return state, steps


def damaging_enemies(state: DamageState, ctx: DamageContext, target: str, amount: int, by: str,
                     source: str, react_to: str | None = None) -> tuple[DamageState, tuple[Step, ...]]:
    """Damaging Enemies / Elites: one Attack's Damage to one Enemy, then XP for a Defeat (Earning XP); on a map, a
    React Tag Enemy Damaged but not Defeated moves toward its attacker (:func:`react_tag`)."""
    enemy = state.enemy(target)
    if enemy is None:
        return _gone(state, target)
    res = enemy_damage(enemy, amount, by=by)
    steps = list(res.steps)
    state = state.with_enemy(target, res.enemy).logged(*enemy_damage_happenings(enemy, res, amount, by))
    if res.react and by and ctx.terrain is not None:          # on a map the React move itself is the step
        start = state.enemy(target).position
        state, more = react_tag(state, ctx, target, by, react_to)
        state, burn = react_inferno(state, ctx, target, start)
        steps = [s for s in steps if s.rule != S.REACT_TAG] + list(more) + burn
    if res.defeated:
        if enemy.kind == "minion":
            state = replace(state, returned_to_bag=state.returned_to_bag + (target,))
        else:
            state = replace(state, removed=state.removed + (target,))
        if by:
            if defeat_earns_xp(source, ctx.rulings):
                sq, xp_steps = gain_xp(state.squadmate(by), target)
                state = state.with_squadmate(sq)
                steps += xp_steps
            else:
                steps.append(Step(f"No XP for {by}: the Defeat came from a {source.replace('_', ' ')}",
                                  S.EARNING_XP,
                                  f"Ruling xp_outside_actions = {ctx.rulings.reading('xp_outside_actions')}.",
                                  {"squadmate": by, "gained": 0}, (by,)))
    return state, tuple(steps)


def squadmate_damage_step(state: DamageState, target: str, amount: int,
                          by: str) -> tuple[DamageState, tuple[Step, ...]]:
    """Attacking › Squadmate Damage."""
    before = state.squadmate(target)
    sq, steps = squadmate_damage(before, amount, by=by)
    return state.with_squadmate(sq).logged(*damage_happenings(before, sq, amount, by)), tuple(steps)


def attacking(state: DamageState, enemy_name: str, target: str) -> tuple[DamageState, tuple[Step, ...]]:
    """Attacking: the Squadmate suffers Damage equal to the Enemy's Attack Value (Biotic Effects: 2 lower)."""
    enemy = state.enemy(enemy_name)
    if enemy is None:
        return _gone(state, enemy_name)
    av = enemy.effective_attack_value
    note = f" ({enemy.attack_value} - 2 for its Biotic Effect token, minimum 0)" if enemy.biotic_effect else ""
    steps = (Step(f"{enemy_name} Attacks {target}: Attack Value {av}{note}", S.ATTACKING,
                  facts={"enemy": enemy_name, "target": target, "attack_value": av}, marks=(enemy_name, target)),)
    state, more = squadmate_damage_step(state.logged(Attack(enemy_name, target)), target, av, enemy_name)
    return state, steps + more


def grenades(state: DamageState, ctx: DamageContext, by: str, token: str,
             targets: Sequence[str]) -> tuple[DamageState, tuple[Step, ...]]:
    """Grenade and Grenade Cache Tokens: each Enemy in or adjacent to the target hex suffers 2 (Grenade) or 3 (Grenade
    Cache) Damage; the token goes back to the game box."""
    dmg = GRENADE_DAMAGE[token]
    label = token.replace("_", " ").title()
    steps = (Step(f"{by} throws a {label}: {dmg} Damage to each of {', '.join(targets) or 'no Enemy'}", S.GRENADES,
                  "Each Enemy in the target hex or adjacent to it.", {"by": by, "token": token, "damage": dmg,
                                                                      "targets": list(targets)}, (by, *targets)),)
    for t in targets:
        state, more = damaging_enemies(state, ctx, t, dmg, by, "grenade")
        steps += more
    return state, steps


def medi_gel_tokens(state: DamageState, ctx: DamageContext, by: str, target: str,
                    distance: int | None) -> tuple[DamageState, tuple[Step, ...]]:
    """Medi-gel Tokens: up to 2 Hit Points to the user or a Squadmate within two hexes."""
    before = state.squadmate(target)
    sq, steps = medi_gel(state.squadmate(by), before, distance, ctx.rulings)
    state = state.with_squadmate(sq).logged(MediGel(by, target, sq.hit_points - before.hit_points,
                                                    before.hit_points, sq.hit_points,
                                                    before.downed and not sq.downed))
    return state, tuple(steps)


def stunning_enemies(state: DamageState, target: str) -> tuple[DamageState, tuple[Step, ...]]:
    """Stunning Enemies: flip a Minion to its Stunned side."""
    e = state.enemy(target)
    if e is None:
        return _gone(state, target)
    e2, steps = stun(e)
    return state.with_enemy(target, e2).logged(Stunned(target, e.stunned)), tuple(steps)


def biotic_effects(state: DamageState, target: str) -> tuple[DamageState, tuple[Step, ...]]:
    """Biotic Effects: a Biotic Effect token on an Enemy (its Attack Value counts 2 lower)."""
    e = state.enemy(target)
    if e is None:
        return _gone(state, target)
    e2, steps = give_biotic_effect(e)
    happened = BioticEffect(target, e.attack_value, e2.effective_attack_value, e.biotic_effect)
    return state.with_enemy(target, e2).logged(happened), tuple(steps)


def end_phase(state: DamageState, ctx: DamageContext) -> tuple[DamageState, tuple[Step, ...]]:
    """Playing a Mission › End Phase: Shields restored, Enemies' Damage and Biotic Effect tokens removed, Stunned
    Enemies not in Shrouded areas flipped Active, On Point passed to the right skipping Downed Squadmates."""
    steps = [Step("End Phase", S.END_PHASE)]
    sqs = []
    for s in state.squadmates:
        new, more = restore_shields(s)
        sqs.append(new)
        steps += more
    ens = []
    for e in state.enemies:
        new, more = enemy_end_phase(e)
        ens.append(new)
        steps += more
    state = replace(state, squadmates=tuple(sqs), enemies=tuple(ens))
    if state.on_point is not None and state.squadmates:
        nxt, more = pass_on_point(state.squadmates, state.on_point, ctx.rulings)
        state = replace(state, on_point=nxt).logged(OnPointPassed(state.on_point, nxt, len(state.squadmates) == 1))
        steps += more
    return state, tuple(steps)


def enemy_activation(state: DamageState, ctx: DamageContext, enemy: str,
                     current: str) -> tuple[DamageState, tuple[Step, ...]]:
    """Step C: Hazard Card, one Enemy Activated with ``current`` the current Squadmate: it Attacks a potential
    target (adjacent, or in Line of Fire with the Ranged Tag; fewest Hit Points) or else Advances
    (:func:`.activation.activate_enemy`, the same rules as the ``activation`` kind; documented default choices)."""
    from .activation import Board, Choices, activate_enemy

    if state.enemy(enemy) is None:
        return _gone(state, enemy)
    board = Board(state.squadmates, state.enemies, current, log=state.log)
    board, steps = activate_enemy(ctx.terrain, board, enemy, Choices(), ctx.rulings)
    return replace(state, squadmates=board.squadmates, enemies=board.enemies, log=board.log), tuple(steps)


def _event(state: DamageState, ctx: DamageContext, ev) -> tuple[DamageState, tuple[Step, ...]]:
    if isinstance(ev, EnemyDamageEvent):
        return damaging_enemies(state, ctx, ev.target, ev.amount, ev.by, ev.source, ev.react_to)
    if isinstance(ev, ActivateEvent):
        return enemy_activation(state, ctx, ev.enemy, ev.current)
    if isinstance(ev, EnemyAttackEvent):
        return attacking(state, ev.enemy, ev.target)
    if isinstance(ev, SquadmateDamageEvent):
        return squadmate_damage_step(state, ev.target, ev.amount, ev.by)
    if isinstance(ev, GrenadeEvent):
        return grenades(state, ctx, ev.by, ev.token, ev.targets)
    if isinstance(ev, MediGelEvent):
        return medi_gel_tokens(state, ctx, ev.by, ev.target, ev.distance)
    if isinstance(ev, StunEvent):
        return stunning_enemies(state, ev.target)
    if isinstance(ev, BioticEvent):
        return biotic_effects(state, ev.target)
    return end_phase(state, ctx)


def play_event(state: DamageState, ctx: DamageContext, n: int) -> tuple[DamageState, tuple[Step, ...]]:
    """Event ``n`` (from 1) of the file, by the rule of its type; a refused event is a "Not allowed" step and changes
    nothing; once Shepard is Downed the Mission has ended (Ending a Mission) and the later events are not played.
    Every step is filed under the section ``Event n: <type>``."""
    ev = ctx.events[n - 1]
    section = f"Event {n}: {ev.type.replace('_', ' ')}"
    try:
        state, steps = _event(state, ctx, ev)
    except RuleViolation as v:
        title = f"Not allowed: {v}"
        state = replace(state, rejected=state.rejected + (n - 1,)).logged(Refused(title))
        steps = (Step(title, S.ref(v.section.split(";")[0]) if v.section else S.DAMAGING_ENEMIES,
                      facts={"rejected": True}),)
    if state.failed and n < len(ctx.events):
        steps += (Step(f"The Mission has ended: {plural(len(ctx.events) - n, 'later event')} not played",
                       S.ENDING_A_MISSION, facts={"mission_failed": True}),)
    return state, tuple(st.in_section(section) for st in steps)


def event_numbers(state: DamageState) -> range:
    """The events to play: 1 .. the number the file declares."""
    return range(1, state.declared + 1)


def mission_ended(state: DamageState) -> bool:
    """Shepard is Downed: no later event is played (Mission Commander; Ending a Mission)."""
    return state.failed


DAMAGE_SEQUENCE = (Each("Event {item}", event_numbers, play_event, stop=mission_ended),)
"""The ``damage`` kind as the kernel plays it: the file's events one after another, one frame each, until Shepard is
Downed."""


def damage_outcome(state: DamageState, on_map: bool = False) -> DamageOutcome:
    """The typed outcome of a played ``damage`` scenario (``on_map``: the scenario has a map, so every character's
    hex is part of it)."""
    return DamageOutcome(
        tuple(SquadmateAt(s.name, s.shield_points, s.hit_points, s.downed, xp=s.xp,
                          hex=str(s.position) if on_map else None) for s in state.squadmates),
        tuple(EnemyAt(e.name, e.damage, e.stunned, exhausted=e.exhausted, biotic_effect=e.biotic_effect,
                      hex=str(e.position) if on_map else None,
                      to_defeat=e.current_shield_value - e.damage + sum(e.resilience[e.exhausted + 1:]))
              for e in state.enemies),
        state.returned_to_bag, state.removed, state.on_point, state.failed, state.rejected, state.log)


def damage_start(scenario: DamageScenario, rulings: Mapping[str, str] | None = None
                 ) -> tuple[DamageState, DamageContext]:
    """The initial state and the context of a ``damage`` scenario (rulings: the file's, then ``rulings``)."""
    r = O.rulings({**scenario.rulings, **(rulings or {})})
    sqs, ens = check_units(scenario.squadmates, scenario.enemies, None)
    on_point = scenario.on_point or (sqs[0].name if sqs else None)
    terrain = None
    if scenario.map is not None:
        from .activation import MapTerrain, _load_map

        terrain = MapTerrain(_load_map(scenario.map, None), r)
    return (DamageState(sqs, ens, on_point, declared=len(scenario.events)),
            DamageContext(r, None, tuple(scenario.events), terrain))


def resolve_damage(scenario: DamageScenario, rulings: Mapping[str, str] | None = None,
                   seed: int | None = None) -> Trace:
    """Play the scenario's events in order (:data:`DAMAGE_SEQUENCE`). ``seed`` is unused (no dice).

    Returns:
        a Trace whose typed ``result`` is a :class:`.results.DamageOutcome`; its JSON ``outcome`` is
        ``{"squadmates": {name: {shield_points, hit_points, downed, xp}}, "enemies": {name: {damage, exhausted,
        stunned, biotic_effect, to_defeat}} (on the board; ``to_defeat``: Damage still needed at least, one level per
        Attack for an Elite), "returned_to_bag": [...], "removed": [...], "on_point", "mission_failed", "rejected":
        [event indices]}``.
    """
    state, ctx = damage_start(scenario, rulings)
    frames = play(state, DAMAGE_SEQUENCE, ctx)
    final = frames[-1].state if frames else state
    trace = trace_of(scenario.title or "Damage", frames, ctx.rulings.consulted)
    return trace.with_result(damage_outcome(final, ctx.terrain is not None))
