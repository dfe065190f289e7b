"""Page faults of issue 23 item 4 and issue 25 item 6 in Chromium at 1280 px: no page requests ``/[object Module]``
or any font (Accordion arrows are CSS), no button label is cut, a picked scenario is in the link and a reload
reopens it, a link past the size bound opens the page's defaults with a one-line message."""

from __future__ import annotations

import pytest

from browser_helpers import wait_until
from explorer.urlstate import MAX_STATE_CHARS, decode_state

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PAGES = ["tagraid-face-to-face", "tagraid-line-of-fire", "tagraid-orders", "masseffect-mission-map",
         "masseffect-enemy-activation", "masseffect-strategy-pool", "galaxydefenders-combat", "galaxydefenders-ai",
         "dagger-nemesis-phase"]

_CUT_LABELS = """(() => { const out = []; const walk = (root) => {
  for (const el of root.querySelectorAll('button')) {
    if (el.offsetParent !== null && el.scrollWidth > el.clientWidth + 1) out.push(el.textContent.trim()); }
  for (const el of root.querySelectorAll('*')) if (el.shadowRoot) walk(el.shadowRoot); };
  walk(document); return out; })()"""

_ICON_FONTS = """(() => { const out = []; const walk = (root) => {
  for (const el of root.querySelectorAll('.jupyter-widget-Collapse-header i')) {
    const ff = getComputedStyle(el).fontFamily + getComputedStyle(el, '::before').fontFamily;
    out.push([ff, el.getBoundingClientRect().width]); }
  for (const el of root.querySelectorAll('*')) if (el.shadowRoot) walk(el.shadowRoot); };
  walk(document); return out; })()"""


def _base(app_url: str) -> str:
    return app_url.rsplit("/", 1)[0]


@pytest.mark.parametrize("route", PAGES)
def test_no_font_request_no_object_module_no_cut_label(browser, app_url, route):
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    page = ctx.new_page()
    bad, fonts = [], []
    page.on("response", lambda r: bad.append((r.status, r.url)) if r.status >= 400 else None)
    page.on("request", lambda r: fonts.append(r.url) if r.resource_type == "font" else None)
    page.goto(f"{_base(app_url)}/{route}")
    page.locator(".explorer-nav").first.wait_for(timeout=60_000)
    page.wait_for_timeout(4000)
    wait_until(lambda: page.evaluate("document.querySelectorAll('[class*=pn-loading]').length") == 0, timeout=60,
               what="the page drawn")
    assert [u for _s, u in bad if "object" in u] == [] and fonts == [], (bad, fonts)
    assert page.evaluate(_CUT_LABELS) == []
    for ff, width in page.evaluate(_ICON_FONTS):     # the arrows: drawn, and not with an icon font
        assert "Awesome" not in ff and width > 0
    ctx.close()


def test_a_picked_scenario_is_in_the_link_and_a_reload_reopens_it(browser, app_url):
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    page = ctx.new_page()
    page.goto(f"{_base(app_url)}/dagger-nemesis-phase")
    picker = page.locator(".dg-nemesis select").first
    picker.wait_for(timeout=60_000)
    picker.select_option("dg-loss-threat")
    wait_until(lambda: "s=1." in page.evaluate("location.search"), timeout=60, what="the pick in the URL")
    state = decode_state(page.evaluate("new URLSearchParams(location.search).get('s')"))
    assert state["scenario"] == "dg-loss-threat"
    page.reload()
    page.locator(".dg-nemesis select").first.wait_for(timeout=60_000)
    wait_until(lambda: page.locator(".dg-nemesis select").first.input_value() == "dg-loss-threat", timeout=60,
               what="the reloaded page on the linked scenario")
    ctx.close()


def test_a_link_past_the_size_bound_opens_the_defaults_with_a_message(browser, app_url):
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    page = ctx.new_page()
    n = 70_000                                   # past Tornado's default 64 KB request line: a blank page before
    page.goto(f"{_base(app_url)}/dagger-nemesis-phase?s=1." + "A" * n)
    msg = page.locator(".url-state-error")
    msg.wait_for(timeout=60_000)
    text = msg.inner_text()
    assert "shows its defaults" in text and f"{MAX_STATE_CHARS:,}" in text and "\n" not in text.strip()
    assert page.locator(".dg-nemesis select").first.input_value() == "dg-01"
    ctx.close()


def test_a_form_pages_link_reopens_its_inputs(browser, app_url):
    """Galaxy Defenders' Combat: a typed seed is in the link, and the link opened in a new context shows it."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    page = ctx.new_page()
    page.goto(f"{_base(app_url)}/galaxydefenders-combat")
    page.locator(".gd-combat").first.wait_for(timeout=60_000)
    box = page.get_by_label("Seed")
    box.wait_for(timeout=60_000)
    box.fill("41")
    box.press("Enter")
    wait_until(lambda: "s=1." in page.evaluate("location.search"), timeout=60, what="the inputs in the URL")
    link = page.url
    assert decode_state(page.evaluate("new URLSearchParams(location.search).get('s')"))["fields"]["seed"] == "41"
    other = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    other.goto(link)
    other.get_by_label("Seed").wait_for(timeout=60_000)
    wait_until(lambda: other.get_by_label("Seed").input_value() == "41", timeout=60, what="the seed reopened")
    ctx.close()
    other.context.close()
