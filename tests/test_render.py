"""`explorer render` and :func:`explorer.render.embed.render_scenario`: a scenario of each game as SVG, HTML and
Markdown, with its picture where the game draws one, every cited step, the readings used and the outcome."""

import html
import xml.etree.ElementTree as ET

import pytest

from explorer.cli import main
from explorer.games import all_games, load_any, read_toml
from explorer.render.embed import collect, render_scenario

ONE_PER_GAME = {"tagraid": "tr-02", "masseffect": "me-04", "galaxydefenders": "gd-01", "dagger": "dg-01"}
DRAWN = {"masseffect", "dagger", "tagraid", "galaxydefenders"}  # games whose scenarios above have a picture (tr-02,
# gd-01: their dice trays)


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
    # a page that can open a scenario (Page.open) gets the scenario in its URL (the app's ?scenario=<id>)
    assert collect("me-07", app_url="http://x").live_url == "http://x/masseffect-enemy-activation?scenario=me-07"
    assert collect("me-04", app_url="http://x").live_url == "http://x/masseffect-mission-map?scenario=me-04"
    assert collect("tr-02", app_url="http://x").live_url == "http://x/tagraid-face-to-face?scenario=tr-02"
    assert collect("dg-01", app_url="http://x").live_url == "http://x/dagger-nemesis-phase?scenario=dg-01"
    assert collect("dg-01").live_opens
    # the Combat and Strategy Pool pages open their scenario too (Page.open): no "opens its defaults" any more
    gd = collect("gd-01", app_url="http://x")
    assert gd.live_url == "http://x/galaxydefenders-combat?scenario=gd-01" and gd.live_opens
    page = render_scenario("gd-01", "html")
    assert "opens its defaults" not in page and "Open <code>gd-01</code> live" in page
    me = collect("me-diagram-5", app_url="http://x")
    assert me.live_url == "http://x/masseffect-strategy-pool?scenario=me-diagram-5" and me.live_opens
    assert collect("tr-16-order", app_url="http://x").live_url == "http://x/tagraid-orders?scenario=tr-16-order"
    assert collect("gd-ai-seize-1", app_url="http://x").live_url == "http://x/galaxydefenders-ai?scenario=gd-ai-seize-1"
    # no page shows these kinds (yet): no link rather than a link to a page that cannot show the scenario
    assert collect("gd-menace-book", app_url="http://x").live_url is None
    assert collect("me-09", app_url="http://x").live_url is None
    # Binder: the same page and scenario through jupyter-panel-proxy's explorer_page app
    b = collect("tr-02", binder_url="https://mybinder.org/v2/gh/o/r/HEAD").binder_url
    assert b == ("https://mybinder.org/v2/gh/o/r/HEAD?urlpath=panel%2Fexplorer_page%3Fpage%3Dtagraid-face-to-face"
                 "%26scenario%3Dtr-02")
    assert collect("tr-02").binder_url is None or collect("tr-02", binder_url="").binder_url is None


def test_file_scenarios_link_to_the_page_without_an_id(tmp_path):
    from explorer.games import get_game

    p = tmp_path / "mine.toml"
    p.write_text(get_game("dagger").scenario_text("dg-03"), encoding="utf-8")
    r = collect(str(p), app_url="http://x")
    assert r.live_url == "http://x/dagger-nemesis-phase" and not r.live_opens  # "mine" is no built-in id
    assert "opens its defaults" in render_scenario(str(p), "html")


