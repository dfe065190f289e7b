"""One test per fault listed in issue #7, each with its expected one-line message (and, through the command line,
exit code 2): they used to be tracebacks, hangs, memory blow-ups or multi-line messages."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from explorer.board import MAX_HEX_COORD, Board
from explorer.cli import main
from explorer.errors import ScenarioError
from explorer.scenario import MAX_FILE_BYTES, MAX_NESTING

ROOT = Path(__file__).resolve().parents[1]

SCENARIO = """
[active]
name = "A"
skill = "ranged_attack"
attribute = 12
{active_extra}
[active.weapon]
damage = 13
burst = 1

[[active.attacks]]
target = "B"

[[reactive]]
name = "B"
skill = "evade"
attribute = 11
"""


def _cli_error(capsys, *argv) -> str:
    """Run ``explorer *argv``: exit code 2 and exactly one line on stderr, which is returned."""
    assert main(list(argv)) == 2
    err = capsys.readouterr().err
    assert err.endswith("\n") and err.count("\n") == 1 and "Traceback" not in err, err
    return err.strip()


def _write(tmp_path, text: str, name: str = "s.toml") -> str:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return str(p)


def test_nesting_of_400_levels(tmp_path, capsys):
    text = SCENARIO.format(active_extra="") + "x = " + "[" * 400 + "]" * 400 + "\n"
    path = _write(tmp_path, text)
    line = _cli_error(capsys, "resolve", path)
    n = next(i for i, t in enumerate(text.splitlines(), 1) if t.startswith("x = [[["))
    assert line == (f"error: {path}: scenario: nested more than {MAX_NESTING} levels deep (at line {n}) "
                    f"(allowed: at most {MAX_NESTING} levels of nested arrays and tables)")


def test_an_integer_of_5000_digits(tmp_path, capsys):
    path = _write(tmp_path, SCENARIO.format(active_extra="armor = " + "7" * 5000))
    line = _cli_error(capsys, "resolve", path)
    assert line == (f"error: {path}: scenario: an integer has more than {sys.get_int_max_str_digits()} digits "
                    "(at line 6) (allowed: whole numbers within each field's bounds)")


def test_mods_summing_past_the_digit_limit(tmp_path, capsys):
    digits = sys.get_int_max_str_digits() - 1  # each MOD under the int/str digit limit, their sum over it
    mods = "mods = { " + ", ".join(f"M{i} = {'9' * digits}" for i in range(16)) + " }"
    with pytest.raises(ValueError, match="digits"):  # the fault: printing the sum of these MODs
        str(sum([10 ** digits - 1] * 16))
    path = _write(tmp_path, SCENARIO.format(active_extra=mods))
    line = _cli_error(capsys, "resolve", path)
    assert line == (f"error: {path}: field 'active.mods.M0': an integer of about {digits} digits is too large; 15 "
                    "more problems after this one (allowed: -30 to 30)")
    mods = "mods = { " + ", ".join(f"M{i} = 30" for i in range(2)) + " }"  # each in bounds, the sum is not
    path = _write(tmp_path, SCENARIO.format(active_extra=mods))
    assert _cli_error(capsys, "resolve", path) == (
        f"error: {path}: field 'active.mods': the MODs declared for the Active Miner's roll sum to 60 "
        "(allowed: MODs summing to -30..30)")


def test_mods_summing_past_the_bound_on_the_command_line(capsys):
    line = _cli_error(capsys, "odds", "--attribute-a", "12", "--mod-a", "Range=25", "--mod-a", "Sight=25",
                      "--sv-b", "10")
    assert line == "error: field '--mod-a': the MODs given sum to 50 (allowed: MODs summing to -30..30)"
    line = _cli_error(capsys, "odds", "--attribute-a", "12", "--mod-a", "Range=" + "9" * 30, "--sv-b", "10")
    assert line == ("error: field '--mod-a': 999999999999999999999999999999 is out of range (allowed: a whole number "
                    "-30..30 (one MOD))")


def test_a_cover_mod_on_the_command_line_is_refused_partial_cover_has_its_flag(capsys):
    line = _cli_error(capsys, "odds", "--attribute-a", "12", "--mod-a", "Cover=-3", "--sv-b", "10", "--cover-b")
    assert line == ("error: field '--mod-a': 'Cover' is a Partial Cover MOD, which is derived, not declared (Damage › "
                    "Partial Cover) (allowed: --cover-b for Partial Cover)")
    assert main(["odds", "--attribute-a", "12", "--mod-a", "Range=3", "--sv-b", "10", "--cover-b"]) == 0
    assert "Range +3 Partial Cover -3" in capsys.readouterr().out


def test_a_hex_coordinate_of_hundreds_of_digits(tmp_path):
    key = "1" * 250 + ",0"  # long, yet under the loading gate's key cap (MAX_KEY_CHARS)
    with pytest.raises(ScenarioError) as e:
        Board.from_toml(_write(tmp_path, f'[board]\n[board.cells]\n"0,0" = "sand"\n"{key}" = "sand"\n', "b.toml"))
    msg = str(e.value)
    assert msg.startswith(f"{tmp_path / 'b.toml'}: field 'board.cells.\"1111") and "\n" not in msg
    assert msg.endswith(f"…': not a hex key ('{'1' * 78}… is too long) (allowed: 'q,r' with whole numbers "
                        f"-{MAX_HEX_COORD}..{MAX_HEX_COORD}, e.g. '2,-1')")
    assert len(msg) - len(str(tmp_path)) < 350


def test_nan_in_a_scenery_polygon(tmp_path):
    text = ('[board]\n[board.cells]\n"0,0" = "sand"\n[[board.scenery]]\nname = "Boulder"\n'
            "polygon = [[0.1, 0.1], [0.5, nan], [0.9, 0.1]]\n")
    with pytest.raises(ScenarioError) as e:
        Board.from_toml(_write(tmp_path, text, "b.toml"))
    assert str(e.value) == (f"{tmp_path / 'b.toml'}: field 'board.scenery[0].polygon[1][1]': nan is not a finite "
                            "number (allowed: a finite number -4000 to 4000)")


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")
def test_dev_zero(capsys):
    assert _cli_error(capsys, "resolve", "/dev/zero") == (
        "error: /dev/zero: scenario: is a device, not a file that can be read (allowed: a regular UTF-8 TOML file)")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs")
def test_a_fifo(tmp_path, capsys):
    fifo = tmp_path / "pipe.toml"
    os.mkfifo(fifo)
    assert _cli_error(capsys, "resolve", str(fifo)) == (
        f"error: {fifo}: scenario: is a FIFO (named pipe), not a file that can be read (allowed: a regular UTF-8 "
        "TOML file)")


def test_a_5_mb_value(tmp_path, capsys):
    path = _write(tmp_path, SCENARIO.format(active_extra='description = "' + "x" * 5_000_000 + '"'))
    assert _cli_error(capsys, "resolve", path) == (
        f"error: {path}: scenario: the file is too large ({os.path.getsize(path):,} bytes; the limit is "
        f"{MAX_FILE_BYTES:,} bytes) "
        "(allowed: a regular UTF-8 TOML file)")


def test_a_long_value_under_the_string_cap_is_cut_short(tmp_path, capsys):
    path = _write(tmp_path, SCENARIO.format(active_extra='skill = "' + "x" * 19_000 + '"').replace(
        'skill = "ranged_attack"\n', "", 1))
    line = _cli_error(capsys, "resolve", path)
    assert line.startswith(f"error: {path}: field 'active.skill': 'xxxxx")
    assert line.endswith("is not an allowed value (allowed: one of 'ranged_attack', 'close_combat_attack', 'evade' "
                         "or 'idle')")
    assert len(line) < 400 and "…" in line


def test_a_newline_in_a_field_name(tmp_path, capsys):
    path = _write(tmp_path, SCENARIO.format(active_extra='"bad\\nname" = 1'))
    assert _cli_error(capsys, "resolve", path) == (
        f"error: {path}: field 'active.\"bad\\nname\"': unknown field (allowed: one of 'name', 'attribute', 'mods', "
        "'weapon', 'burst_mod', 'armor', 'wounds', 'partial_cover', 'traits', 'enemy_tags_in_contact', "
        "'neomaterials', 'save_dice', 'at_activation', 'states', 'skill', 'attacks', 'lof_to_attackers', 'dice')")


def test_a_path_of_5000_characters(capsys):
    path = "/tmp/" + "p" * 5000 + ".toml"
    line = _cli_error(capsys, "resolve", path)
    assert line == f"error: /tmp/{'p' * 54}…{'p' * 55}.toml: scenario: cannot read the file (File name too long)"


def test_a_missing_file_points_to_the_built_in_scenarios(capsys):
    line = _cli_error(capsys, "resolve", "no-such-file.toml")
    assert line.startswith("error: no-such-file.toml: scenario: file not found, and no built-in scenario is named "
                           "'no-such-file.toml' (allowed: a built-in name (")
    assert "e.g. book-f2f-1v1, " in line
    assert "`explorer scenarios` lists them" in line
    # a near miss suggests the built-ins it resembles
    assert "did you mean tr-05" in _cli_error(capsys, "resolve", "tr-5")


def test_a_directory_is_one_line(tmp_path, capsys):
    assert _cli_error(capsys, "resolve", str(tmp_path)).endswith(
        "is a directory, not a file that can be read (allowed: a regular UTF-8 TOML file)")


def _run(args, **kw):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "explorer", *args], stderr=subprocess.PIPE, text=True, env=env,
                          timeout=120, **kw)


def test_a_broken_pipe_exits_quietly_like_a_unix_tool():
    r, w = os.pipe()
    os.close(r)  # the reader is gone before anything is written: every write fails with EPIPE
    try:
        p = _run(["resolve", "book-f2f-1v1"], stdout=w)
    finally:
        os.close(w)
    assert p.returncode == 141 and p.stderr == ""


@pytest.mark.parametrize("args", [["scenarios"], ["resolve", "tr-round-loot"], ["resolve", "me-round-1", "--json"]])
def test_a_reader_that_closes_early_leaves_no_message(args):
    """`explorer scenarios | head -1`: the reader takes one line and closes the pipe; the writer ends quietly."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    writer = subprocess.Popen([sys.executable, "-m", "explorer", *args], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, env=env)
    reader = subprocess.Popen(["head", "-c", "1"], stdin=writer.stdout, stdout=subprocess.PIPE)
    writer.stdout.close()  # only the reader holds the pipe now
    first, _ = reader.communicate(timeout=120)
    err = writer.stderr.read().decode()
    code = writer.wait(timeout=120)
    writer.stderr.close()
    assert first and err == "" and code in (0, 141), (code, err)


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
def test_a_full_device_is_one_line_and_exit_2():
    with open("/dev/full", "w") as full:
        p = _run(["resolve", "book-f2f-1v1", "--json"], stdout=full)
    assert p.returncode == 2
    assert p.stderr == "error: cannot write the output (No space left on device)\n"


