"""Rules between the attacks: who holds the Menace token, which aliens a Close Encounter card activates, how many
signals an Event teleports, GD-Wings rank rolls and Area Healing.

Sections: 11.3.1 Fighting Master Aliens [Menacing Agent System] (kind ``menace``), 11.5 Alien Activation [Close
Encounter Cards] and 11.9.1 Paralyzed (kind ``close_encounter``), 6.3 Event Phase (kind ``event``), 9.8 GD-Wings
(kind ``gd_wings``; exact odds from the calibrated red die), 8.5 Area Healing (kind ``healing``), 11.6 Prime Swarm
Units (a Prime Swarm counts as one alien).

Each kind is a kernel sequence (:data:`MENACE_SEQUENCE`, :data:`CLOSE_ENCOUNTER_SEQUENCE`, :data:`EVENT_SEQUENCE`,
:data:`GD_WINGS_SEQUENCE`, :data:`HEALING_SEQUENCE`) of plain step functions over a frozen state with its context,
and returns a typed outcome; every step cites its section. Scenario files
(TOML, ``game = "galaxydefenders"``)::

    kind = "menace"                      # 11.3.1
    agents = ["Hulk", "Marine", "Biotech"]
    alpha_agent = "Hulk"
    [[events]]                           # in order; the first is "enters"
    kind = "enters"                      # the Master Alien enters play
    [[events]]
    kind = "wound"                       # an agent wounds the Master Alien (attack, power, item, drone or NPC)
    agent = "Marine"
    wounds = 2
    via = "attack"
    [[events]]
    kind = "action"                      # an Action activity spent on the token
    agent = "Hulk"
    to = 2                               # the Menacing Agent raises (2) or lowers (1); another agent omits it
    [[events]]
    kind = "activates"                   # the Archenemy Master Alien's activation starts: its target is fixed
    [[events]]
    kind = "attacks"                     # it attacks (the target fixed at the start); its activation ends

    kind = "close_encounter"             # 11.5, 11.9.1
    card = 23                            # 21..25: 22/23/24 activate 1/2/3, 25 as many as the agents, 21 needs x
    x = 2                                # card 21 only
    players = ["Ann", "Ben"]             # turn order; the first is the Alpha Agent's player
    alpha_eliminated = false             # the Alpha Agent was eliminated earlier this round (alpha_agent_succession)
    agents_in_play = 2                   # card 25 (real agents, 1..5); default: one per player
    [[aliens]]
    name = "Digger"
    controller = "Ben"
    rank = "red"                         # purple | red | blue | green
    paralyzed = false

    kind = "event"                       # 6.3
    balancer = "aliens"                  # aliens | aliens_and_signals
    signals = 1                          # signals in play
    [[figures]]
    name = "Hulk"
    side = "agent"                       # agent | drone | npc | alien
    bleeding = false
    prime_swarm = false                  # an alien card with two figures (listed once)

    kind = "gd_wings"                    # 9.8
    campaign = true
    alien_killed_last_round = true
    end_of_mission = false               # Storybook 5.4: the campaign's last roll at the end of the mission
    seed = 3
    [[agents]]
    name = "Hulk"
    rank = "gold"                        # gold | earth | moon | galaxy
    ranked_up_this_mission = false
    rolled = ["wings", "hit", "blank"]   # optional: the 3 red dice

    kind = "npc_assignment"              # 10.1.2, 11.10.1
    cause = "npc_signal"                 # npc_signal | event | mission
    specialist = "Ben"                   # optional: the player the Alpha Agent gives every NPC
    npcs_in_play = 1                     # optional (default: the NPC cards held); at 5 no NPC enters
    [[players]]                          # clockwise, the Alpha Agent's player first
    name = "Ann"
    npc_cards = 1

    kind = "healing"                     # 8.5
    target = "Hulk"
    heal = 2
    [[figures]]
    name = "Hulk"
    side = "agent"                       # agent | drone | npc | alien | master_alien
    area = "B"
    wounds = 3
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from itertools import product
from typing import Annotated, Literal

from pydantic import Field

from explorer.dice import Dice
from explorer.errors import ScenarioError
from explorer.options import Rulings
from explorer.scenario import validate
from explorer.schema import Strict
from explorer.text import plural, percent
from explorer.kernel import Context, Each, Outcome, play, trace_of
from explorer.trace import Step, Trace

from . import sections as S
from .header import GdScenarioHeader
from .menace import (Menace, activation_starts, master_alien_attacks, master_alien_enters,  # noqa: F401
                     master_alien_wounded)  # (re-exported: the Menace token's rules live in menace.py)
from .calibration import Calibration, Face, default_calibration
from .combat import with_source
from .options import rulings as make_rulings

Name = Annotated[str, Field(min_length=1, max_length=40)]


def _check_rulings(sc: GdScenarioHeader, source: str) -> None:
    with with_source(source):
        make_rulings(sc.rulings)


def _unique(names: Sequence[str], field: str, source: str) -> None:
    for i, n in enumerate(names):
        if names.index(n) != i:
            raise ScenarioError(f"{field}[{i}]", f"{n!r} is used twice", "unique names", source)


# ================================================================================================ 11.3.1 Menace

class MenaceEvent(Strict):
    kind: Literal["enters", "wound", "action", "activates", "attacks"]
    agent: Name | None = None
    wounds: int = Field(1, ge=0, le=40)
    via: Literal["attack", "power", "item", "drone", "npc"] = "attack"
    to: int | None = Field(None, ge=1, le=2)


class MenaceScenario(GdScenarioHeader):
    """A validated ``menace`` scenario."""

    kind: Literal["menace"] = "menace"
    agents: list[Name] = Field(min_length=1, max_length=6)
    alpha_agent: Name
    events: list[MenaceEvent] = Field(min_length=1, max_length=40)


def parse_menace(data: dict, source: str) -> MenaceScenario:
    """Validate a ``menace`` scenario.

    Raises:
        ScenarioError: unknown agent names, duplicate agents, a first event that is not ``enters``, a second
            ``enters``, a ``wound`` / ``action`` without ``agent``, ``to`` on a wound.
    """
    sc = validate(MenaceScenario, data, source)
    _check_rulings(sc, source)
    _unique(sc.agents, "agents", source)
    if sc.alpha_agent not in sc.agents:
        raise ScenarioError("alpha_agent", f"no agent named {sc.alpha_agent!r}", sc.agents, source)
    for i, e in enumerate(sc.events):
        if (i == 0) != (e.kind == "enters"):
            raise ScenarioError(f"events[{i}].kind", "the Master Alien enters play once, first" if i else
                                f"{e.kind!r} before the Master Alien entered play", "'enters' first, then 'wound' "
                                "or 'action'", source)
        if e.kind in ("activates", "attacks"):
            if e.agent is not None:
                raise ScenarioError(f"events[{i}].agent", f"the Master Alien {e.kind.removesuffix('s')}s by "
                                    "itself", "omit 'agent' here", source)
        elif e.kind != "enters":
            if e.agent not in sc.agents:
                raise ScenarioError(f"events[{i}].agent", f"no agent named {e.agent!r}", sc.agents, source)
        if e.kind != "action" and e.to is not None:
            raise ScenarioError(f"events[{i}].to", "only an Action activity sets the token level",
                                "omit 'to' here", source)
    return sc


def menace_action(m: Menace, agent: str, to: int | None) -> tuple[Menace, list[Step]]:
    """11.3.1: an Action activity spent on the token. The Menacing Agent sets Level 1 or 2; another agent lowers it
    from 2 to 1, or at Level 1 takes it. An action that changes nothing is refused with a step."""
    if agent == m.holder:
        if to is None or to == m.level:
            return m, [Step(f"{agent} cannot change the token to Level {to or m.level}: it is already there",
                            S.MENACE, "The Menacing Agent's Action flips the token 1 -> 2 or 2 -> 1.",
                            marks=(agent,), facts={"holder": m.holder, "level": m.level, "refused": True})]
        return Menace(agent, to), [Step(f"{agent} spends its Action: Menace {m.level} -> {to}", S.MENACE,
                                        "The Menacing Agent may raise or lower its own token.", marks=(agent,),
                                        facts={"holder": agent, "level": to})]
    if to is not None:
        return m, [Step(f"{agent} is not the Menacing Agent: it cannot set the level to {to}", S.MENACE,
                        "Another agent's Action lowers the token 2 -> 1, or takes it at Level 1.", marks=(agent,),
                        facts={"holder": m.holder, "level": m.level, "refused": True})]
    if m.level == 2:
        return Menace(m.holder, 1), [Step(f"{agent} spends its Action: {m.holder}'s Menace drops to Level 1",
                                          S.MENACE, "The token must be at Level 1 before it can change agents.",
                                          marks=(agent, m.holder), facts={"holder": m.holder, "level": 1})]
    return Menace(agent, 1), [Step(f"{agent} spends its Action and takes the Menace token (Level 1) from "
                                   f"{m.holder}", S.MENACE, "At Level 1 another agent may take the token and become "
                                   "the Menacing Agent.", marks=(agent,), facts={"holder": agent, "level": 1})]


@dataclass(frozen=True)
class MenaceAfter:
    """The Menace token after one event: the event's section title, the holder and the level; for an ``attacks``
    event the agent attacked (``None`` otherwise)."""

    event: str
    holder: str | None
    level: int
    attacked: str | None = None


@dataclass(frozen=True)
class MenaceOutcome(Outcome):
    """The typed outcome of a ``menace`` scenario: the token after each event and at the end."""

    after: tuple[MenaceAfter, ...]
    holder: str | None
    level: int
    target: str | None = None
    attacked: tuple[str, ...] = ()

    @property
    def summary(self) -> str:
        if self.target is not None:
            aim = f"its activation underway keeps targeting {self.target}"
        elif self.attacked:
            aim = f"its next activation targets {self.holder}"
        else:
            aim = f"an Archenemy Master Alien targets {self.holder}"
        out = f"Menacing Agent: {self.holder} at Level {self.level} ({aim})"
        if self.attacked:
            out += f"; the Master Alien attacked {', '.join(self.attacked)}"
        return out

    def to_json(self) -> dict:
        after = []
        for a in self.after:
            row = {"event": a.event, "holder": a.holder, "level": a.level}
            if a.attacked is not None:
                row["attacked"] = a.attacked
            after.append(row)
        out = {"after": after, "holder": self.holder, "level": self.level, "summary": self.summary}
        if self.target is not None or self.attacked:
            out["target"] = self.target
            out["attacked"] = list(self.attacked)
        return out


@dataclass(frozen=True)
class MenaceState:
    """The Menace token between events, the record after each event, and the event ``numbers`` (1 to n)."""

    menace: Menace = Menace()
    after: tuple[MenaceAfter, ...] = ()
    numbers: tuple[int, ...] = ()
    target: str | None = None
    attacked: tuple[str, ...] = ()


@dataclass(frozen=True)
class MenaceContext(Context):
    """What the Menace steps read: the ``events`` in order and the ``alpha_agent``."""

    events: tuple[MenaceEvent, ...] = ()
    alpha_agent: str = ""


def menace_event_numbers(state: MenaceState) -> tuple[int, ...]:
    """The items of :data:`MENACE_SEQUENCE`: the event numbers, from 1."""
    return state.numbers


def menace_event(state: MenaceState, ctx: MenaceContext, number: int) -> tuple[MenaceState, tuple[Step, ...]]:
    """One event of 11.3.1 Menacing Agent System, filed under its own section: the Master Alien enters play, an
    agent wounds it, an agent spends an Action on the token, the Master Alien's activation starts (its target is
    fixed) or it attacks (the fixed target; the activation ends)."""
    e = ctx.events[number - 1]
    sec = f"{number}. " + {"enters": "Master Alien enters play", "wound": f"{e.agent} wounds it",
                           "action": f"{e.agent}'s Action", "activates": "Master Alien activates",
                           "attacks": "Master Alien attacks"}[e.kind]
    m, target, attacked, hit = state.menace, state.target, state.attacked, None
    if e.kind == "enters":
        m, st = master_alien_enters(m, ctx.alpha_agent)
    elif e.kind == "wound":
        m, st = master_alien_wounded(m, e.agent, e.wounds, e.via)
    elif e.kind == "activates":
        target, st = activation_starts(m)
    elif e.kind == "attacks":
        hit, st = master_alien_attacks(m, target)
        target, attacked = None, attacked + (hit,)
    else:
        m, st = menace_action(m, e.agent, e.to)
    return replace(state, menace=m, target=target, attacked=attacked,
                   after=state.after + (MenaceAfter(sec, m.holder, m.level, hit),)), tuple(
        s.in_section(sec) for s in st)


MENACE_SEQUENCE = (Each("Event {item}", menace_event_numbers, menace_event),)
"""A ``menace`` scenario: every event in order (11.3.1)."""


def resolve_menace(scenario: MenaceScenario, rulings: Mapping[str, str] | None = None,
                   seed: int | None = None) -> Trace:
    """Apply the events in order (:data:`MENACE_SEQUENCE`).

    Returns:
        A :class:`Trace` whose ``result`` is a :class:`MenaceOutcome` (``outcome``: ``{"after": [{"event",
        "holder", "level"}], "holder", "level", "summary"}``); an Archenemy Master Alien targets ``holder`` (see the
        ``activation`` kind).
    """
    r = make_rulings({**scenario.rulings, **dict(rulings or {})})
    ctx = MenaceContext(rulings=r, events=tuple(scenario.events), alpha_agent=scenario.alpha_agent)
    frames = play(MenaceState(numbers=tuple(range(1, len(scenario.events) + 1))), MENACE_SEQUENCE, ctx)
    last = frames[-1].state
    return trace_of(scenario.title, frames, r.consulted).with_result(
        MenaceOutcome(last.after, last.menace.holder, last.menace.level, last.target, last.attacked))


# ================================================================================================ 11.5 Close Encounter

RANKS = ("purple", "red", "blue", "green")
"""Alien ranks, highest first (11.5 tie order)."""
ACTIVATE_X = {22: 1, 23: 2, 24: 3}
"""Close Encounter cards that activate a fixed number of aliens (11.5)."""


class AlienEntry(Strict):
    name: Name
    controller: Name
    rank: Literal["purple", "red", "blue", "green"] = "green"
    paralyzed: bool = False


class CloseEncounterScenario(GdScenarioHeader):
    """A validated ``close_encounter`` scenario."""

    kind: Literal["close_encounter"] = "close_encounter"
    card: int = Field(ge=21, le=25)
    x: int | None = Field(None, ge=1, le=5)
    players: list[Name] = Field(min_length=1, max_length=6)
    agents_in_play: int | None = Field(None, ge=1, le=5)
    alpha_eliminated: bool = False
    aliens: list[AlienEntry] = Field(default_factory=list, max_length=30)


def parse_close_encounter(data: dict, source: str) -> CloseEncounterScenario:
    """Validate a ``close_encounter`` scenario.

    Raises:
        ScenarioError: card 21 without ``x`` or another card with it; an alien controlled by no listed player;
            duplicate names.
    """
    sc = validate(CloseEncounterScenario, data, source)
    _check_rulings(sc, source)
    _unique(sc.players, "players", source)
    _unique([a.name for a in sc.aliens], "aliens", source)
    if sc.alpha_eliminated and len(sc.players) < 2:
        raise ScenarioError("alpha_eliminated", "a single player has no one to pass the Alpha Agent role to",
                            "false, or two players or more", source)
    if (sc.card == 21) != (sc.x is not None):
        raise ScenarioError("x", "card 21 needs the X printed on it" if sc.card == 21 else
                            f"card {sc.card} sets X itself", "x only with card = 21", source)
    for i, a in enumerate(sc.aliens):
        if a.controller not in sc.players:
            raise ScenarioError(f"aliens[{i}].controller", f"no player named {a.controller!r}", sc.players, source)
    return sc


def aliens_to_activate(card: int, x: int | None, agents_in_play: int) -> tuple[int, Step]:
    """X of an "Activate X aliens" card (11.5): 1/2/3 for cards 22/23/24, the number of agents in play (real
    agents, 1..5) for card 25, the printed X for card 21."""
    if card in ACTIVATE_X:
        n, why = ACTIVATE_X[card], f"card {card} activates {ACTIVATE_X[card]}"
    elif card == 25:
        n, why = agents_in_play, f"card 25 activates one alien per agent in play ({agents_in_play}; drones and NPCs " \
                                 "do not count)"
    else:
        n, why = int(x or 0), f"card 21 prints X = {x}"
    return n, Step(f"Activate {plural(n, 'alien')}", S.ALIEN_ACTIVATION, why[0].upper() + why[1:] + ".",
                   section="Close Encounter",
                   facts={"x": n})


def selection_order(aliens: Sequence[AlienEntry], players: Sequence[str]) -> tuple[list[AlienEntry], Step]:
    """Aliens in the order 11.5 picks them: the Alpha Agent's player first, then the next players in turn order;
    within one player, highest rank first (Purple, Red, Blue, Green); a remaining tie is the Alpha Agent's choice
    (here the order of the file)."""
    out: list[AlienEntry] = []
    for p in players:
        own = [a for a in aliens if a.controller == p]
        out += sorted(own, key=lambda a: RANKS.index(a.rank))
    return out, Step("Selection order: " + (", ".join(f"{a.name} ({a.controller}, {a.rank})" for a in out) or
                                            "no alien in play"),
                     S.ALIEN_ACTIVATION, f"{players[0]}'s aliens first (Alpha Agent), then the next players in turn "
                     "order; within one player the highest rank first; ties broken by the Alpha Agent (file order "
                     "here).", section="Close Encounter", facts={"order": [a.name for a in out]})


def select_aliens(order: Sequence[AlienEntry], n: int, card: int, rulings: Rulings) -> tuple[list[AlienEntry],
                                                                                             list[Step]]:
    """Pick ``n`` aliens along ``order``. A Paralyzed alien is passed over unless no other alien is in play (cards
    21-24; card 25 follows ``paralyzed_card_25``); ``paralyzed_fill`` says whether Paralyzed aliens fill slots left
    when the others run out. A selected Paralyzed alien skips its activation (11.9.1). "No other aliens in play" is
    read as no alien that is not Paralyzed: with two Paralyzed aliens and nothing else, each has "another alien" in
    play, and the literal words would bar both, which no Close Encounter card intends."""
    sec = "Close Encounter"
    steps: list[Step] = []
    barred = card <= 24 or rulings.reading("paralyzed_card_25") == "not_selectable"
    others = [a for a in order if not a.paralyzed]
    chosen: list[AlienEntry] = []
    for a in order:
        if len(chosen) == n:
            break
        if a.paralyzed and barred and others:
            steps.append(Step(f"{a.name} is Paralyzed: passed over", S.PARALYZED,
                              "A Paralyzed alien cannot be selected while another alien is in play.", section=sec,
                              marks=(a.name,), facts={"alien": a.name, "selected": False}))
            continue
        chosen.append(a)
        steps.append(Step(f"{a.name} ({a.controller}) is selected" + (" and skips its activation: Paralyzed"
                                                                      if a.paralyzed else ""),
                          S.PARALYZED if a.paralyzed else S.ALIEN_ACTIVATION,
                          "" if not a.paralyzed else ("No other alien is in play." if not others else
                                                      "Card 25 is not among cards 21-24."), section=sec,
                                                      marks=(a.name,),
                          facts={"alien": a.name, "selected": True, "activates": not a.paralyzed}))
    if len(chosen) < n and barred and others:
        para = [a for a in order if a.paralyzed and a not in chosen]
        if para and rulings.reading("paralyzed_fill") == "fill":
            for a in para[:n - len(chosen)]:
                chosen.append(a)
                steps.append(Step(f"{a.name} fills a remaining slot and skips its activation: Paralyzed",
                                  S.PARALYZED, "Every other alien is already selected.", section=sec, marks=(a.name,),
                                  facts={"alien": a.name, "selected": True, "activates": False}))
    if len(chosen) < n:
        steps.append(Step(f"Only {len(chosen)} of {plural(n, 'alien')} can be selected", S.ALIEN_ACTIVATION,
                          "Selection stops when no alien is left to activate.", section=sec))
    return chosen, steps


@dataclass(frozen=True)
class CloseEncounterOutcome(Outcome):
    """The typed outcome of a ``close_encounter`` scenario: the ``card``, X, the aliens selected and those that
    activate (a selected Paralyzed alien skips its activation)."""

    card: int
    x: int
    selected: tuple[str, ...]
    activated: tuple[str, ...]
    alpha_agent: str | None = None

    @property
    def summary(self) -> str:
        alpha = "" if self.alpha_agent is None else f"Alpha Agent for the rest of the round: {self.alpha_agent}; "
        return (f"{alpha}Card {self.card}: activate {self.x}; selected {', '.join(self.selected) or 'none'}; "
                f"activated {', '.join(self.activated) or 'none'}")

    def to_json(self) -> dict:
        out = {"x": self.x, "selected": list(self.selected), "activated": list(self.activated),
               "summary": self.summary}
        if self.alpha_agent is not None:
            out["alpha_agent"] = self.alpha_agent
        return out


@dataclass(frozen=True)
class CloseEncounterState:
    """An "Activate X aliens" card between steps: X, the selection order, the aliens chosen."""

    x: int = 0
    order: tuple[AlienEntry, ...] = ()
    chosen: tuple[AlienEntry, ...] = ()
    players: tuple[str, ...] = ()
    successor: str | None = None


@dataclass(frozen=True)
class CloseEncounterContext(Context):
    """What the Close Encounter steps read: the scenario (card, X, players, aliens)."""

    scenario: CloseEncounterScenario | None = None


def alpha_agent_succession(players: Sequence[str], eliminated: bool, rulings: Rulings
                           ) -> tuple[tuple[str, ...], str | None, list[Step]]:
    """The Alpha Agent when the Alpha Agent was eliminated earlier in the round (11.5 starts "Activate X aliens"
    with the Alpha Agent's aliens; 6.3 has the Alpha Agent draw the Event card). The rulebook is silent (ruling
    ``alpha_agent_succession``): the next player clockwise takes the role for the rest of the round (default), or
    the eliminated agent's player keeps it until the next promotion. Returns ``(turn order starting with the Alpha
    Agent, the Alpha Agent when one was eliminated else None, steps)``."""
    if not eliminated:
        return tuple(players), None, []
    if rulings.reading("alpha_agent_succession") == "next_clockwise":
        order = tuple(players[1:]) + (players[0],)
        return order, order[0], [Step(
            f"{players[0]}'s Alpha Agent was eliminated: {order[0]} (next clockwise) is the Alpha Agent for the rest "
            "of the round", S.ALIEN_ACTIVATION, "The rulebook does not say (ruling alpha_agent_succession); its "
            f"aliens are selected first and it draws the Event card. {players[0]}'s aliens come last in turn order.",
            section="Alpha Agent", marks=(order[0],), facts={"alpha_agent": order[0]})]
    return tuple(players), players[0], [Step(
        f"{players[0]}'s Alpha Agent was eliminated: the role stays with {players[0]} until the next promotion",
        S.ALIEN_ACTIVATION, "The rulebook does not say (ruling alpha_agent_succession); its aliens are still "
        "selected first.", section="Alpha Agent", marks=(players[0],), facts={"alpha_agent": players[0]})]


def alpha_agent(state: CloseEncounterState, ctx: CloseEncounterContext) -> tuple[CloseEncounterState,
                                                                                  tuple[Step, ...]]:
    """Who is the Alpha Agent when the card is played (:func:`alpha_agent_succession`)."""
    sc = ctx.scenario
    order, who, st = alpha_agent_succession(sc.players, sc.alpha_eliminated, ctx.rulings)
    return replace(state, players=order, successor=who), tuple(st)


def count_aliens(state: CloseEncounterState, ctx: CloseEncounterContext) -> tuple[CloseEncounterState,
                                                                                  tuple[Step, ...]]:
    """11.5 Alien Activation: X, the number of aliens the card activates."""
    sc = ctx.scenario
    n, st = aliens_to_activate(sc.card, sc.x, sc.agents_in_play or len(sc.players))
    return replace(state, x=n), (st,)


def order_aliens(state: CloseEncounterState, ctx: CloseEncounterContext) -> tuple[CloseEncounterState,
                                                                                  tuple[Step, ...]]:
    """11.5 Alien Activation: the order the aliens are picked in."""
    order, st = selection_order(ctx.scenario.aliens, state.players)
    return replace(state, order=tuple(order)), (st,)


def pick_aliens(state: CloseEncounterState, ctx: CloseEncounterContext) -> tuple[CloseEncounterState,
                                                                                 tuple[Step, ...]]:
    """11.5 Alien Activation and 11.9.1 Paralyzed: the X aliens selected along the order."""
    chosen, st = select_aliens(state.order, state.x, ctx.scenario.card, ctx.rulings)
    return replace(state, chosen=tuple(chosen)), tuple(st)


CLOSE_ENCOUNTER_SEQUENCE = (("Alpha Agent", alpha_agent), ("X", count_aliens), ("Selection order", order_aliens), ("Selection", pick_aliens))
"""A ``close_encounter`` scenario: X, the selection order, the selection (11.5, 11.9.1)."""


def resolve_close_encounter(scenario: CloseEncounterScenario, rulings: Mapping[str, str] | None = None,
                            seed: int | None = None) -> Trace:
    """Which aliens an "Activate X aliens" card activates (:data:`CLOSE_ENCOUNTER_SEQUENCE`).

    Returns:
        A :class:`Trace` whose ``result`` is a :class:`CloseEncounterOutcome` (``outcome``: ``{"x", "selected":
        [name], "activated": [name] (Paralyzed ones skip), "summary"}``).
    """
    r = make_rulings({**scenario.rulings, **dict(rulings or {})})
    frames = play(CloseEncounterState(), CLOSE_ENCOUNTER_SEQUENCE, CloseEncounterContext(rulings=r, scenario=scenario))
    last = frames[-1].state
    return trace_of(scenario.title, frames, r.consulted).with_result(CloseEncounterOutcome(
        scenario.card, last.x, tuple(a.name for a in last.chosen),
        tuple(a.name for a in last.chosen if not a.paralyzed), last.successor))


# ================================================================================================ 6.3 Event phase

class EventFigure(Strict):
    name: Name
    side: Literal["agent", "drone", "npc", "alien"]
    bleeding: bool = False
    prime_swarm: bool = False


class EventScenario(GdScenarioHeader):
    """A validated ``event`` scenario."""

    kind: Literal["event"] = "event"
    balancer: Literal["aliens", "aliens_and_signals"] = "aliens"
    signals: int = Field(0, ge=0, le=40)
    figures: list[EventFigure] = Field(default_factory=list, max_length=40)


def parse_event(data: dict, source: str) -> EventScenario:
    """Validate an ``event`` scenario.

    Raises:
        ScenarioError: duplicate names, ``bleeding`` on a figure that is not an agent, ``prime_swarm`` on one that is
            not an alien.
    """
    sc = validate(EventScenario, data, source)
    _check_rulings(sc, source)
    _unique([f.name for f in sc.figures], "figures", source)
    for i, f in enumerate(sc.figures):
        if f.bleeding and f.side != "agent":
            raise ScenarioError(f"figures[{i}].bleeding", "only agents bleed (9.3.1)", "omit it", source)
        if f.prime_swarm and f.side != "alien":
            raise ScenarioError(f"figures[{i}].prime_swarm", "only an alien card is a Prime Swarm (11.6)",
                                "omit it", source)
    return sc


def signals_to_teleport(figures: Sequence[EventFigure], signals: int, balancer: str, rulings: Rulings
                        ) -> tuple[int, list[Step]]:
    """6.3: agents in play (real agents only: no drones, no NPCs) minus aliens in play (minus signals too with the
    second balancer), at least 0. A Prime Swarm is one alien (11.6)."""
    sec = "Event phase"
    count_bleeding = rulings.reading("bleeding_agents_in_event") == "count"
    agents = [f for f in figures if f.side == "agent" and (count_bleeding or not f.bleeding)]
    left_out = [f.name for f in figures if f.side in ("drone", "npc")] + \
               [f.name for f in figures if f.side == "agent" and f.bleeding and not count_bleeding]
    aliens = [f for f in figures if f.side == "alien"]
    steps = [Step(f"Agents in play: {len(agents)}", S.EVENT_PHASE, "Only real agents count" + (
        f"; not counted: {', '.join(left_out)}" if left_out else "") + ".", section=sec, marks=[f.name for f in agents],
                  facts={"agents": len(agents)}),
             Step(f"Aliens in play: {len(aliens)}", S.PRIME_SWARM if any(f.prime_swarm for f in aliens)
                  else S.EVENT_PHASE, "A Prime Swarm's two figures are one alien." if any(f.prime_swarm for f in
                                                                                          aliens) else "",
                  section=sec, marks=[f.name for f in aliens], facts={"aliens": len(aliens)})]
    minus = len(aliens) + (signals if balancer == "aliens_and_signals" else 0)
    n = max(0, len(agents) - minus)
    what = "aliens" if balancer == "aliens" else f"aliens plus signals ({len(aliens)} + {signals})"
    steps.append(Step(f"Teleport {plural(n, 'signal')}: {len(agents)} agents - {minus} {what.split(' (')[0]}"
                      + (", at least 0" if len(agents) - minus < 0 else ""), S.EVENT_PHASE,
                      f"Balancer: agents minus {what}, minimum 0.", section=sec, facts={"teleport": n}))
    return n, steps


@dataclass(frozen=True)
class EventOutcome(Outcome):
    """The typed outcome of an ``event`` scenario: the signals the Event card teleports."""

    teleport: int

    @property
    def summary(self) -> str:
        return f"Signals teleported by the Event card: {self.teleport}"

    def to_json(self) -> dict:
        return {"teleport": self.teleport, "summary": self.summary}


@dataclass(frozen=True)
class EventState:
    """The Event phase's balancing: the signals to teleport (``None`` before the step)."""

    teleport: int | None = None


