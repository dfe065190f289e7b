"""Fighting Poses in a round (issue 21, item g; 9.2.2, optional, default OFF): the rulebook's two examples, Prone
stops movement, Crouching costs 2 points per Hex, a move outside the Movement activity returns to Standing, the
Power Suit only Standing."""

from __future__ import annotations

import pytest
from test_hostile_files import to_toml

from explorer.errors import RuleViolation, ScenarioError
from explorer.games import load_any

from .helpers import resolve

SEC = "9.2.2 Fighting Poses [Optional Rule, Default=OFF]"


def _run(agents, acts, on=True, suit=None):
    doc = {"game": "galaxydefenders", "kind": "round", "fighting_poses": on, "agents": agents,
           "turns": [{"agent": agents[0]["name"], "activities": acts}]}
    if suit:
        doc["power_suit"] = suit
    game, sc = load_any("r.toml", text=to_toml(doc))
    return game.resolve(sc)


def test_the_book_examples():
    t = resolve("gd-round-fighting-poses")
    assert t.result.poses == (("Infiltrator", "prone"), ("Marine", "crouching"))
    titles = [s.title for s in t.steps if s.rule.section == SEC]
    assert titles == ["Infiltrator returns to Standing from Prone",
                      "Infiltrator spends 2 movement points to go from Standing to Prone",
                      "Marine moves Crouching: 2 movement points per Hex"]
    assert t.outcome["poses"] == {"Infiltrator": "prone", "Marine": "crouching"}


def test_prone_cannot_move_without_changing_pose():
    with pytest.raises(RuleViolation) as e:
        _run([{"name": "A", "pose": "prone"}], [{"kind": "move"}])
    assert e.value.section == SEC and "Prone" in e.value.reason
    t = _run([{"name": "A", "pose": "prone"}], [{"kind": "move", "pose": "crouching"}, {"kind": "move"}])
    assert t.result.poses == (("A", "crouching"),)


def test_already_in_that_pose():
    with pytest.raises(RuleViolation) as e:
        _run([{"name": "A"}], [{"kind": "move", "pose": "standing"}])
    assert "already standing" in e.value.reason


def test_power_suit_only_standing():
    suit = {"batteries": 2, "equipped_by": "A"}
    with pytest.raises(RuleViolation) as e:
        _run([{"name": "A"}], [{"kind": "move", "pose": "crouching"}], suit=suit)
    assert e.value.section == SEC and "Standing" in e.value.reason
    with pytest.raises(RuleViolation) as e:
        _run([{"name": "A", "pose": "crouching"}], [{"kind": "action", "suit": "equip"}], suit={"batteries": 2})
    assert e.value.section == SEC and e.value.rejection.field == "turns[0].activities[0].suit"
    t = _run([{"name": "A", "pose": "crouching"}], [{"kind": "move", "pose": "standing"},
                                                    {"kind": "action", "suit": "equip"}], suit={"batteries": 2})
    assert t.result.suit.equipped_by == "A"


def test_off_by_default_and_refused_when_off():
    t = _run([{"name": "A"}], [{"kind": "move"}], on=False)
    assert t.result.poses == () and "poses" not in t.outcome
    for agents, acts, field in (([{"name": "A", "pose": "prone"}], [], "agents[0].pose"),
                                ([{"name": "A"}], [{"kind": "move", "pose": "prone"}], "turns[0].activities[0].pose")):
        with pytest.raises(ScenarioError) as e:
            _run(agents, acts, on=False)
        assert e.value.field == field and "optional rule is off" in e.value.problem


def test_pose_only_on_a_move():
    with pytest.raises(ScenarioError) as e:
        _run([{"name": "A"}], [{"kind": "action", "pose": "prone"}])
    assert e.value.field == "turns[0].activities[0].pose"
