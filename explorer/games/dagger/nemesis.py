"""The Nemesis Phase of Marvel D.A.G.G.E.R. as step functions over immutable state (the sequence kernel,
:mod:`explorer.kernel`), End of Round, and the Winning and Losing checks.

Rulebook sections (titles in :mod:`.sections`): Nemesis Phase › 1. Advance Threat; 2. Check Nemesis Mission;
3. Resolve Event Cards (event text, ongoing mission effects, side mission spawn, nemesis ability, enemy activation —
attack / overrun / move toward the nearest operational base —, spawns, discard); End of Round; Final Showdown (flip
the sheet when the last nemesis mission is completed); Winning and Losing; Additional Rules › Nearby and Overrun,
Missions (side missions), Damage and Defeat (hero defeat: threat + heroes, shattered side, elimination).

Every step function has the kernel's shape ``step(state: GameState, ctx: PhaseContext) -> (GameState, steps)`` and
is named after its rulebook step; :data:`NEMESIS_PHASE` lists them in rulebook order, with the Winning and Losing
checks between them (after the last part of each numbered step, and after any other part that reaches a loss
condition) and one :class:`~explorer.kernel.Each` entry for the enemy activations (one frame per enemy).
:func:`play_phase` / :func:`play_phases` play it with :func:`explorer.kernel.play`, ending at the first loss or win
(:func:`phase_over`); :func:`loss_gauges` says how close each loss condition is. Player choices (which hero an enemy
attacks, which tied base it heads for, which route it takes, the activation order within a rank, where a defeated
hero's new standee is placed) come from :class:`Choices`, each with a stated default; every choice point met is
recorded in the state (:attr:`GameState.choices <.state.GameState>`, a :class:`~.state.ChoiceMade`) and in the step
that uses it (``facts["choice"]``). What happened (missions checked, overruns, defeats, activations, spawns) is
recorded as typed :attr:`GameState.events <.state.GameState>` for the outcome. Nothing here rolls dice: the phase
is deterministic given the decks' order, so "back" in a stepper is a replay of the same steps.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from explorer.kernel import Context, Each, Frame, Sequence, play, play_last
from explorer.text import join_words, plural
from explorer.trace import RuleRef, Step

from . import hero_phase as HP
from . import sections as S
from .state import (
    THREAT_LOSS, ActivationItem, BaseOverrun, ChoiceMade, Effect, Gauge, Enemy, EnemyActed, EnemySpawned, GameState,
    Hero, HeroDamaged, HeroDefeated, Mission, MissionChecked, ShowdownBegan, SideMissionRevealed, evolve,
)
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


SEC1, SEC2, SEC3, SEC_END = "1. Advance Threat", "2. Check Nemesis Mission", "3. Resolve Event Cards", "End of Round"


@dataclass(frozen=True)
class PhaseContext(Context):
    """What a Nemesis Phase step reads besides the state (never changes): the ``world`` map, the ``rulings``
    (readings consulted are recorded) and the table's ``choices``; and, while :func:`play_phase` plays a phase,
    where that phase stands: ``prefix`` (its trace sections' prefix, ``"Round 2 · "``; ``""`` when a step is called
    on its own), ``showdown_at_start`` (the Final Showdown had begun when the phase started) and ``start`` (the
    numbered step the phase starts at). Built with keywords: ``PhaseContext(world=..., rulings=..., choices=...)``.
    """

    world: WorldMap | None = None
    choices: Choices = field(default_factory=Choices)
    prefix: str = ""
    showdown_at_start: bool = False
    start: str = SEC1
    team_up_cards: bool = False
    """The heroes' team-up cards are tracked (round play: :func:`.round_scenario.ready_defeated_team_up` readies a
    defeated hero's, when its sheet has one, after the Nemesis Phase); a bare Nemesis Phase file has none."""

    def choose(self, kind: str, key: str, options: tuple[str, ...], default: str, why: str) -> ChoiceMade:
        """Pick among ``options``: the table's input under ``kind``/``key`` if valid, else ``default``. An input that
        is not among the options is ignored and the record says so. The caller adds the record to the state."""
        given = getattr(self.choices, kind).get(key) if kind != "activation_order" else None
        note = ""
        if given is not None and given not in options:
            note = f"input {given!r} is not one of the options; default used"
            given = None
        return ChoiceMade(f"{kind}.{key}", tuple(options), given if given is not None else default, given is None,
                          default, why, note)


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
        spaces = ((nem.space,) if kind == "nemesis_space" else   # pieces nearby a piece: ruling nearby_pieces
                  ctx.world.nearby_spaces(nem.space,
                                          include_self=ctx.rulings.reading("nearby_pieces") == "same_and_adjacent"))
        return [h for h in on_board if h.space in spaces], f"heroes {'on' if kind == 'nemesis_space' else 'nearby'} " \
            f"the nemesis ({', '.join(spaces)})"
    return [], f"no hero ({where})"


def damage_hero(state: GameState, ctx: PhaseContext, hero: Hero, amount: int, source: str,
                section: str) -> tuple[GameState, list[Step]]:
    """``hero`` suffers ``amount`` damage from ``source``; at damage = health it is defeated (:func:`defeat_hero`).
    (Additional Rules › Damage and Defeat.)"""
    h = evolve(hero, damage=min(hero.health, hero.damage + amount))
    state = state.with_hero(h).evolve(events=state.events + (HeroDamaged(hero.name, h.damage, h.health),))
    steps = [] if ctx.quiet else [Step(f"{hero.name} suffers {amount} damage ({h.damage}/{h.health})",
                                       S.DAMAGE_AND_DEFEAT, f"From {source}.",
                                       {"hero": hero.name, "damage": h.damage, "health": h.health}, (hero.name,),
                                       section)]
    if h.damage >= h.health:
        state, more = defeat_hero(state, ctx, h, section)
        steps += more
    return state, steps


def defeat_hero(state: GameState, ctx: PhaseContext, hero: Hero, section: str) -> tuple[GameState, list[Step]]:
    """A hero is defeated (Additional Rules › Damage and Defeat, its seven steps, numbered in the trace): (1) threat
    advances by the number of heroes in the game; (2) the standee, mission and hero-specific cards go back to the box;
    (3) tokens are removed; (4) the aspect sheet flips to its shattered side and (5) the hero sheet to its other side;
    (6) the new hero's team-up card is readied for free (tracked in round play, ``ctx.team_up_cards``: a step after the
    Nemesis Phase; else not tracked); (7) its new standee is placed on a base at the
    start of the next Hero Phase (:func:`end_of_round`, ``Choices.respawn``). A hero defeated while already shattered
    is eliminated: the Final Showdown must start by the end of the next Hero Phase."""
    state = state.with_threat(state.players, f"{hero.name} defeated")
    state = state.evolve(events=state.events + (HeroDefeated(hero.name, hero.shattered),))
    steps = [] if ctx.quiet else [
        Step(f"{hero.name} is defeated: threat +{state.players} (heroes in the game) → {state.threat}",
             S.DAMAGE_AND_DEFEAT, "(1) of the seven defeat steps. Per player effects still count eliminated players.",
             {"threat": state.threat}, (hero.name,), section)]
    if hero.shattered:
        h = evolve(hero, space="", eliminated=True, empowered=False)
        deadline = state.round + 1
        state = state.with_hero(h)
        if state.elimination_deadline is None or deadline < state.elimination_deadline:
            state = state.evolve(elimination_deadline=deadline)
        if not ctx.quiet:
            steps.append(Step(f"{hero.name} was shattered: the player is eliminated", S.DAMAGE_AND_DEFEAT,
                              f"The Final Showdown must start by the end of the next Hero Phase (round {deadline}).",
                              {"eliminated": hero.name, "deadline": deadline}, (hero.name,), section))
    else:
        # (3) every token leaves the character sheet: its damage and its empowered token (Empowered and Primed: the
        # empowered token is placed on the player sheet)
        h = evolve(hero, space="", damage=0, shattered=True, health=hero.next_health or hero.health, empowered=False)
        state = state.with_hero(h).evolve(hero_missions=tuple(m for m in state.hero_missions if m.hero != hero.name))
        if not ctx.quiet:
            steps.append(Step(f"{hero.name} flips to the shattered side", S.DAMAGE_AND_DEFEAT,
                              "(2) standee, hero mission and hero-specific support cards return to the box (shared "
                              "support cards stay); (3) tokens removed from the character sheet; (4) aspect sheet to "
                              "its shattered side; (5) hero sheet to its other side; (6) the new hero's team-up card "
                              + ("is readied for free (if its sheet has one: a step after the Nemesis Phase); "
                                 if ctx.team_up_cards else
                                 "is readied for free (team-up cards are not tracked here); ")
                              + "(7) the new standee is placed "
                              "on a base at the start of the next Hero Phase.", {"defeat_steps": [2, 3, 4, 5, 6, 7]},
                              (hero.name,), section))
    return state, steps


