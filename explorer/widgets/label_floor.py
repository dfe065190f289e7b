"""Readable labels on a board shrunk to a phone (issue 23, item 1): the browser tells the board how small its canvas
is shown, and the board draws its labels at least :data:`MIN_LABEL_CSS_PX` CSS pixels tall there (and leaves out
the labels that would then overlap).

A board canvas is drawn at its own resolution (e.g. 760 or 1,100 px wide) and shown at the width of its column
(``xr-fit``): on a 390 px phone that is about 370 px, so a 11 px label shows about 4 to 5 px tall. The dice trays and
charts draw a narrow twin canvas for phones (:func:`explorer.widgets.odds_chart.phone_canvas`); a board cannot (it is
dragged, zoomed and tapped), so it gets a **label floor** instead:

* :class:`LabelFloor` — an invisible ``ipywidgets.Text`` put in the same widget box as the board's canvas (the box
  gets the class :data:`HOST_CLASS`). The page script (:data:`LABEL_FLOOR_JS`, part of
  :data:`explorer.widgets.layout.BROWSER_FIXES_JS`) measures, every :data:`POLL_MS` ms, the on-screen width of the
  first canvas of each such box and writes ``shown / drawn`` (CSS px per canvas px, two decimals) into the field
  (then the same ratio uncapped and the width of the box the canvas scrolls in: :attr:`LabelFloor.shown`,
  :attr:`LabelFloor.column`), as typing would: the value reaches Python like any text field's. It measures at once and every
  :data:`FAST_POLL_MS` ms while the page builds, so a board is measured as soon as it shows. Until the first measure
  has arrived and the board has redrawn for it, the field carries :data:`PENDING_CLASS` and, on a phone, the board's
  canvas is hidden (:data:`PENDING_CSS`, at most :data:`REVEAL_AFTER_S` s): its labels never show small first.
  In a window wider than :data:`PHONE_MAX_WIDTH` (the phone rules' limit,
  :data:`explorer.serving.phone.PHONE_MAX_WIDTH`) it writes ``1``: desktop pages draw exactly as before. A second
  word follows: the same ratio in any window, not capped at 1 (:attr:`LabelFloor.shown`: a board fitted to its
  column zooms from the size it is shown at, :meth:`~explorer.widgets.hexboard.HexBoardView.set_scale`).
* :attr:`LabelFloor.min_px` — the smallest label size (canvas px) that shows at least :data:`MIN_LABEL_CSS_PX` CSS px:
  ``MIN_LABEL_CSS_PX / ratio`` when the canvas is shown smaller than drawn on a phone, else 0 (no floor).
  :func:`floored` applies it to one font size; :func:`Declutter` drops labels that would overlap a label already
  drawn (the board draws "fewer" labels on a phone; a tap on the piece or space still tells what it is).

A board zoomed with two fingers is shown larger, its ratio grows and its labels go back towards their own size.

An SVG picture in an HTML widget (the Round pages' maps: Mass Effect, Galaxy Defenders, D.A.G.G.E.R.) gets the same
floor from the page script alone: on a phone every ``<text>`` of an SVG shown smaller than its ``viewBox`` is drawn at
least :data:`MIN_LABEL_CSS_PX` CSS px tall (its font size raised in user units), a raised text that runs past the
picture's edge moves back inside it, and a text whose box overlaps a text kept before it is hidden; wider windows get the SVG's own sizes back.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import ipywidgets as W

MIN_LABEL_CSS_PX = 14
"""Smallest label (CSS px) a board shows on a phone (the phone pages' smallest text,
:data:`explorer.serving.phone.MIN_TEXT_PX`)."""

PHONE_MAX_WIDTH = 600
"""Window width (CSS px) up to which the floor applies (:data:`explorer.serving.phone.PHONE_MAX_WIDTH`; a test keeps
them equal)."""

POLL_MS = 700
"""How often (ms) the page script measures the boards."""

HOST_CLASS = "xr-label-host"
"""The class of the widget box that holds a board's canvas and its :class:`LabelFloor`."""

