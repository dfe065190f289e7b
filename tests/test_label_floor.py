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
