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
