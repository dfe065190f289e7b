"""Table scenarios (``kind = "table"``): ``explorer resolve`` answers a table question (TR-22) with cited verdicts."""

import math

import pytest

from explorer.errors import ScenarioError
from explorer.games import get_game, load_any
from explorer.games.tagraid.table_file import load_packaged_table

G = get_game("tagraid")



def _b(trace):
    return next(v for v in trace.outcome["verdicts"] if v["target"] == "B")


@pytest.mark.parametrize("reading", ["touching_blocks", "touching_does_not_block"])
def test_tr22_builtin_short_range_in_both_readings(reading):
    game, sc = load_any("tr-22")
    assert game.id == "tagraid"
    t = game.resolve(sc, {"lof_grazing": reading})
    b = _b(t)
    assert b["lof"]["has_lof"] and b["range"]["band"] == "short"
    lt = load_packaged_table("tr-22")
    r = lt.table.calibration.radius(lt.table.model("A").silhouette)
    assert b["range"]["distance"] == pytest.approx(6 - 2 * math.sqrt(r * r - 0.01), abs=1e-3)
    assert t.rulings["lof_grazing"] == reading
    assert all(s.rule.section for s in t.steps)
    assert "Short Range" in game.outcome_text(t)


def test_table_file_without_kind_is_a_table_scenario(tmp_path):
    from importlib import resources

    text = (resources.files("explorer.games.tagraid") / "tables" / "lof-quarry.toml").read_text()
    p = tmp_path / "quarry.toml"
    p.write_text(text)
    game, sc = load_any(str(p))
    t = game.resolve(sc)
    o = t.outcome
    assert o["shooter"] == "Cutter" and len(o["verdicts"]) == len(load_packaged_table("lof-quarry").table.models) - 1
    # every target has a step citing Line of Fire; every measured target a Range Ruler step
    targets = {s.facts["target"] for s in t.steps if s.section == "Line of Fire"}
    assert targets == {v["target"] for v in o["verdicts"]}
    ranged = {v["target"] for v in o["verdicts"] if v["range"] and v["range"]["distance"] is not None}
    assert ranged == {s.facts["target"] for s in t.steps if s.section == "Range"}
    assert set(o["has_lof"]) < targets  # the quarry shows both LoF and no LoF


@pytest.mark.parametrize("text, field, allowed", [
    ('kind = "table"\ntable = "nope"', "table", "lof-quarry"),
    ('kind = "table"\ntable = "tr-22"\nshooter = "Z"', "shooter", "'A'"),
    ('kind = "table"\ntable = "tr-22"\n[rulings]\nlof_grazing = "x"', "rulings.lof_grazing", "touching_blocks"),
    ('kind = "table"\ntable = "tr-22"\n[rulings]\nfoo = "x"', "rulings.foo", "lof_grazing"),
    ('kind = "table"\ntable = "tr-22"\ncolour = 3', "colour", "shooter"),
    ('kind = "tabel"', "kind", "table"),
])
def test_table_scenario_errors_name_file_field_and_allowed(text, field, allowed):
    with pytest.raises(ScenarioError) as e:
        load_any("my.toml", text='game = "tagraid"\n' + text)
    msg = str(e.value)
    assert "\n" not in msg and msg.startswith("my.toml") and f"'{field}'" in msg and allowed in msg


def test_resolve_cli_prints_tr22(capsys):
    from explorer.cli import main

    assert main(["resolve", "tr-22"]) in (0, None)
    out = capsys.readouterr().out
    assert "Outcome: A has Line of Fire to 1 of 1 Models" in out and "Short Range (5.662 hex units)" in out


def test_render_tr22_svg_draws_the_table():
    from explorer.render.embed import render_scenario

    svg = render_scenario("tr-22", fmt="svg")
    assert svg.startswith("<svg") and "<polygon" in svg and "B" in svg


def test_the_line_of_fire_page_opens_a_table_scenario():
    """``/tagraid-line-of-fire?scenario=tr-22``: the page shows the scenario's table, shooter and readings, and its
    verdict equals ``explorer resolve tr-22``'s (B at Short Range, 5.662 hex units)."""
    page = G.page("line-of-fire")
    assert "table" in page.kinds and page.open is not None
    lof, redraw = page.open(G, "tr-22")
    redraw()
    assert lof.shooter == "A" and lof.rulings.reading("lof_grazing") == "touching_blocks"
    b = next(v for v in lof.verdicts if v.target == "B")
    want = _b(G.resolve(G.load_builtin("tr-22")))
    assert b.lof.has_lof and b.band == want["range"]["band"] == "short"
    assert round(b.range.distance, 4) == want["range"]["distance"]


def test_documentation_links_a_table_scenario_to_the_line_of_fire_page():
    from explorer.render.embed import collect

    r = collect("tr-22", app_url="http://x")
    assert r.live_url == "http://x/tagraid-line-of-fire?scenario=tr-22" and r.live_opens


@pytest.mark.parametrize("name", __import__("explorer.games.tagraid.table_file", fromlist=["x"]).available_tables())
def test_resolve_and_tagraid_lof_give_one_verdict_per_target_on_every_packaged_table(name):
    """A table file without ``[weapon]`` / ``[threat]`` was read with other stand-ins by ``explorer resolve`` (MODs
    0 / 0 / none: "short, MOD +0", "Out of Range, cannot fire") than by ``explorer tagraid lof`` and the Line of Fire
    page (+3 / 0 / -3): one file, two verdicts. Every reader now gives the same band, MOD and LoF per target."""
    from importlib.resources import files

    from explorer.games.tagraid.cli_lof import lof_report

    path = files("explorer.games.tagraid") / "tables" / f"{name}.toml"
    report = lof_report(str(path))
    game, sc = load_any(str(path))
    trace = game.resolve(sc)
    assert trace.outcome["shooter"] == report["shooter"]
    strip = lambda d: {k: d[k] for k in ("target", "lof", "range", "partial_cover", "threat")}  # noqa: E731
    assert [strip(d) for d in trace.outcome["verdicts"]] == [strip(d) for d in report["verdicts"]]
