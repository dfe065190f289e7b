"""Static SVG of a :class:`~explorer.board.Board` with optional overlays (for ``_repr_svg_``, docs, GitHub, nbviewer).

Everything is given in **board units** (see :mod:`explorer.board`) except stroke widths and font sizes, which are
pixels. :func:`render_board` scales board units by ``size`` pixels and shifts the drawing so that it starts at
``margin``. The output is deterministic (numbers printed with 2 decimals), so it can be diffed as a golden file.

Overlays are plain values; the Line of Fire views pass e.g. bases (:class:`Circle` with a ``facing`` arc),
witness segments (``Segment(p, q, **WITNESS)``) and blocked rays (``Segment(p, q, **BLOCKED)``)::

    svg = render_board(board, overlays=[
        Circle((0.0, 0.0), 0.45, fill="#4a90d9", facing=300.0, arc=180.0, label="A"),
        Segment((0.0, 0.0), (3.4, 1.0), **WITNESS),
        HexMark(Hex(2, 1), stroke="#ffbf00"),
    ])
"""

from __future__ import annotations

import html
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..board import Board, EdgeKind, Special, Terrain
from ..hexgrid import Edge, Hex, neighbors

Point = tuple[float, float]

#: Terrain fills (TAG Raid › Terrain).
TERRAIN_FILL: dict[Terrain, str] = {
    Terrain.VEGETATION: "#8db86b",
    Terrain.SAND: "#ead9a4",
    Terrain.EXCAVATION: "#b98d63",
    Terrain.SUPPLIES: "#93b7cf",
    Terrain.ROCKY: "#a3a39b",
}
TILELESS_FILL = "#2e3038"
GRID_STROKE = "#5b5548"
SCENERY_FILL = "#675d52"
EDGE_STYLE: dict[EdgeKind, tuple[str, float, str | None]] = {  # stroke, width (px), dash
    EdgeKind.WALL: ("#1d1d1d", 5.0, None),
    EdgeKind.DOOR: ("#8b4a1c", 5.0, None),
    EdgeKind.OBSTACLE: ("#4d4d4d", 4.0, "3 3"),
    EdgeKind.BARRIER: ("#b03a2e", 4.0, "6 3"),
    EdgeKind.ELEVATION: ("#777777", 2.5, "1 3"),
}
AREA_STROKES = ("#d35400", "#8e44ad", "#16a085", "#c0392b", "#2c3e50", "#f39c12")

#: Style presets for LoF overlays: ``Segment(p, q, **WITNESS)``.
WITNESS = {"stroke": "#1a9641", "width": 2.5}
BLOCKED = {"stroke": "#d7191c", "width": 1.5, "dash": "5 3"}
GRAZING = {"stroke": "#e6a100", "width": 2.0, "dash": "2 2"}


@dataclass(frozen=True)
class Segment:
    """A line from ``p0`` to ``p1`` (board units); ``width`` in pixels; ``dash`` an SVG dash array ("5 3");
    ``arrow`` draws an arrow head at ``p1``; ``title`` is the hover tooltip."""

    p0: Point
    p1: Point
    stroke: str = "#000000"
    width: float = 1.5
    dash: str | None = None
    opacity: float = 1.0
    arrow: bool = False
    title: str | None = None


@dataclass(frozen=True)
class Circle:
    """A disc (e.g. a base): ``center`` and ``radius`` in board units.

    ``facing``: screen angle in degrees (0 = +x, clockwise on screen; :meth:`Layout.direction_angle` gives a hex
    direction's angle); when set, the front ``arc`` (degrees, 180 = front half) is drawn as a wedge filled with
    ``arc_fill`` and a tick marks the facing. ``label`` is written in the middle.
    """

    center: Point
    radius: float
    fill: str = "none"
    stroke: str = "#000000"
    width: float = 1.5
    facing: float | None = None
    arc: float = 180.0
    arc_fill: str = "#ffffff"
    arc_opacity: float = 0.45
    opacity: float = 1.0
    dash: str | None = None
    label: str | None = None
    title: str | None = None


