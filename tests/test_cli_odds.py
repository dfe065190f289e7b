"""`explorer odds` through explorer.cli.main (text, JSON, errors with exit code 2)."""

import json
from fractions import Fraction as Fr

import pytest

from explorer.cli import main
from explorer.games.tagraid.odds import SideSpec, face_to_face, versus_megabeast


def run(capsys, *args):
    code = main(["odds", *args])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_text_anchor_exact(capsys):
    code, out, err = run(capsys, "--burst-a", "1", "--sv-a", "12", "--burst-b", "1", "--sv-b", "12", "--exact")
    assert code == 0, err
    assert "Face to Face Roll" in out
    assert "total: a wins" in out and "81/200" in out and "19/100" in out   # 162/400, 76/400


def test_json_uses_attribute_mods_cover_ap_and_wounds(capsys):
    code, out, err = run(capsys, "--burst-a", "3", "--attribute-a", "12", "--mod-a", "Range=+3", "--damage-a", "15",
                         "--armor-b", "5", "--ammo-a", "AP", "--cover-b", "--burst-b", "1", "--sv-b", "12",
                         "--damage-b", "13", "--armor-a", "4", "--wounds-b", "2", "--exact", "--json")
    assert code == 0, err
    d = json.loads(out)
    # SV 12 + 3 (Range) - 3 (Partial Cover of b) = 12; Attack Damage 15 - ceil(5/2) - 3 = 9 (TR-07 arithmetic)
    assert d["a"]["sv"] == 12 and d["a"]["attack_damage"] == 9 and d["a"]["opponent_wounds"] == 2
    assert d["b"]["attack_damage"] == 9 and d["b"]["opponent_wounds"] is None
    assert "Partial Cover -3" in d["derivation"]["a"]["sv"]
    expected = face_to_face(SideSpec(12, 3, 9, "AP", 2), SideSpec(12, 1, 9, "N", None), exact=True)
    assert d["p_a_wins"] == str(expected.p_a_wins)
    assert [Fr(x) for x in d["wounds_to_b"]] == expected.wounds_to_b and len(d["wounds_to_b"]) == 3


def test_normal_roll_when_b_does_not_roll(capsys):
    code, out, err = run(capsys, "--burst-a", "2", "--sv-a", "9", "--burst-b", "0", "--json")
    assert code == 0, err
    d = json.loads(out)
    assert d["kind"] == "normal" and d["p_a_wins"] == pytest.approx(1 - (11 / 20) ** 2)


def test_megabeast(capsys):
    code, out, err = run(capsys, "--burst-a", "1", "--sv-a", "7", "--ammo-a", "EXP", "--damage-a", "14",
                         "--megabeast-threat", "8", "--wounds-b", "2", "--ruling", "megabeast_critical=critical_wins",
                         "--exact", "--json")
    assert code == 0, err
    d = json.loads(out)
    m = versus_megabeast(SideSpec(7, 1, 14, "EXP", 2), 8, rulings={"megabeast_critical": "critical_wins"}, exact=True)
    assert d["p_a_wins"] == str(m.p_a_wins) == "1/20"   # only the Critical 7 wounds under this reading (TR-10)
    assert d["rulings"]["megabeast_critical"] == "critical_wins"
    code, out, err = run(capsys, "--burst-a", "1", "--sv-a", "7", "--ammo-a", "EXP", "--megabeast-threat", "8")
    assert code == 0 and "MegaBeast prevails" in out and "megabeast_critical = must_exceed" in out


def test_evade_side_causes_no_wounds(capsys):
    code, out, err = run(capsys, "--sv-a", "13", "--burst-a", "3", "--damage-a", "12", "--armor-b", "3",
                         "--sv-b", "9", "--skill-b", "evade", "--json")
    assert code == 0, err
    d = json.loads(out)
    assert d["b"]["attack_damage"] is None and d["wounds_to_a"] is None   # not [1.0]: b causes no Saving Rolls
    assert d["saving_rolls_to_a"] is None and d["expected_wounds_to_a"] is None


