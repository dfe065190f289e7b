"""Hero Phase helpers: Move along the graph, the Fight / Defy / Rest rolls with the editable die face table, exact
odds (against brute-force enumeration and a seeded Monte Carlo estimate), and what each result does to the state."""

import random
from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.errors import RuleViolation, ScenarioError
from explorer.games.dagger import hero_phase as HP
from explorer.games.dagger.state import Mission, evolve
from explorer.games.dagger.worldmap import load_map

from .helpers import builtin

WORLD = load_map()


def with_hero(state, name, **changes):
    h = next(h for h in state.heroes if h.name == name)
    return state.with_hero(evolve(h, **changes))


def brute(faces, dice, need, automatic=0, empowered=False):
    hits = sum(1 for roll in product(faces, repeat=dice)
               if sum(roll) + automatic + (1 if empowered else 0) >= need)
    return Fraction(hits, len(faces) ** dice)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 3), min_size=2, max_size=6), st.integers(0, 4), st.integers(0, 9),
       st.integers(0, 3), st.booleans())
def test_exact_odds_equal_brute_force(faces, dice, need, automatic, empowered):
    die = HP.DieTable(tuple(faces))
    dist = HP.successes_distribution(dice, die)
    assert sum(dist.values()) == 1
    odds = HP.action_odds(dice, need, die=die, automatic=automatic, empowered=empowered)
    assert odds.p == brute(faces, dice, need, automatic, empowered)
    assert odds.p_without_empowered <= odds.p_with_empowered


def test_default_die_monte_carlo_agrees():
    odds = HP.action_odds(3, 2)
    rng = random.Random(10)
    n = 20000
    hits = sum(1 for _ in range(n) if sum(rng.choice(HP.DEFAULT_DIE.faces) for _ in range(3)) >= 2)
    p = float(odds.p)
    assert abs(hits / n - p) <= 4 * (p * (1 - p) / n) ** 0.5
    assert odds.p == brute(HP.DEFAULT_DIE.faces, 3, 2)


def test_die_table_is_checked():
    with pytest.raises(ScenarioError, match="die.faces"):
        HP.DieTable((1,))
    with pytest.raises(ScenarioError, match=r"die.faces\[1\]"):
        HP.DieTable((0, 4))
    with pytest.raises(ScenarioError, match="dice"):
        HP.successes_distribution(21)


def test_fight_odds_need_the_health_left_and_an_enemy_in_the_space():
    s = builtin("dg-activation").state
    s = with_hero(s, "Hero A", atk=3)
    odds = HP.fight_odds(s, "Hero A", "Thug 1")
    assert odds.need == 2 and odds.dice == 3 and odds.p == brute(HP.DEFAULT_DIE.faces, 3, 2)
    emp = HP.fight_odds(with_hero(s, "Hero A", atk=3, empowered=True), "Hero A", "Thug 1")
    assert emp.p == brute(HP.DEFAULT_DIE.faces, 3, 1) > odds.p          # the token adds one success after rolling
    with pytest.raises(RuleViolation, match="not in Hero A's space"):
        HP.fight_odds(s, "Hero A", "Brute 1")
    with pytest.raises(ScenarioError, match="ATK"):
        HP.fight_odds(s, "Hero B", "Thug 1")


def test_fight_removes_a_standard_enemy_and_an_elite_completes_its_side_mission():
    s = builtin("dg-activation").state
    s2, steps = HP.fight(s, "Hero A", "Thug 1", 2)
    assert "Thug 1" not in {e.id for e in s2.enemies} and steps[-1].facts["defeated"] == "Thug 1"
    s3, _ = HP.fight(s, "Hero A", "Thug 1", 1)
    assert s3.enemy("Thug 1").damage == 1
    # an empowered token spent by default only when it makes the difference
    e, steps = HP.fight(with_hero(s, "Hero A", empowered=True), "Hero A", "Thug 1", 1)
    assert "Thug 1" not in {x.id for x in e.enemies} and not next(h for h in e.heroes if h.name == "Hero A").empowered
    e, _ = HP.fight(with_hero(s, "Hero A", empowered=True), "Hero A", "Thug 1", 0)
    assert next(h for h in e.heroes if h.name == "Hero A").empowered          # one short of nothing: kept
    # the elite of an elite side mission
    s = with_hero(s, "Hero C", space="Tokyo")
    m = s.side_slots[0]
    s = s.with_mission(evolve(m, team_up=2))
    s4, steps = HP.fight(s, "Hero C", "Elite", 6)
    assert s4.side_slots[0] is None and s4.team_up == s.team_up + 2
    assert any(st.rule.section.endswith("Side Missions") for st in steps)
    for st_ in steps:
        assert st_.rule.game == "Marvel D.A.G.G.E.R."


