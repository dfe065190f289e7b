"""`explorer rulings` lists every ruling option with its readings and default."""

import json

import pytest

from explorer.cli import main
from explorer.games.tagraid.options import ALL_OPTIONS


def test_rulings_text_lists_every_option_and_marks_default(capsys):
    assert main(["rulings"]) == 0
    out = capsys.readouterr().out
    for o in ALL_OPTIONS:
        assert f"{o.key}: {o.title}" in out
        assert f"* {o.default}" in out
        for name in o.readings:
            assert name in out


def test_rulings_json_round_trips(capsys):
    assert main(["rulings", "--json"]) == 0
    data = [d for d in json.loads(capsys.readouterr().out) if d["game"] == "tagraid"]
    assert [d["key"] for d in data] == [o.key for o in ALL_OPTIONS]
    assert len({d["key"] for d in data}) == len(data)
    assert all(d["default"] in d["readings"] and len(d["readings"]) >= 2 for d in data)


@pytest.mark.parametrize("argv", [
    ["resolve", "tr-05", "--ruling", "sv_above_20=literal", "--ruling", "sv_above_20=excess_to_die"],
    ["render", "tr-05", "--format", "md", "--ruling", "sv_above_20=literal", "--ruling", "sv_above_20=literal"],
    ["tagraid", "odds", "--burst-a", "2", "--sv-a", "23", "--burst-b", "0", "--ruling", "sv_above_20=literal",
     "--ruling", "sv_above_20=excess_to_die"],
    ["galaxydefenders", "odds", "--dice", "red=3", "--ruling", "def_dice_minus_base=total_hits",
     "--ruling", "def_dice_minus_base=remaining_hits"],
    ["dagger", "forecast", "dg-three-rounds", "--ruling", "mission_fail_comparison=literal",
     "--ruling", "mission_fail_comparison=track_reaches_value"],
])
def test_a_ruling_option_given_twice_is_refused(argv, capsys):
    """Session 14: ``--ruling k=a --ruling k=b`` took the last reading silently, on every command that reads it."""
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "field '--ruling'" in err and "is given twice" in err and err.count("\n") == 1, err
