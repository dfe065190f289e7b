"""Phones: every served page declares a viewport, and at narrow widths its text is readable and its controls are
big enough to tap (issue 23, item 1).

Not a patch: public Panel and Bokeh API only, no version check.

* :data:`VIEWPORT_META` — without ``<meta name="viewport">`` a phone lays the page out 980 px wide and shows it at
  about 40 %: 13 px text becomes about 5 px. :func:`phone_page` sets the session document's Bokeh ``template`` to
  :data:`PAGE_TEMPLATE` (Panel's page template, ``{% extends base %}``, with the meta added to its ``preamble`` block),
  so every page built through it carries the meta, also the cached pages of ``reuse_sessions`` and warm pages.
  Zooming stays allowed (no ``maximum-scale``, no ``user-scalable=no``).
* :data:`PHONE_CSS` — added once to ``pn.config.raw_css``, which Panel puts in the page head *and* in every
  component's shadow root (where the ipywidgets are drawn). Every rule sits inside
  ``@media (max-width: PHONE_MAX_WIDTH px)``, so 900 and 1280 px windows look exactly as before. At phone widths:
  text at least :data:`MIN_TEXT_PX` (every element's font size is at least that and at least its parent's, except
  headings h1-h4, SVG pictures and elements whose inline style asks for a larger size),
  every button, input, select, link and checkbox at least :data:`MIN_TARGET_PX` tall and wide (ipywidgets' inline
  height variable and ``min-height``), rows of widgets wrap instead of running off the screen, and boxes never get
  wider than the screen (fixed ipywidgets widths become maximums, boxes lose their minimum widths and side margins, widgets lose their 2 px margins and boxes space
  their children with a 4 px gap instead, so a full-width child fits exactly; text in HTML widgets (at a normal line height,
  not the 44 px row height), in description labels and on buttons wraps instead of being cut, buttons are as wide as their label; a ``GridBox``, always
  label | value here, gets two equal columns that fit the screen); a canvas, and an SVG picture in an HTML widget
  (the Round pages' maps), is never wider than its column (its height follows its aspect ratio; a board zoomed with
  two fingers excepted), and a board whose label floor (:mod:`explorer.widgets.label_floor`) has not arrived yet is
  hidden, its room kept, so its labels never show small first. A table in an HTML widget keeps whole words in
  its cells (``overflow-wrap: anywhere`` let a six-column table shrink its cells to one letter a line, "D / r / i /
  l / l / e / r"); a table of class :data:`CARDS_CLASS` (every table the pages build,
  :func:`explorer.widgets.cards.card_table`) becomes a list of cards, a row a card and its cells running on in
  lines, each led by its column's name, so nothing scrolls sideways (before: a six- or eleven-column table
  scrolled sideways inside its own box); any other table, as a last resort, scrolls inside its own box (the page
  does not). On a screen without hover (a finger), a board's hover readout ("hover a hex to see ...") is hidden: a
  finger cannot hover. The invisible helper widgets (the canvas script, the icons' stylesheet, an HTML widget that
  holds only a ``<style>``) take no room, and an empty HTML widget (a message with nothing to say) loses the 44 px
  row height.

A canvas drawn twice (a chart: :class:`explorer.widgets.odds_chart.OddsChart`) shows its narrow twin (class
``xr-narrow-only``, laid out for a phone with text of at least :data:`MIN_TEXT_PX`) and hides the wide one (class
``xr-wide-only``) at phone widths.

Canvases (fit to the width, tap = click, two-finger zoom and pan) are handled in the browser script every canvas
widget carries (:data:`explorer.widgets.layout.BROWSER_FIXES_JS`), so they work in notebooks too.
"""

from __future__ import annotations

VIEWPORT_META = '<meta name="viewport" content="width=device-width, initial-scale=1">'
"""The viewport declaration of every served page (the page is as wide as the phone's screen; zooming allowed)."""

PAGE_TEMPLATE = "{% block preamble %}" + VIEWPORT_META + "{{ super() }}{% endblock %}"
"""A Panel page template (a string Panel renders as ``{% extends base %}`` + it): Panel's own page with
:data:`VIEWPORT_META` first in its preamble."""

PHONE_MAX_WIDTH = 600
"""Window width (CSS px) up to which the phone rules of :data:`PHONE_CSS` apply."""

MIN_TEXT_PX = 14
"""Smallest text (CSS px) on a phone."""

MIN_TARGET_PX = 44
"""Smallest touch target (CSS px, each side) on a phone (the WCAG 2.5.5 / Apple HIG guideline)."""

