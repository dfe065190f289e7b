"""The typed outcomes of Marvel D.A.G.G.E.R.'s scenario kinds: what ``explorer resolve`` reports after the trace.

Rulebook sections summarised (each step of the trace cites its own): Nemesis Phase, End of Round, Final Showdown,
Winning and Losing, Gameplay › Hero Phase › Aspect Actions, Additional Rules › Missions, Damage and Defeat.

Each kind's resolver returns its :class:`~explorer.trace.Trace` with ``trace.with_result(<outcome>)``:
:class:`NemesisOutcome` (kind ``nemesis``), :class:`HeroOutcome` (kind ``hero``), :class:`SetupOutcome` (kind
``setup``), frozen :class:`~explorer.kernel.Outcome` values whose ``to_json()`` is the JSON ``outcome`` of ``explorer resolve --json``
and the golden files. The outcome text (:mod:`.outcome`), the map picture and the pages read their attributes, among
them the typed record of what happened (:attr:`NemesisOutcome.events`), never the JSON or a step's facts.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from explorer.kernel import Outcome

from .state import ChoiceMade, Enemy, Event, Gauge, Hero

__all__ = ["NemesisOutcome", "HeroOutcome", "HeroAction", "Snapshot", "RoundOutcome", "TurnRecord", "probability_json",
           "NOT_READY"]


NOT_READY = "greyed out side up"
"""A team-up card that is not ready, in the rulebook's words (Setup: the card is placed "with the greyed out side up";
Team-up Abilities: a used card is exhausted, flipped over): how the page, ``explorer dagger step`` and the outcome
text show that state."""


def probability_json(p: Fraction) -> dict[str, Any]:
    """A probability as ``{"exact": "n/d", "float": x}``."""
    return {"exact": str(p), "float": float(p)}


@dataclass(frozen=True)
class NemesisOutcome(Outcome):
    """The result of a ``nemesis`` scenario (one or more Nemesis Phases played out).

    Attributes:
        threat_start, threat: the threat before the first step and at the end.
        threat_after: ``((trace section, threat), ...)``: the threat at the end of each numbered step played.
        lost: why the heroes lost (empty: they did not). won: the heroes won. showdown: the Final Showdown is on.
        overrun: the overrun bases, sorted. bases: how many bases there are. round: the round at the end.
        events_left: event cards left in the deck. team_up: the team-up track.
        side_missions: the three side mission slots (a name or ``None``). nemesis_missions_left: the nemesis
            mission deck, top first. completed_nemesis: ``((mission, "passed" | "failed"), ...)``.
        enemies, heroes: the enemies and heroes at the end (typed values).
        gauges: how close each loss condition is at the end. choices: every choice point met, in order.
        rounds: the rounds whose Nemesis Phases were played (``"Round 1"``...), in order.
        events: what happened, in order (typed records: :data:`.state.Event`).
    """

    threat_start: int
    threat: int
    threat_after: tuple[tuple[str, int], ...]
    lost: tuple[str, ...]
    won: bool
    showdown: bool
    overrun: tuple[str, ...]
    bases: int
    round: int
    events_left: int
    team_up: int
    side_missions: tuple[str | None, ...]
    nemesis_missions_left: tuple[str, ...]
    completed_nemesis: tuple[tuple[str, str], ...]
    enemies: tuple[Enemy, ...]
    heroes: tuple[Hero, ...]
    gauges: tuple[Gauge, ...]
    choices: tuple[ChoiceMade, ...]
    rounds: tuple[str, ...] = ()
    events: tuple[Event, ...] = ()

    def gauge(self, name: str) -> Gauge:
        """The gauge called ``name`` (``"threat"``, ``"bases"``, ``"events"``, ``"heroes"``, ``"deadline"``)."""
        return next(g for g in self.gauges if g.name == name)

    def to_json(self) -> dict[str, Any]:
        return {
            "threat_start": self.threat_start, "threat": self.threat,
            "threat_after": [[sec, t] for sec, t in self.threat_after], "lost": list(self.lost), "won": self.won,
            "showdown": self.showdown, "overrun": list(self.overrun), "round": self.round,
            "events_left": self.events_left, "team_up": self.team_up, "side_missions": list(self.side_missions),
            "nemesis_missions_left": list(self.nemesis_missions_left),
            "completed_nemesis": [list(x) for x in self.completed_nemesis],
            "enemies": {e.id: e.space for e in self.enemies},
            "heroes": {h.name: [h.space, h.damage, h.health, h.shattered, h.eliminated] for h in self.heroes},
            "gauges": [g.text for g in self.gauges], "choices": [c.to_json() for c in self.choices],
        }


@dataclass(frozen=True)
class HeroAction:
    """One ``[[actions]]`` entry of a ``hero`` scenario, resolved.

    Attributes:
        do: ``"move"``, ``"fight"``, ``"defy"``, ``"rest"`` or ``"ability"``. hero: who acts.
        result: what it did (the last step's title; ``"odds only"`` without a roll; ``"not allowed: ..."``).
        target: the space moved to, the enemy, the mission or the resting hero (``None``: a refused action).
        allowed: ``False`` when the rules refused the action (then only ``do``, ``hero`` and ``result`` are set).
        dice, need, p, p_with_empowered, empowered: the odds of a Fight / Defy / Rest (``p`` ``None`` for a move).
        rest_totals: a Rest's ``{total successes: probability}``, else ``None``.
        successes: the roll's successes as given (``None``: odds only).
        hit: an ``"ability"``'s enemies hit, in order (``()`` otherwise).
    """

    do: str
    hero: str
    result: str
    target: str | None = None
    allowed: bool = True
    dice: int = 0
    need: int = 0
    p: Fraction | None = None
    p_with_empowered: Fraction | None = None
    empowered: bool = False
    rest_totals: tuple[tuple[int, Fraction], ...] | None = None
    successes: int | None = None
    hit: tuple[str, ...] = ()

    @property
    def has_odds(self) -> bool:
        """A Fight, Defy or Rest with its odds (not a move, not a refused action)."""
        return self.p is not None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"do": self.do, "hero": self.hero}
        if not self.allowed:
            out["result"] = self.result
            return out
        out["target"] = self.target
        if self.do == "ability":
            out["hit"] = list(self.hit)
        if self.p is None:
            out["result"] = self.result
            return out
        if self.rest_totals is not None:
            out["rest_totals"] = {str(k): probability_json(v) for k, v in self.rest_totals}
        out.update(dice=self.dice, need=self.need, p=probability_json(self.p),
                   p_with_empowered=probability_json(self.p_with_empowered), empowered=self.empowered,
                   successes=self.successes, result=self.result)
        return out


@dataclass(frozen=True)
class Snapshot:
    """The board after a ``hero`` scenario's actions: ``threat``, ``team_up``, ``enemies`` and ``heroes`` (typed
    values) and the active ``missions`` (``((name, progress), ...)``)."""

    threat: int
    team_up: int
    enemies: tuple[Enemy, ...]
    heroes: tuple[Hero, ...]
    missions: tuple[tuple[str, int], ...]

    def to_json(self) -> dict[str, Any]:
        return {"threat": self.threat, "team_up": self.team_up,
                "enemies": {e.id: [e.space, e.damage] for e in self.enemies},
                "heroes": {h.name: [h.space, h.damage] for h in self.heroes},
                "missions": dict(self.missions)}


@dataclass(frozen=True)
class HeroOutcome(Outcome):
    """The result of a ``hero`` scenario: the ``actions`` (:class:`HeroAction`), ``threat_start`` and ``threat`` (at
    the end), the board ``after_actions`` (:class:`Snapshot`), ``lost``, ``won``, ``phase`` (the Nemesis Phase was
    played after the actions), the ``die`` faces, the ``overrun`` bases (sorted) and ``events`` (what the Nemesis
    Phase did, typed, as :attr:`NemesisOutcome.events`)."""

    actions: tuple[HeroAction, ...]
    threat_start: int
    threat: int
    after_actions: Snapshot
    lost: tuple[str, ...]
    won: bool
    phase: bool
    die: tuple[int, ...]
    overrun: tuple[str, ...]
    events: tuple[Event, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"actions": [a.to_json() for a in self.actions], "threat_start": self.threat_start,
                "threat": self.threat, "after_actions": self.after_actions.to_json(), "lost": list(self.lost),
                "won": self.won, "phase": self.phase, "die": list(self.die), "overrun": list(self.overrun)}


@dataclass(frozen=True)
class TurnRecord:
    """One hero turn, resolved: ``round`` (1-based), ``hero``, ``token``, ``slot``, ``boost`` (a boosted token on a
    BOOST action), ``action`` (the :class:`.results.HeroAction`; ``None`` for a D.A.G.G.E.R. action) and ``base``
    (the D.A.G.G.E.R. action's base)."""

    round: int
    hero: str
    token: str
    slot: str
    boost: bool = False
    action: HeroAction | None = None
    base: str = ""
    result: str = ""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"round": self.round, "hero": self.hero, "token": self.token, "slot": self.slot,
                               "boost": self.boost, "result": self.result}
        if self.base:
            out["base"] = self.base
        if self.action is not None:
            out["action"] = self.action.to_json()
        return out


