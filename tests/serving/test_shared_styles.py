"""Shared layout / style models on served pages (``explorer.serving.shared_styles``): fewer front-end models, the
same state for every widget, and a change to one widget's layout or style reaching that widget only."""

from __future__ import annotations

import warnings

import ipywidgets as W
import pytest
from ipywidgets.embed import dependency_state

from explorer.serving.shared_styles import share_style_models


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        yield


def _front_end(root) -> dict[str, dict]:
    """What a browser is given for ``root``: ``{model id: state}`` of every model it reaches."""
    return {k: v["state"] for k, v in dependency_state([root], drop_defaults=False).items()}


def _owners(root):
    """Every (widget, "layout" | "style") pair reached from ``root``."""
    out, seen, stack = [], set(), [root]
    while stack:
        w = stack.pop()
        if id(w) in seen:
            continue
        seen.add(id(w))
        for k in w.keys:
            v = getattr(w, k, None)
            for x in (v if isinstance(v, (list, tuple)) else (v,)):
                if isinstance(x, W.Widget):
                    if k in ("layout", "style"):
                        out.append((w, k))
                    else:
                        stack.append(x)
    return out


def _ref(w, trait: str) -> str:
    return w.get_state()[trait].removeprefix("IPY_MODEL_")


def _recorder(monkeypatch, *widgets):
    sent = []
    for w in widgets:
        monkeypatch.setattr(w, "send_state", lambda key=None, w=w: sent.append((w, key)))
    return sent


def test_face_to_face_page_shares_models_and_keeps_every_widgets_state():
    from explorer.games import get_game

    root, _ = get_game("tagraid").open_page("face-to-face")
    before = len(_front_end(root))
    n_before, n_after = share_style_models(root)
    after = _front_end(root)
    assert n_after < n_before / 2               # 232 layout/style models in 36 states (measured)
    assert len(after) == before - (n_before - n_after)
    for w, trait in _owners(root):               # each widget still shows its own layout and style
        assert after[_ref(w, trait)] == getattr(w, trait).get_state()


def test_a_change_gives_that_widget_its_own_model_and_leaves_the_others(monkeypatch):
    a, b, c = W.HTML("a"), W.HTML("b"), W.HTML("c")
    box = W.VBox([a, b, c])
    share_style_models(box)
    shared = _ref(a, "layout")
    assert _ref(b, "layout") == _ref(c, "layout") == shared and _ref(a, "style") == _ref(b, "style")
    sent = _recorder(monkeypatch, a, b, c)
    a.layout.display = "none"
    assert sent == [(a, "layout")]               # only a is pointed at a new model
    assert _ref(a, "layout") != shared and _ref(b, "layout") == _ref(c, "layout") == shared
    state = _front_end(box)
    assert state[_ref(a, "layout")]["display"] == "none"
    assert state[shared]["display"] is None
    a.layout.width = "5px"                       # from then on an ordinary model: no new one
    assert _ref(a, "layout") != shared and b.layout.width is None
    assert sent == [(a, "layout")]
    b.style.font_size = "20px"                   # styles alike
    assert _front_end(box)[_ref(b, "style")]["font_size"] == "20px"
    assert _front_end(box)[_ref(c, "style")]["font_size"] is None


def test_a_layout_the_code_shares_stays_shared_after_a_change(monkeypatch):
    lay = W.Layout(width="40px")
    a, b, c = W.HTML("a", layout=lay), W.HTML("b", layout=lay), W.HTML("c", layout=W.Layout(width="40px"))
    box = W.VBox([a, b, c])
    share_style_models(box)
    sent = _recorder(monkeypatch, a, b, c)
    lay.width = "60px"
    assert sorted(w.value for w, _ in sent) == ["a", "b"]
    assert _ref(a, "layout") == _ref(b, "layout") != _ref(c, "layout")
    assert _front_end(box)[_ref(a, "layout")]["width"] == "60px"
    assert _front_end(box)[_ref(c, "layout")]["width"] == "40px"


def test_unique_states_are_left_alone():
    a, b = W.HTML("a", layout=W.Layout(width="1px")), W.HTML("b", layout=W.Layout(width="2px"))
    ids = (a.layout.model_id, b.layout.model_id)
    share_style_models(W.HBox([a, b], layout=W.Layout(width="3px")))
    assert (a.layout.model_id, b.layout.model_id) == ids


def test_without_the_patch_each_widget_has_its_own_models():
    a, b = W.HTML("a"), W.HTML("b")
    box = W.VBox([a, b])
    assert _ref(a, "layout") != _ref(b, "layout") and len(_front_end(box)) == 8   # 3 widgets, 3 layouts, 2 styles
    assert share_style_models(box) == (5, 2)                                          # with it: 1 layout, 1 style
    assert _ref(a, "layout") == _ref(b, "layout") and len(_front_end(box)) == 5


def test_share_style_models_is_disabled_on_a_mismatch(installed, quiet_versions):
    installed(ipywidgets="8.2.0")
    a, b = W.HTML("a"), W.HTML("b")
    box = W.VBox([a, b])
    before = _front_end(box)
    assert share_style_models(box) == (5, 5)
    assert _front_end(box).keys() == before.keys()
