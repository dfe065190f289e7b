"""The page script: the browser does not send a ``comm_open`` for each widget model it builds from the page.

What it patches: BokehJS' ``Document._trigger_on_change`` (reached through ``Bokeh.require("document")``), in the
browser. ipywidgets_bokeh's widget manager opens a comm towards the server for every widget model it builds from
the page's document (one ``comm_open`` message each: ~370 for the Face to Face page), which Panel's kernel ignores.
Sent, each was a Bokeh ``PATCH-DOC`` the server parsed, applied and acknowledged, one after the other, before the
browser's ``DocumentReady`` that starts the page's first drawing (``pn.state.onload``): hundreds of ms of the
server's event loop on every page load (``docs/design.md`` item 24). :data:`PAGE_JS_SOURCE` wraps that method so
such messages are never sent; every other message goes through unchanged. It must run after BokehJS and before
the page's document is built: :func:`page_script` puts it among the page's ``<head>`` scripts, after Bokeh's
(``pn.config.js_files``), and :func:`explorer.serving.widget_js.layout_widget_js` writes it next to the widget
bundles.

Private APIs (pinned bokeh==3.9.2, ipywidgets_bokeh==1.8.0): BokehJS' ``Document._trigger_on_change`` and the
``msg_type``/``msg_data`` of the ``MessageSentEvent`` that carries ipywidgets_bokeh's Jupyter messages.

On a version mismatch: disabled (:data:`explorer.serving.versions.DISABLE`). It only saves time; with another
BokehJS or ipywidgets_bokeh, dropping what looks like a ``comm_open`` could drop a message that version needs.
Without it the page is right but slower to draw (~370 more websocket messages in, as many answers out).
"""

from __future__ import annotations

from .versions import allowed
from .widget_js import WIDGET_JS_ROUTE

PAGE_JS = "explorer-page.js"
"""The page script's file name, laid out next to the widget bundles (:data:`PAGE_JS_SOURCE`, :func:`page_script`)."""

PAGE_JS_SOURCE = """// explorer serve: the browser does not send the comm_open messages of the widget models it builds from the page
(() => {
  const bokeh = window.Bokeh;
  if (bokeh == null || typeof bokeh.require !== "function") return;
  const Document = bokeh.require("document").Document;
  if (Document == null || Document.prototype.__explorerNoCommOpen) return;
  const trigger = Document.prototype._trigger_on_change;
  if (typeof trigger !== "function") return;
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
"""The page script (see the module docstring): wraps BokehJS' ``Document._trigger_on_change`` so a Jupyter
``comm_open`` from the browser's widget manager is never sent; anything else, and any page without BokehJS' document
module or that method, is left alone."""


def page_script() -> bool:
    """Process-wide, under ``explorer serve``: every page's ``<head>`` loads :data:`PAGE_JS` from
    :data:`WIDGET_JS_ROUTE` (a relative URL: pages are one level deep, as for the widget bundles), after BokehJS
    (Panel puts ``pn.config.js_files`` after Bokeh's own scripts and before its extensions). Returns whether the
    script is on the pages (``False``: Bokeh or ipywidgets_bokeh is not the pinned version, with a warning)."""
    if not allowed("page_script"):
        return False
    import panel as pn

    pn.config.js_files = {**pn.config.js_files, "explorer_page": f"{WIDGET_JS_ROUTE}/{PAGE_JS}"}
    return True
