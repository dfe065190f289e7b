"""Error messages stay one line of bounded length, whatever the input: long values cut short, control characters
escaped, long paths shortened (explorer.errors, explorer.scenario.validate)."""

import pytest
from hypothesis import given, strategies as st
from pydantic import BaseModel, ConfigDict, Field

from explorer.errors import (MAX_FIELD_CHARS, MAX_PART_CHARS, MAX_SOURCE_CHARS, MAX_VALUE_CHARS, ScenarioError,
                             escape_controls, short_repr, shorten, shorten_middle)
from explorer.scenario import read_toml, validate


class _Doc(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: int = Field(default=0, ge=0, le=9)


def _bound():
    return MAX_SOURCE_CHARS + MAX_FIELD_CHARS + 3 * MAX_PART_CHARS + 60


def test_a_long_value_is_cut_at_the_value_limit():
    with pytest.raises(ScenarioError) as e:
        validate(_Doc, {"name": "x" * 5_000_000}, "f.toml")
    msg = str(e.value)
    assert "'xxxxx" in msg and "…" in msg and len(msg) < 300
    quoted = msg[msg.index("field 'name': ") + 14: msg.index(" is not a whole number")]
    assert len(quoted) == MAX_VALUE_CHARS and "allowed: a whole number 0 to 9" in msg


def test_a_field_name_with_a_newline_is_one_line_and_escaped():
    with pytest.raises(ScenarioError) as e:
        validate(_Doc, {"na\nme": 1}, "f.toml")
    msg = str(e.value)
    assert "\n" not in msg and "field 'na\\nme': unknown field" in msg


def test_an_integer_too_long_to_print_is_described_not_printed():
    with pytest.raises(ScenarioError) as e:
        validate(_Doc, {"name": 10 ** 6000}, "f.toml")
    assert "an integer of about 6000 digits" in str(e.value)
    assert short_repr(-(10 ** 100)) == "an integer of about 100 digits"
    assert short_repr(12345) == "12345"


def test_a_long_path_keeps_both_ends():
    path = "/" + "d" * 5000 + "/scenario.toml"
    msg = str(ScenarioError("", "file not found", source=path))
    assert msg.startswith("/ddd") and "…" in msg and "/scenario.toml: scenario: file not found" in msg
    assert len(msg) < MAX_SOURCE_CHARS + 40


def test_a_five_thousand_character_path_is_a_one_line_error_naming_the_cause():
    with pytest.raises(ScenarioError) as e:
        read_toml("/tmp/" + "p" * 5000 + ".toml")
    msg = str(e.value)
    assert "File name too long" in msg and "\n" not in msg and len(msg) < 300


def test_escapes_cover_invisible_and_bidi_characters():
    assert escape_controls("a\x1b[31m\u202eb\u2028c\x00") == "a\\x1b[31m\\u202eb\\u2028c\\x00"
    assert shorten("é" * 100, 10) == "é" * 9 + "…"
    assert shorten_middle("a" * 50 + "b" * 50, 11) == "aaaaa…bbbbb"


@given(st.text(), st.text(), st.one_of(st.none(), st.text(), st.lists(st.text(), max_size=5)),
       st.one_of(st.none(), st.text()))
def test_any_scenario_error_is_one_bounded_line(field, problem, allowed, source):
    msg = str(ScenarioError(field * 50, problem * 50, allowed, source))
    assert len(msg.splitlines()) <= 1 and "\n" not in msg and "\r" not in msg and "\u2028" not in msg
    assert len(msg) <= _bound()


@given(st.recursive(st.one_of(st.integers(), st.text(), st.floats(), st.none(), st.booleans()),
                    lambda c: st.one_of(st.lists(c, max_size=4), st.dictionaries(st.text(), c, max_size=4)),
                    max_leaves=30))
def test_short_repr_never_raises_and_stays_short(value):
    r = short_repr(value)
    assert len(r) <= MAX_VALUE_CHARS and "\n" not in r


# ------------------------------------------------------------------ files that name no game, numbers of the wrong kind


def test_an_empty_file_asks_for_its_game():
    from explorer.games import game_ids, load_any

    with pytest.raises(ScenarioError) as e:
        load_any("empty.toml", text="")
    msg = str(e.value)
    assert msg.startswith("empty.toml") and "'game'" in msg and "empty" in msg
    assert all(repr(g) in msg for g in game_ids()) and "\n" not in msg


def test_a_file_without_game_says_it_was_read_as_tag_raid():
    from explorer.games import load_any

    with pytest.raises(ScenarioError) as e:
        load_any("x.toml", text='title = "a Mass Effect file that forgot its game line"')
    msg = str(e.value)
    assert "'active'" in msg and "without a 'game' line" in msg and "'masseffect'" in msg and "\n" not in msg


@pytest.mark.parametrize("value, shown", [("1e308", "1e+308"), ("1.5", "1.5"), ('"x"', "'x'"), ("inf", "inf"),
                                          ("nan", "nan")])
def test_a_number_of_the_wrong_kind_names_the_fields_bounds(value, shown):
    """``threat = 1e308`` used to say "exceeded maximum size" and allow "a whole number" with no bounds."""
    import re

    from explorer.games import get_game, load_any

    text = re.sub(r"(?m)^threat = \d+$", f"threat = {value}", get_game("dagger").scenario_text("dg-01"))
    with pytest.raises(ScenarioError) as e:
        load_any("dg.toml", text=text)
    msg = str(e.value)
    assert f"field 'threat': {shown} is not a whole number" in msg
    assert "allowed: a whole number 0 to " in msg and "\n" not in msg


@pytest.mark.parametrize("char", ["\u0007", "\u001b", "\u202e", "\u200b", "\u2028", "\u2066", "\ufeff", "\u0085"])
def test_invisible_or_control_characters_in_any_text_are_refused_at_the_gate(char):
    """A name printed raw into the trace (a bell, a right-to-left override, a line separator) used to be accepted."""
    text = f'title = "fine\\ttab"\n[active]\nname = "A{char}B"\n'.replace(char, f"\\u{ord(char):04x}")
    with pytest.raises(ScenarioError) as e:
        read_toml("n.toml", text=text)
    msg = str(e.value)
    assert f"field 'active.name'" in msg and f"U+{ord(char):04X}" in msg and "\n" not in msg


def test_tabs_and_newlines_in_text_are_fine():
    assert read_toml("n.toml", text='description = """two\nlines\tand a tab"""\n')["description"] == "two\nlines\tand a tab"
