"""Static SVG of a Mass Effect Mission Map (for ``MissionMap._repr_svg_``, docs and the map page's snapshot).

Draws through the game-neutral :func:`explorer.render.svg.render_board`: the map becomes a drawing-only
:class:`~explorer.board.Board` (:func:`to_board`: every hex a plain tile, areas outlined, High Ground tinted, walls /
locked doors solid, unlocked doors dashed, Obstacles dotted, Elevation Change icons fine dots), and icons, Turrets,
characters and geometry answers become overlay values (:func:`icon_overlays`, :func:`character_overlays`,
:func:`lof_overlays`, :func:`distance_overlays`) that the ipycanvas widget reuses. Imports no ipywidgets.

Rulebook sections illustrated: The Mission Book › Mission Map Page, Map Iconography; Interacting with the Mission Map ›
Adjacency, Counting Distances, Line of Fire; Additional Rules › Turrets; Map Features.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from explorer.board import Board, Cell, EdgeFeature as BoardEdge, EdgeKind, Terrain
from explorer.hexgrid import Hex, Layout
from explorer.render.svg import BLOCKED, WITNESS, Circle, HexMark, Label, Overlay, Segment, render_board

from . import geometry as G
from .map import FeatureKind, Icon, MissionMap

ICON_STYLE: dict[Icon, tuple[str, str]] = {
    Icon.SPAWN: ("S", "#c0392b"),
    Icon.ELITE_SPAWN: ("E", "#7b241c"),
    Icon.START: ("St", "#1e8449"),
    Icon.OBJECTIVE: ("O", "#b7950b"),
    Icon.LOOT: ("L", "#2874a6"),
    Icon.BONUS_LOOT: ("B", "#1f618d"),
    Icon.REFUGEE: ("R", "#7d3c98"),
    Icon.TERMINAL: ("T", "#17202a"),
    Icon.INFERNO: ("In", "#e67e22"),
    Icon.COOLANT_LEAK: ("CL", "#138d75"),
    Icon.FAST_TRAVEL: ("F", "#8e44ad"),
    Icon.TURRET: ("Tu", "#566573"),
    Icon.MAP_EXIT: ("X", "#212f3d"),
}
"""Icon glyphs: (short text, fill colour). Plain letters (a label's first letter is appended: Fast Travel pair
"FA"/"FB", Terminal "T1"), so they read the same on a canvas and in an SVG without an emoji font."""
HIGH_GROUND_FILL = "#b9975b"
SQUADMATE_FILL = "#2e86c1"
ENEMY_FILL = "#cb4335"

_KIND = {FeatureKind.WALL: EdgeKind.WALL, FeatureKind.DOOR: EdgeKind.DOOR, FeatureKind.OBSTACLE: EdgeKind.OBSTACLE,
         FeatureKind.ELEVATION: EdgeKind.ELEVATION}


def to_board(m: MissionMap) -> Board:
    """A drawing-only :class:`Board` of ``m`` (areas and High Ground carried as cell area / elevation 1)."""
    def cell(h: Hex) -> Cell:
        a = m.area_of(h)
        return Cell(Terrain.SAND, area=a.name if a else None, elevation=1 if m.is_high(h) else 0)
    feats = [BoardEdge(f.edge, _KIND[f.kind], open=(f.kind == FeatureKind.DOOR and not f.locked))
             for f in m.features]
    return Board({h: cell(h) for h in m.hexes}, edge_features=feats, orientation=m.orientation, name=m.title or m.name)


def layout(m: MissionMap) -> Layout:
    return Layout(m.orientation)


def icon_overlays(m: MissionMap) -> list[Overlay]:
    """High Ground tint, Shrouded areas greyed, icon glyphs (several per hex fan out), Turret facing arrows."""
    lay = layout(m)
    out: list[Overlay] = [HexMark(h, stroke="none", width=0, fill=HIGH_GROUND_FILL, opacity=0.35,
                                  title=f"{h}: High Ground") for h in sorted(m.high_ground)]
    for a in m.areas:
        if a.shrouded:
            out += [HexMark(h, stroke="none", width=0, fill="#34495e", opacity=0.18,
                            title=f"{h}: Shrouded area {a.name}") for h in sorted(a.hexes)]
    for h, ics in sorted(m.icon_map.items()):
        cx, cy = lay.hex_to_pixel(h)
        n = len(ics)
        for i, ic in enumerate(ics):
            dx = (i - (n - 1) / 2) * 0.6
            text, fill = ICON_STYLE[ic.kind]
            label = f"{ic.kind.value.replace('_', ' ')}{' ' + ic.label if ic.label else ''}"
            out.append(Circle((cx + dx, cy - 0.5), 0.3, fill=fill, stroke="#ffffff", width=1.0, opacity=0.95,
                              label=(text + (ic.label[:1].upper() if ic.label else ""))[:2], title=f"{h}: {label}"))
    for t in m.turrets:
        p = lay.hex_to_pixel(t.hex)
        v = lay.axial_to_pixel(t.hex.q + 0.45 * _dq(t.facing), t.hex.r + 0.45 * _dr(t.facing))
        out.append(Segment(p, v, stroke="#566573" if t.active else "#aab7b8", width=3.0, arrow=True,
                           dash=None if t.active else "3 2",
                           title=f"Turret on {t.hex}, facing {m.direction_name(t.facing)}, "
                                 f"{'Active' if t.active else 'Disabled'}"))
    return out


def _dq(d: int) -> int:
    from explorer.hexgrid import DIRECTIONS
    return DIRECTIONS[d].q


def _dr(d: int) -> int:
    from explorer.hexgrid import DIRECTIONS
    return DIRECTIONS[d].r


def character_overlays(m: MissionMap, characters: Mapping[str, tuple[Hex, str]],
                       selected: str | None = None) -> list[Overlay]:
    """Discs for characters ``{name: (hex, side)}`` (side ``"squadmate"`` / ``"enemy"``), the selected one ringed."""
    lay = layout(m)
    out: list[Overlay] = []
    for name, (h, side) in characters.items():
        fill = SQUADMATE_FILL if side == "squadmate" else ENEMY_FILL
        out.append(Circle(lay.hex_to_pixel(h), 0.5, fill=fill, stroke="#ffbf00" if name == selected else "#ffffff",
                          width=3.0 if name == selected else 1.5, label=_initials(name),
                          title=f"{name} ({side}) on {h}"))
    return out


def _initials(name: str) -> str:
    parts = name.split()
    return (parts[0][:2] + (parts[1][:1] if len(parts) > 1 else "")) if parts else "?"


def lof_overlays(m: MissionMap, attacker: Hex, rulings: G.RulingsLike = None) -> list[Overlay]:
    """The six straight lines from ``attacker``: green to every hex in Line of Fire, a red mark where a line is blocked
    (tooltip: the feature and why), red outlines on hexes not in Line of Fire (tooltip: the reason)."""
    lay = layout(m)
    fan = G.lof_all(m, attacker, rulings=rulings)
    a = lay.hex_to_pixel(attacker)
    out: list[Overlay] = []
    for line in fan.lines:
        if not line:
            continue
        ok = [x for x in line if x.in_lof]
        if ok:
            out.append(Segment(a, lay.hex_to_pixel(ok[-1].target), **WITNESS, title=f"Line of Fire to {ok[-1].target}"))
        last = line[-1]
        if last.blockers:
            c = last.blockers[0]
            p, q = (lay.hex_to_pixel(h) for h in c.edge.hexes)
            mid = ((p[0] + q[0]) / 2, (p[1] + q[1]) / 2)
            out.append(Segment(mid, lay.hex_to_pixel(last.target), **BLOCKED, title=f"blocked: {c.why}"))
            out.append(Circle(mid, 0.16, fill="#d7191c", stroke="#ffffff", width=1.0,
                              title=f"{c.feature} on {c.edge}: {c.why}"))
        for x in line:
            out.append(HexMark(x.target, stroke="#1a9641" if x.in_lof else "#d7191c", width=2.0,
                               dash=None if x.in_lof else "4 2", title=f"{x.target}: {x.reason}"))
    out.append(HexMark(attacker, stroke="#ffbf00", width=3.0, title=f"attacker on {attacker}"))
    return out


def distance_overlays(m: MissionMap, source: Hex, *, ignore_walls: bool = False,
                      rulings: G.RulingsLike = None) -> list[Overlay]:
    """A distance heat map from ``source`` (Counting Distances): each reachable hex tinted by its distance and
    labelled with it; unreachable hexes hatched grey."""
    lay = layout(m)
    dm = G.distance_map(m, source, ignore_walls=ignore_walls, rulings=rulings)
    top = max(dm.values()) or 1
    out: list[Overlay] = []
    for h in sorted(m.hexes):
        if h not in dm:
            out.append(HexMark(h, stroke="none", width=0, fill="#7f8c8d", opacity=0.5, title=f"{h}: no route"))
            continue
        d = dm[h]
        t = d / top
        colour = "#%02x%02x%02x" % (int(40 + 200 * t), int(170 - 110 * t), int(220 - 180 * t))
        out.append(HexMark(h, stroke="none", width=0, fill=colour, opacity=0.45, title=f"{h}: distance {d}"))
        x, y = lay.hex_to_pixel(h)
        out.append(Label((x, y + 0.15), str(d), size=10, fill="#1b2631", weight="bold"))
    return out


def render_map(m: MissionMap, *, characters: Mapping[str, tuple[Hex, str]] | None = None,
               lof_from: Hex | None = None, distance_from: Hex | None = None, size: float = 26.0,
               coords: bool = False, rulings: G.RulingsLike = None, extra: Iterable[Overlay] = ()) -> str:
    """An SVG document of ``m`` with its icons, optional characters ``{name: (hex, side)}``, an optional Line of Fire
    fan from ``lof_from`` and an optional distance heat map from ``distance_from``."""
    ov: list[Overlay] = []
    if distance_from is not None:
        ov += distance_overlays(m, distance_from, rulings=rulings)
    ov += icon_overlays(m)
    if lof_from is not None:
        ov += lof_overlays(m, lof_from, rulings=rulings)
    ov += character_overlays(m, characters or {})
    ov += list(extra)
    return render_board(to_board(m), size=size, overlays=ov, coords=coords, title=m.title or m.name or "Mission Map")
