"""Issue #12 in headless Chromium: the Face to Face and Line of Fire pages as users meet them.

Per explorer, at 1280x800 and at 900 px wide:

* every control works on the **first** click while its target is partly off screen, and the click does not scroll
  the page (ipycanvas focused the canvas with a scrolling ``focus()`` before reading the pointer: measured 200 px of
  scroll and a missed Model before the page shell's browser fix);
* at 1280 the board and the verdicts (Face to Face: the dice tray and the cited steps) are side by side and visible
  together; at 900 nothing is wider than the window;
* the mouse wheel over the board scrolls the page (the board does not turn);
* a touch tap (``page.touchscreen.tap`` in a ``has_touch`` context) selects a Model / picks a die;
* the time to first content and each interaction's latency (input to redrawn canvas and table, measured in the
  page) go to ``benchmarks/browser_ux_timing.json``: a report, not a pass/fail threshold (target median < 150 ms); the
  Line of Fire page at 1280x800 under ``1280x800 (test_explorer_ux)`` (``benchmarks/bench_lof_interactions.py`` owns
  ``1280x800``: ``benchmarks/ux_keys.py``).
"""

from __future__ import annotations

import json
import os
import statistics
import time
from pathlib import Path

import pytest

from browser_helpers import SCREENSHOTS, wait_until

pytestmark = [pytest.mark.browser, pytest.mark.slow]

REPORT = Path(__file__).resolve().parents[2] / "benchmarks" / "browser_ux_timing.json"

_HASH = """(c) => { const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data; let h = 0, op = 0;
    for (let k = 0; k < d.length; k += 4 * 97) { h = (h * 31 + d[k] + 7 * d[k + 1] + 13 * d[k + 2] + d[k + 3]) | 0;
      if (d[k + 3] > 0) op++; }
    return [h, op]; }"""
_CHANGED = "([c, h0]) => { " + _HASH.replace("(c) => {", "const f = (c) => {") + "; return f(c)[0] !== h0; }"
_SCROLL = "() => document.scrollingElement.scrollTop"


def _record(page_name: str, viewport: str, values: dict) -> None:
    import sys

    sys.path.insert(0, str(REPORT.parent))
    from ux_keys import canonical_report, entry_key, page_key

    data = canonical_report(json.loads(REPORT.read_text()) if REPORT.exists() else {})
    page_name = page_key(page_name)
    viewport = entry_key(page_name, viewport, "test_explorer_ux")   # the Line of Fire's 1280x800 has its own benchmark
    lat = [v for k, v in values.items() if k.startswith("latency_ms.")]
    values = {**values, "median_latency_ms": round(statistics.median(lat), 1) if lat else None,
              "recorded": time.strftime("%Y-%m-%d %H:%M:%S"),
              "load_average_1min": round(os.getloadavg()[0], 2),
              "note": "latency: input to redrawn canvas/table, measured from Playwright (includes its round trip); "
                      "first paint: navigation to the first canvas drawn; page_loaded: Panel's loading spinner gone (inputs "
                      "are timed after it); target median < 150 ms"}
    data.setdefault(page_name, {})[viewport] = values
    REPORT.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n")


class _Timer:
    def __init__(self):
        self.values: dict[str, float] = {}

    def __call__(self, name: str, page, action, condition: str, arg=None, timeout: float = 60_000) -> float:
        t0 = time.perf_counter()
        action()
        page.wait_for_function(condition, arg=arg, polling=15, timeout=timeout)
        ms = round((time.perf_counter() - t0) * 1000, 1)
        self.values[f"latency_ms.{name}"] = ms
        return ms


def _first_paint(page, url: str, canvas_selector: str) -> dict:
    """Navigate and time: the first canvas element (it shows a "drawing…" hint until drawn: class ``xr-drawing``),
    the first canvas with pixels."""
    t0 = time.perf_counter()
    page.goto(url, wait_until="commit")
    out: dict[str, float] = {}
    canvas = page.locator(canvas_selector).first
    end = t0 + 120
    while time.perf_counter() < end:
        now = round(time.perf_counter() - t0, 2)
        if "canvas_present_s" not in out and canvas.count():
            out["canvas_present_s"] = now
            assert "xr-drawing" in (canvas.get_attribute("class") or "")
        if "canvas_present_s" in out and canvas.evaluate(_HASH)[1] > 0:
            out["canvas_drawn_s"] = now
            break
        page.wait_for_timeout(40)
    assert "canvas_drawn_s" in out, f"the canvas was never drawn: {out}"
    out["blank_canvas_s"] = round(out["canvas_drawn_s"] - out["canvas_present_s"], 2)
    # the page has loaded (Panel's loading spinner goes): an input before that waits behind the widget set-up
    page.wait_for_function("() => !document.body.classList.contains('pn-loading')", timeout=120_000)
    out["page_loaded_s"] = round(time.perf_counter() - t0, 2)
    return out


