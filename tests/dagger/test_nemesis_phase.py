"""The Nemesis Phase steps: each ruling option's two readings, the choices, every loss condition, scenario errors."""

import pytest

from explorer.errors import ScenarioError
from explorer.games.dagger import sections as S
from explorer.games.dagger.nemesis import (
    NEMESIS_PHASE, PhaseContext, activate_enemy, advance_threat, loss_gauges,
)
from explorer.kernel import step_functions
from explorer.games.dagger.nemesis_scenario import example_events, threat_after
from explorer.games.dagger.options import ALL_OPTIONS, rulings

from .helpers import builtin, edited, frames, resolve


def test_step_functions_are_named_after_rulebook_steps_and_cite_known_sections():
    fns = [fn.__name__ for _, fn in step_functions(NEMESIS_PHASE)]
    names = [n for n in fns if not n.startswith(("check_loss", "check_elimination"))]
    assert names == ["advance_threat", "check_nemesis_mission", "draw_event", "resolve_event_text",
                     "resolve_ongoing_effects", "spawn_side_mission_step", "resolve_nemesis_ability",
                     "plan_activation", "activate_enemy", "spawn_enemies", "discard_event", "end_of_round"]
    assert fns[0] == "check_elimination_deadline" and fns[-1] == "check_loss_after_end_of_round"
    known = {v.section for v in vars(S).values() if hasattr(v, "section")}
    from explorer.games import get_game
    for name in get_game("dagger").builtin_names():
        for s in resolve(name).steps:
            assert s.rule.section in known, (name, s.title)


def test_activation_attack_overrun_move_and_stun():
    t = resolve("dg-activation")
    acts = {s.facts["enemy"]: s.facts for s in t.steps if "action" in s.facts}
    assert acts["Thug 1"]["action"] == "attack" and acts["Thug 1"]["target"] == "Hero B"   # the players' choice
    assert acts["Thug 2"]["action"] == "overrun" and "Wakanda" in t.outcome["overrun"]
    assert acts["Brute 1"]["scope"] == "anywhere"
    assert acts["Brute 1"]["target"] == "New York" and acts["Brute 1"]["to"] == "Bermuda"     # tie: default base
    assert acts["Minion 1"]["to"] == "Oslo" and acts["Minion 1"]["target"] == "Iliad"        # Asgard: not a base
    assert acts["Elite"]["to"] == "Madripoor" and acts["Elite"]["scope"] == "region"
    assert acts["Nemesis"]["action"] == "stun_cleared"
    order = next(s.facts["order"] for s in t.steps if "order" in s.facts)
    assert order == ["Thug 1", "Thug 2", "Minion 1", "Brute 1", "Elite", "Nemesis"]           # power 1,1,2,3, Elite, Nemesis
    tie = next(c for c in t.outcome["choices"] if c["input"] == "base_tie.Brute 1")
    assert tie["options"] == ["New York", "Iliad"] and tie["default_used"]


def test_choices_override_defaults():
    sc = edited("dg-activation", choices={"base_tie": {"Brute 1": "Iliad"}, "activation_order": ["Thug 2", "Thug 1"]})
    from explorer.games.dagger.nemesis_scenario import resolve_nemesis
    t = resolve_nemesis(sc)
    acts = {s.facts["enemy"]: s.facts for s in t.steps if "action" in s.facts}
    assert acts["Brute 1"]["target"] == "Iliad" and acts["Brute 1"]["to"] == "Azores"
    order = next(s.facts["order"] for s in t.steps if "order" in s.facts)
    assert order[:2] == ["Thug 2", "Thug 1"]
    assert acts["Thug 1"]["target"] == "Hero A"   # no attack_target given now: the first hero listed


def test_overrun_base_no_hero_both_readings():
    assert "Brute 1" in {s.facts.get("enemy") for s in resolve("dg-activation").steps if s.facts.get("action") == "move"}
    t = resolve("dg-activation", {"overrun_base_no_hero": "stays"})
    brute = next(s.facts for s in t.steps if s.facts.get("enemy") == "Brute 1")
    assert brute["action"] == "overrun_again" and t.outcome["enemies"]["Brute 1"] == "Atlantis"


def test_mission_fail_comparison_both_readings():
    # 4/5 progress, threat value 12, track 14: fails when the track reaches the value; not under the literal wording
    assert resolve("dg-03-fail").outcome["completed_nemesis"] == [["Mission I", "failed"]]
    lit = resolve("dg-03-fail", {"mission_fail_comparison": "literal"})
    assert lit.outcome["completed_nemesis"] == [] and lit.outcome["threat"] == 14
    assert lit.rulings["mission_fail_comparison"] == "literal"


