"""The Galaxy Defenders A.I. stepper page of the Panel app in headless Chromium: the map is drawn, Next steps through
the activation (the rule table fills in: rule 1 does not apply, rule 2 applies; the board redraws at each step),
Prev goes back, and a scenario picked from the list is resolved. Uses the shared fixtures of ``conftest.py``
(``browser``, ``app_url``). ``EXPLORER_SCREENSHOTS=<dir>`` saves ``galaxydefenders-ai.png`` there.
"""

from __future__ import annotations

import os

import pytest

from browser_helpers import SCREENSHOTS, canvas_stats, wait_until

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def _base(app_url: str) -> str:
    return app_url.rsplit("/", 1)[0]


def _board_hash(page) -> tuple:
    canvases = page.locator(".gd-ai canvas")
    return tuple(canvas_stats(canvases.nth(i))["hash"] for i in range(canvases.count()))


def test_ai_page_steps_forward_and_back(browser, app_url):
    from explorer.games.galaxydefenders.ai_views import AIStepper

    ref = AIStepper()                               # the page's default scenario, resolved in-process
    steps = ref.trace.steps
    page = browser.new_page(viewport={"width": 1500, "height": 1000})
    page.goto(_base(app_url) + "/galaxydefenders-ai")
    nxt = page.get_by_role("button", name="Next ▶")
    prev = page.get_by_role("button", name="◀ Prev")
    wait_until(lambda: nxt.count() and page.locator(".gd-ai canvas").count() >= 1, timeout=90, what="the page")
    wait_until(lambda: canvas_stats(page.locator(".gd-ai canvas").first)["opaque"] > 2000, what="the map")
    outcome = page.locator(".gd-ai-outcome").first
    assert f"→ {ref.trace.outcome['end']}" in outcome.inner_text()
    rules = page.locator(".gd-ai-rules").first
    assert "not reached" in rules.inner_text()       # all steps shown: rule 3 was never reached

    focus = page.locator(".gd-ai-stepper").first
    hashes = [_board_hash(page)]
    for i, s in enumerate(steps):
        nxt.click()
        wait_until(lambda: f"step {i + 1} of {len(steps)}" in focus.inner_text(), what=f"step {i + 1}")
        wait_until(lambda: s.title in focus.inner_text(), what=f"step {i + 1}'s title")
        if "behavior" in s.facts:                   # the rule table follows the steps
            row = rules.locator("tr").nth(s.facts["behavior"] + 1)
            want = "APPLIES" if s.facts["applies"] else "does not apply"
            wait_until(lambda: want in row.inner_text(), what=f"rule {s.facts['behavior'] + 1}: {want}")
        page.wait_for_timeout(400)
        hashes.append(_board_hash(page))
    assert len(set(hashes)) >= 4, "the board should redraw for the steps that move or draw something"
    kept = rules.locator("tr").nth(2).inner_text()
    assert "APPLIES" in kept and "Within 2 Areas" in kept
    assert "does not apply" in rules.locator("tr").nth(1).inner_text()
    path_step = next(i for i, s in enumerate(steps) if "path" in s.facts)
    for _ in range(len(steps) - 1 - path_step):
        prev.click()
    wait_until(lambda: f"step {path_step + 1} of {len(steps)}" in focus.inner_text(), what="back to the move")
    # going back shows the same board as going forward (waited for, not slept for: a loaded machine redraws late)
    wait_until(lambda: _board_hash(page) == hashes[path_step + 1], what="the same board as going forward")
    if SCREENSHOTS:
        page.screenshot(path=os.path.join(SCREENSHOTS, "galaxydefenders-ai.png"), full_page=True)

    page.locator(".gd-ai select").first.select_option("gd-ai-no-rule")
    wait_until(lambda: "no behavior rule applied" in outcome.inner_text(), what="the other scenario's outcome")
    page.close()
