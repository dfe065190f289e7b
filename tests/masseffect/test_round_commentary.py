"""Issue 19 audit: the Squadmate Commentary rules in a Round, as worked examples from the text (Squadmate
Commentary: Shepard's Warp and Barrier against Adrenaline Rush; Garrus' Turian Rebel, Proximity Mines, Calibrate;
Tali's Sabotage Turret and Energy Drain; Wrex's Krogan Battlemaster and Lift Grenade). The commentary gives the rule;
what each Ability does and its numbers are the stand-in sheet's. Built-ins me-round-commentary and
me-round-tali-commentary, golden traces in tests/masseffect/golden/."""

import copy
from pathlib import Path

import pytest
from golden_helpers import check_golden, trace_text

from explorer.errors import ScenarioError
from explorer.games.masseffect import sections as S
from explorer.games.masseffect.round import parse_round, play_round, resolve_round
from explorer.games.masseffect.sheets import CALIBRATE_BONUS, load_sheets
from explorer.scenario import read_toml

SCENARIOS = Path(__file__).parents[2] / "explorer" / "games" / "masseffect" / "scenarios"
GOLDEN = Path(__file__).parent / "golden"


def data(name="me-round-commentary"):
    return read_toml(SCENARIOS / f"{name}.toml")


def resolve(d, rulings=None):
    return resolve_round(parse_round(d, "x.toml"), rulings)


def final(d, rulings=None):
    return play_round(parse_round(d, "x.toml"), rulings)[0][-1].state


def turn(d, who):
    return next(t for t in d["turns"] if t["squadmate"] == who)


def titles(t):
    return [s.title for s in t.steps]


def step(t, start):
    return next(s for s in t.steps if s.title.startswith(start))


@pytest.mark.parametrize("name", ["me-round-commentary", "me-round-tali-commentary"])
def test_golden_trace(name):
    check_golden(GOLDEN, name, trace_text(resolve(data(name))))


# --- Shepard: Adrenaline Rush is not a Move Action; Warp ------------------------------------------------------------


def test_adrenaline_rush_provokes_but_is_not_pinned_and_gives_no_barrier():
    t = resolve(data())
    ts = titles(t)
    assert "Shepard leaves Guardian's adjacency (0,0 -> -1,0): Opportunity Attack for 1" in ts
    pin = step(t, "Guardian has the Pin Tag, but Shepard's Adrenaline Rush is not a Move Action")
    assert pin.rule == S.PIN_TAG
    barrier = step(t, "Shepard's Barrier does not trigger")
    assert barrier.rule == S.COMMENTARY_SHEPARD_BARRIER
    st = final(data())
    assert str(st.board.squadmate("Shepard").position) == "-2,0"


def test_pin_ability_move_any_move_stops_adrenaline_rush():
    t = resolve(data(), {"pin_ability_move": "any_move"})
    assert any(x.startswith("Pin Tag: Shepard's Adrenaline Rush ends at -1,0") for x in titles(t))
    st = final(data(), {"pin_ability_move": "any_move"})
    assert str(st.board.squadmate("Shepard").position) == "-1,0"


def test_a_real_move_action_still_triggers_barrier():
    d = data()
    turn(d, "Shepard")["actions"][2] = {"box": "Move", "die": "move_2", "path": ["-2,0", "-2,1"]}
    t = resolve(d)
    assert step(t, "Barrier: Shepard completes a Move Action").facts["regained"] == 1


def test_adrenaline_rush_past_its_movement_points_is_refused():
    d = data()
    turn(d, "Shepard")["actions"][0]["path"] = ["0,0", "-1,0", "-2,0", "-3,0"]
    t = resolve(d)
    assert "turns[0].actions[0].path[3]" in t.result.rejected


def test_warp_works_on_an_enemy_without_a_token():
    d = data()
    next(e for e in d["enemies"] if e["name"] == "Husk W")["biotic_effect"] = False
    t = resolve(d)
    assert "Shepard uses Warp on Husk W (1 hex)" in titles(t)
    assert "Husk W gets a Biotic Effect token: Attack Value 2 counts as 0" in titles(t)
    assert not any("has no effect" in x for x in titles(t))


