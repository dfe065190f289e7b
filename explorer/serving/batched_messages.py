"""A served session sends the widget messages of one event-loop tick as one Bokeh message, and no "busy" status.

What it patches (issue #24, item 3: the page's messages): ``panel.io.ipywidget.PanelSessionWebsocket._dispatch`` and
``panel.io.ipywidget.PanelKernel._publish_status``.

* **One Bokeh message per tick.** Panel queues every ipywidgets message a session's widgets send (a canvas command
  batch, a new verdict list, a dropdown's options) and, on the next tick of the event loop, triggers one document
  change per message: the Bokeh server writes each as its own ``PATCH-DOC`` message, three or four websocket frames,
  each its own ``socket.send``. Measured under ``explorer serve`` (cProfile of the server over a run of
  ``benchmarks/bench_lof_interactions.py``, session 17): 46 ``socket.send`` calls per Line of Fire interaction,
  0.8 ms each on this 2-core machine, a third of the event loop's own time. With the patch, the messages queued
  for a tick go to each connection as one ``PATCH-DOC`` holding all of them, in order (the protocol's ``events`` list
  and its buffers carry several); the document's other change callbacks still see every message, one by one, as
  before.
* **No "busy" status.** The Jupyter kernel Panel runs for a session publishes a "busy" and an "idle" status for every
  message a browser sends (each mouse move over a board, each click): two more ``PATCH-DOC`` messages. The browser's
  widget code reads only "idle" (a widget model waits for the idle of its state update before sending the next; a
  message's pending callbacks are freed on idle), so "idle" is kept and "busy" is not sent.

Private APIs (pinned panel==1.9.4, bokeh==3.9.2, ipywidgets_bokeh==1.8.0): ``PanelSessionWebsocket._queue``,
``_document`` and ``_dispatch``; ``PanelKernel._publish_status``; the Bokeh document's ``session_context._session``
(the ``ServerSession``), its ``_subscribed_connections`` and ``_pending_writes``, its change callbacks keyed by the
session (``Document.callbacks._change_callbacks``), and ``ServerConnection.protocol`` / ``_socket.send_message``.

**Where a batch ends** (:func:`batches`): after its ``comm_open`` messages. The browser builds a new widget's model
asynchronously and hooks its comm up only then, so a message handled in the same browser task as its widget's
``comm_open`` (one ``PATCH-DOC`` is handled in one task) found no handler and was dropped: in session 17 the Orders
page (``/tagraid-orders``) never showed the ARO rows it builds during a Move (``tests/browser/test_orders_page.py``
waited 90 s for ``.oes-aro-W``). The patched ``PanelSessionWebsocket.send`` marks each queued ``comm_open``;
separate ``PATCH-DOC`` messages are separate websocket messages, and the browser finishes the model between them, as
it does without the patch. With the cut, that test passes with the patch on (session 18).

**Off by default** (:data:`BATCH_ENV`, ``EXPLORER_BATCH_MESSAGES=1`` turns it on for ``explorer serve``): with the
cut, the whole browser suite with it on gave 209 passed and 1 failed (session 18: a link to a Galaxy Defenders Round
step never showed that step in 90 s; it passed both reruns), and a failure of that kind can be another dropped
message. Measured on and off at a low load (``benchmarks/README.md``, session 18): ratios 0.57-1.44, no clear gain.

On a version mismatch: disabled (:data:`explorer.serving.versions.DISABLE`): it only saves time. Without it: one
``PATCH-DOC`` per widget message and a "busy" status per browser message. Where the document is not served by a
Bokeh server session (a notebook), held, or a tick has a single message, the messages go out exactly as Panel sends
them.
"""

from __future__ import annotations

from .versions import allowed, could_not_apply

_MARK = "_explorer_batched"
_OPENS = "_explorer_opens_comm"

BATCH_ENV = "EXPLORER_BATCH_MESSAGES"
"""The environment variable that turns the patch on for a served process: exactly ``1`` (off by default: see the
module docstring)."""


def batching_enabled() -> bool:
    """Whether ``explorer serve`` applies :func:`batch_widget_messages` (:data:`BATCH_ENV` is ``"1"``)."""
    import os

    return os.environ.get(BATCH_ENV, "").strip() == "1"


def _server_session(doc):
    """The Bokeh ``ServerSession`` serving ``doc``, or ``None`` (not served, or not yet)."""
    ctx = getattr(doc, "session_context", None)
    return getattr(ctx, "_session", None) if ctx is not None else None


def opens_a_comm(event) -> bool:
    """Whether ``event`` (a queued ``MessageSentEvent``) carries a Jupyter ``comm_open`` (marked when Panel's
    ``PanelSessionWebsocket.send`` queued it, under :func:`batch_widget_messages`)."""
    return bool(getattr(event, _OPENS, False))


