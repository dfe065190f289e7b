"""`explorer render` and :func:`explorer.render.embed.render_scenario`: a scenario of each game as SVG, HTML and
Markdown, with its picture where the game draws one, every cited step, the readings used and the outcome."""

import html
import xml.etree.ElementTree as ET

import pytest

from explorer.cli import main
from explorer.games import all_games, load_any
from explorer.render.embed import collect, render_scenario

ONE_PER_GAME = {"tagraid": "tr-02", "masseffect": "me-04", "galaxydefenders": "gd-01", "dagger": "dg-01"}
DRAWN = {"masseffect", "dagger"}  # games whose scenarios above have a picture


def test_one_scenario_per_registered_game():
    assert sorted(ONE_PER_GAME) == sorted(g.id for g in all_games())


@pytest.mark.parametrize("game_id,name", sorted(ONE_PER_GAME.items()))
def test_render_svg_html_md_of_each_game(game_id, name, capsys):
    game, sc = load_any(name)
    trace = game.resolve(sc, rulings={}, seed=None, reroll=False)
    assert trace.steps
    for fmt in ("svg", "html", "md"):
        assert main(["render", name, "--format", fmt]) == 0
        out = capsys.readouterr().out
        if fmt == "svg":
            root = ET.fromstring(out)  # well-formed, one document
            assert root.tag.endswith("svg")
            nested = root.findall("{http://www.w3.org/2000/svg}svg")
            assert bool(nested) == (game_id in DRAWN)
            text = " ".join(t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}text"))
            assert str(trace.steps[0].rule) in " ".join(text.split()) or trace.steps[0].rule.section in text
        elif fmt == "html":
            assert ("<svg" in out) == (game_id in DRAWN)
            for s in trace.steps:
                assert html.escape(s.title) in out and html.escape(str(s.rule)) in out
            for key, value in trace.rulings.items():
                assert f"<code>{key}</code>" in out and f"<code>{value}</code>" in out
        else:
            for s in trace.steps:
                assert str(s.rule) in out
            assert "```text\nOutcome:" in out


def test_ruling_flag_changes_the_rendered_verdict(capsys):
    assert main(["render", "tr-05", "--format", "md"]) == 0
    literal = capsys.readouterr().out
    assert main(["render", "tr-05", "--format", "md", "--ruling", "sv_above_20=excess_to_die"]) == 0
    parent = capsys.readouterr().out
    assert "Saving Rolls: T 2" in literal and "`literal` (default)" in literal
    assert "Saving Rolls: T 4" in parent and "`excess_to_die`" in parent and "(default)" not in parent.split(
        "Success Value above 20")[1].splitlines()[0]


def test_markdown_file_links_its_picture_written_next_to_it(tmp_path):
    out = tmp_path / "me-04.md"
    assert main(["render", "me-04", "--format", "md", "-o", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    assert "](me-04.svg)" in text and "<svg" not in text
    ET.fromstring((tmp_path / "me-04.svg").read_text(encoding="utf-8"))


def test_html_file_is_a_whole_document(tmp_path):
    out = tmp_path / "dg.html"
    assert main(["render", "dg-01", "-f", "html", "-o", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    assert text.startswith("<!doctype html>") and "explorer-embed" in text and "<svg" in text


def test_live_link_goes_to_the_page_of_the_scenario_kind():
    assert collect("me-07", app_url="http://x").live_url == "http://x/masseffect-enemy-activation"
    assert collect("me-04", app_url="http://x").live_url == "http://x/masseffect-mission-map"
    assert collect("tr-02", app_url="http://x").live_url == "http://x/tagraid-face-to-face"
    assert collect("gd-01", app_url="http://x").live_url == "http://x/galaxydefenders-combat"
    assert collect("dg-01", app_url="http://x").live_url == "http://x/dagger-nemesis-phase"
    assert collect("tr-16-order", app_url="http://x").live_url == "http://x/tagraid-orders"
    # no page shows these kinds (yet): no link rather than a link to a page that cannot show the scenario
    assert collect("gd-ai-seize-1", app_url="http://x").live_url is None
    assert collect("me-09", app_url="http://x").live_url is None
    assert collect("tr-02", binder_url="https://mybinder.org/v2/gh/o/r/HEAD").binder_url.startswith(
        "https://mybinder.org/v2/gh/o/r/HEAD?urlpath=")


def test_render_a_scenario_file(tmp_path):
    from explorer.games import get_game

    p = tmp_path / "mine.toml"
    p.write_text(get_game("masseffect").scenario_text("me-04"), encoding="utf-8")
    out = render_scenario(str(p), "html")
    assert "data-scenario='mine'" in out and "<svg" in out


@pytest.mark.parametrize("args,needle", [
    (["render", "tr-02", "--format", "pdf"], "unknown format"),
    (["render", "no-such-scenario"], "no built-in scenario"),
    (["render", "tr-05", "--ruling", "sv_above_20=nope"], "unknown reading"),
])
def test_bad_input_is_one_line_and_exit_2(args, needle, capsys):
    assert main(args) == 2
    err = capsys.readouterr().err
    assert needle in err and err.count("\n") == 1
