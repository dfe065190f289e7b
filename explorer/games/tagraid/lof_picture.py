"""TAG Raid Line of Fire as pictures (no widgets): one shooter's verdicts drawn as overlays on the board, as an SVG
document and as an HTML verdict table.

* :class:`LofSnapshot` / :func:`board_svg` — the one place that turns a table and its verdicts into overlays
  (:meth:`LofSnapshot.overlays`: used by the widget :class:`~.lof_views.LofExplorer`, by the static SVG
  ``_repr_svg_`` for docs and notebooks without a kernel, by :meth:`TableTop._repr_svg_ <.lof.TableTop._repr_svg_>`
  and by ``explorer render`` of a table scenario, :func:`table_picture`).
* :func:`verdict_table_html` — the verdict list (the explorer's side panel).

The rules live in :mod:`.lof`, :mod:`.ranges`, :mod:`.megabeast` and :mod:`.lof_analysis` (:func:`analyse`, re-exported
here); the words in :mod:`.lof_report`; this module only draws their answers.
"""

from __future__ import annotations

import html
import math
from collections.abc import Mapping, Sequence

import numpy as np

from explorer.board import Board, Cell
from explorer.board import Scenery as BoardScenery
from explorer.errors import ScenarioError
from explorer.hexgrid import distance, neighbors
from explorer.options import Rulings
from explorer.render.svg import BLOCKED, WITNESS, Circle, HexMark, Label, Overlay, Poly, Segment, render_board

from .lof import LoFResult, TableTop
from .lof_analysis import BlockedRay, TargetVerdict, _cut_rays, analyse
from .lof_report import LIMIT_3D_SEARCH, blocked_words, obstacle_words, verdict_readings
from .megabeast import ThreatLevels, side_pairs, sides_facing
from .pieces import Model, arc_polygon_points
from .ranges import DEFAULT_RANGE_CALIBRATION, OUT_OF_RANGE, HexRange, RangeCalibration, WeaponRanges, hexes_in_range

SIDE_COLOURS = {"A": "#2f6fb5", "B": "#c0392b", "megabeast": "#6c3483"}
BAND_COLOURS = {"short": "#1a9641", "mid": "#e6a100", "long": "#d35400", OUT_OF_RANGE: "#7f8c8d"}
PAIR_COLOURS = {"front": "#c0392b", "adjacent": "#e67e22", "opposite": "#7f8c8d"}
COVER = {"stroke": "#e6a100", "width": 3.0, "dash": "4 2"}

def board_of_table(table: TableTop) -> Board:
    """The :class:`Board` to draw a table on: the board it was made from, else one built from its ``tiles`` (tiled
    hexagons as sand), else the hexagons under and next to its Models and scenery."""
    if table.board is not None:
        return table.board
    scenery = [BoardScenery(s.id, s.points, None if s.height == float("inf") else s.height) for s in table.scenery]
    if table.tiles:
        cells = {h: (Cell("sand") if has else Cell(tile=False)) for h, has in table.tiles.items()}
    else:
        hexes = {table.hex_of(m) for m in table.models.values()}
        for s in table.scenery:
            hexes |= {table.layout.pixel_to_hex(p) for p in s.points}
        cells = {n: Cell("sand") for h in hexes for n in (h, *neighbors(h))}
    return Board(cells, scenery, orientation=table.layout.orientation)


PENDING = "…"
"""What a column of the verdict list (and a target's label on the board) shows while its part of the verdict is
still being computed (:class:`PendingVerdict`)."""


class PendingVerdict(TargetVerdict):
    """A verdict of which only the Line of Fire verdict is known yet (the page's first pass, ``LofExplorer.update``):
    ``lof`` is the verdict without its explanation (``line_of_fire(..., explain=False)``: ``has_lof``, ``reason``,
    ``witness``, ``in_arc``, ``arc_degrees``, ``rule`` as the explained verdict has them; ``blocked_by`` empty),
    ``hex_distance`` is known; ``range``, ``band``, ``mod``, ``cover``, ``threat`` and ``blocked_rays`` are not computed
    yet (``None`` / empty), and the list and the board say :data:`PENDING` for them instead of "—" / "no"."""

    pending = True

    @classmethod
    def of(cls, v) -> "PendingVerdict":
        """From a :class:`~.lof_analysis.LazyVerdict` (reads its ``lof_verdict`` and ``hex_distance`` only: nothing
        deferred is computed)."""
        return cls(v.target, v.lof_verdict, hex_distance=v.hex_distance)


