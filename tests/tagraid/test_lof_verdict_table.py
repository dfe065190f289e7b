"""The Line of Fire page's verdict table carries what its phone layout needs (issue 22/23): each row's cells are
labelled with their column (``data-label``), the header row is marked, and the phone stylesheet applies only below
the phones' width. How it looks on a phone is checked in a browser
(``tests/browser/test_phone_browser.py::test_the_line_of_fire_verdict_table_fits_a_phone``)."""

import re

from explorer.games.tagraid.lof_picture import VERDICT_COLUMNS, VERDICT_PHONE_CSS, LofSnapshot
from explorer.games.tagraid.table_file import load_packaged_table
from explorer.serving.phone import PHONE_MAX_WIDTH


def _html(name: str) -> str:
    lt = load_packaged_table(name)
    return LofSnapshot.of_table(lt.table, shooter=lt.shooter or "A", rulings=lt.rulings).verdicts_html()


def test_every_cell_is_labelled_with_its_column_and_the_header_row_is_marked():
    for name in ("tr-22", "tr-elev-tower", "tr-elev-37"):
        html = _html(name)
        head = re.search(r"<tr class='lof-head'[^>]*>(.*?)</tr>", html).group(1)
        assert re.findall(r"<th[^>]*>([^<]*)</th>", head) == [c[0] for c in VERDICT_COLUMNS]
        rows = re.findall(r"<tr class='lof-row'.*?</tr>", html)
        assert rows, name
        for row in rows:
            cells = re.findall(r"<td( data-label='([^']*)')?", row)
            assert [label for _, label in cells] == [c[1] for c in VERDICT_COLUMNS], (name, row[:200])


def test_the_phone_layout_applies_only_below_the_phone_width():
    css = VERDICT_PHONE_CSS % {"w": PHONE_MAX_WIDTH}
    assert css.startswith(f"<style>@media (max-width:{PHONE_MAX_WIDTH}px){{") and css.endswith("}</style>")
    assert css.count("{") == css.count("}")
    assert "attr(data-label)" in css and "tr.lof-head{display:none" in css