def apply_effects(state: GameState, ctx: PhaseContext, effects: tuple[Effect, ...], source: str, rule: RuleRef,
                  section: str) -> tuple[GameState, list[Step]]:
    """Apply card effects (data the user entered) in order, one cited step each (none when ``ctx.quiet``)."""
    steps: list[Step] = []
    q = ctx.quiet
    for e in effects:
        said = f" ({e.text})" if e.text and not q else ""
        if e.kind == "threat":
            state = state.with_threat(e.amount, source)
            if not q:
                steps.append(Step(f"{source}: threat {e.amount:+d} → {state.threat}", rule, said.strip(" ()"),
                                  {"threat": state.threat}, (), section))
        elif e.kind == "team_up":
            state = state.evolve(team_up=max(0, state.team_up + e.amount))
            if not q:
                steps.append(Step(f"{source}: team-up {e.amount:+d} → {state.team_up}", rule, said.strip(" ()"),
                                  {"team_up": state.team_up}, (), section))
        elif e.kind == "damage_heroes":
            targets, who = _hero_targets(state, ctx, e.where)
            if not q:
                steps.append(Step(f"{source}: {e.amount} damage to {who}", rule,
                                  (", ".join(h.name for h in targets) or "nobody is there") + said, {},
                                  tuple(h.name for h in targets), section))
            for h in targets:
                state, more = damage_hero(state, ctx, state.heroes[[x.name for x in state.heroes].index(h.name)],
                                          e.amount, source, section)
                steps += more
        elif e.kind == "progress":
            m = next((m for m in state.active_missions() if m.name == e.mission), None)
            if m is None:
                if not q:
                    steps.append(Step(f"{source}: mission {e.mission!r} is not in play; no progress", rule, said,
                                      {}, (), section))
            else:
                m2 = evolve(m, progress=max(0, m.progress + e.amount))
                state = state.with_mission(m2)
                if not q:
                    steps.append(Step(f"{source}: {e.amount:+d} progress on {m.name} → {m2.progress}", rule, said,
                                      {"mission": m.name, "progress": m2.progress}, (), section))
                if m.kind in ("side", "hero"):
                    # Missions › Side Missions / Hero Missions: enough progress completes it at once, whatever
                    # placed the progress (a nemesis mission waits for step 2)
                    state, more = HP.complete_with_progress(state, m.name)
                    steps += [] if q else [replace(x, section=section) for x in more]
        elif e.kind == "overrun":
            state, more = overrun_base(state, e.base, source, section, quiet=q)
            steps += more
        else:
            if not q:
                steps.append(Step(f"{source}: {e.text or 'no game effect'}", rule,
                                  "A note: it changes nothing the explorer tracks.", {}, (), section))
    return state, steps


def overrun_base(state: GameState, base: str, source: str, section: str, *, quiet: bool = False
                 ) -> tuple[GameState, list[Step]]:
    """Place an overrun token on ``base`` (Additional Rules › Nearby and Overrun). Asgard is not a base. ``quiet``:
    no step built (:attr:`explorer.kernel.Context.quiet`), the same state."""
    if base not in dict(state.bases):
        if quiet:
            return state, []
        return state, [Step(f"{source}: {base!r} is not a base; nothing to overrun", S.NEARBY_AND_OVERRUN,
                            section=section)]
    if base in state.overrun:
        if quiet:
            return state, []
        return state, [Step(f"{base} is already overrun", S.NEARBY_AND_OVERRUN, section=section, marks=(base,))]
    state = state.evolve(overrun=state.overrun | {base}, log=state.log + (f"overrun {base}",),
                         events=state.events + (BaseOverrun(base),))
    if quiet:
        return state, []
    return state, [Step(f"Overrun token on {base} ({len(state.overrun)}/{len(state.bases)} bases overrun)",
                        S.NEARBY_AND_OVERRUN, f"By {source}. The token covers the base's D.A.G.G.E.R. effect; no "
                        "hero mission can be put into play there.", {"overrun": sorted(state.overrun)},
                        (base, state.base_space(base)), section)]


def spawn_side_mission(state: GameState, ctx: PhaseContext, section: str, why: str) -> tuple[GameState, list[Step]]:
    """Reveal a side mission into an empty slot; with no empty slot, advance threat by 1 + number of heroes
    (Missions › Side Missions). An elite side mission places its elite on the indicated space."""
    if None not in state.side_slots:
        n = 1 + state.players
        state = state.with_threat(n, "no empty side mission slot")
        if ctx.quiet:
            return state, []
        return state, [Step(f"No empty side mission slot: threat +{n} "
                            f"(1 + {plural(state.players, 'hero', 'heroes')}) → {state.threat}",
                            S.SIDE_MISSIONS, why, {"threat": state.threat}, (), section)]
    if not state.side_deck:
        if ctx.rulings.reading("side_deck_empty") == "threat":
            n = 1 + state.players
            state = state.with_threat(n, "side mission deck empty")
            if ctx.quiet:
                return state, []
            return state, [Step(f"Side mission deck empty: threat +{n} → {state.threat}", S.SIDE_MISSIONS,
                                "Ruling side_deck_empty = threat.", {"threat": state.threat}, (), section)]
        if ctx.quiet:
            return state, []
        return state, [Step("Side mission deck empty: no side mission spawns", S.SIDE_MISSIONS,
                            "Ruling side_deck_empty = nothing.", section=section)]
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
                         log=state.log + (f"side mission {m.name}",),
                         events=state.events + (SideMissionRevealed(m.name, slot + 1),))
    if ctx.quiet:
        return state, steps
    tv = f"threat value {m.threat_value}" if m.threat_value is not None else "no threat value"
    steps.append(Step(f"Side mission {m.name} revealed into slot {slot + 1} ({tv})", S.SIDE_MISSIONS,
                      why + (f" A token marks {m.space}." if m.space else ""), {"mission": m.name, "slot": slot + 1},
                      tuple(x for x in (m.space, m.elite) if x), section))
    if card.elite is not None:
        steps.append(Step(f"Elite {card.elite.name} placed on {m.space}", S.SIDE_MISSIONS,
                          "Some side missions are elite enemies: the standee goes on the indicated space.", {},
                          (card.elite.name, m.space), section))
    return state, steps


# ------------------------------------------------------------------------------------------------ step 1 and 2


def advance_threat(state: GameState, ctx: PhaseContext) -> tuple[GameState, tuple[Step, ...]]:
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
    if ctx.quiet:
        return state, ()
    detail = " + ".join(f"{v} ({k})" for k, v in parts)
    return state, (Step(f"Threat advances {before} → {state.threat} (+{total})", S.ADVANCE_THREAT,
                        f"{before} + {detail} = {state.threat}.",
                        {"before": before, "after": state.threat, "parts": [[k, v] for k, v in parts]},
                        tuple(e.id for e in non_nemesis), ctx.prefix + SEC1),)


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


def final_showdown(state: GameState, section: str, *, quiet: bool = False) -> tuple[GameState, list[Step]]:
    """Final Showdown: flip the nemesis sheet; its stun and damage tokens are discarded (other tokens stay); its
    health becomes the showdown health for the number of players. ``quiet``: no step built, the same state."""
    nem = state.nemesis_enemy()
    if nem is not None:
        hp = state.nemesis.showdown_health or nem.health
        state = state.with_enemy(evolve(nem, damage=0, stunned=False, health=hp))
    state = state.evolve(showdown=True, log=state.log + ("final showdown",), events=state.events + (ShowdownBegan(),))
    if quiet:
        return state, []
    return state, [Step("Final Showdown: the nemesis sheet flips to its showdown side", S.FINAL_SHOWDOWN,
                        "Stun and damage on the nemesis are discarded; the sheet's showdown rules now apply "
                        "(entered as data, not modelled here); missions and enemies stay in play.", {"showdown": True},
                        (), section)]


def mission_label(m: Mission) -> str:
    """A nemesis-deck mission named with its kind, the kind said once: ``"1st strike Ambush"``, but ``"1st Strike"``
    for a card already named so (Nemesis Phase › 2. Check Nemesis Mission: the 1st strike, then the nemesis
    missions); ``"nemesis mission Mission I"`` (the kind here is "nemesis mission", the name "Mission I")."""
    kind = "1st strike" if m.kind == "first_strike" else "nemesis mission"
    return m.name if m.name.lower().startswith(kind) else f"{kind} {m.name}"