def test_first_strike_readings():
    t = resolve("dg-first-strike")
    assert t.outcome["nemesis_missions_left"] == ["Mission I", "Mission II", "Mission III"]
    assert t.outcome["side_missions"] == [None, None, None] and t.outcome["threat"] == 0
    y = resolve("dg-first-strike", {"first_strike_side_mission": "yes"})
    assert y.outcome["side_missions"][0] == "Side mission drawn"
    # same_step: Mission I (threat value 8, track 9) is checked at once and fails before the reset
    s = resolve("dg-first-strike", {"revealed_mission_check": "same_step"})
    assert s.outcome["completed_nemesis"] == [["Mission I", "failed"]]
    assert s.outcome["nemesis_missions_left"] == ["Mission II", "Mission III"]
    assert s.outcome["side_missions"][0] == "Side mission drawn"   # Mission I is a nemesis mission


def test_progress_value_by_player_count():
    sc = builtin("dg-first-strike")
    assert sc.state.nemesis_deck[1].progress_value == 4   # 2 heroes
    with pytest.raises(ScenarioError, match=r"nemesis_missions\[1\]\.progress_values': no progress value for 1 heroes"):
        edited("dg-first-strike", heroes=[{"name": "Solo", "space": "New York", "health": 10}])


def test_final_showdown_and_its_timing():
    t = resolve("dg-final-showdown")
    assert t.outcome["showdown"] and t.outcome["completed_nemesis"] == [["Mission III", "passed"]]
    assert any(s.rule == S.FINAL_SHOWDOWN for s in t.steps)
    assert t.outcome["events_left"] == 0          # step 3 still resolved
    fr = frames("dg-final-showdown")
    nem = fr[-1].state.nemesis_enemy()
    assert nem.damage == 0 and not nem.stunned and nem.health == 20
    e = resolve("dg-final-showdown", {"showdown_timing": "end_phase"})
    assert e.outcome["events_left"] == 1


def test_hero_defeat_shattered_and_eliminated():
    t = resolve("dg-hero-defeat")
    assert t.outcome["threat"] == 4 + 3 + 3
    heroes = t.outcome["heroes"]
    assert heroes["Hero A"] == ["New York", 0, 12, True, False]   # flipped, new health, placed at the next Hero Phase
    assert heroes["Hero B"][4] is True
    assert frames("dg-hero-defeat")[-1].state.elimination_deadline == 2
    g = {x.name: x for x in loss_gauges(frames("dg-hero-defeat")[-1].state)}
    assert "round 2" in g["deadline"].text


def test_a_defeated_hero_loses_its_empowered_token():
    # Additional Rules › Damage and Defeat, step (3): all tokens are removed from the character sheet; Empowered and
    # Primed: the empowered token sits on the player sheet. dg-hero-defeat with both heroes empowered: Hero A flips to
    # its shattered side, Hero B (already shattered) is eliminated; neither keeps the token
    from explorer.games.dagger.nemesis import play_phase
    from explorer.games.dagger.nemesis_scenario import phase_context
    from explorer.games.dagger.state import evolve
    sc = builtin("dg-hero-defeat")
    start = sc.state.evolve(heroes=tuple(evolve(h, empowered=True) for h in sc.state.heroes))
    end = play_phase(start, phase_context(sc, None))[-1].state
    heroes = {h.name: h for h in end.heroes}
    assert heroes["Hero A"].shattered and not heroes["Hero A"].empowered
    assert heroes["Hero B"].eliminated and not heroes["Hero B"].empowered
    assert all(h.empowered for h in start.heroes)                                # the tokens were there to lose


@pytest.mark.parametrize("name, reason", [
    ("dg-loss-threat", "threat reached 20"),
    ("dg-loss-bases", "all bases overrun"),
    ("dg-loss-no-event", "no event card to draw"),
    ("dg-loss-heroes", "all heroes defeated on their shattered side"),
    ("dg-loss-deadline", "a player was eliminated and the Final Showdown did not start in time"),
])
def test_every_loss_condition_is_reachable(name, reason):
    t = resolve(name)
    assert t.outcome["lost"] == [reason]
    assert t.steps[-1].rule == S.WINNING_AND_LOSING


def test_threat_loss_timing_after_mission_check_lets_a_failed_mission_reset():
    t = resolve("dg-loss-threat", {"threat_loss_timing": "after_mission_check"})
    assert t.outcome["lost"] == [] and t.outcome["completed_nemesis"] == [["Mission I", "failed"]]
    assert threat_after(t, "1. Advance Threat") == 20


