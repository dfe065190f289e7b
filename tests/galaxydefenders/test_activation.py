"""Alien/NPC A.I. activation: the built-in scenarios' answers, bad maps and rules rejected with the field named,
the line-of-sight ruling, and a property: a move toward a reachable target never ends in an Area farther from it."""

from __future__ import annotations

import tomllib
from importlib import resources

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.errors import ScenarioError
from explorer.games.galaxydefenders.activation import parse_activation, resolve_activation


def _data(name: str) -> dict:
    text = resources.files("explorer.games.galaxydefenders").joinpath(f"scenarios/{name}.toml").read_text()
    return tomllib.loads(text)


def _run(name: str, **changes) -> dict:
    d = _data(name)
    d.update(changes)
    return resolve_activation(parse_activation(d, name)).outcome


def test_seize_example_1_crosses_the_barrier_into_the_crater():
    o = _run("gd-ai-seize-1")
    assert o["action"] == "move_away" and o["end"] == "10,1"
    assert o["figures"]["Biotech"] in {"9,1", "11,1", "10,0", "10,2", "9,2", "11,0"}   # inside the crater (Area D)
    assert o["path"][0] == "8,1" and o["path"][-1] == "10,1"


def test_barrier_keeps_hexes_adjacent_and_does_not_block_line_of_sight():
    o = _run("gd-ai-barrier-adjacent")
    assert (o["rule"], o["action"], o["end"]) == (0, "attack", "6,0")


def test_move_adjacent_goes_around_the_barrier_and_engages_two_agents():
    o = _run("gd-ai-move-adjacent")
    assert o["action"] == "move_adjacent" and o["end"] in {"7,2", "8,0"}
    assert "5,2" in o["path"] or "6,2" in o["path"]          # the open row-2 crossing


def test_flying_mover_takes_the_barrier_directly():
    d = _data("gd-ai-move-adjacent")
    d["activating"]["flying"] = True
    o = resolve_activation(parse_activation(d, "x")).outcome
    assert o["end"] in {"7,2", "8,0"}


def test_npc_without_line_of_sight_uses_the_plus_rule():
    o = _run("gd-ai-npc-plus")
    assert (o["rule"], o["action"], o["areas_before"], o["areas_after"]) == (2, "move_toward", 2, 1)
    d = _data("gd-ai-npc-plus")
    d["blocking"] = []
    o2 = resolve_activation(parse_activation(d, "x")).outcome
    assert (o2["rule"], o2["action"]) == (1, "attack")       # with line of sight, 'within 3 Areas: shoot'


def test_archenemy_targets_the_menacing_agent():
    assert _run("gd-ai-archenemy")["target"] == "Hulk"
    d = _data("gd-ai-archenemy")
    d["activating"]["archenemy"] = False
    assert resolve_activation(parse_activation(d, "x")).outcome["target"] == "Marine"


def test_no_rule_applies_it_stays():
    o = _run("gd-ai-no-rule")
    assert o["rule"] is None and o["end"] == o["start"]


def test_strict_line_of_sight_blocks_a_grazing_line():
    from explorer.games.galaxydefenders.activation import ActivationScenario, parse_map
    from explorer.hexgrid import Hex
    d = _data("gd-ai-move-adjacent")
    d["blocking"] = ["1,0"]
    amap = parse_map(ActivationScenario.model_validate(d), "x")
    lax, why = amap.line_of_sight(Hex(0, 1), Hex(2, 0), strict=False)
    strict, why2 = amap.line_of_sight(Hex(0, 1), Hex(2, 0), strict=True)
    assert lax and not strict and "grazes" in why2
    assert not amap.line_of_sight(Hex(0, 0), Hex(2, 0), strict=False)[0]       # crosses the Blocking Hex