def short_verdict(v: TargetVerdict) -> str:
    """The few words drawn next to a target without LoF: ``"outside arc"``, ``"blocked by rock 4"``, ``"blocked by
    Stoorworm"``, ``"blocked: no tile"``, ``"engaged"``."""
    if v.lof.reason == "outside_arc":
        return "outside arc"
    if v.lof.reason != "blocked":
        return v.lof.reason.replace("_", " ")
    labels = [br.obstacle for br in v.blocked_rays] or list(v.lof.blocked_by)
    if not labels:
        return "blocked"
    # the obstacle most rays hit; between equally frequent ones, the first listed (a set here made the words depend
    # on the process's string hashing: "blocked by Stoorworm" in one run, "blocked: no tile" in the next)
    first = max(labels, key=labels.count)
    kind, _, ident = first.partition(":")
    return {"scenery": f"blocked by {ident}", "model": f"blocked by {ident}", "hex": "blocked: no tile"}.get(
        kind, "blocked: board edge")


def _fmt_mod(mod: int | None) -> str:
    return "cannot fire" if mod is None else f"MOD {mod:+d}"


class LofSnapshot:
    """A board, its Models and one shooter's verdicts, as overlays and as a static SVG (``_repr_svg_``).

    Args:
        board: the board.
        models: the Models.
        shooter: the shooter's id (``None``: only the Models are drawn).
        verdicts: the shooter's verdicts (:func:`analyse`); computed when ``None`` and a shooter is given.
        rulings, calibration, weapon, threat: as for :func:`analyse`.
        size: pixels per board unit in the SVG.
        ruler_to: a target whose Range Ruler is drawn (its three Segments along the measured line).
        hex_range: a Range in Hexagons (``"same"``, ``"adjacent"``, ``"same_and_adjacent"``, ``"up_to_2"``,
            ``"from_1_to_2"``) whose hexagons around the shooter are outlined.
    """

    def __init__(self, board: Board, models: Sequence[Model], shooter: str | None = None,
                 verdicts: Sequence[TargetVerdict] | None = None, rulings: Rulings | None = None,
                 calibration: RangeCalibration = DEFAULT_RANGE_CALIBRATION, weapon: WeaponRanges | None = None,
                 threat: ThreatLevels | None = None, size: float = 24.0, ruler_to: str | None = None,
                 hex_range: HexRange | str | None = None, table: TableTop | None = None):
        self.board, self.models, self.shooter = board, list(models), shooter
        self.ruler_to = ruler_to
        self.hex_range = HexRange(hex_range) if hex_range else None
        self.table = table if table is not None else TableTop.from_board(board, self.models)
        self.calibration, self.threat, self.size = calibration, threat, size
        if verdicts is None and shooter is not None:
            verdicts = analyse(self.table, shooter, rulings, calibration, weapon, threat)
        self.verdicts = list(verdicts or [])

    @classmethod
    def of_table(cls, table: TableTop, shooter: str | None = None, **kwargs) -> LofSnapshot:
        """A snapshot of a :class:`TableTop` (its own board, or, for a table built without one, the hexagons under
        its Models and scenery). ``kwargs`` as for the constructor."""
        return cls(board_of_table(table), list(table.models.values()), shooter, table=table, **kwargs)

    # -- overlays shared by the SVG and the widget
    def overlays(self, with_models: bool = False, px_per_unit: float | None = None) -> list[Overlay]:
        """Overlays (board units): the shooter's arc and Range bands, witness segments (green), blocked rays cut at
        the obstacle (red), Partial Cover rings, the MegaBeasts' Threat Levels per side, and each Model's name with
        its verdict, placed so that no two labels overlap each other or a base (greedy, at ``px_per_unit`` pixels
        per board unit: default ``size``). ``with_models`` also draws the bases (for the static SVG; the widget
        draws them as pieces). This is the one place that turns a table and its verdicts into overlays: the widget
        and the static SVG both use it."""
        px = float(px_per_unit or self.size)
        out: list[Overlay] = []
        tags: dict[str, tuple[str, str]] = {}  # Model id -> (verdict text, colour)
        t = self.table
        if self.shooter is not None:
            s = t.model(self.shooter)
            d = t.disc(s)
            arc = s.arc_degrees()
            reach = d.r + self.calibration.edges()[-1][2]
            if arc >= 360:
                out.append(Circle(s.center, reach, fill="#fff3bf", stroke="#b08900", width=1.0, opacity=0.25))
            else:
                out.append(Poly(arc_polygon_points(s.center, s.facing, arc, reach, 36), stroke="#b08900", width=1.0,
                                fill="#fff3bf", opacity=0.3, title=f"{s.id}'s {arc:g}° front arc"))
            for name, _, end in self.calibration.edges():
                out.append(Circle(s.center, d.r + end, stroke=BAND_COLOURS[name], width=1.2, dash="6 4",
                                  title=f"{name} range edge"))
                ang = math.radians(s.facing if arc < 360 else 0.0)
                out.append(Label((s.x + (d.r + end) * math.cos(ang), s.y + (d.r + end) * math.sin(ang)),
                                 name[0].upper(), size=11, fill=BAND_COLOURS[name], weight="bold"))
        for v in self.verdicts:
            if v.target == self.ruler_to and v.range is not None and v.range.ruler is not None:
                for name, seg in v.range.bands():
                    out.append(Segment(seg.p0, seg.p1, stroke=BAND_COLOURS[name], width=9.0, opacity=0.45,
                                       title=f"Range Ruler: {name} Segment"))
                m = v.range.measured
                out.append(Segment(m.p0, m.p1, stroke="#111111", width=1.5, dash="2 2",
                                   title=f"measured: {v.range.shown(2):.2f} hex units"))
        if with_models:  # bases under the lines and labels
            for m in t.models.values():
                d = t.disc(m)
                arc = m.arc_degrees()
                out.append(Circle(m.center, d.r, fill=SIDE_COLOURS.get(m.side, "#555555"), stroke="#111111", width=1.5,
                                  facing=None if arc >= 360 else m.facing, arc=arc, title=m.id))
        out += self._height_labels()
        if self.shooter is not None and self.hex_range is not None:
            for h in hexes_in_range(self.hex_range, t.hex_of(self.shooter)):
                if h in self.board:
                    out.append(HexMark(h, stroke="#0b7285", width=2.5, fill="#66d9e8", opacity=0.25, dash="5 3",
                                       title=f"Range in Hexagons: {self.hex_range.value}"))
        for m in t.models.values():
            if m.kind == "megabeast":
                out += self._threat_overlays(m)
        for v in self.verdicts:
            tgt = t.model(v.target)
            td = t.disc(tgt)
            if v.lof.has_lof and v.lof.witness is not None:
                w = v.lof.witness
                if w.p0 == w.p1:
                    out.append(Circle(w.p0, 0.08, fill=WITNESS["stroke"], stroke=WITNESS["stroke"], width=1))
                else:
                    out.append(Segment(w.p0, w.p1, **WITNESS, title=f"LoF {self.shooter} → {v.target}"))
                txt = (v.band or "").replace("_", " ")
                if getattr(v, "pending", False):   # the band, MOD and cover are not computed yet
                    txt = PENDING
                if v.mod is not None:
                    txt += f" {v.mod:+d}"
                if v.cover is not None and v.cover.in_cover:
                    txt += " · Partial Cover"
                    out.append(Circle(tgt.center, td.r + 0.12, **COVER, title="Partial Cover"))
                tags[v.target] = (txt.strip(), "#145a32")
            else:
                for i, br in enumerate(v.blocked_rays):
                    out.append(Segment(br.start, br.hit, **BLOCKED, title=f"blocked by {obstacle_words(br.obstacle)}"))
                    out.append(Segment(br.hit, br.end, stroke=BLOCKED["stroke"], width=0.8, dash="1 4",
                                       opacity=0.5))
                    k = 0.12
                    hx, hy = br.hit
                    out.append(Segment((hx - k, hy - k), (hx + k, hy + k), stroke=BLOCKED["stroke"], width=2.5))
                    out.append(Segment((hx - k, hy + k), (hx + k, hy - k), stroke=BLOCKED["stroke"], width=2.5))
                tags[v.target] = (short_verdict(v), "#922b21")
        out += self._labels(tags, px, out)
        if self.shooter is not None:
            out.append(Circle(t.model(self.shooter).center, t.disc(self.shooter).r + 0.14, stroke="#ffbf00",
                              width=3.0))
        return out

    def _height_labels(self) -> list[Overlay]:
        """On a table where some Model stands on scenery: each scenery piece's height (hex units; pieces without one
        are taller than anything and get none) just below the piece, and an upward mark on the bases of Models standing on scenery (:mod:`.elevation`)."""
        out: list[Overlay] = []
        t = self.table
        if not t.has_elevation:  # flat tables: heights only matter under scenery_height (the pieces' tooltips)
            return out
        for sc in t.scenery:
            if not math.isfinite(sc.height):
                continue
            x0, _, x1, y1 = t._scenery_polys[sc.id].bounds
            out.append(Label(((x0 + x1) / 2, y1 + 0.25), f"↑{sc.height:g}", size=12, fill="#3b2f1e",
                             weight="bold"))
        for m in t.models.values():
            if m.on is not None:
                d = t.disc(m)
                out.append(Circle(m.center, d.r + 0.07, stroke="#ffffff", width=2.0, dash="3 2",
                                  title=f"{m.id} stands on {m.on} (elevation {t.elevation(m):g})"))
        return out

    def _labels(self, tags: Mapping[str, tuple[str, str]], px: float, drawn: Sequence[Overlay]) -> list[Overlay]:
        """Each Model's name (and verdict under it) as a two-line block placed at the first of several spots around
        its base that overlaps no base, no other block and no label already drawn (else the least overlapping)."""
        t = self.table
        boxes: list[tuple[float, float, float, float]] = []  # pixel boxes (x0, y0, x1, y1) to avoid
        for m in t.models.values():
            r = t.disc(m).r * px + 2
            boxes.append((m.x * px - r, m.y * px - r, m.x * px + r, m.y * px + r))
        for o in drawn:
            if isinstance(o, Label):
                w, h = 0.62 * o.size * len(o.text), o.size + 2
                boxes.append((o.pos[0] * px - w / 2, o.pos[1] * px - h / 2, o.pos[0] * px + w / 2, o.pos[1] * px + h / 2))
        # LoF segments and rays: small boxes along them, so a label rather sits beside a line than on it
        # (one array per segment, the same arithmetic in the same order as point by point: the same dots)
        dots = []
        for o in drawn:
            if isinstance(o, Segment) and o.width < 5:
                (x0, y0), (x1, y1) = o.p0, o.p1
                n = max(1, int(math.hypot(x1 - x0, y1 - y0) * px / 6))
                k = np.arange(n + 1, dtype=float)
                dots.append(np.column_stack([(x0 + (x1 - x0) * k / n) * px, (y0 + (y1 - y0) * k / n) * px]))
        if dots:
            d = np.concatenate(dots)
            line_boxes = np.column_stack([d - 1.5, d + 1.5])
        else:
            line_boxes = np.zeros((0, 4))
        # every box to avoid, in one array that grows as labels are placed (the fixed boxes first, as before)
        fixed = np.asarray(boxes, dtype=float).reshape(-1, 4)
        avoid = np.empty((len(fixed) + len(line_boxes) + len(t.models), 4))
        avoid[:len(fixed)] = fixed
        avoid[len(fixed):len(fixed) + len(line_boxes)] = line_boxes
        n_avoid = len(fixed) + len(line_boxes)

        def overlaps(cands: np.ndarray) -> np.ndarray:
            """The overlap area of each candidate box (rows ``x0, y0, x1, y1``) with every box to avoid: one
            vectorised pass for all the spots of a label (the same sums as one candidate at a time). Only the boxes
            that reach into the candidates' bounding box can overlap one: the others are dropped first (on a crowded
            table most of the thousands of line dots are far from the label)."""
            both = avoid[:n_avoid]
            lo, hi = cands.min(axis=0), cands.max(axis=0)
            both = both[(both[:, 0] < hi[2]) & (both[:, 2] > lo[0]) & (both[:, 1] < hi[3]) & (both[:, 3] > lo[1])]
            w = np.clip(np.minimum(cands[:, None, 2], both[None, :, 2]) - np.maximum(cands[:, None, 0],
                                                                                    both[None, :, 0]), 0, None)
            h = np.clip(np.minimum(cands[:, None, 3], both[None, :, 3]) - np.maximum(cands[:, None, 1],
                                                                                    both[None, :, 1]), 0, None)
            return (w * h).sum(axis=1)

        order = sorted(t.models.values(), key=lambda m: (m.id != self.shooter, m.kind == "megabeast", m.y, m.x))
        out: list[Overlay] = []
        for m in order:
            text, colour = tags.get(m.id, ("", "#111111"))
            name = m.id if m.on is None else f"{m.id} ↑{t.elevation(m):g} on {m.on}"
            lines = [name] + ([text] if text else [])
            w = max(0.62 * 11.5 * len(s) for s in lines) + 4
            h = 13.5 * len(lines)
            gap = t.disc(m).r * px + 3
            cx, cy = m.x * px, m.y * px
            cands = []
            for k in (1.0, 1.8, 2.8):
                g = gap * k + (k - 1) * 6
                for dx, dy in ((0, g + h / 2), (0, -g - h / 2), (g + w / 2, 0), (-g - w / 2, 0),
                               (g * .7 + w / 2, g * .7 + h / 2), (-g * .7 - w / 2, g * .7 + h / 2),
                               (g * .7 + w / 2, -g * .7 - h / 2), (-g * .7 - w / 2, -g * .7 - h / 2)):
                    cands.append((cx + dx - w / 2, cy + dy - h / 2, cx + dx + w / 2, cy + dy + h / 2))
            ov = overlaps(np.asarray(cands))
            best, best_o = None, math.inf
            for ring in range(3):  # the first spot that overlaps nothing, ring by ring, else the least overlapping
                for i in range(ring * 8, ring * 8 + 8):
                    o = float(ov[i])
                    if o < best_o - 1e-9:
                        best, best_o = cands[i], o
                    if o == 0:
                        break
                if best_o == 0:
                    break
            avoid[n_avoid] = best
            n_avoid += 1
            x, y0 = (best[0] + best[2]) / 2 / px, best[1] / px
            out.append(Label((x, y0 + 6.75 / px), name, size=11.5, fill="#111111", weight="bold"))
            if text:
                out.append(Label((x, y0 + 20.25 / px), text, size=11, fill=colour, weight="bold"))
        return out

    def _threat_overlays(self, mb: Model) -> list[Overlay]:
        if self.threat is None:
            return []
        lay = self.table.layout
        h = self.table.hex_of(mb)
        try:
            pairs = side_pairs(lay, mb.facing)
        except ScenarioError:
            return [HexMark(h, stroke="#922b21", width=3, title="facing does not point at a corner")]
        facing_shooter: tuple[int, ...] = ()
        if self.shooter is not None and self.shooter != mb.id:
            s = self.table.model(self.shooter)
            try:
                facing_shooter = sides_facing(lay, h, s.center)
            except ScenarioError:
                facing_shooter = ()
        out: list[Overlay] = []
        cx, cy = lay.hex_to_pixel(h)
        for d, pair in pairs.items():
            p0, p1 = lay.edge_points(h, d)
            hit = d in facing_shooter
            out.append(Segment(p0, p1, stroke=PAIR_COLOURS[pair], width=7 if hit else 4,
                               title=f"side {d}: {pair} pair, Threat Level {self.threat.of(pair)}"))
            mx, my = (p0[0] + p1[0]) / 2, (p0[1] + p1[1]) / 2
            lx, ly = cx + (mx - cx) * 1.3, cy + (my - cy) * 1.3
            out.append(Label((lx, ly), str(self.threat.of(pair)), size=13 if hit else 11, fill=PAIR_COLOURS[pair],
                             weight="bold"))
        return out

    # -- static output
    def to_svg(self) -> str:
        """The board with the Models and overlays, as an SVG document."""
        title = (f"{self.board.name}: Line of Fire of {self.shooter}" if self.shooter else self.board.name)
        return render_board(self.board, size=self.size, overlays=self.overlays(with_models=True), title=title)

    def _repr_svg_(self) -> str:
        return self.to_svg()

    def verdicts_html(self) -> str:
        """The verdict list as an HTML table (the same as the explorer's side panel)."""
        return verdict_table_html(self.verdicts, self.shooter or "", self.table)


