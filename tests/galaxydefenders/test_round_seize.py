"""An agent's Seize in a round (issue 21, item f; 7.3): a Free Action during the movement, one agent per turn, an
Immobilized, Paralyzed or Bleeding agent, by an agent with the Seize power or in a Power Suit that gives it."""

from __future__ import annotations

import pytest
from test_hostile_files import to_toml

from explorer.errors import RuleViolation, ScenarioError
from explorer.games import load_any

from .helpers import resolve

HULK = {"name": "Hulk", "seize_power": True}
BIO = {"name": "Biotech", "health": 7, "wounds": 7}
MARINE = {"name": "Marine", "paralyzed": True}


def _run(agents, acts, suit=None):
    doc = {"game": "galaxydefenders", "kind": "round", "agents": agents,
           "turns": [{"agent": agents[0]["name"], "activities": acts}]}
    if suit:
        doc["power_suit"] = suit
    game, sc = load_any("r.toml", text=to_toml(doc))
    return game.resolve(sc)


def test_the_built_in_round():
    t = resolve("gd-round-seize")
    step = next(s for s in t.steps if s.rule.section == "7.3 Seize")
    assert step.title == "Hulk seizes Biotech (Bleeding, Immobilized)"
    assert "free_action [seizes Biotech]" in t.result.turns[0].activities


def test_a_paralyzed_agent_and_seize_before_the_move():
    t = _run([HULK, MARINE], [{"kind": "free_action", "seize": "Marine"}, {"kind": "move"}])
    assert any(s.title == "Hulk seizes Marine (Paralyzed)" for s in t.steps)


@pytest.mark.parametrize("agents, acts, words", [
    ([{"name": "Hulk"}, BIO], [{"kind": "move"}, {"kind": "free_action", "seize": "Biotech"}], "no Seize power"),
    ([HULK, {"name": "Biotech"}], [{"kind": "move"}, {"kind": "free_action", "seize": "Biotech"}],
     "cannot be seized"),
    ([HULK, BIO], [{"kind": "action"}, {"kind": "free_action", "seize": "Biotech"}], "outside its movement"),
    ([HULK, BIO, MARINE], [{"kind": "move"}, {"kind": "free_action", "seize": "Biotech"},
                           {"kind": "free_action", "seize": "Marine"}, {"kind": "move"}], "one per turn"),
    ([HULK, BIO], [{"kind": "move"}, {"kind": "free_action", "seize": "Hulk"}], "itself"),
])
def test_refusals_cite_7_3(agents, acts, words):
    with pytest.raises(RuleViolation) as e:
        _run(agents, acts)
    assert e.value.section == "7.3 Seize" and words in e.value.reason


def test_the_power_suit_gives_seize_only_when_its_sheet_does():
    acts = [{"kind": "move"}, {"kind": "free_action", "seize": "Biotech"}]
    hulk = {"name": "Hulk"}
    t = _run([hulk, BIO], acts, {"batteries": 2, "equipped_by": "Hulk", "seize": True})
    assert any("The Seize ability is the Power Suit's." in s.detail for s in t.steps)
    with pytest.raises(RuleViolation):
        _run([hulk, BIO], acts, {"batteries": 2, "equipped_by": "Hulk"})


@pytest.mark.parametrize("act, field", [
    ({"kind": "action", "seize": "Biotech"}, "turns[0].activities[0].seize"),
    ({"kind": "free_action", "seize": "Nobody"}, "turns[0].activities[0].seize"),
])
def test_file_refusals(act, field):
    with pytest.raises(ScenarioError) as e:
        _run([HULK, BIO], [act])
    assert e.value.field == field
