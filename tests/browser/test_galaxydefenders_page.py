"""The Galaxy Defenders combat page of the Panel app in headless Chromium: the calibration banner is shown, the exact
odds chart is drawn, and typing a new number of Red dice redraws the odds chart and changes the headline;
``?scenario=gd-04`` opens the page on that scenario with ``explorer resolve``'s outcome. Uses the
shared fixtures of ``conftest.py`` (``browser``, ``app_url``). ``EXPLORER_SCREENSHOTS=<dir>`` saves
``galaxydefenders-combat.png`` there.
"""

from __future__ import annotations

import os

import pytest

from browser_helpers import SCREENSHOTS, canvas_stats, wait_until
from explorer.text import plural

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def _base(app_url: str) -> str:
    return app_url.rsplit("/", 1)[0]


def test_combat_page_changing_the_dice_changes_the_odds(browser, app_url):
    from explorer.games.galaxydefenders.views import combat_page

    ref, _ = combat_page()                         # the page's default scenario: the expected first answer
    page = browser.new_page(viewport={"width": 1500, "height": 1000})
    page.goto(_base(app_url) + "/galaxydefenders-combat")
    chart = page.locator(f"canvas[width='{ref.chart.canvas.width}'][height='{ref.chart.canvas.height}']")
    wait_until(lambda: chart.count() and canvas_stats(chart.first)["opaque"] > 5000, timeout=90,
               what="the odds chart to be drawn")
    banner = page.locator(".gd-banner").first
    assert "calibration" in banner.inner_text() and "prints no die faces" in banner.inner_text()
    headline = page.locator(".gd-headline").first
    first = wait_until(lambda: headline.count() and headline.inner_text(), what="the headline")
    assert plural(ref.trace.outcome['attacks'][0]['hits'], "hit") in first
    before = canvas_stats(chart.first)

    red = page.locator(".widget-text").filter(has_text="Red dice").locator("input").first
    red.fill("9")
    red.press("Enter")
    ref.dice["red"].value = "9"                    # the same change, resolved in-process: the expected answer
    want = plural(ref.trace.outcome['attacks'][0]['hits'], "hit")
    wait_until(lambda: canvas_stats(chart.first)["hash"] != before["hash"], what="the odds chart to change")
    wait_until(lambda: want in headline.inner_text(), what="the headline to follow the new dice")
    assert len(ref.hit_tray.children) == 9

    red.fill("twelve")                             # bad input: message beside the field, text kept
    red.press("Enter")
    err = page.locator(".gd-err").first
    wait_until(lambda: err.count() and "whole number" in err.inner_text(), what="the error beside Red dice")
    assert red.input_value() == "twelve"
    if SCREENSHOTS:
        red.fill("4")
        red.press("Enter")
        page.wait_for_timeout(1500)
        page.screenshot(path=os.path.join(SCREENSHOTS, "galaxydefenders-combat.png"), full_page=True)
    page.close()


def test_combat_page_opens_a_scenario_from_its_address(browser, app_url):
    """``?scenario=gd-04`` opens the page on that scenario: the outcome shown is ``explorer resolve gd-04``'s."""
    from explorer.games import get_game
    from explorer.games.galaxydefenders.game import outcome_text

    g = get_game("galaxydefenders")
    want = outcome_text(g.resolve(g.load_builtin("gd-04")))
    page = browser.new_page(viewport={"width": 1280, "height": 1000})
    page.goto(_base(app_url) + "/galaxydefenders-combat?scenario=gd-04")
    out = page.locator(".scenario-note-verdict").first
    got = wait_until(lambda: out.count() and out.inner_text(), timeout=90, what="the scenario's outcome")
    assert got.split() == want.split()
    assert "1 hit," in page.locator(".gd-headline").first.inner_text()   # the first attack: the Sniper's Pistol
    page.close()
