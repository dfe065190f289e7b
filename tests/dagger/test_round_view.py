"""The Round step-through data (explorer/games/dagger/round_view.py) and `explorer dagger step`: one position per
cited step, drawn from the frames' typed state (Gameplay › Hero Phase: one token per slot, tokens from the supply)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.games import get_game
from explorer.games.dagger.round_view import position_text, round_positions

from .helpers import resolve

ROUND_NAMES = [s.name for s in get_game("dagger").scenarios() if s.kind == "round"]


def scenario(name):
    g = get_game("dagger")
    return g.load_builtin(name)[1]


@pytest.mark.parametrize("name", ROUND_NAMES)
def test_one_position_per_cited_step_in_trace_order(name):
    t = resolve(name)
    pos = round_positions(scenario(name), t.rulings)
    refused = 1 if t.result.refused else 0
    assert [p.step for p in pos] == list(t.steps[:len(t.steps) - refused])


@pytest.mark.parametrize("name", ROUND_NAMES)
def test_tokens_on_slots_plus_supply_are_the_heroes_tokens(name):
    """Tokens are conserved at every position of the Hero Phase: on the sheet's slots or a base's slot, or still in
    the supply; a slot never shows two tokens (it is a pair (slot, token))."""
    sc = scenario(name)
    full = {s.hero: s.boosted + s.standard for s in sc.sheets}
    for p in round_positions(sc):
        if not p.step.section.endswith("Hero Phase"):
            continue
        for h in p.heroes:
            on_sheet = sum(1 for _, t in h.slots if t)
            on_bases = sum(1 for _, who, _ in p.bases if who == h.hero)
            assert on_sheet + on_bases + sum(h.supply) == full[h.hero], (name, p.step.title, h)
            assert len({n for n, _ in h.slots}) == len(h.slots)


def _settled(pos, p):
    """The position of the last step of ``p``'s frame (where the frame's changes show)."""
    return [q for q in pos if q.frame == p.frame][-1]


def test_the_team_up_card_and_whose_turn_are_shown():
    pos = round_positions(scenario("dg-team-up"))
    ready = _settled(pos, next(p for p in pos if "to ready Fastball Special" in p.step.title))
    a = next(h for h in ready.heroes if h.hero == "Hero A")
    assert a.team_up == "Fastball Special ready"                       # readied before turn 2, used before turn 3
    used = _settled(pos, next(p for p in pos if "uses the team-up card" in p.step.title))
    assert next(h for h in used.heroes if h.hero == "Hero A").team_up == "Fastball Special greyed out side up"


def test_a_team_up_card_not_ready_is_greyed_out_side_up_as_the_rulebook_says():
    """Setup: the team-up card is placed "with the greyed out side up" (issue 20: the sheet said "exhausted" for a card
    that was never used); the page's sheet, the step command's text and the outcome text all use the book's words."""
    from explorer.games.dagger.outcome import round_outcome_text

    pos = round_positions(scenario("dg-team-up"))
    first = next(h for h in pos[0].heroes if h.hero == "Hero A")
    assert first.team_up == "Fastball Special greyed out side up"
    text = position_text(pos[0], 1, len(pos))
    assert "team-up card Fastball Special greyed out side up" in text and "exhausted" not in text
    lines = round_outcome_text(resolve("dg-team-up"))
    assert "Hero A's Fastball Special greyed out side up" in lines and "Special exhausted" not in lines


@pytest.mark.parametrize("name", ROUND_NAMES)
def test_a_step_never_shows_what_a_later_step_of_its_frame_does(name):
    """A frame (a whole turn) has one state, the one after it: its steps before the last show the state it started
    from (the newcomer's report: step 9 of dg-team-up showed Hero A already on Toronto, where step 14 moves him),
    and say so; its last step shows its changes."""
    sc = scenario(name)
    pos = round_positions(sc)
    for i, p in enumerate(pos):
        last = i + 1 == len(pos) or pos[i + 1].frame != p.frame
        assert p.settled == last
        if not last:                     # the previous frame's state (-1: the state before the first frame)
            assert p.shown == p.frame - 1 and "found it" in position_text(p, i + 1, len(pos))
        else:
            assert p.shown == p.frame and not p.note


def test_dg_team_up_step_9_shows_hero_a_where_the_turn_found_him():
    pos = round_positions(scenario("dg-team-up"))
    step = next(p for p in pos if "uses the team-up card Fastball Special" in p.step.title)
    assert next(h for h in step.heroes if h.hero == "Hero A").space == "New York"
    last_hero_phase = [p for p in pos if p.step.section == "Round 1 · Hero Phase"][-1]
    assert not any(h.to_play for h in last_hero_phase.heroes)          # every token spent
    first = pos[0]
    assert [h.to_play for h in first.heroes] == [True, False]          # the 1st player starts


