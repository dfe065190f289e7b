"""Built-ins dg-interrupted-item (ruling interrupted_item, both readings on one file, through a stand-in team-up
card that moves a hero) and dg-hero-support (a hero-specific support card gained with the hero mission and returned
to the box by a defeat; ruling hero_support_gained); a defeated hero's mission card is in the box (Damage and
Defeat, step 2); the 1st player marker and an eliminated player's seat (ruling first_player_eliminated)."""

import copy

import pytest

from explorer.errors import ScenarioError
from explorer.games import get_game
from explorer.games.dagger.round_scenario import parse_round, play_rounds, resolve_round
from explorer.games.dagger.state import EnemyActed, HeroDefeated
from explorer.scenario import read_toml


def doc(name):
    g = get_game("dagger")
    return read_toml(name, text=g.scenario_text(name))


def hero(outcome, name):
    return next(h for h in outcome.heroes if h.name == name)


# ------------------------------------------------------------------------------------- dg-interrupted-item


@pytest.mark.parametrize("reading, a_damage, action", [("as_determined", 0, "item_lost"),
                                                       ("redetermined", 2, "attack")])
def test_the_interrupted_item_readings_differ_on_the_builtin(reading, a_damage, action):
    """Thug 1 is to attack Hero B (the table's choice); Hero B's Quick Exit (a move card) takes it to Latveria
    inside the activation. As determined the attack cannot land; redetermined Thug 1 attacks Hero A, still there."""
    t = resolve_round(parse_round(doc("dg-interrupted-item"), "t.toml"), {"interrupted_item": reading})
    o = t.result
    assert o.refused == "" and not o.lost and o.rounds == 1
    assert t.rulings["interrupted_item"] == reading
    assert hero(o, "Hero B").space == "Latveria" and hero(o, "Hero B").damage == 0
    assert hero(o, "Hero A").space == "Cairo" and hero(o, "Hero A").damage == a_damage
    acted = [e for e in o.events if isinstance(e, EnemyActed)]
    assert [(e.enemy, e.action) for e in acted] == [("Thug 1", action)]
    assert acted[0].target == ("Hero B" if reading == "as_determined" else "Hero A")
    titles = [s.title for s in t.steps]
    announce = titles.index("Thug 1 activates: it is to attack Hero B on Cairo")
    assert titles[announce + 1:announce + 3] == ["Hero B uses the team-up card Quick Exit: it is exhausted",
                                                 "Hero B moves Cairo → Latveria (1 of 1)"]
    assert titles[announce + 3] == ("Thug 1's item can no longer land: it does not attack Hero B on Cairo (Hero B is "
                                    "no longer in its space)" if reading == "as_determined" else
                                    "Thug 1 attacks Hero A on Cairo for 2")
    assert o.team_up_cards == (("Hero B", "Quick Exit", False),)


def test_the_default_reading_is_as_determined():
    t = resolve_round(parse_round(doc("dg-interrupted-item"), "t.toml"))
    assert t.rulings["interrupted_item"] == "as_determined" and hero(t.result, "Hero A").damage == 0


def _entry(d):
    return d["rounds"][0]["nemesis"][0]


@pytest.mark.parametrize("change, why", [
    (lambda d: _entry(d).update(path=["Latveria", "Siberia"]), "Hero B moves 2 spaces; the move value is 1"),
    (lambda d: _entry(d).update(path=["Siberia"]), "Cairo and Siberia are not joined by a dotted line"),
    (lambda d: _entry(d).pop("path"), "Quick Exit moves Hero B up to 1 space: give the spaces entered"),
    (lambda d: d["sheets"][1]["team_up"].pop("effect"), "Quick Exit does not move a hero (its effect: 1 damage to "
                                                         "each enemy nearby): no path"),
])
def test_a_move_card_path_the_rules_refuse_names_the_entry_path(change, why):
    d = copy.deepcopy(doc("dg-interrupted-item"))
    change(d)
    o = resolve_round(parse_round(d, "t.toml")).result
    assert o.refused_field == "rounds[0].nemesis[0].path"
    assert why in o.refused and "[Additional Rules › Team-up Abilities]" in o.refused


