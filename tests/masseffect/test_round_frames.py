"""Issue 19, item 3 of this session: finer frames for the Round step-through. The kernel plays a Round one phase and
one Squadmate's turn per frame (:data:`.round.ROUND_SEQUENCE`); :func:`.round.play_round` splits each turn's frame
(:func:`.round.split_turn_frames`) at every Step A, Action, Opportunity Attack, Hazard card flip and task, so the
page shows the board after each of them. The steps, and so the trace and every golden file, do not change."""

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.games.masseffect.game import GAME
from explorer.games.masseffect.round import parse_round, play_round, round_start
from explorer.games.masseffect.round_view import positions_from
from explorer.kernel import steps_of
from explorer.scenario import read_toml

SCENARIOS = Path(__file__).parents[2] / "explorer" / "games" / "masseffect" / "scenarios"
ROUND_NAMES = [s.name for s in GAME.scenarios() if s.kind == "round"]


def scenario(name, patch=None):
    d = read_toml(SCENARIOS / f"{name}.toml")
    if patch:
        patch(d)
    return parse_round(d, "x.toml")


@pytest.mark.parametrize("name", ROUND_NAMES)
def test_fine_frames_tell_the_same_steps_and_end_in_the_same_state(name):
    sc = scenario(name)
    fine, trace = play_round(sc)
    coarse, trace2 = play_round(sc, fine=False)
    assert steps_of(fine) == steps_of(coarse) == tuple(trace.steps)
    assert trace.to_json() == trace2.to_json() if hasattr(trace, "to_json") else True
    assert fine[-1].state == coarse[-1].state
    assert len(fine) >= len(coarse)
    # every kernel frame's state is the state of its last piece
    names = [f.name for f in coarse]
    for c in coarse:
        pieces = [f for f in fine if f.name == c.name or f.name.endswith(f" · {c.name}")]
        assert pieces and pieces[-1].state == c.state, (name, c.name)
    assert all(f.steps for f in fine if " · " in f.name and "Turn " in f.name)     # no empty piece of a turn


def test_each_action_and_card_task_is_its_own_frame():
    fine, _ = play_round(scenario("me-round-1"))
    names = [f.name for f in fine]
    assert names[1:5] == ["Hazard card for Shepard · Preparation Phase", "Hazard card for Garrus · Preparation Phase",
                          "Hazard card for Liara · Preparation Phase", "Strategy Pool · Preparation Phase"]
    assert names[5:15] == ["Step A: Strategy Roll · Turn 1", "Action 1 (Shoot): Die on Shoot · Turn 1",
                           "Action 1 (Shoot): Damage to Husk A · Turn 1", "Action 1 (Shoot) · Turn 1",
                           "Action 2 (Move): Die on Move · Turn 1", "Action 2 (Move) · Turn 1",
                           "Step B: Actions over · Turn 1", "Step C: Hazard card Husks advance · Turn 1",
                           "Step C: Activation order: Husk B (1) · Turn 1", "Step C: Husk B Activates at 0,-3 · Turn 1"]
    by = {f.name: f.state for f in fine}
    shoot, move = by["Action 1 (Shoot) · Turn 1"], by["Action 2 (Move) · Turn 1"]
    assert str(shoot.board.squadmate("Shepard").position) == "0,0"          # not moved yet after the Shoot
    assert str(move.board.squadmate("Shepard").position) == "0,-2"          # after the Move
    assert shoot.board.enemy("Husk A") is None                               # Defeated by the Shoot
    before = by["Step C: Activation order: Husk B (1) · Turn 1"].board.squadmate("Shepard")
    after = by["Step C: Husk B Activates at 0,-3 · Turn 1"].board.squadmate("Shepard")
    assert (before.shield_points, after.shield_points) == (4, 2)             # the Activation frame shows its Attack


def _adjacent_brute(d):
    d["enemies"].append({"name": "Brute", "type": "Brute", "attack_value": 1, "shield_value": 5, "position": "1,-1"})
    d["enemies"].append({"name": "Grunt", "type": "Grunt", "attack_value": 2, "shield_value": 5, "position": "-1,0"})


