"""Tables that become cards on a phone (explorer.widgets.cards, issue 23 item 1)."""

from __future__ import annotations

import re

import pytest

from explorer.serving.phone import CARDS_CLASS, CARDS_HEAD_CLASS, PHONE_CSS
from explorer.widgets.cards import card_table
from explorer.widgets.scenario_stepper import detail_table


def test_every_cell_of_a_named_column_carries_its_name_and_the_header_row_is_marked():
    out = card_table(["hex", "", "why <b>"], [["6,1", "kept", "a &amp; b"], ["7,0"]],
                     row_attrs=[" class='r1'", ""])
    assert out.startswith(f"<table class='{CARDS_CLASS}' style='border-collapse:collapse'>"
                          f"<tr class='{CARDS_HEAD_CLASS}'>")
    assert "<th>why &lt;b&gt;</th>" in out
    assert re.findall(r"<td[^>]*>", out) == ["<td data-label='hex'>", "<td>", "<td data-label='why &lt;b&gt;'>",
                                             "<td data-label='hex'>"]
    assert "<tr class='r1'><td data-label='hex'>6,1</td>" in out and out.endswith("</tr></table>")


def test_bad_shapes_are_refused():
    with pytest.raises(ValueError, match="row 0 has 2 cells for 1 columns"):
        card_table(["a"], [["1", "2"]])
    with pytest.raises(ValueError, match="row_attrs has 0 entries for 1 rows"):
        card_table(["a"], [["1"]], row_attrs=[])


def test_the_step_tables_are_card_tables_and_the_phone_stylesheet_stacks_them():
    html = detail_table(["hex", "why"], [["6,1", "a < b"]], ["#eee"], "gd-ai-table")
    assert f"class='{CARDS_CLASS}'" in html and "data-label='why'>a &lt; b</td>" in html
    assert "<tr style='background:#eee'>" in html
    phone = PHONE_CSS.split("{", 1)[1]
    for rule in (f"table.{CARDS_CLASS} tr.{CARDS_HEAD_CLASS}", f"table.{CARDS_CLASS} tr > td[data-label]::before"):
        assert rule in phone