def test_side_deck_empty_both_readings():
    assert resolve("dg-activation").outcome["threat"] == 6
    assert resolve("dg-activation", {"side_deck_empty": "threat"}).outcome["threat"] == 6 + 1 + 3


def test_nearby_space_itself_both_readings():
    sc = builtin("dg-three-rounds")
    ctx = PhaseContext(world=sc.world, rulings=rulings())
    from explorer.games.dagger.nemesis import apply_effects
    from explorer.games.dagger.state import Effect
    eff = (Effect("damage_heroes", 1, "nearby:Wakanda"),)
    st, _ = apply_effects(sc.state, ctx, eff, "test", S.EVENT_TEXT, "x")
    assert [h.damage for h in st.heroes] == [0, 0, 0]              # Hero B stands on Wakanda itself
    ctx2 = PhaseContext(world=sc.world, rulings=rulings({"nearby_space_itself": "same_and_adjacent"}))
    st, _ = apply_effects(sc.state, ctx2, eff, "test", S.EVENT_TEXT, "x")
    assert [h.damage for h in st.heroes] == [0, 1, 0]


def test_heroes_nearby_the_nemesis_follow_the_nearby_pieces_reading():
    # Additional Rules › Nearby and Overrun, ruling nearby_pieces (handed case DG-08): the heroes nearby the nemesis
    # are on its space and the adjacent ones by default; under adjacent_only a hero on the nemesis's own space is not
    from explorer.games.dagger.nemesis import apply_effects
    from explorer.games.dagger.state import Effect, evolve
    sc = builtin("dg-three-rounds")
    nem = sc.state.nemesis_enemy()
    adjacent = sc.world.adjacent(nem.space)[0]
    heroes = (evolve(sc.state.heroes[0], space=nem.space), evolve(sc.state.heroes[1], space=adjacent),
              *sc.state.heroes[2:])
    board = sc.state.evolve(heroes=heroes)
    far = [h.name for h in heroes[2:] if h.space not in (nem.space, *sc.world.adjacent(nem.space))]
    eff = (Effect("damage_heroes", 1, "nearby_nemesis"),)
    hit = {}
    for reading in ("same_and_adjacent", "adjacent_only"):
        r = rulings({"nearby_pieces": reading})
        st, _ = apply_effects(board, PhaseContext(world=sc.world, rulings=r), eff, "test", S.EVENT_TEXT, "x")
        hit[reading] = [h.name for h, h0 in zip(st.heroes, board.heroes) if h.damage > h0.damage]
        assert r.consulted == {"nearby_pieces": reading}
    assert hit["same_and_adjacent"] == [heroes[0].name, heroes[1].name]
    assert hit["adjacent_only"] == [heroes[1].name]
    assert far == [h.name for h in heroes[2:]]          # the others stand away from the nemesis


def test_progress_from_a_card_effect_completes_a_side_or_hero_mission_at_once():
    # Additional Rules › Missions › Side Missions: a side mission with enough progress on it is completed (team-up,
    # discarded), whatever placed the progress; Hero Missions: completed the same way. dg-01's side mission (4
    # progress) and Hero A's mission (5) take their value from an effect (an event's text, a D.A.G.G.E.R. effect)
    from explorer.games.dagger.nemesis import apply_effects
    from explorer.games.dagger.state import Effect
    sc = builtin("dg-01")
    ctx = PhaseContext(world=sc.world, rulings=rulings())
    side = next(m for m in sc.state.side_slots if m is not None and m.name == "Side mission with threat")
    st, steps = apply_effects(sc.state, ctx, (Effect("progress", 4, mission=side.name),), "Card", S.EVENT_TEXT, "s")
    assert all(m is None or m.name != side.name for m in st.side_slots)
    assert st.team_up == sc.state.team_up + side.team_up
    assert [x.rule.section for x in steps] == ["Nemesis Phase › 3. Resolve Event Cards › Event text",
                                              "Additional Rules › Missions › Side Missions"]
    assert all(x.section == "s" for x in steps)
    st, _ = apply_effects(sc.state, ctx, (Effect("progress", 3, mission=side.name),), "Card", S.EVENT_TEXT, "s")
    assert any(m is not None and m.name == side.name and m.progress == 3 for m in st.side_slots)   # not enough
    st, steps = apply_effects(sc.state, ctx, (Effect("progress", 5, mission="Hero A's mission"),), "Card",
                              S.EVENT_TEXT, "s")
    assert [m.name for m in st.hero_missions] == []
    assert steps[-1].rule.section == "Additional Rules › Missions › Hero Missions"
    # a nemesis mission with enough progress still waits for step 2 (no completion, no extra step)
    top = sc.state.nemesis_deck[0]
    st, steps = apply_effects(sc.state, ctx, (Effect("progress", 9, mission=top.name),), "Card", S.EVENT_TEXT, "s")
    assert st.nemesis_deck[0].name == top.name and len(steps) == 1


