"""What a long-running server holds (the JSON of ``/explorer-stats``, read by the session-lifecycle browser test and
``benchmarks/load_test.py``).

Private APIs (pinned ipywidgets==8.1.9, panel==1.9.4): ``ipywidgets.widgets.widget._instances``, ``widget._document``
and Panel's ``reuse_sessions`` cache ``panel.io.state.state._sessions``.

On a version mismatch: guarded (:data:`explorer.serving.versions.GUARDED`): a counter it cannot read is left out of
``cached_pages`` (logged once); without it the server's counters are wrong, nothing else.
"""

from __future__ import annotations

from .versions import allowed, could_not_apply


def server_stats() -> dict[str, float | int]:
    """What a long-running server holds: live ipywidgets, distinct session documents they belong to, cached pages
    (Panel's ``reuse_sessions`` cache: one session per route, kept for the server's life), the session documents
    owning widgets that are not cached pages (browser sessions still open or not yet freed), live objects of this
    project's classes, live Bokeh documents, and the process's resident memory in MB (Linux ``/proc``; ``-1``
    elsewhere). Runs a full garbage collection first.

    Returns:
        ``{"widgets", "session_documents", "cached_pages", "other_session_documents", "explorer_objects",
        "bokeh_documents": int, "rss_mb": float}``.
    """
    import gc

    from ipywidgets.widgets.widget import _instances

    allowed("server_stats")   # guarded: only warns on a mismatch
    gc.collect()
    docs = {id(d) for w in list(_instances.values()) if (d := getattr(w, "_document", None)) is not None}
    ours = bokeh_docs = 0
    for o in gc.get_objects():
        mod = getattr(type(o), "__module__", "")
        if not isinstance(mod, str):
            continue
        if mod.startswith("explorer."):
            ours += 1
        elif type(o).__name__ == "Document" and mod.startswith("bokeh."):
            bokeh_docs += 1
    rss = -1.0
    try:
        with open("/proc/self/statm") as f:
            import os

            rss = int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
    except (OSError, ValueError, IndexError):
        pass
    try:
        from panel.io.state import state

        cached = {id(s.document) for s in state._sessions.values()}   # reuse_sessions cache
    except Exception as e:
        could_not_apply("server_stats", e)
        cached = set()
    return {"widgets": len(_instances), "session_documents": len(docs), "cached_pages": len(cached),
            "other_session_documents": len(docs - cached),
            "explorer_objects": ours, "bokeh_documents": bokeh_docs, "rss_mb": round(rss, 1)}
