"""The Order Expenditure Sequence page of the Panel app in headless Chromium: a whole Order walked through its steps.

The Active Miner is picked by clicking it, its Move drawn by clicking hexagons (the Reactive Miner behind the wall
gains its ARO partway along the route: step 2), then an Attack (its target gains its ARO at step 4), the AROs
declared, and ◀ / ▶ through the eleven steps: the step list, the verdicts, the dice and the outcome follow, and the
board is redrawn (canvas pixels read back). Each interaction's latency (input to redrawn board / step list) goes to
the browser timing report (``browser_helpers.record_timing``). ``EXPLORER_SCREENSHOTS=<dir>`` saves
``orders.png`` there. Uses the shared fixtures of ``conftest.py`` (``browser``, ``app_url``)."""

from __future__ import annotations

import os

import pytest

from browser_helpers import SCREENSHOTS, canvas_stats, changed_after, record_timing, wait_until, watch_change

pytestmark = [pytest.mark.browser, pytest.mark.slow]

TARGET_MS = 150.0
"""One full Order from click to redrawn board (issue #8): reported, not asserted."""


def _base(app_url: str) -> str:
    return app_url.rsplit("/", 1)[0]


def test_an_order_walked_through_all_its_steps(browser, app_url):
    from explorer.hexgrid import Hex
    from explorer.games.tagraid.orders.sequence import STEPS
    from explorer.games.tagraid.orders_views import OrderStepper

    ref = OrderStepper()                              # the page's default scenario, scale and geometry
    bv = ref.board_view
    sel = f"canvas[width='{bv.canvas.width}'][height='{bv.canvas.height}']"
    page = browser.new_page(viewport={"width": 1500, "height": 1000})
    page.goto(_base(app_url) + "/tagraid-orders")
    canvas = page.locator(sel).first
    wait_until(lambda: canvas.count() and canvas_stats(canvas)["opaque"] > 5000, timeout=90, what="the board")
    root = page.locator(".tagraid-oes").first
    steps = page.locator(".oes-step-list").first
    wait_until(lambda: "step 0 of 11" in root.inner_text(), what="the step bar")
    timings: dict[str, float] = {}

    def click_board(point, what: str) -> dict:
        box = canvas.bounding_box()
        x, y = bv.to_pixel(point)
        watch_change(page, sel, ".oes-step-list")
        page.mouse.click(box["x"] + x * box["width"] / bv.canvas.width,
                         box["y"] + y * box["height"] / bv.canvas.height)
        t = changed_after(page)
        timings[what] = max(t["canvas"], t["text"])
        return t

    def centre(h: Hex):
        return ref.initial.geometry.layout.hex_to_pixel(h)

    # a click on W activates it (a fresh Order), a click on A makes A the Active Miner again
    click_board((ref.initial.miner("W").x, ref.initial.miner("W").y), "activate W")
    wait_until(lambda: "W is activated" in steps.inner_text(), what="W activated")
    click_board((ref.initial.miner("A").x, ref.initial.miner("A").y), "activate A")
    wait_until(lambda: "A is activated" in steps.inner_text(), what="A activated")
    # the Move, hexagon by hexagon: no ARO right while A is behind the wall ...
    click_board(centre(Hex(-1, 0)), "Move: 1st hexagon")
    wait_until(lambda: "W has no right to an ARO at step 2" in steps.inner_text(), what="step 2.1 after 1 hexagon")
    # ... then W gains LoF partway along the route: its right comes at step 2
    click_board(centre(Hex(0, 0)), "Move: 2nd hexagon")
    wait_until(lambda: "W gains the right to an ARO at step 2" in steps.inner_text(), what="W's right")
    click_board(centre(Hex(1, 0)), "Move: 3rd hexagon")
    wait_until(lambda: "A Moves 5.20 of 5.20" in steps.inner_text(), what="the whole Move")
    assert "T has no right to an ARO at step 2" in steps.inner_text()
    assert "step 2: LoF on leg 2 of 3" in page.locator(".oes-aro-W").first.inner_text()

    # the second Skill: a Ranged Attack at T -> T gains its right at step 4, as the target
    page.locator(".oes-second select").first.select_option(label="Ranged Attack")
    tgt = page.locator(".oes-second input").first
    tgt.fill("T")
    tgt.press("Enter")
    wait_until(lambda: "T gains the right to an ARO at step 4: target of the Attack" in steps.inner_text(),
               what="T's right at step 4")
    assert "step 4: targeted" in page.locator(".oes-aro-T").first.inner_text()
    # the Reactive Players declare: W shoots back (step 2), T Evades (step 4)
    page.locator(".oes-aro-W select").first.select_option(label="Ranged Attack")
    wait_until(lambda: "W declares Ranged Attack as ARO" in steps.inner_text(), what="W's ARO")
    watch_change(page, sel, ".oes-step-list")
    page.locator(".oes-aro-T select").first.select_option(label="Evade")
    wait_until(lambda: "T declares Evade as ARO" in steps.inner_text(), what="T's ARO")

    # walk the whole Order from the start, one step at a time
    page.locator(".oes-first button, button.oes-first").first.click()
    wait_until(lambda: "step 0 of 11" in root.inner_text(), what="back to the start")
    nxt = page.locator(".oes-next button, button.oes-next").first
    for k, (name, _) in enumerate(STEPS, start=1):
        watch_change(page, sel, ".oes-where")
        nxt.click()
        wait_until(lambda k=k: f"step {k} of 11" in root.inner_text(), what=f"step {k}")
        t = changed_after(page, timeout=30) if k in (1, 2, 3, 6, 8) else None  # steps that change the board
        if t is not None:
            timings[f"Next ▶ to {name}"] = max(t["canvas"], t["text"])
        cur = page.locator(".oes-cur").first.inner_text()
        assert name in cur
        if name == "2.1 ARO check":
            assert "W gains the right to an ARO at step 2: LoF to the Active Miner" in cur
        if name == "4.1 ARO check":
            assert "T gains the right to an ARO at step 4: target of the Attack" in cur
        if name == "5 Resolution":
            assert "Face to Face Roll" in cur and "Normal Roll" in cur
            assert page.locator(".oes-side").first.inner_text().count("Dice of step 5") == 1
    out = page.locator(".oes-outcome-box").first.inner_text()
    assert "Wounds 3 → 2" in out and "blue +1 Teseum" in out and "Orders 2 → 1" in out
    assert nxt.is_disabled()
    # back one step: 5.2 Conclusion is shown again (a replay of fewer steps)
    page.locator(".oes-back button, button.oes-back").first.click()
    wait_until(lambda: "step 10 of 11" in root.inner_text(), what="back to 5.2")

    # one full Order from a click to the redrawn board: the last hexagon of the Move clicked again replays all
    # eleven steps (the board then shows step 2.1, where the route matters)
    for i in range(3):
        page.get_by_role("button", name="undo point").first.click()
        act = page.locator(".oes-activation").first
        wait_until(lambda: "Move: -1,0 → 0,0" in (t := act.inner_text()) and "0,0 → 1,0" not in t,
                   what="the last point undone")
        click_board(centre(Hex(1, 0)), f"full Order replay {i + 1}")
        wait_until(lambda: "A Moves 5.20 of 5.20" in steps.inner_text(), what="the whole Move again")
    full = [timings[f"full Order replay {i + 1}"] for i in range(3)]
    for what, ms in timings.items():
        path = record_timing("test_orders_page", what, ms, TARGET_MS if "full Order" in what else None)
    print(f"latencies (ms, report {path}):", {k: round(v) for k, v in timings.items()})
    print(f"one full Order, click to redrawn board: best {min(full):.0f} ms (target {TARGET_MS:.0f} ms)")
    if SCREENSHOTS:
        page.screenshot(path=os.path.join(SCREENSHOTS, "orders.png"), full_page=False)

    # the address carries the Order: a copied link opens the same declarations at the same step
    wait_until(lambda: "?s=" in page.url, what="the state in the URL")
    link = page.url
    page.close()
    other = browser.new_page(viewport={"width": 1500, "height": 1000})
    other.goto(link)
    root2 = other.locator(".tagraid-oes").first
    wait_until(lambda: root2.count() and "step 3 of 11" in root2.inner_text(), timeout=90, what="the shared step")
    text = other.locator(".oes-step-list").first.inner_text()
    assert "W gains the right to an ARO at step 2" in text and "A Moves 5.20 of 5.20" in text
    assert "Move: -1,0 → 0,0 → 1,0" in other.locator(".oes-activation").first.inner_text()
    other.close()
