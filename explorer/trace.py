"""Traces: the explained result of resolving a scenario.

A :class:`Trace` is an ordered list of :class:`Step`; each step names the rulebook section that decides it
(:class:`RuleRef`). Views render traces (text for the CLI, JSON for scripts, HTML for notebooks); the engine
never formats for a particular UI.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace
from typing import Any


@dataclass(frozen=True)
class RuleRef:
    """A rulebook section: ``game`` (short name, e.g. ``"TAG Raid"``) and ``section`` (its title, e.g.
    ``"Rolls › Face to Face Rolls"``)."""

    game: str
    section: str

    def __str__(self) -> str:
        return f"{self.game}: {self.section}"


class Facts(dict):
    """The machine-readable values of a :class:`Step` (JSON-serialisable), read-only once the step exists.

    Facts are an *output*: ``explorer resolve --json`` and scripts read them. Nothing in the engine, the pictures or
    the pages reads a fact back (they read the typed state of a :class:`~explorer.kernel.Frame` instead; a test
    scans ``explorer/`` for it). A ``dict`` subclass so that ``json`` writes it unchanged; every mutating method
    raises ``TypeError``.
    """

    __slots__ = ()

    def _readonly(self, *args, **kwargs):
        raise TypeError("a step's facts are read-only once the step exists (build a new Step with replace())")

    __setitem__ = __delitem__ = __ior__ = _readonly  # type: ignore[assignment]
    clear = pop = popitem = setdefault = update = _readonly  # type: ignore[assignment]

    def __copy__(self) -> dict[str, Any]:
        return dict(self)

    def __deepcopy__(self, memo) -> dict[str, Any]:
        import copy

        return copy.deepcopy(dict(self), memo)

    def __reduce__(self):
        return (Facts, (dict(self),))


EMPTY_FACTS = Facts()


@dataclass(frozen=True, slots=True)
class Step:
    """One explained resolution step: an immutable value (build a changed copy with :func:`dataclasses.replace` or
    :meth:`in_section`).

    Attributes:
        title: short headline ("A's 10 cancels B's 5 and 7").
        rule: the section that decides this step.
        detail: a paraphrase of why (never rulebook text beyond a short quoted phrase).
        facts: machine-readable values of the step (JSON-serialisable, read-only :class:`Facts`), e.g.
            ``{"sv": 12}``; given as any mapping, stored as :class:`Facts`.
        marks: identifiers of what the step talks about (dice ids, model names, hexes) so views can highlight them.
        section: the trace section this step belongs to (e.g. ``"Success Values"``, ``"Saving Rolls"``).
    """

    title: str
    rule: RuleRef
    detail: str = ""
    facts: Facts = field(default_factory=Facts)
    marks: tuple[str, ...] = ()
    section: str = ""

    def __post_init__(self) -> None:
        if type(self.facts) is not Facts:
            object.__setattr__(self, "facts", Facts(self.facts or ()))
        if type(self.marks) is not tuple:
            object.__setattr__(self, "marks", tuple(self.marks))

    def in_section(self, section: str) -> "Step":
        """This step filed under another trace ``section`` (a new step; this one is unchanged)."""
        return replace(self, section=section)

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["rule"] = {"game": self.rule.game, "section": self.rule.section}
        d["marks"] = list(self.marks)
        return d


@dataclass
class Trace:
    """An ordered list of steps plus the ruling readings used and the final outcome.

    Attributes:
        title: what was resolved.
        steps: the steps in resolution order.
        rulings: ``{option key: reading name}`` for every ruling option the resolution consulted.
        outcome: JSON-serialisable summary of the result (winner, saving rolls, wounds...): what ``--json``,
            scripts and the golden files read. Written from :attr:`result` by :meth:`with_result`.
        result: the typed outcome of the scenario kind (a frozen dataclass with ``to_json()``, see
            :class:`explorer.kernel.Outcome`), or ``None`` where a kind has none yet. Code reads this, never
            ``outcome`` by key.
    """

    title: str
    steps: list[Step] = field(default_factory=list)
    rulings: dict[str, str] = field(default_factory=dict)
    outcome: dict[str, Any] = field(default_factory=dict)
    result: Any = None

    def with_result(self, result: Any) -> "Trace":
        """Set the typed :attr:`result` and the JSON :attr:`outcome` written from it (``result.to_json()``);
        returns this trace."""
        self.result = result
        self.outcome = result.to_json()
        return self

    def add(self, title: str, rule: RuleRef, detail: str = "", *, section: str = "", marks=(), **facts) -> Step:
        step = Step(title, rule, detail, dict(facts), tuple(marks), section)
        self.steps.append(step)
        return step

    def sections(self) -> list[str]:
        seen: list[str] = []
        for s in self.steps:
            if s.section not in seen:
                seen.append(s.section)
        return seen

    def to_dict(self) -> dict[str, Any]:
        return {"title": self.title, "rulings": dict(self.rulings), "outcome": self.outcome,
                "steps": [s.to_dict() for s in self.steps]}

    def to_json(self, **kw) -> str:
        import json   # here, not at the top: a text answer needs no JSON encoder

        return json.dumps(self.to_dict(), **({"indent": 2} | kw))

    def to_text(self) -> str:
        lines = [self.title, "=" * len(self.title)]
        current = None
        n = 0
        for s in self.steps:
            if s.section != current:
                current = s.section
                if current:
                    lines += ["", f"## {current}"]
            n += 1
            lines.append(f"{n:>2}. {s.title}  [{s.rule}]")
            if s.detail:
                lines.append(f"    {s.detail}")
        if self.rulings:
            lines += ["", "Ruling options used:"]
            lines += [f"  - {k} = {v}" for k, v in sorted(self.rulings.items())]
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        import html   # here: html.entities is a large table no command-line answer needs

        out = [f"<div class='explorer-trace'><h4>{html.escape(self.title)}</h4><ol>"]
        for s in self.steps:
            out.append(f"<li><b>{html.escape(s.title)}</b> <i>[{html.escape(str(s.rule))}]</i>"
                       + (f"<br>{html.escape(s.detail)}" if s.detail else "") + "</li>")
        out.append("</ol>")
        if self.rulings:
            out.append("<p>Ruling options: " + ", ".join(
                f"<code>{html.escape(k)}={html.escape(v)}</code>" for k, v in sorted(self.rulings.items())) + "</p>")
        out.append("</div>")
        return "".join(out)

    def __str__(self) -> str:
        return self.to_text()
