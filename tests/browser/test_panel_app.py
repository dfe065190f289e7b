"""The Panel app in headless Chromium: the board draws, inputs update the odds, clicks reach Python, every session
gets its own working board (traps 2-5 of notes/stack.md)."""

from __future__ import annotations

import os
import re

import pytest

from browser_helpers import SCREENSHOTS, canvas_stats, wait_until

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def _drawn(page, n: int = 2) -> list[dict]:
    """Wait until ``n`` canvases exist and each shows a real drawing (many colours, not a blank fill)."""
    canvases = page.locator("canvas")

    def ok():
        if canvases.count() < n:
            return None
        stats = [canvas_stats(canvases.nth(i)) for i in range(n)]
        return stats if all(s["opaque"] > 1000 and s["colours"] > 10 for s in stats) else None

    return wait_until(ok, timeout=60, what="both canvases to be drawn")


def _odds(page) -> dict[str, float]:
    texts = page.locator(".f2f-odds").all_inner_texts()
    out = {}
    for t in texts:
        m = re.match(r"(.+?)\s+([\d.]+)%", t.strip())
        if m:
            out[m.group(1)] = float(m.group(2))
    return out


def _set_text(page, css: str, value: str) -> None:
    box = page.locator(f"{css} input")
    box.fill(value)
    box.press("Enter")


def test_board_draws_and_burst_changes_the_odds(browser, app_url):
    page = browser.new_page(viewport={"width": 1500, "height": 1400})
    page.goto(app_url)
    before_canvas = _drawn(page)
    odds = wait_until(lambda: _odds(page), what="odds text")
    assert set(odds) == {"A wins", "Nobody", "B wins"}
    assert abs(sum(odds.values()) - 100) < 0.3
    # the rule citations are on the page
    assert page.locator("text=TAG Raid: Rolls › Face to Face Rolls").count() > 0
    if SCREENSHOTS:
        page.screenshot(path=os.path.join(SCREENSHOTS, "face-to-face.png"), full_page=True)

    _set_text(page, ".f2f-A-burst", "5")
    new = wait_until(lambda: (o := _odds(page)) != odds and o, what="odds to change after Burst 3 -> 5")
    assert new["A wins"] > odds["A wins"]
    after_canvas = wait_until(lambda: (s := canvas_stats(page.locator("canvas").nth(0)))["hash"]
                              != before_canvas[0]["hash"] and s, what="the tray to redraw")
    assert after_canvas["colours"] > 10
    assert len(page.locator(".f2f-A-dice input").input_value().split(",")) == 5

    # the Success Value changes the odds too
    _set_text(page, ".f2f-B-attribute", "16")
    wait_until(lambda: (o := _odds(page)) and o["B wins"] > new["B wins"], what="B's odds to rise with its SV")
    page.close()


def test_bad_input_shows_message_and_keeps_text(browser, app_url):
    page = browser.new_page(viewport={"width": 1500, "height": 1400})
    page.goto(app_url)
    _drawn(page)
    _set_text(page, ".f2f-A-burst", "twelve")
    msg = wait_until(lambda: page.locator(".f2f-message").inner_text().strip(), what="an error message")
    assert "A.Burst" in msg and "not a whole number" in msg
    assert page.locator(".f2f-A-burst input").input_value() == "twelve"
    _set_text(page, ".f2f-B-dice", "25")
    wait_until(lambda: "25 is not a d20 face" in page.locator(".f2f-message").inner_text(), what="face error")
    page.close()


