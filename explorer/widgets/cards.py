"""Tables that fit a phone (issue 23, item 1): every table a page builds in an HTML widget is a :func:`card_table`.

At 1280 or 900 px it is an ordinary table. At phone widths (:data:`explorer.serving.phone.PHONE_CSS`, the rules of
class :data:`~explorer.serving.phone.CARDS_CLASS`) each row becomes a card whose cells run on in lines, each led by
its column's name (the cell's ``data-label``; a column with no name, e.g. a pass / fail mark, has none), the header row
hidden: nothing of the table runs past a 390 px screen or scrolls sideways inside its own box (a six-column step
table and the eleven-column Face to Face exchange did). The Line of Fire verdict table has its own card layout
(:data:`explorer.games.tagraid.lof_picture.VERDICT_PHONE_CSS`).
"""

from __future__ import annotations

import html
from collections.abc import Sequence

CARDS_CLASS = "xr-cards"
"""The class of a table that becomes a list of cards on a phone (:data:`explorer.serving.phone.PHONE_CSS`): each
row a card, its cells running on in lines, each led by its column's name (the cell's ``data-label``), the header row
(class :data:`CARDS_HEAD_CLASS`) hidden. Tables built by :func:`card_table` carry it. Defined here, below the serving
code that styles it (``tests/test_layers.py``)."""

CARDS_HEAD_CLASS = "xr-cards-head"
"""The class of a :data:`CARDS_CLASS` table's header row (hidden on a phone: each cell names its column)."""


def card_table(head: Sequence[str], rows: Sequence[Sequence[str]], *, table_style: str = "border-collapse:collapse",
               head_style: str = "", th_style: str = "", td_style: str = "",
               row_attrs: Sequence[str] | None = None) -> str:
    """An HTML table that becomes cards on a phone.

    Args:
        head: the column names (plain text, escaped here; ``""``: a column with no name and no label on a phone).
        rows: the cells of each row, as HTML (escape plain text before); a row may be shorter than ``head``.
        table_style / head_style / th_style / td_style: inline CSS of the table, the header row, each header cell,
            each cell (the desktop look; a phone's card rules override the layout).
        row_attrs: per row, extra attributes of its ``<tr>`` (HTML, e.g. ``" class='x' data-miner='A'"``).

    Returns:
        ``<table class='xr-cards' ...><tr class='xr-cards-head'>...</tr><tr><td data-label='...'>...</td>...</table>``.

    Raises:
        ValueError: a row longer than ``head`` or ``row_attrs`` not one per row.
    """
    if row_attrs is not None and len(row_attrs) != len(rows):
        raise ValueError(f"card_table: row_attrs has {len(row_attrs)} entries for {len(rows)} rows")
    st = lambda s: f" style='{s}'" if s else ""
    th = "".join(f"<th{st(th_style)}>{html.escape(h)}</th>" for h in head)
    out = [f"<table class='{CARDS_CLASS}'{st(table_style)}><tr class='{CARDS_HEAD_CLASS}'{st(head_style)}>{th}</tr>"]
    for i, row in enumerate(rows):
        if len(row) > len(head):
            raise ValueError(f"card_table: row {i} has {len(row)} cells for {len(head)} columns")
        cells = "".join(f"<td{st(td_style)}" + (f" data-label='{html.escape(head[k], quote=True)}'" if head[k] else "")
                        + f">{c}</td>" for k, c in enumerate(row))
        out.append(f"<tr{row_attrs[i] if row_attrs is not None else ''}>{cells}</tr>")
    out.append("</table>")
    return "".join(out)


__all__ = ["card_table"]
