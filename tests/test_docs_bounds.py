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


# --- docs/masseffect-map-format.md: the annotated [map] example and the map question example ------------------------

ME_MAP_DOC = Path(__file__).parents[1] / "docs" / "masseffect-map-format.md"
ME_TABLES = {"[map]": "", "[map.icons]": "icons.", "[[map.edges]]": "edges[i].", "[[map.areas]]": "areas[i].",
             "[[map.turrets]]": "turrets[i].", "[[characters]]": "characters[i].", "[[questions]]": "questions[i].",
             "[rulings]": "rulings."}
"""Each table header of the two examples -> where its keys are (in ``MapModel`` or ``MapQueryFile``)."""
_BOUND = rf"{_RANGE}|<= (\d+(?:,\d{{3}})*)"


def _bound(m: re.Match) -> str:
    return f"{m[1]}..{m[2]}" if m[1] else f"<= {m[3]}"


NOT_FIELDS = {"optional", "of", "default", "and", "or"}
"""Words that may stand before a bound in a comment without naming a field (``# optional 1..20``)."""


def example_comment_bounds(text: str, heading: str,
                          tables: dict[str, str] | None = None) -> list[tuple[str, str, str]]:
    """``(field, "lo..hi" | "<= n", the comment)`` for each bound the ```toml example under ``heading`` states in a
    comment (``tables``: each table header -> where its keys are; default :data:`ME_TABLES`). A comment continued
    on the next line (no code before its ``#``) belongs to the key above. A bound written after a field's name
    (``radius 0..28``, ``width = 1..60``, ``atk/dfi 0..10``) bounds that field, returned as ``key.sub`` (resolve it
    with :func:`_resolve`: a sub-field, or a sibling named in the key's comment); ``N..M faces of a..b`` bounds a
    list and its entries (``key``, ``key[i]``); a table header's comment bounds the table's entries
    (``[[map.areas]]  # <= 64``), except ``[map.icons]``'s, which bounds the icons on one hex (``icons per hex``)."""
    tables = ME_TABLES if tables is None else tables
    block = text.split(heading, 1)[1].split("```toml", 1)[1].split("```", 1)[0]
    comments: list[tuple[str, str, str]] = []          # (field, the prefix of its named sub-fields, its comment)
    prefix = ""
    for line in block.splitlines():
        code, _, comment = line.partition("#")
        code = code.strip()
        if not code:
            if comments and comment.startswith("   "):       # a continued comment
                fld, sub, c = comments[-1]
                comments[-1] = (fld, sub, c + " " + comment.strip())
            continue
        if code in tables:
            prefix = tables[code]
            table = prefix.rstrip(".").removesuffix("[i]")
            comments.append(("icons per hex" if code == "[map.icons]" else table, prefix, comment.strip()))
            continue
        key = re.match(r"(\w+) =", code)
        if key:
            comments.append((prefix + key[1], prefix + key[1] + ".", comment.strip()))
    out = []
    for fld, sub_prefix, comment in comments:
        faces = re.search(rf"{_RANGE} faces of {_RANGE}", comment)
        if faces:
            out += [(fld, f"{faces[1]}..{faces[2]}", comment), (fld + "[i]", f"{faces[3]}..{faces[4]}", comment)]
            continue
        pattern = rf"(\w+(?:/\w+)*) =? ?({_BOUND})"
        named = [(n[1], re.search(_BOUND, n[2])) for n in re.finditer(pattern, comment) if n[1] not in NOT_FIELDS]
        out += [(sub_prefix + one, _bound(m), comment) for subs, m in named for one in subs.split("/")]
        rest = re.sub(pattern, lambda n: "" if n[1] not in NOT_FIELDS else n[0], comment)
        if m := re.search(_BOUND, rest):                     # a bound of the key itself, beside named ones
            out.append((fld, _bound(m), comment))
    return out


def _resolve(field: str, schema: dict[str, str]) -> str:
    """A named bound's field as the schema spells it: ``key.sub`` if the schema has it, else the sibling
    ``<prefix>sub`` (``do = "fight"  # ... recover = 0..60`` bounds ``actions[i].recover``)."""
    if field in schema or field in CHECKED_IN_CODE:
        return field
    head, _, sub = field.rpartition(".")
    if not head or head.endswith("[i]"):
        return field
    sibling = (head.rpartition(".")[0] + "." if "." in head else "") + sub
    return sibling if sibling in schema else field


ME_MAP_STATED = example_comment_bounds(ME_MAP_DOC.read_text(encoding="utf-8"), "## The `[map]` table")
ME_QUERY_STATED = example_comment_bounds(ME_MAP_DOC.read_text(encoding="utf-8"), "## Map questions")


