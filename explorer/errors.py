"""Typed, user-facing errors.

Every error the engine raises for bad input or an illegal declaration is an :class:`ExplorerError`, whose
``str()`` is a complete sentence a user can act on (what was wrong, what is allowed). Views show the message in
place and keep the user's input.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

MAX_VALUE_CHARS = 80
"""A value quoted in a message is cut to this many characters (then "…")."""
MAX_SOURCE_CHARS = 120
"""A file path (or other source) named in a message is cut to this many characters, keeping both ends."""
MAX_FIELD_CHARS = 160
"""The field path named in a message is cut to this many characters (it may hold a user's key)."""
MAX_PART_CHARS = 600
"""Each part of a :class:`ScenarioError` message (field, problem, allowed) is cut to this many characters."""

# C0/C1 controls, line/paragraph separators, zero-width and bidirectional formatting characters: shown escaped
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u00ad\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\ufeff]")


def escape_controls(text: str) -> str:
    """``text`` with every control / invisible formatting character written as an escape (``\\n``, ``\\x1b``,
    ``\\u2028``), so that a message stays on one visible line and shows what is really there."""
    def esc(m: re.Match[str]) -> str:
        c = m.group()
        return {"\n": "\\n", "\r": "\\r", "\t": "\\t"}.get(c) or (
            f"\\x{ord(c):02x}" if ord(c) < 0x100 else f"\\u{ord(c):04x}")
    return _CONTROL.sub(esc, text)


def shorten(text: str, limit: int = MAX_VALUE_CHARS) -> str:
    """``text`` with control characters escaped (:func:`escape_controls`) and cut to ``limit`` characters with a
    trailing "…" when longer."""
    text = escape_controls(text[: limit * 8] if len(text) > limit * 8 else text)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def shorten_middle(text: str, limit: int = MAX_SOURCE_CHARS) -> str:
    """Like :func:`shorten` but keeps both ends (for file paths: the directory start and the file name)."""
    if len(text) > limit * 8:
        text = text[: limit * 4] + text[-limit * 4:]
    text = escape_controls(text)
    if len(text) <= limit:
        return text
    head = (limit - 1) // 2
    return text[:head] + "…" + text[len(text) - (limit - 1 - head):]


def short_repr(value: Any, limit: int = MAX_VALUE_CHARS) -> str:
    """A bounded, one-line ``repr`` of a user-given value for messages: long strings and containers are cut with
    "…", integers too long to print in full are described by their digit count (``an integer of 5000 digits``), and
    control characters are escaped. Never raises (deeply nested or huge values included)."""
    if isinstance(value, bool) or value is None:
        return repr(value)
    if isinstance(value, int):
        if value.bit_length() > 3.33 * limit:  # more digits than the limit: never build the decimal string
            digits = int((abs(value).bit_length() - 1) * 0.30103) + 1  # within one of the exact count
            return f"an integer of about {digits} digits"
        return shorten(repr(value), limit)
    if isinstance(value, str):
        return shorten(repr(value[: limit * 2]), limit)
    if isinstance(value, (list, tuple, dict)):
        import reprlib

        r = reprlib.Repr()
        r.maxlevel, r.maxlist, r.maxtuple, r.maxdict, r.maxstring, r.maxother = 3, 6, 6, 6, 40, 40
        r.repr_int = lambda x, level: short_repr(x, 40)  # type: ignore[method-assign]
        try:
            return shorten(r.repr(value), limit)
        except Exception:  # pragma: no cover - defensive: a message must never fail
            return f"a {type(value).__name__}"
    try:
        return shorten(repr(value), limit)
    except Exception:  # pragma: no cover
        return f"a {type(value).__name__}"


class ExplorerError(Exception):
    """Base class of every error meant to be shown to a user."""


PAGE_SOURCE = "widget"
"""The ``source`` of input typed into a page's fields: the message does not start with it (the page shows the message
beside or above the field it names, so ``widget: field 'a.mod': ...`` only repeated where the user already is)."""


