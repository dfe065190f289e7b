"""The Strategy Pool roller widget, without a browser: typed and clicked dice reach the engine, bad input stays in
its field with a message beside it, the canvas redraw is one message, trace steps highlight their dice, odds bars
match the odds engine."""

from __future__ import annotations

import pytest

from explorer.errors import ScenarioError
from explorer.games.masseffect.strategy_odds import strategy_odds_table
from explorer.games.masseffect.strategy_views import (
    StrategyPoolExplorer, parse_face_list, parse_rounds, strategy_page)


def test_parse_face_words():
    assert parse_face_list("Enh, m2 ? CORE m2/std", "f") == ["enhanced", "move_2", "?", "core", "move_2_or_standard"]
    assert parse_rounds("core, m2; enh;", "re-roll") == [["core", "move_2"], ["enhanced"]]
    with pytest.raises(ScenarioError) as e:
        parse_face_list("enh, bogus", "first roll")
    assert e.value.field == "first roll[2]" and "m2" in e.value.allowed


def test_default_page_is_diagram_5_and_resolves():
    w, redraw = strategy_page()
    o = w.trace.outcome
    assert w.opened == "me-diagram-5" and w.outcome.scenario_id == "me-diagram-5"   # the page's declared default
    assert o["pool_size"] == 6 and o["final"]["S2"] == "enhanced" and o["locked"] == "S2"
    assert [r[0] for r in w.dice.rows][0] == "Roll" and w.dice.rows[-1][0] == "Pool"
    assert "S2" not in [d for d, _, _ in w.dice.rows[0][1]]  # the Locked die is not rolled
    redraw()


def test_typed_dice_drive_the_roll_and_loop():
    w = StrategyPoolExplorer(squadmate="Liara", turn=4, lock="none")
    w.first.value = "core, core, enh"
    w.rerolls.value = "core, m2; std"
    o = w.trace.outcome
    assert o["triggers"] == 3 and o["icons_per_round"] == [2, 1, 0] and o["analysis_moves"] == 3
    assert o["final"] == {"S1": "standard", "S2": "move_2", "S3": "enhanced"}
    assert [r[0] for r in w.dice.rows] == ["Roll", "Re-roll 1", "Re-roll 2", "Pool"]
    assert "Analysis token moves 3" in w.headline.value


def test_click_a_die_then_pick_a_face():
    w = StrategyPoolExplorer(squadmate="Tali", turn=2, lock="none", seed=4)
    row, pos, die = 0, 2, w.dice.rows[0][1][2][0]
    x, y, s = w.dice.die_box(row, pos)
    assert w.dice.die_at(x + s / 2, y + s / 2) == (row, pos, die)
    w.dice._click(x + s / 2, y + s / 2)
    assert die in w.picker_label.value
    w.picker.value = "enhanced"
    assert w.first.value == "?, ?, enh, ?, ?, ?, ?, ?, ?" and w.trace.outcome["final"][die] == "enhanced"
    assert any("Rolled from the seed" in s.detail for s in w.trace.steps)
    assert w.picker.value is None


@pytest.mark.parametrize("field, text, msg", [
    ("first", "enh, nope", "first_msg"),
    ("first", ", ".join(["m2"] * 7), "first_msg"),
    ("rerolls", "core; core", "rerolls_msg"),
    ("seed", "-3", "seed_msg"),
])
def test_bad_input_message_beside_field_text_kept(field, text, msg):
    w = StrategyPoolExplorer(turn=3, lock="enhanced")
    before = w.trace
    getattr(w, field).value = text
    assert getattr(w, msg).value and "color:#c92a2a" in getattr(w, msg).value
    assert getattr(w, field).value == text
    assert w.trace is before  # nothing resolved from bad input


def test_on_point_lock_is_refused_with_a_note():
    w = StrategyPoolExplorer(turn=3, lock="enhanced")
    w.turn.value = 1
    assert "On Point" in w.lock_msg.value and w.trace.outcome["locked"] is None and w.trace.outcome["on_point"]


