"""Storybook missions: objectives with a deadline, the first matching row, special event card effects and the
missions' Event-phase special rules.

Sections: Storybook 2.3 Special Mission Rules (they supersede the normal rules: skip or replace the Event phase,
ignore Signal effects, a Stage I Master Alien that fights on), 2.4 Objectives (the DEADLINE in Events/rounds; the
check is the last step of the Strategy phase; the result is the first matching row from the top; a row "at the end of
the mission" needs the mission played to its DEADLINE), 2.5 Special Event Card Effects (the column depends on the
previous mission's result; a standalone mission always reads the leftmost column, Storybook 4), 6.3 Event Phase.

The six missions are data (``card_data/missions.toml``: objectives rows and their conditions, what ends the mission,
special events, Event-phase rules); the number of Event cards and the special events' letters and campaign columns
are not in the Storybook's text and are marked there as stand-ins. A scenario says what the battlefield counts at
each round (the mission counters: FLAME tokens, armed probes, dead agents...), and which Event card each Event phase
draws; the engine plays each round's Strategy-phase check and Event phase.

Scenario kind ``mission`` (TOML)::

    game = "galaxydefenders"
    kind = "mission"
    title = "..."
    mission = 1                          # a Storybook mission (1-6) from card_data/missions.toml
    previous = "standalone"              # standalone | accomplished | partial | failed (2.5 column; Storybook 4)
    agents = 4                           # agents in play (1-6)
    deadline = 8                         # optional: Event cards before the end (overrides the stand-in count)
    [[special_events]]                   # optional: replaces (same letter) or adds a special event of the mission
    card = "A"
    effects = [{text = "...", add = { flames = 1 }}]        # the leftmost (standalone) column
    accomplished = [{text = "..."}]      # optional: the statement read after an accomplished previous mission
    partial = [{text = "..."}]           # optional: ... after a partially accomplished one
    [[rounds]]                           # one per round, in order (at most 30)
    counters = { flames = 1 }            # the counters as the Agents' and Aliens' phases leave them (only changes)
    event = "A"                          # the Event card its Event phase draws: a special event letter, or "" (a
                                         #   standard Event card, not modelled here)

Checks: each counter within the mission's bounds (``most``) at load; while playing, a counter's rise and a special
event against what the text requires (``needs``: earlier special events, counters), a special event the text puts
"on top of the Events deck" drawn in the round its condition comes true (``on_top``: Mission 4's B, Mission 5's A,
Mission 6's A and D; such a card takes no place in the deck's numbering nor its DEADLINE), and each special event at
the Event card number (or span) the mission's "Event deck" line gives (``positions``; Mission 4: Storybook 2.2's
example; a position refusal cites Storybook 2.2, since Storybook 7 builds each mission's Events deck from the stacks on
its setup page); refusals are one-line
:class:`~explorer.errors.RuleViolation` naming ``rounds[i].counters.<name>`` or ``rounds[i].event``.

Outcome: the mission status (accomplished / partial / failed, or ``None`` while it goes on), the row that matched
(its number from the top), the next mission, the rounds played and the Event cards drawn.
"""

from __future__ import annotations

import math
import operator
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field

from explorer.errors import RuleViolation, ScenarioError
from explorer.kernel import Context, Each, Outcome, play, trace_of
from explorer.scenario import validate
from explorer.schema import MAX_TITLE, Strict
from explorer.text import join_words, plural
from explorer.trace import Step, Trace

from . import sections as S
from .header import GdScenarioHeader
from .options import rulings as make_rulings

MISSIONS_FILE = Path(__file__).parent / "card_data" / "missions.toml"
"""The six Storybook missions as data (partly a stand-in: see the file's header)."""
MAX_ROUNDS = 30
"""Rounds in one ``mission`` scenario."""
MAX_COUNTER = 99
"""Largest value of a mission counter."""

CounterName = Annotated[str, Field(min_length=1, max_length=40, pattern=r"^[a-z][a-z0-9_]*$")]
Status = Literal["accomplished", "partial", "failed"]
OPS = {"<": operator.lt, "<=": operator.le, "==": operator.eq, ">=": operator.ge, ">": operator.gt}
STATUS_WORDS = {"accomplished": "Mission Accomplished", "partial": "Mission Partially Accomplished",
                "failed": "Mission Failed"}


# ------------------------------------------------------------------------------------------------ data model

class Clause(Strict):
    """``counter op value``; ``value`` a whole number, ``"agents"`` or ``"half_agents"`` (rounded up)."""

    counter: CounterName
    op: Literal["<", "<=", "==", ">=", ">"]
    value: Annotated[int, Field(ge=0, le=MAX_COUNTER)] | Literal["agents", "half_agents"]
    at_end: bool = False


Condition = Annotated[list[Annotated[list[Clause], Field(min_length=1, max_length=6)]],
                      Field(min_length=1, max_length=4)]


class ObjectiveRow(Strict):
    """One row of a mission's Objectives table (2.4)."""

    status: Status
    text: str = Field(min_length=1, max_length=200)
    next: str = Field(min_length=1, max_length=60)
    at_end: bool = False
    when: Condition


class EffectLine(Strict):
    """One special event effect: its text (paraphrased), counter changes, ``tag`` ``"signals"`` for effects that
    teleport or move Signals, ``every_event_phase`` for an effect added to each later Event phase, ``cap``."""

    text: str = Field(min_length=1, max_length=300)
    add: dict[CounterName, Annotated[int, Field(ge=-MAX_COUNTER, le=MAX_COUNTER)]] = Field(default_factory=dict,
                                                                                             max_length=6)
    cap: dict[CounterName, Annotated[int, Field(ge=0, le=MAX_COUNTER)]] = Field(default_factory=dict, max_length=6)
    tag: Literal["", "signals"] = ""
    every_event_phase: bool = False


class SpecialEvent(Strict):
    """A SPECIAL EVENT card's effects (2.5): the standalone (leftmost) column, and optionally the columns read when
    the previous mission was accomplished / partially accomplished."""

    card: str = Field(min_length=1, max_length=2, pattern=r"^[A-Z][0-9]?$")
    stand_in: bool = False
    effects: list[EffectLine] = Field(min_length=1, max_length=12)
    accomplished: list[EffectLine] | None = Field(None, max_length=12)
    partial: list[EffectLine] | None = Field(None, max_length=12)


class MissionRule(Strict):
    """An Event-phase special mission rule (2.3)."""

    kind: Literal["skip_event_phase", "replace_event_phase", "ignore_signal_effects", "keeps_fighting"]
    text: str = Field(min_length=1, max_length=300)
    until: Condition | None = None
    effects: list[EffectLine] = Field(default_factory=list, max_length=6)


