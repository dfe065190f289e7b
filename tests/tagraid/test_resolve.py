"""Resolution rules, one test per rule (Rolls, Face to Face, Evade, Damage, Death, Neomaterials, MegaBeast)."""

import pytest

from explorer.dice import ScriptedRoller, SeededRoller
from explorer.errors import DiceScriptExhausted, ScenarioError
from explorer.games.tagraid import sections as S
from explorer.games.tagraid.resolve import resolve
from explorer.games.tagraid.scenarios import load_scenario
from explorer.trace import RuleRef

from engine_helpers import build, miner

@pytest.fixture
def mk():
    return build


ALL_REFS = {v for v in vars(S).values() if isinstance(v, RuleRef)}


def steps(t, section):
    return [s for s in t.steps if s.section == section]


def titles(t):
    return "\n".join(s.title for s in t.steps)


# ---------------------------------------------------------------- rulebook worked examples


def test_book_normal_roll_sv9_8_succeeds_12_fails():
    t = resolve(load_scenario("book-normal-roll"))
    sv = steps(t, "Success Values")[0]
    assert sv.facts["sv"] == 9 and sv.facts["attribute"] == 12 and sv.facts["mod_total"] == -3
    dice = steps(t, "Rolls")[0].facts["dice"]
    assert [(d["face"], d["kind"]) for d in dice] == [(8, "success"), (12, "failure")]
    assert t.outcome["pairs"][0]["kind"] == "normal_roll" and t.outcome["pairs"][0]["hits"] == {"TAG": 1}
    assert any(s.rule == S.NORMAL_ROLL for s in t.steps)


def test_book_1v1_both_sv12_tafang_wins_stonebreaker_one_save():
    t = resolve(load_scenario("book-f2f-1v1"))
    assert [s.facts["sv"] for s in steps(t, "Success Values")] == [12, 12]
    for s in steps(t, "Success Values"):
        assert s.facts["attribute"] == 12 and s.facts["mods"] == {"Long Range": 3, "Partial Cover": -3}
    rolls = steps(t, "Rolls")
    assert all(d["kind"] == "success" for s in rolls for d in s.facts["dice"])  # "All Rolls are successful"
    assert [d["face"] for d in rolls[1].facts["dice"]] == [11]  # Tāfāng: Burst 1 ARO
    assert len(rolls[0].facts["dice"]) == 3
    cancel = [s for s in t.steps if "canceller" in s.facts]
    assert len(cancel) == 1 and cancel[0].facts == {"canceller": "B.1", "cancelled": ["A.1", "A.2", "A.3"]}
    assert t.outcome["pairs"][0]["winner"] == "Tāfāng"
    assert t.outcome["saving_rolls"] == {"StoneBreaker": 1}


def test_book_f2f_and_normal_both_critical_rockeater_14_fails():
    t = resolve(load_scenario("book-f2f-and-normal"))
    assert [s.facts["sv"] for s in steps(t, "Success Values")] == [12, 12, 12]
    f2f, normal = t.outcome["pairs"]
    assert f2f["kind"] == "face_to_face" and f2f["winner"] is None and f2f["result"] == "tie"
    assert normal == {"active": "StoneBreaker", "reactive": "Rockeater", "kind": "normal_roll", "winner": None,
                      "hits": {"Rockeater": 0}, "crits": {"Rockeater": 0}}
    crit_faces = [d for s in steps(t, "Rolls") for d in s.facts["dice"] if d["kind"] == "critical"]
    assert {d["id"] for d in crit_faces} == {"A.1", "B.1"}
    assert steps(t, "Rolls")[2].facts["dice"][0] == {"id": "C.1", "face": 14, "effective": 14, "kind": "failure"}
    assert t.outcome["saving_rolls"] == {}


