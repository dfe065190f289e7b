"""Scenario kind ``setup`` of Marvel D.A.G.G.E.R.: the parts of Setup that shuffle, deal and depend on the player
count, as a seeded, replayable step sequence (:data:`SETUP_SEQUENCE` on :mod:`explorer.kernel`).

Rulebook section: Setup — each hero's aspect tokens (1 boosted and 2 standard; 1 more standard token with 1 or 2
players); the event deck (9 of the 30 standard events at random, dealt into 3 face-down piles of 3, one
nemesis-specific event shuffled into each pile — which one goes where is random —, each pile shuffled, the 3 piles
stacked); the side mission deck
shuffled; the 1st strike's Setup (its enemy spawn icons whose pips are at most the number of heroes place an enemy
of the shown rank on the shown space; the top side mission is drawn into a side mission slot).

The piles are stacked in the order they were dealt (pile 1 on top): the rulebook does not order them, and as every
pile is shuffled the order changes no odds. Every random choice comes from one seeded die
(:class:`explorer.dice.Dice`): the same seed gives the same deck (``explorer resolve dg-setup --seed N``).

The card names are stand-ins (the rulebook prints no event list): ``Event 1`` .. ``Event 30`` and ``Nemesis event
1`` .. ``3`` unless the file lists its own.

A ``setup`` document::

    game = "dagger"
    kind = "setup"
    seed = 7
    heroes = ["Hero A", "Hero B", "Hero C"]       # 1..4 heroes, in seating order
    standard_events = ["..."]                     # optional: 9..30 names (default: the stand-in 30)
    nemesis_events = ["...", "...", "..."]        # optional: 3 names (default: the stand-in 3)
    enemy_types = [{ key = "rank-1", name = "Thug", health = 2, standees = 3 }]   # the 1st strike's enemy cards
    side_deck = ["Side: Sabotage", "Side: Rescue"]   # side mission names (shuffled)
    [first_strike]
    name = "1st Strike"
    spawns = [{ enemy = "rank-1", space = "Cairo", pips = 1 }]
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, Literal

from pydantic import Field

from explorer.dice import SEED_MAX
from explorer.dice import Dice
from explorer.errors import ScenarioError
from explorer.kernel import Context, Sequence, play, steps_of
from explorer.scenario import validate
from explorer.schema import ScenarioHeader, Strict
from explorer.text import join_words, plural
from explorer.trace import Step, Trace

from . import sections as S
from .nemesis_scenario import EnemyTypeModel, SpawnModel
from .results import SetupOutcome
from .worldmap import load_map

STANDIN_EVENTS: tuple[str, ...] = tuple(f"Event {i}" for i in range(1, 31))
"""Stand-in names of the 30 standard event cards."""
STANDIN_NEMESIS_EVENTS: tuple[str, ...] = ("Nemesis event 1", "Nemesis event 2", "Nemesis event 3")
"""Stand-in names of the 3 nemesis-specific event cards."""
PILES, PER_PILE = 3, 3
NAME = Field(min_length=1, max_length=60)


class FirstStrikeModel(Strict):
    name: str = NAME
    spawns: list[SpawnModel] = Field(default_factory=list, max_length=12)


class SetupModel(ScenarioHeader):
    """The whole ``kind = "setup"`` document."""

    game: Literal["dagger"] = "dagger"
    kind: Literal["setup"] = "setup"
    seed: int = Field(0, ge=0, le=SEED_MAX)
    heroes: list[str] = Field(min_length=1, max_length=4)
    standard_events: list[str] = Field(default_factory=lambda: list(STANDIN_EVENTS), min_length=PILES * PER_PILE,
                                       max_length=30)
    nemesis_events: list[str] = Field(default_factory=lambda: list(STANDIN_NEMESIS_EVENTS), min_length=PILES,
                                      max_length=PILES)
    enemy_types: list[EnemyTypeModel] = Field(default_factory=list, max_length=5)
    side_deck: list[str] = Field(default_factory=list, max_length=30)
    first_strike: FirstStrikeModel


@dataclass(frozen=True)
class SetupScenario:
    """A parsed ``setup`` scenario (the fields of :class:`SetupModel`, as tuples) and its ``source``."""

    title: str
    description: str
    seed: int
    heroes: tuple[str, ...]
    standard_events: tuple[str, ...]
    nemesis_events: tuple[str, ...]
    enemy_types: tuple[tuple[str, str, int], ...]        # (key, name, standees)
    side_deck: tuple[str, ...]
    first_strike: str
    spawns: tuple[tuple[str, str, int], ...]             # (enemy key, space, pips)
    source: str


def parse_setup(data: Mapping[str, Any], source: str) -> SetupScenario:
    """Validate a ``kind = "setup"`` document.

    Raises:
        ScenarioError: one line naming ``source`` and the field (a hero or card named twice, an enemy type key
            given twice, an unknown space, a spawn of a rank with no enemy card).
    """
    m = validate(SetupModel, data, source)
    for fld, names in (("heroes", m.heroes), ("standard_events", m.standard_events),
                       ("nemesis_events", m.nemesis_events), ("side_deck", m.side_deck)):
        if len(set(names)) != len(names):
            raise ScenarioError(fld, "a name is listed twice", "distinct names", source)
    world = load_map()
    keys = [t.key for t in m.enemy_types]
    for i, k in enumerate(keys):
        if k in keys[:i]:  # a spawn names its card by key: the second card of one key was never used
            raise ScenarioError(f"enemy_types[{i}].key", f"duplicate enemy type {k!r}", "each key once", source)
    for i, sp in enumerate(m.first_strike.spawns):
        if sp.space not in world:
            raise ScenarioError(f"first_strike.spawns[{i}].space", f"unknown space {sp.space!r}",
                                "names of spaces on the map", source)
        if sp.enemy not in keys:
            raise ScenarioError(f"first_strike.spawns[{i}].enemy", f"no enemy card {sp.enemy!r}", keys or
                                "enemy_types = [...] with that key", source)
    return SetupScenario(m.title, m.description, m.seed, tuple(m.heroes), tuple(m.standard_events),
                         tuple(m.nemesis_events), tuple((t.key, t.name, t.standees) for t in m.enemy_types),
                         tuple(m.side_deck), m.first_strike.name,
                         tuple((s.enemy, s.space, s.pips) for s in m.first_strike.spawns), source)


@dataclass(frozen=True)
class SetupState:
    """Setup so far: ``tokens`` (``((hero, boosted, standard), ...)``), ``chosen`` (the 9 standard events),
    ``piles`` (3 tuples, top first), ``event_deck`` (top first), ``side_deck`` (top first), ``enemies``
    (``((id, space), ...)`` placed by the 1st strike) and ``side_slots`` (the side missions drawn, slot order)."""

    tokens: tuple[tuple[str, int, int], ...] = ()
    chosen: tuple[str, ...] = ()
    piles: tuple[tuple[str, ...], ...] = ()
    event_deck: tuple[str, ...] = ()
    side_deck: tuple[str, ...] = ()
    enemies: tuple[tuple[str, str], ...] = ()
    side_slots: tuple[str, ...] = ()


@dataclass(frozen=True)
class SetupContext(Context):
    """The ``scenario`` and one seeded :class:`~explorer.dice.Dice` (``dice``) for every shuffle."""

    scenario: SetupScenario | None = None


def shuffled(items: tuple[str, ...], dice: Dice, label: str) -> tuple[str, ...]:
    """``items`` in a uniformly random order (Fisher-Yates with one die roll per position from ``dice``)."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = dice.roll(i + 1, label) - 1
        out[i], out[j] = out[j], out[i]
    return tuple(out)


