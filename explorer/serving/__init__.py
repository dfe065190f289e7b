"""Serving the widgets with Panel (``explorer serve``, ``panel serve apps/*.py`` and served notebooks): one module
per patch of a private API of Panel, Bokeh (BokehJS), ipywidgets, ipycanvas or ipywidgets_bokeh, and the start-up
check of their versions.

Each patch module's docstring says what it patches, which private API, which pinned version, why it is needed and
what breaks without it; :data:`explorer.serving.versions.PATCHES` lists them with what each does when an installed
package is not the pinned one (``disable`` or ``guarded``, always with a one-line warning):

- :mod:`~explorer.serving.widget_js` — widget JavaScript from this server, not a CDN (``local_js_pane``), through
  Bokeh's extension route when no static route is set (``register_widget_js_route``);
- :mod:`~explorer.serving.page_js` — the BokehJS page script: no browser ``comm_open`` is sent (``page_script``);
- :mod:`~explorer.serving.composite_once` — the served ipycanvas bundle composites a board's layers once per batch
  of drawing commands (``composite_layers_once``);
- :mod:`~explorer.serving.comm_opens` — the server drops browser ``comm_open`` messages (``skip_browser_comm_opens``);
- :mod:`~explorer.serving.batched_messages` — a tick's widget messages as one Bokeh message, no "busy" status
  (``batch_widget_messages``; off by default, ``EXPLORER_BATCH_MESSAGES=1``: see its docstring);
- :mod:`~explorer.serving.binary_messages` — uploaded files reach the page (``accept_binary_widget_messages``);
- :mod:`~explorer.serving.lean_build` — stateless comms while a page is built (``lean_build_comms``);
- :mod:`~explorer.serving.build_messages` — the build's queued messages are dropped (``drop_build_messages``);
- :mod:`~explorer.serving.shared_styles` — one front-end model per layout/style state (``share_style_models``);
- :mod:`~explorer.serving.session_end` — a closed session's widgets are freed (``close_session_widgets``);
- :mod:`~explorer.serving.resources` — stylesheets and fonts from this server (``local_resources``);
- :mod:`~explorer.serving.canvas_fixes` — canvas focus and wheel fixes in the browser (``browser_fixes``);
- :mod:`~explorer.serving.stats` — the server's counters (``server_stats``);
- :mod:`~explorer.serving.warm` — every page built before the first request (``warm_pages``);
- :mod:`~explorer.serving.ipv6_host` — an IPv6 (or malformed) ``Host`` builds a page, not a 500
  (``ipv6_host_locations``);
- :mod:`~explorer.serving.components_fence` — Panel's ``/components/`` route imports no module and answers no 500
  (``fence_components``);
- :mod:`~explorer.serving.ws_refusals` — a refused websocket is one log line, not a traceback
  (``quiet_websocket_refusals``);
- :mod:`~explorer.serving.ws_nodelay` — every page's websocket sends each frame at once, Nagle's algorithm off
  (``websocket_nodelay``).

Not patches: :mod:`~explorer.serving.pane` (``served_pane``, the pane every served widget tree goes in),
:mod:`~explorer.serving.notebook` (``notebook_app``, the first cell of every notebook: served notebooks work),
:mod:`~explorer.serving.url_state` (the page's state in its URL), :mod:`~explorer.serving.offload` (heavy page work
on a worker thread, drawn back under the session's lock), :mod:`~explorer.serving.phone` (the viewport meta and the
phone stylesheet), :mod:`~explorer.serving.static_dir` (the
``--static-dir`` the widget JavaScript is laid out in: new, empty or explorer-made only),
:mod:`~explorer.serving.origins` (the websocket origins, IPv6 addresses in brackets), :mod:`~explorer.serving.session_receive` (the
shared wrapper of a session's ``receive``) and :mod:`~explorer.serving.versions`.

Importing this package imports nothing heavy; its public names are importable from it (``from explorer.serving
import served_pane``) and load their module on first use.
"""

from __future__ import annotations

import importlib

_NAMES = {
    "versions": ("PINS", "PATCHES", "ServingVersionWarning", "version_warnings", "mismatches"),
    "widget_js": ("WIDGET_JS_ROUTE", "EXTENSION_NAME", "EXTENSION_PREFIX", "ipycanvas_bundle", "widget_js_files",
                  "layout_widget_js", "local_js_pane", "local_js_pane_class", "register_widget_js_route",
                  "use_static_route", "widget_js_prefix"),
    "notebook": ("notebook_app", "notebook_pane_class", "PANE_PRIORITY"),
    "page_js": ("PAGE_JS", "PAGE_JS_SOURCE", "page_script"),
    "composite_once": ("COMPOSITE_ONCE_JS", "composite_layers_once"),
    "comm_opens": ("skip_browser_comm_opens",),
    "batched_messages": ("BATCH_ENV", "batch_widget_messages", "batching_enabled", "send_batched"),
    "binary_messages": ("MAX_WIDGET_BUFFERS", "split_binary_widget_message", "accept_binary_widget_messages"),
    "lean_build": ("building_page", "lean_build_comms"),
    "build_messages": ("drop_build_messages",),
    "shared_styles": ("share_style_models",),
    "session_end": ("close_session_widgets", "free_widgets_on_session_end"),
    "resources": ("local_resources",),
    "canvas_fixes": ("browser_fixes",),
    "stats": ("server_stats",),
    "warm": ("warm_pages",),
    "ipv6_host": ("ipv6_host_locations",),
    "components_fence": ("ALLOWED_PACKAGES", "fence_components"),
    "ws_refusals": ("quiet_websocket_refusals",),
    "ws_nodelay": ("websocket_nodelay",),
    "static_dir": ("check_static_dir", "prepare_static_dir"),
    "origins": ("origin_host", "websocket_origins"),
    "phone": ("VIEWPORT_META", "PAGE_TEMPLATE", "PHONE_CSS", "PHONE_MAX_WIDTH", "MIN_TEXT_PX", "MIN_TARGET_PX",
              "phone_page"),
    "offload": ("EXECUTOR", "OFFLOAD_ENV", "SWITCH_INTERVAL_ENV", "SessionOffloader", "find_offloadable",
                "offload_enabled", "session_offloader", "short_switch_interval", "switch_interval_ms"),
    "pane": ("served_pane", "attach_session", "find_redraws", "EARLY_REDRAW_MS", "EARLY_REDRAWS"),
    "url_state": ("has_url_state", "query_value", "URL_WRITER_JS", "url_write_value", "url_state_error_text",
                  "url_state_sync"),
}
_MODULE_OF = {name: module for module, names in _NAMES.items() for name in names}

__all__ = sorted(_MODULE_OF)


def __getattr__(name: str):
    """``explorer.serving.<public name>``: loads that name's module on first use.

    Raises:
        AttributeError: not a public name of the package.
    """
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module 'explorer.serving' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value
