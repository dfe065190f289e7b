"""Words for the pairs of a whole Order's exact odds (:mod:`.order_odds`), shared by ``explorer tagraid order-odds``
and the Orders page (a rules-layer module: the page may not import the command line).

Sections: Orders and AROs (an ARO always targets the Active Miner); MegaBeast › Behavior ARO and Threat Level (its
Threat Level is its roll).
"""

from __future__ import annotations


def pair_words(p) -> str:
    """Who rolls against whom in one pair of an Order's exchange (a :class:`~.order_odds.PairPlan`), the Reactive
    Miner's roll named as its ARO (Orders and AROs: an ARO always targets the Active Miner): ``"W's ARO against A"``
    when only W rolls, ``"A against T's ARO"`` when both roll, ``"A against R"`` when only the Active Miner rolls;
    the Active Miner's Evade die is named as its Evade."""
    me = f"{p.active}'s Evade" if p.shared_evade else p.active
    if getattr(p, "threat_level", None) is not None:  # the MegaBeast: its Threat Level is its roll
        return {"opposed": f"{me} against {p.opponent}'s Threat Level {p.threat_level} (its Behavior ARO)",
                "no_aro": f"{me} against {p.opponent}'s Threat Level {p.threat_level} (no ARO)",
                "normal": f"{me} against {p.opponent} (no ARO: every success wounds)",
                "unopposed": f"{p.opponent}'s Behavior ARO against {p.active}, unopposed"}[p.megabeast_mode]
    if p.a.burst and p.b.burst:
        return f"{me} against {p.opponent}'s ARO"
    if p.b.burst:
        return f"{p.opponent}'s ARO against {p.active}"
    return f"{me} against {p.opponent}"


ROLL_NAMES = {"face_to_face": "Face to Face Roll", "normal_roll": "Normal Roll", "normal_evade": "Normal Evade Roll",
              "threat_level": "Roll against the Threat Level", "unopposed": "Unopposed ARO"}
"""What each pair kind of an Order's exchange is called (Rolls › Face to Face Rolls, Normal Rolls; MegaBeast ›
Threat Level; Orders and AROs)."""


def roll_name(p) -> str:
    """The name of the roll a pair makes (:data:`ROLL_NAMES`; an unknown kind as it is)."""
    return ROLL_NAMES.get(p.kind, p.kind)


def winners(o, i: int) -> list[tuple[str | None, object]]:
    """``[(winner or None for nobody, probability), ...]`` of pair ``i`` of an :class:`~.order_odds.OrderOdds`, by
    name with "nobody" last: the one order the command line and the Orders page list them in."""
    return sorted(o.winner_odds(i).items(), key=lambda kv: (kv[0] is None, str(kv[0])))
