"""One layer per patch over how a served session reads a browser's widget message (shared by
:mod:`explorer.serving.comm_opens` and :mod:`explorer.serving.binary_messages`; not a patch itself).

Private API (pinned panel==1.9.4, ipywidgets_bokeh==1.8.0): ``panel.io.ipywidget.PanelSessionWebsocket.receive``,
the handler Panel registers for the ``ipywidgets_bokeh`` messages of a session's document.
"""

from __future__ import annotations

from collections.abc import Callable

from .versions import could_not_apply


def wrap_session_receive(marker: str, wrap: Callable, patch: str) -> bool:
    """Replace ``PanelSessionWebsocket.receive`` by ``wrap(previous receive)``, once per process.

    Args:
        marker: names this layer; every layer keeps the markers of those under it, so applying any of them again
            (each page build asks) never stacks a second layer.
        wrap: ``receive -> receive``.
        patch: the patch's name in :data:`explorer.serving.versions.PATCHES`, for the log line when Panel has no
            such class (another Panel, or no ipywidgets_bokeh).

    Returns:
        whether the layer is in place.
    """
    try:
        from panel.io.ipywidget import PanelSessionWebsocket
    except Exception as e:   # another Panel or no ipywidgets_bokeh: leave it alone, and say so
        could_not_apply(patch, e)
        return False
    receive = PanelSessionWebsocket.receive
    markers = set(getattr(receive, "_explorer_patches", ()))
    if marker in markers:
        return True
    wrapped = wrap(receive)
    wrapped._explorer_patches = frozenset(markers | {marker})
    PanelSessionWebsocket.receive = wrapped
    return True
