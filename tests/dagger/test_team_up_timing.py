"""Every point of the Nemesis Phase a team-up card may be readied or used at (issue 20, session 10 item 1).

Rulebook, Additional Rules › Team-up Abilities: unless a card says otherwise, team-up can be spent and team-up
abilities used at any time, even to interrupt other game effects. So besides the numbered steps and the parts of
step 3, a round file may name a point inside step 1 or 2 (after its rule, before its Winning and Losing check:
``"1.check"``, ``"2.check"``) and a point between two enemy activations (``"3.activation.N"``). A value that is not
a point, or a point the play never reaches, is a file error naming ``rounds[r].nemesis[k].before`` and the values
allowed, never a "Not allowed" step in the trace. Ruling ``team_up_after_loss``: an entry at a point after a loss
condition is reached, before its check."""

import copy

import pytest

from explorer.errors import RuleViolation, ScenarioError
from explorer.games import get_game
from explorer.games.dagger.round_scenario import parse_round, resolve_round
from explorer.scenario import read_toml

NAME = "dg-team-up-between-activations"


def doc(name=NAME):
    g = get_game("dagger")
    return copy.deepcopy(read_toml(name, text=g.scenario_text(name)))


def run(d, **kw):
    return resolve_round(parse_round(d, "t.toml"), **kw)


def hero_damage(t, name="Hero A"):
    return next(h.damage for h in t.result.heroes if h.name == name)


def titles(t):
    return [s.title for s in t.steps]


def test_a_team_up_between_two_activations_stops_the_second_enemy():
    t = run(doc())
    ti = titles(t)
    first = ti.index("Thug 1 attacks Hero A on Toronto for 2")
    used = ti.index("Hero A uses the team-up card Fastball Special: it is exhausted")
    gone = ti.index("Thug 2 was defeated before its activation: it does not activate")
    assert first < used < gone
    assert "Thug 2 attacks Hero A on Toronto for 2" not in ti
    assert hero_damage(t) == 2 and not t.result.refused
    assert t.steps[used].section == ("Round 1 · Nemesis Phase, team-up in step 3 (Resolve Event Cards), between "
                                     "enemy activations 1 and 2")


@pytest.mark.parametrize("point, damage", [("3.activation", 0), ("3.activation.1", 0), ("3.activation.2", 2),
                                           ("3.spawns", 4), ("3.discard", 4)])
def test_where_the_card_is_used_decides_how_many_thugs_attack(point, damage):
    d = doc()
    d["rounds"][0]["nemesis"][1]["before"] = point
    t = run(d)
    assert hero_damage(t) == damage
    assert ("Thug 2 attacks Hero A on Toronto for 2" in titles(t)) == (damage == 4)


def test_a_team_up_inside_step_2_comes_after_the_mission_check_and_before_its_loss_check():
    t = run(doc())
    ti = titles(t)
    ready = ti.index("Hero A spends 2 team-up to ready Fastball Special: team-up → 0")
    assert ti.index("1st Strike is not completed") < ready < ti.index("Event Ambush is drawn")
    assert ti[ready + 1] == "No loss condition reached"
    assert t.steps[ready].section == ("Round 1 · Nemesis Phase, team-up in step 2 (Check Nemesis Mission), after "
                                      "the mission check, before the Winning and Losing check")


def test_a_team_up_inside_step_1_comes_after_the_threat_advance():
    d = doc()
    d["rounds"][0]["nemesis"][0]["before"] = "1.check"
    t = run(d)
    ti = titles(t)
    ready = ti.index("Hero A spends 2 team-up to ready Fastball Special: team-up → 0")
    assert ti.index("Threat advances 0 → 4 (+4)") == ready - 1
    assert ti[ready + 1] == "No loss condition reached"


def _doomed():
    """The board at threat 16: step 1 adds 4 (the nemesis 2, two Thugs) and the track reaches 20."""
    d = doc()
    d["threat"] = 16
    d["rounds"][0]["nemesis"][0]["before"] = "1.check"
    return d


