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
