"""The ``round`` kind: the Hero Phase turn by turn (aspect tokens on slots, BOOST, D.A.G.G.E.R. actions), then the
Nemesis Phase and the End of Round; refused choices name their field and rule; tokens are conserved and a slot never
holds two tokens (property tests)."""

import copy

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.errors import ScenarioError
from explorer.games import get_game
from explorer.games.dagger.round_scenario import (RoundState, parse_round, play_rounds, resolve_round,
                                                  whose_turn)
from explorer.scenario import read_toml

from .helpers import resolve


def doc(name="dg-two-rounds"):
    g = get_game("dagger")
    return read_toml(name, text=g.scenario_text(name))


def run(d, **kw):
    return resolve_round(parse_round(d, "t.toml"), **kw)


def test_two_rounds_play_in_full():
    t = resolve("dg-two-rounds")
    o = t.result
    assert o.rounds == 2 and o.refused == "" and not o.lost
    assert len(o.turns) == 18
    # round 1 starts with Hero A (1st player), round 2 with Hero B (the marker passed clockwise)
    assert [x.hero for x in o.turns[:3]] == ["Hero A", "Hero B", "Hero C"]
    assert [x.hero for x in o.turns[9:12]] == ["Hero B", "Hero C", "Hero A"]
    # three stand-in D.A.G.G.E.R. effects (team-up +1 each); the hero mission went into play once
    assert o.team_up == 3
    assert [x.base for x in o.turns if x.slot == "dagger"] == ["New York", "Wakanda", "Madripoor"]
    # BOOST and a support card: the boosted Defy rolled DFI 2 + 1 (BOOST) + 1 (Gadget) dice
    defy = o.turns[3]
    assert defy.boost and defy.action.dice == 4
    assert t.outcome["rounds"] == 2


def test_tokens_return_at_end_of_round():
    sc = parse_round(doc(), "t.toml")
    frames, refusal, start, _ = play_rounds(sc)
    assert refusal is None
    ends = [f for f in frames if f.name == "End of Round › aspect tokens return"]
    assert len(ends) == 2
    for f in ends:
        assert f.state.placed == () and f.state.supplies == start.supplies


def edit_turn(d, r, t, **changes):
    d = copy.deepcopy(d)
    d["rounds"][r]["turns"][t].update(changes)
    return d


@pytest.mark.parametrize("r,t,changes,field,words", [
    (0, 0, {"hero": "Hero B"}, "rounds[0].turns[0].hero", "it is Hero A's turn"),
    (0, 6, {"token": "boosted", "slot": "fight", "enemy": "Thug 1"}, "rounds[0].turns[6].token",
     "no boosted aspect token"),
    (0, 6, {"slot": "defy", "mission": "1st Strike", "successes": 0, "charge": ""}, "rounds[0].turns[6].slot",
     "defy slot already holds a token"),
    (0, 2, {"slot": "dagger"}, "rounds[0].turns[2].slot", None),     # Hero C on Madripoor: a base, allowed
    (0, 4, {"slot": "dagger"}, "rounds[0].turns[4].slot", "not on a base"),
])
def test_illegal_choices_are_refused(r, t, changes, field, words):
    o = run(edit_turn(doc(), r, t, **changes)).result
    if words is None:
        assert o.refused_field != field
        return
    assert o.refused_field == field and words in o.refused
    assert o.refused.endswith("[Gameplay › Hero Phase]") or o.refused.endswith("D.A.G.G.E.R. Actions]")


def test_slot_full_builtin():
    o = resolve("dg-slot-full").result
    assert o.refused == "round 2, turn 6, slot: Hero A's defy slot already holds a token [Gameplay › Hero Phase]"
    assert o.refused_field == "rounds[1].turns[5].slot"
    assert len(o.turns) == 14 and o.rounds == 1


def test_action_not_on_the_sheet():
    d = doc()
    d["sheets"] = d["sheets"] + [{"hero": "Hero B", "slots": ["move", "rest", "defy"]}]
    o = run(d).result
    assert o.refused_field == "rounds[0].turns[4].slot"
    assert o.refused.startswith("round 1, turn 5, slot: 'fight' is not an aspect slot of Hero B's sheet")
    assert o.refused.endswith("[Gameplay › Hero Phase › Aspect Actions]")


