"""Responsive page layout shared by every explorer page (game-agnostic CSS classes, no game logic).

One stylesheet (:data:`RESPONSIVE_CSS`, put on the page once by :func:`responsive_style`) and a few classes:

* ``xr-split`` on a container whose children are one ``xr-main`` (the board, the dice tray...) and one ``xr-aside``
  (the verdicts, the steps...): side by side from :data:`SPLIT_MIN_WIDTH` px of window width, stacked below it.
  :func:`split` builds such a container.
* ``xr-fit`` on a canvas widget: it scales to the width of its column (``width: 100%``, the height follows the
  aspect ratio; ipycanvas maps pointer coordinates through the element's on-screen size, so clicks stay exact).
  :func:`fit_canvas` sets it; ``max_px`` caps the width at the canvas's own resolution when upscaling would blur.
* ``xr-scroll`` on a box around a canvas shown at a fixed size (zoomed in): the box scrolls, the page is not cut. The
  canvas keeps its size there (the box is a flex box: before issue #24's fix a zoomed canvas shrank back to the
  column's width, so + and − changed the drawing's resolution but not the size it was shown at).
* ``xr-drawing`` on a canvas: until something is drawn, a "drawing…" hint shows through (a CSS background under the
  canvas pixels; every canvas here paints an opaque background or terrain over it), so a canvas is never a blank
  box while its first drawing is on its way (issue #12, first paint).

* :func:`browser_fix` — a 0 x 0 widget that installs :data:`BROWSER_FIXES_JS` in whatever page shows it (JupyterLab,
  Jupyter Notebook, the Panel app, a static export): a plain mouse wheel over a canvas scrolls the page or the
  notebook (ipycanvas' canvas calls ``preventDefault`` on every wheel event, so nothing scrolled there, and a board
  turned its selected piece instead), Ctrl / Shift / Alt / Meta + wheel still reaches the canvas, and focusing a
  canvas never scrolls. Every widget here that holds a canvas carries one (issue #12).

ipywidgets' ``Layout`` writes inline styles, which beat class rules: containers that use these classes must not set
``flex`` / ``width`` through ``Layout`` (the rules here use ``!important`` where a default inline style exists).
"""

from __future__ import annotations

import html as _html
from collections.abc import Sequence

import ipywidgets as W

from .label_floor import LABEL_FLOOR_JS

def class_token(name: str) -> str:
    """``name`` as one CSS class token (a stable hook built from a user-given name, e.g. a Miner's id): letters,
    digits, ``_`` and ``-`` are kept, every other character becomes ``_<hex code point>_`` (``"Red TAG"`` ->
    ``"Red_20_TAG"``), so distinct names give distinct tokens. A token with a space makes the browser's
    ``classList.add`` throw (``DOMTokenList``), and the widget's classes are then lost."""
    return "".join(c if (c.isascii() and (c.isalnum() or c in "_-")) else f"_{ord(c):x}_" for c in name)


SPLIT_MIN_WIDTH = 1200
"""Window width (CSS px) from which ``xr-split`` puts its main column and its aside side by side."""

ASIDE_WIDTH = 520
"""Width (CSS px) of the ``xr-aside`` column when side by side."""

ASIDE_WIDTH_WIDE = 580
"""Width (CSS px) of the ``xr-aside`` column from 1,480 px of window width."""

_DRAWING_SVG = ("data:image/svg+xml;utf8,<svg xmlns='http://www.w3.org/2000/svg' width='220' height='40'>"
                "<text x='110' y='25' text-anchor='middle' font-family='sans-serif' font-size='15' fill='%23868e96'>"
                "drawing%E2%80%A6</text></svg>")

