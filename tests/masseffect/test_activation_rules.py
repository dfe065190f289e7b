"""Enemy activation rules (explorer.games.masseffect.activation) on a fake terrain: handed cases ME-03 (activation
part), ME-06, ME-07; activation order, Invalid Activations, Spawning, Advancing (tiers, Rush, Inferno), Opportunity
Attacks (order, Stunned, forced, Pin), Inferno and Coolant Leak Damage; the Advance property."""

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.errors import RuleViolation
from explorer.games.masseffect import options as O
from explorer.games.masseffect import sections as S
from explorer.games.masseffect.activation import (Activate, ActivateSpawned, Board, Choices, SpawnMinion, activate,
                                                  activate_enemy, advance, coolant_leak_end_of_turn,
                                                  inferno_start_of_round, opportunity_attacks, reachable_hexes,
                                                  resolve_hazard_card)
from explorer.games.masseffect.units import Enemy, Squadmate
from explorer.hexgrid import Hex, neighbors

from .me_fake_terrain import FakeTerrain

H = Hex


def sq(name, pos, hp=5, sh=0, **kw):
    return Squadmate(name, max(sh, 0), max(hp, 1), shield_points=sh, hit_points=hp, position=H(*pos), **kw)


def en(name, pos, av=2, tags=(), **kw):
    return Enemy(name, attack_value=av, shield_value=3, tags=frozenset(tags), position=H(*pos), **kw)


def run(terrain, board, name, rulings=None, choices=Choices()):
    return activate_enemy(terrain, board, name, choices, O.rulings(rulings))


# --- ME-06 / ME-07: target selection ----------------------------------------------------------------------------------

def me06_board():
    return Board((sq("Wrex", (1, 0), hp=4, sh=0), sq("Garrus", (0, 3), hp=3, sh=4), sq("Shepard", (-2, 2), hp=6)),
                 (en("Guardian", (0, 0), av=2, tags={"Ranged"}),), current="Shepard")


@pytest.mark.parametrize("reading,target", [("hit_points", "Garrus"), ("shields_and_hit_points", "Wrex")])
def test_me06_fewest_hit_points_readings(reading, target):
    b, steps = run(FakeTerrain(), me06_board(), "Guardian", {"fewest_hit_points": reading})
    pick = next(s for s in steps if s.title.startswith("Target:"))
    assert pick.facts["target"] == target
    assert {c["squadmate"] for c in pick.facts["candidates"] if c["potential"]} == {"Wrex", "Garrus", "Shepard"}


def me07_board(kind, tali_hp=2, current="Wrex"):
    e = en("Guardian", (0, 0), tags={"Ranged"}) if kind == "guardian" else en("Husk", (0, 0))
    return Board((sq("Wrex", (1, 0), hp=6), sq("Tali", (0, -3), hp=tali_hp), sq("Garrus", (3, 2), hp=5)), (e,),
                 current=current)


def target_of(steps):
    return next(s for s in steps if s.title.startswith("Target:")).facts


def test_me07_a_ranged_picks_fewest_hp_in_lof():
    _, steps = run(FakeTerrain(), me07_board("guardian"), "Guardian")
    assert target_of(steps)["target"] == "Tali"


def test_me07_b_no_ranged_only_adjacent():
    b, steps = run(FakeTerrain(), me07_board("husk"), "Husk")
    f = target_of(steps)
    assert f["target"] == "Wrex" and [c["squadmate"] for c in f["candidates"] if c["potential"]] == ["Wrex"]
    assert b.squadmate("Wrex").hit_points == 4


def test_me07_c_tie_current_players_choice():
    board = me07_board("guardian", tali_hp=6, current="Garrus")
    f = target_of(run(FakeTerrain(), board, "Guardian")[1])
    assert f["tied"] == ["Wrex", "Tali"] and f["target"] == "Wrex"  # default: seating order
    f = target_of(run(FakeTerrain(), board, "Guardian", choices=Choices(attack_target=("Tali",)))[1])
    assert f["target"] == "Tali"


