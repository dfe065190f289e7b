"""Local widget JavaScript (trap 2 of ``notes/stack.md``): the ipycanvas bundle laid out on disk, and an IPyWidget
pane whose models load third-party widget JavaScript from this server instead of a public CDN.

What it patches: ipywidgets_bokeh's ``IPyWidget`` model loads the JavaScript of a third-party widget from
``{cdn}/{package}@{version}/dist/index``, ``cdn`` defaulting to a public CDN, where ipycanvas 0.14's bundle is not
even published. :func:`layout_widget_js` copies the bundle the ipycanvas wheel installs
(``share/jupyter/nbextensions/ipycanvas/index.js``, an AMD module) as ``<dir>/ipycanvas@<version spec>/dist/index``;
the server serves ``<dir>`` (see below), and :func:`local_js_pane` (a subclass of
``pn.pane.IPyWidget``) sets the relative prefix on every model it makes (a changed class default is not serialised,
so the value must be set on each instance; a relative prefix also works behind a proxy prefix).

Where the bundle is served: ``explorer serve`` serves ``<dir>`` as its own static route :data:`WIDGET_JS_ROUTE`
(its ``--static-dir``, :func:`use_static_route`). Anything else (``panel serve notebooks/*.ipynb``, ``panel serve
apps/*.py``, jupyter-panel-proxy) needs no flag: :func:`register_widget_js_route` lays the bundle out once per process
and adds it to the directories Bokeh's own ``/static/extensions/<name>/`` route serves, and the panes use that
prefix, :data:`EXTENSION_PREFIX`.

Private APIs (pinned panel==1.9.4, ipywidgets_bokeh==1.8.0, ipycanvas==0.14.3, bokeh==3.9.2): Panel's
``IPyWidget._get_ipywidget`` (where a pane makes its Bokeh model), the model's ``cdn`` property,
``ipycanvas._frontend`` (the module name and version spec the browser asks for) and Bokeh's
``bokeh.embed.bundle.extension_dirs`` (the dictionary its ``/static/extensions/`` handler reads on each request).

On a version mismatch: guarded (:data:`explorer.serving.versions.GUARDED`). Without it every board stays blank, so
it still tries; if Panel has no ``_get_ipywidget`` or the model no ``cdn``, one line is logged.
"""

from __future__ import annotations

import shutil
import sys
import sysconfig
from pathlib import Path

from .versions import allowed, could_not_apply

WIDGET_JS_ROUTE = "widget-js"
"""Static route (and relative CDN prefix) under which ``explorer serve`` serves the local widget bundles (its
``--static-dir``)."""

EXTENSION_NAME = "explorer-widget-js"
"""The name under which :func:`register_widget_js_route` adds the laid-out bundles to Bokeh's extension directories."""

EXTENSION_PREFIX = f"static/extensions/{EXTENSION_NAME}"
"""The relative CDN prefix of bundles served through Bokeh's ``/static/extensions/`` route (no server flag needed)."""


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
    """``{relative path under the static dir: source file}`` for every third-party widget bundle we serve.

    Raises:
        FileNotFoundError: ipycanvas is installed without its front-end files.
    """
    from ipycanvas._frontend import module_name, module_version

    return {f"{module_name}@{module_version}/dist/index": ipycanvas_bundle()}


def layout_widget_js(dest: str | Path) -> Path:
    """Copy the widget bundles into ``dest`` laid out as ipywidgets_bokeh requests them, and write the page script
    (:data:`explorer.serving.page_js.PAGE_JS`) there; returns ``dest`` as a ``Path``.

    Raises:
        FileNotFoundError: ipycanvas is installed without its front-end files.
        OSError: ``dest`` cannot be written.
    """
    from .composite_once import composite_layers_once
    from .page_js import PAGE_JS, PAGE_JS_SOURCE

    dest = Path(dest)
    for rel, src in widget_js_files().items():
        target = dest / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        if rel.startswith("ipycanvas@"):   # the served bundle composites a board's layers once per batch
            target.write_text(composite_layers_once(src.read_text(encoding="utf-8")), encoding="utf-8")
        else:
            shutil.copyfile(src, target)
    dest.mkdir(parents=True, exist_ok=True)
    (dest / PAGE_JS).write_text(PAGE_JS_SOURCE, encoding="utf-8")
    return dest