RESPONSIVE_CSS = f"""<style>
.xr-split{{display:flex !important;flex-flow:row wrap !important;align-items:flex-start !important;
  width:100%;box-sizing:border-box;gap:8px}}
.xr-split>.xr-main,.xr-split>.xr-aside{{flex:1 1 100% !important;min-width:0 !important;max-width:100% !important;
  box-sizing:border-box}}
@media (min-width:{SPLIT_MIN_WIDTH}px){{
  .xr-split{{flex-wrap:nowrap !important}}
  .xr-split>.xr-main{{flex:1 1 0 !important}}
  .xr-split>.xr-aside{{flex:0 0 {ASIDE_WIDTH}px !important;width:{ASIDE_WIDTH}px !important}}
}}
@media (min-width:1480px){{
  .xr-split>.xr-aside{{flex:0 0 {ASIDE_WIDTH_WIDE}px !important;width:{ASIDE_WIDTH_WIDE}px !important}}
}}
.xr-fit{{width:100% !important;height:auto !important;max-width:100% !important;display:block}}
.xr-scroll{{overflow:auto !important;max-width:100% !important;box-sizing:border-box}}
.xr-scroll>canvas:not(.xr-fit){{flex-shrink:0 !important;max-width:none !important}}
.xr-wrap{{flex-wrap:wrap !important;max-width:100% !important}}
.xr-drawing{{background:#f8f9fa url("{_DRAWING_SVG}") center/220px 40px no-repeat}}
</style>"""


def responsive_style() -> W.HTML:
    """An (invisible) HTML widget carrying :data:`RESPONSIVE_CSS`; put one in any widget tree that uses the classes.
    (A ``<style>`` inside the widget tree works in JupyterLab and inside Panel's shadow DOM alike.)"""
    w = W.HTML(RESPONSIVE_CSS, layout=W.Layout(height="0px", margin="0", overflow="hidden"))
    w.add_class("xr-style")
    return w


def split(main: W.Widget, aside: W.Widget, **kwargs) -> W.Box:
    """A box showing ``main`` and ``aside`` side by side from :data:`SPLIT_MIN_WIDTH` px of window width and stacked
    below it (``main`` first); both get the classes ``xr-main`` / ``xr-aside``."""
    main.add_class("xr-main")
    aside.add_class("xr-aside")
    box = W.Box([main, aside], **kwargs)
    box.add_class("xr-split")
    return box


def fit_canvas(canvas: W.DOMWidget, fit: bool = True) -> None:
    """Make ``canvas`` scale to its column (``fit=True``) or show it at its own pixel size (``fit=False``)."""
    if fit:
        canvas.add_class("xr-fit")
    else:
        canvas.remove_class("xr-fit")


def mark_drawing(canvases: Sequence[W.DOMWidget]) -> None:
    """Show a "drawing…" hint under each canvas until its first drawing covers it (class ``xr-drawing``)."""
    for c in canvases:
        c.add_class("xr-drawing")


__all__ = ["ASIDE_WIDTH", "ASIDE_WIDTH_WIDE", "NARROW_ONLY", "RESPONSIVE_CSS", "SPLIT_MIN_WIDTH", "TOUCH_DRAG_CLASS",
           "UNZOOM_CLASS", "WIDE_ONLY",
           "class_token", "fit_canvas",
           "mark_drawing", "responsive_style", "split"]


