"""`explorer resolve` and `explorer scenarios` through explorer.cli.main."""

import json

import pytest

from explorer.cli import main


def run(capsys, *args):
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_scenarios_lists_builtins(capsys):
    code, out, _ = run(capsys, "scenarios")
    assert code == 0 and "book-f2f-1v1" in out and "tr-13" in out and "default" in out
    code, out, _ = run(capsys, "scenarios", "--json")
    items = json.loads(out)
    assert code == 0 and {"name", "title", "description"} <= set(items[0])


def test_resolve_builtin_text(capsys):
    code, out, _ = run(capsys, "resolve", "book-two-f2f")
    assert code == 0
    assert "## Face to Face Rolls" in out and "[TAG Raid: Rolls › Face to Face Rolls]" in out
    assert "StoneBreaker vs Rockeater: face to face, winner Rockeater" in out


def test_resolve_json_is_the_trace_dict(capsys):
    code, out, _ = run(capsys, "resolve", "tr-02", "--json")
    d = json.loads(out)
    assert code == 0 and d["outcome"]["saving_rolls"] == {"B": 2} and d["steps"][0]["rule"]["game"] == "TAG Raid"


def test_resolve_ruling_option(capsys):
    _, out, _ = run(capsys, "resolve", "tr-05", "--json", "--ruling", "sv_above_20=excess_to_die")
    d = json.loads(out)
    assert d["outcome"]["saving_rolls"] == {"T": 4} and d["rulings"]["sv_above_20"] == "excess_to_die"


def test_resolve_seed_and_reroll(capsys):
    _, a, _ = run(capsys, "resolve", "book-f2f-1v1", "--json", "--reroll", "--seed", "3")
    _, b, _ = run(capsys, "resolve", "book-f2f-1v1", "--json", "--reroll", "--seed", "3")
    assert a == b
    faces = [d["face"] for s in json.loads(a)["steps"] if s["section"] == "Rolls" for d in s["facts"]["dice"]]
    assert all(s["facts"]["source"] == "rolled" for s in json.loads(a)["steps"] if s["section"] == "Rolls")
    assert len(faces) == 4


def _one_line_error(capsys, *args):
    code, out, err = run(capsys, *args)
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ")
    return lines[0]


BASE = """
[active]
name = "A"
skill = "ranged_attack"
attribute = {attr}
weapon = {{ damage = 13, burst = {burst}, ammunition = "{ammo}" }}
{extra}
[[active.attacks]]
target = "B"

[[reactive]]
name = "B"
skill = "none"
"""


@pytest.mark.parametrize("kw,field,allowed", [
    ({"extra": "brust = 2"}, "active.brust", "'burst_mod'"),
    ({"attr": '"twelve"'}, "active.attribute", "whole number"),
    ({"burst": "-1"}, "active.weapon.burst", "-1 is too small (allowed: 0 to 20)"),
    ({"ammo": "XYZ"}, "active.weapon.ammunition", "'N', 'DA', 'EXP' or 'AP'"),
])
def test_bad_scenario_files(capsys, tmp_path, kw, field, allowed):
    values = {"attr": "12", "burst": "3", "ammo": "N", "extra": ""} | kw
    p = tmp_path / "bad.toml"
    p.write_text(BASE.format(**values), encoding="utf-8")
    line = _one_line_error(capsys, "resolve", str(p))
    assert f"field '{field}'" in line and allowed in line and "bad.toml" in line


def test_missing_file(capsys, tmp_path):
    line = _one_line_error(capsys, "resolve", str(tmp_path / "missing.toml"))
    assert "file not found" in line and "book-f2f-1v1" in line


def test_bad_ruling_option(capsys):
    line = _one_line_error(capsys, "resolve", "tr-01", "--ruling", "sv_above_20=sometimes")
    assert "--ruling" in line and "sv_above_20" in line and "'literal'" in line
    line = _one_line_error(capsys, "resolve", "tr-01", "--ruling", "sv_above_20")
    assert "--ruling" in line and "mod_cap" in line


def test_invalid_toml(capsys, tmp_path):
    p = tmp_path / "x.toml"
    p.write_text("[active\n")
    assert "not valid TOML" in _one_line_error(capsys, "resolve", str(p))


def _packaged_tables():
    from explorer.games.tagraid.table_file import available_tables

    return available_tables()


@pytest.mark.parametrize("name", _packaged_tables())
def test_resolve_opens_a_packaged_table_by_name_as_tagraid_lof_does(capsys, name):
    """Newcomer finding: `explorer resolve lof-quarry` (the Line of Fire page's table) was refused although
    `explorer tagraid lof lof-quarry` opened it."""
    from explorer.games.tagraid.cli_lof import lof_report

    code, out, err = run(capsys, "resolve", name, "--json")
    assert code == 0, err
    outcome = json.loads(out)["outcome"]
    rep = lof_report(name)
    rep.pop("_verdicts")
    rep = json.loads(json.dumps(rep))
    assert outcome["shooter"] == rep["shooter"] and outcome["verdicts"] == rep["verdicts"]
    code, out, err = run(capsys, "resolve", name, "--shooter", rep["verdicts"][0]["target"], "--json")
    assert code == 0 and json.loads(out)["outcome"]["shooter"] == rep["verdicts"][0]["target"]


def test_packaged_tables_are_listed_and_suggested(capsys):
    import re

    code, out, _ = run(capsys, "scenarios", "--game", "tagraid")
    assert code == 0 and "packaged tables (also `explorer tagraid lof NAME`" in out
    tables = out.split("packaged tables")[1]
    for name in _packaged_tables():
        assert re.search(rf"^    {re.escape(name)} +\S", tables, re.M), name
    code, _, err = run(capsys, "resolve", "lof-qarry")
    assert code == 2 and "did you mean lof-quarry?" in err and "a packaged file (lof-demo, lof-quarry)" in err
    code, out, _ = run(capsys, "resolve", "--help")
    assert code == 0 and "lof-quarry" in out


def test_a_file_named_like_a_packaged_table_wins(capsys, tmp_path, monkeypatch):
    from explorer.games import get_game

    (tmp_path / "lof-demo").write_text(get_game("tagraid").scenario_text("tr-02"), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "resolve", "lof-demo", "--json")
    assert code == 0, err
    assert json.loads(out)["outcome"]["saving_rolls"] == {"B": 2}


def test_render_opens_a_packaged_table_by_name(capsys):
    code, out, err = run(capsys, "render", "lof-demo", "--format", "md")
    assert code == 0, err
    assert out.startswith("### LoF demo: crate, low wall, pit and Stoorworm") and "<svg" in out
