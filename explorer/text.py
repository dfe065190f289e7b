"""Words for people in step and outcome texts (game-neutral; no rules): lists as words, counted nouns in the right
number. Step titles, details and outcome texts never show a Python list, tuple or dict, nor "1 dice" / "2 hit(s)"."""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction

IRREGULAR = {"die": "dice", "Die": "Dice", "Damage": "Damage"}
"""Plurals that do not add an ``s`` (``"Damage"`` is uncountable in every rulebook here)."""


def join_words(items: Iterable[object], word: str = "and", empty: str = "none") -> str:
    """``"rank-2, rank-3 and rank-4"``; one item alone; ``empty`` for none.

    Args:
        items: anything with a ``str``.
        word: the last joining word (``"and"``, ``"or"``, ``"then"``).
        empty: what to say for no item.
    """
    xs = [str(x) for x in items]
    if not xs:
        return empty
    return xs[0] if len(xs) == 1 else f"{', '.join(xs[:-1])} {word} {xs[-1]}"


def plural(n: int, noun: str, many: str | None = None) -> str:
    """``"1 die"``, ``"2 dice"``, ``"0 hits"``: the count and the noun in its number (``many``: the plural when it is
    not ``noun + "s"`` nor in :data:`IRREGULAR`)."""
    if n == 1:
        return f"{n} {noun}"
    return f"{n} {many or IRREGULAR.get(noun, noun + 's')}"


def percent(p: object, digits: int = 1, sep: str = "") -> str:
    """A probability ``p`` (0..1: a float, a Fraction or its text "3/5") as a percentage with ``digits`` decimals (``sep`` between the
    number and ``%``), never rounded to a claim it does not make: a non-zero chance too small to show is
    ``"<0.001 %"``, a chance short of certain that rounds to 100 is ``">99.999 %"``."""
    f = float(Fraction(p) if isinstance(p, str) else p)  # type: ignore[arg-type]
    text = f"{100 * f:.{digits}f}"
    step = f"{10 ** -digits:.{digits}f}"
    if f > 0 and float(text) == 0:
        return f"<{step}{sep}%"
    if f < 1 and float(text) >= 100:
        return f">{100 - 10 ** -digits:.{digits}f}{sep}%"
    return f"{text}{sep}%"


__all__ = ["join_words", "plural", "percent", "IRREGULAR"]


def agree(n: int, one: str, many: str) -> str:
    """The verb (or any word) that agrees with a count: ``agree(1, "is", "are")`` -> ``"is"``,
    ``agree(3, "returns", "return")`` -> ``"return"``."""
    return one if n == 1 else many
