"""The Order Expenditure Sequence stepper (explorer.games.tagraid.orders_views) without a browser: the replay it
shows is the engine's, drawn routes, ARO rights where they appear, refused declarations beside their control (the
user's work kept), back / forward, dice, the link and the file."""

from __future__ import annotations

import copy
from dataclasses import replace

import pytest

from explorer.errors import ScenarioError
from explorer.games import get_game
from explorer.hexgrid import Hex
from explorer.render.embed import live_page
from explorer.render.svg import Circle, Segment
from explorer.games.tagraid.orders.orderfile import outcome
from explorer.games.tagraid.orders.sequence import STEPS, play, play_until_rejected
from explorer.games.tagraid.orders_views import (DEFAULT_ORDER, TARGETED, OrderStepper, board_overlays,
                                                 builtin_document, order_scenarios, parse_dice_text,
                                                 witness_position)

G = get_game("tagraid")


@pytest.fixture(scope="module")
def stepper():
    return OrderStepper()


def fresh(name: str = DEFAULT_ORDER) -> OrderStepper:
    return OrderStepper(name)


def test_page_is_registered_for_order_scenarios():
    page = G.page("orders")
    assert page.kinds == ("order", "round", "match")
    assert live_page(G, "order") == "orders" and live_page(G, "round") == "orders"
    assert live_page(G, "match") == "orders" and "tr-match-two-rounds" in order_scenarios()
    assert DEFAULT_ORDER in order_scenarios() and {"tr-16-order", "tr-18-order"} <= set(order_scenarios())


@pytest.mark.parametrize("name", [s.name for s in G.scenarios() if s.kind == "order"])
def test_the_stepper_replays_exactly_what_the_engine_plays(name):
    w = fresh(name)
    sc = G.load_builtin(name)
    assert [f.name for f in w.frames] == [n for n, _ in STEPS] and w.rejection is None
    # the file's declarations (an ARO "at its right" gets its step written out) played by the engine
    assert [(a.miner, a.skill, a.weapon) for a in w.decl.aros] == [(a.miner, a.skill, a.weapon)
                                                                   for a in sc.declarations.aros]
    assert outcome(w.frames) == outcome(play(sc.initial, sc.declarations, sc.dice))
    engine = play(w.initial, w.decl, w.dice)
    assert [(f.name, f.state, f.steps) for f in w.frames] == [(f.name, f.state, f.steps) for f in engine]
    for k in range(len(STEPS) + 1):  # going back is replaying fewer steps of the same log
        w.show(k)
        assert w.position == k
        assert w.state_at(k) == (w.initial if k == 0 else engine[k - 1].state)


def test_back_and_forward_clamp_and_buttons_follow():
    w = fresh()
    assert w.position == 0 and w.back.disabled and not w.forward.disabled
    w.go(-1)
    assert w.position == 0
    for k in range(1, len(STEPS) + 1):
        w.go(+1)
        assert w.position == k and f"step <b>{k}</b>" in w.where.value
    w.go(+1)
    assert w.position == len(STEPS) and w.forward.disabled
    assert "5.3 End of the Order" in w.step_list.value


def test_drawing_the_move_gains_the_aro_partway_and_the_witness_is_drawn_there():
    w = fresh()
    w.board_view.select("W")      # a click on a Miner activates it: a fresh Order
    assert w.decl.active == "W" and w.decl.move.route == () and w.position == 1
    w.board_view.select("A")
    assert w.decl.active == "A" and list(w.aro_rows) == ["W", "T"]
    w.board_view.select(Hex(-1, 0))
    assert w.position == 3 and w.verdicts() == {"W": "no right", "T": "no right"}   # still behind the wall
    w.board_view.select(Hex(0, 0))
    w.board_view.select(Hex(1, 0))
    assert w.verdicts()["W"] == "ARO at step 2: LoF on leg 2 of 3"
    assert w.verdicts()["T"] == "no right"
    st = w.state_at(3)
    right = st.right_of("W")
    route = st.routes[0]
    at = witness_position(right, route)
    # the ring is drawn on the route's second leg, past the wall's east end (x = -0.4), before the route ends
    assert route[1][1] == pytest.approx(at[1]) and -0.4 < at[0] < route[-1][0]
    ov = w.overlays()
    assert any(isinstance(o, Segment) and o.p0 == right.witness[0] and o.p1 == right.witness[1] for o in ov)
    assert any(isinstance(o, Circle) and o.center == pytest.approx(at) for o in ov)
    assert "W</b>: ARO at step 2: LoF on leg 2 of 3" in w.aro_rows["W"].info.value


