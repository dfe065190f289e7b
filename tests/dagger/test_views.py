"""The Nemesis Phase stepper without a browser: every built-in scenario builds and steps to its end; each step shows its
rulebook section and what changed; the map is redrawn once per change (one message through the canvas's own manager);
the loss gauges follow the state; ruling options and the players' choices re-run the playthrough; clicking a space
tells what is nearby and how far the nearest operational base is."""

from __future__ import annotations

import html

import pytest

from explorer.games import get_game
from explorer.games.dagger.nemesis_scenario import playthrough
from explorer.games.dagger.views import (
    DEFAULT, MapGeometry, NemesisStepper, changes, gauges_html, nemesis_page, nemesis_scenarios, piece_positions,
    positions)

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture(scope="module")
def stepper():
    return NemesisStepper("dg-three-rounds")   # a long phase: three rounds


def _count_messages(w: NemesisStepper) -> list[int]:
    mgr = w.canvas._canvas_manager
    sent: list[int] = []
    orig = mgr._send_custom

    def spy(command, buffers=[]):
        sent.append(1)
        return orig(command, buffers)

    mgr._send_custom = spy
    return sent


def test_the_page_is_registered_and_lists_every_nemesis_scenario():
    g = get_game("dagger")
    page = g.page("nemesis-phase")
    assert page.title == "Nemesis Phase"
    ids = nemesis_scenarios()
    assert set(ids) == {s.name for s in g.scenarios() if s.kind == "nemesis"} and "dg-three-rounds" in ids
    assert all(i.startswith("dg-") for i in ids)


@pytest.mark.slow
@pytest.mark.parametrize("sid", nemesis_scenarios())
def test_every_scenario_steps_to_its_outcome_citing_each_section(sid):
    w = NemesisStepper(sid)
    kernel_frames, _, start = playthrough(get_game("dagger").load_builtin(sid)[1])
    frames = positions(kernel_frames)
    assert [f.step.title for f in w.positions] == [f.step.title for f in frames] and w.positions
    assert w.state_at(0) == start
    for i, f in enumerate(frames, 1):
        w.go(+1)
        assert w.position == i
        assert html.escape(f.step.rule.section) in w.focus.value and html.escape(f.step.title) in w.focus.value
        assert "What changed" in w.focus.value
    assert w.next_button.disabled and not w.prev_button.disabled
    end = frames[-1].state
    assert w.state_at(w.position) == end
    for r in end.lost:
        assert r in w.gauges.value


def test_next_prev_and_slider_agree_and_each_move_is_one_redraw(stepper):
    w = stepper
    w.show(0)
    sent = _count_messages(w)
    assert w.prev_button.disabled and "step 0 of" in w.position_label.value
    w.go(+1)
    w.go(+1)
    assert w.position == 2 and len(sent) == 2                # one batched message per change
    w.go(-1)
    assert w.position == 1 and len(sent) == 3
    w.slider.value = 10
    assert len(sent) == 4 and f"Step 10 · {w.positions[9].step.section}" in w.focus.value
    w.go(-100)
    assert w.position == 0 and len(sent) == 5
    w.go(+10_000)
    assert w.position == len(w.positions) and w.next_button.disabled


def test_the_focused_step_lists_what_changed_and_the_map_rings_it(stepper):
    w = stepper
    i = next(k for k, f in enumerate(w.positions) if f.step.facts.get("action") == "move")
    fr = w.positions[i]
    w.show(i + 1)
    moved = fr.step.facts["enemy"]
    text = f"{moved} moves {fr.step.facts['start']} → {fr.step.facts['to']}"
    assert text in w.focus.value
    ch = changes(w.state_at(i), w.state_at(i + 1))
    assert any(c["kind"] == "move" and c["start"] == fr.step.facts["start"] for c in ch)
    # step 1 of the first phase: the threat moves and the change names both values
    w.show(1)
    s0, s1 = w.state_at(0), w.state_at(1)
    assert s1.threat > s0.threat and f"threat {s0.threat} → {s1.threat}" in w.focus.value
    assert "Nemesis Phase › 1. Advance Threat" in w.focus.value


