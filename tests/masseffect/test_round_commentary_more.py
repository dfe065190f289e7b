"""Issue 19: the last four Squadmate Commentary rules in a Round, as worked examples from the text: Wrex's Shoot It 46
More Times (the second Shotgun Blast deals the first one's Damage: 2 Standard, 4 Enhanced) and What Krogan Do Best
(closer by Counting Distances), Liara's Shadow Broker Intuition (any Squadmate targeted, not just Liara) and Tali's
Sabotage Enemy (a Ranged Enemy may still be chosen under Asari Controller). The commentary gives the rule; each
Ability's effect and numbers are the stand-in sheet's. Built-in me-round-wrex-liara-commentary, its golden trace in
tests/masseffect/golden/."""

import copy
import re
from pathlib import Path

import pytest
from golden_helpers import check_golden, trace_text

from explorer.errors import ScenarioError
from explorer.games.masseffect import sections as S
from explorer.games.masseffect.options import rulings
from explorer.games.masseffect.sheets import load_sheets, parse_sheets
from explorer.scenario import read_toml

from .test_round_commentary import final, resolve, step, titles, turn

SCENARIOS = Path(__file__).parents[2] / "explorer" / "games" / "masseffect" / "scenarios"
STANDIN = Path(__file__).parents[2] / "explorer" / "games" / "masseffect" / "sheets" / "standin.toml"
GOLDEN = Path(__file__).parent / "golden"
NAME = "me-round-wrex-liara-commentary"


def data():
    return copy.deepcopy(read_toml(SCENARIOS / f"{NAME}.toml"))


def refusal(t):
    return next(s for s in t.steps if s.title.startswith("Not allowed"))


def test_golden_trace():
    check_golden(GOLDEN, NAME, trace_text(resolve(data())))


def test_every_new_ruling_option_is_declared_with_both_readings():
    r = rulings()
    for key, default in (("shoot_it_46", "twice"), ("krogan_moves", "advance_only"),
                         ("intuition_attacks", "attacking_only")):
        assert r.reading(key) == default
    with pytest.raises(ScenarioError):
        rulings({"shoot_it_46": "thrice"})


# --- Shoot It 46 More Times -----------------------------------------------------------------------------------------


def test_shoot_it_46_enhanced_deals_4_both_times():
    """The commentary's example: an Enhanced Action icon deals 4 Damage both times."""
    t = resolve(data())
    hits = [s for s in t.steps if s.title.startswith("Husk A suffers") or s.title.startswith("Husk B suffers")]
    assert [s.title.split(":")[0] for s in hits] == ["Husk A suffers 4 Damage from Wrex",
                                                     "Husk B suffers 4 Damage from Wrex"]
    assert step(t, "Wrex's Shoot It 46 More Times").rule == S.COMMENTARY_WREX_SHOOT_IT_46


def test_shoot_it_46_standard_deals_2_both_times_on_the_same_target():
    d = data()
    a = turn(d, "Wrex")["actions"][0]
    a["die"], a["target"] = "standard", "Husk B"
    del a["second_target"]
    t = resolve(d)
    assert [x for x in titles(t) if x.startswith("Husk B suffers")][:2] == [
        "Husk B suffers 2 Damage from Wrex: 2 of Shield Value 6",
        "Husk B suffers 2 Damage from Wrex: 4 of Shield Value 6"]


def test_shoot_it_46_second_target_gone_is_refused_naming_the_field():
    d = data()
    del turn(d, "Wrex")["actions"][0]["second_target"]    # Husk A is Defeated by the first Blast
    r = refusal(resolve(d))
    assert "turns[0].actions[0].second_target" in r.title and r.rule == S.COMMENTARY_WREX_SHOOT_IT_46


def test_shoot_it_46_repeat_first_repeats_the_earlier_blast_with_its_icon():
    d = data()
    acts = turn(d, "Wrex")["actions"]
    acts[0] = {"box": "Shotgun Blast", "die": "enhanced", "target": "Husk B"}
    acts[1] = {"box": "Shoot It 46 More Times", "die": "standard", "target": "Husk B"}
    t = resolve(d, {"shoot_it_46": "repeat_first"})
    b = [x for x in titles(t) if x.startswith("Husk B suffers")]
    assert b[:2] == ["Husk B suffers 4 Damage from Wrex: 4 of Shield Value 6",
                     "Husk B suffers 4 Damage from Wrex: 8 >= Shield Value 6, Defeated"]
    # the default reading: this Ability's own (Standard) die, twice: 2 Damage each time; the first Defeats Husk B
    # (4 + 2 of 6), so the second needs another target, refused naming second_target
    t2 = resolve(d)
    r = refusal(t2)
    assert "Husk B is no longer on the map after the first Shotgun Blast" in r.title
    assert "turns[0].actions[1].second_target" in r.title


