"""The Line of Fire explorer under a scheduler (the Panel app): the board and verdicts first, the link, the file and
the Face to Face link right after; turning a Miner skips the placement checks."""

from dataclasses import replace

import pytest

from explorer.errors import ScenarioError
from explorer.games.tagraid.lof_analysis import LofAnalysisCache
from explorer.games.tagraid.lof_views import LofExplorer, table_with_models


class FakeScheduler:
    def __init__(self):
        self.queue: list = []

    def __call__(self, callback, delay_ms):
        self.queue.append((delay_ms, callback))

    def run_all(self, limit: int = 200) -> int:
        n = 0
        while self.queue and n < limit:
            self.queue.sort(key=lambda x: x[0])
            _, cb = self.queue.pop(0)
            cb()
            n += 1
        return n


def test_link_and_file_follow_after_the_board():
    w = LofExplorer(incremental=True)
    w.analysis_cache = LofAnalysisCache()
    calls = []
    w.on_state_change(lambda: calls.append(w.table_document()["models"][0]["facing"]))
    sched = FakeScheduler()
    w.set_scheduler(sched)
    before = w.download.value
    w.rotate_model(w.shooter, 1)
    assert calls == [] and w.download.value == before  # not yet: the board and the verdicts went first
    assert any(v.target for v in w.verdicts)
    sched.run_all()
    assert len(calls) == 1 and w.download.value != before
    assert calls[0] == w.models[w.shooter].facing
    # a run of inputs writes the state once
    w.rotate_model(w.shooter, 1)
    w.rotate_model(w.shooter, 1)
    sched.run_all()
    assert len(calls) == 2


def test_turning_a_miner_skips_the_checks_but_a_moved_base_is_checked():
    w = LofExplorer()
    t = w.table
    m = t.models["Cutter"]
    new = dict(t.models)
    new["Cutter"] = replace(m, facing=m.facing + 17.0)
    t2 = table_with_models(t, new)
    assert t2.models["Cutter"].facing == m.facing + 17.0
    moved = dict(t.models)
    moved["Cutter"] = replace(m, x=t.models["Spotter"].x, y=t.models["Spotter"].y)  # onto another base
    with pytest.raises(ScenarioError):
        table_with_models(t, moved)


def _layer_messages(w: LofExplorer) -> list:
    """The board's canvas messages from now on, each as the set of layer names it draws on (the manager's next
    command names its canvas again: ``reset_manager``)."""
    from explorer.widgets.canvas import reset_manager

    from explorer.widgets.hexboard import LAYERS

    bv = w.board_view
    names = {bv.layers[name].model_id: name for name in LAYERS}
    mgr = bv.canvas._canvas_manager
    reset_manager(bv.layers["terrain"])
    sent: list = []

    def record(cmd, buffers=[]):
        cmds = cmd if cmd and isinstance(cmd[0], list) else [cmd]
        sent.append({names[c[1][0].split("IPY_MODEL_", 1)[1]] for c in cmds if c[0] == 60})
    mgr._send_custom = record
    return sent


def test_picking_a_target_redraws_only_its_ring_and_the_face_to_face_link_follows(monkeypatch):
    """Issue #24 item 3: a target ring is its own layer (marks): picking one sends one small message to that layer,
    recomputes no overlay and measures no roll before the answer; the Face to Face link follows (deferred)."""
    from explorer.games.tagraid.lof_picture import LofSnapshot

    w = LofExplorer()
    sched = FakeScheduler()
    w.set_scheduler(sched)
    sched.run_all()
    enemy = next(k for k, m in w.models.items() if w.models[w.shooter].is_enemy_miner_of(m))
    overlays_before = list(w.board_view.overlays)
    built, rolls = [], []
    real_overlays, real_roll = LofSnapshot.overlays, LofExplorer.face_to_face_roll
    monkeypatch.setattr(LofSnapshot, "overlays", lambda self, *a, **k: built.append(1) or real_overlays(self, *a, **k))
    monkeypatch.setattr(LofExplorer, "face_to_face_roll", lambda self: rolls.append(1) or real_roll(self))
    sent = _layer_messages(w)
    w.pick_mode.value = "target"
    w.board_view.select(enemy)
    assert w.targets == [enemy] and sent == [{"marks"}] and built == [] and rolls == []
    assert w.board_view.overlays == overlays_before
    assert [(type(o).__name__, o.center) for o in w.board_view.marks] == [("Circle", w.models[enemy].center)]
    assert "lof-f2f-link" not in w.f2f_html.value   # not yet: the ring went first
    sched.run_all()
    assert "lof-f2f-link" in w.f2f_html.value and rolls
    sent = _layer_messages(w)
    w.board_view.select(enemy)   # picked again: dropped, its ring cleared (the layer only)
    assert w.targets == [] and sent == [{"marks"}] and w.board_view.marks == []


