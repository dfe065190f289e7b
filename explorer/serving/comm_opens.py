"""The server does not dispatch the ``comm_open`` messages a browser sends for the widget models it built.

What it patches: ``panel.io.ipywidget.PanelSessionWebsocket.receive`` (through
:func:`explorer.serving.session_receive.wrap_session_receive`). A browser opens a comm for each widget model it
builds from the page's document (~340 for the Face to Face page). Panel's kernel ignores them
(``PanelKernel._wrap_handler`` returns at once for ``comm_open``), but dispatching each still cost a
deserialisation and a "busy" and an "idle" status message back to the browser: ~700 websocket messages and seconds
of the event loop per new session, competing with the next visitor's page (``docs/design.md`` item 24). The page
script (:mod:`explorer.serving.page_js`) keeps the browser from sending them at all; this is the server's half, for
pages without it (``panel serve`` of a notebook).

Private APIs (pinned panel==1.9.4, ipywidgets_bokeh==1.8.0): ``PanelSessionWebsocket.receive`` and Panel's kernel
ignoring ``comm_open``.

On a version mismatch: disabled (:data:`explorer.serving.versions.DISABLE`): it only saves time, and another
Panel's kernel may need the browser's ``comm_open``. Without it: two status messages per browser ``comm_open``.
"""

from __future__ import annotations

import json

from .session_receive import wrap_session_receive
from .versions import allowed


def is_browser_comm_open(data) -> bool:
    """Whether ``data`` (one ipywidgets_bokeh message from a browser) is a Jupyter ``comm_open`` on the shell
    channel."""
    if not (isinstance(data, str) and '"comm_open"' in data):
        return False
    try:
        msg = json.loads(data)
        return msg.get("channel") == "shell" and msg.get("header", {}).get("msg_type") == "comm_open"
    except (ValueError, AttributeError):
        return False


def skip_browser_comm_opens() -> bool:
    """Process-wide, under ``panel serve``: drop the browser's ``comm_open`` messages on arrival (see the module
    docstring); every other message is dispatched as before. Idempotent. Returns whether the patch is in place
    (``False``: Panel or ipywidgets_bokeh is not the pinned version, with a warning, or Panel has no
    ``PanelSessionWebsocket``, logged)."""
    if not allowed("skip_browser_comm_opens"):
        return False

    def wrap(receive):
        def receive_skipping_comm_open(self, data):
            if is_browser_comm_open(data):
                return None
            return receive(self, data)
        return receive_skipping_comm_open

    return wrap_session_receive("_skips_comm_open", wrap, "skip_browser_comm_opens")
