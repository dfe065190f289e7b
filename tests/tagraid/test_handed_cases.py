"""Every handed TAG Raid ruling case (shared/cases/rulings-tagraid.jsonl) resolved from its built-in scenario.

Ambiguous cases are tested under both readings (the default is the recommended one).
"""

import json
import math
from pathlib import Path

import pytest

from explorer.games.tagraid import sections as S
from explorer.games.tagraid.options import rulings as default_rulings
from explorer.games.tagraid.ranges import measure_range
from explorer.games.tagraid.resolve import resolve
from explorer.games.tagraid.scenarios import list_scenarios, load_scenario
from explorer.games.tagraid.table_file import available_tables, load_packaged_table

CASES_FILE = Path("/work/shared/cases/rulings-tagraid.jsonl")


def _cases():
    if not CASES_FILE.exists():
        return {}
    return {c["id"]: c for c in (json.loads(line) for line in CASES_FILE.read_text().splitlines() if line.strip())}


def run(case_id, **rulings):
    return resolve(load_scenario(case_id.lower()), rulings=rulings or None)


def dice(t):
    return {d["id"]: d for s in t.steps if s.section == "Rolls" for d in s.facts["dice"]}


def cancels(t):
    return {s.facts["canceller"]: s.facts["cancelled"] for s in t.steps if "canceller" in s.facts}


PENDING: dict[str, int] = {}
"""Handed cases whose fix is the work of an open issue (``{case id: issue number}``): issue 22 builds them in."""


def test_every_handed_case_has_a_scenario_and_a_test():
    cases = _cases()
    if not cases:
        pytest.skip("handed cases file not available")
    from explorer.games import get_game

    names = ({s["name"] for s in list_scenarios()} | set(available_tables())  # roll scenarios and table files
             | set(get_game("tagraid").builtin_names()))  # and order files
    tested = {n[len("test_"):].split("_")[0].upper().replace("TR", "TR-") for n in globals() if n.startswith("test_tr")}
    for cid in cases:
        if cid in PENDING:  # handed after their issue was filed: built in by that issue, not before
            assert cid.lower() not in names, f"{cid} is built in now: remove it from PENDING"
            continue
        assert cid.lower() in names, cid
        assert cid in tested, cid
    assert set(PENDING) <= set(cases), "PENDING names a case that is not handed"


def test_tr01():
    t = run("TR-01")
    d = dice(t)
    assert d["A.3"]["kind"] == "failure" and len([k for k in d if k.startswith("B.")]) == 2  # Burst MOD: 2 dice
    c = cancels(t)
    assert c["B.2"] == ["A.1", "A.2"] and c["A.1"] == ["B.1"] and c["A.2"] == ["B.1"]
    assert t.outcome["pairs"][0]["winner"] == "B"
    assert t.outcome["saving_rolls"] == {"A": 1}


def test_tr02():
    t = run("TR-02")
    d = dice(t)
    assert d["A.2"]["kind"] == "critical" and d["A.3"]["kind"] == "failure"
    c = cancels(t)
    assert c["A.2"] == ["B.1"] and c["B.1"] == ["A.1"]  # the cancelled 14 still cancels the 4
    p = t.outcome["pairs"][0]
    assert p["winner"] == "A" and p["hits"]["A"] == 0 and p["crits"]["A"] == 1
    assert t.outcome["saving_rolls"] == {"B": 2}


def test_tr03():
    t = run("TR-03")
    p = t.outcome["pairs"][0]
    assert p["winner"] is None and p["result"] == "tie"
    assert t.outcome["saving_rolls"] == {} and t.outcome["wounds"] == {"A": 0, "B": 0}


def test_tr05_literal_default():
    assert default_rulings().as_dict()["sv_above_20"] == "literal"
    t = run("TR-05")
    assert [s.facts["sv"] for s in t.steps if s.section == "Success Values"] == [23]
    assert all(d["kind"] == "success" for d in dice(t).values())
    assert t.outcome["saving_rolls"] == {"T": 2} and t.rulings["sv_above_20"] == "literal"


def test_tr05_excess_to_die():
    t = run("TR-05", sv_above_20="excess_to_die")
    assert [d["effective"] for d in dice(t).values()] == [23, 20]
    assert all(d["kind"] == "critical" for d in dice(t).values())
    assert t.outcome["saving_rolls"] == {"T": 4}


def test_tr07():
    t = run("TR-07")
    ad = [s for s in t.steps if "attack_damage" in s.facts][0]
    assert ad.facts["attack_damage"] == 9 and ad.facts["effective_armor"] == 3 and ad.facts["partial_cover"]
    assert t.outcome["wounds"]["T"] == 1 and t.outcome["teseum"] == {"A": 1}


