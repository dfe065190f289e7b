"""Issue 19, item 2 of this session: Intel Caches when a Mission ends (Additional Rules › Intel Cache Tokens; The
Campaign Map: every third Intel Gathered box has an icon), the prerequisites of Advanced and Loyalty Abilities
(Additional Rules › Advanced Abilities and Loyalty Abilities), and a Turret Disabled during play by a Squadmate's
Ability (Additional Rules › Turrets). Built-ins me-round-mission-end and me-round-turret-hack, golden traces in
tests/masseffect/golden."""

from dataclasses import replace
from pathlib import Path

import pytest
from golden_helpers import check_golden, trace_text
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.errors import RuleViolation, ScenarioError
from explorer.games.masseffect import sections as S
from explorer.games.masseffect.round import _unlock_on_xp, parse_round, resolve_round, round_start
from explorer.scenario import read_toml

SCENARIOS = Path(__file__).parents[2] / "explorer" / "games" / "masseffect" / "scenarios"
GOLDEN = Path(__file__).parent / "golden"
STANDIN = Path(__file__).parents[2] / "explorer" / "games" / "masseffect" / "sheets" / "standin.toml"


def data(name="me-round-mission-end"):
    return read_toml(SCENARIOS / f"{name}.toml")


def resolve(d, rulings=None):
    return resolve_round(parse_round(d, "x.toml"), rulings)


def refused(t):
    return next(s for s in t.steps if s.title.startswith("Not allowed"))


@pytest.mark.parametrize("name", ["me-round-mission-end", "me-round-turret-hack"])
def test_golden_traces(name):
    check_golden(GOLDEN, name, trace_text(resolve(data(name))))


def test_intel_caches_mark_the_campaign_map_and_the_icon_box_unlocks():
    t = resolve(data())
    o = t.result
    assert o.ending == "Loyalty Victory" and o.rejected is None
    j = o.to_json()
    assert j["intel_gathered_marked"] == [3, 4] and j["inventory"] == []     # every token back in the game box
    end = [s for s in t.steps if s.section == "Ending a Mission"]
    assert [s.rule for s in end] == [S.INTEL_CACHES, S.UNLOCKING_ABILITIES, S.GRENADES]
    assert end[1].title == "Intel Gathered box 3 has an icon: Garrus unlocks Overload"
    assert any(s.rule == S.ADVANCED_ABILITIES and "unlocks the Loyalty Ability Shadow Broker Intuition" in s.title
               for s in t.steps)


def test_no_icon_box_reached_no_unlock():
    d = data()
    d["intel_gathered"] = 3                          # boxes 4 and 5: no icon
    d["intel_unlocks"] = []                          # an unlock no icon box can use is refused (test_round_file_checks)
    t = resolve(d)
    assert t.result.to_json()["intel_gathered_marked"] == [4, 5]
    assert not [s for s in t.steps if "has an icon" in s.title]


def test_icon_box_without_a_declared_unlock_says_so():
    d = data()
    d["intel_unlocks"] = []
    t = resolve(d)
    assert any(s.title.startswith("Intel Gathered box 3 has an icon: one Squadmate may unlock") for s in t.steps)


def test_nothing_to_do_when_the_mission_goes_on_or_the_inventory_is_empty():
    d = data()
    del d["turns"][1]                                # the Loyalty Objective is never completed
    assert not [s for s in resolve(d).steps if s.section == "Ending a Mission"]
    d = data()
    d["inventory"], d["loot"], d["intel_unlocks"] = [], {}, []
    assert not [s for s in resolve(d).steps if s.section == "Ending a Mission"]


