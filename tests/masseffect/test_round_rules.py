"""Rules a Round touches, applied as written (issue 19, "against the text"): a Move Action's Movement Points, Fast
Travel's cost, the React Tag's move, the Pin Tag stop, Shrouded areas revealed during play; and the handed cases
ME-10 and ME-16 as built-in scenarios (their ``expected`` values from /work/shared/cases/rulings-masseffect.jsonl).
Golden traces of the new built-ins: tests/masseffect/golden/<name>.txt."""

from pathlib import Path

import pytest
from golden_helpers import check_golden, trace_text
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.masseffect.me_fake_terrain import FakeTerrain

from explorer.errors import RuleViolation, ScenarioError
from explorer.games.masseffect import sections as S
from explorer.games.masseffect.activation import (Board, opportunity_attacks, parse_activation, play_activation,
                                                  resolve_activation)
from explorer.games.masseffect.damage import parse_damage, resolve_damage
from explorer.games.masseffect.options import rulings as me_rulings
from explorer.games.masseffect.outcome import outcome_text
from explorer.games.masseffect.results import EnemyReacted, Revealed, SquadmateMoved
from explorer.games.masseffect.units import Enemy, Squadmate
from explorer.hexgrid import Hex
from explorer.scenario import read_toml

SCENARIOS = Path(__file__).parents[2] / "explorer" / "games" / "masseffect" / "scenarios"
GOLDEN = Path(__file__).parent / "golden"
NEW = ["me-10", "me-16", "me-move-points", "me-fast-travel", "me-shrouded-reveal", "me-react-tag"]
H = Hex


def data(name):
    return read_toml(SCENARIOS / f"{name}.toml")


def resolve(name, rulings=None, patch=None):
    d = data(name) | (patch or {})
    if d["kind"] == "damage":
        return resolve_damage(parse_damage(d, f"{name}.toml"), rulings)
    return resolve_activation(parse_activation(d, f"{name}.toml"), rulings)


def sq(name, at, hp=5, sh=3):
    return Squadmate(name, sh, hp, position=H(*at))


def en(name, at, av=2, tags=(), stunned=False, shrouded=False):
    return Enemy(name, attack_value=av, shield_value=2, tags=frozenset(tags), position=H(*at), stunned=stunned,
                 shrouded=shrouded)


@pytest.mark.parametrize("name", NEW)
def test_golden_trace(name):
    check_golden(GOLDEN, name, trace_text(resolve(name)))


# --- ME-16: the Pin Tag stop -------------------------------------------------------------------------------------

def test_me16_pin_tag_stop_expected_values():
    t = resolve("me-16")
    oa = [s.facts["enemy"] for s in t.steps if s.rule == S.OPPORTUNITY_ATTACKS and "enemy" in s.facts]
    assert oa == ["R", "P"]                                   # highest Attack Value first; Q never attacks
    tali = t.result.squadmates[0]
    assert (tali.hex, tali.shield_points, tali.hit_points, tali.downed) == ("-1,0", 0, 1, False)
    pin = next(s for s in t.steps if s.rule == S.PIN_TAG)
    assert pin.facts["stopped_at"] == "-1,0" and pin.facts["lost"] == 2
    assert "stops there" in pin.title and "2 unspent Movement Points lost" in pin.title
    moved = next(e for e in t.result.events if isinstance(e, SquadmateMoved))
    assert moved.path == ("0,0", "-1,0") and moved.planned[-1] == "-3,0" and moved.lost == 2
    text = outcome_text(t)
    assert "moves 0,0 → -1,0 and stops there" in text and "2 unspent Movement Points lost" in text


def test_me16_wrong_reading_would_down_her():
    """Without the Pin Tag the route is walked and Q attacks too (the wrong answer the case warns about)."""
    d = data("me-16")
    d["enemies"][1]["tags"] = []
    t = resolve_activation(parse_activation(d, "x.toml"))
    assert t.result.squadmates[0].downed


