"""The Mission 3 round built-in (``gd-round-mission-3``): Storybook Mission 3's special rule replaces the Event
phase until the first two EMP-Nuke Bombs are detonated; the round that detonates them draws Special Event A, the
mission's 1st Event card. The map is an editable default (the setup diagram is not in the text)."""

from __future__ import annotations

import tomllib

from test_hostile_files import to_toml

from explorer.games import get_game, load_any
from explorer.games.galaxydefenders import sections as S

from .helpers import resolve

GAME = get_game("galaxydefenders")


def _doc() -> dict:
    return tomllib.loads(GAME.scenario_text("gd-round-mission-3"))


def _run(doc: dict):
    _, sc = load_any("r.toml", text=to_toml(doc))
    return GAME.resolve(sc)


def test_the_round_that_detonates_two_bombs_draws_special_event_a():
    t = resolve("gd-round-mission-3")
    out = t.result.to_json()
    assert out["mission"] == {"status": None, "row": None, "next": None}
    titles = [s.title for s in t.steps]
    assert "Special Event A is drawn" in titles
    assert "Biotech: Action (Detonate the EMP-Nuke Bomb)" in titles
    assert "Marine: Action (Deploy an EMP-Nuke Bomb)" in titles
    assert out["positions"]["Marine"] == "4,1" and out["agents"]["Marine"]["wounds"] == 0
    assert "the mission: goes on" in out["summary"]


def test_the_map_is_said_to_be_an_editable_default():
    text = GAME.scenario_text("gd-round-mission-3")
    assert "EDITABLE DEFAULT" in text and "pages 18-19" in text
    assert "EDITABLE DEFAULT, not the book's data: the map" in _doc()["description"]


def test_before_the_bombs_are_detonated_the_event_phase_moves_signals_instead():
    doc = _doc()
    doc["mission"] = {"mission": 3, "drawn": 0, "counters": {"bombs_detonated": 0}, "event": ""}
    t = _run(doc)
    ev = [s for s in t.steps if s.section.startswith("Mission: Event phase")]
    # the replacement's own effects are the special rule's (2.3), not a special event card's (2.5; session 13)
    assert ev and all(s.rule == S.SPECIAL_MISSION_RULES for s in ev)
    assert any("All Signals move 1 Area toward the closest agent" in s.title for s in ev)
    assert not any(s.title.endswith("is drawn") for s in ev)


# ------------------------------------------------------------------ an Event card the mission does not allow there
# (session 13: a [mission] event naming Special Event A while Mission 3's special rule still replaced the Event phase
# was silently ignored: the round played the replacement's effects and never said the file's card was not drawn)

import pytest  # noqa: E402
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from explorer.errors import RuleViolation, ScenarioError  # noqa: E402
from explorer.games.galaxydefenders.missions import parse_mission, resolve_mission  # noqa: E402


def _with_mission(table: dict):
    doc = _doc()
    doc["mission"] = {"mission": 3, **table}
    return _run(doc)


@pytest.mark.parametrize("bombs, card", [(0, "A"), (1, "A"), (1, "E"), (0, "B")])
def test_a_card_named_while_the_special_rule_replaces_the_event_phase_is_refused(bombs, card):
    with pytest.raises(RuleViolation) as e:
        _with_mission({"drawn": 0, "counters": {"bombs_detonated": bombs}, "event": card})
    msg = str(e.value)
    assert e.value.field == "mission.event" and "\n" not in msg
    assert msg.startswith("r.toml: field 'mission.event': ")
    assert f"not Special Event {card}" in msg and "bombs_detonated >= 2" in msg
    assert "(allowed: one of ''; see Galaxy Defenders: Storybook 2.3 Special Mission Rules)" in msg
    assert e.value.rule == S.SPECIAL_MISSION_RULES


def test_the_same_in_a_mission_scenario_and_for_mission_2s_skipped_event_phase():
    for n, counters in ((3, {"bombs_detonated": 1}), (2, {})):
        sc = parse_mission({"game": "galaxydefenders", "kind": "mission", "mission": n,
                            "rounds": [{"counters": counters, "event": "A" if n == 3 else "D"}]}, "m.toml")
        with pytest.raises(RuleViolation) as e:
            resolve_mission(sc)
        assert e.value.field == "rounds[0].event" and "allowed: one of ''" in str(e.value)
        assert e.value.rule == S.SPECIAL_MISSION_RULES


def test_the_special_rules_end_is_the_23_step_that_makes_the_event_phase_draw_special_event_a():
    """Which section decides that round 3 draws Special Event A: Mission 3's special rule (Storybook 2.3: "starting
    with the Event phase after the Battle phase in which the two Bombs are detonated, draw the top Event card as
    normal") ends, in a step of its own; the card drawn then reads its effects' column by 2.5."""
    t = resolve("gd-round-mission-3")
    ev = [s for s in t.steps if s.section == "Mission: Event phase"]
    assert ev[0].rule == S.SPECIAL_MISSION_RULES and "no longer replaces the Event phase" in ev[0].title
    assert "bombs_detonated >= 2" in ev[0].title and ev[0].facts == {"rule_ended": "replace_event_phase"}
    assert ev[1].title == "Special Event A is drawn" and ev[1].rule == S.SPECIAL_EVENT_EFFECTS
    assert "leftmost column" in ev[1].detail
    # the end is said once: a later round (A drawn before) draws without it
    doc = _doc()
    doc["mission"] = {"mission": 3, "drawn": 1, "earlier": ["A"], "counters": {"bombs_detonated": 2}, "event": "E"}
    titles = [s.title for s in _run(doc).steps if s.section == "Mission: Event phase"]
    assert titles[0] == "Special Event E is drawn"


