"""Share by link: the Face to Face page writes its state to the address bar (``?s=...``, replacing the history entry);
the copied link opened in a new browser context shows the same verdict, dice, odds and inputs; a damaged link shows a
one-line message and the page's defaults."""

from __future__ import annotations

import pytest

from browser_helpers import wait_until
from explorer.urlstate import decode_state

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def _set_text(page, css: str, value: str) -> None:
    box = page.locator(f"{css} input")
    box.fill(value)
    box.press("Enter")


def _view(page) -> dict:
    return {"result": page.locator(".f2f-result").first.inner_text(),
            "dice A": page.locator(".f2f-A-dice input").input_value(),
            "dice B": page.locator(".f2f-B-dice input").input_value(),
            "odds": page.locator(".f2f-odds").all_inner_texts(),
            "attribute A": page.locator(".f2f-A-attribute input").input_value(),
            "burst A": page.locator(".f2f-A-burst input").input_value()}


def test_a_copied_link_reproduces_the_page_in_a_new_context(browser, app_url):
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    page = ctx.new_page()
    page.goto(app_url)
    page.locator(".f2f-result").first.wait_for(timeout=60_000)
    history = page.evaluate("history.length")
    _set_text(page, ".f2f-A-attribute", "9")
    wait_until(lambda: "s=1." in page.evaluate("location.search"), timeout=90, what="the state in the URL")
    _set_text(page, ".f2f-A-burst", "4")
    wait_until(lambda: _view(page)["dice A"].count(",") == 3, timeout=90, what="four dice for Burst 4")
    _set_text(page, ".f2f-A-dice", "20, 2, 13, 5")

    def state():
        raw = page.evaluate("new URLSearchParams(location.search).get('s')")
        return decode_state(raw) if raw else {}

    # the server has resolved the typed dice when they are in the address bar's state
    wait_until(lambda: state().get("active", {}).get("attacks", [{}])[0].get("dice") == [20, 2, 13, 5], timeout=90,
               what="the typed dice in the link")
    page.wait_for_timeout(500)
    before = _view(page)
    link = page.evaluate("location.href")
    assert page.evaluate("history.length") == history, "state changes must replace the history entry, not push"
    ctx.close()

    other = browser.new_context(viewport={"width": 1280, "height": 900})
    p2 = other.new_page()
    p2.goto(link)
    p2.locator(".f2f-result").first.wait_for(timeout=60_000)
    after = wait_until(lambda: (v := _view(p2))["odds"] and v, timeout=90, what="odds on the shared page")
    assert after == before
    assert after["attribute A"] == "9" and after["burst A"] == "4"
    # the page keeps following its state: a reload restores it too
    p2.reload()
    p2.locator(".f2f-result").first.wait_for(timeout=60_000)
    assert wait_until(lambda: (v := _view(p2))["odds"] and v, what="odds after reload") == before
    other.close()


def test_a_damaged_link_says_so_and_keeps_the_defaults(browser, app_url):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(app_url)
    page.locator(".f2f-result").first.wait_for(timeout=60_000)
    defaults = _view(page)
    page.goto(app_url + "?s=1.bm90IHJlYWxseQ")
    page.locator(".f2f-result").first.wait_for(timeout=60_000)
    msg = page.locator(".url-state-error").inner_text()
    assert "could not be opened" in msg and "damaged" in msg
    assert wait_until(lambda: (v := _view(page))["odds"] and v, what="odds") == defaults
    page.close()
