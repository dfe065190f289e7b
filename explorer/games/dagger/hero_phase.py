"""Hero Phase helpers of Marvel D.A.G.G.E.R.: Move along the world map, the Fight / Defy / Rest rolls with the
custom die, the exact odds of defeating an enemy or completing a mission with one action, and what a Fight, Defy or
Rest result does to the game state.

Rulebook sections: Gameplay › Hero Phase › Aspect Actions (Move: to an adjacent space, up to the move value; Fight:
ATK dice, 1 damage per success, an enemy in the hero's space; Defy: DFI dice, successes applied as the mission
describes; Rest: tactic dice plus the automatic successes, split between recover and charge), Additional Rules ›
Empowered and Primed (an empowered token adds 1 success to a roll, after rolling), Support Cards (charging an
exhausted card), Missions (progress values; side missions completed with enough progress: team-up, discard; hero
missions: discard, the hero-specific support card), Damage and Defeat (a defeated standard enemy is removed; a
nemesis defeated before the Final Showdown is stunned and may be moved to an adjacent space; defeated in the Final
Showdown, the heroes win).

**The die is not printed in the rulebook.** :data:`DEFAULT_DIE` is a documented **stand-in** (six faces: three
blanks, two single successes, one double success); :class:`DieTable` takes any face table (successes per face), so
enter the real die's faces to get the real odds. Odds are exact (:class:`fractions.Fraction`, by convolution over
the faces); the tests check them against brute-force enumeration and a seeded Monte Carlo estimate.

What a Defy success does is mission text ("apply successes as described by the mission"): the helpers take
``progress_per_success`` (default 1: one progress token per success, a documented default).

Every action is a step function over the immutable :class:`~.state.GameState` returning ``(state, [Step])`` with
each step citing its section; nothing here mutates.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache

from explorer.errors import RuleViolation, ScenarioError
from explorer.options import Rulings
from explorer.text import plural
from explorer.trace import Step

from . import sections as S
from .state import Enemy, GameState, Hero, HeroMissionCompleted, evolve
from .worldmap import WorldMap

__all__ = ["DieTable", "DEFAULT_DIE", "ActionOdds", "successes_distribution", "action_odds", "fight_odds",
           "defy_odds", "rest_distribution", "reachable", "move_hero", "fight", "defy", "rest", "suffer_damage",
           "enemies_nearby", "hit_each_enemy_nearby", "pieces_nearby_spaces", "place_progress",
           "complete_with_progress"]

SECTION = "Hero Phase"
MAX_DICE = 20
"""Dice in one roll, at most (ATK / DFI / tactic values are 0..10; BOOSTs and cards may add a few)."""


@dataclass(frozen=True, slots=True)
class DieTable:
    """The custom die as a face table: ``faces`` is the number of successes on each face (2..20 faces, 0..3
    successes each); every face is equally likely. ``name`` labels it ("stand-in" for :data:`DEFAULT_DIE`).

    Raises:
        ScenarioError: a face table outside those bounds (field ``die.faces``).
    """

    faces: tuple[int, ...]
    name: str = ""

    def __post_init__(self) -> None:
        if not 2 <= len(self.faces) <= 20:
            raise ScenarioError("die.faces", f"{len(self.faces)} faces", "2..20 faces")
        for i, f in enumerate(self.faces):
            if isinstance(f, bool) or not isinstance(f, int) or not 0 <= f <= 3:
                raise ScenarioError(f"die.faces[{i}]", f"{f!r} successes", "a whole number 0..3")

    @property
    def face_odds(self) -> dict[int, Fraction]:
        """``{successes: probability}`` of one die."""
        n = len(self.faces)
        return {k: Fraction(self.faces.count(k), n) for k in sorted(set(self.faces))}


DEFAULT_DIE = DieTable((0, 0, 0, 1, 1, 2), "stand-in: 3 blanks, 2 single successes, 1 double success")
"""A documented stand-in for the custom die (the rulebook does not print its faces): edit it with your die's."""


