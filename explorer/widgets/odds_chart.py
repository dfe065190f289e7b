"""OddsChart: an ipycanvas chart of exact outcome probabilities and one or more discrete distributions.

Game-agnostic: :meth:`OddsChart.show` takes labelled outcome probabilities (drawn as one stacked 100 % bar) and
named distributions over 0, 1, 2, ... (drawn as bar charts side by side, e.g. Wounds lost by each side).
No plotting library: a few dozen canvas commands sent in one batch.

Phones (issue 23): the chart is drawn twice, on its wide canvas (the width asked for, shrunk to its column) and on a
narrow one (:data:`NARROW_WIDTH` px: the column of a 390 px phone) laid out for it: the legend one outcome a line,
the distributions one under another, every text at least :data:`NARROW_MIN_FONT` px. The narrow canvas carries the
class :data:`NARROW_ONLY` and the wide one :data:`WIDE_ONLY`; the served pages' phone rules
(:data:`explorer.serving.phone.PHONE_CSS`) show the narrow one at phone widths and the wide one otherwise (the narrow
one is hidden by its own layout, so a notebook shows only the wide one).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import ipywidgets as W

from .canvas import hold, own_canvas, reset_manager
from .layout import NARROW_ONLY, WIDE_ONLY, browser_fix, mark_drawing

NARROW_WIDTH = 370
"""Width (canvas px = CSS px) of the phone chart: the page column of a 390 px wide phone."""
NARROW_MIN_FONT = 14
"""Smallest font (px) of the phone chart (the phone pages' smallest text, :data:`explorer.serving.phone.MIN_TEXT_PX`)."""


def phone_canvas(height: int, *classes: str):
    """The narrow twin of a wide canvas: an ipycanvas ``Canvas`` :data:`NARROW_WIDTH` px wide and ``height`` px tall,
    hidden by its own layout and shown only by the phone rules (CSS class ``NARROW_ONLY``, plus ``classes``); it
    shrinks with a narrower column and never grows past its own pixels. Used by the odds charts and the dice trays."""
    c = own_canvas(NARROW_WIDTH, height)
    c.layout.width = "100%"
    c.layout.max_width = f"{NARROW_WIDTH}px"
    c.layout.height = "auto"
    c.layout.display = "none"
    c.add_class(NARROW_ONLY)
    for cls in classes:
        c.add_class(cls)
    return c


@dataclass(frozen=True)
class Outcome:
    """One exclusive outcome: ``label``, probability ``p`` (0..1) and its CSS ``color``."""

    label: str
    p: float
    color: str


@dataclass(frozen=True)
class Distribution:
    """``probs[k]`` is the probability of the value ``k`` (k = 0, 1, ...). ``xlabel`` names the value."""

    title: str
    probs: Sequence[float]
    color: str
    xlabel: str = ""


def percent(p: float) -> str:
    """Format a probability for display: ``"43.2%"``, ``"<0.1%"`` for tiny non-zero values."""
    if 0 < p < 0.0005:
        return "<0.1%"
    return f"{100 * p:.1f}%"


XLABEL_CHAR_PX = 6.5
"""Width allowed per character of a distribution's ``xlabel`` (italic 11 px sans-serif; a generous estimate, since
the server cannot measure text drawn in the browser)."""


def dist_layout(n: int, w: float, xlabel: str = "") -> tuple[float, float | None]:
    """Bar width and the ``xlabel``'s left edge (pixels from the panel's left) for ``n`` bars in a panel ``w`` pixels
    wide. The label goes after the last bar, inside the panel, so it never runs into the next panel's first value;
    when that would leave bars under 8 px, the left edge is ``None``: the label goes on the title line instead
    and the bars take the whole width. Bars are at most 48 px wide.
    """
    n = max(n, 1)
    room = len(xlabel) * XLABEL_CHAR_PX + 8 if xlabel else 0.0
    if (w - room) / n >= 8:
        bw = min(48.0, (w - room) / n)
        return bw, n * bw + 6
    return min(48.0, w / n), None


class TwinFonts:
    """Mixin of a widget drawn on a wide ``canvas`` and its :func:`phone_canvas` twin ``narrow``: :meth:`_font` sets a
    canvas's CSS font and records its size (px) in ``self.fonts["wide"]`` or ``self.fonts["narrow"]`` (the tests
    check the phone twin's are all at least :data:`NARROW_MIN_FONT`)."""

    def _font(self, c, font: str) -> None:
        c.font = font
        self.fonts["narrow" if c is self.narrow else "wide"].add(
            int(next(t for t in font.split() if t.endswith("px"))[:-2]))


class OddsChart(TwinFonts, W.VBox):
    """Stacked outcome bar plus distribution bar charts on one canvas."""

    def __init__(self, width: int = 760, height: int = 300, **kwargs):
        self.canvas = own_canvas(width, height)
        self.canvas.layout.width = "100%"  # shrinks with a narrow column, never wider than its own pixels
        self.canvas.layout.max_width = f"{width}px"
        self.canvas.layout.height = "auto"
        self.canvas.add_class(WIDE_ONLY)
        self.narrow = phone_canvas(self._narrow_height())
        mark_drawing([self.canvas])
        self._outcomes: list[Outcome] = []
        self._dists: list[Distribution] = []
        self._title = ""
        self.fonts: dict[str, set[int]] = {"wide": set(), "narrow": set()}
        """The font sizes (px) each canvas was last drawn with (for tests: the narrow one's are all at least
        :data:`NARROW_MIN_FONT`)."""
        super().__init__([self.canvas, self.narrow, browser_fix()], **kwargs)

    def show(self, outcomes: Sequence[Outcome], distributions: Sequence[Distribution] = (), title: str = "") -> None:
        """Draw ``outcomes`` (should sum to 1) and ``distributions``."""
        self._outcomes, self._dists, self._title = list(outcomes), list(distributions), title
        self.redraw()

    def redraw(self) -> None:
        """Full redraw of both canvases (safe to call again when a browser connects)."""
        self._redraw_wide()
        self._redraw_narrow()

    # -------------------------------------------------------------------------------------------- the phone chart

    NARROW_BAR = 30
    NARROW_LINE = 22
    NARROW_DIST_H = 170

    NARROW_TITLE_CHARS = 34
    """Characters of the title on one line of the phone chart (bold 16 px: about 10 px a character)."""

    def _title_lines(self) -> list[str]:
        """The title wrapped at word boundaries into lines of at most :attr:`NARROW_TITLE_CHARS` characters (a longer
        word is cut with an ellipsis), at most three lines."""
        import textwrap

        lines = textwrap.wrap(getattr(self, "_title", "") or "Exact odds", self.NARROW_TITLE_CHARS,
                              break_long_words=True) or [""]
        if len(lines) > 3:
            lines = lines[:3]
            lines[2] = lines[2][:self.NARROW_TITLE_CHARS - 1] + "…"
        return lines

    def _narrow_height(self) -> int:
        n_out = len(getattr(self, "_outcomes", ()))
        n_dist = len(getattr(self, "_dists", ()))
        extra = (len(self._title_lines()) - 1) * 20
        return int(34 + extra + self.NARROW_BAR + 10 + n_out * self.NARROW_LINE + n_dist * self.NARROW_DIST_H + 8)

    def _redraw_narrow(self) -> None:
        c = self.narrow
        self.fonts["narrow"] = set()
        h = self._narrow_height()
        if c.height != h:
            c.height = h
        w = c.width
        reset_manager(c)
        with hold(c):
            c.clear()
            c.fill_style = "#ffffff"
            c.fill_rect(0, 0, w, h)
            c.text_baseline, c.text_align = "middle", "left"
            c.fill_style = "#212529"
            self._font(c, "bold 16px sans-serif")
            lines = self._title_lines()
            for i, line in enumerate(lines):
                c.fill_text(line, 6, 16 + 20 * i)
            x, y, bw = 6, 32 + 20 * (len(lines) - 1), w - 12
            self._stacked_bar(c, x, y, bw, self.NARROW_BAR, "bold 14px sans-serif", 56)
            ly = y + self.NARROW_BAR + 10 + self.NARROW_LINE / 2
            for o in self._outcomes:   # the legend, one outcome a line
                c.fill_style = o.color
                c.fill_rect(x, ly - 7, 14, 14)
                c.fill_style = "#212529"
                self._font(c, "14px sans-serif")
                c.fill_text(f"{o.label}: {percent(o.p)}", x + 20, ly)
                ly += self.NARROW_LINE
            top = ly - self.NARROW_LINE / 2 + 4
            for d in self._dists:   # one under another, each as wide as the chart
                self._narrow_dist(d, x, top, bw, self.NARROW_DIST_H - 8)
                top += self.NARROW_DIST_H

    def _narrow_dist(self, d: Distribution, x, y, w, h) -> None:
        c = self.narrow
        c.text_align, c.text_baseline = "left", "middle"
        c.fill_style = "#212529"
        self._font(c, "bold 14px sans-serif")
        unit = f" ({d.xlabel})" if d.xlabel and d.xlabel.lower() not in d.title.lower() else ""
        c.fill_text(d.title + unit, x, y + 8)
        top, bottom = y + 40, y + h - 20
        ph = bottom - top
        n = len(d.probs)
        c.stroke_style, c.line_width = "#adb5bd", 1
        c.stroke_line(x, bottom, x + w, bottom)
        if not n:
            return
        bw = min(48.0, w / n)
        pmax = max(max(d.probs), 1e-12)
        mode = max(range(n), key=lambda k: d.probs[k])
        tick = 1
        while bw * tick < 8 * len(str(n - 1)) + 6:   # tick labels at 14 px need about 8 px a digit
            tick += 1
        self._font(c, "14px sans-serif")
        c.text_align = "center"
        for k, p in enumerate(d.probs):
            bx = x + k * bw
            bhh = ph * p / pmax * 0.82
            c.fill_style = d.color
            c.fill_rect(bx + 2, bottom - bhh, max(1.0, bw - 4), bhh)
            c.fill_style = "#212529"
            if bw >= 46 and p >= 0.01 or k == mode:   # a percentage needs about 46 px at 14 px
                px = min(max(bx + bw / 2, x + 24), x + w - 24)
                c.fill_text(percent(p), px, bottom - bhh - 9)
            if k % tick == 0:
                c.fill_text(str(k), bx + bw / 2, bottom + 11)

    # -------------------------------------------------------------------------------------------- the wide chart

    def _redraw_wide(self) -> None:
        c = self.canvas
        self.fonts["wide"] = set()
        w, h = c.width, c.height
        reset_manager(c)
        with hold(c):
            c.clear()
            c.fill_style = "#ffffff"
            c.fill_rect(0, 0, w, h)
            c.text_baseline, c.text_align = "middle", "left"
            c.fill_style = "#212529"
            self._font(c, "bold 15px sans-serif")
            c.fill_text(self._title or "Exact odds", 10, 16)
            self._draw_outcomes(10, 34, w - 20, 30)
            if self._dists:
                n = len(self._dists)
                gw = (w - 20 - (n - 1) * 20) / n
                for i, d in enumerate(self._dists):
                    self._draw_dist(d, 10 + i * (gw + 20), 124, gw, h - 124 - 8)

    def _stacked_bar(self, c, x, y, w, bh, font: str, label_min: float) -> None:
        """The outcomes as one bar of segments (widths proportional to their odds), framed; a segment wider than
        ``label_min`` px carries its percentage in ``font``. Shared by the wide chart and the phone chart."""
        x0 = x
        total = sum(o.p for o in self._outcomes) or 1.0
        for o in self._outcomes:
            seg = w * o.p / total
            if seg > 0:
                c.fill_style = o.color
                c.fill_rect(x0, y, seg, bh)
                if seg > label_min:
                    c.fill_style = "#ffffff"
                    self._font(c, font)
                    c.text_align = "center"
                    c.fill_text(percent(o.p), x0 + seg / 2, y + bh / 2)
                    c.text_align = "left"
            x0 += seg
        c.stroke_style, c.line_width = "#495057", 1
        c.stroke_rect(x, y, w, bh)

    def _draw_outcomes(self, x, y, w, bh) -> None:
        c = self.canvas
        self._stacked_bar(c, x, y, w, bh, "bold 13px sans-serif", 46)
        # legend with exact numbers under the bar
        lx = x
        c.text_align = "left"
        for o in self._outcomes:
            c.fill_style = o.color
            c.fill_rect(lx, y + bh + 14, 14, 14)
            c.fill_style = "#212529"
            self._font(c, "13px sans-serif")
            text = f"{o.label}: {percent(o.p)}"
            c.fill_text(text, lx + 19, y + bh + 21)
            lx += 34 + len(text) * 7.2

    def _draw_dist(self, d: Distribution, x, y, w, h) -> None:
        c = self.canvas
        c.text_align, c.text_baseline = "left", "middle"
        c.fill_style = "#212529"
        self._font(c, "bold 13px sans-serif")
        c.fill_text(d.title, x, y)
        top, bottom = y + 26, y + h - 22
        ph = bottom - top
        n = len(d.probs)
        c.stroke_style, c.line_width = "#adb5bd", 1
        c.stroke_line(x, bottom, x + w, bottom)
        if not n:
            return
        bw, label_x = dist_layout(n, w, d.xlabel)
        pmax = max(max(d.probs), 1e-12)
        for k, p in enumerate(d.probs):
            bx = x + k * bw
            bhh = ph * p / pmax * 0.82
            c.fill_style = d.color
            c.fill_rect(bx + 3, bottom - bhh, bw - 6, bhh)
            c.fill_style = "#212529"
            c.text_align = "center"
            self._font(c, "11px sans-serif")
            if bw >= 34 or p >= 0.01:
                c.fill_text(percent(p), bx + bw / 2, bottom - bhh - 8)
            self._font(c, "12px sans-serif")
            c.fill_text(str(k), bx + bw / 2, bottom + 10)
        if d.xlabel:
            c.fill_style = "#495057"
            self._font(c, "italic 11px sans-serif")
            c.text_align = "left"
            if label_x is None:     # no room after the bars: on the title line, after the title
                c.fill_text(d.xlabel, x + len(d.title) * 8 + 10, y)
            else:
                c.fill_text(d.xlabel, x + label_x, bottom + 10)
