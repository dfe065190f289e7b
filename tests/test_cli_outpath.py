"""Output paths of every verb that writes a file (``explorer render -o``, ``explorer scenarios --export NAME -o``):
one shared checker (:mod:`explorer.outpath`), run before any work; each fault is one line naming ``--output``, the
path and what is allowed; ``-o -`` is standard output (newcomer findings, session 10)."""

from __future__ import annotations

import contextlib
import errno
import io
import os

import pytest

import explorer.games
import explorer.outpath
from explorer.cli import main
from explorer.errors import ScenarioError
from explorer.games import export_text
from explorer.outpath import check_output, write_output

# every verb that takes an output path: its arguments before "-o PATH", and the function that does its work
VERBS = {
    "render": (["render", "tr-02", "-f", "svg"], "load_any"),
    "export": (["scenarios", "--export", "tr-02"], "export_text"),
}


def _run(args: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(args)
    return code, out.getvalue(), err.getvalue()


def _faulty_paths(tmp_path) -> dict[str, tuple[str, str]]:
    """name -> (the path given to -o, a phrase the one-line message must hold)."""
    dangling = tmp_path / "dangling"
    dangling.symlink_to("/nonexist/target.toml")
    loop = tmp_path / "loop"
    loop.symlink_to(loop)
    afile = tmp_path / "afile"
    afile.write_text("x")
    return {
        "missing directory": ("/nonexist/x.toml", "its directory '/nonexist' does not exist"),
        "dangling symlink": (str(dangling), "its directory '/nonexist' does not exist"),
        "kernel file": ("/proc/version", "kernel file on /proc"),
        "device": ("/dev/full", "is a device"),
        "empty": ("", "empty path"),
        "directory": (str(tmp_path), "is a directory"),
        "through a file": (str(afile / "x.toml"), "cannot be used (Not a directory)"),
        "symlink loop": (str(loop), "cannot be used"),
    }


@pytest.mark.parametrize("verb", sorted(VERBS))
@pytest.mark.parametrize("fault", ["missing directory", "dangling symlink", "kernel file", "device", "empty",
                                   "directory", "through a file", "symlink loop"])
def test_every_output_fault_is_one_line_naming_option_path_and_allowed_before_any_work(verb, fault, tmp_path,
                                                                                       monkeypatch):
    args, work = VERBS[verb]
    path, phrase = _faulty_paths(tmp_path)[fault]

    def no_work(*a, **k):  # pragma: no cover - reached only if the path is checked after the work
        raise AssertionError("the work ran before the output path was checked")

    monkeypatch.setattr(explorer.games, work, no_work)
    code, out, err = _run([*args, "-o", path])
    assert code == 2 and out == "", err
    assert err.count("\n") == 1 and err.startswith("error: field '--output': "), err
    assert phrase in err, err
    assert (repr(path) if path else "''") in err, err
    assert "(allowed: the path of a regular file to write" in err and "- for standard output" in err, err


@pytest.mark.parametrize("verb", sorted(VERBS))
def test_dash_is_standard_output_and_writes_no_file(verb, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    args, _ = VERBS[verb]
    by_default = _run(args)
    dash = _run([*args, "-o", "-"])
    assert dash == by_default and dash[0] == 0 and dash[1]
    assert not (tmp_path / "-").exists()


def test_dash_for_markdown_prints_it_without_a_picture_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, _ = _run(["render", "me-04", "-f", "md", "-o", "-"])
    assert code == 0 and out.startswith("### ") and os.listdir(tmp_path) == []


def test_a_dangling_symlink_into_an_existing_directory_creates_its_target(tmp_path):
    link = tmp_path / "link.toml"
    link.symlink_to(tmp_path / "target.toml")
    assert _run(["scenarios", "--export", "tr-02", "-o", str(link)])[0] == 0
    assert (tmp_path / "target.toml").read_text(encoding="utf-8") == export_text("tr-02")[1]


def test_a_write_that_fails_names_the_option_and_the_path(tmp_path, monkeypatch):
    """A full device found only while writing (``check_output`` cannot foresee it) is still one line with the path."""
    class Full(io.StringIO):
        def write(self, s):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    real_fdopen = os.fdopen

    def fdopen(fd, *a, **k):
        os.close(fd)
        return Full()

    monkeypatch.setattr(explorer.outpath.os, "fdopen", fdopen)
    p = tmp_path / "x.toml"
    code, out, err = _run(["scenarios", "--export", "tr-02", "-o", str(p)])
    monkeypatch.setattr(explorer.outpath.os, "fdopen", real_fdopen)
    assert code == 2 and err.count("\n") == 1, err
    assert err.startswith("error: field '--output': ") and repr(str(p)) in err and "No space left on device" in err


def test_the_checker_returns_the_path_or_none_for_stdout(tmp_path):
    assert check_output("-", "--output") is None
    assert check_output(str(tmp_path / "new.txt"), "--output") == tmp_path / "new.txt"
    with pytest.raises(ScenarioError, match="does not exist"):
        write_output(tmp_path / "nodir" / "x", "", "--output")
    # where the verb cannot print (write_output; the picture beside a Markdown file), "-" is a file name
    assert check_output("-", "--output", stdout_ok=False) == type(tmp_path)("-")
    write_output(tmp_path / "-", "text", "--output")
    assert (tmp_path / "-").read_text(encoding="utf-8") == "text"