def _scroll_partly_off(page, locator, fraction: float = 0.5, edge: str = "top") -> dict:
    """Scroll the page so ``fraction`` of ``locator``'s height is above the top edge (``edge="top"``) or below the
    bottom edge of the window; returns its bounding box afterwards. Waits for the element to show first (on a busy
    machine the page may still be drawing it: its box is then ``None``)."""
    locator.wait_for(state="visible", timeout=90_000)
    box = locator.bounding_box()
    y0 = page.evaluate(_SCROLL)
    vh = page.viewport_size["height"]
    if edge == "top":
        target = y0 + box["y"] + fraction * box["height"]
    else:
        target = y0 + box["y"] + (1 - fraction) * box["height"] - vh
    page.evaluate(f"() => document.scrollingElement.scrollTo(0, {max(0.0, target)})")
    page.wait_for_timeout(150)
    return locator.bounding_box()


def _click_visible_part(page, locator, edge: str = "top"):
    """Half of the element is off screen: click in the middle of the half that shows."""
    box = _scroll_partly_off(page, locator, 0.5, edge)
    y = box["y"] + box["height"] * (0.75 if edge == "top" else 0.25)
    return box["x"] + box["width"] / 2, y


def _no_horizontal_overflow(page) -> None:
    w = page.viewport_size["width"]
    sw = page.evaluate("() => document.scrollingElement.scrollWidth")
    assert sw <= w + 1, f"the page is {sw} px wide in a {w} px window: something is cut off"


# ------------------------------------------------------------------------------------------------ Line of Fire

def _lof_url(app_url: str) -> str:
    return app_url.rsplit("/", 1)[0] + "/tagraid-line-of-fire"


def _board_px(bv, box, p):
    x, y = bv.to_pixel(p)
    return box["x"] + x * box["width"] / bv.canvas.width, box["y"] + y * box["height"] / bv.canvas.height


