"""Newcomer findings on the command line: a bad option names the option as typed (``--ruling``, ``--locked``) in
every command that reads it, the Strategy Pool's headline keeps Paragon dice apart from the Pool's Strategy dice
(Paragon Dice and Renegade Tokens: Paragon dice are added to the Pool), and ``explorer tagraid lof`` says what a
file or name is when it is not a table (a roll scenario, an order or round file, another game's file, a built-in)."""

from __future__ import annotations

import pytest

from explorer.cli import main


def _error(capsys, argv) -> str:
    code = main(list(argv))
    out = capsys.readouterr()
    assert code == 2, (code, out)
    assert out.err.count("\n") == 1 and "Traceback" not in out.err, out.err
    return out.err.strip()


@pytest.mark.parametrize("argv", [
    ["resolve", "tr-02"], ["render", "tr-02"], ["resolve", "me-06"], ["masseffect", "strategy-odds"],
    ["dagger", "forecast", "dg-01"], ["tagraid", "odds", "--burst-a", "1", "--sv-a", "10"],
])
@pytest.mark.parametrize("ruling, words", [("no_such_option=x", "unknown ruling option 'no_such_option'"),
                                           ("broken", "is not key=reading")])
def test_a_bad_ruling_names_the_option_in_every_command(capsys, argv, ruling, words):
    line = _error(capsys, [*argv, "--ruling", ruling])
    assert "field '--ruling'" in line and words.lower() in line.lower(), line
    assert "rulings." not in line, line


def test_an_unknown_reading_lists_that_options_readings(capsys):
    line = _error(capsys, ["resolve", "tr-05", "--ruling", "sv_above_20=nope"])
    assert "field '--ruling'" in line and "unknown reading 'nope' of sv_above_20" in line
    assert "'literal'" in line and "'excess_to_die'" in line


def test_locked_names_its_option_and_help_lists_every_face(capsys):
    line = _error(capsys, ["masseffect", "strategy-odds", "--locked", "foo"])
    assert "field '--locked'" in line and "'core'" in line, line
    assert main(["masseffect", "strategy-odds", "--help"]) == 0
    help_text = " ".join(capsys.readouterr().out.split())
    assert "core" in help_text and "locked_die_icon" in help_text


@pytest.mark.parametrize("paragon, words", [("0", "Pool of 12 Strategy dice: 12 rolled"),
                                            ("1", "Pool of 12 Strategy dice + 1 Paragon die: 13 rolled"),
                                            ("2", "Pool of 12 Strategy dice + 2 Paragon dice: 14 rolled")])
def test_paragon_dice_are_added_to_the_pool(capsys, paragon, words):
    assert main(["masseffect", "strategy-odds", "--pool", "12", "--paragon", paragon]) == 0
    assert words in capsys.readouterr().out.splitlines()[0]


@pytest.mark.parametrize("text, words", [
    ('[active]\nname = "A"\nskill = "evade"\n', "this is a roll scenario"),
    ('kind = "order"\n', "this is an order file"),
    ('kind = "round"\n', "this is a round file"),
    ('game = "masseffect"\n', "this is a scenario of the game 'masseffect'"),
])
def test_tagraid_lof_says_what_a_non_table_file_is(capsys, tmp_path, text, words):
    f = tmp_path / "x.toml"
    f.write_text(text)
    line = _error(capsys, ["tagraid", "lof", str(f)])
    assert words in line and "explorer resolve" in line and str(f) in line, line


@pytest.mark.parametrize("name", ["tr-02", "me-06", "dg-01"])
def test_tagraid_lof_points_a_builtin_scenario_to_resolve(capsys, name):
    line = _error(capsys, ["tagraid", "lof", name])
    assert "is a built-in scenario of" in line and f"explorer resolve {name}" in line, line
