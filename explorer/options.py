"""Ruling options: where a rulebook is silent or ambiguous, the choice is named, not guessed.

A :class:`RulingOption` lists its readings, a default, and the section that leaves the question open. A
:class:`Rulings` object holds the reading chosen for each option of a game; rules functions ask it with
``rulings.reading(key)``, which also records the consultation so traces can list every reading they used.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from .errors import ScenarioError, short_repr


@dataclass(frozen=True)
class RulingOption:
    """A named ambiguity.

    Attributes:
        key: stable identifier (``"sv_above_20"``).
        title: short question ("Success Value above 20").
        section: the rulebook section(s) that leave it open.
        readings: ``{reading name: explanation}`` in display order.
        default: the recommended reading (a key of ``readings``).
        why_default: why the default is recommended.
    """

    key: str
    title: str
    section: str
    readings: Mapping[str, str]
    default: str
    why_default: str = ""

    def __post_init__(self):
        if self.default not in self.readings:
            raise ValueError(f"default {self.default!r} of ruling option {self.key!r} is not one of its readings")


class Rulings:
    """The readings chosen for a set of :class:`RulingOption`.

    Args:
        options: every option the game knows.
        chosen: ``{key: reading}`` overriding defaults.

    Raises:
        ScenarioError: an unknown option key or reading (the message lists what is allowed).
    """

    def __init__(self, options: Iterable[RulingOption], chosen: Mapping[str, str] | None = None):
        self.options = {o.key: o for o in options}
        self._chosen = {k: o.default for k, o in self.options.items()}
        self._key: tuple | None = None
        self.consulted: dict[str, str] = {}
        for k, v in (chosen or {}).items():
            self.set(k, v)

    def set(self, key: str, reading: str) -> None:
        if key not in self.options:
            raise ScenarioError(f"rulings.{key}", "unknown ruling option", sorted(self.options))
        if reading not in self.options[key].readings:
            raise ScenarioError(f"rulings.{key}", f"unknown reading {short_repr(reading)}",
                                list(self.options[key].readings))
        self._chosen[key] = reading
        self._key = None

    def reading(self, key: str) -> str:
        """The chosen reading of ``key``; records that it was consulted."""
        value = self._chosen[key]
        self.consulted[key] = value
        return value

    def as_dict(self) -> dict[str, str]:
        return dict(self._chosen)

    def key(self) -> tuple[tuple[str, str], ...]:
        """``tuple(sorted(self.as_dict().items()))``: the chosen readings as a hashable key (kept until a reading is
        set; memo keys of LoF queries use it)."""
        if self._key is None:
            self._key = tuple(sorted(self._chosen.items()))
        return self._key

    def chosen(self, key: str) -> str | None:
        """``self.as_dict().get(key)``: the chosen reading without recording a consultation (and without a copy)."""
        return self._chosen.get(key)

    def copy(self) -> "Rulings":
        """The same readings, nothing consulted yet. The readings were checked when they were set, so the copy
        shares the (read-only) options and copies the chosen readings without checking them again (a LoF
        analysis copies rulings for every cached computation), and their memo key."""
        out = Rulings.__new__(Rulings)
        out.options = self.options
        out._chosen = dict(self._chosen)
        out._key = self.key()  # sorted once here and shared: every copy of these readings has the same key
        out.consulted = {}
        return out