class Need(Strict):
    """What a mission's text requires before a counter may rise, or before a special event may be drawn:
    ``counter`` (its declared value rises) or ``event`` (the letter drawn), the special events drawn in an EARLIER
    round (``after``: an action a card brings in "starting with the next round"), the counters that must hold
    (``needs``), the rule in one paraphrased line (``text``) and the section that decides (``cite``: ``rules``
    Storybook 2.3, ``events`` 2.5)."""

    counter: CounterName | None = None
    above: int = Field(0, ge=0, le=MAX_COUNTER)
    falls: bool = False
    """The check is on the counter's FALL (not its rise): Mission 4's agents entering the alien base."""
    excused_by: CounterName | None = None
    """A fall matched by this counter's rise in the same round (dead agents) needs only the ruling ``ruling``'s
    reading ``not_counted`` (a dead agent is no longer counted), not ``needs``."""
    ruling: str | None = Field(None, max_length=40)
    early: bool = False
    on_top: bool = False
    """``event`` goes on top of the Events deck once ``needs`` holds: the next Event phase draws it (a card put on
    top is not one of the deck's numbered places, ``positions``, nor of its DEADLINE)."""
    event: str | None = Field(None, min_length=1, max_length=2, pattern=r"^[A-Z][0-9]?$")
    after: list[Annotated[str, Field(min_length=1, max_length=2)]] = Field(default_factory=list, max_length=4)
    needs: Condition | None = None
    text: str = Field(min_length=1, max_length=200)
    cite: Literal["rules", "events"] = "rules"
    stand_in: bool = False


class MissionData(Strict):
    """A Storybook mission: objectives rows in printed order, what ends it (``last_event`` or a special event
    letter), the stand-in ``deadline`` (Event cards), its counters (and their ``start`` values, 0 otherwise),
    each counter's largest value (``most``: a number or ``"agents"``; the smallest is 0), the Event card number
    each special event is drawn at when the text fixes it (``positions``: a number, or ``[first, last]``), what a
    counter's rise (or fall) or a special event needs (``needs``; ``on_top``: the card goes on top of the Events deck
    when its condition holds), special events and Event-phase rules."""

    id: int = Field(ge=1, le=6)
    title: str = Field(min_length=1, max_length=80)
    deadline: int = Field(ge=1, le=MAX_ROUNDS)
    deadline_source: str = Field("", max_length=120)
    """Where the deck's size is read when it is not a stand-in (Mission 4: Storybook 2.2's example)."""
    ends: str = Field(min_length=1, max_length=20)
    counters: list[CounterName] = Field(min_length=1, max_length=8)
    start: dict[CounterName, Annotated[int, Field(ge=0, le=MAX_COUNTER)] | Literal["agents"]] = Field(
        default_factory=dict, max_length=8)
    most: dict[CounterName, Annotated[int, Field(ge=0, le=MAX_COUNTER)] | Literal["agents"]] = Field(
        max_length=8)
    positions: dict[Annotated[str, Field(min_length=1, max_length=2)],
                    Annotated[int, Field(ge=1, le=MAX_ROUNDS)]
                    | Annotated[list[Annotated[int, Field(ge=1, le=MAX_ROUNDS)]], Field(min_length=2, max_length=2)]
                    ] = Field(default_factory=dict, max_length=8)
    positions_text: str = Field("", max_length=200)
    positions_stand_in: bool = False
    """The ``positions`` are a STAND-IN (Missions 5 and 6: the text gives no position; the setup page, a picture,
    builds the deck): refusals and the setup step say so."""
    positions_cite: Literal["events", "setup"] = "events"
    """The section a position refusal cites: ``setup`` Storybook 2.2 (Missions 1-4: Storybook 7 builds each mission's
    Events deck from the stacks on its setup page, and 2.2's printed example builds Mission 4's), ``events``
    Storybook 2.5 (the default, left on the STAND-IN positions of Missions 5 and 6)."""
    never_fall: list[CounterName] = Field(default_factory=list, max_length=8)
    """Counters that count something that cannot come back (a destroyed Shield Generator, a dead agent, a revealed
    waypoint): a round that lowers one is refused."""
    needs: list[Need] = Field(default_factory=list, max_length=8)
    objectives: list[ObjectiveRow] = Field(min_length=1, max_length=6)
    special_events: list[SpecialEvent] = Field(default_factory=list, max_length=8)
    rules: list[MissionRule] = Field(default_factory=list, max_length=6)

    def span(self, card: str) -> tuple[int, int]:
        """The Event card numbers ``(first, last)`` at which ``card`` may be drawn (``positions``: one number, or
        ``[first, last]`` for a card shuffled into a small stack with standard cards, Storybook 2.2)."""
        v = self.positions[card]
        return (v, v) if isinstance(v, int) else (v[0], v[1])

    def on_top(self) -> frozenset[str]:
        """The special events the text puts on top of the Events deck when a condition holds (2.3, 2.5)."""
        return frozenset(n.event for n in self.needs if n.on_top)

    def bound(self, counter: str, agents: int) -> int:
        """The largest value ``counter`` may take with ``agents`` agents in play."""
        v = self.most[counter]
        return agents if v == "agents" else v


class MissionsFile(Strict):
    missions: list[MissionData] = Field(min_length=1, max_length=12)


@lru_cache(maxsize=1)
def storybook_missions() -> dict[int, MissionData]:
    """``{mission number: MissionData}`` from :data:`MISSIONS_FILE`.

    Raises:
        ScenarioError: the file does not validate (names the file and the field).
    """
    data = validate(MissionsFile, tomllib.loads(MISSIONS_FILE.read_text(encoding="utf-8")), str(MISSIONS_FILE))
    for m in data.missions:
        _check_mission(m, str(MISSIONS_FILE), f"missions[{m.id - 1}].")
    return {m.id: m for m in data.missions}


def _check_mission(m: MissionData, source: str, prefix: str) -> None:
    known = set(m.counters)
    letters = [e.card for e in m.special_events]
    if set(m.most) != known:
        raise ScenarioError(f"{prefix}most", "each counter needs its largest value", sorted(known), source)
    for k in list(m.positions) + [n.event for n in m.needs if n.event] + [a for n in m.needs for a in n.after]:
        if k not in letters:
            raise ScenarioError(f"{prefix}positions", f"no special event {k!r}", letters, source)
    for i, n in enumerate(m.needs):
        if (n.counter is None) == (n.event is None) or (n.counter is not None and n.counter not in known):
            raise ScenarioError(f"{prefix}needs[{i}]", "names one mission counter or one special event",
                                sorted(known) + letters, source)
    for k in m.start:
        if k not in known:
            raise ScenarioError(f"{prefix}start.{k}", f"unknown counter {k!r}", sorted(known), source)
    for i, row in enumerate(m.objectives):
        for alt in row.when:
            for c in alt:
                if c.counter not in known:
                    raise ScenarioError(f"{prefix}objectives[{i}].when", f"unknown counter {c.counter!r}",
                                        sorted(known), source)
    for k in m.positions:
        if m.span(k)[0] > m.span(k)[1]:
            raise ScenarioError(f"{prefix}positions.{k}", "[first, last] with first <= last", "1..30", source)
    for i, n in enumerate(m.needs):
        if n.on_top and (n.event is None or n.needs is None or n.event in m.positions):
            raise ScenarioError(f"{prefix}needs[{i}].on_top", "a special event with a condition and no position",
                                letters, source)
        if n.falls and n.counter is None:
            raise ScenarioError(f"{prefix}needs[{i}].falls", "a counter's fall", sorted(known), source)
        if n.excused_by is not None and (n.excused_by not in known or not n.falls or n.ruling is None):
            raise ScenarioError(f"{prefix}needs[{i}].excused_by", "a mission counter, on a fall, with a ruling",
                                sorted(known), source)
    if m.ends != "last_event" and m.ends not in letters:
        raise ScenarioError(f"{prefix}ends", f"no special event {m.ends!r}", ["last_event"] + letters, source)
    if len(set(letters)) != len(letters):
        raise ScenarioError(f"{prefix}special_events", "a card letter is listed twice", "each letter once", source)


