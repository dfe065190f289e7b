"""A browser-less session of a served page: the Bokeh websocket protocol spoken directly, widget clicks sent as the
browser's ipywidgets messages (for ``benchmarks/load_test.py`` and ``tests/serving/test_ws_session.py``).

What a browser does, and what this does instead:

1. ``GET`` the page: the HTML carries a session token (``"token":"..."``).
2. Open ``ws://host/<route>/ws`` with the subprotocols ``["bokeh", token]``: the server builds the session's widget
   tree now (``explorer serve`` renders plain GETs from a cached page) and answers ``ACK``.
3. ``PULL-DOC-REQ`` → ``PULL-DOC-REPLY``: the page's Bokeh document as JSON. The ``IPyWidget`` model's ``bundle``
   holds every ipywidget's state by model id; the model id is the comm id the server listens on. The document is
   read as JSON only (it is never rebuilt into Bokeh models: the page's own models are not importable here).
4. A click is a ``PATCH-DOC`` carrying one ``MessageSent`` event of type ``ipywidgets_bokeh`` whose data is a
   Jupyter ``comm_msg`` (``{"method": "custom", "content": {"event": "click"}}``) to the button's comm id — the
   message ipywidgets' JavaScript sends for a button click.
5. The click's latency is the time until the server's first ``PATCH-DOC`` that updates another widget's state (the
   page's answer), then the session drains what follows until the server is quiet for ``quiet`` seconds.

Only the protocol (bokeh 3.9 message framing: header, metadata and content text frames, then buffers) is assumed;
``tests/serving/test_ws_session.py`` drives a live server with it.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
import urllib.request
import uuid
from dataclasses import dataclass, field
from typing import Any

_TOKEN = re.compile(r'"token":\s*"([^"]+)"')


def _plain(o: Any) -> Any:
    """Bokeh's serialised ``{"type": "map", "entries": [[key, value], ...]}`` (and lists of them) as plain dicts."""
    if isinstance(o, dict):
        if o.get("type") == "map" and "entries" in o:
            return {k: _plain(v) for k, v in o["entries"]}
        return {k: _plain(v) for k, v in o.items()}
    if isinstance(o, list):
        return [_plain(v) for v in o]
    return o


def _header(msgtype: str) -> dict[str, Any]:
    return {"msgid": uuid.uuid4().hex[:16], "msgtype": msgtype}


