"""Issue #12, the Line of Fire explorer's controls do what they say: selecting and moving are separate gestures,
rotate acts on the selected Model (the shooter, shown ringed), a message goes with the next action, touch works."""

from __future__ import annotations

import pytest

from explorer.games.tagraid.lof_views import MINER_ROTATE_STEP, LofExplorer
from explorer.hexgrid import Hex


@pytest.fixture
def explorer():
    return LofExplorer()


def _drag(bv, src, dst):
    bv._mouse_down(*bv.to_pixel(src))
    bv._mouse_move(*bv.to_pixel(((src[0] + dst[0]) / 2, (src[1] + dst[1]) / 2)))
    bv._mouse_up(*bv.to_pixel(dst))


def test_on_a_fresh_page_the_rotate_buttons_turn_the_shooter(explorer):
    bv = explorer.board_view
    assert bv.selected == explorer.shooter == "Cutter"
    before = explorer.models["Cutter"].facing
    bv.rotate_right.click()
    assert explorer.models["Cutter"].facing == pytest.approx((before + MINER_ROTATE_STEP) % 360)


def test_choosing_the_shooter_in_the_dropdown_selects_it_for_the_rotate_buttons(explorer):
    others = {k: m.facing for k, m in explorer.models.items() if k != "Digger"}
    explorer.shooter_pick.value = "Digger"
    assert explorer.board_view.selected == "Digger"
    before = explorer.models["Digger"].facing
    explorer.board_view.rotate_left.click()
    assert explorer.models["Digger"].facing == pytest.approx((before - MINER_ROTATE_STEP) % 360)
    assert {k: m.facing for k, m in explorer.models.items() if k != "Digger"} == others


def test_dragging_a_model_moves_it_without_making_it_the_shooter(explorer):
    src = explorer.models["Digger"].center
    dst = explorer.scenario.board.layout.hex_to_pixel(Hex(6, 11))
    _drag(explorer.board_view, src, dst)
    assert explorer.models["Digger"].center == pytest.approx(dst)
    assert explorer.shooter == "Cutter" and explorer.board_view.selected == "Cutter"


def test_a_refused_drag_neither_moves_nor_selects_and_the_next_action_clears_the_message(explorer):
    src = explorer.models["Digger"].center
    _drag(explorer.board_view, src, explorer.scenario.board.layout.hex_to_pixel(Hex(6, 8)))  # no tile there
    assert "Not allowed" in explorer.message.value
    assert explorer.shooter == "Cutter" and explorer.models["Digger"].center == src
    explorer.board_view.rotate_right.click()  # the next action: the old message goes
    assert explorer.message.value == ""
    _drag(explorer.board_view, src, explorer.scenario.board.layout.hex_to_pixel(Hex(6, 8)))
    assert "Not allowed" in explorer.message.value
    explorer.ruling_inputs["lof_grazing"].value = next(r for r in explorer.ruling_inputs["lof_grazing"].options
                                                       if r != explorer.ruling_inputs["lof_grazing"].value)
    assert explorer.message.value == ""


def test_a_click_on_an_empty_hexagon_keeps_the_shooter_selected(explorer):
    bv = explorer.board_view
    x, y = bv.to_pixel(explorer.scenario.board.layout.hex_to_pixel(Hex(6, 11)))
    bv._mouse_down(x, y)
    bv._mouse_up(x, y)
    assert bv.selected == "Cutter" and "hex (6, 11)" in explorer.message.value
    bv.rotate_right.click()
    assert explorer.message.value == ""


def test_a_tap_picks_the_shooter(explorer):
    bv = explorer.board_view
    at = bv.to_pixel(explorer.models["Digger"].center)
    bv.canvas._canvases[-1]._touch_start_callbacks([at])
    bv.canvas._canvases[-1]._touch_end_callbacks([])
    assert explorer.shooter == "Digger" and bv.selected == "Digger"
