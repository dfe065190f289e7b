"""Team-up cards during the Nemesis Phase (issue 20, item 3 of the session brief). Rulebook: Additional Rules ›
Team-up Abilities: unless a card says otherwise, team-up can be spent and team-up abilities used at any time, even
to interrupt other game effects; a round file names the Nemesis Phase step a ``[[rounds.nemesis]]`` entry is done
before (the explorer plays them between the phase's numbered steps)."""

import copy

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.errors import ScenarioError
from explorer.games import get_game
from explorer.games.dagger.nemesis import phase_over, phase_parts, play_phase
from explorer.games.dagger.nemesis_scenario import initial_state, phase_context
from explorer.games.dagger.round_scenario import parse_round, resolve_round
from explorer.kernel import play
from explorer.scenario import read_toml

from .helpers import builtin, resolve

NAME = "dg-nemesis-team-up"


def doc(name=NAME):
    g = get_game("dagger")
    return copy.deepcopy(read_toml(name, text=g.scenario_text(name)))


def run(d, **kw):
    return resolve_round(parse_round(d, "t.toml"), **kw)


def test_a_team_up_card_readied_and_used_before_the_event_card_stops_the_activation():
    t = resolve(NAME)
    o = t.result
    titles = [s.title for s in t.steps]
    ready = titles.index("Hero A spends 2 team-up to ready Fastball Special: team-up → 0")
    assert titles.index("Hero A uses the team-up card Fastball Special: it is exhausted") == ready + 1
    defeated = titles.index("Thug 1 is defeated and removed")
    assert titles.index("Event Raid is drawn") > defeated > titles.index("1st strike 1st Strike is not completed")
    assert "Activation row rank-1: no such enemy on the board" in titles
    assert o.refused == "" and o.team_up_cards == (("Hero A", "Fastball Special", False),)
    without = doc()
    del without["rounds"][0]["nemesis"]                                  # the same round without the card
    t2 = run(without)
    assert "Thug 1 is defeated and removed" not in [s.title for s in t2.steps]
    assert t2.result.team_up_cards == (("Hero A", "Fastball Special", False),) and t2.result.team_up == 2


@pytest.mark.parametrize("entries, field, words", [
    ([{"hero": "Hero A", "do": "use_team_up", "before": "3"}], "rounds[0].nemesis[0].do", "greyed out side up"),
    ([{"hero": "Hero A", "do": "ready_team_up", "before": "1"}] * 2, "rounds[0].nemesis[1].do", "already ready"),
])
def test_a_refused_nemesis_team_up_names_its_field_and_rule(entries, field, words):
    d = doc()
    d["rounds"][0]["nemesis"] = entries
    o = run(d).result
    assert o.refused_field == field and words in o.refused and "[Additional Rules › Team-up Abilities]" in o.refused


def test_too_little_team_up_is_refused_before_the_step_named():
    d = doc()
    d["team_up"] = 0                                   # the D.A.G.G.E.R. action brings it to 1 only
    o = run(d).result
    assert o.refused_field == "rounds[0].nemesis[0].do" and "costs 2 team-up; the track is at 1" in o.refused


@pytest.mark.parametrize("entry, field", [({"hero": "Nobody", "do": "use_team_up"}, "rounds[0].nemesis[0].hero"),
                                          ({"hero": "Hero A", "do": "fly"}, "rounds[0].nemesis[0].do"),
                                          ({"hero": "Hero A", "do": "use_team_up", "before": "4"},
                                           "rounds[0].nemesis[0].before")])
def test_a_bad_nemesis_entry_is_named_in_one_line(entry, field):
    d = doc()
    d["rounds"][0]["nemesis"] = [entry]
    with pytest.raises(ScenarioError) as e:
        parse_round(d, "t.toml")
    assert e.value.field == field and "\n" not in str(e.value)


NEMESIS_NAMES = [s.name for s in get_game("dagger").scenarios() if s.kind == "nemesis"]


@settings(max_examples=20, deadline=None)
@given(st.sampled_from(NEMESIS_NAMES))
def test_the_phase_played_part_by_part_is_the_phase(name):
    """phase_parts cut the whole phase before each numbered step: played one after another (stopping where the phase
    stops), they give play_phase's frames exactly, so a file without [[rounds.nemesis]] plays as before."""
    sc = builtin(name)
    state = initial_state(sc)
    ctx = phase_context(sc)
    whole = play_phase(state, ctx)
    phase_ctx, parts = phase_parts(state, ctx)
    got = []
    for _sec, entries in parts:
        got += play(got[-1].state if got else state, entries, phase_ctx, stop=phase_over)
        if got and phase_over(got[-1].state):
            break
    assert got == list(whole)
