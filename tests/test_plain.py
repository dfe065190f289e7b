"""Pydantic-free snapshots of validated scenarios (:mod:`explorer.plain`): a snapshot reads, copies, dumps and
pickles as its models do, every TAG Raid roll built-in resolves to the same text and JSON from its snapshot as from
its models, and a value a snapshot cannot mirror is refused (issue 18: ``explorer resolve`` of a cached built-in
without pydantic)."""

from __future__ import annotations

import json
import pickle
from typing import ClassVar

import pytest
from pydantic import BaseModel, PrivateAttr

from explorer import plain
from explorer.games import get_game
from explorer.schema import Strict

GAME = get_game("tagraid")
ROLLS = [n for n in GAME.builtin_names() if GAME.plain(GAME.load_builtin(n))]


def test_every_roll_builtin_and_only_those_are_offered_as_snapshots():
    assert len(ROLLS) >= 10
    assert "tr-02" in ROLLS and "tr-22" not in ROLLS   # a table keeps its models (read by methods)
    assert all(GAME.load_builtin(n).kind == "roll" for n in ROLLS)


def _answers(sc) -> tuple[str, str, str]:
    trace = GAME.resolve(sc, rulings={}, seed=None, reroll=False)
    return trace.to_text(), json.dumps(trace.to_dict(), sort_keys=True), GAME.outcome_text(trace)


@pytest.mark.parametrize("name", ROLLS)
def test_a_roll_builtin_resolves_the_same_from_its_snapshot(name):
    sc = GAME.load_builtin(name)
    snap = plain.snapshot(sc)
    assert type(snap).__name__ == type(sc).__name__ and snap.kind == sc.kind == "roll"
    assert snap.model_dump() == sc.model_dump()
    assert snap.model_dump(exclude_none=True) == sc.model_dump(exclude_none=True)
    assert snap.model_fields_set == sc.model_fields_set
    assert _answers(snap) == _answers(sc)
    again = pickle.loads(pickle.dumps(snap, protocol=pickle.HIGHEST_PROTOCOL))
    assert again == snap and _answers(again) == _answers(sc)
    # with a seed given on the command line (game.resolve_roll copies the scenario with it)
    assert (GAME.resolve(snap, rulings={}, seed=7, reroll=True).to_text()
            == GAME.resolve(sc, rulings={}, seed=7, reroll=True).to_text())


def test_model_copy_behaves_as_pydantics():
    sc = GAME.load_builtin("tr-02")
    snap = plain.snapshot(sc)
    for update in ({"seed": 5}, {"title": "x", "reactive": []}, None):
        a, b = sc.model_copy(update=update), snap.model_copy(update=update)
        assert b.model_dump() == a.model_dump() and b.model_fields_set == a.model_fields_set
    deep = snap.model_copy(deep=True)
    assert deep == snap and deep.active is not snap.active
    shallow = snap.model_copy()
    assert shallow.active is snap.active


def test_a_snapshot_is_read_only_and_unhashable_like_its_model():
    snap = plain.snapshot(GAME.load_builtin("tr-02"))
    with pytest.raises(AttributeError, match="read-only"):
        snap.title = "x"
    with pytest.raises(AttributeError):
        del snap.title
    with pytest.raises(TypeError, match="unhashable"):
        hash(snap)
    model = GAME.load_builtin("tr-02")
    assert list(dict(snap)) == list(dict(model)) and repr(snap) == repr(model)
    with pytest.raises(NotImplementedError, match="python mode only"):
        snap.model_dump(mode="json")


class _WithMethod(Strict):
    x: int = 1

    def double(self) -> int:
        return 2 * self.x


class _WithProperty(Strict):
    x: int = 1

    @property
    def double(self) -> int:
        return 2 * self.x


class _WithPrivate(BaseModel):
    x: int = 1
    _memo: dict = PrivateAttr(default_factory=dict)


class _WithClassVar(Strict):
    kind: ClassVar[str] = "k"
    table: ClassVar[dict] = {}
    x: int = 1


class _Plain(Strict):
    kind: ClassVar[str] = "k"
    x: int = 1
    items: list[int] = []


@pytest.mark.parametrize("value", [_WithMethod(), _WithProperty(), _WithPrivate(x=2), _WithClassVar(),
                                   [_Plain(), object()], {"a": _Plain(items=[1]), "b": 1j}],
                         ids=["method", "property", "private", "classvar-dict", "object", "complex"])
def test_a_value_a_snapshot_cannot_mirror_is_refused(value):
    with pytest.raises(plain.NotPlain):
        plain.snapshot(value)


def test_plain_data_and_nested_models_are_mirrored():
    v = {"a": [_Plain(items=[1, 2])], "b": (1, "x", None, 2.5, True), "c": frozenset({1})}
    s = plain.snapshot(v)
    assert s["a"][0].items == [1, 2] and s["a"][0].kind == "k" and s["b"] == v["b"] and s["c"] == v["c"]
    assert type(s["a"][0]) is type(plain.snapshot(_Plain()))   # one snapshot class per model class


def test_the_module_imports_no_pydantic():
    import subprocess
    import sys

    from cli_helpers import ROOT

    out = subprocess.run([sys.executable, "-c", "import sys, explorer.plain, explorer.games.tagraid.resolve\n"
                          "print(sorted(m for m in sys.modules if m.split('.')[0] in ('pydantic', 'tomllib')))"],
                         capture_output=True, text=True, timeout=60, env={"PYTHONPATH": str(ROOT), "PATH": ""})
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"
