"""The served app's two patches of how a session reads a browser's widget message (:mod:`explorer.serving.comm_opens`,
:mod:`explorer.serving.binary_messages`): skipping the browser's comm_opens and reading binary frames (uploads). Each
page build asks for them again; in any order, each patch is one layer, and each keeps working under the other."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("panel.io.ipywidget")

from panel.io.ipywidget import PanelSessionWebsocket  # noqa: E402

from explorer.serving.binary_messages import accept_binary_widget_messages  # noqa: E402
from explorer.serving.comm_opens import skip_browser_comm_opens  # noqa: E402


@pytest.fixture
def pristine():
    seen = []

    def receive(self, data):
        seen.append(data)
        return "dispatched"

    old = PanelSessionWebsocket.receive
    PanelSessionWebsocket.receive = receive
    yield seen
    PanelSessionWebsocket.receive = old


def _layers() -> int:
    n, f = 0, PanelSessionWebsocket.receive
    while getattr(f, "_explorer_patches", None):
        n += 1
        f = next(c.cell_contents for c in f.__closure__ if callable(c.cell_contents)
                 and c.cell_contents.__name__ in ("receive", "receive_skipping_comm_open", "receive_binary"))
    return n


@pytest.mark.parametrize("order", [("skip", "binary"), ("binary", "skip")])
def test_each_patch_is_one_layer_whatever_the_order(pristine, order):
    calls = {"skip": skip_browser_comm_opens, "binary": accept_binary_widget_messages}
    for _ in range(3):   # every page build applies them again
        for name in order:
            assert calls[name]() is True
    assert PanelSessionWebsocket.receive._explorer_patches == {"_skips_comm_open", "_reads_binary"}
    assert _layers() == 2
    comm_open = json.dumps({"channel": "shell", "header": {"msg_type": "comm_open"}, "content": {}})
    update = json.dumps({"channel": "shell", "header": {"msg_type": "comm_msg"}, "content": {}})
    assert PanelSessionWebsocket.receive(None, comm_open) is None        # skipped
    assert PanelSessionWebsocket.receive(None, update) == "dispatched"   # text goes on as before
    assert PanelSessionWebsocket.receive(None, b"\x00\x00") is None      # a broken binary frame is dropped
    assert pristine == [update]


def test_without_the_patch_a_browser_comm_open_is_dispatched(pristine):
    """What skip_browser_comm_opens removes: each browser comm_open went to the kernel (a busy and an idle status
    message back, for nothing)."""
    comm_open = json.dumps({"channel": "shell", "header": {"msg_type": "comm_open"}, "content": {}})
    assert PanelSessionWebsocket.receive(None, comm_open) == "dispatched"
    assert skip_browser_comm_opens() is True
    assert PanelSessionWebsocket.receive(None, comm_open) is None
    assert pristine == [comm_open]


def test_skip_browser_comm_opens_is_disabled_on_a_mismatch(pristine, installed, quiet_versions):
    installed(ipywidgets_bokeh="1.9.0")
    before = PanelSessionWebsocket.receive
    assert skip_browser_comm_opens() is False
    assert PanelSessionWebsocket.receive is before


# --- binary frames through Panel's real session (ipywidgets_bokeh's receive underneath)

def _frame(msg: dict, buffers: list[bytes]) -> bytes:
    parts = [json.dumps(msg).encode("utf-8"), *buffers]
    offsets, start = [], 4 * (1 + len(parts))
    for p in parts:
        offsets.append(start)
        start += len(p)
    return b"".join([len(parts).to_bytes(4, "big"), *(o.to_bytes(4, "big") for o in offsets), *parts])


@pytest.fixture
def session():
    """Panel's session websocket of a fresh document (its ``receive`` as ipywidgets_bokeh 1.8 wrote it), and what its
    kernel dispatches: ``(session, dispatched frame lists)``."""
    from bokeh.document import Document
    from serving_helpers import run_async
    from ipywidgets_bokeh.kernel import SessionWebsocket
    from panel.io.ipywidget import _get_kernel
    from panel.io.state import state

    old = PanelSessionWebsocket.receive
    PanelSessionWebsocket.receive = SessionWebsocket.receive   # unpatched
    doc = Document()
    kernel = _get_kernel(doc=doc)
    dispatched = []

    async def dispatch_shell(frames):
        dispatched.append(frames)

    class Loop:
        def add_callback(self, f):
            run_async(f())

    kernel.dispatch_shell, kernel.io_loop = dispatch_shell, Loop()
    yield kernel.session, dispatched
    PanelSessionWebsocket.receive = old
    state._ipykernels.pop(doc, None)


def _upload_message(session) -> dict:
    msg = session.msg("comm_msg", content={"comm_id": "c1", "data": {"method": "update", "state": {},
                                                                        "buffer_paths": [["value", 0, "content"]]}})
    msg["channel"] = "shell"
    return json.loads(json.dumps(msg, default=str))


def test_without_the_patch_an_uploaded_file_never_reaches_the_kernel(session):
    ws, dispatched = session
    with pytest.raises(UnicodeDecodeError):   # ipywidgets_bokeh 1.8: json.loads of the binary frame
        ws.receive(_frame(_upload_message(ws), [b"title = 'x'\n"]))
    assert dispatched == []


def test_accept_binary_widget_messages_hands_the_message_and_its_file_to_the_kernel(session):
    ws, dispatched = session
    assert accept_binary_widget_messages() is True
    msg = _upload_message(ws)
    assert ws.receive(_frame(msg, [b"title = 'x'\n"])) is None
    (frames,) = dispatched
    got = ws.deserialize(ws.feed_identities(frames)[1], content=True)
    assert got["content"] == msg["content"] and got["header"]["msg_type"] == "comm_msg"
    assert [bytes(b) for b in got["buffers"]] == [b"title = 'x'\n"]
    text = json.dumps({"channel": "iopub", "header": {"msg_type": "status"}, "content": {}})
    assert ws.receive(text) is None and len(dispatched) == 1   # text goes on to ipywidgets_bokeh, as before
