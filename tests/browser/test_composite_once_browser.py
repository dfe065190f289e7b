"""The served ipycanvas bundle composites a board's layers once per batch of drawing commands
(:mod:`explorer.serving.composite_once`), in headless Chromium on the served Line of Fire page: a zoom in that draws
the board again (five layers in one batch) reaches the shown canvas as one composite, not five. The prefix on a
stand-in bundle, in Node: ``tests/serving/test_browser_scripts.py``."""

from __future__ import annotations

import time

import pytest

from browser_helpers import wait_until

pytestmark = [pytest.mark.browser]

# every drawImage of a canvas onto a canvas in the page (the shown board), counted while armed
_COUNT_SHOWN = """(() => {
  const P = window.__shownComposites = {n: 0, armed: false};
  const proto = CanvasRenderingContext2D.prototype;
  const draw = proto.drawImage;
  proto.drawImage = function (src, ...rest) {
    if (P.armed && this.canvas.isConnected && src instanceof HTMLCanvasElement) P.n += 1;
    return draw.call(this, src, ...rest);
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
            page.evaluate("() => { window.__shownComposites.n = 0; window.__shownComposites.armed = true; }")
            plus.click()
            try:
                wait_until(lambda: width() != w0, timeout=3.0, what="a new drawing size")
            except Exception:   # noqa: BLE001 - the drawing was kept (only shown larger): press again
                continue
            break
        else:
            pytest.fail("twelve zooms in never drew the board again")
        wait_until(lambda: page.evaluate("() => window.__shownComposites.n") >= 1, what="the new drawing shown")
        time.sleep(1.5)   # whatever else that zoom sends (a relabel) arrives
        n = page.evaluate("() => window.__shownComposites.n")
    finally:
        page.close()
    # one composite for the batch that drew the five layers (ipycanvas alone made five); a relabel that follows
    # in its own batch may add one
    assert 1 <= n <= 2, n
