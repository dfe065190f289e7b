"""A session's page is sent without the widget messages queued while its widgets were built.

What it patches: the outgoing queue of a served session's Panel kernel (``state._ipykernels[doc].session._queue``,
a ``panel.io.ipywidget.PanelSessionWebsocket``). Building a page's widget tree queues one ipywidgets message per comm
open or update (410 for the Face to Face page). They are redundant: the page's Bokeh document carries every
widget's state (the ``bundle`` of the ``IPyWidget`` model, taken after the build), and the browser builds its widget
models from that. A session built for a ``GET`` never sends them (no browser is connected yet), but a session built
when a browser's websocket connects (every visitor after the first with ``reuse_sessions``) sent them all before the
document itself: 2.3 s of the event loop at load 5 before the page could render (``docs/design.md`` item 24).
:func:`drop_build_messages` empties the queue after the build.

Private APIs (pinned panel==1.9.4, ipywidgets_bokeh==1.8.0): ``panel.io.state.state._ipykernels`` and the kernel
session's ``_queue``.

On a version mismatch: disabled (:data:`explorer.serving.versions.DISABLE`): it only saves time, and another Panel's
queue may hold a message the page needs. Without it the page is right but its document waits behind ~400 messages;
:mod:`explorer.serving.lean_build` is disabled with it (its comm opens must never be sent).
"""

from __future__ import annotations

from .versions import allowed, could_not_apply


def drop_build_messages(doc=None) -> int:
    """Drop the ipywidgets messages queued for the Bokeh document ``doc`` (default: Panel's current document) while
    its widget tree was built (see the module docstring); returns how many (``0``: nothing queued, no document, or
    the patch is disabled by a version mismatch, with a warning)."""
    if not allowed("drop_build_messages"):
        return 0
    import panel as pn

    doc = doc if doc is not None else pn.state.curdoc
    try:
        from panel.io.state import state

        kernel = state._ipykernels.get(doc) if doc is not None else None
        queue = kernel.session._queue if kernel is not None else None
    except Exception as e:   # another Panel: nothing queued that we know of
        could_not_apply("drop_build_messages", e)
        return 0
    if not queue:
        return 0
    n = len(queue)
    queue.clear()
    return n
