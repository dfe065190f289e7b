"""Lean page builds: while a served page is built, the comm Panel opens for each new widget carries no state.

What it patches: ipywidgets' widget construction callback (``Widget._widget_construction_callback``), which Panel
sets to its ``panel.io.ipywidget._on_widget_constructed``. That callback serialises every new widget's whole state
(``widget.get_state()``) into the ``comm_open`` message of the comm it opens: about 40 % of a page build's CPU time
(cProfile, the Face to Face page). Those messages are queued and then dropped unsent
(:func:`explorer.serving.build_messages.drop_build_messages`): the page's Bokeh document carries the state. So inside
:func:`building_page` the wrapper installed by :func:`lean_build_comms` hands Panel's callback a widget whose
``get_state`` returns ``{}`` for that one call. Widgets built at any other time (in a callback, by another app) get
Panel's ordinary comm (``docs/design.md`` item 24: server CPU of a Face to Face build 234 -> 210 ms).

Private APIs (pinned panel==1.9.4, ipywidgets==8.1.9, ipywidgets_bokeh==1.8.0): ``Widget._widget_construction_callback``
and what Panel's callback does with the state (only the queued ``comm_open``).

On a version mismatch: disabled (:data:`explorer.serving.versions.DISABLE`). It only saves time, and a stateless
``comm_open`` that another version did send would build empty models in the browser. It needs
:func:`~explorer.serving.build_messages.drop_build_messages`, whose packages are a subset of its own, so it is never on
while that is off. Without it a page build serialises each widget's state once more.
"""

from __future__ import annotations

import threading
from contextlib import contextmanager

from .versions import allowed


class _Building(threading.local):
    depth = 0


_BUILDING = _Building()


def _no_state(*args, **kwargs) -> dict:
    return {}


@contextmanager
def building_page():
    """The extent of a served page's build whose widget messages
    :func:`~explorer.serving.build_messages.drop_build_messages` drops afterwards (see :func:`lean_build_comms`).
    Nests; per thread."""
    _BUILDING.depth += 1
    try:
        yield
    finally:
        _BUILDING.depth -= 1


def lean_build_comms() -> bool:
    """Process-wide, under ``panel serve``: inside :func:`building_page` the comms Panel opens for new widgets carry no
    state (see the module docstring). Idempotent. Returns whether the wrapper is in place (``False``: no construction
    callback is set, i.e. Panel's ipywidgets support is not loaded, or a pinned package is another version, with a
    warning)."""
    if not allowed("lean_build_comms"):
        return False
    from ipywidgets import Widget

    callback = Widget._widget_construction_callback
    if callback is None:
        return False
    if getattr(callback, "_lean_build", False):
        return True

    def lean(widget) -> None:
        if not _BUILDING.depth or "get_state" in widget.__dict__:
            return callback(widget)
        widget.get_state = _no_state   # shadows the method for this one call only
        try:
            return callback(widget)
        finally:
            widget.__dict__.pop("get_state", None)

    lean._lean_build = True
    Widget.on_widget_constructed(lean)
    return True
