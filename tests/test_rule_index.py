"""The rule index (explorer/rule_index.py, `explorer rules`, the generated docs pages): every section of every game is
listed in rulebook order with the code, scenarios and tests that cite it, the gaps included; the scanner finds
citations by constant (through any import alias) and by title, and not by a bare word; the CLI prints text and JSON
and names a bad --game or --section in one line."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from cli_helpers import ROOT
from explorer.cli import main
from explorer.games import game_ids, get_game
from explorer.rule_index import RuleIndex, build_index, cache_path, scan_tests, section_constants, titles_in
from explorer.render.rule_pages import rule_index_pages, section_label

UI = ("ipywidgets", "ipycanvas", "traitlets", "panel", "bokeh")


@pytest.fixture(autouse=True, scope="module")
def _private_cache(tmp_path_factory):
    """Keep the on-disk cache of this module's runs out of the user's cache directory."""
    mp = pytest.MonkeyPatch()
    mp.setenv("EXPLORER_CACHE_DIR", str(tmp_path_factory.mktemp("rule-index-cache")))
    yield
    mp.undo()


@pytest.fixture(scope="module")
def indexes() -> dict[str, RuleIndex]:
    return {g: build_index(g, cache=False) for g in game_ids()}


@pytest.mark.parametrize("gid", game_ids())
def test_every_section_constant_is_listed_in_sections_py_order(indexes, gid):
    constants = section_constants(get_game(gid))
    index = indexes[gid]
    titles = list(dict.fromkeys(ref.section for _n, ref in constants))
    assert [s.title for s in index.sections[:len(titles)]] == titles
    listed = {c for s in index.sections for c in s.constants}
    assert listed == {name for name, _ref in constants}
    # a section traces cite that sections.py lacks is listed after them, and marked so
    assert all(not s.constants for s in index.sections[len(titles):])


@pytest.mark.parametrize("gid", game_ids())
def test_gaps_are_listed_with_no_code(indexes, gid):
    index = indexes[gid]
    assert index.gaps == tuple(s for s in index.sections if not s.code)
    assert len(index.gaps) < len(index.sections) / 2, [s.title for s in index.gaps]  # the scan finds most code


def test_face_to_face_lists_its_code_scenarios_tests_and_rulings(indexes):
    entry = indexes["tagraid"].section("Rolls › Face to Face Rolls")
    assert entry.constants == ("FACE_TO_FACE",)
    targets = {c.target: c for c in entry.code}
    compare = targets["explorer.games.tagraid.rolls:compare"]  # the cancellation: cited in its docstring
    assert compare.how == ("docstring",) and compare.kind == "function"
    assert compare.path == "explorer/games/tagraid/rolls.py" and compare.summary.startswith("Cancel two classified")
    source = (get_game("tagraid").package.replace(".", "/") + "/rolls.py")
    assert compare.path == source
    step = targets["explorer.games.tagraid.resolve:face_to_face_rolls"]  # names S.FACE_TO_FACE in its body
    assert "constant" in step.how and step.kind == "function"
    assert "explorer.games.tagraid.sections:FACE_TO_FACE" not in targets  # the sections module is not code
    assert "tr-02" in entry.scenarios
    assert "megabeast_equal" in entry.rulings
    ties = indexes["tagraid"].section("Rolls › Face to Face Rolls › Breaking Ties")
    assert "tests/tagraid/test_resolve.py::test_tie_equal_results_cancel" in [t.nodeid for t in ties.tests]
    # the nested title counts for Breaking Ties, not for its parent as well
    assert "tests/tagraid/test_resolve.py::test_tie_equal_results_cancel" not in [t.nodeid for t in entry.tests]


def test_a_scenario_is_listed_exactly_under_the_sections_its_trace_cites(indexes):
    g = get_game("tagraid")
    trace = g.resolve(g.load_builtin("tr-02"), rulings={}, seed=None, reroll=False)
    cited = {s.rule.section for s in trace.steps}
    listed = {s.title for s in indexes["tagraid"].sections if "tr-02" in s.scenarios}
    assert listed == cited


def test_titles_in_takes_the_longest_title_and_skips_bare_words():
    titles = ["Rolls › Face to Face Rolls", "Rolls › Face to Face Rolls › Breaking Ties", "Death", "8.2 Critical",
              "8.2.1 Compatibility"]
    assert titles_in("see Rolls › Face to Face\n    Rolls › Breaking Ties.", titles) == {
        "Rolls › Face to Face Rolls › Breaking Ties"}
    assert titles_in("(Rolls › Face to Face Rolls, Criticals)", titles) == {"Rolls › Face to Face Rolls"}
    assert titles_in("after Death the Miner respawns", titles) == set()
    assert titles_in("Death", titles, exact=True) == {"Death"}
    assert titles_in("8.2 Criticals and 18.2 Critical", titles) == set()
    assert titles_in("8.2 Critical, 8.2.1 Compatibility", titles) == {"8.2 Critical", "8.2.1 Compatibility"}


def test_scan_tests_finds_constants_through_any_alias_and_titles_in_strings(tmp_path):
    g = get_game("tagraid")
    constants = section_constants(g)
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "test_fake.py").write_text(
        "from explorer.games.tagraid import sections as R\n"
        "from explorer.games.tagraid.sections import DEATH as D\n\n"
        "def test_alias():\n    assert R.FACE_TO_FACE\n\n"
        "def test_imported_name():\n    assert D\n\n"
        "class TestGroup:\n    def test_title(self):\n        assert 'Damage › Saving Roll'\n\n"
        "def test_bare_word():\n    assert 'Death' != 'after Death'\n\n"
        "def test_other_module():\n    import explorer.games.masseffect.sections as S\n    assert S.ELITES\n",
        encoding="utf-8")
    smod = f"{g.package}.sections"
    found = scan_tests({smod: constants}, tmp_path)

    def ids(title):
        return [t.name for t in found.get((smod, title), [])]

    assert ids("Rolls › Face to Face Rolls") == ["test_alias"]
    assert ids("Death") == ["test_imported_name", "test_bare_word"]  # the string equal to the title counts
    assert ids("Damage › Saving Roll") == ["TestGroup::test_title"]
    assert [t.how for t in found[(smod, "Death")]] == [("constant",), ("title",)]
    assert not any("test_other_module" in ids(ref.section) for _n, ref in constants)
    assert scan_tests({smod: constants}, tmp_path / "missing") == {}


def test_json_round_trips_and_the_cache_is_reused(tmp_path, monkeypatch):
    monkeypatch.setenv("EXPLORER_CACHE_DIR", str(tmp_path))
    first = build_index("dagger")
    path = cache_path("dagger")
    assert path.parent == tmp_path and path.name.startswith("rule-index-dagger-") and path.is_file()
    assert RuleIndex.from_dict(json.loads(json.dumps(first.to_dict()))) == first
    data = json.loads(path.read_text(encoding="utf-8"))
    data["index"]["sections"] = data["index"]["sections"][:1]
    path.write_text(json.dumps(data), encoding="utf-8")
    assert len(build_index("dagger").sections) == 1  # the (doctored) cache is what is read back
    data["key"] = "stale"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert build_index("dagger") == first  # a stale key is rebuilt


def test_cli_text_for_one_section(capsys):
    assert main(["rules", "--game", "tagraid", "--section", "breaking ties"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("# Infinity Deathmatch: TAG Raid (tagraid): 59 sections, ")
    assert "Rolls › Face to Face Rolls › Breaking Ties  [BREAKING_TIES]" in out
    assert "explorer.games.tagraid.resolve:_result_step" in out and "resolve.py:" in out
    assert "scenarios: " in out and "tr-03" in out
    assert "tests/tagraid/test_resolve.py::test_tie_equal_results_cancel" in out
    assert "Rolls › Face to Face Rolls  [" not in out


def test_cli_text_lists_every_section_and_says_which_have_no_code(capsys, indexes):
    assert main(["rules", "--game", "masseffect"]) == 0
    out = capsys.readouterr().out
    for s in indexes["masseffect"].sections:
        assert f"\n{s.title}  [" in out
    assert out.count("none (no code cites this section)") == len(indexes["masseffect"].gaps)


def test_cli_json(capsys, indexes):
    assert main(["rules", "--game", "galaxydefenders", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["game"] == "galaxydefenders" and [s["title"] for s in data["sections"]] == \
        [s.title for s in indexes["galaxydefenders"].sections]
    lethal = next(s for s in data["sections"] if s["constants"] == ["LETHAL"])
    assert lethal["implemented"] and all(":" in c["target"] or c["kind"] == "module" for c in lethal["code"])
    assert main(["rules", "--section", "Lethal", "--json"]) == 0
    every = json.loads(capsys.readouterr().out)
    assert [d["game"] for d in every] == game_ids()
    assert [s["title"] for s in every[2]["sections"]] == ["8.1 Lethal"]


@pytest.mark.parametrize("argv, start", [
    (["rules", "--game", "chess"], "error: field '--game': unknown game 'chess' (allowed: one of 'tagraid', "
                                   "'masseffect', 'galaxydefenders', 'dagger')"),
    (["rules", "--game", "dagger", "--section", "zzz"], "error: field '--section': no section title or constant "
                                                         "contains 'zzz'"),
])
def test_cli_bad_option_is_one_line(capsys, argv, start):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith(start) and err.count("\n") == 1, err


def test_the_engine_imports_no_ui_library():
    code = ("import sys\nimport explorer.rule_index, explorer.render.rule_pages\n"
            "print(' '.join(sorted(sys.modules)))")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env=env).stdout.split()
    assert [m for m in out if m.split(".")[0] in UI] == []


def test_docs_pages_link_code_scenarios_and_sections(indexes):
    pages = rule_index_pages(["tagraid", "dagger"])
    assert sorted(pages) == ["dagger.md", "index.md", "tagraid.md"]
    page = pages["tagraid.md"]
    for s in indexes["tagraid"].sections:
        assert f"({section_label('tagraid', s)})=" in page
    assert len({section_label("tagraid", s) for s in indexes["tagraid"].sections}) == len(indexes["tagraid"].sections)
    entry = page.split("(rule-tagraid-face-to-face)=")[1].split("(rule-tagraid-")[0]
    assert "{py:obj}`compare <explorer.games.tagraid.rolls.compare>`" in entry
    assert "{ref}`tr-02 <gallery-tr-02>`" in entry
    for gap in indexes["tagraid"].gaps:
        assert f"<{section_label('tagraid', gap)}>`" in page.split("**Coverage gaps**")[1].split("\n")[0]
    assert "{doc}`Marvel D.A.G.G.E.R. <dagger>`" in pages["index.md"]
    bare = rule_index_pages(["tagraid"], gallery=False)["tagraid.md"]
    assert "<gallery-" not in bare and "`tr-02`" in bare


def test_a_cached_index_is_printed_without_loading_the_games(tmp_path, monkeypatch):
    from cli_helpers import modules_after

    monkeypatch.setenv("EXPLORER_CACHE_DIR", str(tmp_path))
    assert modules_after(["rules", "--game", "dagger"])[0] == 0  # builds and caches
    rc, mods = modules_after(["rules", "--game", "dagger"])
    assert rc == 0
    heavy = ("pydantic", "explorer.scenario", "networkx", "shapely", "numpy", *UI)
    assert sorted(m for m in mods if any(m == h or m.startswith(h + ".") for h in heavy)) == []
    assert not any(m.startswith("explorer.games.dagger") for m in mods)


def _rules_dir():
    from pathlib import Path

    for d in (os.environ.get("EXPLORER_RULES_DIR"), ROOT / "shared" / "rules", ROOT.parent / "shared" / "rules",
              "/work/shared/rules"):
        if d and Path(d).is_dir():
            return Path(d)
    return None


def _heading_line(lines: list[str], title: str) -> int | None:
    """The line of a section's heading in a rulebook text: each part of the ``›`` path in turn, as a line of its own
    followed by a paragraph (so not a table-of-contents entry); ``None`` when some part is not such a heading."""
    import re

    def norm(s):
        return re.sub(r"\s+", " ", s.strip().lower().replace("’", "'")).rstrip(":").lstrip("#•").strip()

    text = [norm(x) for x in lines]
    pos = 0
    for part in title.split(" › "):
        p = norm(part)
        hit = next((i for i in range(pos, len(text)) if text[i] == p
                    and next((len(x) > 60 for x in text[i + 1:i + 6] if x), False)), None)
        if hit is None:
            return None
        pos = hit
    return pos


@pytest.mark.parametrize("gid", game_ids())
def test_sections_py_follows_the_rulebook_where_its_headings_are_found(gid):
    rules = _rules_dir()
    if rules is None or not (rules / get_game(gid).rulebook).is_file():
        pytest.skip("the rulebook texts are not here (set EXPLORER_RULES_DIR)")
    lines = (rules / get_game(gid).rulebook).read_text(encoding="utf-8").splitlines()
    located = [(name, _heading_line(lines, ref.section)) for name, ref in section_constants(get_game(gid))]
    located = [(name, at) for name, at in located if at is not None]
    assert len(located) >= 7
    behind = [(name, at) for (_p, before), (name, at) in zip(located, located[1:]) if at < before]
    assert behind == [], "sections.py is not in rulebook order here (a new constant goes where its section is)"