# --- Movement Points -----------------------------------------------------------------------------------------------

def test_move_longer_than_its_die_is_refused_naming_the_field():
    t = resolve("me-move-points")
    assert t.result.rejected and "move.path[3]" in t.result.rejected and "2 Movement Points" in t.result.rejected
    assert t.result.squadmates[0].hex == "0,0"                # a refused Move changes nothing
    board = Board((sq("Garrus", (0, 0)),), (), current="Garrus")
    path = [H(0, 0), H(-1, 0), H(-2, 0), H(-3, 0)]
    with pytest.raises(RuleViolation) as e:
        opportunity_attacks(FakeTerrain(), board, "Garrus", path, movement_points=2)
    assert (e.value.rejection.field, e.value.step, e.value.section) == ("path[3]", "Step B: Move",
                                                                        S.BASIC_ACTIONS.section)
    assert "\n" not in str(e.value)
    b, _ = opportunity_attacks(FakeTerrain(), board, "Garrus", path, movement_points=3)
    assert b.squadmate("Garrus").position == H(-3, 0)
    with pytest.raises(RuleViolation, match="at most 3"):            # undeclared die: held to the largest, 3
        opportunity_attacks(FakeTerrain(), board, "Garrus", path + [H(-4, 0)])
    b, _ = opportunity_attacks(FakeTerrain(), board, "Garrus", path + [H(-4, 0)], forced=True)
    assert b.squadmate("Garrus").position == H(-4, 0)                # a forced move is not a Move Action


def test_a_round_move_too_long_names_the_round_files_fields_not_an_activation_files():
    """Basic Actions › Move inside a Round: the refusal names the round file's own fields (the die of
    ``turns[i].actions[j]`` and its ``path[k]``), never an activation file's ``move.movement_points``/``move.path``;
    an Ability's move (Adrenaline Rush) names what gives its Movement Points, the sheet file's move_points."""
    from explorer.games.masseffect.round import parse_round, resolve_round
    d = {"game": "masseffect", "kind": "round", "title": "too far", "on_point": "Shepard",
         "map": {"name": "p", "shape": {"kind": "hexagon", "radius": 4}},
         "squadmates": [{"name": "Shepard", "max_shield_points": 4, "max_hit_points": 6, "position": "0,0"}],
         "enemies": [{"name": "Husk", "attack_value": 1, "shield_value": 3, "position": "3,0"}],
         "hazard_deck": [{"name": "A", "instructions": [{"do": "spawn", "at": "closest"}]}],
         "turns": [{"squadmate": "Shepard", "actions": [
             {"box": "Move", "die": "move_2", "path": ["0,0", "-1,0", "-2,0", "-3,0"]}]}]}
    why = resolve_round(parse_round(d, "x.toml")).result.rejected
    assert "its Move 2 die gives 2 Movement Points (turns[0].actions[0].die)" in why
    assert "turns[0].actions[0].path[3] is one hex too far" in why and "move." not in why
    d["turns"][0]["actions"][0] |= {"box": "Adrenaline Rush", "die": "standard"}
    d["unlocked"] = {"Shepard": ["Adrenaline Rush"]}
    why = resolve_round(parse_round(d, "x.toml")).result.rejected
    assert why.startswith("Shepard's Adrenaline Rush spends 3 Movement Points") and "move." not in why
    assert "Adrenaline Rush (the sheet file's move_points) gives 2 Movement Points" in why


def test_movement_points_field_is_checked():
    d = data("me-move-points")
    d["move"]["movement_points"] = 4
    with pytest.raises(ScenarioError) as e:
        parse_activation(d, "x.toml")
    assert e.value.field == "move.movement_points" and "x.toml" in str(e.value)


