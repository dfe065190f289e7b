"""The Nemesis Phase of Marvel D.A.G.G.E.R. as small step functions over immutable state, End of Round, and the
Winning and Losing checks.

Rulebook sections (titles in :mod:`.sections`): Nemesis Phase › 1. Advance Threat; 2. Check Nemesis Mission;
3. Resolve Event Cards (event text, ongoing mission effects, side mission spawn, nemesis ability, enemy activation —
attack / overrun / move toward the nearest operational base —, spawns, discard); End of Round; Final Showdown (flip
the sheet when the last nemesis mission is completed); Winning and Losing; Additional Rules › Nearby and Overrun,
Missions (side missions), Damage and Defeat (hero defeat: threat + heroes, shattered side, elimination).

Every step function has the shape ``step(state: GameState, ctx: PhaseContext) -> (GameState, list[Step])`` and is
named after its rulebook step; :data:`PHASE_STEPS` lists them in order, and :func:`play_phase` /
:func:`play_phases` run them, checking the loss conditions after every step (:func:`loss_gauges` says how close each
is). Player choices (which hero an enemy attacks, which tied base it heads for, which route it takes, the activation
order within a rank, where a defeated hero's new standee is placed) come from :class:`Choices`, each with a stated
default that the step records in ``facts["choice"]``. Nothing here rolls dice: the phase is deterministic given the
decks' order, so "back" in a stepper is a replay of the same steps.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from itertools import repeat
from typing import NamedTuple

from explorer.options import Rulings
from explorer.text import join_words, plural
from explorer.trace import RuleRef, Step

from . import sections as S
from .state import THREAT_LOSS, Effect, Enemy, GameState, Hero, Mission, evolve
from .worldmap import WorldMap, nearest_operational_bases


@dataclass(frozen=True)
class Choices:
    """Player choices the rules leave to the table, each with a default.

    Attributes:
        activation_order: enemy ids; enemies of the same activation rank activate in this order first (default: the
            order they are listed in the state).
        attack_target: ``{enemy id: hero name}`` when several heroes share the enemy's space (default: the first of
            them in hero order).
        base_tie: ``{enemy id: base name}`` when several operational bases are equally near (the 1st player chooses;
            default: the first in base order).
        move_via: ``{enemy id: space}`` when several adjacent spaces are one line closer to the target base (default:
            the first in map order; the rulebook does not say who chooses).
        respawn: ``{hero name: base name}``: where a defeated hero's new standee is placed at the start of the next
            Hero Phase (default: the first operational base in base order).
    """

    activation_order: tuple[str, ...] = ()
    attack_target: Mapping[str, str] = field(default_factory=dict)
    base_tie: Mapping[str, str] = field(default_factory=dict)
    move_via: Mapping[str, str] = field(default_factory=dict)
    respawn: Mapping[str, str] = field(default_factory=dict)


@dataclass
class PhaseContext:
    """What a step needs besides the state: the ``world`` map, the ``rulings`` (readings consulted are recorded),
    the ``choices``, and ``choices_made`` (filled in: every choice point met, with its options and what was taken)."""

    world: WorldMap
    rulings: Rulings
    choices: Choices = field(default_factory=Choices)
    choices_made: list[dict] = field(default_factory=list)

    def choose(self, kind: str, key: str, options: tuple[str, ...], default: str, why: str) -> tuple[str, dict]:
        """Pick among ``options`` (the table's input under ``kind``/``key`` if valid, else ``default``) and record it.
        An input that is not among the options is ignored and reported."""
        given = getattr(self.choices, kind).get(key) if kind != "activation_order" else None
        note = ""
        if given is not None and given not in options:
            note = f"input {given!r} is not one of the options; default used"
            given = None
        chosen = given if given is not None else default
        rec = {"input": f"{kind}.{key}", "options": list(options), "chosen": chosen,
               "default_used": given is None, "default": default, "why_default": why}
        if note:
            rec["note"] = note
        self.choices_made.append(rec)
        return chosen, rec


StepFn = Callable[[GameState, PhaseContext], tuple[GameState, list[Step]]]


def _step(title: str, rule: RuleRef, detail: str = "", section: str = "", marks=(), **facts) -> Step:
    return Step(title, rule, detail, facts, tuple(marks), section)


SEC1, SEC2, SEC3, SEC_END = "1. Advance Threat", "2. Check Nemesis Mission", "3. Resolve Event Cards", "End of Round"


# ---------------------------------------------------------------------------------------------- effects, defeat


def _hero_targets(state: GameState, ctx: PhaseContext, where: str) -> tuple[list[Hero], str]:
    on_board = [h for h in state.heroes if h.space and not h.eliminated]
    if where == "all":
        return on_board, "every hero"
    kind, _, arg = where.partition(":")
    nem = state.nemesis_enemy()
    if kind == "space":
        return [h for h in on_board if h.space == arg], f"heroes on {arg}"
    if kind == "nearby":
        own = ctx.rulings.reading("nearby_space_itself") == "same_and_adjacent"
        spaces = ctx.world.nearby_spaces(arg, include_self=own)
        return [h for h in on_board if h.space in spaces], f"heroes on the spaces nearby {arg} ({', '.join(spaces)})"
    if kind in ("nemesis_space", "nearby_nemesis") and nem is not None:
        spaces = (nem.space,) if kind == "nemesis_space" else ctx.world.nearby_spaces(nem.space, include_self=True)
        return [h for h in on_board if h.space in spaces], f"heroes {'on' if kind == 'nemesis_space' else 'nearby'} " \
            f"the nemesis ({', '.join(spaces)})"
    return [], f"no hero ({where})"


def damage_hero(state: GameState, ctx: PhaseContext, hero: Hero, amount: int, source: str,
                section: str) -> tuple[GameState, list[Step]]:
    """``hero`` suffers ``amount`` damage from ``source``; at damage = health it is defeated (:func:`defeat_hero`).
    (Additional Rules › Damage and Defeat.)"""
    h = evolve(hero, damage=min(hero.health, hero.damage + amount))
    state = state.with_hero(h)
    steps = [_step(f"{hero.name} suffers {amount} damage ({h.damage}/{h.health})", S.DAMAGE_AND_DEFEAT,
                   f"From {source}.", section, (hero.name,), hero=hero.name, damage=h.damage, health=h.health)]
    if h.damage >= h.health:
        state, more = defeat_hero(state, ctx, h, section)
        steps += more
    return state, steps


def defeat_hero(state: GameState, ctx: PhaseContext, hero: Hero, section: str) -> tuple[GameState, list[Step]]:
    """A hero is defeated (Additional Rules › Damage and Defeat, its seven steps, numbered in the trace): (1) threat
    advances by the number of heroes in the game; (2) the standee, mission and hero-specific cards go back to the box;
    (3) tokens are removed; (4) the aspect sheet flips to its shattered side and (5) the hero sheet to its other side;
    (6) the new hero's team-up card is readied for free (not tracked); (7) its new standee is placed on a base at the
    start of the next Hero Phase (:func:`end_of_round`, ``Choices.respawn``). A hero defeated while already shattered
    is eliminated: the Final Showdown must start by the end of the next Hero Phase."""
    state = state.with_threat(state.players, f"{hero.name} defeated")
    steps = [_step(f"{hero.name} is defeated: threat +{state.players} (heroes in the game) → {state.threat}",
                   S.DAMAGE_AND_DEFEAT, "(1) of the seven defeat steps. Per player effects still count eliminated "
                   "players.", section, (hero.name,), threat=state.threat)]
    if hero.shattered:
        h = evolve(hero, space="", eliminated=True)
        deadline = state.round + 1
        state = state.with_hero(h)
        if state.elimination_deadline is None or deadline < state.elimination_deadline:
            state = state.evolve(elimination_deadline=deadline)
        steps.append(_step(f"{hero.name} was shattered: the player is eliminated", S.DAMAGE_AND_DEFEAT,
                           f"The Final Showdown must start by the end of the next Hero Phase (round {deadline}).",
                           section, (hero.name,), eliminated=hero.name, deadline=deadline))
    else:
        h = evolve(hero, space="", damage=0, shattered=True, health=hero.next_health or hero.health)
        state = state.with_hero(h).evolve(hero_missions=tuple(m for m in state.hero_missions if m.hero != hero.name))
        steps.append(_step(f"{hero.name} flips to the shattered side", S.DAMAGE_AND_DEFEAT,
                           "(2) standee, hero mission and hero-specific support cards return to the box (shared "
                           "support cards stay); (3) tokens removed from the character sheet; (4) aspect sheet to its "
                           "shattered side; (5) hero sheet to its other side; (6) the new hero's team-up card is "
                           "readied for free (team-up cards are not tracked here); (7) the new standee is placed on a "
                           "base at the start of the next Hero Phase.", section, (hero.name,),
                           defeat_steps=[2, 3, 4, 5, 6, 7]))
    return state, steps


def apply_effects(state: GameState, ctx: PhaseContext, effects: tuple[Effect, ...], source: str, rule: RuleRef,
                  section: str) -> tuple[GameState, list[Step]]:
    """Apply card effects (data the user entered) in order, one cited step each."""
    steps: list[Step] = []
    for e in effects:
        said = f" ({e.text})" if e.text else ""
        if e.kind == "threat":
            state = state.with_threat(e.amount, source)
            steps.append(_step(f"{source}: threat {e.amount:+d} → {state.threat}", rule, said.strip(" ()"), section,
                               threat=state.threat))
        elif e.kind == "team_up":
            state = state.evolve(team_up=max(0, state.team_up + e.amount))
            steps.append(_step(f"{source}: team-up {e.amount:+d} → {state.team_up}", rule, said.strip(" ()"),
                               section, team_up=state.team_up))
        elif e.kind == "damage_heroes":
            targets, who = _hero_targets(state, ctx, e.where)
            steps.append(_step(f"{source}: {e.amount} damage to {who}", rule,
                               (", ".join(h.name for h in targets) or "nobody is there") + said, section,
                               tuple(h.name for h in targets)))
            for h in targets:
                state, more = damage_hero(state, ctx, state.heroes[[x.name for x in state.heroes].index(h.name)],
                                          e.amount, source, section)
                steps += more
        elif e.kind == "progress":
            m = next((m for m in state.active_missions() if m.name == e.mission), None)
            if m is None:
                steps.append(_step(f"{source}: mission {e.mission!r} is not in play; no progress", rule, said, section))
            else:
                m2 = evolve(m, progress=max(0, m.progress + e.amount))
                state = state.with_mission(m2)
                steps.append(_step(f"{source}: {e.amount:+d} progress on {m.name} → {m2.progress}", rule, said,
                                   section, mission=m.name, progress=m2.progress))
        elif e.kind == "overrun":
            state, more = overrun_base(state, e.base, source, section)
            steps += more
        else:
            steps.append(_step(f"{source}: {e.text or 'no game effect'}", rule,
                               "A note: it changes nothing the explorer tracks.", section))
    return state, steps


def overrun_base(state: GameState, base: str, source: str, section: str) -> tuple[GameState, list[Step]]:
    """Place an overrun token on ``base`` (Additional Rules › Nearby and Overrun). Asgard is not a base."""
    if base not in dict(state.bases):
        return state, [_step(f"{source}: {base!r} is not a base; nothing to overrun", S.NEARBY_AND_OVERRUN,
                             section=section)]
    if base in state.overrun:
        return state, [_step(f"{base} is already overrun", S.NEARBY_AND_OVERRUN, section=section, marks=(base,))]
    state = state.evolve(overrun=state.overrun | {base}, log=state.log + (f"overrun {base}",))
    return state, [_step(f"Overrun token on {base} ({len(state.overrun)}/{len(state.bases)} bases overrun)",
                         S.NEARBY_AND_OVERRUN, f"By {source}. The token covers the base's D.A.G.G.E.R. effect; no "
                         "hero mission can be put into play there.", section, (base, state.base_space(base)),
                         overrun=sorted(state.overrun))]


def spawn_side_mission(state: GameState, ctx: PhaseContext, section: str, why: str) -> tuple[GameState, list[Step]]:
    """Reveal a side mission into an empty slot; with no empty slot, advance threat by 1 + number of heroes
    (Missions › Side Missions). An elite side mission places its elite on the indicated space."""
    if None not in state.side_slots:
        n = 1 + state.players
        state = state.with_threat(n, "no empty side mission slot")
        return state, [_step(f"No empty side mission slot: threat +{n} (1 + {state.players} heroes) → {state.threat}",
                             S.SIDE_MISSIONS, why, section, threat=state.threat)]
    if not state.side_deck:
        if ctx.rulings.reading("side_deck_empty") == "threat":
            n = 1 + state.players
            state = state.with_threat(n, "side mission deck empty")
            return state, [_step(f"Side mission deck empty: threat +{n} → {state.threat}", S.SIDE_MISSIONS,
                                 "Ruling side_deck_empty = threat.", section, threat=state.threat)]
        return state, [_step("Side mission deck empty: no side mission spawns", S.SIDE_MISSIONS,
                             "Ruling side_deck_empty = nothing.", section)]
    card, rest = state.side_deck[0], state.side_deck[1:]
    slot = state.side_slots.index(None)
    m = card.mission
    steps = []
    enemies = state.enemies
    if card.elite is not None:
        m = evolve(m, elite=card.elite.name)
        enemies = enemies + (Enemy(card.elite.name, "elite", m.space, card.elite.power, card.elite.health),)
    slots = state.side_slots[:slot] + (m,) + state.side_slots[slot + 1:]
    state = state.evolve(side_slots=slots, side_deck=rest, enemies=enemies,
                    log=state.log + (f"side mission {m.name}",))
    tv = f"threat value {m.threat_value}" if m.threat_value is not None else "no threat value"
    steps.append(_step(f"Side mission {m.name} revealed into slot {slot + 1} ({tv})", S.SIDE_MISSIONS,
                       why + (f" A token marks {m.space}." if m.space else ""), section,
                       tuple(x for x in (m.space, m.elite) if x), mission=m.name, slot=slot + 1))
    if card.elite is not None:
        steps.append(_step(f"Elite {card.elite.name} placed on {m.space}", S.SIDE_MISSIONS,
                           "Some side missions are elite enemies: the standee goes on the indicated space.", section,
                           (card.elite.name, m.space)))
    return state, steps


# ------------------------------------------------------------------------------------------------ step 1 and 2


def advance_threat(state: GameState, ctx: PhaseContext) -> tuple[GameState, list[Step]]:
    """Nemesis Phase › 1. Advance Threat: the nemesis sheet's threat value, + 1 per non-nemesis enemy in play, + 1 per
    overrun base, + the threat value of each side or hero mission that has one."""
    non_nemesis = [e for e in state.enemies if e.kind != "nemesis"]
    missions = [m for m in tuple(x for x in state.side_slots if x is not None) + state.hero_missions
                if m.threat_value is not None]
    parts = [("nemesis threat value", state.nemesis.threat_value), ("non-nemesis enemies", len(non_nemesis)),
             ("overrun bases", len(state.overrun))] + [(f"{m.kind} mission {m.name}", m.threat_value)
                                                     for m in missions]
    total = sum(v for _, v in parts)
    before = state.threat
    state = state.evolve(threat=before + total, log=state.log + (f"threat +{total}: step 1",))
    detail = " + ".join(f"{v} ({k})" for k, v in parts)
    return state, [_step(f"Threat advances {before} → {state.threat} (+{total})", S.ADVANCE_THREAT,
                         f"{before} + {detail} = {state.threat}.", SEC1, tuple(e.id for e in non_nemesis),
                         before=before, after=state.threat, parts=[[k, v] for k, v in parts])]


def _mission_check(state: GameState, ctx: PhaseContext, m: Mission) -> tuple[str | None, str]:
    if m.progress_value is not None and m.progress >= m.progress_value:
        return "passed", f"progress {m.progress} >= progress value {m.progress_value}"
    if m.progress_value is None and m.condition_met:
        return "passed", "its described (asterisk) condition is met"
    pv = f"progress {m.progress}/{m.progress_value}" if m.progress_value is not None else "condition not met"
    if m.threat_value is not None:
        literal = ctx.rulings.reading("mission_fail_comparison") == "literal"
        failed = m.threat_value >= state.threat if literal else state.threat >= m.threat_value
        cmp = (f"threat value {m.threat_value} {'>=' if failed else '<'} track {state.threat}" if literal
               else f"track {state.threat} {'>=' if failed else '<'} threat value {m.threat_value}")
        if failed:
            return "failed", f"{pv}; {cmp}"
        return None, f"{pv}; {cmp}"
    return None, f"{pv}; no threat value"


def final_showdown(state: GameState, section: str) -> tuple[GameState, list[Step]]:
    """Final Showdown: flip the nemesis sheet; its stun and damage tokens are discarded (other tokens stay); its
    health becomes the showdown health for the number of players."""
    nem = state.nemesis_enemy()
    if nem is not None:
        hp = state.nemesis.showdown_health or nem.health
        state = state.with_enemy(evolve(nem, damage=0, stunned=False, health=hp))
    state = state.evolve(showdown=True, log=state.log + ("final showdown",))
    return state, [_step("Final Showdown: the nemesis sheet flips to its showdown side", S.FINAL_SHOWDOWN,
                         "Stun and damage on the nemesis are discarded; the sheet's showdown rules now apply "
                         "(entered as data, not modelled here); missions and enemies stay in play.", section,
                         showdown=True)]


def check_nemesis_mission(state: GameState, ctx: PhaseContext) -> tuple[GameState, list[Step]]:
    """Nemesis Phase › 2. Check Nemesis Mission: the top card of the nemesis mission deck is passed (progress >= its
    progress value, checked first) or failed (threat, ruling ``mission_fail_comparison``). A 1st strike is removed
    and mission I revealed; another mission is slid under the board and its check / X effect resolved. Any completion
    resets the threat track to 0; a nemesis mission's also spawns a side mission; the last one starts the Final
    Showdown."""
    if not state.nemesis_deck:
        return state, [_step("No nemesis mission left to check", S.CHECK_NEMESIS_MISSION,
                             "The Final Showdown is under way.", SEC2)]
    steps: list[Step] = []
    completed: list[Mission] = []
    while state.nemesis_deck:
        m = state.nemesis_deck[0]
        result, why = _mission_check(state, ctx, m)
        label = "1st strike" if m.kind == "first_strike" else "nemesis mission"
        if result is None:
            steps.append(_step(f"{label.capitalize()} {m.name} is not completed", S.CHECK_NEMESIS_MISSION,
                               why + ".", SEC2, (m.name,), mission=m.name, result="open"))
            break
        completed.append(m)
        deck = state.nemesis_deck[1:]
        state = state.evolve(nemesis_deck=deck, log=state.log + (f"{m.name} {result}",))
        if m.kind == "first_strike":
            nxt = f"; {deck[0].name} is revealed" if deck else ""
            steps.append(_step(f"1st strike {m.name} {result}: removed from the game{nxt}", S.CHECK_NEMESIS_MISSION,
                               why + ".", SEC2, (m.name,), mission=m.name, result=result))
            if deck and ctx.rulings.reading("revealed_mission_check") == "same_step":
                continue
            break
        state = state.evolve(completed_nemesis=state.completed_nemesis + ((m.name, result),))
        side = "green check" if result == "passed" else "red X"
        steps.append(_step(f"Nemesis mission {m.name} {result}: slid under the board, {side} showing",
                           S.CHECK_NEMESIS_MISSION, why + ".", SEC2, (m.name,), mission=m.name, result=result))
        effects = m.on_pass if result == "passed" else m.on_fail
        state, more = apply_effects(state, ctx, effects, f"{m.name} ({side})", S.CHECK_NEMESIS_MISSION, SEC2)
        steps += more
        break
    if not completed:
        return state, steps
    before = state.threat
    state = state.evolve(threat=0, log=state.log + ("threat reset",))
    steps.append(_step(f"A mission was completed: threat resets {before} → 0", S.CHECK_NEMESIS_MISSION, "", SEC2,
                       threat=0))
    spawn = any(m.kind == "nemesis" for m in completed) or (
        any(m.kind == "first_strike" for m in completed)
        and ctx.rulings.reading("first_strike_side_mission") == "yes")
    if spawn:
        state, more = spawn_side_mission(state, ctx, SEC2, "A nemesis mission was completed: a side mission spawns.")
        steps += more
    if not state.nemesis_deck and any(m.kind == "nemesis" for m in completed):
        state, more = final_showdown(state, SEC2)
        steps += more
    return state, steps


# ------------------------------------------------------------------------------------------------- step 3


def draw_event(state: GameState, ctx: PhaseContext) -> tuple[GameState, list[Step]]:
    """Nemesis Phase › 3: with no event card in the event deck the heroes lose; otherwise the top card is resolved."""
    if not state.event_deck:
        state = state.losing("no event card to draw")
        return state, [_step("No event card left: the heroes lose", S.RESOLVE_EVENT_CARDS, "", SEC3, lost=True)]
    card = state.event_deck[0]
    state = state.evolve(event_deck=state.event_deck[1:], current_event=card, log=state.log + (f"event {card.name}",))
    ex = " (an example card, not a printed one)" if card.example else ""
    return state, [_step(f"Event {card.name} is drawn{ex}", S.RESOLVE_EVENT_CARDS,
                         f"{plural(len(state.event_deck), 'event card')} "
                         f"{'remains' if len(state.event_deck) == 1 else 'remain'} "
                         "in the deck.", SEC3, event=card.name,
                         left=len(state.event_deck))]


def resolve_event_text(state: GameState, ctx: PhaseContext) -> tuple[GameState, list[Step]]:
    """Resolve the text of the event (its effects, as entered)."""
    card = state.current_event
    head = _step(f"Event text: {card.text or '(none entered)'}", S.EVENT_TEXT, "", SEC3, event=card.name)
    state, steps = apply_effects(state, ctx, card.effects, card.name, S.EVENT_TEXT, SEC3)
    return state, [head] + steps


def resolve_ongoing_effects(state: GameState, ctx: PhaseContext) -> tuple[GameState, list[Step]]:
    """Resolve the ongoing effects at the bottom of every active mission (top nemesis mission, side, hero)."""
    steps: list[Step] = []
    active = [m for m in state.active_missions() if m.ongoing]
    if not active:
        return state, [_step("No active mission has an ongoing effect", S.ONGOING_EFFECTS, "", SEC3)]
    for m in active:
        state, more = apply_effects(state, ctx, m.ongoing, f"{m.name} (ongoing)", S.ONGOING_EFFECTS, SEC3)
        steps += more
    return state, steps


def spawn_side_mission_step(state: GameState, ctx: PhaseContext) -> tuple[GameState, list[Step]]:
    """Spawn a new side mission in an empty slot, else threat + (1 + number of heroes)."""
    return spawn_side_mission(state, ctx, SEC3, "Every event spawns a side mission.")


def resolve_nemesis_ability(state: GameState, ctx: PhaseContext) -> tuple[GameState, list[Step]]:
    """Resolve the ability on the nemesis sheet that matches the event's icon."""
    icon = state.current_event.nemesis_icon
    if not icon:
        return state, [_step("The event shows no nemesis ability icon", S.NEMESIS_ABILITY, "", SEC3)]
    effects = state.nemesis.ability(icon)
    if effects is None:
        return state, [_step(f"The nemesis sheet has no ability for icon {icon!r}", S.NEMESIS_ABILITY, "", SEC3)]
    head = _step(f"Nemesis ability {icon!r} of {state.nemesis.name}", S.NEMESIS_ABILITY, "", SEC3, icon=icon)
    state, steps = apply_effects(state, ctx, effects, f"{state.nemesis.name} ({icon})", S.NEMESIS_ABILITY, SEC3)
    return state, [head] + steps


def _activated(state: GameState, row: tuple[str, ...]) -> list[Enemy]:
    out: list[Enemy] = []
    for e in state.enemies:
        keys = {"nemesis": ("nemesis",), "elite": ("elite",), "nemesis_specific": ("nemesis-specific",),
                "standard": (f"rank-{e.rank}",)}[e.kind]
        if any(k in row for k in keys):
            out.append(e)
    return out


def activation_order(state: GameState, ctx: PhaseContext, enemies: list[Enemy]) -> tuple[list[Enemy], list[dict]]:
    """Order the activated enemies: power 1–4, then Elite, then the Nemesis; enemies of the same power are in the
    players' order (``Choices.activation_order``; default: state order). Returns the order and the tie groups."""
    def group(e: Enemy) -> tuple[int, int]:
        return (2, 0) if e.kind == "nemesis" else (1, 0) if e.kind == "elite" else (0, e.power)
    pref = {eid: i for i, eid in enumerate(ctx.choices.activation_order)}
    base = {e.id: i for i, e in enumerate(state.enemies)}
    ordered = sorted(enemies, key=lambda e: (group(e), pref.get(e.id, len(pref)), base[e.id]))
    ties = []
    for g in sorted({group(e) for e in enemies}):
        members = [e.id for e in ordered if group(e) == g]
        if len(members) > 1:
            ties.append({"group": "nemesis" if g[0] == 2 else "elite" if g[0] == 1 else f"power {g[1]}",
                         "order": members, "default_used": not any(m in pref for m in members)})
    return ordered, ties


def activate_enemy(state: GameState, ctx: PhaseContext, enemy_id: str) -> tuple[GameState, list[Step]]:
    """One enemy activation: it resolves the first of (1) attack a hero in its space, (2) overrun a base in its
    space, (3) move one space toward the nearest operational base in its region (else the nearest anywhere). A
    stunned nemesis only removes its stun and damage."""
    e = state.enemy(enemy_id)
    rule = S.ENEMY_ACTIVATION
    if e.kind == "nemesis" and e.stunned:
        state = state.with_enemy(evolve(e, stunned=False, damage=0))
        return state, [_step(f"{e.id} is stunned: stun and damage removed, no attack, overrun or move",
                             S.DAMAGE_AND_DEFEAT, "A stunned nemesis skips its next activation.", SEC3, (e.id,),
                             enemy=e.id, action="stun_cleared")]
    heroes = state.heroes_in(e.space)
    if heroes:
        names = tuple(h.name for h in heroes)
        target, rec = ctx.choose("attack_target", e.id, names, names[0], "the first hero listed in the scenario")
        hero = next(h for h in heroes if h.name == target)
        head = _step(f"{e.id} attacks {target} on {e.space} for {e.power}", rule,
                     "A hero is in its space: attacking is the first item it can resolve"
                     + (f"; players chose among {', '.join(names)}" if len(names) > 1 else "") + ".", SEC3,
                     (e.id, target, e.space), enemy=e.id, action="attack", target=target, choice=rec,
                     rejected=["overrun", "move"])
        state, more = damage_hero(state, ctx, hero, e.power, e.id, SEC3)
        return state, [head] + more
    base = state.base_at(e.space)
    no_attack = f"No hero on {e.space}"
    if base is not None and base not in state.overrun:
        state, more = overrun_base(state, base, e.id, SEC3)
        head = _step(f"{e.id} overruns {base}", rule, f"{no_attack}; an operational base is here.", SEC3,
                     (e.id, e.space), enemy=e.id, action="overrun", base=base, rejected=["attack"])
        return state, [head] + more
    if base is not None and ctx.rulings.reading("overrun_base_no_hero") == "stays":
        return state, [_step(f"{e.id} stays on overrun {base}", rule, f"{no_attack}; ruling "
                             "overrun_base_no_hero = stays: it resolves Overrun on its already overrun base.", SEC3,
                             (e.id, e.space), enemy=e.id, action="overrun_again", base=base, rejected=["attack"])]
    why_no_overrun = (f"{base} is already overrun" if base is not None else
                      "Asgard is not a base" if e.space == ctx.world.asgard else f"no base on {e.space}")
    region_distance = ctx.rulings.reading("region_distance")
    near = nearest_operational_bases(ctx.world, e.space, state.operational_bases(), region_distance)
    if near is None:
        return state, [_step(f"{e.id} cannot move: no operational base is left", rule, "", SEC3, (e.id,),
                             enemy=e.id, action="none")]
    chosen, base_rec = ctx.choose("base_tie", e.id, near.bases, near.bases[0],
                                  "the first base in base order (the 1st player chooses)")
    target_space = state.base_space(chosen)
    within = (ctx.world.region_of(e.space) if near.scope == "region" and region_distance == "within_region"
              else None)
    options = ctx.world.steps_toward(e.space, target_space, within)
    via, via_rec = ctx.choose("move_via", e.id, options, options[0], "the first space in map order")
    state = state.with_enemy(evolve(e, space=via))
    state = state.evolve(log=state.log + (f"{e.id} {e.space}->{via}",))
    scope = (f"nearest operational base in its region ({ctx.world.region_of(e.space)})" if near.scope == "region"
             else "no operational base in its region: nearest operational base anywhere")
    tie = f"; tied with {', '.join(b for b in near.bases if b != chosen)}" if len(near.bases) > 1 else ""
    return state, [_step(f"{e.id} moves {e.space} → {via}, toward {chosen} ({near.distance} → {near.distance - 1} "
                         "lines)", rule, f"{no_attack}; {why_no_overrun}. Target: {scope}{tie}.", SEC3,
                         (e.id, e.space, via, target_space), enemy=e.id, action="move", start=e.space, to=via,
                         target=chosen, distance_before=near.distance, scope=near.scope,
                         choice=[base_rec, via_rec], rejected=["attack", "overrun"])]


def plan_activation(state: GameState, ctx: PhaseContext) -> tuple[list[str], list[Step]]:
    """The enemies the event's activation row activates, in activation order (:func:`activation_order`), and the
    step announcing that order."""
    row = state.current_event.activate
    enemies = _activated(state, row)
    if not enemies:
        return [], [_step(f"Activation row {join_words(row)}: no such enemy on the board", S.ENEMY_ACTIVATION, "", SEC3,
                          activate=list(row))]
    ordered, ties = activation_order(state, ctx, enemies)
    for t in ties:
        ctx.choices_made.append({"input": "activation_order", "options": t["order"], "chosen": t["order"],
                                 "default_used": t["default_used"], "group": t["group"]})
    return [e.id for e in ordered], [_step(
        f"Activation order: {', '.join(e.id for e in ordered)}", S.ENEMY_ACTIVATION,
        "Power 1–4, then Elite, then Nemesis; the players order enemies of the same power.", SEC3,
        tuple(e.id for e in ordered), order=[e.id for e in ordered], ties=ties)]


def activate_enemies(state: GameState, ctx: PhaseContext) -> tuple[GameState, list[Step]]:
    """Activate the enemies shown in the event's activation row, in activation order: :func:`plan_activation`, then
    :func:`activate_enemy` for each (the phase runner calls them one by one, so each activation has its own state)."""
    ids, steps = plan_activation(state, ctx)
    for eid in ids:
        state, more = activate_enemy(state, ctx, eid)
        steps += more
        if state.lost:
            break
    return state, steps


def _new_enemy_id(state: GameState, name: str) -> str:
    used = {e.id for e in state.enemies}
    n = 1
    while f"{name} {n}" in used:
        n += 1
    return f"{name} {n}"


def spawn_enemies(state: GameState, ctx: PhaseContext) -> tuple[GameState, list[Step]]:
    """Spawn the enemies of the event's spawn row (as in setup: an icon applies when its pips <= the number of
    heroes). With every standee of that rank on the board, threat advances by the rank instead (a nemesis-specific
    enemy: by the nemesis threat value)."""
    steps: list[Step] = []
    card = state.current_event
    if not card.spawns:
        return state, [_step("The spawn row is empty", S.ENEMY_SPAWN, "", SEC3)]
    for icon in card.spawns:
        if icon.pips > state.players:
            steps.append(_step(f"Spawn {icon.enemy} on {icon.space} skipped: {icon.pips} pips > {state.players} "
                               "heroes", S.ENEMY_SPAWN, "", SEC3))
            continue
        t = state.enemy_type(icon.enemy)
        on_board = sum(1 for e in state.enemies if e.type_key == t.key)
        if on_board >= t.standees:
            if t.key == "nemesis-specific":
                n, why = state.nemesis.threat_value, "the nemesis threat value"
            else:
                n, why = t.rank, f"its rank {t.rank}"
            state = state.with_threat(n, f"no {t.name} standee left")
            steps.append(_step(f"All {t.standees} {t.name} standees are on the board: threat +{n} ({why}) → "
                               f"{state.threat}", S.ENEMY_SPAWN, "", SEC3, threat=state.threat))
            continue
        kind = "nemesis_specific" if t.key == "nemesis-specific" else "standard"
        new = Enemy(_new_enemy_id(state, t.name), kind, icon.space, t.power, t.health, rank=t.rank, type_key=t.key)
        state = state.evolve(enemies=state.enemies + (new,), log=state.log + (f"spawn {new.id}@{icon.space}",))
        steps.append(_step(f"{new.id} spawns on {icon.space}", S.ENEMY_SPAWN,
                           f"{on_board + 1} of {t.standees} {t.name} standees now on the board.", SEC3,
                           (new.id, icon.space), enemy=new.id, space=icon.space))
    return state, steps


def discard_event(state: GameState, ctx: PhaseContext) -> tuple[GameState, list[Step]]:
    """Discard the event card."""
    card = state.current_event
    state = state.evolve(discard=state.discard + (card,), current_event=None)
    return state, [_step(f"Event {card.name} is discarded", S.DISCARD_EVENT, "", SEC3)]


# ------------------------------------------------------------------------------------------- end of round, loss


def end_of_round(state: GameState, ctx: PhaseContext) -> tuple[GameState, list[Step]]:
    """End of Round: aspect tokens return to their supplies; the 1st player marker passes clockwise (to the next
    hero whose player is not eliminated). Then, at the start of the next Hero Phase, a defeated hero's new standee is
    placed on a base (``Choices.respawn``)."""
    n = len(state.heroes)
    nxt = state.first_player
    for i in range(1, n + 1):
        cand = (state.first_player + i) % n
        if not state.heroes[cand].eliminated:
            nxt = cand
            break
    state = state.evolve(first_player=nxt, round=state.round + 1)
    steps = [_step(f"End of Round: aspect tokens return; 1st player → {state.heroes[nxt].name}", S.END_OF_ROUND,
                   f"Round {state.round} begins.", SEC_END, first_player=state.heroes[nxt].name, round=state.round)]
    for h in state.heroes:
        if not h.space and not h.eliminated:
            bases = tuple(b for b, _ in state.bases)
            oper = tuple(state.operational_bases())
            where, rec = ctx.choose("respawn", h.name, bases, (oper or bases)[0], "the first operational base")
            state = state.with_hero(evolve(h, space=state.base_space(where)))
            steps.append(_step(f"{h.name}'s new standee is placed on {where}", S.DAMAGE_AND_DEFEAT,
                               "At the start of the next Hero Phase, on any base.", SEC_END, (h.name, where),
                               choice=rec))
    return state, steps


def loss_gauges(state: GameState) -> list[dict]:
    """How close each loss condition is (Winning and Losing): a list of ``{"name", "value", "limit", "text",
    "lost"}``; ``value``/``limit`` are numbers for a gauge (the deadline's are round numbers, or ``None``)."""
    elim = sum(1 for h in state.heroes if h.eliminated)
    dl = state.elimination_deadline
    return [
        {"name": "threat", "value": state.threat, "limit": THREAT_LOSS, "lost": state.threat >= THREAT_LOSS,
         "text": f"threat {state.threat}/{THREAT_LOSS}"},
        {"name": "bases", "value": len(state.overrun), "limit": len(state.bases),
         "lost": len(state.overrun) >= len(state.bases),
         "text": f"bases overrun {len(state.overrun)}/{len(state.bases)}"},
        {"name": "events", "value": len(state.event_deck), "limit": 0, "lost": False,
         "text": f"event cards left {len(state.event_deck)} (none left at step 3 loses)"},
        {"name": "heroes", "value": elim, "limit": len(state.heroes), "lost": elim >= len(state.heroes),
         "text": f"heroes defeated while shattered {elim}/{len(state.heroes)}"},
        {"name": "deadline", "value": dl, "limit": None, "lost": False,
         "text": ("no player eliminated" if dl is None else "Final Showdown started: deadline met" if state.showdown
                  else f"a player is eliminated: the Final Showdown must start by the end of round {dl}'s Hero "
                       "Phase")},
    ]


def check_loss(state: GameState, ctx: PhaseContext, section: str, *, defer_threat: bool = False
               ) -> tuple[GameState, list[Step]]:
    """Winning and Losing: apply every loss condition reached (threat 20, all bases overrun, all heroes defeated while
    shattered; the missing event and the elimination deadline are applied where they happen) and report the gauges."""
    gauges = loss_gauges(state)      # what they measure (tracks, tokens, decks, heroes) does not change below
    threat_g, bases_g, _, heroes_g, _ = gauges
    if threat_g["lost"] and not defer_threat:
        state = state.losing(f"threat reached {THREAT_LOSS}")
    if bases_g["lost"]:
        state = state.losing("all bases overrun")
    if heroes_g["lost"]:
        state = state.losing("all heroes defeated on their shattered side")
    if state.showdown and not state.lost:
        nem = state.nemesis_enemy()
        if nem is not None and nem.damage >= nem.health:
            state = state.evolve(won=True)
    text = "; ".join(x["text"] for x in gauges)
    if state.lost:
        title = "The heroes lose: " + ", ".join(state.lost)
    elif state.won:
        title = "The heroes win: the nemesis is at 0 health in the Final Showdown"
    else:
        title = "No loss condition reached"
    if defer_threat and threat_g["lost"]:
        text += " (ruling threat_loss_timing = after_mission_check: threat judged after step 2)"
    return state, [_step(title, S.WINNING_AND_LOSING, text, section, lost=list(state.lost), won=state.won,
                         gauges=gauges)]


EVENT_STEPS: tuple[StepFn, ...] = (draw_event, resolve_event_text, resolve_ongoing_effects, spawn_side_mission_step,
                                  resolve_nemesis_ability, activate_enemies, spawn_enemies, discard_event)
"""Step 3's parts, in rulebook order."""

PHASE_STEPS: tuple[tuple[str, StepFn], ...] = (
    (SEC1, advance_threat), (SEC2, check_nemesis_mission), *((SEC3, f) for f in EVENT_STEPS),
    (SEC_END, end_of_round))
"""Every step of a Nemesis Phase and the End of Round, with its trace section."""


class Frame(NamedTuple):
    """One step of a playthrough: the cited ``step`` and the ``state`` right after it (a named pair: a phase makes a
    dozen or more, so it is the cheapest immutable record)."""

    step: Step
    state: GameState


_make_frame = Frame._make


def _deadline_check(state: GameState, section: str) -> tuple[GameState, list[Step]]:
    dl = state.elimination_deadline
    if dl is not None and not state.showdown and dl <= state.round:
        state = state.losing("a player was eliminated and the Final Showdown did not start in time")
        return state, [_step("The heroes lose: the Final Showdown did not start by the end of the Hero Phase after "
                             "the elimination", S.WINNING_AND_LOSING, f"Deadline: round {dl}'s Hero Phase.",
                             section, lost=list(state.lost))]
    return state, []


STEP_SECTIONS: tuple[str, ...] = (SEC1, SEC2, SEC3, SEC_END)
"""The phase's numbered steps (trace sections), in order: a phase may start at or stop after any of them."""


_INDEXED_STEPS = tuple((STEP_SECTIONS.index(sec), sec, fn) for sec, fn in PHASE_STEPS)
_LAST_OF_SECTION = frozenset((advance_threat, check_nemesis_mission, discard_event, end_of_round))


def play_phase(state: GameState, ctx: PhaseContext, *, start: str = SEC1, stop: str = SEC_END) -> list[Frame]:
    """Play one Nemesis Phase (and the End of Round) from ``state``, from step ``start`` through step ``stop`` (both
    in :data:`STEP_SECTIONS`); stops at the first loss. Returns the frames (step, state after it)."""
    frames: list[Frame] = []

    def emit(s: GameState, steps: list[Step]) -> None:
        frames.extend(map(_make_frame, zip(steps, repeat(s))))

    first, last = STEP_SECTIONS.index(start), STEP_SECTIONS.index(stop)
    prefix = f"Round {state.round} · "
    # the deadline is the end of a Hero Phase; this round's Hero Phase is over when its Nemesis Phase begins, and the
    # Final Showdown can only begin in step 2, so a deadline of this round or earlier has passed
    state, steps = _deadline_check(state, prefix + start)
    emit(state, steps)
    if state.lost:
        return frames
    defer = ctx.rulings.reading("threat_loss_timing") == "after_mission_check"
    showdown_now = False
    for index, section, fn in _INDEXED_STEPS:
        if not first <= index <= last:
            continue
        if fn is draw_event and showdown_now and ctx.rulings.reading("showdown_timing") == "end_phase":
            emit(state, [_step("Final Showdown began in step 2: no event this phase", S.FINAL_SHOWDOWN,
                               "Ruling showdown_timing = end_phase.", prefix + SEC3)])
            continue
        if section == SEC3 and fn is not draw_event and state.current_event is None:
            continue
        was_showdown = state.showdown
        if fn is activate_enemies:       # one frame per activation, each with its own state
            ids, steps = plan_activation(state, ctx)
            emit(state, [st.in_section(prefix + st.section) for st in steps])
            for eid in ids:
                state, steps = activate_enemy(state, ctx, eid)
                emit(state, [st.in_section(prefix + st.section) for st in steps])
                if state.lost or _threat_or_bases_lost(state, False):
                    break
        else:
            state, steps = fn(state, ctx)
            emit(state, [st.in_section(prefix + st.section) for st in steps])
        showdown_now = showdown_now or (state.showdown and not was_showdown)
        deferring = defer and fn is advance_threat
        if fn in _LAST_OF_SECTION or state.lost or _threat_or_bases_lost(state, deferring):
            state, steps = check_loss(state, ctx, prefix + section, defer_threat=deferring)
            emit(state, steps)
        if state.lost or state.won:
            break
    return frames


def _threat_or_bases_lost(state: GameState, defer: bool) -> bool:
    if (state.threat >= THREAT_LOSS and not defer) or len(state.overrun) >= len(state.bases):
        return True
    for h in state.heroes:
        if not h.eliminated:
            return False
    return True


def play_phases(state: GameState, ctx: PhaseContext, phases: int = 1, *, start: str = SEC1,
                stop: str = SEC_END) -> list[Frame]:
    """Play ``phases`` Nemesis Phases back to back (each followed by End of Round; the Hero Phases in between are
    taken to change nothing), stopping at a loss or a win. ``start`` applies to the first phase, ``stop`` to the
    last."""
    frames: list[Frame] = []
    for i in range(phases):
        frames += play_phase(state, ctx, start=start if i == 0 else SEC1, stop=stop if i == phases - 1 else SEC_END)
        if frames:
            state = frames[-1].state
        if state.lost or state.won:
            break
    return frames
