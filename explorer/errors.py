"""Typed, user-facing errors.

Every error the engine raises for bad input or an illegal declaration is an :class:`ExplorerError`, whose
``str()`` is a complete sentence a user can act on (what was wrong, what is allowed). Views show the message in
place and keep the user's input.
"""

from __future__ import annotations

from collections.abc import Iterable


class ExplorerError(Exception):
    """Base class of every error meant to be shown to a user."""


class ScenarioError(ExplorerError, ValueError):
    """A scenario (file, CLI options or widget input) is malformed.

    Attributes:
        field: dotted path of the offending field, e.g. ``"active.burst"`` (``""`` for the whole document).
        problem: what is wrong with it.
        allowed: what would be accepted (free text or an enumeration), or ``None``.
        source: where the input came from (a file path, ``"--sv-a"``, ``"widget"``...), or ``None``.
    """

    def __init__(self, field: str, problem: str, allowed: str | Iterable[str] | None = None,
                 source: str | None = None):
        if allowed is not None and not isinstance(allowed, str):
            allowed = "one of " + ", ".join(repr(a) for a in allowed)
        self.field, self.problem, self.allowed, self.source = field, problem, allowed, source
        where = f"{source}: " if source else ""
        what = f"field '{field}'" if field else "scenario"
        msg = f"{where}{what}: {problem}"
        if allowed:
            msg += f" (allowed: {allowed})"
        super().__init__(msg)


class DiceScriptExhausted(ExplorerError):
    """A :class:`~explorer.dice.ScriptedRoller` was asked for more dice than its script holds."""


class RuleViolation(ExplorerError):
    """A declaration the rules do not allow (e.g. a Ranged Attack without LoF). Says which rule forbids it."""

    def __init__(self, message: str, section: str | None = None):
        self.section = section
        super().__init__(f"{message} [{section}]" if section else message)


class ServeError(ExplorerError):
    """``explorer serve`` cannot listen where asked (port in use, address not of this machine, no permission).
    The message is one sentence saying what to change (``--port`` or ``--address``)."""
