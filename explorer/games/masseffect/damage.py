"""Scenario kind ``damage``: a sequence of Damage events applied to Squadmates and Enemies, optionally an End Phase.

Sections: Playing a Mission › Damaging Enemies (React Tag reported), Step C: Hazard Card › Attacking (Squadmate
Damage), End Phase; Squadmate Sheets › Downed Squadmates, Mission Commander; Additional Rules › Earning XP, Grenade
and Grenade Cache Tokens, Medi-gel Tokens; Additional Enemy Rules › Elites, Stunning Enemies, Biotic Effects; Ending
a Mission. The rules themselves are in :mod:`.units`; this module reads the file and plays the events in order.

File shape (after the shared header ``game = "masseffect"``, ``kind = "damage"``, ``title``, ``description``,
``[rulings]``)::

    on_point = "Shepard"        # optional: the On Point Squadmate, for an End Phase (default: the first listed)
    [[squadmates]] ...          # see unit_specs; listed in seating order, clockwise
    [[enemies]] ...
    [[events]]
    type = "enemy_damage"       # target (an Enemy), amount (0..30), by (a Squadmate), source
                                # ("action" default, "core_ability", "grenade", "inferno", "turret", "other")
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

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Annotated, Any, Literal, Union

from pydantic import Field

from explorer.errors import RuleViolation, ScenarioError
from explorer.options import Rulings
from explorer.scenario import validate
from explorer.text import plural
from explorer.trace import Step, Trace

from . import options as O
from . import sections as S
from .unit_specs import (EnemySpec, Header, Name, SquadmateSpec, Strict, check_rulings, check_units,
                         names_check)
from .units import (GRENADE_DAMAGE, Enemy, Squadmate, defeat_earns_xp, enemy_damage, enemy_end_phase, gain_xp,
                    give_biotic_effect, medi_gel, mission_failed, pass_on_point, restore_shields, squadmate_damage,
                    stun)

MAX_EVENTS = 60


class EnemyDamageEvent(Strict):
    type: Literal["enemy_damage"]
    target: str = Name
    amount: int = Field(ge=0, le=30)
    by: str = Field(default="", max_length=40)
    source: Literal["action", "core_ability", "grenade", "inferno", "turret", "other"] = "action"


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


Event = Annotated[Union[EnemyDamageEvent, EnemyAttackEvent, SquadmateDamageEvent, GrenadeEvent, MediGelEvent,
                        StunEvent, BioticEvent, EndPhaseEvent], Field(discriminator="type")]


class DamageScenario(Header):
    """A validated ``damage`` scenario (see the module docstring for the file shape)."""

    kind: Literal["damage"]
    on_point: str | None = Field(default=None, max_length=40)
    squadmates: list[SquadmateSpec] = Field(default_factory=list, max_length=5)
    enemies: list[EnemySpec] = Field(default_factory=list, max_length=40)
    events: list[Event] = Field(default_factory=list, max_length=MAX_EVENTS)


@dataclass(frozen=True)
class DamageState:
    """The units a ``damage`` scenario changes: Squadmates (seating order), Enemies on the board, the Enemy Bag's
    returned Minions, Elites removed, the On Point Squadmate."""

    squadmates: tuple[Squadmate, ...]
    enemies: tuple[Enemy, ...]
    on_point: str | None
    returned_to_bag: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()

    def squadmate(self, name: str) -> Squadmate:
        return next(s for s in self.squadmates if s.name == name)

    def enemy(self, name: str) -> Enemy | None:
        return next((e for e in self.enemies if e.name == name), None)

    def with_squadmate(self, sq: Squadmate) -> DamageState:
        return replace(self, squadmates=tuple(sq if s.name == sq.name else s for s in self.squadmates))

    def with_enemy(self, name: str, enemy: Enemy | None) -> DamageState:
        if enemy is None:
            return replace(self, enemies=tuple(e for e in self.enemies if e.name != name))
        return replace(self, enemies=tuple(enemy if e.name == name else e for e in self.enemies))


def parse_damage(data: Mapping[str, Any], source: str) -> DamageScenario:
    """Validate a ``damage`` scenario document (parsed TOML).

    Raises:
        ScenarioError: a field out of bounds or unknown (path and allowed values named), or a cross-field problem (a
            name used twice, an event naming an unknown Squadmate/Enemy, a Squadmate damaging a Squadmate...).
    """
    sc = validate(DamageScenario, data, source)
    check_units(sc.squadmates, sc.enemies, source)
    check_rulings(sc.rulings, source)
    sq = [s.name for s in sc.squadmates]
    en = [e.name for e in sc.enemies]
    if sc.on_point is not None:
        names_check(sc.on_point, sq, "on_point", source)
    for i, ev in enumerate(sc.events):
        f = f"events[{i}]"
        if isinstance(ev, EnemyDamageEvent):
            names_check(ev.target, en, f"{f}.target", source)
            if ev.by:
                names_check(ev.by, sq, f"{f}.by", source)
            elif ev.source in ("action", "core_ability", "grenade"):
                raise ScenarioError(f"{f}.by", f"Damage from source {ev.source!r} is dealt by a Squadmate", sq, source)
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


# --- one function per event ----------------------------------------------------------------------------------------


def _gone(name: str) -> list[Step]:
    return [Step(f"{name} is no longer on the board: nothing happens", S.DAMAGING_ENEMIES, marks=(name,),
                 facts={"enemy": name, "rejected": True})]


def apply_enemy_damage(state: DamageState, target: str, amount: int, by: str, source: str,
                       rulings: Rulings) -> tuple[DamageState, list[Step]]:
    """Damaging Enemies / Elites: one Attack's Damage to one Enemy, then XP for a Defeat (Earning XP)."""
    enemy = state.enemy(target)
    if enemy is None:
        return state, _gone(target)
    res = enemy_damage(enemy, amount, by=by)
    steps = list(res.steps)
    state = state.with_enemy(target, res.enemy)
    if res.defeated:
        if enemy.kind == "minion":
            state = replace(state, returned_to_bag=state.returned_to_bag + (target,))
        else:
            state = replace(state, removed=state.removed + (target,))
        if by:
            if defeat_earns_xp(source, rulings):
                sq, xp_steps = gain_xp(state.squadmate(by), target)
                state = state.with_squadmate(sq)
                steps += xp_steps
            else:
                steps.append(Step(f"No XP for {by}: the Defeat came from a {source.replace('_', ' ')}",
                                  S.EARNING_XP, f"Ruling xp_outside_actions = {rulings.reading('xp_outside_actions')}.",
                                  {"squadmate": by, "gained": 0}, (by,)))
    return state, steps