@pytest.mark.parametrize("args,option,allowed", [
    (["--sv-a", "twelve"], "--sv-a", "whole number"),
    (["--sv-a", "12", "--burst-a", "-1"], "--burst-a", "0..20"),
    (["--sv-a", "12", "--burst-a", "21"], "--burst-a", "0..20"),
    (["--sv-a", "12", "--sv-b", "3", "--ammo-a", "plasma"], "--ammo-a", "'N', 'DA', 'EXP', 'AP'"),
    (["--sv-a", "12", "--sv-b", "3", "--ruling", "nonsense=x"], "--ruling", "'sv_above_20'"),
    (["--sv-a", "12", "--sv-b", "3", "--ruling", "sv_above_20=maybe"], "--ruling", "'literal', 'excess_to_die'"),
    (["--sv-a", "12", "--sv-b", "3", "--ruling", "sv_above_20"], "--ruling", "sv_above_20=literal"),
    (["--sv-a", "12", "--sv-b", "3", "--mod-a", "Range=+3"], "--mod-a", "--attribute-a"),
    (["--attribute-a", "12", "--sv-b", "3", "--mod-a", "Range"], "--mod-a", "NAME=VALUE|Range=\\+3"),
    (["--sv-b", "3"], "--sv-a", "--attribute-a"),
    (["--sv-a", "12", "--sv-b", "3", "--wounds-b", "-2"], "--wounds-b", "1..30"),
    (["--sv-a", "12", "--sv-b", "3", "--skill-a", "cc", "--cover-b"], "--cover-b", "--skill-a ranged"),
    (["--sv-a", "12", "--sv-b", "3", "--skill-b", "evade", "--damage-b", "3"], "--damage-b", "omit"),
    (["--sv-a", "12", "--megabeast-threat", "high"], "--megabeast-threat", "whole number"),
    (["--sv-a", "12", "--megabeast-threat", "5", "--sv-b", "3"], "--sv-b", "--wounds-b"),
])
def test_bad_input_is_one_line_exit_2(capsys, args, option, allowed):
    code, out, err = run(capsys, *args)
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and f"'{option}'" in lines[0]
    assert "allowed:" in lines[0]
    import re
    assert re.search(allowed, lines[0]), lines[0]
    assert "Traceback" not in err


def test_rulings_used_include_mod_cap_from_sv_derivation(capsys):
    code, out, err = run(capsys, "--attribute-a", "12", "--mod-a", "Range=+9", "--mod-a", "Tool=+6", "--sv-b", "10",
                         "--ruling", "mod_cap=cap_12", "--json")
    assert code == 0, err
    d = json.loads(out)
    assert d["a"]["sv"] == 24 and d["rulings"]["mod_cap"] == "cap_12" and d["rulings"]["sv_above_20"] == "literal"
    assert "capped" in d["derivation"]["a"]["sv"]


# --- who rolls: derived from the Skills (Common Skills › Idle, › Evade; Rolls › Face to Face Rolls "Important")

@pytest.mark.parametrize("args,kind,a_rolls,b_rolls", [
    (["--burst-a", "3", "--sv-a", "13", "--skill-b", "idle", "--sv-b", "9"], "normal", True, False),
    (["--skill-a", "idle", "--skill-b", "idle"], "none", False, False),
    (["--skill-a", "evade", "--sv-a", "12", "--skill-b", "evade", "--sv-b", "9"], "normal", True, False),
    (["--skill-a", "idle", "--sv-b", "9"], "normal", False, True),
    (["--sv-a", "12", "--skill-b", "evade", "--sv-b", "9"], "face_to_face", True, True),
])
def test_roll_type_follows_the_skills_in_text_and_json(capsys, args, kind, a_rolls, b_rolls):
    code, out, err = run(capsys, *args, "--exact", "--json")
    assert code == 0, err
    d = json.loads(out)
    assert d["kind"] == d["roll"]["kind"] == kind
    assert (d["roll"]["a_rolls"], d["roll"]["b_rolls"]) == (a_rolls, b_rolls)
    if not b_rolls:
        assert d["p_b_wins"] == "0" and d["b"]["burst"] == 0
    if not a_rolls:
        assert d["p_a_wins"] == "0" and d["a"]["burst"] == 0
    code, out, err = run(capsys, *args)
    first = out.splitlines()[0]
    assert {"face_to_face": "Face to Face Roll", "normal": "Normal Roll", "none": "No roll"}[kind] in first
    assert d["roll"]["section"] in first


def test_idle_b_never_wins(capsys):
    code, out, err = run(capsys, "--burst-a", "3", "--sv-a", "13", "--skill-b", "idle", "--sv-b", "9", "--exact")
    assert code == 0, err
    assert "Face to Face" not in out.splitlines()[0]
    line = next(x for x in out.splitlines() if "total: b wins" in x)
    assert line.split()[-2:] == ["0.000", "%"]


@pytest.mark.parametrize("args,option,allowed", [
    (["--sv-a", "12", "--skill-b", "evade", "--burst-b", "3", "--sv-b", "9"], "--burst-b", "or 1"),
    (["--skill-a", "evade", "--burst-a", "2", "--sv-a", "12", "--sv-b", "9"], "--burst-a", "or 1"),
    (["--sv-a", "12", "--skill-b", "idle", "--burst-b", "1"], "--burst-b", "or 0"),
])
def test_evade_is_one_die_and_idle_none(capsys, args, option, allowed):
    code, out, err = run(capsys, *args)
    assert code == 2 and option in err and allowed in err and "Traceback" not in err


