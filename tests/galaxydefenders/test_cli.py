"""`explorer galaxydefenders odds`, and the registry verbs on Galaxy Defenders scenarios."""

import json
from fractions import Fraction

from explorer.cli import main


def test_odds_json_exact(capsys):
    assert main(["galaxydefenders", "odds", "--fixed-hits", "8", "--def-dice-minus", "2", "--json", "--exact"]) == 0
    s = json.loads(capsys.readouterr().out)
    assert sum(Fraction(v) for v in s["wounds"].values()) == 1
    assert min(int(k) for k in s["wounds"]) == 3          # 5 Blue dice at most: at least 3 wounds


def test_odds_text_says_the_calibration_is_assumed(capsys):
    assert main(["galaxydefenders", "odds", "--dice", "red=3", "--shields", "1,1", "--critical", "1"]) == 0
    out = capsys.readouterr().out
    assert "ASSUMED" in out and "expected wounds" in out


def test_odds_errors_are_one_line(capsys):
    for argv, text in ((["--dice", "red=99"], "0 to 12"), (["--dice", "pink=1"], "no calibrated die colour"),
                       ([], "either --dice or --fixed-hits"), (["--fixed-hits", "2", "--kind", "robot"], "kind"),
                       (["--fixed-hits", "2", "--calibration", "/nonexistent.toml"], "file not found")):
        assert main(["galaxydefenders", "odds", *argv]) == 2
        err = capsys.readouterr().err
        assert text in err and err.count("\n") == 1


def test_resolve_scenarios_and_rulings(capsys):
    assert main(["resolve", "gd-01"]) == 0
    assert "5 Blue dice" in capsys.readouterr().out
    assert main(["rulings", "--game", "galaxydefenders", "--json"]) == 0
    keys = {d["key"] for d in json.loads(capsys.readouterr().out)}
    assert "def_dice_minus_base" in keys
    assert main(["resolve", "gd-book-high-impact", "--ruling", "def_dice_minus_base=total_hits"]) == 0
