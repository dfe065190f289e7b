"""Golden traces: the text of every D.A.G.G.E.R. built-in scenario's trace (several whole Nemesis Phases among them),
diffed against tests/dagger/golden/<name>.txt. Regenerate after an intended change with
``UPDATE_GOLDEN=1 pytest tests/dagger/test_golden_traces.py`` and review the diff."""

from pathlib import Path

import pytest
from golden_helpers import check_golden, trace_text

from explorer.games import get_game

from .helpers import resolve

GOLDEN = Path(__file__).parent / "golden"


def render(name: str) -> str:
    t = resolve(name)
    return trace_text(t)


@pytest.mark.parametrize("name", get_game("dagger").builtin_names())
def test_golden_trace(name):
    check_golden(GOLDEN, name, render(name))
