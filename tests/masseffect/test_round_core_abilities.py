"""Issue 19: the Core Abilities of Shepard, Garrus, Tali and Wrex played at each trigger (Playing a Mission ›
Squadmate Phase › Core Abilities: each icon rolled triggers the Core Ability "as explained on the Squadmate Sheet";
the effects are the stand-in sheet's). Shepard's Command readies Command tokens another Squadmate spends (ruling
``command_self``); Garrus' Aim moves his Aim Tracker, spent on a Damage Ability; Tali's Chatika roves and attacks or
hacks a Turret (ruling ``drone_react``); Wrex's Blood Rage flips a Rage token and Damages each adjacent Enemy.
Built-in me-round-core-abilities, golden trace tests/masseffect/golden/me-round-core-abilities.txt. Also: a Failure
by a Downed Shepard prints its War Readiness step."""

import copy
from pathlib import Path

import pytest
from golden_helpers import check_golden, trace_text

from explorer.errors import ScenarioError
from explorer.games.masseffect import sections as S
from explorer.games.masseffect.round import parse_round, play_round, resolve_round
from explorer.games.masseffect.sheets import load_sheets
from explorer.scenario import read_toml

SCENARIOS = Path(__file__).parents[2] / "explorer" / "games" / "masseffect" / "scenarios"
GOLDEN = Path(__file__).parent / "golden"


def data(name="me-round-core-abilities"):
    return read_toml(SCENARIOS / f"{name}.toml")


def resolve(d, rulings=None):
    return resolve_round(parse_round(d, "x.toml"), rulings)


def final(d, rulings=None):
    return play_round(parse_round(d, "x.toml"), rulings)[0][-1].state


def turn(d, who):
    return next(t for t in d["turns"] if t["squadmate"] == who)


def titles(t):
    return [s.title for s in t.steps]


def test_golden_trace():
    check_golden(GOLDEN, "me-round-core-abilities", trace_text(resolve(data())))


def test_stand_in_sheet_gives_each_core_ability_its_numbers():
    sh = load_sheets()
    assert (sh["Shepard"].command_tokens, sh["Shepard"].command_damage) == (3, 1)
    assert sh["Garrus"].aim_track == 5
    assert (sh["Tali"].drone_move, sh["Tali"].drone_damage) == (2, 1)
    assert (sh["Wrex"].rage_tokens, sh["Wrex"].rage_damage) == (3, 1)
    assert all(s.core_effect for s in sh.values())


def test_each_effect_follows_its_trigger_before_the_reroll():
    t = resolve(data())
    ts = titles(t)
    for icon, effect in (("Icon on S2: Command", "Command (trigger 1)"), ("Icon on S4: Combat Drone",
                                                                           "Combat Drone (trigger 1)"),
                         ("Icon on S7: Aim", "Aim (trigger 1)"), ("Icon on S10: Blood Rage",
                                                                  "Blood Rage (trigger 1)")):
        i = next(k for k, x in enumerate(ts) if x.startswith(icon))
        assert ts[i + 1].startswith(effect)
        reroll = next(k for k in range(i, len(ts)) if ts[k].startswith("Re-roll"))
        assert i < reroll
    cmd = next(s for s in t.steps if s.title.startswith("Command (trigger 1)"))
    assert cmd.rule == S.COMMENTARY_SHEPARD_COMMAND and "stand-in" in cmd.detail


def test_worked_example_damage_and_final_state():
    """Guardian (Shield Value 4): Chatika 1, Pistol Burst 1 + 1 Command, Concussive Shot 1 + Aim 2 -> Defeated by
    Garrus; Husks A and B 1 each from Blood Rage, Husk A then Shotgun 2 -> Defeated."""
    t = resolve(data())
    ts = titles(t)
    assert "Guardian suffers 1 Damage from Tali: 1 of Shield Value 4" in ts
    assert "Guardian suffers 2 Damage from Tali: 3 of Shield Value 4" in ts
    assert "Guardian suffers 3 Damage from Garrus: 6 >= Shield Value 4, Defeated" in ts
    assert "Husk A suffers 1 Damage from Wrex: 1 of Shield Value 2" in ts
    assert "Husk B suffers 1 Damage from Wrex: 1 of Shield Value 2" in ts
    st = final(data())
    assert (st.command_ready, st.aim, st.enraged, str(st.chatika)) == (1, 0, 1, "1,1")
    assert t.outcome["core_abilities"] == {"command_ready": 1, "enraged": 1}
    assert set(t.outcome["returned_to_bag"]) == {"Guardian", "Husk A"}