def test_dagger_on_an_overrun_base_is_refused():
    d = doc()
    d["overrun"] = ["New York"]
    o = run(d).result
    assert o.refused_field == "rounds[0].turns[0].slot" and "New York is overrun" in o.refused


def test_a_hero_phase_ends_only_when_every_token_is_spent():
    d = copy.deepcopy(doc())
    d["rounds"][0]["turns"] = d["rounds"][0]["turns"][:8]
    o = run(d).result
    assert o.refused_field == "rounds[0].turns"
    assert o.refused.startswith("round 1: the Hero Phase ends only when every aspect token is spent")
    assert "Hero C 1 token" in o.refused


def test_unknown_slot_is_a_file_error():
    with pytest.raises(ScenarioError, match=r"rounds\[0\]\.turns\[0\]\.slot"):
        parse_round(edit_turn(doc(), 0, 0, slot="teleport"), "t.toml")


def test_one_or_two_players_get_an_extra_standard_token():
    d = copy.deepcopy(doc())
    d["heroes"] = d["heroes"][:2]
    d["rounds"] = [{"turns": []}]
    sc = parse_round(d, "t.toml")
    assert [(s.boosted, s.standard) for s in sc.sheets] == [(1, 3), (1, 3)]
    assert [(s.boosted, s.standard) for s in parse_round(doc(), "t.toml").sheets] == [(1, 2)] * 3


def test_unrolled_actions_roll_from_the_seed_and_replay():
    d = copy.deepcopy(doc())
    del d["rounds"][0]["turns"][8]["successes"]
    a, b = run(d, seed=5), run(d, seed=5)
    assert a.result == b.result and [s.title for s in a.steps] == [s.title for s in b.steps]
    assert any("Hero C rolls 2 dice" in s.title for s in a.steps)


# ------------------------------------------------------------------------------------------------ properties

HEROES = ["Hero A", "Hero B", "Hero C"]
SLOTS = ["move", "fight", "defy", "rest", "dagger"]


@st.composite
def random_turns(draw):
    n = draw(st.integers(1, 12))
    turns = []
    for _ in range(n):
        slot = draw(st.sampled_from(SLOTS))
        turn = {"hero": draw(st.sampled_from(HEROES)), "token": draw(st.sampled_from(["boosted", "standard"])),
                "slot": slot}
        if slot == "move":
            turn["path"] = []
        elif slot == "fight":                 # 0..2: what one die can give (every hero rolls at least 1)
            turn["enemy"] = "Thug 1"
            turn["successes"] = draw(st.integers(0, 2))
        elif slot == "defy":
            turn["mission"] = "1st Strike"
            turn["successes"] = draw(st.integers(0, 2))
        elif slot == "rest":
            turn["successes"] = draw(st.integers(0, 2))
        turns.append(turn)
    return turns


@settings(max_examples=60, deadline=None)
@given(random_turns())
def test_tokens_are_conserved_and_slots_never_double_filled(turns):
    d = copy.deepcopy(doc())
    d["rounds"] = [{"turns": turns}]
    sc = parse_round(d, "t.toml")
    frames, refusal, start, _ = play_rounds(sc)
    full = {s.hero: s.boosted + s.standard for s in start.supplies}
    for f in frames:
        st_: RoundState = f.state
        for s in st_.supplies:
            assert s.boosted >= 0 and s.standard >= 0
            on_slots = sum(1 for p in st_.placed if p.hero == s.hero)
            assert s.boosted + s.standard + on_slots == full[s.hero]          # tokens conserved
        keys = [(p.hero, p.slot) if not p.slot.startswith("dagger:") else p.slot for p in st_.placed]
        assert len(keys) == len(set(keys))                                    # one token per slot
    # the refusal, if any, names a turn's field or the turns list
    if refusal is not None:
        assert refusal.field.startswith("rounds[0].turns")
    # the loss gauges that only move one way: overrun bases stay overrun, the event deck never grows, the round and
    # the completed nemesis missions only go forward
    for a, b in zip(frames, frames[1:]):
        ga, gb = a.state.game, b.state.game
        assert ga.overrun <= gb.overrun
        assert len(gb.event_deck) <= len(ga.event_deck)
        assert gb.round >= ga.round and len(gb.completed_nemesis) >= len(ga.completed_nemesis)