@pytest.mark.parametrize("width,height", [(1280, 800), (900, 900)])
def test_line_of_fire_page_controls_layout_and_latency(browser, app_url, width, height):
    from explorer.games.tagraid.lof_views import LofExplorer
    from explorer.hexgrid import Hex

    ref = LofExplorer()
    bv = ref.board_view
    page = browser.new_page(viewport={"width": width, "height": height})
    sel = f"canvas[width='{bv.canvas.width}'][height='{bv.canvas.height}']"
    paint = _first_paint(page, _lof_url(app_url), sel)
    canvas = page.locator(sel).first
    verdicts = page.locator(".lof-verdict-list").first
    wait_until(lambda: "Cutter has LoF to" in verdicts.inner_text(), timeout=60, what="the verdicts")
    timer = _Timer()

    # layout: the board fits its column; at 1280 the verdicts are beside it and visible with it
    page.evaluate("() => document.scrollingElement.scrollTo(0, 0)")
    b, v = canvas.bounding_box(), verdicts.bounding_box()
    assert b["x"] + b["width"] <= width
    _no_horizontal_overflow(page)
    if width >= 1200:
        assert v["x"] >= b["x"] + b["width"] - 1, "the verdicts are not beside the board"
        assert b["y"] < height and v["y"] < height and b["y"] + b["height"] <= height, \
            "the board and the verdicts are not visible together"
    else:
        assert v["y"] >= b["y"] + b["height"] - 1  # stacked below
    if SCREENSHOTS:
        page.screenshot(path=os.path.join(SCREENSHOTS, f"line-of-fire-{width}.png"))

    # the wheel over the board scrolls the page and turns nothing
    page.evaluate("() => document.scrollingElement.scrollTo(0, 0)")
    h0 = canvas.evaluate(_HASH)[0]
    page.mouse.move(b["x"] + b["width"] / 2, b["y"] + b["height"] / 2)
    page.mouse.wheel(0, 240)
    wait_until(lambda: page.evaluate(_SCROLL) > 0, timeout=10, what="the page to scroll under the wheel")
    page.wait_for_timeout(300)
    assert canvas.evaluate(_HASH)[0] == h0

    # click Digger with the top of the board off screen: no scroll, Digger is the shooter on the first click
    _scroll_partly_off(page, canvas, 0.25, "top")
    box = canvas.bounding_box()
    x, y = _board_px(bv, box, ref.models["Digger"].center)
    assert 0 < y < height
    y0 = page.evaluate(_SCROLL)
    timer("select a Model", page, lambda: page.mouse.click(x, y),
          "(el) => el.innerText.includes('Digger has LoF to')", verdicts.element_handle())
    assert page.evaluate(_SCROLL) == y0, "the click scrolled the page"

    # the rotate button, half off screen, turns the selected Model (Digger) on the first click
    rot = page.locator(".hexboard-rotate-right").first
    bx, by = _click_visible_part(page, rot, "bottom")
    y0 = page.evaluate(_SCROLL)
    h = canvas.evaluate(_HASH)[0]
    timer("rotate the selected Model", page, lambda: page.mouse.click(bx, by), _CHANGED,
          [canvas.element_handle(), h])
    assert page.evaluate(_SCROLL) == y0

    # drag Lurker (top of the board off screen): it moves, Digger stays the shooter
    _scroll_partly_off(page, canvas, 0.2, "top")
    box = canvas.bounding_box()
    sx, sy = _board_px(bv, box, ref.models["Lurker"].center)
    tx, ty = _board_px(bv, box, ref.scenario.board.layout.hex_to_pixel(Hex(6, 11)))
    h = canvas.evaluate(_HASH)[0]

    def drag():
        page.mouse.move(sx, sy)
        page.mouse.down()
        page.mouse.move((sx + tx) / 2, (sy + ty) / 2, steps=3)
        page.mouse.move(tx, ty, steps=3)
        page.mouse.up()

    timer("drag a Model", page, drag, _CHANGED, [canvas.element_handle(), h])
    wait_until(lambda: "Digger has LoF to" in verdicts.inner_text(), timeout=20, what="Digger still the shooter")

    # flip a ruling: the verdict list (which lists its readings) is redrawn
    before = verdicts.inner_text()
    grazing = page.locator(".lof-side select").filter(has_text="touching_does_not_block").first
    timer("flip a ruling", page, lambda: grazing.select_option("touching_blocks"),
          "([el, t]) => el.innerText !== t", [verdicts.element_handle(), before])

    # the Range Ruler from the side panel
    h = canvas.evaluate(_HASH)[0]
    target = [v.target for v in ref.verdicts if v.range is not None][0]
    timer("draw the Range Ruler", page,
          lambda: page.locator(".lof-ruler-pick select").first.select_option(label=target), _CHANGED,
          [canvas.element_handle(), h])

    # zoom in (half off screen), then fit the board to its column again
    zin = page.locator(".hexboard-zoom-in").first
    bx, by = _click_visible_part(page, zin, "bottom")
    board = canvas.element_handle()  # the same element after a zoom (its width attribute may change)
    w0 = board.evaluate("c => c.getBoundingClientRect().width")   # + steps from the size shown (HexBoardView.shown_now)
    timer("zoom in", page, lambda: page.mouse.click(bx, by), "([c, w]) => c.getBoundingClientRect().width > w + 1",
          [board, w0])
    wait_until(lambda: "xr-fit" not in (board.get_attribute("class") or ""), timeout=30, what="the fixed size")
    _no_horizontal_overflow(page)  # a zoomed board scrolls inside its box
    fit = page.locator(".hexboard-zoom-fit").first
    bx, by = _click_visible_part(page, fit, "bottom")
    timer("fit the board to its column", page, lambda: page.mouse.click(bx, by),
          "(c) => c.classList.contains('xr-fit')", board)
    _record("tagraid-line-of-fire", f"{width}x{height}", {**timer.values, **{f"first_paint.{k}": v for k, v in paint.items()}})
    page.close()


def test_line_of_fire_touch_tap_selects_a_model(browser, app_url):
    from explorer.games.tagraid.lof_views import LofExplorer

    ref = LofExplorer()
    bv = ref.board_view
    ctx = browser.new_context(viewport={"width": 900, "height": 900}, has_touch=True)
    page = ctx.new_page()
    page.goto(_lof_url(app_url))
    canvas = page.locator(f"canvas[width='{bv.canvas.width}']").first
    wait_until(lambda: canvas.count() and canvas.evaluate(_HASH)[1] > 0, timeout=120, what="the board")
    verdicts = page.locator(".lof-verdict-list").first
    wait_until(lambda: "Cutter has LoF to" in verdicts.inner_text(), timeout=60, what="the verdicts")
    box = canvas.bounding_box()
    x, y = _board_px(bv, box, ref.models["Digger"].center)
    page.touchscreen.tap(x, y)
    wait_until(lambda: "Digger has LoF to" in verdicts.inner_text(), timeout=30, what="the tap to pick Digger")
    ctx.close()


# ------------------------------------------------------------------------------------------------ Face to Face

