"""The plain-text answer printed after a Marvel D.A.G.G.E.R. trace (``explorer resolve dg-…``, the gallery, the
``{explorer}`` directive): the verdict first, then the key numbers.

Rulebook sections summarised (each step of the trace cites its own): Nemesis Phase › 1. Advance Threat, 2. Check
Nemesis Mission, 3. Resolve Event Cards (enemy activation and spawns), Final Showdown, Winning and Losing, Additional
Rules › Nearby and Overrun, Damage and Defeat.

Everything here is read from the trace's typed result (:attr:`Trace.result <explorer.trace.Trace.result>`: a
:class:`.results.NemesisOutcome` or :class:`.results.HeroOutcome`, whose ``events`` record what happened), as written
by :func:`.nemesis_scenario.resolve_nemesis` and :func:`.hero_scenario.resolve_hero`; nothing is recomputed, and no
step's facts are read.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from explorer.text import join_words, plural
from explorer.trace import Trace

from .results import NOT_READY, HeroAction, HeroOutcome, NemesisOutcome, RoundOutcome, SetupOutcome
from .state import (
    BaseOverrun, EnemyActed, EnemySpawned, Event, HeroDamaged, HeroDefeated, MissionChecked, ShowdownBegan,
    SideMissionRevealed,
)

__all__ = ["outcome_text", "verdict", "hero_outcome_text"]


@dataclass
class _Action:
    """An enemy activation as the outcome text tells it: the activation and, for an attack, the attacked hero's
    damage right after it (``"3/10"``)."""

    acted: EnemyActed
    after: str | None = None


@dataclass
class _Events:
    """What happened, in order, by kind (read from the typed events)."""

    missions: list[tuple[str, str, str]] = field(default_factory=list)   # (kind words, mission, passed | failed)
    open: list[str] = field(default_factory=list)                        # missions checked and not completed
    overrun: list[str] = field(default_factory=list)
    defeated: list[str] = field(default_factory=list)
    eliminated: list[str] = field(default_factory=list)
    actions: list[_Action] = field(default_factory=list)
    spawns: list[tuple[str, str]] = field(default_factory=list)
    side: list[str] = field(default_factory=list)
    showdown: bool = False
    damage: list[HeroDamaged] = field(default_factory=list)


def _events(events: tuple[Event, ...]) -> _Events:
    """Missions completed, bases overrun, heroes defeated / eliminated, enemy actions, spawns, side missions
    revealed, the Final Showdown, damage to heroes."""
    ev = _Events()
    for e in events:
        if isinstance(e, MissionChecked):
            if e.result == "open":
                ev.open.append(e.mission)
            else:
                ev.missions.append(("1st strike" if e.kind == "first_strike" else "nemesis mission", e.mission,
                                    e.result))
        elif isinstance(e, BaseOverrun):
            ev.overrun.append(e.base)
        elif isinstance(e, HeroDefeated):
            ev.defeated.append(e.hero)
            if e.eliminated:
                ev.eliminated.append(e.hero)
        elif isinstance(e, EnemyActed):
            ev.actions.append(_Action(e))
        elif isinstance(e, EnemySpawned):
            ev.spawns.append((e.enemy, e.space))
        elif isinstance(e, SideMissionRevealed):
            ev.side.append(e.mission)
        elif isinstance(e, ShowdownBegan):
            ev.showdown = True
        elif isinstance(e, HeroDamaged):
            ev.damage.append(e)
            last = ev.actions[-1] if ev.actions else None
            if (last is not None and last.acted.action == "attack" and last.acted.target == e.hero
                    and last.after is None):
                last.after = f"{e.damage}/{e.health}"
    return ev


def _closest(o: NemesisOutcome) -> str:
    """How far the heroes are from each loss condition, nearest first."""
    parts = []
    t, lim = o.gauge("threat").value, o.gauge("threat").limit
    parts.append((lim - t, f"threat {t}/{lim}: {lim - t} more loses"))
    b, lim = o.gauge("bases").value, o.gauge("bases").limit
    parts.append((lim - b, f"{b}/{lim} bases overrun: {lim - b} more loses"))
    left = o.events_left
    if left:
        parts.append((left + 1, f"{plural(left, 'event card')} left: Nemesis Phase {left + 1} from now finds none "
                                "and loses"))
    else:
        # A scenario file lists only the event cards it draws (a position, not a whole game: Setup builds a deck of
        # 9 standard + 3 nemesis events), so an empty deck after the play-out is the file's, not the game's: it is
        # named last and never presented as the nearest loss (dg-loss-no-event, where step 3 finds no card, says
        # so in its "lost" reasons instead).
        parts.append((float("inf"), "event deck: none of its cards is left in this scenario (a scenario lists only "
                                    "the cards it draws; the game's deck starts with 12), so the next step 3 is not "
                                    "modelled"))
    heroes = o.heroes
    alive = [h for h in heroes if not h.eliminated]
    if heroes:
        to_go = sum(1 if h.shattered else 2 for h in alive)        # a shattered hero's next defeat eliminates it
        parts.append((to_go, f"{len(alive)}/{len(heroes)} heroes in play ({sum(1 for h in alive if h.shattered)} "
                             f"shattered): {plural(to_go, 'more hero defeat')} {'loses' if to_go == 1 else 'lose'}"))
    return "; ".join(t for _, t in sorted(parts, key=lambda p: p[0]))


def _action_text(a: _Action) -> str:
    e = a.acted
    if e.action == "attack":
        hurt = f" ({a.after} damage)" if a.after is not None else ""
        return f"{e.enemy} attacks {e.target} for {e.power}{hurt}"
    if e.action == "overrun":
        return f"{e.enemy} overruns {e.base}"
    if e.action == "overrun_again":
        return f"{e.enemy} stays on overrun {e.base}"
    if e.action == "move":
        return f"{e.enemy} moves {e.start} → {e.to} toward {e.target}"
    if e.action == "stun_cleared":
        return f"{e.enemy} clears its stun"
    if e.action == "stopped":
        what = f"it does not {e.item.words}" if e.item is not None else "its item does not land"
        return (f"{e.enemy} is stunned during its activation: {what}"
                + ("; stun and damage removed" if e.cleared else "; stun and damage stay for its next activation"))
    if e.action == "item_lost":
        return f"{e.enemy}'s item can no longer land after the interrupt: it does not {e.item.words}"
    return f"{e.enemy} cannot move (no operational base)"


def verdict(trace: Trace) -> str:
    """The answer in one line: how the game stands, the threat before → after, the missions completed, the bases
    overrun, the heroes defeated, the Final Showdown, and the nearest loss."""
    o: NemesisOutcome = trace.result
    ev = _events(o.events)
    parts = []
    if o.lost:
        parts.append("The heroes LOSE (" + ", ".join(o.lost) + ")")
    elif o.won:
        parts.append("The heroes WIN (the nemesis is at 0 health in the Final Showdown)")
    span = f" over {len(o.rounds)} rounds" if len(o.rounds) > 1 else ""
    peak = max((t for _, t in o.threat_after), default=o.threat)
    high = f", peak {peak}" if peak > max(o.threat, o.threat_start) else ""
    parts.append(f"Threat {o.threat_start} → {o.threat}{span}{high}")
    for kind, name, result in ev.missions:
        label = name if name.lower().startswith(kind) else f"{kind} {name}"
        parts.append(f"{label} {'passes' if result == 'passed' else 'fails'}")
    if ev.showdown:
        parts.append("the Final Showdown begins")
    if ev.overrun:
        parts.append(", ".join(ev.overrun) + " overrun")
    for h in ev.defeated:
        parts.append(f"{h} defeated" + (" and eliminated" if h in ev.eliminated else ""))
    if not (ev.missions or ev.overrun or ev.defeated or o.lost or o.won):
        parts.append("no mission completed, no base overrun, no hero defeated")
    if not o.lost and not o.won:
        parts.append("nearest loss: " + _closest(o).split("; ")[0])
    return "; ".join(parts)


def _hero_action(a: HeroAction) -> str:
    if a.do == "move" or not a.has_odds:
        return f"{a.hero} {a.result}"
    goal = {"fight": f"defeats {a.target}", "defy": f"completes {a.target}",
            "rest": "recovers all its damage"}[a.do]
    odds = f"P({a.hero} {goal}) = {float(a.p):.3f} ({a.p})"
    if a.successes is None:
        return odds
    return f"{odds}; rolled {a.successes}: {a.result}"


def hero_outcome_text(trace: Trace) -> str:
    """The outcome of a ``hero`` scenario: ``Outcome:`` each action's odds and result, then the threat before → after
    (with the Nemesis Phase when it was played); then the odds' numbers and the board after the actions."""
    o: HeroOutcome = trace.result
    head = [_hero_action(a) for a in o.actions]
    if o.lost:
        head.insert(0, "The heroes LOSE (" + ", ".join(o.lost) + ")")
    elif o.won:
        head.insert(0, "The heroes WIN (the nemesis is at 0 health in the Final Showdown)")
    if o.phase:
        ev = _events(o.events)
        phase = f"then the Nemesis Phase: threat {o.after_actions.threat} → {o.threat}"
        phase += "".join(f"; {n} {'passes' if r == 'passed' else 'fails'}" for _, n, r in ev.missions)
        if not ev.missions and ev.open:
            phase += "; " + ", ".join(ev.open) + " not completed"
        head.append(phase)
    lines = ["Outcome: " + "; ".join(head)]
    for a in o.actions:
        if a.has_odds:
            lines.append(f"  {a.do.capitalize()} by {a.hero} on {a.target}: {plural(a.dice, 'die')}, "
                         f"{plural(a.need, 'success', 'successes')} needed, P = {float(a.p):.3f}"
                         + ("" if a.empowered else f" ({float(a.p_with_empowered):.3f} with an "
                                                   "empowered token)"))
    aa = o.after_actions
    lines.append("  After the actions: threat " + str(aa.threat) + "; enemies "
                 + (", ".join(f"{e.id} {e.space} {e.damage} damage" if e.damage else f"{e.id} {e.space}"
                              for e in aa.enemies) or "none")
                 + "; heroes " + ", ".join(f"{h.name} {h.space or 'off the board'}" for h in aa.heroes))
    lines.append(f"  Die faces (successes): {join_words(o.die)}")
    return "\n".join(lines)