@settings(max_examples=30, deadline=None)
@given(random_turns())
def test_whose_turn_is_clockwise_from_the_first_player(turns):
    d = copy.deepcopy(doc())
    d["rounds"] = [{"turns": turns}]
    frames, _refusal, start, _ = play_rounds(parse_round(d, "t.toml"))
    assert whose_turn(start) == "Hero A"
    heroes = [f.state.done[-1].hero for f in frames if f.name.startswith("Hero Phase › turn")]
    for prev, nxt in zip(heroes, heroes[1:]):
        # with every hero holding tokens, the next turn is the next hero clockwise
        assert HEROES.index(nxt) == (HEROES.index(prev) + 1) % 3


# ------------------------------------------------------------------------------------------------ abilities


def test_abilities_primed_then_empowered_combo():
    t = resolve("dg-abilities")
    o = t.result
    assert o.refused == "" and o.rounds == 1
    shock, overload = o.turns[0], o.turns[2]
    assert shock.slot == "ability" and shock.action.hit == ("E", "F")       # G (two lines away) is not nearby
    assert overload.action.hit == ("E", "F")
    assert {e.id for e in o.enemies} == {"Nemesis", "G"}                   # 1 + 2 damage: E and F defeated
    assert o.team_up == 2                                                  # D.A.G.G.E.R. stand-in + the combo
    assert not next(h for h in o.heroes if h.name == "Hero A").empowered   # a combo ability spends it
    # Empowered and Primed: empowered tokens are spent to use combo abilities, whatever empowered_ability_token
    # says (that option is about an EMPOWERED ability that is not a combo)
    kept = resolve("dg-abilities", {"empowered_ability_token": "kept"}).result
    assert not next(h for h in kept.heroes if h.name == "Hero A").empowered
    assert "empowered_ability_token" not in t.rulings and t.rulings["primed_ability_token"] == "discarded"


def test_primed_ability_needs_a_primed_token_on_each_enemy_it_affects():
    d = copy.deepcopy(doc("dg-abilities"))
    d["enemies"][1]["primed"] = False                                      # F (adjacent) is not primed
    o = run(d).result
    assert o.refused_field == "rounds[0].turns[0].ability"
    assert "F would be affected without a primed token" in o.refused
    assert o.refused.endswith("[Additional Rules › Empowered and Primed]")


def test_empowered_ability_needs_the_token():
    d = copy.deepcopy(doc("dg-abilities"))
    d["heroes"][0]["empowered"] = False
    o = run(d).result
    assert o.refused_field == "rounds[0].turns[2].ability" and "no empowered token" in o.refused


def test_an_ability_not_on_the_sheet_and_a_full_ability_slot():
    o = run(edit_turn(doc("dg-abilities"), 0, 0, ability="Teleport")).result
    assert o.refused_field == "rounds[0].turns[0].ability"
    assert "'Teleport' is not an ability on Hero A's sheet (Shockwave, Overload)" in o.refused
    assert o.refused.endswith("[Gameplay › Hero Phase › Hero Abilities]")
    o = run(edit_turn(doc("dg-abilities"), 0, 2, ability="Shockwave")).result
    assert o.refused_field == "rounds[0].turns[2].ability" and "Shockwave slot already holds a token" in o.refused


