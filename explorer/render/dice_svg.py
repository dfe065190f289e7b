"""Static SVG of a dice tray and of an outcome bar (for notebooks saved without a kernel, docs, GitHub, nbviewer).

Game-agnostic, and the same geometry as the interactive tray (:class:`explorer.widgets.dice_tray.DiceTray` lays its
dice out with :func:`layout_dice`), so the static picture shows what the widget showed: rows of dice with their
labels, cancelled dice crossed out, surviving dice framed in green, cancellation arrows (dashed for a tie), Critical
stars and captions. Inputs are duck-typed: rows with ``label``, ``sublabel``, ``note``, ``dice`` (each with ``id``,
``face``, ``kind``, ``survives``, ``cancelled``, ``caption``, ``token``, ``bad``) and links with ``src``, ``dst``,
``mutual`` — :class:`DieView`, :class:`Row` and :class:`Link`, defined here so pictures can build them without the
widget layer (:mod:`explorer.widgets.dice_tray` re-exports them; no widget library is imported here).
"""

from __future__ import annotations

import html
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from explorer.text import percent

@dataclass
class DieView:
    """One die (or fixed-value token) to draw.

    Attributes:
        id: stable identifier, also the mark trace steps use (e.g. ``"A.1"``).
        face: the face shown (1..20 for a d20; any integer for a token).
        kind: ``"failure"``, ``"success"``, ``"critical"`` or ``"plain"`` (not compared, e.g. a Saving Roll die).
        survives: whether the die is an uncancelled success (drawn with a green frame).
        cancelled: whether an opposing die cancelled it (drawn crossed out in red).
        caption: small text under the die (e.g. ``"23"`` for an effective value, ``"wound"``).
        token: a fixed value that is not rolled (e.g. a Threat Level), drawn as a hexagon.
        bad: highlight as a failed Saving Roll / harmful result (red face text).
    """

    id: str
    face: int
    kind: str = "success"
    survives: bool = False
    cancelled: bool = False
    caption: str = ""
    token: bool = False
    bad: bool = False


@dataclass
class Row:
    """A labelled row of dice. ``label`` is the bold title, ``sublabel`` a second line (e.g. ``"SV 14"``), ``note``
    a third (italic) line."""

    label: str
    dice: Sequence[DieView] = ()
    sublabel: str = ""
    note: str = ""
    id: str = ""
    """Optional mark naming the whole row (e.g. ``"A"``): highlighting it shades the row."""


@dataclass(frozen=True)
class Link:
    """``src`` cancels ``dst`` (die ids). ``mutual`` draws one line for two dice cancelling each other (a tie)."""

    src: str
    dst: str
    mutual: bool = False



COLORS = {
    "failure_fill": "#e9ecef", "failure_text": "#868e96", "failure_edge": "#ced4da",
    "success_fill": "#ffffff", "success_text": "#212529", "success_edge": "#495057",
    "critical_fill": "#ffd43b", "critical_text": "#212529", "critical_edge": "#e67700",
    "survivor": "#2b8a3e", "cancelled": "#c92a2a", "highlight": "#1c7ed6",
    "token_fill": "#f3d9fa", "token_edge": "#862e9c", "label": "#212529", "muted": "#495057",
    "link": "#c92a2a", "tie": "#5c7cfa",
}
"""Colours (CSS) of the tray, shared with the interactive tray."""

ROW_H = 84
"""Height of one row of dice (px)."""
TOP = 34
"""Room above the first row (the title), px."""


def tray_height(nrows: int) -> int:
    """Height in px of a tray of ``nrows`` rows (title, rows, legend)."""
    return TOP + max(1, nrows) * ROW_H + 34


def layout_dice(rows: Sequence[Any], width: float, label_width: float) -> list[tuple[Any, float, float, float, int]]:
    """Where each die goes: ``[(die, x, y, size, row index)]`` (px), dice sized to fit their row."""
    placed = []
    avail = width - label_width - 16
    for r, row in enumerate(rows):
        n = len(row.dice)
        if not n:
            continue
        size = max(22.0, min(46.0, avail / n - 8))
        gap = min(12.0, max(4.0, avail / n - size))
        y = TOP + r * ROW_H + 8
        for i, d in enumerate(row.dice):
            placed.append((d, label_width + i * (size + gap), y, size, r))
    return placed


def _e(s: object) -> str:
    return html.escape(str(s), quote=True)


def _n(v: float) -> str:
    return f"{v:.1f}".rstrip("0").rstrip(".")


