"""Scenario files (TOML): loading and validation with field-path error messages.

A scenario is a declarative snapshot of a situation. Each game defines its scenario schema as pydantic models
(``extra="forbid"`` so that a misspelt field is an error, not silently ignored); :func:`validate` turns pydantic's
errors into one :class:`~explorer.errors.ScenarioError` that names the field path and what is allowed.
"""

from __future__ import annotations

import os
import re
import stat
import sys
import types
import typing
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from .errors import ScenarioError, short_repr, shorten
from .pathkind import path_kind
from .text import plural

if TYPE_CHECKING:
    from pydantic import BaseModel

M = TypeVar("M", bound="BaseModel")


def _is_model(x: Any) -> bool:
    """Whether ``x`` is a pydantic model class. pydantic is imported here, when a file is validated, and not with
    this module: :func:`read_toml` (the loading gate) needs no pydantic, nor does a command whose file is already
    validated (:mod:`explorer.parsecache`)."""
    from pydantic import BaseModel

    return isinstance(x, type) and issubclass(x, BaseModel)


MAX_FILE_BYTES = 1_000_000
"""The largest file (or ``text``) :func:`read_toml` accepts, in bytes (UTF-8). The biggest file the game formats need
(a board with every hex listed, or a scenario with the most Miners the schemas allow) is far below it; the cap keeps a
wrong path (``/dev/zero``, a log file) or a hostile file from using seconds of time and memory."""

MAX_NESTING = 32
"""The deepest nesting of arrays / inline tables (``[[[...]]]``, ``{a = {b = ...}}``) and of tables (dotted keys,
``[a.b.c]``) a document may have. Formats use at most 4 levels; deeper nesting only exhausts the parser's stack."""


def _line_at(text: str, pos: int) -> int:
    return text.count("\n", 0, pos) + 1


_SCAN = re.compile(r'"""|\'\'\'|["\'#\[\]{}]')
_BASIC_END = re.compile(r'(?:[^"\\\n]|\\.)*"')
_ML_BASIC_END = re.compile(r'(?:[^\\]|\\.)*?""""{0,2}', re.DOTALL)
_ML_LITERAL_END = re.compile(r"''''{0,2}")


def _too_deep(text: str) -> int | None:
    """The 1-based line where array / inline-table nesting first passes :data:`MAX_NESTING`, or ``None``.

    A linear scan of the brackets outside strings and comments (so the parser never recurses that deep)."""
    if text.count("[") + text.count("{") <= MAX_NESTING:
        return None
    depth, i, n = 0, 0, len(text)
    while i < n:
        m = _SCAN.search(text, i)
        if m is None:
            return None
        tok, i = m.group(), m.end()
        if tok in "[{":
            depth += 1
            if depth > MAX_NESTING:
                return _line_at(text, m.start())
        elif tok in "]}":
            depth = max(0, depth - 1)
        elif tok == "#":
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif tok == '"':
            e = _BASIC_END.match(text, i)
            i = e.end() if e else i
        elif tok == "'":
            j = text.find("'", i)
            i = n if j < 0 else j + 1
        elif tok == '"""':
            e = _ML_BASIC_END.match(text, i)
            i = e.end() if e else n
        else:  # '''
            e = _ML_LITERAL_END.search(text, i)
            i = e.end() if e else n
    return None


MAX_KEY_CHARS = 256
"""The longest key (one part of a dotted key, quoted or bare), in characters. The formats' keys are field names, ids
and ``"q,r"`` hexes (at most 40 characters in the packaged files and docs)."""

MAX_KEY_PARTS = MAX_NESTING
"""The most parts a dotted key or a ``[table.name]`` may have (``a.b.c`` has 3). Formats use at most 4. The TOML
parser's time and memory grow with the square of a key's parts (20,000 parts, a 40 KB file: 5 s and 1.6 GB), so the
pre-scan refuses a longer key before the parser sees it."""

MAX_ARRAY_ITEMS = 20_000
"""The most entries one array (or one ``[[array.of.tables]]`` name) may have. The largest list the formats allow is
a board's 10,000 edges or hexes."""

MAX_STRING_CHARS = 20_000
"""The longest string value, in characters as written (escapes counted as written). The longest text field the
formats allow holds 4,000 characters (a description)."""

MAX_KEYS = 100_000
"""The most keys a document may have (every ``key =`` and every table header counts once). A board with every one of
its 10,000 hexes written out uses a few keys per hex."""

MAX_HEADER_PARTS = 50_000
"""The most parts all the ``[table]`` / ``[[array]]`` headers of a document may have together (``[a.b]`` has 2). The
TOML parser's time grows faster than the number of headers when they are long (4,000 headers of 32 parts: about 1 s,
20,000: about 12 s), so the pre-scan bounds their sum: at the bound a document parses in a few tenths of a second. A
board with each of its 10,000 hexes under a header of its own uses 10,000 to 20,000."""

MAX_DOTTED_PARTS = 50_000
"""The most parts all the dotted keys (``a.b.c = 1``, two parts or more, inline tables included) of a document may
have together. Like long headers, many long dotted keys cost the parser more than their size (issue #25, second
check: 14,000 ``[[t]]`` entries with a 31-part key each, a 1 MB file, took 2.4 s to parse and seconds more on a
page), so the pre-scan bounds their sum: at the bound (1,600 such entries) a document parses in about a quarter of a
second. The formats' dotted keys have at most 4 parts."""

