"""Numbers on the command line: plain ASCII decimal only (issue #25).

Python's ``int()`` takes ``' 3'``, ``'+7'``, ``'1_0'``, full-width ``'３'`` and Arabic-Indic ``'٣'``; a number typed
on the command line is none of those, and a value that only looks like a number (a pasted full-width digit, a
stray space) is more likely a slip than an intent. Every numeric option reads its value through :func:`plain_int`
(or the click type :class:`PlainInt`), so each refusal is one line naming the option.

Imports only ``re`` and click (the command line starts without pydantic: ``benchmarks/bench_cli_start.py``).
"""

from __future__ import annotations

import re

import click

MAX_DIGITS = 100
"""The most digits a number on the command line may have: more than any option's range needs (the largest seed,
``2**63 - 1``, has 19), so that a long number is refused as out of range by its option, and far below Python's
int/str digit limit (4,300)."""

from .dice import SEED_MAX  # noqa: E402,F401 - the one seed bound lives with the dice (rules layer); re-exported

_PLAIN = re.compile(r"-?[0-9]{1,%d}" % MAX_DIGITS)
_SIGNED = re.compile(r"[-+]?[0-9]{1,%d}" % MAX_DIGITS)

PLAIN_WORDS = "ASCII digits with an optional leading minus; no spaces, '+', '_' or other scripts' digits"
"""What :func:`plain_int` accepts, in words (for messages)."""


def is_plain_int(text: object, *, plus: bool = False) -> bool:
    """Whether ``text`` is a ``str`` of 1 to :data:`MAX_DIGITS` ASCII digits with an optional leading ``-`` (and
    ``+`` when ``plus``: a MOD such as ``Range=+3`` is written with its sign)."""
    return isinstance(text, str) and (_SIGNED if plus else _PLAIN).fullmatch(text) is not None


def plain_int(text: str, option: str, allowed: str, *, plus: bool = False) -> int:
    """``text`` as an int if it is a plain ASCII decimal (:func:`is_plain_int`).

    Raises:
        ScenarioError: naming ``option``, the value and ``allowed`` (one line).
    """
    if not is_plain_int(text, plus=plus):
        from .errors import ScenarioError, short_repr

        sign = "'+' or '-'" if plus else "'-'"
        raise ScenarioError(option, f"{short_repr(text)} is not a plain whole number (ASCII digits, an optional "
                            f"leading {sign}; no spaces, '_' or other scripts' digits)", allowed)
    return int(text)


class PlainInt(click.ParamType):
    """A click type: a plain ASCII decimal whole number from ``lo`` to ``hi`` (:func:`is_plain_int`); click's usage
    error (one line naming the option) otherwise. ``lo``/``hi`` ``None``: no range check here (the command checks
    the range itself, with its own message). Defaults given as ints pass through unchecked."""

    name = "integer"

    def __init__(self, lo: int | None = None, hi: int | None = None) -> None:
        self.lo, self.hi = lo, hi

    def convert(self, value, param, ctx):  # noqa: ANN001 - click's signature
        if isinstance(value, int) and not isinstance(value, bool):
            n = value
        elif is_plain_int(value):
            n = int(value)
        else:
            self.fail(f"{str(value)[:40]!r} is not a plain whole number ({PLAIN_WORDS})", param, ctx)
        if self.lo is not None and self.hi is not None and not self.lo <= n <= self.hi:
            self.fail(f"{n} is not in the range {self.lo}..{self.hi}", param, ctx)
        return n

    def get_metavar(self, param, ctx=None):  # noqa: ANN001 - click's signature (ctx added in click 8.2)
        return "INTEGER" if self.lo is None or self.hi is None else f"INTEGER {self.lo}..{self.hi}"


def seed_option() -> PlainInt:
    """The click type of every ``--seed`` option: a plain whole number 0..:data:`SEED_MAX`."""
    return PlainInt(0, SEED_MAX)


def check_step(at: int, steps: int, scenario: str) -> None:
    """``step --at``: ``at`` must be 1..``steps`` (the cited steps of ``scenario``'s play).

    Raises:
        ScenarioError: naming ``--at``, whether it is too small or too large, and ``scenario``'s range.
    """
    if 1 <= at <= steps:
        return
    from .errors import ScenarioError

    raise ScenarioError("--at", f"{at} is too {'small' if at < 1 else 'large'}",
                        f"1..{steps}, the cited steps of {scenario}'s play")