def test_a_move_card_path_with_an_unknown_space_is_a_file_error():
    d = copy.deepcopy(doc("dg-interrupted-item"))
    _entry(d)["path"] = ["Atlantis City"]
    with pytest.raises(ScenarioError, match=r"field 'rounds\[0\]\.nemesis\[0\]\.path\[0\]': unknown space"):
        parse_round(d, "t.toml")
    d = copy.deepcopy(doc("dg-interrupted-item"))
    d["rounds"][0]["turns"][0]["before"] = [{"hero": "Hero B", "do": "use_team_up", "path": ["Nowhere"]}]
    with pytest.raises(ScenarioError, match=r"field 'rounds\[0\]\.turns\[0\]\.before\[0\]\.path\[0\]'"):
        parse_round(d, "t.toml")


def test_a_move_card_used_between_hero_phase_turns_moves_the_hero():
    # the card used in a turn's before list: Hero B leaves Cairo before its first turn; the Nemesis Phase entry is
    # dropped (the card is exhausted), so Thug 1 attacks Hero A, the one hero in its space
    d = copy.deepcopy(doc("dg-interrupted-item"))
    d["rounds"][0]["nemesis"] = []
    d["rounds"][0]["turns"][1]["before"] = [{"hero": "Hero B", "do": "use_team_up", "path": ["Mumbai"]}]
    t = resolve_round(parse_round(d, "t.toml"))
    assert t.result.refused == ""
    assert hero(t.result, "Hero B").space == "Mumbai" and hero(t.result, "Hero A").damage == 2
    assert "interrupted_item" not in t.rulings


# ------------------------------------------------------------------------------------------ dg-hero-support


@pytest.mark.parametrize("reading", ["exhausted", "ready"])
def test_the_hero_specific_card_is_gained_then_returned_to_the_box(reading):
    sc = parse_round(doc("dg-hero-support"), "t.toml")
    frames, refusal, start, ctx = play_rounds(sc, {"hero_support_gained": reading})
    assert refusal is None and ctx.rulings.consulted["hero_support_gained"] == reading

    def kit(state):
        return next((c for c in state.cards if c.name == "Safehouse Kit"), None)

    assert kit(start) is not None and not kit(start).gained
    gained = next(i for i, f in enumerate(frames) if kit(f.state) is not None and kit(f.state).gained)
    assert frames[gained].name == "Hero Phase › turn 3" and frames[gained].state.index == 0
    assert kit(frames[gained].state).exhausted is (reading == "exhausted")
    # both heroes are defeated by the Thugs in round 1's Nemesis Phase; the card is in the box after its End of Round
    defeats = [e.hero for e in frames[-1].state.game.events if isinstance(e, HeroDefeated)]
    assert defeats == ["Hero A", "Hero B"]
    boxed = next(i for i, f in enumerate(frames) if i > gained and kit(f.state) is None)
    assert frames[boxed].name == "Damage and Defeat › team-up cards of defeated heroes"
    assert frames[boxed].steps[-1].title == ("Hero A was defeated: its hero-specific support card Safehouse Kit "
                                             "returns to the box")
    assert all(kit(f.state) is None for f in frames[boxed:])


def test_a_defeated_heros_mission_never_placed_is_in_the_box():
    t = resolve_round(parse_round(doc("dg-hero-support"), "t.toml"))
    o = t.result
    assert o.refused == "" and o.rounds == 2
    step = next(s for s in t.steps if "Rescue" in s.title)
    assert step.title == "Hero B's hero mission Rescue is in the box: none to place"
    assert step.rule.section == "Additional Rules › Damage and Defeat"
    dagger = [x for x in o.turns if x.slot == "dagger"]
    assert [(x.round, x.hero, x.result) for x in dagger] == [
        (1, "Hero A", "D.A.G.G.E.R. action at New York; hero mission Safehouse placed"),
        (2, "Hero B", "D.A.G.G.E.R. action at Wakanda")]


def test_asking_to_place_a_boxed_mission_is_refused_naming_the_field():
    d = copy.deepcopy(doc("dg-hero-support"))
    d["rounds"][1]["turns"][0]["place_mission"] = True
    o = resolve_round(parse_round(d, "t.toml")).result
    assert o.refused_field == "rounds[1].turns[0].place_mission"
    assert o.refused == ("round 2, turn 1, place_mission: Hero B's hero mission Rescue returned to the box when Hero B "
                         "was defeated (Damage and Defeat, step 2): it cannot be placed [Additional Rules › Damage "
                         "and Defeat]")
    # place_mission = false: the action without the mission, and no word of it
    d["rounds"][1]["turns"][0]["place_mission"] = False
    t = resolve_round(parse_round(d, "t.toml"))
    assert t.result.refused == "" and not any("Rescue" in s.title for s in t.steps)