class RoundModel(Strict):
    counters: dict[CounterName, Annotated[int, Field(ge=0, le=MAX_COUNTER)]] = Field(default_factory=dict,
                                                                                       max_length=8)
    event: str = Field("", max_length=2)


class MissionScenario(GdScenarioHeader):
    """A validated ``mission`` scenario (see the module docstring)."""

    kind: Literal["mission"] = "mission"
    title: str = Field("Mission", max_length=MAX_TITLE)
    mission: int = Field(ge=1, le=6)
    previous: Literal["standalone", "accomplished", "partial", "failed"] = "standalone"
    agents: int = Field(4, ge=1, le=6)
    deadline: int | None = Field(None, ge=1, le=MAX_ROUNDS)
    special_events: list[SpecialEvent] = Field(default_factory=list, max_length=8)
    rounds: list[RoundModel] = Field(min_length=1, max_length=MAX_ROUNDS)


def special_events(m: MissionData, sc: "MissionScenario") -> list[SpecialEvent]:
    """The mission's special events, each replaced by the scenario's row with the same letter (or added)."""
    own = {e.card: e for e in sc.special_events}
    return [own.pop(e.card, e) for e in m.special_events] + list(own.values())


def parse_mission(data: dict, source: str) -> MissionScenario:
    """Validate a ``mission`` scenario.

    Raises:
        ScenarioError: a field out of bounds or unknown; a counter the mission does not keep; an Event card letter
            the mission has no special event for; unknown ruling keys. (A special event drawn twice is refused while
            the rounds play, at its second draw, so that a card drawn too early is first reported as drawn too
            early, naming that round's ``event``.)
    """
    sc = validate(MissionScenario, data, source)
    m = storybook_missions()[sc.mission]
    letters = [e.card for e in special_events(m, sc)]
    given = [e.card for e in sc.special_events]
    if len(set(given)) != len(given):
        raise ScenarioError("special_events", "a card letter is listed twice", "each letter once", source)
    for i, e in enumerate(sc.special_events):
        for j, line in enumerate(list(e.effects) + list(e.accomplished or []) + list(e.partial or [])):
            for k in list(line.add) + list(line.cap):
                if k not in m.counters:
                    raise ScenarioError(f"special_events[{i}]", f"mission {m.id} keeps no counter {k!r}",
                                        m.counters, source)
    for i, r in enumerate(sc.rounds):
        for k in r.counters:
            if k not in m.counters:
                raise ScenarioError(f"rounds[{i}].counters.{k}", f"mission {m.id} keeps no counter {k!r}",
                                    m.counters, source)
            if r.counters[k] > m.bound(k, sc.agents):
                raise ScenarioError(f"rounds[{i}].counters.{k}", f"{r.counters[k]} is more than mission {m.id} "
                                    f"allows", f"0..{m.bound(k, sc.agents)}", source)
        if r.event and r.event not in letters:
            raise ScenarioError(f"rounds[{i}].event", f"mission {m.id} has no special event {r.event!r}",
                                [""] + letters, source)
    try:
        make_rulings(sc.rulings)
    except ScenarioError as e:
        raise ScenarioError("rulings" + (f".{e.field}" if e.field else ""), e.problem, e.allowed, source) from None
    return sc


# ------------------------------------------------------------------------------------------------ state

@dataclass(frozen=True)
class MissionState:
    """The mission between steps (immutable).

    Attributes:
        round: the round being played (from 1; 0 before the first).
        counters: ``((name, value), ...)`` in the mission's counter order.
        events: the Event cards drawn so far (a letter, or ``"-"`` for a standard Event card).
        recurring: special event effects added to each later Event phase (2.5).
        status: the mission result once a row matched (``None`` while it goes on); ``row``: its number from 1.
        ended: the DEADLINE was reached (the Strategy phase after it ends the mission).
        numbers: the rounds the scenario declares, from 1.
    """

    round: int = 0
    counters: tuple[tuple[str, int], ...] = ()
    events: tuple[str, ...] = ()
    recurring: tuple[EffectLine, ...] = ()
    status: str | None = None
    row: int | None = None
    next: str | None = None
    ended: bool = False
    numbers: tuple[int, ...] = ()

    def value(self, name: str) -> int:
        return dict(self.counters).get(name, 0)

    def with_counters(self, changes: Mapping[str, int]) -> "MissionState":
        return replace(self, counters=tuple((k, changes.get(k, v)) for k, v in self.counters))


@dataclass(frozen=True)
class MissionContext(Context):
    """What the mission steps read: the ``mission`` data, the ``scenario`` (rounds, agents, previous result) and
    the ``deadline`` in Event cards."""

    mission: MissionData | None = None
    scenario: MissionScenario | None = None
    deadline: int = 1
    source: str | None = None
    where: str = ""
    """The field prefix of the round's declarations in refusals (``""``: ``rounds[i].``)."""

    def field(self, round_number: int, name: str) -> str:
        return f"{self.where or f'rounds[{round_number - 1}].'}{name}"


# ------------------------------------------------------------------------------------------------ rule functions

def clause_holds(c: Clause, state: MissionState, agents: int, at_end: bool) -> bool:
    """One clause on the counters (``half_agents``: half the agents, rounded up; ``at_end`` clauses need the
    Strategy phase that ends the mission, 2.4 Note)."""
    if c.at_end and not at_end:
        return False
    v = agents if c.value == "agents" else math.ceil(agents / 2) if c.value == "half_agents" else c.value
    return OPS[c.op](state.value(c.counter), v)


def condition_holds(cond, state: MissionState, agents: int, at_end: bool) -> bool:
    """A condition: any alternative whose clauses all hold."""
    return any(all(clause_holds(c, state, agents, at_end) for c in alt) for alt in cond)


def clause_text(c: Clause) -> str:
    return f"{c.counter} {c.op} {c.value}" + (" at the end" if c.at_end else "")


def condition_text(cond) -> str:
    return join_words((" and ".join(clause_text(c) for c in alt) for alt in cond), "or")


def first_matching_row(mission: MissionData, state: MissionState, agents: int, at_end: bool
                       ) -> tuple[int | None, list[str]]:
    """2.4: the first row, from the top, whose condition holds (rows "at the end of the mission" only when it ends);
    returns ``(row index or None, why each row before it did not match)``."""
    why = []
    for i, row in enumerate(mission.objectives):
        if row.at_end and not at_end:
            why.append(f"row {i + 1} needs the end of the mission")
            continue
        if condition_holds(row.when, state, agents, at_end):
            return i, why
        why.append(f"row {i + 1} does not match ({condition_text(row.when)})")
    return None, why


def event_column(event: SpecialEvent, previous: str, rulings=None) -> tuple[list[EffectLine], str]:
    """2.5 / Storybook 4: the effects to apply: the leftmost column for a standalone mission; after an accomplished
    or partially accomplished mission, the statement for that result when the card has one, instead of the
    leftmost column or after it (ruling ``special_event_statement``, consulted only then); the leftmost column
    otherwise (a failed previous mission, or no statement)."""
    statement = {"accomplished": event.accomplished, "partial": event.partial}.get(previous)
    if statement is not None:
        word = {"accomplished": "ACCOMPLISHED", "partial": "PARTIALLY ACCOMPLISHED"}[previous]
        if rulings is not None and rulings.reading("special_event_statement") == "adds":
            return list(event.effects) + list(statement), (f"the leftmost column, then the statement for a previous "
                                                           f"mission {word} (ruling special_event_statement)")
        return statement, f"the statement for a previous mission {word}" + (
            " (ruling special_event_statement)" if rulings is not None else "")
    if previous == "standalone":
        return event.effects, "the leftmost column (standalone mission)"
    return event.effects, "the leftmost column (the card has no column for this previous result)"


