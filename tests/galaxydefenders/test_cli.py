"""`explorer galaxydefenders odds`, and the registry verbs on Galaxy Defenders scenarios."""

import json
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

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


def test_odds_names_an_option_for_values_the_model_once_refused_with_a_traceback(capsys):
    """A ``--drop`` colour longer than a name, six ``--effect-symbols``: one line naming the option (pydantic's
    multi-line error before the verb built its attack without pydantic)."""
    for argv, text in ((["--dice", "red=3,blue=2", "--atk-dice-minus", "1", "--drop", "b" * 50],
                        "field '--drop': 'bbbbbbbbbbbbbbbbbbbb' is not a colour of this pool"),
                       (["--dice", "red=3", "--effect-symbols", ",".join(["bolt"] * 6)],
                        "field '--effect-symbols': a symbol is listed twice")):
        assert main(["galaxydefenders", "odds", *argv]) == 2
        err = capsys.readouterr().err
        assert text in err and err.count("\n") == 1


COLOURS = st.sampled_from(["red", "blue", "yellow", "green"])
EFFECTS = st.lists(st.fixed_dictionaries({"kind": st.sampled_from(["lethal", "def_dice_minus", "critical"]),
                                          "trigger": st.sampled_from(["always", "bolt"])},
                                         optional={"x": st.integers(1, 2)}), max_size=3)


@settings(max_examples=60, deadline=None)
@given(dice=st.dictionaries(COLOURS, st.integers(0, 12), max_size=4), hits=st.none() | st.integers(0, 20),
       bonus=st.integers(0, 10), extra=st.dictionaries(COLOURS, st.integers(0, 12), max_size=4),
       symbols=st.lists(st.sampled_from(["bolt", "wings", "shield", "jam", "ammo"]), min_size=1, max_size=5,
                        unique=True),
       suit=st.booleans(), minus=st.integers(0, 5), drop=st.lists(COLOURS, max_size=5), no_bolt=st.booleans(),
       effects=EFFECTS)
def test_the_odds_verbs_plain_attack_is_the_validated_model(dice, hits, bonus, extra, symbols, suit, minus, drop,
                                                             no_bolt, effects):
    """:func:`.cli.odds_attack` (the model's defaults from the parse cache, no pydantic when warm) gives the fields
    the validated :class:`AttackModel` has, for any values the verb's own bounds let through."""
    from explorer.games.galaxydefenders.cli import odds_attack
    from explorer.games.galaxydefenders.combat_file import AttackModel

    fields = {"dice": dice, "fixed_hits": hits, "bonus_hits": bonus, "bonus_dice": extra, "effect_symbols": symbols,
              "power_suit_weapon": suit, "atk_dice_minus": minus, "drop": drop, "no_bolt": no_bolt}
    plain = odds_attack(fields, effects)
    model = AttackModel(target="target", effects=effects, **fields)
    assert plain.model_dump() == model.model_dump()
    assert type(plain).__name__ == "AttackModel" and [type(e).__name__ for e in plain.effects] == ["EffectModel"] * len(
        effects)


def test_resolve_scenarios_and_rulings(capsys):
    assert main(["resolve", "gd-01"]) == 0
    assert "5 Blue dice" in capsys.readouterr().out
    assert main(["rulings", "--game", "galaxydefenders", "--json"]) == 0
    keys = {d["key"] for d in json.loads(capsys.readouterr().out)}
    assert "def_dice_minus_base" in keys
    assert main(["resolve", "gd-book-high-impact", "--ruling", "def_dice_minus_base=total_hits"]) == 0


def test_odds_refuses_a_repeated_colour_and_a_drop_that_would_be_ignored(capsys):
    """Session 14: ``--dice red=12,red=12`` summed to 24 red dice past the bound of one colour (0..12), and
    ``--drop`` without ``--atk-dice-minus`` (or with ``--fixed-hits``) was silently ignored."""
    for argv, text in ((["--dice", "red=12,red=12"], "field '--dice': colour 'red' is given twice"),
                       (["--dice", "red=3,Red=1"], "field '--dice': colour 'red' is given twice"),
                       (["--bonus-dice", "red=1,red=1", "--dice", "red=2"], "field '--bonus-dice': colour 'red'"),
                       (["--dice", "red=3", "--drop", "red"], "field '--drop': names the dice"),
                       (["--fixed-hits", "3", "--atk-dice-minus", "1", "--drop", "red"], "--fixed-hits rolls no dice")):
        assert main(["galaxydefenders", "odds", *argv]) == 2, argv
        err = capsys.readouterr().err
        assert text in err and err.count("\n") == 1 and "(allowed: " in err, err