def test_the_same_dagger_action_before_the_defeat_places_the_mission():
    # the refusal comes from the defeat, not from the turn: Hero B's D.A.G.G.E.R. action in round 1 (before the
    # Thugs defeat it) places Rescue
    d = copy.deepcopy(doc("dg-hero-support"))
    d["rounds"][0]["turns"][1] = {"hero": "Hero B", "token": "boosted", "slot": "dagger", "place_mission": True}
    t = resolve_round(parse_round(d, "t.toml"))
    assert t.result.refused == ""
    assert any(s.title == "Hero B places the hero mission Rescue in the hero mission slot" for s in t.steps)


# ----------------------------------------------------------------------------- first_player_eliminated


def _eliminated_seat_file():
    """dg-two-rounds with Hero C's player eliminated, Hero B 1st player, three rounds of three tokens each for Heroes
    A and B listed in the order the default reading gives (B first, then A, then B)."""
    d = copy.deepcopy(doc("dg-two-rounds"))
    d["heroes"][2].update(shattered=True, eliminated=True)
    d["first_player"] = "Hero B"
    d["sheets"] = []
    d["nemesis_missions"][0]["threat_value"] = 19

    def rnd(order):
        turns = []
        for token, action in (("boosted", {"slot": "rest", "successes": 0}),
                              ("standard", {"slot": "defy", "mission": "1st Strike", "successes": 0}),
                              ("standard", {"slot": "move", "path": []})):
            turns += [{"hero": h, "token": token, **action} for h in order]
        return {"turns": turns}

    d["rounds"] = [rnd(["Hero B", "Hero A"]), rnd(["Hero A", "Hero B"]), rnd(["Hero B", "Hero A"])]
    return parse_round(d, "t.toml")


def test_the_first_player_marker_skips_an_eliminated_seat_by_default():
    t = resolve_round(_eliminated_seat_file())
    ends = [s for s in t.steps if s.title.startswith("End of Round")]
    assert [s.facts["first_player"] for s in ends] == ["Hero A", "Hero B"]
    assert "ruling first_player_eliminated = skip_eliminated" in ends[0].detail
    assert "first_player_eliminated" not in ends[1].detail        # A → B passes no eliminated seat
    assert t.rulings["first_player_eliminated"] == "skip_eliminated"
    begin = next(s for s in t.steps if s.title.startswith("Hero Phase:"))
    assert begin.detail == ("Aspect tokens: Hero A 1 boosted + 2 standard; Hero B 1 boosted + 2 standard; Hero C "
                            "eliminated. 6 turns listed.")
    # the third round starts with Hero B, as listed
    assert [x.hero for x in t.result.turns if x.round == 3][:2] == ["Hero B", "Hero A"]


def test_under_clockwise_the_eliminated_seat_holds_the_marker_and_the_next_hero_starts():
    t = resolve_round(_eliminated_seat_file(), {"first_player_eliminated": "clockwise"})
    ends = [s for s in t.steps if s.title.startswith("End of Round")]
    assert [s.facts["first_player"] for s in ends] == ["Hero C", "Hero A"]
    begins = [s for s in t.steps if s.title.startswith("Hero Phase:")]
    assert begins[1].title == ("Hero Phase: Hero C's player holds the 1st player marker but is eliminated: Hero A, "
                               "next clockwise, takes the first turn")
    assert begins[1].facts["first_player"] == "Hero C"
    # round 3 starts with Hero A (the marker passed C → A), not B: the file's round 3 is refused at its first turn
    assert t.result.refused_field == "rounds[2].turns[0].hero"
    assert "it is Hero A's turn, not Hero B's" in t.result.refused


def test_no_eliminated_seat_no_consultation():
    t = resolve_round(parse_round(doc("dg-two-rounds"), "t.toml"))
    assert "first_player_eliminated" not in t.rulings
