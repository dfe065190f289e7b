"""Serving ipywidgets/ipycanvas widgets with Panel (``panel serve`` / ``pn.serve``) without the known traps.

See ``notes/stack.md``:

- trap 2: ipywidgets_bokeh fetches third-party widget JavaScript from a public CDN, where the ipycanvas 0.14 bundle is
  not published. :func:`layout_widget_js` lays out the bundle that the ipycanvas wheel installs as
  ``<dir>/ipycanvas@<version spec>/dist/index``; serve ``<dir>`` as the static route :data:`WIDGET_JS_ROUTE`
  (``--static-dirs widget-js=<dir>``) and wrap widgets with :func:`served_pane`, which sets the relative prefix on
  every model instance (a changed class default is not serialised).
- trap 3: each canvas must have its own canvas manager (done by :func:`explorer.widgets.canvas.own_canvas`).
- trap 4: drawing before the browser connects is lost: :func:`served_pane` redraws in ``pn.state.onload``.
- state in the URL: :func:`url_state_sync` writes a page widget's state (``url_state()``) to the page URL's
  ``?s=`` query on every change (``history.replaceState``: no history entry per click) and restores it from the URL
  when the page opens (``load_url_state``), through :mod:`explorer.urlstate`.
- browser fixes (:func:`browser_fixes`, on every page of the app): ipycanvas focuses a canvas on every mouse press
  with ``el.focus()``, which scrolls a partly hidden canvas into view *before* it reads the pointer position, so the
  first click on a board or dice tray that is partly off screen landed on the wrong hexagon or missed the die; and it
  takes every wheel event over a canvas (``preventDefault``), so the page could not be scrolled over a board. The
  fix makes canvas focus never scroll (``preventScroll``) and keeps plain wheel events away from canvases (the page
  scrolls); with Ctrl, Shift or Alt held the wheel still reaches the canvas (e.g. to rotate a piece).
- session lifecycle: every ipywidget lives in ipywidgets' global registry until it is closed, so a closed browser tab
  would keep its whole widget tree (and its explorer) alive forever. Panel marks each widget built in a session with
  that session's document; :func:`free_widgets_on_session_end` closes them when the session is destroyed
  (:func:`close_session_widgets`), and :func:`server_stats` counts what is alive.
- local resources (:func:`local_resources`): every session is served with the server's own copies of Panel's
  stylesheets and fonts, never a CDN (the app works offline). Panel points a model's stylesheets at its document's
  ``dist_url`` template variable, which it sets only while rendering the HTML of a ``GET``; a session built later
  for a websocket (every visitor after the first with ``reuse_sessions``) had none, so its theme CSS, list-panel
  CSS and Font Awesome came from ``cdn.holoviz.org``. Panel also adds Font Awesome from ``cdn.holoviz.org`` (its
  ``ipywidgets`` extension) and from ``cdnjs.cloudflare.com`` (its ``IPyWidget`` patch) to every page.
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


def drop_build_messages(doc=None) -> int:
    """Drop the ipywidgets messages queued while a session's widget tree was built (comm opens and updates, one
    websocket message each: 410 for the Face to Face page); returns how many.

    They are redundant: the page's Bokeh document carries every widget's state (the ``bundle`` of the
    ``IPyWidget`` model, taken after the build), and the browser builds its widget models from that. A session built
    for a ``GET`` never sends them (no browser is connected yet), but a session built when a browser's websocket
    connects (every visitor after the first with ``reuse_sessions``) sent them all before the document itself:
    2.3 s of the event loop at load 5 before the page could render. Private Panel API (pinned panel==1.9.4): the
    queue of ``state._ipykernels[doc].session``.
    """
    import panel as pn

    doc = doc if doc is not None else pn.state.curdoc
    try:
        from panel.io.state import state

        kernel = state._ipykernels.get(doc) if doc is not None else None
        queue = kernel.session._queue if kernel is not None else None
    except Exception:   # another Panel: nothing queued that we know of
        return 0
    if not queue:
        return 0
    n = len(queue)
    queue.clear()
    return n


def skip_browser_comm_opens() -> bool:
    """Process-wide, under ``panel serve``: do not dispatch the ``comm_open`` messages a browser sends for the widget
    models it built from the page's document (one per model: ~340 for the Face to Face page). Panel's kernel ignores
    them (``PanelKernel._wrap_handler`` returns at once for ``comm_open``), but dispatching each still cost a
    deserialisation and a "busy" and an "idle" status message back to the browser: ~700 websocket messages and
    seconds of the event loop per new session, competing with the next visitor's page. Returns whether the patch is
    in place. Private Panel API (pinned panel==1.9.4): ``panel.io.ipywidget.PanelSessionWebsocket.receive``.
    """
    import json

    try:
        from panel.io.ipywidget import PanelSessionWebsocket
    except Exception:   # another Panel or no ipywidgets_bokeh: leave it alone
        return False
    if getattr(PanelSessionWebsocket.receive, "_skips_comm_open", False):
        return True
    receive = PanelSessionWebsocket.receive

    def receive_skipping_comm_open(self, data):
        if isinstance(data, str) and '"comm_open"' in data:
            try:
                msg = json.loads(data)
                if msg.get("channel") == "shell" and msg.get("header", {}).get("msg_type") == "comm_open":
                    return None
            except (ValueError, AttributeError):
                pass
        return receive(self, data)

    receive_skipping_comm_open._skips_comm_open = True
    PanelSessionWebsocket.receive = receive_skipping_comm_open
    return True


def free_widgets_on_session_end() -> None:
    """Under ``panel serve``: close this session's widgets when the session is destroyed (no-op elsewhere)."""
    import panel as pn

    if pn.state.curdoc is not None:
        pn.state.on_session_destroyed(lambda ctx: close_session_widgets(ctx._document))


