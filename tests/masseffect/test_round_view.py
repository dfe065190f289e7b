"""The Mass Effect Round step-through (explorer/games/masseffect/round_view.py), `explorer masseffect step` and the
Round page (round_views.py): one position per cited step, drawn from the frames' typed state (Playing a Mission ›
Preparation Phase, Squadmate Phase, End Phase)."""

import contextlib
import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.games import get_game
from explorer.games.masseffect.round import play_round
from explorer.games.masseffect.round_view import position_text, round_positions

GAME = get_game("masseffect")
ROUND_NAMES = [s.name for s in GAME.scenarios() if s.kind == "round"]


def scenario(name):
    return GAME.load_builtin(name)[1]


def test_the_round_builtins_are_all_there():
    assert {"me-round-1", "me-round-2", "me-round-loot", "me-round-turrets", "me-round-rounds",
            "me-round-objectives", "me-round-unlock"} <= set(ROUND_NAMES)


@pytest.mark.parametrize("name", ROUND_NAMES)
def test_one_position_per_cited_step_in_trace_order_and_a_replay_gives_the_same(name):
    sc = scenario(name)
    trace = play_round(sc)[1]
    pos = round_positions(sc)
    assert [p.step for p in pos] == list(trace.steps)                 # in step order, none missing or added
    assert all(p.step.section and p.step.rule.section for p in pos)   # each cites its section
    assert [p.frame for p in pos] == sorted(p.frame for p in pos)
    assert round_positions(sc) == pos                                 # time travel = replay: identical


@pytest.mark.parametrize("name", ROUND_NAMES)
def test_every_position_keeps_the_sheets_and_the_pool_in_bounds(name):
    """Shield and Hit Points stay within their trackers; the Strategy Pool only loses dice between Preparation Phases
    (12 at a Round's Preparation Phase at most, plus the file's Paragon dice); the turn marker is on a Squadmate only
    in a Squadmate's turn."""
    last = None
    sc = scenario(name)
    for p in round_positions(sc):
        for q in p.squadmates:
            assert 0 <= q.shield_points <= q.shield_max and 0 <= q.hit_points <= q.hit_max, (name, p.step.title, q)
        assert 0 <= p.pool <= 12 + sc.paragon_dice
        if last is not None and last.round == p.round and "Preparation Phase" not in p.frame_name:
            assert p.pool <= last.pool, (name, p.step.title)
        due = [q.name for q in p.squadmates if q.to_play]
        assert len(due) == (1 if "Turn " in p.frame_name else 0), (p.frame_name, due)
        last = p


@settings(max_examples=8, deadline=None)
@given(st.integers(0, 10_000))
def test_a_rolled_round_replays_to_the_same_positions_for_any_seed(seed):
    sc = scenario("me-round-2")
    a, b = round_positions(sc, seed=seed), round_positions(sc, seed=seed)
    assert a == b and [p.step for p in a] == list(play_round(sc, seed=seed)[1].steps)


def test_the_positions_follow_the_round():
    pos = round_positions(scenario("me-round-1"))
    first, last = [p for p in pos if p.frame_name.endswith("Preparation Phase")][-1], pos[-1]
    assert not pos[0].note and not first.note      # each card drawn is its own piece: shown with the card dealt
    assert {q.name: q.hazard_card for q in pos[0].squadmates}["Shepard"] == "Husks advance"
    assert first.frame_name == "Strategy Pool · Preparation Phase" and first.pool == 9    # Tali Downed: 3 dice Locked
    assert {q.name: q.hazard_card for q in first.squadmates} == {"Shepard": "Husks advance", "Garrus": "Guardian fire",
                                                                "Liara": "Reinforcements", "Tali": ""}
    assert [q.name for q in first.squadmates if q.downed] == ["Tali"]
    assert last.frame_name == "End Phase" and last.deck == 1 and len(last.discard) == 3
    assert [q.name for q in last.squadmates if q.on_point] == ["Liara"]
    assert "Husk A" in last.returned_to_bag and "Husk A" not in {e.name for e in last.enemies}
    # what each piece of the turn moved (play_round's frames: one per Action, Opportunity Attack, card task), shown
    # at the piece's last step (explorer.kernel.steps_shown)
    shoot = [p for p in pos if p.frame_name == "Action 1 (Shoot): Damage to Husk A · Turn 1"][-1]  # the Defeat
    move = [p for p in pos if p.frame_name == "Action 2 (Move) · Turn 1"][-1]
    assert shoot.moved == (("Husk A", "3,0", ""),) and move.moved == (("Shepard", "0,0", "0,-2"),)
    assert first.moved == () and all(a != b for _, a, b in move.moved)
    other = round_positions(scenario("me-round-1"), {"on_point_direction": "next_in_turn_order"})[-1]
    assert [q.name for q in other.squadmates if q.on_point] == ["Garrus"]