def test_biotic_asari_controller_drops_ranged():
    board = me07_board("guardian")
    g = board.enemy("Guardian")
    from dataclasses import replace
    board = replace(board.with_enemy("Guardian", replace(g, biotic_effect=True)), asari_controller=True)
    f = target_of(run(FakeTerrain(), board, "Guardian")[1])
    assert f["target"] == "Wrex"
    assert board.squadmate("Wrex").hit_points == 6


# --- ME-03: a wall breaks adjacency: no Opportunity Attack, the Husk Advances ------------------------------------------

def test_me03_no_opportunity_attack_then_husk_advances():
    t = FakeTerrain().wall((0, 0), (1, 0))
    board = Board((sq("Garrus", (0, 0), hp=5, sh=3),), (en("Husk", (1, 0)),), current="Garrus")
    board, steps = opportunity_attacks(t, board, "Garrus", [H(0, 0), H(-1, 0)])
    assert not any("Opportunity Attack for" in s.title for s in steps) and steps[-1].title.startswith("No Opportunity")
    board, steps = run(t, board, "Husk")
    assert not any(s.title.startswith("Target:") for s in steps)
    adv = next(s for s in steps if "Advances" in s.title)
    kept = {c["hex"] for c in adv.facts["candidates"] if c["kept"]}
    assert kept == {"0,0", "0,-1", "-1,1"} and adv.facts["instruction"] == 1
    assert board.enemy("Husk").position in {H(0, 0), H(0, -1), H(-1, 1)}


# --- order, Stunned, Shrouded, Invalid Activations, Spawning ---------------------------------------------------------

def test_activation_order_closest_first_with_ties_by_choice():
    t = FakeTerrain()
    board = Board((sq("Shepard", (0, 0), hp=9),), (en("A", (3, 0)), en("B", (0, 2)), en("C", (-2, 0)),
                                                    en("D", (1, 0), stunned=True)), current="Shepard")
    _, steps = activate(t, board, ["A", "B", "C", "D"], Choices(), O.rulings())
    assert steps[0].facts["order"] == ["D", "B", "C", "A"]
    assert any("Stunned: not Activated" in s.title for s in steps)
    _, steps = activate(t, board, ["A", "B", "C", "D"], Choices(activation_order=("C",)), O.rulings())
    assert steps[0].facts["order"] == ["D", "C", "B", "A"]


def test_shrouded_enemy_not_activated():
    t = FakeTerrain(shrouded={H(3, 0)})
    board = Board((sq("Shepard", (0, 0)),), (en("Husk", (3, 0)),), current="Shepard")
    b2, steps = run(t, board, "Husk")
    assert replace(b2, log=(), scenes=()) == board and b2.log[-1].enemy == "Husk" and "Shrouded" in steps[0].title


def test_invalid_activation_spawns_once_per_type_at_closest_empty_spawn():
    t = FakeTerrain(spawns=(H(0, 1), H(3, 0), H(-3, 0)))
    bag = (Enemy("Husk 9", attack_value=2, shield_value=2), Enemy("Husk 10", attack_value=2, shield_value=2))
    board = Board((sq("Shepard", (0, 0)), sq("Garrus", (0, 1))), (en("Husk", (2, -2)),), current="Shepard", bag=bag)
    b2, steps = activate(t, board, ["Marauder", "Cannibal"], Choices(), O.rulings())
    spawned = [s.facts["hex"] for s in steps if "spawned" in s.facts]
    assert spawned == ["-3,0", "3,0"]  # (0,1) holds Garrus; tie at 3 -> smallest (q, r) first, then the other
    assert [s.rule.section for s in steps if s.title.startswith("Invalid")] == \
        ["Playing a Mission › Step C: Hazard Card › Invalid Activations"] * 2
    b3, steps = activate(t, board, ["Marauder"], Choices(spawn_hex=(H(3, 0),)), O.rulings())
    assert b3.enemy("Husk 9").position == H(3, 0)


