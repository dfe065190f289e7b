"""Static pictures of live widgets, for pages without a kernel (the documentation site, nbviewer).

A canvas has no state a page can show without its kernel: ipycanvas sends drawing commands as messages, and the
ipycanvas front-end bundle is not on the public CDN that embedded widget state loads from (``notes/stack.md``, trap
2), so an executed notebook's board, dice tray or odds chart would show as a blank box in a static page. When
:data:`STATIC_ENV` is set (the docs build sets it before executing the notebooks):

- every canvas made by :func:`explorer.widgets.canvas.own_canvas` (and every hex board layer) records the commands it
  draws (:class:`RecordingManager`; a ``clear()`` starts the picture afresh), and :func:`canvas_svg` replays them as
  SVG;
- :func:`enable_static_fallback` registers an IPython formatter so a displayed widget tree that holds a canvas adds
  a ``text/html`` picture of itself (:func:`static_html`: canvases as SVG, HTML widgets as their HTML, inputs as
  their description and value) to its output next to the widget view; the docs prefer that picture.

Game-neutral; imports no game. Without :data:`STATIC_ENV` nothing here runs (no recording cost in the app).
"""

from __future__ import annotations

import html
import math
import os
from typing import Any

import numpy as np
from ipycanvas.canvas import COMMANDS, _CanvasManager  # private, pinned: ipycanvas==0.14.3

STATIC_ENV = "EXPLORER_STATIC_WIDGETS"
"""Environment variable: ``1`` records canvas drawing and adds static pictures to displayed widgets."""

MAX_RECORDED = 200_000
"""Commands kept per canvas (a picture is redrawn after ``clear()``; older commands past this cap are dropped)."""

_NAMES = {v: k for k, v in COMMANDS.items()}
_ATTR_NAMES = {0: "fill_style", 1: "stroke_style", 2: "global_alpha", 3: "font", 4: "text_align",
               5: "text_baseline", 8: "line_width", 9: "line_cap", 10: "line_join"}


def recording() -> bool:
    """Whether canvases record their drawing (:data:`STATIC_ENV` is ``1``)."""
    return os.environ.get(STATIC_ENV, "") == "1"


def _decode(args: list, buffers: list) -> list:
    out = []
    for a in args:
        if isinstance(a, dict) and "idx" in a and "dtype" in a:
            arr = np.frombuffer(bytes(buffers[a["idx"]]), dtype=a["dtype"]).reshape(a["shape"])
            out.append(arr.copy())
        else:
            out.append(a)
    return out


class RecordingManager(_CanvasManager):
    """A private canvas manager that also keeps, per canvas, the commands drawn since its last ``clear()``."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.recorded: dict[int, list[tuple[str, list]]] = {}

    def send_command(self, canvas, command, buffers=[]):  # noqa: B006 (ipycanvas' signature)
        name = _NAMES.get(command[0], "")
        if name and name != "switchCanvas":
            log = self.recorded.setdefault(id(canvas), [])
            if name == "clear":
                log.clear()
            elif len(log) < MAX_RECORDED:
                log.append((name, _decode(list(command[1]), list(buffers))))
        return super().send_command(canvas, command, buffers)


def new_manager() -> _CanvasManager:
    """A fresh private canvas manager: recording when :func:`recording` is on, else ipycanvas' own."""
    return RecordingManager() if recording() else _CanvasManager()


# --------------------------------------------------------------------------------------------- canvas -> SVG

def _num(v: Any) -> str:
    return f"{float(v):.2f}".rstrip("0").rstrip(".")


def _arr(v: Any, n: int) -> np.ndarray:
    a = np.asarray(v, dtype=float).ravel()
    return np.full(n, float(a[0]) if a.size else 0.0) if a.size in (0, 1) else a


def _colors(c: Any, n: int) -> list[str]:
    a = np.asarray(c, dtype=int).ravel()
    return [f"rgb({a[3 * i]},{a[3 * i + 1]},{a[3 * i + 2]})" if a.size >= 3 * (i + 1) else "black" for i in range(n)]


def _items(num: Any, flat: Any, per: Any) -> list[np.ndarray]:
    n = int(np.asarray(num).ravel()[0])
    pts = np.asarray(flat, dtype=float).reshape(-1, 2)
    counts = _arr(per, n).astype(int)
    out, i = [], 0
    for k in counts[:n]:
        out.append(pts[i:i + k])
        i += k
    return out


