"""A bad round or hero file is refused at load time with one line naming the field and what is allowed (issue 20,
tester's faults 3 and 4): a misspelt top-level table lists every field of the kind; a name in a move path that is
not a space of the map is a bad file (a field error), not an illegal move."""

import copy

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

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


# ------------------------------------------------ successes a roll cannot give (issue 25 item 4, issue 20 hardening)

def _fight_turn(d):
    return next(t for t in d["rounds"][0]["turns"] if t["slot"] == "fight")


def _field_of_fight(d):
    t = next(i for i, t in enumerate(d["rounds"][0]["turns"]) if t["slot"] == "fight")
    return f"rounds[0].turns[{t}].successes"


@pytest.mark.parametrize("changes, most", [
    ({}, 6),                                           # Hero B's ATK 3, the stand-in die's best face 2
    ({"dice": 1}, 2),                                  # the turn's own dice
    ({"dice": 1, "token": "boosted"}, 4),              # + 1 BOOST die (stand-in sheet)
])
def test_a_round_turn_with_more_successes_than_its_dice_can_roll_is_refused_at_load(changes, most):
    d = _doc("dg-team-up")
    turn = _fight_turn(d)
    turn.update(changes)
    turn["successes"] = most                           # the most the roll can give: accepted
    parse_round(copy.deepcopy(d), "f.toml")
    turn["successes"] = most + 1
    with pytest.raises(ScenarioError) as e:
        parse_round(d, "f.toml")
    msg = str(e.value)
    assert e.value.field == _field_of_fight(d) and "f.toml" in msg and "\n" not in msg
    assert f"at most {most}" in msg and e.value.allowed == f"0..{most}"


def test_a_support_card_s_dice_count_towards_the_roll():
    d = _doc("dg-team-up")
    hero = _fight_turn(d)["hero"]
    sheets = d.setdefault("sheets", [])
    sheet = next((s for s in sheets if s["hero"] == hero), None)
    if sheet is None:
        sheet = {"hero": hero}
        sheets.append(sheet)
    sheet["support"] = [{"name": "Gadget", "dice": 2}]
    turn = _fight_turn(d)
    turn["support"], turn["successes"] = "Gadget", 10          # (3 + 2 dice) × 2
    parse_round(copy.deepcopy(d), "f.toml")
    turn["successes"] = 11
    with pytest.raises(ScenarioError) as e:
        parse_round(d, "f.toml")
    assert e.value.allowed == "0..10"


@pytest.mark.parametrize("changes, most", [({}, 6), ({"dice": 2}, 4), ({"die": [0, 1]}, 3)])
def test_a_hero_action_with_more_successes_than_its_dice_can_roll_is_refused_at_load(changes, most):
    d = _doc("dg-hero-fight")
    i = next(i for i, a in enumerate(d["actions"]) if a["do"] == "fight")
    if "die" in changes:
        d["die"] = changes["die"]
    else:
        d["actions"][i].update(changes)
    d["actions"][i]["successes"] = most
    parse_hero(copy.deepcopy(d), "f.toml")
    d["actions"][i]["successes"] = most + 1
    with pytest.raises(ScenarioError) as e:
        parse_hero(d, "f.toml")
    assert e.value.field == f"actions[{i}].successes" and e.value.allowed == f"0..{most}"
    assert "f.toml" in str(e.value) and "\n" not in str(e.value)


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 6), st.lists(st.integers(0, 3), min_size=2, max_size=8), st.integers(0, 30))
def test_a_roll_result_is_accepted_exactly_when_the_dice_can_give_it(dice, faces, successes):
    d = _doc("dg-hero-fight")
    i = next(i for i, a in enumerate(d["actions"]) if a["do"] == "fight")
    d["die"], d["actions"][i]["dice"], d["actions"][i]["successes"] = faces, dice, successes
    try:
        parse_hero(d, "f.toml")
        accepted = True
    except ScenarioError as e:
        assert e.field == f"actions[{i}].successes"
        accepted = False
    assert accepted == (successes <= dice * max(faces))
