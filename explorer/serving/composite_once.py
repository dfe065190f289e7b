"""The served ipycanvas bundle composites a board's layers once per batch of drawing commands, not once per layer.

What it patches: ipycanvas' ``MultiCanvasModel.updateCanvas``, in the browser (the bundle :mod:`.widget_js` lays out
for ``explorer serve`` and ``panel serve``; a notebook's Jupyter front end loads its own, unchanged copy).

Why (issue #24, item 3: the page's drawing). A board (:class:`explorer.widgets.hexboard.HexBoardView`) is an
ipycanvas ``MultiCanvas`` of layers (five until session 19, four since). The server sends a redraw as one batch of commands for all the layers it
touches; in the browser, ipycanvas' canvas manager runs the batch, then tells every layer it drew on that it has a
new frame, and the ``MultiCanvas`` answers each of those with a full composite: clear its own canvas, copy all five
layers onto it, clear the shown canvas, copy the composite there. A full redraw therefore made five composites of
seven whole-canvas operations each, where the last one alone is seen; on the phone emulation, after a zoom in that
draws the board again (a 1,740 x 1,207 px canvas), they took about 40 of the interaction's 144 ms
(``BENCH_TRACE=1 benchmarks/bench_lof_interactions.py``, session 18). The patch defers the composite to a
microtask: the layers' "new frame" calls of one batch (made one after the other, in the same task) collapse into
one composite, made before the browser paints or runs anything else, so nothing shown changes but the count.

Session 19: the composite also draws the layers straight onto each shown canvas (``MultiCanvasView.updateCanvas``:
clear it, copy the layers) instead of onto the model's own off-page canvas and then that canvas onto the shown
one: one whole-canvas clear and copy fewer per composite, and the off-page canvas is never drawn on, so a zoom that
resizes the board does not allocate it again (on the phone emulation each first touch of a resized ~2 Mpx canvas
cost ~6 ms). Only while the model's ``sync_image_data`` is off (no board turns it on): the image data is read from
the model's own canvas, so with it on the stock composite runs, and turning it on composites the model first.

How: :func:`composite_layers_once` puts :data:`COMPOSITE_ONCE_JS` before the bundle's text. ipywidgets_bokeh runs a
widget bundle as ``new Function("define", source)``; the prefix wraps that ``define`` so the module the bundle's
factory returns is patched before any model is made (``updateCanvasModels`` binds ``updateCanvas`` when a model is
built). The prefix does nothing where there is no ``define`` or the module has no ``MultiCanvasModel`` with an
``updateCanvas`` method.

Private API (pinned ipycanvas==0.14.3): ``MultiCanvasModel.prototype.updateCanvas`` (composite every layer, then
every view) and its binding to each layer's ``new-frame`` event; ``MultiCanvasModel.prototype.syncImageData``,
``canvasModels`` and ``forEachView``; ``MultiCanvasView.prototype.updateCanvas`` and the view's ``clear`` and ``ctx``.

On a version mismatch: disabled (:data:`explorer.serving.versions.DISABLE`): the bundle is served unchanged. It only
saves time; another ipycanvas may composite elsewhere. Without it: one composite per layer drawn.
"""

from __future__ import annotations

from .versions import allowed

COMPOSITE_ONCE_JS = """// explorer serve (explorer/serving/composite_once.py): a MultiCanvas composites its layers once per batch
if (typeof define === "function") {
  define = (function (amdDefine) {
    function patch(mod) {
      const M = mod != null ? mod.MultiCanvasModel : null;
      if (M == null || typeof M.prototype.updateCanvas !== "function" || M.prototype.__explorerCompositeOnce) return;
      const composite = M.prototype.updateCanvas;
      const V = mod.MultiCanvasView;
      const direct = V != null && typeof V.prototype.updateCanvas === "function"
        && typeof M.prototype.forEachView === "function" && typeof M.prototype.syncImageData === "function";
      M.prototype.updateCanvas = function () {
        if (this.__explorerCompositeQueued) return;
        this.__explorerCompositeQueued = true;
        queueMicrotask(() => {
          this.__explorerCompositeQueued = false;
          if (!direct || this.get("sync_image_data")) { this.__explorerStale = false; composite.call(this); return; }
          this.__explorerStale = true;   // the layers go straight to the shown canvases
          this.forEachView(v => v.updateCanvas());
        });
      };
      if (direct) {
        const sync = M.prototype.syncImageData;
        M.prototype.syncImageData = function () {   // the image data is read from the model's own canvas
          if (this.__explorerStale && this.get("sync_image_data")) { this.__explorerStale = false; return composite.call(this); }
          return sync.call(this);
        };
        const show = V.prototype.updateCanvas;
        V.prototype.updateCanvas = function () {
          const m = this.model;
          if (m.get("sync_image_data") || typeof this.clear !== "function") return show.call(this);
          this.clear();
          for (const layer of m.canvasModels) this.ctx.drawImage(layer.canvas, 0, 0);
        };
      }
      M.prototype.__explorerCompositeOnce = true;
    }
    function wrapped(...args) {
      const factory = args[args.length - 1];
      if (typeof factory === "function") {
        args[args.length - 1] = function (...deps) {
          const mod = factory.apply(this, deps);
          try { patch(mod); } catch (e) { console.warn("explorer: ipycanvas composite patch not applied", e); }
          return mod;
        };
      }
      return amdDefine.apply(this, args);
    }
    wrapped.amd = amdDefine.amd;
    return wrapped;
  })(define);
}
"""
"""The prefix (see the module docstring): wraps the bundle's ``define`` so ``MultiCanvasModel.updateCanvas``
composites at most once per microtask, straight onto the shown canvases; harmless where there is no ``define`` or no
such model (and a module without ``MultiCanvasView`` keeps the stock composite, deferred)."""

MARK = "explorer/serving/composite_once.py"
"""A string of :data:`COMPOSITE_ONCE_JS`'s first line: a bundle with it in its first 200 characters carries the
patch."""


def composite_layers_once(bundle: str) -> str:
    """The ipycanvas AMD ``bundle`` text, with :data:`COMPOSITE_ONCE_JS` before it when the patch is allowed
    (:func:`explorer.serving.versions.allowed`; ipycanvas is the pinned version), else ``bundle`` unchanged.
    Idempotent: a bundle that already carries the prefix is returned as it is."""
    if MARK in bundle[:200] or not allowed("composite_layers_once"):
        return bundle
    return COMPOSITE_ONCE_JS + bundle
