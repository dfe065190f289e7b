"""A phone's zoom predicts the label floor the page will measure (issue #24 item 3), in headless Chromium on the
served Line of Fire page: after each zoom in or out that shows the board at a fixed size, and after each fit to its
column (the page reports the column's width), the page script (:data:`explorer.widgets.label_floor.LABEL_FLOOR_JS`) finds the value the server already wrote and writes
nothing, so the labels are drawn once, not a second time up to ``POLL_MS`` later; and the browser lays the canvas out
at :func:`explorer.widgets.label_floor.laid_out_px` of its CSS width.

Before session 20 the server predicted with Python's rounding of the unrounded ratio: 723.125 / 1157 = 0.625 was
"0.62" (the page's ``toFixed`` gives "0.63"), and "457.275px" on a 1,407 px drawing, laid out 457.265625 px wide,
was "0.33" (the page measured 0.32499...: "0.32"); a fit was left to the page's next measure."""

from __future__ import annotations

import time

import pytest

from browser_helpers import PHONE, wait_until

from explorer.widgets.label_floor import POLL_MS, laid_out_px

pytestmark = [pytest.mark.browser]

# every 'input' event the page script dispatches on a label floor field (the server's own writes dispatch none)
_COUNT_WRITES = """(() => {
  const W = window.__floorWrites = [];
  const dispatch = EventTarget.prototype.dispatchEvent;
  EventTarget.prototype.dispatchEvent = function (ev) {
    if (ev.type === 'input' && this.closest && this.closest('.xr-label-floor')) W.push(this.value);
    return dispatch.call(this, ev);
  };
})();"""

_CANVAS = """() => { const out = []; const walk = (root) => { root.querySelectorAll('.hexboard canvas').forEach(e =>
  out.push(e)); root.querySelectorAll('*').forEach(e => { if (e.shadowRoot) walk(e.shadowRoot); }); }; walk(document);
  const c = out[0]; return [c.width, c.style.width, c.getBoundingClientRect().width]; }"""


@pytest.mark.slow
def test_a_fixed_size_zoom_on_a_phone_leaves_the_page_script_nothing_to_correct(browser, app_url):
    ctx = browser.new_context(**PHONE)
    try:
        ctx.add_init_script(_COUNT_WRITES)
        page = ctx.new_page()
        page.goto(app_url.rsplit("/", 1)[0] + "/tagraid-line-of-fire")
        wait_until(lambda: "Cutter has LoF to" in page.locator(".lof-verdict-list").first.inner_text(),
                   what="the verdicts")
        time.sleep(2.0)
        button = {k: page.locator(f".hexboard-zoom-{k} button, button.hexboard-zoom-{k}").first
                  for k in ("in", "out", "fit")}
        checked, corrected = [], []

        def press(kind: str) -> None:
            page.evaluate("() => { window.__floorWrites.length = 0; }")
            button[kind].tap()
            time.sleep(POLL_MS / 1000 + 0.5)   # the page script has measured at least once since
            width, css, shown = page.evaluate(_CANVAS)
            checked.append((kind, width, css, shown))
            if css.endswith("px"):   # a fixed size (fit shows it at 100%, as wide as the box it scrolls in)
                assert shown == laid_out_px(float(css[:-2])), (css, shown)
            writes = page.evaluate("() => window.__floorWrites.slice()")
            if writes:
                corrected.append((kind, width, css, writes))

        # the benchmark's path: in, out, fit, then in until the board is drawn again (a finer drawing), fit; twice
        for _ in range(2):
            for kind in ("in", "out", "fit"):
                press(kind)
            w0 = page.evaluate(_CANVAS)[0]
            for _ in range(8):
                press("in")
                if page.evaluate(_CANVAS)[0] != w0:
                    break
            press("fit")
    finally:
        ctx.close()
    assert len(checked) >= 12 and sum(c[2].endswith("px") for c in checked) >= 8, checked
    assert corrected == [], corrected
