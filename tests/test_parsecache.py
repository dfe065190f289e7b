"""The cache of validated built-in scenarios (:mod:`explorer.parsecache`): a hit returns what parsing returns, an
edited file or changed code is parsed afresh, and a corrupt, foreign or unwritable cache falls back to parsing."""

from __future__ import annotations

import os
import pickle
import shutil
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from explorer import parsecache
from explorer.errors import ScenarioError
from explorer.games import get_game

from cli_helpers import ROOT


@pytest.fixture
def cache(tmp_path, monkeypatch) -> Path:
    d = tmp_path / "cache"
    monkeypatch.setenv("EXPLORER_CACHE", "on")
    monkeypatch.setenv("EXPLORER_CACHE_DIR", str(d))
    return d


def _entries(d: Path) -> list[Path]:
    """The entries under cache directory ``d``."""
    return sorted((d / parsecache.SUBDIR).glob("*.pickle")) if d.is_dir() else []


def _counting(value):
    calls = []

    def build():
        calls.append(1)
        return value

    return build, calls


def test_a_second_load_comes_from_the_cache_and_equals_the_parsed_value(cache):
    g = get_game("dagger")
    first = g.load_builtin("dg-03")
    assert len(_entries(cache)) == 1 and oct((cache / parsecache.SUBDIR).stat().st_mode & 0o777) == "0o700"
    # a hit never parses: a parser that would fail is not called
    real = g.parse
    object.__setattr__(g, "parse", lambda data, source: pytest.fail("parsed although cached"))
    try:
        again = g.load_builtin("dg-03")
    finally:
        object.__setattr__(g, "parse", real)
    assert again == first and again is not first


def test_the_key_holds_the_bytes_and_the_name(cache):
    build, calls = _counting({"a": 1})
    assert parsecache.cached(("t", "x"), b"one", build) == {"a": 1}
    assert parsecache.cached(("t", "x"), b"one", build) == {"a": 1}
    assert len(calls) == 1
    parsecache.cached(("t", "x"), b"two", build)     # other bytes
    parsecache.cached(("t", "y"), b"one", build)     # another name (the source in messages)
    assert len(calls) == 3 and len(_entries(cache)) == 3


def test_a_refused_file_is_not_cached(cache):
    def bad():
        raise ScenarioError("f", "bad", None, "s")

    for _ in range(2):
        with pytest.raises(ScenarioError):
            parsecache.cached(("t",), b"x", bad)
    assert _entries(cache) == []


@pytest.mark.parametrize("damage", ["garbage", "truncated", "other key", "foreign class"])
def test_a_damaged_entry_is_parsed_afresh_and_rewritten(cache, damage):
    value = ("value", Fraction(1, 3))
    build, calls = _counting(value)
    parsecache.cached(("t",), b"x", build)
    [entry] = _entries(cache)
    blob = entry.read_bytes()
    assert b"fractions" in blob
    entry.write_bytes({"garbage": b"not a pickle", "truncated": blob[: len(blob) // 2],
                       "other key": pickle.dumps((parsecache.FORMAT, "0" * 40, ("stale", 0))),
                       "foreign class": blob.replace(b"fractions", b"nosuchmod")}[damage])   # a class that moved
    assert parsecache.cached(("t",), b"x", build) == value
    assert len(calls) == 2
    assert parsecache.cached(("t",), b"x", build) == value and len(calls) == 2   # rewritten


def test_a_value_that_does_not_pickle_is_returned_uncached(cache):
    build, calls = _counting(lambda: 1)
    assert callable(parsecache.cached(("t",), b"x", build))
    assert _entries(cache) == []


def test_an_unusable_cache_directory_falls_back_silently(tmp_path, monkeypatch):
    monkeypatch.setenv("EXPLORER_CACHE", "on")
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    build, calls = _counting(3)
    # a path under a regular file: cannot be created
    monkeypatch.setenv("EXPLORER_CACHE_DIR", str(blocker / "cache"))
    assert parsecache.cached(("t",), b"x", build) == 3
    # a directory others may write to: never read (a pickle runs code), never written
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)
    monkeypatch.setenv("EXPLORER_CACHE_DIR", str(shared))
    assert parsecache.cached(("t",), b"x", build) == 3 and parsecache.cached(("t",), b"x", build) == 3
    assert len(calls) == 3 and list(shared.iterdir()) == []
    # the same for the cache's own subdirectory
    mine = tmp_path / "mine"
    (mine / parsecache.SUBDIR).mkdir(parents=True)
    (mine / parsecache.SUBDIR).chmod(0o777)
    monkeypatch.setenv("EXPLORER_CACHE_DIR", str(mine))
    assert parsecache.cached(("t",), b"x", build) == 3 and parsecache.cached(("t",), b"x", build) == 3
    assert len(calls) == 5 and list((mine / parsecache.SUBDIR).iterdir()) == []


