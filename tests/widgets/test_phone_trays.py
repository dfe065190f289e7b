"""Dice trays on a phone (issue 23): the Face to Face tray (DiceTray) and the Strategy Pool tray (StrategyDiceView)
draw a narrow canvas laid out for a 390 px phone column with no text under 14 px, and a click on a die there picks
the same die as a click on it on the wide canvas (each canvas has its own hit map)."""

from __future__ import annotations

import pytest

from explorer.serving.phone import MIN_TEXT_PX
from explorer.widgets.dice_tray import NARROW_CLASS, DiceTray, DieView, Link, Row, narrow_layout
from explorer.widgets.layout import NARROW_ONLY, WIDE_ONLY
from explorer.widgets.odds_chart import NARROW_WIDTH

ROWS = [Row("A · a very long Miner name that does not fit one line", [DieView(f"A.{i}", 3 + i, "success",
                                                                             caption=f"={13 + i}")
                                                                     for i in range(1, 8)],
            "Ranged Attack · SV 12", "7 dice · Wounds 3 · Armor 4 · a long note that wraps onto a second line",
            id="A"),
        Row("B", [DieView("B.1", 20, "critical", survives=True), DieView("B.2", 2, "failure", cancelled=True)],
            "Dodge"),
        Row("Saving Rolls", []),
        Row("Threat", [DieView("T", 3, token=True)])]
LINKS = [Link("B.1", "A.1"), Link("A.2", "B.2", mutual=True)]


def _texts(canvas):
    out: list[tuple[str, float]] = []
    fill = canvas.fill_text
    canvas.fill_text = lambda t, x, y, *a: (out.append((str(t), float(x))), fill(t, x, y, *a))
    return out


def test_the_narrow_tray_has_phone_sized_text_and_stays_inside_its_canvas():
    tray = DiceTray(width=760, picker=True)
    texts = _texts(tray.narrow)
    tray.show(ROWS, LINKS, highlight={"A"}, title="Dice tray — click a die, then type or pick its face")
    assert min(tray.fonts["narrow"]) >= MIN_TEXT_PX
    assert min(tray.fonts["wide"]) < MIN_TEXT_PX          # the wide tray, shrunk on a phone, is what this replaces
    assert tray.narrow.width == NARROW_WIDTH
    placed = tray.narrow_placed
    assert set(placed) == {d.id for r in ROWS for d in r.dice}
    for x, y, s in placed.values():
        assert 0 <= x and x + s <= NARROW_WIDTH and 0 <= y and y + s <= tray.narrow.height
    boxes = sorted(placed.values())                        # no two dice overlap
    assert all(not (abs(a[0] - b[0]) < a[2] and abs(a[1] - b[1]) < a[2]) for i, a in enumerate(boxes)
               for b in boxes[i + 1:])
    assert all(0 <= x < NARROW_WIDTH for _, x in texts)
    for r in ROWS:                                         # every row's label is on the phone tray (maybe wrapped)
        assert any(r.label.startswith(t.rstrip("…")) for t, _ in texts if t)
    assert len({y for _, y, _ in placed.values()}) >= 3   # A's seven dice wrap onto two lines


def test_the_narrow_canvases_are_the_phone_ones():
    tray = DiceTray()
    assert NARROW_ONLY in tray.narrow._dom_classes and NARROW_CLASS in tray.narrow._dom_classes
    assert WIDE_ONLY in tray.canvas._dom_classes and tray.narrow.layout.display == "none"


def test_narrow_layout_wraps_dice_under_the_label():
    title, rows, placed, bottom = narrow_layout(ROWS, "t")
    a = [(x, y) for d, x, y, _s, r in placed if r == 0]
    assert len({y for _, y in a}) == 2 and a[0][1] > rows[0].top + 8 + 20 * len(rows[0].lines) - 1
    assert all(rows[i].top + rows[i].height <= rows[i + 1].top for i in range(len(rows) - 1))
    assert bottom >= rows[-1].top + rows[-1].height


