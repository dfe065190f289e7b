"""Benchmark: the Line of Fire page's interaction latency in the browser, this tree against a baseline tree, measured
in the same run (the two servers run side by side; the rounds alternate between them).

Each round opens the page in headless Chromium and runs the browser test's own sequence
(``tests/browser/test_explorer_ux.py::test_line_of_fire_page_controls_layout_and_latency``: select a Model, rotate
it, drag another, flip a ruling, draw the Range Ruler, zoom in, fit), timing each from the input to the redrawn
canvas or verdict list, as the test does. Run from the repository root, with a baseline checkout made e.g. by
``git archive <commit> | tar -x -C /tmp/lof-base``::

    PYTHONPATH=$PWD python benchmarks/bench_lof_page_latency.py --baseline /tmp/lof-base [--rounds 2]
        [--ports 5221 5222] [--widths 1280x800 900x900] [--out benchmarks/lof_page_latency.json]

Prints, per width, each interaction's median over the rounds for the baseline and this tree, the ratio, the median
of the interactions, and the 1-minute load average at each round (the machine is shared: compare the ratio, not
the absolute times). Needs Chromium at ``/usr/bin/chromium`` (or ``$CHROMIUM``) and Playwright.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _serve(tree: Path, port: int, extra_env: dict[str, str] | None = None) -> subprocess.Popen:
    log = tempfile.NamedTemporaryFile(prefix="bench-lof-", suffix=".log", delete=False)
    env = dict(os.environ, PYTHONPATH=str(tree), **(extra_env or {}))
    proc = subprocess.Popen([sys.executable, "-m", "explorer", "serve", "--port", str(port)], cwd=tree, env=env,
                            stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    url = f"http://localhost:{port}/tagraid-line-of-fire"
    end = time.monotonic() + 180
    while time.monotonic() < end:
        if proc.poll() is not None:
            raise RuntimeError(f"the server in {tree} exited: see {log.name}")
        try:
            with urllib.request.urlopen(url, timeout=5) as r:
                if r.status == 200:
                    return proc
        except OSError:
            time.sleep(0.5)
    raise TimeoutError(f"{url} did not answer")


def _stop(proc: subprocess.Popen) -> None:
    import signal

    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--baseline", required=True, type=Path, help="a checkout of the baseline tree")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--ports", type=int, nargs=2, default=(5221, 5222))
    ap.add_argument("--widths", nargs="+", default=["1280x800", "900x900"])
    ap.add_argument("--out", type=Path, default=None, help="write the results as JSON here")
    a = ap.parse_args(argv)

    sys.path.insert(0, str(ROOT / "tests" / "browser"))
    import test_explorer_ux as ux  # the test's own sequence and timer
    from playwright.sync_api import sync_playwright

    recorded: list[dict] = []
    ux._record = lambda page, viewport, values: recorded.append(values)  # the report is the test's business
    trees = {"baseline": a.baseline.resolve(), "this tree": ROOT}
    servers = {k: _serve(t, p) for (k, t), p in zip(trees.items(), a.ports)}
    runs: dict[tuple[str, str], list[dict]] = {}
    loads: list[float] = []
    failures: list[str] = []
    try:
        with sync_playwright() as p:
            b = p.chromium.launch(executable_path=os.environ.get("CHROMIUM", "/usr/bin/chromium"),
                                  args=["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                                        "--no-first-run", "--disable-background-networking",
                                        "--disable-component-update", "--disable-sync"])
            for r in range(a.rounds):
                for wh in a.widths:
                    w, h = (int(x) for x in wh.split("x"))
                    order = list(trees) if r % 2 == 0 else list(reversed(trees))
                    for name in order:
                        url = f"http://localhost:{a.ports[list(trees).index(name)]}/tagraid-face-to-face"
                        try:
                            ux.test_line_of_fire_page_controls_layout_and_latency(b, url, w, h)
                        except AssertionError as e:  # a check of the test failed: no timing from this round
                            print(f"round {r + 1} {wh} {name:9s} FAILED a check of the test: {e!r:.200}", flush=True)
                            failures.append(f"round {r + 1} {wh} {name}")
                            continue
                        vals = {k.split(".", 1)[1]: v for k, v in recorded[-1].items() if k.startswith("latency_ms.")}
                        load = round(os.getloadavg()[0], 2)
                        loads.append(load)
                        runs.setdefault((wh, name), []).append(vals)
                        print(f"round {r + 1} {wh} {name:9s} load {load:5.2f}  median "
                              f"{statistics.median(vals.values()):6.1f} ms  {json.dumps(vals)}", flush=True)
            b.close()
    finally:
        for s in servers.values():
            _stop(s)
    out: dict = {"rounds": a.rounds, "load_average_1min": loads, "baseline": str(a.baseline), "widths": {},
                 "failed_rounds": failures}
    for wh in a.widths:
        base, new = runs.get((wh, "baseline")), runs.get((wh, "this tree"))
        if not base or not new:
            continue
        table = {}
        print(f"\n{wh}: interaction                      baseline   this tree   ratio (median of {a.rounds} rounds)")
        for k in base[0]:
            mb = statistics.median(v[k] for v in base)
            mn = statistics.median(v[k] for v in new)
            table[k] = {"baseline_ms": mb, "this_tree_ms": mn, "ratio": round(mn / mb, 2)}
            print(f"   {k:32s} {mb:8.1f}   {mn:8.1f}   {mn / mb:5.2f}")
        mb = statistics.median(statistics.median(v.values()) for v in base)
        mn = statistics.median(statistics.median(v.values()) for v in new)
        print(f"   {'median of the interactions':32s} {mb:8.1f}   {mn:8.1f}   {mn / mb:5.2f}")
        out["widths"][wh] = {"interactions": table, "median_baseline_ms": mb, "median_this_tree_ms": mn,
                             "ratio": round(mn / mb, 2)}
    print(f"load average (1 min) during the rounds: {min(loads):.2f}..{max(loads):.2f}"
          + (f"; failed rounds: {', '.join(failures)}" if failures else ""))
    if a.out:
        a.out.write_text(json.dumps(out, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
