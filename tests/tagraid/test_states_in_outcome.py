"""The States an attack causes are part of every TAG Raid outcome: ``explorer resolve``'s text (the scenario note
shows the same text) and the Face to Face page's headline list the States gained, for every built-in scenario whose
attacks can cause one (newcomer finding: TR-20 asks whether T becomes Slowed; its text ended "Wounds lost: none")."""

from __future__ import annotations

import html

import pytest

from explorer.games import get_game, read_toml
from explorer.games.tagraid.game import outcome_text, states_text

GAME = get_game("tagraid")


def _with_states():
    out = []
    for name in GAME.builtin_names():
        trace = GAME.resolve(GAME.load_builtin(name))
        if "states" in trace.outcome:
            out.append((name, trace))
    return out


WITH_STATES = _with_states()


def test_some_built_in_causes_a_state():
    assert any(any(v for v in t.outcome["states"].values()) for _n, t in WITH_STATES)


@pytest.mark.parametrize("name, trace", WITH_STATES, ids=[n for n, _t in WITH_STATES])
def test_the_text_outcome_lists_every_state_gained(name, trace):
    text = outcome_text(trace)
    entered = {k: v for k, v in trace.outcome["states"].items() if v}
    if not entered:
        assert "States gained: none" in text
    for who, states in entered.items():
        line = next(x for x in text.splitlines() if "States gained:" in x)
        assert who in line and all(s in line for s in states), (name, text)


@pytest.mark.parametrize("name, trace", WITH_STATES, ids=[n for n, _t in WITH_STATES])
def test_the_face_to_face_page_headline_lists_the_states_gained(name, trace):
    if str(read_toml(name, text=GAME.scenario_text(name)).get("kind", "")) != "":
        pytest.skip("not a Face to Face scenario")
    from explorer.games.tagraid.views import explorer_for_scenario

    w = explorer_for_scenario(name)
    assert f"States gained: {states_text(trace.result.states)}" in html.unescape(w.summary.value), name


def test_states_text_shapes():
    assert states_text(None) is None
    assert states_text({}) == states_text({"T": ()}) == "none"
    assert states_text({"T": ("Slowed", "Stunned"), "B": ("Immobilized",)}) == \
        "T Slowed, Stunned; B Immobilized"
