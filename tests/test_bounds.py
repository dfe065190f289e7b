"""Every number bounded and every list capped in the file formats (roll scenarios, table files, board files); the
bounds are read through model.field_bounds like the CLI and widgets. See docs/limits.md."""

import copy

import pytest

from explorer import board as board_mod
from explorer.board import MAX_BOARD_HEXES, MAX_HEX_COORD, MAX_POLYGON_POINTS, Board
from explorer.errors import ScenarioError
from explorer.games.tagraid import model as M
from explorer.games.tagraid.model import ModBounds, field_bounds, parse_scenario
from explorer.games.tagraid.table_file import MAX_MODELS, load_table, table_from_dict

RIFLE = {"name": "Rifle", "damage": 13, "burst": 3, "ammunition": "N"}


def _miner(name, **kw):
    d = {"name": name, "skill": "ranged_attack", "attribute": 12, "weapon": dict(RIFLE)}
    d.update(kw)
    return d


def _scenario(**active):
    return {"active": _miner("A", attacks=[{"target": "B"}], **active), "reactive": [_miner("B")]}


def _err(fn, *a):
    with pytest.raises(ScenarioError) as e:
        fn(*a)
    assert "\n" not in str(e.value)
    return e.value


# ------------------------------------------------------------------------------------------------- roll scenarios


def test_mod_bounds_are_read_through_field_bounds():
    assert field_bounds(ModBounds, "value") == (M.MOD_MIN, M.MOD_MAX)
    assert field_bounds(ModBounds, "total") == (M.MOD_TOTAL_MIN, M.MOD_TOTAL_MAX)


def test_one_mod_is_bounded():
    ok = _scenario(mods={"Range": M.MOD_MAX})
    ok["active"]["attacks"][0]["mods"] = {}
    parse_scenario(ok)
    e = _err(parse_scenario, _scenario(mods={"Range": M.MOD_MAX + 1}), "s.toml")
    assert e.field == "active.mods.Range" and f"is too large (allowed: {M.MOD_MIN} to {M.MOD_MAX})" in str(e)
    e = _err(parse_scenario, _scenario(mods={"Range": 10 ** 23}), "s.toml")
    assert e.field == "active.mods.Range" and "100000000000000000000000" in str(e)


def test_the_number_of_mods_is_capped():
    e = _err(parse_scenario, _scenario(mods={f"M{i}": 0 for i in range(M.MAX_MODS + 1)}))
    assert e.field == "active.mods" and str(M.MAX_MODS) in str(e)


def test_the_mod_total_of_one_roll_is_bounded():
    d = _scenario(mods={"Range": 20})
    d["active"]["attacks"][0]["mods"] = {"Sight": 11}
    e = _err(parse_scenario, d, "s.toml")
    assert e.field == "active.attacks[0].mods" and "sum to 31" in str(e) and f"{M.MOD_TOTAL_MIN}..30" in str(e)
    d["active"]["attacks"][0]["mods"] = {"Sight": 10}
    parse_scenario(d)
    d = _scenario()
    d["reactive"][0]["mods"] = {"a": -20, "b": -20}
    assert _err(parse_scenario, d).field == "reactive[0].mods"
    d = _scenario()
    d["active"]["attacks"][0]["damage_mods"] = {"a": 20, "b": 20}
    assert _err(parse_scenario, d).field == "active.attacks[0].damage_mods"


def test_reactive_miners_fury_tokens_dice_and_names_are_capped():
    d = _scenario()
    d["reactive"] = [_miner(f"R{i}", skill="idle", weapon=None) for i in range(M.MAX_REACTIVE + 1)]
    assert _err(parse_scenario, d).field == "reactive"
    d = _scenario()
    d["megabeast"] = {"threat_level": 10, "wounds": 5, "fury_tokens": [1] * 51}
    assert _err(parse_scenario, d).field == "megabeast.fury_tokens"
    d = _scenario()
    d["active"]["attacks"][0]["dice"] = [1] * (M.MAX_DICE + 1)
    assert _err(parse_scenario, d).field == "active.attacks[0].dice"
    d = _scenario()
    d["active"]["save_dice"] = [1] * (M.MAX_SAVE_DICE + 1)
    assert _err(parse_scenario, d).field == "active.save_dice"
    d = _scenario()
    d["reactive"][0]["name"] = "B" * (M.MAX_NAME + 1)
    assert _err(parse_scenario, d).field == "reactive[0].name"
    d = _scenario(seed=-1)
    d["seed"] = 2 ** 64
    assert _err(parse_scenario, d).field == "seed"


def test_the_largest_scenario_allowed_parses():
    d = _scenario()
    d["reactive"] = [_miner(f"R{i}", skill="evade", weapon=None, mods={f"M{j}": 1 for j in range(M.MAX_MODS)})
                     for i in range(M.MAX_REACTIVE)]
    d["reactive"][0]["name"] = "B"
    sc = parse_scenario(d)
    assert len(sc.reactive) == M.MAX_REACTIVE


# ------------------------------------------------------------------------------------------------------ boards


def _board(**kw):
    d = {"cells": {"0,0": "sand", "1,0": "sand"}}
    d.update(kw)
    return d


