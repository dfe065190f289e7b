"""The pane every served widget tree is shown in: local widget JavaScript, shared style models, deferred work and
early repaints.

Not a patch itself: :func:`served_pane` applies the patches a served page needs (the binary-message reader,
:mod:`explorer.serving.binary_messages`; shared style models, :mod:`explorer.serving.shared_styles`; the local
JavaScript prefix, :mod:`explorer.serving.widget_js`) and works around two of ``notes/stack.md``'s traps with public
Panel API: drawing done before the browser connects is lost (trap 4: redraw in ``pn.state.onload``), and Panel's
``onload`` waits for every widget view, so a few early repaints run before it (``docs/design.md`` item 13b). Works
in a notebook too (then only the pane is made).
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import islice

from .binary_messages import accept_binary_widget_messages
from .offload import find_offloadable, offload_enabled, session_offloader
from .phone import phone_page
from .shared_styles import share_style_models
from .widget_js import local_js_pane
from .widget_tree import walk_widgets

EARLY_REDRAW_MS = 1000
"""Period (ms) of the repaints :func:`served_pane` sends before the page reports it has loaded (0: none)."""
EARLY_REDRAWS = 12
"""How many such repaints at most (they stop as soon as the page has loaded)."""


def served_pane(widget, redraw: Callable[[], None] | None = None, **kwargs):
    """Wrap an ipywidget in a Panel pane that loads widget JavaScript from this server
    (:func:`~explorer.serving.widget_js.widget_js_prefix`).

    Args:
        widget: any ipywidget (e.g. a composite ``VBox``); a widget with ``set_scheduler(schedule)`` is given a
            ``schedule(callback, delay_ms)`` that runs work in the session's timeout callbacks; every widget of the
            tree with ``set_offloader(offload)`` is given a :class:`~explorer.serving.offload.SessionOffloader`
            (unless ``EXPLORER_OFFLOAD=0``: :func:`~explorer.serving.offload.offload_enabled`).
        redraw: called once the browser page has loaded (``pn.state.onload``) to repaint canvases.
        kwargs: passed to the pane (``sizing_mode``, ``margin``...); ``sizing_mode`` is ``"stretch_width"`` unless
            given (the pane as wide as its column: a served notebook's ``served_pane(w).servable()`` was laid out 520
            to 540 px wide, a phone scrolled it sideways).

    In a served session the widget tree's equal ``layout`` / ``style`` models are shared first
    (:func:`share_style_models`).

    Returns:
        the Panel pane (a ``pn.pane.IPyWidget`` subclass).
    """
    attach_session(widget, redraw)
    kwargs.setdefault("sizing_mode", "stretch_width")
    return local_js_pane(widget, **kwargs)


def find_redraws(widget) -> list[Callable[[], None]]:
    """The ``redraw`` methods of the outermost widgets of ``widget``'s tree (itself, or its ``children``, depth
    first) that have one: what repaints every canvas of a widget shown without its page's own ``redraw`` (a
    notebook cell's output, :mod:`explorer.serving.notebook`). At most 50."""
    has_redraw = lambda w: callable(getattr(w, "redraw", None))  # noqa: E731
    return [w.redraw for w in islice(filter(has_redraw, walk_widgets(widget, prune=has_redraw)), 50)]


def attach_session(widget, redraw: Callable[[], None] | None = None) -> None:
    """The session side of :func:`served_pane` (no pane): in a served session, share ``widget``'s style models,
    give it a scheduler (``set_scheduler``) and repaint with ``redraw`` before and when the page has loaded. Outside
    a served session only the binary-message reader is installed."""
    import panel as pn

    accept_binary_widget_messages()   # a FileUpload's file reaches the server (once per process)
    doc = pn.state.curdoc
    if doc is not None:   # a served session: fewer front-end models, before the page's state is taken
        share_style_models(widget)
        phone_page()   # the viewport meta and the phone stylesheet (also on served notebooks and apps/*.py)
    if doc is not None and callable(getattr(widget, "set_scheduler", None)):
        # work the widget can do after its answer is on screen runs in this session's timeout callbacks (under
        # the document lock, after the changes of the current callback have been sent)
        def schedule(callback: Callable[[], None], delay_ms: int) -> None:
            def run() -> None:
                try:
                    callback()
                except Exception:  # e.g. the session ended meanwhile: logged, never raised into Bokeh's loop
                    import logging

                    logging.getLogger(__name__).exception("deferred widget work failed")
            try:
                doc.add_timeout_callback(run, int(delay_ms))
            except Exception:  # a closed document: run nothing
                pass

        widget.set_scheduler(schedule)
    if doc is not None and offload_enabled():
        # heavy computations (a crowded Line of Fire table) run on a worker thread, their answers drawn back under
        # this session's document lock: other sessions' clicks are not held behind them (explorer.serving.offload)
        for w in find_offloadable(widget):
            w.set_offloader(session_offloader(doc))
    if doc is not None and redraw is not None:
        early = None
        if EARLY_REDRAW_MS:
            # Panel's onload waits for the browser's DocumentReady, which comes only after every widget model and
            # view exists (seconds on a loaded machine); a canvas model draws as soon as it exists, so repaint a
            # few times before that: commands sent before the model exists are dropped, later ones show at once
            def early_redraw() -> None:
                try:
                    redraw()
                except Exception:  # e.g. the session ended meanwhile: stop trying
                    early.stop()

            early = pn.state.add_periodic_callback(early_redraw, period=EARLY_REDRAW_MS, count=EARLY_REDRAWS)
            pn.state.on_session_destroyed(lambda ctx: early.stop())

        def loaded() -> None:
            if early is not None:
                early.stop()
            redraw()
        pn.state.onload(loaded)