def apply_squadmate_damage(state: DamageState, target: str, amount: int, by: str) -> tuple[DamageState, list[Step]]:
    """Attacking › Squadmate Damage."""
    sq, steps = squadmate_damage(state.squadmate(target), amount, by=by)
    return state.with_squadmate(sq), steps


def apply_enemy_attack(state: DamageState, enemy_name: str, target: str) -> tuple[DamageState, list[Step]]:
    """Attacking: the Squadmate suffers Damage equal to the Enemy's Attack Value (Biotic Effects: 2 lower)."""
    enemy = state.enemy(enemy_name)
    if enemy is None:
        return state, _gone(enemy_name)
    av = enemy.effective_attack_value
    note = f" ({enemy.attack_value} - 2 for its Biotic Effect token, minimum 0)" if enemy.biotic_effect else ""
    steps = [Step(f"{enemy_name} Attacks {target}: Attack Value {av}{note}", S.ATTACKING,
                  facts={"enemy": enemy_name, "target": target, "attack_value": av}, marks=(enemy_name, target))]
    state, more = apply_squadmate_damage(state, target, av, enemy_name)
    return state, steps + more


def apply_grenade(state: DamageState, by: str, token: str, targets: list[str],
                  rulings: Rulings) -> tuple[DamageState, list[Step]]:
    """Grenade and Grenade Cache Tokens: each Enemy in or adjacent to the target hex suffers 2 (Grenade) or 3 (Grenade
    Cache) Damage; the token goes back to the game box."""
    dmg = GRENADE_DAMAGE[token]
    label = token.replace("_", " ").title()
    steps = [Step(f"{by} throws a {label}: {dmg} Damage to each of {', '.join(targets) or 'no Enemy'}", S.GRENADES,
                  "Each Enemy in the target hex or adjacent to it.", {"by": by, "token": token, "damage": dmg,
                                                                      "targets": list(targets)}, (by, *targets))]
    for t in targets:
        state, more = apply_enemy_damage(state, t, dmg, by, "grenade", rulings)
        steps += more
    return state, steps


