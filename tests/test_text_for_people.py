"""Step and outcome texts are written for people: no Python list, tuple or dict in them, and a counted "die" in
the right number (newcomer findings: D.A.G.G.E.R. "Activation row ['rank-4']", Mass Effect "icons per round [1, 0]",
"rolls 1 dice"). Checked on every built-in scenario of every game, and on the engine sources (every f-string that
counts dice goes through :func:`explorer.text.plural`; the CLI modules are out of scope here)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from explorer.games import all_games
from explorer.text import join_words, plural

PY_REPR = re.compile(r"\[\s*'|(?<![\w\]])\[-?\d+(, -?\d+)*\]|\{'|\(\s*'[^']*',|\[\]")
"""A Python list / dict / tuple repr in a text. An index after a name (``move.path[3]``, a field path a refusal names)
is not one."""
BAD_NUMBER = re.compile(r"(?<![\d.])1 (?:[A-Za-z]+ )?dice\b|(?<![\d.])(?:0|[2-9]|\d{2,}) (?:[A-Za-z]+ )?die\b|die/dice")


def _texts():
    for g in all_games():
        for name in g.builtin_names():
            trace = g.resolve(g.load_builtin(name))
            for s in trace.steps:
                yield g.id, name, s.title
                yield g.id, name, s.detail
            if g.outcome_text is not None:
                yield g.id, name, g.outcome_text(trace)


TEXTS = list(_texts())


def test_no_python_repr_in_any_step_or_outcome_text():
    bad = [(g, n, t[:120]) for g, n, t in TEXTS if t and PY_REPR.search(t)]
    assert not bad, bad[:5]


def test_no_counted_noun_written_with_s_in_brackets():
    """ "2 Saving Roll(s)", "1 more problem(s)": every counted noun is in its number (:func:`explorer.text.plural`)."""
    bad = [(g, n, t[max(0, t.index("(s)") - 60):t.index("(s)") + 3]) for g, n, t in TEXTS if t and "(s)" in t]
    assert not bad, bad[:5]


def test_every_counted_die_is_in_the_right_number():
    bad = [(g, n, t[:120]) for g, n, t in TEXTS if t and BAD_NUMBER.search(t)]
    assert not bad, bad[:5]


ENGINE = [p for p in (Path(__file__).parents[1] / "explorer").rglob("*.py") if not p.name.startswith("cli")]


@pytest.mark.parametrize("pattern, what", [
    (re.compile(r"(?<!no )\{(?![^{}\n]*(?:join|capitalize)\()[^{}\n]*\} (?:[A-Z][A-Za-z]* )?dice\b"),
     "a count before 'dice' without plural()"),
    (re.compile(r"die/dice"), "'die/dice'"),
    (re.compile(r"\}[^\"'{}\n]*[A-Za-z]\((?:s|es)\)"), "a counted noun written with '(s)' instead of plural()"),
    (re.compile(r"\{list\([^{}\n]*\)\}"), "a list shown with {list(...)}"),
])
def test_engine_sources_count_dice_with_plural_and_show_no_list(pattern, what):
    bad = []
    for p in ENGINE:
        for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1):
            if pattern.search(line) and ('f"' in line or "f'" in line):
                bad.append(f"{p.name}:{i}: {line.strip()[:100]}")
    assert not bad, f"{what}: {bad}"


def test_plural_and_join_words():
    assert [plural(n, "die") for n in (0, 1, 2)] == ["0 dice", "1 die", "2 dice"]
    assert plural(1, "Blue die", "Blue dice") == "1 Blue die" and plural(3, "hit") == "3 hits"
    assert join_words(["rank-4"]) == "rank-4" and join_words([]) == "none"
    assert join_words(["rank-2", "rank-3", "rank-4"]) == "rank-2, rank-3 and rank-4"
    assert join_words([1, 0], "then") == "1 then 0"


def test_face_to_face_headline_counts_in_words():
    """The Face to Face page's result line: "B makes 1 Saving Roll, loses 0 Wounds", never "Roll(s)" / "Wound(s)"."""
    from explorer.games import get_game, read_toml
    from explorer.games.tagraid.views import explorer_for_scenario

    g = get_game("tagraid")
    names = [n for n in g.builtin_names() if str(read_toml(n, text=g.scenario_text(n)).get("kind", "")) == ""]
    assert names
    for name in names[::3]:
        text = explorer_for_scenario(name).summary.value
        assert "(s)" not in text and not BAD_NUMBER.search(text), (name, text)


