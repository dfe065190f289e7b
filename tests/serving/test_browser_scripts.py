"""The serving patches that run in the browser, run in Node against stand-ins of what they wrap: the page script
(:mod:`explorer.serving.page_js`, BokehJS' ``Document._trigger_on_change``) and the canvas fixes
(:mod:`explorer.serving.canvas_fixes`, ipycanvas' focus and wheel handling) and the composite-once prefix of the
served ipycanvas bundle (:mod:`explorer.serving.composite_once`, its ``MultiCanvasModel.updateCanvas``); each also
without the patch. The
shipped BokehJS is checked to still have what the page script wraps; ``tests/browser/test_panel_app.py`` checks the
whole page in Chromium."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from explorer.serving.composite_once import COMPOSITE_ONCE_JS
from explorer.serving.page_js import PAGE_JS, PAGE_JS_SOURCE, page_script
from explorer.widgets.layout import BROWSER_FIXES_JS

NODE = shutil.which("node") or shutil.which("nodejs")
needs_node = pytest.mark.skipif(NODE is None, reason="needs Node.js")


def _node(program: str) -> object:
    """Run ``program`` in Node; it prints one JSON value, returned here."""
    r = subprocess.run([NODE, "-e", program], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


BOKEH_STAND_IN = """
const sent = [];
class Document { _trigger_on_change(event) { sent.push(event.name); } }
globalThis.window = {Bokeh: {require: (name) => name === "document" ? {Document} : null}};
const msg = (type, channel = "shell") => JSON.stringify({channel, header: {msg_type: type}, content: {}});
const events = [
  {name: "comm_open", msg_type: "ipywidgets_bokeh", msg_data: msg("comm_open")},   // the browser's: dropped
  {name: "update", msg_type: "ipywidgets_bokeh", msg_data: msg("comm_msg")},       // a widget update: sent
  {name: "iopub", msg_type: "ipywidgets_bokeh", msg_data: msg("comm_open", "iopub")},   // not the shell: sent
  {name: "not JSON", msg_type: "ipywidgets_bokeh", msg_data: '{"comm_open" broken'},   // sent
  {name: "other", msg_type: "other", msg_data: null},                              // any other event: sent
];
"""


def _sent(install: bool, times: int = 1) -> list[str]:
    script = json.dumps(PAGE_JS_SOURCE)
    return _node(BOKEH_STAND_IN + ("for (let i = 0; i < %d; i++) eval(%s);" % (times, script) if install else "")
                 + "const d = new Document(); for (const e of events) d._trigger_on_change(e);"
                 + "console.log(JSON.stringify(sent));")


@needs_node
def test_without_the_page_script_the_browser_sends_every_comm_open():
    assert _sent(install=False) == ["comm_open", "update", "iopub", "not JSON", "other"]


@needs_node
def test_the_page_script_drops_only_the_browsers_comm_opens():
    for times in (1, 2):   # running it twice changes nothing
        assert _sent(install=True, times=times) == ["update", "iopub", "not JSON", "other"]


@needs_node
def test_the_page_script_leaves_a_page_without_bokeh_alone():
    assert _node("globalThis.window = {}; eval(%s); console.log('true');" % json.dumps(PAGE_JS_SOURCE)) is True
    assert _node("globalThis.window = {Bokeh: {require: () => ({Document: class {}})}}; eval(%s);"
                 "console.log('true');" % json.dumps(PAGE_JS_SOURCE)) is True


def test_the_shipped_bokehjs_still_has_what_the_page_script_wraps():
    import bokeh

    js = (Path(bokeh.__file__).parent / "server/static/js/bokeh.js").read_text(encoding="utf-8")
    assert "        _trigger_on_change(event) {" in js            # a method of Document
    for line in ('this.kind = "MessageSent";', "this.msg_type = msg_type;", "this.msg_data = msg_data;"):
        assert line in js                                         # the event the script reads


def test_page_script_puts_the_script_on_every_page_after_bokeh(tmp_path, monkeypatch):
    import panel as pn

    from explorer.serving.widget_js import WIDGET_JS_ROUTE, layout_widget_js

    monkeypatch.setattr(pn.config, "js_files", dict(pn.config.js_files))
    assert "explorer_page" not in pn.config.js_files
    assert page_script() is True
    assert pn.config.js_files["explorer_page"] == f"{WIDGET_JS_ROUTE}/{PAGE_JS}"
    assert (layout_widget_js(tmp_path) / PAGE_JS).read_text(encoding="utf-8") == PAGE_JS_SOURCE


def test_page_script_is_disabled_on_a_mismatch(monkeypatch, installed, quiet_versions):
    import panel as pn

    monkeypatch.setattr(pn.config, "js_files", dict(pn.config.js_files))
    installed(bokeh="3.10.0")
    assert page_script() is False and "explorer_page" not in pn.config.js_files


# --- the canvas fixes

DOM_STAND_IN = """
const focused = [], listeners = [];
globalThis.HTMLCanvasElement = class { focus(opts) { focused.push(opts === undefined ? null : opts); } };
globalThis.window = {addEventListener: (type, f, opts) => listeners.push({type, f, opts})};
const canvas = {tagName: "CANVAS", classList: {contains: (c) => c === "lm-Widget"}, closest: () => null};
const wheel = (mods) => { let stopped = false;
  const e = Object.assign({composedPath: () => [canvas], stopImmediatePropagation: () => { stopped = true; }}, mods);
  for (const l of listeners) if (l.type === "wheel" && l.opts.capture) l.f(e);
  return stopped; };