def test_tr09():
    t = run("TR-09")
    assert t.outcome["pairs"][0]["threat_level"] == 5
    mb = t.outcome["megabeast"]
    assert mb["wounds"] == 2 and mb["killed"] and mb["t_bezoar"] == 5
    assert t.outcome["t_bezoar"] == {"Cavecrawler": 5}
    sv = [s for s in t.steps if s.section == "Saving Rolls"][0]
    assert sv.facts["saving_rolls"] == 3 and sv.facts["ignored_critical_rolls"] == 1


def test_tr10_must_exceed_default():
    t = run("TR-10")
    assert t.rulings["megabeast_critical"] == "must_exceed"
    assert t.outcome["megabeast"]["wounds"] == 0 and t.outcome["megabeast"]["prevailed"]
    assert t.outcome["saving_rolls"] == {"Cavecrawler": 1}  # its Behavior Attack is applied


def test_tr10_critical_wins():
    t = run("TR-10", megabeast_critical="critical_wins")
    assert t.outcome["megabeast"]["wounds"] == 3 and not t.outcome["megabeast"]["prevailed"]
    assert t.outcome["saving_rolls"] == {}  # the MegaBeast's attack is cancelled


def test_tr13():
    t = run("TR-13")
    assert t.outcome["failed_saves"] == {"T": 3}
    assert t.outcome["teseum"] == {"A": 1} and t.outcome["wounds"]["T"] == 1 and t.outcome["dead"] == ["T"]
    loot = t.outcome["loot"]["T"]
    assert loot["kept"] == 3 and loot["to_loot_zone"] == 2 and loot["warehouse"] == 4 and loot["to_reserve"] == 0
    assert any("Respawns" in s.title for s in t.steps)


# ---------------------------------------------------------------- TR-15: Partial Cover follows the LoF symbol


def _tr15_damage(t):
    (ad,) = [s for s in t.steps if "attack_damage" in s.facts]
    sv = [s for s in t.steps if s.section == "Success Values"][0]
    return ad.facts["attack_damage"], ad.facts["partial_cover"], sv.facts["sv"], t.outcome["wounds"]["T"]


def test_tr15_attack_without_the_lof_symbol_default():
    assert default_rulings().as_dict()["partial_cover_glyph"] == "lof_symbol"
    sc = load_scenario("tr-15")
    assert sc.active.weapon.needs_lof is False and sc.reactive[0].partial_cover
    t = run("TR-15")
    assert _tr15_damage(t) == (10, False, 12, 1)  # AD 14 - 4 = 10; 9 <= 10: 1 Wound; no -3 to the roll either
    assert t.rulings["partial_cover_glyph"] == "lof_symbol"
    ad = [s for s in t.steps if "attack_damage" in s.facts][0]
    assert ad.rule == S.PARTIAL_COVER and "LoF symbol" in ad.detail


def test_tr15_attack_with_the_lof_symbol():
    sc = load_scenario("tr-15")
    sc.active.weapon.needs_lof = True  # the handed case's Attack 1
    t = resolve(sc)
    assert _tr15_damage(t) == (7, True, 9, 0)  # AD 14 - 4 - 3 = 7; 9 > 7: saved
    assert "partial_cover_glyph" not in t.rulings  # consulted only for an Attack without the symbol


def test_tr15_every_ranged_attack_reading():
    t = run("TR-15", partial_cover_glyph="every_ranged_attack")
    assert _tr15_damage(t) == (7, True, 9, 0)


def test_tr15_an_attack_without_the_lof_symbol_needs_no_lof():
    sc = load_scenario("tr-15")
    sc.active.attacks[0].lof = False
    assert _tr15_damage(resolve(sc)) == (10, False, 12, 1)  # not Idle: the Requirement follows the symbol
    sc.active.weapon.needs_lof = True
    assert resolve(sc).outcome["pairs"] == []  # with the symbol: no LoF, the Attack counts as Idle


def test_tr15_reactive_aro_without_the_lof_symbol():
    """The glyph reading binds AROs as well: the Active Miner in Partial Cover against a Tool ARO without the symbol."""
    from engine_helpers import build, miner

    tool = {"name": "Tool", "damage": 14, "burst": 1, "ammunition": "N", "needs_lof": False}
    sc = build(miner("A", "idle", armor=4, partial_cover=True, save_dice=[9]),
               [miner("B", weapon=tool, dice=[5])])
    t = resolve(sc)
    (ad,) = [s for s in t.steps if "attack_damage" in s.facts]
    assert ad.facts["attack_damage"] == 10 and t.outcome["wounds"]["A"] == 1