def _me_map_probe(data: dict) -> str | None:
    """The refusal of the map ``data`` (a ``[map]`` table) as text, ``None`` if it loads."""
    from explorer.errors import ScenarioError
    from explorer.games.masseffect.map import map_from_dict

    try:
        map_from_dict({"shape": {"kind": "hexagon", "radius": 2}, **data}, "probe.toml")
    except ScenarioError as e:
        return str(e)
    return None


_ICONS = ["spawn", "loot", "objective", "refugee", "bonus_loot", "terminal:1", "terminal:2", "terminal:3", "inferno"]
CHECKED_IN_CODE = {
    # bounds the loader checks in code (not in the schema): the stated bound is accepted, one past it refused
    "icons per hex": lambda lo, hi: (_me_map_probe({"icons": {"0,0": _ICONS[:hi]}}) is None
                                     and f"at most {hi}" in (_me_map_probe({"icons": {"0,0": _ICONS[:hi + 1]}})
                                                             or "")),
    "turrets[i].facing": lambda lo, hi: all(_me_map_probe({"turrets": [{"hex": "0,0", "facing": f}]}) is None
                                            for f in (lo, hi))
    and all(f"{lo}..{hi}" in (_me_map_probe({"turrets": [{"hex": "0,0", "facing": f}]}) or "")
            for f in (lo - 1, hi + 1)),
}
"""Field -> ``check(lo, hi)``: whether the code holds the stated bound ``lo..hi`` (``<= n`` is ``0..n``)."""

DG_HERO_HEADING = '## Hero Phase files (`kind = "hero"`)'
DG_NEMESIS_HEADING = '## Nemesis Phase scenarios (`kind = "nemesis"`)'


def _dg_hero_probe(change) -> str | None:
    """The refusal of the Hero Phase example of docs/dagger-map-format.md after ``change(doc)``, ``None`` if it
    loads."""
    import tomllib

    from explorer.errors import ScenarioError
    from explorer.games.dagger.hero_scenario import parse_hero

    text = MAP_DOC.read_text(encoding="utf-8").split(DG_HERO_HEADING, 1)[1].split("```toml", 1)[1].split("```")[0]
    doc = tomllib.loads(text)
    change(doc)
    try:
        parse_hero(doc, "probe.toml")
    except ScenarioError as e:
        return str(e)
    return None


def _fight(doc, successes):
    fight = next(a for a in doc["actions"] if a["do"] == "fight")
    fight["successes"], fight["dice"] = successes, 3


CHECKED_IN_CODE.update({
    "die[i]": lambda lo, hi: (_dg_hero_probe(lambda d: d.update(die=[lo, hi])) is None
                              and f"{lo}..{hi}" in (_dg_hero_probe(lambda d: d.update(die=[lo, hi + 1])) or "")),
    # "at most the dice rolled x the die's best face (3 ATK dice of the stand-in die: 0..6)": 3 dice of the
    # example's die
    "actions[i].successes": lambda lo, hi: (_dg_hero_probe(lambda d: _fight(d, hi)) is None
                                            and f"{lo}..{hi}" in (_dg_hero_probe(lambda d: _fight(d, hi + 1))
                                                                  or "")),
})
DG_NEMESIS_TABLES = {"[nemesis]": "nemesis.", "[[heroes]]": "heroes[i].", "[[enemy_types]]": "enemy_types[i].",
                     "[[enemies]]": "enemies[i].", "[[nemesis_missions]]": "nemesis_missions[i].",
                     "[[side_missions]]": "side_missions[i].", "[[hero_missions]]": "hero_missions[i].",
                     "[[events]]": "events[i].", "[choices]": "choices.", "[rulings]": "rulings."}
DG_HERO_TABLES = {"[nemesis]": "nemesis.", "[[actions]]": "actions[i]."}


def _code_agrees(field: str, bound: str, model) -> tuple[bool, str]:
    schema = bounded_fields(model)
    field = _resolve(field, schema)
    if field in CHECKED_IN_CODE:
        lo, hi = (0, int(bound[3:])) if bound.startswith("<= ") else map(int, bound.split(".."))
        return CHECKED_IN_CODE[field](lo, hi), "the loader's own check"
    if field not in schema:
        return False, "no bound"
    return _agrees(bound, schema[field]), schema[field]


def test_the_mass_effect_examples_state_bounds():
    fields = {f for f, _, _ in ME_MAP_STATED}
    assert {"name", "shape.radius", "shape.width", "shape.height", "hexes", "icons per hex", "areas", "turrets",
            "turrets[i].facing"} <= fields, fields
    assert {f for f, _, _ in ME_QUERY_STATED} >= {"characters", "questions"}


