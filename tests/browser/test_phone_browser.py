"""Every served page on a phone (issue 23, item 1): Chromium emulating a 390 x 844 touch screen (``is_mobile``,
``has_touch``, device scale 2) opens every page of ``explorer serve`` and finds the viewport meta, no sideways scroll,
no text under 14 px, no control under 44 px, and on every canvas a tap that does exactly what a mouse click at the
same point does (two fresh pages, one tapped, one clicked: the canvas changes, and both end with the same texts,
field values and canvas pixels, the mouse moved off the board as a lifted finger is); a board zooms with two
fingers without the page scrolling sideways. With ``EXPLORER_SCREENSHOTS=<dir>`` each page is also saved at 390 px
(its first screen, ``phone-<page>.png``, and the whole page, ``phone-<page>-full.png``) and at 1280 px (the whole page,
``desktop-<page>.png``): ``docs/img/`` holds the first screens and the desktop pages. Latencies (tap to change) go to the browser timing
report (:func:`browser_helpers.record_timing`)."""

from __future__ import annotations

import os
import time

import pytest

from browser_helpers import (SCREENSHOTS, canvas_stats, page_signature, phone_audit_when_clean, phone_context,
                             record_timing, settled_signature, wait_until)

pytestmark = pytest.mark.browser

MIN_TEXT_PX, MIN_TARGET_PX = 14, 44
NARROW_CLASS = "dice-tray-narrow"
"""The class of a dice tray's phone canvas (:data:`explorer.widgets.dice_tray.NARROW_CLASS`)."""
HOVER = ".hexboard-readout"
"""What a mouse shows by hovering and a finger cannot (a board's hex readout): left out when a tap and a click are
compared."""


def _routes() -> list[str]:
    from explorer.app import routes

    return ["/", *routes()]


def _base(app_url: str) -> str:
    return app_url.rsplit("/", 1)[0]


def _taps(route: str) -> list[tuple[str, tuple[float, float], bool]]:
    """``[(canvas selector, (x, y) in canvas pixels, does a click there change the page)]`` for the canvases of a
    page that answer clicks, at a point where a click does something (from the page's own default view)."""
    if route == "/tagraid-face-to-face":
        from explorer.games.tagraid.views import explorer_for_scenario

        tray = explorer_for_scenario().tray   # on a phone the narrow tray, with its own hit map
        x, y, s = tray.narrow_placed["A.1"]
        return [(f"canvas.{NARROW_CLASS}[height='{tray.narrow.height}']", (x + s / 2, y + s / 2), True)]
    if route == "/tagraid-line-of-fire":
        from explorer.games.tagraid.lof_views import LofExplorer

        ref = LofExplorer()
        bv = ref.board_view
        return [(f"canvas[width='{bv.canvas.width}'][height='{bv.canvas.height}']",
                 bv.to_pixel(ref.models["Digger"].center), True)]
    if route == "/tagraid-orders":
        from explorer.games.tagraid.orders_views import OrderStepper

        ref = OrderStepper()
        bv, w = ref.board_view, ref.initial.miner("W")
        return [(f"canvas[width='{bv.canvas.width}'][height='{bv.canvas.height}']", bv.to_pixel((w.x, w.y)), True)]
    if route == "/masseffect-mission-map":
        from explorer.games.masseffect.map_svg import layout
        from explorer.games.masseffect.map_views import map_page

        holder, _ = map_page()
        view = holder.children[1]
        bv = view.board
        h = next(h for h, side in view.characters.values() if side == "squadmate")
        return [(f"canvas[width='{bv.canvas.width}'][height='{bv.canvas.height}']",
                 bv.to_pixel(layout(view.map).hex_to_pixel(h)), True)]
    if route == "/masseffect-strategy-pool":
        from explorer.games.masseffect.strategy_views import strategy_page

        dv = strategy_page()[0].dice
        x, y, s = dv.narrow_die_box(0, 0)
        return [(f"canvas.{NARROW_CLASS}[height='{dv.narrow.height}']", (x + s / 2, y + s / 2), True)]
    if route == "/dagger-nemesis-phase":
        from explorer.games.dagger.views import HEIGHT, WIDTH, NemesisStepper

        return [(f"canvas[width='{WIDTH}'][height='{HEIGHT}']", next(iter(NemesisStepper().geo.pos.values())), True)]
    return []


def _open(page, url: str) -> None:
    """Load ``url`` and wait until its widgets and canvases are drawn and the page has settled."""
    page.goto(url)
    if url.endswith("/"):   # the landing page: no widgets
        wait_until(lambda: page.locator(".explorer-landing").count() > 0, timeout=120, what="the landing page")
    else:
        wait_until(lambda: page.locator(".jupyter-widgets").count() > 0, timeout=120, what="the widgets")
    wait_until(lambda: all(canvas_stats(c)["opaque"] > 0 for c in page.locator("canvas").all()), timeout=120,
               what="every canvas to be drawn")
    # the page has loaded (Panel drops the loading class): its early repaints have stopped, none can paint over
    # what a tap or a click draws
    wait_until(lambda: not page.evaluate("() => document.body.classList.contains('pn-loading')"), timeout=120,
               what="the page to report it has loaded")
    settled_signature(page)


