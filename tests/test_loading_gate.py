"""The one loading gate of every file format (explorer.scenario.read_toml): regular files only, a size cap, UTF-8,
bounded nesting, and every parser failure a one-line ScenarioError naming the file (and the line where known)."""

import os
import sys
import tomllib

import pytest

from explorer import scenario
from explorer.errors import ScenarioError
from explorer.scenario import MAX_FILE_BYTES, MAX_NESTING, read_toml


def _one_line(e: pytest.ExceptionInfo) -> str:
    msg = str(e.value)
    assert "\n" not in msg and "\r" not in msg
    return msg


def test_a_directory_is_refused_before_reading(tmp_path):
    with pytest.raises(ScenarioError) as e:
        read_toml(tmp_path)
    assert "is a directory" in _one_line(e) and str(tmp_path) in str(e.value)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this platform")
def test_a_fifo_is_refused_without_blocking(tmp_path):
    fifo = tmp_path / "pipe.toml"
    os.mkfifo(fifo)
    with pytest.raises(ScenarioError) as e:
        read_toml(fifo)  # would block forever if it were opened for reading without a writer
    assert "FIFO" in _one_line(e)


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")
def test_a_device_is_refused():
    with pytest.raises(ScenarioError) as e:
        read_toml("/dev/zero")
    assert "is a device" in _one_line(e)


def test_files_over_the_cap_are_refused_and_at_the_cap_accepted(tmp_path):
    ok = tmp_path / "ok.toml"
    body = "a = 1\n#" + "x" * (MAX_FILE_BYTES - 8) + "\n"  # a comment: strings have their own (smaller) cap
    ok.write_text(body)
    assert len(body.encode()) == MAX_FILE_BYTES
    assert read_toml(ok) == {"a": 1}
    big = tmp_path / "big.toml"
    big.write_text(body + "#")
    with pytest.raises(ScenarioError) as e:
        read_toml(big)
    assert "too large" in _one_line(e) and f"{MAX_FILE_BYTES:,}" in str(e.value)


def test_a_file_growing_after_the_stat_is_still_read_only_up_to_the_cap(tmp_path, monkeypatch):
    p = tmp_path / "grows.toml"
    p.write_text("a = 1\n" + "#" * (2 * MAX_FILE_BYTES))
    real_stat = os.stat

    def small_stat(path, *a, **k):  # the size the file had "before it grew"
        st = real_stat(path, *a, **k)
        return os.stat_result((st.st_mode, *st[1:6], 10, *st[7:]))

    monkeypatch.setattr(scenario.os, "stat", small_stat)
    with pytest.raises(ScenarioError, match="too large"):
        read_toml(p)


