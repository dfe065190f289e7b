"""Predict first: the tutorials ask for a guess before they reveal the engine's answer, then check it in code.

>>> check_guess("Who wins", "A", "B")
Who wins: you guessed 'A'; the engine says 'B'
>>> check_guess("Saving Rolls", 2, 2)
Saving Rolls: you guessed 2, right
"""

from __future__ import annotations


def check_guess(question: str, guess: object, answer: object) -> None:
    """Compare a reader's ``guess`` with the engine's ``answer`` (``==``) and print one line saying whether they agree
    (returns nothing, so a notebook cell ending with it shows only that line). ``question`` names what was asked (a
    short phrase). A wrong guess is never an error: the guess is the reader's; the tutorials' ``assert`` lines check
    the rules."""
    if guess == answer:
        print(f"{question}: you guessed {guess!r}, right")
    else:
        print(f"{question}: you guessed {guess!r}; the engine says {answer!r}")