def test_command_tokens_stop_at_three():
    d = data()
    turn(d, "Shepard")["roll"]["rolls"] = [
        ["core", "core", "core", "core", "enhanced", "standard", "standard", "move_2_or_standard", "move_2",
         "enhanced", "standard", "move_3"], ["standard", "move_2", "standard", "move_2"]]
    t = resolve(d)
    assert "Command (trigger 4): all 3 Command tokens are Ready: nothing to flip" in titles(t)


def test_shepard_spending_his_own_token_is_the_ruling_command_self():
    d = data()
    a = turn(d, "Shepard")["actions"]
    a.insert(0, {"box": "Shoot", "die": "standard", "target": "Husk B", "command": True})
    t = resolve(d)
    assert t.result.rejected and "command_self = others_only" in t.result.rejected
    assert "turns[0].actions[0].command" in t.result.rejected
    t2 = resolve(d, {"command_self": "shepard_too"})
    assert t2.result.rejected is None
    assert "Husk B suffers 3 Damage from Shepard: 3 >= Shield Value 2, Defeated" in titles(t2)


def test_no_ready_command_token_is_refused():
    d = data()
    turn(d, "Shepard")["roll"]["rolls"] = [
        ["standard", "standard", "move_3", "move_2", "enhanced", "move_2", "standard", "move_2_or_standard",
         "move_2", "enhanced", "standard", "move_3"]]
    t = resolve(d)
    assert "no Ready Command token" in t.result.rejected and "turns[1].actions[0].command" in t.result.rejected


def test_command_on_an_action_without_damage_is_refused():
    d = data()
    turn(d, "Shepard")["actions"][0]["command"] = True
    t = resolve(d)
    assert "deals none" in t.result.rejected and "turns[0].actions[0].command" in t.result.rejected


def test_aim_spent_on_an_empty_tracker_is_refused_and_aim_value_starts_from_the_file():
    d = data()
    turn(d, "Garrus")["roll"]["rolls"] = [["standard", "standard", "move_2", "move_2", "move_3", "enhanced"]]
    t = resolve(d)
    assert "Aim Tracker is at 0" in t.result.rejected
    d["aim_value"] = 4
    t = resolve(d)
    assert t.result.rejected is None
    assert "Garrus spends his Aim Value 4 on Concussive Shot: +4 Damage (Aim Tracker 4 -> 0)" in titles(t)


def test_aim_tracker_stops_at_its_end():
    d = data()
    d["aim_value"] = 5
    del turn(d, "Garrus")["actions"][0]["aim"]
    t = resolve(d)
    assert "Aim (trigger 1): the Aim Tracker is at its end (5): no space to move" in titles(t)
    assert final(d).aim == 5


def test_file_bounds_for_core_fields():
    d = data()
    d["aim_value"] = 6
    with pytest.raises(ScenarioError, match="aim_value"):
        parse_round(d, "x.toml")
    d = data()
    d["command_ready"] = 3
    parse_round(d, "x.toml")
    d = data()
    d["chatika"] = "9,9"
    with pytest.raises(ScenarioError, match="chatika"):
        parse_round(d, "x.toml")
    d = data()
    turn(d, "Garrus")["drone"] = [{"path": []}]
    with pytest.raises(ScenarioError, match=r"turns\[2\]\.drone"):
        parse_round(d, "x.toml")
    d = data()
    turn(d, "Wrex")["actions"][0]["aim"] = True
    with pytest.raises(ScenarioError, match=r"turns\[3\]\.actions\[0\]\.aim"):
        parse_round(d, "x.toml")


def test_drone_react_no_move_keeps_the_guardian_in_place():
    t = resolve(data(), {"drone_react": "no_move"})
    assert any(x.startswith("Guardian has the React Tag but moves toward no one") for x in titles(t))
    # It stayed at 2,1: Tali's Pistol Burst (range 2) still reaches it (2 hexes).
    assert "Tali uses Pistol Burst on Guardian (2 hexes, +1 Damage: a Ready Command token)" in titles(t)
    assert "drone_react" in t.to_text()


