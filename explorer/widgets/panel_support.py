"""Serving ipywidgets/ipycanvas widgets with Panel (``panel serve`` / ``pn.serve``) without the known traps.

See ``notes/stack.md``:

- trap 2: ipywidgets_bokeh fetches third-party widget JavaScript from a public CDN, where the ipycanvas 0.14 bundle is
  not published. :func:`layout_widget_js` lays out the bundle that the ipycanvas wheel installs as
  ``<dir>/ipycanvas@<version spec>/dist/index``; serve ``<dir>`` as the static route :data:`WIDGET_JS_ROUTE`
  (``--static-dirs widget-js=<dir>``) and wrap widgets with :func:`served_pane`, which sets the relative prefix on
  every model instance (a changed class default is not serialised).
- trap 3: each canvas must have its own canvas manager (done by :func:`explorer.widgets.canvas.own_canvas`).
- trap 4: drawing before the browser connects is lost: :func:`served_pane` redraws in ``pn.state.onload``.
- session lifecycle: every ipywidget lives in ipywidgets' global registry until it is closed, so a closed browser tab
  would keep its whole widget tree (and its explorer) alive forever. Panel marks each widget built in a session with
  that session's document; :func:`free_widgets_on_session_end` closes them when the session is destroyed
  (:func:`close_session_widgets`), and :func:`server_stats` counts what is alive.
"""

from __future__ import annotations

import shutil
import sys
import sysconfig
from collections.abc import Callable
from pathlib import Path

WIDGET_JS_ROUTE = "widget-js"
"""Static route (and relative CDN prefix) under which the local widget bundles are served."""


def ipycanvas_bundle() -> Path:
    """The AMD bundle installed by the ipycanvas wheel (``share/jupyter/nbextensions/ipycanvas/index.js``).

    Raises:
        FileNotFoundError: ipycanvas is installed without its front-end files.
    """
    import ipycanvas

    candidates = [Path(sys.prefix) / "share/jupyter/nbextensions/ipycanvas/index.js",
                  Path(sysconfig.get_paths()["data"]) / "share/jupyter/nbextensions/ipycanvas/index.js",
                  Path(ipycanvas.__file__).parent / "nbextension/static/index.js",
                  Path(ipycanvas.__file__).parent / "nbextension/index.js"]
    for c in candidates:
        if c.is_file():
            return c
    raise FileNotFoundError("ipycanvas front-end bundle not found; looked in: " + ", ".join(map(str, candidates)))


def widget_js_files() -> dict[str, Path]:
    """``{relative path under the static dir: source file}`` for every third-party widget bundle we serve."""
    from ipycanvas._frontend import module_name, module_version

    return {f"{module_name}@{module_version}/dist/index": ipycanvas_bundle()}


def layout_widget_js(dest: str | Path) -> Path:
    """Copy the widget bundles into ``dest`` laid out as ipywidgets_bokeh requests them; returns ``dest``."""
    dest = Path(dest)
    for rel, src in widget_js_files().items():
        target = dest / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(src, target)
    return dest


def close_session_widgets(doc) -> int:
    """Forget every ipywidget built for the Bokeh document ``doc`` (one browser session that has ended); returns how
    many.

    A widget is referenced from ipywidgets' registry and, through its comm, from the comm managers (the global one of
    the ``comm`` package and the session's Panel kernel). The session's websocket is gone, so nothing is sent to the
    browser: each comm is marked closed and dropped from every manager, and the widget from the registry.
    """
    import comm as comm_package
    from ipywidgets.widgets.widget import _instances

    managers = [comm_package.get_comm_manager()]
    try:
        from panel.io.state import state

        kernel = state._ipykernels.get(doc)
        if kernel is not None:
            managers.append(kernel.comm_manager)
    except Exception:   # private Panel API (pinned panel==1.9.4); the global manager is the one that matters
        pass
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
    """Under ``panel serve``: close this session's widgets when the session is destroyed (no-op elsewhere)."""
    import panel as pn

    if pn.state.curdoc is not None:
        pn.state.on_session_destroyed(lambda ctx: close_session_widgets(ctx._document))


def server_stats() -> dict[str, float | int]:
    """What a long-running server holds: live ipywidgets, distinct session documents they belong to, live objects of
    this project's classes, live Bokeh documents, and the process's resident memory in MB (Linux ``/proc``; ``-1``
    elsewhere). Runs a full garbage collection first."""
    import gc

    from ipywidgets.widgets.widget import _instances

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
    return {"widgets": len(_instances), "session_documents": len(docs), "explorer_objects": ours,
            "bokeh_documents": bokeh_docs, "rss_mb": round(rss, 1)}


def served_pane(widget, redraw: Callable[[], None] | None = None, **kwargs):
    """Wrap an ipywidget in a Panel pane that loads widget JavaScript from :data:`WIDGET_JS_ROUTE`.

    Args:
        widget: any ipywidget (e.g. a composite ``VBox``).
        redraw: called once the browser page has loaded (``pn.state.onload``) to repaint canvases.
        kwargs: passed to the pane (``sizing_mode``, ``margin``...).
    """
    import panel as pn

    pane = _LocalJSPane(widget, **kwargs)
    if redraw is not None and pn.state.curdoc is not None:
        pn.state.onload(redraw)
    return pane


def _pane_class():
    import panel as pn

    class LocalJSIPyWidget(pn.pane.IPyWidget):
        """An IPyWidget pane whose Bokeh model loads third-party widget JS from the local static route."""

        def _get_ipywidget(self, obj, doc, root, comm, **kwargs):
            model = super()._get_ipywidget(obj, doc, root, comm, **kwargs)
            if "cdn" in model.properties():
                model.cdn = WIDGET_JS_ROUTE
            return model

    return LocalJSIPyWidget


class _Lazy:
    cls = None


def _LocalJSPane(widget, **kwargs):
    if _Lazy.cls is None:
        _Lazy.cls = _pane_class()
    return _Lazy.cls(widget, **kwargs)
