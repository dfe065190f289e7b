"""HexBoardView: pixel <-> hex <-> piece hit-testing, one canvas message per layer redraw, events."""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings, strategies as st

from explorer.board import load_board, small_board
from explorer.hexgrid import Hex
from explorer.render.svg import Circle, HexMark, Label, Poly, Segment
from explorer.widgets.hexboard import LAYERS, HexBoardView, Piece, rgb


def _count(view) -> list:
    sent = []
    view.canvas._canvas_manager._send_custom = lambda cmd, buffers=[]: sent.append(cmd)
    return sent


@pytest.fixture(scope="module")
def board():
    return load_board("fixture")


def test_layers_share_one_private_manager(board):
    v = HexBoardView(board)
    mgrs = {id(v.layers[n]._canvas_manager) for n in LAYERS}
    assert len(mgrs) == 1 and v.canvas._canvas_manager is v.layers["terrain"]._canvas_manager
    from ipycanvas.canvas import _CANVAS_MANAGER
    assert v.canvas._canvas_manager is not _CANVAS_MANAGER
    assert v.canvas._canvas_manager is not HexBoardView(board).canvas._canvas_manager


def test_pixel_to_hex_uses_the_engine_layout(board):
    v = HexBoardView(board, scale=20)
    for h in list(board)[::17]:
        x, y = v.to_pixel(board.layout.hex_to_pixel(h))
        assert v.hex_at(x, y) == h
        # a point well inside the hex, towards a corner
        cx, cy = board.layout.corners(h)[2]
        hx, hy = board.layout.hex_to_pixel(h)
        assert v.hex_at(*v.to_pixel((hx + 0.8 * (cx - hx), hy + 0.8 * (cy - hy)))) == h
    assert v.hex_at(-50, -50) is None


@settings(max_examples=60, deadline=None)
@given(st.floats(-5, 40), st.floats(-5, 30))
def test_to_pixel_and_back(x, y):
    v = _VIEW
    bx, by = v.to_board(*v.to_pixel((x, y)))
    assert abs(bx - x) < 1e-9 and abs(by - y) < 1e-9
    expect = _BOARD.layout.pixel_to_hex((x, y))
    # a point within a hair of a hexagon's edge (e.g. x = 2.2e-16, y = 1.0, on the edge of (0, 0) and (0, 1)) is
    # decided by the last bit of the pixel round trip: only points clear of every edge must agree
    near = {_BOARD.layout.pixel_to_hex((x + dx, y + dy)) for dx in (-1e-7, 1e-7) for dy in (-1e-7, 1e-7)}
    assume(near == {expect})
    h = v.hex_at(*v.to_pixel((x, y)))
    assert h == (expect if expect in _BOARD else None)


_BOARD = small_board()
_VIEW = HexBoardView(_BOARD, scale=30)


def test_piece_hit_testing_picks_the_piece_under_the_pointer():
    v = HexBoardView(_BOARD, scale=30)
    v.set_pieces([Piece("a", (0.0, 0.0), 0.4), Piece("b", (1.2, 0.0), 0.4)])
    assert v.piece_at(*v.to_pixel((0.1, 0.1))) == "a"
    assert v.piece_at(*v.to_pixel((1.4, -0.1))) == "b"
    assert v.piece_at(*v.to_pixel((0.6, 0.0))) is None  # between the bases
    with pytest.raises(ValueError):
        v.set_pieces([Piece("a", (0, 0), 0.4), Piece("a", (1, 1), 0.4)])


def test_each_layer_redraw_is_one_message():
    v = HexBoardView(load_board("fixture"))
    v.set_pieces([Piece(f"p{i}", (1.0 + 2 * i, 3.0), 0.3, facing=30.0 * i, label=str(i)) for i in range(6)])
    sent = _count(v)
    v.redraw_terrain()
    assert len(sent) == 1
    v.redraw_features()
    assert len(sent) == 2
    v.redraw_pieces()
    assert len(sent) == 2  # the layer already shows these pieces: nothing is sent again
    v.set_pieces([Piece(f"p{i}", (1.5 + 2 * i, 3.0), 0.3, facing=30.0 * i, label=str(i)) for i in range(6)])
    assert len(sent) == 3
    v.overlays = [Segment((0, 0), (5, 5), stroke="#1a9641", width=2.5),
                  Segment((0, 1), (5, 6), stroke="#d7191c", width=1.5, dash="5 3"),
                  HexMark(Hex(3, 3)), Label((1, 1), "x"), Poly([(0, 0), (1, 0), (1, 1)], fill="#ff0000"),
                  Circle((2, 2), 0.5, stroke="#e6a100", dash="4 2")]
    assert len(sent) == 4
    v.redraw()
    assert len(sent) == 5  # the four drawn layers in one held message (the layers share one canvas manager)


