"""Faults found in the merged round work (session 8), each pinned by a test: Area damage cites 8.4 (not 11.6 Prime
Swarm Units), a plain Action cites 6.2.1 Agent Turn (not 6.2.1.1), wounds shown never pass the Health points (an
overkill is said in words; the JSON keeps the true count of wounds suffered), "no wound" after Energy Shields
absorbed hits cites the shield section (9.5.2.3 / 11.7), and a fixed Defend roll too short for a target whose name
holds a space is refused in one line naming the whole name."""

from __future__ import annotations

import re
import tomllib

import pytest
from test_hostile_files import to_toml

from explorer.errors import ScenarioError
from explorer.games import get_game, load_any
from explorer.games.galaxydefenders.combat import TargetState, suffer_wounds, wound_tally

from .helpers import resolve

GAME = get_game("galaxydefenders")


def _run(doc: dict):
    game, sc = load_any("x.toml", text=to_toml(doc))
    return game.resolve(sc)


def _area_doc() -> dict:
    doc = tomllib.loads(GAME.scenario_text("gd-explosion-map"))
    doc["attacks"][0]["damage"] = "area"
    return doc


# 1. Area damage: 8.4 (Explosion works like Area Damage), not 11.6 Prime Swarm Units

def test_area_damage_without_a_map_cites_8_4_not_prime_swarm():
    tr = resolve("gd-master-push")
    step = next(s for s in tr.steps if s.title.startswith("Area damage reaches"))
    assert step.rule.section == "8.4 Explosion"
    assert not any(s.rule.section.startswith("11.6") for s in tr.steps)


def test_area_damage_on_a_map_cites_8_4_not_prime_swarm():
    tr = _run(_area_doc())
    for title in ("Areas from the map", "Area damage reaches"):
        step = next(s for s in tr.steps if s.title.startswith(title))
        assert step.rule.section == "8.4 Explosion", title
    assert not any(s.rule.section.startswith("11.6") for s in tr.steps)


# 2. A plain Action: 6.2.1 Agent Turn; a Free Action: 6.2.1.1

def _round(activities):
    return _run({"game": "galaxydefenders", "kind": "round", "agents": [{"name": "Marine"}, {"name": "Hulk"}],
                 "turns": [{"agent": "Marine", "activities": activities}]})


def test_a_plain_action_cites_the_agent_turn_and_a_free_action_6_2_1_1():
    tr = _round([{"kind": "action", "what": "search"}, {"kind": "free_action", "what": "tactic"}])
    action = next(s for s in tr.steps if s.title == "Marine: Action (search)")
    free = next(s for s in tr.steps if s.title == "Marine: Free Action (tactic)")
    assert action.rule.section == "6.2.1 Agent Turn"
    assert free.rule.section == "6.2.1.1 Free Action Activity"


# 3. Wounds shown never pass the Health points

@pytest.mark.parametrize(("wounds", "health", "text"), [
    (0, 6, "0/6"), (5, 6, "5/6"), (6, 6, "6/6"), (7, 6, "6/6 (1 more wound than it had left)"),
    (9, 6, "6/6 (3 more wounds than it had left)")])
def test_wound_tally(wounds, health, text):
    assert wound_tally(wounds, health) == text


def test_wound_tally_puts_the_unit_before_the_overkill_words(capsys):
    """The round's summary and the attack page say "3/3 wounds (1 more wound than it had left)"; they said
    "3/3 (1 more wound than it had left) wounds" (gd-round-prime-swarm's summary)."""
    from explorer.cli import main
    assert wound_tally(4, 3, "wounds") == "3/3 wounds (1 more wound than it had left)"
    assert wound_tally(1, 3, "wounds") == "1/3 wounds"
    assert main(["resolve", "gd-round-prime-swarm"]) == 0
    out = capsys.readouterr().out
    assert "Sentinels 3/3 wounds (1 more wound than it had left), Poison 0, dead" in out


def test_an_overkill_is_said_in_words_and_the_facts_keep_the_true_count():
    t, steps = suffer_wounds(TargetState("Xeno", "alien", 6, 5), 2, "hits not cancelled")
    assert steps[0].title == "Xeno suffers 2 wounds (hits not cancelled): 6/6 (1 more wound than it had left)"
    assert steps[0].facts["total"] == 7 and steps[0].facts["wounds"] == 2 and t.wounds == 7


