"""The mission-map widget builds, answers clicks (no browser: programmatic selection), and follows rulings."""

import html

from explorer.hexgrid import Hex
from explorer.games.masseffect.map import load_map
from explorer.games.masseffect.map_views import MissionMapView, default_characters, map_page


def test_map_page_builds_and_redraws():
    w, redraw = map_page()
    redraw()
    view = w.children[1]
    assert w.note.scenario_id == "me-diagram-4"              # the game's default scenario, its answers shown
    assert "Garrus" in view.characters and "Husk 4" in view.characters
    w.children[0].value = "demo-mission"                     # a packaged map: characters on its icons, no note
    view = w.children[1]
    assert "Shepard" in view.characters and any(n.startswith("Minion") for n in view.characters)
    assert w.note.scenario_id is None


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


def test_rotate_buttons_only_for_a_turret_and_they_turn_its_facing():
    from explorer.games.masseffect import geometry as G

    w, _ = map_page("demo-mission")
    v = w.children[1]
    assert v.board.rotate_left.layout.display == "none" and v.board.rotate_right.layout.display == "none"
    t = v.map.turrets[0]
    v.board.select(t.hex)
    assert v.board.rotate_left.layout.display is None and "Turret" in v.answer.value
    before = G.turret_targets(v.map, t.hex)
    v.board.rotate_right.click()
    assert v.map.turret_at(t.hex).facing == (t.facing + 1) % 6
    assert G.turret_targets(v.map, t.hex) != before and v.map.direction_name((t.facing + 1) % 6) in v.answer.value
    v.board.select("Shepard")
    assert v.board.rotate_left.layout.display == "none"


def test_legend_names_every_icon_and_feature_and_shrouded_areas_are_marked():
    from explorer.games.masseffect.map import Icon
    from explorer.games.masseffect.map_views import KIND_NAMES, legend_html, map_decor

    text = legend_html()
    for words in ("Wall", "Locked door", "Unlocked door", "Obstacle", "Elevation Change", "High Ground",
                  "Shrouded area", "Turret"):
        assert words in text
    assert set(KIND_NAMES) == set(Icon) and all(html.escape(KIND_NAMES[k]) in text for k in Icon)
    m = load_map("demo-mission")
    shrouded = {h for a in m.areas if a.shrouded for h in a.hexes}
    marks = {o.hex for o in map_decor(m) if getattr(o, "dash", None) == "3 3"}
    assert shrouded and marks == shrouded
    labels = [o.text for o in map_decor(m) if hasattr(o, "text")]
    assert sum(t.startswith("Shrouded:") for t in labels) == sum(a.shrouded for a in m.areas)


def test_lof_answer_lists_each_line_and_each_character_with_why():
    m = load_map("diagram-4")
    v = MissionMapView(m, {"Garrus": (Hex(0, 0), "squadmate"), "Husk 4": (Hex(-3, 0), "enemy"),
                           "Husk 1": (Hex(3, 0), "enemy")})
    v.board.select("Garrus")
    a = v.answer.value
    assert a.count("<li><b>") == 6                                    # the six straight lines, by direction
    assert "Husk 4</b> (-3,0): not in Line of Fire" in a and "walls always block" in a
    assert "Husk 1</b> (3,0): in Line of Fire" in a
    v.mode.value = "Distance"                                          # a character in distance mode: from its hex
    assert "Distances from Garrus on 0,0" in v.answer.value and "Husk 4 4" in v.answer.value
