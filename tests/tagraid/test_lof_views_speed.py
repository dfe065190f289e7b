"""The Line of Fire page's fast paths draw and say what the plain ones do (issue #12, interaction latency):

* the labels are placed by one vectorised overlap pass per label: the same spots as the former one-spot-at-a-time
  search (kept here as the reference);
* layers are redrawn only when they change, from geometry cached per board: after a run of interactions each layer
  shows what a fresh explorer opened on the same table draws from scratch.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from explorer.games.tagraid.lof_views import LofExplorer, LofSnapshot
from explorer.hexgrid import Hex
from explorer.render.svg import Label, Segment


def _reference_labels(self, tags, px, drawn):
    """The former label placement (one candidate spot at a time, one ``vstack`` per spot): the oracle."""
    t = self.table
    boxes = []
    for m in t.models.values():
        r = t.disc(m).r * px + 2
        boxes.append((m.x * px - r, m.y * px - r, m.x * px + r, m.y * px + r))
    for o in drawn:
        if isinstance(o, Label):
            w, h = 0.62 * o.size * len(o.text), o.size + 2
            boxes.append((o.pos[0] * px - w / 2, o.pos[1] * px - h / 2, o.pos[0] * px + w / 2, o.pos[1] * px + h / 2))
    dots = []
    for o in drawn:
        if isinstance(o, Segment) and o.width < 5:
            (x0, y0), (x1, y1) = o.p0, o.p1
            n = max(1, int(math.hypot(x1 - x0, y1 - y0) * px / 6))
            dots += [((x0 + (x1 - x0) * k / n) * px, (y0 + (y1 - y0) * k / n) * px) for k in range(n + 1)]
    line_boxes = np.column_stack([np.asarray(dots) - 1.5, np.asarray(dots) + 1.5]) if dots else np.zeros((0, 4))

    def overlap(b):
        both = np.vstack([np.asarray(boxes, dtype=float).reshape(-1, 4), line_boxes])
        w = np.clip(np.minimum(b[2], both[:, 2]) - np.maximum(b[0], both[:, 0]), 0, None)
        h = np.clip(np.minimum(b[3], both[:, 3]) - np.maximum(b[1], both[:, 1]), 0, None)
        return float((w * h).sum())

    order = sorted(t.models.values(), key=lambda m: (m.id != self.shooter, m.kind == "megabeast", m.y, m.x))
    out = []
    for m in order:
        text, colour = tags.get(m.id, ("", "#111111"))
        lines = [m.id] + ([text] if text else [])
        w = max(0.62 * 11.5 * len(s) for s in lines) + 4
        h = 13.5 * len(lines)
        gap = t.disc(m).r * px + 3
        cx, cy = m.x * px, m.y * px
        best, best_o = None, math.inf
        for k in (1.0, 1.8, 2.8):
            g = gap * k + (k - 1) * 6
            for dx, dy in ((0, g + h / 2), (0, -g - h / 2), (g + w / 2, 0), (-g - w / 2, 0),
                           (g * .7 + w / 2, g * .7 + h / 2), (-g * .7 - w / 2, g * .7 + h / 2),
                           (g * .7 + w / 2, -g * .7 - h / 2), (-g * .7 - w / 2, -g * .7 - h / 2)):
                b = (cx + dx - w / 2, cy + dy - h / 2, cx + dx + w / 2, cy + dy + h / 2)
                o = overlap(b)
                if o < best_o - 1e-9:
                    best, best_o = b, o
                if o == 0:
                    break
            if best_o == 0:
                break
        boxes.append(best)
        x, y0 = (best[0] + best[2]) / 2 / px, best[1] / px
        out.append(Label((x, y0 + 6.75 / px), m.id, size=11.5, fill="#111111", weight="bold"))
        if text:
            out.append(Label((x, y0 + 20.25 / px), text, size=11, fill=colour, weight="bold"))
    return out


@pytest.fixture(scope="module")
def explorer():
    return LofExplorer()


@pytest.mark.parametrize("px", [14.0, 24.0, 32.0, 50.0])
@pytest.mark.parametrize("shooter", ["Cutter", "Digger", "Stoorworm"])
def test_labels_are_placed_where_the_former_search_placed_them(explorer, monkeypatch, shooter, px):
    w = explorer
    if shooter not in w.models:
        pytest.skip(f"no {shooter} on the default table")
    w.set_shooter(shooter)
    snap = w.snapshot()
    fast = snap.overlays(px_per_unit=px)
    monkeypatch.setattr(LofSnapshot, "_labels", _reference_labels)
    assert fast == snap.overlays(px_per_unit=px)


def _layers(w: LofExplorer) -> dict[str, str]:
    from explorer.widgets.static import commands_svg

    mgr = w.board_view.canvas._canvas_manager
    return {name: "\n".join(commands_svg(mgr.recorded.get(id(layer), [])))
            for name, layer in w.board_view.layers.items()}


def test_incremental_layers_show_what_a_fresh_explorer_draws(monkeypatch):
    monkeypatch.setenv("EXPLORER_STATIC_WIDGETS", "1")  # canvases record what they draw (explorer.widgets.static)
    w = LofExplorer()
    bv = w.board_view
    bv.select("Digger")
    bv.rotate_selected(1)
    bv.select("Digger")  # a click on the selected shooter: nothing changes, nothing is re-sent
    w.move_model("Lurker", *w.scenario.board.layout.hex_to_pixel(Hex(6, 11)))
    bv._draw_pieces(ghost=("Lurker", (3.0, 4.0)))  # a drag in progress...
    bv.redraw_pieces()                               # ...and its end: no ghost is left
    bv.set_scale(bv.scale * 1.25)
    bv.fit()
    fresh = LofExplorer()
    fresh.load_document(w.table_document(), "the explorer's own state")
    fresh.board_view.set_scale(bv.scale)
    fresh.board_view.fit()
    assert fresh.board_view.scale == bv.scale
    assert _layers(w) == _layers(fresh)
    assert w.verdict_html.value == fresh.verdict_html.value
