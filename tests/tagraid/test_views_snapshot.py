"""Issue #12: the Face to Face explorer's static picture (dice tray, odds bar, cited steps) for notebooks saved
without a kernel and for docs; it shows what the widget shows."""

from __future__ import annotations

import re
import xml.dom.minidom

import pytest

from explorer.games.tagraid.views import explorer_for_scenario
from explorer.widgets.dice_tray import DiceTray, DieView, Link, Row


@pytest.fixture(scope="module")
def w():
    return explorer_for_scenario()


def test_the_svg_is_well_formed_and_has_every_die_of_the_tray_at_the_widgets_place(w):
    snap = w.snapshot()
    doc = xml.dom.minidom.parseString(snap.tray_svg())
    groups = {g.getAttribute("data-die"): g for g in doc.getElementsByTagName("g")
              if g.getAttribute("class") == "tray-die"}
    assert set(groups) == set(w.tray.placed)  # every die, nothing else
    for die_id, (x, y, s) in w.tray.placed.items():
        shape = groups[die_id].getElementsByTagName("rect")[0]
        assert float(shape.getAttribute("x")) == pytest.approx(x, abs=0.06)
        assert float(shape.getAttribute("y")) == pytest.approx(y, abs=0.06)
    faces = {d.id: d.face for row in w.tray.state.rows for d in row.dice}
    for die_id, g in groups.items():
        texts = [t.firstChild.data for t in g.getElementsByTagName("text")]
        assert str(faces[die_id]) == texts[0]
    cancelled = sum(d.cancelled for row in w.tray.state.rows for d in row.dice)
    assert snap.tray_svg().count("'>cancelled</text>") - 1 == cancelled  # minus the legend's
    assert snap.tray_svg().count("class='tray-link'") == len(w.tray.state.links)
    xml.dom.minidom.parseString(snap.to_svg())


def test_the_odds_bar_and_the_steps_are_the_explorers(w):
    snap = w.snapshot()
    bar = snap.odds_svg()
    widths = [float(m) for m in re.findall(r"class='odds-segment'[^>]*width='([\d.]+)'", bar)]
    assert sum(widths) == pytest.approx(760 - 20, abs=0.5)  # the outcomes cover the bar
    assert f"{100 * float(w.odds.p_a_wins):.1f}%" in bar
    page = snap.to_html()
    for step in w.trace.steps:
        assert step.title.split(":")[0].replace("'", "&#x27;") in page
    assert "<script" not in page


def test_a_notebook_without_a_kernel_gets_html_and_a_one_line_text(w):
    bundle = w._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle
    assert "explorer-f2f-snapshot" in bundle["text/html"]
    assert "\n" not in bundle["text/plain"] and len(bundle["text/plain"]) < 200


def test_the_snapshot_follows_a_change(w):
    w.set_die("B.1", 1)
    assert "data-die='B.1'" in w.snapshot().tray_svg()
    assert re.search(r"data-die='B\.1'>.*?>1</text>", w.snapshot().tray_svg())


def test_a_generic_tray_renders_tokens_criticals_and_ties():
    t = DiceTray(width=500)
    t.show([Row("A", [DieView("A.1", 14, "critical", survives=True), DieView("A.2", 9, cancelled=True)]),
            Row("MB", [DieView("MB", 12, token=True, cancelled=True)])],
           [Link("A.1", "MB"), Link("A.2", "MB", mutual=True)], title="t")
    svg = t.to_svg()
    xml.dom.minidom.parseString(svg)
    assert svg.count("<polygon") >= 2 and "stroke-dasharray='5 4'" in svg


def test_the_picker_opens_for_rolled_dice_only():
    t = DiceTray(width=500, picker=True)
    t.show([Row("A", [DieView("A.1", 14)]), Row("MB", [DieView("MB", 12, token=True)])])
    t.pick("MB")  # a Threat Level is an input, not a die to set
    assert t.picked is None and t.picker.layout.visibility == "hidden"
    got = []
    t.on_die_set(lambda die, face: got.append((die, face)))
    t.pick("A.1")
    t.face_buttons.value = "20"
    assert got == [("A.1", 20)]
