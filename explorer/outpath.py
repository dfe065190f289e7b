"""Files the command line writes (``explorer render -o FILE``): regular files only (issue #25).

An output path naming a FIFO would block the command forever waiting for a reader; a device, socket or directory
is never what "write the page to this file" means. :func:`check_output` refuses those before any work, and
:func:`write_output` opens without blocking and checks again what it opened (the path may have changed since).
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from .errors import ScenarioError
from .pathkind import path_kind


_ALLOWED = "the path of a regular file to write (a new one, or one to replace)"


def check_output(path: Path, option: str) -> None:
    """Refuse ``path`` unless it is a regular file or does not exist yet.

    Raises:
        ScenarioError: naming ``option`` and what the path is (a directory, a FIFO (named pipe), a device, a
            socket), one line.
    """
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return
    except OSError as e:  # a symlink loop, a path through a file, a name too long...
        raise ScenarioError(option, f"{str(path)[:200]!r} cannot be used ({e.strerror or type(e).__name__})",
                            _ALLOWED) from None
    if not stat.S_ISREG(st.st_mode):
        raise ScenarioError(option, f"{str(path)[:200]!r} is {path_kind(st.st_mode, 'not a regular file')}", _ALLOWED)


def write_output(path: Path, text: str, option: str) -> None:
    """Write ``text`` (UTF-8) to ``path``, a regular file (created or replaced), without ever blocking: the file is
    opened non-blocking (a FIFO made since :func:`check_output` fails at once instead of waiting for a reader) and
    checked to be a regular file before it is truncated and written.

    Raises:
        ScenarioError: naming ``option``, as :func:`check_output`.
        OSError: the write itself failed (full device, no permission): the command line reports it in one line.
    """
    check_output(path, option)
    flags = os.O_WRONLY | os.O_CREAT | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(path, flags, 0o666)
    except OSError as e:
        if e.errno == errno.ENXIO:  # a FIFO with no reader
            raise ScenarioError(option, f"{str(path)[:200]!r} is a FIFO (named pipe)", _ALLOWED) from None
        raise
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise ScenarioError(option, f"{str(path)[:200]!r} is {path_kind(st.st_mode, 'not a regular file')}",
                                _ALLOWED)
        os.set_blocking(fd, True)
        os.ftruncate(fd, 0)
        with os.fdopen(fd, "w", encoding="utf-8", closefd=True) as f:
            fd = -1
            f.write(text)
    finally:
        if fd >= 0:
            os.close(fd)