def test_spawn_far_away_and_activate_spawned():
    t = FakeTerrain(spawns=(H(0, 2), H(0, -4)))
    bag = (Enemy("Husk 9", attack_value=2, shield_value=2),)
    board = Board((sq("Shepard", (0, 0), hp=9),), (), current="Shepard", bag=bag)
    b2, steps = resolve_hazard_card(t, board, [SpawnMinion("furthest"), ActivateSpawned()], Choices(), O.rulings())
    assert b2.enemy("Husk 9").position == H(0, -2)  # spawned at (0,-4), Advanced 2 toward Shepard
    b3, steps = resolve_hazard_card(t, board, [SpawnMinion("closest"), ActivateSpawned()], Choices(), O.rulings())
    # spawned at (0,2), not adjacent: it Advances next to Shepard; an Activation Attacks or Advances, not both
    assert b3.squadmate("Shepard").hit_points == 9 and FakeTerrain().adjacent(b3.enemy("Husk 9").position, H(0, 0))


def test_all_spawns_occupied():
    t = FakeTerrain(spawns=(H(0, 1),))
    board = Board((sq("Shepard", (0, 1)),), (), current="Shepard", bag=(Enemy("Husk 9", shield_value=2),))
    b2, steps = resolve_hazard_card(t, board, [SpawnMinion()], Choices(), O.rulings())
    assert replace(b2, scenes=(), hazard=()) == board and len(b2.scenes) == 1 and "every Spawn hex" in steps[0].title


# --- Advancing ------------------------------------------------------------------------------------------------------

def test_advance_never_into_characters_and_rush():
    t = FakeTerrain(radius=6)
    board = Board((sq("Shepard", (0, 0)), sq("Garrus", (5, 0))), (en("Husk", (4, 0)), en("Husk2", (3, 0))),
                  current="Shepard")
    reach = reachable_hexes(t, board, board.enemy("Husk2"), 2)
    assert H(4, 0) not in reach and H(0, 0) not in reach and reach[H(1, 0)].cost == 2
    board2 = Board(board.squadmates, (en("Runner", (5, -3), tags={"Rush"}),), current="Shepard")
    b, steps = advance(t, board2, board2.enemy("Runner"), Choices(), O.rulings())
    assert steps[0].facts["movement_points"] == 4 and steps[0].rule.section.endswith("The Rush Tag")


def test_advance_prefers_current_squadmate_then_nearest():
    t = FakeTerrain(radius=6)
    # Liara is nearest to the Husk, but the Husk can reach a hex adjacent to the current Squadmate Shepard
    board = Board((sq("Shepard", (0, 0)), sq("Liara", (3, -3))), (en("Husk", (2, 0)),), current="Shepard")
    b, steps = run(t, board, "Husk")
    assert t.adjacent(b.enemy("Husk").position, H(0, 0))
    # Shepard out of reach: end adjacent to the nearest (Liara)
    board = Board((sq("Shepard", (-5, 0)), sq("Liara", (2, -3))), (en("Husk", (2, 0)),), current="Shepard")
    b, steps = run(t, board, "Husk")
    assert t.adjacent(b.enemy("Husk").position, H(2, -3))
    assert next(s for s in steps if "Advances" in s.title).facts["instruction"] == 2


def test_minion_avoids_inferno_unless_no_other_way_elite_ignores():
    t = FakeTerrain(radius=6, inferno={H(1, 0)})
    board = Board((sq("Shepard", (-1, 0)),), (en("Husk", (2, 0)),), current="Shepard")
    b, steps = run(t, board, "Husk")
    adv = next(s for s in steps if "Advances" in s.title)
    dropped = [c for c in adv.facts["candidates"] if c["hex"] == "0,0"]
    # (0,0) is adjacent to Shepard: the only 2-MP way avoids (1,0)? (2,0)->(1,1)->(0,1)? (0,1) not adjacent to (-1,0)
    assert b.enemy("Husk").position in {H(0, 0), H(0, 1), H(-1, 1), H(0, -1), H(-1, -1)} or dropped
    # a corridor where the only way passes the Inferno: walls around (1,0)
    t2 = FakeTerrain(radius=6, inferno={H(1, 0)})
    for a, bb in [((2, 0), (2, -1)), ((2, 0), (1, 1)), ((2, 0), (3, -1)), ((2, 0), (3, 0)), ((2, 0), (2, 1))]:
        t2.wall(a, bb)
    b2, steps = run(t2, board, "Husk")
    assert b2.enemy("Husk").position == H(0, 0) and b2.enemy("Husk").damage == 1
    assert any(s.rule.section == "Map Features › Inferno Icons" for s in steps)
    elite = Enemy("Brute", kind="elite", attack_value=4, resilience=(3,), position=H(2, 0))
    b3, _ = run(t2, Board(board.squadmates, (elite,), current="Shepard"), "Brute")
    assert b3.enemy("Brute").position == H(0, 0) and b3.enemy("Brute").damage == 0


