"""A page's websocket sends each message at once: ``TCP_NODELAY`` on the server's side of every Bokeh websocket
(issue #24 item 3: every interaction of the Line of Fire page under 100 ms).

What it fixes: Tornado leaves Nagle's algorithm on for a websocket unless the handler asks
(``WebSocketHandler.set_nodelay``, a public Tornado API Bokeh never calls). A served widget's answer is many small
websocket frames (each Bokeh message is a header, metadata, content and buffer frames; each widget message its own
Bokeh message), so with Nagle on, once one small segment is in flight unacknowledged the next ones wait for its ACK,
and the browser's TCP stack delays that ACK (Linux: at least 40 ms, less once it sees the flow as interactive). Seen
with ``BENCH_TRACE=1`` in ``benchmarks/bench_lof_interactions.py``: a pause of 30-40 ms inside one answer (the first
frames at ~13 ms, the rest at ~47 ms) in about half of the interactions, zoom out and picking a target included,
whose server work is a few milliseconds.

Private API (pinned panel==1.9.4): ``panel.io.server.WSHandler.open`` (the handler of every served page's ``/ws``
route), wrapped to set the flag before Bokeh's ``open`` runs. ``set_nodelay`` itself is Tornado's public API.

On a version mismatch: disabled (:data:`explorer.serving.versions.DISABLE`): it only saves time; without it answers
arrive in bursts with a delayed-ACK pause between them.
"""

from __future__ import annotations

import logging

from .versions import allowed, could_not_apply

_applied = False
log = logging.getLogger(__name__)


def _wrap(original):
    def open(self, *args, **kwargs):
        try:
            self.set_nodelay(True)
        except Exception as e:   # noqa: BLE001 - a socket already closed: Bokeh's open refuses or serves it anyway
            log.debug("TCP_NODELAY not set on %s: %s", self.request.path[:200], e)
        return original(self, *args, **kwargs)

    open.__wrapped__ = original
    return open


def websocket_nodelay() -> bool:
    """Process-wide: every served page's websocket is opened with ``TCP_NODELAY`` (Nagle's algorithm off), so each
    websocket frame of an answer is sent at once. Idempotent; returns whether the patch is in place (``False`` when
    it is disabled by a version mismatch or Panel's handler is not there)."""
    global _applied
    if _applied:
        return True
    if not allowed("websocket_nodelay"):
        return False
    try:
        from panel.io.server import WSHandler

        original = WSHandler.open
    except (ImportError, AttributeError) as e:
        could_not_apply("websocket_nodelay", e)
        return False
    WSHandler.open = _wrap(original)
    _applied = True
    return True
