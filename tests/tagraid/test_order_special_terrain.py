"""Special Terrain inside an Order (issue 22, item 5): Difficult Terrain crossed by a Move or occupied by a Miner
performing an ARO gives the Slowed State at the end of the Order; Impassable Terrain cannot be traversed.

Sections: Special Terrain (Impassable Terrain, Difficult Terrain); Line of Fire and Distances › Interaction with
Areas (inside = the Silhouette at least partly inside); States › Slowed State; Common Skills › Move (Requirements).
"""

import copy
import tomllib
from pathlib import Path

import pytest

import explorer.games.tagraid as pkg
from explorer.errors import RuleViolation
from explorer.games import get_game
from explorer.games.tagraid.orders.orderfile import parse_order

BASE = tomllib.loads((Path(pkg.__file__).parent / "scenarios" / "tr-order-special-terrain.toml")
                     .read_text(encoding="utf-8"))


def run(doc):
    return get_game("tagraid").resolve(parse_order(doc, "test.toml"))


def slowed(t):
    return sorted(m for m, st in t.outcome["states_entered"] if st == "Slowed")


def test_builtin_move_across_and_aro_from_difficult_terrain():
    t = get_game("tagraid").resolve(get_game("tagraid").load_builtin("tr-order-special-terrain"))
    assert slowed(t) == ["A", "R"]
    cited = {s.rule.section for s in t.steps if "Difficult Terrain" in s.title}
    assert cited == {"Special Terrain"}


def test_a_move_that_stays_out_of_difficult_terrain_is_not_slowed():
    """A steps back to hexagon -2,0 (away from 0,0); R, moved out of the Difficult tile to 2,0, reacts from plain
    ground: nobody is Slowed."""
    doc = copy.deepcopy(BASE)
    doc["order"]["move"]["route"] = ["-2,0"]
    doc["miners"][1]["hex"] = "2,0"
    doc["miners"][1]["facing"] = 180.0
    t = run(doc)
    assert slowed(t) == []


def test_partly_inside_counts():
    """A base only partly inside the Difficult tile (its centre outside) performs its ARO in it: Interaction with
    Areas counts a Silhouette at least partially inside."""
    doc = copy.deepcopy(BASE)
    r = doc["miners"][1]
    del r["hex"]
    # hexagon 1,1 has its centre at (2.598, 1.5); its left corner edge is at x = 1.732: put the base centre just
    # outside that edge, overlapping it
    r["x"], r["y"] = 1.60, 1.5
    t = run(doc)
    assert "R" in slowed(t)


def test_a_route_through_impassable_terrain_is_refused():
    doc = copy.deepcopy(BASE)
    doc["order"]["move"]["route"] = ["1,-1"]
    with pytest.raises(RuleViolation) as e:
        run(doc)
    assert e.value.field == "order.move.route[0]" and "Impassable Terrain" in str(e.value)
    assert e.value.section == "Special Terrain"


def test_slowed_next_order_moves_one_segment_less():
    """States › Slowed State: the Slowed A of the built-in, activated again, may Move one Segment less (2 of 3):
    a route of 2.5 Segments is refused, one of 2 is allowed."""
    doc = copy.deepcopy(BASE)
    doc["miners"][0]["states"] = ["Slowed"]
    doc["order"]["move"] = {"route": [[-1.732, -2.5 * 1.732]], "facing": 0.0}  # 2.5 Segments of sqrt(3)
    doc["board"]["shape"]["radius"] = 4
    with pytest.raises(RuleViolation) as e:
        run(doc)
    assert "Slowed" in str(e.value)
    doc["order"]["move"] = {"route": [[-1.732, -2.0 * 1.732]], "facing": 0.0}
    run(doc)