from explorer.widgets.cards import CARDS_CLASS, CARDS_HEAD_CLASS  # noqa: E402  (defined with the tables)

_HELPER_CLASSES = ("xr-browser-fix", "xr-icon-style")
"""The classes of the page's invisible 0 x 0 helper widgets (:data:`explorer.widgets.layout.BROWSER_FIX_CLASS`, the
canvas script; :data:`explorer.widgets.icons.ICON_STYLE_CLASS`, the icons' stylesheet): on a phone they are taken
out of the flow (``position: absolute``, 0 x 0), else the 44 px minimum height of an inline widget row and the
boxes' 4 px gaps made each an empty band (a 60 px gap under the map on the Nemesis Phase page); so is an HTML
widget that holds only a ``<style>`` (a page's own stylesheet)."""

_LARGE_INLINE = ", ".join(f'[style*="font-size:{n}px"], [style*="font-size: {n}px"]' for n in range(MIN_TEXT_PX + 1, 40))
"""Elements whose own inline style sets a font size above :data:`MIN_TEXT_PX` (headlines): kept as they are."""

_PENDING_CSS = """  .xr-label-host:has(.xr-floor-pending) canvas {
    visibility: hidden;
    animation: xr-floor-reveal 0s linear 4s forwards;
  }
  @keyframes xr-floor-reveal {
    to { visibility: visible; }
  }
"""
"""A board whose label floor has not arrived yet is hidden (its room kept), at most 4 s: the same text as
:data:`explorer.widgets.label_floor.PENDING_CSS` (a test keeps them equal; this module imports no widgets)."""