def test_elevation_one_way():
    t = FakeTerrain(radius=4)
    # everything around the Husk leads up except one hex: it must take the way down
    husk = H(0, 0)
    for n in neighbors(husk):
        t.up_blocked.add((husk, n))
    board = Board((sq("Shepard", (3, 0)),), (en("Husk", (0, 0)),), current="Shepard")
    b, steps = run(t, board, "Husk")
    assert b.enemy("Husk").position == husk and "stays" in steps[-1].title


def test_chosen_end_hex_used_or_refused():
    t = FakeTerrain().wall((0, 0), (1, 0))
    board = Board((sq("Garrus", (-1, 0)),), (en("Husk", (1, 0)),), current="Garrus")
    b, steps = run(t, board, "Husk", choices=Choices(advance_to={"Husk": H(0, -1)}))
    assert b.enemy("Husk").position == H(0, -1) and "player's choice" in steps[-1].detail
    b, steps = run(t, board, "Husk", choices=Choices(advance_to={"Husk": H(2, 0)}))
    assert b.enemy("Husk").position != H(2, 0) and "dropped" in steps[-1].detail


@st.composite
def advance_case(draw):
    t = FakeTerrain(radius=3)
    hexes = sorted(t.hexes)
    edges = sorted({(min(h, n), max(h, n)) for h in hexes for n in neighbors(h) if n in t.hexes})
    for a, b in draw(st.lists(st.sampled_from(edges), max_size=15)):
        t.walls.add(frozenset({a, b}))
    cells = draw(st.lists(st.sampled_from(hexes), min_size=3, max_size=6, unique=True))
    sqs = tuple(sq(f"S{i}", (c.q, c.r)) for i, c in enumerate(cells[:2]))
    ens = tuple(en(f"E{i}", (c.q, c.r), tags={"Rush"} if draw(st.booleans()) else ())
                for i, c in enumerate(cells[2:]))
    return t, Board(sqs, ens, current=sqs[draw(st.integers(0, 1))].name)


@pytest.mark.slow
@settings(max_examples=100, deadline=None)
@given(advance_case())
def test_advance_never_ends_farther_when_closer_hex_exists(case):
    t, board = case
    e = board.enemies[0]
    b, steps = advance(t, board, e, Choices(), O.rulings())
    assert len(b.scenes) == len(steps)                     # one scene per step: what the page draws
    end = b.enemy(e.name).position
    facts = steps[0].facts
    if facts["instruction"] == 1:
        target = [board.squadmate(board.current)]
    elif facts["nearest"]:
        target = [board.squadmate(n) for n in facts["nearest"]]
    else:
        return
    def d(h):
        ds = [t.distance(h, s.position) for s in target]
        return min(x for x in ds if x is not None)
    assert d(end) <= d(e.position)
    closer = [c for c in facts["candidates"] if d(Hex.parse(c["hex"])) < d(e.position)]
    if closer:
        assert d(end) < d(e.position)


# --- Opportunity Attacks --------------------------------------------------------------------------------------------

