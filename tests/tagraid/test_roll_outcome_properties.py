"""Every roll exchange a file can declare (each Skill and ARO, split Bursts, Evade, the MegaBeast with and without
ARO, Weapons that cause States, every ruling reading) goes through the typed outcome, the outcome text,
``trace.to_json()`` and the Face to Face page builders without an exception, and the JSON outcome is the typed
outcome's ``to_json()``."""

from __future__ import annotations

import json
from dataclasses import FrozenInstanceError

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from explorer.games import get_game
from explorer.games.tagraid.resolve import ROLL_STEPS, RollOutcome, RollState, resolve_detailed
from explorer.games.tagraid.views import (FaceToFaceExplorer, die_states, exchange_headline_html, exchange_html,
                                          exchange_tray_model)
from explorer.kernel import is_frozen_state, is_plain_step_function

from test_properties import scenarios

GAME = get_game("tagraid")


@st.composite
def exchanges(draw):
    """A random exchange of :func:`test_properties.scenarios`, with Weapons that may cause a State."""
    sc, rulings = draw(scenarios())
    if draw(st.booleans()):
        slowed = {"states": ["Slowed"]}
        a = sc.active
        if a.weapon is not None:
            a = a.model_copy(update={"weapon": a.weapon.model_copy(update=slowed)})
        reactive = [m.model_copy(update={"weapon": m.weapon.model_copy(update=slowed)}) if m.weapon else m
                    for m in sc.reactive]
        sc = sc.model_copy(update={"active": a, "reactive": reactive})
    rulings = {**rulings, **{k: draw(st.sampled_from(v)) for k, v in (
        ("state_on_death", ["cleared", "applies_after_respawn"]),
        ("megabeast_states", ["not_affected", "affected"]),
        ("teseum_per_wound", ["every_point", "on_death"]),
        ("megabeast_no_aro", ["threat_level", "normal_roll"]))}}
    return sc, rulings


PROP = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@PROP
@given(exchanges())
def test_every_exchange_goes_through_text_json_and_the_page_builders(case):
    sc, rulings = case
    res = resolve_detailed(sc, rulings=rulings)
    t = res.trace
    assert isinstance(t.result, RollOutcome) and res.outcome is t.result
    assert json.loads(t.to_json())["outcome"] == t.result.to_json() == t.outcome
    text = GAME.outcome_text(t)
    assert text.startswith("Outcome:") and "Wounds lost:" in text
    assert ("States gained:" in text) == (t.result.states is not None)
    doc = sc.model_dump(exclude_none=True)
    rows, _links = exchange_tray_model(res, doc)
    assert len(rows) >= len(res.miners)
    assert "f2f-result" in exchange_headline_html(res) and "f2f-exchange-row" in exchange_html(doc, res)
    assert set(die_states(res)) >= {i for m in res.miners.values() for p in m.pools for i in p.ids}


_PAGE: list[FaceToFaceExplorer] = []


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(exchanges())
def test_the_face_to_face_page_opens_every_exchange(case):
    sc, _rulings = case
    if not _PAGE:
        _PAGE.append(FaceToFaceExplorer(seed=1))
    w = _PAGE[0]
    w.load_document(sc.model_dump(exclude_none=True), "property test")
    assert w.message.value == "" and w.resolution is not None
    assert w.resolution.trace.outcome == w.resolution.outcome.to_json()


def test_the_roll_resolution_is_a_sequence_of_plain_steps_over_a_frozen_state():
    assert GAME.sequences()["roll resolution"] is ROLL_STEPS
    assert all(is_plain_step_function(fn) for _name, fn in ROLL_STEPS)
    res = resolve_detailed(GAME.load_builtin("book-two-f2f"))
    assert is_frozen_state(res) and is_frozen_state(res.outcome) and all(is_frozen_state(p) for p in res.pairs)
    with pytest.raises(FrozenInstanceError):
        res.pairs[0].a.ids = ()  # type: ignore[misc]
    assert is_frozen_state(RollState(GAME.load_builtin("book-f2f-1v1").active))


def test_the_frames_replay_the_resolution_step_by_step():
    from explorer.games.tagraid.resolve import roll_frames
    from explorer.kernel import steps_of

    sc = GAME.load_builtin("book-stoorworm")
    frames = roll_frames(sc)
    assert [f.name for f in frames] == [name for name, _fn in ROLL_STEPS]
    assert list(steps_of(frames)) == resolve_detailed(sc).trace.steps
    # going back: the first steps replayed give the same frames; the Rolls step holds the dice it rolled
    back = roll_frames(sc, upto=6)
    assert back == frames[:6] and back[-1].state.pools and frames[4].state.pools == ()
    assert frames[-1].state.megabeast.wounds_lost == resolve_detailed(sc).megabeast.wounds_lost
