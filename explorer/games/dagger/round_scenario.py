"""Scenario kind ``round`` of Marvel D.A.G.G.E.R.: whole rounds. Each round is the Hero Phase turn by turn (the
players' choices: which hero spends which aspect token on which slot, and the action's details), then the Nemesis
Phase and the End of Round (:mod:`.nemesis`), over as many rounds as the file lists; with a ``[setup]`` table,
Setup (:mod:`.setup_scenario`, on the file's own event and side mission cards) comes first, in the same trace.

Rulebook sections: Setup (1 boosted and 2 standard aspect tokens per hero, 1 more standard token with 1 or 2
players); Gameplay › Hero Phase (turns from the 1st player, clockwise; one aspect token per action, placed on an
aspect slot; each slot holds one token; BOOST; the phase ends when every token is spent); Aspect Actions (Move, Fight,
Defy, Rest: :mod:`.hero_phase`); D.A.G.G.E.R. Actions (a hero on a base places a token on the base's slot: the
base's effect, and the hero's mission into play; not on an overrun base); Nemesis Phase; End of Round (every aspect
token returns to its supply; the 1st player marker passes clockwise).

**The sheets are stand-ins.** The rulebook names hero and aspect sheets but prints none: :data:`STANDIN_SLOTS` (one
aspect slot per aspect action), :data:`STANDIN_BOOST` (a boosted token adds 1 die to a Fight, Defy or Rest and 1
to a Move) and :data:`STANDIN_DAGGER_EFFECT` (every base's D.A.G.G.E.R. effect: team-up +1) are documented,
editable defaults: a file's ``[[sheets]]`` and ``dagger_effects`` replace them with the real cards'. Hero abilities
(Gameplay › Hero Phase › Hero Abilities; Empowered and Primed; combo abilities, situational ones among them),
support cards (Additional Rules › Support Cards) and team-up cards (Additional Rules › Team-up Abilities) are entered per
sheet; their effects are stand-ins too (damage to each enemy nearby; dice added to a roll).

A ``round`` document is a ``nemesis`` document (the board; ``docs/dagger-map-format.md``) plus::

    kind = "round"
    die = [0, 0, 0, 1, 1, 2]       # optional: the custom die (default: the stand-in)
    [[sheets]]                     # optional, one per hero (default: the stand-in sheet)
    hero = "Hero A"
    slots = ["move", "fight", "defy", "rest"]   # the aspect slots on the sheet (each holds one token a round)
    boosted = 1                    # aspect tokens (default 1 boosted, 2 standard, +1 standard with 1-2 players)
    standard = 2
    boost_dice = 1                 # BOOST with a boosted token: dice added to Fight / Defy / Rest, move added
    boost_move = 1
    hero_mission = { name = "...", progress_value = 3 }   # optional: placed by a D.A.G.G.E.R. action
    abilities = [{ name = "Shockwave", amount = 1, icon = "primed" }]   # optional: token abilities (own slots)
    support = [{ name = "Gadget", charge = 2, dice = 1 }]   # optional: support cards (stand-in effect: +dice;
                                   # hero_specific = true: gained with the hero mission, to the box on a defeat)
    team_up = { name = "Fastball", cost = 3, amount = 2 }   # optional: a team-up card (starts not ready; effect
                                   # "damage_each_enemy_nearby", or effect = "move": up to `amount` spaces along
                                   # the using entry's path = [...])
    [dagger_effects]               # optional: a base's D.A.G.G.E.R. effect (effects as in event cards)
    "New York" = [{ kind = "threat", amount = -1 }]
    [setup]                        # optional: play Setup on the file's cards first (the same trace)
    seed = 11                      # optional (default: the file's seed, else 0)
    nemesis_events = ["N1", "N2", "N3"]   # 3 of the file's [[events]]; the others (9 or more) are standard
    spawns = [{ enemy = "rank-1", space = "Cairo", pips = 1 }]   # the 1st strike's Setup spawn icons
    [[rounds]]                     # 1..5 rounds
    [[rounds.turns]]               # the turns in order (each: one token, one action)
    hero = "Hero A"
    token = "boosted"              # boosted | standard
    slot = "fight"                 # an aspect slot of the sheet, or "dagger" (the base's slot; with
                                   # mission = "<name>": the action a mission with dagger_progress calls for)
    enemy = "Thug 1"               # the action's details, as in a `hero` file's [[actions]]
    successes = 2                  # optional: the roll (without it the dice are rolled from the seed)
    support = "Gadget"             # optional: use a ready support card (Fight / Defy / Rest): it is exhausted
    charge = "Gadget"              # optional, on a Rest: its charge successes go onto that exhausted card
    before = [{ hero = "Hero A", do = "ready_team_up" }]   # optional: done before the token, without one
                                   # (ready_team_up | use_team_up | ability = "<situational combo>")
    [[rounds.nemesis]]             # optional: a team-up card readied or used during the round's Nemesis Phase
    hero = "Hero A"
    do = "use_team_up"             # ready_team_up | use_team_up (path = [...] for a "move" card)
    before = "3"                   # before Nemesis Phase step "1", "2", "3" or "end" (the End of Round); inside
                                   # step 1 or 2 before its loss check: "1.check" | "2.check"; inside step 3:
                                   # "3.text" | "3.ongoing" | "3.side_mission" | "3.nemesis_ability" |
                                   # "3.activation" | "3.spawns" | "3.discard" (before that part), or
                                   # "3.activation.N" (before the N-th enemy activation: N >= 2 is between two),
                                   # "3.activation.N.interrupt" (inside the N-th: its item determined, not landed)

A choice the rules refuse (not this hero's turn, a token the hero does not have, a slot not on the sheet, a slot
already full, a D.A.G.G.E.R. action off a base or on an overrun one that no mission calls for, an ability without its
empowered or primed
tokens, an exhausted support card used or a ready one charged, a Hero Phase that ends with tokens unspent)
ends the play with a :class:`~explorer.errors.RuleViolation` naming ``rounds[r].turns[t].<field>``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, Literal

from pydantic import Field

from explorer.dice import SEED_MAX
from explorer.dice import Dice
from explorer.errors import RuleViolation, ScenarioError
from explorer.kernel import Context, Each, Frame, Sequence, play, play_last, play_until_refused, steps_of
from explorer.scenario import validate
from explorer.schema import Strict
from explorer.text import plural
from explorer.trace import Step, Trace

from . import hero_phase as HP
from . import sections as S
from .hero_scenario import ROLLS, ActionDetails, ActionModel, HeroScenario, check_successes, resolve_action
from .nemesis import (MAX_ACTIVATION_POINT, PhaseContext, activation_number, apply_effects, interrupt_number,
                      is_phase_point,
                      loss_gauges, loss_reached, phase_over, phase_parts, play_phase, point_order)
from .nemesis_scenario import (EffectModel, MissionModel, NemesisScenario, SpawnModel, _effects, _mission,
                               check_paths, initial_state, parse_board, phase_context)
from .results import NOT_READY, HeroAction, RoundOutcome, TurnRecord
from .setup_scenario import SETUP_SEQUENCE, SetupContext, SetupScenario, SetupState
from .state import Effect, Enemy, GameState, HeroDefeated, HeroMissionCompleted, Mission, evolve

SLOT_NAMES = ("move", "fight", "defy", "rest")
STANDIN_SLOTS: tuple[str, ...] = SLOT_NAMES
"""Stand-in aspect sheet: one slot per aspect action (the rulebook prints no sheet)."""
STANDIN_BOOST = (1, 1)
"""Stand-in BOOST: ``(dice added to Fight / Defy / Rest, spaces added to Move)`` with a boosted token."""
STANDIN_DAGGER_EFFECT: tuple[Effect, ...] = (Effect("team_up", 1, text="stand-in D.A.G.G.E.R. effect: team-up +1"),)
"""Stand-in D.A.G.G.E.R. effect of every base (the rulebook prints none)."""
DAGGER = "dagger"
ABILITY = "ability"
MAX_ROUNDS = 5
MAX_TURNS = 20
TOKENS = ("boosted", "standard")


class AbilityModel(Strict):
    """One ``[[sheets.abilities]]`` entry: a stand-in hero ability (effect: ``amount`` damage to each enemy nearby).
    ``token``: it takes an aspect token (its own slot); ``false`` for a situational combo ability, used between
    turns through a turn's ``before`` list. ``combo``: a combo ability (blue border), which needs the EMPOWERED or
    PRIMED icon."""

    name: str = Field(min_length=1, max_length=40)
    effect: Literal["damage_each_enemy_nearby"] = "damage_each_enemy_nearby"
    amount: int = Field(1, ge=1, le=10)
    icon: Literal["", "empowered", "primed"] = ""
    combo: bool = False
    token: bool = True


class TeamUpModel(Strict):
    """A sheet's ``team_up`` card (stand-in): ``cost`` (team-up spent to ready it), its effect and whether it starts
    ``ready`` (Setup places it greyed out side up: not ready). ``effect``: ``damage_each_enemy_nearby`` (``amount``
    damage to each enemy nearby) or ``move`` (the hero moves up to ``amount`` spaces, along the ``path`` the entry
    that uses the card gives, as a Move action does: each step to a space joined by a dotted line)."""

    name: str = Field(min_length=1, max_length=40)
    cost: int = Field(3, ge=0, le=20)
    effect: Literal["damage_each_enemy_nearby", "move"] = "damage_each_enemy_nearby"
    amount: int = Field(2, ge=1, le=10)
    ready: bool = False


class BeforeModel(Strict):
    """One entry of a turn's ``before`` list: something done at any time, without an aspect token, before the turn's
    token is placed: ``ready_team_up`` (spend team-up to ready the hero's team-up card), ``use_team_up`` (use it: it
    is exhausted) or ``ability`` (a situational combo ability of the hero, ``ability = "<name>"``)."""

    hero: str = Field(max_length=60)
    do: Literal["ready_team_up", "use_team_up", "ability"]
    ability: str = Field("", max_length=40)
    path: list[str] = Field(default_factory=list, max_length=10)
    """With ``use_team_up`` of a card whose effect is ``move``: the spaces entered, in order."""


NEMESIS_STEPS: dict[str, str] = {
    "1": "before step 1 (Advance Threat)",
    "1.check": "in step 1 (Advance Threat), after the threat advances, before the Winning and Losing check",
    "2": "before step 2 (Check Nemesis Mission)",
    "2.check": "in step 2 (Check Nemesis Mission), after the mission check, before the Winning and Losing check",
    "3": "before step 3 (Resolve Event Cards)",
    "3.text": "in step 3 (Resolve Event Cards), before the event text",
    "3.ongoing": "in step 3 (Resolve Event Cards), before the ongoing mission effects",
    "3.side_mission": "in step 3 (Resolve Event Cards), before the side mission spawn",
    "3.nemesis_ability": "in step 3 (Resolve Event Cards), before the nemesis ability",
    "3.activation": "in step 3 (Resolve Event Cards), before the enemy activations",
    "3.spawns": "in step 3 (Resolve Event Cards), before the enemy spawns",
    "3.discard": "in step 3 (Resolve Event Cards), before the discard",
    "end": "before the End of Round"}
"""A ``[[rounds.nemesis]]`` entry's ``before``: the point of the Nemesis Phase it is done at (the keys of
:data:`.nemesis.PHASE_POINTS`, in phase order), in the words the trace uses (its section reads "Round N · Nemesis
Phase, team-up <words>"). Besides these, ``"3.activation.N"`` and ``"3.activation.N.interrupt"``
(:func:`point_words`)."""

POINT_VALUES = tuple(x for p in NEMESIS_STEPS for x in ((p, "3.activation.N", "3.activation.N.interrupt")
                                                        if p == "3.activation" else (p,)))
"""The values a ``[[rounds.nemesis]]`` entry's ``before`` may take (N: 1..20), as error messages list them."""


def point_words(point: str) -> str:
    """The words for a phase point (:data:`NEMESIS_STEPS`, or ``"3.activation.N"``: "in step 3 (Resolve Event
    Cards), before enemy activation N" / "..., between enemy activations N-1 and N"; ``"3.activation.N.interrupt"``:
    "..., inside enemy activation N, before its item lands")."""
    i = interrupt_number(point)
    if i is not None:
        return f"in step 3 (Resolve Event Cards), inside enemy activation {i}, before its item lands"
    n = activation_number(point)
    if n is None:
        return NEMESIS_STEPS[point]
    return ("in step 3 (Resolve Event Cards), " + ("before the first enemy activation" if n == 1 else
                                                   f"between enemy activations {n - 1} and {n}"))


class NemesisTeamUpModel(Strict):
    """One ``[[rounds.nemesis]]`` entry: a team-up card readied (``ready_team_up``, spending team-up) or used
    (``use_team_up``: exhausted) during the Nemesis Phase, ``before`` a point of it: a numbered step (``"1"``,
    ``"2"``, ``"3"``), inside step 1 or 2 before its Winning and Losing check (``"1.check"``, ``"2.check"``), a part
    of step 3 once the event card is drawn (``"3.text"``, ``"3.ongoing"``, ``"3.side_mission"``,
    ``"3.nemesis_ability"``, ``"3.activation"``, ``"3.spawns"``, ``"3.discard"``), an enemy activation of step 3
    (``"3.activation.N"``: before the N-th, so N >= 2 is between two activations), inside one
    (``"3.activation.N.interrupt"``: its item determined, before it lands) or the End of Round (``"end"``).
    Additional Rules › Team-up Abilities: unless a card says otherwise, team-up can be spent and team-up abilities
    used at any time, even to interrupt other game effects; the explorer plays them at these points
    (docs/dagger-map-format.md, "The point inside one activation"). Checked by :func:`parse_round` (a value not
    among these is a file error naming ``rounds[r].nemesis[k].before``)."""

    hero: str = Field(max_length=60)
    do: Literal["ready_team_up", "use_team_up"]
    before: str = Field("1", max_length=30)
    path: list[str] = Field(default_factory=list, max_length=10)
    """With ``use_team_up`` of a card whose effect is ``move``: the spaces entered, in order."""


class SupportModel(Strict):
    """One ``[[sheets.support]]`` entry: a stand-in support card (ready or exhausted; its charge value; its effect:
    dice added to one Fight, Defy or Rest). ``hero_specific``: the card whose back matches only this hero (Setup:
    placed face down; at most one per sheet): the hero gains it when its hero mission is completed (Missions › Hero
    Missions; ready or exhausted then: ruling ``hero_support_gained``), and it returns to the box when the hero is
    defeated (Damage and Defeat, step 2); until gained it is neither used nor charged."""

    name: str = Field(min_length=1, max_length=40)
    charge: int = Field(2, ge=1, le=6)
    exhausted: bool = False
    dice: int = Field(1, ge=1, le=3)
    hero_specific: bool = False


class SheetModel(Strict):
    """One ``[[sheets]]`` entry: a hero's stand-in sheet (its aspect slots, tokens, BOOST and hero mission)."""

    hero: str = Field(max_length=60)
    slots: list[Literal["move", "fight", "defy", "rest"]] = Field(default_factory=lambda: list(STANDIN_SLOTS),
                                                                  max_length=8)
    boosted: int = Field(1, ge=0, le=3)
    standard: int | None = Field(None, ge=0, le=6)
    boost_dice: int = Field(STANDIN_BOOST[0], ge=0, le=3)
    boost_move: int = Field(STANDIN_BOOST[1], ge=0, le=3)
    hero_mission: MissionModel | None = None
    abilities: list[AbilityModel] = Field(default_factory=list, max_length=6)
    support: list[SupportModel] = Field(default_factory=list, max_length=3)
    team_up: TeamUpModel | None = None


class TurnModel(ActionDetails):
    """One ``[[rounds.turns]]`` entry: who spends which token on which slot, and the action's details
    (:class:`.hero_scenario.ActionDetails`, shared with a ``hero`` file's actions)."""

    hero: str = Field(max_length=60)
    token: Literal["boosted", "standard"]
    slot: str = Field(max_length=30)
    ability: str = Field("", max_length=40)
    support: str = Field("", max_length=40)
    charge: str = Field("", max_length=40)
    place_mission: bool = True
    before: list[BeforeModel] = Field(default_factory=list, max_length=6)


class RoundModel(Strict):
    turns: list[TurnModel] = Field(default_factory=list, max_length=MAX_TURNS)
    nemesis: list[NemesisTeamUpModel] = Field(default_factory=list, max_length=6)


class SetupPartModel(Strict):
    """The ``[setup]`` table of a ``round`` document: play Setup (:mod:`.setup_scenario`) on the file's cards first.
    ``nemesis_events`` names the 3 of the file's ``[[events]]`` that are nemesis-specific (the others are the
    standard events, at least 9); ``spawns`` are the 1st strike's Setup spawn icons; ``seed`` seeds the shuffles
    (default: the file's ``seed``, else 0)."""

    seed: int | None = Field(None, ge=0, le=SEED_MAX)
    nemesis_events: list[str] = Field(min_length=3, max_length=3)
    spawns: list[SpawnModel] = Field(default_factory=list, max_length=12)


class RoundPartModel(Strict):
    """The ``round`` kind's own keys."""

    sheets: list[SheetModel] = Field(default_factory=list, max_length=4)
    rounds: list[RoundModel] = Field(min_length=1, max_length=MAX_ROUNDS)
    die: list[int] = Field(default_factory=lambda: list(HP.DEFAULT_DIE.faces), min_length=2, max_length=20)
    dagger_effects: dict[str, list[EffectModel]] = Field(default_factory=dict, max_length=5)
    setup: SetupPartModel | None = None


@dataclass(frozen=True)
class Sheet:
    """A hero's sheet as the round reads it: ``slots`` (aspect slots), ``boosted``/``standard`` (tokens),
    ``boost_dice``/``boost_move`` (BOOST), ``hero_mission`` (placed by a D.A.G.G.E.R. action, or ``None``)."""

    hero: str
    slots: tuple[str, ...]
    boosted: int
    standard: int
    boost_dice: int
    boost_move: int
    hero_mission: Mission | None = None
    abilities: tuple[AbilityModel, ...] = ()
    support: tuple[SupportModel, ...] = ()
    team_up: TeamUpModel | None = None

    def ability(self, name: str) -> AbilityModel | None:
        return next((a for a in self.abilities if a.name == name), None)


@dataclass(frozen=True)
class RoundScenario:
    """A parsed ``round`` scenario: the ``board``, the ``sheets`` (hero order), the ``rounds`` (each a tuple of
    :class:`TurnModel`), the ``die``, the bases' D.A.G.G.E.R. effects ``dagger`` (``((base, effects), ...)``)."""

    board: NemesisScenario
    sheets: tuple[Sheet, ...]
    rounds: tuple[tuple[TurnModel, ...], ...]
    die: HP.DieTable
    dagger: tuple[tuple[str, tuple[Effect, ...]], ...]
    setup: SetupScenario | None = None
    nemesis: tuple[tuple[NemesisTeamUpModel, ...], ...] = ()
    """Per round, the team-up cards readied or used during its Nemesis Phase (``[[rounds.nemesis]]``)."""

    def nemesis_team_ups(self, index: int) -> tuple[NemesisTeamUpModel, ...]:
        """Round ``index``'s (from 0) ``[[rounds.nemesis]]`` entries."""
        return self.nemesis[index] if index < len(self.nemesis) else ()

    @property
    def title(self) -> str:
        return self.board.title

    @property
    def world(self):
        return self.board.world

    def sheet(self, hero: str) -> Sheet:
        return next(s for s in self.sheets if s.hero == hero)

    def dagger_effect(self, base: str) -> tuple[Effect, ...]:
        return dict(self.dagger).get(base, STANDIN_DAGGER_EFFECT)


def parse_round(data: Mapping[str, Any], source: str) -> RoundScenario:
    """Validate a ``kind = "round"`` document.

    Raises:
        ScenarioError: one line naming ``source`` and the field (the board's as for ``nemesis`` files; a sheet's
            as ``sheets[i].<field>``; a turn's as ``rounds[r].turns[t].<field>``).
    """
    keys = ("sheets", "rounds", "die", "dagger_effects", "setup")
    own = {k: data[k] for k in keys if k in data}
    part = validate(RoundPartModel, own, source)
    board = parse_board({k: v for k, v in data.items() if k not in own}, source, keys)
    try:
        die = HP.DieTable(tuple(part.die), "from the file" if "die" in own else HP.DEFAULT_DIE.name)
    except ScenarioError as e:
        raise ScenarioError(e.field.replace("die.faces", "die"), e.problem, e.allowed, source) from None
    names = [h.name for h in board.state.heroes]
    players = board.state.players
    given = {}
    for i, s in enumerate(part.sheets):
        if s.hero not in names:
            raise ScenarioError(f"sheets[{i}].hero", f"unknown hero {s.hero!r}", names, source)
        if s.hero in given:
            raise ScenarioError(f"sheets[{i}].hero", f"a second sheet for {s.hero!r}", "one sheet per hero", source)
        if len(set(s.slots)) != len(s.slots):
            raise ScenarioError(f"sheets[{i}].slots", "a slot named twice", "each aspect slot once", source)
        given[s.hero] = (i, s)
    extra = 1 if players <= 2 else 0        # Setup: 1 more standard token with 1 or 2 players
    sheets = []
    for n in names:
        i, s = given.get(n, (None, SheetModel(hero=n)))
        mission = None
        if s.hero_mission is not None:
            mission = replace(_mission(s.hero_mission, "hero", players, f"sheets[{i}].hero_mission", source), hero=n)
        if len({a.name for a in s.abilities}) != len(s.abilities):
            raise ScenarioError(f"sheets[{i}].abilities", "an ability named twice", "distinct names", source)
        if len({c.name for c in s.support}) != len(s.support):
            raise ScenarioError(f"sheets[{i}].support", "a support card named twice", "distinct names", source)
        if sum(c.hero_specific for c in s.support) > 1:
            raise ScenarioError(f"sheets[{i}].support", "more than one hero-specific support card",
                                "at most one with hero_specific = true (Setup: 1 card matching only the hero)", source)
        for j, a in enumerate(s.abilities):
            if a.combo and not a.icon:
                raise ScenarioError(f"sheets[{i}].abilities[{j}].icon", "a combo ability is used with an empowered "
                                    "token or primed tokens", "'empowered' or 'primed' with combo = true", source)
            if not a.token and not a.combo:
                raise ScenarioError(f"sheets[{i}].abilities[{j}].token", "an ability without an aspect token is "
                                    "always active (not used); only a combo ability is situational",
                                    "token = true, or combo = true", source)
        sheets.append(Sheet(n, tuple(s.slots), s.boosted, 2 + extra if s.standard is None else s.standard,
                            s.boost_dice, s.boost_move, mission, tuple(s.abilities), tuple(s.support), s.team_up))
    bases = [b for b, _ in board.state.bases]
    dagger = []
    for b, effs in part.dagger_effects.items():
        if b not in bases:
            raise ScenarioError(f"dagger_effects.{b}", "not a base", bases, source)
        dagger.append((b, _effects(effs)))
    setup = None if part.setup is None else _setup_scenario(part.setup, board, source)
    rounds = tuple(tuple(r.turns) for r in part.rounds)
    nemesis = tuple(tuple(r.nemesis) for r in part.rounds)
    for r, entries in enumerate(nemesis):
        for k, e in enumerate(entries):
            if e.hero not in names:
                raise ScenarioError(f"rounds[{r}].nemesis[{k}].hero", f"unknown hero {e.hero!r}", names, source)
            if not is_phase_point(e.before):
                raise ScenarioError(f"rounds[{r}].nemesis[{k}].before", f"{e.before!r} is not a point of the Nemesis "
                                    "Phase", ", ".join(POINT_VALUES) + f" (N: 1..{MAX_ACTIVATION_POINT})", source)
    heroes = {h.name: h for h in board.state.heroes}
    by_hero = {s.hero: s for s in sheets}
    check_paths({f"rounds[{r}].turns[{t}].path": turn.path for r, turns in enumerate(rounds)
                 for t, turn in enumerate(turns)}, board.world, source)
    check_paths({**{f"rounds[{r}].nemesis[{k}].path": e.path for r, entries in enumerate(nemesis)
                    for k, e in enumerate(entries)},
                 **{f"rounds[{r}].turns[{t}].before[{k}].path": b.path for r, turns in enumerate(rounds)
                    for t, turn in enumerate(turns) for k, b in enumerate(turn.before)}}, board.world, source)
    for r, turns in enumerate(rounds):
        for t, turn in enumerate(turns):
            if turn.hero not in names:
                raise ScenarioError(f"rounds[{r}].turns[{t}].hero", f"unknown hero {turn.hero!r}", names, source)
            for k, b in enumerate(turn.before):
                if b.hero not in names:
                    raise ScenarioError(f"rounds[{r}].turns[{t}].before[{k}].hero", f"unknown hero {b.hero!r}",
                                        names, source)
            if turn.slot not in SLOT_NAMES + (DAGGER, ABILITY):
                raise ScenarioError(f"rounds[{r}].turns[{t}].slot", f"{turn.slot!r}",
                                    list(SLOT_NAMES + (DAGGER, ABILITY)),
                                    source)
            if turn.successes is not None and turn.slot in ROLLS:
                check_successes(turn.successes, _turn_dice(turn, heroes[turn.hero], by_hero[turn.hero]), die,
                                f"rounds[{r}].turns[{t}].successes", source)
    return RoundScenario(board, tuple(sheets), rounds, die, tuple(dagger), setup,
                         nemesis if any(nemesis) else ())


def _turn_dice(turn: TurnModel, hero, sheet: Sheet) -> int:
    """The dice a Fight / Defy / Rest turn rolls, as :func:`take_turn` counts them: ``dice`` (else the hero's ATK /
    DFI / tactic), plus the sheet's BOOST dice with a boosted token, plus the dice of the support card it uses (none
    when the sheet has no such card: the turn is refused when played)."""
    dice = (turn.dice or getattr(hero, ROLLS[turn.slot])) + (sheet.boost_dice if turn.token == "boosted" else 0)
    return dice + next((c.dice for c in sheet.support if c.name == turn.support), 0) if turn.support else dice


def _setup_scenario(m: SetupPartModel, board: NemesisScenario, source: str) -> SetupScenario:
    """The Setup a ``[setup]`` table plays on the board's own cards (Setup: the event deck from the file's events,
    the side mission deck, the 1st strike's spawns).

    Raises:
        ScenarioError: the board already holds what Setup places (enemies besides the nemesis, side missions in
            slots), ``shuffle_events``, more players than heroes, a hero not on a base or on a base that already has
            a hero (Setup: each standee on one of the 5 bases without a hero), a nemesis event not among the file's
            events,
            fewer than 9 standard events, events named twice, a spawn of an unknown enemy type or space.
    """
    st = board.state
    if any(e.kind != "nemesis" for e in st.enemies):
        raise ScenarioError("enemies", "Setup places the 1st strike's enemies", "no [[enemies]] with [setup]", source)
    if any(x is not None for x in st.side_slots):
        raise ScenarioError("side_missions", "Setup draws the first side mission", "no [[side_missions]] with "
                            "[setup] (list them in [[side_deck]])", source)
    if board.shuffle_events:
        raise ScenarioError("shuffle_events", "Setup builds the event deck", "false with [setup]", source)
    if st.players != len(st.heroes):
        raise ScenarioError("players", f"{st.players} players but {plural(len(st.heroes), 'hero', 'heroes')}",
                            "one hero per player with [setup]", source)
    # Setup: each player places its hero's standee on one of the 5 bases that does not have a hero
    on_base = {space: base for base, space in st.bases}
    taken: dict[str, str] = {}
    for i, h in enumerate(st.heroes):
        if h.space not in on_base or h.space in taken:
            why = (f"{h.space!r} is not a base" if h.space not in on_base else
                   f"{on_base[h.space]} already has a hero ({taken[h.space]})")
            raise ScenarioError(f"heroes[{i}].space", f"{why}: Setup places each hero on a base without a hero",
                                ", ".join(f"{b} ({sp})" if b != sp else b for b, sp in st.bases
                                          if sp not in taken), source)
        taken[h.space] = h.name
    names = [c.name for c in st.event_deck]
    if len(set(names)) != len(names):
        raise ScenarioError("events", "an event card is listed twice", "distinct cards with [setup]", source)
    for i, n in enumerate(m.nemesis_events):
        if n not in names or n in m.nemesis_events[:i]:
            raise ScenarioError(f"setup.nemesis_events[{i}]", f"{n!r}", "3 distinct names of the file's [[events]] "
                                f"({', '.join(names)})", source)
    standard = tuple(n for n in names if n not in m.nemesis_events)
    if len(standard) < 9:
        raise ScenarioError("events", f"{plural(len(standard), 'standard event')} besides the 3 nemesis events",
                            "at least 9 (Setup takes 9 at random)", source)
    keys = [t.key for t in st.enemy_types]
    for i, sp in enumerate(m.spawns):
        if sp.space not in board.world:
            raise ScenarioError(f"setup.spawns[{i}].space", f"unknown space {sp.space!r}", "a space of the map",
                                source)
        if sp.enemy not in keys:
            raise ScenarioError(f"setup.spawns[{i}].enemy", f"no [[enemy_types]] entry for {sp.enemy!r}",
                                keys or "an enemy_types entry", source)
    top = st.nemesis_deck[0].name if st.nemesis_deck and st.nemesis_deck[0].kind == "first_strike" else "1st Strike"
    seed = m.seed if m.seed is not None else (board.seed or 0)
    return SetupScenario(board.title, board.description, seed, tuple(h.name for h in st.heroes), standard,
                         tuple(m.nemesis_events), tuple((t.key, t.name, t.standees) for t in st.enemy_types),
                         tuple(c.mission.name for c in st.side_deck), top,
                         tuple((x.enemy, x.space, x.pips) for x in m.spawns), source)


# ---------------------------------------------------------------------------------------------------- state


@dataclass(frozen=True)
class Supply:
    """A hero's aspect tokens still in its supply this round."""

    hero: str
    boosted: int
    standard: int

    def count(self, token: str) -> int:
        return self.boosted if token == "boosted" else self.standard


@dataclass(frozen=True)
class Placed:
    """An aspect token on a slot: ``slot`` is a sheet slot of ``hero`` or ``"dagger:<base>"``."""

    hero: str
    slot: str
    token: str


@dataclass(frozen=True)
class SupportCard:
    """A hero's support card in play: ``exhausted`` or ready, ``progress`` tokens of its ``charge`` value."""

    hero: str
    name: str
    charge: int
    exhausted: bool = False
    progress: int = 0
    dice: int = 1
    hero_specific: bool = False
    gained: bool = True
    """``False`` for a hero-specific card whose hero mission is not completed yet (Missions › Hero Missions)."""


@dataclass(frozen=True)
class TeamUpCard:
    """A hero's team-up card: ``ready`` (face up) or not: greyed out side up (:data:`.results.NOT_READY`; Setup places it so,
    and using it exhausts it, flipping it back over); ``cost`` (team-up spent to ready it); its stand-in
    ``effect`` deals ``amount`` damage to each enemy nearby, or (``move``) moves the hero up to ``amount`` spaces."""

    hero: str
    name: str
    cost: int
    amount: int
    ready: bool = False
    effect: str = "damage_each_enemy_nearby"
    """``damage_each_enemy_nearby`` or ``move`` (:class:`TeamUpModel`)."""


@dataclass(frozen=True)
class RoundState:
    """The game during a ``round`` scenario: ``game`` (:class:`.state.GameState`), ``index`` (the file's round
    being played, 0-based), ``supplies`` (tokens in each hero's supply, hero order), ``placed`` (tokens on slots
    this round), ``done`` (every turn so far, :class:`TurnRecord`), ``declared`` (how many turns the file lists
    for this round), ``missions_placed`` (hero missions put into play so far: each only once), ``cards`` (the
    heroes' support cards, :class:`SupportCard`), ``setup`` (the Setup played first, :class:`.setup_scenario.
    SetupState`, or ``None`` when the file starts from its board), ``team_cards`` (the heroes' team-up cards,
    :class:`TeamUpCard`) and ``defeats_seen`` (hero defeats whose team-up card has been readied for free)."""

    game: GameState
    index: int
    supplies: tuple[Supply, ...]
    placed: tuple[Placed, ...] = ()
    done: tuple[TurnRecord, ...] = ()
    declared: int = 0
    missions_placed: tuple[str, ...] = ()
    cards: tuple[SupportCard, ...] = ()
    setup: SetupState | None = None
    team_cards: tuple[TeamUpCard, ...] = ()
    defeats_seen: int = 0
    missions_seen: int = 0
    """Hero missions completed so far whose hero-specific support card has been gained (:func:`gain_hero_cards`)."""

    def supply(self, hero: str) -> Supply:
        return next(s for s in self.supplies if s.hero == hero)

    def holds(self, slot: str, hero: str = "") -> bool:
        """``True`` when ``slot`` (of ``hero``; a ``"dagger:<base>"`` slot for any hero) already holds a token."""
        return any(p.slot == slot and (p.hero == hero or slot.startswith(DAGGER + ":")) for p in self.placed)


@dataclass(frozen=True)
class RoundContext(Context):
    """What the round's steps read: the ``scenario`` and the Nemesis Phase context ``phase`` (map, choices;
    ``rulings`` and ``dice`` as :class:`~explorer.kernel.Context`)."""

    scenario: RoundScenario | None = None
    phase: PhaseContext | None = None


def _cards(sc: RoundScenario) -> tuple[SupportCard, ...]:
    return tuple(SupportCard(s.hero, c.name, c.charge, c.exhausted, 0, c.dice, c.hero_specific, not c.hero_specific)
                 for s in sc.sheets for c in s.support)


def _team_cards(sc: RoundScenario) -> tuple[TeamUpCard, ...]:
    return tuple(TeamUpCard(s.hero, s.team_up.name, s.team_up.cost, s.team_up.amount, s.team_up.ready,
                            s.team_up.effect)
                 for s in sc.sheets if s.team_up is not None)


def _full_supplies(sc: RoundScenario) -> tuple[Supply, ...]:
    return tuple(Supply(s.hero, s.boosted, s.standard) for s in sc.sheets)


def _acting(state: RoundState) -> tuple[str, ...]:
    """Heroes who still take turns: on the board, not eliminated, with a token in their supply."""
    return tuple(h.name for h in state.game.heroes if h.space and not h.eliminated
                 and (state.supply(h.name).boosted + state.supply(h.name).standard) > 0)


def whose_turn(state: RoundState) -> str | None:
    """The hero whose turn it is (Hero Phase: from the 1st player, clockwise = hero order; a hero with no token left
    is passed over), or ``None`` when every token is spent."""
    heroes = [h.name for h in state.game.heroes]
    acting = set(_acting(state))
    if not acting:
        return None
    n = len(heroes)
    first = state.game.first_player
    this_round = [d for d in state.done if d.round == state.game.round]
    start = first if not this_round else (heroes.index(this_round[-1].hero) + 1) % n
    return next(heroes[(start + i) % n] for i in range(n) if heroes[(start + i) % n] in acting)


def turn_numbers(state: RoundState) -> range:
    """The file's turns of the round being played, numbered from 1 (the items of the Hero Phase's :class:`Each`)."""
    return range(1, state.declared + 1)


# ---------------------------------------------------------------------------------------------------- steps


def _section(state: RoundState) -> str:
    return f"Round {state.game.round} · Hero Phase"


def begin_hero_phase(state: RoundState, ctx: RoundContext) -> tuple[RoundState, tuple[Step, ...]]:
    """Gameplay › Hero Phase: the round's turns begin with the 1st player; every hero holds its full supply."""
    turns = ctx.scenario.rounds[state.index]
    state = replace(state, declared=len(turns))
    holder = state.game.heroes[state.game.first_player]
    first = whose_turn(state) or holder.name
    out = {h.name for h in state.game.heroes if h.eliminated}      # an eliminated player takes no turn
    tokens = "; ".join(f"{s.hero} {s.boosted} boosted + {s.standard} standard" for s in state.supplies
                       if s.hero not in out) + "".join(f"; {h} eliminated" for h in sorted(out))
    if ctx.quiet:
        return state, ()
    # the marker on an eliminated player's seat (ruling first_player_eliminated = clockwise): the next hero
    # clockwise still in the game takes the first turn
    title = (f"Hero Phase: {first} (1st player) takes the first turn; turns go clockwise" if first == holder.name
             else f"Hero Phase: {holder.name}'s player holds the 1st player marker but "
                  + ("is eliminated" if holder.eliminated else "has no aspect token to spend")
                  + f": {first}, next clockwise, takes the first turn")
    return state, (Step(title, S.HERO_PHASE, f"Aspect tokens: {tokens}. {plural(len(turns), 'turn')} listed.",
                        {"first_player": holder.name, "turns": len(turns)}, (first,), _section(state)),)


def _refuse(state: RoundState, number: int, fld: str, reason: str, rule) -> RuleViolation:
    return RuleViolation(reason, rule, field=f"rounds[{state.index}].turns[{number - 1}].{fld}",
                         step=f"round {state.game.round}, turn {number}")


def _roll(ctx: RoundContext, dice: int) -> tuple[int, list[int]]:
    faces = ctx.scenario.die.faces
    rolled = [faces[ctx.dice.roll(len(faces), "aspect action die") - 1] for _ in range(dice)]
    return sum(rolled), rolled


def take_turn(state: RoundState, ctx: RoundContext, number: int) -> tuple[RoundState, tuple[Step, ...]]:
    """Gameplay › Hero Phase, one turn: the hero whose turn it is spends one aspect token from its supply on one
    empty slot (an aspect slot of its sheet: Move, Fight, Defy or Rest; or the base's D.A.G.G.E.R. slot) and
    resolves that action; a boosted token on a BOOST action adds the sheet's BOOST.

    Raises:
        RuleViolation: not this hero's turn (field ``hero``), a token the hero does not have (``token``), a slot not
            on the sheet, already full, or a D.A.G.G.E.R. action off a base or on an overrun base (``slot``); an
            action the Aspect Actions forbid or one whose enemy or mission is not in play now (its own field); each
            names ``rounds[r].turns[t]``.
    """
    sc = ctx.scenario
    turn = sc.rounds[state.index][number - 1]
    steps: list[Step] = []
    q = ctx.quiet
    for k, b in enumerate(turn.before):
        state, more = _before(state, ctx, number, k, b)
        steps += more
    g = state.game
    due = whose_turn(state)
    if turn.hero != due:
        raise _refuse(state, number, "hero", f"it is {due}'s turn, not {turn.hero}'s" if due else
                      "every aspect token is already spent", S.HERO_PHASE)
    supply = state.supply(turn.hero)
    if supply.count(turn.token) <= 0:
        raise _refuse(state, number, "token", f"{turn.hero} has no {turn.token} aspect token left "
                      f"({supply.boosted} boosted, {supply.standard} standard)", S.HERO_PHASE)
    if turn.charge and turn.slot != "rest":
        raise _refuse(state, number, "charge", "only a Rest charges support cards", S.ASPECT_ACTIONS)
    if turn.support and turn.slot not in ("fight", "defy", "rest"):
        raise _refuse(state, number, "support", "a support card adds dice to a Fight, Defy or Rest (stand-in)",
                      S.SUPPORT_CARDS)
    sheet = sc.sheet(turn.hero)
    sec = _section(state)
    boost = turn.token == "boosted"
    hero = next(h for h in g.heroes if h.name == turn.hero)
    if turn.slot == ABILITY:
        ab = sheet.ability(turn.ability)
        if ab is None:
            raise _refuse(state, number, "ability", f"{turn.ability!r} is not an ability on {turn.hero}'s sheet ("
                          + (", ".join(a.name for a in sheet.abilities) or "none") + ")", S.HERO_ABILITIES)
        if not ab.token:
            raise _refuse(state, number, "ability", f"{ab.name} is a situational combo ability: it takes no aspect "
                          "token (use it in a turn's before list)", S.EMPOWERED_AND_PRIMED)
        slot = f"{ABILITY}:{ab.name}"
        if state.holds(slot, turn.hero):
            raise _refuse(state, number, "ability", f"{turn.hero}'s {ab.name} slot already holds a token",
                          S.HERO_PHASE)
        g, more, action = _use_ability(state, ctx, turn.hero, ab, lambda why, rule: _refuse(
            state, number, "ability", why, rule), f"places a {turn.token} aspect token on")
        rec = TurnRecord(g.round, turn.hero, turn.token, ABILITY, False, action, "", action.result)
        steps += more
    elif turn.slot == DAGGER:
        base = g.base_at(hero.space)
        if base is None:
            raise _refuse(state, number, "slot", f"{turn.hero} is on {hero.space}, not on a base",
                          S.DAGGER_ACTIONS)
        slot = f"{DAGGER}:{base}"
        if state.holds(slot):
            raise _refuse(state, number, "slot", f"{base}'s aspect slot already holds a token", S.HERO_PHASE)
        overrun = base in g.overrun
        called = None
        if turn.mission:
            called = next((x for x in g.active_missions() if x.name == turn.mission), None)
            if called is None or not called.dagger_progress:
                raise _refuse(state, number, "mission", f"{turn.mission!r} is not a mission in play that calls for "
                              "a D.A.G.G.E.R. action (" + (", ".join(x.name for x in g.active_missions()
                                                                      if x.dagger_progress) or "none") + ")",
                              S.DAGGER_ACTIONS)
        if overrun and called is None:
            raise _refuse(state, number, "slot", f"{base} is overrun: its D.A.G.G.E.R. effect cannot be resolved "
                          "nor a hero mission placed (only a D.A.G.G.E.R. action a mission calls for: mission = ...)",
                          S.DAGGER_ACTIONS)
        if not q:
            steps.append(Step(f"{turn.hero} places a {turn.token} aspect token on {base}'s slot: D.A.G.G.E.R. action"
                              + (f" for {called.name}" if called else ""),
                              S.DAGGER_ACTIONS, "", {"hero": turn.hero, "base": base, "token": turn.token},
                              (turn.hero, hero.space), sec))
        effect = not overrun or ctx.rulings.reading("overrun_mission_dagger_effect") == "effect_too"
        if effect:
            g, more = apply_effects(g, ctx.phase, sc.dagger_effect(base), f"{base} D.A.G.G.E.R. effect",
                                    S.DAGGER_ACTIONS, sec)
            steps += more
        else:
            if not q:
                steps.append(Step(f"{base} is overrun: its D.A.G.G.E.R. effect is not resolved", S.NEARBY_AND_OVERRUN,
                                  "The overrun token covers it; the action counts only for the mission (ruling "
                                  "overrun_mission_dagger_effect).", {}, (base,), sec))
        result = f"D.A.G.G.E.R. action at {base}"
        if called is not None:
            g, more = HP.place_progress(g, called.name, called.dagger_progress)
            if not q:
                steps.append(Step(f"{called.name} calls for this D.A.G.G.E.R. action: "
                                  f"{called.dagger_progress} progress",
                                  S.MISSIONS, "Stand-in for the mission's text (dagger_progress).",
                                  {"mission": called.name}, (called.name,), sec))
            steps += [] if q else [replace(x, section=sec) for x in more]
            result += f" for {called.name}"
        m = sheet.hero_mission
        placed_missions = state.missions_placed
        boxed = m is not None and m.name not in placed_missions and any(
            isinstance(e, HeroDefeated) and e.hero == turn.hero for e in g.events)
        if boxed and turn.place_mission:
            # Damage and Defeat, step 2: a defeated hero's mission card returns to the box, placed or not
            why = (f"{turn.hero}'s hero mission {m.name} returned to the box when {turn.hero} was defeated (Damage and "
                   "Defeat, step 2)")
            if "place_mission" in turn.model_fields_set:
                raise _refuse(state, number, "place_mission", f"{why}: it cannot be placed", S.DAMAGE_AND_DEFEAT)
            if not q:
                steps.append(Step(f"{turn.hero}'s hero mission {m.name} is in the box: none to place",
                                  S.DAMAGE_AND_DEFEAT, f"{why}.", {"mission": m.name}, (turn.hero,), sec))
        elif overrun and turn.place_mission and m is not None and m.name not in placed_missions:
            if not q:
                steps.append(Step(f"{base} is overrun: {turn.hero}'s hero mission cannot be placed there",
                                  S.NEARBY_AND_OVERRUN, "", {}, (base,), sec))
        elif turn.place_mission and m is not None and m.name not in placed_missions:
            g = g.evolve(hero_missions=g.hero_missions + (m,))
            placed_missions += (m.name,)
            result += f"; hero mission {m.name} placed"
            if not q:
                steps.append(Step(f"{turn.hero} places the hero mission {m.name} in the hero mission slot",
                                  S.HERO_MISSIONS, "", {"mission": m.name}, (turn.hero,), sec))
        rec = TurnRecord(g.round, turn.hero, turn.token, DAGGER, False, None, base, result)
        state = replace(state, missions_placed=placed_missions)
    else:
        if turn.slot not in sheet.slots:
            raise _refuse(state, number, "slot", f"{turn.slot!r} is not an aspect slot of {turn.hero}'s sheet "
                          f"({', '.join(sheet.slots)})", S.ASPECT_ACTIONS)
        if state.holds(turn.slot, turn.hero):
            raise _refuse(state, number, "slot", f"{turn.hero}'s {turn.slot} slot already holds a token",
                          S.HERO_PHASE)
        slot = turn.slot
        # the turn's ActionDetails as changed by BOOST, a support card and the roll
        fields: dict[str, Any] = {"dice": turn.dice, "successes": turn.successes, "move_value": turn.move_value}
        base_dice = {"fight": hero.atk, "defy": hero.dfi, "rest": hero.tactic}.get(turn.slot, 0)
        if boost and turn.slot == "move" and sheet.boost_move:
            fields["move_value"] = (turn.move_value or hero.move) + sheet.boost_move
        elif boost and turn.slot != "move" and sheet.boost_dice:
            fields["dice"] = (turn.dice or base_dice) + sheet.boost_dice
        boosted = boost and (sheet.boost_move if turn.slot == "move" else sheet.boost_dice) > 0
        if not q:
            steps.append(Step(f"{turn.hero} places a {turn.token} aspect token on the {turn.slot} slot"
                              + (" (BOOST)" if boosted else ""), S.HERO_PHASE,
                              "Stand-in BOOST: " + (f"+{sheet.boost_move} move" if turn.slot == "move" else
                                                    "+" + plural(sheet.boost_dice, "die", "dice")) if boosted else "",
                              {"hero": turn.hero, "slot": turn.slot, "token": turn.token}, (turn.hero,), sec))
        cards = state.cards
        if turn.support:
            card = next((c for c in cards if c.hero == turn.hero and c.name == turn.support), None)
            if card is None:
                raise _refuse(state, number, "support", f"{turn.support!r} is not a support card of {turn.hero}",
                              S.SUPPORT_CARDS)
            if not card.gained:
                raise _refuse(state, number, "support", _not_gained(card), S.HERO_MISSIONS)
            if card.exhausted:
                raise _refuse(state, number, "support", f"{card.name} is exhausted: only a ready support card can be "
                              "used", S.SUPPORT_CARDS)
            fields["dice"] = (fields.get("dice") or base_dice) + card.dice
            cards = tuple(replace(c, exhausted=True) if c is card else c for c in cards)
            if not q:
                steps.append(Step(f"{turn.hero} uses {card.name}: +{plural(card.dice, 'die', 'dice')}; it is "
                                  "exhausted",
                                  S.SUPPORT_CARDS, "Stand-in effect.", {"card": card.name}, (turn.hero,), sec))
        if turn.slot != "move" and turn.successes is None:
            n = fields.get("dice") or base_dice
            total, faces = _roll(ctx, n)
            fields["successes"] = total
            if not q:
                steps.append(Step(f"{turn.hero} rolls {plural(n, 'die', 'dice')}: "
                                  f"{plural(total, 'success', 'successes')}", S.ASPECT_ACTIONS,
                                  f"Faces {', '.join(map(str, faces))} ({ctx.dice.says('seed')}).",
                                  {"successes": total}, (turn.hero,), sec))
        action = ActionModel.for_turn(turn.slot, turn.hero, turn, **fields)
        hsc = HeroScenario(sc.board, (), sc.die, False)
        try:
            g, more, rec_a = resolve_action(g, hsc, number - 1, action, charge=turn.charge, rulings=ctx.rulings)
        except RuleViolation as v:
            raise _refuse(state, number, v.rejection.field or "slot", v.reason, v.rule) from None
        except ScenarioError as e:       # the file is valid: what is missing is missing from the game now
            fld = e.field.split("].", 1)[-1] if e.field.startswith("actions[") else e.field
            allowed = f" (in play: {', '.join(e.allowed)})" if isinstance(e.allowed, (list, tuple)) else ""
            raise _refuse(state, number, fld, f"{e.problem}{allowed}", S.ASPECT_ACTIONS) from None
        steps += [] if q else [replace(s, section=sec) for s in more]
        if turn.charge:
            cards, more = _charge(state, number, cards, turn, hero, fields["successes"], sec, quiet=q)
            steps += more
        state = replace(state, cards=cards)
        rec = TurnRecord(g.round, turn.hero, turn.token, turn.slot, boosted, rec_a, "", rec_a.result)
    supplies = tuple(replace(s, **{turn.token: s.count(turn.token) - 1}) if s.hero == turn.hero else s
                     for s in state.supplies)
    state = replace(state, game=g, supplies=supplies, placed=state.placed + (Placed(turn.hero, slot, turn.token),),
                    done=state.done + (rec,))
    state, more = gain_hero_cards(state, ctx, sec)
    return state, (*steps, *more)


def _not_gained(card: SupportCard) -> str:
    return (f"{card.name} is {card.hero}'s hero-specific support card, not gained yet: the hero gains it when its "
            "hero mission is completed")


def gain_hero_cards(state: RoundState, ctx: RoundContext, sec: str) -> tuple[RoundState, tuple[Step, ...]]:
    """Additional Rules › Missions › Hero Missions: for each hero mission completed since the last call (the
    :class:`~.state.HeroMissionCompleted` records), its hero gains its hero-specific support card, ready or exhausted
    by ruling ``hero_support_gained``. Steps filed under ``sec``; none when nothing was completed."""
    done = [e for e in state.game.events if isinstance(e, HeroMissionCompleted)]
    if len(done) == state.missions_seen:
        return state, ()
    cards, steps = state.cards, []
    for m in done[state.missions_seen:]:
        card = next((c for c in cards if c.hero == m.hero and c.hero_specific and not c.gained), None)
        if card is None:
            continue
        reading = ctx.rulings.reading("hero_support_gained")
        new = replace(card, gained=True, exhausted=reading == "exhausted", progress=0)
        cards = tuple(new if c is card else c for c in cards)
        if not ctx.quiet:
            steps.append(Step(f"{m.hero} gains its hero-specific support card {card.name} ("
                              + ("exhausted: a Rest charges it" if new.exhausted else "ready") + ")",
                              S.HERO_MISSIONS, f"{m.mission} was completed (ruling hero_support_gained = {reading}).",
                              {"card": card.name, "ready": not new.exhausted}, (m.hero,), sec))
    return replace(state, cards=cards, missions_seen=len(done)), tuple(steps)


def _charge(state: RoundState, number: int, cards: tuple[SupportCard, ...], turn: TurnModel, hero, rolled: int,
            sec: str, *, quiet: bool = False) -> tuple[tuple[SupportCard, ...], list[Step]]:
    """Additional Rules › Support Cards: a Rest's charge successes become progress tokens on the exhausted card
    ``turn.charge``; fully charged, it is readied and its progress discarded. ``quiet``: no step built."""
    card = next((c for c in cards if c.hero == turn.hero and c.name == turn.charge), None)
    if card is None:
        raise _refuse(state, number, "charge", f"{turn.charge!r} is not a support card of {turn.hero}",
                      S.SUPPORT_CARDS)
    if not card.gained:
        raise _refuse(state, number, "charge", _not_gained(card), S.HERO_MISSIONS)
    if not card.exhausted:
        raise _refuse(state, number, "charge", f"{card.name} is ready: only an exhausted card is charged",
                      S.SUPPORT_CARDS)
    total = rolled + hero.rest_auto + (1 if turn.spend_empowered and hero.empowered else 0)
    recover = min(total, hero.damage) if turn.recover is None else turn.recover
    amount = max(0, total - recover)
    progress = card.progress + amount
    if progress >= card.charge:
        new = replace(card, exhausted=False, progress=0)
        text = f"{card.name} is charged {amount} ({progress}/{card.charge}): readied, progress discarded"
    else:
        new = replace(card, progress=progress)
        text = f"{card.name} is charged {amount} ({progress}/{card.charge})"
    return (tuple(new if c is card else c for c in cards),
            [] if quiet else [Step(text, S.SUPPORT_CARDS, "A Rest's charge successes.", {"card": card.name},
                                   (turn.hero,), sec)])


def _use_ability(state: RoundState, ctx: RoundContext, hero_name: str, ab: AbilityModel, refuse, how: str
                 ) -> tuple[GameState, list[Step], HeroAction]:
    """Gameplay › Hero Phase › Hero Abilities: hero ``hero_name`` uses ability ``ab`` (``how``: "places a standard
    aspect token on", or "uses" for a situational combo ability). An EMPOWERED icon needs the hero's empowered token:
    a combo ability spends it (Empowered and Primed: empowered tokens are spent to use combo abilities), another
    spends it under the ruling ``empowered_ability_token``. A PRIMED icon needs a primed token on each enemy the
    ability would affect: a combo ability discards them, another under the ruling ``primed_ability_token``. A combo
    ability advances the team-up track by 1. ``refuse(reason, rule)`` builds the refusal raised.

    Raises:
        RuleViolation: the empowered token or a primed token is missing (from ``refuse``).
    """
    g = state.game
    sec = _section(state)
    world = ctx.scenario.world
    hero = next(h for h in g.heroes if h.name == hero_name)
    targets = HP.enemies_nearby(g, world, hero_name, ctx.rulings)
    q = ctx.quiet
    steps = [] if q else [Step(f"{hero_name} {how} the {ab.name} ability", S.HERO_ABILITIES,
                  ("EMPOWERED icon. " if ab.icon == "empowered" else "PRIMED icon. " if ab.icon == "primed" else "")
                  + ("Combo ability." if ab.combo else ""), {"ability": ab.name}, (hero_name,), sec)]
    if ab.icon == "empowered":
        if not hero.empowered:
            raise refuse(f"{ab.name} has the EMPOWERED icon and {hero_name} has no empowered token",
                         S.EMPOWERED_AND_PRIMED)
        if ab.combo or ctx.rulings.reading("empowered_ability_token") == "spent":
            g = g.with_hero(replace(hero, empowered=False))
            if not q:
                steps.append(Step(f"{hero_name} spends the empowered token", S.EMPOWERED_AND_PRIMED, "", {},
                                  (hero_name,), sec))
    elif ab.icon == "primed":
        bare = [e.id for e in targets if not e.primed]
        if bare or not targets:
            raise refuse(f"{ab.name} has the PRIMED icon: " + (f"{', '.join(bare)} would be affected without a "
                                                                "primed token" if bare else "no enemy it would "
                                                                "affect"), S.EMPOWERED_AND_PRIMED)
        if ab.combo or ctx.rulings.reading("primed_ability_token") == "discarded":
            for e in targets:
                g = g.with_enemy(replace(g.enemy(e.id), primed=False))
            if not q:
                steps.append(Step(f"A primed token is discarded from {', '.join(e.id for e in targets)}",
                                  S.EMPOWERED_AND_PRIMED, "One from each enemy the ability affects.", {},
                                  tuple(e.id for e in targets), sec))
    if ab.combo:
        g = g.evolve(team_up=g.team_up + 1)
        if not q:
            steps.append(Step(f"Combo ability: team-up +1 → {g.team_up}", S.EMPOWERED_AND_PRIMED, "",
                              {"team_up": g.team_up}, (), sec))
    g, more = HP.hit_each_enemy_nearby(g, world, hero_name, ab.amount, rulings=ctx.rulings)
    steps += [] if q else [replace(x, section=sec) for x in more]
    hit = tuple(e.id for e in targets)
    result = f"{ab.name}: each enemy nearby suffers {ab.amount} damage: " + (", ".join(hit) or "none nearby")
    return g, steps, HeroAction(ABILITY, hero_name, result, ", ".join(hit), hit=hit)


def _before(state: RoundState, ctx: RoundContext, number: int, k: int, b: BeforeModel
            ) -> tuple[RoundState, list[Step]]:
    """One thing done without an aspect token before turn ``number``'s token (entry ``k`` of its ``before`` list):
    Additional Rules › Team-up Abilities (team-up can be spent at any time to ready a team-up card: the track goes
    down by its cost; a ready card can be used at any time, and is then exhausted) or a situational combo ability
    (Additional Rules › Empowered and Primed).

    Raises:
        RuleViolation: naming ``rounds[r].turns[t].before[k].<field>``: no such card or ability, a card already
            ready or not ready, too little team-up, a hero not on the board, or the ability's refusals.
    """
    sec = _section(state)
    g = state.game

    def refuse(fld: str, why: str, rule) -> RuleViolation:
        return _refuse(state, number, f"before[{k}].{fld}", why, rule)

    hero = next(h for h in g.heroes if h.name == b.hero)
    if b.do == "ability":
        sheet = ctx.scenario.sheet(b.hero)
        ab = sheet.ability(b.ability)
        if ab is None or ab.token:
            raise refuse("ability", f"{b.ability!r} is not a situational combo ability on {b.hero}'s sheet ("
                         + (", ".join(a.name for a in sheet.abilities if not a.token) or "none") + ")",
                         S.EMPOWERED_AND_PRIMED)
        if hero.eliminated or not hero.space:
            raise refuse("hero", f"{b.hero} is not on the board", S.HERO_ABILITIES)
        g, steps, _ = _use_ability(state, ctx, b.hero, ab, lambda why, rule: refuse("ability", why, rule), "uses")
        return replace(state, game=g), steps
    return _team_up(state, ctx, b.hero, b.do, refuse, sec, tuple(b.path))


def _team_up(state: RoundState, ctx: RoundContext, who: str, do: str, refuse, sec: str, path: tuple[str, ...] = ()
             ) -> tuple[RoundState, list[Step]]:
    """Additional Rules › Team-up Abilities: ``who`` readies its team-up card (``do = "ready_team_up"``: the track
    goes down by the card's cost) or uses it (``"use_team_up"``: the stand-in effect, then it is exhausted: damage
    to each enemy nearby, or a ``move`` card's move along ``path``); steps filed under ``sec``.
    ``refuse(field, why, rule)`` makes the refusal raised (field ``path``: a path given to a card that does not
    move, none given to one that does, or a step the map or the card's move value does not allow)."""
    g = state.game
    hero = next(h for h in g.heroes if h.name == who)
    card = next((c for c in state.team_cards if c.hero == who), None)
    if card is None:
        raise refuse("do", f"{who} has no team-up card (sheets[].team_up)", S.TEAM_UP_ABILITIES)
    if do == "ready_team_up":
        if card.ready:
            raise refuse("do", f"{card.name} is already ready", S.TEAM_UP_ABILITIES)
        if g.team_up < card.cost:
            raise refuse("do", f"readying {card.name} costs {card.cost} team-up; the track is at {g.team_up}",
                         S.TEAM_UP_ABILITIES)
        g = g.evolve(team_up=g.team_up - card.cost)
        new = replace(card, ready=True)
        steps = [] if ctx.quiet else [
            Step(f"{who} spends {card.cost} team-up to ready {card.name}: team-up → {g.team_up}",
                 S.TEAM_UP_ABILITIES, "Team-up can be spent at any time; the card is flipped face up.",
                 {"team_up": g.team_up, "card": card.name}, (who,), sec)]
    else:
        if not card.ready:
            raise refuse("do", f"{card.name} is {NOT_READY}: ready it first (ready_team_up, {card.cost} team-up)",
                         S.TEAM_UP_ABILITIES)
        if hero.eliminated or not hero.space:
            raise refuse("hero", f"{who} is not on the board", S.TEAM_UP_ABILITIES)
        new = replace(card, ready=False)
        moves = card.effect == "move"
        if path and not moves:
            raise refuse("path", f"{card.name} does not move a hero (its effect: {card.amount} damage to each enemy "
                         "nearby): no path", S.TEAM_UP_ABILITIES)
        if moves and not path:
            raise refuse("path", f"{card.name} moves {who} up to {plural(card.amount, 'space')}: give the spaces "
                         "entered (path = [...])", S.TEAM_UP_ABILITIES)
        steps = [] if ctx.quiet else [
            Step(f"{who} uses the team-up card {card.name}: it is exhausted", S.TEAM_UP_ABILITIES,
                 "Stand-in effect: " + (f"{who} moves up to {plural(card.amount, 'space')}." if moves else
                                        f"{card.amount} damage to each enemy nearby."), {"card": card.name},
                 (who,), sec)]
        if moves:
            try:
                g, more = HP.move_hero(g, ctx.scenario.world, who, path, card.amount)
            except RuleViolation as v:
                raise refuse("path", v.reason, S.TEAM_UP_ABILITIES) from None
        else:
            g, more = HP.hit_each_enemy_nearby(g, ctx.scenario.world, who, card.amount, rulings=ctx.rulings)
        steps += [] if ctx.quiet else [replace(x, section=sec) for x in more]
    cards = tuple(new if c is card else c for c in state.team_cards)
    return replace(state, game=g, team_cards=cards), steps


def ready_defeated_team_up(state: RoundState, ctx: RoundContext) -> tuple[RoundState, tuple[Step, ...]]:
    """Additional Rules › Damage and Defeat (step 6 of a hero's defeat): the new hero's team-up card is readied for
    free, ignoring the team-up track (here after the Nemesis Phase, for each hero defeated since the last check
    whose player is still in; the explorer keeps the hero's name and its sheet's team-up card); and step 2: the
    defeated hero's hero-specific support card returns to the box (shared support cards stay)."""
    defeats = [e for e in state.game.events if isinstance(e, HeroDefeated)]
    cards = state.team_cards
    steps = []
    support = state.cards
    for d in defeats[state.defeats_seen:]:
        gone = [c for c in support if c.hero == d.hero and c.hero_specific]
        if gone:                                    # Damage and Defeat (2): hero-specific cards to the box
            support = tuple(c for c in support if c not in gone)
            if not ctx.quiet:
                steps.append(Step(f"{d.hero} was defeated: its hero-specific support card "
                                  f"{', '.join(c.name for c in gone)} returns to the box", S.DAMAGE_AND_DEFEAT,
                                  "Shared support cards stay.", {"cards": [c.name for c in gone]}, (d.hero,),
                                  f"Round {state.game.round - 1} · End of Round"))
        card = next((c for c in cards if c.hero == d.hero), None)
        if d.eliminated or card is None or card.ready:
            continue
        cards = tuple(replace(c, ready=True) if c is card else c for c in cards)
        if not ctx.quiet:
            steps.append(Step(f"{d.hero} was defeated: {card.name} is readied for free", S.DAMAGE_AND_DEFEAT,
                              "The new hero's team-up card, ignoring the team-up track.", {"card": card.name},
                              (d.hero,), f"Round {state.game.round - 1} · End of Round"))
    return replace(state, team_cards=cards, cards=support, defeats_seen=len(defeats)), tuple(steps)


def end_hero_phase(state: RoundState, ctx: RoundContext) -> tuple[RoundState, tuple[Step, ...]]:
    """Gameplay › Hero Phase: after the heroes have spent all their aspect tokens, proceed to the Nemesis Phase.

    Raises:
        RuleViolation: a hero still holds a token (field ``rounds[r].turns``: the file lists too few turns).
    """
    left = [(s.hero, s.boosted + s.standard) for s in state.supplies if s.hero in _acting(state)]
    if left:
        who = ", ".join(f"{h} {plural(n, 'token')}" for h, n in left)
        raise RuleViolation(f"the Hero Phase ends only when every aspect token is spent; still held: {who}",
                            S.HERO_PHASE, field=f"rounds[{state.index}].turns", step=f"round {state.game.round}")
    if ctx.quiet:
        return state, ()
    return state, (Step("Every aspect token is spent: proceed to the Nemesis Phase", S.HERO_PHASE, "", {}, (),
                        _section(state)),)


def return_tokens(state: RoundState, ctx: RoundContext) -> tuple[RoundState, tuple[Step, ...]]:
    """End of Round: every aspect token leaves its slot and returns to its hero's supply (the 1st player marker
    has passed in the Nemesis Phase's End of Round step); first, a hero whose mission was completed during the
    Nemesis Phase gains its hero-specific support card (:func:`gain_hero_cards`)."""
    full = _full_supplies(ctx.scenario)
    n = len(state.placed)
    # a hero mission completed during the Nemesis Phase (an effect's progress): its hero gains its card now
    state, gained = gain_hero_cards(state, ctx, f"Round {state.game.round - 1} · End of Round")
    new = replace(state, supplies=full, placed=(), index=state.index + 1, declared=0)
    if ctx.quiet:
        return new, ()
    return new, (*gained, Step(f"{plural(n, 'aspect token')} return to the heroes' supplies", S.END_OF_ROUND,
                      "; ".join(f"{s.hero} {s.boosted} boosted + {s.standard} standard" for s in full), {}, (),
                      f"Round {state.game.round - 1} · End of Round"),)


def setup_board(state: RoundState, ctx: RoundContext) -> tuple[RoundState, tuple[Step, ...]]:
    """Setup, on the board: the cards Setup dealt become the game's (:data:`.setup_scenario.SETUP_SEQUENCE` played on
    the file's own cards): the event deck in the order built (the events not taken return to the box), the side
    mission deck in its shuffled order less the card drawn, that side mission in its slot (an elite side mission
    places its elite, Missions › Side Missions) and the 1st strike's enemies on their spaces."""
    s, g = state.setup, state.game
    cards = {c.name: c for c in g.event_deck}
    side = {c.mission.name: c for c in g.side_deck}
    enemies = list(g.enemies)
    for eid, space in s.enemies:
        t = next(t for t in g.enemy_types if eid.rsplit(" ", 1)[0] == t.name)
        enemies.append(Enemy(eid, "nemesis_specific" if t.key == "nemesis-specific" else "standard", space, t.power,
                             t.health, rank=t.rank, type_key=t.key))
    slots = list(g.side_slots)
    steps: list[Step] = []
    for i, name in enumerate(s.side_slots):
        card = side[name]
        m = card.mission
        if card.elite is not None:
            m = evolve(m, elite=card.elite.name)
            enemies.append(Enemy(card.elite.name, "elite", m.space, card.elite.power, card.elite.health))
            steps.append(Step(f"Elite {card.elite.name} placed on {m.space}", S.SIDE_MISSIONS,
                              "Some side missions are elite enemies: the standee goes on the indicated space.", {},
                              (card.elite.name, m.space), "Setup"))
        slots[i] = m
    g = g.evolve(event_deck=tuple(cards[n] for n in s.event_deck), side_deck=tuple(side[n] for n in s.side_deck),
                 side_slots=tuple(slots), enemies=tuple(enemies))
    out = sorted(set(cards) - set(s.event_deck))
    steps.insert(0, Step(f"The board after Setup: an event deck of {plural(len(g.event_deck), 'card')}, "
                         f"{plural(len(s.enemies), 'enemy', 'enemies')} placed, "
                         + (f"side mission {', '.join(s.side_slots)} in play" if s.side_slots else
                            "no side mission in play"), S.SETUP,
                         f"{plural(len(out), 'event')} returned to the box ({', '.join(out)}); "
                         f"{plural(len(g.side_deck), 'side mission')} left in the deck.",
                         {"event_deck": list(s.event_deck)}, tuple(sp for _, sp in s.enemies), "Setup"))
    return replace(state, game=g), tuple(steps)


SETUP_BOARD: Sequence = (("Setup › the board", setup_board),)
"""After :data:`.setup_scenario.SETUP_SEQUENCE` (a ``round`` file with ``[setup]``): its result on the board."""


def nemesis_team_ups(state: RoundState, ctx: RoundContext, before: str) -> tuple[RoundState, tuple[Step, ...]]:
    """Additional Rules › Team-up Abilities, during the Nemesis Phase: the round's ``[[rounds.nemesis]]`` entries
    done ``before`` a point of the phase (:func:`.nemesis.is_phase_point`), in the file's order: a team-up card
    readied (team-up spent) or used (exhausted; the stand-in effect: damage to each enemy nearby). Team-up can be
    spent and team-up abilities used at any time, even to interrupt other game effects. At a point where a loss
    condition is already reached (before its Winning and Losing check), ruling ``team_up_after_loss`` decides
    whether the entries are played.

    Raises:
        ScenarioError: naming ``rounds[r].nemesis[k].before`` and the points allowed: a point that this play of the
            phase does not reach (inside step 3 when no event card is resolved, Nemesis Phase › 3. Resolve Event
            Cards; ``"3.activation.N"`` with fewer than N enemies activated).
        RuleViolation: naming ``rounds[r].nemesis[k].<field>``: no team-up card, a card already ready or not
            ready, too little team-up, a hero not on the board.
    """
    r = state.index
    words = point_words(before)
    sec = f"Round {state.game.round} · Nemesis Phase, team-up {words}"
    entries = [(k, e) for k, e in enumerate(ctx.scenario.nemesis_team_ups(r)) if e.before == before]
    if entries and loss_reached(state.game) and ctx.rulings.reading("team_up_after_loss") == "not_played":
        who = "; ".join(f"{e.hero} {e.do.replace('_', ' ')}" for _k, e in entries)
        if ctx.quiet:
            return state, ()
        return state, (Step(f"A loss condition is reached: the team-up entries {words} are not played ({who})",
                            S.WINNING_AND_LOSING, "Ruling team_up_after_loss = not_played: the heroes lose when "
                            "the condition happens.", {"not_played": [k for k, _e in entries]}, (), sec),)
    steps: list[Step] = []
    for k, e in entries:
        def refuse(fld: str, why: str, rule, k=k) -> RuleViolation:
            # the entry and its field come before the point's words, which hold commas of their own: a field name
            # appended after them (", do") would read as a stray word of the point
            return RuleViolation(why, rule, field=f"rounds[{r}].nemesis[{k}].{fld}",
                                 step=f"round {state.game.round}, Nemesis Phase team-up entry {k + 1} "
                                      f"({fld} = {getattr(e, fld, '')!s}), {words}")

        n = activation_number(before) or interrupt_number(before)
        source = ctx.scenario.board.source
        if before.startswith("3.") and state.game.current_event is None:
            raise ScenarioError(f"rounds[{r}].nemesis[{k}].before", f"{before!r}: no event card is resolved in round "
                                f"{state.game.round}'s Nemesis Phase, so there is no such point",
                                "1, 1.check, 2, 2.check, 3 or end in this round", source)
        if n is not None and len(state.game.activating) < n:
            got = len(state.game.activating)
            raise ScenarioError(f"rounds[{r}].nemesis[{k}].before", f"{before!r}: round {state.game.round}'s event "
                                f"activates {plural(got, 'enemy', 'enemies')}",
                                (f"3.activation.1..3.activation.{got} (each also .interrupt) this round" if got else
                                 "no activation "
                                 "point this round") + ", or 3.activation, 3.spawns, 3.discard, end", source)
        state, more = _team_up(state, ctx, e.hero, e.do, refuse, sec, tuple(e.path))
        steps += more
    return state, tuple(steps)


def _nemesis_phase(state: RoundState, ctx: RoundContext) -> tuple[list[Frame[RoundState]], RuleViolation | None]:
    """The Nemesis Phase and End of Round of the round ``state`` is in (:func:`.nemesis.play_phase`, its frames
    carried into round states); with ``[[rounds.nemesis]]`` entries, played part by part
    (:func:`.nemesis.phase_parts`, cut at the points the entries name) with :func:`nemesis_team_ups` at each of
    those points (one frame each). Returns the frames and the refusal (``None``: none). With ``ctx.quiet`` only the
    last frame of each kernel play is carried into a round state (a quiet caller reads the last state only).

    Raises:
        ScenarioError: an entry's point this play does not reach (:func:`nemesis_team_ups`)."""
    entries_at = {e.before for e in ctx.scenario.nemesis_team_ups(state.index)}
    if not entries_at:
        return _carried(state, play_phase(state.game, ctx.phase), ctx.quiet), None
    frames: list[Frame[RoundState]] = []
    points = tuple(sorted(entries_at | {"1"}, key=point_order))
    phase_ctx, parts = phase_parts(state.game, ctx.phase, points)
    for key, entries in parts:
        if key in entries_at:
            try:
                state, steps = nemesis_team_ups(state, ctx, key)
            except RuleViolation as refusal:
                return frames, refusal
            frames.append(Frame(f"Nemesis Phase › team-up {point_words(key)}", state, steps))
            if _over(state):
                break
        got = (play_last if ctx.quiet else play)(state.game, entries, phase_ctx, stop=phase_over)
        frames += _carried(state, got, ctx.quiet)
        state = frames[-1].state if frames else state
        if phase_over(state.game):
            break
    return frames, None


def _carried(state: RoundState, got: tuple[Frame[GameState], ...], quiet: bool) -> list[Frame[RoundState]]:
    """Nemesis Phase frames (game states) carried into round states (``state`` with each frame's game); ``quiet``:
    only the last one."""
    return [Frame(f.name, replace(state, game=f.state), f.steps) for f in (got[-1:] if quiet else got)]


def _over(state: RoundState) -> bool:
    return bool(state.game.lost or state.game.won)


HERO_PHASE: Sequence = (
    ("Hero Phase › begins", begin_hero_phase),
    Each("Hero Phase › turn {item}", turn_numbers, take_turn, _over),
    ("Hero Phase › every token spent", end_hero_phase),
)
"""A round's Hero Phase: the turns in the file's order, one frame each, then the check that every token is spent."""

END_OF_ROUND: Sequence = (("End of Round › aspect tokens return", return_tokens),
                          ("Damage and Defeat › team-up cards of defeated heroes", ready_defeated_team_up))
"""After the Nemesis Phase (which passes the 1st player marker): the aspect tokens return."""


def _begin(sc: RoundScenario, rulings: Mapping[str, str] | None, seed: int | None,
           side: tuple[str, ...] | None = None) -> tuple[list[Frame[RoundState]], RoundState, RoundContext]:
    """``(setup frames, state before them, context)``: with a ``[setup]``, :data:`.setup_scenario.SETUP_SEQUENCE`
    (its own seeded die: ``seed`` or the table's) carried into round states, then :data:`SETUP_BOARD`; else no
    frame. ``side``: the side mission deck's order (names, top first) to put on the board instead of the one the
    seed shuffled (the card the 1st strike draws is its first)."""
    phase = replace(phase_context(sc.board, rulings), team_up_cards=True)   # the round tracks them (RoundState)
    dice_seed = seed if seed is not None else (sc.board.seed if sc.board.seed is not None else 0)
    ctx = RoundContext(rulings=phase.rulings, dice=Dice(seed=dice_seed), scenario=sc, phase=phase)
    start = RoundState(initial_state(sc.board, seed), 0, _full_supplies(sc), cards=_cards(sc),
                       team_cards=_team_cards(sc))
    if sc.setup is None:
        return [], start, ctx
    sctx = SetupContext(dice=Dice(seed=sc.setup.seed if seed is None else seed), scenario=sc.setup)
    frames = [Frame(f.name, replace(start, setup=f.state), f.steps) for f in play(SetupState(), SETUP_SEQUENCE,
                                                                                    sctx)]
    dealt = frames[-1].state
    if side is not None:
        drawn = len(dealt.setup.side_slots)
        dealt = replace(dealt, setup=replace(dealt.setup, side_slots=side[:drawn], side_deck=side[drawn:]))
    return frames + list(play(dealt, SETUP_BOARD, ctx)), start, ctx


def play_rounds(sc: RoundScenario, rulings: Mapping[str, str] | None = None, seed: int | None = None, *,
                dealt: tuple[str, ...] | None = None, side_dealt: tuple[str, ...] | None = None, quiet: bool = False
                ) -> tuple[tuple[Frame[RoundState], ...], RuleViolation | None, RoundState, RoundContext]:
    """Play the file's rounds (after Setup, when the file has a ``[setup]``: :func:`_begin`): each round's
    :data:`HERO_PHASE`, then the Nemesis Phase and End of Round
    (:func:`.nemesis.play_phase`, its frames carried into the round's state), then :data:`END_OF_ROUND`; stops at a
    loss, a win or a refused choice. Returns ``(frames, refusal or None, initial state, context)``; going back in
    time is replaying a prefix of the frames (the dice are reseeded: same seed, same rolls).

    ``dealt``: for a file with ``[setup]``, the event deck's order (card names, top first) to play the rounds on
    instead of the one Setup dealt (the forecast over Setup's deals, :func:`.forecast.planned_forecast`);
    ``side_dealt``: likewise the side mission deck's order (names, top first; the 1st strike draws the first).
    ``quiet``: the rounds are played with :func:`quiet_context` (Setup's frames as ever): the same states, no step
    text; each Hero Phase turn still has its frame, each Nemesis Phase only its last."""
    frames, start, ctx = _begin(sc, rulings, seed, side_dealt)
    play_ctx = quiet_context(ctx) if quiet else ctx
    state = frames[-1].state if frames else start
    if dealt is not None and frames:
        cards = {c.name: c for c in start.game.event_deck}
        state = replace(state, game=state.game.evolve(event_deck=tuple(cards[n] for n in dealt)))
    for _ in sc.rounds:
        got, refusal = play_hero_phase(state, play_ctx)
        frames += got
        if refusal is not None:
            return tuple(frames), refusal, start, ctx
        state = got[-1].state
        if _over(state):
            break
        got, refusal = play_nemesis_and_end(state, play_ctx)
        frames += got
        if refusal is not None:
            return tuple(frames), refusal, start, ctx
        state = frames[-1].state
        if _over(state):
            break
    return tuple(frames), None, start, ctx


def quiet_context(ctx: RoundContext) -> RoundContext:
    """``ctx`` and its Nemesis Phase context made quiet (:attr:`explorer.kernel.Context.quiet`): the same play and
    states, no step text built (the exact forecast, :func:`.forecast.planned_forecast`, reads only the states)."""
    return replace(ctx, quiet=True, phase=replace(ctx.phase, quiet=True))


def play_hero_phase(state: RoundState, ctx: RoundContext) -> tuple[list[Frame[RoundState]], RuleViolation | None]:
    """One round's :data:`HERO_PHASE` from ``state`` (round ``state.index`` of the file): ``(frames, refusal or
    None)``; it stops at a loss or a win."""
    got, refusal = play_until_refused(state, HERO_PHASE, ctx, stop=_over)
    return list(got), refusal


def play_nemesis_and_end(state: RoundState, ctx: RoundContext
                         ) -> tuple[list[Frame[RoundState]], RuleViolation | None]:
    """After a round's Hero Phase: its Nemesis Phase (with the file's ``[[rounds.nemesis]]`` entries) and End of
    Round, then :data:`END_OF_ROUND` unless the game is over: ``(frames, refusal or None)``. The event card drawn is
    the top of ``state.game.event_deck``. With ``ctx.quiet`` each kernel play gives its last frame only.

    Raises:
        ScenarioError: a ``[[rounds.nemesis]]`` point this play does not reach (:func:`nemesis_team_ups`)."""
    frames, refusal = _nemesis_phase(state, ctx)
    if refusal is not None or not frames or _over(frames[-1].state):
        return frames, refusal
    return frames + list((play_last if ctx.quiet else play)(frames[-1].state, END_OF_ROUND, ctx)), None


def dealt_board(sc: RoundScenario, rulings: Mapping[str, str] | None = None) -> GameState:
    """The game a round file's rounds start from: after Setup when it has a ``[setup]`` (the board Setup deals from
    its seed), else the file's board."""
    frames, start, _ctx = _begin(sc, rulings, None)
    return (frames[-1].state if frames else start).game


def after_hero_phase(sc: RoundScenario, rulings: Mapping[str, str] | None = None, seed: int | None = None
                     ) -> GameState:
    """The game after the file's first Hero Phase, as planned (the rolls given, or rolled from the seed): where
    ``explorer dagger forecast`` starts the Nemesis Phase.

    Raises:
        RuleViolation: a planned turn the rules refuse (its field and rule), or a Hero Phase that leaves a token
            unspent.
    """
    frames, start, ctx = _begin(sc, rulings, seed)
    frames += play(frames[-1].state if frames else start, HERO_PHASE, ctx, stop=_over)
    return frames[-1].state.game


def resolve_round(sc: RoundScenario, rulings: Mapping[str, str] | None = None, seed: int | None = None) -> Trace:
    """Resolve a ``round`` scenario into a cited :class:`Trace` whose result is a :class:`.results.RoundOutcome`; a
    refused choice ends the trace with a "Not allowed" step naming its field and rule."""
    return round_trace(sc, play_rounds(sc, rulings, seed), seed)


def round_trace(sc: RoundScenario, played: tuple[tuple[Frame[RoundState], ...], RuleViolation | None, RoundState,
                                                 RoundContext], seed: int | None = None) -> Trace:
    """The trace of frames already played (``played``: what :func:`play_rounds` returns for ``sc`` and ``seed``):
    the cited steps of the frames, a "Not allowed" step for a refusal, the :class:`.results.RoundOutcome` of the last
    frame's state. :func:`resolve_round` is ``round_trace(sc, play_rounds(sc, rulings, seed), seed)``; the Round page
    builds its positions and this trace from one play."""
    frames, refusal, start, ctx = played
    steps = list(steps_of(frames))
    end = frames[-1].state if frames else start
    refused = field = ""
    if refusal is not None:
        field = refusal.field
        # a turn's step ("round 1, turn 2") is followed by the field's name; a Nemesis Phase entry's step names
        # its entry and field itself, before the point's words
        where = refusal.step + ("" if field.endswith("]") or field.endswith(".turns") or ".nemesis[" in field else
                                ", " + field.rsplit(".", 1)[-1])
        refused = f"{where}: {refusal.reason} [{refusal.section}]"
        steps.append(Step(f"Not allowed ({where}): {refusal.reason}", refusal.rule, "",
                          {"rejected": True, "field": field}, (), _section(end)))
    g = end.game
    board = next((f.state.game for f in frames if f.name == SETUP_BOARD[0][0]), None)
    start_deck = None if board is None else tuple(c.name for c in board.event_deck)
    rounds = sum(1 for f in frames if f.name == END_OF_ROUND[0][0])
    trace = Trace(sc.title or "Rounds", steps, dict(ctx.rulings.consulted))
    return trace.with_result(RoundOutcome(end.done, rounds, start.game.threat, g.threat, g.team_up, g.lost, g.won,
                                          g.showdown, tuple(sorted(g.overrun)), loss_gauges(g), refused, field,
                                          g.heroes, g.enemies, g.events,
                                          None if sc.setup is None else (sc.setup.seed if seed is None else seed),
                                          () if start_deck is None else start_deck,
                                          tuple((c.hero, c.name, c.ready) for c in end.team_cards)))


__all__ = ["RoundScenario", "RoundState", "RoundContext", "Sheet", "Supply", "Placed", "SupportCard", "TeamUpCard",
           "parse_round", "resolve_round", "round_trace", "play_rounds", "after_hero_phase", "HERO_PHASE", "END_OF_ROUND",
           "SETUP_BOARD", "setup_board", "begin_hero_phase", "take_turn", "end_hero_phase", "return_tokens",
           "ready_defeated_team_up", "whose_turn", "play_hero_phase", "quiet_context", "play_nemesis_and_end",
           "STANDIN_SLOTS", "STANDIN_BOOST", "STANDIN_DAGGER_EFFECT"]