def test_unspent_points_are_lost():
    board = Board((sq("Garrus", (0, 0)),), (), current="Garrus")
    b, steps = opportunity_attacks(FakeTerrain(), board, "Garrus", [H(0, 0), H(-1, 0)], movement_points=3)
    assert steps[-1].facts == {"spent": 1, "lost": 2} and "2 unspent points lost" in steps[-1].title
    assert b.log[0] == SquadmateMoved("Garrus", ("0,0", "-1,0"), False, lost=2)


@settings(max_examples=60, deadline=None)
@given(mp=st.sampled_from([2, 3]), steps=st.lists(st.sampled_from(range(6)), min_size=0, max_size=5))
def test_movement_never_exceeds_the_die(mp, steps):
    """Property: an accepted Move enters at most its die's Movement Points hexes; a longer one is refused."""
    from explorer.hexgrid import neighbors

    path = [H(0, 0)]
    for d in steps:
        path.append(neighbors(path[-1])[d])
    if len(set(path)) != len(path):
        return
    board = Board((sq("Garrus", (0, 0)),), (), current="Garrus")
    t = FakeTerrain(radius=6)
    if len(path) - 1 > mp:
        with pytest.raises(RuleViolation):
            opportunity_attacks(t, board, "Garrus", path, movement_points=mp)
    else:
        b, out = opportunity_attacks(t, board, "Garrus", path, movement_points=mp)
        assert out[-1].facts["spent"] == len(path) - 1 <= mp and out[-1].facts["lost"] == mp - (len(path) - 1)


# --- Fast Travel -----------------------------------------------------------------------------------------------------

def test_fast_travel_spends_its_movement_point():
    t = resolve("me-fast-travel")
    hop = next(s for s in t.steps if s.rule == S.FAST_TRAVEL)
    assert hop.facts["movement_points_spent"] == 1 and "1 Movement Point" in hop.title
    assert t.result.squadmates[0].hex == "4,-3" and t.result.squadmates[0].shield_points == 2
    d = data("me-fast-travel")
    d["move"]["path"] = d["move"]["path"] + ["4,-4"]          # hop + 2 steps = 3 points on a 2-point die
    t = resolve_activation(parse_activation(d, "x.toml"))
    assert t.result.rejected and "3 Movement Points" in t.result.rejected


# --- the React Tag ---------------------------------------------------------------------------------------------------

def test_react_tag_moves_one_hex_toward_the_attacker():
    t = resolve("me-react-tag")
    where = {e.name: e.hex for e in t.result.enemies}
    assert where == {"Husk A": "2,0", "Husk B": "0,-3"}
    reacted = [e for e in t.result.events if isinstance(e, EnemyReacted)]
    assert [(e.enemy, e.start, e.end) for e in reacted] == [("Husk A", "3,0", "2,0"), ("Husk B", "0,-3", "0,-3")]
    assert t.rulings["react_blocked"] == "stays" and t.outcome["enemies"]["Husk A"]["hex"] == "2,0"


def _react_into_inferno(kind="minion", amount=1):
    """me-react-tag with an Inferno icon on 2,0, the hex Husk A's React move enters."""
    d = data("me-react-tag")
    d["map"] = {**d["map"], "icons": {"2,0": ["inferno"]}}
    d["enemies"][0] |= ({"kind": "elite", "resilience": [3, 2]} if kind == "elite" else {})
    d["events"][0]["amount"] = amount
    return resolve_damage(parse_damage(d, "x.toml"))


