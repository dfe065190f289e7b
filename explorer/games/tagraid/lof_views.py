"""TAG Raid Line of Fire explorer: pick a shooter, see every verdict drawn on the board and listed with its section.

Rules, pictures and widget are three modules (docs/design.md, "Layers"); this one is the widget, and it re-exports
the others' names, so ``from explorer.games.tagraid.lof_views import ...`` keeps working:

* :func:`default_lof_scenario` (:mod:`.lof_scenario`) — the built-in scenario, the packaged table file
  ``tables/lof-quarry.toml`` (the 320-hex quarry with eleven Models, scenery, hexagons without tile and a MegaBeast in
  an Interior hexagon); :func:`scenario_from_table` turns any table file (:mod:`.table_file`) into a scenario.
* :func:`analyse` (:mod:`.lof_analysis`) — every :class:`TargetVerdict` of one shooter (LoF, Range Ruler band and
  MOD, Partial Cover, Range in Hexagons, the MegaBeast's Threat Level side), with the incremental
  :class:`~.lof_analysis.LofAnalysisCache` the explorer uses.
* :class:`LofSnapshot` / :func:`board_svg` (:mod:`.lof_picture`) — the one place that turns a table and its verdicts
  into overlays (:meth:`LofSnapshot.overlays`: used by the widget, by the static SVG ``_repr_svg_`` for docs and
  notebooks without a kernel, and by :meth:`TableTop._repr_svg_ <.lof.TableTop._repr_svg_>`).
* :class:`LofExplorer` (here) — the interactive composite (a :class:`~explorer.widgets.hexboard.HexBoardView` plus a
  side panel with the Range Ruler calibration, the weapon's MODs, ruling options and the verdict list).

Sections cited: Line of Fire and Distances › Line of Fire (and its exceptions); MegaBeast › MegaBeast Line of Fire;
Damage › Partial Cover; Distances and Measurements › Range Ruler; Line of Fire and Distances › Range in Hexagons;
MegaBeast › Threat Level. The rules themselves live in :mod:`.lof`, :mod:`.ranges` and :mod:`.megabeast`; this
module only draws and lists their answers.
"""

from __future__ import annotations

import html
import logging
import math
import threading
import time
from collections import OrderedDict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace

import ipywidgets as W

from explorer.widgets.labels import button_width

from explorer.widgets.scenario_note import ScenarioNote
from explorer.widgets.files import download_link, upload_control, watch_upload
from explorer.scenario import parse_whole
from explorer.errors import ScenarioError, short_repr
from explorer.text import plural
from explorer.hexgrid import Hex
from explorer.render.svg import Circle
from explorer.widgets.canvas import hold
from explorer.widgets.hexboard import HexBoardView, Piece
from explorer.widgets.label_floor import PHONE_MAX_WIDTH
from explorer.widgets.layout import RESPONSIVE_CSS

from .lof_analysis import BlockedRay, LazyVerdict, LofAnalysisCache, TargetVerdict, _reference_analyse, analyse
from .lof_picture import (BAND_COLOURS, COVER, PAIR_COLOURS, SIDE_COLOURS, LofSnapshot, PendingVerdict, board_of_table,
                          board_svg, VERDICT_PHONE_CSS, short_verdict, verdict_table_html)
from .lof_report import blocked_words, obstacle_words
from .lof_scenario import (DEFAULT_TABLE, ELEVATION_RULING_KEYS, LOF_RULING_KEYS, LofScenario, lof_ruling_keys,
                           default_lof_scenario, scenario_from_table, table_with_models)
from .model import MegaBeast, field_bounds
from .lof import TableTop
from .megabeast import ThreatLevels, corner_angles
from .pieces import Model
from .options import rulings as default_rulings
from .ranges import BANDS, OUT_OF_RANGE, HexRange, RangeCalibration, WeaponRanges

_log = logging.getLogger(__name__)

MINER_ROTATE_STEP = 15.0
"""Degrees a Miner turns per rotate click / key press / wheel notch."""



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


def _heading_html(sc: "LofScenario") -> str:
    """The page heading: "Line of Fire — <table title>", without saying "Line of Fire" twice when the title already
    does (the packaged ``lof-quarry`` is titled "Quarry — Line of Fire")."""
    name = sc.title or sc.board.name
    text = name if "line of fire" in name.lower() else f"Line of Fire — {name}"
    return f"<h3 style='margin:2px 0;font-family:sans-serif'>{html.escape(text)}</h3>"


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


_SHARED_CACHE: LofAnalysisCache | None = None

