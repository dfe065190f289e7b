"""Team-up cards and combo abilities in a ``round`` file (issue 20, items c and d). Rulebook: Additional Rules ›
Team-up Abilities (spend team-up at any time to ready the card, the track going down by its cost; a used card is
exhausted), Setup (the team-up card starts greyed side up), Damage and Defeat (step 6: the new hero's card is readied
for free), Additional Rules › Empowered and Primed (combo abilities: an empowered token spent, or a primed token
discarded from each enemy affected; team-up +1; some need an aspect token, some are situational)."""

import copy
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.errors import ScenarioError
from explorer.games import get_game
from explorer.games.dagger.round_scenario import (RoundContext, RoundState, TeamUpCard, parse_round,
                                                  ready_defeated_team_up, resolve_round)
from explorer.games.dagger.state import HeroDefeated
from explorer.scenario import read_toml

from .helpers import builtin, resolve


def doc(name="dg-team-up"):
    g = get_game("dagger")
    return copy.deepcopy(read_toml(name, text=g.scenario_text(name)))


def run(d, **kw):
    return resolve_round(parse_round(d, "t.toml"), **kw)


def test_ready_then_use_a_team_up_card_and_a_situational_combo():
    t = resolve("dg-team-up")
    o = t.result
    assert o.refused == "" and o.rounds == 1
    titles = [s.title for s in t.steps]
    # 1 + 1 (D.A.G.G.E.R. stand-in) = 2; ready costs 2 -> 0; the combo adds 1 -> 1
    assert "Hero A spends 2 team-up to ready Fastball Special: team-up → 0" in titles
    assert "Combo ability: team-up +1 → 1" in titles and o.team_up == 1
    assert "Thug 1 is defeated and removed" in titles                      # 2 damage, Toronto is nearby New York
    assert o.team_up_cards == (("Hero A", "Fastball Special", False),)    # used: exhausted
    assert t.outcome["team_up_cards"] == {"Fastball Special": {"hero": "Hero A", "ready": False}}
    # the situational combo took no aspect token: 8 turns, 8 tokens, as many as the heroes hold
    assert len(o.turns) == 8 and all(x.slot != "ability" for x in o.turns)
    assert "primed_ability_token" not in t.rulings                         # a combo always discards


@pytest.mark.parametrize("turn, before, field, words", [
    (2, {"hero": "Hero A", "do": "use_team_up"}, "rounds[0].turns[2].before[0].do", "greyed out side up"),
    (1, {"hero": "Hero B", "do": "ready_team_up"}, "rounds[0].turns[1].before[0].do", "no team-up card"),
    (0, {"hero": "Hero A", "do": "ready_team_up"}, "rounds[0].turns[0].before[0].do", "costs 2 team-up"),
    (3, {"hero": "Hero B", "do": "ability", "ability": "Nope"}, "rounds[0].turns[3].before[0].ability",
     "not a situational combo"),
])
def test_a_refused_team_up_or_combo_names_its_field_and_rule(turn, before, field, words):
    d = doc()
    for t in d["rounds"][0]["turns"]:
        t.pop("before", None)
    d["rounds"][0]["turns"][turn]["before"] = [before]
    o = run(d).result
    assert o.refused_field == field and words in o.refused
    assert "[Additional Rules › " in o.refused


def test_ready_twice_is_refused():
    d = doc()
    d["team_up"] = 5
    d["rounds"][0]["turns"][1]["before"] = [{"hero": "Hero A", "do": "ready_team_up"}] * 2
    o = run(d).result
    assert o.refused_field == "rounds[0].turns[1].before[1].do" and "already ready" in o.refused


def test_a_situational_combo_is_not_placed_on_a_slot_and_a_token_ability_is_not_situational():
    d = doc()
    d["rounds"][0]["turns"][3].update(slot="ability", ability="Counterstrike", path=[])
    del d["rounds"][0]["turns"][3]["before"]
    o = run(d).result
    assert o.refused_field == "rounds[0].turns[3].ability" and "situational" in o.refused


