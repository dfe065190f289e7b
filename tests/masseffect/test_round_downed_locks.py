"""Issue 19: the Strategy dice a Downed Squadmate's sheet Locks (Preparation Phase: they reduce the Pool; Squadmate
Sheets › Downed Squadmates: the number is on the back of the sheet, not printed: the sheet file's ``downed_locks``,
stand-in 3), and the ruling ``revived_locked_dice`` (the Locked dice of a Squadmate Revived mid-Round). Built-in
me-round-2 (Tali Downed: 9 dice) and me-round-1."""

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.errors import ScenarioError
from explorer.games.masseffect import sections as S
from explorer.games.masseffect.round import parse_round, preparation_phase, resolve_round, round_start
from explorer.games.masseffect.sheets import DOWNED_LOCKS_STANDIN, load_sheets, parse_sheets
from explorer.scenario import read_toml

SCENARIOS = Path(__file__).parents[2] / "explorer" / "games" / "masseffect" / "scenarios"


def data(name="me-round-downed-locks"):
    return read_toml(SCENARIOS / f"{name}.toml")


def resolve(d, rulings=None):
    return resolve_round(parse_round(d, "x.toml"), rulings)


def test_the_standin_sheets_lock_three_dice_each_and_say_it_is_a_standin():
    sheets = load_sheets()
    assert DOWNED_LOCKS_STANDIN == 3
    assert {n: s.downed_locks for n, s in sheets.items()} == dict.fromkeys(sheets, 3)


@pytest.mark.parametrize("name", ["me-round-1", "me-round-downed-locks"])
def test_a_downed_tali_locks_three_dice_off_the_pool(name):
    t = resolve(data(name))
    pool = next(s for s in t.steps if s.title.startswith("The Strategy Pool:"))
    assert pool.title.startswith("The Strategy Pool: 9 Strategy dice")
    assert pool.rule == S.DOWNED_SQUADMATES and pool.facts["locked_by_downed"] == {"Tali": 3}
    assert "stand-in" in pool.detail


def test_nobody_downed_gathers_twelve():
    d = data()
    d["squadmates"][3].pop("downed", None)
    d["squadmates"] = d["squadmates"][:3]
    d["turns"] = d["turns"][:1]
    d["turns"][0]["roll"]["rolls"][0] += ["move_2", "move_2", "move_2"]
    pool = next(s for s in resolve(d).steps if s.title.startswith("The Strategy Pool:"))
    assert pool.facts["pool"] == 12 and "locked_by_downed" not in pool.facts


def test_revived_mid_round_next_round_by_default_at_revive_by_ruling():
    t = resolve(data())
    assert t.result.rejected is None
    note = next(s for s in t.steps if "Locked on Tali's Downed sheet" in s.title)
    assert "stay off the Pool until the next Round" in note.title and note.facts["returned"] is False
    assert any(s.title == "Step A: Tali takes 0 dice from the Strategy Pool (0 -> 0)" for s in t.steps)
    # at_revive: the three dice rejoin after Liara's Actions; Tali rolls them
    d = data()
    d["turns"][3]["roll"] = {"rolls": [["move_2", "standard", "enhanced"]]}
    d["turns"][3]["actions"] = [{"box": "Move", "die": "move_2", "path": ["-2,2", "-2,1"]}]
    t = resolve(d, {"revived_locked_dice": "at_revive"})
    assert t.result.rejected is None
    back = next(s for s in t.steps if "back in the Strategy Pool" in s.title)
    assert back.facts["returned"] == ["S10", "S11", "S12"] and back.section == "Turn 3: Liara"
    assert any("Tali makes the Strategy Roll with 3 dice" in s.title for s in t.steps)
    # the same file under the default: Tali's roll is refused, the Pool is empty
    t = resolve(d)
    assert "the Strategy Pool is empty" in t.result.rejected and t.steps[-1].facts["field"] == "turns[3].roll"


def test_the_round_file_overrides_the_sheet_and_names_the_field():
    pool = next(s for s in resolve(data("me-round-2")).steps if s.title.startswith("The Strategy Pool:"))
    assert pool.facts["pool"] == 12 and pool.detail.startswith("Tali Downed, but the file's downed_locks Lock no die")
    d = data("me-round-2")
    d["downed_locks"] = {"Wrex": 1}
    with pytest.raises(ScenarioError, match=r"downed_locks\.Wrex"):
        parse_round(d, "x.toml")
    d["downed_locks"] = {"Tali": 5}
    with pytest.raises(ScenarioError, match="downed_locks"):
        parse_round(d, "x.toml")


def test_downed_locks_bounds_name_the_field():
    base = {"basic": {"move": ["move"]}, "sheets": [{"name": "Tali", "core_ability": "Combat Drone",
                                                     "max_shield_points": 2, "max_hit_points": 4}]}
    assert parse_sheets(base, "s.toml")["Tali"].downed_locks == 3
    base["sheets"][0]["downed_locks"] = 0
    assert parse_sheets(base, "s.toml")["Tali"].downed_locks == 0
    base["sheets"][0]["downed_locks"] = 5
    with pytest.raises(ScenarioError, match="downed_locks"):
        parse_sheets(base, "s.toml")


@settings(max_examples=25, deadline=None)
@given(downed=st.sets(st.sampled_from(["Garrus", "Liara", "Tali"])),
       locks=st.dictionaries(st.sampled_from(["Garrus", "Liara", "Tali"]), st.integers(0, 4)))
def test_the_pool_gathered_is_twelve_minus_what_each_downed_sheet_locks(downed, locks):
    """Preparation Phase: for any Downed Squadmates and any per-file downed_locks, the Pool gathered holds twelve
    minus the dice Locked on the Downed sheets (the stand-in 3 where the file gives none), never fewer than 0, and a
    sheet that is not Downed Locks nothing."""
    d = data("me-round-1")
    for q in d["squadmates"]:
        q["downed"] = q["name"] in downed
        if q["downed"]:
            q["hit_points"] = 0
    d["turns"] = []
    d["downed_locks"] = locks
    st0, ctx = round_start(parse_round(d, "x.toml"))
    state, steps = preparation_phase(st0, ctx)
    expected = 12 - sum(locks.get(n, 3) for n in downed)
    assert state.pool == expected >= 0 and len(state.dice) == expected
    pool = next(s for s in steps if s.title.startswith("The Strategy Pool:"))
    assert pool.facts["pool"] == expected
    assert set(pool.facts.get("locked_by_downed", {})) == {n for n in downed if locks.get(n, 3)}
