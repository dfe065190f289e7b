"""Drawing a Galaxy Defenders map of Areas (no widgets): the board, the Area tints, and the SVG picture of an
``activation`` scenario for ``explorer render`` and the docs.

Sections drawn: 5.1 Barrier Hex Side (red dashes), Blocking Hexes and Hex Sides, the Areas and their centre hexes
(11.11), the activating figure's path and end hex, a Prime Swarm's second figure (11.6) or a multi-hex alien's base
(11.8).
"""

from __future__ import annotations

from explorer.board import Board, Cell, Special, Terrain
from explorer.hexgrid import Layout
from explorer.render.svg import Circle, HexMark, Label, Overlay, Segment
from explorer.trace import Trace

from .activation import AreaMap, parse_map

AREA_TINTS = ("#4dabf7", "#ffa94d", "#69db7c", "#da77f2", "#ffd43b", "#38d9a9", "#ff8787", "#748ffc")
SIDE_FILL = {"agent": "#1c7ed6", "drone": "#1098ad", "npc": "#2f9e44", "alien": "#c92a2a", "power_suit": "#868e96"}
PASS, FAIL, PATH = "#2b8a3e", "#e03131", "#1c7ed6"


def area_board(amap: AreaMap, title: str = "") -> Board:
    """A drawing-only :class:`Board` of the map: every hex sand with its Area name, Blocking Hexes as impassable
    rock, the Hex Sides (barrier, wall, door) as edge features."""
    cells = {h: (Cell(Terrain.ROCKY, special=Special.IMPASSABLE, area=a) if h in amap.blocking
                 else Cell(Terrain.SAND, area=a)) for h, a in amap.area_of.items()}
    return Board(cells, edge_features=amap.features.values(), name=title)


AREA_LABEL_DROP = 0.92
"""How far below its centre hex's middle an Area's name sits (board units: hex radii; the text's baseline): in the
bottom of the hex, under a figure's circle (radius 0.42) and the amber ring round a figure the step names. At 0.62
"Area B" and "Area C" ran over the circles of the figures standing on the centre hexes (the GD Round page, session
16)."""


def area_overlays(amap: AreaMap) -> list[Overlay]:
    """Each Area tinted (its own colour), its name low on its centre hex (:data:`AREA_LABEL_DROP`, clear of a figure
    standing there), the centre hex ringed."""
    names = sorted(set(amap.area_of.values()))
    tint = {a: AREA_TINTS[i % len(AREA_TINTS)] for i, a in enumerate(names)}
    lay = area_board_layout()
    out: list[Overlay] = [HexMark(h, stroke="none", width=0, fill=tint[a], opacity=0.28, title=f"{h}: Area {a}")
                          for h, a in sorted(amap.area_of.items()) if h not in amap.blocking]
    for a in names:
        x, y = lay.hex_to_pixel(amap.centre[a])
        out.append(Circle((x, y), 0.78, stroke=tint[a], width=2.0, dash="3 3", title=f"centre hex of Area {a}"))
        out.append(Label((x, y + AREA_LABEL_DROP), f"Area {a}", size=11, fill="#343a40", weight="bold"))
    return out


def area_board_layout() -> Layout:
    """The layout the maps are drawn with (pointy-top hexes, size 1)."""
    return Layout("pointy")




def initials(name: str) -> str:
    """Two letters for a figure's disc: ``"Crimson Nightmare" -> "CN"``, ``"Hulk" -> "Hu"``, ``"Diggers 2" -> "D2"``."""
    parts = name.replace("-", " ").split()
    if len(parts) > 1 and parts[-1].isdigit():
        return parts[0][:1] + parts[-1][:1]
    return (parts[0][:1] + (parts[1][:1] if len(parts) > 1 else parts[0][1:2])).title()


def activation_picture(sc, trace: Trace) -> str:
    """SVG of an ``activation`` scenario as its trace leaves it (its typed :class:`~.activation.ActivationOutcome`):
    the Areas, sides, every figure on its end hex, the activating figure's path (blue) and end hex (green ring)."""
    from explorer.render.svg import render_board

    amap = parse_map(sc, "scenario")
    lay = area_board_layout()
    o = trace.result
    ov: list[Overlay] = area_overlays(amap)
    pts = [lay.hex_to_pixel(h) for h in o.path]
    ov += [Segment(a, b, stroke=PATH, width=4.0) for a, b in zip(pts, pts[1:])]
    figs = [(sc.activating.name, o.end, sc.activating.kind)]
    if o.second is not None:
        figs.append((sc.activating.name + " 2", o.second, sc.activating.kind))
    sides = {f.name: f.side for f in sc.figures}
    figs += [(n, h, sides[n]) for n, h in o.figures]
    if sc.activating.base and o.second is not None:    # a two-hex base drawn as one bar (11.8)
        ov.append(Segment(lay.hex_to_pixel(o.end), lay.hex_to_pixel(o.second),
                          stroke=SIDE_FILL["alien"], width=10.0, opacity=0.55, title="two-hex base"))
    for name, h, side in figs:
        p = lay.hex_to_pixel(h)
        ov.append(Circle(p, 0.42, fill=SIDE_FILL[side], stroke="#ffffff", width=1.5, title=f"{name} on {h}",
                         label=initials(name)))
    ov.append(HexMark(o.end, stroke=PASS, width=3.0))
    return render_board(area_board(amap, sc.title), overlays=ov, size=30.0, show_areas=False)