def apply_effect(state: MissionState, e: EffectLine, ctx: MissionContext, sec: str, how: str,
                 rule=S.SPECIAL_EVENT_EFFECTS) -> tuple[MissionState, list[Step]]:
    """One effect line: skipped when it moves Signals and the mission ignores such effects (Mission 6), else its
    counter changes (capped) are applied. ``rule``: the section whose effect it is (2.5 for a special event's, 2.3
    for a special mission rule's own effects: Mission 3's replaced Event phase)."""
    if e.tag == "signals" and any(r.kind == "ignore_signal_effects" for r in ctx.mission.rules):
        return state, [Step(f"Ignored: {e.text}", S.SPECIAL_MISSION_RULES, "This mission ignores every effect that "
                            "teleports or moves Signals in the Event phase.", section=sec, facts={"ignored": True})]
    changes = {}
    for k, d in e.add.items():
        old = state.value(k)
        top = min(e.cap.get(k, MAX_COUNTER), ctx.mission.bound(k, ctx.scenario.agents) if k in ctx.mission.most
                  else MAX_COUNTER)
        # an effect moves a counter its own way only, within the mission's bounds (never down for an add)
        new = max(old, min(old + d, top)) if d >= 0 else min(old, max(old + d, 0))
        changes[k] = new
    after = state.with_counters(changes)
    counts = "; ".join(f"{k} {state.value(k)} -> {after.value(k)}" for k in changes)
    return after, [Step(e.text + (f" ({counts})" if counts else ""), rule, how, section=sec,
                        facts={"counters": dict(changes)} if changes else {})]


ORDINALS = {1: "1st", 2: "2nd", 3: "3rd"}


def ordinal(n: int) -> str:
    return ORDINALS.get(n if n < 20 else n % 10, f"{n}th") if n % 100 not in (11, 12, 13) else f"{n}th"


def _need_rule(n: Need):
    return S.SPECIAL_MISSION_RULES if n.cite == "rules" else S.SPECIAL_EVENT_EFFECTS


def check_need(n: Need, state: MissionState, earlier: tuple[str, ...], ctx: MissionContext, field: str,
               what: str) -> None:
    """Refuse ``what`` (a counter's rise or a special event) unless the special events ``n.after`` were drawn in an
    earlier round (``earlier``) and ``n.needs`` holds on ``state``.

    Raises:
        RuleViolation: naming ``field``, the rule's text and its section (Storybook 2.3 or 2.5).
    """
    missing = [a for a in n.after if a not in earlier]
    if missing:
        raise RuleViolation(f"{what} needs Special Event {join_words(missing, 'and')} drawn in an earlier round "
                            f"({n.text})", _need_rule(n), field=field, step=f"Round {state.round}",
                            source=ctx.source)
    if n.needs is not None and not condition_holds(n.needs, state, ctx.scenario.agents, False):
        raise RuleViolation(f"{what} needs {condition_text(n.needs)} ({n.text})", _need_rule(n), field=field,
                            step=f"Round {state.round}", source=ctx.source)


def excused(n: Need, before: MissionState, after: MissionState, ctx: MissionContext, number: int) -> bool:
    """A counter's fall that ``n.needs`` does not allow, matched by the rise of ``n.excused_by`` (Mission 4: agents
    who died outside the alien base): allowed when the ruling ``n.ruling`` reads ``not_counted``, refused when it
    reads ``counted``; the ruling is consulted only for such a fall. ``False`` when the need holds or nothing
    excuses the fall (the need's own check then decides).

    Raises:
        RuleViolation: the fall is excused only by dead agents and the ruling counts them (Storybook 2.4).
    """
    k = n.counter
    fall = before.value(k) - after.value(k)
    if n.excused_by is None or n.ruling is None or fall <= 0 or (
            n.needs is not None and condition_holds(n.needs, after, ctx.scenario.agents, False)):
        return False
    if after.value(n.excused_by) - before.value(n.excused_by) < fall:
        return False
    if ctx.rulings.reading(n.ruling) == "not_counted":
        return True
    raise RuleViolation(f"{k} {before.value(k)} -> {after.value(k)}: an agent who dies outside the alien base still "
                        f"counts as outside it (ruling {n.ruling} = counted; {n.text})", S.OBJECTIVES,
                        field=ctx.field(number, f"counters.{k}"), step=f"Round {after.round}", source=ctx.source)


def _edit_hint(m: MissionData) -> str:
    return "; edit positions in card_data/missions.toml" if m.positions_stand_in else ""


def _positions_rule(m: MissionData):
    return S.MISSION_SETUP if m.positions_cite == "setup" else S.SPECIAL_EVENT_EFFECTS


def deck_cards(m: MissionData, events: tuple[str, ...]) -> int:
    """The Event cards drawn from the Events deck itself: every card drawn but the special events put on top of it
    (``on_top``), which take no numbered place in the deck (Storybook 2.2)."""
    top = m.on_top()
    return sum(1 for e in events if e not in top)


def deck_numbers(m: MissionData, events: tuple[str, ...]) -> list[tuple[int, str]]:
    """``[(deck number, card), ...]`` for the cards drawn from the Events deck itself (the cards put on top take no
    number, Storybook 2.2)."""
    top = m.on_top()
    deck = [e for e in events if e not in top]
    return [(k, e) for k, e in enumerate(deck, 1)]


def first_drawn(ctx: MissionContext, card: str, now: int) -> str:
    """Where ``card`` was drawn before round ``now``, in the words of the scenario's fields: ``rounds[i].event``
    (round i + 1) for a ``mission`` scenario, ``mission.earlier`` (or the deck's places within ``mission.drawn``,
    :func:`drawn_before`) for a ``round`` scenario's ``[mission]``."""
    if ctx.where:
        return (f"before this round: {ctx.where}earlier lists it, or its place in the Events deck is within the "
                f"{ctx.where}drawn cards")
    for i, r in enumerate(ctx.scenario.rounds[:now - 1]):
        if r.event == card:
            return f"in round {i + 1}, rounds[{i}].event"
    return "before this round"


def pending_on_top(state: MissionState, ctx: MissionContext) -> list[Need]:
    """The special events put on top of the Events deck (their condition holds) and not drawn yet (2.3, 2.5)."""
    return [n for n in ctx.mission.needs if n.on_top and n.event not in state.events
            and condition_holds(n.needs, state, ctx.scenario.agents, False)]