def apply_end_phase(state: DamageState, rulings: Rulings) -> tuple[DamageState, list[Step]]:
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
        nxt, more = pass_on_point(state.squadmates, state.on_point, rulings)
        state = replace(state, on_point=nxt)
        steps += more
    return state, steps


def resolve_damage(scenario: DamageScenario, rulings: Mapping[str, str] | None = None,
                   seed: int | None = None) -> Trace:
    """Play the scenario's events in order (module docstring). ``seed`` is unused (no dice).

    Returns:
        a Trace whose ``outcome`` is ``{"squadmates": {name: {shield_points, hit_points, downed, xp}},
        "enemies": {name: {damage, exhausted, stunned, biotic_effect, to_defeat}} (on the board; ``to_defeat``: Damage
        still needed at least, one level per Attack for an Elite), "returned_to_bag": [...],
        "removed": [...], "on_point", "mission_failed", "rejected": [event indices]}``.
    """
    r = O.rulings({**scenario.rulings, **(rulings or {})})
    sqs, ens = check_units(scenario.squadmates, scenario.enemies, None)
    on_point = scenario.on_point or (sqs[0].name if sqs else None)
    state = DamageState(sqs, ens, on_point)
    trace = Trace(scenario.title or "Damage")
    rejected = []
    for i, ev in enumerate(scenario.events):
        section = f"Event {i + 1}: {ev.type.replace('_', ' ')}"
        try:
            if isinstance(ev, EnemyDamageEvent):
                state, steps = apply_enemy_damage(state, ev.target, ev.amount, ev.by, ev.source, r)
            elif isinstance(ev, EnemyAttackEvent):
                state, steps = apply_enemy_attack(state, ev.enemy, ev.target)
            elif isinstance(ev, SquadmateDamageEvent):
                state, steps = apply_squadmate_damage(state, ev.target, ev.amount, ev.by)
            elif isinstance(ev, GrenadeEvent):
                state, steps = apply_grenade(state, ev.by, ev.token, ev.targets, r)
            elif isinstance(ev, MediGelEvent):
                sq, steps = medi_gel(state.squadmate(ev.by), state.squadmate(ev.target), ev.distance, r)
                state = state.with_squadmate(sq)
            elif isinstance(ev, StunEvent):
                e = state.enemy(ev.target)
                steps = _gone(ev.target) if e is None else None
                if e is not None:
                    e2, steps = stun(e)
                    state = state.with_enemy(ev.target, e2)
            elif isinstance(ev, BioticEvent):
                e = state.enemy(ev.target)
                steps = _gone(ev.target) if e is None else None
                if e is not None:
                    e2, steps = give_biotic_effect(e)
                    state = state.with_enemy(ev.target, e2)
            else:
                state, steps = apply_end_phase(state, r)
        except RuleViolation as v:
            rejected.append(i)
            steps = [Step(f"Not allowed: {v}", S.ref(v.section.split(";")[0]) if v.section else S.DAMAGING_ENEMIES,
                          facts={"rejected": True})]
        trace.steps.extend(st.in_section(section) for st in steps)
        if mission_failed(state.squadmates):
            if i + 1 < len(scenario.events):
                trace.add(f"The Mission has ended: {plural(len(scenario.events) - i - 1, 'later event')} not played",
                          S.ENDING_A_MISSION, section=section, mission_failed=True)
            break
    trace.rulings = dict(r.consulted)
    trace.outcome = {
        "squadmates": {s.name: {"shield_points": s.shield_points, "hit_points": s.hit_points, "downed": s.downed,
                                "xp": s.xp} for s in state.squadmates},
        "enemies": {e.name: {"damage": e.damage, "exhausted": e.exhausted, "stunned": e.stunned,
                             "biotic_effect": e.biotic_effect,
                             "to_defeat": e.current_shield_value - e.damage + sum(e.resilience[e.exhausted + 1:])}
                    for e in state.enemies},
        "returned_to_bag": list(state.returned_to_bag),
        "removed": list(state.removed),
        "on_point": state.on_point,
        "mission_failed": mission_failed(state.squadmates),
        "rejected": rejected,
    }
    return trace