def test_tr17():
    t = run("TR-17")
    sv = [s for s in t.steps if s.section == "Success Values" and s.facts["miner"] == "R"][0]
    assert sv.facts["sv"] == 9 and sv.facts["mod_total"] == -3
    d = dice(t)
    assert d["B.1"]["kind"] == "critical" and d["A.3"]["kind"] == "failure"
    assert cancels(t) == {"B.1": ["A.1", "A.2"]}
    assert t.outcome["pairs"][0]["winner"] == "R" and t.outcome["saving_rolls"] == {}
    assert t.outcome["evade_moves"] == ["R"]


def test_tr19():
    t = run("TR-19")
    sv = [s for s in t.steps if s.section == "Success Values"][0]
    assert sv.facts["sv"] == 8
    p = t.outcome["pairs"][0]
    assert p["kind"] == "normal_evade" and p["winner"] == "R"
    assert dice(t)["B.1"]["kind"] == "critical" and t.outcome["evade_moves"] == ["R"]
    # R may only Evade here: any other ARO is not allowed and counts as Idle
    sc = load_scenario("tr-19")
    sc.reactive[0].skill = "close_combat_attack"
    sc.reactive[0].weapon = sc.active.weapon or load_scenario("tr-17").active.weapon
    t2 = resolve(sc)
    assert "may only Evade" in " ".join(s.detail for s in t2.steps)


def _tr16_common(t):
    assert dice(t)["A.1"]["kind"] == "success"  # 8 <= 14
    b, c = t.outcome["pairs"]
    assert b["reactive"] == "B" and b["kind"] == "face_to_face" and b["winner"] == "B"  # 10 beats 8
    assert c["reactive"] == "C" and c["kind"] == "face_to_face" and c["winner"] == "X"  # 8 beats 5
    assert cancels(t) == {"B.1": ["A.1"], "A.1": ["C.1"]}
    assert t.outcome["saving_rolls"] == {"X": 1}  # only B's hit


def test_tr16_wins_any_default():
    assert default_rulings().as_dict()["evade_movement"] == "wins_any"
    t = run("TR-16")
    _tr16_common(t)
    assert t.rulings["evade_movement"] == "wins_any" and t.outcome["evade_moves"] == ["X"]


def test_tr16_wins_all():
    t = run("TR-16", evade_movement="wins_all")
    _tr16_common(t)
    assert t.outcome["evade_moves"] == []


def _failed(t, miner):
    """The Requirements step and the Idle step (Order Expenditure Sequence, step 5) of ``miner``'s Skill."""
    req = [s for s in t.steps if s.facts.get("miner") == miner and "requirement_failed" in s.facts]
    idle = [s for s in t.steps if s.facts.get("miner") == miner and s.facts.get("skill") == "idle"
            and "requirement" in s.facts]
    return req, idle


def test_tr18():
    t = run("TR-18")
    (req,), (idle,) = _failed(t, "R")
    assert req.rule == S.RANGED_ATTACK_REQUIREMENTS and "LoF" in req.detail and req.facts["aro_right_step"] == 4
    assert idle.rule == S.ORDER_EXPENDITURE_SEQUENCE and idle.facts["declared"] == "ranged_attack"
    assert [d for d in dice(t) if d.startswith("B.")] == []  # R rolls nothing
    p = t.outcome["pairs"][0]
    assert p["kind"] == "normal_roll" and p["winner"] == "A" and p["hits"] == {"A": 2}
    assert t.outcome["saving_rolls"] == {"R": 2}


def test_tr18_evade_would_be_face_to_face_at_minus_3():
    sc = load_scenario("tr-18")
    sc.reactive[0].skill, sc.reactive[0].weapon, sc.reactive[0].dice = "evade", None, [9]
    t = resolve(sc)
    decl = [s for s in t.steps if s.facts.get("miner") == "R" and s.section == "Declarations"]
    assert [s.facts["aro_right_step"] for s in decl] == [4] and decl[0].facts["skill"] == "evade"
    sv = [s for s in t.steps if s.section == "Success Values" and s.facts["miner"] == "R"][0]
    assert sv.facts["sv"] == 9 and sv.facts["mod_total"] == -3
    assert t.outcome["pairs"][0]["kind"] == "face_to_face"


def test_tr18_with_lof_the_aro_right_comes_at_step_2_and_the_attack_is_face_to_face():
    sc = load_scenario("tr-18")
    sc.reactive[0].lof_to_active, sc.reactive[0].dice = True, [5]
    t = resolve(sc)
    assert not any(_failed(t, "R"))
    assert [s.facts["aro_right_step"] for s in t.steps if s.facts.get("miner") == "R"
            and s.section == "Declarations"] == [2]
    assert t.outcome["pairs"][0]["kind"] == "face_to_face"