@pytest.mark.parametrize("ability, field", [
    ({"name": "X", "combo": True}, "sheets[1].abilities[0].icon"),             # a combo needs its icon
    ({"name": "X", "token": False}, "sheets[1].abilities[0].token"),           # only a combo is situational
])
def test_malformed_combo_abilities_name_the_field(ability, field):
    d = doc()
    d["sheets"][1]["abilities"] = [ability]
    with pytest.raises(ScenarioError) as e:
        parse_round(d, "t.toml")
    assert f"'{field}'" in str(e.value)


def test_primed_ability_token_reading_for_an_ability_that_is_not_a_combo():
    """Hero Abilities leave open what a PRIMED ability that is not a combo does with the tokens: the ruling
    option primed_ability_token. dg-abilities' Shockwave is one."""
    default = resolve("dg-abilities")
    kept = resolve("dg-abilities", {"primed_ability_token": "kept"})
    assert default.rulings["primed_ability_token"] == "discarded"
    assert any(s.title.startswith("A primed token is discarded from E, F") for s in default.steps)
    assert not any(s.title.startswith("A primed token is discarded from E, F") for s in kept.steps)
    # under 'kept' Shockwave leaves E and F primed; Overload (an EMPOWERED combo) then defeats both either way
    assert {e.id for e in kept.result.enemies} == {"Nemesis", "G"}


def test_an_empowered_ability_that_is_not_a_combo_keeps_the_token_under_kept():
    d = doc("dg-abilities")
    d["sheets"][0]["abilities"][1]["combo"] = False
    spent = run(d).result
    kept = run(d, rulings={"empowered_ability_token": "kept"}).result
    assert not next(h for h in spent.heroes if h.name == "Hero A").empowered
    assert next(h for h in kept.heroes if h.name == "Hero A").empowered
    assert spent.team_up == kept.team_up == 1                             # no combo: only the D.A.G.G.E.R. stand-in


def test_a_defeated_heros_team_up_card_is_readied_for_free():
    """Damage and Defeat, step 6: ready the new hero's team-up card for free (ignoring the team-up track); an
    eliminated player's is not."""
    g = builtin("dg-three-rounds").state
    g = g.evolve(team_up=0, events=(HeroDefeated("Hero A"), HeroDefeated("Hero B", eliminated=True)))
    cards = (TeamUpCard("Hero A", "A card", 5, 1), TeamUpCard("Hero B", "B card", 5, 1))
    state = RoundState(g, 0, (), team_cards=cards)
    new, steps = ready_defeated_team_up(state, RoundContext())
    assert [c.ready for c in new.team_cards] == [True, False] and new.game.team_up == 0
    assert new.defeats_seen == 2 and len(steps) == 1 and "readied for free" in steps[0].title
    again, more = ready_defeated_team_up(replace(new, team_cards=cards), RoundContext())
    assert more == () and not any(c.ready for c in again.team_cards)          # each defeat counts once


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 8), st.integers(0, 6), st.lists(st.sampled_from(["ready_team_up", "use_team_up"]),
                                                      min_size=1, max_size=4))
def test_the_team_up_track_never_goes_below_zero_and_readying_costs_the_card(track, cost, dos):
    """Property: whatever the order of ready / use, the track only drops by the cost of a card readied, never below
    zero; a refusal names a before[] entry."""
    d = doc()
    d["team_up"] = track
    d["sheets"][0]["team_up"]["cost"] = cost
    for t in d["rounds"][0]["turns"]:
        t.pop("before", None)
    d["rounds"][0]["turns"][1]["before"] = [{"hero": "Hero A", "do": x} for x in dos]
    t = run(d)
    readies = [s for s in t.steps if "to ready Fastball Special" in s.title]
    after_dagger = track + 1
    for s in readies:
        assert s.facts["team_up"] >= 0
    assert len(readies) <= 1 + dos.count("use_team_up")
    if t.result.refused:
        assert "before[" in t.result.refused_field
    else:
        assert readies and readies[0].facts["team_up"] == after_dagger - cost
