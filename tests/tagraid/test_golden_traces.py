"""Golden traces: the text of every built-in scenario's trace, diffed against tests/tagraid/golden/<name>.txt.

Regenerate after an intended change with ``UPDATE_GOLDEN=1 pytest tests/tagraid/test_golden_traces.py`` and review
the diff.
"""

import json
import os
from pathlib import Path

import pytest

from explorer.games.tagraid.resolve import resolve
from explorer.games.tagraid.scenarios import list_scenarios, load_scenario

GOLDEN = Path(__file__).parent / "golden"


def render(name: str) -> str:
    t = resolve(load_scenario(name))
    return t.to_text() + "\n\nOutcome:\n" + json.dumps(t.outcome, indent=1, ensure_ascii=False, sort_keys=True) + "\n"


@pytest.mark.parametrize("name", [s["name"] for s in list_scenarios()])
def test_golden_trace(name):
    path = GOLDEN / f"{name}.txt"
    text = render(name)
    if os.environ.get("UPDATE_GOLDEN") or not path.exists():
        GOLDEN.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
        if not os.environ.get("UPDATE_GOLDEN"):
            pytest.fail(f"golden file {path.name} was missing and has been written; review and commit it")
    assert text == path.read_text(encoding="utf-8")


@pytest.mark.parametrize("name", ["book-f2f-1v1", "tr-09"])
def test_html_rendering(name):
    html = resolve(load_scenario(name))._repr_html_()
    assert html.startswith("<div class='explorer-trace'>") and "Face to Face" in html
