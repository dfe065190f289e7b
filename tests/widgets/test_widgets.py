"""Game-agnostic widgets: own canvas managers, batched drawing, tray layout and clicks, odds chart, stepper."""

from __future__ import annotations

import pytest
from ipycanvas.canvas import _CANVAS_MANAGER

from explorer.trace import RuleRef, Trace
from explorer.widgets import (DiceTray, DieView, Distribution, Link, OddsChart, Outcome, Row, TraceStepper, hold,
                              own_canvas, percent, render_trace_html)


def _count_messages(monkeypatch, canvas):
    sent = []
    monkeypatch.setattr(canvas._canvas_manager, "_send_custom", lambda cmd, buffers=[]: sent.append(cmd))
    return sent


def test_each_canvas_has_its_own_manager():
    a, b = own_canvas(100, 50), own_canvas(100, 50)
    assert a._canvas_manager is not b._canvas_manager
    assert a._canvas_manager is not _CANVAS_MANAGER


def test_hold_batches_into_one_message_and_is_reentrant(monkeypatch):
    c = own_canvas(100, 50)
    sent = _count_messages(monkeypatch, c)
    with hold(c):
        c.fill_rect(0, 0, 10, 10)
        with hold(c):
            c.stroke_rect(0, 0, 10, 10)
        assert sent == []  # the inner hold must not flush
        c.fill_rect(5, 5, 10, 10)
    assert len(sent) == 1
    assert c._canvas_manager._caching is False


def test_unheld_drawing_sends_several_messages(monkeypatch):
    c = own_canvas(100, 50)
    sent = _count_messages(monkeypatch, c)
    c.fill_rect(0, 0, 10, 10)
    c.fill_rect(0, 0, 10, 10)
    assert len(sent) >= 2


def _rows():
    return [Row("A", [DieView("A.1", 5, "success", cancelled=True), DieView("A.2", 12, "critical", survives=True),
                      DieView("A.3", 17, "failure")], "SV 12"),
            Row("B", [DieView("B.1", 9, "success", cancelled=True)], "SV 10")]


def test_tray_redraw_is_one_message_and_places_every_die(monkeypatch):
    t = DiceTray(width=600)
    sent = _count_messages(monkeypatch, t.canvas)
    t.show(_rows(), [Link("A.2", "B.1"), Link("B.1", "A.1")], highlight={"A.2"})
    assert len(sent) == 1
    placed = t.placed
    assert set(placed) == {"A.1", "A.2", "A.3", "B.1"}
    # dice of a row are left to right, rows top to bottom, nothing overlaps the label column
    assert placed["A.1"][0] < placed["A.2"][0] < placed["A.3"][0]
    assert placed["B.1"][1] > placed["A.1"][1]
    assert min(x for x, _, _ in placed.values()) >= t.label_width


def test_tray_click_hits_the_die_under_the_pointer():
    t = DiceTray(width=600)
    t.show(_rows())
    got = []
    t.on_die_click(got.append)
    x, y, s = t.placed["A.3"]
    t._handle_click(x + s / 2, y + s / 2)
    t._handle_click(5, 5)  # the label column: no die
    assert got == ["A.3"]
    assert t.die_at(x - 1000, y) is None


def test_tray_shrinks_dice_to_fit_twenty():
    t = DiceTray(width=760)
    t.show([Row("A", [DieView(f"A.{i + 1}", 1 + i % 20) for i in range(20)])])
    xs = sorted((x, s) for x, _, s in t.placed.values())
    assert xs[-1][0] + xs[-1][1] <= 760


def test_odds_chart_draws_in_one_message(monkeypatch):
    ch = OddsChart()
    sent = _count_messages(monkeypatch, ch.canvas)
    ch.show([Outcome("A", 0.5, "#00f"), Outcome("B", 0.5, "#f00")],
            [Distribution("W", [0.5, 0.25, 0.25], "#00f", "Wounds")])
    assert len(sent) == 1


@pytest.mark.parametrize("p,text", [(0.4321, "43.2%"), (0.0, "0.0%"), (0.0001, "<0.1%"), (1.0, "100.0%")])
def test_percent(p, text):
    assert percent(p) == text


def _trace():
    t = Trace("demo")
    t.add("first", RuleRef("G", "Rolls › Criticals"), "why <1>", section="S1", marks=("A.1",))
    t.add("second", RuleRef("G", "Damage"), section="S2", marks=("B.1", "B.2"))
    t.rulings = {"sv_above_20": "literal"}
    return t


def test_trace_html_cites_every_step_and_escapes():
    h = render_trace_html(_trace(), current=1)
    assert "G: Rolls › Criticals" in h and "G: Damage" in h
    assert "why &lt;1&gt;" in h
    assert h.count("xt-step cur") == 1 and "sv_above_20 = literal" in h


def test_stepper_reports_marks_of_the_focused_step():
    st = TraceStepper()
    seen = []
    st.on_step(lambda s: seen.append(None if s is None else s.marks))
    st.show(_trace())
    st.go(+1)
    assert "first" in st.focus.value and "G: Rolls › Criticals" in st.focus.value
    st.go(+1)
    st.go(+1)  # clamps at the last step
    st.select(None)
    assert seen == [None, ("A.1",), ("B.1", "B.2"), ("B.1", "B.2"), None]
    assert "2 steps" in st.position.value and st.focus.value == ""


def test_stepper_disables_the_button_that_would_do_nothing():
    """At the last step Next does nothing, at the first Prev: they are disabled there (a served notebook stepped to
    its end showed an enabled Next that changed nothing); from "all steps" both lead somewhere."""
    st = TraceStepper()
    st.show(_trace())
    assert not st.prev_button.disabled and not st.next_button.disabled
    st.go(+1)
    assert st.prev_button.disabled and not st.next_button.disabled
    st.go(+1)
    assert not st.prev_button.disabled and st.next_button.disabled
    st.show(Trace(""))
    assert st.prev_button.disabled and st.next_button.disabled