def _tap_point(page, sel: str, point) -> tuple[float, float]:
    canvas = page.locator(sel).last   # a board's top layer takes the pointer
    canvas.scroll_into_view_if_needed()
    box = canvas.bounding_box()
    w, h = canvas.evaluate("c => [c.width, c.height]")
    return box["x"] + point[0] * box["width"] / w, box["y"] + point[1] * box["height"] / h


@pytest.mark.parametrize("route", _routes())
def test_every_page_is_usable_on_a_phone(browser, app_url, route):
    base = _base(app_url)
    ctx = phone_context(browser)
    page = ctx.new_page()
    t0 = time.monotonic()
    _open(page, base + route)
    record_timing("test_phone", f"{route} open on a phone (drawn and settled)", (time.monotonic() - t0) * 1000)
    got = phone_audit_when_clean(page, MIN_TEXT_PX, MIN_TARGET_PX)   # a late last reflow on a loaded machine
    assert got["viewport"] == "width=device-width, initial-scale=1"
    assert got["width"] == 390
    assert got["scrollWidth"] <= got["width"], f"the page scrolls sideways: {got['scrollWidth']} px wide"
    assert not got["small"], f"text under {MIN_TEXT_PX} px: {got['small'][:10]}"
    assert not got["tiny"], f"controls under {MIN_TARGET_PX} px: {got['tiny'][:10]}"
    assert not got["sideways"], f"boxes wider inside than outside (cut or scrolling sideways): {got['sideways'][:10]}"
    assert not got["cramped"], f"table cells narrower than a word (letter-by-letter): {got['cramped'][:10]}"
    # a finger cannot hover: a board's hover readout ("hover a hex to see ...") is not shown on a touch screen
    assert not [r for r in page.locator(".hexboard-readout").all() if r.is_visible()]
    for c in page.locator("canvas").all():
        if c.is_visible():
            box = c.bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= 390 + 0.5, "a canvas wider than the screen"
    if SCREENSHOTS:
        name = route.strip("/") or "landing"
        page.wait_for_timeout(1500)   # a board's label floor (measured every 700 ms) and its redraw
        page.evaluate("() => document.scrollingElement.scrollTo(0, 0)")
        page.screenshot(path=os.path.join(SCREENSHOTS, f"phone-{name}.png"))   # the first screen
        page.screenshot(path=os.path.join(SCREENSHOTS, f"phone-{name}-full.png"), full_page=True)
        desk = browser.new_page(viewport={"width": 1280, "height": 800})
        _open(desk, base + route)
        # above the phone width the phone rules do not apply: ipywidgets keep their 28 px rows
        assert desk.evaluate("() => getComputedStyle(document.documentElement)"
                             ".getPropertyValue('--jp-widgets-inline-height').trim()") in ("", "28px")
        desk.screenshot(path=os.path.join(SCREENSHOTS, f"desktop-{name}.png"), full_page=True)
        desk.close()
    ctx.close()


@pytest.mark.parametrize("route", [r for r in _routes() if _taps(r)])
def test_a_tap_on_every_canvas_does_what_a_click_does(browser, app_url, route):
    url = _base(app_url) + route
    ends, pixels = {}, {}
    for how in ("tap", "click"):
        ctx = phone_context(browser)
        page = ctx.new_page()
        _open(page, url)
        for sel, point, changes in _taps(route):
            x, y = _tap_point(page, sel, point)
            before = page_signature(page)
            t0 = time.monotonic()
            if how == "tap":
                page.touchscreen.tap(x, y)
            else:
                page.mouse.click(x, y)
            if changes:
                wait_until(lambda: page_signature(page) != before, timeout=30, what=f"the {how} to change the page")
                record_timing("test_phone", f"{route} {how} on {sel} (to the first change)",
                              (time.monotonic() - t0) * 1000)
            if how == "click":
                # a finger lifts and leaves nothing under it; a mouse pointer stays over the board, and a board that
                # previews under the pointer what a click would do (the Orders route's top layer) keeps drawing it:
                # the pointer leaves the canvas, as a finger does, before the pixels are compared
                page.mouse.move(0, 0)
        ends[how] = settled_signature(page, skip=HOVER)
        pixels[how] = _canvas_pngs(page)
        ctx.close()
    import difflib
    import json

    tap, click = (json.loads(ends[k]) for k in ("tap", "click"))
    # what the tap and the click decided (texts, field values) and what they drew (every canvas's pixels, hashed):
    # docs/design.md item 41, "Tap = click, pixel for pixel"
    if tap != click and {k: v for k, v in tap.items() if k != "canvases"} == \
            {k: v for k, v in click.items() if k != "canvases"} and pixels["tap"] == pixels["click"]:
        return  # only the canvas hashes differed, and the pixels read after them agree: a hash caught a redraw under
        # way (seen at load 12 on 2 cores), the two pages ended alike
    if tap != click:
        diff = [d for d in difflib.ndiff(click["text"], tap["text"]) if d[:1] in "+-"]
        where = _pixel_diff(pixels["tap"], pixels["click"], route)
        pytest.fail(f"a tap and a click at the same point left different pages: canvases {tap['canvases']} after the "
                    f"tap, {click['canvases']} after the click{where}; texts (- click, + tap): {diff[:10]}")