def test_book_two_f2f_split_burst():
    t = resolve(load_scenario("book-two-f2f"))
    svs = {(s.facts["miner"], s.title.split(" at ")[-1].split(":")[0]): s.facts["sv"]
           for s in steps(t, "Success Values")}
    assert svs[("StoneBreaker", "Tāfāng")] == 12 and svs[("StoneBreaker", "Rockeater")] == 9
    assert svs[("Rockeater", "StoneBreaker")] == 12
    p_taf, p_rock = t.outcome["pairs"]
    assert p_taf["winner"] == "StoneBreaker" and p_taf["hits"]["StoneBreaker"] == 1
    assert p_rock["winner"] == "Rockeater" and p_rock["crits"]["Rockeater"] == 1
    dice = {d["id"]: d for s in steps(t, "Rolls") for d in s.facts["dice"]}
    assert dice["A.1"]["face"] == 9 and dice["A.1"]["kind"] == "success"
    assert dice["A.3"]["face"] == 11 and dice["A.3"]["kind"] == "failure"  # "the 11 against the Rockeater is a miss"
    assert dice["C.1"]["face"] == 12 and dice["C.1"]["kind"] == "critical"
    # only a 9 (a Critical at SV 9) at the Rockeater would have cancelled the Rockeater's Critical
    sc = load_scenario("book-two-f2f")
    sc.active.attacks[1].dice = [9]
    t9 = resolve(sc)
    assert t9.outcome["pairs"][1]["winner"] is None and t9.outcome["pairs"][1]["result"] == "tie"
    assert t.outcome["saving_rolls"] == {"Tāfāng": 1, "StoneBreaker": 2}  # N Critical: 1 + 1


def test_book_stoorworm_threat8_exp_three_wounds():
    t = resolve(load_scenario("book-stoorworm"))
    assert t.outcome["megabeast"]["wounds"] == 3 and t.outcome["t_bezoar"] == {"Cavecrawler": 3}
    assert t.outcome["pairs"][0]["threat_level"] == 8
    assert "StoneBreaker" not in t.outcome["saving_rolls"] and t.outcome["saving_rolls"] == {}
    # a success not above 8 means the MegaBeast prevailed and its Behavior Attack is applied
    sc = load_scenario("book-stoorworm")
    sc.active.attacks[0].dice = [6]
    t2 = resolve(sc)
    assert t2.outcome["megabeast"]["prevailed"] and t2.outcome["saving_rolls"]["Cavecrawler"] == 1


# ---------------------------------------------------------------- trace structure


@pytest.mark.parametrize("name", [s for s in ("book-f2f-1v1", "book-two-f2f", "tr-09", "tr-13", "tr-17", "tr-19")])
def test_every_step_cites_a_known_section_and_marks_known_ids(name):
    sc = load_scenario(name)
    t = resolve(sc)
    ids = set()
    for s in steps(t, "Rolls"):
        ids |= {d["id"] for d in s.facts["dice"]}
    letters = {"A", "MB"} | {chr(ord("B") + i) for i in range(len(sc.reactive))}
    for s in t.steps:
        assert s.rule in ALL_REFS, s.rule
        assert s.section
        for m in s.marks:
            assert m in ids or m in letters or m.split(".")[0] in letters, m
    assert t.sections()[0] == "Declarations"
    assert "Wounds and Neomaterials" in t.sections()
    t.to_json()


def test_seeded_resolution_is_reproducible_and_rolls_missing_dice(mk):
    sc = mk(miner("A", attacks=[{"target": "B"}]), [miner("B")], seed=11)
    a, b = resolve(sc), resolve(sc)
    assert a.to_dict() == b.to_dict()
    src = {s.facts["source"] for s in steps(a, "Rolls")}
    assert src == {"rolled (seed 11)"}


def test_explicit_roller_overrides_given_dice_in_resolution_order(mk):
    sc = mk(miner("A", attacks=[{"target": "B", "dice": [1, 1, 1]}]), [miner("B", dice=[1])])
    t = resolve(sc, roller=ScriptedRoller([3, 7, 10, 11, 5]))
    faces = [d["face"] for s in steps(t, "Rolls") for d in s.facts["dice"]]
    assert faces == [3, 7, 10, 11]
    assert t.outcome["pairs"][0]["winner"] == "B"
    with pytest.raises(DiceScriptExhausted):
        resolve(sc, roller=ScriptedRoller([3, 7, 10, 11]))


def test_too_few_save_dice_names_the_field(mk):
    sc = mk(miner("A", attacks=[{"target": "B", "dice": [2, 1, 1]}]), [miner("B", dice=[20], save_dice=[5])])
    with pytest.raises(ScenarioError, match=r"reactive\[0\]\.save_dice.*3 dice are needed"):
        resolve(sc)


