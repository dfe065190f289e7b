"""Dice rollers.

A roller hands out die faces one at a time. Rules functions take a roller, never a global RNG, so a resolution
is reproducible: :class:`SeededRoller` for random-but-repeatable play, :class:`ScriptedRoller` for the dice a
player actually rolled at the table (or a rulebook example).

>>> r = ScriptedRoller([5, 7, 15])
>>> [r.roll(20, "A die 1"), r.roll(20, "A die 2"), r.roll(20, "A die 3")]
[5, 7, 15]
>>> r.roll(20, "B die 1")
Traceback (most recent call last):
...
explorer.errors.DiceScriptExhausted: the dice script ran out: 3 values were given, a 4th die was needed for 'B die 1'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Protocol, TypeVar, runtime_checkable

from .errors import DiceScriptExhausted, ScenarioError, short_repr
from .text import agree, plural

SEED_MAX = 2**63 - 1
"""The largest seed, everywhere: every ``seed`` field of every file format and every ``--seed`` option takes
0..``SEED_MAX`` (a seed a file or a page saves can be typed back on the command line, and the other way round)."""

T = TypeVar("T")


@runtime_checkable
class Roller(Protocol):
    """Anything that can roll one die: ``roll(sides, label) -> face`` with ``1 <= face <= sides``."""

    def roll(self, sides: int = 20, label: str = "") -> int: ...


class SeededRoller:
    """Uniform random faces from a private ``random.Random(seed)``; the same seed gives the same dice."""

    def __init__(self, seed: int | None = None):
        import random   # here: a command that rolls nothing (the odds verbs, --help) need not load it

        self.seed = seed
        self._rng = random.Random(seed)

    def roll(self, sides: int = 20, label: str = "") -> int:
        return self._rng.randint(1, sides)

    def shuffled(self, items: Iterable[T]) -> tuple[T, ...]:
        """``items`` in a random order drawn from the same ``random.Random(seed)`` as the dice (its ``shuffle``: a
        first shuffle of a new roller is exactly ``random.Random(seed).shuffle``)."""
        out = list(items)
        self._rng.shuffle(out)
        return tuple(out)


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


class ScriptedRoller:
    """Faces taken in order from a fixed script (the dice rolled at the table).

    Raises:
        ScenarioError: at construction, if a value is not an integer die face in ``1..max_face``.
        DiceScriptExhausted: when more dice are asked for than the script holds; the message names the die.
    """

    def __init__(self, values: Iterable[int], max_face: int = 20, field: str = "dice"):
        self.values = list(values)
        for i, v in enumerate(self.values):
            if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= max_face:
                raise ScenarioError(f"{field}[{i}]", f"{short_repr(v)} is not a d{max_face} face",
                                    f"whole numbers 1 to {max_face}")
        self.used = 0

    def roll(self, sides: int = 20, label: str = "") -> int:
        if self.used >= len(self.values):
            raise DiceScriptExhausted(
                f"the dice script ran out: {plural(len(self.values), 'value')} "
                f"{'was' if len(self.values) == 1 else 'were'} given, "
                f"a {_ordinal(self.used + 1)} die was needed" + (f" for '{label}'" if label else ""))
        v = self.values[self.used]
        if v > sides:
            raise ScenarioError(f"dice[{self.used}]", f"{v} cannot be rolled on a d{sides}", f"1 to {sides}")
        self.used += 1
        return v

    @property
    def remaining(self) -> int:
        return len(self.values) - self.used


class Dice:
    """The one dice source of a rule sequence (:class:`explorer.kernel.Context`'s ``dice``): the faces a scenario
    fixes where it gives them (a script per field), a :class:`SeededRoller` for the rest, or one explicit
    :class:`Roller` for everything.

    Args:
        roller: when given, every die comes from it (a test's or a widget's roller); scripts and seed are ignored.
        seed: the seed of the dice not given; ``None`` draws a fresh one so that the trace can name it and the roll
            can be replayed (``--seed``).

    Attributes:
        seed: the seed in use (``int``).
        cursor: ``{field: faces taken so far}`` per script (a replay starts from a new :class:`Dice`).
        drawn: deciding dice drawn from the seed so far (0 while every such die came from the scripts; see
            :meth:`take`'s ``decides``).

    Validity never depends on a draw (issue #25): a script that runs short is refused only while every die so far
    was given (then how many dice are needed is fixed by the file, whatever the seed); once a die that can decide
    a later count (``take(..., decides=True)``, the default; any :meth:`roll`) has been drawn,
    the number needed may depend on that draw, so the faces the script lacks are drawn from the seed too (source
    ``"mixed"``) and the same file is accepted for every draw, with or without ``--seed``.

    >>> d = Dice(seed=7)
    >>> d.take([3, 18], 2, "active.dice", "A die")
    ([3, 18], 'given')
    >>> faces, source = d.take(None, 2, "reactive.dice", "B die")
    >>> source, len(faces), all(1 <= f <= 20 for f in faces)
    ('seed', 2, True)
    """

    def __init__(self, roller: Roller | None = None, seed: int | None = None):
        self.roller = roller
        if seed is None:
            import random

            seed = random.SystemRandom().randrange(10**9)
        self.seed = seed
        self.seeded = SeededRoller(self.seed)
        self.cursor: dict[str, int] = {}
        self.drawn = 0
        self.scripts: dict[str, tuple[list[int], str]] = {}

    def roll(self, sides: int = 20, label: str = "") -> int:
        """One die (the :class:`Roller` protocol): from the explicit roller, else from the seed."""
        if self.roller is not None:
            return self.roller.roll(sides, label)
        self.drawn += 1
        return self.seeded.roll(sides, label)

    def shuffled(self, items: Iterable[T]) -> tuple[T, ...]:
        """A deck shuffled from the seed (:meth:`SeededRoller.shuffled`; an explicit roller rolls dice only).
        The seed's one stream serves the dice and the shuffles in the order they are asked for: a sequence that
        shuffles before it rolls, from a new ``Dice(seed=s)``, shuffles exactly as ``random.Random(s).shuffle``.

        >>> import random
        >>> deck = list("abcdef")
        >>> random.Random(3).shuffle(deck)
        >>> Dice(seed=3).shuffled("abcdef") == tuple(deck)
        True
        """
        return self.seeded.shuffled(items)

    def fact(self, source: str) -> str:
        """The ``source`` fact of a roll step: ``"given"``, ``"rolled (seed 7)"``, ``"rolled"`` (an explicit
        roller) or ``"given, the rest rolled (seed 7)"``."""
        return {"given": "given", "seed": f"rolled (seed {self.seed})", "roller": "rolled",
                "mixed": f"given, the rest rolled (seed {self.seed})"}[source]

    def says(self, source: str) -> str:
        """Where a roll's dice came from, for the step text: ``"dice given"``, ``"rolled, seed 7"`` (the seed, or
        the explicit roller's when it has one) or ``"rolled by the roller passed in"``."""
        if source == "given":
            return "dice given"
        if source == "seed":
            return f"rolled, seed {self.seed}"
        if source == "mixed":
            return f"dice given, the rest rolled, seed {self.seed}"
        seed = getattr(self.roller, "seed", None)
        return f"rolled, seed {seed}" if seed is not None else "rolled by the roller passed in"

    def take(self, script: Sequence[int] | None, n: int, field: str, label: str, sides: int = 20,
             decides: bool = True) -> tuple[list[int], str]:
        """``n`` faces of a d``sides`` for ``field`` (a scenario field path) and where they came from: ``"given"``
        (the next ``n`` of ``script``), ``"seed"``, ``"roller"``, ``"mixed"`` (the rest of ``script``, then faces
        drawn from the seed: a script run short after a deciding die was drawn) or ``"none"`` when ``n <= 0``.

        ``decides``: whether these dice's faces can change how many dice a later step needs (an attack roll's hits
        decide the Saving Rolls); ``False`` for dice whose faces decide no later count (a caller's promise), so that
        drawing them leaves a later short script refused, as the file alone decides it.

        Raises:
            ScenarioError: ``script`` holds fewer faces than needed while every die so far was given (names the
                field and how many).
        """
        if script is not None:
            self.scripts.setdefault(field, (list(script), label))
        if n <= 0:
            return [], "none"
        if self.roller is not None:
            return [self.roller.roll(sides, f"{label} {i + 1}") for i in range(n)], "roller"
        if script is not None:
            start = self.cursor.get(field, 0)
            if start + n > len(script) and self.drawn:
                given = list(script[start:])
                self.cursor[field] = len(script)
                self.drawn += (n - len(given)) if decides else 0
                return given + [self.seeded.roll(sides, f"{label} {i + 1}")
                                for i in range(len(given), n)], "mixed"
            if start + n > len(script):
                raise ScenarioError(field, f"{plural(start + n, 'die')} {agree(start + n, 'is', 'are')} needed "
                                    f"({label}) but only {len(script)} {agree(len(script), 'is', 'are')} given",
                                    f"exactly {start + n} faces, or leave '{field.rsplit('.', 1)[-1]}' out to roll "
                                    f"them", None)
            self.cursor[field] = start + n
            return list(script[start:start + n]), "given"
        self.drawn += n if decides else 0
        return [self.seeded.roll(sides, f"{label} {i + 1}") for i in range(n)], "seed"

    def check_used(self, scripts: Mapping[str, Sequence[int] | None] | None = None) -> None:
        """Refuse fixed faces the sequence did not use (issue #25 item 4: a list that fixes dice gives exactly the
        dice its roll uses; extra faces are refused, never dropped). Call it once a whole sequence has played.
        ``scripts``: ``{field: faces}`` of fixed lists that may not have been asked for at all (a Miner that made no
        Saving Roll), besides the ones :meth:`take` saw.

        While no deciding die was drawn (``drawn == 0``) the file alone fixes how many dice each list needs, so a
        longer list is refused; once a deciding die was drawn the count depends on that draw, and refusing would
        make the file's validity depend on it, so unused faces are left (the steps name the dice used). A list for a
        roll the sequence does not make at all (no die taken from it: a Saving Roll for a reading where no hit lands,
        as handed case TR-34 fixes one) is not refused: it gives the dice of a roll that did not happen.
        An explicit roller uses no script: nothing to check.

        Raises:
            ScenarioError: naming the field and "exactly N faces".

        >>> d = Dice(seed=1)
        >>> d.take([4, 5, 6], 2, "saves", "a Saving Roll")
        ([4, 5], 'given')
        >>> d.check_used()
        Traceback (most recent call last):
        ...
        explorer.errors.ScenarioError: field 'saves': 3 faces given but 2 are rolled (a Saving Roll) (allowed: exactly 2 faces)
        """
        if self.roller is not None or self.drawn:
            return
        seen = dict(self.scripts)
        for field, faces in (scripts or {}).items():
            if faces is not None:
                seen.setdefault(field, (list(faces), ""))
        for field, (faces, label) in seen.items():
            used = self.cursor.get(field, 0)
            if used and len(faces) > used:
                raise ScenarioError(field, f"{plural(len(faces), 'face')} given but {used} "
                                    f"{agree(used, 'is', 'are')} rolled" + (f" ({label})" if label else ""),
                                    f"exactly {plural(used, 'face')}", None)
