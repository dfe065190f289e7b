"""The Round page of Marvel D.A.G.G.E.R.: a ``round`` scenario stepped one cited step at a time (Prev / Next / the
slider), drawn from the kernel frames through :mod:`.round_view`: the step and its rule, each hero's sheet (the
aspect slots and the tokens on them, the tokens left in the supply, damage, empowered token, support and team-up
cards; whose turn it is), the bases' slots taken, the tracks and decks, the loss gauges, the loss forecast of the
file's planned rounds (computed on demand: :class:`RoundStepper`), the world map (SVG) and every step; Download / Open of the round file and the page's state in its link. The page body is the shared
:class:`explorer.widgets.round_stepper.RoundStepperView`. Ruling options replay the scenario. Widgets only: the rules
are in :mod:`.round_scenario`.

The hero sheets, aspect sheets, cards and the map are the documented stand-ins of :mod:`.round_scenario` (the
rulebook prints none); the page says so.
"""

from __future__ import annotations

import html

import ipywidgets as W

from explorer.games import Game
from explorer.trace import Trace
from explorer.widgets.round_stepper import RoundStepperView, box, fit_map, step_head

from explorer.errors import ScenarioError

from . import options as opts
from .forecast import MAX_PHASES, forecast_text, planned_forecast, planned_rounds_within
from .map_svg import map_svg
from .round_scenario import dealt_board, play_rounds, round_trace
from .round_view import HeroPanel, RoundPosition, deck_words, positions_from
from .views import gauges_html

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
    head = step_head(pos.step, number, total, "dg-step-title", pos.note)
    if pos.in_setup:
        head += "<div style='color:#868e96'>Setup: the board is dealt at its last step.</div>"
    side = [m for m in pos.side if m]
    board = (f"Threat <b>{pos.threat}</b> · team-up <b>{pos.team_up}</b> · "
             f"{deck_words(pos.events_left)} · overrun: "
             f"{html.escape(', '.join(pos.overrun) or 'none')} · side missions: "
             f"{html.escape(', '.join(side) or 'none')}"
             + (f" · nemesis: <span class='dg-nemesis-state'>{html.escape(pos.nemesis)}</span>" if pos.nemesis
                else "")
             + ("<br>Base slots: " + html.escape("; ".join(f"{b} ({h}, {t})" for b, h, t in pos.bases))
                if pos.bases else ""))
    return (box(head, "dg-focus", "border-left:4px solid #1c7ed6;background:#e7f5ff;padding:6px 10px;"
                                  "border-radius:4px")
            + box("".join(_sheet_html(h) for h in pos.heroes), "dg-sheets", "font-size:13px;margin-top:6px")
            + box(board, "dg-board", "font-size:13px;margin-top:6px"))


def compute_forecast(sc, rounds: int, rulings: dict[str, str]):
    """The Round page's forecast: ``(LossForecast, the state it starts from)`` of :func:`.forecast.planned_forecast`
    (``rounds`` planned rounds, ``rulings``), or the :class:`~explorer.errors.ScenarioError` it raised (over its
    play-out bound, say) as a value. Reads only immutable values: safe on a worker thread."""
    try:
        return planned_forecast(sc, rounds, rulings), dealt_board(sc, rulings)
    except ScenarioError as e:
        return e


def forecast_block_html(result) -> str:
    """The forecast block's answer as HTML (escaped): the first line of ``explorer dagger forecast``
    (:func:`.forecast.forecast_text`) in bold with the probability in class ``dg-round-forecast-p``, its other lines
    below; or the refusal (a :class:`~explorer.errors.ScenarioError`) in one red line."""
    if isinstance(result, ScenarioError):
        allowed = result.allowed if result.allowed is None or isinstance(result.allowed, str) else ", ".join(
            map(str, result.allowed))
        return box(f"Not computed: {html.escape(result.problem)}" + (f" (allowed: {html.escape(allowed)})"
                                                                      if allowed else ""),
                   "dg-round-forecast-refused", "color:#c92a2a")
    f, start = result
    lines = forecast_text(f, start, 1, planned=True).split("\n")
    head, _, rest = lines[0].partition(" = ")
    first = (f"<b>{html.escape(head)} = <span class='dg-round-forecast-p'>{float(f.p_loss):.4f}</span></b>"
             f" {html.escape(rest.split(' ', 1)[1] if ' ' in rest else '')}")
    return box(first + "".join(f"<div style='color:#495057;font-size:12px'>{html.escape(x.strip())}</div>"
                               for x in lines[1:]), "dg-round-forecast-answer", "font-size:12px")