INPUT_CLASS = "xr-label-floor"
"""The class of a :class:`LabelFloor` widget."""

PENDING_CLASS = "xr-floor-pending"
"""The class a :class:`LabelFloor` carries until the browser's first measure has reached it and the board has redrawn
for it. On a phone the board's canvas stays hidden meanwhile (:data:`PENDING_CSS`), so its labels never show at
their desktop size first (they did for about a second: the page script's first measure, the round trip to Python and
the redraw)."""

REVEAL_AFTER_S = 4
"""Seconds after which a pending board is shown anyway (:data:`PENDING_CSS`): a front end that runs no page script
(no measure can come) still shows it."""

FAST_POLL_MS, FAST_POLL_FOR_MS = 100, 6000
"""The page script measures every ``FAST_POLL_MS`` ms during the page's first ``FAST_POLL_FOR_MS`` ms (a board
appears and is measured at once), then every :data:`POLL_MS` ms."""

PENDING_CSS = """  .%(host)s:has(.%(pending)s) canvas {
    visibility: hidden;
    animation: xr-floor-reveal 0s linear %(after)ds forwards;
  }
  @keyframes xr-floor-reveal {
    to { visibility: visible; }
  }
""" % {"host": HOST_CLASS, "pending": PENDING_CLASS, "after": REVEAL_AFTER_S}
"""The phone stylesheet's rule (inside its ``max-width`` media query, :data:`explorer.serving.phone.PHONE_CSS`): a
board whose :class:`LabelFloor` is still pending is hidden (its room kept) until its floor has arrived, at most
:data:`REVEAL_AFTER_S` seconds."""

LABEL_FLOOR_JS = """
  // boards on a phone: tell each board (its xr-label-floor field) how small its canvas is shown (explorer.widgets
  // .label_floor); it draws its labels larger to stay readable
  const xrDeep = (root, sel, out) => { root.querySelectorAll(sel).forEach((e) => out.push(e));
    root.querySelectorAll('*').forEach((e) => { if (e.shadowRoot) { xrDeep(e.shadowRoot, sel, out); } }); return out; };
  const xrLabelFloor = () => {
    for (const box of xrDeep(document, '.%(input)s', [])) {
      const inp = box.tagName === 'INPUT' ? box : box.querySelector('input');
      const host = box.closest('.%(host)s');
      const c = host && host.querySelector('canvas');
      if (!inp || !c || !c.width) { continue; }
      const w = c.getBoundingClientRect().width;
      if (!w) { continue; }
      // the floor's ratio ('1' in a wide window), then how large the canvas is shown (for the board's zoom buttons),
      // then the width of the box it scrolls in (the column a fitted canvas fills: the server predicts a fit's floor)
      const col = c.parentElement ? c.parentElement.getBoundingClientRect().width : w;
      const ratio = (window.innerWidth > %(phone)d ? '1' : Math.min(1, w / c.width).toFixed(2)) + ' '
                    + (w / c.width).toFixed(2) + ' ' + String(col);
      if (inp.value !== ratio) {
        inp.value = ratio;
        inp.dispatchEvent(new Event('input', {bubbles: true}));
        inp.dispatchEvent(new Event('change', {bubbles: true}));
      }
    }
  };
  // SVG pictures in HTML widgets (the Round pages' maps): the same floor, applied here in the browser: on a phone
  // every text at least %(min)d px as shown, a text over one kept before it hidden
  const xrSvgFloor = () => {
    const phone = window.innerWidth <= %(phone)d;
    for (const svg of xrDeep(document, '.widget-html-content svg', [])) {
      const vb = svg.viewBox && svg.viewBox.baseVal, w = svg.getBoundingClientRect().width;
      if (!vb || !vb.width || !w) { continue; }
      const k = w / vb.width, key = phone && k < 1 ? k.toFixed(3) : '1';
      if (svg.dataset.xrFloor === key) { continue; }
      svg.dataset.xrFloor = key;
      const texts = Array.from(svg.querySelectorAll('text'));
      for (const t of texts) {
        if (t.dataset.xrFs === undefined) { t.dataset.xrFs = t.style.fontSize || ''; }
        t.style.fontSize = t.dataset.xrFs;
        t.style.display = '';
        t.style.transform = '';
      }
      if (key === '1') { continue; }
      const min = %(min)d / k, kept = [];
      for (const t of texts) {
        if (parseFloat(getComputedStyle(t).fontSize) < min) { t.style.fontSize = min.toFixed(1) + 'px'; }
        let b = t.getBBox();
        // a raised text that runs past the picture's edge moves back inside it (texts without a transform of their own)
        const dx = b.x < vb.x ? vb.x - b.x : (b.x + b.width > vb.x + vb.width ? vb.x + vb.width - b.x - b.width : 0);
        if (dx && !t.hasAttribute('transform') && b.width <= vb.width) {
          t.style.transform = 'translate(' + dx.toFixed(1) + 'px, 0)';
          b = {x: b.x + dx, y: b.y, width: b.width, height: b.height};
        }
        if (kept.some((o) => b.x < o.x + o.width && o.x < b.x + b.width && b.y < o.y + o.height && o.y < b.y + b.height)) {
          t.style.display = 'none';
        } else {
          kept.push(b);
        }
      }
    }
  };
  if (typeof document !== 'undefined' && typeof document.querySelectorAll === 'function') {   // a page (not a test)
    // at once and often while the page builds (a board is measured as soon as it shows), then every %(poll)d ms
    const xrFloors = () => { xrLabelFloor(); xrSvgFloor(); };
    const xrFast = setInterval(xrFloors, %(fast)d);
    setTimeout(() => { clearInterval(xrFast); setInterval(xrFloors, %(poll)d); }, %(fast_for)d);
    xrFloors();
  }
""" % {"min": MIN_LABEL_CSS_PX, "input": INPUT_CLASS, "host": HOST_CLASS, "phone": PHONE_MAX_WIDTH, "poll": POLL_MS,
       "fast": FAST_POLL_MS, "fast_for": FAST_POLL_FOR_MS}
