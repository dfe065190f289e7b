"""TAG Raid Line of Fire explorer: pick a shooter, see every verdict drawn on the board and listed with its section.

Public API:

* :func:`default_lof_scenario` — the built-in scenario, the packaged table file ``tables/lof-quarry.toml`` (the
  320-hex quarry with eleven Models, scenery, hexagons without tile and a MegaBeast in an Interior hexagon);
  :func:`scenario_from_table` turns any table file (:mod:`.table_file`) into a scenario.
* :func:`analyse` — every :class:`TargetVerdict` of one shooter (LoF, Range Ruler band and MOD, Partial Cover,
  Range in Hexagons, the MegaBeast's Threat Level side); defined in :mod:`.lof_analysis` (with the incremental
  :class:`~.lof_analysis.LofAnalysisCache` the explorer uses) and re-exported here.
* :class:`LofSnapshot` / :func:`board_svg` — the one place that turns a table and its verdicts into overlays
  (:meth:`LofSnapshot.overlays`: used by the widget, by the static SVG ``_repr_svg_`` for docs and notebooks without a
  kernel, and by :meth:`TableTop._repr_svg_ <.lof.TableTop._repr_svg_>`).
* :class:`LofExplorer` — the interactive composite (a :class:`~explorer.widgets.hexboard.HexBoardView` plus a side
  panel with the Range Ruler calibration, the weapon's MODs, ruling options and the verdict list).

Sections cited: Line of Fire and Distances › Line of Fire (and its exceptions); MegaBeast › MegaBeast Line of Fire;
Damage › Partial Cover; Distances and Measurements › Range Ruler; Line of Fire and Distances › Range in Hexagons;
MegaBeast › Threat Level. The rules themselves live in :mod:`.lof`, :mod:`.ranges` and :mod:`.megabeast`; this
module only draws and lists their answers.
"""

from __future__ import annotations

import copy
import html
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace

import ipywidgets as W
import numpy as np

from explorer.widgets.scenario_note import ScenarioNote
from explorer.widgets.files import download_link, upload_control, watch_upload
from explorer.board import Board, Cell
from explorer.board import Scenery as BoardScenery
from explorer.scenario import parse_whole
from explorer.errors import ScenarioError, short_repr
from explorer.hexgrid import Hex, distance, neighbors
from explorer.options import Rulings
from explorer.render.svg import BLOCKED, WITNESS, Circle, HexMark, Label, Overlay, Poly, Segment, render_board
from explorer.widgets.hexboard import HexBoardView, Piece
from explorer.widgets.layout import RESPONSIVE_CSS

from .lof_report import verdict_readings
from .board_roll import DEFAULT_THREAT_LEVELS, DEFAULT_WEAPON_RANGES
from .lof_analysis import BlockedRay, LofAnalysisCache, TargetVerdict, _cut_rays, _reference_analyse, analyse
from .model import MegaBeast, field_bounds
from .lof import LoFResult, TableTop
from .megabeast import ThreatLevels, corner_angles, side_pairs, sides_facing
from .pieces import DEFAULT_CALIBRATION, Model, SilhouetteCalibration, arc_polygon_points, validate_models
from .options import rulings as default_rulings
from .table_file import LoadedTable, load_packaged_table
from .ranges import (BANDS, DEFAULT_RANGE_CALIBRATION, OUT_OF_RANGE, HexRange, RangeCalibration, WeaponRanges,
                     hexes_in_range)

LOF_RULING_KEYS: tuple[str, ...] = ("lof_grazing", "lof_arc_part", "scenery_height", "tileless_occupied_hexagon",
                                    "megabeast_reciprocity", "range_measurement", "megabeast_corner_side")
"""The ruling options the LoF explorer lets users flip."""

SIDE_COLOURS = {"A": "#2f6fb5", "B": "#c0392b", "megabeast": "#6c3483"}
BAND_COLOURS = {"short": "#1a9641", "mid": "#e6a100", "long": "#d35400", OUT_OF_RANGE: "#7f8c8d"}
PAIR_COLOURS = {"front": "#c0392b", "adjacent": "#e67e22", "opposite": "#7f8c8d"}
COVER = {"stroke": "#e6a100", "width": 3.0, "dash": "4 2"}
MINER_ROTATE_STEP = 15.0
"""Degrees a Miner turns per rotate click / key press / wheel notch."""


# ----------------------------------------------------------------------------------------------------- scenario


@dataclass
class LofScenario:
    """A board, the Models on it and the explorer's settings.

    Attributes:
        board: the board (hexagons with/without tile, scenery).
        models: the Models (see :class:`explorer.games.tagraid.pieces.Model`).
        shooter: id of the Model drawing LoF.
        calibration: Range Ruler Segment lengths (hex units).
        calibration_pieces: base radius / height per Silhouette.
        weapon: the shooter's weapon MODs per Segment.
        threat: the MegaBeast Behavior's Threat Levels (front / adjacent / opposite pairs of sides).
        title: display name.
        rulings: the readings the table file chose (``{option key: reading}``); the explorer opens with them.
        board_ref: the table file's ``board`` value (a packaged board's name or an inline table); ``None``: written
            inline from ``board`` when the state is saved.
    """

    board: Board
    models: list[Model]
    shooter: str
    calibration: RangeCalibration = DEFAULT_RANGE_CALIBRATION
    weapon: WeaponRanges = field(default_factory=lambda: DEFAULT_WEAPON_RANGES)
    threat: ThreatLevels = field(default_factory=lambda: DEFAULT_THREAT_LEVELS)
    title: str = ""
    calibration_pieces: SilhouetteCalibration = DEFAULT_CALIBRATION
    rulings: dict[str, str] = field(default_factory=dict)
    board_ref: str | dict | None = None

    def table(self, validate: bool = True) -> TableTop:
        """The :class:`TableTop` of this scenario (raises ScenarioError for an illegal placement)."""
        return TableTop.from_board(self.board, self.models, self.calibration_pieces, validate=validate)


DEFAULT_TABLE = "lof-quarry"
"""The packaged table file (``explorer/games/tagraid/tables/lof-quarry.toml``) behind :func:`default_lof_scenario`."""


