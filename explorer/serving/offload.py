"""Heavy page work off the event loop: a served session's widget computes on a worker thread and draws the answer
back under its document lock (issue "Hardening, round two", item 7: a slow interaction never blocks other sessions'
clicks in the same process for more than its own duration).

Not a patch of Panel: public Bokeh API only (``Document.add_next_tick_callback``). Every session of a process runs
its callbacks on one Tornado event loop; a widget callback that computes for 300 ms on a crowded Line of Fire table
holds that loop, so every other session's click waits behind it. A widget that offers ``set_offloader(offload)``
(the Line of Fire page, :meth:`explorer.games.tagraid.lof_views.LofExplorer.set_offloader`) splits its work into a
``compute()`` that reads only immutable values and touches no widget, and an ``apply(result)`` that draws. Here:

* ``compute`` runs on :data:`EXECUTOR` (one worker thread per process: the computations share caches that are
  guarded by their own locks, and one worker keeps a burst of sessions from taking both cores from the loop); while
  it runs, the loop answers other sessions (the worker releases the GIL in shapely/numpy calls and every switch
  interval in Python code);
* ``apply`` runs on the loop through ``doc.add_next_tick_callback``, i.e. under the session's document lock, like
  any widget callback, so the widgets' messages go out as usual;
* per widget only the LATEST request is applied: a request made while one is computing waits, and a newer one
  replaces it (a drag's intermediate positions are skipped, never drawn late over the final one);
* a ``compute`` that raises is logged and its ``apply`` is skipped (a widget returns its refusals as values); a
  session that ended meanwhile gets nothing;
* the first offloader of a process shortens the interpreter's switch interval (:func:`short_switch_interval`, 0.5 ms
  instead of Python's 5 ms): while the worker computes, the loop still sends the answer's first messages (the
  pieces, the readout), and each websocket frame it writes waits for the interpreter lock once; at 5 ms a wait, the
  ~20 frames of a click came in bursts ~35 ms apart (``BENCH_TRACE=1`` of ``benchmarks/bench_lof_interactions.py``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from itertools import islice
from typing import Any

from .widget_tree import walk_widgets

OFFLOAD_ENV = "EXPLORER_OFFLOAD"
"""The environment variable that turns offloading off for a served process: ``EXPLORER_OFFLOAD=0`` (exactly ``0``;
unset or any other value: on). For measuring the gain only (``benchmarks/slow_neighbour.py`` starts one process
each way in the same run); a served page then computes on the loop as in a notebook."""


def offload_enabled() -> bool:
    """Whether served sessions get an offloader (:data:`OFFLOAD_ENV` is not ``"0"``)."""
    import os

    return os.environ.get(OFFLOAD_ENV, "1").strip() != "0"


SWITCH_INTERVAL_ENV = "EXPLORER_SWITCH_INTERVAL_MS"
"""The environment variable that sets the switch interval a served process uses once it offloads
(:func:`short_switch_interval`), in milliseconds: a number from :data:`SWITCH_INTERVAL_BOUNDS_MS`; ``0`` leaves
Python's own (5 ms). Unset: :data:`DEFAULT_SWITCH_INTERVAL_MS`."""
DEFAULT_SWITCH_INTERVAL_MS = 0.5
"""The served process's switch interval (ms). Measured in session 19 (``bench_lof_interactions.py``, this tree
served with 0.5 ms against 5 ms in the same run, two rounds at 1280, load 0.6-0.9): the interactions that compute a
row (select, rotate, nudge, drag, a ruling, the shooter dropdown, the declared Move) took 0.71-0.87 of the time,
the others (hover, zoom, the Range Ruler) 0.90-1.09."""
SWITCH_INTERVAL_BOUNDS_MS = (0.05, 100.0)
"""The switch intervals :data:`SWITCH_INTERVAL_ENV` accepts (ms), besides ``0``."""


