"""Benchmark: the server-side CPU of each page interaction, in-process (no browser), this tree against a baseline
tree measured in the same run (issue #24 item 3).

Each tree runs in its own child process (``PYTHONPATH`` = the tree), which builds the pages' widgets as the served
page does (minus the browser) and times, in CPU seconds of the process (``time.process_time``: the machine is
shared), what a user's input costs the server until its answer is ready to send:

* Line of Fire (default table, and a crowded table of 45 Models: ``slow_neighbour.crowded_link``): select a Model
  (the click on the board), rotate the selected Model, drag a Model (press, 6 moves with the ghost, release:
  ``move_model``), flip a ruling (``lof_grazing``), pick a target for the Range Ruler;
* Face to Face: set a die's face with the die-face picker;
* Orders: activate a Miner by a click, a Move hexagon clicked and undone, a step forward and back.

Each interaction is repeated (``--reps``, alternating between two states, so the shared verdict cache sees what a
user's back-and-forth gives it) and the median reported; the trees alternate, and each is run ``--rounds`` times
(median of the rounds). Run from the repository root, a baseline made e.g. by
``git -C /work/main archive HEAD | tar -x -C /tmp/lofpage-base``::

    PYTHONPATH=$PWD python benchmarks/bench_page_interactions.py --baseline /tmp/lofpage-base [--reps 6]
        [--rounds 2] [--out benchmarks/page_interactions.json] [--profile "lof crowded: rotate"]

Prints per interaction the baseline's and this tree's CPU milliseconds, their ratio, and the load average.
``--profile NAME`` prints the cProfile of that interaction in this tree (no baseline run; ``BENCH_SORT=tottime``
sorts it by own time).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


# ------------------------------------------------------------------------------------------ the child: one tree

DEFERRED: list = []
"""The work a page defers until after its answer (``set_scheduler``: the link, the file, the Face to Face link),
as the served page does: run after each timed call, not timed."""


def _scheduled(widget):
    """``widget`` with the served page's scheduler (if it takes one), deferring into :data:`DEFERRED`."""
    if callable(getattr(widget, "set_scheduler", None)):
        widget.set_scheduler(lambda callback, delay_ms: DEFERRED.append(callback))
    return widget


def _run_deferred() -> None:
    while DEFERRED:
        DEFERRED.pop(0)()


def _timed(fn, reps: int) -> float:
    """The median CPU milliseconds of ``fn(i)`` over ``reps`` calls (the deferred work run after each, untimed)."""
    out = []
    for i in range(reps):
        t0 = time.process_time()
        fn(i)
        out.append((time.process_time() - t0) * 1000)
        _run_deferred()
    return round(statistics.median(out), 2)


def _lof_cases(crowded: bool):
    from explorer.games.tagraid.lof_views import LofExplorer
    from explorer.hexgrid import Hex

    lx = _scheduled(LofExplorer())
    if crowded:
        sys.path.insert(0, str(HERE))
        from slow_neighbour import crowded_link
        from explorer.urlstate import decode_state

        lx.load_url_state(decode_state(crowded_link()))
        _run_deferred()
    bv = lx.board_view
    ids = list(lx.models)
    a, b = ids[0], ids[1]
    # the shooter for the rest: b; a Miner that is not the shooter is dragged
    bv.select(b)
    mover = next(i for i in ids if i not in (a, b) and lx.models[i].kind == "miner")
    m0 = lx.models[mover]
    lay = lx.scenario.board.layout
    home = lay.pixel_to_hex(m0.center)
    spots = [lay.hex_to_pixel(Hex(home.q + dq, home.r + dr)) for dq, dr in ((0, 0), (1, 0), (0, 1), (-1, 1))]
    spots = [s for s in spots if lx.scenario.board.get(lay.pixel_to_hex(s)) is not None] or [m0.center]

    def select(i):
        lx.board_view.select(a if i % 2 == 0 else b)

    def rotate(i):
        bv.rotate_selected(1)  # always on: a new facing (and new verdicts) each time

    def drag(i):
        p0, p1 = lx.models[mover].center, spots[(i + 1) % len(spots)]
        x0, y0 = bv.to_pixel(p0)
        x1, y1 = bv.to_pixel(p1)
        bv._mouse_down(x0, y0)
        for k in range(1, 7):
            bv._mouse_move(x0 + (x1 - x0) * k / 6, y0 + (y1 - y0) * k / 6)
        bv._mouse_up(x1, y1)

    key = "lof_grazing"
    readings = list(lx.rulings.options[key].readings)

    def ruling(i):
        lx.ruling_inputs[key].value = readings[(i + 1) % 2]

    def ruler(i):
        opts = [v for _, v in lx.ruler_pick.options if v]
        lx.ruler_pick.value = opts[i % len(opts)] if i % 2 == 0 else ""

    return {"select a Model": select, "rotate the selected Model": rotate, "drag a Model": drag,
            "flip a ruling": ruling, "Range Ruler pick": ruler}