def check_event_position(state: MissionState, ctx: MissionContext, card: str) -> None:
    """The Event card drawn this Event phase: a special event put on top of the Events deck is drawn first (its
    condition held and it was not drawn yet); else the deck's card number ``p`` (the cards drawn from the deck + 1,
    not counting the cards put on top) against the positions the mission's text fixes (Storybook 7, "Event deck"
    line, the deck built from the setup page's stacks, Storybook 2.2; 2.2's example for Mission 4): a special event
    only within its span, and the last number of a span only for that special event when it has not come yet (a
    refusal cites :attr:`MissionData.positions_cite`'s section; a card drawn twice, 2.5).

    Raises:
        RuleViolation: naming the round's ``event`` field and the values it may take at that point
            (:func:`allowed_events`).
    """
    try:
        _check_position(state, ctx, card)
    except RuleViolation as e:
        raise RuleViolation(e.reason, e.rule, field=e.rejection.field, step=e.step, source=ctx.source,
                            allowed=allowed_events(state, ctx)) from None


def allowed_events(state: MissionState, ctx: MissionContext) -> list[str]:
    """The values a round's ``event`` may take at this Event phase: ``""`` (a standard Event card) and the special
    event letters that :func:`check_event_position` accepts now, in the mission's order (every refusal lists them)."""
    out = []
    for c in [""] + [e.card for e in special_events(ctx.mission, ctx.scenario)]:
        try:
            _check_position(state, ctx, c)
        except RuleViolation:
            continue
        out.append(c)
    return out


def _check_position(state: MissionState, ctx: MissionContext, card: str) -> None:
    m = ctx.mission
    p = deck_cards(m, state.events) + 1
    field = ctx.field(state.round, "event")
    if card and card in state.events:
        raise RuleViolation(f"Special Event {card} was already drawn ({first_drawn(ctx, card, state.round)}); each "
                            "special event card is drawn once", S.SPECIAL_EVENT_EFFECTS, field=field,
                            step=f"Round {state.round}", source=ctx.source)
    pending = pending_on_top(state, ctx)
    if pending and card not in [n.event for n in pending]:
        n = pending[0]
        raise RuleViolation(f"this Event phase draws Special Event {n.event} (on top of the Events deck), not "
                            + (f"Special Event {card}" if card else "a standard Event card")
                            + f": {condition_text(n.needs)} holds, and {n.text[:1].lower()}{n.text[1:]}", _need_rule(n),
                            field=field, step=f"Round {state.round}", source=ctx.source)
    if card in m.on_top():
        for n in m.needs:
            if n.event == card:
                check_need(n, state, tuple(state.events), ctx, field, f"Special Event {card}")
        return
    spans = {k: m.span(k) for k in m.positions}
    at = {last: k for k, (first, last) in spans.items() if k not in state.events}
    early = [n for n in m.needs if n.event == card and n.early]
    if any(e in spans and spans[e][0] > k for k, e in deck_numbers(m, state.events)):
        at = {}                 # after an early draw the discarded cards leave the later positions unknown
    elif card in spans and p < spans[card][0] and early:
        check_need(early[0], state, state.events, ctx, field, f"Special Event {card} before its position")
        return
    elif card in spans and not spans[card][0] <= p <= spans[card][1]:
        first, last = spans[card]
        where = ordinal(first) if first == last else f"{ordinal(first)} to {ordinal(last)}"
        raise RuleViolation(f"Special Event {card} is the {where} Event card of mission {m.id}, "
                            f"this is the {ordinal(p)} ({m.positions_text}{_edit_hint(m)})", _positions_rule(m),
                            field=field,
                            step=f"Round {state.round}", source=ctx.source)
    if p in at and card != at[p]:
        raise RuleViolation(f"the {ordinal(p)} Event card of mission {m.id} is Special Event {at[p]}, not "
                            + (f"Special Event {card}" if card else "a standard Event card")
                            + f" ({m.positions_text}{_edit_hint(m)})", _positions_rule(m), field=field,
                            step=f"Round {state.round}", source=ctx.source)
    for n in m.needs:
        if n.event == card and not n.early:
            check_need(n, state, tuple(e for e in state.events), ctx, field, f"Special Event {card}")


# ------------------------------------------------------------------------------------------------ step functions

def round_numbers(state: MissionState) -> tuple[int, ...]:
    """The rounds the scenario declares, from 1 (the items of the per-round entry)."""
    return state.numbers


def strategy_phase_check(state: MissionState, ctx: MissionContext) -> tuple[MissionState, tuple[Step, ...]]:
    """2.4: the last step of the Strategy phase checks the Objectives table: the first matching row from the top
    decides; rows "at the end of the mission" only in the Strategy phase after the DEADLINE."""
    m, agents = ctx.mission, ctx.scenario.agents
    sec = f"Round {state.round}: Strategy phase" if not state.ended else "End of the mission: Strategy phase"
    i, why = first_matching_row(m, state, agents, state.ended)
    counts = ", ".join(f"{k} {v}" for k, v in state.counters)
    if i is None:
        if state.ended:
            return state, (Step("Objectives: no row matches at the end of the mission", S.OBJECTIVES,
                                f"Counters: {counts}. " + "; ".join(why) + ". The table should cover every end: "
                                "check the counters.", section=sec, facts={"row": None}),)
        return state, (Step("Objectives: no row matches yet, the mission goes on", S.OBJECTIVES,
                            f"Counters: {counts}. " + "; ".join(why) + ".", section=sec, facts={"row": None}),)
    row = m.objectives[i]
    new = replace(state, status=row.status, row=i + 1, next=row.next)
    return new, (Step(f"Objectives: row {i + 1} matches: {STATUS_WORDS[row.status]} (next mission: {row.next})",
                      S.OBJECTIVES, f"{row.text}. Counters: {counts}. The first matching row from the top decides"
                      + (f" ({'; '.join(why)})." if why else "."), section=sec,
                      facts={"row": i + 1, "status": row.status, "next": row.next}),)