CACHE_LOCK = threading.RLock()
"""Held around every use of an explorer's analysis cache: a served page computes on a worker thread
(:meth:`LofExplorer.set_offloader`) while the event loop may use the same cache (a Face to Face link)."""

SHARED_CACHE_ENTRIES = 20_000
"""Entries kept by :func:`shared_analysis_cache` (least recently used dropped): a bound on a server's memory."""


def shared_analysis_cache() -> LofAnalysisCache:
    """The process-wide Line of Fire analysis cache every :class:`LofExplorer` uses by default: every browser session
    of the app opens the same default table, so all but the first start from computed verdicts. Results are shared
    values (never mutated); every use holds :data:`CACHE_LOCK` (served pages compute on a worker thread)."""
    global _SHARED_CACHE
    if _SHARED_CACHE is None:
        _SHARED_CACHE = LofAnalysisCache(max_entries=SHARED_CACHE_ENTRIES)
    return _SHARED_CACHE


PREFETCH_ENV = "EXPLORER_LOF_PREFETCH"
"""The environment variable that turns the Line of Fire page's idle prefetch (:meth:`LofExplorer.prefetch_jobs`)
on: ``EXPLORER_LOF_PREFETCH=1`` (exactly ``1``; unset or any other value: off). Off by default: measured in session
16 (``benchmarks/bench_lof_interactions.py --prefetch-ab``), see :data:`LofExplorer.PREFETCH_DELAY_MS`."""


def _switched_on(env: str) -> bool:
    """Whether the environment variable ``env`` is exactly ``"1"`` (surrounding spaces ignored)."""
    import os

    return os.environ.get(env, "0").strip() == "1"


def prefetch_enabled() -> bool:
    """Whether a new :class:`LofExplorer` runs the idle prefetch (:data:`PREFETCH_ENV` is ``"1"``)."""
    return _switched_on(PREFETCH_ENV)


PROGRESSIVE_ENV = "EXPLORER_LOF_PROGRESSIVE"
"""The environment variable that turns the Line of Fire page's two-pass answer (:attr:`LofExplorer.progressive`) on:
``EXPLORER_LOF_PROGRESSIVE=1`` (exactly ``1``; unset or any other value: off)."""


def progressive_enabled() -> bool:
    """Whether a new :class:`LofExplorer` answers a new row in two passes (:data:`PROGRESSIVE_ENV` is ``"1"``)."""
    return _switched_on(PROGRESSIVE_ENV)


PRESS_START_ENV = "EXPLORER_LOF_PRESS_START"
"""The environment variable that turns off the Line of Fire page's row started on a press
(:attr:`LofExplorer.START_ON_PRESS`): ``EXPLORER_LOF_PRESS_START=0`` (exactly ``0``, surrounding spaces ignored;
unset or any other value: on). For measuring it (``benchmarks/bench_lof_press.py``)."""


def press_start_enabled() -> bool:
    """Whether a new :class:`LofExplorer` starts a pressed Model's row at once (:data:`PRESS_START_ENV` is not
    ``"0"``)."""
    import os

    return os.environ.get(PRESS_START_ENV, "1").strip() != "0"


