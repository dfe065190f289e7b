"""The Strategy Pool roller: a widget page for Mass Effect: Priority Hagalaz's Strategy Roll.

Sections shown (all resolved by :mod:`.strategy`, odds by :mod:`.strategy_odds`): Sequence of Play › The Strategy
Pool and Strategy Die Icons; Preparation Phase (dice Locked by Downed Squadmates); Squadmate Phase › Step A: Strategy
Roll (Lock, never On Point) and Core Abilities (trigger, re-roll, repeat); Paragon Dice.

The page is a scenario editor: every input becomes a ``kind = "strategy"`` scenario dict that goes through
:func:`~.strategy.parse_strategy` and :func:`~.strategy.resolve_strategy` (one resolver for files, CLI and widget).
Dice are typed per roll round (``enh, m2, ?, core``; ``?`` = rolled from the seed) or set by clicking a die and
picking a face. Bad input is shown beside its field and the typed text is kept.

``strategy_page() -> (widget, redraw)`` is what the Panel app serves; ``strategy_open(name) -> (widget, redraw)``
opens it on a built-in ``strategy`` scenario (``/masseffect-strategy-pool?scenario=<id>``): the inputs, the fixed
dice and the rulings as the scenario sets them, and the parts the page has no field for (the faces the previous
player left and the die Locked, Renegade uses, allocations) kept while Squadmate, Turn, Downed lock, Paragon and Lock
stay as the scenario set them. The verdict shown is then ``explorer resolve <id>``'s.
"""

from __future__ import annotations

import html
import math
from collections.abc import Callable, Sequence

import ipywidgets as W

from explorer.widgets.icons import accordion
from explorer.widgets.labels import button_width

from explorer.scenario import parse_whole
from explorer.errors import ExplorerError, ScenarioError
from explorer.games import Game, get_game
from explorer.text import plural
from explorer.trace import Trace
from explorer.widgets.dice_tray import NARROW_CLASS
from explorer.widgets.label_floor import PHONE_MAX_WIDTH
from explorer.widgets.layout import WIDE_ONLY, browser_fix
from explorer.widgets.odds_chart import NARROW_WIDTH, TwinFonts, phone_canvas
from explorer.widgets.picker_url import keep_fields_in_url
from explorer.widgets.roll_again import roll_again_note
from explorer.widgets.scenario_note import ScenarioNote
from explorer.widgets import Distribution, OddsChart, Outcome, TraceStepper, hold, own_canvas, reset_manager

from .options import ALL_OPTIONS, rulings
from .strategy import (ACTION_FACES, FACE_LABELS, FACE_SHORT, FACES, SQUADMATES, STRATEGY_OPTION_KEYS, UNKNOWN, Face,
                       parse_strategy, pool_for_turn, resolve_strategy)
from .results import OddsLine
from .strategy_odds import pool_counts

PICKER_CLASS = "sp-face-picker"
"""The class of the Strategy Pool's face picker (:attr:`StrategyPoolExplorer.picker_box`)."""

PICKER_CSS = (f"<style>.{PICKER_CLASS}{{background:#fff;border:1px solid #adb5bd;border-radius:6px;"
              "box-shadow:0 4px 14px rgba(0,0,0,.25);padding:4px 6px;position:relative;z-index:5;"
              "max-width:100%;box-sizing:border-box;font-family:sans-serif}</style>")
"""The face picker drawn as a card over the dice under the picked die (issue 23: on a phone it sat above the
controls, a screen or more away from the die)."""

ALIASES: dict[str, str] = {
    "m2": "move_2", "move2": "move_2", "move_2": "move_2",
    "m3": "move_3", "move3": "move_3", "move_3": "move_3",
    "s": "standard", "std": "standard", "standard": "standard",
    "e": "enhanced", "enh": "enhanced", "enhanced": "enhanced",
    "m2/s": "move_2_or_standard", "m2/std": "move_2_or_standard", "dual": "move_2_or_standard",
    "move_2_or_standard": "move_2_or_standard",
    "core": "core", "icon": "core", "c": "core",
    "?": UNKNOWN, "_": UNKNOWN,
}
"""Words accepted in the dice text boxes (case-insensitive) and the face each means; ``?`` leaves the die to the
seed."""

_ALLOWED = "m2, m3, std, enh, m2/std, core or ? (random), separated by commas"