def board_svg(board: Board, models: Sequence[Model], shooter: str | Sequence[LoFResult] | None = None,
              **kwargs) -> LofSnapshot:
    """A :class:`LofSnapshot` (displayed as SVG in notebooks and docs). ``kwargs`` go to :class:`LofSnapshot`.

    ``shooter`` is a Model id (its verdicts are computed), or a list of :class:`LoFResult` of one shooter (drawn as
    given: witness segments, blocked rays cut at the obstacle; no Range or cover). Raises ScenarioError for results of
    several shooters or an illegal placement.
    """
    if shooter is None or isinstance(shooter, str):
        return LofSnapshot(board, models, shooter, **kwargs)
    results = list(shooter)
    shooters = {r.shooter for r in results}
    if len(shooters) != 1:
        raise ScenarioError("lof_results", f"results of {len(shooters)} shooters", "results of exactly one shooter")
    table = TableTop.from_board(board, models)
    verdicts = [TargetVerdict(r.target, r, hex_distance=distance(table.hex_of(r.shooter), table.hex_of(r.target)),
                              blocked_rays=[] if r.has_lof else _cut_rays(table, r)) for r in results]
    return LofSnapshot(board, models, shooters.pop(), verdicts, **kwargs)


def _standing(table: TableTop | None, model_id: str) -> str:
    """`` on <piece>, ↑<height>`` for a Model standing on scenery (``""`` otherwise or without a table)."""
    if table is None or model_id not in table.models or table.models[model_id].on is None:
        return ""
    return f"on {table.models[model_id].on}, ↑{table.elevation(model_id):g}"


