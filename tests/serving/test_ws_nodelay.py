"""Every served page's websocket is opened with ``TCP_NODELAY`` (:mod:`explorer.serving.ws_nodelay`): checked on
the server's own socket of a real websocket to a Panel server in this process, with and without the patch, and the
switch interval a served process sets once it offloads (:func:`explorer.serving.offload.short_switch_interval`)."""

from __future__ import annotations

import asyncio
import socket
import sys

import pytest

pn = pytest.importorskip("panel")

from bokeh.util.token import generate_jwt_token, generate_session_id  # noqa: E402
from panel.io.server import WSHandler  # noqa: E402
from panel.io.state import state  # noqa: E402
from serving_helpers import run_async  # noqa: E402

from explorer.serving import offload  # noqa: E402
from explorer.serving import ws_nodelay  # noqa: E402


def _free_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def _server_side_nodelay() -> int:
    """Open a websocket to a one-route Panel server of this process; the ``TCP_NODELAY`` option of the server's
    socket of that connection, read once Bokeh's ``open`` has run."""
    from tornado.websocket import websocket_connect

    seen: list[int] = []
    patched = WSHandler.open

    def spy(self, *args, **kwargs):
        out = patched(self, *args, **kwargs)
        seen.append(self.ws_connection.stream.socket.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
        return out

    async def main() -> None:
        port = _free_port()
        srv = pn.serve({"/page": lambda: pn.pane.Markdown("hello")}, start=False, port=port, address="127.0.0.1",
                       show=False, print_url=False)
        try:
            token = generate_jwt_token(generate_session_id(), secret_key=None, signed=False)
            conn = await websocket_connect(f"ws://127.0.0.1:{port}/page/ws", subprotocols=["bokeh", token])
            for _ in range(200):
                if seen:
                    break
                await asyncio.sleep(0.01)
            conn.close()
        finally:
            srv.stop()
            srv.unlisten()

    WSHandler.open = spy
    try:
        run_async(main())
    finally:
        WSHandler.open = patched
    assert seen, "the websocket was never opened"
    return seen[0]


@pytest.fixture
def pristine(monkeypatch):
    """Panel's handler and the patch's flag as they were; Panel's session cache put back afterwards."""
    monkeypatch.setattr(state, "_sessions", {})
    monkeypatch.setattr(state, "_session_key_funcs", {})
    monkeypatch.setattr(WSHandler, "open", WSHandler.open)
    monkeypatch.setattr(ws_nodelay, "_applied", ws_nodelay._applied)


def test_a_served_pages_websocket_sends_without_nagle(pristine):
    assert ws_nodelay.websocket_nodelay()
    assert _server_side_nodelay() != 0


def test_without_the_patch_tornado_leaves_nagle_on(pristine):
    original = WSHandler.open
    while hasattr(original, "__wrapped__") and original.__module__ == ws_nodelay.__name__:
        original = original.__wrapped__
    WSHandler.open = original
    assert _server_side_nodelay() == 0


def test_applying_it_again_wraps_once_and_a_mismatch_leaves_it_out(pristine, monkeypatch):
    ws_nodelay.websocket_nodelay()
    once = WSHandler.open
    assert ws_nodelay.websocket_nodelay() and WSHandler.open is once
    monkeypatch.setattr(ws_nodelay, "_applied", False)
    monkeypatch.setattr(ws_nodelay, "allowed", lambda name: False)
    assert not ws_nodelay.websocket_nodelay() and WSHandler.open is once


def test_a_socket_that_refuses_the_flag_is_still_opened(pristine):
    calls = []

    class Handler:
        request = type("Request", (), {"path": "/page/ws"})()

        def set_nodelay(self, value):
            raise OSError("closed")

    opened = ws_nodelay._wrap(lambda self: calls.append(self) or "opened")
    h = Handler()
    assert opened(h) == "opened" and calls == [h]


@pytest.mark.parametrize("raw, ms", [(None, 0.5), ("", 0.5), ("2", 2.0), ("0", 0.0), ("0.05", 0.05), ("100", 100.0),
                                     ("0.01", 0.5), ("1000", 0.5), ("fast", 0.5), ("nan", 0.5), ("-1", 0.5)])
def test_the_switch_interval_reads_its_variable_within_bounds(raw, ms, caplog):
    env = {} if raw is None else {offload.SWITCH_INTERVAL_ENV: raw}
    assert offload.switch_interval_ms(env) == ms
    bad = raw not in (None, "") and ms == 0.5 and raw != "0.5"
    assert any(offload.SWITCH_INTERVAL_ENV in r.getMessage() and "0.05 to 100" in r.getMessage()
               for r in caplog.records) == bad


def test_the_first_offloader_shortens_the_switch_interval_once(monkeypatch):
    before = sys.getswitchinterval()
    monkeypatch.setattr(offload, "_switch_set", False)
    monkeypatch.setenv(offload.SWITCH_INTERVAL_ENV, "0.25")
    try:
        offload.session_offloader(doc=None)
        assert sys.getswitchinterval() == pytest.approx(0.00025)
        sys.setswitchinterval(before)
        assert offload.short_switch_interval() is None   # once per process
        assert sys.getswitchinterval() == before
        monkeypatch.setattr(offload, "_switch_set", False)
        monkeypatch.setenv(offload.SWITCH_INTERVAL_ENV, "0")
        assert offload.short_switch_interval() is None and sys.getswitchinterval() == before
    finally:
        sys.setswitchinterval(before)
