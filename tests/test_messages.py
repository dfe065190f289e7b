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
    # a key that is not a bare TOML key is quoted, as a file writes it (``"na\nme" = 1``)
    assert "\n" not in msg and "field '\"na\\nme\"': unknown field" in msg


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


# ------------------------------------------------------------ pydantic's own words never reach a user (every error type)

_LEAKS = ("constrained-", "function-", "after validation", "greater than", "less than or equal", "input should",
          "instance of", "lax-or-strict", "json-or-python", "value error", "1 characters", "1 entries",
          "should be a valid", "[x, y]]")


def _order_doc():
    import tomllib
    from pathlib import Path

    import explorer.games.tagraid as pkg
    d = tomllib.loads((Path(pkg.__file__).parent / "scenarios" / "tr-order-corner.toml").read_text(encoding="utf-8"))
    d.pop("game")
    return d


def _round_doc():
    import tomllib
    from pathlib import Path

    import explorer.games.tagraid as pkg
    d = tomllib.loads((Path(pkg.__file__).parent / "scenarios" / "tr-round-loot.toml").read_text(encoding="utf-8"))
    d.pop("game")
    return d


def _at(path, value):
    def mut(d):
        *head, last = path
        for p in head:
            d = d[p]
        if value is _DROP:
            del d[last]
        else:
            d[last] = value
    return mut


_DROP = object()
# (mutation, field named, pydantic error type it raises, words the message must hold)
ORDER_CASES = [
    (_at(["order", "move", "route"], [5]), "order.move.route[0]", "string_type", 'a hexagon key like "3,-1"'),
    (_at(["order", "move", "route"], [[1.0, 2.0, 3.0]]), "order.move.route[0]", "string_type", "a point [x, y]"),
    (_at(["order", "move", "route"], ["x" * 50]), "order.move.route[0]", "string_too_long", "hexagon key"),
    (_at(["miners", 0, "hex"], 3), "miners[0].hex", "string_type", 'a hexagon key like "3,-1"'),
    (_at(["miners", 0, "side"], ""), "miners[0].side", "string_too_short", "at least 1 character)"),
    (_at(["miners", 0, "evade"], 99), "miners[0].evade", "less_than_equal", "99 is too large (allowed: 0 to 30)"),
    (_at(["seed"], -1), "seed", "greater_than_equal", "-1 is too small"),
    (_at(["dice"], {"rolls": {"A": [0]}}), "dice.rolls.A[0]", "greater_than_equal", "(allowed: 1 to 20)"),
    (_at(["dice"], {"rolls": {"A": ["x"]}}), "dice.rolls.A[0]", "int_type", "a whole number 1 to 20"),
    (_at(["miners", 0, "evade"], 1.5), "miners[0].evade", "int_type", "1.5 is not a whole number"),
    (_at(["miners", 0, "facing"], "north"), "miners[0].facing", "float_type", "is not a finite number"),
    (_at(["miners", 0, "movement"], [1]), "miners[0].movement", "missing", "a list of exactly 2 entries"),
    (_at(["miners", 0, "movement"], [1, 2, 3]), "miners[0].movement", "too_long", "at most 2 entries"),
    (_at(["miners", 0, "weapons"], {"a": 1}), "miners[0].weapons", "list_type", "is not a list"),
    (_at(["order", "move"], 5), "order.move", "model_type", "5 is not a table"),
    (_at(["miners", 0, "weapons", 0, "ammunition"], "ZZ"), "miners[0].weapons[0].ammunition", "literal_error",
     "one of 'N', 'DA', 'EXP' or 'AP'"),
    (_at(["miners", 0, "aro_without_lof"], "perhaps"), "miners[0].aro_without_lof", "bool_type",
     "is not true or false"),
    (_at(["miners", 0, "id"], _DROP), "miners[0].id", "missing", "is required but missing"),
    (_at(["miners", 0, "colour"], 2), "miners[0].colour", "extra_forbidden", "unknown field"),
    (_at(["order", "evade_moves"], {"T": 5}), "order.evade_moves.T", "tuple_type", "a point [x, y]"),
    (_at(["title"], 5), "title", "string_type", "5 is not text"),
]


@pytest.mark.parametrize("mut,field,etype,words", ORDER_CASES, ids=[f"{c[1]}-{c[2]}" for c in ORDER_CASES])
def test_order_file_errors_are_in_the_formats_words(mut, field, etype, words):
    """Every pydantic error type an order file can raise is said in game terms (newcomer finding: ``route[0].
    constrained-str``, "greater than or equal to 1", "after validation"), naming the file and the field."""
    from pydantic import ValidationError

    from explorer.games.tagraid.orders.orderfile import OrderFile, parse_order

    d = _order_doc()
    mut(d)
    with pytest.raises(ValidationError) as raw:  # the case really raises the pydantic error type it names
        OrderFile.model_validate(d)
    assert raw.value.errors()[0]["type"] == etype
    with pytest.raises(ScenarioError) as e:
        parse_order(d, "o.toml")
    msg = str(e.value)
    assert msg.startswith(f"o.toml: field '{field}': ") and words in msg, msg
    assert not any(w in msg.lower() for w in _LEAKS), msg


