"""Golden traces: the text of every built-in Galaxy Defenders scenario's trace, diffed against
tests/galaxydefenders/golden/<name>.txt.

Regenerate after an intended change with ``UPDATE_GOLDEN=1 pytest tests/galaxydefenders/test_golden_traces.py`` and
review the diff.
"""

import json
from pathlib import Path

import pytest
from golden_helpers import check_golden

from explorer.games import get_game

GOLDEN = Path(__file__).parent / "golden"
G = get_game("galaxydefenders")


def render(name: str) -> str:
    t = G.resolve(G.load_builtin(name), rulings={})
    return (t.to_text() + "\n\n" + G.outcome_text(t) + "\n\nOutcome JSON:\n"
            + json.dumps(t.outcome, indent=1, ensure_ascii=False, sort_keys=True) + "\n")


@pytest.mark.parametrize("name", G.builtin_names())
def test_golden_trace(name):
    check_golden(GOLDEN, name, render(name))
