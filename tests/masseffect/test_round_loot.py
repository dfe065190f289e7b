"""Issue 19, items (c) and (d) of the Round: Loot tokens picked up by moving into their hex and kept in the squad's
Inventory (Loot Tokens; ruling ``loot_pickup``), Grenades and Grenade Caches thrown from the map at a hex in Line of
Fire within three hexes, each Enemy in or adjacent to it Damaged (Grenade and Grenade Cache Tokens; rulings
``xp_outside_actions``, ``grenade_shrouded``), Medi-gel used at the start or end of an Action (Medi-gel Tokens).
Built-in me-round-loot, golden trace tests/masseffect/golden/me-round-loot.txt."""

import copy
from pathlib import Path

import pytest
from golden_helpers import check_golden, trace_text
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.errors import ScenarioError
from explorer.games.masseffect import sections as S
from explorer.games.masseffect.round import ROUND_SEQUENCE, parse_round, resolve_round, round_start
from explorer.kernel import play
from explorer.scenario import read_toml

SCENARIOS = Path(__file__).parents[2] / "explorer" / "games" / "masseffect" / "scenarios"
GOLDEN = Path(__file__).parent / "golden"


def data():
    return read_toml(SCENARIOS / "me-round-loot.toml")


def resolve(d, rulings=None):
    return resolve_round(parse_round(d, "x.toml"), rulings)


def frames(d, rulings=None):
    state, ctx = round_start(parse_round(d, "x.toml"), rulings)
    return play(state, ROUND_SEQUENCE, ctx)


def test_golden_trace():
    check_golden(GOLDEN, "me-round-loot", trace_text(resolve(data())))


def test_loot_inventory_grenades_and_medi_gel_values():
    t = resolve(data())
    o = t.result
    assert o.rejected is None
    js = o.to_json()
    assert js["inventory"] == [] and js["loot"] == {}          # every token gained, then used
    by = {f.name: f.state for f in frames(data())}
    assert by["Preparation Phase"].inventory == () and len(by["Preparation Phase"].loot) == 2
    # the Grenade (2), the Grenade Cache (3): the Brute's Resilience [4, 5]: 2, then 2 + 3 exhausts level 1 with
    # 1 excess disregarded; Concussive Shot then 1 of 5 on level 2 (removed in the End Phase)
    grenade = next(s for s in t.steps if s.rule == S.GRENADES and "throws a Grenade at" in s.title)
    assert grenade.facts["targets"] == ["Husk A", "Husk B", "Brute"] and grenade.facts["damage"] == 2
    cache = next(s for s in t.steps if "throws a Grenade Cache" in s.title)
    assert cache.facts["damage"] == 3 and cache.section == "Turn 2: Garrus"
    assert any("Resilience level 1/2 exhausted, 1 excess disregarded" in s.title for s in t.steps)
    # Husk A Defeated by the Grenade: no XP (default reading); Husk B by Shoot: 1 XP
    assert any("gains no XP for Husk A" in s.title for s in t.steps)
    assert any("Shepard gains 1 XP for Defeating Husk B" in s.title for s in t.steps)
    assert o.returned_to_bag == ("Husk A", "Husk B")
    shepard = next(s for s in o.squadmates if s.name == "Shepard")
    assert shepard.hit_points == 6                           # 4 + 2 (Medi-gel)


def test_grenade_xp_ruling():
    t = resolve(data(), {"xp_outside_actions": "core_abilities_and_grenades"})
    assert any("Shepard gains 1 XP for Defeating Husk A" in s.title for s in t.steps)


def test_loot_passed_through_ruling():
    t = resolve(data(), {"loot_pickup": "end_of_move"})
    # the Grenade and the Medi-gel at 0,-1 stay face-down: the Grenade at the end of the Move is refused
    assert any("only passes through 0,-1" in s.title for s in t.steps)
    assert any("moves into 1,-1: 1 Loot token flipped" in s.title for s in t.steps)   # the Move's steps stand
    assert t.steps[-1].facts["field"] == "turns[0].actions[0].items[0].use"
    assert "no Grenade token in the Inventory (Grenade Cache)" in t.result.rejected


def _with_items(items, action=0, turn=0):
    d = data()
    d["turns"][turn]["actions"][action]["items"] = items
    return d


@pytest.mark.parametrize("items,field", [
    ([{"use": "grenade", "when": "start", "at": "3,-1"}], "turns[0].actions[0].items[0].use"),  # not picked up yet
    ([{"use": "grenade", "at": "3,0"}], "turns[0].actions[0].items[0].at"),    # 3 hexes, off every straight line
    ([{"use": "grenade", "at": "-3,2"}], "turns[0].actions[0].items[0].at"),   # 4 hexes away
    ([{"use": "medi_gel", "target": "Garrus"}], "turns[0].actions[0].items[0].target"),   # 3 hexes away
])
def test_refusals_name_the_field_and_cite_the_rule(items, field):
    d = _with_items(items)
    d["squadmates"][1]["position"] = "4,-4"            # Garrus 3 hexes from where Shepard's Move ends
    t = resolve(d)
    last = t.steps[-1]
    assert last.title.startswith("Not allowed") and last.facts["field"] == field
    assert last.rule in (S.GRENADES, S.MEDI_GEL)