@pytest.mark.parametrize("key", ["9" * 300 + ",0", f"{MAX_HEX_COORD + 1},0", f"0,-{MAX_HEX_COORD + 1}"])
def test_hex_keys_are_bounded(key):
    e = _err(Board.from_dict, _board(cells={key: "sand"}), "b.toml")
    assert e.field.startswith("board.cells.") and f"-{MAX_HEX_COORD}..{MAX_HEX_COORD}" in str(e)
    assert len(str(e)) < 400


def test_edge_and_centre_keys_are_bounded():
    e = _err(Board.from_dict, _board(edges=[{"edge": f"0,0|{10 ** 30},0"}]))
    assert e.field == "board.edges[0].edge"
    e = _err(Board.from_dict, {"shape": {"kind": "hexagon", "radius": 1, "center": f"{MAX_HEX_COORD * 2},0"}})
    assert e.field == "board.shape.center"


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), -float("inf"), 1e300])
def test_polygon_points_are_finite_and_bounded(bad):
    poly = [[0.1, 0.1], [1.0, bad], [1.0, 1.0]]
    e = _err(Board.from_dict, _board(scenery=[{"name": "rock", "polygon": poly}]), "b.toml")
    assert e.field == "board.scenery[0].polygon[1][1]" and "b.toml" in str(e)


def test_a_polygon_given_in_code_with_nan_is_a_scenario_error():
    with pytest.raises(ScenarioError, match="not a finite point"):
        Board({board_mod.Hex(0, 0): board_mod.SAND},
              scenery=[board_mod.Scenery("x", ((0.0, 0.0), (float("nan"), 1.0), (1.0, 1.0)))])


def test_polygon_points_scenery_and_cells_are_capped():
    poly = [[float(i % 2), float(i)] for i in range(MAX_POLYGON_POINTS + 1)]
    e = _err(Board.from_dict, _board(scenery=[{"name": "long", "polygon": poly}]))
    assert e.field == "board.scenery[0].polygon"
    cells = {f"{q},{r}": "sand" for q in range(101) for r in range(100)}
    e = _err(Board.from_dict, {"cells": cells})
    assert e.field == "board.cells" and f"{MAX_BOARD_HEXES:,}" in str(e)


def test_the_board_size_is_capped_for_shapes_and_shapes_plus_cells():
    e = _err(Board.from_dict, {"shape": {"kind": "rectangle", "width": 200, "height": 200}})
    assert e.field == "board.shape" and "40,000" in str(e)
    b = Board.from_dict({"shape": {"kind": "rectangle", "width": 100, "height": 100}})
    assert len(b) == MAX_BOARD_HEXES
    e = _err(Board.from_dict, {"shape": {"kind": "rectangle", "width": 100, "height": 100},
                               "cells": {"-1,-1": "sand"}})
    assert e.field == "board.cells" and "10,001" in str(e)
    e = _err(Board.from_dict, {"shape": {"kind": "hexagon", "radius": 58}})
    assert e.field == "board.shape.radius"


# --------------------------------------------------------------------------------------------------- table files

TABLE = {"board": "small", "models": [{"id": "a", "hex": "-2,2"}]}


def test_table_models_are_capped_and_positions_bounded():
    d = copy.deepcopy(TABLE)
    d["models"] = [{"id": f"m{i}", "hex": "-2,2"} for i in range(MAX_MODELS + 1)]
    assert _err(table_from_dict, d).field == "models"
    d = copy.deepcopy(TABLE)
    d["models"][0] = {"id": "a", "x": float("nan"), "y": 0.0}
    assert _err(table_from_dict, d).field == "models[0].x"
    d["models"][0] = {"id": "a", "hex": "-2,2", "offset": [1e308, 0.0]}
    assert _err(table_from_dict, d).field == "models[0].offset[0]"
    d["models"][0] = {"id": "a", "hex": "1" * 500 + ",0"}
    assert _err(table_from_dict, d).field == "models[0].hex"
    d["models"][0] = {"id": "a", "hex": f"{MAX_HEX_COORD + 5},0"}
    e = _err(table_from_dict, d)
    assert e.field == "models[0].hex" and "out of bounds" in str(e)


def test_table_weapon_mods_range_and_calibration_are_bounded():
    lo, hi = field_bounds(ModBounds, "value")
    for field, value in [("weapon", {"short": hi + 1}), ("range", {"short": 1e9}),
                         ("calibration", {"base_radius": {"7": float("inf")}})]:
        d = copy.deepcopy(TABLE)
        d[field] = value
        e = _err(table_from_dict, d)
        assert e.field.startswith(field), e
    d = copy.deepcopy(TABLE)
    d["weapon"] = {"short": hi, "long": lo}
    assert table_from_dict(d).weapon.short == hi


def test_a_text_table_with_a_huge_hex_is_one_line(tmp_path):
    p = tmp_path / "t.toml"
    p.write_text('board = "small"\n[[models]]\nid = "a"\nhex = "' + "7" * 400 + ',0"\n')
    e = _err(load_table, p)
    assert e.field == "models[0].hex" and str(p) in str(e)