@pytest.mark.parametrize("who,box,why", [
    ("Shepard", "Incinerate", "Shepard's Incinerate is an Advanced Ability: Warp and Barrier must be unlocked first"),
    ("Wrex", "Krogan Battlemaster", "Wrex's Krogan Battlemaster is an Advanced Ability: What Krogan Do Best must be "
                                    "unlocked first"),
    ("Liara", "Shadow Broker Intuition", "Liara's Shadow Broker Intuition is a Loyalty Ability: only completing "
                                         "Liara's Loyalty Mission unlocks it"),
])
def test_prerequisites_refused_with_a_cited_line_naming_the_field(who, box, why):
    d = data()
    d["loyalty_mission"] = None if who == "Liara" else d["loyalty_mission"]
    if who == "Liara":
        del d["loyalty_mission"]
    if who == "Wrex":
        d["squadmates"][2] = {"name": "Wrex", "max_shield_points": 3, "max_hit_points": 7, "position": "-2,0"}
    d["intel_unlocks"] = [{"squadmate": who, "box": box}]
    t = resolve(d)
    st_ = refused(t)
    assert st_.rule == S.ADVANCED_ABILITIES and st_.section == "Ending a Mission"
    assert st_.title == (f"Not allowed: {why} [Additional Rules › Advanced Abilities and Loyalty Abilities] "
                         "(intel_unlocks[0].box)")
    assert t.result.rejected.endswith("(intel_unlocks[0].box)")


def test_an_advanced_ability_unlocks_once_its_two_abilities_are(tmp_path):
    sheets = STANDIN.read_text().replace('name = "Warp"\nspaces = ["standard"]\nunlocked = false',
                                         'name = "Warp"\nspaces = ["standard"]\nunlocked = true')
    sheets = sheets.replace('name = "Barrier"\nspaces = []                        # a Special Rule, no Action '
                            'Space\nunlocked = false', 'name = "Barrier"\nspaces = []\nunlocked = true')
    assert 'name = "Barrier"\nspaces = []\nunlocked = true' in sheets
    path = tmp_path / "sheets.toml"
    path.write_text(sheets)
    d = data()
    d["sheets"] = str(path)
    d["intel_unlocks"] = [{"squadmate": "Shepard", "box": "Incinerate"}]
    t = resolve(d)
    assert t.result.rejected is None
    assert any(s.title == "Intel Gathered box 3 has an icon: Shepard unlocks Incinerate" for s in t.steps)


def test_a_loyalty_ability_is_never_unlocked_by_xp():
    d = data()
    d["unlocks"] = [{"squadmate": "Liara", "box": "Shadow Broker Intuition"}]
    state, ctx = round_start(parse_round(d, "x.toml"))
    liara = state.board.squadmate("Liara")
    state = replace(state, board=state.board.with_squadmate(replace(liara, xp=3)))
    with pytest.raises(RuleViolation) as e:
        _unlock_on_xp(state, ctx, "Liara", 2)
    assert e.value.rejection.field == "unlocks[0].box" and "Loyalty Ability" in e.value.reason


def test_sheet_file_errors(tmp_path):
    bad = STANDIN.read_text().replace('requires = ["What Krogan Do Best"]', 'requires = ["Krogan Battlemaster"]')
    path = tmp_path / "s.toml"
    path.write_text(bad)
    d = data()
    d["sheets"] = str(path)
    with pytest.raises(ScenarioError) as e:
        parse_round(d, "x.toml")
    assert "requires[0]" in e.value.field


def test_mission_end_file_errors():
    d = data()
    d["intel_unlocks"] = [{"squadmate": "Garrus", "box": "Concussive Shot"}]
    with pytest.raises(ScenarioError) as e:
        parse_round(d, "x.toml")
    assert e.value.field == "intel_unlocks[0].box"
    d = data()
    d["loyalty_mission"] = "Wrex"
    with pytest.raises(ScenarioError) as e:
        parse_round(d, "x.toml")
    assert e.value.field == "loyalty_mission"
    d = data()
    d["objectives"].append({"name": "Purge", "kind": "renegade"})
    with pytest.raises(ScenarioError):
        parse_round(d, "x.toml")


# --- Turrets Disabled during play ---------------------------------------------------------------------------------


def hack():
    return data("me-round-turret-hack")