# ------------------------------------------------------------------ whole Orders (kind = "order"): malformed files
# name the field; illegal declarations are refused with the step, the reason and the section, or become Idle where
# the rulebook says so (Order Expenditure Sequence, step 5)

ORDER = (ROOT / "explorer/games/tagraid/scenarios/tr-18-order.toml").read_text(encoding="utf-8")

ORDER_FAULTS = [
    # (text replaced, replacement, the field named, a phrase of the message)
    ('wounds = 3', 'wounds = 0', "miners[1].wounds", "0 is too small (allowed: 1 to 30)"),
    ('step = 4 }', 'step = 3 }', "order.aros[0].step", "2 or 4"),
    ('[order]\n', '[order]\nbogus = 1\n', "order.bogus", "unknown field"),
    ('rolls = { A = [4, 11, 16]', 'rolls = { A = [4, 11, 21]', "dice.rolls.A[2]", "21 is too large (allowed: 1 to 20)"),
    ('hex = "1,0"', 'hex = "1,0"\noffset = [0.1, 0.0]\nx = 1.0', "miners[1]", "either hex"),
    ('move = { route = ["-2,1"]', 'move = { route = [' + ', '.join(['"-2,1"'] * 33) + ']', "order.move.route",
     "at most 32"),
    ('second = { skill = "ranged_attack"', 'second = { skill = "shoot"', "order.second.skill", "ranged_attack"),
]