def test_a_click_on_the_narrow_tray_picks_the_same_die_as_on_the_wide_one():
    tray = DiceTray(picker=True)
    tray.show(ROWS, LINKS)
    for die, (x, y, s) in tray.narrow_placed.items():
        wide: list[str] = []
        narrow: list[str] = []
        tray._click_callbacks[:] = [wide.append]
        wx, wy, ws = tray.placed[die]
        tray.canvas._mouse_down_callbacks(wx + ws / 2, wy + ws / 2)
        tray._click_callbacks[:] = [narrow.append]
        tray.narrow._mouse_down_callbacks(x + s / 2, y + s / 2)
        assert wide == narrow == [die]
        assert tray.picked == (None if ROWS[3].dice[0].id == die else die)
    tray.narrow._touch_start_callbacks([(tray.narrow_placed["B.1"][0] + 2, tray.narrow_placed["B.1"][1] + 2)])
    assert tray.picked == "B.1"
    tray.narrow._mouse_down_callbacks(1, 1)                 # not a die: nothing
    assert tray.picked == "B.1"


@pytest.fixture(scope="module")
def pool():
    from explorer.games.masseffect.strategy_views import strategy_page

    return strategy_page()[0]


def test_the_strategy_pool_tray_on_a_phone(pool):
    d = pool.dice
    texts = _texts(d.narrow)
    d.redraw()
    assert min(d.fonts["narrow"]) >= MIN_TEXT_PX and min(d.fonts["wide"]) < MIN_TEXT_PX
    assert NARROW_ONLY in d.narrow._dom_classes and WIDE_ONLY in d.canvas._dom_classes
    assert d.narrow.width == NARROW_WIDTH
    for r, (label, dice) in enumerate(d.rows):
        assert (label, 10.0) in texts
        for i, (did, _face, _flags) in enumerate(dice):
            x, y, s = d.narrow_die_box(r, i)
            assert 0 <= x and x + s <= NARROW_WIDTH and y + s <= d.narrow.height
            assert d.die_at(x + s / 2, y + s / 2, narrow=True) == (r, i, did)
            wx, wy, ws = d.die_box(r, i)
            assert d.die_at(wx + ws / 2, wy + ws / 2) == (r, i, did)


def test_a_click_on_the_narrow_strategy_tray_does_what_a_click_on_the_wide_one_does():
    from explorer.games.masseffect.strategy_views import strategy_page

    ends = []
    for narrow in (False, True):
        w = strategy_page()[0]
        d = w.dice
        x, y, s = d.narrow_die_box(0, 1) if narrow else d.die_box(0, 1)
        (d.narrow if narrow else d.canvas)._mouse_down_callbacks(x + s / 2, y + s / 2)
        ends.append((w._picked, d.selected))
    assert ends[0] == ends[1] and ends[0][0] is not None


def _crosses(p, q, box) -> bool:
    """Whether the axis-parallel segment ``p``-``q`` meets the box ``(x0, y0, x1, y1)``."""
    (ax, ay), (bx, by) = p, q
    x0, y0, x1, y1 = box
    return min(ax, bx) <= x1 and max(ax, bx) >= x0 and min(ay, by) <= y1 and max(ay, by) >= y0


@pytest.mark.parametrize("links", [LINKS, [Link("A.7", "T"), Link("T", "A.3"), Link("B.2", "B.1"),
                                           Link("A.5", "B.1", mutual=True)]])
def test_the_phone_trays_arrows_never_cross_a_rows_header(links):
    """Issue 23: on the phone tray the rows' headers (label, sublabel, note lines) sit between the dice of two rows,
    and a straight arrow from a die of one row to a die of the next crossed them. The arrows now run along the lane
    at the right edge: no segment of any arrow meets any header line's box, and each ends on the top edge of its
    die."""
    from explorer.widgets.dice_tray import NARROW_LANE, header_boxes

    tray = DiceTray()
    tray.show(ROWS, links)
    _, rows, _, _ = narrow_layout(ROWS, "", NARROW_WIDTH)
    boxes = header_boxes(rows)
    assert boxes and all(b[2] <= NARROW_WIDTH - NARROW_LANE for b in boxes)
    assert len(tray.narrow_link_paths) == len(links)
    placed = tray.narrow_placed
    for link, path in zip(links, tray.narrow_link_paths):
        for p, q in zip(path, path[1:]):
            assert p[0] == q[0] or p[1] == q[1]           # axis-parallel
            hit = [b for b in boxes if _crosses(p, q, b)]
            assert not hit, f"{link}: {p}-{q} crosses the header box {hit}"
        x, y, s = placed[link.dst]
        assert x <= path[-1][0] <= x + s and path[-1][1] == y   # into its top edge
    # the straight arrow it replaced (B.1 up to A.1, both first in their rows: one vertical) crossed B's header
    (ax, ay, s), (bx, by, _) = placed["B.1"], placed["A.1"]
    assert ax == bx and any(_crosses((ax + s / 2, ay), (bx + s / 2, by + s), b) for b in boxes)