@lru_cache(maxsize=512)
def _dist(faces: tuple[int, ...], dice: int) -> tuple[tuple[int, Fraction], ...]:
    one = DieTable(faces).face_odds
    out: dict[int, Fraction] = {0: Fraction(1)}
    for _ in range(dice):
        nxt: dict[int, Fraction] = {}
        for s, p in out.items():
            for k, q in one.items():
                nxt[s + k] = nxt.get(s + k, Fraction(0)) + p * q
        out = nxt
    return tuple(sorted(out.items()))


def successes_distribution(dice: int, die: DieTable = DEFAULT_DIE) -> dict[int, Fraction]:
    """The exact distribution of the successes rolled with ``dice`` dice: ``{successes: probability}`` (the
    probabilities sum to 1).

    Raises:
        ScenarioError: ``dice`` outside 0..:data:`MAX_DICE`.
    """
    if isinstance(dice, bool) or not isinstance(dice, int) or not 0 <= dice <= MAX_DICE:
        raise ScenarioError("dice", f"{dice!r}", f"0..{MAX_DICE}")
    return dict(_dist(die.faces, dice))


@dataclass(frozen=True)
class ActionOdds:
    """The exact odds of one Fight / Defy / Rest action reaching ``need`` successes.

    Attributes:
        dice: dice rolled. need: successes needed (0 = already done). automatic: successes added without rolling
            (Rest). p: probability of reaching ``need`` as the hero stands (with its empowered token spent when that
            makes the difference). p_without_empowered, p_with_empowered: the same without / with an empowered token
            (the second is what a hero who first becomes empowered would get). distribution: ``{successes rolled:
            probability}``. note: what the answer assumes.
    """

    dice: int
    need: int
    automatic: int
    empowered: bool
    p: Fraction
    p_without_empowered: Fraction
    p_with_empowered: Fraction
    distribution: Mapping[int, Fraction] = field(repr=False)
    note: str = ""

    def to_dict(self) -> dict:
        """JSON-friendly: probabilities as ``{"exact": "n/d", "float": x}``."""
        def pr(x: Fraction) -> dict:
            return {"exact": str(x), "float": float(x)}
        return {"dice": self.dice, "need": self.need, "automatic": self.automatic, "empowered": self.empowered,
                "p": pr(self.p), "p_without_empowered": pr(self.p_without_empowered),
                "p_with_empowered": pr(self.p_with_empowered),
                "distribution": {str(k): pr(v) for k, v in self.distribution.items()}, "note": self.note}


def action_odds(dice: int, need: int, *, die: DieTable = DEFAULT_DIE, empowered: bool = False, automatic: int = 0,
                note: str = "") -> ActionOdds:
    """P(rolled successes + ``automatic`` (+ 1 for a spent empowered token) >= ``need``), exactly.

    The empowered token is spent after rolling (Empowered and Primed), so a hero spends it exactly when the roll
    falls one short: with it, the odds are P(successes + automatic >= need - 1).

    Raises:
        ScenarioError: ``dice`` outside 0..20, ``need`` outside 0..60, ``automatic`` outside 0..20.
    """
    if isinstance(need, bool) or not isinstance(need, int) or not 0 <= need <= 60:
        raise ScenarioError("need", f"{need!r}", "0..60")
    if isinstance(automatic, bool) or not isinstance(automatic, int) or not 0 <= automatic <= 20:
        raise ScenarioError("automatic", f"{automatic!r}", "0..20")
    dist = successes_distribution(dice, die)

    def p_reach(n: int) -> Fraction:
        return sum((p for s, p in dist.items() if s + automatic >= n), Fraction(0))

    without, with_token = p_reach(need), p_reach(need - 1)
    return ActionOdds(dice, need, automatic, empowered, with_token if empowered else without, without, with_token,
                      dist, note)