VERDICT_COLUMNS: tuple[tuple[str, str, str], ...] = (
    ("target", "", ""),
    ("Line of Fire", "Line of Fire", ""),
    ("Range (hex units)", "Range (hex units)", ""),
    ("Cover", "Cover", ""),
    ("hexes", "Hexagons", " title='Range in Hexagons: hexagons between the two Models'"),
    ("TAG Raid rulebook sections", "Sections", ""),
)
"""The verdict table's columns: ``(header, label, header attributes)``. Each row's cell carries its column's label as
``data-label`` (none for the target, the row's own title): on a phone the page stacks each row into a card of
labelled lines (:data:`VERDICT_PHONE_CSS`), so the header row is hidden and the label says what each line is."""

VERDICT_PHONE_CSS = """<style>@media (max-width:%(w)dpx){
.lof-verdict-list table.lof-verdicts,.lof-verdict-list table.lof-verdicts tbody{display:block !important;
  width:100%% !important;overflow-x:visible !important}
.lof-verdict-list table.lof-verdicts tr.lof-head{display:none !important}
.lof-verdict-list table.lof-verdicts tr.lof-row{display:block !important;padding:6px 0 !important}
.lof-verdict-list table.lof-verdicts tr.lof-row>td{display:block !important;box-sizing:border-box;
  width:100%% !important;min-width:0 !important;border:0 !important;padding:2px 0 2px 7.5em !important;position:relative;
  white-space:normal !important;overflow-wrap:anywhere}
.lof-verdict-list table.lof-verdicts tr.lof-row>td:first-child{padding-left:0 !important}
.lof-verdict-list table.lof-verdicts tr.lof-row>td[data-label]::before{content:attr(data-label);position:absolute;
  left:0;top:2px;width:7em;font-weight:bold;color:#333;font-size:max(14px,1em);line-height:1.25;
  overflow-wrap:normal}
.lof-verdict-list table.lof-verdicts tr.lof-row>td:nth-child(3){min-height:2.7em}
}</style>"""
"""The phone layout of :func:`verdict_table_html` in the Line of Fire page (``%(w)d``: the phone width, the page
fills in :data:`explorer.serving.phone.PHONE_MAX_WIDTH`): below it each target is a card, its name first, then one
line per column with the column's label on the left (``data-label``, :data:`VERDICT_COLUMNS`), so the six columns
never run past a 390 px screen (before: the table scrolled sideways inside its own box and its last column was cut
at the screen's edge). Wider windows keep the table as it was."""