@dataclass(frozen=True)
class EventContext(Context):
    """What the Event phase reads: the scenario (figures, signals, balancer)."""

    scenario: EventScenario | None = None


def balance_signals(state: EventState, ctx: EventContext) -> tuple[EventState, tuple[Step, ...]]:
    """6.3 Event Phase: the signals the Event card teleports (:func:`signals_to_teleport`)."""
    sc = ctx.scenario
    n, st = signals_to_teleport(sc.figures, sc.signals, sc.balancer, ctx.rulings)
    return replace(state, teleport=n), tuple(st)


EVENT_SEQUENCE = (("Signals", balance_signals),)
"""An ``event`` scenario: the Event phase's signal balancing (6.3)."""


def resolve_event(scenario: EventScenario, rulings: Mapping[str, str] | None = None, seed: int | None = None) -> Trace:
    """The Event phase's signal balancing (:data:`EVENT_SEQUENCE`).

    Returns:
        A :class:`Trace` whose ``result`` is an :class:`EventOutcome` (``outcome``: ``{"teleport": int,
        "summary"}``).
    """
    r = make_rulings({**scenario.rulings, **dict(rulings or {})})
    frames = play(EventState(), EVENT_SEQUENCE, EventContext(rulings=r, scenario=scenario))
    return trace_of(scenario.title, frames, r.consulted).with_result(EventOutcome(frames[-1].state.teleport))


