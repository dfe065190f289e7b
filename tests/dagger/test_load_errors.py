"""A bad round or hero file is refused at load time with one line naming the field and what is allowed (issue 20,
tester's faults 3 and 4): a misspelt top-level table lists every field of the kind; a name in a move path that is
not a space of the map is a bad file (a field error), not an illegal move."""

import copy

import pytest

from explorer.errors import ScenarioError
from explorer.games import get_game
from explorer.games.dagger.hero_scenario import HeroPartModel, parse_hero
from explorer.games.dagger.round_scenario import RoundPartModel, parse_round
from explorer.scenario import read_toml


def _doc(sid):
    g = get_game("dagger")
    return copy.deepcopy(read_toml(sid, text=g.scenario_text(sid)))


@pytest.mark.parametrize("sid, parse, model", [("dg-setup-round", parse_round, RoundPartModel),
                                               ("dg-hero-fight", parse_hero, HeroPartModel)])
def test_a_misspelt_table_lists_every_field_of_the_kind(sid, parse, model):
    d = _doc(sid)
    d["setupp"] = {"seed": 1}
    with pytest.raises(ScenarioError) as e:
        parse(d, "f.toml")
    assert e.value.field == "setupp" and e.value.problem == "unknown field"
    for name in [*model.model_fields, "heroes", "events", "title"]:
        assert repr(name) in e.value.allowed


def _round_with_path(path):
    d = _doc("dg-setup-round")
    turn = next(t for t in d["rounds"][0]["turns"] if t["slot"] == "move")
    turn["path"] = path
    return d


def test_an_unknown_space_in_a_round_path_is_a_field_error_at_load_time():
    with pytest.raises(ScenarioError) as e:
        parse_round(_round_with_path(["Narnia"]), "f.toml")
    assert e.value.field == "rounds[0].turns[2].path[0]" and "'Narnia'" in e.value.problem
    assert "New York" in e.value.allowed and e.value.source == "f.toml"


def test_an_unknown_space_in_a_hero_path_is_a_field_error_at_load_time():
    d = _doc("dg-hero-fight")
    d["actions"] = [{"do": "move", "hero": d["heroes"][0]["name"], "path": ["Cairo", "Narnia"]}]
    with pytest.raises(ScenarioError) as e:
        parse_hero(d, "f.toml")
    assert e.value.field == "actions[0].path[1]" and "'Narnia'" in e.value.problem and "Cairo" in e.value.allowed


def test_the_cli_exits_2_for_an_unknown_space_in_a_path(tmp_path):
    import contextlib
    import io

    from explorer.cli import main
    from explorer.tomlwrite import dumps

    p = tmp_path / "narnia.toml"
    p.write_text(dumps(_round_with_path(["Narnia"])))
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        code = main(["resolve", str(p)])
    assert code == 2 and "rounds[0].turns[2].path[0]" in err.getvalue()
