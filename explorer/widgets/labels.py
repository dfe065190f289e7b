"""Labels that fit: the width of a button row from its longest label, so no label is cut ("Distance ignoring w…",
"M2/…", a die face "1…" for 10).

ipywidgets' ``ToggleButtons`` gives every button one ``button_width``; a label longer than that is cut with an
ellipsis. :func:`button_width` is the width that holds the longest label in the pages' button font (13 px sans-serif:
at most :data:`CHAR_PX` per character, measured in Chromium with DejaVu/Liberation Sans, plus the button's padding
:data:`PAD_PX`). The browser test ``tests/browser/test_page_faults_browser.py`` checks every visible button of every page.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

CHAR_PX = 7.5
"""An upper bound of one character's width in a page button's 13 px sans-serif label (digits and letters measure
5.6-6.5 px in Chromium with the fonts Debian installs; capitals and bold up to 7.2)."""

PAD_PX = 26
"""A button's horizontal padding and border together (ipywidgets: 12 px each side, 1 px borders)."""


def label_px(label: str) -> int:
    """The width (px) a button needs to show ``label`` whole."""
    return math.ceil(len(label) * CHAR_PX + PAD_PX)


def button_width(labels: Iterable[str], minimum: int = 0) -> str:
    """The CSS width (``"58px"``) of buttons that each hold one of ``labels`` whole, at least ``minimum`` px.

    Raises:
        ValueError: no labels.
    """
    widths = [label_px(str(label)) for label in labels]
    if not widths:
        raise ValueError("button_width needs at least one label")
    return f"{max(max(widths), minimum)}px"