# ================================================================================================ 9.8 GD-Wings

GD_RANKS = ("gold", "earth", "moon", "galaxy")
"""Operation Strikeback ranks, from the starting Gold rank to the highest this rulebook allows (Galaxy)."""
REQUIRED_WINGS = {"earth": 1, "moon": 2, "galaxy": 3}
"""GD-Wings results needed on 3 red dice to reach each rank (9.8 table)."""
WINGS_DICE = ("red", 3)


class WingsAgent(Strict):
    name: Name
    rank: Literal["gold", "earth", "moon", "galaxy"] = "gold"
    ranked_up_this_mission: bool = False
    rolled: Annotated[list[Annotated[str, Field(max_length=60)]], Field(min_length=3, max_length=3)] | None = None


class WingsScenario(GdScenarioHeader):
    """A validated ``gd_wings`` scenario."""

    kind: Literal["gd_wings"] = "gd_wings"
    campaign: bool = True
    alien_killed_last_round: bool = True
    end_of_mission: bool = False
    agents: list[WingsAgent] = Field(min_length=1, max_length=6)


def parse_gd_wings(data: dict, source: str) -> WingsScenario:
    """Validate a ``gd_wings`` scenario.

    Raises:
        ScenarioError: a fixed face the calibrated red die does not have; duplicate names.
    """
    sc = validate(WingsScenario, data, source)
    _check_rulings(sc, source)
    _unique([a.name for a in sc.agents], "agents", source)
    die = default_calibration().die(WINGS_DICE[0])
    with with_source(source):
        for i, a in enumerate(sc.agents):
            for j, f in enumerate(a.rolled or ()):
                die.face(f, f"agents[{i}].rolled[{j}]")
    return sc


