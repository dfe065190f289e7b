"""Citation audit (session 11), each fix pinned on a built-in scenario: an alien's "closest agent (drones and NPCs
count as agents)" target cites 11 The Aliens (the chapter's opening; not 11.11 Movement), a wound from hits not
cancelled cites Storybook 5.5.1 High Impact (not 9.3.1, which only introduces the wound token), an agent's plain walk
cites 6.2 Battle Phase and says the movement cost is the Core Set's (not 6.2.1 Agent Turn), and a Device that deploys
a drone names its own sub-section (GD-5 is 9.7.4.3, not 9.7.4.1)."""

from __future__ import annotations

import tomllib

from test_hostile_files import to_toml

from explorer.games import get_game, load_any

from .helpers import resolve

GAME = get_game("galaxydefenders")


def _steps(tr, start: str):
    return [s for s in tr.steps if s.title.startswith(start)]


# 1. Targeting: 11 The Aliens (drones and NPCs count as agents), in the A.I. and in a round's Close Encounter

def test_the_closest_agent_target_cites_chapter_11_in_the_ai_and_in_a_round():
    for name in ("gd-ai-move-adjacent", "gd-round-map"):
        steps = _steps(resolve(name), "Target: the closest agent")
        assert steps, name
        for s in steps:
            assert s.rule.section == "11 The Aliens", name
            # the timing is stated in 11.3.1 (Master Aliens) as true of every alien (session 16)
            assert 'start of the activation: 11.3.1 says so of Master Aliens "like any standard alien"' in s.detail


# 2. Wounds from hits not cancelled: Storybook 5.5.1 (each remaining hit deals one wound)

def test_hits_not_cancelled_wounds_cite_high_impact():
    for name in ("gd-agent-attack", "gd-round-map", "gd-book-high-impact"):
        steps = [s for s in resolve(name).steps if "(hits not cancelled)" in s.title]
        assert steps, name
        assert {s.rule.section for s in steps} == {"Storybook 5.5.1 High Impact"}, name


def test_hits_not_cancelled_wounds_with_high_impact_off_cite_the_attacks_combat_rule():
    for name, section in (("gd-agent-attack", "9.2 Combat"), ("gd-book-mark", "11.12 Combat")):
        doc = tomllib.loads(GAME.scenario_text(name))
        doc["high_impact"] = False
        game, sc = load_any("x.toml", text=to_toml(doc))
        steps = [s for s in game.resolve(sc).steps if "(hits not cancelled)" in s.title]
        assert steps, name
        for s in steps:
            assert s.rule.section == section, name
            assert "the Core Set's rule" in s.detail


# 3. An agent's plain walk: 6.2 Battle Phase, the movement cost being the Core Set's

def test_a_plain_walk_cites_the_battle_phase_and_names_the_core_set_cost():
    steps = _steps(resolve("gd-round-map"), "Marine walks")
    assert steps
    for s in steps:
        assert s.rule.section == "6.2 Battle Phase"
        assert "Core Set's movement cost rule" in s.detail


def test_a_drone_walk_keeps_its_device_section_without_the_agent_cost_sentence():
    steps = [s for s in resolve("gd-round-drones").steps if " walks " in s.title and "Vigil" in s.title]
    assert steps
    for s in steps:
        assert s.rule.section == "9.7.4.2 Vigil"
        assert "Core Set" not in s.detail


# 4. A deploying Device names its own sub-section

def test_the_gd5_device_names_9_7_4_3():
    steps = [s for s in resolve("gd-round-drones").steps if "uses GD-5" in s.title]
    assert steps
    for s in steps:
        assert "as 9.7.4.3 says" in s.title
        assert "9.7.4.1" not in s.title


def test_an_npcs_targeting_time_is_not_cited_as_the_master_alien_rule():
    """Session 16: 11.3.1 states the timing for aliens only; an NPC's step says 10.2 gives it no other time."""
    steps = _steps(resolve("gd-ai-npc-plus"), "Target: the closest alien")
    assert steps
    for s in steps:
        assert s.rule.section == "10.2.1 NPC Movement"
        assert "the book states it for aliens (11.3.1); 10.2 gives an NPC no other time" in s.detail
        assert "Master Aliens" not in s.detail