def test_clear_deletes_the_entries_and_nothing_else(cache, monkeypatch):
    monkeypatch.setattr(parsecache, "_code", {})   # the code version is memoised in the process too
    parsecache.cached(("t",), b"x", lambda: 1)
    (cache / "rule-index-dagger-x.json").write_text("{}")
    assert parsecache.clear() == 2    # the entry and the code memo
    assert _entries(cache) == [] and (cache / "rule-index-dagger-x.json").exists()


def test_an_entry_others_may_write_is_not_read(cache):
    build, calls = _counting(5)
    parsecache.cached(("t",), b"x", build)
    [entry] = _entries(cache)
    entry.chmod(0o666)
    assert parsecache.cached(("t",), b"x", build) == 5 and len(calls) == 2


def test_off_means_nothing_is_read_or_written(cache, monkeypatch):
    monkeypatch.setenv("EXPLORER_CACHE", "off")
    build, calls = _counting(1)
    parsecache.cached(("t",), b"x", build)
    parsecache.cached(("t",), b"x", build)
    assert len(calls) == 2 and not cache.exists()


def test_the_code_version_follows_every_file_of_the_package(tmp_path, monkeypatch):
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "a.py").write_text("A = 1\n")
    (pkg / "sub" / "data.toml").write_text("x = 1\n")
    monkeypatch.setattr(parsecache, "PACKAGE", pkg)
    monkeypatch.setattr(parsecache, "_code", {})
    memo = tmp_path / "memo"
    memo.mkdir(mode=0o700)

    def version() -> str:   # as a new process would find it (a process computes it once)
        parsecache._code.pop("process", None)
        return parsecache.code_version(memo)

    v1 = version()
    assert version() == v1 and len(list(memo.glob("code-*.txt"))) == 1
    (pkg / "a.py").write_text("A = 9\n")
    assert parsecache.code_version(memo) == v1              # the same process: computed once
    (pkg / "a.py").write_text("A = 1\n")
    (pkg / "sub" / "data.toml").write_text("x = 2\n")       # packaged data a parser reads counts too
    v2 = version()
    assert v2 != v1
    os.utime(pkg / "a.py", ns=(1, 1))                      # touched, same bytes: the same version
    assert version() == v2
    (pkg / "a.py").write_text("A = 2\n")
    assert version() not in (v1, v2)
    assert len(list(memo.glob("code-*.txt"))) == 1          # the old stat memos are pruned


def test_entries_of_an_older_code_version_are_deleted(cache, monkeypatch, tmp_path):
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "a.py").write_text("A = 1\n")
    monkeypatch.setattr(parsecache, "PACKAGE", pkg)
    monkeypatch.setattr(parsecache, "_code", {})
    build, calls = _counting(1)
    parsecache.cached(("t",), b"x", build)
    old = _entries(cache)
    (pkg / "a.py").write_text("A = 2\n")
    parsecache._code.pop("process", None)   # as the next process
    parsecache.cached(("t",), b"x", build)
    assert len(calls) == 2 and len(_entries(cache)) == 1 and _entries(cache) != old


STALE = {
    # built-in: (its file, a module of its parser, a line of that module, the lines that replace it: the title
    # upper-cased by the code)
    "dg-03": ("explorer/games/dagger/scenarios/dg-03.toml", "explorer/games/dagger/nemesis_scenario.py",
              "    sc = validate(NemesisScenarioModel, data, source)\n",
              "    sc = validate(NemesisScenarioModel, data, source)\n"
              "    sc = sc.model_copy(update={'title': sc.title.upper()})\n"),
    # a TAG Raid roll exchange, cached as the pydantic-free snapshot of its models (explorer.plain)
    "tr-02": ("explorer/games/tagraid/scenarios/tr-02.toml", "explorer/games/tagraid/model.py",
              "    return check_scenario(validate(Scenario, data, source), source)\n",
              "    sc = check_scenario(validate(Scenario, data, source), source)\n"
              "    return sc.model_copy(update={'title': sc.title.upper()})\n"),
}