def test_a_react_move_into_an_inferno_hex_damages_the_minion():
    """Map Features › Inferno Icons: a Minion that moves into an Inferno hex suffers 1 Damage, a React Tag move too
    (Damaging Enemies › The React Tag). Husk A (Shield Value 3) takes 2 from Garrus, reacts into the Inferno hex and
    is Defeated by its 1 Damage: back to the Enemy Bag, no XP for Garrus (no Action of his did it)."""
    t = _react_into_inferno(amount=2)
    assert "Husk A" not in t.outcome["enemies"] and "Husk A" in t.outcome["returned_to_bag"]
    inferno = [s for s in t.steps if s.rule.section == S.INFERNO.section]
    assert len(inferno) == 1 and inferno[0].title == "Husk A moved into Inferno hex 2,0: 1 Damage"
    assert not any("XP" in s.title for s in t.steps)
    t1 = _react_into_inferno(amount=1)                     # 1 + 1 of Shield Value 3: Damaged, still there
    assert t1.outcome["enemies"]["Husk A"]["hex"] == "2,0" and t1.outcome["enemies"]["Husk A"]["damage"] == 2


def test_a_react_move_into_an_inferno_hex_leaves_an_elite_unharmed():
    t = _react_into_inferno("elite", amount=1)
    assert t.outcome["enemies"]["Husk A"]["hex"] == "2,0" and t.outcome["enemies"]["Husk A"]["damage"] == 1
    assert not any(s.rule.section == S.INFERNO.section for s in t.steps)


def test_a_round_react_move_into_an_inferno_hex_defeats_the_minion_and_the_round_goes_on():
    """The same rule inside a Round (explorer.games.masseffect.round): Shepard Shoots the React Husk (2 of 3), it
    moves one hex toward him into the Inferno hex and is Defeated; the Hazard card then finds no Husk."""
    from explorer.games.masseffect.round import parse_round, resolve_round
    d = {
        "game": "masseffect", "kind": "round", "title": "React into an Inferno hex", "on_point": "Shepard",
        "map": {"name": "p", "shape": {"kind": "hexagon", "radius": 4}, "icons": {"1,0": ["inferno"]}},
        "squadmates": [{"name": "Shepard", "max_shield_points": 4, "max_hit_points": 6, "position": "-2,0"}],
        "enemies": [{"name": "Husk", "attack_value": 1, "shield_value": 3, "tags": ["React"], "position": "2,0"}],
        "hazard_deck": [{"name": "A", "instructions": [{"do": "activate", "types": ["Husk"]}]}],
        "turns": [{"squadmate": "Shepard", "actions": [{"box": "Shoot", "die": "standard", "target": "Husk"}]}]}
    t = resolve_round(parse_round(d, "x.toml"))
    assert t.outcome["rejected"] is None and t.outcome["returned_to_bag"] == ["Husk"] and t.outcome["enemies"] == {}
    titles = [s.title for s in t.steps]
    react = next(i for i, x in enumerate(titles) if x.startswith("React Tag: Husk"))
    assert titles[react + 1] == "Husk moved into Inferno hex 1,0: 1 Damage"
    assert any(x.startswith("Invalid Activation: no Husk") for x in titles)
    from explorer.games.masseffect.round_view import round_positions      # the step-through: the React move's
    pos = round_positions(parse_round(d, "x.toml"))                         # step shows the Husk where it moved
    at = next(p for p in pos if p.step.title.startswith("React Tag: Husk"))
    assert at.settled and [(e.name, e.hex, e.damage) for e in at.enemies] == [("Husk", "1,0", 2)]


def test_react_blocked_sidestep_reading():
    t = resolve("me-react-tag", {"react_blocked": "sidestep"})
    assert {e.name: e.hex for e in t.result.enemies}["Husk B"] == "-1,-2"


def test_react_tag_without_a_map_keeps_the_old_report():
    d = data("me-react-tag")
    d.pop("map")
    for c in d["squadmates"] + d["enemies"]:
        c.pop("position")
    t = resolve_damage(parse_damage(d, "x.toml"))
    assert not any(isinstance(e, EnemyReacted) for e in t.result.events)
    assert "hex" not in t.outcome["enemies"]["Husk A"]


def test_react_to_needs_a_map_and_a_hex():
    d = data("me-react-tag")
    d["events"][0]["react_to"] = "zz"
    with pytest.raises(ScenarioError) as e:
        parse_damage(d, "x.toml")
    assert e.value.field == "events[0].react_to"


