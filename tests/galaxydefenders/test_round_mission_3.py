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
    assert ev and all(s.rule in (S.SPECIAL_MISSION_RULES, S.SPECIAL_EVENT_EFFECTS) for s in ev)
    assert any("All Signals move 1 Area toward the closest agent" in s.title for s in ev)
    assert not any(s.title.endswith("is drawn") for s in ev)