def scenario_from_table(loaded: LoadedTable, shooter: str | None = None) -> LofScenario:
    """A :class:`LofScenario` from a loaded table file (:func:`~.table_file.load_table`): its board, Models, Range
    calibration, weapon, Threat Levels, readings and shooter (``shooter`` overrides the file's; default: the first
    Model).

    Raises:
        ScenarioError: a table without a board, or an unknown shooter.
    """
    t = loaded.table
    if t.board is None:
        raise ScenarioError("board", "the table has no board", "a table file with a board")
    sid = shooter or loaded.shooter or next(iter(t.models), None)
    if sid not in t.models:
        raise ScenarioError("shooter", f"no Model {short_repr(sid)}", list(t.models))
    sc = LofScenario(t.board, list(t.models.values()), sid, loaded.range_calibration, title=loaded.title,
                     calibration_pieces=t.calibration, rulings=loaded.rulings.as_dict(), board_ref=loaded.board_ref)
    if loaded.weapon is not None:
        sc.weapon = loaded.weapon
    if loaded.threat is not None:
        sc.threat = loaded.threat
    return sc


def default_lof_scenario() -> LofScenario:
    """The built-in LoF scenario, loaded from the packaged table file ``lof-quarry`` (:data:`DEFAULT_TABLE`): the
    320-hex *Quarry* board, ten Miners and the MegaBeast *Stoorworm* in the Interior hexagon (3, 10). Under the
    default Range Ruler calibration the shooter *Cutter* shows every kind of verdict: clear LoF at Short, Mid and Long
    Range, Out of Range, outside the 180° arc, LoF blocked by scenery, by a Model and by hexagons without tile,
    Partial Cover (*Peeker* against the pylon) and the Stoorworm's Threat Level by side."""
    return scenario_from_table(load_packaged_table(DEFAULT_TABLE))


# ----------------------------------------------------------------------------------------------------- drawing


def model_pieces(models: Iterable[Model], table: TableTop) -> list[Piece]:
    """The widget pieces for ``models`` (base size from the table's Silhouette calibration)."""
    out = []
    for m in models:
        d = table.disc(m)
        arc = m.arc_degrees()
        out.append(Piece(m.id, (m.x, m.y), d.r, SIDE_COLOURS.get(m.side, "#555555"), "#111111",
                         None if arc >= 360 else m.facing, arc, ""))
    return out


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


def obstacle_words(label: str) -> str:
    """An engine blocker label in words: ``"scenery:rock 4"`` -> ``"scenery rock 4"``, ``"model:Stoorworm"`` ->
    ``"Stoorworm's base"``, ``"hex:5,8"`` -> ``"hexagon (5, 8) without tile"``, ``"off_board"`` -> ``"the edge of
    the board"``."""
    kind, _, ident = label.partition(":")
    if kind == "scenery":
        return f"scenery {ident}"
    if kind == "model":
        return f"{ident}'s base"
    if kind == "hex":
        return f"hexagon ({ident.replace(',', ', ')}) without tile"
    if kind == "off_board":
        return "the edge of the board"
    return label


def blocked_words(labels: Sequence[str]) -> str:
    """Blocker labels grouped in words: scenery pieces, Models' bases, then hexagons without tile (listed as
    ``(q, r)``), e.g. ``"scenery rock 1, rock 4; hexagons (5, 8), (6, 8) without tile"``."""
    scen = [lab.partition(":")[2] for lab in labels if lab.startswith("scenery:")]
    mods = [lab.partition(":")[2] for lab in labels if lab.startswith("model:")]
    hexes = [lab.partition(":")[2].replace(",", ", ") for lab in labels if lab.startswith("hex:")]
    parts = []
    if scen:
        parts.append("scenery " + ", ".join(scen))
    if mods:
        parts.append(" and ".join(f"{m}'s base" for m in mods))
    if hexes:
        parts.append(("hexagon " if len(hexes) == 1 else "hexagons ") + ", ".join(f"({h})" for h in hexes)
                     + " without tile")
    if any(lab.startswith("off_board") for lab in labels):
        parts.append("the edge of the board")
    return "; ".join(parts)


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
    first = max(set(labels), key=labels.count)
    kind, _, ident = first.partition(":")
    return {"scenery": f"blocked by {ident}", "model": f"blocked by {ident}", "hex": "blocked: no tile"}.get(
        kind, "blocked: board edge")


def _fmt_mod(mod: int | None) -> str:
    return "cannot fire" if mod is None else f"MOD {mod:+d}"