@dataclass(frozen=True)
class Label:
    """Text at ``pos`` (board units); ``size`` in pixels; ``anchor``: start, middle or end."""

    pos: Point
    text: str
    size: float = 11.0
    fill: str = "#000000"
    anchor: str = "middle"
    weight: str = "normal"


@dataclass(frozen=True)
class HexMark:
    """Highlight a hex: outline (``stroke``, ``width`` px) and/or ``fill``."""

    hex: Hex
    stroke: str = "#ffbf00"
    width: float = 3.0
    fill: str = "none"
    opacity: float = 1.0
    dash: str | None = None
    title: str | None = None


@dataclass(frozen=True)
class Poly:
    """A polygon (closed) or polyline (``closed=False``) in board units."""

    points: Sequence[Point]
    stroke: str = "#000000"
    width: float = 1.5
    fill: str = "none"
    opacity: float = 1.0
    dash: str | None = None
    closed: bool = True
    title: str | None = None


Overlay = Segment | Circle | Label | HexMark | Poly


def _n(v: float) -> str:
    s = f"{v:.2f}"
    return "0.00" if s == "-0.00" else s


def _esc(s: str) -> str:
    return html.escape(s, quote=True)


def _title(t: str | None) -> str:
    return f"<title>{_esc(t)}</title>" if t else ""


def _dash(d: str | None) -> str:
    return f' stroke-dasharray="{_esc(d)}"' if d else ""


class _Pen:
    def __init__(self, size: float, dx: float, dy: float):
        self.size, self.dx, self.dy = size, dx, dy

    def p(self, pt: Point) -> tuple[float, float]:
        return pt[0] * self.size + self.dx, pt[1] * self.size + self.dy

    def pts(self, pts: Iterable[Point]) -> str:
        return " ".join(f"{_n(x)},{_n(y)}" for x, y in (self.p(q) for q in pts))


