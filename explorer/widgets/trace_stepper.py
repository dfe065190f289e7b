"""TraceStepper: a trace (:class:`explorer.trace.Trace`) as a numbered, sectioned step list with prev/next.

Every step shows the rulebook section it cites. The current step is highlighted; listeners get the step (or
``None`` for "all steps") so a board or dice tray can highlight the step's ``marks``.
"""

from __future__ import annotations

import html
from collections.abc import Callable

import ipywidgets as W

from explorer.trace import Step, Trace

_CSS = """
<style>
.xt-trace{font-family:sans-serif;font-size:13px;line-height:1.35;max-height:680px;overflow-y:auto;
  border:1px solid #dee2e6;border-radius:6px;padding:4px 10px;background:#fff}
.xt-trace h5{margin:8px 0 3px 0;font-size:13px;color:#495057;text-transform:uppercase;letter-spacing:.04em}
.xt-step{padding:4px 6px;border-radius:4px;margin:1px 0}
.xt-step.cur{background:#d0ebff;outline:1px solid #1c7ed6}
.xt-num{display:inline-block;min-width:1.6em;color:#868e96}
.xt-rule{display:inline-block;font-size:11px;color:#1864ab;background:#e7f5ff;border-radius:3px;padding:0 5px;
  margin-left:4px;white-space:nowrap}
.xt-detail{color:#495057;margin-left:1.6em}
.xt-rulings{margin-top:6px;font-size:12px;color:#495057}
.xt-rulings code{background:#f1f3f5;padding:0 3px;border-radius:3px}
</style>
"""


def render_trace_html(trace: Trace, current: int | None = None) -> str:
    """HTML for ``trace``: steps grouped by section, each citing its rule; step ``current`` highlighted."""
    out = [_CSS, "<div class='xt-trace'>"]
    section = None
    for i, s in enumerate(trace.steps):
        if s.section != section:
            section = s.section
            if section:
                out.append(f"<h5>{html.escape(section)}</h5>")
        cls = "xt-step cur" if i == current else "xt-step"
        out.append(f"<div class='{cls}' data-step='{i}'><span class='xt-num'>{i + 1}.</span>"
                   f"<b>{html.escape(s.title)}</b><span class='xt-rule'>§ {html.escape(str(s.rule))}</span>")
        if s.detail:
            out.append(f"<div class='xt-detail'>{html.escape(s.detail)}</div>")
        out.append("</div>")
    if trace.rulings:
        out.append("<div class='xt-rulings'>Ruling options used: " + ", ".join(
            f"<code>{html.escape(k)} = {html.escape(v)}</code>" for k, v in sorted(trace.rulings.items())) + "</div>")
    out.append("</div>")
    return "".join(out)


def render_focus_html(step: Step, index: int) -> str:
    """The focused step, large: number, section, title, cited rule and detail."""
    return (f"<div style='font-family:sans-serif;border-left:4px solid #1c7ed6;background:#e7f5ff;padding:6px 10px;"
            f"margin:4px 0;border-radius:4px'><div style='font-size:11px;color:#1864ab;text-transform:uppercase'>"
            f"Step {index + 1} · {html.escape(step.section)}</div><div style='font-size:15px;font-weight:bold'>"
            f"{html.escape(step.title)}</div><div style='font-size:12px;color:#1864ab'>§ {html.escape(str(step.rule))}"
            f"</div>" + (f"<div style='font-size:13px;color:#343a40'>{html.escape(step.detail)}</div>" if step.detail
                         else "") + "</div>")


class TraceStepper(W.VBox):
    """Prev / next / all over a :class:`Trace`.

    Attributes:
        index: the current step (``None`` when every step is shown without focus).
    """

    def __init__(self, **kwargs):
        self.trace = Trace("")
        self.index: int | None = None
        self._callbacks: list[Callable[[Step | None], None]] = []
        self.prev_button = W.Button(description="◀ Prev", layout=W.Layout(width="80px"))
        self.next_button = W.Button(description="Next ▶", layout=W.Layout(width="80px"))
        self.all_button = W.Button(description="All steps", layout=W.Layout(width="90px"))
        self.position = W.HTML()
        self.body = W.HTML()
        self.focus = W.HTML()
        self.prev_button.on_click(lambda _: self.go(-1))
        self.next_button.on_click(lambda _: self.go(+1))
        self.all_button.on_click(lambda _: self.select(None))
        bar = W.HBox([self.prev_button, self.next_button, self.all_button, self.position],
                     layout=W.Layout(align_items="center"))
        super().__init__([bar, self.focus, self.body], **kwargs)

    def show(self, trace: Trace) -> None:
        """Display ``trace`` with no step focused."""
        self.trace = trace
        self.select(None)

    def on_step(self, callback: Callable[[Step | None], None]) -> None:
        """Call ``callback(step)`` when the focused step changes (``None``: all steps)."""
        self._callbacks.append(callback)

    def go(self, delta: int) -> None:
        n = len(self.trace.steps)
        if not n:
            return
        if self.index is None:
            self.select(0 if delta > 0 else n - 1)
        else:
            self.select(max(0, min(n - 1, self.index + delta)))

    def select(self, index: int | None) -> None:
        """Focus step ``index`` (0-based) or none."""
        self.index = index
        n = len(self.trace.steps)
        self.position.value = (f"&nbsp;step {index + 1} of {n}" if index is not None
                               else f"&nbsp;{n} steps")
        # a button that would do nothing is disabled (from "all steps" both lead somewhere)
        self.prev_button.disabled = not n or index == 0
        self.next_button.disabled = not n or index == n - 1
        self.body.value = render_trace_html(self.trace, index)
        step = self.trace.steps[index] if index is not None and 0 <= index < n else None
        self.focus.value = "" if step is None else render_focus_html(step, index)
        for cb in self._callbacks:
            cb(step)