def _hero(state: GameState, name: str) -> Hero:
    h = next((h for h in state.heroes if h.name == name), None)
    if h is None:
        raise ScenarioError("hero", f"no hero {name!r}", [x.name for x in state.heroes])
    if h.eliminated or not h.space:
        raise RuleViolation(f"{name} is not on the board", S.HERO_PHASE, field="hero")
    return h


def fight_odds(state: GameState, hero: str, enemy_id: str, *, die: DieTable = DEFAULT_DIE,
               dice: int | None = None) -> ActionOdds:
    """The exact odds that one Fight action of ``hero`` defeats ``enemy_id`` (Aspect Actions › Fight: ATK dice, 1
    damage per success; defeated at damage = health). ``dice`` overrides the hero's ``atk`` (a BOOST, a card).

    Raises:
        ScenarioError: an unknown hero or enemy, no dice (the hero's ATK is not entered).
        RuleViolation: the enemy is not in the hero's space (Fight attacks an enemy in their space).
    """
    h = _hero(state, hero)
    e = next((x for x in state.enemies if x.id == enemy_id), None)
    if e is None:
        raise ScenarioError("enemy", f"no enemy {enemy_id!r}", [x.id for x in state.enemies])
    if e.space != h.space:
        raise RuleViolation(f"{enemy_id} is on {e.space}, not in {hero}'s space {h.space}", S.ASPECT_ACTIONS,
                            field="enemy", step="Fight")
    n = h.atk if dice is None else dice
    if n <= 0:
        raise ScenarioError("dice", f"{hero}'s ATK is not entered", "heroes[].atk 1..10 or dice=")
    need = e.health - e.damage
    what = ("the nemesis is defeated: the heroes win" if e.kind == "nemesis" and state.showdown else
            "the nemesis is stunned (not removed)" if e.kind == "nemesis" else f"{enemy_id} is removed")
    return action_odds(n, need, die=die, empowered=h.empowered,
                       note=f"{plural(n, 'ATK die', 'ATK dice')} against {need} health left ({e.damage}/{e.health} damage); then {what}")


