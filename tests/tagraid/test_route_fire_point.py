"""Ruling ``route_fire_point`` (issue 22, audit item 1): where on its Move the Active Miner executes its Ranged
Attack when the Order declares no ``fire_from``. ``move_start`` (default): the beginning, as in the MinerBot example
of Orders and AROs; ``move_end``: the end of the Move, where step 1.2 placed it. A declared ``fire_from`` wins under
both readings.

Sections: Activating a Miner › Orders and AROs (the MinerBot example); Activating a Miner › Order Expenditure
Sequence (1.2, 3, 5); Distances and Measurements › Range Ruler.
"""

import copy
import tomllib
from pathlib import Path

import pytest

import explorer.games.tagraid as pkg
from explorer.games import get_game
from explorer.games.tagraid.options import ALL_OPTIONS, rulings
from explorer.games.tagraid.orders.orderfile import parse_order

G = get_game("tagraid")
BASE = tomllib.loads((Path(pkg.__file__).parent / "scenarios" / "tr-order-range.toml").read_text(encoding="utf-8"))


def _doc(reading=None, fire_from="none", route=((-4.0, 0.0), (0.0, 0.0))):
    """tr-order-range (A: Sniper Rifle, B at Long Range from A's start, Mid from its end) without a declared firing
    point (or with ``fire_from``), under ``reading`` of route_fire_point (``None``: the file names none)."""
    d = copy.deepcopy(BASE)
    d["order"]["second"].pop("fire_from")
    if fire_from != "none":
        d["order"]["second"]["fire_from"] = fire_from
    d["order"]["move"]["route"] = [list(p) for p in route]
    if reading is not None:
        d["rulings"] = {"route_fire_point": reading}
    return d


def _run(doc):
    return G.resolve(parse_order(doc, "test.toml"))


def _band(t, miner, target):
    (s,) = [s for s in t.steps if "range_mod" in s.facts and s.facts["miner"] == miner
            and s.facts["target"] == target]
    return s.facts["band"], s.facts["range_mod"]


def _fire_steps(t):
    return [s for s in t.steps if s.facts.get("ruling") == "route_fire_point"]


def test_the_option_is_declared_with_both_readings_and_the_start_of_the_move_by_default():
    o = next(o for o in ALL_OPTIONS if o.key == "route_fire_point")
    assert set(o.readings) == {"move_end", "move_start"} and o.default == "move_start"
    assert "MinerBot" in o.section and "Order Expenditure Sequence" in o.section
    assert "beginning of their Movement" in o.why_default and "step 1.2" in o.readings["move_end"]
    assert rulings().reading("route_fire_point") == "move_start"


def test_move_end_fires_from_the_end_of_the_move_and_lists_the_reading():
    t = _run(_doc("move_end"))
    assert _band(t, "A", "B") == ("mid", 0)               # from (0, 0): 6 hex units to B
    assert not _fire_steps(t) and t.rulings["route_fire_point"] == "move_end"
    assert not any("executes its Ranged Attack" in s.title for s in t.steps)


def test_an_order_naming_no_point_fires_from_the_start_by_default():
    default = _run(_doc(None))
    assert _band(default, "A", "B") == ("long", 3)
    assert default.rulings["route_fire_point"] == "move_start" and len(_fire_steps(default)) == 1


@pytest.mark.parametrize("reading", [None, "move_start"])
def test_move_start_fires_from_where_the_move_began_like_a_declared_fire_from_0(reading):
    t = _run(_doc(reading))
    assert _band(t, "A", "B") == ("long", 3)              # from (-4, 0): 10 hex units to B
    (s,) = _fire_steps(t)
    assert s.facts["fire_point"] == [-4.0, 0.0] and "where its Move began" in s.title
    assert "route_fire_point = move_start" in s.detail and s.section == "3 Second Skill"
    assert t.rulings["route_fire_point"] == "move_start"
    declared = _run(_doc(None, fire_from=0.0))            # the MinerBot example written out
    assert _band(declared, "A", "B") == ("long", 3)
    assert t.outcome["roll"] == declared.outcome["roll"]
    # an ARO without fire_at is fired at the Active Miner's firing point: C's Range from A at (-4, 0)
    assert _band(t, "C", "A")[0] == "out_of_range"


def test_a_declared_fire_from_wins_under_both_readings():
    for reading in ("move_end", "move_start"):
        assert _band(_run(_doc(reading, fire_from=1.0)), "A", "B") == ("mid", 0)
        assert _band(_run(_doc(reading, fire_from=0.0)), "A", "B") == ("long", 3)
        assert not _fire_steps(_run(_doc(reading, fire_from=1.0)))


def test_move_start_with_a_move_of_zero_length_changes_nothing():
    d = _doc(None, route=((-4.0, 0.0),))
    d["dice"].pop("saves")                                # B's ARO is now at Long Range: other Saving Rolls
    t = _run(d)
    assert _band(t, "A", "B") == ("long", 3) and not _fire_steps(t) and "route_fire_point" not in t.rulings


def test_the_orders_page_marks_the_point_and_names_the_empty_field_s_meaning():
    from explorer.games.tagraid.orders_views import OrderStepper
    from explorer.tomlwrite import dumps as toml_text

    w = OrderStepper("tr-order-range")
    w.load_toml(toml_text(_doc("move_start")), "start.toml")
    assert w.fire_from.value == "" and w.fire_from.placeholder == "start of the Move"
    assert "move_start" in w.fire_hint.value
    assert w.frames[-1].state.fire_point == (-4.0, 0.0)   # the board draws "A fires from here" at this point
    w.load_toml(toml_text(_doc("move_end")), "end.toml")
    assert w.fire_from.placeholder == "end of the Move" and "its end" in w.fire_hint.value
    assert w.frames[-1].state.fire_point is None


def test_the_board_marks_the_point_and_names_where_it_comes_from():
    from explorer.games.tagraid.orders_svg import board_overlays
    from explorer.games.tagraid.orders_views import OrderStepper
    from explorer.tomlwrite import dumps

    w = OrderStepper("tr-order-range")
    w.load_toml(dumps(_doc("move_start")), "start.toml")
    over = board_overlays(w.frames[-1].state, len(w.frames))
    titles = [getattr(o, "title", "") or "" for o in over]
    assert any("from here (ruling route_fire_point = move_start)" in t for t in titles)
    w.load_toml(dumps(_doc(None, fire_from=0.0)), "declared.toml")
    titles = [getattr(o, "title", "") or "" for o in board_overlays(w.frames[-1].state, len(w.frames))]
    assert any("from here (fire_from)" in t for t in titles)


@pytest.mark.parametrize("reading,reason", [("move_start", "has no LoF to C from its firing point"),
                                            ("move_end", "fails its Requirements")])
def test_tr21_counts_the_attack_as_idle_under_both_readings(reading, reason):
    """TR-21 as a whole Order: A fires from where its Move began (still in Silhouette Contact with B: no LoF to C)
    under move_start, from the end of the Move (Silhouette Contact at activation) under move_end. Either way its
    Ranged Attack counts as Idle and the outcome says so (counted_as_idle), and C makes no Saving Roll."""
    d = tomllib.loads((Path(pkg.__file__).parent / "scenarios" / "tr-21-order.toml").read_text(encoding="utf-8"))
    d["rulings"] = {"route_fire_point": reading}
    t = _run(d)
    assert t.outcome["counted_as_idle"] == {"A": "ranged_attack"}
    assert t.outcome["roll"]["saving_rolls"] == {} and t.rulings["route_fire_point"] == reading
    assert any(reason in s.title and s.facts.get("miner") == "A" for s in t.steps)
