"""Benchmark: the Order Expenditure Sequence stepper's Python side (orders_views.OrderStepper) against the engine's
own replay of the same Order, measured in the same run.

Run from the repository root::

    PYTHONPATH=$PWD python benchmarks/bench_orders_stepper.py [--repeat 5]

Baseline: ``orders.sequence.play`` of the whole Order (the eleven step functions, every ARO right computed exactly
along the route) on the default scenario ``tr-order-corner``. Measured against it: what the page does on the server
for (a) a click on a hexagon that changes the Move (the whole Order replayed, then the board, the step list, the dice
tray and the link redrawn), (b) a change of the second Skill's target text (steps 1 to 2.1 reused: the Activation and
the Move did not change), (c) ◀ / ▶ (no replay: the board and the step list of another step). The browser's part
(transport and drawing) is measured by ``tests/browser/test_orders_page.py`` and written to the browser timing report.

Goal (issue #8): one full Order from click to redrawn board < 150 ms in the browser; here the Python side of a click
should stay within a small factor of the engine's own replay (the widget adds little).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from explorer.games.tagraid.orders.sequence import play  # noqa: E402
from explorer.games.tagraid.orders_views import OrderStepper  # noqa: E402
from explorer.hexgrid import Hex  # noqa: E402


def _median(fn, repeat: int) -> float:
    out = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t0)
    return statistics.median(out)


def main(argv=None) -> dict[str, float]:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    a = ap.parse_args(argv)
    w = OrderStepper()
    w.show(11)
    baseline = _median(lambda: play(w.initial, w.decl, w.dice), a.repeat)

    def click():
        w.undo_route_point()                 # not timed apart: both halves replay; a click is one of them
        w.board_view.select(Hex(1, 0))

    click_t = _median(click, a.repeat) / 2
    texts = ["T", "T:3"]
    k = [0]

    def target():
        k[0] += 1
        w.targets.value = texts[k[0] % 2]

    target_t = _median(target, a.repeat)

    def step():
        w.go(-1 if w.position > 5 else +5)

    step_t = _median(step, a.repeat)
    assert w.rejection is None, w.rejection
    res = {"engine_play_ms": baseline * 1e3, "click_full_order_ms": click_t * 1e3, "target_text_ms": target_t * 1e3,
           "step_ms": step_t * 1e3}
    print(f"engine replay of the whole Order (baseline): {baseline * 1e3:.1f} ms")
    print(f"click on a hexagon (whole Order replayed + redrawn): {click_t * 1e3:.1f} ms  "
          f"= {click_t / baseline:.2f} x the baseline")
    print(f"second Skill's target edited (steps 1-2.1 reused): {target_t * 1e3:.1f} ms  "
          f"= {target_t / baseline:.2f} x the baseline")
    print(f"back / forward (no replay): {step_t * 1e3:.1f} ms  = {step_t / baseline:.2f} x the baseline")
    return res


if __name__ == "__main__":
    main()