# --- one set of bounds: the TOML scenario model's pydantic constraints

@pytest.mark.parametrize("args,option,allowed", [
    (["--sv-a", "999", "--sv-b", "3"], "--sv-a", "0..30"),
    (["--sv-a", "-5", "--sv-b", "3"], "--sv-a", "0..30"),
    (["--attribute-a", "31", "--sv-b", "3"], "--attribute-a", "0..30"),
    (["--sv-a", "12", "--sv-b", "3", "--wounds-b", "0"], "--wounds-b", "1..30"),
    (["--sv-a", "12", "--sv-b", "3", "--damage-a", "99"], "--damage-a", "0..30"),
    (["--sv-a", "12", "--sv-b", "3", "--armor-b", "31"], "--armor-b", "0..30"),
    (["--sv-a", "12", "--burst-a", "21", "--sv-b", "3"], "--burst-a", "0..20"),
    (["--sv-a", "12", "--megabeast-threat", "25"], "--megabeast-threat", "0..20"),
    (["--sv-a", "12", "--megabeast-threat", "-1"], "--megabeast-threat", "0..20"),
    (["--sv-a", "12", "--megabeast-threat", "5", "--wounds-b", "51"], "--wounds-b", "1..50"),
    (["--sv-a", "12", "--megabeast-threat", "5", "--burst-b", "2"], "--burst-b", "--wounds-b"),
    (["--sv-a", "12", "--megabeast-threat", "5", "--skill-b", "evade"], "--skill-b", "--wounds-b"),
])
def test_bounds_are_the_scenario_models(capsys, args, option, allowed):
    code, out, err = run(capsys, *args)
    assert code == 2 and f"'{option}'" in err and allowed in err and "Traceback" not in err


def test_bounds_come_from_the_pydantic_fields():
    from explorer.games.tagraid.model import MegaBeast, ReactiveMiner, Weapon, field_bounds

    assert field_bounds(MegaBeast, "threat_level") == (0, 20)
    assert field_bounds(Weapon, "damage") == (0, 30) and field_bounds(ReactiveMiner, "wounds") == (1, 30)


# --- output consistency: text and JSON say the same thing

def test_no_damage_means_null_wounds_in_json_and_none_computed_in_text(capsys):
    code, out, err = run(capsys, "--sv-a", "12", "--sv-b", "12", "--json")
    d = json.loads(out)
    for k in ("wounds_to_a", "wounds_to_b", "saving_rolls_to_a", "saving_rolls_to_b", "expected_wounds_to_a",
              "expected_wounds_to_b"):
        assert d[k] is None, k
    code, out, err = run(capsys, "--sv-a", "12", "--sv-b", "12")
    assert out.count("none computed") == 2


def test_floats_are_the_exact_values_rounded(capsys):
    code, out, err = run(capsys, "--sv-a", "12", "--sv-b", "12", "--json")
    d = json.loads(out)
    code, out, err = run(capsys, "--sv-a", "12", "--sv-b", "12", "--json", "--exact")
    e = json.loads(out)
    for k in ("p_a_wins", "p_b_wins", "p_nobody"):
        assert d[k] == float(Fr(e[k]))      # 0.19, not 1 - 0.405 - 0.405 = 0.18999999999999995
    assert d["p_nobody"] == 0.19
    assert [o["p"] for o in d["outcomes"]] == [float(Fr(o["p"])) for o in e["outcomes"]]


def test_side_that_does_not_roll_keeps_its_sv_on_display(capsys):
    code, out, err = run(capsys, "--burst-a", "0", "--sv-a", "12", "--sv-b", "9", "--json")
    assert code == 0, err
    code, out, err = run(capsys, "--burst-a", "0", "--sv-a", "12", "--sv-b", "9")
    line = next(x for x in out.splitlines() if x.strip().startswith("a:"))
    assert "SV 12" in line and "SV 0" not in line and "does not roll" in line


def test_megabeast_without_damage_shows_no_attack_damage(capsys):
    code, out, err = run(capsys, "--sv-a", "12", "--megabeast-threat", "5")
    line = next(x for x in out.splitlines() if x.strip().startswith("a:"))
    assert "Attack Damage 0" not in line and "Attack Damage -" in line
    assert "Wounds to the MegaBeast" in out      # each Saving Roll produced is a Wound: no Damage needed
    code, out, err = run(capsys, "--sv-a", "12", "--megabeast-threat", "5", "--json")
    d = json.loads(out)
    assert d["a"]["attack_damage"] is None and d["wounds_to_a"] is None and d["wounds_to_b"] is not None
