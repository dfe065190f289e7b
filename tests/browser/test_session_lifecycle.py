"""The Panel server frees what a browser session built once the session ends (issue: hardening, session lifecycle).

Open and close 30 sessions of the TAG Raid pages, then read the server's own counters (``/explorer-stats``: live
ipywidgets, the session documents they belong to, live objects of this project's classes, resident memory). Plain
``GET`` requests (no browser, no websocket) render a cached page and build no widget tree.
"""

from __future__ import annotations

import json
import time
import urllib.request

import pytest

from browser_helpers import wait_until

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ROUTES = ("/tagraid-face-to-face", "/tagraid-line-of-fire")


def _base(app_url: str) -> str:
    return app_url.rsplit("/", 1)[0]


def _stats(base: str) -> dict:
    return json.loads(urllib.request.urlopen(base + "/explorer-stats?deep=1", timeout=60).read())


def _visit(browser, url: str) -> float:
    ctx = browser.new_context()
    page = ctx.new_page()
    t = time.perf_counter()
    page.goto(url, timeout=180_000, wait_until="domcontentloaded")   # not "load": a blocked CDN font may never finish
    page.wait_for_selector("canvas", timeout=90_000)
    page.wait_for_timeout(300)
    ctx.close()
    return time.perf_counter() - t


def _settled(base: str) -> dict:
    """Wait until only the cached pages (one per route: all routes with ``explorer serve --warm``, the default)
    still own widgets."""
    return wait_until(lambda: (s := _stats(base))["other_session_documents"] == 0 and s, timeout=90,
                      interval=2, what="closed sessions to be freed")


def test_plain_gets_build_no_session(app_url):
    base = _base(app_url)
    for r in ROUTES:
        urllib.request.urlopen(base + r, timeout=60).read()   # builds its cached page unless warmed at start
    before = _stats(base)
    for _ in range(10):
        for r in ROUTES:
            urllib.request.urlopen(base + r, timeout=60).read()
    after = _stats(base)
    assert after["widgets"] == before["widgets"] and after["session_documents"] == before["session_documents"]


def test_thirty_sessions_opened_and_closed_leave_memory_flat(browser, app_url):
    base = _base(app_url)
    for _ in range(3):                       # warm up: imports, caches, cached page templates
        for r in ROUTES:
            _visit(browser, base + r)
    s0 = _settled(base)
    loads = [_visit(browser, base + ROUTES[1 if i % 3 == 0 else 0]) for i in range(30)]
    s1 = _settled(base)
    print(f"\nsession lifecycle: before {s0}, after 30 sessions {s1}, median page load "
          f"{sorted(loads)[len(loads) // 2]:.2f} s")
    assert s1["widgets"] == s0["widgets"]
    assert s1["explorer_objects"] <= s0["explorer_objects"] * 1.05 + 50
    assert s1["bokeh_documents"] <= s0["bokeh_documents"] + 1
    assert s1["rss_mb"] <= s0["rss_mb"] * 1.05
