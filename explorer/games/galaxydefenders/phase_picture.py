"""The static pictures of the Galaxy Defenders kinds that have neither dice nor a map: record cards
(:func:`explorer.render.sheet_svg.sheet_svg`) drawn from each kind's typed outcome (``trace.result``) and its
scenario, for the docs' embeds and gallery.

* ``conditions`` — the target after each event: Poison, Mark, wounds of its Health, the Power Suit's Batteries
  (6.1 Refresh Phase, 9.3.2 Poisoned, 9.5 Power Suit);
* ``menace`` — the Menace token after each event: its holder and level, and the agent attacked (11.3.1);
* ``close_encounter`` — the Close Encounter card, each alien in the scenario's order: selected, activated, Paralyzed
  (11.5, 11.9.1);
* ``event`` — the figures on the map (bleeding agents, Prime Swarm aliens) and the signals the card teleports (6.3);
* ``gd_wings`` — each agent's rank after its roll and its chance of success (9.8 GD-Wings);
* ``healing`` — each figure's wounds after the heal, the healed ones outlined (8.5 Area Healing);
* ``npc_assignment`` — each player's NPC cards, the one who gets the new card outlined (10.1.2 NPC Assignment);
* ``round`` — each agent and NPC at the end of the round (wounds of its Health, Poison, Mark), the activities of its
  turn, the Power Suit and the Menace token;
* ``mission`` — the mission: the objectives row that matched and the next mission, the Event cards drawn against
  the Events deck (the DEADLINE; a stand-in count unless the scenario gives one), the special events, and each of
  its counters (Storybook 2.4, 2.5).

Each function of :data:`KINDS` takes ``(scenario, outcome)`` (the validated scenario model and its typed outcome)
and returns a list of :class:`~explorer.render.sheet_svg.Card`; it raises nothing for a resolved scenario.
"""

from __future__ import annotations

from explorer.render.sheet_svg import Card, Chip, Track, sheet_svg
from explorer.text import plural
from explorer.trace import Trace


def _tokens(poison: int, mark: int) -> tuple[Chip, ...]:
    out = []
    if poison:
        out.append(Chip(f"Poison {poison}", "token"))
    if mark:
        out.append(Chip(f"Mark {mark}", "info"))
    return tuple(out) or (Chip("no Poison or Mark"),)


def _conditions(sc, o) -> list[Card]:
    health = sc.target.health
    cards = [Card("Before", sc.target.name, (Track("Wounds", sc.target.wounds, health),),
                  _tokens(sc.target.poison, sc.target.mark)
                  + ((Chip(f"{sc.power_suit.name}: {plural(sc.power_suit.batteries, 'Battery')}", "gold"),)
                     if sc.power_suit is not None else ()))]
    for i, a in enumerate(o.after, 1):
        chips = _tokens(a.poison, a.mark)
        if a.has_suit:
            chips += (Chip("Power Suit left play", "bad") if a.batteries is None
                      else Chip(plural(a.batteries, "Battery"), "gold"),)
        down = a.wounds >= o.final.max_health
        cards.append(Card(f"{i}. {a.event}", sc.target.name, (Track("Wounds", a.wounds, health),), chips,
                          marked=i == len(o.after), out=o.final.status().capitalize() if down else ""))
    return cards


def _menace(sc, o) -> list[Card]:
    cards = []
    for a in o.after:
        chips = [Chip(f"Menace Level {a.level}", "token")] if a.holder else [Chip("no Menace token yet")]
        if a.attacked:
            chips.append(Chip(f"attacks {a.attacked}", "bad"))
        cards.append(Card(a.event, f"Menacing Agent: {a.holder or 'none'}", chips=tuple(chips),
                          marked=a is o.after[-1]))
    return cards


def _close_encounter(sc, o) -> list[Card]:
    cards = [Card(f"Close Encounter card {o.card}", f"activate {o.x}",
                  chips=((Chip(f"Alpha Agent: {o.alpha_agent}", "gold"),) if o.alpha_agent else ()))]
    for a in sc.aliens:
        chips = [Chip(f"{a.rank} rank"), Chip(f"player {a.controller}", "info")]
        if a.paralyzed:
            chips.append(Chip("Paralyzed", "token"))
        if a.name in o.activated:
            chips.append(Chip("activates", "good"))
        elif a.name in o.selected:
            chips.append(Chip("selected, skips", "bad"))
        cards.append(Card(a.name, "selected" if a.name in o.selected else "not selected", chips=tuple(chips),
                          marked=a.name in o.selected))
    return cards


def _event(sc, o) -> list[Card]:
    cards = [Card("Event card", f"balancer: {sc.balancer.replace('_', ' ')}",
                  chips=(Chip(f"{plural(sc.signals, 'signal')} in play"),
                         Chip(f"teleports {o.teleport}", "bad" if o.teleport else "good")), marked=True)]
    for f in sc.figures:
        chips = [Chip(f.side)]
        if f.bleeding:
            chips.append(Chip("Bleeding", "bad"))
        if f.prime_swarm:
            chips.append(Chip("Prime Swarm", "token"))
        cards.append(Card(f.name, chips=tuple(chips)))
    return cards