def test_scenario_query_parameter_is_checked():
    from explorer.app import requested_scenario, scenario_page_widget

    assert requested_scenario("dagger", "nemesis-phase", "?scenario=dg-03&s=1.x") == ("dg-03", "")
    assert requested_scenario("dagger", "nemesis-phase", "") == (None, "")
    for search, needle in [("?scenario=nope", "no built-in"), ("?scenario=" + "x" * 500, "no built-in"),
                           ("?scenario=dg-03<b>", "&lt;b&gt;")]:
        name, msg = requested_scenario("dagger", "nemesis-phase", search)
        assert name is None and needle in msg and "<b>" not in msg
        # the message names the parameter and the allowed values, and says the address now links to the page shown
        assert msg.startswith("?scenario=") and "(allowed: dg-" in msg and msg.endswith("what the page shows.")
    name, msg = requested_scenario("masseffect", "mission-map", "?scenario=me-07")  # an activation, not a map
    assert name is None and "not one this page shows" in msg and "/masseffect-enemy-activation?scenario=me-07" in msg
    assert requested_scenario("masseffect", "strategy-pool", "?scenario=me-diagram-5") == ("me-diagram-5", "")
    assert requested_scenario("galaxydefenders", "combat", "?scenario=gd-04") == ("gd-04", "")
    w, _redraw, msg = scenario_page_widget("masseffect", "strategy-pool", "?scenario=me-strategy-paragon")
    assert msg == "" and w.opened == "me-strategy-paragon" and w.squadmate.value == "Wrex"
    w, _redraw, msg = scenario_page_widget("galaxydefenders", "combat", "?scenario=gd-03")
    assert msg == "" and w.opened == "gd-03" and w.target_kind.value == "agent"
    w, _redraw, msg = scenario_page_widget("dagger", "nemesis-phase", "?scenario=dg-03")
    assert msg == "" and w.picker.value == "dg-03"
    w, _redraw, msg = scenario_page_widget("masseffect", "enemy-activation", "?scenario=me-07")
    assert msg == "" and w.picker.value == "me-07"
    w, _redraw, msg = scenario_page_widget("tagraid", "face-to-face", "?scenario=tr-05")
    from explorer.games.tagraid.views import explorer_for_scenario

    assert w.trace.steps[0].title == explorer_for_scenario("tr-05").trace.steps[0].title


def test_another_game_s_scenario_id_names_its_game_and_the_page_that_opens_it():
    """Every built-in of every game asked of every other game's pages: the message names its game (as the CLI does)
    and links the page that opens it (newcomer finding: "/galaxydefenders-combat?scenario=tr-02")."""
    from explorer.app import requested_scenario
    from explorer.games import all_games
    from explorer.render.embed import live_link

    games = all_games()
    for g in games:
        for name in g.builtin_names()[::7]:
            kind = str(read_toml(name, text=g.scenario_text(name)).get("kind", ""))
            link = live_link(g, name, kind)
            for other in games:
                if other.id == g.id:
                    continue
                for p in other.pages:
                    got, msg = requested_scenario(other.id, p.slug, f"?scenario={name}")
                    assert got is None and f"is a scenario of {html.escape(g.title)}" in msg, (name, other.id)
                    assert link is None or html.escape(link[0]) in msg, (name, msg)


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


# ------------------------------------------------------------------ static pictures of widgets (explorer.widgets.static)

def _recording(monkeypatch):
    from explorer.widgets import static

    monkeypatch.setenv(static.STATIC_ENV, "1")
    return static


def test_recorded_canvas_replays_as_svg(monkeypatch):
    static = _recording(monkeypatch)
    import numpy as np

    from explorer.widgets.canvas import hold, own_canvas

    c = own_canvas(200, 100)
    with hold(c):
        c.fill_style = "#ff0000"
        c.fill_rect(10, 20, 30, 40)
        c.fill_style = "blue"
        c.fill_text("Wound", 50, 60)
    root = ET.fromstring(static.canvas_svg(c))
    paths = root.findall("{http://www.w3.org/2000/svg}path")
    assert [(p.get("d"), p.get("fill")) for p in paths] == [("M10,20 h30 v40 h-30 Z", "#ff0000")]
    texts = root.findall("{http://www.w3.org/2000/svg}text")
    assert [(t.text, t.get("x"), t.get("fill")) for t in texts] == [("Wound", "50", "blue")]
    c.clear()  # a clear() starts the picture afresh
    c.fill_styled_polygons(np.array([[[0, 0], [10, 0], [10, 10]]], dtype=float), np.array([[1, 2, 3]], np.uint8))
    paths = ET.fromstring(static.canvas_svg(c)).findall("{http://www.w3.org/2000/svg}path")
    assert [(p.get("d"), p.get("fill")) for p in paths] == [("M0,0 L10,0 L10,10 Z", "rgb(1,2,3)")]
    monkeypatch.setenv(static.STATIC_ENV, "")
    assert static.canvas_svg(own_canvas(10, 10)) is None  # not recording: no picture, and no recording cost


