"""The documentation site in headless Chromium, and the app's ``?scenario=<id>`` that its live links use.

- three pages of the built site (``built_site``, ``tests/conftest.py``): a game page, a gallery entry and an
  embedded demo (a notebook's widget shown as its static picture): every picture is there, laid out with a size, and
  drawn (an SVG with shapes; an image that decoded); at 390 px wide no page is wider than the screen;
- the Panel app (``app_url``) opens the scenario a link names, and says so when it cannot.

``EXPLORER_SCREENSHOTS=<dir>`` saves ``docs-<page>-<width>.png`` there.
"""

from __future__ import annotations

import os

import pytest

from browser_helpers import SCREENSHOTS, wait_until

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PICTURES = """() => {
  const out = [];
  for (const el of document.querySelectorAll('.body svg, .body img')) {
    if (el.parentElement && el.parentElement.closest('svg')) continue;  // a nested SVG is part of its parent
    const r = el.getBoundingClientRect();
    const tag = el.tagName.toLowerCase();
    out.push({tag, cls: el.getAttribute('class') || '', w: r.width, h: r.height,
              shapes: tag === 'svg' ? el.querySelectorAll('path,rect,circle,polygon,line,text,polyline').length : 0,
              natural: tag === 'img' ? el.naturalWidth : 0, complete: tag === 'img' ? el.complete : true});
  }
  return out;
}"""


def _pictures(page) -> list[dict]:
    return page.evaluate(PICTURES)


def _check_drawn(pictures: list[dict], what: str, at_least: int = 1) -> None:
    assert len(pictures) >= at_least, f"{what}: {len(pictures)} pictures"
    for p in pictures:
        assert p["w"] > 20 and p["h"] > 10, f"{what}: a picture with no size: {p}"
        if p["tag"] == "svg":
            assert p["shapes"] >= 3, f"{what}: an empty SVG: {p}"
        else:
            assert p["complete"] and p["natural"] > 0, f"{what}: an image that did not load: {p}"


def _open(browser, built_site, path: str, width: int):
    page = browser.new_page(viewport={"width": width, "height": 900})
    page.goto((built_site / path).as_uri())
    page.wait_for_load_state("load")
    return page


def _shot(page, name: str, width: int, full_page: bool = False) -> None:
    if SCREENSHOTS:
        page.screenshot(path=os.path.join(SCREENSHOTS, f"docs-{name}-{width}.png"), full_page=full_page,
                        timeout=120_000)


@pytest.mark.parametrize("width", [1280, 390])
def test_built_site_pages_show_their_pictures(browser, built_site, width):
    # a game page: its embedded scenario (the world map) with the cited steps and the live link
    page = _open(browser, built_site, "games/dagger.html", width)
    embed = page.locator(".explorer-embed").first
    assert embed.count() and "explorer-live" in embed.inner_html()
    _check_drawn(_pictures(page), "games/dagger.html")
    _shot(page, "game-dagger", width, full_page=True)
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 1, f"games/dagger.html is {overflow} px wider than a {width} px screen"
    page.close()

    # a gallery entry: an ambiguous case's picture and both readings side by side
    page = _open(browser, built_site, "gallery/masseffect.html", width)
    entry = page.locator("#gallery-me-04")
    assert entry.count() == 1 and "Verdict" in entry.inner_text()
    pics = [p for p in _pictures(page) if p["tag"] == "svg"]
    _check_drawn(pics, "gallery/masseffect.html", at_least=10)
    page.locator("#gallery-me-04").scroll_into_view_if_needed()
    _shot(page, "gallery-masseffect", width)
    page.close()

    # an embedded demo: a notebook executed at build time, its widget shown as a static picture (no blank canvas)
    page = _open(browser, built_site, "notebooks/face_to_face.html", width)
    static = page.locator(".explorer-static-widget")
    assert static.count() >= 1
    canvases = [p for p in _pictures(page) if "explorer-static-canvas" in p["cls"]]
    _check_drawn(canvases, "notebooks/face_to_face.html", at_least=2)  # dice tray and odds chart
    assert "Saving Rolls" in static.first.inner_text()
    static.first.scroll_into_view_if_needed()
    _shot(page, "notebook-face-to-face", width)
    page.close()

    page = _open(browser, built_site, "index.html", width)
    _check_drawn(_pictures(page), "index.html", at_least=0)
    _shot(page, "home", width, full_page=True)
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 1, f"index.html is {overflow} px wider than a {width} px screen"
    page.close()


