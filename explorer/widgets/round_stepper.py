"""The Round page body every game's Round page shares (game-neutral): a scenario picker, Prev / Next / the slider
over the cited steps, the scenario note, the focused step (the game draws it), the map (the game draws it), the
message line, the ruling options, every step, Download / Open of the round file, and the page's state in its link
(the scenario or the opened file, the step, the readings). The Outcome block (a
:class:`~explorer.widgets.scenario_note.ScenarioNote`) names the built-in shown, or the file opened, with its
verdict as ``explorer resolve`` prints it (for a file: its own readings and seed, :meth:`RoundStepperView.file_verdict`).

Used by the Mass Effect, D.A.G.G.E.R. and Galaxy Defenders Round pages; a subclass supplies :meth:`RoundStepperView.play` (the
positions and the trace of the scenario shown), :meth:`RoundStepperView.draw` (the focused position) and
:meth:`RoundStepperView.describe` (the title box), and may override :meth:`RoundStepperView.opened` (after a
scenario is set, before it is played) and :meth:`RoundStepperView.scenario_names` (the picker's list). A file's own
``[rulings]`` (when its scenario has them) are shown in the dropdowns when it opens; a link's readings go over them.
What a position shows follows :func:`explorer.kernel.steps_shown` (the state after the step where its frame's state
is that, else the state the frame found, said in words).

Link state: ``{"scenario": built-in id, "step": n, "rulings": {key: reading}}``, or for an opened file
``{"file": TOML text, "name": file name, "step": n, "rulings": {...}}`` (every field checked before any is set: a bad
link changes nothing and is named in one line).

Opening is all or nothing (:meth:`RoundStepperView._show_scenario`): a file (or a link's file) that is not TOML, not
the round format, or that the game refuses when it is played (an error raised, or no step to show) leaves the page
as it was, its round, step, map, extras and link, and its one-line refusal is said once, beside the Open control. A
play that stops at a "Not allowed" step after steps it shows (what ``explorer resolve`` prints as an outcome, as the
built-in dg-slot-full) opens, the refusal under the step.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import ipywidgets as W

from explorer.errors import ExplorerError, ScenarioError, naming_source, short_repr
from explorer.trace import Trace

from .files import download_link, upload_control, watch_upload
from .icons import accordion
from .scenario_note import ScenarioNote
from .trace_stepper import render_trace_html

LINK_SOURCE = "link"
"""How a refusal names a state read from a link."""

WIDGET_INTERNALS = frozenset({"_cross_validation_lock", "_model_id", "_property_lock", "_holding_sync",
                              "_states_to_send", "_msg_callbacks", "_display_callbacks", "comm", "_quiet",
                              "_callbacks", "_holding"})
"""Instance attributes of a page (and of its widgets) that :meth:`RoundStepperView._snapshot` leaves alone: the
widget machinery's own (and every ``_trait...``), the page's observer guard and its link callbacks."""

SNAPSHOT_TRAITS = ("options", "min", "max", "value", "disabled")
"""The traits of each widget of a page that :meth:`RoundStepperView._snapshot` records (in the order they are set
back: a dropdown's options before its value, a slider's range before its value)."""

MAX_LINK_FILE_CHARS = 60_000
"""The longest round file a link may hold (the link itself is capped by :data:`explorer.urlstate.MAX_STATE_CHARS`
once compressed)."""


def box(text: str, cls: str = "", style: str = "") -> str:
    """A ``div`` of class ``cls`` in the pages' sans-serif 13 px (``text`` is HTML, already escaped)."""
    return f"<div class='{cls}' style='font-family:sans-serif;font-size:13px;line-height:1.35;{style}'>{text}</div>"


FIT_MAP_CSS = "<style>.xr-fit-map>svg{max-width:100%;height:auto;display:block}</style>"
"""Makes the map picture in a :func:`fit_map` box scale down to its column (the height follows its aspect ratio)."""


def fit_map(svg: str, cls: str = "", style: str = "") -> str:
    """A :func:`box` of class ``cls`` holding a map picture (an ``<svg>`` with a ``viewBox``, or a message) that is
    never wider than its column: a map drawn wider than the page's map column (Mass Effect's demo Mission 1 map is
    793 px wide, the column 760) is scaled down to fit, whole, instead of being cut off; on a phone the same rule fits
    it to the screen (two-finger zoom still enlarges it). Used by the Round pages of Mass Effect, D.A.G.G.E.R. and
    Galaxy Defenders."""
    return box(FIT_MAP_CSS + svg, f"{cls} xr-fit-map".strip(), style)


