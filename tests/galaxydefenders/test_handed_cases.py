"""The handed rulings (shared/cases/rulings-galaxydefenders.jsonl): each case is a built-in scenario under its id
and resolves to the case's expected value."""

import json
from pathlib import Path

import pytest

from explorer.games import get_game

from .helpers import resolve

_ROOT = Path(__file__).resolve().parents[2]
CASES = next((p / "shared" / "cases" / "rulings-galaxydefenders.jsonl" for p in (_ROOT.parent, _ROOT.parent.parent)
              if (p / "shared" / "cases" / "rulings-galaxydefenders.jsonl").exists()), _ROOT / "missing")


PENDING = {"gd-06": 21, "gd-07": 21, "gd-08": 21, "gd-13": 21, "gd-30": 21, "gd-32": 21, "gd-33": 21}
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
