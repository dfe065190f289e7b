"""Scenario schema: validation errors name the field path and the allowed values."""

import pytest

from explorer.errors import ScenarioError
from explorer.games.tagraid.model import parse_scenario
from explorer.games.tagraid.scenarios import list_scenarios, load_scenario

from engine_helpers import RIFLE, build, miner


def base():
    return {"active": miner("A", attacks=[{"target": "B", "dice": [1, 2, 3]}]),
            "reactive": [miner("B", dice=[4])]}


def err(data):
    with pytest.raises(ScenarioError) as e:
        parse_scenario(data, "test.toml")
    return str(e.value), e.value


def test_valid_base_fills_single_target_burst():
    sc = parse_scenario(base())
    assert sc.active.attacks[0].burst == 3


def test_unknown_field_lists_allowed_fields():
    d = base()
    d["active"]["brust"] = 3
    msg, e = err(d)
    assert e.field == "active.brust" and "unknown field" in msg and "'burst_mod'" in msg and "'attribute'" in msg


def test_sv_not_a_number():
    d = base()
    d["reactive"][0]["attribute"] = "twelve"
    msg, e = err(d)
    assert e.field == "reactive[0].attribute" and "whole number" in msg and "test.toml" in msg


def test_negative_burst():
    d = base()
    d["active"]["weapon"]["burst"] = -1
    msg, e = err(d)
    assert e.field == "active.weapon.burst" and "-1 is too small (allowed: 0 to 20)" in msg


def test_burst_above_20_rejected_20_allowed():
    d = base()
    d["active"]["weapon"]["burst"] = 21
    assert err(d)[1].field == "active.weapon.burst"
    d["active"]["weapon"]["burst"] = 20
    d["active"]["attacks"][0]["dice"] = [5] * 20
    assert parse_scenario(d).active.attacks[0].burst == 20


def test_unknown_ammunition_lists_types():
    d = base()
    d["active"]["weapon"]["ammunition"] = "XYZ"
    msg, e = err(d)
    assert e.field == "active.weapon.ammunition" and all(a in msg for a in ("'N'", "'DA'", "'EXP'", "'AP'"))


def test_unknown_skill_lists_skills():
    d = base()
    d["reactive"][0]["skill"] = "shoot"
    msg, e = err(d)
    assert e.field == "reactive[0].skill" and "'evade'" in msg and "'none'" in msg


def test_burst_split_must_sum_to_weapon_burst():
    d = {"active": miner("A", attacks=[{"target": "B", "burst": 2}, {"target": "C", "burst": 2}]),
         "reactive": [miner("B"), miner("C")]}
    msg, e = err(d)
    assert e.field == "active.attacks" and "2 + 2 = 4" in msg and "summing to 3" in msg


def test_burst_split_counts_burst_mod():
    d = {"active": miner("A", burst_mod=1, attacks=[{"target": "B", "burst": 2}, {"target": "C", "burst": 2}]),
         "reactive": [miner("B"), miner("C")]}
    assert [a.burst for a in parse_scenario(d).active.attacks] == [2, 2]


def test_several_targets_need_their_share():
    d = {"active": miner("A", attacks=[{"target": "B"}, {"target": "C", "burst": 1}]),
         "reactive": [miner("B"), miner("C")]}
    assert err(d)[1].field == "active.attacks[0].burst"


def test_dice_count_must_match_burst():
    d = base()
    d["active"]["attacks"][0]["dice"] = [1, 2]
    msg, e = err(d)
    assert e.field == "active.attacks[0].dice" and "exactly 3 dice" in msg
    d = base()
    d["reactive"][0]["dice"] = [4, 5]
    msg, e = err(d)
    assert e.field == "reactive[0].dice" and "exactly 1 die" in msg
    d = base()
    d["reactive"][0]["burst_mod"] = 1
    assert err(d)[1].field == "reactive[0].dice"