ROUND_CASES = [
    (_at(["orders", 0, "move"], {"route": [7]}), "orders[0].move.route[0]", 'a hexagon key like "3,-1"'),
    (_at(["round"], 0), "round", "0 is too small"),
    (_at(["events"], [{"name": "x", "effect": 3}]), "events[0].effect", "3 is not text"),
    (_at(["events"], "none"), "events", "is not a list"),
    (_at(["t_bezoar"], {"blue": -2}), "t_bezoar.blue", "-2 is too small"),
]


@pytest.mark.parametrize("mut,field,words", ROUND_CASES, ids=[c[1] for c in ROUND_CASES])
def test_round_file_errors_are_in_the_formats_words(mut, field, words):
    from explorer.games.tagraid.orders.roundfile import parse_round

    d = _round_doc()
    mut(d)
    with pytest.raises(ScenarioError) as e:
        parse_round(d, "r.toml")
    msg = str(e.value)
    assert msg.startswith(f"r.toml: field '{field}': ") and words in msg, msg
    assert not any(w in msg.lower() for w in _LEAKS), msg


class _Every(BaseModel):
    """One field per kind of constraint pydantic reports with its own words."""
    model_config = ConfigDict(extra="forbid")
    gt: int = Field(default=1, gt=0)
    lt: float = Field(default=1.0, lt=360)
    items: list[int] = Field(default_factory=list, min_length=1)
    pair: tuple[int, int] = (0, 0)
    flag: bool = False
    text: str = Field(default="a", pattern=r"^[a-z]+$")
    table: dict[str, int] = Field(default_factory=dict)


@pytest.mark.parametrize("data,words", [
    ({"gt": 0}, "0 is too small (allowed: more than 0)"),
    ({"lt": 400}, "400 is too large (allowed: less than 360"),
    ({"items": []}, "is empty (allowed: at least 1 entry)"),
    ({"pair": [1, 2, 3]}, "has 3 entries (allowed: at most 2 entries)"),
    ({"pair": [1]}, "has only 1 entry (allowed: a list of exactly 2 entries)"),
    ({"flag": [1]}, "is not true or false"),
    ({"text": "A1"}, "does not have the expected form"),
    ({"table": 3}, "3 is not a table"),
    ({"table": {"k": "v"}}, "'v' is not a whole number"),
])
def test_every_constraint_kind_is_in_plain_words(data, words):
    with pytest.raises(ScenarioError) as e:
        validate(_Every, data, "f.toml")
    msg = str(e.value)
    assert words in msg, msg
    assert not any(w in msg.lower() for w in _LEAKS), msg


class _Lengths(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(default="", max_length=40)
    tags: list[int] = Field(default_factory=list, max_length=3)


@pytest.mark.parametrize("field, value, unit", [("name", "x" * 41, "characters"), ("tags", [1, 2, 3, 4], "entries")])
def test_a_length_bound_always_names_its_unit(field, value, unit):
    """The fast length pre-check (before pydantic) and pydantic's own length errors say the same thing: the bound
    with its unit, "at most 40 characters", never a bare "at most 40"."""
    with pytest.raises(ScenarioError) as e:
        validate(_Lengths, {field: value}, "f.toml")
    msg = str(e.value)
    bound = 40 if field == "name" else 3
    assert f"(allowed: at most {bound} {unit})" in msg, msg


# --- session 14: a missing field that takes one of a few words lists them -------------------------------------------

@pytest.mark.parametrize("builtin,path,field,value", [
    ("book-two-f2f", ("active", "skill"), "active.skill", "ranged_attack"),
    ("book-oes-order", ("board", "shape", "kind"), "board.shape.kind", "hexagon"),
    ("me-diagram-4", ("questions", 0, "ask"), "questions[0].ask", "lof"),
    ("me-10", ("map", "shape", "kind"), "map.shape.kind", "hexagon"),
    ("gd-08", ("events", 0, "kind"), "events[0].kind", "enters"),
    ("gd-13", ("rules", 0, "condition"), "rules[0].condition", "adjacent"),
    ("dg-hero-fight", ("actions", 0, "do"), "actions[0].do", "move"),
    ("dg-hero-fight", ("enemy_types", 0, "key"), "enemy_types[0].key", "rank-1"),
])
def test_a_missing_field_of_a_few_words_lists_them(builtin, path, field, value):
    """Every game: a required field whose type is a set of words (a ``Literal``: a skill, a kind, a condition) names
    the words allowed when it is missing (it said only "is required but missing", with no allowed values)."""
    import copy
    import tomllib

    from test_hostile_files import to_toml

    from explorer.games import find_builtin, load_any

    game, _ = find_builtin(builtin)
    doc = copy.deepcopy(tomllib.loads(game.scenario_text(builtin)))
    cur = doc
    for k in path[:-1]:
        cur = cur[k]
    del cur[path[-1]]
    with pytest.raises(ScenarioError) as e:
        load_any("bad.toml", text=to_toml(doc))
    msg = str(e.value)
    assert msg.startswith(f"bad.toml: field '{field}': is required but missing") and "\n" not in msg, msg
    assert "(allowed: one of " in msg and repr(value) in msg, msg