PHONE_ORDER_MAX_WIDTH = 600
"""Window width (CSS px) up to which :data:`ROUND_PHONE_CSS` applies: the phone rules' width
(:data:`explorer.serving.phone.PHONE_MAX_WIDTH`; widgets do not import the serving layer, a test checks they agree)."""

ROUND_COLUMN_CSS = (
    "<style>"
    ".xr-round-side .widget-html,.xr-round-side .widget-html-content{min-width:0;max-width:100%}"
    ".xr-round-side .xt-rule{white-space:normal}"
    ".xr-round-side .widget-dropdown{max-width:calc(100% - 4px)}"
    ".xr-round-side .widget-dropdown>select{min-width:0}"
    "</style>")
"""The Round pages' step column at any width: its parts fit the column instead of being cut off by it. At a window
of 900 px the column is about 460 px wide, narrower than a ruling dropdown (a 220 px label and a 460 px box; 2 px margins) and
than the "Every step" list's rule tags (unbreakable, about 450 px): both ran past the column's right edge and were
clipped (the dropdowns' boxes and arrows, the step titles' ends). Here a dropdown shrinks to the column (its box
narrows), the HTML parts may be narrower than their longest tag, and a rule tag wraps."""

MAP_BESIDE_GROW = 3
"""With a ``map_basis`` (:class:`RoundStepperView`), the map column takes this many shares of the room left on its
row for each share the step column takes (up to the map's own width), so the map stays as large as the step column
beside it allows."""

ROUND_PHONE_CSS = (
    f"<style>@media (max-width:{PHONE_ORDER_MAX_WIDTH}px){{"
    ".xr-round-page>.xr-round-main{order:1}"
    ".xr-round-page>.scenario-note{order:2;margin-top:12px}"
    ".xr-round-page>.xr-round-files{order:3}"
    ".xr-round-main>.xr-round-side{display:contents}"
    ".xr-round-main>.xr-round-side>*{order:3;flex:1 1 100%;max-width:100%}"
    ".xr-round-main>.xr-round-side>.xr-round-focus{order:1}"
    ".xr-round-main>.xr-round-left{order:2}"
    ".xr-round-main>.xr-round-about{order:4}"
    ".xr-round-side .widget-dropdown>.widget-label{width:100%!important;max-width:100%;text-align:left;"
    "overflow-wrap:anywhere}"
    "}</style>")
"""The Round pages on a phone (a window up to :data:`PHONE_ORDER_MAX_WIDTH` px): the focused step (the step card)
comes right under the scenario picker and the Prev / Next bar, then the map, then the rest of the step column (a
game's extras, the message, the ruling options, every step), the scenario's title box, and only then the Outcome
block (the :class:`~explorer.widgets.scenario_note.ScenarioNote`, up to a screen and more of verdict) and the round
file's Download / Open row; before, the Outcome and the file row sat between Next and the step card, so each step
opened below the fold (the D.A.G.G.E.R. default round's step card 1620 px down). The step column is laid out with
``display: contents`` so its parts take their places among the map's; wider windows keep the desktop layout. A
ruling dropdown's label, on its own line above the box there, takes the whole line, left-aligned (it was
right-aligned in its desktop width, and a key longer than that ran out of its box to the left)."""


def step_bar(prev_button: W.Button, next_button: W.Button, slider: W.IntSlider, counter: W.HTML) -> W.HBox:
    """Prev, Next, the slider and the ``n / N`` counter (:func:`counter_html`) on one row at any width (a 390 px phone included, where the
    pages' rows wrap): the slider takes the room left (``slider``'s layout width, say 220 px, at most; 60 px at
    least) and the counter is never squeezed or broken onto a line of its own. Used by the three Round pages."""
    slider.layout.max_width = slider.layout.width or "220px"
    slider.layout.width = "auto"
    slider.layout.min_width = "60px"
    slider.layout.flex = "1 1 60px"
    counter.layout.flex = "0 0 auto"
    counter.add_class("xr-step-counter")
    bar = W.HBox([prev_button, next_button, slider, counter],
                 layout=W.Layout(align_items="center", flex="1 1 auto", flex_flow="row nowrap"))
    bar.add_class("xr-step-bar")
    return bar


