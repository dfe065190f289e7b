"""The Line of Fire page and `explorer tagraid lof` offer the ruling elevation_own_piece where it applies (issue 22,
item 5): only when a Model of the table stands on scenery (the only case the reading is consulted), so a flat
table's `lof --json` and its downloaded file are unchanged."""

import json

import pytest

from explorer.games.tagraid.lof_scenario import LOF_RULING_KEYS, scenario_from_table
from explorer.games.tagraid.lof_views import LofExplorer
from explorer.games.tagraid.table_file import load_packaged_table

KEY = "elevation_own_piece"


def _lof_json(table: str, capsys) -> dict:
    from explorer.cli import main
    assert main(["tagraid", "lof", table, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("table", ["lof-demo", "lof-quarry", "tr-22", "tr-37"])
def test_a_flat_tables_lof_json_lists_the_same_readings(table, capsys):
    assert list(_lof_json(table, capsys)["readings"]) == list(LOF_RULING_KEYS)


@pytest.mark.parametrize("table", ["tr-elev-tower", "tr-elev-37"])
def test_an_elevated_tables_lof_json_lists_the_own_piece_reading(table, capsys):
    readings = _lof_json(table, capsys)["readings"]
    assert list(readings) == [*LOF_RULING_KEYS, KEY] and readings[KEY] == "blocks"


def _shown(w: LofExplorer, key: str) -> bool:
    return w.ruling_rows[key].layout.display != "none"


def test_a_flat_table_on_the_page_neither_shows_nor_writes_it():
    w = LofExplorer()
    assert not _shown(w, KEY) and all(_shown(w, k) for k in LOF_RULING_KEYS)
    assert list(w.table_document()["rulings"]) == list(LOF_RULING_KEYS)


def test_an_elevated_table_on_the_page_offers_it_and_the_file_carries_the_reading():
    w = LofExplorer()
    w.load_scenario(scenario_from_table(load_packaged_table("tr-elev-tower")))
    assert _shown(w, KEY)
    assert w.table_document()["rulings"][KEY] == "blocks"
    before = w.verdict_html.value
    w.ruling_inputs[KEY].value = "ignored"
    assert w.rulings.reading(KEY) == "ignored"
    doc = w.table_document()
    assert doc["rulings"][KEY] == "ignored"
    again = LofExplorer()
    again.load_document(doc, "saved.toml")
    assert again.ruling_inputs[KEY].value == "ignored" and again.verdict_html.value == w.verdict_html.value
    assert before != w.verdict_html.value   # tr-elev-tower's own edge hides the ground below it under 'blocks'
    # back to a flat table: hidden again and not written
    w.load_scenario(scenario_from_table(load_packaged_table("lof-demo")))
    assert not _shown(w, KEY) and KEY not in w.table_document()["rulings"]
