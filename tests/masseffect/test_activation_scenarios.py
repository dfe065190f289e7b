"""Scenario kind "activation" on real mission maps: the handed cases ME-03, ME-06, ME-07 (A, B, C) and Hazard-card
golden traces (tests/masseffect/golden/<name>.txt). Regenerate after an intended change with
``UPDATE_GOLDEN=1 pytest tests/masseffect/test_activation_scenarios.py`` and review the diff."""

from pathlib import Path

import pytest
from golden_helpers import check_golden, trace_text

from explorer.errors import ScenarioError
from explorer.games.masseffect.activation import parse_activation, resolve_activation
from explorer.games.masseffect.damage import parse_damage, resolve_damage
from explorer.scenario import read_toml

SCENARIOS = Path(__file__).parents[2] / "explorer" / "games" / "masseffect" / "scenarios"
GOLDEN = Path(__file__).parent / "golden"
MINE = ["me-03", "me-06", "me-07", "me-07-b", "me-07-c", "me-hazard-spawn-rush", "me-hazard-invalid", "me-09",
        "me-book-ravager"]


def load(name):
    p = SCENARIOS / f"{name}.toml"
    data = read_toml(p)
    if data["kind"] == "damage":
        return parse_damage(data, str(p)), resolve_damage
    return parse_activation(data, str(p)), resolve_activation


def resolve(name, rulings=None):
    sc, fn = load(name)
    return fn(sc, rulings)


def target(t):
    return next(s.facts["target"] for s in t.steps if s.title.startswith("Target:"))


def test_me03_no_opportunity_attack_husk_advances():
    t = resolve("me-03")
    assert not any(s.title.endswith(f"for {n}") for s in t.steps for n in range(10))
    assert any(s.title.startswith("No Opportunity Attacks") for s in t.steps)
    assert not any(s.title.startswith("Target:") for s in t.steps)
    adv = next(s for s in t.steps if "Advances" in s.title)
    assert {c["hex"] for c in adv.facts["candidates"] if c["kept"]} == {"0,0", "0,-1", "-1,1"}
    assert t.outcome["squadmates"]["Garrus"] == {"hex": "-1,0", "shield_points": 3, "hit_points": 5, "downed": False}


@pytest.mark.parametrize("reading,expected", [(None, "Garrus"), ("hit_points", "Garrus"),
                                              ("shields_and_hit_points", "Wrex")])
def test_me06(reading, expected):
    t = resolve("me-06", {"fewest_hit_points": reading} if reading else None)
    assert target(t) == expected and t.rulings["fewest_hit_points"] == (reading or "hit_points")


def test_me07_cases():
    assert target(resolve("me-07")) == "Tali"
    assert target(resolve("me-07-b")) == "Wrex"
    c = resolve("me-07-c")
    step = next(s for s in c.steps if s.title.startswith("Target:"))
    assert step.facts["tied"] == ["Wrex", "Tali"] and step.facts["target"] == "Tali" and "Garrus's player" in step.detail
    sc, fn = load("me-07-c")
    default = fn(sc.model_copy(update={"choices": type(sc.choices)()}))
    assert target(default) == "Wrex"  # default: seating order


def test_hazard_invalid_activation_timing_reading():
    after = resolve("me-hazard-invalid")
    before = resolve("me-hazard-invalid", {"invalid_activation_timing": "before_activations"})
    titles = [s.title for s in before.steps]
    assert titles.index("Invalid Activation: no Marauder on the board") < \
        next(i for i, x in enumerate(titles) if x.startswith("Activation order"))
    assert after.outcome["enemies"]["Husk 7"]["hex"] == "-3,0"


@pytest.mark.parametrize("patch,field", [
    ({"current": "Nobody"}, "current"),
    ({"map": "no-such-map"}, "map"),
    ({"hazard": [{"do": "activate"}]}, "hazard[0].types"),
    ({"choices": {"advance_to": {"Husk": "x"}}}, "choices.advance_to.Husk"),
])
def test_scenario_errors(patch, field):
    data = read_toml(SCENARIOS / "me-03.toml") | patch
    with pytest.raises(ScenarioError) as e:
        parse_activation(data, "x.toml")
    assert e.value.field == field and "x.toml" in str(e.value)


def test_character_off_the_map():
    data = read_toml(SCENARIOS / "me-03.toml")
    data["enemies"][0]["position"] = "9,9"
    with pytest.raises(ScenarioError, match="Out of Bounds"):
        parse_activation(data, "x.toml")


def render(name: str) -> str:
    t = resolve(name)
    return trace_text(t)


@pytest.mark.parametrize("name", MINE)
def test_golden_trace(name):
    check_golden(GOLDEN, name, render(name))


def test_every_step_cites_a_known_section():
    from explorer.games.masseffect import sections as S
    known = {v.section for v in vars(S).values() if hasattr(v, "section")}
    for name in MINE:
        for s in resolve(name).steps:
            assert s.rule.section in known, (name, s.title, s.rule.section)
