"""Quiet play (``explorer.kernel.Context.quiet``): the exact forecast plays the same step functions without building
any step text. These tests play every D.A.G.G.E.R. built-in, and hypothesis-drawn event decks, both ways and compare
the states step by step (where quiet play keeps every frame) and at the end."""

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.dice import Dice
from explorer.games import get_game
from explorer.games.dagger.forecast import loss_forecast, planned_forecast
from explorer.games.dagger.hero_scenario import HERO_ACTIONS, HeroContext, HeroPhaseState
from explorer.games.dagger.nemesis import STEP_SECTIONS, phase_over, phase_sequence, play_phase, play_phases
from explorer.games.dagger.nemesis_scenario import initial_state, phase_context
from explorer.games.dagger.round_scenario import play_rounds
from explorer.games.dagger.setup_scenario import SETUP_SEQUENCE, SetupContext, SetupState
from explorer.kernel import play, play_last, play_until_refused

GAME = get_game("dagger")
BUILTINS = [(i.name, i.kind) for i in GAME.scenarios()]


def _phase_ctx(state, ctx, start):
    """The context :func:`play_phase` plays a phase with (its section prefix and start)."""
    return replace(ctx, prefix=f"Round {state.round} · ", showdown_at_start=state.showdown, start=start)


def _phases_both_ways(board, state, phases, start, stop):
    """Play ``phases`` Nemesis Phases from ``state`` with every frame kept, loud and quiet, phase by phase: the
    states must agree after every step function; quiet steps are empty. Returns the loud end state."""
    for i in range(phases):
        first, last = (start if i == 0 else STEP_SECTIONS[0]), (stop if i == phases - 1 else STEP_SECTIONS[-1])
        loud_ctx = phase_context(board)
        quiet_ctx = replace(phase_context(board), quiet=True)
        seq = phase_sequence(first, last)
        loud = play(state, seq, _phase_ctx(state, loud_ctx, first), stop=phase_over)
        quiet = play(state, seq, _phase_ctx(state, quiet_ctx, first), stop=phase_over)
        assert [f.name for f in quiet] == [f.name for f in loud]
        assert [f.state for f in quiet] == [f.state for f in loud]
        assert all(f.steps == () for f in quiet) and any(f.steps for f in loud)
        assert play_last(state, seq, _phase_ctx(state, quiet_ctx, first), stop=phase_over)[0].state == loud[-1].state
        assert play_phase(state, quiet_ctx, start=first, stop=last)[-1].state == loud[-1].state
        state = loud[-1].state if loud else state
        if phase_over(state):
            break
    return state


def _rounds_both_ways(sc, **kw):
    loud, refusal, start, _ctx = play_rounds(sc, **kw)
    quiet, q_refusal, q_start, _q = play_rounds(sc, quiet=True, **kw)
    assert q_start == start
    assert (str(q_refusal), getattr(q_refusal, "field", None)) == (str(refusal), getattr(refusal, "field", None))
    assert quiet[-1].state == loud[-1].state
    hero_turns = [f.state for f in loud if f.name.startswith("Hero Phase ›")]
    assert [f.state for f in quiet if f.name.startswith("Hero Phase ›")] == hero_turns   # every turn kept
    steps_after_setup = [f.steps for f in quiet if not f.name.startswith("Setup")]
    assert all(s == () for s in steps_after_setup)
    return loud[-1].state


