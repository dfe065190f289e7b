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
    (re.compile(r"\{(?![^{}\n]*(?:join|capitalize)\()[^{}\n]*\} (?:[A-Z][A-Za-z]* )?dice\b"),
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
