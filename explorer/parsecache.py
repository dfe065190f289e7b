"""A cache of parsed, validated built-in scenarios, so that a command reading one needs neither the TOML parser nor
pydantic (issue 18: every verb under 150 ms of CPU).

A built-in scenario is a packaged file: the same bytes and the same code always parse to the same value. The value
a game's parser returns (e.g. a D.A.G.G.E.R. ``NemesisScenario``, frozen dataclasses), or for ``explorer resolve`` the
pydantic-free snapshot of a game's validated models (:mod:`explorer.plain`, a TAG Raid roll exchange), is pickled
under a key that hashes

* the file's bytes and the name it is parsed under (the source in messages),
* the game and the kind of load (a built-in, a packaged file opened by name),
* the **code version**: the bytes of every file of the ``explorer`` package (its modules and packaged data: a map or
  card file a parser reads), the Python version and the installed pydantic and pydantic_core,

so an edited built-in, a changed model or parser, or another pydantic never serves a stale value: the key differs
and the file is parsed and validated as without a cache. Hashing the package's 4.7 MB costs about 12 ms of CPU, so
the content hash is memoised under the package's stat signature (every file's path, size and modification time,
about 3 ms to take, once per process): an edit changes the signature, the content is hashed again and, when it
differs, the entries of the old code version are deleted.

Where: the ``scenarios`` subdirectory of ``$EXPLORER_CACHE_DIR``, else of ``$XDG_CACHE_HOME/explorer``, else of
``~/.cache/explorer`` (the directory the rule index caches in too); ``EXPLORER_CACHE=off`` turns the cache off. The
subdirectory is created private (mode 0700); a directory or entry that is not the user's own, or is writable by
others, is never read (a pickle runs code when loaded). Anything that goes wrong (no home, a read-only
or full disk, a corrupt or truncated entry, a value that cannot be pickled) falls back silently to parsing the file:
the cache can make a command faster, never different. Only files whose bytes are hashed into the key are cached (the
built-ins and packaged files of :mod:`explorer.games`); a user's file is always parsed.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

try:   # a hit is read by the C unpickler itself, without the ``pickle`` module's pure-Python half (a miss, which
    # validates the file anyway, imports ``pickle`` to write the entry)
    from _pickle import load as _load
except ImportError:   # pragma: no cover - an interpreter without the C accelerator
    from pickle import load as _load

try:   # hashlib's own BLAKE2, without importing OpenSSL's constructors with hashlib (about 5 ms of CPU)
    from _blake2 import blake2b
except ImportError:   # pragma: no cover - an interpreter built without it
    from hashlib import blake2b

T = TypeVar("T")

FORMAT = 1
"""The layout of an entry (``(FORMAT, key, value)`` pickled); a change of layout is a new key too."""

ENV_OFF = "EXPLORER_CACHE"
"""``EXPLORER_CACHE=off`` (or ``0``, ``no``, ``false``): never read nor write the cache."""

ENV_DIR = "EXPLORER_CACHE_DIR"
"""The cache directory, when set (else ``$XDG_CACHE_HOME/explorer`` or ``~/.cache/explorer``)."""

PACKAGE = Path(__file__).resolve().parent
"""The ``explorer`` package directory, whose files make the code version."""

LIBRARIES = {"pydantic": ("version.py",), "pydantic_core": None}
"""Libraries whose installed files join the code version (validation is theirs as much as ours): ``{package: the
files that tell its version (None: every file of its directory)}``. pydantic's ``version.py`` holds its version;
pydantic_core's directory holds its compiled module."""

SUBDIR = "scenarios"
"""The subdirectory of the cache directory that holds this cache's entries and memos."""

_code: dict[str, str] = {}


def enabled() -> bool:
    """Whether the cache is on (``EXPLORER_CACHE`` is not ``off``/``0``/``no``/``false``)."""
    return os.environ.get(ENV_OFF, "").strip().lower() not in ("off", "0", "no", "false")


def cache_dir() -> Path | None:
    """The cache directory (not created), or ``None`` when no home or cache location is known."""
    if os.environ.get(ENV_DIR):
        return Path(os.environ[ENV_DIR])
    base = os.environ.get("XDG_CACHE_HOME") or ""
    if not os.path.isabs(base):   # the XDG spec: a relative value is ignored
        home = os.path.expanduser("~")
        if not home or home == "~":
            return None
        base = os.path.join(home, ".cache")
    return Path(base) / "explorer"


def _private(st: os.stat_result) -> bool:
    """The user's own, and writable by no one else."""
    return (not hasattr(os, "getuid") or st.st_uid == os.getuid()) and not st.st_mode & 0o022


def _files() -> list[tuple[str, str]]:
    """``(relative path, path)`` of every file of the package (no ``__pycache__``), sorted; both plain strings (the
    relative path with ``/``), built without :mod:`pathlib`, whose objects cost more than the stat of the package's
    files they name (every command that reads a built-in walks them once)."""
    out = []
    root = str(PACKAGE)
    strip = len(root) + 1
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
        rel = dirpath[strip:].replace(os.sep, "/")
        prefix = rel + "/" if rel else ""
        for f in sorted(filenames):
            out.append((prefix + f, os.path.join(dirpath, f)))
    return out


def _library_files() -> list[Path]:
    """The installed files of :data:`LIBRARIES` that say which version is installed (found without importing)."""
    from importlib.util import find_spec

    out = []
    for lib, names in LIBRARIES.items():
        try:
            spec = find_spec(lib)
        except (ImportError, ValueError):
            spec = None
        if spec is None or not spec.submodule_search_locations:
            continue
        for d in spec.submodule_search_locations:
            if names is None:
                out.extend(sorted(p for p in Path(d).iterdir() if p.is_file()))
            else:
                out.extend(Path(d) / n for n in names if (Path(d) / n).is_file())
    return out


