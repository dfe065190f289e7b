"""Benchmark: does a slow interaction in one session hold other sessions' clicks (issue #25 item 7)?

One ``explorer serve`` process (or one per tree with ``--baseline``); session A opens the Line of Fire page on a
crowded table (45 Models, by link) and flips the ruling option ``lof_grazing``, which recomputes every pair of the
shooter (a few hundred ms); at the same moment session B, on the Face to Face page of the same process, clicks "Roll dice". Reported per
round: A's time to its new verdict list, B's click latency while A computes, and B's latency alone. Without
:mod:`explorer.serving.offload`, B's answer waits for A's computation; with it, B is answered while A computes.
Run from the repository root::

    PYTHONPATH=$PWD python benchmarks/slow_neighbour.py [--rounds 5] [--baseline /tmp/base-tree]

``tests/serving/test_offload.py`` runs one round of it against this tree.
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


def start(tree: Path, port: int, tmp: Path) -> subprocess.Popen:
    env = dict(os.environ, PYTHONPATH=str(tree))
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
    """Open A (crowded Line of Fire) and B (Face to Face), then flip A's grazing ruling and, as soon as the server
    has taken that up, click B's "Roll dice" again and again until A's answer is complete (B's slowest click is
    reported: one of them lands while A computes). Returns ``{"a_s", "b_during_s", "b_alone_s"}``."""
    base = f"http://127.0.0.1:{port}"
    a, b = Session(f"{base}{LOF_ROUTE}?s={link}"), Session(base + F2F_ROUTE)
    await a.open()
    await b.open()
    roll = b.buttons()["Roll dice"]
    labels, grazing = next((ls, k) for ls, k in a.dropdowns().items() if GRAZING in ls)
    b_alone = await b.click(roll)
    await asyncio.sleep(0.3)
    t0 = time.perf_counter()
    await a._send("PATCH-DOC", a.select_message(grazing, labels.index(GRAZING)))
    # B clicks once the server has taken A's change up (A's first answer): A's computation is under way then
    if await a._recv(60) is None:
        raise TimeoutError("no answer to A's change")
    first = time.perf_counter() - t0
    a_task = asyncio.ensure_future(_until_answered(a, 120))
    during = []
    while not a_task.done():   # B clicks again and again while A's answer lasts: one click lands in its computation
        during.append(await b.click(roll, quiet=0.02))
    a_s = first + await a_task
    b_during = max(during)
    await a.close()
    await b.close()
    return {"a_s": a_s, "b_during_s": b_during, "b_alone_s": b_alone}


def measure(tree: Path, rounds: int, port: int, tmp: Path) -> list[dict]:
    from load_test import wait_for

    links = [crowded_link(facing=7.0 * i) for i in range(rounds)]   # nothing cached from an earlier round
    proc = start(tree, port, tmp)
    try:
        wait_for(f"http://127.0.0.1:{port}/explorer-stats", [proc])
        return [asyncio.run(one_round(port, link)) for link in links]
    finally:
        proc.terminate()
        proc.wait(30)


def main(argv: list[str] | None = None) -> int:
    from load_test import free_port

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--baseline", type=Path, help="a checkout without the offload, measured in the same run")
    a = ap.parse_args(argv)
    trees = [("this tree", ROOT)] + ([("baseline", a.baseline)] if a.baseline else [])
    with tempfile.TemporaryDirectory() as tmp:
        for name, tree in trees:
            rows = measure(tree, a.rounds, free_port(), Path(tmp))
            med = {k: statistics.median(r[k] for r in rows) * 1000 for k in rows[0]}
            print(f"{name}: A's ruling flip {med['a_s']:.0f} ms; B's slowest click while A computes "
                  f"{med['b_during_s']:.0f} ms, "
                  f"alone {med['b_alone_s']:.0f} ms (medians of {len(rows)}; load {os.getloadavg()[0]:.1f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