def test_drone_route_refusals():
    d = data()
    turn(d, "Tali")["drone"][0]["path"] = ["0,2", "1,1", "2,0", "3,-1"]
    assert "up to 2" in resolve(d).result.rejected
    d = data()
    turn(d, "Tali")["drone"][0]["path"] = ["1,1", "2,0"]
    assert "turns[1].drone[0].path[0]" in resolve(d).result.rejected
    d = data()
    turn(d, "Tali")["drone"][0]["path"] = ["0,2", "2,1"]
    assert "not adjacent" in resolve(d).result.rejected
    d = data()
    turn(d, "Tali")["drone"][0]["path"] = []
    assert "neither in nor adjacent" in resolve(d).result.rejected
    d = data()
    turn(d, "Tali")["drone"].append({"path": []})
    r = resolve(d).result.rejected
    assert "turns[1].drone[1]" in r and "1 time" in r and r.startswith("2 [[turns.drone]] entries, but")


def test_drone_may_share_a_hex_with_a_character_and_stays_without_an_entry():
    d = data()
    turn(d, "Tali")["drone"][0] = {"path": ["0,2", "1,1", "2,1"][:2], "target": "Guardian"}
    assert resolve(d).result.rejected is None
    d = data()
    del turn(d, "Tali")["drone"]
    del turn(d, "Tali")["actions"][0]["command"]
    t = resolve(d)
    assert "Combat Drone (trigger 1): Chatika stays at 0,2 (the file's drone gives nothing for this trigger)" in \
        titles(t)


def test_drone_hacks_a_turret():
    d = data()
    d["map"]["turrets"] = [{"hex": "1,0", "facing": "W", "active": True}]
    turn(d, "Tali")["drone"][0] = {"path": ["0,2", "0,1"], "turret": "1,0"}
    t = resolve(d)
    assert any(x.startswith("Combat Drone (trigger 1): Chatika hacks the Turret at 1,0: Disabled") for x in titles(t))
    assert t.outcome["turrets_disabled"] == ["1,0"]


def test_blood_rage_skips_shrouded_and_counts_xp_by_ruling():
    d = data()
    for e in d["enemies"]:
        if e["name"] == "Husk B":
            e["shield_value"] = 1
    t = resolve(d)
    assert "Husk B suffers 1 Damage from Wrex: 1 >= Shield Value 1, Defeated" in titles(t)
    assert "Wrex gains 1 XP for Defeating Husk B (1/3)" in titles(t)
    t = resolve(d, {"xp_outside_actions": "none"})
    assert any(x.startswith("Wrex gains no XP for Husk B: a Core Ability trigger is not an Action") for x in titles(t))


def test_a_sheet_file_without_core_numbers_only_counts(tmp_path):
    src = (Path(__file__).parents[2] / "explorer/games/masseffect/sheets/standin.toml").read_text()
    for key in ("command_tokens = 3", "command_damage = 1", "aim_track = 5", "drone_move = 2", "drone_damage = 1",
                "rage_tokens = 3", "rage_damage = 1"):
        src = src.replace(key, "")
    p = tmp_path / "sheets.toml"
    p.write_text(src)
    d = data()
    d["sheets"] = str(p)
    del turn(d, "Tali")["drone"]
    for w in ("Tali", "Garrus"):
        for a in turn(d, w)["actions"]:
            a.pop("command", None)
            a.pop("aim", None)
    with pytest.raises(ScenarioError):
        parse_round({**d, "aim_value": 1}, "x.toml")
    t = resolve(d)
    assert not any(x.startswith(("Command (", "Aim (", "Blood Rage (", "Combat Drone (")) for x in titles(t))


def _downed_shepard():
    d = copy.deepcopy(data())
    d["objectives"] = [{"name": "Hold", "kind": "paragon"}]
    d["war_readiness"] = {"failure": 1}
    for s in d["squadmates"]:
        if s["name"] == "Shepard":
            s["hit_points"] = 1
            s["shield_points"] = 0
            s["position"] = "1,-2"      # adjacent to Husk B
    d["hazard_deck"][0] = {"name": "Quiet 1", "instructions": [{"do": "activate", "types": ["Husk"]}]}
    turn(d, "Shepard")["actions"] = []
    return d