def test_nemesis_defeat_before_and_in_the_showdown():
    s = builtin("dg-final-showdown").state
    s = with_hero(s, "Hero A", space="Oslo")
    before, steps = HP.fight(s, "Hero A", "Nemesis", 7, nemesis_to="London", world=WORLD)
    n = before.enemy("Nemesis")
    assert n.stunned and n.space == "London" and not before.won
    with pytest.raises(RuleViolation):
        HP.fight(s, "Hero A", "Nemesis", 7, nemesis_to="Tokyo", world=WORLD)
    won, _ = HP.fight(s.evolve(showdown=True), "Hero A", "Nemesis", 7)
    assert won.won


def test_defy_progress_side_mission_completes_nemesis_mission_waits():
    s = builtin("dg-final-showdown").state
    side = Mission("Side: Rescue", "side", progress=1, progress_value=3, team_up=1)
    s = s.evolve(side_slots=(side, None, None))
    s = with_hero(s, "Hero B", dfi=2)
    odds = HP.defy_odds(s, "Hero B", "Side: Rescue")
    assert odds.need == 2 and odds.p == brute(HP.DEFAULT_DIE.faces, 2, 2)
    s2, steps = HP.defy(s, "Hero B", "Side: Rescue", 2)
    assert s2.side_slots[0] is None and s2.team_up == s.team_up + 1
    s3, _ = HP.defy(s, "Hero B", "Side: Rescue", 1)
    assert s3.side_slots[0].progress == 2
    s4, steps = HP.defy(s.with_mission(evolve(s.nemesis_deck[0], progress=0)), "Hero B", "Mission III", 9)
    assert s4.nemesis_deck[0].progress == 9 and "step 2" in steps[-1].title
    assert HP.defy_odds(s, "Hero B", "Side: Rescue", progress_per_success=2).need == 1


def test_rest_recovers_first_by_default_and_splits_on_request():
    s = builtin("dg-three-rounds").state
    s = with_hero(s, "Hero A", damage=3, rest_auto=1, tactic=2)
    s2, steps = HP.rest(s, "Hero A", 1)
    assert next(h for h in s2.heroes if h.name == "Hero A").damage == 1 and steps[-1].facts["charge"] == 0
    s3, steps = HP.rest(s, "Hero A", 4, recover=1)
    assert next(h for h in s3.heroes if h.name == "Hero A").damage == 2 and steps[-1].facts["charge"] == 4
    dist = HP.rest_distribution(s, "Hero A")
    assert min(dist) == 1 and sum(dist.values()) == 1                          # the automatic success


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(list(WORLD.names)), st.integers(1, 4))
def test_reachable_is_within_the_move_value_and_move_checks_lines(start, mv):
    r = HP.reachable(WORLD, start, mv)
    assert r[start] == 0 and all(WORLD.distance(start, n) == d <= mv for n, d in r.items())
    s = builtin("dg-three-rounds").state
    s = with_hero(s, "Hero A", space=start, move=mv)
    far = max(r, key=r.get)
    path, here = [], start
    while here != far:
        here = WORLD.steps_toward(here, far)[0]
        path.append(here)
    s2, steps = HP.move_hero(s, WORLD, "Hero A", path)
    assert next(h for h in s2.heroes if h.name == "Hero A").space == far and steps[0].facts["spaces"] == len(path)
    beyond = [n for n in WORLD.names if WORLD.distance(start, n) == mv + 1]
    if beyond:
        path, here = [], start
        while here != beyond[0]:
            here = WORLD.steps_toward(here, beyond[0])[0]
            path.append(here)
        with pytest.raises(RuleViolation, match="move value"):
            HP.move_hero(s, WORLD, "Hero A", path)
    not_adjacent = next(n for n in WORLD.names if n != start and n not in WORLD.adjacent(start))
    with pytest.raises(RuleViolation, match="dotted line"):
        HP.move_hero(s, WORLD, "Hero A", [not_adjacent])


# --------------------------------------------------------------------------------------------- the "hero" kind


def hero_doc(**changes):
    from explorer.games import get_game
    from explorer.scenario import read_toml

    g = get_game("dagger")
    doc = read_toml("dg-hero-fight", text=g.scenario_text("dg-hero-fight"))
    doc.update(changes)
    return doc


