"""NPC Tactics in a round (issue 21, item d; 10.3): Purple (Passive) any time, Red (Attack) only during the NPC's
activation, Blue (Reaction) only outside it; discarded once used, not regained this mission."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_hostile_files import to_toml

from explorer.errors import RuleViolation, ScenarioError
from explorer.games import load_any

from .helpers import resolve


def _run(tactic, acts, **npc):
    doc = {"game": "galaxydefenders", "kind": "round", "agents": [{"name": "Marine"}],
           "npcs": [{"name": "Rock", "controller": "Marine", **({"tactic": tactic} if tactic else {}), **npc}],
           "turns": [{"agent": "Marine", "activities": acts}]}
    game, sc = load_any("r.toml", text=to_toml(doc))
    return game.resolve(sc)


DURING = [{"kind": "activate_npc", "npc": "Rock", "tactic": True}]
OUTSIDE = [{"kind": "npc_tactic", "npc": "Rock"}, {"kind": "activate_npc", "npc": "Rock"}]


def test_the_built_in_round():
    t = resolve("gd-round-npc-tactics")
    assert t.result.npc_tactics == (("Sgt. Rock", "attack", True), ("Knight", "reaction", True))
    assert t.outcome["npc_tactics"]["Knight"] == {"tactic": "reaction", "used": True}
    assert "NPC Tactics used: Sgt. Rock, Knight" in t.result.summary
    assert [s.rule.section for s in t.steps].count("10.3 NPC Tactic") == 2


@pytest.mark.parametrize("tactic, acts, ok", [
    ("passive", DURING, True), ("passive", OUTSIDE, True),
    ("attack", DURING, True), ("attack", OUTSIDE, False),
    ("reaction", DURING, False), ("reaction", OUTSIDE, True),
])
def test_each_colour_has_its_timing(tactic, acts, ok):
    if ok:
        t = _run(tactic, acts)
        assert t.result.npc_tactics == (("Rock", tactic, True),)
    else:
        with pytest.raises(RuleViolation) as e:
            _run(tactic, acts)
        assert e.value.section == "10.3 NPC Tactic" and ("during" if tactic == "attack" else "outside") in \
            e.value.reason


def test_used_once_per_mission_and_not_by_a_dead_npc():
    with pytest.raises(RuleViolation) as e:
        _run("passive", DURING, tactic_used=True)
    assert "not regained" in e.value.reason
    with pytest.raises(RuleViolation) as e:
        _run("passive", [{"kind": "npc_tactic", "npc": "Rock"}, {"kind": "npc_tactic", "npc": "Rock"},
                         {"kind": "activate_npc", "npc": "Rock"}])
    assert e.value.rejection.field == "turns[0].activities[1].npc"
    t = _run("attack", DURING, paralyzed=True)      # the file's Paralyzed token goes in the Refresh phase first
    assert t.result.npc_tactics == (("Rock", "attack", True),)
    with pytest.raises(RuleViolation) as e:
        _run("attack", DURING, wounds=5)
    assert e.value.section == "10.3 NPC Tactic" and "dead" in e.value.reason
    with pytest.raises(RuleViolation) as e:
        _run("passive", OUTSIDE, wounds=5)
    assert e.value.section == "10.4 NPC Health Status"


def test_no_tactic_token():
    with pytest.raises(RuleViolation) as e:
        _run(None, DURING)
    assert "no NPC Tactic" in e.value.reason


def test_an_npc_tactic_between_activities_is_not_an_agent_activity():
    t = _run("reaction", [{"kind": "activate_npc", "npc": "Rock"}, {"kind": "move"},
                          {"kind": "npc_tactic", "npc": "Rock"}, {"kind": "action"}])
    assert t.result.npc_tactics[0][2] is True


@pytest.mark.parametrize("acts, field", [
    ([{"kind": "move", "tactic": True}], "turns[0].activities[0].tactic"),
    ([{"kind": "npc_tactic"}], "turns[0].activities[0].npc"),
])
def test_file_refusals(acts, field):
    with pytest.raises(ScenarioError) as e:
        _run("passive", acts)
    assert e.value.field == field


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["passive", "attack", "reaction"]), st.lists(st.booleans(), min_size=1, max_size=3))
def test_a_tactic_is_used_at_most_once(tactic, uses):
    """Each entry: use the Tactic during the activation (True) or outside it (False); only the first legal use can
    pass, and any second use is refused."""
    acts = [{"kind": "npc_tactic", "npc": "Rock"} for u in uses if not u]
    acts += [{"kind": "activate_npc", "npc": "Rock", "tactic": any(uses)}]
    fits = {"passive": {True, False}, "attack": {True}, "reaction": {False}}[tactic]
    n_outside, n_during = uses.count(False), int(any(uses))
    ok = n_outside + n_during == 1 and ((n_outside and False in fits) or (n_during and True in fits))
    try:
        t = _run(tactic, acts)
    except RuleViolation:
        assert not ok
        return
    assert ok and t.result.npc_tactics[0][2]
