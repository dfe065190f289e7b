"""The MegaBeast's redirection during the Conclusion of an Order.

Sections: Activating a Miner › Order Expenditure Sequence, step 5.2 (Conclusion); MegaBeast › Skills, Attacks, and
AROs (if it has not declared an ARO and was targeted by an Attack, or a TAG became active in an adjacent Hexagon, it
redirects itself so as to have the Active Miner and the highest number of TAGs possible in its Angle of Vision);
MegaBeast › Deployment and Movement Type (facing).

Facings a MegaBeast may take: the directions of its hexagon's corners (the Threat Level sides come in pairs about
its facing: :func:`explorer.games.tagraid.megabeast.side_pairs`). Ties between facings with as many TAGs: ruling
option ``megabeast_facing_tie`` (the rulebook does not break the tie).

Also the Behavior movement in ARO (MegaBeast › Deployment and Movement Type, Interior Movement; MegaBeast Events and
MegaBeast's Behavior, Movement symbol): :func:`behavior_move`.
"""

from __future__ import annotations

from dataclasses import replace

import shapely

from explorer.hexgrid import neighbors
from explorer.text import plural
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
    count of every candidate facing that has the Active Miner in it. Ties: ruling option ``megabeast_facing_tie``
    (default ``face_active``: the facing pointing most directly at the Active Miner, then the least turn)."""
    import math

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
    tied = [f for f, c in counts.items() if c == top]
    if len(tied) == 1:
        return tied[0], counts
    a = state.active_miner
    towards = math.degrees(math.atan2(a.y - mb.y, a.x - mb.x)) % 360.0
    if state.ruling_set().reading("megabeast_facing_tie") == "face_active":
        best = min(tied, key=lambda f: (round(_angle_gap(f, towards), 6), round(_angle_gap(f, mb.facing), 6), f))
    else:
        best = min(tied, key=lambda f: (round(_angle_gap(f, mb.facing), 6), f))
    return best, counts


def facing_tie_rulings(state: OrderState, counts: dict[float, int]) -> dict[str, str]:
    """``{"megabeast_facing_tie": reading}`` when several facings tied for the most TAGs (the option was consulted),
    else ``{}``."""
    if counts and sum(1 for c in counts.values() if c == max(counts.values())) > 1:
        return {"megabeast_facing_tie": state.ruling_set().reading("megabeast_facing_tie")}
    return {}


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
    tie = facing_tie_rulings(state, counts)
    why = "it was the target of an Attack" if targeted else "the Active TAG was in an adjacent Hexagon"
    new = replace(state, megabeast=replace(mb, facing=facing), megabeast_facing_before=mb.facing).consulting(tie)
    return new, (Step(f"{mb.id} redirects to face {facing:g}° ({why})", S.MEGABEAST_AROS,
                      f"Without an ARO, {why}: it turns to have {state.active} and as many TAGs as possible in its "
                      f"Angle of Vision ({plural(counts.get(facing, 0), 'TAG')} at {facing:g}°; facings tried: "
                      + ", ".join(f"{f:g}°: {c}" for f, c in sorted(counts.items())) + ")"
                      + (f"; the tie is broken by ruling 'megabeast_facing_tie = {tie['megabeast_facing_tie']}'."
                         if tie else "."),
                      {"redirects": True, "facing_before": mb.facing, "facing": facing,
                       "tags_by_facing": {f"{f:g}": c for f, c in counts.items()}, "rulings": tie},
                      (mb.id, state.active), sec),)


# ------------------------------------------------------------------------------------------ Behavior movement in ARO


def interior_hexes(state: OrderState) -> list:
    """Hexagons the MegaBeast may stand in (Interior Deployment and Movement): without tile, surrounded by at least
    four tiles (:func:`explorer.games.tagraid.megabeast.interior_deployment_hexes`)."""
    from ..megabeast import interior_deployment_hexes

    board = state.geometry.board
    return interior_deployment_hexes({h: board[h].tile for h in board})


def nearest_interior_hexes(state: OrderState) -> tuple[list, int]:
    """The Interior hexagons closest to the Active TAG (hexagon distance from the hexagon of its base centre) and that
    distance. Ties are broken by :func:`behavior_destination`."""
    from explorer.hexgrid import distance

    a = state.active_miner
    ah = state.geometry.hex_of(a.x, a.y)
    cands = interior_hexes(state)
    if not cands:
        return [], -1
    best = min(distance(h, ah) for h in cands)
    return [h for h in cands if distance(h, ah) == best], best


def behavior_destination(state: OrderState):
    """Where the MegaBeast's Behavior movement takes it: the Interior hexagon closest to the Active TAG.

    Tie-break (a documented default; the rulebook names "the Hexagon or Hexagons ... closest" and no tie-break): the
    hexagon whose centre is nearest the Active TAG's base centre, then the one nearest the MegaBeast's current
    hexagon (the least movement), then the lowest (q, r). The current hexagon wins when it is among the closest
    (the MegaBeast "will not move" when already in the nearest position)."""
    import math

    from explorer.hexgrid import distance

    mb = state.megabeast
    a = state.active_miner
    here = state.geometry.hex_of(mb.x, mb.y)
    near, _ = nearest_interior_hexes(state)
    if not near:
        return here
    if here in near:
        return here
    layout = state.geometry.layout
    return min(near, key=lambda h: (round(math.dist(layout.hex_to_pixel(h), (a.x, a.y)), 9), distance(h, here),
                                    (h.q, h.r)))


def behavior_move(state: OrderState, sec: str) -> tuple[OrderState, tuple[Step, ...]]:
    """The MegaBeast declares its ARO and its Behavior shows the Movement symbol: it moves now (when declaring the
    ARO) to the Interior hexagon closest to the Active TAG (:func:`behavior_destination`) and faces where it has the
    Active Miner and the most TAGs in its Angle of Vision (:func:`best_facing`). It neither moves nor turns when it
    already stands in a nearest position (it has LoF: it gained the ARO by it). Its Attack is resolved at step 5,
    from the new position. Sections: MegaBeast › Skills, Attacks, and AROs; MegaBeast › Deployment and Movement
    Type (Movement, Interior Movement); MegaBeast Events and MegaBeast's Behavior (Movement symbol)."""
    mb = state.megabeast
    geo = state.geometry
    here = geo.hex_of(mb.x, mb.y)
    dest = behavior_destination(state)
    near, dist = nearest_interior_hexes(state)
    if dest == here:
        return state, (Step(f"{mb.id}'s Behavior moves it, but it already stands in a nearest position to "
                            f"{state.active} ({plural(dist, 'hexagon')} away) with LoF: it neither moves nor turns",
                            S.MEGABEAST_DEPLOYMENT, "The MegaBeast does not move or redirect itself if, when it "
                            "declares its ARO, it already has LoF and is in the nearest position to the Active TAG.",
                            {"miner": mb.id, "moved": False, "hex": f"{here.q},{here.r}",
                             "nearest": [f"{h.q},{h.r}" for h in near]}, (mb.id, state.active), sec),)
    x, y = geo.layout.hex_to_pixel(dest)
    moved = replace(state, megabeast=replace(mb, x=x, y=y))
    facing, counts = best_facing(moved)
    tie = facing_tie_rulings(moved, counts)
    new = replace(moved, megabeast=replace(moved.megabeast, facing=facing),
                  megabeast_moved=((mb.x, mb.y), (x, y))).consulting(tie)
    return new, (Step(f"{mb.id} moves in ARO from hexagon {here.q},{here.r} to {dest.q},{dest.r}, the hexagon without "
                      f"tile closest to {state.active} ({plural(dist, 'hexagon')} away), and faces {facing:g}°",
                      S.MEGABEAST_AROS,
                      "Its Behavior shows the Movement symbol: it moves when declaring the ARO, following its Type of "
                      "Movement (Interior: hexagons without tile surrounded by at least four tiles), towards the "
                      f"hexagon without tile closest to the Active TAG (candidates at {dist}: "
                      + ", ".join(f"{h.q},{h.r}" for h in near) + "; ties: nearest centre, then least movement), "
                      f"and faces where it has the Active Miner and the most TAGs in its Angle of Vision "
                      f"({plural(counts.get(facing, 0), 'TAG')} at {facing:g}°"
                      + (f"; tie broken by ruling 'megabeast_facing_tie = {tie['megabeast_facing_tie']}'" if tie else "")
                      + "). Its Attack is resolved at step 5 from there.",
                      {"miner": mb.id, "moved": True, "from": f"{here.q},{here.r}", "to": f"{dest.q},{dest.r}",
                       "facing_before": mb.facing, "facing": facing, "rulings": tie,
                       "nearest": [f"{h.q},{h.r}" for h in near]}, (mb.id, state.active), sec),)