@pytest.mark.parametrize("old,new,field,phrase", ORDER_FAULTS, ids=[f[2] for f in ORDER_FAULTS])
def test_a_malformed_order_file_names_the_field(tmp_path, capsys, old, new, field, phrase):
    assert old in ORDER
    path = _write(tmp_path, ORDER.replace(old, new, 1))
    line = _cli_error(capsys, "resolve", path)
    assert line.startswith(f"error: {path}: field '{field}'"), line
    assert phrase in line, line


ILLEGAL = [
    # refused when declared: (text replaced, replacement, field, reason phrase, section)
    ('active = "A"', 'active = "Z"', "order.active", "there is no Miner 'Z'", "Activating a Miner › Orders and AROs"),
    ('route = ["-2,1"]', 'route = ["2,1"]', "order.move.route", "may move 3 Segments", "Common Skills › Move"),
    ('step = 4 }', 'step = 2 }', "order.aros[0].miner", "no right to an ARO at step 2",
     "Activating a Miner › Orders and AROs"),
    ('aros = [{ miner = "R", skill = "ranged_attack", weapon = "Rifle", step = 4 }]',
     'aros = [{ miner = "R", skill = "evade", step = 4 }, { miner = "R", skill = "idle", step = 4 }]',
     "order.aros[1].miner", "already declared its ARO this Order", "Activating a Miner › Orders and AROs"),
    ('targets = [{ target = "R" }]', 'targets = [{ target = "R", burst = 2 }]', "order.second.targets",
     "adds up to 2", "Common Skills › Ranged Attack"),
    ('targets = [{ target = "R" }]', 'targets = [{ target = "Q" }]', "order.second.targets[0].target",
     "not an enemy Miner or the MegaBeast", "Common Skills › Ranged Attack"),
    ('weapon = "Rifle", targets', 'weapon = "Laser", targets', "order.second.weapon", "carries no Weapon 'Laser'",
     "Skills and Tools › Tools"),
    ('[dice]', '[order.evade_moves]\nA = "-1,1"\n\n[dice]', "order.evade_moves.A", "declared no Evade",
     "Common Skills › Evade"),
]