def _heading_html(sc: "LofScenario") -> str:
    """The page heading: "Line of Fire — <table title>", without saying "Line of Fire" twice when the title already
    does (the packaged ``lof-quarry`` is titled "Quarry — Line of Fire")."""
    name = sc.title or sc.board.name
    text = name if "line of fire" in name.lower() else f"Line of Fire — {name}"
    return f"<h3 style='margin:2px 0;font-family:sans-serif'>{html.escape(text)}</h3>"

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
                                   title=f"measured: {v.range.distance:.2f} hex units"))
        if with_models:  # bases under the lines and labels
            for m in t.models.values():
                d = t.disc(m)
                arc = m.arc_degrees()
                out.append(Circle(m.center, d.r, fill=SIDE_COLOURS.get(m.side, "#555555"), stroke="#111111", width=1.5,
                                  facing=None if arc >= 360 else m.facing, arc=arc, title=m.id))
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
        dots = []
        for o in drawn:
            if isinstance(o, Segment) and o.width < 5:
                (x0, y0), (x1, y1) = o.p0, o.p1
                n = max(1, int(math.hypot(x1 - x0, y1 - y0) * px / 6))
                dots += [((x0 + (x1 - x0) * k / n) * px, (y0 + (y1 - y0) * k / n) * px) for k in range(n + 1)]
        if dots:
            d = np.asarray(dots)
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
            vectorised pass for all the spots of a label (the same sums as one candidate at a time)."""
            both = avoid[:n_avoid]
            w = np.clip(np.minimum(cands[:, None, 2], both[None, :, 2]) - np.maximum(cands[:, None, 0],
                                                                                    both[None, :, 0]), 0, None)
            h = np.clip(np.minimum(cands[:, None, 3], both[None, :, 3]) - np.maximum(cands[:, None, 1],
                                                                                    both[None, :, 1]), 0, None)
            return (w * h).sum(axis=1)

        order = sorted(t.models.values(), key=lambda m: (m.id != self.shooter, m.kind == "megabeast", m.y, m.x))
        out: list[Overlay] = []
        for m in order:
            text, colour = tags.get(m.id, ("", "#111111"))
            lines = [m.id] + ([text] if text else [])
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
            out.append(Label((x, y0 + 6.75 / px), m.id, size=11.5, fill="#111111", weight="bold"))
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
        return verdict_table_html(self.verdicts, self.shooter or "")


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


def verdict_table_html(verdicts: Sequence[TargetVerdict], shooter: str) -> str:
    """An HTML table: one row per target with LoF verdict and reason, Range band, MOD, Partial Cover, hexagons,
    Threat Level, and the sections cited."""
    rows = []
    for v in verdicts:
        ok = v.lof.has_lof
        if ok:
            verdict = "<b style='color:#1a9641'>LoF</b>: a clear line"
        elif v.lof.reason == "outside_arc":
            verdict = (f"<b style='color:#c0392b'>no LoF</b>: outside {html.escape(shooter)}'s "
                       f"{v.lof.arc_degrees:g}° front arc")
        elif v.lof.reason == "blocked":
            verdict = ("<b style='color:#c0392b'>no LoF</b>: blocked by "
                       + html.escape(blocked_words(v.lof.blocked_by) or "an obstacle"))
        else:
            verdict = f"<b style='color:#c0392b'>no LoF</b> ({html.escape(v.lof.reason.replace('_', ' '))})"
        if v.range is not None and v.range.distance is not None:
            rng = (f"<span style='white-space:nowrap'><b style='color:{BAND_COLOURS.get(v.band or '', '#333')}'>"
                   f"{html.escape((v.band or '').replace('_', ' '))}</b> {v.range.distance:.2f}</span><br>"
                   f"<span style='white-space:nowrap'>{_fmt_mod(v.mod)}</span>")
        else:
            rng = "—"
        cover = ("<b style='color:#b9770e'>Partial Cover</b> (" + html.escape(", ".join(v.cover.pieces)) + ")"
                 if v.cover is not None and v.cover.in_cover else ("no" if v.cover is not None else "—"))
        if v.threat is not None:
            verdict += (f"<br><span style='color:#6c3483'>Threat Level <b>{v.threat.level}</b>: "
                        f"{html.escape(v.threat.miner)} is on {html.escape(v.threat.megabeast)}'s "
                        f"{html.escape(v.threat.pair)} side</span>")
        cites = "<br>".join(html.escape(c.split(": ", 1)[-1]) for c in v.rules)
        used = verdict_readings(v)  # every verdict says which readings decided it
        cites += ("<div class='lof-readings' style='color:#6c757d;margin-top:2px'>readings: "
                  + (", ".join(f"{html.escape(k)} = <i>{html.escape(r)}</i>" for k, r in used.items())
                     or "none consulted") + "</div>")
        rows.append(f"<tr class='lof-row' style='border-bottom:1px solid #e3e3e3;vertical-align:top' data-target='{html.escape(v.target)}' data-lof='{int(ok)}'>"
                    f"<td><b>{html.escape(v.target)}</b></td><td>{verdict}</td><td>{rng}</td>"
                    f"<td>{cover}</td>"
                    f"<td>{v.hex_distance}</td>"
                    f"<td style='font-size:10.5px;color:#555;min-width:110px;overflow-wrap:anywhere'>{cites}</td></tr>")
    n = sum(1 for v in verdicts if v.lof.has_lof)
    head = (f"<div class='lof-summary' style='font-family:sans-serif;font-size:13px;line-height:1.4;margin:2px 0'><b>{html.escape(shooter)}</b> has LoF to <b>{n}</b> of {len(verdicts)} "
            "Models</div>")
    return (head + "<table class='lof-verdicts' style='border-collapse:collapse;font-family:sans-serif;font-size:12px;"
            "line-height:1.25;width:100%'>"
            "<tr style='text-align:left;border-bottom:1px solid #999'><th>target</th><th>Line of Fire</th>"
            "<th>Range (hex units)</th><th>Cover</th><th title='Range in Hexagons: hexagons between the two Models'>hexes</th>"
            "<th>TAG Raid rulebook sections</th></tr>"
            + "".join(rows) + "</table>")


# ----------------------------------------------------------------------------------------------------- the widget


def _parse_length(text: str, field_name: str) -> float:
    try:
        v = float(str(text).strip())
    except ValueError:
        raise ScenarioError(field_name, f"{short_repr(text)} is not a number",
                            "a positive number of hex units") from None
    if not (v > 0 and math.isfinite(v)):
        raise ScenarioError(field_name, f"{short_repr(text)} is not positive", "a positive number of hex units")
    return v


def _parse_mod(text: str, field_name: str) -> int | None:
    t = str(text).strip()
    if t in ("", "-", "—", "none"):
        return None
    try:
        return int(t)
    except ValueError:
        raise ScenarioError(field_name, f"{short_repr(text)} is not a whole number",
                            "a MOD such as +3, 0, -3, or empty "
                            "(no MOD: the weapon cannot fire in that band)") from None


def table_with_models(table: TableTop, models: Mapping[str, Model]) -> TableTop:
    """``table`` with ``models`` (same ids, some moved or turned) in place of its Models, validated as
    :meth:`TableTop.validate <.lof.TableTop.validate>` would (the same checks, the same messages) but without
    rebuilding the board's geometry, and checking the board placement of the changed Models only (the others were
    valid on ``table`` and the board did not change).

    Raises:
        ScenarioError: an invalid placement (see :meth:`TableTop.validate <.lof.TableTop.validate>`).
    """
    changed = {k: m for k, m in models.items() if table.models.get(k) != m}
    if set(models) == set(table.models) and all(
            m.kind != "megabeast" and replace(m, facing=table.models[k].facing,
                                              declared_move=table.models[k].declared_move) == table.models[k]
            for k, m in changed.items()):
        # only Miners turned (or declared a Move): no base moved, so nothing the checks look at changed (a
        # MegaBeast's facing is checked: it must point at a corner of its hexagon)
        out = copy.copy(table)
        out.models = dict(models)
        return out
    validate_models(list(models.values()), table.calibration)
    if changed:
        probe = copy.copy(table)
        probe.models = changed
        probe.validate()
    out = copy.copy(table)
    out.models = dict(models)
    return out


_SHARED_CACHE: LofAnalysisCache | None = None

SHARED_CACHE_ENTRIES = 20_000
"""Entries kept by :func:`shared_analysis_cache` (least recently used dropped): a bound on a server's memory."""