def resolve_doc(doc):
    from explorer.games import get_game

    g = get_game("dagger")
    return g.resolve(g.parse_data(doc, "hero.toml"))


@pytest.mark.parametrize("changes, field", [
    ({"actions": [{"do": "jump", "hero": "Hero B"}]}, "actions[0].do"),
    ({"actions": []}, "actions"),
    ({"die": [0, 4]}, "die[1]"),
    ({"die": [1]}, "die"),
    ({"actions": [{"do": "fight", "hero": "Hero B"}]}, "actions[0].enemy"),
    ({"actions": [{"do": "defy", "hero": "Hero B", "mission": "Nope"}]}, "actions[0].mission"),
    ({"actions": [{"do": "fight", "hero": "Nobody", "enemy": "Thug 1"}]}, "actions[0].hero"),
    ({"actions": [{"do": "move", "hero": "Hero B", "path": ["Atlantis"] * 7}]}, "actions[0].path"),
])
def test_malformed_hero_files_name_the_field(changes, field):
    with pytest.raises(ScenarioError) as e:
        resolve_doc(hero_doc(**changes))
    msg = str(e.value)
    assert "\n" not in msg and f"'{field}'" in msg and "hero.toml" in msg


def test_a_forbidden_action_is_reported_not_raised():
    t = resolve_doc(hero_doc(actions=[{"do": "move", "hero": "Hero B", "path": ["Tokyo"]}]))
    assert t.steps[0].title.startswith("Not allowed:") and "dotted line" in t.steps[0].title
    assert t.outcome["actions"][0]["result"].startswith("not allowed")
    t = resolve_doc(hero_doc(actions=[{"do": "fight", "hero": "Hero B", "enemy": "Thug 1"}]))     # still on Wakanda
    assert t.steps[0].title.startswith("Not allowed:") and "not in Hero B's space" in t.steps[0].title


def test_hero_kind_odds_only_and_the_phase_after():
    t = resolve_doc(hero_doc(actions=[{"do": "move", "hero": "Hero B", "path": ["Cairo"]},
                                      {"do": "fight", "hero": "Hero B", "enemy": "Thug 1"}]))
    fight = t.outcome["actions"][1]
    assert fight["result"] == "odds only" and fight["p"]["exact"] == str(brute(HP.DEFAULT_DIE.faces, 3, 2))
    # Thug 1 still there: step 1 adds 5 (track 7 = threat value 7), the 1st strike fails and the track resets
    assert next(s.facts["after"] for s in t.steps if "after" in s.facts) == 7
    assert any(s.facts.get("result") == "failed" for s in t.steps) and t.outcome["threat"] == 0
    t = resolve_doc(hero_doc(die=[1, 1]))                # every face a success: 3 dice always reach 2
    assert t.outcome["actions"][1]["p"]["exact"] == "1" and t.outcome["threat"] == 6


def test_a_refused_action_names_its_rule_field_and_step():
    """The hero actions are a kernel sequence (HERO_ACTIONS): a refused action stops it with one RuleViolation that
    names the rule, the action's field and the step; the trace says "Not allowed" with the reason and the rule."""
    from explorer.games import get_game
    from explorer.games.dagger import sections as S
    from explorer.games.dagger.hero_scenario import HERO_ACTIONS, HeroContext, HeroPhaseState, play_hero
    from explorer.kernel import play_until_refused
    from explorer.scenario import read_toml

    g = get_game("dagger")
    doc = read_toml("dg-hero-fight", text=g.scenario_text("dg-hero-fight"))
    doc["actions"][1]["enemy"] = "Minion 1"                 # on Latveria, not in Hero B's space
    kind, sc = g.parse({k: v for k, v in doc.items() if k != "game"}, "dg-hero-fight")
    frames, refusal = play_until_refused(HeroPhaseState(sc.board.state, len(sc.actions)), HERO_ACTIONS,
                                         HeroContext(scenario=sc))
    assert [f.name for f in frames] == ["action 1"] and len(frames[0].state.done) == 1
    assert refusal.rule == S.ASPECT_ACTIONS and refusal.rejection.field == "actions[1].enemy"
    assert refusal.rejection.step == "action 2 (fight)" and "not in Hero B's space" in refusal.reason
    steps, records, *_ = play_hero(sc)
    assert any(s.title == f"Not allowed: {refusal.reason} [{S.ASPECT_ACTIONS.section}]" for s in steps)
    assert not records[-1].allowed and records[-1].result.startswith("not allowed: Minion 1 is on Latveria")
