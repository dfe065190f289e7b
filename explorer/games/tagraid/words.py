"""TAG Raid outcomes in words, shared by ``explorer resolve`` (:mod:`.game`) and the pages (:mod:`.views`): a rules
module, so a page reads them without importing its game module (docs/design.md, "Layers")."""

from __future__ import annotations


def states_text(states) -> str | None:
    """The States entered at the end of the Order (``RollOutcome.states``, ``{target: States}``; States; Order
    Expenditure Sequence step 5.3) as ``"T Slowed"`` / ``"T Slowed, Stunned; B Immobilized"``, ``"none"`` when an
    attack could cause one and none was entered, or ``None`` when no attack of the scenario causes a State
    (``states`` is ``None``)."""
    if states is None:
        return None
    entered = {k: v for k, v in states.items() if v}
    return "; ".join(f"{k} {', '.join(v)}" for k, v in entered.items()) or "none"