@st.composite
def legal_plans(draw):
    """Two rounds of legal turns on dg-two-rounds' board (every hero on a base, standing still): each hero spends its
    1 boosted and 2 standard tokens on 3 of its 4 slots (move, defy, rest, its base's D.A.G.G.E.R. slot)."""
    rounds = []
    for first in (0, 1):                              # round 2 starts with Hero B (the marker passes clockwise)
        per_hero = {}
        for h in HEROES:
            slots = draw(st.permutations(["move", "defy", "rest", "dagger"]))[:3]
            tokens = draw(st.permutations(["boosted", "standard", "standard"]))
            per_hero[h] = list(zip(tokens, slots))
        turns = []
        for k in range(3):
            for i in range(3):
                h = HEROES[(first + i) % 3]
                token, slot = per_hero[h][k]
                turn = {"hero": h, "token": token, "slot": slot}
                if slot == "move":
                    turn["path"] = []
                elif slot == "defy":
                    # the 1st strike is always completed in round 1's Nemesis Phase (passed or failed at threat 7)
                    turn.update(mission="1st Strike" if first == 0 else "Mission I",
                                successes=draw(st.integers(0, 2)))
                elif slot == "rest":
                    turn["successes"] = draw(st.integers(0, 2))
                turns.append(turn)
        rounds.append({"turns": turns})
    return rounds


@settings(max_examples=40, deadline=None)
@given(legal_plans())
def test_legal_plans_play_every_round_and_the_gauges_move_one_way(rounds):
    d = copy.deepcopy(doc())
    d["rounds"] = rounds
    d["heroes"][1]["space"] = "Wakanda"
    frames, refusal, start, _ = play_rounds(parse_round(d, "t.toml"))
    assert refusal is None
    end = frames[-1].state
    assert end.game.lost or end.game.won or sum(1 for f in frames if f.name.startswith("End of Round › aspect")) == 2
    full = {s.hero: s.boosted + s.standard for s in start.supplies}
    for a, b in zip(frames, frames[1:]):
        ga, gb = a.state.game, b.state.game
        assert ga.overrun <= gb.overrun
        assert len(gb.event_deck) <= len(ga.event_deck)
        assert gb.round >= ga.round and len(gb.completed_nemesis) >= len(ga.completed_nemesis)
        for s in b.state.supplies:
            assert s.boosted + s.standard + sum(p.hero == s.hero for p in b.state.placed) == full[s.hero]
    # each round's stand-in D.A.G.G.E.R. actions add team-up +1 each
    daggers = sum(1 for r in rounds for t in r["turns"] if t["slot"] == "dagger")
    assert end.game.team_up >= daggers


# ------------------------------------------------------------------------------------------------ support cards


def test_a_support_card_is_exhausted_by_use_and_readied_by_charge():
    sc = parse_round(doc(), "t.toml")
    frames, refusal, _start, _ = play_rounds(sc)
    assert refusal is None
    gadget = [(f.name, f.state.cards[0]) for f in frames if f.name.startswith("Hero Phase › turn")]
    assert [(c.exhausted, c.progress) for _, c in gadget][3] == (True, 0)       # used on the Defy (turn 4)
    assert [(c.exhausted, c.progress) for _, c in gadget][6] == (True, 1)       # a Rest charges 1 (turn 7)
    assert (gadget[-1][1].exhausted, gadget[-1][1].progress) == (False, 0)      # round 2's Rest readies it


@pytest.mark.parametrize("r,t,changes,field,words", [
    (0, 6, {"support": "Gadget"}, "rounds[0].turns[6].support", "Gadget is exhausted"),
    (0, 3, {"support": "Jetpack"}, "rounds[0].turns[3].support", "'Jetpack' is not a support card of Hero A"),
    (0, 6, {"charge": "Jetpack"}, "rounds[0].turns[6].charge", "'Jetpack' is not a support card of Hero A"),
    (0, 0, {"charge": "Gadget"}, "rounds[0].turns[0].charge", "only a Rest charges support cards"),
    (0, 0, {"support": "Gadget"}, "rounds[0].turns[0].support", "adds dice to a Fight, Defy or Rest"),
])
def test_support_card_refusals(r, t, changes, field, words):
    o = run(edit_turn(doc(), r, t, **changes)).result
    assert o.refused_field == field and words in o.refused