def test_warp_on_a_token_has_no_effect_at_all():
    t = resolve(data())
    s = step(t, "Shepard's Warp has no effect on Husk W")
    assert s.rule == S.COMMENTARY_SHEPARD_WARP and "warp_on_biotic = no_effect" in s.title
    assert not any(x.startswith("Husk W suffers") and "Shepard" in x for x in titles(t))


def test_warp_on_biotic_token_only_deals_warp_s_damage():
    t = resolve(data(), {"warp_on_biotic": "token_only"})
    assert step(t, "Husk W already has a Biotic Effect token: Shepard's Warp loses only its token").rule == \
        S.COMMENTARY_SHEPARD_WARP
    assert "Husk W suffers 1 Damage from Shepard: 1 of Shield Value 3" in titles(t)


# --- Garrus: Calibrate, Proximity Mines, Turian Rebel ---------------------------------------------------------------


@pytest.mark.parametrize("aim,bonus", [(0, 0), (1, 0), (2, 1), (3, 1), (4, 2), (5, 2)])
def test_calibrate_bonus_by_aim_value(aim, bonus):
    d = data()
    d["aim_value"] = aim
    t = resolve(d)
    s = step(t, "Garrus's Calibrate on Concussive Shot")
    assert s.facts == {"aim": aim, "damage": bonus} and s.rule == S.COMMENTARY_GARRUS_CALIBRATE
    assert f"Guardian suffers {1 + bonus} Damage from Garrus" in next(x for x in titles(t) if "from Garrus" in x)


def test_calibrate_table_is_the_commentary_s():
    assert CALIBRATE_BONUS == ((4, 2), (2, 1))


def test_calibrate_twice_in_a_turn_is_refused():
    d = data()
    d["unlocked"]["Garrus"].append("Assassination")
    turn(d, "Garrus")["actions"][1] = {"box": "Assassination", "die": "enhanced", "target": "Guardian",
                                       "calibrate": True}
    t = resolve(d)
    assert "only once per turn" in t.result.rejected and "turns[1].actions[1].calibrate" in t.result.rejected


def test_calibrate_on_assassination_and_not_on_armor_piercing_rounds():
    d = data()
    d["unlocked"]["Garrus"] += ["Assassination", "Armor-Piercing Rounds"]
    turn(d, "Garrus")["actions"][0] = {"box": "Assassination", "die": "enhanced", "target": "Guardian",
                                       "calibrate": True}
    t = resolve(d)
    assert "Guardian suffers 6 Damage from Garrus: 6 >= Shield Value 4, Defeated" in titles(t)
    turn(d, "Garrus")["actions"][0] = {"box": "Armor-Piercing Rounds", "die": "standard", "target": "Guardian",
                                       "calibrate": True}
    t = resolve(d)
    assert "no effect on Armor-Piercing Rounds" in t.result.rejected
    assert "turns[1].actions[0].calibrate" in t.result.rejected


def test_calibrate_aim_spent_resets_the_tracker():
    assert final(data()).aim == 4
    assert final(data(), {"calibrate_aim": "spent"}).aim == 0


def test_proximity_mines_three_tokens_spent_one_per_action():
    assert final(data()).mines == 2
    d = data()
    d["proximity_mines"] = 0
    t = resolve(d)
    assert "no Proximity Mine token left" in t.result.rejected
    assert "turns[1].actions[1].box" in t.result.rejected


def test_proximity_mines_unlocked_during_the_mission_takes_the_three_tokens():
    d = data()
    d["unlocked"]["Garrus"] = ["Calibrate"]
    next(s for s in d["squadmates"] if s["name"] == "Garrus")["xp"] = 2
    d["unlocks"] = [{"squadmate": "Garrus", "box": "Proximity Mines"}]
    # the Concussive Shot alone Defeats the Guardian (shield 3): the third XP box, Proximity Mines unlocked
    next(e for e in d["enemies"] if e["name"] == "Guardian")["shield_value"] = 3
    d["enemies"].append({"name": "Husk M", "type": "Husk", "attack_value": 1, "shield_value": 3, "position": "0,2"})
    turn(d, "Garrus")["actions"][1]["target"] = "Husk M"
    st = parse_round(d, "x.toml")
    assert play_round(st)[0][0].state.mines == 0
    t = resolve(d)
    s = step(t, "Garrus takes the 3 Proximity Mine tokens at once")
    assert s.rule == S.COMMENTARY_GARRUS_PROXIMITY_MINES
    assert "Garrus places one of his Proximity Mine tokens (3 -> 2 left)" in titles(t)


