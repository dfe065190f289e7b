"""Every refusal of an order, round or match file names the field as the file writes it (issue 22, newcomer #5):
a dotted TOML path that leads, in the parsed file, to the value the user typed (``order.evade_on.R``, not the
internal ``order.evade_moves.R.on[0]``; ``order.aros[1].fire_at``, not ``order.aros[R].fire_at``; a Miner id with a
space quoted, ``dice.rolls."Red TAG"``), and a duplicate Access Point number is refused naming its field."""

from __future__ import annotations

import copy
import re
import tomllib
from importlib.resources import files

import pytest

from explorer.errors import RuleViolation, ScenarioError
from explorer.games import get_game
from explorer.scenario import toml_key

_PART = re.compile(r'\.?(?:"((?:[^"\\]|\\.)*)"|([A-Za-z0-9_-]+))|\[(\d+)\]')


def path_parts(path: str) -> list:
    """A dotted TOML path as keys and indexes (``a.b[2]."c d"`` -> ``['a', 'b', 2, 'c d']``)."""
    out, pos = [], 0
    while pos < len(path):
        m = _PART.match(path, pos)
        assert m and m.end() > pos, f"{path!r} is not a TOML path (at {pos})"
        out.append(int(m.group(3)) if m.group(3) is not None else
                   (re.sub(r"\\(.)", r"\1", m.group(1)) if m.group(1) is not None else m.group(2)))
        pos = m.end()
    return out


def typed_at(data, path: str):
    """The value the file holds at ``path`` (AssertionError when the path leads nowhere in the file)."""
    v = data
    for p in path_parts(path):
        if isinstance(p, int):
            assert isinstance(v, list) and p < len(v), f"{path}: no entry [{p}]"
        else:
            assert isinstance(v, dict) and p in v, f"{path}: no key {p!r} (keys: {list(v) if isinstance(v, dict) else v})"
        v = v[p]
    return v


def _builtin(name: str) -> dict:
    return tomllib.loads((files("explorer.games.tagraid") / "scenarios" / f"{name}.toml").read_text())


def _refusal(data) -> ScenarioError:
    g = get_game("tagraid")
    with pytest.raises((RuleViolation, ScenarioError)) as ei:
        g.resolve(g.parse_data(copy.deepcopy(data), "<test>"))
    return ei.value


@pytest.mark.parametrize("key,written", [("A", "A"), ("Red TAG", '"Red TAG"'), ('a"b', '"a\\"b"'),
                                         ("x.y", '"x.y"'), ("snake_case-1", "snake_case-1")])
def test_toml_key_round_trips(key, written):
    assert toml_key(key) == written
    assert tomllib.loads(f"{written} = 1") == {key: 1}
    assert path_parts(f"t.{written}[0]") == ["t", key, 0]


def test_evade_surface_names_evade_on():
    """An Evade movement onto a piece that does not exist: the message names ``order.evade_on.R`` (what the file
    writes), not the Move's ``order.evade_moves.R.on[0]``."""
    data = _builtin("tr-elev-evade-climb")
    data["order"]["evade_on"] = {"R": "tower"}
    e = _refusal(data)
    assert e.field == "order.evade_on.R", str(e)
    assert typed_at(data, e.field) == "tower"
    assert ".on[" not in str(e)


def test_evade_point_too_far_names_evade_moves():
    data = _builtin("tr-elev-evade-climb")
    data["order"]["evade_moves"] = {"R": [0.7, 4.5]}
    data["order"].pop("evade_on")
    e = _refusal(data)
    assert e.field == "order.evade_moves.R", str(e)
    assert typed_at(data, e.field) == [0.7, 4.5]


def test_miner_with_a_space_is_quoted():
    """A Miner id with a space: the evade fields name it quoted, as TOML writes the key."""
    data = _builtin("tr-elev-evade-climb")
    for m in data["miners"]:
        if m["id"] == "R":
            m["id"] = "Red TAG"
    data["order"]["second"]["targets"] = [{"target": "Red TAG"}]
    data["order"]["aros"] = [{"miner": "Red TAG", "skill": "evade"}]
    data["order"]["evade_moves"] = {"Red TAG": [0.7, 4.5]}
    data["order"].pop("evade_on")
    data["dice"]["rolls"] = {"A": [13, 14, 15], "Red TAG": [11]}
    e = _refusal(data)
    assert e.field == 'order.evade_moves."Red TAG"', str(e)
    assert typed_at(data, e.field) == [0.7, 4.5]
    data["dice"]["rolls"]["Red TAG"] = [11, 12]
    data["order"]["evade_moves"] = {"Red TAG": [1.7, 0.0]}
    e = _refusal(data)
    assert e.field == 'dice.rolls."Red TAG"', str(e)
    assert typed_at(data, e.field) == [11, 12]


