"""The Round page of Galaxy Defenders: a ``round`` scenario stepped one cited step at a time (Prev / Next / the
slider), drawn from the kernel frames (:func:`.round.round_frames`) through :mod:`.round_picture`: the focused step
and the section it cites, the map with every figure as the step's frame leaves it (the frame's walks and attacks
drawn), the agents' sheets, the NPCs and the aliens, the Close Encounter card last drawn, the ruling options and every
step. The scenario, the readings and the step are in the page's link; Download saves the round file, Open reads one
(the format ``explorer resolve`` reads). Widgets only: the rules are in :mod:`.round` and :mod:`.round_map`.

The Alien A.I. page (:mod:`.ai_views`) steps one activation; this page plays the whole round, each alien's
activation and each NPC's inside it. Rulebook sections: 6 Game Sequence and whatever each step cites.
"""

from __future__ import annotations

import html

import ipywidgets as W

from explorer.errors import ExplorerError, ScenarioError
from explorer.games import Game
from explorer.trace import Trace
from explorer.widgets.files import download_link, upload_control, watch_upload
from explorer.widgets.icons import accordion
from explorer.widgets.picker_url import LINK_SOURCE, keep_in_url
from explorer.widgets.round_stepper import counter_html, fit_map, step_bar
from explorer.widgets.scenario_note import ScenarioNote
from explorer.widgets.trace_stepper import render_trace_html

from . import options as opts
from .round_picture import FRAME_NOTE, STANDINS, RoundPosition, card_html, focus_html, map_svg, positions_from, \
    sheets_html


def round_scenarios(game: Game) -> list[str]:
    """The game's built-in scenarios of kind ``round``, those on a map first."""
    names = [s.name for s in game.scenarios() if s.kind == "round"]
    return sorted(names, key=lambda n: (not n.endswith("-map"), names.index(n)))


def _box(text: str, cls: str = "", style: str = "") -> str:
    return f"<div class='{cls}' style='font-family:sans-serif;font-size:13px;line-height:1.35;{style}'>{text}</div>"


