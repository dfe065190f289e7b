"""Files the command line writes (``explorer render -o FILE``, ``explorer scenarios --export NAME -o PATH``):
regular files only (issue #25), checked before any work by one checker every such verb shares.

An output path naming a FIFO would block the command forever waiting for a reader; a device, socket or directory
is never what "write the page to this file" means; a path whose directory is missing, that is not writable, or
that lies on a kernel pseudo-filesystem (``/proc``, ``/sys``: a regular file by ``stat`` that refuses writes) fails
only after the work. :func:`check_output` refuses all of those before any work, in one line naming the option, the
path and what is allowed; ``-`` (the Unix convention) means standard output. :func:`write_output` opens without
blocking and checks again what it opened (the path may have changed since); a write that fails even so (a full
device) is the same one line, naming the path.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from .errors import ScenarioError, shorten_middle
from .pathkind import path_kind


STDOUT = "-"
"""The output path that means standard output (the Unix convention: ``-o -``)."""

_ALLOWED = "the path of a regular file to write (a new one in an existing, writable directory, or one to replace)"
_ALLOWED_STDOUT = _ALLOWED + ", or - for standard output"


def _allowed(stdout_ok: bool) -> str:
    return _ALLOWED_STDOUT if stdout_ok else _ALLOWED


def _q(path: str) -> str:
    return repr(shorten_middle(path))


def _pseudo_fs(path: str) -> str | None:
    """The name of the kernel pseudo-filesystem ``path`` lies on, or None (or when it cannot be told)."""
    real = os.path.realpath(path)
    for prefix in ("/proc", "/sys"):
        if real == prefix or real.startswith(prefix + "/"):
            return prefix
    return None


def check_output(path: str | Path, option: str, *, stdout_ok: bool = True) -> Path | None:
    """Check an output path given on the command line before any work; return the :class:`~pathlib.Path` to write,
    or None for standard output (``path`` is ``-`` and ``stdout_ok``).

    Allowed: ``-`` (when ``stdout_ok``: the verb prints text), an existing regular file this process may write
    (replaced), or a new name in an existing directory this process may write (a dangling symbolic link counts as
    the new file it points to). Refused: the empty path; a directory, FIFO (named pipe), device or socket; a file on
    ``/proc`` or ``/sys``; a path whose directory is missing or is not a directory; a path not writable here; a
    symbolic link loop or a name too long.

    Raises:
        ScenarioError: one line naming ``option``, the path (shortened, controls escaped) and what is allowed.
    """
    raw = os.fspath(path)
    allowed = _allowed(stdout_ok)
    if raw == STDOUT and stdout_ok:
        return None
    if raw == "":
        raise ScenarioError(option, "'' is an empty path (no file name)", allowed)
    p = Path(raw)
    try:
        st = os.stat(raw)
    except FileNotFoundError:
        st = None
    except OSError as e:  # a symlink loop, a path through a file, a name too long...
        raise ScenarioError(option, f"{_q(raw)} cannot be used ({e.strerror or type(e).__name__})", allowed) from None
    if st is not None:
        if not stat.S_ISREG(st.st_mode):
            raise ScenarioError(option, f"{_q(raw)} is {path_kind(st.st_mode, 'not a regular file')}", allowed)
        fs = _pseudo_fs(raw)
        if fs is not None:
            raise ScenarioError(option, f"{_q(raw)} is a kernel file on {fs}, not a file to write output to", allowed)
        if not os.access(raw, os.W_OK):
            raise ScenarioError(option, f"{_q(raw)} is not writable here (permission denied)", allowed)
        return p
    # a new file (or a dangling symbolic link: writing creates what it points to): its directory must exist
    target = os.path.realpath(raw)
    parent = os.path.dirname(target) or "."
    link = f" (a symbolic link to {_q(target)})" if os.path.islink(raw) else ""
    try:
        pst = os.stat(parent)
    except FileNotFoundError:
        raise ScenarioError(option, f"{_q(raw)}{link} cannot be created: its directory {_q(parent)} does not exist",
                            allowed) from None
    except OSError as e:
        raise ScenarioError(option, f"{_q(raw)}{link} cannot be created ({e.strerror or type(e).__name__})",
                            allowed) from None
    if not stat.S_ISDIR(pst.st_mode):
        raise ScenarioError(option, f"{_q(raw)}{link} cannot be created: {_q(parent)} is not a directory", allowed)
    fs = _pseudo_fs(target)
    if fs is not None:
        raise ScenarioError(option, f"{_q(raw)}{link} cannot be created on {fs} (a kernel filesystem)", allowed)
    if not os.access(parent, os.W_OK | os.X_OK):
        raise ScenarioError(option, f"{_q(raw)}{link} cannot be created: its directory {_q(parent)} is not writable "
                            "here (permission denied)", allowed)
    return p


def write_output(path: Path, text: str, option: str) -> None:
    """Write ``text`` (UTF-8) to ``path``, a regular file (created or replaced), without ever blocking: the file is
    opened non-blocking (a FIFO made since :func:`check_output` fails at once instead of waiting for a reader) and
    checked to be a regular file before it is truncated and written.

    Raises:
        ScenarioError: naming ``option``, as :func:`check_output`; and when the open or the write itself fails (a
            full device, an I/O error, permission), naming ``option``, the path and the system's reason.
    """
    checked = check_output(path, option, stdout_ok=False)
    assert checked is not None
    raw = os.fspath(path)
    flags = os.O_WRONLY | os.O_CREAT | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(raw, flags, 0o666)
    except OSError as e:
        if e.errno == errno.ENXIO:  # a FIFO with no reader
            raise ScenarioError(option, f"{_q(raw)} is a FIFO (named pipe)", _ALLOWED) from None
        raise ScenarioError(option, f"{_q(raw)} cannot be opened for writing ({e.strerror or type(e).__name__})",
                            _ALLOWED) from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise ScenarioError(option, f"{_q(raw)} is {path_kind(st.st_mode, 'not a regular file')}", _ALLOWED)
        os.set_blocking(fd, True)
        with os.fdopen(fd, "w", encoding="utf-8", closefd=True) as f:
            fd = -1
            f.truncate(0)
            f.write(text)
    except OSError as e:
        raise ScenarioError(option, f"{_q(raw)} could not be written ({e.strerror or type(e).__name__})",
                            _ALLOWED) from None
    finally:
        if fd >= 0:
            os.close(fd)