def test_rulings_override_and_consulted_list(mk):
    sc = mk(miner("A", attribute=23, attacks=[{"target": "B", "dice": [20, 1, 1]}]), [miner("B", "none")])
    assert resolve(sc).rulings["sv_above_20"] == "literal"
    assert resolve(sc, rulings={"sv_above_20": "excess_to_die"}).rulings["sv_above_20"] == "excess_to_die"
    with pytest.raises(ScenarioError, match="rulings.nope"):
        resolve(sc, rulings={"nope": "x"})
    sc2 = mk(miner("A", attacks=[{"target": "B", "dice": [2, 1, 1]}]), [miner("B", "none")])
    assert "sv_above_20" not in resolve(sc2).rulings


# ---------------------------------------------------------------- AROs, Normal Rolls, Face to Face pairing


def test_aro_has_burst_1_unless_modded(mk):
    t = resolve(mk(miner("A", attacks=[{"target": "B"}]), [miner("B")], seed=1))
    assert len(steps(t, "Rolls")[1].facts["dice"]) == 1
    t = resolve(mk(miner("A", attacks=[{"target": "B"}]), [miner("B", burst_mod=2)], seed=1))
    assert len(steps(t, "Rolls")[1].facts["dice"]) == 3


def test_attacked_target_without_aro_gets_normal_rolls(mk):
    for skill in ("none", "idle"):
        t = resolve(mk(miner("A", attacks=[{"target": "B", "dice": [3, 12, 19]}]),
                       [miner("B", skill, save_dice=[20, 20, 20])]))
        p = t.outcome["pairs"][0]
        assert p["kind"] == "normal_roll" and p["hits"] == {"A": 1} and p["crits"] == {"A": 1}
        assert t.outcome["saving_rolls"] == {"B": 3}  # 1 + Critical 1 + its extra roll


def test_unattacked_aro_attacker_makes_normal_roll(mk):
    t = resolve(mk(miner("A", attacks=[{"target": "B", "dice": [20, 20, 20]}]),
                   [miner("B", dice=[19]), miner("C", dice=[5], save_dice=[1])]))
    assert t.outcome["pairs"][1]["kind"] == "normal_roll" and t.outcome["pairs"][1]["winner"] == "C"
    assert t.outcome["saving_rolls"] == {"A": 1}


def test_idle_active_attacked_by_aro_normal_roll(mk):
    t = resolve(mk(miner("A", "idle", save_dice=[1]), [miner("B", dice=[5])]))
    assert t.outcome["pairs"][0]["kind"] == "normal_roll" and t.outcome["wounds"]["A"] == 1


def test_tie_equal_results_cancel(mk):
    t = resolve(mk(miner("A", attacks=[{"target": "B", "dice": [7, 7, 3]}]), [miner("B", dice=[7])]))
    assert t.outcome["pairs"][0]["result"] == "tie" and t.outcome["saving_rolls"] == {}
    assert any(s.rule == S.BREAKING_TIES for s in t.steps)


def test_both_fail(mk):
    t = resolve(mk(miner("A", attacks=[{"target": "B", "dice": [17, 18, 19]}]), [miner("B", dice=[20])]))
    assert t.outcome["pairs"][0]["result"] == "none" and t.outcome["pairs"][0]["winner"] is None


def test_ranged_aro_without_lof_counts_as_idle(mk):
    t = resolve(mk(miner("A", attacks=[{"target": "B", "dice": [3, 3, 3]}]),
                   [miner("B", lof_to_active=False, dice=[1], save_dice=[20] * 3)]))
    assert "counts as Idle" in titles(t) and t.outcome["pairs"][0]["kind"] == "normal_roll"


def test_no_right_to_aro(mk):
    t = resolve(mk(miner("A", "idle"), [miner("B", lof_to_active=False, dice=[1])]))
    assert "no right to an ARO" in titles(t) and t.outcome["pairs"] == []


def test_same_hexagon_without_lof_may_only_evade(mk):
    t = resolve(mk(miner("A", "idle"), [miner("B", "close_combat_attack", lof_to_active=False, same_hexagon=True,
                                              dice=[1])]))
    assert "may only Evade" in steps(t, "Declarations")[1].detail


def test_evade_not_attacked_not_same_hexagon_counts_as_idle(mk):
    t = resolve(mk(miner("A", attacks=[{"target": "B", "dice": [3, 3, 3]}]),
                   [miner("B"), miner("C", "evade", dice=[1])], seed=2))
    assert "C's Evade ARO does not meet its Requirements" in titles(t)


# ---------------------------------------------------------------- Evade


