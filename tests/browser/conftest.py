"""Fixtures for browser tests: Debian Chromium through Playwright, a served Panel app, a JupyterLab server.

Without Chromium (or Playwright) the tests are skipped locally but FAIL when ``CI=true``.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import tempfile
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def _unavailable(reason: str):
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"browser tests need {reason} (CI=true: failing instead of skipping)")
    pytest.skip(f"{reason} not available")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_http(url: str, proc: subprocess.Popen, timeout: float = 120) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if proc.poll() is not None:
            log = getattr(proc, "log_path", None)
            raise RuntimeError(f"server exited with {proc.returncode}: "
                               + (Path(log).read_text(errors="replace")[-4000:] if log else ""))
        try:
            with urllib.request.urlopen(url, timeout=5) as r:
                if r.status == 200:
                    return
        except OSError:
            time.sleep(0.5)
    raise TimeoutError(f"{url} did not answer within {timeout} s")


def stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)


def start(cmd: list[str], **kw) -> subprocess.Popen:
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.update(kw.pop("env", {}))
    # the server's output goes to a file, never to a pipe nobody reads: a long-running server (30 sessions) would
    # fill the pipe's buffer with log lines and block on its next write
    log = tempfile.NamedTemporaryFile(prefix="explorer-server-", suffix=".log", delete=False)
    proc = subprocess.Popen(cmd, cwd=kw.pop("cwd", ROOT), env=env, stdout=log, stderr=subprocess.STDOUT,
                            text=True, start_new_session=True, **kw)
    proc.log_path = log.name
    log.close()
    return proc


@pytest.fixture(scope="session")
def browser():
    if not (Path(CHROMIUM).exists() or shutil.which(CHROMIUM)):
        _unavailable(f"Chromium at {CHROMIUM}")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("the playwright Python package")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture(scope="module")
def app_url():
    """``explorer serve`` on a free port (the same entry point as ``./run app``): the TAG Raid Face to Face page
    (its header links to the game's other pages)."""
    port = free_port()
    proc = start([sys.executable, "-m", "explorer", "serve", "--port", str(port)])
    url = f"http://localhost:{port}/tagraid-face-to-face"
    try:
        wait_http(url, proc)
        yield url
    finally:
        stop(proc)


@pytest.fixture(scope="module")
def lab_url(tmp_path_factory):
    """JupyterLab serving the repository (notebooks/ and tutorials/), no token, app exposed to the page."""
    port = free_port()
    home = tmp_path_factory.mktemp("labhome")
    proc = start([sys.executable, "-m", "jupyterlab", "--no-browser", "--allow-root", f"--port={port}",
                  "--ServerApp.token=", "--ServerApp.password=", "--LabApp.expose_app_in_browser=True",
                  f"--ServerApp.root_dir={ROOT}", "--ServerApp.disable_check_xsrf=True"],
                 env={"JUPYTER_CONFIG_DIR": str(home / "config"), "JUPYTER_RUNTIME_DIR": str(home / "runtime"),
                      "JUPYTERLAB_WORKSPACES_DIR": str(home / "ws"), "JUPYTERLAB_SETTINGS_DIR": str(home / "settings")})
    url = f"http://localhost:{port}"
    try:
        wait_http(url + "/api/status", proc, timeout=180)
        yield url
    finally:
        stop(proc)
