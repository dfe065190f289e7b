"""A newcomer's faults in the round file and its trace (session 10): every value whose bound depends on other data
is checked against that data (``analysis_token`` against the sheet's Analysis track, ``intel_unlocks`` against the
icon boxes the file's Intel Cache tokens can reach), every field is strictly typed (no ``true`` or ``"3"`` read as a
number, no ``1`` or ``"yes"`` read as true), Mission Action ``hexes`` is never empty nor repeats a hex, a round never
starts with Shepard Downed (Mission Commander), the War Readiness step states the rulebook's Paragon > Renegade
order as the book's ("usually"), the Strategy Pool counts the dice it lists, a refusal of a Mission Action rule's
Objective names fields the file has, On Point "stays" with a lone Squadmate for the right reason, and Liara's
Analysis ``when`` has the name of its ruling reading (``until_hazard_card``; the old ``before_hazard_card`` loads)."""

import copy
import re
from pathlib import Path

import pytest

from explorer.errors import ScenarioError
from explorer.games import get_game
from explorer.games.masseffect.round import parse_round, resolve_round
from explorer.games.masseffect.round_view import position_text, round_positions
from explorer.scenario import read_toml

SCENARIOS = Path(__file__).parents[2] / "explorer" / "games" / "masseffect" / "scenarios"
ROUND_FILES = sorted(SCENARIOS.glob("me-round-*.toml"))


def data(name):
    return read_toml(SCENARIOS / f"{name}.toml")


def refused(d) -> ScenarioError:
    with pytest.raises(ScenarioError) as e:
        parse_round(d, "x.toml")
    assert "\n" not in str(e.value)
    return e.value


# --- 1. bounds that depend on other data ----------------------------------------------------------------------------

def test_analysis_token_beyond_the_track_is_refused_naming_the_field_and_the_range():
    d = data("me-round-analysis")
    d["analysis_token"] = 4                                     # the stand-in track has 4 spaces: the last one
    parse_round(d, "x.toml")
    d["analysis_token"] = 5
    e = refused(d)
    assert e.field == "analysis_token" and "0 to 4" in str(e) and "Liara's Analysis track has 4 spaces" in str(e)


def test_analysis_token_without_an_analysis_track_must_be_zero():
    d = data("me-round-barrier")                                # Shepard alone: no sheet with an Analysis track
    d["analysis_token"] = 1
    e = refused(d)
    assert e.field == "analysis_token" and "0 to 0" in str(e)


def test_intel_unlocks_beyond_the_icon_boxes_the_caches_can_mark_are_refused():
    d = data("me-round-loot")
    caches = sum(t.count("intel_cache") for t in d.get("loot", {}).values()) + d.get("inventory", []).count(
        "intel_cache")
    d["intel_gathered"] = 3 - caches if caches < 3 else 0      # the caches reach exactly box 3 (one icon) at most
    reach = 1 if caches else 0
    d["intel_unlocks"] = [{"squadmate": "Shepard", "box": "x"}] * (reach + 1)
    e = refused(d)
    assert e.field == f"intel_unlocks[{reach}]" and f"at most {reach} entries" in str(e)


# --- 3. strict types: every leaf of every built-in round file --------------------------------------------------------

def _leaves(v, path=()):
    if isinstance(v, dict):
        for k, x in v.items():
            yield from _leaves(x, path + (k,))
    elif isinstance(v, list):
        for i, x in enumerate(v):
            yield from _leaves(x, path + (i,))
    else:
        yield path, v


UNIONS = {"facing"}
"""Fields that take a number or a name (a Turret's ``facing``: 0..5 or a direction name)."""


def _wrong(v, where=()):
    if where and where[-1] in UNIONS:
        return [True, 2.5]
    if isinstance(v, bool):
        return [1, "yes", "true"]
    if isinstance(v, int):
        return [True, str(v), float(v) + 0.5]
    if isinstance(v, str):
        return [3, True]
    return []


def _set(d, path, value):
    for k in path[:-1]:
        d = d[k]
    d[path[-1]] = value


@pytest.mark.parametrize("path", ROUND_FILES, ids=lambda p: p.stem)
def test_every_wrongly_typed_value_of_a_builtin_round_file_is_refused_in_one_line(path):
    base = read_toml(path)
    parse_round(base, path.name)                               # TOML ints stay ints: the built-in loads
    kinds = set()
    for where, v in _leaves(base):
        for bad in _wrong(v, where):
            d = copy.deepcopy(base)
            _set(d, where, bad)
            with pytest.raises(ScenarioError) as e:
                parse_round(d, path.name)
            assert "\n" not in str(e.value), (where, bad)
            top = where[0]
            assert e.value.field.startswith(top), (where, bad, e.value.field)
            kinds.add(type(v))
    assert kinds >= {int, str}


def test_the_testers_wrong_types_are_refused():
    d = data("me-round-mission-actions")
    for patch, field in [(lambda d: d.update(war_readiness={"paragon": True}), "war_readiness.paragon"),
                         (lambda d: d.update(war_readiness={"paragon": "3"}), "war_readiness.paragon"),
                         (lambda d: d.update(downed_locks={"Garrus": True}), "downed_locks"),
                         (lambda d: d["mission_actions"][0].update(adjacent=1), "mission_actions[0].adjacent"),
                         (lambda d: d["mission_actions"][0].update(adjacent="yes"), "mission_actions[0].adjacent")]:
        x = copy.deepcopy(d)
        patch(x)
        assert refused(x).field.startswith(field)


