"""Icons drawn without icon fonts: the pages never need a font from outside the page.

ipywidgets draws an ``Accordion`` header's arrow as a Font Awesome glyph (``<i class="fa fa-caret-right">``). Under
``explorer serve`` that font is declared twice: by Panel's local Font Awesome stylesheet, and by ipywidgets_bokeh's
bundle, whose ``@font-face`` rules were built with ``url([object Module])`` (a bundler module object turned into a
string instead of its file URL). The later rule wins, so the first arrow drawn made the browser request
``/[object Module]`` (a 404) and drew an empty box; in a notebook served without Panel's local copy the font came
from a CDN. :data:`ICON_CSS` draws the arrows with CSS borders in the text colour and sets the icons' font back to
the text's: no glyph of any icon font is ever needed, so no such font is ever requested.

Every Accordion on a page is made by :func:`accordion`, which carries the rule (a ``<style>`` inside the widget tree
works inside Panel's shadow DOM and in JupyterLab alike).
"""

from __future__ import annotations

from collections.abc import Sequence

import ipywidgets as W

ICON_STYLE_CLASS = "xr-icon-style"
"""The CSS class of the style widget :func:`accordion` adds (tests find it by this class)."""

ICON_CSS = """<style>
.jupyter-widget-Collapse-header i.fa{font-family:inherit !important;width:12px;display:inline-block;
  text-align:left;vertical-align:middle}
.jupyter-widget-Collapse-header i.fa::before{content:"" !important;display:inline-block;width:0;height:0;
  border-style:solid;border-color:transparent;border-width:5px 0 5px 7px;border-left-color:currentColor}
.jupyter-widget-Collapse-header i.fa.fa-caret-down::before{border-width:7px 5px 0 5px;border-color:transparent;
  border-top-color:currentColor}
</style>"""
"""Accordion arrows as CSS triangles (right: closed, down: open), in the header's text colour, with no icon font."""


def icon_style() -> W.HTML:
    """An invisible ``ipywidgets.HTML`` carrying :data:`ICON_CSS` (class :data:`ICON_STYLE_CLASS`)."""
    w = W.HTML(ICON_CSS, layout=W.Layout(height="0px", width="0px", margin="0", overflow="hidden"))
    w.add_class(ICON_STYLE_CLASS)
    return w


def accordion(children: Sequence[W.Widget], titles: Sequence[str], layout: W.Layout | None = None) -> W.VBox:
    """An ``ipywidgets.Accordion`` whose arrows need no icon font (:data:`ICON_CSS`), in a ``VBox`` after the style
    (:func:`icon_style`; a closed section's widgets are not drawn, so the style cannot live inside one).

    Args:
        children: the sections' widgets.
        titles: one title per section.
        layout: the box's layout (``max_width``...).

    Returns:
        the ``VBox``; its ``accordion`` attribute is the ``ipywidgets.Accordion`` (observe ``selected_index`` there).
    """
    acc = W.Accordion(list(children), titles=tuple(titles))
    box = W.VBox([icon_style(), acc], layout=layout or W.Layout())
    box.accordion = acc
    return box