def test_dice_faces_must_be_d20():
    d = base()
    d["active"]["attacks"][0]["dice"] = [1, 2, 21]
    msg, e = err(d)
    assert e.field == "active.attacks[0].dice[2]" and "1 to 20" in msg


def test_unknown_target_lists_names():
    d = base()
    d["active"]["attacks"][0]["target"] = "Z"
    msg, e = err(d)
    assert e.field == "active.attacks[0].target" and "'B'" in msg


def test_cover_mod_is_reserved():
    d = base()
    d["active"]["attacks"][0]["mods"] = {"Cover": -3}
    msg, e = err(d)
    assert e.field == "active.attacks[0].mods.Cover" and "partial_cover" in msg


def test_attack_needs_weapon_and_targets():
    d = base()
    del d["active"]["weapon"]
    assert err(d)[1].field == "active.weapon"
    d = base()
    d["active"]["attacks"] = []
    assert err(d)[1].field == "active.attacks"


def test_idle_cannot_attack_and_evade_rolls_one_die():
    d = base()
    d["active"]["skill"] = "idle"
    assert err(d)[1].field == "active.attacks"
    d = {"active": miner("A", "evade", dice=[3, 4]), "reactive": [miner("B")]}
    assert err(d)[1].field == "active.dice"


def test_duplicate_names_rejected():
    d = base()
    d["reactive"].append(miner("B"))
    assert "used twice" in err(d)[0]


def test_unknown_ruling_in_file():
    d = base()
    d["rulings"] = {"sv_above_20": "maybe"}
    msg, e = err(d)
    assert e.field == "rulings.sv_above_20" and "'literal'" in msg and "'excess_to_die'" in msg


def test_fury_token_must_be_on_wounds_bar():
    d = base()
    d["megabeast"] = {"name": "MB", "threat_level": 5, "wounds": 3, "fury_tokens": [4]}
    assert err(d)[1].field == "megabeast.fury_tokens[0]"


def test_every_builtin_loads_and_lists():
    items = list_scenarios()
    assert items[0]["name"] == "book-f2f-1v1"
    assert {"book-normal-roll", "book-f2f-and-normal", "book-two-f2f", "book-stoorworm"} <= {i["name"] for i in items}
    for i in items:
        assert i["title"] and i["description"]
        load_scenario(i["name"])


def test_missing_file_is_a_scenario_error(tmp_path):
    with pytest.raises(ScenarioError, match="file not found.*book-f2f-1v1"):
        load_scenario(tmp_path / "none.toml")


def test_build_helper_roundtrip():
    sc = build(miner("A", attacks=[{"target": "B"}]), [miner("B")])
    assert sc.active.weapon.damage == RIFLE["damage"]


def test_docs_example_parses_and_resolves():
    import doctest
    import re
    from pathlib import Path

    import explorer.games.tagraid.scenarios as scen
    from explorer.games.tagraid.resolve import resolve

    text = (Path(__file__).parents[2] / "docs" / "scenario-format.md").read_text(encoding="utf-8")
    toml = re.search(r"## Example\n\n```toml\n(.*?)```", text, re.S).group(1)
    t = resolve(scen.load_scenario_text(toml, "docs example"))
    assert [p["winner"] for p in t.outcome["pairs"]] == ["StoneBreaker", "Rockeater"]
    assert doctest.testmod(scen).failed == 0


def test_scenario_text_helpers():
    from explorer.games.tagraid.scenarios import load_scenario_text, scenario_toml

    text = scenario_toml("tr-01")
    assert load_scenario_text(text, "editor").active.name == "A"
    with pytest.raises(ScenarioError, match="editor: field 'active.skill'"):
        load_scenario_text(text.replace('skill = "ranged_attack"', 'skill = "shoot"', 1), "editor")
    with pytest.raises(ScenarioError, match="unknown built-in scenario"):
        scenario_toml("nope")
