"""The Core Set components this rulebook relies on but does not print: dice faces and Critical token piles.

Sections: 9.2 Combat (the Hit roll's coloured dice, fixed hits), 11.12 Combat, Storybook 5.5.1 High Impact (the
Blue Defend die), 8.2 Critical and 8.2.3 Effects (the Critical 1 and Critical 2 piles).

The packaged default ``data/calibration.toml`` is an ASSUMPTION (a placeholder, not the printed components); users
enter their own faces and piles in the same format (see the file's comments) and pass the file to the CLI
(``--calibration``) or put the same tables in a scenario's ``[calibration]`` table. Every number has bounds and
every list a length cap; errors name the field (``dice.red.faces``) and what is allowed. The file format's pydantic
models are in :mod:`.calibration_file`, imported when a table is validated only.

>>> cal = default_calibration()
>>> cal.defend_die, cal.die("red").sides
('blue', 6)
>>> sum(f.hits for f in cal.die("red").faces)
3
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from explorer.errors import ScenarioError
from explorer.scenario import read_toml

if TYPE_CHECKING:
    from pathlib import Path

SYMBOLS = ("hit", "shield", "bolt", "jam", "ammo", "wings", "blank")
"""Die symbols a face may show (``"blank"`` only alone)."""

EFFECTS = ("def_dice_minus", "atk_dice_minus", "movement_minus", "max_health_minus", "paralyzed", "shields_removed",
           "no_bolt", "extra_damage")
"""Critical effects of 8.2.3."""

DURATION = {"extra_damage": "instant", "paralyzed": "temporary", "shields_removed": "temporary",
            "no_bolt": "temporary", "def_dice_minus": "permanent", "atk_dice_minus": "permanent",
            "movement_minus": "permanent", "max_health_minus": "permanent"}
"""Duration of each Critical effect as 8.2.3 lists it (green = instant, blue = temporary, red = permanent)."""

MAX_SIDES = 20
MAX_COLOURS = 8


@dataclass(frozen=True)
class Face:
    """One side of a die: its label as written (``"hit+bolt"``) and the count of each symbol on it."""

    label: str
    hits: int = 0
    shields: int = 0
    bolts: int = 0
    jams: int = 0
    ammo: int = 0
    wings: int = 0


@dataclass(frozen=True)
class Die:
    """A die colour and its faces (one :class:`Face` per physical side; uniform)."""

    colour: str
    faces: tuple[Face, ...]

    @property
    def sides(self) -> int:
        return len(self.faces)

    def face(self, label: str, field: str = "dice") -> Face:
        """The first face whose symbols equal ``label``'s (order-free: ``"bolt+hit"`` is ``"hit+bolt"``).

        Raises:
            ScenarioError: no face of this die shows those symbols (lists the faces).
        """
        want = parse_face(label, field)
        for f in self.faces:
            if _counts(f) == _counts(want):
                return f
        raise ScenarioError(field, f"the {self.colour} die has no face {label!r}",
                            sorted({f.label for f in self.faces}))


@dataclass(frozen=True)
class CriticalToken:
    """A kind of Critical token: ``id``, pile ``level`` (1 or 2), ``effect`` (one of :data:`EFFECTS`), ``x``,
    ``compat`` (``"agents"``, ``"others"`` = aliens/drones/NPCs, ``"all"``) and ``count`` in the pile."""

    id: str
    level: int
    effect: str
    x: int
    compat: str
    count: int = 1

    @property
    def duration(self) -> str:
        """``"instant"``, ``"temporary"`` or ``"permanent"`` (8.2.2/8.2.3)."""
        return DURATION[self.effect]

    def compatible(self, target_kind: str) -> bool:
        """Whether the token may stay on a target of this kind (8.2.1; NPCs follow the alien check, 10.4.1)."""
        if self.compat == "all":
            return True
        return (target_kind == "agent") == (self.compat == "agents")


@dataclass(frozen=True)
class Calibration:
    """Dice (``{colour: Die}``), the Defend die's colour and the Critical token kinds."""

    dice: Mapping[str, Die]
    defend_die: str
    tokens: tuple[CriticalToken, ...]
    source: str = "default (assumption)"

    def die(self, colour: str, field: str = "dice") -> Die:
        """The die of this colour.

        Raises:
            ScenarioError: unknown colour (lists the calibrated colours).
        """
        if colour not in self.dice:
            raise ScenarioError(field, f"no calibrated die colour {colour!r}", sorted(self.dice))
        return self.dice[colour]

    @property
    def defend(self) -> Die:
        return self.dice[self.defend_die]

    def pile(self, level: int) -> tuple[CriticalToken, ...]:
        """The token kinds of the Critical ``level`` pile."""
        return tuple(t for t in self.tokens if t.level == level)

    def token(self, token_id: str, field: str = "critical") -> CriticalToken:
        for t in self.tokens:
            if t.id == token_id:
                return t
        raise ScenarioError(field, f"no Critical token {token_id!r}", [t.id for t in self.tokens])


def _counts(f: Face) -> tuple[int, ...]:
    return (f.hits, f.shields, f.bolts, f.jams, f.ammo, f.wings)