def _poly_d(pts: np.ndarray, close: bool) -> str:
    if not len(pts):
        return ""
    d = "M" + " L".join(f"{_num(x)},{_num(y)}" for x, y in pts)
    return d + (" Z" if close else "")


def _arc_d(x, y, r, a0, a1, ccw=False, move=True) -> str:
    x, y, r, a0, a1 = map(float, (x, y, r, a0, a1))
    sweep = (a0 - a1) if ccw else (a1 - a0)
    if abs(sweep) >= 2 * math.pi - 1e-9:
        return (f"M{_num(x + r)},{_num(y)} A{_num(r)},{_num(r)} 0 1 1 {_num(x - r)},{_num(y)} "
                f"A{_num(r)},{_num(r)} 0 1 1 {_num(x + r)},{_num(y)}")
    sweep %= 2 * math.pi
    sx, sy = x + r * math.cos(a0), y + r * math.sin(a0)
    ex, ey = x + r * math.cos(a1), y + r * math.sin(a1)
    large = 1 if sweep > math.pi else 0
    return (f"{'M' if move else 'L'}{_num(sx)},{_num(sy)} A{_num(r)},{_num(r)} 0 {large} {0 if ccw else 1} "
            f"{_num(ex)},{_num(ey)}")


_ANCHOR = {"start": "start", "left": "start", "center": "middle", "end": "end", "right": "end"}
_BASELINE = {"top": "hanging", "hanging": "hanging", "middle": "central", "alphabetic": "auto",
             "ideographic": "auto", "bottom": "text-after-edge"}


