"""Session lifecycle (:mod:`explorer.serving.session_end`) and the server's counters (:mod:`explorer.serving.stats`):
the widgets a session built are forgotten when Bokeh destroys the session; without that they stayed in ipywidgets'
registry and the comm managers for the server's life."""

from __future__ import annotations

import os

import types
import warnings

import pytest

pytest.importorskip("panel.io.ipywidget")

import comm as comm_package  # noqa: E402
import ipywidgets as W  # noqa: E402
from bokeh.document import Document  # noqa: E402
from ipywidgets.widgets.widget import _instances  # noqa: E402
from panel.io.state import set_curdoc, state  # noqa: E402

from explorer.serving.session_end import close_session_widgets, free_widgets_on_session_end  # noqa: E402
from explorer.serving.stats import server_stats  # noqa: E402


@pytest.fixture
def sessions():
    """Two session documents, each with a small widget tree built in it (as Panel tags them)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        import panel.io.ipywidget  # noqa: F401  Panel's construction callback tags each widget with its document
    docs, trees = [Document(), Document()], []
    for d in docs:
        with set_curdoc(d):
            free_widgets_on_session_end()
            trees.append(W.VBox([W.HTML("a"), W.IntSlider()]))
    yield docs, trees
    for d, tree in zip(docs, trees):
        close_session_widgets(d)
        state._ipykernels.pop(d, None)


def _alive(d) -> list:
    return [w for w in _instances.values() if getattr(w, "_document", None) is d]


def _managed(d) -> set[str]:
    """Comm ids of ``d``'s widgets still held by the global comm manager or the session's kernel."""
    ids = {w.comm.comm_id for w in _alive(d) if w.comm is not None}
    held = set(comm_package.get_comm_manager().comms)
    kernel = state._ipykernels.get(d)
    if kernel is not None:
        held |= set(kernel.comm_manager.comms)
    return ids & held


def test_without_the_patch_an_ended_sessions_widgets_stay_alive(sessions):
    (d, _), _ = sessions
    assert len(_alive(d)) >= 3 and _managed(d)   # nothing else ever lets them go


def test_a_destroyed_session_frees_its_widgets_and_only_them(sessions):
    (d, other), _ = sessions
    mine, theirs = len(_alive(d)), len(_alive(other))
    assert mine >= 3 and d.session_destroyed_callbacks
    comms = {w.comm.comm_id for w in _alive(d)}
    for callback in list(d.session_destroyed_callbacks):   # what Bokeh does when the session ends
        callback(types.SimpleNamespace(_document=d))
    assert _alive(d) == [] and len(_alive(other)) == theirs
    assert not comms & set(comm_package.get_comm_manager().comms)
    assert not comms & set(state._ipykernels[d].comm_manager.comms)
    assert close_session_widgets(d) == 0


def test_free_widgets_on_session_end_outside_a_session_does_nothing():
    free_widgets_on_session_end()   # no current document: no error, nothing registered


def test_server_stats_counts_widgets_sessions_and_cached_pages(sessions, monkeypatch):
    (d, other), _ = sessions
    monkeypatch.setattr(state, "_sessions", {"/page": types.SimpleNamespace(document=other)})
    s = server_stats()
    assert s["cached_pages"] == 1 and s["session_documents"] >= 2
    assert s["other_session_documents"] == s["session_documents"] - 1   # d is not a cached page
    assert s["widgets"] == len(_instances) and s["rss_mb"] != 0 and s["pid"] == os.getpid()
    assert "bokeh_documents" not in s   # the cheap answer walks no objects
    deep = server_stats(deep=True)
    assert deep["bokeh_documents"] >= 2 and deep["explorer_objects"] >= 0 and deep["widgets"] == s["widgets"]