def test_shoot_it_46_repeat_first_without_a_blast_is_refused():
    r = refusal(resolve(data(), {"shoot_it_46": "repeat_first"}))
    assert "turns[0].actions[0].box" in r.title and "resolved no Shotgun Blast Action this turn" in r.title


# --- What Krogan Do Best --------------------------------------------------------------------------------------------


def test_what_krogan_do_best_counts_distances_and_regains_a_shield_point():
    t = resolve(data())
    s = step(t, "What Krogan Do Best: Husk C")
    assert s.rule == S.COMMENTARY_WREX_WHAT_KROGAN_DO_BEST
    assert (s.facts["from"], s.facts["to"], s.facts["shield_points"]) == (3, 1, 1)


def test_what_krogan_do_best_locked_does_nothing():
    d = data()
    d["unlocked"]["Wrex"] = ["Shoot It 46 More Times"]
    assert not any(x.startswith("What Krogan Do Best") for x in titles(resolve(d)))


def test_what_krogan_do_best_uses_counting_distances_around_a_wall():
    """An Enemy whose straight-line distance shrinks but whose counted distance (around a wall) does not: no trigger."""
    from explorer.games.masseffect.activation import Board, what_krogan_do_best
    from explorer.hexgrid import Hex

    class Walls:
        def distance(self, a, b):        # a wall makes the route from 2,0 long
            return {Hex(3, 0): 3, Hex(2, 0): 5}[a]
    st = final(data())
    board = st.board
    husk = board.enemy("Husk C")
    same, steps = what_krogan_do_best(Walls(), board, husk.name, Hex(3, 0), Hex(2, 0))
    assert steps == [] and same is board
    closer, steps = what_krogan_do_best(Walls(), board, husk.name, Hex(2, 0), Hex(3, 0))
    assert steps and steps[0].facts["from"] == 5 and steps[0].facts["to"] == 3
    assert isinstance(closer, Board)


def test_krogan_moves_any_move_counts_a_react_tag_move():
    """Husk B (React Tag) 2 hexes from Wrex takes his Charge and moves one hex toward him: under krogan_moves =
    any_move that move ends closer (2 -> 1), a Shield Point back; under the default only an Advance counts."""
    d = data()
    d["unlocked"]["Wrex"] = ["Charge", "What Krogan Do Best"]
    d["enemies"][1].update(tags=["React"], position="0,2")
    turn(d, "Wrex")["actions"][0] = {"box": "Charge", "die": "enhanced", "target": "Husk B"}
    base = resolve(d)
    assert any(x.startswith("React Tag: Husk B, Damaged but not Defeated, moves one hex toward Wrex") for x in
               titles(base))
    assert not any(x.startswith("What Krogan Do Best: Husk B") for x in titles(base))
    t = resolve(d, {"krogan_moves": "any_move"})
    s = step(t, "What Krogan Do Best: Husk B")
    assert (s.facts["from"], s.facts["to"], s.facts["shield_points"]) == (2, 1, 2)


# --- Shadow Broker Intuition ----------------------------------------------------------------------------------------


def test_intuition_on_another_squadmate_lowers_the_attack():
    t = resolve(data())
    s = step(t, "Shadow Broker Intuition: Husk C targets Wrex")
    assert s.rule == S.COMMENTARY_LIARA_SHADOW_BROKER and s.facts["damage"] == 1
    assert "Husk C Attacks Wrex for 1 Damage (2 - 1, Shadow Broker Intuition)" in titles(t)


def test_intuition_not_targeting_lapses_and_is_not_spent():
    d = data()
    turn(d, "Tali")["intuition"] = "Trooper"       # Trooper is not Activated by a Husk card
    t = resolve(d)
    assert "Trooper targeted no Squadmate this turn: Liara's Shadow Broker Intuition is not used" in titles(t)
    assert final(d).intuition_used == ()