def event_phase(state: MissionState, ctx: MissionContext, declared) -> tuple[MissionState, tuple[Step, ...]]:
    """6.3 Event Phase with the mission's rules (2.3): skipped, or replaced by the rule's effects, until its
    condition holds (from the mission's start: once an Event card was drawn the rule has ended); the Event phase
    that first meets it says so (a 2.3 step: it, not 2.5, decides that a card is drawn again); else the effects
    added to each Event phase, then the Event card drawn (a special event's column, 2.5); the DEADLINE is reached
    with the last Event card (or the mission's ending special event).

    Raises:
        RuleViolation: the round names an Event card (``event``) while the rule skips or replaces the Event phase
            (no card is drawn: allowed ``""``), or one :func:`check_event_position` refuses.
    """
    m, sc = ctx.mission, ctx.scenario
    sec = f"Round {state.round}: Event phase"
    steps: list[Step] = []
    for rule in m.rules:
        if rule.kind not in ("skip_event_phase", "replace_event_phase") or rule.until is None or state.events:
            continue        # an Event card drawn before: the rule ended then ("until" it holds, from the start)
        how = "skips" if rule.kind == "skip_event_phase" else "replaces"
        if condition_holds(rule.until, state, sc.agents, False):
            steps.append(Step(f"Mission {m.id}'s special rule no longer {how} the Event phase: "
                              f"{condition_text(rule.until)}; the top Event card is drawn as normal",
                              S.SPECIAL_MISSION_RULES, f"{rule.text}. It holds after this round's Battle phase, so "
                              "this Event phase draws and resolves the top Event card as normal (the rule "
                              "superseded 6.3 for this mission only until then).", section=sec,
                              facts={"rule_ended": rule.kind}))
            continue
        if declared.event:
            raise RuleViolation(f"this Event phase draws no Event card (not Special Event {declared.event}): "
                                f"mission {m.id}'s special rule {how} it ({rule.text}; not yet: "
                                f"{condition_text(rule.until)})", S.SPECIAL_MISSION_RULES,
                                field=ctx.field(state.round, "event"), step=f"Round {state.round}",
                                source=ctx.source, allowed=[""])
        if rule.kind == "skip_event_phase":
            return state, (Step("Event phase skipped: no Event card is drawn", S.SPECIAL_MISSION_RULES,
                                f"{rule.text} (not yet: {condition_text(rule.until)}).", section=sec,
                                facts={"skipped": True}),)
        steps.append(Step("No Event card is drawn: the mission's effects replace it", S.SPECIAL_MISSION_RULES,
                          f"{rule.text} (until {condition_text(rule.until)}).", section=sec,
                          facts={"replaced": True}))
        for e in rule.effects:
            state, st = apply_effect(state, e, ctx, sec, "The special mission rule's effect.",
                                     S.SPECIAL_MISSION_RULES)
            steps += st
        return state, tuple(steps)
    for e in state.recurring:
        state, st = apply_effect(state, e, ctx, sec, "A special event added this effect to each Event phase.")
        steps += st
    card = declared.event
    check_event_position(state, ctx, card)
    drawn = state.events + (card or "-",)
    if card:
        ev = next(e for e in special_events(m, sc) if e.card == card)
        lines, how = event_column(ev, sc.previous, ctx.rulings)
        steps.append(Step(f"Special Event {card} is drawn", S.SPECIAL_EVENT_EFFECTS,
                          f"Its effects from {how}." + (" Its letter and columns are a stand-in (the "
                                                        "Storybook's text does not give them)." if ev.stand_in
                                                        else ""),
                          section=sec, facts={"card": card, "stand_in": ev.stand_in}))
        rec = state.recurring
        for e in lines:
            if e.every_event_phase:
                rec += (e,)
                steps.append(Step(f"From the next round, each Event phase: {e.text[:1].lower()}{e.text[1:]}",
                                  S.SPECIAL_EVENT_EFFECTS,
                                  "", section=sec))
                continue
            state, st = apply_effect(state, e, ctx, sec, "")
            steps += st
        state = replace(state, recurring=rec)
    else:
        steps.append(Step("A standard Event card is drawn", S.EVENT_PHASE, "Its effects are not modelled here "
                          "(the event kind shows signals).", section=sec, facts={"card": None}))
    state = replace(state, events=drawn)
    last = card == m.ends if m.ends != "last_event" else deck_cards(m, drawn) >= ctx.deadline
    if last:
        state = replace(state, ended=True)
        what = "the last Event card" if m.ends == "last_event" else f"Special Event {m.ends}"
        steps.append(Step(f"DEADLINE: {what} is drawn ({plural(len(drawn), 'Event card')}); the mission ends in the "
                          "next Strategy phase", S.OBJECTIVES, "", section=sec, facts={"deadline": True}))
    return state, tuple(steps)


def mission_setup(ctx: MissionContext) -> list[Step]:
    """The mission's DEADLINE (2.4: a stand-in count of Event cards unless the scenario gives one) and its special
    rules in force (2.3)."""
    m, sc = ctx.mission, ctx.scenario
    sec = "Mission setup"
    what = ("the last Event card" if m.ends == "last_event" else f"Special Event {m.ends}")
    steps = [Step(f"Mission {m.id}, {m.title}: it ends in the Strategy phase after {what} is drawn", S.OBJECTIVES,
                  (f"The Events deck holds {plural(ctx.deadline, 'card')} here" + (
                      " (the scenario's count)." if sc.deadline else f" ({m.deadline_source})." if m.deadline_source
                      else " (a stand-in count: the deck is built on the setup page, not in the text).")
                   if m.ends == "last_event" else "The Events deck's size does not matter for this ending."),
                  section=sec, facts={"deadline": ctx.deadline, "ends": m.ends})]
    if m.positions_stand_in:
        steps.append(Step(f"Events deck: {m.positions_text}", _positions_rule(m), "The mission's text says only "
                          "that its special events appear based on the agents' behavior (the deck is built on the "
                          "setup page, a picture): these places are editable stand-ins in card_data/missions.toml, "
                          "checked as each Event card is drawn.", section=sec,
                          facts={"positions": {k: list(m.span(k)) for k in m.positions}, "stand_in": True}))
    for r in m.rules:
        steps.append(Step(f"Special rule: {r.text}", S.SPECIAL_MISSION_RULES, "It supersedes the normal rules for "
                          "this mission only.", section=sec, facts={"rule": r.kind}))
    return steps


def play_round(state: MissionState, ctx: MissionContext, number: int) -> tuple[MissionState, tuple[Step, ...]]:
    """One round: its Strategy-phase objectives check (from round 2: round 1's Strategy phase comes before any
    counter changed), the declared counters after the Agents' and Aliens' phases, then the Event phase."""
    declared = ctx.scenario.rounds[number - 1]
    state = replace(state, round=number)
    steps: list[Step] = []
    if number == 1:
        steps += mission_setup(ctx)
    if number > 1:
        state, st = strategy_phase_check(state, ctx)
        steps += st
        if state.status is not None:
            return state, tuple(steps)
    if declared.counters:
        changed = {k: v for k, v in declared.counters.items() if v != state.value(k)}
        if changed:
            steps.append(Step("Agents' and Aliens' phases: " + ", ".join(
                f"{k} {state.value(k)} -> {v}" for k, v in changed.items()), S.OBJECTIVES,
                "The counters the Objectives table reads, as the scenario declares them after the round's Agents' and "
                "Aliens' phases.",
                section=f"Round {number}: battlefield", facts={"counters": changed}))
        before = state
        for k, v in changed.items():
            if k in ctx.mission.never_fall and v < before.value(k):
                raise RuleViolation(f"{k} {before.value(k)} -> {v}: what this counter counts cannot come back",
                                    S.OBJECTIVES, field=ctx.field(number, f"counters.{k}"), step=f"Round {number}",
                                    source=ctx.source)
        state = state.with_counters(declared.counters)
        for k, v in changed.items():
            for n in ctx.mission.needs:
                if n.counter == k and (v < before.value(k) if n.falls else v > before.value(k) and v > n.above):
                    if not excused(n, before, state, ctx, number):
                        check_need(n, state, before.events, ctx, ctx.field(number, f"counters.{k}"),
                                   f"{k} {before.value(k)} -> {v}")
    state, st = event_phase(state, ctx, declared)
    return state, tuple(steps) + st


def mission_over(state: MissionState) -> bool:
    """The mission stops when a row matched or its DEADLINE passed."""
    return state.status is not None or state.ended


def final_strategy_phase(state: MissionState, ctx: MissionContext) -> tuple[MissionState, tuple[Step, ...]]:
    """The Strategy phase after the last round played: the mission ends there if the DEADLINE was reached (2.4);
    nothing when a row already matched."""
    if state.status is not None:
        return state, ()
    if not state.ended:
        st = strategy_phase_check(replace(state, round=state.round + 1), ctx)
        return replace(st[0], round=state.round), st[1] + ((Step("The scenario ends before the DEADLINE: the mission goes on", S.OBJECTIVES,
                                     "", section=f"Round {state.round + 1}: Strategy phase"),)
                               if st[0].status is None else ())
    return strategy_phase_check(state, ctx)