"""


def _fixes(install: bool) -> dict:
    return _node(DOM_STAND_IN + (f"eval({json.dumps(BROWSER_FIXES_JS)}); eval({json.dumps(BROWSER_FIXES_JS)});"
                                 if install else "")
                 + "new HTMLCanvasElement().focus(); new HTMLCanvasElement().focus({x: 1});"
                 + "console.log(JSON.stringify({focused, plain: wheel({}), ctrl: wheel({ctrlKey: true}),"
                 + " listeners: listeners.length}));")


@needs_node
def test_without_the_fixes_a_canvas_focus_scrolls_and_ipycanvas_gets_every_wheel():
    assert _fixes(install=False) == {"focused": [None, {"x": 1}], "plain": False, "ctrl": False, "listeners": 0}


@needs_node
def test_the_fixes_focus_without_scrolling_and_keep_plain_wheels_from_the_canvas():
    got = _fixes(install=True)
    assert got["focused"] == [{"preventScroll": True}, {"x": 1, "preventScroll": True}]
    # installed once: one wheel listener, one for each of touchstart / touchmove / touchend / touchcancel, one click
    assert got["plain"] is True and got["ctrl"] is False and got["listeners"] == 6


TOUCH_STAND_IN = DOM_STAND_IN + """
const board = (drag) => {
  const style = {}; const parent = {clientWidth: 370, scrollLeft: 0, getBoundingClientRect: () => ({left: 10})};
  return {tagName: "CANVAS", classList: {contains: (c) => c === "lm-Widget"}, dataset: {}, parentElement: parent,
          closest: (sel) => (drag && sel === ".xr-touch-drag") ? {} : null, style: {
            setProperty: (k, v) => { style[k] = v; }, removeProperty: (k) => { delete style[k]; }},
          css: style, getBoundingClientRect: () => ({width: 370})};
};
globalThis.MutationObserver = class { observe() {} };
window.scrollBy = () => {};
const touch = (c, type, pts) => { const r = {stopped: false, prevented: false};
  const e = {type, touches: pts.map(([x, y]) => ({clientX: x, clientY: y})), composedPath: () => [c],
             stopImmediatePropagation: () => { r.stopped = true; }, preventDefault: () => { r.prevented = true; }};
  for (const l of listeners) if (l.type === type && l.opts.capture && l.opts.passive === false) l.f(e);
  return r; };
"""


@needs_node
def test_touches_on_canvases_tap_as_clicks_or_drag_and_two_fingers_zoom_a_board():
    got = _node(TOUCH_STAND_IN + f"eval({json.dumps(BROWSER_FIXES_JS)});" + """
const tray = board(false), hex = board(true);
const out = {tray_tap: touch(tray, "touchstart", [[50, 50]]), tray_pinch: touch(tray, "touchstart", [[50, 50], [90, 50]]),
             board_tap: touch(hex, "touchstart", [[50, 50]])};
