"""The Order Expenditure Sequence stepper on a Round (``kind = "round"``): "Order k of n", the table each Order
leaves carried into the next, ◀ / ▶ across Orders, edits replayed into the later Orders, download and link."""

from dataclasses import replace

import pytest

from explorer.errors import ScenarioError
from explorer.games import get_game
from explorer.games.tagraid.orders.declarations import MoveDecl
from explorer.games.tagraid.orders.sequence import STEPS
from explorer.games.tagraid.orders_views import OrderStepper, order_scenarios
from explorer.hexgrid import Hex
from explorer.scenario import read_toml

ROUND = "tr-round-stoorworm"
G = get_game("tagraid")


@pytest.fixture(scope="module")
def stepper():
    return OrderStepper(ROUND)


def test_round_opens_at_order_1_with_the_events_phase_played(stepper):
    w = stepper
    w.show_order(0)
    assert ROUND in order_scenarios() and w.round is not None and w.order_index == 0
    assert "Order <b>1</b> of 3" in w.order_where.value and "blue" in w.order_where.value
    # the Events Phase deployed the Stoorworm before Order 1: the Order's table has it
    assert w.initial.megabeast is not None and w.initial.geometry.hex_of(w.initial.megabeast.x,
                                                                          w.initial.megabeast.y) == Hex(2, 1)
    assert "green deploys Stoorworm" in w.round_info.value and "Winner: blue" in w.round_info.value
    assert w.round_box.layout.display == "" and w.order_back.disabled and not w.order_forward.disabled


def test_the_table_an_order_leaves_is_the_next_orders_table(stepper):
    w = stepper
    w.show_order(0)
    after_1 = w.frames[-1].state
    w.show_order(1)
    t = w.initial
    assert t.miner("Active TAG").orders == 1 and (t.miner("Active TAG").x, t.miner("Active TAG").y) == (
        after_1.miner("Active TAG").x, after_1.miner("Active TAG").y)
    assert t.megabeast.wounds == after_1.megabeast.wounds == 9 and t.active is None
    w.show_order(2)
    assert w.initial.miner("Reactive TAG").wounds == after_1.miner("Reactive TAG").wounds


def test_forward_and_back_cross_orders(stepper):
    w = stepper
    w.show_order(0)
    w.show(len(STEPS))
    assert not w.forward.disabled
    w.go(+1)
    assert (w.order_index, w.position) == (1, 0)
    w.go(-1)
    assert (w.order_index, w.position) == (0, len(STEPS))
    w.show(0)
    w.go(-1)
    assert (w.order_index, w.position) == (0, 0) and w.back.disabled
    w.show_order(2)
    w.show(len(STEPS))
    assert w.forward.disabled and w.order_forward.disabled  # the last Order of the Round
    w.show_order(7)  # no such Order: nothing changes
    assert w.order_index == 2


def test_an_edit_is_replayed_into_the_later_orders():
    w = OrderStepper(ROUND)
    w.show_order(0)
    # Order 1's Move now ends one hexagon short: Order 2 starts from there
    c = w.initial.geometry.layout.hex_to_pixel(Hex(-2, 1))
    w._set_decl(w.decl.__class__(w.decl.active, MoveDecl((c,), 0.0), w.decl.second, w.decl.aros), "order.move")
    assert w.rejection is None
    w.show_order(1)
    a = w.initial.miner("Active TAG")
    assert (round(a.x, 6), round(a.y, 6)) == (round(c[0], 6), round(c[1], 6))
    # the download is a round file that plays the edited Round
    sc = G.parse({k: v for k, v in read_toml("x", text=w.to_toml()).items() if k != "game"}, "x")
    o = G.resolve(sc).outcome
    assert o["orders_played"] == 3 and o["miners"]["Active TAG"]["position"] == [round(c[0], 6), round(c[1], 6)]
    assert "round.toml" in w.download.value


