"""docs/limits.md cannot drift from the code: its "Every bounded field, by format" block is exactly what
explorer/limits_doc.py reads from the schemas, every format's root model is in it, and the bounds it states are the
ones the loading gate enforces (issue #25, newcomer #12)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from explorer import limits_doc
from explorer.errors import ScenarioError
from explorer.limits_doc import FORMATS, bounded_fields

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "limits.md"


def test_the_generated_block_of_docs_limits_is_the_code():
    page = PAGE.read_text(encoding="utf-8")
    assert page.count(limits_doc.BEGIN) == 1 and page.count(limits_doc.END) == 1
    block = page[page.index(limits_doc.BEGIN):page.index(limits_doc.END) + len(limits_doc.END)]
    assert block == limits_doc.render(), (
        "docs/limits.md is out of date: run `python -m explorer.limits_doc --write docs/limits.md`")


def _defining_module(mod: str, name: str, text: str) -> str:
    """The module that defines class ``name`` used in module ``mod``: ``mod`` itself, or the module a
    ``from .x import name`` line in its text names (a model imported lazily inside a function, as the D.A.G.G.E.R.
    file formats are, so that a cached built-in never imports pydantic)."""
    m = re.search(r"from\s+(\.+)(\w[\w.]*)\s+import\s+[^\n]*\b" + re.escape(name) + r"\b", text)
    if m is None:
        return mod
    up = mod.split(".")[:-len(m.group(1))]
    return ".".join(up + [m.group(2)])


def _validated_models() -> set[tuple[str, str]]:
    """``(defining module, class name)`` of every model the explorer hands to ``validate`` (or a module's
    ``_validate``)."""
    found = set()
    for path in (ROOT / "explorer").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        mod = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        for name in re.findall(r"(?<![\w.])_?validate\(\s*([A-Z_]\w*)\s*,", text):
            found.add((_defining_module(mod, name, text), name))
    return found


def test_every_format_the_explorer_validates_is_listed():
    listed = {(f.module, f.model) for f in FORMATS}
    missing = _validated_models() - listed
    assert not missing, f"add these root models to explorer.limits_doc.FORMATS: {sorted(missing)}"
    assert len(listed) == len(FORMATS)


def test_the_walk_sees_nested_lists_tables_and_annotated_items():
    from explorer.games.galaxydefenders.activation import ActivationScenario
    from explorer.games.masseffect.strategy_scenario import StrategyScenario

    gd = bounded_fields(ActivationScenario)
    assert gd["rules"] == "1..12 entries" and gd["rules[i].areas"] == "0..10" and gd["rules[i].move"] == "0..6"
    assert gd["areas"] == "1..40 entries" and gd["areas.<key>"] == "1..600 entries"
    assert gd["areas (keys)"] == "1..40 characters"
    me = bounded_fields(StrategyScenario)
    assert me["pool.paragon_dice"] == "0..2"


@pytest.mark.parametrize("value, ok", [(2, True), (3, False), (-1, False)])
def test_a_stated_bound_is_the_enforced_bound(value, ok):
    """The page's `pool.paragon_dice` 0..2 is what a Strategy Pool file gets: 2 loads, 3 and -1 are refused naming
    that field."""
    from explorer.games.masseffect.strategy_scenario import StrategyScenario
    from explorer.scenario import validate

    lo, hi = map(int, bounded_fields(StrategyScenario)["pool.paragon_dice"].split(".."))
    assert (lo, hi) == (0, 2)
    import tomllib

    from explorer.games import find_builtin

    name = "me-strategy-paragon"
    doc = tomllib.loads(find_builtin(name)[0].scenario_text(name))
    doc.setdefault("pool", {})["paragon_dice"] = value
    if ok:
        validate(StrategyScenario, doc, "s.toml")
    else:
        with pytest.raises(ScenarioError) as e:
            validate(StrategyScenario, doc, "s.toml")
        assert e.value.field == "pool.paragon_dice" and f"{lo}" in str(e.value) and f"{hi}" in str(e.value)


def test_a_within_rule_needs_a_distance_in_every_format_that_has_rules(tmp_path):
    """`within` with `areas = 0` was refused in an `activation` file and accepted in a `round` file's alien rules
    (it then matched only a target in the same Area); both now refuse it naming the field."""
    from explorer.games import find_builtin, load_any

    for name, field in (("gd-13", "rules[1].areas"), ("gd-round-map", "aliens[1].rules[1].areas")):
        game = find_builtin(name)[0]
        text = game.scenario_text(name)
        assert re.search(r"^areas = [1-9]", text, re.M)
        p = tmp_path / f"{name}.toml"
        p.write_text(re.sub(r"^areas = [0-9]+", "areas = 0", text, flags=re.M), encoding="utf-8")
        with pytest.raises(ScenarioError) as e:
            load_any(str(p))
        assert e.value.field == field and "1 to 10" in str(e.value) and str(p.name) in str(e.value)
