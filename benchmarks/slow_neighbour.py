"""Benchmark: does a slow interaction in one session hold other sessions' clicks (issue #25 item 7)?

Two ``explorer serve`` processes of this tree, one with offloading (the default) and one with ``EXPLORER_OFFLOAD=0``
(:func:`explorer.serving.offload.offload_enabled`: the page computes on the event loop, as before the offload), run
round by round alternately in the same run (or with ``--baseline``, a second checkout instead of the switched-off
process). In each round session A opens the Line of Fire page on a crowded table (45 Models, by link) and flips the
ruling option ``lof_grazing``, which recomputes every pair of the shooter (a few hundred ms); at the same moment
session B, on the Face to Face page of the same process, clicks "Roll dice" again and again until A's answer is
complete. Reported per process: A's time to its new verdict list, B's slowest click while A computes, and B's
click alone (medians over the rounds), and the ratio of B's slowest click without and with offloading. Without
:mod:`explorer.serving.offload`, B's answer waits for A's computation; with it, B is answered while A computes.
Run from the repository root::

    PYTHONPATH=$PWD python benchmarks/slow_neighbour.py [--rounds 5] [--json] [--baseline /tmp/base-tree]

``tests/serving/test_slow_neighbour_run.py`` runs one round each way (the numbers are this script's job, not the
test's). The latest measurement is in ``benchmarks/README.md``.
"""

from __future__ import annotations

import argparse
import asyncio
import copy
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

from ws_session import Session  # noqa: E402

LOF_ROUTE = "/tagraid-line-of-fire"
F2F_ROUTE = "/tagraid-face-to-face"
GRAZING = "touching_blocks"
"""The reading of the ruling option ``lof_grazing`` session A picks: every pair of the shooter is recomputed."""


def crowded_link(n_models: int = 45, facing: float = 0.0) -> str:
    """The Line of Fire page's ``?s=`` value for its default table with Miners added (Silhouette 5, sides A and B
    alternating, each turned to ``facing`` degrees: another facing, another table for the shared verdict cache) on
    free hexagons until it holds ``n_models`` Models."""
    sys.path.insert(0, str(ROOT))
    from explorer.errors import ScenarioError
    from explorer.games.tagraid.lof_views import LofExplorer
    from explorer.urlstate import encode_state

    lx = LofExplorer(incremental=False)
    doc = lx.table_document()
    used = {m.get("hex") for m in doc["models"]}
    n = 0
    for q in range(0, 14):
        for r in range(0, 20):
            if len(doc["models"]) >= n_models:
                break
            h = f"{q},{r}"
            if h in used:
                continue
            d = copy.deepcopy(doc)
            d["models"].append({"id": f"M{n}", "hex": h, "silhouette": 5, "facing": facing, "side": "AB"[n % 2],
                                "kind": "miner"})
            try:
                from explorer.games.tagraid.table_file import table_from_dict

                table_from_dict(d, "link")
            except ScenarioError:
                continue
            doc, n = d, n + 1
            used.add(h)
    return encode_state(doc)


def start(tree: Path, port: int, tmp: Path, offload: bool = True) -> subprocess.Popen:
    """``explorer serve`` of ``tree`` on ``port`` (``offload=False``: with ``EXPLORER_OFFLOAD=0``)."""
    env = dict(os.environ, PYTHONPATH=str(tree), EXPLORER_OFFLOAD="1" if offload else "0")
    log = open(tmp / f"serve-{port}.log", "w")
    return subprocess.Popen([sys.executable, "-m", "explorer", "serve", "--port", str(port), "--stats",
                             "--static-dir", str(tmp / f"js-{port}")], cwd=tree, env=env, stdout=log,
                            stderr=subprocess.STDOUT, start_new_session=True)


async def _until_answered(s: Session, timeout: float, quiet: float = 0.5) -> float:
    """Seconds until the last message of ``s``'s answer (the answer is over when the server has been quiet for
    ``quiet`` seconds): the new verdict list and the redrawn board come last."""
    t = time.perf_counter()
    last = None
    end = t + timeout
    while time.perf_counter() < end:
        got = await s._recv(quiet if last is not None else end - time.perf_counter())
        if got is None:
            break
        last = time.perf_counter() - t
    if last is None:
        raise TimeoutError("no answer")
    return last


