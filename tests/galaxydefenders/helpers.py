"""Shared helpers for the Galaxy Defenders tests: scenario loading and a brute-force enumerator of every random
choice the engine makes (a roller that replays a prefix of choices and signals when it needs a new one)."""

from __future__ import annotations

from fractions import Fraction

from explorer.games import get_game
from explorer.games.galaxydefenders.combat import TableDice, resolve_attack


def builtin(name: str):
    """``(kind, scenario)`` of a built-in scenario."""
    return get_game("galaxydefenders").load_builtin(name)


def resolve(name: str, **rulings):
    g = get_game("galaxydefenders")
    return g.resolve(g.load_builtin(name), rulings=rulings)


class _Branch(Exception):
    def __init__(self, sides: int):
        self.sides = sides


class PrefixRoller:
    """Returns the choices of ``prefix`` in order, then raises :class:`_Branch` with the number of sides asked."""

    def __init__(self, prefix: list[int]):
        self.prefix, self.i = prefix, 0

    def roll(self, sides: int = 20, label: str = "") -> int:
        if self.i < len(self.prefix):
            v = self.prefix[self.i]
            self.i += 1
            return v
        raise _Branch(sides)


def brute_force(target, attack, cal, high_impact=True, rulings=None):
    """``{(hit wounds, all wounds, status, critical id): Fraction}`` by enumerating every die face and every
    Critical token drawn (each draw uniform over the tokens left in the pile), running the engine's own
    :func:`resolve_attack` on each path."""
    from explorer.games.galaxydefenders.options import rulings as make_rulings

    out: dict = {}
    stack: list[tuple[list[int], Fraction]] = [([], Fraction(1))]
    while stack:
        prefix, p = stack.pop()
        try:
            state, results, _, _ = resolve_attack({target.name: target}, attack,
                                                  TableDice(cal, None, PrefixRoller(prefix)), high_impact,
                                                  make_rulings(rulings or {}))
        except _Branch as b:
            for v in range(1, b.sides + 1):
                stack.append((prefix + [v], p / b.sides))
            continue
        r = results[0]
        key = (r.hit_wounds, r.wounds, state[target.name].status(), r.critical)
        out[key] = out.get(key, 0) + p
    return out


def play_turn(target, attacks, dice, high_impact=True, rulings=None):
    """Every attack of ``attacks`` in order on ``target`` through the engine's own :data:`COMBAT_SEQUENCE` (the
    ``combat`` kind's several attacks, the target carried from one to the next), each attack's dice from ``dice``
    (one roller shared by all): ``(hit wounds, all wounds, status after, (Critical id or None per attack))``."""
    from explorer.dice import Dice
    from explorer.games.galaxydefenders.calibration import default_calibration
    from explorer.games.galaxydefenders.combat import COMBAT_SEQUENCE, CombatContext, CombatState, CriticalPiles
    from explorer.games.galaxydefenders.options import rulings as make_rulings
    from explorer.kernel import run

    cal = default_calibration()
    shared = Dice(roller=dice)
    r = make_rulings(rulings or {})
    piles = CriticalPiles(cal, rulings=r)        # one set of piles for the turn, as combat_frames shares it (8.2)
    ctx = CombatContext(rulings=r, dice=shared, attacks=tuple(attacks),
                        tables=tuple(TableDice(cal, None, shared, piles=piles) for _ in attacks),
                        high_impact=high_impact,
                        sections=True)
    after, _ = run(CombatState((target,), numbers=tuple(range(1, len(attacks) + 1))), COMBAT_SEQUENCE, ctx)
    mine = [next((r for r in a.results if r.name == target.name), None) for a in after.done]
    return (sum(r.hit_wounds for r in mine if r), sum(r.wounds for r in mine if r),
            after.target(target.name).status(), tuple(r.critical if r else None for r in mine))


def brute_force_turn(target, attacks, high_impact=True, rulings=None):
    """``{TurnOutcome: Fraction}`` by enumerating every die face and Critical token drawn by every attack of the
    turn, each path played by :func:`play_turn` (the engine's own sequence)."""
    out: dict = {}
    stack: list[tuple[list[int], Fraction]] = [([], Fraction(1))]
    while stack:
        prefix, p = stack.pop()
        try:
            key = play_turn(target, attacks, PrefixRoller(prefix), high_impact, rulings)
        except _Branch as b:
            for v in range(1, b.sides + 1):
                stack.append((prefix + [v], p / b.sides))
            continue
        out[key] = out.get(key, 0) + p
    return out
