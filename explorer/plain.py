"""Plain, read-only snapshots of validated pydantic scenario values, for the parse cache (:mod:`explorer.parsecache`)
to keep and give back without importing pydantic (issue 18: every verb under 150 ms of CPU).

A built-in scenario validated by pydantic is a tree of models; unpickling one imports pydantic (about 100 ms of CPU
with the first model class) before the engine runs a line. :func:`snapshot` turns such a tree, once validated, into
a tree of :class:`Plain` values: one small class per model class, of the same name, holding the same field values
(lists, dicts and nested snapshots), read by attribute as the engine reads a model. The parts of the model API that
the engine uses on a parsed scenario are there too (:meth:`Plain.model_copy`, :meth:`Plain.model_dump` in its python
mode, :attr:`Plain.model_fields_set`), with pydantic's behaviour; anything else a model has (validation, JSON,
``model_fields``) is not, and a snapshot cannot be changed (``setattr`` raises). A model's private attributes
(``_source``, set by a parser after validation) are mirrored too when their values are plain data (``str``, ``int``,
``float``, ``bool``, ``None``, ``bytes``, tuples and frozensets of them), read by attribute and kept by
:meth:`Plain.model_copy`, as pydantic keeps them; they are not fields (not dumped, not iterated).

:func:`snapshot` refuses (:class:`NotPlain`) any value it cannot mirror exactly: a model class that defines its own
methods or properties (a snapshot would lack them), a model with extra attributes or a private attribute whose value
is not plain data, a ``ClassVar`` or a field value that is not plain data (``str``, ``int``, ``float``, ``bool``,
``None``, ``bytes``, lists, tuples, dicts, sets and nested models, or the value types below). A game opts a scenario
in only when its resolver, outcome text and picture read the value as plain fields
(:attr:`explorer.games.Game.plain`), since a snapshot is not an instance of the model class.

A parsed value may also hold **value types** that need no mirror: an instance of a frozen dataclass, a named tuple
or an enum member is kept as it is (the same object), after checking that every field making its value holds plain
data or value types and no model (e.g. Mass Effect's map query, :class:`explorer.games.masseffect.queries.MapQuery`,
frozen dataclasses over a :class:`~explorer.games.masseffect.map.MissionMap`). Such a class must live in a module
that imports no pydantic (else unpickling it imports pydantic anyway: ``tests/test_cli_imports.py`` checks the
commands), and a field declared ``compare=False`` is taken for a memo that the class does not pickle (it is not
checked; :class:`~explorer.games.masseffect.map.MissionMap` drops its ``_cache`` when pickled).

This module imports nothing beyond the standard library's built-ins (``dataclasses`` and ``enum`` when a value is
checked); pydantic is looked up in ``sys.modules`` by :func:`snapshot` only (on a cache miss, which has just
validated with it).
"""

from __future__ import annotations

import sys
from typing import Any

_LEAVES = (str, int, float, bool, type(None), bytes)


class NotPlain(TypeError):
    """:func:`snapshot` met a value it cannot mirror exactly (the message names it); the caller keeps the model."""


