"""Command-line edges of issue #25 (item 3): numbers are plain ASCII decimal only, each refusal one line naming the
option; output paths that are not regular files are refused without blocking; empty --shields / --calibration parts
are refused, not taken as none or default; Silhouette calibration keys and Range Ruler lengths are bounded."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from explorer.cli import main
from explorer.cli_numbers import PlainInt, is_plain_int, plain_int
from explorer.errors import ScenarioError

NOT_PLAIN = [" 3", "3 ", "\uff13", "\u0663", "1_0", "+7", "", "3.0", "0x10", "\u00b3", "3\n", "1" * 101]


@pytest.mark.parametrize("text", NOT_PLAIN)
def test_only_plain_ascii_decimals_are_numbers(text):
    assert not is_plain_int(text)
    with pytest.raises(ScenarioError) as e:
        plain_int(text, "--n", "0..9")
    assert "field '--n'" in str(e.value) and "\n" not in str(e.value)
    assert int("3") == plain_int("3", "--n", "") and plain_int("-12", "--n", "") == -12
    assert is_plain_int("+3", plus=True) and not is_plain_int("+ 3", plus=True)


def test_the_click_type_passes_int_defaults_and_checks_its_range():
    t = PlainInt(1, 5)
    assert t.convert(3, None, None) == 3 and t.convert("5", None, None) == 5
    for bad in ("6", "\uff13", " 3"):
        with pytest.raises(Exception, match="not"):
            t.convert(bad, None, None)


def _one_line(capsys, argv) -> str:
    code = main(list(argv))
    out = capsys.readouterr()
    assert code == 2, (code, out)
    assert out.err.count("\n") == 1 and "Traceback" not in out.err, out.err
    return out.err.strip()


NUMERIC = [
    (["serve", "--port"], [], "--port"),
    (["serve", "--num-procs"], [], "--num-procs"),
    (["resolve", "tr-02", "--seed"], [], "--seed"),
    (["dagger", "forecast", "dg-01", "--phases"], [], "--phases"),
    (["galaxydefenders", "odds", "--dice", "red=3", "--health"], [], "--health"),
    (["galaxydefenders", "odds", "--fixed-hits"], [], "--fixed-hits"),
    (["masseffect", "strategy-odds", "--pool"], [], "--pool"),
    (["tagraid", "odds", "--sv-b", "10", "--burst-a"], ["--sv-a", "12"], "--burst-a"),
]


@pytest.mark.parametrize("text", [" 3", "\uff13", "\u0663", "1_0", "+7"])
@pytest.mark.parametrize("head, tail, option", NUMERIC, ids=[n[2] for n in NUMERIC])
def test_every_numeric_option_refuses_a_number_that_is_not_plain_ascii(capsys, head, tail, option, text):
    line = _one_line(capsys, [*head, text, *tail])
    assert option in line and repr(text) in line, line


def test_galaxydefenders_shields_and_calibration_are_not_taken_as_none_or_default(capsys, tmp_path):
    base = ["galaxydefenders", "odds", "--dice", "red=3"]
    for shields in (",", "", " ", "2,", ",2", "2,,2"):
        line = _one_line(capsys, [*base, "--shields", shields])
        assert "--shields" in line and "empty" in line, line
    line = _one_line(capsys, [*base, "--calibration", ""])
    assert "--calibration" in line and "an empty path" in line, line
    assert main([*base, "--shields", "2, 2", "--json"]) == 0  # spaces around the commas are the separator's
    capsys.readouterr()


def test_galaxydefenders_dice_lists_and_drop_are_not_taken_as_none(capsys):
    """``--bonus-dice ','`` and ``--drop ','`` were taken as none, as ``--shields ','`` was (issue #25 item 3)."""
    base = ["galaxydefenders", "odds", "--dice", "red=3"]
    for option, value, extra in (("--bonus-dice", ",", []), ("--bonus-dice", "", []), ("--bonus-dice", "red=1,", []),
                                 ("--dice", "red=3,", []), ("--dice", ",red=3", []),
                                 ("--drone-dice", ",", ["--device", "vigil"]),
                                 ("--drop", ",", ["--atk-dice-minus", "1"]), ("--drop", "", ["--atk-dice-minus", "1"]),
                                 ("--drop", "red,", ["--atk-dice-minus", "1"])):
        line = _one_line(capsys, [*base, *extra, option, value])
        assert f"field '{option}'" in line and "empty" in line, (option, value, line)
    assert main([*base, "--bonus-dice", "red=1", "--json"]) == 0   # the same options, well formed
    assert main(["galaxydefenders", "odds", "--dice", "red=1, blue=1", "--atk-dice-minus", "1", "--drop", "blue",
                 "--json"]) == 0
    capsys.readouterr()


def _table(tmp_path: Path, extra: str) -> Path:
    from importlib import resources

    text = (resources.files("explorer.games.tagraid") / "tables" / "lof-demo.toml").read_text(encoding="utf-8")
    p = tmp_path / "t.toml"
    p.write_text(text + "\n" + extra + "\n", encoding="utf-8")
    return p


@pytest.mark.parametrize("extra, field, words", [
    ('[calibration]\nbase_radius = {"-7" = 0.5}', "calibration.base_radius.-7", "not a Silhouette value"),
    ('[calibration]\nheight = {"21" = 0.5}', "calibration.height.21", "not a Silhouette value"),
    ('[calibration]\nheight = {" 7" = 0.5}', "calibration.height. 7", "not a Silhouette value"),
    ('[calibration]\nheight = {"07" = 0.5}', "calibration.height.07", "not a Silhouette value"),
    ('[calibration]\nheight = {"7" = 1.0, "07" = 2.0}', "calibration.height.07", "not a Silhouette value"),
    ('[calibration]\nbase_radius = {"0" = 0.5}', "calibration.base_radius.0", "not a Silhouette value"),
    ('[calibration]\nheight = {"7" = 1e-300}', "calibration.height.7", "0.01 to 100"),
    ("[range]\nshort = 5e-324", "range.short", "0.01 to 100"),
])
def test_calibration_keys_and_range_ruler_lengths_are_bounded(tmp_path, extra, field, words):
    from explorer.games.tagraid.table_file import load_table

    with pytest.raises(ScenarioError) as e:
        load_table(_table(tmp_path, extra))
    assert f"field '{field}'" in str(e.value) and words in str(e.value), str(e.value)
    load_table(_table(tmp_path, '[calibration]\nheight = {"7" = 0.01}\n[range]\nshort = 100'))


def test_range_ruler_lengths_are_bounded_wherever_they_are_made():
    from explorer.games.tagraid.ranges import MAX_SEGMENT, MIN_LENGTH, RangeCalibration

    RangeCalibration(MIN_LENGTH, MAX_SEGMENT, 3.5)
    for bad in (5e-324, 0.0, -1.0, MAX_SEGMENT * 1.01, float("nan"), float("inf")):
        with pytest.raises(ScenarioError, match="range_calibration.short"):
            RangeCalibration(bad, 3.5, 3.5)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this platform")
def test_render_refuses_an_output_that_is_not_a_regular_file_without_blocking(capsys, tmp_path):
    fifo = tmp_path / "out.html"
    os.mkfifo(fifo)
    result: list = []
    t = threading.Thread(target=lambda: result.append(main(["render", "tr-02", "-o", str(fifo)])), daemon=True)
    t.start()
    t.join(60)
    if t.is_alive():  # unblock the writer so the test process can end, then fail
        with open(fifo, "rb") as f:
            f.read()
        pytest.fail("explorer render -o FIFO blocked")
    err = capsys.readouterr().err
    assert result == [2] and "'--output'" in err and "is a FIFO (named pipe)" in err and err.count("\n") == 1, err
    for path, kind in ((tmp_path, "is a directory"), (Path("/dev/null"), "is a device")):
        if path.exists():
            line = _one_line(capsys, ["render", "tr-02", "-o", str(path)])
            assert "'--output'" in line and kind in line, line
    md = tmp_path / "page.md"
    os.mkfifo(tmp_path / "page.svg")  # the picture written beside a Markdown page is checked too
    line = _one_line(capsys, ["render", "me-04", "--format", "md", "-o", str(md)])
    assert "is a FIFO (named pipe)" in line, line
    ok = tmp_path / "ok.html"
    assert main(["render", "tr-02", "-o", str(ok)]) == 0 and ok.read_text().startswith("<!doctype html>")
