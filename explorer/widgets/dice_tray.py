"""DiceTray: an ipycanvas drawing of rolled dice, how they compare, and which ones survive.

Game-agnostic: the caller says what each die is (:class:`DieView`) and which dice cancel which (:class:`Link`);
the tray draws it and reports clicks (or taps) on a die, so a game view can let users set faces by hand. With
``picker=True`` a click picks the die (ringed) and opens a small face picker under the tray: type the face or press
one of the faces 1..20; ``on_die_set`` callbacks receive ``(die id, face)``.

The canvas scales down with its column (never above its own width), so the tray fits a narrow window.

Phones (issue 23): shrunk to a 370 px phone column, the 760 px tray drew its 11-15 px text at 5-8 px. The tray is
therefore drawn twice, like :class:`~explorer.widgets.odds_chart.OddsChart`: on its wide canvas (class
:data:`~explorer.widgets.layout.WIDE_ONLY`) and on a narrow one (:attr:`DiceTray.narrow`, :data:`NARROW_WIDTH` px,
class :data:`~explorer.widgets.layout.NARROW_ONLY` and :data:`NARROW_CLASS`) laid out for the phone column
(:func:`narrow_layout`: each row's label on a line of its own above its dice, the dice wrapped onto as many lines as
they need left of the arrows' lane on the right (:func:`lane_path`: no arrow crosses a header), the legend wrapped,
every text at least :data:`NARROW_MIN_FONT` px). The served pages' phone rules show
the narrow one below 600 px and the wide one otherwise (a notebook shows the wide one only). Each canvas has its own
hit map (:attr:`DiceTray.placed`, :attr:`DiceTray.narrow_placed`): a click or a tap on a die of either picks that die.
"""

from __future__ import annotations

import html
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import ipywidgets as W

from explorer.widgets.labels import button_width

from ..render.dice_svg import COLORS as _SVG_COLORS
from ..render.dice_svg import DieView, Link, Row  # noqa: F401  (the tray's values, defined with the picture)
from ..render.dice_svg import ROW_H, TOP, layout_dice, tray_height, tray_svg
from .canvas import hold, own_canvas, reset_manager
from .layout import WIDE_ONLY, browser_fix, mark_drawing
from .odds_chart import NARROW_MIN_FONT, NARROW_WIDTH, TwinFonts, phone_canvas

NARROW_CLASS = "dice-tray-narrow"
"""The CSS class of a tray's narrow (phone) canvas (browser tests find it by this class)."""
NARROW_DIE = 46
"""Side (px) of a die on the phone tray (its face in bold 20 px)."""
NARROW_PITCH = 74
"""Distance (px) from one die to the next on a line of the phone tray: room for a 14 px caption ("cancelled")."""
NARROW_DICE_LINE = NARROW_DIE + 28
"""Height (px) of one line of dice on the phone tray (the die, its caption under it)."""
NARROW_TEXT_LINE = 20
"""Height (px) of one line of text (a row's label, sublabel or note; the title; a legend line) on the phone tray."""
NARROW_LANE = 44
"""Width (px) of the lane along the right edge of the phone tray where the arrows run from one row to another: the
rows' label lines and dice stay left of it, so no arrow crosses a row's header (issue 23)."""
NARROW_BOLD_CHAR_PX = 9.6
"""Width allowed per character of bold 16 px sans-serif (a row's label, the title) on the phone tray."""
NARROW_HEAD_GAP = 12
"""Room (px) between a row's last header line and its first line of dice on the phone tray: the arrows into its dice
turn there."""
NARROW_CHAR_PX = 7.6
"""Width allowed per character of 14 px sans-serif on the phone tray (generous: the server cannot measure text)."""

#: Colours (CSS) used by the tray (one source with the static SVG); exposed so legends in other views can match.
COLORS = _SVG_COLORS


