"""The Line of Fire page answers a row not computed yet in two passes (issue #24, session 16): the Line of Fire
verdicts first (the lines and labels on the board, the verdict column), then the whole verdicts (Range Ruler,
Partial Cover, Threat Level, the obstacles named). The first pass never shows a verdict the whole analysis does not
give; a pass of an older change is never drawn over a newer one."""

import html

from explorer.games.tagraid.lof_analysis import LofAnalysisCache
from explorer.games.tagraid.lof_picture import PENDING, PendingVerdict
from explorer.games.tagraid.lof_views import LofExplorer

from test_lof_views_deferred import _layer_messages, _QueuedOffloader


def _served():
    w = LofExplorer()
    w.analysis_cache = LofAnalysisCache()
    w.progressive = True   # an option, off by default (EXPLORER_LOF_PROGRESSIVE=1 turns it on)
    off = _QueuedOffloader()
    w.set_offloader(off)
    w.update()
    off.finish()
    return w, off


def _step(off) -> None:
    """Run the first queued (compute, apply) only (the worker answers one request)."""
    compute, apply = off.queue.pop(0)
    apply(compute())


def _fresh(w):
    return LofAnalysisCache().analyse(w.table, w.shooter, w.rulings.copy(), w.calibration, w.weapon, w.threat)


def _lof(vs):
    return [(v.target, v.lof.has_lof, v.lof.reason, v.lof.witness, v.lof.in_arc, v.hex_distance) for v in vs]


def _witness_lines(w):
    return sorted(repr(o) for o in w.board_view.overlays if (getattr(o, "title", None) or "").startswith("LoF "))


def test_the_first_message_carries_the_verdicts_of_the_complete_analysis_and_the_second_the_rest():
    w, off = _served()
    others = [m for m in w.models if m != w.shooter]
    seen_blocked = seen_clear = False
    for shooter in others[:5]:
        w.set_shooter(shooter)
        assert len(off.queue) == 1
        sent = _layer_messages(w)
        _step(off)                                   # the first pass: the LoF verdicts only
        fresh = _fresh(w)
        assert all(isinstance(v, PendingVerdict) for v in w.verdicts)
        assert _lof(w.verdicts) == _lof(fresh)       # never a verdict the whole analysis does not give
        assert len(sent) == 1 and sent[0] == {"overlays"}   # lines and labels: one message
        first_lines = _witness_lines(w)
        page = html.unescape(w.verdict_html.value)
        n = sum(v.lof.has_lof for v in fresh)
        assert f"has LoF to {n} of {len(fresh)} Models" in page.replace("<b>", "").replace("</b>", "")
        assert PENDING in page                        # Range, Partial Cover: said pending, not "—" or "no"
        seen_clear |= n > 0
        seen_blocked |= any(v.lof.reason == "blocked" for v in fresh)
        assert len(off.queue) == 1                    # the second pass, asked by the first
        _step(off)
        assert off.queue == []
        assert w.verdicts == fresh                    # the whole verdicts, equal to an eager analysis
        assert not any(isinstance(v, PendingVerdict) for v in w.verdicts)
        assert PENDING not in w.verdict_html.value
        # one more message, on the overlays layer (still the manager's canvas: it does not name it again)
        assert len(sent) == 2 and sent[1] <= {"overlays"}
        assert _witness_lines(w) == first_lines       # the green lines drawn first stay as they were
    assert seen_clear and seen_blocked


def test_a_late_detail_pass_never_overwrites_a_newer_interaction():
    w, off = _served()
    start = w.shooter
    a, b, c = [m for m in w.models if m != start][:3]
    # A's first pass is drawn; B is picked and its first pass drawn before A's second pass comes back
    w.set_shooter(a)
    _step(off)
    assert all(isinstance(v, PendingVerdict) for v in w.verdicts)
    w.set_shooter(b)
    first_b = off.queue.pop(1)
    first_b[1](first_b[0]())
    shown = (list(w.verdicts), w.verdict_html.value, list(w.board_view.overlays))
    assert f"<b>{b}</b>" in w.verdict_html.value
    sent = _layer_messages(w)
    _step(off)                                        # A's second pass: late, not drawn
    assert (list(w.verdicts), w.verdict_html.value, list(w.board_view.overlays)) == shown and sent == []
    _step(off)                                        # B's second pass: drawn
    assert w.verdicts == _fresh(w) and w.shooter == b
    # a row shown before is drawn at once from the kept answers: an older pass that comes back later is dropped
    w.set_shooter(a)                                  # A's late second pass was kept (not drawn): at once
    assert off.queue == [] and w.verdicts == _fresh(w)
    w.set_shooter(c)
    _step(off)                                        # C's first pass drawn, its second pass asked
    w.set_shooter(start)                              # kept: drawn at once, complete
    assert off.queue and w.verdicts == _fresh(w)
    shown = (list(w.verdicts), w.verdict_html.value, list(w.board_view.overlays))
    off.finish()                                      # C's second pass: not drawn over the start's row
    assert (list(w.verdicts), w.verdict_html.value, list(w.board_view.overlays)) == shown
    assert w.shooter == start


def test_without_an_offloader_or_progressive_off_the_row_comes_whole():
    w = LofExplorer()
    w.analysis_cache = LofAnalysisCache()
    w.set_shooter(next(m for m in w.models if m != w.shooter))   # a notebook: computed at once, whole
    assert w.verdicts == _fresh(w) and not any(isinstance(v, PendingVerdict) for v in w.verdicts)
    w2, off = _served()
    w2.progressive = False
    w2.set_shooter(next(m for m in w2.models if m != w2.shooter))
    _step(off)
    assert off.queue == [] and w2.verdicts == _fresh(w2)


def test_two_passes_are_an_option_off_by_default(monkeypatch):
    from explorer.games.tagraid import lof_views

    monkeypatch.delenv(lof_views.PROGRESSIVE_ENV, raising=False)
    assert not LofExplorer().progressive
    w = LofExplorer()
    w.analysis_cache = LofAnalysisCache()
    off = _QueuedOffloader()
    w.set_offloader(off)
    w.set_shooter(next(m for m in w.models if m != w.shooter))
    _step(off)
    assert off.queue == [] and w.verdicts == _fresh(w)   # one pass, whole
    monkeypatch.setenv(lof_views.PROGRESSIVE_ENV, "1")
    assert LofExplorer().progressive