def test_tr21():
    t = run("TR-21")
    (req,), (idle,) = _failed(t, "A")
    assert req.rule == S.RANGED_ATTACK_REQUIREMENTS and "when the Order was activated" in req.detail
    assert idle.rule == S.ORDER_EXPENDITURE_SEQUENCE
    assert dice(t) == {} and t.outcome["pairs"] == []
    assert t.outcome["saving_rolls"] == {} and t.outcome["wounds"]["C"] == 0
    sc = load_scenario("tr-21")
    assert sc.active.at_activation.silhouette_contact and sc.active.enemy_tags_in_contact == 0
    sc.active.at_activation = None  # where A stands at Resolution only: out of contact, so the attack resolves
    t2 = resolve(sc, rulings={})
    assert not any(_failed(t2, "A")) and t2.outcome["pairs"][0]["kind"] == "normal_roll"


def test_tr21_reactive_ranged_aro_after_the_active_miner_left_contact():
    """The Requirement binds AROs too: R touched A when the Order was activated, A's Move broke the contact."""
    sc = load_scenario("tr-18")
    sc.reactive[0].lof_to_active, sc.reactive[0].dice = True, [5]
    sc.reactive[0].at_activation = type(load_scenario("tr-21").active.at_activation)(silhouette_contact=True)
    t = resolve(sc)
    (req,), _ = _failed(t, "R")
    assert req.rule == S.RANGED_ATTACK_REQUIREMENTS and t.outcome["pairs"][0]["kind"] == "normal_roll"


@pytest.mark.parametrize("reading,idle", [(None, True), ("activation_step", True), ("activation_moment", False)])
def test_tr21_contact_made_by_the_move_is_a_named_ruling(reading, idle):
    """Not in contact when activated, in contact after the Move (step 1.2): ranged_attack_activation_contact."""
    sc = load_scenario("tr-21")
    sc.active.at_activation.silhouette_contact = False
    sc.reactive[0].silhouette_contact = True  # A's Move ended touching C
    t = resolve(sc, rulings={"ranged_attack_activation_contact": reading} if reading else None)
    assert t.rulings["ranged_attack_activation_contact"] == (reading or "activation_step")
    assert bool(_failed(t, "A")[0]) is idle and (t.outcome["pairs"] == []) is idle


def _state_steps(t):
    return [s for s in t.steps if s.section == "End of the Order"]


def test_tr20():
    t = run("TR-20")
    ad = [s for s in t.steps if "attack_damage" in s.facts][0]
    assert ad.facts["attack_damage"] == 0 and ad.facts["partial_cover"] and ad.facts["effective_armor"] == 10
    saves = [s for s in t.steps if s.section == "Saving Rolls" and "dice" in s.facts][0]
    assert [d["failed"] for d in saves.facts["dice"]] == [False, False]  # 1 > 0: both pass
    assert t.outcome["wounds"]["T"] == 0 and t.outcome["failed_saves"] == {"T": 0}
    assert t.outcome["states"] == {"T": ["Slowed"]}
    (st,) = _state_steps(t)
    assert st.rule == S.SLOWED_STATE and st.facts["entered"] and st.facts["state"] == "Slowed"
    assert t.steps[-1] is st  # applied at the end of the Order, after Saving Rolls, Wounds and Effects


def test_tr20_only_a_successful_attack_causes_the_state():
    sc = load_scenario("tr-20")
    sc.active.attacks[0].dice = [20, 20]
    t = resolve(sc)
    assert t.outcome["states"] == {} and t.outcome["saving_rolls"] == {}
    assert "No State is caused" in _state_steps(t)[0].title


def test_tr20_one_token_per_state():
    from engine_helpers import build, miner

    slow = {"name": "Glue", "damage": 13, "burst": 3, "ammunition": "N", "states": ["Slowed"]}
    sc = build(miner("A", "evade", attribute=10, dice=[20], save_dice=[20, 20]),
               [miner("B", weapon=slow, dice=[5]), miner("C", weapon=slow, dice=[6])])
    t = resolve(sc)
    assert t.outcome["saving_rolls"] == {"A": 2} and t.outcome["states"] == {"A": ["Slowed"]}
    assert [s.facts["entered"] for s in _state_steps(t)] == [True, False]
    sc.active.states = ["Slowed"]  # it already has the Token
    t = resolve(sc)
    assert t.outcome["states"] == {} and not any(s.facts["entered"] for s in _state_steps(t))


