"""Shared by the per-game strict-type tests (issue 25, issue 18 item 7): put a wrongly typed value in each field of a
valid built-in file and check that the file is refused in one line naming that field and the type it takes.

Every file format of every game validates on :class:`explorer.schema.Strict` (pydantic ``strict=True``): ``true``
or ``"3"`` for a number, ``3.0`` for a whole number, ``1`` or ``"true"`` for a yes/no, ``3`` for a name are refused,
where the lax validation the formats had before read them as 1, 3, 3, true (and refused only the name)."""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import pytest

from explorer.errors import ScenarioError
from explorer.scenario import _dotted, read_toml

Path_ = tuple[str | int, ...]

def builtins_by_kind(game) -> dict[str, dict[str, dict]]:
    """A game's built-in scenario documents, ``{kind: {name: document}}`` (``kind`` "" when the file names none)."""
    out: dict[str, dict[str, dict]] = {}
    for name in game.builtin_names():
        doc = read_toml(name, text=game.scenario_text(name))
        out.setdefault(str(doc.get("kind", "")), {})[name] = doc
    return out


_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


def leaves(v: Any, path: Path_ = ()) -> Iterator[tuple[Path_, Any]]:
    """Every scalar of a TOML document with its path (table keys and list indexes)."""
    if isinstance(v, Mapping):
        for k, x in v.items():
            yield from leaves(x, path + (k,))
    elif isinstance(v, list):
        for i, x in enumerate(v):
            yield from leaves(x, path + (i,))
    else:
        yield path, v


def field_of(path: Path_) -> tuple[str, ...]:
    """The schema field a leaf is in: list indexes and user keys (a hex ``"1,2"``, a Miner's name) are dropped, so
    that each field of a format is tried once, not once per list entry or per hex."""
    return tuple(p if isinstance(p, str) and _NAME.match(p) else "*" for p in path if not isinstance(p, int))


def wrong_values(v: Any) -> list[Any]:
    """Values of the wrong type for a leaf holding ``v``: each one a lax validation converted (a number written as
    text, a yes/no for a number, a whole decimal for a whole number, a number for a yes/no), or, for text, a number
    and a yes/no (which were refused before too)."""
    if isinstance(v, bool):
        return [1, "true"]
    if isinstance(v, int):
        return [True, str(v), float(v)]
    if isinstance(v, float):
        return [True, str(v)]
    if isinstance(v, str):
        return [3, True]
    return []


def set_at(d: Any, path: Path_, value: Any) -> None:
    for k in path[:-1]:
        d = d[k]
    d[path[-1]] = value


def _takes_decimals(load: Callable[[dict], Any], doc: dict, where: Path_, v: int) -> bool:
    """Whether the field at ``where`` takes a number with a fraction (``v`` ± 0.5 loads): a decimal field, where an
    integer was written."""
    for x in (v + 0.5, v - 0.5):
        d = copy.deepcopy(doc)
        set_at(d, where, x)
        try:
            load(d)
        except ScenarioError:
            continue
        return True
    return False


def check_every_field(load: Callable[[dict], Any], docs: Mapping[str, dict], *, skip: frozenset[str] = frozenset(),
                      unions: Mapping[str, tuple[type, ...]] | None = None) -> int:
    """Load each of ``docs`` (name -> valid document) as it is, then, once per field of the format, with each
    :func:`wrong_values` in that field; each must raise a one-line :class:`ScenarioError` naming the field. Returns
    the number of wrongly typed documents tried.

    ``skip``: leaf names (last path part) whose value is not a typed field (``game``, ``kind``: a name that picks
    the format). ``unions``: leaf name (or the name of the table whose user keys hold it) -> the types it also
    takes (a field that takes a number or a name): the wrong values of those types are not tried there. A whole
    decimal (``3.0``) is not tried where the field takes fractions (``x = 250`` of a decimal field)."""
    unions = unions or {}
    seen: set[tuple[str, ...]] = set()
    tried = 0
    for name, doc in docs.items():
        load(copy.deepcopy(doc))  # the built-in itself loads
        for where, v in leaves(doc):
            key = field_of(where)
            leaf = next((p for p in reversed(where) if isinstance(p, str)), "")
            if key in seen or leaf in skip:
                continue
            seen.add(key)
            parent = next((p for p in reversed(where[:-1]) if isinstance(p, str)), "")
            also = unions.get(leaf) or (unions.get(parent, ()) if isinstance(where[-1], str) else ())
            for bad in wrong_values(v):
                if isinstance(bad, also) and not (isinstance(bad, bool) and bool not in also):
                    continue
                d = copy.deepcopy(doc)
                set_at(d, where, bad)
                if isinstance(bad, float) and isinstance(v, int) and _takes_decimals(load, doc, where, v):
                    continue  # a TOML integer in a decimal field: 3.0 is as right as 3 there
                with pytest.raises(ScenarioError) as e:
                    load(d)
                err = e.value
                msg = str(err)
                assert "\n" not in msg, (name, where, bad, msg)
                assert err.field == _dotted(where), (name, where, bad, msg)
                assert err.allowed, (name, where, bad, msg)  # says what the field takes
                tried += 1
    return tried