def test_active_evade_single_roll_opposes_each_attack_individually(mk):
    sc = mk(miner("A", "evade", attribute=14, dice=[10], save_dice=[1, 1]),
            [miner("B", attribute=13, dice=[12]), miner("C", dice=[6])])
    t = resolve(sc)
    b, c = t.outcome["pairs"]
    assert b["winner"] == "B" and c["winner"] == "A"  # 12 beats the 10; the same 10 beats the 6
    assert t.outcome["saving_rolls"] == {"A": 1}
    assert t.outcome["evade_moves"] == ["A"] and t.rulings["evade_movement"] == "wins_any"  # default (TR-16)
    t2 = resolve(sc, rulings={"evade_movement": "wins_all"})
    assert t2.outcome["evade_moves"] == []


def test_active_normal_evade_roll_without_attackers(mk):
    t = resolve(mk(miner("A", "evade", dice=[4]), [miner("B", "idle")]))
    assert t.outcome["evade_moves"] == ["A"]


def test_evade_mod_single_minus_three(mk):
    t = resolve(mk(miner("A", attacks=[{"target": "R", "dice": [1, 1, 1]}]),
                   [miner("R", "evade", attribute=12, lof_to_active=False, enemy_tags_in_contact=3, dice=[20])]))
    sv = [s for s in steps(t, "Success Values") if s.facts["miner"] == "R"][0]
    assert sv.facts["sv"] == 9 and sv.facts["mods"] == {"Evade MOD": -3} and "single" in sv.detail
    t = resolve(mk(miner("A", attacks=[{"target": "R", "dice": [1, 1, 1]}]),
                   [miner("R", "evade", attribute=12, enemy_tags_in_contact=1, dice=[20], save_dice=[20] * 3)]))
    assert [s for s in steps(t, "Success Values") if s.facts["miner"] == "R"][0].facts["sv"] == 12


def test_evade_only_cancels_attack_against_evader(mk):
    sc = mk(miner("A", attribute=13, attacks=[{"target": "R", "burst": 1, "dice": [5]},
                                              {"target": "S", "burst": 2, "dice": [15, 4]}]),
            [miner("R", "evade", dice=[10]), miner("S", "idle", save_dice=[20, 20])])
    t = resolve(sc)
    r, s = t.outcome["pairs"]
    assert r["winner"] == "R" and s["kind"] == "normal_roll" and s["hits"] == {"A": 1}
    assert t.outcome["evade_moves"] == ["R"]
    assert t.rulings["evade_vs_split_attack"] == "own_dice"
    # other reading: A's dice aimed at S (a 12 here) may cancel R's Evade success, but cannot hit R
    sc.active.attacks[1].dice = [12, 4]
    t2 = resolve(sc, rulings={"evade_vs_split_attack": "all_dice"})
    assert t2.outcome["pairs"][0]["winner"] is None and "R" not in t2.outcome["saving_rolls"]
    assert t2.outcome["evade_moves"] == []
    assert resolve(sc).outcome["evade_moves"] == ["R"]


# ---------------------------------------------------------------- MODs and traits


def test_partial_cover_and_ranged_attack_trait_mod_the_attacker(mk):
    t = resolve(mk(miner("A", attacks=[{"target": "B", "mods": {"Range": 3}, "dice": [1, 1, 1]}]),
                   [miner("B", "none", partial_cover=True, traits=["Ranged Attack -3"], save_dice=[20] * 3)]))
    sv = steps(t, "Success Values")[0]
    assert sv.facts["sv"] == 9 and sv.facts["mods"] == {"Range": 3, "Partial Cover": -3, "Ranged Attack -3 trait": -3}


def test_trait_and_cover_do_not_apply_to_close_combat(mk):
    t = resolve(mk(miner("A", "close_combat_attack", attacks=[{"target": "B", "dice": [1, 1, 1]}]),
                   [miner("B", "none", partial_cover=True, traits=["Ranged Attack -3"], save_dice=[20] * 3,
                          silhouette_contact=True)]))
    assert steps(t, "Success Values")[0].facts["sv"] == 12
    ad = [s for s in steps(t, "Saving Rolls") if "attack_damage" in s.facts][0]
    assert ad.facts["attack_damage"] == 13 - 4 and not ad.facts["partial_cover"]