@pytest.mark.parametrize("reading,states", [(None, {}), ("applies_after_respawn", {"T": ["Slowed"]})])
def test_tr20_state_on_a_miner_that_dies(reading, states):
    sc = load_scenario("tr-20")
    sc.reactive[0].armor, sc.reactive[0].partial_cover, sc.reactive[0].wounds = 0, False, 1
    t = resolve(sc, rulings={"state_on_death": reading} if reading else None)
    assert t.outcome["dead"] == ["T"] and t.outcome["states"] == states
    assert t.rulings["state_on_death"] == (reading or "cleared")


@pytest.mark.parametrize("reading,states", [(None, {}), ("affected", {"MB": ["Slowed"]})])
def test_tr20_state_on_the_megabeast(reading, states):
    from engine_helpers import build, miner

    slow = {"name": "Glue", "damage": 13, "burst": 1, "ammunition": "N", "states": ["Slowed"]}
    sc = build(miner("A", weapon=slow, attacks=[{"target": "MB", "dice": [9]}]),
               megabeast={"name": "MB", "threat_level": 5, "wounds": 10})
    t = resolve(sc, rulings={"megabeast_states": reading} if reading else None)
    assert t.outcome["megabeast"]["wounds"] == 1 and t.outcome["states"] == states


def test_tr20_outcome_lists_states_only_when_an_attack_can_cause_one():
    assert "states" not in run("TR-07").outcome and "states" not in run("TR-09").outcome


# ---------------------------------------------------------------- TR-22: a table file (the Range Ruler follows the LoF)


def _tr22_range(grazing=None, apex_dy=0.0):
    lt = load_packaged_table("tr-22")
    table = lt.table
    if apex_dy:
        from explorer.games.tagraid.pieces import Scenery

        (spire,) = table.scenery
        pts = tuple((x, y + apex_dy) if (x, y) == (3.0, -0.1) else (x, y) for x, y in spire.points)
        table = type(table)(table.models.values(), [Scenery(spire.id, pts, spire.height)], table.tiles,
                            table.layout, table.calibration)
    rul = lt.rulings if grazing is None else default_rulings({**lt.rulings.as_dict(), "lof_grazing": grazing})
    return measure_range(table, "A", "B", rul, lt.range_calibration), table


@pytest.mark.parametrize("grazing", [None, "touching_does_not_block"])  # the file's touching_blocks, then the default
@pytest.mark.parametrize("apex_dy", [0.0, 1e-7, -1e-7])
def test_tr22(grazing, apex_dy):
    rng, table = _tr22_range(grazing, apex_dy)
    r = table.disc("A").r
    assert r == table.calibration.base_radius[7]
    assert rng.lof.has_lof and rng.rulings["lof_grazing"] == (grazing or "touching_blocks")
    assert rng.band == "short"
    expected = 6 - 2 * math.sqrt(r * r - (0.1 - apex_dy) ** 2)  # the line touching the apex, parallel to AB
    assert abs(rng.distance - expected) < 1e-6
    assert abs(rng.measured.p0[1] + 0.1 - apex_dy) < 1e-6 and abs(rng.measured.p1[1] + 0.1 - apex_dy) < 1e-6
    assert rng.distance < 6.0 - 1e-3  # not the outer common tangent of the bases (which would say Mid)


def test_tr22_common_tangent_would_say_mid():
    """The wrong answer of the case, for contrast: the bases' outer common tangent is 6.0 long, past Short (5.8)."""
    lt = load_packaged_table("tr-22")
    assert lt.range_calibration.band_of(6.0) == "mid" and lt.range_calibration.band_of(5.662) == "short"


# ---------------------------------------------------------------- TR-35: where on the shooter a clear line may start


def _tr35(reading=None, **move):
    import dataclasses

    from explorer.games.tagraid.lof import line_of_fire

    lt = load_packaged_table("tr-35")
    table = lt.table
    if move:
        table = table.with_model(dataclasses.replace(table.model("T"), **move))
    rul = default_rulings({"lof_shooter_arc": reading} if reading else None)
    return line_of_fire(table, "B", "T", rul), rul


def test_tr35_any_point_default():
    assert default_rulings().as_dict()["lof_shooter_arc"] == "any_point"
    lof, rul = _tr35()
    assert lof.has_lof and lof.reason == "clear" and lof.in_arc
    assert lof.witness.p0[1] < 0  # the clear line leaves B's rear half (front half: y > 0) ...
    assert lof.witness.p0[1] < -0.08 and lof.witness.p1[1] < -0.08  # ... and passes under the wall
    assert "lof_shooter_arc" not in rul.consulted  # the default restricts nothing: consulted only when chosen


