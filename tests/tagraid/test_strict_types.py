"""TAG Raid files are strictly typed (issue 25, issue 18 item 7): a wrongly typed value in any field of any built-in
roll, order, round or match scenario, or of a packaged table file (its board included), is refused in one line
naming the file, the field and the type it takes. Each case was accepted before the shared strict base (``"3"``,
``true`` or ``3.0`` read as 3, ``1`` or ``"true"`` as a yes)."""

from __future__ import annotations

from pathlib import Path

import pytest

from explorer.games import get_game
from explorer.games.tagraid.table_file import table_from_dict
from explorer.scenario import read_toml

from strict_helpers import builtins_by_kind, check_every_field

GAME = get_game("tagraid")
TABLES = Path(__file__).parents[2] / "explorer" / "games" / "tagraid" / "tables"


KINDS = builtins_by_kind(GAME)

UNIONS = {
    "fire_from": (float, int),      # a fraction of the route (0..1) or a point [x, y]
    "fire_at": (float, int),
    "board": (str,),                # a packaged board's name or a [board] table
    "step": (float,),               # Literal[2, 4]: pydantic takes 4.0 as the literal 4 (the same number, kept as 4)
}


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_a_wrongly_typed_value_in_any_field_of_a_builtin_is_refused_naming_it(kind):
    tried = check_every_field(lambda d: GAME.parse_data(d, "x.toml"), KINDS[kind], skip=frozenset({"game", "kind"}),
                              unions=UNIONS)
    assert tried > 0


def test_a_wrongly_typed_value_in_any_field_of_a_packaged_table_is_refused_naming_it():
    docs = {p.stem: read_toml(p) for p in sorted(TABLES.glob("*.toml"))}
    assert check_every_field(lambda d: table_from_dict(d, "t.toml"), docs, unions=UNIONS) > 20


@pytest.mark.parametrize("field,value,words", [
    ("silhouette", "7", "'7' is not a whole number"),
    ("silhouette", True, "true is not a whole number"),
    ("silhouette", 7.0, "7.0 is not a whole number"),
    ("facing", "90", "'90' is not a finite number"),
])
def test_the_message_says_what_the_field_takes(field, value, words):
    from explorer.errors import ScenarioError

    doc = read_toml(TABLES / "lof-demo.toml")
    doc["models"][0][field] = value
    with pytest.raises(ScenarioError) as e:
        table_from_dict(doc, "t.toml")
    msg = str(e.value)
    assert msg.startswith(f"t.toml: field 'models[0].{field}': {words}"), msg
    assert "(allowed: a " in msg and "\n" not in msg


def test_an_integer_for_a_decimal_field_stays_accepted():
    doc = read_toml(TABLES / "lof-demo.toml")
    doc["models"][0]["facing"] = 90                  # a TOML integer where a decimal is expected: a plain number
    assert table_from_dict(doc, "t.toml").table.models[doc["models"][0]["id"]].facing == 90
