"""A served page's build (:mod:`explorer.serving.lean_build`, :mod:`explorer.serving.build_messages`), with Panel's
own construction callback and session kernel: the comms opened while a page is built carry no state, and the
messages queued by the build are dropped instead of being sent before the page's document. Each test also shows
what happens without the patch."""

from __future__ import annotations

import json
import warnings

import pytest

pytest.importorskip("panel.io.ipywidget")

import ipywidgets as W  # noqa: E402
from bokeh.document import Document  # noqa: E402
from ipywidgets import Widget  # noqa: E402
from panel.io.state import set_curdoc, state  # noqa: E402

from explorer.serving.build_messages import drop_build_messages  # noqa: E402
from explorer.serving.lean_build import building_page, lean_build_comms  # noqa: E402


@pytest.fixture
def doc():
    """A session document with Panel's ipywidgets support loaded; the construction callback, the widgets built and
    the document's kernel are put back or forgotten afterwards."""
    from panel.io.ipywidget import _on_widget_constructed

    callback = Widget._widget_construction_callback
    Widget._widget_construction_callback = _on_widget_constructed   # Panel's own, whatever ran before
    d = Document()
    yield d
    Widget._widget_construction_callback = callback
    from ipywidgets.widgets.widget import _instances

    for w in [w for w in list(_instances.values()) if getattr(w, "_document", None) is d]:
        w.close()
    state._ipykernels.pop(d, None)


def _queued(d) -> list[dict]:
    """The Jupyter messages queued for the session of ``d`` (what its websocket would send)."""
    return [json.loads(e.msg_data) for e in state._ipykernels[d].session._queue]


def _opened_state(d, value: str) -> dict:
    """The state carried by the ``comm_open`` of the HTML widget whose value is ``value`` (``{}`` when lean)."""
    opens = [m for m in _queued(d) if m["header"]["msg_type"] == "comm_open"
             and m["content"]["data"]["state"].get("_model_name", "HTMLModel") == "HTMLModel"]
    html = [m for m in opens if m["content"]["data"]["state"].get("value") == value
            or m["content"]["data"]["state"] == {}]
    assert html, "no comm_open queued for the widget"
    return html[-1]["content"]["data"]["state"]


def test_without_the_patch_every_comm_open_carries_the_whole_state(doc):
    with set_curdoc(doc), building_page():
        W.HTML("hello")
    assert _opened_state(doc, "hello")["value"] == "hello"   # serialised, then dropped unsent: wasted work


def test_lean_build_comms_opens_stateless_comms_inside_a_page_build_only(doc):
    assert lean_build_comms() is True
    assert lean_build_comms() is True                  # once per process: one wrapper
    assert getattr(Widget._widget_construction_callback, "_lean_build", False)
    with set_curdoc(doc):
        with building_page():
            inside = W.HTML("inside")
        states = [m["content"]["data"]["state"] for m in _queued(doc) if m["header"]["msg_type"] == "comm_open"]
        assert states and all(s == {} for s in states)  # layout, style and the HTML itself
        assert inside.get_state()["value"] == "inside"  # the widget's own get_state is back
        assert inside._document is doc and inside.comm is not None
        drop_build_messages(doc)
        W.HTML("after")                                 # a widget made in a callback: Panel's ordinary comm
        assert _opened_state(doc, "after")["value"] == "after"


def test_drop_build_messages_empties_the_queue_the_session_would_send(doc, monkeypatch):
    with set_curdoc(doc), building_page():
        W.VBox([W.HTML("a"), W.HTML("b")])
    queued = len(_queued(doc))
    assert queued >= 7                                  # comm opens of 3 widgets, their layouts and styles
    sent = []
    monkeypatch.setattr(doc.callbacks, "trigger_on_change", sent.append)
    assert drop_build_messages(doc) == queued
    state._ipykernels[doc].session._dispatch()          # what the session does on its next tick
    assert sent == []
    assert drop_build_messages(doc) == 0


def test_without_drop_build_messages_the_session_sends_them_all(doc, monkeypatch):
    with set_curdoc(doc), building_page():
        W.VBox([W.HTML("a"), W.HTML("b")])
    queued = len(_queued(doc))
    sent = []
    monkeypatch.setattr(doc.callbacks, "trigger_on_change", sent.append)
    state._ipykernels[doc].session._dispatch()
    assert len(sent) == queued >= 7                     # one websocket message each, before the document


def test_drop_build_messages_without_a_session_drops_nothing():
    assert drop_build_messages(None) == 0
    assert drop_build_messages(Document()) == 0


def test_both_are_disabled_on_a_mismatch(doc, installed):
    installed(panel="1.10.0")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert lean_build_comms() is False
        with set_curdoc(doc), building_page():
            W.HTML("hello")
        queued = len(_queued(doc))
        assert drop_build_messages(doc) == 0
    assert len(_queued(doc)) == queued and _opened_state(doc, "hello")["value"] == "hello"
