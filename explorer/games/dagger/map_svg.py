"""A static SVG of the D.A.G.G.E.R. world map and a game state (no ipywidgets: for docs, notebooks without a kernel).

Rulebook sections drawn: Setup (the five bases, Asgard and the Bifrost), Gameplay › Aspect Actions (spaces joined by
dotted lines), Additional Rules › Nearby and Overrun (overrun tokens).

:func:`map_svg(world, state=None, highlight=())` returns SVG text: dotted lines, spaces coloured by region, bases as
squares (crossed when overrun), Asgard with the Bifrost slot, hero and enemy names under their spaces.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from html import escape

from .state import GameState
from .worldmap import WorldMap

PALETTE = ("#cfe3f7", "#d4f0e0", "#f7e3cf", "#efd4f0", "#f3f0c8", "#e0e0e0", "#f7cfd4", "#d8d8f7")


CHAR_W, LINE_H, NODE_R = 6.4, 12.0, 13.0
"""Label layout, in SVG pixels: the width allowed per character of the 11 px sans-serif labels (a generous
estimate: capitals and digits are about 6-7 px), a line's height, and the half-size of a space's marker."""
_PLACES = ("above", "below", "right", "left", "above-right", "above-left", "below-right", "below-left")


def _box(place: str, x: float, y: float, w: float, h: float) -> tuple[float, float, float, float]:
    gap = NODE_R + 3
    if place == "above":
        return x - w / 2, y - gap - h, w, h
    if place == "below":
        return x - w / 2, y + gap, w, h
    if place == "right":
        return x + gap, y - h / 2, w, h
    if place == "left":
        return x - gap - w, y - h / 2, w, h
    dx = x + gap - 4 if place.endswith("right") else x - gap + 4 - w
    dy = y - gap - h + 4 if place.startswith("above") else y + gap - 4
    return dx, dy, w, h


def _overlap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> float:
    w = min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0])
    h = min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


def place_labels(spots: Sequence[tuple[float, float, Sequence[str]]], width: float, height: float
                 ) -> list[tuple[float, float, float, float]]:
    """Where each space's label block goes: ``spots`` are ``(x, y, lines)`` (the marker's centre in SVG pixels and
    the block's lines: the space's name, then the pieces on it); returns one ``(left, top, width, height)`` box per
    spot, in order. Greedy: the blocks with most lines first, each at the first of 8 places around its marker
    (above, below, right, left, then the corners; slid inside the picture's left and right sides) that overlaps the
    fewest pixels of the markers and the blocks placed so far, and least crosses the top and bottom
    (``width`` × ``height``)."""
    markers = [(x - NODE_R, y - NODE_R, 2 * NODE_R, 2 * NODE_R) for x, y, _ in spots]
    boxes: list[tuple[float, float, float, float] | None] = [None] * len(spots)
    order = sorted(range(len(spots)), key=lambda i: (-len(spots[i][2]), i))
    for i in order:
        x, y, lines = spots[i]
        w, h = CHAR_W * max(len(t) for t in lines) + 4, LINE_H * len(lines)
        best, cost = None, 0.0
        for k, place in enumerate(_PLACES):
            b = _box(place, x, y, w, h)
            b = (min(max(b[0], 0.0), width - w), b[1], w, h)          # slid inside the picture's sides
            out = (max(0.0, -b[1]) + max(0.0, b[1] + b[3] - height)) * w
            c = (sum(_overlap(b, m) for j, m in enumerate(markers) if j != i)
                 + sum(_overlap(b, o) for o in boxes if o is not None) + 4 * out + 0.5 * k)
            if best is None or c < cost:
                best, cost = b, c
        boxes[i] = best
    return [b for b in boxes if b is not None]


def map_svg(world: WorldMap, state: GameState | None = None, highlight: Iterable[str] = (), scale: float = 1.0,
            margin: int = 40, pieces: Mapping[str, Sequence[str]] | None = None, caption: str = "") -> str:
    """SVG text of ``world`` (and, given ``state``, its bases' overrun tokens, heroes, enemies and the threat).
    Each space's name and the pieces on it are one label block, placed around its marker where it overlaps no other
    marker or block if it can (:func:`place_labels`).

    Args:
        highlight: space names drawn with a thick outline (e.g. a step's marks).
        scale: drawing units per SVG pixel (map ``x``/``y`` are 0..2000 units).
        pieces: without ``state``, enemy standees to draw by space (``{space: [enemy id, ...]}``), e.g. the ones
            Setup's 1st strike places.
        caption: without ``state``, a line written under the map (the state writes its own).
    """
    xs = [s.x for s in world.spaces]
    ys = [s.y for s in world.spaces]
    w = int((max(xs) - min(xs)) * scale + 2 * margin)
    h = int((max(ys) - min(ys)) * scale + 2 * margin + 30)

    def pos(name: str) -> tuple[float, float]:
        s = world.space(name)
        return (s.x - min(xs)) * scale + margin, (s.y - min(ys)) * scale + margin

    region_colour = {r: PALETTE[i % len(PALETTE)] for i, (r, _) in enumerate(world.regions)}
    marks = set(highlight)
    base_spaces = dict(state.bases) if state is not None else {b: b for b in world.bases}
    base_at = {s: b for b, s in base_spaces.items()}
    heroes = {h.name for h in state.heroes} if state is not None else set()
    out = [f"<svg xmlns='http://www.w3.org/2000/svg' width='{w}' height='{h}' viewBox='0 0 {w} {h}' "
           "font-family='sans-serif' font-size='11'>", f"<rect width='{w}' height='{h}' fill='white'/>"]
    for a, b in world.links:
        (x1, y1), (x2, y2) = pos(a), pos(b)
        out.append(f"<line x1='{x1:.1f}' y1='{y1:.1f}' x2='{x2:.1f}' y2='{y2:.1f}' stroke='#777' "
                   "stroke-dasharray='3,4'/>")
    spots: list[tuple[float, float, Sequence[str]]] = []
    for s in world.spaces:
        x, y = pos(s.name)
        fill = region_colour[s.region]
        stroke = "stroke='#c00' stroke-width='3'" if s.name in marks else "stroke='#333'"
        base = base_at.get(s.name)
        if base is not None:
            out.append(f"<rect x='{x - 13:.1f}' y='{y - 13:.1f}' width='26' height='26' fill='{fill}' {stroke}/>")
            if state is not None and base in state.overrun:
                out.append(f"<path d='M{x - 13:.1f},{y - 13:.1f} L{x + 13:.1f},{y + 13:.1f} M{x + 13:.1f},"
                           f"{y - 13:.1f} L{x - 13:.1f},{y + 13:.1f}' stroke='#c00' stroke-width='3'/>"
                           f"<title>{escape(base)}: overrun</title>")
        else:
            out.append(f"<circle cx='{x:.1f}' cy='{y:.1f}' r='11' fill='{fill}' {stroke}/>")
        label = s.name + (f" ({s.number})" if s.number is not None else "")
        if base == "Iliad":
            label += " · Iliad"
        if s.name == world.asgard:
            label += " · Bifrost" if world.bifrost == s.name else ""
        if state is not None:
            here = [h.name for h in state.heroes if h.space == s.name and not h.eliminated]
            here += [e.id for e in state.enemies if e.space == s.name]
        else:
            here = list(pieces.get(s.name, ())) if pieces else []
        spots.append((x, y, [label, *here]))
    for (_x, _y, lines), (left, top, bw, _bh) in zip(spots, place_labels(spots, w, h - 30)):
        for i, text in enumerate(lines):
            colour = "" if i == 0 else " fill='#1a5fb4'" if text in heroes else " fill='#a51d2d'"
            out.append(f"<text x='{left + bw / 2:.1f}' y='{top + LINE_H * (i + 1) - 2.5:.1f}' text-anchor='middle'"
                       f"{colour}>{escape(text)}</text>")
    if state is None and caption:
        out.append(f"<text x='{margin}' y='{h - 10}' font-size='13'>{escape(caption)}</text>")
    if state is not None:
        lost = f" — LOST: {', '.join(state.lost)}" if state.lost else ""
        out.append(f"<text x='{margin}' y='{h - 10}' font-size='13'>Round {state.round} · threat {state.threat}/20 · "
                   f"overrun {len(state.overrun)}/{len(state.bases)} · events left {len(state.event_deck)}"
                   f"{escape(lost)}</text>")
    out.append("</svg>")
    return "".join(out)
