"""The label floor of boards on a phone (issue 23, item 1; explorer.widgets.label_floor)."""

from __future__ import annotations

import json

import pytest

from explorer.serving.phone import MIN_TEXT_PX, PHONE_MAX_WIDTH
from explorer.widgets import label_floor as lf
from explorer.widgets.layout import BROWSER_FIXES_JS


def test_the_floor_uses_the_phone_rules_numbers_and_rides_in_the_page_script():
    assert lf.PHONE_MAX_WIDTH == PHONE_MAX_WIDTH
    assert lf.MIN_LABEL_CSS_PX == MIN_TEXT_PX
    assert "xrLabelFloor" in BROWSER_FIXES_JS and f"innerWidth > {PHONE_MAX_WIDTH}" in BROWSER_FIXES_JS


def test_the_floor_is_14_css_px_over_the_reported_shrink_and_off_without_one():
    f = lf.LabelFloor()
    calls = []
    f.on_change(lambda: calls.append(f.min_px))
    assert f.min_px == 0
    f.value = "0.5"
    assert f.min_px == 28 and calls == [28]
    f.value = "0.5"            # no change, no redraw
    assert calls == [28]
    for bad in ("1", "abc", "", "7", "0"):
        f.value = bad
        assert f.min_px == 0
    assert calls == [28, 0]


def test_floored_raises_small_sizes_to_a_whole_pixel_and_leaves_the_rest():
    assert lf.floored(11, 0) == 11
    assert lf.floored(11, 28.7) == 29
    assert lf.floored(30, 28.7) == 30
    assert lf.floored(11, 28.0) == 28


def test_declutter_drops_a_label_over_one_drawn_before_and_keeps_apart_ones():
    d = lf.Declutter(True)
    assert d.fits("Toronto", 100, 100, 20)
    assert not d.fits("Washington", 110, 105, 20)      # overlaps
    assert d.fits("Oslo", 400, 100, 20)
    assert d.fits("Below", 100, 130, 20)               # one line under
    off = lf.Declutter(False)
    assert off.fits("a", 0, 0, 20) and off.fits("a", 0, 0, 20)


def test_a_board_draws_its_labels_at_the_floor_and_the_same_as_before_without_it():
    from explorer.games.tagraid.lof_views import LofExplorer

    bv = LofExplorer().board_view
    before = set(bv.label_sizes)
    assert before and min(before) < 14
    bv.label_floor.value = "0.34"
    assert min(bv.label_sizes) >= 14 / 0.34
    bv.label_floor.value = "1"
    assert bv.label_sizes == before


def test_a_zoom_in_on_a_phone_draws_the_labels_once_at_the_floor_it_will_be_shown_at():
    """Issue #24: a board shown at a fixed size on a phone is shown at ``shown_scale / scale``: a zoom in that draws
    the board again sets that floor first (written as the page script writes it, so its next measurement changes
    nothing) and draws each layer once; fitted, or on a desktop (ratio ``1``), the floor is the browser's."""
    from explorer.games.tagraid.lof_views import LofExplorer

    bv = LofExplorer().board_view
    bv.label_floor.value = "0.34"          # a phone: the fitted board is shown a third of its drawn size
    sent = []
    for name, layer in bv.layers.items():
        layer._canvas_manager._send_custom = lambda cmd, buffers=[], n=name: sent.append(n)
    bv.zoom_in.click()   # no shown size reported: from the drawing's size, drawn again
    assert bv.label_floor.value == "1.00 1.00" and bv.label_floor.min_px == 0
    assert min(bv.label_sizes) < 14         # the labels at their own size: the board is shown at its own pixel size
    assert len(sent) == 1                   # every layer in one message (a relabel would send another)
    del sent[:]
    bv.zoom_out.click()                     # kept drawing, shown smaller: its labels at the new floor, nothing else
    assert bv.label_floor.value == "0.80 0.80" and bv.label_floor.min_px == 14 / 0.8 and len(sent) == 1   # one held
    desk = LofExplorer().board_view
    desk.label_floor.value = "1"
    desk.zoom_in.click()
    assert desk.label_floor.value == "1"