"""The page script part that feeds every :class:`LabelFloor` (runs once per page, inside
:data:`explorer.widgets.layout.BROWSER_FIXES_JS`)."""


class LabelFloor(W.Text):
    """The invisible field a board's page script writes its shown/drawn ratio into (see the module docstring).

    ``on_change(callback)``: ``callback()`` runs when :attr:`min_px` changes (the board redraws its labels).
    """

    def __init__(self, **kwargs):
        super().__init__(value="", continuous_update=True, layout=W.Layout(display="none"), **kwargs)
        self.add_class(INPUT_CLASS)
        self.add_class(PENDING_CLASS)
        self._cbs: list[Callable[[], None]] = []
        self._min = 0.0
        self.observe(self._changed, names="value")

    @property
    def ratio(self) -> float:
        """CSS px per canvas px of the board as the browser shows it on a phone (1.0 elsewhere or not yet known):
        the value's first word; a word that is not a number in [0.05, 1] counts as 1."""
        try:
            r = float(self.value.split()[0])
        except (ValueError, IndexError):
            return 1.0
        return r if 0.05 <= r <= 1.0 else 1.0

    @property
    def shown(self) -> float | None:
        """CSS px per canvas px the board's canvas is shown at, in any window (the value's second word, written by
        the page script since issue #24: the board's zoom buttons zoom from what is shown), or ``None`` when not
        reported or not a number in [0.05, 20]."""
        try:
            r = float(self.value.split()[1])
        except (ValueError, IndexError):
            return None
        return r if 0.05 <= r <= 20.0 else None

    @property
    def column(self) -> float | None:
        """CSS px width of the box the board's canvas scrolls in, the column a fitted canvas fills (the value's third
        word, written by the page script since session 20: the board predicts the floor of a fit,
        :meth:`~explorer.widgets.hexboard.HexBoardView.fit`), or ``None`` when not reported or not a number in
        [1, 20000]."""
        try:
            w = float(self.value.split()[2])
        except (ValueError, IndexError):
            return None
        return w if 1.0 <= w <= 20000.0 else None

    @property
    def phone(self) -> bool:
        """Whether the page reported a phone window (a first word other than ``1``: the floor applies)."""
        words = self.value.split()
        return bool(words) and words[0] != "1"

    @property
    def min_px(self) -> float:
        """Smallest label size (canvas px): ``MIN_LABEL_CSS_PX / ratio`` when the board is shown smaller than drawn,
        else 0."""
        return self._min

    def _changed(self, _change) -> None:
        r = self.ratio
        new = 0.0 if r >= 1.0 else MIN_LABEL_CSS_PX / r
        if new != self._min:
            self._min = new
            for cb in self._cbs:
                cb()
        if PENDING_CLASS in self._dom_classes:   # after the redraw's messages: the board may show
            self.remove_class(PENDING_CLASS)

    @property
    def pending(self) -> bool:
        """Whether no measure has reached the floor yet (the board is hidden on a phone, :data:`PENDING_CSS`)."""
        return PENDING_CLASS in self._dom_classes

    def on_change(self, callback: Callable[[], None]) -> None:
        self._cbs.append(callback)