def test_no_text_of_an_overkilled_target_shows_more_wounds_than_health():
    doc = _area_doc()
    doc["attacks"][0]["damage"] = "single"
    doc["targets"][0]["wounds"] = doc["targets"][0]["health"] - 1
    tr = _run(doc)
    for s in tr.steps:
        for a, b in re.findall(r"(\d+)/(\d+)", s.title + " " + s.detail):
            assert int(a) <= int(b), s.title
    assert tr.outcome["targets"]["Xeno-Gamma"]["wounds"] > doc["targets"][0]["health"]   # JSON: the true count


def test_the_round_summary_never_shows_more_wounds_than_health():
    doc = tomllib.loads(GAME.scenario_text("gd-round-map"))
    critter = next(a for a in doc["aliens"] if a["name"] == "Flying Critter")
    critter["wounds"] = 2                                               # 2 more wounds: 4 of 3 Health points
    tr = _run(doc)
    assert "Flying Critter 3/3 wounds (1 more wound than it had left)" in tr.result.summary
    for s in tr.steps:
        for a, b in re.findall(r"(\d+)/(\d+)", s.title + " " + s.detail):
            assert int(a) <= int(b), s.title
    assert tr.outcome["aliens"]["Flying Critter"]["wounds"] == 4         # JSON: the true count of wounds suffered


# 4. "no wound" after Energy Shields absorbed hits cites the shield section

def test_no_wound_after_the_power_suit_absorbed_cites_9_5_2_3():
    tr = resolve("gd-round-map-suit")
    step = next(s for s in tr.steps if s.title == "Marine suffers no wound")
    assert step.rule.section == "9.5.2.3 Energy Shields"


def test_no_wound_after_a_shield_stack_absorbed_cites_11_7_book_example_2():
    tr = resolve("gd-book-shields-2")
    step = next(s for s in tr.steps if s.title == "Xeno-Delta suffers no wound")
    assert step.rule.section == "11.7 Multiple Energy Shielded Armor"


def test_no_wound_from_the_defend_roll_alone_cites_the_attacks_combat_rule():
    """The Defend roll is the Core Set's, kept by 9.2 for an agent's attack (5.5.1 High Impact only counts the
    dice; it cited 5.5.1, newcomer, session 10)."""
    tr = resolve("gd-menace-combat")
    step = next(s for s in tr.steps if s.title == "Wormoon suffers no wound")
    assert step.rule.section == "9.2 Combat"


# 6. The Defend roll cites the section that keeps it for the attacker's side; High Impact counts the dice

@pytest.mark.parametrize("kind, section", [("agent", "9.2 Combat"), ("drone", "9.2 Combat"),
                                           ("alien", "11.12 Combat"), ("master_alien", "11.12 Combat"),
                                           ("npc", "10.2.2 NPC Combat")])
def test_the_defend_roll_cites_the_attackers_combat_rule(kind, section):
    from explorer.games.galaxydefenders.combat import combat_rule

    assert combat_rule(kind).section == section


def test_a_defend_roll_in_a_built_in_cites_9_2_for_an_agent_11_12_for_an_alien_and_5_5_1_counts_the_dice():
    t = resolve("gd-round-range")
    rolls = [s for s in t.steps if "shield result" in s.title and "cancel" in s.title]
    assert [s.rule.section for s in rolls] == ["9.2 Combat", "11.12 Combat", "11.12 Combat"]
    counts = [s for s in t.steps if "rolls" in s.title and "Blue di" in s.title]
    assert counts and all(s.rule.section == "Storybook 5.5.1 High Impact" for s in counts)


# 5. A fixed Defend roll too short, for a target whose name holds a space

def test_a_short_defend_list_names_the_whole_target_name_in_one_line():
    doc = _area_doc()
    doc["attacks"][0]["damage"] = "single"
    doc["targets"][0]["name"] = "Xeno Gamma"
    doc["attacks"][0]["target"] = "Xeno Gamma"
    doc["attacks"][0]["rolled"] = {"defend": {"Xeno Gamma": []}}
    doc["attacks"][0].pop("dice", None)
    doc["attacks"][0]["fixed_hits"] = 3
    with pytest.raises(ScenarioError) as e:
        _run(doc)
    assert e.value.field == "attacks[0].rolled.defend.Xeno Gamma"
    assert e.value.problem.startswith("0 faces given but Xeno Gamma's Defend roll rolls 3 Blue dice")
    assert e.value.allowed == "exactly 3 faces" and "\n" not in str(e.value)


def test_a_roller_script_running_out_is_one_line_without_a_made_up_field():
    from explorer.dice import ScriptedRoller
    from explorer.games.galaxydefenders.combat import with_source

    with pytest.raises(ScenarioError) as e:
        with with_source("x.toml", "attacks[0]."):
            ScriptedRoller([]).roll(6, "Blue die")
    assert e.value.field == "attacks[0]" and "the dice script ran out" in e.value.problem
