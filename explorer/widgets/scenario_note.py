"""The line every scenario page shows about the built-in scenario it opened: its id, its title and its verdict (the
Round pages and the Order Expenditure Sequence page show it for a file the user opened too: its name, its title and
its verdict, :meth:`explorer.games.Game.verdict`).

Game-neutral (no rules): a page passes the strings; the verdict is the game's ``outcome_text`` of the scenario
resolved with its own readings (:meth:`explorer.games.Game.builtin_verdict`), the same text ``explorer resolve``
prints, so a reader can compare the page with the command line at once.
"""

from __future__ import annotations

import html
from typing import Any

import ipywidgets as W

NOTE_CLASS = "scenario-note"
"""The CSS class of every :class:`ScenarioNote` (browser tests find it by this class)."""


CHANGED_STATIC = ("The outcome below is the scenario's as opened \u2014 the page has changed since; the live verdict is "
                  "in the page's result and steps.")
"""What a note says above a verdict it computed when the scenario opened, once the page's inputs differ."""

CHANGED_LIVE = ("Changed since it was opened \u2014 the outcome below follows the page, not the built-in scenario.")
"""What a note says above a verdict it recomputes with the page (``live``), once the page's inputs differ."""


def note_html(scenario_id: str, title: str, verdict: str = "", *, what: str = "Scenario", changed: bool = False,
              live: bool = False) -> str:
    """HTML for "Scenario <id>: <title>" and, when given, the verdict as preformatted text.

    Args:
        scenario_id: the built-in id (``"me-04"``).
        title: its ``title``.
        verdict: the outcome text (several lines), or ``""``.
        what: the first word ("Scenario", "Order").
        changed: the page's inputs differ from the scenario as opened: the note says so in words
            (:data:`CHANGED_STATIC`, or :data:`CHANGED_LIVE` when ``live``) and greys the verdict, so a screenshot
            never shows the opened verdict as the page's.
        live: the verdict is recomputed from the page's inputs (not the built-in's own).
    """
    head = (f"<div class='scenario-note-head' style='font-family:sans-serif;font-size:13px;color:#343a40'>"
            f"{html.escape(what)} <b><code>{html.escape(scenario_id)}</code></b>: {html.escape(title)}</div>")
    if not verdict:
        return head
    stale = ""
    colour, bar = "", "#1c7ed6"
    if changed:
        stale = (f"<div class='scenario-note-changed' style='font-family:sans-serif;font-size:12px;color:#e8590c'>"
                 f"{html.escape(CHANGED_LIVE if live else CHANGED_STATIC)}"
                 "</div>")
        colour, bar = "color:#868e96;", "#adb5bd"
    return (head + stale + f"<pre class='scenario-note-verdict' style='font-size:12px;white-space:pre-wrap;"
            f"line-height:1.35;margin:2px 0;padding:4px 6px;background:#f8f9fa;border-left:3px solid {bar};{colour}"
            f"max-width:900px'>{html.escape(verdict)}</pre>")


NEXT = object()
"""``ScenarioNote.show(..., state=NEXT)``: the page's state as opened is the one its next ``track`` reports."""


class ScenarioNote(W.HTML):
    """An ``ipywidgets.HTML`` naming the opened scenario and its verdict; empty until :meth:`show`.

    It follows the page: :meth:`show` takes the page's state as opened (any comparable value, e.g. its
    ``url_state()``) and :meth:`track` the current one after each change; while they differ the note says the
    verdict is the scenario's as opened (:data:`CHANGED_STATIC`) or, for a verdict the page recomputes (``live``),
    that it no longer is the built-in's (:data:`CHANGED_LIVE`).
    """

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.add_class(NOTE_CLASS)
        self.scenario_id: str | None = None
        self.changed = False
        self._parts: tuple = ()
        self._opened: Any = None

    def show(self, scenario_id: str | None, title: str = "", verdict: str = "", *, what: str = "Scenario",
             state: Any = None, live: bool = False) -> None:
        """Name ``scenario_id`` (``None``: clear the note, e.g. the page now shows something else).

        Args:
            state: the page's state now (:data:`NEXT`: the state given to the next :meth:`track`, for a page that
                settles after the note is shown). A first :meth:`show` of ``scenario_id`` records it as the state as opened;
                a later one of the same id (a page that recomputes its ``live`` verdict) compares with it.
            live: ``verdict`` follows the page's inputs (see :data:`CHANGED_LIVE`).
        """
        same = (scenario_id is not None and scenario_id == self.scenario_id and self._opened is not None
                and self._opened is not NEXT)
        self.scenario_id = scenario_id
        if not same:
            self._opened = state
        self._parts = (scenario_id, title, verdict, what, live)
        self.changed = same and state is not None and state != self._opened
        self._render()

    def track(self, state: Any) -> None:
        """The page's state after a change: the note says so when it differs from the state as opened (and takes it
        back when the page returns to it). No effect before a :meth:`show` with a ``state``."""
        if self.scenario_id is None or self._opened is None:
            return
        if self._opened is NEXT:
            self._opened = state
        changed = state != self._opened
        if changed != self.changed:
            self.changed = changed
            self._render()

    def _render(self) -> None:
        sid, title, verdict, what, live = self._parts
        self.value = "" if sid is None else note_html(sid, title, verdict, what=what, changed=self.changed,
                                                      live=live)


__all__ = ["ScenarioNote", "note_html", "NOTE_CLASS", "CHANGED_STATIC", "CHANGED_LIVE", "NEXT"]