BROWSER_FIXES_JS = """
if (!window.__explorerBrowserFixes) {
  window.__explorerBrowserFixes = true;
  // ipycanvas calls el.focus() on mouse down: never let focus scroll the page under the pointer
  const focus = HTMLCanvasElement.prototype.focus;
  HTMLCanvasElement.prototype.focus = function (opts) {
    return focus.call(this, Object.assign({}, opts || {}, {preventScroll: true}));
  };
  // a plain wheel over a widget canvas scrolls the page; Ctrl / Shift / Alt + wheel reach the canvas
  window.addEventListener('wheel', (e) => {
    const t = e.composedPath()[0];
    if (t && t.tagName === 'CANVAS' && (t.classList.contains('lm-Widget') || t.closest('.jupyter-widgets'))
        && !(e.ctrlKey || e.shiftKey || e.altKey || e.metaKey)) {
      e.stopImmediatePropagation();
    }
  }, {capture: true, passive: true});
  // touch (phones). A widget canvas marked xr-touch-drag (a board where one finger drags pieces) keeps its one-finger
  // touches; two fingers there zoom the board inside its box and pan it (ipycanvas cancels every touch on a canvas,
  // so the browser cannot zoom there). Every other widget canvas never sees touches: one finger scrolls the page,
  // a tap reaches it as the click the browser makes of it (tap = click), two fingers zoom and pan the page.
  const touchCanvas = (e) => {
    const t = e.composedPath()[0];
    return t && t.tagName === 'CANVAS' && (t.classList.contains('lm-Widget') || t.closest('.jupyter-widgets')) ? t : null;
  };
  const dragBoard = (c) => c.closest('.xr-touch-drag') !== null;
  const span = (ts) => Math.hypot(ts[0].clientX - ts[1].clientX, ts[0].clientY - ts[1].clientY) || 1;
  const mid = (ts) => ({x: (ts[0].clientX + ts[1].clientX) / 2, y: (ts[0].clientY + ts[1].clientY) / 2});
  const pinched = new Set();
  const unzoom = (c) => {
    pinched.delete(c);
    if (c.dataset.xrPinch) {
      delete c.dataset.xrPinch;
      ['width', 'max-width', 'height', 'flex-shrink'].forEach((p) => c.style.removeProperty(p));
    }
  };
  let pinch = null;
  const onTouch = (e) => {
    const c = pinch ? pinch.canvas : touchCanvas(e);
    if (!c) { return; }
    if (!dragBoard(c)) { e.stopImmediatePropagation(); return; }
    if (e.type === 'touchstart' && e.touches.length >= 2 && !pinch) {
      const box = c.parentElement;
      if (!c.__xrPinchWatch) {   // the board's own zoom buttons (a new size or class) end a pinch zoom
        c.__xrPinchWatch = new MutationObserver(() => unzoom(c));
        c.__xrPinchWatch.observe(c, {attributes: true, attributeFilter: ['class', 'width', 'height']});
      }
      pinch = {canvas: c, box: box, span: span(e.touches), mid: mid(e.touches), width: c.getBoundingClientRect().width,
               fit: box.clientWidth, left: box.scrollLeft};
    }
    if (!pinch) { return; }
    e.preventDefault();   // the page itself does not zoom
    if (e.type === 'touchmove' && e.touches.length >= 2) {
      const p = pinch, m = mid(e.touches), r = p.box.getBoundingClientRect();
      const w = Math.min(Math.max(p.width * span(e.touches) / p.span, p.fit), p.fit * 4);
      if (w <= p.fit + 1 && !c.dataset.xrPinch) {
        // nothing to zoom out of: two fingers move the page
      } else {
        c.dataset.xrPinch = '1';
        pinched.add(c);
        c.style.setProperty('width', w + 'px', 'important');
        c.style.setProperty('max-width', 'none', 'important');
        c.style.setProperty('height', 'auto', 'important');
        c.style.setProperty('flex-shrink', '0', 'important');
        if (w <= p.fit + 1) { unzoom(c); }
        p.box.scrollLeft = (p.mid.x - r.left + p.left) * w / p.width - (m.x - r.left);
      }
      window.scrollBy(0, (p.lastY === undefined ? p.mid.y : p.lastY) - m.y);
      p.lastY = m.y;
    }
    if ((e.type === 'touchend' || e.type === 'touchcancel') && e.touches.length === 0) { pinch = null; }
  };
  ['touchstart', 'touchmove', 'touchend', 'touchcancel'].forEach(
    (type) => window.addEventListener(type, onTouch, {capture: true, passive: false}));
  // a board's zoom buttons (class xr-unzoom) end every two-finger zoom: the board's own size rules again
  window.addEventListener('click', (e) => {
    if (pinched.size && e.composedPath().some((n) => n.classList && n.classList.contains('xr-unzoom'))) {
      Array.from(pinched).forEach(unzoom);
    }
  }, {capture: true, passive: true});
  __LABEL_FLOOR__
  window.__explorerBrowserFixesAt = performance.now();
}
""".replace("__LABEL_FLOOR__", LABEL_FLOOR_JS.strip())
"""The browser fixes (idempotent: installed once per page, however many widgets carry them). A window listener in
the capture phase runs before the canvas's own listener: stopping a plain wheel event there keeps it from ipycanvas,
which would cancel the scroll, while the browser's default action (scrolling) still happens.

Touch (issue 23): ipycanvas cancels every touch on a canvas (``preventDefault``), so on a phone a finger on a canvas
could neither scroll the page nor zoom it, and a tap never became a click (canvases that only listen to the mouse,
such as the Strategy Pool tray or the D.A.G.G.E.R. map, ignored taps). Touches on a canvas inside an element of class
:data:`TOUCH_DRAG_CLASS` (a board where one finger drags pieces, :class:`~explorer.widgets.hexboard.HexBoardView`)
still reach ipycanvas as before; there two fingers zoom the board inside its scrolling box (up to 4x its column's
width; the board's own zoom buttons, class :data:`UNZOOM_CLASS`, end it) and move the page. Touches on every other canvas never reach ipycanvas:
one finger scrolls the page, a tap becomes the mouse click the browser makes of it (the canvas's ``on_mouse_down``),
two fingers zoom and pan the page (the viewport allows it, :mod:`explorer.serving.phone`).

Boards on a phone (:data:`explorer.widgets.label_floor.LABEL_FLOOR_JS`): every 700 ms each board's invisible
label-floor field gets how small its canvas is shown, so the board draws its labels at least 14 CSS px tall."""

