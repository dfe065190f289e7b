"""What the Rest and hero-defeat steps say about support and team-up cards: "not tracked here" only where it is
true (a hero or bare Nemesis Phase file); in round play the cards are tracked and the text says where."""

from dataclasses import replace

from explorer.games import get_game
from explorer.games.dagger import hero_phase as HP
from explorer.games.dagger.nemesis import defeat_hero
from explorer.games.dagger.nemesis_scenario import phase_context
from explorer.games.dagger.round_scenario import _begin

from .helpers import builtin, resolve


def _details(trace):
    return [s.detail for s in trace.steps]


def test_round_rests_name_the_card_they_charge_and_never_say_not_tracked():
    details = _details(resolve("dg-two-rounds"))
    assert not any("not tracked here" in d for d in details)
    assert sum("exhausted support card Gadget (next step)" in d for d in details) == 2     # Hero A's two Rests
    assert any("this turn names none, so no card is charged" in d for d in details)


def test_a_rest_outside_round_play_still_says_support_cards_are_not_tracked():
    state = builtin("dg-hero-defeat").state
    hero = state.heroes[0].name
    _s, steps = HP.rest(state, hero, 1)
    assert "(not tracked here)" in steps[-1].detail
    _s, steps = HP.rest(state, hero, 1, charge="Gadget")
    assert "support card Gadget (next step)" in steps[-1].detail


def test_the_defeat_step_says_team_up_cards_are_tracked_only_in_round_play():
    sc = builtin("dg-hero-defeat")
    hero = sc.state.heroes[0]
    bare = phase_context(sc)
    assert not bare.team_up_cards
    _s, steps = defeat_hero(sc.state, bare, hero, "test")
    assert "(team-up cards are not tracked here)" in steps[-1].detail
    _s, steps = defeat_hero(sc.state, replace(bare, team_up_cards=True), hero, "test")
    assert "not tracked" not in steps[-1].detail and "a step after the Nemesis Phase" in steps[-1].detail
    rsc = get_game("dagger").load_builtin("dg-team-up")[1]
    assert _begin(rsc, None, None)[2].phase.team_up_cards
