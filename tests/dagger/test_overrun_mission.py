"""D.A.G.G.E.R. actions a mission calls for (issue 20, item e). Rulebook: Gameplay › Hero Phase › D.A.G.G.E.R.
Actions (on an overrun base the action can be performed if a mission calls for it, without the base's effect or
placing a hero mission); Additional Rules › Nearby and Overrun (while overrun the effect cannot be used; the ambiguous "The
D.A.G.G.E.R. can still be resolved if called for by a mission": ruling option overrun_mission_dagger_effect)."""

import copy

from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.games import get_game
from explorer.games.dagger.round_scenario import parse_round, resolve_round
from explorer.scenario import read_toml

from .helpers import resolve


def doc():
    g = get_game("dagger")
    return copy.deepcopy(read_toml("dg-overrun-mission", text=g.scenario_text("dg-overrun-mission")))


def run(d, **kw):
    return resolve_round(parse_round(d, "t.toml"), **kw)


def test_the_mission_counts_and_the_overrun_base_gives_nothing_else():
    t = resolve("dg-overrun-mission")
    o = t.result
    assert o.refused == ""
    # 0 + 1 (New York's stand-in effect) + 2 (Broadcast completed); Wakanda's effect stays covered
    assert o.team_up == 3
    titles = [s.title for s in t.steps]
    assert "Wakanda is overrun: its D.A.G.G.E.R. effect is not resolved" in titles
    assert "Wakanda is overrun: Hero B's hero mission cannot be placed there" in titles
    assert "Side mission Side: Broadcast is completed: team-up +2 → 3; discarded" in titles
    assert t.rulings["overrun_mission_dagger_effect"] == "mission_only"
    assert [x.result for x in o.turns[:2]] == ["D.A.G.G.E.R. action at New York for Side: Broadcast",
                                               "D.A.G.G.E.R. action at Wakanda for Side: Broadcast"]


def test_effect_too_reading_resolves_the_overrun_bases_effect():
    o = resolve("dg-overrun-mission", {"overrun_mission_dagger_effect": "effect_too"}).result
    assert o.team_up == 4                                  # Wakanda's stand-in effect too
    assert not any(t.result.endswith("placed") for t in o.turns)   # still no hero mission on an overrun base


def test_without_a_mission_an_overrun_base_refuses_the_action():
    d = doc()
    del d["rounds"][0]["turns"][1]["mission"]
    o = run(d).result
    assert o.refused_field == "rounds[0].turns[1].slot" and "Wakanda is overrun" in o.refused
    assert "[Gameplay › Hero Phase › D.A.G.G.E.R. Actions]" in o.refused


def test_a_mission_that_calls_for_no_dagger_action_is_refused():
    d = doc()
    d["side_missions"][0]["dagger_progress"] = 0
    o = run(d).result
    assert o.refused_field == "rounds[0].turns[0].mission" and "calls for" in o.refused


def test_an_operational_base_still_places_the_hero_mission():
    d = doc()
    d["overrun"] = []
    o = run(d).result
    assert o.turns[1].result.endswith("hero mission Hero B: Homecoming placed") and o.team_up == 4


@settings(max_examples=30, deadline=None)
@given(st.booleans(), st.integers(1, 3), st.sampled_from(["mission_only", "effect_too"]))
def test_team_up_gained_is_the_effects_resolved_plus_the_completion(overrun, per_action, reading):
    """Property: the track ends at (operational bases' effects + overrun ones under effect_too) + the side mission's
    team-up when the two actions' progress reaches its value."""
    d = doc()
    d["overrun"] = ["Wakanda"] if overrun else []
    d["side_missions"][0]["dagger_progress"] = per_action
    o = run(d, rulings={"overrun_mission_dagger_effect": reading}).result
    effects = 1 + (1 if (not overrun or reading == "effect_too") else 0)
    done = 2 if 2 * per_action >= 2 else 0
    # one action of 2+ progress completes it at once: Hero B's then finds no such mission in play and is refused
    if per_action >= 2:
        assert o.refused_field == "rounds[0].turns[1].mission"
        assert o.team_up == 1 + 2
    else:
        assert o.refused == "" and o.team_up == effects + done