def _canvas_pngs(page) -> list[bytes]:
    """Every canvas of ``page`` as PNG bytes (what it draws, at its own pixel size)."""
    import base64

    return [base64.b64decode(c.evaluate("c => c.toDataURL('image/png')").split(",", 1)[1])
            for c in page.locator("canvas").all()]


def _pixel_diff(tap: list[bytes], click: list[bytes], route: str) -> str:
    """Where a tapped and a clicked page's canvases differ, for the failure message: each differing canvas saved as
    two PNGs (tap, click) in a temporary folder, and the box of its differing pixels."""
    import tempfile

    out, folder = [], tempfile.mkdtemp(prefix="tap-click-" + route.strip("/") + "-")
    for i, (a, b) in enumerate(zip(tap, click)):
        if a == b:
            continue
        for how, data in (("tap", a), ("click", b)):
            with open(os.path.join(folder, f"canvas{i}-{how}.png"), "wb") as f:
                f.write(data)
        box = ""
        try:
            import io

            from PIL import Image, ImageChops

            ia, ib = (Image.open(io.BytesIO(d)).convert("RGBA") for d in (a, b))
            box = f" in the box {ImageChops.difference(ia, ib).getbbox()}"
        except ImportError:
            pass
        out.append(f"canvas {i}{box}")
    return f" ({'; '.join(out)}: saved in {folder})" if out else ""


