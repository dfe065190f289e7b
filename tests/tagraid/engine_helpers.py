"""Helpers for TAG Raid engine tests: small scenario builders."""

from __future__ import annotations

import copy
import os


from explorer.games.tagraid.model import parse_scenario

RIFLE = {"name": "Rifle", "damage": 13, "burst": 3, "ammunition": "N"}


def miner(name, skill="ranged_attack", attribute=12, **kw):
    d = {"name": name, "skill": skill, "attribute": attribute, "armor": 4, "wounds": 3}
    if skill in ("ranged_attack", "close_combat_attack"):
        d["weapon"] = dict(RIFLE)
    d.update(kw)
    return d


def build(active, reactive=(), megabeast=None, **top):
    data = {"active": copy.deepcopy(active), "reactive": [copy.deepcopy(r) for r in reactive]}
    if megabeast is not None:
        data["megabeast"] = copy.deepcopy(megabeast)
    data["seed"] = int(os.environ.get("ENGINE_TEST_SEED", "0"))  # dice the test does not fix: reproducible
    data.update(top)
    return parse_scenario(data)


