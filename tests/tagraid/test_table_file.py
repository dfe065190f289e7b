"""Table files: board + Models + calibration + rulings, with field-path errors."""

import pytest

from explorer.errors import ScenarioError
from explorer.games.tagraid.lof import line_of_fire
from explorer.games.tagraid.table_file import load_table
from explorer.hexgrid import Hex

GOOD = """
title = "Across the pit"
board = "small"
[rulings]
lof_grazing = "touching_blocks"
[range]
short = 1.5
[calibration]
base_radius = { "7" = 0.25 }
[[models]]
id = "a"
hex = "-2,2"
facing = 0.0
[[models]]
id = "b"
hex = "2,0"
facing = 180.0
side = "B"
[[models]]
id = "c"
x = 0.0
y = -3.0
silhouette = 5
kind = "deployable"
"""


def test_load_a_table_file():
    lt = load_table("t.toml", text=GOOD)
    t = lt.table
    assert t.model("a").hex == Hex(-2, 2) and t.disc("a").r == 0.25
    assert lt.range_calibration.short == 1.5 and lt.rulings.as_dict()["lof_grazing"] == "touching_blocks"
    assert lt.title == "Across the pit" and t.board is not None
    r = line_of_fire(t, "a", "b", lt.rulings)
    assert r.rulings["lof_grazing"] == "touching_blocks"


@pytest.mark.parametrize("change,field,what", [
    (("facing = 0.0", "facing = \"north\""), "models[0].facing", "number"),
    (("id = \"c\"", "id = \"c\"\ncolour = \"red\""), "models[2].colour", "unknown field"),
    (("hex = \"2,0\"", "hex = \"two\""), "models[1].hex", "not a hexagon"),
    (("hex = \"2,0\"", "hex = \"0,0\""), "models[1]", "no tile"),
    (("board = \"small\"", "board = \"huge\""), "board", "unknown packaged board"),
    (("lof_grazing = \"touching_blocks\"", "lof_grazing = \"sometimes\""), "rulings.lof_grazing", "unknown reading"),
    (("short = 1.5", "short = -1"), "range.short", "-1 is too small (allowed: 0.01 to 100)"),
    (("x = 0.0\ny = -3.0", "x = 0.0"), "models[2]", "either hex"),
    (("kind = \"deployable\"", "kind = \"tank\""), "models[2].kind", ""),
])
def test_errors_name_the_field(change, field, what):
    text = GOOD.replace(*change)
    assert text != GOOD
    with pytest.raises(ScenarioError) as e:
        load_table("t.toml", text=text)
    assert e.value.field == field and what in str(e.value) and e.value.source == "t.toml"


def test_packaged_lof_demo_table():
    from explorer.games.tagraid.lof import partial_cover
    from explorer.games.tagraid.megabeast import ThreatLevels, threat_level
    from explorer.games.tagraid.table_file import available_tables, load_packaged_table

    assert "lof-demo" in available_tables()
    t = load_packaged_table("lof-demo").table
    crate = line_of_fire(t, "stonebreaker", "cavecrawler")
    assert not crate.has_lof and crate.blocked_by == ("scenery:crate",)
    shot = line_of_fire(t, "stonebreaker", "rockeater")
    assert shot.has_lof
    cover = partial_cover(t, "stonebreaker", "rockeater")
    assert cover.in_cover and cover.pieces == ("low wall",)
    assert line_of_fire(t, "stoorworm", "stonebreaker").has_lof
    assert threat_level(t, "stoorworm", "rockeater", ThreatLevels(8, 5, 2)).level in (8, 5, 2)
    with pytest.raises(ScenarioError, match="unknown packaged table"):
        load_packaged_table("nope")


def test_shooter_weapon_and_threat_sections():
    lt = load_table("t.toml", text="shooter = \"b\"\n" + GOOD +
                    "[weapon]\nshort = 3\nlong = -3\n[threat]\nfront = 16\nadjacent = 13\nopposite = 10\n")
    assert lt.shooter == "b"
    assert (lt.weapon.short, lt.weapon.mid, lt.weapon.long, lt.weapon.out_of_range) == (3, None, -3, None)
    assert lt.weapon.mod("mid") == ("out_of_range", None)  # no MOD in that Segment: Out of Range (Range Ruler)
    assert (lt.threat.front, lt.threat.adjacent, lt.threat.opposite) == (16, 13, 10)
    plain = load_table("t.toml", text=GOOD)
    assert plain.shooter is None and plain.weapon is None and plain.threat is None
    assert (plain.range_calibration.mid, plain.range_calibration.long) == (3.5, 3.5)  # the documented default


@pytest.mark.parametrize("extra,field,what", [
    ("shooter = \"zed\"\n", "shooter", "no Model"),
    ("[weapon]\nshort = \"plus three\"\n", "weapon.short", ""),
    ("[weapon]\nmedium = 1\n", "weapon.medium", "unknown field"),
    ("[threat]\nfront = 16\nadjacent = 13\nopposite = 21\n", "threat.opposite", "21 is too large (allowed: 0 to 20)"),
    ("[threat]\nfront = 16\n", "threat.adjacent", ""),
])
def test_shooter_weapon_threat_errors_name_the_field(extra, field, what):
    text = extra + GOOD if extra.startswith("shooter") else GOOD + extra
    with pytest.raises(ScenarioError) as e:
        load_table("t.toml", text=text)
    assert e.value.field == field and what in str(e.value)


def test_default_lof_scenario_is_the_packaged_lof_quarry_table():
    from explorer.games.tagraid.lof_views import DEFAULT_TABLE, default_lof_scenario
    from explorer.games.tagraid.table_file import available_tables, load_packaged_table

    assert DEFAULT_TABLE in available_tables()
    lt = load_packaged_table(DEFAULT_TABLE)
    sc = default_lof_scenario()
    assert sc.shooter == lt.shooter == "Cutter"
    assert [(m.id, m.x, m.y, m.facing, m.silhouette) for m in sc.models] == \
        [(m.id, m.x, m.y, m.facing, m.silhouette) for m in lt.table.models.values()]
    assert sc.weapon == lt.weapon and sc.threat == lt.threat and sc.calibration == lt.range_calibration
    assert sc.board.name == "Quarry" and not sc.board.edge_features  # TAG Raid boards: no walls or doors on sides
