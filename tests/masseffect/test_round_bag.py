"""Issue 19 (second reading) and issue 25 item 4: the Enemy Bag's draws are the file's, never left to a draw.

Spawning Minions draws a token from the Enemy Bag at random; a Minion Defeated goes back into the Bag (Damaging
Enemies). A file declares each draw in ``[[bag]]``: a Minion token, or ``returned = "<Minion>"`` for a Minion
Defeated earlier. With no declared draw left the only token in the Bag is drawn (forced); two or more there and the
file is refused naming ``bag[k]``, with any seed or none. Built-in me-round-bag-returned, golden trace in
tests/masseffect/golden/."""

import copy
from pathlib import Path

import pytest
from golden_helpers import check_golden, trace_text
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.errors import ScenarioError
from explorer.games.masseffect import sections as S
from explorer.games.masseffect.activation import parse_activation, resolve_activation
from explorer.games.masseffect.round import parse_round, resolve_round
from explorer.scenario import read_toml

SCENARIOS = Path(__file__).parents[2] / "explorer" / "games" / "masseffect" / "scenarios"
GOLDEN = Path(__file__).parent / "golden"
NAME = "me-round-bag-returned"


def data():
    return read_toml(SCENARIOS / f"{NAME}.toml")


def resolve(d, seed=None):
    return resolve_round(parse_round(d, "x.toml"), seed=seed)


def spawns(t):
    return [s for s in t.steps if s.title.startswith("Spawn ")]


def test_golden_trace():
    check_golden(GOLDEN, NAME, trace_text(resolve(data())))


def test_the_declared_returned_minion_is_drawn_not_the_first_returned():
    t = resolve(data())
    first, second = spawns(t)
    # Husk A went back into the Bag first; the file's bag[0] says the first Spawn draws Husk B
    assert first.title.startswith("Spawn Husk B at 3,-3") and "bag[0].returned" in first.detail
    assert first.rule == S.SPAWNING_MINIONS
    # no declared draw left, Husk A alone in the Bag: forced, and said so
    assert second.title.startswith("Spawn Husk A at -3,3") and "only token in it" in second.detail


def test_declaring_the_other_order_draws_the_other_minion():
    d = data()
    d["bag"] = [{"returned": "Husk A"}, {"returned": "Husk B"}]
    first, second = spawns(resolve(d))
    assert first.title.startswith("Spawn Husk A") and second.title.startswith("Spawn Husk B")
    assert "bag[1].returned" in second.detail


def _no_declaration():
    d = data()
    del d["bag"]
    return d


def test_an_undeclared_draw_among_two_returned_minions_is_refused_naming_bag():
    with pytest.raises(ScenarioError) as e:
        resolve(_no_declaration())
    assert e.value.field == "bag[0]"
    assert "Husk A, Husk B" in e.value.problem and "returned = 'Husk B'" in str(e.value.allowed)


@settings(max_examples=15, deadline=None)
@given(seed=st.one_of(st.none(), st.integers(min_value=0, max_value=2**63 - 1)))
def test_validity_and_the_draw_never_depend_on_the_seed(seed):
    """Issue #25 item 4: the file without a declaration is refused with every seed (and none), the same line; the
    file with one plays the same trace with every seed."""
    with pytest.raises(ScenarioError) as e:
        resolve(_no_declaration(), seed=seed)
    assert e.value.field == "bag[0]"
    assert trace_text(resolve(data(), seed=seed)) == trace_text(resolve(data()))


def test_a_returned_draw_of_a_minion_still_on_the_map_is_refused_naming_the_field():
    d = data()
    d["enemies"][1]["position"] = "-1,1"              # Husk B is no longer in an Inferno hex: never Defeated
    d["bag"] = [{"returned": "Husk B"}]
    with pytest.raises(ScenarioError) as e:
        resolve(d)
    assert e.value.field == "bag[0].returned" and "on the map" in e.value.problem
    assert e.value.allowed == "one of 'Husk A'"


def test_a_returned_draw_twice_is_refused_the_second_time():
    d = data()
    d["bag"] = [{"returned": "Husk B"}, {"returned": "Husk B"}]
    with pytest.raises(ScenarioError) as e:
        resolve(d)
    assert e.value.field == "bag[1].returned" and "on the map" in e.value.problem


def test_a_declared_token_is_drawn_before_the_returned_ones():
    """A declared new token is a declared draw too: the first Spawn gives it though two Minions are in the Bag; the
    second has no declaration left with two in the Bag, and is refused naming bag[1]."""
    d = data()
    d["bag"] = [{"name": "Husk C", "type": "Husk", "attack_value": 1}]
    with pytest.raises(ScenarioError) as e:
        resolve(d)
    assert e.value.field == "bag[1]"
    d["bag"].append({"returned": "Husk A"})
    first, second = spawns(resolve(d))
    assert first.title.startswith("Spawn Husk C") and second.title.startswith("Spawn Husk A")


@pytest.mark.parametrize("entry, field, words", [
    ({"returned": "Husk C"}, "bag[0].returned", "not a Minion"),
    ({"returned": "Husk B", "attack_value": 2}, "bag[0]", "attack_value"),
    ({"type": "Husk"}, "bag[0].name", "needs its name"),
    ({"name": "Husk A"}, "bag[0].name", "duplicate"),
    ({"name": "Shepard"}, "bag[0].name", "duplicate"),
    ({"name": "Husk C", "position": "1,0"}, "bag[0]", "without a position"),
    ({"name": "Brute", "kind": "elite", "resilience": [4]}, "bag[0]", "Minions"),
])
def test_bag_entries_are_checked_when_the_file_loads(entry, field, words):
    d = data()
    d["bag"] = [entry]
    with pytest.raises(ScenarioError) as e:
        parse_round(d, "x.toml")
    assert e.value.field == field and words in str(e.value)


def test_a_returned_draw_may_name_a_bag_token_spawned_earlier():
    d = data()
    d["bag"] = [{"name": "Husk C", "type": "Husk"}, {"returned": "Husk C"}]
    parse_round(d, "x.toml")                          # accepted when it loads ...
    with pytest.raises(ScenarioError) as e:           # ... refused in play: Husk C is on the map at the second draw
        resolve(d)
    assert e.value.field == "bag[1].returned"


ACTIVATION = {
    "game": "masseffect", "kind": "activation", "map": {"name": "bag", "shape": {"kind": "hexagon", "radius": 3},
                                                        "icons": {"2,-2": ["inferno"], "-2,2": ["inferno"],
                                                                  "3,-3": ["spawn"]}},
    "current": "Shepard", "start_of_round": True,
    "squadmates": [{"name": "Shepard", "max_shield_points": 3, "max_hit_points": 5, "position": "0,0"}],
    "enemies": [{"name": "Husk A", "type": "Husk", "position": "2,-2"},
                {"name": "Husk B", "type": "Husk", "position": "-2,2"}],
    "hazard": [{"do": "spawn", "at": "closest"}],
}


def test_the_activation_kind_declares_a_returned_draw_the_same_way():
    d = copy.deepcopy(ACTIVATION)
    with pytest.raises(ScenarioError) as e:
        resolve_activation(parse_activation(d, "a.toml"))
    assert e.value.field == "bag[0]"
    d["bag"] = [{"returned": "Husk B"}]
    t = resolve_activation(parse_activation(d, "a.toml"))
    assert [s.title for s in t.steps if s.title.startswith("Spawn")][0].startswith("Spawn Husk B at 3,-3")
