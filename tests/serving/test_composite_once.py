"""The served ipycanvas bundle composites a board's layers once per batch of drawing commands
(:mod:`explorer.serving.composite_once`): the prefix's text, its idempotence and its version switch. What it does
in a browser: ``tests/browser/test_composite_once_browser.py``."""

from __future__ import annotations

import pytest

from explorer.serving import composite_once as co
from explorer.serving.widget_js import ipycanvas_bundle


def test_the_prefix_goes_before_the_bundle_once():
    bundle = ipycanvas_bundle().read_text(encoding="utf-8")
    out = co.composite_layers_once(bundle)
    assert out == co.COMPOSITE_ONCE_JS + bundle
    assert co.composite_layers_once(out) == out   # laid out twice: one prefix
    assert "MultiCanvasModel:()=>" in bundle and "updateCanvas(){" in bundle   # what the prefix patches is there


def test_on_a_version_mismatch_the_bundle_is_served_unchanged(monkeypatch):
    monkeypatch.setattr(co, "allowed", lambda name: False)
    assert co.composite_layers_once("define([], () => ({}));") == "define([], () => ({}));"