NEGATIVE_ZERO = re.compile(r"(?<![\w.])[-−]0(?![\d.,])")
"""A count written with a minus sign and worth nothing ("-0 Hit Points"): a loss of nothing is left out or said."""
ONE_PLURAL = re.compile(r"(?<![\d.,/-])(?<!→ )(?<!and )(?<!of )1 (?:[A-Za-z-]+ )?(?:points|wounds|tokens|hits|actions|rolls|"
                        r"successes|cards|hexes|rounds|lines|enemies|models|orders|misses|blanks|shields|icons|steps|"
                        r"turns|spaces|areas|squadmates|heroes|minions|dice)\b(?! point)", re.I)
"""One of a counted noun written in the plural ("1 Movement Points", "1 Damage tokens", "1 Wounds"); TAG Raid's
"1 Wounds point" is the book's own phrase, "2 → 1 lines" and "0 and 1 shields" count a list, "1 of 1 Models" a share."""


def test_no_count_written_as_minus_zero():
    bad = [(g, n, t[:120]) for g, n, t in TEXTS if t and NEGATIVE_ZERO.search(t)]
    assert not bad, bad[:5]


LOSS_AS_MINUS = re.compile(r"(?<![\w.,)])[-−]\d+ (?:[A-Z][A-Za-z]* )?(?:Points?|Wounds?|Damage|XP|Movement)\b")
"""A loss written as a minus sign glued to a count in words ("-2 Shield Points", Mass Effect, issue 19): said in words
("2 Shield Points lost"). A modifier to a number of dice ("-1 ATK Dice") is not a loss and is not matched."""


def test_no_loss_written_as_a_minus_sign_before_a_count():
    bad = [(g, n, t[:120]) for g, n, t in TEXTS if t and LOSS_AS_MINUS.search(t)]
    assert not bad, bad[:5]


def test_the_engine_writes_no_minus_sign_before_a_counted_loss():
    """The source side of the same fault: an f-string gluing "-" to a :func:`plural` count."""
    glued = re.compile(r"f[\"'][^\"']*(?<![\w.,)])[-−]\{plural\(")
    bad = [f"{p.name}:{i}" for p in ENGINE for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
           if glued.search(line)]
    assert not bad, bad


def test_one_of_a_counted_noun_is_singular():
    bad = [(g, n, t[max(0, m.start() - 40):m.end()]) for g, n, t in TEXTS if t
           for m in [ONE_PLURAL.search(t)] if m]
    assert not bad, bad[:5]


def test_the_regexes_catch_the_newcomers_findings():
    assert NEGATIVE_ZERO.search("Tali suffers 0 Damage from Husk: -0 Shield Points, -0 Hit Points")
    assert not NEGATIVE_ZERO.search("moves to -0.5 or -01 from -2,-1; -2 Shield Points")
    for t in ("moves to -2,-1 (1 Movement Points)", "    1 Wounds  0.3", "Husk B: 1 Damage tokens removed"):
        assert ONE_PLURAL.search(t), t
    for t in ("loses 1 Wounds point to", "(2 → 1 lines)", "stacks now 0 and 1 shields", "1 Movement Point"):
        assert not ONE_PLURAL.search(t), t
    for t in ("Shepard suffers 2 Damage from Husk B: -2 Shield Points", "-1 Hit Point", "−3 Wounds"):
        assert LOSS_AS_MINUS.search(t), t
    for t in ("2 Shield Points lost", "moves to -2,-1", "-1 ATK Dice (8.2.3)", "at 3,-3 (2 Damage)", "4 -> 2"):
        assert not LOSS_AS_MINUS.search(t), t