def test_tr35_front_half():
    lof, rul = _tr35("front_half")
    assert not lof.has_lof and lof.reason == "blocked"
    assert rul.consulted["lof_shooter_arc"] == "front_half"


def test_tr35_front_half_still_sees_past_the_wall_from_the_front():
    """The reading only removes lines from the rear half: T moved in front of B, clear of the wall, is seen."""
    lof, rul = _tr35("front_half", x=0.6, y=2.0)
    assert lof.has_lof and lof.witness.p0[1] >= -1e-9 and rul.consulted["lof_shooter_arc"] == "front_half"


def test_tr35_no_reciprocity_decides():
    """T faces away from B: B is outside T's arc, so T cannot lend B its LoF (reciprocity) under either reading."""
    from explorer.games.tagraid.lof import line_of_fire

    table = load_packaged_table("tr-35").table
    assert line_of_fire(table, "T", "B").reason == "outside_arc"


# ---------------------------------------------------------------- TR-37: no Partial Cover for height alone


def _tr37(**move):
    import dataclasses

    from explorer.games.tagraid.lof import partial_cover

    table = load_packaged_table("tr-37").table
    if move:
        table = table.with_model(dataclasses.replace(table.model("A"), **move))
    return table, partial_cover(table, "A", "T")


def test_tr37_no_cover_for_height_or_contact_alone():
    table, cov = _tr37()
    ht = table.calibration.height
    assert ht[table.model("T").silhouette] > ht[table.model("A").silhouette]  # T is the taller Silhouette
    assert max(s.height for s in table.scenery) > ht[table.model("A").silhouette]  # a block taller than A
    assert cov.touching == ("block",) and cov.lof.has_lof  # T is in Silhouette Contact with the block
    assert not cov.in_cover and cov.pieces == ()  # but the block hides no part of T from A


def test_tr37_cover_when_the_block_hides_part_of_the_silhouette():
    _, cov = _tr37(x=2.6, y=2.2, facing=-90.0)  # A above the block: its edge hides part of T
    assert cov.in_cover and cov.pieces == ("block",)


# ---------------------------------------------------------------- TR-34: the Active Miner's firing point on its route


def _tr34(fire_from="keep", **rulings):
    from dataclasses import replace as dc_replace

    from explorer.games import get_game

    g = get_game("tagraid")
    sc = g.load_builtin("tr-34")
    if fire_from != "keep":
        decl = sc.declarations
        sc = dc_replace(sc, declarations=dc_replace(decl, second=dc_replace(decl.second, fire_from=fire_from)))
    return sc, g.resolve(sc, rulings or None)


def test_tr34():
    sc, t = _tr34()
    assert sc.declarations.second.fire_from == (0.0, 0.0)
    o = t.outcome
    assert o["aro_rights"]["B"] == {"step": 2, "reason": "lof", "evade_only": False}  # B sees A only in the gap
    (pair,) = o["roll"]["pairs"]
    assert pair["kind"] == "face_to_face" and pair["winner"] == "A" and pair["hits"]["A"] == 1
    assert cancels(t) == {"A.1": ["B.1"], "B.1": ["A.2"]}  # A's 10 cancels B's 9, B's 9 cancels A's 4
    ad = [s for s in t.steps if "attack_damage" in s.facts]
    assert [(s.facts["target"], s.facts["attack_damage"]) for s in ad] == [("B", 9)]  # 13 - 4
    assert o["roll"]["saving_rolls"] == {"B": 1} and o["roll"]["wounds"]["B"] == 1  # the 3 fails
    assert "A" not in o["roll"]["saving_rolls"]
    (fp,) = [s for s in t.steps if "route_fraction" in s.facts]
    assert fp.facts["fire_point"] == [0.0, 0.0] and fp.facts["route_fraction"] == pytest.approx(0.5)


def test_tr34_the_fraction_names_the_same_point():
    _, t = _tr34(0.5)
    assert t.outcome["roll"]["saving_rolls"] == {"B": 1}


def test_tr34_judged_from_the_end_of_the_move_the_attack_is_idle():
    """The wrong answer of the case: from the end of the Move (behind W2) A has no LoF to B, its Attack counts as
    Idle and B's ARO hits unopposed (ruling route_fire_point = move_end when the file names no firing point: see
    docs/tagraid-orders.md)."""
    _, t = _tr34(None, route_fire_point="move_end")
    o = t.outcome
    assert [p["kind"] for p in o["roll"]["pairs"]] == ["normal_roll"] and o["roll"]["pairs"][0]["winner"] == "B"
    assert any("no LoF to B at Resolution" in s.title for s in t.steps)
    _, t1 = _tr34(1.0)  # the end, named: the same verdict, said from the firing point
    assert any("no LoF to B from its firing point" in s.title for s in t1.steps)
    assert t1.outcome["roll"]["pairs"][0]["winner"] == "B"