@dataclass
class Session:
    """One browser-less session of ``url`` (``http://host:port/route``); :meth:`open` it, then :meth:`click`."""

    url: str
    cookie: str = ""
    """The cookies the page's response set (``name=value; ...``), sent back with the websocket request: behind the
    README's nginx they pick the upstream (sticky sessions)."""
    conn: Any = None
    state: dict[str, dict] = field(default_factory=dict)
    """``{model id: {"model_name", "state"}}`` of every ipywidget of the page (from the pulled document)."""
    received: int = 0

    async def _send(self, msgtype: str, content: dict) -> None:
        for part in (_header(msgtype), {}, content):
            await self.conn.write_message(json.dumps(part))

    async def _recv(self, timeout: float) -> tuple[dict, dict] | None:
        """The next whole message ``(header, content)``, or ``None`` after ``timeout`` seconds of silence."""
        try:
            frame = await asyncio.wait_for(self.conn.read_message(), timeout)
        except asyncio.TimeoutError:
            return None
        if frame is None:
            raise ConnectionError(f"{self.url}: the server closed the websocket")
        header = json.loads(frame)
        await self.conn.read_message()                       # metadata
        content = json.loads(await self.conn.read_message())
        for _ in range(2 * int(header.get("num_buffers", 0))):   # buffer header + payload, unread
            await self.conn.read_message()
        self.received += 1
        return header, content

    async def open(self, timeout: float = 120) -> float:
        """Get the page, open its websocket, pull its document; returns the seconds it took.

        Raises:
            ConnectionError: no token in the page, the websocket refused or closed, no document.
        """
        from tornado.websocket import websocket_connect

        t = time.perf_counter()
        loop = asyncio.get_running_loop()
        def get():
            with urllib.request.urlopen(self.url, timeout=timeout) as r:
                return r.read(), r.headers.get_all("Set-Cookie") or []
        html, cookies = await loop.run_in_executor(None, get)
        self.cookie = "; ".join(c.split(";", 1)[0] for c in cookies)
        m = _TOKEN.search(html.decode("utf-8", "replace"))
        if m is None:
            raise ConnectionError(f"{self.url}: no session token in the page")
        ws = self.url.replace("http://", "ws://", 1).split("?")[0].rstrip("/") + "/ws"
        from tornado.httpclient import HTTPRequest

        request = HTTPRequest(ws, headers={"Cookie": self.cookie} if self.cookie else {})
        self.conn = await asyncio.wait_for(websocket_connect(request, subprotocols=["bokeh", m.group(1)],
                                                             max_message_size=256 * 2**20), timeout)
        await self._recv(timeout)                                         # ACK
        await self._send("PULL-DOC-REQ", {})
        while True:
            got = await self._recv(timeout)
            if got is None:
                raise ConnectionError(f"{self.url}: no document within {timeout} s")
            if got[0]["msgtype"] == "PULL-DOC-REPLY":
                self._read_widgets(got[1])
                break
        return time.perf_counter() - t

    def _read_widgets(self, content: dict) -> None:
        def walk(o):
            if isinstance(o, dict):
                if o.get("name") == "ipywidgets_bokeh.widget.IPyWidget":
                    bundle = _plain(o.get("attributes", {}).get("bundle"))
                    self.state.update(bundle.get("state", {}).get("state", {}))
                for v in o.values():
                    walk(v)
            elif isinstance(o, list):
                for v in o:
                    walk(v)
        walk(content)

    def buttons(self) -> dict[str, str]:
        """``{description: model id}`` of the page's buttons."""
        return {v["state"].get("description", ""): k for k, v in self.state.items()
                if v.get("model_name") == "ButtonModel"}

    def dropdowns(self) -> dict[tuple[str, ...], str]:
        """``{option labels: model id}`` of the page's dropdowns."""
        return {tuple(v["state"].get("_options_labels", ())): k for k, v in self.state.items()
                if v.get("model_name") == "DropdownModel"}

    @staticmethod
    def select_message(model_id: str, index: int) -> dict:
        """The ``PATCH-DOC`` content of picking option ``index`` of the dropdown ``model_id`` (what the browser
        sends: an ipywidgets ``update`` of its ``index``)."""
        msg = {"header": {"msg_id": uuid.uuid4().hex, "msg_type": "comm_msg", "username": "load-test",
                          "session": uuid.uuid4().hex, "date": "2026-01-01T00:00:00Z", "version": "5.3"},
               "parent_header": {}, "metadata": {}, "channel": "shell",
               "content": {"comm_id": model_id, "data": {"method": "update", "state": {"index": index},
                                                          "buffer_paths": []}}}
        return {"events": [{"kind": "MessageSent", "msg_type": "ipywidgets_bokeh", "msg_data": json.dumps(msg)}]}

    @staticmethod
    def click_message(model_id: str) -> dict:
        """The ``PATCH-DOC`` content of a click on the button ``model_id`` (what the browser sends)."""
        msg = {"header": {"msg_id": uuid.uuid4().hex, "msg_type": "comm_msg", "username": "load-test",
                          "session": uuid.uuid4().hex, "date": "2026-01-01T00:00:00Z", "version": "5.3"},
               "parent_header": {}, "metadata": {}, "channel": "shell",
               "content": {"comm_id": model_id, "data": {"method": "custom", "content": {"event": "click"}}}}
        return {"events": [{"kind": "MessageSent", "msg_type": "ipywidgets_bokeh", "msg_data": json.dumps(msg)}]}

    async def click(self, model_id: str, timeout: float = 60, quiet: float = 0.15) -> float:
        """Click the button ``model_id``; returns the seconds until the server's first update of another widget.

        Raises:
            TimeoutError: no update within ``timeout`` seconds.
        """
        t = time.perf_counter()
        await self._send("PATCH-DOC", self.click_message(model_id))
        answered = None
        end = t + timeout
        while answered is None:
            left = end - time.perf_counter()
            if left <= 0:
                raise TimeoutError(f"{self.url}: no answer to the click within {timeout} s")
            got = await self._recv(left)
            if got is not None and got[0]["msgtype"] == "PATCH-DOC" and self._updates_other(got[1], model_id):
                answered = time.perf_counter() - t
        while await self._recv(quiet) is not None:   # drain the rest of the answer
            pass
        return answered

    @staticmethod
    def _updates_other(content: dict, model_id: str) -> bool:
        for ev in content.get("events", ()):
            if ev.get("kind") != "MessageSent" or ev.get("msg_type") != "ipywidgets_bokeh":
                continue
            data = ev.get("msg_data")
            if isinstance(data, str) and '"update"' in data and model_id not in data:
                return True
        return False

    async def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None
