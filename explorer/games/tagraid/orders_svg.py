"""Static pictures of a TAG Raid Order: the table at one step of the Order Expenditure Sequence, as overlay values
(:mod:`explorer.render.svg`) that the stepper's board widget and a static SVG draw alike. No widget imports: the
docs, ``explorer render`` and notebooks without a kernel use it.

Sections drawn (the engine, :mod:`.orders`, decides them): Activating a Miner › Order Expenditure Sequence (the Move
routes; 5.2 Conclusion: the MegaBeast's facing before and after); Activating a Miner › Orders and AROs (each ARO right
where it appears: the LoF witness at the point of the route where LoF appears, "targeted", "same hexagon: Evade
only"); Line of Fire and Distances › Line of Fire.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from explorer.render.svg import WITNESS, Circle, HexMark, Label, Overlay, Poly, Segment
from explorer.text import plural

from .orders.state import AroRight, OrderState

SIDE_PALETTE = ("#2f6fb5", "#c0392b", "#1e8449", "#b9770e", "#7d3c98", "#566573")
"""Base colours of the sides, in Timeline order."""
MEGABEAST_COLOUR = "#6c3483"
ROUTE = {"stroke": "#1f4e99", "width": 3.0}
DRAFT = {"stroke": "#1f4e99", "width": 2.0, "dash": "6 4"}
TARGETED = {"stroke": "#d35400", "width": 2.0, "dash": "6 3"}


NAMED_SIDES = {"blue": "#2f6fb5", "red": "#c0392b", "green": "#1e8449", "yellow": "#d4ac0d", "orange": "#ca6f1e",
               "purple": "#7d3c98", "grey": "#566573", "gray": "#566573", "white": "#bdc3c7", "black": "#17202a"}
"""A side named after a colour (the rulebook's sides are: blue, red, yellow, green...) is drawn in that colour, so
the picture agrees with the text ("the yellow TAG")."""


def side_colours(state: OrderState) -> dict[str, str]:
    """``{side: CSS colour}``: a side named after a colour in that colour (:data:`NAMED_SIDES`, case-insensitive);
    any other side the next colour of :data:`SIDE_PALETTE` (Timeline order) that no side uses yet."""
    out = {s: NAMED_SIDES[s.lower()] for s in state.timeline if s.lower() in NAMED_SIDES}
    free = [c for c in SIDE_PALETTE if c not in out.values()] or list(SIDE_PALETTE)
    k = 0
    for s in state.timeline:
        if s not in out:
            out[s] = free[k % len(free)]
            k += 1
    return {s: out[s] for s in state.timeline}


def bases_of(state: OrderState) -> list[Circle]:
    """The bases on the table (Miners on the table, the MegaBeast) as circles coloured by side, with their facing
    arcs (``title``: the Model's id)."""
    table = state.table()
    cols = side_colours(state)
    out = []
    for m in state.models():
        d = table.disc(m)
        arc = m.arc_degrees()
        fill = MEGABEAST_COLOUR if m.kind == "megabeast" else cols.get(m.side, "#555555")
        out.append(Circle((m.x, m.y), d.r, fill=fill, stroke="#111111", facing=None if arc >= 360 else m.facing,
                          arc=arc, title=m.id))
    return out


def _nearest_on(p: tuple[float, float], a: tuple[float, float], b: tuple[float, float]) -> tuple[float, float]:
    dx, dy = b[0] - a[0], b[1] - a[1]
    n = dx * dx + dy * dy
    t = 0.0 if n == 0 else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / n))
    return (a[0] + t * dx, a[1] + t * dy)


def witness_position(right: AroRight, route: Sequence[tuple[float, float]]) -> tuple[float, float] | None:
    """Where the Active Miner's base centre stands on ``route`` when the LoF of ``right`` appears: the point of the
    right's leg nearest the witness's end on the base (``None`` without a witness)."""
    if right.witness is None or right.leg is None or len(route) < 2:
        return None
    leg = min(max(right.leg, 0), len(route) - 2)
    return _nearest_on(right.witness[1], route[leg], route[leg + 1])


def right_words(r: AroRight, n_legs: int = 0) -> str:
    """A right in words: ``"ARO at step 2: LoF on leg 3 of 3"``, ``"ARO at step 4: targeted"``, ``"ARO at step 2:
    same hexagon: Evade only"``, ``"ARO at step 2: a Skill without LoF"``."""
    why = {"lof": "LoF" + (f" on leg {r.leg + 1} of {n_legs}" if r.leg is not None and n_legs else ""),
           "targeted": "targeted", "same_hexagon": "same hexagon: Evade only",
           "without_lof_skill": "a Skill without LoF"}.get(r.reason, r.reason)
    return f"ARO at step {r.step}: {why}"


