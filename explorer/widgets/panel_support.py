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
- file uploads (:func:`accept_binary_widget_messages`): a browser sends a widget update that carries buffers (an
  ``ipywidgets.FileUpload`` value) as one binary frame, which ``ipywidgets_bokeh`` fed to ``json.loads``
  (``UnicodeDecodeError('utf-32-be', ...)``): no uploaded file ever reached a served page. The patch splits the frame.
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
- first page load (``docs/design.md`` item 24): a served page's widgets share one front-end model per distinct
  layout / style state, copy-on-write (:func:`share_style_models`: 365 -> 169 models on the Face to Face page), and
  the browser does not send a ``comm_open`` per model (:data:`PAGE_JS_SOURCE`, :func:`page_script`), which the
  server answered one by one before the page's first drawing.
"""

from __future__ import annotations

import shutil
import sys
import sysconfig
import threading
from collections.abc import Callable
from contextlib import contextmanager
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


PAGE_JS = "explorer-page.js"
"""The page script laid out next to the widget bundles (:data:`PAGE_JS_SOURCE`, :func:`page_script`)."""

PAGE_JS_SOURCE = """// explorer serve: the browser does not send the comm_open messages of the widget models it builds from the page
(() => {
  const bokeh = window.Bokeh;
  if (bokeh == null || typeof bokeh.require !== "function") return;
  const Document = bokeh.require("document").Document;
  if (Document == null || Document.prototype.__explorerNoCommOpen) return;
  const trigger = Document.prototype._trigger_on_change;
  Document.prototype._trigger_on_change = function (event) {
    const data = event != null && event.msg_type === "ipywidgets_bokeh" ? event.msg_data : null;
    if (typeof data === "string" && data.includes('"comm_open"')) {
      try {
        const msg = JSON.parse(data);
        if (msg.channel === "shell" && msg.header != null && msg.header.msg_type === "comm_open") return;
      } catch (e) { /* not a Jupyter message: send it */ }
    }
    return trigger.call(this, event);
  };
  Document.prototype.__explorerNoCommOpen = true;
})();
"""
"""The browser half of :func:`skip_browser_comm_opens`. ipywidgets_bokeh's widget manager opens a comm towards
the server for every widget model it builds from the page's document (one ``comm_open`` message each: ~370 for the
Face to Face page), which Panel's kernel ignores. Sent, each was a Bokeh ``PATCH-DOC`` the server parsed, applied
and acknowledged, one after the other, before the browser's ``DocumentReady`` that starts the page's first drawing
(``pn.state.onload``): hundreds of ms of the server's event loop on every page load. This script wraps BokehJS'
``Document._trigger_on_change`` (through ``Bokeh.require("document")``; pinned bokeh==3.9.2) so such messages are
never sent; every other message goes through unchanged. It must run after BokehJS and before the page's document is
built: :func:`page_script` puts it among the page's ``<head>`` scripts, after Bokeh's."""


def layout_widget_js(dest: str | Path) -> Path:
    """Copy the widget bundles into ``dest`` laid out as ipywidgets_bokeh requests them, and write the page script
    (:data:`PAGE_JS`) there; returns ``dest``."""
    dest = Path(dest)
    for rel, src in widget_js_files().items():
        target = dest / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(src, target)
    dest.mkdir(parents=True, exist_ok=True)
    (dest / PAGE_JS).write_text(PAGE_JS_SOURCE, encoding="utf-8")
    return dest


def page_script() -> None:
    """Process-wide, under ``explorer serve``: every page's ``<head>`` loads :data:`PAGE_JS` from
    :data:`WIDGET_JS_ROUTE` (a relative URL: pages are one level deep, as for the widget bundles), after BokehJS
    (Panel puts ``pn.config.js_files`` after Bokeh's own scripts and before its extensions)."""
    import panel as pn

    pn.config.js_files = {**pn.config.js_files, "explorer_page": f"{WIDGET_JS_ROUTE}/{PAGE_JS}"}


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


def _is_style_model(w) -> bool:
    name = getattr(w, "_model_name", "")
    return isinstance(name, str) and (name == "LayoutModel" or name.endswith("StyleModel"))


def _forget_comm(c) -> None:
    """Drop the comm ``c`` from every comm manager without sending anything (its ``comm_open`` is still queued and is
    dropped with the build's messages: :func:`drop_build_messages`)."""
    import comm as comm_package

    managers = [comm_package.get_comm_manager()]
    kernel = getattr(c, "kernel", None)
    if getattr(kernel, "comm_manager", None) is not None:
        managers.append(kernel.comm_manager)
    c._closed = True
    for m in managers:
        m.comms.pop(getattr(c, "comm_id", None), None)


def _unshare(model, owners: list, key: str, value) -> bool:
    """Copy-on-write for a shared style model (:func:`share_style_models`): the first change of ``model`` gives it its
    own front-end model (a new comm opened with its whole state, as for a widget built now) and points its owners
    at it; the other widgets keep the shared one. Stands in for ``Widget._should_send_property`` once."""
    from ipywidgets import Widget

    del model.__dict__["_should_send_property"]
    model._trait_values["comm"] = None
    model._model_id = None
    model.open()                            # a new comm, carrying the state with this change
    Widget._call_widget_constructed(model)  # under Panel: the session's own comm (panel.io.ipywidget)
    for owner, trait in owners:
        owner.send_state(key=trait)
    return False


def share_style_models(root) -> tuple[int, int]:
    """Let widgets whose ``layout`` / ``style`` models have the same state share one front-end model; returns
    ``(models before, models after)`` among those reached from ``root``.

    A page is mostly small widgets with a default or a common ``Layout`` and ``Style`` (the Face to Face page: 232
    of its 365 widget models, in 36 distinct states), and the browser builds one model for each. Call this once the
    tree is built and before its state is sent (under ``panel serve``: in the session's page factory, before
    :func:`drop_build_messages`). Every such model of a group with one state becomes an alias of one new model of
    that state (same comm, so the same model id in the page's state); its own comm is dropped unsent. The Python
    objects stay distinct and writable: the first change of one (``w.layout.display = "none"``) gives it its own
    model again and points its owner(s) at it (:func:`_unshare`), so no other widget sees the change. Models already
    shared by the code (one ``Layout`` passed to two widgets) stay shared with each other. Private ipywidgets API
    (pinned ipywidgets==8.1.9): ``_trait_values``, ``_model_id``, ``_should_send_property``, ``_instances``.
    """
    import json
    from functools import partial

    from ipywidgets import Widget
    from ipywidgets.widgets.widget import _instances

    owners: dict[int, tuple[Widget, list]] = {}
    seen: set[int] = set()
    stack = [root]
    while stack:
        w = stack.pop()
        if id(w) in seen or not isinstance(w, Widget):
            continue
        seen.add(id(w))
        for k in w.keys:
            v = getattr(w, k, None)
            for x in (v if isinstance(v, (list, tuple)) else (v,)):
                if not isinstance(x, Widget):
                    continue
                if k in ("layout", "style") and _is_style_model(x):
                    owners.setdefault(id(x), (x, []))[1].append((w, k))
                else:
                    stack.append(x)
    groups: dict[tuple, list] = {}
    for x, who in owners.values():
        if x.comm is None or "_should_send_property" in x.__dict__:
            continue   # closed, or already an alias
        state = json.dumps(x.get_state(), sort_keys=True, default=str)
        groups.setdefault((type(x), state), []).append((x, who))
    after = len(owners)
    for (cls, state), members in groups.items():
        if len(members) < 2:
            continue
        first = members[0][0]
        shared = cls(**{k: getattr(first, k) for k in first.keys if not k.startswith("_")})
        if json.dumps(shared.get_state(), sort_keys=True, default=str) != state:
            shared.close()
            continue
        for x, who in members:
            _instances.pop(x.model_id, None)
            _forget_comm(x.comm)
            x._trait_values["comm"] = shared.comm
            x._model_id = shared.model_id
            x._should_send_property = partial(_unshare, x, who)
        after -= len(members) - 1
    return len(owners), after


class _Building(threading.local):
    depth = 0


_BUILDING = _Building()


def _no_state(*args, **kwargs) -> dict:
    return {}


def lean_build_comms() -> bool:
    """Process-wide, under ``panel serve``: while a page is built inside :func:`building_page`, the comm Panel opens
    for each new widget carries no state. Panel's construction callback (``panel.io.ipywidget``) serialises every
    widget's whole state into its ``comm_open`` message (about 40 % of a page build's CPU time, measured with
    cProfile on the Face to Face page), and those messages are queued and then dropped unsent
    (:func:`drop_build_messages`): the page's document carries the state. Widgets built at any other time (in a
    callback, by another app) get Panel's ordinary comm. Returns whether the wrapper is in place. Private API
    (pinned panel==1.9.4, ipywidgets==8.1.9): ``Widget._widget_construction_callback``.
    """
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


@contextmanager
def building_page():
    """The extent of a served page's build whose widget messages :func:`drop_build_messages` drops afterwards (see
    :func:`lean_build_comms`)."""
    _BUILDING.depth += 1
    try:
        yield
    finally:
        _BUILDING.depth -= 1


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

    def wrap(receive):
        def receive_skipping_comm_open(self, data):
            if isinstance(data, str) and '"comm_open"' in data:
                try:
                    msg = json.loads(data)
                    if msg.get("channel") == "shell" and msg.get("header", {}).get("msg_type") == "comm_open":
                        return None
                except (ValueError, AttributeError):
                    pass
            return receive(self, data)
        return receive_skipping_comm_open

    return _wrap_session_receive("_skips_comm_open", wrap)


def _wrap_session_receive(marker: str, wrap: Callable) -> bool:
    """Replace ``PanelSessionWebsocket.receive`` (how a served session reads a browser's widget message) by
    ``wrap(previous receive)``, once per process: ``marker`` names this patch, and every patch keeps the markers of
    those under it, so applying any of them again (each page build asks) never stacks a second layer. Returns
    whether the patch is in place (``False``: another Panel, or no ipywidgets_bokeh). Private Panel API (pinned
    panel==1.9.4)."""
    try:
        from panel.io.ipywidget import PanelSessionWebsocket
    except Exception:   # another Panel or no ipywidgets_bokeh: leave it alone
        return False
    receive = PanelSessionWebsocket.receive
    markers = set(getattr(receive, "_explorer_patches", ()))
    if marker in markers:
        return True
    wrapped = wrap(receive)
    wrapped._explorer_patches = frozenset(markers | {marker})
    PanelSessionWebsocket.receive = wrapped
    return True


MAX_WIDGET_BUFFERS = 64
"""The most binary buffers one widget message from a browser may carry (a ``FileUpload`` sends one per file)."""


def split_binary_widget_message(data: bytes) -> tuple[dict, list[bytes]]:
    """A widget message a browser sent as binary (a message with buffers, e.g. a ``FileUpload`` value) as ``(message
    dict, buffers)``.

    The frame is the one JupyterLab's services and ``ipywidgets_bokeh`` both write: a big-endian ``uint32`` count
    ``n``, then ``n`` big-endian ``uint32`` offsets, then the parts at those offsets: the message as UTF-8 JSON
    first, then its ``n - 1`` buffers.

    Raises:
        ValueError: not such a frame (too short, offsets out of order or past the end, more than
            :data:`MAX_WIDGET_BUFFERS` buffers, or a first part that is not a JSON object).
    """
    import json

    data = bytes(data)
    if len(data) < 8:
        raise ValueError("binary widget message shorter than its header")
    n = int.from_bytes(data[:4], "big")
    if not 1 <= n <= MAX_WIDGET_BUFFERS + 1 or len(data) < 4 * (n + 1):
        raise ValueError(f"binary widget message with {n} parts")
    offsets = [int.from_bytes(data[4 * (k + 1):4 * (k + 2)], "big") for k in range(n)] + [len(data)]
    if offsets[0] != 4 * (n + 1) or any(a > b for a, b in zip(offsets, offsets[1:])):
        raise ValueError("binary widget message with offsets out of order")
    parts = [data[a:b] for a, b in zip(offsets, offsets[1:])]
    msg = json.loads(parts[0].decode("utf-8"))
    if not isinstance(msg, dict):
        raise ValueError("binary widget message whose first part is not a JSON object")
    return msg, parts[1:]


class _Frame(bytes):
    """One part of a message handed to the kernel as if it came from ZeroMQ without copying (``.bytes``), and usable
    as a buffer (``memoryview``)."""

    @property
    def bytes(self) -> bytes:
        return bytes(self)


def accept_binary_widget_messages() -> bool:
    """Process-wide, under ``panel serve``: read the widget messages a browser sends as binary frames.

    A widget whose update carries buffers (an ``ipywidgets.FileUpload`` holding a chosen file: its content is a
    buffer) reaches the server as one binary frame (:func:`split_binary_widget_message`). ``ipywidgets_bokeh`` 1.8
    passes every message to ``json.loads``, which reads the frame's leading zero bytes as UTF-32 and raises
    ``UnicodeDecodeError('utf-32-be', ...)`` in Bokeh's protocol handler: the file never reached the page, and the
    page said nothing. This splits the frame and dispatches the message with its buffers, as Jupyter's kernel
    does; a frame that is not well formed is dropped (hostile traffic gets no traceback). Text messages go on as
    before. Returns whether the patch is in place. Private API (pinned ipywidgets_bokeh==1.8.0, panel==1.9.4):
    ``panel.io.ipywidget.PanelSessionWebsocket.receive``.
    """
    import logging

    log = logging.getLogger(__name__)
    return _wrap_session_receive("_reads_binary", lambda receive: _receive_binary(receive, log))


def _receive_binary(receive: Callable, log) -> Callable:
    """The ``receive`` of :func:`accept_binary_widget_messages` over the ``receive`` it replaces."""

    def receive_binary(self, data):
        if not isinstance(data, (bytes, bytearray, memoryview)):
            return receive(self, data)
        try:
            msg, buffers = split_binary_widget_message(data)
        except (ValueError, UnicodeDecodeError) as e:
            log.warning("dropped a binary widget message: %s", str(e)[:200])
            return None
        if msg.get("channel") != "shell":
            return None
        try:
            frames = [_Frame(k) for k in self.serialize(msg)] + [_Frame(b) for b in buffers]
        except Exception as e:   # a message without the fields of a Jupyter message
            log.warning("dropped a binary widget message: %s", str(e)[:200])
            return None
        kernel = self.parent

        async def dispatch_shell():
            await kernel.dispatch_shell(frames)

        doc = getattr(self, "_document", None) or self.document
        if doc is not None and doc.session_context:
            doc.add_next_tick_callback(dispatch_shell)
        else:
            kernel.io_loop.add_callback(dispatch_shell)
        return None

    return receive_binary


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

    In a served session the widget tree's equal ``layout`` / ``style`` models are shared first
    (:func:`share_style_models`).
    """
    import panel as pn

    accept_binary_widget_messages()   # a FileUpload's file reaches the server (once per process)
    doc = pn.state.curdoc
    if doc is not None:   # a served session: fewer front-end models, before the page's state is taken
        share_style_models(widget)
    pane = _LocalJSPane(widget, **kwargs)
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


URL_WRITER_JS = """
    if (!data.value) { return; }
    const cut = data.value.indexOf(' ');
    const seq = cut > 0 ? Number(data.value.slice(0, cut)) : 0;
    const value = cut > 0 ? data.value.slice(cut + 1) : data.value;
    const seen = window.__explorerUrlWrites = window.__explorerUrlWrites || {};
    if (seq && seq <= (seen[data.name_] || 0)) { return; }
    seen[data.name_] = seq;
    const u = new URL(window.location.href);
    u.searchParams.set(data.name_, value);
    window.history.replaceState(window.history.state, '', u.toString());"""
"""The URL writer's browser script (a Panel ``ReactiveHTML`` script: ``data`` is the model; the last write number
applied is kept per page, so a redrawn writer does not apply an older value either). Panel sends a change made in a session callback straight to the websocket, but defers it to the next tick
when the socket is busy writing, so two quick writes (step 4, then step 5) can reach the browser in the opposite
order: the address then stayed one step behind the page. The script keeps the newest write by its number."""


def url_write_value(seq: int, encoded: str) -> str:
    """The URL writer's value for write number ``seq`` (1, 2, ...) of the encoded state ``encoded``
    (:func:`explorer.urlstate.encode_state`, which has no space)."""
    return f"{int(seq)} {encoded}"


def _url_writer_class():
    import param
    from panel.reactive import ReactiveHTML

    class UrlStateWriter(ReactiveHTML):
        """Invisible: sets query parameter ``name`` of the browser's address with ``history.replaceState``
        (Panel's ``pn.state.location`` always pushes a history entry). ``value`` is ``"<write number> <state>"``
        (:func:`url_write_value`): a write that reaches the browser after a newer one is ignored."""

        value = param.String(default="")
        name_ = param.String(default="s")
        _template = "<span id='urlstate' style='display:none'></span>"
        # on render too: a value set before the browser drew the writer (a click while the page loads) is written
        _scripts = {"value": URL_WRITER_JS, "render": URL_WRITER_JS}

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
    import itertools

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

    writes, last = itertools.count(1), [""]

    def changed() -> None:
        try:
            value = encode_state(widget.url_state())
        except (ScenarioError, ValueError, TypeError) as e:
            message.object = (f"<div style='font:12px sans-serif;color:#868e96'>The address no longer follows the "
                              f"page: {_html.escape(str(e))}</div>")
            return
        if message.object and "url-state-error" not in message.object:
            message.object = ""
        if value != last[0]:
            last[0] = value
            writer.value = url_write_value(next(writes), value)   # numbered: a late older write never wins

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