def wings_odds(required: int, cal: Calibration | None = None) -> Fraction:
    """Exact probability of at least ``required`` GD-Wings results on 3 red dice (9.8), by enumerating the faces of
    the calibrated red die (a face may show several symbols)."""
    die = (cal or default_calibration()).die(WINGS_DICE[0])
    hits = sum(1 for faces in product(die.faces, repeat=WINGS_DICE[1]) if sum(f.wings for f in faces) >= required)
    return Fraction(hits, die.sides ** WINGS_DICE[1])


def end_of_mission_roll(agent: WingsAgent, campaign: bool, killed: bool, rulings: Rulings
                        ) -> tuple[bool, list[Step]]:
    """Storybook 5.4: in a campaign, an agent who failed every roll to gain a rank during the mission rolls one last
    time at the end of it. 5.4 states no kill condition for this roll; ruling ``end_of_mission_wings_kill`` may
    apply 9.8's. Returns ``(the agent may roll, steps)`` (no step when it may)."""
    sec = f"GD-Wings: {agent.name}"
    if not campaign:
        return False, [Step("No end-of-mission roll: only a campaign gives one", S.GD_WINGS_CAMPAIGN, "",
                            section=sec, marks=(agent.name,))]
    if agent.ranked_up_this_mission:
        return False, [Step("No end-of-mission roll: it already gained a rank this mission", S.GD_WINGS_CAMPAIGN,
                            "Only an agent who failed all its rolls during the mission rolls once more.",
                            section=sec, marks=(agent.name,))]
    if not killed and rulings.reading("end_of_mission_wings_kill") == "kill_condition":
        return False, [Step("No end-of-mission roll: no alien was killed in the last round", S.GD_WINGS,
                            "Read with 9.8's kill condition (ruling end_of_mission_wings_kill).", section=sec,
                            marks=(agent.name,))]
    return True, [Step(f"{agent.name} failed every rank roll this mission: one last roll at its end",
                       S.GD_WINGS_CAMPAIGN, "5.4 sets no kill condition on this roll" + (
                           "." if killed else " (ruling end_of_mission_wings_kill: none)."), section=sec,
                       marks=(agent.name,))]