TOUCH_DRAG_CLASS = "xr-touch-drag"
"""The class of a canvas widget whose one-finger touches drag things (see :data:`BROWSER_FIXES_JS`)."""

NARROW_ONLY = "xr-narrow-only"
"""The class of a widget drawn for phones only (a chart's narrow canvas, :class:`~explorer.widgets.odds_chart
.OddsChart`): hidden by its own layout, shown at phone widths by :data:`explorer.serving.phone.PHONE_CSS`."""

WIDE_ONLY = "xr-wide-only"
"""The class of a widget hidden at phone widths (:data:`explorer.serving.phone.PHONE_CSS`) because a
:data:`NARROW_ONLY` twin shows the same there."""

UNZOOM_CLASS = "xr-unzoom"
"""The class of a button whose click ends every two-finger zoom of a board (a board's own zoom buttons)."""

BROWSER_FIX_CLASS = "xr-browser-fix"
"""The CSS class of every :func:`browser_fix` widget."""


def browser_fix_html() -> str:
    """HTML that runs :data:`BROWSER_FIXES_JS` when a page inserts it: an image that cannot load runs its
    ``onerror`` handler (``ipywidgets.HTML`` sets its value as inner HTML, where ``<script>`` never runs but event
    handlers do, in JupyterLab as under Panel)."""
    return (f"<img class='{BROWSER_FIX_CLASS}' src='data:,' alt='' width='0' height='0' style='display:block;width:0;"
            f"height:0;border:0' onerror=\"{_html.escape(BROWSER_FIXES_JS.strip(), quote=True)}\">")


def browser_fix() -> W.HTML:
    """A 0 x 0 ``ipywidgets.HTML`` that installs :data:`BROWSER_FIXES_JS` in the page that shows it (see the
    module docstring); put one in every widget that holds a canvas."""
    w = W.HTML(browser_fix_html(), layout=W.Layout(width="0px", height="0px", margin="0", overflow="hidden"))
    w.add_class(BROWSER_FIX_CLASS)
    return w
