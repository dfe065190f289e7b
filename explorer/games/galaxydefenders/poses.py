"""Fighting Pose tokens (9.2.2 Fighting Poses [Optional Rule, Default=OFF]): the numbers each pose gives, which the
book prints only on the agents' tokens. The packaged values are a STAND-IN (``card_data/fighting-poses.toml``); a
round scenario replaces any of them with ``[fighting_pose_tokens.<pose>]``.

What the round applies (:mod:`.round`, :mod:`.round_map`): ``cost``, the movement points spent to assume the pose;
``range_attack_bonus``, hits added to each ranged attack of an agent in that pose; ``range_defense_bonus``, Def dice
added to each Defend roll against a ranged attack; ``melee_defense_penalty``, Def dice fewer against a melee attack.
Whether an attack is ranged or melee is the weapon card's (the file's ``melee`` on the weapon; the round refuses an
attack whose kind a pose's number depends on when the file does not say it)."""

from __future__ import annotations

from functools import lru_cache
from importlib import resources
from typing import Literal

from pydantic import Field

from explorer.scenario import read_toml, validate
from explorer.schema import Strict

PoseName = Literal["standing", "crouching", "prone"]


class PoseToken(Strict):
    """One pose's numbers (all whole numbers; see the module docstring)."""

    cost: int = Field(1, ge=0, le=12)
    range_attack_bonus: int = Field(0, ge=0, le=5)
    range_defense_bonus: int = Field(0, ge=0, le=5)
    melee_defense_penalty: int = Field(0, ge=0, le=5)


class PoseTokenEdit(Strict):
    """A round scenario's ``[fighting_pose_tokens.<pose>]``: the fields given replace the stand-in's."""

    cost: int | None = Field(None, ge=0, le=12)
    range_attack_bonus: int | None = Field(None, ge=0, le=5)
    range_defense_bonus: int | None = Field(None, ge=0, le=5)
    melee_defense_penalty: int | None = Field(None, ge=0, le=5)


class PoseTokens(Strict):
    standing: PoseToken
    crouching: PoseToken
    prone: PoseToken


STAND_IN_FILE = "card_data/fighting-poses.toml"


@lru_cache(maxsize=1)
def stand_in_poses() -> dict[str, PoseToken]:
    """The packaged STAND-IN pose tokens (``card_data/fighting-poses.toml``: invented numbers, see the file)."""
    name = f"{STAND_IN_FILE} (packaged stand-in)"
    text = (resources.files(__package__) / "card_data" / "fighting-poses.toml").read_text(encoding="utf-8")
    t = validate(PoseTokens, read_toml(name, text=text), name)
    return {"standing": t.standing, "crouching": t.crouching, "prone": t.prone}


def pose_tokens(edits: dict[str, PoseTokenEdit] | None) -> dict[str, PoseToken]:
    """``{pose: PoseToken}``: the stand-ins with a scenario's edits applied field by field."""
    out = dict(stand_in_poses())
    for pose, e in (edits or {}).items():
        out[pose] = out[pose].model_copy(update={k: v for k, v in e.model_dump().items() if v is not None})
    return out


def is_stand_in(edits: dict[str, PoseTokenEdit] | None, pose: str, field: str) -> bool:
    """Whether ``pose``'s ``field`` is still the packaged stand-in's (no scenario edit gives it)."""
    e = (edits or {}).get(pose)
    return e is None or getattr(e, field) is None