def parse_face_list(text: str, field: str) -> list[str]:
    """``"enh, m2 ? core"`` → ``["enhanced", "move_2", "?", "core"]``.

    Raises:
        ScenarioError: an unknown word (the message names ``field[i]`` and the accepted words).
    """
    out = []
    for i, word in enumerate(w for w in str(text).replace(",", " ").split() if w):
        face = ALIASES.get(word.lower())
        if face is None:
            raise ScenarioError(f"{field}[{i + 1}]", f"{word!r} is not a Strategy die face", _ALLOWED, "widget")
        out.append(face)
    return out


def parse_rounds(text: str, field: str) -> list[list[str]]:
    """Re-roll rounds separated by ``;`` (``"core, m2; enh"``): a list of face lists (see :func:`parse_face_list`).

    Raises:
        ScenarioError: an unknown word (``field`` names the round, e.g. ``re-roll 2[1]``).
    """
    parts = str(text).split(";")
    rounds = [parse_face_list(p, f"{field} {i + 1}") for i, p in enumerate(parts)]
    while rounds and not rounds[-1]:
        rounds.pop()
    return rounds


def _rounds_text(rounds: Sequence[Sequence[str]]) -> str:
    inv = {"move_2": "m2", "move_3": "m3", "standard": "std", "enhanced": "enh", "move_2_or_standard": "m2/std",
           "core": "core", UNKNOWN: "?"}
    return "; ".join(", ".join(inv[f] for f in r) for r in rounds)


COLORS = {"bg": "#f8f9fa", "die": "#ffffff", "edge": "#495057", "text": "#212529", "icon": "#7048e8",
          "paragon": "#e7f5ff", "paragon_edge": "#1c7ed6", "locked": "#f08c00", "highlight": "#1c7ed6",
          "label": "#212529", "muted": "#868e96", "enhanced": "#2b8a3e"}


