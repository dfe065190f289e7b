"""The file format of a Galaxy Defenders ``combat`` scenario: its pydantic models (the format itself:
:mod:`.combat`'s docstring).

Imported by :func:`.combat.parse_combat` when a file is validated (and by code that builds an attack by hand: the
odds verb, the round, the pages), never by playing a validated scenario: ``explorer resolve`` takes a cached
built-in as the pydantic-free snapshot of these models (:mod:`explorer.plain`; issue 18). The models define no
methods (a snapshot could not have them): the calibration is :func:`.combat.scenario_calibration`.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, PrivateAttr

from explorer.schema import MAX_TITLE, Strict

from .edge_file import EdgeModel
from .combat import (MAX_DEFEND_FACES, MAX_DICE, MAX_DRAWS, MAX_NAME, MAX_SHIELDS, EffectKind, EffectSymbol, Kind,
                     Trigger)
from .header import GdScenarioHeader


Name = Annotated[str, Field(min_length=1, max_length=MAX_NAME)]
FaceLabel = Annotated[str, Field(min_length=1, max_length=60)]


# ------------------------------------------------------------------------------------------------ scenario model

class EffectModel(Strict):
    """An attack effect: ``kind``, ``x`` (its number), ``trigger``."""

    kind: EffectKind
    x: int = Field(1, ge=0, le=5)
    trigger: Trigger = "always"


class HeldCritical(Strict):
    """A Critical token already on a target: ``effect``, ``x`` and the ``level`` on its back (its pile, 8.2),
    needed only when the effect and ``x`` fit tokens of two piles (an X = 0 effect such as Paralyzed)."""

    effect: Literal["def_dice_minus", "atk_dice_minus", "movement_minus", "max_health_minus", "paralyzed",
                    "shields_removed", "no_bolt"]
    x: int = Field(0, ge=0, le=5)
    level: int | None = Field(None, ge=1, le=2)


class TargetModel(Strict):
    name: str = Field(min_length=1, max_length=40)
    kind: Kind = "alien"
    health: int = Field(ge=1, le=40)
    wounds: int = Field(0, ge=0, le=40)
    energy_shields: list[Annotated[int, Field(ge=0, le=MAX_SHIELDS)]] = Field(default_factory=list, max_length=3)
    power_suit_shields: int | None = Field(None, ge=0, le=10)
    standard_shields: int = Field(0, ge=0, le=5)
    cancel_hits: int = Field(0, ge=0, le=10)
    mark: int = Field(0, ge=0, le=2)
    poison: int = Field(0, ge=0, le=2)
    criticals: list[HeldCritical] = Field(default_factory=list, max_length=10)
    burrowing: bool = False
    area: Literal["target", "same", "adjacent", "other"] = "target"
    walking_path: bool = True
    at: str | None = Field(None, max_length=20)
    base: str | None = Field(None, max_length=20)
    stage: int | None = Field(None, ge=1, le=2)
    keeps_fighting: bool = False


class CombatMapModel(Strict):
    """A map of Areas for Area and Explosion damage (the ``activation`` map format: ``areas``, ``centres``,
    ``blocking``, ``edges``): with it, each target's Area relation is computed from its hexes."""

    areas: dict[Annotated[str, Field(min_length=1, max_length=40)],
                Annotated[list[Annotated[str, Field(min_length=1, max_length=20)]],
                          Field(min_length=1, max_length=600)]] = Field(min_length=1, max_length=40)
    centres: dict[Annotated[str, Field(min_length=1, max_length=40)],
                  Annotated[str, Field(min_length=1, max_length=20)]] = Field(default_factory=dict, max_length=40)
    blocking: list[Annotated[str, Field(min_length=1, max_length=20)]] = Field(default_factory=list, max_length=600)
    edges: list[EdgeModel] = Field(default_factory=list, max_length=400)


class RolledModel(Strict):
    hit: dict[Name, Annotated[list[FaceLabel], Field(max_length=MAX_DICE)]] = Field(default_factory=dict,
                                                                                    max_length=4)
    defend: dict[Name, Annotated[list[FaceLabel], Field(max_length=MAX_DEFEND_FACES)]] = Field(
        default_factory=dict, max_length=12)
    critical: dict[Name, Annotated[list[FaceLabel], Field(max_length=MAX_DRAWS)]] = Field(default_factory=dict,
                                                                                          max_length=12)


class AttackModel(Strict):
    attacker: str = Field("attacker", min_length=1, max_length=40)
    attacker_kind: Kind = "agent"
    weapon: str = Field("weapon", min_length=1, max_length=40)
    dice: dict[Name, Annotated[int, Field(ge=0, le=MAX_DICE)]] = Field(default_factory=dict, max_length=4)
    fixed_hits: int | None = Field(None, ge=0, le=20)
    bonus_hits: int = Field(0, ge=0, le=10)
    bonus_dice: dict[Name, Annotated[int, Field(ge=0, le=MAX_DICE)]] = Field(default_factory=dict, max_length=4)
    effect_symbols: list[EffectSymbol] = Field(default_factory=lambda: ["bolt"], min_length=1, max_length=5)
    power_suit_weapon: bool = False
    atk_dice_minus: int = Field(0, ge=0, le=5)
    drop: list[Name] = Field(default_factory=list, max_length=5)
    no_bolt: bool = False
    damage: Literal["single", "area", "explosion"] = "single"
    target: str = Field(min_length=1, max_length=40)
    effects: list[EffectModel] = Field(default_factory=list, max_length=8)
    rolled: RolledModel | None = None
    controller: Name | None = None
    _pose_hits: int = PrivateAttr(0)
    """Of ``bonus_hits``, those an agent's Fighting Pose adds (9.2.2; set by a round on a map, never by a file)."""


class MenaceModel(Strict):
    """The Menace token when the scenario starts (11.3.1): the Menacing Agent and the level."""

    holder: Name
    level: int = Field(1, ge=1, le=2)


class CloseEncounterModel(Strict):
    card: int = Field(ge=1, le=40)
    activates: list[Name] = Field(default_factory=list, max_length=20)


class CombatScenario(GdScenarioHeader):
    """A validated ``combat`` scenario (see the module docstring for the file format)."""

    kind: Literal["combat"] = "combat"
    title: str = Field("Combat", max_length=MAX_TITLE)
    high_impact: bool = True
    calibration: dict | None = None
    close_encounter: CloseEncounterModel | None = None
    menace: MenaceModel | None = None
    map: CombatMapModel | None = None
    targets: list[TargetModel] = Field(min_length=1, max_length=12)
    attacks: list[AttackModel] = Field(min_length=1, max_length=10)
    critical_discard: list[Annotated[str, Field(min_length=1, max_length=40)]] = Field(default_factory=list,
                                                                                       max_length=60)
    """Critical token ids in the discard piles when the scenario starts (8.2: out of the piles until a pile is
    recreated); the tokens on the targets (``criticals``) are out of the piles too. Default: none."""
    _source: str = PrivateAttr("scenario")
    _blue_tray: bool = PrivateAttr(False)
    """Set by the Combat page only (never by a file): its dice tray gives faces for up to ``MAX_BLUE`` Blue dice
    and the Defend roll takes the first ones it rolls (:class:`.combat.TableDice` ``tray``)."""
