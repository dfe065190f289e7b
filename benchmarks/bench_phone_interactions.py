"""Every page of ``explorer serve`` on the phone emulation (390 x 844, ``is_mobile``, ``has_touch``, device scale 2):
the page's load (navigation to drawn and settled) and each of its interactions (a tap on every shown button, a new
value in every shown dropdown, the first :data:`MAX_EACH` of each, uploads and downloads left out), timed from the input
to the first change of what the page shows (canvas pixels, texts, field values). Recorded in
``benchmarks/browser_ux_timing.json`` under ``<page>`` › ``390x844 phone`` with the 1-minute load average (a report,
not a threshold: the machine is shared). Pages are keyed by their route and an interaction the desktop timings also
measure takes the desktop's name (``benchmarks/ux_keys.py``: "tap Roll dice" is "roll dice"), so one key is one
interaction in every viewport. A page whose phone entry a dedicated benchmark owns (the Line of Fire page:
``benchmarks/bench_lof_interactions.py``; ``benchmarks/ux_keys.py``'s ``OWNERS``) is recorded beside it, under
``390x844 phone (bench_phone_interactions)``.

Usage: ``python benchmarks/bench_phone_interactions.py http://localhost:5006 [/route ...]`` against a running
``explorer serve``.
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests" / "browser"), str(ROOT)]

from browser_helpers import page_signature, phone_context, settled_signature, wait_until  # noqa: E402

sys.path.insert(0, str(ROOT / "benchmarks"))
from ux_keys import canonical_report, entry_key, interaction_key, page_key  # noqa: E402

REPORT = ROOT / "benchmarks" / "browser_ux_timing.json"
VIEWPORT = "390x844 phone"
MAX_EACH = 6
"""Buttons (and dropdowns) timed per page, in page order."""
NO_CHANGE_S = 6.0
"""How long an input may take to change the page before it is listed under ``no visible change``."""
SKIP = ("download", "open a", "upload", "toml", "ruling options", "every step")
"""Controls left out: files (a download or a file picker) and disclosure rows (no server round trip)."""
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run"]


def _open(page, url: str) -> float:
    t0 = time.perf_counter()
    page.goto(url)
    wait_until(lambda: page.locator(".jupyter-widgets").count() > 0, timeout=120, what="the widgets")
    wait_until(lambda: not page.evaluate("() => document.body.classList.contains('pn-loading')"), timeout=120,
               what="the page loaded")
    settled_signature(page, quiet=1.0)
    return (time.perf_counter() - t0) * 1000


def _timed(page, act, own_change: bool = False) -> float | None:
    """Milliseconds from ``act()`` to the first change of the page, or ``None`` (no change within :data:`NO_CHANGE_S`).
    ``own_change``: the input changes its own shown value at once (a dropdown): the change waited for is the next
    one, the page's answer."""
    before = page_signature(page, ".hexboard-readout")
    t0 = time.perf_counter()
    act()
    if own_change:
        before = page_signature(page, ".hexboard-readout")
    while time.perf_counter() - t0 < NO_CHANGE_S:
        if page_signature(page, ".hexboard-readout") != before:
            ms = (time.perf_counter() - t0) * 1000
            settled_signature(page, quiet=0.8, timeout=15)
            return ms
        time.sleep(0.02)
    return None


def bench_page(browser, base: str, route: str) -> dict:
    ctx = phone_context(browser)
    page = ctx.new_page()
    values: dict[str, float | str] = {"load_s": round(_open(page, base + route) / 1000, 2)}
    idle = []
    buttons = [b for b in page.locator("button").all() if b.is_visible()
               and not any(s in (b.inner_text() or "").lower() for s in SKIP)]
    for b in buttons[:MAX_EACH]:
        label = " ".join((b.inner_text() or b.get_attribute("title") or "?").split())[:40]
        if not b.is_visible() or not b.is_enabled():
            continue
        b.scroll_into_view_if_needed()
        ms = _timed(page, b.tap)
        if ms is None:
            idle.append(f"tap {label}")
        else:
            values[f"latency_ms.tap {label}"] = round(ms, 1)
    selects = [s for s in page.locator("select").all() if s.is_visible()]
    for s in selects[:MAX_EACH]:
        if not s.count() or not s.is_visible():   # a pick before may have rebuilt the page: the dropdown is gone
            continue
        options = s.evaluate("s => Array.from(s.options).map(o => o.value)", timeout=5_000)
        current = s.input_value()
        nxt = next((o for o in options if o != current), None)
        if nxt is None or not s.is_enabled():
            continue
        label = " ".join(s.evaluate("s => s.options[s.selectedIndex] ? s.options[s.selectedIndex].text : ''")
                         .split())[:30]
        s.scroll_into_view_if_needed()
        ms = _timed(page, lambda: s.select_option(nxt), own_change=True)
        if ms is None:
            idle.append(f"pick in {label}")
        else:
            values[f"latency_ms.pick in dropdown '{label}'"] = round(ms, 1)
    if idle:
        values["no visible change"] = "; ".join(idle)
    ctx.close()
    return values


def record(page_name: str, values: dict) -> None:
    data = canonical_report(json.loads(REPORT.read_text()) if REPORT.exists() else {})
    page_name = page_key(page_name)
    values = {("latency_ms." + interaction_key(page_name, k[len("latency_ms."):]) if k.startswith("latency_ms.")
               else k): v for k, v in values.items()}
    lat = [v for k, v in values.items() if k.startswith("latency_ms.")]
    values = {**values, "median_latency_ms": round(statistics.median(lat), 1) if lat else None,
              "recorded": time.strftime("%Y-%m-%d %H:%M:%S"), "load_average_1min": round(os.getloadavg()[0], 2),
              "note": "phone emulation (390x844, is_mobile, has_touch, scale 2; benchmarks/bench_phone_interactions.py): "
                      "latency = tap or dropdown pick to the first change of the page (pixels, texts, values), measured "
                      "from Playwright (includes its round trip); load_s = navigation to drawn and settled (1 s "
                      "quiet); 'no visible change' lists inputs after which nothing changed within 6 s (a ruling not consulted, a face button with no die picked)"}
    # the Line of Fire page's phone entry belongs to bench_lof_interactions.py: this script writes beside it
    data.setdefault(page_name, {})[entry_key(page_name, VIEWPORT, "bench_phone_interactions")] = values
    REPORT.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n")


def main(argv: list[str]) -> None:
    from playwright.sync_api import sync_playwright

    from explorer.app import routes

    base = argv[0].rstrip("/")
    wanted = argv[1:] or list(routes())
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=os.environ.get("CHROMIUM", "/usr/bin/chromium"),
                                    args=CHROMIUM_ARGS)
        for route in wanted:
            values = bench_page(browser, base, route)
            record(route.strip("/"), values)
            print(route, json.dumps(values), flush=True)
        browser.close()


if __name__ == "__main__":
    main(sys.argv[1:])