def check_nemesis_mission(state: GameState, ctx: PhaseContext) -> tuple[GameState, tuple[Step, ...]]:
    """Nemesis Phase › 2. Check Nemesis Mission: the top card of the nemesis mission deck is passed (progress >= its
    progress value, checked first) or failed (threat, ruling ``mission_fail_comparison``). A 1st strike is removed
    and mission I revealed; another mission is slid under the board and its check / X effect resolved. Any completion
    resets the threat track to 0; a nemesis mission's also spawns a side mission; the last one starts the Final
    Showdown."""
    section = ctx.prefix + SEC2
    q = ctx.quiet
    if not state.nemesis_deck:
        if q:
            return state, ()
        return state, (Step("No nemesis mission left to check", S.CHECK_NEMESIS_MISSION,
                            "The Final Showdown is under way.", section=section),)
    steps: list[Step] = []
    completed: list[Mission] = []
    while state.nemesis_deck:
        m = state.nemesis_deck[0]
        result, why = _mission_check(state, ctx, m)
        label = mission_label(m)
        if result is None:
            state = state.evolve(events=state.events + (MissionChecked(m.name, m.kind, "open"),))
            if not q:
                steps.append(Step(f"{label[:1].upper()}{label[1:]} is not completed", S.CHECK_NEMESIS_MISSION,
                                  why + ".", {"mission": m.name, "result": "open"}, (m.name,), section))
            break
        completed.append(m)
        deck = state.nemesis_deck[1:]
        state = state.evolve(nemesis_deck=deck, log=state.log + (f"{m.name} {result}",),
                             events=state.events + (MissionChecked(m.name, m.kind, result),))
        if m.kind == "first_strike":
            nxt = f"; {deck[0].name} is revealed" if deck else ""
            if not q:
                steps.append(Step(f"{label} {result}: removed from the game{nxt}", S.CHECK_NEMESIS_MISSION,
                                  why + ".", {"mission": m.name, "result": result}, (m.name,), section))
            if deck and ctx.rulings.reading("revealed_mission_check") == "same_step":
                continue
            break
        state = state.evolve(completed_nemesis=state.completed_nemesis + ((m.name, result),))
        side = "green check" if result == "passed" else "red X"
        if not q:
            steps.append(Step(f"{label[:1].upper()}{label[1:]} {result}: slid under the board, {side} showing",
                              S.CHECK_NEMESIS_MISSION, why + ".", {"mission": m.name, "result": result}, (m.name,),
                              section))
        effects = m.on_pass if result == "passed" else m.on_fail
        state, more = apply_effects(state, ctx, effects, f"{m.name} ({side})", S.CHECK_NEMESIS_MISSION, section)
        steps += more
        break
    if not completed:
        return state, tuple(steps)
    before = state.threat
    state = state.evolve(threat=0, log=state.log + ("threat reset",))
    if not q:
        steps.append(Step(f"A mission was completed: threat resets {before} → 0", S.CHECK_NEMESIS_MISSION, "",
                          {"threat": 0}, (), section))
    spawn = any(m.kind == "nemesis" for m in completed) or (
        any(m.kind == "first_strike" for m in completed)
        and ctx.rulings.reading("first_strike_side_mission") == "yes")
    if spawn:
        state, more = spawn_side_mission(state, ctx, section,
                                         "A nemesis mission was completed: a side mission spawns.")
        steps += more
    if not state.nemesis_deck and any(m.kind == "nemesis" for m in completed):
        state, more = final_showdown(state, section, quiet=q)
        steps += more
    return state, tuple(steps)


# ------------------------------------------------------------------------------------------------- step 3


def _no_event_this_phase(state: GameState, ctx: PhaseContext) -> bool:
    """The Final Showdown began in step 2 of this phase and ruling ``showdown_timing`` = ``end_phase``: step 3 draws
    no event (the reading is consulted only when the Final Showdown began in this phase)."""
    return (state.showdown and not ctx.showdown_at_start
            and ctx.rulings.reading("showdown_timing") == "end_phase")


def draw_event(state: GameState, ctx: PhaseContext) -> tuple[GameState, tuple[Step, ...]]:
    """Nemesis Phase › 3: with no event card in the event deck the heroes lose (the Winning and Losing check follows
    at once: the game ends here); otherwise the top card is resolved. When the Final Showdown began in step 2 of this
    phase and ruling ``showdown_timing`` is ``end_phase``, no event is drawn this phase."""
    section = ctx.prefix + SEC3
    if _no_event_this_phase(state, ctx):
        if ctx.quiet:
            return state, ()
        return state, (Step("Final Showdown began in step 2: no event this phase", S.FINAL_SHOWDOWN,
                            "Ruling showdown_timing = end_phase.", section=section),)
    if not state.event_deck:
        state = state.losing("no event card to draw")
        lose = () if ctx.quiet else (Step("No event card left: the heroes lose", S.RESOLVE_EVENT_CARDS, "",
                                          {"lost": True}, (), section),)
        state, report = check_loss(state, ctx, section)
        return state, (*lose, *report)
    card = state.event_deck[0]
    state = state.evolve(event_deck=state.event_deck[1:], current_event=card, log=state.log + (f"event {card.name}",))
    if ctx.quiet:
        return state, ()
    ex = " (an example card, not a printed one)" if card.example else ""
    return state, (Step(f"Event {card.name} is drawn{ex}", S.RESOLVE_EVENT_CARDS,
                        f"{plural(len(state.event_deck), 'event card')} "
                        f"{'remains' if len(state.event_deck) == 1 else 'remain'} "
                        "in the deck.", {"event": card.name, "left": len(state.event_deck)}, (), section),)


def resolve_event_text(state: GameState, ctx: PhaseContext) -> tuple[GameState, tuple[Step, ...]]:
    """Resolve the text of the event (its effects, as entered)."""
    card = state.current_event
    if card is None:
        return state, ()
    section = ctx.prefix + SEC3
    state, steps = apply_effects(state, ctx, card.effects, card.name, S.EVENT_TEXT, section)
    if ctx.quiet:
        return state, ()
    head = Step(f"Event text: {card.text or '(none entered)'}", S.EVENT_TEXT, "", {"event": card.name}, (), section)
    return state, (head, *steps)


def resolve_ongoing_effects(state: GameState, ctx: PhaseContext) -> tuple[GameState, tuple[Step, ...]]:
    """Resolve the ongoing effects at the bottom of every active mission (top nemesis mission, side, hero)."""
    if state.current_event is None:
        return state, ()
    section = ctx.prefix + SEC3
    steps: list[Step] = []
    active = [m for m in state.active_missions() if m.ongoing]
    if not active:
        if ctx.quiet:
            return state, ()
        return state, (Step("No active mission has an ongoing effect", S.ONGOING_EFFECTS, section=section),)
    for m in active:
        state, more = apply_effects(state, ctx, m.ongoing, f"{m.name} (ongoing)", S.ONGOING_EFFECTS, section)
        steps += more
    return state, tuple(steps)


def spawn_side_mission_step(state: GameState, ctx: PhaseContext) -> tuple[GameState, tuple[Step, ...]]:
    """Spawn a new side mission in an empty slot, else threat + (1 + number of heroes)."""
    if state.current_event is None:
        return state, ()
    state, steps = spawn_side_mission(state, ctx, ctx.prefix + SEC3, "Every event spawns a side mission.")
    return state, tuple(steps)