def test_link_state_round_trip_and_bad_links(stepper):
    w = stepper
    w.show_order(1)
    w.show(5)
    st = w.url_state()
    assert st["scenario"] == ROUND and st["order_index"] == 1 and len(st["orders"]) == 3
    other = OrderStepper()
    other.load_url_state(st)
    assert (other.order_index, other.position) == (1, 5) and other.round is not None
    with pytest.raises(ScenarioError, match="order_index"):
        other.load_url_state({**st, "order_index": -1})
    with pytest.raises(ScenarioError, match=r"orders\[0\]"):
        other.load_url_state({**st, "orders": [{"active": "A", "teleport": 1}]})
    assert other.round is not None and other.order_index == 1  # a bad link keeps the state


def test_an_order_file_hides_the_round_navigator():
    w = OrderStepper()
    assert w.round is None and w.round_box.layout.display == "none"
    w.load_builtin(ROUND)
    assert w.round is not None and w.round_box.layout.display == ""
    w.load_builtin("book-oes-order")
    assert w.round is None and w.round_box.layout.display == "none" and "order.toml" in w.download.value


def test_each_order_of_the_round_is_exactly_what_the_round_engine_plays(stepper):
    from explorer.games.tagraid.orders.round import PlayedOrder, play_orders, play_round

    sc = G.load_builtin(ROUND)
    events = play_round(sc.initial, sc.declarations, upto=2)[-1].state
    played = [e for e in play_orders(events, sc.declarations) if isinstance(e, PlayedOrder)]
    assert len(played) == 3
    for k, p in enumerate(played):
        stepper.show_order(k)
        # the two replays load the board separately (a geometry compares by identity), and the stepper writes an
        # ARO "at its right" with its step: compare the rest
        def norm(st):
            return replace(st, geometry=None, aros=tuple((m, replace(d, step=None)) for m, d in st.aros))

        assert norm(stepper.initial) == norm(p.before)
        assert [(f.name, norm(f.state), f.steps) for f in stepper.frames] == [(f.name, norm(f.state), f.steps)
                                                                              for f in p.frames]


def test_add_order_plays_from_the_table_the_last_order_leaves():
    w = OrderStepper(ROUND)
    w.show_order(2)
    after_3 = w.frames[-1].state
    w.add_order()
    assert (w.order_index, len(w.round_orders)) == (3, 4) and w.decl.active == "Reactive TAG"  # red has 1 Order left
    assert w.initial.miner("Reactive TAG").orders == after_3.miner("Reactive TAG").orders == 1
    assert w.rejection is None and "Order <b>4</b> of 4" in w.order_where.value
    w.add_order()
    assert w.decl.active == "Green TAG"   # red has no Order left: green's Turn comes next in the Timeline
    sc = G.parse({k: v for k, v in read_toml("x", text=w.to_toml()).items() if k != "game"}, "x")
    assert G.resolve(sc).outcome["orders_played"] == 5


def test_every_css_class_is_one_token_for_miner_ids_with_spaces(stepper):
    """The Round's Miners are "Active TAG", "Reactive TAG"...: a class with a space makes the browser's
    ``classList.add`` throw (seen in JupyterLab), so every class of the widget tree is one token, and the ARO rows
    keep distinct hooks."""
    import ipywidgets as W

    from explorer.widgets.layout import class_token

    def walk(w):
        yield w
        for c in getattr(w, "children", ()):
            if isinstance(c, W.Widget):
                yield from walk(c)

    stepper.show_order(2)
    classes = [c for w in walk(stepper) for c in getattr(w, "_dom_classes", ())]
    assert classes and not [c for c in classes if not c or any(ch.isspace() for ch in c)]
    aro = sorted(c for c in classes if c.startswith("oes-aro-"))
    assert aro == sorted(f"oes-aro-{class_token(m)}" for m in ("Active TAG", "Green TAG"))
    assert class_token("Red TAG") == "Red_20_TAG" and class_token("R") == "R"
    assert class_token("a b") != class_token("a_b") != class_token("a-b")