def test_charging_a_ready_card_is_refused():
    d = copy.deepcopy(doc())
    del d["rounds"][0]["turns"][3]["support"]                                     # Gadget never used: still ready
    o = run(d).result
    assert o.refused_field == "rounds[0].turns[6].charge" and "Gadget is ready" in o.refused


# ------------------------------------------------------------------------- one definition of an action's details


def test_the_action_details_are_defined_once():
    """A hero file's [[actions]] and a round file's [[rounds.turns]] share ActionDetails (issue 20, item f): neither
    redefines its fields, except the hero file's tighter Move bounds (no BOOST there)."""
    from explorer.games.dagger.hero_scenario import ActionDetails, ActionModel
    from explorer.games.dagger.round_scenario import TurnModel

    shared = set(ActionDetails.model_fields)
    assert shared <= set(TurnModel.model_fields) and shared <= set(ActionModel.model_fields)
    assert not shared & set(TurnModel.__annotations__)
    assert shared & set(ActionModel.__annotations__) == {"path", "move_value"}
    assert ActionModel.model_fields["move_value"].metadata != TurnModel.model_fields["move_value"].metadata


@settings(max_examples=40, deadline=None)
@given(st.fixed_dictionaries({}, optional={
    "enemy": st.text(max_size=5), "mission": st.text(max_size=5), "successes": st.integers(0, 60),
    "dice": st.integers(1, 20), "spend_empowered": st.booleans(), "progress_per_success": st.integers(1, 5),
    "recover": st.integers(0, 60), "move_value": st.integers(1, 9),
    "path": st.lists(st.sampled_from(["Cairo", "Mumbai"]), max_size=9)}))
def test_a_turn_hands_its_details_to_the_action_unchanged(details):
    from explorer.games.dagger.hero_scenario import ActionDetails, ActionModel
    from explorer.games.dagger.round_scenario import TurnModel

    turn = TurnModel(hero="Hero A", token="standard", slot="fight", **details)
    action = ActionModel.for_turn("fight", "Hero A", turn)
    assert {k: getattr(action, k) for k in ActionDetails.model_fields} == \
        {k: getattr(turn, k) for k in ActionDetails.model_fields}
    assert action.do == "fight" and action.hero == "Hero A" and action.amount == 1


def test_a_boosted_move_past_six_is_played_not_crashed():
    """A hero with move 6 and a boosted token moves up to 7 (the stand-in BOOST +1); the action built for it is not
    held to a hero file's bound of 6 (it raised a pydantic error before)."""
    d = copy.deepcopy(doc())
    d["heroes"][1]["move"] = 6
    o = run(d).result
    assert o.refused == "" and o.turns[1].boost and o.turns[1].action.result == "moved to Cairo"


def test_abilities_hit_the_enemies_nearby_under_each_reading_of_nearby_pieces():
    # Additional Rules › Nearby and Overrun, ruling nearby_pieces (handed case DG-08): dg-abilities' Hero A on Cairo,
    # E on Cairo and F on an adjacent space, both primed. By default both are hit (and both primed tokens go); under
    # adjacent_only only F is: E keeps its primed token and takes no damage
    sc = get_game("dagger").load_builtin("dg-abilities")[1]
    ends = {}
    for reading in ("same_and_adjacent", "adjacent_only"):
        frames, refusal, _start, ctx = play_rounds(sc, {"nearby_pieces": reading})
        assert refusal is None and ctx.rulings.consulted["nearby_pieces"] == reading
        g = next(f.state.game for f in frames if f.name.startswith("Hero Phase › turn 1"))
        ends[reading] = {e.id: (e.damage, e.primed) for e in g.enemies if e.id in ("E", "F")}
    assert ends["same_and_adjacent"] == {"E": (1, False), "F": (1, False)}
    assert ends["adjacent_only"] == {"E": (0, True), "F": (1, False)}


def _with_hero_card(d, **card):
    d["sheets"][0]["support"].append({"name": "Safehouse Kit", "charge": 2, "dice": 1, "hero_specific": True, **card})
    return d