def resolve_nemesis_ability(state: GameState, ctx: PhaseContext) -> tuple[GameState, tuple[Step, ...]]:
    """Resolve the ability on the nemesis sheet that matches the event's icon."""
    if state.current_event is None:
        return state, ()
    section = ctx.prefix + SEC3
    icon = state.current_event.nemesis_icon
    if not icon:
        if ctx.quiet:
            return state, ()
        return state, (Step("The event shows no nemesis ability icon", S.NEMESIS_ABILITY, section=section),)
    effects = state.nemesis.ability(icon)
    if effects is None:
        if ctx.quiet:
            return state, ()
        return state, (Step(f"The nemesis sheet has no ability for icon {icon!r}", S.NEMESIS_ABILITY,
                            section=section),)
    name = state.nemesis.name
    state, steps = apply_effects(state, ctx, effects, f"{name} ({icon})", S.NEMESIS_ABILITY, section)
    if ctx.quiet:
        return state, ()
    head = Step(f"Nemesis ability {icon!r} of {name}", S.NEMESIS_ABILITY, "", {"icon": icon}, (),
                section)
    return state, (head, *steps)


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
    players' order (``Choices.activation_order``; default: state order). Returns the order and the tie groups
    (``{"group", "order", "default_used"}``, as the step's ``ties`` fact)."""
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


def plan_activation(state: GameState, ctx: PhaseContext) -> tuple[GameState, tuple[Step, ...]]:
    """Nemesis Phase › 3 › Activate enemies: the enemies the event's activation row activates, in activation order
    (:func:`activation_order`), into :attr:`GameState.activating <.state.GameState>`; each tie the players order is a
    choice point. :func:`activate_enemy` then activates them one by one (:data:`NEMESIS_PHASE`'s ``Each`` entry)."""
    if state.current_event is None:
        return state, ()
    section = ctx.prefix + SEC3
    row = state.current_event.activate
    enemies = _activated(state, row)
    if not enemies:
        if ctx.quiet:
            return state.evolve(activating=()), ()
        return state.evolve(activating=()), (Step(f"Activation row {join_words(row)}: no such enemy on the board",
                                                  S.ENEMY_ACTIVATION, "", {"activate": list(row)}, (), section),)
    ordered, ties = activation_order(state, ctx, enemies)
    made = tuple(ChoiceMade("activation_order", tuple(t["order"]), tuple(t["order"]), t["default_used"],
                            group=t["group"]) for t in ties)
    ids = tuple(e.id for e in ordered)
    state = state.evolve(activating=ids, choices=state.choices + made) if made else state.evolve(activating=ids)
    if ctx.quiet:
        return state, ()
    return state, (Step(f"Activation order: {', '.join(ids)}", S.ENEMY_ACTIVATION,
                        "Power 1–4, then Elite, then Nemesis; the players order enemies of the same power.",
                        {"order": list(ids), "ties": ties}, ids, section),)


def activating(state: GameState) -> tuple[str, ...]:
    """The enemies :func:`plan_activation` lined up (the items of the activation ``Each`` entry)."""
    return state.activating


@dataclass(frozen=True)
class _Item:
    """The item an activating enemy resolves (the first it can: attack, overrun, move), as determined from the
    board: ``action`` (``"attack"``, ``"overrun"``, ``"overrun_again"``, ``"move"``, ``"none"``), the hero attacked
    (``target``), the base (``base``: the one in its space, or the move's target base), the move's next space
    (``via``), and the choice points met (``recs``)."""

    action: str
    target: str = ""
    base: str | None = None
    via: str = ""
    near: object = None
    recs: tuple[ChoiceMade, ...] = ()
    names: tuple[str, ...] = ()

    def words(self, e: Enemy) -> str:
        """The item in a few words: ``"attack Hero A on Cairo"``."""
        return {"attack": f"attack {self.target} on {e.space}", "overrun": f"overrun {self.base}",
                "overrun_again": f"stay on overrun {self.base}", "move": f"move {e.space} → {self.via}",
                "none": "nothing (no operational base is left)"}[self.action]

    def record(self, e: Enemy) -> ActivationItem:
        """The item as the state keeps it (:class:`~.state.ActivationItem`), with all it takes to land it
        (:func:`_land`)."""
        move = self.action == "move"
        near = self.near
        return ActivationItem(self.action, self.target, self.base or "", e.space if move else "",
                              self.via if move else "", self.words(e), self.recs, self.names,
                              near.distance if move else 0, near.scope if move else "", near.bases if move else ())


def _determine_item(state: GameState, ctx: PhaseContext, e: Enemy) -> _Item:
    """Nemesis Phase › 3 › Activate enemies: the first item ``e`` can resolve, with the table's choices (pure)."""
    heroes = state.heroes_in(e.space)
    if heroes:
        names = tuple(h.name for h in heroes)
        rec = ctx.choose("attack_target", e.id, names, names[0], "the first hero listed in the scenario")
        return _Item("attack", target=rec.chosen, recs=(rec,), names=names)
    base = state.base_at(e.space)
    if base is not None and base not in state.overrun:
        return _Item("overrun", base=base)
    if base is not None and ctx.rulings.reading("overrun_base_no_hero") == "stays":
        return _Item("overrun_again", base=base)
    region_distance = ctx.rulings.reading("region_distance")
    near = nearest_operational_bases(ctx.world, e.space, state.operational_bases(), region_distance)
    if near is None:
        return _Item("none", base=base)
    base_rec = ctx.choose("base_tie", e.id, near.bases, near.bases[0],
                          "the first base in base order (the 1st player chooses)")
    within = (ctx.world.region_of(e.space) if near.scope == "region" and region_distance == "within_region"
              else None)
    options = ctx.world.steps_toward(e.space, state.base_space(base_rec.chosen), within)
    via_rec = ctx.choose("move_via", e.id, options, options[0], "the first space in map order")
    return _Item("move", target=base_rec.chosen, base=base, via=via_rec.chosen, near=near, recs=(base_rec, via_rec))


def begin_activation(state: GameState, ctx: PhaseContext, enemy_id: str) -> tuple[GameState, tuple[Step, ...]]:
    """The start of one enemy activation (Nemesis Phase › 3 › Activate enemies): an enemy defeated since it was lined
    up does not activate (Damage and Defeat: its standee is removed); a nemesis stunned as its activation begins
    only removes its stun and damage (step 3: no attack, overrun or move; Damage and Defeat: it loses its next turn).
    Otherwise the activation is under way: :attr:`GameState.acting <.state.GameState>` names the enemy until
    :func:`resolve_activation` resolves its item."""
    section = ctx.prefix + SEC3
    q = ctx.quiet
    if not any(x.id == enemy_id for x in state.enemies):      # defeated since it was lined up (a team-up card)
        if q:
            return state, ()
        return state, (Step(f"{enemy_id} was defeated before its activation: it does not activate",
                            S.DAMAGE_AND_DEFEAT, "A defeated enemy's standee is removed from the board.",
                            {"enemy": enemy_id, "action": "gone"}, (), section),)
    e = state.enemy(enemy_id)
    if e.kind == "nemesis" and e.stunned:
        state = state.with_enemy(evolve(e, stunned=False, damage=0))
        state = state.evolve(events=state.events + (EnemyActed(e.id, "stun_cleared"),))
        if q:
            return state, ()
        return state, (Step(f"{e.id} is stunned: stun and damage removed, no attack, overrun or move",
                            S.DAMAGE_AND_DEFEAT, "A stunned nemesis skips its next activation.",
                            {"enemy": e.id, "action": "stun_cleared"}, (e.id,), section),)
    return state.evolve(acting=enemy_id), ()


def announce_activation(state: GameState, ctx: PhaseContext, enemy_id: str) -> tuple[GameState, tuple[Step, ...]]:
    """:func:`begin_activation`, and when the activation is under way a step saying which item it is about to
    resolve: played when an interrupt comes inside this activation (point ``"3.activation.N.interrupt"``,
    :func:`phase_parts`; Additional Rules › Team-up Abilities: at any time, even to interrupt other game effects).
    Nothing when a loss condition is already reached (the activations stop there, as between two of them)."""
    if loss_reached(state):
        return state, ()
    state, steps = begin_activation(state, ctx, enemy_id)
    if not state.acting:
        return state, steps
    e = state.enemy(enemy_id)
    item = _determine_item(state, ctx, e)
    state = state.evolve(acting_item=item.record(e))   # the item the interrupt comes before, kept in the state
    if ctx.quiet:
        return state, steps
    return state, (*steps, Step(f"{e.id} activates: it is to {item.words(e)}", S.ENEMY_ACTIVATION,
                                "The first item it can resolve is determined; an interrupt comes before it lands.",
                                {"enemy": e.id, "item": item.action}, (e.id,), ctx.prefix + SEC3))


def _stopped(state: GameState, ctx: PhaseContext, e: Enemy, section: str,
             item: ActivationItem | None) -> tuple[GameState, tuple[Step, ...]]:
    """The nemesis was stunned during its own activation (an interrupt defeated it before its item landed): the item
    (``item``, kept in the state since :func:`announce_activation` determined it; determined from the board when
    none was kept) does not resolve; ruling ``nemesis_stunned_mid_activation`` says whether the stun costs it this
    activation (stun and damage removed now) or its next one (they stay). The ``"stopped"`` record
    (:class:`~.state.EnemyActed`) keeps the item and whether the stun was removed."""
    if item is None:
        item = _determine_item(state, ctx, e).record(e)
    now = ctx.rulings.reading("nemesis_stunned_mid_activation") == "this_activation"
    if now:
        state = state.with_enemy(evolve(e, stunned=False, damage=0))
    state = state.evolve(events=state.events + (EnemyActed(e.id, "stopped", item.target, base=item.base,
                                                           start=item.start, to=item.to, item=item, cleared=now),))
    if ctx.quiet:
        return state, ()
    if now:
        title = f"{e.id} was stunned during its activation: it does not {item.words}; stun and damage removed"
        detail = ("A stunned nemesis cannot attack, overrun or move: it only removes its stun and damage (step 3), "
                  "and this interrupted activation is the turn the stun costs it (Damage and Defeat: 'on its next "
                  "turn'): its stun and damage are removed now and its next activation is a normal one (ruling "
                  "nemesis_stunned_mid_activation = this_activation).")
    else:
        title = f"{e.id} was stunned during its activation: it does not {item.words}"
        detail = ("A stunned nemesis cannot attack, overrun or move; stun and damage stay: its next activation is "
                  "the one it loses (then they are removed) (ruling nemesis_stunned_mid_activation = skip_next).")
    return state, (Step(title, S.DAMAGE_AND_DEFEAT, detail,
                        {"enemy": e.id, "action": "stopped", "item": item.action, "stunned": not now},
                        (e.id,), section),)


def resolve_activation(state: GameState, ctx: PhaseContext) -> tuple[GameState, tuple[Step, ...]]:
    """The item of the activation under way (:attr:`GameState.acting <.state.GameState>`; nothing when none is):
    the first of (1) attack a hero in its space, (2) overrun a base in its space, (3) move one space toward the
    nearest operational base in its region (else the nearest anywhere). Nemesis Phase › 3 › Activate enemies. An
    enemy defeated during its activation (an interrupt) resolves nothing; a nemesis stunned during it resolves
    nothing either (:func:`_stopped`, Damage and Defeat, ruling ``nemesis_stunned_mid_activation``). An enemy still
    standing after an interrupt (an item kept in the state by :func:`announce_activation`) lands the item as it was
    determined, or resolves nothing when it no longer can, or resolves the first item it can now: ruling
    ``interrupted_item`` (:func:`_after_interrupt`). Without an interrupt the item is determined now
    (:func:`_determine_item`) and lands (:func:`_land`)."""
    enemy_id, kept = state.acting, state.acting_item
    if not enemy_id:
        return state, ()
    state = state.evolve(acting="", acting_item=None)
    section = ctx.prefix + SEC3
    if not any(x.id == enemy_id for x in state.enemies):
        if ctx.quiet:
            return state, ()
        return state, (Step(f"{enemy_id} was defeated during its activation: its item does not resolve",
                            S.DAMAGE_AND_DEFEAT, "A defeated enemy's standee is removed from the board.",
                            {"enemy": enemy_id, "action": "gone"}, (), section),)
    e = state.enemy(enemy_id)
    if e.kind == "nemesis" and e.stunned:
        return _stopped(state, ctx, e, section, kept)
    if kept is None:
        return _land(state, ctx, e, _determine_item(state, ctx, e).record(e), section)
    return _after_interrupt(state, ctx, e, kept, section)


def _can_land(state: GameState, e: Enemy, item: ActivationItem) -> str:
    """``""`` when ``item`` (determined as ``e``'s activation began) can still land as determined on ``state``, else
    why not, in a few words."""
    base = state.base_at(e.space)
    if item.action == "attack":
        return "" if any(h.name == item.target for h in state.heroes_in(e.space)) else \
            f"{item.target} is no longer in its space"
    if item.action in ("overrun", "overrun_again"):
        if base != item.base:
            return f"it is no longer on {item.base}"
        if (item.base in state.overrun) != (item.action == "overrun_again"):
            return f"{item.base} is {'already' if item.action == 'overrun' else 'no longer'} overrun"
        return ""
    if item.action == "move":
        return "" if e.space == item.start else f"it is no longer on {item.start}"
    return ""


def _after_interrupt(state: GameState, ctx: PhaseContext, e: Enemy, kept: ActivationItem, section: str
                     ) -> tuple[GameState, tuple[Step, ...]]:
    """The item of an activation an interrupt came inside, ``e`` still standing (not a stunned nemesis): ruling
    ``interrupted_item``. ``as_determined``: ``kept`` lands as determined (:func:`_land`; its choices were made when
    it was determined), or, when the board no longer allows it (:func:`_can_land`), nothing lands (an
    ``"item_lost"`` record). ``redetermined``: the first item ``e`` can resolve now lands. Nemesis Phase › 3 ›
    Activate enemies; Additional Rules › Team-up Abilities."""
    if ctx.rulings.reading("interrupted_item") == "redetermined":
        return _land(state, ctx, e, _determine_item(state, ctx, e).record(e), section)
    why = _can_land(state, e, kept)
    if not why:
        return _land(state, ctx, e, kept, section)
    state = state.evolve(events=state.events + (EnemyActed(e.id, "item_lost", kept.target, base=kept.base,
                                                           start=kept.start, to=kept.to, item=kept),))
    if ctx.quiet:
        return state, ()
    return state, (Step(f"{e.id}'s item can no longer land: it does not {kept.words} ({why})", S.ENEMY_ACTIVATION,
                        "The item was determined as the activation began and an interrupt came before it landed; "
                        "the activation resolves that item or nothing (ruling interrupted_item = as_determined).",
                        {"enemy": e.id, "action": "item_lost", "item": kept.action}, (e.id,), section),)


def _land(state: GameState, ctx: PhaseContext, e: Enemy, item: ActivationItem, section: str
          ) -> tuple[GameState, tuple[Step, ...]]:
    """Enemy ``e`` resolves ``item`` (:class:`~.state.ActivationItem`, with its choice points): attack, overrun,
    stay on an overrun base, move one step, or nothing (no operational base). Nemesis Phase › 3 › Activate
    enemies."""
    rule = S.ENEMY_ACTIVATION
    q = ctx.quiet
    if item.action == "attack":
        names, target = item.names, item.target
        hero = next(h for h in state.heroes_in(e.space) if h.name == target)
        rec = item.recs[0]
        head = () if q else (Step(f"{e.id} attacks {target} on {e.space} for {e.power}", rule,
                                  "A hero is in its space: attacking is the first item it can resolve"
                                  + (f"; players chose among {', '.join(names)}" if len(names) > 1 else "") + ".",
                                  {"enemy": e.id, "action": "attack", "target": target, "choice": rec.to_json(),
                                   "rejected": ["overrun", "move"]}, (e.id, target, e.space), section),)
        state = state.evolve(choices=state.choices + (rec,),
                             events=state.events + (EnemyActed(e.id, "attack", target, e.power),))
        state, more = damage_hero(state, ctx, hero, e.power, e.id, section)
        return state, (*head, *more)
    base = item.base or None
    no_attack = f"No hero on {e.space}"
    if item.action == "overrun":
        state = state.evolve(events=state.events + (EnemyActed(e.id, "overrun", base=base),))
        state, more = overrun_base(state, base, e.id, section, quiet=q)
        if q:
            return state, ()
        head = Step(f"{e.id} overruns {base}", rule, f"{no_attack}; an operational base is here.",
                    {"enemy": e.id, "action": "overrun", "base": base, "rejected": ["attack"]}, (e.id, e.space),
                    section)
        return state, (head, *more)
    if item.action == "overrun_again":
        state = state.evolve(events=state.events + (EnemyActed(e.id, "overrun_again", base=base),))
        if q:
            return state, ()
        return state, (Step(f"{e.id} stays on overrun {base}", rule, f"{no_attack}; ruling "
                            "overrun_base_no_hero = stays: it resolves Overrun on its already overrun base.",
                            {"enemy": e.id, "action": "overrun_again", "base": base, "rejected": ["attack"]},
                            (e.id, e.space), section),)
    if item.action == "none":
        state = state.evolve(events=state.events + (EnemyActed(e.id, "none"),))
        if q:
            return state, ()
        return state, (Step(f"{e.id} cannot move: no operational base is left", rule, "",
                            {"enemy": e.id, "action": "none"}, (e.id,), section),)
    chosen, via = item.target, item.to
    base_rec, via_rec = item.recs
    target_space = state.base_space(chosen)
    state = state.with_enemy(evolve(e, space=via))
    state = state.evolve(log=state.log + (f"{e.id} {e.space}->{via}",), choices=state.choices + (base_rec, via_rec),
                         events=state.events + (EnemyActed(e.id, "move", chosen, start=e.space, to=via),))
    if q:
        return state, ()
    why_no_overrun = (f"{base} is already overrun" if base is not None else
                      "Asgard is not a base" if e.space == ctx.world.asgard else f"no base on {e.space}")
    scope = (f"nearest operational base in its region ({ctx.world.region_of(e.space)})" if item.scope == "region"
             else "no operational base in its region: nearest operational base anywhere")
    tie = f"; tied with {', '.join(b for b in item.tied if b != chosen)}" if len(item.tied) > 1 else ""
    return state, (Step(f"{e.id} moves {e.space} → {via}, toward {chosen} ({item.distance} → {item.distance - 1} "
                        "lines)", rule, f"{no_attack}; {why_no_overrun}. Target: {scope}{tie}.",
                        {"enemy": e.id, "action": "move", "start": e.space, "to": via, "target": chosen,
                         "distance_before": item.distance, "scope": item.scope,
                         "choice": [base_rec.to_json(), via_rec.to_json()], "rejected": ["attack", "overrun"]},
                        (e.id, e.space, via, target_space), section),)


def activate_enemy(state: GameState, ctx: PhaseContext, enemy_id: str) -> tuple[GameState, tuple[Step, ...]]:
    """One enemy activation with no interrupt inside it: :func:`begin_activation` then :func:`resolve_activation`
    (the first of attack, overrun, move; a nemesis stunned as it begins only removes its stun and damage).
    Nemesis Phase › 3 › Activate enemies."""
    state, head = begin_activation(state, ctx, enemy_id)
    state, rest = resolve_activation(state, ctx)
    return state, (*head, *rest)


def _new_enemy_id(state: GameState, name: str) -> str:
    used = {e.id for e in state.enemies}
    n = 1
    while f"{name} {n}" in used:
        n += 1
    return f"{name} {n}"


def spawn_enemies(state: GameState, ctx: PhaseContext) -> tuple[GameState, tuple[Step, ...]]:
    """Spawn the enemies of the event's spawn row (as in setup: an icon applies when its pips <= the number of
    heroes). With every standee of that rank on the board, threat advances by the rank instead (a nemesis-specific
    enemy: by the nemesis threat value)."""
    card = state.current_event
    if card is None:
        return state, ()
    section = ctx.prefix + SEC3
    steps: list[Step] = []
    q = ctx.quiet
    if not card.spawns:
        if q:
            return state, ()
        return state, (Step("The spawn row is empty", S.ENEMY_SPAWN, section=section),)
    for icon in card.spawns:
        if icon.pips > state.players:
            if not q:
                steps.append(Step(f"Spawn {icon.enemy} on {icon.space} skipped: {plural(icon.pips, 'pip')} > "
                                  f"{plural(state.players, 'hero', 'heroes')}", S.ENEMY_SPAWN, section=section))
            continue
        t = state.enemy_type(icon.enemy)
        on_board = sum(1 for e in state.enemies if e.type_key == t.key)
        if on_board >= t.standees:
            if t.key == "nemesis-specific":
                n, why = state.nemesis.threat_value, "the nemesis threat value"
            else:
                n, why = t.rank, f"its rank {t.rank}"
            state = state.with_threat(n, f"no {t.name} standee left")
            if not q:
                steps.append(Step(f"All {t.standees} {t.name} standees are on the board: threat +{n} ({why}) → "
                                  f"{state.threat}", S.ENEMY_SPAWN, "", {"threat": state.threat}, (), section))
            continue
        kind = "nemesis_specific" if t.key == "nemesis-specific" else "standard"
        new = Enemy(_new_enemy_id(state, t.name), kind, icon.space, t.power, t.health, rank=t.rank, type_key=t.key)
        state = state.evolve(enemies=state.enemies + (new,), log=state.log + (f"spawn {new.id}@{icon.space}",),
                             events=state.events + (EnemySpawned(new.id, icon.space),))
        if not q:
            steps.append(Step(f"{new.id} spawns on {icon.space}", S.ENEMY_SPAWN,
                              f"{on_board + 1} of {t.standees} {t.name} standees now on the board.",
                              {"enemy": new.id, "space": icon.space}, (new.id, icon.space), section))
    return state, tuple(steps)


def discard_event(state: GameState, ctx: PhaseContext) -> tuple[GameState, tuple[Step, ...]]:
    """Discard the event card (its activation line-up ends with it)."""
    card = state.current_event
    if card is None:
        return state, ()
    state = state.evolve(discard=state.discard + (card,), current_event=None, activating=())
    if ctx.quiet:
        return state, ()
    return state, (Step(f"Event {card.name} is discarded", S.DISCARD_EVENT, section=ctx.prefix + SEC3),)


# ------------------------------------------------------------------------------------------- end of round, loss


def end_of_round(state: GameState, ctx: PhaseContext) -> tuple[GameState, tuple[Step, ...]]:
    """End of Round: aspect tokens return to their supplies; the 1st player marker passes clockwise: onto the next
    seat, and past an eliminated player's seat under ruling ``first_player_eliminated`` = ``skip_eliminated`` (the
    default; consulted only when the next seat is an eliminated player's). Then, at the start of the next Hero Phase,
    a defeated hero's new standee is placed on a base (``Choices.respawn``)."""
    section = ctx.prefix + SEC_END
    n = len(state.heroes)
    nxt = (state.first_player + 1) % n
    why = ""
    if state.heroes[nxt].eliminated:
        held = state.heroes[nxt].name
        if ctx.rulings.reading("first_player_eliminated") == "skip_eliminated":
            nxt = next((c for i in range(1, n + 1) if not state.heroes[c := (state.first_player + i) % n].eliminated),
                       nxt)
            why = (f" {held}'s player is eliminated: the marker passes on to the next player in the game (ruling "
                   "first_player_eliminated = skip_eliminated).")
        else:
            why = (f" {held}'s player is eliminated and holds it: the next hero clockwise still in the game takes the "
                   "first turn (ruling first_player_eliminated = clockwise).")
    state = state.evolve(first_player=nxt, round=state.round + 1)
    q = ctx.quiet
    steps = [] if q else [Step(f"End of Round: aspect tokens return; 1st player → {state.heroes[nxt].name}",
                               S.END_OF_ROUND,
                  f"Round {state.round} begins.{why}", {"first_player": state.heroes[nxt].name, "round": state.round},
                  (), section)]
    for h in state.heroes:
        if not h.space and not h.eliminated:
            bases = tuple(b for b, _ in state.bases)
            oper = tuple(state.operational_bases())
            rec = ctx.choose("respawn", h.name, bases, (oper or bases)[0], "the first operational base")
            where = rec.chosen
            state = state.with_hero(evolve(h, space=state.base_space(where))).evolve(choices=state.choices + (rec,))
            if not q:
                steps.append(Step(f"{h.name}'s new standee is placed on {where}", S.DAMAGE_AND_DEFEAT,
                                  "At the start of the next Hero Phase, on any base.", {"choice": rec.to_json()},
                                  (h.name, where), section))
    return state, tuple(steps)


def _losses(state: GameState) -> tuple[bool, bool, int, bool]:
    """``(threat at 20, every base overrun, heroes eliminated, every hero eliminated)``: the loss conditions
    :func:`loss_gauges` shows and :func:`check_loss` applies (one computation for both)."""
    elim = sum(1 for h in state.heroes if h.eliminated)
    return (state.threat >= THREAT_LOSS, len(state.overrun) >= len(state.bases), elim,
            elim >= len(state.heroes))


def loss_gauges(state: GameState) -> tuple[Gauge, ...]:
    """How close each loss condition is (Winning and Losing): threat, bases, events, heroes, deadline
    (:class:`Gauge`)."""
    threat_lost, bases_lost, elim, heroes_lost = _losses(state)
    dl = state.elimination_deadline
    return (
        Gauge("threat", state.threat, THREAT_LOSS, threat_lost, f"threat {state.threat}/{THREAT_LOSS}"),
        Gauge("bases", len(state.overrun), len(state.bases), bases_lost,
              f"bases overrun {len(state.overrun)}/{len(state.bases)}"),
        Gauge("events", len(state.event_deck), 0, False,
              f"event cards left {len(state.event_deck)} (none left at step 3 loses)"),
        Gauge("heroes", elim, len(state.heroes), heroes_lost,
              f"heroes defeated while shattered {elim}/{len(state.heroes)}"),
        Gauge("deadline", dl, None, False,
              "no player eliminated" if dl is None else "Final Showdown started: deadline met" if state.showdown
              else f"a player is eliminated: the Final Showdown must start by the end of round {dl}'s Hero Phase"),
    )


def check_loss(state: GameState, ctx: PhaseContext, section: str, *, defer_threat: bool = False
               ) -> tuple[GameState, tuple[Step, ...]]:
    """Winning and Losing: apply every loss condition reached (threat 20, all bases overrun, all heroes defeated while
    shattered; the missing event and the elimination deadline are applied where they happen) and report the gauges
    (no report when ``ctx.quiet``)."""
    before = state                   # what the gauges measure (tracks, tokens, decks, heroes) does not change below
    threat_lost, bases_lost, _elim, heroes_lost = _losses(state)
    if threat_lost and not defer_threat:
        state = state.losing(f"threat reached {THREAT_LOSS}")
    if bases_lost:
        state = state.losing("all bases overrun")
    if heroes_lost:
        state = state.losing("all heroes defeated on their shattered side")
    if state.showdown and not state.lost:
        nem = state.nemesis_enemy()
        if nem is not None and nem.damage >= nem.health:
            state = state.evolve(won=True)
    if ctx.quiet:
        return state, ()
    gauges = loss_gauges(before)
    text = "; ".join(g.text for g in gauges)
    if state.lost:
        title = "The heroes lose: " + ", ".join(state.lost)
    elif state.won:
        title = "The heroes win: the nemesis is at 0 health in the Final Showdown"
    else:
        title = "No loss condition reached"
    if defer_threat and threat_lost:
        text += " (ruling threat_loss_timing = after_mission_check: threat judged after step 2)"
    return state, (Step(title, S.WINNING_AND_LOSING, text, {"lost": list(state.lost), "won": state.won,
                                                            "gauges": [g.to_json() for g in gauges]}, (), section),)


def loss_reached(state: GameState) -> bool:
    """A loss the Winning and Losing check would apply now: the heroes have lost, threat is at 20, every base is
    overrun or every hero is out (the activation loop stops there, and the check follows)."""
    if state.lost or state.threat >= THREAT_LOSS or len(state.overrun) >= len(state.bases):
        return True
    for h in state.heroes:
        if not h.eliminated:
            return False
    return True


def phase_over(state: GameState) -> bool:
    """The game is decided (the heroes have lost or won): a phase stops after the step that decides it."""
    return bool(state.lost) or state.won


# -- the Winning and Losing checks between the steps (each a step of the sequence, named after where it stands)


def check_elimination_deadline(state: GameState, ctx: PhaseContext) -> tuple[GameState, tuple[Step, ...]]:
    """Winning and Losing, as the Nemesis Phase begins: a player was eliminated and the Final Showdown did not start
    by the end of the Hero Phase after it. (The deadline is the end of a Hero Phase; this round's Hero Phase is over
    when its Nemesis Phase begins, and the Final Showdown can only begin in step 2, so a deadline of this round or
    earlier has passed.) A phase that goes on consults ruling ``threat_loss_timing`` here, whichever step it starts
    at: it says when this phase's threat loss is judged (:func:`check_loss_after_advance_threat`)."""
    dl = state.elimination_deadline
    if dl is not None and not state.showdown and dl <= state.round:
        state = state.losing("a player was eliminated and the Final Showdown did not start in time")
        if ctx.quiet:
            return state, ()
        return state, (Step("The heroes lose: the Final Showdown did not start by the end of the Hero Phase after "
                            "the elimination", S.WINNING_AND_LOSING, f"Deadline: round {dl}'s Hero Phase.",
                            {"lost": list(state.lost)}, (), ctx.prefix + ctx.start),)
    ctx.rulings.reading("threat_loss_timing")
    return state, ()


def check_loss_after_advance_threat(state: GameState, ctx: PhaseContext) -> tuple[GameState, tuple[Step, ...]]:
    """Winning and Losing after step 1 (with ruling ``threat_loss_timing`` = ``after_mission_check``, a threat of 20
    is judged after step 2 instead)."""
    defer = ctx.rulings.reading("threat_loss_timing") == "after_mission_check"
    return check_loss(state, ctx, ctx.prefix + SEC1, defer_threat=defer)


def check_loss_after_mission_check(state: GameState, ctx: PhaseContext) -> tuple[GameState, tuple[Step, ...]]:
    """Winning and Losing after step 2."""
    return check_loss(state, ctx, ctx.prefix + SEC2)


def check_loss_if_reached(state: GameState, ctx: PhaseContext) -> tuple[GameState, tuple[Step, ...]]:
    """Winning and Losing within step 3: only when a part of it reached a loss condition (:func:`loss_reached`)."""
    if loss_reached(state):
        return check_loss(state, ctx, ctx.prefix + SEC3)
    return state, ()


def check_loss_after_event(state: GameState, ctx: PhaseContext) -> tuple[GameState, tuple[Step, ...]]:
    """Winning and Losing after step 3 (none when no event was drawn this phase)."""
    if _no_event_this_phase(state, ctx):
        return state, ()
    return check_loss(state, ctx, ctx.prefix + SEC3)


def check_loss_after_end_of_round(state: GameState, ctx: PhaseContext) -> tuple[GameState, tuple[Step, ...]]:
    """Winning and Losing after End of Round."""
    return check_loss(state, ctx, ctx.prefix + SEC_END)


# ---------------------------------------------------------------------------------------------- the sequence

_W = " › Winning and Losing"

NEMESIS_PHASE: Sequence = (
    ("Winning and Losing › elimination deadline", check_elimination_deadline),
    (SEC1, advance_threat), (SEC1 + _W, check_loss_after_advance_threat),
    (SEC2, check_nemesis_mission), (SEC2 + _W, check_loss_after_mission_check),
    (SEC3 + " › draw", draw_event), (SEC3 + " › draw" + _W, check_loss_if_reached),
    (SEC3 + " › event text", resolve_event_text), (SEC3 + " › event text" + _W, check_loss_if_reached),
    (SEC3 + " › ongoing effects", resolve_ongoing_effects), (SEC3 + " › ongoing effects" + _W, check_loss_if_reached),
    (SEC3 + " › side mission", spawn_side_mission_step), (SEC3 + " › side mission" + _W, check_loss_if_reached),
    (SEC3 + " › nemesis ability", resolve_nemesis_ability),
    (SEC3 + " › nemesis ability" + _W, check_loss_if_reached),
    (SEC3 + " › activation order", plan_activation),
    Each(SEC3 + " › {item} activates", activating, activate_enemy, loss_reached),
    (SEC3 + " › activation" + _W, check_loss_if_reached),
    (SEC3 + " › spawns", spawn_enemies), (SEC3 + " › spawns" + _W, check_loss_if_reached),
    (SEC3 + " › discard", discard_event), (SEC3 + _W, check_loss_after_event),
    (SEC_END, end_of_round), (SEC_END + _W, check_loss_after_end_of_round),
)
"""The Nemesis Phase and the End of Round in rulebook order, with the Winning and Losing checks between the steps:
the elimination deadline as the phase begins, then a check after each numbered step (and, within step 3, after any
part that reaches a loss condition). The entry names start with the numbered step they belong to (:data:`STEP_SECTIONS`);
play with :func:`play_phase`."""

STEP_SECTIONS: tuple[str, ...] = (SEC1, SEC2, SEC3, SEC_END)
"""The phase's numbered steps (trace sections), in order: a phase may start at or stop after any of them."""


def _section_index(name: str) -> int | None:
    return next((i for i, sec in enumerate(STEP_SECTIONS) if name.startswith(sec)), None)


_ENTRY_SECTIONS = tuple(_section_index(e.name if isinstance(e, Each) else e[0]) for e in NEMESIS_PHASE)
_PHASES: dict[tuple[str, str], Sequence] = {}


def phase_sequence(start: str = SEC1, stop: str = SEC_END) -> Sequence:
    """:data:`NEMESIS_PHASE` from numbered step ``start`` through ``stop`` (both in :data:`STEP_SECTIONS`), the
    elimination deadline check first."""
    seq = _PHASES.get((start, stop))
    if seq is None:
        first, last = STEP_SECTIONS.index(start), STEP_SECTIONS.index(stop)
        seq = _PHASES[start, stop] = tuple(e for e, i in zip(NEMESIS_PHASE, _ENTRY_SECTIONS)
                                           if i is None or first <= i <= last)
    return seq


def play_phase(state: GameState, ctx: PhaseContext, *, start: str = SEC1, stop: str = SEC_END
               ) -> tuple[Frame[GameState], ...]:
    """Play one Nemesis Phase (and the End of Round) from ``state``, from step ``start`` through step ``stop`` (both
    in :data:`STEP_SECTIONS`), with :func:`explorer.kernel.play`; stops at the first loss or win
    (:func:`phase_over`). Returns the kernel frames (one per step function: the state after it and its steps); with
    ``ctx.quiet`` the last frame only, with no steps (:func:`explorer.kernel.play_last`: the same steps played)."""
    phase_ctx = replace(ctx, prefix=f"Round {state.round} · ", showdown_at_start=state.showdown, start=start)
    return (play_last if ctx.quiet else play)(state, phase_sequence(start, stop), phase_ctx, stop=phase_over)


PHASE_POINTS: dict[str, str] = {
    "1": SEC1, "1.check": SEC1 + _W, "2": SEC2, "2.check": SEC2 + _W, "3": SEC3,
    "3.text": SEC3 + " › event text", "3.ongoing": SEC3 + " › ongoing effects",
    "3.side_mission": SEC3 + " › side mission", "3.nemesis_ability": SEC3 + " › nemesis ability",
    "3.activation": SEC3 + " › activation order", "3.spawns": SEC3 + " › spawns", "3.discard": SEC3 + " › discard",
    "end": SEC_END,
}
"""The points of the Nemesis Phase (and End of Round) where a player may act between the rules (Additional Rules ›
Team-up Abilities: at any time, even to interrupt other game effects), in phase order: key → the name prefix of the
first :data:`NEMESIS_PHASE` entry played after it. ``"1"``, ``"2"``, ``"3"``, ``"end"``: before a numbered step (or
the End of Round); ``"1.check"``, ``"2.check"``: inside step 1 or 2, after its rule (the threat advanced; the
mission checked), before the Winning and Losing check that follows it; ``"3.<part>"``: inside step 3, after the
event card is drawn, before that part of its resolution (``"3.text"`` its text, ``"3.ongoing"`` the ongoing mission
effects, ``"3.side_mission"`` the side mission spawn, ``"3.nemesis_ability"`` the nemesis ability,
``"3.activation"`` the enemy activations (before their order is set), ``"3.spawns"`` the enemy spawns,
``"3.discard"`` the discard). Besides these, ``"3.activation.N"`` (:data:`ACTIVATION_POINT`, N from 1): the
activation order set, before the N-th enemy activation (N >= 2: between two activations); and
``"3.activation.N.interrupt"`` (:data:`INTERRUPT_SUFFIX`): inside the N-th activation, its item determined, before it
lands."""

ACTIVATION_POINT = "3.activation."
"""Prefix of the points ``"3.activation.N"``: before the N-th enemy activation of step 3 (N from 1 to
:data:`MAX_ACTIVATION_POINT`)."""
MAX_ACTIVATION_POINT = 20


def activation_number(point: str) -> int | None:
    """N for a point ``"3.activation.N"`` (1..:data:`MAX_ACTIVATION_POINT`), else ``None``."""
    if not point.startswith(ACTIVATION_POINT):
        return None
    n = point[len(ACTIVATION_POINT):]
    if not n.isdigit() or n != str(int(n)) or not 1 <= int(n) <= MAX_ACTIVATION_POINT:
        return None
    return int(n)


INTERRUPT_SUFFIX = ".interrupt"
"""Suffix of the points ``"3.activation.N.interrupt"``: inside the N-th enemy activation of step 3, after its item
(attack, overrun or move, with its target) is determined and before it lands (Additional Rules › Team-up Abilities:
team-up abilities can interrupt other game effects)."""


def interrupt_number(point: str) -> int | None:
    """N for a point ``"3.activation.N.interrupt"`` (N in 1..:data:`MAX_ACTIVATION_POINT`), else ``None``."""
    if not point.endswith(INTERRUPT_SUFFIX):
        return None
    return activation_number(point[:-len(INTERRUPT_SUFFIX)])


def is_phase_point(point: str) -> bool:
    """``point`` is a key of :data:`PHASE_POINTS`, ``"3.activation.N"`` or ``"3.activation.N.interrupt"``."""
    return point in PHASE_POINTS or activation_number(point) is not None or interrupt_number(point) is not None


def point_order(point: str) -> tuple[int, int]:
    """Where ``point`` (:func:`is_phase_point`) falls in the phase, as a sort key (``"3.activation.N"`` before
    ``"3.activation.N.interrupt"`` before ``"3.activation.N+1"``)."""
    n, i = activation_number(point), interrupt_number(point)
    if n is not None or i is not None:
        return list(PHASE_POINTS).index("3.activation"), 2 * n if n is not None else 2 * i + 1
    return list(PHASE_POINTS).index(point), 0


def phase_parts(state: GameState, ctx: PhaseContext, points: tuple[str, ...] = ("1", "2", "3", "end")
                ) -> tuple[PhaseContext, tuple[tuple[str, Sequence], ...]]:
    """The whole Nemesis Phase (and End of Round) as :func:`play_phase` plays it from ``state``, cut before each of
    ``points`` (:func:`is_phase_point`, in phase order, the first ``"1"``): ``(phase context, ((point,
    entries), ...))``, one part per point, in order (the elimination deadline check is in the first). Playing the
    parts one after another with :func:`explorer.kernel.play`, that context and ``stop=phase_over`` (no part after
    a stop) gives :func:`play_phase`'s frames; between the parts a player may act (Additional Rules › Team-up
    Abilities: team-up can be spent and team-up abilities used at any time). A ``"3.activation.N"`` point cuts the
    activations' :class:`~explorer.kernel.Each` entry before its N-th enemy (the enemies already lined up); a
    ``"3.activation.N.interrupt"`` point cuts inside the N-th activation: :func:`announce_activation` (begun, its
    item determined) before the cut, :func:`resolve_activation` (the item lands, unless the enemy was defeated or the
    nemesis stunned meanwhile) after it.

    Raises:
        ValueError: ``points`` not phase points in phase order starting with ``"1"``."""
    if (not points or points[0] != "1" or not all(is_phase_point(p) for p in points)
            or any(point_order(a) >= point_order(b) for a, b in zip(points, points[1:]))):
        raise ValueError(f"phase points must start with '1' and follow phase order ({', '.join(PHASE_POINTS)}, "
                         f"3.activation.N and 3.activation.N.interrupt after 3.activation): {points}")
    phase_ctx = replace(ctx, prefix=f"Round {state.round} · ", showdown_at_start=state.showdown, start=SEC1)
    seq = list(phase_sequence(SEC1, SEC_END))
    inside = [p for p in points if activation_number(p) is not None or interrupt_number(p) is not None]
    starts: dict[str, int] = {}
    if inside:
        at = next(i for i, e in enumerate(seq) if isinstance(e, Each))
        each = seq[at]
        pieces: list = []
        lo = 0

        def run(a: int, b: int | None) -> Each:
            return Each(each.name, (lambda s, a=a, b=b: activating(s)[a:b]), each.step, each.stop)

        for p in inside:
            n = activation_number(p)
            if n is not None:                       # before the N-th activation
                pieces.append(run(lo, n - 1))
                lo = n - 1
                starts[p] = at + len(pieces)
                continue
            n = interrupt_number(p)                 # inside the N-th: begun, its item determined, not landed
            pieces.append(run(lo, n - 1))
            pieces.append(Each(SEC3 + " › {item} begins its activation",
                               (lambda s, k=n - 1: activating(s)[k:k + 1]), announce_activation))
            starts[p] = at + len(pieces)
            pieces.append((f"{SEC3} › activation {n} resolves its item", resolve_activation))
            lo = n
        pieces.append(run(lo, None))
        seq[at:at + 1] = pieces
    names = [e.name if isinstance(e, Each) else e[0] for e in seq]
    cuts = [0] + [starts[p] if p in starts else
                  next(i for i, n in enumerate(names) if n.startswith(PHASE_POINTS[p])) for p in points[1:]]
    cuts.append(len(seq))
    return phase_ctx, tuple((p, tuple(seq[cuts[k]:cuts[k + 1]])) for k, p in enumerate(points))


def play_phases(state: GameState, ctx: PhaseContext, phases: int = 1, *, start: str = SEC1,
                stop: str = SEC_END) -> list[Frame[GameState]]:
    """Play ``phases`` Nemesis Phases back to back (each followed by End of Round; the Hero Phases in between are
    taken to change nothing), stopping at a loss or a win. ``start`` applies to the first phase, ``stop`` to the
    last."""
    frames: list[Frame[GameState]] = []
    for i in range(phases):
        frames += play_phase(state, ctx, start=start if i == 0 else SEC1, stop=stop if i == phases - 1 else SEC_END)
        if frames:
            state = frames[-1].state
        if state.lost or state.won:
            break
    return frames
