"""The game registry: one uniform surface per game; game-neutral code imports no game; the CLI and the app span
every game (explorer/games/__init__.py)."""

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

from explorer.cli import main
from explorer.errors import ScenarioError
from explorer.games import all_builtin_names, all_games, find_builtin, game_ids, get_game, load_any

ROOT = Path(__file__).resolve().parent.parent
PKG = ROOT / "explorer"
GAME_PACKAGES = {p.name for p in (PKG / "games").iterdir() if p.is_dir() and (p / "__init__.py").exists()}


def _neutral_modules():
    for f in PKG.rglob("*.py"):
        rel = f.relative_to(PKG)
        if rel.parts[0] == "games" and len(rel.parts) > 2:
            continue   # inside a game package
        yield f


def test_every_game_package_is_registered_and_registered_ids_resolve():
    assert GAME_PACKAGES == set(game_ids())
    for g in all_games():
        assert get_game(g.id) is g and g.title and g.rulebook
        assert (ROOT.parent / "shared" / "rules" / g.rulebook).exists() or not (ROOT.parent / "shared").exists()


def test_game_neutral_modules_import_no_game_statically():
    """No module outside explorer/games/<game>/ imports a game package (the registry names them as strings)."""
    offenders = []
    for f in _neutral_modules():
        for node in ast.walk(ast.parse(f.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                mod = node.module or ""
                names = [mod] + [f"{mod}.{a.name}" for a in node.names]
                if node.level:   # relative: from .games.tagraid import x / from .tagraid import x inside games/
                    base = ".".join(f.relative_to(PKG).parts[:-1][: len(f.relative_to(PKG).parts) - node.level])
                    names = [f"{base}.{n}".strip(".") for n in names]
            for n in names:
                parts = n.replace("explorer.", "", 1).split(".")
                if len(parts) >= 2 and parts[0] == "games" and parts[1] in GAME_PACKAGES:
                    offenders.append(f"{f.relative_to(ROOT)} imports {n}")
    assert offenders == []


def test_importing_the_shells_loads_no_game():
    """At run time too: the CLI shell, the app shell, widgets and renderers load no game package on import."""
    code = ("import sys, explorer.cli, explorer.app, explorer.games, explorer.widgets, explorer.render.svg, "
            "explorer.hexgrid, explorer.board, explorer.trace, explorer.options, explorer.scenario; "
            "print([m for m in sys.modules if m.startswith('explorer.games.') and m.count('.') >= 2])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True).stdout
    assert out.strip() == "[]"


def test_builtin_ids_are_unique_across_games_and_defaults_exist():
    names = all_builtin_names()
    assert len(names) == len(set(names))
    for g in all_games():
        if g.builtin_names():
            assert g.default_scenario in g.builtin_names(), g.id
        for s in g.scenarios():
            assert s.game == g.id and find_builtin(s.name)[0] is g


def test_every_builtin_scenario_of_every_game_resolves_with_cited_steps():
    for g in all_games():
        for name in g.builtin_names():
            game, sc = load_any(name)
            assert game is g
            trace = g.resolve(sc, rulings={}, seed=None, reroll=False)
            assert trace.steps, name
            assert all(s.rule.section for s in trace.steps), name
            json.dumps(trace.to_dict())   # JSON-serialisable


def test_a_file_names_its_game(tmp_path):
    old = tmp_path / "old.toml"   # written before the registry: no game key -> TAG Raid
    old.write_text(get_game("tagraid").scenario_text("tr-02"), encoding="utf-8")
    assert load_any(old)[0].id == "tagraid"
    tagged = tmp_path / "tagged.toml"
    tagged.write_text('game = "tagraid"\n' + old.read_text(encoding="utf-8"), encoding="utf-8")
    g, sc = load_any(tagged)
    assert g.id == "tagraid" and sc == load_any(old)[1]
    bad = tmp_path / "bad.toml"
    bad.write_text('game = "chess"\n', encoding="utf-8")
    with pytest.raises(ScenarioError, match=r"field 'game': unknown game 'chess'.*'tagraid', 'masseffect'"):
        load_any(bad)
    me = tmp_path / "me.toml"
    me.write_text('game = "masseffect"\nkind = "poker"\n', encoding="utf-8")
    with pytest.raises(ScenarioError, match=r"field 'kind': unknown Mass Effect scenario kind 'poker'.*'map'"):
        load_any(me)
    with pytest.raises(ScenarioError, match=r"this is a 'masseffect' scenario, not 'tagraid'"):
        get_game("tagraid").parse_data({"game": "masseffect"}, "x.toml")


def test_cli_scenarios_and_rulings_span_all_games(capsys):
    assert main(["scenarios", "--json"]) == 0
    items = json.loads(capsys.readouterr().out)
    assert {"tagraid"} <= {i["game"] for i in items}
    assert all({"name", "title", "description", "game", "kind"} == set(i) for i in items)
    assert main(["scenarios"]) == 0
    out = capsys.readouterr().out
    for g in all_games():
        assert f"({g.id})" in out
    assert main(["rulings", "--game", "tagraid", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data and {d["game"] for d in data} == {"tagraid"}
    assert main(["rulings", "--game", "nope"]) == 2
    assert "unknown game 'nope'" in capsys.readouterr().err


def test_game_verbs_live_under_the_game_and_the_old_spelling_works(capsys):
    args = ["--burst-a", "3", "--sv-a", "13", "--damage-a", "14", "--armor-b", "4", "--burst-b", "1", "--sv-b", "12",
            "--json"]
    assert main(["tagraid", "odds", *args]) == 0
    new = capsys.readouterr().out
    assert main(["odds", *args]) == 0
    assert capsys.readouterr().out == new and json.loads(new)


def test_app_has_a_page_per_tool_per_game_and_a_landing_page():
    from explorer.app import landing_html, page_route, routes

    r = routes()
    assert r["/tagraid-face-to-face"] == ("tagraid", "face-to-face")
    assert r["/tagraid-line-of-fire"] == ("tagraid", "line-of-fire")
    html = landing_html()
    for g in all_games():
        assert g.title.split(":")[0] in html
        for p in g.pages:
            assert f"href='.{page_route(g.id, p.slug)}'" in html
