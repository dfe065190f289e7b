"""Scenario files (TOML): loading and validation with field-path error messages.

A scenario is a declarative snapshot of a situation. Each game defines its scenario schema as pydantic models
(``extra="forbid"`` so that a misspelt field is an error, not silently ignored); :func:`validate` turns pydantic's
errors into one :class:`~explorer.errors.ScenarioError` that names the field path and what is allowed.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from .errors import ScenarioError

M = TypeVar("M", bound=BaseModel)


def read_toml(source: str | Path, *, text: str | None = None) -> dict[str, Any]:
    """Parse a TOML scenario file (or ``text`` given directly, with ``source`` as its name).

    Raises:
        ScenarioError: the file does not exist, is not UTF-8 text, or is not valid TOML (the message gives line
            and column).
    """
    name = str(source)
    if text is None:
        try:
            text = Path(source).read_text(encoding="utf-8")
        except FileNotFoundError:
            raise ScenarioError("", "file not found", source=name) from None
        except UnicodeDecodeError as e:
            raise ScenarioError("", f"not UTF-8 text (byte {e.object[e.start]:#04x} at offset {e.start}); TOML "
                                "files must be UTF-8", "a UTF-8 TOML scenario file", source=name) from None
        except OSError as e:
            raise ScenarioError("", f"cannot read the file ({e.strerror})", source=name) from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise ScenarioError("", f"not valid TOML: {e}", source=name) from None


def _allowed_from(err: Mapping[str, Any]) -> str | None:
    ctx = err.get("ctx") or {}
    t = err.get("type", "")
    if "expected" in ctx:
        return str(ctx["expected"])
    if t == "extra_forbidden":
        return None  # filled in by validate() with the model's field names
    bounds = [f"{k.replace('_', ' ')} {ctx[k]}" for k in ("ge", "gt", "le", "lt") if k in ctx]
    if bounds:
        return ", ".join(b.replace("ge ", ">= ").replace("gt ", "> ").replace("le ", "<= ").replace("lt ", "< ")
                         for b in bounds)
    if t.startswith("int"):
        return "a whole number"
    if t.startswith("bool"):
        return "true or false"
    return None


def _fields_at(model: type[BaseModel], loc: tuple) -> list[str] | None:
    """Field names allowed at the parent of ``loc`` (for unknown-field errors)."""
    current: Any = model
    for part in loc[:-1]:
        if isinstance(part, int):
            continue
        if not (isinstance(current, type) and issubclass(current, BaseModel)) or part not in current.model_fields:
            return None
        ann = current.model_fields[part].annotation
        args = getattr(ann, "__args__", ()) or ()
        candidates = [ann, *args, *[x for a in args for x in getattr(a, "__args__", ())]]
        current = next((c for c in candidates if isinstance(c, type) and issubclass(c, BaseModel)), None)
    if isinstance(current, type) and issubclass(current, BaseModel):
        return list(current.model_fields)
    return None


def validate(model: type[M], data: Mapping[str, Any], source: str | None = None) -> M:
    """Validate ``data`` against ``model``.

    Raises:
        ScenarioError: for the first problem found, naming the dotted field path (``active.burst``,
            ``targets[1].sv``), what is wrong and what is allowed; further problems are listed in the message.
    """
    try:
        return model.model_validate(data)
    except ValidationError as e:
        errs = e.errors()
        first = errs[0]
        loc = tuple(first["loc"])
        path = ""
        for part in loc:
            path += f"[{part}]" if isinstance(part, int) else (f".{part}" if path else str(part))
        allowed = _allowed_from(first)
        if first["type"] == "extra_forbidden":
            problem = "unknown field"
            names = _fields_at(model, loc)
            allowed = ("one of " + ", ".join(repr(n) for n in names)) if names else None
        elif first["type"] == "missing":
            problem = "is required but missing"
        else:
            problem = f"{first['msg'][0].lower()}{first['msg'][1:]} (got {first.get('input')!r})"
        if len(errs) > 1:
            problem += f"; {len(errs) - 1} more problem(s) after this one"
        raise ScenarioError(path, problem, allowed, source) from None