def test_two_fingers_zoom_a_board_inside_its_box_and_the_page_elsewhere(browser, app_url):
    """Line of Fire board (one finger drags a Model): a pinch zooms the board, the page does not scroll sideways and
    is not zoomed; the D.A.G.G.E.R. map (no drags): the browser zooms the page."""
    def pinch(ctx, page, x, y, d0=40.0, d1=120.0, steps=10):
        cdp = ctx.new_cdp_session(page)

        def touch(kind, points):
            cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": [
                {"x": px, "y": py, "id": i} for i, (px, py) in enumerate(points)]})
        touch("touchStart", [(x - d0, y), (x + d0, y)])
        for k in range(1, steps + 1):
            d = d0 + (d1 - d0) * k / steps
            touch("touchMove", [(x - d, y), (x + d, y)])
        touch("touchEnd", [])

    base = _base(app_url)
    ctx = phone_context(browser)
    page = ctx.new_page()
    _open(page, base + "/tagraid-line-of-fire")
    board = page.locator("canvas.xr-touch-drag").first
    board.scroll_into_view_if_needed()
    box = board.bounding_box()
    t0 = time.monotonic()
    pinch(ctx, page, box["x"] + box["width"] / 2, box["y"] + min(box["height"], 300) / 2)
    wait_until(lambda: board.bounding_box()["width"] > 2.5 * box["width"], timeout=10, what="the board to zoom")
    record_timing("test_phone", "pinch the Line of Fire board to 3x", (time.monotonic() - t0) * 1000)
    assert page.evaluate("() => visualViewport.scale") == 1
    assert page.evaluate("() => document.scrollingElement.scrollWidth") <= 390   # the board's box scrolls
    # the board's own "fit" button puts it back in its column
    page.locator(".hexboard-zoom-fit").first.click()
    wait_until(lambda: abs(board.bounding_box()["width"] - box["width"]) < 2, timeout=30, what="the board to fit")
    ctx.close()

    ctx = phone_context(browser)
    page = ctx.new_page()
    _open(page, base + "/dagger-nemesis-phase")
    m = page.locator("canvas[width='760'][height='470']").first
    m.scroll_into_view_if_needed()
    box = m.bounding_box()
    pinch(ctx, page, box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    wait_until(lambda: page.evaluate("() => visualViewport.scale") > 1.5, timeout=10, what="the page to zoom")
    ctx.close()


def _tap_or_click(page, loc, how: str) -> None:
    loc.scroll_into_view_if_needed()
    box = loc.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    (page.touchscreen.tap if how == "tap" else page.mouse.click)(x, y)


def test_a_tap_on_the_strategy_pool_face_buttons_does_what_a_click_does(browser, app_url):
    """Tap a die on the Strategy Pool tray, then the face button "M2": the die's face is set by hand, exactly as with
    the mouse (the first roll's field reads "m2, ..."; the default scenario's first die shows Std)."""
    from explorer.games.masseffect.strategy_views import strategy_page

    dv = strategy_page()[0].dice
    x, y, s = dv.narrow_die_box(0, 0)
    ends = {}
    for how in ("tap", "click"):
        ctx = phone_context(browser)
        page = ctx.new_page()
        _open(page, _base(app_url) + "/masseffect-strategy-pool")
        px, py = _tap_point(page, f"canvas.{NARROW_CLASS}", (x + s / 2, y + s / 2))
        (page.touchscreen.tap if how == "tap" else page.mouse.click)(px, py)
        wait_until(lambda: page.locator(".widget-html", has_text="Set S1").count() > 0, timeout=30,
                   what=f"the {how} to pick die S1")   # the picker's label: "Set S1 (first roll)"
        before = [i.input_value() for i in page.locator("input").all() if i.is_visible()]
        _tap_or_click(page, page.locator(".widget-toggle-buttons button", has_text="M2").first, how)
        wait_until(lambda: [i.input_value() for i in page.locator("input").all() if i.is_visible()] != before,
                   timeout=30, what=f"the {how} on M2 to set the face")
        ends[how] = [i.input_value() for i in page.locator("input").all() if i.is_visible()]
        assert ends[how][0].startswith("m2,"), ends[how]
        ctx.close()
    assert ends["tap"] == ends["click"]


def test_a_tap_on_line_of_fire_pick_shooter_and_pick_target_does_what_a_click_does(browser, app_url):
    """The Line of Fire page's "pick target" / "pick shooter" toggle answers a tap as a click."""
    for how in ("tap", "click"):
        ctx = phone_context(browser)
        page = ctx.new_page()
        _open(page, _base(app_url) + "/tagraid-line-of-fire")
        target = page.locator(".widget-toggle-buttons button", has_text="pick target").first
        shooter = page.locator(".widget-toggle-buttons button", has_text="pick shooter").first
        assert "mod-active" in (shooter.get_attribute("class") or "")
        _tap_or_click(page, target, how)
        wait_until(lambda: "mod-active" in (target.get_attribute("class") or ""), timeout=30,
                   what=f"the {how} to pick 'pick target'")
        _tap_or_click(page, shooter, how)
        wait_until(lambda: "mod-active" in (shooter.get_attribute("class") or "")
                   and "mod-active" not in (target.get_attribute("class") or ""), timeout=30,
                   what=f"the {how} to pick 'pick shooter' again")
        ctx.close()


FONT_SPY_JS = """() => {
    // every font a canvas is drawn with, by the canvas's size: ipycanvas draws on a canvas of the view's size that is
    // not the one on the page, then copies it there
    window.__xrFonts = {};
    for (const P of [window.CanvasRenderingContext2D, window.OffscreenCanvasRenderingContext2D]) {
        if (!P) continue;
        const desc = Object.getOwnPropertyDescriptor(P.prototype, 'font');
        Object.defineProperty(P.prototype, 'font', {configurable: true, get() { return desc.get.call(this); },
            set(v) { const m = /([0-9.]+)px/.exec(v); if (m) { const k = this.canvas.width + 'x' + this.canvas.height;
                (window.__xrFonts[k] = window.__xrFonts[k] || []).push(parseFloat(m[1])); } desc.set.call(this, v); }});
    }
}"""
"""An init script: the font sizes (canvas px) given to the 2D contexts of canvases of each size (``WxH``)."""

TRAYS = {"/tagraid-face-to-face": "A.1", "/masseffect-strategy-pool": "S1", "/tagraid-orders": None}
"""The pages with a dice tray, and a die a tap picks (the Order page's tray only shows the dice of step 5)."""


def _shown_fonts(page) -> list[dict]:
    """Each shown canvas's smallest text as shown (px): the smallest font its context was given, times the
    canvas's shown width over its own width."""
    return page.evaluate("""() => { const all = []; const walk = (root) => root.querySelectorAll('*').forEach(e => {
            if (e.tagName === 'CANVAS') all.push(e); if (e.shadowRoot) walk(e.shadowRoot); }); walk(document);
        return all.filter(c => c.getBoundingClientRect().width > 0 && window.__xrFonts[c.width + 'x' + c.height])
            .map(c => ({cls: c.className, width: c.width, height: c.height, shown: c.getBoundingClientRect().width,
                        min: Math.min(...window.__xrFonts[c.width + 'x' + c.height])
                             * c.getBoundingClientRect().width / c.width})); }""")


@pytest.mark.parametrize("route", list(TRAYS)[::-1])
def test_the_dice_trays_draw_phone_sized_text_and_a_tap_on_a_die_picks_it(browser, app_url, route):
    """Issue 23: a 760-820 px dice tray shrunk to the phone column drew its text at 5-8 px. On a phone the narrow
    tray is shown instead (the wide one hidden): every tray's and chart's smallest text as shown is at least 14 px
    (measured in the browser: the fonts the canvases are drawn with, times their shown scale), and a tap
    on a die picks it as a click does (the picker names it). At 1280 px the wide tray shows as before and the narrow
    one is hidden."""
    url = _base(app_url) + route
    if route == "/tagraid-orders":   # the Order page shows its tray from step 5 on: opened at its last step
        from explorer.games.tagraid.orders.sequence import STEPS
        from explorer.games.tagraid.orders_views import OrderStepper
        from explorer.urlstate import encode_state

        url += "?s=" + encode_state({**OrderStepper().url_state(), "step": len(STEPS)})
    for how in ("tap", "click"):
        ctx = phone_context(browser)
        ctx.add_init_script(f"({FONT_SPY_JS})()")
        page = ctx.new_page()
        _open(page, url)
        narrow = page.locator(f"canvas.{NARROW_CLASS}")
        wait_until(lambda: narrow.count() and narrow.first.is_visible(), timeout=60, what="the narrow tray")
        assert not [c for c in page.locator("canvas.xr-wide-only").all() if c.is_visible()]
        fonts = _shown_fonts(page)
        assert any(NARROW_CLASS in f["cls"] for f in fonts), fonts
        # trays and charts; a board (xr-touch-drag: the Order page's) is zoomed with two fingers instead
        small = [f for f in fonts if f["min"] < MIN_TEXT_PX - 0.01 and "xr-touch-drag" not in f["cls"]]
        assert not small, f"canvas text under {MIN_TEXT_PX} px on a phone: {small}"
        die = TRAYS[route]
        if die is not None:
            if route == "/masseffect-strategy-pool":
                from explorer.games.masseffect.strategy_views import strategy_page

                x, y, s = strategy_page()[0].dice.narrow_die_box(0, 0)
                picked = page.locator(".widget-html", has_text="Set S1")
            else:
                from explorer.games.tagraid.views import explorer_for_scenario

                x, y, s = explorer_for_scenario().tray.narrow_placed[die]
                picked = page.locator(".dice-picker", has_text=die)
            px, py = _tap_point(page, f"canvas.{NARROW_CLASS}", (x + s / 2, y + s / 2))
            (page.touchscreen.tap if how == "tap" else page.mouse.click)(px, py)
            wait_until(lambda: picked.count() and picked.first.is_visible(), timeout=30,
                       what=f"the {how} to pick {die}")
        if SCREENSHOTS and how == "tap":
            narrow.first.screenshot(path=os.path.join(SCREENSHOTS, f"phone-{route.strip('/')}-tray.png"))
        ctx.close()
    desk = browser.new_page(viewport={"width": 1280, "height": 900})
    _open(desk, url)
    assert not desk.locator(f"canvas.{NARROW_CLASS}").first.is_visible()
    wide = [c for c in desk.locator("canvas.xr-wide-only").all() if c.is_visible()]
    assert wide and all(c.bounding_box()["width"] >= 560 - 1 for c in wide)
    desk.close()


TEXT_SPY_JS = """() => {
    // the texts each 2D context shows now: fillText calls since the context's last whole-canvas clearRect
    window.__xrTexts = new Map();
    for (const proto of [window.CanvasRenderingContext2D, window.OffscreenCanvasRenderingContext2D]) {
        if (!proto) continue;
        const fill = proto.prototype.fillText, clear = proto.prototype.clearRect;
        proto.prototype.fillText = function (text, ...rest) {
            const m = /([0-9.]+)px/.exec(this.font);
            if (!window.__xrTexts.has(this)) window.__xrTexts.set(this, []);
            window.__xrTexts.get(this).push([String(text), m ? parseFloat(m[1]) : 0]);
            return fill.call(this, text, ...rest);
        };
        proto.prototype.clearRect = function (x, y, w, h) {
            if (x <= 0 && y <= 0 && w >= this.canvas.width && h >= this.canvas.height) window.__xrTexts.set(this, []);
            return clear.call(this, x, y, w, h);
        };
    }
}"""
"""An init script: the texts (and their font sizes, canvas px) each canvas context shows at the moment."""

BOARDS = ("/tagraid-line-of-fire", "/tagraid-orders", "/masseffect-mission-map", "/galaxydefenders-ai",
          "/dagger-nemesis-phase")
"""The pages with a board or map drawn on a canvas (each in a box of class ``xr-label-host``)."""


def _board_labels(page) -> dict:
    """The board canvas's texts as shown: ``{"floor": the label-floor field's value, "shown": CSS px width,
    "labels": [[text, CSS px]]}`` (font size times the shown width over the canvas's own width)."""
    return page.evaluate("""() => {
        const all = []; const walk = (root) => root.querySelectorAll('*').forEach(e => {
            if (e.matches('.xr-label-host')) all.push(e); if (e.shadowRoot) walk(e.shadowRoot); }); walk(document);
        const host = all[0], c = host.querySelector('canvas'), inp = host.querySelector('.xr-label-floor input');
        const k = c.getBoundingClientRect().width / c.width, labels = [];
        for (const [ctx, texts] of window.__xrTexts) {
            if (ctx.canvas.width === c.width && ctx.canvas.height === c.height) {
                for (const [t, px] of texts) labels.push([t, px * k]);
            }
        }
        return {floor: inp ? inp.value : null, shown: c.getBoundingClientRect().width, labels: labels};
    }""")


@pytest.mark.parametrize("route", BOARDS)
def test_board_labels_are_at_least_14_px_on_a_phone(browser, app_url, route):
    """Issue 23: a board canvas (760-1,100 px drawn) shrunk to the 370 px phone column showed its labels 4-7 px
    tall. On a phone the browser reports the shrink to the board (its label floor, explorer.widgets.label_floor) and
    every label the board shows is drawn at least 14 px tall as shown (measured in the browser: the font size of
    every fillText since the canvas was last cleared, times the shown scale); at 1280 px the floor is off (``1``)."""
    url = _base(app_url) + route
    ctx = phone_context(browser)
    ctx.add_init_script(f"({TEXT_SPY_JS})()")
    page = ctx.new_page()
    _open(page, url)
    wait_until(lambda: (_board_labels(page)["floor"] or "1") != "1", timeout=30, what="the board's label floor")
    got: dict = {}

    def readable() -> bool:
        got.update(_board_labels(page))
        return bool(got["labels"]) and min(px for _, px in got["labels"]) >= MIN_TEXT_PX - 0.01

    wait_until(readable, timeout=30, what=f"every board label at least {MIN_TEXT_PX} px: {got}")
    assert got["shown"] <= 390
    ctx.close()
    desk = browser.new_page(viewport={"width": 1280, "height": 900})
    desk.add_init_script(f"({TEXT_SPY_JS})()")
    _open(desk, url)
    # the floor off at 1280 px: its first word is 1 (the second, since issue #24, is the shown/drawn ratio)
    wait_until(lambda: (_board_labels(desk)["floor"] or "").split()[:1] == ["1"], timeout=30,
               what="the floor off at 1280 px")
    desk.close()


@pytest.mark.parametrize("pos", [(0, 0), (0, 4), (1, 0)])
def test_the_strategy_pool_face_picker_opens_under_the_tapped_die(browser, app_url, pos):
    """Issue 23: the Strategy Pool's face picker sat with the controls, a screen or more above the dice tray on a
    phone. A tap on a die (the phone canvas) or a click on it (the wide canvas, 1280 px) now opens the picker right
    under that die: its top 0-16 px under the die's bottom edge, its left edge inside the screen, over the dice
    below; a picked face closes it."""
    from explorer.games.masseffect.strategy_views import PICKER_CLASS, strategy_page

    dv = strategy_page()[0].dice     # the default roll: Roll (5 dice), Re-roll 1 (1 die), Pool
    row, k = pos
    for phone in (True, False):
        if phone:
            ctx = phone_context(browser)
            page = ctx.new_page()
        else:
            ctx = None
            page = browser.new_page(viewport={"width": 1280, "height": 900})
        _open(page, _base(app_url) + "/masseffect-strategy-pool")
        canvas_sel = (f"canvas.{NARROW_CLASS}" if phone    # the wide tray: its size (the odds chart is as wide)
                      else f"canvas.xr-wide-only[width='{dv.canvas.width}'][height='{dv.canvas.height}']")
        x, y, s = (dv.narrow_die_box if phone else dv.die_box)(row, k)
        px, py = _tap_point(page, canvas_sel, (x + s / 2, y + s / 2))
        (page.touchscreen.tap if phone else page.mouse.click)(px, py)
        box = page.locator(f".{PICKER_CLASS}")
        wait_until(lambda: box.is_visible(), timeout=30, what="the face picker")
        canvas = page.locator(canvas_sel).last
        page.wait_for_timeout(300)
        cb, pb = canvas.bounding_box(), box.bounding_box()
        scale = cb["width"] / canvas.evaluate("c => c.width")
        die_bottom = cb["y"] + (y + s) * scale
        assert 0 <= pb["y"] - die_bottom <= 16, (phone, pb, die_bottom)
        assert 0 <= pb["x"] and pb["x"] + pb["width"] <= page.viewport_size["width"] + 1
        page.locator(f".{PICKER_CLASS} .widget-toggle-buttons button").first.click()
        wait_until(lambda: not box.is_visible(), timeout=30, what="a picked face to close the picker")
        (ctx or page).close()


SVG_TEXTS_JS = """() => { const out = []; const walk = (root) => root.querySelectorAll('*').forEach(e => {
        if (e.shadowRoot) walk(e.shadowRoot);
        if (e.tagName === 'svg' && e.closest('.widget-html-content') && e.viewBox.baseVal && e.viewBox.baseVal.width) {
            const sr = e.getBoundingClientRect(), k = sr.width / e.viewBox.baseVal.width;
            e.querySelectorAll('text').forEach(t => { if (getComputedStyle(t).display !== 'none' && t.textContent.trim()) {
                const tr = t.getBoundingClientRect();
                out.push([t.textContent.trim().slice(0, 30), parseFloat(getComputedStyle(t).fontSize) * k,
                          tr.left >= sr.left - 1 && tr.right <= sr.right + 1]); } });
        } }); walk(document); return out; }"""
"""The visible texts of the SVG pictures in HTML widgets: ``[text, size as shown (CSS px), inside the picture]``."""


@pytest.mark.parametrize("route", ["/masseffect-round", "/galaxydefenders-round", "/dagger-round"])
def test_round_page_map_labels_are_at_least_14_px_on_a_phone(browser, app_url, route):
    """Issue 23: the Round pages' SVG maps, shrunk to the phone column, showed their labels 5.7-7 px tall. On a phone
    the page script raises every map text to at least 14 px as shown, inside the picture, and hides a text over one
    kept before it; at
    1280 px the texts keep their own sizes (some under 14 px there)."""
    ctx = phone_context(browser)
    page = ctx.new_page()
    _open(page, _base(app_url) + route)
    got: list = []

    def readable() -> bool:
        got[:] = page.evaluate(SVG_TEXTS_JS)
        return bool(got) and min(px for _, px, _ in got) >= MIN_TEXT_PX - 0.05 and all(inside for *_, inside in got)

    wait_until(readable, timeout=30, what=f"every map text at least {MIN_TEXT_PX} px")
    ctx.close()
    desk = browser.new_page(viewport={"width": 1280, "height": 900})
    _open(desk, _base(app_url) + route)
    desk.wait_for_timeout(1500)
    assert min(px for _, px, _ in desk.evaluate(SVG_TEXTS_JS)) < MIN_TEXT_PX   # untouched (the floor is phone-only)
    desk.close()


LOF_TABLE_JS = """() => {
    // the Line of Fire page's verdict table (through shadow roots): its box, its rows, every cell's labels and texts
    const found = []; const walk = (root) => root.querySelectorAll('*').forEach(e => {
        if (e.matches('table.lof-verdicts')) found.push(e); if (e.shadowRoot) walk(e.shadowRoot); }); walk(document);
    const t = found[0]; if (!t) return null;
    const r = t.getBoundingClientRect(), head = t.querySelector('tr.lof-head');
    const texts = [], labels = [];
    let left = r.left, right = r.right;
    t.querySelectorAll('td, td *').forEach(e => {
        const b = e.getBoundingClientRect(); if (b.width === 0 && b.height === 0) return;
        left = Math.min(left, b.left); right = Math.max(right, b.right);
        if (Array.from(e.childNodes).some(n => n.nodeType === 3 && n.textContent.trim()))
            texts.push([e.textContent.trim().slice(0, 30), parseFloat(getComputedStyle(e).fontSize)]);
        if (e.tagName === 'TD' && e.dataset.label) {
            const p = getComputedStyle(e, '::before');
            labels.push([e.dataset.label, p.content, parseFloat(p.fontSize)]);
        }
    });
    return {page: document.scrollingElement.scrollWidth, width: window.innerWidth, left: left, right: right,
            scroll: t.scrollWidth, client: t.clientWidth, display: getComputedStyle(t).display,
            head: head ? getComputedStyle(head).display : null, rows: t.querySelectorAll('tr.lof-row').length,
            texts: texts, labels: labels};
}"""
"""Browser-side: the Line of Fire verdict table as shown (:func:`test_the_line_of_fire_verdict_table_fits_a_phone`)."""


@pytest.mark.parametrize("scenario", ["tr-22", "tr-elev-tower", "tr-elev-37"])
def test_the_line_of_fire_verdict_table_fits_a_phone(browser, app_url, scenario):
    """Issue 22/23: on a phone the Line of Fire page's verdict table (six columns: target, Line of Fire, Range, Cover,
    hexes, rulebook sections) ran about 90 px past the 390 px screen, scrolling sideways inside its own box with its
    last column cut at the screen's edge. On a phone each target is now a card of labelled lines: nothing of the
    table lies outside the screen nor scrolls sideways (page or table), every text and every line's label is at
    least 14 px, the header row is hidden (each line carries its column's label instead). At 1280 px the table is a
    table as before: header row shown, no labels drawn."""
    url = _base(app_url) + f"/tagraid-line-of-fire?scenario={scenario}"
    ctx = phone_context(browser)
    page = ctx.new_page()
    _open(page, url)
    got = page.evaluate(LOF_TABLE_JS)
    assert got is not None and got["rows"] >= 1, f"no verdict table on {url}"
    assert got["page"] <= got["width"] == 390, f"the page scrolls sideways: {got['page']} px"
    assert got["scroll"] <= got["client"] + 1, f"the table scrolls sideways: {got['scroll']} > {got['client']} px"
    assert got["left"] >= -0.5 and got["right"] <= 390.5, \
        f"the table runs off the screen: {got['left']}..{got['right']}"
    assert got["head"] == "none"
    small = [t for t in got["texts"] if t[1] < MIN_TEXT_PX]
    assert not small, f"table text under {MIN_TEXT_PX} px: {small[:5]}"
    assert len(got["labels"]) == 5 * got["rows"]
    for label, content, px in got["labels"]:
        assert content == f'"{label}"' and px >= MIN_TEXT_PX, (label, content, px)
    ctx.close()
    desk = browser.new_page(viewport={"width": 1280, "height": 900})
    _open(desk, url)
    wide = desk.evaluate(LOF_TABLE_JS)
    assert wide["display"] == "table" and wide["head"] == "table-row"
    assert all(content == "none" for _, content, _ in wide["labels"]), "a label drawn at 1280 px"
    desk.close()


def _table_states() -> list[str]:
    """Pages at a state that shows one of the tables the pages build (:func:`explorer.widgets.cards.card_table`):
    the Galaxy Defenders A.I. step of end hexes (six columns), the Mass Effect activation step of moves (six
    columns), the Order page's last step (its Outcome table), the Face to Face page's whole exchange (eleven
    columns)."""
    from explorer.games.tagraid.orders.sequence import STEPS
    from explorer.games.tagraid.orders_views import OrderStepper
    from explorer.urlstate import encode_state

    return ["/galaxydefenders-ai?s=" + encode_state({"scenario": "gd-ai-archenemy", "step": 5}),
            "/masseffect-enemy-activation?s=" + encode_state({"scenario": "me-03", "step": 4}),
            "/tagraid-orders?s=" + encode_state({**OrderStepper().url_state(), "step": len(STEPS)}),
            "/tagraid-face-to-face?scenario=book-two-f2f"]


CARDS_JS = """() => { const out = []; const walk = (root) => root.querySelectorAll('*').forEach(e => {
        if (e.shadowRoot) walk(e.shadowRoot);
        if (e.matches('table.xr-cards') && e.getBoundingClientRect().width > 0) {
            const head = e.querySelector('tr.xr-cards-head'), r = e.getBoundingClientRect();
            out.push({display: getComputedStyle(e).display, head: head ? getComputedStyle(head).display : null,
                      scroll: e.scrollWidth, client: e.clientWidth, left: r.left, right: r.right,
                      labels: Array.from(e.querySelectorAll('td[data-label]')).filter(td => td.offsetWidth)
                          .map(td => getComputedStyle(td, '::before').content).slice(0, 50)});
        } }); walk(document); return out; }"""
"""Every shown card table: its display, its header row's display, its widths and its cells' drawn labels."""


@pytest.mark.parametrize("url", _table_states(), ids=["gd-ai-step", "me-activation-step", "orders-outcome",
                                                      "f2f-exchange"])
def test_every_table_is_a_list_of_cards_on_a_phone(browser, app_url, url):
    """Issue 23: a table wider than the phone (six columns of a step, the eleven-column exchange) scrolled sideways
    inside its own box. On a phone each is a list of cards (no box of the page wider inside than outside, tables
    included; every cell that has a column name shows it as its label, the header row hidden); at 1280 px each is a
    table with its header row."""
    ctx = phone_context(browser)
    page = ctx.new_page()
    _open(page, _base(app_url) + url)
    wait_until(lambda: page.evaluate(CARDS_JS), timeout=30, what="a card table")
    got = phone_audit_when_clean(page, MIN_TEXT_PX, MIN_TARGET_PX, lists=("sideways", "small"))
    assert got["scrollWidth"] <= got["width"] == 390
    assert not got["sideways"], f"boxes wider inside than outside: {got['sideways'][:10]}"
    assert not got["small"], f"text under {MIN_TEXT_PX} px: {got['small'][:10]}"
    for t in page.evaluate(CARDS_JS):
        assert t["scroll"] <= t["client"] + 1 and t["left"] >= 0 and t["right"] <= 390.5, t
        assert t["head"] in (None, "none"), t
        assert all(c.startswith('"') and c.endswith(': "') for c in t["labels"]), t["labels"]
    ctx.close()
    desk = browser.new_page(viewport={"width": 1280, "height": 900})
    _open(desk, _base(app_url) + url)
    wait_until(lambda: desk.evaluate(CARDS_JS), timeout=30, what="a card table")
    for t in desk.evaluate(CARDS_JS):
        assert t["display"] == "table" and t["head"] in (None, "table-row"), t
        assert all(c == "none" for c in t["labels"]), t["labels"]
    desk.close()
