"""Uploaded files reach served pages: the server reads the widget messages a browser sends as binary frames.

What it patches: ``panel.io.ipywidget.PanelSessionWebsocket.receive`` (through
:func:`explorer.serving.session_receive.wrap_session_receive`). A widget update that carries buffers (an
``ipywidgets.FileUpload`` holding a chosen file: its content is a buffer) reaches the server as one binary frame: a
big-endian count, the offsets, then the message's JSON and its buffers (:func:`split_binary_widget_message`).
ipywidgets_bokeh 1.8 passes every message to ``json.loads``, which reads the frame's leading zero bytes as UTF-32
and raises ``UnicodeDecodeError('utf-32-be', ...)`` in Bokeh's protocol handler: no file ever reached a served page,
and the page said nothing (``docs/design.md`` item 27). The patch splits the frame and dispatches the message with
its buffers, as Jupyter's kernel does; a frame that is not well formed is dropped with one log line (hostile
traffic gets no traceback). Text messages go on as before.

Private APIs (pinned panel==1.9.4, ipywidgets_bokeh==1.8.0): ``PanelSessionWebsocket.receive``, its ``serialize``
(``jupyter_client.Session``), ``parent`` (the ``PanelKernel``) and the kernel's ``dispatch_shell``.

On a version mismatch: guarded (:data:`explorer.serving.versions.GUARDED`): without it no upload works at all, so
it still tries; a message it cannot hand on is dropped with a log line, as without it.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable

from .session_receive import wrap_session_receive
from .versions import allowed

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
            :data:`MAX_WIDGET_BUFFERS` buffers, or a first part that is not a JSON object; a ``UnicodeDecodeError``
            for a first part that is not UTF-8 is a ``ValueError`` too).
    """
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
    """Process-wide, under ``panel serve``: read the widget messages a browser sends as binary frames (see the module
    docstring). Idempotent. Returns whether the patch is in place (``False``: Panel has no
    ``PanelSessionWebsocket``, logged)."""
    allowed("accept_binary_widget_messages")   # guarded: only warns on a mismatch
    log = logging.getLogger(__name__)
    return wrap_session_receive("_reads_binary", lambda receive: _receive_binary(receive, log),
                                "accept_binary_widget_messages")


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
