"""Respawn places a Miner in contact with its Access Point, never on it (Respawn; Game Sequence › Initial
Deployment; Silhouette Contact; Move: no Model stands on top of a Token) — the rule Initial Deployment follows
(:mod:`explorer.games.tagraid.orders.deployment`), applied to :mod:`explorer.games.tagraid.orders.death`."""

from __future__ import annotations

import copy
import math
import tomllib
from importlib import resources

from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.games import get_game
from explorer.games.tagraid import sections as S
from explorer.games.tagraid.orders import death
from explorer.games.tagraid.orders.deployment import contact_hexes, in_contact, partly_inside, touches

G = get_game("tagraid")


def _doc(name: str) -> dict:
    text = (resources.files("explorer.games.tagraid") / "scenarios" / f"{name}.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)


def _respawned(data: dict):
    """(trace, Respawn step, the table after the Order, the respawned Miner)."""
    sc = G.parse_data(copy.deepcopy(data), "<test>")
    t = G.resolve(sc)
    step = next(s for s in t.steps if s.rule == S.RESPAWN and "Respawns at" in s.title)
    return t, step, sc


def _after(sc, step):
    from explorer.games.tagraid.orders.sequence import play

    last = play(sc.initial, sc.declarations, sc.dice)[-1].state
    return last, last.miner(step.facts["miner"])


def test_builtin_respawn_touches_the_token_and_rerolls_a_taken_one():
    """tr-respawn-contact: face 1 names Access Point 1, which the blue TAG's base reaches: rolled again; face 2: the
    red TAG's base touches Access Point 2's token (not centred on it), round the block beside it."""
    t, step, sc = _respawned(_doc("tr-respawn-contact"))
    assert step.facts["rolls"] == [1, 2] and step.facts["access_point"] == 2
    assert "1: enemy Miner Blue TAG in contact, re-rolled" in step.detail
    assert "30° round it" in step.detail and "never on top of it" in step.detail
    last, m = _after(sc, step)
    ap = dict(last.geometry.access_points)[2]
    assert touches(last, m, m.x, m.y, ap)
    assert math.dist((m.x, m.y), ap) > last.geometry.calibration.radius(m.silhouette)  # the token centre is free
    last.geometry.table(last.models(), validate=True)  # no overlap with the block or another base


def test_every_builtin_respawn_touches_its_token():
    for name in ("tr-secured-death", "tr-respawn-contact"):
        _, step, sc = _respawned(_doc(name))
        last, m = _after(sc, step)
        assert touches(last, m, m.x, m.y, dict(last.geometry.access_points)[step.facts["access_point"]]), name


def test_a_prospector_respawns_partly_inside_a_hexagon_in_contact():
    data = _doc("tr-respawn-contact")
    data["miners"][1]["miner_type"] = "Prospector"
    _, step, sc = _respawned(data)
    last, m = _after(sc, step)
    ap = dict(last.geometry.access_points)[step.facts["access_point"]]
    assert touches(last, m, m.x, m.y, ap)
    assert partly_inside(last, m, m.x, m.y, contact_hexes(last, ap))
    assert "Prospector is deployed in a Hexagon in contact with it" in step.detail


def _no_room_at_3(monkeypatch, **rulings):
    data = _doc("tr-respawn-contact")
    data["access_points"].append({"number": 3, "hex": "-3,3"})
    data["dice"]["respawn"] = [3, 2]
    real = death.default_tag_spot

    def none_at_3(state, m, ap):
        return None if ap == dict(state.geometry.access_points)[3] else real(state, m, ap)

    monkeypatch.setattr(death, "default_tag_spot", none_at_3)
    sc = G.parse_data(data, "<test>")
    t = G.resolve(sc, rulings=rulings or None)
    return t, next(s for s in t.steps if s.rule == S.RESPAWN and "Respawns at" in s.title)


def test_no_room_round_a_free_access_point_is_rolled_again(monkeypatch):
    """A free Access Point round which no position in contact fits the base is rolled again (ruling
    respawn_no_room's default), and said so in the step."""
    _, step = _no_room_at_3(monkeypatch)
    assert step.facts["rolls"] == [3, 2] and step.facts["access_point"] == 2
    assert "3: no room for its base in contact with it (ruling respawn_no_room = reroll)" in step.detail


def test_no_room_centred_reading_deploys_on_the_token(monkeypatch):
    """Ruling respawn_no_room = centred: the first free Access Point rolled takes the Miner, its base centred on the
    token (the Death rule's fallback for a Loot Token with no room in contact); the trace reports the reading."""
    t, step = _no_room_at_3(monkeypatch, respawn_no_room="centred")
    assert step.facts["access_point"] == 3 and step.facts["rolls"] == [3] and step.facts["centred"] is True
    assert "centred on it" in step.title and "respawn_no_room = centred" in step.detail
    ap3 = (step.facts["position"][0], step.facts["position"][1])
    assert t.rulings["respawn_no_room"] == "centred" and ap3 != (0.0, 0.0)


def test_the_reading_is_reported_only_when_a_point_had_no_room(monkeypatch):
    t, _ = _no_room_at_3(monkeypatch)
    assert t.rulings["respawn_no_room"] == "reroll"


def test_a_respawn_with_room_does_not_consult_the_reading():
    plain = G.resolve(G.load_builtin("tr-respawn-contact"))
    assert "respawn_no_room" not in plain.rulings


@settings(max_examples=25, deadline=None)
@given(ang=st.floats(0, 360), dist=st.floats(0.0, 0.9), face=st.sampled_from([1, 2]))
def test_taken_means_an_enemy_base_reaches_the_token(ang, dist, face):
    """Property: Access Point 1 is rolled again exactly when the blue TAG's base reaches its token (the Initial
    Deployment rule); the respawned base always touches the token of the Access Point it lands at."""
    data = _doc("tr-respawn-contact")
    blue = data["miners"][0]
    bx, by = -4.330127018922194, 1.5
    ap1 = (bx + dist * math.cos(math.radians(ang)), by + dist * math.sin(math.radians(ang)))
    data["access_points"][0] = {"number": 1, "x": ap1[0], "y": ap1[1]}
    data["dice"]["respawn"] = [1, 2]
    sc = G.parse_data(copy.deepcopy(data), "<test>")
    b = sc.initial.miner(blue["id"])
    taken = in_contact(sc.initial, b, b.x, b.y, ap1)
    _, step, sc = _respawned(data)
    assert step.facts["access_point"] == (2 if taken else 1)
    last, m = _after(sc, step)
    assert touches(last, m, m.x, m.y, dict(last.geometry.access_points)[step.facts["access_point"]])
