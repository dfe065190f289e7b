"""The MegaBeast's redirection during the Conclusion of an Order.

Sections: Activating a Miner › Order Expenditure Sequence, step 5.2 (Conclusion); MegaBeast › Skills, Attacks, and
AROs (if it has not declared an ARO and was targeted by an Attack, or a TAG became active in an adjacent Hexagon, it
redirects itself so as to have the Active Miner and the highest number of TAGs possible in its Angle of Vision);
MegaBeast › Deployment and Movement Type (facing).

Facings a MegaBeast may take: the directions of its hexagon's corners (the Threat Level sides come in pairs about
its facing: :func:`explorer.games.tagraid.megabeast.side_pairs`). Ties between facings with as many TAGs: the one
closest to its current facing (a documented default: the rulebook does not break the tie), then the lowest angle.
"""

from __future__ import annotations

from dataclasses import replace

import shapely

from explorer.hexgrid import neighbors
from explorer.trace import Step

from .. import sections as S
from ..megabeast import corner_angles
from ..pieces import disc_in_arc
from .state import OrderState


def _angle_gap(a: float, b: float) -> float:
    d = abs((a - b) % 360.0)
    return min(d, 360.0 - d)


def best_facing(state: OrderState) -> tuple[float, dict[float, int]]:
    """The facing (degrees) with the Active Miner and the most TAGs in the MegaBeast's Angle of Vision, and the TAG
    count of every candidate facing that has the Active Miner in it."""
    mb = state.megabeast
    table = state.table()
    arc = 360.0 if mb.behavior.angle_of_vision is None else mb.behavior.angle_of_vision
    tags = [m for m in state.miners if m.on_table and m.miner_type == "TAG"]
    counts = {}
    for f in corner_angles(state.geometry.layout):
        if not disc_in_arc((mb.x, mb.y), f, arc, table.disc(state.active)):
            continue
        counts[round(f % 360.0, 9)] = sum(1 for t in tags if disc_in_arc((mb.x, mb.y), f, arc, table.disc(t.id)))
    if not counts:
        return mb.facing, counts
    top = max(counts.values())
    best = min((f for f, c in counts.items() if c == top), key=lambda f: (_angle_gap(f, mb.facing), f))
    return best, counts


def adjacent_during_activation(state: OrderState) -> bool:
    """Whether the Active Miner was, at some point of its Order, in a Hexagon adjacent to the MegaBeast's (its base
    at least partly inside one: Interaction with Areas and Silhouettes)."""
    mb = state.megabeast
    table = state.table()
    geo = state.geometry
    ring = neighbors(geo.hex_of(mb.x, mb.y))
    r = table.disc(state.active).r
    polys = [table.hex_polygon(h) for h in ring]
    for route in state.routes:
        path = shapely.LineString(route).buffer(r) if len(route) > 1 else shapely.Point(route[0]).buffer(r)
        if any(path.intersection(p).area > 1e-9 for p in polys):
            return True
    return False


def conclusion_redirect(state: OrderState) -> tuple[OrderState, tuple[Step, ...]]:
    """Step 5.2: redirect the MegaBeast when it declared no ARO and was targeted, or the Active TAG was in an
    adjacent Hexagon at some point of its activation."""
    mb = state.megabeast
    sec = "5.2 Conclusion"
    if mb is None:
        return state, (Step("No MegaBeast on the table: nothing to reorient", S.ORDER_EXPENDITURE_SEQUENCE, "", {},
                            (), sec),)
    if state.right_of(mb.id) is not None:
        return state, (Step(f"{mb.id} declared its ARO: it does not redirect at Conclusion", S.MEGABEAST_AROS, "",
                            {"redirects": False}, (mb.id,), sec),)
    targeted = state.second is not None and mb.id in state.second.target_names()
    adjacent = state.active_miner.miner_type == "TAG" and adjacent_during_activation(state)
    if not (targeted or adjacent):
        return state, (Step(f"{mb.id} does not redirect: not targeted, and the Active TAG was never in an adjacent "
                            "Hexagon", S.MEGABEAST_AROS, "", {"redirects": False}, (mb.id,), sec),)
    facing, counts = best_facing(state)
    why = "it was the target of an Attack" if targeted else "the Active TAG was in an adjacent Hexagon"
    new = replace(state, megabeast=replace(mb, facing=facing), megabeast_facing_before=mb.facing)
    return new, (Step(f"{mb.id} redirects to face {facing:g}° ({why})", S.MEGABEAST_AROS,
                      f"Without an ARO, {why}: it turns to have {state.active} and as many TAGs as possible in its "
                      f"Angle of Vision ({counts.get(facing, 0)} TAG(s) at {facing:g}°; facings tried: "
                      + ", ".join(f"{f:g}°: {c}" for f, c in sorted(counts.items())) + ").",
                      {"redirects": True, "facing_before": mb.facing, "facing": facing,
                       "tags_by_facing": {f"{f:g}": c for f, c in counts.items()}}, (mb.id, state.active), sec),)
