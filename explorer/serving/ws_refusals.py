"""A websocket that Bokeh refuses (no ``bokeh`` subprotocol, no or a bad session token, an expired session) is closed
with one log line, not a traceback (issue #25).

Private API (pinned panel==1.9.4, bokeh==3.9.2): ``panel.io.server.WSHandler.open``, which calls Bokeh's
``WSHandler.open``; Bokeh closes such a connection and then raises ``bokeh.protocol.exceptions.ProtocolError``, which
Tornado logs as an uncaught exception with a 14-line traceback for every hostile or stale client. The wrapper keeps
the close and logs the reason on one line (warning level, with the client's address).

On a version mismatch: guarded (:data:`explorer.serving.versions.GUARDED`): applied if the handler is there (a
warning names the mismatch), logged once and left out if not; without it a hostile client fills the log with
tracebacks.
"""

from __future__ import annotations

import logging

from .versions import allowed, could_not_apply

_applied = False
log = logging.getLogger(__name__)


def _wrap(original, protocol_error):
    def open(self, *args, **kwargs):
        try:
            return original(self, *args, **kwargs)
        except protocol_error as e:   # Bokeh has closed the connection already
            log.warning("websocket refused (%s) from %s: %s", self.request.path[:200], self.request.remote_ip, e)
            return None

    open.__wrapped__ = original
    return open


def quiet_websocket_refusals() -> bool:
    """Process-wide: a websocket Bokeh refuses is closed with one log line instead of a traceback. Idempotent;
    returns whether the patch is in place."""
    global _applied
    if _applied:
        return True
    allowed("quiet_websocket_refusals")   # guarded: only warns on a mismatch
    try:
        from bokeh.protocol.exceptions import ProtocolError
        from panel.io.server import WSHandler

        original = WSHandler.open
    except (ImportError, AttributeError) as e:
        could_not_apply("quiet_websocket_refusals", e)
        return False
    WSHandler.open = _wrap(original, ProtocolError)
    _applied = True
    return True