def _declared_at(w) -> list[tuple[str, int]]:
    """``(Miner, step)`` of every ARO the replay declared, in order."""
    return [(s.facts["miner"], s.facts["step"]) for f in w.frames for s in f.steps
            if " declares " in s.title and " no ARO" not in s.title and "step" in s.facts and "skill" in s.facts]


def test_then_an_attack_gives_the_target_its_aro_at_step_4():
    w = fresh()
    w.board_view.select("W")
    w.board_view.select("A")
    for h in (Hex(-1, 0), Hex(0, 0), Hex(1, 0)):
        w.board_view.select(h)
    w.second_skill.value = "ranged_attack"
    w.targets.value = "T"
    assert w.position == 6 and w.verdicts()["T"] == "ARO at step 4: targeted"
    assert any(isinstance(o, Segment) and o.stroke == TARGETED["stroke"] for o in w.overlays())
    w.show(5)
    assert not any(isinstance(o, Segment) and o.stroke == TARGETED["stroke"] for o in w.overlays())
    w.aro_rows["W"].skill.value = "ranged_attack"
    # "at its right": kept unset in the declarations (the link keeps it), played at step 2 for W
    assert w.position == 4 and w.decl.aros[0].step is None and _declared_at(w) == [("W", 2)]
    w.aro_rows["T"].skill.value = "evade"
    assert w.position == 7 and [(a.miner, a.step) for a in w.decl.aros] == [("W", None), ("T", None)]
    assert _declared_at(w) == [("W", 2), ("T", 4)]
    w.show(len(STEPS))
    assert w.rejection is None
    out = w.outcome.value
    assert "Orders 2 → <b>1</b>" in out    # A spent its Order
    assert "Neomaterials" in out


def test_an_illegal_move_shows_reason_and_section_beside_the_control_and_keeps_the_route():
    w = fresh()
    before = w.decl.move.route
    w.board_view.select(Hex(4, 0))
    assert w.decl.move.route == before + (w.initial.geometry.layout.hex_to_pixel(Hex(4, 0)),)  # kept
    assert w.rejection is not None and w.rejection.step == "1.2 First Skill: Move"
    assert "may move 3 Segment" in w.move_error.value and "Common Skills › Move" in w.move_error.value
    assert "oes-refused" in w.step_list.value and w.position <= 2
    w.undo_route_point()
    assert w.rejection is None and w.move_error.value == ""


def test_an_aro_at_the_wrong_step_is_refused_beside_its_row():
    w = fresh()
    w.aro_rows["T"].step.value = 2
    assert w.rejection is not None and w.rejection.step == "2.2 ARO declaration"
    assert "no right to an ARO at step 2" in w.aro_rows["T"].error.value
    assert "Orders and AROs" in w.aro_rows["T"].error.value
    assert w.aro_rows["T"].skill.value == "evade"                   # the user's declaration is kept
    assert w.aro_rows["W"].error.value == ""
    w.aro_rows["T"].step.value = 0                                  # "at its right": step 4
    assert w.rejection is None


def test_dice_hand_set_bad_text_and_too_few_dice():
    w = fresh()
    w.show(len(STEPS))
    w.rolls.value = "A: 20 20 20; W: 7; T: 16"
    assert w.rejection is None and w.dice.of("A") == [20, 20, 20]
    assert w.state_at(8).resolution.miners["T"].wounds_lost == 0   # every die of A failed
    good = w.dice
    w.rolls.value = "A: 5 9 99"
    assert "not a d20 face" in w.dice_error.value and w.dice == good
    w.rolls.value = "Z: 5"
    assert "not a Miner" in w.dice_error.value
    w.rolls.value = "A: 5 9 14; W: 7; T: 16"
    w.saves.value = "T: 3"                                         # two Saving Rolls are needed
    assert w.rejection is not None and w.rejection.step == "5 Resolution"
    assert "dice are needed" in w.dice_error.value
    w.saves.value = "T: 3 17"
    assert w.rejection is None and w.dice_error.value == ""
    w.roll_new_dice()
    assert w.dice.rolls == () and w.rejection is None and w.rolls.value == ""


def test_parse_dice_text():
    assert parse_dice_text("A: 5 9 14; W: 7", "r", ["A", "W"]) == (("A", (5, 9, 14)), ("W", (7,)))
    assert parse_dice_text("", "r", ["A"]) == ()
    for bad in ("A 5", "A: 5; A: 6", "A: 0"):
        with pytest.raises(ScenarioError):
            parse_dice_text(bad, "r", ["A"])