def test_redraw_is_one_message_and_step_highlights(monkeypatch):
    w = StrategyPoolExplorer(turn=3, lock="enhanced", seed=2)
    sent = []
    monkeypatch.setattr(w.dice.canvas._canvas_manager, "_send_custom", lambda cmd, buffers=[]: sent.append(cmd))
    w.dice.redraw()
    assert len(sent) == 1
    roll = next(i for i, s in enumerate(w.trace.steps) if s.title.startswith("Roll "))
    w.stepper.select(roll)
    assert w.dice.highlight == frozenset(w.trace.steps[roll].marks) and len(w.dice.highlight) == 5


def test_odds_bars_match_the_odds_engine():
    w = StrategyPoolExplorer(turn=3, lock="enhanced")
    t = strategy_odds_table(6, "enhanced")
    fill = w.chart._outcomes[0]
    assert fill.p == pytest.approx(t["p_fill_move_standard_enhanced"]["float"])
    trig = w.chart._dists[0]
    assert list(trig.probs)[:3] == pytest.approx([t["triggers"]["pmf"][str(k)]["float"] for k in range(3)])
    enh = w.chart._dists[1]
    assert enh.probs[0] == 0 and sum(enh.probs) == pytest.approx(1)  # the Locked Enhanced die is always there


def test_ruling_dropdown_changes_the_resolution():
    w = StrategyPoolExplorer(squadmate="Wrex", turn=1, lock="none")
    w.paragon.value = 1
    w.first.value = ", ".join(["m2"] * 12) + ", core"
    w.rerolls.value = "enh"
    assert w.trace.outcome["triggers"] == 1
    w.rulings_box["paragon_core_icon"].value = "rerolled_without_trigger"
    assert w.trace.outcome["triggers"] == 0 and w.trace.rulings["paragon_core_icon"] == "rerolled_without_trigger"


def _resolved(name: str):
    from explorer.games import get_game

    g = get_game("masseffect")
    return g.resolve(g.load_builtin(name))


@pytest.mark.parametrize("name", ["me-diagram-5", "me-strategy-paragon", "me-strategy-reroll-loop",
                                  "me-strategy-downed"])
def test_open_shows_the_scenario_as_explorer_resolve_does(name):
    import html

    from explorer.games import get_game
    from explorer.games.masseffect.outcome import outcome_text

    w, redraw = get_game("masseffect").open_page("strategy-pool", name)
    t = _resolved(name)
    assert w.opened == name and w.trace.outcome == t.outcome
    assert [(s.title, s.detail) for s in w.trace.steps] == [(s.title, s.detail) for s in t.steps]
    verdict = outcome_text(t).splitlines()[0]
    assert html.escape(verdict) in w.outcome.value       # the verdict the CLI prints, shown on the page
    fill = "yes" if t.outcome["can_fill_move_standard_enhanced"] else "no"
    assert f"Move + Standard + Enhanced: <b>{fill}" in w.headline.value
    redraw()


def test_open_sets_the_inputs_and_keeps_the_fields_the_page_has_none_for_until_they_change():
    from explorer.games.masseffect.strategy_views import strategy_open

    w, _ = strategy_open("me-strategy-paragon")
    assert (w.squadmate.value, w.turn.value, w.paragon.value, w.lock.value) == ("Wrex", 2, 1, "move_3")
    assert w.first.value.startswith("m2, std, core") and w.rerolls.value == "enh"
    assert w.trace.outcome["renegade_used"] and "taken" in w.trace.outcome
    w.seed.value = "7"                                   # every die is fixed: the same roll
    assert w.trace.outcome["final"] == _resolved("me-strategy-paragon").outcome["final"]
    w.rerolls.value = ""
    w.first.value = "m2, std, std, m3, std, m2, m2/std, std, enh"  # no icons now: the Renegade use stays
    assert not w.rerolls_msg.value and not w.first_msg.value
    assert w.trace.outcome["triggers"] == 0 and w.trace.outcome["renegade_used"]
    w.lock.value = "enhanced"                            # the scenario's Pool faces no longer apply: set aside
    assert "set aside" in w.lock_msg.value and not w.trace.outcome.get("renegade_used")
    assert "taken" not in w.trace.outcome
