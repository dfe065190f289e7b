"""The Line of Fire explorer: one source of readings (a table file's [rulings] are the explorer's initial readings;
every verdict lists the readings it used) and a shareable state (link and TOML file, opened identically by the
explorer, `explorer tagraid lof` and the notebooks)."""

from __future__ import annotations

import json

import pytest

from explorer.errors import ScenarioError
from explorer.games.tagraid.cli_lof import lof_report
from explorer.games.tagraid.lof_report import verdict_readings
from explorer.games.tagraid.lof_views import LofExplorer, scenario_from_table
from explorer.games.tagraid.table_file import load_table
from explorer.urlstate import decode_state, encode_state
from test_cli_lof import grazing_table


def _explorer_of(path) -> LofExplorer:
    return LofExplorer(scenario_from_table(load_table(str(path))))


@pytest.mark.parametrize("reading, has_lof", [("touching_blocks", False), ("touching_does_not_block", True)])
def test_a_table_files_reading_is_the_explorers_initial_reading(tmp_path, reading, has_lof):
    """Handed symptom: a table file with lof_grazing = "touching_blocks" was opened with the default reading."""
    f = tmp_path / "t.toml"
    f.write_text(grazing_table(reading))
    w = _explorer_of(f)
    assert w.ruling_inputs["lof_grazing"].value == reading
    v = w.verdict("b")
    assert v.lof.has_lof is has_lof
    assert verdict_readings(v)["lof_grazing"] == reading
    assert f"lof_grazing = <i>{reading}</i>" in w.verdict_html.value


def test_every_verdict_lists_its_readings():
    w = LofExplorer()
    assert w.verdict_html.value.count("class='lof-readings'") == len(w.verdicts)
    for v in w.verdicts:
        if v.lof.reason == "outside_arc":   # decided by the arc alone: no ruling option consulted, and it says so
            assert verdict_readings(v) == {}
        else:
            assert {"lof_grazing", "scenery_height"} <= set(verdict_readings(v))
        if v.range is not None:
            assert "range_measurement" in verdict_readings(v)
    assert "readings: none consulted" in w.verdict_html.value


def _changed() -> LofExplorer:
    w = LofExplorer()
    w.rotate_model("Cutter", 1)
    assert w.move_model("Peeker", w.models["Peeker"].x - 0.05, w.models["Peeker"].y), w.message.value
    w.set_shooter("Peeker")
    w.ruling_inputs["lof_grazing"].value = "touching_blocks"
    w.cal_inputs["mid"].value = "4"
    return w


def _verdicts(w):
    return [(v.target, v.lof.has_lof, v.lof.reason, v.band, v.mod, v.cover.in_cover if v.cover else None,
             v.threat.level if v.threat else None, verdict_readings(v)) for v in w.verdicts]


def test_link_state_round_trips():
    w = _changed()
    fresh = LofExplorer()
    fresh.load_url_state(decode_state(encode_state(w.url_state())))
    assert fresh.shooter == "Peeker" and fresh.models == w.models
    assert _verdicts(fresh) == _verdicts(w)
    assert fresh.url_state() == w.url_state()
    assert fresh.ruling_inputs["lof_grazing"].value == "touching_blocks" and fresh.cal_inputs["mid"].value == "4"


def test_downloaded_toml_opens_identically_in_the_notebook_and_the_cli(tmp_path):
    w = _changed()
    f = tmp_path / "shared.toml"
    f.write_text(w.to_toml(), encoding="utf-8")
    nb = _explorer_of(f)
    assert _verdicts(nb) == _verdicts(w) and nb.shooter == "Peeker"
    rep = lof_report(str(f))
    rep.pop("_verdicts")
    json.dumps(rep)
    assert [(d["target"], d["lof"]["has_lof"], d["readings"]) for d in rep["verdicts"]] == \
        [(t[0], t[1], t[7]) for t in _verdicts(w)]


def test_state_change_callback_and_bad_links_keep_the_state():
    w = LofExplorer()
    seen = []
    w.on_state_change(lambda: seen.append(w.url_state()["shooter"]))
    w.set_shooter("Peeker")
    assert seen[-1] == "Peeker"
    before = w.url_state()
    bad = dict(before, models=before["models"] + [dict(before["models"][0])])   # the same id twice
    with pytest.raises(ScenarioError) as e:
        w.load_url_state(bad)
    assert str(e.value).startswith("link: ") and "\n" not in str(e.value)
    with pytest.raises(ScenarioError, match="shooter"):
        w.load_url_state(dict(before, shooter="Nobody"))
    assert w.url_state() == before


def test_a_table_with_other_models_opens_over_the_page_and_back():
    """Found by the upload browser test: opening a table file whose Models are not the page's (the packaged
    lof-demo over the default page) raised TraitError from the shooter dropdown (its value was checked against the
    old Models) instead of showing the table."""
    from explorer.games import get_game
    from explorer.games.tagraid.tables import __file__ as tables_init
    from pathlib import Path

    w, _ = get_game("tagraid").open_page("line-of-fire")
    for name in ("lof-demo.toml", "tr-22.toml", "lof-quarry.toml"):
        f = Path(tables_init).parent / name
        w.load_toml(f.read_text(encoding="utf-8"), name)
        ref = _explorer_of(f)
        assert list(w.shooter_pick.options) == list(ref.models) and w.shooter_pick.value == ref.shooter
        assert w.verdict_html.value == ref.verdict_html.value


def test_the_help_text_does_not_repeat_the_face_to_face_links_words():
    """Newcomer finding: the header's help text quoted the link's own words ("Resolve this Face to Face Roll"), so
    the page showed them twice, once above and once as the link. The help says what the link does; the words stay
    on the link alone."""
    import html as _html
    import re

    w = LofExplorer()
    w.set_targets(["Spotter"])
    w._flush_state()                       # the link (deferred under a scheduler; at once here)
    label = _html.unescape(re.search(r"class='lof-f2f-link[^>]*>([^<]+)</a>", w.f2f_html.value).group(1))
    label = label.rstrip(" →")
    visible = _html.unescape(re.sub(r"<style.*?</style>|<[^>]+>", " ", w.header.value + w.f2f_html.value, flags=re.S))
    assert visible.count(label) == 1
    assert "Face to Face" in w.header.value    # the help still says where the link goes


def test_the_heading_names_the_table_shown_once():
    """Newcomer finding: the heading read "Line of Fire — Quarry — Line of Fire" (the packaged table's title already
    says it) and kept the old table's title after another table was opened."""
    import re

    from explorer.games import get_game
    from explorer.games.tagraid.tables import __file__ as tables_init
    from pathlib import Path

    def heading(w) -> str:
        return re.search(r"<h3[^>]*>(.*?)</h3>", w.header.value).group(1)

    w, _ = get_game("tagraid").open_page("line-of-fire")
    assert heading(w).lower().count("line of fire") == 1, heading(w)
    assert "Quarry" in heading(w)
    f = Path(tables_init).parent / "lof-demo.toml"
    w.load_toml(f.read_text(encoding="utf-8"), "lof-demo.toml")
    assert heading(w) == "Line of Fire — LoF demo: crate, low wall, pit and Stoorworm", heading(w)
    assert "Click or tap a Model" in w.header.value     # the help text stays under the new heading