_WS = re.compile(r"[ \t]*")
_WS_NL = re.compile(r"(?:[ \t\r\n]+|#[^\n]*)*")
"""Blank space, line ends and comments (between statements, and inside arrays)."""
_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")
_BASIC = re.compile(r'"[^"\\\n]*(?:\\.[^"\\\n]*)*"')
_LITERAL = re.compile(r"'[^'\n]*'")
_SCALAR = re.compile(r"[^,\]}#\n\"'\[{=]+")
"""A number, boolean or date/time value (anything up to the next delimiter: the parser judges it)."""


def _prescan(text: str) -> tuple[int, str, str] | None:
    """The first bound of the text pre-scan the document passes, as ``(position, problem, allowed)``; ``None`` when
    the whole text was read within the bounds; ``(position, "", "")`` where the text stops being TOML.

    One linear pass over the text, before the TOML parser runs: key length (:data:`MAX_KEY_CHARS`), dotted-key parts
    (:data:`MAX_KEY_PARTS`), array length (:data:`MAX_ARRAY_ITEMS`), string length (:data:`MAX_STRING_CHARS`) and
    the number of keys (:data:`MAX_KEYS`), the parts of all table headers (:data:`MAX_HEADER_PARTS`) and of all
    dotted keys (:data:`MAX_DOTTED_PARTS`) together; nesting depth is :func:`_too_deep`'s. It reads a superset of TOML 1.0:
    where it meets text it cannot read, the text is not TOML there, so it stops there and leaves the message to the parser
    (which fails at that point, having read only what the pre-scan checked)."""
    n, i, keys, header_parts, last_parts, dotted_parts = len(text), 0, 0, 0, 0, 0
    stack: list[list[int]] = []  # one [is_array, entries, start] per open array / inline table
    tables: dict[str, int] = {}  # [[name]] -> entries
    state = "line"

    def key(i: int, header: bool = False) -> tuple[int, tuple[int, str, str] | None]:
        nonlocal last_parts, dotted_parts
        parts, start = 0, i
        while True:
            i = _WS.match(text, i).end()
            m = _BARE_KEY.match(text, i) or _BASIC.match(text, i) or _LITERAL.match(text, i)
            if m is None:
                return -1, (i, "", "")
            parts += 1
            size = len(m.group()) - (2 if text[i] in "\"'" else 0)
            if size > MAX_KEY_CHARS:
                return i, (i, f"a key is {size:,} characters long",
                           f"keys of at most {MAX_KEY_CHARS} characters")
            if parts > MAX_KEY_PARTS:
                return i, (i, f"a dotted key or table name has more than {MAX_KEY_PARTS} parts",
                           f"at most {MAX_KEY_PARTS} parts in a dotted key or table name")
            i = _WS.match(text, m.end()).end()
            if not text.startswith(".", i):
                last_parts = parts
                if not header and parts > 1:
                    dotted_parts += parts
                    if dotted_parts > MAX_DOTTED_PARTS:
                        return i, (start, f"the dotted keys have more than {MAX_DOTTED_PARTS:,} parts together",
                                   f"at most {MAX_DOTTED_PARTS:,} parts in all the dotted keys of a document")
                return i, None
            i += 1

    def counted(start: int) -> tuple[int, str, str] | None:
        nonlocal keys
        keys += 1
        if keys > MAX_KEYS:
            return (start, f"more than {MAX_KEYS:,} keys", f"at most {MAX_KEYS:,} keys in a document")
        return None

    while True:
        if state == "line":  # a statement: [table], [[array]], key = value
            i = _WS_NL.match(text, i).end()
            if i >= n:
                return None
            start = i
            if text[i] == "[":
                aot = text.startswith("[[", i)
                i, bad = key(i + 1 + aot, header=True)
                if bad is not None or i < 0:
                    return bad
                if not text.startswith("]]" if aot else "]", i):
                    return (i, "", "")
                header_parts += last_parts
                if header_parts > MAX_HEADER_PARTS:
                    return (start, f"the table headers have more than {MAX_HEADER_PARTS:,} parts together",
                            f"at most {MAX_HEADER_PARTS:,} parts in all the [table] headers of a document")
                if aot:
                    name = "".join(text[start + 2:i].split())
                    tables[name] = tables.get(name, 0) + 1
                    if tables[name] > MAX_ARRAY_ITEMS:
                        return (start, f"more than {MAX_ARRAY_ITEMS:,} [[{shorten(name, 40)}]] tables",
                                f"at most {MAX_ARRAY_ITEMS:,} entries in an array")
                i += 1 + aot
                bad = counted(start)
                if bad is not None:
                    return bad
                state = "end"
                continue
            i, bad = key(i)
            if bad is not None or i < 0:
                return bad
            bad = counted(start)
            if bad is not None:
                return bad
            if not text.startswith("=", i):
                return (i, "", "")
            i, state = i + 1, "value"
        elif state == "value":
            i = (_WS_NL if stack and stack[-1][0] else _WS).match(text, i).end()
            if i >= n:
                return (i, "", "")
            c = text[i]
            if stack and stack[-1][0]:
                stack[-1][1] += 1
                if stack[-1][1] > MAX_ARRAY_ITEMS:
                    return (stack[-1][2], f"an array has more than {MAX_ARRAY_ITEMS:,} entries",
                            f"at most {MAX_ARRAY_ITEMS:,} entries in an array")
            if c == "[":
                stack.append([1, 0, i])
                i = _WS_NL.match(text, i + 1).end()
                if text.startswith("]", i):
                    stack.pop()
                    i, state = i + 1, "after"
                continue
            if c == "{":
                stack.append([0, 0, i])
                i = _WS.match(text, i + 1).end()
                if text.startswith("}", i):
                    stack.pop()
                    i, state = i + 1, "after"
                else:
                    state = "inline key"
                continue
            if text.startswith('"""', i):
                e = _ML_BASIC_END.match(text, i + 3)
                size = (e.end() - 3 - (i + 3)) if e else n - i
            elif text.startswith("'''", i):
                e = _ML_LITERAL_END.search(text, i + 3)
                size = (e.end() - 3 - (i + 3)) if e else n - i
            elif c in "\"'":
                e = (_BASIC if c == '"' else _LITERAL).match(text, i)
                size = (e.end() - i - 2) if e else n - i
            else:
                e = _SCALAR.match(text, i)
                size = 0
            if e is None:
                return (i, "", "")
            if size > MAX_STRING_CHARS:
                return (i, f"a string is {size:,} characters long",
                        f"strings of at most {MAX_STRING_CHARS:,} characters")
            i, state = e.end(), "after"
        elif state == "inline key":
            start = _WS.match(text, i).end()
            i, bad = key(start)
            if bad is not None or i < 0:
                return bad
            bad = counted(start)
            if bad is not None:
                return bad
            if not text.startswith("=", i):
                return (i, "", "")
            i, state = i + 1, "value"
        elif state == "after":  # after a value: a separator, a closing bracket, or the end of the line
            if not stack:
                state = "end"
                continue
            is_array = stack[-1][0]
            i = (_WS_NL if is_array else _WS).match(text, i).end()
            if text.startswith(",", i):
                i += 1
                if is_array:
                    i = _WS_NL.match(text, i).end()
                    if text.startswith("]", i):
                        stack.pop()
                        i += 1
                    else:
                        state = "value"
                else:
                    state = "inline key"
            elif text.startswith("]" if is_array else "}", i):
                stack.pop()
                i += 1
            else:
                return (i, "", "")
        else:  # "end": the rest of a statement's line
            i = _WS.match(text, i).end()
            if text.startswith("#", i):
                j = text.find("\n", i)
                i = n if j < 0 else j
            if i < n and text[i] not in "\r\n":
                return (i, "", "")
            state = "line"