def _facing_arrow(c: tuple[float, float], facing: float, length: float, **style) -> Segment:
    a = math.radians(facing)
    return Segment(c, (c[0] + length * math.cos(a), c[1] + length * math.sin(a)), arrow=True, **style)


def board_overlays(state: OrderState, position: int, draft: Sequence[Sequence[tuple[float, float]]] = ()) -> list[
        Overlay]:
    """The overlays of the board at ``position`` (steps played): the Move routes played so far, the drawn routes not
    played yet (``draft``, dashed), the Active Miner's firing point on its route once declared (step 3,
    ``fire_from``), each ARO right gained so far where it appears, the MegaBeast's move in ARO (its base before,
    dashed, and an arrow to where it stands) and its redirection."""
    out: list[Overlay] = []
    cols = side_colours(state)
    rt = state.geometry.token_radius
    for c in state.containers:  # Tool Containers and Loot Tokens (flat tokens: they block no LoF, no Move)
        out.append(Circle((c.x, c.y), rt, fill="#f1c40f", stroke="#7d6608", width=1.5, label="T",
                          title=f"Tool Container {c.id}"))
        out.append(Label((c.x, c.y + rt + 0.22), c.id, size=10, fill="#7d6608"))
    for t in state.loot_tokens:
        z = state.loot_zone(t.owner)
        out.append(Circle((t.x, t.y), rt, fill="#e67e22", stroke="#873600", width=1.5, label="L",
                          title=f"{t.id}: {plural(z.units, 'Unit')}, {plural(len(z.cards), 'Tool Card')} in its Loot Zone"))
        out.append(Label((t.x, t.y + rt + 0.22), t.id, size=10, fill="#873600"))
    for route in draft:
        if len(route) > 1:
            out.append(Poly(tuple(route), closed=False, **DRAFT))
    for route in state.routes:
        if len(route) > 1:
            out.append(Poly(tuple(route), closed=False, **ROUTE))
            out.append(Segment(route[-2], route[-1], arrow=True, **ROUTE))
    if state.active is not None and position >= 1:
        a = state.active_miner
        start = state.start or (a.x, a.y)
        out.append(Circle(start, 0.08, fill="#1f4e99", stroke="#1f4e99", title=f"{a.id} starts here"))
    if state.fire_point is not None and state.active is not None:  # the point of the route the Attack is shot from
        fr = state.table().disc(next(x for x in state.models() if x.id == state.active)).r
        fx, fy = state.fire_point
        out.append(Circle((fx, fy), fr, stroke="#c0392b", width=2.5, dash="2 2",
                          title=f"{state.active} executes its Ranged Attack from here ("
                          + ("ruling route_fire_point = move_start" if state.second is not None
                             and getattr(state.second, "fire_from", None) is None else "fire_from") + ")"))
        out.append(Label((fx, fy - fr - 0.25), f"{state.active} fires from here", size=11, fill="#c0392b",
                         weight="bold"))
    radius = None
    for r in state.rights:
        route = state.routes[0] if r.step == 2 and state.routes else (
            state.routes[1] if len(state.routes) > 1 else ())
        col = MEGABEAST_COLOUR if state.megabeast is not None and r.miner == state.megabeast.id else cols.get(
            next((m.side for m in state.miners if m.id == r.miner), ""), "#333333")
        if r.witness is not None:
            p0, p1 = r.witness
            out.append(Segment(p0, p1, title=f"{r.miner}: {right_words(r, max(len(route) - 1, 0))}", **WITNESS))
            at = witness_position(r, route)
            if at is not None and state.active is not None:
                if radius is None:
                    m = next(x for x in state.models() if x.id == state.active)
                    radius = state.table().disc(m).r
                out.append(Circle(at, radius, stroke="#1a9641", width=2.0, dash="3 2",
                                  title=f"{state.active} here: {r.miner} gains LoF"))
            out.append(Label((p0[0], p0[1] - 0.45), f"{r.miner}: step {r.step} (LoF)", size=11, fill="#1a6b34",
                             weight="bold"))
        elif r.reason == "targeted" and state.active is not None:
            a = state.active_miner
            t = next((m for m in state.models() if m.id == r.miner), None)
            if t is not None:
                out.append(Segment((a.x, a.y), (t.x, t.y), title=f"{r.miner} is the target", **TARGETED))
                out.append(Label((t.x, t.y - 0.45), f"{r.miner}: step {r.step} (targeted)", size=11, fill="#a04000",
                                 weight="bold"))
        elif r.reason == "same_hexagon":
            m = next((x for x in state.miners if x.id == r.miner), None)
            if m is not None:
                out.append(HexMark(state.geometry.hex_of(m.x, m.y), stroke="#8e44ad", width=3.0,
                                   title="same hexagon: Evade only"))
                out.append(Label((m.x, m.y - 0.45), f"{r.miner}: same hexagon, Evade only", size=11, fill=col,
                                 weight="bold"))
        else:
            m = next((x for x in state.miners if x.id == r.miner), None)
            if m is not None:
                out.append(Label((m.x, m.y - 0.45), f"{r.miner}: step {r.step} (no LoF needed)", size=11, fill=col,
                                 weight="bold"))
    mb = state.megabeast
    if mb is not None and state.megabeast_moved is not None:  # its Behavior moved it when declaring its ARO
        (x0, y0), (x1, y1) = state.megabeast_moved
        r = state.table().disc(mb.model()).r
        out.append(Circle((x0, y0), r, stroke=MEGABEAST_COLOUR, width=2.0, dash="4 3",
                          title=f"{mb.id} before its move in ARO"))
        d = math.hypot(x1 - x0, y1 - y0)
        if d > 2 * r:  # the arrow from edge to edge of the two bases
            ux, uy = (x1 - x0) / d, (y1 - y0) / d
            out.append(Segment((x0 + ux * r, y0 + uy * r), (x1 - ux * r, y1 - uy * r), stroke=MEGABEAST_COLOUR,
                               width=2.5, dash="6 3", arrow=True, title=f"{mb.id} moves in ARO (its Behavior)"))
        out.append(Label((x0, y0 + r + 0.3), f"{mb.id} was here", size=10, fill=MEGABEAST_COLOUR))
    if mb is not None and state.megabeast_facing_before is not None and position >= 10:
        out.append(_facing_arrow((mb.x, mb.y), state.megabeast_facing_before, 1.4, stroke="#7f8c8d", width=2.0,
                                 dash="4 3", title="facing before Conclusion"))
        out.append(_facing_arrow((mb.x, mb.y), mb.facing, 1.6, stroke=MEGABEAST_COLOUR, width=3.0,
                                 title="facing after Conclusion"))
    elevated = any(m.on is not None for m in state.miners if m.on_table) or bool(state.route_surfaces)
    heights = {sc.name: sc.height for sc in state.geometry.board.scenery}
    for m in state.miners:
        if m.on_table:
            txt = f"{m.id} · {m.wounds}W" + (" · " + ", ".join(m.states) if m.states else "")
            if m.on is not None:  # standing on scenery (elevation.py): the piece and its height
                txt += f" · ↑{heights.get(m.on, 0):g} on {m.on}"
            out.append(Label((m.x, m.y + 0.55), txt, size=10, fill="#222222"))
    if elevated:  # heights matter once a Miner stands on scenery: each piece's height under it
        for sc in state.geometry.board.scenery:
            if sc.height is not None:
                x0, _, x1, y1 = sc.shape.bounds
                out.append(Label(((x0 + x1) / 2, y1 + 0.25), f"↑{sc.height:g}", size=11, fill="#3b2f1e",
                                 weight="bold"))
    return out


def order_svg(state: OrderState, position: int = 11, size: float = 34.0, title: str | None = None) -> str:
    """The table after ``position`` steps as a static SVG (no kernel needed): the bases (filled discs, facing
    marked) and :func:`board_overlays`."""
    from explorer.render.svg import render_board

    bases: list[Overlay] = list(bases_of(state))
    return render_board(state.geometry.board, size=size, overlays=bases + board_overlays(state, position),
                        title=title)


class OrderPicture:
    """An SVG picture of a table (``_repr_svg_``: notebooks and docs show it without a kernel)."""

    def __init__(self, svg: str):
        self.svg = svg

    def _repr_svg_(self) -> str:
        return self.svg


__all__ = ["SIDE_PALETTE", "NAMED_SIDES", "MEGABEAST_COLOUR", "ROUTE", "DRAFT", "TARGETED", "side_colours", "bases_of",
           "witness_position", "right_words", "board_overlays", "order_svg", "OrderPicture"]
