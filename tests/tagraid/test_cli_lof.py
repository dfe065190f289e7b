"""`explorer tagraid lof TABLE`: the table file's own readings, calibration and shooter decide the verdicts, and every
verdict lists the readings it used (the handed symptom: a file with lof_grazing = "touching_blocks")."""

from __future__ import annotations

import json

import pytest

from explorer.cli import main
from explorer.games.tagraid.pieces import SILHOUETTE_BASE_RADIUS
from explorer.tomlwrite import dumps

C_R = SILHOUETTE_BASE_RADIUS[5]
# a and b see each other only along the line tangent to both the roof (above) and c's base (below)


def grazing_table(reading: str | None) -> str:
    doc = {"title": "Grazing", "shooter": "a",
           "board": {"name": "strip", "orientation": "pointy",
                     "cells": {f"{q},{r}": {"terrain": "sand"} for q in range(-2, 3) for r in (-1, 0, 1)},
                     "scenery": [{"name": "roof", "polygon": [[-1.0, 0.0], [1.0, 0.0], [1.0, 1.5], [-1.0, 1.5]],
                                  "height": 9.0}]},
           "models": [{"id": "a", "x": -2.0, "y": 0.0, "facing": 0.0},
                      {"id": "b", "x": 2.0, "y": 0.0, "facing": 180.0, "side": "B"},
                      {"id": "c", "x": 0.0, "y": -C_R, "silhouette": 5, "facing": 90.0, "side": "B"}]}
    if reading:
        doc["rulings"] = {"lof_grazing": reading}
    return dumps(doc)



@pytest.fixture
def run(capsys):
    def go(*args):
        code = main(list(args))
        out = capsys.readouterr()
        return code, out.out + out.err
    return go


@pytest.mark.parametrize("reading, has_lof", [("touching_blocks", False), ("touching_does_not_block", True)])
def test_the_files_reading_decides_and_is_listed(run, tmp_path, reading, has_lof):
    f = tmp_path / "t.toml"
    f.write_text(grazing_table(reading))
    code, out = run("tagraid", "lof", str(f), "--json")
    assert code == 0, out
    rep = json.loads(out)
    assert rep["readings"]["lof_grazing"] == reading
    v = next(v for v in rep["verdicts"] if v["target"] == "b")
    assert v["lof"]["has_lof"] is has_lof
    assert v["readings"]["lof_grazing"] == reading
    assert any("Line of Fire" in s for s in v["sections"])


def test_without_rulings_the_default_reading_is_used(run, tmp_path):
    f = tmp_path / "t.toml"
    f.write_text(grazing_table(None))
    rep = json.loads(run("tagraid", "lof", str(f), "--json")[1])
    from explorer.games.tagraid.options import ALL_OPTIONS

    default = next(o.default for o in ALL_OPTIONS if o.key == "lof_grazing")
    v = next(v for v in rep["verdicts"] if v["target"] == "b")
    assert v["readings"]["lof_grazing"] == default
    assert v["lof"]["has_lof"] is (default == "touching_does_not_block")


def test_text_output_and_shooter_option(run):
    code, out = run("tagraid", "lof", "lof-quarry", "--shooter", "Peeker")
    assert code == 0, out
    assert out.startswith("Quarry — Line of Fire: Peeker has LoF to ")
    assert "Readings: lof_grazing = " in out and "  - Cutter: " in out and "sections: " in out
    assert "readings used: " in out


@pytest.mark.parametrize("args, words", [
    (["nowhere.toml"], "file not found, and no packaged table"),
    (["lof-quarry", "--shooter", "Nobody"], "no Model 'Nobody'"),
])
def test_bad_input_is_one_line_exit_2(run, args, words):
    code, out = run("tagraid", "lof", *args)
    assert code == 2 and words in out and out.count("\n") == 1


@pytest.mark.parametrize("verb", [("tagraid", "lof"), ("resolve",)])
@pytest.mark.parametrize("where", ["packaged", "file"])
def test_an_unknown_shooter_names_the_file_the_option_and_the_models(run, tmp_path, verb, where):
    """Newcomer finding: `explorer tagraid lof TABLE --shooter X` said "field 'shooter'", naming neither the file
    nor the option as typed."""
    from importlib import resources

    from explorer.games.tagraid.table_file import load_packaged_table

    table = "lof-quarry"
    if where == "file":
        table = str(tmp_path / "quarry.toml")
        text = (resources.files("explorer.games.tagraid") / "tables" / "lof-quarry.toml").read_text(encoding="utf-8")
        (tmp_path / "quarry.toml").write_text(text, encoding="utf-8")
    code, out = run(*verb, table, "--shooter", "Nobody")
    models = ", ".join(repr(m) for m in load_packaged_table("lof-quarry").table.models)
    assert code == 2
    assert out == f"error: {table}: field '--shooter': no Model 'Nobody' (allowed: one of {models})\n"
