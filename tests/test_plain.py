"""Pydantic-free snapshots of validated scenarios (:mod:`explorer.plain`): a snapshot reads, copies, dumps and
pickles as its models do, every snapshot-backed built-in (TAG Raid's roll exchanges, Mass Effect's map questions,
Galaxy Defenders' combats) resolves to the same text, JSON, outcome and picture from its snapshot, from the parse
cache (cold and warm) and from its models, and a value a snapshot cannot mirror is refused (issue 18: ``explorer
resolve`` of a cached built-in without pydantic)."""

from __future__ import annotations

import dataclasses
import json
import pickle
from typing import ClassVar

import pytest
from pydantic import BaseModel, PrivateAttr

from explorer import plain
from explorer.games import all_games, get_game
from explorer.schema import Strict

GAME = get_game("tagraid")
ROLLS = [n for n in GAME.builtin_names() if GAME.plain(GAME.load_builtin(n))]
PLAIN = [(g.id, n) for g in all_games() if g.plain is not None for n in g.builtin_names()
         if g.plain(g.load_builtin(n))]
"""Every built-in that ``explorer resolve`` takes as a snapshot: ``(game id, name)``."""


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


def test_the_snapshot_backed_builtins_are_each_games_offered_kinds():
    by_game = {g: [n for gg, n in PLAIN if gg == g] for g in ("tagraid", "masseffect", "galaxydefenders")}
    assert by_game["tagraid"] == ROLLS
    assert {"me-diagram-4", "me-01", "me-04"} <= set(by_game["masseffect"])
    assert {"gd-01", "gd-book-mark", "gd-explosion-map"} <= set(by_game["galaxydefenders"])
    assert "me-diagram-5" not in by_game["masseffect"]   # a Strategy Pool keeps its models
    assert "gd-05" not in by_game["galaxydefenders"]     # conditions keep their models
    for g, n in PLAIN:
        if g != "tagraid":
            assert get_game(g).load_builtin(n)[0] == {"masseffect": "map", "galaxydefenders": "combat"}[g]


def _game_answers(game, sc, **kw) -> tuple[str, str, str, str | None]:
    trace = game.resolve(sc, rulings=kw.get("rulings", {}), seed=kw.get("seed"), reroll=kw.get("reroll", False))
    return (trace.to_text(), json.dumps(trace.to_dict(), sort_keys=True), game.outcome_text(trace),
            game.picture(sc, trace) if game.picture is not None else None)


@pytest.mark.parametrize("game_id,name", PLAIN, ids=[f"{g}:{n}" for g, n in PLAIN])
def test_every_snapshot_backed_builtin_resolves_byte_identical_to_its_models(game_id, name, tmp_path, monkeypatch):
    """The snapshot itself, the snapshot unpickled, and ``load_builtin(plain=True)`` from a cold then a warm parse
    cache give the models' text, JSON, outcome text and picture, with the file's dice and with a seed rerolled."""
    game = get_game(game_id)
    models = game.load_builtin(name)
    want = _game_answers(game, models)
    snap = plain.snapshot(models)
    again = pickle.loads(pickle.dumps(snap, protocol=pickle.HIGHEST_PROTOCOL))
    assert again == snap
    monkeypatch.setenv("EXPLORER_CACHE", "on")
    monkeypatch.setenv("EXPLORER_CACHE_DIR", str(tmp_path / "cache"))
    cold = game.load_builtin(name, plain=True)
    warm = game.load_builtin(name, plain=True)
    assert list((tmp_path / "cache" / "scenarios").glob("*.pickle"))   # the warm load read an entry
    for value in (snap, again, cold, warm):
        assert _game_answers(game, value) == want
    rerolled = _game_answers(game, models, seed=7, reroll=True)
    assert _game_answers(game, warm, seed=7, reroll=True) == rerolled


def test_a_mass_effect_map_question_is_kept_as_its_frozen_value():
    me = get_game("masseffect")
    kind, q = me.load_builtin("me-01")
    snap = plain.snapshot((kind, q))
    assert snap[1] is q   # a value type: no mirror needed
    again = pickle.loads(pickle.dumps(snap))
    assert again[1] == q and again[1].mission_map == q.mission_map and again[1].maps == q.maps
    assert again[1].mission_map._cache == {}   # the map's memo is not pickled


def test_a_galaxy_defenders_combat_snapshot_keeps_its_private_attributes():
    gd = get_game("galaxydefenders")
    kind, sc = gd.load_builtin("gd-01")
    snap = plain.snapshot(sc)
    assert snap._source == sc._source == "gd-01 (built-in)" and snap._blue_tray is False
    assert "_source" not in snap.model_dump() and snap.model_dump() == sc.model_dump()
    assert list(dict(snap)) == list(dict(sc))
    copy = snap.model_copy(update={"title": "x"})
    assert copy._source == sc._source and sc.model_copy(update={"title": "x"})._source == sc._source
    again = pickle.loads(pickle.dumps(snap))
    assert again._source == sc._source and again == snap
    with pytest.raises(AttributeError):
        snap._nothing


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


class _WithPlainPrivate(Strict):
    x: int = 1
    _source: str = PrivateAttr("scenario")


@dataclasses.dataclass(frozen=True)
class _Value:
    a: int
    b: tuple = ()


@dataclasses.dataclass
class _Mutable:
    a: int = 1


class _Plain(Strict):
    kind: ClassVar[str] = "k"
    x: int = 1
    items: list[int] = []


@pytest.mark.parametrize("value", [_WithMethod(), _WithProperty(), _WithPrivate(x=2), _WithClassVar(),
                                   [_Plain(), object()], {"a": _Plain(items=[1]), "b": 1j}, _Mutable(),
                                   _Value(1, (_Plain(),)), _Value(1, (object(),))],
                         ids=["method", "property", "private", "classvar-dict", "object", "complex",
                              "mutable-dataclass", "model-in-value", "object-in-value"])
def test_a_value_a_snapshot_cannot_mirror_is_refused(value):
    with pytest.raises(plain.NotPlain):
        plain.snapshot(value)


def test_plain_data_and_nested_models_are_mirrored():
    v = {"a": [_Plain(items=[1, 2])], "b": (1, "x", None, 2.5, True), "c": frozenset({1})}
    s = plain.snapshot(v)
    assert s["a"][0].items == [1, 2] and s["a"][0].kind == "k" and s["b"] == v["b"] and s["c"] == v["c"]
    assert type(s["a"][0]) is type(plain.snapshot(_Plain()))   # one snapshot class per model class


def test_a_value_type_is_kept_and_a_plain_private_attribute_mirrored():
    v = _Value(1, (2, "x", frozenset({3})))
    assert plain.snapshot([v])[0] is v
    m = _WithPlainPrivate(x=3)
    m._source = "file.toml"
    s = plain.snapshot(m)
    assert s._source == "file.toml" and s.model_dump() == {"x": 3} and s.model_copy()._source == "file.toml"


def test_the_module_imports_no_pydantic():
    import subprocess
    import sys

    from cli_helpers import ROOT

    out = subprocess.run([sys.executable, "-c", "import sys, explorer.plain, explorer.games.tagraid.resolve\n"
                          "import explorer.games.masseffect.queries, explorer.games.galaxydefenders.combat\n"
                          "print(sorted(m for m in sys.modules if m.split('.')[0] in ('pydantic', 'tomllib')))"],
                         capture_output=True, text=True, timeout=60, env={"PYTHONPATH": str(ROOT), "PATH": ""})
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"
