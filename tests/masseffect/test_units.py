"""Squadmates and enemies (explorer.games.masseffect.units): Squadmate Damage, Damaging Enemies, Elites' Resilience
Tracker, Stun, Biotic Effects, End Phase, On Point, Medi-gel, XP, Intel."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from explorer.errors import RuleViolation
from explorer.games.masseffect import options as O
from explorer.games.masseffect.units import (Enemy, Squadmate, defeat_earns_xp, enemy_damage, enemy_end_phase,
                                             gain_xp, give_biotic_effect, intel_at_mission_end, medi_gel,
                                             mission_failed, pass_on_point, restore_shields, squadmate_damage, stun)


def sq(name="Garrus", s=3, h=5, **kw):
    return Squadmate(name, s, h, **kw)


# --- Squadmate Damage ----------------------------------------------------------------------------------------------

def test_shields_then_hit_points():
    g, steps = squadmate_damage(sq(), 4)
    assert (g.shield_points, g.hit_points, g.downed) == (0, 4, False)
    assert steps[0].rule.section.endswith("Squadmate Damage")


def test_downed_at_zero_and_excess_lost():
    g, steps = squadmate_damage(sq(s=1, h=2), 9)
    assert (g.shield_points, g.hit_points, g.downed) == (0, 0, True)
    assert steps[-1].rule.section.endswith("Downed Squadmates")
    assert not mission_failed([g])


def test_shepard_downed_fails_the_mission():
    s, steps = squadmate_damage(sq("Shepard", 0, 2), 2)
    assert s.downed and s.commander and mission_failed([s])
    assert steps[-1].facts["mission_failed"] and steps[-1].rule.section.endswith("Mission Commander")


def test_downed_squadmate_suffers_nothing():
    g = sq(downed=True)
    g2, steps = squadmate_damage(g, 3)
    assert g2 == g and "already Downed" in steps[0].title


@given(st.integers(0, 6), st.integers(1, 8), st.integers(0, 20))
def test_damage_conserves_points(s, h, amount):
    before = sq(s=s, h=h)
    after, _ = squadmate_damage(before, amount)
    lost = before.damage_to_down - (after.shield_points + after.hit_points)
    assert lost == min(amount, s + h)
    assert after.downed == (amount >= s + h)
    # shields go first: Hit Points only drop once shields are at 0
    assert after.hit_points == h or after.shield_points == 0


# --- Damaging Enemies: Minions -------------------------------------------------------------------------------------

def test_minion_defeated_when_damage_reaches_shield_value():
    husk = Enemy("Husk", attack_value=2, shield_value=3, damage=1)
    r = enemy_damage(husk, 1)
    assert not r.defeated and r.enemy.damage == 2
    r = enemy_damage(r.enemy, 1)
    assert r.defeated and r.enemy is None
    assert "Enemy Bag" in r.steps[0].detail


def test_react_tag_reported_only_when_not_defeated():
    e = Enemy("Marauder", shield_value=4, tags={"React"})
    assert enemy_damage(e, 2, by="Liara").react
    assert enemy_damage(e, 2, by="Liara").steps[-1].facts["react_toward"] == "Liara"
    assert not enemy_damage(e, 4, by="Liara").react
    assert not enemy_damage(Enemy("Husk", shield_value=4), 2).react
    assert not enemy_damage(e, 0).react


def test_shrouded_enemy_cannot_be_targeted():
    with pytest.raises(RuleViolation, match="Shrouded"):
        enemy_damage(Enemy("Husk", shield_value=2, shrouded=True), 1)


# --- Elites ---------------------------------------------------------------------------------------------------------

def ravager(**kw):
    return Enemy("Ravager", kind="elite", attack_value=3, resilience=(4, 6, 5), **kw)


def test_me09_excess_damage_disregarded():
    r1 = enemy_damage(ravager(damage=2), 5, by="Shepard")
    assert (r1.exhausted_level, r1.discarded, r1.enemy.damage, r1.enemy.exhausted) == (1, 3, 0, 1)
    r2 = enemy_damage(r1.enemy, 7, by="Garrus")
    assert (r2.exhausted_level, r2.discarded, r2.enemy.damage, r2.enemy.exhausted) == (2, 1, 0, 2)
    assert not r2.defeated and r2.enemy.current_shield_value == 5


def test_rulebook_ravager_example_still_needs_5():
    r1 = enemy_damage(ravager(), 4)
    e, _ = enemy_end_phase(r1.enemy)
    r2 = enemy_damage(e, 6)
    assert r2.enemy.exhausted == 2 and r2.enemy.current_shield_value - r2.enemy.damage == 5
    assert not enemy_damage(r2.enemy, 4).defeated
    assert enemy_damage(r2.enemy, 5).defeated


def test_elite_damage_below_level_accumulates_and_end_phase_keeps_levels():
    r = enemy_damage(ravager(exhausted=1), 5)
    assert r.enemy.damage == 5 and r.exhausted_level is None
    e, steps = enemy_end_phase(r.enemy)
    assert e.damage == 0 and e.exhausted == 1 and steps


@given(st.lists(st.integers(1, 9), min_size=1, max_size=5), st.lists(st.integers(0, 20), max_size=12))
def test_one_level_per_attack_at_most(tracker, attacks):
    e = Enemy("Elite", kind="elite", resilience=tuple(tracker))
    for a in attacks:
        r = enemy_damage(e, a)
        if r.defeated:
            assert e.exhausted == len(tracker) - 1 and a + e.damage >= tracker[-1]
            return
        assert r.enemy.exhausted - e.exhausted in (0, 1)
        assert r.enemy.damage < r.enemy.current_shield_value
        assert (r.exhausted_level is not None) == (e.damage + a >= e.current_shield_value)
        e = r.enemy


# --- Stun, Biotic Effects, End Phase ---------------------------------------------------------------------------------

def test_stun_minion_not_elite():
    h, steps = stun(Enemy("Husk", shield_value=2))
    assert h.stunned and not h.active
    with pytest.raises(RuleViolation, match="only Minions"):
        stun(ravager())


@pytest.mark.parametrize("av,expected", [(3, 1), (2, 0), (1, 0), (0, 0), (5, 3)])
def test_biotic_effect_minus_two_minimum_zero(av, expected):
    e, _ = give_biotic_effect(Enemy("Husk", attack_value=av))
    assert e.effective_attack_value == expected
    e2, steps = give_biotic_effect(e)
    assert e2 == e and "already" in steps[0].title


def test_end_phase_flips_stunned_unless_shrouded():
    e, _ = enemy_end_phase(Enemy("Husk", stunned=True, damage=0, biotic_effect=True, shield_value=3))
    assert not e.stunned and not e.biotic_effect
    s, _ = enemy_end_phase(Enemy("Husk", stunned=True, shrouded=True, biotic_effect=True))
    assert s.stunned and not s.biotic_effect


def test_restore_shields():
    g, _ = squadmate_damage(sq(), 2)
    g2, steps = restore_shields(g)
    assert g2.shield_points == 3 and g2.hit_points == 5 and steps
    d = sq(downed=True, shield_points=0)
    assert restore_shields(d) == (d, [])


# --- On Point ------------------------------------------------------------------------------------------------------

SEATS = [sq("Shepard"), sq("Garrus"), sq("Liara"), sq("Wrex")]


def test_on_point_right_hand_neighbour_is_previous_in_turn_order():
    name, steps = pass_on_point(SEATS, "Shepard", O.rulings())
    assert name == "Wrex"
    name, _ = pass_on_point(SEATS, "Liara", O.rulings())
    assert name == "Garrus"


def test_on_point_next_in_turn_order_reading():
    r = O.rulings({"on_point_direction": "next_in_turn_order"})
    assert pass_on_point(SEATS, "Shepard", r)[0] == "Garrus"
    assert pass_on_point(SEATS, "Wrex", r)[0] == "Shepard"


def test_on_point_skips_downed():
    seats = [sq("Shepard"), sq("Garrus"), sq("Liara", downed=True), sq("Wrex", downed=True)]
    name, steps = pass_on_point(seats, "Shepard", O.rulings())
    assert name == "Garrus" and steps[0].facts["skipped"] == ["Wrex", "Liara"]
    alone = [sq("Shepard"), sq("Garrus", downed=True)]
    assert pass_on_point(alone, "Shepard", O.rulings())[0] == "Shepard"


# --- Medi-gel, XP, Intel ---------------------------------------------------------------------------------------------

def test_medi_gel_up_to_two_not_above_max():
    r = O.rulings()
    assert medi_gel(sq("Liara"), sq(hit_points=2), 2, r)[0].hit_points == 4
    assert medi_gel(sq("Liara"), sq(hit_points=4), 1, r)[0].hit_points == 5
    with pytest.raises(RuleViolation, match="within 2"):
        medi_gel(sq("Liara"), sq(hit_points=2), 3, r)


def test_medi_gel_on_downed_by_ruling():
    with pytest.raises(RuleViolation, match="Revive"):
        medi_gel(sq("Liara"), sq(downed=True), 1, O.rulings())
    g, steps = medi_gel(sq("Liara"), sq(downed=True), 1, O.rulings({"medi_gel_on_downed": "restores_and_revives"}))
    assert g.hit_points == 2 and not g.downed and steps[0].facts["revived"]


def test_xp_capped_at_three_per_mission():
    g, steps = gain_xp(sq(xp=2), "Husk")
    assert g.xp == 3 and "unlock" in steps[0].title
    g2, steps = gain_xp(g, "Husk")
    assert g2.xp == 3 and steps[0].facts["gained"] == 0


@pytest.mark.parametrize("reading,core,grenade", [("none", False, False), ("core_abilities", True, False),
                                                  ("core_abilities_and_grenades", True, True)])
def test_xp_sources_by_ruling(reading, core, grenade):
    r = O.rulings({"xp_outside_actions": reading})
    assert defeat_earns_xp("action", r) and not defeat_earns_xp("inferno", r)
    assert defeat_earns_xp("core_ability", r) == core and defeat_earns_xp("grenade", r) == grenade


def test_intel_marks_boxes_left_to_right():
    marked, unlocks, _ = intel_at_mission_end(2, 1, icon_boxes=[3, 6], boxes_total=8)
    assert marked == 3 and unlocks == [3]
    marked, unlocks, _ = intel_at_mission_end(5, 6, icon_boxes=[3, 6, 8], boxes_total=8)
    assert marked == 8 and unlocks == [8]