def test_react_to_a_hex_that_is_not_a_choice_is_refused_not_replaced():
    """A choice outside the free hexes nearer the attacker is a cited refusal, never silently the default."""
    d = data("me-react-tag")
    d["events"][0]["react_to"] = "3,-1"   # adjacent to Husk A at 3,0 but not nearer Garrus at 0,0
    t = resolve_damage(parse_damage(d, "x.toml"))
    refused = [s for s in t.steps if s.title.startswith("Not allowed")]
    assert refused and "react_to 3,-1 is not a free adjacent hex nearer Garrus (the choices: 2,0)" in refused[0].title
    assert refused[0].rule.section.endswith("The React Tag")
    assert {e.name: e.hex for e in t.result.enemies}["Husk A"] == "3,0"   # it did not move to the default either


# --- Shrouded areas revealed -----------------------------------------------------------------------------------------

def test_shrouded_area_revealed_by_a_move():
    frames, t = play_activation(parse_activation(data("me-shrouded-reveal"), "x.toml"))
    assert any(isinstance(e, Revealed) and e.area == "vault" for e in t.result.events)
    assert frames[-1].state.revealed == ("vault",)
    assert t.result.enemies[0].hex == "3,0"                   # it Activated and Advanced
    d = data("me-shrouded-reveal")
    d["move"]["path"] = ["0,0", "1,0"]                        # never by the door: the Husk does not Activate
    t = resolve_activation(parse_activation(d, "x.toml"))
    assert t.result.enemies[0].hex == "5,0" and not any(isinstance(e, Revealed) for e in t.result.events)


def test_shrouded_reveal_end_of_move_reading():
    t = FakeTerrain(shrouded={H(3, 0)}, doors={H(1, 0): ("shrouded",)})
    board = Board((sq("Garrus", (0, 0)),), (en("Husk", (3, 0), stunned=True, shrouded=True),), current="Garrus")
    path = [H(0, 0), H(1, 0), H(1, 1)]
    b, _ = opportunity_attacks(t, board, "Garrus", path, rulings=me_rulings())
    assert b.revealed == ("shrouded",) and b.enemy("Husk").active
    b, _ = opportunity_attacks(t, board, "Garrus", path, rulings=me_rulings({"shrouded_reveal": "end_of_move"}))
    assert b.revealed == () and not b.enemy("Husk").active
    b, _ = opportunity_attacks(t, board, "Garrus", path[:2], rulings=me_rulings({"shrouded_reveal": "end_of_move"}))
    assert b.revealed == ("shrouded",)


# --- ME-10 -----------------------------------------------------------------------------------------------------------

def test_me10_expected_values():
    t = resolve("me-10")
    titles = [s.title for s in t.steps]
    assert any(x.startswith("Husk Attacks Tali for 0 Damage") and "minimum of 0" in x for x in titles)
    assert not any("Advances" in x for x in titles)
    tali = t.outcome["squadmates"]["Tali"]
    assert (tali["shield_points"], tali["hit_points"]) == (2, 4)
    second = t.steps[-1]
    assert second.rule == S.BIOTIC_EFFECTS and "cannot be placed" in second.title
    assert t.outcome["enemies"]["Husk"]["biotic_effect"] is True
    assert "a second cannot be placed" in outcome_text(t)


def test_activate_event_needs_a_map():
    d = data("me-10")
    d.pop("map")
    for c in d["squadmates"] + d["enemies"]:
        c.pop("position")
    with pytest.raises(ScenarioError) as e:
        parse_damage(d, "x.toml")
    assert e.value.field == "events[0].type"


