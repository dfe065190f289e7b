"""The A.I. stepper page's model (ai_views): one frame per trace step, the rule table following the steps, figures
moved where the trace says, the path and the end-hex candidates drawn, back and forward giving the same frames."""

from __future__ import annotations

import pytest

from explorer.games import get_game
from explorer.games.galaxydefenders.ai_views import (AIStepper, activation_scenarios, area_board, area_overlays,
                                                     pictures, rules_html, second_name, start_positions)
from explorer.games.galaxydefenders.activation import parse_map, play_activation
from explorer.hexgrid import Hex
from explorer.render.svg import HexMark, Segment

GAME = get_game("galaxydefenders")


def test_the_page_is_registered_for_activation_scenarios():
    page = GAME.page("ai")
    assert page.kinds == ("activation",)
    assert set(activation_scenarios()) == {s.name for s in GAME.scenarios() if s.kind == "activation"}
    assert len(activation_scenarios()) >= 6


@pytest.mark.parametrize("sid", activation_scenarios())
def test_frames_follow_the_trace(sid):
    kind, sc = GAME.load_builtin(sid)
    kframes, trace = play_activation(sc)
    assert trace.to_json() == GAME.resolve((kind, sc)).to_json()
    fr = pictures(kframes, sc)
    assert len(fr) == len(trace.steps)
    o = trace.outcome
    assert fr[-1].positions[sc.activating.name][0] == Hex.parse(o["end"])
    for name, at in o["figures"].items():        # Seize moves the seized agent; nobody else moves
        assert fr[-1].positions[name][0] == Hex.parse(at)
    if "second" in o:                             # a Prime Swarm's other figure / a multi-hex alien's base
        assert fr[-1].positions[second_name(sc)][0] == Hex.parse(o["second"])
        assert len(fr[-1].positions) == len(sc.figures) + 2
    checked = {s.facts["behavior"]: s.facts["applies"] for s in trace.steps if "behavior" in s.facts}
    assert {i: v[0] for i, v in fr[-1].verdicts.items()} == checked
    if o["rule"] is not None:
        assert checked[o["rule"]] is True
        assert all(i > o["rule"] for i in range(len(sc.rules)) if i not in checked)
    for i, s in enumerate(trace.steps):          # verdicts only grow, one rule per behavior step
        assert set(fr[i].verdicts) == {t.facts["behavior"] for t in trace.steps[:i + 1] if "behavior" in t.facts}
        if "path" in s.facts and len(s.facts["path"]) > 1:
            assert sum(isinstance(v, Segment) for v in fr[i].overlays) >= len(s.facts["path"]) - 1
        if "end" in s.facts:
            marks = [v for v in fr[i].overlays if isinstance(v, HexMark) and v.fill != "none"]
            assert len(marks) == len(s.facts["candidates"])


def test_the_rule_table_says_pass_fail_and_why():
    kind, sc = GAME.load_builtin("gd-ai-npc-plus")
    kframes, trace = play_activation(sc)
    assert trace.to_json() == GAME.resolve((kind, sc)).to_json()
    fr = pictures(kframes, sc)
    text = rules_html(sc, fr[-1].verdicts, trace.outcome["rule"], True)
    assert text.count("does not apply") == 2 and text.count("APPLIES") == 1
    first = next(i for i, s in enumerate(trace.steps) if "behavior" in s.facts)
    early = rules_html(sc, fr[first].verdicts, trace.outcome["rule"], False)
    assert early.count("does not apply") == 1 and early.count("…") == 2
    why = next(s.detail for s in trace.steps if s.facts.get("behavior") == 0)
    assert why in text


def test_areas_are_shaded_and_sides_drawn():
    kind, sc = GAME.load_builtin("gd-ai-move-adjacent")
    amap = parse_map(sc, "t")
    board = area_board(amap)
    assert len(board.edge_features) == len(sc.edges) == 8
    ov = area_overlays(amap)
    tints = {v.fill for v in ov if isinstance(v, HexMark)}
    assert len(tints) == len(sc.areas)
    assert sum(isinstance(v, HexMark) for v in ov) == len(amap.area_of) - len(amap.blocking)