def test_zooming_out_and_fitting_after_a_zoom_in_recompute_and_redraw_nothing(monkeypatch):
    """Issue #24 item 3: a pure view change: the zoom in redraws the board once (labels re-placed for the finer
    drawing); zooming back out and fitting keep that drawing and only change its shown size."""
    from explorer.games.tagraid.lof_picture import LofSnapshot

    w = LofExplorer()
    bv = w.board_view
    bv.fit()
    built = []
    real_overlays = LofSnapshot.overlays
    monkeypatch.setattr(LofSnapshot, "overlays", lambda self, *a, **k: built.append(1) or real_overlays(self, *a, **k))
    sent = _layer_messages(w)
    bv.zoom_in.click()
    assert len(built) == 1 and sorted(n for m in sent for n in m) == ["board", "overlays", "pieces"]
    del sent[:], built[:]
    bv.zoom_out.click()
    bv.zoom_fit.click()
    assert sent == [] and built == [] and bv.fitted


class _WorkerOffloader:
    """An offloader as the served page's (:class:`explorer.serving.offload.SessionOffloader`): ``executor`` is where
    the prefetch runs; the computation itself is done at once here."""

    def __init__(self, executor):
        self.executor = executor

    def __call__(self, compute, apply):
        apply(compute())


class _HeldExecutor:
    """Keeps what is submitted until :meth:`run_all` (to interleave a prefetch with a click)."""

    def __init__(self):
        self.jobs = []

    def submit(self, fn):
        from concurrent.futures import Future

        fut = Future()
        self.jobs.append((fn, fut))
        return fut

    def run_all(self):
        while self.jobs:
            fn, fut = self.jobs.pop(0)
            fut.set_result(fn())


def _prefetched_explorer(executor):
    w = LofExplorer()
    w.analysis_cache = LofAnalysisCache()
    w.PREFETCH_PAUSE = 0.0   # run here at once (the served worker pauses between pairs)
    w.prefetch = True        # an option, off by default (EXPLORER_LOF_PREFETCH=1 turns it on)
    sched = FakeScheduler()
    w.set_scheduler(sched)
    w.set_offloader(_WorkerOffloader(executor))
    w.update()
    return w, sched


def test_idle_prefetch_answers_the_next_shooter_ruling_and_declared_move_from_the_cache():
    """Issue #24 item 3 (heavy work once, reused): after an answer, the served page computes in the background the
    rows the next clicks ask for; picking another shooter, flipping a ruling and toggling the declared Move then
    compute no pair, and show the verdicts a fresh explorer computes."""
    ex = _HeldExecutor()
    w, sched = _prefetched_explorer(ex)
    cache = w.analysis_cache
    sched.run_all()          # the deferred link, then the prefetch is submitted
    assert len(ex.jobs) == 1 and w.prefetched == 0
    ex.run_all()
    assert w.prefetched >= len(w.prefetch_jobs()) * (len(w.models) - 1) - 1
    computed = cache.computed

    def same_as_fresh():   # what the explorer shows = a fresh cache's answer on the same table and readings
        fresh = LofAnalysisCache().analyse(w.table, w.shooter, w.rulings.copy(), w.calibration, w.weapon, w.threat)
        assert [(v.target, v.lof.has_lof, v.lof.reason, v.band, v.mod, v.cover) for v in w.verdicts] == \
            [(v.target, v.lof.has_lof, v.lof.reason, v.band, v.mod, v.cover) for v in fresh]

    w.set_shooter("Digger")
    assert cache.computed == computed
    same_as_fresh()
    sched.run_all(), ex.run_all()
    computed = cache.computed
    w.ruling_inputs["lof_grazing"].value = "touching_blocks"
    assert cache.computed == computed
    same_as_fresh()
    sched.run_all(), ex.run_all()
    computed = cache.computed
    if w.models[w.shooter].kind == "miner":
        w.moving.value = not w.moving.value
        assert cache.computed == computed
        same_as_fresh()