def test_a_downed_mover_stops_and_the_log_says_where():
    board = Board((sq("Tali", (0, 0), hp=1, sh=0),), (en("R", (1, -1), av=3),), current="Tali")
    b, steps = opportunity_attacks(FakeTerrain(), board, "Tali", [H(0, 0), H(-1, 0), H(-2, 0)], movement_points=2)
    moved = next(e for e in b.log if isinstance(e, SquadmateMoved))
    assert moved.path == ("0,0", "-1,0") and moved.stopped_by == "Downed" and moved.planned[-1] == "-2,0"


@settings(max_examples=60, deadline=None)
@given(shrouded=st.sets(st.sampled_from([H(q, r) for q in range(-2, 3) for r in range(-2, 3)]), max_size=8),
       revealed=st.booleans())
def test_no_enemy_in_a_shrouded_area_activates(shrouded, revealed):
    """Property: an Enemy standing in a Shrouded area that is not revealed is never Activated; once the area is
    revealed it is (Shrouded Areas)."""
    from explorer.games.masseffect.activation import activate_enemy
    from explorer.games.masseffect.activation import Choices

    t = FakeTerrain(shrouded=set(shrouded))
    enemies = tuple(en(f"E{i}", (h.q, h.r)) for i, h in enumerate(sorted(shrouded)) if h != H(0, 0))
    board = Board((sq("Garrus", (0, 0)),), enemies, current="Garrus", revealed=("shrouded",) if revealed else ())
    for e in enemies:
        b, steps = activate_enemy(t, board, e.name, Choices(), me_rulings())
        assert (steps[0].rule == S.SHROUDED_AREAS) == (not revealed)


def test_a_defeated_minion_back_in_the_enemy_bag_is_drawn_when_it_is_the_only_token_left():
    """Damaging Enemies: a Defeated Minion is returned to the Enemy Bag; Spawning Minions draws a token from the bag.
    The file's [[bag]] declares the draws (the draw is random); after them the bag still holds the Minions returned
    to it: one alone is the token drawn (Damage, Biotic Effect token and Stunned side gone), not an empty bag (two or
    more need a declared ``returned`` draw: tests/masseffect/test_round_bag.py). Here Shepard Defeats Husk A (Shield
    Value 2, a Biotic Effect token on it); the first card Spawns the declared Trooper, the second Husk A."""
    from explorer.games.masseffect.round import parse_round, resolve_round
    spawn = {"instructions": [{"do": "spawn", "at": "closest"}]}
    d = {"game": "masseffect", "kind": "round", "title": "Back in the bag", "on_point": "Shepard",
         "map": {"name": "p", "shape": {"kind": "hexagon", "radius": 4}, "icons": {"4,-4": ["spawn"], "-4,4": ["spawn"]}},
         "squadmates": [{"name": "Shepard", "max_shield_points": 4, "max_hit_points": 6, "position": "0,0"},
                        {"name": "Garrus", "max_shield_points": 3, "max_hit_points": 5, "position": "0,2"}],
         "enemies": [{"name": "Husk A", "type": "Husk", "attack_value": 2, "shield_value": 2, "position": "2,0",
                      "biotic_effect": True}],
         "bag": [{"name": "Trooper", "attack_value": 1, "shield_value": 2}],
         "hazard_deck": [{"name": "S1"} | spawn, {"name": "S2"} | spawn],
         "turns": [{"squadmate": "Shepard", "actions": [{"box": "Shoot", "die": "standard", "target": "Husk A"}]}]}
    t = resolve_round(parse_round(d, "x.toml"))
    spawns = [s for s in t.steps if s.title.startswith("Spawn ")]
    assert [s.facts["spawned"] for s in spawns] == ["Trooper", "Husk A"]
    assert "returned to the Enemy Bag earlier" in spawns[1].detail and "returned" not in spawns[0].detail
    assert "only token in it" in spawns[1].detail
    assert t.outcome["enemies"]["Husk A"]["damage"] == 0 and t.outcome["returned_to_bag"] == ["Husk A"]
    assert not any("Enemy Bag is empty" in s.title for s in t.steps)