def test_each_opportunity_attack_is_its_own_frame_in_attack_value_order():
    fine, _ = play_round(scenario("me-round-1", _adjacent_brute))
    oa = [f for f in fine if "Opportunity Attack by" in f.name]
    assert [f.name for f in oa] == ["Action 2 (Move): Opportunity Attack by Grunt · Turn 1",
                                    "Action 2 (Move): Opportunity Attack by Brute · Turn 1"]
    first, second = (f.state.board.squadmate("Shepard") for f in oa)
    assert first.shield_points == 4 - 2 and second.shield_points == 4 - 3      # after each Attack, in turn
    assert str(first.position) == "0,-2"              # the step that provoked both (leaving both adjacencies)
    move = next(f for f in fine if f.name == "Action 2 (Move) · Turn 1")
    assert str(move.state.board.squadmate("Shepard").position) == "0,-2"


def test_positions_show_the_board_after_each_piece():
    sc = scenario("me-round-1")
    fine, trace = play_round(sc)
    pos = positions_from(fine, round_start(sc)[0])
    assert [p.step for p in pos] == list(trace.steps)
    # each piece's last step shows the state after it (explorer.kernel.steps_shown)
    shoot = [p for p in pos if p.frame_name == "Action 1 (Shoot) · Turn 1"][-1]
    assert "Husk A" not in [e.name for e in shoot.enemies]
    assert [q.name for q in shoot.squadmates if q.to_play] == ["Shepard"]    # the turn marker still works
    move = [p for p in pos if p.frame_name == "Action 2 (Move) · Turn 1"][-1]
    assert ("Shepard", "0,0", "0,-2") in move.moved                        # moved in this piece only


def test_a_refusal_is_the_last_frame():
    def bad(d):
        d["turns"][0]["actions"][1]["path"] = ["0,0", "0,-1", "0,-2", "0,-3", "1,-3"]
    fine, trace = play_round(scenario("me-round-1", bad))
    told = [f for f in fine if f.steps]                   # the kernel's End Phase frame follows, empty
    assert told[-1].name == "Not allowed · Turn 1" and told[-1].state.rejected
    assert steps_of(fine) == tuple(trace.steps)


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_fine_frames_replay_identically(seed):
    sc = scenario("me-round-2")
    a, b = play_round(sc, seed=seed)[0], play_round(sc, seed=seed)[0]
    assert a == b and steps_of(a) == steps_of(play_round(sc, seed=seed, fine=False)[0])


CHANGE_WORDS = ("allocates", "drawn face-down", "suffers", "Defeated", "moves", "ends at", "uses Fast Travel",
                "flipped face-up", "Placed without", "recovers", "token removed", "ran out", "Revives", "Disabled,",
                "unlocks", "XP", "Objective completed")


@pytest.mark.parametrize("name", ROUND_NAMES)
def test_a_step_that_tells_of_a_change_is_shown_with_the_board_after_it(name):
    """Issue 19 item 6: within one frame a step's text never disagrees with the board drawn for it: every step that
    tells of a change (a die allocated, a card drawn, Damage, a Defeat, a move, Loot, a Revive, the End Phase's
    tokens) is the last of its piece, so the page draws the board after it. Exception, told together by one rule:
    Damage to a Squadmate and the Downed it causes (one event: the board after both)."""
    sc = scenario(name)
    fine, _ = play_round(sc)
    pos = positions_from(fine, round_start(sc)[0])
    wrong = [(p.frame_name, p.step.title) for i, p in enumerate(pos)
             if not p.settled and (any(w in p.step.title for w in CHANGE_WORDS) or p.step.title.endswith(" is Downed"))
             and not (i + 1 < len(pos) and pos[i + 1].step.title.endswith(" is Downed"))]
    assert not wrong, wrong


def test_the_move_piece_shows_the_squadmate_where_the_step_says():
    fine, _ = play_round(scenario("me-round-loot"))
    pos = positions_from(fine, round_start(scenario("me-round-loot"))[0])
    end = next(p for p in pos if "Move Action ends at 1,-1" in p.step.title)
    assert end.settled and dict((q.name, q.hex) for q in end.squadmates)["Shepard"] == "1,-1"
    react = next(p for p in pos if p.step.title.startswith("React Tag: Husk B"))
    assert react.settled and dict((e.name, e.hex) for e in react.enemies)["Husk B"] == "3,-1"