def test_tr34_without_a_firing_point_fires_from_the_start_by_default():
    """The default reading (route_fire_point = move_start) takes the start of the Move, as fire_from = 0 does."""
    _, t = _tr34(None)
    assert any("no LoF to B from its firing point" in s.title for s in t.steps)
    assert t.rulings["route_fire_point"] == "move_start"


def test_tr34_from_the_start_of_the_move_w1_blocks():
    _, t = _tr34(0.0)
    assert any("no LoF to B from its firing point" in s.title for s in t.steps)


def test_tr34_a_point_off_the_route_is_refused():
    from explorer.errors import RuleViolation

    with pytest.raises(RuleViolation) as e:
        _tr34((0.0, 0.5))
    assert e.value.field == "order.second.fire_from" and "not on the Move's route" in str(e.value)


# ---------------------------------------------------------------- issue 22, item 5: printed distances keep their band


@pytest.mark.parametrize("gap,band,two,three", [(3.500001, "mid", "3.51", "3.501"),
                                               (3.4999999, "short", "3.50", "3.500"),  # 3.5 is still Short
                                               (6.9999996, "mid", "7.00", "7.000"),  # the Mid Segment ends at 7
                                               (7.0000004, "long", "7.01", "7.001"), (2.7071, "short", "2.71", "2.707")])
def test_printed_distance_rounds_the_way_its_band_is_decided(gap, band, two, three):
    from explorer.games.tagraid.lof import TableTop
    from explorer.games.tagraid.lof_report import verdict_line, verdict_to_dict
    from explorer.games.tagraid.lof_analysis import analyse
    from explorer.games.tagraid.pieces import Model
    from explorer.games.tagraid.ranges import DEFAULT_RANGE_CALIBRATION as cal

    r = 0.19642857142857142
    table = TableTop([Model("A", 0.0, 0.0, 7, 0.0, "A"), Model("B", gap + 2 * r, 0.0, 7, 180.0, "B")])
    (v,) = analyse(table, "A", default_rulings(), cal)
    assert v.range.band == band and abs(v.range.distance - gap) < 1e-9
    assert f"{v.range.shown(2):.2f}" == two and f"{v.range.shown(3):.3f}" == three
    assert cal.band_of(v.range.shown(2)) == cal.band_of(v.range.shown(3)) == cal.band_of(v.range.shown(4)) == band
    assert f" {two} hex units" in verdict_line(v, "A")
    assert cal.band_of(verdict_to_dict(v)["range"]["distance"]) == band
    assert f"({two} hex units)" in v.range.to_step().title and f"after {two} hex units" in v.range.detail


@pytest.mark.parametrize("aro,heading", [(False, "Normal Rolls"), (True, "Face to Face Rolls")])
def test_a_megabeast_without_aro_is_not_under_face_to_face_rolls(aro, heading):
    from engine_helpers import build, miner

    sc = build(miner("A", attacks=[{"target": "MB", "dice": [9, 3, 15]}]),
               megabeast={"name": "MB", "threat_level": 5, "wounds": 10, "aro": aro})
    t = resolve(sc)
    tl = [s for s in t.steps if s.rule == S.MEGABEAST_THREAT]
    assert tl and {s.section for s in tl} == {heading}
    assert t.outcome["megabeast"]["wounds"] == 1  # only the 9 exceeds Threat Level 5 either way


def test_a_megabeast_without_aro_in_an_order_trace():
    from explorer.games import get_game

    g = get_game("tagraid")
    t = g.resolve(g.load_builtin("book-megabeast-redirect-attacked-order"))
    (s,) = [s for s in t.steps if "declared no ARO" in s.title]
    assert s.section.endswith("Normal Rolls") and "Face to Face" not in s.section


