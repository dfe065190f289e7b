"""Static SVG of a row of record cards: the picture of a scenario whose subject is neither dice nor a board (a
figure's wounds and tokens after each event, who holds a token, which cards go to whom).

Game-agnostic, like :mod:`explorer.render.dice_svg`: a game's picture builds :class:`Card` values (a name, a
second line, :class:`Track` rows of boxes — wounds of Health, Batteries, levels of a tracker — and :class:`Chip`
tokens) from its typed outcome and calls :func:`sheet_svg`. Cards flow left to right, ``columns`` to a row; a card
``marked`` is outlined in blue (the one the verdict names), a card ``out`` is greyed with its reason. No widget
library is imported here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .dice_svg import _e, _fit, _n  # the SVG text helpers (escape, short number, cut to width) both pictures use

TONES = {
    "plain": ("#f1f3f5", "#495057"), "bad": ("#fff5f5", "#c92a2a"), "good": ("#ebfbee", "#2b8a3e"),
    "gold": ("#fff9db", "#e67700"), "info": ("#e7f5ff", "#1c7ed6"), "token": ("#f3d9fa", "#862e9c"),
}
"""Fill and edge/text colour (CSS) of each tone of a chip or a track's filled boxes."""


@dataclass(frozen=True)
class Track:
    """A row of ``total`` boxes, ``filled`` of them filled in the ``tone``'s colour (wounds of Health points,
    Batteries, Damage on a level); ``label`` is written before the boxes and ``filled/total`` after them. More than
    :data:`MAX_BOXES` boxes draw as one bar."""

    label: str
    filled: int
    total: int
    tone: str = "bad"


@dataclass(frozen=True)
class Chip:
    """A token or fact on a card (``"Poison 2"``, ``"Menace level 3"``), a rounded label in the ``tone``'s
    colours (:data:`TONES`)."""

    text: str
    tone: str = "plain"


@dataclass(frozen=True)
class Card:
    """One record: a bold ``name``, an optional second line ``sub``, its tracks and chips. ``marked``: outlined in
    blue; ``out``: greyed, with ``out`` as the reason (``"Bleeding"``, ``"left play"``)."""

    name: str
    sub: str = ""
    tracks: tuple[Track, ...] = ()
    chips: tuple[Chip, ...] = ()
    marked: bool = False
    out: str = ""


MAX_BOXES = 20
"""A track with more boxes than this draws as a bar."""
PAD = 10
"""Inner margin of a card (px)."""