def test_every_builtin_masseffect_file_still_loads():
    game = get_game("masseffect")
    for s in game.scenarios():
        assert game.load_builtin(s.name)[1] is not None


# --- 7. Mission Action hexes ----------------------------------------------------------------------------------------

def test_empty_or_repeated_mission_action_hexes_are_refused():
    d = data("me-round-mission-actions")
    d["mission_actions"][1]["hexes"] = []
    e = refused(d)
    assert e.field == "mission_actions[1].hexes" and "empty" in str(e)
    d["mission_actions"][1]["hexes"] = ["2,-1", "2,-1"]
    e = refused(d)
    assert e.field == "mission_actions[1].hexes[1]" and "twice" in str(e)
    d["mission_actions"][1]["hexes"] = ["2,-1", " 2,-1"]       # the same hex spelt two ways
    assert refused(d).field == "mission_actions[1].hexes[1]"


# --- 4. Shepard Downed ----------------------------------------------------------------------------------------------

def test_no_round_starts_with_shepard_downed():
    d = data("me-round-mission-actions")
    d["squadmates"][0].update(downed=True, hit_points=0)
    assert d["squadmates"][0]["name"] == "Shepard"
    e = refused(d)
    assert e.field == "squadmates[0].downed" and "Mission ends in failure" in str(e)


# --- 2. the War Readiness order is the book's ----------------------------------------------------------------------

def test_war_readiness_states_the_books_order_as_the_books_and_says_when_the_file_differs():
    d = data("me-round-mission-actions")
    d["war_readiness"] = {"paragon": 1, "renegade": 4}
    t = resolve_round(parse_round(d, "x.toml"))
    war = [s for s in t.steps if s.title.startswith("War Readiness")][-1]
    assert "A Paragon Victory scores more than a Renegade Victory" not in war.detail
    assert "usually scores more" in war.detail and "(1 and 4) do not" in war.detail
    d["war_readiness"] = {"paragon": 5, "renegade": 4}
    war = [s for s in resolve_round(parse_round(d, "x.toml")).steps if s.title.startswith("War Readiness")][-1]
    assert "usually scores more" in war.detail and "do not" not in war.detail


# --- 5. the Strategy Pool counts what it lists ----------------------------------------------------------------------

@pytest.mark.parametrize("name", ["me-round-analysis", "me-round-2", "me-round-downed-locks", "me-round-paragon"])
def test_the_strategy_pool_count_is_the_dice_listed(name):
    sc = get_game("masseffect").load_builtin(name)[1]
    listed = 0
    positions = round_positions(sc)
    for k, p in enumerate(positions):
        line = next(x for x in position_text(p, k + 1, len(positions)).splitlines() if "Strategy Pool:" in x)
        m = re.search(r"Strategy Pool: (\d+) di\w+ \((.*)\)", line)
        if m:
            listed += 1
            assert int(m.group(1)) == len(m.group(2).split(", ")) == p.pool, line
    assert listed


# --- 6. a Mission Action rule's Objective refused names the file's fields -------------------------------------------

def test_a_rule_without_completes_refuses_the_next_objective_naming_the_rule_and_the_action():
    d = data("me-round-mission-actions")
    del d["mission_actions"][0]["completes"]                   # "Open the lab" is never completed
    t = resolve_round(parse_round(d, "x.toml"))
    last = t.steps[-1]
    assert last.title.startswith("Not allowed")
    field = last.facts["field"]
    assert field.endswith(".mission") and not field.endswith("completes")
    assert "mission_actions[1].completes names it" in last.title


# --- 8. On Point with one Squadmate ---------------------------------------------------------------------------------

def test_on_point_stays_with_a_lone_squadmate_because_it_is_the_only_one():
    sc = get_game("masseffect").load_builtin("me-round-barrier")[1]
    t = resolve_round(sc)
    assert "every other Squadmate is Downed" not in str(t.result.text if hasattr(t.result, "text") else "")
    titles = [s.title for s in t.steps]
    assert "On Point stays with Shepard: the only Squadmate" in titles
    assert not any("every other Squadmate is Downed" in x for x in titles)


# --- 9. Analysis ``when`` and the ruling reading agree --------------------------------------------------------------

@pytest.mark.parametrize("when", ["until_hazard_card", "before_hazard_card"])
def test_analysis_when_has_the_ruling_readings_name_and_the_old_spelling_loads(when):
    d = data("me-round-analysis")
    turn = next(t for t in d["turns"] if "analysis" in t)
    turn["analysis"]["when"] = when
    assert parse_round(d, "x.toml").turns[d["turns"].index(turn)].analysis.when == "until_hazard_card"
    turn["analysis"]["when"] = "after_hazard_card"
    assert refused(d).field.endswith("analysis.when")


# --- session 14: a turn's Squadmate is checked before any check reads its sheet ------------------------------------

@pytest.mark.parametrize("path", ROUND_FILES, ids=lambda p: p.stem)
def test_an_unknown_squadmate_in_any_turn_is_one_line_naming_the_turn(path):
    """Every turn of every built-in round file, its ``squadmate`` replaced by a name the file does not have: one
    ScenarioError naming ``turns[i].squadmate`` and the Squadmates allowed (a turn with a ``drone`` or an ``aim``
    action raised KeyError from the Core Ability checks, which read the turn's sheet before the name was checked)."""
    base = read_toml(path)
    for i in range(len(base.get("turns", []))):
        d = copy.deepcopy(base)
        d["turns"][i]["squadmate"] = "Nobody"
        e = refused(d)
        assert e.field == f"turns[{i}].squadmate" and "Nobody" in str(e) and "allowed: one of" in str(e)