class RoundStepper(RoundStepperView):
    """The D.A.G.G.E.R. Round page (:class:`explorer.widgets.round_stepper.RoundStepperView`): the focused step with
    the hero sheets, the loss gauges and the loss forecast under it, the map and the scenario's title beside them.

    The forecast block: "P(the heroes lose by the end of round N)" for the file's planned turns, the numbers
    ``explorer dagger forecast FILE --phases N`` prints (:func:`.forecast.planned_forecast`), computed when its
    button is pressed (it can take seconds: "computing…" is shown, and in the app it runs off the event loop through
    :meth:`set_offloader`). N's dropdown offers only the rounds the exact forecast plays within its play-out bound
    (:func:`.forecast.planned_rounds_within`, as the command's hint); a file whose first round is already over it
    keeps N = 1, refused as the command refuses it. Opening another
    scenario or file, or changing a ruling or N, clears the answer (a late answer of an earlier request is dropped).

    Attributes:
        positions: one :class:`.round_view.RoundPosition` per cited step (the file replayed with the rulings chosen).
        trace: the scenario's trace with those rulings. frames / start: the kernel frames played and the state they
            start from. gauges: the loss gauges' HTML widget. forecast_rounds (Dropdown: N), forecast_button,
            forecast (HTML: the answer, ``""`` when none is computed for what is shown).
    """

    css = "dg"

    def __init__(self, scenario_id: str, game: Game):
        self.gauges = W.HTML(layout=W.Layout(max_width="640px"))
        self._offload = None
        self._forecast_key = 0
        self.forecast_rounds = W.Dropdown(options=[1], value=1, layout=W.Layout(width="70px"))
        self.forecast_button = W.Button(description="Forecast", tooltip="P(the heroes lose by the end of round N), "
                                        "exact, playing the file's planned turns (explorer dagger forecast)",
                                        layout=W.Layout(width="100px"))
        self.forecast = W.HTML(layout=W.Layout(max_width="640px"))
        self.forecast.add_class("dg-round-forecast")
        self.forecast_button.on_click(lambda _b: self.compute_forecast())
        self.forecast_rounds.observe(lambda _c: self._clear_forecast(), names="value")
        title = W.HTML(box("<b>Loss forecast</b> <span style='color:#495057'>(the event deck shuffled, the planned "
                           "turns played; exact)</span>", "", "font-size:12px"))
        label = W.HTML(box("by the end of round", "", "white-space:nowrap"))
        row = W.HBox([self.forecast_button, label, self.forecast_rounds],
                     layout=W.Layout(align_items="center", flex_flow="row wrap", grid_gap="8px"))
        block = W.VBox([title, row, self.forecast], layout=W.Layout(max_width="640px", margin="4px 0"))
        block.add_class("dg-round-forecast-block")
        super().__init__(scenario_id, game, opts.rulings().options, label_width="190px", dropdown_width="420px",
                         map_first=False, extra=[self.gauges, block])

    def set_offloader(self, offload) -> None:
        """Compute the forecast through ``offload(compute, apply)`` (the app passes
        :func:`explorer.serving.offload.session_offloader`: off the event loop); without one it is computed at once."""
        self._offload = offload

    def _clear_forecast(self) -> None:
        """Forget the answer shown (and any on its way: its key no longer matches)."""
        self._forecast_key += 1
        self.forecast.value = ""
        self.forecast_button.disabled = False

    def compute_forecast(self) -> None:
        """Compute the forecast for the scenario shown, the rulings chosen and N (see the class docstring)."""
        self._clear_forecast()
        key, sc, n, chosen = self._forecast_key, self.scenario, self.forecast_rounds.value, self.rulings()

        def apply(result) -> None:
            if key != self._forecast_key:     # the page changed meanwhile: this answer is stale
                return
            self.forecast_button.disabled = False
            self.forecast.value = forecast_block_html(result)

        if self._offload is None:
            apply(compute_forecast(sc, n, chosen))
            return
        self.forecast_button.disabled = True
        self.forecast.value = box("computing…", "dg-round-forecast-computing", "color:#868e96;font-size:12px")
        self._offload(lambda: compute_forecast(sc, n, chosen), apply)

    def describe(self, scenario) -> str:
        return box(f"<b>{html.escape(scenario.title)}</b><br><span style='color:#495057'>"
                   f"{html.escape(scenario.board.description)}</span><br><i style='color:#868e96'>"
                   f"{html.escape(STANDINS)}</i>", "dg-about", "font-size:12px")

    def play(self):
        self._clear_forecast()                                     # another file or another reading: recompute
        planned = max(1, min(len(self.scenario.rounds), MAX_PHASES))
        # only the N the exact forecast plays within its bound (the CLI hint's count): an N over it was offered
        # and then refused; a file whose first round is already over the bound keeps N = 1 (refused, with why)
        self._quiet_rounds(list(range(1, max(1, planned_rounds_within(self.scenario, planned)) + 1)))
        played = play_rounds(self.scenario, self.rulings())       # one play: the positions and the trace
        self.frames, _refusal, self.start, _ctx = played
        trace: Trace = round_trace(self.scenario, played)
        return positions_from(self.scenario, self.frames, self.start), trace, trace.result.refused

    def _quiet_rounds(self, options: list[int]) -> None:
        """N's choices (1..the rounds the file plans, at most 5, and at most the rounds the exact forecast plays
        within its bound: :func:`.forecast.planned_rounds_within`), N set to the last when they change."""
        if list(self.forecast_rounds.options) != options:
            self.forecast_rounds.options = options
            self.forecast_rounds.value = options[-1]
        self._clear_forecast()

    def draw(self, pos: RoundPosition, number: int, total: int) -> None:
        self.focus.value = position_html(pos, number, total)
        st = self.frames[pos.shown].state if pos.shown >= 0 else self.start
        marks = [m for m in pos.step.marks if m in self.scenario.world]    # the map draws the state the sheets show
        self.map.value = fit_map(map_svg(self.scenario.world, st.game, highlight=marks, scale=0.6), "dg-map")
        self.gauges.value = gauges_html(st.game, pos.gauges)


def round_page(scenario_id: str, game: Game) -> tuple[RoundStepper, None]:
    """A fresh Round page opened on ``scenario_id`` (a ``round`` built-in): ``(widget, None)``."""
    return RoundStepper(scenario_id, game), None


__all__ = ["RoundStepper", "round_page", "position_html", "round_scenarios", "compute_forecast", "forecast_block_html"]
