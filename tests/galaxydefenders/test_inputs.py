"""Bad input: calibration files and scenarios get one-line errors naming the field and what is allowed."""

import pytest

from explorer.errors import ScenarioError
from explorer.games import get_game, load_any
from explorer.games.galaxydefenders.calibration import calibration_from_data, load_calibration

G = get_game("galaxydefenders")


@pytest.mark.parametrize("data, match", [
    ({"dice": {"red": {"faces": ["hit"] * 5}}}, r"dice\.red\.faces.*sum to 5/6, not 1"),
    ({"dice": {"red": {"sides": 4, "faces": ["hit", "zap", "blank", "blank"]}}}, r"dice\.red\.faces\[1\].*'zap'"),
    ({"dice": {"red": {"faces": ["hit+blank"] * 6}}}, r"'blank' cannot be combined"),
    ({"defend_die": "green"}, r"defend_die.*'green'"),
    ({"dice": {"red": {"sides": 99, "faces": ["hit"] * 6}}}, r"dice\.red\.sides"),
    ({"critical_tokens": [{"id": "a", "level": 1, "effect": "paralyzed", "compat": "others"}]},
     r"no token compatible with agents"),
    ({"critical_tokens": [{"id": "a", "level": 1, "effect": "explode"}]}, r"critical_tokens\[0\]\.effect"),
])
def test_bad_calibration(data, match):
    with pytest.raises(ScenarioError, match=match):
        calibration_from_data(data, "my.toml")


def test_user_calibration_file_overrides_the_default(tmp_path):
    f = tmp_path / "dice.toml"
    f.write_text('[dice.red]\nsides = 6\nfaces = ["hit", "hit", "hit", "hit", "hit", "hit"]\n', encoding="utf-8")
    cal = load_calibration(f)
    assert all(x.hits == 1 for x in cal.die("red").faces) and cal.defend_die == "blue" and cal.tokens


BASE = '''game = "galaxydefenders"
kind = "combat"
[[targets]]
name = "X"
health = 3
[[attacks]]
target = "X"
'''


@pytest.mark.parametrize("extra, match", [
    ('dice = { red = 2 }\nfixed_hits = 2\n', r"attacks\[0\]\.fixed_hits.*either dice or"),
    ('fixed_hits = 2\neffects = [{ kind = "lethal", trigger = "bolt" }]\n', r"attacks\[0\]\.effects.*no Bolt"),
    ('dice = { pink = 2 }\n', r"attacks\[0\]\.dice\.pink.*no calibrated die colour"),
    ('dice = { red = 2, blue = 1 }\natk_dice_minus = 1\n', r"attacks\[0\]\.drop.*which 1"),
    ('dice = { red = 2 }\n[attacks.rolled]\nhit = { red = ["hit"] }\n', r"rolled\.hit\.red.*1 faces but 2"),
    ('dice = { red = 1 }\n[attacks.rolled]\nhit = { red = ["shield"] }\n', r"red die has no face 'shield'"),
    ('dice = { red = 1 }\nweapon_power = 3\n', r"attacks\[0\]\.weapon_power.*unknown field"),
    ('dice = { red = 1 }\ndamage = "nuke"\n', r"attacks\[0\]\.damage"),
])
def test_bad_combat_scenario(extra, match):
    with pytest.raises(ScenarioError, match=match):
        load_any("bad.toml", text=BASE + extra)


def test_unknown_kind_and_target():
    with pytest.raises(ScenarioError, match=r"kind.*unknown Galaxy Defenders scenario kind 'poker'"):
        load_any("x.toml", text='game = "galaxydefenders"\nkind = "poker"\n')
    with pytest.raises(ScenarioError, match=r"attacks\[0\]\.target.*no target named 'Y'"):
        load_any("x.toml", text=BASE.replace('target = "X"', 'target = "Y"') + "fixed_hits = 1\n")


def test_seeded_dice_are_reproducible_and_reroll_ignores_fixed_faces():
    kind, sc = G.load_builtin("gd-04")
    a = G.resolve((kind, sc), rulings={}, seed=7, reroll=True).to_dict()
    b = G.resolve((kind, sc), rulings={}, seed=7, reroll=True).to_dict()
    assert a == b