def test_the_hacked_turret_deals_no_damage_the_other_does():
    t = resolve(hack())
    sq = {s.name: (s.shield_points, s.hit_points) for s in t.result.squadmates}
    assert sq["Shepard"] == (4, 6)                   # on the hacked Turret's row
    assert sum(s.title == "Turret at 3,-1 is Disabled: no Line of Fire, no Damage" for s in t.steps) == 2
    d = hack()
    del d["turns"][0]["actions"]                     # not hacked: Shepard takes 2, then 1
    hit = [s for s in resolve(d).steps if s.title.startswith("Shepard suffers")]
    assert [s.title.split(" Damage")[0] for s in hit] == ["Shepard suffers 2", "Shepard suffers 1"]


@pytest.mark.parametrize("change,reason", [
    ({"turret": None}, "Hack Turret needs the hex of the Turret it Disables"),
    ({}, "the Turret at 3,-1 is 4 hexes from Tali; Hack Turret reaches 3"),
])
def test_hack_refusals_name_the_turret_field(change, reason):
    d = hack()
    if not change:
        d["squadmates"][0]["position"] = "-1,-1"
    a = d["turns"][0]["actions"][0]
    for k, v in change.items():
        if v is None:
            a.pop(k)
        else:
            a[k] = v
    st_ = refused(resolve(d))
    assert reason in st_.title and "(turns[0].actions[0].turret)" in st_.title


def test_a_disabled_turret_cannot_be_disabled_again():
    d = hack()
    d["map"]["turrets"][0]["active"] = False         # Disabled from the start
    st_ = refused(resolve(d))
    assert st_.rule == S.TURRETS and "already Disabled" in st_.title and "actions[0].turret" in st_.title


def test_turret_field_must_name_a_turret():
    d = hack()
    d["turns"][0]["actions"][0]["turret"] = "0,0"
    with pytest.raises(ScenarioError) as e:
        parse_round(d, "x.toml")
    assert e.value.field == "turns[0].actions[0].turret"


@settings(max_examples=10, deadline=None)
@given(at=st.sampled_from(["2,-1", "1,-1", "0,-1", "-1,-1", "-2,-1"]), hacked=st.booleans())
def test_a_squadmate_on_a_disabled_turrets_row_is_never_hit(at, hacked):
    """Property: Shepard anywhere on the 3,-1 Turret's row is hit by it exactly when it was not hacked (Turrets: a
    Disabled Turret has no Line of Fire)."""
    d = hack()
    d["squadmates"][1]["position"] = at
    if not hacked:
        d["turns"][0]["actions"] = []
    t = resolve(d)
    hits = [s for s in t.steps if s.title.startswith("Shepard suffers") and "3,-1" in s.title]
    assert (len(hits) == 0) == hacked


# --- the first Round from a Mission's setup (the notebook's and tutorial 07's scenario) ----------------------------


def test_first_round_from_setup_golden_and_rules():
    t = resolve(data("me-round-mission-1"))
    check_golden(GOLDEN, "me-round-mission-1", trace_text(t))
    o = t.result
    # Setup: every Squadmate gets a card; Shepard's door reveals the Cargo Bay, so its Troopers Activate
    assert [s.title for s in t.steps if s.rule == S.PREPARATION_PHASE][:4] == [
        "Hazard card Troopers drawn face-down for Shepard", "Hazard card Turrets drawn face-down for Garrus",
        "Hazard card Engineers drawn face-down for Liara", "Hazard card Guardians drawn face-down for Tali"]
    assert {e.name: e.hex for e in o.enemies}["Trooper 1"] == "6,2"
    # no Enemy still in a Shrouded area Activates (Shrouded Areas)
    assert [s.title for s in t.steps if s.rule == S.SHROUDED_AREAS and "not Activated" in s.title] == [
        "Engineer is in a Shrouded area: not Activated", "Guardian is in a Shrouded area: not Activated"]
    assert o.to_json()["inventory"] == ["intel_cache"] and o.on_point == "Tali"
