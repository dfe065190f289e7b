"""The mission-map widget builds, answers clicks (no browser: programmatic selection), and follows rulings."""

from explorer.hexgrid import Hex
from explorer.games.masseffect.map import load_map
from explorer.games.masseffect.map_views import MissionMapView, default_characters, map_page


def test_map_page_builds_and_redraws():
    w, redraw = map_page()
    redraw()
    view = w.children[1]
    assert "Shepard" in view.characters and any(n.startswith("Minion") for n in view.characters)


def test_click_character_shows_lof_and_click_hex_shows_distances():
    m = load_map("diagram-4")
    v = MissionMapView(m, {"Garrus": (Hex(0, 0), "squadmate"), "Husk 4": (Hex(-3, 0), "enemy")})
    v.board.select("Garrus")
    assert "Line of Fire" in v.answer.value and "walls always block" in v.answer.value
    assert any(getattr(o, "title", "") and "blocked" in o.title for o in v.board.overlays)
    v.mode.value = "Distance"
    v.board.select(Hex(-3, 0))
    assert "Distances from -3,0" in v.answer.value
    assert any(getattr(o, "title", "") == "0,0: distance 4" for o in v.board.overlays)   # round the wall
    v.mode.value = "Distance ignoring walls"
    assert any(getattr(o, "title", "") == "0,0: distance 3" for o in v.board.overlays)


def test_default_characters_from_icons():
    chars = default_characters(load_map("demo-mission"))
    assert sum(1 for _, s in chars.values() if s == "squadmate") == 5
