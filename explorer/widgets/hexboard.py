"""HexBoardView: an interactive hex board on ipycanvas (terrain, edge features and scenery, pieces, overlays).

Game-agnostic: the board is an :class:`explorer.board.Board`; pieces are :class:`Piece` values (a disc with an
optional facing arc); overlays are the plain values of :mod:`explorer.render.svg` (``Segment``, ``Circle``,
``Label``, ``HexMark``, ``Poly``), so the same overlay list renders in the widget and in a static SVG.

Coordinates: everything the caller gives is in **board units** (the hex layout of the board, size 1); the view maps
them to canvas pixels with ``px = (x - minx) * scale + margin`` (same for ``y``). :meth:`HexBoardView.to_board`
/ :meth:`HexBoardView.to_pixel` convert; :meth:`HexBoardView.hex_at` and :meth:`HexBoardView.piece_at` hit-test with
the engine's own :class:`~explorer.hexgrid.Layout`.

Layers (one :class:`ipycanvas.MultiCanvas` with its own canvas manager, see ``notes/stack.md`` trap 3):
0 the board (terrain, then scenery and edge features), 1 pieces, 2 overlays, 3 marks (the top layer receives mouse
and key events). Terrain and features share one layer since session 19: they change together (a scenario, a zoom),
and each layer is one more whole-canvas allocation, clear and copy in the browser whenever the board is drawn again
at a new size (~12 ms on the phone emulation); ``layers["terrain"]`` and ``layers["features"]`` both name it.
Each layer redraw is batched (``fill_styled_polygons`` / ``stroke_polygons`` with ``(n, 3)`` uint8 colour arrays)
inside one :func:`explorer.widgets.canvas.hold`, so it is **one** message to the browser, and only the layer that
changed is redrawn: ``marks`` holds the few overlays an owner changes on their own (the Line of Fire page's target
rings), so changing them redraws that small layer, not the overlays; an empty marks layer costs no message. The
layers share the manager, so an outer hold makes several layer redraws one message: a full redraw, a relabel, and an
owner's pieces plus overlays (the Line of Fire page) are each one message.

Interaction (mouse and touch alike; selecting and moving are separate gestures):

* a **click / tap** (pointer down and up without moving more than :attr:`HexBoardView.DRAG_PX`) selects a piece
  (``selected`` = its id, ringed) or a hex (``selected`` = the :class:`Hex`) and calls ``on_select``;
* a **press** on a piece (pointer or finger down) calls ``on_press`` callbacks with its id at once, before it is
  known whether the press becomes a click or a drag (an owner may start work a click would ask for: the Line of Fire
  page starts the pressed Model's row);
* a **drag** of a piece moves it (``on_move`` callbacks receive ``(piece_id, (x, y))`` in board units) and does not
  change the selection;
* the toolbar's rotate buttons, keys ``q`` / ``e``, a two-finger twist, or the mouse wheel **with Ctrl, Shift or Alt
  held** rotate the selected piece (``on_rotate`` callbacks receive ``(piece_id, -1 | +1)``: anticlockwise /
  clockwise on screen). A plain wheel scrolls the page or the notebook: the board carries the browser fix
  (:func:`explorer.widgets.layout.browser_fix`, in JupyterLab as in the Panel app) that keeps plain wheel events
  away from the canvas (ipycanvas would cancel them);
* the arrow keys nudge the selected piece by :attr:`HexBoardView.NUDGE` board units (``on_move``).

Hover shows the axial ``(q, r)`` of the hex under the pointer in an HTML readout and sets ``hovered``.

Size: by default the canvas scales to the width of its column (CSS ``xr-fit``, :mod:`explorer.widgets.layout`; the
drawing resolution stays ``scale``). The toolbar's ``−`` / ``+`` show the board at a fixed pixel size
(:meth:`HexBoardView.set_scale`) inside a box that scrolls, so nothing is cut off; ``fit`` fits it to its column
again (:meth:`HexBoardView.fit`). The buttons step from the size the board is shown at (:meth:`HexBoardView.shown_now`:
fitted, the browser reports it). A zoom is a pure view change: when the drawing already on the canvas is at least as
fine as the new size needs (zooming out, or fitting after a zoom in, up to :attr:`HexBoardView.REUSE_RATIO`; zooming
in from a fitted board shown smaller than its drawing, up to the drawing's size), only the canvas's shown size
changes (``shown_scale``; one layout message, nothing recomputed; on a phone the labels are drawn again at their
new floor, :mod:`.label_floor`). Otherwise the
canvas is resized to the new ``scale``, the ``on_zoom`` callbacks run (e.g. to re-place labels), then every layer is
redrawn once. The view never changes pieces by itself: the owner validates a move or rotation and calls
:meth:`HexBoardView.set_pieces` (or leaves the previous state in place).
"""

from __future__ import annotations

import html
import logging
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

import ipywidgets as W
import numpy as np
import traitlets as T
from ipycanvas import Canvas, MultiCanvas
from ipycanvas.canvas import _CanvasBase  # private, pinned: ipycanvas==0.14.3

from ..board import Board, EdgeKind, Special
from ..hexgrid import Hex
from ..render.svg import (EDGE_STYLE, GRID_STROKE, SCENERY_FILL, TERRAIN_FILL, TILELESS_FILL, Circle, HexMark,
                          Label, Overlay, Poly, Segment)
from .canvas import hold, reset_manager, set_style
from .label_floor import HOST_CLASS, Declutter, LabelFloor, floored, js_fixed, laid_out_px
from .layout import TOUCH_DRAG_CLASS, UNZOOM_CLASS, browser_fix, fit_canvas, mark_drawing
from .static import new_manager

Point = tuple[float, float]
_log = logging.getLogger(__name__)
LAYERS: tuple[str, ...] = ("board", "pieces", "overlays", "marks")
"""The layers of a :class:`HexBoardView`, bottom to top (``HexBoardView.layers`` also names the board layer
``"terrain"`` and ``"features"``)."""


