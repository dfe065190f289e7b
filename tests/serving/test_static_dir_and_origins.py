"""``explorer serve --static-dir`` takes only a new, empty or explorer-made directory and never deletes what it did not
make, each path fault named as such; IPv6 addresses get bracketed websocket origins and pages (issue #25)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from explorer.cli import main
from explorer.errors import ScenarioError
from explorer.serving.static_dir import MARKER, SUBDIR, check_static_dir, prepare_static_dir

ROOT = Path(__file__).resolve().parents[2]


def _fault(path) -> str:
    with pytest.raises(ScenarioError) as e:
        check_static_dir(path)
    msg = str(e.value)
    assert msg.startswith("field '--static-dir': ") and "\n" not in msg, msg
    return msg


def test_a_directory_it_did_not_make_is_refused_and_nothing_in_it_is_deleted(tmp_path):
    theirs = tmp_path / "theirs"
    (theirs / SUBDIR).mkdir(parents=True)
    (theirs / SUBDIR / "keep.js").write_text("mine")
    assert "is not empty and was not made by explorer serve" in _fault(theirs)
    with pytest.raises(ScenarioError):
        prepare_static_dir(theirs)
    assert (theirs / SUBDIR / "keep.js").read_text() == "mine"
    for system in ("/", "/etc"):
        assert "is not empty" in _fault(system)
    assert not Path("/explorer-widget-js").exists()


def test_a_new_or_empty_directory_is_made_or_marked_and_its_own_subdir_refilled(tmp_path):
    new = tmp_path / "new"
    only = prepare_static_dir(new)
    assert only == new / SUBDIR and (new / MARKER).is_file()
    only.mkdir()
    (only / "old.js").write_text("from the last start")
    assert prepare_static_dir(new) == only and not only.exists()  # emptied: explorer made it
    empty = tmp_path / "empty"
    empty.mkdir()
    prepare_static_dir(empty)
    assert sorted(os.listdir(empty)) == [MARKER]
    (empty / "notes.txt").write_text("a user's file")
    assert "holds 'notes.txt', which explorer serve did not make" in _fault(empty)


def test_a_marked_directory_whose_subdir_is_a_link_elsewhere_is_refused_and_the_target_kept(tmp_path):
    """A directory holding the marker and an ``explorer-widget-js`` that is a symbolic link (to a user's folder) is
    refused in one line, and nothing the link points at is deleted (issue #25 check)."""
    theirs = tmp_path / "theirs"
    theirs.mkdir()
    (theirs / "keep.txt").write_text("a user's file")
    made = tmp_path / "made"
    made.mkdir()
    (made / MARKER).write_text("")
    (made / SUBDIR).symlink_to(theirs)
    with pytest.raises(ScenarioError, match=f"holds an {SUBDIR} that is not a directory explorer serve made"):
        prepare_static_dir(made)
    assert (theirs / "keep.txt").read_text() == "a user's file"


@pytest.mark.parametrize("make, words", [
    (lambda p: (p.write_text("x"), p)[1], "is a file, not a directory"),
    (lambda p: os.mkfifo(p) or p, "is a FIFO (named pipe), not a directory"),
    (lambda p: Path("/dev/null"), "is a device, not a directory"),
    (lambda p: p / "a" / "b", "has a parent directory that does not exist"),
    (lambda p: Path("/" + "x" * 5000), "is too long a path for this system"),
    (lambda p: (p.write_text("x"), p / "sub")[1], "has a part that is not a directory"),
])
def test_each_path_fault_is_named_as_such(tmp_path, make, words):
    path = make(tmp_path / "target")
    msg = _fault(path)
    assert words in msg and "cannot listen" not in msg, msg


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write anywhere")
def test_a_directory_it_cannot_write_is_named(tmp_path):
    ro = tmp_path / "ro"
    ro.mkdir(mode=0o500)
    assert "cannot be written" in _fault(ro)


def test_serve_refuses_a_bad_static_dir_in_one_line_before_it_starts(capsys):
    assert main(["serve", "--static-dir", "/etc", "--port", "5999"]) == 2
    out = capsys.readouterr()
    assert out.out == "" and out.err.count("\n") == 1 and "'--static-dir'" in out.err and "not empty" in out.err


def test_websocket_origins_bracket_ipv6_addresses(monkeypatch):
    from bokeh.settings import settings
    from bokeh.server.util import create_hosts_allowlist

    from explorer.serving.origins import origin_host, websocket_origins

    assert origin_host("::1") == "[::1]" and origin_host("127.0.0.1") == "127.0.0.1"
    monkeypatch.setattr(settings.allowed_ws_origin, "_user_value", settings.allowed_ws_origin._user_value)
    plain = websocket_origins("127.0.0.1", 5006, ["rules.example.org"])
    assert plain == ["127.0.0.1:5006", "localhost:5006", "rules.example.org"]
    v6 = websocket_origins("::1", 5006, ["rules.example.org"])
    create_hosts_allowlist(v6, 5006)  # what Panel is given parses (it raised "Invalid host value" before)
    assert "[::1]:5006" in settings.allowed_ws_origin() and "rules.example.org:80" in settings.allowed_ws_origin()


def test_the_location_of_an_ipv6_or_malformed_host_is_read_not_a_500():
    from panel.io import location

    from explorer.serving.ipv6_host import ipv6_host_locations

    assert ipv6_host_locations()
    p = location._get_location_params("http", "[::1]:5791", "/tagraid/odds?s=1")
    assert (p["hostname"], p["port"], p["pathname"], p["href"]) == ("[::1]", "5791", "/tagraid/odds",
                                                                    "http://[::1]:5791/tagraid/odds?s=1")
    assert "hostname" not in location._get_location_params("http", "a:b:c", "/")
    assert location._get_location_params("http", "localhost:5006", "/")["port"] == "5006"


def _free_port(family=socket.AF_INET6, host="::1") -> int:
    with socket.socket(family) as s:
        s.bind((host, 0))
        return s.getsockname()[1]


@pytest.mark.slow
def test_serve_on_ipv6_loopback_answers_pages_and_opens_websockets(tmp_path):
    """A live ``explorer serve --address ::1``: the landing page answers 200, a websocket from the bracketed origin
    opens and one from another origin is refused (403), and the log holds no traceback."""
    try:
        port = _free_port()
    except OSError:
        pytest.skip("no IPv6 loopback")
    log = tmp_path / "serve.log"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with open(log, "w") as f:
        proc = subprocess.Popen([sys.executable, "-m", "explorer", "serve", "--address", "::1", "--port", str(port),
                                 "--no-warm", "--static-dir", str(tmp_path / "js")], stdout=f, stderr=f, env=env)
    try:
        url = f"http://[::1]:{port}/"
        page = None
        for _ in range(120):
            try:
                page = urllib.request.urlopen(url, timeout=60).read().decode()   # the server builds the page first
                break
            except OSError:
                time.sleep(1)
        assert page is not None, log.read_text()[-2000:]
        import asyncio
        import re

        from tornado.httpclient import HTTPClientError, HTTPRequest
        from tornado.websocket import websocket_connect

        token = re.search(r'"token":\s*"([^"]+)"', page).group(1)

        async def opens(origin: str):
            req = HTTPRequest(f"ws://[::1]:{port}/ws", headers={"Origin": origin})
            try:
                c = await websocket_connect(req, subprotocols=["bokeh", token])
            except HTTPClientError as e:
                return e.code
            msg = await asyncio.wait_for(c.read_message(), 20)
            c.close()
            return "ACK" in (msg or "")

        from serving_helpers import run_async

        assert run_async(opens(f"http://[::1]:{port}")) is True
        assert run_async(opens("http://evil.example")) == 403
        assert "Traceback" not in log.read_text()
        assert sorted(os.listdir(tmp_path / "js")) == [MARKER, SUBDIR]
    finally:
        proc.terminate()
        proc.wait(30)