def _submit_logged(executor, run, failure: str) -> None:
    """Run ``run()`` on ``executor`` (background work of a served page: nothing waits for it); a failure is logged as
    ``failure``, a shut-down executor (the process is ending) runs nothing."""
    try:
        fut = executor.submit(run)
    except RuntimeError:
        return
    fut.add_done_callback(lambda f: f.exception() is not None and _log.error(failure, exc_info=f.exception()))


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
        self._offload = None   # where the Line of Fire computation runs (set_offloader); None: at once
        self._pending_state = False
        self._generation = 0   # bumped by every update(): a background prefetch of an older state stops
        self._answers: OrderedDict = OrderedDict()   # rows shown before (update): see ANSWERS_KEPT
        self.prefetch = prefetch_enabled()
        """Whether the served page runs the idle prefetch (:meth:`_schedule_prefetch`; default from
        :data:`PREFETCH_ENV`)."""
        self.progressive = progressive_enabled()
        """Whether the served page answers a new row in two passes (:attr:`LofExplorer.progressive`'s docstring;
        default from :data:`PROGRESSIVE_ENV`)."""
        self.prefetched = 0
        """Pairs the background prefetch has looked up or computed (:meth:`_start_prefetch`; for tests)."""
        self.START_ON_PRESS = press_start_enabled()
        """Whether a press starts the pressed Model's row (:attr:`LofExplorer.START_ON_PRESS`; default from
        :data:`PRESS_START_ENV`)."""
        self.press_rows = 0
        """Rows a press on a Model started on the worker (:meth:`_on_press`; for tests)."""
        self.scenario = sc = scenario or default_lof_scenario()
        self._state_callbacks: list = []
        self._loading = False
        self._ruler_quiet = False
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
        self.board_view.on_press(self._on_press)
        self.board_view.on_move(self._on_move)
        self.board_view.on_rotate(self._on_rotate)
        self.board_view.on_zoom(self._draw_overlays)  # labels are re-placed for the new scale

        css = RESPONSIVE_CSS + ("<style>.lof-side .widget-label{min-width:0} .lof-side table td{padding:2px 5px;"
                                "border-bottom:1px solid #e3e3e3;vertical-align:top} .lof-verdict-list{overflow-x:auto;"
                                "max-width:100%} .lof-verdict-list table{width:100%} .lof-verdict-list td:first-child{"
                                "white-space:nowrap} .lof-verdict-list td:nth-child(2){min-width:100px} "
                                ".lof-verdict-list td:last-child{overflow-wrap:anywhere;min-width:110px}</style>"
                                + VERDICT_PHONE_CSS % {"w": PHONE_MAX_WIDTH})
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
        self.ruler_pick.observe(self._on_ruler_pick, names="value")
        self.hex_range_pick = W.Dropdown(options=[("—", "")] + [(k.value.replace("_", " "), k.value) for k in HexRange],
                                         value="", description="Range in Hexagons", layout=W.Layout(width="300px"))
        self.hex_range_pick.style.description_width = "130px"
        self.hex_range_pick.observe(lambda ch: self._say() or self._draw(), names="value")
        # one table: pick the shooter's target(s) on the board, then open the Face to Face Roll the board decides
        self.targets: list[str] = []
        self.pick_mode = W.ToggleButtons(options=[("pick shooter", "shooter"), ("pick target", "target")],
                                         value="shooter", tooltip="what a click on a Model picks",
                                         style={"button_width": button_width(("pick shooter", "pick target"), 96)})
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
        self.ruling_rows: dict[str, W.VBox] = {}
        """Each ruling option's title and dropdown; those of :data:`ELEVATION_RULING_KEYS` are shown only while a
        Model stands on scenery (:meth:`_show_ruling_rows`)."""
        rows = []
        for key in (*LOF_RULING_KEYS, *ELEVATION_RULING_KEYS):
            opt = self.rulings.options[key]
            dd = W.Dropdown(options=list(opt.readings), value=self.rulings.reading(key), layout=W.Layout(width="230px"))
            dd.observe(lambda ch, k=key: self._on_ruling(k, ch["new"]), names="value")
            self.ruling_inputs[key] = dd
            row = W.VBox([W.HTML(f"<div style='font-size:11.5px;font-family:sans-serif;line-height:1.2;margin-top:3px' "
                                 f"title='{html.escape(opt.section)}'>{html.escape(opt.title)}</div>"), dd])
            row.add_class(f"lof-ruling-{key.replace('_', '-')}")
            self.ruling_rows[key] = row
            rows.append(row)
        self._show_ruling_rows()
        self.settings_msgs = {k: W.HTML() for k in ("ruler", "mods", "threat")}
        """Each settings box's refusals, shown under its fields."""
        for k, w in self.settings_msgs.items():
            w.add_class(f"lof-{k}-message")
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
                    [W.HBox(list(self.cal_inputs.values())), self.settings_msgs["ruler"],
                     W.HTML("<div style='font-family:sans-serif;font-size:11px;color:#555;line-height:1.25'>Default "
                            "3.5 per Segment = two hexagons across their flats (2·√3), so Short Range reaches as far as "
                            "the longest Range in Hexagons (up to 2 Hexagons); Long Range ends about six hexagons from "
                            "the base. Set your printed ruler's lengths here.</div>")])
        mods = box("Weapon MODs per band (empty: cannot fire there)",
                   [W.HBox(list(self.mod_inputs.values())[:2]), W.HBox(list(self.mod_inputs.values())[2:]),
                    self.settings_msgs["mods"]])
        threat = box("MegaBeast Threat Levels by pair of sides", [W.HBox(list(self.threat_inputs.values())),
                                                                  self.settings_msgs["threat"]])
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
        self._show_ruling_rows()
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
        self._draw_marks()   # the target rings' own layer: the Line of Fire overlays stay as they are
        if self._schedule is not None:
            # the Face to Face link (its roll exchange measured on the board) and the page's link follow, deferred
            # (_flush_state), as after every other change: the ring is drawn first
            if not self._pending_state:
                self._pending_state = True
                self._schedule(self._flush_state, self.STATE_DELAY_MS)
        else:
            self._show_f2f()
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
        with CACHE_LOCK:
            return board_roll(self.table, self.shooter, self.targets, rulings=self.rulings.copy(),
                              weapon=self.weapon, threat=self.threat, calibration=self.calibration,
                              cache=self.analysis_cache)

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
                                   "the rolls it makes</span>")
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
                               f"title='{html.escape(', '.join(f.title for f in br.facts[:12]))}'>Resolve these "
                               f"rolls →</a> <span style='font:12px sans-serif;color:#555'>"
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

    START_ON_PRESS = True
    """Under an offloader with an ``executor`` and the analysis cache (the served page): a press on a Model that is
    not the shooter starts that Model's row on the worker at once (:meth:`_on_press`), so the click that follows the
    release (which makes it the shooter) finds its verdicts in the cache: the row is computed while the press lasts
    and while the server handles the release and the click, instead of after them. A press that becomes a drag
    computed a row nobody asked for (one row: about 20-40 ms of one core on the default table). Each explorer takes
    it from :data:`PRESS_START_ENV` (on unless ``0``).

    Measured in session 20 (``benchmarks/bench_lof_press.py``: the same tree served with it on and off, a fresh
    server each time, a press held 60 ms as a person's click is, from the release to the verdicts shown, 1280 px,
    load 0.3-0.8, 2 rounds): the first selection of each Model 38.6 ms on against 70.1 ms off (0.55x, medians of 22),
    a selection of a row shown before 36.2 against 34.0 ms. With the benchmark's 2 ms presses (``bench_lof_interactions.py``) it
    gains nothing: the release and the click reach the server before the worker has started."""

    def _on_press(self, pid: str) -> None:
        """A press on the board's piece ``pid`` (:meth:`HexBoardView.on_press`): when the click it may become would
        make ``pid`` the shooter and its row is not known yet, compute that row on the offloader's worker now (into
        the analysis cache: the click's :meth:`update` reuses it; its computation waits for this one under
        :data:`CACHE_LOCK`). Skipped when the page changed before the worker was free, without a worker
        (notebooks, tests) or in the target pick mode. Touches no widget."""
        executor = getattr(self._offload, "executor", None)
        cache = self.analysis_cache
        if (not self.START_ON_PRESS or executor is None or cache is None or self._loading or pid == self.shooter
                or pid not in self.models or self.pick_mode.value == "target"):
            return
        rulings = self.rulings.copy()
        key = self._answer_key(pid, rulings)
        if key is not None and key in self._answers:   # a row shown before: a click draws it at once anyway
            return
        gen, table = self._generation, self.table
        calibration, weapon, threat = self.calibration, self.weapon, self.threat

        def run() -> None:
            if gen != self._generation:   # the page changed before the worker was free: its own answer decides
                return
            try:
                with CACHE_LOCK:
                    cache.analyse(table, pid, rulings, calibration, weapon, threat)
            except ScenarioError:   # the click's own computation shows it
                return
            self.press_rows += 1

        _submit_logged(executor, run, "Line of Fire row started on a press failed")

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

    def _show_ruling_rows(self) -> None:
        """Show the ruling options that apply to the Models now on the table (:func:`.lof_scenario.lof_ruling_keys`),
        hide the others."""
        shown = set(lof_ruling_keys(self.models.values()))
        for k, row in self.ruling_rows.items():
            want = None if k in shown else "none"
            if row.layout.display != want:
                row.layout.display = want

    def _on_ruling(self, key: str, reading: str) -> None:
        if self._loading:
            return
        self.rulings.set(key, reading)
        self._say()
        self.update()

    def _on_ruler_pick(self, _=None) -> None:
        """The Range Ruler dropdown's value changed: the ruler drawn to the new target (the overlays again, one
        message). Not while :meth:`_show_verdicts` sets the dropdown's options and value itself: the answer it draws
        next already carries the ruler, and the message it may have put beside the board (a refusal) stays."""
        if self._ruler_quiet:
            return
        self._say()
        with hold(self.board_view.canvas):
            self._draw()

    def _on_settings(self, _=None) -> None:
        if self._loading:
            return
        # every field read, each refusal shown in its own box (next to the field, not at the panel's top), all
        # listed; the verdicts keep the previous settings and the top line says so
        errors: dict[str, list[str]] = {"ruler": [], "mods": [], "threat": []}

        def read(box: str, parse):
            try:
                return parse()
            except ScenarioError as e:
                errors[box].append(str(e))
                return None

        lens = [read("ruler", lambda b=b: _parse_length(self.cal_inputs[b].value, f"range_calibration.{b}"))
                for b in BANDS]
        mods = [read("mods", lambda b=b: _parse_mod(self.mod_inputs[b].value, f"weapon.{b}"))
                for b in (*BANDS, OUT_OF_RANGE)]
        lo, hi = field_bounds(MegaBeast, "threat_level")
        levels = [read("threat", lambda p=p: parse_whole(self.threat_inputs[p].value, f"threat.{p}", lo, hi,
                                                         "a Threat Level", source=None,
                                                         allowed=f"a whole number {lo}..{hi}"))
                  for p in ("front", "adjacent", "opposite")]
        # the values as a whole (a Segment length past the Ruler's bound, lengths out of order...): named too
        calibration = weapon = threat = None
        if not errors["ruler"]:
            calibration = read("ruler", lambda: RangeCalibration(*lens))
        if not errors["mods"]:
            weapon = read("mods", lambda: WeaponRanges(*mods))
        if not errors["threat"]:
            threat = read("threat", lambda: ThreatLevels(*levels))
        for box, msgs in errors.items():
            self.settings_msgs[box].value = "".join(
                f"<div class='lof-field-error' style='font-family:sans-serif;font-size:12px;color:#922b21'>"
                f"{html.escape(m)}</div>" for m in msgs) + (
                "<div style='font-family:sans-serif;font-size:11.5px;color:#555'>The verdicts above keep the "
                "previous settings until this is fixed.</div>" if msgs else "")
        n = sum(map(len, errors.values()))
        if n:
            self._say(f"{plural(n, 'setting')} not accepted (each is named under its field below): "
                      "the verdicts still show the previous settings.")
            return
        self.calibration, self.weapon, self.threat = calibration, weapon, threat
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
        Silhouette calibration and the readings of every ruling option shown (``elevation_own_piece`` only while a
        Model stands on scenery, so a flat table's file is unchanged)."""
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
            if m.on is not None:
                e["on"] = m.on
            models.append(e)
        weapon = {b: getattr(self.weapon, b) for b in (*BANDS, OUT_OF_RANGE) if getattr(self.weapon, b) is not None}
        cal = self.scenario.calibration_pieces
        pieces = {"base_radius": {str(k): v for k, v in cal.base_radius.items() if SILHOUETTE_BASE_RADIUS.get(k) != v},
                  "height": {str(k): v for k, v in cal.height.items() if SILHOUETTE_HEIGHT.get(k) != v}}
        doc = {"title": sc.title, "board": board, "shooter": self.shooter, "weapon": weapon,
               "threat": {p: self.threat.of(p) for p in ("front", "adjacent", "opposite")},
               "rulings": {k: self.ruling_inputs[k].value for k in lof_ruling_keys(self.models.values())},
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
        from explorer.errors import naming_source

        from .table_file import table_from_dict

        loaded = table_from_dict(data, source)
        with naming_source(source):   # a refusal of the loaded table (no Models, say) names the file too
            sc = scenario_from_table(loaded)
        self.load_scenario(sc)

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
        self._answers.clear()
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
            self._show_ruling_rows()
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
        :class:`~.lof_analysis.LofAnalysisCache`), then redraw the pieces and overlays.

        The computation reads only immutable values taken now (the table, a copy of the rulings, the settings), so a
        served page runs it off the event loop (:meth:`set_offloader`) and draws the answer when it is back, in two
        passes when the row is not computed yet (:attr:`progressive`: the Line of Fire verdicts, then the rest);
        without an offloader (notebooks, tests) it runs at once, whole."""
        self._generation += 1   # any prefetch of the previous state stops at its next pair (the worker is needed)
        table, shooter, rulings = self.table, self.shooter, self.rulings.copy()
        calibration, weapon, threat, cache = self.calibration, self.weapon, self.threat, self.analysis_cache

        def compute():
            try:
                if cache is None:
                    return _reference_analyse(table, shooter, rulings, calibration, weapon, threat)
                with CACHE_LOCK:
                    return cache.analyse(table, shooter, rulings, calibration, weapon, threat)
            except ScenarioError as e:   # shown beside the board when the answer is drawn
                return e

        key = self._answer_key(shooter, rulings)
        known = self._answers.get(key) if key is not None else None
        if known is not None:   # a row shown before (select back, flip back): drawn now, in one message
            self._answers.move_to_end(key)
            self._show_verdicts(list(known))
            return

        def remember(verdicts):
            if key is not None and not isinstance(verdicts, ScenarioError):
                self._answers[key] = tuple(verdicts)
                while len(self._answers) > self.ANSWERS_KEPT:
                    self._answers.popitem(last=False)
            return verdicts

        if self._offload is None:
            self._show_verdicts(remember(compute()))
            return
        self.board_view.set_pieces(model_pieces(self.models.values(), self.table))  # the Model moves now
        gen = self._generation
        if cache is None or not self.progressive:
            # only the latest change's answer is drawn (a row answered at once from _answers may have come after)
            self._offload(lambda: remember(compute()),
                          lambda verdicts: gen == self._generation and self._show_verdicts(verdicts, pieces_drawn=True))
            return

        # progressive: the Line of Fire verdicts first (lines, labels, the verdict column: one message), then the
        # Range Ruler, Partial Cover, Threat Level and explanations in a second pass on the worker
        def first():
            try:
                with CACHE_LOCK:
                    return cache.analyse(table, shooter, rulings, calibration, weapon, threat, lazy=True)
            except ScenarioError as e:
                return e

        def fill(lazy):
            try:
                with CACHE_LOCK:
                    return [v.complete() for v in lazy]
            except ScenarioError as e:
                return e

        def shown_first(lazy) -> None:
            if gen != self._generation:   # a newer change came: its own answer is drawn, never this one
                return
            if isinstance(lazy, ScenarioError):
                self._show_verdicts(lazy, pieces_drawn=True)
                return
            if not any(isinstance(v, LazyVerdict) for v in lazy):   # the whole row was cached: one pass
                self._show_verdicts(remember(lazy), pieces_drawn=True)
                return
            self._show_verdicts([PendingVerdict.of(v) for v in lazy], pieces_drawn=True, pending=True)
            self._offload(lambda: remember(fill(lazy)),
                          lambda verdicts: gen == self._generation and self._show_verdicts(verdicts, pieces_drawn=True))

        self._offload(first, shown_first)

    progressive = False
    """Under an offloader with the analysis cache (the served page), when ``True``: :meth:`update` draws a row not
    computed yet in two passes: the Line of Fire verdicts first (``LofAnalysisCache.analyse(lazy=True)``: the lines
    and labels on the board and the verdict column, the other columns saying :data:`~.lof_picture.PENDING`), then the
    whole verdicts (Range Ruler, Partial Cover, Threat Level, the cut rays and the obstacles named), each pass one
    canvas message. Only the latest change's passes are drawn (a first or second pass of an older change is dropped).
    ``False``: one pass (the whole verdicts).

    Off by default (:data:`PROGRESSIVE_ENV` turns it on): measured in session 16 (``bench_lof_interactions.py``
    against the one-pass page in the same run, two runs, load 1.8-4.9; ``benchmarks/README.md``), at 1280 the first
    visible answer came earlier (select, nudge, drag, a ruling, the shooter dropdown, the declared Move: 0.45-0.67x
    the one-pass answer in one run, 0.62-1.14x in the other) but the whole answer later (0.73-1.13x, 1.0-1.7x: the
    second pass computes the explained verdict again and draws the overlays a second time), and on the phone the
    first answer was no earlier (0.7-1.8x) and the whole one 1.2-2.0x later."""

    ANSWERS_KEPT = 64
    """Rows (a table state, shooter, readings and settings) whose verdicts an explorer keeps (:meth:`_answer_key`):
    going back to one (select the previous shooter again, flip a ruling back, undo a nudge) draws it at once, in the
    same message as the pieces, without the worker's round trip."""

    def _answer_key(self, shooter: str, rulings) -> tuple | None:
        """The key of the row :meth:`update` shows (every input of the analysis), or ``None`` if one is unhashable."""
        try:
            key = (id(self.scenario), tuple(self.models.values()), shooter, rulings.key(), self.calibration,
                   self.weapon, self.threat)
            hash(key)
        except TypeError:   # pragma: no cover - every field is a frozen dataclass or a tuple
            return None
        return key

    def _show_verdicts(self, verdicts, pieces_drawn: bool = False, pending: bool = False) -> None:
        """Draw the answer of :meth:`update` (a list of verdicts, or the ScenarioError the computation raised);
        ``pieces_drawn``: the pieces are on the board already (the offloaded path drew them when it asked), only the
        overlays follow the verdicts; ``pending``: :class:`~.lof_picture.PendingVerdict` s (the first pass of
        :attr:`progressive`): the Range Ruler's targets, the link and the file wait for the whole verdicts."""
        if isinstance(verdicts, ScenarioError):
            self._say(str(verdicts))
            verdicts = []
        self.verdicts = verdicts
        self.verdict_html.value = verdict_table_html(self.verdicts, self.shooter, self.table)
        if pending:
            with hold(self.board_view.canvas):   # the lines and labels of the verdicts: one message
                self._draw_overlays()
            return
        keep = self.ruler_pick.value
        opts = [("—", "")] + [(v.target, v.target) for v in self.verdicts if v.range is not None]
        if opts != getattr(self, "_ruler_opts", None):  # unchanged options: no message to the browser
            self._ruler_opts = opts
            self._ruler_quiet = True   # the dropdown's own observer draws nothing: the overlays follow once
            try:
                with self.ruler_pick.hold_sync():   # the options and the value in one message
                    self.ruler_pick.options = opts
                    self.ruler_pick.value = keep if keep in [o[1] for o in opts] else ""
            finally:
                self._ruler_quiet = False
        with hold(self.board_view.canvas):   # pieces, overlays and marks: one message to the browser
            if pieces_drawn:
                self._draw_overlays()
            else:
                self._draw()
        self._state_changed()  # the link, the file and the Face to Face link (deferred under a scheduler)
        self._schedule_prefetch()

    # -- the next interactions' verdicts, computed while the page is idle (served pages)
    PREFETCH_DELAY_MS = 1_000
    """Under a scheduler and an offloader with an ``executor`` (the served page): this long after an answer is drawn,
    if nothing changed meanwhile (the user is reading the verdicts), the verdicts the next likely interactions ask for
    are computed on the offloader's worker (:meth:`_start_prefetch`), so picking another shooter, flipping a ruling or
    toggling the declared Move finds them in the analysis cache instead of computing them after the click. Measured
    with 300 ms (``benchmarks/bench_lof_interactions.py``, inputs about 0.6 s apart, load 12-20 on two cores): the
    prefetch rarely got ahead of the next input and its CPU slowed the interactions it does not serve (rotate,
    hover, the Range Ruler: 1.1-3x), so it waits for a pause a benchmark's rapid inputs do not leave.

    Off by default since session 16 (:attr:`prefetch`, :data:`PREFETCH_ENV`): measured on and off in the same run,
    with a 1.5 s pause before each input so that it does run (``bench_lof_interactions.py --prefetch-ab --think-ms
    1500``, two runs, load 2-8 and 6.5-7.2), it helped only some of what it serves (1280 / phone, on against off:
    the shooter dropdown 0.46-0.56x / 1.01-1.21x, a ruling 0.33-0.86x / 2.0-2.4x, select 0.87-0.88x / 0.48-1.04x)
    and slowed what it does not (hover 2.9-3.1x, nudge 1.4x, drag 1.3-1.8x, the Range Ruler 1.1-2.4x), for 3.4-4.4x
    the server's CPU over a run (9.1-10.7 s against 2.4-2.5 s at 1280): on two cores shared by several sessions its
    work takes the CPU the next click needs. Rows shown before are kept by the explorer instead (:data:`ANSWERS_KEPT`)."""
    PREFETCH_MAX_PAIRS = 1_000
    """At most this many pairs looked up or computed per prefetch (a bound on a crowded table's background work)."""
    PREFETCH_PAUSE = 1.0
    PREFETCH_PAUSE_MAX_S = 0.05
    """After each prefetched pair the worker sleeps ``PREFETCH_PAUSE`` times as long as the pair took (at most
    ``PREFETCH_PAUSE_MAX_S``): measured at load 12 on two cores, a prefetch running flat out slowed the page's other
    interactions (it holds the interpreter lock in Python code)."""

    def _schedule_prefetch(self) -> None:
        executor = getattr(self._offload, "executor", None)
        if not self.prefetch or self._schedule is None or executor is None or self.analysis_cache is None:
            return
        gen = self._generation
        self._schedule(lambda: self._start_prefetch(gen, executor), self.PREFETCH_DELAY_MS)

    def prefetch_jobs(self) -> list[tuple[TableTop, str, object]]:
        """The rows the next interactions likely ask for, most likely first, as ``(table, shooter, rulings)``: every
        other Model as the shooter (a click on it, the shooter dropdown), the shooter with its declared Move toggled
        (a Miner), the shooter under each other reading of each ruling option shown. Read on the widgets' thread
        (immutable values: the worker only reads them)."""
        jobs: list[tuple[TableTop, str, object]] = [(self.table, m, self.rulings.copy()) for m in self.models
                                                    if m != self.shooter]
        m = self.models[self.shooter]
        if m.kind == "miner":
            new = dict(self.models)
            new[m.id] = replace(m, declared_move=not m.declared_move)
            try:
                jobs.append((table_with_models(self.table, new), m.id, self.rulings.copy()))
            except ScenarioError:   # pragma: no cover - the toggle moves nothing; never refused
                pass
        for key in lof_ruling_keys(self.models.values()):
            for reading in self.rulings.options[key].readings:
                if reading != self.rulings.reading(key):
                    r = self.rulings.copy()
                    r.set(key, reading)
                    jobs.append((self.table, self.shooter, r))
        return jobs

    def _start_prefetch(self, gen: int, executor) -> None:
        """On the widgets' thread, :data:`PREFETCH_DELAY_MS` after an answer: unless a newer change came, look up or
        compute every pair of :meth:`prefetch_jobs` on ``executor`` (the offloader's worker), one pair at a time
        under :data:`CACHE_LOCK`. It stops at the next pair once :meth:`update` runs again (so a click waits for at
        most one pair), after :data:`PREFETCH_MAX_PAIRS`, or at a refusal. Touches no widget; the cache keeps the
        results (the same values a later :meth:`update` would compute)."""
        if gen != self._generation:
            return
        jobs, cache = self.prefetch_jobs(), self.analysis_cache
        calibration, weapon, threat = self.calibration, self.weapon, self.threat

        def run() -> None:
            n = 0
            for table, shooter, rulings in jobs:
                s = table.model(shooter)
                for t in table.models.values():
                    if t.id == shooter:
                        continue
                    if gen != self._generation or n >= self.PREFETCH_MAX_PAIRS:
                        return
                    t0 = time.perf_counter()
                    try:
                        with CACHE_LOCK:
                            cache.verdict(table, s, t, rulings.copy(), calibration, weapon, threat)
                    except ScenarioError:   # the real computation shows it, if it is ever asked
                        return
                    n += 1
                    self.prefetched += 1
                    # at most about half of a core: the event loop (other sessions, this page's next input) gets the
                    # interpreter lock and the CPU back between pairs; a newer change ends the pause at once
                    end = time.perf_counter() + min(self.PREFETCH_PAUSE_MAX_S,
                                                    (time.perf_counter() - t0) * self.PREFETCH_PAUSE)
                    while gen == self._generation and time.perf_counter() < end:
                        time.sleep(0.005)

        _submit_logged(executor, run, "Line of Fire prefetch failed")

    def set_offloader(self, offload) -> None:
        """Run the Line of Fire computation through ``offload(compute, apply)``: ``compute()`` may run on another
        thread (it touches no widget), ``apply(result)`` must run where the widgets live (the served session's
        document lock). The Panel app passes :func:`explorer.serving.offload.session_offloader`, which keeps the
        event loop free for other sessions' clicks while a crowded table is analysed and applies only the latest
        answer after a run of changes (a drag). Without one everything happens at once."""
        self._offload = offload

    def _draw(self) -> None:
        self.board_view.set_pieces(model_pieces(self.models.values(), self.table))
        self._draw_overlays()

    def _draw_overlays(self) -> None:
        """The Line of Fire overlays (:meth:`LofSnapshot.overlays`, labels placed for the board's drawing scale) on
        the board's overlay layer, then the target rings (:meth:`_draw_marks`)."""
        bv = self.board_view
        bv.overlays = self.snapshot().overlays(px_per_unit=bv.scale)
        self._draw_marks()

    def _draw_marks(self) -> None:
        """The picked targets' rings on the board's marks layer (:attr:`HexBoardView.marks`): picking a target
        redraws that layer only (nothing is recomputed; an unchanged list sends nothing)."""
        self.board_view.marks = [Circle(self.table.model(t).center, self.table.disc(t).r + 0.12, stroke="#7048e8",
                                        width=3.0) for t in self.targets if t in self.models]

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
           "verdict_table_html", "LofExplorer", "model_pieces", "LOF_RULING_KEYS", "MINER_ROTATE_STEP",
           "table_with_models", "SIDE_COLOURS", "BAND_COLOURS", "PAIR_COLOURS", "COVER", "shared_analysis_cache"]