@pytest.mark.parametrize("change, field, words", [
    (lambda d: d["unlocked"].update(Liara=["Asari Controller"]), "turns[2].intuition", "Locked Ability"),
    (lambda d: turn(d, "Tali").update(intuition="Nobody"), "turns[2].intuition", "Nobody is not on the map"),
    (lambda d: turn(d, "Wrex").update(intuition="Husk B"), "turns[2].intuition", "already used this Round"),
])
def test_intuition_refusals_name_the_field(change, field, words):
    d = data()
    change(d)
    r = refusal(resolve(d))
    assert field in r.title and words in r.title


def test_intuition_opportunity_attack_only_under_the_ruling():
    d = data()
    t = turn(d, "Wrex")
    t["intuition"] = "Husk A"
    t["actions"][0] = {"box": "Move", "die": "move_2", "path": ["0,0", "-1,1"]}   # leaves Husk A and Husk B
    base = resolve(d)
    assert "Wrex leaves Husk A's adjacency (0,0 -> -1,1): Opportunity Attack for 1" in titles(base)
    assert not any(x.startswith("Shadow Broker Intuition: Husk A") for x in titles(base))
    other = resolve(d, {"intuition_attacks": "opportunity_too"})
    assert "Shadow Broker Intuition: Husk A targets Wrex; Liara uses it on Wrex's behalf: the Opportunity Attack " \
           "deals 1 -> 0 Damage" in titles(other)
    assert "Wrex leaves Husk A's adjacency (0,0 -> -1,1): Opportunity Attack for 0" in titles(other)


# --- Sabotage Enemy -------------------------------------------------------------------------------------------------


def test_sabotage_enemy_may_choose_a_ranged_enemy_with_a_token_under_asari_controller():
    s = step(resolve(data()), "Trooper has a Biotic Effect token, so Asari Controller")
    assert s.rule == S.COMMENTARY_TALI_SABOTAGE_ENEMY


def test_sabotage_enemy_refuses_an_enemy_without_the_ranged_tag():
    d = data()
    d["enemies"][3]["tags"] = []
    r = refusal(resolve(d))
    assert "Sabotage Enemy chooses an Enemy with the Ranged Tag: Trooper has none" in r.title
    assert "turns[2].actions[0].target" in r.title


def test_sabotage_enemy_without_asari_controller_says_nothing_more():
    d = data()
    d["unlocked"]["Liara"] = ["Shadow Broker Intuition"]
    t = resolve(d)
    assert not any("Asari Controller" in x for x in titles(t))
    assert any(x.startswith("Trooper suffers 2 Damage from Tali") for x in titles(t))


# --- the sheet file -------------------------------------------------------------------------------------------------


def test_sheet_repeats_must_name_a_damage_box():
    bad = STANDIN.read_text().replace('repeats = "Shotgun Blast"', 'repeats = "Charge Ahead"')
    assert bad != STANDIN.read_text()
    import tomllib
    with pytest.raises(ScenarioError) as e:
        parse_sheets(tomllib.loads(bad), "s.toml")
    assert "repeats" in str(e.value) and "Shotgun" in str(e.value)


@pytest.mark.parametrize("field", ["closer_shield", "intuition"])
def test_sheet_new_numbers_are_bounded(field):
    import tomllib
    bad = STANDIN.read_text().replace(f"{field} = 1 ", f"{field} = 9 ")
    assert bad != STANDIN.read_text()
    with pytest.raises(ScenarioError) as e:
        parse_sheets(tomllib.loads(bad), "s.toml")
    assert field in str(e.value)


def test_standin_shotgun_blast_matches_the_commentary_example():
    """Squadmate Commentary › Shoot It 46 More Times names the Action "Shotgun Blast" (2 Standard, 4 Enhanced)."""
    wrex = load_sheets()["Wrex"]
    assert wrex.box("Shotgun Blast").name == "Shotgun Blast" and wrex.box("Shotgun Blast").damage == (2, 4)
    assert wrex.box("Shoot It 46 More Times").repeats == "Shotgun Blast"
    # the stand-in's former name still finds the box (older round files)
    assert wrex.box("Shotgun") is wrex.box("Shotgun Blast") and wrex.canonical("shotgun") == "Shotgun Blast"
    assert wrex.canonical("Charge") == "Charge" and wrex.canonical("No Such Box") == "No Such Box"