def commands_svg(commands: list[tuple[str, list]]) -> list[str]:
    """SVG elements for recorded canvas commands (see :class:`RecordingManager`). Images and clipping are left out;
    ``arcTo`` is drawn as a straight line to its first point."""
    st = {"fill_style": "black", "stroke_style": "black", "global_alpha": 1.0, "font": "10px sans-serif",
          "text_align": "start", "text_baseline": "alphabetic", "line_width": 1.0, "line_cap": "butt",
          "line_join": "miter", "dash": [], "tx": (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)}
    stack: list[dict] = []
    path: list[str] = []
    out: list[str] = []

    def tf() -> str:
        a, b, c, d, e, f = st["tx"]
        return "" if st["tx"] == (1.0, 0.0, 0.0, 1.0, 0.0, 0.0) else \
            f" transform='matrix({_num(a)} {_num(b)} {_num(c)} {_num(d)} {_num(e)} {_num(f)})'"

    def paint(kind: str, color: str | None = None, alpha: float = 1.0) -> str:
        a = float(st["global_alpha"]) * float(alpha)
        op = "" if a >= 1 else f" opacity='{_num(a)}'"
        if kind == "fill":
            return f" fill='{html.escape(color or str(st['fill_style']))}' stroke='none'{op}{tf()}"
        dash = f" stroke-dasharray='{' '.join(_num(v) for v in st['dash'])}'" if st["dash"] else ""
        return (f" fill='none' stroke='{html.escape(color or str(st['stroke_style']))}' "
                f"stroke-width='{_num(st['line_width'])}' stroke-linecap='{st['line_cap']}' "
                f"stroke-linejoin='{st['line_join']}'{dash}{op}{tf()}")

    def shape(d: str, kind: str, color=None, alpha=1.0) -> None:
        if d:
            out.append(f"<path d='{d}'{paint(kind, color, alpha)}/>")

    def mul(m):
        a, b, c, d, e, f = st["tx"]
        A, B, C, D, E, F = m
        st["tx"] = (a * A + c * B, b * A + d * B, a * C + c * D, b * C + d * D, a * E + c * F + e, b * E + d * F + f)

    for name, args in commands:
        a = args
        if name == "set":
            key = _ATTR_NAMES.get(int(a[0]))
            if key:
                st[key] = a[1]
        elif name in ("fillRect", "strokeRect", "clearRect"):
            x, y, w, h = (float(v) for v in a[:4])
            d = f"M{_num(x)},{_num(y)} h{_num(w)} v{_num(h)} h{_num(-w)} Z"
            if name == "clearRect":
                out.append(f"<path d='{d}' fill='white' stroke='none'{tf()}/>")
            else:
                shape(d, "fill" if name == "fillRect" else "stroke")
        elif name in ("fillRects", "strokeRects", "fillStyledRects", "strokeStyledRects"):
            styled = "Styled" in name
            nums = a[:-2] if styled else a
            n = max(np.asarray(v).size for v in nums)
            xs, ys, ws = (_arr(v, n) for v in nums[:3])
            hs = _arr(nums[3], n) if len(nums) > 3 else ws
            cols = _colors(a[-2], n) if styled else [None] * n
            als = _arr(a[-1], n) if styled else np.ones(n)
            for i in range(n):
                shape(f"M{_num(xs[i])},{_num(ys[i])} h{_num(ws[i])} v{_num(hs[i])} h{_num(-ws[i])} Z",
                      "fill" if name.startswith("fill") else "stroke", cols[i], als[i])
        elif name in ("fillCircle", "strokeCircle"):
            shape(_arc_d(a[0], a[1], a[2], 0, 2 * math.pi), "fill" if name == "fillCircle" else "stroke")
        elif name in ("fillArc", "strokeArc"):
            d = _arc_d(*a[:5], ccw=bool(a[5]) if len(a) > 5 else False)
            shape(d + (f" L{_num(a[0])},{_num(a[1])} Z" if name == "fillArc" else ""),
                  "fill" if name == "fillArc" else "stroke")
        elif name in ("fillCircles", "strokeCircles", "fillStyledCircles", "strokeStyledCircles"):
            styled = "Styled" in name
            n = max(np.asarray(v).size for v in a[:3])
            xs, ys, rs = (_arr(v, n) for v in a[:3])
            cols = _colors(a[3], n) if styled else [None] * n
            als = _arr(a[4], n) if styled and len(a) > 4 else np.ones(n)
            for i in range(n):
                shape(_arc_d(xs[i], ys[i], rs[i], 0, 2 * math.pi), "fill" if name.startswith("fill") else "stroke",
                      cols[i], als[i])
        elif name in ("fillArcs", "strokeArcs", "fillStyledArcs", "strokeStyledArcs"):
            styled = "Styled" in name
            n = max(np.asarray(v).size for v in a[:5])
            xs, ys, rs, s0, s1 = (_arr(v, n) for v in a[:5])
            ccw = bool(a[5]) if len(a) > (7 if styled else 5) else False
            cols = _colors(a[-2], n) if styled else [None] * n
            als = _arr(a[-1], n) if styled else np.ones(n)
            for i in range(n):
                d = _arc_d(xs[i], ys[i], rs[i], s0[i], s1[i], ccw)
                fill = name.startswith("fill")
                shape(d + (f" L{_num(xs[i])},{_num(ys[i])} Z" if fill else ""), "fill" if fill else "stroke",
                      cols[i], als[i])
        elif name == "strokeLine":
            shape(f"M{_num(a[0])},{_num(a[1])} L{_num(a[2])},{_num(a[3])}", "stroke")
        elif name in ("fillPolygon", "strokePolygon", "strokeLines"):
            shape(_poly_d(np.asarray(a[0], dtype=float).reshape(-1, 2), name != "strokeLines"),
                  "fill" if name == "fillPolygon" else "stroke")
        elif name in ("fillPolygons", "strokePolygons", "strokeLineSegments", "fillStyledPolygons",
                      "strokeStyledPolygons", "strokeStyledLineSegments"):
            items = _items(a[0], a[1], a[2])
            styled = "Styled" in name
            cols = _colors(a[3], len(items)) if styled else [None] * len(items)
            als = _arr(a[4], len(items)) if styled and len(a) > 4 else np.ones(len(items))
            for i, pts in enumerate(items):
                shape(_poly_d(pts, "Polygons" in name), "fill" if name.startswith("fill") else "stroke", cols[i],
                      als[i])
        elif name == "beginPath":
            path = []
        elif name == "closePath":
            path.append("Z")
        elif name == "moveTo":
            path.append(f"M{_num(a[0])},{_num(a[1])}")
        elif name in ("lineTo", "arcTo"):
            path.append(f"{'L' if path else 'M'}{_num(a[0])},{_num(a[1])}")
        elif name == "rect":
            x, y, w, h = (float(v) for v in a[:4])
            path.append(f"M{_num(x)},{_num(y)} h{_num(w)} v{_num(h)} h{_num(-w)} Z")
        elif name == "arc":
            path.append(_arc_d(*a[:5], ccw=bool(a[5]) if len(a) > 5 else False, move=not path))
        elif name == "quadraticCurveTo":
            path.append("Q" + " ".join(_num(v) for v in a[:4]))
        elif name == "bezierCurveTo":
            path.append("C" + " ".join(_num(v) for v in a[:6]))
        elif name in ("stroke", "fill"):
            shape(" ".join(path), name)
        elif name in ("fillText", "strokeText"):
            x, y = float(a[1]), float(a[2])
            kind = "fill" if name == "fillText" else "stroke"
            style = f"font:{html.escape(str(st['font']))};white-space:pre"
            out.append(f"<text x='{_num(x)}' y='{_num(y)}' text-anchor='{_ANCHOR.get(st['text_align'], 'start')}' "
                       f"dominant-baseline='{_BASELINE.get(st['text_baseline'], 'auto')}' style='{style}'"
                       f"{paint(kind)}>{html.escape(str(a[0]))}</text>")
        elif name == "setLineDash":
            st["dash"] = [float(v) for v in (a[0] if a else [])]
        elif name == "save":
            stack.append(dict(st))
        elif name == "restore" and stack:
            st = stack.pop()
        elif name == "translate":
            mul((1, 0, 0, 1, float(a[0]), float(a[1])))
        elif name == "scale":
            mul((float(a[0]), 0, 0, float(a[1]), 0, 0))
        elif name == "rotate":
            c, s = math.cos(float(a[0])), math.sin(float(a[0]))
            mul((c, s, -s, c, 0, 0))
        elif name == "transform":
            mul(tuple(float(v) for v in a[:6]))
        elif name == "setTransform":
            st["tx"] = tuple(float(v) for v in a[:6])
        elif name == "resetTransform":
            st["tx"] = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
    return out