def test_a_widget_tree_with_canvases_gets_a_static_picture(monkeypatch):
    static = _recording(monkeypatch)
    from explorer.games.tagraid.views import explorer_for_scenario

    w = explorer_for_scenario("tr-02")
    w.redraw()
    bundle = static.static_bundle(w)
    assert "application/vnd.jupyter.widget-view+json" in bundle  # the widget view stays for Jupyter
    page = bundle["text/html"]
    # the canvases' pictures (the page's stylesheet also holds a data-URL SVG: the "drawing…" hint, not a canvas)
    svgs = [ET.fromstring(s + "</svg>") for s in
            (x.split("</svg>")[0] for x in page.split("<svg")[1:]) for s in ["<svg" + s]]
    svgs = [s for s in svgs if s.get("class") == "explorer-static-canvas"]
    assert len(svgs) >= 2  # the dice tray and the odds chart, drawn
    assert all(len(list(s)) > 5 for s in svgs)  # no blank canvas
    assert "Saving Rolls" in page and html.escape(w.trace.steps[0].title) in page  # the trace's HTML is kept
    import ipywidgets as W

    assert "text/html" not in static.static_bundle(W.IntSlider(description="n"))  # no canvas: the widget view only


def test_a_page_without_open_still_says_it_cannot_open_a_scenario(monkeypatch):
    """Every page opens its scenarios now; a page registered without ``Page.open`` keeps the one-line reason."""
    from dataclasses import replace

    import explorer.games as games
    from explorer.app import requested_scenario

    real = games.get_game("masseffect")
    fake = replace(real, pages=tuple(replace(p, open=None) for p in real.pages))
    monkeypatch.setattr(games, "get_game", lambda gid: fake if gid == "masseffect" else real)
    name, msg = requested_scenario("masseffect", "strategy-pool", "?scenario=me-diagram-5")
    assert name is None and "cannot open a scenario" in msg


