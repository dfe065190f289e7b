"""The sequence kernel (explorer/kernel.py): frozen steps, frames, play/replay, the one refusal, the one dice source;
and, over every game of the registry, that each declared rule sequence is made of plain step functions."""

from __future__ import annotations

import dataclasses
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from explorer.dice import Dice, ScriptedRoller
from explorer.errors import Rejection, RuleViolation, ScenarioError
from explorer.games import all_games
from explorer.kernel import (Context, Each, Frame, is_frozen_state, is_plain_step_function, play, play_last,
                             play_until_refused, run, step_functions, trace_of)
from explorer.trace import Facts, RuleRef, Step

RULE = RuleRef("Demo", "Counting")


@dataclasses.dataclass(frozen=True)
class Count:
    n: int = 0
    seen: tuple[str, ...] = ()


def add_one(state: Count, ctx: Context):
    return dataclasses.replace(state, n=state.n + 1), (Step(f"now {state.n + 1}", RULE, facts={"n": state.n + 1}),)


def double(state: Count, ctx: Context):
    return dataclasses.replace(state, n=state.n * 2), (Step(f"doubled to {state.n * 2}", RULE),)


def nothing(state: Count, ctx: Context):
    return state, ()


def refuse_big(state: Count, ctx: Context):
    if state.n > 2:
        raise RuleViolation(f"{state.n} is more than 2", RULE, field="count", step="check")
    return state, ()


def visit(state: Count, ctx: Context, item: str):
    return dataclasses.replace(state, seen=state.seen + (item,)), (Step(f"visits {item}", RULE),)


SEQ = (("one", add_one), ("two", add_one), ("double", double), ("idle", nothing))


def test_play_gives_one_frame_per_step_with_the_state_after_it():
    frames = play(Count(), SEQ, Context())
    assert [f.name for f in frames] == ["one", "two", "double", "idle"]
    assert [f.state.n for f in frames] == [1, 2, 4, 4]
    assert frames[-1].steps == ()
    assert [s.title for f in frames for s in f.steps] == ["now 1", "now 2", "doubled to 4"]


@given(st.integers(0, 4))
def test_replaying_fewer_steps_is_going_back(upto):
    whole = play(Count(), SEQ, Context())
    part = play(Count(), SEQ, Context(), upto=upto)
    assert part == whole[:upto]


def test_run_and_trace_of_collect_every_step_in_order():
    state, steps = run(Count(), SEQ, Context())
    assert state.n == 4 and [s.title for s in steps] == ["now 1", "now 2", "doubled to 4"]
    t = trace_of("demo", play(Count(), SEQ, Context()), {"k": "v"}, {"n": 4})
    assert t.rulings == {"k": "v"} and t.outcome == {"n": 4} and len(t.steps) == 3


def test_each_makes_one_frame_per_item_and_stop_ends_it_early():
    seq = (Each("visit {item}", lambda s: ("a", "b", "c"), visit, stop=lambda s: len(s.seen) == 2),)
    frames = play(Count(), seq, Context())
    assert [f.name for f in frames] == ["visit a", "visit b"]
    assert frames[-1].state.seen == ("a", "b")


EMPTY_EACH = Each("none {item}", lambda s: (), visit)
STOP_EACH = Each("visit {item}", lambda s: ("a", "b", "c"), visit, stop=lambda s: len(s.seen) == 2)


@given(st.lists(st.sampled_from([("one", add_one), ("double", double), ("idle", nothing), EMPTY_EACH, STOP_EACH]),
                max_size=6), st.integers(0, 5), st.booleans())
def test_play_last_is_the_last_frame_of_play(seq, at, quiet):
    """Any sequence (plain steps, an empty Each, an Each that stops early), any stop: the last frame alone."""
    ctx = Context(quiet=quiet)
    stop = lambda s: s.n >= at               # noqa: E731
    assert play_last(Count(), tuple(seq), ctx, stop=stop) == play(Count(), tuple(seq), ctx, stop=stop)[-1:]