def test_changes_reports_spawns_overrun_and_damage():
    w = NemesisStepper("dg-loss-bases")
    w.go(+len(w.positions))
    kinds = {c["kind"] for i in range(len(w.positions)) for c in changes(w.state_at(i), w.state_at(i + 1))}
    assert "overrun" in kinds and "lost" in kinds
    w = NemesisStepper("dg-hero-defeat")
    kinds = {c["kind"] for i in range(len(w.positions)) for c in changes(w.state_at(i), w.state_at(i + 1))}
    assert "hero" in kinds and "threat" in kinds


def test_gauges_follow_the_state():
    w = NemesisStepper("dg-loss-threat")
    start = gauges_html(w.state_at(0))
    assert f"threat {w.state_at(0).threat}/20" in start and "LOST" not in start
    w.go(+len(w.positions))
    assert "threat reached 20" in w.gauges.value and "<b>LOST</b> threat" in w.gauges.value
    assert "bases overrun" in w.gauges.value and "event cards left" in w.gauges.value


def test_a_ruling_re_runs_the_playthrough_and_keeps_the_position():
    w = NemesisStepper("dg-loss-threat")
    assert len(w.positions) == 2 and w.positions[-1].state.lost
    w.go(+1)
    sent = _count_messages(w)
    w.rulings_box["threat_loss_timing"].value = "after_mission_check"
    assert len(sent) == 1                                       # re-run and show: one redraw
    assert len(w.positions) > 2 and not w.positions[-1].state.lost
    assert w.position == 1
    assert w.trace.rulings.get("threat_loss_timing") == "after_mission_check"
    assert w.trace_list.value == ""                              # the step list is filled once opened
    w.steps_panel.selected_index = 0
    assert "threat_loss_timing = after_mission_check" in w.trace_list.value and "xt-step cur" in w.trace_list.value


def test_choices_are_dropdowns_and_re_run(stepper):
    w = NemesisStepper("dg-three-rounds")
    keys = {k: (opts, taken) for k, _, opts, taken in w.open_choices()}
    assert "move_via.Minion 2" in keys and keys["move_via.Minion 2"] == (["Mumbai", "Tokyo"], "Mumbai")
    assert len(w.choices_box.children) == len(keys)
    # take the other route: the playthrough changes where Minion 2 ends up
    dd = next(row.children[0] for row in w.choices_box.children if row.children[0].description == "Minion 2 moves via")
    dd.value = "Tokyo"
    assert w.choices == {"move_via": {"Minion 2": "Tokyo"}}
    moves = [f.step for f in w.positions if f.step.facts.get("enemy") == "Minion 2" and f.step.facts.get("action") ==
             "move"]
    assert moves[0].facts["to"] == "Tokyo"
    rec = next(c for c in w.end.choices if c.input == "move_via.Minion 2")
    assert rec.chosen == "Tokyo" and not rec.default_used
    # activation order within a rank: Thug 2 first
    dd = next(row.children[0] for row in w.choices_box.children if row.children[0].description == "First of power 1")
    dd.value = "Thug 2"
    order = next(f.step.facts["order"] for f in w.positions if "order" in f.step.facts and "Thug 2" in
                 f.step.facts["order"])
    assert order.index("Thug 2") < order.index("Thug 1")
    # back to the default
    dd = next(row.children[0] for row in w.choices_box.children if row.children[0].description == "Minion 2 moves via")
    dd.value = DEFAULT
    moves = [f.step for f in w.positions if f.step.facts.get("enemy") == "Minion 2" and f.step.facts.get("action") ==
             "move"]
    assert moves[0].facts["to"] == "Mumbai"


