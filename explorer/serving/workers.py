"""``explorer serve --num-procs N``: the worker processes end with the process that forked them (issue #25).

Not a patch. Tornado's ``fork_processes`` (through Bokeh's ``Server``) forks N workers that share the listening
socket; the parent only waits for them. Stopped the way a service manager or a person stops a program (``kill PID``,
SIGTERM to the process ``explorer serve`` started as), the parent ended and its workers kept serving the port with no
parent, so a restart could not bind it. :func:`end_workers_with_parent` makes each worker ask the kernel for SIGTERM
when its parent ends (Linux ``prctl(PR_SET_PDEATHSIG)``); Ctrl-C (SIGINT to the whole process group) stopped them all
already.

Imports only the standard library.
"""

from __future__ import annotations

import os
import signal
import sys

PR_SET_PDEATHSIG = 1
"""``prctl`` option (``<linux/prctl.h>``): the signal a process receives when its parent thread ends."""

_registered = False
_master = 0
"""The process ``explorer serve`` runs as (the one that forks the workers)."""


def _ask_for_sigterm_on_parent_death() -> None:
    """In a newly forked process: a worker (forked by :data:`_master`) asks for SIGTERM when the master ends; a
    process a worker forks later is left alone."""
    if _forked_by != _master:
        return
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, int(signal.SIGTERM), 0, 0, 0)
    except (OSError, AttributeError):   # no prctl: the workers outlive a SIGTERM to the master, as before
        return
    if os.getppid() != _master:   # the master ended between the fork and the prctl: no signal will come
        os.kill(os.getpid(), signal.SIGTERM)


_forked_by = 0


def _before_fork() -> None:
    global _forked_by
    _forked_by = os.getpid()


def end_workers_with_parent() -> bool:
    """Process-wide, before the server forks its workers: every process this process forks from here on receives
    SIGTERM when this process ends (processes those workers fork later are left alone). Idempotent; returns whether
    it is in place (Linux only; elsewhere ``False`` and nothing changes)."""
    global _registered, _master
    if _registered:
        return True
    if not sys.platform.startswith("linux"):
        return False
    _master = os.getpid()
    os.register_at_fork(before=_before_fork, after_in_child=_ask_for_sigterm_on_parent_death)
    _registered = True
    return True


__all__ = ["end_workers_with_parent"]