def _wrap(text: str, width: float, char_w: float, lines: int = 2) -> list[str]:
    """``text`` in at most ``lines`` lines of ``width`` px (words kept whole; the last line cut with an ellipsis)."""
    n = max(1, int(width // char_w))
    out: list[str] = []
    rest = text.split()
    while rest and len(out) < lines:
        line = rest.pop(0)
        while rest and len(line) + 1 + len(rest[0]) <= n:
            line += " " + rest.pop(0)
        out.append(line)
    if rest:
        out[-1] = _fit(out[-1] + " " + " ".join(rest), width, char_w)
    return [_fit(x, width, char_w) for x in out]


def _chip_lines(chips: Sequence[Chip], inner: float) -> list[list[tuple[Chip, float, str]]]:
    """Chips flowed into lines that fit ``inner`` px: ``[[(chip, width, shown text), ...], ...]``."""
    lines: list[list[tuple[Chip, float, str]]] = []
    x = inner + 1.0
    for c in chips:
        text = _fit(c.text, inner - 12, 6.6)
        w = len(text) * 6.6 + 12
        if x + w > inner:
            lines.append([])
            x = 0.0
        lines[-1].append((c, w, text))
        x += w + 6
    return lines


NARROW = 260
"""A card narrower inside than this (px) draws each track's boxes on a line of their own, under its label."""


def _track_h(inner: float) -> int:
    return 22 if inner >= NARROW else 38


def _card_height(card: Card, inner: float) -> float:
    h = PAD + 18 + (17 if card.sub else 0) + _track_h(inner) * len(card.tracks) + 26 * len(_chip_lines(card.chips,
                                                                                                   inner))
    return h + (17 if card.out else 0) + PAD - 4


def _card(card: Card, x: float, y: float, w: float, h: float) -> list[str]:
    inner = w - 2 * PAD
    edge, width = ("#1c7ed6", 3) if card.marked else ("#adb5bd", 1)
    fill = "#e9ecef" if card.out else "#ffffff"
    out = [f"<g class='explorer-card'><rect x='{_n(x)}' y='{_n(y)}' width='{_n(w)}' height='{_n(h)}' rx='8' "
           f"fill='{fill}' stroke='{edge}' stroke-width='{width}'/>"]
    cy = y + PAD + 13
    out.append(f"<text x='{_n(x + PAD)}' y='{_n(cy)}' font-size='14' font-weight='bold' fill='#212529'>"
               f"{_e(_fit(card.name, inner, 8.0))}</text>")
    if card.sub:
        cy += 17
        out.append(f"<text x='{_n(x + PAD)}' y='{_n(cy)}' font-size='12' fill='#495057'>"
                   f"{_e(_fit(card.sub, inner, 6.4))}</text>")
    cy += 6
    for t in card.tracks:
        total = max(0, t.total)
        filled = max(0, min(t.filled, total))
        fill_c, edge_c = TONES.get(t.tone, TONES["plain"])
        narrow = inner < NARROW
        label = _fit(t.label, inner - 44 if narrow else 84, 6.4)
        out.append(f"<text x='{_n(x + PAD)}' y='{_n(cy + 14)}' font-size='12' fill='#495057'>{_e(label)}</text>")
        out.append(f"<text x='{_n(x + w - PAD)}' y='{_n(cy + 15)}' font-size='12' text-anchor='end' "
                   f"fill='#212529'>{filled}/{total}</text>")
        if narrow:
            cy += 16
        bx, bw = (x + PAD, inner) if narrow else (x + PAD + 88, inner - 88 - 44)
        if total and total <= MAX_BOXES:
            s = max(6.0, min(14.0, (bw + 3) / total - 3))
            for i in range(total):
                on = i < filled
                out.append(f"<rect x='{_n(bx + i * (s + 3))}' y='{_n(cy + 4 + (14 - s) / 2)}' width='{_n(s)}' "
                           f"height='{_n(s)}' rx='2' fill='{edge_c if on else '#ffffff'}' stroke='{edge_c}'/>")
        elif total:
            out.append(f"<rect x='{_n(bx)}' y='{_n(cy + 5)}' width='{_n(bw)}' height='12' rx='3' fill='#ffffff' "
                       f"stroke='{edge_c}'/><rect x='{_n(bx)}' y='{_n(cy + 5)}' width='{_n(bw * filled / total)}' "
                       f"height='12' rx='3' fill='{edge_c}'/>")
        cy += 22
    for line in _chip_lines(card.chips, inner):
        cx = x + PAD
        for c, cw, text in line:
            fill_c, edge_c = TONES.get(c.tone, TONES["plain"])
            out.append(f"<rect x='{_n(cx)}' y='{_n(cy + 4)}' width='{_n(cw)}' height='20' rx='10' fill='{fill_c}' "
                       f"stroke='{edge_c}'/><text x='{_n(cx + cw / 2)}' y='{_n(cy + 18)}' font-size='12' "
                       f"text-anchor='middle' fill='{edge_c}'>{_e(text)}</text>")
            cx += cw + 6
        cy += 26
    if card.out:
        out.append(f"<text x='{_n(x + PAD)}' y='{_n(cy + 14)}' font-size='12' font-style='italic' fill='#c92a2a'>"
                   f"{_e(_fit(card.out, inner, 6.4))}</text>")
    out.append("</g>")
    return out


def sheet_svg(cards: Sequence[Card], title: str = "", note: str = "", columns: int = 3, width: int = 760) -> str:
    """An SVG document of ``cards``, ``columns`` to a row (fewer when there are fewer cards), ``width`` px wide,
    under ``title`` (bold) and ``note`` (muted, e.g. the verdict), each wrapped to at most two lines. Returns the SVG
    text."""
    cols = max(1, min(columns, len(cards) or 1))
    gap = 10.0
    cw = (width - 2 * gap - (cols - 1) * gap) / cols
    title_lines = _wrap(title, width - 2 * 10.0, 8.0) if title else []
    note_lines = _wrap(note, width - 2 * 10.0, 6.9) if note else []
    top = 12.0 + 20 * len(title_lines) + 17 * len(note_lines) + (4 if title_lines or note_lines else 0)
    rows = [list(cards[i:i + cols]) for i in range(0, len(cards), cols)]
    heights = [max((_card_height(c, cw - 2 * PAD) for c in row), default=0.0) for row in rows]
    h = int(top + sum(heights) + gap * len(rows) + 4)
    out = [f"<svg xmlns='http://www.w3.org/2000/svg' class='explorer-sheet' width='{width}' height='{h}' "
           f"viewBox='0 0 {width} {h}' font-family='sans-serif'>",
           f"<rect width='{width}' height='{h}' fill='#f8f9fa'/>"]
    y = 12.0
    for line in title_lines:
        out.append(f"<text x='{_n(gap)}' y='{_n(y + 13)}' font-size='15' font-weight='bold' fill='#212529'>"
                   f"{_e(line)}</text>")
        y += 20
    for line in note_lines:
        out.append(f"<text x='{_n(gap)}' y='{_n(y + 11)}' font-size='13' fill='#495057'>{_e(line)}</text>")
        y += 17
    y += 4 if title_lines or note_lines else 0
    for row, rh in zip(rows, heights):
        for i, c in enumerate(row):
            out += _card(c, gap + i * (cw + gap), y, cw, rh)
        y += rh + gap
    out.append("</svg>")
    return "".join(out)