def test_app_opens_the_scenario_a_link_names(browser, app_url):
    base = app_url.rsplit("/", 1)[0]
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    page.goto(base + "/dagger-nemesis-phase?scenario=dg-03")
    root = page.locator(".dg-nemesis").first
    wait_until(lambda: root.count() and "step 0 of" in root.inner_text(), timeout=90, what="the Nemesis page")
    chosen = "els => els.map(e => e.selectedIndex >= 0 ? e.options[e.selectedIndex].text : '')"
    wait_until(lambda: "dg-03" in page.locator("select").evaluate_all(chosen), what="the scenario picker on dg-03")

    page.goto(base + "/tagraid-face-to-face?scenario=tr-05")
    from explorer.games.tagraid.views import explorer_for_scenario

    first = explorer_for_scenario("tr-05").trace.steps[0].title
    assert first != explorer_for_scenario().trace.steps[0].title  # tr-05 is not the page's default
    # (Panel renders in shadow DOM: get_by_text pierces it, body.inner_text() does not)
    wait_until(lambda: page.get_by_text(first).count() > 0, timeout=90, what="tr-05's first step")

    page.goto(base + "/tagraid-face-to-face?scenario=no-such-case")
    msg = page.locator(".scenario-param-message")
    wait_until(lambda: msg.count() and "no-such-case" in msg.first.inner_text(), timeout=90, what="the message")
    page.close()


def test_gallery_filter_narrows_the_cases_in_the_browser(browser, built_site):
    """The gallery index's filter runs in the page: every case listed at first; a game, then a kind, then a rule
    section (then none again), then "a ruling option changes the verdict" each leave only the matching rows
    (counted in the page's own line); a rule section's
    link opens its page, which links the case back."""
    page = _open(browser, built_site, "gallery/index.html", 1280)
    root = page.locator("#explorer-gallery-filter")
    rows = root.locator("tbody tr")
    total = rows.count()
    count = root.locator(".explorer-filter-count")
    assert total > 100 and count.inner_text() == f"{total} of {total} cases"

    def shown():
        return [r for r in range(total) if rows.nth(r).is_visible()]

    root.locator("[data-filter=game]").select_option("tagraid")
    tagraid = shown()
    assert 0 < len(tagraid) < total and all(rows.nth(r).get_attribute("data-game") == "tagraid" for r in tagraid)
    root.locator("[data-filter=kind]").select_option("roll")
    rolls = shown()
    assert 0 < len(rolls) < len(tagraid) and count.inner_text() == f"{len(rolls)} of {total} cases"
    # a rule section (of the game picked): only the cases that cite it, each listing it among its sections
    section = root.locator("[data-filter=section] option[value^='tagraid:']").first.get_attribute("value")
    root.locator("[data-filter=section]").select_option(section)
    cited = shown()
    assert cited and len(cited) <= len(rolls)
    assert all(section in rows.nth(r).get_attribute("data-sections").split("|") for r in cited)
    assert count.inner_text() == f"{len(cited)} of {total} cases"
    root.locator("[data-filter=section]").select_option("")
    assert shown() == rolls
    root.locator("[data-filter=ruling]").check()
    ambiguous = shown()
    assert ambiguous and all(rows.nth(r).get_attribute("data-ruling") == "yes" for r in ambiguous)
    assert any("tr-05" in rows.nth(r).inner_text() for r in ambiguous)
    link = rows.nth(ambiguous[0]).locator("td:nth-child(4) a").first
    link.click()
    page.wait_for_load_state("load")
    assert "/gallery/section-tagraid-" in page.url and page.locator("a[href*='#gallery-']").count() >= 1
    page.close()