def test_percent_never_rounds_a_chance_to_zero_or_certainty():
    from fractions import Fraction

    from explorer.text import percent
    assert percent(Fraction(19, 64_000_000), 3, " ") == "<0.001 %" and percent(0, 3, " ") == "0.000 %"
    assert percent(1 - 1e-9) == ">99.9%" and percent(1) == "100.0%" and percent("1/5") == "20.0%"
    assert percent(0.0001, 2) == "0.01%"


def _cli(argv, capsys):
    from explorer.cli import main
    code = main(argv)
    out = capsys.readouterr()
    return code, out.out, out.err


def test_tagraid_odds_tables_say_1_wound_and_never_0_percent_for_a_chance(capsys):
    code, out, _ = _cli(["tagraid", "odds", "--burst-a", "5", "--sv-a", "19", "--damage-a", "18", "--burst-b", "1",
                         "--sv-b", "10", "--damage-b", "13", "--exact"], capsys)
    assert code == 0
    assert "1 Wound " in out and not ONE_PLURAL.search(out), out
    rows = [ln for ln in out.splitlines() if re.search(r"\d+/\d+\s", ln)]
    assert rows and not [ln for ln in rows if re.search(r"\s0\.000 %", ln)], rows
    assert "<0.001 %" in out


def test_strategy_odds_trigger_rows_sum_to_100_and_faces_have_their_names(capsys):
    code, out, _ = _cli(["masseffect", "strategy-odds", "--pool", "6", "--locked", "enhanced"], capsys)
    assert code == 0
    line = next(ln for ln in out.splitlines() if "Core Ability triggers" in ln)
    ps = [float(x) for x in re.findall(r"P\(\d\+?\)=([\d.]+)%", line)]
    assert "P(5+)=" in line and abs(sum(ps) - 100) < 0.3, line
    assert "move_2_or_standard" not in out and "Move (2 Movement Points) or Standard Action" in out


@pytest.mark.parametrize("argv", [["masseffect", "strategy-odds", "--pool", "99"],
                                  ["galaxydefenders", "odds", "--fixed-hits", "99"]])
def test_a_whole_number_out_of_range_is_called_out_of_range(argv, capsys):
    code, out, err = _cli(argv, capsys)
    if "No such option" in err:
        pytest.skip(err)
    assert code == 2 and "99 is out of range" in err and "is not a whole number" not in err, err


def test_dagger_rest_says_what_the_empowered_number_is():
    bad = [(g, n, t[:160]) for g, n, t in TEXTS if t and re.search(r"With an empowered token: [\d.]+\.", t)]
    assert not bad, bad[:3]


PERCENT_FORMAT = re.compile(r"\{[^{}\"]*:[0-9>]*\.[0-9]+%\}|\{100 ?\* ?[^{}]*:[0-9>]*\.[0-9]+f\} ?%")
"""A probability formatted by Python alone ("{p:.1%}", "{100 * p:.3f} %"): it shows a non-zero chance as 0."""


def test_every_probability_shown_goes_through_percent():
    """A chance is shown with :func:`explorer.text.percent` (CLI modules included), never rounded to "0.000 %";
    a fraction of a distance ("50% of the way") and a width in CSS are not chances."""
    bad = []
    for p in (Path(__file__).parents[1] / "explorer").rglob("*.py"):
        for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1):
            if PERCENT_FORMAT.search(line) and "of the way" not in line and "width:" not in line \
                    and "{frac:.0%} of" not in line and p.name != "odds_chart.py":
                bad.append(f"{p.name}:{i}: {line.strip()[:100]}")
    assert not bad, bad