@pytest.mark.parametrize("width,height", [(1280, 800), (900, 900)])
def test_face_to_face_page_controls_layout_and_latency(browser, app_url, width, height):
    from explorer.games.tagraid.views import explorer_for_scenario

    ref = explorer_for_scenario()  # what the page opens on
    page = browser.new_page(viewport={"width": width, "height": height})
    sel = f"canvas[width='{ref.tray.canvas.width}'][height='{ref.tray.canvas.height}']"
    paint = _first_paint(page, app_url, sel)
    tray = page.locator(sel).first
    timer = _Timer()
    result = page.locator(".f2f-result").first
    wait_until(lambda: result.count() and result.inner_text(), timeout=60, what="the headline")
    _no_horizontal_overflow(page)
    tb = tray.bounding_box()
    assert tb["x"] + tb["width"] <= width
    steps = page.locator(".xr-aside").first
    sb = steps.bounding_box()
    if width >= 1200:
        assert sb["x"] >= tb["x"] + tb["width"] - 1, "the steps are not beside the dice tray"
    else:
        assert sb["y"] >= tb["y"] + tb["height"] - 1

    # pick a die with the top half of the tray off screen: no scroll, the picker opens on the first click
    tbox = _scroll_partly_off(page, tray, 0.3, "top")
    die = "B.1"
    x, y, s = ref.tray.placed[die]
    px = tbox["x"] + (x + s / 2) * tbox["width"] / ref.tray.canvas.width
    py = tbox["y"] + (y + s / 2) * tbox["height"] / ref.tray.canvas.height
    assert 0 < py < height, "the die is off screen"
    y0 = page.evaluate(_SCROLL)
    picker = page.locator(".dice-picker").first
    timer("pick a die", page, lambda: page.mouse.click(px, py),
          "(el) => getComputedStyle(el).visibility === 'visible'", picker.element_handle())
    assert page.evaluate(_SCROLL) == y0, "the click scrolled the page"
    face = ref.tray.state.rows[1].dice[0].face
    new = 2 if face != 2 else 3
    h = tray.evaluate(_HASH)[0]
    button = page.locator(".dice-picker-faces button").nth(new - 1)
    bx, by = _click_visible_part(page, button, "bottom")
    timer("set a die's face with the picker", page, lambda: page.mouse.click(bx, by), _CHANGED,
          [tray.element_handle(), h])
    wait_until(lambda: page.locator(".f2f-B-dice input").first.input_value().split(",")[0].strip() == str(new),
               timeout=20, what="B's first die to show the picked face")
    # type a face in the picker
    h = tray.evaluate(_HASH)[0]
    text = page.locator(".dice-picker-text input").first
    text.fill("17")
    timer("type a die's face", page, lambda: text.press("Enter"), _CHANGED, [tray.element_handle(), h])
    # the Roll dice button, half off screen
    roll = page.locator("button", has_text="Roll dice").first
    bx, by = _click_visible_part(page, roll, "bottom")
    h = tray.evaluate(_HASH)[0]
    y0 = page.evaluate(_SCROLL)
    timer("roll dice", page, lambda: page.mouse.click(bx, by), _CHANGED, [tray.element_handle(), h])
    assert page.evaluate(_SCROLL) == y0
    # an input: A's Burst
    burst = page.locator(".f2f-A-burst input").first
    burst.fill("4")
    h = tray.evaluate(_HASH)[0]
    timer("change an input", page, lambda: burst.press("Enter"), _CHANGED, [tray.element_handle(), h])
    # a ruling: the "readings used" line changes
    used = page.locator(".tagraid-f2f").first
    before = used.inner_text()
    mod_cap = page.locator(".tagraid-f2f select").filter(has_text="none").first
    timer("flip a ruling", page, lambda: mod_cap.select_option(index=1),
          "([el, t]) => el.innerText !== t", [used.element_handle(), before])
    if SCREENSHOTS:
        page.evaluate("() => document.scrollingElement.scrollTo(0, 0)")
        page.screenshot(path=os.path.join(SCREENSHOTS, f"face-to-face-{width}.png"))
    _record("tagraid-face-to-face", f"{width}x{height}", {**timer.values, **{f"first_paint.{k}": v for k, v in paint.items()}})
    page.close()


def test_face_to_face_touch_tap_picks_a_die(browser, app_url):
    from explorer.games.tagraid.views import explorer_for_scenario

    ref = explorer_for_scenario()
    ctx = browser.new_context(viewport={"width": 900, "height": 900}, has_touch=True)
    page = ctx.new_page()
    page.goto(app_url)
    tray = page.locator(f"canvas[width='{ref.tray.canvas.width}'][height='{ref.tray.canvas.height}']").first
    wait_until(lambda: tray.count() and tray.evaluate(_HASH)[1] > 0, timeout=120, what="the tray")
    tray.scroll_into_view_if_needed()
    box = tray.bounding_box()
    x, y, s = ref.tray.placed["A.1"]
    page.touchscreen.tap(box["x"] + (x + s / 2) * box["width"] / ref.tray.canvas.width,
                         box["y"] + (y + s / 2) * box["height"] / ref.tray.canvas.height)
    picker = page.locator(".dice-picker").first
    wait_until(lambda: picker.is_visible(), timeout=30, what="the tap to open the picker")
    assert "A.1" in picker.inner_text()
    ctx.close()