def test_a_change_stops_the_prefetch_of_the_state_before():
    """A click while the prefetch runs: it stops at its next pair (the worker is free for the click's computation);
    no prefetch without a worker (notebooks)."""
    ex = _HeldExecutor()
    w, sched = _prefetched_explorer(ex)
    sched.run_all()
    assert len(ex.jobs) == 1
    w.rotate_model(w.shooter, 1)   # a newer state before the worker started
    ex.jobs[0][0]()
    assert w.prefetched == 0
    plain = LofExplorer()
    plain.set_scheduler(FakeScheduler())
    assert plain.prefetch_jobs() and plain._schedule_prefetch() is None   # no offloader: nothing submitted


def test_the_prefetch_is_an_option_off_by_default(monkeypatch):
    """EXPLORER_LOF_PREFETCH=1 turns the idle prefetch on; unset (or anything else) leaves it off: after an answer
    nothing is submitted to the worker."""
    from explorer.games.tagraid import lof_views

    monkeypatch.delenv(lof_views.PREFETCH_ENV, raising=False)
    assert not lof_views.prefetch_enabled()
    ex = _HeldExecutor()
    w = LofExplorer()
    sched = FakeScheduler()
    w.set_scheduler(sched)
    w.set_offloader(_WorkerOffloader(ex))
    w.update()
    sched.run_all()
    assert ex.jobs == [] and not w.prefetch
    monkeypatch.setenv(lof_views.PREFETCH_ENV, "1")
    assert lof_views.prefetch_enabled() and LofExplorer().prefetch


class _QueuedOffloader:
    """An offloader that keeps each (compute, apply) until :meth:`finish` (the served worker, slowed down)."""

    def __init__(self):
        self.queue = []

    def __call__(self, compute, apply):
        self.queue.append((compute, apply))

    def finish(self):
        while self.queue:
            compute, apply = self.queue.pop(0)
            apply(compute())


def test_a_row_shown_before_is_drawn_at_once_in_one_message_and_a_late_answer_is_not_drawn_over_it():
    """Issue #24 item 3: selecting the previous shooter again draws its row from the explorer's kept answers: no
    worker round trip, nothing computed, the pieces and the overlays in one canvas message, the same verdicts and
    overlays as when it was computed. An answer of an older change that comes back after a newer one was drawn is
    not drawn."""
    w = LofExplorer()
    w.analysis_cache = LofAnalysisCache()
    off = _QueuedOffloader()
    w.set_offloader(off)
    first = w.shooter
    w.update()
    off.finish()
    shown = ([(v.target, v.lof.has_lof, v.band, v.cover) for v in w.verdicts], list(w.board_view.overlays))
    other = next(m for m in w.models if m != first)
    w.set_shooter(other)
    assert len(off.queue) == 1   # a new row: computed on the worker
    off.finish()
    computed = w.analysis_cache.computed
    sent = _layer_messages(w)
    w.set_shooter(first)
    assert off.queue == [] and w.analysis_cache.computed == computed
    assert len(sent) == 1 and sent[0] == {"pieces", "overlays"}
    assert ([(v.target, v.lof.has_lof, v.band, v.cover) for v in w.verdicts], list(w.board_view.overlays)) == shown
    # a late answer: the rotate's computation comes back after the select-back was drawn from the kept answers
    w.rotate_model(first, 1)
    assert len(off.queue) == 1
    w.rotate_model(first, -1)          # back to a row shown before: drawn at once
    assert len(off.queue) == 1 and [(v.target, v.lof.has_lof, v.band, v.cover) for v in w.verdicts] == shown[0]
    off.finish()                       # the rotated table's answer arrives late: not drawn
    assert [(v.target, v.lof.has_lof, v.band, v.cover) for v in w.verdicts] == shown[0]
    assert list(w.board_view.overlays) == shown[1]