@lru_cache(maxsize=512)
def rgb(css: str) -> tuple[int, int, int]:
    """``"#rrggbb"`` / ``"#rgb"`` -> ``(r, g, b)`` ints. Raises ValueError for anything else."""
    s = css.strip().lstrip("#")
    if len(s) == 3:
        s = "".join(c * 2 for c in s)
    if len(s) != 6:
        raise ValueError(f"colour {css!r} is not #rrggbb or #rgb")
    return int(s[0:2], 16), int(s[2:4], 16), int(s[4:6], 16)


@lru_cache(maxsize=4096)
def _wedge(cx: float, cy: float, r: float, facing: float, arc: float) -> np.ndarray:
    """A piece's front arc as a wedge polygon inside its base, shape ``(20, 2)`` in canvas pixels: the centre
    ``(cx, cy)`` then 19 points at ``0.9 * r`` px from ``facing - arc / 2`` to ``facing + arc / 2`` degrees.
    Cached (read-only array): a drag redraws every piece at each step, and all but the dragged one are unchanged."""
    n = 18
    pts = [(cx, cy)] + [(cx + 0.9 * r * math.cos(math.radians(facing - arc / 2 + arc * i / n)),
                         cy + 0.9 * r * math.sin(math.radians(facing - arc / 2 + arc * i / n)))
                        for i in range(n + 1)]
    out = np.array(pts)
    out.flags.writeable = False
    return out


def _colours(cs: Sequence[str]) -> np.ndarray:
    return np.array([rgb(c) for c in cs], dtype=np.uint8).reshape(-1, 3)


@dataclass(frozen=True)
class Piece:
    """A piece on the board (e.g. a Model's base).

    Attributes:
        id: unique id (what ``selected`` holds when it is clicked).
        center: base centre, board units.
        radius: base radius, board units.
        fill, stroke: CSS ``#rrggbb`` colours.
        facing: screen angle in degrees (0 = +x, clockwise on screen), ``None`` = no facing drawn.
        arc: width of the front arc drawn on the base (degrees; 360 = all round).
        label: short text drawn on the base.
    """

    id: str
    center: Point
    radius: float
    fill: str = "#4a90d9"
    stroke: str = "#1d1d1d"
    facing: float | None = None
    arc: float = 180.0
    label: str = ""


class _OwnMultiCanvas(MultiCanvas):
    """A MultiCanvas whose layers share one private canvas manager (the stock one uses the module-global manager)."""

    def __init__(self, n: int, width: int, height: int):
        mgr = new_manager()  # records the drawing when static pictures are on (explorer.widgets.static)
        layers = [Canvas(width=width, height=height, _canvas_manager=mgr) for _ in range(n)]
        _CanvasBase.__init__(self, _canvases=layers, _canvas_manager=mgr, width=width, height=height)
        self.on_msg(self._canvases[-1]._handle_frontend_event)


