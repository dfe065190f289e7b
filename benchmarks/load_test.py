"""Scale-out load test on real parts: N ``explorer serve`` processes behind a real nginx (Debian's package), M
browser-less sessions clicking through real websockets; clicks per second per process and p50/p95 latency as N
grows (issue #25 item 7).

For each N of ``--procs`` (default ``1,2``):

1. start N ``explorer serve --stats`` processes on free loopback ports (each warms its pages first);
2. start nginx (``/usr/sbin/nginx``, as root or not; its own prefix, pid and temp directories in a temporary folder)
   with ``deploy/nginx-explorer.conf`` — the README's example, byte for byte, except its upstream ``server`` lines
   and its ``listen`` port, which are rewritten to these processes and a free port;
3. open M sessions of the Face to Face page through nginx (``benchmarks/ws_session.py``: the page's token, its
   websocket, its document; each session keeps the cookie nginx sets, so its websocket reaches the process that
   served its page);
4. every session clicks "Roll dice" K times, all sessions at once (each waits for the answer to its click before the
   next, as a person does);
5. report: sessions per process (each process's own ``/explorer-stats``, asked directly), clicks per second in all
   and per process, p50 / p95 / max latency of a click (the time to the server's answer), the load average.

Run (root is not needed; Debian's nginx must be installed: ``apt-get install nginx-light``)::

    .venv/bin/python benchmarks/load_test.py --procs 1,2 --sessions 8 --clicks 10

On this 2-core machine a second process can only help while one core is idle: the numbers say how throughput
grows here, not on a bigger host. ``benchmarks/session_waves.py`` is the browser load test of memory (two waves of
sessions opened and closed).
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import json
import os
import re
import shutil
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
sys.path.insert(0, str(Path(__file__).resolve().parent))

from ws_session import Session  # noqa: E402

NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
CONF = ROOT / "deploy" / "nginx-explorer.conf"
ROUTE = "/tagraid-face-to-face"
BUTTON = "Roll dice"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def nginx_config(upstream_ports: list[int], listen: int, prefix: Path) -> str:
    """The README's nginx example (:data:`CONF`) with its upstream servers and listen port replaced, inside a
    minimal main configuration that keeps nginx's pid, logs and temp files under ``prefix`` (not daemonised).

    Raises:
        ValueError: the example no longer has the lines this rewrites.
    """
    site = CONF.read_text()
    servers = "".join(f"    server 127.0.0.1:{p};\n" for p in upstream_ports)
    site, n = re.subn(r"(?m)^    server 127\.0\.0\.1:\d+;\n(?:    server 127\.0\.0\.1:\d+;\n)*", servers, site)
    site, m = re.subn(r"(?m)^    listen 80;$", f"    listen 127.0.0.1:{listen};", site)
    if n != 1 or m != 1:
        raise ValueError(f"{CONF}: expected one block of upstream 'server 127.0.0.1:PORT;' lines and 'listen 80;'")
    temp = "".join(f"    {d}_temp_path {prefix / d};\n" for d in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    return (f"daemon off;\npid {prefix / 'nginx.pid'};\nerror_log {prefix / 'error.log'} warn;\nworker_processes 1;\n"
            f"events {{ worker_connections 1024; }}\n"
            f"http {{\n    access_log off;\n{temp}{site}}}\n")


def start_nginx(upstream_ports: list[int], listen: int, prefix: Path) -> subprocess.Popen:
    prefix.mkdir(parents=True, exist_ok=True)
    conf = prefix / "nginx.conf"
    conf.write_text(nginx_config(upstream_ports, listen, prefix))
    check = subprocess.run([NGINX, "-t", "-p", str(prefix), "-c", str(conf)], capture_output=True, text=True)
    if check.returncode:
        raise RuntimeError("nginx -t: " + check.stderr.strip()[-1000:])
    return subprocess.Popen([NGINX, "-p", str(prefix), "-c", str(conf)], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)


def start_explorer(port: int, nginx_port: int, tmp: Path) -> subprocess.Popen:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    log = open(tmp / f"serve-{port}.log", "w")
    return subprocess.Popen([sys.executable, "-m", "explorer", "serve", "--port", str(port), "--stats",
                             "--allow-websocket-origin", f"127.0.0.1:{nginx_port}",
                             "--static-dir", str(tmp / f"js-{port}")], cwd=ROOT, env=env, stdout=log,
                            stderr=subprocess.STDOUT, start_new_session=True)


def wait_for(url: str, procs: list[subprocess.Popen], timeout: float = 300) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if any(p.poll() is not None for p in procs):
            raise RuntimeError(f"a server exited before {url} answered")
        try:
            urllib.request.urlopen(url, timeout=5).read()
            return
        except OSError:
            time.sleep(0.5)
    raise TimeoutError(f"{url} did not answer within {timeout} s")


def stats(port: int) -> dict:
    return json.loads(urllib.request.urlopen(f"http://127.0.0.1:{port}/explorer-stats", timeout=30).read())


async def drive(base: str, sessions: int, clicks: int) -> tuple[list[float], float, float]:
    """Open ``sessions`` sessions through ``base`` and click ``clicks`` times in each, all at once; returns every
    click's latency (s), the seconds the opening took and the seconds the clicking took."""
    ss = [Session(base + ROUTE) for _ in range(sessions)]
    t = time.perf_counter()
    await asyncio.gather(*(s.open() for s in ss))
    opened = time.perf_counter() - t

    async def click_all(s: Session) -> list[float]:
        button = s.buttons()[BUTTON]
        return [await s.click(button) for _ in range(clicks)]

    t = time.perf_counter()
    lat = await asyncio.gather(*(click_all(s) for s in ss))
    clicking = time.perf_counter() - t
    for s in ss:
        await s.close()
    return [x for one in lat for x in one], opened, clicking


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(q * (len(xs) - 1))))]


