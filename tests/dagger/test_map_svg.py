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
