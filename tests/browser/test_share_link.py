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


def _stepper_view(page) -> tuple[int | None, int | None]:
    """``(Order number, step)`` the Orders page shows (Order ``None`` outside a Round)."""
    import re

    text = page.locator(".tagraid-oes").first.inner_text()
    order, step = re.search(r"Order (\d+) of \d+", text), re.search(r"step (\d+) of \d+", text)
    return (int(order.group(1)) if order else None), (int(step.group(1)) if step else None)


def _stepper_link(page) -> tuple[int | None, int | None]:
    """``(Order number, step)`` the page's address holds."""
    raw = page.evaluate("new URLSearchParams(location.search).get('s')")
    if not raw:
        return None, None
    st = decode_state(raw)
    return st.get("order_index", -1) + 1, st.get("step")


def test_a_stepper_link_after_quick_steps_reopens_the_same_step(browser, app_url):
    """Handed symptom: the Orders page's link was sometimes one step behind the step shown. Bursts of quick
    clicks on ▶ (no wait between them) and on "Order ▶"; after each burst the address must reach the step shown and
    stay there, and the link must reopen that Order at that step in a new browser context."""
    from explorer.games.tagraid.orders.sequence import STEPS

    n = len(STEPS)
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    page = ctx.new_page()
    page.goto(app_url.rsplit("/", 1)[0] + "/tagraid-orders?scenario=tr-round-stoorworm")
    wait_until(lambda: page.locator(".tagraid-oes").count() and _stepper_view(page) == (1, 0), timeout=90,
               what="Order 1 at step 0")
    nxt = page.locator(".oes-next button, button.oes-next").first
    order_next = page.locator(".oes-order-next button, button.oes-order-next").first
    expected = (1, 0)
    for burst, button in ((3, nxt), (5, nxt), (1, order_next), (4, nxt), (2, nxt)):
        for _ in range(burst):
            button.click(no_wait_after=True)
        if button is order_next:
            expected = (expected[0] + burst, 0)
        else:
            expected = (expected[0], min(expected[1] + burst, n))
        wait_until(lambda: _stepper_view(page) == expected, timeout=60, what=f"the page at {expected}")
        wait_until(lambda: _stepper_link(page) == expected, timeout=20, what=f"the link at {expected}")
        page.wait_for_timeout(700)   # a late write must not take the address back
        assert _stepper_link(page) == _stepper_view(page) == expected
    link = page.evaluate("location.href")
    ctx.close()

    other = browser.new_context(viewport={"width": 1280, "height": 900})
    p2 = other.new_page()
    p2.goto(link)
    wait_until(lambda: p2.locator(".tagraid-oes").count() and _stepper_view(p2) == expected, timeout=90,
               what=f"the shared link at {expected}")
    other.close()


def test_the_url_writer_keeps_the_newest_write_when_an_older_one_arrives_late(browser, app_url):
    """The writer's browser script itself (:data:`explorer.serving.url_state.URL_WRITER_JS`), fed the way
    Panel delivers two quick writes when the first is deferred: write 2 (step 5), then write 1 (step 4). The
    address keeps write 2; a later write 3 is taken."""
    from explorer.serving.url_state import URL_WRITER_JS, url_write_value

    page = browser.new_page()
    page.goto(app_url.rsplit("/", 1)[0] + "/")   # any page of the app: same origin for history.replaceState
    got = page.evaluate("""([body, writes]) => {
        const run = new Function('data', 'model', 'state', 'view', body);
        const state = {}, seen = [];
        for (const w of writes) { run({value: w, name_: 'probe'}, null, state, null);
                                  seen.push(new URLSearchParams(location.search).get('probe')); }
        return seen; }""", [URL_WRITER_JS, [url_write_value(2, "1.step5"), url_write_value(1, "1.step4"),
                                            url_write_value(3, "1.step6")]])
    assert got == ["1.step5", "1.step5", "1.step6"]
    page.close()