def _fit(text: str, width: float, char_w: float) -> str:
    n = int(width // char_w)
    return text if len(text) <= n else text[:max(1, n - 1)] + "…"


def _die_shape(x: float, y: float, s: float, token: bool, **attrs: str) -> str:
    a = " ".join(f"{k.replace('_', '-')}='{_e(v)}'" for k, v in attrs.items())
    if token:
        cx, cy, r = x + s / 2, y + s / 2, s / 2
        pts = " ".join(f"{_n(cx + r * math.cos(math.pi / 6 + k * math.pi / 3))},"
                       f"{_n(cy + r * math.sin(math.pi / 6 + k * math.pi / 3))}" for k in range(6))
        return f"<polygon points='{pts}' {a}/>"
    return f"<rect x='{_n(x)}' y='{_n(y)}' width='{_n(s)}' height='{_n(s)}' rx='{_n(min(7, s / 5))}' {a}/>"


def tray_svg(rows: Sequence[Any], links: Sequence[Any] = (), title: str = "", width: int = 760,
             label_width: int = 190, highlight: Sequence[str] = ()) -> str:
    """An SVG document of the dice tray (the widget's geometry and colours), ``width`` px wide."""
    h = tray_height(len(rows))
    placed = layout_dice(rows, width, label_width)
    at = {d.id: (x, y, s, r) for d, x, y, s, r in placed}
    hl = set(highlight)
    out = [f"<svg xmlns='http://www.w3.org/2000/svg' class='explorer-dice-tray' width='{width}' height='{h}' "
           f"viewBox='0 0 {width} {h}' font-family='sans-serif'>",
           f"<rect width='{width}' height='{h}' fill='#f8f9fa'/>"]
    if title:
        out.append(f"<text x='10' y='21' font-size='15' font-weight='bold' fill='{COLORS['label']}'>{_e(title)}</text>")
    for r, row in enumerate(rows):
        y = TOP + r * ROW_H + 8
        if r:
            out.append(f"<line x1='8' y1='{y - 10}' x2='{width - 8}' y2='{y - 10}' stroke='#dee2e6'/>")
        out.append(f"<text x='10' y='{y + 15}' font-size='14' font-weight='bold' fill='{COLORS['label']}'>"
                   f"{_e(_fit(row.label, label_width - 14, 7.8))}</text>")
        if row.sublabel:
            out.append(f"<text x='10' y='{y + 33}' font-size='13' fill='{COLORS['muted']}'>"
                       f"{_e(_fit(row.sublabel, label_width - 14, 6.3))}</text>")
        if row.note:
            out.append(f"<text x='10' y='{y + 50}' font-size='12' font-style='italic' fill='{COLORS['muted']}'>"
                       f"{_e(_fit(row.note, label_width - 14, 5.6))}</text>")
        if not row.dice:
            out.append(f"<text x='{label_width}' y='{y + 24}' font-size='13' font-style='italic' "
                       f"fill='{COLORS['muted']}'>no dice</text>")
    for link in links:
        if link.src not in at or link.dst not in at:
            continue
        ax, ay, asz, ar = at[link.src]
        bx, by, bsz, br = at[link.dst]
        x0, x1 = ax + asz / 2, bx + bsz / 2
        y0 = ay + asz if ar < br else ay
        y1 = by if ar < br else by + bsz
        colour = COLORS["tie"] if link.mutual else COLORS["link"]
        dash = " stroke-dasharray='5 4'" if link.mutual else ""
        out.append(f"<line class='tray-link' x1='{_n(x0)}' y1='{_n(y0)}' x2='{_n(x1)}' y2='{_n(y1)}' "
                   f"stroke='{colour}' stroke-width='{2 if link.mutual else 1.6}' opacity='0.75'{dash}/>")
        if not link.mutual:
            ang = math.atan2(y1 - y0, x1 - x0)
            pts = [(x1, y1), (x1 - 9 * math.cos(ang - 0.4), y1 - 9 * math.sin(ang - 0.4)),
                   (x1 - 9 * math.cos(ang + 0.4), y1 - 9 * math.sin(ang + 0.4))]
            out.append(f"<polygon points='{' '.join(f'{_n(a)},{_n(b)}' for a, b in pts)}' fill='{colour}' "
                       f"opacity='0.75'/>")
    for d, x, y, s, _r in placed:
        if d.token:
            fill, edge, text = COLORS["token_fill"], COLORS["token_edge"], COLORS["label"]
        elif d.kind == "critical":
            fill, edge, text = COLORS["critical_fill"], COLORS["critical_edge"], COLORS["critical_text"]
        elif d.kind == "failure":
            fill, edge, text = COLORS["failure_fill"], COLORS["failure_edge"], COLORS["failure_text"]
        else:
            fill, edge, text = COLORS["success_fill"], COLORS["success_edge"], COLORS["success_text"]
        if d.bad:
            text = COLORS["cancelled"]
        if d.id in hl:
            out.append(_die_shape(x - 5, y - 5, s + 10, d.token, fill=COLORS["highlight"], opacity="0.35"))
        out.append(f"<g class='tray-die' data-die='{_e(d.id)}'>")
        out.append(_die_shape(x, y, s, d.token, fill=fill, stroke=COLORS["survivor"] if d.survives else edge,
                              stroke_width="4" if d.survives else "1.5"))
        if d.cancelled:
            out.append(f"<path d='M{_n(x + 4)},{_n(y + 4)}L{_n(x + s - 4)},{_n(y + s - 4)}M{_n(x + s - 4)},"
                       f"{_n(y + 4)}L{_n(x + 4)},{_n(y + s - 4)}' stroke='{COLORS['cancelled']}' stroke-width='3' "
                       f"opacity='0.5'/>")
        out.append(f"<text x='{_n(x + s / 2)}' y='{_n(y + s / 2 + 1)}' text-anchor='middle' "
                   f"dominant-baseline='central' font-size='{int(s * 0.45)}' font-weight='bold' fill='{text}'>"
                   f"{_e(d.face)}</text>")
        if d.kind == "critical" and not d.token:
            cx, cy, rr = x + s - 6, y + 6, 6
            pts = " ".join(f"{_n(cx + (rr if k % 2 == 0 else rr * 0.45) * math.cos(-math.pi / 2 + k * math.pi / 5))},"
                           f"{_n(cy + (rr if k % 2 == 0 else rr * 0.45) * math.sin(-math.pi / 2 + k * math.pi / 5))}"
                           for k in range(10))
            out.append(f"<polygon points='{pts}' fill='{COLORS['critical_edge']}'/>")
        caption = d.caption
        if d.cancelled:
            caption = f"{caption} ✗" if caption.startswith("=") else "cancelled"
        if caption:
            red = d.bad or d.cancelled
            out.append(f"<text x='{_n(x + s / 2)}' y='{_n(y + s + 13)}' text-anchor='middle' "
                       f"font-size='{11 if s >= 34 else 9}' fill='{COLORS['cancelled'] if red else COLORS['muted']}'>"
                       f"{_e(caption)}</text>")
        out.append("</g>")
    y = h - 20
    x = 10.0
    for text, fill, edge, lw in (("failure", COLORS["failure_fill"], COLORS["failure_edge"], 1.5),
                                 ("success", COLORS["success_fill"], COLORS["success_edge"], 1.5),
                                 ("Critical ★", COLORS["critical_fill"], COLORS["critical_edge"], 1.5),
                                 ("survives (uncancelled)", "#ffffff", COLORS["survivor"], 4)):
        out.append(f"<rect x='{_n(x)}' y='{y - 7}' width='14' height='14' fill='{fill}' stroke='{edge}' "
                   f"stroke-width='{lw}'/><text x='{_n(x + 19)}' y='{y + 4}' font-size='12'>{_e(text)}</text>")
        x += 30 + len(text) * 6.6
    out.append(f"<path d='M{_n(x)},{y - 6}l12,12m0,-12l-12,12' stroke='{COLORS['cancelled']}' stroke-width='2'/>"
               f"<text x='{_n(x + 18)}' y='{y + 4}' font-size='12'>cancelled</text>")
    x += 90
    out.append(f"<line x1='{_n(x)}' y1='{y}' x2='{_n(x + 22)}' y2='{y}' stroke='{COLORS['link']}' stroke-width='1.6'/>"
               f"<text x='{_n(x + 26)}' y='{y + 4}' font-size='12'>→ cancels</text>")
    x += 92
    out.append(f"<line x1='{_n(x)}' y1='{y}' x2='{_n(x + 22)}' y2='{y}' stroke='{COLORS['tie']}' stroke-width='1.6' "
               f"stroke-dasharray='5 4'/><text x='{_n(x + 26)}' y='{y + 4}' font-size='12'>tie</text>")
    out.append("</svg>")
    return "".join(out)


def outcome_bar_svg(outcomes: Sequence[Any], width: int = 760, title: str = "") -> str:
    """An SVG of one stacked 100 % bar of exclusive outcomes (``label``, ``p``, ``color``) with a legend."""
    top = 26 if title else 6
    h = top + 34 + 26
    out = [f"<svg xmlns='http://www.w3.org/2000/svg' class='explorer-odds-bar' width='{width}' height='{h}' "
           f"viewBox='0 0 {width} {h}' font-family='sans-serif'>", f"<rect width='{width}' height='{h}' fill='#ffffff'/>"]
    if title:
        out.append(f"<text x='10' y='18' font-size='14' font-weight='bold' fill='#212529'>{_e(title)}</text>")
    x, bw = 10.0, width - 20
    for o in outcomes:
        seg = max(0.0, float(o.p)) * bw
        if seg <= 0:
            continue
        out.append(f"<rect class='odds-segment' data-outcome='{_e(o.label)}' x='{_n(x)}' y='{top}' width='{_n(seg)}' "
                   f"height='28' fill='{_e(o.color)}'><title>{_e(o.label)}: {percent(o.p)}</title></rect>")
        if seg > 44:
            out.append(f"<text x='{_n(x + seg / 2)}' y='{top + 19}' text-anchor='middle' font-size='12' "
                       f"font-weight='bold' fill='#ffffff'>{percent(o.p)}</text>")
        x += seg
    lx = 10.0
    for o in outcomes:
        text = f"{o.label}: {percent(o.p)}"
        out.append(f"<rect x='{_n(lx)}' y='{top + 38}' width='12' height='12' fill='{_e(o.color)}'/>"
                   f"<text x='{_n(lx + 17)}' y='{top + 48}' font-size='12' fill='#212529'>{_e(text)}</text>")
        lx += 30 + len(text) * 6.6
    out.append("</svg>")
    return "".join(out)


__all__ = ["COLORS", "ROW_H", "TOP", "layout_dice", "outcome_bar_svg", "tray_height", "tray_svg"]