def test_region_distance_reading_is_consulted_and_applied():
    t = resolve("dg-activation", {"region_distance": "within_region"})
    assert t.rulings["region_distance"] == "within_region"
    acts = {s.facts["enemy"]: s.facts for s in t.steps if "action" in s.facts}
    assert acts["Elite"]["to"] == "Madripoor"


def test_three_rounds_play_back_to_back():
    t = resolve("dg-three-rounds")
    assert [s for s, _ in t.outcome["threat_after"] if s.endswith("End of Round")] == [
        "Round 1 · End of Round", "Round 2 · End of Round", "Round 3 · End of Round"]
    assert t.outcome["round"] == 4 and t.outcome["events_left"] == 1
    assert t.outcome["completed_nemesis"] == [["Mission I", "failed"]]


def test_every_option_has_two_readings_and_a_reason():
    keys = [o.key for o in ALL_OPTIONS]
    assert len(keys) == len(set(keys)) >= 8
    for o in ALL_OPTIONS:
        assert len(o.readings) >= 2 and o.why_default and o.section


def test_example_cards_are_marked_examples():
    cards = example_events()
    assert cards and all(c.example and c.name.startswith("Example:") for c in cards.values())


@pytest.mark.parametrize("changes, match", [
    ({"iliad": "New York"}, r"field 'iliad': the Iliad must be on a numbered space"),
    ({"iliad": 99}, r"field 'iliad'"),
    ({"overrun": ["Asgard"]}, r"field 'overrun\[0\]': 'Asgard' is not a base \(Asgard is never overrun\)"),
    ({"threat": 99}, r"field 'threat'.*too large \(allowed: 0 to 40\)"),
    ({"heroes": [{"name": "X", "space": "Gotham", "health": 5}]}, r"heroes\[0\]\.space': unknown space 'Gotham'"),
    ({"enemies": [{"id": "T", "type": "rank-4", "space": "Cairo"}]}, r"enemies\[0\]\.type': no \[\[enemy_types\]\]"),
    ({"rulings": {"nope": "x"}}, r"rulings\.nope"),
    ({"choices": {"attack_target": {"Thug 1": "Nobody"}}}, r"choices\.attack_target\.Thug 1"),
    ({"events": [{"card": "Example: Missing"}]}, r"events\[0\]\.card': unknown example card"),
    ({"events": [{"name": "E", "spawns": [{"enemy": "rank-4", "space": "Cairo"}]}]},
     r"events\[0\]\.spawns\[0\]\.enemy'"),
    ({"side_missions": [{"name": "a"}, {"name": "b"}, {"name": "c"}, {"name": "d"}]}, r"side_missions'.*at most 3"),
    ({"start_at": "step-9"}, r"field 'start_at'"),
])
def test_bad_scenarios_give_one_line_errors(changes, match):
    with pytest.raises(ScenarioError, match=match) as e:
        edited("dg-activation", **changes)
    assert "\n" not in str(e.value) and str(e.value).startswith("dg-activation: field")


def test_too_many_enemies_of_a_type():
    enemies = [{"id": f"T{i}", "type": "rank-1", "space": "Cairo"} for i in range(4)]
    with pytest.raises(ScenarioError, match=r"4 Thug \(rank-1\) on the board but only 3 standees"):
        edited("dg-activation", enemies=enemies)


def test_advance_threat_and_activate_enemy_are_pure():
    sc = builtin("dg-activation")
    ctx = PhaseContext(world=sc.world, rulings=rulings())
    before = sc.state
    s1, _ = advance_threat(before, ctx)
    s2, _ = activate_enemy(before, ctx, "Brute 1")
    assert before == builtin("dg-activation").state
    assert s1.threat > before.threat and s2.enemy("Brute 1").space == "Bermuda"


def test_hero_defeat_cites_all_seven_steps_in_order():
    t = resolve("dg-hero-defeat")
    i = next(k for k, s in enumerate(t.steps) if s.title.startswith("Hero A is defeated"))
    text = t.steps[i].detail + " " + t.steps[i + 1].detail
    positions = [text.index(f"({n})") for n in range(1, 8)]
    assert positions == sorted(positions)
    assert t.steps[i + 1].facts["defeat_steps"] == [2, 3, 4, 5, 6, 7]
    assert "team-up card" in text and all(s.rule.section.endswith("Damage and Defeat") for s in t.steps[i:i + 2])
