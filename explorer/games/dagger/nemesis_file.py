"""The file format of a ``kind = "nemesis"`` document of Marvel D.A.G.G.E.R. (pydantic models), and the tables the
``hero``, ``round`` and ``setup`` formats share with it (events, effects, missions, enemy types).

Imported only when a file is validated (by :func:`.nemesis_scenario.parse_nemesis` and the kinds built on it): a
command resolving an already-validated built-in (:mod:`explorer.parsecache`) plays the frozen
:class:`.nemesis_scenario.NemesisScenario` without pydantic. The format is documented in
``docs/dagger-map-format.md`` (scenario section) and :mod:`.nemesis_scenario`.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from explorer.dice import SEED_MAX
from explorer.schema import ScenarioHeader, Strict

from .state import SIDE_SLOTS

NAME = Field(min_length=1, max_length=60)
TEXT = Field("", max_length=400)
ENEMY_KEYS = ("rank-1", "rank-2", "rank-3", "rank-4", "nemesis-specific")
ROW_KEYS = Literal["rank-1", "rank-2", "rank-3", "rank-4", "nemesis-specific", "elite", "nemesis"]


class EffectModel(Strict):
    kind: Literal["threat", "team_up", "damage_heroes", "progress", "overrun", "note"]
    amount: int = Field(0, ge=-20, le=20)
    where: str = Field("all", max_length=60)
    mission: str = Field("", max_length=60)
    base: str = Field("", max_length=60)
    text: str = TEXT


EFFECTS = Field(default_factory=list, max_length=10)


class SpawnModel(Strict):
    enemy: Literal["rank-1", "rank-2", "rank-3", "rank-4", "nemesis-specific"]
    space: str = NAME
    pips: int = Field(1, ge=1, le=4)


class EventModel(Strict):
    card: str = Field("", max_length=60)
    name: str = Field("", max_length=60)
    text: str = TEXT
    effects: list[EffectModel] = EFFECTS
    nemesis_icon: str = Field("", max_length=30)
    activate: list[ROW_KEYS] = Field(default_factory=list, max_length=7)
    spawns: list[SpawnModel] = Field(default_factory=list, max_length=6)
    example: bool = False


class AbilityModel(Strict):
    icon: str = Field(min_length=1, max_length=30)
    effects: list[EffectModel] = EFFECTS


class NemesisModel(Strict):
    name: str = NAME
    threat_value: int = Field(ge=0, le=10)
    power: int = Field(ge=0, le=10)
    health: int = Field(ge=1, le=60)
    damage: int = Field(0, ge=0, le=60)
    space: str = NAME
    stunned: bool = False
    primed: bool = False
    showdown_health: int = Field(0, ge=0, le=99)
    abilities: list[AbilityModel] = Field(default_factory=list, max_length=10)


class EnemyTypeModel(Strict):
    key: Literal["rank-1", "rank-2", "rank-3", "rank-4", "nemesis-specific"]
    name: str = NAME
    rank: int | None = Field(None, ge=1, le=4)
    power: int | None = Field(None, ge=0, le=10)
    health: int = Field(ge=1, le=30)
    standees: int = Field(ge=0, le=10)


class HeroModel(Strict):
    name: str = NAME
    space: str = Field("", max_length=60)
    health: int = Field(ge=1, le=30)
    damage: int = Field(0, ge=0, le=30)
    shattered: bool = False
    eliminated: bool = False
    next_health: int = Field(0, ge=0, le=30)
    move: int = Field(0, ge=0, le=6)
    atk: int = Field(0, ge=0, le=10)
    dfi: int = Field(0, ge=0, le=10)
    tactic: int = Field(0, ge=0, le=10)
    rest_auto: int = Field(0, ge=0, le=10)
    empowered: bool = False


class EliteModel(Strict):
    name: str = NAME
    health: int = Field(ge=1, le=30)
    power: int = Field(ge=0, le=10)


class EnemyModel(Strict):
    id: str = NAME
    type: Literal["rank-1", "rank-2", "rank-3", "rank-4", "nemesis-specific", "elite"]
    space: str = NAME
    damage: int = Field(0, ge=0, le=30)
    primed: bool = False
    health: int | None = Field(None, ge=1, le=30)
    power: int | None = Field(None, ge=0, le=10)
    mission: str = Field("", max_length=60)


class MissionModel(Strict):
    name: str = NAME
    kind: Literal["first_strike", "nemesis", "side", "hero"] | None = None
    progress: int = Field(0, ge=0, le=60)
    progress_value: int | None = Field(None, ge=0, le=60)
    progress_values: dict[Literal["1", "2", "3", "4"], int] = Field(default_factory=dict)
    threat_value: int | None = Field(None, ge=0, le=40)
    ongoing: list[EffectModel] = EFFECTS
    on_pass: list[EffectModel] = EFFECTS
    on_fail: list[EffectModel] = EFFECTS
    space: str = Field("", max_length=60)
    team_up: int = Field(0, ge=0, le=10)
    hero: str = Field("", max_length=60)
    condition_met: bool = False
    elite: EliteModel | None = None
    dagger_progress: int = Field(0, ge=0, le=10)


class ChoicesModel(Strict):
    activation_order: list[str] = Field(default_factory=list, max_length=40)
    attack_target: dict[str, str] = Field(default_factory=dict)
    base_tie: dict[str, str] = Field(default_factory=dict)
    move_via: dict[str, str] = Field(default_factory=dict)
    respawn: dict[str, str] = Field(default_factory=dict)


class NemesisScenarioModel(ScenarioHeader):
    """The whole ``kind = "nemesis"`` document (its ``title`` and ``description``: :class:`ScenarioHeader`)."""

    game: Literal["dagger"] = "dagger"
    kind: Literal["nemesis"] = "nemesis"
    seed: int | None = Field(None, ge=0, le=SEED_MAX)
    rulings: dict[str, str] = Field(default_factory=dict)
    map: str | dict[str, Any] = "default"
    iliad: str | int
    players: int | None = Field(None, ge=1, le=4)
    round: int = Field(1, ge=1, le=99)
    threat: int = Field(0, ge=0, le=40)
    team_up: int = Field(0, ge=0, le=40)
    phases: int = Field(1, ge=1, le=30)
    start_at: Literal["step-1", "step-2", "step-3", "end-of-round"] = "step-1"
    stop_after: Literal["step-1", "step-2", "step-3", "end-of-round"] = "end-of-round"
    first_player: str = Field("", max_length=60)
    overrun: list[str] = Field(default_factory=list, max_length=5)
    elimination_deadline: int | None = Field(None, ge=1, le=99)
    showdown: bool = False
    shuffle_events: bool = False
    nemesis: NemesisModel
    heroes: list[HeroModel] = Field(min_length=1, max_length=4)
    enemy_types: list[EnemyTypeModel] = Field(default_factory=list, max_length=5)
    enemies: list[EnemyModel] = Field(default_factory=list, max_length=40)
    nemesis_missions: list[MissionModel] = Field(default_factory=list, max_length=4)
    side_missions: list[MissionModel] = Field(default_factory=list, max_length=SIDE_SLOTS)
    side_deck: list[MissionModel] = Field(default_factory=list, max_length=30)
    hero_missions: list[MissionModel] = Field(default_factory=list, max_length=4)
    events: list[EventModel] = Field(default_factory=list, max_length=30)
    choices: ChoicesModel = Field(default_factory=ChoicesModel)