async def one_round(port: int, link: str) -> dict:
    """Open A (crowded Line of Fire) and B (Face to Face), then flip A's grazing ruling and, 20 ms later (the change
    has reached the server: its callback is running), click B's "Roll dice" again and again until A's answer is
    complete. B's first click is sent while A's change is being handled, with or without offloading (waiting for
    A's first answer would, without offloading, wait for the whole computation: B would never overlap it); B's
    slowest click is reported. Returns ``{"a_s", "b_during_s", "b_first_s", "b_alone_s", "b_clicks"}``."""
    base = f"http://127.0.0.1:{port}"
    a, b = Session(f"{base}{LOF_ROUTE}?s={link}"), Session(base + F2F_ROUTE)
    await a.open()
    await b.open()
    roll = b.buttons()["Roll dice"]
    labels, grazing = next((ls, k) for ls, k in a.dropdowns().items() if GRAZING in ls)
    b_alone = await b.click(roll)
    await asyncio.sleep(0.3)
    await a._send("PATCH-DOC", a.select_message(grazing, labels.index(GRAZING)))
    a_task = asyncio.ensure_future(_until_answered(a, 120))
    await asyncio.sleep(0.02)
    during = []
    while not a_task.done() or not during:   # one click at least; more while A's answer lasts
        during.append(await b.click(roll, quiet=0.02))
    a_s = await a_task
    await a.close()
    await b.close()
    return {"a_s": a_s, "b_during_s": max(during), "b_first_s": during[0], "b_alone_s": b_alone,
            "b_clicks": len(during)}


def measure(setups: list[tuple[str, Path, bool]], rounds: int, tmp: Path, models: int = 45) -> dict[str, list[dict]]:
    """Start one server per ``(name, tree, offload)`` and run ``rounds`` rounds on each, alternating between them
    round by round (the load of the shared machine falls on both alike). Every round uses a table of its own (another
    facing), so nothing is cached from an earlier round. Returns ``{name: [one_round's dict, ...]}``."""
    from load_test import free_port, wait_for

    links = [crowded_link(models, facing=7.0 * i) for i in range(rounds)]
    procs, ports = [], []
    try:
        for _name, tree, offload in setups:
            port = free_port()
            procs.append(start(tree, port, tmp, offload))
            ports.append(port)
        for port in ports:
            wait_for(f"http://127.0.0.1:{port}/explorer-stats", procs)
        out: dict[str, list[dict]] = {name: [] for name, _t, _o in setups}
        for link in links:
            for (name, _t, _o), port in zip(setups, ports):
                out[name].append(asyncio.run(one_round(port, link)))
        return out
    finally:
        for p in procs:
            p.terminate()
        for p in procs:
            try:
                p.wait(30)
            except subprocess.TimeoutExpired:
                p.kill()


def summary(rows: dict[str, list[dict]]) -> dict[str, dict[str, float]]:
    """Medians in ms per setup: ``{"a_ms", "b_during_ms", "b_first_ms", "b_alone_ms", "rounds"}``."""
    return {name: {**{k[:-2] + "_ms": round(statistics.median(r[k] for r in rs) * 1000, 1) for k in rs[0]
                      if k.endswith("_s")}, "rounds": len(rs)} for name, rs in rows.items()}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--baseline", type=Path, help="compare with this checkout instead of this tree with "
                                                  "EXPLORER_OFFLOAD=0")
    ap.add_argument("--json", action="store_true", help="print the medians as JSON too")
    ap.add_argument("--models", type=int, default=45, help="Models on A's table (at most 100; more: a slower flip)")
    a = ap.parse_args(argv)
    other = ("baseline", a.baseline, True) if a.baseline else ("without offload", ROOT, False)
    setups = [("with offload", ROOT, True), other]
    load0 = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as tmp:
        rows = measure(setups, a.rounds, Path(tmp), a.models)
    print(f"{a.models} Models on A's table; {a.rounds} rounds, alternating")
    med = summary(rows)
    for name, m in med.items():
        print(f"{name}: A's ruling flip {m['a_ms']:.0f} ms; B's slowest click while A computes "
              f"{m['b_during_ms']:.0f} ms, alone {m['b_alone_ms']:.0f} ms (medians of {m['rounds']})")
    w, wo = med[setups[0][0]], med[setups[1][0]]
    ratio = wo["b_during_ms"] / w["b_during_ms"] if w["b_during_ms"] else float("inf")
    print(f"B's slowest click while A computes, {setups[1][0]} / with offload: {ratio:.2f}x "
          f"(load {load0:.1f} -> {os.getloadavg()[0]:.1f})")
    if a.json:
        print(json.dumps({"medians": med, "ratio_b_during": round(ratio, 2), "rounds": rows}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
