"""The sequence kernel: one shape for every rule sequence of every game.

A long procedure of a rulebook (TAG Raid's roll resolution and Order Expenditure Sequence, a Mass Effect enemy
activation, a Galaxy Defenders A.I. activation or round phase, the D.A.G.G.E.R. Nemesis Phase) is written the same
way in every game:

* the **state** is a frozen value type with typed fields (a ``@dataclass(frozen=True)`` of the game's);
* a **step function** is a plain module-level function named after its rulebook step,
  ``step(state: S, ctx: C) -> tuple[S, tuple[Step, ...]]``: the state in, the next state and the cited
  :class:`~explorer.trace.Step` values out (a step that has nothing to do returns the state unchanged and ``()``);
* the **context** ``ctx`` carries what a step reads but never changes: the declarations (the players' choices),
  the ruling readings and the dice (one :class:`~explorer.dice.Dice`); a game subclasses :class:`Context` to add its
  own read-only inputs (a map, a calibration);
* a **sequence** is a tuple of ``(name, step function)`` pairs in rulebook order (:data:`Sequence`), or
  :class:`Each` for a step applied once per item (one Enemy activation after another);
* :func:`play` runs a sequence and returns one :class:`Frame` per step (the state after it and the steps that
  explain it); going back is replaying from the initial state with ``upto`` one fewer (boardgame.io's time travel:
  the declarations are the log, the dice are replayed from their script and seed);
* a caller that reads only the states sets ``ctx.quiet`` (:class:`Context`): the same step functions, the same
  states, no step text built (the steps are ``()``);
* a declaration the rules refuse raises the one refusal type, :class:`~explorer.errors.RuleViolation` (rule, field,
  reason); :func:`play_until_refused` stops there and returns it for a stepper to show.

A step function (a sketch of D.A.G.G.E.R.'s ``nemesis.advance_threat``; ``docs/design.md`` item 31 shows a real one
whole)::

    def advance_threat(state: NemesisState, ctx: PhaseContext) -> tuple[NemesisState, tuple[Step, ...]]:
        \"\"\"Nemesis Phase step 1: the threat marker moves up by the threat value.\"\"\"
        new = replace(state, threat=state.threat + state.threat_value)
        return new, (Step(f"Threat rises to {new.threat}", S.ADVANCE_THREAT, facts={"threat": new.threat}),)

>>> from dataclasses import dataclass, replace
>>> from explorer.trace import RuleRef, Step
>>> @dataclass(frozen=True)
... class Count:
...     n: int = 0
>>> def add_one(state, ctx):
...     return replace(state, n=state.n + 1), (Step("one more", RuleRef("Demo", "Counting")),)
>>> frames = play(Count(), (("first", add_one), ("second", add_one)), Context())
>>> [(f.name, f.state.n) for f in frames]
[('first', 1), ('second', 2)]
>>> [f.state.n for f in play(Count(), (("first", add_one), ("second", add_one)), Context(), upto=1)]
[1]
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable, Mapping
from collections.abc import Sequence as _Seq
from dataclasses import dataclass, field, is_dataclass
from typing import Any, Generic, TypeVar

from explorer.errors import Rejection, RuleViolation
from explorer.trace import Facts, RuleRef, Step, Trace

__all__ = ["Context", "Each", "Outcome", "Facts", "Frame", "Rejection", "RuleRef", "RuleViolation", "Sequence", "Step",
           "StepFn", "Trace", "is_frozen_state", "play", "play_last", "play_until_refused", "run", "steps_of",
           "trace_of", "step_functions", "StepShown", "steps_shown"]

S = TypeVar("S")
C = TypeVar("C", bound="Context")

StepFn = Callable[[Any, Any], "tuple[Any, tuple[Step, ...]]"]
"""``step(state, ctx) -> (state, steps)``: one rulebook step as a plain function over a frozen state."""


@dataclass(frozen=True)
class Context:
    """What a step reads besides the state, never changes: the base every game's context extends.

    Attributes:
        rulings: the ruling readings (:class:`explorer.options.Rulings`), or ``None`` where a sequence consults none.
            (``Rulings.reading`` records which options were consulted so that a trace lists them: that record is
            the only thing a step may write to, and it is not part of the state.)
        dice: the one dice source of the sequence (:class:`explorer.dice.Dice`), or ``None`` where no die is rolled.
        quiet: ``True`` for a caller that reads only the states (an exact forecast playing thousands of positions):
            a step function may then build no :class:`~explorer.trace.Step` (no titles, details or facts) and
            return ``()``; everything else (the state it returns, the dice it rolls, the refusals it raises) must
            be exactly what it does with ``quiet`` ``False`` (a game's tests play both ways and compare).
    """

    rulings: Any = None
    dice: Any = None
    quiet: bool = field(default=False, kw_only=True)      # keyword only: the subclasses' positional fields stay


@dataclass(frozen=True)
class Each:
    """A step applied once per item: ``items(state)`` names them (read once, from the state when this entry is
    reached), ``step(state, ctx, item)`` handles one, and each item gets its own :class:`Frame` named
    ``name.format(item=item)``. ``stop(state)`` (optional) ends the loop early (a loss, a death).

    Example: the Nemesis Phase activates the enemies one after another, one frame each.
    """

    name: str
    items: Callable[[Any], Iterable[Any]]
    step: Callable[[Any, Any, Any], "tuple[Any, tuple[Step, ...]]"]
    stop: Callable[[Any], bool] | None = None


Sequence = _Seq["tuple[str, StepFn] | Each"]
"""A rule sequence: ``(name, step function)`` pairs and :class:`Each` entries, in rulebook order."""


@dataclass(frozen=True)
class Frame(Generic[S]):
    """The game after one step of a sequence.

    Attributes:
        name: the sequence step's name (``"2.1 ARO check"``; an :class:`Each` item's formatted name).
        state: the frozen state right after the step (views draw from this, never from ``steps``' facts).
        steps: the cited steps that explain what changed, in order (may be empty: nothing to do).
    """

    name: str
    state: S
    steps: tuple[Step, ...] = ()


def _call(fn: StepFn, state: Any, ctx: Any) -> tuple[Any, tuple[Step, ...]]:
    new, steps = fn(state, ctx)
    return new, tuple(steps)


def _frames(initial: S, sequence: Sequence, ctx: Any, upto: int | None,
            stop: Callable[[S], bool] | None) -> Iterable[Frame[S]]:
    state = initial
    for i, entry in enumerate(sequence):
        if upto is not None and i >= upto:
            return
        if isinstance(entry, Each):
            for item in tuple(entry.items(state)):
                state, steps = entry.step(state, ctx, item)
                yield Frame(entry.name.format(item=item), state, tuple(steps))
                if entry.stop is not None and entry.stop(state):
                    break
        else:
            name, fn = entry
            state, steps = _call(fn, state, ctx)
            yield Frame(name, state, steps)
        if stop is not None and stop(state):
            return


def play(initial: S, sequence: Sequence, ctx: Any, *, upto: int | None = None,
         stop: Callable[[S], bool] | None = None) -> tuple[Frame[S], ...]:
    """Play ``sequence`` from ``initial``: its first ``upto`` entries (all when ``None``), one :class:`Frame` per step
    (an :class:`Each` entry gives one per item). ``stop(state)`` ends the play after the step that makes it true
    (a loss, the end of a match). Replaying with a smaller ``upto`` is going back in time.

    Raises:
        RuleViolation: a declaration the rules refuse (its rule, field and reason).
    """
    return tuple(_frames(initial, sequence, ctx, upto, stop))


def play_last(initial: S, sequence: Sequence, ctx: Any, *, stop: Callable[[S], bool] | None = None
              ) -> tuple[Frame[S], ...]:
    """``play(initial, sequence, ctx, stop=stop)[-1:]`` (the last frame alone, ``()`` when no step was played)
    without building the frames before it: for a caller that reads only where the sequence ends, such as a quiet one
    (:attr:`Context.quiet`). The same step functions are called with the same states, in the same order.

    Raises:
        RuleViolation: as :func:`play`.
    """
    state, last = initial, None
    for entry in sequence:
        if isinstance(entry, Each):
            for item in tuple(entry.items(state)):
                state, steps = entry.step(state, ctx, item)
                last = (entry.name.format(item=item), steps)
                if entry.stop is not None and entry.stop(state):
                    break
        else:
            state, steps = entry[1](state, ctx)
            last = (entry[0], steps)
        if stop is not None and stop(state):
            break
    return () if last is None else (Frame(last[0], state, tuple(last[1])),)


def play_until_refused(initial: S, sequence: Sequence, ctx: Any, *, upto: int | None = None,
                       stop: Callable[[S], bool] | None = None) -> tuple[tuple[Frame[S], ...], RuleViolation | None]:
    """Like :func:`play`, but a refused declaration ends the play instead of raising: returns the frames played
    before it and the :class:`~explorer.errors.RuleViolation` (``None`` when every step was allowed)."""
    frames: list[Frame[S]] = []
    try:
        for f in _frames(initial, sequence, ctx, upto, stop):
            frames.append(f)
    except RuleViolation as refusal:
        return tuple(frames), refusal
    return tuple(frames), None


def run(initial: S, sequence: Sequence, ctx: Any, *, stop: Callable[[S], bool] | None = None
        ) -> tuple[S, tuple[Step, ...]]:
    """Play the whole ``sequence``: ``(final state, every step in order)``; ``initial`` and ``()`` for an empty one.

    Raises:
        RuleViolation: as :func:`play`.
    """
    state, steps = initial, []
    for f in _frames(initial, sequence, ctx, None, stop):
        state = f.state
        steps.extend(f.steps)
    return state, tuple(steps)


def steps_of(frames: Iterable[Frame[Any]]) -> tuple[Step, ...]:
    """Every step of ``frames``, in order."""
    return tuple(s for f in frames for s in f.steps)


@dataclass(frozen=True)
class StepShown:
    """Which state a step-through shows at one cited step (:func:`steps_shown`).

    Attributes:
        step: the cited step; ``frame``: the index of the frame that cites it; ``last``: the step number (from 1,
            over all frames) of that frame's last step.
        shown: the index of the frame whose state is shown (``-1``: the state before the first frame).
        settled: ``True`` when that state is the one right after this step (the frame's last step); ``False`` for a
            step before its frame's last: the state is the one the frame found (its changes show at ``last``).
    """

    step: Step
    frame: int
    shown: int
    settled: bool
    last: int

    def note(self, frame_name: str) -> str:
        """What the shown state is, in words: ``""`` when it is the state after the step, else ``"the state as
        <frame_name> found it: its changes show at step <last>"``."""
        if self.settled:
            return ""
        return f"the state as {frame_name} found it: its changes show at step {self.last}"


def steps_shown(frames: _Seq[Frame[Any]]) -> tuple[StepShown, ...]:
    """One :class:`StepShown` per cited step of ``frames``, in order: the one rule every step-through follows.

    A frame has one state, the one after its last step. A frame's last step shows that state (the state after the
    step); a step before it shows the state the frame found (the previous frame's, ``-1`` before the first frame),
    never what a later step of the same frame does, and says so (:meth:`StepShown.note`).
    """
    out: list[StepShown] = []
    n = 0
    for i, f in enumerate(frames):
        last = n + len(f.steps)
        for j, s in enumerate(f.steps):
            done = j == len(f.steps) - 1
            out.append(StepShown(s, i, i if done else i - 1, done, last))
        n = last
    return tuple(out)


def trace_of(title: str, frames: Iterable[Frame[Any]], rulings: Mapping[str, str] | None = None,
             outcome: Any = None) -> Trace:
    """A :class:`~explorer.trace.Trace` of ``frames``: every step in order, the ruling readings consulted and the
    outcome (a game's typed outcome, or a JSON mapping)."""
    t = Trace(title, list(steps_of(frames)), dict(rulings or {}))
    if outcome is not None:
        t.outcome = outcome
    return t


class Outcome:
    """Base of every typed outcome: a scenario kind's result as a small frozen dataclass (declare subclasses with
    ``@dataclass(frozen=True)``). Outcome text, the pages, the gallery and pictures read its attributes;
    :meth:`to_json` writes the JSON object of ``explorer resolve --json`` and the golden files
    (:meth:`explorer.trace.Trace.with_result`)."""

    def to_json(self) -> dict[str, Any]:
        """The outcome as a JSON object (``dict`` of JSON values); every subclass defines it."""
        raise NotImplementedError(f"{type(self).__name__}.to_json")


# ---------------------------------------------------------------------------------------------- introspection


def is_frozen_state(value: Any) -> bool:
    """``True`` when ``value`` is a frozen dataclass instance (or a tuple / frozenset / ``NamedTuple``, or a
    scalar): the shape every sequence state must have."""
    if value is None or isinstance(value, (str, int, float, bool, bytes, frozenset, tuple)):
        return True
    if is_dataclass(value) and not isinstance(value, type):
        return bool(getattr(type(value), "__dataclass_params__").frozen)
    return False


def step_functions(sequence: Sequence) -> tuple[tuple[str, Callable], ...]:
    """``(name, function)`` of every entry of ``sequence`` (an :class:`Each`'s per-item step under its name), for the
    test that checks each is a plain module-level function."""
    out = []
    for entry in sequence:
        if isinstance(entry, Each):
            out.append((entry.name, entry.step))
        else:
            out.append((entry[0], entry[1]))
    return tuple(out)


def is_plain_step_function(fn: Callable) -> bool:
    """``True`` for a plain module-level function (not a method, lambda, class or closure) whose first two
    parameters are the state and the context."""
    if not inspect.isfunction(fn) or fn.__name__ == "<lambda>" or fn.__closure__:
        return False
    if "<locals>" in fn.__qualname__:
        return False
    params = list(inspect.signature(fn).parameters.values())
    return len(params) >= 2