def _hero_line(h) -> str:
    if h.eliminated:
        return f"{h.name} eliminated"
    return f"{h.name} {h.space or 'off the board'} {h.damage}/{h.health}" + (" shattered" if h.shattered else "")


def round_outcome_text(trace: Trace) -> str:
    """The outcome of a ``round`` scenario: ``Outcome:`` the verdict (or the refused choice), the rounds played and
    the threat before → after; then each turn (round, hero, token, slot, result) and the loss gauges."""
    o: RoundOutcome = trace.result
    if o.lost:
        head = "The heroes LOSE (" + ", ".join(o.lost) + ")"
    elif o.won:
        head = "The heroes WIN"
    elif o.refused:
        head = "Not allowed: " + o.refused
    else:
        head = "The game goes on"
    lines = [f"Outcome: {head}; {plural(o.rounds, 'round')} played in full; threat {o.threat_start} → {o.threat}; "
             f"team-up {o.team_up}"]
    for t in o.turns:
        lines.append(f"  Round {t.round}: {t.hero}, {t.token} token on {t.slot}"
                     + (" (BOOST)" if t.boost else "") + f": {t.result}")
    if o.team_up_cards:
        lines.append("  Team-up cards: " + "; ".join(f"{hero}'s {name} {'ready' if ready else NOT_READY}"
                                                     for hero, name, ready in o.team_up_cards))
    if o.setup_seed is not None:
        lines.append(f"  Setup (seed {o.setup_seed}) built the event deck, top first: {', '.join(o.event_deck)}")
    lines.append("  Loss gauges: " + "; ".join(g.text for g in o.gauges))
    return "\n".join(lines)