def test_turian_rebel_moves_by_the_die_icon():
    d = data()
    d["unlocked"]["Garrus"].append("Turian Rebel")
    turn(d, "Garrus")["actions"][2] = {"box": "Turian Rebel", "die": "move_3",
                                       "path": ["-1,2", "-1,1", "-1,0", "0,-1"]}
    t = resolve(d)
    s = step(t, "Garrus's Turian Rebel: 3 Movement Points from the Move 3 die")
    assert s.rule == S.COMMENTARY_GARRUS_TURIAN_REBEL
    turn(d, "Garrus")["actions"][2]["die"] = "move_2"
    t = resolve(d)
    assert "turns[1].actions[2].path[3]" in t.result.rejected


# --- Tali: Sabotage Turret, Energy Drain ------------------------------------------------------------------------------


def test_sabotage_turret_gives_a_disabled_turret_a_line_of_fire():
    t = resolve(data("me-round-tali-commentary"))
    s = step(t, "Tali's Sabotage Turret: the Disabled Turret at 3,-1")
    assert s.facts["targets"] == ["Husk", "Guardian"] and s.rule == S.COMMENTARY_TALI_SABOTAGE_TURRET
    assert "gains one for this Ability" in s.detail


def test_sabotage_turret_out_of_range_is_refused():
    d = data("me-round-tali-commentary")
    next(s for s in d["squadmates"] if s["name"] == "Tali")["position"] = "-1,1"
    t = resolve(d)
    assert "4 hexes from Tali; Sabotage Turret reaches 3" in t.result.rejected
    assert "turns[0].actions[0].turret" in t.result.rejected


def test_energy_drain_at_full_shields_deals_damage_only():
    t = resolve(data("me-round-tali-commentary"))
    s = step(t, "Energy Drain: Tali has full Shield Points (2)")
    assert s.rule == S.COMMENTARY_TALI_ENERGY_DRAIN and s.facts["regained"] == 0
    assert "Guardian suffers 2 Damage from Tali: 4 >= Shield Value 4, Defeated" in titles(t)


def test_energy_drain_below_full_shields_regains_one():
    d = data("me-round-tali-commentary")
    next(s for s in d["squadmates"] if s["name"] == "Tali")["shield_points"] = 0
    t = resolve(d)
    assert step(t, "Energy Drain: Tali regains 1 Shield Point (0 -> 1)").facts["shield_points"] == 1


# --- Wrex: Krogan Battlemaster, Lift Grenade --------------------------------------------------------------------------


def test_battlemaster_with_every_rage_token_calm_is_refused():
    d = data()
    d["enraged"] = 0
    t = resolve(d)
    assert "every one of Wrex's Rage tokens shows its Calm side" in t.result.rejected
    assert "turns[2].actions[0].battlemaster" in t.result.rejected


def test_battlemaster_flips_one_enraged_token_calm():
    s = step(resolve(data()), "Wrex's Krogan Battlemaster on Lift Grenade")
    assert s.facts == {"enraged": 0, "damage": 2} and s.rule == S.COMMENTARY_WREX_BATTLEMASTER
    assert final(data()).enraged == 0


def test_battlemaster_locked_is_refused():
    d = data()
    d["unlocked"]["Wrex"] = ["Lift Grenade"]
    t = resolve(d)
    assert "Krogan Battlemaster is a Locked Ability" in t.result.rejected


def test_lift_grenade_on_a_biotic_enemy_deals_its_damage():
    d = data()
    del turn(d, "Wrex")["actions"][0]["battlemaster"]
    next(e for e in d["enemies"] if e["name"] == "Husk W")["shield_value"] = 5
    t = resolve(d)
    assert step(t, "Lift Grenade may still be used on Husk W").rule == S.COMMENTARY_WREX_LIFT_GRENADE
    assert "Husk W suffers 2 Damage from Wrex: 2 of Shield Value 5" in titles(t)
    assert "Husk W already has a Biotic Effect token: a second one cannot be placed" in titles(t)


