"""The tutorials' shape: numbered as their files, each asks the reader to predict first and checks every guess in code
(``explorer.guess.check_guess``) after the answer is computed."""

from __future__ import annotations

import doctest
import json
import re
from pathlib import Path

import pytest

import explorer.guess

ROOT = Path(__file__).resolve().parents[1]
TUTORIALS = sorted((ROOT / "tutorials").glob("*.ipynb"))


def _cells(path: Path) -> list[tuple[str, str]]:
    return [(c["cell_type"], "".join(c["source"])) for c in json.loads(path.read_text())["cells"]]


def test_check_guess_says_right_or_the_engines_answer():
    assert doctest.testmod(explorer.guess).failed == 0


@pytest.mark.parametrize("path", TUTORIALS, ids=lambda p: p.stem)
def test_tutorial_is_titled_with_its_own_number(path):
    kind, first = _cells(path)[0]
    number = int(path.name.split("_")[0])
    assert kind == "markdown" and first.startswith(f"# Tutorial {number} — "), first[:80]


@pytest.mark.parametrize("path", TUTORIALS, ids=lambda p: p.stem)
def test_tutorial_predicts_first_and_checks_every_guess_after(path):
    code = [src for kind, src in _cells(path) if kind == "code"]
    guessed = {}   # guess variable -> index of the code cell that sets it
    for i, src in enumerate(code):
        for line in src.splitlines():
            m = re.match(r"^((?:my_\w+\s*,\s*)*my_\w+)\s*=", line)
            if m:
                for name in re.split(r"\s*,\s*", m.group(1)):
                    guessed.setdefault(name, i)
    assert guessed, f"{path.name}: no predict-first guess (a my_... = ... cell)"
    for name, at in guessed.items():
        later = [src for src in code[at + 1:] if re.search(rf"check_guess\([^\n]*\b{name}\b", src)]
        assert later, f"{path.name}: the guess {name} is never checked by check_guess in a later cell"