def test_close_combat_minus_three_with_several_enemy_tags(mk):
    t = resolve(mk(miner("A", "close_combat_attack", enemy_tags_in_contact=2, attacks=[{"target": "B", "dice": [1] * 3}]),
                   [miner("B", "none", save_dice=[20] * 3, silhouette_contact=True)]))
    assert steps(t, "Success Values")[0].facts["sv"] == 9


def test_aro_against_active_with_trait_and_cover(mk):
    t = resolve(mk(miner("A", "idle", partial_cover=True, traits=["Ranged Attack -3"]), [miner("B", dice=[20])]))
    assert steps(t, "Success Values")[0].facts["sv"] == 6


def test_mod_cap_ruling(mk):
    sc = mk(miner("A", mods={"a": 10, "b": 6}, attacks=[{"target": "B", "dice": [1, 1, 1]}]),
            [miner("B", "none", save_dice=[20] * 3)])
    assert steps(resolve(sc), "Success Values")[0].facts["sv"] == 28
    assert steps(resolve(sc, rulings={"mod_cap": "cap_12"}), "Success Values")[0].facts["sv"] == 24


# ---------------------------------------------------------------- Saving Rolls


@pytest.mark.parametrize("ammo,hits,crits,expected", [("N", 2, 0, 2), ("N", 1, 1, 3), ("DA", 0, 1, 3),
                                                      ("EXP", 0, 1, 4), ("EXP", 2, 0, 6), ("AP", 1, 1, 3)])
def test_saving_roll_counts_by_ammunition(mk, ammo, hits, crits, expected):
    dice = [5] * hits + [12] * crits + [20] * (3 - hits - crits)
    t = resolve(mk(miner("A", weapon={"damage": 13, "burst": 3, "ammunition": ammo},
                         attacks=[{"target": "B", "dice": dice}]), [miner("B", "none", wounds=30)], seed=3))
    assert t.outcome["saving_rolls"] == {"B": expected}


def test_armor_zero_trait_and_damage_mods(mk):
    t = resolve(mk(miner("A", weapon={"damage": 13, "burst": 1, "traits": ["Armor = 0"]},
                         attacks=[{"target": "B", "dice": [3], "damage_mods": {"Tool": -2}}]),
                   [miner("B", "none", armor=7, partial_cover=True, save_dice=[9])]))
    ad = [s for s in steps(t, "Saving Rolls") if "attack_damage" in s.facts][0]
    assert ad.facts["attack_damage"] == 13 - 0 - 3 - 2 and ad.facts["effective_armor"] == 0
    assert t.outcome["wounds"]["B"] in (0, 1) and t.outcome["failed_saves"]["B"] == 0


@pytest.mark.parametrize("damage,face,fails", [(9, 9, True), (9, 10, False), (0, 1, False), (25, 20, True)])
def test_save_fails_at_or_below_attack_damage(mk, damage, face, fails):
    t = resolve(mk(miner("A", weapon={"damage": damage, "burst": 1}, attacks=[{"target": "B", "dice": [1]}]),
                   [miner("B", "none", armor=0, save_dice=[face])]))
    assert t.outcome["wounds"]["B"] == int(fails)


# ---------------------------------------------------------------- Wounds, Death, Neomaterials


def test_death_loot_and_respawn(mk):
    t = resolve(mk(miner("A", attacks=[{"target": "B", "dice": [1, 2, 3]}]),
                   [miner("B", "none", wounds=2, armor=0, save_dice=[1, 1, 1],
                          neomaterials={"scoring_zone": 7, "warehouse": 2})]))
    assert t.outcome["wounds"]["B"] == 2 and t.outcome["dead"] == ["B"] and t.outcome["teseum"] == {"A": 2}
    assert t.outcome["loot"]["B"] == {"scoring_zone_before": 7, "kept": 4, "to_loot_zone": 3, "to_reserve": 0,
                                      "warehouse": 2, "megabeast_involved": False, "gained_this_order": 0}
    assert any(s.rule == S.RESPAWN for s in t.steps)


def test_neomaterials_collected_before_death(mk):
    # A kills B while C kills A in the same Order: A's new Teseum is collected before A applies Death
    t = resolve(mk(miner("A", wounds=1, armor=0, save_dice=[1], neomaterials={"scoring_zone": 4},
                         attacks=[{"target": "B", "dice": [20, 20, 3]}]),
                   [miner("B", "ranged_attack", attribute=13, wounds=1, armor=0, save_dice=[1], dice=[20]),
                    miner("C", attribute=12, dice=[5])]))
    assert set(t.outcome["dead"]) == {"A", "B"} and t.outcome["teseum"] == {"A": 1, "C": 1}
    loot = t.outcome["loot"]["A"]
    assert loot["scoring_zone_before"] == 5 and loot["gained_this_order"] == 1 and loot["kept"] == 3


