"""The label floor of boards on a phone (issue 23, item 1; explorer.widgets.label_floor)."""

from __future__ import annotations

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
    bv.zoom_in.click()
    assert bv.label_floor.value == "1.00" and bv.label_floor.min_px == 0
    assert min(bv.label_sizes) < 14         # the labels at their own size: the board is shown at its own pixel size
    assert len(sent) <= len(bv.layers)      # one message per layer (a relabel would send four more)
    bv.zoom_out.click()                     # kept drawing, shown smaller: a pure view change, the floor left alone
    assert bv.label_floor.value == "1.00"
    desk = LofExplorer().board_view
    desk.label_floor.value = "1"
    desk.zoom_in.click()
    assert desk.label_floor.value == "1"
