"""Local widget JavaScript (:mod:`explorer.serving.widget_js`): the models of a served pane load third-party widget
code from this server's static route; a plain Panel pane asks a public CDN (where ipycanvas 0.14 is not published:
the boards stayed blank)."""

from __future__ import annotations

import warnings

import ipywidgets as W
import pytest
from bokeh.document import Document

pytest.importorskip("ipywidgets_bokeh")

from explorer.serving import widget_js  # noqa: E402
from explorer.serving.widget_js import (  # noqa: E402
    EXTENSION_NAME, EXTENSION_PREFIX, WIDGET_JS_ROUTE, layout_widget_js, local_js_pane, widget_js_files)
from explorer.serving.composite_once import COMPOSITE_ONCE_JS, composite_layers_once  # noqa: E402


def _cdns(pane) -> list[str]:
    from ipywidgets_bokeh.widget import IPyWidget

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        root = pane.get_root(Document())
    return [m.cdn for m in root.references() if isinstance(m, IPyWidget)]


def test_without_the_patch_widget_code_comes_from_a_public_cdn():
    import panel as pn

    cdns = _cdns(pn.pane.IPyWidget(W.HTML("x")))
    assert cdns and all(c.startswith("https://") for c in cdns)


def test_a_served_pane_loads_widget_code_from_this_server(monkeypatch):
    monkeypatch.setattr(widget_js._Route, "prefix", None)
    widget_js.use_static_route(WIDGET_JS_ROUTE)   # explorer serve: its --static-dir
    assert _cdns(local_js_pane(W.VBox([W.HTML("x")]))) == [WIDGET_JS_ROUTE]


def test_without_a_static_route_the_bundle_is_served_by_bokehs_extension_route(monkeypatch):
    """``panel serve`` with no ``--static-dirs`` (a served notebook, apps/*.py): the bundle is laid out once and
    added to the directories Bokeh's ``/static/extensions/<name>/`` handler reads on every request."""
    from bokeh.embed.bundle import extension_dirs

    monkeypatch.setattr(widget_js._Route, "prefix", None)
    assert _cdns(local_js_pane(W.VBox([W.HTML("x")]))) == [EXTENSION_PREFIX]
    assert EXTENSION_PREFIX == f"static/extensions/{EXTENSION_NAME}"
    (rel, src), = widget_js_files().items()
    assert (extension_dirs[EXTENSION_NAME] / rel).read_text() == composite_layers_once(src.read_text())


def test_the_bundle_is_laid_out_where_the_relative_prefix_points(tmp_path):
    from ipycanvas._frontend import module_name, module_version

    (rel, src), = widget_js_files().items()
    assert rel == f"{module_name}@{module_version}/dist/index"
    out = layout_widget_js(tmp_path)
    served = (out / rel).read_text()
    # the wheel's bundle, whole, after the composite-once prefix (explorer.serving.composite_once)
    assert served == COMPOSITE_ONCE_JS + src.read_text() and "define(" in served[:5000]
