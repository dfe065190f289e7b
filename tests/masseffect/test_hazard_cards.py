"""Hazard card instructions "Activate Furthest Enemy" and "Special instruction" (Icon Reference › Cards): the
built-ins me-hazard-activate-furthest and me-hazard-special, their golden traces, the ruling furthest_enemy_pool,
ties, round files accepting both, and refusals naming the field."""

from pathlib import Path

import pytest
from golden_helpers import check_golden, trace_text

from explorer.errors import ScenarioError
from explorer.games.masseffect.activation import parse_activation, resolve_activation
from explorer.scenario import read_toml

SCENARIOS = Path(__file__).parents[2] / "explorer" / "games" / "masseffect" / "scenarios"
GOLDEN = Path(__file__).parent / "golden"


def data(name):
    return read_toml(SCENARIOS / f"{name}.toml")


def run(d, rulings=None):
    return resolve_activation(parse_activation(d, "x.toml"), rulings)


def furthest_step(t):
    return next(s for s in t.steps if s.title.startswith("Activate Furthest Enemy"))


def test_furthest_counts_distance_around_the_wall():
    t = run(data("me-hazard-activate-furthest"))
    step = furthest_step(t)
    # Husk is 2 hexes away as the crow flies but 4 by route (walls): the furthest; Marauder and Cannibal 3
    assert step.facts["distances"] == {"Husk": 4, "Marauder": 3, "Cannibal": 3}
    assert step.facts["furthest"] == "Husk" and step.rule.section.endswith("Counting Distances")
    activated = [s.facts["enemy"] for s in t.steps if s.facts.get("activated")]
    assert activated == ["Husk"]
    assert t.outcome["enemies"]["Husk"]["hex"] == "2,-2"
    assert t.outcome["enemies"]["Marauder"]["hex"] == "-3,3"


def _stunned_husk():
    d = data("me-hazard-activate-furthest")
    d["enemies"][0]["stunned"] = True
    return d


def test_furthest_stunned_default_picks_it_and_it_does_not_activate():
    t = run(_stunned_husk())
    assert furthest_step(t).facts["furthest"] == "Husk"
    assert any(s.title == "Husk is Stunned: not Activated" for s in t.steps)
    assert not any(s.facts.get("activated") for s in t.steps)
    assert t.rulings["furthest_enemy_pool"] == "all_enemies"


@pytest.mark.parametrize("order,expected", [([], "Marauder"), (["Cannibal"], "Cannibal")])
def test_furthest_activatable_only_tie_is_the_players_choice(order, expected):
    d = _stunned_husk()
    d["choices"] = {"activation_order": order}
    t = run(d, {"furthest_enemy_pool": "activatable_only"})
    step = furthest_step(t)
    assert step.facts["tied"] == ["Marauder", "Cannibal"] and step.facts["furthest"] == expected
    assert [s.facts["enemy"] for s in t.steps if s.facts.get("activated")] == [expected]
    assert ("your choice" if order else "default: listing order") in step.title


def test_furthest_with_no_enemy_does_nothing_and_spawns_nothing():
    d = data("me-hazard-activate-furthest")
    d["enemies"] = []
    t = run(d)
    assert [s.title for s in t.steps] == ["Activate Furthest Enemy: no Enemy on the board, nothing to Activate"]


def test_special_instruction_is_shown_not_applied_then_the_card_goes_on():
    t = run(data("me-hazard-special"))
    first, second = t.steps[0], t.steps[1]
    assert first.title.startswith("Special instruction: Each Squadmate")
    assert first.facts["applied"] is False and "NOT applied" in first.detail
    assert first.rule.section == "Icon Reference › Cards"
    assert second.facts["spawned"] == "Husk 1" and second.facts["hex"] == "-3,0"


@pytest.mark.parametrize("hazard,field", [
    ([{"do": "special"}], "hazard[0].text"),
    ([{"do": "activate_furthest", "text": "x"}], "hazard[0].text"),
])
def test_special_text_refusals(hazard, field):
    d = data("me-hazard-special") | {"hazard": hazard}
    with pytest.raises(ScenarioError) as e:
        parse_activation(d, "x.toml")
    assert e.value.field == field and "x.toml" in str(e.value)


def test_round_file_accepts_both_instructions():
    from explorer.games.masseffect.round import parse_round

    d = read_toml(SCENARIOS / "me-round-1.toml")
    d["hazard_deck"][0]["instructions"] = [{"do": "special", "text": "Example."}, {"do": "activate_furthest"}]
    parse_round(d, "x.toml")
    d["hazard_deck"][0]["instructions"] = [{"do": "special"}]
    with pytest.raises(ScenarioError) as e:
        parse_round(d, "x.toml")
    assert e.value.field == "hazard_deck[0].instructions[0].text"


@pytest.mark.parametrize("name", ["me-hazard-activate-furthest", "me-hazard-special"])
def test_golden_trace(name):
    check_golden(GOLDEN, name, trace_text(run(data(name))))