def rank_roll(agent: WingsAgent, campaign: bool, killed: bool, faces: Sequence[Face] | None
              ) -> tuple[str, Fraction | None, list[Step]]:
    """One agent's GD-Wings roll in the Strategy phase (9.8): allowed only if an alien was killed in the previous
    round, below Galaxy rank, and (campaign) not already ranked up this mission; 3 red dice, enough GD-Wings results
    for the next rank gain one rank. Returns ``(rank after, P(success) or None when no roll, steps)``."""
    sec = f"GD-Wings: {agent.name}"
    if not killed:
        return agent.rank, None, [Step("No roll: no alien was killed in the previous round", S.GD_WINGS, "",
                                       section=sec,
                                       marks=(agent.name,))]
    if agent.rank == "galaxy":
        return agent.rank, None, [Step("No roll: Galaxy is the highest Operation Strikeback rank", S.GD_WINGS, "",
                                       section=sec, marks=(agent.name,))]
    if campaign and agent.ranked_up_this_mission:
        return agent.rank, None, [Step("No roll: at most one rank per mission in a campaign", S.GD_WINGS,
                                       "A standalone mission has no such limit.", section=sec, marks=(agent.name,))]
    nxt = GD_RANKS[GD_RANKS.index(agent.rank) + 1]
    need = REQUIRED_WINGS[nxt]
    p = wings_odds(need)
    assert faces is not None
    got = sum(f.wings for f in faces)
    steps = [Step(f"Rolls 3 red dice: {', '.join(f.label for f in faces)} = {plural(got, 'GD-Wings result')}",
                  S.GD_WINGS,
                  f"{nxt.title()} rank needs {need}; the chance of at least {need} is {percent(p)} "
                  "(calibrated red die).", section=sec, marks=(agent.name,),
                  facts={"wings": got, "needed": need, "p": str(p)})]
    if got >= need:
        steps.append(Step(f"{agent.name} rises to {nxt.title()} rank", S.GD_WINGS, "", section=sec, marks=(agent.name,),
                          facts={"rank": nxt}))
        return nxt, p, steps
    steps.append(Step(f"{agent.name} stays at {agent.rank.title()} rank", S.GD_WINGS, "", section=sec,
                      marks=(agent.name,),
                      facts={"rank": agent.rank}))
    return agent.rank, p, steps


