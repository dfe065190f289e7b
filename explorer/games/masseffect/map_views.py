"""Mass Effect mission-map page: an interactive board (ipycanvas :class:`~explorer.widgets.HexBoardView`) answering
adjacency, distance and Line of Fire questions by clicking.

Rulebook sections: Interacting with the Mission Map › Adjacency, Counting Distances, Line of Fire; Additional Rules ›
Turrets; Map Features › Elevation Change Icons.

* Click a character: its six Line of Fire lines (green to every hex in Line of Fire; a red mark where a line is
  blocked, hover for the feature and why), and the explanation of every line in the side panel.
* Click a hex (mode "Distance"): a distance heat map that respects walls and locked doors (or ignores them), and the
  hexes adjacent to it outlined.
* Ruling options of the map part can be switched; the answers follow.

``map_page(map_name=DEFAULT_MAP) -> (widget, redraw)``: the Panel app shows ``widget`` and calls ``redraw()`` on load.
Static snapshot: :func:`explorer.games.masseffect.map_svg.render_map`.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping

import ipywidgets as W

from explorer.hexgrid import Hex
from explorer.render.svg import HexMark
from explorer.widgets import HexBoardView, Piece

from . import geometry as G
from . import options as opts
from .map import DEFAULT_MAP, Icon, MissionMap, available_maps, load_map
from .map_svg import (ENEMY_FILL, SQUADMATE_FILL, distance_overlays, icon_overlays, layout, lof_overlays, to_board)

MAP_RULINGS = ("lof_own_hex_locked_door", "lof_out_of_bounds", "lof_intervening_elevation", "distance_elevation")


def default_characters(m: MissionMap) -> dict[str, tuple[Hex, str]]:
    """Squadmates on the map's Start hexes and one enemy on each Spawn / Elite Spawn hex (a starting position)."""
    out: dict[str, tuple[Hex, str]] = {}
    for h in m.hexes_with(Icon.START):
        label = next((i.label for i in m.icons_at(h) if i.kind == Icon.START and i.label), "")
        out[label.capitalize() or f"Squadmate {len(out) + 1}"] = (h, "squadmate")
    for i, h in enumerate(m.hexes_with(Icon.SPAWN), 1):
        out[f"Minion {i}"] = (h, "enemy")
    for i, h in enumerate(m.hexes_with(Icon.ELITE_SPAWN), 1):
        out[f"Elite {i}"] = (h, "enemy")
    return out


class MissionMapView(W.HBox):
    """The board plus a side panel (mode, rulings, answers). ``characters`` is ``{name: (hex, side)}``."""

    def __init__(self, m: MissionMap, characters: Mapping[str, tuple[Hex, str]] | None = None):
        self.map = m
        self.characters = dict(characters if characters is not None else default_characters(m))
        self.board = HexBoardView(to_board(m), scale=22.0)
        self.mode = W.ToggleButtons(options=["Line of Fire", "Distance", "Distance ignoring walls"],
                                    value="Line of Fire", description="Click shows")
        self.rulings_box = {k: W.Dropdown(options=list(opts.rulings().options[k].readings),
                                          value=opts.rulings().options[k].default, description=k,
                                          style={"description_width": "initial"}) for k in MAP_RULINGS}
        self.answer = W.HTML(layout=W.Layout(width="420px"))
        for w in (self.mode, *self.rulings_box.values()):
            w.observe(lambda _c: self.update(), names="value")
        self.board.on_select(lambda _s: self.update())
        self._set_pieces()
        side = W.VBox([W.HTML(f"<b>{html.escape(m.title or m.name)}</b>"), self.mode,
                       *self.rulings_box.values(), self.answer], layout=W.Layout(width="440px"))
        super().__init__([self.board, side])
        self.update()

    def rulings(self) -> dict[str, str]:
        return {k: w.value for k, w in self.rulings_box.items()}

    def _set_pieces(self) -> None:
        lay = layout(self.map)
        self.board.set_pieces([Piece(name, lay.hex_to_pixel(h), 0.5, fill=SQUADMATE_FILL if side == "squadmate"
                                     else ENEMY_FILL, label=name[:2]) for name, (h, side) in self.characters.items()])

    def update(self) -> None:
        """Recompute overlays and the answer text for the current selection, mode and rulings."""
        m, sel, r = self.map, self.board.selected, self.rulings()
        ov = icon_overlays(m)
        text = "<i>Click a character for its Line of Fire, or a hex for distances.</i>"
        if isinstance(sel, str) and sel in self.characters:
            h = self.characters[sel][0]
            ov += lof_overlays(m, h, rulings=r)
            fan = G.lof_all(m, h, rulings=r)
            seen = [n for n, (x, _) in self.characters.items() if x in fan.targets]
            text = (f"<b>{html.escape(sel)}</b> on {h}: {len(fan.targets)} hexes in Line of Fire"
                    + (f"; characters: {html.escape(', '.join(seen))}" if seen else "") + "<ul>"
                    + "".join(f"<li>{html.escape(line)}</li>" for line in fan.explain()) + "</ul>"
                    "<small>Interacting with the Mission Map › Line of Fire</small>")
        elif isinstance(sel, Hex) and sel in m:
            ignore = self.mode.value == "Distance ignoring walls"
            if self.mode.value == "Line of Fire":
                ov += lof_overlays(m, sel, rulings=r)
                text = f"Line of Fire from hex {sel}: {len(G.lof_targets(m, sel, rulings=r))} hexes"
            else:
                ov = distance_overlays(m, sel, ignore_walls=ignore, rulings=r) + ov
                adj = G.adjacent_hexes(m, sel)
                ov += [HexMark(x, stroke="#1f618d", width=3.0, title=f"{x}: adjacent to {sel}") for x in adj]
                text = (f"Distances from {sel}{' ignoring walls and locked doors' if ignore else ''}; adjacent "
                        f"hexes: {', '.join(map(str, adj)) or 'none'}<br><small>Interacting with the Mission Map › "
                        "Counting Distances, Adjacency</small>")
        self.board.overlays = ov
        self.answer.value = text

    def redraw(self) -> None:
        self.board.redraw()
        self.update()


def map_page(map_name: str = DEFAULT_MAP) -> tuple[W.Widget, Callable[[], None]]:
    """The mission-map page: a map picker over a :class:`MissionMapView`; returns ``(widget, redraw)``."""
    holder = W.VBox()
    picker = W.Dropdown(options=available_maps(), value=map_name, description="Map")
    state: dict[str, MissionMapView] = {}

    def show(name: str) -> None:
        state["view"] = MissionMapView(load_map(name))
        holder.children = [picker, state["view"]]

    picker.observe(lambda c: (show(c["new"]), state["view"].redraw()), names="value")
    show(map_name)
    return holder, lambda: state["view"].redraw()
