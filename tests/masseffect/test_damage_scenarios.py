"""Scenario kind "damage" (explorer.games.masseffect.damage): built-in scenarios (ME-09, the rulebook's Ravager
example), events, rulings and error messages."""

from pathlib import Path

import pytest

from explorer.errors import ScenarioError
from explorer.games.masseffect.damage import parse_damage, resolve_damage
from explorer.scenario import read_toml

SCENARIOS = Path(__file__).parents[2] / "explorer" / "games" / "masseffect" / "scenarios"


def builtin(name):
    p = SCENARIOS / f"{name}.toml"
    return parse_damage(read_toml(p), str(p))


def scenario(text, **over):
    head = 'game = "masseffect"\nkind = "damage"\n'
    return parse_damage(read_toml("t.toml", text=head + text), "t.toml")


UNITS = """
[[squadmates]]
name = "Shepard"
max_shield_points = 2
max_hit_points = 3
[[squadmates]]
name = "Garrus"
max_shield_points = 3
max_hit_points = 5
[[squadmates]]
name = "Liara"
max_shield_points = 2
max_hit_points = 4
[[enemies]]
name = "Husk"
attack_value = 3
shield_value = 3
[[enemies]]
name = "Brute"
kind = "elite"
attack_value = 4
resilience = [3, 4]
"""


def test_me09():
    t = resolve_damage(builtin("me-09"))
    rav = t.outcome["enemies"]["Ravager"]
    assert rav == {"damage": 0, "exhausted": 2, "stunned": False, "biotic_effect": False, "to_defeat": 5}
    assert [s.facts["discarded"] for s in t.steps] == [3, 1]
    assert t.outcome["removed"] == [] and all(v["xp"] == 0 for v in t.outcome["squadmates"].values())
    assert all(s.rule.section == "Additional Enemy Rules › Elites" for s in t.steps)


def test_rulebook_ravager_example():
    t = resolve_damage(builtin("me-book-ravager"))
    assert t.outcome["enemies"]["Ravager"]["exhausted"] == 2
    assert t.outcome["enemies"]["Ravager"]["to_defeat"] == 5


def test_defeats_xp_bag_and_removal():
    s = scenario(UNITS + """
[[events]]
type = "enemy_damage"
target = "Husk"
amount = 3
by = "Garrus"
[[events]]
type = "enemy_damage"
target = "Brute"
amount = 5
by = "Liara"
[[events]]
type = "enemy_damage"
target = "Brute"
amount = 4
by = "Shepard"
source = "grenade"
""")
    t = resolve_damage(s)
    assert t.outcome["returned_to_bag"] == ["Husk"] and t.outcome["removed"] == ["Brute"]
    assert t.outcome["squadmates"]["Garrus"]["xp"] == 1
    assert t.outcome["squadmates"]["Shepard"]["xp"] == 0 and t.rulings == {"xp_outside_actions": "core_abilities"}
    t2 = resolve_damage(s, {"xp_outside_actions": "core_abilities_and_grenades"})
    assert t2.outcome["squadmates"]["Shepard"]["xp"] == 1


def test_enemy_attack_with_biotic_effect_and_end_phase():
    t = resolve_damage(scenario(UNITS + """
[[events]]
type = "biotic_effect"
target = "Husk"
[[events]]
type = "enemy_attack"
enemy = "Husk"
target = "Garrus"
[[events]]
type = "stun"
target = "Husk"
[[events]]
type = "end_phase"
"""))
    o = t.outcome
    assert o["squadmates"]["Garrus"]["shield_points"] == 3  # 1 Damage (3 - 2), then shields restored
    assert [s.facts.get("shield_points") for s in t.steps if s.facts.get("squadmate") == "Garrus"][:1] == [2]
    assert o["enemies"]["Husk"] == {"damage": 0, "exhausted": 0, "stunned": False, "biotic_effect": False,
                                    "to_defeat": 3}
    assert o["on_point"] == "Liara"


def test_shepard_downed_ends_mission_and_later_events():
    t = resolve_damage(scenario(UNITS + """
[[events]]
type = "enemy_attack"
enemy = "Brute"
target = "Shepard"
[[events]]
type = "enemy_attack"
enemy = "Brute"
target = "Shepard"
[[events]]
type = "end_phase"
"""))
    assert t.outcome["mission_failed"] and t.outcome["squadmates"]["Shepard"]["downed"]
    assert "later event not played" in t.steps[-1].title
    assert t.outcome["squadmates"]["Shepard"]["shield_points"] == 0


def test_rejected_event_changes_nothing():
    t = resolve_damage(scenario(UNITS + """
[[events]]
type = "stun"
target = "Brute"
"""))
    assert t.outcome["rejected"] == [0] and not t.outcome["enemies"]["Brute"]["stunned"]
    assert t.steps[0].title.startswith("Not allowed")


def test_grenade_hits_each_listed_enemy():
    t = resolve_damage(scenario(UNITS + """
[[events]]
type = "grenade"
by = "Garrus"
token = "grenade_cache"
targets = ["Husk", "Brute"]
"""))
    assert t.outcome["returned_to_bag"] == ["Husk"]
    assert t.outcome["enemies"]["Brute"]["exhausted"] == 1


@pytest.mark.parametrize("extra,field", [
    ('[[events]]\ntype = "stun"\ntarget = "Nobody"\n', "events[0].target"),
    ('[[events]]\ntype = "enemy_damage"\ntarget = "Husk"\namount = 31\n', "events[0].amount"),
    ('[[events]]\ntype = "enemy_damage"\ntarget = "Husk"\namount = 3\n', "events[0].by"),
    ('[[events]]\ntype = "explode"\n', "events[0]"),
    ('[rulings]\nfewest_hit_points = "maybe"\n', "rulings.fewest_hit_points"),
])
def test_errors_name_the_field(extra, field):
    with pytest.raises(ScenarioError) as e:
        scenario(UNITS + extra)
    # a discriminated event names its type in the path: events[0].enemy_damage.amount
    assert e.value.field.replace(".enemy_damage", "").startswith(field) and "t.toml" in str(e.value)


@pytest.mark.parametrize("text,field", [
    ('[[squadmates]]\nname = "A"\nmax_shield_points = 1\nmax_hit_points = 2\nhit_points = 3\n', "squadmates[0].hit_points"),
    ('[[enemies]]\nname = "E"\nkind = "elite"\n', "enemies[0].resilience"),
    ('[[enemies]]\nname = "E"\nshield_value = 2\ndamage = 2\n', "enemies[0].damage"),
    ('[[enemies]]\nname = "E"\n[[enemies]]\nname = "E"\n', "enemies[1].name"),
    ('[[enemies]]\nname = "E"\nposition = "1,x"\n', "enemies[0].position"),
])
def test_unit_errors(text, field):
    with pytest.raises(ScenarioError) as e:
        scenario(text)
    assert e.value.field == field
