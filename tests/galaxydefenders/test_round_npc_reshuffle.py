"""10.1.1 NPC Deck in a round: when the deck runs out, the discard pile (``[[npc_discard]]`` and the cards of NPCs
dead in play, 10.4) is reshuffled to recreate it, deterministically from the round's seed. Worked example:
``gd-round-npc-reshuffle``."""

from __future__ import annotations

import tomllib

import pytest
from hypothesis import given, settings, strategies as st
from test_hostile_files import to_toml

from explorer.errors import ScenarioError
from explorer.games import get_game, load_any
from explorer.games.galaxydefenders import sections as S

from .helpers import resolve

GAME = get_game("galaxydefenders")


def _doc() -> dict:
    return tomllib.loads(GAME.scenario_text("gd-round-npc-reshuffle"))


def _run(doc: dict, seed: int | None = None, **rulings):
    _, sc = load_any("r.toml", text=to_toml(doc))
    return GAME.resolve(sc, rulings=rulings, seed=seed)


def _reshuffle(trace):
    return next((s for s in trace.steps if s.rule == S.NPC_DECK), None)


def test_worked_example_the_dead_npc_and_the_discarded_card_make_the_new_deck():
    t = resolve("gd-round-npc-reshuffle")
    step = _reshuffle(t)
    assert step.facts == {"pile": ["Archon", "Sgt. Rock"], "deck": ["Sgt. Rock", "Archon"]}
    titles = [s.title for s in t.steps]
    i = titles.index(step.title)
    assert titles[i - 1] == "Signal S1 on 4,1 is revealed: an NPC signal"
    assert titles[i + 1] == "Marine (Alpha Agent) draws Sgt. Rock from the top of the NPC deck"
    out = t.result.to_json()
    assert out["npcs"] == {"Sgt. Rock": {"wounds": 0, "poison": 0, "mark": 0, "status": "alive"}}
    assert out["positions"]["Sgt. Rock"] == "4,1"


def test_the_same_seed_gives_the_same_deck_and_the_seed_decides_it():
    doc = _doc()
    decks = {tuple(_reshuffle(_run(doc, seed=s)).facts["deck"]) for s in range(12)}
    assert decks == {("Sgt. Rock", "Archon"), ("Archon", "Sgt. Rock")}
    assert _reshuffle(_run(doc, seed=3)).facts == _reshuffle(_run(doc, seed=3)).facts


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**6), extra=st.integers(0, 3))
def test_the_new_deck_is_the_pile_reordered_and_its_top_enters_play(seed, extra):
    doc = _doc()
    doc["npc_discard"] += [{"name": f"Drone {k}", "health": 3} for k in range(extra)]
    t = _run(doc, seed=seed)
    f = _reshuffle(t).facts
    assert f["pile"] == ["Archon"] + [f"Drone {k}" for k in range(extra)] + ["Sgt. Rock"]
    assert sorted(f["deck"]) == sorted(f["pile"])
    assert f"Marine (Alpha Agent) draws {f['deck'][0]} from the top of the NPC deck" in [s.title for s in t.steps]
    assert t.result.to_json()["positions"][f["deck"][0]] == "4,1"


def test_a_card_left_in_the_deck_is_drawn_without_reshuffling():
    doc = _doc()
    doc["npc_deck"] = [{"name": "Knight", "health": 6}]
    t = _run(doc)
    assert _reshuffle(t) is None
    assert "Marine (Alpha Agent) draws Knight from the top of the NPC deck" in [s.title for s in t.steps]


def test_deck_and_pile_both_empty_only_discard_the_token():
    doc = _doc()
    doc["npc_discard"] = []
    doc["npcs"][0]["wounds"] = 0                       # Sgt. Rock survives the bite: nothing in the pile
    t = _run(doc)
    assert _reshuffle(t) is None
    assert any("no card is left in the NPC deck" in s.title for s in t.steps)


def test_the_discard_pile_needs_a_map_and_unique_names():
    doc = _doc()
    doc["npc_discard"].append({"name": "Xeno"})
    with pytest.raises(ScenarioError, match=r"npc_discard\[1\].name"):
        _run(doc)
    doc = {"game": "galaxydefenders", "kind": "round", "agents": [{"name": "Marine"}],
           "npc_discard": [{"name": "Archon"}]}
    with pytest.raises(ScenarioError, match="npc_discard"):
        _run(doc)