def test_clicking_a_space_tells_what_is_nearby_and_the_nearest_base(stepper):
    w = stepper
    w.show(0)
    x, y = w.geo.pos["Cairo"]
    w._clicked(x + 3, y - 2)
    assert w.selected == "Cairo"
    info = w.space_info.value
    assert "Cairo" in info and "Latveria" in info and "Wakanda" in info and "Mumbai" in info
    assert "nearest operational base in its region: Wakanda at 1 line" in info
    w._clicked(2, 2)                                             # off every space: deselect
    assert w.selected is None


def test_geometry_puts_every_space_and_piece_on_the_canvas(stepper):
    w = stepper
    geo = MapGeometry(w.scenario.world)
    for x, y in geo.pos.values():
        assert 0 < x < 760 and 0 < y < 392
    for name, (x, y) in geo.pos.items():
        assert geo.space_at(x, y) == name
    for i in range(len(w.positions) + 1):
        pieces = piece_positions(geo, w.state_at(i))
        st = w.state_at(i)
        assert set(pieces) == {h.name for h in st.heroes if h.space and not h.eliminated} | {e.id for e in
                                                                                              st.enemies}


def test_nemesis_page_returns_the_widget_and_its_redraw():
    w, redraw = nemesis_page("dg-01")
    sent = _count_messages(w)
    redraw()
    assert len(sent) == 1 and w.picker.value == "dg-01"
    w.picker.value = "dg-05"
    assert w.scenario.title.startswith("DG-05") and w.position == 0 and len(sent) == 2


def test_the_loss_forecast_line_follows_the_rulings():
    from explorer.games.dagger.forecast import loss_forecast

    w = NemesisStepper("dg-loss-threat")
    f = loss_forecast(w.scenario, 1, w.rulings())
    assert f"{float(f.p_loss):.0%}" in w.forecast.value and "exact over the 1 possible top card)" in w.forecast.value
    assert f.p_loss == 1 and "threat reached 20 100%" in w.forecast.value
    w.rulings_box["threat_loss_timing"].value = "after_mission_check"
    g = loss_forecast(w.scenario, 1, w.rulings())
    assert f"{float(g.p_loss):.0%}</span>" in w.forecast.value
    empty = NemesisStepper("dg-loss-no-event")
    assert "100%" in empty.forecast.value and "lists no event card left" in empty.forecast.value


def test_an_empty_deck_of_the_scenario_is_no_red_gauge():
    """A scenario lists only the event cards it draws: its empty deck is shown grey and said so, not as a loss at
    hand (the heroes' real nearest loss keeps its colour)."""
    from explorer.games.dagger.views import gauges_html

    w = NemesisStepper("dg-01")
    state = w.start
    assert not state.event_deck
    events = next(x for x in gauges_html(state).split("<div class='dg-gauge'")[1:] if "data-name='events'" in x)
    assert "#c92a2a" not in events and "lists no further card" in events


def _engine_trace(name: str, showdown: bool):
    """The engine's trace of built-in ``name`` with its ``showdown`` field set (the file edited, not the page)."""
    from explorer.scenario import read_toml

    g = get_game("dagger")
    data = read_toml(name, text=g.scenario_text(name))
    data["showdown"] = showdown
    return g.resolve(g.parse_data(data, name))


def _steps(trace) -> list[tuple[str, str, str]]:
    return [(str(s.section), s.title, s.detail) for s in trace.steps]