class Plain:
    """A read-only snapshot of one validated pydantic model: its fields as attributes (in the model's field order),
    its class named as the model's class, the model class's ``ClassVar`` values as class attributes (e.g. a TAG Raid
    scenario's ``kind``). Built by :func:`snapshot`; never constructed by hand."""

    __slots__ = ("__dict__", "_fields_set", "_private")
    _spec: tuple = ("Plain", "", False, ())
    """``(class name, module of the model class, frozen, ((ClassVar name, value), ...))``: names the snapshot class."""

    def __init__(self, fields: dict[str, Any], fields_set: frozenset[str], private: tuple = ()) -> None:
        object.__setattr__(self, "__dict__", fields)
        object.__setattr__(self, "_fields_set", fields_set)
        object.__setattr__(self, "_private", private)

    def __getattr__(self, name: str) -> Any:
        """A private attribute of the model (``_source``), when it had one: ``_private`` holds ``(name, value)``."""
        if name.startswith("_") and name != "_private":
            for key, value in object.__getattribute__(self, "_private"):
                if key == name:
                    return value
        raise AttributeError(f"{type(self).__name__!r} snapshot has no attribute {name!r}")

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is a read-only snapshot of a validated scenario; use "
                             f"model_copy(update={{{name!r}: ...}})")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} is a read-only snapshot of a validated scenario")

    def __reduce__(self):
        return _rebuild, (self._spec, self.__dict__, self._fields_set, self._private)

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self.__dict__ == other.__dict__ and self._private == other._private

    def __hash__(self) -> int:
        if not self._spec[2]:   # as a model that is not frozen: unhashable
            raise TypeError(f"unhashable type: {type(self).__name__!r}")
        return hash((type(self), *self.__dict__.values()))

    def __iter__(self):
        """``(field, value)`` pairs, as iterating a model gives."""
        yield from self.__dict__.items()

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{k}={v!r}' for k, v in self.__dict__.items())})"

    @property
    def model_fields_set(self) -> set[str]:
        """The fields the file gave (not defaulted), as the model's ``model_fields_set``."""
        return set(self._fields_set)

    def model_copy(self, *, update: dict[str, Any] | None = None, deep: bool = False) -> Plain:
        """A copy, with ``update``'s fields replaced (not validated, as pydantic's ``model_copy``); ``deep``: the
        field values deep-copied first. The updated fields join :attr:`model_fields_set`."""
        fields = dict(self.__dict__)
        if deep:
            import copy

            fields = copy.deepcopy(fields)
        fields_set = self._fields_set
        if update:
            fields.update(update)
            fields_set = fields_set | frozenset(update)
        return type(self)(fields, fields_set, self._private)

    def model_dump(self, *, mode: str = "python", exclude_none: bool = False) -> dict[str, Any]:
        """The fields as a dict, nested snapshots as dicts, lists and dicts copied (pydantic's ``model_dump`` in
        its python mode).

        Raises:
            NotImplementedError: ``mode`` is not ``"python"`` (a snapshot does not know the fields' JSON types).
        """
        if mode != "python":
            raise NotImplementedError(f"{type(self).__name__}.model_dump(mode={mode!r}): a snapshot dumps in "
                                      f"python mode only")
        return {k: _dump(v, exclude_none) for k, v in self.__dict__.items()
                if not (exclude_none and v is None)}


def _dump(v: Any, exclude_none: bool) -> Any:
    if isinstance(v, Plain):
        return v.model_dump(exclude_none=exclude_none)
    if type(v) is list:
        return [_dump(x, exclude_none) for x in v]
    if type(v) is tuple:
        return tuple(_dump(x, exclude_none) for x in v)
    if type(v) is dict:
        return {k: _dump(x, exclude_none) for k, x in v.items()}
    return v


_classes: dict[tuple, type[Plain]] = {}


def plain_class(spec: tuple) -> type[Plain]:
    """The snapshot class of ``spec`` (see :attr:`Plain._spec`), made once per process."""
    cls = _classes.get(spec)
    if cls is None:
        name, module, _frozen, classvars = spec
        cls = type(name, (Plain,), {"__slots__": (), "_spec": spec, "__qualname__": name,
                                    "__module__": __name__, "__doc__": f"A snapshot of {module}.{name}.",
                                    **dict(classvars)})
        _classes[spec] = cls
    return cls


def _rebuild(spec: tuple, fields: dict[str, Any], fields_set: frozenset[str], private: tuple = ()) -> Plain:
    """Unpickle a :class:`Plain` (its class from ``spec``)."""
    return plain_class(spec)(fields, fields_set, private)


_specs: dict[type, tuple] = {}


def _spec_of(cls: type, base: type) -> tuple:
    """The spec of a model class, after checking that a snapshot mirrors it: no method, property or other
    descriptor of its own (pydantic's validators and dunders aside), every ``ClassVar`` a plain value."""
    spec = _specs.get(cls)
    if spec is not None:
        return spec
    for klass in cls.__mro__:
        if klass is base or not issubclass(klass, base):
            continue
        for name, attr in vars(klass).items():
            if name.startswith("__") and name.endswith("__"):
                continue
            if name in ("model_config", "model_fields", "model_computed_fields") or name.startswith("_abc"):
                continue
            if type(attr).__name__ == "PydanticDescriptorProxy":   # a validator: run at validation only
                continue
            if name == "model_post_init" and getattr(attr, "__module__", "").startswith("pydantic."):
                continue   # pydantic's own, setting the private attributes' defaults at validation
            if name in cls.model_fields or name in getattr(cls, "__class_vars__", ()):
                continue
            if callable(attr) or hasattr(attr, "__get__"):
                raise NotPlain(f"{cls.__qualname__}.{name}: a model class with its own methods or properties")
    classvars = []
    for name in sorted(getattr(cls, "__class_vars__", ())):
        value = getattr(cls, name)
        if not _is_leaf_data(value):
            raise NotPlain(f"{cls.__qualname__}.{name}: a ClassVar that is not plain data")
        classvars.append((name, value))
    frozen = bool(cls.model_config.get("frozen", False))
    spec = (cls.__name__, cls.__module__, frozen, tuple(classvars))
    _specs[cls] = spec
    return spec