def server_stats() -> dict[str, float | int]:
    """What a long-running server holds: live ipywidgets, distinct session documents they belong to, cached pages
    (Panel's ``reuse_sessions`` cache: one session per route, kept for the server's life), the session documents
    owning widgets that are not cached pages (browser sessions still open or not yet freed), live objects of this
    project's classes, live Bokeh documents, and the process's resident memory in MB (Linux ``/proc``; ``-1``
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
    try:
        from panel.io.state import state

        cached = {id(s.document) for s in state._sessions.values()}   # reuse_sessions cache (private, panel==1.9.4)
    except Exception:
        cached = set()
    return {"widgets": len(_instances), "session_documents": len(docs), "cached_pages": len(cached),
            "other_session_documents": len(docs - cached),
            "explorer_objects": ours, "bokeh_documents": bokeh_docs, "rss_mb": round(rss, 1)}


def local_resources() -> None:
    """Serve Panel's own stylesheets and fonts from this server, never from a CDN (see the module docstring).

    Call it while a session's page is being built (it sets that Bokeh document's ``dist_url`` to Panel's local path,
    :func:`panel.io.resources.get_dist_path`, as Panel does for the document of a ``GET``) and once after
    ``pn.extension("ipywidgets")`` (process-wide: Panel's Font Awesome stylesheet is taken from the server's copy, and
    the cdnjs Font Awesome 4.5 that Panel adds to ipywidgets is dropped: ipywidgets_bokeh bundles its own icon
    CSS). Idempotent; honours ``BOKEH_RESOURCES=cdn`` (then the CDN is what was asked for). Private Panel API
    (pinned panel==1.9.4): the document's ``_template_variables``.
    """
    import panel as pn
    from panel.io.resources import CDN_DIST, get_dist_path, use_cdn

    if use_cdn():
        return
    local = get_dist_path(cdn=False)
    files = list(pn.config.css_files)
    if any(f.startswith(CDN_DIST) for f in files):
        pn.config.css_files = [local + f[len(CDN_DIST):] if f.startswith(CDN_DIST) else f for f in files]
    try:
        from ipywidgets_bokeh.widget import IPyWidget

        if any(str(c).startswith(("http:", "https:")) for c in getattr(IPyWidget, "__css__", [])):
            IPyWidget.__css__ = []
    except ImportError:   # no ipywidgets_bokeh: nothing of it is served
        pass
    doc = pn.state.curdoc
    if doc is not None:
        doc._template_variables["dist_url"] = local


EARLY_REDRAW_MS = 1000
"""Period (ms) of the repaints :func:`served_pane` sends before the page reports it has loaded (0: none)."""
EARLY_REDRAWS = 12
"""How many such repaints at most (they stop as soon as the page has loaded)."""


def served_pane(widget, redraw: Callable[[], None] | None = None, **kwargs):
    """Wrap an ipywidget in a Panel pane that loads widget JavaScript from :data:`WIDGET_JS_ROUTE`.

    Args:
        widget: any ipywidget (e.g. a composite ``VBox``).
        redraw: called once the browser page has loaded (``pn.state.onload``) to repaint canvases.
        kwargs: passed to the pane (``sizing_mode``, ``margin``...).
    """
    import panel as pn

    pane = _LocalJSPane(widget, **kwargs)
    doc = pn.state.curdoc
    if doc is not None and callable(getattr(widget, "set_scheduler", None)):
        # work the widget can do after its answer is on screen runs in this session's timeout callbacks (under
        # the document lock, after the changes of the current callback have been sent)
        def schedule(callback: Callable[[], None], delay_ms: int) -> None:
            def run() -> None:
                try:
                    callback()
                except Exception:  # e.g. the session ended meanwhile: logged, never raised into Bokeh's loop
                    import logging

                    logging.getLogger(__name__).exception("deferred widget work failed")
            try:
                doc.add_timeout_callback(run, int(delay_ms))
            except Exception:  # a closed document: run nothing
                pass

        widget.set_scheduler(schedule)
    if doc is not None and redraw is not None:
        early = None
        if EARLY_REDRAW_MS:
            # Panel's onload waits for the browser's DocumentReady, which comes only after every widget model and
            # view exists (seconds on a loaded machine); a canvas model draws as soon as it exists, so repaint a
            # few times before that: commands sent before the model exists are dropped, later ones show at once
            def early_redraw() -> None:
                try:
                    redraw()
                except Exception:  # e.g. the session ended meanwhile: stop trying
                    early.stop()

            early = pn.state.add_periodic_callback(early_redraw, period=EARLY_REDRAW_MS, count=EARLY_REDRAWS)
            pn.state.on_session_destroyed(lambda ctx: early.stop())

        def loaded() -> None:
            if early is not None:
                early.stop()
            redraw()
        pn.state.onload(loaded)
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


# --------------------------------------------------------------------------------------------------- URL state

def has_url_state(widget) -> bool:
    """Whether ``widget`` takes part in URL state: it has ``url_state() -> dict``, ``load_url_state(dict)`` and
    ``on_state_change(callback)``."""
    return all(callable(getattr(widget, n, None)) for n in ("url_state", "load_url_state", "on_state_change"))


def query_value(search: str, name: str) -> str | None:
    """The first value of query parameter ``name`` in ``search`` (``"?s=1.eJy&x=2"``), or ``None``."""
    from urllib.parse import parse_qs

    values = parse_qs((search or "").lstrip("?"), keep_blank_values=True).get(name)
    return values[0] if values else None


def _url_writer_class():
    import param
    from panel.reactive import ReactiveHTML

    class UrlStateWriter(ReactiveHTML):
        """Invisible: sets query parameter ``name`` of the browser's address to ``value`` with
        ``history.replaceState`` (Panel's ``pn.state.location`` always pushes a history entry)."""

        value = param.String(default="")
        name_ = param.String(default="s")
        _template = "<span id='urlstate' style='display:none'></span>"
        _scripts = {"value": """
            if (!data.value) { return; }
            const u = new URL(window.location.href);
            u.searchParams.set(data.name_, data.value);
            window.history.replaceState(window.history.state, '', u.toString());"""}

    return UrlStateWriter


class _Writer:
    cls = None


def url_state_error_text(error, shown: str = "its defaults") -> str:
    """The one line a page shows for a ``?s=`` link it cannot open (plain text; the caller escapes it).

    Args:
        error: the :class:`~explorer.errors.ScenarioError` of :func:`explorer.urlstate.decode_state` or of the page's
            ``load_url_state``.
        shown: what the page shows instead: ``"its defaults"``, or ``"scenario tr-02"`` when the URL's
            ``?scenario=`` opened one.
    """
    what = f"field '{error.field}': {error.problem}" if error.field else error.problem
    if error.allowed:
        what += f" (allowed: {error.allowed})"
    return f"This link's state could not be opened, so the page shows {shown} instead: {what}"


def url_state_sync(widget, name: str | None = None, shown: str = "its defaults"):
    """Keep a page widget's state in the page URL (under ``panel serve``).

    When the page opens, a state in the URL's ``?<name>=`` query (default :data:`explorer.urlstate.QUERY_PARAM`) is
    decoded (:func:`explorer.urlstate.decode_state`) and given to ``widget.load_url_state``; a bad link (garbage,
    another version, oversize, an invalid field) is shown as a one-line message (:func:`url_state_error_text`) and
    the page keeps what it shows, named by ``shown`` (``"its defaults"``, ``"scenario tr-02"``).
    After every change (``widget.on_state_change``) the state is encoded and written to the URL, replacing the
    current history entry.

    Returns:
        a Panel ``Column`` holding the (usually empty) message and the invisible URL writer: add it to the page.
    """
    import html as _html

    import panel as pn

    from explorer.errors import ScenarioError
    from explorer.urlstate import QUERY_PARAM, decode_state, encode_state

    name = name or QUERY_PARAM
    if _Writer.cls is None:
        _Writer.cls = _url_writer_class()
    writer = _Writer.cls(name_=name, width=0, height=0, margin=0)
    message = pn.pane.HTML("", margin=(0, 10), sizing_mode="stretch_width", css_classes=["url-state-message"])
    loc = pn.state.location
    raw = query_value(loc.search if loc is not None else "", name)
    if raw:
        try:
            widget.load_url_state(decode_state(raw))
        except ScenarioError as e:
            message.object = (f"<div class='url-state-error' style='font:13px sans-serif;color:#c92a2a;background:"
                              f"#fff5f5;border:1px solid #c92a2a;padding:6px 10px;border-radius:4px'>"
                              f"{_html.escape(url_state_error_text(e, shown))}</div>")

    def changed() -> None:
        try:
            value = encode_state(widget.url_state())
        except (ScenarioError, ValueError, TypeError) as e:
            message.object = (f"<div style='font:12px sans-serif;color:#868e96'>The address no longer follows the "
                              f"page: {_html.escape(str(e))}</div>")
            return
        if message.object and "url-state-error" not in message.object:
            message.object = ""
        writer.value = value

    widget.on_state_change(changed)
    return pn.Column(message, writer, margin=0, sizing_mode="stretch_width")


# --------------------------------------------------------------------------------------------------- browser fixes

# The script (idempotent) is :data:`explorer.widgets.layout.BROWSER_FIXES_JS`: the same one every canvas widget
# carries (layout.browser_fix), so notebooks get it too; the Panel shell installs it before any widget renders.
from .layout import BROWSER_FIXES_JS  # noqa: E402


def _fixes_class():
    from panel.reactive import ReactiveHTML

    class BrowserFixes(ReactiveHTML):
        """Invisible: installs :data:`BROWSER_FIXES_JS` when it renders (before the widgets do)."""

        _template = "<span id='explorerfixes' style='display:none'></span>"
        _scripts = {"render": BROWSER_FIXES_JS}

    return BrowserFixes


class _Fixes:
    cls = None


def browser_fixes():
    """An invisible Panel component that installs the browser fixes (see the module docstring: no scroll on focus,
    the wheel scrolls the page unless Ctrl / Shift / Alt is held). Add it to every served page."""
    if _Fixes.cls is None:
        _Fixes.cls = _fixes_class()
    return _Fixes.cls(width=0, height=0, margin=0)
