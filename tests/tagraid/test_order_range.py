"""Range in Orders (issue 22, LEFT items b and c): the Range Ruler measured on the board for every Ranged Attack of an
Order whose Weapon card gives Range MODs, from the point of the route each Skill is executed from; an ARO Out of
Range rolls no dice; the Active Miner's Partial Cover against a Ranged ARO judged where that ARO hits it.

Sections: Distances and Measurements › Range Ruler; Common Skills › Ranged Attack (Ranged Combat MODs); Activating a
Miner › Orders and AROs (the MinerBot example: the Active Miner fires at the beginning of its Movement, its target at
the end); Damage › Partial Cover.
"""

import copy
import tomllib
from pathlib import Path

import pytest

import explorer.games.tagraid as pkg
from explorer.errors import RuleViolation, ScenarioError
from explorer.games import get_game
from explorer.games.tagraid.orders.orderfile import parse_order

BASE = tomllib.loads((Path(pkg.__file__).parent / "scenarios" / "tr-order-range.toml").read_text(encoding="utf-8"))


def run(doc):
    g = get_game("tagraid")
    return g.resolve(parse_order(doc, "test.toml"))


def range_steps(t):
    return {(s.facts["miner"], s.facts["target"]): s.facts for s in t.steps if "range_mod" in s.facts}


def sv_of(t, who):
    (s,) = [s for s in t.steps if s.facts.get("miner") == who and "mod_total" in s.facts]
    return s.facts["sv"]


def test_builtin_range_from_each_point():
    t = run(BASE)
    r = range_steps(t)
    assert r[("A", "B")]["band"] == "long" and r[("A", "B")]["range_mod"] == 3  # from where A starts
    assert r[("B", "A")]["band"] == "mid" and r[("B", "A")]["range_mod"] == 0  # at the end of A's Move
    assert r[("C", "A")]["band"] == "out_of_range" and r[("C", "A")]["range_mod"] is None
    assert sv_of(t, "A") == 15 and sv_of(t, "B") == 12
    o = t.outcome
    (pair,) = [p for p in o["roll"]["pairs"] if "B" in p["hits"]]
    assert pair["winner"] == "A"
    assert o["roll"]["wounds"]["B"] == 2 and "A" not in o["roll"]["saving_rolls"]


def test_out_of_range_aro_rolls_no_dice():
    """C's Rifle may not fire Out of Range: its ARO is declared, rolls nothing, and a fixed die given for it is
    refused as a die the exchange does not roll (the same as in the roll exchange)."""
    t = run(BASE)
    rolled = [s for s in t.steps if s.title.startswith("C rolls")]
    assert rolled == []
    assert any("Out of Range of C's Weapon" in s.title and "no dice" in s.title for s in t.steps)


def test_out_of_range_aro_with_an_out_of_range_mod_rolls():
    doc = copy.deepcopy(BASE)
    doc["miners"][2]["weapons"][0]["range"]["out_of_range"] = -6
    t = run(doc)
    r = range_steps(t)
    assert r[("C", "A")]["range_mod"] == -6
    assert sv_of(t, "C") == 6
    assert any(s.title.startswith("C rolls") for s in t.steps)


def test_judged_from_the_end_the_active_miners_range_changes():
    """Without fire_from, under ruling route_fire_point = move_end, the Attack is executed where the Move ends: B is
    at Mid Range (MOD 0), SV 12 (the default, move_start: tests/tagraid/test_route_fire_point.py)."""
    doc = copy.deepcopy(BASE)
    del doc["order"]["second"]["fire_from"]
    doc["rulings"] = {"route_fire_point": "move_end"}
    doc["dice"]["saves"] = {}
    t = run(doc)
    assert range_steps(t)[("A", "B")]["band"] == "mid" and sv_of(t, "A") == 12


def test_aro_default_point_is_the_active_miners_firing_point():
    """B names no fire_at: its Range is measured to A at A's firing point (-4, 0): Long Range, -3."""
    doc = copy.deepcopy(BASE)
    del doc["order"]["aros"][0]["fire_at"]
    doc["dice"]["saves"] = {}
    t = run(doc)
    assert range_steps(t)[("B", "A")]["band"] == "long" and sv_of(t, "B") == 9


def test_without_range_mods_nothing_is_measured():
    """Weapon cards without Range MODs: the Range is not measured (as every order file before Range was built in)."""
    doc = copy.deepcopy(BASE)
    for m in doc["miners"]:
        del m["weapons"][0]["range"]
    t = run(doc)
    assert range_steps(t) == {}
    assert sv_of(t, "A") == 12 and sv_of(t, "C") == 12


def test_fire_at_only_on_a_ranged_attack_aro():
    doc = copy.deepcopy(BASE)
    doc["order"]["aros"][0] = {"miner": "B", "skill": "evade", "fire_at": 1.0}
    with pytest.raises(RuleViolation) as e:
        run(doc)
    assert e.value.field == "order.aros[0].fire_at"