out.board_pinch = touch(hex, "touchstart", [[50, 50], [90, 50]]);
out.board_move = touch(hex, "touchmove", [[30, 50], [110, 50]]);
out.zoomed = Object.assign({}, hex.css); out.flag = hex.dataset.xrPinch || null;
out.board_end = touch(hex, "touchend", []);
const fit = {classList: {contains: (c) => c === "xr-unzoom"}};
for (const l of listeners) if (l.type === "click") l.f({composedPath: () => [fit]});
out.unzoomed = Object.assign({}, hex.css); out.after_fit = hex.dataset.xrPinch || null;
console.log(JSON.stringify(out));""")
    # a canvas without drags never sees touches (ipycanvas would cancel them): the browser scrolls, zooms the page
    # and turns a tap into a click
    assert got["tray_tap"] == {"stopped": True, "prevented": False}
    assert got["tray_pinch"] == {"stopped": True, "prevented": False}
    # a board keeps one-finger touches (drags); two fingers zoom the board (twice the span: twice the width) and the
    # board still sees them (a twist rotates a piece), but the page does not zoom
    assert got["board_tap"] == {"stopped": False, "prevented": False}
    assert got["board_pinch"] == {"stopped": False, "prevented": True}
    assert got["board_move"] == {"stopped": False, "prevented": True}
    assert got["zoomed"]["width"] == "740px" and got["zoomed"]["max-width"] == "none" and got["flag"] == "1"
    assert got["board_end"] == {"stopped": False, "prevented": True}
    assert got["unzoomed"] == {} and got["after_fit"] is None   # the board's fit button puts it back in its column


def test_browser_fixes_component_installs_the_script_when_it_renders():
    from explorer.serving.canvas_fixes import browser_fixes

    c = browser_fixes()
    assert c._scripts == {"render": BROWSER_FIXES_JS} and c.width == 0 and c.height == 0


# a stand-in for ipycanvas' bundle: one AMD define whose module has a MultiCanvasModel (two layers, one view) and its
# MultiCanvasView, shaped as ipycanvas 0.14's; run as ipywidgets_bokeh runs a widget bundle, new Function("define", source)
_CANVAS_STAND_IN = """define(["@jupyter-widgets/base"], (base) => {
  class CanvasView {
    constructor(model) { this.model = model; this.ops = []; this.ctx = {drawImage: (c) => this.ops.push("draw " + c.name)}; }
    clear() { this.ops.push("clear"); }
    updateCanvas() { this.clear(); this.ctx.drawImage(this.model.canvas, 0, 0); }
  }
  class MultiCanvasView extends CanvasView {}
  class MultiCanvasModel {
    constructor(sync) {
      this.composites = 0; this.synced = 0; this.attrs = {sync_image_data: sync}; this.canvas = {name: "model"};
      this.canvasModels = [{canvas: {name: "a"}}, {canvas: {name: "b"}}]; this.views = [new MultiCanvasView(this)];
    }
    get(key) { return this.attrs[key]; }
    forEachView(f) { this.views.forEach(f); }
    updateCanvas() { this.composites += 1; this.forEachView(v => v.updateCanvas()); this.syncImageData(); }
    syncImageData() { if (this.get("sync_image_data")) this.synced += 1; }
  }
  return {MultiCanvasModel, MultiCanvasView, base};
});"""

_RUN_BUNDLE = """
(async () => {
  let mod = null;
  function define(deps, factory) { mod = factory(...deps.map(d => ({name: d}))); }
  define.amd = {};
  new Function("define", %s)(define);
  const m = new mod.MultiCanvasModel(false);
  const n = new mod.MultiCanvasModel(true);   // its image data is synced: read from the model's own canvas
  const seen = (x) => ({composites: x.composites, shown: x.views[0].ops.join(), synced: x.synced});
  for (let i = 0; i < 5; i++) m.updateCanvas();   // five layers say "new frame" in one batch
  n.updateCanvas();
  const sync = seen(m);
  await Promise.resolve();
  const after = [seen(m), seen(n)];
  m.views[0].ops = [];
  m.updateCanvas();   // a later batch
  await new Promise(r => setTimeout(r, 0));
  const later = seen(m);
  m.attrs.sync_image_data = true;   // sync turned on: the model's canvas is composited first
  m.syncImageData();
  console.log(JSON.stringify({sync, after, later, synced: seen(m), dep: mod.base.name}));
})();
"""


@needs_node
def test_the_composite_once_prefix_draws_the_layers_once_per_batch_straight_onto_the_shown_canvas():
    patched = _node(_RUN_BUNDLE % json.dumps(COMPOSITE_ONCE_JS + _CANVAS_STAND_IN))
    plain = _node(_RUN_BUNDLE % json.dumps(_CANVAS_STAND_IN))
    # patched: deferred to a microtask, one composite per model per batch, the layers drawn onto the view (the
    # model's own canvas skipped) unless its image data is synced; syncing later composites the model first
    layers = "clear,draw a,draw b"
    assert patched == {"sync": {"composites": 0, "shown": "", "synced": 0},
                       "after": [{"composites": 0, "shown": layers, "synced": 0},
                                 {"composites": 1, "shown": "clear,draw model", "synced": 1}],
                       "later": {"composites": 0, "shown": layers, "synced": 0},
                       "synced": {"composites": 1, "shown": layers + ",clear,draw model", "synced": 1},
                       "dep": "@jupyter-widgets/base"}
    five = ",".join(["clear,draw model"] * 5)
    assert plain == {"sync": {"composites": 5, "shown": five, "synced": 0},
                     "after": [{"composites": 5, "shown": five, "synced": 0},
                               {"composites": 1, "shown": "clear,draw model", "synced": 1}],
                     "later": {"composites": 6, "shown": "clear,draw model", "synced": 0},
                     "synced": {"composites": 6, "shown": "clear,draw model", "synced": 1},
                     "dep": "@jupyter-widgets/base"}


@needs_node
def test_the_composite_once_prefix_leaves_a_bundle_without_a_multicanvas_alone():
    got = _node("""
    let mod = null;
    function define(deps, factory) { mod = factory(); }
    new Function("define", %s)(define);
    console.log(JSON.stringify(Object.keys(mod)));
    """ % json.dumps(COMPOSITE_ONCE_JS + 'define([], () => ({other: 1}));'))
    assert got == ["other"]
