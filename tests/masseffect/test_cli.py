"""`explorer masseffect ...` verbs and Mass Effect scenarios through the registry's `explorer resolve`."""

import json
from fractions import Fraction

from explorer.cli import main
from explorer.games.masseffect.strategy_odds import p_can_fill


def test_strategy_odds_json_matches_the_engine(capsys):
    assert main(["masseffect", "strategy-odds", "--pool", "6", "--locked", "enhanced", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    exact = Fraction(d["p_fill_move_standard_enhanced"]["exact"])
    assert exact == p_can_fill(["move", "standard", "enhanced"], 6, locked="enhanced", exact=True)
    assert d["rolled"] == 5


def test_strategy_odds_text_and_errors(capsys):
    assert main(["masseffect", "strategy-odds", "--pool", "12"]) == 0
    assert "P(fill Move + Standard + Enhanced)" in capsys.readouterr().out
    for args, field in ((["--pool", "13"], "--pool"), (["--pool", "9" * 5000], "--pool"),
                        (["--paragon", "x"], "--paragon"), (["--locked", "core"], "locked"),
                        (["--ruling", "nokey"], "--ruling")):
        assert main(["masseffect", "strategy-odds", *args]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and field in err[0] and len(err[0]) < 400, err


def test_resolve_a_mass_effect_builtin_and_a_file(capsys, tmp_path):
    from explorer.games import get_game

    assert main(["resolve", "me-diagram-5", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["steps"][0]["rule"]["game"] == "Mass Effect" and d["outcome"]["locked"]
    f = tmp_path / "mine.toml"
    f.write_text(get_game("masseffect").scenario_text("me-diagram-5"), encoding="utf-8")
    assert main(["resolve", str(f), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["outcome"] == d["outcome"]
