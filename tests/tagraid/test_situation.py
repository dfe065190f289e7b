"""Geometry facts for the roll exchange, read from positions (TR-09, TR-17, TR-19 situations)."""

import math

from explorer.games.tagraid.lof import TableTop
from explorer.games.tagraid.megabeast import ThreatLevels
from explorer.games.tagraid.pieces import SILHOUETTE_BASE_RADIUS, Model, Scenery
from explorer.games.tagraid.ranges import RangeCalibration, WeaponRanges

CAL2 = RangeCalibration(2.0, 2.0, 2.0)  # Segments of 2 hex units (the facts below are stated for it)
from explorer.games.tagraid.situation import enemy_tags_in_contact, geometry_facts
from explorer.hexgrid import Hex, Layout, hex_range

R = SILHOUETTE_BASE_RADIUS[7]
L = Layout()


def test_tr17_facts():
    """TR-17: R in contact with two enemy TAGs, A behind R: R has no LoF to A and counts 2 enemy TAGs in contact."""
    t = TableTop([Model("R", 0, 0, facing=0, side="red"), Model("e1", 2 * R, 0, facing=180, side="blue"),
                  Model("e2", 0, 2 * R, facing=270, side="green"), Model("A", -3, 0, facing=0, side="yellow")])
    facts, trace = geometry_facts(t, "A", ["R"], active_weapon=WeaponRanges(3, 0, -3), calibration=CAL2)
    r = facts["reactive"]["R"]
    assert r["lof_to_active"] is False and r["enemy_tags_in_contact"] == 2 and r["same_hexagon"] is False
    assert facts["active"]["lof_to"]["R"] is True and facts["active"]["range"]["R"] == ("mid", 0)
    assert sorted(enemy_tags_in_contact(t, "R")) == ["e1", "e2"]
    assert "Line of Fire" in trace.to_text()


def test_tr19_facts():
    """TR-19: A behind R in R's hexagon: no LoF, same hexagon (the ARO can only be Evade, at -3)."""
    cx, cy = L.hex_to_pixel(Hex(1, 1))
    t = TableTop([Model("R", cx + 0.3, cy, facing=0.0, side="red"), Model("A", cx - 0.2, cy, side="blue")],
                 tiles={h: True for h in hex_range(Hex(0, 0), 3)}, layout=L)
    facts, _ = geometry_facts(t, "A", ["R"])
    assert facts["reactive"]["R"]["lof_to_active"] is False and facts["reactive"]["R"]["same_hexagon"] is True


def test_tr09_megabeast_facts():
    cells = {h: True for h in hex_range(Hex(0, 0), 3)}
    cells[Hex(0, 0)] = False
    d = SILHOUETTE_BASE_RADIUS[10] + R
    mb = Model("stoorworm", 0, 0, silhouette=10, kind="megabeast", side="megabeast", facing=30.0,
               angle_of_vision=180.0)
    cc = Model("cavecrawler", d * math.cos(math.radians(-60)), d * math.sin(math.radians(-60)), facing=120.0)
    t = TableTop([mb, cc], tiles=cells, layout=L)
    facts, trace = geometry_facts(t, "cavecrawler", ["stoorworm"], threat_levels=ThreatLevels(8, 5, 2))
    assert facts["megabeast"] == {"id": "stoorworm", "aro": True, "partial_cover": False, "threat_level": 5,
                                  "side_pair": "adjacent", "silhouette_contact": True}


def test_cover_and_out_of_range_facts():
    box = Scenery("box", ((6.4, -0.5), (7 - R, -0.5), (7 - R, 0.05), (6.4, 0.05)))
    t = TableTop([Model("A", 0, 0, facing=0, side="a"), Model("R", 7, 0, facing=180, side="b")], [box])
    facts, _ = geometry_facts(t, "A", ["R"], reactive_weapons={"R": WeaponRanges(0, 0, None)},
                              active_weapon=WeaponRanges(0, 0, -3, out_of_range=-6), calibration=CAL2)
    r = facts["reactive"]["R"]
    assert r["partial_cover"] is True and r["band"] == "out_of_range" and r["out_of_range"] is True
    assert facts["active"]["range"]["R"] == ("out_of_range", -6)
    assert facts["active"]["lof_to_attackers"] is True


def test_silhouette_contact_with_the_active_miner_is_a_fact():
    """The scenario field ``silhouette_contact`` (Common Skills › Close Combat Attack / Ranged Attack, Requirements)
    read from the bases: touching the Active Miner or not."""
    t = TableTop([Model("A", 0, 0, facing=0, side="red"), Model("B", 2 * R, 0, facing=180, side="blue"),
                  Model("C", 0, 6 * R, facing=270, side="green")])
    facts, _ = geometry_facts(t, "A", ["B", "C"])
    assert facts["reactive"]["B"]["silhouette_contact"] is True
    assert facts["reactive"]["C"]["silhouette_contact"] is False
