"""Game-agnostic widgets (ipywidgets + ipycanvas): hex board, dice tray, odds chart, trace stepper. Serving them with
Panel is :mod:`explorer.serving`.

Every canvas gets its own canvas manager (see :mod:`explorer.widgets.canvas`) so the same widget works in
JupyterLab and in any number of ``panel serve`` browser sessions.
"""

from .canvas import hold, own_canvas, reset_manager
from .hexboard import HexBoardView, Piece
from .dice_tray import DiceTray, DieView, Link, Row
from .odds_chart import Distribution, OddsChart, Outcome, percent
from .trace_stepper import TraceStepper, render_trace_html

__all__ = ["DiceTray", "DieView", "Distribution", "HexBoardView", "Link", "OddsChart", "Outcome", "Piece", "Row",
           "TraceStepper", "hold", "own_canvas", "percent", "render_trace_html", "reset_manager"]
