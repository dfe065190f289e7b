"""What a Round step-through shows at each cited step of a ``round`` scenario, drawn from the kernel frames' typed
state (:class:`.round_scenario.RoundState`): each hero's sheet (its aspect slots and the tokens on them, the tokens
left in its supply, damage, the empowered token, support and team-up cards), the bases' slots taken, the tracks, the
decks and the loss gauges. No widget here: the data a Round page (not built yet) and ``explorer dagger step`` draw.

Rulebook sections shown: Gameplay › Hero Phase (tokens, slots, whose turn), Additional Rules › Support Cards,
Additional Rules › Team-up Abilities, Winning and Losing (the gauges).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from explorer.kernel import steps_shown
from explorer.text import plural
from explorer.trace import Step

from .nemesis import Gauge, loss_gauges
from .results import NOT_READY
from .state import GameState
from .round_scenario import ABILITY, DAGGER, RoundScenario, RoundState, play_rounds, whose_turn


@dataclass(frozen=True)
class HeroPanel:
    """One hero's sheet at a position: ``slots`` (``((slot, token or ""), ...)``: the sheet's aspect slots, then its
    token abilities as ``"ability:<name>"``), ``supply`` (``(boosted, standard)`` tokens left), ``support``
    (``((card, "ready" | "exhausted n/charge" | "hero-specific, not gained yet"), ...)``), ``team_up``
    (``"<card> ready"`` / ``"... greyed out side up"`` or ``""``) and ``to_play`` (it is this hero's turn)."""

    hero: str
    space: str
    damage: int
    health: int
    empowered: bool
    shattered: bool
    supply: tuple[int, int]
    slots: tuple[tuple[str, str], ...]
    support: tuple[tuple[str, str], ...]
    team_up: str
    to_play: bool


@dataclass(frozen=True)
class RoundPosition:
    """One cited ``step`` of a ``round`` trace and the game as its step function leaves it: ``frame`` (the kernel
    frame's index) and ``frame_name``, the ``heroes`` (:class:`HeroPanel`, hero order), the bases' slots taken
    (``((base, hero, token), ...)``), ``threat``, ``team_up``, ``overrun`` (sorted), ``events_left`` (the cards in
    the event deck as the rules hold it: during Setup the deck Setup has stacked, ``None`` before it is), the ``side``
    mission slots (names, ``""`` empty), the ``gauges`` and ``in_setup`` (the position is in Setup, before the
    board is dealt); ``shown`` and ``settled`` say which frame's state it shows (:func:`positions_from`)."""

    step: Step
    frame: int
    frame_name: str
    round: int
    heroes: tuple[HeroPanel, ...]
    bases: tuple[tuple[str, str, str], ...]
    threat: int
    team_up: int
    overrun: tuple[str, ...]
    events_left: int | None
    side: tuple[str, ...]
    gauges: tuple[Gauge, ...]
    in_setup: bool
    shown: int = -1
    """The frame whose state the position shows (``frame`` at the frame's last step, the previous frame before)."""
    settled: bool = True
    """``False`` for a step before its frame's last: the frame's changes are shown at its last step."""
    nemesis: str = ""
    """The nemesis standee in words (:func:`nemesis_words`: its space, damage and stun token), ``""`` with none."""
    note: str = ""
    """Which state is shown, in words, when it is not the state after the step
    (:meth:`explorer.kernel.StepShown.note`)."""


def hero_panels(sc: RoundScenario, state: RoundState) -> tuple[HeroPanel, ...]:
    """Each hero's :class:`HeroPanel` in ``state`` (Gameplay › Hero Phase: one token per slot)."""
    due = whose_turn(state) if state.declared else None
    out = []
    for h in state.game.heroes:
        sheet = sc.sheet(h.name)
        on = {p.slot: p.token for p in state.placed if p.hero == h.name}
        slots = tuple((s, on.get(s, "")) for s in sheet.slots) + tuple(
            (f"{ABILITY}:{a.name}", on.get(f"{ABILITY}:{a.name}", "")) for a in sheet.abilities if a.token)
        sup = state.supply(h.name)
        cards = tuple((c.name, "hero-specific, not gained yet" if not c.gained else
                       f"exhausted {c.progress}/{c.charge}" if c.exhausted else "ready")
                      for c in state.cards if c.hero == h.name)
        team = next((f"{c.name} {'ready' if c.ready else NOT_READY}" for c in state.team_cards
                     if c.hero == h.name), "")
        out.append(HeroPanel(h.name, h.space, h.damage, h.health, h.empowered, h.shattered,
                             (sup.boosted, sup.standard), slots, cards, team, h.name == due))
    return tuple(out)


def deck_words(events_left: int | None) -> str:
    """The event deck in words: ``"12 event cards left"``, or ``"event deck not built yet"`` during Setup before
    the piles are stacked (``None``)."""
    return "event deck not built yet" if events_left is None else f"{plural(events_left, 'event card')} left"


def _shown_game(st: RoundState, in_setup: bool) -> GameState:
    """The game a position shows: during Setup the event deck is the one Setup has stacked so far (Setup: the
    piles become the deck at its stacking step), not the file's card list."""
    g = st.game
    if not in_setup:
        return g
    cards = {c.name: c for c in g.event_deck}
    return g.evolve(event_deck=tuple(cards[n] for n in st.setup.event_deck if n in cards))


def round_positions(sc: RoundScenario, rulings: Mapping[str, str] | None = None, seed: int | None = None
                    ) -> list[RoundPosition]:
    """One :class:`RoundPosition` per cited step of the scenario's play (:func:`.round_scenario.play_rounds`), in
    order; going back is reading an earlier position (the frames are replayed, never undone). A refused turn ends the
    positions (its "Not allowed" step is in the trace, not a frame)."""
    frames, _refusal, start, _ctx = play_rounds(sc, rulings, seed)
    return positions_from(sc, frames, start)


def positions_from(sc: RoundScenario, frames, start: RoundState) -> list[RoundPosition]:
    """:func:`round_positions` of frames already played from ``start`` (:func:`.round_scenario.play_rounds`).

    What each step shows follows the one rule of :func:`explorer.kernel.steps_shown`: a frame (a hero's whole turn,
    say) cites several steps but has one state, the one after it; its last step shows that state, a step before it
    the game as the frame found it (the previous frame's state, ``start`` before the first frame) — never a hero
    already where a later step of the same turn puts him. ``RoundPosition.shown`` is the index of the frame whose
    state a position shows (``-1``: ``start``)."""
    out = []
    for at in steps_shown(frames):
        k = at.shown
        st = frames[k].state if k >= 0 else start
        in_setup = st.setup is not None and not any(fr.name == "Setup › the board" for fr in frames[:k + 1])
        g = _shown_game(st, in_setup)
        built = not in_setup or bool(st.setup.event_deck)
        gauges = loss_gauges(g) if built else tuple(
            replace(x, value=None, text="event deck not built yet (Setup stacks it)") if x.name == "events" else x
            for x in loss_gauges(g))
        bases = tuple((p.slot.split(":", 1)[1], p.hero, p.token) for p in st.placed
                      if p.slot.startswith(DAGGER + ":"))
        out.append(RoundPosition(at.step, at.frame, frames[at.frame].name, g.round, hero_panels(sc, st), bases,
                                 g.threat, g.team_up, tuple(sorted(g.overrun)),
                                 len(g.event_deck) if built else None,
                                 tuple(m.name if m else "" for m in g.side_slots), gauges, in_setup,
                                 shown=k, settled=at.settled, note=at.note(frames[at.frame].name),
                                 nemesis=nemesis_words(g)))
    return out


def nemesis_words(g: GameState) -> str:
    """The nemesis on the board in words: ``"Nemesis on Latveria, damage 3/3, stun token"`` (Additional Rules ›
    Damage and Defeat: a nemesis defeated before the Final Showdown takes a stun token), ``""`` when none is in
    play."""
    e = g.nemesis_enemy()
    if e is None:
        return ""
    return f"{e.id} on {e.space}, damage {e.damage}/{e.health}" + (", stun token" if e.stunned else "")


def position_text(pos: RoundPosition, number: int, total: int) -> str:
    """A position in words (``explorer dagger step``): the step and its rule, then each hero's sheet, the bases'
    slots, the tracks and decks, and the loss gauges."""
    s = pos.step
    lines = [f"Step {number}/{total} · {s.section}", f"  {s.title}  [{s.rule.game}: {s.rule.section}]"]
    if s.detail:
        lines.append(f"  {s.detail}")
    if pos.in_setup:
        lines.append("  (Setup: the board is dealt at its last step)")
    if pos.note:
        lines.append(f"  ({pos.note})")
    for h in pos.heroes:
        slots = ", ".join(f"{n} [{t or ' '}]" for n, t in h.slots)
        extra = [x for x in (("empowered" if h.empowered else ""), ("shattered" if h.shattered else ""),
                             h.team_up and f"team-up card {h.team_up}") if x]
        extra += [f"support {n} {w}" for n, w in h.support]
        lines.append(f"  {'▶ ' if h.to_play else '  '}{h.hero} on {h.space or 'no space'}: damage {h.damage}/"
                     f"{h.health}; supply {h.supply[0]} boosted + {h.supply[1]} standard; slots {slots}"
                     + (f"; {'; '.join(extra)}" if extra else ""))
    if pos.bases:
        lines.append("  Base slots: " + "; ".join(f"{b} ({h}, {t})" for b, h, t in pos.bases))
    side = [m for m in pos.side if m]
    lines.append(f"  Threat {pos.threat}, team-up {pos.team_up}; {deck_words(pos.events_left)}; "
                 f"overrun: {', '.join(pos.overrun) or 'none'}; side missions: {', '.join(side) or 'none'}"
                 + (f"; nemesis: {pos.nemesis}" if pos.nemesis else ""))
    lines.append("  Loss gauges: " + "; ".join(g.text for g in pos.gauges))
    return "\n".join(lines)


__all__ = ["HeroPanel", "RoundPosition", "deck_words", "hero_panels", "round_positions", "positions_from",
           "position_text", "nemesis_words"]