def test_ruling_team_up_after_loss_default_the_entry_is_not_played():
    t = run(_doomed())
    ti = titles(t)
    assert t.result.lost and "Hero A spends 2 team-up to ready Fastball Special: team-up → 0" not in ti
    skipped = next(s for s in t.steps if s.title.startswith("A loss condition is reached"))
    assert "Hero A ready team up" in skipped.title
    assert t.result.team_up == 2 and t.rulings["team_up_after_loss"] == "not_played"


def test_ruling_team_up_after_loss_played_readies_the_card_then_the_game_is_lost():
    t = run(_doomed(), rulings={"team_up_after_loss": "played"})
    ti = titles(t)
    ready = ti.index("Hero A spends 2 team-up to ready Fastball Special: team-up → 0")
    assert t.result.lost and t.result.team_up == 0
    assert ready < next(i for i, x in enumerate(ti) if "lose" in x)


def test_an_activation_the_event_does_not_have_is_a_file_error_naming_the_field():
    d = doc()
    d["rounds"][0]["nemesis"][1]["before"] = "3.activation.3"
    with pytest.raises(ScenarioError) as e:
        run(d)
    assert not isinstance(e.value, RuleViolation)
    msg = str(e.value)
    assert msg.startswith("t.toml: field 'rounds[0].nemesis[1].before': '3.activation.3': round 1's event "
                          "activates 2 enemies")
    assert "allowed: 3.activation.1..3.activation.2 (each also .interrupt) this round, or 3.activation," in msg and "\n" not in msg


@pytest.mark.parametrize("bad", ["3.activation.0", "3.activation.x", "3.activation.01", "3.activation.21",
                                 "inside 3", "4"])
def test_a_value_that_is_not_a_point_is_a_file_error_listing_the_points(bad):
    d = doc()
    d["rounds"][0]["nemesis"][1]["before"] = bad
    with pytest.raises(ScenarioError) as e:
        parse_round(d, "t.toml")
    msg = str(e.value)
    assert e.value.field == "rounds[0].nemesis[1].before" and msg.startswith("t.toml: field 'rounds[0].nemesis[1]")
    assert "1.check" in msg and "2.check" in msg and "3.activation.N" in msg and "(N: 1..20)" in msg
    assert "\n" not in msg


def _board(t):
    r = t.result
    return (tuple((h.name, h.space, h.damage) for h in r.heroes), tuple((e.id, e.space, e.damage) for e in r.enemies),
            r.threat, r.team_up, r.overrun, r.lost)


def test_a_card_that_leaves_the_activating_enemy_standing_gives_one_board_on_either_side_of_its_attack():
    """The argument of docs/dagger-map-format.md ("No point inside one activation") for the stand-in card: its
    effect (damage to each enemy nearby) changes nothing an attack reads or writes (the heroes, the target) and an
    attacker does not move, so when the attacker survives it, using it before or after that activation (and so at any
    moment inside it) leaves the same board; only a defeat of the attacker tells the moments apart, and the two
    readings of an interrupted attack are the points "3.activation.N" (it does not act) and the next one (it acts,
    then is defeated): test_where_the_card_is_used_decides_how_many_thugs_attack."""
    boards = []
    for point in ("3.activation.2", "3.spawns"):
        d = doc()
        d["sheets"][0]["team_up"]["amount"] = 1          # the Thugs have 2 health: both survive the card
        d["rounds"][0]["nemesis"][1]["before"] = point
        t = run(d)
        assert "Thug 2 attacks Hero A on Toronto for 2" in titles(t) and hero_damage(t) == 4
        boards.append(_board(t))
    assert boards[0] == boards[1]
    assert [e[2] for e in boards[0][1] if e[0].startswith("Thug")] == [1, 1]     # the card did hit both