def test_the_final_showdown_checkbox_replays_the_phase_as_the_engine_does():
    w = NemesisStepper("dg-loss-deadline")
    assert w.showdown.value is False          # the scenario's own field
    off = _steps(w.trace)
    assert off == _steps(_engine_trace("dg-loss-deadline", False))
    w.showdown.value = True
    on = _steps(w.trace)
    assert on == _steps(_engine_trace("dg-loss-deadline", True))
    assert on != off                          # the elimination deadline no longer loses the game
    assert w.start.showdown and w.positions[-1].state.showdown
    assert "dg-showdown-note" in w.about.value                # the page says the replay departs from the file
    assert _engine_trace("dg-loss-deadline", False).outcome["lost"] and not _engine_trace("dg-loss-deadline",
                                                                                          True).outcome["lost"]
    w.showdown.value = False
    assert _steps(w.trace) == off and "dg-showdown-note" not in w.about.value
    w.load("dg-01")                           # loading a scenario takes its own showdown field
    assert w.showdown.value is False and _steps(w.trace) == _steps(_engine_trace("dg-01", False))


# ------------------------------------------------------------------ the page's link keeps the players' choices


def _chosen():
    w = NemesisStepper("dg-activation", game=get_game("dagger"))
    w.choose("attack_target.Thug 1", "Hero A")
    w.choose("activation_order.power 1", "Thug 2")
    w.showdown.value = True
    w.go(+5)
    w.click_space("Cairo")
    return w


def test_the_link_reopens_the_players_choices_the_showdown_the_step_and_the_space():
    from explorer.urlstate import decode_state, encode_state

    w = _chosen()
    state = w.url_state()
    assert state["choices"] == {"attack_target": {"Thug 1": "Hero A"}, "activation_order": ["Thug 2"]}
    assert (state["showdown"], state["step"], state["space"]) == (True, 5, "Cairo")
    fresh = NemesisStepper(game=get_game("dagger"))
    fresh.load_url_state(decode_state(encode_state(state)))
    assert fresh.picker.value == "dg-activation" and fresh.url_state() == state
    assert fresh.merged_choices() == w.merged_choices() and fresh.showdown.value
    assert [s.title for s in fresh.trace.steps] == [s.title for s in w.trace.steps]
    assert fresh.slider.value == 5 and fresh.selected == "Cairo"


def test_every_change_the_player_makes_writes_the_link():
    w = NemesisStepper("dg-activation", game=get_game("dagger"))
    writes = []
    w.on_state_change(lambda: writes.append(w.url_state()))
    w.choose("attack_target.Thug 1", "Hero A")
    w.go(+1)
    w.click_space("Cairo")
    w.showdown.value = True
    assert writes[0]["choices"] == {"attack_target": {"Thug 1": "Hero A"}}
    assert any(s["step"] == 1 for s in writes) and any(s["space"] == "Cairo" for s in writes)
    assert writes[-1]["showdown"] is True


@pytest.mark.parametrize("bad, field", [
    ({"step": 999}, "step"), ({"step": True}, "step"), ({"showdown": "yes"}, "showdown"),
    ({"space": "Atlantis 2"}, "space"), ({"choices": {"luck": {}}}, "choices.luck"),
    ({"choices": {"attack_target": {"Thug 1": "Hero Z"}}}, "choices.attack_target.Thug 1"),
    ({"choices": {"attack_target": {"Nobody": "Hero A"}}}, "choices.attack_target.Nobody"),
    ({"choices": {"activation_order": ["Brute 9"]}}, "choices.activation_order"),
    ({"choices": {"activation_order": ["x" * 61]}}, "choices.activation_order"),
    ({"choices": {"respawn": {str(i): "Iliad" for i in range(41)}}}, "choices.respawn"),
    ({"choices": []}, "choices"), ({"scenario": "dg-nope"}, "scenario"), ({"zoom": 2}, "zoom"),
])
def test_a_bad_link_is_refused_in_one_line_and_the_page_keeps_its_defaults(bad, field):
    from explorer.errors import ScenarioError

    w = NemesisStepper(game=get_game("dagger"))
    before = w.url_state()
    with pytest.raises(ScenarioError) as e:
        w.load_url_state({"scenario": "dg-activation", **bad})
    assert f"field '{field}'" in str(e.value) and "\n" not in str(e.value)
    assert w.url_state() == before and w.picker.value == before["scenario"]
