"""A round's ``[mission]`` table for Storybook Mission 2 (Underground Tremor): what ``drawn`` may say against the
probe counters.

Mission 2's special rule skips the Event phase until an Underground Probe is deployed over Waypoint 1 (Storybook 2.3),
so an Event card drawn before this round means a probe reached Waypoint 1 earlier. A deployed probe leaves its
Waypoint only by Special Event B (it removes the probe over Waypoint 1) or, from the round after B, by the Diggers
destroying it (B's added rule gives deployed probes Health points; Storybook 2.5). Session 13 refused a contradictory
``drawn`` only for counters that never fall (Mission 3's Bombs), so a Mission 2 file saying Event cards were drawn while
no probe is on Waypoint 1 and B was not drawn yet was accepted.
"""

from __future__ import annotations

import tomllib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_hostile_files import to_toml

from explorer.errors import RuleViolation, ScenarioError
from explorer.games import get_game, load_any
from explorer.games.galaxydefenders.missions import storybook_missions

GAME = get_game("galaxydefenders")


def _run(mission: dict):
    doc = tomllib.loads(GAME.scenario_text("gd-round-mission"))
    doc["mission"] = {"mission": 2, **mission}
    _, sc = load_any("m2.toml", text=to_toml(doc))
    return GAME.resolve(sc)


def test_cards_drawn_with_no_probe_on_waypoint_1_before_special_event_b_are_refused():
    # D is Mission 2's 1st Event card: one card drawn means the skip rule ended, so a probe reached Waypoint 1, and
    # nothing takes it off before Special Event B (the 5th card)
    with pytest.raises(ScenarioError) as e:
        _run({"drawn": 1, "counters": {"probes_on_waypoint_1": 0}, "event": ""})
    assert e.value.field == "mission.drawn"
    assert "probes_on_waypoint_1" in str(e.value) and "Special Event B" in str(e.value)
    with pytest.raises(ScenarioError) as e:      # the same with D listed in earlier
        _run({"drawn": 3, "earlier": ["D"], "event": ""})
    assert e.value.field == "mission.drawn"


def test_after_special_event_b_the_probe_may_be_gone():
    # B (the 5th card) removed the probe over Waypoint 1: the Event phase is no longer skipped (it has ended)
    t = _run({"drawn": 5, "counters": {"probes_on_waypoint_1": 0}, "event": ""})
    assert any(s.title == "A standard Event card is drawn" for s in t.steps)
    t = _run({"drawn": 3, "counters": {"probes_on_waypoint_1": 1}, "event": ""})
    assert any(s.title == "A standard Event card is drawn" for s in t.steps)


def test_a_mission_scenario_refuses_a_probe_leaving_its_waypoint_before_special_event_b():
    """The same reading in a ``mission`` scenario: a declared fall of a probe counter needs B drawn in an earlier
    round (2.5: B's rule gives the probes Health points 'starting with the next round')."""
    doc = {"game": "galaxydefenders", "kind": "mission", "mission": 2,
           "rounds": [{"counters": {"probes_on_waypoint_1": 1}, "event": "D"},
                      {"counters": {"probes_on_waypoint_1": 0}, "event": ""}]}
    _, sc = load_any("m2.toml", text=to_toml(doc))
    with pytest.raises(RuleViolation) as e:
        GAME.resolve(sc)
    assert e.value.field == "rounds[1].counters.probes_on_waypoint_1" and "Special Event B" in str(e.value)


@settings(max_examples=40, deadline=None)
@given(drawn=st.integers(0, 7), probe=st.integers(0, 1), earlier_b=st.booleans())
def test_drawn_is_refused_exactly_when_no_probe_could_have_left_waypoint_1(drawn, probe, earlier_b):
    """Any ``drawn``: refused at ``mission.drawn`` exactly when an Event card was drawn, B was not (by place: the 5th,
    or listed in ``earlier``) and no probe is on Waypoint 1; else the round plays."""
    earlier = ["B"] if earlier_b and drawn >= 2 else []
    m = storybook_missions()[2]
    b_before = "B" in earlier or drawn >= m.span("B")[0]
    contradictory = drawn > 0 and not b_before and probe == 0
    mission = {"drawn": drawn, "earlier": earlier, "counters": {"probes_on_waypoint_1": probe}, "event": ""}
    try:
        _run(mission)
    except RuleViolation as e:      # a card the deck's place calls for (D is the 1st): a rule of play, not drawn
        assert e.field != "mission.drawn", str(e)
        return
    except ScenarioError as e:
        assert contradictory and e.field == "mission.drawn", str(e)
        return
    assert not contradictory
