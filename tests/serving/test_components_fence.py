"""The served app exposes only its own routes (issue #25 item 2): Panel's ``/components/`` route imports no module and
answers no 500, ``/explorer-stats`` is off unless asked for and cheap, and the static routes read nothing outside
their directory. The unit tests check the fence itself; the live tests start ``explorer serve`` and try the routes.
"""

from __future__ import annotations

import http.client
import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from explorer.serving.components_fence import ALLOWED_PACKAGES, MAX_PATH_CHARS, fence_components, refusal

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("path, status", [
    ("this/a/b/c", 404),                       # not allowed: would print the Zen of Python
    ("jupyterlab/a/b/c", 404),                 # not allowed: blocked every session for ~9 s
    ("os/path/css/x", 404),
    ("panel.not_imported_module/a/css/x", 404),   # allowed package, but not imported: never imported for a request
    ("../../../etc/passwd", 400),
    ("..", 400), ("", 400), ("a/b", 400),
    ("pa-nel/a/css/x", 400), ("panel..io/a/css/x", 400), ("panel/%2e%2e/css/x", 400),
    ("panel/" + "a/" * MAX_PATH_CHARS, 400),
])
def test_the_fence_refuses_what_it_must(path, status):
    assert refusal(path) is not None and refusal(path)[0] == status


def test_the_fence_lets_loaded_panel_modules_through():
    import panel.io.resources  # noqa: F401  (loaded by every served page)

    assert "panel" in ALLOWED_PACKAGES and refusal("panel.io.resources/Resources/css/x.css") is None


def test_a_request_for_a_module_imports_nothing_with_the_fence(monkeypatch):
    """Without the fence Panel's handler imports the first part of the path (``importlib.import_module``); with it,
    a request for a module that is not loaded answers 404 and the module stays unloaded."""
    from panel.io.server import ComponentResourceHandler
    from tornado.web import HTTPError

    imported = []
    import importlib

    real = importlib.import_module
    monkeypatch.setattr(importlib, "import_module", lambda name, *a: imported.append(name) or real(name, *a))
    assert fence_components()
    handler = ComponentResourceHandler.__new__(ComponentResourceHandler)
    for path, status in (("xml.dom.minidom/Node/css/x", 404), ("../../..", 400), ("panel/../css/x", 400)):
        with pytest.raises(HTTPError) as e:
            handler.parse_url_path(path)
        assert e.value.status_code == status, path
    assert imported == []
    # an allowed, loaded module reaches Panel's own checks (which refuse an unlisted file with 403, not a 500)
    import panel.layout.base  # noqa: F401

    with pytest.raises(HTTPError) as e:
        handler.parse_url_path("panel.layout.base/Column/_stylesheets/../../../../etc/passwd")
    assert e.value.status_code in (403, 404)


# ------------------------------------------------------------------------------------------------ live server


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _get(port: int, path: str) -> tuple[int, bytes]:
    """A raw GET of ``path`` exactly as written (no client-side normalising of ``..``)."""
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    c.putrequest("GET", path, skip_accept_encoding=True)
    c.endheaders()
    r = c.getresponse()
    body = r.read()
    c.close()
    return r.status, body


def _serve(tmp: Path, *extra: str):
    """``explorer serve --no-warm [extra]`` on a free port; ``(port, log path, process)`` once it answers."""
    port, log = _free_port(), tmp / "serve.log"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with open(log, "w") as f:
        proc = subprocess.Popen([sys.executable, "-m", "explorer", "serve", "--port", str(port), "--no-warm",
                                 "--static-dir", str(tmp / "js"), *extra], stdout=f, stderr=f, env=env,
                                start_new_session=True)
    for _ in range(240):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/favicon.ico", timeout=5).read()
            return port, log, proc
        except OSError:
            if proc.poll() is not None:
                pytest.fail(log.read_text()[-2000:])
            time.sleep(0.5)
    _stop(proc)
    pytest.fail("explorer serve did not answer in 120 s")


def _stop(proc) -> None:
    proc.terminate()
    try:
        proc.wait(20)
    except subprocess.TimeoutExpired:
        proc.kill()