def test_a_hero_specific_support_card_is_gained_when_the_hero_mission_is_completed():
    # Missions › Hero Missions: completed, the mission is discarded and the hero gains its hero-specific support card
    # (ruling hero_support_gained: exhausted by default, as Setup placed it face down; or ready). dg-two-rounds with a
    # hero-specific card on Hero A's sheet; round 2's Defy on Hero A: Safehouse rolls 3 (3/3: completed)
    d = _with_hero_card(copy.deepcopy(doc()))
    d["rounds"][1]["turns"][2]["successes"] = 3
    sc = parse_round(d, "t.toml")
    for reading, exhausted in (("exhausted", True), ("ready", False)):
        frames, refusal, start, ctx = play_rounds(sc, {"hero_support_gained": reading})
        assert refusal is None
        kit = lambda st: next(c for c in st.cards if c.name == "Safehouse Kit")   # noqa: E731
        assert not kit(start).gained
        at = next(i for i, f in enumerate(frames) if kit(f.state).gained)
        assert frames[at].name == "Hero Phase › turn 3" and frames[at].state.index == 1     # round 2, the Defy
        assert kit(frames[at].state).exhausted is exhausted
        step = frames[at].steps[-1]
        assert step.title == ("Hero A gains its hero-specific support card Safehouse Kit ("
                              + ("exhausted: a Rest charges it)" if exhausted else "ready)"))
        assert step.rule.section == "Additional Rules › Missions › Hero Missions"
        assert ctx.rulings.consulted["hero_support_gained"] == reading
    # the mission not completed (the file as it is: 1/3): never gained, and the reading is not consulted
    frames, _r, _s, ctx = play_rounds(parse_round(_with_hero_card(copy.deepcopy(doc())), "t.toml"))
    assert not next(c for c in frames[-1].state.cards if c.name == "Safehouse Kit").gained
    assert "hero_support_gained" not in ctx.rulings.consulted


@pytest.mark.parametrize("field, change", [
    ("support", lambda t: t.update(support="Safehouse Kit")),       # round 1's Defy, before the mission is done
    ("charge", lambda t: t.update(charge="Safehouse Kit")),
])
def test_a_hero_specific_card_not_gained_is_neither_used_nor_charged(field, change):
    d = _with_hero_card(copy.deepcopy(doc()), exhausted=True)
    turn = d["rounds"][0]["turns"][3 if field == "support" else 6]
    turn.pop("support", None), turn.pop("charge", None)
    change(turn)
    frames, refusal, _start, _ctx = play_rounds(parse_round(d, "t.toml"))
    assert refusal.field == f"rounds[0].turns[{3 if field == 'support' else 6}].{field}"
    assert "hero-specific support card, not gained yet" in refusal.reason
    assert refusal.rule.section == "Additional Rules › Missions › Hero Missions"


def test_a_defeated_heros_hero_specific_card_returns_to_the_box():
    # Damage and Defeat, step 2: the hero-specific support cards return to the box; shared support cards stay
    from explorer.games.dagger.round_scenario import RoundContext, ready_defeated_team_up
    from explorer.games.dagger.state import HeroDefeated
    sc = parse_round(_with_hero_card(copy.deepcopy(doc())), "t.toml")
    _frames, _r, start, ctx = play_rounds(sc)
    hit = replace_game_events(start, HeroDefeated("Hero A", False))
    after, steps = ready_defeated_team_up(hit, ctx)
    assert [c.name for c in after.cards if c.hero == "Hero A"] == ["Gadget"]
    assert steps[0].title == "Hero A was defeated: its hero-specific support card Safehouse Kit returns to the box"
    assert isinstance(ctx, RoundContext) and after.defeats_seen == 1


def replace_game_events(state, event):
    from dataclasses import replace
    return replace(state, game=state.game.evolve(events=state.game.events + (event,)))


def test_more_than_one_hero_specific_card_is_a_file_error():
    d = _with_hero_card(copy.deepcopy(doc()))
    d["sheets"][0]["support"].append({"name": "Other Kit", "hero_specific": True})
    with pytest.raises(ScenarioError) as e:
        parse_round(d, "t.toml")
    assert "'sheets[0].support'" in str(e.value) and "more than one hero-specific" in str(e.value)
