"""The Panel app: the Face to Face explorer on the built-in default scenario, one fresh widget per browser session.

Run it with ``explorer serve`` (or ``./run app``), or ``panel serve apps/explorer_app.py --static-dirs
widget-js=<dir>`` after :func:`explorer.widgets.panel_support.layout_widget_js`.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from explorer.widgets.panel_support import WIDGET_JS_ROUTE, layout_widget_js, served_pane

TITLE = "Rules explorer — TAG Raid Face to Face Rolls"


def create_app():
    """Build the app for one browser session (a new widget tree, with its own canvas managers)."""
    import panel as pn

    from explorer.games.tagraid.views import explorer_for_scenario

    w = explorer_for_scenario()
    intro = pn.pane.HTML(
        "<div style='font-family:sans-serif;font-size:13px;color:#495057'>Interactive rules explorer for "
        "<i>Infinity Deathmatch: TAG Raid</i>. Every step cites the rulebook section that decides it; where the "
        "rulebook is silent, the ruling option used is named.</div>", margin=(0, 10))
    return pn.Column(intro, served_pane(w, redraw=w.redraw), sizing_mode="stretch_width")


def serve(port: int = 5006, address: str | None = None, show: bool = False, static_dir: str | Path | None = None,
          threaded: bool = False):
    """Serve :func:`create_app` at ``/`` on ``port`` with the local widget JavaScript (blocking unless threaded).

    Args:
        port: TCP port (0: any free port is not supported by Bokeh; pick one).
        address: interface to bind (default: all); websocket origins are restricted to localhost and ``address``.
        show: open a browser tab.
        static_dir: where to lay out the widget JavaScript (default: a temporary directory).
    """
    import panel as pn

    pn.extension("ipywidgets")
    static = layout_widget_js(static_dir or tempfile.mkdtemp(prefix="explorer-widget-js-"))
    origins = [f"localhost:{port}", f"127.0.0.1:{port}"] + ([f"{address}:{port}"] if address else [])
    return pn.serve({"/": create_app}, port=port, address=address, show=show, title=TITLE,
                    static_dirs={WIDGET_JS_ROUTE: str(static)}, websocket_origin=origins, threaded=threaded,
                    print_url=False)
