"""Every session is served with the server's own resources: no request leaves the machine (issue: hardening, Panel
server). Offline, a request to a CDN fails and the page loses its theme CSS and icons.

The first visitor of a page gets the session cached for it (Panel's ``reuse_sessions``); a later visitor gets a
session built when its websocket connects, which Panel 1.9.4 pointed at ``cdn.holoviz.org`` for its theme and
list-panel stylesheets and Font Awesome (``explorer.serving.resources``). Each visitor is a fresh
browser profile; Chromium's network log must hold only loopback requests, and the theme stylesheet must have come
from the server.
"""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest

from browser_helpers import canvas_stats, wait_until

pytestmark = [pytest.mark.browser, pytest.mark.slow]

LOOPBACK = {"localhost", "127.0.0.1", "::1", "[::1]"}
PAGES = ("/", "/tagraid-face-to-face", "/tagraid-face-to-face", "/masseffect-mission-map")


def _visit(browser, url: str, board: bool) -> list[str]:
    ctx = browser.new_context()
    page = ctx.new_page()
    urls: list[str] = []
    page.on("request", lambda r: urls.append(r.url))
    page.goto(url, timeout=180_000, wait_until="domcontentloaded")
    if board:
        canvas = page.locator("canvas").first
        canvas.wait_for(timeout=120_000)
        wait_until(lambda: canvas_stats(canvas)["opaque"] > 0, timeout=60, what="a drawn board")
    else:
        page.locator(".explorer-landing").wait_for(timeout=120_000)
    page.wait_for_timeout(1500)   # late stylesheets and fonts
    ctx.close()
    return urls


def test_every_session_uses_only_loopback_resources(browser, app_url):
    base = app_url.rsplit("/", 1)[0]
    for path in PAGES:
        urls = _visit(browser, base + path, board=path != "/")
        remote = [u for u in urls if urlsplit(u).scheme in ("http", "https", "ws", "wss")
                  and urlsplit(u).hostname not in LOOPBACK]
        assert remote == [], f"{path}: requests to other hosts: {remote}"
        if path != "/":
            assert any("/static/extensions/panel/" in u and u.split("?")[0].endswith(".css") for u in urls), \
                f"{path}: no Panel stylesheet from the server"