MISSION_SEQUENCE = (
    Each("Round {item}", round_numbers, play_round, stop=mission_over),
    ("Last Strategy phase", final_strategy_phase),
)
"""A mission: each declared round (its Strategy-phase objectives check, the battlefield's counters, the Event
phase) until a row matches or the DEADLINE passes, then the Strategy phase that follows."""


@dataclass(frozen=True)
class MissionOutcome(Outcome):
    """A mission's result: ``status`` (accomplished / partial / failed, ``None`` while it goes on), the objectives
    ``row`` that matched (1 = top), the ``next`` mission, ``rounds`` played, ``events`` drawn, final counters."""

    mission: int
    title: str
    status: str | None
    row: int | None
    next: str | None
    rounds: int
    events: tuple[str, ...]
    counters: tuple[tuple[str, int], ...]

    @property
    def summary(self) -> str:
        res = (f"{STATUS_WORDS[self.status]} (row {self.row}); next mission: {self.next}" if self.status else
               "no objective row matched: the mission goes on")
        special = [e for e in self.events if e != "-"]
        cards = ", ".join(f"Special Event {e}" for e in special) or "no special event"
        std = len(self.events) - len(special)
        return f"Mission {self.mission}, {self.title}: {res}; {plural(self.rounds, 'round')}; Event cards drawn: " \
               f"{len(self.events)} ({cards}" + (f", {std} standard)" if std else ")")

    def to_json(self) -> dict:
        return {"mission": self.mission, "status": self.status, "row": self.row, "next": self.next,
                "rounds": self.rounds, "events": list(self.events), "counters": dict(self.counters)}


def mission_initial(scenario: MissionScenario) -> MissionState:
    """The mission before its first round: every counter at its ``start`` value (0 unless the mission says;
    ``"agents"``: the agents in play)."""
    m = storybook_missions()[scenario.mission]
    start = {k: scenario.agents if v == "agents" else v for k, v in m.start.items()}
    return MissionState(counters=tuple((k, start.get(k, 0)) for k in m.counters),
                        numbers=tuple(range(1, len(scenario.rounds) + 1)))


def play_mission(scenario: MissionScenario, rulings: Mapping[str, str] | None = None,
                 source: str | None = None) -> tuple[tuple, Trace]:
    """Play :data:`MISSION_SEQUENCE`: ``(frames, trace)``; the trace's ``result`` is a :class:`MissionOutcome`."""
    r = make_rulings({**scenario.rulings, **dict(rulings or {})})
    m = storybook_missions()[scenario.mission]
    ctx = MissionContext(rulings=r, mission=m, scenario=scenario, deadline=scenario.deadline or m.deadline,
                         source=source)
    frames = play(mission_initial(scenario), MISSION_SEQUENCE, ctx)
    s = frames[-1].state
    out = MissionOutcome(m.id, m.title, s.status, s.row, s.next, s.round, s.events, s.counters)
    return frames, trace_of(scenario.title, frames, r.consulted).with_result(out)


def resolve_mission(scenario: MissionScenario, rulings: Mapping[str, str] | None = None,
                    seed: int | None = None) -> Trace:
    """A Storybook mission's rounds (:data:`MISSION_SEQUENCE`).

    Returns:
        A :class:`Trace` whose ``result`` is a :class:`MissionOutcome` (``outcome``: ``{"mission", "status",
        "row", "next", "rounds", "events", "counters"}``).
    """
    return play_mission(scenario, rulings)[1]


# ------------------------------------------------------------------------------------------------ a round's mission

class RoundMissionModel(Strict):
    """The ``[mission]`` table a ``round`` scenario may carry: the Storybook ``mission``, the ``previous`` result,
    the Event cards ``drawn`` before this round and the special events among them (``earlier``: their effects added
    to each Event phase still apply), the ``counters`` as this round's Agents' and Aliens' phases leave them, the
    Event card this round's Event phase draws (``event``: a special event letter or ``""``) and an optional
    ``deadline``. A special event whose place in the Events deck lies within the ``drawn`` cards counts as
    drawn before even when ``earlier`` omits it (:func:`drawn_before`); ``event`` must be ``""`` while a special
    rule skips or replaces the Event phase (2.3)."""

    mission: int = Field(ge=1, le=6)
    previous: Literal["standalone", "accomplished", "partial", "failed"] = "standalone"
    drawn: int = Field(0, ge=0, le=MAX_ROUNDS)
    counters: dict[CounterName, Annotated[int, Field(ge=0, le=MAX_COUNTER)]] = Field(default_factory=dict,
                                                                                       max_length=8)
    event: str = Field("", max_length=2)
    earlier: list[Annotated[str, Field(min_length=1, max_length=2)]] = Field(default_factory=list, max_length=8)
    deadline: int | None = Field(None, ge=1, le=MAX_ROUNDS)


def check_round_mission(rm: RoundMissionModel, agents: int, source: str) -> MissionScenario:
    """The ``[mission]`` table of a round as a one-round ``mission`` scenario (:func:`parse_mission` checks it; its
    errors name ``mission.<field>``).

    Raises:
        ScenarioError: a counter or special event letter the mission does not have.
    """
    data = {"game": "galaxydefenders", "kind": "mission", "mission": rm.mission, "previous": rm.previous,
            "agents": min(agents, 6), "rounds": [{"counters": rm.counters, "event": rm.event}]}
    if rm.deadline is not None:
        data["deadline"] = rm.deadline
    letters = [e.card for e in storybook_missions()[rm.mission].special_events] if rm.mission in \
        storybook_missions() else []
    for i, c in enumerate(rm.earlier):
        if c not in letters or c == rm.event or rm.earlier.index(c) != i:
            raise ScenarioError(f"mission.earlier[{i}]", f"{c!r} is not a special event of mission {rm.mission} "
                                "drawn once before this round", letters, source)
    if len(rm.earlier) > rm.drawn:
        raise ScenarioError("mission.earlier", f"{plural(len(rm.earlier), 'special event')} among "
                            f"{plural(rm.drawn, 'Event card')} drawn", f"at most 'drawn' ({rm.drawn})", source)
    if rm.mission in storybook_missions():
        _check_before_round(storybook_missions()[rm.mission], rm, min(agents, 6), source)
    try:
        return parse_mission(data, source)
    except ScenarioError as e:
        field = e.field.replace("rounds[0].", "") if e.field else ""
        raise ScenarioError(f"mission.{field}" if field else "mission", e.problem, e.allowed, source) from None