def test_link_round_trip_and_bad_links():
    w = fresh()
    w.aro_rows["W"].skill.value = "evade"
    w.show(9)
    st = w.url_state()
    assert st["scenario"] == DEFAULT_ORDER and st["step"] == 9
    v = fresh("tr-16-order")
    v.load_url_state(copy.deepcopy(st))
    assert v.decl == w.decl and v.dice == w.dice and v.position == 9 and v.scenario_id == DEFAULT_ORDER
    assert outcome(v.frames) == outcome(w.frames)
    for bad, field in (({**st, "scenario": "nope"}, "scenario"), ({**st, "step": 99}, "step"),
                       ({**st, "order": {**st["order"], "active": 3}}, "order.active"),
                       ({**st, "bogus": 1}, "bogus")):
        with pytest.raises(ScenarioError) as e:
            v.load_url_state(bad)
        assert e.value.field.startswith(field)
        assert v.decl == w.decl and v.position == 9                    # state kept


def test_download_is_an_order_file_that_plays_the_same_order():
    w = fresh()
    w.aro_rows["T"].skill.value = "idle"
    text = w.to_toml()
    from explorer.scenario import read_toml

    doc = read_toml("order.toml", text=text)
    sc = G.parse_data(doc, "order.toml")
    t = G.resolve(sc)
    assert t.outcome["aros"] == {"W": "ranged_attack", "T": "idle"}
    assert sc.declarations == w.decl
    # an opened file (not a built-in) travels whole in the link
    v = fresh("tr-18-order")
    v.load_toml(text, "order.toml")
    assert v.scenario_id is None and "file" in v.url_state()
    u = fresh("tr-18-order")
    u.load_url_state(v.url_state())
    assert outcome(u.frames) == outcome(v.frames)


def test_a_bad_uploaded_file_names_its_field_and_keeps_the_state():
    w = fresh()
    doc = builtin_document(DEFAULT_ORDER)
    before = w.decl
    from explorer.tomlwrite import dumps

    doc["miners"][0]["wounds"] = 999
    with pytest.raises(ScenarioError, match="wounds"):
        w.load_toml(dumps(doc), "bad.toml")
    assert w.decl == before and w.scenario_id == DEFAULT_ORDER


def test_megabeast_redirection_is_drawn_before_and_after():
    doc = builtin_document("tr-18-order")
    doc["megabeast"] = {"id": "Stoorworm", "hex": "-1,3", "facing": 90.0, "wounds": 10,
                        "behavior": {"front": 16, "adjacent": 13, "opposite": 10, "angle_of_vision": 180.0}}
    doc["order"]["aros"] = []
    doc["order"]["second"]["targets"] = [{"target": "Stoorworm"}]   # attacked from behind: no ARO, it redirects
    w = fresh("tr-18-order")
    w.load_url_state({"file": doc, "step": 0})
    assert w.rejection is None
    w.show(len(STEPS))
    st = w.state_at(len(STEPS))
    assert st.megabeast_facing_before == 90.0 and st.megabeast.facing != 90.0
    assert board_overlays(st, 9) == [o for o in board_overlays(st, 9)]
    assert not any(isinstance(o, Segment) and o.arrow and o.p0 == (st.megabeast.x, st.megabeast.y)
                   for o in board_overlays(st, 9))                  # not before Conclusion
    arrows = [o for o in board_overlays(st, len(STEPS)) if isinstance(o, Segment) and o.arrow
              and o.p0 == (st.megabeast.x, st.megabeast.y)]
    assert len(arrows) == 2
    assert "(Conclusion)" in w.outcome.value


def test_switching_scenarios_and_the_engine_reasons_stay_cited():
    w = fresh()
    w.scenario_pick.value = "tr-16-order"
    d = G.load_builtin("tr-16-order").declarations
    assert w.scenario_id == "tr-16-order" and w.decl == d   # "at its right" stays unset, as in the file
    w.show(len(STEPS))
    frames, rej = play_until_rejected(w.initial, w.decl, w.dice)
    assert rej is None and w.frames[-1].state == frames[-1].state
    import html

    for f in frames:
        for s in f.steps:
            assert html.escape(s.title) in w.step_list.value
            assert f"[{html.escape(s.rule.section)}]" in w.step_list.value