PHONE_CSS = f"""@media (max-width: {PHONE_MAX_WIDTH}px) {{
  :root, :host {{
    --jp-widgets-font-size: {MIN_TEXT_PX}px !important;
    --jp-ui-font-size0: {MIN_TEXT_PX}px !important;
    --jp-ui-font-size1: {MIN_TEXT_PX}px !important;
    --jp-content-font-size1: {MIN_TEXT_PX}px !important;
    --jp-code-font-size: {MIN_TEXT_PX}px !important;
    --jp-widgets-inline-height: {MIN_TARGET_PX}px !important;
    --jp-widgets-margin: 0px !important;
  }}
  .xr-narrow-only {{
    display: block !important;
  }}
  .xr-wide-only {{
    display: none !important;
  }}
  .widget-box, .widget-hbox, .widget-vbox, .widget-gridbox {{
    gap: 4px;
    min-width: 0 !important;
    margin-left: 0 !important;
    margin-right: 0 !important;
  }}
  *:not(h1, h2, h3, h4, svg, svg *, {_LARGE_INLINE}) {{
    font-size: max({MIN_TEXT_PX}px, 1em) !important;
  }}
  *::before, *::after {{
    font-size: max({MIN_TEXT_PX}px, 1em) !important;
  }}
  button, select, textarea, summary, .jupyter-widgets button, .widget-button, .widget-toggle-button,
  input:not([type="checkbox"]):not([type="radio"]):not([type="hidden"]):not([type="file"]) {{
    min-height: {MIN_TARGET_PX}px !important;
    min-width: {MIN_TARGET_PX}px !important;
  }}
  .widget-inline-hbox, .widget-text, .widget-dropdown, .widget-select, .widget-textarea {{
    height: auto !important;
    min-height: {MIN_TARGET_PX}px !important;
  }}
  .widget-checkbox, .widget-checkbox label, label:has(> input[type="checkbox"]),
  label:has(> input[type="radio"]) {{
    min-height: {MIN_TARGET_PX}px !important;
    min-width: {MIN_TARGET_PX}px !important;
    display: inline-flex !important;
    align-items: center !important;
  }}
  a[href] {{
    display: inline-flex !important;
    align-items: center;
    min-height: {MIN_TARGET_PX}px !important;
    min-width: {MIN_TARGET_PX}px !important;
    box-sizing: border-box;
  }}
  .widget-hbox, .widget-inline-hbox, .widget-box {{
    flex-wrap: wrap !important;
  }}
  .jupyter-widgets, .widget-box, .widget-hbox, .widget-vbox, .widget-html, .widget-html-content, .widget-inline-hbox,
  .widget-text, .widget-dropdown, .widget-select, .widget-textarea, table, pre {{
    max-width: 100% !important;
    box-sizing: border-box;
  }}
  .widget-html-content, pre {{
    overflow-wrap: anywhere;
  }}
  .widget-html-content table {{
    display: block;
    overflow-x: auto;
    max-width: 100%;
  }}
  table.{CARDS_CLASS}, table.{CARDS_CLASS} > tbody {{
    display: block !important;
    width: 100% !important;
    overflow-x: visible !important;
  }}
  table.{CARDS_CLASS} tr.{CARDS_HEAD_CLASS} {{
    display: none !important;
  }}
  table.{CARDS_CLASS} tr {{
    display: block !important;
    padding: 4px 0 !important;
    border-bottom: 1px solid #dee2e6;
  }}
  table.{CARDS_CLASS} tr > td {{
    display: inline-block !important;
    width: auto !important;
    max-width: 100% !important;
    min-width: 0 !important;
    box-sizing: border-box;
    padding: 1px 0.9em 1px 0 !important;
    border: 0 !important;
    vertical-align: top;
  }}
  table.{CARDS_CLASS} tr > td:empty {{
    display: none !important;
  }}
  table.{CARDS_CLASS} tr > td[data-label]::before {{
    content: attr(data-label) ": ";
    font-weight: bold;
    color: #333;
  }}
  .widget-html-content td, .widget-html-content th {{
    overflow-wrap: break-word !important;
    word-break: normal !important;
    min-width: 3em;
  }}
  @media (hover: none) {{
    .hexboard-readout {{
      display: none !important;
    }}
  }}
  .widget-html-content, .widget-html-content *:not(pre, pre *) {{
    white-space: normal !important;
  }}
  .widget-label, .widget-label-basic {{
    white-space: normal !important;
    overflow: visible !important;
    text-overflow: clip !important;
    line-height: 1.25 !important;
    height: auto !important;
    align-self: center;
  }}
  .jupyter-widgets button, .widget-button, .widget-toggle-button {{
    width: auto !important;
    max-width: 100% !important;
    height: auto !important;
    white-space: normal !important;
    text-overflow: clip !important;
    overflow: visible !important;
  }}
  .widget-html > .widget-html-content, .widget-htmlmath > .widget-html-content {{
    line-height: 1.35 !important;
  }}
  .widget-gridbox > .widget-html {{
    align-self: center;
  }}
  .widget-gridbox {{
    grid-template-columns: minmax(0, 1fr) minmax(0, 1fr) !important;
  }}
  pre {{
    white-space: pre-wrap !important;
  }}
  .{_HELPER_CLASSES[0]}, .{_HELPER_CLASSES[1]}, .widget-html:has(> .widget-html-content > style:only-child) {{
    position: absolute !important;
    height: 0 !important;
    min-height: 0 !important;
    width: 0 !important;
    min-width: 0 !important;
    overflow: hidden !important;
  }}
  .widget-html:has(> .widget-html-content:empty) {{
    min-height: 0 !important;
  }}
{_PENDING_CSS}  canvas:not([data-xr-pinch]) {{
    max-width: 100% !important;
    height: auto !important;
  }}
  .widget-html svg, .widget-htmlmath svg {{
    max-width: 100% !important;
    height: auto !important;
  }}
}}"""
"""The phone stylesheet (see the module docstring); every rule is inside one ``max-width`` media query."""


def phone_page() -> None:
    """Make the page being built phone-ready: :data:`VIEWPORT_META` in its HTML (the session document's
    ``template``) and :data:`PHONE_CSS` in ``pn.config.raw_css`` (once). Call it while a served page is built
    (``explorer serve``'s pages, ``apps/*.py``, a served notebook: Panel keeps a setting made in a session for that
    session), and once before serving (outside a session: the stylesheet for the whole process). Idempotent."""
    import panel as pn

    if PHONE_CSS not in pn.config.raw_css:
        pn.config.raw_css = [*pn.config.raw_css, PHONE_CSS]
    doc = pn.state.curdoc
    if doc is not None:
        doc.template = PAGE_TEMPLATE


def phone_notebook_template() -> None:
    """Give the page template of a served notebook the viewport meta (:data:`VIEWPORT_META`). ``panel serve
    NOTEBOOK.ipynb`` lays the cell outputs out in Panel's ``EditableTemplate``, which renders its own page and
    ignores the document template :func:`phone_page` sets: without this a phone laid a served notebook out 980 px
    wide (the phone stylesheet's media query never applied). Sets the template's public ``meta_viewport`` parameter
    default, so every notebook page built afterwards in the process carries it. Idempotent."""
    from panel.template import EditableTemplate

    content = VIEWPORT_META.split('content="', 1)[1].split('"', 1)[0]
    EditableTemplate.param.meta_viewport.default = content