@dataclass(frozen=True)
class WingsOutcome(Outcome):
    """The typed outcome of a ``gd_wings`` scenario: each agent's rank after its roll and its chance of success
    (``"n/d"``, or ``None`` when it could not roll), in the scenario's order."""

    ranks: tuple[tuple[str, str], ...]
    p_success: tuple[tuple[str, str | None], ...]

    @property
    def summary(self) -> str:
        return "Ranks: " + ", ".join(f"{n} {k.title()}" for n, k in self.ranks)

    def to_json(self) -> dict:
        return {"ranks": dict(self.ranks), "p_success": dict(self.p_success), "summary": self.summary}


@dataclass(frozen=True)
class WingsState:
    """The ranks and odds so far, and the agent ``numbers`` (1 to n) to roll for."""

    ranks: tuple[tuple[str, str], ...] = ()
    p_success: tuple[tuple[str, str | None], ...] = ()
    numbers: tuple[int, ...] = ()


@dataclass(frozen=True)
class WingsContext(Context):
    """What the GD-Wings steps read: the scenario and ``dice`` (the faces not fixed are rolled from its seed)."""

    scenario: WingsScenario | None = None


def agent_numbers(state: WingsState) -> tuple[int, ...]:
    """The items of :data:`GD_WINGS_SEQUENCE`: the agent numbers, from 1."""
    return state.numbers


def wings_roll(state: WingsState, ctx: WingsContext, number: int) -> tuple[WingsState, tuple[Step, ...]]:
    """9.8 GD-Wings: one agent's rank roll (its 3 red dice fixed, else rolled, before the roll is checked)."""
    sc = ctx.scenario
    a = sc.agents[number - 1]
    die = default_calibration().die(WINGS_DICE[0])
    faces = tuple(die.face(f) for f in a.rolled) if a.rolled else \
        tuple(die.faces[ctx.dice.roll(die.sides, f"red die for {a.name}") - 1] for _ in range(WINGS_DICE[1]))
    if sc.end_of_mission:
        ok, first = end_of_mission_roll(a, sc.campaign, sc.alien_killed_last_round, ctx.rulings)
        if ok:
            rank, p, st = rank_roll(a, sc.campaign, True, faces)
            st = first + st
        else:
            rank, p, st = a.rank, None, first
    else:
        rank, p, st = rank_roll(a, sc.campaign, sc.alien_killed_last_round, faces)
    return replace(state, ranks=state.ranks + ((a.name, rank),),
                   p_success=state.p_success + ((a.name, None if p is None else str(p)),)), tuple(st)


GD_WINGS_SEQUENCE = (Each("GD-Wings: agent {item}", agent_numbers, wings_roll),)
"""A ``gd_wings`` scenario: every agent's rank roll in order (9.8)."""


def resolve_gd_wings(scenario: WingsScenario, rulings: Mapping[str, str] | None = None,
                     seed: int | None = None) -> Trace:
    """Every agent's GD-Wings roll (:data:`GD_WINGS_SEQUENCE`); fixed faces where given, else rolled from the seed.

    Returns:
        A :class:`Trace` whose ``result`` is a :class:`WingsOutcome` (``outcome``: ``{"ranks": {name: rank},
        "p_success": {name: "n/d" or None}, "summary"}``).
    """
    r = make_rulings({**scenario.rulings, **dict(rulings or {})})
    ctx = WingsContext(rulings=r, dice=Dice(seed=seed if seed is not None else scenario.seed), scenario=scenario)
    frames = play(WingsState(numbers=tuple(range(1, len(scenario.agents) + 1))), GD_WINGS_SEQUENCE, ctx)
    last = frames[-1].state
    return trace_of(scenario.title, frames, r.consulted).with_result(WingsOutcome(last.ranks, last.p_success))


# ================================================================================================ 8.5 Area Healing

class HealFigure(Strict):
    name: Name
    side: Literal["agent", "drone", "npc", "alien", "master_alien"]
    area: Name
    wounds: int = Field(0, ge=0, le=40)


