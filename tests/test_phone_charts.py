"""Odds charts on a phone (issue 23): the chart's narrow canvas is laid out for a 390 px phone column and draws no
text under 14 px; the phone rules show it there and hide the wide canvas (whose text, shrunk to the column, came out
at 5-7 px)."""

from __future__ import annotations

import pytest

from explorer.serving.phone import MIN_TEXT_PX, PHONE_CSS
from explorer.widgets.layout import NARROW_ONLY, WIDE_ONLY
from explorer.widgets.odds_chart import NARROW_MIN_FONT, NARROW_WIDTH, Distribution, OddsChart, Outcome

OUTCOMES = [Outcome("A wins", 0.431, "#c92a2a"), Outcome("B wins", 0.402, "#1864ab"), Outcome("Nobody", 0.167, "#999")]


@pytest.mark.parametrize("dists", [
    [],
    [Distribution("Wounds on B", [0.5, 0.3, 0.15, 0.05], "#c92a2a", "wounds")],
    [Distribution("Wounds on B", [0.5, 0.3, 0.2], "#c92a2a", "wounds"),
     Distribution("Wounds on A", [0.6] + [0.02] * 20, "#1864ab", "wounds")],
    [Distribution("triggers", [1 / 41] * 41, "#000", "Enhanced dice")],
])
def test_the_narrow_chart_has_phone_sized_text(dists):
    chart = OddsChart(width=760, height=290)
    texts: list[tuple[str, float]] = []
    fill = chart.narrow.fill_text
    chart.narrow.fill_text = lambda t, x, y, *a: (texts.append((str(t), float(x))), fill(t, x, y, *a))
    chart.show(OUTCOMES, dists, "Exact odds")
    assert NARROW_MIN_FONT >= MIN_TEXT_PX
    assert chart.fonts["narrow"] and min(chart.fonts["narrow"]) >= NARROW_MIN_FONT
    assert min(chart.fonts["wide"]) < MIN_TEXT_PX   # the wide chart, shrunk on a phone, is what this replaces
    assert chart.narrow.width == NARROW_WIDTH and chart.narrow.height == chart._narrow_height()
    assert all(0 <= x <= NARROW_WIDTH for _, x in texts)
    for o in OUTCOMES:   # every outcome's exact number is on the phone chart
        assert any(t.startswith(o.label) for t, _ in texts)
    for d in dists:      # and the most likely value of every distribution
        mode = max(range(len(d.probs)), key=lambda k: d.probs[k])
        assert any(t == f"{100 * d.probs[mode]:.1f}%" for t, _ in texts)


def test_the_phone_rules_swap_the_canvases():
    chart = OddsChart()
    assert NARROW_ONLY in chart.narrow._dom_classes and WIDE_ONLY in chart.canvas._dom_classes
    assert chart.narrow.layout.display == "none"          # a notebook (no phone rules) shows the wide chart only
    phone = PHONE_CSS[PHONE_CSS.index("@media"):]
    assert f".{NARROW_ONLY} {{\n    display: block !important;" in phone
    assert f".{WIDE_ONLY} {{\n    display: none !important;" in phone


def test_a_long_title_wraps_inside_the_phone_chart():
    """The Strategy Pool's title ("Exact odds before this roll: 6 Strategy dice, Locked ...") ran off the canvas."""
    chart = OddsChart()
    texts: list[str] = []
    fill = chart.narrow.fill_text
    chart.narrow.fill_text = lambda t, x, y, *a: (texts.append(str(t)), fill(t, x, y, *a))
    title = "Exact odds before this roll: 6 Strategy dice, Locked Enhanced Action die, Paragon die taken"
    chart.show(OUTCOMES, [], title)
    lines = [t for t in texts if t in title]
    assert len(lines) >= 2 and " ".join(lines) == title
    assert all(len(t) <= OddsChart.NARROW_TITLE_CHARS for t in lines)