def take_aspect_tokens(state: SetupState, ctx: SetupContext) -> tuple[SetupState, tuple[Step, ...]]:
    """Setup: each player takes 1 boosted and 2 standard aspect tokens; with 1 or 2 players, 1 more standard."""
    heroes = ctx.scenario.heroes
    extra = 1 if len(heroes) <= 2 else 0
    tokens = tuple((h, 1, 2 + extra) for h in heroes)
    return replace(state, tokens=tokens), (Step(
        f"Each hero takes 1 boosted and {2 + extra} standard aspect tokens", S.SETUP,
        f"{plural(len(heroes), 'player')}" + ("; 1 or 2 players: 1 more standard token each" if extra else ""),
        {"boosted": 1, "standard": 2 + extra}, tuple(heroes), "Setup"),)


def choose_nine_events(state: SetupState, ctx: SetupContext) -> tuple[SetupState, tuple[Step, ...]]:
    """Setup: shuffle the standard event cards and take 9 at random (the rest return to the box)."""
    pool = shuffled(ctx.scenario.standard_events, ctx.dice, "standard events")
    chosen = pool[:PILES * PER_PILE]
    return replace(state, chosen=chosen), (Step(
        f"9 of the {len(pool)} standard events are taken at random", S.SETUP, join_words(chosen) + ".",
        {"chosen": list(chosen)}, (), "Setup"),)


def deal_piles(state: SetupState, ctx: SetupContext) -> tuple[SetupState, tuple[Step, ...]]:
    """Setup: separate the 9 events into 3 face-down piles of 3, and shuffle 1 nemesis-specific event into each
    pile (which nemesis event goes into which pile is random: the nemesis events are shuffled and dealt one to each
    pile; each pile is then shuffled, so where it lies in its pile is random too)."""
    piles = []
    nem = shuffled(ctx.scenario.nemesis_events, ctx.dice, "nemesis events")
    for p in range(PILES):
        cards = state.chosen[p * PER_PILE:(p + 1) * PER_PILE] + (nem[p],)
        piles.append(shuffled(cards, ctx.dice, f"pile {p + 1}"))
    return replace(state, piles=tuple(piles)), tuple(
        Step(f"Pile {p + 1}: {nem[p]} shuffled in → {', '.join(pile)} (top first)", S.SETUP,
             "The nemesis events are dealt one to each pile at random." if p == 0 else "",
             {"pile": list(pile)}, (), "Setup") for p, pile in enumerate(piles))


