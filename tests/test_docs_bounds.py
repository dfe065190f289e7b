"""The hand-written field tables of ``docs/scenario-format.md`` (TAG Raid's roll scenario) state bounds (``integer
0..30`` in the type column, ``(0..99)`` beside a sub-field in the meaning column); each must be the schema's bound,
as ``docs/limits.md`` (generated from the schema by ``explorer.limits_doc``) states it. A bound changed in the code
and not in the table, or typed wrong in the table, fails here."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from explorer.games.tagraid.model import Scenario
from explorer.limits_doc import bounded_fields

DOC = Path(__file__).parents[1] / "docs" / "scenario-format.md"

SECTIONS = {
    "Top level": ("",),
    "Fields shared by the Active and the Reactive Miners": ("active.", "reactive[i]."),
    "`weapon`": ("active.weapon.", "reactive[i].weapon."),
    "`[active]`": ("active.",),
    "`[[active.attacks]]` (one per target)": ("active.attacks[i].",),
    "`[[reactive]]`": ("reactive[i].",),
    "`[megabeast]`": ("megabeast.",),
}
"""Each field table's heading -> where its fields are in the roll scenario."""

_RANGE = r"(-?\d+(?:,\d{3})*)\.\.(-?\d+(?:,\d{3})*)"


def stated_bounds(text: str) -> list[tuple[str, str, str]]:
    """``(heading, dotted field, "lo..hi")`` for each bound the tables state: an ``integer lo..hi`` type, and a
    ``` `sub` (lo..hi``` in the meaning column (a sub-field's bound)."""
    out, heading = [], None
    for line in text.splitlines():
        m = re.match(r"#+ (.*)", line)
        if m:
            heading = m[1].strip()
            continue
        row = re.match(r"\| `(\w+)` \| ([^|]*) \| [^|]* \| (.*) \|$", line)
        if heading not in SECTIONS or not row:
            continue
        name, typ, meaning = row[1], row[2], row[3]
        t = re.fullmatch(rf"integer {_RANGE}", typ.strip())
        if t:
            out.append((heading, name, f"{t[1]}..{t[2]}"))
        for sub, lo, hi in re.findall(rf"`(\w+)` \({_RANGE}", meaning):
            out.append((heading, f"{name}.{sub}", f"{lo}..{hi}"))
    return out


STATED = stated_bounds(DOC.read_text(encoding="utf-8"))


def test_the_tables_state_bounds():
    assert len(STATED) >= 15   # the parser still reads the tables


@pytest.mark.parametrize("heading,field,bound", STATED, ids=[f"{h}:{f}" for h, f, _ in STATED])
def test_a_hand_written_bound_is_the_schemas(heading, field, bound):
    schema = bounded_fields(Scenario)
    for prefix in SECTIONS[heading]:
        path = prefix + field
        assert path in schema, f"docs/scenario-format.md ({heading}) states a bound for {path}: the schema has none"
        assert schema[path] == bound, (f"docs/scenario-format.md ({heading}): {field} is {bound}, the schema says "
                                       f"{schema[path]} (see docs/limits.md)")


def test_a_wrong_bound_in_a_table_is_caught():
    text = "## `[megabeast]`\n\n| field | type | default | meaning |\n|---|---|---|---|\n" \
           "| `wounds` | integer 1..60 | required | positions |\n"
    [(heading, field, bound)] = stated_bounds(text)
    with pytest.raises(AssertionError, match="the schema says 1..50"):
        test_a_hand_written_bound_is_the_schemas(heading, field, bound)


# --- docs/dagger-map-format.md: the annotated map file ---------------------------------------------------------------

MAP_DOC = Path(__file__).parents[1] / "docs" / "dagger-map-format.md"
MAP_TABLES = {"[map]": "", "[[map.regions]]": "regions", "[[map.spaces]]": "spaces[i]."}


def map_comment_bounds(text: str) -> list[tuple[str, str, str]]:
    """``(field, "lo..hi" | "<= n", the comment)`` for each bound the annotated ``[map]`` example states in a
    comment: ``key = value  # ... lo..hi`` or ``<= n`` (a table header's comment bounds its entries)."""
    block = text.split("## Map file format", 1)[1].split("```toml", 1)[1].split("```", 1)[0]
    out, prefix = [], None
    for line in block.splitlines():
        code, _, comment = line.partition("#")
        code = code.strip()
        m = re.search(rf"{_RANGE}|<= (\d[\d,]*)", comment)
        if code in MAP_TABLES:
            prefix = MAP_TABLES[code]
            if m and prefix == "regions":
                out.append(("regions", f"{m[1]}..{m[2]}", comment.strip()))
            elif m and prefix == "spaces[i].":
                out.append(("spaces", f"{m[1]}..{m[2]}", comment.strip()))
            prefix = "regions[i]." if prefix == "regions" else prefix
            continue
        key = re.match(r"(\w+) =", code)
        if key and m and prefix is not None:
            out.append((prefix + key[1], f"{m[1]}..{m[2]}" if m[1] else f"<= {m[3]}", comment.strip()))
    return out


MAP_STATED = map_comment_bounds(MAP_DOC.read_text(encoding="utf-8"))


def _agrees(stated: str, schema: str) -> bool:
    if stated.startswith("<= "):
        n = stated[3:]
        return schema.startswith(f"at most {n} ") or bool(re.fullmatch(rf"-?[\d,]+\.\.{n}( \w+)?", schema))
    return schema == stated or schema.startswith(f"{stated} ")


def test_the_map_example_states_bounds():
    assert len(MAP_STATED) >= 8


@pytest.mark.parametrize("field,bound,comment", MAP_STATED, ids=[f for f, _, _ in MAP_STATED])
def test_a_bound_in_the_map_example_is_the_schemas(field, bound, comment):
    from explorer.games.dagger.map_file import MapModel

    schema = bounded_fields(MapModel)
    assert field in schema, f"docs/dagger-map-format.md states {bound} for map.{field}: the schema has no bound"
    assert _agrees(bound, schema[field]), (f"docs/dagger-map-format.md: map.{field} is {bound} ({comment!r}), the "
                                           f"schema says {schema[field]} (see docs/limits.md)")


def test_a_wrong_bound_in_the_map_example_is_caught():
    text = "## Map file format\n\n```toml\n[map]\nname = \"x\"  # optional, <= 61 characters\n```\n"
    [(field, bound, comment)] = map_comment_bounds(text)
    with pytest.raises(AssertionError, match="the schema says at most 60 characters"):
        test_a_bound_in_the_map_example_is_the_schemas(field, bound, comment)