def test_megabeast_involved_loot_goes_to_reserve(mk):
    t = resolve(mk(miner("A", "idle", wounds=1, armor=0, save_dice=[1], neomaterials={"scoring_zone": 3}), [],
                   {"name": "MB", "threat_level": 8, "wounds": 5,
                    "behavior_attack": {"damage": 15, "ammunition": "N"}}))
    assert t.outcome["dead"] == ["A"] and t.outcome["loot"]["A"]["to_reserve"] == 1
    assert t.outcome["loot"]["A"]["kept"] == 2 and t.outcome["teseum"] == {}


def test_several_attackers_teseum_timeline_and_each(mk):
    sc = mk(miner("A", "idle", wounds=2, armor=0, save_dice=[1, 1, 1, 1]),
            [miner("B", dice=[1], weapon={"damage": 13, "burst": 1, "ammunition": "DA"}),
             miner("C", dice=[1], weapon={"damage": 13, "burst": 1, "ammunition": "DA"})])
    t = resolve(sc)
    assert t.outcome["wounds"]["A"] == 2 and t.outcome["teseum"] == {"B": 2, "C": 0}
    assert t.rulings["teseum_several_attackers"] == "timeline"
    t2 = resolve(sc, rulings={"teseum_several_attackers": "each_attacker"})
    assert t2.outcome["teseum"] == {"B": 2, "C": 2} and t2.outcome["wounds"]["A"] == 2


# ---------------------------------------------------------------- MegaBeast

STOOR = {"name": "Stoorworm", "threat_level": 8, "wounds": 10, "behavior_attack": {"damage": 16},
         "silhouette_contact": True}
CAVE = dict(skill="close_combat_attack", weapon={"name": "Jackhammer", "damage": 14, "burst": 1, "ammunition": "EXP"})


def cave(dice, **kw):
    return miner("Cavecrawler", **{**CAVE, **kw}, attacks=[{"target": "Stoorworm", "dice": dice}])


@pytest.mark.parametrize("face,wounds,prevails", [(9, 3, False), (8, 0, True), (3, 0, True), (20, 0, True)])
def test_megabeast_needs_success_above_threat(mk, face, wounds, prevails):
    t = resolve(mk(cave([face], attribute=14, save_dice=[20]), [], STOOR))
    assert t.outcome["megabeast"]["wounds"] == wounds and t.outcome["megabeast"]["prevailed"] is prevails
    if prevails:
        assert t.outcome["saving_rolls"] == {"Cavecrawler": 1}


def test_megabeast_equal_ruling(mk):
    sc = mk(cave([8], attribute=14, save_dice=[20]), [], STOOR)
    assert resolve(sc).outcome["megabeast"]["prevailed"] and resolve(sc).rulings["megabeast_equal"] == \
        "megabeast_prevails"
    t = resolve(sc, rulings={"megabeast_equal": "tie"})
    assert not t.outcome["megabeast"]["prevailed"] and t.outcome["saving_rolls"] == {}
    assert t.outcome["megabeast"]["wounds"] == 0


def test_megabeast_fury_tokens_count_as_wounds(mk):
    mb = {**STOOR, "wounds": 4, "fury_tokens": [2, 4]}
    t = resolve(mk(cave([9], attribute=14), [], mb))
    assert t.outcome["megabeast"]["wounds"] == 3 and t.outcome["megabeast"]["fury_tokens_removed"] == [2]
    assert t.outcome["t_bezoar"] == {"Cavecrawler": 3} and any(s.rule == S.MEGABEAST_RAGE for s in t.steps)


def test_megabeast_no_aro_rulings(mk):
    sc = mk(cave([5, 11], attribute=14, weapon={"damage": 14, "burst": 2, "ammunition": "N"}), [],
            {**STOOR, "aro": False})
    t = resolve(sc)
    assert t.outcome["megabeast"]["wounds"] == 1 and not t.outcome["megabeast"]["prevailed"]
    assert t.rulings["megabeast_no_aro"] == "threat_level"
    t2 = resolve(sc, rulings={"megabeast_no_aro": "normal_roll"})
    assert t2.outcome["megabeast"]["wounds"] == 2
    assert t.outcome["megabeast"]["reorients"] and t.sections()[-1] == "Conclusion"
    sc.active.attacks[0].dice = [2, 3]
    assert resolve(sc).outcome["saving_rolls"] == {}  # without an ARO it never prevails


