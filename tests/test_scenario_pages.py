"""Every scenario page (each ``Page`` with ``open`` in the registry) opened with ``?scenario=<id>`` keeps its pickers,
says which scenario it opened (id and title) and shows that scenario's verdict at once; opened bare, it opens on its
declared default (one rule for every game: :attr:`explorer.games.Page.default`)."""

from __future__ import annotations

import html

import ipywidgets as W
import pytest

from explorer.games import all_games, read_toml
from explorer.widgets.scenario_note import CHANGED_LIVE, CHANGED_STATIC, NOTE_CLASS

PAGES = [(g, p) for g in all_games() for p in g.pages if p.open is not None]


def _walk(w):
    yield w
    for c in getattr(w, "children", ()) or ():
        yield from _walk(c)


def _notes(w) -> list:
    return [x for x in _walk(w) if isinstance(x, W.HTML) and NOTE_CLASS in x._dom_classes]


PICKERS = ("Scenario", "Order", "Map")
"""The descriptions of the pickers that choose what a page shows (the others follow the scenario)."""


def _pickers(w) -> dict[str, object]:
    """``{description: value}`` of the page's scenario / map pickers."""
    return {x.description: x.value for x in _walk(w) if isinstance(x, W.Dropdown) and x.description in PICKERS}


def _kind(g, name) -> str:
    return str(read_toml(name, text=g.scenario_text(name)).get("kind", ""))


def _other(g, p) -> str:
    """A built-in of a kind the page shows, not its default (so opening it is visible)."""
    names = [n for n in g.builtin_names() if n != p.default and _kind(g, n) in p.kinds]
    return names[-1] if names else p.default


def test_every_scenario_page_declares_a_default_of_its_kinds_and_the_game_default_is_its_pages():
    for g, p in PAGES:
        if p.default is None:             # the only page that opens something else: Line of Fire, its packaged table
            assert (g.id, p.slug) == ("tagraid", "line-of-fire")
            continue
        assert p.default in g.builtin_names(), (g.id, p.slug)
        assert _kind(g, p.default) in p.kinds, (g.id, p.slug, p.default)
    for g in all_games():
        kind = _kind(g, g.default_scenario)
        pages = [p for p in g.pages if kind in p.kinds]
        assert pages and all(p.default == g.default_scenario for p in pages), (g.id, g.default_scenario)


@pytest.mark.slow
@pytest.mark.parametrize("gp", PAGES, ids=lambda gp: f"{gp[0].id}-{gp[1].slug}")
def test_scenario_page_keeps_pickers_names_the_scenario_and_shows_its_verdict(gp):
    g, p = gp
    bare, _ = g.open_page(p.slug)
    name = _other(g, p)
    w, redraw = g.open_page(p.slug, name)
    assert set(_pickers(bare)) == set(_pickers(w)), f"pickers lost on ?scenario={name}"
    for value in _pickers(w).values():     # showing the opened scenario (the Map picker: "scenario:<id>")
        assert value in (name, f"scenario:{name}")
    title, verdict = g.builtin_verdict(name)
    notes = _notes(w)
    assert len(notes) == 1 and notes[0].scenario_id == name
    text = notes[0].value
    assert html.escape(name) in text and html.escape(title) in text
    assert verdict.strip() and html.escape(verdict) in text
    # opened bare: the page's declared default, named the same way
    assert [n.scenario_id for n in _notes(bare) if n.scenario_id] == ([p.default] if p.default else [])


def _changers(w) -> list:
    """The page's ruling dropdowns (every page but Orders has them), else its Active Miner choice."""
    boxes = [d for x in _walk(w) for attr in ("rulings_box", "ruling_inputs")
             for d in (getattr(x, attr, None) or {}).values()]
    return boxes or [x for x in _walk(w) if isinstance(x, W.Dropdown) and x.description == "Active Miner"]


def _changed_text(note) -> bool:
    return any(t in html.unescape(note.value) for t in (CHANGED_STATIC, CHANGED_LIVE))


@pytest.mark.slow
@pytest.mark.parametrize("gp", PAGES, ids=lambda gp: f"{gp[0].id}-{gp[1].slug}")
def test_the_scenario_note_says_when_the_page_no_longer_shows_the_scenario_as_opened(gp):
    """A screenshot never pairs the opened scenario's verdict with a page that has changed since (newcomer finding:
    tr-02's "winner A" stayed while the live verdict said B wins)."""
    g, p = gp
    name = p.default or _other(g, p)
    w, _redraw = g.open_page(p.slug, name)
    [note] = _notes(w)
    assert note.scenario_id == name and not note.changed and not _changed_text(note)
    changers = _changers(w)
    assert changers, "no input to change"
    for d in changers:
        before = d.value
        d.value = next(v for v in (o[1] if isinstance(o, tuple) else o for o in d.options) if v != before)
        assert note.changed and _changed_text(note), (d.description, d.value)
        d.value = before
        if p.slug != "orders":     # an Order's other declarations follow its Active Miner: not back as opened
            assert not note.changed and not _changed_text(note), d.description


INPUTS = (W.Text, W.IntText, W.Dropdown, W.Checkbox, W.Textarea, W.ToggleButtons)