def _layers(canvas) -> list:
    return list(getattr(canvas, "_canvases", None) or [canvas])


def canvas_svg(canvas) -> str | None:
    """An SVG document of what ``canvas`` (an ipycanvas ``Canvas`` or ``MultiCanvas``, layers bottom first) shows,
    replayed from its recording; ``None`` when it was not recording (see :func:`recording`)."""
    parts: list[str] = []
    seen = False
    for layer in _layers(canvas):
        mgr = getattr(layer, "_canvas_manager", None)
        if isinstance(mgr, RecordingManager):
            seen = True
            parts += commands_svg(mgr.recorded.get(id(layer), []))
    if not seen:
        return None
    w, h = int(canvas.width), int(canvas.height)
    return (f"<svg xmlns='http://www.w3.org/2000/svg' class='explorer-static-canvas' width='{w}' height='{h}' "
            f"viewBox='0 0 {w} {h}' style='max-width:100%;height:auto'>" + "".join(parts) + "</svg>")


# --------------------------------------------------------------------------------------------- widget tree -> HTML

def _is_canvas(w) -> bool:
    from ipycanvas import Canvas, MultiCanvas

    return isinstance(w, (Canvas, MultiCanvas))


def has_canvas(widget) -> bool:
    """Whether a canvas is anywhere in ``widget``'s tree (children, tab pages)."""
    if _is_canvas(widget):
        return True
    return any(has_canvas(c) for c in getattr(widget, "children", ()) or ())


def _hidden(w) -> bool:
    lay = getattr(w, "layout", None)
    return bool(lay is not None and (lay.display == "none" or lay.visibility == "hidden"))


_CHIP = ("display:inline-block;border:1px solid #ced4da;border-radius:3px;padding:1px 6px;margin:2px 4px 2px 0;"
         "font:12px sans-serif;background:#f8f9fa;color:#343a40")


def _sizes(widget) -> str:
    """The widget's own CSS sizes (``layout.width``, ``min_width``, ``max_width``, ``flex``), as a style suffix;
    a fixed width never exceeds the page (``max-width:100%``)."""
    lay = getattr(widget, "layout", None)
    out = ""
    for key, css in (("width", "width"), ("min_width", "min-width"), ("max_width", "max-width"), ("flex", "flex")):
        v = getattr(lay, key, None) if lay is not None else None
        if v and isinstance(v, str) and all(ch not in v for ch in "'<>;"):
            out += f";{css}:{v}"
    return out + (";max-width:100%;box-sizing:border-box" if "max-width" not in out else "")