class RoundStepper(W.VBox):
    """Scenario picker, Open / Download, the step bar, the map, the focused step, the sheets, the Close Encounter
    card, the ruling options and every step.

    Attributes:
        scenario: the :class:`.round.RoundScenario` shown; ``text``: its TOML text (Download);
        ``positions``: one :class:`.round_picture.RoundPosition` per cited step; ``trace``: the trace.
    """

    def __init__(self, scenario_id: str, game: Game):
        self.game = game
        self.positions: list[RoundPosition] = []
        self.trace: Trace | None = None
        self.amap = None
        self._quiet = False
        self._callbacks: list = []
        self.picker = W.Dropdown(options=round_scenarios(game), value=scenario_id, description="Scenario",
                                 layout=W.Layout(width="340px"))
        self.upload_box, self.upload = upload_control("Open a round file (.toml)…", "open a Galaxy Defenders round "
                                                      "file (the format `explorer resolve` reads)", "gd-round-upload")
        self.download = W.HTML()
        self.file_message = W.HTML()
        watch_upload(self.upload, self.load_toml, self.file_message)
        self.note = ScenarioNote(layout=W.Layout(max_width="900px"))
        self.about = W.HTML(layout=W.Layout(max_width="640px"))
        self.prev_button = W.Button(description="◀ Prev", layout=W.Layout(width="80px"))
        self.next_button = W.Button(description="Next ▶", layout=W.Layout(width="80px"))
        self.slider = W.IntSlider(value=1, min=1, max=1, readout=False, continuous_update=False,
                                  layout=W.Layout(width="200px"))
        self.counter = W.HTML()
        self.prev_button.on_click(lambda _: self.go(-1))
        self.next_button.on_click(lambda _: self.go(+1))
        self.slider.observe(self._slid, names="value")
        self.focus = W.HTML(layout=W.Layout(max_width="660px"))
        self.card = W.HTML(layout=W.Layout(max_width="660px"))
        self.sheets = W.HTML(layout=W.Layout(max_width="660px"))
        self.map = W.HTML(layout=W.Layout(max_width="760px", overflow="auto"))
        self.message = W.HTML()
        r = opts.rulings()
        self.rulings_box = {o.key: W.Dropdown(options=list(o.readings), value=o.default, description=o.key,
                                              tooltip=o.title, style={"description_width": "220px"},
                                              layout=W.Layout(width="460px"))
                            for o in r.options.values()}
        for w in self.rulings_box.values():
            w.observe(lambda _c: self._quiet or self.run(), names="value")
        self.trace_list = W.HTML(layout=W.Layout(max_width="640px"))
        steps = accordion([self.trace_list], titles=("Every step",), layout=W.Layout(max_width="660px"))
        rulings = accordion([W.VBox(list(self.rulings_box.values()))], titles=("Ruling options",),
                            layout=W.Layout(max_width="660px"))
        self.picker.observe(lambda c: self.load(c["new"]), names="value")
        bar = step_bar(self.prev_button, self.next_button, self.slider, self.counter)
        files = W.HBox([self.upload_box, self.download, self.file_message],
                       layout=W.Layout(align_items="center", flex_flow="row wrap", grid_gap="8px"))
        top = W.HBox([self.picker, files, bar], layout=W.Layout(align_items="center", flex_flow="row wrap",
                                                                grid_gap="12px"))
        side = W.VBox([self.focus, self.message, self.card, self.sheets, rulings, steps],
                      layout=W.Layout(min_width="320px", max_width="680px", flex="1 1 360px"))
        left = W.VBox([self.map, self.about], layout=W.Layout(flex="0 1 auto"))
        main = W.HBox([left, side], layout=W.Layout(flex_flow="row wrap", align_items="flex-start", grid_gap="12px"))
        super().__init__([top, self.note, main])
        self.add_class("gd-round")
        self.load(scenario_id)
        keep_in_url(self, self.picker, rulings=lambda: self.rulings_box)   # the scenario and readings in the link
        self._with_step_in_url()

    # --- the link -----------------------------------------------------------------------------------------------

    def _with_step_in_url(self) -> None:
        """The step shown joins the link (``"step"``, from 1) beside the scenario and the readings."""
        base_state, base_load, base_on = self.url_state, self.load_url_state, self.on_state_change

        def url_state() -> dict:
            return {**base_state(), "step": self.slider.value}

        def load_url_state(state) -> None:
            state = dict(state)
            step = state.pop("step", 1)
            if not isinstance(step, int) or isinstance(step, bool) or step < 1:
                raise ScenarioError("step", f"{step!r} is not a step number", "a whole number from 1", LINK_SOURCE)
            base_load(state)
            self.slider.value = min(step, self.slider.max)

        def on_state_change(cb) -> None:
            self._callbacks.append(cb)
            base_on(cb)

        self.url_state, self.load_url_state, self.on_state_change = url_state, load_url_state, on_state_change

    def _slid(self, change) -> None:
        if self._quiet:
            return
        self.show(change["new"])
        for cb in list(self._callbacks):
            cb()

    # --- loading ------------------------------------------------------------------------------------------------

    def rulings(self) -> dict[str, str]:
        """The ruling readings chosen in the dropdowns."""
        return {k: w.value for k, w in self.rulings_box.items()}

    def load(self, scenario_id: str) -> None:
        """Show built-in ``scenario_id`` from its first step (the file's own readings shown)."""
        try:
            kind, sc = self.game.load_builtin(scenario_id)
            text = self.game.scenario_text(scenario_id)
        except ExplorerError as e:
            self.message.value = _box(html.escape(str(e)), style="color:#c92a2a")
            return
        self.note.show(scenario_id, *self.game.builtin_verdict(scenario_id), state=repr(sorted(self.rulings().items())))
        self._show_scenario(sc, text, f"{scenario_id}.toml")

    def load_toml(self, text: str, name: str = "uploaded file") -> None:
        """Show a round file's ``text`` (its ``name`` in messages).

        Raises:
            ScenarioError: not valid TOML, not a Galaxy Defenders ``round`` scenario, or an invalid field (the page
                keeps what it shows).
        """
        from explorer.games import load_any

        game, scenario = load_any(name, text=text)
        kind, sc = scenario if isinstance(scenario, tuple) else (None, scenario)
        if game.id != self.game.id or kind != "round":
            raise ScenarioError("kind", f"{name} is a {game.id} {kind} scenario", "a Galaxy Defenders round file",
                                name)
        self._show_scenario(sc, text, name)

    def _show_scenario(self, sc, text: str, filename: str) -> None:
        from .round_map import map_of

        self.scenario, self.text = sc, text
        self.amap = map_of(sc)
        self._quiet = True
        try:
            for k, v in sc.rulings.items():
                if k in self.rulings_box and v in self.rulings_box[k].options:
                    self.rulings_box[k].value = v
        finally:
            self._quiet = False
        self.download.value = download_link(text, filename, "the round file: open it here or with `explorer "
                                            "resolve`", "gd-round-download")
        self.about.value = _box(f"<b>{html.escape(sc.title)}</b><br><span style='color:#495057'>"
                                f"{html.escape(sc.description)}</span><br><i class='gd-standins' style='color:#868e96'>"
                                f"{html.escape(STANDINS)} {html.escape(FRAME_NOTE)}</i>", "gd-round-about",
                                "font-size:12px")
        self.run(keep_position=False)

    def run(self, keep_position: bool = True) -> None:
        """Replay the round with the rulings chosen; keep the position if asked (clamped). Never raises: a refused
        choice or a bad file is shown under the step."""
        from .options import rulings as make_rulings
        from .round import round_frames

        at = self.slider.value if keep_position else 1
        self.message.value = ""
        try:
            r = make_rulings({**self.scenario.rulings, **self.rulings()})
            frames = round_frames(self.scenario, r)
            self.trace = Trace(self.scenario.title, [s for f in frames for s in f.steps], dict(r.consulted))
            self.positions = positions_from(frames)
        except ExplorerError as e:
            self.message.value = _box("Not allowed: " + html.escape(str(e)), style="color:#c92a2a")
            self.positions = []
            self.map.value = ""
            return
        self.note.track(repr(sorted(self.rulings().items())))
        self._quiet = True
        try:
            self.slider.max = max(1, len(self.positions))
            self.slider.value = max(1, min(at, len(self.positions)))
        finally:
            self._quiet = False
        self.show(self.slider.value)

    # --- stepping -----------------------------------------------------------------------------------------------

    @property
    def position(self) -> int:
        """The cited step shown, from 1."""
        return self.slider.value

    def go(self, delta: int) -> None:
        """Step ``delta`` positions (clamped)."""
        self.slider.value = max(1, min(len(self.positions), self.slider.value + delta))

    def show(self, number: int) -> None:
        """Show the ``number``-th cited step (from 1)."""
        if not self.positions:
            return
        n = len(self.positions)
        number = max(1, min(n, number))
        pos = self.positions[number - 1]
        self.prev_button.disabled = number == 1
        self.next_button.disabled = number == n
        self.counter.value = counter_html(number, n)
        self.focus.value = focus_html(pos, number, n)
        self.card.value = card_html(pos)
        self.sheets.value = sheets_html(pos)
        self.map.value = (fit_map(map_svg(self.amap, pos, self.scenario.title), "gd-round-map") if self.amap is not None
                          else _box("This round has no [map]: its activities are checked, not walked or rolled "
                                    "(the file's figures have no hexes).", "gd-round-map", "color:#868e96"))
        self.trace_list.value = render_trace_html(self.trace, number - 1)


def round_page(scenario_id: str, game: Game) -> tuple[RoundStepper, None]:
    """A fresh Round page opened on ``scenario_id`` (a ``round`` built-in): ``(widget, None)``."""
    return RoundStepper(scenario_id, game), None


__all__ = ["RoundStepper", "round_page", "round_scenarios"]
