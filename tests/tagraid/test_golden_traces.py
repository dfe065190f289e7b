"""Golden traces: the text of every built-in scenario's trace, diffed against tests/tagraid/golden/<name>.txt.

Regenerate after an intended change with ``UPDATE_GOLDEN=1 pytest tests/tagraid/test_golden_traces.py`` and review
the diff.
"""

from pathlib import Path

import pytest
from golden_helpers import check_golden, trace_text

from explorer.games.tagraid.resolve import resolve
from explorer.games.tagraid.scenarios import list_order_scenarios, list_scenarios, load_scenario

GOLDEN = Path(__file__).parent / "golden"


def render(name: str) -> str:
    t = resolve(load_scenario(name))
    return trace_text(t)


@pytest.mark.parametrize("name", [s["name"] for s in list_scenarios()])
def test_golden_trace(name):
    check_golden(GOLDEN, name, render(name))


@pytest.mark.parametrize("name", ["book-f2f-1v1", "tr-09"])
def test_html_rendering(name):
    html = resolve(load_scenario(name))._repr_html_()
    assert html.startswith("<div class='explorer-trace'>") and "Face to Face" in html


@pytest.mark.parametrize("name", [s["name"] for s in list_order_scenarios()])
def test_golden_order_trace(name):
    """A whole Order (kind = "order"): every step of the Order Expenditure Sequence, then the outcome and its
    plain-text summary."""
    from explorer.games import get_game
    from explorer.games.tagraid.game import outcome_text

    g = get_game("tagraid")
    t = g.resolve(g.load_builtin(name))
    check_golden(GOLDEN, name, trace_text(t) + "\n" + outcome_text(t) + "\n")