class HealingScenario(GdScenarioHeader):
    """A validated ``healing`` scenario."""

    kind: Literal["healing"] = "healing"
    target: Name
    heal: int = Field(ge=1, le=20)
    figures: list[HealFigure] = Field(min_length=1, max_length=40)


def parse_healing(data: dict, source: str) -> HealingScenario:
    """Validate a ``healing`` scenario.

    Raises:
        ScenarioError: a target that is not a listed figure; duplicate names.
    """
    sc = validate(HealingScenario, data, source)
    _check_rulings(sc, source)
    names = [f.name for f in sc.figures]
    _unique(names, "figures", source)
    if sc.target not in names:
        raise ScenarioError("target", f"no figure named {sc.target!r}", names, source)
    return sc


def area_healing(figures: Sequence[HealFigure], target: str, heal: int, rulings: Rulings
                 ) -> tuple[dict[str, int], list[str], list[Step]]:
    """8.5: the healing applies to the target and to every other figure of its kind in its Area: agents (with NPCs
    and drones per ``area_healing_allies``) for an agent target, aliens (Master Aliens included, 11.3) for an alien.
    An NPC or drone is healed only under ``agents_npcs_drones`` (10.4: an NPC cannot be healed with normal healing
    weapons, powers or items; 9.7.4.2 / 9.7.4.3: Vigil and GD-5 cannot be healed with standard healing powers); an
    NPC or drone target's healing still reaches the other agents in its Area (8.5: "the target and ... all other
    agents in the same Area"). Returns ``({name: wounds after}, [names healed], steps)``."""
    sec = "Area Healing"
    t = next(f for f in figures if f.name == target)
    alien_side = ("alien", "master_alien")
    steps: list[Step] = []
    if t.side in alien_side:
        group, who = alien_side, "aliens"
    elif rulings.reading("area_healing_allies") == "agents_npcs_drones":
        group, who = ("agent", "npc", "drone"), "agents, NPCs and drones"
    else:
        group, who = ("agent",), "agents"
    healed = [f for f in figures if (f.name == target and f.side in group + ("agent",) + alien_side)
              or (f.area == t.area and f.side in group)]
    if t.side in ("npc", "drone") and t not in healed:
        rule, what = ((S.NPC_HEALTH, "an NPC cannot be healed with normal healing weapons, powers or items") if
                      t.side == "npc" else (S.DEVICES, "a drone (Vigil 9.7.4.2, GD-5 9.7.4.3) cannot be healed with "
                                                       "standard healing powers"))
        steps.append(Step(f"{target} is not healed: {what}", rule, "Area Healing (8.5) is read as such a healing "
                          "(ruling area_healing_allies = agents_only); it still reaches the other agents in the "
                          "target's Area.", section=sec, marks=(target,), facts={"not_healed": target}))
    skipped = [f.name for f in figures if f.area == t.area and f not in healed]
    steps.append(Step(f"Healing {heal} on {target} reaches every other {who[:-1]} in Area {t.area}: "
                      f"{', '.join(f.name for f in healed) or 'no one'}", S.AREA_HEALING,
                      (f"Not healed in the same Area: {', '.join(skipped)}." if skipped else ""), section=sec,
                      marks=[f.name for f in healed], facts={"healed": [f.name for f in healed]}))
    out = {f.name: f.wounds for f in figures}
    for f in healed:
        out[f.name] = max(0, f.wounds - heal)
        steps.append(Step(f"{f.name}: {f.wounds} -> {plural(out[f.name], 'wound')}", S.AREA_HEALING, "", section=sec,
                          marks=(f.name,),
                          facts={"wounds": out[f.name]}))
    return out, [f.name for f in healed], steps


@dataclass(frozen=True)
class HealingOutcome(Outcome):
    """The typed outcome of a ``healing`` scenario: every figure's wounds after (scenario order) and who was
    healed."""

    wounds: tuple[tuple[str, int], ...]
    healed: tuple[str, ...]

    @property
    def summary(self) -> str:
        return f"Healed: {', '.join(self.healed)}"

    def to_json(self) -> dict:
        return {"wounds": dict(self.wounds), "healed": list(self.healed), "summary": self.summary}


@dataclass(frozen=True)
class HealingState:
    """Every figure's wounds (scenario order) and the figures healed."""

    wounds: tuple[tuple[str, int], ...] = ()
    healed: tuple[str, ...] = ()


@dataclass(frozen=True)
class HealingContext(Context):
    """What Area Healing reads: the scenario (figures, target, healing)."""

    scenario: HealingScenario | None = None


def heal_area(state: HealingState, ctx: HealingContext) -> tuple[HealingState, tuple[Step, ...]]:
    """8.5 Area Healing: the target and every figure of its kind in its Area heal."""
    sc = ctx.scenario
    wounds, healed, st = area_healing(sc.figures, sc.target, sc.heal, ctx.rulings)
    return HealingState(tuple(wounds.items()), tuple(healed)), tuple(st)


HEALING_SEQUENCE = (("Area Healing", heal_area),)
"""A ``healing`` scenario: Area Healing (8.5)."""


def resolve_healing(scenario: HealingScenario, rulings: Mapping[str, str] | None = None,
                    seed: int | None = None) -> Trace:
    """Area Healing (:data:`HEALING_SEQUENCE`).

    Returns:
        A :class:`Trace` whose ``result`` is a :class:`HealingOutcome` (``outcome``: ``{"wounds": {name: wounds
        after}, "healed": [name], "summary"}``).
    """
    r = make_rulings({**scenario.rulings, **dict(rulings or {})})
    frames = play(HealingState(), HEALING_SEQUENCE, HealingContext(rulings=r, scenario=scenario))
    last = frames[-1].state
    return trace_of(scenario.title, frames, r.consulted).with_result(HealingOutcome(last.wounds, last.healed))


# ================================================================================================ 10.1.2 NPC Assignment

MAX_NPCS_IN_PLAY = 5
"""10.1.2: never more than five NPCs in play."""


class NpcPlayer(Strict):
    name: Name
    npc_cards: int = Field(0, ge=0, le=5)


class NpcAssignmentScenario(GdScenarioHeader):
    """A validated ``npc_assignment`` scenario."""

    kind: Literal["npc_assignment"] = "npc_assignment"
    cause: Literal["npc_signal", "event", "mission"] = "npc_signal"
    players: list[NpcPlayer] = Field(min_length=1, max_length=6)
    specialist: Name | None = None
    npcs_in_play: int | None = Field(None, ge=0, le=MAX_NPCS_IN_PLAY)


