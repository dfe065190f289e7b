"""Checking a declared Move against the table (its Requirements are checked when it is declared).

Sections: Common Skills › Move (Requirements: no hexagon without tile, not through Miners, Deployable Tools or the
MegaBeast, end where the base fits and not on another Model or Token (Tool Containers and Loot Tokens do not block
the way); Effects: the first and second Movement values, the
movement ends on reaching Silhouette Contact with an enemy Miner or the MegaBeast, any facing at the end); Moving and
Measuring; States › Slowed (one Segment less; 0 Segments: only turn on the spot); Special Terrain (Impassable,
Difficult).

Distances are lengths of the base centre's route in board units; one Movement Ruler Segment is
``geometry.movement_segment`` long (see :data:`.state.DEFAULT_MOVEMENT_SEGMENT`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import shapely

from explorer.board import Special
from explorer.text import plural
from explorer.trace import Step

from .. import sections as S
from ..lof import CONTACT_TOLERANCE
from ..printed import against
from .declarations import MoveDecl, Point, refused
from .state import OrderState

LENGTH_TOLERANCE = 1e-6
"""A route may exceed its allowance by this much (board units): a measurement cannot be finer."""


@dataclass(frozen=True)
class CheckedMove:
    """A legal Move: the whole route (start included), its length (board units), the Segments allowed, whether it
    crossed Difficult Terrain (Slowed at the end of the Order) and the steps explaining it."""

    route: tuple[Point, ...]
    length: float
    segments: int
    difficult: bool
    steps: tuple[Step, ...]
    surfaces: tuple[str | None, ...] = ()
    """The surface at each route point (a scenery piece's id, ``None``: the ground); ``()`` when the whole Move
    stays on the ground."""
    climbs: int = 0



def route_too_long(miner_id: str, segments: int, allowance: float, which: str, value: int, slowed: bool,
                   length: float) -> str:
    """The refusal's words for a route longer than the Move allows (Common Skills › Move; Slowed State): the
    allowance and the route length (board units) printed with enough decimals to show the route is the longer."""
    route, allowed = against(length, allowance, True)
    return (f"{miner_id} may move {plural(segments, 'Segment')} ({allowed} board units: the {which} Movement value "
            f"{value}" + (", one less for the Slowed State" if slowed else "") + f"), the route is {route}")


def first_contact(p: Point, q: Point, c: Point, reach: float) -> float | None:
    """The first parameter ``t`` in [0, 1] of ``p -> q`` where the base centre comes within ``reach`` of ``c``."""
    dx, dy = q[0] - p[0], q[1] - p[1]
    fx, fy = p[0] - c[0], p[1] - c[1]
    a = dx * dx + dy * dy
    b = 2 * (fx * dx + fy * dy)
    cc = fx * fx + fy * fy - reach * reach
    if cc <= 0:
        return 0.0
    if a == 0:
        return None
    disc = b * b - 4 * a * cc
    if disc < 0:
        return None
    t = (-b - math.sqrt(disc)) / (2 * a)
    return t if 0.0 <= t <= 1.0 else None


def check_move(state: OrderState, miner_id: str, decl: MoveDecl, nth: int, step: str, field: str) -> CheckedMove:
    """Check the ``nth`` Move (0: first Skill, 1: a second Move) of ``miner_id`` along ``decl.route``.

    Returns:
        :class:`CheckedMove`.
    Raises:
        RuleViolation: longer than the Movement value allows (Slowed included), a leg through scenery, another
            base, a hexagon without tile, Impassable Terrain or off the board, Silhouette Contact with an enemy Miner
            or the MegaBeast reached before the end of the route, or an end position where the base does not fit.
    """
    geo = state.geometry
    m = state.miner(miner_id)
    table = state.table()
    r = table.disc(miner_id).r
    route = ((m.x, m.y),) + tuple((float(x), float(y)) for x, y in decl.route)
    value = m.movement[min(nth, 1)]
    slowed = "Slowed" in m.states
    segments = max(0, value - (1 if slowed else 0))
    allowance = segments * geo.movement_segment
    length = sum(math.dist(a, b) for a, b in zip(route, route[1:]))
    steps = []
    which = "first" if nth == 0 else "second"
    surfaces = _surfaces(m, decl, table, step, field)
    if any(x is not None for x in surfaces) and len(route) > 1:
        return _check_climbing_move(state, miner_id, decl, route, surfaces, segments, value, slowed, nth, step, field)
    if length > allowance + LENGTH_TOLERANCE:
        why = route_too_long(miner_id, segments, allowance, which, value, slowed, length)
        if segments == 0:
            why += "; with 0 Segments a Miner can only turn on the spot"
        raise refused(step, f"{field}.route", why, S.SLOWED_STATE if slowed and length <= allowance
                      + geo.movement_segment + LENGTH_TOLERANCE else S.MOVE)
    # what the base may not cross
    blockers = [(f"scenery {k}", v) for k, v in table._scenery_polys.items()]
    blockers += [(f"hexagon {h.q},{h.r} (no tile)", v) for h, v in table._hole_polys.items()]
    if table._off_board is not None:
        blockers.append(("the edge of the board", table._off_board))
    board = geo.board
    impassable = [h for h in board if board[h].tile and board[h].special == Special.IMPASSABLE]
    blockers += [(f"hexagon {h.q},{h.r} (Impassable Terrain)", table.hex_polygon(h)) for h in impassable]
    others = [x for x in table.models.values() if x.id != miner_id]
    blockers += [(f"{x.id}'s base", table.disc(x).polygon()) for x in others]
    contact_with = [x for x in others if x.kind == "megabeast" or (x.kind == "miner" and x.side != m.side)]
    start_contact = {x.id for x in contact_with if table.in_contact(miner_id, x)}
    legs = list(zip(route, route[1:]))
    for i, (p, q) in enumerate(legs):
        swept = shapely.LineString([p, q]).buffer(r, quad_segs=32)
        for lab, g in blockers:
            if swept.intersection(g).area > 1e-6:
                raise refused(step, f"{field}.route[{i}]", f"the base of {miner_id} would cross {lab} on leg {i + 1} "
                              "(a Miner cannot move through Models, scenery it cannot pass, hexagons without tiles "
                              "or Impassable Terrain)", S.SPECIAL_TERRAIN if "Impassable" in lab else S.MOVE)
        for x in contact_with:
            if x.id in start_contact:
                continue
            reach = r + table.disc(x).r + CONTACT_TOLERANCE
            t = first_contact(p, q, x.center, reach)
            last = i == len(legs) - 1
            if t is not None and (not last or t < 1.0 - 1e-6):
                what = "the MegaBeast" if x.kind == "megabeast" else f"enemy Miner {x.id}"
                raise refused(step, f"{field}.route[{i}]", f"{miner_id} reaches Silhouette Contact with {what} on leg "
                              f"{i + 1}: its movement ends there, so the route cannot go on", S.MOVE)
    end = route[-1]
    if len(route) > 1:
        from dataclasses import replace as _r

        try:
            geo.table(tuple(_r(x, x=end[0], y=end[1]) if x.id == miner_id else x for x in table.models.values()),
                      validate=True)
        except Exception as e:  # ScenarioError from the placement check
            raise refused(step, f"{field}.route[{len(route) - 2}]", f"{miner_id} cannot end its Move there: "
                          f"{getattr(e, 'problem', e)}", S.MOVE) from None
    if len(route) > 1:
        from .loot import check_end_not_on_token

        check_end_not_on_token(state, miner_id, end, step, f"{field}.route[{len(route) - 2}]")
    difficult = [h for h in board if board[h].tile and board[h].special == Special.DIFFICULT]
    path = shapely.LineString(route).buffer(r, quad_segs=32) if len(route) > 1 else shapely.Point(route[0]).buffer(r)
    crossed = [h for h in difficult if path.intersection(table.hex_polygon(h)).area > 1e-9]
    steps.append(Step(f"{miner_id} Moves {length:.2f} of {allowance:.2f} board units ({plural(segments, 'Segment')}, "
                      f"{which} Movement value {value})" if len(route) > 1 else
                      f"{miner_id} declares Move without moving", S.MOVE,
                      "The route is clear of scenery, other bases, hexagons without tiles and Impassable Terrain, and "
                      "the base fits where it ends; it has 360° LoF along it." if len(route) > 1 else
                      "A Move without moving: the Miner may turn on the spot"
                      + (" and cancels its Slowed State." if slowed else "."),
                      {"route": [list(p) for p in route], "length": round(length, 6), "segments": segments,
                       "allowance": round(allowance, 6), "slowed": slowed}, (miner_id,), "Move"))
    if crossed:
        steps.append(Step(f"{miner_id} performs its Order in Difficult Terrain ({', '.join(f'{h.q},{h.r}' for h in crossed)})"
                          ": Slowed at the end of the Order", S.SPECIAL_TERRAIN,
                          "A Miner performing an Order or ARO in a Difficult Terrain tile enters the Slowed State at "
                          "the end of the Order.", {"difficult": [f"{h.q},{h.r}" for h in crossed]}, (miner_id,),
                          "Move"))
    return CheckedMove(route, length, segments, bool(crossed), tuple(steps))


def _surfaces(m, decl: MoveDecl, table, step: str, field: str) -> tuple[str | None, ...]:
    """The surface at each point of the route, start included (:attr:`.declarations.MoveDecl.on`)."""
    n = len(decl.route)
    if decl.on is None:
        return (m.on,) * (n + 1)
    if len(decl.on) != n:
        raise refused(step, f"{field}.on", f"{len(decl.on)} surfaces for {n} route points: give one per point "
                      "(a scenery piece's id, or \"\" for the ground)", S.MOVE)
    pieces = {sc.id: sc for sc in table.scenery}
    for i, sid in enumerate(decl.on):
        if sid is not None and (sid not in pieces or not math.isfinite(pieces[sid].height)):
            raise refused(step, f"{field}.on[{i}]", f"no scenery piece with a height named {sid!r}: a Miner stands on "
                          "the ground or on top of a piece with a height", S.MOVE)
    return (m.on,) + tuple(decl.on)


def climb_segments_used(legs: list[tuple[float, bool]], segment: float, reading: str) -> float:
    """Segments a route uses: ``legs`` are ``(length, climbs)``; a climbing leg (up or down a piece) takes one
    whole Segment whatever its height (Move › Effects). ``reading`` (ruling ``climb_segment``): ``"own_segment"``
    (the climb starts a Segment of its own: what was moved before it is rounded up to whole Segments, the rulebook's
    example) or ``"one_segment_length"`` (the climb adds one Segment to the measured length)."""
    used = 0.0
    for length, climbs in legs:
        if climbs:
            used = (math.ceil(used - 1e-9) if reading == "own_segment" else used) + 1.0
        else:
            used += length / segment
    return used


def _check_climbing_move(state: OrderState, miner_id: str, decl: MoveDecl, route, surfaces, segments: int, value: int,
                         slowed: bool, nth: int, step: str, field: str) -> CheckedMove:
    """:func:`check_move` for a route that climbs onto, moves on top of, or climbs down from scenery pieces.

    A leg between two different surfaces climbs (up, down, or from one piece to another): it takes one whole Segment
    (ruling ``climb_segment`` for how it adds up), must be at most one Segment long, and may cross the pieces it
    joins; a leg on a piece's top keeps the whole base on that top; a leg on the ground is checked as any other.
    Other bases, hexagons without tile, the board's edge and Impassable Terrain block every leg; the base fits where
    it ends (on the piece named for the last point: the whole base on its top)."""
    from dataclasses import replace as _r

    geo = state.geometry
    table = state.table()
    rul = state.ruling_set()
    reading = rul.reading("climb_segment")
    r = table.disc(miner_id).r
    legs = list(zip(route, route[1:]))
    climbs = [surfaces[i] != surfaces[i + 1] for i in range(len(legs))]
    used = climb_segments_used([(math.dist(p, q), c) for (p, q), c in zip(legs, climbs)], geo.movement_segment,
                               reading)
    which = "first" if nth == 0 else "second"
    n_climb = sum(climbs)
    if used > segments + LENGTH_TOLERANCE:
        raise refused(step, f"{field}.route", f"{miner_id} may move {plural(segments, 'Segment')} (the {which} Movement "
                      f"value {value}" + (", one less for the Slowed State" if slowed else "") + f"); the route uses "
                      f"{against(used, segments, True)[0]}: {plural(n_climb, 'climb')} of one whole Segment each "
                      f"({reading})", S.MOVE)
    polys = table._scenery_polys
    fixed = [(f"hexagon {h.q},{h.r} (no tile)", v) for h, v in table._hole_polys.items()]
    if table._off_board is not None:
        fixed.append(("the edge of the board", table._off_board))
    board = geo.board
    fixed += [(f"hexagon {h.q},{h.r} (Impassable Terrain)", table.hex_polygon(h)) for h in board
              if board[h].tile and board[h].special == Special.IMPASSABLE]
    others = [x for x in table.models.values() if x.id != miner_id]
    fixed += [(f"{x.id}'s base", table.disc(x).polygon()) for x in others]
    for i, ((p, q), c) in enumerate(zip(legs, climbs)):
        swept = shapely.LineString([p, q]).buffer(r, quad_segs=32)
        joined = {surfaces[i], surfaces[i + 1]} - {None}
        if c and math.dist(p, q) > geo.movement_segment + LENGTH_TOLERANCE:
            leg, one = against(math.dist(p, q), geo.movement_segment, True)
            raise refused(step, f"{field}.route[{i}]", f"leg {i + 1} climbs {'onto' if surfaces[i + 1] else 'down from'} "
                          f"a piece over {leg} board units: a climb covers at most one Segment ({one})", S.MOVE)
        if not c and surfaces[i] is not None and swept.difference(polys[surfaces[i]]).area > 1e-6:
            raise refused(step, f"{field}.route[{i}]", f"leg {i + 1} leaves the top of {surfaces[i]}: moving down "
                          "from it is a climb (name the ground, \"\", for the point below)", S.MOVE)
        blockers = fixed + [(f"scenery {k}", v) for k, v in polys.items() if k not in joined]
        for lab, g in blockers:
            if swept.intersection(g).area > 1e-6:
                raise refused(step, f"{field}.route[{i}]", f"the base of {miner_id} would cross {lab} on leg {i + 1} "
                              "(a Miner cannot move through Models, scenery it does not climb, hexagons without tiles "
                              "or Impassable Terrain)", S.SPECIAL_TERRAIN if "Impassable" in lab else S.MOVE)
    end = route[-1]
    if len(route) > 1:
        try:
            geo.table(tuple(_r(x, x=end[0], y=end[1], on=surfaces[-1]) if x.id == miner_id else x
                            for x in table.models.values()), validate=True)
        except Exception as e:
            raise refused(step, f"{field}.route[{len(route) - 2}]", f"{miner_id} cannot end its Move there: "
                          f"{getattr(e, 'problem', e)}", S.MOVE) from None
    length = sum(math.dist(p, q) for p, q in legs)
    difficult = [h for h in board if board[h].tile and board[h].special == Special.DIFFICULT]
    path = shapely.LineString(route).buffer(r, quad_segs=32)
    crossed = [h for h in difficult if path.intersection(table.hex_polygon(h)).area > 1e-9]
    where = f"on top of {surfaces[-1]}" if surfaces[-1] else "on the ground"
    st = Step(f"{miner_id} Moves {length:.2f} board units with {plural(n_climb, 'climb')}: {used:.2f} of "
              f"{plural(segments, 'Segment')} ({which} Movement value {value}), ending {where}", S.MOVE,
              "Moving up or down a piece of scenery takes one whole Segment whatever its height; the route is clear "
              "of other bases, hexagons without tiles and the scenery it does not climb, and the base fits where it "
              "ends. The climbed positions count for LoF.",
              {"route": [list(p) for p in route], "surfaces": [x or "" for x in surfaces], "length": round(length, 6),
               "segments": segments, "segments_used": round(used, 6), "climbs": n_climb, "slowed": slowed,
               "climb_segment": reading}, (miner_id,), "Move")
    steps = [st]
    if crossed:
        steps.append(Step(f"{miner_id} performs its Order in Difficult Terrain ({', '.join(f'{h.q},{h.r}' for h in crossed)})"
                          ": Slowed at the end of the Order", S.SPECIAL_TERRAIN,
                          "A Miner performing an Order or ARO in a Difficult Terrain tile enters the Slowed State at "
                          "the end of the Order.", {"difficult": [f"{h.q},{h.r}" for h in crossed]}, (miner_id,),
                          "Move"))
    return CheckedMove(route, length, segments, bool(crossed), tuple(steps), tuple(surfaces), n_climb)


def in_difficult_terrain(state: OrderState, miner_id: str) -> bool:
    """Whether the Miner's base is at least partly in a Difficult Terrain tile (Interaction with Areas)."""
    table = state.table()
    board = state.geometry.board
    disc = table.disc(miner_id).polygon()
    return any(board[h].tile and board[h].special == Special.DIFFICULT
               and disc.intersection(table.hex_polygon(h)).area > 1e-9 for h in board)