class _Route:
    prefix: str | None = None
    laid_out: Path | None = None


def register_widget_js_route() -> str:
    """Serve the widget bundles from any Bokeh / Panel server of this process, without ``--static-dirs``; returns the
    relative prefix they are served under (:data:`EXTENSION_PREFIX`).

    How: Bokeh's server serves ``/static/extensions/<name>/<path>`` from the directories of the dictionary
    ``bokeh.embed.bundle.extension_dirs`` (private API, pinned bokeh==3.9.2), which its handler reads on every
    request; the bundles are laid out once per process (:func:`layout_widget_js`) in a temporary directory added
    there as :data:`EXTENSION_NAME`. This is what makes ``panel serve notebooks/*.ipynb`` (and ``panel serve
    apps/*.py``) work with no extra flag. Idempotent.

    Raises:
        FileNotFoundError: ipycanvas is installed without its front-end files.
    """
    import tempfile

    allowed("register_widget_js_route")   # guarded: only warns on a mismatch
    if _Route.laid_out is None:
        _Route.laid_out = layout_widget_js(tempfile.mkdtemp(prefix="explorer-widget-js-"))
    try:
        from bokeh.embed.bundle import extension_dirs
    except ImportError as e:
        could_not_apply("register_widget_js_route", e)
        return EXTENSION_PREFIX
    if not isinstance(extension_dirs, dict):
        could_not_apply("register_widget_js_route", "bokeh.embed.bundle.extension_dirs is not a dict")
        return EXTENSION_PREFIX
    extension_dirs[EXTENSION_NAME] = _Route.laid_out
    return EXTENSION_PREFIX


def use_static_route(prefix: str = WIDGET_JS_ROUTE) -> None:
    """Make every pane made from now on load widget JavaScript from ``prefix`` (``explorer serve``: its own static
    route :data:`WIDGET_JS_ROUTE`, laid out in its ``--static-dir``) instead of :data:`EXTENSION_PREFIX`."""
    _Route.prefix = prefix


def widget_js_prefix() -> str:
    """The relative prefix the panes made now give their models (``cdn``): the one set by :func:`use_static_route`,
    else :data:`EXTENSION_PREFIX` (registered on first use, :func:`register_widget_js_route`)."""
    if _Route.prefix is None:
        _Route.prefix = register_widget_js_route()
    return _Route.prefix


def _pane_class():
    import panel as pn

    if not callable(getattr(pn.pane.IPyWidget, "_get_ipywidget", None)):
        could_not_apply("local_js_pane", "panel.pane.IPyWidget has no _get_ipywidget")

    class LocalJSIPyWidget(pn.pane.IPyWidget):
        """An IPyWidget pane whose Bokeh model loads third-party widget JS from the local static route."""

        def _get_ipywidget(self, obj, doc, root, comm, **kwargs):
            model = super()._get_ipywidget(obj, doc, root, comm, **kwargs)
            if "cdn" in model.properties():
                model.cdn = widget_js_prefix()
            else:
                could_not_apply("local_js_pane", f"{type(model).__name__} has no cdn property")
            return model

    return LocalJSIPyWidget


class _Lazy:
    cls = None


def local_js_pane_class():
    """The pane class :func:`local_js_pane` makes (created on first use)."""
    if _Lazy.cls is None:
        allowed("local_js_pane")   # guarded: only warns on a mismatch
        _Lazy.cls = _pane_class()
    return _Lazy.cls


def local_js_pane(widget, **kwargs):
    """A Panel ``IPyWidget`` pane of ``widget`` (any ipywidget) whose Bokeh model loads third-party widget
    JavaScript from this server (its ``cdn``: :func:`widget_js_prefix`); ``kwargs`` go to the pane (``sizing_mode``...).
    Usually reached through :func:`explorer.serving.pane.served_pane`."""
    return local_js_pane_class()(widget, **kwargs)
