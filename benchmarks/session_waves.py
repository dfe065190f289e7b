"""Load test (bounded, loopback only): N concurrent browser sessions against ``explorer serve --num-procs P``.

Starts the server on 127.0.0.1, opens N sessions at once in headless Chromium (Debian's ``/usr/bin/chromium``), checks
that every page drew its board and logged no page error, closes them all, waits for the server to free the sessions,
and compares the resident memory of every server process before and after (same run). It runs two waves: a leak
grows with every wave, while the allocator's high water (memory freed by Python but kept by the process) shows only
in the first. Prints one line per phase and exits non-zero when a session failed or the second wave grew memory by
more than ``--max-growth`` (default 5 %) over the first.

    .venv/bin/python benchmarks/session_waves.py --sessions 20 --procs 2
"""

from __future__ import annotations

import argparse
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--no-first-run"]
ROUTES = ("/tagraid-face-to-face", "/tagraid-line-of-fire", "/masseffect-mission-map")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def tree_rss_mb(pid: int) -> float:
    """Resident memory of ``pid`` and all its descendants, in MB (Linux /proc)."""
    total, todo = 0, [pid]
    while todo:
        p = todo.pop()
        try:
            total += int(Path(f"/proc/{p}/statm").read_text().split()[1]) * os.sysconf("SC_PAGE_SIZE")
            for task in Path(f"/proc/{p}/task").iterdir():
                kids = (task / "children").read_text().split()
                todo += [int(k) for k in kids]
        except (OSError, ValueError):
            continue
    return total / 2**20


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sessions", type=int, default=20, choices=range(1, 41), metavar="1..40")
    ap.add_argument("--procs", type=int, default=2, choices=range(1, 5), metavar="1..4")
    ap.add_argument("--max-growth", type=float, default=0.05)
    a = ap.parse_args()
    from playwright.sync_api import sync_playwright

    port = free_port()
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    server = subprocess.Popen([sys.executable, "-m", "explorer", "serve", "--port", str(port), "--num-procs",
                               str(a.procs)], cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    failures = 0
    try:
        for _ in range(240):
            try:
                urllib.request.urlopen(base + "/", timeout=5).read()
                break
            except OSError:
                time.sleep(0.5)
        with sync_playwright() as p:
            b = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)

            def wave(n):
                ctxs, errors, t = [], [], time.perf_counter()
                for i in range(n):
                    ctx = b.new_context()
                    page = ctx.new_page()
                    page.on("pageerror", lambda e: errors.append(str(e)))
                    page.goto(base + ROUTES[i % len(ROUTES)])
                    ctxs.append((ctx, page))
                bad = 0
                for ctx, page in ctxs:
                    try:
                        page.wait_for_selector("canvas", timeout=180_000)
                    except Exception:
                        bad += 1
                opened = time.perf_counter() - t
                for ctx, _ in ctxs:
                    ctx.close()
                return bad, errors, opened

            wave(len(ROUTES) * a.procs)             # warm every process and route
            time.sleep(15)
            before = tree_rss_mb(server.pid)
            growths = []
            for n in (1, 2):                       # two waves: the second tells a leak from the allocator's high water
                bad, errors, opened = wave(a.sessions)
                print(f"wave {n}: {a.sessions} concurrent sessions on {a.procs} processes: all open in {opened:.1f} s"
                      f", {bad} without a board, {len(errors)} page errors")
                failures += bad + len(errors)
                during = tree_rss_mb(server.pid)
                time.sleep(20)                     # unused sessions are freed after ~10 s
                after = tree_rss_mb(server.pid)
                growths.append(after / before - 1)
                print(f"wave {n}: server RSS (all processes): before {before:.0f} MB, just after closing "
                      f"{during:.0f} MB, 20 s later {after:.0f} MB ({growths[-1]:+.1%} against before wave 1)")
                if n == 1:
                    after_first = after
            growth = after / after_first - 1
            print(f"steady state: wave 2 left the server at {growth:+.1%} against wave 1 (a leak grows every wave; "
                  f"the first wave's {growths[0]:+.1%} includes the allocator keeping freed memory)")
            b.close()
        if growth > a.max_growth:
            failures += 1
    finally:
        os.killpg(server.pid, signal.SIGTERM)
    print("OK" if not failures else f"FAILED ({failures})")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
