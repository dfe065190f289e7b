"""The served ipycanvas bundle composites a board's layers once per batch of drawing commands
(:mod:`explorer.serving.composite_once`), in headless Chromium on the served Line of Fire page: a zoom in that draws
the board again (every layer in one batch) reaches the shown canvas as one composite, not one per layer, and the
layers are drawn straight onto it (the MultiCanvas's own off-page canvas is not drawn on). The prefix on a stand-in
bundle, in Node: ``tests/serving/test_browser_scripts.py``."""

from __future__ import annotations

import time

import pytest

from browser_helpers import wait_until

from explorer.widgets.hexboard import LAYERS

pytestmark = [pytest.mark.browser]

# while armed: every whole-canvas clearRect of a canvas in the page (the shown board: one per composite), every
# drawImage of a canvas onto it, and every drawImage of a canvas onto a canvas that is not in the page (the
# MultiCanvas's own canvas, which ipycanvas composited the layers onto first)
_COUNT_SHOWN = """(() => {
  const P = window.__shownComposites = {n: 0, shown: 0, hidden: 0, armed: false};
  const proto = CanvasRenderingContext2D.prototype;
  const draw = proto.drawImage, clear = proto.clearRect;
  proto.drawImage = function (src, ...rest) {
    if (P.armed && src instanceof HTMLCanvasElement) { if (this.canvas.isConnected) P.shown += 1; else P.hidden += 1; }
    return draw.call(this, src, ...rest);
  };
  proto.clearRect = function (x, y, w, h) {
    if (P.armed && this.canvas.isConnected && x <= 0 && y <= 0 && w >= this.canvas.width && h >= this.canvas.height)
      P.n += 1;
    return clear.call(this, x, y, w, h);
  };
})();"""

_FIND = """(sel) => { const out = []; const walk = (root) => { root.querySelectorAll(sel).forEach(e => out.push(e));
  root.querySelectorAll('*').forEach(e => { if (e.shadowRoot) walk(e.shadowRoot); }); }; walk(document);
  return out.length ? out[0].width : null; }"""


@pytest.mark.slow
def test_a_zoom_that_draws_the_board_again_composites_it_once(browser, app_url):
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    try:
        page.add_init_script(_COUNT_SHOWN)
        page.goto(app_url.rsplit("/", 1)[0] + "/tagraid-line-of-fire")
        wait_until(lambda: "Cutter has LoF to" in page.locator(".lof-verdict-list").first.inner_text(),
                   what="the verdicts")
        width = lambda: page.evaluate(_FIND, ".hexboard canvas")  # noqa: E731
        plus = page.locator(".hexboard-zoom-in button, button.hexboard-zoom-in").first
        for _ in range(12):   # + until the canvas's drawing size changes: the board drawn again, every layer
            w0 = width()
            page.evaluate("() => { const P = window.__shownComposites; P.n = P.shown = P.hidden = 0; P.armed = true; }")
            plus.click()
            try:
                wait_until(lambda: width() != w0, timeout=3.0, what="a new drawing size")
            except Exception:   # noqa: BLE001 - the drawing was kept (only shown larger): press again
                continue
            break
        else:
            pytest.fail("twelve zooms in never drew the board again")
        wait_until(lambda: page.evaluate("() => window.__shownComposites.shown") >= 1, what="the new drawing shown")
        time.sleep(1.5)   # whatever else that zoom sends (a relabel) arrives
        got = page.evaluate("() => window.__shownComposites")
    finally:
        page.close()
    # one composite for the batch that drew every layer (ipycanvas alone made one per layer); a relabel that
    # follows in its own batch may add one; each composite draws the layers onto the shown canvas, nothing elsewhere
    n = got["n"]
    assert 1 <= n <= 2 and got["shown"] == len(LAYERS) * n and got["hidden"] == 0, got
