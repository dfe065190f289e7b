"""``explorer serve --static-dir DIR``: the directory the widget JavaScript is laid out in (issue #25).

Not a patch. The server lays the bundles out in ``DIR/explorer-widget-js`` and, at each start, empties that
sub-directory first. So that ``--static-dir /`` or ``/etc`` can neither receive a new folder nor lose an existing
``explorer-widget-js``, ``DIR`` must be:

- a path that does not exist yet (it is created, with its marker), or
- an existing, empty directory (the marker is written into it), or
- a directory this module made before: it holds the marker file :data:`MARKER` and nothing but the marker and
  ``explorer-widget-js``.

Only then is ``DIR/explorer-widget-js`` deleted and laid out again: the explorer never deletes what it did not make.
Each fault of the path is one line naming it as what it is (not a directory: a file, a FIFO, a device; not empty;
no permission; a read-only file system; a name too long; a missing parent), never "cannot listen on ... port".

Imports only the standard library and :mod:`explorer.errors` (``explorer serve`` checks the path before it imports
Panel).
"""

from __future__ import annotations

import errno
import os
import shutil
import stat
from pathlib import Path

from explorer.errors import ScenarioError
from explorer.pathkind import path_kind

MARKER = ".explorer-static-dir"
"""The file that marks a directory made (or first filled) by ``explorer serve --static-dir``."""

SUBDIR = "explorer-widget-js"
"""The only sub-directory served (and emptied at each start)."""

_ALLOWED = (f"a new or empty directory, or one made by an earlier 'explorer serve --static-dir' (holding only "
            f"{MARKER} and {SUBDIR})")

_MARKER_TEXT = ("This directory was made by 'explorer serve --static-dir'. The server empties and refills its "
                f"{SUBDIR} sub-directory at each start; put nothing else here.\n")


def _fault(path: str, problem: str) -> ScenarioError:
    return ScenarioError("--static-dir", f"{path[:200]!r} {problem}", _ALLOWED)


def _os_fault(path: str, e: OSError) -> ScenarioError:
    if e.errno == errno.ENAMETOOLONG:
        return _fault(path, "is too long a path for this system")
    if e.errno in (errno.EACCES, errno.EPERM):
        return _fault(path, "cannot be written (no permission)")
    if e.errno == errno.EROFS:
        return _fault(path, "is on a read-only file system")
    if e.errno == errno.ENOENT:
        return _fault(path, "has a parent directory that does not exist")
    if e.errno == errno.ENOTDIR:
        return _fault(path, "has a part that is not a directory")
    if e.errno == errno.ELOOP:
        return _fault(path, "is a loop of symbolic links")
    return _fault(path, f"cannot be used ({e.strerror or type(e).__name__})")


def check_static_dir(static_dir: str | os.PathLike[str]) -> Path:
    """``static_dir`` as a ``Path`` if ``explorer serve`` may use it (see the module docstring); creates nothing.

    Raises:
        ScenarioError: naming ``--static-dir`` and the fault (one line).
    """
    text = os.fspath(static_dir)
    if not text or "\x00" in text:
        raise _fault(text, "is not a usable path")
    path = Path(text)
    try:
        st = os.stat(path)
    except FileNotFoundError:
        parent = path.parent
        try:
            pst = os.stat(parent)
        except OSError as e:
            raise _os_fault(text, e) from None
        if not stat.S_ISDIR(pst.st_mode):
            raise _fault(text, "has a part that is not a directory")
        if not os.access(parent, os.W_OK | os.X_OK):
            raise _fault(text, "cannot be created (no permission to write in its parent directory)")
        return path
    except OSError as e:
        raise _os_fault(text, e) from None
    if not stat.S_ISDIR(st.st_mode):
        raise _fault(text, f"is {path_kind(st.st_mode, 'not a directory')}, not a directory")
    try:
        entries = set(os.listdir(path))
    except OSError as e:
        raise _os_fault(text, e) from None
    if entries and MARKER not in entries:
        raise _fault(text, "is not empty and was not made by explorer serve")
    others = sorted(entries - {MARKER, SUBDIR})
    if others:
        raise _fault(text, f"holds {others[0][:60]!r}, which explorer serve did not make")
    if not os.access(path, os.W_OK | os.X_OK):
        raise _fault(text, "cannot be written (no permission)")
    return path


def prepare_static_dir(static_dir: str | os.PathLike[str]) -> Path:
    """Check ``static_dir`` (:func:`check_static_dir`), create it or mark it, empty its :data:`SUBDIR` (made by an
    earlier start) and return that sub-directory's path, to lay the widget JavaScript out in.

    Raises:
        ScenarioError: as :func:`check_static_dir`, or the directory cannot be created or written.
    """
    path = check_static_dir(static_dir)
    text = os.fspath(static_dir)
    try:
        path.mkdir(exist_ok=True)
        marker = path / MARKER
        if not marker.exists():
            marker.write_text(_MARKER_TEXT, encoding="utf-8")
        only = path / SUBDIR
        if only.is_symlink() or (only.exists() and not only.is_dir()):
            raise _fault(text, f"holds an {SUBDIR} that is not a directory explorer serve made")
        shutil.rmtree(only, ignore_errors=True)
    except OSError as e:
        raise _os_fault(text, e) from None
    return only
