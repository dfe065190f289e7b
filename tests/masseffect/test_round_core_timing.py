"""Issue 19: Core Ability and Ability triggers at the moment the rulebook ties them to (Squadmate Commentary):
Liara's Analysis token moves once the Strategy Roll is over (one space per icon) and Analysis is used after it, on a
Hazard card face-down next to a sheet (ruling ``analysis_window``); Shepard's Barrier triggers only when a Move Action
is completed (ruling ``barrier_pin``). Built-ins me-round-analysis and me-round-barrier."""

from pathlib import Path

import pytest
from golden_helpers import check_golden, trace_text

from explorer.errors import ScenarioError
from explorer.games.masseffect import sections as S
from explorer.games.masseffect.round import parse_round, resolve_round
from explorer.scenario import read_toml

SCENARIOS = Path(__file__).parents[2] / "explorer" / "games" / "masseffect" / "scenarios"
GOLDEN = Path(__file__).parent / "golden"


def data(name):
    return read_toml(SCENARIOS / f"{name}.toml")


def resolve(d, rulings=None):
    return resolve_round(parse_round(d, "x.toml"), rulings)


@pytest.mark.parametrize("name", ["me-round-analysis", "me-round-barrier"])
def test_golden_traces(name):
    check_golden(GOLDEN, name, trace_text(resolve(data(name))))


def _index(t, pred):
    return next(i for i, s in enumerate(t.steps) if pred(s))


def test_analysis_after_the_whole_roll_and_before_the_actions():
    t = resolve(data("me-round-analysis"))
    over = _index(t, lambda s: s.title == "No icon showing: the Strategy Roll is over")
    token = _index(t, lambda s: s.title.startswith("Analysis token:"))
    used = _index(t, lambda s: s.title.startswith("Liara uses Analysis"))
    first_action = _index(t, lambda s: "allocates" in s.title)
    triggers = [i for i, s in enumerate(t.steps) if "Analysis triggers" in s.title]
    assert max(triggers) < over < token < used < first_action
    assert t.steps[token].facts["analysis_token"] == 2 and t.steps[used].facts == {
        "card": "Ambush", "of": "Garrus", "analysis_token": 0}
    o = t.result
    assert o.discard[0] == "Ambush" and "Quiet" in o.discard and o.rejected is None
    assert not any("Spawn" in s.title for s in t.steps)          # the Ambush was averted


def test_analysis_refusals_name_the_field():
    d = data("me-round-analysis")
    d["turns"][0]["roll"]["rolls"] = [["standard"] * 12]          # no icon: the token stays at 0
    t = resolve(d)
    assert t.steps[-1].facts["field"] == "turns[0].analysis" and "Analysis needs 2" in t.result.rejected
    d = data("me-round-analysis")
    d["turns"][0]["analysis"]["card_of"] = "Liara"                # her own card: face-down too, allowed
    assert resolve(d).result.rejected is None
    d["analysis_token"] = 0
    d["turns"][0]["analysis"]["when"] = "before_hazard_card"      # after her Actions: the ruling
    t = resolve(d)
    assert t.steps[-1].facts["field"] == "turns[0].analysis.when"
    t = resolve(d, {"analysis_window": "until_hazard_card"})
    used = next(s for s in t.steps if s.title.startswith("Liara uses Analysis"))
    assert t.result.rejected is None and "until_hazard_card" in used.detail
    assert t.steps.index(used) > _index(t, lambda s: s.title.startswith("Actions over"))
    d = data("me-round-analysis")
    d["turns"][0]["analysis"]["card_of"] = "Garrus"
    d["turns"].append({"squadmate": "Garrus"})
    d["turns"][0], d["turns"][1] = {"squadmate": "Liara", "round": 1, "roll": d["turns"][0]["roll"],
                                    "analysis": {"card_of": "Garrus"}}, d["turns"][1]
    d["turns"].pop()
    d["on_point"] = "Garrus"                                       # Garrus has flipped his card before Liara's turn
    d["turns"][0]["roll"]["rolls"][0] = d["turns"][0]["roll"]["rolls"][0][:9]
    t = resolve(d)
    assert t.steps[-1].facts["field"] == "turns[0].analysis.card_of" and "still in the deck" in t.result.rejected


def test_analysis_file_errors():
    d = data("me-round-analysis")
    d["turns"][1]["analysis"] = {"card_of": "Liara"}
    d["turns"][1]["roll"] = {"rolls": [["standard"] * 9]}
    with pytest.raises(ScenarioError, match=r"turns\[1\]\.analysis"):
        parse_round(d, "x.toml")
    d = data("me-round-analysis")
    del d["turns"][0]["roll"]
    with pytest.raises(ScenarioError, match=r"turns\[0\]\.analysis"):
        parse_round(d, "x.toml")


def test_barrier_when_the_move_action_is_completed_only():
    t = resolve(data("me-round-barrier"))
    unlock = _index(t, lambda s: "unlocks Barrier" in s.title)
    attack = _index(t, lambda s: "Opportunity Attack for 2" in s.title)
    ends = _index(t, lambda s: "Move Action ends at -2,0" in s.title)
    barrier = [i for i, s in enumerate(t.steps) if s.rule == S.COMMENTARY_SHEPARD_BARRIER]
    assert unlock < attack < ends < barrier[0] and len(barrier) == 1   # the unresolved Move: no second trigger
    assert t.steps[barrier[0]].facts == {"squadmate": "Shepard", "shield_points": 3, "regained": 1}
    # Locked (no unlock): nothing
    d = data("me-round-barrier")
    d["unlocks"] = []
    assert not any(s.rule == S.COMMENTARY_SHEPARD_BARRIER for s in resolve(d).steps)
    # full Shields: it triggers, nothing to regain
    d = data("me-round-barrier")
    d["enemies"][1]["position"] = "3,0"
    st = next(s for s in resolve(d).steps if s.rule == S.COMMENTARY_SHEPARD_BARRIER)
    assert st.facts["regained"] == 0 and "nothing to regain" in st.title


def test_barrier_is_a_special_rule_and_the_pin_ruling():
    d = data("me-round-barrier")
    d["turns"][0]["actions"][2] = {"box": "Barrier", "die": "standard"}
    t = resolve(d)
    assert "Special Rule" in t.result.rejected and t.steps[-1].facts["field"] == "turns[0].actions[2].box"
    d = data("me-round-barrier")
    d["enemies"][1]["tags"] = ["Pin"]
    t = resolve(d)
    st = next(s for s in t.steps if s.rule == S.COMMENTARY_SHEPARD_BARRIER)
    assert "Pin Tag" in st.title and st.facts["regained"] == 1
    t = resolve(d, {"barrier_pin": "not_completed"})
    st = next(s for s in t.steps if s.rule == S.COMMENTARY_SHEPARD_BARRIER)
    assert "does not trigger" in st.title and "shield_points" not in st.facts