# --- the file ---------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("change,field", [
    (lambda d: d["unlocked"].update(Garrus=["Concussive Shot"]), "unlocked.Garrus[0]"),
    (lambda d: d["unlocked"].update(Wrex=["Krogan Battlemaster"]), "unlocked.Wrex[0]"),
    (lambda d: d["unlocked"].update(Joker=["Shoot"]), "unlocked.Joker"),
    (lambda d: d.update(enraged=4), "enraged"),
    (lambda d: d.update(proximity_mines=4), "proximity_mines"),
    (lambda d: (d["unlocked"].update(Garrus=["Calibrate"]), d.update(proximity_mines=1)), "proximity_mines"),
    (lambda d: d.update(unlocks=[{"squadmate": "Garrus", "box": "Calibrate"}]), "unlocks[0].box"),
])
def test_bad_fields_are_refused_naming_the_field(change, field):
    d = copy.deepcopy(data())
    change(d)
    with pytest.raises(ScenarioError) as e:
        parse_round(d, "x.toml")
    assert field in str(e.value)


def test_new_stand_in_boxes_start_locked():
    sh = load_sheets()
    for who, box in (("Shepard", "Adrenaline Rush"), ("Garrus", "Calibrate"), ("Garrus", "Proximity Mines"),
                     ("Garrus", "Assassination"), ("Garrus", "Turian Rebel"), ("Tali", "Sabotage Turret"),
                     ("Wrex", "Lift Grenade"), ("Wrex", "Krogan Battlemaster")):
        assert not sh[who].box(box).unlocked


def test_the_round_page_shows_the_proximity_mine_tokens_left():
    from explorer.games.masseffect.round_view import core_element

    st = final(data())
    assert core_element(st, st.sheets["Garrus"]) == "Aim Value 4/5, Proximity Mine tokens 2/3"
    assert core_element(st, st.sheets["Wrex"]) == "Rage tokens Enraged 0/3"


def asari_data(unlocked):
    d = data()
    d["squadmates"].append({"name": "Liara", "max_shield_points": 2, "max_hit_points": 5, "position": "-3,3"})
    d["unlocked"]["Liara"] = ["Asari Controller"] if unlocked else []
    d["enemies"].append({"name": "Sniper", "type": "Trooper", "attack_value": 3, "shield_value": 4,
                         "tags": ["Ranged"], "biotic_effect": True, "position": "-3,1"})
    d["hazard_deck"].insert(0, {"name": "Shoot", "instructions": [{"do": "activate", "types": ["Trooper"]}]})
    return d


def test_asari_controller_takes_the_ranged_tag_of_an_enemy_with_a_biotic_effect_token():
    """Liara › Asari Controller: a Ranged Sniper with a Biotic Effect token attacks Liara (fewest Hit Points, in its
    Line of Fire two hexes away) without it; with it unlocked the Sniper counts as having no Tags, so only Shepard,
    adjacent after his Adrenaline Rush, is a target."""
    assert "Sniper Attacks Liara for 1 Damage (3 - 2, Biotic Effect token)" in titles(resolve(asari_data(False)))
    assert "Sniper Attacks Shepard for 1 Damage (3 - 2, Biotic Effect token)" in titles(resolve(asari_data(True)))
    assert final(asari_data(True)).board.asari_controller


def test_asari_controller_unlocked_during_the_mission_applies_at_once():
    d = asari_data(False)
    next(s for s in d["squadmates"] if s["name"] == "Liara")["xp"] = 2
    d["unlocks"] = [{"squadmate": "Liara", "box": "Asari Controller"}]
    d["enemies"].append({"name": "Husk L", "type": "Husk", "attack_value": 1, "shield_value": 1, "position": "-3,2"})
    d["turns"].append({"squadmate": "Liara", "actions": [
        {"box": "Pistol Shot", "die": "standard", "target": "Husk L"},
        {"box": "Move", "die": "move_2", "resolve": False}, {"box": "Move", "die": "move_3", "resolve": False}]})
    t = resolve(d)
    s = step(t, "Asari Controller unlocked: from now on")
    assert s.rule == S.COMMENTARY_LIARA_ASARI_CONTROLLER
    assert final(d).board.asari_controller
