"""ipycanvas helpers shared by every board-like widget.

ipycanvas routes all drawing through one module-global canvas manager. Under ``panel serve`` that manager is
bound to the first browser session, so a second session's board stays blank (docs: ``notes/stack.md``, trap 3).
Every canvas made here therefore gets its **own** manager, and :func:`hold` batches the drawing of that manager
into one message (the ipycanvas ``hold_canvas()`` only holds the global one).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from ipycanvas import Canvas
from ipycanvas.canvas import COMMANDS, _CanvasManager  # noqa: F401 (private, pinned: ipycanvas==0.14.3)

from .static import enable_static_fallback, new_manager, recording

if recording():  # the docs build executes notebooks with EXPLORER_STATIC_WIDGETS=1: widgets carry a static picture
    enable_static_fallback()


def own_canvas(width: int, height: int, **kwargs) -> Canvas:
    """A :class:`ipycanvas.Canvas` of ``width`` x ``height`` CSS pixels with a private canvas manager (one that also
    records the drawing when static pictures are on: :mod:`explorer.widgets.static`)."""
    return Canvas(width=width, height=height, _canvas_manager=new_manager(), **kwargs)


@contextmanager
def hold(canvas: Canvas) -> Iterator[Canvas]:
    """Batch every drawing command sent to ``canvas`` (through its own manager) into one message.

    Re-entrant: a nested hold only flushes at the outermost exit.
    """
    mgr = canvas._canvas_manager
    was_caching = mgr._caching
    mgr._caching = True
    try:
        yield canvas
    finally:
        if not was_caching:
            mgr.flush()
            mgr._caching = False


_SET = COMMANDS["set"]


def set_style(canvas: Canvas, **attrs) -> None:
    """Set drawing-state attributes of ``canvas`` (``fill_style``, ``stroke_style``, ``font``, ``line_width``,
    ``text_align``...: the names of :attr:`ipycanvas.Canvas.ATTRS`), in the order given, as ``canvas.<name> = value``
    does: the same ``set`` command to the browser, through the canvas's manager (so :func:`hold` batches it and a
    recording manager records it), but without the trait validation and change notification each attribute
    assignment costs in Python (tens of microseconds each; a crowded board's labels set hundreds per redraw). The
    Python-side attribute keeps its old value: nothing reads it back.

    Raises:
        KeyError: a name that is not a canvas attribute.
    """
    mgr = canvas._canvas_manager
    names = Canvas.ATTRS
    for name, value in attrs.items():
        mgr.send_command(canvas, [_SET, [names[name], value]])


def reset_manager(canvas: Canvas) -> None:
    """Forget which canvas the manager last drew on, so the next command re-sends the canvas switch.

    Needed before a full redraw once a browser connects (trap 4): the front end that missed the earlier switch
    would otherwise draw nowhere.
    """
    canvas._canvas_manager._current_canvas = None
