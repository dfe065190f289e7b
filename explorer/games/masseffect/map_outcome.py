"""The plain-text answer of a Mass Effect ``map`` scenario (Interacting with the Mission Map: adjacency, distances,
Line of Fire), read from its typed :class:`.map_results.MapOutcome`; :func:`.outcome.outcome_text` prints it, and
:func:`.game.outcome_text` asks for it first, so a map question's text imports none of the other kinds' outcomes
(issue 18).
"""

from __future__ import annotations

from explorer.text import plural

from .map_results import MapAnswer, MapOutcome


def _short_answer(a: MapAnswer) -> str:
    ask = a.ask
    if ask == "adjacent":
        return "adjacent" if a.verdict else "not adjacent"
    if ask == "step":
        return "may move" if a.verdict else "may not move"
    if ask == "distance":
        d = a.distance
        return "no route" if d is None else f"{d} hex{'es' if d != 1 else ''}"
    if ask in ("within", "at_least"):
        return ("yes" if a.verdict else "no") + f" (distance {a.distance})"
    if ask in ("lof", "turret_lof"):
        return ("in Line of Fire" if a.verdict else "not in Line of Fire") + (
            ", but the target is Shrouded" if a.target_shrouded else "")
    if ask == "lof_all":
        return f"{len(a.targets)} hexes in Line of Fire"
    return "answered"


def map_text(o: MapOutcome) -> list[str]:
    """The lines of a ``map`` scenario's outcome text: ``Outcome:`` and each question's short answer, then each
    answer's headline and the map's name (:func:`.outcome.outcome_text` prints them for a map trace)."""
    answers = o.answers
    head = "; ".join(f"Q{a.question} {_short_answer(a)}" for a in answers) or "no question asked"
    lines = [f"Outcome: {head}"]
    lines += [f"  {a.title}" for a in answers]
    lines.append(f"  Map: {o.map}; {plural(len(answers), 'question')}")
    return lines
