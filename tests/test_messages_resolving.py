"""Issue 25 item 5: an error raised while resolving (not while loading) names the file, through one wrapper at the
gate between loading and resolving (explorer.errors.naming_source, around `explorer resolve` and the embed renderer), and
names a field the file's format has: a TAG Raid table file's MegaBeast facing is checked on loading, where
load_table, `explorer resolve` and `explorer tagraid lof` now refuse it alike as models[i].facing."""

from __future__ import annotations

from pathlib import Path

import pytest

from explorer.cli import main
from explorer.errors import PAGE_SOURCE, RuleViolation, ScenarioError, naming_source

ROOT = Path(__file__).resolve().parents[1]
TAGRAID = ROOT / "explorer" / "games" / "tagraid"


def test_with_source_keeps_the_class_and_its_parts_and_names_the_file():
    e = ScenarioError("active.save_dice", "too few", "at least 1")
    n = e.with_source("x.toml")
    assert type(n) is ScenarioError and (n.field, n.problem, n.allowed, n.source) == \
        ("active.save_dice", "too few", "at least 1", "x.toml")
    assert str(n) == "x.toml: field 'active.save_dice': too few (allowed: at least 1)" and e.source is None
    r = RuleViolation("no Line of Fire", "TAG Raid: Line of Fire", field="order.target", step="2.1")
    rn = r.with_source("o.toml")
    assert type(rn) is RuleViolation and rn.rejection == r.rejection and str(rn) == "o.toml: " + str(r)
    bare = RuleViolation("the Model is not on the board", "TAG Raid: Deployment")
    assert str(bare.with_source("o.toml")) == "o.toml: the Model is not on the board [TAG Raid: Deployment]"


def test_naming_source_leaves_errors_that_name_their_own_source():
    with pytest.raises(ScenarioError) as got:
        with naming_source("a.toml"):
            raise ScenarioError("f", "bad", None, "other.toml")
    assert got.value.source == "other.toml"
    with pytest.raises(ScenarioError) as got:
        with naming_source("a.toml"):
            raise ScenarioError("f", "bad", None, PAGE_SOURCE)
    assert got.value.source == PAGE_SOURCE
    with pytest.raises(ScenarioError) as got:
        with naming_source(None):
            raise ScenarioError("f", "bad")
    assert got.value.source is None


def test_a_refusal_while_resolving_names_the_file(tmp_path, capsys):
    """A roll file that fixes every die but too few Saving Roll dice loads, and is refused while resolving: the
    message named no file before."""
    text = (TAGRAID / "scenarios" / "book-f2f-1v1.toml").read_text(encoding="utf-8")
    assert "save_dice = [5]" in text
    f = tmp_path / "short-saves.toml"
    f.write_text(text.replace("save_dice = [5]", "save_dice = []"), encoding="utf-8")
    assert main(["resolve", str(f)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"error: {f}: field 'active.save_dice':") and "\n" not in err


def test_a_table_files_megabeast_facing_is_refused_alike_by_load_resolve_and_lof(tmp_path, capsys):
    from explorer.games.tagraid.table_file import load_table

    text = (TAGRAID / "tables" / "lof-demo.toml").read_text(encoding="utf-8")
    assert "facing = 90.0" in text
    f = tmp_path / "bad-facing.toml"
    f.write_text(text.replace("facing = 90.0", "facing = 100.0"), encoding="utf-8")
    with pytest.raises(ScenarioError) as got:
        load_table(f)
    assert got.value.field.startswith("models[") and got.value.field.endswith("].facing")
    assert got.value.source == str(f) and "90°" in got.value.allowed
    messages = []
    for argv in (["resolve", str(f)], ["tagraid", "lof", str(f)]):
        assert main(argv) == 2
        messages.append(capsys.readouterr().err.strip())
    assert messages[0] == messages[1] == f"error: {got.value}"
    assert "megabeast.facing" not in messages[0]


def test_a_table_file_without_models_is_refused_alike_naming_the_file_and_models(tmp_path, capsys):
    """Found by a fuzz of the Line of Fire page's uploads: a table file with no Models loaded, then was refused as
    "field 'shooter': no Model None (allowed: one of )" - a field table files do not have (there was no --shooter),
    and, from `explorer tagraid lof` and the page, no file named."""
    import datetime
    import tomllib

    from explorer.games.tagraid.lof_views import LofExplorer
    from explorer.tomlwrite import dumps

    doc = tomllib.loads((TAGRAID / "tables" / "lof-demo.toml").read_text(encoding="utf-8"))
    doc["models"] = []
    f = tmp_path / "no-models.toml"
    f.write_text(dumps(doc), encoding="utf-8")
    want = (f"error: {f}: field 'models': the table has no Model (Line of Fire is measured from one: the shooter is "
            "the first Model) (allowed: at least one [[models]] entry)")
    for argv in (["resolve", str(f)], ["tagraid", "lof", str(f)], ["render", str(f), "-o", str(tmp_path / "x.svg")]):
        assert main(argv) == 2
        assert capsys.readouterr().err.strip() == want, argv
    page = LofExplorer()
    before = page.scenario
    data = f.read_bytes()
    page.upload.value = ({"name": "no-models.toml", "content": memoryview(data), "type": "", "size": len(data),
                          "last_modified": datetime.datetime.now()},)
    assert "no-models.toml: field &#x27;models&#x27;: the table has no Model" in page.file_message.value
    assert page.scenario is before
