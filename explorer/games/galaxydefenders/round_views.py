"""The Round page of Galaxy Defenders: a ``round`` scenario stepped one cited step at a time (Prev / Next / the
slider), drawn from the kernel frames (:func:`.round.round_frames`) through :mod:`.round_picture`: the focused step
and the section it cites, the map with every figure as of that step (:func:`.round_picture.positions_from`; the
frame's walks and attacks so far drawn), the agents' sheets, the NPCs and the aliens, the Close Encounter card last drawn, the ruling options and every
step. The scenario (or an opened file), the readings and the step are in the page's link; Download saves the round
file, Open reads one (the format ``explorer resolve`` reads). The page body is the shared
:class:`explorer.widgets.round_stepper.RoundStepperView`. Widgets only: the rules are in :mod:`.round` and
:mod:`.round_map`.

The Alien A.I. page (:mod:`.ai_views`) steps one activation; this page plays the whole round, each alien's
activation and each NPC's inside it. Rulebook sections: 6 Game Sequence and whatever each step cites.
"""

from __future__ import annotations

import html

import ipywidgets as W

from explorer.games import Game
from explorer.trace import Trace
from explorer.widgets.round_stepper import PHONE_ORDER_MAX_WIDTH, RoundStepperView, box, fit_map

from . import options as opts
from .round_picture import FRAME_NOTE, MAP_LEGEND, STANDINS, RoundPosition, card_html, focus_html, map_svg, positions_from, \
    sheets_html


WIDE_MIN_WIDTH = 1000
"""Window width (CSS px) from which :data:`WIDE_CSS` lays the page out in two grid columns: the map column at most
760 px (scaled down to fit, :func:`explorer.widgets.round_stepper.fit_map`: about 630 px at 1000), the step column
at least 340, the gap and the page's margins. Below it (down to the phone layout) the map has a row of its own."""

WIDE_CSS = (
    f"<style>@media (min-width:{WIDE_MIN_WIDTH}px){{"
    ".gd-round .xr-round-main{display:grid !important;grid-template-columns:minmax(0,760px) minmax(340px,1fr);"
    "grid-template-rows:auto 1fr;align-items:start;column-gap:12px;row-gap:12px}"
    ".gd-round .xr-round-main>.xr-round-left{grid-column:1;grid-row:1}"
    ".gd-round .xr-round-main>.xr-round-side{grid-column:2;grid-row:1 / span 2}"
    ".gd-round .xr-round-main>.xr-round-about{grid-column:1;grid-row:2}"
    "}"
    f"@media (min-width:{PHONE_ORDER_MAX_WIDTH + 1}px) and (max-width:{WIDE_MIN_WIDTH - 1}px){{"
    ".gd-round .xr-round-main>.xr-round-left{flex:1 1 100% !important;max-width:100%}"
    "}</style>")
"""The Round page on a wide window: the scenario's title box right under the map, in the map's column, beside the
taller step column (the card and the sheets under the step); before, the flex row wrapped the title box under both
columns and left an empty gap under the map as tall as the sheets (the audit, at 1280 px; from 1000 px since session
13: between 1000 and 1120 px the flex row still put a small map, or a round without one, beside the step with the
title box under both, or left the map alone in its row with an empty band beside it). Between the phone layout and
:data:`WIDE_MIN_WIDTH` the map takes a row of its own, whatever its size, so the step column and the title box follow
it with no gap; a phone keeps :data:`explorer.widgets.round_stepper.ROUND_PHONE_CSS`."""


def round_scenarios(game: Game) -> list[str]:
    """The game's built-in scenarios of kind ``round``, those on a map first."""
    names = [s.name for s in game.scenarios() if s.kind == "round"]
    return sorted(names, key=lambda n: (not n.endswith("-map"), names.index(n)))


class RoundStepper(RoundStepperView):
    """The Galaxy Defenders Round page (:class:`explorer.widgets.round_stepper.RoundStepperView`): the map beside the
    focused step, the Close Encounter card and the sheets under the step.

    Attributes:
        positions: one :class:`.round_picture.RoundPosition` per cited step (the file replayed with the rulings
            chosen); trace: its trace; amap: the scenario's map (``None``: a round without a ``[map]``);
        card, sheets: the Close Encounter card's and the sheets' HTML widgets.
    """

    css = "gd"

    def __init__(self, scenario_id: str, game: Game):
        self.amap = None
        self.card = W.HTML(layout=W.Layout(max_width="660px"))
        self.sheets = W.HTML(layout=W.Layout(max_width="660px"))
        super().__init__(scenario_id, game, opts.rulings().options, label_width="220px", dropdown_width="460px",
                         map_first=True, extra=[self.card, self.sheets, W.HTML(WIDE_CSS)])

    def scenario_names(self, game: Game) -> list[str]:
        return round_scenarios(game)

    def opened(self, scenario, name: str) -> None:
        from .round_map import map_of

        self.amap = map_of(scenario)

    def describe(self, scenario) -> str:
        return box(f"<b>{html.escape(scenario.title)}</b><br><span style='color:#495057'>"
                   f"{html.escape(scenario.description)}</span><br><i class='gd-standins' style='color:#868e96'>"
                   f"{html.escape(STANDINS)} {html.escape(FRAME_NOTE)}</i>", "gd-round-about", "font-size:12px")

    def play(self):
        from .options import rulings as make_rulings
        from .round import round_frames

        r = make_rulings({**self.scenario.rulings, **self.rulings()})
        frames = round_frames(self.scenario, r)   # a refused choice raises: the page shows it under the step
        trace = Trace(self.scenario.title, [s for f in frames for s in f.steps], dict(r.consulted))
        return positions_from(frames), trace, None

    def draw(self, pos: RoundPosition, number: int, total: int) -> None:
        self.focus.value = focus_html(pos, number, total)
        self.card.value = card_html(pos)
        self.sheets.value = sheets_html(pos)
        self.map.value = (fit_map(map_svg(self.amap, pos, self.scenario.title) + MAP_LEGEND, "gd-round-map")
                          if self.amap is not None
                          else box("This round has no [map]: its activities are checked, not walked or rolled (the "
                                   "file's figures have no hexes).", "gd-round-map", "color:#868e96"))

    def clear_drawn(self) -> None:
        """A round refused while it was played has no step: no Close Encounter card and no sheets (they showed the
        previous round's step under the new file's name)."""
        self.card.value = self.sheets.value = ""

    def load_toml(self, text: str, name: str = "uploaded file") -> None:
        """Show a round file's ``text`` (its ``name`` in messages): :meth:`open_text`.

        Raises:
            ScenarioError: not valid TOML, not a Galaxy Defenders ``round`` scenario, or an invalid field (the page
                keeps what it shows).
        """
        self.open_text(text, name)


def round_page(scenario_id: str, game: Game) -> tuple[RoundStepper, None]:
    """A fresh Round page opened on ``scenario_id`` (a ``round`` built-in): ``(widget, None)``."""
    return RoundStepper(scenario_id, game), None


__all__ = ["RoundStepper", "round_page", "round_scenarios"]
