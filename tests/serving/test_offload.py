"""Heavy page work off the event loop (issue #25 item 7; :mod:`explorer.serving.offload`): the computation runs on a
worker, the answer is drawn back through the session document's next-tick callbacks, only the latest request of a
run is drawn, and the Line of Fire page computes nothing on the loop when it has an offloader. The live A/B
measurement (a crowded table's ruling flip in one session, a click in another) is ``benchmarks/slow_neighbour.py``."""

from __future__ import annotations

import logging
import subprocess
import sys
import threading
from concurrent.futures import Future
from pathlib import Path
from types import SimpleNamespace

from explorer.serving.offload import SessionOffloader, find_offloadable

ROOT = Path(__file__).resolve().parents[2]


class FakeDoc:
    """A document whose next-tick callbacks wait in a list until :meth:`tick` (the session's event loop)."""

    def __init__(self, closed: bool = False):
        self.callbacks: list = []
        self.closed = closed

    def add_next_tick_callback(self, cb):
        if self.closed:
            raise RuntimeError("the document is closed")
        self.callbacks.append(cb)

    def tick(self) -> int:
        n = 0
        while self.callbacks:
            self.callbacks.pop(0)()
            n += 1
        return n


class ManualExecutor:
    """An executor whose futures finish only when the test says so (no thread timing in the assertions)."""

    def __init__(self):
        self.jobs: list[tuple[Future, object]] = []

    def submit(self, fn):
        f = Future()
        self.jobs.append((f, fn))
        return f

    def finish(self, i: int = 0) -> None:
        f, fn = self.jobs.pop(i)
        try:
            f.set_result(fn())
        except Exception as e:   # noqa: BLE001 - the future carries it, like a worker's
            f.set_exception(e)


def test_compute_runs_on_the_executor_and_the_answer_is_drawn_on_the_loop():
    doc, ex, drawn = FakeDoc(), ManualExecutor(), []
    off = SessionOffloader(doc, ex)
    off(lambda: 41 + 1, drawn.append)
    assert drawn == [] and len(ex.jobs) == 1       # nothing computed or drawn on the caller's stack
    ex.finish()
    assert drawn == [] and doc.tick() == 1         # drawn only from the loop's next tick
    assert drawn == [42] and off.applied == 1


def test_a_run_of_requests_draws_only_the_latest_answer():
    doc, ex, drawn = FakeDoc(), ManualExecutor(), []
    off = SessionOffloader(doc, ex)
    for i in range(4):   # a drag: four positions while the first is computed
        off(lambda i=i: i, drawn.append)
    assert len(ex.jobs) == 1                        # one computation at a time per widget
    ex.finish()
    doc.tick()
    assert drawn == [] and len(ex.jobs) == 1       # the first answer is stale: the latest request computes now
    ex.finish()
    doc.tick()
    assert drawn == [3] and off.superseded == 3    # 1 and 2 never computed, 0 computed but not drawn


def test_a_failed_computation_is_logged_and_draws_nothing(caplog):
    doc, ex, drawn = FakeDoc(), ManualExecutor(), []
    off = SessionOffloader(doc, ex)
    off(lambda: 1 / 0, drawn.append)
    ex.finish()
    with caplog.at_level(logging.ERROR, logger="explorer.serving.offload"):
        doc.tick()
    assert drawn == [] and "offloaded widget computation failed" in caplog.text
    off(lambda: 5, drawn.append)   # the widget keeps working
    ex.finish()
    doc.tick()
    assert drawn == [5]


def test_a_session_that_ended_gets_nothing_and_raises_nothing():
    ex, drawn = ManualExecutor(), []
    off = SessionOffloader(FakeDoc(closed=True), ex)
    off(lambda: 1, drawn.append)
    ex.finish()   # the worker's done-callback finds the document closed: swallowed
    assert drawn == []


def test_the_worker_is_another_thread():
    doc, seen = FakeDoc(), []
    off = SessionOffloader(doc)   # the process's real executor
    done = threading.Event()
    off(lambda: (seen.append(threading.get_ident()), done.set()), lambda _: None)
    assert done.wait(30) and seen[0] != threading.get_ident()


def test_the_line_of_fire_page_computes_nothing_on_the_loop_with_an_offloader():
    """With an offloader the page hands its Line of Fire analysis over and keeps its previous verdicts until the
    answer is drawn; the answer is the one the page computes at once without an offloader."""
    from explorer.games.tagraid.lof_views import LofExplorer

    page, plain = LofExplorer(), LofExplorer()
    assert find_offloadable(page) == [page]
    requests = []
    page.set_offloader(lambda compute, apply: requests.append((compute, apply)))
    before = [v.target for v in page.verdicts], page.verdict_html.value
    other = next(m for m in page.models if m != page.shooter)
    page.set_shooter(other)
    plain.set_shooter(other)
    assert len(requests) == 1
    assert ([v.target for v in page.verdicts], page.verdict_html.value) == before   # not computed yet
    compute, apply = requests.pop()
    apply(compute())
    assert page.verdict_html.value == plain.verdict_html.value
    assert [(v.target, v.lof.has_lof, v.band) for v in page.verdicts] == \
        [(v.target, v.lof.has_lof, v.band) for v in plain.verdicts]


def test_the_blocking_words_do_not_depend_on_string_hashing():
    """Two obstacles hit by as many rays: the words name the first listed, in every process (they used to come out
    of a set, so the same table read "blocked by Stoorworm" in one run and "blocked: no tile" in the next)."""
    code = ("from types import SimpleNamespace as N\n"
            "from explorer.games.tagraid.lof_picture import short_verdict\n"
            "rays = [N(obstacle=o) for o in ('model:Stoorworm', 'hex:3,10', 'scenery:rock 4', 'hex:3,10', "
            "'model:Stoorworm')]\n"
            "print(short_verdict(N(lof=N(reason='blocked', blocked_by=()), blocked_rays=rays)))\n")
    seen = set()
    for seed in range(6):
        r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                           env={"PYTHONHASHSEED": str(seed), "PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
        assert r.returncode == 0, r.stderr
        seen.add(r.stdout.strip())
    assert seen == {"blocked by Stoorworm"}
    from explorer.games.tagraid.lof_picture import short_verdict

    one = SimpleNamespace(lof=SimpleNamespace(reason="blocked", blocked_by=("hex:1,2",)), blocked_rays=[])
    assert short_verdict(one) == "blocked: no tile"
