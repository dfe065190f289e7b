"""Dice rollers.

A roller hands out die faces one at a time. Rules functions take a roller, never a global RNG, so a resolution
is reproducible: :class:`SeededRoller` for random-but-repeatable play, :class:`ScriptedRoller` for the dice a
player actually rolled at the table (or a rulebook example).

>>> r = ScriptedRoller([5, 7, 15])
>>> [r.roll(20, "A die 1"), r.roll(20, "A die 2"), r.roll(20, "A die 3")]
[5, 7, 15]
>>> r.roll(20, "B die 1")
Traceback (most recent call last):
...
explorer.errors.DiceScriptExhausted: the dice script ran out: 3 values were given, a 4th die was needed for 'B die 1'
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Protocol, runtime_checkable

from .errors import DiceScriptExhausted, ScenarioError, short_repr
from .text import plural


@runtime_checkable
class Roller(Protocol):
    """Anything that can roll one die: ``roll(sides, label) -> face`` with ``1 <= face <= sides``."""

    def roll(self, sides: int = 20, label: str = "") -> int: ...


class SeededRoller:
    """Uniform random faces from a private ``random.Random(seed)``; the same seed gives the same dice."""

    def __init__(self, seed: int | None = None):
        self.seed = seed
        self._rng = random.Random(seed)

    def roll(self, sides: int = 20, label: str = "") -> int:
        return self._rng.randint(1, sides)


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


class ScriptedRoller:
    """Faces taken in order from a fixed script (the dice rolled at the table).

    Raises:
        ScenarioError: at construction, if a value is not an integer die face in ``1..max_face``.
        DiceScriptExhausted: when more dice are asked for than the script holds; the message names the die.
    """

    def __init__(self, values: Iterable[int], max_face: int = 20, field: str = "dice"):
        self.values = list(values)
        for i, v in enumerate(self.values):
            if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= max_face:
                raise ScenarioError(f"{field}[{i}]", f"{short_repr(v)} is not a d{max_face} face",
                                    f"whole numbers 1 to {max_face}")
        self.used = 0

    def roll(self, sides: int = 20, label: str = "") -> int:
        if self.used >= len(self.values):
            raise DiceScriptExhausted(
                f"the dice script ran out: {plural(len(self.values), 'value')} "
                f"{'was' if len(self.values) == 1 else 'were'} given, "
                f"a {_ordinal(self.used + 1)} die was needed" + (f" for '{label}'" if label else ""))
        v = self.values[self.used]
        if v > sides:
            raise ScenarioError(f"dice[{self.used}]", f"{v} cannot be rolled on a d{sides}", f"1 to {sides}")
        self.used += 1
        return v

    @property
    def remaining(self) -> int:
        return len(self.values) - self.used
