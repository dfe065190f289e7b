"""The enemy-activation stepper without a browser: every built-in activation scenario builds and steps; the board
follows the focused step (positions, kept/dropped end hexes, paths); rulings and the player's choices re-run the
resolution; clicking a kept end hex chooses it."""

from __future__ import annotations

import pytest

from explorer.games.masseffect.activation_views import (
    DEFAULT, ActivationStepper, activation_page, activation_scenarios, frames, scenario_data, scenario_map,
    start_positions)
from explorer.hexgrid import Hex
from explorer.render.svg import HexMark, Segment

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def test_lists_the_built_in_activation_scenarios():
    ids = activation_scenarios()
    assert {"me-03", "me-06", "me-07", "me-07-b", "me-07-c"} <= set(ids)
    assert any(i.startswith("me-hazard-") for i in ids) and "me-01" not in ids


@pytest.mark.parametrize("sid", ["me-03", "me-06", "me-07", "me-07-b", "me-07-c", "me-hazard-invalid",
                                 "me-hazard-spawn-rush"])
def test_every_step_has_a_frame_and_cites_its_section(sid):
    w = ActivationStepper(sid)
    assert len(w.frames) == len(w.trace.steps) > 0
    for i, step in enumerate(w.trace.steps):
        w.stepper.select(i)
        assert step.rule.section in w.stepper.focus.value        # the focused step shows its rulebook section
        assert w.board.overlays                                  # icons at least
    # the last frame's positions are the outcome's
    last = w.frames[-1].positions
    for name, o in w.trace.outcome["enemies"].items():
        assert str(last[name][0]) == o["hex"], name


def test_me03_advance_shows_kept_and_dropped_hexes_then_the_path():
    w = ActivationStepper("me-03")
    titles = [s.title for s in w.trace.steps]
    adv = next(i for i, t in enumerate(titles) if "Advances" in t)
    w.stepper.select(adv)
    kept_step = w.trace.steps[adv].facts["candidates"]
    fills = {o.hex: o.fill for o in w.board.overlays if isinstance(o, HexMark) and o.fill in ("#2b8a3e", "#e03131")}
    assert {str(h) for h, f in fills.items() if f == "#2b8a3e"} == {c["hex"] for c in kept_step if c["kept"]}
    assert len(fills) == len(kept_step)                          # every reachable end hex coloured
    assert "kept" in w.detail.value and "dropped" in w.detail.value
    assert w.frames[adv].positions["Husk"][0] == Hex(1, 0)        # not moved yet
    w.stepper.go(+1)                                              # the move: the path is drawn, the Husk has moved
    assert any(isinstance(o, Segment) and o.stroke == "#1c7ed6" for o in w.board.overlays)
    end = w.trace.outcome["enemies"]["Husk"]["hex"]
    assert str(w.frames[adv + 1].positions["Husk"][0]) == end
    assert w.board._pieces["Husk"].center == w.board.board.layout.hex_to_pixel(w.frames[adv + 1].positions["Husk"][0])


def test_clicking_a_kept_hex_chooses_it_and_dropdown_resets_it():
    w = ActivationStepper("me-03")
    adv = next(i for i, s in enumerate(w.trace.steps) if "movement_points" in s.facts)
    kept = [c["hex"] for c in w.trace.steps[adv].facts["candidates"] if c["kept"]]
    default_end = w.trace.outcome["enemies"]["Husk"]["hex"]
    other = next(h for h in kept if h != default_end)
    w.stepper.select(adv)
    q, r = (int(v) for v in other.split(","))
    w.board.select(Hex(q, r))                                     # same path as a click on the canvas
    assert w.trace.outcome["enemies"]["Husk"]["hex"] == other
    assert w.stepper.index == adv                                 # the focused step is kept
    dd = w.choices_box.children[0]
    assert dd.value == other and "Husk" in dd.description
    dd.value = DEFAULT
    assert w.trace.outcome["enemies"]["Husk"]["hex"] == default_end
    w.board.select(Hex(3, -3))                                    # a dropped hex: no choice made
    assert w.trace.outcome["enemies"]["Husk"]["hex"] == default_end


def test_ruling_dropdown_reruns_me07c_tie_and_target_choice():
    w = ActivationStepper("me-07-c")                              # 6 vs 6 Hit Points: the file chooses Tali
    assert w.trace.outcome["squadmates"]["Tali"]["shield_points"] == 1
    assert "attack_target" in [k for k, _, _ in w.open_choices()]
    dd = next(c for c in w.choices_box.children if "Target" in c.description)
    dd.value = "Wrex"                                             # the player breaks the tie the other way
    assert w.trace.outcome["squadmates"]["Wrex"]["shield_points"] == 2
    assert w.trace.outcome["squadmates"]["Tali"]["shield_points"] == 3
    w.rulings_box["fewest_hit_points"].value = "shields_and_hit_points"   # Wrex 4 + 6 > Tali 3 + 6: no tie
    assert w.trace.rulings["fewest_hit_points"] == "shields_and_hit_points"
    assert w.trace.outcome["squadmates"]["Tali"]["shield_points"] == 1
    assert "attack_target" not in [k for k, _, _ in w.open_choices()]


def test_scenario_picker_loads_and_resets_choices():
    w, redraw = activation_page("me-03")
    redraw()
    w.choose("advance_to:Husk", "0,-1")
    w.picker.value = "me-06"
    assert w.choices == {} and w.data["title"].startswith("ME-06")
    assert "Guardian" in w.board._pieces


