"""The Orders page's "ends on" control (issue 22): the surface the first Move ends on — the ground or the top of a
scenery piece with a height (Move › Effects) — set on the page as a file sets ``move.on``; it follows route edits and
travels in the link and the downloaded file."""

from __future__ import annotations

import copy

from explorer.games.tagraid.orders_views import OrderStepper
from explorer.urlstate import decode_state, encode_state


def test_control_lists_the_pieces_with_a_height_and_shows_the_files_surface():
    w = OrderStepper("tr-elev-climb-order")
    assert [v for _, v in w.stand_pick.options] == ["", "block", "wall"]
    assert w.stand_pick.value == "block" and w.stand_pick.layout.display == ""
    # a flat table has nothing to stand on: the control is hidden
    flat = OrderStepper("tr-16-order")
    assert [v for _, v in flat.stand_pick.options] == [""] and flat.stand_pick.layout.display == "none"


def test_stepping_down_then_back_up_sets_move_on_and_replays():
    w = OrderStepper("tr-elev-climb-order")
    w.stand_pick.value = ""                     # ends on the ground: every point on A's own surface -> on omitted
    assert w.decl.move.on is None and "on" not in w.url_state()["order"]["move"]
    ground = [s.title for f in w.frames for s in f.steps]
    w.stand_pick.value = "block"                # back on top: the climb replays
    assert w.decl.move.on == (None, "block") and w.rejection is None
    assert w.url_state()["order"]["move"]["on"] == ["", "block"]
    on_top = [s.title for f in w.frames for s in f.steps]
    assert on_top != ground and any("climb" in t.lower() for t in on_top)


def test_a_route_point_added_or_undone_keeps_one_surface_per_point():
    w = OrderStepper("tr-elev-climb-order")
    w.undo_route_point()
    assert w.decl.move.on == (None,) or w.decl.move.on is None
    assert w.stand_pick.value == ""
    w.stand_pick.value = "block"
    assert len(w.decl.move.on) == len(w.decl.move.route)
    w.clear_route_points()
    assert w.decl.move.on is None and w.stand_pick.value == ""
    w.stand_pick.value = "block"                # no route: nothing to end on, the message says so
    assert w.decl.move.on is None and w.stand_pick.value == "" and "draw the Move first" in w.move_error.value


def test_the_surface_travels_in_the_link_and_the_file():
    w = OrderStepper("tr-elev-climb-order")
    w.stand_pick.value = ""
    v = OrderStepper("tr-16-order")
    v.load_url_state(decode_state(encode_state(copy.deepcopy(w.url_state()))))
    assert v.url_state() == w.url_state() and v.stand_pick.value == "" and v.decl.move.on is None
    import tomllib

    assert "on" not in tomllib.loads(w.to_toml())["order"]["move"]
    w.stand_pick.value = "block"
    assert tomllib.loads(w.to_toml())["order"]["move"]["on"] == ["", "block"]