def test_the_megabeasts_move_in_aro_is_drawn_from_where_it_stood(stepper):
    """Order 1: the Stoorworm's Behavior moves it when it declares its ARO (step 2.2); its LoF witness was drawn from
    where it stood at 2.1, so the board marks that base (dashed) and an arrow to where it stands now. Order 2 starts
    on the table Order 1 left: no move drawn there."""
    import math

    from explorer.games.tagraid.orders_svg import board_overlays
    from explorer.render.svg import Circle, Segment

    stepper.show_order(0, 4)
    st = stepper.frames[3].state
    assert st.megabeast_moved is not None
    (x0, y0), (x1, y1) = st.megabeast_moved
    assert (st.megabeast.x, st.megabeast.y) == pytest.approx((x1, y1))
    ov = board_overlays(st, 4)
    was = [o for o in ov if isinstance(o, Circle) and o.title and "before its move in ARO" in o.title]
    assert len(was) == 1 and was[0].center == pytest.approx((x0, y0))
    arrow = [o for o in ov if isinstance(o, Segment) and o.arrow and o.title and "moves in ARO" in o.title]
    assert len(arrow) == 1
    a = arrow[0]  # from the old base's edge towards the new one, along the move
    assert math.dist(a.p0, (x0, y0)) < math.dist(a.p0, (x1, y1))
    assert math.dist(a.p1, (x1, y1)) < math.dist(a.p1, (x0, y0))
    stepper.show_order(1, 0)
    assert not [o for o in board_overlays(stepper.initial, 0) if getattr(o, "title", None)
                and "in ARO" in o.title]
    stepper.show_order(0)


def test_the_route_dropped_by_an_interaction_is_drawn_from_where_the_move_stopped():
    """tr-round-loot, Order 2: the Move declared to 0,0 interacts with the Loot Token and ends on reaching
    Silhouette Contact; the rest of the declared route is drawn (grey dashes) from where it stopped to its end."""
    from explorer.render.svg import Poly

    w = OrderStepper("tr-round-loot")
    w.show_order(1, -1)
    st = w.frames[-1].state
    declared_end = w.decl.move.route[-1]
    stop = st.routes[0][-1]
    assert stop != pytest.approx(declared_end)  # the engine cut the route
    a = st.miner(w.decl.active)
    assert (a.x, a.y) == pytest.approx(stop)
    dropped = [o for o in w.overlays() if isinstance(o, Poly) and o.title and o.title.startswith("dropped")]
    assert len(dropped) == 1 and dropped[0].points[0] == pytest.approx(stop)
    assert dropped[0].points[-1] == pytest.approx(declared_end) and "Loot Red TAG" in dropped[0].title
    w.show_order(2, -1)  # Order 3's route to C1 is cut too; Order 1 has no Move: nothing dropped
    assert len([o for o in w.overlays() if isinstance(o, Poly) and (o.title or "").startswith("dropped")]) == 1
    w.show_order(0, -1)
    assert not [o for o in w.overlays() if isinstance(o, Poly) and (o.title or "").startswith("dropped")]


@pytest.mark.parametrize("name", [ROUND, "tr-match-two-rounds", "tr-order-corner"])
def test_an_opened_file_shows_its_outcome_block_as_explorer_resolve_prints_it(name):
    import html
    import re

    text = re.sub(r"(?m)^title = .*$", 'title = "My own file"', G.scenario_text(name), count=1)
    w = OrderStepper(ROUND)
    w.load_toml(text, "mine.toml")
    want = G.verdict(G.parse_data(read_toml("mine.toml", text=text), "mine.toml"))
    assert want == G.builtin_verdict(name)[1]                          # only the title differs from the built-in
    assert w.note.scenario_id == "mine.toml" and "file <b><code>mine.toml</code></b>: My own file" in w.note.value
    assert f">{html.escape(want)}</pre>" in w.note.value and not w.note.changed
    again = OrderStepper(ROUND)                                         # its link: the same block
    again.load_url_state(w.url_state())
    assert f">{html.escape(want)}</pre>" in again.note.value