def test_each_attacker_teseum_states_its_rule():
    from engine_helpers import build, miner

    sc = build(miner("A", "idle", wounds=2, save_dice=[1, 1, 1, 1]), [miner("B", dice=[1]), miner("C", dice=[2])])
    for r in sc.reactive:
        r.burst_mod = 1
    sc.reactive[0].dice, sc.reactive[1].dice = [1, 3], [2, 4]
    t = resolve(sc, rulings={"teseum_several_attackers": "each_attacker"})
    b, c = [s for s in t.steps if "teseum" in s.facts]
    assert (b.facts["wounds"], b.facts["teseum"], c.facts["wounds"], c.facts["teseum"]) == (2, 2, 0, 2)
    for s in (b, c):
        assert "its own attack removed, capped at the 2 Wounds points A had" in s.detail
        assert "provide nothing" not in s.detail  # the timeline rule is not the one applied
    t2 = resolve(sc)  # timeline: C's points were all below 0
    b2, c2 = [s for s in t2.steps if "teseum" in s.facts]
    assert c2.facts["teseum"] == 0 and "provide nothing" in c2.detail and "own attack" not in c2.detail


def test_tr34_the_board_shows_the_firing_point():
    from explorer.games import get_game
    from explorer.games.tagraid.orders.sequence import play
    from explorer.games.tagraid.orders_svg import board_overlays

    sc = get_game("tagraid").load_builtin("tr-34")
    frames = play(sc.initial, sc.declarations, sc.dice)
    marks = lambda st: [o for o in board_overlays(st, 11) if "fires from here" in str(getattr(o, "text", ""))]
    assert marks(frames[-1].state) and frames[-1].state.fire_point == (0.0, 0.0)
    assert not marks(frames[2].state)  # before step 3 no firing point is declared


def test_tr35_front_half_the_range_ruler_follows_a_line_from_the_front_half():
    """Issue 22, item 3 for its whole kind: under ``lof_shooter_arc = front_half`` the Range Ruler (which follows the
    LoF: Distances and Measurements › Range Ruler) is laid only along a line leaving B's front half. T at (3, -0.1),
    partly in B's arc, no scenery: the shortest line (the centre line) leaves B's rear half (y < 0); under the reading
    the ruler starts on the front half and is a hair longer. Before, it followed the rear-half line."""
    import dataclasses

    lt = load_packaged_table("tr-35")
    table = lt.table
    table = type(table)([dataclasses.replace(table.model("T"), y=-0.1), table.model("B")], [], table.tiles,
                        table.layout, table.calibration)
    free = measure_range(table, "B", "T", default_rulings())
    front = measure_range(table, "B", "T", default_rulings({"lof_shooter_arc": "front_half"}))
    assert free.lof.has_lof and front.lof.has_lof
    assert free.measured.p0[1] < -1e-4  # the centre line: it leaves the rear half
    assert front.measured.p0[1] >= -1e-9 and front.rulings.get("lof_shooter_arc") == "front_half"
    r = table.disc("B").r
    expected = math.hypot(3 - r, 0.1) - table.disc("T").r  # from (r, 0), the front half's edge, to T's base
    assert abs(front.distance - expected) < 1e-6 and front.distance > free.distance + 1e-4


def test_lof_grazing_names_and_decides_the_single_point_squeeze():
    """Issue 22 ("Also"): the lof_grazing description names a line squeezed through the single point where two
    obstacles meet, and the readings decide it as described. Two pieces meet only at the origin (one left of it and
    above, one right of it and below); every line between A and B crosses the band they fill, so the only lines
    are those through the shared corner."""
    import math as _m

    from explorer.games.tagraid.lof import TableTop, line_of_fire
    from explorer.games.tagraid.options import LOF_GRAZING as opt
    from explorer.games.tagraid.pieces import Model, Scenery

    assert "squeezed through the single point where two obstacles meet" in opt.readings["touching_does_not_block"]
    assert "a line through the point where two obstacles meet" in opt.readings["touching_blocks"]
    up = _m.degrees(_m.atan2(8, 4))
    table = TableTop([Model("A", -2.0, -4.0, 3, up, "a"), Model("B", 2.0, 4.0, 3, up + 180.0, "b")],
                     [Scenery("left", ((-6.0, 0.0), (0.0, 0.0), (0.0, 1.0), (-6.0, 1.0)), float("inf")),
                      Scenery("right", ((0.0, -1.0), (6.0, -1.0), (6.0, 0.0), (0.0, 0.0)), float("inf"))])
    squeeze = line_of_fire(table, "A", "B", default_rulings())
    assert squeeze.has_lof and squeeze.rulings["lof_grazing"] == "touching_does_not_block"
    (x0, y0), (x1, y1) = squeeze.witness.p0, squeeze.witness.p1
    assert abs(x0 * y1 - x1 * y0) < 1e-6 * _m.hypot(x1 - x0, y1 - y0)  # the witness passes through the origin
    closed = line_of_fire(table, "A", "B", default_rulings({"lof_grazing": "touching_blocks"}))
    assert not closed.has_lof and closed.reason == "blocked"
