"""The typed outcome of a Mass Effect ``map`` scenario (Interacting with the Mission Map): :class:`MapOutcome` and
one :class:`MapAnswer` per question.

On their own (and re-exported by :mod:`.results` with the other kinds' outcomes) so that answering a map question,
and its outcome text, import none of the 26 dataclasses of the other kinds (issue 18: every verb under 150 ms).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from explorer.kernel import Outcome

__all__ = ["MapAnswer", "MapOutcome"]


@dataclass(frozen=True)
class MapAnswer:
    """One question of a ``map`` scenario answered (Interacting with the Mission Map).

    Attributes:
        question: its number, from 1; ``ask``: the question kind (``adjacent``, ``step``, ``distance``, ``within``,
            ``at_least``, ``lof``, ``turret_lof``, ``lof_all``); ``a``, ``b``: the characters or hexes asked about.
        label: the question's own label (``""``: none); ``edit``: the map edit it was asked on (JSON), or ``None``.
        verdict: the yes/no answer (adjacent, may move, within, at least, in Line of Fire), ``None`` for
            ``distance`` and ``lof_all``.
        distance: hexes counted (``distance``, ``within``, ``at_least``), ``None``: no route or not asked.
        target_shrouded: in Line of Fire, but the target hex is in a Shrouded area.
        targets, characters: ``lof_all``: every hex in Line of Fire, and the characters standing in them.
        title: the answer's headline (the trace step's title, ``"Q1: ..."``).
    """

    question: int
    ask: str
    a: str | None
    b: str | None
    label: str = ""
    edit: Mapping[str, Any] | None = None
    verdict: bool | None = None
    distance: int | None = None
    target_shrouded: bool = False
    targets: tuple[str, ...] = ()
    characters: tuple[str, ...] = ()
    title: str = ""

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"question": self.question, "ask": self.ask, "a": self.a, "b": self.b}
        if self.label:
            d["label"] = self.label
        if self.edit is not None:
            d["edit"] = self.edit
        if self.ask == "adjacent":
            d["adjacent"] = self.verdict
        elif self.ask == "step":
            d["allowed"] = self.verdict
        elif self.ask == "distance":
            d["distance"] = self.distance
        elif self.ask in ("within", "at_least"):
            d[self.ask] = self.verdict
            d["distance"] = self.distance
        elif self.ask in ("lof", "turret_lof"):
            d["in_lof"] = self.verdict
            if self.target_shrouded:
                d["target_shrouded"] = True
        elif self.ask == "lof_all":
            d["targets"] = list(self.targets)
            d["characters"] = list(self.characters)
        return d


@dataclass(frozen=True)
class MapOutcome(Outcome):
    """A ``map`` scenario's answers: the map's name (``"inline"`` for an inline map) and one :class:`MapAnswer` per
    question."""

    map: str
    answers: tuple[MapAnswer, ...]
    kind = "map"

    def to_json(self) -> dict[str, Any]:
        return {"map": self.map, "answers": [a.to_json() for a in self.answers]}
