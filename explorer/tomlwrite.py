"""Writing TOML documents (game-neutral): the explorers' "Download TOML" files and any file a tool saves.

:func:`dumps` writes a dict of TOML values (``str``, ``int``, finite ``float``, ``bool``, lists, dicts) so that
:func:`tomllib.loads` gives the same dict back: scalars first, then each sub-table as ``[a.b]`` and each list of
tables as ``[[a]]``; strings and keys are escaped (control characters included), so any text round-trips.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from typing import Any

_BARE = re.compile(r"^[A-Za-z0-9_-]+$")


def _string(s: str) -> str:
    """A TOML basic string: JSON's escapes, plus DEL (which TOML forbids raw and JSON leaves as is)."""
    return json.dumps(s, ensure_ascii=False).replace("\x7f", "\\u007f")


def _key(k: Any) -> str:
    k = str(k)
    return k if _BARE.fullmatch(k) else _string(k)


def _value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if not math.isfinite(v):
            raise ValueError(f"TOML files written here hold finite numbers only, not {v!r}")
        return repr(v)
    if isinstance(v, str):
        return _string(v)
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    if isinstance(v, Mapping):
        return "{ " + ", ".join(f"{_key(k)} = {_value(x)}" for k, x in v.items()) + " }" if v else "{}"
    raise TypeError(f"cannot write a {type(v).__name__} to TOML")


def _is_table_list(v: Any) -> bool:
    return isinstance(v, (list, tuple)) and bool(v) and all(isinstance(x, Mapping) for x in v)


def _table(d: Mapping[str, Any], path: list[str], out: list[str]) -> None:
    for k, v in d.items():
        if v is None:
            continue
        if not isinstance(v, Mapping) and not _is_table_list(v):
            out.append(f"{_key(k)} = {_value(v)}")
    for k, v in d.items():
        if isinstance(v, Mapping):
            sub = [*path, _key(k)]
            if v and all(isinstance(x, Mapping) for x in v.values()):
                _table(v, sub, out)  # only sub-tables: no header needed (implicitly defined)
                continue
            out += ["", f"[{'.'.join(sub)}]"]
            _table(v, sub, out)
        elif _is_table_list(v):
            for item in v:
                out += ["", f"[[{'.'.join([*path, _key(k)])}]]"]
                _table(item, [*path, _key(k)], out)


def dumps(doc: Mapping[str, Any], header: str = "") -> str:
    """``doc`` as TOML text; ``None`` values are left out; ``header`` lines are written first as ``#`` comments.

    Raises:
        TypeError: a value TOML cannot hold. ValueError: a NaN or infinite float.
    """
    out = [f"# {line}" for line in header.splitlines()]
    _table(doc, [], out)
    return "\n".join(out).lstrip("\n") + "\n"


__all__ = ["dumps"]