def _pressed_explorer():
    ex = _HeldExecutor()
    w = LofExplorer()
    w.analysis_cache = LofAnalysisCache()
    w.set_scheduler(FakeScheduler())
    w.set_offloader(_WorkerOffloader(ex))
    w.update()
    return w, ex


def test_a_press_on_another_model_starts_its_row_and_the_click_reuses_it():
    """Issue #24 item 3: a press on a Model that is not the shooter starts its row on the worker at once, so the
    click after the release (which makes it the shooter) computes no pair and shows what a fresh cache computes."""
    w, ex = _pressed_explorer()
    bv, cache = w.board_view, w.analysis_cache
    other = next(m for m in w.models if m != w.shooter)
    x, y = bv.to_pixel(w.models[other].center)
    bv._mouse_down(x, y)
    assert len(ex.jobs) == 1 and w.shooter != other   # started, nothing selected or drawn yet
    ex.run_all()
    assert w.press_rows == 1
    computed = cache.computed
    bv._mouse_up(x, y)
    assert w.shooter == other and cache.computed == computed
    fresh = LofAnalysisCache().analyse(w.table, other, w.rulings.copy(), w.calibration, w.weapon, w.threat)
    assert [(v.target, v.lof.has_lof, v.lof.reason, v.band, v.cover) for v in w.verdicts] == \
        [(v.target, v.lof.has_lof, v.lof.reason, v.band, v.cover) for v in fresh]


def test_a_press_starts_nothing_where_a_click_would_not_compute_a_new_row():
    """No row is started for a press on the shooter, in the target pick mode, for a row shown before, without a
    worker (notebooks), or when the page changed before the worker was free."""
    w, ex = _pressed_explorer()
    bv = w.board_view
    first = w.shooter
    other = next(m for m in w.models if m != first)

    def press(mid):
        x, y = bv.to_pixel(w.models[mid].center)
        bv._mouse_down(x, y)
        bv._drag = None

    press(first)
    assert ex.jobs == []
    w.pick_mode.value = "target"
    press(other)
    assert ex.jobs == []
    w.pick_mode.value = "shooter"
    w.set_shooter(other)
    w.set_shooter(first)
    press(other)   # its row is kept by the explorer: a click draws it at once
    assert ex.jobs == []
    third = next(m for m in w.models if m not in (first, other))
    press(third)
    assert len(ex.jobs) == 1
    w.rotate_model(first, 1)   # a newer state before the worker started
    ex.run_all()
    assert w.press_rows == 0
    plain = LofExplorer()
    x, y = plain.board_view.to_pixel(plain.models[third].center)
    plain.board_view._mouse_down(x, y)
    assert plain.press_rows == 0   # no offloader: nothing submitted (and nothing computed ahead)


def test_the_press_start_is_on_unless_the_environment_says_0(monkeypatch):
    """EXPLORER_LOF_PRESS_START=0 turns the row started on a press off (for benchmarks/bench_lof_press.py); unset or
    anything else leaves it on. Off, a press on another Model submits nothing."""
    from explorer.games.tagraid import lof_views

    monkeypatch.delenv(lof_views.PRESS_START_ENV, raising=False)
    assert lof_views.press_start_enabled() and LofExplorer().START_ON_PRESS
    monkeypatch.setenv(lof_views.PRESS_START_ENV, "yes")
    assert lof_views.press_start_enabled()
    monkeypatch.setenv(lof_views.PRESS_START_ENV, " 0 ")
    assert not lof_views.press_start_enabled()
    w, ex = _pressed_explorer()
    assert not w.START_ON_PRESS
    other = next(m for m in w.models if m != w.shooter)
    w.board_view._mouse_down(*w.board_view.to_pixel(w.models[other].center))
    assert ex.jobs == [] and w.press_rows == 0