def parse_face(label: str, field: str = "faces") -> Face:
    """A face written as symbols joined with ``+`` (``"hit+bolt"``, ``"blank"``).

    Raises:
        ScenarioError: an unknown symbol, ``blank`` with another symbol, or more than 4 symbols.
    """
    if not isinstance(label, str) or not label.strip() or len(label) > 60:
        raise ScenarioError(field, f"{label!r} is not a face", "symbols joined with '+': " + ", ".join(SYMBOLS))
    parts = [p.strip().lower() for p in label.split("+")]
    bad = [p for p in parts if p not in SYMBOLS]
    if bad:
        raise ScenarioError(field, f"unknown die symbol {bad[0]!r} in {label!r}", SYMBOLS)
    if "blank" in parts and len(parts) > 1:
        raise ScenarioError(field, f"'blank' cannot be combined with other symbols ({label!r})", SYMBOLS)
    if len(parts) > 4:
        raise ScenarioError(field, f"{label!r} has {len(parts)} symbols", "at most 4 symbols on one side")
    n = {s: parts.count(s) for s in SYMBOLS}
    return Face("+".join(parts), n["hit"], n["shield"], n["bolt"], n["jam"], n["ammo"], n["wings"])


def calibration_from_data(data: Mapping[str, Any], source: str, base: Calibration | None = None,
                          prefix: str = "") -> Calibration:
    """Validate a calibration table; parts it omits come from ``base`` (default: the packaged default).

    Args:
        data: ``{"defend_die": str, "dice": {colour: {"sides": int, "faces": [str]}}, "critical_tokens": [...]}``;
            each colour given replaces that colour of ``base``; ``critical_tokens``, if given, replaces every pile.
        source: file name for messages.
        base: what omitted parts default to.
        prefix: field path prefix in messages (``"calibration."`` inside a scenario).

    Raises:
        ScenarioError: a face list whose length is not ``sides`` (its probabilities would not sum to 1), an
            unknown symbol, a colour name that is not lower-case letters, an unknown ``defend_die``, a pile with
            no token compatible with some target kind, duplicate token ids.
    """
    from explorer.scenario import validate

    from .calibration_file import _CalibrationModel   # pydantic: only when a table is validated

    try:
        m = validate(_CalibrationModel, data, source)
    except ScenarioError as e:
        raise ScenarioError(prefix + e.field, e.problem, e.allowed, source) from None
    base = base if base is not None else default_calibration()
    dice: dict[str, Die] = dict(base.dice)   # colours the table names replace the base's; the others stay
    for colour, d in (m.dice or {}).items():
        if not colour.isalpha() or not colour.islower():
            raise ScenarioError(f"{prefix}dice.{colour}", "a die colour is a lower-case word", "e.g. red, blue",
                                source)
        if len(d.faces) != d.sides:
            raise ScenarioError(f"{prefix}dice.{colour}.faces",
                                f"lists {len(d.faces)} sides but the die has {d.sides}, so the face probabilities "
                                f"sum to {len(d.faces)}/{d.sides}, not 1", f"exactly {d.sides} faces", source)
        faces = []
        for i, label in enumerate(d.faces):
            try:
                faces.append(parse_face(label, f"{prefix}dice.{colour}.faces[{i}]"))
            except ScenarioError as e:
                raise ScenarioError(e.field, e.problem, e.allowed, source) from None
        dice[colour] = Die(colour, tuple(faces))
    if not dice:
        raise ScenarioError(f"{prefix}dice", "is required but missing", "a table of die colours", source)
    defend = m.defend_die or base.defend_die
    if defend not in dice:
        raise ScenarioError(f"{prefix}defend_die", f"{defend!r} is not a calibrated die colour", sorted(dice), source)
    if m.critical_tokens is None:
        tokens = base.tokens
    else:
        tokens = tuple(CriticalToken(t.id, t.level, t.effect, t.x, t.compat, t.count) for t in m.critical_tokens)
    ids = [t.id for t in tokens]
    dup = next((i for i in ids if ids.count(i) > 1), None)
    if dup:
        raise ScenarioError(f"{prefix}critical_tokens", f"token id {dup!r} is used twice", "unique ids", source)
    for level in {t.level for t in tokens}:
        pile = [t for t in tokens if t.level == level]
        for kind in ("agent", "alien"):
            if not any(t.compatible(kind) for t in pile):
                raise ScenarioError(f"{prefix}critical_tokens", f"the Critical {level} pile has no token compatible "
                                    f"with {'agents' if kind == 'agent' else 'aliens'}, so a draw would never end",
                                    "at least one 'all' token, or one for each side", source)
    return Calibration(dice, defend, tokens, source)


def load_calibration(path: str | Path) -> Calibration:
    """A calibration file (see ``data/calibration.toml``); omitted parts take the packaged default.

    Raises:
        ScenarioError: unreadable file, invalid TOML, an empty file, or an invalid field (see
            :func:`calibration_from_data`).
    """
    data = read_toml(path)
    if not data:  # every part omitted: surely a wrong file, not "the defaults, please"
        raise ScenarioError("", "the calibration file is empty", "at least one of the tables the packaged "
                            "data/calibration.toml has (omitted ones take its values)", str(path))
    return calibration_from_data(data, str(path), base=default_calibration())


@lru_cache(maxsize=1)
def default_calibration() -> Calibration:
    """The packaged default calibration (an ASSUMPTION: placeholder faces and piles, see the file), validated once
    and kept in the parse cache (:mod:`explorer.parsecache`: keyed by the file's bytes and the code version), so a
    command that plays a cached combat built-in reads it without pydantic (issue 18)."""
    import os

    from explorer.parsecache import cached

    path = os.path.join(os.path.dirname(__file__), "data", "calibration.toml")
    if os.path.isfile(path):
        with open(path, "rb") as f:
            data = f.read()
    else:   # pragma: no cover - a package that is not a directory on disk (importlib.resources: ~10 ms to import)
        from importlib import resources

        data = (resources.files(__package__) / "data" / "calibration.toml").read_bytes()
    source = "calibration.toml (packaged default)"
    return cached(("calibration", "galaxydefenders", source), data,
                  lambda: calibration_from_data(read_toml(source, text=data.decode("utf-8")), source, base=_BLANK))


_BLANK = Calibration({}, "blue", (), "nothing")