def run_one(n: int, sessions: int, clicks: int) -> dict:
    """One row of the report: ``n`` processes behind nginx."""
    tmp = Path(tempfile.mkdtemp(prefix="explorer-load-"))
    listen = free_port()
    ports = [free_port() for _ in range(n)]
    servers = [start_explorer(p, listen, tmp) for p in ports]
    nginx = None
    try:
        for p in ports:
            wait_for(f"http://127.0.0.1:{p}/explorer-stats", servers)
        nginx = start_nginx(ports, listen, tmp / "nginx")
        wait_for(f"http://127.0.0.1:{listen}/favicon.ico", [nginx])
        before = {p: stats(p)["other_session_documents"] for p in ports}
        load0 = os.getloadavg()[0]
        # on a fresh loop in a fresh thread: callable where an event loop already runs (a whole pytest run)
        with concurrent.futures.ThreadPoolExecutor(1) as pool:
            lat, opened, clicking = pool.submit(asyncio.run, drive(f"http://127.0.0.1:{listen}", sessions,
                                                                   clicks)).result()
        per_proc = {p: stats(p)["other_session_documents"] - before[p] for p in ports}
        return {"procs": n, "sessions": sessions, "clicks": len(lat), "sessions_per_process": list(per_proc.values()),
                "open_s": round(opened, 2), "click_s": round(clicking, 2),
                "clicks_per_s": round(len(lat) / clicking, 1), "clicks_per_s_per_process": round(len(lat) / clicking / n, 1),
                "p50_ms": round(1000 * statistics.median(lat)), "p95_ms": round(1000 * pct(lat, 0.95)),
                "max_ms": round(1000 * max(lat)), "load": [round(load0, 1), round(os.getloadavg()[0], 1)]}
    finally:
        for p in ([nginx] if nginx else []) + servers:
            try:
                os.killpg(p.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
        for p in ([nginx] if nginx else []) + servers:
            try:
                p.wait(20)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
        shutil.rmtree(tmp, ignore_errors=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--procs", default="1,2", help="comma-separated process counts, each 1..8 (default 1,2)")
    ap.add_argument("--sessions", type=int, default=8, choices=range(1, 65), metavar="1..64")
    ap.add_argument("--clicks", type=int, default=10, choices=range(1, 201), metavar="1..200")
    ap.add_argument("--json", action="store_true", help="one JSON object per row instead of text")
    a = ap.parse_args()
    try:
        counts = [int(x) for x in a.procs.split(",")]
    except ValueError:
        ap.error("--procs: comma-separated whole numbers 1..8")
    if not counts or not all(1 <= c <= 8 for c in counts):
        ap.error("--procs: comma-separated whole numbers 1..8")
    if not Path(NGINX).exists():
        print(f"nginx not found ({NGINX}): apt-get install nginx-light", file=sys.stderr)
        return 2
    rows = []
    for n in counts:
        row = run_one(n, a.sessions, a.clicks)
        rows.append(row)
        if a.json:
            print(json.dumps(row), flush=True)
        else:
            print(f"{n} process(es) behind nginx, {a.sessions} sessions x {a.clicks} clicks: sessions per process "
                  f"{row['sessions_per_process']}; {row['clicks_per_s']} clicks/s "
                  f"({row['clicks_per_s_per_process']} per process); latency p50 {row['p50_ms']} ms, "
                  f"p95 {row['p95_ms']} ms, max {row['max_ms']} ms; sessions opened in {row['open_s']} s; "
                  f"load {row['load'][0]} -> {row['load'][1]}", flush=True)
    if len(rows) > 1 and not a.json:
        base = rows[0]["clicks_per_s"]
        print("throughput against 1 process: " + ", ".join(f"{r['procs']}: {r['clicks_per_s'] / base:.2f}x"
                                                          for r in rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
