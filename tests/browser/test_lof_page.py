"""The Line of Fire page of the Panel app in headless Chromium: the board draws, clicking a Model makes it the shooter,
its LoF is drawn on the canvas (pixels read back with getImageData) and the verdict list updates; an illegal drop shows
a message; the LoF notebook runs in JupyterLab. Uses the shared fixtures of ``conftest.py`` (``browser``, ``app_url``,
``lab_url``). ``EXPLORER_SCREENSHOTS=<dir>`` saves ``line-of-fire.png`` and ``line-of-fire-jupyterlab.png`` there.
"""

from __future__ import annotations

import os

import pytest

from browser_helpers import SCREENSHOTS, canvas_stats, open_notebook_and_run_all, wait_until

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def _wait(fn, timeout=60.0, what="condition"):
    return wait_until(fn, timeout=timeout, what=what)


def _stats(canvas) -> dict:
    return canvas_stats(canvas, stride=5)


_PIXELS = """(c, pts) => { const g = c.getContext('2d');
    return pts.map(([x, y]) => Array.from(g.getImageData(Math.round(x), Math.round(y), 1, 1).data)); }"""


def _green(px) -> bool:
    r, g, b, a = px
    return a > 0 and g > 110 and r < 90 and b < 110


def _near_green(canvas, x, y) -> bool:
    pts = [(x + dx, y + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)]
    return any(_green(p) for p in canvas.evaluate(_PIXELS, pts))


def test_lof_page_click_a_model_draws_its_lof_and_lists_the_verdicts(browser, app_url):
    from explorer.games.tagraid.lof_views import LofExplorer

    ref = LofExplorer()  # same default scenario and scale as the app: pixel positions and expected verdicts
    bv = ref.board_view
    # wide enough for the board and the side panel side by side (a narrower window wraps the panel below the board)
    page = browser.new_page(viewport={"width": 1880, "height": 1130})
    page.goto(app_url)
    page.get_by_text("Line of Fire", exact=True).first.click()
    sel = f"canvas[width='{bv.canvas.width}'][height='{bv.canvas.height}']"
    canvas = page.locator(sel).first
    first = _wait(lambda: (s := _stats(canvas)) and s["opaque"] > 5000 and s["colours"] > 20 and s,
                  what="the LoF board to be drawn")
    _wait(lambda: "Cutter has LoF to" in (t := page.locator(".lof-verdict-list").inner_text()) and "…" not in t,
          what="verdicts")
    # Cutter's witness segments are on the canvas (green pixels at their midpoints)
    for v in ref.verdicts:
        if v.lof.has_lof:
            (x0, y0), (x1, y1) = (bv.to_pixel(p) for p in (v.lof.witness.p0, v.lof.witness.p1))
            assert _near_green(canvas, (x0 + x1) / 2, (y0 + y1) / 2), f"no green LoF segment to {v.target}"
    text = page.locator(".lof-verdict-list").inner_text()
    for v in ref.verdicts:  # every target has a row, blocked ones say what blocks them in words
        assert v.target in text
    assert "blocked by Spotter's base" in text and "without tile" in text and "out of range" in text
    if SCREENSHOTS:  # the default view: every kind of verdict
        page.evaluate("() => window.scrollTo(0, 0)")
        page.screenshot(path=os.path.join(SCREENSHOTS, "line-of-fire.png"), full_page=False)

    # click Digger: it becomes the shooter
    ref.set_shooter("Digger")
    box = canvas.bounding_box()
    x, y = bv.to_pixel(ref.models["Digger"].center)
    page.mouse.click(box["x"] + x * box["width"] / bv.canvas.width, box["y"] + y * box["height"] / bv.canvas.height)
    text = _wait(lambda: (t := page.locator(".lof-verdict-list").inner_text()) and "Digger has LoF to" in t and t,
                 what="the verdict list to show Digger's verdicts")
    n = sum(v.lof.has_lof for v in ref.verdicts)
    assert f"Digger has LoF to {n} of {len(ref.verdicts)}" in text
    after = _wait(lambda: (s := _stats(canvas))["hash"] != first["hash"] and s, what="the overlays to change")
    assert after["colours"] > 20
    mids = []
    for v in ref.verdicts:
        if v.lof.has_lof:
            (x0, y0), (x1, y1) = (bv.to_pixel(p) for p in (v.lof.witness.p0, v.lof.witness.p1))
            mids.append(((x0 + x1) / 2, (y0 + y1) / 2))
    _wait(lambda: all(_near_green(canvas, mx, my) for mx, my in mids), what="Digger's green LoF segments")
    # draw the Range Ruler to Cutter from the side panel: the overlay layer changes again
    page.locator(".lof-ruler-pick select").first.select_option("Cutter")
    _wait(lambda: _stats(canvas)["hash"] != after["hash"], what="the Range Ruler to be drawn")
    # zoom in: the board is shown larger (its drawing kept while finer than shown, else drawn again) and drawn
    board = canvas.element_handle()   # the same element whatever its width attribute becomes
    w0 = board.evaluate("c => c.getBoundingClientRect().width")
    page.locator(".hexboard-zoom-in button, button.hexboard-zoom-in").first.click()
    _wait(lambda: board.evaluate("c => c.getBoundingClientRect().width") > w0 * 1.2 and _stats(board)["opaque"] > 5000,
          what="the zoomed board")
    page.close()


