"""The tool notebook in JupyterLab 4 (headless Chromium): run every cell, the explorer renders and draws."""

from __future__ import annotations

import os

import pytest
from browser_helpers import SCREENSHOTS, canvas_stats, open_notebook_and_run_all, wait_until

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_notebook_widget_renders_in_jupyterlab(browser, lab_url):
    page, errors = open_notebook_and_run_all(browser, lab_url, "notebooks/face_to_face.ipynb",
                                             {"width": 1600, "height": 1500})
    root = page.locator(".tagraid-f2f")
    root.first.wait_for(timeout=60_000)
    canvases = root.first.locator("canvas")
    stats = wait_until(lambda: canvases.count() >= 2 and [canvas_stats(canvases.nth(i)) for i in range(2)],
                       timeout=60, what="two canvases")
    wait_until(lambda: all(s["colours"] > 10 for s in [canvas_stats(canvases.nth(i)) for i in range(2)]),
               timeout=60, what="the canvases to be drawn")
    odds = root.first.locator(".f2f-odds").all_inner_texts()
    assert any(t.startswith("A wins") for t in odds), odds
    assert root.first.locator("text=Rolls › Face to Face Rolls").count() > 0
    # the printed trace of the last cell ran too
    assert page.locator("text=Ruling options used").count() > 0
    # an input change round-trips through the kernel
    box = root.first.locator(".f2f-A-burst input")
    box.fill("5")
    box.press("Enter")
    wait_until(lambda: len(root.first.locator(".f2f-A-dice input").input_value().split(",")) == 5,
               what="the kernel to update the dice")
    if SCREENSHOTS:
        root.first.scroll_into_view_if_needed()
        page.screenshot(path=os.path.join(SCREENSHOTS, "face-to-face-jupyterlab.png"), full_page=False)
    assert not errors, errors
    page.close()


def test_orders_notebook_pages_a_round_in_jupyterlab(browser, lab_url):
    """notebooks/tagraid_orders.ipynb in JupyterLab: its second stepper holds the Round tr-round-stoorworm at Order 1,
    step 4 (set by the notebook); "Order ▶" pages to Orders 2 and 3 (red's Turn), ▶ steps within an Order, the board
    is drawn. ``EXPLORER_SCREENSHOTS=<dir>`` saves ``orders-round-jupyterlab-{1,3}.png``."""
    from explorer.games.tagraid.orders.sequence import STEPS

    n = len(STEPS)
    page, errors = open_notebook_and_run_all(browser, lab_url, "notebooks/tagraid_orders.ipynb",
                                             {"width": 1600, "height": 1300})
    steppers = page.locator(".tagraid-oes")
    wait_until(lambda: steppers.count() >= 2, timeout=90, what="two steppers (an Order, a Round)")
    root = steppers.nth(1)
    wait_until(lambda: "Order 1 of 3" in root.inner_text() and f"step 4 of {n}" in root.inner_text(), timeout=60,
               what="the Round at Order 1, step 4")
    canvas = root.locator("canvas").first
    wait_until(lambda: canvas_stats(canvas)["colours"] > 10, timeout=60, what="the Round's board")
    assert "green deploys Stoorworm" in root.locator(".oes-round").first.inner_text()

    def shot(name):  # the notebook renders only the cells near its viewport: scroll the stepper to the top, then shoot
        news = page.get_by_role("button", name="No", exact=True)  # JupyterLab's news toast covers the output
        if news.count():
            news.first.click()
        root.evaluate("e => e.scrollIntoView({block: 'start'})")
        page.wait_for_timeout(500)
        page.screenshot(path=os.path.join(SCREENSHOTS, name), full_page=False)

    if SCREENSHOTS:
        shot("orders-round-jupyterlab-1.png")
    nxt_order = root.locator(".oes-order-next button, button.oes-order-next").first
    nxt_order.click()
    wait_until(lambda: "Order 2 of 3" in root.inner_text(), what="Order ▶ to 2")
    nxt_order.click()
    wait_until(lambda: "Order 3 of 3" in root.inner_text() and "red's Turn" in root.inner_text(), what="Order ▶ to 3")
    assert nxt_order.is_disabled()
    nxt = root.locator(".oes-next button, button.oes-next").first
    for k in range(1, 5):
        nxt.click()
        wait_until(lambda k=k: f"step {k} of {n}" in root.inner_text(), what=f"Order 3, step {k}")
    assert "Reactive TAG is activated" in root.locator(".oes-step-list").first.inner_text()
    if SCREENSHOTS:
        shot("orders-round-jupyterlab-3.png")
    assert not errors, errors
    page.close()


SCROLLER_JS = """(canvas) => {
    // the element that scrolls the notebook around the canvas (JupyterLab 4: the windowed notebook panel)
    let e = canvas.parentElement;
    while (e && !(e.scrollHeight > e.clientHeight + 20 && /(auto|scroll)/.test(getComputedStyle(e).overflowY))) {
        e = e.parentElement;
    }
    window.__scroller = e;
    canvas.__wheels = 0;                       // wheel events that reach the canvas (ipycanvas listens there)
    canvas.addEventListener('wheel', () => { canvas.__wheels += 1; });
    return !!e;
}"""


def test_plain_wheel_over_a_board_scrolls_the_notebook_and_a_modifier_wheel_reaches_the_board(browser, lab_url):
    """#12 in JupyterLab: ipycanvas cancels every wheel event over its canvas, so the notebook did not scroll over a
    board and the wheel turned the selected Model. The board's own browser fix (layout.browser_fix) keeps a plain
    wheel from the canvas: the notebook scrolls; with Alt held the wheel still reaches the board (and the page does
    not scroll)."""
    page, errors = open_notebook_and_run_all(browser, lab_url, "notebooks/line_of_fire.ipynb",
                                             {"width": 1400, "height": 800})
    board = page.locator(".hexboard").first
    board.wait_for(timeout=60_000)
    wait_until(lambda: page.evaluate("() => window.__explorerBrowserFixes === true"), timeout=60,
               what="the board's browser fix to be installed")
    canvas = board.locator("canvas").last              # the top layer: it takes the mouse
    assert canvas.evaluate(SCROLLER_JS), "no scrolling container around the board"
    canvas.scroll_into_view_if_needed()
    over = lambda b: (b["x"] + b["width"] / 2,  # noqa: E731  (mid of the canvas part below the toolbars)
                      (max(b["y"], 160) + min(b["y"] + b["height"], 780)) / 2)
    page.mouse.move(*over(canvas.bounding_box()))
    top = lambda: page.evaluate("() => window.__scroller.scrollTop")  # noqa: E731
    before = top()
    page.mouse.wheel(0, 240)
    wait_until(lambda: top() > before, timeout=10, what="the notebook to scroll under a plain wheel")
    assert canvas.evaluate("c => c.__wheels") == 0      # ipycanvas never saw it: nothing turned
    page.mouse.move(*over(canvas.bounding_box()))
    before = top()
    page.keyboard.down("Alt")
    page.mouse.wheel(0, 240)
    page.keyboard.up("Alt")
    wait_until(lambda: canvas.evaluate("c => c.__wheels") == 1, timeout=10, what="Alt + wheel to reach the board")
    page.wait_for_timeout(500)
    assert top() == before                              # ipycanvas took it: the notebook stayed put
    if SCREENSHOTS:
        page.screenshot(path=os.path.join(SCREENSHOTS, "line-of-fire-jupyterlab-wheel.png"), full_page=False)
    assert not errors, errors
    page.close()
