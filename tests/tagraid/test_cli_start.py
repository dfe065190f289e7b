"""`explorer tagraid odds` starts light: no pydantic models, geometry, graph, array or widget modules are imported,
and its number bounds (copied so that it need not import the pydantic models) equal the TOML format's."""

import pytest

from explorer.games.tagraid import cli_odds, model
from cli_helpers import modules_after

HEAVY = ("explorer.scenario", "explorer.games.tagraid.model", "shapely", "networkx", "numpy", "ipywidgets", "panel",
         "rich")


@pytest.mark.parametrize("quantity", sorted(cli_odds._BOUNDS))
def test_cli_bounds_equal_the_pydantic_fields(quantity):
    model_name, field, _what, bounds = cli_odds._BOUNDS[quantity]
    assert bounds == model.field_bounds(getattr(model, model_name), field)


def test_out_of_range_message_is_the_models_message():
    import explorer.errors as E

    for quantity, (model_name, field, what, (lo, hi)) in cli_odds._BOUNDS.items():
        for bad in (lo - 1, hi + 1):
            with pytest.raises(E.ScenarioError) as mine:
                cli_odds._check_bounded(bad, "--opt", quantity)
            with pytest.raises(E.ScenarioError) as theirs:
                model.check_bounded(bad, getattr(model, model_name), field, "--opt", what)
            assert str(mine.value) == str(theirs.value)
        assert cli_odds._check_bounded(lo, "--opt", quantity) == lo


def test_odds_and_help_import_nothing_heavy():
    for argv in (["tagraid", "odds", "--burst-a", "3", "--sv-a", "13", "--burst-b", "1", "--sv-b", "12"],
                 ["odds", "--burst-a", "2", "--sv-a", "11", "--megabeast-threat", "12", "--damage-a", "13", "--exact"], ["--help"]):
        rc, mods = modules_after(argv)
        assert rc == 0
        heavy = sorted(m for m in mods if any(m == h or m.startswith(h + ".") for h in HEAVY))
        assert heavy == [], argv
        assert "explorer.games.masseffect.strategy" not in mods


def test_cli_skills_equal_the_odds_engines():
    """cli_odds copies the Skills so that `--help` and usage errors need not import the odds engine."""
    from explorer.games.tagraid.odds import ODDS_SKILLS

    assert cli_odds.SKILLS == ODDS_SKILLS