def _wings(sc, o) -> list[Card]:
    before = {a.name: a for a in sc.agents}
    cards = []
    for name, rank in o.ranks:
        a = before[name]
        p = dict(o.p_success).get(name)
        chips = [Chip(f"{a.rank.title()} → {rank.title()}", "good" if rank != a.rank else "plain")]
        chips.append(Chip(f"chance {p}", "info") if p else Chip("could not roll"))
        if a.rolled:
            chips.append(Chip("rolled " + ", ".join(a.rolled)))
        cards.append(Card(name, f"rank {rank.title()}", chips=tuple(chips), marked=rank != a.rank))
    return cards


def _healing(sc, o) -> list[Card]:
    after = dict(o.wounds)
    cards = []
    for f in sc.figures:
        w = after.get(f.name, f.wounds)
        chips = [Chip(f.side.replace("_", " ")), Chip(f"Area {f.area}")]
        if f.name in o.healed:
            chips.append(Chip(f"healed {f.wounds - w}", "good"))
        cards.append(Card(f.name, f"{f.wounds} → {plural(w, 'wound')}" + (" (target)" if f.name == sc.target else ""),
                          chips=tuple(chips), marked=f.name in o.healed))
    return cards


def _npc_assignment(sc, o) -> list[Card]:
    before = {p.name: p.npc_cards for p in sc.players}
    cards = []
    for name, n in o.cards:
        chips = []
        if name == o.assigned_to:
            chips.append(Chip("gets the new card", "good"))
        if name == sc.specialist:
            chips.append(Chip("Specialist", "gold"))
        cards.append(Card(name, f"held {before.get(name, 0)}", (Track("NPC cards", n, 5, "info"),), tuple(chips),
                          marked=name == o.assigned_to))
    return cards


def _round(sc, o) -> list[Card]:
    turns = {t.agent: t for t in o.turns}
    cards = []
    for t in o.agents + o.npcs:
        chips = list(_tokens(t.poison, t.mark))
        turn = turns.get(t.name)
        if turn is not None:
            chips += [Chip(a, "info") for a in turn.activities]
        if o.suit is not None and o.suit.equipped_by == t.name:
            chips.append(Chip(f"wears the Power Suit ({plural(o.suit.batteries, 'Battery')})", "gold"))
        if o.menace is not None and o.menace.holder == t.name:
            chips.append(Chip(f"Menace Level {o.menace.level}", "token"))
        role = "agent" if t in o.agents else "NPC"
        cards.append(Card(t.name, role + ("" if turn is None else ": played a turn"),
                          (Track("Wounds", t.wounds, t.max_health),), tuple(chips), marked=turn is not None,
                          out=t.status().capitalize() if t.down else ""))
    return cards


def _mission(sc, o) -> list[Card]:
    """The mission (Storybook 2.4: the objectives row that matched, the next mission; the cards drawn from the
    Events deck against the DEADLINE, a stand-in count unless the scenario gives it: a special event put on top of
    the deck takes no place in it, Storybook 2.2, and is shown as a chip), then one card per counter."""
    from .missions import STATUS_WORDS, deck_cards, storybook_missions

    m = storybook_missions().get(o.mission)
    deadline = getattr(sc, "deadline", None) or (m.deadline if m is not None else len(o.events))
    top = m.on_top() if m is not None else frozenset()
    from_deck = deck_cards(m, o.events) if m is not None else len(o.events)
    tone = {"accomplished": "good", "partial": "gold", "failed": "bad"}.get(o.status or "", "info")
    chips = [Chip(STATUS_WORDS[o.status] + f" (row {o.row})" if o.status else "goes on", tone)]
    if o.next:
        chips.append(Chip(f"next: {o.next}", "info"))
    chips += [Chip(f"Special Event {e}" + (" (on top)" if e in top else ""), "token") for e in o.events if e != "-"]
    cards = [Card(f"Mission {o.mission}", o.title, (Track("Events deck", from_deck, max(deadline, from_deck),
                                                          "info"),), tuple(chips), marked=o.status is not None)]
    for name, value in o.counters:
        cards.append(Card(name.replace("_", " ").capitalize(), f"{value} after round {o.rounds}",
                          chips=(Chip(str(value), "token"),)))
    return cards


KINDS = {"conditions": _conditions, "menace": _menace, "close_encounter": _close_encounter, "event": _event,
         "gd_wings": _wings, "healing": _healing, "npc_assignment": _npc_assignment, "round": _round,
         "mission": _mission}
"""The kinds drawn here, each with the function that makes its cards from ``(scenario, outcome)``."""


def phase_picture(kind: str, scenario, trace: Trace) -> str | None:
    """The SVG of a resolved scenario of one of :data:`KINDS` (``trace.result`` its typed outcome), titled with the
    scenario's title and noted with the outcome's summary; ``None`` for another kind."""
    make = KINDS.get(kind)
    if make is None:
        return None
    o = trace.result
    note = getattr(o, "summary", "") or ""
    if kind == "conditions":
        note = f"{plural(o.wounds_suffered, 'wound')} suffered; {o.final.name}: {o.final.status()}"
    elif kind == "round":
        note = f"Round {o.round}: {plural(len(o.turns), 'agent turn')} played" + (
            "" if o.teleported is None else f"; the Event card teleports {plural(o.teleported, 'signal')}")
    return sheet_svg(make(scenario, o), getattr(scenario, "title", "") or "", note,
                     columns=4 if kind in ("conditions", "npc_assignment") else 3)
