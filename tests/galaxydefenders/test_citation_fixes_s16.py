"""Citation audit (session 16), each fix pinned on a built-in scenario: an alien or NPC that flies over Barrier Hex
Sides cites 7.1.2 Aliens and NPCs (the sub-section that gives them the crossing; 7.1 only opens the Flying power), and
a drone that reaches 0 Health points in a round cites its Device's own section (9.7.4.2 Vigil: "when Vigil reaches
0 HPs, it is destroyed"), not 9.3.1 Health Points, which only introduces the double-sided wound token."""

from __future__ import annotations

from .helpers import resolve


def test_a_flying_alien_crossing_barriers_cites_7_1_2():
    for name in ("gd-ai-seize-1", "gd-round-drones"):
        steps = [s for s in resolve(name).steps if s.title.endswith("flies: it crosses Barrier Hex Sides")]
        assert steps, name
        assert {s.rule.section for s in steps} == {"7.1.2 Aliens and NPCs"}, name


def test_a_burrowing_alien_still_cites_7_2():
    steps = [s for s in resolve("gd-round-map-suit").steps if s.title.endswith("burrows: it crosses Barrier Hex Sides")]
    assert steps and {s.rule.section for s in steps} == {"7.2 Burrowing"}


def test_a_drone_destroyed_in_a_round_cites_its_device_not_9_3_1():
    tr = resolve("gd-round-drones")
    dies = [s for s in tr.steps if s.title == "Vigil (Marine) dies"]
    assert len(dies) == 1 and dies[0].rule.section == "9.7.4.2 Vigil"
    assert not [s for s in tr.steps if s.rule.section == "9.3.1 Health Points" and "Vigil" in s.title]


def test_an_alien_or_agent_at_zero_is_unchanged_by_the_drone_fix():
    """Only the drone's step moves: an NPC's death stays 10.4 (the round's NPC reshuffle scenario)."""
    tr = resolve("gd-round-npc-reshuffle")
    assert [s.rule.section for s in tr.steps if s.title == "Sgt. Rock dies"] == ["10.4 NPC Health Status"]
