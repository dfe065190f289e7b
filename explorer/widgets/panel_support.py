"""Deprecated: the serving code moved to :mod:`explorer.serving` (one module per patch, and a start-up check of the
pinned Panel / Bokeh / ipywidgets / ipycanvas / ipywidgets_bokeh versions).

This module only re-exports the names it used to define, for code outside this repository; importing it issues a
``DeprecationWarning``. Import from :mod:`explorer.serving` (``from explorer.serving import served_pane``) or from
its modules instead.
"""

from __future__ import annotations

import warnings

from explorer.serving.binary_messages import (MAX_WIDGET_BUFFERS, accept_binary_widget_messages,
                                              split_binary_widget_message)
from explorer.serving.canvas_fixes import BROWSER_FIXES_JS, browser_fixes
from explorer.serving.build_messages import drop_build_messages
from explorer.serving.comm_opens import skip_browser_comm_opens
from explorer.serving.lean_build import building_page, lean_build_comms
from explorer.serving.resources import local_resources
from explorer.serving.page_js import PAGE_JS, PAGE_JS_SOURCE, page_script
from explorer.serving.pane import EARLY_REDRAW_MS, EARLY_REDRAWS, served_pane
from explorer.serving.session_end import close_session_widgets, free_widgets_on_session_end
from explorer.serving.shared_styles import share_style_models
from explorer.serving.stats import server_stats
from explorer.serving.url_state import (URL_WRITER_JS, has_url_state, query_value, url_state_error_text,
                                        url_state_sync, url_write_value)
from explorer.serving.widget_js import (WIDGET_JS_ROUTE, ipycanvas_bundle, layout_widget_js,
                                        widget_js_files)

__all__ = ["BROWSER_FIXES_JS", "EARLY_REDRAWS", "EARLY_REDRAW_MS", "MAX_WIDGET_BUFFERS", "PAGE_JS", "PAGE_JS_SOURCE",
           "URL_WRITER_JS", "WIDGET_JS_ROUTE", "accept_binary_widget_messages", "browser_fixes", "building_page",
           "close_session_widgets", "drop_build_messages", "free_widgets_on_session_end", "has_url_state",
           "ipycanvas_bundle", "layout_widget_js", "lean_build_comms", "local_resources", "page_script",
           "query_value", "served_pane", "server_stats", "share_style_models", "skip_browser_comm_opens",
           "split_binary_widget_message", "url_state_error_text", "url_state_sync", "url_write_value",
           "widget_js_files"]

warnings.warn("explorer.widgets.panel_support is deprecated: import from explorer.serving", DeprecationWarning,
              stacklevel=2)
