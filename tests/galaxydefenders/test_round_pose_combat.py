"""Fighting Poses in combat (9.2.2, optional, default OFF): the pose tokens' Range Attack Bonus (hits added to each
ranged attack), Range Defense Bonus (Def dice added against ranged attacks) and Melee Defense Penalty (Def dice fewer
against melee attacks) and the cost of each pose: STAND-IN numbers (card_data/fighting-poses.toml), editable per
file (``[fighting_pose_tokens.<pose>]``)."""

from __future__ import annotations

import tomllib
from importlib import resources

import pytest
from test_hostile_files import to_toml

from explorer.errors import RuleViolation, ScenarioError
from explorer.games import load_any
from explorer.games.galaxydefenders.poses import stand_in_poses

from .helpers import resolve

SCEN = resources.files("explorer.games.galaxydefenders") / "scenarios" / "gd-round-pose-combat.toml"


def _doc():
    return tomllib.loads(SCEN.read_text(encoding="utf-8"))


def _run(doc, **rulings):
    game, sc = load_any("p.toml", text=to_toml(doc))
    return game.resolve(sc, rulings=rulings)


def _step(t, start):
    return next(s for s in t.steps if s.title.startswith(start) and not s.title.endswith("Bolts"))


def test_the_built_in_applies_each_pose_number():
    t = resolve("gd-round-pose-combat")
    assert _step(t, "Sniper is Prone: +2 hits").rule.section.startswith("9.2.2")
    assert _step(t, "+2 hits from the Fighting Pose: 3 in all").facts["hits"] == 3
    assert _step(t, "Marine is Crouching: no bonus to a melee attack")
    marine = _step(t, "Marine rolls 2 Blue")
    assert marine.title == "Marine rolls 2 Blue dice" and marine.facts["pose_dice"] == -1   # 3 hits, -1 melee
    sniper = _step(t, "Sniper rolls ")
    assert sniper.title == "Sniper rolls 4 Blue dice" and sniper.facts["pose_dice"] == 2    # 2 hits, +2 ranged
    assert "STAND-IN" in sniper.detail
    o = t.outcome
    assert o["agents"]["Sniper"]["wounds"] == 0 and o["agents"]["Marine"]["wounds"] == 2
    assert o["aliens"]["Spitter"]["wounds"] == 2


def test_the_stand_in_tokens_are_the_packaged_numbers():
    toks = stand_in_poses()
    assert toks["prone"].cost == 2                     # the one number the book gives (example 1)
    assert toks["standing"].range_attack_bonus == toks["standing"].range_defense_bonus == 0
    assert all(toks[p].range_attack_bonus > 0 for p in ("crouching", "prone"))


def test_the_files_token_numbers_replace_the_stand_in():
    doc = _doc()
    doc["fighting_pose_tokens"] = {"prone": {"range_attack_bonus": 1, "range_defense_bonus": 3}}
    doc["turns"][0]["activities"][0]["rolled"]["defend"]["Spitter"] = ["blank", "shield"]      # 1 + 1 hits
    doc["turns"][1]["close_encounter"]["rolled"]["Spitter"]["defend"]["Sniper"] = ["blank"] * 5
    t = _run(doc)
    assert _step(t, "Sniper is Prone: +1 hit").detail.endswith("(the file's token).")
    assert _step(t, "Sniper rolls ").title == "Sniper rolls 5 Blue dice"     # 2 hits + 3


def test_without_fighting_poses_no_pose_number_applies():
    doc = _doc()
    doc["fighting_poses"] = False
    for a in doc["agents"]:
        a["pose"] = "standing"
    doc["turns"][0]["activities"][0]["rolled"]["defend"]["Spitter"] = ["blank"]
    doc["turns"][1]["close_encounter"]["rolled"]["Xeno-Delta"]["defend"]["Marine"] = ["blank", "shield", "blank"]
    doc["turns"][1]["close_encounter"]["rolled"]["Spitter"]["defend"]["Sniper"] = ["blank", "shield"]
    t = _run(doc)
    assert not any("Fighting Pose" in s.rule.section for s in t.steps)
    assert _step(t, "Sniper rolls ").title == "Sniper rolls 2 Blue dice"


def test_the_high_impact_cap_holds_after_the_pose_dice():
    doc = _doc()
    doc["aliens"][0]["weapon"]["fixed_hits"] = 5
    doc["turns"][1]["close_encounter"]["rolled"]["Spitter"]["defend"]["Sniper"] = ["blank"] * 5
    t = _run(doc)
    s = _step(t, "Sniper rolls ")
    assert s.title == "Sniper rolls 5 Blue dice" and "= 7, capped at 5" in s.detail


def test_a_weapon_whose_kind_decides_a_pose_number_must_say_melee():
    doc = _doc()
    del doc["aliens"][1]["weapon"]["melee"]
    with pytest.raises(RuleViolation) as e:
        _run(doc)
    assert "aliens[1].weapon.melee" in str(e.value) and "9.2.2" in str(e.value)


def test_pose_tokens_need_the_optional_rule():
    doc = _doc()
    doc["fighting_poses"] = False
    for a in doc["agents"]:
        a["pose"] = "standing"
    doc["fighting_pose_tokens"] = {"prone": {"cost": 3}}
    with pytest.raises(ScenarioError) as e:
        _run(doc)
    assert "fighting_pose_tokens" in str(e.value)


def test_an_edited_cost_is_spent_on_the_move():
    doc = {"game": "galaxydefenders", "kind": "round", "fighting_poses": True,
           "fighting_pose_tokens": {"prone": {"cost": 3}},
           "agents": [{"name": "Infiltrator"}], "turns": [{"agent": "Infiltrator",
                                                           "activities": [{"kind": "move", "pose": "prone"}]}]}
    t = _run(doc)
    s = _step(t, "Infiltrator spends")
    assert s.title == "Infiltrator spends 3 movement points to go from Standing to Prone"
    assert "STAND-IN" not in s.detail
