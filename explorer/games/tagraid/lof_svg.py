"""Static SVG of Line of Fire questions (for ``_repr_svg_``, docs, GitHub): bases with their arcs, the witness
segment, blocked rays, the Range Ruler's bands and Partial Cover marks, drawn over the board by
:func:`explorer.render.svg.render_board`.

Colours: witness green (``WITNESS``), blocked rays red dashed (``BLOCKED``), Range bands short/mid/long in
:data:`BAND_COLOURS`, hidden points of Partial Cover orange.
"""

from __future__ import annotations

from collections.abc import Iterable

from explorer.board import Board, Cell
from explorer.board import Scenery as BoardScenery
from explorer.hexgrid import Hex
from explorer.render.svg import BLOCKED, WITNESS, Circle, Label, Overlay, Poly, Segment, render_board

from .lof import CoverResult, LoFResult, TableTop
from .ranges import RangeResult

SIDE_COLOURS = ("#4a90d9", "#d9534f", "#f0ad4e", "#5cb85c", "#9b59b6", "#34495e")
MEGABEAST_COLOUR = "#6d4c41"
BAND_COLOURS = {"short": "#1a9641", "mid": "#fdae61", "long": "#d7191c"}


def _board_of(table: TableTop) -> Board:
    board = getattr(table, "board", None)
    if board is not None:
        return board
    scenery = [BoardScenery(s.id, s.points, None if s.height == float("inf") else s.height) for s in table.scenery]
    if table.tiles:
        cells = {h: (Cell("sand") if has else Cell(tile=False)) for h, has in table.tiles.items()}
    else:  # no board given: the hexagons under the Models and scenery, all tiled
        hexes = {table.hex_of(m) for m in table.models.values()}
        for s in table.scenery:
            hexes |= {table.layout.pixel_to_hex(p) for p in s.points}
        grown = set(hexes)
        for h in hexes:
            grown |= {Hex(h.q + dq, h.r + dr) for dq, dr in ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))}
        cells = {h: Cell("sand") for h in grown}
    return Board(cells, scenery, orientation=table.layout.orientation)


def model_overlays(table: TableTop) -> list[Overlay]:
    """Every Model's base with its arc (none when it sees 360°) and its id."""
    sides = sorted({m.side for m in table.models.values() if m.kind != "megabeast"})
    out: list[Overlay] = []
    for m in table.models.values():
        d = table.disc(m)
        colour = MEGABEAST_COLOUR if m.kind == "megabeast" else SIDE_COLOURS[sides.index(m.side) % len(SIDE_COLOURS)]
        arc = m.arc_degrees()
        out.append(Circle(d.center, d.r, fill=colour, stroke="#222222", width=1.2,
                          facing=m.facing if arc < 360 else None, arc=arc, label=m.id,
                          title=f"{m.id} ({m.kind}, S{m.silhouette}, side {m.side}, arc {arc:g}°)"))
    return out


def result_overlays(lof: LoFResult | None = None, rng: RangeResult | None = None,
                    cover: CoverResult | None = None) -> list[Overlay]:
    """Overlays for a LoF result (witness or blocked rays), a Range measurement (bands) and Partial Cover."""
    out: list[Overlay] = []
    if lof is not None:
        for ray in lof.rays:
            if ray.blocked_by:
                out.append(Segment(ray.segment.p0, ray.segment.p1, **BLOCKED,
                                   title="blocked by " + ", ".join(ray.blocked_by)))
        if lof.witness is not None:
            out.append(Segment(lof.witness.p0, lof.witness.p1, **WITNESS,
                               title=f"{lof.shooter} -> {lof.target}: {lof.reason}"))
    if rng is not None:
        for band, seg in rng.bands():
            out.append(Segment(seg.p0, seg.p1, stroke=BAND_COLOURS[band], width=5.0, opacity=0.55,
                               title=f"{band} range"))
        if rng.measured is not None:
            out.append(Segment(rng.measured.p0, rng.measured.p1, stroke="#222222", width=1.0, dash="1 2",
                               title=f"{rng.distance:.2f} hex units: {rng.band}"))
    if cover is not None:
        for sid, (x, y) in cover.hidden_points.items():
            out.append(Poly([(x - 0.04, y - 0.04), (x + 0.04, y + 0.04)], stroke="#ff7f00", width=2.0, closed=False))
            out.append(Poly([(x - 0.04, y + 0.04), (x + 0.04, y - 0.04)], stroke="#ff7f00", width=2.0, closed=False))
            out.append(Label((x, y - 0.1), f"cover: {sid}", size=9.0, fill="#ff7f00"))
    return out


def render_lof(table: TableTop, lof: LoFResult | None = None, rng: RangeResult | None = None,
               cover: CoverResult | None = None, *, size: float = 40.0,
               extra: Iterable[Overlay] = ()) -> str:
    """SVG document of the table with the Models and any results given."""
    overlays = model_overlays(table) + result_overlays(lof, rng, cover) + list(extra)
    title = None
    if lof is not None:
        title = f"{lof.shooter} -> {lof.target}: {'LoF' if lof.has_lof else 'no LoF'} ({lof.reason})"
    return render_board(_board_of(table), size=size, overlays=overlays, title=title)