def _structure_depth_exceeded(data: Any) -> bool:
    """Whether the parsed document nests deeper than :data:`MAX_NESTING` (dotted keys and ``[a.b.c]`` headers
    nest tables without brackets). Iterative: no recursion, whatever the depth."""
    stack: list[tuple[Any, int]] = [(data, 0)]
    while stack:
        v, d = stack.pop()
        if d > MAX_NESTING:
            return True
        if isinstance(v, dict):
            stack.extend((x, d + 1) for x in v.values() if isinstance(x, (dict, list)))
        elif isinstance(v, list):
            stack.extend((x, d + 1) for x in v if isinstance(x, (dict, list)))
    return False


_INVISIBLE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]")
"""Characters no text field may hold: C0/C1 controls (tab, newline and carriage return are allowed), zero-width and
direction marks, bidi overrides and isolates, line/paragraph separators, the BOM. A name holding them prints
differently from what it is (a bell, a right-to-left override) in the trace, the terminal and the page."""


def _invisible_text(data: Any) -> tuple[str, str] | None:
    """The first ``(dotted field path, "U+XXXX")`` of a key or string value holding an :data:`_INVISIBLE`
    character, or ``None``. Iterative, like :func:`_structure_depth_exceeded`."""
    stack: list[tuple[Any, tuple]] = [(data, ())]
    while stack:
        v, where = stack.pop()
        items = v.items() if isinstance(v, dict) else enumerate(v) if isinstance(v, list) else ()
        for k, x in items:
            loc = where + (k,)
            for text in ((k, x) if isinstance(k, str) else (x,)):
                if isinstance(text, str):
                    m = _INVISIBLE.search(text)
                    if m is not None:
                        return _dotted(loc), f"U+{ord(m.group()):04X}"
            if isinstance(x, (dict, list)):
                stack.append((x, loc))
    return None


def _too_big(size: str) -> str:
    return f"the file is too large ({size}; the limit is {MAX_FILE_BYTES:,} bytes)"


def _read_file(path: str | os.PathLike[str], name: str) -> str:
    """The text of a regular file of at most :data:`MAX_FILE_BYTES` bytes (see :func:`read_toml`)."""
    def fail(problem: str, allowed: str | None = None) -> ScenarioError:
        return ScenarioError("", problem, allowed, source=name)

    regular = "a regular UTF-8 TOML file"
    try:
        st = os.stat(path)
        if not stat.S_ISREG(st.st_mode):
            raise fail(f"is {path_kind(st.st_mode, 'not a regular file')}, not a file that can be read", regular)
        if st.st_size > MAX_FILE_BYTES:
            raise fail(_too_big(f"{st.st_size:,} bytes"), regular)
        # O_NONBLOCK: had the path become a FIFO since the stat, opening it must not wait for a writer
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
        try:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode):
                raise fail(f"is {path_kind(st.st_mode, 'not a regular file')}, not a file that can be read", regular)
            chunks, size = [], 0
            while size <= MAX_FILE_BYTES:
                chunk = os.read(fd, MAX_FILE_BYTES + 1 - size)
                if not chunk:
                    break
                chunks.append(chunk)
                size += len(chunk)
        finally:
            os.close(fd)
    except ScenarioError:
        raise
    except FileNotFoundError:
        raise fail("file not found") from None
    except NotADirectoryError:
        raise fail("file not found (a part of the path is not a directory)") from None
    except OSError as e:
        raise fail(f"cannot read the file ({e.strerror or type(e).__name__})") from None
    except ValueError as e:  # e.g. an embedded NUL character in the path
        raise fail(f"not a usable file path ({e})") from None
    return decode_file_bytes(b"".join(chunks), name)


