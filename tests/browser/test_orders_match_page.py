"""The Order Expenditure Sequence page on a match, in headless Chromium: ``?scenario=tr-match-two-rounds`` opens
Round 1 of 2 with the Initial Deployment above it, the last step of Order 1 shows the exact odds of the Order beside
its dice, "Round ▶" pages to Round 2 (the table Round 1 left), ◀ from Round 2's start goes back to the end of
Round 1, the Download link is a match file, and a copied link reopens the same Round, Order and step. At 1280 px and
as a phone. ``EXPLORER_SCREENSHOTS=<dir>`` saves ``orders-match.png``."""

from __future__ import annotations

import os

import pytest

from browser_helpers import SCREENSHOTS, wait_until

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def _base(app_url: str) -> str:
    return app_url.rsplit("/", 1)[0]


@pytest.mark.parametrize("viewport", [dict(viewport={"width": 1280, "height": 1000}),
                                      dict(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)],
                         ids=["desktop", "phone"])
def test_a_match_paged_round_by_round(browser, app_url, viewport):
    from explorer.games.tagraid.orders.sequence import STEPS

    n = len(STEPS)
    ctx = browser.new_context(**viewport)
    page = ctx.new_page()
    page.goto(_base(app_url) + "/tagraid-orders?scenario=tr-match-two-rounds")
    root = page.locator(".tagraid-oes").first
    wait_until(lambda: root.count() and "Round 1 of 2" in root.inner_text(), timeout=90, what="Round 1")
    summary = page.locator(".oes-round").first
    assert "06 Initial Deployment: blue at Access Point 1, red at Access Point 3" in summary.inner_text()
    assert page.locator("a[download='match.toml']").count() == 1
    page.locator(".oes-last button, button.oes-last").first.click()
    wait_until(lambda: f"step {n} of {n}" in root.inner_text(), what="Order 1's last step")
    wait_until(lambda: "Exact odds of this Order" in root.inner_text(), what="the odds beside the dice")
    assert "Blue TAG against Red TAG's ARO: Blue TAG 65.5%" in page.locator(".oes-odds").first.inner_text()
    if SCREENSHOTS:
        page.screenshot(path=os.path.join(SCREENSHOTS, "orders-match.png"), full_page=False)
    page.locator(".oes-round-next button, button.oes-round-next").first.click()
    wait_until(lambda: "Round 2 of 2" in root.inner_text() and f"step 0 of {n}" in root.inner_text(),
               what="Round 2 at its start")
    assert "Event: Last shift" in summary.inner_text() and "Winner: blue" in summary.inner_text()
    assert page.locator(".oes-round-next button, button.oes-round-next").first.is_disabled()
    page.locator(".oes-back button, button.oes-back").first.click()
    wait_until(lambda: "Round 1 of 2" in root.inner_text() and "Order 3 of 3" in root.inner_text()
               and f"step {n} of {n}" in root.inner_text(), what="back to the end of Round 1")
    wait_until(lambda: "?s=" in page.url or "&s=" in page.url, what="the state in the URL")
    link = page.url
    page.close()
    other = ctx.new_page()
    other.goto(link)
    root2 = other.locator(".tagraid-oes").first
    wait_until(lambda: root2.count() and "Round 1 of 2" in root2.inner_text() and "Order 3 of 3" in
               root2.inner_text() and f"step {n} of {n}" in root2.inner_text(), timeout=90,
               what="the shared Round, Order and step")
    ctx.close()
