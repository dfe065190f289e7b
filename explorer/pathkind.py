"""What a path is, in words, for the one-line messages that refuse it (the loading gate's inputs, ``explorer render
-o``, ``explorer serve --static-dir``)."""

from __future__ import annotations

import stat


def path_kind(mode: int, otherwise: str) -> str:
    """``"a directory"``, ``"a file"`` (a regular one), ``"a FIFO (named pipe)"``, ``"a device"`` or ``"a socket"`` for
    an ``os.stat`` ``st_mode``; ``otherwise`` for anything else."""
    for test, words in ((stat.S_ISDIR, "a directory"), (stat.S_ISREG, "a file"),
                        (stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISCHR, "a device"), (stat.S_ISBLK, "a device"),
                        (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return words
    return otherwise