@pytest.mark.parametrize("field,bound,comment", ME_MAP_STATED, ids=[f for f, _, _ in ME_MAP_STATED])
def test_a_bound_in_the_mass_effect_map_example_is_the_codes(field, bound, comment):
    from explorer.games.masseffect.map_file import MapModel

    ok, said = _code_agrees(field, bound, MapModel)
    assert ok, (f"docs/masseffect-map-format.md: map.{field} is {bound} ({comment!r}), the code says {said} "
                "(see docs/limits.md)")


@pytest.mark.parametrize("field,bound,comment", ME_QUERY_STATED, ids=[f for f, _, _ in ME_QUERY_STATED])
def test_a_bound_in_the_mass_effect_map_question_example_is_the_schemas(field, bound, comment):
    from explorer.games.masseffect.query_file import MapQueryFile

    ok, said = _code_agrees(field, bound, MapQueryFile)
    assert ok, f"docs/masseffect-map-format.md: {field} is {bound} ({comment!r}), the schema says {said}"


DG_NEMESIS_STATED = example_comment_bounds(MAP_DOC.read_text(encoding="utf-8"), DG_NEMESIS_HEADING,
                                          DG_NEMESIS_TABLES)
DG_HERO_STATED = example_comment_bounds(MAP_DOC.read_text(encoding="utf-8"), DG_HERO_HEADING, DG_HERO_TABLES)


def test_the_dagger_examples_state_bounds():
    assert {f for f, _, _ in DG_NEMESIS_STATED} >= {"threat", "nemesis.threat_value", "heroes[i].move",
                                                    "heroes[i].rest_auto", "side_missions"}
    from explorer.games.dagger.hero_scenario import HeroPartModel

    schema = bounded_fields(HeroPartModel)
    assert {_resolve(f, schema) for f, _, _ in DG_HERO_STATED} >= {
        "die", "die[i]", "actions", "actions[i].path", "actions[i].move_value", "actions[i].progress_per_success",
        "actions[i].recover", "actions[i].successes", "actions[i].dice", "actions[i].amount"}


@pytest.mark.parametrize("field,bound,comment", DG_NEMESIS_STATED, ids=[f for f, _, _ in DG_NEMESIS_STATED])
def test_a_bound_in_the_dagger_nemesis_example_is_the_codes(field, bound, comment):
    from explorer.games.dagger.nemesis_file import NemesisScenarioModel

    ok, said = _code_agrees(field, bound, NemesisScenarioModel)
    assert ok, f"docs/dagger-map-format.md (nemesis): {field} is {bound} ({comment!r}), the code says {said}"


@pytest.mark.parametrize("field,bound,comment", DG_HERO_STATED, ids=[f for f, _, _ in DG_HERO_STATED])
def test_a_bound_in_the_dagger_hero_example_is_the_codes(field, bound, comment):
    from explorer.games.dagger.hero_scenario import HeroPartModel

    ok, said = _code_agrees(field, bound, HeroPartModel)
    assert ok, f"docs/dagger-map-format.md (hero): {field} is {bound} ({comment!r}), the code says {said}"


@pytest.mark.parametrize("field, bound, said", [("actions[i].hero.recover", "0..50", "0..60"),
                                                ("die[i]", "0..4", "the loader's own check"),
                                                ("actions[i].successes", "0..7", "the loader's own check"),
                                                ("heroes[i].atk", "0..9", "0..10")])
def test_a_wrong_bound_in_the_dagger_examples_is_caught(field, bound, said):
    test = (test_a_bound_in_the_dagger_nemesis_example_is_the_codes if field.startswith("heroes")
            else test_a_bound_in_the_dagger_hero_example_is_the_codes)
    with pytest.raises(AssertionError, match=re.escape(f"the code says {said}")):
        test(field, bound, "")


def test_the_mass_effect_coordinate_bound_in_the_text_is_the_codes():
    from explorer.games.masseffect.map import COORD_LIMIT

    [n] = re.findall(r"\|q\|, \|r\| ≤ (\d+)", ME_MAP_DOC.read_text(encoding="utf-8"))
    assert int(n) == COORD_LIMIT
    assert _me_map_probe({"hexes": [f"{n},0", f"0,-{n}"]}) is None
    assert f"<= {n}" in _me_map_probe({"hexes": [f"{int(n) + 1},0"]})