def test_setup_positions_come_before_the_board_is_dealt():
    pos = round_positions(scenario("dg-setup-round"))
    setup = [p for p in pos if p.step.section == "Setup"]
    assert all(p.in_setup for p in setup[:-1]) and not setup[-1].in_setup
    assert setup[-1].events_left == 12 and setup[0].events_left is None      # no deck before Setup stacks it


def _step(*args):
    import contextlib
    import io

    from explorer.cli import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(["dagger", "step", *args])
    return code, out.getvalue()


@settings(max_examples=10, deadline=None)
@given(st.integers(1, 57))
def test_the_step_command_shows_each_position(at):
    code, out = _step("dg-team-up", "--at", str(at))
    assert code == 0 and out.startswith(f"Step {at}/57 · ")
    assert "Loss gauges: threat" in out


def test_the_step_command_names_a_bad_step_or_kind():
    assert _step("dg-team-up", "--at", "999")[0] != 0
    assert _step("dg-01")[0] != 0


def test_position_text_reads_the_sheet():
    pos = round_positions(scenario("dg-two-rounds"))
    text = position_text(pos[3], 4, len(pos))
    assert "slots move [" in text and "supply " in text and "[Marvel D.A.G.G.E.R.: " in text


# ------------------------------------------------------------------------------------------------ the Round page


def test_the_round_page_steps_through_the_frames():
    g = get_game("dagger")
    w, _ = g.open_page("round", "dg-team-up")
    assert w.note.scenario_id == "dg-team-up" and len(w.positions) == 57
    assert "Step 1 of 57" in w.focus.value and w.prev_button.disabled
    w.go(+9)
    assert w.position == 10 and "Hero A hits each enemy nearby for 2 damage" in w.focus.value
    # inside Hero A's turn: the sheets as the turn found them (the card still ready), and the page says so
    assert "Fastball Special ready" in w.focus.value and "found it" in w.focus.value and "<svg" in w.map.value
    w.go(+100)
    assert w.position == 57 and w.next_button.disabled
    w.rulings_box["primed_ability_token"].value = "kept"                     # a replay; the note says so
    assert w.note.changed and w.position == 57
    w.rulings_box["primed_ability_token"].value = "discarded"
    assert not w.note.changed


def test_the_round_page_opens_every_round_builtin_and_names_a_refusal():
    g = get_game("dagger")
    w, _ = g.open_page("round")
    assert w.note.scenario_id == "dg-two-rounds"
    for name in ROUND_NAMES:
        w.picker.value = name
        assert w.positions and w.note.scenario_id == name
        assert ("Not allowed" in w.message.value) == bool(resolve(name).result.refused)
    assert "stand-ins" in w.about.value


@pytest.mark.parametrize("name", ROUND_NAMES)
def test_the_round_page_plays_each_scenario_once_and_its_trace_is_the_resolvers(name, monkeypatch):
    """The page builds its positions and its trace from one play of the file (it played it twice, once for the frames
    and once through ``game.resolve``); the trace is the one ``explorer resolve`` gives, text and outcome."""
    from explorer.games.dagger import round_scenario as R

    g = get_game("dagger")
    w, _ = g.open_page("round", name)
    calls = []
    real = R._begin
    monkeypatch.setattr(R, "_begin", lambda *a, **k: calls.append(1) or real(*a, **k))
    positions, trace, refused = w.play()
    assert len(calls) == 1
    want = g.resolve(("round", w.scenario), w.rulings())
    assert trace.to_text() == want.to_text() and trace.outcome == want.outcome and trace.rulings == want.rulings
    assert refused == want.result.refused and len(positions) == len(w.positions)


@settings(max_examples=15, deadline=None)
@given(st.sampled_from(ROUND_NAMES), st.integers(0, 10_000))
def test_the_loss_gauges_the_rules_never_turn_back_are_monotone(name, seed):
    """Winning and Losing, over a whole play (any seed for the rolls not given and for Setup): no rule removes an
    overrun token (Nearby and Overrun), puts an event card back into the deck (Resolve Event Cards: drawn, then
    discarded) or brings an eliminated player back (Damage and Defeat). The threat track is not monotone (step 2
    resets it) and is not checked here."""
    pos = round_positions(scenario(name), seed=seed)
    gauges = [{g.name: g.value for g in p.gauges} for p in pos]
    for a, b in zip(gauges, gauges[1:]):
        assert b["bases"] >= a["bases"], (name, seed)
        # Setup builds the deck (no value before it stacks the piles); from then on it only shrinks
        assert a["events"] is None or b["events"] <= a["events"], (name, seed)
        assert b["heroes"] >= a["heroes"], (name, seed)          # players eliminated
