"""10.1.1.1 Twins in Arms [Optional rule=OFF]: with the rule OFF the NPC version of every playable agent in play is
removed from the NPC deck (drones excepted: multiples can always be present); ON, every NPC is used. A round's NPC card
names the agent it is the "ally" version of (``twin_of``); before session 14 no file could say it, so a deck holding
the NPC twin of an agent in play was played as if the optional rule were ON."""

from __future__ import annotations

import pytest
from test_hostile_files import to_toml

from explorer.errors import ScenarioError
from explorer.games import load_any


def _doc(twins: bool | None = None, where: str = "npc_deck", drone: bool = False) -> dict:
    doc = {"game": "galaxydefenders", "kind": "round", "agents": [{"name": "Marine"}, {"name": "Biotech"}],
           "turns": [{"agent": "Marine", "activities": [{"kind": "move"}]}]}
    card = {"name": "Marine (NPC)", "twin_of": "Marine", "drone": drone}
    if where == "npcs":
        doc["npcs"] = [{**card, "controller": "Biotech"}]
    else:
        doc[where] = [card]
    if twins is not None:
        doc["twins_in_arms"] = twins
    return doc


def _load(doc):
    return load_any("r.toml", text=to_toml(doc))


@pytest.mark.parametrize("where", ["npc_deck", "npc_discard", "npcs"])
def test_the_npc_twin_of_an_agent_in_play_is_refused_while_the_rule_is_off(where):
    with pytest.raises(ScenarioError) as e:
        _load(_doc(where=where))
    assert e.value.field == f"{where}[0].twin_of"
    assert "10.1.1.1" in str(e.value) and "Marine" in str(e.value) and "twins_in_arms = true" in str(e.value)


def test_the_rule_on_a_drone_or_an_agent_not_in_play_allow_it():
    _load(_doc(twins=True, where="npcs"))
    _load(_doc(drone=True, where="npcs"))
    doc = _doc(where="npcs")
    doc["npcs"][0]["twin_of"] = "Sniper"
    _load(doc)


def test_twin_of_names_a_playable_agent_not_itself():
    doc = _doc(twins=True)
    doc["npc_deck"][0]["twin_of"] = "Marine (NPC)"
    with pytest.raises(ScenarioError) as e:
        _load(doc)
    assert e.value.field == "npc_deck[0].twin_of"