@pytest.mark.slow
@pytest.mark.parametrize("name", list(STALE))
def test_an_edited_builtin_or_edited_model_code_is_never_served_stale(tmp_path, name):
    """End to end, on a copy of the package: ``explorer resolve <name>`` cached, then the scenario file edited (the
    title), then the parser edited (the same title rewritten by the code): each run prints the change."""
    scenario, module, line, lines = STALE[name]
    copy = tmp_path / "src"
    shutil.copytree(ROOT / "explorer", copy / "explorer", ignore=shutil.ignore_patterns("__pycache__"))
    env = {**os.environ, "PYTHONPATH": str(copy), "EXPLORER_CACHE": "on",
           "EXPLORER_CACHE_DIR": str(tmp_path / "cache"), "PYTHONDONTWRITEBYTECODE": "1"}

    def title() -> str:
        out = subprocess.run([sys.executable, "-m", "explorer.cli", "resolve", name, "--json"], env=env,
                             cwd=tmp_path, capture_output=True, text=True, timeout=120)
        assert out.returncode == 0, out.stderr
        import json

        return json.loads(out.stdout)["title"]

    first = title()
    assert title() == first and len(_entries(tmp_path / "cache")) == 1   # the second run was a hit
    f = copy / scenario
    text = f.read_text(encoding="utf-8")
    assert f'title = "{first}"' in text
    f.write_text(text.replace(f'title = "{first}"', 'title = "Edited file"'), encoding="utf-8")
    assert title() == "Edited file"
    assert title() == "Edited file"
    code = copy / module
    src = code.read_text(encoding="utf-8")
    assert src.count(line) == 1
    code.write_text(src.replace(line, lines), encoding="utf-8")
    assert title() == "EDITED FILE"


def test_a_plain_builtin_is_a_snapshot_read_back_and_missed_when_its_file_or_the_code_changes(cache, monkeypatch):
    """``explorer resolve``'s load of a TAG Raid roll built-in (:meth:`Game.load_builtin` with ``plain``): the
    first load validates and keeps the :mod:`explorer.plain` snapshot; the next never parses; an edited file or
    another code version (:func:`parsecache.code_version`, part of every key) is a miss, parsed afresh."""
    from explorer.plain import Plain

    g = get_game("tagraid")
    parses = []
    real = g.parse

    def counting(data, source):
        parses.append(source)
        return real(data, source)

    object.__setattr__(g, "parse", counting)
    try:
        first = g.load_builtin("tr-02", plain=True)
        assert isinstance(first, Plain) and len(parses) == 1 and len(_entries(cache)) == 1
        again = g.load_builtin("tr-02", plain=True)
        assert again == first and again is not first and len(parses) == 1        # a hit
        models = g.load_builtin("tr-02")                                       # the pages: the models, uncached
        assert not isinstance(models, Plain) and models.model_dump() == first.model_dump() and len(parses) == 2
        text = g.scenario_text("tr-02")
        monkeypatch.setattr(type(g), "scenario_text",
                            lambda self, name: text.replace('damage = 13', 'damage = 14', 1))
        edited = g.load_builtin("tr-02", plain=True)                           # the file changed: a miss
        assert len(parses) == 3 and edited.active.weapon.damage == 14 != first.active.weapon.damage
        monkeypatch.undo()
        monkeypatch.setenv("EXPLORER_CACHE", "on")
        monkeypatch.setenv("EXPLORER_CACHE_DIR", str(cache))
        code = parsecache.code_version()
        monkeypatch.setitem(parsecache._code, "process", "f" * 32)             # as a process of other code
        assert parsecache.code_version() != code
        other = g.load_builtin("tr-02", plain=True)
        assert other == first and len(parses) == 4                             # the code changed: a miss
        # a table is not offered as a snapshot: the marker is kept, and a hit validates it (once)
        table = g.load_builtin("tr-22", plain=True)
        assert not isinstance(table, Plain) and len(parses) == 5
        assert not isinstance(g.load_builtin("tr-22", plain=True), Plain) and len(parses) == 6
    finally:
        object.__setattr__(g, "parse", real)