def stack_event_deck(state: SetupState, ctx: SetupContext) -> tuple[SetupState, tuple[Step, ...]]:
    """Setup: stack the 3 piles into the event deck (pile 1 on top: the order is not set by the rulebook and does
    not change any odds, as every pile holds a nemesis event dealt at random and is shuffled on its own)."""
    deck = tuple(c for pile in state.piles for c in pile)
    return replace(state, event_deck=deck), (Step(
        f"The event deck: {plural(len(deck), 'card')}, one nemesis event in each third", S.SETUP,
        "Pile 1 on top, then pile 2, then pile 3: the rulebook does not order the piles, and as the nemesis events are "
        "dealt to the piles at random and each pile is shuffled on its own, any order gives the same odds (one "
        "nemesis event in each third).", {"deck": list(deck)}, (), "Setup"),)


def shuffle_side_deck(state: SetupState, ctx: SetupContext) -> tuple[SetupState, tuple[Step, ...]]:
    """Setup: shuffle the side mission cards into a face-down deck."""
    deck = shuffled(ctx.scenario.side_deck, ctx.dice, "side missions")
    return replace(state, side_deck=deck), (Step(
        f"The side mission deck is shuffled ({plural(len(deck), 'card')})", S.SETUP, "", {}, (), "Setup"),)


def first_strike_spawns(state: SetupState, ctx: SetupContext) -> tuple[SetupState, tuple[Step, ...]]:
    """Setup › the 1st strike's Setup: for each spawn icon whose pips are at most the number of heroes, place an
    enemy of the shown rank on the shown space (no standee left: none is placed)."""
    sc = ctx.scenario
    n = len(sc.heroes)
    types = {k: (name, standees) for k, name, standees in sc.enemy_types}
    enemies = list(state.enemies)
    steps = []
    for key, space, pips in sc.spawns:
        name, standees = types[key]
        if pips > n:
            steps.append(Step(f"{sc.first_strike}: the {key} icon on {space} ({plural(pips, 'pip')}) does not "
                              f"apply with {plural(n, 'hero', 'heroes')}", S.SETUP, "", {}, (space,), "Setup"))
            continue
        placed = sum(1 for eid, _ in enemies if eid.rsplit(" ", 1)[0] == name)
        if placed >= standees:
            steps.append(Step(f"{sc.first_strike}: no {name} standee left for {space}", S.SETUP, "", {}, (space,),
                              "Setup"))
            continue
        eid = f"{name} {placed + 1}"
        enemies.append((eid, space))
        steps.append(Step(f"{sc.first_strike}: {eid} ({key}) is placed on {space}", S.SETUP,
                          f"{plural(pips, 'pip')} ≤ {plural(n, 'hero', 'heroes')}.", {"enemy": eid, "space": space},
                          (eid, space), "Setup"))
    return replace(state, enemies=tuple(enemies)), tuple(steps)


def first_strike_side_mission(state: SetupState, ctx: SetupContext) -> tuple[SetupState, tuple[Step, ...]]:
    """Setup › the 1st strike's Setup: draw the top side mission into an empty side mission slot."""
    if not state.side_deck:
        return state, (Step("The side mission deck is empty: no side mission is drawn", S.SETUP, "", {}, (),
                            "Setup"),)
    top = state.side_deck[0]
    return replace(state, side_deck=state.side_deck[1:], side_slots=state.side_slots + (top,)), (Step(
        f"{top} is drawn into side mission slot {len(state.side_slots) + 1}", S.SETUP, "", {"mission": top}, (),
        "Setup"),)


SETUP_SEQUENCE: Sequence = (
    ("Setup › aspect tokens", take_aspect_tokens),
    ("Setup › 9 events", choose_nine_events),
    ("Setup › 3 piles", deal_piles),
    ("Setup › event deck", stack_event_deck),
    ("Setup › side mission deck", shuffle_side_deck),
    ("Setup › 1st strike spawns", first_strike_spawns),
    ("Setup › 1st strike side mission", first_strike_side_mission),
)
"""Setup's shuffles, deals and player-count steps in rulebook order (played with :func:`explorer.kernel.play`)."""


def resolve_setup(sc: SetupScenario, rulings: Mapping[str, str] | None = None, seed: int | None = None) -> Trace:
    """Play :data:`SETUP_SEQUENCE` with the file's seed (or ``seed``); a :class:`Trace` whose result is a
    :class:`SetupOutcome`. No ruling option is consulted."""
    used = sc.seed if seed is None else seed
    frames = play(SetupState(), SETUP_SEQUENCE, SetupContext(dice=Dice(seed=used), scenario=sc))
    end = frames[-1].state
    trace = Trace(sc.title or "Setup", list(steps_of(frames)), {})
    return trace.with_result(SetupOutcome(used, end.tokens, end.piles, end.event_deck, end.enemies, end.side_slots,
                                          end.side_deck))


__all__ = ["SetupScenario", "SetupState", "SetupContext", "SetupOutcome", "SETUP_SEQUENCE", "parse_setup",
           "resolve_setup", "shuffled", "STANDIN_EVENTS", "STANDIN_NEMESIS_EVENTS"]