def test_the_page_reports_the_shown_size_in_a_second_word_and_the_zoom_steps_from_it():
    """Issue #24: the page script writes the floor's ratio, then the shown/drawn ratio in any window; the zoom
    buttons of a board fitted to its column step from the size it is shown at, and a zoom in up to the drawing's
    size keeps the drawing (nothing drawn on desktop; on a phone only the labelled layers, at their new floor)."""
    from explorer.games.tagraid.lof_views import LofExplorer

    assert "(w / c.width).toFixed(2)" in BROWSER_FIXES_JS
    f = lf.LabelFloor()
    for value, ratio, shown, phone in (("1 0.64", 1.0, 0.64, False), ("0.34 0.34", 0.34, 0.34, True),
                                       ("1", 1.0, None, False), ("", 1.0, None, False), ("0.5 x", 0.5, None, True)):
        f.value = value
        assert (f.ratio, f.shown, f.phone) == (ratio, shown, phone), value
    for phone, value in ((False, "1 0.64"), (True, "0.64 0.64")):
        bv = LofExplorer().board_view
        s0 = bv.scale
        bv.label_floor.value = value
        sent = []
        bv.layers["terrain"]._canvas_manager._send_custom = lambda cmd, buffers=[]: sent.append(1)
        bv.zoom_in.click()       # 0.64 -> 0.8 of the drawing: shown larger, the drawing kept
        assert bv.scale == s0 and not bv.fitted and abs(bv.shown_scale - 0.8 * s0) < 1e-9
        assert len(sent) == (1 if phone else 0)   # a phone: pieces (and scenery names), overlays at the new floor, one message
        del sent[:]
        bv.zoom_in.click()       # 1.0: the drawing's own size
        assert bv.scale == s0 and abs(bv.shown_scale - s0) < 1e-9
        del sent[:]
        bv.zoom_out.click(), bv.zoom_out.click()   # back to 0.64, the size the column showed: the drawing kept
        assert bv.scale == s0 and abs(bv.shown_scale - 0.64 * s0) < 1e-9 and len(sent) <= (2 if phone else 0)
        bv.zoom_fit.click()
        assert bv.fitted and bv.scale == s0 and len(sent) <= (2 if phone else 0)
        bv.zoom_in.click(), bv.zoom_in.click()
        bv.zoom_in.click()       # past the drawing: drawn again at the finer size, once per layer
        assert bv.scale > s0 and bv.shown_scale == bv.scale


def test_a_board_is_pending_until_its_first_measure_has_arrived_and_it_has_redrawn():
    """Issue 23 leftover ("small labels show about 1 s before the redraw"): until the browser's first measure reaches
    the floor, the field carries the pending class (a phone hides the board meanwhile); the class goes only after the
    callbacks (the redraw) ran, and also for a measure that sets no floor (a desktop's ``1``)."""
    f = lf.LabelFloor()
    seen = []
    f.on_change(lambda: seen.append(f.pending))
    assert f.pending and lf.PENDING_CLASS in f._dom_classes
    f.value = "0.4"
    assert seen == [True] and not f.pending     # redrawn while still pending, then shown
    g = lf.LabelFloor()
    g.value = "1"
    assert not g.pending


def test_the_phone_stylesheet_hides_a_pending_board_for_at_most_a_few_seconds():
    from explorer.serving.phone import PHONE_CSS, _PENDING_CSS

    assert _PENDING_CSS == lf.PENDING_CSS and lf.PENDING_CSS in PHONE_CSS
    assert f".{lf.HOST_CLASS}:has(.{lf.PENDING_CLASS}) canvas" in lf.PENDING_CSS
    assert f"{lf.REVEAL_AFTER_S}s forwards" in lf.PENDING_CSS and lf.REVEAL_AFTER_S <= 5
    assert PHONE_CSS.startswith(f"@media (max-width: {PHONE_MAX_WIDTH}px)")   # desktop pages never hide a board


def test_js_fixed_is_javascripts_to_fixed_and_laid_out_px_is_chromiums_layout_width():
    """Issue #24: the zoom's predicted floor is written as the page script writes it. ``js_fixed`` against Node's
    ``toFixed`` on ties (0.625: "0.63" there, "0.62" with Python's rounding) and on many ratios; ``laid_out_px``
    against widths Chromium laid out (session 20, ``getBoundingClientRect``; the browser test checks it live)."""
    import random
    import shutil
    import subprocess

    assert lf.js_fixed(0.625) == "0.63" and f"{0.625:.2f}" == "0.62"
    assert lf.js_fixed(457.265625 / 1407) == "0.32" and lf.js_fixed(457.275 / 1407) == "0.33"
    assert [lf.laid_out_px(float(s)) for s in ("462.8", "903.906", "1129.88", "714.492", "457.275", "723.125")] == \
        [462.796875, 903.890625, 1129.875, 714.484375, 457.265625, 723.125]
    node = shutil.which("node") or shutil.which("nodejs")
    if node is None:
        pytest.skip("needs Node.js for the toFixed comparison")
    rng = random.Random(20)
    xs = [k / 1000 for k in range(0, 1001, 5)] + [k / 64 / 1157 for k in range(1, 80000, 97)] + \
        [rng.uniform(0, 3) for _ in range(2000)]
    out = subprocess.run([node, "-e", "const xs = JSON.parse(require('fs').readFileSync(0, 'utf8'));"
                          "process.stdout.write(JSON.stringify(xs.map(x => x.toFixed(2))));"],
                         input=json.dumps(xs), capture_output=True, text=True, timeout=60, check=True)
    assert json.loads(out.stdout) == [lf.js_fixed(x) for x in xs]