@pytest.fixture(scope="module")
def live(tmp_path_factory):
    """``explorer serve --no-warm`` (without ``--stats``) on a free port, its log file."""
    port, log, proc = _serve(tmp_path_factory.mktemp("fence"))
    try:
        yield port, log, proc
    finally:
        _stop(proc)


TRAVERSALS = [
    "/widget-js/../../../../etc/passwd", "/widget-js/..%2f..%2f..%2f..%2fetc%2fpasswd",
    "/widget-js/%2e%2e/%2e%2e/%2e%2e/etc/passwd", "/widget-js/....//....//etc/passwd",
    "/widget-js//etc/passwd", "/widget-js/%2fetc%2fpasswd", "/widget-js/..%5c..%5c..%5cetc%5cpasswd",
    "/static/../../../../etc/passwd", "/static/%2e%2e/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
    "/static/..%2f..%2f..%2f..%2f..%2fetc%2fpasswd", "/static//etc/passwd",
    "/components/../../../etc/passwd", "/components/%2e%2e/%2e%2e/etc/passwd",
    "/components/panel/../../../../etc/passwd", "/components/os/path/css/..%2f..%2fetc%2fpasswd",
    "/components/panel.io.resources/Resources/css/..%2f..%2f..%2f..%2f..%2f..%2fetc%2fpasswd",
]


@pytest.mark.slow
def test_live_components_route_imports_nothing_and_never_answers_500(live):
    port, log, _ = live
    for path, allowed in (("/components/this/a/b/c", {404}), ("/components/antigravity/a/b/c", {404}),
                          ("/components/jupyterlab/a/b/c", {404}), ("/components/../../..", {400, 404}),
                          ("/components/" + "x" * 5000, {400}), ("/components/panel/x/css/y", {403, 404})):
        status, _ = _get(port, path)
        assert status in allowed, (path, status)
    text = log.read_text(errors="replace")
    assert "Beautiful is better than ugly" not in text   # `this` was not imported
    assert "Traceback" not in text and " 500 " not in text, text[-3000:]


@pytest.mark.slow
def test_live_static_routes_read_nothing_outside_their_directory(live):
    port, log, _ = live
    secret = Path("/etc/passwd").read_bytes()[:20] if Path("/etc/passwd").exists() else b"root:"
    for path in TRAVERSALS:
        status, body = _get(port, path)
        assert status in (400, 403, 404), (path, status)
        assert secret not in body, path
    assert "Traceback" not in log.read_text(errors="replace")


@pytest.mark.slow
def test_live_stats_route_is_off_unless_asked_for(live):
    port, _, _ = live
    assert _get(port, "/explorer-stats")[0] == 404


@pytest.mark.slow
def test_live_stats_route_answers_per_process_with_its_id(tmp_path):
    port, _, proc = _serve(tmp_path, "--stats")
    try:
        stats = json.loads(urllib.request.urlopen(f"http://127.0.0.1:{port}/explorer-stats", timeout=30).read())
        assert stats["pid"] == proc.pid
        assert "explorer_objects" not in stats   # the cheap answer: no garbage-collection walk
        deep = json.loads(urllib.request.urlopen(f"http://127.0.0.1:{port}/explorer-stats?deep=1", timeout=60).read())
        assert deep["pid"] == proc.pid and deep["explorer_objects"] > 0 and deep["bokeh_documents"] >= 0
    finally:
        _stop(proc)


@pytest.mark.slow
def test_live_websocket_without_the_bokeh_subprotocol_is_refused_without_a_traceback(live):
    from serving_helpers import run_async
    from tornado.websocket import websocket_connect

    port, log, _ = live

    async def connect(path):
        c = await websocket_connect(f"ws://127.0.0.1:{port}{path}")
        return await c.read_message()   # None: the server closed the connection

    for path in ("/tagraid-face-to-face/ws", "/ws"):
        assert run_async(connect(path)) is None
    # the server writes its line after Bokeh has closed the connection: read the log until it is there (at most 60 s:
    # a loaded 2-core machine may write it late), not after a fixed half second
    end = time.monotonic() + 60
    while "websocket refused" not in (text := log.read_text(errors="replace")) and time.monotonic() < end:
        time.sleep(0.2)
    assert "websocket refused" in text and "Traceback" not in text, text[-3000:]