@dataclass(frozen=True)
class RoundOutcome(Outcome):
    """The result of a ``round`` scenario: every hero ``turns`` taken (:class:`TurnRecord`), the ``rounds`` played
    in full, ``threat_start`` and ``threat`` (at the end), ``team_up``, ``lost``, ``won``, ``showdown``, the
    ``overrun`` bases (sorted), the loss ``gauges`` at the end, ``refused`` (the refusal that ended the play, one
    line in words with its rule: ``"round 2, turn 6, slot: ... [Gameplay › Hero Phase]"``; empty when none) and
    ``refused_field`` (its field path in the file, ``"rounds[1].turns[5].slot"``), the ``heroes`` and ``enemies`` at the end and ``events`` (what the Nemesis
    Phases did, typed); with a ``[setup]``, ``setup_seed`` and the ``event_deck`` Setup built (names, top first); the heroes'
    ``team_up_cards`` at the end (``((hero, card, ready), ...)``; in the JSON only when a sheet has one)."""

    turns: tuple[TurnRecord, ...]
    rounds: int
    threat_start: int
    threat: int
    team_up: int
    lost: tuple[str, ...]
    won: bool
    showdown: bool
    overrun: tuple[str, ...]
    gauges: tuple[Gauge, ...]
    refused: str
    refused_field: str
    heroes: tuple[Hero, ...]
    enemies: tuple[Enemy, ...]
    events: tuple[Event, ...] = ()
    setup_seed: int | None = None
    event_deck: tuple[str, ...] = ()
    team_up_cards: tuple[tuple[str, str, bool], ...] = ()

    def to_json(self) -> dict[str, Any]:
        setup = ({} if self.setup_seed is None else
                 {"setup": {"seed": self.setup_seed, "event_deck": list(self.event_deck)}})
        if self.team_up_cards:
            setup["team_up_cards"] = {name: {"hero": hero, "ready": ready} for hero, name, ready in self.team_up_cards}
        return {**setup, "turns": [t.to_json() for t in self.turns], "rounds": self.rounds,
                "threat_start": self.threat_start, "threat": self.threat, "team_up": self.team_up,
                "lost": list(self.lost), "won": self.won, "showdown": self.showdown, "overrun": list(self.overrun),
                "gauges": [g.text for g in self.gauges], "refused": self.refused, "refused_field": self.refused_field,
                "heroes": {h.name: [h.space, h.damage] for h in self.heroes},
                "enemies": {e.id: [e.space, e.damage] for e in self.enemies}}


@dataclass(frozen=True)
class SetupOutcome(Outcome):
    """The result of a ``setup`` scenario: the ``seed``, each hero's ``tokens`` ``((hero, boosted, standard),
    ...)``, the ``piles`` and the ``event_deck`` (top first), the ``enemies`` placed ``((id, space), ...)``, the
    ``side_slots`` drawn and the ``side_deck`` left (top first)."""

    seed: int
    tokens: tuple[tuple[str, int, int], ...]
    piles: tuple[tuple[str, ...], ...]
    event_deck: tuple[str, ...]
    enemies: tuple[tuple[str, str], ...]
    side_slots: tuple[str, ...]
    side_deck: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {"seed": self.seed, "tokens": {h: [b, s] for h, b, s in self.tokens},
                "piles": [list(p) for p in self.piles], "event_deck": list(self.event_deck),
                "enemies": dict(self.enemies), "side_slots": list(self.side_slots),
                "side_deck": list(self.side_deck)}
