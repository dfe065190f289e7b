"""The documentation site: the rulings gallery lists every built-in scenario of every game, the site builds with
warnings as errors, and the ``{explorer}`` directive works in an outside Sphinx project."""

import html
import re
import subprocess
from pathlib import Path

import pytest

from docs_helpers import build_sphinx
from explorer.games import all_games
from explorer.render.gallery import gallery_pages, readings_compared

ROOT = Path(__file__).resolve().parents[1]


def _sphinx(src: Path, out: Path, *extra: str) -> subprocess.CompletedProcess:
    return build_sphinx(src, out, *extra)


@pytest.mark.slow
def test_gallery_has_a_page_per_game_listing_every_builtin():
    pages = gallery_pages()
    games = {f"{g.id}.md" for g in all_games()}
    assert {"index.md", "sections.md"} | games <= set(pages)
    assert all(p.startswith("section-") for p in set(pages) - games - {"index.md", "sections.md"})
    for g in all_games():
        text = pages[f"{g.id}.md"]
        targets = re.findall(r"^\(gallery-([a-z0-9-]+)\)=$", text, flags=re.M)
        assert targets == [g.id] + g.builtin_names()
        for s in g.scenarios():
            assert f"explorer resolve {s.name}`" in text


@pytest.mark.slow
def test_gallery_filter_lists_every_case_and_each_section_page_its_cases():
    """The index's client-side filter has one row per built-in case, carrying its game, kind, cited sections and
    whether a ruling option changes its verdict; each rule section a case cites has a page listing exactly the cases
    that cite it; the section pages are in the gallery's table of contents."""
    from explorer.render.gallery import FILTER_JS, section_page_name

    pages = gallery_pages()
    index = pages["index.md"]
    rows = re.findall(r"<tr data-game='([^']+)' data-kind='([^']+)' data-sections='([^']*)' data-ruling='(yes|no)'>"
                      r"<td><a href='[^']+#gallery-([a-z0-9-]+)'>", index)
    assert sorted(r[4] for r in rows) == sorted(n for g in all_games() for n in g.builtin_names())
    assert FILTER_JS.strip() in index and "data-filter='section'" in index and "data-filter='ruling'" in index
    by_name = {r[4]: r for r in rows}
    assert by_name["tr-05"][3] == "yes" and by_name["tr-05"][1] == "roll"   # sv_above_20 changes its verdict
    assert by_name["dg-01"][1] == "nemesis" and by_name["book-oes-order"][1] == "order"
    cited: dict[str, set[str]] = {}
    for game, _kind, secs, _r, name in rows:
        for s in secs.split("|"):
            g, section = html.unescape(s).split(":", 1)
            assert g == game
            cited.setdefault(section_page_name(g, section), set()).add(name)
    assert len(cited) == len({p for p in pages if p.startswith("section-")})   # no two sections share a page
    for page, names in cited.items():
        text = pages[f"{page}.md"]
        assert set(re.findall(r"\{ref\}`([a-z0-9-]+) <gallery-", text)) == names, page
        assert page in pages["sections.md"]


def test_ambiguous_case_shows_both_readings_with_the_default():
    from explorer.games import get_game

    g = get_game("tagraid")
    sc = g.load_builtin("tr-05")
    compared = {c["option"].key: c for c in readings_compared(g, sc, g.resolve(sc, rulings={}, seed=None,
                                                                               reroll=False))}
    c = compared["sv_above_20"]
    assert c["differs"] and set(c["outcomes"]) == {"literal", "excess_to_die"}
    assert "Saving Rolls: T 2" in c["outcomes"]["literal"][0] and "Saving Rolls: T 4" in c["outcomes"][
        "excess_to_die"][0]
    assert not compared["mod_cap"]["differs"]
    page = gallery_pages()["tagraid.md"]
    entry = page.split("(gallery-tr-05)=")[1].split("(gallery-")[0]
    assert "<code>literal</code> (default, used here)" in entry and "<code>excess_to_die</code></th>" in entry
    assert "Why `literal` is the default:" in entry


@pytest.mark.slow
def test_rule_index_pages_link_the_api_reference_and_the_gallery(built_site):
    from explorer.render.rule_pages import section_label
    from explorer.rule_index import build_index

    index = (built_site / "rule-index" / "index.html").read_text(encoding="utf-8")
    for g in all_games():
        assert f'href="{g.id}.html"' in index, g.id
        page = (built_site / "rule-index" / f"{g.id}.html").read_text(encoding="utf-8")
        for s in build_index(g.id).sections:
            assert f'id="{section_label(g.id, s)}"' in page, (g.id, s.title)
    page = (built_site / "rule-index" / "tagraid.html").read_text(encoding="utf-8")
    entry = page.split('id="rule-tagraid-face-to-face"')[1].split('id="rule-tagraid-')[0]
    # a function autodoc documents is a link into the API reference; a scenario links its gallery entry
    assert 'href="../api.html#explorer.games.tagraid.rolls.compare"' in entry
    assert 'href="../gallery/tagraid.html#gallery-tr-02"' in entry
    # one the API reference leaves out is shown as code, not as a broken link
    assert ">_face_to_face<" in entry and "api.html#explorer.games.tagraid.resolve._face_to_face" not in entry


