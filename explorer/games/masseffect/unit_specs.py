"""Scenario-file schema shared by the ``damage`` and ``activation`` kinds: the scenario header, Squadmates and
Enemy tokens (pydantic models, ``extra="forbid"``, every number bounded, every list capped).

Sections: Squadmate Sheets (Shield Point and Hit Point trackers, Downed Squadmates, Mission Commander); Components ›
Enemy Tokens (Attack Value, Shield Value, Tag, Stunned side, Elite Resilience Tracker); Additional Enemy Rules ›
Biotic Effects; Interacting with the Mission Map › Shrouded Areas.

TOML shape (see ``docs`` of each kind)::

    [[squadmates]]            # in seating order, clockwise around the table (= turn order)
    name = "Garrus"
    max_shield_points = 3     # the rightmost space of the Shield Point tracker
    max_hit_points = 5
    shield_points = 1         # current; default: max
    hit_points = 5            # current; default: max (0 when downed)
    position = "0,3"          # axial "q,r"; optional where the map does not matter

    [[enemies]]
    name = "Ravager"          # unique label of this token
    type = "Ravager"          # the type a Hazard card activates; default: name
    kind = "elite"            # "minion" (default) or "elite"
    attack_value = 3
    resilience = [4, 6, 5]    # Elites: Shield Values top to bottom; Minions: shield_value = 2
    tags = ["React"]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Literal, Union

from pydantic import Field, field_validator

from explorer.errors import ScenarioError
from explorer.hexgrid import Hex
from explorer.schema import ScenarioHeader, Strict

from .units import Enemy, Squadmate

MAX_SQUADMATES = 5
MAX_ENEMIES = 40
Name = Field(min_length=1, max_length=40)


def parse_hex(value: str, field: str = "position") -> Hex:
    """``"q,r"`` -> :class:`Hex`; raises ValueError (pydantic reports it with the field path)."""
    try:
        return Hex.parse(value)
    except ValueError as e:
        raise ValueError(str(e)) from None


class Header(ScenarioHeader):
    """The top of every Mass Effect scenario file: the shared header (:class:`explorer.schema.ScenarioHeader`:
    ``title``, ``description``), then ``game``, ``kind``, ``seed`` and ``[rulings]``."""

    game: Literal["masseffect"]
    kind: str
    seed: int | None = Field(default=None, ge=0, le=2**63 - 1)
    rulings: dict[str, str] = Field(default_factory=dict, max_length=50)


class SquadmateSpec(Strict):
    """One Squadmate: trackers, Downed, XP this Mission, position (Squadmate Sheets)."""

    name: str = Name
    max_shield_points: int = Field(ge=0, le=20)
    max_hit_points: int = Field(ge=1, le=20)
    shield_points: int | None = Field(default=None, ge=0, le=20)
    hit_points: int | None = Field(default=None, ge=0, le=20)
    downed: bool = False
    xp: int = Field(default=0, ge=0, le=3)
    commander: bool | None = None
    position: str | None = Field(default=None, max_length=20)

    @field_validator("position")
    @classmethod
    def _hex(cls, v):
        if v is not None:
            parse_hex(v)
        return v

    def build(self) -> Squadmate:
        return Squadmate(self.name, self.max_shield_points, self.max_hit_points, self.shield_points, self.hit_points,
                         self.downed, parse_hex(self.position) if self.position else None, self.xp, self.commander)


class EnemySpec(Strict):
    """One Enemy token (Components › Enemy Tokens; Elites' Resilience Tracker)."""

    name: str = Name
    type: str = Field(default="", max_length=40)
    kind: Literal["minion", "elite"] = "minion"
    attack_value: int = Field(default=0, ge=0, le=20)
    shield_value: int = Field(default=1, ge=1, le=30)
    tags: list[Literal["React", "Ranged", "Rush", "Pin"]] = Field(default_factory=list, max_length=4)
    stunned: bool = False
    biotic_effect: bool = False
    damage: int = Field(default=0, ge=0, le=30)
    resilience: list[int] = Field(default_factory=list, max_length=8)
    exhausted: int = Field(default=0, ge=0, le=8)
    shrouded: bool = False
    position: str | None = Field(default=None, max_length=20)

    @field_validator("resilience")
    @classmethod
    def _levels(cls, v):
        if any(not 1 <= x <= 30 for x in v):
            raise ValueError("each Resilience level is a Shield Value from 1 to 30")
        return v

    @field_validator("position")
    @classmethod
    def _hex(cls, v):
        if v is not None:
            parse_hex(v)
        return v

    def build(self) -> Enemy:
        return Enemy(self.name, self.kind, self.attack_value, self.shield_value, frozenset(self.tags), self.stunned,
                     self.biotic_effect, self.damage, tuple(self.resilience), self.exhausted,
                     parse_hex(self.position) if self.position else None, self.shrouded, self.type)


def check_units(squadmates: list[SquadmateSpec], enemies: list[EnemySpec], source: str | None,
                need_positions: bool = False) -> tuple[tuple[Squadmate, ...], tuple[Enemy, ...]]:
    """Cross-field checks pydantic cannot express; returns the built values.

    Raises:
        ScenarioError: duplicate names, a current value above its maximum, Hit Points on a Downed Squadmate, an Elite
            without a Resilience Tracker, a Minion with one, Damage already enough to Defeat, two characters in one
            hex, or (``need_positions``) a missing position.
    """
    seen: set[str] = set()
    cells: dict[Hex, str] = {}
    sqs = []
    for i, s in enumerate(squadmates):
        f = f"squadmates[{i}]"
        if s.name in seen:
            raise ScenarioError(f"{f}.name", f"duplicate name {s.name!r}", "a name no other character has", source)
        seen.add(s.name)
        if s.shield_points is not None and s.shield_points > s.max_shield_points:
            raise ScenarioError(f"{f}.shield_points", f"{s.shield_points} is above max_shield_points",
                                f"0..{s.max_shield_points}", source)
        if s.hit_points is not None and s.hit_points > s.max_hit_points:
            raise ScenarioError(f"{f}.hit_points", f"{s.hit_points} is above max_hit_points",
                                f"0..{s.max_hit_points}", source)
        if s.downed and s.hit_points:
            raise ScenarioError(f"{f}.hit_points", "a Downed Squadmate has 0 Hit Points", "0 or omitted", source)
        if not s.downed and s.hit_points == 0:
            raise ScenarioError(f"{f}.downed", "a Squadmate at 0 Hit Points is Downed", "true", source)
        sqs.append(s.build())
    ens = []
    for i, e in enumerate(enemies):
        f = f"enemies[{i}]"
        if e.name in seen:
            raise ScenarioError(f"{f}.name", f"duplicate name {e.name!r}", "a name no other character has", source)
        seen.add(e.name)
        if e.kind == "elite" and not e.resilience:
            raise ScenarioError(f"{f}.resilience", "an Elite needs its Resilience Tracker",
                                "a list of Shield Values, top to bottom, e.g. [4, 6, 5]", source)
        if e.kind == "minion" and (e.resilience or e.exhausted):
            raise ScenarioError(f"{f}.resilience", "a Minion has no Resilience Tracker (use shield_value)",
                                "[] and exhausted = 0", source)
        if e.kind == "elite" and e.exhausted >= len(e.resilience):
            raise ScenarioError(f"{f}.exhausted", "every level exhausted means the Elite is already Defeated",
                                f"0..{len(e.resilience) - 1}", source)
        built = e.build()
        if built.damage >= built.current_shield_value:
            raise ScenarioError(f"{f}.damage", f"{e.damage} Damage already Defeats it (Shield Value "
                                f"{built.current_shield_value})", f"0..{built.current_shield_value - 1}", source)
        ens.append(built)
    for f, unit in [*((f"squadmates[{i}]", s) for i, s in enumerate(sqs)),
                    *((f"enemies[{i}]", e) for i, e in enumerate(ens))]:
        if unit.position is None:
            if need_positions:
                raise ScenarioError(f"{f}.position", "is required here", "an axial hex 'q,r'", source)
            continue
        if unit.position in cells:
            raise ScenarioError(f"{f}.position", f"hex {unit.position} already holds {cells[unit.position]} (a "
                                "hex holds a single character)", "an empty hex", source)
        cells[unit.position] = unit.name
    return tuple(sqs), tuple(ens)


def names_check(value: str, allowed: Iterable[str], field: str, source: str | None) -> None:
    """Raise ScenarioError unless ``value`` is one of ``allowed``."""
    allowed = list(allowed)
    if value not in allowed:
        raise ScenarioError(field, f"unknown name {value!r}", allowed, source)


def check_rulings(chosen: Mapping[str, str], source: str | None) -> None:
    """Raise ScenarioError (naming ``source``) for an unknown ruling option key or reading."""
    from .options import rulings

    try:
        rulings(chosen)
    except ScenarioError as e:
        raise ScenarioError(e.field, e.problem, e.allowed, source) from None


class BagSpec(EnemySpec):
    """One draw from the Enemy Bag, in draw order (Step C: Hazard Card › Spawning Minions: the token is drawn at
    random, so a file declares each draw it needs). Either a Minion token (the :class:`EnemySpec` fields, no
    position, ``kind = "minion"``) or ``returned = "<Minion>"`` alone: this draw gives that Minion, Defeated earlier
    (Damaging Enemies: "returned to the Enemy Bag") and still in the Bag when the draw is made. The name it gives is
    an Enemy of the file's ``[[enemies]]`` or an earlier token of the bag (one Spawned, then Defeated)."""

    name: str | None = Field(default=None, min_length=1, max_length=40)
    returned: str | None = Field(default=None, min_length=1, max_length=40)


BagDraw = Union[Enemy, str]
"""A declared draw as the engine keeps it: the :class:`~.units.Enemy` token, or the name of a returned Minion."""


def check_bag(bag: list[BagSpec], enemies: Iterable[Enemy], others: Iterable[str], source: str | None
              ) -> tuple[Enemy | str, ...]:
    """Cross-field checks of a ``[[bag]]`` list; returns its draws (:data:`BagDraw`), in order.

    ``enemies``: the file's Enemies (a returned draw may name one of its Minions); ``others``: the other names in
    the file (Squadmates), which a bag token may not take.

    Raises:
        ScenarioError: ``bag[i]`` a token with a position or an Elite (the Bag holds Minion tokens only), or a
            returned draw with other fields; ``bag[i].name`` missing or used by another character; ``bag[i].returned``
            naming no Minion of the file that could be in the Bag by then.
    """
    enemies = list(enemies)
    taken = set(others) | {e.name for e in enemies}
    minions = [e.name for e in enemies if e.kind == "minion"]
    out: list[Enemy | str] = []
    for i, b in enumerate(bag):
        if b.returned is not None:
            extra = sorted(b.model_fields_set - {"returned"})
            if extra:
                raise ScenarioError(f"bag[{i}]", f"a returned draw names only its Minion, not {', '.join(extra)}",
                                    "returned = '<Minion>' alone", source)
            if b.returned not in minions:
                raise ScenarioError(f"bag[{i}].returned", f"{b.returned!r} is not a Minion of the file's enemies or "
                                    "of an earlier bag token, so it is never returned to the Enemy Bag before this "
                                    "draw", minions or "no Minion", source)
            out.append(b.returned)
            continue
        if b.name is None:
            raise ScenarioError(f"bag[{i}].name", "a Minion token needs its name", "a name no other character has, "
                                "or returned = '<Minion>' for a Minion Defeated earlier", source)
        if b.position is not None or b.kind != "minion":
            raise ScenarioError(f"bag[{i}]", "Enemy Bag tokens are Minions without a position",
                                "kind = 'minion', no position", source)
        if b.name in taken:
            raise ScenarioError(f"bag[{i}].name", f"duplicate name {b.name!r}", "a name no other token has, or "
                                f"returned = {b.name!r} to draw that Minion again once Defeated", source)
        taken.add(b.name)
        minions.append(b.name)
        token = b.build()
        out.append(token)
    return tuple(out)
