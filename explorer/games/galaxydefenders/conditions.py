"""Conditions that outlast an attack: Poison, Mark and temporary Critical tokens through the Refresh phase.

Sections: 6.1 Refresh Phase (Mark and Poison flip or vanish, simultaneous with the other Refresh effects), 9.3.2
Poisoned (one wound per Refresh; a second poison keeps the greater token and deals 1 wound at once), 8.3 Mark
Locking System (Mark 2 flips a Mark 1 up), 8.2.2 Duration (temporary Critical tokens end at the next Refresh
phase), 11.9.1 Paralyzed and 10.4.1 NPC Body Condition (the Paralyzed token is removed in the Refresh phase), 9.5
Power Suit and 9.4 Energy Batteries (a deployed suit pays one Battery each Refresh phase and leaves play when it
cannot; powers and items recharge it).

Scenario kind ``conditions`` (TOML)::

    game = "galaxydefenders"
    kind = "conditions"
    title = "..."
    [target]                          # same fields as a combat target (name, kind, health, wounds, poison, mark,
    name = "Marine"                   #   criticals)
    kind = "agent"
    health = 8
    poison = 1
    [power_suit]                      # optional (9.5): a Power Suit in play
    batteries = 1
    equipped_by = "Marine"
    [[events]]                        # in order; up to 20
    kind = "poison"                   # poison (x = 1/2) | mark (x = 1/2) | refresh | recharge (x Batteries)
    x = 2
    [[events]]
    kind = "refresh"
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Annotated, Literal

from pydantic import Field

from explorer.scenario import validate
from explorer.schema import MAX_TITLE, ScenarioHeader, Strict
from explorer.trace import Step, Trace

from . import sections as S
from .combat import (AttackModel, HitRoll, TargetModel, TargetState, apply_poison, place_mark, suffer_wounds,
                     with_source)
from .options import rulings as make_rulings


class EventModel(Strict):
    kind: Literal["poison", "mark", "refresh", "recharge"]
    x: int = Field(1, ge=1, le=2)


class PowerSuitModel(Strict):
    """A Power Suit in play (9.5): its energy ``batteries`` and the agent who wears it (``None``: unequipped)."""

    name: str = Field("Power Suit", min_length=1, max_length=40)
    batteries: int = Field(ge=0, le=20)
    equipped_by: str | None = Field(None, min_length=1, max_length=40)


class ConditionsScenario(ScenarioHeader):
    """A validated ``conditions`` scenario."""

    game: Literal["galaxydefenders"] = "galaxydefenders"
    kind: Literal["conditions"] = "conditions"
    title: str = Field("Conditions", max_length=MAX_TITLE)
    seed: int | None = Field(None, ge=0, le=2**63 - 1)
    rulings: dict[str, Annotated[str, Field(max_length=40)]] = Field(default_factory=dict, max_length=20)
    target: TargetModel
    power_suit: PowerSuitModel | None = None
    events: list[EventModel] = Field(min_length=1, max_length=20)


def parse_conditions(data: dict, source: str) -> ConditionsScenario:
    """Validate a ``conditions`` scenario.

    Raises:
        ScenarioError: a field out of bounds or unknown, an unknown ruling.
    """
    sc = validate(ConditionsScenario, data, source)
    with with_source(source):
        make_rulings(sc.rulings)
    return sc


def refresh(target: TargetState, section: str = "") -> tuple[TargetState, list[Step]]:
    """The Refresh phase effects on one target, simultaneous (6.1): Poison deals 1 wound then flips 2 -> 1 or goes
    (9.3.2); Mark flips 2 -> 1 or goes (8.3); temporary Critical tokens (Paralyzed, shields removed, no Bolt) are
    discarded (8.2.2)."""
    steps: list[Step] = []
    t = target
    if target.poison:
        t, st = suffer_wounds(t, 1, f"Poison {target.poison}", S.POISONED, section)
        steps += st
        t = replace(t, poison=target.poison - 1)
        steps.append(Step(f"Poison {target.poison} " + ("flips to Poison 1" if target.poison == 2 else "is removed"),
                          S.REFRESH_PHASE, "", {"poison": t.poison}, (t.name,), section))
    if target.mark:
        t = replace(t, mark=target.mark - 1)
        steps.append(Step(f"Mark {target.mark} " + ("flips to Mark 1" if target.mark == 2 else "is removed"),
                          S.MARK, "", {"mark": t.mark}, (t.name,), section))
    temp = [(e, x) for e, x in t.criticals if e in ("paralyzed", "shields_removed", "no_bolt")]
    if temp:
        t = replace(t, criticals=tuple(c for c in t.criticals if c not in temp))
        steps.append(Step("Temporary Critical tokens discarded: " + ", ".join(e for e, _ in temp),
                          S.CRITICAL_DURATION, "A blue token lasts until the next Refresh phase.",
                          {"discarded": [e for e, _ in temp]}, (t.name,), section))
    if not steps:
        steps.append(Step(f"Nothing on {t.name} changes", S.REFRESH_PHASE, "", {}, (t.name,), section))
    return t, steps


def power_suit_energy(suit: PowerSuitModel | None, section: str = "") -> tuple[PowerSuitModel | None, list[Step]]:
    """The Power Suit energy step of the Refresh phase (6.1, 9.5): the suit pays one Battery, equipped or not; with
    no Battery to pay, it leaves play (its agent unequips at no cost and stays in its hex). ``None``: no suit."""
    if suit is None:
        return None, []
    if suit.batteries >= 1:
        left = suit.batteries - 1
        return suit.model_copy(update={"batteries": left}), [Step(
            f"{suit.name} pays 1 Battery: {suit.batteries} -> {left}", S.POWER_SUIT,
            "A deployed Power Suit uses one energy Battery each Refresh phase, equipped or not." + (
                " At 0 it can still be recharged before the next Refresh phase." if left == 0 else ""),
            {"batteries": left}, (suit.name,), section)]
    who = f"; {suit.equipped_by} unequips it at no cost" if suit.equipped_by else ""
    return None, [Step(f"{suit.name} has no Battery to pay: it leaves play{who}", S.POWER_SUIT,
                       "Its figure and profile sheet go to the Warehouse.", {"removed": True}, (suit.name,), section)]


def recharge(suit: PowerSuitModel | None, n: int, section: str = "") -> tuple[PowerSuitModel | None, list[Step]]:
    """Batteries added to a Power Suit in play by powers or items (9.4, 9.5)."""
    if suit is None:
        return None, [Step("No Power Suit in play to recharge", S.ENERGY_BATTERIES, "", {}, (), section)]
    return suit.model_copy(update={"batteries": suit.batteries + n}), [Step(
        f"{suit.name} is recharged: {suit.batteries} -> {suit.batteries + n} Batteries", S.ENERGY_BATTERIES,
        "Powers and items replenish a suit's energy while it is in play.", {"batteries": suit.batteries + n},
        (suit.name,), section)]


def resolve_conditions(scenario: ConditionsScenario, rulings: Mapping[str, str] | None = None,
                       seed: int | None = None) -> Trace:
    """Apply the events in order.

    Returns:
        A :class:`Trace`; ``outcome`` = ``{"wounds_suffered": int, "after": [{"event", "poison", "mark", "wounds"}],
        "final": {"wounds", "poison", "mark", "status", "criticals"}}``.
    """
    r = make_rulings({**scenario.rulings, **dict(rulings or {})})
    suit = scenario.power_suit
    t = TargetState.from_model(scenario.target)
    start = t.wounds
    trace = Trace(scenario.title)
    after = []
    refreshes = 0
    for i, ev in enumerate(scenario.events):
        if ev.kind == "refresh":
            refreshes += 1
            sec = f"{i + 1}. Refresh phase {refreshes}"
            t, steps = refresh(t, sec)
            suit, st = power_suit_energy(suit, sec)
            steps += st
        elif ev.kind == "recharge":
            sec = f"{i + 1}. Recharge {ev.x} Batter{'y' if ev.x == 1 else 'ies'}"
            suit, steps = recharge(suit, ev.x, sec)
        elif ev.kind == "poison":
            sec = f"{i + 1}. Poison {ev.x} effect"
            t, steps = apply_poison(t, ev.x, True, r, sec)
        else:
            sec = f"{i + 1}. Mark {ev.x} effect"
            attack = AttackModel(target=t.name, fixed_hits=0, effects=[{"kind": "mark", "x": ev.x}])
            t, steps = place_mark(t, attack, HitRoll(0), r)
            steps = [s.in_section(sec) for s in steps]
        trace.steps += steps
        after.append({"event": f"{ev.kind} {ev.x}" if ev.kind != "refresh" else "refresh", "poison": t.poison,
                      "mark": t.mark, "wounds": t.wounds})
        if scenario.power_suit is not None:
            after[-1]["batteries"] = suit.batteries if suit else None
    trace.rulings = dict(r.consulted)
    trace.outcome = {"wounds_suffered": t.wounds - start, "after": after,
                     "final": {"wounds": t.wounds, "poison": t.poison, "mark": t.mark, "status": t.status(),
                               "criticals": [list(c) for c in t.criticals]}}
    if scenario.power_suit is not None:
        trace.outcome["power_suit"] = {"in_play": suit is not None, "batteries": suit.batteries if suit else 0,
                                       "equipped_by": suit.equipped_by if suit else None}
    return trace