def static_html(widget) -> str:
    """``widget``'s tree as static HTML: boxes as flex rows/columns, ``HTML`` widgets as their HTML, labels as text,
    inputs as ``description: value`` chips, buttons as labelled chips, canvases as :func:`canvas_svg` pictures (a
    canvas that was not recording shows a note, never an empty box), tabs with their titles."""
    import ipywidgets as W

    e = html.escape
    if _hidden(widget):
        return ""
    if _is_canvas(widget):
        svg = canvas_svg(widget)
        return svg if svg else ("<div style='font:12px sans-serif;color:#868e96;border:1px dashed #adb5bd;"
                                "padding:8px'>(an interactive canvas: open this notebook in Jupyter to see it)</div>")
    if isinstance(widget, (W.Tab, W.Accordion, W.Stack)):
        kids = list(widget.children)
        titles = list(getattr(widget, "titles", ()) or ())
        out = []
        for i, c in enumerate(kids):
            t = titles[i] if i < len(titles) and titles[i] else f"Page {i + 1}"
            out.append(f"<div><b style='font:13px sans-serif'>{e(str(t))}</b>{static_html(c)}</div>")
        return "<div class='explorer-static-tabs'>" + "".join(out) + "</div>"
    if isinstance(widget, W.Box):
        inner = "".join(static_html(c) for c in widget.children)
        lay = widget.layout
        if isinstance(widget, W.GridBox) and lay.grid_template_columns:
            style = (f"display:grid;grid-template-columns:{lay.grid_template_columns};"
                     f"gap:{lay.grid_gap or '2px 6px'};align-items:center")
        elif isinstance(widget, W.HBox) or (not isinstance(widget, (W.VBox, W.GridBox))
                                            and (lay.flex_flow or "row").startswith("row")):
            style = "display:flex;flex-wrap:wrap;gap:4px 12px;align-items:flex-start"
        else:
            style = "display:flex;flex-direction:column;gap:2px"
        return f"<div style='{style}{_sizes(widget)}'>{inner}</div>"
    if isinstance(widget, (W.HTML, W.HTMLMath)):
        return f"<div>{widget.value}</div>"
    if isinstance(widget, W.Label):
        return f"<span style='font:13px sans-serif'>{e(str(widget.value))}</span>"
    if isinstance(widget, W.Button):
        return f"<span style='{_CHIP};background:#e9ecef'>{e(widget.description or widget.tooltip or 'button')}</span>"
    if isinstance(widget, W.Output):
        parts = []
        for o in widget.outputs:
            data = o.get("data", {}) if isinstance(o, dict) else {}
            if "text/html" in data:
                parts.append(str(data["text/html"]))
            elif "text/plain" in data or o.get("text"):
                parts.append(f"<pre>{e(str(data.get('text/plain', o.get('text', ''))))}</pre>")
        return "".join(parts)
    if isinstance(widget, W.Image):
        import base64

        fmt = widget.format or "png"
        return f"<img alt='' src='data:image/{e(fmt)};base64,{base64.b64encode(bytes(widget.value)).decode()}'>"
    if isinstance(widget, W.ValueWidget) or hasattr(widget, "value"):
        label = getattr(widget, "label", None) if isinstance(widget, (W.Dropdown, W.Select, W.RadioButtons,
                                                                     W.ToggleButtons)) else None
        value = label if label is not None else getattr(widget, "value", "")
        desc = getattr(widget, "description", "")
        return f"<span style='{_CHIP}'>{e(desc + ': ' if desc else '')}<b>{e(str(value))}</b></span>"
    return ""


def static_bundle(widget) -> dict[str, Any]:
    """``widget``'s usual display bundle (widget view and text) plus, when its tree holds a canvas, a ``text/html``
    static picture (:func:`static_html`) wrapped in ``<div class="explorer-static-widget">``."""
    bundle = widget._repr_mimebundle_() or {}
    data = dict(bundle[0] if isinstance(bundle, tuple) else bundle)
    if has_canvas(widget):
        data["text/html"] = ("<div class='explorer-static-widget' style='overflow-x:auto'>"
                             "<div class='explorer-static-note' style='font:12px sans-serif;color:#868e96'>Static "
                             "picture of the widget as the notebook left it (run the notebook, or open the app, to "
                             "use it)</div>" + static_html(widget) + "</div>")
    return data


def enable_static_fallback() -> bool:
    """Register :func:`static_bundle` as IPython's display formatter for ipywidgets (in a running kernel); returns
    whether it was registered (``False`` outside IPython)."""
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover
        return False
    ip = get_ipython()
    if ip is None:
        return False
    import ipywidgets as W

    ip.display_formatter.mimebundle_formatter.for_type(W.DOMWidget, static_bundle)
    return True


__all__ = ["STATIC_ENV", "RecordingManager", "new_manager", "recording", "canvas_svg", "commands_svg", "static_html",
           "static_bundle", "has_canvas", "enable_static_fallback"]