def decode_file_bytes(raw: bytes, name: str) -> str:
    """The text of a file's bytes, read from disk or uploaded in a widget: at most :data:`MAX_FILE_BYTES` bytes of
    UTF-8 (the loading gate's rules; pass the text on to :func:`read_toml`).

    Raises:
        ScenarioError: too large, or not UTF-8 (one line naming ``name``).
    """
    if len(raw) > MAX_FILE_BYTES:
        raise ScenarioError("", _too_big(f"{len(raw):,} bytes"), "a regular UTF-8 TOML file", source=name)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise ScenarioError("", f"not UTF-8 text (byte {e.object[e.start]:#04x} at offset {e.start}); TOML files "
                            "must be UTF-8", "a UTF-8 TOML scenario file", source=name) from None


def read_toml(source: str | Path, *, text: str | None = None) -> dict[str, Any]:
    """Parse a TOML file (or ``text`` given directly, with ``source`` as its name): the one loading gate of every
    file format (roll scenarios, table files, board files...).

    The gate, in order: the path must name a regular file (a directory, FIFO, device or socket is refused before it
    is opened); at most :data:`MAX_FILE_BYTES` bytes are read (``text`` is held to the same cap); the bytes must be
    UTF-8; nesting may not pass :data:`MAX_NESTING`; the text pre-scan (:func:`_prescan`, before the parser runs)
    bounds key length (:data:`MAX_KEY_CHARS`), dotted-key parts (:data:`MAX_KEY_PARTS`), array length
    (:data:`MAX_ARRAY_ITEMS`), string length (:data:`MAX_STRING_CHARS`) and the number of keys (:data:`MAX_KEYS`),
    so that the parser's cost grows linearly with the file; then any failure of the TOML parser (syntax, an integer
    longer than Python's int/str digit limit, ...) is reported.

    Returns:
        the document as a dict (``str`` keys; values ``str``, ``int``, ``float``, ``bool``, date/time, ``list``,
        ``dict``).
    Raises:
        ScenarioError: one line naming the file (shortened when long) and, where known, the line: missing or
            unreadable file, not a regular file, too large, not UTF-8, too deeply nested, past a pre-scan bound (the
            line and the bound named), not valid TOML.
    """
    name = str(source)
    if text is None:
        text = _read_file(source, name)
    else:
        if len(text) > MAX_FILE_BYTES or len(text.encode("utf-8", "surrogatepass")) > MAX_FILE_BYTES:
            raise ScenarioError("", f"the text is too large ({len(text):,} characters; the limit is "
                                f"{MAX_FILE_BYTES:,} bytes of UTF-8)", source=name)
        try:
            text.encode("utf-8")
        except UnicodeEncodeError as e:
            raise ScenarioError("", f"not valid Unicode text (a lone surrogate at character {e.start}, line "
                                f"{_line_at(text, e.start)})", "UTF-8 text", source=name) from None
    if text.startswith("\ufeff"):
        # a UTF-8 byte-order mark, as Windows editors write it: an encoding mark, not text (the TOML parser read it
        # as a statement and said only "Invalid statement (at line 1, column 1)")
        text = text[1:]
    deep = _too_deep(text)
    if deep is not None:
        raise ScenarioError("", f"nested more than {MAX_NESTING} levels deep (at line {deep})",
                            f"at most {MAX_NESTING} levels of nested arrays and tables", source=name)
    over = _prescan(text)
    if over is not None and over[1]:
        raise ScenarioError("", f"{over[1]} (at line {_line_at(text, over[0])})", over[2], source=name)
    import tomllib   # here, not with the module: a command whose file is already validated parses no TOML

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise ScenarioError("", f"not valid TOML: {e}", source=name) from None
    except RecursionError:
        raise ScenarioError("", "not valid TOML: nested too deeply for the parser",
                            f"at most {MAX_NESTING} levels of nested arrays and tables", source=name) from None
    except ValueError as e:
        where = ""
        m = re.search(r"[0-9][0-9_]{%d,}" % max(0, sys.get_int_max_str_digits() - 1), text)
        if m is not None:
            where = f" (at line {_line_at(text, m.start())})"
        if "digits" in str(e):
            raise ScenarioError("", f"an integer has more than {sys.get_int_max_str_digits()} digits{where}",
                                "whole numbers within each field's bounds", source=name) from None
        raise ScenarioError("", f"not valid TOML{where}: {e}", source=name) from None
    except Exception as e:  # any other failure of the parser is still the input's fault
        raise ScenarioError("", f"not valid TOML: {type(e).__name__}: {e}", source=name) from None
    if _structure_depth_exceeded(data):
        raise ScenarioError("", f"tables nested more than {MAX_NESTING} levels deep",
                            f"at most {MAX_NESTING} levels of nested arrays and tables", source=name)
    bad = _invisible_text(data)
    if bad is not None:
        raise ScenarioError(bad[0], f"holds the invisible or control character {bad[1]}",
                            "printable text (tab and newline allowed; no control, zero-width, bidi-override or "
                            "line-separator characters)", source=name)
    return data


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
    if t in ("too_long", "string_too_long") and "max_length" in ctx:
        return f"at most {ctx['max_length']} {'characters' if t.startswith('string') else 'entries'}"
    if t in ("too_short", "string_too_short") and "min_length" in ctx:
        return f"at least {ctx['min_length']} {'characters' if t.startswith('string') else 'entries'}"
    if t.startswith("int"):
        return "a whole number"
    if t.startswith("bool"):
        return "true or false"
    return None