def batches(events: list) -> list[list]:
    """``events`` (one tick's queued widget messages, in order) cut into the runs sent as one ``PATCH-DOC`` each: a
    run ends after its ``comm_open`` messages, before the next message that opens nothing, so no message shares a
    ``PATCH-DOC`` with (follows, in the same browser task) the ``comm_open`` of a widget it may address. The browser
    builds a new widget's model asynchronously and hooks its comm up only then; a state update or custom message
    handled in the same task as its ``comm_open`` found no handler and was dropped (session 17: the Orders page's
    new ARO rows never showed). Consecutive ``comm_open`` messages stay together (the browser registers each new
    model before the next message is handled). Every event appears once, in order."""
    out: list[list] = []
    run: list = []
    opened = False
    for event in events:
        opens = opens_a_comm(event)
        if opened and not opens:
            out.append(run)
            run, opened = [], False
        run.append(event)
        opened = opened or opens
    if run:
        out.append(run)
    return out


def send_batched(doc, events: list) -> bool:
    """Send ``events`` (Bokeh ``MessageSentEvent`` objects of ``doc``, in order) to every connection of ``doc``'s
    server session as one ``PATCH-DOC`` message, and give each event to the document's other change callbacks.

    Raises:
        whatever making a message raises, before anything is written (the caller then sends them one by one), or
        what a change callback raises, after.

    Returns:
        ``False`` (nothing done: the caller sends them one by one) when ``doc`` has no server session, its writes
        are not collected now (``_pending_writes`` is ``None``: outside the document lock), or it is held.
    """
    session = _server_session(doc)
    callbacks = doc.callbacks
    if session is None or getattr(session, "_pending_writes", None) is None or getattr(callbacks, "_hold", None):
        return False
    from bokeh.document.callbacks import invoke_with_curdoc

    others = [cb for key, cb in list(callbacks._change_callbacks.items()) if key is not session]
    connections = list(session._subscribed_connections)
    messages = [connection.protocol.create("PATCH-DOC", list(events)) for connection in connections]
    for connection, msg in zip(connections, messages):   # nothing is written before every message is made
        session._pending_writes.append(connection._socket.send_message(msg))
    for event in events:   # what trigger_on_change does for every receiver but the session
        if event.callback_invoker is not None:
            invoke_with_curdoc(doc, event.callback_invoker)
        for cb in others:
            invoke_with_curdoc(doc, lambda cb=cb, event=event: cb(event))
    return True


def batch_widget_messages() -> bool:
    """Process-wide, under ``panel serve``: a tick's widget messages go out as one ``PATCH-DOC`` per connection, and
    the session kernel publishes no "busy" status (see the module docstring). Idempotent. Returns whether the patch
    is in place (``False``: a pinned package is another version, with a warning, or Panel has no
    ``PanelSessionWebsocket`` / ``PanelKernel``, logged)."""
    if not allowed("batch_widget_messages"):
        return False
    try:
        from panel.io.ipywidget import PanelKernel, PanelSessionWebsocket
    except Exception as e:   # another Panel, or no ipywidgets_bokeh
        could_not_apply("batch_widget_messages", e)
        return False
    if getattr(PanelSessionWebsocket._dispatch, _MARK, False):
        return True
    dispatch_one_by_one = PanelSessionWebsocket._dispatch
    send_one = PanelSessionWebsocket.send

    def send(self, stream, msg_type, *args, **kwargs):
        queued = len(self._queue)
        out = send_one(self, stream, msg_type, *args, **kwargs)
        kind = msg_type if isinstance(msg_type, str) else (msg_type or {}).get("header", {}).get("msg_type")
        if kind == "comm_open" and len(self._queue) > queued:
            setattr(self._queue[-1], _OPENS, True)
        return out

    def _dispatch(self):
        events = list(self._queue)
        if len(events) < 2:
            return dispatch_one_by_one(self)
        session = _server_session(self._document)
        groups = batches(events)
        for k, group in enumerate(groups):
            writes = len(getattr(session, "_pending_writes", None) or ())
            try:
                if not send_batched(self._document, group):   # the same for every batch of the tick: none sent
                    return dispatch_one_by_one(self)
            except Exception as e:   # noqa: BLE001
                if len(getattr(session, "_pending_writes", None) or ()) == writes:   # nothing of it written
                    self._queue = [event for g in groups[k:] for event in g]
                    return dispatch_one_by_one(self)   # this batch and the rest: Panel's way
                import param   # as Panel's own _dispatch: a warning, the queue emptied

                param.main.param.warning(f"ipywidgets event dispatch failed with: {e}")
                break
        self._queue = []
        return None

    publish_status = PanelKernel._publish_status

    def _publish_status(self, status, channel, parent=None):
        if status == "busy":
            return None
        return publish_status(self, status, channel, parent)

    setattr(_dispatch, _MARK, True)
    setattr(_publish_status, _MARK, True)
    setattr(send, _MARK, True)
    PanelSessionWebsocket._dispatch = _dispatch
    PanelSessionWebsocket.send = send
    PanelKernel._publish_status = _publish_status
    return True