def _f2f_cases():
    from explorer.games.tagraid.views import explorer_for_scenario

    ex = _scheduled(explorer_for_scenario())
    tray = ex.tray

    def picker(i):
        tray.pick("B.1")
        tray.face_buttons.value = str(2 + i % 2)

    return {"set a die's face with the picker": picker}


def _orders_cases():
    from explorer.games.tagraid.orders_views import OrderStepper
    from explorer.hexgrid import Hex

    o = _scheduled(OrderStepper())

    def activate(i):
        o.board_view.select("W" if i % 2 == 0 else "A")

    def route(i):
        o.add_route_point(Hex(-1, 0))
        o.undo_route_point()

    def step(i):
        o.go(1)
        o.go(-1)

    return {"activate a Miner": activate, "a Move hexagon, then undo": route, "a step forward and back": step}


def _all_cases():
    yield "lof default", _lof_cases(False)
    yield "lof crowded", _lof_cases(True)
    yield "face to face", _f2f_cases()
    yield "orders", _orders_cases()


def child(reps: int, profile: str | None) -> dict:
    import warnings

    warnings.simplefilter("ignore")
    out: dict[str, float] = {}
    for page, cases in _all_cases():
        for name, fn in cases.items():
            full = f"{page}: {name}"
            fn(0), fn(1), _run_deferred()  # warm: first-use imports and caches
            if profile is not None:
                if full == profile:
                    import cProfile
                    import pstats

                    pr = cProfile.Profile()
                    pr.enable()
                    for i in range(reps):
                        fn(i)
                        pr.disable()
                        _run_deferred()
                        pr.enable()
                    pr.disable()
                    sort = os.environ.get("BENCH_SORT", "cumulative")  # or tottime
                    pstats.Stats(pr, stream=sys.stderr).sort_stats(sort).print_stats(45)
                continue
            out[full] = _timed(fn, reps)
    return out


# ------------------------------------------------------------------------------------------ the parent

def _run(tree: Path, reps: int, profile: str | None = None) -> dict:
    env = dict(os.environ, PYTHONPATH=str(tree), EXPLORER_BENCH_CHILD="1")
    cmd = [sys.executable, str(Path(__file__).resolve()), "--child", "--reps", str(reps)]
    if profile:
        cmd += ["--profile", profile]
    r = subprocess.run(cmd, cwd=tree, env=env, capture_output=not profile, text=True)
    if r.returncode:
        raise RuntimeError(f"the run in {tree} failed:\n{r.stderr[-3000:] if r.stderr else ''}")
    return json.loads(r.stdout.strip().splitlines()[-1]) if not profile else {}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--baseline", type=Path, help="a checkout of the baseline tree")
    ap.add_argument("--reps", type=int, default=6)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--out", type=Path, default=None, help="write the results as JSON here")
    ap.add_argument("--profile", default=None, help="print the cProfile of this interaction (this tree only)")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    if a.child:
        print(json.dumps(child(a.reps, a.profile)))
        return 0
    if a.profile:
        _run(ROOT, a.reps, a.profile)
        return 0
    if a.baseline is None:
        ap.error("--baseline is needed (or --profile)")
    trees = {"baseline": a.baseline.resolve(), "this tree": ROOT}
    runs: dict[str, list[dict]] = {k: [] for k in trees}
    loads = []
    for r in range(a.rounds):
        for name in (list(trees) if r % 2 == 0 else list(reversed(trees))):
            runs[name].append(_run(trees[name], a.reps))
            loads.append(round(os.getloadavg()[0], 2))
            print(f"round {r + 1} {name:9s} done (load {loads[-1]:.2f})", flush=True)
    table = {}
    print(f"\n{'interaction (CPU ms, median)':50s} baseline  this tree  ratio")
    for k in runs["this tree"][0]:
        b = statistics.median(x[k] for x in runs["baseline"] if k in x) if all(k in x for x in runs["baseline"]) \
            else None
        n = statistics.median(x[k] for x in runs["this tree"])
        table[k] = {"baseline_ms": b, "this_tree_ms": n, "ratio": round(n / b, 2) if b else None}
        print(f"{k:50s} {b if b is not None else float('nan'):8.1f}  {n:9.1f}  "
              f"{(n / b) if b else float('nan'):5.2f}")
    print(f"load average (1 min) during the rounds: {min(loads):.2f}..{max(loads):.2f}")
    if a.out:
        a.out.write_text(json.dumps({"rounds": a.rounds, "reps": a.reps, "baseline": str(a.baseline),
                                     "load_average_1min": loads, "cpu_ms": table,
                                     "recorded": time.strftime("%Y-%m-%d %H:%M:%S")}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