def test_loot_and_inventory_at_a_position():
    pos = round_positions(scenario("me-round-loot"))
    assert len(pos[0].loot) == 2 and pos[0].inventory == ()
    turn1 = max(i for i, p in enumerate(pos) if p.frame_name.endswith("Turn 1"))   # both picked up, two used
    assert pos[turn1].loot == () and pos[turn1].inventory == ("grenade_cache",)
    assert "Loot on the map: none; Inventory: grenade_cache" in position_text(pos[turn1], turn1 + 1, len(pos))
    assert pos[-1].inventory == ()                                     # Garrus threw the Grenade Cache


def _step(*args):
    from explorer.cli import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(["masseffect", "step", *args])
    return code, out.getvalue()


@settings(max_examples=8, deadline=None)
@given(st.integers(1, 49))
def test_the_step_command_shows_each_position(at):
    code, out = _step("me-round-1", "--at", str(at))
    pos = round_positions(scenario("me-round-1"))[at - 1]
    assert code == 0 and out.startswith(f"Step {at}/49 · {pos.step.section}")
    assert pos.step.title in out and "[Mass Effect" in out and "Shepard on " in out and "Strategy Pool: " in out


def test_the_step_command_names_a_bad_step_or_kind():
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        assert _step("me-round-1", "--at", "50")[0] != 0
        assert _step("me-diagram-4")[0] != 0
    assert "--at" in err.getvalue() and "not a Mass Effect round scenario" in err.getvalue()


# ------------------------------------------------------------------------------------------------ the Round page


def test_the_round_page_steps_with_next_and_prev_and_the_board_changes():
    w, _ = GAME.open_page("round")
    assert w.note.scenario_id == "me-round-1" and len(w.positions) == 49
    assert w.position == 1 and w.prev_button.disabled and "Step 1 of 49" in w.focus.value
    board = w.map.value
    assert "<svg" in board and "Preparation Phase" in w.focus.value
    w.next_button.click()
    assert w.position == 2 and not w.prev_button.disabled
    w.go(+10)                        # into Shepard's Move: the board as the Action found it, and the page says so
    assert w.position == 12 and "▶ Shepard" in w.focus.value
    last = w.positions[11].note.rsplit(" ", 1)[1]                       # the turn's last step
    assert "Shown: the state as Action 2 (Move) · Turn 1 found it" in w.focus.value
    assert "Shepard</b> on 0,0" in w.focus.value
    w.slider.value = int(last)                                          # there he has moved
    assert w.map.value != board and "Shepard 0,0 → 0,-2" in w.focus.value and "stroke-dasharray" in w.map.value
    assert "Shown:" not in w.focus.value
    w.slider.value = 12
    w.prev_button.click()
    assert w.position == 11
    w.go(+100)
    assert w.position == 49 and w.next_button.disabled and "End Phase" in w.focus.value
    assert "stand-in" in w.about.value.lower()


def test_a_ruling_replays_the_page_and_the_note_says_so():
    w, _ = GAME.open_page("round", "me-round-1")
    w.go(+100)
    assert "<b>Liara</b> on -1,1 · <b style='color:#1864ab'>On Point" in w.focus.value
    w.rulings_box["on_point_direction"].value = "next_in_turn_order"
    assert w.note.changed and w.position == 49
    assert "<b>Garrus</b> on 2,-1 · <b style='color:#1864ab'>On Point" in w.focus.value


def test_the_round_page_opens_every_round_builtin_and_keeps_its_choice_in_the_link():
    from explorer.errors import ScenarioError

    w, _ = GAME.open_page("round")
    for name in ROUND_NAMES:
        w.picker.value = name
        assert w.positions and w.note.scenario_id == name and not w.message.value
    state = w.url_state()
    assert state["scenario"] == ROUND_NAMES[-1]
    w2, _ = GAME.open_page("round")
    w2.load_url_state({"scenario": "me-round-loot", "rulings": {"on_point_direction": "next_in_turn_order"}})
    assert w2.scenario_id == "me-round-loot" and w2.rulings()["on_point_direction"] == "next_in_turn_order"
    with pytest.raises(ScenarioError, match="scenario"):
        w2.load_url_state({"scenario": "me-diagram-4"})


def test_a_minion_drawn_again_from_the_enemy_bag_is_no_longer_shown_in_it():
    """me-round-barrier: Shepard Defeats Husk A (back in the Enemy Bag), then his card Spawns it again (the file
    declares no other draw): the page lists it in the bag only between the two."""
    pos = round_positions(scenario("me-round-barrier"))
    shown = [p.returned_to_bag for p in pos]
    first = next(i for i, r in enumerate(shown) if r == ("Husk A",))
    spawned = next(i for i, p in enumerate(pos) if p.step.title.startswith("Spawn Husk A"))
    assert first < spawned and all(r == () for r in shown[spawned:])