def render_board(board: Board, *, size: float = 28.0, overlays: Iterable[Overlay] = (), coords: bool = False,
                 margin: float = 12.0, title: str | None = None, background: str = "#ffffff",
                 show_areas: bool = True, show_scenery_names: bool = True) -> str:
    """Render ``board`` as an SVG document (a string).

    Args:
        board: the board.
        size: pixels per board unit (= hex centre-to-corner distance), > 0.
        overlays: :class:`Segment`, :class:`Circle`, :class:`Label`, :class:`HexMark`, :class:`Poly` values, drawn in
            order on top of the board.
        coords: write each hex's ``q,r``.
        margin: blank border, pixels.
        title: document title (tooltip), defaults to the board's name.
        background: page colour (``"none"`` for transparent).

    Layers (``<g class="...">``): terrain, tileless, special, areas, elevation, scenery, edges, coords, overlays.
    Hexes carry ``data-hex="q,r"``. Raises ValueError for a non-positive size or an unknown overlay type.
    """
    if not size > 0:
        raise ValueError(f"size must be > 0, got {size!r}")
    overlays = list(overlays)
    lay = board.layout
    minx, miny, maxx, maxy = board.bounds()
    for o in overlays:  # make room for overlays reaching beyond the board
        for x, y in _overlay_points(o, lay):
            minx, miny, maxx, maxy = min(minx, x), min(miny, y), max(maxx, x), max(maxy, y)
    pen = _Pen(size, margin - minx * size, margin - miny * size)
    width, height = (maxx - minx) * size + 2 * margin, (maxy - miny) * size + 2 * margin
    out: list[str] = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_n(width)}" height="{_n(height)}" '
        f'viewBox="0 0 {_n(width)} {_n(height)}" font-family="sans-serif">',
        f"<title>{_esc(title if title is not None else board.name or 'Board')}</title>",
        "<defs>"
        '<pattern id="hatch-impassable" width="6" height="6" patternUnits="userSpaceOnUse" '
        'patternTransform="rotate(45)"><line x1="0" y1="0" x2="0" y2="6" stroke="#b3261e" stroke-width="2"/>'
        "</pattern>"
        '<pattern id="dots-difficult" width="6" height="6" patternUnits="userSpaceOnUse">'
        '<circle cx="3" cy="3" r="1.1" fill="#6a3d9a"/></pattern>'
        '<marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" markerHeight="6" '
        'orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="context-stroke"/></marker>'
        "</defs>",
    ]
    if background != "none":
        out.append(f'<rect width="100%" height="100%" fill="{_esc(background)}"/>')

    # terrain and tile-less hexes
    out.append('<g class="terrain">')
    for h, c in board.cells.items():
        if c.tile:
            out.append(f'<polygon data-hex="{h}" points="{pen.pts(lay.corners(h))}" '
                       f'fill="{TERRAIN_FILL[c.terrain]}" stroke="{GRID_STROKE}" stroke-width="1">'  # type: ignore
                       f"<title>{h}: {c.terrain.value}"  # type: ignore[union-attr]
                       f"{', ' + c.special.value if c.special else ''}{', area ' + _esc(c.area) if c.area else ''}"
                       f"{', elevation ' + str(c.elevation) if c.elevation else ''}</title></polygon>")
    out.append("</g>")
    out.append('<g class="tileless">')
    for h in sorted(board.tileless):
        out.append(f'<polygon data-hex="{h}" points="{pen.pts(lay.corners(h))}" fill="{TILELESS_FILL}" '
                   f'stroke="#555a66" stroke-width="1" stroke-dasharray="3 2"><title>{h}: no tile</title></polygon>')
    out.append("</g>")

    # special terrain: pattern over the hex and a token
    out.append('<g class="special">')
    for h, c in board.cells.items():
        if c.special is None:
            continue
        pat, letter, colour = (("hatch-impassable", "I", "#b3261e") if c.special == Special.IMPASSABLE
                               else ("dots-difficult", "D", "#6a3d9a"))
        cx, cy = pen.p(lay.hex_to_pixel(h))
        inner = [(lay.hex_to_pixel(h)[0] + 0.86 * (x - lay.hex_to_pixel(h)[0]),
                  lay.hex_to_pixel(h)[1] + 0.86 * (y - lay.hex_to_pixel(h)[1])) for x, y in lay.corners(h)]
        r = 0.3 * size
        out.append(f'<g data-hex="{h}" data-special="{c.special.value}"><title>{h}: {c.special.value} terrain</title>'
                   f'<polygon points="{pen.pts(inner)}" fill="url(#{pat})" stroke="none"/>'
                   f'<circle cx="{_n(cx)}" cy="{_n(cy)}" r="{_n(r)}" fill="#ffffff" stroke="{colour}" '
                   f'stroke-width="2"/><text x="{_n(cx)}" y="{_n(cy + r * 0.42)}" text-anchor="middle" '
                   f'font-size="{_n(r * 1.2)}" font-weight="bold" fill="{colour}">{letter}</text></g>')
    out.append("</g>")

    # areas: outline where an area hex meets a hex outside it
    if show_areas:
        out.append('<g class="areas">')
        for i, (name, hexes) in enumerate(board.areas.items()):
            colour = AREA_STROKES[i % len(AREA_STROKES)]
            segs = []
            for h in sorted(hexes):
                for d, n in enumerate(neighbors(h)):
                    if n not in hexes:
                        a, b = lay.edge_points(h, d)
                        (x0, y0), (x1, y1) = pen.p(a), pen.p(b)
                        segs.append(f"M{_n(x0)},{_n(y0)} L{_n(x1)},{_n(y1)}")
            out.append(f'<path data-area="{_esc(name)}" d="{" ".join(segs)}" fill="none" stroke="{colour}" '
                       f'stroke-width="3" stroke-dasharray="7 4" stroke-linecap="round"><title>area {_esc(name)}'
                       f"</title></path>")
        out.append("</g>")

    # elevation
    out.append('<g class="elevation">')
    for h, c in board.cells.items():
        if c.elevation:
            x, y = pen.p(lay.hex_to_pixel(h))
            out.append(f'<text x="{_n(x)}" y="{_n(y - 0.5 * size)}" text-anchor="middle" font-size="{_n(size * 0.3)}"'
                       f' fill="#222222">{c.elevation:+d}</text>')
    out.append("</g>")

    # scenery
    out.append('<g class="scenery">')
    for s in board.scenery:
        hgt = "taller than anything" if s.height is None else f"height {s.height:g}"
        out.append(f'<polygon data-scenery="{_esc(s.name)}" points="{pen.pts(s.polygon)}" fill="{SCENERY_FILL}" '
                   f'fill-opacity="{0.9 if s.blocks_lof else 0.4}" stroke="#2f2a25" stroke-width="1.5">'
                   f"<title>{_esc(s.name)} ({hgt})</title></polygon>")
        if show_scenery_names:
            c = s.shape.representative_point()
            x, y = pen.p((c.x, c.y))
            out.append(f'<text x="{_n(x)}" y="{_n(y)}" text-anchor="middle" font-size="{_n(size * 0.28)}" '
                       f'fill="#ffffff">{_esc(s.name)}</text>')
    out.append("</g>")

    # edge features
    out.append('<g class="edges">')
    for e, f in board.edge_features.items():
        stroke, w, dash = EDGE_STYLE[f.kind]
        if f.kind == EdgeKind.DOOR and f.open:
            dash, w = "4 4", 3.0
        (x0, y0), (x1, y1) = (pen.p(p) for p in e.endpoints(lay))
        state = " (open)" if f.kind == EdgeKind.DOOR and f.open else ""
        out.append(f'<line data-edge="{e}" data-kind="{f.kind.value}" x1="{_n(x0)}" y1="{_n(y0)}" x2="{_n(x1)}" '
                   f'y2="{_n(y1)}" stroke="{stroke}" stroke-width="{_n(w)}" stroke-linecap="round"{_dash(dash)}>'
                   f"<title>{f.kind.value}{state} on {e}</title></line>")
    out.append("</g>")

    if coords:
        out.append('<g class="coords">')
        for h in board:
            x, y = pen.p(lay.hex_to_pixel(h))
            fill = "#dddddd" if not board[h].tile else "#333333"
            out.append(f'<text x="{_n(x)}" y="{_n(y + 0.55 * size)}" text-anchor="middle" '
                       f'font-size="{_n(size * 0.25)}" fill="{fill}">{h}</text>')
        out.append("</g>")

    out.append('<g class="overlays">')
    for o in overlays:
        out.append(_overlay(o, pen, lay))
    out.append("</g></svg>")
    return "\n".join(out) + "\n"