def test_a_round_file_naming_the_old_shotgun_plays_as_shotgun_blast():
    """A round file written before the rename (``box = "Shotgun"``, also in ``unlocked``) plays exactly as one
    naming "Shotgun Blast", every step saying the new name."""
    d = data()
    acts = turn(d, "Wrex")["actions"]
    acts[0] = {"box": "Shotgun Blast", "die": "enhanced", "target": "Husk B"}
    acts[1] = {"box": "Shoot It 46 More Times", "die": "standard", "target": "Husk B"}
    new = titles(resolve(d, {"shoot_it_46": "repeat_first"}))
    acts[0]["box"] = "shotgun"
    old = titles(resolve(d, {"shoot_it_46": "repeat_first"}))
    assert old == new and any("Shotgun Blast" in x for x in new)
    assert not any(re.search(r"Shotgun(?! Blast)", x) for x in old)


def test_sheet_former_name_may_not_be_another_box_name():
    import tomllib
    bad = STANDIN.read_text().replace('former_names = ["Shotgun"]', 'former_names = ["Charge"]')
    assert bad != STANDIN.read_text()
    with pytest.raises(ScenarioError) as e:
        parse_sheets(tomllib.loads(bad), "s.toml")
    assert "sheets[4].boxes[0].former_names[0]" in str(e.value) and "'Charge'" in str(e.value)


def test_sheet_reference_by_a_former_name_is_read_as_the_box():
    import tomllib
    text = STANDIN.read_text().replace('repeats = "Shotgun Blast"', 'repeats = "Shotgun"')
    assert text != STANDIN.read_text()
    assert parse_sheets(tomllib.loads(text), "s.toml")["Wrex"].box("Shoot It 46 More Times").repeats == "Shotgun Blast"


# --- the outcome text: Proximity Mine tokens left -------------------------------------------------------------------


def _outcome(d, rul=None):
    from explorer.games.masseffect.outcome import outcome_text
    return outcome_text(resolve(d, rul))


def test_outcome_text_says_the_proximity_mine_tokens_left():
    d = read_toml(SCENARIOS / "me-round-commentary.toml")
    assert "  Garrus' Proximity Mine tokens left: 2" in _outcome(d).splitlines()      # three, one placed
    d["proximity_mines"] = 1
    assert "  Garrus' Proximity Mine tokens left: 0" in _outcome(d).splitlines()


def test_outcome_text_has_no_mine_line_without_proximity_mines():
    assert "Proximity Mine" not in _outcome(data())


def test_the_json_outcome_carries_the_proximity_mine_tokens_left():
    """Squadmate Commentary › Garrus Vakarian › Proximity Mines: the typed outcome's ``mines`` is in the JSON too,
    ``{"Garrus": tokens left}``; without Proximity Mines unlocked the key is absent."""
    d = read_toml(SCENARIOS / "me-round-commentary.toml")
    t = resolve(d)
    assert t.result.mines == ("Garrus", 2) and t.outcome["proximity_mines"] == {"Garrus": 2}
    d["proximity_mines"] = 1
    assert resolve(d).outcome["proximity_mines"] == {"Garrus": 0}
    assert "proximity_mines" not in resolve(data()).outcome


# --- dice placed without resolving: unlocked Abilities count ---------------------------------------------------------


def _garrus_rolls(unlocked):
    """Garrus rolls three Standard dice and declares no Action: all three go on free matching Action Spaces. On the
    stand-in sheet his free Standard spaces are Concussive Shot's and Revive's (two); Overload, Locked on the sheet,
    has a third once unlocked (the file's [unlocked])."""
    d = read_toml(SCENARIOS / "me-round-commentary.toml")
    d["unlocked"] = {"Garrus": unlocked} if unlocked else {}
    d["turns"] = [{"squadmate": "Garrus", "roll": {"rolls": [["standard", "standard", "standard"] + ["move_2"] * 9]}}]
    d["on_point"] = "Garrus"
    return [s for s in resolve(d).steps if s.title.startswith(("Placed without", "No free Action Space"))]


def test_dice_placed_without_resolving_use_an_ability_unlocked_earlier():
    """The first three dice that fit, in Pool order: Locked, the third Standard die fits nowhere and S4 (Move 2) goes
    on a Move space; with Overload unlocked in an earlier Mission, S3 goes on Overload."""
    locked = _garrus_rolls([])
    assert len(locked) == 1 and "Overload" not in locked[0].title
    assert "S4 (Move 2) on Move (Action Space 1)" in locked[0].title
    opened = _garrus_rolls(["Overload"])
    assert len(opened) == 1 and "S3 (Standard) on Overload (Action Space 1)" in opened[0].title


# --- Shadow Broker Intuition on the turn of a Squadmate Downed when it starts ---------------------------------------


