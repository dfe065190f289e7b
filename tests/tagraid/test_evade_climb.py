"""Evade movements on scenery with a height (issue 22): an Evade movement's one Segment may climb up or down a piece
(Common Skills › Evade, Effects; Move › Effects: a climb takes one whole Segment), ruling ``evade_climb``; an Order's
declarations, written back by the Orders page's Download, keep every field (surfaces, firing points, evade_on)."""

from __future__ import annotations

import tomllib
from importlib.resources import files

import pytest

from explorer.errors import RuleViolation, ScenarioError
from explorer.games import get_game


def _data(**change):
    data = tomllib.loads((files("explorer.games.tagraid") / "scenarios" / "tr-elev-evade-climb.toml").read_text())
    r = data["miners"][1]
    for k, v in change.items():
        if k in ("x", "y", "on", "states"):
            r[k] = v
        elif k == "rulings":
            data["rulings"] = v
        else:
            data["order"][k] = v
    return data


def _play(data):
    g = get_game("tagraid")
    return g.resolve(g.parse_data(data, "<test>"))


def _r(trace):
    return next(m for m in trace.result.miners if m.id == "R")


def test_builtin_evade_climbs_onto_the_block():
    """tr-elev-evade-climb: R wins its Evade and climbs onto the block with its one Segment; the climb consults
    evade_climb and climb_segment, and R ends standing on the block."""
    g = get_game("tagraid")
    t = g.resolve(g.load_builtin("tr-elev-evade-climb"))
    r = _r(t)
    assert (r.position, r.on) == ((1.7, 0.0), "block")
    assert dict(t.rulings)["evade_climb"] == "climbs" and "climb_segment" in dict(t.rulings)
    step = next(s for s in t.steps if "Evade movement" in s.title and "makes" in s.title)
    assert "climbing onto block" in step.title


def test_no_climb_reading_drops_the_climb():
    """Under evade_climb = no_climb the same file plays: the declared climb is dropped with a step naming the
    ruling (as a movement the Evade Roll does not allow is), and R stays on the ground."""
    t = _play(_data(rulings={"evade_climb": "no_climb"}))
    assert _r(t).on is None and _r(t).position == (0.7, 0.0)
    assert dict(t.rulings)["evade_climb"] == "no_climb"
    step = next(s for s in t.steps if "is dropped" in s.title)
    assert "evade_climb = no_climb" in step.title and "onto block" in step.title
    assert dict(t.result.evade_dropped)["R"].startswith("it would climb onto block")


def test_without_evade_on_the_miner_stays_on_its_surface():
    """No evade_on: the movement stays on the ground, so a point on the block is a leg through scenery (refused),
    and evade_climb is not consulted by a movement on the ground."""
    d = _data()
    d["order"].pop("evade_on")
    with pytest.raises(RuleViolation, match="scenery block"):
        _play(d)
    d["order"]["evade_moves"] = {"R": [0.2, 0.0]}
    t = _play(d)
    assert _r(t).on is None and "evade_climb" not in dict(t.rulings)


def test_evade_on_the_top_and_down_from_it():
    """A Miner standing on the block evades along its top (stays on it), or climbs down to the ground with
    evade_on = "" (the whole Segment); leaving the top without naming the ground is refused."""
    on_top = _data(x=1.5, on="block", evade_moves={"R": [1.9, 0.3]})
    on_top["order"].pop("evade_on")
    assert _r(_play(on_top)).on == "block"
    down = _data(x=1.5, on="block", evade_moves={"R": [0.5, 0.0]}, evade_on={"R": ""})
    t = _play(down)
    assert _r(t).on is None and _r(t).position == (0.5, 0.0)
    assert "climbing down from block" in next(s.title for s in t.steps if "makes its Evade" in s.title)
    bad = _data(x=1.5, on="block", evade_moves={"R": [0.5, 0.0]})
    bad["order"].pop("evade_on")
    with pytest.raises(RuleViolation, match="leaves the top of block"):
        _play(bad)


def test_climb_longer_than_one_segment_is_refused():
    """A climbing Evade leg covers at most one Segment (1.732 board units here): 1.77 is refused, 1.73 allowed."""
    with pytest.raises(RuleViolation, match="at most one Segment"):
        _play(_data(x=0.5, evade_moves={"R": [2.2, 0.5]}))
    assert _r(_play(_data(x=0.5, evade_moves={"R": [2.2, 0.2]}))).on == "block"


def test_slowed_miner_cannot_climb_with_its_evade():
    """Slowed State: one Segment less, so an Evade movement has none left and its climb is refused."""
    with pytest.raises(RuleViolation, match="0 Segments"):
        _play(_data(states=["Slowed"]))


def test_evade_on_needs_an_evade_movement():
    d = _data(evade_on={"R": "block", "A": ""})
    with pytest.raises(ScenarioError, match="order.evade_on.A"):
        _play(d)


def test_lost_evade_drops_the_climb():
    """A lost Evade Roll: the declared climb is dropped with its step; R stays on the ground."""
    d = _data()
    d["dice"]["rolls"] = {"A": [3, 14, 15], "R": [2]}
    d["dice"]["saves"] = {"R": [1]}
    t = _play(d)
    assert _r(t).on is None and _r(t).position == (0.7, 0.0)


def test_order_entry_round_trips_every_builtin_order():
    """The Orders page's Download writes an Order back with every declared field: for every built-in order file,
    order_entry of its declarations parses back to the same declarations (surfaces on a route, fire_from, fire_at,
    evade_on included)."""
    from explorer.games.tagraid.orders.orderfile import DiceEntry, OrderEntry, order_declarations
    from explorer.games.tagraid.orders_views import order_entry
    from explorer.games.tagraid.scenarios import list_order_scenarios

    g = get_game("tagraid")
    seen = 0
    for s in list_order_scenarios():
        sc = g.load_builtin(s["name"])
        decl = getattr(sc, "declarations", None)
        if decl is None:
            continue
        board = sc.initial.geometry.board
        entry = OrderEntry.model_validate(order_entry(decl, board))
        back, _ = order_declarations(board, entry, DiceEntry(), 0, "order", "<test>")
        assert back == decl, s["name"]
        seen += 1
    assert seen >= 5
