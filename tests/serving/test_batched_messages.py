"""The served app's batching of widget messages (:mod:`explorer.serving.batched_messages`): the widget messages of
one tick go to each connection as one ``PATCH-DOC`` (in order, buffers included) while the document's other change
callbacks still see each one; the session kernel sends no "busy" status but still every "idle"."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

pytest.importorskip("panel.io.ipywidget")

from bokeh.document import Document  # noqa: E402
from bokeh.protocol import Protocol  # noqa: E402
from panel.io.ipywidget import MessageSentEventPatched, PanelKernel, PanelSessionWebsocket  # noqa: E402

from explorer.serving import batched_messages as bm  # noqa: E402


@pytest.fixture
def pristine():
    """Panel's own ``_dispatch`` and ``_publish_status`` (restored after), the patch not applied."""
    old = PanelSessionWebsocket._dispatch, PanelKernel._publish_status, PanelSessionWebsocket.send
    seen = {"dispatched": 0, "status": []}

    def dispatch(self):
        seen["dispatched"] += 1
        self._queue = []

    def publish(self, status, channel, parent=None):
        seen["status"].append(status)

    PanelSessionWebsocket._dispatch, PanelKernel._publish_status = dispatch, publish
    yield seen
    PanelSessionWebsocket._dispatch, PanelKernel._publish_status, PanelSessionWebsocket.send = old


class _Connection:
    def __init__(self):
        self.protocol = SimpleNamespace(create=self._create)
        self._socket = SimpleNamespace(send_message=lambda msg: ("written", msg))
        self.created = []

    def _create(self, msgtype, events):
        self.created.append((msgtype, list(events)))
        return (msgtype, tuple(events))


class _Doc(SimpleNamespace):
    """A document Bokeh can make its current one (weakly referenced)."""


class _Session(SimpleNamespace):
    __hash__ = object.__hash__   # a key of the document's change callbacks, as Bokeh's ServerSession is


def _fake_session_doc(hold=None):
    session = _Session(_pending_writes=[], _subscribed_connections=[_Connection(), _Connection()])
    other_saw = []
    callbacks = SimpleNamespace(_hold=hold, _change_callbacks={
        session: lambda e: pytest.fail("the session's own callback sent a message one by one"),
        "another": other_saw.append})
    doc = _Doc(session_context=SimpleNamespace(_session=session), callbacks=callbacks)
    return doc, session, other_saw


def _websocket(doc, events):
    ws = PanelSessionWebsocket.__new__(PanelSessionWebsocket)
    ws._document, ws._queue = doc, list(events)
    return ws


def _events(n):
    return [SimpleNamespace(callback_invoker=None, name=f"message {i}") for i in range(n)]


def test_a_ticks_messages_go_out_as_one_patch_doc_per_connection(pristine):
    assert bm.batch_widget_messages() is True
    doc, session, other_saw = _fake_session_doc()
    events = _events(4)
    ws = _websocket(doc, events)
    PanelSessionWebsocket._dispatch(ws)
    for conn in session._subscribed_connections:
        assert conn.created == [("PATCH-DOC", events)]           # one message, every event, in order
    assert len(session._pending_writes) == 2                     # one write per connection, awaited by Bokeh
    assert other_saw == events                                   # the other callbacks: each event, one by one
    assert ws._queue == [] and pristine["dispatched"] == 0


def test_one_message_a_held_document_or_no_server_session_go_out_as_panel_sends_them(pristine):
    assert bm.batch_widget_messages() is True
    doc, session, _ = _fake_session_doc()
    PanelSessionWebsocket._dispatch(_websocket(doc, _events(1)))
    assert pristine["dispatched"] == 1 and all(c.created == [] for c in session._subscribed_connections)
    held, session, _ = _fake_session_doc(hold="combine")
    PanelSessionWebsocket._dispatch(_websocket(held, _events(3)))
    assert pristine["dispatched"] == 2 and all(c.created == [] for c in session._subscribed_connections)
    notebook = SimpleNamespace(session_context=None, callbacks=SimpleNamespace(_hold=None, _change_callbacks={}))
    PanelSessionWebsocket._dispatch(_websocket(notebook, _events(3)))
    assert pristine["dispatched"] == 3


def _opening(events, *which):
    for i in which:
        setattr(events[i], bm._OPENS, True)
    return events


