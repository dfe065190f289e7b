"""Phones (issue 23, item 1): the viewport meta in every served page's HTML, and a phone stylesheet that changes
nothing above its width (the browser side is tests/browser/test_phone_browser.py)."""

from __future__ import annotations

import re

import pytest

from explorer.serving.phone import (MIN_TARGET_PX, MIN_TEXT_PX, PAGE_TEMPLATE, PHONE_CSS, PHONE_MAX_WIDTH,
                                    VIEWPORT_META, phone_page)


@pytest.fixture
def raw_css():
    import panel as pn

    before = list(pn.config.raw_css)
    yield
    pn.config.raw_css = before


def _page_html(template) -> str:
    """The HTML Panel's server writes for a page with this document ``template`` (its own renderer)."""
    from panel.io.server import html_page_for_render_items

    return html_page_for_render_items(("", ""), {}, [], "A page", template=template)


def test_the_page_template_puts_the_viewport_meta_in_panels_page_head():
    html = _page_html(PAGE_TEMPLATE)
    head = html.split("</head>")[0]
    assert head.count(VIEWPORT_META) == 1
    assert "<title>A page</title>" in head   # still Panel's page around it
    assert VIEWPORT_META not in _page_html(None)   # Panel's own page has none: what the phone saw before
    assert "maximum-scale" not in VIEWPORT_META and "user-scalable" not in VIEWPORT_META   # zooming stays allowed


def test_phone_page_sets_the_documents_template_and_adds_the_stylesheet_once(raw_css):
    import panel as pn
    from bokeh.document import Document
    from panel.io.state import set_curdoc

    doc = Document()
    with set_curdoc(doc):
        phone_page()
        phone_page()
        assert pn.config.raw_css.count(PHONE_CSS) == 1   # in a session: that session's config
    assert doc.template == PAGE_TEMPLATE
    phone_page()   # outside a session (explorer serve, before it starts): the whole process
    assert pn.config.raw_css.count(PHONE_CSS) == 1


def test_every_served_page_of_the_app_is_built_phone_ready(raw_css):
    from bokeh.document import Document
    from panel.io.state import set_curdoc

    from explorer.app import create_landing

    doc = Document()
    with set_curdoc(doc):
        create_landing()
    assert doc.template == PAGE_TEMPLATE


def test_every_phone_rule_is_inside_one_narrow_media_query():
    css = PHONE_CSS.strip()
    assert css.startswith(f"@media (max-width: {PHONE_MAX_WIDTH}px) {{") and css.endswith("}")
    depth, closed_at = 0, []
    for i, ch in enumerate(css):
        depth += ch == "{"
        depth -= ch == "}"
        if depth == 0 and ch == "}":
            closed_at.append(i)
    assert closed_at == [len(css) - 1], "a rule outside the media query would change the 900 / 1280 px pages"
    assert PHONE_MAX_WIDTH < 900
    assert f"max({MIN_TEXT_PX}px, 1em)" in css and f"min-height: {MIN_TARGET_PX}px" in css
    assert re.search(r"--jp-widgets-inline-height: 44px", css)


def test_the_invisible_helper_widgets_take_no_room_on_a_phone():
    """The canvas script's and the icons' 0 x 0 HTML widgets, and an HTML widget holding only a <style>, are taken
    out of the flow on a phone: the 44 px inline row height and the boxes' gaps made each an empty band (a 60 px gap
    under the map of the Nemesis Phase page at 390 px, newcomer report, session 10)."""
    from explorer.serving.phone import _HELPER_CLASSES
    from explorer.widgets.icons import ICON_STYLE_CLASS
    from explorer.widgets.layout import BROWSER_FIX_CLASS

    assert set(_HELPER_CLASSES) == {BROWSER_FIX_CLASS, ICON_STYLE_CLASS}
    rule = re.search(r"\.xr-browser-fix, \.xr-icon-style, \.widget-html:has\(> \.widget-html-content > "
                     r"style:only-child\) \{([^}]*)\}", PHONE_CSS)
    assert rule and "position: absolute !important" in rule.group(1) and "min-height: 0 !important" in rule.group(1)
    assert re.search(r"\.widget-html:has\(> \.widget-html-content:empty\) \{\s*min-height: 0 !important;", PHONE_CSS)


def test_a_served_notebooks_page_template_declares_the_viewport():
    """``panel serve NOTEBOOK.ipynb`` renders the cell outputs in Panel's ``EditableTemplate``, not the document
    template :func:`phone_page` sets: :func:`phone_notebook_template` gives that template the viewport meta."""
    from pathlib import Path

    import panel
    from panel.template import EditableTemplate

    from explorer.serving.phone import VIEWPORT_META, phone_notebook_template

    phone_notebook_template()
    t = EditableTemplate()
    assert f'content="{t.meta_viewport}"' in VIEWPORT_META and t.meta_viewport.startswith("width=device-width")
    base = (Path(panel.__file__).parent / "template" / "base" / "base.html").read_text()
    assert '<meta name="viewport" content="{{ meta_viewport }}">' in base   # the head the template renders


def test_a_served_pane_is_as_wide_as_its_column_unless_told():
    import ipywidgets as W

    from explorer.serving import served_pane

    assert served_pane(W.HTML("x")).sizing_mode == "stretch_width"
    assert served_pane(W.HTML("x"), sizing_mode="fixed", width=300).sizing_mode == "fixed"