def _tali_downed_in_preparation():
    """Tali starts the Round Downed: no Hazard card is drawn for her, her turn has no Actions."""
    d = data()
    d["squadmates"][2]["downed"] = True
    turn(d, "Tali")["actions"] = []
    return d


def _tali_downed_by_husk_b():
    """Tali, next to Husk B with 1 Hit Point, is Downed on Wrex's card; her own card is still face-down."""
    d = data()
    d["squadmates"][2].update(position="1,1", shield_points=0, hit_points=1)
    t = turn(d, "Tali")
    t["actions"], t["intuition"] = [], "Husk B"
    return d


@pytest.mark.parametrize("make, rul, words", [
    (_tali_downed_in_preparation, None, "Tali is Downed and no Hazard card lies next to its sheet"),
    (_tali_downed_in_preparation, {"downed_hazard_card": "resolved"},
     "Tali is Downed and no Hazard card lies next to its sheet"),
    (_tali_downed_by_husk_b, None, "Tali is Downed and its Hazard card Husk C attacks is discarded unresolved "
                                   "(ruling downed_hazard_card = discarded)"),
])
def test_intuition_on_a_downed_turn_with_no_card_resolved_is_refused(make, rul, words):
    """Nothing Activates on that turn, so the declaration cannot be used: refused naming the field, not ignored."""
    t = resolve(make(), rul)
    r = refusal(t)
    assert words in r.title and "(turns[2].intuition)" in r.title and r.rule == S.DOWNED_SQUADMATES
    assert "declare it on the turn of a Squadmate who is not Downed" in r.title
    assert r.section == "Turn 3: Tali" and t.steps[-1] is r


def test_intuition_on_a_downed_turn_whose_card_is_resolved_is_used():
    """Ruling downed_hazard_card = resolved: Tali's card Activates Husk B, which targets Wrex; Liara may use her
    Intuition when an Enemy targets any Squadmate, so it lowers that Attack and is spent for the Round."""
    d = _tali_downed_by_husk_b()
    t = resolve(d, {"downed_hazard_card": "resolved"})
    tali = [s.title for s in t.steps if s.section == "Turn 3: Tali"]
    assert tali[:3] == [
        "Tali is Downed: the sheet's back is not printed in the rulebook, no Actions here",
        "Liara readies Shadow Broker Intuition for Husk B: the next time it targets any Squadmate this turn, that "
        "Attack deals 1 less Damage",
        "Step C: Tali's Hazard card Husk C attacks is flipped and resolved all the same (ruling downed_hazard_card = "
        "resolved)"]
    assert "Husk B Attacks Wrex for 0 Damage (1 - 1, Shadow Broker Intuition)" in tali
    assert not any(x.startswith("Not allowed") for x in titles(t))
    assert final(d, {"downed_hazard_card": "resolved"}).intuition_used == (1,)


def test_intuition_on_liaras_own_downed_turn_is_refused():
    d = data()
    d["squadmates"][1].update(position="1,1", shield_points=0, hit_points=1)   # Downed by Husk B on Wrex's card
    t = turn(d, "Liara")
    t["actions"], t["intuition"] = [], "Husk B"
    del turn(d, "Tali")["intuition"]
    r = refusal(resolve(d, {"downed_hazard_card": "resolved"}))
    assert "Liara is Downed: she cannot use Shadow Broker Intuition" in r.title and "(turns[1].intuition)" in r.title


# --- every Ability the Squadmate Commentary names is a box of the stand-in sheets ------------------------------------

COMMENTARY_ABILITIES = {
    "Shepard": ["Warp", "Barrier", "Incinerate", "Adrenaline Rush"],
    "Garrus": ["Concussive Shot", "Turian Rebel", "Overload", "Proximity Mines", "Calibrate", "Assassination",
               "Armor-Piercing Rounds"],
    "Liara": ["Stasis", "Singularity", "Pistol Shot", "Lift", "Warp Ammo", "Biotic Explosion", "Pure Biotic",
              "Shadow Broker Intuition", "Asari Controller"],
    "Tali": ["Pistol Burst", "Sabotage Turret", "Sabotage Enemy", "Energy Drain"],
    "Wrex": ["What Krogan Do Best", "Krogan Battlemaster", "Lift Grenade", "Shoot It 46 More Times"]}
"""The Abilities the rulebook's Squadmate Commentary names, per Squadmate (Core Abilities aside)."""


