"""The app's landing page lists every game and links to each tool page at its own URL."""

import pytest

from explorer.games import all_games

from browser_helpers import wait_until

pytestmark = pytest.mark.browser


def test_landing_lists_games_and_links_to_pages(browser, app_url):
    base = app_url.rsplit("/", 1)[0] + "/"
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(base)
    for g in all_games():
        wait_until(lambda: page.locator(f"text={g.title}").count() > 0, what=f"{g.id} on the landing page")
    page.get_by_text("Line of Fire", exact=True).first.click()
    wait_until(lambda: page.url.endswith("/tagraid-line-of-fire"), what="the Line of Fire page URL")
    wait_until(lambda: "Cutter has LoF to" in page.locator(".lof-verdict-list").inner_text(), what="LoF verdicts")
    # the page header links back to the other TAG Raid page
    page.get_by_text("Face to Face Rolls", exact=True).first.click()
    wait_until(lambda: page.url.endswith("/tagraid-face-to-face"), what="the Face to Face page URL")
    page.close()
