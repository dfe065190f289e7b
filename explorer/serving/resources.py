"""Local resources only: every session is served with the server's own copies of Panel's stylesheets and fonts,
never a CDN (the app works offline).

What it patches: Panel points a model's stylesheets at its document's ``dist_url`` template variable, which it sets
only while rendering the HTML of a ``GET``; a session built later for a websocket (every visitor after the first
with ``reuse_sessions``) had none, so its theme CSS, list-panel CSS and Font Awesome came from ``cdn.holoviz.org``.
Panel also adds Font Awesome from ``cdn.holoviz.org`` (its ``ipywidgets`` extension, ``pn.config.css_files``) and
from ``cdnjs.cloudflare.com`` (its patch of ipywidgets_bokeh's ``IPyWidget.__css__``) to every page
(``docs/design.md`` item 25). :func:`local_resources` sets the session document's ``dist_url`` to Panel's local path,
rewrites the CDN stylesheets to the server's copies and drops the cdnjs Font Awesome 4.5 (ipywidgets_bokeh bundles
its own icon CSS).

Private APIs (pinned panel==1.9.4, bokeh==3.9.2, ipywidgets_bokeh==1.8.0): the document's ``_template_variables``,
``panel.io.resources.CDN_DIST`` / ``get_dist_path`` / ``use_cdn`` and ``IPyWidget.__css__``.

On a version mismatch: guarded (:data:`explorer.serving.versions.GUARDED`): without it pages load their styles from
CDNs (broken offline), so it still tries; a part it cannot reach is logged once and the rest is still done.
"""

from __future__ import annotations

from .versions import allowed, could_not_apply


def local_resources() -> None:
    """Serve Panel's own stylesheets and fonts from this server, never from a CDN (see the module docstring).

    Call it while a session's page is being built (it sets that Bokeh document's ``dist_url``, as Panel does for the
    document of a ``GET``) and once after ``pn.extension("ipywidgets")`` (the process-wide part). Idempotent; honours
    ``BOKEH_RESOURCES=cdn`` (then the CDN is what was asked for).
    """
    import panel as pn

    allowed("local_resources")   # guarded: only warns on a mismatch
    try:
        from panel.io.resources import CDN_DIST, get_dist_path, use_cdn
    except ImportError as e:
        could_not_apply("local_resources", e)
        return
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
        variables = getattr(doc, "_template_variables", None)
        if isinstance(variables, dict):
            variables["dist_url"] = local
        else:
            could_not_apply("local_resources", "the Bokeh document has no _template_variables")