def test_cards_drawn_before_the_bombs_detonate_are_refused():
    with pytest.raises(ScenarioError) as e:
        _with_mission({"drawn": 2, "counters": {"bombs_detonated": 1}, "event": ""})
    assert e.value.field == "mission.drawn" and "allowed: 0 until bombs_detonated >= 2" in str(e.value)
    assert "never falls" in str(e.value)


def test_the_decks_places_decide_what_came_before_whatever_earlier_lists():
    # A is the 1st Event card: one card drawn before means A was drawn (its second draw is refused) ...
    with pytest.raises(RuleViolation) as e:
        _with_mission({"drawn": 1, "counters": {"bombs_detonated": 2}, "event": "A"})
    assert "Special Event A was already drawn" in str(e.value) and "allowed: one of 'E'" in str(e.value)
    # ... and E, the 2nd, comes next, earlier listing A or not
    for earlier in ([], ["A"]):
        t = _with_mission({"drawn": 1, "earlier": earlier, "counters": {"bombs_detonated": 2}, "event": "E"})
        assert "Special Event E is drawn" in [s.title for s in t.steps]
    # the order earlier lists them in does not matter: after A and E the 3rd card is B
    with pytest.raises(RuleViolation) as e:
        _with_mission({"drawn": 2, "earlier": ["E", "A"], "counters": {"bombs_detonated": 2}, "event": ""})
    assert "the 3rd Event card of mission 3 is Special Event B" in str(e.value)
    assert "allowed: one of 'B'" in str(e.value)
    # a card listed before its place is refused
    with pytest.raises(ScenarioError) as e:
        _with_mission({"drawn": 1, "earlier": ["B"], "counters": {"bombs_detonated": 2}, "event": ""})
    assert e.value.field == "mission.earlier" and "3rd Event card of mission 3" in str(e.value)


@settings(max_examples=60, deadline=None)
@given(drawn=st.integers(0, 3), bombs=st.integers(0, 4), card=st.sampled_from(["", "A", "E", "B"]))
def test_a_named_card_is_never_silently_ignored(drawn, bombs, card):
    """Any Mission 3 [mission] table: the round either plays the card the file names (a special event's 'is drawn'
    step; a standard card's step) or refuses in one line naming a mission field and what it allows."""
    try:
        t = _with_mission({"drawn": drawn, "counters": {"bombs_detonated": bombs}, "event": card})
    except ScenarioError as e:
        assert e.field.startswith("mission.") and "allowed: " in str(e) and "\n" not in str(e)
        return
    titles = [s.title for s in t.steps if s.section == "Mission: Event phase"]
    if card:
        assert f"Special Event {card} is drawn" in titles
    else:
        assert not any(x.startswith("Special Event") for x in titles)


def test_an_event_table_while_the_rule_replaces_the_event_phase_draws_no_card():
    """[event] (6.3: the Event card drawn, the signals it teleports) in a round whose Event phase Mission 3's rule
    still replaces: no card is drawn (a 2.3 step says so) and the balancer counts the rule's Teleport Signals; once
    the rule has ended the Alpha Agent draws the card as before."""
    doc = _doc()
    doc["event"] = {"aliens": 1}
    doc["mission"] = {"mission": 3, "drawn": 0, "counters": {"bombs_detonated": 0}, "event": ""}
    ev = [s for s in _run(doc).steps if s.section == "Event phase"]
    assert ev[0].rule == S.SPECIAL_MISSION_RULES and ev[0].title.startswith("No Event card is drawn: mission 3's")
    assert not any("draws the Event card" in s.title for s in ev)
    assert ev[-1].title == "Teleport 1 signal: 2 agents - 1 aliens"
    doc["mission"] = {"mission": 3, "drawn": 0, "counters": {"bombs_detonated": 2}, "event": "A"}
    ev = [s for s in _run(doc).steps if s.section == "Event phase"]
    assert ev[0].title == "Marine (Alpha Agent) draws the Event card" and ev[0].rule == S.EVENT_PHASE


def test_an_event_table_while_mission_2_skips_the_event_phase_is_refused():
    doc = _doc()
    doc["event"] = {"aliens": 1}
    doc["mission"] = {"mission": 2, "drawn": 0, "event": ""}
    with pytest.raises(RuleViolation) as e:
        _run(doc)
    assert e.value.field == "event" and "skips this Event phase" in str(e.value)
    assert "allowed: no [event] table until the rule's condition holds" in str(e.value)
    doc["mission"] = {"mission": 2, "drawn": 0, "counters": {"probes_on_waypoint_1": 1}, "event": "D"}
    assert any(s.title == "Special Event D is drawn" for s in _run(doc).steps)