def test_click_selects_piece_or_hex_and_hover_reads_out_axial():
    v = HexBoardView(_BOARD, scale=30)
    v.set_pieces([Piece("a", (0.0, 0.0), 0.4)])
    got = []
    v.on_select(got.append)
    v._mouse_down(*v.to_pixel((0.0, 0.0)))
    v._mouse_up(*v.to_pixel((0.0, 0.0)))
    assert v.selected == "a"
    hx = _BOARD.layout.hex_to_pixel(Hex(1, 1))
    v._mouse_down(*v.to_pixel(hx))
    assert v.selected == "a" and got == ["a"]  # a press alone selects nothing: the release decides
    v._mouse_up(*v.to_pixel(hx))
    assert v.selected == Hex(1, 1) and got == ["a", Hex(1, 1)]
    v._mouse_move(*v.to_pixel(_BOARD.layout.hex_to_pixel(Hex(-1, 2))))
    assert v.hovered == Hex(-1, 2) and "(-1, 2)" in v.readout.value


def test_drag_reports_the_drop_point_and_keys_rotate():
    v = HexBoardView(_BOARD, scale=30)
    v.set_pieces([Piece("a", (0.0, 0.0), 0.4, facing=0.0)])
    moves, turns = [], []
    v.on_move(lambda pid, p: moves.append((pid, p)))
    v.on_rotate(lambda pid, d: turns.append((pid, d)))
    v._mouse_down(*v.to_pixel((0.0, 0.0)))
    v._mouse_move(*v.to_pixel((0.5, 0.5)))
    v._mouse_up(*v.to_pixel((1.0, 0.5)))
    assert moves and moves[0][0] == "a"
    assert abs(moves[0][1][0] - 1.0) < 1e-9 and abs(moves[0][1][1] - 0.5) < 1e-9
    assert v.selected is None  # a drag moves, it does not select (issue #12)
    v.select("a")
    v._key("e")
    v._key("q")
    v._wheel(0, 120)
    v.rotate_left.click()
    assert turns == [("a", 1), ("a", -1), ("a", 1), ("a", -1)]
    # a click without motion is not a move
    v._mouse_down(*v.to_pixel((0.0, 0.0)))
    v._mouse_up(*v.to_pixel((0.0, 0.0)))
    assert len(moves) == 1


def test_rgb_parsing():
    assert rgb("#1a9641") == (0x1A, 0x96, 0x41) and rgb("#fff") == (255, 255, 255)
    with pytest.raises(ValueError):
        rgb("green")


def test_zoom_resizes_the_canvas_keeps_hit_testing_and_is_one_message(board):
    v = HexBoardView(board, scale=20)
    v.set_pieces([Piece("p", board.layout.hex_to_pixel(Hex(3, 3)), 0.3)])
    calls = []
    v.on_zoom(lambda: calls.append(v.scale))
    w0 = v.canvas.width
    sent = _count(v)
    v.zoom_in.click()
    assert v.scale == pytest.approx(25.0) and calls == [25.0]
    assert v.canvas.width > w0 and v.canvas.layout.width == f"{v.canvas.width}px"
    assert len(sent) == 1  # the full redraw after a zoom: every layer in one message
    assert v.piece_at(*v.to_pixel(board.layout.hex_to_pixel(Hex(3, 3)))) == "p"
    assert v.hex_at(*v.to_pixel(board.layout.hex_to_pixel(Hex(5, 2)))) == Hex(5, 2)
    # zooming out is a pure view change: the finer drawing is kept and shown smaller, nothing is sent to the layers
    del sent[:]
    width = v.canvas.width
    v.zoom_out.click()
    assert v.shown_scale == pytest.approx(20.0) and v.scale == pytest.approx(25.0) and calls == [25.0]
    assert sent == [] and v.canvas.width == width
    assert v.canvas.layout.width == f"{width * 20 / 25:g}px"
    assert v.piece_at(*v.to_pixel(board.layout.hex_to_pixel(Hex(3, 3)))) == "p"   # canvas pixels: unchanged
    v.zoom_in.click()   # back to the drawing's own size: still nothing redrawn
    assert v.shown_scale == v.scale == pytest.approx(25.0) and sent == [] and v.canvas.layout.width == f"{width}px"
    v.fit(600, 400)   # much smaller than the drawing (more than REUSE_RATIO): drawn again at that size
    assert v.canvas.width <= 600 and v.canvas.height <= 400 and len(sent) == 1
    assert min(600 - v.canvas.width, 400 - v.canvas.height) <= 2  # one side fills its box
    v.set_scale(1e6)
    assert v.scale == v.SCALE_RANGE[1]


