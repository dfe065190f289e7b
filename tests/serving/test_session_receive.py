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