def _field_info(model: type[BaseModel], loc: tuple) -> Any:
    """The pydantic ``FieldInfo`` of the field at ``loc`` (list indexes and dict keys of models skipped), or ``None``."""
    current: Any = model
    info = None
    for part in loc:
        if isinstance(part, _Member):
            current = part.model
            continue
        if isinstance(part, int) or not _is_model(current):
            if _is_model(current):
                continue
            return info if isinstance(part, int) else None
        if part not in current.model_fields:
            return None
        info = current.model_fields[part]
        subs = _models_in(info.annotation)
        current = subs[0] if subs else None
    return info


def _num(v: Any) -> str:
    """A bound as written in a file: ``4000.0`` -> ``4000``."""
    return str(int(v)) if isinstance(v, float) and v.is_integer() else str(v)


def _bounds_words(info: Any) -> str | None:
    """``"0 to 40"`` / ``">= 0"`` / ``"<= 40"`` from a field's ``ge`` / ``le`` / ``gt`` / ``lt`` constraints."""
    if info is None:
        return None
    c = {k: getattr(m, k) for m in info.metadata for k in ("ge", "gt", "le", "lt") if getattr(m, k, None) is not None}
    if "ge" in c and "le" in c:
        return f"{_num(c['ge'])} to {_num(c['le'])}"
    words = [f"{op} {_num(c[k])}" for k, op in (("ge", ">="), ("gt", ">"), ("le", "<="), ("lt", "<")) if k in c]
    return ", ".join(words) or None


_TYPE_TAGS = frozenset({"str", "int", "float", "bool", "list", "dict", "tuple", "none", "set"})


def _type_words(info: Any) -> str | None:
    """What a field takes, in words, for a "missing" message: ``"a table"``, ``"a list"``, ``"one of 'hexagon',
    'rectangle'"`` (a ``Literal``), ``"text"``, ``"a whole number 0 to 40"``, ``"a number"``, ``"true or false"``
    (``None`` when the annotation says nothing simple)."""
    if info is None:
        return None
    ann = info.annotation
    kinds = [ann, *(getattr(ann, "__args__", None) or ())]
    origin = typing.get_origin(ann)
    bounds = _bounds_words(info)
    if origin in (list, tuple) or any(typing.get_origin(k) in (list, tuple) for k in kinds):
        return "a list"
    if origin is dict or any(_is_model(k) for k in kinds) \
            or any(typing.get_origin(k) is dict for k in kinds):
        return "a table"
    choices = [a for k in kinds if typing.get_origin(k) is typing.Literal for a in typing.get_args(k)]
    if choices:  # a kind, a skill, a side...: the values it takes, as the file writes them
        return "one of " + ", ".join(repr(str(c)) for c in choices)
    if bool in kinds:
        return "true or false"
    if int in kinds:
        return f"a whole number {bounds}" if bounds else "a whole number"
    if float in kinds:
        return f"a number {bounds}" if bounds else "a number"
    if str in kinds:
        return "text"
    return None


def _fields_at(model: type[BaseModel], loc: tuple) -> list[str] | None:
    """Field names allowed at the parent of ``loc`` (for unknown-field errors)."""
    current: Any = model
    for part in loc[:-1]:
        if isinstance(part, _Member):
            current = part.model
            continue
        if isinstance(part, int):
            continue
        if not _is_model(current) or part not in current.model_fields:
            return None
        ann = current.model_fields[part].annotation
        args = getattr(ann, "__args__", ()) or ()
        candidates = [ann, *args, *[x for a in args for x in getattr(a, "__args__", ())]]
        current = next((c for c in candidates if _is_model(c)), None)
    if _is_model(current):
        return list(current.model_fields)
    return None


def _max_length(info: Any) -> int | None:
    return next((m.max_length for m in info.metadata if getattr(m, "max_length", None) is not None), None)


def _models_in(annotation: Any) -> list[type[BaseModel]]:
    """Pydantic models an annotation may hold directly or as list items / dict values (``X``, ``X | None``,
    ``list[X]``, ``dict[str, X]``)."""
    out, todo = [], [annotation]
    while todo:
        a = todo.pop()
        if _is_model(a):
            out.append(a)
        else:
            todo.extend(getattr(a, "__args__", ()) or ())
    return out


def _holds_dict_of_models(annotation: Any) -> bool:
    """Whether the annotation is (or unions) a ``dict[..., Model]``."""
    todo = [annotation]
    while todo:
        a = todo.pop()
        if typing.get_origin(a) is dict:
            return True
        todo.extend(getattr(a, "__args__", ()) or ())
    return False


def _too_long(model: type[BaseModel], data: Any, loc: tuple = ()) -> tuple[tuple, int, int] | None:
    """The first list / table / string of ``data`` longer than the ``max_length`` of its field in ``model`` (nested
    models included): ``(loc, length, max_length)``, or ``None``. Pydantic checks a length only after validating
    every item, so a 1 MB file with 40,000 entries would take seconds to be refused; this takes microseconds."""
    stack = [(model, data, loc)]
    while stack:
        m, d, where = stack.pop()
        if not isinstance(d, Mapping):
            continue
        for name, info in m.model_fields.items():
            if name not in d:
                continue
            v = d[name]
            mx = _max_length(info)
            if mx is not None and isinstance(v, (list, dict, str)) and len(v) > mx:
                return where + (name,), len(v), mx
            subs = _models_in(info.annotation)
            if not subs:
                continue
            sub = subs[0]
            if isinstance(v, list):
                stack.extend((sub, x, where + (name, i)) for i, x in enumerate(v))
            elif isinstance(v, Mapping) and _holds_dict_of_models(info.annotation):
                stack.extend((sub, x, where + (name, k)) for k, x in v.items())
            else:
                stack.append((sub, v, where + (name,)))
    return None


def _get_at(data: Any, loc: tuple) -> Any:
    for part in loc:
        data = data[part]
    return data


_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


