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
from explorer.games.dagger.round_scenario import POINT_VALUES, parse_round, point_words, resolve_round
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
    assert titles.index("Event Raid is drawn") > defeated > titles.index("1st Strike is not completed")
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


# ---------------------------------------------------------------- inside step 3 (points "3.<part>", issue 20 item 1)

INSIDE = "dg-team-up-in-step-3"


def test_a_team_up_card_used_after_the_spawns_hits_the_enemy_just_spawned():
    t = resolve(INSIDE)
    titles = [s.title for s in t.steps]
    attack = titles.index("Thug 1 attacks Hero A on Toronto for 2")
    spawn = titles.index("Thug 2 spawns on Toronto")
    use = titles.index("Hero A uses the team-up card Fastball Special: it is exhausted")
    assert attack < spawn < use < titles.index("Thug 2 is defeated and removed") < titles.index(
        "Event Ambush is discarded")
    assert t.steps[use].section == "Round 1 · Nemesis Phase, team-up in step 3 (Resolve Event Cards), before the discard"
    o = t.result
    assert o.refused == "" and o.team_up_cards == (("Hero A", "Fastball Special", False),)


def test_the_point_inside_step_3_decides_what_the_card_hits():
    d = doc(INSIDE)
    d["rounds"][0]["nemesis"][1]["before"] = "3.activation"     # before the activations: Thug 1 never attacks
    titles = [s.title for s in run(d).steps]
    assert "Thug 1 is defeated and removed" in titles and "Thug 1 attacks Hero A on Toronto for 2" not in titles
    defeated = titles.index("Thug 1 is defeated and removed")
    assert titles.index("Event Ambush is drawn") < defeated < titles.index("Thug 1 spawns on Toronto")
    assert titles.count("Thug 1 is defeated and removed") == 1      # the Thug spawned afterwards stays


@pytest.mark.parametrize("point", ["3.text", "3.ongoing", "3.side_mission", "3.nemesis_ability", "3.activation",
                                   "3.spawns", "3.discard"])
def test_every_point_inside_step_3_comes_after_the_draw_and_before_the_discard(point):
    d = doc(INSIDE)
    d["rounds"][0]["nemesis"][1]["before"] = point
    t = run(d)
    titles = [s.title for s in t.steps]
    use = titles.index("Hero A uses the team-up card Fastball Special: it is exhausted")
    assert titles.index("Event Ambush is drawn") < use < titles.index("Event Ambush is discarded")
    assert t.result.refused == ""


def test_a_point_inside_step_3_without_an_event_card_is_a_file_error_in_one_line():
    from explorer.games.dagger.round_scenario import nemesis_team_ups, play_rounds
    from explorer.errors import RuleViolation
    d = doc(INSIDE)
    d["rounds"][0]["nemesis"] = [{"hero": "Hero A", "do": "ready_team_up", "before": "3.text"}]
    _frames, _refusal, start, ctx = play_rounds(parse_round(d, "t.toml"))
    assert start.game.current_event is None
    with pytest.raises(ScenarioError) as e:
        nemesis_team_ups(start, ctx, "3.text")
    assert not isinstance(e.value, RuleViolation)          # a file error, not a "Not allowed" step in the trace
    assert e.value.field == "rounds[0].nemesis[0].before" and "no event card is resolved" in str(e.value)
    assert str(e.value).startswith("t.toml: field 'rounds[0].nemesis[0].before'") and "allowed: 1, 1.check" in str(e.value)
    assert "\n" not in str(e.value)


def test_an_unknown_point_is_named_with_the_points_allowed():
    d = doc(INSIDE)
    d["rounds"][0]["nemesis"][1]["before"] = "3.activate"
    with pytest.raises(ScenarioError) as e:
        parse_round(d, "t.toml")
    assert e.value.field == "rounds[0].nemesis[1].before" and "3.activation" in str(e.value)
    assert "\n" not in str(e.value)


def test_the_file_points_are_the_phase_points():
    from explorer.games.dagger.nemesis import PHASE_POINTS
    from explorer.games.dagger.round_scenario import NEMESIS_STEPS
    assert list(NEMESIS_STEPS) == list(PHASE_POINTS)


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(NEMESIS_NAMES), st.data())
def test_the_phase_cut_at_any_points_is_the_phase(name, data):
    """Cut at any points of the phase in order (inside step 3 too), the parts played one after another give
    play_phase's frames: a cut adds nothing and loses nothing."""
    from explorer.games.dagger.nemesis import PHASE_POINTS, point_order
    rest = [p for p in PHASE_POINTS if p != "1"] + [f"3.activation.{n}" for n in range(1, 5)]
    chosen = data.draw(st.lists(st.sampled_from(rest), unique=True))
    points = ("1", *sorted(chosen, key=point_order))
    sc = builtin(name)
    state = initial_state(sc)
    ctx = phase_context(sc)
    phase_ctx, parts = phase_parts(state, ctx, points)
    assert [p for p, _ in parts] == list(points)
    got = []
    for _p, entries in parts:
        got += play(got[-1].state if got else state, entries, phase_ctx, stop=phase_over)
        if got and phase_over(got[-1].state):
            break
    assert got == list(play_phase(state, ctx))


def test_points_out_of_phase_order_are_a_value_error():
    sc = builtin(NEMESIS_NAMES[0])
    with pytest.raises(ValueError):
        phase_parts(initial_state(sc), phase_context(sc), ("1", "3.discard", "3.text"))


@pytest.mark.parametrize("point", [p.replace(".N", ".1") for p in POINT_VALUES])
def test_a_refused_entry_heading_names_entry_field_and_point_with_no_stray_words(point):
    """Every ``before`` value: the "Not allowed (...)" heading names the entry and its field before the point's own
    words (which hold commas), and ends with those words, not with a field name tacked on (", do)")."""
    d = doc()
    d["rounds"][0]["nemesis"] = [{"hero": "Hero A", "do": "use_team_up", "before": point},   # the card is not ready
                                 {"hero": "Hero A", "do": "ready_team_up", "before": "end"}]
    t = run(d)
    head = t.steps[-1].title
    words = point_words(point)
    assert head.startswith(f"Not allowed (round 1, Nemesis Phase team-up entry 1 (do = use_team_up), {words}): "), head
    assert t.result.refused.startswith(head[len("Not allowed ("):].replace("): ", ": ", 1)), t.result.refused
    inside = head[len("Not allowed ("):head.index(f"{words}): ") + len(words)]
    assert not any(inside.endswith(f", {w}") for w in ("do", "hero", "ability", "before")), inside
