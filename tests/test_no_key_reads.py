"""No module under ``explorer/`` reads a step's fact or a trace's outcome by key (issue 18 item 3).

Facts (``Step.facts``) and the JSON outcome (``Trace.outcome``) are output: ``--json``, the golden files and scripts
read them. The engine, the outcome texts, the pictures and the pages read typed values instead (a frame's state,
``trace.result``). This test scans every module with ``ast`` for a subscript (``x.facts["hits"]``,
``trace.outcome[key]``) or a ``.get(...)`` on an attribute named ``facts`` or ``outcome``; writing them (an assignment,
``json.dumps(trace.outcome)``, ``Trace.with_result``) and a slice of a list named ``facts`` (``board_roll.facts[:12]``:
a list of typed board facts) are allowed.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1] / "explorer"
WATCHED = {"facts", "outcome"}


def key_reads(source: str) -> list[tuple[int, str]]:
    """``(line, code)`` of every read of a ``.facts`` / ``.outcome`` attribute by key in ``source``."""
    tree = ast.parse(source)
    out: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load):
            base, key = node.value, node.slice
            if isinstance(base, ast.Attribute) and base.attr in WATCHED:
                if isinstance(key, ast.Slice) or (isinstance(key, ast.Constant) and type(key.value) is int):
                    continue
                out.append((node.lineno, ast.unparse(node)))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in (
                "get", "pop", "setdefault"):
            base = node.func.value
            if isinstance(base, ast.Attribute) and base.attr in WATCHED:
                out.append((node.lineno, ast.unparse(node)))
    return out


def test_the_scan_finds_key_reads_and_allows_writes():
    bad = """
x = step.facts["hits"]
y = trace.outcome.get("pairs", [])
z = res.trace.outcome[k]
"""
    assert [line for line, _ in key_reads(bad)] == [2, 3, 4]
    ok = """
trace.outcome = {"a": 1}
print(json.dumps(trace.outcome))
trace.with_result(result)
first = board.facts[:12]
one = board.facts[0]
self.board_facts[name]
"""
    assert key_reads(ok) == []


def _modules():
    return sorted(ROOT.rglob("*.py"))


def test_no_module_reads_a_fact_or_an_outcome_by_key():
    found = []
    for path in _modules():
        for line, code in key_reads(path.read_text(encoding="utf-8")):
            found.append(f"{path.relative_to(ROOT.parent)}:{line}: {code}")
    assert not found, "read by key (read the typed state or trace.result instead):\n" + "\n".join(found)


@pytest.mark.parametrize("name", ["games/tagraid/orders/orderfile.py", "games/tagraid/outcomes.py"])
def test_the_order_outcome_holds_the_typed_roll_outcome(name):
    # the Order's roll exchange is kept typed (RollOutcome) and written as its JSON only in to_json()
    text = (ROOT / name).read_text(encoding="utf-8")
    assert "trace.outcome" not in text