def toml_key(key: Any) -> str:
    """One key of a dotted field path as a TOML file writes it: bare when it is only ASCII letters, digits, ``_``
    and ``-`` (``Stoorworm``), else quoted (``"Red TAG"``, with ``\\`` and ``"`` escaped), so that a message names
    the field the user typed (``dice.rolls."Red TAG"``)."""
    k = str(key)
    if _BARE_KEY.fullmatch(k):
        return k
    return '"' + k.replace("\\", "\\\\").replace('"', '\\"') + '"'


class _Member:
    """A location part that is the tag of a discriminated union's member (``"activate"`` in pydantic's
    ``('events', 0, 'activate', 'enemy')``): not a field of the file, so no part of a field path; the walkers
    (:func:`_annotation_at`, :func:`_field_info`, :func:`_fields_at`) step into ``model`` there."""

    def __init__(self, model: type[BaseModel]):
        self.model = model

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Member) and other.model is self.model

    def __hash__(self) -> int:
        return hash(self.model)


def _mark_members(model: type[BaseModel], loc: tuple) -> tuple:
    """``loc`` with each discriminated-union tag replaced by a :class:`_Member` of the member it names."""
    out: list[Any] = []
    for part in loc:
        if isinstance(part, str):
            ann, meta = _annotation_at(model, tuple(out))
            members = [a for a in typing.get_args(ann) if _is_model(a)] \
                if typing.get_origin(ann) in (typing.Union, types.UnionType) else []
            key = next((str(d) for d in (getattr(m, "discriminator", None) for m in meta) if isinstance(d, str)),
                       None)
            hit = next((m for m in members if len(members) > 1 and key in m.model_fields
                        and part in typing.get_args(m.model_fields[key].annotation)), None)
            if hit is not None:
                out.append(_Member(hit))
                continue
        out.append(part)
    return tuple(out)


def _dotted(loc: tuple) -> str:
    path = ""
    for part in loc:
        if isinstance(part, _Member):
            continue
        path += f"[{part}]" if isinstance(part, int) else (f".{toml_key(part)}" if path else toml_key(part))
    return path


_TAG = re.compile(r"[a-z]+(-[a-z]+)*(\[.*\])?")
_PYDANTIC_TAGS = frozenset({
    "constrained-str", "constrained-int", "constrained-float", "constrained-bytes", "constrained-decimal",
    "lax-or-strict", "json-or-python", "nullable", "default", "function-after", "function-before", "function-wrap",
    "function-plain", "tagged-union", "union", "chain", "is-instance", "is-subclass", "literal", "enum", "model",
    "dataclass", "typed-dict", "definition-ref", "generator", "callable", "any", "json", "decimal", "date", "time",
    "datetime", "timedelta", "url", "uuid", "bytes", "frozenset", "custom-error"})


def _model_names(model: type[BaseModel]) -> set[str]:
    """Class names of every pydantic model reachable from ``model`` (pydantic puts the member of a union it tried
    in an error's location: ``ActiveMiner``)."""
    seen: set[type[BaseModel]] = set()
    todo = [model]
    while todo:
        m = todo.pop()
        if m in seen:
            continue
        seen.add(m)
        for info in m.model_fields.values():
            todo.extend(_models_in(info.annotation))
    return {m.__name__ for m in seen}


def _is_tag(part: Any, models: set[str]) -> bool:
    """Whether a location part is pydantic's name for a type it tried (not a field, index or user key)."""
    if not isinstance(part, str):
        return False
    base = part.split("[", 1)[0]
    return (part in _TYPE_TAGS or base in _PYDANTIC_TAGS or part in models
            or ("[" in part and bool(_TAG.fullmatch(part))))


POINT_WORDS = "a point [x, y]"
HEX_WORDS = 'a hexagon key like "3,-1"'
_FIELD_WORDS = {
    "hex": HEX_WORDS, "route": f"{HEX_WORDS} or {POINT_WORDS}", "evade_moves": f"{HEX_WORDS} or {POINT_WORDS}",
    "offset": POINT_WORDS, "edge": 'two neighbouring hexagon keys like "0,1|1,1"',
}
"""What a field takes, in the formats' own words, for fields whose type alone says too little (a hexagon key is text
to pydantic, a point a pair of numbers)."""


def _field_words(loc: tuple) -> str | None:
    """The words of the innermost field of ``loc`` named in :data:`_FIELD_WORDS` (``evade_moves.X``: a key of it)."""
    return next((_FIELD_WORDS[p] for p in reversed(loc) if isinstance(p, str) and p in _FIELD_WORDS), None)


def _annotation_at(model: type[BaseModel], loc: tuple) -> tuple[Any, list[Any]]:
    """The type annotation at ``loc`` (fields, list items, tuple members, dict values) and the constraints attached
    to it (``Field(ge=1, le=20)`` of a list item), or ``(None, [])`` when the path leaves the schema."""
    ann: Any = model
    meta: list[Any] = []
    for part in loc:
        if isinstance(part, _Member):
            ann, meta = part.model, []
            continue
        while True:  # unwrap Annotated[...] and X | None down to one type
            if typing.get_origin(ann) is typing.Annotated:
                meta = list(getattr(ann, "__metadata__", ()))
                ann = typing.get_args(ann)[0]
                continue
            args = [a for a in typing.get_args(ann) if a is not type(None)]
            if typing.get_origin(ann) in (typing.Union, types.UnionType) and args:
                ann = args[0] if len(args) == 1 else next(
                    (a for a in args if typing.get_origin(a) in (list, tuple, dict)
                     or _is_model(a)), args[0])
                continue
            break
        origin = typing.get_origin(ann)
        if _is_model(ann):
            if not isinstance(part, str) or part not in ann.model_fields:
                return None, []
            info = ann.model_fields[part]
            ann, meta = info.annotation, list(info.metadata)
        elif origin in (list, set, frozenset) and isinstance(part, int):
            ann, meta = typing.get_args(ann)[0], []
        elif origin is tuple and isinstance(part, int):
            args = typing.get_args(ann)
            ann = args[0] if len(args) == 2 and args[1] is Ellipsis else (args[part] if part < len(args) else None)
            meta = []
        elif origin is dict:
            ann, meta = typing.get_args(ann)[1], []
        else:
            return None, []
    while typing.get_origin(ann) is typing.Annotated:
        meta = meta + list(getattr(ann, "__metadata__", ()))
        ann = typing.get_args(ann)[0]
    return ann, meta