def test_a_nemesis_phase_link_reopens_the_players_choices_the_showdown_and_the_step(browser, app_url):
    """D.A.G.G.E.R. Nemesis Phase: a choice at a tie made in its dropdown, the Final Showdown box and two steps are in
    the link; the link opened in a new context shows the same choice, box, step and focused step."""
    base = app_url.rsplit("/", 1)[0]
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    page = ctx.new_page()
    page.goto(base + "/dagger-nemesis-phase?scenario=dg-activation")
    choice = page.locator("select:has(option:text-is('Hero A'))")
    choice.wait_for(timeout=60_000)
    choice.select_option(label="Hero A")

    def state():
        raw = page.evaluate("new URLSearchParams(location.search).get('s')")
        return decode_state(raw) if raw else {}

    wait_until(lambda: state().get("choices") == {"attack_target": {"Thug 1": "Hero A"}}, timeout=90,
               what="the choice in the link")
    page.locator(".dg-showdown input").check()
    for _ in range(2):
        page.get_by_role("button", name="Next ▶").click()
    wait_until(lambda: state().get("step") == 2 and state().get("showdown") is True, timeout=90,
               what="the step and the Final Showdown in the link")
    page.wait_for_timeout(500)

    def view(p):
        return {"choice": p.locator("select:has(option:text-is('Hero A'))").evaluate(
                    "s => s.options[s.selectedIndex].text.replace(/\\u00a0/g, ' ')"),
                "showdown": p.locator(".dg-showdown input").is_checked(),
                "position": p.locator(".dg-position").inner_text(),
                "step": p.locator(".dg-step-title").inner_text()}

    before = view(page)
    assert before["choice"] == "Hero A" and before["showdown"] and "step 2 of" in before["position"]
    link = page.evaluate("location.href")
    ctx.close()
    other = browser.new_context(viewport={"width": 1280, "height": 900})
    p2 = other.new_page()
    p2.goto(link)
    p2.locator(".dg-step-title").wait_for(timeout=60_000)
    assert wait_until(lambda: (v := view(p2))["position"] == before["position"] and v, timeout=90,
                      what="the step on the shared page") == before
    assert p2.locator(".url-state-error").count() == 0
    other.close()


def _link_routes() -> list[str]:
    from explorer.app import routes

    return list(routes())


@pytest.mark.parametrize("route", _link_routes())
def test_a_refused_link_leaves_the_address_holding_what_the_page_shows(browser, app_url, route):
    """Every page that reads its link: a ``?scenario=`` naming no scenario and a ``?s=`` with a field the page does
    not have are refused with messages naming the parameter (and the allowed values); the address then holds the
    page as shown (no ``scenario``, ``s`` the state shown), so reloading it opens the same page without any message."""
    from browser_helpers import settled_signature
    from explorer.urlstate import encode_state

    base = app_url.rsplit("/", 1)[0]
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(base + route + "?scenario=nope&s=" + encode_state({"zz": 1}))
    wait_until(lambda: page.locator(".url-state-error").count() and page.locator(".scenario-param-message").count()
               and page.locator(".scenario-param-message").inner_text(), timeout=120, what="both messages")
    scenario_msg = page.locator(".scenario-param-message").inner_text()
    state_msg = page.locator(".url-state-error").inner_text()
    assert scenario_msg.startswith("?scenario=") and "(allowed: " in scenario_msg, scenario_msg
    assert "(?s=)" in state_msg and "field '" in state_msg and "(allowed: " in state_msg, state_msg
    assert "The address now links to what the page shows" in scenario_msg and state_msg.endswith("page shows.")

    def address():
        q = page.evaluate("Object.fromEntries(new URLSearchParams(location.search))")
        return q if "scenario" not in q and q.get("s") and "zz" not in decode_state(q["s"]) else None

    wait_until(address, timeout=60, what="the address rewritten to the page shown")
    shown = _pictures_and_fields(settled_signature(page, skip=_NOT_FROM_THE_LINK))
    page.goto(page.evaluate("location.href"))
    page.locator(".jupyter-widgets").first.wait_for(timeout=120_000)
    again = _pictures_and_fields(settled_signature(page, skip=_NOT_FROM_THE_LINK))
    assert page.locator(".url-state-error").count() == 0 and page.locator(".scenario-param-message").count() == 0
    if route == "/tagraid-orders":
        # known, left to the Orders page: its link holds an ARO's step as played (2), so the default row's "at its
        # right" reopens as "step 2" (the same ARO and replay; the board's drawing may differ with it)
        shown = sorted("step 2" if t == "at its right" else t for t in shown[1])
        again = sorted("step 2" if t == "at its right" else t for t in again[1])
    assert again == shown, "the rewritten link reopens another page"
    page.close()


_NOT_FROM_THE_LINK = ".url-state-error, .scenario-param-message, .scenario-note-head, .scenario-note-verdict"
"""What a page shows that its link does not decide: the refusals, and the scenario note (``Opened from link`` after
a reload, the scenario's id and verdict before)."""


def _pictures_and_fields(signature: str) -> tuple:
    """What a page shows that its link decides: every canvas's pixels and the multiset of texts and field values,
    a ``;``-separated list's parts in any order (a link's state is written with sorted keys: the Orders page lists
    hand-set rolls ``A; T; W`` after a reload, ``A; W; T`` before)."""
    import json

    sig = json.loads(signature)
    return sig["canvases"], sorted("; ".join(sorted(t.split("; "))) for t in sig["text"])
