"""Warm pages: every route's cached page is built once, before the server takes its first request.

What it patches: Panel's ``reuse_sessions`` cache. This is what ``panel serve --warm --reuse-sessions`` does
(``Serve.warm_applications``: a session generated per route, kept as that route's cached page), written out here
because importing ``panel.command.serve`` registers Panel's Tabulator model, after which every page ships Tabulator's
and Luxon's JavaScript (525 KB) to the browser. The first visitor of each page then no longer waits for the imports
and the first build (its ``GET``: 1.8-4.9 s -> 0.04-0.3 s, ``docs/design.md`` item 24).

Private APIs (pinned panel==1.9.4, bokeh==3.9.2): the server's Bokeh application contexts
(``server._tornado._applications``), ``panel.io.session.generate_session``, ``panel.io.document._cleanup_doc``,
``state._sessions`` and ``state._session_key_funcs``.

On a version mismatch: guarded (:data:`explorer.serving.versions.GUARDED`): it still tries; if those internals are
not there, one line is logged and the server starts unwarmed (each page is then built for its first ``GET``).
"""

from __future__ import annotations

from .versions import allowed, could_not_apply


def warm_pages(server) -> int:
    """Build every route's cached page of ``server`` (a ``bokeh.server.server.Server`` made by ``pn.serve(...,
    start=False)``) once, before it takes its first request; returns the number of routes warmed (``0`` when
    Panel's internals are not there: logged)."""
    allowed("warm_pages")   # guarded: only warns on a mismatch
    try:
        from panel.io.document import _cleanup_doc
        from panel.io.session import generate_session
        from panel.io.state import set_curdoc, state

        applications = server._tornado._applications
    except (ImportError, AttributeError) as e:
        could_not_apply("warm_pages", e)
        return 0
    n = 0
    for path, ctx in applications.items():
        session = generate_session(ctx.application)
        with set_curdoc(session.document):
            state._session_key_funcs[path] = lambda r: r.path
            state._sessions[path] = session
            session.block_expiration()
            state._on_load(None)
        _cleanup_doc(session.document, destroy=False)
        n += 1
    return n