class _Info:
    """A stand-in ``FieldInfo`` (annotation + metadata) for a list item or dict value."""

    def __init__(self, annotation: Any, metadata: list[Any]):
        flat: list[Any] = []
        for m in metadata:  # Annotated[int, Field(ge=1)]: the constraints sit in the FieldInfo's own metadata
            flat.extend(getattr(m, "metadata", None) or [m])
        self.annotation, self.metadata = annotation, flat


def _bound_words(ctx: Mapping[str, Any], info: Any) -> str | None:
    """``"1 to 20"`` from the field's bounds when it has both ends inclusive, else every bound of the field in words
    (``"more than 0, at most 100"``), else the error's own bound (``"at least 1"``, ``"less than 360"``)."""
    words = _bounds_words(info)
    if words and " to " in words:
        return words
    c = {k: getattr(m, k) for m in (getattr(info, "metadata", None) or ()) for k in ("ge", "gt", "le", "lt")
         if getattr(m, k, None) is not None} or dict(ctx)
    out = [f"{w} {_num(c[k])}" for k, w in (("ge", "at least"), ("gt", "more than"), ("le", "at most"),
                                             ("lt", "less than")) if k in c]
    return ", ".join(out) or None


def _union_tags(ann: Any, key: str) -> tuple[str, ...]:
    """The values of the field ``key`` that tell the members of the union ``ann`` apart, in declaration order."""
    tags: list[str] = []
    for member in typing.get_args(ann):
        info = getattr(member, "model_fields", {}).get(key)
        if info is not None and typing.get_origin(info.annotation) is typing.Literal:
            tags.extend(str(a) for a in typing.get_args(info.annotation))
    return tuple(tags)