def test_grenade_within_three_hexes_and_in_line_of_fire_from_the_map():
    """The target hex comes from the map: 4,-1 is 3 hexes from Shepard at 1,-1 and in his Line of Fire: the Enemy in
    it and both Enemies adjacent to it suffer the Damage; 3,-2 (2 hexes) is not in his Line of Fire."""
    t = resolve(_with_items([{"use": "grenade", "at": "4,-1"}]))
    g = next(s for s in t.steps if s.rule == S.GRENADES)
    assert g.facts["hex"] == "4,-1" and g.facts["targets"] == ["Husk A", "Husk B", "Brute"]
    t = resolve(_with_items([{"use": "grenade", "at": "3,-2"}]))
    assert t.steps[-1].facts["field"] == "turns[0].actions[0].items[0].at" and "Line of Fire" in t.result.rejected


def test_grenade_on_a_shrouded_enemy_ruling():
    d = data()
    d["enemies"][2]["shrouded"] = True                     # the Brute stands Shrouded (Stunned side up)
    d["enemies"][2]["stunned"] = True
    d["turns"] = d["turns"][:1]
    t = resolve(d)
    g = next(s for s in t.steps if s.rule == S.GRENADES)
    assert "Brute" not in g.facts["targets"] and t.rulings["grenade_shrouded"] == "spared"
    t = resolve(d, {"grenade_shrouded": "damaged"})
    g = next(s for s in t.steps if s.rule == S.GRENADES)
    assert "Brute" in g.facts["targets"] and t.result.rejected is None
    assert any(s.title.startswith("Brute suffers 2 Damage") for s in t.steps)


def test_file_errors():
    d = data()
    d["loot"]["2,2"] = ["grenade", "grenade"]                # three Grenades: the box holds two
    with pytest.raises(ScenarioError) as e:
        parse_round(d, "x.toml")
    assert e.value.field == "loot"
    d = data()
    d["loot"]["9,9"] = ["medi_gel"]
    with pytest.raises(ScenarioError) as e:
        parse_round(d, "x.toml")
    assert e.value.field == "loot.9,9"
    d = data()
    d["loot"]["0,-1"] = ["medi_gel"] * 13
    with pytest.raises(ScenarioError) as e:
        parse_round(d, "x.toml")
    assert e.value.field == 'loot."0,-1"'   # the key as TOML writes it (a comma needs quotes)
    d = _with_items([{"use": "grenade"}])
    with pytest.raises(ScenarioError) as e:
        parse_round(d, "x.toml")
    assert e.value.field == "turns[0].actions[0].items[0].at"
    d = _with_items([{"use": "medi_gel", "target": "Husk A"}])
    with pytest.raises(ScenarioError) as e:
        parse_round(d, "x.toml")
    assert e.value.field == "turns[0].actions[0].items[0].target"


@settings(max_examples=15, deadline=None)
@given(at=st.sampled_from([f"{q},{r}" for q in range(-4, 5) for r in range(-4, 5) if abs(q + r) <= 4]))
def test_a_grenade_damages_exactly_the_enemies_in_or_next_to_its_hex(at):
    """Property: wherever Shepard throws, a Grenade either is refused (too far, not in Line of Fire: cited, field
    named) or Damages exactly the Enemies in or adjacent to the hex, each by 2."""
    from explorer.games.masseffect.activation import MapTerrain, _load_map
    from explorer.games.masseffect.options import rulings
    from explorer.hexgrid import Hex

    d = _with_items([{"use": "grenade", "at": at}])
    d["turns"][0]["actions"] = d["turns"][0]["actions"][:1]
    d["turns"] = d["turns"][:1]
    t = resolve(d)
    terrain = MapTerrain(_load_map(d["map"], None), rulings())
    h = Hex.parse(at)
    g = [s for s in t.steps if s.rule == S.GRENADES and "throws" in s.title]
    if not g:
        assert t.steps[-1].facts["field"] == "turns[0].actions[0].items[0].at"
        assert t.steps[-1].rule == S.GRENADES
        return
    start = {e["name"]: Hex.parse(e["position"]) for e in d["enemies"]}
    want = [n for n, p in start.items() if p == h or terrain.adjacent(p, h)]
    assert g[0].facts["targets"] == want
    assert terrain.distance(Hex.parse("1,-1"), h) <= 3


def test_an_earlier_loot_step_keeps_its_own_inventory_when_later_steps_run():
    """Loot Tokens: the Move into 0,-1 then 1,-1 tells two Loot steps; the first one's facts["inventory"] is what the
    Inventory held after 0,-1 alone, an immutable copy, and neither the second hex nor any later step changes it (the
    step used to hold the very list the next hex then extended)."""
    t = resolve(data())
    loot = [s for s in t.steps if s.rule == S.LOOT_TOKENS and "flipped face-up" in s.title]
    assert [s.facts["hex"] for s in loot] == ["0,-1", "1,-1"]
    first, second = loot
    assert first.facts["inventory"] == ("grenade", "medi_gel")
    assert second.facts["inventory"] == ("grenade", "medi_gel", "grenade_cache")
    assert isinstance(first.facts["inventory"], tuple) and first.facts["inventory"] is not second.facts["inventory"]
    # frame by frame: each frame's facts copied the moment the kernel yields it, compared once every later frame ran
    from explorer.kernel import _frames

    state, ctx = round_start(parse_round(data(), "x.toml"))
    told = [(f, [copy.deepcopy(dict(s.facts)) for s in f.steps]) for f in _frames(state, ROUND_SEQUENCE, ctx, None,
                                                                                 None)]
    assert [[dict(s.facts) for s in f.steps] for f, _ in told] == [facts for _, facts in told]
    assert any(d.get("inventory") == ("grenade", "medi_gel") for _, facts in told for d in facts)
