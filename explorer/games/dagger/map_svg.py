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


def map_svg(world: WorldMap, state: GameState | None = None, highlight: Iterable[str] = (), scale: float = 1.0,
            margin: int = 40, pieces: Mapping[str, Sequence[str]] | None = None, caption: str = "") -> str:
    """SVG text of ``world`` (and, given ``state``, its bases' overrun tokens, heroes, enemies and the threat).

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
    out = [f"<svg xmlns='http://www.w3.org/2000/svg' width='{w}' height='{h}' viewBox='0 0 {w} {h}' "
           "font-family='sans-serif' font-size='11'>", f"<rect width='{w}' height='{h}' fill='white'/>"]
    for a, b in world.links:
        (x1, y1), (x2, y2) = pos(a), pos(b)
        out.append(f"<line x1='{x1:.1f}' y1='{y1:.1f}' x2='{x2:.1f}' y2='{y2:.1f}' stroke='#777' "
                   "stroke-dasharray='3,4'/>")
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
        out.append(f"<text x='{x:.1f}' y='{y - 17:.1f}' text-anchor='middle'>{escape(label)}</text>")
        if state is not None:
            here = [h.name for h in state.heroes if h.space == s.name and not h.eliminated]
            here += [e.id for e in state.enemies if e.space == s.name]
            for i, p in enumerate(here):
                colour = "#1a5fb4" if any(h.name == p for h in state.heroes) else "#a51d2d"
                out.append(f"<text x='{x:.1f}' y='{y + 24 + 11 * i:.1f}' text-anchor='middle' fill='{colour}'>"
                           f"{escape(p)}</text>")
        elif pieces:
            for i, p in enumerate(pieces.get(s.name, ())):
                out.append(f"<text x='{x:.1f}' y='{y + 24 + 11 * i:.1f}' text-anchor='middle' fill='#a51d2d'>"
                           f"{escape(p)}</text>")
    if state is None and caption:
        out.append(f"<text x='{margin}' y='{h - 10}' font-size='13'>{escape(caption)}</text>")
    if state is not None:
        lost = f" — LOST: {', '.join(state.lost)}" if state.lost else ""
        out.append(f"<text x='{margin}' y='{h - 10}' font-size='13'>Round {state.round} · threat {state.threat}/20 · "
                   f"overrun {len(state.overrun)}/{len(state.bases)} · events left {len(state.event_deck)}"
                   f"{escape(lost)}</text>")
    out.append("</svg>")
    return "".join(out)