def test_opportunity_attacks_order_stunned_forced_and_pin():
    t = FakeTerrain()
    board = Board((sq("Garrus", (0, 0), hp=9, sh=3),),
                  (en("Low", (1, 0), av=1), en("High", (0, 1), av=3), en("Zzz", (-1, 1), av=5, stunned=True)),
                  current="Garrus")
    b, steps = opportunity_attacks(t, board, "Garrus", [H(0, 0), H(1, -1), H(1, -2), H(1, -3)])
    oa = [s.facts["enemy"] for s in steps if "Opportunity Attack for" in s.title]
    assert oa == ["High", "Low"]  # (1,-1) is still adjacent to Low (1,0): Low attacks on the next step
    first = [i for i, s in enumerate(steps) if "Opportunity Attack for" in s.title]
    assert "(0,0 -> 1,-1)" in steps[first[0]].title and "(1,-1 -> 1,-2)" in steps[first[1]].title
    b, steps = opportunity_attacks(t, board, "Garrus", [H(0, 0), H(0, -1), H(0, -2)])
    oa = [s.facts["enemy"] for s in steps if "Opportunity Attack for" in s.title]
    assert oa == ["High", "Low"] and "Highest Attack Value first" in steps[2].detail and b.squadmate("Garrus").shield_points == 0 and b.squadmate("Garrus").hit_points == 8
    assert any("Stunned: no Opportunity Attack" in s.title for s in steps)
    b, steps = opportunity_attacks(t, board, "Garrus", [H(0, 0), H(0, -1), H(0, -2)], forced=True)
    assert b.squadmate("Garrus").shield_points == 3
    pinned = Board(board.squadmates, (en("Pinner", (1, 0), av=1, tags={"Pin"}),), current="Garrus")
    b, steps = opportunity_attacks(t, pinned, "Garrus", [H(0, 0), H(-1, 0), H(-2, 0), H(-3, 0)])
    assert b.squadmate("Garrus").position == H(-1, 0) and steps[-1].rule.section.endswith("The Pin Tag")


def test_move_errors_and_fast_travel():
    t = FakeTerrain(fast_travel={H(0, 0): H(3, 0), H(3, 0): H(0, 0)})
    board = Board((sq("Garrus", (0, 0)), sq("Liara", (0, 1))), (en("Husk", (1, 0), av=3),), current="Garrus")
    with pytest.raises(RuleViolation, match="Husk is there") as e:
        opportunity_attacks(t, board, "Garrus", [H(0, 0), H(1, 0)])
    r = e.value.rejection                            # the refusal names the rule, the field and the reason
    assert (r.field, r.step, e.value.section) == ("path[1]", "Step B: Move", S.BASIC_ACTIONS.section)
    with pytest.raises(RuleViolation, match="with Liara"):
        opportunity_attacks(t, board, "Garrus", [H(0, 0), H(0, 1)])
    b, steps = opportunity_attacks(t, board, "Garrus", [H(0, 0), H(3, 0)])
    assert b.squadmate("Garrus").hit_points == 5 and any("Fast Travel" in s.title for s in steps)


# --- Inferno, Coolant Leaks ---------------------------------------------------------------------------------------------

def test_inferno_start_of_round_and_coolant():
    t = FakeTerrain(inferno={H(0, 0), H(2, 0), H(3, 0)}, coolant={H(-1, 0)})
    brute = Enemy("Brute", kind="elite", attack_value=4, resilience=(3,), position=H(3, 0))
    board = Board((sq("Shepard", (0, 0), hp=5, sh=1), sq("Liara", (-1, 0), hp=5)),
                  (Enemy("Husk", shield_value=1, position=H(2, 0)), brute), current="Liara")
    b, steps = inferno_start_of_round(t, board)
    assert b.squadmate("Shepard").shield_points == 0 and b.enemy("Husk") is None and b.returned_to_bag == ("Husk",)
    assert b.enemy("Brute").damage == 0
    b, steps = coolant_leak_end_of_turn(t, b, "Liara")
    assert b.squadmate("Liara").hit_points == 3 and steps[0].rule.section == "Map Features › Coolant Leaks"


def test_shepard_downed_stops_the_card():
    t = FakeTerrain()
    board = Board((sq("Shepard", (0, 0), hp=2),), (en("A", (1, 0), av=3), en("B", (-1, 0), av=3)), current="Shepard")
    b, steps = resolve_hazard_card(t, board, [Activate(("A", "B"))], Choices(), O.rulings())
    assert b.failed and steps[-1].title.startswith("Shepard is Downed")
    assert sum(1 for s in steps if "Attacks Shepard" in s.title) == 1