def _fit(text: str, width: float, char_w: float) -> str:
    """Shorten ``text`` with an ellipsis so it fits ``width`` pixels at about ``char_w`` pixels per character."""
    n = int(width // char_w)
    return text if len(text) <= n else text[:max(1, n - 1)] + "…"


def _wrap(text: str, chars: int, lines: int = 3) -> list[str]:
    """``text`` wrapped at word boundaries into at most ``lines`` lines of ``chars`` characters (the last one cut
    with an ellipsis when more is left)."""
    import textwrap

    out = textwrap.wrap(text, chars, break_long_words=True) or [""]
    if len(out) > lines:
        out = out[:lines]
        out[-1] = out[-1][:chars - 1] + "…"
    return out


def header_boxes(rows: Sequence["NarrowRow"]) -> list[tuple[float, float, float, float]]:
    """The boxes ``(x0, y0, x1, y1)`` (px) of the header lines (label, sublabel, note) of the phone tray's rows, as
    estimated from their characters (the server cannot measure text): what no arrow may cross."""
    out = []
    for at in rows:
        for k, (text, font, _) in enumerate(at.lines):
            ty = at.top + 8 + NARROW_TEXT_LINE / 2 + k * NARROW_TEXT_LINE
            cw = NARROW_BOLD_CHAR_PX if font.startswith("bold") else NARROW_CHAR_PX
            out.append((10.0, ty - 9.0, 10.0 + len(text) * cw, ty + 9.0))
    return out


def lane_path(a: "_Placed", b: "_Placed", lane_x: float) -> list[tuple[float, float]]:
    """The phone tray's arrow from die ``a`` to die ``b`` as a polyline (px): up out of ``a``'s top edge 5 px, along
    the gap above ``a``'s line of dice to the lane at ``lane_x``, along the lane, along the gap above ``b``'s line of
    dice and down into ``b``'s top edge (the last point). The gaps above the dice are the header's bottom gap
    (:data:`NARROW_HEAD_GAP`) or the bottom of the captions of the line above: no arrow crosses a row's header or a
    die's caption."""
    ax, bx = a.x + a.size / 2, b.x + b.size / 2
    return [(ax, a.y), (ax, a.y - 5), (lane_x, a.y - 5), (lane_x, b.y - 5), (bx, b.y - 5), (bx, b.y)]


@dataclass(frozen=True)
class NarrowRow:
    """Where a row goes on the phone tray: its top, its text lines (``(text, font, colour key)``, from the top) and
    its height (px)."""

    top: float
    lines: tuple[tuple[str, str, str], ...]
    height: float


def narrow_layout(rows: Sequence[Row], title: str = "", width: int = NARROW_WIDTH
                  ) -> tuple[list[str], list[NarrowRow], list[tuple[DieView, float, float, float, int]], int]:
    """The phone tray's layout: ``(title lines, rows, dice, legend top)``.

    Each row takes its label (bold 16 px), its sublabel (14 px) and its note (italic 14 px) on lines of their own,
    then its dice (:data:`NARROW_DIE` px, :data:`NARROW_PITCH` px apart) on as many lines of ``width`` px as they
    need. ``dice`` is ``[(die, x, y, size, row index)]`` (px), the hit map of the phone canvas.
    """
    room = width - 20 - NARROW_LANE   # the lane on the right is the arrows'
    chars = int(room // NARROW_CHAR_PX)
    title_lines = _wrap(title, int((width - 20) // NARROW_BOLD_CHAR_PX)) if title else []
    y = 8 + len(title_lines) * (NARROW_TEXT_LINE + 2) + (6 if title_lines else 0)
    per_line = max(1, int((width - 32 - NARROW_LANE - NARROW_DIE) // NARROW_PITCH) + 1)
    out_rows, placed = [], []
    for r, row in enumerate(rows):
        lines = [(t, "bold 16px sans-serif", "label") for t in _wrap(row.label, int(room // NARROW_BOLD_CHAR_PX), 2)]
        if row.sublabel:
            lines += [(t, "14px sans-serif", "muted") for t in _wrap(row.sublabel, chars, 2)]
        if row.note:
            lines += [(t, "italic 14px sans-serif", "muted") for t in _wrap(row.note, chars, 2)]
        top = y
        y += 8 + len(lines) * NARROW_TEXT_LINE + NARROW_HEAD_GAP
        n = len(row.dice)
        for i, d in enumerate(row.dice):
            line, k = divmod(i, per_line)
            placed.append((d, 16 + k * NARROW_PITCH, y + line * NARROW_DICE_LINE, float(NARROW_DIE), r))
        y += -(-n // per_line) * NARROW_DICE_LINE if n else NARROW_TEXT_LINE + 8   # the dice lines, or "no dice"
        out_rows.append(NarrowRow(top, tuple(lines), y - top))
        y += 6
    return title_lines, out_rows, placed, int(y)


LEGEND = (("failure", "failure_fill", "failure_edge", 1.5), ("success", "success_fill", "success_edge", 1.5),
          ("Critical ★", "critical_fill", "critical_edge", 1.5), ("survives (uncancelled)", None, "survivor", 4))
"""The legend's boxed items: ``(text, fill colour key (None: white), edge colour key, edge width)``; the legend
goes on with "cancelled", "→ cancels" and "tie"."""


@dataclass
class _Placed:
    die: DieView
    x: float
    y: float
    size: float
    row: int = 0


@dataclass
class TrayState:
    rows: list[Row] = field(default_factory=list)
    links: list[Link] = field(default_factory=list)
    highlight: frozenset[str] = frozenset()
    title: str = ""


class DiceTray(TwinFonts, W.VBox):
    """A canvas showing rows of dice with cancellation arrows.

    Args:
        width: canvas width in CSS pixels (the largest it is shown at; it shrinks with a narrower column).
        label_width: room on the left for row labels.
        picker: open the face picker (:attr:`picker`) when a die is clicked.
        faces: the faces the picker offers (default 1..20).

    Use :meth:`show` to draw, :meth:`on_die_click` to get ``callback(die_id)`` when a die is clicked or tapped,
    :meth:`on_die_set` to get ``callback(die_id, face)`` when a face is chosen in the picker.
    """

    ROW_H = ROW_H
    TOP = TOP

    def __init__(self, width: int = 760, label_width: int = 190, picker: bool = False,
                 faces: Sequence[int] = tuple(range(1, 21)), **kwargs):
        self.width, self.label_width = width, label_width
        self.canvas = own_canvas(width, self._height(2))
        self.canvas.layout.width = "100%"
        self.canvas.layout.max_width = f"{width}px"
        self.canvas.layout.height = "auto"
        self.canvas.add_class(WIDE_ONLY)
        self.narrow = phone_canvas(narrow_layout([])[3] + 40, NARROW_CLASS)
        """The phone tray (see the module docstring): hidden by its own layout, shown by the phone rules."""
        mark_drawing([self.canvas])
        self._state = TrayState()
        self._placed: list[_Placed] = []
        self._narrow_placed: list[_Placed] = []
        self.narrow_link_paths: list[list[tuple[float, float]]] = []
        """The phone tray's arrows as last drawn: one polyline (px) per link (:func:`lane_path`)."""
        self.fonts: dict[str, set[int]] = {"wide": set(), "narrow": set()}
        """The font sizes (px) each canvas was last drawn with (for tests: the narrow one's are all at least
        :data:`NARROW_MIN_FONT`)."""
        self._click_callbacks: list[Callable[[str], None]] = []
        self._set_callbacks: list[Callable[[str, int], None]] = []
        self.picked: str | None = None
        """The die the picker is open for (its id), or ``None``."""
        self.canvas.on_mouse_down(self._handle_click)
        self.canvas.on_touch_start(lambda touches: touches and self._handle_click(*touches[0]))
        self.narrow.on_mouse_down(self._handle_narrow_click)
        self.narrow.on_touch_start(lambda touches: touches and self._handle_narrow_click(*touches[0]))
        self._faces = [int(f) for f in faces]
        self._picker_busy = False
        self.picker_label = W.HTML()
        self.face_text = W.Text(value="", layout=W.Layout(width="52px"), continuous_update=False,
                                tooltip="type the face and press Enter")
        self.face_text.add_class("dice-picker-text")
        self.face_buttons = W.ToggleButtons(options=[str(f) for f in self._faces], value=None,
                                            style={"button_width": button_width(map(str, self._faces), 30)}, layout=W.Layout(flex_flow="row wrap"))
        self.face_buttons.add_class("dice-picker-faces")
        self.picker = W.HBox([self.picker_label, self.face_text, self.face_buttons],
                             layout=W.Layout(visibility="hidden", align_items="center", flex_flow="row wrap",
                                             grid_gap="4px", max_width=f"{width}px"))
        """The face picker: its room is kept (hidden) until a die is picked, so showing it never shifts the page."""
        self.picker.add_class("dice-picker")
        self.face_text.observe(lambda ch: self._picked_face(ch["new"]), names="value")
        self.face_buttons.observe(lambda ch: self._picked_face(ch["new"]), names="value")
        self._picker_enabled = picker
        super().__init__([self.canvas, self.narrow, self.picker, browser_fix()] if picker
                         else [self.canvas, self.narrow, browser_fix()], **kwargs)

    # ------------------------------------------------------------------ public
    @property
    def state(self) -> TrayState:
        """What the tray currently draws: its rows, links, highlighted ids and title (read-only use)."""
        return self._state

    def show(self, rows: Sequence[Row], links: Sequence[Link] = (), highlight=(), title: str = "") -> None:
        """Draw ``rows`` (top to bottom) with ``links``; dice whose id is in ``highlight`` get a blue ring."""
        self._state = TrayState(list(rows), list(links), frozenset(highlight), title)
        self.redraw()
        if self._picker_enabled:
            self._show_picker()  # the picked die keeps its picker (with its new face) while it is on the tray

    def set_highlight(self, ids) -> None:
        """Change the highlighted dice (e.g. the marks of the current trace step) and redraw."""
        self._state.highlight = frozenset(ids)
        self.redraw()

    def on_die_click(self, callback: Callable[[str], None]) -> None:
        """Call ``callback(die_id)`` when the user clicks (or taps) a die."""
        self._click_callbacks.append(callback)

    def on_die_set(self, callback: Callable[[str, int], None]) -> None:
        """Call ``callback(die_id, face)`` when a face is chosen for the picked die (typed or pressed)."""
        self._set_callbacks.append(callback)

    def pick(self, die_id: str | None) -> None:
        """Open the picker for ``die_id`` (ringed on the tray), or close it (``None``, an unknown die, or a token:
        a fixed value such as a Threat Level is an input, not a rolled die)."""
        die = next((p.die for p in self._placed if p.die.id == die_id and not p.die.token), None)
        self.picked = die.id if die is not None else None
        self._show_picker()
        self.redraw()

    def _show_picker(self) -> None:
        die = next((p.die for p in self._placed if p.die.id == self.picked), None)
        if die is None:
            self.picked = None
        self._picker_busy = True
        try:
            if die is None:
                self.picker.layout.visibility = "hidden"
                self.face_buttons.value = None
                self.face_text.value = ""
                return
            self.picker.layout.visibility = "visible"
            self.picker_label.value = (f"<span style='font:13px sans-serif;white-space:nowrap'>Die <b>"
                                       f"{html.escape(die.id)}</b>: face</span>")
            self.face_text.value = str(die.face)
            self.face_buttons.value = str(die.face) if die.face in self._faces else None
        finally:
            self._picker_busy = False

    def _picked_face(self, value) -> None:
        if self._picker_busy or self.picked is None or value in (None, ""):
            return
        try:
            face = int(str(value).strip())
        except ValueError:
            face = None
        if face not in self._faces:
            self.picker_label.value = (f"<span style='font:13px sans-serif;color:#c92a2a'>Die <b>"
                                       f"{html.escape(self.picked)}</b>: {html.escape(str(value)[:12])} is not a "
                                       f"face ({self._faces[0]}..{self._faces[-1]})</span>")
            return
        for cb in list(self._set_callbacks):
            cb(self.picked, face)

    def die_at(self, x: float, y: float, narrow: bool = False) -> str | None:
        """The id of the die under canvas-local point ``(x, y)`` of the wide canvas (of the phone canvas when
        ``narrow``), or ``None``."""
        for p in (self._narrow_placed if narrow else self._placed):
            if p.x <= x <= p.x + p.size and p.y <= y <= p.y + p.size:
                return p.die.id
        return None

    @property
    def placed(self) -> dict[str, tuple[float, float, float]]:
        """``{die id: (x, y, size)}`` of the last drawing (for tests and hit-testing)."""
        return {p.die.id: (p.x, p.y, p.size) for p in self._placed}

    @property
    def narrow_placed(self) -> dict[str, tuple[float, float, float]]:
        """``{die id: (x, y, size)}`` on the phone canvas (:attr:`narrow`) of the last drawing."""
        return {p.die.id: (p.x, p.y, p.size) for p in self._narrow_placed}

    # ----------------------------------------------------------------- drawing
    def _height(self, nrows: int) -> int:
        return tray_height(nrows)

    def _layout(self) -> list[_Placed]:
        # the static SVG (explorer.render.dice_svg) lays dice out with the same function
        return [_Placed(d, x, y, size, r) for d, x, y, size, r in layout_dice(self._state.rows, self.width,
                                                                               self.label_width)]

    def to_svg(self) -> str:
        """The tray as a static SVG document (same geometry and colours; for notebooks without a kernel, docs)."""
        st = self._state
        return tray_svg(st.rows, st.links, st.title, self.width, self.label_width, st.highlight)

    def redraw(self) -> None:
        """Full redraw of the current state on both canvases (safe to call again when a browser connects)."""
        self._redraw_wide()
        self._redraw_narrow()

    def _redraw_wide(self) -> None:
        st = self._state
        c = self.canvas
        self.fonts["wide"] = set()
        h = self._height(len(st.rows))
        if c.height != h:
            c.height = h
        self._placed = self._layout()
        reset_manager(c)
        with hold(c):
            c.clear()
            c.fill_style = "#f8f9fa"
            c.fill_rect(0, 0, c.width, c.height)
            if st.title:
                c.fill_style = COLORS["label"]
                self._font(c, "bold 15px sans-serif")
                c.text_align, c.text_baseline = "left", "middle"
                c.fill_text(st.title, 10, 16)
            self._draw_row_labels()
            self._draw_links(c, self._placed)
            for p in self._placed:
                self._draw_die(c, p)
            self._draw_legend()

    def _narrow_legend(self) -> list[list[tuple[str, float]]]:
        """The phone legend's lines: ``[[(item, x)]]``, the items of :data:`LEGEND` and "cancelled", "→ cancels",
        "tie" flowed onto lines of the phone canvas."""
        items = [t for t, *_ in LEGEND] + ["cancelled", "cancels", "tie"]
        lines: list[list[tuple[str, float]]] = [[]]
        x = 10.0
        for t in items:
            w = (20 if t not in ("cancels", "tie") else 30) + len(t) * NARROW_CHAR_PX + 14
            if lines[-1] and x + w > NARROW_WIDTH - 6:
                lines.append([])
                x = 10.0
            lines[-1].append((t, x))
            x += w
        return lines

    def _redraw_narrow(self) -> None:
        st, c = self._state, self.narrow
        self.fonts["narrow"] = set()
        title_lines, rows, placed, legend_top = narrow_layout(st.rows, st.title, NARROW_WIDTH)
        legend = self._narrow_legend()
        h = legend_top + 6 + len(legend) * (NARROW_TEXT_LINE + 4) + 6
        if c.height != h:
            c.height = h
        self._narrow_placed = [_Placed(d, x, y, size, r) for d, x, y, size, r in placed]
        w = c.width
        reset_manager(c)
        with hold(c):
            c.clear()
            c.fill_style = "#f8f9fa"
            c.fill_rect(0, 0, w, h)
            c.text_align, c.text_baseline = "left", "middle"
            for i, line in enumerate(title_lines):
                c.fill_style = COLORS["label"]
                self._font(c, "bold 16px sans-serif")
                c.fill_text(line, 10, 8 + NARROW_TEXT_LINE / 2 + i * (NARROW_TEXT_LINE + 2))
            for r, (row, at) in enumerate(zip(st.rows, rows)):
                if row.id and row.id in st.highlight:
                    c.fill_style = COLORS["highlight"]
                    c.global_alpha = 0.12
                    c.fill_rect(4, at.top, w - 8, at.height)
                    c.global_alpha = 1.0
                if r:
                    c.stroke_style = "#dee2e6"
                    c.line_width = 1
                    c.stroke_line(8, at.top - 3, w - 8, at.top - 3)
            # the arrows run along the lane on the right, past the rows' headers (drawn first all the same, the
            # labels over them on a halo of the tray's colour)
            self._draw_links(c, self._narrow_placed, routed=True)
            c.line_join = "round"
            for row, at in zip(st.rows, rows):
                c.text_align, c.text_baseline = "left", "middle"
                for k, (text, font, colour) in enumerate(at.lines):
                    ty = at.top + 8 + NARROW_TEXT_LINE / 2 + k * NARROW_TEXT_LINE
                    self._font(c, font)
                    c.stroke_style, c.line_width = "#f8f9fa", 5
                    c.stroke_text(text, 10, ty)
                    c.fill_style = COLORS[colour]
                    c.fill_text(text, 10, ty)
                if not row.dice:
                    c.fill_style = COLORS["muted"]
                    self._font(c, "italic 14px sans-serif")
                    c.fill_text("no dice", 10, at.top + at.height - NARROW_TEXT_LINE / 2 - 4)
            c.line_join = "miter"
            for p in self._narrow_placed:
                self._draw_die(c, p, caption_font=14)
            y = legend_top + 6 + NARROW_TEXT_LINE / 2
            for line in legend:
                for text, x in line:
                    self._legend_item(c, text, x, y, 14)
                y += NARROW_TEXT_LINE + 4

    def _draw_row_labels(self) -> None:
        c = self.canvas
        for r, row in enumerate(self._state.rows):
            y = self.TOP + r * self.ROW_H + 8
            if row.id and row.id in self._state.highlight:
                c.fill_style = COLORS["highlight"]
                c.global_alpha = 0.12
                c.fill_rect(4, y - 8, self.width - 8, self.ROW_H - 4)
                c.global_alpha = 1.0
            if r:
                c.stroke_style = "#dee2e6"
                c.line_width = 1
                c.stroke_line(8, y - 10, self.width - 8, y - 10)
            c.text_align, c.text_baseline = "left", "top"
            c.fill_style = COLORS["label"]
            self._font(c, "bold 14px sans-serif")
            c.fill_text(_fit(row.label, self.label_width - 14, 7.8), 10, y + 2)
            if row.sublabel:
                c.fill_style = COLORS["muted"]
                self._font(c, "13px sans-serif")
                c.fill_text(_fit(row.sublabel, self.label_width - 14, 6.3), 10, y + 21)
            if row.note:
                c.fill_style = COLORS["muted"]
                self._font(c, "italic 12px sans-serif")
                c.fill_text(_fit(row.note, self.label_width - 14, 5.6), 10, y + 39)
            if not row.dice:
                c.fill_style = COLORS["muted"]
                self._font(c, "italic 13px sans-serif")
                c.fill_text("no dice", self.label_width, y + 14)

    @staticmethod
    def _centre(die_id: str, placed: Sequence[_Placed]):
        for p in placed:
            if p.die.id == die_id:
                return p
        return None

    def _draw_links(self, c, placed: Sequence[_Placed], routed: bool = False) -> None:
        """The arrows: straight from die to die on the wide tray; on the phone tray (``routed``) along the lane on
        the right (:func:`lane_path`; the paths drawn are kept in :attr:`narrow_link_paths`)."""
        if routed:
            self.narrow_link_paths = []
        for i, link in enumerate(self._state.links):
            a, b = self._centre(link.src, placed), self._centre(link.dst, placed)
            if a is None or b is None:
                continue
            if routed:   # each arrow its own track in the lane, so two arrows never share a stretch
                path = lane_path(a, b, self.narrow.width - 10 - 7 * (i % 5))
                self.narrow_link_paths.append(path)
            else:   # leave from the edge facing the other die's row
                ax, bx = a.x + a.size / 2, b.x + b.size / 2
                ay = a.y + a.size if a.row < b.row else a.y
                by = b.y if a.row < b.row else b.y + b.size
                path = [(ax, ay), (bx, by)]
            (ax, ay), (bx, by) = path[-2], path[-1]
            c.line_width = 2 if link.mutual else 1.6
            colour = COLORS["tie"] if link.mutual else COLORS["link"]
            c.stroke_style = colour
            c.global_alpha = 0.75
            if link.mutual:
                c.set_line_dash([5, 4])
            if len(path) == 2:
                c.stroke_line(*path[0], *path[1])
            else:
                c.line_join = "round"
                c.begin_path()
                c.move_to(*path[0])
                for q in path[1:]:
                    c.line_to(*q)
                c.stroke()
                c.line_join = "miter"
            c.set_line_dash([])
            if not link.mutual:
                ang = math.atan2(by - ay, bx - ax)
                ln = 9
                c.fill_style = colour
                c.begin_path()
                c.move_to(bx, by)
                c.line_to(bx - ln * math.cos(ang - 0.4), by - ln * math.sin(ang - 0.4))
                c.line_to(bx - ln * math.cos(ang + 0.4), by - ln * math.sin(ang + 0.4))
                c.close_path()
                c.fill()
            c.global_alpha = 1.0

    def _draw_die(self, c, p: _Placed, caption_font: int | None = None) -> None:
        d, s = p.die, p.size
        x, y = p.x, p.y
        kind = d.kind
        if d.token:
            fill, edge, text = COLORS["token_fill"], COLORS["token_edge"], COLORS["label"]
        elif kind == "critical":
            fill, edge, text = COLORS["critical_fill"], COLORS["critical_edge"], COLORS["critical_text"]
        elif kind == "failure":
            fill, edge, text = COLORS["failure_fill"], COLORS["failure_edge"], COLORS["failure_text"]
        else:
            fill, edge, text = COLORS["success_fill"], COLORS["success_edge"], COLORS["success_text"]
        if d.bad:
            text = COLORS["cancelled"]
        if d.id == self.picked:
            c.stroke_style = COLORS["highlight"]
            c.line_width = 3
            c.set_line_dash([4, 3])
            self._shape(c, x - 6, y - 6, s + 12, d.token)
            c.stroke()
            c.set_line_dash([])
        if d.id in self._state.highlight:
            c.fill_style = COLORS["highlight"]
            c.global_alpha = 0.35
            self._shape(c, x - 5, y - 5, s + 10, d.token)
            c.fill()
            c.global_alpha = 1.0
        c.fill_style = fill
        self._shape(c, x, y, s, d.token)
        c.fill()
        c.line_width = 4 if d.survives else 1.5
        c.stroke_style = COLORS["survivor"] if d.survives else edge
        self._shape(c, x, y, s, d.token)
        c.stroke()
        if d.cancelled:
            c.stroke_style = COLORS["cancelled"]
            c.global_alpha = 0.5
            c.line_width = 3
            c.stroke_line(x + 4, y + 4, x + s - 4, y + s - 4)
            c.stroke_line(x + s - 4, y + 4, x + 4, y + s - 4)
            c.global_alpha = 1.0
        c.fill_style = text
        c.text_align, c.text_baseline = "center", "middle"
        self._font(c, f"bold {int(s * 0.45)}px sans-serif")
        c.fill_text(str(d.face), x + s / 2, y + s / 2 + 1)
        if kind == "critical" and not d.token:
            self._star(c, x + s - 6, y + 6, 6)
        caption = d.caption
        if d.cancelled:
            caption = f"{caption} ✗" if caption.startswith("=") else "cancelled"
        if caption:
            red = d.bad or d.cancelled
            c.fill_style = COLORS["cancelled"] if red else COLORS["muted"]
            self._font(c, f"{caption_font or (11 if s >= 34 else 9)}px sans-serif")
            c.text_baseline = "top"
            c.fill_text(caption, x + s / 2, y + s + 3)

    @staticmethod
    def _shape(c, x, y, s, token) -> None:
        c.begin_path()
        if token:
            cx, cy, r = x + s / 2, y + s / 2, s / 2
            for k in range(6):
                a = math.pi / 6 + k * math.pi / 3
                (c.move_to if k == 0 else c.line_to)(cx + r * math.cos(a), cy + r * math.sin(a))
            c.close_path()
            return
        r = min(7, s / 5)
        c.move_to(x + r, y)
        c.line_to(x + s - r, y)
        c.arc_to(x + s, y, x + s, y + r, r)
        c.line_to(x + s, y + s - r)
        c.arc_to(x + s, y + s, x + s - r, y + s, r)
        c.line_to(x + r, y + s)
        c.arc_to(x, y + s, x, y + s - r, r)
        c.line_to(x, y + r)
        c.arc_to(x, y, x + r, y, r)
        c.close_path()

    @staticmethod
    def _star(c, cx, cy, r) -> None:
        c.fill_style = COLORS["critical_edge"]
        c.begin_path()
        for k in range(10):
            rr = r if k % 2 == 0 else r * 0.45
            a = -math.pi / 2 + k * math.pi / 5
            (c.move_to if k == 0 else c.line_to)(cx + rr * math.cos(a), cy + rr * math.sin(a))
        c.close_path()
        c.fill()

    def _legend_item(self, c, text: str, x: float, y: float, size: int) -> float:
        """One legend item at ``(x, y)`` (its middle line) in ``size`` px text; returns the x after it."""
        c.text_baseline, c.text_align = "middle", "left"
        self._font(c, f"{size}px sans-serif")
        boxed = next((item for item in LEGEND if item[0] == text), None)
        if boxed is not None:
            _t, fill, edge, lw = boxed
            c.fill_style = COLORS[fill] if fill else "#ffffff"
            c.fill_rect(x, y - 7, 14, 14)
            c.stroke_style, c.line_width = COLORS[edge], lw
            c.stroke_rect(x, y - 7, 14, 14)
            c.fill_style = COLORS["label"]
            c.fill_text(text, x + 19, y)
            return x + 30 + len(text) * 6.6
        if text == "cancelled":
            c.stroke_style, c.line_width = COLORS["cancelled"], 2
            c.stroke_line(x, y - 6, x + 12, y + 6)
            c.stroke_line(x + 12, y - 6, x, y + 6)
            c.fill_style = COLORS["label"]
            c.fill_text("cancelled", x + 18, y)
            return x + 90
        c.stroke_style, c.line_width = COLORS["link" if text == "cancels" else "tie"], 1.6
        if text == "tie":
            c.set_line_dash([5, 4])
        c.stroke_line(x, y, x + 22, y)
        c.set_line_dash([])
        c.fill_style = COLORS["label"]
        c.fill_text("→ cancels" if text == "cancels" else "tie", x + 26, y)
        return x + 92

    def _draw_legend(self) -> None:
        c = self.canvas
        y = c.height - 20
        x = 10
        for text in [t for t, *_ in LEGEND] + ["cancelled", "cancels", "tie"]:
            x = self._legend_item(c, text, x, y, 12)

    # ------------------------------------------------------------------ events
    def _handle_click(self, x, y, narrow: bool = False) -> None:
        die = self.die_at(x, y, narrow)
        if die is None:
            return
        if self._picker_enabled:
            self.pick(die)
        for cb in self._click_callbacks:
            cb(die)

    def _handle_narrow_click(self, x, y) -> None:
        """A click or tap on the phone canvas: the die under it there, as :meth:`_handle_click` on the wide one."""
        self._handle_click(x, y, narrow=True)