def test_clicking_a_die_reaches_python(browser, app_url):
    page = browser.new_page(viewport={"width": 1500, "height": 1400})
    page.goto(app_url)
    _drawn(page)
    b_dice = page.locator(".f2f-B-dice input")
    before = b_dice.input_value()
    # B's first die: label column 190 px, second row (TOP 34 + ROW_H 84 + 8), 46 px dice
    page.locator("canvas").nth(0).click(position={"x": 190 + 23, "y": 34 + 84 + 8 + 23})
    # the click picks the die (issue #12: a face picker, not +1 per click); the picker sets any face at once
    picker = page.locator(".dice-picker").first
    wait_until(lambda: picker.is_visible() and "B.1" in picker.inner_text(), what="the face picker for B.1")
    target = int(before.split(",")[0]) % 20 + 1
    page.locator(".dice-picker-faces button").nth(target - 1).click()
    wait_until(lambda: b_dice.input_value() != before, what="the picked face to reach the die")
    assert int(b_dice.input_value().split(",")[0]) == target
    page.close()


def test_second_session_gets_its_own_drawn_board(browser, app_url):
    ctx1, ctx2 = browser.new_context(), browser.new_context()
    p1, p2 = ctx1.new_page(), ctx2.new_page()
    p1.goto(app_url)
    _drawn(p1)
    p2.goto(app_url)
    _drawn(p2)
    # sessions are independent: a change in one does not touch the other, and both keep drawing
    _set_text(p2, ".f2f-A-burst", "1")
    wait_until(lambda: len(p2.locator(".f2f-A-dice input").input_value().split(",")) == 1, what="session 2 update")
    assert len(p1.locator(".f2f-A-dice input").input_value().split(",")) == 3
    assert canvas_stats(p2.locator("canvas").nth(0))["colours"] > 10
    ctx1.close()
    ctx2.close()


@pytest.fixture(scope="module")
def served_notebook_url(tmp_path_factory):
    """The tool notebook served the way jupyter-panel-proxy does on Binder: ``panel serve`` under a URL prefix, with
    the widget JavaScript laid out by the same code as binder/postBuild."""
    import sys

    from server_helpers import free_port, start, stop, wait_http

    from explorer.serving.widget_js import layout_widget_js

    js = layout_widget_js(tmp_path_factory.mktemp("widget-js"))
    port = free_port()
    proc = start([sys.executable, "-m", "panel", "serve", "notebooks/face_to_face.ipynb", "--port", str(port),
                  "--prefix", "/user/x/panel", "--static-dirs", f"widget-js={js}",
                  f"--allow-websocket-origin=localhost:{port}"])
    url = f"http://localhost:{port}/user/x/panel/face_to_face"
    try:
        wait_http(url, proc, timeout=180)
        yield url
    finally:
        stop(proc)


def test_served_notebook_under_a_proxy_prefix_draws(browser, served_notebook_url):
    page = browser.new_page(viewport={"width": 1500, "height": 1400})
    page.goto(served_notebook_url)
    _drawn(page)
    assert set(wait_until(lambda: _odds(page), what="odds text")) == {"A wins", "Nobody", "B wins"}
    assert page.locator("text=TAG Raid: Rolls › Face to Face Rolls").count() > 0
    page.close()


def test_page_load_sends_no_comm_open_and_shares_style_models(browser, app_url):
    """The browser sends no ``comm_open`` per widget model (explorer.serving.page_js) and builds one model per
    distinct layout / style (explorer.serving.shared_styles): the Face to Face page had 365 widget models."""
    page = browser.new_page()
    sent = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda f: sent.append(f) if isinstance(f, str) else None))
    page.goto(app_url)
    _drawn(page)
    _set_text(page, ".f2f-A-burst", "2")   # the page still works both ways
    wait_until(lambda: len(page.locator(".f2f-A-dice input").input_value().split(",")) == 2, what="burst 2")
    assert not [f for f in sent if '\\"comm_open\\"' in f or '"comm_open"' in f]
    models = page.evaluate("() => Bokeh.documents[0].all_models.values ? [...Bokeh.documents[0].all_models]"
                           ".filter(m => m.bundle).map(m => Object.keys(m.bundle.state.state).length) : []")
    assert models and sum(models) < 250
    page.close()