def test_text_given_directly_has_the_same_cap_and_checks():
    with pytest.raises(ScenarioError, match="too large"):
        read_toml("<widget>", text="#" * (MAX_FILE_BYTES + 1))
    with pytest.raises(ScenarioError, match="too large"):  # characters under the cap, UTF-8 bytes over it
        read_toml("<widget>", text="#" + "é" * (MAX_FILE_BYTES // 2 + 1))
    with pytest.raises(ScenarioError, match="lone surrogate"):
        read_toml("<widget>", text='a = "\ud800"')


@pytest.mark.parametrize("opening,closing", [("[", "]"), ("{b=", "}")])
def test_nesting_past_the_limit_is_refused_with_its_line(opening, closing):
    ok = "x = 1\na = " + opening * MAX_NESTING + "1" * (opening == "[") + closing * MAX_NESTING + "\n"
    if opening == "{b=":
        ok = "x = 1\na = " + opening * (MAX_NESTING - 1) + "{b=1}" + closing * (MAX_NESTING - 1) + "\n"
    read_toml("t", text=ok)
    deep = "x = 1\na = " + opening * 400 + "1" * (opening == "[") + closing * 400 + "\n"
    if opening == "{b=":
        deep = "x = 1\na = " + opening * 399 + "{b=1}" + closing * 399 + "\n"
    with pytest.raises(ScenarioError) as e:
        read_toml("deep.toml", text=deep)
    assert "deep.toml" in _one_line(e) and f"more than {MAX_NESTING} levels" in str(e.value)
    assert "line 2" in str(e.value)


def test_brackets_in_strings_and_comments_do_not_count_as_nesting():
    text = ('a = "' + "[" * 100 + '"\n'
            "b = '" + "{" * 100 + "'\n"
            'c = """\n' + "[" * 100 + '\n"""\n'
            "d = '''" + "[" * 100 + "'''\n"
            "# " + "[" * 100 + "\n"
            'e = "\\"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["\n'
            'f = """x""""\n' + "g = [" + "[" * 10 + "]" * 10 + "]\n")
    data = read_toml("t", text=text)
    assert data["a"] == "[" * 100 and data["e"].startswith('"[') and data["f"] == 'x"'


def test_dotted_keys_nesting_past_the_limit_are_refused():
    read_toml("t", text=".".join(["a"] * MAX_NESTING) + " = 1")
    # one long key: refused by the text pre-scan, before the parser (whose cost grows with the square of the parts)
    with pytest.raises(ScenarioError, match=f"more than {MAX_NESTING} parts"):
        read_toml("t", text=".".join(["a"] * 5000) + " = 1")
    with pytest.raises(ScenarioError, match=f"more than {MAX_NESTING} parts"):
        read_toml("t", text="[" + ".".join(["a"] * 200) + "]\nx = 1")
    # a table name and a dotted key each within the part cap, together past the nesting cap: refused after parsing
    with pytest.raises(ScenarioError, match="tables nested more than"):
        read_toml("t", text="[" + ".".join(["a"] * 20) + "]\n" + ".".join(["b"] * 20) + " = 1")


def test_an_integer_over_the_digit_limit_names_its_line():
    limit = sys.get_int_max_str_digits()
    with pytest.raises(ScenarioError) as e:
        read_toml("n.toml", text="a = 1\n\nb = " + "7" * (limit + 700))
    assert f"more than {limit} digits (at line 3)" in _one_line(e)


def test_a_recursion_error_of_the_parser_is_a_scenario_error(monkeypatch):
    def boom(text):
        raise RecursionError("maximum recursion depth exceeded")

    monkeypatch.setattr(tomllib, "loads", boom)
    with pytest.raises(ScenarioError, match="nested too deeply"):
        read_toml("r.toml", text="a = 1")


def test_any_other_parser_failure_is_a_scenario_error(monkeypatch):
    def boom(text):
        raise OverflowError("something odd")

    monkeypatch.setattr(tomllib, "loads", boom)
    with pytest.raises(ScenarioError, match="r.toml.*not valid TOML: OverflowError"):
        read_toml("r.toml", text="a = 1")


def test_a_path_naming_a_file_inside_a_file_is_file_not_found(tmp_path):
    f = tmp_path / "f.toml"
    f.write_text("a = 1")
    with pytest.raises(ScenarioError, match="file not found"):
        read_toml(f / "x.toml")


def test_a_path_with_a_nul_character_is_one_line():
    with pytest.raises(ScenarioError) as e:
        read_toml("a\x00b.toml")
    assert "a\\x00b.toml" in _one_line(e)


def test_a_utf8_byte_order_mark_is_skipped_in_a_file_and_in_text(tmp_path):
    """A file saved by a Windows editor starts with a UTF-8 BOM: it was refused as "not valid TOML: Invalid statement
    (at line 1, column 1)" (session 14). The mark is skipped; a BOM anywhere else is still the parser's to refuse."""
    p = tmp_path / "bom.toml"
    p.write_bytes(b"\xef\xbb\xbftitle = 'x'\nn = 1\n")
    assert read_toml(p) == {"title": "x", "n": 1}
    assert read_toml("t.toml", text="\ufefftitle = 'x'") == {"title": "x"}
    with pytest.raises(ScenarioError, match="not valid TOML"):
        read_toml("t.toml", text="title = 'x'\n\ufeffn = 1")
