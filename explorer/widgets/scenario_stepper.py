"""The parts every "step through a built-in scenario on a board" page shares (game-neutral): the scenario picker, the
note naming the opened scenario with its verdict, the title and description, the ruling dropdowns, the message line,
the trace stepper with the focused step's details under it, the board box, and re-resolving when a reading changes.

Used by the Mass Effect Enemy Activation and the Galaxy Defenders Alien A.I. pages; each subclass lays the parts out
and supplies ``load(scenario_id)``, ``run(keep_step)`` and ``_show_step(step)``.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import ipywidgets as W

from explorer.errors import ExplorerError
from explorer.trace import Trace

from .cards import card_table
from .hexboard import HexBoardView
from .scenario_note import ScenarioNote
from .trace_stepper import TraceStepper

SIDE_WIDTH = "640px"
"""Width cap of the side column's parts."""


def detail_table(head: Sequence[str], rows: Sequence[Sequence[Any]], colours: Sequence[str] | None = None,
                 css_class: str = "") -> str:
    """A focused step's table (HTML, escaped): a ``head`` row, then ``rows`` (cells as ``str()``), row ``i`` on
    background ``colours[i]`` when given; at most 260 px high, scrolling; ``css_class`` names its ``div``. A
    :func:`~explorer.widgets.cards.card_table`: on a phone each row is a card of labelled lines."""
    table = card_table(head, [[html.escape(str(c)) for c in r] for r in rows], head_style="background:#f1f3f5",
                       th_style="text-align:left;padding:1px 6px", td_style="padding:1px 6px",
                       row_attrs=[f" style='background:{colours[i]}'" if colours else "" for i in range(len(rows))])
    return (f"<div class='{css_class}' style='max-height:260px;overflow-y:auto;font-family:sans-serif;"
            f"font-size:12px;line-height:1.25'>{table}</div>")


class ScenarioStepperView(W.VBox):
    """Base of a scenario stepper page (an ``ipywidgets.VBox``); see the module docstring.

    Attributes set by :meth:`_build_parts`: ``picker`` (Dropdown "Scenario"), ``note``
    (:class:`~explorer.widgets.scenario_note.ScenarioNote`), ``about`` / ``message`` / ``detail`` / ``outcome``
    (HTML), ``rulings_box`` (``{ruling key: Dropdown}``), ``stepper`` (:class:`TraceStepper`), ``board_box`` (VBox),
    ``board`` (``None`` until a subclass loads one), ``trace`` and ``frames``.
    """

    def _build_parts(self, scenarios: Sequence[str], scenario_id: str, ruling_options: Mapping[str, Any],
                     keys: Sequence[str], label_width: str, dropdown_width: str, stepper_class: str,
                     under_focus: Sequence[W.Widget] = ()) -> None:
        """Make the shared parts and wire them: picking a scenario calls ``self.load``, a reading ``self.run()``,
        a focused step ``self._show_step``.

        Args:
            scenarios: the picker's built-in ids; ``scenario_id``: the one shown.
            ruling_options: ``{key: RulingOption}`` (``readings``, ``default``, ``title``); ``keys``: those shown.
            label_width / dropdown_width: CSS widths of a ruling dropdown's label and of the whole dropdown.
            stepper_class: CSS class of the stepper. under_focus: widgets shown between the focused step and the
                list of steps, after :attr:`detail`.
        """
        self.trace: Trace | None = None
        self.frames: list = []
        self.picker = W.Dropdown(options=list(scenarios), value=scenario_id, description="Scenario",
                                 layout=W.Layout(width="330px"))
        self.about = W.HTML(layout=W.Layout(max_width=SIDE_WIDTH))
        self.note = ScenarioNote(layout=W.Layout(max_width="900px"))
        self.rulings_box = {k: W.Dropdown(options=list(ruling_options[k].readings), value=ruling_options[k].default,
                                          description=k, tooltip=ruling_options[k].title,
                                          style={"description_width": label_width},
                                          layout=W.Layout(width=dropdown_width))
                            for k in keys}
        self.message = W.HTML()
        self.detail = W.HTML(layout=W.Layout(max_width=SIDE_WIDTH))
        self.outcome = W.HTML(layout=W.Layout(max_width=SIDE_WIDTH))
        self.stepper = TraceStepper(layout=W.Layout(max_width=SIDE_WIDTH))
        self.stepper.add_class(stepper_class)
        bar, focus, body = self.stepper.children      # the focused step's details right under the focused step
        self.stepper.children = [bar, focus, self.detail, *under_focus, body]
        self.board_box = W.VBox()
        self.board: HexBoardView | None = None
        self.picker.observe(lambda c: self.load(c["new"]), names="value")
        for w in self.rulings_box.values():
            w.observe(lambda _c: self.run(), names="value")
        self.stepper.on_step(self._show_step)

    def _board_and_side(self, side: Sequence[W.Widget]) -> W.HBox:
        """The board box with the side column (``side``, top to bottom) beside it, wrapping under it on a narrow
        window: the body every stepper page shows under its picker and note."""
        column = W.VBox(list(side), layout=W.Layout(min_width="360px", max_width="660px", flex="1 1 420px"))
        return W.HBox([self.board_box, column], layout=W.Layout(flex_flow="row wrap", align_items="flex-start",
                                                                grid_gap="12px"))

    def rulings(self) -> dict[str, str]:
        """The readings chosen in the ruling dropdowns."""
        return {k: w.value for k, w in self.rulings_box.items()}

    def _show_about(self, title: str, description: str) -> None:
        self.about.value = (f"<div style='font-family:sans-serif;font-size:13px'><b>{html.escape(title)}</b><br>"
                            f"<span style='color:#495057'>{html.escape(description)}</span></div>")

    def _new_board(self, board, scale: float) -> HexBoardView:
        """A board view for this scenario (nothing rotates in a stepped scenario: no rotate buttons)."""
        self.board = HexBoardView(board, scale=scale)
        for b in (self.board.rotate_left, self.board.rotate_right):
            b.layout.display = "none"
        return self.board

    def _resolve_and_show(self, resolve: Callable[[], Trace], shown: Callable[[Trace], None],
                          keep_step: bool) -> None:
        """Resolve with ``resolve()``; on success keep the trace, call ``shown(trace)`` (frames, outcome...) and
        show the steps, keeping the focused step if asked. Never raises: an error goes to :attr:`message`."""
        idx = self.stepper.index if keep_step else None
        self.message.value = ""
        try:
            trace = resolve()
        except ExplorerError as e:
            self.message.value = f"<span style='color:#c92a2a'>{html.escape(str(e))}</span>"
            return
        self.trace = trace
        self.note.track(self._note_state())     # the note says when the readings or choices differ from as opened
        shown(trace)
        self.stepper.show(trace)
        if idx is not None and trace.steps:
            self.stepper.select(min(idx, len(trace.steps) - 1))

    def _note_state(self) -> str:
        """The readings and choices the page shows, compared by the scenario note with those as opened."""
        return repr((sorted(self.rulings().items()), getattr(self, "choices", None)))

    # subclasses: load(scenario_id), run(keep_step=True), _show_step(step)
    def load(self, scenario_id: str) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def run(self, keep_step: bool = True) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def _show_step(self, step) -> None:  # pragma: no cover - abstract
        raise NotImplementedError


__all__ = ["ScenarioStepperView", "detail_table"]
