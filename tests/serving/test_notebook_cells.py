"""Trap 8 of :mod:`explorer.serving.notebook`: under ``panel serve`` a cell's ``display()`` calls are shown only when
the cell ends in an expression. Every notebook and tutorial cell that calls ``display()`` in a served session must
therefore be one Panel captures; asked of Panel's own cell parser (``panel.io.handlers.capture_code_cell``), so a
cell Panel would drop fails here instead of leaving the first visitor a blank page."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from panel.io.handlers import capture_code_cell

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted(p for d in ("notebooks", "tutorials") for p in (ROOT / d).glob("*.ipynb"))
DISPLAY = re.compile(r"(?<![\w.])display\(")


def _served_display_cells(path: Path) -> list[dict]:
    """The code cells of ``path`` that call ``display(`` and are not guarded out of served sessions."""
    nb = json.loads(path.read_text(encoding="utf-8"))
    cells = []
    for k, c in enumerate(nb["cells"]):
        src = "".join(c["source"])
        if c["cell_type"] == "code" and DISPLAY.search(src) and "if not pn.state.served" not in src:
            cells.append({"id": c.get("id", str(k)), "source": src})
    return cells


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_served_display_call_is_captured(path):
    for cell in _served_display_cells(path):
        code = "\n".join(capture_code_cell(cell))
        assert "_CELL__DISPLAY" in code, (
            f"{path.name}: a cell calls display() but ends in a statement; panel serve would show nothing "
            f"(end the cell in the expression to show):\n{cell['source']}")


def test_the_check_can_fail():
    """The rule the test enforces, on the very cell shape that left the Round pages blank."""
    bad = {"id": "x", "source": "if flag:\n    display(a)\nelse:\n    display(b)"}
    good = {"id": "y", "source": "a if flag else b"}
    assert "_CELL__DISPLAY" not in "\n".join(capture_code_cell(bad))
    assert "_CELL__DISPLAY" in "\n".join(capture_code_cell(good))