def test_fire_at_off_the_route_is_refused():
    doc = copy.deepcopy(BASE)
    doc["order"]["aros"][0]["fire_at"] = [1.0, 1.0]
    with pytest.raises(RuleViolation) as e:
        run(doc)
    assert e.value.field == "order.aros[0].fire_at" and "not on the Move's route" in str(e.value)


def test_fire_at_out_of_bounds_is_a_file_error():
    doc = copy.deepcopy(BASE)
    doc["order"]["aros"][0]["fire_at"] = 1.5
    with pytest.raises(ScenarioError) as e:
        run(doc)
    assert "order.aros.0.fire_at" in str(e.value) or "order.aros[0].fire_at" in str(e.value)


WALL_DOC = {
    "game": "tagraid", "kind": "order", "title": "cover where the ARO hits", "seed": 3,
    "board": {"name": "wall", "orientation": "pointy", "shape": {"kind": "hexagon", "radius": 6},
              "scenery": [{"name": "wall", "polygon": [[-2.0, 0.19642857142857142], [-1.0, 0.19642857142857142],
                                                       [-1.0, 0.5], [-2.0, 0.5]], "height": 5.0}]},
    "miners": [
        {"id": "A", "side": "blue", "x": -2.0, "y": 0.0, "facing": 0.0, "ranged_attack": 12, "armor": 4,
         "weapons": [{"name": "Rifle", "damage": 13, "burst": 1, "ammunition": "N"}]},
        {"id": "B", "side": "red", "x": -2.0, "y": 4.0, "facing": 270.0, "ranged_attack": 12, "armor": 4,
         "weapons": [{"name": "Rifle", "damage": 13, "burst": 1, "ammunition": "N"}]},
    ],
    "order": {"active": "A", "move": {"route": [[-2.0, -2.0]], "facing": 0.0},
              "second": {"skill": "ranged_attack", "weapon": "Rifle", "targets": [{"target": "B"}]},
              "aros": [{"miner": "B", "skill": "ranged_attack", "weapon": "Rifle"}]},
    "dice": {"rolls": {"A": [18], "B": [5]}, "saves": {"A": [10]}},
}


def _a_attack_damage(t):
    (s,) = [s for s in t.steps if s.facts.get("target") == "A" and "attack_damage" in s.facts]
    return s.facts["attack_damage"]


def test_active_miners_cover_is_judged_where_the_aro_hits_it():
    """A starts touching a wall that hides the right half of its base from B, and Moves away from it. Executing its
    Ranged Attack from where it starts (fire_from = 0), B's ARO hits it there: Partial Cover, Attack Damage
    13 - 4 - 3 = 6, and a save of 8 holds. Judged where the Move ends (the old code, whatever the firing point), no
    cover: Attack Damage 9, and the 8 fails (ruling route_fire_point = move_end, no fire_from)."""
    doc = copy.deepcopy(WALL_DOC)
    doc["order"]["second"]["fire_from"] = 0.0
    doc["dice"]["saves"]["A"] = [8]
    t = run(doc)
    assert _a_attack_damage(t) == 6
    assert t.outcome["roll"]["wounds"].get("A", 0) == 0
    doc2 = copy.deepcopy(WALL_DOC)
    doc2["rulings"] = {"route_fire_point": "move_end"}  # no fire_from: from the end of the Move under this reading
    doc2["dice"]["saves"]["A"] = [8]
    t2 = run(doc2)
    assert _a_attack_damage(t2) == 9
    assert t2.outcome["roll"]["wounds"]["A"] == 1


def test_aro_without_lof_at_the_firing_point_must_name_its_point():
    """B sees A only where A ends (the wall hides A's start from B); A fires from its start; B's Rifle has Range MODs
    and names no fire_at: its Range cannot be measured at A's firing point, so the file must say where B fires."""
    doc = copy.deepcopy(BASE)
    doc["board"]["scenery"] = [{"name": "screen", "polygon": [[-5.5, 0.3], [-2.5, 0.3], [-2.5, 0.6], [-5.5, 0.6]],
                                "height": 5.0}]
    doc["miners"][1].update(x=-4.0, y=4.0, facing=270.0)
    doc["miners"][0]["facing"] = 90.0
    doc["order"]["second"]["targets"] = [{"target": "C"}]
    del doc["order"]["aros"][0]["fire_at"]
    with pytest.raises(RuleViolation) as e:
        run(doc)
    assert e.value.field == "order.aros[0].fire_at" and "has no LoF to A at A's firing point" in str(e.value)
    doc["order"]["aros"][0]["fire_at"] = 1.0  # named: measured where A ends, in B's view
    assert range_steps(run(doc))[("B", "A")]["band"] is not None
