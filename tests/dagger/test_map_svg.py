"""The static SVG of the world map: imports no widgets, draws every space and line, marks overrun bases."""

import subprocess
import sys
import xml.etree.ElementTree as ET

from explorer.games.dagger.map_svg import map_svg

from .helpers import builtin, frames


def test_svg_draws_spaces_lines_and_state():
    sc = builtin("dg-activation")
    last = frames("dg-activation")[-1].state
    svg = map_svg(sc.world, last, highlight=("Cairo",))
    root = ET.fromstring(svg)
    ns = "{http://www.w3.org/2000/svg}"
    assert len(root.findall(f"{ns}line")) == len(sc.world.links)
    assert len(root.findall(f"{ns}circle")) + len(root.findall(f"{ns}rect")) - 1 == len(sc.world.spaces)
    texts = [t.text for t in root.findall(f"{ns}text")]
    assert "Hero B" in texts and "Brute 1" in texts
    assert "Wakanda: overrun" in svg and "Atlantis: overrun" in svg and "New York: overrun" not in svg
    assert any("threat 6/20" in (t or "") for t in texts)


def test_renderer_imports_no_widgets():
    code = ("import sys, explorer.games.dagger.map_svg; "
            "print([m for m in ('ipywidgets', 'ipycanvas') if m in sys.modules])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


# ----------------------------------------------- labels never overlap (issue 20, session 9 item 4: the picture)

def _boxes(svg):
    from explorer.games.dagger.map_svg import CHAR_W, LINE_H

    root = ET.fromstring(svg)
    ns = "{http://www.w3.org/2000/svg}"
    labels, markers = [], []
    for t in root.findall(f"{ns}text"):
        if t.get("text-anchor") != "middle":
            continue                                           # the caption line under the map
        w = CHAR_W * len(t.text)
        labels.append((t.text, (float(t.get("x")) - w / 2, float(t.get("y")) - LINE_H + 2.5, w, LINE_H)))
    for c in root.findall(f"{ns}circle"):
        r = float(c.get("r"))
        markers.append((float(c.get("cx")) - r, float(c.get("cy")) - r, 2 * r, 2 * r))
    for r in root.findall(f"{ns}rect")[1:]:                   # the first is the white background
        markers.append((float(r.get("x")), float(r.get("y")), float(r.get("width")), float(r.get("height"))))
    return labels, markers, float(root.get("width"))


def _hit(a, b):
    return min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0]) > 0.5 and min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1]) > 0.5


def _pictures():
    from explorer.games import get_game
    from explorer.games.dagger.game import picture
    from explorer.games.dagger.round_scenario import RoundScenario, play_rounds

    g = get_game("dagger")
    for name in g.builtin_names():
        sc = g.load_builtin(name)
        yield name, picture(sc, g.resolve(sc))                 # the gallery's picture (scale 1)
        kind, one = sc
        if isinstance(one, RoundScenario):                     # the Round page's map (scale 0.6) at every 5th frame
            for f in play_rounds(one)[0][::5]:
                yield f"{name} {f.name}", map_svg(one.world, f.state.game, scale=0.6)


def test_no_label_overlaps_another_label_or_a_space_marker_nor_leaves_the_picture():
    seen = 0
    for name, svg in _pictures():
        if svg is None:
            continue
        labels, markers, width = _boxes(svg)
        for i, (text, box) in enumerate(labels):
            assert box[0] >= -0.5 and box[0] + box[2] <= width + 0.5, (name, text)
            assert not any(_hit(box, m) for m in markers), (name, text)
            clash = [t for t, b in labels[i + 1:] if _hit(box, b)]
            assert not clash, (name, text, clash)
        seen += 1
    assert seen > 30