@pytest.mark.slow
@pytest.mark.parametrize("gp", PAGES, ids=lambda gp: f"{gp[0].id}-{gp[1].slug}")
def test_the_scenario_note_sits_at_the_top_of_every_page(gp):
    """The note and its Outcome come before the page's inputs (at most a picker row's two controls), so they are
    above the fold as on every page (newcomer finding: Galaxy Defenders Combat had them at y~830 of 800)."""
    g, p = gp
    w, _redraw = g.open_page(p.slug, p.default or _other(g, p))
    order = list(_walk(w))
    at = order.index(_notes(w)[0])
    before = [x for x in order[:at] if isinstance(x, INPUTS) and x.description not in PICKERS]
    assert len(before) <= 2, [type(x).__name__ + ":" + x.description for x in before]


def test_face_to_face_typed_dice_mark_the_opened_verdict_as_the_scenario_s():
    from explorer.games.tagraid.views import explorer_for_scenario

    w = explorer_for_scenario("tr-02")
    assert "winner A" in w.note.value and not _changed_text(w.note)
    w.form_a.dice.value = "1, 2, 3"
    assert "B wins" in w.summary.value
    assert _changed_text(w.note)
    w.form_a.dice.value = "4, 12, 13"     # back as opened: the note's verdict is the page's again
    assert not _changed_text(w.note)


def test_every_file_control_reads_its_label_not_a_file_count():
    """ipywidgets writes a FileUpload as "<description> (<files held>)": every page's file control is made by
    :func:`explorer.widgets.files.upload_control`, whose style shows the label alone (no count, no icon box)."""
    from explorer.widgets.files import UPLOAD_CLASS

    seen = 0
    for g in all_games():
        for p in g.pages:
            w, _ = g.open_page(p.slug)
            for box in _walk(w):
                ups = [c for c in getattr(box, "children", ()) or () if isinstance(c, W.FileUpload)]
                for up in ups:
                    seen += 1
                    assert UPLOAD_CLASS in up._dom_classes, (g.id, p.slug, up.description)
                    style = next(c for c in box.children if isinstance(c, W.HTML) and "<style>" in c.value)
                    page_class = next(c for c in up._dom_classes if c != UPLOAD_CLASS)
                    assert f".{UPLOAD_CLASS}.{page_class}::after{{content:\"{up.description}\"" in style.value
                    assert "font-size:0" in style.value and up.description.startswith("Open ")
    assert seen >= 3


@pytest.mark.parametrize("width", [500, 760, 820])
def test_a_distribution_unit_label_stays_inside_its_own_chart(width):
    """The Strategy Pool's "triggers" ran into the next chart's "0" (and Galaxy Defenders' "wounds" likewise): every
    unit label ends before its panel does, for every chart the pages draw (two panels of 9 and 7 bars, etc.)."""
    from explorer.widgets.odds_chart import XLABEL_CHAR_PX, Distribution, OddsChart

    chart = OddsChart(width=width, height=290)
    drawn: list[tuple[str, float]] = []
    chart.canvas.fill_text = lambda text, x, y, *a: drawn.append((str(text), float(x)))
    for sizes in ((9, 7), (8, 2), (13, 13), (3,), (21, 21), (40, 3)):
        dists = [Distribution(f"chart {i}", [1 / n] * n, "#000", unit) for i, (n, unit) in
                 enumerate(zip(sizes, ("triggers", "wounds", "Enhanced dice")))]
        drawn.clear()
        chart.show([], dists)
        gw = (width - 20 - (len(sizes) - 1) * 20) / len(sizes)
        for i, d in enumerate(dists):
            left = 10 + i * (gw + 20)
            x = next(x for t, x in drawn if t == d.xlabel)
            assert left < x and x + len(d.xlabel) * XLABEL_CHAR_PX <= left + gw, (sizes, d.xlabel)


def test_every_page_with_a_canvas_carries_the_browser_fix():
    """A plain wheel over an ipycanvas canvas is cancelled by ipycanvas (the page or notebook cannot scroll, a board
    turns its piece): the fix must come with the widgets themselves, since a notebook has no Panel shell."""
    from ipycanvas import Canvas, MultiCanvas

    from explorer.widgets import DiceTray, HexBoardView, OddsChart
    from explorer.widgets.layout import BROWSER_FIX_CLASS, BROWSER_FIXES_JS, browser_fix_html

    assert html.escape(BROWSER_FIXES_JS.strip(), quote=True) in browser_fix_html()
    assert "onerror=" in browser_fix_html() and "<script" not in browser_fix_html()

    def fixes(w):
        return [x for x in _walk(w) if isinstance(x, W.HTML) and BROWSER_FIX_CLASS in x._dom_classes]

    from explorer.board import small_board

    for w in (DiceTray(), OddsChart(), HexBoardView(small_board())):
        assert fixes(w), type(w).__name__
    for g in all_games():
        for p in g.pages:
            w, _ = g.open_page(p.slug)
            if any(isinstance(x, Canvas | MultiCanvas) for x in _walk(w)):
                assert fixes(w), (g.id, p.slug)


@pytest.mark.slow
@pytest.mark.parametrize("gp", [gp for gp in PAGES if gp[1].slug in ("orders", "round")],
                         ids=lambda gp: f"{gp[0].id}-{gp[1].slug}")
def test_stepping_through_the_scenario_is_no_change_to_it(gp):
    """Next ▶ changes where the reader is, not what the page holds: the note keeps the opened verdict as the page's
    (session 14: on the Order Expenditure Sequence page one Next ▶ said "the page has changed since", the Round
    pages did not)."""
    g, p = gp
    w, _redraw = g.open_page(p.slug, p.default or _other(g, p))
    [note] = _notes(w)
    nexts = [x for x in _walk(w) if isinstance(x, W.Button) and x.description == "Next ▶"]
    assert nexts and not note.changed
    for _ in range(3):
        nexts[0].click()
    assert not note.changed and not _changed_text(note)