class HexBoardView(W.VBox):
    """Interactive hex board. See the module docstring for layers, units and interaction.

    Args:
        board: the board to draw.
        scale: pixels per board unit (hex centre-to-corner), > 0.
        margin: blank border in pixels.
        fit_column: start scaled to the width of the column (``False``: shown at ``scale`` pixels per unit).

    Traits:
        selected: ``str`` (piece id), :class:`Hex`, or ``None``.
        hovered: :class:`Hex` under the pointer (on the board) or ``None``.
        overlays: list of overlay values (``Segment``, ``Circle``, ``Label``, ``HexMark``, ``Poly``); setting it
            redraws the overlay layer only.
        marks: overlay values drawn above ``overlays`` on their own layer; setting it redraws that layer only.

    Raises:
        ValueError: a non-positive ``scale``.
    """

    selected = T.Any(None, allow_none=True)
    hovered = T.Any(None, allow_none=True)
    overlays = T.List()
    marks = T.List()

    def __init__(self, board: Board, scale: float = 24.0, margin: float = 10.0, fit_column: bool = True, **kwargs):
        if not scale > 0:
            raise ValueError(f"scale must be > 0, got {scale!r}")
        self.board = board
        self.scale = float(scale)
        """Pixels per board unit of the drawing (the canvas's own resolution)."""
        self.shown_scale = float(scale)
        """CSS pixels per board unit the canvas is shown at when not fitted to its column: ``scale``, or less after
        a zoom out that kept the drawing (:meth:`set_scale`)."""
        self.margin = float(margin)
        self._geom: tuple | None = None  # (board, bounds, hexes, corners in board units): see _board_geometry
        minx, miny, maxx, maxy = self._bounds()
        self._min = (minx, miny)
        width = int(math.ceil((maxx - minx) * scale + 2 * margin))
        height = int(math.ceil((maxy - miny) * scale + 2 * margin))
        self.canvas = _OwnMultiCanvas(len(LAYERS), width, height)
        self.fitted = bool(fit_column)
        """Whether the canvas is scaled to its column (``True``) or shown at its own pixel size."""
        self._fit_shown = math.inf   # CSS px per board unit the column showed the board at when it left fit mode
        self._apply_css_size()
        mark_drawing([self.canvas])
        self.canvas.add_class(TOUCH_DRAG_CLASS)   # one finger drags pieces; two fingers zoom the board (BROWSER_FIXES_JS)
        self.layers: dict[str, Canvas] = {name: self.canvas[i] for i, name in enumerate(LAYERS)}
        self.layers["terrain"] = self.layers["features"] = self.layers["board"]
        self.readout = W.HTML(self._readout_html(None))
        self.rotate_left = W.Button(description="⟲ rotate", tooltip="rotate the selected piece anticlockwise (q; "
                                    "or Ctrl/Shift/Alt + wheel)", layout=W.Layout(width="90px"))
        self.rotate_right = W.Button(description="rotate ⟳", tooltip="rotate the selected piece clockwise (e; "
                                     "or Ctrl/Shift/Alt + wheel)", layout=W.Layout(width="90px"))
        self.rotate_left.add_class("hexboard-rotate-left")
        self.rotate_right.add_class("hexboard-rotate-right")
        self.rotate_left.on_click(lambda _: self.rotate_selected(-1))
        self.rotate_right.on_click(lambda _: self.rotate_selected(+1))
        self.zoom_out = W.Button(description="−", tooltip="zoom out", layout=W.Layout(width="34px"))
        self.zoom_in = W.Button(description="+", tooltip="zoom in", layout=W.Layout(width="34px"))
        self.zoom_fit = W.Button(description="fit", tooltip="fit the board to the width of its column",
                                 layout=W.Layout(width="44px"))
        for b, k in ((self.zoom_out, "out"), (self.zoom_in, "in"), (self.zoom_fit, "fit")):
            b.add_class(f"hexboard-zoom-{k}")
            b.add_class(UNZOOM_CLASS)   # ends a two-finger zoom of the board (BROWSER_FIXES_JS)
        self.zoom_out.on_click(lambda _: self.set_scale(self.shown_now() / self.ZOOM_STEP))
        self.zoom_in.on_click(lambda _: self.set_scale(self.shown_now() * self.ZOOM_STEP))
        self.zoom_fit.on_click(lambda _: self.fit())
        self._zoom_cbs: list[Callable[[], None]] = []
        self._resizing = False
        toolbar = W.HBox([self.zoom_out, self.zoom_in, self.zoom_fit, self.rotate_left, self.rotate_right,
                          self.readout],
                         layout=W.Layout(align_items="center", flex_flow="row wrap"))
        self.frame = W.Box([self.canvas])
        """The box around the canvas: it scrolls when the board is zoomed beyond its column."""
        self.frame.add_class("xr-scroll")
        self._pieces: dict[str, Piece] = {}
        self._pieces_drawn: tuple | None = None  # what the pieces layer shows (see redraw_pieces)
        self._drag: dict | None = None
        self._move_cbs: list[Callable[[str, Point], None]] = []
        self._rotate_cbs: list[Callable[[str, int], None]] = []
        self._select_cbs: list[Callable[[object], None]] = []
        self._press_cbs: list[Callable[[str], None]] = []
        self.hex_marks_for_selection = True
        self.canvas.on_mouse_down(self._mouse_down)
        self.canvas.on_mouse_move(self._mouse_move)
        self.canvas.on_mouse_up(self._mouse_up)
        self.canvas.on_mouse_out(self._mouse_out)
        self.canvas.on_mouse_wheel(self._wheel)
        self.canvas.on_key_down(self._key)
        self.canvas.on_touch_start(self._touch_start)
        self.canvas.on_touch_move(self._touch_move)
        self.canvas.on_touch_end(self._touch_end)
        self.canvas.on_touch_cancel(self._touch_cancel)
        self._touch_last: Point | None = None
        self._twist: float | None = None
        self.label_floor = LabelFloor()
        """The board's label floor (:mod:`explorer.widgets.label_floor`): on a phone the browser reports how small the
        canvas is shown, and every label is drawn at least 14 CSS px tall (overlay labels that would then overlap
        one drawn before them are left out)."""
        self.label_sizes: set[float] = set()
        """The font sizes (canvas px) of the labels last drawn (scenery names, piece labels, overlay labels)."""
        self.label_floor.on_change(self._relabel)
        super().__init__([self.frame, toolbar, browser_fix(), self.label_floor], **kwargs)
        self.add_class("hexboard")
        self.add_class(HOST_CLASS)
        self.observe(lambda _: self._resizing or self.redraw_overlays(), names="overlays")
        self._marks_shown = False   # whether the marks layer shows anything (an empty one needs no clearing)
        self.observe(lambda _: self._resizing or self.redraw_marks(), names="marks")
        self.redraw()

    def _relabel(self) -> None:
        if self._resizing:   # a resize sets the floor it predicts (_predict_label_floor), then redraws everything
            return
        self.label_sizes = set()
        with hold(self.canvas):   # the labelled layers in one message (the board layer has no label)
            self.redraw_pieces()
            self.redraw_overlays()
            self.redraw_marks()

    def _label_px(self, size: float) -> float:
        """``size`` raised to the label floor; recorded in :attr:`label_sizes`."""
        out = floored(size, self.label_floor.min_px)
        self.label_sizes.add(out)
        return out

    ZOOM_STEP = 1.25
    """Factor of one zoom click."""
    SCALE_RANGE = (6.0, 160.0)
    """Smallest and largest scale (pixels per board unit) the zoom buttons reach."""
    FIT = (1100, 800)
    """The box (pixels) :meth:`fit` fits the board's drawing resolution in when it fits the board to its column."""
    DRAG_PX = 4.0
    """Pointer travel (canvas pixels) from which a press on a piece is a drag (a move), not a click (a selection)."""
    TWIST_DEG = 15.0
    """Degrees of a two-finger twist per rotate step."""
    REUSE_RATIO = 1.6
    """A zoom to a size at most this many times smaller than the drawing keeps the drawing and only shows it
    smaller (a pure view change: nothing is redrawn); further out, the board is drawn again at the new size (a
    drawing much finer than shown would make every later redraw dearer)."""

    def _apply_css_size(self) -> None:
        with self.canvas.layout.hold_sync():   # one message for the two sizes
            fit_canvas(self.canvas, self.fitted)
            if self.fitted:
                self.canvas.layout.width, self.canvas.layout.height = "100%", "auto"
            else:
                k = self.shown_scale / self.scale
                self.canvas.layout.width = f"{self._shown_css_width():g}px"
                self.canvas.layout.height = f"{self.canvas.height * k:g}px"

    def _shown_css_width(self) -> float:
        """The canvas's CSS width (px) at a fixed size, as :meth:`_apply_css_size` writes it (six significant
        digits)."""
        return float(f"{self.canvas.width * self.shown_scale / self.scale:g}")

    def set_scale(self, scale: float) -> None:
        """Zoom: show the board at ``scale`` CSS pixels per board unit (clamped to :data:`SCALE_RANGE`). When the
        drawing on the canvas is at least as fine and at most :data:`REUSE_RATIO` times finer, it is only shown
        smaller (``shown_scale``; no redraw, no ``on_zoom`` callback); otherwise the canvas is resized to ``scale``,
        ``on_zoom`` callbacks update the overlays, then every layer is redrawn (one message for all)."""
        self._set_scale(scale, fitted=False)

    def shown_now(self) -> float:
        """CSS pixels per board unit the board is shown at now: ``shown_scale`` at a fixed size; fitted to its
        column, the drawing's ``scale`` times the shown/drawn ratio the page script reports
        (:attr:`~.label_floor.LabelFloor.shown`), or ``shown_scale`` (the resolution :meth:`fit` chose) until it has
        reported one. The zoom buttons step
        from it (a fitted board at 1,280 px is shown at about two thirds of its drawing, on a phone at a third: a
        zoom in from the drawing's size was a jump of 2-4x, and always drew the board again)."""
        if not self.fitted:
            return self.shown_scale
        k = self.label_floor.shown
        return self.scale * k if k else self.shown_scale

    def _set_scale(self, scale: float, fitted: bool) -> None:
        lo, hi = self.SCALE_RANGE
        scale = min(hi, max(lo, float(scale)))
        if fitted == self.fitted and scale == (self.scale if fitted else self.shown_scale):
            return
        before = self.shown_now()
        if self.fitted and not fitted:
            self._fit_shown = before   # the size the column showed: zooming back out to it keeps the drawing too
        self.fitted = fitted
        # the drawing is fine enough: show it, redraw nothing. Zooming out, down to REUSE_RATIO below the drawing or
        # to the size the column showed it at; zooming in from a board shown smaller than its drawing (fitted to its
        # column, on a phone a third of it), up to the drawing's size
        if scale <= self.scale and (self.scale <= scale * self.REUSE_RATIO
                                    or (not fitted and (scale > before or scale >= self._fit_shown * 0.999))):
            self.shown_scale = scale
            self._apply_css_size()
            self._predict_label_floor()   # on a phone: the labels follow at once (one redraw of the labelled layers)
            return
        self.scale = self.shown_scale = scale
        self._resize_canvas()

    def _board_geometry(self) -> tuple:
        """``(bounds, hexes, corners)`` of :attr:`board`: its bounds, its hexes in order and their corners in board
        units (array ``(n, 6, 2)``), computed once per board (a :class:`Board` does not change) and reused by every
        zoom, fit and full redraw."""
        g = self._geom
        if g is None or g[0] is not self.board:
            hexes = list(self.board)
            lay = self.board.layout
            corners = np.asarray([p for h in hexes for p in lay.corners(h)], dtype=float).reshape(len(hexes), 6, 2)
            g = self._geom = (self.board, self.board.bounds(), hexes, corners)
        return g[1:]

    def _bounds(self) -> tuple[float, float, float, float]:
        return self._board_geometry()[0]

    def set_board(self, board: Board) -> None:
        """Show another board (same scale and fit mode): the canvas is resized to it, then redrawn."""
        self.board = board
        minx, miny, _, _ = self._bounds()
        self._min = (minx, miny)
        self._resize_canvas()

    def _resize_canvas(self) -> None:
        """Size the canvas to the board at :attr:`scale` (plus margins), tell the zoom listeners, redraw."""
        minx, miny, maxx, maxy = self._bounds()
        width = int(math.ceil((maxx - minx) * self.scale + 2 * self.margin))
        height = int(math.ceil((maxy - miny) * self.scale + 2 * self.margin))
        # each canvas's two sizes in one message (the MultiCanvas passes them on to its layers)
        holds = [c.hold_sync() for c in (self.canvas, *self.canvas._canvases)]
        for h in holds:
            h.__enter__()
        try:
            self.canvas.width, self.canvas.height = width, height
        finally:
            for h in reversed(holds):
                h.__exit__(None, None, None)
        self._apply_css_size()
        self._resizing = True
        try:
            self._predict_label_floor()
            for cb in self._zoom_cbs:
                cb()
        finally:
            self._resizing = False
        self.redraw()

    def _predict_label_floor(self) -> None:
        """On a phone (the page has reported a shown/drawn ratio other than the desktop's ``1``: :mod:`.label_floor`),
        a board shown at a fixed size is shown at ``shown_scale / scale`` CSS px per canvas px: the floor is set to
        that ratio, written as the page script writes it, so the labels are drawn at their floor at once (in a
        resize, before its one redraw; in a zoom that keeps the drawing, by the floor's relabel) and the page's next
        measurement finds nothing to change (before, a zoom in on a phone drew the board, then, up to
        :data:`~.label_floor.POLL_MS` later, its labels again). Fitted to its column, it is shown as wide as the box
        it scrolls in, whose width the page reports (:attr:`~.label_floor.LabelFloor.column`; before session 20 a
        fit's floor waited for the page's next measure, up to ``POLL_MS``, with the labels at the zoom's floor
        meanwhile); without that width, the browser's to measure: unchanged here. Checked in Chromium:
        ``tests/browser/test_label_floor_browser.py``."""
        lf = self.label_floor
        if not lf.phone:
            return
        column = lf.column
        if self.fitted:   # shown as wide as the box it scrolls in, which the page reports (else: its to measure)
            if column is None:
                return
            k = column / self.canvas.width
        else:
            # what the page script will measure: the width the browser lays the canvas out at over its drawing
            # width, written with JavaScript's toFixed (a tie rounds up there; before, 723.125 / 1157 = 0.625 was
            # predicted "0.62", the page wrote "0.63" and the labels were drawn again up to POLL_MS later)
            k = laid_out_px(self._shown_css_width()) / self.canvas.width
        value = f"{js_fixed(min(1.0, k))} {js_fixed(k)}" + ("" if column is None else f" {lf.value.split()[2]}")
        if lf.value != value:
            lf.value = value

    def fit(self, width: float | None = None, height: float | None = None) -> None:
        """Without arguments (the ``fit`` button): scale the board to the width of its column (drawn at the
        resolution that fits :data:`FIT`). With ``width`` / ``height``: show it at the fixed pixel size that fits
        ``width`` x ``height`` pixels (missing values from :data:`FIT`)."""
        w, h = width or self.FIT[0], height or self.FIT[1]
        minx, miny, maxx, maxy = self._bounds()
        scale = min((w - 2 * self.margin) / (maxx - minx), (h - 2 * self.margin) / (maxy - miny))
        self._set_scale(scale, fitted=width is None and height is None)

    def on_zoom(self, callback: Callable[[], None]) -> None:
        """Call ``callback()`` after every zoom, before the redraw (e.g. to re-place labels for the new scale)."""
        self._zoom_cbs.append(callback)

    # ------------------------------------------------------------------------------------------ coordinates

    def to_pixel(self, p: Point) -> Point:
        """Board units -> canvas pixels."""
        return ((p[0] - self._min[0]) * self.scale + self.margin, (p[1] - self._min[1]) * self.scale + self.margin)

    def to_board(self, x: float, y: float) -> Point:
        """Canvas pixels -> board units."""
        return ((x - self.margin) / self.scale + self._min[0], (y - self.margin) / self.scale + self._min[1])

    def _px(self, pts: Iterable[Point] | np.ndarray) -> np.ndarray:
        a = (pts if isinstance(pts, np.ndarray) else np.asarray(list(pts), dtype=float)).reshape(-1, 2)
        return np.column_stack(((a[:, 0] - self._min[0]) * self.scale + self.margin,
                                (a[:, 1] - self._min[1]) * self.scale + self.margin))

    def hex_at(self, x: float, y: float) -> Hex | None:
        """The board hex under canvas pixel ``(x, y)`` (same :class:`Layout` as the engine), ``None`` off the board."""
        h = self.board.layout.pixel_to_hex(self.to_board(x, y))
        return h if h in self.board else None

    def piece_at(self, x: float, y: float) -> str | None:
        """Id of the piece whose base contains canvas pixel ``(x, y)`` (the nearest centre if bases touch)."""
        bx, by = self.to_board(x, y)
        best, best_d = None, math.inf
        for p in self._pieces.values():
            d = math.hypot(bx - p.center[0], by - p.center[1])
            if d <= p.radius + 1.5 / self.scale and d < best_d:
                best, best_d = p.id, d
        return best

    # ------------------------------------------------------------------------------------------ state

    @property
    def pieces(self) -> dict[str, Piece]:
        return dict(self._pieces)

    def set_pieces(self, pieces: Iterable[Piece]) -> None:
        """Replace the pieces and redraw the pieces layer (one message).

        Raises:
            ValueError: two pieces with the same id.
        """
        new: dict[str, Piece] = {}
        for p in pieces:
            if p.id in new:
                raise ValueError(f"two pieces have the id {p.id!r}")
            new[p.id] = p
        self._pieces = new
        if isinstance(self.selected, str) and self.selected not in new:
            self.selected = None
        self.redraw_pieces()

    def on_move(self, callback: Callable[[str, Point], None]) -> None:
        """``callback(piece_id, (x, y))`` when a piece is dropped at board point ``(x, y)``."""
        self._move_cbs.append(callback)

    def on_rotate(self, callback: Callable[[str, int], None]) -> None:
        """``callback(piece_id, direction)``: -1 anticlockwise, +1 clockwise on screen."""
        self._rotate_cbs.append(callback)

    def on_select(self, callback: Callable[[object], None]) -> None:
        """``callback(selected)`` on every click (a piece id, a :class:`Hex`, or ``None`` off the board)."""
        self._select_cbs.append(callback)

    def on_press(self, callback: Callable[[str], None]) -> None:
        """``callback(piece_id)`` when a press (pointer or one finger down) starts on a piece, before its release
        decides between a click (``on_select``) and a drag (``on_move``). Nothing is selected or drawn by it; a
        callback's failure is logged and never stops the gesture."""
        self._press_cbs.append(callback)

    def rotate_selected(self, direction: int) -> None:
        """Ask the owner to rotate the selected piece (no-op when no piece is selected)."""
        if isinstance(self.selected, str) and self.selected in self._pieces:
            for cb in self._rotate_cbs:
                cb(self.selected, -1 if direction < 0 else 1)

    def select(self, what) -> None:
        """Select a piece id or a hex programmatically (same as a click) and notify ``on_select`` callbacks; then
        draw the selection the callbacks left (an owner may keep another piece selected: the Line of Fire page's
        target pick keeps the shooter), so the pieces layer is drawn once, with the final selection."""
        self.selected = what
        for cb in self._select_cbs:
            cb(what)
        self.redraw_pieces()

    # ------------------------------------------------------------------------------------------ events

    def _mouse_down(self, x: float, y: float) -> None:
        # nothing is selected yet: a press becomes a selection on release (a click) or a move (a drag), never both
        self._drag = {"id": self.piece_at(x, y), "start": (x, y), "moved": False}
        if self._drag["id"] is not None:
            for cb in self._press_cbs:
                try:
                    cb(self._drag["id"])
                except Exception:   # noqa: BLE001 - speculative work of an owner: the gesture goes on without it
                    _log.exception("a board's on_press callback failed")

    def _mouse_move(self, x: float, y: float) -> None:
        h = self.hex_at(x, y)
        if h != self.hovered:
            self.hovered = h
            self.readout.value = self._readout_html(h)
        d = self._drag
        if d is not None and d["id"] is not None and (d["moved"] or math.hypot(x - d["start"][0],
                                                                               y - d["start"][1]) > self.DRAG_PX):
            d["moved"] = True
            d["at"] = (x, y)
            self._draw_pieces(ghost=(d["id"], self.to_board(x, y)))

    def _mouse_up(self, x: float, y: float) -> None:
        d, self._drag = self._drag, None
        if d is None:
            return
        if d["moved"]:
            target = self.to_board(x, y)
            for cb in self._move_cbs:
                cb(d["id"], target)
            self.redraw_pieces()  # the owner's set_pieces (if any) already redrew; make sure no ghost is left
        else:
            self.select(d["id"] if d["id"] is not None else self.hex_at(*d["start"]))

    def _mouse_out(self, x: float, y: float) -> None:
        if self._drag is not None:
            moved, self._drag = self._drag["moved"], None
            if moved:
                self.redraw_pieces()
        self.hovered = None
        self.readout.value = self._readout_html(None)

    def _wheel(self, dx: float, dy: float) -> None:
        # only wheel events with Ctrl / Shift / Alt reach the canvas under the page shell (browser_fixes); Shift turns
        # a vertical wheel into a horizontal one in some browsers, so either axis counts
        d = dy or dx
        if d:
            self.rotate_selected(1 if d > 0 else -1)

    # touch: one finger = the mouse (tap selects, drag moves); two fingers twisting = rotate the selected piece
    def _touch_start(self, touches: Sequence[Point]) -> None:
        if len(touches) == 1:
            self._twist = None
            self._touch_last = touches[0]
            self._mouse_down(*touches[0])
        elif len(touches) >= 2:
            if self._drag is not None and self._drag["moved"]:
                self.redraw_pieces()
            self._drag = None
            (x0, y0), (x1, y1) = touches[0], touches[1]
            self._twist = math.degrees(math.atan2(y1 - y0, x1 - x0))

    def _touch_move(self, touches: Sequence[Point]) -> None:
        if len(touches) == 1 and self._twist is None:
            self._touch_last = touches[0]
            self._mouse_move(*touches[0])
        elif len(touches) >= 2 and self._twist is not None:
            (x0, y0), (x1, y1) = touches[0], touches[1]
            a = math.degrees(math.atan2(y1 - y0, x1 - x0))
            turn = (a - self._twist + 180) % 360 - 180
            if abs(turn) >= self.TWIST_DEG:
                self._twist = a
                self.rotate_selected(1 if turn > 0 else -1)

    def _touch_end(self, touches: Sequence[Point]) -> None:
        if touches:  # a finger is still down
            return
        if self._twist is not None:
            self._twist = None
            self._drag = None
            return
        if self._touch_last is not None:
            self._mouse_up(*self._touch_last)
        self._touch_last = None

    def _touch_cancel(self, touches: Sequence[Point]) -> None:
        self._twist, self._touch_last = None, None
        self._mouse_out(0.0, 0.0)

    ARROWS = {"ArrowLeft": (-1, 0), "ArrowRight": (1, 0), "ArrowUp": (0, -1), "ArrowDown": (0, 1)}
    NUDGE = 0.1
    """Board units an arrow key moves the selected piece (five times that with Shift)."""

    def _key(self, key: str, shift: bool = False, ctrl: bool = False, meta: bool = False) -> None:
        if key in ("q", "Q"):
            self.rotate_selected(-1)
        elif key in ("e", "E"):
            self.rotate_selected(+1)
        elif key in self.ARROWS and isinstance(self.selected, str) and self.selected in self._pieces:
            dx, dy = self.ARROWS[key]
            step = self.NUDGE * (5 if shift else 1)
            cx, cy = self._pieces[self.selected].center
            for cb in self._move_cbs:
                cb(self.selected, (cx + dx * step, cy + dy * step))

    def _readout_html(self, h: Hex | None) -> str:
        if h is None:
            txt = "hover a hex to see its axial (q, r)"
        else:
            c = self.board[h]
            what = "no tile" if not c.tile else c.terrain.value  # type: ignore[union-attr]
            txt = f"hex (q, r) = ({h.q}, {h.r}) · {what}" + (f" · {c.special.value}" if c.special else "")
        return f"<span class='hexboard-readout' style='font-family:monospace;font-size:12px'>{html.escape(txt)}</span>"

    # ------------------------------------------------------------------------------------------ drawing

    def redraw(self) -> None:
        """Full redraw of every layer (call again when a browser connects: ``pn.state.onload``), in one message (the
        layers share one canvas manager: one hold batches them all)."""
        reset_manager(self.layers["board"])
        with hold(self.canvas):
            self.redraw_board()
            self._draw_pieces()
            self.redraw_overlays()
            self._marks_shown = False   # a resized or newly connected canvas is blank
            self.redraw_marks()

    def redraw_board(self) -> None:
        """Layer 0: the terrain (:meth:`_draw_terrain`), then the scenery and edge features above it
        (:meth:`_draw_features`): 1 message."""
        c = self.layers["board"]
        with hold(c):
            c.clear()
            self._draw_terrain(c)
            self._draw_features(c)

    def redraw_terrain(self) -> None:
        """The board layer again (terrain and features share it: :meth:`redraw_board`): 1 message."""
        self.redraw_board()

    def redraw_features(self) -> None:
        """The board layer again (terrain and features share it: :meth:`redraw_board`): 1 message."""
        self.redraw_board()

    def _draw_terrain(self, c: Canvas) -> None:
        """Every hex filled by terrain (tile-less hexes dark), Special Terrain marks, the grid, on ``c`` (the
        features' round line caps set back: the grid was drawn with the default ones)."""
        lay = self.board.layout
        _, hexes, units = self._board_geometry()
        corners = self._px(units.reshape(-1, 2)).reshape(len(hexes), 6, 2)
        cols = _colours([TERRAIN_FILL[self.board[h].terrain] if self.board[h].tile else TILELESS_FILL
                         for h in hexes])
        special = [(i, h) for i, h in enumerate(hexes) if self.board[h].special is not None]
        c.fill_styled_polygons(corners, cols)
        if special:
            centres = self._px([lay.hex_to_pixel(h) for _, h in special])
            inner = np.array([corners[i] for i, _ in special])
            inner = centres[:, None, :] + 0.6 * (inner - centres[:, None, :])
            scol = _colours(["#b3261e" if self.board[h].special == Special.IMPASSABLE else "#6a3d9a"
                             for _, h in special])
            c.fill_styled_polygons(inner, scol, alpha=0.35)
        c.stroke_style = GRID_STROKE
        c.line_width = 1
        c.line_cap = "butt"
        c.stroke_polygons(corners)

    def _draw_features(self, c: Canvas) -> None:
        """Scenery footprints and edge features (walls, doors...), on ``c`` (over the terrain). The scenery's names
        are drawn with the pieces (:meth:`_draw_scenery_names`): a label floor change (a phone's zoom) redraws the
        labelled layers, and the board layer has no label."""
        sc = self.board.scenery
        if sc:
            polys = [self._px(s.polygon) for s in sc]
            c.fill_styled_polygons(polys, _colours([SCENERY_FILL] * len(sc)),
                                   alpha=[0.92 if s.blocks_lof else 0.45 for s in sc])
            c.stroke_style = "#2f2a25"
            c.line_width = 1.5
            c.stroke_polygons(polys)
        by_kind: dict[EdgeKind, list] = {}
        for e, f in self.board.edge_features.items():
            by_kind.setdefault(f.kind, []).append(e)
        c.line_cap = "round"
        for kind, edges in by_kind.items():
            stroke, w, dash = EDGE_STYLE[kind]
            pts = self._px([p for e in edges for p in e.endpoints(self.board.layout)]).reshape(-1, 2, 2)
            c.line_width = w
            c.set_line_dash([float(v) for v in dash.split()] if dash else [])
            c.stroke_styled_line_segments(pts, _colours([stroke] * len(edges)))
        c.set_line_dash([])

    def redraw_pieces(self) -> None:
        """Layer 1: the scenery's names, then bases, front arcs, facing ticks, labels; the selected piece ringed: 1
        message, none when the layer already shows exactly this (same pieces, selection, scale and size: e.g. a
        selection the click already drew, or an update that moved nothing)."""
        if self._pieces_key(None) != self._pieces_drawn:
            self._draw_pieces()

    def _pieces_key(self, ghost: tuple[str, Point] | None) -> tuple:
        return (tuple(self._pieces.values()), self.selected, self.hex_marks_for_selection, ghost, self.scale,
                self.margin, self._min, self.canvas.width, self.canvas.height, self.label_floor.min_px)

    def _draw_pieces(self, ghost: tuple[str, Point] | None = None) -> None:
        self._pieces_drawn = self._pieces_key(ghost)
        c = self.layers["pieces"]
        pieces = list(self._pieces.values())
        if ghost is not None:
            pieces = [p if p.id != ghost[0] else Piece(p.id, ghost[1], p.radius, p.fill, p.stroke, p.facing, p.arc,
                                                       p.label) for p in pieces]
        s = self.scale
        with hold(c):
            c.clear()
            self._draw_scenery_names(c)
            if not pieces:
                return
            centres = self._px([p.center for p in pieces])
            radii = np.array([p.radius * s for p in pieces])
            c.fill_styled_circles(centres[:, 0], centres[:, 1], radii, _colours([p.fill for p in pieces]),
                                  alpha=0.92)
            # front arcs as wedges inside the base (lighter), one batched call
            wedges, wcols = [], []
            for p, (cx, cy), r in zip(pieces, centres, radii):
                if p.facing is None or p.arc >= 360:
                    continue
                wedges.append(_wedge(float(cx), float(cy), float(r), p.facing, p.arc))
                wcols.append("#ffffff")
            if wedges:
                c.fill_styled_polygons(wedges, _colours(wcols), alpha=0.5)
            set_style(c, line_width=2)
            c.stroke_styled_circles(centres[:, 0], centres[:, 1], radii, _colours([p.stroke for p in pieces]))
            ticks = [((cx, cy), (cx + 1.35 * r * math.cos(math.radians(p.facing)),
                                 cy + 1.35 * r * math.sin(math.radians(p.facing))))
                     for p, (cx, cy), r in zip(pieces, centres, radii) if p.facing is not None]
            if ticks:
                set_style(c, line_width=3)
                c.stroke_styled_line_segments(np.array(ticks), _colours(["#111111"] * len(ticks)))
            sel = self.selected if isinstance(self.selected, str) else None
            for p, (cx, cy), r in zip(pieces, centres, radii):
                if p.id == sel:
                    set_style(c, stroke_style="#ffbf00", line_width=3)
                    c.stroke_circle(float(cx), float(cy), float(r + 4))
            set_style(c, fill_style="#ffffff", text_align="center", text_baseline="middle",
                      font=f"bold {self._label_px(max(9, int(s * 0.32))):g}px sans-serif")
            for p, (cx, cy), r in zip(pieces, centres, radii):
                if p.label:
                    c.fill_text(p.label, float(cx), float(cy))
            if isinstance(self.selected, Hex) and self.hex_marks_for_selection:
                set_style(c, stroke_style="#ffbf00", line_width=3)
                c.stroke_polygon(self._px(self.board.layout.corners(self.selected)))

    def _draw_scenery_names(self, c: Canvas) -> None:
        """Each scenery item's name at a point inside its footprint, on ``c`` (the pieces layer: under the bases)."""
        sc = self.board.scenery
        if not sc:
            return
        set_style(c, fill_style="#ffffff", font=f"{self._label_px(max(9, int(self.scale * 0.36))):g}px sans-serif",
                  text_align="center", text_baseline="middle")
        for s in sc:
            p = s.shape.representative_point()
            x, y = self.to_pixel((p.x, p.y))
            c.fill_text(s.name, x, y)

    def redraw_overlays(self) -> None:
        """Layer 2: the ``overlays`` values, batched by kind and style: 1 message."""
        self._draw_overlay_list(self.layers["overlays"], list(self.overlays))

    def redraw_marks(self) -> None:
        """Layer 3: the ``marks`` values, drawn as overlays: 1 message, none when the layer is empty and stays so."""
        ovs: list[Overlay] = list(self.marks)
        if not ovs and not self._marks_shown:
            return
        self._marks_shown = bool(ovs)
        self._draw_overlay_list(self.layers["marks"], ovs)

    def _draw_overlay_list(self, c: Canvas, ovs: list[Overlay]) -> None:
        """Clear layer ``c`` and draw ``ovs`` on it, batched by kind and style, in one held message."""
        lay = self.board.layout
        with hold(c):
            c.clear()
            polys = [o for o in ovs if isinstance(o, Poly)]
            marks = [o for o in ovs if isinstance(o, HexMark)]
            segs = [o for o in ovs if isinstance(o, Segment)]
            circles = [o for o in ovs if isinstance(o, Circle)]
            labels = [o for o in ovs if isinstance(o, Label)]
            filled = [o for o in polys if o.fill != "none" and o.closed]
            if filled:
                c.fill_styled_polygons([self._px(o.points) for o in filled], _colours([o.fill for o in filled]),
                                       alpha=[o.opacity for o in filled])
            mfill = [o for o in marks if o.fill != "none"]
            if mfill:
                c.fill_styled_polygons([self._px(lay.corners(o.hex)) for o in mfill],
                                       _colours([o.fill for o in mfill]), alpha=[o.opacity for o in mfill])
            cfill = [o for o in circles if o.fill != "none"]
            if cfill:
                ctr = self._px([o.center for o in cfill])
                c.fill_styled_circles(ctr[:, 0], ctr[:, 1], np.array([o.radius * self.scale for o in cfill]),
                                      _colours([o.fill for o in cfill]), alpha=[o.opacity for o in cfill])
            # strokes grouped by (width, dash)
            groups: dict[tuple[float, str | None], list] = {}
            for o in polys + marks + segs + circles:
                if o.stroke != "none" and o.width > 0:
                    groups.setdefault((o.width, o.dash), []).append(o)
            set_style(c, line_cap="round")
            for (w, dash), items in groups.items():
                set_style(c, line_width=w)
                c.set_line_dash([float(v) for v in dash.split()] if dash else [])
                lines = [o for o in items if isinstance(o, Segment)]
                if lines:
                    c.stroke_styled_line_segments(self._px([p for o in lines for p in (o.p0, o.p1)]).reshape(-1, 2, 2),
                                                  _colours([o.stroke for o in lines]),
                                                  alpha=[o.opacity for o in lines])
                shapes = [o for o in items if isinstance(o, (Poly, HexMark))]
                closed = [o for o in shapes if not isinstance(o, Poly) or o.closed]
                opened = [o for o in shapes if isinstance(o, Poly) and not o.closed]
                if closed:
                    c.stroke_styled_polygons([self._px(o.points if isinstance(o, Poly) else lay.corners(o.hex))
                                              for o in closed], _colours([o.stroke for o in closed]),
                                             alpha=[o.opacity for o in closed])
                if opened:
                    c.stroke_styled_line_segments([self._px(o.points) for o in opened],
                                                  _colours([o.stroke for o in opened]),
                                                  alpha=[o.opacity for o in opened])
                rings = [o for o in items if isinstance(o, Circle)]
                if rings:
                    ctr = self._px([o.center for o in rings])
                    c.stroke_styled_circles(ctr[:, 0], ctr[:, 1], np.array([o.radius * self.scale for o in rings]),
                                            _colours([o.stroke for o in rings]))
            c.set_line_dash([])
            if labels:  # a halo then the text; the canvas state is set only when it changes (one command each)
                # a mitred halo (line_join) draws spikes on letters such as M and V
                set_style(c, text_baseline="middle", line_width=3, line_join="round", stroke_style="#ffffff")
                font = align = fill = None
                tidy = Declutter(self.label_floor.min_px > 0)   # on a phone: fewer labels, none over another
                for o in labels:
                    x, y = self.to_pixel(o.pos)
                    a = {"start": "left", "end": "right"}.get(o.anchor, "center")
                    size = floored(o.size, self.label_floor.min_px)
                    if not tidy.fits(o.text, x, y, size, a):
                        continue
                    self.label_sizes.add(size)
                    f = f"{o.weight} {size:g}px sans-serif"
                    if f != font:
                        font = f
                        set_style(c, font=f)
                    if a != align:
                        align = a
                        set_style(c, text_align=a)
                    c.stroke_text(o.text, x, y)
                    if o.fill != fill:
                        fill = o.fill
                        set_style(c, fill_style=fill)
                    c.fill_text(o.text, x, y)
            for o in circles:
                if o.label:
                    x, y = self.to_pixel(o.center)
                    set_style(c, font=f"bold {self._label_px(max(9, int(o.radius * self.scale))):g}px sans-serif",
                              text_align="center",
                              text_baseline="middle", fill_style=o.stroke)
                    c.fill_text(o.label, x, y)


__all__ = ["HexBoardView", "Piece", "LAYERS", "rgb"]
