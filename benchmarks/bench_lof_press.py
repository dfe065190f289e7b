"""Benchmark (issue #24 item 3): selecting a Model on the Line of Fire page with its row started on the press
(``LofExplorer.START_ON_PRESS``) against the same tree with it off (``EXPLORER_LOF_PRESS_START=0``), end to end in
headless Chromium at 1280 x 800.

What it does: one tree is served twice in turn (``--tree``, default this checkout), with the press start on and off,
a fresh server (a cold analysis cache) for each, the order swapped every round. On each page every Model is selected
twice, in turn: a press held ``--hold`` ms (a person's click lasts about 50-120 ms; ``bench_lof_interactions.py``
presses for about 2 ms), then the release; the time is from the release to the animation frame after the last change
the selection caused (the verdict list, the board), as ``bench_lof_interactions.py`` measures it. The first
selection of each Model computes its row; the second finds it kept by the page. Prints the medians of both and the
load average; nothing is asserted (ratios against the same run's "off", never absolute goals in a test).

Run on a quiet machine: ``PYTHONPATH=. .venv/bin/python benchmarks/bench_lof_press.py --rounds 2 --hold 60``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

import bench_lof_interactions as B  # noqa: E402
from bench_lof_page_latency import _serve, _stop  # noqa: E402

ENV = "EXPLORER_LOF_PRESS_START"


def run_page(browser, url: str, ref, hold_ms: int) -> list[tuple[bool, float | None]]:
    """Every Model selected twice in turn on a fresh page of ``url``: ``[(first selection of it?, ms), ...]``."""
    ctx = browser.new_context(**B.VIEWPORTS["desktop"][1])
    ctx.add_init_script(B.INIT_JS)
    page = ctx.new_page()
    B._open(page, url, ref)
    canvas = page.locator(".hexboard canvas").first
    ids = list(ref.models)
    out = []
    for k in range(2 * len(ids)):
        who = ids[(k + 1) % len(ids)]   # the page opens on the first: start with the next one
        canvas.scroll_into_view_if_needed()
        box = canvas.bounding_box()
        x, y = B._board_px(ref.board_view, box, canvas.evaluate("c => [c.width, c.height]"), ref.models[who].center)

        def act():
            page.mouse.move(x, y)
            page.mouse.down()
            page.wait_for_timeout(hold_ms)
            page.mouse.up()

        got = B._measure(page, act, which="last")
        out.append((k < len(ids), got["ms"]))
    ctx.close()
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tree", type=Path, default=HERE.parent, help="the tree to serve (default: this checkout)")
    ap.add_argument("--port", type=int, default=5401)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--hold", type=int, default=60, help="how long each press is held, ms (0-1000)")
    a = ap.parse_args(argv)
    if not 0 <= a.hold <= 1000 or not 1 <= a.rounds <= 20:
        ap.error("--hold must be 0-1000 ms and --rounds 1-20")
    from playwright.sync_api import sync_playwright

    ref = B._geometry()
    modes = {"on": {ENV: "1"}, "off": {ENV: "0"}}
    got: dict[str, list] = {m: [] for m in modes}
    loads = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=os.environ.get("CHROMIUM", "/usr/bin/chromium"),
                                    args=["--headless", "--no-sandbox", "--disable-gpu",
                                          "--disable-background-networking", "--disable-component-update",
                                          "--no-first-run"])
        for r in range(a.rounds):
            for mode in (list(modes) if r % 2 == 0 else list(modes)[::-1]):
                proc = _serve(a.tree.resolve(), a.port, modes[mode])
                try:
                    rows = run_page(browser, f"http://localhost:{a.port}", ref, a.hold)
                finally:
                    _stop(proc)
                got[mode] += rows
                loads.append(os.getloadavg()[0])
                print(f"round {r + 1}, press start {mode}: " + " ".join(f"{ms:.0f}" if ms is not None else "-"
                                                                    for _, ms in rows), flush=True)
        browser.close()
    print(f"\nselect a Model, press held {a.hold} ms, from the release (ms, median)   on      off    on/off")
    for label, first in (("first selection of each Model (its row computed)", True),
                         ("again (the row kept by the page)", False)):
        med = {m: statistics.median([ms for f, ms in got[m] if f == first and ms is not None]) for m in modes}
        print(f"  {label:<58s} {med['on']:6.1f} {med['off']:6.1f}   {med['on'] / med['off']:.2f}")
    print(f"load average (1 min): {min(loads):.2f}..{max(loads):.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
