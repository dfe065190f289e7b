"""Issue 19 audit: the standalone ``strategy`` kind applies what each Core Ability trigger does to the Squadmate's
element, before the icons are re-rolled (Core Abilities; the sizes are the stand-in sheet's): Shepard's Ready
Command tokens, Garrus' Aim Tracker, Liara's Analysis token, Wrex's Rage tokens. What needs the map (Blood Rage's
Damage, Chatika's move and attack) is said in the step and left to the round kind."""

import copy
from importlib import resources

import pytest

from explorer.errors import ScenarioError
from explorer.games.masseffect import sections as S
from explorer.games.masseffect.strategy_scenario import parse_strategy, resolve_strategy
from explorer.scenario import read_toml


def load(name):
    return read_toml(resources.files("explorer.games.masseffect") / "scenarios" / f"{name}.toml")


def effects(t):
    return [s for s in t.steps if "core" in s.facts]


def test_liara_analysis_token_moves_one_space_per_trigger_before_the_reroll():
    t = resolve_strategy(parse_strategy(load("me-strategy-reroll-loop"), "x"))
    eff = effects(t)
    assert [s.facts["core"] for s in eff] == [1, 2, 3, 4]
    assert all(s.rule == S.COMMENTARY_LIARA for s in eff)
    titles = [s.title for s in t.steps]
    assert titles.index(eff[2].title) < next(i for i, x in enumerate(titles) if x.startswith("Re-roll 3"))
    assert titles.index(eff[3].title) > next(i for i, x in enumerate(titles) if x.startswith("Re-roll 3"))


def test_the_track_stops_at_its_end_and_starts_where_the_file_says():
    d = load("me-strategy-reroll-loop")
    d["squadmate"]["core_track"] = 3
    t = resolve_strategy(parse_strategy(d, "x"))
    assert [s.facts["core"] for s in effects(t)] == [4, 4, 4, 4]
    assert "Analysis (trigger 2): the Analysis token is at the end of its track (4): no space to move" in [
        s.title for s in t.steps]


def test_core_track_past_the_sheet_is_refused():
    d = load("me-strategy-reroll-loop")
    d["squadmate"]["core_track"] = 5
    with pytest.raises(ScenarioError, match="squadmate.core_track"):
        parse_strategy(d, "x")


@pytest.mark.parametrize("who,start,rule", [
    ("Shepard", "Command (trigger 1): a Command token flipped to its Ready side (1 of 3 Ready)",
     S.COMMENTARY_SHEPARD_COMMAND),
    ("Garrus", "Aim (trigger 1): the Aim Tracker moves one space right (Aim Value 0 -> 1 of 5)", S.CORE_ABILITIES),
    ("Wrex", "Blood Rage (trigger 1): a Calm Rage token flipped to its Enraged side (1 of 3 Enraged); its 1 Damage "
             "to each Enemy adjacent to Wrex is not dealt here", S.COMMENTARY_WREX_RAGE),
    ("Tali", "Combat Drone (trigger 1): Chatika's move and attack are not played here", S.COMMENTARY_TALI_DRONE),
])
def test_each_squadmate_s_trigger_effect(who, start, rule):
    d = copy.deepcopy(load("me-strategy-reroll-loop"))
    d["squadmate"]["name"] = who
    t = resolve_strategy(parse_strategy(d, "x"))
    first = effects(t)[0]
    assert first.title == start and first.rule == rule
    assert len(effects(t)) == t.outcome["triggers"] == 4
