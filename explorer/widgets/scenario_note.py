"""The line every scenario page shows about the built-in scenario it opened: its id, its title and its verdict.

Game-neutral (no rules): a page passes the strings; the verdict is the game's ``outcome_text`` of the scenario
resolved with its own readings (:meth:`explorer.games.Game.builtin_verdict`), the same text ``explorer resolve``
prints, so a reader can compare the page with the command line at once.
"""

from __future__ import annotations

import html

import ipywidgets as W

NOTE_CLASS = "scenario-note"
"""The CSS class of every :class:`ScenarioNote` (browser tests find it by this class)."""


def note_html(scenario_id: str, title: str, verdict: str = "", *, what: str = "Scenario") -> str:
    """HTML for "Scenario <id>: <title>" and, when given, the verdict as preformatted text.

    Args:
        scenario_id: the built-in id (``"me-04"``).
        title: its ``title``.
        verdict: the outcome text (several lines), or ``""``.
        what: the first word ("Scenario", "Order").
    """
    head = (f"<div class='scenario-note-head' style='font-family:sans-serif;font-size:13px;color:#343a40'>"
            f"{html.escape(what)} <b><code>{html.escape(scenario_id)}</code></b>: {html.escape(title)}</div>")
    if not verdict:
        return head
    return (head + "<pre class='scenario-note-verdict' style='font-size:12px;white-space:pre-wrap;line-height:1.35;"
            "margin:2px 0;padding:4px 6px;background:#f8f9fa;border-left:3px solid #1c7ed6;max-width:900px'>"
            f"{html.escape(verdict)}</pre>")


class ScenarioNote(W.HTML):
    """An ``ipywidgets.HTML`` naming the opened scenario and its verdict; empty until :meth:`show`."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.add_class(NOTE_CLASS)
        self.scenario_id: str | None = None

    def show(self, scenario_id: str | None, title: str = "", verdict: str = "", *, what: str = "Scenario") -> None:
        """Name ``scenario_id`` (``None``: clear the note, e.g. the page now shows something else)."""
        self.scenario_id = scenario_id
        self.value = "" if scenario_id is None else note_html(scenario_id, title, verdict, what=what)


__all__ = ["ScenarioNote", "note_html", "NOTE_CLASS"]
