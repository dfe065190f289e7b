"""What the notebooks teach is checked: the text outputs of the notebooks and tutorials (verdicts, odds, traces, the
predict-first checks) are stored and nbval compares them strictly (``# NBVAL_CHECK_OUTPUT`` under ``--nbval-lax``,
see ``tests/nb_outputs.py``), so a changed verdict fails the notebook tests; widgets, pictures and timings are not
compared."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from nb_outputs import CHECK, IGNORE, ROOT, notebooks


def _code(path):
    return [c for c in json.loads(path.read_text())["cells"] if c["cell_type"] == "code"]


@pytest.mark.parametrize("path", notebooks(), ids=lambda p: p.stem)
def test_checked_cells_store_text_outputs_and_no_other_cell_stores_any(path):
    cells = _code(path)
    checked = [c for c in cells if "".join(c["source"]).startswith(CHECK + "\n")]
    assert checked, f"{path.name}: nothing it prints is checked"
    for c in cells:
        src = "".join(c["source"])
        if c in checked:
            assert c["outputs"], f"{path.name}: a checked cell without stored outputs:\n{src[:200]}"
            for o in c["outputs"]:
                assert o["output_type"] in ("stream", "execute_result"), o["output_type"]
                assert set(o.get("data", {})) <= {"text/plain"}   # text only: no widget view, no picture
            assert IGNORE not in src
        else:
            assert not c["outputs"], f"{path.name}: outputs stored for an unchecked cell:\n{src[:200]}"


def test_timing_cells_are_ignored():
    timed = [(p.name, c) for p in notebooks() for c in _code(p) if "perf_counter" in "".join(c["source"])]
    assert timed and all("".join(c["source"]).startswith(IGNORE) for _, c in timed)


@pytest.mark.slow
def test_a_changed_verdict_fails_the_notebook_tests(tmp_path):
    """A stored verdict of tutorial 6 altered by one character: ``pytest --nbval-lax`` on the copy fails on that cell
    (the unaltered notebook passes in the suite itself)."""
    src = ROOT / "tutorials" / "06_galaxy_defenders_alien_ai.ipynb"
    nb = json.loads(src.read_text())
    cell = next(c for c in nb["cells"] if c["cell_type"] == "code" and "".join(c["source"]).startswith(CHECK)
                and c["outputs"] and c["outputs"][0]["output_type"] == "stream")
    text = "".join(cell["outputs"][0]["text"])
    changed = text.replace("right", "wrong", 1) if "right" in text else "X" + text
    cell["outputs"][0]["text"] = changed.splitlines(keepends=True)
    copy = tmp_path / src.name
    copy.write_text(json.dumps(nb))
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--nbval-lax", str(copy)],
                       cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    assert r.returncode == 1, r.stdout[-2000:]
    assert "1 failed" in r.stdout and "NBVAL_CHECK_OUTPUT" in r.stdout, r.stdout[-3000:]