def parse_npc_assignment(data: dict, source: str) -> NpcAssignmentScenario:
    """Validate an ``npc_assignment`` scenario.

    Raises:
        ScenarioError: duplicate player names; a ``specialist`` who is not a listed player; fewer NPCs in play
            than NPC cards assigned.
    """
    sc = validate(NpcAssignmentScenario, data, source)
    _check_rulings(sc, source)
    names = [p.name for p in sc.players]
    _unique(names, "players", source)
    if sc.specialist is not None and sc.specialist not in names:
        raise ScenarioError("specialist", f"no player named {sc.specialist!r}", names, source)
    held = sum(p.npc_cards for p in sc.players)
    if sc.npcs_in_play is not None and sc.npcs_in_play < held:
        raise ScenarioError("npcs_in_play", f"{sc.npcs_in_play} NPCs in play but {held} NPC cards assigned",
                            f"{held} to {MAX_NPCS_IN_PLAY}", source)
    if sc.npcs_in_play is None and held > MAX_NPCS_IN_PLAY:
        raise ScenarioError("players", f"{held} NPC cards assigned", f"at most {MAX_NPCS_IN_PLAY} NPCs in play",
                            source)
    return sc


def assign_npc(players: Sequence[NpcPlayer], specialist: str | None, in_play: int
               ) -> tuple[str | None, list[Step]]:
    """10.1.2 NPC Assignment: with five NPCs in play nothing enters; a player specialized in NPCs may be given
    every NPC by the Alpha Agent; else the first player clockwise from the Alpha Agent (``players[0]``) who has no
    NPC card, or fewer than the others, gets it; on a tie (everyone holds as many) the Alpha Agent does. Returns
    ``(the player, or None when no NPC enters, steps)``."""
    sec = "NPC Assignment"
    counts = ", ".join(f"{p.name} {p.npc_cards}" for p in players)
    if in_play >= MAX_NPCS_IN_PLAY:
        return None, [Step(f"{in_play} NPCs are in play: no NPC enters, the signal is only discarded",
                           S.NPC_ASSIGNMENT, "There can never be more than five NPCs in play.", section=sec,
                           facts={"assigned_to": None})]
    if specialist is not None:
        return specialist, [Step(f"The Alpha Agent assigns the NPC card to {specialist}, specialized in NPCs",
                                 S.NPC_ASSIGNMENT, "The Alpha Agent may give every NPC to a player whose powers "
                                 "and items specialize in them.", section=sec, marks=(specialist,),
                                 facts={"assigned_to": specialist})]
    most = max(p.npc_cards for p in players)
    for p in players:
        if p.npc_cards == 0 or p.npc_cards < most:
            why = "has no NPC card" if p.npc_cards == 0 else f"has fewer NPC cards ({p.npc_cards}) than others"
            return p.name, [Step(f"{p.name} gets the NPC card: the first player clockwise from the Alpha Agent who "
                                 f"{why}", S.NPC_ASSIGNMENT, f"NPC cards held, clockwise from the Alpha Agent: "
                                 f"{counts}.", section=sec, marks=(p.name,), facts={"assigned_to": p.name})]
    alpha = players[0].name
    return alpha, [Step(f"Tie: every player holds {plural(most, 'NPC card')}; the Alpha Agent, {alpha}, gets it",
                        S.NPC_ASSIGNMENT, f"NPC cards held, clockwise from the Alpha Agent: {counts}.", section=sec,
                        marks=(alpha,), facts={"assigned_to": alpha})]


@dataclass(frozen=True)
class NpcAssignmentOutcome(Outcome):
    """The typed outcome of an ``npc_assignment`` scenario: the player who gets the new NPC card (``None``: no NPC
    enters) and the NPC cards each player holds afterwards."""

    assigned_to: str | None
    cards: tuple[tuple[str, int], ...]

    @property
    def summary(self) -> str:
        if self.assigned_to is None:
            return "No NPC enters play (five are already in play)"
        return f"The new NPC card goes to {self.assigned_to}"

    def to_json(self) -> dict:
        return {"assigned_to": self.assigned_to, "cards": dict(self.cards), "summary": self.summary}


@dataclass(frozen=True)
class NpcAssignmentState:
    """The assignment between steps: the player chosen (``None``: none yet, or no NPC enters)."""

    assigned_to: str | None = None


@dataclass(frozen=True)
class NpcAssignmentContext(Context):
    """What the assignment steps read: the scenario (players clockwise from the Alpha Agent, NPC cards held)."""

    scenario: NpcAssignmentScenario | None = None


def npc_arrives(state: NpcAssignmentState, ctx: NpcAssignmentContext) -> tuple[NpcAssignmentState,
                                                                                tuple[Step, ...]]:
    """11.10.1 NPC Signals / 10.1.1 NPC Deck: a revealed NPC signal (or an Event, or the mission) brings a new
    NPC; the Alpha Agent draws the top card of the NPC deck."""
    sc = ctx.scenario
    what = {"npc_signal": ("An NPC signal is revealed: it is replaced with a new NPC", S.NPC_SIGNALS),
            "event": ("An Event card brings a new NPC", S.NPC_ASSIGNMENT),
            "mission": ("The mission brings a new NPC", S.NPC_ASSIGNMENT)}[sc.cause]
    return state, (Step(what[0], what[1], f"The Alpha Agent ({sc.players[0].name}) draws the top card of the NPC "
                        "deck and takes its figure; the card is then assigned to a player.", section="New NPC"),)


def assign_npc_card(state: NpcAssignmentState, ctx: NpcAssignmentContext) -> tuple[NpcAssignmentState,
                                                                                   tuple[Step, ...]]:
    """10.1.2 NPC Assignment (:func:`assign_npc`)."""
    sc = ctx.scenario
    in_play = sc.npcs_in_play if sc.npcs_in_play is not None else sum(p.npc_cards for p in sc.players)
    who, st = assign_npc(sc.players, sc.specialist, in_play)
    return replace(state, assigned_to=who), tuple(st)


NPC_ASSIGNMENT_SEQUENCE = (("New NPC", npc_arrives), ("NPC Assignment", assign_npc_card))
"""An ``npc_assignment`` scenario: the new NPC (11.10.1), then who controls it (10.1.2)."""


def resolve_npc_assignment(scenario: NpcAssignmentScenario, rulings: Mapping[str, str] | None = None,
                           seed: int | None = None) -> Trace:
    """Who gets a new NPC card (:data:`NPC_ASSIGNMENT_SEQUENCE`).

    Returns:
        A :class:`Trace` whose ``result`` is an :class:`NpcAssignmentOutcome` (``outcome``: ``{"assigned_to": name
        or None, "cards": {name: NPC cards after}, "summary"}``).
    """
    r = make_rulings({**scenario.rulings, **dict(rulings or {})})
    frames = play(NpcAssignmentState(), NPC_ASSIGNMENT_SEQUENCE, NpcAssignmentContext(rulings=r, scenario=scenario))
    who = frames[-1].state.assigned_to
    cards = tuple((p.name, p.npc_cards + (p.name == who)) for p in scenario.players)
    return trace_of(scenario.title, frames, r.consulted).with_result(NpcAssignmentOutcome(who, cards))


__all__ = ["Menace", "assign_npc", "aliens_to_activate", "area_healing", "master_alien_enters", "master_alien_wounded",
           "menace_action", "rank_roll", "select_aliens", "selection_order", "signals_to_teleport", "wings_odds"]
