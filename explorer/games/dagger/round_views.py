"""The Round page of Marvel D.A.G.G.E.R.: a ``round`` scenario stepped one cited step at a time (Prev / Next / the
slider), drawn from the kernel frames through :mod:`.round_view`: the step and its rule, each hero's sheet (the
aspect slots and the tokens on them, the tokens left in the supply, damage, empowered token, support and team-up
cards; whose turn it is), the bases' slots taken, the tracks and decks, the loss gauges, the world map (SVG) and
every step. Ruling options replay the scenario. Widgets only: the rules are in :mod:`.round_scenario`.

The hero sheets, aspect sheets, cards and the map are the documented stand-ins of :mod:`.round_scenario` (the
rulebook prints none); the page says so.
"""

from __future__ import annotations

import html

import ipywidgets as W

from explorer.errors import ExplorerError
from explorer.games import Game
from explorer.trace import Trace
from explorer.widgets.scenario_note import ScenarioNote
from explorer.widgets.trace_stepper import render_trace_html
from explorer.widgets.icons import accordion

from . import options as opts
from .map_svg import map_svg
from .round_scenario import play_rounds
from .round_view import HeroPanel, RoundPosition, positions_from
from .views import _box, gauges_html

STANDINS = ("Hero sheets, aspect sheets, abilities, support and team-up cards, the bases' D.A.G.G.E.R. effects, the "
            "die and the map are documented stand-ins (the rulebook prints none): edit them in the scenario file.")


def round_scenarios(game: Game) -> list[str]:
    """The game's built-in scenarios of kind ``round``."""
    return [s.name for s in game.scenarios() if s.kind == "round"]


def _sheet_html(h: HeroPanel) -> str:
    slots = "".join(
        f"<span class='dg-slot' data-token='{html.escape(t)}' style='display:inline-block;margin:1px 3px 1px 0;"
        f"padding:1px 5px;border-radius:3px;border:1px solid #adb5bd;background:"
        f"{'#ffd43b' if t == 'boosted' else '#ced4da' if t else '#fff'}'>{html.escape(n)}"
        f"{' · ' + html.escape(t) if t else ''}</span>" for n, t in h.slots)
    cards = "; ".join(f"{html.escape(n)} {html.escape(w)}" for n, w in h.support)
    extra = [x for x in ("empowered" if h.empowered else "", "shattered" if h.shattered else "",
                         f"team-up card {h.team_up}" if h.team_up else "") if x]
    return (f"<div class='dg-sheet' data-hero='{html.escape(h.hero)}' style='margin:3px 0;padding:3px 6px;"
            f"border-left:4px solid {'#1c7ed6' if h.to_play else '#dee2e6'}'>"
            f"<b>{'▶ ' if h.to_play else ''}{html.escape(h.hero)}</b> on {html.escape(h.space or 'no space')} · "
            f"damage {h.damage}/{h.health} · supply <b>{h.supply[0]}</b> boosted + <b>{h.supply[1]}</b> standard"
            + (f" · {html.escape(', '.join(extra))}" if extra else "") + f"<div>{slots}</div>"
            + (f"<div style='font-size:11px;color:#495057'>support: {cards}</div>" if cards else "") + "</div>")


def position_html(pos: RoundPosition, number: int, total: int) -> str:
    """The focused step and the sheets, bases and tracks at ``pos`` as HTML (escaped)."""
    s = pos.step
    head = (f"<div style='font-size:11px;color:#1864ab;text-transform:uppercase'>Step {number} of {total} · "
            f"{html.escape(s.section)}</div><div class='dg-step-title' style='font-size:15px;font-weight:bold'>"
            f"{html.escape(s.title)}</div><div style='font-size:12px;color:#1864ab'>§ {html.escape(s.rule.section)}"
            "</div>" + (f"<div style='color:#343a40'>{html.escape(s.detail)}</div>" if s.detail else ""))
    if pos.in_setup:
        head += "<div style='color:#868e96'>Setup: the board is dealt at its last step.</div>"
    if not pos.settled:
        head += (f"<div style='color:#868e96'>Sheets and map as {html.escape(pos.frame_name)} found them: its "
                 "changes show at its last step.</div>")
    side = [m for m in pos.side if m]
    board = (f"Threat <b>{pos.threat}</b> · team-up <b>{pos.team_up}</b> · "
             f"{pos.events_left} event card{'' if pos.events_left == 1 else 's'} left · overrun: "
             f"{html.escape(', '.join(pos.overrun) or 'none')} · side missions: "
             f"{html.escape(', '.join(side) or 'none')}"
             + ("<br>Base slots: " + html.escape("; ".join(f"{b} ({h}, {t})" for b, h, t in pos.bases))
                if pos.bases else ""))
    return (_box(head, "dg-focus", "border-left:4px solid #1c7ed6;background:#e7f5ff;padding:6px 10px;"
                                   "border-radius:4px")
            + _box("".join(_sheet_html(h) for h in pos.heroes), "dg-sheets", "font-size:13px;margin-top:6px")
            + _box(board, "dg-board", "font-size:13px;margin-top:6px"))


