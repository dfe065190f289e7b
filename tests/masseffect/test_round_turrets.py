"""Issue 19, item (e) of the Round: Turrets Activated by Hazard cards inside the Round (Additional Rules › Turrets:
each Active Turret deals the card's Damage to each Squadmate in its Line of Fire, its own hex included, one Turret
at a time; a Disabled Turret has no Line of Fire), on cards that mix Turrets and Enemy instructions. Elites inside
the Round (their Resilience Tracker) are exercised by me-round-loot (tests/masseffect/test_round_loot.py). Built-in
me-round-turrets, golden trace tests/masseffect/golden/me-round-turrets.txt."""

from pathlib import Path

import pytest
from golden_helpers import check_golden, trace_text
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.errors import ScenarioError
from explorer.games.masseffect import sections as S
from explorer.games.masseffect.round import _card_blocks, TurretFire, parse_round, resolve_round
from explorer.scenario import read_toml

SCENARIOS = Path(__file__).parents[2] / "explorer" / "games" / "masseffect" / "scenarios"
GOLDEN = Path(__file__).parent / "golden"


def data():
    return read_toml(SCENARIOS / "me-round-turrets.toml")


def resolve(d, rulings=None):
    return resolve_round(parse_round(d, "x.toml"), rulings)


def test_golden_trace():
    check_golden(GOLDEN, "me-round-turrets", trace_text(resolve(data())))


def test_turret_damage_values():
    t = resolve(data())
    o = t.result
    sq = {s.name: (s.shield_points, s.hit_points, s.downed) for s in o.squadmates}
    # Liara on the 3,-1 Turret's own hex and at the end of the -1,3 Turret's line: 2 + 2, 1 + 1, then 1: Downed
    assert sq["Liara"] == (0, 0, True)
    # Garrus on the -1,3 Turret's line only: 2, 1, 1 = 4 of 3 Shields + 5 Hit Points; Shields back at the End Phase
    assert sq["Garrus"] == (3, 4, False)
    # Shepard stepped out of the 3,-1 Turret's row before the first card
    assert sq["Shepard"] == (4, 6, False)
    disabled = [s for s in t.steps if "0,-3 is Disabled" in s.title]
    assert len(disabled) == 3 and all(s.rule == S.TURRETS for s in disabled)
    # the spawned Minion is still "the Spawned Enemy" after the Turrets' instruction
    ambush = [s.title for s in t.steps if s.section == "Turn 3: Liara"]
    assert ambush.index("Trooper Activates at -3,3") > ambush.index(
        "Turrets Activate: 1 Damage to each Squadmate in an Active Turret's Line of Fire")
    assert o.on_point == "Garrus"


def test_turret_line_of_fire_includes_its_own_hex_only_in_its_facing():
    d = data()
    d["squadmates"][2]["position"] = "2,-2"       # next to the 3,-1 Turret but not on its row
    t = resolve(d)
    liara = next(s for s in t.result.squadmates if s.name == "Liara")
    assert (liara.shield_points, liara.hit_points) == (2, 5)


def test_card_blocks_keep_the_order():
    a, b = object(), object()
    assert _card_blocks((a, TurretFire(2), b, a)) == [(a,), TurretFire(2), (b, a)]


def test_file_errors():
    d = data()
    d["hazard_deck"][0]["instructions"][0]["damage"] = 0
    with pytest.raises(ScenarioError) as e:
        parse_round(d, "x.toml")
    assert "hazard_deck[0].instructions[0].damage" in str(e.value)


@settings(max_examples=15, deadline=None)
@given(at=st.sampled_from([f"{q},{r}" for q in range(-3, 4) for r in range(-3, 4) if abs(q + r) <= 3]),
       dmg=st.integers(1, 3))
def test_a_squadmate_takes_the_damage_of_each_active_turret_whose_line_holds_it(at, dmg):
    """Property: with one card Activating the Turrets, a lone Squadmate loses exactly ``dmg`` per Active Turret whose
    Line of Fire (:func:`.geometry.turret_targets`) holds its hex; the Disabled one never counts."""
    from explorer.games.masseffect.geometry import turret_targets
    from explorer.games.masseffect.map import map_from_dict
    from explorer.hexgrid import Hex

    d = data()
    d["squadmates"] = [{"name": "Shepard", "max_shield_points": 4, "max_hit_points": 6, "position": at}]
    d["hazard_deck"] = [{"name": "T", "instructions": [{"do": "activate_turrets", "damage": dmg}]}]
    d["turns"] = []
    t = resolve(d)
    m = map_from_dict(d["map"], "x")
    n = sum(1 for tu in m.turrets if tu.active and Hex.parse(at) in turret_targets(m, tu.hex))
    hits = [s for s in t.steps if s.title.startswith("Shepard suffers")]
    assert len(hits) == n and all(f" {dmg} Damage" in s.title for s in hits)
    shepard = t.result.squadmates[0]
    assert shepard.hit_points == 6 - max(0, n * dmg - 4) or shepard.downed
