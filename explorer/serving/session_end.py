"""Session lifecycle: the widgets a browser session built are forgotten when the session ends.

What it patches: ipywidgets' global registry and the comm managers. Every ipywidget lives in ipywidgets' registry
(``ipywidgets.widgets.widget._instances``) and, through its comm, in the ``comm`` package's global manager and the
session's Panel kernel until it is closed, so a closed browser tab kept its whole widget tree (and its explorer)
alive forever (+2-2.5 MB per visit, ``docs/design.md`` item 13). Panel marks each widget built in a session with that
session's document (``widget._document``); :func:`free_widgets_on_session_end` registers
:func:`close_session_widgets` for when Bokeh destroys the session. The session's websocket is gone, so nothing is
sent: each comm is marked closed and dropped from every manager, and the widget from the registry.

Private APIs (pinned ipywidgets==8.1.9, panel==1.9.4): ``_instances``, ``widget._document`` (set by
``panel.io.ipywidget``), ``panel.io.state.state._ipykernels`` and comms' ``_closed``.

On a version mismatch: guarded (:data:`explorer.serving.versions.GUARDED`): without it a long-running server grows
with every visit, so it still tries; the Panel kernel's manager is optional (logged when it cannot be reached).
"""

from __future__ import annotations

from .versions import allowed, could_not_apply


def close_session_widgets(doc) -> int:
    """Forget every ipywidget built for the Bokeh document ``doc`` (one browser session that has ended); returns how
    many. Sends nothing (see the module docstring)."""
    import comm as comm_package
    from ipywidgets.widgets.widget import _instances

    managers = [comm_package.get_comm_manager()]
    try:
        from panel.io.state import state

        kernel = state._ipykernels.get(doc)
        if kernel is not None:
            managers.append(kernel.comm_manager)
    except Exception as e:   # private Panel API; the global manager is the one that matters
        could_not_apply("close_session_widgets", e)
    mine = [w for w in list(_instances.values()) if getattr(w, "_document", None) is doc]
    for w in mine:
        c = getattr(w, "comm", None)
        if c is not None:
            c._closed = True
            for m in managers:
                m.comms.pop(getattr(c, "comm_id", None), None)
        _instances.pop(getattr(w, "model_id", None), None)
    return len(mine)


def free_widgets_on_session_end() -> None:
    """Under ``panel serve``: close this session's widgets when the session is destroyed
    (:func:`close_session_widgets`); no-op outside a session."""
    import panel as pn

    allowed("close_session_widgets")   # guarded: only warns on a mismatch
    if pn.state.curdoc is not None:
        pn.state.on_session_destroyed(lambda ctx: close_session_widgets(ctx._document))