def counter_html(number: int, total: int) -> str:
    """The step bar's ``number / total`` (HTML): on one line, in the middle of the row's height (the inline widget
    height: 28 px, 44 px on a phone)."""
    return (f"<span style='font-family:sans-serif;font-size:12px;white-space:nowrap;"
            f"line-height:var(--jp-widgets-inline-height, 28px)'>{number} / {total}</span>")


def step_head(step, number: int, total: int, cls: str, note: str = "") -> str:
    """The focused step's heading (HTML, escaped): "Step n of N · section", its title (class ``cls``), its rule,
    its detail, and ``note`` (which state is shown, when it is not the state after the step) in grey."""
    return (f"<div style='font-size:11px;color:#1864ab;text-transform:uppercase'>Step {number} of {total} · "
            f"{html.escape(step.section)}</div><div class='{cls}' style='font-size:15px;font-weight:bold'>"
            f"{html.escape(step.title)}</div><div style='font-size:12px;color:#1864ab'>§ "
            f"{html.escape(step.rule.section)}</div>"
            + (f"<div style='color:#343a40'>{html.escape(step.detail)}</div>" if step.detail else "")
            + (f"<div class='xr-state-note' style='font-size:11px;color:#868e96'>Shown: {html.escape(note)}.</div>"
               if note else ""))


LABEL_PX_PER_CHAR = 7
"""Room given to one character of a ruling option's key in its dropdown's label (CSS px): the widgets' 13 px sans
label measures about 6.4 px a character for these keys (``nemesis_stunned_mid_activation``, 30 characters: 192 px in
Chromium), so 7 leaves a margin for other fonts."""


def label_room(keys: Iterable[str], least: str = "190px") -> int:
    """The label width (px) that shows each of ``keys`` whole: ``least`` (a ``"<n>px"`` width), or more for a long
    key (:data:`LABEL_PX_PER_CHAR` a character, plus 10 px of padding)."""
    return max([int(least.removesuffix("px"))] + [LABEL_PX_PER_CHAR * len(k) + 10 for k in keys])


def ruling_dropdowns(options: Mapping[str, Any], on_change: Callable[[], None], label_width: str = "190px",
                     width: str = "420px") -> dict[str, W.Dropdown]:
    """``{key: Dropdown}`` of every ruling option in ``options`` (``{key: RulingOption}``: ``readings``,
    ``default``, ``title``), each calling ``on_change()`` when its reading changes. The labels are ``label_width``
    wide, or wider when a key needs it (:func:`label_room`; the dropdowns grow by as much), so no key is cut off
    ("nemesis_stunned_mid_activ…" at 190 px); a column narrower than a dropdown shrinks its box
    (:data:`ROUND_COLUMN_CSS`); on a phone the label goes above its box (:data:`ROUND_PHONE_CSS`)."""
    room = label_room(options, label_width)
    label = f"{room}px"
    width = f"{int(width.removesuffix('px')) + room - int(label_width.removesuffix('px'))}px"
    boxes = {k: W.Dropdown(options=list(o.readings), value=o.default, description=k, tooltip=o.title,
                           style={"description_width": label}, layout=W.Layout(width=width))
             for k, o in options.items()}
    for w in boxes.values():
        w.observe(lambda _c: on_change(), names="value")
    return boxes


def rulings_panel(boxes: Mapping[str, W.Dropdown], width: str = "660px") -> W.VBox:
    """The "Ruling options" accordion holding the dropdowns ``boxes``."""
    return accordion([W.VBox(list(boxes.values()))], titles=("Ruling options",), layout=W.Layout(max_width=width))