def test_stop_ends_the_play_after_the_step_that_makes_it_true():
    frames = play(Count(), SEQ, Context(), stop=lambda s: s.n >= 2)
    assert [f.name for f in frames] == ["one", "two"]


def test_a_refusal_stops_the_play_and_names_rule_field_and_reason():
    seq = SEQ + (("check", refuse_big),)
    with pytest.raises(RuleViolation) as e:
        play(Count(), seq, Context())
    assert e.value.rejection == Rejection("check", "count", "4 is more than 2", RULE)
    assert str(e.value) == "field 'count': not allowed (check): 4 is more than 2 (allowed: see Demo: Counting)"
    assert isinstance(e.value, ScenarioError)
    frames, refusal = play_until_refused(Count(), seq, Context())
    assert len(frames) == 4 and refusal.rejection.field == "count"
    frames, refusal = play_until_refused(Count(), SEQ, Context())
    assert len(frames) == 4 and refusal is None


def test_a_refusal_without_field_keeps_the_short_form():
    v = RuleViolation("Wolverine is not on the board", "Hero Phase")
    assert str(v) == "Wolverine is not on the board [Hero Phase]" and v.section == "Hero Phase"
    assert str(RuleViolation("no section")) == "no section"
    assert RuleViolation("x", RULE).section == "Counting"


def test_a_refusal_can_name_the_values_its_field_allows_there():
    v = RuleViolation("no card is drawn", "Event Phase", field="mission.event", step="Round 3", source="r.toml",
                      allowed=[""])
    assert str(v) == ("r.toml: field 'mission.event': not allowed (Round 3): no card is drawn "
                      "(allowed: one of ''; see Event Phase)")
    assert "(allowed: none here; see Event Phase)" in str(RuleViolation("x", "Event Phase", field="f", allowed=[]))
    assert str(RuleViolation("x", None, field="f", allowed=["A", "B"])).endswith("(allowed: one of 'A', 'B')")
    assert str(RuleViolation("x", "Event Phase", field="f")).endswith("(allowed: see Event Phase)")   # unchanged


def test_steps_are_frozen_and_their_facts_read_only():
    s = Step("t", RULE, facts={"a": [1]}, marks=["m"])
    with pytest.raises(dataclasses.FrozenInstanceError):
        s.title = "other"  # type: ignore[misc]
    for mutate in (lambda f: f.__setitem__("b", 1), lambda f: f.update(b=1), lambda f: f.pop("a"),
                   lambda f: f.clear(), lambda f: f.setdefault("b", 1), lambda f: f.__delitem__("a")):
        with pytest.raises(TypeError):
            mutate(s.facts)
    assert isinstance(s.facts, Facts) and s.marks == ("m",)
    assert json.loads(json.dumps(s.to_dict()))["facts"] == {"a": [1]}
    moved = s.in_section("Elsewhere")
    assert moved.section == "Elsewhere" and s.section == "" and moved.facts == s.facts


def test_dice_take_given_faces_then_refuse_more_than_given():
    d = Dice(seed=3)
    assert d.take([4, 5, 6], 2, "dice", "A") == ([4, 5], "given")
    assert d.take([4, 5, 6], 1, "dice", "A") == ([6], "given")
    with pytest.raises(ScenarioError, match="4 dice are needed"):
        d.take([4, 5, 6], 1, "dice", "A")
    assert d.take(None, 0, "x", "A") == ([], "none")


def test_dice_from_the_same_seed_are_the_same_and_an_explicit_roller_wins():
    a, b = Dice(seed=11), Dice(seed=11)
    assert a.take(None, 5, "f", "A") == b.take(None, 5, "f", "A")
    r = Dice(ScriptedRoller([7, 8]), seed=1)
    assert r.take([1, 1], 2, "f", "A") == ([7, 8], "roller")
    assert Dice(seed=2).fact("seed") == "rolled (seed 2)"