# ------------------------------------------------------------------ npc_reshuffles: the file fixes the new order
# (session 13: the new deck's order came only from the seed; as Mass Effect's reshuffles for its Hazard deck)

@pytest.mark.parametrize("order", [["Archon", "Sgt. Rock"], ["Sgt. Rock", "Archon"]])
def test_the_file_fixes_the_new_decks_order_whatever_the_seed(order):
    doc = _doc()
    doc["npc_reshuffles"] = [order]
    for seed in (1, 7, 99):
        t = _run(doc, seed=seed)
        step = _reshuffle(t)
        assert step.facts == {"pile": ["Archon", "Sgt. Rock"], "deck": order}
        assert "the order the file gives, npc_reshuffles[0]" in step.detail and "seed" not in step.detail
        assert f"Marine (Alpha Agent) draws {order[0]} from the top of the NPC deck" in [s.title for s in t.steps]
        assert t.result.to_json()["positions"][order[0]] == "4,1"


def test_without_an_entry_the_seed_still_decides():
    doc = _doc()
    assert _reshuffle(_run(doc)).facts == _reshuffle(resolve("gd-round-npc-reshuffle")).facts
    assert "shuffled from seed 7, reshuffle 1" in _reshuffle(_run(doc)).detail


@pytest.mark.parametrize("order, words", [
    (["Archon"], "Archon is not the NPC discard pile (Archon, Sgt. Rock) of reshuffle 1"),
    (["Sgt. Rock"], "Sgt. Rock is not the NPC discard pile (Archon, Sgt. Rock) of reshuffle 1"),
])
def test_an_order_that_is_not_the_pile_is_refused_in_one_line(order, words):
    doc = _doc()
    doc["npc_reshuffles"] = [order]
    with pytest.raises(ScenarioError) as e:
        _run(doc)
    msg = str(e.value)
    assert e.value.field == "npc_reshuffles[0]" and words in msg and "\n" not in msg
    assert msg.startswith("r.toml: field 'npc_reshuffles[0]': ")
    assert "(allowed: the pile's cards, each once, in the new deck's order (top first))" in msg


@pytest.mark.parametrize("order, allowed", [(["Archon", "Archon"], "each once"), (["Zorg"], "[[npc_discard]]")])
def test_unknown_or_repeated_names_are_refused_at_load(order, allowed):
    doc = _doc()
    doc["npc_reshuffles"] = [order]
    with pytest.raises(ScenarioError) as e:
        _run(doc)
    assert e.value.field == "npc_reshuffles[0]" and allowed in str(e.value)


def test_an_entry_for_a_reshuffle_that_never_comes_is_refused():
    doc = _doc()
    doc["npc_reshuffles"] = [["Archon", "Sgt. Rock"], ["Archon"]]
    with pytest.raises(ScenarioError) as e:
        _run(doc)
    assert e.value.field == "npc_reshuffles[1]" and "reshuffled 1 time in this round" in str(e.value)
    assert "at most 1 entry" in str(e.value)


def test_the_field_is_bounded_and_needs_a_map():
    doc = _doc()
    doc["npc_reshuffles"] = [["Archon"]] * 21
    with pytest.raises(ScenarioError, match="npc_reshuffles"):
        _run(doc)
    doc["npc_reshuffles"] = [[]]
    with pytest.raises(ScenarioError, match=r"npc_reshuffles\[0\]"):
        _run(doc)
    doc = {"game": "galaxydefenders", "kind": "round", "agents": [{"name": "Marine"}],
           "npc_reshuffles": [["Archon"]]}
    with pytest.raises(ScenarioError, match="npc_reshuffles"):
        _run(doc)


@settings(max_examples=15, deadline=None)
@given(data=st.data(), extra=st.integers(0, 3))
def test_any_permutation_of_the_pile_is_the_new_deck(data, extra):
    doc = _doc()
    doc["npc_discard"] += [{"name": f"Drone {k}", "health": 3} for k in range(extra)]
    pile = ["Archon"] + [f"Drone {k}" for k in range(extra)] + ["Sgt. Rock"]
    order = data.draw(st.permutations(pile))
    doc["npc_reshuffles"] = [list(order)]
    t = _run(doc, seed=data.draw(st.integers(0, 10**6)))
    assert _reshuffle(t).facts == {"pile": pile, "deck": list(order)}
    assert t.result.to_json()["positions"][order[0]] == "4,1"
