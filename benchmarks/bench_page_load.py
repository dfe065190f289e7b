"""First page load of ``explorer serve``, as a visitor sees it (headless Debian Chromium, loopback only).

Definition. A visitor is a fresh browser profile (empty HTTP cache, as someone opening the app for the first time).
It opens the landing page ``/`` and then the default page (the first game's first page, ``/tagraid-face-to-face``).
Every time is measured in the browser from the navigation's start (``performance.timeOrigin``):

* ``landing``: the landing page's list of games is on screen;
* ``page``: the default page's boards are drawn: every ipycanvas canvas on the page holds drawn pixels (sampled
  opaque pixels, polled every 25 ms); this is the number the < 2 s goal is about;
* the breakdown of ``page``: ``html`` (the page's HTML has arrived: the server's ``GET``), ``scripts`` (the
  ``<head>`` scripts have run: ``domInteractive``), ``first_canvas`` (the first board canvas exists), and from the
  websocket log ``doc_ms`` (the browser asked for the session's document until it came) with ``msgs_before_doc``
  (messages the server sent before it). These two depend little on the machine's load.

The server runs in a subprocess, started fresh for each trial (``cold``: it has served nothing yet), with the
``explorer serve`` options given by ``--serve-args``. In each trial visitor 1 is the server's first visitor and
visitors 2.. come after (each still with an empty browser cache). A last visitor of each trial reopens the
default page in visitor 2's profile (``cached``: the scripts come from the browser's cache). The 1-minute load
average is printed with every line: on a shared machine the numbers mean little without it.

    .venv/bin/python benchmarks/bench_page_load.py --trials 3 --visitors 3
    .venv/bin/python benchmarks/bench_page_load.py --serve-args=--no-warm   # compare a server option (note the =)
    .venv/bin/python benchmarks/bench_page_load.py --trials 6 --tree ../main --tree .   # baseline tree vs this one
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
DEFAULT_PAGE = "/tagraid-face-to-face"

PROBE_JS = """(() => {
  const t = {};
  window.__pageLoad = t;
  const walk = (root, sel, out) => { root.querySelectorAll(sel).forEach(e => out.push(e));
    root.querySelectorAll('*').forEach(e => { if (e.shadowRoot) walk(e.shadowRoot, sel, out); }); return out; };
  const drawn = (c) => { if (!c.width || !c.height) return false;
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data; let n = 0;
    for (let k = 3; k < d.length; k += 4 * 13) { if (d[k] > 0 && ++n >= 20) return true; } return false; };
  const tick = () => {
    const now = performance.now();
    if (t.landing === undefined) {
      const l = walk(document, '.explorer-landing', []);
      if (l.length && l[0].innerText.length > 20) t.landing = now;
    }
    const cs = walk(document, 'canvas.xr-drawing', []);
    if (cs.length && t.first_canvas === undefined) t.first_canvas = now;
    if (cs.length && t.page === undefined && cs.every(drawn)) { t.page = now; t.canvases = cs.length; }
    if ((t.page === undefined || t.landing === undefined) && now < 120000) setTimeout(tick, 25);
  };
  setTimeout(tick, 0);
})();"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def load() -> float:
    return round(os.getloadavg()[0], 1)


def start_server(port: int, serve_args: list[str], tree: Path = ROOT) -> subprocess.Popen:
    """``explorer serve`` from the source tree ``tree`` (its ``PYTHONPATH`` and working directory)."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    log = tempfile.NamedTemporaryFile(prefix="bench-page-load-", suffix=".log", delete=False)
    proc = subprocess.Popen([sys.executable, "-m", "explorer", "serve", "--port", str(port), *serve_args], cwd=tree,
                            env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    proc.log_path = log.name
    return proc


def wait_ready(proc: subprocess.Popen, base: str, timeout: float = 300) -> float:
    """Seconds until the server answers (its favicon, a static file: no page is requested, so no session is built;
    ``/explorer-stats`` is only there with ``--stats``)."""
    t0, end = time.perf_counter(), time.monotonic() + timeout
    while time.monotonic() < end:
        if proc.poll() is not None:
            raise RuntimeError("server exited: " + Path(proc.log_path).read_text(errors="replace")[-2000:])
        try:
            urllib.request.urlopen(base + "/favicon.ico", timeout=5).read()
            return time.perf_counter() - t0
        except OSError:
            time.sleep(0.2)
    raise TimeoutError(f"{base} did not answer within {timeout} s")


def server_cpu_ms(pid: int) -> float:
    """CPU time (user + system, ms) the server process has used so far (Linux ``/proc``; 0 elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) * 1000 / os.sysconf("SC_CLK_TCK")