def _check_before_round(m: MissionData, rm: RoundMissionModel, agents: int, source: str) -> None:
    """What a round's ``[mission]`` says came before it, against the mission's text: no Event card drawn while a
    special rule skips or replaces every Event phase from the start until counters that never fall reach a value
    (2.3: Mission 3's Bombs; ``drawn`` must be 0 while the counters after this round still fall short), and no
    special event listed in ``earlier`` before its place in the Events deck ("Event deck" line, 2.5; Storybook
    2.2's example) unless the text lets it come early (one whose place lies within the cards drawn and that
    ``earlier`` does not list is drawn there: :func:`drawn_before`).

    Raises:
        ScenarioError: naming ``mission.drawn`` or ``mission.earlier`` and what they may be.
    """
    start = {k: agents if v == "agents" else v for k, v in m.start.items()}
    after = MissionState(counters=tuple((k, rm.counters.get(k, start.get(k, 0))) for k in m.counters))
    held = not_fallen_yet(m, rm)
    for rule in m.rules:
        if rule.kind not in ("skip_event_phase", "replace_event_phase") or rule.until is None or rm.drawn == 0:
            continue
        clauses = [c for alt in rule.until for c in alt]
        if all(c.counter in held and c.op in (">", ">=") for c in clauses) and \
                not condition_holds(rule.until, after, agents, False):
            how = "skips" if rule.kind == "skip_event_phase" else "replaces"
            why = "; ".join(dict.fromkeys(held[c.counter] for c in clauses))
            raise ScenarioError("mission.drawn", f"{plural(rm.drawn, 'Event card')} drawn before this round, but "
                                f"mission {m.id}'s special rule {how} every Event phase until "
                                f"{condition_text(rule.until)} (2.3) and "
                                f"{join_words(sorted({c.counter for c in clauses}), 'and')} cannot have fallen "
                                f"since ({why}): after this round "
                                f"{', '.join(f'{c.counter} is {after.value(c.counter)}' for c in clauses)}",
                                f"0 until {condition_text(rule.until)}", source)
    deck = rm.drawn - len(m.on_top() & set(rm.earlier))
    early = {n.event for n in m.needs if n.early}
    for k in rm.earlier:
        if k in m.positions and m.span(k)[0] > deck and k not in early:
            first, last = m.span(k)
            where = ordinal(first) if first == last else f"{ordinal(first)} to {ordinal(last)}"
            raise ScenarioError("mission.earlier", f"Special Event {k} is the {where} Event card of mission {m.id} "
                                f"({m.positions_text}): not among the {plural(deck, 'card')} of the deck drawn "
                                "before this round", "the special events of the places drawn", source)


def not_fallen_yet(m: MissionData, rm: RoundMissionModel) -> dict[str, str]:
    """The counters that cannot have fallen before a round with this ``[mission]``, each with why: those that never
    fall (``never_fall``: what they count cannot come back) and those whose fall needs special events not drawn
    before this round (a ``falls`` need's ``after``; Mission 2: a deployed probe leaves its Waypoint only by Special
    Event B's effects, Storybook 2.5). Such a counter's value after the round is at least every value it had before,
    so a special rule that ran "until" it reached a value (2.3) still runs if it falls short now."""
    known = set(drawn_before(m, rm))
    out = {k: "it never falls: what it counts cannot come back" for k in m.never_fall}
    for n in m.needs:
        if n.falls and n.counter is not None and n.after and not set(n.after) <= known and n.counter not in out:
            out[n.counter] = (f"its fall needs Special Event {join_words(n.after, 'and')} drawn first, Storybook 2.5: "
                              f"{n.text}")
    return out


def drawn_before(m: MissionData, rm: RoundMissionModel) -> list[str]:
    """The special events drawn before a round with a ``[mission]``: ``earlier``, and each special event whose
    place in the Events deck (the mission's "Event deck" line, Storybook 7 and 2.2; 2.2's example) lies within the
    deck's ``drawn`` cards though ``earlier`` does not list it (the text says it was drawn there: Mission 1's A once a card
    was drawn); its effects added to each Event phase apply as the listed ones'."""
    deck = rm.drawn - len(m.on_top() & set(rm.earlier))
    implied = [k for k in m.positions if k not in rm.earlier and m.span(k)[1] <= deck]
    return list(rm.earlier) + implied


def rule_in_force(rm: RoundMissionModel, agents: int) -> MissionRule | None:
    """The special rule (2.3) that skips or replaces the Event phase of a round with this ``[mission]``: one whose
    condition does not hold on the counters after the round while no Event card was drawn before it (such a rule
    runs from the mission's start until the condition holds); ``None`` otherwise (the Event phase draws a card)."""
    m = storybook_missions().get(rm.mission)
    if m is None or rm.drawn or rm.earlier:
        return None
    agents = min(agents, 6)
    start = {k: agents if v == "agents" else v for k, v in m.start.items()}
    after = MissionState(counters=tuple((k, rm.counters.get(k, start.get(k, 0))) for k in m.counters))
    return next((r for r in m.rules if r.kind in ("skip_event_phase", "replace_event_phase") and r.until is not None
                 and not condition_holds(r.until, after, agents, False)), None)


def _events_before(m: MissionData, rm: RoundMissionModel) -> tuple[str, ...]:
    """The Event cards drawn before a round with a ``[mission]``, as :class:`MissionState` keeps them: the special
    events put on top of the deck (no place in it), then the deck's ``drawn`` cards, each special event of
    ``earlier`` at its place (the first free one of its span), one drawn early in the first free place, the others
    standard cards (``"-"``); whatever order ``earlier`` lists them in (:func:`drawn_before` adds the special events
    the deck's places imply)."""
    known = drawn_before(m, rm)
    top = [k for k in known if k in m.on_top()]
    slots = ["-"] * (rm.drawn - len(top))
    rest = []
    for k in sorted((k for k in known if k not in top),
                    key=lambda k: m.span(k) if k in m.positions else (MAX_ROUNDS + 1, 0)):
        first, last = m.span(k) if k in m.positions else (1, 0)
        free = next((i for i in range(first - 1, min(last, len(slots))) if slots[i] == "-"), None)
        if free is None:
            rest.append(k)
        else:
            slots[free] = k
    for k in rest:
        if "-" in slots:
            slots[slots.index("-")] = k
    return tuple(top) + tuple(slots)


def round_mission(state, ctx) -> tuple:
    """A ``round`` scenario's last step when it carries a ``[mission]``: the mission's Event phase for this round's
    Event card (2.3, 2.5: skipped, replaced, or the special event's effects) and the next Strategy phase's
    objectives check (2.4: the first matching row; "at the end of the mission" once the DEADLINE is reached).
    Nothing without a ``[mission]``. ``state`` is the round's state (its ``mission`` field receives the
    :class:`MissionState`); ``ctx`` the round's context."""
    rm = getattr(ctx.scenario, "mission", None)
    if rm is None:
        return state, ()
    sc = check_round_mission(rm, len(ctx.scenario.agents), ctx.source)
    m = storybook_missions()[rm.mission]
    mctx = MissionContext(rulings=ctx.rulings, mission=m, scenario=sc, deadline=rm.deadline or m.deadline,
                          source=ctx.source, where="mission.")
    start = mission_initial(sc)
    before = drawn_before(m, rm)
    recurring = tuple(line for e in m.special_events if e.card in before
                      for line in event_column(e, rm.previous)[0] if line.every_event_phase)
    events = _events_before(m, rm)
    ms = replace(start.with_counters(rm.counters), round=ctx.scenario.round, events=events, recurring=recurring,
                 ended=(rm.drawn - len(m.on_top() & set(rm.earlier)) >= mctx.deadline if m.ends == "last_event"
                        else m.ends in before))
    ms, steps = event_phase(ms, mctx, sc.rounds[0])
    ms, more = strategy_phase_check(replace(ms, round=ctx.scenario.round + 1), mctx)
    return replace(state, mission=ms), tuple(s.in_section(s.section.replace(
        f"Round {ctx.scenario.round}: ", "Mission: ").replace(f"Round {ctx.scenario.round + 1}: ", "Mission: next "))
        for s in steps + more)