def shared_analysis_cache() -> LofAnalysisCache:
    """The process-wide Line of Fire analysis cache every :class:`LofExplorer` uses by default: every browser session
    of the app opens the same default table, so all but the first start from computed verdicts. Results are shared
    values (never mutated); Panel runs every session's callbacks on one event loop."""
    global _SHARED_CACHE
    if _SHARED_CACHE is None:
        _SHARED_CACHE = LofAnalysisCache(max_entries=SHARED_CACHE_ENTRIES)
    return _SHARED_CACHE


class LofExplorer(W.HBox):
    """The Line of Fire explorer: a hex board (click or tap a Model to make it the shooter, the selected Model; drag
    it to move it without selecting it; the rotate buttons, q / e, Ctrl/Shift/Alt + wheel or a two-finger twist turn
    the shooter) beside a side panel from 1,200 px of window width, above it below that (:mod:`explorer.widgets.layout`),
    the side panel (Range Ruler calibration, weapon MODs, Threat Levels, ruling options, the
    verdict list with sections cited).

    Illegal input (overlapping bases, a Miner dropped on a hexagon without tile, a bad number) shows a message in
    ``message`` and keeps the previous state.

    Args:
        scenario: the scenario (default: :func:`default_lof_scenario`).
        scale: pixels per board unit.
        rulings: ``{key: reading}`` overriding the scenario's readings (which override the defaults).
        incremental: use the process-wide :class:`~.lof_analysis.LofAnalysisCache` (``analysis_cache``, see
            :func:`shared_analysis_cache`), so each interaction recomputes only the pairs it changes and a new session
            on a table someone already opened starts from computed verdicts; ``False`` re-runs the whole analysis
            every time (the former
            behaviour, kept as the baseline of ``benchmarks/bench_lof_incremental.py``).
    """

    def __init__(self, scenario: LofScenario | None = None, scale: float = 32.0,
                 rulings: Mapping[str, str] | None = None, incremental: bool = True, **kwargs):
        self.analysis_cache: LofAnalysisCache | None = shared_analysis_cache() if incremental else None
        # where work that need not delay the redrawn board goes (set_scheduler): the link/file state and the
        # Face to Face link, after a short pause
        self._schedule = None
        self._pending_state = False
        self.scenario = sc = scenario or default_lof_scenario()
        self._state_callbacks: list = []
        self._loading = False
        # one source of readings: the table file's [rulings] are the initial readings; ``rulings`` overrides them
        self.rulings = default_rulings({**sc.rulings, **dict(rulings or {})})
        self.models: dict[str, Model] = {m.id: m for m in sc.models}
        self.table = sc.table()
        self.shooter = sc.shooter
        self.calibration = sc.calibration
        self.weapon = sc.weapon
        self.threat = sc.threat
        self.verdicts: list[TargetVerdict] = []
        self.board_view = HexBoardView(sc.board, scale=scale)
        self.board_view.on_select(self._on_select)
        self.board_view.on_move(self._on_move)
        self.board_view.on_rotate(self._on_rotate)
        self.board_view.on_zoom(self._draw_overlays)  # labels are re-placed for the new scale

        css = RESPONSIVE_CSS + ("<style>.lof-side .widget-label{min-width:0} .lof-side table td{padding:2px 5px;"
                                "border-bottom:1px solid #e3e3e3;vertical-align:top} .lof-verdict-list{overflow-x:auto;"
                                "max-width:100%} .lof-verdict-list table{width:100%} .lof-verdict-list td:first-child{"
                                "white-space:nowrap} .lof-verdict-list td:nth-child(2){min-width:100px} "
                                ".lof-verdict-list td:last-child{overflow-wrap:anywhere;min-width:110px}</style>")
        self._header_css = css
        self.header = W.HTML(css + _heading_html(sc) + "<div style='font-family:sans-serif;"
                             "font-size:12px;line-height:1.3;color:#555'>Click or tap a Model to pick the shooter; drag it to move it; "
                             "the rotate buttons, q / e or Ctrl + wheel turn the shooter; − / + zoom, fit fits the "
                             "board to its column. With <i>pick target</i>, a click picks (or drops) a target, and "
                             "the link beside the buttons opens the Face to Face page on the exchange the board "
                             "decides. "
                             "<b style='color:#1a9641'>Green</b>: a "
                             "clear LoF segment; <b style='color:#d7191c'>red</b>: rays cut (×) where they hit an "
                             "obstacle; yellow wedge: the shooter's front arc; dashed rings S / M / L: where the Range "
                             "Ruler's Segments end; orange ring: Partial Cover; numbers around the MegaBeast's "
                             "hexagon: its Threat Level on each side.</div>")
        self.message = W.HTML(layout=W.Layout(min_height="20px"))
        self.message.add_class("lof-message")
        self.shooter_pick = W.Dropdown(options=list(self.models), value=self.shooter, description="shooter",
                                       layout=W.Layout(width="230px"))
        self.shooter_pick.observe(lambda ch: not self._loading and ch["new"] != self.shooter
                                  and self.set_shooter(ch["new"]), names="value")
        self.ruler_pick = W.Dropdown(options=[("—", "")], value="", description="Range Ruler to",
                                     layout=W.Layout(width="260px"))
        self.ruler_pick.style.description_width = "100px"
        self.ruler_pick.add_class("lof-ruler-pick")
        self.ruler_pick.observe(lambda ch: self._say() or self._draw(), names="value")
        self.hex_range_pick = W.Dropdown(options=[("—", "")] + [(k.value.replace("_", " "), k.value) for k in HexRange],
                                         value="", description="Range in Hexagons", layout=W.Layout(width="300px"))
        self.hex_range_pick.style.description_width = "130px"
        self.hex_range_pick.observe(lambda ch: self._say() or self._draw(), names="value")
        # one table: pick the shooter's target(s) on the board, then open the Face to Face Roll the board decides
        self.targets: list[str] = []
        self.pick_mode = W.ToggleButtons(options=[("pick shooter", "shooter"), ("pick target", "target")],
                                         value="shooter", tooltip="what a click on a Model picks",
                                         style={"button_width": "96px"})
        self.pick_mode.add_class("lof-pick-mode")
        self.f2f_html = W.HTML()
        self.f2f_html.add_class("lof-f2f")
        self.board_roll = None
        self.moving = W.Checkbox(value=False, description="declared Move (360° LoF)", indent=False)
        self.moving.observe(self._on_moving, names="value")
        self.cal_inputs = {b: W.Text(value=f"{getattr(self.calibration, b):g}", description=b,
                                     layout=W.Layout(width="120px")) for b in BANDS}
        self.mod_inputs = {b: W.Text(value=("" if getattr(self.weapon, b) is None else f"{getattr(self.weapon, b):+d}"),
                                     description=b.replace("_", " "), layout=W.Layout(width="150px"))
                           for b in (*BANDS, OUT_OF_RANGE)}
        self.threat_inputs = {p: W.Text(value=str(self.threat.of(p)), description=p, layout=W.Layout(width="130px"))
                              for p in ("front", "adjacent", "opposite")}
        for w in (*self.cal_inputs.values(), *self.mod_inputs.values(), *self.threat_inputs.values()):
            w.style.description_width = "62px"
            w.continuous_update = False
            w.observe(self._on_settings, names="value")
        self.mod_inputs[OUT_OF_RANGE].style.description_width = "92px"
        self.mod_inputs[OUT_OF_RANGE].layout.width = "180px"
        self.ruling_inputs: dict[str, W.Dropdown] = {}
        rows = []
        for key in LOF_RULING_KEYS:
            opt = self.rulings.options[key]
            dd = W.Dropdown(options=list(opt.readings), value=self.rulings.reading(key), layout=W.Layout(width="230px"))
            dd.observe(lambda ch, k=key: self._on_ruling(k, ch["new"]), names="value")
            self.ruling_inputs[key] = dd
            rows.append(W.HTML(f"<div style='font-size:11.5px;font-family:sans-serif;line-height:1.2;margin-top:3px' "
                               f"title='{html.escape(opt.section)}'>{html.escape(opt.title)}</div>"))
            rows.append(dd)
        self.verdict_html = W.HTML()
        self.verdict_html.add_class("lof-verdict-list")
        self.download = W.HTML()
        self.download.add_class("lof-download")
        self.upload_box, self.upload = upload_control(
            "Open a table file (.toml)…", "open a table file (the format `explorer tagraid lof` reads)", "lof-upload")
        self.file_message = W.HTML()
        self.file_message.add_class("lof-file-message")
        watch_upload(self.upload, self.load_toml, self.file_message)
        box = lambda title, ws: W.VBox([W.HTML(f"<b style='font-family:sans-serif;font-size:12.5px'>{title}</b>"),
                                       *ws], layout=W.Layout(border="1px solid #ddd", padding="4px", margin="2px 0"))
        ruler = box("Range Ruler calibration (hex units; the rulebook prints no lengths)",
                    [W.HBox(list(self.cal_inputs.values())),
                     W.HTML("<div style='font-family:sans-serif;font-size:11px;color:#555;line-height:1.25'>Default "
                            "3.5 per Segment = two hexagons across their flats (2·√3), so Short Range reaches as far as "
                            "the longest Range in Hexagons (up to 2 Hexagons); Long Range ends about six hexagons from "
                            "the base. Set your printed ruler's lengths here.</div>")])
        mods = box("Weapon MODs per band (empty: cannot fire there)",
                   [W.HBox(list(self.mod_inputs.values())[:2]), W.HBox(list(self.mod_inputs.values())[2:])])
        threat = box("MegaBeast Threat Levels by pair of sides", [W.HBox(list(self.threat_inputs.values()))])
        rul = box("Ruling options", rows)
        files = W.HBox([self.download, self.upload_box, self.file_message],
                       layout=W.Layout(align_items="center", grid_gap="6px", flex_flow="row wrap"))
        rows_ = [W.HBox([self.shooter_pick, self.moving]), W.HBox([self.pick_mode, self.f2f_html]),
                 W.HBox([self.ruler_pick, self.hex_range_pick])]
        for r in (*rows_, *(c for b in (ruler, mods, threat) for c in b.children if isinstance(c, W.HBox))):
            r.add_class("xr-wrap")
        self.note = ScenarioNote()
        side = W.VBox([self.header, self.note, self.message, files, *rows_, self.verdict_html, ruler, mods, threat, rul])
        side.add_class("lof-side")
        # the board and the side panel side by side from 1,200 px of window width, stacked below it; the board
        # scales to its column (explorer.widgets.layout); inline Layout sizes would beat those rules, so none here
        self.board_view.add_class("xr-main")
        side.add_class("xr-aside")
        super().__init__([self.board_view, side], **kwargs)
        self.add_class("xr-split")
        self.add_class("tagraid-lof")
        self.board_view.selected = self.shooter  # the shooter is the selected Model: rotate acts on it
        self.update()

    # -- state changes (each keeps the previous state on error)
    def _say(self, text: str = "", error: bool = True) -> None:
        colour = "#922b21" if error else "#1e5631"
        self.message.value = (f"<div style='font-family:sans-serif;font-size:12.5px;color:{colour}'>"
                              f"{html.escape(text)}</div>" if text else "")

    def _try_models(self, new: dict[str, Model]) -> bool:
        try:
            if self.analysis_cache is None:  # the former path: rebuild and validate the whole table
                table = TableTop.from_board(self.scenario.board, new.values(), self.scenario.calibration_pieces)
            else:
                table = table_with_models(self.table, new)
        except ScenarioError as e:
            self._say(f"Not allowed — {e}. The previous position is kept.")
            self._draw()
            return False
        self.models, self.table = new, table
        self._say()
        self.update()
        return True

    def set_shooter(self, model_id: str) -> None:
        """Make ``model_id`` the shooter (unknown id: a message, nothing changes)."""
        if model_id not in self.models:
            self._say(f"no Model {model_id!r}; choose one of {', '.join(self.models)}")
            return
        self.shooter = model_id  # set first: the dropdown's observer sees no change
        new = self.models[model_id]  # targets stay only if they are still enemies (or the MegaBeast)
        self.targets = [t for t in self.targets if t != model_id
                        and (new.is_enemy_miner_of(self.models[t]) or self.models[t].kind == "megabeast")]
        self.board_view.selected = model_id  # shown as selected (ringed): the rotate buttons turn it
        if self.shooter_pick.value != model_id:
            self.shooter_pick.value = model_id
        m = self.models[model_id]
        self.moving.disabled = m.kind != "miner"
        self.moving.value = m.declared_move
        self._say()
        self.update()

    def move_model(self, model_id: str, x: float, y: float) -> bool:
        """Move a Model's base centre to ``(x, y)`` (board units; a MegaBeast snaps to the centre of the hexagon).
        Returns False (message shown, state kept) for an illegal placement."""
        m = self.models[model_id]
        if m.kind == "megabeast":
            h = self.scenario.board.layout.pixel_to_hex((x, y))
            x, y = self.scenario.board.layout.hex_to_pixel(h)
        new = dict(self.models)
        new[model_id] = m.moved_to(float(x), float(y))
        return self._try_models(new)

    def rotate_model(self, model_id: str, direction: int) -> bool:
        """Turn a Model clockwise (+1) or anticlockwise (-1): Miners by :data:`MINER_ROTATE_STEP`, a MegaBeast to
        the next corner of its hexagon (its facing must point at a corner: MegaBeast › Threat Level)."""
        m = self.models[model_id]
        if m.kind == "megabeast":
            corners = corner_angles(self.scenario.board.layout)
            i = min(range(6), key=lambda k: abs((corners[k] - m.facing + 180) % 360 - 180))
            facing = corners[(i + (1 if direction > 0 else -1)) % 6]
        else:
            facing = (m.facing + MINER_ROTATE_STEP * (1 if direction > 0 else -1)) % 360.0
        new = dict(self.models)
        new[model_id] = replace(m, facing=facing)
        return self._try_models(new)

    def set_targets(self, targets: Sequence[str]) -> None:
        """Make ``targets`` the shooter's targets (the Face to Face Roll link; several split the Burst). Unknown ids
        or the shooter itself: a message, nothing changes."""
        bad = [t for t in targets if t not in self.models or t == self.shooter]
        if bad:
            self._say(f"no target {bad[0]!r}; choose among {', '.join(m for m in self.models if m != self.shooter)}")
            return
        self.targets = list(dict.fromkeys(targets))
        self._say()
        self._show_f2f()
        self._draw_overlays()
        if self._schedule is not None and not self._pending_state:  # the link keeps the targets (deferred)
            self._pending_state = True
            self._schedule(self._flush_state, self.STATE_DELAY_MS)
        elif self._schedule is None:
            self._write_state()

    def toggle_target(self, model_id: str) -> None:
        """Add ``model_id`` to the targets, or take it out if it is one (a click in "pick target" mode)."""
        self.set_targets([t for t in self.targets if t != model_id] if model_id in self.targets
                         else [*self.targets, model_id])

    def face_to_face_roll(self):
        """The roll exchange this board decides for the shooter and its targets (:func:`.board_roll.board_roll`,
        measured with this explorer's own verdict cache), or ``None`` without targets.

        Raises:
            ScenarioError: a target that is not an enemy Miner or the MegaBeast, too many targets for the Burst.
        """
        from .board_roll import board_roll

        if not self.targets:
            return None
        return board_roll(self.table, self.shooter, self.targets, rulings=self.rulings.copy(), weapon=self.weapon,
                          threat=self.threat, calibration=self.calibration, cache=self.analysis_cache)

    def face_to_face_state(self) -> dict | None:
        """The Face to Face page's link state for :meth:`face_to_face_roll` (its document plus the board facts), or
        ``None`` without targets."""
        br = self.board_roll
        if br is None:
            return None
        return {**br.document, "board": {"facts": [f.to_dict() for f in br.facts], "readings": dict(br.readings)}}

    def face_to_face(self):
        """A :class:`~.views.FaceToFaceExplorer` opened on :meth:`face_to_face_roll` (for notebooks; the page links
        to the Face to Face page instead).

        Raises:
            ScenarioError: no targets, or as :meth:`face_to_face_roll`.
        """
        from .views import FaceToFaceExplorer

        br = self.face_to_face_roll()
        if br is None:
            raise ScenarioError("targets", "no target picked", "pick a target on the board")
        w = FaceToFaceExplorer()
        w.load_document(dict(br.document), "the Line of Fire board", board_facts=[f.to_dict() for f in br.facts],
                        board_readings=dict(br.readings))
        return w

    def _show_f2f(self) -> None:
        """The "Resolve this Face to Face Roll" link (to the Face to Face page, carrying the exchange and the board
        facts in its address), or what keeps it from being offered."""
        from explorer.urlstate import encode_state

        self.board_roll = None
        self.targets = [t for t in self.targets if t in self.models and t != self.shooter]
        if not self.targets:
            self.f2f_html.value = ("<span style='font:12px sans-serif;color:#868e96'>pick a target on the board for "
                                   "its Face to Face Roll</span>")
            return
        try:
            self.board_roll = br = self.face_to_face_roll()
            state = encode_state(self.face_to_face_state())
        except (ScenarioError, ValueError) as e:
            self.f2f_html.value = (f"<span class='lof-f2f-error' style='font:12px sans-serif;color:#922b21'>"
                                   f"{html.escape(str(e))}</span>")
            return
        n = len(br.document.get("reactive") or []) + (1 if "megabeast" in br.document else 0)
        self.f2f_html.value = (f"<a class='lof-f2f-link xf-button' href='./tagraid-face-to-face?s={state}' "
                               f"style='font:13px sans-serif;padding:4px 9px;border:1px solid #1971c2;"
                               f"border-radius:3px;color:#1971c2;text-decoration:none;white-space:nowrap' "
                               f"title='{html.escape(', '.join(f.title for f in br.facts[:12]))}'>Resolve this Face "
                               f"to Face Roll →</a> <span style='font:12px sans-serif;color:#555'>"
                               f"{html.escape(self.shooter)} → {html.escape(', '.join(self.targets))}; "
                               f"{n} react; {len(br.facts)} facts from the board</span>")

    def _on_select(self, what) -> None:
        """A click or tap: on a Model, it becomes the shooter (the selected Model); on a hexagon, say what it is and
        keep the shooter selected. Either way the previous message goes."""
        if isinstance(what, str) and what in self.models:
            if self.pick_mode.value == "target" and what != self.shooter:
                self.toggle_target(what)
                self.board_view.selected = self.shooter
                return
            if what != self.shooter:
                self.set_shooter(what)
            else:
                self._say()
            return
        self.board_view.selected = self.shooter
        self.board_view.redraw_pieces()
        if isinstance(what, Hex):
            c = self.scenario.board[what]
            self._say(f"hex ({what.q}, {what.r}): " + ("no tile" if not c.tile else c.terrain.value), error=False)
        else:
            self._say()

    def _on_move(self, pid: str, p) -> None:
        self.move_model(pid, *p)

    def _on_rotate(self, pid: str, direction: int) -> None:
        self.rotate_model(pid, direction)

    def _on_moving(self, ch) -> None:
        if self._loading:
            return
        m = self.models[self.shooter]
        if m.kind != "miner" or m.declared_move == ch["new"]:
            return
        new = dict(self.models)
        new[m.id] = replace(m, declared_move=bool(ch["new"]))
        self._try_models(new)

    def _on_ruling(self, key: str, reading: str) -> None:
        if self._loading:
            return
        self.rulings.set(key, reading)
        self._say()
        self.update()

    def _on_settings(self, _=None) -> None:
        if self._loading:
            return
        try:
            cal = RangeCalibration(*(_parse_length(self.cal_inputs[b].value, f"range_calibration.{b}") for b in BANDS))
            weapon = WeaponRanges(*(_parse_mod(self.mod_inputs[b].value, f"weapon.{b}") for b in (*BANDS, OUT_OF_RANGE)))
            levels = []
            for p in ("front", "adjacent", "opposite"):
                lo, hi = field_bounds(MegaBeast, "threat_level")
                levels.append(parse_whole(self.threat_inputs[p].value, f"threat.{p}", lo, hi, "a Threat Level",
                                          source=None, allowed=f"a whole number {lo}..{hi}"))
        except ScenarioError as e:
            self._say(f"{e} — the previous settings are kept.")
            return
        self.calibration, self.weapon, self.threat = cal, weapon, ThreatLevels(*levels)
        self._say()
        self.update()

    # -- deferred work (served pages)
    STATE_DELAY_MS = 150
    """Under a scheduler: the link, the download file and the Face to Face link follow this long after the last
    change, so the board and the verdicts are sent first (a drag or a run of clicks writes them once)."""

    def set_scheduler(self, schedule) -> None:
        """Run deferred work through ``schedule(callback, delay_ms)`` (the Panel app passes its session's timeout
        callbacks: :func:`explorer.serving.pane.served_pane`). Without one (notebooks, tests) everything
        happens at once."""
        self._schedule = schedule

    def _state_changed(self) -> None:
        if self._schedule is None:
            self._flush_state()
            return
        if not self._pending_state:
            self._pending_state = True
            self._schedule(self._flush_state, self.STATE_DELAY_MS)

    def _flush_state(self) -> None:
        self._pending_state = False
        self._show_f2f()
        self._write_state()
        self.note.track(self.url_state())   # the note says when the table no longer is the scenario it opened

    # -- state: link and file
    def on_state_change(self, callback) -> None:
        """Call ``callback()`` after every change (the page then writes :meth:`url_state` to its URL)."""
        self._state_callbacks.append(callback)

    def _write_state(self) -> None:
        try:
            text = self.to_toml()
        except (ValueError, TypeError) as e:  # pragma: no cover - every state the widget can reach is writable
            self.download.value = f"<span style='color:#922b21'>{html.escape(str(e))}</span>"
        else:
            self.download.value = download_link(text, "line-of-fire.toml", "the Models, shooter, readings and "
                                                "calibration as a table file: `explorer tagraid lof FILE` and the "
                                                "notebooks open it", "lof-download-link")
        for cb in list(self._state_callbacks):
            cb()

    def table_document(self) -> dict:
        """The explorer's state as a table file document (:mod:`.table_file`): the board (by name when the scenario
        named a packaged board, else inline), every Model's position (its hexagon and offset, or ``x``/``y``),
        facing and declared Move, the shooter, the weapon's MODs, the Threat Levels, the Range Ruler calibration, the
        Silhouette calibration and the readings of every ruling option shown."""
        from .pieces import SILHOUETTE_BASE_RADIUS, SILHOUETTE_HEIGHT

        sc = self.scenario
        board = sc.board_ref if sc.board_ref is not None else sc.board.to_dict()
        models = []
        lay = sc.board.layout
        for m in self.models.values():
            e: dict = {"id": m.id}
            if m.hex is not None:
                cx, cy = lay.hex_to_pixel(m.hex)
                e["hex"] = f"{m.hex.q},{m.hex.r}"
                if (m.x - cx, m.y - cy) != (0.0, 0.0):
                    e["offset"] = [m.x - cx, m.y - cy]
            else:
                e["x"], e["y"] = m.x, m.y
            e.update(silhouette=m.silhouette, facing=m.facing, side=m.side, kind=m.kind)
            if m.declared_move:
                e["declared_move"] = True
            if m.angle_of_vision is not None:
                e["angle_of_vision"] = m.angle_of_vision
            models.append(e)
        weapon = {b: getattr(self.weapon, b) for b in (*BANDS, OUT_OF_RANGE) if getattr(self.weapon, b) is not None}
        cal = self.scenario.calibration_pieces
        pieces = {"base_radius": {str(k): v for k, v in cal.base_radius.items() if SILHOUETTE_BASE_RADIUS.get(k) != v},
                  "height": {str(k): v for k, v in cal.height.items() if SILHOUETTE_HEIGHT.get(k) != v}}
        doc = {"title": sc.title, "board": board, "shooter": self.shooter, "weapon": weapon,
               "threat": {p: self.threat.of(p) for p in ("front", "adjacent", "opposite")},
               "rulings": {k: self.ruling_inputs[k].value for k in LOF_RULING_KEYS},
               "range": {b: getattr(self.calibration, b) for b in BANDS},
               "models": models}
        if pieces["base_radius"] or pieces["height"]:
            doc["calibration"] = {k: v for k, v in pieces.items() if v}
        return doc

    def url_state(self) -> dict:
        """The state written to the page's link (:mod:`explorer.urlstate`): :meth:`table_document`, plus the picked
        ``targets`` (the Face to Face link's question) when there are some."""
        doc = self.table_document()
        if self.targets:
            doc["targets"] = list(self.targets)
        return doc

    def load_url_state(self, state: dict) -> None:
        """Restore a state read from a link (:meth:`load_document`, source ``"link"``), then its ``targets``.

        Raises:
            ScenarioError: as :meth:`load_document`; ``targets`` not a list of at most
                :data:`.board_roll.MAX_TARGETS` names of the table's Models other than the shooter.
        """
        from .board_roll import MAX_TARGETS

        state = dict(state)
        targets = state.pop("targets", [])
        if not isinstance(targets, list) or len(targets) > MAX_TARGETS or not all(isinstance(t, str)
                                                                                    for t in targets):
            raise ScenarioError("targets", "is not a list of Model names", f"at most {MAX_TARGETS} names", "link")
        ids = [m.get("id") for m in state.get("models") or [] if isinstance(m, dict)]
        shooter = state.get("shooter") or (ids[0] if ids else None)
        bad = [t for t in targets if t not in ids or t == shooter]
        if bad:  # checked before anything is loaded: the explorer keeps its state
            raise ScenarioError("targets", f"no target {short_repr(bad[0])}", [m for m in ids if m != shooter],
                                "link")
        self.load_document(state, "link")
        if targets:
            self.set_targets(targets)
            self._state_changed()

    def to_toml(self) -> str:
        """:meth:`table_document` as TOML text (the "Download TOML" file)."""
        from explorer.tomlwrite import dumps

        return dumps(self.table_document(), header="TAG Raid table saved by the Line of Fire explorer.\n"
                     "Check it with `explorer tagraid lof FILE`, or open it in a notebook with "
                     "LofExplorer(scenario_from_table(load_table(FILE))).")

    def load_toml(self, text: str, source: str = "uploaded file") -> None:
        """Open table-file TOML text through the loading gate. Raises ScenarioError (the state is kept)."""
        from explorer.scenario import read_toml

        self.load_document(read_toml(source, text=text), source)

    def load_document(self, data: dict, source: str) -> None:
        """Show a table file document (parsed TOML or a link's state), validated as a file is
        (:func:`~.table_file.table_from_dict`): board, Models, shooter, weapon, Threat Levels, calibration and
        readings all come from it.

        Raises:
            ScenarioError: naming ``source`` and the field; the explorer keeps its state.
        """
        from .table_file import table_from_dict

        self.load_scenario(scenario_from_table(table_from_dict(data, source)))

    def load_scenario(self, sc: LofScenario) -> None:
        """Replace the whole state by ``sc`` (its readings included) and redraw."""
        table = sc.table()
        self.scenario = sc
        self.models = {m.id: m for m in sc.models}
        self.table, self.shooter = table, sc.shooter
        self.calibration, self.weapon, self.threat = sc.calibration, sc.weapon, sc.threat
        self.rulings = default_rulings(dict(sc.rulings))
        if self.analysis_cache is not None:
            self.analysis_cache = LofAnalysisCache()
        self._loading = True
        try:
            # options first, then the value (not under hold_trait_notifications: the held value was checked
            # against the old options, so a table with other Models raised TraitError)
            self.shooter_pick.options = list(self.models)
            self.shooter_pick.value = self.shooter
            for b in BANDS:
                self.cal_inputs[b].value = f"{getattr(self.calibration, b):g}"
            for b in (*BANDS, OUT_OF_RANGE):
                v = getattr(self.weapon, b)
                self.mod_inputs[b].value = "" if v is None else f"{v:+d}"
            for p in ("front", "adjacent", "opposite"):
                self.threat_inputs[p].value = str(self.threat.of(p))
            for k, dd in self.ruling_inputs.items():
                dd.value = self.rulings.reading(k)
            m = self.models[self.shooter]
            self.moving.disabled = m.kind != "miner"
            self.moving.value = m.declared_move
        finally:
            self._loading = False
        self.verdicts = []   # the old table's verdicts name its Models: never drawn over the new board
        head, sep, rest = self.header.value.partition("</h3>")
        if sep:   # the heading names the table now shown (the help text after it stays)
            self.header.value = self._header_css + _heading_html(sc) + rest
        if self.board_view.board is not sc.board:
            self.board_view.set_board(sc.board)
        self.board_view.selected = self.shooter
        self._say()
        self.update()

    # -- computing and drawing
    def snapshot(self) -> LofSnapshot:
        """The current state as a static :class:`LofSnapshot` (SVG)."""
        return LofSnapshot(self.scenario.board, list(self.models.values()), self.shooter, self.verdicts,
                           calibration=self.calibration, threat=self.threat, ruler_to=self.ruler_pick.value or None,
                           hex_range=self.hex_range_pick.value or None, table=self.table)

    def update(self) -> None:
        """The verdicts of the shooter (only the pairs whose state changed are recomputed, see
        :class:`~.lof_analysis.LofAnalysisCache`), then redraw the pieces and overlays."""
        try:
            if self.analysis_cache is None:
                self.verdicts = _reference_analyse(self.table, self.shooter, self.rulings, self.calibration,
                                                   self.weapon, self.threat)
            else:
                self.verdicts = self.analysis_cache.analyse(self.table, self.shooter, self.rulings,
                                                            self.calibration, self.weapon, self.threat)
        except ScenarioError as e:
            self._say(str(e))
            self.verdicts = []
        self.verdict_html.value = verdict_table_html(self.verdicts, self.shooter)
        keep = self.ruler_pick.value
        opts = [("—", "")] + [(v.target, v.target) for v in self.verdicts if v.range is not None]
        if opts != getattr(self, "_ruler_opts", None):  # unchanged options: no message to the browser
            self._ruler_opts = opts
            with self.ruler_pick.hold_trait_notifications():
                self.ruler_pick.options = opts
                self.ruler_pick.value = keep if keep in [o[1] for o in opts] else ""
        self._draw()
        self._state_changed()  # the link, the file and the Face to Face link (deferred under a scheduler)

    def _draw(self) -> None:
        self.board_view.set_pieces(model_pieces(self.models.values(), self.table))
        self._draw_overlays()

    def _draw_overlays(self) -> None:
        bv = self.board_view
        rings = [Circle(self.table.model(t).center, self.table.disc(t).r + 0.12, stroke="#7048e8", width=3.0)
                 for t in self.targets if t in self.models]
        bv.overlays = self.snapshot().overlays(px_per_unit=bv.scale) + rings

    def verdict(self, target: str) -> TargetVerdict:
        """The current verdict for ``target`` (ScenarioError if it is not a target)."""
        for v in self.verdicts:
            if v.target == target:
                return v
        raise ScenarioError("target", f"no verdict for {short_repr(target)}", [v.target for v in self.verdicts])

    def redraw(self) -> None:
        """Full redraw (call when a browser connects, e.g. ``pn.state.onload``)."""
        self.board_view.redraw()


__all__ = ["LofScenario", "default_lof_scenario", "scenario_from_table", "DEFAULT_TABLE", "board_of_table",
           "obstacle_words", "blocked_words", "short_verdict", "TargetVerdict", "BlockedRay", "analyse", "LofSnapshot", "board_svg",
           "verdict_table_html", "LofExplorer", "model_pieces", "LOF_RULING_KEYS", "MINER_ROTATE_STEP"]