def _overlay_points(o: Overlay, lay) -> list[Point]:
    if isinstance(o, Segment):
        return [o.p0, o.p1]
    if isinstance(o, Circle):
        (x, y), r = o.center, o.radius
        return [(x - r, y - r), (x + r, y + r)]
    if isinstance(o, Label):
        return [o.pos]
    if isinstance(o, HexMark):
        return lay.corners(o.hex)
    if isinstance(o, Poly):
        return list(o.points)
    raise ValueError(f"unknown overlay {type(o).__name__} (allowed: Segment, Circle, Label, HexMark, Poly)")


def _overlay(o: Overlay, pen: _Pen, lay) -> str:
    if isinstance(o, Segment):
        (x0, y0), (x1, y1) = pen.p(o.p0), pen.p(o.p1)
        arrow = ' marker-end="url(#arrow)"' if o.arrow else ""
        return (f'<line class="segment" x1="{_n(x0)}" y1="{_n(y0)}" x2="{_n(x1)}" y2="{_n(y1)}" '
                f'stroke="{_esc(o.stroke)}" stroke-width="{_n(o.width)}" stroke-opacity="{_n(o.opacity)}" '
                f'stroke-linecap="round"{_dash(o.dash)}{arrow}>{_title(o.title)}</line>')
    if isinstance(o, Circle):
        cx, cy = pen.p(o.center)
        r = o.radius * pen.size
        parts = [f'<g class="circle">{_title(o.title)}',
                 f'<circle cx="{_n(cx)}" cy="{_n(cy)}" r="{_n(r)}" fill="{_esc(o.fill)}" fill-opacity="{_n(o.opacity)}"'
                 f' stroke="{_esc(o.stroke)}" stroke-width="{_n(o.width)}"{_dash(o.dash)}/>']
        if o.facing is not None:
            a0, a1 = math.radians(o.facing - o.arc / 2), math.radians(o.facing + o.arc / 2)
            ra = r * 0.92
            sx, sy = cx + ra * math.cos(a0), cy + ra * math.sin(a0)
            ex, ey = cx + ra * math.cos(a1), cy + ra * math.sin(a1)
            large = 1 if o.arc > 180 else 0
            if o.arc >= 360:
                parts.append(f'<circle class="arc" cx="{_n(cx)}" cy="{_n(cy)}" r="{_n(ra)}" fill="{_esc(o.arc_fill)}"'
                             f' fill-opacity="{_n(o.arc_opacity)}"/>')
            else:
                parts.append(f'<path class="arc" d="M{_n(cx)},{_n(cy)} L{_n(sx)},{_n(sy)} A{_n(ra)},{_n(ra)} 0 '
                             f'{large} 1 {_n(ex)},{_n(ey)} Z" fill="{_esc(o.arc_fill)}" '
                             f'fill-opacity="{_n(o.arc_opacity)}" stroke="none"/>')
            fx, fy = cx + r * 1.25 * math.cos(math.radians(o.facing)), cy + r * 1.25 * math.sin(math.radians(o.facing))
            parts.append(f'<line class="facing" x1="{_n(cx)}" y1="{_n(cy)}" x2="{_n(fx)}" y2="{_n(fy)}" '
                         f'stroke="{_esc(o.stroke)}" stroke-width="{_n(o.width)}" stroke-linecap="round"/>')
        if o.label:
            parts.append(f'<text x="{_n(cx)}" y="{_n(cy + r * 0.35)}" text-anchor="middle" '
                         f'font-size="{_n(r)}" font-weight="bold" fill="{_esc(o.stroke)}">{_esc(o.label)}</text>')
        parts.append("</g>")
        return "".join(parts)
    if isinstance(o, Label):
        x, y = pen.p(o.pos)
        return (f'<text class="label" x="{_n(x)}" y="{_n(y)}" text-anchor="{_esc(o.anchor)}" '
                f'font-size="{_n(o.size)}" font-weight="{_esc(o.weight)}" fill="{_esc(o.fill)}">{_esc(o.text)}</text>')
    if isinstance(o, HexMark):
        return (f'<polygon class="hexmark" data-hex="{o.hex}" points="{pen.pts(lay.corners(o.hex))}" '
                f'fill="{_esc(o.fill)}" fill-opacity="{_n(o.opacity)}" stroke="{_esc(o.stroke)}" '
                f'stroke-width="{_n(o.width)}"{_dash(o.dash)}>{_title(o.title)}</polygon>')
    if isinstance(o, Poly):
        tag = "polygon" if o.closed else "polyline"
        return (f'<{tag} class="poly" points="{pen.pts(o.points)}" fill="{_esc(o.fill)}" '
                f'fill-opacity="{_n(o.opacity)}" stroke="{_esc(o.stroke)}" stroke-width="{_n(o.width)}"'
                f'{_dash(o.dash)}>{_title(o.title)}</{tag}>')
    raise ValueError(f"unknown overlay {type(o).__name__} (allowed: Segment, Circle, Label, HexMark, Poly)")


def edge_overlay(edge: Edge, board: Board, **style) -> Segment:
    """A :class:`Segment` along ``edge`` (board units), e.g. to highlight a wall a line grazes."""
    p0, p1 = edge.endpoints(board.layout)
    return Segment(p0, p1, **style)


__all__ = ["render_board", "Segment", "Circle", "Label", "HexMark", "Poly", "Overlay", "WITNESS", "BLOCKED",
           "GRAZING", "TERRAIN_FILL", "edge_overlay"]
