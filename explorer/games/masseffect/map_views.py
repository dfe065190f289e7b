"""Mass Effect mission-map page: an interactive board (ipycanvas :class:`~explorer.widgets.HexBoardView`) answering
adjacency, distance and Line of Fire questions by clicking.

Rulebook sections: Interacting with the Mission Map › Adjacency, Counting Distances, Line of Fire; Additional
Rules › Turrets; Map Features › Elevation Change Icons; The Mission Book › Map Iconography; Shrouded Areas.

* Click a character: its six Line of Fire lines (green to every hex in Line of Fire; a red mark where a line is
  blocked, hover for the feature and why), and the explanation of every line in the side panel.
* Click a hex (mode "Distance"): a distance heat map that respects walls and locked doors (or ignores them), and the
  hexes adjacent to it outlined.
* Click a Turret's hex: the Turret's Line of Fire; only then do the rotate buttons show (a what-if on its printed
  facing: nothing turns during a Mission).
* A legend names every edge feature, High Ground, Shrouded areas (greyed, dashed outline, named) and icon.
* Ruling options of the map part can be switched; the answers follow.

``map_page(map_name=DEFAULT_MAP) -> (widget, redraw)``: the Panel app shows ``widget`` and calls ``redraw()`` on load.
Static snapshot: :func:`explorer.games.masseffect.map_svg.render_map`.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping
from dataclasses import replace

import ipywidgets as W

from explorer.widgets.icons import accordion
from explorer.widgets.labels import button_width

from explorer.hexgrid import Hex
from explorer.games import Game, get_game
from explorer.render.svg import HexMark, Label
from explorer.widgets import HexBoardView, Piece

from . import geometry as G
from . import options as opts
from .map import Icon, MissionMap, available_maps, load_map
from .map_svg import (ENEMY_FILL, HIGH_GROUND_FILL, ICON_STYLE, SQUADMATE_FILL, distance_overlays, icon_overlays,
                      layout, lof_overlays, to_board)

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


KIND_NAMES = {Icon.SPAWN: "Spawn", Icon.ELITE_SPAWN: "Elite Spawn", Icon.START: "Start (a Squadmate's)",
              Icon.OBJECTIVE: "Objective", Icon.LOOT: "Loot", Icon.BONUS_LOOT: "Bonus Loot", Icon.REFUGEE: "Refugee",
              Icon.TERMINAL: "Terminal (number)", Icon.INFERNO: "Inferno", Icon.COOLANT_LEAK: "Coolant Leak",
              Icon.FAST_TRAVEL: "Fast Travel (pair letter)", Icon.TURRET: "Turret", Icon.MAP_EXIT: "Map Exit"}
SHROUD_FILL, SHROUD_STROKE = "#495057", "#7048e8"
UNLOCKED_DASH = "#ffe8a1"
ADJACENT_STROKE = "#1f618d"


def _swatch(css: str) -> str:
    return f"<span style='display:inline-block;width:26px;height:12px;vertical-align:middle;{css}'></span>"


def legend_html() -> str:
    """The Mission Map legend: edge features, High Ground, Shrouded areas, every icon, the answer overlays."""
    items = [
        (_swatch("border-top:5px solid #1d1d1d"), "Wall (blocks adjacency, movement and Line of Fire)"),
        (_swatch("border-top:5px solid #8b4a1c"), "Locked door (as a wall)"),
        (_swatch(f"border-top:5px dashed #8b4a1c;background:linear-gradient({UNLOCKED_DASH},{UNLOCKED_DASH}) "
                 "0 0/100% 0 no-repeat"), "Unlocked door (dashed: open to movement, blocks Line of Fire)"),
        (_swatch("border-top:4px dotted #4d4d4d"), "Obstacle (blocks Line of Fire only)"),
        (_swatch("border-top:3px dotted #777777"), "Elevation Change (High → Low only)"),
        (_swatch(f"background:{HIGH_GROUND_FILL};opacity:.6"), "High Ground"),
        (_swatch(f"background:{SHROUD_FILL};opacity:.45;outline:2px dashed {SHROUD_STROKE}"), "Shrouded area"),
        (_swatch("border-top:3px solid #566573"), "Turret facing (arrow; pale dashed: Disabled)"),
    ]
    icons = "".join(
        f"<span style='white-space:nowrap;margin-right:10px'><span style='display:inline-block;min-width:18px;"
        f"border-radius:9px;background:{fill};color:#fff;font-weight:bold;font-size:10px;text-align:center;"
        f"padding:0 3px'>{html.escape(text)}</span> {html.escape(KIND_NAMES[k])}</span> "
        for k, (text, fill) in ICON_STYLE.items())
    answers = [(_swatch("border-top:3px solid #1a9641"), "Line of Fire to the last hex in LoF"),
               (_swatch("border-top:2px dashed #d7191c"), "blocked line; red dot: the blocking feature"),
               (_swatch("outline:2px dashed #d7191c"), "hex not in Line of Fire"),
               (_swatch("background:linear-gradient(90deg,#28aadc,#f03c28);opacity:.6"),
                "distance (near → far; grey: no route)"),
               (_swatch(f"outline:3px solid {ADJACENT_STROKE}"), "adjacent hex")]
    def col(title: str, rows) -> str:
        return f"<div><b>{title}</b>" + "".join(f"<div style='white-space:nowrap'>{sw} {html.escape(t)}</div>"
                                               for sw, t in rows) + "</div>"

    return (f"<div class='me-map-legend' style='font-family:sans-serif;font-size:11px;color:#343a40;line-height:1.5;"
            f"max-width:860px;display:flex;flex-wrap:wrap;gap:4px 18px'>{col('Map', items)}"
            f"{col('Answers', answers)}<div style='max-width:300px'><b>Icons</b><br>{icons}</div></div>")


def map_decor(m: MissionMap) -> list:
    """Overlays the drawing board lacks: unlocked doors dashed, Shrouded areas greyed with a dashed outline and their
    name, then the icons (:func:`~.map_svg.icon_overlays`)."""
    from explorer.render.svg import Segment
    from .map import FeatureKind

    lay = layout(m)
    out: list = []
    for a in m.areas:
        if a.shrouded:
            out += [HexMark(h, stroke=SHROUD_STROKE, width=1.5, dash="3 3", fill=SHROUD_FILL, opacity=0.3)
                    for h in sorted(a.hexes)]
            xs = [lay.hex_to_pixel(h) for h in a.hexes]
            cx, cy = sum(p[0] for p in xs) / len(xs), sum(p[1] for p in xs) / len(xs)
            out.append(Label((cx, cy), f"Shrouded: {a.name}", size=11, fill=SHROUD_STROKE, weight="bold"))
    out += [o for o in icon_overlays(m) if not (isinstance(o, HexMark) and o.fill == "#34495e")]
    for f in m.features:
        if f.kind == FeatureKind.DOOR and not f.locked:
            p, q = f.edge.endpoints(lay)
            out.append(Segment(p, q, stroke=UNLOCKED_DASH, width=3.0, dash="3 4"))
    return out


class MissionMapView(W.HBox):
    """The board (with its legend) plus a side panel (mode, rulings, answers). ``characters`` is
    ``{name: (hex, side)}``. Clicking a character shows its six Line of Fire lines (mode "Line of Fire") or the
    distances from it; clicking a hex does the same from that hex; clicking a Turret's hex shows the Turret's Line of
    Fire and the rotate buttons (its printed facing, as a what-if: Turrets never turn during a Mission)."""

    def __init__(self, m: MissionMap, characters: Mapping[str, tuple[Hex, str]] | None = None, scale: float = 26.0,
                 note: W.Widget | None = None):
        self.map = m
        self.characters = dict(characters if characters is not None else default_characters(m))
        self.board = HexBoardView(to_board(m), scale=scale)
        self.board.rotate_left.on_click(lambda _b: self.turn_turret(-1))
        self.board.rotate_right.on_click(lambda _b: self.turn_turret(+1))
        modes = ["Line of Fire", "Distance", "Distance ignoring walls"]
        self.mode = W.ToggleButtons(options=modes, value="Line of Fire", description="Click shows",
                                    style={"button_width": button_width(modes, 150)})
        self.rulings_box = {k: W.Dropdown(options=list(opts.rulings().options[k].readings),
                                          value=opts.rulings().options[k].default, description=k,
                                          tooltip=opts.rulings().options[k].title,
                                          style={"description_width": "190px"}, layout=W.Layout(width="380px"))
                            for k in MAP_RULINGS}
        self.answer = W.HTML(layout=W.Layout(max_width="560px"))
        self.answer.add_class("me-map-answer")
        for w in (self.mode, *self.rulings_box.values()):
            w.observe(lambda _c: self.update(), names="value")
        self.board.on_select(lambda _s: self.update())
        self._set_pieces()
        rulings = accordion([W.VBox(list(self.rulings_box.values()))], titles=("Ruling options",))
        side = W.VBox([*([note] if note is not None else []),
                       W.HTML(f"<b style='font-family:sans-serif'>{html.escape(m.title or m.name)}</b>"), self.mode,
                       rulings, self.answer], layout=W.Layout(min_width="340px", max_width="580px", flex="1 1 420px"))
        width = f"{max(self.board.canvas.width, 360)}px"   # the legend wraps under the board, never wider
        left = W.VBox([self.board, W.HTML(legend_html(), layout=W.Layout(width=width))],
                      layout=W.Layout(width=width, margin="0 12px 0 0"))
        super().__init__([left, side], layout=W.Layout(flex_flow="row wrap", align_items="flex-start"))
        self.add_class("me-mission-map")
        self.update()

    def rulings(self) -> dict[str, str]:
        return {k: w.value for k, w in self.rulings_box.items()}

    def _set_pieces(self) -> None:
        lay = layout(self.map)
        self.board.set_pieces([Piece(name, lay.hex_to_pixel(h), 0.42, fill=SQUADMATE_FILL if side == "squadmate"
                                     else ENEMY_FILL, label=name[:2]) for name, (h, side) in self.characters.items()])

    def selected_hex(self) -> Hex | None:
        """The hex the selection stands for (a character's hex, or the clicked hex)."""
        sel = self.board.selected
        if isinstance(sel, str) and sel in self.characters:
            return self.characters[sel][0]
        return sel if isinstance(sel, Hex) and sel in self.map else None

    def turn_turret(self, direction: int) -> None:
        """Turn the selected Turret's printed facing one side (``-1`` anticlockwise, ``+1`` clockwise): a what-if."""
        h = self.selected_hex()
        t = self.map.turret_at(h) if h is not None else None
        if t is None:
            return
        self.map = replace(self.map, turrets=tuple(replace(x, facing=(x.facing + direction) % 6) if x.hex == h else x
                                                   for x in self.map.turrets))
        self.update()

    def _lof_text(self, name: str, h: Hex, r: Mapping[str, str]) -> str:
        m = self.map
        fan = G.lof_all(m, h, rulings=r)
        lines = []
        for d, line in enumerate(fan.lines):
            ok = [str(x.target) for x in line if x.in_lof]
            no = [x for x in line if not x.in_lof]
            why = ""
            if no:
                first = no[0]
                why = (f"<br><span style='color:#c92a2a'>✗ from {first.target} on ({len(no)} hexes): "
                       f"{html.escape(first.reason)}</span>")
            lines.append(f"<li><b>{m.direction_name(d)}</b>: <span style='color:#2b8a3e'>✓ "
                         f"{html.escape(', '.join(ok) or 'none')}</span>{why}</li>")
        verdicts = []
        for other, (x, side) in self.characters.items():
            if other == name:
                continue
            v = G.line_of_fire(m, h, x, rulings=r)
            mark = "✓" if v.in_lof else "✗"
            colour = "#2b8a3e" if v.in_lof else "#c92a2a"
            verdicts.append(f"<li class='me-lof-verdict'><span style='color:{colour}'>{mark}</span> "
                            f"<b>{html.escape(other)}</b> ({x}): "
                            f"{'in Line of Fire' if v.in_lof else 'not in Line of Fire'}"
                            f" — {html.escape(v.reason)}</li>")
        adj = G.adjacent_hexes(m, h)
        adj_chars = [n for n, (x, _) in self.characters.items() if x in adj]
        return (f"<div class='me-lof-answer' style='font-family:sans-serif;font-size:12px;line-height:1.35'>"
                f"<b>{html.escape(name)}</b> on {h}: <b>{len(fan.targets)} hexes in Line of Fire</b>."
                f" Adjacent: {html.escape(', '.join(adj_chars) or 'no character')}."
                f"<div><b>The six straight lines</b></div><ul style='margin:2px 0 4px 16px;padding:0'>"
                + "".join(lines) + "</ul><div><b>Line of Fire to each character</b></div>"
                "<ul style='margin:2px 0 4px 16px;padding:0'>" + "".join(verdicts) + "</ul>"
                "<small style='color:#1864ab'>§ Interacting with the Mission Map › Line of Fire</small></div>")

    def update(self) -> None:
        """Recompute overlays and the answer text for the current selection, mode and rulings."""
        m, sel, r = self.map, self.board.selected, self.rulings()
        ov = map_decor(m)
        text = "<i>Click a character for its Line of Fire, or a hex for distances.</i>"
        h = self.selected_hex()
        turret = m.turret_at(h) if h is not None else None
        for b in (self.board.rotate_left, self.board.rotate_right):
            b.layout.display = None if turret is not None else "none"
        name = sel if isinstance(sel, str) and sel in self.characters else None
        if h is None:
            pass
        elif self.mode.value == "Line of Fire":
            if name is not None:
                ov += lof_overlays(m, h, rulings=r)
                text = self._lof_text(name, h, r)
            elif turret is not None:
                hit = sorted(G.turret_targets(m, h, rulings=r))
                ov += [HexMark(x, stroke="#1a9641", width=3.0) for x in hit]
                ov += [HexMark(h, stroke="#ffbf00", width=3.0)]
                text = (f"<div class='me-lof-answer' style='font-family:sans-serif;font-size:12px'><b>Turret</b> on "
                        f"{h}, facing {m.direction_name(turret.facing)}, {'Active' if turret.active else 'Disabled'}: "
                        f"Line of Fire to {len(hit)} hexes ({html.escape(', '.join(map(str, hit)) or 'none')}). "
                        "Use the rotate buttons to try another printed facing (a Turret never turns during a "
                        "Mission).<br><small style='color:#1864ab'>§ Additional Rules › Turrets</small></div>")
            else:
                ov += lof_overlays(m, h, rulings=r)
                text = self._lof_text(f"A character on {h}", h, r)
        else:
            ignore = self.mode.value == "Distance ignoring walls"
            ov = distance_overlays(m, h, ignore_walls=ignore, rulings=r) + ov
            adj = G.adjacent_hexes(m, h)
            ov += [HexMark(x, stroke=ADJACENT_STROKE, width=3.0, title=f"{x}: adjacent to {h}") for x in adj]
            dm = G.distance_map(m, h, ignore_walls=ignore, rulings=r)
            far = [f"{n} {dm[x]}" if x in dm else f"{n} no route" for n, (x, _) in self.characters.items()
                   if n != name]
            text = (f"<div class='me-distance-answer' style='font-family:sans-serif;font-size:12px'>"
                    f"Distances from {html.escape(name + ' on ' if name else '')}{h}"
                    f"{' ignoring walls and locked doors' if ignore else ''}; adjacent hexes: "
                    f"{', '.join(map(str, adj)) or 'none'}.<br>Characters: {html.escape('; '.join(far))}.<br>"
                    "<small style='color:#1864ab'>§ Interacting with the Mission Map › Counting Distances, "
                    "Adjacency</small></div>")
        self.board.overlays = ov
        self.answer.value = text

    def redraw(self) -> None:
        self.board.redraw()
        self.update()


SCENARIO_PREFIX = "scenario:"
"""Picker values naming a built-in ``map`` scenario (``"scenario:me-04"``); the others name a packaged map."""


def _game(game: Game | None = None) -> Game:
    """The game of this page: the one the app passes in (:attr:`explorer.games.Page.build`), else the registry's (a
    widget module never imports its game module: docs/design.md, "Layers")."""
    return game if game is not None else get_game("masseffect")


def map_choices(game: Game | None = None) -> list[tuple[str, str]]:
    """The Map picker's ``(label, value)`` options: every built-in ``map`` scenario (its map and characters, with
    its questions answered), then every packaged map (characters on its Start and Spawn icons)."""
    out = [(f"{s.name}: {s.title}", SCENARIO_PREFIX + s.name) for s in _game(game).scenarios() if s.kind == "map"]
    return out + [(f"map {name}", name) for name in available_maps()]


def page_default(game: Game | None = None) -> str:
    """The built-in scenario the Mission Map page opens on (the registry's rule: :meth:`explorer.games.Game.
    page_default`)."""
    return _game(game).page_default("mission-map")


def map_page(name: str | None = None, game: Game | None = None) -> tuple[W.Widget, Callable[[], None]]:
    """The mission-map page: a Map picker (built-in ``map`` scenarios, then packaged maps) over a
    :class:`MissionMapView`; returns ``(widget, redraw)``; ``widget.note`` is its
    :class:`~explorer.widgets.scenario_note.ScenarioNote`.

    ``name``: a built-in ``map`` scenario id (its map and characters, and its id, title and answers shown as
    ``explorer resolve`` prints them), else a packaged map's name (characters on its icons); default: the page's
    default scenario. ``game``: the page's :class:`~explorer.games.Game` (passed by ``Page.open``).

    Raises:
        ScenarioError: ``name`` is neither a built-in ``map`` scenario nor a packaged map.
    """
    from explorer.widgets.picker_url import keep_in_url
    from explorer.widgets.scenario_note import ScenarioNote

    from .queries import load_map_query

    holder = W.VBox()
    game = _game(game)
    choices = map_choices(game)
    values = {v for _l, v in choices}
    name = name or page_default(game)
    value = SCENARIO_PREFIX + name if SCENARIO_PREFIX + name in values or name not in values else name
    if value not in values:
        load_map_query(value[len(SCENARIO_PREFIX):]) if value.startswith(SCENARIO_PREFIX) else load_map(value)
        choices.append((value, value))
    picker = W.Dropdown(options=choices, value=value, description="Map", layout=W.Layout(width="560px"))
    picker.add_class("me-map-picker")
    note = ScenarioNote()
    state: dict[str, MissionMapView] = {}

    def show(choice: str) -> None:
        if choice.startswith(SCENARIO_PREFIX):
            name = choice[len(SCENARIO_PREFIX):]
            q = load_map_query(name)
            title, verdict = game.builtin_verdict(name)
            note.show(name, title, verdict)
            view = MissionMapView(q.mission_map, {n: (h, side) for n, (h, side, _tags) in q.placements.items()},
                                  note=note)
            for key, reading in q.rulings.items():     # the scenario's readings are the page's initial readings
                if key in view.rulings_box:
                    view.rulings_box[key].value = reading
            readings = lambda: repr(sorted((k, w.value) for k, w in view.rulings_box.items()))  # noqa: E731
            note.show(name, title, verdict, state=readings())   # the note says when a reading differs from as opened
            for w in view.rulings_box.values():
                w.observe(lambda _c: note.track(readings()), names="value")
        else:
            note.show(None)
            view = MissionMapView(load_map(choice))
        state["view"] = view
        holder.children = [picker, view]

    picker.observe(lambda c: (show(c["new"]), state["view"].redraw()), names="value")
    show(value)
    holder.note = note
    keep_in_url(holder, picker, key="map", rulings=lambda: state["view"].rulings_box)   # the map in the link
    return holder, lambda: state["view"].redraw()