class RoundStepper(W.VBox):
    """Scenario picker, the step bar, the scenario note, the focused step with the hero sheets, the loss gauges, the
    map, the ruling options and every step.

    Attributes:
        positions: one :class:`.round_view.RoundPosition` per cited step (the file replayed with the rulings chosen).
        trace: the scenario's trace with those rulings. rulings_box: ``{option key: Dropdown}``.
    """

    def __init__(self, scenario_id: str, game: Game):
        self.game = game
        self.positions: list[RoundPosition] = []
        self._quiet = False
        self.picker = W.Dropdown(options=round_scenarios(game), value=scenario_id, description="Scenario",
                                 layout=W.Layout(width="360px"))
        self.note = ScenarioNote(layout=W.Layout(max_width="900px"))
        self.about = W.HTML(layout=W.Layout(max_width="640px"))
        self.prev_button = W.Button(description="◀ Prev", layout=W.Layout(width="80px"))
        self.next_button = W.Button(description="Next ▶", layout=W.Layout(width="80px"))
        self.slider = W.IntSlider(value=1, min=1, max=1, readout=False, continuous_update=False,
                                  layout=W.Layout(width="220px"))
        self.prev_button.on_click(lambda _: self.go(-1))
        self.next_button.on_click(lambda _: self.go(+1))
        self.slider.observe(lambda c: self._quiet or self.show(c["new"]), names="value")
        self.focus = W.HTML(layout=W.Layout(max_width="660px"))
        self.gauges = W.HTML(layout=W.Layout(max_width="640px"))
        self.map = W.HTML(layout=W.Layout(max_width="760px", overflow="auto"))
        self.message = W.HTML()
        r = opts.rulings()
        self.rulings_box = {o.key: W.Dropdown(options=list(o.readings), value=o.default, description=o.key,
                                              tooltip=o.title, style={"description_width": "190px"},
                                              layout=W.Layout(width="420px"))
                            for o in r.options.values()}
        for w in self.rulings_box.values():
            w.observe(lambda _c: self._quiet or self.run(), names="value")
        self.trace_list = W.HTML(layout=W.Layout(max_width="640px"))
        steps = accordion([self.trace_list], titles=("Every step",), layout=W.Layout(max_width="660px"))
        rulings = accordion([W.VBox(list(self.rulings_box.values()))], titles=("Ruling options",),
                            layout=W.Layout(max_width="660px"))
        self.picker.observe(lambda c: self.load(c["new"]), names="value")
        bar = W.HBox([self.prev_button, self.next_button, self.slider], layout=W.Layout(align_items="center"))
        top = W.HBox([self.picker, bar], layout=W.Layout(align_items="center", flex_flow="row wrap",
                                                         grid_gap="16px"))
        side = W.VBox([self.focus, self.gauges, self.message, rulings, steps],
                      layout=W.Layout(min_width="340px", max_width="680px", flex="1 1 380px"))
        left = W.VBox([self.map, self.about], layout=W.Layout(flex="0 1 auto"))
        main = W.HBox([side, left], layout=W.Layout(flex_flow="row wrap", align_items="flex-start", grid_gap="12px"))
        super().__init__([top, self.note, main])
        self.add_class("dg-round")
        self.load(scenario_id)

    def rulings(self) -> dict[str, str]:
        """The ruling readings chosen in the dropdowns."""
        return {k: w.value for k, w in self.rulings_box.items()}

    def load(self, scenario_id: str) -> None:
        """Show built-in ``scenario_id`` from its first step (rulings kept)."""
        try:
            self.scenario = self.game.load_builtin(scenario_id)[1]
        except ExplorerError as e:
            self.message.value = _box(html.escape(str(e)), style="color:#c92a2a")
            return
        self.scenario_id = scenario_id
        self.note.show(scenario_id, *self.game.builtin_verdict(scenario_id), state=repr(sorted(self.rulings().items())))
        self.about.value = _box(f"<b>{html.escape(self.scenario.title)}</b><br><span style='color:#495057'>"
                                f"{html.escape(self.scenario.board.description)}</span><br><i style='color:#868e96'>"
                                f"{html.escape(STANDINS)}</i>", "dg-about", "font-size:12px")
        self.run(keep_position=False)

    def run(self, keep_position: bool = True) -> None:
        """Replay the scenario with the rulings chosen; keep the position if asked (clamped). Never raises: an error
        is shown under the gauges."""
        at = self.slider.value if keep_position else 1
        self.message.value = ""
        try:
            self.frames = play_rounds(self.scenario, self.rulings())[0]
            self.positions = positions_from(self.scenario, self.frames)
            self.trace: Trace = self.game.resolve(("round", self.scenario), self.rulings())
        except ExplorerError as e:
            self.message.value = _box(html.escape(str(e)), style="color:#c92a2a")
            return
        self.note.track(repr(sorted(self.rulings().items())))
        if self.trace.result.refused:
            self.message.value = _box("Not allowed: " + html.escape(self.trace.result.refused),
                                      style="color:#c92a2a;font-size:13px")
        self._quiet = True
        try:
            self.slider.max = max(1, len(self.positions))
            self.slider.value = max(1, min(at, len(self.positions)))
        finally:
            self._quiet = False
        self.show(self.slider.value)

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
        self.focus.value = position_html(pos, number, n)
        game = self.frames[pos.shown].state.game          # the map draws the state the sheets show
        marks = [m for m in pos.step.marks if m in self.scenario.world]
        self.map.value = _box(map_svg(self.scenario.world, game, highlight=marks, scale=0.4), "dg-map")
        self.gauges.value = gauges_html(game)
        self.trace_list.value = render_trace_html(self.trace, number - 1)


def round_page(scenario_id: str, game: Game) -> tuple[RoundStepper, None]:
    """A fresh Round page opened on ``scenario_id`` (a ``round`` built-in): ``(widget, None)``."""
    return RoundStepper(scenario_id, game), None


__all__ = ["RoundStepper", "round_page", "position_html", "round_scenarios"]