def verdict_table_html(verdicts: Sequence[TargetVerdict], shooter: str, table: TableTop | None = None) -> str:
    """An HTML table: one row per target with LoF verdict and reason, Range band, MOD, Partial Cover, hexagons,
    Threat Level, and the sections cited. With ``table``, a Model standing on scenery shows the piece and its height
    (hex units) under its name. Columns: :data:`VERDICT_COLUMNS` (each cell carries its column's ``data-label`` and
    the header row the class ``lof-head``, for the phone layout :data:`VERDICT_PHONE_CSS`)."""
    rows = []
    for v in verdicts:
        ok = v.lof.has_lof
        pending = getattr(v, "pending", False)   # a PendingVerdict: the LoF verdict only, the rest said PENDING
        if ok:
            verdict = "<b style='color:#1a9641'>LoF</b>: a clear line"
        elif v.lof.reason == "outside_arc":
            verdict = (f"<b style='color:#c0392b'>no LoF</b>: outside {html.escape(shooter)}'s "
                       f"{v.lof.arc_degrees:g}° front arc")
        elif v.lof.reason == "blocked":
            verdict = ("<b style='color:#c0392b'>no LoF</b>: blocked by "
                       + (PENDING if pending else html.escape(blocked_words(v.lof.blocked_by) or "an obstacle")))
        else:
            verdict = f"<b style='color:#c0392b'>no LoF</b> ({html.escape(v.lof.reason.replace('_', ' '))})"
        if not getattr(v.lof, "exact", True):
            verdict += (f"<br><span class='lof-limit' style='color:#b9770e' title='{html.escape(v.lof.detail)}'>"
                        f"not proved: limit {html.escape(LIMIT_3D_SEARCH)}"
                        + (f", no clear line with a margin over {v.lof.resolution:.3f} hex units"
                           if getattr(v.lof, "resolution", None) is not None else "")
                        + " (docs: limits)</span>")
        if pending:
            rng = PENDING
        elif v.range is not None and v.range.distance is not None:
            rng = (f"<span style='white-space:nowrap'><b style='color:{BAND_COLOURS.get(v.band or '', '#333')}'>"
                   f"{html.escape((v.band or '').replace('_', ' '))}</b> {v.range.shown(2):.2f}</span><br>"
                   f"<span style='white-space:nowrap'>{_fmt_mod(v.mod)}</span>")
        else:
            rng = "—"
        cover = ("<b style='color:#b9770e'>Partial Cover</b> (" + html.escape(", ".join(v.cover.pieces)) + ")"
                 if v.cover is not None and v.cover.in_cover else ("no" if v.cover is not None else
                                                                  PENDING if pending else "—"))
        if v.cover is not None and getattr(v.cover, "resolution", None) is not None:  # a sampled verdict at heights
            cover += (f"<br><span class='lof-cover-limit' style='color:#b9770e' title='{html.escape(v.cover.detail)}'>"
                      f"not proved: within {v.cover.resolution:.3f} hex units (docs: limits)</span>")
        if v.threat is not None:
            verdict += (f"<br><span style='color:#6c3483'>Threat Level <b>{v.threat.level}</b>: "
                        f"{html.escape(v.threat.miner)} is on {html.escape(v.threat.megabeast)}'s "
                        f"{html.escape(v.threat.pair)} side</span>")
        cites = "<br>".join(html.escape(c.split(": ", 1)[-1]) for c in v.rules)
        used = verdict_readings(v)  # every verdict says which readings decided it
        if pending:   # the Range Ruler's, Partial Cover's and Threat Level's sections and readings: not yet known
            cites += "<br>" + PENDING
        cites += ("<div class='lof-readings' style='color:#6c757d;margin-top:2px'>readings: "
                  + (PENDING if pending else
                     ", ".join(f"{html.escape(k)} = <i>{html.escape(r)}</i>" for k, r in used.items())
                     or "none consulted") + "</div>")
        lab = [f" data-label='{html.escape(c[1])}'" if c[1] else "" for c in VERDICT_COLUMNS]
        rows.append(f"<tr class='lof-row' style='border-bottom:1px solid #e3e3e3;vertical-align:top' data-target='{html.escape(v.target)}' data-lof='{int(ok)}'>"
                    f"<td{lab[0]}><b>{html.escape(v.target)}</b>"
                    + (f"<br><span style='font-size:10.5px;color:#555;white-space:nowrap'>"
                       f"{html.escape(_standing(table, v.target))}</span>" if _standing(table, v.target) else "")
                    + f"</td><td{lab[1]}>{verdict}</td><td{lab[2]}>{rng}</td>"
                    f"<td{lab[3]}>{cover}</td>"
                    f"<td{lab[4]}>{v.hex_distance}</td>"
                    f"<td{lab[5]} style='font-size:10.5px;color:#555;min-width:110px;overflow-wrap:anywhere'>{cites}</td></tr>")
    n = sum(1 for v in verdicts if v.lof.has_lof)
    head = (f"<div class='lof-summary' style='font-family:sans-serif;font-size:13px;line-height:1.4;margin:2px 0'><b>{html.escape(shooter)}</b>"
            + (f" ({html.escape(_standing(table, shooter))})" if _standing(table, shooter) else "")
            + f" has LoF to <b>{n}</b> of {len(verdicts)} Models</div>")
    return (head + "<table class='lof-verdicts' style='border-collapse:collapse;font-family:sans-serif;font-size:12px;"
            "line-height:1.25;width:100%'>"
            "<tr class='lof-head' style='text-align:left;border-bottom:1px solid #999'>"
            + "".join(f"<th{title}>{head}</th>" for head, _label, title in VERDICT_COLUMNS) + "</tr>"
            + "".join(rows) + "</table>")


def table_picture(scenario) -> str:
    """A table scenario (:class:`.table_scenario.TableScenario`, ``kind = "table"``): the table and the shooter's
    verdicts as an SVG document (the Line of Fire explorer's static snapshot; ``explorer render``)."""
    from .table_scenario import _weapon_and_threat

    lt = scenario.loaded
    weapon, threat = _weapon_and_threat(lt)
    snap = LofSnapshot.of_table(lt.table, scenario.shooter, rulings=lt.rulings.copy(),
                                calibration=lt.range_calibration, weapon=weapon, threat=threat)
    return snap._repr_svg_()


__all__ = ["PENDING", "PendingVerdict", "SIDE_COLOURS", "BAND_COLOURS", "PAIR_COLOURS", "COVER", "board_of_table", "short_verdict", "LofSnapshot",
           "board_svg", "verdict_table_html", "VERDICT_COLUMNS", "VERDICT_PHONE_CSS", "table_picture", "analyse",
           "TargetVerdict", "BlockedRay"]