def setup_outcome_text(trace: Trace) -> str:
    """The outcome of a ``setup`` scenario: the event deck (top first, by pile), the tokens, the 1st strike's
    enemies and side mission, and the seed that replays it."""
    o: SetupOutcome = trace.result
    lines = [f"Outcome: event deck of {len(o.event_deck)} cards (seed {o.seed}; top first): "
             + " | ".join(", ".join(p) for p in o.piles)]
    lines.append("  Aspect tokens: " + "; ".join(f"{h} {b} boosted + {s} standard" for h, b, s in o.tokens))
    lines.append("  1st strike enemies: " + (", ".join(f"{e} on {sp}" for e, sp in o.enemies) or "none"))
    lines.append("  Side mission drawn: " + (", ".join(o.side_slots) or "none"))
    return "\n".join(lines)


def outcome_text(trace: Trace) -> str:
    """The outcome of a D.A.G.G.E.R. scenario in plain text, the answer first. A ``nemesis`` scenario:
    ``Outcome: <verdict>``, then the threat at the end of each step, the missions, the enemies' activations and
    spawns, the heroes, how close each loss condition is, and the player choices made. A ``hero`` scenario:
    :func:`hero_outcome_text`."""
    o = trace.result
    if isinstance(o, HeroOutcome):
        return hero_outcome_text(trace)
    if isinstance(o, RoundOutcome):
        return round_outcome_text(trace)
    if isinstance(o, SetupOutcome):
        return setup_outcome_text(trace)
    ev = _events(o.events)
    lines = ["Outcome: " + verdict(trace)]
    if o.threat_after:
        one = len(o.rounds) == 1
        lines.append("  Threat at the end of each step: " + "; ".join(
            f"{sec.split(' · ', 1)[-1] if one else sec} {t}" for sec, t in o.threat_after))
    done = [f"{n} {r}" for _, n, r in ev.missions]
    left = o.nemesis_missions_left
    side = [m for m in o.side_missions if m]
    lines.append("  Missions: " + (", ".join(done) + "; " if done else "none completed; ")
                 + (f"nemesis deck {', '.join(left)}" if left else "no nemesis mission left")
                 + (f"; side missions in play {', '.join(side)}" if side else "; no side mission in play")
                 + (f" (revealed now: {', '.join(ev.side)})" if ev.side else ""))
    if ev.actions:
        lines.append(f"  Enemy activations ({len(ev.actions)}): " + "; ".join(_action_text(a) for a in ev.actions))
    else:
        lines.append("  Enemy activations: none")
    if ev.spawns:
        lines.append("  Spawned: " + ", ".join(f"{e} on {sp}" for e, sp in ev.spawns))
    if ev.damage:
        lines.append("  Damage to heroes: " + ", ".join(f"{d.hero} {d.damage}/{d.health}" for d in ev.damage))
    if o.heroes:
        lines.append("  Heroes: " + ", ".join(_hero_line(h) for h in o.heroes))
    lines.append("  Overrun bases: " + (", ".join(o.overrun) or "none")
                 + f"; team-up {o.team_up}; round {o.round}"
                 + ("; Final Showdown" if o.showdown else ""))
    lines.append("  Loss conditions, nearest first: " + _closest(o))
    if o.choices:
        by_default = sum(1 for c in o.choices if c.default_used)
        lines.append(f"  Player choices: {len(o.choices)} ({by_default} by their default; see --json)")
    return "\n".join(lines)
