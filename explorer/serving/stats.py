"""What a long-running server holds (the JSON of ``/explorer-stats``, read by the session-lifecycle browser test and
``benchmarks/session_waves.py``, ``benchmarks/load_test.py``).

Private APIs (pinned ipywidgets==8.1.9, panel==1.9.4): ``ipywidgets.widgets.widget._instances``, ``widget._document``
and Panel's ``reuse_sessions`` cache ``panel.io.state.state._sessions``.

On a version mismatch: guarded (:data:`explorer.serving.versions.GUARDED`): a counter it cannot read is left out of
``cached_pages`` (logged once); without it the server's counters are wrong, nothing else.
"""

from __future__ import annotations

from .versions import allowed, could_not_apply


def server_stats(deep: bool = False) -> dict[str, float | int]:
    """What this server process holds: its process id, live ipywidgets, distinct session documents they belong to,
    cached pages (Panel's ``reuse_sessions`` cache: one session per route, kept for the server's life), the session
    documents owning widgets that are not cached pages (browser sessions still open or not yet freed) and the
    process's resident memory in MB (Linux ``/proc``; ``-1`` elsewhere). Cheap: a pass over the live widgets, no
    garbage collection (about a millisecond with a few thousand widgets).

    With ``deep`` it also runs a full garbage collection and walks every live object to count this project's objects
    and Bokeh documents (about 0.5 s on a loaded server; the ``/explorer-stats?deep=1`` handler runs it in a worker
    thread, never on the event loop).

    Returns:
        ``{"pid", "widgets", "session_documents", "cached_pages", "other_session_documents": int, "rss_mb": float}``
        and, with ``deep``, ``"explorer_objects", "bokeh_documents": int``.
    """
    import os

    from ipywidgets.widgets.widget import _instances

    allowed("server_stats")   # guarded: only warns on a mismatch
    extra: dict[str, int] = {}
    if deep:
        extra = _object_counts()
    docs = {id(d) for w in list(_instances.values()) if (d := getattr(w, "_document", None)) is not None}
    rss = -1.0
    try:
        with open("/proc/self/statm") as f:
            rss = int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
    except (OSError, ValueError, IndexError):
        pass
    try:
        from panel.io.state import state

        cached = {id(s.document) for s in state._sessions.values()}   # reuse_sessions cache
    except Exception as e:
        could_not_apply("server_stats", e)
        cached = set()
    return {"pid": os.getpid(), "widgets": len(_instances), "session_documents": len(docs),
            "cached_pages": len(cached), "other_session_documents": len(docs - cached), **extra,
            "rss_mb": round(rss, 1)}


def _object_counts() -> dict[str, int]:
    """A full garbage collection, then the live objects of this project's classes and the live Bokeh documents."""
    import gc

    gc.collect()
    ours = bokeh_docs = 0
    for o in gc.get_objects():
        mod = getattr(type(o), "__module__", "")
        if not isinstance(mod, str):
            continue
        if mod.startswith("explorer."):
            ours += 1
        elif type(o).__name__ == "Document" and mod.startswith("bokeh."):
            bokeh_docs += 1
    return {"explorer_objects": ours, "bokeh_documents": bokeh_docs}