class ScenarioError(ExplorerError, ValueError):
    """A scenario (file, CLI options or widget input) is malformed.

    The message is always one line of bounded length: control characters in any part are escaped, the source is cut
    to :data:`MAX_SOURCE_CHARS` (keeping both ends), the field to :data:`MAX_FIELD_CHARS` and the other parts to
    :data:`MAX_PART_CHARS`; the attributes hold the cleaned parts.

    Attributes:
        field: dotted path of the offending field, e.g. ``"active.burst"`` (``""`` for the whole document).
        problem: what is wrong with it.
        allowed: what would be accepted (free text or an enumeration), or ``None``.
        source: where the input came from (a file path, ``"--sv-a"``, :data:`PAGE_SOURCE`...), or ``None``. The
            message starts with it, except for :data:`PAGE_SOURCE`.
    """

    def __init__(self, field: str, problem: str, allowed: str | Iterable[str] | None = None,
                 source: str | None = None):
        if allowed is not None and not isinstance(allowed, str):
            allowed = "one of " + ", ".join(short_repr(a) for a in allowed)
        field = shorten(str(field), MAX_FIELD_CHARS)
        problem = shorten(str(problem), MAX_PART_CHARS)
        allowed = None if allowed is None else shorten(allowed, MAX_PART_CHARS)
        source = None if source is None else shorten_middle(str(source))
        self.field, self.problem, self.allowed, self.source = field, problem, allowed, source
        where = f"{source}: " if source and source != PAGE_SOURCE else ""
        what = f"field '{field}'" if field else "scenario"
        msg = f"{where}{what}: {problem}"
        if allowed:
            msg += f" (allowed: {allowed})"
        super().__init__(msg)


    def with_source(self, source: str) -> "ScenarioError":
        """This error (same class, field, problem and allowed values) naming ``source``: the file it came from, for
        an error raised while resolving a scenario whose parts no longer know their file (:func:`naming_source`)."""
        base = str(self)
        if self.source and self.source != PAGE_SOURCE and base.startswith(f"{self.source}: "):
            base = base[len(self.source) + 2:]
        new = type(self).__new__(type(self))   # not copy.copy: an exception is copied by calling its class again
        new.__dict__.update(self.__dict__)
        new.source = shorten_middle(str(source))
        new.args = (f"{new.source}: {base}",)   # a refusal without a field keeps its [Section]
        return new


@contextmanager
def naming_source(source: str | None):
    """The one gate between a loaded file and what resolves it: a :class:`ScenarioError` (a
    :class:`RuleViolation` too) raised inside that names no source is raised again naming ``source``
    (:meth:`ScenarioError.with_source`); one that names its own, or a page's input, passes unchanged. ``None``:
    nothing is changed."""
    try:
        yield
    except ScenarioError as e:
        if source is None or e.source:
            raise
        raise e.with_source(source) from e


class DiceScriptExhausted(ExplorerError):
    """A :class:`~explorer.dice.ScriptedRoller` was asked for more dice than its script holds."""


@dataclass(frozen=True)
class Rejection:
    """Why a declaration is not allowed, as data (what a stepper shows where the play stopped).

    Attributes:
        step: the sequence step that refused it (``"2.2 ARO declaration"``), or ``""``.
        field: the declaration's field path (``"order.aros[0].skill"``), or ``""``.
        reason: what is wrong, one clause.
        rule: the section that forbids it (a :class:`~explorer.trace.RuleRef` or a section title), or ``None``.
    """

    step: str
    field: str
    reason: str
    rule: Any = None

    def __str__(self) -> str:
        where = f" ({self.step})" if self.step else ""
        return f"not allowed{where}: {self.reason}" + (f" [{self.rule}]" if self.rule else "")


class RuleViolation(ScenarioError):
    """The one refusal of every game: a declaration the rules do not allow (a Ranged Attack without LoF, a second
    token in a full slot, a Move longer than its Movement Points). Names the rule, the field and the reason.

    Args:
        reason: what is wrong (one clause, no trailing period).
        rule: the section that forbids it: a :class:`~explorer.trace.RuleRef` or a section title (``str``).
        field: the declaration's field path in its file, or ``""`` when the refusal is not tied to one field.
        step: the sequence step that refuses it, or ``""``.
        source: the file or input it came from, or ``None``.
        allowed: the values the field would take at that point (a list, or free text), or ``None``.

    The message: with a ``field``, the one-line form of :class:`ScenarioError` (``src: field 'f': not allowed
    (step): reason (allowed: see Game: Section)``; with ``allowed``, the values the field may take at that point
    first: ``(allowed: one of '', 'A'; see Game: Section)``, an empty list ``none here``); without, ``reason
    [Section]``.

    Attributes:
        rejection: the refusal as data (:class:`Rejection`).
        section: the section title (``str``) or ``None``; ``rule`` the reference as given.
    """

    def __init__(self, reason: str, rule: Any = None, *, field: str = "", step: str = "",
                 source: str | None = None, allowed: str | Iterable[str] | None = None):
        self.rule = rule
        self.section = getattr(rule, "section", rule)
        self.reason = reason
        self.step = step
        self.rejection = Rejection(step, field, reason, rule)
        if field:
            problem = f"not allowed ({step}): {reason}" if step else f"not allowed: {reason}"
            if allowed is not None and not isinstance(allowed, str):
                allowed = ("one of " + ", ".join(short_repr(a) for a in allowed)) if allowed else "none here"
            see = f"see {rule}" if rule else None
            super().__init__(field, problem, f"{allowed}; {see}" if allowed and see else allowed or see, source)
        else:
            ExplorerError.__init__(self, f"{reason} [{self.section}]" if rule else reason)
            self.field, self.problem, self.allowed = "", reason, None
            self.source = None if source is None else shorten_middle(str(source))

    @classmethod
    def of(cls, rejection: Rejection, source: str | None = None) -> "RuleViolation":
        """The refusal of a :class:`Rejection` (from a file: ``source`` names it)."""
        return cls(rejection.reason, rejection.rule, field=rejection.field, step=rejection.step, source=source)


class ServeError(ExplorerError):
    """``explorer serve`` cannot listen where asked (port in use, address not of this machine, no permission).
    The message is one sentence saying what to change (``--port`` or ``--address``)."""
