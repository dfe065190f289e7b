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