def _is_leaf_data(v: Any) -> bool:
    if isinstance(v, _LEAVES):
        return True
    if type(v) in (tuple, frozenset):
        return all(_is_leaf_data(x) for x in v)
    return False


def _check_value_type(v: Any, base: type | None) -> None:
    """Check that a value type (a frozen dataclass, a named tuple, an enum member) holds plain data and value types
    only (see the module's docstring), recursively.

    Raises:
        NotPlain: a model, a dataclass that is not frozen, or any other object in it.
    """
    from dataclasses import fields, is_dataclass
    from enum import Enum

    def check(x: Any) -> None:
        t = type(x)
        if t in _LEAVES or isinstance(x, Enum):
            return
        if t in (list, tuple, set, frozenset) or (isinstance(x, tuple) and hasattr(t, "_fields")):
            for y in x:
                check(y)
            return
        if t is dict:
            for k, y in x.items():
                check(k)
                check(y)
            return
        if base is not None and isinstance(x, base):
            raise NotPlain(f"a {t.__qualname__} model inside a value type")
        if is_dataclass(x) and not isinstance(x, type):
            if not t.__dataclass_params__.frozen:
                raise NotPlain(f"{t.__qualname__}: a dataclass that is not frozen")
            for f in fields(x):
                if f.compare:
                    check(getattr(x, f.name))
            return
        raise NotPlain(f"a {t.__qualname__} value (not plain data)")

    check(v)


def _is_value_type(v: Any) -> bool:
    """A frozen dataclass instance, a named tuple or an enum member (kept as it is by :func:`snapshot`)."""
    from dataclasses import is_dataclass
    from enum import Enum

    t = type(v)
    return (isinstance(v, Enum) or (isinstance(v, tuple) and hasattr(t, "_fields"))
            or (is_dataclass(v) and not isinstance(v, type) and t.__dataclass_params__.frozen))


def snapshot(value: Any) -> Any:
    """``value`` (a validated scenario: a model, or lists, tuples and dicts of them) with every pydantic model
    replaced by its :class:`Plain` snapshot; plain data is copied as it is, and a value type (a frozen dataclass,
    a named tuple, an enum member holding no model) is kept as it is.

    Raises:
        NotPlain: a value that a snapshot cannot mirror exactly (see the module's docstring); nothing is changed.
    """
    pydantic = sys.modules.get("pydantic")
    base = getattr(pydantic, "BaseModel", None) if pydantic is not None else None

    def conv(v: Any) -> Any:
        t = type(v)
        if t in _LEAVES:
            return v
        if t is list:
            return [conv(x) for x in v]
        if t is tuple:
            return tuple(conv(x) for x in v)
        if t is dict:
            return {conv(k): conv(x) for k, x in v.items()}
        if t in (set, frozenset):
            return t(conv(x) for x in v)
        if base is not None and isinstance(v, base):
            spec = _spec_of(t, base)
            if v.__pydantic_extra__:
                raise NotPlain(f"{t.__qualname__}: a model with extra attributes")
            private = tuple((v.__pydantic_private__ or {}).items())
            for name, x in private:
                if not _is_leaf_data(x):
                    raise NotPlain(f"{t.__qualname__}.{name}: a private attribute that is not plain data")
            if list(v.__dict__) != list(t.model_fields):
                raise NotPlain(f"{t.__qualname__}: attributes other than its fields")
            return plain_class(spec)({k: conv(x) for k, x in v.__dict__.items()}, frozenset(v.model_fields_set),
                                     private)
        if _is_value_type(v):
            _check_value_type(v, base)
            return v
        raise NotPlain(f"a {t.__qualname__} value (not plain data)")

    return conv(value)