@pytest.mark.parametrize("name,kind", BUILTINS)
def test_every_builtin_plays_to_the_same_states_quiet_and_loud(name, kind):
    sc = GAME.load_builtin(name)[1]
    if kind == "nemesis":
        _phases_both_ways(sc, initial_state(sc), sc.phases, sc.start, sc.stop)
    elif kind == "hero":
        got, refusal = play_until_refused(HeroPhaseState(initial_state(sc.board), len(sc.actions)), HERO_ACTIONS,
                                          HeroContext(rulings=phase_context(sc.board).rulings, scenario=sc))
        q_got, q_refusal = play_until_refused(HeroPhaseState(initial_state(sc.board), len(sc.actions)), HERO_ACTIONS,
                                              HeroContext(rulings=phase_context(sc.board).rulings, scenario=sc,
                                                          quiet=True))
        assert [f.state for f in q_got] == [f.state for f in got] and str(q_refusal) == str(refusal)
        after = got[-1].state.game if got else initial_state(sc.board)
        if sc.then_phase and not after.won:
            _phases_both_ways(sc.board, after, sc.board.phases, sc.board.start, sc.board.stop)
    elif kind == "round":
        _rounds_both_ways(sc)
    else:
        assert kind == "setup"
        loud = play(SetupState(), SETUP_SEQUENCE, SetupContext(dice=Dice(seed=sc.seed), scenario=sc))
        quiet = play(SetupState(), SETUP_SEQUENCE, SetupContext(dice=Dice(seed=sc.seed), scenario=sc, quiet=True))
        assert [f.state for f in quiet] == [f.state for f in loud]


def test_the_builtins_cover_every_kind():
    assert {k for _n, k in BUILTINS} == {"nemesis", "hero", "round", "setup"}


NEMESIS_BOARDS = [n for n, k in BUILTINS if k == "nemesis"]


@settings(max_examples=60, deadline=None)
@given(name=st.sampled_from(NEMESIS_BOARDS), data=st.data(), phases=st.integers(1, 3), threat=st.integers(0, 19))
def test_hypothesis_decks_play_the_same_quiet_and_loud(name, data, phases, threat):
    """Any order of a board's event deck, any starting threat, one to three phases: the same state after every step
    function."""
    sc = GAME.load_builtin(name)[1]
    deck = data.draw(st.permutations(sc.state.event_deck))
    start = initial_state(sc).evolve(event_deck=tuple(deck), threat=threat)
    loud_end = _phases_both_ways(sc, start, phases, STEP_SECTIONS[0], STEP_SECTIONS[-1])
    quiet_end = play_phases(start, replace(phase_context(sc), quiet=True), phases)[-1].state
    assert quiet_end == loud_end


ROUND_FILES = [n for n, k in BUILTINS if k == "round"]


@settings(max_examples=40, deadline=None)
@given(name=st.sampled_from(ROUND_FILES), data=st.data(), seed=st.integers(0, 2**16))
def test_hypothesis_decks_play_whole_rounds_the_same_quiet_and_loud(name, data, seed):
    """A round file on a hypothesis-drawn event deck (for a file with ``[setup]``, an order of the deck Setup deals)
    and seed (its unplanned rolls): the same state after every Hero Phase turn and at the end, the same refusal."""
    sc = GAME.load_builtin(name)[1]
    if sc.setup is not None:
        dealt = play_rounds(sc, seed=seed)[0]
        names = next(f.state.game for f in dealt if f.name == "Setup › the board").event_deck
        order = tuple(c.name for c in data.draw(st.permutations(names)))
        _rounds_both_ways(sc, seed=seed, dealt=order)
    else:
        deck = tuple(data.draw(st.permutations(sc.board.state.event_deck)))
        _rounds_both_ways(replace(sc, board=replace(sc.board, state=replace(sc.board.state, event_deck=deck))),
                          seed=seed)


def test_the_forecasts_give_the_same_answer_quiet_and_loud():
    """The exact forecasts (quiet by default) against the same computation with every step's text built."""
    sc = GAME.load_builtin("dg-five-rounds")[1]
    assert planned_forecast(sc, 2) == planned_forecast(sc, 2, quiet=False)
    sc = GAME.load_builtin("dg-two-rounds")[1]
    assert planned_forecast(sc, 2) == planned_forecast(sc, 2, quiet=False)
    board = GAME.load_builtin("dg-loss-threat")[1]
    assert loss_forecast(board, 2) == loss_forecast(board, 2, quiet=False)