def test_megabeast_aro_unopposed_hits_active(mk):
    t = resolve(mk(miner("A", attacks=[{"target": "B", "dice": [20, 20, 20]}], save_dice=[1]), [miner("B", "none")],
                   STOOR))
    assert t.outcome["pairs"][-1]["kind"] == "unopposed" and t.outcome["wounds"]["A"] == 1
    assert t.outcome["teseum"] == {}


def test_active_evades_megabeast(mk):
    t = resolve(mk(miner("A", "evade", attribute=14, dice=[10]), [], STOOR))
    assert t.outcome["pairs"][0]["winner"] == "A" and t.outcome["evade_moves"] == ["A"]
    t = resolve(mk(miner("A", "evade", attribute=14, dice=[7], save_dice=[20]), [], STOOR))
    assert t.outcome["megabeast"]["prevailed"] and t.outcome["saving_rolls"] == {"A": 1}


def test_megabeast_critical_extra_roll_ignored(mk):
    t = resolve(mk(cave([14], attribute=14), [], STOOR))
    assert t.outcome["megabeast"]["wounds"] == 3  # not 4
    assert "ignored" in [s for s in steps(t, "Saving Rolls")][0].detail


def test_seeded_save_dice_when_not_given(mk):
    t = resolve(mk(miner("A", attacks=[{"target": "B", "dice": [1, 2, 3]}]), [miner("B", "none")], seed=5))
    s = [s for s in steps(t, "Saving Rolls") if "source" in s.facts][0]
    assert s.facts["source"] == "rolled (seed 5)" and len(s.facts["dice"]) == 3
    again = resolve(mk(miner("A", attacks=[{"target": "B", "dice": [1, 2, 3]}]), [miner("B", "none")], seed=5))
    assert again.outcome == t.outcome


def test_seeded_roller_object(mk):
    sc = mk(miner("A", attacks=[{"target": "B"}]), [miner("B")])
    assert resolve(sc, roller=SeededRoller(4)).to_dict() == resolve(sc, roller=SeededRoller(4)).to_dict()


def test_out_of_range_attack_fails_automatically(mk):
    t = resolve(mk(miner("A", attacks=[{"target": "B", "out_of_range": True}], save_dice=[1]),
                   [miner("B", dice=[5])]))
    assert "Out of Range" in titles(t) and t.outcome["pairs"][0]["kind"] == "normal_roll"
    assert t.outcome["pairs"][0]["winner"] == "B" and t.outcome["wounds"]["A"] == 1
    t = resolve(mk(miner("A", attacks=[{"target": "B", "dice": [4, 20, 20]}]),
                   [miner("B", out_of_range=True, save_dice=[20])]))
    assert t.outcome["pairs"][0]["kind"] == "normal_roll" and t.outcome["pairs"][0]["winner"] == "A"
    # a Close Combat Attack has no Range
    t = resolve(mk(miner("A", "close_combat_attack", attacks=[{"target": "B", "out_of_range": True,
                                                               "dice": [4, 20, 20]}]),
                   [miner("B", "none", save_dice=[20], silhouette_contact=True)]))
    assert t.outcome["pairs"][0]["hits"] == {"A": 1}


def test_ranged_attack_in_silhouette_contact_counts_as_idle(mk):
    t = resolve(mk(miner("A", enemy_tags_in_contact=1, attacks=[{"target": "B", "dice": [1, 1, 1]}], save_dice=[20]),
                   [miner("B", dice=[5])]))
    assert "counts as Idle" in titles(t) and t.outcome["pairs"][0]["kind"] == "normal_roll"
    assert t.outcome["saving_rolls"] == {"A": 1}


def test_ranged_aro_in_silhouette_contact_counts_as_idle(mk):
    t = resolve(mk(miner("A", attacks=[{"target": "B", "dice": [3, 20, 20]}]),
                   [miner("B", enemy_tags_in_contact=1, dice=[1], save_dice=[20])]))
    assert "Silhouette Contact" in titles(t) + " ".join(s.detail for s in t.steps)
    assert t.outcome["pairs"][0]["kind"] == "normal_roll"
