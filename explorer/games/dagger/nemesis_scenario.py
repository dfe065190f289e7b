"""Scenario kind ``"nemesis"`` of Marvel D.A.G.G.E.R.: a board position at the start of a Nemesis Phase, played out
step by step (:mod:`.nemesis`).

Rulebook sections: Setup (the five bases, the Iliad on a numbered space, the decks), Nemesis Phase (all steps), End
of Round, Final Showdown, Winning and Losing, Additional Rules › Missions (progress values by number of heroes),
Damage and Defeat. The file format is documented in ``docs/dagger-map-format.md`` (scenario section); in short::

    game = "dagger"
    kind = "nemesis"
    title = "..."
    map = "default"                 # a built-in map name, or an inline [map] table (the map-file format)
    iliad = "London"                # the Iliad token: a numbered space (name or number)
    players = 3                     # optional: heroes in the game (default: the number of [[heroes]])
    round = 1
    threat = 3
    overrun = ["Atlantis"]
    phases = 1                      # Nemesis Phases to play back to back (1..30)
    start_at = "step-1"             # step-1 | step-2 | step-3 | end-of-round (first phase)
    stop_after = "end-of-round"     # same choices (last phase)
    [nemesis] ...                   # name, threat_value, power, health, space, abilities
    [[heroes]] ...  [[enemy_types]] ...  [[enemies]] ...
    [[nemesis_missions]] ... [[side_missions]] ... [[side_deck]] ... [[hero_missions]] ...
    [[events]] ...                  # top of the deck first; `card = "<name>"` takes a shipped example card
    [choices] ...                   # activation_order, attack_target, base_tie, move_via, respawn
    [rulings] ...

``parse_nemesis(data, source)`` validates everything (one-line :class:`~explorer.errors.ScenarioError` naming the
field and what is allowed); ``resolve_nemesis(scenario, rulings, seed)`` returns the cited :class:`Trace`;
:func:`playthrough` gives the frames (each step with the state after it) for steppers.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from explorer.dice import Dice
from explorer.errors import ScenarioError
from explorer.kernel import Frame, trace_of
from explorer.scenario import read_toml, validate
from explorer.trace import Trace

from .nemesis import SEC1, SEC2, SEC3, SEC_END, Choices, PhaseContext, loss_gauges, play_phases
from .options import rulings as make_rulings
from .state import (
    SIDE_SLOTS, Effect, EliteSpec, Enemy, EnemyType, EventCard, GameState, Hero, Mission, NemesisSheet, SideCard,
    SpawnIcon,
)
from .worldmap import FIXED_BASES, ILIAD, WorldMap, load_map, map_from_dict

if TYPE_CHECKING:   # built only when a playthrough is reported: `explorer dagger forecast` never does
    from .results import NemesisOutcome

STEP_KEYS = {"step-1": SEC1, "step-2": SEC2, "step-3": SEC3, "end-of-round": SEC_END}

FILE_NAMES = ("NAME", "TEXT", "ENEMY_KEYS", "ROW_KEYS", "EFFECTS", "EffectModel", "SpawnModel", "EventModel",
              "AbilityModel", "NemesisModel", "EnemyTypeModel", "HeroModel", "EliteModel", "EnemyModel",
              "MissionModel", "ChoicesModel", "NemesisScenarioModel")
"""The file-format names that live in :mod:`.nemesis_file` (pydantic), still importable from here."""


def __getattr__(name: str) -> Any:
    """The file format's models (:data:`FILE_NAMES`), imported from :mod:`.nemesis_file` when first asked for, so
    that playing a validated scenario imports no pydantic."""
    if name in FILE_NAMES:
        from . import nemesis_file

        return getattr(nemesis_file, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@dataclass(frozen=True)
class NemesisScenario:
    """A parsed ``nemesis`` scenario: ``title``, ``description``, ``world`` (the map), ``state`` (the initial
    :class:`GameState`), ``choices``, ``rulings`` (the file's own), ``phases``, ``start``/``stop`` (trace sections),
    ``seed``, ``shuffle_events``, ``source``."""

    title: str
    description: str
    world: WorldMap
    state: GameState
    choices: Choices
    rulings: Mapping[str, str]
    phases: int
    start: str
    stop: str
    seed: int | None
    shuffle_events: bool
    source: str


# ------------------------------------------------------------------------------------------------ example cards


def example_events() -> dict[str, EventCard]:
    """The shipped example event cards (``cards/examples.toml``), by name. They are examples of the data format,
    marked ``example = True``; they are not printed cards."""
    from .nemesis_file import EventModel

    f = Path(__file__).with_name("cards") / "examples.toml"
    src = "examples.toml (example cards)"
    data = read_toml(src, text=f.read_text(encoding="utf-8"))
    out = {}
    for i, raw in enumerate(data.get("events", [])):
        m = validate(EventModel, raw, src)
        out[m.name] = _event(m, example=True)
    return out


def _effects(ms: list[EffectModel]) -> tuple[Effect, ...]:
    return tuple(Effect(m.kind, m.amount, m.where, m.mission, m.base, m.text) for m in ms)


def _event(m: EventModel, example: bool | None = None) -> EventCard:
    return EventCard(m.name, m.text, _effects(m.effects), m.nemesis_icon, tuple(m.activate),
                     tuple(SpawnIcon(s.enemy, s.space, s.pips) for s in m.spawns),
                     m.example if example is None else example)


# ------------------------------------------------------------------------------------------------ parsing


def _fail(fld: str, problem: str, allowed, source: str) -> ScenarioError:
    return ScenarioError(fld, problem, allowed, source)


def _mission(m: MissionModel, kind: str, players: int, fld: str, source: str) -> Mission:
    pv = m.progress_value
    if m.progress_values:
        if pv is not None:
            raise _fail(f"{fld}.progress_values", "give progress_value or progress_values, not both",
                        "one of them", source)
        if str(players) not in m.progress_values:
            raise _fail(f"{fld}.progress_values", f"no progress value for {players} heroes",
                        f"a key {str(players)!r} (number of heroes)", source)
        pv = m.progress_values[str(players)]
    return Mission(m.name, kind, m.progress, pv, m.threat_value, _effects(m.ongoing), _effects(m.on_pass),
                   _effects(m.on_fail), m.space, "", m.team_up, m.hero, m.condition_met, m.dagger_progress)


def parse_board(data: Mapping[str, Any], source: str, own: tuple[str, ...]) -> NemesisScenario:
    """:func:`parse_nemesis` for the board part of a ``hero`` or ``round`` document, whose ``own`` top-level fields
    were taken out: an unknown top-level field lists the board's fields and ``own`` (every field of the kind).

    Raises:
        ScenarioError: as :func:`parse_nemesis`.
    """
    try:
        return parse_nemesis({**data, "kind": "nemesis"}, source)
    except ScenarioError as e:
        if e.problem != "unknown field" or "." in e.field or "[" in e.field:
            raise
        from .nemesis_file import NemesisScenarioModel

        allowed = "one of " + ", ".join(repr(n) for n in (*NemesisScenarioModel.model_fields, *own))
        raise ScenarioError(e.field, e.problem, allowed, source) from None


def check_paths(paths: Mapping[str, tuple[str, ...] | list[str]], world, source: str) -> None:
    """Every name in a move path (``{field: path}``) is a space of ``world``: a name that is not is a bad file.

    Raises:
        ScenarioError: naming ``<field>[i]``, the name and the map's spaces.
    """
    for fld, path in paths.items():
        for i, sp in enumerate(path):
            if sp not in world:
                raise _fail(f"{fld}[{i}]", f"unknown space {sp!r}", "a space of the map (" + ", ".join(world.names)
                            + ")", source)


def parse_nemesis(data: Mapping[str, Any], source: str) -> NemesisScenario:
    """Validate a ``kind = "nemesis"`` document.

    Raises:
        ScenarioError: one line naming ``source``, the field and what is allowed (bounds, unknown spaces, bases,
            enemy types, missions, heroes and enemies; duplicate names; more enemies of a type than its standees).
    """
    from .nemesis_file import ENEMY_KEYS, NemesisScenarioModel

    sc = validate(NemesisScenarioModel, data, source)
    if isinstance(sc.map, str):
        try:
            world = load_map(sc.map)
        except ScenarioError as e:
            raise ScenarioError(e.field, e.problem, e.allowed, source) from None
    else:
        world = map_from_dict(sc.map, source)
    spaces = list(world.names)

    def space(fld: str, name: str, empty_ok: bool = False) -> str:
        if (empty_ok and name == "") or name in world:
            return name
        raise _fail(fld, f"unknown space {name!r}", "a space of the map (" + ", ".join(spaces) + ")", source)

    iliad = world.iliad_space(sc.iliad, "iliad", source)
    bases = tuple((b, b) for b in world.bases) + ((ILIAD, iliad),)
    base_names = [b for b, _ in bases]
    for i, b in enumerate(sc.overrun):
        if b not in base_names:
            raise _fail(f"overrun[{i}]", f"{b!r} is not a base" + (" (Asgard is never overrun)"
                                                                  if b == world.asgard else ""), base_names, source)
    players = sc.players or len(sc.heroes)
    if players < len(sc.heroes):
        raise _fail("players", f"{players} players but {len(sc.heroes)} heroes", f">= {len(sc.heroes)}", source)

    heroes = []
    for i, h in enumerate(sc.heroes):
        if h.name in [x.name for x in heroes]:
            raise _fail(f"heroes[{i}].name", f"duplicate hero {h.name!r}", "unique names", source)
        on_board = not h.eliminated
        sp = space(f"heroes[{i}].space", h.space, empty_ok=True) if on_board else ""
        if h.damage >= h.health:
            raise _fail(f"heroes[{i}].damage", f"damage {h.damage} already defeats a hero with health {h.health}",
                        f"< {h.health}", source)
        if h.eliminated and not h.shattered:
            raise _fail(f"heroes[{i}].eliminated", "only a shattered hero's player is eliminated",
                        "shattered = true with eliminated = true", source)
        heroes.append(Hero(h.name, sp, h.health, h.damage, h.shattered, h.eliminated, h.next_health, h.move, h.atk,
                           h.dfi, h.tactic, h.rest_auto, h.empowered))
    hero_names = [h.name for h in heroes]

    types = []
    for i, t in enumerate(sc.enemy_types):
        if t.key in [x.key for x in types]:
            raise _fail(f"enemy_types[{i}].key", f"duplicate enemy type {t.key!r}", "each key once", source)
        rank = t.rank if t.rank is not None else (int(t.key[-1]) if t.key.startswith("rank-") else None)
        if rank is None:
            raise _fail(f"enemy_types[{i}].rank", "the nemesis-specific enemy needs its rank (activation order)",
                        "1..4", source)
        if t.key.startswith("rank-") and rank != int(t.key[-1]):
            raise _fail(f"enemy_types[{i}].rank", f"{t.key} has rank {t.key[-1]}", t.key[-1], source)
        types.append(EnemyType(t.key, t.name, rank, t.power if t.power is not None else rank, t.health, t.standees))
    type_by = {t.key: t for t in types}

    def effects_ok(ms: list[EffectModel], fld: str, missions: list[str]) -> None:
        for j, e in enumerate(ms):
            f = f"{fld}[{j}]"
            if e.kind == "damage_heroes":
                kind, _, arg = e.where.partition(":")
                if e.where in ("all", "nemesis_space", "nearby_nemesis"):
                    pass
                elif kind in ("space", "nearby") and arg:
                    space(f"{f}.where", arg)
                else:
                    raise _fail(f"{f}.where", f"unknown target {e.where!r}",
                                "'all', 'space:<name>', 'nearby:<name>', 'nemesis_space', 'nearby_nemesis'", source)
                if e.amount < 0:
                    raise _fail(f"{f}.amount", "damage cannot be negative", ">= 0", source)
            if e.kind == "progress" and e.mission not in missions:
                raise _fail(f"{f}.mission", f"unknown mission {e.mission!r}", missions, source)
            if e.kind == "overrun" and e.base not in base_names:
                raise _fail(f"{f}.base", f"{e.base!r} is not a base", base_names, source)

    # the duplicate is named where the file writes it (issue #25 item 5: a field the format has, not "missions")
    named = [(f"{key}[{k}].name", m.name) for key in ("nemesis_missions", "side_missions", "side_deck",
                                                        "hero_missions")
             for k, m in enumerate(getattr(sc, key))]
    all_missions = [n for _, n in named]
    for i, (fld, n) in enumerate(named):
        first = next((f for f, x in named[:i] if x == n), None)
        if first is not None:
            raise _fail(fld, f"duplicate mission name {n!r} (also {first})", "unique mission names", source)
    nem_deck = []
    for i, m in enumerate(sc.nemesis_missions):
        kind = m.kind or ("first_strike" if i == 0 and len(sc.nemesis_missions) == 4 else "nemesis")
        if kind not in ("first_strike", "nemesis") or (kind == "first_strike" and i != 0):
            raise _fail(f"nemesis_missions[{i}].kind", f"{kind!r} here", "'first_strike' (top card only) or "
                        "'nemesis'", source)
        if m.elite is not None:
            raise _fail(f"nemesis_missions[{i}].elite", "only side missions are elite enemies", None, source)
        for part in ("ongoing", "on_pass", "on_fail"):
            effects_ok(getattr(m, part), f"nemesis_missions[{i}].{part}", all_missions)
        nem_deck.append(_mission(m, kind, players, f"nemesis_missions[{i}]", source))

    def side(m: MissionModel, fld: str) -> Mission:
        if m.kind not in (None, "side"):
            raise _fail(f"{fld}.kind", f"{m.kind!r} in a side mission list", "'side'", source)
        space(f"{fld}.space", m.space, empty_ok=True)
        if m.elite is not None and not m.space:
            raise _fail(f"{fld}.space", "an elite side mission needs the space its elite is placed on",
                        "a space of the map", source)
        effects_ok(m.ongoing, f"{fld}.ongoing", all_missions)
        return _mission(m, "side", players, fld, source)

    slots: list[Mission | None] = [side(m, f"side_missions[{i}]") for i, m in enumerate(sc.side_missions)]
    slots += [None] * (SIDE_SLOTS - len(slots))
    deck = tuple(SideCard(side(m, f"side_deck[{i}]"),
                          EliteSpec(m.elite.name, m.elite.health, m.elite.power) if m.elite else None)
                 for i, m in enumerate(sc.side_deck))
    hero_ms = []
    for i, m in enumerate(sc.hero_missions):
        if m.hero not in hero_names:
            raise _fail(f"hero_missions[{i}].hero", f"unknown hero {m.hero!r}", hero_names, source)
        effects_ok(m.ongoing, f"hero_missions[{i}].ongoing", all_missions)
        hero_ms.append(_mission(m, "hero", players, f"hero_missions[{i}]", source))

    nm = sc.nemesis
    enemies = [Enemy(nm.name, "nemesis", space("nemesis.space", nm.space), nm.power, nm.health, nm.damage,
                     primed=nm.primed, stunned=nm.stunned)]
    for i, e in enumerate(sc.enemies):
        f = f"enemies[{i}]"
        if e.id in [x.id for x in enemies]:
            raise _fail(f"{f}.id", f"duplicate enemy {e.id!r}", "unique ids (the nemesis's name is taken)", source)
        sp = space(f"{f}.space", e.space)
        if e.type == "elite":
            if e.health is None or e.power is None:
                raise _fail(f"{f}.health" if e.health is None else f"{f}.power", "is required for an elite",
                            "health 1..30, power 0..10", source)
            idx = next((k for k, m in enumerate(slots) if m is not None and m.name == e.mission), None)
            if idx is None:
                raise _fail(f"{f}.mission", f"an elite comes from a side mission in play, got {e.mission!r}",
                            [m.name for m in slots if m is not None] or "a side mission in [[side_missions]]", source)
            slots[idx] = replace(slots[idx], elite=e.id)
            enemies.append(Enemy(e.id, "elite", sp, e.power, e.health, e.damage, primed=e.primed))
            continue
        if e.health is not None or e.power is not None or e.mission:
            raise _fail(f"{f}.health", f"{e.type} enemies take health and power from their enemy type",
                        "health/power/mission only for elites", source)
        t = type_by.get(e.type)
        if t is None:
            raise _fail(f"{f}.type", f"no [[enemy_types]] entry for {e.type!r}", list(type_by) or "an enemy_types "
                        "entry", source)
        if e.damage >= t.health:
            raise _fail(f"{f}.damage", f"damage {e.damage} already defeats it (health {t.health})",
                        f"< {t.health}", source)
        enemies.append(Enemy(e.id, "nemesis_specific" if t.key == "nemesis-specific" else "standard", sp, t.power,
                             t.health, e.damage, t.rank, t.key, e.primed))
    for t in types:
        n = sum(1 for e in enemies if e.type_key == t.key)
        if n > t.standees:
            raise _fail("enemies", f"{n} {t.name} ({t.key}) on the board but only {t.standees} standees",
                        f"at most {t.standees}", source)
    enemy_ids = [e.id for e in enemies]

    examples: dict[str, EventCard] | None = None
    events = []
    for i, ev in enumerate(sc.events):
        f = f"events[{i}]"
        if ev.card:
            examples = examples if examples is not None else example_events()
            if ev.card not in examples:
                raise _fail(f"{f}.card", f"unknown example card {ev.card!r}", list(examples), source)
            if ev.name or ev.text or ev.effects or ev.nemesis_icon or ev.activate or ev.spawns:
                raise _fail(f, "a card = ... entry takes the example card as it is", "only 'card'", source)
            card = examples[ev.card]
        else:
            if not ev.name:
                raise _fail(f"{f}.name", "is required but missing", "a card name (or card = an example card)",
                            source)
            effects_ok(ev.effects, f"{f}.effects", all_missions)
            card = _event(ev)
        for j, s in enumerate(card.spawns):
            space(f"{f}.spawns[{j}].space", s.space)
            if s.enemy not in type_by:
                raise _fail(f"{f}.spawns[{j}].enemy", f"no [[enemy_types]] entry for {s.enemy!r}",
                            list(type_by) or "an enemy_types entry", source)
        events.append(card)
    for i, ab in enumerate(nm.abilities):
        effects_ok(ab.effects, f"nemesis.abilities[{i}].effects", all_missions)

    ch = sc.choices
    for k, v in ch.attack_target.items():
        if k not in enemy_ids or v not in hero_names:
            raise _fail(f"choices.attack_target.{k}", f"{k!r} -> {v!r}", "an enemy id -> a hero name", source)
    for k, v in ch.base_tie.items():
        if k not in enemy_ids or v not in base_names:
            raise _fail(f"choices.base_tie.{k}", f"{k!r} -> {v!r}", "an enemy id -> a base name", source)
    for k, v in ch.move_via.items():
        if k not in enemy_ids:
            raise _fail(f"choices.move_via.{k}", f"unknown enemy {k!r}", enemy_ids, source)
        space(f"choices.move_via.{k}", v)
    for k, v in ch.respawn.items():
        if k not in hero_names or v not in base_names:
            raise _fail(f"choices.respawn.{k}", f"{k!r} -> {v!r}", "a hero name -> a base name", source)
    if sc.first_player and sc.first_player not in hero_names:
        raise _fail("first_player", f"unknown hero {sc.first_player!r}", hero_names, source)
    try:
        make_rulings(sc.rulings)   # unknown keys or readings fail here, naming the field
    except ScenarioError as e:
        raise ScenarioError(e.field, e.problem, e.allowed, source) from None

    state = GameState(
        round=sc.round, players=players, threat=sc.threat, team_up=sc.team_up, heroes=tuple(heroes),
        enemies=tuple(enemies), bases=bases, overrun=frozenset(sc.overrun), nemesis_deck=tuple(nem_deck),
        side_slots=tuple(slots), side_deck=deck, hero_missions=tuple(hero_ms), event_deck=tuple(events),
        enemy_types=tuple(types), nemesis=NemesisSheet(nm.name, nm.threat_value, tuple(
            (a.icon, _effects(a.effects)) for a in nm.abilities), nm.showdown_health),
        showdown=sc.showdown, first_player=hero_names.index(sc.first_player) if sc.first_player else 0,
        elimination_deadline=sc.elimination_deadline)
    choices = Choices(tuple(ch.activation_order), dict(ch.attack_target), dict(ch.base_tie), dict(ch.move_via),
                      dict(ch.respawn))
    return NemesisScenario(sc.title, sc.description, world, state, choices, dict(sc.rulings), sc.phases,
                           STEP_KEYS[sc.start_at], STEP_KEYS[sc.stop_after], sc.seed, sc.shuffle_events, source)


# ------------------------------------------------------------------------------------------------ resolving


def initial_state(scenario: NemesisScenario, seed: int | None = None) -> GameState:
    """The scenario's starting state; with ``shuffle_events``, the event deck shuffled by ``seed`` (or the file's)
    through the one dice source (:meth:`explorer.dice.Dice.shuffled` of a new ``Dice`` of that seed: the same order
    as the ``random.Random(seed).shuffle`` it replaces, so every trace keeps its draws)."""
    st = scenario.state
    if scenario.shuffle_events:
        deck = Dice(seed=seed if seed is not None else scenario.seed).shuffled(st.event_deck)
        st = replace(st, event_deck=deck)
    return st


def phase_context(scenario: NemesisScenario, rulings: Mapping[str, str] | None = None,
                  choices: Choices | None = None) -> PhaseContext:
    """The Nemesis Phase context of ``scenario``: its map, its rulings with ``rulings`` on top, its choices (or
    ``choices``)."""
    return PhaseContext(world=scenario.world, rulings=make_rulings({**scenario.rulings, **(rulings or {})}),
                        choices=scenario.choices if choices is None else choices)


def playthrough(scenario: NemesisScenario, rulings: Mapping[str, str] | None = None, seed: int | None = None
                ) -> tuple[list[Frame[GameState]], PhaseContext, GameState]:
    """``(frames, ctx, initial)``: the kernel frames of the scenario's Nemesis Phases (one per step function: the
    state after it and its steps; the choices made are in the states), the context (its rulings record the readings
    consulted) and the starting state."""
    ctx = phase_context(scenario, rulings)
    start = initial_state(scenario, seed)
    return play_phases(start, ctx, scenario.phases, start=scenario.start, stop=scenario.stop), ctx, start


def nemesis_outcome(frames: list[Frame[GameState]], start: GameState) -> NemesisOutcome:
    """The typed outcome of a playthrough from ``start`` (:class:`.results.NemesisOutcome`)."""
    from .results import NemesisOutcome

    end = frames[-1].state if frames else start
    after: list[list] = []
    for f in frames:                          # the threat each cited step leaves, by trace section
        for s in f.steps:
            if after and after[-1][0] == s.section:
                after[-1][1] = f.state.threat
            else:
                after.append([s.section, f.state.threat])
    rounds = tuple(dict.fromkeys(sec.split(" · ")[0] for sec, _ in after if sec.startswith("Round ")))
    return NemesisOutcome(
        threat_start=start.threat, threat=end.threat, threat_after=tuple((sec, t) for sec, t in after),
        lost=end.lost, won=end.won, showdown=end.showdown, overrun=tuple(sorted(end.overrun)), bases=len(end.bases),
        round=end.round, events_left=len(end.event_deck), team_up=end.team_up,
        side_missions=tuple(m.name if m else None for m in end.side_slots),
        nemesis_missions_left=tuple(m.name for m in end.nemesis_deck), completed_nemesis=end.completed_nemesis,
        enemies=end.enemies, heroes=end.heroes, gauges=loss_gauges(end), choices=end.choices, rounds=rounds,
        events=end.events)


def resolve_nemesis(scenario: NemesisScenario, rulings: Mapping[str, str] | None = None,
                    seed: int | None = None) -> Trace:
    """Play the scenario's Nemesis Phases into a cited :class:`Trace` whose result is a
    :class:`.results.NemesisOutcome` (``Trace.outcome``, its JSON: ``threat`` (final), ``threat_start``,
    ``threat_after`` (``[[section, threat], ...]`` at the end of each numbered step), ``lost`` (reasons), ``won``,
    ``showdown``, ``overrun``, ``round``, ``events_left``, ``side_missions``, ``nemesis_missions_left``,
    ``completed_nemesis``, ``enemies`` (``{id: space}``), ``heroes`` (``{name: [space, damage, health, shattered,
    eliminated]}``), ``gauges``, ``choices``).
    """
    frames, ctx, start = playthrough(scenario, rulings, seed)
    trace = trace_of(scenario.title or "Nemesis Phase", frames, ctx.rulings.consulted)
    return trace.with_result(nemesis_outcome(frames, start))


def threat_after(trace: Trace, step: str, phase: int = 0) -> int | None:
    """The threat at the end of numbered ``step`` (``"1. Advance Threat"``...) of the ``phase``-th phase played."""
    hits = [t for sec, t in trace.result.threat_after if sec.endswith(step)]
    return hits[phase] if len(hits) > phase else None


__all__ = ["FIXED_BASES", "NemesisScenario", "parse_nemesis", "resolve_nemesis", "playthrough", "initial_state",
           "example_events", "threat_after", "phase_context", "nemesis_outcome"]