def test_a_zoom_out_or_fit_after_a_zoom_in_redraws_nothing_and_a_far_zoom_out_redraws(board):
    """Issue #24 item 3: a zoom within REUSE_RATIO of the drawing only changes the canvas's shown size."""
    v = HexBoardView(board, scale=20)
    v.fit()   # drawn at the fit resolution
    s0 = v.scale
    sent = _count(v)
    v.zoom_in.click()
    assert len(sent) == 1 and not v.fitted   # drawn again: every layer in one message
    del sent[:]
    v.zoom_fit.click()   # the fit resolution is coarser than the drawing: the drawing is shown fitted
    assert sent == [] and v.fitted and v.canvas.layout.width == "100%" and v.scale == pytest.approx(s0 * 1.25)
    v.zoom_out.click()   # 1.25 x 1.25 = 1.5625 times smaller than the drawing: still only shown smaller
    assert sent == [] and v.shown_scale == pytest.approx(s0 / 1.25) and v.scale == pytest.approx(s0 * 1.25)
    v.zoom_out.click()   # now more than REUSE_RATIO below the drawing: drawn again, at the new size
    assert len(sent) == 1 and v.shown_scale == v.scale == pytest.approx(s0 / 1.25 ** 2)
    assert v.canvas.layout.width == f"{v.canvas.width}px"


def test_a_drag_moves_without_selecting_and_rotate_acts_on_the_selection():
    """Issue #12: selecting and moving are separate gestures; rotate acts on the selected piece only."""
    v = HexBoardView(_BOARD, scale=30)
    v.set_pieces([Piece("a", (0.0, 0.0), 0.4, facing=0.0), Piece("b", (1.5, 0.0), 0.4, facing=0.0)])
    selected, moves, turns = [], [], []
    v.on_select(selected.append)
    v.on_move(lambda pid, p: moves.append(pid))
    v.on_rotate(lambda pid, d: turns.append((pid, d)))
    v.rotate_right.click()
    assert turns == []  # nothing selected: nothing turns
    v._mouse_down(*v.to_pixel((0.0, 0.0)))
    v._mouse_up(*v.to_pixel((0.0, 0.0)))
    assert v.selected == "a" and selected == ["a"]
    v._mouse_down(*v.to_pixel((1.5, 0.0)))  # drag b: it moves, a stays selected
    v._mouse_move(*v.to_pixel((1.5, 0.5)))
    v._mouse_up(*v.to_pixel((1.5, 0.8)))
    assert moves == ["b"] and v.selected == "a" and selected == ["a"]
    v.rotate_right.click()
    assert turns == [("a", 1)]
    v._mouse_down(*v.to_pixel((0.0, 0.0)))  # a drag that leaves the canvas is dropped, not a click
    v._mouse_move(*v.to_pixel((0.0, 0.6)))
    v._mouse_out(0, 0)
    v._mouse_up(*v.to_pixel((0.0, 0.0)))
    assert moves == ["b"] and selected == ["a"]