def switch_interval_ms(environ=None) -> float:
    """The switch interval (ms) :func:`short_switch_interval` sets: :data:`SWITCH_INTERVAL_ENV` if it is ``0`` or a
    number within :data:`SWITCH_INTERVAL_BOUNDS_MS`, else :data:`DEFAULT_SWITCH_INTERVAL_MS` (a value that is not
    is logged on one line, naming the variable and the allowed values).

    Args:
        environ: the environment to read (default ``os.environ``).
    """
    import math
    import os

    raw = (os.environ if environ is None else environ).get(SWITCH_INTERVAL_ENV)
    if raw is None or not raw.strip():
        return DEFAULT_SWITCH_INTERVAL_MS
    lo, hi = SWITCH_INTERVAL_BOUNDS_MS
    try:
        value = float(raw)
    except ValueError:
        value = math.nan
    if value == 0 or lo <= value <= hi:
        return value
    _log.warning("%s=%r: expected 0 (Python's own interval) or a number of milliseconds from %g to %g; using %g",
                 SWITCH_INTERVAL_ENV, raw[:40], lo, hi, DEFAULT_SWITCH_INTERVAL_MS)
    return DEFAULT_SWITCH_INTERVAL_MS


_switch_set = False


def short_switch_interval(environ=None) -> float | None:
    """Process-wide, once: set the interpreter's switch interval (``sys.setswitchinterval``) to
    :func:`switch_interval_ms`; returns the interval set in seconds, or ``None`` when it was set before or is left
    as Python's (``0``). Only a served process calls it (:func:`session_offloader`): a notebook's kernel is left as
    it is."""
    global _switch_set
    if _switch_set:
        return None
    _switch_set = True
    ms = switch_interval_ms(environ)
    if ms == 0:
        return None
    import sys

    sys.setswitchinterval(ms / 1000.0)
    return ms / 1000.0


EXECUTOR = ThreadPoolExecutor(max_workers=1, thread_name_prefix="explorer-compute")
"""The worker that runs every offloaded computation of this process."""

_log = logging.getLogger(__name__)


class SessionOffloader:
    """``offload(compute, apply)`` for one widget of one served session (see the module docstring).

    Args:
        doc: the session's Bokeh ``Document`` (its ``add_next_tick_callback`` brings results back to the loop).
        executor: where ``compute`` runs (default :data:`EXECUTOR`).

    Attributes:
        applied, superseded: how many answers were drawn and how many were skipped because a newer request came
            (for tests and the load benchmark).
    """

    def __init__(self, doc, executor: ThreadPoolExecutor | None = None):
        self.doc = doc
        self.executor = executor or EXECUTOR
        self._waiting: tuple[Callable[[], Any], Callable[[Any], None]] | None = None
        self._running = False
        self.applied = 0
        self.superseded = 0

    def __call__(self, compute: Callable[[], Any], apply: Callable[[Any], None]) -> None:
        """Compute off the loop, then apply on it (called on the loop, from a widget callback)."""
        if self._waiting is not None:
            self.superseded += 1
        self._waiting = (compute, apply)
        if not self._running:
            self._start()

    def _start(self) -> None:
        compute, apply = self._waiting
        self._waiting = None
        self._running = True
        try:
            fut = self.executor.submit(compute)
        except RuntimeError:   # the executor is shut down (the process is ending): compute here
            fut = Future()
            try:
                fut.set_result(compute())
            except Exception as e:   # noqa: BLE001 - logged in _done like a worker's failure
                fut.set_exception(e)
        fut.add_done_callback(lambda f: self._back(f, apply))

    def _back(self, fut: Future, apply: Callable[[Any], None]) -> None:
        """On the worker thread: hand the answer to the session's loop."""
        try:
            self.doc.add_next_tick_callback(lambda: self._done(fut, apply))
        except Exception:   # the session ended meanwhile: nothing to draw on
            self._running = False

    def _done(self, fut: Future, apply: Callable[[Any], None]) -> None:
        """On the loop, under the document lock: apply the answer unless a newer request is waiting."""
        self._running = False
        if self._waiting is not None:   # a newer request came while this one computed: it decides what is drawn
            self.superseded += 1
            self._start()
            return
        exc = fut.exception()
        if exc is not None:
            _log.error("offloaded widget computation failed", exc_info=exc)
            return
        try:
            apply(fut.result())
            self.applied += 1
        except Exception:   # logged, never raised into Bokeh's loop
            _log.exception("drawing an offloaded widget computation failed")


def session_offloader(doc) -> SessionOffloader:
    """A :class:`SessionOffloader` for a widget of the served session whose document is ``doc`` (the first one of
    the process also shortens the switch interval: :func:`short_switch_interval`)."""
    short_switch_interval()
    return SessionOffloader(doc)


def find_offloadable(widget) -> list:
    """The widgets of ``widget``'s tree (itself, then its ``children``, depth first; at most 50) that offer
    ``set_offloader``."""
    return list(islice((w for w in walk_widgets(widget) if callable(getattr(w, "set_offloader", None))), 50))