def explain_errors(model: type[BaseModel], errs: list[Mapping[str, Any]]) -> tuple[str, str, str | None, int]:
    """The first of pydantic's ``errs`` in the formats' words: ``(field path, problem, allowed, errors used)``.

    The location keeps fields, list indexes and user keys (pydantic's names for the types it tried, such as
    ``constrained-str`` or ``function-after[...]``, are dropped); the problem and the allowed values never repeat
    pydantic's own phrasing ("Input should be...", "after validation", "greater than or equal to"). Errors that
    share the first one's location (each member of a union that failed) are explained together and count as one.
    """
    models = _model_names(model)
    first = errs[0]
    loc = _mark_members(model, tuple(p for p in first["loc"] if not _is_tag(p, models)))
    if isinstance(first.get("input"), (list, dict)):
        # a list or table given to a field that takes a number or a list (``fire_from``: a fraction or a point):
        # the member that reads a list is the one meant, so its error inside the list is the one explained, and
        # the other members' refusals of the whole list are no further problems
        def bare(e: Mapping[str, Any]) -> tuple:
            return _mark_members(model, tuple(p for p in e["loc"] if not _is_tag(p, models)))

        deeper = [e for e in errs if len(bare(e)) > len(loc) and bare(e)[:len(loc)] == loc]
        if deeper:
            rest = [e for e in errs if bare(e) != loc]
            path, problem, allowed, n = explain_errors(model, [deeper[0], *(e for e in rest if e is not deeper[0])])
            return path, problem, allowed, n + len(errs) - len(rest)
    same = [e for e in errs if _mark_members(model, tuple(p for p in e["loc"] if not _is_tag(p, models))) == loc]
    path = _dotted(loc)
    t = first["type"]
    ctx = first.get("ctx") or {}
    value = first.get("input")
    got = ("true" if value else "false") if isinstance(value, bool) else short_repr(value)  # as a file writes it
    ann, meta = _annotation_at(model, loc)
    info = _Info(ann, meta) if ann is not None else _field_info(model, loc)
    words = _field_words(loc)
    if t == "extra_forbidden":
        names = _fields_at(model, loc)
        return path, "unknown field", ("one of " + ", ".join(repr(n) for n in names)) if names else None, 1
    if t == "missing":
        if loc and isinstance(loc[-1], int):  # a fixed-length list (a pair, a tuple) with too few entries
            whole, _ = _annotation_at(model, loc[:-1])
            n = len(typing.get_args(whole)) if typing.get_origin(whole) is tuple else None
            return _dotted(loc[:-1]), f"has only {plural(loc[-1], 'entry', 'entries')}", \
                words or (f"a list of exactly {n} entries" if n else "more entries"), len(same)
        return path, "is required but missing", _allowed_from(first) or words or _type_words(info), 1
    if words and (len(same) > 1 or t in ("string_type", "tuple_type", "list_type", "too_short", "too_long",
                                         "string_too_long", "string_too_short")):
        # a hexagon key, a point or either (a union of both): one sentence for all the members that failed
        return path, f"{got} is not {words}", words, len(same)
    if t in ("int_parsing_size", "int_from_float", "int_parsing", "int_type", "float_parsing", "float_type",
             "finite_number"):
        # a number that is not a whole / finite number: say what the field takes, bounds included
        ann = getattr(info, "annotation", None)
        whole = t.startswith("int") or int in (ann, *(getattr(ann, "__args__", None) or ()))
        kind = "a whole number" if whole else "a finite number"
        bounds = _bounds_words(info)
        return path, f"{got} is not {kind}", f"{kind} {bounds}" if bounds else kind, len(same)
    if t in ("greater_than_equal", "greater_than", "less_than_equal", "less_than"):
        low = t.startswith("greater")
        return path, f"{got} is too {'small' if low else 'large'}", _bound_words(ctx, info), len(same)
    if t in ("string_too_short", "string_too_long", "too_short", "too_long"):
        text = t.startswith("string")
        unit = "character" if text else "entry"
        n = ctx.get("actual_length", len(first.get("input") or ()) if not text else len(str(first.get("input"))))
        lim = ctx.get("min_length" if "short" in t else "max_length")
        many = "characters" if text else "entries"
        has = plural(n, unit, many)
        need = ("at least " if "short" in t else "at most ") + plural(lim, unit, many)
        problem = "is empty" if n == 0 else f"has {has}"
        return path, problem, need, len(same)
    if t in ("literal_error", "enum"):
        return path, f"{got} is not an allowed value", f"one of {ctx.get('expected', '')}".strip(), len(same)
    if t in ("bool_type", "bool_parsing"):
        return path, f"{got} is not true or false", "true or false", len(same)
    if t == "string_type":
        return path, f"{got} is not text", "text", len(same)
    if t in ("list_type", "tuple_type", "set_type", "iterable_type"):
        return path, f"{got} is not a list", _type_words(info) or "a list", len(same)
    if t in ("dict_type", "model_type", "model_attributes_type", "mapping_type", "dataclass_type"):
        return path, f"{got} is not a table", "a table", len(same)
    if t == "string_pattern_mismatch":
        return path, f"{got} does not have the expected form", words or f"text matching {ctx.get('pattern')}", \
            len(same)
    if t in ("value_error", "assertion_error"):
        msg = str(ctx.get("error") or first["msg"])
        msg = re.sub(r"^(Value error|Assertion failed),\s*", "", msg)
        # a validator's message may end with what is allowed: "... (allowed: 1 to 10)" is kept as its allowed part
        m = re.fullmatch(r"(.*\S) \(allowed: ([^()]*)\)", msg, re.S)
        if m:
            return path, m[1][:1].lower() + m[1][1:], m[2], len(same)
        return path, msg[:1].lower() + msg[1:], None, len(same)
    if t in ("union_tag_invalid", "union_tag_not_found"):
        # a table of several kinds told apart by one field (``type = "activate"``): name that field and its values
        key = str(ctx.get("discriminator", "")).strip("'\"")
        tags = _union_tags(ann, key) if key else ()
        allowed = ("one of " + ", ".join(repr(x) for x in tags)) if tags else (
            f"one of {ctx['expected_tags']}" if ctx.get("expected_tags") else None)
        where = _dotted((*loc, key)) if key else path
        if t == "union_tag_not_found":
            return where, "is required but missing", allowed, len(same)
        return where, f"{short_repr(ctx.get('tag'))} is not an allowed kind", allowed, len(same)
    # any other type: pydantic's message without its own type names and comparison words
    msg = re.sub(r" or instance of \w+", "", first["msg"])
    msg = re.sub(r"^Input should be ", "should be ", msg)
    msg = msg.replace(" after validation", "")
    return path, f"{msg[0].lower()}{msg[1:]} (got {got})", _allowed_from(first), len(same)


def validate(model: type[M], data: Mapping[str, Any], source: str | None = None) -> M:
    """Validate ``data`` against ``model``.

    The message is one line: the bad value is quoted cut short (:func:`~explorer.errors.short_repr`) and control
    characters in field names are escaped.

    Raises:
        ScenarioError: for the first problem found, naming the dotted field path (``active.burst``,
            ``targets[1].sv``), what is wrong and what is allowed; further problems are listed in the message.
    """
    long = _too_long(model, data)
    if long is not None:
        where, n, mx = long
        what = "characters" if isinstance(_get_at(data, where), str) else "entries"
        raise ScenarioError(_dotted(where), f"has {n:,} {what}", f"at most {mx:,} {what}", source)
    from pydantic import ValidationError

    try:
        return model.model_validate(data)
    except ValidationError as e:
        errs = e.errors()
        path, problem, allowed, n = explain_errors(model, errs)
        if len(errs) > n:
            problem += f"; {plural(len(errs) - n, 'more problem')} after this one"
        raise ScenarioError(path, problem, allowed, source) from None


_WHOLE = re.compile(r"[+-]?[0-9]{1,12}")


def parse_whole(text: Any, field: str, lo: int, hi: int, what: str = "a whole number",
                source: str | None = "widget", allowed: str | None = None) -> int:
    """A whole number typed by a user (a widget box, a CLI option): ASCII digits with an optional sign, spaces around
    allowed (``"+3"``, ``" 12 "``); anything else — ``"²"``, ``"1e3"``, ``"3.0"``, 5,000 digits, other scripts'
    digits — is refused before any conversion.

    Raises:
        ScenarioError: not such a number, or outside ``lo..hi``; the message names ``field`` and the range.
    """
    s = str(text).strip()
    allowed = allowed or f"whole numbers {lo} to {hi}"
    if not _WHOLE.fullmatch(s):
        raise ScenarioError(field, f"{short_repr(s)} is not {what}", allowed, source)
    v = int(s)
    if not lo <= v <= hi:
        raise ScenarioError(field, f"{v} is out of range", allowed, source)
    return v