def browser_cpu_ms(cdp) -> float:
    """CPU time (ms) every Chromium process has used so far (CDP ``SystemInfo.getProcessInfo``)."""
    return 1000 * sum(p.get("cpuTime", 0) for p in cdp.send("SystemInfo.getProcessInfo")["processInfo"])


def visit(ctx, url: str, want: str, server_pid: int | None = None, cdp=None) -> dict:
    """Open ``url`` in a new tab of ``ctx``; ``want`` is ``"landing"`` or ``"page"``. Times in ms from the
    navigation start; with ``server_pid`` and ``cdp`` (a browser CDP session) also the CPU time the server and the
    browser spent until then (``server_cpu``, ``browser_cpu``, ms: less sensitive to a shared machine's load than
    the times), and the websocket messages each way (``ws_in``, ``ws_out``)."""
    cpu0 = (server_cpu_ms(server_pid), browser_cpu_ms(cdp)) if server_pid and cdp else None
    page = ctx.new_page()
    page.add_init_script(PROBE_JS)
    frames: list[tuple[float, str, object]] = []

    def on_ws(ws) -> None:
        ws.on("framereceived", lambda f: frames.append((time.perf_counter(), "in", f)))
        ws.on("framesent", lambda f: frames.append((time.perf_counter(), "out", f)))

    page.on("websocket", on_ws)
    page.goto(url, wait_until="commit", timeout=180_000)
    page.wait_for_function(f"() => window.__pageLoad && window.__pageLoad.{want} !== undefined", timeout=180_000,
                           polling=100)
    cpu1 = (server_cpu_ms(server_pid), browser_cpu_ms(cdp)) if cpu0 else None
    nav = page.evaluate("() => performance.getEntriesByType('navigation')[0].toJSON()")
    probe = page.evaluate("() => window.__pageLoad")
    page.close()
    out = {want: probe[want], "html": nav["responseEnd"], "scripts": nav["domInteractive"]}
    if cpu0:
        out.update(server_cpu=cpu1[0] - cpu0[0], browser_cpu=cpu1[1] - cpu0[1])
    if want == "page":
        out["after_scripts"] = probe["page"] - nav["domInteractive"]
    if want == "page":
        out.update(first_canvas=probe.get("first_canvas"), canvases=probe.get("canvases"))
        # the server's part after the websocket opens: from the browser asking for the document to the answer, and
        # how many messages the server sent before it (Bokeh message headers carry "msgtype")
        text = [(t, d, f) for t, d, f in frames if isinstance(f, str)]
        req = next((t for t, d, f in text if d == "out" and '"PULL-DOC-REQ"' in f), None)
        rep = next((t for t, d, f in text if d == "in" and '"PULL-DOC-REPLY"' in f), None)
        out.update(ws_in=sum(1 for t, d, f in text if d == "in" and '"msgtype"' in f),
                   ws_out=sum(1 for t, d, f in text if d == "out" and '"msgtype"' in f))
        if req is not None and rep is not None:
            out.update(doc_ms=1000 * (rep - req),
                       msgs_before_doc=sum(1 for t, d, f in text if d == "in" and t < rep and '"msgtype"' in f) - 1)
    return {k: (round(v) if isinstance(v, float) else v) for k, v in out.items()}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--trials", type=int, default=3, choices=range(1, 21), metavar="1..20")
    ap.add_argument("--visitors", type=int, default=3, choices=range(2, 11), metavar="2..10")
    ap.add_argument("--serve-args", default="", help="extra `explorer serve` options, e.g. --serve-args=--no-warm")
    ap.add_argument("--page", default=DEFAULT_PAGE)
    ap.add_argument("--port", type=int, default=0, help="server port (default: any free port)")
    ap.add_argument("--json", help="append one JSON line per trial to this file")
    ap.add_argument("--tree", action="append", type=Path, metavar="DIR",
                    help="serve from this source tree (default: this one); give it twice to alternate two trees "
                         "trial by trial, e.g. --tree /path/to/main --tree . (a baseline and a change, same session)")
    a = ap.parse_args()
    trees = [t.resolve() for t in (a.tree or [ROOT])]
    for t in trees:
        if not (t / "explorer" / "__init__.py").is_file():
            ap.error(f"--tree {t}: no explorer package there")
    from playwright.sync_api import sync_playwright

    serve_args = shlex.split(a.serve_args)
    rows = []
    print(f"explorer serve {a.serve_args or '(defaults)'}: page {a.page}; times in ms from navigation start")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
        cdp = browser.new_browser_cdp_session()
        for trial in range(1, a.trials + 1):
            port = a.port or free_port()
            base = f"http://127.0.0.1:{port}"
            tree = trees[(trial - 1) % len(trees)]
            proc = start_server(port, serve_args, tree)
            try:
                ready = wait_ready(proc, base)
                print(f"trial {trial}: {tree}: server answers after {ready:.1f} s (load {load()})")
                keep = None
                for v in range(1, a.visitors + 1):
                    ctx = browser.new_context(viewport={"width": 1280, "height": 800})
                    landing = visit(ctx, base + "/", "landing")
                    page = visit(ctx, base + a.page, "page", proc.pid, cdp)
                    row = {"trial": trial, "tree": str(tree), "visitor": v, "landing": landing["landing"], **page,
                           "load": load(),
                           "serve_args": a.serve_args}
                    rows.append(row)
                    print(f"  visitor {v}: landing {landing['landing']:5d}  page {page['page']:5d}  (html "
                          f"{page['html']}, scripts {page['scripts']}, first canvas {page['first_canvas']}, "
                          f"{page['canvases']} canvases; document {page.get('doc_ms')} ms after "
                          f"{page.get('msgs_before_doc')} messages; websocket messages in/out {page.get('ws_in')}/"
                          f"{page.get('ws_out')}; CPU ms server {page.get('server_cpu', 0):.0f}, browser "
                          f"{page.get('browser_cpu', 0):.0f})  load {row['load']}")
                    if v == 2:
                        keep = ctx
                    else:
                        ctx.close()
                cached = visit(keep, base + a.page, "page", proc.pid, cdp)
                rows.append({"trial": trial, "tree": str(tree), "visitor": "cached", **cached, "load": load(),
                             "serve_args": a.serve_args})
                print(f"  visitor 2 again (browser cache): page {cached['page']:5d}  (html {cached['html']}, "
                      f"scripts {cached['scripts']})  load {rows[-1]['load']}")
                keep.close()
            finally:
                os.killpg(proc.pid, signal.SIGTERM)
                proc.wait(30)
        browser.close()

    def med(sel, key):
        xs = [r[key] for r in rows if sel(r) and r.get(key) is not None]
        return f"{statistics.median(xs):.0f}" if xs else "-"

    for tree in trees:
        mine = [r for r in rows if r["tree"] == str(tree)]
        first = lambda r: r in mine and r["visitor"] == 1  # noqa: E731
        later = lambda r: r in mine and isinstance(r["visitor"], int) and r["visitor"] > 1  # noqa: E731
        cached = lambda r: r in mine and r["visitor"] == "cached"  # noqa: E731
        print(f"median over {len({r['trial'] for r in mine})} trials of {tree}: first visitor: landing "
              f"{med(first, 'landing')}, page {med(first, 'page')} ms (scripts {med(first, 'scripts')}); later "
              f"visitors: landing {med(later, 'landing')}, page {med(later, 'page')} ms (scripts "
              f"{med(later, 'scripts')}); cached browser: page {med(cached, 'page')} ms; CPU ms per page (all "
              f"visitors): server {med(lambda r: r in mine, 'server_cpu')}, browser "
              f"{med(lambda r: r in mine, 'browser_cpu')}; load {med(lambda r: r in mine, 'load')}")
    if len(trees) == 2:   # the second tree against the first (the baseline), medians over the same session
        def ratio(sel, key):
            xs = [statistics.median([r[key] for r in rows if r["tree"] == str(t) and sel(r) and r.get(key)])
                  for t in trees if any(r["tree"] == str(t) and sel(r) and r.get(key) for r in rows)]
            return f"{xs[1] / xs[0]:.2f}" if len(xs) == 2 and xs[0] else "-"
        fresh = lambda r: isinstance(r["visitor"], int)  # noqa: E731
        print(f"ratio {trees[1].name} / {trees[0].name}: page (fresh visitors) {ratio(fresh, 'page')}, after the "
              f"scripts (page - scripts) {ratio(fresh, 'after_scripts')}, server CPU {ratio(fresh, 'server_cpu')}, "
              f"browser CPU {ratio(fresh, 'browser_cpu')}")
    if a.json:
        with open(a.json, "a", encoding="utf-8") as f:
            for r in rows:
                f.write(json.dumps(r) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