def test_render_to_a_directory_names_the_option(tmp_path, capsys):
    """Newcomer finding: ``explorer render me-04 -o /tmp`` said only "Is a directory (/tmp)"."""
    from explorer.cli import main

    assert main(["render", "me-04", "--format", "svg", "-o", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("error: field '--output': ") and "is a directory" in err and "\n" not in err


# ------------------------------------------------------------------ a picture for every built-in scenario (issue 23)

NO_PICTURE_YET: set[tuple[str, str]] = set()
"""(game, kind) pairs whose built-in scenarios the embeds and the gallery still show without a picture (issue 23,
item 3: dice trays for rolls, boards and maps for the rest). Remove a pair once every scenario of it is drawn: the
test below fails until you do."""


def _kinds_and_pictures():
    out = {}
    for g in all_games():
        for name in g.builtin_names():
            kind = str(read_toml(name, text=g.scenario_text(name)).get("kind", "")) or "roll"
            sc = g.load_builtin(name)
            trace = g.resolve(sc, rulings={}, seed=None, reroll=False)
            drawn = bool(g.picture(sc, trace)) if g.picture is not None else False
            out.setdefault((g.id, kind), []).append((name, drawn))
    return out


def test_every_built_in_scenario_has_a_picture_but_the_listed_kinds():
    for key, cases in sorted(_kinds_and_pictures().items()):
        undrawn = [n for n, drawn in cases if not drawn]
        if key in NO_PICTURE_YET:
            assert undrawn, f"{key}: every scenario is drawn now: remove it from NO_PICTURE_YET"
        else:
            assert not undrawn, f"{key}: no picture for {undrawn}"
    assert ("tagraid", "roll") not in NO_PICTURE_YET and ("galaxydefenders", "combat") not in NO_PICTURE_YET


def test_sides_named_after_colours_are_drawn_in_those_colours():
    """The rulebook's Evade example names its sides yellow, red, blue, green (Timeline yellow first): the yellow TAG
    is drawn yellow, not in the palette's first colour (blue), in the picture the gallery and the embeds show."""
    from explorer.games import get_game
    from explorer.games.tagraid.orders_svg import NAMED_SIDES, SIDE_PALETTE, side_colours

    g = get_game("tagraid")
    sc = g.load_builtin("book-evade-order")
    cols = side_colours(sc.initial)
    assert list(sc.initial.timeline) == ["yellow", "red", "blue", "green"]
    assert cols == {s: NAMED_SIDES[s] for s in ("yellow", "red", "blue", "green")}
    svg = g.picture(sc, g.resolve(sc, rulings={}, seed=None, reroll=False))
    assert NAMED_SIDES["yellow"] in svg
    # sides not named after a colour take the palette's unused colours, in Timeline order
    from dataclasses import replace

    other = replace(sc.initial, timeline=("Nomads", "blue", "Haqqislam"))
    assert side_colours(other) == {"Nomads": SIDE_PALETTE[1], "blue": NAMED_SIDES["blue"], "Haqqislam": SIDE_PALETTE[2]}


def _picture_of(game_id: str, name: str) -> str:
    from explorer.games import get_game

    g = get_game(game_id)
    sc = g.load_builtin(name)
    return g.picture(sc, g.resolve(sc, rulings={}, seed=None, reroll=False))


def _cards(svg: str) -> list[ET.Element]:
    root = ET.fromstring(svg)
    return [g for g in root.iter("{http://www.w3.org/2000/svg}g") if g.get("class") == "explorer-card"]


def _texts(el: ET.Element) -> list[str]:
    return [t.text or "" for t in el.iter("{http://www.w3.org/2000/svg}text")]


def _filled_boxes(el: ET.Element, colour: str) -> int:
    return sum(1 for r in el.iter("{http://www.w3.org/2000/svg}rect") if r.get("fill") == colour
               and r.get("height") == r.get("width"))


def test_conditions_picture_shows_the_target_after_each_event():
    """GD-05: Poison 2 then two Refresh phases: one card before and one per event; the wounds grow 1, 2, 3 of 8
    (filled red boxes) and the last card, outlined, has no Poison left."""
    cards = _cards(_picture_of("galaxydefenders", "gd-05"))
    assert [_texts(c)[0] for c in cards] == ["Before", "1. poison 2", "2. refresh", "3. refresh"]
    assert [_filled_boxes(c, "#c92a2a") for c in cards] == [0, 1, 2, 3]
    assert "no Poison or Mark" in _texts(cards[-1]) and "Poison 2" in _texts(cards[1])
    assert cards[-1].find("{http://www.w3.org/2000/svg}rect").get("stroke") == "#1c7ed6"


def test_menace_and_npc_assignment_pictures_name_the_holder():
    menace = _cards(_picture_of("galaxydefenders", "gd-08"))
    assert len(menace) == 7 and "Menacing Agent: Marine" in _texts(menace[-1])
    assert "attacks Sniper" in _texts(menace[-1])
    npc = _cards(_picture_of("galaxydefenders", "gd-33"))
    got = [c for c in npc if "gets the new card" in _texts(c)]
    assert [_texts(c)[0] for c in got] == ["P3"]


def test_elite_damage_picture_draws_the_resilience_tracker_level_by_level():
    """ME-09: an Elite Ravager [4, 6, 5] with levels 1 and 2 exhausted: 4 + 6 filled boxes, level 3 at 0/5, and
    5 Damage still to defeat it (Additional Enemy Rules › Elites)."""
    cards = _cards(_picture_of("masseffect", "me-09"))
    ravager = next(c for c in cards if _texts(c)[0] == "Ravager")
    assert _filled_boxes(ravager, "#c92a2a") == 10
    assert {"4/4", "6/6", "0/5", "5 Damage to defeat"} <= set(_texts(ravager))


def test_setup_picture_places_the_first_strike_enemies_on_the_map():
    svg = _picture_of("dagger", "dg-setup")
    texts = [t.text for t in ET.fromstring(svg).iter("{http://www.w3.org/2000/svg}text")]
    assert "Thug 1" in texts and "Thug 2" in texts
    assert any((t or "").startswith("1st strike: 2 enemies placed") for t in texts)


def test_sheet_wraps_a_long_title_and_greys_a_card_that_is_out():
    from explorer.render.sheet_svg import Card, sheet_svg

    svg = sheet_svg([Card("A", out="Bleeding"), Card("B")], "word " * 60, "note")
    texts = _texts(ET.fromstring(svg))
    assert texts[0].startswith("word word") and texts[1].endswith("…") and "Bleeding" in texts
    assert 'fill="#e9ecef"' in ET.tostring(_cards(svg)[0], encoding="unicode")
