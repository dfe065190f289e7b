"""A table that is one of several kinds, told apart by one field (a discriminated union: Mass Effect's damage
``events``, ``type = "activate"``): a wrong or missing kind names that field (``events[0].type``) and lists the
allowed kinds, never the whole table as a Python dict. Checked for every such union in every game's file formats."""

from __future__ import annotations

import importlib
import pkgutil
import re
import types
import typing
from pathlib import Path

import pytest
from pydantic import BaseModel, create_model

import explorer.games
from explorer.errors import ScenarioError
from explorer.scenario import validate
from explorer.schema import Strict

ROOT = Path(__file__).resolve().parents[1]


def _models() -> list[type[BaseModel]]:
    seen: dict[type, None] = {}
    for m in pkgutil.walk_packages(explorer.games.__path__, "explorer.games."):
        mod = importlib.import_module(m.name)
        for c in vars(mod).values():
            if isinstance(c, type) and issubclass(c, BaseModel) and c.__module__ == mod.__name__:
                seen[c] = None
    return list(seen)


def _unions(ann: typing.Any, meta: tuple = ()):
    """(union, its discriminator or None) for each union of two or more models inside ``ann``."""
    o = typing.get_origin(ann)
    if o is typing.Annotated:
        a = typing.get_args(ann)
        yield from _unions(a[0], a[1:])
        return
    if o in (typing.Union, types.UnionType):
        members = [a for a in typing.get_args(ann) if isinstance(a, type) and issubclass(a, BaseModel)]
        if len(members) >= 2:
            yield ann, next((getattr(m, "discriminator", None) for m in meta if getattr(m, "discriminator", None)),
                            None), meta
    for a in typing.get_args(ann):
        if not isinstance(a, (str, int)):
            yield from _unions(a)


def _all_unions():
    out = []
    for model in _models():
        for name, info in model.model_fields.items():
            for union, key, meta in _unions(info.annotation, tuple(info.metadata)):
                out.append((f"{model.__name__}.{name}", union, key or info.discriminator, meta))
    return out


UNIONS = _all_unions()


def test_the_file_formats_have_their_unions_found():
    assert any(name == "DamageScenario.events" for name, *_ in UNIONS)


@pytest.mark.parametrize("name,union,key,meta", UNIONS, ids=[u[0] for u in UNIONS])
def test_every_union_of_tables_is_told_apart_by_a_field(name, union, key, meta):
    # a union without a field that names the kind can only say "none of these tables fits"
    assert key, f"{name}: a union of tables without a discriminator field"


@pytest.mark.parametrize("name,union,key,meta", UNIONS, ids=[u[0] for u in UNIONS])
def test_a_wrong_or_missing_kind_names_the_field_and_lists_the_kinds(name, union, key, meta):
    tags = [str(a) for m in typing.get_args(union) for a in typing.get_args(m.model_fields[key].annotation)]
    wrapper = create_model("Doc", __base__=Strict, items=(list[typing.Annotated[union, *meta]], ...))
    with pytest.raises(ScenarioError) as e:
        validate(wrapper, {"items": [{key: "explode", "current": "Tali"}]}, "f.toml")
    msg = str(e.value)
    assert f"field 'items[0].{key}': 'explode' is not an allowed kind" in msg, msg
    assert all(repr(t) in msg for t in tags) and "{" not in msg, msg
    with pytest.raises(ScenarioError) as e:
        validate(wrapper, {"items": [{"current": "Tali"}]}, "f.toml")
    msg = str(e.value)
    assert f"field 'items[0].{key}': is required but missing" in msg and all(repr(t) in msg for t in tags), msg
    assert "{" not in msg


def test_me10_with_an_unknown_event_type_names_events_0_type(tmp_path, capsys):
    from explorer.cli import main
    text = (ROOT / "explorer/games/masseffect/scenarios/me-10.toml").read_text()
    bad = tmp_path / "me.toml"
    bad.write_text(re.sub(r'type = "activate"', 'type = "explode"', text, count=1))
    assert main(["resolve", str(bad)]) == 2
    out = capsys.readouterr().err
    assert "field 'events[0].type': 'explode' is not an allowed kind" in out, out
    assert "'activate'" in out and "'end_phase'" in out and "{" not in out, out


def _a_value(ann: typing.Any) -> typing.Any:
    """A value of the type ``ann`` takes (the first word of a Literal, 0, "x", false, an empty list)."""
    o = typing.get_origin(ann)
    if o is typing.Annotated:
        return _a_value(typing.get_args(ann)[0])
    if o is typing.Literal:
        return typing.get_args(ann)[0]
    if o in (typing.Union, types.UnionType):
        return _a_value(next(a for a in typing.get_args(ann) if a is not type(None)))
    if o in (list, tuple):
        return []
    return {bool: False, int: 0, float: 0.0, str: "x"}.get(ann, "x")


@pytest.mark.parametrize("name,union,key,meta", UNIONS, ids=[u[0] for u in UNIONS])
def test_a_fault_inside_a_member_names_the_files_field_and_the_members_fields(name, union, key, meta):
    """A problem inside the member a table's kind chose (an unknown field, a missing or mistyped one): the path is
    the file's (``items[0].zz``), never with pydantic's tag in it (``items[0].activate.zz``), and an unknown
    field lists the fields of that member (session 14: ``events[0].activate.zz: unknown field``, nothing allowed)."""
    wrapper = create_model("Doc", __base__=Strict, items=(list[typing.Annotated[union, *meta]], ...))
    for member in typing.get_args(union):
        tag = typing.get_args(member.model_fields[key].annotation)[0]
        fields = list(member.model_fields)
        with pytest.raises(ScenarioError) as e:
            validate(wrapper, {"items": [{key: tag, "zz_unknown": 1}]}, "f.toml")
        msg = str(e.value)
        assert f"field 'items[0].zz_unknown': unknown field" in msg or "required but missing" in msg, msg
        assert f".{tag}." not in msg, msg
        required = [n for n, f in member.model_fields.items() if f.is_required() and n != key]
        full = {n: _a_value(member.model_fields[n].annotation) for n in required}
        with pytest.raises(ScenarioError) as e:
            validate(wrapper, {"items": [{key: tag, **full, "zz_unknown": 1}]}, "f.toml")
        msg = str(e.value)
        assert msg.startswith("f.toml: field 'items[0].zz_unknown': unknown field (allowed: one of "), msg
        assert all(repr(f) in msg for f in fields), msg
        for n in required:
            with pytest.raises(ScenarioError) as e:
                validate(wrapper, {"items": [{key: tag, **{k: v for k, v in full.items() if k != n}}]}, "f.toml")
            assert str(e.value).startswith(f"f.toml: field 'items[0].{n}': is required but missing"), str(e.value)


def test_me10_with_an_unknown_field_in_an_event_lists_that_events_fields(tmp_path, capsys):
    from explorer.cli import main
    text = (ROOT / "explorer/games/masseffect/scenarios/me-10.toml").read_text()
    bad = tmp_path / "me.toml"
    bad.write_text(re.sub(r'type = "activate"', 'type = "activate"\nzz = 1', text, count=1))
    assert main(["resolve", str(bad)]) == 2
    out = capsys.readouterr().err
    assert "field 'events[0].zz': unknown field (allowed: one of 'type', 'enemy', 'current')" in out, out
