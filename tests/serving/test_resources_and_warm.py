"""Local resources (:mod:`explorer.serving.resources`) and warm pages (:mod:`explorer.serving.warm`), each with what
happens without it: a session built for a websocket had no ``dist_url`` (its stylesheets came from Panel's CDN), and a
server not warmed had no cached page until its first visitor waited for one."""

from __future__ import annotations

import socket
import warnings

import pytest

pn = pytest.importorskip("panel")

from bokeh.document import Document  # noqa: E402
from panel.io.resources import CDN_DIST, get_dist_path  # noqa: E402
from panel.io.state import set_curdoc, state  # noqa: E402

from explorer.serving.resources import local_resources  # noqa: E402
from explorer.serving.warm import warm_pages  # noqa: E402


@pytest.fixture
def panel_config(monkeypatch):
    """Panel's stylesheet settings as ``pn.extension("ipywidgets")`` leaves them, put back afterwards."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        from ipywidgets_bokeh.widget import IPyWidget

        import panel.io.ipywidget  # noqa: F401  adds the cdnjs Font Awesome to IPyWidget
    monkeypatch.setattr(IPyWidget, "__css__", ["https://cdnjs.cloudflare.com/ajax/libs/font-awesome/4.5.0/css/"
                                               "font-awesome.css"])
    monkeypatch.setattr(pn.config, "css_files", [CDN_DIST + "bundled/font-awesome/css/all.min.css", "mine.css"])
    monkeypatch.delenv("BOKEH_RESOURCES", raising=False)
    return IPyWidget


def test_without_the_patch_a_websocket_session_has_no_local_dist_url(panel_config):
    doc = Document()
    assert "dist_url" not in doc.template_variables     # Panel sets it only while rendering a GET
    assert any(f.startswith(CDN_DIST) for f in pn.config.css_files)
    assert any(c.startswith("https://") for c in panel_config.__css__)


def test_local_resources_point_every_stylesheet_at_this_server(panel_config):
    local_resources()        # process-wide, once after pn.extension (as explorer.app.serve)
    doc = Document()
    with set_curdoc(doc):    # and in each session's page build
        local_resources()
        local_resources()   # idempotent
    local = get_dist_path(cdn=False)
    assert doc.template_variables["dist_url"] == local and not local.startswith("http")
    assert pn.config.css_files == [local + "bundled/font-awesome/css/all.min.css", "mine.css"]
    assert panel_config.__css__ == []


def test_local_resources_honour_bokeh_resources_cdn(panel_config, monkeypatch):
    monkeypatch.setenv("BOKEH_RESOURCES", "cdn")
    local_resources()
    doc = Document()
    with set_curdoc(doc):
        local_resources()
    assert "dist_url" not in doc.template_variables and pn.config.css_files[0].startswith(CDN_DIST)


@pytest.fixture
def server(monkeypatch):
    """A Panel server of one route, bound but not started; Panel's session cache put back afterwards."""
    monkeypatch.setattr(state, "_sessions", {})
    monkeypatch.setattr(state, "_session_key_funcs", {})
    built = []

    def page():
        built.append(1)
        return pn.pane.Markdown("hello")

    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    srv = pn.serve({"/page": page}, start=False, port=port, address="127.0.0.1", show=False, print_url=False)
    yield srv, built
    srv.stop()
    srv.unlisten()


def test_without_warming_no_page_is_cached_before_the_first_visitor(server):
    srv, built = server
    assert "/page" not in state._sessions and built == []


def test_warm_pages_builds_and_caches_every_route(server):
    srv, built = server
    assert warm_pages(srv) == 1
    assert built == [1] and "/page" in state._sessions
    assert state._session_key_funcs["/page"](type("Request", (), {"path": "/page"})) == "/page"


def test_warm_pages_without_panels_internals_says_so_and_warms_nothing(installed, caplog):
    assert warm_pages(object()) == 0
    assert any("patch warm_pages could not be applied" in r.getMessage() for r in caplog.records)
