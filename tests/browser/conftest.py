"""Fixtures for browser tests: Debian Chromium through Playwright, a served Panel app, a JupyterLab server.

Without Chromium (or Playwright) the tests are skipped locally but FAIL when ``CI=true``.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest
from server_helpers import ROOT, free_port, start, stop, wait_http  # noqa: F401  (used by the fixtures below)

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


ACTION_TIMEOUT_MS = 90_000
"""Playwright's default upper bound for an action or a wait without a timeout of its own (a click waiting for its
target, ``locator.wait_for()``, ``wait_for_function``), in ms; Playwright's own default is 30 s. Paid only when the page
never gets there: the CI machine (2 cores, a load of 4-6 during the suite) answers about 3x slower than an idle one,
and a CI run once charged 19 s to a check that takes 0.8 s."""
NAVIGATION_TIMEOUT_MS = 120_000
"""The same for ``page.goto`` / ``reload`` / ``wait_for_url`` without a timeout (Playwright's default: 30 s): the server
builds a Panel page's document before it answers."""


class _Browser:
    """The Playwright browser, with every new page and context given :data:`ACTION_TIMEOUT_MS` and
    :data:`NAVIGATION_TIMEOUT_MS` as their default timeouts (everything else passes through)."""

    def __init__(self, browser):
        self._browser = browser

    @staticmethod
    def _slack(target):
        target.set_default_timeout(ACTION_TIMEOUT_MS)
        target.set_default_navigation_timeout(NAVIGATION_TIMEOUT_MS)
        return target

    def new_page(self, *args, **kw):
        return self._slack(self._browser.new_page(*args, **kw))

    def new_context(self, *args, **kw):
        return self._slack(self._browser.new_context(*args, **kw))

    def __getattr__(self, name):
        return getattr(self._browser, name)


def _unavailable(reason: str):
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"browser tests need {reason} (CI=true: failing instead of skipping)")
    pytest.skip(f"{reason} not available")


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
        yield _Browser(b)
        b.close()


@pytest.fixture(scope="module")
def app_url():
    """``explorer serve`` on a free port (the same entry point as ``./run app``): the TAG Raid Face to Face page
    (its header links to the game's other pages)."""
    port = free_port()
    proc = start([sys.executable, "-m", "explorer", "serve", "--port", str(port), "--stats"])
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
