"""The ``setup`` kind: Setup's seeded steps (aspect tokens by player count, the event deck of 3 piles with a nemesis
event in each, the 1st strike's spawns and side mission), replayable from the seed."""

import copy

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.errors import ScenarioError
from explorer.games import get_game
from explorer.games.dagger.setup_scenario import parse_setup, resolve_setup
from explorer.scenario import read_toml

from .helpers import resolve


def doc():
    g = get_game("dagger")
    return read_toml("dg-setup", text=g.scenario_text("dg-setup"))


NEMESIS = {"Nemesis event: Scheme", "Nemesis event: Strike", "Nemesis event: Gambit"}


def test_builtin_setup():
    o = resolve("dg-setup").result
    assert len(o.event_deck) == 12
    assert o.tokens == (("Hero A", 1, 2), ("Hero B", 1, 2), ("Hero C", 1, 2))
    # the 4-pip icon does not apply with 3 heroes; the 1- and 3-pip ones do
    assert o.enemies == (("Thug 1", "Cairo"), ("Thug 2", "Mumbai"))
    assert len(o.side_slots) == 1 and len(o.side_deck) == 2


def test_two_players_take_an_extra_standard_token_and_the_3_pip_icon_drops():
    d = doc()
    d["heroes"] = ["Hero A", "Hero B"]
    o = resolve_setup(parse_setup(d, "t.toml")).result
    assert o.tokens == (("Hero A", 1, 3), ("Hero B", 1, 3))
    assert o.enemies == (("Thug 1", "Cairo"),)


def test_no_standee_left_places_nothing():
    d = doc()
    d["enemy_types"][0]["standees"] = 1
    o = resolve_setup(parse_setup(d, "t.toml")).result
    assert o.enemies == (("Thug 1", "Cairo"),)


def test_bad_spawn_space_names_the_field():
    d = copy.deepcopy(doc())
    d["first_strike"]["spawns"][0]["space"] = "Gotham"
    with pytest.raises(ScenarioError, match=r"first_strike\.spawns\[0\]\.space"):
        parse_setup(d, "t.toml")


def test_an_enemy_type_key_given_twice_is_refused():
    """Session 14: a second enemy card of one key loaded (spawns name cards by key, so it was never used); the
    nemesis, hero and round kinds refused it already."""
    d = copy.deepcopy(doc())
    d["enemy_types"].append(dict(d["enemy_types"][0], name="Other Thug", standees=1))
    with pytest.raises(ScenarioError) as e:
        parse_setup(d, "t.toml")
    n = len(d["enemy_types"]) - 1
    assert e.value.field == f"enemy_types[{n}].key" and "duplicate enemy type 'rank-1'" in str(e.value)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**31))
def test_each_third_of_the_deck_holds_one_nemesis_event(seed):
    sc = parse_setup(doc(), "t.toml")
    o = resolve_setup(sc, seed=seed).result
    deck = o.event_deck
    assert len(deck) == 12 and len(set(deck)) == 12
    for third in (deck[0:4], deck[4:8], deck[8:12]):
        assert len(NEMESIS & set(third)) == 1
    standard = [c for c in deck if c not in NEMESIS]
    assert len(standard) == 9 and set(standard) <= {f"Event {i}" for i in range(1, 31)}
    # replay: the same seed deals the same deck
    assert resolve_setup(sc, seed=seed).result == o


def test_different_seeds_deal_different_decks():
    sc = parse_setup(doc(), "t.toml")
    decks = {resolve_setup(sc, seed=s).result.event_deck for s in range(20)}
    assert len(decks) > 15
