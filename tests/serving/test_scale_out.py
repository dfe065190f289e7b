"""Serving past one process on real parts (issue #25 item 7): the README's nginx example is the file the load test
runs, nginx accepts it, and browser-less sessions click through a real nginx in front of ``explorer serve``
(``benchmarks/load_test.py``, ``benchmarks/ws_session.py``; the full run with several processes stays in
``benchmarks/``)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))

import load_test  # noqa: E402

needs_nginx = pytest.mark.skipif(not Path(load_test.NGINX).exists(),
                                 reason="nginx is not installed (./run test installs nginx-light)")


def test_the_readme_shows_the_nginx_file_the_load_test_runs():
    conf = (ROOT / "deploy" / "nginx-explorer.conf").read_text()
    assert "```nginx\n" + conf + "```" in (ROOT / "README.md").read_text()


def test_the_load_test_rewrites_only_ports_of_the_example(tmp_path):
    out = load_test.nginx_config([7001, 7002, 7003], 7100, tmp_path)
    assert out.count("server 127.0.0.1:") == 3 and "listen 127.0.0.1:7100;" in out
    assert "hash $explorer_key consistent;" in out and "5006" not in out and "listen 80;" not in out


@needs_nginx
def test_nginx_accepts_the_example(tmp_path):
    conf = tmp_path / "nginx.conf"
    conf.write_text(load_test.nginx_config([7001, 7002], load_test.free_port(), tmp_path))
    r = subprocess.run([load_test.NGINX, "-t", "-p", str(tmp_path), "-c", str(conf)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


@pytest.mark.slow
@needs_nginx
def test_browser_less_sessions_click_through_nginx_in_front_of_two_processes():
    """Two ``explorer serve`` processes behind the README's nginx: four sessions open through it, every click is
    answered, and the cookie nginx sets spreads sessions over the processes (each session stays on one)."""
    row = load_test.run_one(2, sessions=4, clicks=2)
    assert row["clicks"] == 8 and row["p50_ms"] > 0
    assert sum(row["sessions_per_process"]) == 4


@pytest.mark.slow
def test_a_browser_less_click_is_answered_like_a_browser_click(tmp_path):
    """Straight to one ``explorer serve``: the session's document lists the page's buttons, and a click on "Roll
    dice" gets the server's update of the page (the new roll) on the websocket."""
    from ws_session import Session

    port = load_test.free_port()
    proc = load_test.start_explorer(port, port, tmp_path)
    try:
        load_test.wait_for(f"http://127.0.0.1:{port}/explorer-stats", [proc])

        async def go():
            s = Session(f"http://127.0.0.1:{port}{load_test.ROUTE}")
            await s.open()
            buttons = s.buttons()
            latency = await s.click(buttons[load_test.BUTTON])
            await s.close()
            return buttons, latency

        from serving_helpers import run_async

        buttons, latency = run_async(go())
        assert load_test.BUTTON in buttons and latency > 0
        assert load_test.stats(port)["session_documents"] >= 1
    finally:
        proc.terminate()
        proc.wait(30)


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="prctl(PR_SET_PDEATHSIG) is Linux's")
def test_num_procs_workers_end_when_the_process_started_is_sent_sigterm(tmp_path):
    """``kill PID`` (SIGTERM to the process ``explorer serve --num-procs 2`` started as, as a service manager sends
    it) ended only that process: its two workers kept serving the port with no parent (issue #25 check)."""
    import os
    import signal
    import socket
    import subprocess
    import time
    import urllib.request

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with open(tmp_path / "serve.log", "w") as log:
        proc = subprocess.Popen([sys.executable, "-m", "explorer", "serve", "--port", str(port), "--no-warm",
                                 "--num-procs", "2", "--static-dir", str(tmp_path / "js")], stdout=log, stderr=log,
                                env=env, start_new_session=True)
    try:
        for _ in range(240):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/favicon.ico", timeout=5).read()
                break
            except OSError:
                assert proc.poll() is None, (tmp_path / "serve.log").read_text()[-2000:]
                time.sleep(0.5)
        workers = [int(p) for p in (Path(f"/proc/{proc.pid}/task/{proc.pid}/children").read_text().split())]
        assert len(workers) == 2, workers
        proc.send_signal(signal.SIGTERM)
        proc.wait(60)                      # upper bounds (60 s, not 20 s): a loaded 2-core machine stops late
        end = time.monotonic() + 60
        alive = workers
        while alive and time.monotonic() < end:
            alive = [w for w in workers if Path(f"/proc/{w}").exists()
                     and Path(f"/proc/{w}/stat").read_text().split()[2] != "Z"]
            time.sleep(0.2)
        assert not alive, f"workers {alive} outlived the SIGTERM to {proc.pid}"
    finally:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