def test_every_ability_the_commentary_names_is_a_box_of_the_standin_sheets():
    """Issue 19 item 2: the stand-in sheets carry "the rest the commentary names"; Liara's Singularity, Warp Ammo,
    Biotic Explosion and Pure Biotic were missing. The new ones start Locked."""
    sheets = load_sheets()
    for who, names in COMMENTARY_ABILITIES.items():
        have = {b.name for b in sheets[who].boxes}
        assert set(names) <= have, (who, set(names) - have)
    liara = sheets["Liara"]
    for name in ("Singularity", "Warp Ammo", "Biotic Explosion", "Pure Biotic"):
        assert not liara.box(name).unlocked and liara.box(name).has_effect
    assert liara.box("Biotic Explosion").requires == ("Lift",)


def _liara(box, target, die="standard", **enemy):
    """Liara at 0,0 (her Abilities unlocked) and one Enemy, Husk (a Minion, Shield Value 3) at 2,0 unless ``enemy``
    says otherwise; a wall on the edge 1,0|2,0 and its neighbours when ``walled``."""
    walled = enemy.pop("walled", False)
    m = {"name": "liara-demo", "shape": {"kind": "hexagon", "radius": 4}}
    if walled:     # a wall around 2,0's west side: the straight route 0,0 -> 1,0 -> 2,0 is closed
        m["edges"] = [{"edge": e, "kind": "wall"} for e in ("1,0|2,0", "1,1|2,0", "2,-1|1,0", "1,-1|2,-1",
                                                                  "1,1|2,1", "2,-1|2,0", "2,0|2,1")]
    d = {"game": "masseffect", "kind": "round", "title": "Liara", "on_point": "Liara", "map": m,
         "unlocked": {"Liara": ["Lift", "Singularity", "Warp Ammo", "Biotic Explosion", "Pure Biotic"]},
         "squadmates": [{"name": "Liara", "max_shield_points": 2, "max_hit_points": 5, "position": "0,0"}],
         "enemies": [{"name": "Husk", "attack_value": 2, "shield_value": 3, "position": "2,0"} | enemy],
         "hazard_deck": [{"name": "Quiet", "instructions": [{"do": "spawn", "at": "closest"}]}],
         "turns": [{"squadmate": "Liara", "actions": [{"box": box, "die": die, "target": target}]}]}
    return resolve(d)


def test_singularity_stuns_a_minion_and_is_refused_on_an_elite():
    """Squadmate Commentary › Liara T'Soni › Stasis / Singularity: only Minions can be Stunned."""
    t = _liara("Singularity", "Husk", "enhanced")
    assert t.result.rejected is None and t.outcome["enemies"]["Husk"]["stunned"] is False   # End Phase flips it back
    assert any(s.title.startswith("Husk is Stunned") or "Stunned" in s.title for s in t.steps)
    t = _liara("Singularity", "Brute", "enhanced", name="Brute", kind="elite", resilience=[3, 3])
    assert t.result.rejected and "turns[0].actions[0].target" in t.result.rejected


def test_warp_ammo_on_an_enemy_with_a_biotic_effect_token_places_no_second_one():
    """Squadmate Commentary › Liara T'Soni › Lift / Warp Ammo / Biotic Explosion: one Biotic Effect token per Enemy:
    the Damage is dealt, no second token placed."""
    t = _liara("Warp Ammo", "Husk", biotic_effect=True)
    assert t.result.rejected is None
    titles = [s.title for s in t.steps]
    assert "Husk suffers 1 Damage from Liara: 1 of Shield Value 3" in titles
    said = next(s for s in t.steps if s.title.startswith("Warp Ammo may still be used on Husk"))
    assert said.title.endswith("its Damage is dealt, but no second token is placed")
    assert said.rule.section == "Squadmate Commentary › Liara T'Soni › Lift / Warp Ammo / Biotic Explosion"
    assert "Husk already has a Biotic Effect token: a second one cannot be placed" in titles


def test_pure_biotic_counts_only_via_adjacent_hexes():
    """Squadmate Commentary › Liara T'Soni › Pure Biotic: Counting Distances (only via adjacent hexes): the Husk two
    hexes away is in reach (range 3), walled in it is not (the route around the walls is longer than 3)."""
    assert _liara("Pure Biotic", "Husk").result.rejected is None
    why = _liara("Pure Biotic", "Husk", walled=True).result.rejected
    assert why and "Pure Biotic reaches 3" in why and "turns[0].actions[0].target" in why