def js_fixed(x: float, digits: int = 2) -> str:
    """``x.toFixed(digits)`` as the page script's JavaScript writes it: the exact decimal value of the double ``x``
    rounded to ``digits`` decimals, a tie going to the larger number (Python's ``f"{x:.2f}"`` sends a tie to the even
    digit: ``0.625`` is ``"0.63"`` in the browser and ``"0.62"`` in Python). For ``0 <= x < 1e21``; ``digits`` 0-20."""
    from decimal import ROUND_HALF_UP, Decimal

    return str(Decimal(x).quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP))


def laid_out_px(css_px: float) -> float:
    """The width the browser lays out for a CSS length of ``css_px`` pixels, as ``getBoundingClientRect`` reports it:
    Chromium keeps layout sizes in 1/64 px (``LayoutUnit``), the length taken as a 32-bit float and cut towards zero
    (``"903.906px"`` is laid out 903.890625 px wide, ``"457.275px"`` 457.265625). Checked in Chromium by
    ``tests/browser/test_label_floor_browser.py``."""
    import numpy as np

    return math.floor(float(np.float32(css_px)) * 64) / 64


def floored(size: float, min_px: float) -> float:
    """``size`` (px) raised to ``min_px`` (no change when ``min_px`` is 0), rounded up to a whole pixel when raised."""
    return size if size >= min_px else float(int(min_px) + (min_px > int(min_px)))


CHAR_EM = 0.6
"""Estimated width of one character in ems (sans-serif; the server cannot measure text drawn in the browser)."""


class Declutter:
    """Greedy label culling: :meth:`fits` says whether a label of ``text`` at ``size`` px anchored at ``(x, y)``
    (``align`` ``"center"`` / ``"left"`` / ``"right"``, vertically centred) overlaps none of the labels accepted before
    it, and if so accepts it. Only active when ``on`` (a floor is set); otherwise every label fits."""

    def __init__(self, on: bool):
        self.on = on
        self.boxes: list[tuple[float, float, float, float]] = []

    def fits(self, text: str, x: float, y: float, size: float, align: str = "center") -> bool:
        if not self.on:
            return True
        w, h = len(text) * size * CHAR_EM, size
        x0 = x - w / 2 if align == "center" else x if align in ("left", "start") else x - w
        box = (x0, y - h / 2, x0 + w, y + h / 2)
        if any(box[0] < b[2] and b[0] < box[2] and box[1] < b[3] and b[1] < box[3] for b in self.boxes):
            return False
        self.boxes.append(box)
        return True


__all__ = ["Declutter", "HOST_CLASS", "INPUT_CLASS", "LABEL_FLOOR_JS", "LabelFloor", "MIN_LABEL_CSS_PX",
           "PENDING_CLASS", "PENDING_CSS", "floored"]