def test_frames_follow_spawns_and_order_labels():
    data = scenario_data("me-hazard-spawn-rush")
    w = ActivationStepper("me-hazard-spawn-rush")
    fr = frames(w.played, w.trace, scenario_map(data))
    assert "Cannibal 1" not in start_positions(data) and "Cannibal 1" in fr[0].positions
    order = next(i for i, s in enumerate(w.trace.steps) if "order" in s.facts)
    assert "Husk 1" in fr[order].detail and "#" in fr[order].detail


@pytest.mark.parametrize("sid", ["me-03", "me-06", "me-07", "me-07-b", "me-07-c", "me-hazard-invalid",
                                 "me-hazard-spawn-rush"])
def test_the_board_is_drawn_from_the_kernel_frames_one_scene_per_step(sid):
    """Views read frames, not facts: each step's picture comes from the Scene the step functions left in the kernel
    frame's Board, and each Scene looks at what its step is about."""
    from explorer.games.masseffect.activation import (AdvanceFocus, OrderFocus, PathFocus, SpawnFocus, TargetFocus,
                                                      TargetsFocus)

    w = ActivationStepper(sid)
    scenes = w.played[-1].state.scenes
    assert len(scenes) == len(w.trace.steps)
    expect = {"Activation order:": OrderFocus, "Advances with": AdvanceFocus, "Target: ": TargetFocus,
              " Activates at ": TargetsFocus, " moves to ": PathFocus, " stays at ": PathFocus}
    for scene, step in zip(scenes, w.trace.steps):
        kinds = {k for t, k in expect.items() if t in step.title}
        if step.title.startswith("Spawn "):
            kinds.add(SpawnFocus)
        if kinds:
            assert type(scene.focus) in kinds, (step.title, scene.focus)
        else:
            assert scene.focus is None or isinstance(scene.focus, PathFocus), (step.title, scene.focus)


def test_the_kernel_plays_a_hazard_card_one_frame_per_enemy_activation():
    """Step C on the kernel: one frame per task of the card (a Spawn, an activation order, each Enemy's Activation),
    each holding the frozen Board after it; replaying fewer entries goes back in time."""
    from explorer.games.masseffect.activation import ACTIVATION_SEQUENCE, activation_start, play_activation
    from explorer.games.masseffect.game import GAME
    from explorer.kernel import play

    _, sc = GAME.load_builtin("me-hazard-spawn-rush")
    played, trace = play_activation(sc)
    firsts = [f.steps[0].title for f in played if f.steps]
    assert any(t.startswith("Spawn Cannibal 1") for t in firsts)
    assert any(t.startswith("Activation order:") for t in firsts)
    activations = [f for f in played if f.steps and " Activates at " in f.steps[0].title]
    assert len(activations) == sum(" Activates at " in s.title for s in trace.steps) >= 2
    assert [s for f in played for s in f.steps] == list(trace.steps)
    for f in activations:                            # the Enemy ends its Activation where the frame's Board has it
        name = f.steps[0].title.split(" Activates at ")[0]
        assert f.state.enemy(name) is not None
    board, ctx = activation_start(sc)
    before_card = play(board, ACTIVATION_SEQUENCE, ctx, upto=3)
    assert before_card[-1].state.enemies == board.enemies and not before_card[-1].state.log


# ------------------------------------------------------------------ the page's link keeps the players' choices


def test_the_link_reopens_the_players_choices_and_the_focused_step():
    from explorer.urlstate import decode_state, encode_state

    w = ActivationStepper("me-hazard-spawn-rush")
    w.choose("spawn_hex", "4,-4")
    adv = next(k for k, _l, _o in w.open_choices() if k.startswith("advance_to:"))
    w.choose(adv, next(o for k, _l, o in w.open_choices() if k == adv)[-1])
    w.stepper.select(3)
    state = w.url_state()
    assert set(state["choices"]) == {"spawn_hex", "advance_to"} and state["step"] == 3
    fresh = ActivationStepper()
    fresh.load_url_state(decode_state(encode_state(state)))
    assert fresh.url_state() == state and fresh.document() == w.document()
    assert [s.title for s in fresh.trace.steps] == [s.title for s in w.trace.steps]


@pytest.mark.parametrize("bad, field", [
    ({"step": 99}, "step"), ({"step": "2"}, "step"),
    ({"choices": {"attack_target": ["Nobody"]}}, "choices.attack_target"),
    ({"choices": {"advance_to": {"Husk": "9,9"}}}, "choices.advance_to.Husk"),
    ({"choices": {"advance_to": ["0,0"]}}, "choices.advance_to"),
    ({"choices": {"spawn_hex": []}}, "choices.spawn_hex"),
    ({"choices": {"attack_target": ["x" * 61]}}, "choices.attack_target"),
    ({"choices": {"luck": ["a"]}}, "choices.luck"),
])
def test_a_bad_choice_in_a_link_is_refused_and_the_page_keeps_its_defaults(bad, field):
    from explorer.errors import ScenarioError

    w = ActivationStepper()
    before = w.url_state()
    with pytest.raises(ScenarioError) as e:
        w.load_url_state({"scenario": "me-03", **bad})
    assert f"field '{field}'" in str(e.value)
    assert w.url_state() == before
