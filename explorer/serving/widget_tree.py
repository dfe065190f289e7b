"""One walk over a widget tree, shared by the served-page helpers that look for widgets offering a hook
(:func:`explorer.serving.pane.find_redraws`, :func:`explorer.serving.offload.find_offloadable`)."""

from __future__ import annotations

from collections.abc import Callable, Iterator

MAX_VISITED = 5_000
"""The most widgets one walk visits (a guard against a tree built in a loop)."""


def walk_widgets(widget, *, prune: Callable[[object], bool] | None = None) -> Iterator[object]:
    """``widget`` and the widgets under it (its ``children``, a list or tuple, depth first, in order), each once,
    at most :data:`MAX_VISITED`. A widget for which ``prune(widget)`` is true is yielded but its children are not
    visited."""
    seen: set[int] = set()
    stack = [widget]
    while stack and len(seen) < MAX_VISITED:
        w = stack.pop()
        if id(w) in seen:
            continue
        seen.add(id(w))
        yield w
        if prune is not None and prune(w):
            continue
        children = getattr(w, "children", None)
        if isinstance(children, (list, tuple)):
            stack.extend(reversed(children))