def test_frozen_state_and_plain_function_checks_can_fail():
    assert is_frozen_state(Count()) and is_frozen_state((1, 2))

    @dataclasses.dataclass
    class Loose:
        n: int = 0

    assert not is_frozen_state(Loose()) and not is_frozen_state([1])
    assert is_plain_step_function(add_one)
    assert not is_plain_step_function(lambda s, c: (s, ()))

    def local(state, ctx):
        return state, ()

    assert not is_plain_step_function(local)
    assert not is_plain_step_function(Frame)


def _declared_sequences():
    for g in all_games():
        if g.sequences is None:
            continue
        for name, seq in g.sequences().items():
            yield g.id, name, seq


@pytest.mark.parametrize("game,name,seq", list(_declared_sequences()))
def test_every_declared_sequence_is_made_of_plain_step_functions(game, name, seq):
    fns = step_functions(seq)
    assert fns, f"{game} {name}: an empty sequence"
    for step_name, fn in fns:
        assert is_plain_step_function(fn), f"{game} {name} › {step_name}: {fn!r} is not a plain module-level function"


@given(st.integers(0, 2**32), st.lists(st.integers(), max_size=12), st.integers(1, 4))
def test_dice_shuffles_exactly_as_the_random_random_they_replace(seed, deck, times):
    # the D.A.G.G.E.R. event deck (initial_state) and the forecast's samples moved from random.Random(seed).shuffle
    # to Dice(seed).shuffled: every draw must stay the same
    rng, dice = __import__("random").Random(seed), Dice(seed=seed)
    for _ in range(times):
        want = list(deck)
        rng.shuffle(want)
        assert dice.shuffled(deck) == tuple(want)


WITHOUT_SEQUENCE = {"tagraid": ("table",)}
"""Kinds that are one question, not a sequence of rule steps: TAG Raid's ``table`` lists one shooter's Line of Fire
verdicts (a table with ``targets`` plays the roll exchange its board decides, on the kernel)."""


def _played_sequences(monkeypatch, game):
    """Resolve every built-in of ``game`` recording each sequence the kernel plays and every frame it yields."""
    import explorer.kernel as kernel

    played: list[tuple[str, tuple, list]] = []
    real = kernel._frames

    def recording(initial, sequence, ctx, upto, stop):
        frames: list = []
        played[-1][2].append((tuple(sequence), initial, frames))
        for f in real(initial, sequence, ctx, upto, stop):
            frames.append(f)
            yield f

    monkeypatch.setattr(kernel, "_frames", recording)
    for name in game.builtin_names():
        played.append((name, (), []))
        game.resolve(game.load_builtin(name))
    return played


@pytest.mark.parametrize("game", [g for g in all_games() if g.sequences is not None], ids=lambda g: g.id)
def test_every_builtin_is_played_by_the_kernel_over_frozen_states_and_plain_steps(monkeypatch, game):
    declared = {id(seq): name for name, seq in game.sequences().items()}
    seen_declared: set[str] = set()
    played = _played_sequences(monkeypatch, game)
    assert played
    for builtin, _, runs in played:
        if not runs:
            sc = game.load_builtin(builtin)
            kind = sc.kind if game.id == "tagraid" else sc[0]
            assert kind in WITHOUT_SEQUENCE.get(game.id, ()), \
                f"{game.id} {builtin}: a {kind!r} scenario resolved without the sequence kernel"
            continue
        for sequence, initial, frames in runs:
            assert is_frozen_state(initial), f"{game.id} {builtin}: initial state {type(initial).__name__}"
            for step_name, fn in step_functions(sequence):
                assert is_plain_step_function(fn), f"{game.id} {builtin} › {step_name}: {fn!r}"
            for f in frames:
                assert is_frozen_state(f.state), \
                    f"{game.id} {builtin} › {f.name}: {type(f.state).__name__} is not frozen"
                assert all(isinstance(s, Step) for s in f.steps)
    for builtin, _, runs in played:
        for sequence, _, _ in runs:
            for name, seq in game.sequences().items():
                if tuple(seq) == sequence:
                    seen_declared.add(name)
    assert seen_declared == set(declared.values()), f"{game.id}: declared sequences no built-in plays: " \
        f"{sorted(set(declared.values()) - seen_declared)}"