def test_unknown_ruling_and_duplicate_aro_name_their_own_entry():
    data = _builtin("tr-elev-evade-climb")
    data["rulings"] = {"evade_climb": "sometimes"}
    e = _refusal(data)
    assert e.field == "rulings.evade_climb" and typed_at(data, e.field) == "sometimes"
    data = _builtin("tr-elev-evade-climb")
    data["order"]["aros"] = [{"miner": "R", "skill": "evade"}, {"miner": "R", "skill": "evade"}]
    e = _refusal(data)
    assert e.field.startswith("order.aros[1]"), str(e)  # the second, equal declaration is the one refused
    typed_at(data, e.field)


def _gap_order() -> dict:
    """A moves north behind a wall, through a gap, to behind another wall; Red TAG, east of the walls, sees it
    only in the gap."""
    rifle = {"name": "Rifle", "damage": 13, "burst": 2, "ammunition": "N", "range": {"short": 3, "mid": 0, "long": -3}}
    return {
        "game": "tagraid", "kind": "order", "title": "gap", "seed": 3,
        "board": {"name": "Gap", "orientation": "pointy", "shape": {"kind": "hexagon", "radius": 9},
                  "terrain": "sand",
                  "scenery": [{"name": "wall1", "polygon": [[-2.0, -6.0], [-1.5, -6.0], [-1.5, -1.2], [-2.0, -1.2]]},
                              {"name": "wall2", "polygon": [[-2.0, 1.2], [-1.5, 1.2], [-1.5, 6.0], [-2.0, 6.0]]}]},
        "miners": [{"id": "A", "side": "blue", "x": -4.0, "y": -2.5, "facing": 90.0, "ranged_attack": 12,
                    "armor": 4, "weapons": [rifle]},
                   {"id": "Red TAG", "side": "red", "x": 4.0, "y": 0.0, "facing": 180.0, "ranged_attack": 12,
                    "armor": 4, "weapons": [rifle]}],
        "order": {"active": "A", "move": {"route": [[-4.0, 0.0], [-4.0, 2.5]]}, "second": {"skill": "idle"},
                  "aros": [{"miner": "Red TAG", "skill": "ranged_attack", "weapon": "Rifle", "fire_at": 0.0}]},
    }


def test_aro_fire_at_names_the_declarations_place():
    """An ARO fired at a point of the route without LoF (the start, behind the wall) names
    ``order.aros[0].fire_at`` (its place in the file; it was ``order.aros[Red TAG].fire_at``)."""
    data = _gap_order()
    e = _refusal(data)
    assert e.field == "order.aros[0].fire_at", str(e)
    assert typed_at(data, e.field) == 0.0
    data["order"]["aros"][0]["fire_at"] = 0.5  # in the gap: it plays
    g = get_game("tagraid")
    g.resolve(g.parse_data(data, "<test>"))


def test_round_and_match_files_prefix_the_orders_place():
    """In a match file an Order's refusal names ``rounds[k].orders[i]...`` down to the value typed."""
    data = _builtin("tr-match-two-rounds")
    o = data["rounds"][0]["orders"][0]
    o["active"] = "Nobody"
    e = _refusal(data)
    assert e.field == "rounds[0].orders[0].active", str(e)
    assert typed_at(data, e.field) == "Nobody"


@pytest.mark.parametrize("name", ["tr-match-two-rounds", "tr-secured-death", "tr-round-loot"])
def test_duplicate_access_point_number_is_refused(name):
    """Two Access Points with one number (newcomer #4): refused in one line naming the file and
    ``access_points[i].number``."""
    data = _builtin(name)
    aps = data["access_points"]
    aps.append(dict(aps[0]))
    g = get_game("tagraid")
    with pytest.raises(ScenarioError) as ei:
        g.parse_data(copy.deepcopy(data), "dup.toml")
    e = ei.value
    i = len(aps) - 1
    assert e.field == f"access_points[{i}].number", str(e)
    assert typed_at(data, e.field) == aps[0]["number"]
    assert str(e).startswith("dup.toml: ") and "\n" not in str(e)
    assert f"access_points[0]" in e.problem


@pytest.mark.parametrize("name", ["book-oes-order", "tr-round-stoorworm", "tr-deploy-reroll", "tr-round-loot"])
def test_two_weapons_of_one_name_on_a_miner_are_refused(name):
    """Session 14: a Miner with two Weapon cards of one name loaded, and a declaration of that name always took the
    first, so the second's profile was silently never used. Order, round and match files: refused naming the
    second's ``miners[i].weapons[j].name``."""
    data = _builtin(name)
    i, m = next((i, m) for i, m in enumerate(data["miners"]) if m.get("weapons"))
    w = copy.deepcopy(m["weapons"][0])
    w["damage"] = max(0, w.get("damage", 13) - 1)
    m["weapons"].append(w)
    e = _refusal(data)
    j = len(m["weapons"]) - 1
    assert e.field == f"miners[{i}].weapons[{j}].name" and "already carries a Weapon named" in str(e), str(e)
    assert typed_at(data, e.field) == w["name"] and "\n" not in str(e)