class StrategyDiceView(TwinFonts, W.VBox):
    """A canvas of the Strategy Roll: one row per roll round (the dice rolled in it) and the final Pool.

    ``show(rows, highlight)``: rows are ``(label, [(die id, face value, flags)])`` with flags a set of ``"locked"``,
    ``"paragon"``; clicking a die calls the ``on_die_click`` callbacks with ``(row index, position, die id)``.

    Phones (issue 23): drawn twice, like the odds chart: the wide canvas (class ``xr-wide-only``, ``width`` px) and a
    narrow one (:attr:`narrow`, :data:`~explorer.widgets.odds_chart.NARROW_WIDTH` px, classes ``xr-narrow-only`` and
    :data:`NARROW_CLASS`) for the phone column: each row's label on a line of its own, its dice (:attr:`N_DIE` px)
    wrapped under it, every text at least 14 px (the wide canvas shrunk to a phone drew its 10-14 px text at 5-7 px).
    The served pages' phone rules show the narrow one below 600 px. Each canvas has its own hit map
    (:meth:`die_box`, :meth:`narrow_die_box`): a click or a tap on a die of either does the same.
    """

    DIE = 42
    GAP = 8
    ROW_H = 64
    LABEL_W = 96
    TOP = 8

    N_DIE = 56
    """Side (px) of a die on the phone canvas (its face in bold 17 px, its id in 14 px)."""
    N_GAP = 12
    """Gap (px) between dice on the phone canvas."""
    N_LABEL = 26
    """Height (px) of a row's label line on the phone canvas (bold 16 px)."""
    N_LINE = N_DIE + 12
    """Height (px) of one line of dice on the phone canvas."""

    def __init__(self, width: int = 820):
        self.width = width
        self.canvas = own_canvas(width, self._height(1))
        self.canvas.layout.width = f"{width}px"
        self.canvas.add_class(WIDE_ONLY)
        self.narrow = phone_canvas(self._narrow_height(), NARROW_CLASS)
        """The phone canvas (see the class docstring): hidden by its own layout, shown by the phone rules."""
        self.rows: list[tuple[str, list[tuple[str, str, frozenset]]]] = []
        self.highlight: frozenset[str] = frozenset()
        self.selected: tuple[int, int] | None = None
        self.fonts: dict[str, set[int]] = {"wide": set(), "narrow": set()}
        """The font sizes (px) each canvas was last drawn with (for tests)."""
        self._callbacks: list[Callable[[int, int, str], None]] = []
        self.canvas.on_mouse_down(self._click)
        self.narrow.on_mouse_down(lambda x, y: self._click(x, y, narrow=True))
        super().__init__([self.canvas, self.narrow, browser_fix()])

    def _height(self, n: int) -> int:
        return self.TOP + max(1, n) * self.ROW_H + 6

    # -- the phone canvas's layout --------------------------------------------------------------------------------
    def _per_line(self) -> int:
        return max(1, (NARROW_WIDTH - 20 + self.N_GAP) // (self.N_DIE + self.N_GAP))

    def _narrow_tops(self) -> list[float]:
        """The top (px) of each row on the phone canvas (its label line, then its lines of dice), and the bottom."""
        tops, y = [], 6.0
        for _label, dice in self.rows:
            tops.append(y)
            y += self.N_LABEL + max(1, -(-len(dice) // self._per_line())) * self.N_LINE + 6
        return tops + [y]

    def _narrow_height(self) -> int:
        return int(self._narrow_tops()[-1] + 4) if getattr(self, "rows", None) else 8 + self.N_LABEL + self.N_LINE

    def narrow_die_box(self, row: int, pos: int) -> tuple[float, float, float]:
        """``(x, y, size)`` of a die on the phone canvas (:attr:`narrow`)."""
        line, k = divmod(pos, self._per_line())
        top = self._narrow_tops()[row]
        return (10 + k * (self.N_DIE + self.N_GAP), top + self.N_LABEL + line * self.N_LINE, self.N_DIE)

    def on_die_click(self, cb: Callable[[int, int, str], None]) -> None:
        self._callbacks.append(cb)

    def show(self, rows, highlight=(), selected: tuple[int, int] | None = None) -> None:
        self.rows, self.highlight, self.selected = list(rows), frozenset(highlight), selected
        self.redraw()

    def set_highlight(self, ids) -> None:
        self.highlight = frozenset(ids)
        self.redraw()

    def die_box(self, row: int, pos: int) -> tuple[float, float, float]:
        """``(x, y, size)`` of a die on the canvas."""
        return (self.LABEL_W + pos * (self.DIE + self.GAP), self.TOP + row * self.ROW_H + 4, self.DIE)

    def die_at(self, x: float, y: float, narrow: bool = False) -> tuple[int, int, str] | None:
        """``(row, position, die id)`` of the die under canvas point ``(x, y)`` of the wide canvas (the phone
        canvas when ``narrow``), or ``None``."""
        box = self.narrow_die_box if narrow else self.die_box
        for r, (_, dice) in enumerate(self.rows):
            for i, (did, _, _) in enumerate(dice):
                bx, by, s = box(r, i)
                if bx <= x <= bx + s and by <= y <= by + s:
                    return r, i, did
        return None

    def _click(self, x, y, narrow: bool = False) -> None:
        hit = self.die_at(x, y, narrow)
        if hit:
            for cb in self._callbacks:
                cb(*hit)

    def redraw(self) -> None:
        """Full redraw of both canvases (safe to call again when a browser connects)."""
        self._redraw(self.canvas, self._height(len(self.rows)), self.die_box, narrow=False)
        self._redraw(self.narrow, self._narrow_height(), self.narrow_die_box, narrow=True)

    def _redraw(self, c, h: int, box, narrow: bool) -> None:
        self.fonts["narrow" if narrow else "wide"] = set()
        if c.height != h:
            c.height = h
        reset_manager(c)
        tops = self._narrow_tops() if narrow else []
        with hold(c):
            c.clear()
            c.fill_style = COLORS["bg"]
            c.fill_rect(0, 0, c.width, c.height)
            c.text_baseline = "middle"
            for r, (label, dice) in enumerate(self.rows):
                c.fill_style = COLORS["label"]
                c.text_align = "left"
                if narrow:
                    self._font(c, "bold 16px sans-serif")
                    c.fill_text(label, 10, tops[r] + self.N_LABEL / 2)
                else:
                    y = self.TOP + r * self.ROW_H
                    self._font(c, "bold 13px sans-serif")
                    c.fill_text(label, 8, y + 4 + self.DIE / 2)
                for i, (did, face, flags) in enumerate(dice):
                    self._die(c, box(r, i), r, i, did, face, flags, narrow)

    def _die(self, c, at, r, i, did, face, flags, narrow: bool = False) -> None:
        x, y, s = at
        c.fill_style = COLORS["paragon"] if "paragon" in flags else COLORS["die"]
        c.fill_rect(x, y, s, s)
        edge = COLORS["locked"] if "locked" in flags else COLORS["paragon_edge"] if "paragon" in flags \
            else COLORS["edge"]
        if did in self.highlight:
            edge = COLORS["highlight"]
        c.line_width = 3 if (did in self.highlight or "locked" in flags or self.selected == (r, i)) else 1.5
        c.stroke_style = edge
        c.stroke_rect(x, y, s, s)
        if self.selected == (r, i):
            c.stroke_style = COLORS["highlight"]
            c.set_line_dash([4, 3])
            c.stroke_rect(x - 3, y - 3, s + 6, s + 6)
            c.set_line_dash([])
        c.text_align = "center"
        txt = FACE_SHORT[Face(face)]
        c.fill_style = COLORS["icon"] if face == Face.CORE else COLORS["enhanced"] if face == Face.ENHANCED \
            else COLORS["text"]
        if narrow:   # the face (an "M2/Std" die included) and the id at 14 px at least
            self._font(c, f"bold {15 if len(txt) > 3 else 17}px sans-serif")
            c.fill_text(txt, x + s / 2, y + s / 2 - 8)
        else:
            self._font(c, f"bold {12 if len(txt) > 3 else 14}px sans-serif")
            c.fill_text(txt, x + s / 2, y + s / 2 - 4)
        c.fill_style = COLORS["muted"]
        self._font(c, "14px sans-serif" if narrow else "10px sans-serif")
        below = y + s - (11 if narrow else 7)
        if "locked" in flags:   # the die id, then a padlock drawn with paths (an emoji needs an emoji font)
            c.text_align = "right"
            c.fill_text(did, x + s / 2 + (4 if narrow else 2), below)
            self._padlock(c, x + s / 2 + (7 if narrow else 5), below - (6 if narrow else 5), 1.4 if narrow else 1.0)
        else:
            c.fill_text(did, x + s / 2, below)

    def _padlock(self, c, x: float, y: float, k: float = 1.0) -> None:
        """A 7 x 10 px padlock (shackle and body; ``k`` times that) in the lock colour, top-left corner at
        ``(x, y)`` (canvas px)."""
        c.stroke_style = COLORS["locked"]
        c.fill_style = COLORS["locked"]
        c.line_width = 1.3 * k
        c.begin_path()
        c.arc(x + 3.5 * k, y + 3.5 * k, 2.4 * k, math.pi, 0)
        c.line_to(x + 5.9 * k, y + 5 * k)
        c.move_to(x + 1.1 * k, y + 3.5 * k)
        c.line_to(x + 1.1 * k, y + 5 * k)
        c.stroke()
        c.fill_rect(x, y + 5 * k, 7 * k, 5 * k)


class StrategyPoolExplorer(W.VBox):
    """The Strategy Pool roller page (see the module docstring). ``update()`` re-reads every input and redraws;
    it never raises (errors go beside their field). ``trace`` is the last resolution (or ``None``)."""

    def __init__(self, squadmate: str = "Garrus", turn: int = 3, lock: str = "enhanced", seed: int = 1):
        self.trace: Trace | None = None
        self._rolls: list[list[str]] = []
        self._round_dice: list = []
        self._busy = False
        lay = W.Layout(width="150px")
        self.squadmate = W.Dropdown(options=list(SQUADMATES), value=squadmate, description="Squadmate",
                                    layout=W.Layout(width="220px"))
        self.turn = W.Dropdown(options=[("1 (On Point)", 1), ("2", 2), ("3", 3), ("4", 4)], value=turn,
                               description="Turn", layout=lay)
        self.downed = W.Dropdown(options=list(range(13)), value=0, description="Downed lock",
                                 layout=W.Layout(width="170px"),
                                 tooltip="Strategy dice Locked by Downed Squadmates (Preparation Phase)")
        self.paragon = W.Dropdown(options=[0, 1, 2], value=0, description="Paragon", layout=lay)
        self.lock = W.Dropdown(options=[("nothing", "none")] + [(FACE_LABELS[f], f.value) for f in ACTION_FACES],
                               value=lock, description="Lock", layout=W.Layout(width="330px"))
        self.lock_msg = W.HTML()
        self.first = W.Text(value="", description="First roll", placeholder="e.g. enh, core, ?  (blank: seed)",
                            layout=W.Layout(width="420px"), continuous_update=False)
        self.first_msg = W.HTML()
        self.rerolls = W.Text(value="", description="Re-rolls", placeholder="rounds separated by ;",
                              layout=W.Layout(width="420px"), continuous_update=False)
        self.rerolls_msg = W.HTML()
        self.seed = W.Text(value=str(seed), description="Seed", layout=W.Layout(width="170px"),
                           continuous_update=False)
        self.seed_msg = W.HTML()
        self.roll_button = W.Button(description="Roll again", tooltip="new seed, typed dice kept")
        self.picker = W.ToggleButtons(options=[(FACE_SHORT[f], f.value) for f in FACES], value=None,
                                      style={"button_width": button_width((FACE_SHORT[f] for f in FACES), 58)})
        self.picker_label = W.HTML("<i>Click a die to set its face by hand.</i>")
        self.picker_hint = W.HTML("<i>Click or tap a die of the tray to set its face by hand.</i>")
        self.picker_close = W.Button(description="×", tooltip="close the face picker", layout=W.Layout(width="34px"))
        self.picker_close.on_click(lambda _: self._close_picker())
        self.picker_pos = W.HTML(layout=W.Layout(height="0px", margin="0", overflow="hidden"))
        """A ``<style>`` that puts :attr:`picker_box` just under the picked die (:meth:`_place_picker`)."""
        self.picker_box = W.VBox([W.HBox([self.picker_label, self.picker_close],
                                         layout=W.Layout(align_items="center", justify_content="space-between")),
                                  self.picker], layout=W.Layout(display="none"))
        """The face picker: shown under the die clicked or tapped, over the dice below it, until a face is picked
        or it is closed."""
        self.picker_box.add_class(PICKER_CLASS)
        self._picked: tuple[int, int] | None = None
        self.rulings_box = {o.key: W.Dropdown(options=list(o.readings), value=o.default, description=o.key,
                                              style={"description_width": "190px"}, layout=W.Layout(width="420px"),
                                              tooltip=o.title)
                            for o in ALL_OPTIONS if o.key in STRATEGY_OPTION_KEYS}
        self.message = W.HTML()
        self.headline = W.HTML()
        self.outcome = ScenarioNote()
        self.opened: str | None = None
        """The built-in scenario the page was opened on (:meth:`open_scenario`), or ``None``."""
        self._base: dict | None = None
        self._base_key: tuple = ()
        self._base_seed_text = ""
        self.dice = StrategyDiceView()
        self.stepper = TraceStepper()
        self.chart = OddsChart(width=820, height=300)

        for w in (self.squadmate, self.turn, self.downed, self.paragon, self.lock, self.first, self.rerolls,
                  self.seed, *self.rulings_box.values()):
            w.observe(self._changed, names="value")
        self.roll_button.on_click(self._roll_again)
        self.picker.observe(self._on_pick, names="value")
        self.dice.on_die_click(self._on_die_click)
        self.stepper.on_step(lambda s: self.dice.set_highlight(s.marks if s else ()))

        row = lambda *ws: W.HBox(list(ws), layout=W.Layout(align_items="center", flex_flow="row wrap"))  # noqa: E731
        controls = W.VBox([
            row(self.squadmate, self.turn, self.downed, self.paragon),
            row(self.lock, self.lock_msg),
            row(self.first, self.first_msg),
            row(self.rerolls, self.rerolls_msg),
            row(self.seed, self.roll_button, self.seed_msg),
            self.picker_hint,
            accordion([W.VBox(list(self.rulings_box.values()))], titles=("Ruling options",)),
        ])
        # the opened scenario's note at the top, as on every other scenario page
        super().__init__([self.outcome, controls, self.message, self.headline,
                          W.VBox([self.dice, self.picker_box, self.picker_pos, W.HTML(PICKER_CSS)]),
                          self.chart, self.stepper])
        self.update()
        keep_fields_in_url(self, {   # every input in the page's link (explorer.widgets.picker_url)
            "squadmate": self.squadmate, "turn": self.turn, "downed": self.downed, "paragon": self.paragon,
            "lock": self.lock, "first": self.first, "rerolls": self.rerolls, "seed": self.seed,
            **{f"rulings.{k}": w for k, w in self.rulings_box.items()}})

    def open_scenario(self, data: dict, name: str) -> None:
        """Set every input from a ``kind = "strategy"`` scenario document (``data``, TOML parsed; ``name`` its id)
        and resolve it. Fields the page has no input for (``pool.showing`` / ``lock`` / ``paragon_taken``,
        ``renegade``, ``allocate``, the Renegade tokens, rulings without a dropdown) are kept while the Squadmate,
        Turn, Downed lock, Paragon and Lock inputs keep the scenario's values.

        Raises:
            ScenarioError: the document is not a valid strategy scenario (checked by :func:`~.strategy.parse_strategy`).
        """
        sc = parse_strategy(data, name)
        pool = sc.pool
        lock = "none"
        if pool.lock is not None and pool.showing is not None:
            ids = [d.id for d in pool_for_turn(pool.turn, pool.paragon_dice, pool.locked_by_downed,
                                              pool.paragon_taken)[0]]
            lock = pool.showing[ids.index(pool.lock)]
        self._busy = True
        try:
            self.squadmate.value = sc.squadmate.name
            self.turn.value = pool.turn
            self.downed.value = pool.locked_by_downed
            self.paragon.value = pool.paragon_dice
            self.lock.value = lock
            self.first.value = _rounds_text(sc.rolls[:1])
            self.rerolls.value = _rounds_text(sc.rolls[1:])
            self._base_seed_text = self.seed.value = str(sc.seed if sc.seed is not None else 0)
            for k, w in self.rulings_box.items():
                w.value = sc.rulings.get(k, w.value)
        finally:
            self._busy = False
        self.opened, self._base = name, sc.model_dump(mode="json")
        self._base_key = self._key()
        self._picked = None
        self._close_picker()
        self.outcome.show(None)     # its next show records the inputs as opened
        self.update()

    def _key(self) -> tuple:
        return (self.squadmate.value, self.turn.value, self.downed.value, self.paragon.value, self.lock.value)

    # -- input ----------------------------------------------------------------------------------------------
    def _changed(self, _change=None) -> None:
        if not self._busy:
            self.update()

    def _roll_again(self, _=None) -> None:
        """Next seed; the faces typed in First roll and Re-rolls are kept, and :attr:`seed_msg` says how many dice
        the new seed rolled (none when every face is typed: then it says why nothing changed)."""
        try:
            s = parse_whole(self.seed.value, "seed", 0, 2 ** 63 - 2)
        except ScenarioError:
            s = 0
        self.seed.value = str(s + 1)
        if self.trace is None or self.seed_msg.value:   # a bad field: its own message says why
            return
        dice = sum(len(rolled) for _rnd, rolled in self.trace.result.rolled)
        typed = sum(1 for rnd in self._rolls for f in rnd if f != UNKNOWN)
        self.seed_msg.value = roll_again_note(s + 1, dice, min(typed, dice),
                                              "delete typed faces (or write ?) in First roll / Re-rolls",
                                              hand_word="typed by hand")

    def _on_die_click(self, row: int, pos: int, die_id: str) -> None:
        if row >= len(self._round_dice):
            self.picker_label.value = f"<i>{html.escape(die_id)} in the final Pool: set it in its roll row.</i>"
            return
        self._picked = (row, pos)
        self.picker_label.value = f"Set <b>{html.escape(die_id)}</b> ({'first roll' if row == 0 else f're-roll {row}'})"
        self.dice.show(self.dice.rows, self.dice.highlight, self._picked)
        self._place_picker(row, pos)

    def _place_picker(self, row: int, pos: int) -> None:
        """Show :attr:`picker_box` just under die ``(row, pos)``: pulled up over the tray by a negative top margin,
        from the die's bottom to the canvas's bottom, for the wide canvas and (at phone widths, the phone rules'
        media query) the phone canvas. The canvases shrink with a narrow column (their height with their width):
        ``max(-d px, -d / width * 100%)`` (a margin in % is of the column's width) is right either way."""
        rules = []
        for c, box in ((self.dice.canvas, self.dice.die_box), (self.dice.narrow, self.dice.narrow_die_box)):
            _x, y, size = box(row, pos)
            d = max(0.0, c.height - (y + size) - 6)
            rules.append(f"margin-top:max(-{d:.0f}px, -{100 * d / c.width:.3f}%) !important")
        self.picker_pos.value = (f"<style>.{PICKER_CLASS}{{{rules[0]}}}"
                                 f"@media (max-width:{PHONE_MAX_WIDTH}px){{.{PICKER_CLASS}{{{rules[1]}}}}}</style>")
        self.picker_box.layout.display = "flex"

    def _close_picker(self) -> None:
        self.picker_box.layout.display = "none"

    def _on_pick(self, change) -> None:
        face = change["new"]
        if face is None or self._picked is None:
            return
        row, pos = self._picked
        rounds = [list(r) for r in self._rolls]
        while len(rounds) <= row:
            rounds.append([])
        width = max(len(self._round_dice[row][1]), pos + 1)     # one face per die of the roll: a list is never
        while len(rounds[row]) < width:                          # shorter than the dice (the others: '?', seed)
            rounds[row].append(UNKNOWN)
        rounds[row][pos] = face
        self.picker.value = None
        self._close_picker()
        self._set_text(rounds)

    def _set_text(self, rounds) -> None:
        first = _rounds_text(rounds[:1])
        rest = _rounds_text(rounds[1:])
        self._busy = True
        try:
            self.first.value, self.rerolls.value = first, rest
        finally:
            self._busy = False
        self.update()

    def _data(self) -> dict | None:
        ok = True
        for m in (self.first_msg, self.rerolls_msg, self.seed_msg, self.lock_msg):
            m.value = ""
        rounds: list[list[str]] = []
        try:
            rounds.append(parse_face_list(self.first.value, "first roll"))
        except ScenarioError as e:
            self.first_msg.value = _err(e)
            ok = False
        try:
            rounds += parse_rounds(self.rerolls.value, "re-roll")
        except ScenarioError as e:
            self.rerolls_msg.value = _err(e)
            ok = False
        try:
            seed = parse_whole(self.seed.value, "seed", 0, 2 ** 63 - 1)
        except ScenarioError:
            self.seed_msg.value = _err(ScenarioError("seed", f"{self.seed.value!r} is not a seed",
                                                     "whole numbers 0 or more", "widget"))
            ok = False
            seed = 0
        if not ok:
            return None
        while len(rounds) > 1 and not rounds[-1]:
            rounds.pop()
        if rounds == [[]]:
            rounds = []
        self._rolls = rounds
        base = self._base
        if base is not None and self._key() == self._base_key:
            chosen = {k: w.value for k, w in self.rulings_box.items()}
            return {**base, "seed": base["seed"] if self.seed.value == self._base_seed_text else seed,
                    "rolls": rounds, "rulings": {**base["rulings"], **chosen}}
        if base is not None:
            self.lock_msg.value = _note(f"Squadmate, Turn, Downed lock, Paragon or Lock changed: the Pool faces, "
                                        f"Renegade uses and allocations of {self.opened} are set aside.")
        pool: dict = {"turn": self.turn.value, "locked_by_downed": self.downed.value,
                      "paragon_dice": self.paragon.value}
        if self.lock.value != "none":
            if self.turn.value == 1:
                self.lock_msg.value = _note("On Point (turn 1) rolls every die: no Lock.")
            else:
                n = 12 - self.downed.value - 3 * (self.turn.value - 1)
                if n >= 1:
                    pool["showing"] = [self.lock.value] + [UNKNOWN] * (n - 1 + self.paragon.value)
                    pool["lock"] = "S1"
        return {"game": "masseffect", "kind": "strategy", "title": "Strategy Roll", "seed": seed,
                "squadmate": {"name": self.squadmate.value}, "pool": pool, "rolls": rounds,
                "rulings": {k: w.value for k, w in self.rulings_box.items()}}

    # -- output ---------------------------------------------------------------------------------------------
    def _place_error(self, e: ExplorerError) -> None:
        """Show ``e`` beside the field it is about (dice rows, Lock), else above the dice."""
        field = getattr(e, "field", "") or ""
        if field.startswith("rolls[0]"):
            self.first_msg.value = _err(e)
        elif field.startswith("rolls"):
            self.rerolls_msg.value = _err(e)
        elif field.startswith("pool"):
            self.lock_msg.value = _err(e)
        else:
            self.message.value = _err(e)

    def update(self) -> None:
        """Re-read every input, resolve, redraw dice, trace and odds. Never raises."""
        self.message.value = ""
        data = self._data()
        if data is None:
            return
        try:
            sc = parse_strategy(data, "widget")
            trace = resolve_strategy(sc)
        except ExplorerError as e:
            self._place_error(e)
            return
        self.trace = trace
        self._draw(trace, data)

    def _draw(self, trace: Trace, data: dict) -> None:
        o = trace.result
        locked = o.locked
        paragon_ids = {d for d, _ in o.final if d.startswith("P")}
        flags = lambda d: frozenset({"locked"} if d == locked else set()) | (  # noqa: E731
            {"paragon"} if d in paragon_ids else set())
        rows = []
        for rnd, rolled in o.rolled:
            lab = "Roll" if rnd == 1 else f"Re-roll {rnd - 1}"
            rows.append((lab, [(d, f, flags(d)) for d, f in rolled]))
        self._round_dice = list(rows)
        rows.append(("Pool", [(d, f, flags(d)) for d, f in o.final]))
        still = self._picked if self._picked and self._picked[0] < len(rows) - 1 else None
        self.dice.show(rows, (), still)
        if still is None:
            self._close_picker()
        self.stepper.show(trace)
        fill = o.can_fill
        who = f"{o.squadmate}{' (On Point)' if o.on_point else ''}"
        extra = f"; Analysis token moves {o.analysis_moves}" if o.analysis_moves is not None else ""
        self.headline.value = (
            f"<div style='font-family:sans-serif'><b>{html.escape(who)}</b>: {plural(o.pool_size, 'die')}, "
            f"{plural(o.triggers, html.escape(o.core_ability) + ' trigger')} over "
            f"{plural(o.roll_rounds, 'roll round')}"
            f"{extra}. Move + Standard + Enhanced: <b>{'yes (' + ', '.join(fill) + ')' if fill else 'no'}</b>.</div>")
        self._draw_odds(o.odds)
        if self.opened is None:
            self.outcome.show(None)
        else:
            from .outcome import outcome_text

            # the note says when the inputs are no longer the scenario's as opened
            self.outcome.show(self.opened, str(data.get("title", "")), outcome_text(trace),
                              state=repr(sorted(data.items(), key=str)), live=True)

    def _draw_odds(self, odds: OddsLine | None) -> None:
        if not odds:
            self.chart.show([], [], "No odds for this Pool")
            return
        p_fill = odds.p_fill[0]
        trig = list(odds.trigger_pmf)
        r = rulings({k: w.value for k, w in self.rulings_box.items()})
        counts = pool_counts(odds.pool, odds.locked, odds.paragon, False, r)
        i = ACTION_FACES.index(Face.ENHANCED)
        n = odds.pool + odds.paragon
        enh = [0.0] * (n + 1)
        for c, p in counts.items():
            enh[c[i]] += p
        self.chart.show([Outcome("can fill Move + Standard + Enhanced", p_fill, "#2b8a3e"),
                         Outcome("cannot", 1 - p_fill, "#ced4da")],
                        [Distribution("Core Ability triggers", trig, "#7048e8", "triggers"),
                         Distribution("Enhanced Action dice", enh, "#2b8a3e", "dice")],
                        f"Exact odds before this roll: {plural(odds.pool, 'Strategy die', 'Strategy dice')}"
                        + (f" + {odds.paragon} Paragon" if odds.paragon else "")
                        + (f", Locked {FACE_SHORT[Face(odds.locked)]}" if odds.locked else ""))

    def redraw(self) -> None:
        """Full redraw (call when a browser connects, e.g. ``pn.state.onload``)."""
        self.dice.redraw()
        self.chart.redraw()


def _err(e: Exception) -> str:
    return f"<span style='color:#c92a2a;font-family:sans-serif;font-size:12px'>{html.escape(str(e))}</span>"


def _note(text: str) -> str:
    return f"<span style='color:#868e96;font-family:sans-serif;font-size:12px'>{html.escape(text)}</span>"


def _game(game: Game | None = None) -> Game:
    """The game of this page: the one the app passes in (:attr:`explorer.games.Page.build`), else the registry's (a
    widget module never imports its game module: docs/design.md, "Layers")."""
    return game if game is not None else get_game("masseffect")


def strategy_page(game: Game | None = None) -> tuple[StrategyPoolExplorer, Callable[[], None]]:
    """The Strategy Pool roller on the page's default scenario (the registry's rule, :attr:`explorer.games.Page.
    default`): ``(widget, redraw)``; call ``redraw`` on ``pn.state.onload``."""
    game = _game(game)
    return strategy_open(game.page_default("strategy-pool"), game=game)


def strategy_open(name: str, game: Game | None = None) -> tuple[StrategyPoolExplorer, Callable[[], None]]:
    """The Strategy Pool roller opened on built-in ``strategy`` scenario ``name`` (:meth:`StrategyPoolExplorer.
    open_scenario`): ``(widget, redraw)``.

    Raises:
        ScenarioError: ``name`` is not a built-in Mass Effect scenario, or not a valid strategy scenario.
    """
    from explorer.scenario import read_toml

    w = StrategyPoolExplorer()
    w.open_scenario(read_toml(name, text=_game(game).scenario_text(name)), name)
    return w, w.redraw