def test_failure_by_downed_shepard_prints_its_war_readiness_step():
    t = resolve(_downed_shepard())
    ts = titles(t)
    war = [s for s in t.steps if s.rule == S.WAR_READINESS]
    assert len(war) == 1 and war[0].title.startswith("War Readiness: 1 for the Failure (Shepard is Downed)")
    assert t.outcome["war_readiness"] == 1
    assert t.outcome["mission_failed"] is True
    assert ts.index(war[0].title) == len(ts) - 1


def test_round_page_reads_the_tracks_from_the_files_own_sheets(tmp_path):
    """The Round page's panels read the Analysis track (and the Core Ability elements) from the sheets the file
    names, carried in the played state, not from the built-in stand-in."""
    from explorer.games.masseffect.round_view import round_positions

    src = (Path(__file__).parents[2] / "explorer/games/masseffect/sheets/standin.toml").read_text()
    src = src.replace("analysis_track = 4", "analysis_track = 7").replace("aim_track = 5", "aim_track = 6")
    p = tmp_path / "sheets.toml"
    p.write_text(src)
    d = data("me-round-analysis")
    d["sheets"] = str(p)
    pos = round_positions(parse_round(d, "x.toml"))
    liara = next(q for q in pos[-1].squadmates if q.name == "Liara")
    garrus = next(q for q in pos[-1].squadmates if q.name == "Garrus")
    assert liara.analysis.endswith("/7")
    assert garrus.core == "Aim Value 0/6"
    d = data("me-round-analysis")
    pos = round_positions(parse_round(d, "x.toml"))
    assert next(q for q in pos[-1].squadmates if q.name == "Liara").analysis.endswith("/4")


def test_round_page_shows_chatika_and_the_core_elements():
    from explorer.games.masseffect.round_view import round_positions
    from explorer.games.masseffect.round_views import map_html, position_html
    from explorer.games.masseffect.map import map_from_dict

    sc = parse_round(data(), "x.toml")
    pos = round_positions(sc)
    last = pos[-1]
    assert last.chatika == "1,1"
    html = position_html(last, len(pos), len(pos))
    assert "Command tokens Ready 1/3" in html and "Rage tokens Enraged 1/3" in html and "Chatika on 1,1" in html
    assert "Chatika (Tali&#x27;s drone) on 1,1" in map_html(map_from_dict(sc.map, "x"), last) or \
        "Chatika (Tali's drone) on 1,1" in map_html(map_from_dict(sc.map, "x"), last)


def test_spawn_on_a_map_without_spawn_hexes_says_so():
    """Spawning Minions: with no Spawn hex on the map nothing is Spawned, and the step says why (it used to say every
    Spawn hex held a character, which was false there)."""
    titles = [s.title for s in resolve(data()).steps]
    assert "No Minion Spawned: the map has no Spawn hex" in titles
    assert not any("every Spawn hex holds" in t for t in titles)


def test_the_round_page_says_whether_the_sheets_are_the_stand_in_or_the_files_own(tmp_path):
    """Issue 19 (Done when: a sheet-data file with a stand-in is said to be one on the page): beside the sheets at
    every step, and in the title box, the page says the built-in sheets are a STAND-IN; a file naming its own sheet
    file is not called one (before, the title box called every file's sheets the stand-in)."""
    from explorer.games import get_game
    from explorer.games.masseffect.round_views import RoundStepper

    page = RoundStepper("me-round-analysis", get_game("masseffect"))
    assert "STAND-IN" in page.focus.value and "sheets/standin.toml" in page.focus.value
    assert "editable STAND-IN" in page.about.value
    p = tmp_path / "mine.toml"
    p.write_text((Path(__file__).parents[2] / "explorer/games/masseffect/sheets/standin.toml").read_text())
    text = (Path(__file__).parents[2] / "explorer/games/masseffect/scenarios/me-round-analysis.toml").read_text()
    page.open_text(text.replace('kind = "round"', f'kind = "round"\nsheets = "{p}"', 1), "own.toml")
    assert "own sheet file (" in page.focus.value and "STAND-IN" not in page.focus.value
    assert "editable STAND-IN" not in page.about.value and f"own sheet file ({p})" in page.about.value
