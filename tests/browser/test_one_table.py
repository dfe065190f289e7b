"""One table in headless Chromium: on the Line of Fire page, pick the shooter and two targets on the board, follow
"Resolve these rolls", and the Face to Face page shows the exchange the board decides (a split Burst,
several Reactive Miners) with the board's facts and their sections. ``EXPLORER_SCREENSHOTS=<dir>`` saves
``one-table-lof.png`` and ``one-table-f2f.png``.
"""

from __future__ import annotations

import os

import pytest

from browser_helpers import SCREENSHOTS, canvas_stats, wait_until

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def _click_model(page, canvas, bv, center) -> None:
    box = canvas.bounding_box()
    x, y = bv.to_pixel(center)
    page.mouse.click(box["x"] + x * box["width"] / bv.canvas.width, box["y"] + y * box["height"] / bv.canvas.height)


def test_pick_shooter_and_targets_then_resolve_their_face_to_face_roll(browser, app_url):
    from explorer.games.tagraid.lof_views import LofExplorer

    ref = LofExplorer()  # same default table and scale as the page: pixel positions and the expected facts
    bv = ref.board_view
    page = browser.new_page(viewport={"width": 1880, "height": 1130})
    page.goto(app_url.rsplit("/", 1)[0] + "/tagraid-line-of-fire")
    canvas = page.locator(f"canvas[width='{bv.canvas.width}'][height='{bv.canvas.height}']").first
    wait_until(lambda: canvas_stats(canvas, stride=5)["opaque"] > 5000, timeout=90, what="the board to be drawn")
    wait_until(lambda: "Cutter has LoF to" in page.locator(".lof-verdict-list").inner_text(), timeout=60,
               what="the verdicts")
    # the shooter: click Digger, then back on Cutter (a click picks the shooter by default)
    _click_model(page, canvas, bv, ref.models["Digger"].center)
    wait_until(lambda: "Digger has LoF to" in page.locator(".lof-verdict-list").inner_text(), timeout=60,
               what="Digger as the shooter")
    _click_model(page, canvas, bv, ref.models["Cutter"].center)
    wait_until(lambda: "Cutter has LoF to" in page.locator(".lof-verdict-list").inner_text(), timeout=60,
               what="Cutter as the shooter again")
    # the targets: switch what a click picks, then click Spotter and Digger on the board
    page.locator(".lof-pick-mode button", has_text="pick target").click()
    for t in ("Spotter", "Digger"):
        _click_model(page, canvas, bv, ref.models[t].center)
        wait_until(lambda t=t: t in page.locator(".lof-f2f").inner_text(), timeout=60, what=f"{t} as a target")
    link = page.locator(".lof-f2f-link")
    wait_until(lambda: link.count() == 1, timeout=30, what="the Face to Face link")
    assert "Cutter → Spotter, Digger" in page.locator(".lof-f2f").inner_text()
    ref.set_targets(["Spotter", "Digger"])
    br = ref.board_roll
    assert br is not None
    if SCREENSHOTS:
        page.screenshot(path=os.path.join(SCREENSHOTS, "one-table-lof.png"))

    link.click()
    wait_until(lambda: "/tagraid-face-to-face" in page.url, timeout=30, what="the Face to Face page")
    facts = page.locator(".f2f-board-facts")
    wait_until(lambda: "From the board" in facts.inner_text(), timeout=90, what="the board facts")
    text = facts.text_content()  # the list starts folded when it is long
    for f in br.facts:  # every fact the board decided, with its section
        assert f.title in text, f.title
    assert "Distances and Measurements › Range Ruler" in text and "Damage › Partial Cover" in text
    # the whole exchange: the split Burst and every Reactive Miner
    ex = page.locator(".f2f-exchange")
    wait_until(lambda: "The whole exchange" in ex.inner_text(), timeout=30, what="the exchange table")
    ex_text = ex.inner_text()
    shares = [a["burst"] for a in br.document["active"]["attacks"]]
    assert shares == [2, 1] and "2 → Spotter" in ex_text and "1 → Digger" in ex_text
    for r in br.document["reactive"]:
        assert r["name"] in ex_text
    pairs = page.locator(".f2f-pairs").inner_text()
    assert "Cutter vs Spotter" in pairs and "Cutter vs Digger" in pairs
    steps = page.locator(".xt-trace").first.inner_text()  # the cited steps open with the board's facts
    assert "from the board" in steps.lower() and br.facts[0].title in steps
    assert "lof_grazing" in steps  # the readings the board's measurements used are listed with the roll's
    if SCREENSHOTS:
        page.screenshot(path=os.path.join(SCREENSHOTS, "one-table-f2f.png"), full_page=True)
    page.close()