def code_version(directory: Path | None = None) -> str:
    """A hex digest of the package's files (bytes), the Python version and the installed :data:`LIBRARIES`.

    Memoised in ``directory`` (when given and usable) under the stat signature of those files, so that an unchanged
    installation pays for a stat of each file, not a hash of its bytes; computed once per process (a running
    process does not reload its code either)."""
    if _code.get("process"):   # once per process: a running process does not reload its code either
        return _code["process"]
    files = _files()
    libs = _library_files()
    sig = blake2b(f"{FORMAT} {sys.version} {sys.implementation.cache_tag}".encode(), digest_size=16)
    for rel, p in [*files, *((str(p), p) for p in libs)]:
        st = os.stat(p)
        sig.update(f"{rel}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
    stat_key = sig.hexdigest()
    if stat_key in _code:
        _code["process"] = _code[stat_key]
        return _code[stat_key]
    memo = directory / f"code-{stat_key}.txt" if directory is not None else None
    if memo is not None:
        try:
            if _private(memo.stat()):
                text = memo.read_text(encoding="ascii").strip()
                if len(text) == 32 and all(c in "0123456789abcdef" for c in text):
                    _code[stat_key] = _code["process"] = text
                    return text
        except (OSError, ValueError):
            pass
    h = blake2b(f"{FORMAT} {sys.version} {sys.implementation.cache_tag}".encode(), digest_size=16)
    for rel, p in files:
        h.update(f"{rel}\0".encode())
        with open(p, "rb") as f:
            h.update(f.read())
        h.update(b"\0")
    for p in libs:   # a library's version: its small files' bytes, its compiled module's size and time
        st = p.stat()
        h.update(f"{p.name}\0{st.st_size}\0{st.st_mtime_ns if st.st_size > 200_000 else ''}\0".encode())
        if st.st_size <= 200_000:
            h.update(p.read_bytes())
    version = h.hexdigest()
    _code[stat_key] = _code["process"] = version
    if memo is not None:
        _prune(directory, keep_code=version, keep_memo=memo.name)
        _write(memo, version.encode("ascii"))
    return version


def _prune(directory: Path, keep_code: str, keep_memo: str) -> None:
    """Delete the entries of other code versions and the other stat memos (best effort)."""
    try:
        for p in directory.iterdir():
            n = p.name
            if (n.startswith("code-") and n != keep_memo) or (n.endswith(".pickle") and not n.startswith(keep_code)):
                p.unlink(missing_ok=True)
    except OSError:
        pass


def _usable_dir() -> Path | None:
    """``<cache_dir()>/scenarios``, created private if missing (the cache directory is shared with the rule index's
    cache, :func:`explorer.rule_index.cache_dir`); ``None`` when it cannot be used safely: the directory or the
    subdirectory belongs to someone else or others may write to it, or it cannot be created."""
    root = cache_dir()
    if root is None:
        return None
    d = root / SUBDIR
    try:
        if root.exists() and not _private(root.stat()):
            return None
        d.mkdir(mode=0o700, parents=True, exist_ok=True)
        if not (_private(root.stat()) and _private(d.stat())):
            return None
    except OSError:
        return None
    return d


def _write(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically (a temporary file renamed), private; best effort."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except OSError:
        try:
            tmp.unlink(missing_ok=True)
        except OSError:
            pass


def cached(what: tuple[str, ...], data: bytes, build: Callable[[], T]) -> T:
    """The value ``build()`` returns for the file bytes ``data``, from the cache when an entry has the same key.

    Args:
        what: names the load: e.g. ``("builtin", game id, source name)``; part of the key with ``data`` and
            :func:`code_version`. ``build`` must depend on nothing else.
        data: the bytes of the file ``build`` parses.
        build: parses and validates; its exceptions propagate (a refused file is never cached).

    Returns:
        ``build()``'s value, or an equal value unpickled from the cache.
    """
    directory = _usable_dir() if enabled() else None
    if directory is None:
        return build()
    try:
        code = code_version(directory)
    except OSError:
        return build()
    h = blake2b(digest_size=20)
    for part in (code, *what):
        h.update(part.encode("utf-8", "surrogatepass") + b"\0")
    h.update(data)
    key = h.hexdigest()
    path = directory / f"{code}-{key}.pickle"
    try:
        with open(path, "rb") as f:
            if _private(os.fstat(f.fileno())):
                fmt, got, value = _load(f)
                if fmt == FORMAT and got == key:
                    return value
    except Exception:   # noqa: BLE001 -- missing, truncated, corrupt, or naming a class that moved: parse instead
        pass
    value = build()
    try:
        import pickle

        blob = pickle.dumps((FORMAT, key, value), protocol=pickle.HIGHEST_PROTOCOL)
    except Exception:   # noqa: BLE001 -- a value that does not pickle is simply not cached
        return value
    _write(path, blob)
    return value


def clear() -> int:
    """Delete every entry and memo of this cache (:data:`SUBDIR` of the cache directory); the number of files
    deleted."""
    d = cache_dir()
    n = 0
    if d is None or not (d / SUBDIR).is_dir():
        return 0
    for p in (d / SUBDIR).iterdir():
        if p.name.endswith(".pickle") or (p.name.startswith("code-") and p.name.endswith(".txt")):
            try:
                p.unlink()
                n += 1
            except OSError:
                pass
    return n