def defy_odds(state: GameState, hero: str, mission: str, *, die: DieTable = DEFAULT_DIE, dice: int | None = None,
              progress_per_success: int = 1) -> ActionOdds:
    """The exact odds that one Defy action of ``hero`` completes ``mission`` (Aspect Actions › Defy: DFI dice;
    Missions: progress tokens >= progress value). A side or hero mission is completed at once; a nemesis mission or
    1st strike is checked in the next Nemesis Phase's step 2 (the odds are of having enough progress then).

    Args:
        progress_per_success: progress tokens per success (1..5; the mission's text decides, default 1).

    Raises:
        ScenarioError: unknown hero or mission, an asterisk mission (no progress value), no dice.
    """
    h = _hero(state, hero)
    m = next((x for x in state.active_missions() if x.name == mission), None)
    if m is None:
        raise ScenarioError("mission", f"no mission {mission!r} in play", [x.name for x in state.active_missions()])
    if m.progress_value is None:
        raise ScenarioError("mission", f"{mission!r} has no progress value (asterisk or elite mission)",
                            "a mission with a progress value")
    if not 1 <= progress_per_success <= 5:
        raise ScenarioError("progress_per_success", f"{progress_per_success!r}", "1..5")
    n = h.dfi if dice is None else dice
    if n <= 0:
        raise ScenarioError("dice", f"{hero}'s DFI is not entered", "heroes[].dfi 1..10 or dice=")
    left = max(0, m.progress_value - m.progress)
    need = -(-left // progress_per_success)
    when = ("completed at once" if m.kind in ("side", "hero") else "passed when step 2 of the next Nemesis Phase "
            "checks it")
    return action_odds(n, need, die=die, empowered=h.empowered,
                       note=f"{plural(n, 'DFI die', 'DFI dice')}; {left} progress to go at {progress_per_success} per success; {when}")


def rest_distribution(state: GameState, hero: str, *, die: DieTable = DEFAULT_DIE,
                      dice: int | None = None) -> dict[int, Fraction]:
    """The exact distribution of a Rest action's total successes (tactic dice + the hero's automatic successes; the
    empowered token is not counted: spend it with :func:`rest`): ``{total: probability}``."""
    h = _hero(state, hero)
    n = h.tactic if dice is None else dice
    return {s + h.rest_auto: p for s, p in successes_distribution(n, die).items()}


# ------------------------------------------------------------------------------------------------------- actions


def reachable(world: WorldMap, space: str, move_value: int) -> dict[str, int]:
    """Spaces a Move action can end on from ``space`` (Aspect Actions › Move: to an adjacent space, up to the move
    value times): ``{space: lines crossed}``, ``space`` itself at 0, in map order."""
    return {n: d for n in world.names if (d := world.distance(space, n)) is not None and d <= move_value}


def move_hero(state: GameState, world: WorldMap, hero: str, path: tuple[str, ...] | list[str],
              move_value: int | None = None) -> tuple[GameState, list[Step]]:
    """A Move action along ``path`` (the spaces entered, in order, or the full route starting at the hero's space).

    Raises:
        RuleViolation: a step to a space not joined by a line, or more steps than the move value.
        ScenarioError: an unknown space, or no move value (the hero's ``move`` is not entered and none given).
    """
    h = _hero(state, hero)
    mv = h.move if move_value is None else move_value
    if mv <= 0:
        raise ScenarioError("move_value", f"{hero}'s move value is not entered", "heroes[].move 1..6 or move_value=")
    route = list(path)
    if route and route[0] == h.space:
        route = route[1:]
    for sp in route:
        if sp not in world:
            raise ScenarioError("path", f"unknown space {sp!r}", "names of spaces on the map")
    if len(route) > mv:
        raise RuleViolation(f"{hero} moves {len(route)} spaces; the move value is {mv}", S.ASPECT_ACTIONS,
                            field="path", step="Move")
    here = h.space
    for sp in route:
        if sp not in world.adjacent(here):
            raise RuleViolation(f"{here} and {sp} are not joined by a dotted line", S.ASPECT_ACTIONS, field="path",
                                step="Move")
        here = sp
    state = state.with_hero(evolve(h, space=here)).evolve(log=state.log + (f"{hero} move {h.space}->{here}",))
    return state, [Step(f"{hero} moves {' → '.join([h.space, *route])} ({len(route)} of {mv})", S.ASPECT_ACTIONS,
                        "Each step crosses one dotted line.", {"hero": hero, "start": h.space, "end": here,
                                                               "spaces": len(route), "move_value": mv},
                        (hero, h.space, here), SECTION)]


def _spend(state: GameState, h: Hero, rolled: int, need: int | None, spend: bool | None) -> tuple[GameState, Hero,
                                                                                                  int, list[Step]]:
    """Spend the hero's empowered token (+1 success): when ``spend`` is True, or by default when it makes the
    roll reach ``need`` exactly."""
    use = h.empowered and (spend if spend is not None else need is not None and rolled == need - 1)
    if not use:
        return state, h, rolled, []
    h = evolve(h, empowered=False)
    state = state.with_hero(h)
    spent = Step(f"{h.name} spends the empowered token: +1 success → {rolled + 1}", S.EMPOWERED_AND_PRIMED,
                 "Spent after rolling.", {"successes": rolled + 1}, (h.name,), SECTION)
    return state, h, rolled + 1, [spent]


def fight(state: GameState, hero: str, enemy_id: str, successes: int, *, spend_empowered: bool | None = None,
          nemesis_to: str | None = None, world: WorldMap | None = None) -> tuple[GameState, list[Step]]:
    """Resolve a Fight roll of ``successes``: the enemy in the hero's space suffers 1 damage per success. At damage
    = health it is defeated: a standard or nemesis-specific enemy is removed; an elite is removed and its side
    mission completed (team-up, discard); the nemesis, before the Final Showdown, takes the stun token and may be
    moved to an adjacent space (``nemesis_to``, default: it stays); in the Final Showdown the heroes win.

    ``spend_empowered``: ``None`` spends the token only when it makes the difference.

    Raises:
        ScenarioError, RuleViolation: as :func:`fight_odds`; ``successes`` outside 0..60; ``nemesis_to`` not adjacent.
    """
    if not 0 <= successes <= 60:
        raise ScenarioError("successes", f"{successes!r}", "0..60")
    h = _hero(state, hero)
    e = next((x for x in state.enemies if x.id == enemy_id), None)
    if e is None:
        raise ScenarioError("enemy", f"no enemy {enemy_id!r}", [x.id for x in state.enemies])
    if e.space != h.space:
        raise RuleViolation(f"{enemy_id} is on {e.space}, not in {hero}'s space {h.space}", S.ASPECT_ACTIONS,
                            field="enemy", step="Fight")
    need = e.health - e.damage
    state, h, total, steps = _spend(state, h, successes, need, spend_empowered)
    steps.insert(0, Step(f"{hero} fights {enemy_id}: {plural(successes, 'success', 'successes')}", S.ASPECT_ACTIONS,
                         "1 damage per success.", {"successes": successes}, (hero, enemy_id), SECTION))
    state, more = suffer_damage(state, enemy_id, total, nemesis_to=nemesis_to, world=world, step="Fight")
    return state, steps + more


def suffer_damage(state: GameState, enemy_id: str, amount: int, *, nemesis_to: str | None = None,
                  world: WorldMap | None = None, step: str = "", rulings: Rulings | None = None
                  ) -> tuple[GameState, list[Step]]:
    """Enemy ``enemy_id`` suffers ``amount`` damage (Damage and Defeat): at damage = health a standard or
    nemesis-specific enemy is removed, an elite is removed and its side mission completed (team-up, discard), the
    nemesis is stunned before the Final Showdown (moved to the adjacent ``nemesis_to`` if given) and defeated in it
    (the heroes win).

    A nemesis stunned in the middle of its own activation (an interrupt: ``state.acting`` names it) loses the item
    under way; ruling ``nemesis_stunned_mid_activation`` in ``rulings`` (consulted only then; without ``rulings``
    its default, ``skip_next``) says which activation the stun costs, and the defeat step says so.

    Raises:
        RuleViolation: ``nemesis_to`` not adjacent to the nemesis' space (field ``nemesis_to``, step ``step``).
    """
    e = state.enemy(enemy_id)
    steps: list[Step] = []
    dmg = min(e.health, e.damage + amount)
    e2 = evolve(e, damage=dmg)
    steps.append(Step(f"{enemy_id} suffers {amount} damage ({dmg}/{e.health})", S.DAMAGE_AND_DEFEAT, "",
                      {"enemy": enemy_id, "damage": dmg, "health": e.health}, (enemy_id,), SECTION))
    if dmg < e.health:
        return state.with_enemy(e2), steps
    if e.kind == "nemesis":
        if state.showdown:
            state = state.with_enemy(e2).evolve(won=True, log=state.log + ("nemesis defeated",))
            steps.append(Step("The nemesis is defeated in the Final Showdown: the heroes win", S.DAMAGE_AND_DEFEAT,
                              "", {"won": True}, (enemy_id,), SECTION))
            return state, steps
        to = e.space
        if nemesis_to is not None:
            if world is None or nemesis_to not in world.adjacent(e.space):
                raise RuleViolation(f"{nemesis_to!r} is not adjacent to {e.space}", S.DAMAGE_AND_DEFEAT,
                                    field="nemesis_to", step=step)
            to = nemesis_to
        state = state.with_enemy(evolve(e2, stunned=True, space=to))
        mid = state.acting == enemy_id and rulings is not None
        if mid and rulings.reading("nemesis_stunned_mid_activation") == "this_activation":
            under_way = state.acting_item.words if state.acting_item is not None else "its item"
            costs = (f"It is stunned in the middle of its own activation: it does not {under_way}, and this "
                     "activation is the turn the stun costs it, so its damage and stun are removed as the "
                     "activation ends; its next activation is a normal one (ruling nemesis_stunned_mid_activation "
                     "= this_activation).")
        else:
            costs = "A stunned nemesis skips its next activation; then its damage and stun are removed."
        steps.append(Step("The nemesis is defeated before the Final Showdown: stun token"
                          + (f", moved to {to}" if to != e.space else ", it stays on " + to), S.DAMAGE_AND_DEFEAT,
                          costs + " The active player may move it to an adjacent space (default: it stays).",
                          {"stunned": True, "space": to}, (enemy_id, to), SECTION))
        return state, steps
    state = state.evolve(enemies=tuple(x for x in state.enemies if x.id != enemy_id),
                         log=state.log + (f"{enemy_id} defeated",))
    steps.append(Step(f"{enemy_id} is defeated and removed", S.DAMAGE_AND_DEFEAT, "", {"defeated": enemy_id},
                      (enemy_id,), SECTION))
    if e.kind == "elite":
        m = next((m for m in state.side_slots if m is not None and m.elite == enemy_id), None)
        if m is not None:
            state, more = _complete_side(state, m.name)
            steps += more
    return state, steps


def pieces_nearby_spaces(world: WorldMap, space: str, rulings: Rulings | None = None) -> tuple[str, ...]:
    """The spaces whose pieces are nearby a piece on ``space`` (Additional Rules › Nearby and Overrun), ``space``
    first when it counts: the same and the adjacent spaces under ruling ``nearby_pieces`` = ``same_and_adjacent``
    (the default, also when ``rulings`` is ``None``), the adjacent ones only under ``adjacent_only`` (the reading of
    handed case DG-08 that excludes the piece's own space). ``rulings`` records the consultation.

    Raises:
        KeyError: ``space`` is not on the map.
    """
    own = rulings is None or rulings.reading("nearby_pieces") == "same_and_adjacent"
    return world.nearby_spaces(space, include_self=own)


def enemies_nearby(state: GameState, world: WorldMap, hero: str, rulings: Rulings | None = None
                   ) -> tuple[Enemy, ...]:
    """The enemies nearby ``hero`` (Additional Rules › Nearby and Overrun), in state order: every enemy on a space of
    :func:`pieces_nearby_spaces` (the hero's own space and the adjacent ones, joined by a dotted line, under the
    default reading of ruling ``nearby_pieces``; the adjacent ones only under ``adjacent_only``); nothing two or
    more lines away. Whether a *space* is nearby itself (an effect on the spaces nearby a space) is the separate
    ruling option ``nearby_space_itself`` (handed case DG-08).

    Raises:
        ScenarioError: an unknown hero. RuleViolation: the hero is not on the board.
    """
    h = _hero(state, hero)
    spaces = pieces_nearby_spaces(world, h.space, rulings)
    return tuple(e for e in state.enemies if e.space in spaces)


def hit_each_enemy_nearby(state: GameState, world: WorldMap, hero: str, amount: int, *,
                          rulings: Rulings | None = None) -> tuple[GameState, list[Step]]:
    """A hero's effect that deals ``amount`` damage to each enemy nearby (:func:`enemies_nearby`, ruling
    ``nearby_pieces`` from ``rulings``), one after another in state order (:func:`suffer_damage`, with ``rulings``;
    a defeated nemesis stays where it is).

    Raises:
        ScenarioError: an unknown hero, ``amount`` outside 1..10. RuleViolation: the hero is not on the board.
    """
    if isinstance(amount, bool) or not isinstance(amount, int) or not 1 <= amount <= 10:
        raise ScenarioError("amount", f"{amount!r}", "1..10")
    h = _hero(state, hero)
    targets = enemies_nearby(state, world, hero, rulings)
    near = pieces_nearby_spaces(world, h.space, rulings)
    own = bool(near) and near[0] == h.space
    where = (f"on {h.space} itself or an adjacent space ({', '.join(near[1:])})" if own else
             f"on a space adjacent to {h.space} ({', '.join(near)}), not on {h.space} itself")
    steps = [Step(f"{hero} hits each enemy nearby for {amount} damage: "
                  + (", ".join(e.id for e in targets) or "no enemy is nearby"), S.NEARBY_AND_OVERRUN,
                  f"Nearby pieces: {where}; an enemy two or more lines away is not nearby (ruling nearby_pieces = "
                  f"{'same_and_adjacent' if own else 'adjacent_only'}).",
                  {"hit": [e.id for e in targets]}, (hero, *(e.id for e in targets)), SECTION)]
    for e in targets:
        state, more = suffer_damage(state, e.id, amount, world=world, step="ability", rulings=rulings)
        steps += more
    return state, steps


def _complete_side(state: GameState, name: str) -> tuple[GameState, list[Step]]:
    m = next(m for m in state.side_slots if m is not None and m.name == name)
    slots = tuple(None if x is not None and x.name == name else x for x in state.side_slots)
    state = state.evolve(side_slots=slots, team_up=state.team_up + m.team_up,
                         log=state.log + (f"side mission {name} completed",))
    return state, [Step(f"Side mission {name} is completed: team-up +{m.team_up} → {state.team_up}; discarded",
                        S.SIDE_MISSIONS, "Its slot is empty again.", {"mission": name, "team_up": state.team_up},
                        (name,), SECTION)]


def defy(state: GameState, hero: str, mission: str, successes: int, *, spend_empowered: bool | None = None,
         progress_per_success: int = 1) -> tuple[GameState, list[Step]]:
    """Resolve a Defy roll of ``successes`` on ``mission``: ``progress_per_success`` progress tokens per success. A
    side mission with progress >= its value is completed at once (team-up, discarded); a hero mission too
    (discarded; its hero gains the hero-specific support card). A nemesis mission or 1st strike waits for step 2 of
    the Nemesis Phase.

    Raises:
        ScenarioError: as :func:`defy_odds`; ``successes`` outside 0..60.
    """
    if not 0 <= successes <= 60:
        raise ScenarioError("successes", f"{successes!r}", "0..60")
    h = _hero(state, hero)
    m = next((x for x in state.active_missions() if x.name == mission), None)
    if m is None:
        raise ScenarioError("mission", f"no mission {mission!r} in play", [x.name for x in state.active_missions()])
    need = None
    if m.progress_value is not None:
        left = max(0, m.progress_value - m.progress)
        need = -(-left // progress_per_success)
    state, h, total, steps = _spend(state, h, successes, need, spend_empowered)
    steps.insert(0, Step(f"{hero} defies on {mission}: {plural(successes, 'success', 'successes')}", S.ASPECT_ACTIONS,
                         "Successes applied as the mission describes (here: "
                         f"{progress_per_success} progress per success).", {"successes": successes}, (hero, mission),
                         SECTION))
    state, more = place_progress(state, mission, total * progress_per_success)
    return state, steps + more


def place_progress(state: GameState, mission: str, amount: int) -> tuple[GameState, list[Step]]:
    """``amount`` progress tokens on ``mission`` (in play; Additional Rules › Missions): a side mission with progress
    >= its value is completed at once (team-up, discarded), a hero mission too (discarded; its hero gains the
    hero-specific support card); a nemesis mission or 1st strike waits for step 2 of the Nemesis Phase."""
    m = next(x for x in state.active_missions() if x.name == mission)
    m2 = evolve(m, progress=m.progress + amount)
    state = state.with_mission(m2)
    pv = "*" if m.progress_value is None else m.progress_value
    steps = [Step(f"{mission}: progress {m.progress} → {m2.progress}/{pv}", S.MISSIONS, "",
                  {"mission": mission, "progress": m2.progress}, (mission,), SECTION)]
    more = complete_with_progress(state, mission)
    return more[0], steps + more[1]


def complete_with_progress(state: GameState, mission: str) -> tuple[GameState, list[Step]]:
    """Mission ``mission`` (in play) once progress has been placed on it (Additional Rules › Missions): with
    progress >= its progress value, a side mission is completed at once (team-up, discarded: Side Missions), a hero
    mission too (discarded; its hero gains the hero-specific support card: Hero Missions); a nemesis mission or 1st
    strike waits for step 2 of the Nemesis Phase (a step saying so). Nothing below its value (or an asterisk
    mission). Steps are filed under the Hero Phase section (a caller in the Nemesis Phase re-files them)."""
    m = next(x for x in state.active_missions() if x.name == mission)
    steps: list[Step] = []
    done = m.progress_value is not None and m.progress >= m.progress_value
    if done and m.kind == "side":
        state, more = _complete_side(state, mission)
        steps += more
    elif done and m.kind == "hero":
        state = state.evolve(hero_missions=tuple(x for x in state.hero_missions if x.name != mission),
                             events=state.events + (HeroMissionCompleted(mission, m.hero),))
        steps.append(Step(f"Hero mission {mission} is completed: discarded; {m.hero or 'its hero'} gains the "
                          "hero-specific support card", S.HERO_MISSIONS, "", {"mission": mission}, (mission,),
                          SECTION))
    elif done:
        steps.append(Step(f"{mission} has enough progress: it passes when step 2 of the Nemesis Phase checks it",
                          S.NEMESIS_MISSIONS, "Nemesis missions are only completed in the Nemesis Phase.", {},
                          (mission,), SECTION))
    return state, steps


def rest(state: GameState, hero: str, rolled: int, *, recover: int | None = None,
         spend_empowered: bool = False, charge: str | None = None) -> tuple[GameState, list[Step]]:
    """Resolve a Rest roll of ``rolled`` successes: the total (rolled + the hero's automatic successes + 1 for a
    spent empowered token) is split between recover (damage removed) and charge (progress tokens for exhausted
    support cards). ``recover`` is the players' split (default: recover all the damage it can, the rest charges).
    ``charge``: ``None`` when support cards are not tracked (a ``hero`` file: the charge is only reported); in round
    play the exhausted card the turn charges (the round places the tokens in a step of its own), ``""`` for none.

    Raises:
        ScenarioError: ``rolled`` outside 0..60, ``recover`` outside 0..total.
    """
    if not 0 <= rolled <= 60:
        raise ScenarioError("rolled", f"{rolled!r}", "0..60")
    h = _hero(state, hero)
    state, h, total, steps = _spend(state, h, rolled, None, spend_empowered)
    total += h.rest_auto
    rec = min(total, h.damage) if recover is None else recover
    if not 0 <= rec <= total:
        raise ScenarioError("recover", f"{rec!r}", f"0..{total}")
    rec_applied = min(rec, h.damage)
    state = state.with_hero(evolve(h, damage=h.damage - rec_applied))
    steps.insert(0, Step(f"{hero} rests: {rolled} rolled + {h.rest_auto} automatic"
                         + (" + 1 empowered" if total - h.rest_auto != rolled else "")
                         + f" = {plural(total, 'success', 'successes')}",
                         S.ASPECT_ACTIONS, "The total can be split between recover and charge.", {"total": total},
                         (hero,), SECTION))
    split = (f"No damage to recover; charge {total - rec}" if h.damage == 0 else
             f"Recover {rec_applied}: damage {h.damage} → {h.damage - rec_applied}; charge {total - rec}")
    steps.append(Step(split,
                      S.SUPPORT_CARDS, ("Charge: progress tokens on exhausted support cards (not tracked here); a "
                                        "fully charged card is readied." if charge is None else
                                        f"Charge: progress tokens on the exhausted support card {charge} (next "
                                        "step); a fully charged card is readied." if charge else
                                        "Charge: progress tokens go on the exhausted support card a Rest names (the "
                                        "turn's charge); this turn names none, so no card is charged.")
                      + ("" if recover is not None else
                                                          " Default split: recover first."),
                      {"recover": rec_applied, "charge": total - rec}, (hero,), SECTION))
    return state, steps