def test_the_widget_steps_forward_and_back_to_the_same_board():
    w = AIStepper("gd-ai-seize-1")
    n = len(w.trace.steps)
    seen = []
    for _ in range(n):
        w.stepper.go(+1)
        seen.append((dict(w.board.pieces), list(w.board.overlays), w.rules.value))
    assert w.stepper.index == n - 1
    for i in range(n - 1, -1, -1):
        assert (dict(w.board.pieces), list(w.board.overlays), w.rules.value) == seen[i]
        w.stepper.go(-1)
    w.stepper.select(None)
    assert {p: w.board.pieces[p].center for p in w.board.pieces} == {
        n: w.board.board.layout.hex_to_pixel(h) for n, (h, _) in start_positions(w.scenario).items()}
    w.rulings_box["line_of_sight"].value = "strict"
    assert w.trace.rulings.get("line_of_sight") == "strict"
    w.picker.value = "gd-ai-no-rule"
    assert w.trace.outcome["rule"] is None and "no behavior rule" in w.outcome.value


def test_activation_scenarios_draw_their_map_combats_their_dice_and_the_others_nothing():
    """``explorer render`` / the docs: an activation scenario draws its map as the trace leaves it, a combat its
    dice tray (issue 23 item 3); the kinds without map or dice draw record cards of their outcome
    (:mod:`explorer.games.galaxydefenders.phase_picture`)."""
    from explorer.games.galaxydefenders.phase_picture import KINDS

    for s in GAME.scenarios():
        sc = GAME.load_builtin(s.name)
        svg = GAME.picture(sc, GAME.resolve(sc))
        if s.kind == "activation":
            assert svg.startswith("<svg") and "Area" in svg and svg.count("<circle") >= 2
        elif s.kind == "combat":
            assert svg.startswith("<svg") and "explorer-dice-tray" in svg, s.name
        elif s.kind in KINDS:
            assert svg.startswith("<svg") and "explorer-sheet" in svg, s.name
        else:
            assert svg is None, s.name


@pytest.mark.parametrize("sid, change, start", [
    # a multi-hex alien whose base hex (1,1) is closer to the target than its face hex (0,1): 11.8 reads from the
    # base's closest hex, and the targeting and rule lines start there (they started at the face hex)
    ("gd-ai-multi-hex", {"at": "0,1", "base": "1,1"}, "1,1"),
    # a Prime Swarm: the figure on 4,1 is the closer to the target (11.6); the targeting line starts there, before
    # the lead step moves the page's mover to it
    ("gd-ai-prime-swarm", {}, "4,1"),
])
def test_targeting_and_rule_lines_start_at_the_hex_the_rules_used(sid, change, start):
    from explorer.games.galaxydefenders.activation import RuleVerdict, Targeted
    from explorer.games.galaxydefenders.map_draw import area_board_layout

    kind, sc = GAME.load_builtin(sid)
    sc = sc.model_copy(update={"activating": sc.activating.model_copy(update=change)})
    kframes, trace = play_activation(sc)
    fr = pictures(kframes, sc)
    px = area_board_layout().hex_to_pixel
    at = px(Hex.parse(start))
    notes = [n for f in kframes for n in f.state.notes[len(f.state.notes) - len(f.steps):]]
    checked = 0
    for i, n in enumerate(notes):
        if isinstance(n, (Targeted, RuleVerdict)) and n.at is not None:
            assert n.at == Hex.parse(start)
            lines = [v for v in fr[i].overlays if isinstance(v, Segment)]
            assert lines and lines[0].p0 == at
            checked += 1
    assert checked >= 2


def test_the_link_reopens_the_scenario_the_readings_and_the_focused_step():
    """Issue 23 (every page's state in its URL): the A.I. page's link carries the focused step, as the Mass Effect
    activation and D.A.G.G.E.R. pages' do; a fresh page opened from it shows the same step."""
    from explorer.urlstate import decode_state, encode_state

    w = AIStepper("gd-ai-archenemy")
    assert w.url_state()["step"] is None
    w.stepper.select(5)
    state = w.url_state()
    assert state["scenario"] == "gd-ai-archenemy" and state["step"] == 5
    fresh = AIStepper()
    fresh.load_url_state(decode_state(encode_state(state)))
    assert fresh.url_state() == state and fresh.stepper.index == 5
    assert fresh.detail.value == w.detail.value and "why" in fresh.detail.value


@pytest.mark.parametrize("step", [99, "2", True, -1])
def test_a_bad_step_in_a_link_is_refused_and_the_page_keeps_what_it_showed(step):
    from explorer.errors import ScenarioError

    w = AIStepper()
    before = w.url_state()
    with pytest.raises(ScenarioError) as e:
        w.load_url_state({"scenario": "gd-ai-archenemy", "step": step})
    assert "field 'step'" in str(e.value) and "null or a whole number from 0 to" in str(e.value)
    assert w.url_state() == before
