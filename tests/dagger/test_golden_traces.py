"""Golden traces: the text of every D.A.G.G.E.R. built-in scenario's trace (several whole Nemesis Phases among them),
diffed against tests/dagger/golden/<name>.txt. Regenerate after an intended change with
``UPDATE_GOLDEN=1 pytest tests/dagger/test_golden_traces.py`` and review the diff."""

import json
import os
from pathlib import Path

import pytest

from explorer.games import get_game

from .helpers import resolve

GOLDEN = Path(__file__).parent / "golden"


def render(name: str) -> str:
    t = resolve(name)
    return t.to_text() + "\n\nOutcome:\n" + json.dumps(t.outcome, indent=1, ensure_ascii=False, sort_keys=True) + "\n"


@pytest.mark.parametrize("name", get_game("dagger").builtin_names())
def test_golden_trace(name):
    path = GOLDEN / f"{name}.txt"
    text = render(name)
    if os.environ.get("UPDATE_GOLDEN") or not path.exists():
        GOLDEN.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
        if not os.environ.get("UPDATE_GOLDEN"):
            pytest.fail(f"golden file {path.name} was missing and has been written; review and commit it")
    assert text == path.read_text(encoding="utf-8")
