"""Golden-file comparison shared by every game's golden-trace tests.

A golden file holds the text of a trace (its steps, then its outcome as sorted JSON). ``check_golden`` compares the text
with ``<folder>/<name>.txt``; with ``UPDATE_GOLDEN=1`` it rewrites the file instead, and a missing file is written and
the test fails once so that the new file is reviewed before it is committed.
"""

import json
import os
from pathlib import Path

import pytest


def trace_text(trace) -> str:
    """The golden text of a trace: its steps, a blank line, then ``Outcome:`` and the outcome as sorted JSON."""
    return (trace.to_text() + "\n\nOutcome:\n"
            + json.dumps(trace.outcome, indent=1, ensure_ascii=False, sort_keys=True) + "\n")


def check_golden(folder: Path, name: str, text: str) -> None:
    """Assert that ``text`` equals ``folder/name.txt`` (or write it under ``UPDATE_GOLDEN=1`` / when it is missing)."""
    path = Path(folder) / f"{name}.txt"
    if os.environ.get("UPDATE_GOLDEN") or not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        if not os.environ.get("UPDATE_GOLDEN"):
            pytest.fail(f"golden file {path.name} was missing and has been written; review and commit it")
    assert text == path.read_text(encoding="utf-8")
