"""Conditions that outlast an attack: Poison, Mark and temporary Critical tokens through the Refresh phase.

Sections: 6.1 Refresh Phase (Mark and Poison flip or vanish, simultaneous with the other Refresh effects), 9.3.2
Poisoned (one wound per Refresh; a second poison keeps the greater token and deals 1 wound at once), 8.3 Mark
Locking System (Mark 2 flips a Mark 1 up), 8.2.2 Duration (temporary Critical tokens end at the next Refresh
phase), 11.9.1 Paralyzed and 10.4.1 NPC Body Condition (the Paralyzed token is removed in the Refresh phase), 9.5
Power Suit and 9.4 Energy Batteries (a deployed suit pays one Battery each Refresh phase and leaves play when it
cannot; powers and items recharge it).

The events are a kernel sequence (:data:`CONDITIONS_SEQUENCE`: one step per event) over the frozen
:class:`ConditionsState`; the result is a typed :class:`ConditionsOutcome`.

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
from dataclasses import dataclass, replace
from typing import Annotated, Literal

from pydantic import Field

from explorer.scenario import validate
from explorer.schema import MAX_TITLE, ScenarioHeader, Strict
from explorer.kernel import Context, Each, Outcome, play, trace_of
from explorer.trace import Step, Trace

from . import sections as S
from .combat import (AttackModel, HitRoll, TargetModel, TargetState, apply_poison, place_mark, suffer_wounds,
                     with_source)
from .options import ALL_OPTIONS, rulings as make_rulings


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
    rulings: dict[str, Annotated[str, Field(max_length=40)]] = Field(default_factory=dict, max_length=len(ALL_OPTIONS))
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


def gone(target: TargetState, what: str, section: str = "") -> tuple[TargetState, list[Step]]:
    """A dead NPC, drone or alien is off the map: no token of it flips, nothing more affects it (10.4 NPC Health
    Status: the figure is removed and its card discarded; 11.9: an alien's tokens go when it dies). Its Poison and
    Mark tokens are discarded with it."""
    t = replace(target, poison=0, mark=0)
    rule = S.NPC_HEALTH if target.kind == "npc" else S.ALIEN_BODY_CONDITIONS if target.kind in (
        "alien", "master_alien") else S.HEALTH_POINTS
    return t, [Step(f"{target.name} is dead: {what} does not affect it", rule,
                    "Its figure left the map and its tokens were discarded with it.", {"dead": True},
                    (target.name,), section)]


def refresh(target: TargetState, section: str = "") -> tuple[TargetState, list[Step]]:
    """The Refresh phase effects on one target, simultaneous (6.1): Poison deals 1 wound then flips 2 -> 1 or goes
    (9.3.2); Mark flips 2 -> 1 or goes (8.3); temporary Critical tokens (Paralyzed, shields removed, no Bolt) are
    discarded (8.2.2)."""
    steps: list[Step] = []
    t = target
    if target.kind != "agent" and target.down:
        return gone(target, "the Refresh phase", section)
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


@dataclass(frozen=True)
class PowerSuit:
    """A Power Suit in play between events (9.5): its ``name``, energy ``batteries`` and ``equipped_by`` (the agent
    wearing it, or ``None``)."""

    name: str
    batteries: int
    equipped_by: str | None = None


def power_suit_energy(suit: PowerSuit | None, section: str = "") -> tuple[PowerSuit | None, list[Step]]:
    """The Power Suit energy step of the Refresh phase (6.1, 9.5): the suit pays one Battery, equipped or not; with
    no Battery to pay, it leaves play (its agent unequips at no cost and stays in its hex). ``None``: no suit."""
    if suit is None:
        return None, []
    if suit.batteries >= 1:
        left = suit.batteries - 1
        return replace(suit, batteries=left), [Step(
            f"{suit.name} pays 1 Battery: {suit.batteries} -> {left}", S.POWER_SUIT,
            "A deployed Power Suit uses one energy Battery each Refresh phase, equipped or not." + (
                " At 0 it can still be recharged before the next Refresh phase." if left == 0 else ""),
            {"batteries": left}, (suit.name,), section)]
    who = f"; {suit.equipped_by} unequips it at no cost" if suit.equipped_by else ""
    return None, [Step(f"{suit.name} has no Battery to pay: it leaves play{who}", S.POWER_SUIT,
                       "Its figure and profile sheet go to the Warehouse.", {"removed": True}, (suit.name,), section)]


def recharge(suit: PowerSuit | None, n: int, section: str = "") -> tuple[PowerSuit | None, list[Step]]:
    """Batteries added to a Power Suit in play by powers or items (9.4, 9.5)."""
    if suit is None:
        return None, [Step("No Power Suit in play to recharge", S.ENERGY_BATTERIES, "", {}, (), section)]
    return replace(suit, batteries=suit.batteries + n), [Step(
        f"{suit.name} is recharged: {suit.batteries} -> {suit.batteries + n} Batteries", S.ENERGY_BATTERIES,
        "Powers and items replenish a suit's energy while it is in play.", {"batteries": suit.batteries + n},
        (suit.name,), section)]


# ------------------------------------------------------------------------------------------------ the sequence

@dataclass(frozen=True)
class AfterEvent:
    """The target (and the Power Suit) right after one event: the ``event`` ("poison 2", "refresh"), the Poison and
    Mark tokens, the wounds, and the suit's Batteries (``None``: it left play; ``has_suit`` is ``False`` when the
    scenario has no suit, and then no Battery count is written)."""

    event: str
    poison: int
    mark: int
    wounds: int
    has_suit: bool = False
    batteries: int | None = None

    def to_json(self) -> dict:
        out = {"event": self.event, "poison": self.poison, "mark": self.mark, "wounds": self.wounds}
        if self.has_suit:
            out["batteries"] = self.batteries
        return out


@dataclass(frozen=True)
class ConditionsOutcome(Outcome):
    """The typed outcome of a ``conditions`` scenario: the wounds suffered, the state after each event, the target
    at the end and (with a Power Suit) the suit at the end (``suit``, ``None`` once it left play)."""

    wounds_suffered: int
    after: tuple[AfterEvent, ...]
    final: TargetState
    has_suit: bool = False
    suit: PowerSuit | None = None

    def to_json(self) -> dict:
        t = self.final
        out = {"wounds_suffered": self.wounds_suffered, "after": [a.to_json() for a in self.after],
               "final": {"wounds": t.wounds, "poison": t.poison, "mark": t.mark, "status": t.status(),
                         "criticals": [list(c) for c in t.criticals]}}
        if self.has_suit:
            s = self.suit
            out["power_suit"] = {"in_play": s is not None, "batteries": s.batteries if s else 0,
                                 "equipped_by": s.equipped_by if s else None}
        return out


@dataclass(frozen=True)
class ConditionsState:
    """The target between events (immutable): the ``target``, the Power Suit (``None``: none, or it left play),
    the Refresh phases so far, the record after each event and the event ``numbers`` (1 to n) to play."""

    target: TargetState
    suit: PowerSuit | None = None
    refreshes: int = 0
    after: tuple[AfterEvent, ...] = ()
    numbers: tuple[int, ...] = ()


@dataclass(frozen=True)
class ConditionsContext(Context):
    """What the event steps read: ``rulings``, the ``events`` in order and whether the scenario has a suit."""

    events: tuple[EventModel, ...] = ()
    has_suit: bool = False


def event_numbers(state: ConditionsState) -> tuple[int, ...]:
    """The items of :data:`CONDITIONS_SEQUENCE`: the event numbers, from 1."""
    return state.numbers


def apply_event(state: ConditionsState, ctx: ConditionsContext, number: int) -> tuple[ConditionsState,
                                                                                      tuple[Step, ...]]:
    """One event, filed under its own section: a Refresh phase (6.1: Poison, Mark and temporary Criticals on the
    target, then the Power Suit's Battery), a recharge (9.4), a Poison effect (9.3.2) or a Mark effect (8.3)."""
    ev = ctx.events[number - 1]
    t, suit, refreshes = state.target, state.suit, state.refreshes
    if ev.kind == "refresh":
        refreshes += 1
        sec = f"{number}. Refresh phase {refreshes}"
        t, steps = refresh(t, sec)
        suit, st = power_suit_energy(suit, sec)
        steps += st
    elif ev.kind == "recharge":
        sec = f"{number}. Recharge {ev.x} Batter{'y' if ev.x == 1 else 'ies'}"
        suit, steps = recharge(suit, ev.x, sec)
    elif t.kind != "agent" and t.down:
        sec = f"{number}. {ev.kind.title()} {ev.x} effect"
        t, steps = gone(t, f"a {ev.kind.title()} {ev.x} effect", sec)
    elif ev.kind == "poison":
        sec = f"{number}. Poison {ev.x} effect"
        t, steps = apply_poison(t, ev.x, True, ctx.rulings, sec)
    else:
        sec = f"{number}. Mark {ev.x} effect"
        attack = AttackModel(target=t.name, fixed_hits=0, effects=[{"kind": "mark", "x": ev.x}])
        t, steps = place_mark(t, attack, HitRoll(0), ctx.rulings)
        steps = [s.in_section(sec) for s in steps]
    rec = AfterEvent(f"{ev.kind} {ev.x}" if ev.kind != "refresh" else "refresh", t.poison, t.mark, t.wounds,
                     ctx.has_suit, suit.batteries if suit else None)
    return replace(state, target=t, suit=suit, refreshes=refreshes, after=state.after + (rec,)), tuple(steps)


CONDITIONS_SEQUENCE = (Each("Event {item}", event_numbers, apply_event),)
"""A ``conditions`` scenario: every event in order, one frame each."""


def resolve_conditions(scenario: ConditionsScenario, rulings: Mapping[str, str] | None = None,
                       seed: int | None = None) -> Trace:
    """Apply the events in order (:data:`CONDITIONS_SEQUENCE` on the kernel).

    Returns:
        A :class:`Trace` whose ``result`` is a :class:`ConditionsOutcome` (``outcome``: ``{"wounds_suffered": int,
        "after": [{"event", "poison", "mark", "wounds"}], "final": {"wounds", "poison", "mark", "status",
        "criticals"}}``, and ``"power_suit"`` with a suit).
    """
    r = make_rulings({**scenario.rulings, **dict(rulings or {})})
    ps = scenario.power_suit
    suit = None if ps is None else PowerSuit(ps.name, ps.batteries, ps.equipped_by)
    t = TargetState.from_model(scenario.target)
    ctx = ConditionsContext(rulings=r, events=tuple(scenario.events), has_suit=ps is not None)
    frames = play(ConditionsState(t, suit, numbers=tuple(range(1, len(scenario.events) + 1))), CONDITIONS_SEQUENCE,
                  ctx)
    last = frames[-1].state
    return trace_of(scenario.title, frames, r.consulted).with_result(ConditionsOutcome(
        last.target.wounds - t.wounds, last.after, last.target, ps is not None, last.suit))
