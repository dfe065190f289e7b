"""The Menace token in a round (issue 21, item e in part; 11.3.1): Actions spent on it by the Menacing Agent and by
other agents, each refusal citing the section."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_hostile_files import to_toml

from explorer.errors import RuleViolation, ScenarioError
from explorer.games import load_any

from .helpers import resolve

AGENTS = [{"name": "Marine"}, {"name": "Hulk"}]


def _run(turns, **ma):
    doc = {"game": "galaxydefenders", "kind": "round", "agents": AGENTS, "master_alien": ma, "turns": turns}
    game, sc = load_any("r.toml", text=to_toml(doc))
    return game.resolve(sc)


def test_the_built_in_round():
    t = resolve("gd-round-menace")
    assert (t.result.menace.holder, t.result.menace.level) == ("Biotech", 1)
    assert t.outcome["menace"] == {"holder": "Biotech", "level": 1}
    assert [s.rule.section for s in t.steps].count("11.3.1 Fighting Master Aliens [Menacing Agent System]") == 2


def test_the_alpha_agent_holds_it_by_default():
    t = _run([])
    assert (t.result.menace.holder, t.result.menace.level) == ("Marine", 1)


@pytest.mark.parametrize("holder, level, agent, what, words", [
    ("Hulk", 1, "Marine", "raise", "only the Menacing Agent"),
    ("Hulk", 2, "Hulk", "raise", "already at Level 2"),
    ("Hulk", 1, "Hulk", "lower", "already at Level 1"),
    ("Hulk", 1, "Marine", "lower", "already at Level 1"),
    ("Hulk", 2, "Marine", "take", "lowered to Level 1"),
    ("Hulk", 1, "Hulk", "take", "already holds"),
])
def test_refusals(holder, level, agent, what, words):
    with pytest.raises(RuleViolation) as e:
        _run([{"agent": agent, "activities": [{"kind": "action", "menace": what}]}], holder=holder, level=level)
    assert e.value.section == "11.3.1 Fighting Master Aliens [Menacing Agent System]" and words in e.value.reason


def test_file_refusals():
    with pytest.raises(ScenarioError) as e:
        _run([{"agent": "Hulk", "activities": [{"kind": "move", "menace": "take"}]}])
    assert e.value.field == "turns[0].activities[0].menace"
    with pytest.raises(ScenarioError) as e:
        _run([], holder="Nobody")
    assert e.value.field == "master_alien.holder"


@settings(max_examples=50, deadline=None)
@given(st.sampled_from(["Marine", "Hulk"]), st.integers(1, 2),
       st.lists(st.sampled_from(["raise", "lower", "take"]), min_size=2, max_size=2))
def test_the_token_changes_agents_only_at_level_1(holder, level, whats):
    """Oracle apart from the engine: the two agents' Actions in turn order (Marine, then Hulk)."""
    h, lv, ok = holder, level, True
    for agent, what in zip(["Marine", "Hulk"], whats):
        mine = agent == h
        if what == "raise":
            ok = ok and mine and lv == 1
            lv = 2 if ok else lv
        elif what == "lower":
            ok = ok and lv == 2
            lv = 1 if ok else lv
        else:
            ok = ok and not mine and lv == 1
            h = agent if ok else h
    turns = [{"agent": a, "activities": [{"kind": "action", "menace": w}]} for a, w in zip(["Marine", "Hulk"], whats)]
    try:
        t = _run(turns, holder=holder, level=level)
    except RuleViolation:
        assert not ok
        return
    assert ok and (t.result.menace.holder, t.result.menace.level) == (h, lv)
