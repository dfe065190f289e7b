"""Every text box of every page of every game takes hostile input without raising in the callback (a server-side
exception shows the user nothing): it either accepts the value or shows a message, and the page keeps working.

Covers the whole kind of the handed fault (``²`` or 5,000 digits typed into the Line of Fire Threat Level box).
"""

from __future__ import annotations

import ipywidgets as W
import pytest

from explorer.games import all_games, get_game

HOSTILE = ["²", "9" * 5000, "1e3", "nan", "-0", "\n", "x" * 10_000, "١٢", " ", "3.5", "+-3"]


def _text_boxes(widget, seen=None):
    seen = set() if seen is None else seen
    if id(widget) in seen:
        return
    seen.add(id(widget))
    if isinstance(widget, W.Text | W.Textarea) and not widget.disabled:
        yield widget
    for name in ("children",):
        for child in getattr(widget, name, ()) or ():
            if isinstance(child, W.Widget):
                yield from _text_boxes(child, seen)


PAGES = [(g.id, p) for g in all_games() for p in g.pages]


@pytest.mark.slow
@pytest.mark.parametrize("game_id,page", PAGES, ids=[f"{g}-{p.slug}" for g, p in PAGES])
def test_every_text_box_survives_hostile_input(game_id, page):
    root, _redraw = page.build(get_game(game_id))
    boxes = list(_text_boxes(root))
    if not boxes:
        pytest.skip(f"{game_id}-{page.slug} has no free-text input (only dropdowns, buttons and the board)")
    for box in boxes:
        original = box.value
        for bad in HOSTILE:
            box.value = bad            # must not raise: the callback shows a message instead
        box.value = original           # and the page still takes good input afterwards
