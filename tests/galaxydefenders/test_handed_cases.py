"""The handed rulings (shared/cases/rulings-galaxydefenders.jsonl): each case is a built-in scenario under its id
and resolves to the case's expected value."""

import json
from pathlib import Path

import pytest

from explorer.games import get_game
from explorer.hexgrid import Hex

from .helpers import resolve

_ROOT = Path(__file__).resolve().parents[2]
CASES = next((p / "shared" / "cases" / "rulings-galaxydefenders.jsonl" for p in (_ROOT.parent, _ROOT.parent.parent)
              if (p / "shared" / "cases" / "rulings-galaxydefenders.jsonl").exists()), _ROOT / "missing")


PENDING: dict[str, int] = {}
"""Handed cases whose fix is the work of an open issue (``{case id: issue number}``): issue 21 builds them in."""


def test_every_handed_case_is_a_builtin():
    if not CASES.exists():
        pytest.skip("shared cases not present")
    ids = [json.loads(line)["id"].lower() for line in CASES.read_text().splitlines() if line.strip()]
    builtins = set(get_game("galaxydefenders").builtin_names())
    assert ids and set(ids) - set(PENDING) <= builtins
    assert not set(PENDING) & builtins, "a PENDING case is built in now: remove it from PENDING"
    assert set(PENDING) <= set(ids), "PENDING names a case that is not handed"


def _only(trace, attack=0):
    return trace.outcome["attacks"][attack]["targets"][0]


def test_gd_01_high_impact_caps_after_minus_def_dice():
    t = _only(resolve("gd-01"))
    assert (t["blue_dice"], t["cancelled_by_dice"], t["wounds"]) == (5, 2, 5)
    v = _only(resolve("gd-01-variant"))
    assert v["blue_dice"] == 3      # 5 - 2, the cap is not reached


def test_gd_01_without_high_impact_rolls_six():
    g = get_game("galaxydefenders")
    kind, sc = g.load_builtin("gd-01")
    sc = sc.model_copy(update={"high_impact": False})
    sc.attacks[0].rolled.defend["Xeno-Gamma"] = ["shield", "shield", "blank", "blank", "blank", "blank"]
    t = g.resolve((kind, sc), rulings={}).outcome["attacks"][0]["targets"][0]
    assert t["blue_dice"] == 6 and t["wounds"] == 5


def test_gd_03_lethal_no_blue_dice_no_pain_useless():
    tr = resolve("gd-03")
    t = _only(tr)
    assert (t["blue_dice"], t["absorbed"], t["wounds"]) == (0, 1, 2)
    assert any(s.rule.section == "8.1 Lethal" and "useless" in s.detail for s in tr.steps)


def test_gd_04_stack_selection_over_three_attacks():
    tr = resolve("gd-04")
    a1, a2, a3 = (tr.outcome["attacks"][i]["targets"][0] for i in range(3))
    stacks = [s.facts["stacks"] for s in tr.steps if "stacks" in s.facts and "stack" in s.facts]
    assert stacks == [[1, 2], [1, 0], [0, 0]]          # Left on the tie, then Right (most left), then Left
    assert [s.facts["stack"] for s in tr.steps if "stack" in s.facts] == [0, 1, 0]
    assert (a1["absorbed"], a1["wounds"]) == (1, 0)
    assert (a2["absorbed"], a2["blue_dice"], a2["wounds"]) == (2, 2, 1)
    assert (a3["absorbed"], a3["blue_dice"]) == (1, 1)


def test_gd_05_poison_upgrade_then_two_refreshes():
    tr = resolve("gd-05")
    assert tr.outcome["wounds_suffered"] == 3
    assert [(a["poison"], a["wounds"]) for a in tr.outcome["after"]] == [(2, 1), (1, 2), (0, 3)]
    v = resolve("gd-05-variant")
    assert v.outcome["wounds_suffered"] == 1 and v.outcome["final"]["poison"] == 2


def test_gd_06_identical_poison_is_a_ruling_option():
    tr = resolve("gd-06")
    assert (tr.result.wounds_suffered, tr.result.final.poison) == (1, 1)     # default reading: 1 wound, Poison 1
    assert tr.rulings.get("identical_poison") == "wound"
    other = resolve("gd-06", identical_poison="nothing")
    assert (other.result.wounds_suffered, other.result.final.poison) == (0, 1)


def test_gd_07_one_critical_per_wounding_attack_greater_replaces_lesser():
    tr = resolve("gd-07")
    a1, a2 = (a.results[0] for a in tr.result.attacks)
    assert (a1.absorbed, a1.wounds, a1.critical) == (2, 0, None)            # no wound -> no Critical token
    assert (a2.cancelled_by_dice, a2.wounds, a2.critical) == (1, 3, "c2-atk-dice")
    crits = [s for s in tr.steps if s.rule.section.startswith("8.2")]
    assert sum(1 for s in crits if s.title.startswith("Critical 2 token drawn")) == 1
    replaced = next(s for s in tr.steps if "replaces the lesser one" in s.title)
    assert replaced.rule.section == "8.2.3 Effects" and replaced.facts["x"] == 2
    assert any(s.rule.section == "8.2.1 Compatibility" and "c2-movement" in s.title for s in tr.steps)
    assert tr.result.target("Xeno-Gamma").criticals == (("atk_dice_minus", 2),)   # -2 ATK dice, the -1 gone


def test_gd_08_menace_token_and_the_target_fixed_at_activation_start():
    o = resolve("gd-08").result
    assert [(a.holder, a.level) for a in o.after] == [("Hulk", 1), ("Hulk", 2), ("Hulk", 1), ("Sniper", 1),
                                                      ("Sniper", 1), ("Marine", 1), ("Marine", 1)]
    assert o.attacked == ("Sniper",) and o.holder == "Marine"
    assert "attacked Sniper" in o.summary


def test_gd_30_end_of_mission_roll_in_a_campaign():
    o = resolve("gd-30").result
    assert dict(o.ranks) == {"Sniper": "earth"}
    k = resolve("gd-30", end_of_mission_wings_kill="kill_condition").result
    assert dict(k.ranks) == {"Sniper": "gold"} and dict(k.p_success) == {"Sniper": None}


def test_gd_32_alpha_agent_succession_is_a_ruling_option():
    o = resolve("gd-32").result
    assert o.alpha_agent == "Ben" and o.selected == ("Wormoon",)
    k = resolve("gd-32", alpha_agent_succession="keeps_role").result
    assert k.alpha_agent == "Ann" and k.selected == ("Xeno-Gamma",)


def test_gd_33_npc_assignment():
    assert resolve("gd-33").result.assigned_to == "P3"
    assert resolve("gd-33-variant").result.assigned_to == "P1"


def test_gd_13_npc_skips_an_unreachable_alien_and_stays_on_its_teleport_point():
    tr = resolve("gd-13")
    o = tr.result
    assert (o.start, o.end, o.path) == (Hex(0, 0), Hex(0, 0), ())
    assert o.rule == 2 and o.target == "Teleport Point 0,0"          # the [+] rule, its second listed target
    verdicts = [s for s in tr.steps if s.section == "Behavior rules"]
    assert [s.facts["applies"] for s in verdicts] == [False, False, True]
    assert "2 Areas away" in verdicts[1].detail and "no legal movement path" in verdicts[1].detail
    assert not any("Marine" in s.title for s in tr.steps)            # the Agent option is never reached
    targeting = [s for s in tr.steps if s.section == "Targeting"]
    assert all(s.rule.section == "10.2.1 NPC Movement" for s in targeting)