def test_same_hexagon_without_lof_is_evade_only_and_marked_on_the_board():
    from explorer.render.svg import HexMark, Label

    doc = builtin_document("tr-18-order")
    doc["miners"][0]["hex"] = "-1,1"
    doc["order"] = {"active": "A", "move": {"route": [[1.13, 0.0]]}, "second": {"skill": "idle"},
                    "aros": [{"miner": "R", "skill": "evade"}]}
    doc["dice"] = {}
    w = fresh("tr-18-order")
    w.load_url_state({"file": doc, "step": 3})
    assert w.rejection is None and w.position == 3
    r = w.state_at(3).right_of("R")
    assert (r.reason, r.evade_only, r.step) == ("same_hexagon", True, 2)
    assert w.verdicts()["R"] == "ARO at step 2: same hexagon: Evade only"
    ov = w.overlays()
    assert any(isinstance(o, HexMark) and o.hex == Hex(1, 0) for o in ov)
    assert any(isinstance(o, Label) and "same hexagon, Evade only" in o.text for o in ov)


def test_dice_text_bounds():
    with pytest.raises(ScenarioError, match="characters"):
        parse_dice_text("A: 1 " * 1000, "r", ["A"])
    with pytest.raises(ScenarioError, match="faces"):
        parse_dice_text("A: " + "1 " * 61, "r", ["A"])
    assert len(parse_dice_text("A: " + "1 " * 60, "r", ["A"])[0][1]) == 60


def test_a_second_move_is_drawn_and_checked_at_step_4():
    w = fresh("tr-18-order")
    w.second_skill.value = "move"
    w.draw_pick.value = "second"
    w.board_view.select(Hex(-1, 1))
    assert w.decl.second.skill == "move" and len(w.decl.second.move.route) == 1
    # R's ARO at step 4 came from being the target: no Attack now, so no right, said beside R's row
    assert w.rejection.step == "4.2 ARO declaration" and "no right to an ARO at step 4" in w.aro_rows["R"].error.value
    w.aro_rows["R"].skill.value = ""
    assert w.rejection is None, w.rejection
    st = w.state_at(len(w.frames))
    assert len(st.routes) == 2 and st.routes[1][-1] == pytest.approx(w.initial.geometry.layout.hex_to_pixel(Hex(-1, 1)))
    # the second Move uses the second Movement value (2 Segments): a far hexagon is refused beside the Move controls
    w.board_view.select(Hex(3, -1))
    assert w.rejection is not None and w.rejection.step == "3 Second Skill"
    assert "Segment" in w.second_error.value
    w.undo_route_point()
    assert w.rejection is None and len(w.decl.second.move.route) == 1


def test_evade_movement_by_click_one_segment_no_aro():
    w = fresh("tr-16-order")                     # X Evades and wins against C: it may move one Segment
    assert w.decl.evade_moves and w.rejection is None
    w.clear_evade.click()
    assert w.decl.evade_moves == () and w.rejection is None
    w.draw_pick.value = "evade"
    assert w.evade_who.value == "X"
    w.board_view.select(Hex(1, -1))               # next to X's hexagon (0,0): one Segment
    assert w.rejection is None and w.position == 9
    assert w.state_at(9).miner("X").x == pytest.approx(w.initial.geometry.layout.hex_to_pixel(Hex(1, -1))[0])
    assert any("Evade movement" in s.title and "one Segment" in s.title for s in w.frames[8].steps)
    w.board_view.select(Hex(3, -3))               # too far for one Segment: refused beside the Evade controls
    assert w.rejection is not None and w.rejection.step == "5.1 Effects"
    assert "oes-error" in w.evade_text.value and w.message.value == ""
    w.evade_who.value = "B"                       # B has no successful Evade Roll
    w.clear_evade.click()
    w.board_view.select(Hex(2, 0))
    assert "no Evade movement" in w.evade_text.value


def test_the_open_picker_names_an_opened_file_then_the_builtin_again():
    """Newcomer finding: after a file was opened, the "Open" picker still named the built-in shown before, so the page
    claimed a scenario it no longer showed. An opened file (or a link carrying a file) is the picker's entry; opening
    a built-in drops that entry again."""
    w = fresh()
    text = w.to_toml()
    w.load_toml(text, "/tmp/some/where/my-order.toml")
    assert w.scenario_pick.label.startswith("file: ") and w.scenario_id is None
    assert "my-order.toml" in w.scenario_pick.label
    v = fresh("tr-18-order")
    v.load_url_state(w.url_state())
    assert v.scenario_pick.label.startswith("file: ")
    w.scenario_pick.value = "tr-18-order"          # the user picks a built-in: it opens, the file entry goes
    assert w.scenario_id == "tr-18-order" and w.scenario_pick.label == "tr-18-order"
    assert all(not str(o[0] if isinstance(o, tuple) else o).startswith("file: ") for o in w.scenario_pick.options)
