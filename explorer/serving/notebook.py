"""Every notebook a Panel app as it stands: the first code cell of each notebook and tutorial calls
:func:`notebook_app`, so ``panel serve notebooks/*.ipynb tutorials/*.ipynb`` (no extra flag), ``explorer serve
notebooks/*.ipynb`` and jupyter-panel-proxy on Binder serve it working.

Under a Panel server (``panel serve``: the cell runs in a module named ``bokeh_app_...``) it

- loads Panel's ``ipywidgets`` extension (trap 1 of ``notes/stack.md``; never in Jupyter, where it would break the
  notebook's own widget manager);
- serves the local ipycanvas bundle through Bokeh's ``/static/extensions/`` route, with no ``--static-dirs``
  (:func:`explorer.serving.widget_js.register_widget_js_route`, trap 2);
- makes every ipywidget a cell shows (Panel lays a notebook's cell outputs out with ``pn.panel``) a pane that
  loads that bundle, shares style models, and repaints its canvases before and when the page has loaded (trap 4):
  a pane type ranked above Panel's own ``IPyWidget``, whose repaint is the ``redraw`` of the outermost widgets of
  the shown tree that have one (:func:`explorer.serving.pane.find_redraws`);
- serves Panel's stylesheets and fonts from this server (:func:`explorer.serving.resources.local_resources`) and
  lets uploaded files reach the page (:func:`explorer.serving.binary_messages.accept_binary_widget_messages`);
- gives the notebook's page template (Panel's ``EditableTemplate``) the viewport meta
  (:func:`explorer.serving.phone.phone_notebook_template`), so a phone lays it out at its own width and the phone
  stylesheet applies, as on ``explorer serve``'s pages.

Trap 3 (one canvas manager per board) is kept by the widgets themselves; trap 6 (every cell runs once per browser
session) by the notebooks, which guard demo and timing cells with ``if not pn.state.served:``.

Trap 8 (found here, Panel 1.9.4): a served notebook shows a cell's ``display()`` calls only when the cell ends in an
expression; a cell ending in a statement (``if ...: display(w)``) leaves them in Panel's module-global list, where the
next session's first expression cell picks them up (another session's widget). The first visitor of such a page sees
nothing. The notebooks therefore end a cell that shows something in the expression itself
(``HTML(...) if static else widget``); ``tests/serving/test_notebook_cells.py`` asks Panel's own cell parser.

In Jupyter (or nbval) it does nothing and returns ``None``.
"""

from __future__ import annotations

import sys

PANE_PRIORITY = 0.9
"""The rank of :func:`notebook_pane_class` among Panel's pane types (Panel's ``IPyWidget`` is 0.6): ``pn.panel`` of
an ipywidget makes one of these once :func:`notebook_app` has run in the process."""


def _served(depth: int = 2) -> bool:
    """Whether the code ``depth`` frames up runs under ``panel serve`` (Panel's own test, ``pn.state.served``, reads
    its caller's module name, so it must be asked about the notebook's frame, not this module's)."""
    try:
        name = sys._getframe(depth).f_globals.get("__name__", "")
    except ValueError:
        return False
    return isinstance(name, str) and name.startswith("bokeh_app_")


class _Cls:
    pane = None


def notebook_pane_class():
    """The pane type a served notebook's ipywidget outputs are shown in (created on first use; a subclass of
    :func:`explorer.serving.widget_js.local_js_pane_class` ranked :data:`PANE_PRIORITY`)."""
    if _Cls.pane is None:
        from .pane import attach_session, find_redraws
        from .widget_js import local_js_pane_class

        base = local_js_pane_class()

        class NotebookWidget(base):
            """An ipywidget shown by a served notebook: local widget JavaScript, and its canvases repainted."""

            priority = PANE_PRIORITY

            def __init__(self, object=None, **params):
                super().__init__(object, **params)
                if object is not None:
                    redraws = find_redraws(object)

                    def redraw() -> None:
                        for r in redraws:
                            r()
                    attach_session(object, redraw if redraws else None)

        _Cls.pane = NotebookWidget
    return _Cls.pane


def notebook_app() -> None:
    """Set a served notebook up (see the module docstring); nothing in Jupyter. Call it in the notebook's first code
    cell. Idempotent within a process.

    Raises:
        FileNotFoundError: served, and ipycanvas is installed without its front-end files.
    """
    if not _served():
        return None
    import panel as pn

    from .binary_messages import accept_binary_widget_messages
    from .components_fence import fence_components
    from .resources import local_resources
    from .phone import phone_notebook_template
    from .ws_refusals import quiet_websocket_refusals
    from .ws_nodelay import websocket_nodelay
    from .widget_js import register_widget_js_route, widget_js_prefix

    pn.extension("ipywidgets")
    register_widget_js_route()   # the bundle's route, even when explorer serve's own static route is the prefix
    widget_js_prefix()
    notebook_pane_class()
    local_resources()
    accept_binary_widget_messages()
    fence_components()   # plain `panel serve` of a notebook: /components/ imports no module either
    quiet_websocket_refusals()
    websocket_nodelay()   # each websocket frame leaves at once (no delayed-ACK pause inside an answer)
    phone_notebook_template()   # the notebook's page template declares the viewport: phones lay it out at their width
    return None