class SliderSteps:
    """Stepping with a slider (a mixin of the step-through pages): :attr:`position` is ``self.slider.value``,
    :meth:`go` moves it (its observer shows the new position), :meth:`_set_steps` sets its range quietly (the page's
    observers skip while ``self._quiet``) and shows the position. ``first_position``: 1, or 0 for a page with a
    "before the first step" position."""

    first_position = 1

    @property
    def position(self) -> int:
        """The position shown (:attr:`first_position` is the first)."""
        return self.slider.value

    def go(self, delta: int) -> None:
        """Step ``delta`` positions (clamped)."""
        self.slider.value = max(self.first_position, min(len(self.positions), self.slider.value + delta))

    def _set_steps(self, at: int) -> None:
        """The slider over ``self.positions``, at ``at`` (clamped), then :meth:`show` it."""
        low = self.first_position
        self._quiet = True
        try:
            self.slider.max = max(low, len(self.positions))
            self.slider.value = max(low, min(at, len(self.positions)))
        finally:
            self._quiet = False
        self.show(self.slider.value)


class RoundStepperView(SliderSteps, W.VBox):
    """Base of a Round page (an ``ipywidgets.VBox``); see the module docstring.

    Attributes:
        game: the game (its ``load_builtin``, ``scenario_text``, ``parse_data``). positions: one position per cited
            step (the game's type). trace: the trace of the scenario shown. scenario: the scenario shown;
            ``scenario_id`` its built-in id (``None`` for an opened file) and ``file_name``/``file_text`` its file.
        picker, prev_button, next_button, slider, counter, note, about, focus, map, message, rulings_box
            (``{key: Dropdown}``), trace_list, download (HTML: the Download TOML link), upload (FileUpload),
            file_message (the one-line message beside it).
    """

    css = "xr"
    """The page's CSS prefix (``dg``, ``me``): the page is ``<css>-round``, the file controls ``<css>-round-...``."""
    filename = "round.toml"
    """The name a downloaded round file gets."""

    def __init__(self, scenario_id: str, game: Any, ruling_options: Mapping[str, Any], *, label_width: str,
                 dropdown_width: str, map_first: bool, extra: Sequence[W.Widget] = (), map_basis: str | None = None):
        """Build the page and open built-in ``scenario_id``.

        Args:
            game: the game. ruling_options: ``{key: RulingOption}`` shown as dropdowns.
            label_width / dropdown_width: CSS widths of a dropdown's label and of the whole dropdown.
            map_first: the map column left of the step column (else right of it). extra: widgets shown under the
                focused step (D.A.G.G.E.R.'s loss gauges).
            map_basis: a CSS width (say ``"480px"``) the map column may shrink to, its map scaled down with it
                (:func:`fit_map`), so that the step column stays beside it instead of wrapping under it: at a
                900 px window Mass Effect's Mission 1 map (760 px) pushed the step card about 830 px down, below
                the whole map; with ``"480px"`` the map takes about 510 px and the card sits beside it, at the
                map's top (:data:`MAP_BESIDE_GROW`). ``None``: the map column keeps its map's width.
        """
        self.game = game
        self.positions: list = []
        self.trace: Trace | None = None
        self.scenario: Any = None
        self.scenario_id: str | None = None
        self.file_name = ""
        self.file_text = ""
        self._quiet = False
        self._callbacks: list[Callable[[], None]] = []
        self.picker = W.Dropdown(options=self.scenario_names(game), value=scenario_id, description="Scenario",
                                 layout=W.Layout(width="360px"))
        self.note = ScenarioNote(layout=W.Layout(max_width="900px"))
        self.about = W.HTML(layout=W.Layout(max_width="640px"))
        self.prev_button = W.Button(description="◀ Prev", layout=W.Layout(width="80px"))
        self.next_button = W.Button(description="Next ▶", layout=W.Layout(width="80px"))
        self.slider = W.IntSlider(value=1, min=1, max=1, readout=False, continuous_update=False,
                                  layout=W.Layout(width="220px"))
        self.counter = W.HTML()
        self.prev_button.on_click(lambda _: self.go(-1))
        self.next_button.on_click(lambda _: self.go(+1))
        self.slider.observe(lambda c: self._quiet or self.show(c["new"]), names="value")
        self.focus = W.HTML(layout=W.Layout(max_width="660px"))
        self.map = W.HTML(layout=W.Layout(max_width="760px", overflow="auto"))
        self.message = W.HTML()
        self.rulings_box = ruling_dropdowns(ruling_options, lambda: self._quiet or self.run(), label_width,
                                            dropdown_width)
        self.trace_list = W.HTML(layout=W.Layout(max_width="640px"))
        steps = accordion([self.trace_list], titles=("Every step",), layout=W.Layout(max_width="660px"))
        self.download = W.HTML()
        self.download.add_class(f"{self.css}-round-download")
        self.upload_box, self.upload = upload_control(
            "Open a round file…", "a round TOML file (kind = \"round\"): `explorer resolve FILE` plays it too",
            f"{self.css}-round-upload")
        self.file_message = W.HTML()
        self.file_message.add_class(f"{self.css}-round-file-message")
        watch_upload(self.upload, self.open_text, self.file_message)
        files = W.HBox([self.download, self.upload_box, self.file_message],
                       layout=W.Layout(align_items="center", flex_flow="row wrap", grid_gap="8px"))
        files.add_class("xr-round-files")
        self.focus.add_class("xr-round-focus")
        self.about.add_class("xr-round-about")
        self.picker.observe(lambda c: c["new"] is None or self._quiet or self.load(c["new"]), names="value")
        bar = step_bar(self.prev_button, self.next_button, self.slider, self.counter)
        top = W.HBox([self.picker, bar], layout=W.Layout(align_items="center", flex_flow="row wrap",
                                                         grid_gap="16px"))
        side = W.VBox([self.focus, *extra, self.message, rulings_panel(self.rulings_box), steps],
                      layout=W.Layout(min_width="340px", max_width="680px", flex="1 1 380px"))
        side.add_class("xr-round-side")
        left = W.VBox([self.map], layout=W.Layout(flex="0 1 auto") if map_basis is None else
                      W.Layout(flex=f"{MAP_BESIDE_GROW} 1 {map_basis}", max_width=self.map.layout.max_width))
        left.add_class("xr-round-left")
        # the scenario's title and description last; on a phone (ROUND_PHONE_CSS) the focused step comes first,
        # right under the step bar, then the map, and the Outcome block after the whole page body
        main = W.HBox([left, side, self.about] if map_first else [side, left, self.about],
                      layout=W.Layout(flex_flow="row wrap", align_items="flex-start", grid_gap="12px"))
        main.add_class("xr-round-main")
        super().__init__([top, files, self.note, main, W.HTML(ROUND_PHONE_CSS), W.HTML(ROUND_COLUMN_CSS)])
        self.add_class(f"{self.css}-round")
        self.add_class("xr-round-page")
        self.load(scenario_id)

    # -- what a game supplies -----------------------------------------------------------------------------------------
    def scenario_names(self, game: Any) -> list[str]:
        """The built-in scenarios the picker offers: the game's ``round`` scenarios, in the game's order."""
        return [s.name for s in game.scenarios() if s.kind == "round"]

    def opened(self, scenario: Any, name: str) -> None:
        """Called with a scenario about to be shown (``name``: its id or file name), before it is played; raises
        :class:`~explorer.errors.ExplorerError` to refuse it (the page keeps what it shows)."""

    def play(self) -> tuple[list, Trace, str | None]:  # pragma: no cover - abstract
        """``(positions, trace, refusal or None)`` of :attr:`scenario` with :meth:`rulings`."""
        raise NotImplementedError

    def draw(self, pos: Any, number: int, total: int) -> None:  # pragma: no cover - abstract
        """Draw position ``pos`` (``number`` of ``total``, from 1) into :attr:`focus`, :attr:`map` and the extras."""
        raise NotImplementedError

    def clear_drawn(self) -> None:
        """Empty the extras :meth:`draw` fills (a game's sheets, cards, gauges) when the scenario shown has no step to
        show (:meth:`_no_steps`), so none keeps the previous scenario's step. The default clears nothing."""

    def describe(self, scenario: Any) -> str:  # pragma: no cover - abstract
        """The title box's HTML (escaped) for ``scenario``."""
        raise NotImplementedError

    # -- opening ------------------------------------------------------------------------------------------------------
    def rulings(self) -> dict[str, str]:
        """The ruling readings chosen in the dropdowns."""
        return {k: w.value for k, w in self.rulings_box.items()}

    def _parse(self, text: str, name: str) -> Any:
        """The round scenario of file ``text`` (``name`` in messages), as the game parses it: ``("round", sc)``."""
        from explorer.scenario import read_toml

        parsed = self.game.parse_data(read_toml(name, text=text), name)
        kind = parsed[0]
        if kind != "round":
            raise ScenarioError("kind", f"{short_repr(kind)} is not a round scenario", ["round"], name)
        return parsed

    def file_verdict(self, parsed: Any) -> str:
        """The outcome of an opened round file (``("round", sc)``) as ``explorer resolve FILE`` prints it (its own
        readings and seed), or the refusal that command would print, in one line."""
        try:
            with naming_source(self.file_name or None):    # a refusal while resolving names the file, as the CLI's does
                return self.game.verdict(parsed)
        except ExplorerError as e:
            return f"Refused: {e}"

    def _page_widgets(self) -> list[W.Widget]:
        """Every widget of the page (its children, theirs, the ruling dropdowns and the widget attributes), once
        each, but the Open control and the message beside it (an open reports there whatever happens)."""
        seen: dict[int, W.Widget] = {}
        todo: list = [self, *self.rulings_box.values(), *(v for v in vars(self).values() if isinstance(v, W.Widget))]
        while todo:
            w = todo.pop()
            if not isinstance(w, W.Widget) or id(w) in seen:
                continue
            seen[id(w)] = w
            todo.extend(getattr(w, "children", ()) or ())
        skip = {id(self), id(self.upload), id(self.file_message), id(self.upload_box)}
        return [w for k, w in seen.items() if k not in skip]

    @staticmethod
    def _attrs(obj: Any) -> dict[str, Any]:
        return {k: v for k, v in vars(obj).items() if k not in WIDGET_INTERNALS and not k.startswith("_trait")}

    def _snapshot(self) -> tuple:
        """What the page shows and holds: each widget's :data:`SNAPSHOT_TRAITS` and its own attributes (a
        :class:`~explorer.widgets.scenario_note.ScenarioNote`'s opened state), and the page's attributes (the
        scenario, its positions and trace, a game's map or frames): :meth:`_restore` sets them all back."""
        widgets = self._page_widgets()
        traits = [(w, [(t, getattr(w, t)) for t in SNAPSHOT_TRAITS if w.has_trait(t)]) for w in widgets]
        attrs = [(o, self._attrs(o)) for o in [self, *widgets]]
        return traits, attrs

    def _restore(self, snap: tuple) -> None:
        """Set back a :meth:`_snapshot`, quietly (no replay, no link change): twice over the widgets, since setting
        one may reset another through its observer (D.A.G.G.E.R.'s round count empties its forecast)."""
        traits, attrs = snap
        self._quiet = True
        try:
            for _ in range(2):
                for w, values in traits:
                    for t, v in values:
                        if t == "max" and w.has_trait("min"):
                            w.min = min(w.min, v)
                        if getattr(w, t) != v:
                            setattr(w, t, v)
            for obj, saved in attrs:
                now = self._attrs(obj)
                for k in now.keys() - saved.keys():
                    delattr(obj, k)
                for k, v in saved.items():
                    if now.get(k, saved) is not v:
                        setattr(obj, k, v)
        finally:
            self._quiet = False

    def _show_scenario(self, sc: Any, scenario_id: str | None, name: str, text: str, step: int = 1,
                       readings: Mapping[str, str] | None = None, parsed: Any = None) -> None:
        """Show scenario ``sc`` at ``step``, all or nothing: when it is refused (:meth:`opened` raises, or playing it
        raises or leaves no step to show) the page is set back to what it showed, its link untouched, and the
        refusal is raised (a :class:`~explorer.errors.ScenarioError` naming ``name``), for the caller to say once,
        beside the control that asked (session 16: a refused file replaced the round shown, its map, step and
        link, by "No step to show" and said the refusal three times)."""
        snap = self._snapshot()
        self._holding = True    # no link change until the scenario is shown
        try:
            self._show_scenario_now(sc, scenario_id, name, text, step, readings, parsed)
        except ExplorerError as e:
            self._holding = False
            self._restore(snap)
            if isinstance(e, ScenarioError):
                raise e.with_source(name) if not e.source else e
            raise ScenarioError("", f"refused while it is played: {e}", None, name) from e
        finally:
            self._holding = False
        self._changed()

    def _show_scenario_now(self, sc: Any, scenario_id: str | None, name: str, text: str, step: int = 1,
                           readings: Mapping[str, str] | None = None, parsed: Any = None) -> None:
        self.opened(sc, scenario_id or name)
        self.scenario, self.scenario_id, self.file_name, self.file_text = sc, scenario_id, name, text
        self._quiet = True
        try:
            for k, reading in (getattr(sc, "rulings", None) or {}).items():   # the file's own readings shown
                if k in self.rulings_box and reading in self.rulings_box[k].options:
                    self.rulings_box[k].value = reading
            for k, reading in (readings or {}).items():       # a link's readings over the file's own
                self.rulings_box[k].value = reading
            if scenario_id is None:
                self.picker.value = None
            elif self.picker.value != scenario_id:
                self.picker.value = scenario_id
        finally:
            self._quiet = False
        if scenario_id is None:   # an opened file: its name and its own verdict, as the built-ins'
            self.note.show(None)  # a new file's state as opened, even under the name of the one shown before
            self.note.show(name, str(getattr(sc, "title", name)), self.file_verdict(parsed or ("round", sc)),
                           what="File", state=repr(sorted(self.rulings().items())))
        else:
            self.note.show(scenario_id, *self.game.builtin_verdict(scenario_id),
                           state=repr(sorted(self.rulings().items())))
        self.about.value = self.describe(sc)
        self.download.value = download_link(text, name if scenario_id is None else f"{scenario_id}.toml",
                                            "this round file (open it here again, or play it with `explorer "
                                            "resolve FILE`)", f"{self.css}-round-download-link")
        self.run(keep_position=False, at=step, strict=True)

    def load(self, scenario_id: str) -> None:
        """Show built-in ``scenario_id`` from its first step (rulings kept). Never raises: an error is shown under
        the step (the page keeps what it showed)."""
        try:
            sc = self.game.load_builtin(scenario_id)[1]
            self._show_scenario(sc, scenario_id, f"{scenario_id}.toml", self.game.scenario_text(scenario_id))
        except ExplorerError as e:
            self.message.value = box(html.escape(str(e)), style="color:#c92a2a")

    def open_text(self, text: str, name: str = "uploaded file") -> None:
        """Show round-file TOML ``text`` (named ``name`` in messages) from its first step.

        Raises:
            ScenarioError: the file is not a valid round file of this game (naming the file and the field), or the
                game refuses it when it is played (an illegal choice; a play with no step to show); the page keeps
                what it shows, its step, map and link (:meth:`_show_scenario`).
        """
        parsed = self._parse(text, name)
        self._show_scenario(parsed[1], None, name, text, parsed=parsed)

    # -- playing and stepping -----------------------------------------------------------------------------------------
    def run(self, keep_position: bool = True, at: int = 1, strict: bool = False) -> None:
        """Replay the scenario with the rulings chosen, at the position shown (``keep_position``, clamped) or at
        ``at``. Never raises unless ``strict``: an error is shown under the step.

        Raises:
            ExplorerError: (``strict`` only: a scenario being opened, see :meth:`_show_scenario`) playing it raised,
                or it has no step to show.
        """
        at = self.slider.value if keep_position else at
        self.message.value = ""
        self.note.track(repr(sorted(self.rulings().items())))   # before playing: a refused reading is a change too
        try:
            with naming_source(self.file_name or None):    # the page's gate: a refusal while playing names the file
                self.positions, self.trace, refused = self.play()
            if strict and not self.positions:
                raise ScenarioError("", f"has no step to show{': ' + refused if refused else ''}", None,
                                    self.file_name or None)
        except ExplorerError as e:
            if strict:
                raise
            self.message.value = box(html.escape(str(e)), style="color:#c92a2a")
            self._no_steps()
            return
        if refused:   # the play stopped at a refusal: named with the file, as a refusal raised while playing is
            where = f"{self.file_name}: " if self.file_name and not refused.startswith(f"{self.file_name}:") else ""
            self.message.value = box("Not allowed: " + html.escape(where + refused),
                                     style="color:#c92a2a;font-size:13px")
        self._set_steps(at)

    def _no_steps(self) -> None:
        """The scenario shown was refused while it was played (an error raised, not a "Not allowed" step): it has
        no step to show, so the step card says so and the map, the counter and the step list are emptied (before,
        they kept the previous scenario's step under the new file's name and verdict)."""
        self.positions, self.trace = [], None
        self._quiet = True
        try:
            self.slider.max = self.slider.value = 1
        finally:
            self._quiet = False
        self.prev_button.disabled = self.next_button.disabled = True
        self.counter.value = counter_html(0, 0)
        self.focus.value = box("No step to show: playing this round stopped at the error below (the Outcome "
                               "block gives it too).", style="color:#495057;font-style:italic")
        self.map.value = ""
        self.trace_list.value = ""
        self.clear_drawn()
        self._changed()

    def show(self, number: int) -> None:
        """Show the ``number``-th cited step (from 1, clamped)."""
        if not self.positions:
            return
        n = len(self.positions)
        number = max(1, min(n, number))
        self.prev_button.disabled = number == 1
        self.next_button.disabled = number == n
        self.counter.value = counter_html(number, n)
        self.draw(self.positions[number - 1], number, n)
        self.trace_list.value = render_trace_html(self.trace, number - 1) if self.trace is not None else ""
        self._changed()

    # -- the link -----------------------------------------------------------------------------------------------------
    def _changed(self) -> None:
        if not self._quiet and not getattr(self, "_holding", False):
            for cb in list(self._callbacks):
                cb()

    def on_state_change(self, callback: Callable[[], None]) -> None:
        """Call ``callback()`` after every change of the link's state (a pick, a step, a reading, a file)."""
        self._callbacks.append(callback)

    def url_state(self) -> dict:
        """The page's link state (see the module docstring)."""
        where = ({"scenario": self.scenario_id} if self.scenario_id is not None
                 else {"file": self.file_text, "name": self.file_name})
        return {**where, "step": self.position, "rulings": self.rulings()}

    def load_url_state(self, state: Mapping) -> None:
        """Show the state of a link.

        Raises:
            ScenarioError: (source ``"link"``) a key not part of the link, a scenario not offered, a file that is
                not a valid round file, a step that is not a whole number from 1, a ruling key or reading the page
                does not offer; every field is checked before any is set (the page keeps what it shows).
        """
        allowed = ("scenario", "file", "name", "step", "rulings")
        unknown = sorted(set(state) - set(allowed))
        if unknown:
            raise ScenarioError(unknown[0], "is not part of this page's link", allowed, LINK_SOURCE)
        step = state.get("step", 1)
        if isinstance(step, bool) or not isinstance(step, int) or step < 1:
            raise ScenarioError("step", f"{short_repr(step)} is not a step number", "a whole number from 1",
                                LINK_SOURCE)
        readings = state.get("rulings", {})
        if not isinstance(readings, Mapping):
            raise ScenarioError("rulings", "is not a table of readings", "ruling key = reading", LINK_SOURCE)
        for k, reading in readings.items():
            if k not in self.rulings_box:
                raise ScenarioError(f"rulings.{k}", "is not a ruling option of this page", sorted(self.rulings_box),
                                    LINK_SOURCE)
            if reading not in self.rulings_box[k].options:
                raise ScenarioError(f"rulings.{k}", f"{short_repr(reading)} is not one of its readings",
                                    [str(v) for v in self.rulings_box[k].options], LINK_SOURCE)
        if "file" in state:
            text, name = state["file"], state.get("name", "linked file")
            if not isinstance(text, str) or len(text) > MAX_LINK_FILE_CHARS or not isinstance(name, str):
                raise ScenarioError("file", "is not the text of a round file", f"TOML text of at most "
                                    f"{MAX_LINK_FILE_CHARS:,} characters", LINK_SOURCE)
            parsed, scenario_id = self._parse(text, f"{name[:200]} ({LINK_SOURCE})"), None
            sc = parsed[1]
        else:
            scenario_id = state.get("scenario", self.scenario_id)
            if not isinstance(scenario_id, str) or scenario_id not in self.picker.options:
                raise ScenarioError("scenario", f"{short_repr(scenario_id)} is not one this page offers",
                                    ", ".join(self.picker.options[:12]), LINK_SOURCE)
            name, text = f"{scenario_id}.toml", self.game.scenario_text(scenario_id)
            parsed = self.game.load_builtin(scenario_id)
            sc = parsed[1]
        self._show_scenario(sc, scenario_id, name, text, step, readings, parsed)


__all__ = ["RoundStepperView", "SliderSteps", "box", "fit_map", "step_bar", "counter_html", "step_head",
           "ruling_dropdowns", "rulings_panel", "MAX_LINK_FILE_CHARS", "FIT_MAP_CSS"]
