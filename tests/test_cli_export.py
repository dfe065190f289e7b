"""`explorer scenarios --export NAME [-o PATH]` (issue #25, newcomer #13): a built-in scenario's file, written out, is
opened by `explorer resolve PATH` exactly as `explorer resolve NAME` opens the built-in."""

from __future__ import annotations

import contextlib
import io
import os
import re

import pytest

from explorer.cli import main
from explorer.games import all_games, export_text

ALL = [n for g in all_games() for n in g.builtin_names()]
NAMED = [f.name for g in all_games() for f in g.named_files()]


def _run(args: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(args)
        except SystemExit as e:  # pragma: no cover - main returns its code
            code = e.code
    return code, out.getvalue(), err.getvalue()


def _same_source(text: str, name: str, path: str) -> str:
    """The output of a run on ``path`` as it reads for ``name``: a message naming the file names it by its path, a
    built-in as ``NAME (built-in)``, a packaged table by its name."""
    return text.replace(path, name if name in NAMED else f"{name} (built-in)")


@pytest.mark.slow
@pytest.mark.parametrize("name", ALL + NAMED)
def test_every_builtin_exported_and_resolved_reads_as_by_name(name, tmp_path):
    path = str(tmp_path / f"{name}.toml")
    code, out, err = _run(["scenarios", "--export", name, "-o", path])
    assert (code, out, err) == (0, "", "")
    for extra in ([], ["--json"]):
        by_name = _run(["resolve", name, *extra])
        by_path = _run(["resolve", path, *extra])
        assert by_name[0] == by_path[0]
        assert by_name[1] == _same_source(by_path[1], name, path), name
        assert by_name[2] == _same_source(by_path[2], name, path), name


def test_export_is_the_packaged_text_byte_for_byte(tmp_path):
    g = all_games()[0]
    name = g.builtin_names()[0]
    code, out, _ = _run(["scenarios", "--export", name])
    assert code == 0 and out == g.scenario_text(name)
    p = tmp_path / "x.toml"
    assert _run(["scenarios", "--export", "lof-quarry", "--output", str(p)])[0] == 0
    assert p.read_text(encoding="utf-8") == export_text("lof-quarry")[1]
    assert "[[models]]" in p.read_text(encoding="utf-8")


def test_a_sample_resolves_alike_in_the_fast_suite(tmp_path):
    """One scenario of each game (the slow test above does all of them)."""
    for g in all_games():
        name = g.default_scenario
        path = str(tmp_path / f"{name}.toml")
        assert _run(["scenarios", "--export", name, "-o", path])[0] == 0
        assert _run(["resolve", name])[1] == _run(["resolve", path])[1]


@pytest.mark.parametrize("args, field", [
    (["--export", "tr-2"], "--export"),
    (["--export", "README.md"], "--export"),
    (["-o", "x.toml"], "--output"),
    (["--export", "tr-02", "--json"], "--json"),
    (["--export", "tr-02", "--game", "dagger"], "--game"),
])
def test_export_faults_are_one_line(args, field, tmp_path):
    code, out, err = _run(["scenarios", *args])
    assert code == 2 and out == "" and err.count("\n") == 1 and f"field '{field}'" in err, err


def test_an_unknown_name_suggests_near_ones():
    err = _run(["scenarios", "--export", "tr-2"])[2]
    assert "did you mean tr-02" in err and "path" not in err


def test_export_refuses_an_output_that_is_not_a_regular_file(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    for p in (tmp_path, fifo):
        code, _, err = _run(["scenarios", "--export", "tr-02", "-o", str(p)])
        assert code == 2 and re.search(r"is a (directory|FIFO)", err), err
    assert not (tmp_path / "tr-02.toml").exists()