def test_touch_tap_selects_drag_moves_and_two_finger_twist_rotates():
    v = HexBoardView(_BOARD, scale=30)
    v.set_pieces([Piece("a", (0.0, 0.0), 0.4, facing=0.0)])
    selected, moves, turns = [], [], []
    v.on_select(selected.append)
    v.on_move(lambda pid, p: moves.append((pid, p)))
    v.on_rotate(lambda pid, d: turns.append((pid, d)))
    at = v.to_pixel((0.0, 0.0))
    v._touch_start([at])
    v._touch_end([])
    assert selected == ["a"] and v.selected == "a" and moves == []
    v._touch_start([at])
    v._touch_move([v.to_pixel((0.4, 0.4))])
    v._touch_move([v.to_pixel((1.0, 0.5))])
    v._touch_end([])  # the browser reports no touches left on release: the last move is the drop point
    assert len(moves) == 1 and moves[0][0] == "a"
    assert moves[0][1] == pytest.approx((1.0, 0.5))
    assert selected == ["a"]
    x, y = at
    v._touch_start([(x - 40, y), (x + 40, y)])
    v._touch_move([(x - 40, y), (x + 40, y)])  # no twist yet
    v._touch_move([(x - 40, y - 25), (x + 40, y + 25)])  # about 32 degrees clockwise on screen
    v._touch_end([(x - 40, y - 25)])
    v._touch_end([])
    assert turns == [("a", 1)] and len(moves) == 1 and selected == ["a"]


def test_the_board_fits_its_column_until_zoomed_and_fit_returns_to_it(board):
    v = HexBoardView(board, scale=20)
    assert v.fitted and "xr-fit" in v.canvas._dom_classes and v.canvas.layout.width == "100%"
    assert "xr-scroll" in v.frame._dom_classes and "xr-drawing" in v.canvas._dom_classes
    v.zoom_in.click()
    assert not v.fitted and "xr-fit" not in v.canvas._dom_classes
    assert v.canvas.layout.width == f"{v.canvas.width}px"
    v.zoom_fit.click()
    assert v.fitted and "xr-fit" in v.canvas._dom_classes and v.canvas.layout.width == "100%"
    minx, _, maxx, _ = board.bounds()
    assert v.canvas.width <= v.FIT[0] + 1
    assert HexBoardView(board, scale=20, fit_column=False).canvas.layout.width.endswith("px")


def test_set_style_sends_the_commands_attribute_assignment_sends():
    """explorer.widgets.canvas.set_style (the pieces and overlay layers' fast path) sends byte for byte the commands
    ``canvas.<name> = value`` sends, in the order given, inside one held message."""
    from ipycanvas.utils import commands_to_buffer

    from explorer.widgets.canvas import hold, own_canvas, set_style

    values = dict(fill_style="#1a9641", font="bold 11.5px sans-serif", text_align="left", line_width=3,
                  line_join="round", stroke_style="#ffffff", text_baseline="middle", line_cap="round")
    sent = []
    for fast in (False, True):
        c = own_canvas(40, 40)
        out = []
        c._canvas_manager._send_custom = lambda cmd, buffers=[], out=out: out.append(commands_to_buffer(cmd))
        with hold(c):
            if fast:
                set_style(c, **values)
            else:
                for k, v in values.items():
                    setattr(c, k, v)
        assert len(out) == 1
        sent.append(out[0][1].tobytes().split(b"]]", 1)[1])  # after the canvas switch (its id differs)
    assert sent[0] == sent[1] and sent[0].count(b"[") >= len(values)
    with pytest.raises(KeyError):
        set_style(own_canvas(4, 4), colour="#000000")


def test_piece_wedges_are_cached_and_drawn_as_before():
    """A front-arc wedge is computed once per centre, radius, facing and arc (a drag redraws every piece at each
    step); the cached polygon is the one the arithmetic gives and cannot be altered by a caller."""
    import math

    from explorer.widgets.hexboard import _wedge

    w = _wedge(100.0, 50.0, 12.0, 30.0, 180.0)
    assert _wedge(100.0, 50.0, 12.0, 30.0, 180.0) is w and w.shape == (20, 2)
    assert tuple(w[0]) == (100.0, 50.0)
    a = math.radians(30.0 - 90.0)
    assert tuple(w[1]) == (100.0 + 0.9 * 12.0 * math.cos(a), 50.0 + 0.9 * 12.0 * math.sin(a))
    with pytest.raises(ValueError):
        w[0, 0] = 1.0
