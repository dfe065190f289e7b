"""Static SVG rendering of boards and overlays.

The golden file tests/golden/small_board.svg is the rendering of explorer.board.small_board() with a fixed set of
overlays. After an intended change of the renderer, regenerate it with

    EXPLORER_REGEN_GOLDEN=1 PYTHONPATH=$PWD /work/venv/bin/python -m pytest -q tests/test_svg.py

and look at the new file (open it in a browser) before committing it.
"""

import os
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from explorer.board import Board, Cell, EdgeFeature, EdgeKind, Special, Terrain, TILELESS, fixture_board, small_board
from explorer.hexgrid import Edge, Hex, Layout
from explorer.render.svg import (
    BLOCKED, TERRAIN_FILL, TILELESS_FILL, WITNESS, Circle, HexMark, Label, Poly, Segment, edge_overlay, render_board,
)

GOLDEN = Path(__file__).parent / "golden" / "small_board.svg"
NS = {"s": "http://www.w3.org/2000/svg"}


def golden_overlays(board):
    lay = board.layout
    a, b = lay.hex_to_pixel(Hex(-2, 2)), lay.hex_to_pixel(Hex(2, -2))
    return [
        HexMark(Hex(-2, 2), stroke="#ffbf00"),
        Circle(a, 0.45, fill="#4a90d9", stroke="#123", facing=lay.direction_angle(1), arc=180, label="A",
               title="Miner A"),
        Circle(b, 0.6, fill="#d94a4a", facing=lay.direction_angle(4), arc=120, label="B"),
        Segment(a, b, **WITNESS, title="witness"),
        Segment(a, lay.hex_to_pixel(Hex(0, 0)), **BLOCKED, arrow=True),
        Label((a[0], a[1] + 1.2), "LoF", size=10),
        Poly([a, lay.hex_to_pixel(Hex(-1, 2)), lay.hex_to_pixel(Hex(-1, 1))], closed=False, stroke="#00f"),
        edge_overlay(Edge(Hex(0, 1), Hex(1, 1)), board, stroke="#ff00ff", width=2),
    ]


def render_golden():
    b = small_board()
    return render_board(b, size=30, overlays=golden_overlays(b), coords=True)


def test_golden_small_board():
    svg = render_golden()
    if os.environ.get("EXPLORER_REGEN_GOLDEN"):
        GOLDEN.parent.mkdir(exist_ok=True)
        GOLDEN.write_text(svg, encoding="utf-8")
    assert GOLDEN.exists(), "golden file missing: run with EXPLORER_REGEN_GOLDEN=1"
    assert svg == GOLDEN.read_text(encoding="utf-8")


def parse(svg):
    return ET.fromstring(svg)


def test_svg_is_well_formed_and_layered():
    b = small_board()
    root = parse(render_board(b, overlays=golden_overlays(b)))
    classes = [g.get("class") for g in root.findall("s:g", NS)]
    assert classes == ["terrain", "tileless", "special", "areas", "elevation", "scenery", "edges", "overlays"]
    terrain = root.find("s:g[@class='terrain']", NS)
    hexes = {p.get("data-hex"): p.get("fill") for p in terrain.findall("s:polygon", NS)}
    assert len(hexes) == len(b.tiles) == 17
    for h in b.tiles:
        assert hexes[str(h)] == TERRAIN_FILL[b[h].terrain]
    tl = root.find("s:g[@class='tileless']", NS).findall("s:polygon", NS)
    assert {p.get("data-hex") for p in tl} == {"0,0", "2,-1"} and all(p.get("fill") == TILELESS_FILL for p in tl)
    special = {g.get("data-hex"): g.get("data-special") for g in root.find("s:g[@class='special']", NS)}
    assert special == {"1,0": "impassable", "-1,1": "difficult"}
    edges = {ln.get("data-edge"): ln.get("data-kind") for ln in root.find("s:g[@class='edges']", NS)}
    assert edges == {"0,1|1,1": "wall", "-1,2|0,2": "door"}
    assert root.find("s:g[@class='scenery']/s:polygon", NS).get("data-scenery") == "boulder"
    assert root.find("s:g[@class='areas']/s:path", NS).get("data-area") == "pit"
    ov = root.find("s:g[@class='overlays']", NS)
    assert len(list(ov)) == 8
    assert [ln.get("stroke") for ln in ov.findall("s:line[@class='segment']", NS)] == \
        [WITNESS["stroke"], BLOCKED["stroke"], "#ff00ff"]


def test_hex_polygons_are_where_the_layout_puts_them():
    b = Board.hexagon(1)
    size, margin = 20.0, 5.0
    root = parse(render_board(b, size=size, margin=margin))
    minx, miny, _, _ = b.bounds()
    for p in root.find("s:g[@class='terrain']", NS):
        h = Hex.parse(p.get("data-hex"))
        pts = [tuple(map(float, xy.split(","))) for xy in p.get("points").split()]
        cx = sum(x for x, _ in pts) / 6
        cy = sum(y for _, y in pts) / 6
        ex, ey = b.layout.hex_to_pixel(h)
        assert abs(cx - ((ex - minx) * size + margin)) < 0.02 and abs(cy - ((ey - miny) * size + margin)) < 0.02


def test_facing_arc_points_the_right_way():
    b = Board.hexagon(1)
    lay = b.layout
    root = parse(render_board(b, size=10, margin=0, overlays=[Circle((0.0, 0.0), 0.5, facing=0.0, arc=180)]))
    line = root.find(".//s:line[@class='facing']", NS)
    assert float(line.get("x2")) > float(line.get("x1")) and abs(float(line.get("y2")) - float(line.get("y1"))) < 1e-6
    assert lay.direction_angle(0) == 0.0 and lay.direction_angle(1) == 300.0
    assert Layout("flat").direction_angle(2) == 270.0


def test_overlays_outside_the_board_enlarge_the_canvas():
    b = Board.hexagon(0)
    w0 = float(parse(render_board(b)).get("width"))
    w1 = float(parse(render_board(b, overlays=[Segment((0.0, 0.0), (10.0, 0.0))])).get("width"))
    assert w1 > w0 + 200


def test_text_is_escaped_and_errors():
    b = Board({Hex(0, 0): Cell(Terrain.SAND, area="<pit & co>")}, name='A "quoted" <board>')
    svg = render_board(b, overlays=[Label((0.0, 0.0), "<&>")])
    parse(svg)  # well-formed despite the special characters
    assert "&lt;&amp;&gt;" in svg
    with pytest.raises(ValueError, match="size"):
        render_board(b, size=0)
    with pytest.raises(ValueError, match="unknown overlay.*Segment"):
        render_board(b, overlays=["not an overlay"])  # type: ignore[list-item]


def test_repr_svg_and_fixture_renders():
    f = fixture_board()
    svg = f._repr_svg_()
    root = parse(svg)
    assert len(root.find("s:g[@class='terrain']", NS)) + len(root.find("s:g[@class='tileless']", NS)) == len(f)
    assert re.match(r"<svg ", svg)
    flat = Board.rectangle(4, 3, orientation="flat", cell=lambda h: TILELESS if h == Hex(1, 1) else
                           Cell(Terrain.ROCKY, special=Special.DIFFICULT if h == Hex(0, 0) else None))
    flat = Board(flat.cells, edge_features=[EdgeFeature(Edge(Hex(0, 0), Hex(1, 0)), EdgeKind.BARRIER)],
                 orientation="flat")
    parse(flat.to_svg(coords=True))