@pytest.mark.parametrize("text, field, said", [
    ('[map]\nname = "x"  # optional, <= 61 characters\n', "name", "at most 60 characters"),
    ('[map]\nshape = { kind = "hexagon", radius = 2 }  # hexagon (radius 0..29) or\n'
     '                 #   { kind = "rectangle", width = 1..60, height = 1..60 }\n', "shape.radius", "0..28"),
    ('[[map.turrets]]  # <= 33, one per hex\nhex = "0,0"\n', "turrets", "at most 32 entries"),
    ('[map.icons]  # <= 9 icons per hex\n', "icons per hex", "the loader's own check"),
    ('[[map.turrets]]\nfacing = "W"  # 0..6 or a name\n', "turrets[i].facing", "the loader's own check"),
], ids=["name", "shape.radius", "turrets", "icons per hex", "turret facing"])
def test_a_wrong_bound_in_the_mass_effect_map_example_is_caught(text, field, said):
    stated = example_comment_bounds("## The `[map]` table\n\n```toml\n" + text + "```\n", "## The `[map]` table")
    (bound, comment), = [(b, c) for f, b, c in stated if f == field]
    with pytest.raises(AssertionError, match=re.escape(f"the code says {said}")):
        test_a_bound_in_the_mass_effect_map_example_is_the_codes(field, bound, comment)


# --- written limits in prose: docs/tagraid-orders.md, docs/games/masseffect.md ------------------------------------

ORDERS_DOC = Path(__file__).parents[1] / "docs" / "tagraid-orders.md"
ORDERS_LIMITS = {"Miners": ("miners",), "route points": ("order.move.route", "order.second.move.route"),
                 "Weapons per Miner": ("miners[i].weapons",), "Access Points": ("access_points",),
                 "dice per list": ("dice.rolls.<key>", "dice.saves.<key>", "dice.respawn")}
"""Each phrase of the order file's "Limits: ..." sentence -> the fields it bounds."""


def orders_limits(text: str) -> list[tuple[str, str]]:
    """``(phrase, "<= n")`` of the order file's "Limits: 24 Miners, 32 route points, ..." sentence."""
    sentence = " ".join(text.split()).split("Limits: ", 1)[1].split(" (", 1)[0]
    return [(m[2], f"<= {m[1]}") for m in re.finditer(r"(\d[\d,]*) ([A-Za-z ]+?)(?:,|$)", sentence)]


ORDERS_STATED = orders_limits(ORDERS_DOC.read_text(encoding="utf-8"))


def test_the_orders_limits_sentence_names_each_bound():
    assert {p for p, _ in ORDERS_STATED} == set(ORDERS_LIMITS)


@pytest.mark.parametrize("phrase,bound", ORDERS_STATED, ids=[p for p, _ in ORDERS_STATED])
def test_a_limit_of_the_order_file_is_the_schemas(phrase, bound):
    from explorer.games.tagraid.orders.orderfile import OrderFile

    schema = bounded_fields(OrderFile)
    for fld in ORDERS_LIMITS[phrase]:
        assert _agrees(bound, schema[fld]), (f"docs/tagraid-orders.md: {bound} {phrase}, the schema says {fld} is "
                                             f"{schema[fld]} (see docs/limits.md)")


def test_a_wrong_order_limit_is_caught():
    [(phrase, bound)] = [x for x in orders_limits("Limits: 25 Miners, 32 route points.") if x[0] == "Miners"]
    with pytest.raises(AssertionError, match="the schema says miners is 1..24 entries"):
        test_a_limit_of_the_order_file_is_the_schemas(phrase, bound)


ME_GAME_DOC = Path(__file__).parents[1] / "docs" / "games" / "masseffect.md"


def test_the_special_hazard_instructions_text_bound_is_the_schemas():
    from explorer.games.masseffect.round import RoundScenario

    [(lo, hi)] = re.findall(r'`text = "\.\.\."` \((\d+)–(\d+) characters', ME_GAME_DOC.read_text(encoding="utf-8"))
    assert bounded_fields(RoundScenario)["hazard_deck[i].instructions[i].text"] == f"{lo}..{hi} characters"


def test_the_loot_token_counts_in_the_text_are_the_boxs():
    from explorer.games.masseffect.round import LOOT_IN_BOX

    text = " ".join(ME_GAME_DOC.read_text(encoding="utf-8").split())
    kinds = re.search(r"token kinds: ((?:`\w+`,? ?)+); at most as many of each as the box holds: ([\d, ]+)\)", text)
    assert kinds, "the Loot sentence of docs/games/masseffect.md changed: update this test"
    stated = dict(zip(re.findall(r"`(\w+)`", kinds[1]), map(int, kinds[2].split(", "))))
    assert stated == LOOT_IN_BOX