@pytest.mark.slow
def test_site_builds_with_warnings_as_errors(built_site):
    tmp_path = built_site
    for g in all_games():
        page = (tmp_path / "gallery" / f"{g.id}.html").read_text(encoding="utf-8")
        for name in g.builtin_names():
            assert f'id="gallery-{name}"' in page, (g.id, name)
        game_page = (tmp_path / "games" / f"{g.id}.html").read_text(encoding="utf-8")
        assert "explorer-embed" in game_page
    assert (tmp_path / "gallery" / "masseffect.html").read_text(encoding="utf-8").count("<svg") >= 10
    assert "<svg" in (tmp_path / "games" / "dagger.html").read_text(encoding="utf-8")
    api = (tmp_path / "api.html").read_text(encoding="utf-8")
    assert "render_scenario" in api and "load_any" in api
    assert "tr-05" in (tmp_path / "searchindex.js").read_text(encoding="utf-8")
    notebooks = sorted(ROOT.glob("notebooks/*.ipynb")) + sorted(ROOT.glob("tutorials/*.ipynb"))
    assert len(notebooks) >= 8
    for nb in notebooks:  # every notebook executed and shown with its outputs; widgets as static pictures
        page = (tmp_path / nb.parent.name / (nb.stem + ".html")).read_text(encoding="utf-8")
        assert "cell_output" in page and "Traceback" not in page, nb.name
        assert "explorer-static-widget" in page, nb.name
        assert "an interactive canvas: open this notebook" not in page, nb.name  # every canvas was recorded
        for svg in re.findall(r"<svg class='explorer-static-canvas'.*?</svg>", page, flags=re.S):
            assert svg.count("<path") + svg.count("<text") >= 3, nb.name  # no blank canvas
        assert "widget-state+json" not in page  # unused megabytes of widget state are left out


@pytest.mark.slow
def test_outside_project_embeds_with_the_directive(tmp_path):
    pytest.importorskip("myst_parser")
    src = tmp_path / "src"
    src.mkdir()
    (src / "conf.py").write_text('extensions = ["myst_parser", "explorer.render.sphinx"]\n'
                                 'explorer_app_url = "https://rules.example.org"\n', encoding="utf-8")
    (src / "index.md").write_text("# Club primer\n\n```{toctree}\nrst\n```\n\n```{explorer} tr-05\n"
                                  ":rulings: sv_above_20=excess_to_die\n```\n", encoding="utf-8")
    (src / "rst.rst").write_text("Map\n===\n\n.. explorer:: me-04\n   :no-heading:\n", encoding="utf-8")
    r = _sphinx(src, tmp_path / "out")
    assert r.returncode == 0, r.stderr[-3000:]
    index = (tmp_path / "out" / "index.html").read_text(encoding="utf-8")
    assert "Saving Rolls: T 4" in index and "https://rules.example.org/tagraid-face-to-face" in index
    rst = (tmp_path / "out" / "rst.html").read_text(encoding="utf-8")
    assert "<svg" in rst and "explorer-embed-title" not in rst

    (src / "index.md").write_text("# Bad\n\n```{explorer} no-such-case\n```\n", encoding="utf-8")
    (src / "rst.rst").unlink()
    r = _sphinx(src, tmp_path / "out2")
    assert r.returncode != 0 and "no built-in scenario" in r.stderr


def _toml_examples():
    """Every ```toml block of the documentation pages: (page, line, text)."""
    out = []
    for page in sorted((ROOT / "docs").rglob("*.md")):
        text = page.read_text(encoding="utf-8")
        for m in re.finditer(r"^```toml\n(.*?)^```", text, flags=re.S | re.M):
            out.append((page.relative_to(ROOT).as_posix(), text[:m.start()].count("\n") + 1, m.group(1)))
    return out


EXAMPLES = _toml_examples()


@pytest.mark.parametrize("page,line,text", EXAMPLES, ids=[f"{p}:{n}" for p, n, _ in EXAMPLES])
def test_every_toml_example_in_the_docs_loads_and_runs(tmp_path, page, line, text):
    """A TOML example a reader copies must load and run as it stands (newcomer finding: the order file example put a
    Miner on hex 0,0 of board "small", which has no tile, and the round example left out the table it needs). A map
    file (a lone [map] table) loads with its game's map loader; anything else is a scenario: `load_any` then
    `resolve`."""
    import tomllib

    from explorer.games import load_any

    f = tmp_path / "example.toml"
    f.write_text(text, encoding="utf-8")
    data = tomllib.loads(text)
    if set(data) == {"map"}:
        if "dagger" in page:
            from explorer.games.dagger.worldmap import load_map_file as load_map
        else:
            assert "masseffect" in page, f"{page}:{line}: a map file on a page of no game with map files"
            from explorer.games.masseffect.map import load_map_toml as load_map
        load_map(f)
        return
    game, sc = load_any(str(f))
    trace = game.resolve(sc)
    assert trace.steps, f"{page}:{line}: the example resolves to no step"


def test_the_docs_have_toml_examples_for_orders_and_rounds():
    kinds = {tomllib_kind(t) for _, _, t in EXAMPLES}
    assert {"order", "round", "match", "nemesis", "hero"} <= kinds


def tomllib_kind(text):
    import tomllib

    return tomllib.loads(text).get("kind")
