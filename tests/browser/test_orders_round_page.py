"""The Order Expenditure Sequence page on a Round, in headless Chromium: ``?scenario=tr-round-stoorworm`` opens the
Round at "Order 1 of 3" (the Events Phase already played: the Stoorworm deployed), ▶ walks Order 1 to its end and
on into Order 2 (the table Order 1 left: one Order spent, the Stoorworm wounded), "Order ▶" / "◀ Order" page through
the Orders, and a copied link reopens the same Order at the same step. ``EXPLORER_SCREENSHOTS=<dir>`` saves
``orders-round.png``. Uses the shared fixtures of ``conftest.py`` (``browser``, ``app_url``)."""

from __future__ import annotations

import os

import pytest

from browser_helpers import SCREENSHOTS, canvas_stats, wait_until

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def _base(app_url: str) -> str:
    return app_url.rsplit("/", 1)[0]


def test_a_round_paged_order_by_order(browser, app_url):
    from explorer.games.tagraid.orders.sequence import STEPS

    n = len(STEPS)
    page = browser.new_page(viewport={"width": 1500, "height": 1000})
    page.goto(_base(app_url) + "/tagraid-orders?scenario=tr-round-stoorworm")
    root = page.locator(".tagraid-oes").first
    wait_until(lambda: root.count() and "Order 1 of 3" in root.inner_text(), timeout=90, what="the Round's Order 1")
    canvas = page.locator(".tagraid-oes canvas").first
    wait_until(lambda: canvas_stats(canvas)["opaque"] > 5000, timeout=60, what="the board")
    summary = page.locator(".oes-round").first
    assert "green deploys Stoorworm" in summary.inner_text() and "Winner: blue" in summary.inner_text()
    steps = page.locator(".oes-step-list").first

    # Order 1 to its end, one step at a time, then ▶ goes on into Order 2 at its start
    nxt = page.locator(".oes-next button, button.oes-next").first
    for k in range(1, n + 1):
        nxt.click()
        wait_until(lambda k=k: f"step {k} of {n}" in root.inner_text(), what=f"Order 1, step {k}")
    assert "Active TAG is activated: one Order spent (1 left)" in steps.inner_text()
    assert not nxt.is_disabled()
    nxt.click()
    wait_until(lambda: "Order 2 of 3" in root.inner_text() and f"step 0 of {n}" in root.inner_text(),
               what="Order 2 at its start")
    nxt.click()
    wait_until(lambda: "Active TAG is activated: one Order spent (0 left)" in steps.inner_text(),
               what="Order 2 spends the Active TAG's last Order")
    out = page.locator(".oes-outcome-box").first.inner_text()
    # ◀ from Order 2's start goes back to the end of Order 1
    back = page.locator(".oes-back button, button.oes-back").first
    back.click()
    wait_until(lambda: f"step 0 of {n}" in root.inner_text(), what="Order 2, step 0")
    back.click()
    wait_until(lambda: "Order 1 of 3" in root.inner_text() and f"step {n} of {n}" in root.inner_text(),
               what="back to Order 1's end")

    # the Order navigator: straight to Order 3 (red's Turn)
    page.locator(".oes-order-next button, button.oes-order-next").first.click()
    wait_until(lambda: "Order 2 of 3" in root.inner_text(), what="Order ▶ to 2")
    page.locator(".oes-order-next button, button.oes-order-next").first.click()
    wait_until(lambda: "Order 3 of 3" in root.inner_text() and "red's Turn" in root.inner_text(),
               what="Order ▶ to 3")
    assert page.locator(".oes-order-next button, button.oes-order-next").first.is_disabled()
    nxt.click()
    wait_until(lambda: "Reactive TAG is activated" in steps.inner_text(), what="Order 3, step 1")
    if SCREENSHOTS:
        page.screenshot(path=os.path.join(SCREENSHOTS, "orders-round.png"), full_page=False)
    assert out  # the outcome box followed the Orders

    # the link carries the Round, the Order and the step
    wait_until(lambda: "?s=" in page.url or "&s=" in page.url, what="the state in the URL")
    link = page.url
    page.close()
    other = browser.new_page(viewport={"width": 1500, "height": 1000})
    other.goto(link)
    root2 = other.locator(".tagraid-oes").first
    wait_until(lambda: root2.count() and "Order 3 of 3" in root2.inner_text()
               and f"step 1 of {n}" in root2.inner_text(), timeout=90, what="the shared Order and step")
    other.close()