@pytest.mark.parametrize("change, field", [
    ({"areas": {"A": ["0,0", "2,0"]}}, "areas.A"),                     # not contiguous
    ({"centres": {"A": "5,0"}}, "centres.A"),
    ({"rules": [{"condition": "near", "action": "attack"}]}, "rules.0.condition"),
    ({"rules": [{"condition": "within", "action": "attack"}]}, "rules[0].areas"),
    ({"edges": [{"edge": "0,0|5,5", "kind": "barrier"}]}, "edges[0].edge"),
    ({"blocking": ["99,0"]}, "blocking[0]"),
])
def test_bad_input_names_the_field(change, field):
    d = _data("gd-ai-move-adjacent")
    d.update(change)
    with pytest.raises(ScenarioError) as e:
        parse_activation(d, "bad.toml")
    assert e.value.field.replace("[", ".").replace("]", "") .startswith(field.replace("[", ".").replace("]", ""))


def test_two_figures_on_one_hex_rejected():
    d = _data("gd-ai-move-adjacent")
    d["figures"][0]["at"] = d["activating"]["at"]
    with pytest.raises(ScenarioError) as e:
        parse_activation(d, "bad.toml")
    assert e.value.field == "figures[0].at"


HEXES = [f"{q},{r}" for q in range(12) for r in range(3)]


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(HEXES), st.sampled_from(HEXES), st.booleans(), st.integers(1, 3))
def test_a_move_never_ends_farther_from_a_reachable_target(start, agent, flying, move):
    if start == agent:
        return
    d = _data("gd-ai-move-adjacent")
    d["activating"].update(at=start, flying=flying)
    d["figures"] = [{"name": "Hulk", "side": "agent", "at": agent}]
    d["rules"] = [{"condition": "plus", "action": "move_adjacent", "move": move}]
    o = resolve_activation(parse_activation(d, "x")).outcome
    if o["areas_before"] is not None:
        assert o["areas_after"] is not None and o["areas_after"] <= o["areas_before"]
        assert o["areas_after"] <= max(0, o["areas_before"] - move) or o["areas_after"] <= 1


# --- issue 21: NPC Body Conditions (10.4.1) and Paralyzed aliens (11.9.1) -------------------------------------------

def test_an_immobilized_npc_skips_movement_behavior_and_shoots():
    from .helpers import resolve as _resolve

    tr = _resolve("gd-ai-npc-immobilized")
    o = tr.result
    assert (o.rule, o.action, o.start, o.end) == (2, "attack", o.start, o.start)
    skipped = next(s for s in tr.steps if "Within 2 Areas" in s.title)
    assert skipped.rule.section == "10.4.1 NPC Body Condition" and skipped.facts["applies"] is False


def test_a_paralyzed_alien_skips_its_activation_but_a_master_alien_ignores_it():
    from explorer.games import get_game
    from .helpers import resolve as _resolve

    tr = _resolve("gd-ai-paralyzed")
    assert tr.result.skipped and tr.result.rule is None and tr.result.end == tr.result.start
    assert not [s for s in tr.steps if s.section == "Behavior rules"]
    g = get_game("galaxydefenders")
    kind, sc = g.load_builtin("gd-ai-archenemy")
    sc = sc.model_copy(update={"activating": sc.activating.model_copy(update={"paralyzed": True})})
    master = g.resolve((kind, sc), rulings={})
    plain = g.resolve(g.load_builtin("gd-ai-archenemy"), rulings={})
    assert any(s.rule.section.startswith("11.3 ") and "ignores Paralyze" in s.title for s in master.steps)
    assert master.outcome == plain.outcome


def test_immobilized_is_refused_on_an_alien():
    import tomllib

    import pytest
    from test_hostile_files import to_toml

    from explorer.errors import ScenarioError
    from explorer.games import get_game, load_any

    doc = tomllib.loads(get_game("galaxydefenders").scenario_text("gd-ai-move-adjacent"))
    doc["activating"]["immobilized"] = True
    with pytest.raises(ScenarioError) as e:
        load_any("bad.toml", text=to_toml(doc))
    assert e.value.field == "activating.immobilized"
