"""What the notebooks teach, checked by nbval: the text outputs (verdicts, odds, traces, guess checks) are stored in the
notebooks and compared strictly; everything else is stored without outputs.

How: the project runs ``pytest --nbval-lax`` over ``notebooks/`` and ``tutorials/`` (every cell must run); in that mode
nbval compares the outputs of exactly the cells marked ``# NBVAL_CHECK_OUTPUT`` with the outputs stored for them.
:func:`refresh` executes each notebook and marks and stores the outputs of every code cell whose outputs are text only
(printed lines, plain-text results) and free of anything that varies between runs (addresses, times); widget cells
(a widget view), pictures (SVG, HTML) and cells marked ``# NBVAL_IGNORE_OUTPUT`` (timings) are left unchecked and
stored without outputs. A changed verdict then fails ``pytest notebooks tutorials`` (``tests/test_nb_outputs.py``
proves it).

After changing a notebook or what it prints on purpose: ``PYTHONPATH=. .venv/bin/python tests/nb_outputs.py`` (all
notebooks) or ``... tests/nb_outputs.py tutorials/01_face_to_face_rolls.ipynb``; read the diff of the stored outputs.
"""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHECK = "# NBVAL_CHECK_OUTPUT"
IGNORE = "# NBVAL_IGNORE_OUTPUT"
TEXT_ONLY = {"text/plain"}
VARYING = re.compile(r"0x[0-9a-f]{6,}|\b\d+(\.\d+)? ?(ms|s|seconds)\b|/tmp/|pytest-of")
"""Output text that differs between runs: object addresses, timings, temporary paths."""


def notebooks() -> list[Path]:
    return sorted(ROOT.glob("notebooks/*.ipynb")) + sorted(ROOT.glob("tutorials/*.ipynb"))


def _source(cell) -> str:
    return "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]


def _checkable(outputs: list[dict]) -> bool:
    """Text only, and nothing that varies between runs."""
    if not outputs:
        return False
    for o in outputs:
        if o["output_type"] == "stream":
            if o.get("name") != "stdout":
                return False
            text = "".join(o["text"]) if isinstance(o["text"], list) else o["text"]
        elif o["output_type"] == "execute_result":
            if set(o["data"]) - TEXT_ONLY:
                return False
            text = "".join(o["data"]["text/plain"])
        else:
            return False
        if VARYING.search(text):
            return False
    return True


def refresh(path: Path, timeout: int = 600) -> list[int]:
    """Execute ``path`` (kernel ``python3``, working directory its folder, this checkout first on ``PYTHONPATH``),
    mark the checkable cells ``# NBVAL_CHECK_OUTPUT`` and store their outputs; every other cell is stored without
    outputs and unmarked. Returns the indices of the checked cells.

    Raises:
        nbclient.exceptions.CellExecutionError: a cell fails.
    """
    import nbformat
    from nbclient import NotebookClient

    os.environ["PYTHONPATH"] = str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")
    raw = json.loads(path.read_text())
    nb = nbformat.reads(path.read_text(), as_version=4)
    for cell in nb.cells:   # run without the marks: a cell's output decides whether it is checked
        if cell.cell_type == "code":
            cell.source = "\n".join(line for line in cell.source.split("\n") if line.strip() != CHECK)
    NotebookClient(nb, timeout=timeout, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}
                   ).execute()
    checked = []
    for i, (cell, out) in enumerate(zip(raw["cells"], nb.cells, strict=True)):
        if cell["cell_type"] != "code":
            continue
        lines = [line for line in _source(cell).split("\n") if line.strip() != CHECK]
        text = "\n".join(lines)
        cell["execution_count"] = None
        if IGNORE not in text and _checkable(out.outputs):
            text = CHECK + "\n" + text
            cell["execution_count"] = i   # nbval skips a stored output whose cell has no execution count
            cell["outputs"] = [_plain(o, i) for o in out.outputs]
            checked.append(i)
        else:
            cell["outputs"] = []
        cell["source"] = text.splitlines(keepends=True)
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(raw, fh, indent=1, ensure_ascii=False)
        fh.write("\n")
    return checked


def _plain(o, count: int) -> dict:
    """A stored output as nbformat writes it, with the cell's stored execution count (nbval does not compare it)."""
    o = dict(o)
    if o["output_type"] == "execute_result":
        o["execution_count"] = count
        o["metadata"] = {}
        o["data"] = {"text/plain": o["data"]["text/plain"]}
    return {k: v for k, v in o.items()}


if __name__ == "__main__":
    for p in [Path(a).resolve() for a in sys.argv[1:]] or notebooks():
        print(p.relative_to(ROOT), "checked cells:", refresh(p))