def test_a_run_ends_after_its_comm_opens_so_nothing_shares_a_patch_doc_with_the_open_it_addresses(pristine):
    """The browser hooks a new widget's comm up only after building its model (asynchronously): a message handled
    in the same task as that widget's comm_open was dropped (the Orders page's ARO rows never showed). Runs end
    after their comm_open messages; consecutive opens stay together; every event once, in order."""
    ev = _opening(_events(8), 2, 3, 6)
    assert [[e.name for e in run] for run in bm.batches(ev)] == [
        ["message 0", "message 1", "message 2", "message 3"], ["message 4", "message 5", "message 6"], ["message 7"]]
    assert [len(r) for r in bm.batches(_events(3))] == [3]   # nothing opened: one run
    assert [len(r) for r in bm.batches(_opening(_events(2), 0, 1))] == [2]
    assert bm.batches([]) == []
    # dispatched: one PATCH-DOC per run, per connection, in order
    assert bm.batch_widget_messages() is True
    doc, session, other_saw = _fake_session_doc()
    PanelSessionWebsocket._dispatch(_websocket(doc, ev))
    for conn in session._subscribed_connections:
        assert [[e.name for e in events] for _, events in conn.created] == [
            ["message 0", "message 1", "message 2", "message 3"], ["message 4", "message 5", "message 6"],
            ["message 7"]]
    assert len(session._pending_writes) == 6 and other_saw == ev


def test_panels_send_marks_the_comm_open_it_queues(pristine):
    """What :func:`bm.batches` reads: the patched ``PanelSessionWebsocket.send`` marks the event of a comm_open,
    and only that one (a real Panel session websocket on a Bokeh document, no server)."""
    assert bm.batch_widget_messages() is True
    ws = PanelSessionWebsocket(document=Document(), parent=None, key=b"")
    stream = SimpleNamespace(channel="iopub")
    for kind in ("comm_open", "comm_msg", "status", "comm_open"):
        ws.send(stream, kind, content={"comm_id": "c", "data": {}})
    assert [bm.opens_a_comm(e) for e in ws._queue] == [True, False, False, True]


def test_a_message_that_cannot_be_made_sends_them_one_by_one(pristine):
    assert bm.batch_widget_messages() is True
    doc, session, other_saw = _fake_session_doc()
    session._subscribed_connections[1].protocol.create = lambda *a: 1 / 0
    PanelSessionWebsocket._dispatch(_websocket(doc, _events(3)))
    assert pristine["dispatched"] == 1 and session._pending_writes == [] and other_saw == []


def test_no_busy_status_but_every_idle(pristine):
    assert bm.batch_widget_messages() is True
    for status in ("busy", "idle", "busy", "idle", "starting"):
        PanelKernel._publish_status(None, status, "shell")
    assert pristine["status"] == ["idle", "idle", "starting"]


def test_applying_it_again_adds_no_second_layer(pristine):
    assert bm.batch_widget_messages() is True
    first = PanelSessionWebsocket._dispatch, PanelKernel._publish_status, PanelSessionWebsocket.send
    assert bm.batch_widget_messages() is True
    assert (PanelSessionWebsocket._dispatch, PanelKernel._publish_status, PanelSessionWebsocket.send) == first


def test_disabled_on_a_version_mismatch(pristine, installed, quiet_versions):
    installed(bokeh="3.10.0")
    before = PanelSessionWebsocket._dispatch, PanelKernel._publish_status
    assert bm.batch_widget_messages() is False
    assert (PanelSessionWebsocket._dispatch, PanelKernel._publish_status) == before


def test_bokehs_protocol_carries_several_widget_messages_and_their_buffers_in_one_patch_doc():
    """What the batching relies on (bokeh 3.9): a PATCH-DOC made of several ipywidgets messages, text and binary,
    keeps each event and each buffer."""
    doc = Document()
    events = [MessageSentEventPatched(doc, "ipywidgets_bokeh", '{"a": 1}'),
              MessageSentEventPatched(doc, "ipywidgets_bokeh", b"\x00\x01canvas"),
              MessageSentEventPatched(doc, "ipywidgets_bokeh", b"\x02more"),
              MessageSentEventPatched(doc, "ipywidgets_bokeh", '{"b": 2}')]
    msg = Protocol().create("PATCH-DOC", events)
    assert [e["kind"] for e in msg.content["events"]] == ["MessageSent"] * 4
    assert msg.content["events"][0]["msg_data"] == '{"a": 1}' and msg.content["events"][3]["msg_data"] == '{"b": 2}'
    assert sorted(b.to_bytes() for b in msg.buffers) == [b"\x00\x01canvas", b"\x02more"]
    assert msg.header["num_buffers"] == 2


def test_off_unless_the_environment_turns_it_on(monkeypatch):
    """Off by default; exactly "1" turns it on."""
    monkeypatch.delenv(bm.BATCH_ENV, raising=False)
    assert bm.batching_enabled() is False
    for value, on in (("1", True), (" 1 ", True), ("0", False), ("yes", False), ("", False)):
        monkeypatch.setenv(bm.BATCH_ENV, value)
        assert bm.batching_enabled() is on