def test_lof_page_illegal_drop_shows_a_message(browser, app_url):
    from explorer.games.tagraid.lof_views import LofExplorer
    from explorer.hexgrid import Hex

    ref = LofExplorer()
    bv = ref.board_view
    page = browser.new_page(viewport={"width": 1600, "height": 1250})
    page.goto(app_url)
    page.get_by_text("Line of Fire", exact=True).first.click()
    canvas = page.locator(f"canvas[width='{bv.canvas.width}'][height='{bv.canvas.height}']").first
    _wait(lambda: _stats(canvas)["opaque"] > 5000, what="the board")
    _wait(lambda: "Cutter has LoF to" in page.locator(".lof-verdict-list").inner_text(), what="verdicts")
    box = canvas.bounding_box()

    def to_page(p):
        x, y = bv.to_pixel(p)
        return box["x"] + x * box["width"] / bv.canvas.width, box["y"] + y * box["height"] / bv.canvas.height

    sx, sy = to_page(ref.models["Cutter"].center)
    tx, ty = to_page(ref.scenario.board.layout.hex_to_pixel(Hex(6, 8)))  # a hexagon without tile
    page.mouse.move(sx, sy)
    page.mouse.down()
    page.mouse.move((sx + tx) / 2, (sy + ty) / 2, steps=4)
    page.mouse.move(tx, ty, steps=4)
    page.mouse.up()
    msg = _wait(lambda: page.locator(".lof-message").inner_text().strip(), what="a message")
    assert "no tile" in msg and "previous position is kept" in msg
    assert "Cutter has LoF to" in page.locator(".lof-verdict-list").inner_text()
    page.close()


def test_lof_notebook_runs_and_draws_in_jupyterlab(browser, lab_url):
    page, _ = open_notebook_and_run_all(browser, lab_url, "notebooks/line_of_fire.ipynb",
                                        {"width": 1800, "height": 1650})
    root = page.locator(".tagraid-lof").first
    root.wait_for(timeout=60_000)
    if SCREENSHOTS:  # room for the board: hide the file browser and the "news" notification
        page.evaluate("() => window.jupyterapp.shell.collapseLeft()")
        page.add_style_tag(content=".Toastify { display: none !important; }")
    canvas = root.locator("canvas").first
    _wait(lambda: (s := _stats(canvas))["opaque"] > 5000 and s["colours"] > 20, what="the board")
    assert "Cutter has LoF to" in root.locator(".lof-verdict-list").inner_text()
    if SCREENSHOTS:
        root.scroll_into_view_if_needed()
        page.screenshot(path=os.path.join(SCREENSHOTS, "line-of-fire-jupyterlab.png"), full_page=False)
    page.close()


def test_lof_page_opens_an_elevated_table_and_shows_heights(browser, app_url):
    """Issue 22, item 4: a table file with a Model on top of a block opens on the Line of Fire page; the verdict list
    says where the target stands and gives the 3D verdicts (TR-37 on top of the block: LoF, Partial Cover from the
    block's edge, Mid Range)."""
    from pathlib import Path

    import explorer.games.tagraid as tr

    page = browser.new_page(viewport={"width": 1280, "height": 1000})
    page.goto(app_url)
    page.get_by_text("Line of Fire", exact=True).first.click()
    _wait(lambda: "has LoF to" in page.locator(".lof-verdict-list").inner_text(), what="the first verdicts")
    with page.expect_file_chooser() as chooser:
        page.locator(".lof-upload").first.click()
    chooser.value.set_files(str(Path(tr.__file__).parent / "tables" / "tr-elev-37.toml"))
    # "…": a column still computing (the page shows the Line of Fire verdicts first, LofExplorer.progressive)
    text = _wait(lambda: (t := page.locator(".lof-verdict-list").inner_text()) and "on block" in t and "…" not in t
                 and t, timeout=120.0, what="the elevated table's whole verdicts")
    assert "A has LoF to 1 of 2 Models" in text and "on block, ↑2" in text
    assert "Partial Cover" in text and "mid 3.68" in text and "blocked by scenery block" in text
    if SCREENSHOTS:
        page.evaluate("() => window.scrollTo(0, 0)")
        page.screenshot(path=os.path.join(SCREENSHOTS, "line-of-fire-elevation.png"), full_page=False)