@pytest.mark.parametrize("old,new,field,reason,section", ILLEGAL, ids=[f[2] for f in ILLEGAL])
def test_an_illegal_declaration_is_refused_with_reason_and_section(tmp_path, capsys, old, new, field, reason,
                                                                  section):
    assert old in ORDER
    path = _write(tmp_path, ORDER.replace(old, new, 1))
    line = _cli_error(capsys, "resolve", path)
    assert line.startswith(f"error: {path}: field '{field}': not allowed ("), line
    assert reason in line and f"TAG Raid: {section}" in line, line


def test_requirements_failing_only_at_resolution_become_idle_not_errors():
    """Order Expenditure Sequence, step 5: a declared Skill that fails its Requirements at Resolution counts as Idle
    (TR-18: a Ranged Attack ARO without LoF; TR-21: a Ranged Attack after Silhouette Contact at activation)."""
    from explorer.games import get_game

    g = get_game("tagraid")
    for name, miner in (("tr-18-order", "R"), ("tr-21-order", "A")):
        t = g.resolve(g.load_builtin(name))
        assert t.outcome["counted_as_idle"] == {miner: "ranged_attack"}
        idle = [s for s in t.steps if s.facts.get("miner") == miner and s.facts.get("skill") == "idle"]
        assert idle and all(s.section.startswith("5 Resolution") for s in idle)


# ------------------------------------------------------------------------------------------ issue #9, finding (d)

GD_SHIELDS = """game = "galaxydefenders"
kind = "combat"
[[targets]]
name = "Xeno-Delta"
health = 10
energy_shields = {shields}
[[attacks]]
weapon = "Rifle"
dice = {{ red = 4 }}
target = "Xeno-Delta"
[attacks.rolled]
hit = {{ red = ["hit", "hit", "hit", "hit"] }}
defend = {{ "Xeno-Delta" = ["shield", "blank"] }}
"""


def test_galaxy_defenders_energy_shields_are_bounded(tmp_path, capsys):
    """An Energy Shield stack of 99,999,999 was accepted, and [-2, 2] ended in an error naming neither the file nor
    the field."""
    path = _write(tmp_path, GD_SHIELDS.format(shields="[2, 99999999]"))
    assert _cli_error(capsys, "resolve", path) == (
        f"error: {path}: field 'targets[0].energy_shields[1]': 99999999 is too large (allowed: 0 to 10)")
    path = _write(tmp_path, GD_SHIELDS.format(shields="[-2, 2]"))
    assert _cli_error(capsys, "resolve", path) == (
        f"error: {path}: field 'targets[0].energy_shields[0]': -2 is too small (allowed: 0 to 10)")


def test_galaxy_defenders_too_few_fixed_defend_dice_name_the_file_and_the_field(tmp_path, capsys):
    path = _write(tmp_path, GD_SHIELDS.format(shields="[0]"))
    assert _cli_error(capsys, "resolve", path) == (
        f"error: {path}: field 'attacks[0].rolled.defend.Xeno-Delta': 2 faces given but Xeno-Delta's Defend roll "
        "rolls 4 Blue dice (one per hit) (allowed: exactly 4 faces)")
