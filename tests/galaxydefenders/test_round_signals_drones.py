"""NPC signals (11.10.1 with 10.1.1-10.1.2) and robot drones (9.7.4) in a round on a map: a revealed NPC signal
becomes the top NPC card, assigned by 10.1.2, on the signal's hex (or only discarded with five NPCs in play or the
deck empty); when the new NPC is first activated is ruling revealed_npc_activation; drones are placed, activated
(move and fight), targeted by aliens as agents, destroyed (the Hologram when attacked), never counted by Event
cards."""

from __future__ import annotations

import tomllib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_hostile_files import to_toml

from explorer.errors import RuleViolation, ScenarioError
from explorer.games import get_game, load_any
from explorer.games.galaxydefenders import sections as S
from explorer.games.galaxydefenders.round_signals import DRONE_TILES

from .helpers import resolve

G = get_game("galaxydefenders")


def doc(name: str) -> dict:
    return tomllib.loads(G.scenario_text(name))


def run(d, **rulings):
    game, sc = load_any("r.toml", text=to_toml(d))
    return game.resolve(sc, rulings=rulings)


def refused(d, **rulings) -> RuleViolation:
    with pytest.raises(RuleViolation) as e:
        run(d, **rulings)
    return e.value


# ------------------------------------------------------------------------------------------------ NPC signals

def test_the_built_in_npc_signal_brings_the_top_card_assigned_by_10_1_2():
    t = resolve("gd-round-npc-signal")
    o = t.outcome
    titles = [s.title for s in t.steps]
    assert "Marine (Alpha Agent) draws Knight from the top of the NPC deck" in titles
    give = next(s for s in t.steps if s.title.startswith("Biotech gets the NPC card"))
    assert give.rule == S.NPC_ASSIGNMENT and give.facts["assigned_to"] == "Biotech"
    enter = next(s for s in t.steps if s.title.startswith("Knight enters play on 4,1"))
    assert enter.rule == S.NPC_SIGNALS
    # the deck is empty when S2 is revealed: only the token goes
    assert any(x.startswith("No NPC enters: no card is left in the NPC deck") for x in titles)
    assert o["signals"] == ["S3"] and o["positions"]["Knight"] == "7,1"
    assert o["npcs"]["Knight"]["status"] == "alive" and o["aliens"]["Xeno"]["wounds"] == 2
    assert t.rulings == {"agent_path_figures": "aliens_block", "line_of_sight": "centre_to_centre",
                         "revealed_npc_activation": "next_turn"}


def test_the_new_npc_must_be_activated_in_its_controllers_turn():
    d = doc("gd-round-npc-signal")
    d["turns"][1]["activities"] = d["turns"][1]["activities"][1:]
    v = refused(d)
    assert "did not activate Knight" in v.reason and v.rejection.field == "turns[1].activities"


def own_reveal(d):
    """The Marine reveals S1 and, as NPC specialist, gets the Knight in his own turn."""
    d["npc_specialist"] = "Marine"
    return d


def test_revealed_npc_activation_next_turn_refuses_it_in_the_same_turn():
    d = own_reveal(doc("gd-round-npc-signal"))
    d["turns"][0]["activities"].append({"kind": "activate_npc", "npc": "Knight"})
    d["turns"][1]["activities"] = d["turns"][1]["activities"][1:]
    v = refused(d)
    assert "Knight is not assigned to Marine" in v.reason
    # the default lets the turn end without it
    d["turns"][0]["activities"].pop()
    t = run(d)
    assert t.rulings["revealed_npc_activation"] == "next_turn" and t.outcome["positions"]["Knight"] == "4,1"


def test_revealed_npc_activation_same_turn_requires_it_after_the_last_activity():
    d = own_reveal(doc("gd-round-npc-signal"))
    d["turns"][1]["activities"] = d["turns"][1]["activities"][1:]
    v = refused(d, revealed_npc_activation="same_turn")
    assert "did not activate" in v.reason and "Knight" in v.reason
    d["turns"][0]["activities"].append({"kind": "activate_npc", "npc": "Knight",
                                        "rolled": {"defend": {"Xeno": ["blank", "blank"]}}})
    t = run(d, revealed_npc_activation="same_turn")
    assert t.outcome["turns"][0]["npcs"] == ["Sgt. Rock", "Knight"]


def test_five_npcs_in_play_only_discard_the_signal():
    d = doc("gd-round-npc-signal")
    spots = ["0,0", "0,1", "2,0", "2,1"]
    for i, h in enumerate(spots):
        d["npcs"].append({"name": f"Clone {i}", "controller": "Biotech", "at": h})
    d["turns"] = [{"agent": "Marine", "activities": [{"kind": "move", "to": "3,1", "reveal": ["S1"]},
                                                     {"kind": "activate_npc", "npc": "Sgt. Rock"}]}]
    t = run(d)
    assert any(s.title.startswith("No NPC enters: 5 NPCs are in play") for s in t.steps)
    assert "Knight" not in t.outcome["npcs"] and t.outcome["signals"] == ["S2", "S3"]


def test_an_alien_signal_without_its_alien_or_a_second_reveal_is_refused():
    d = doc("gd-round-npc-signal")
    d["turns"][0]["activities"][0]["reveal"] = ["S3"]
    with pytest.raises(ScenarioError) as e:
        run(d)
    assert "Alien signal S3 brings no alien" in str(e.value) and "signal = 'S3'" in str(e.value)
    assert e.value.field == "turns[0].activities[0].reveal[0]"
    d = doc("gd-round-npc-signal")
    d["turns"][1]["activities"][1]["reveal"] = ["S1"]
    v = refused(d)
    assert "already revealed" in v.reason


@pytest.mark.parametrize("change, field", [
    (lambda d: d["turns"][0]["activities"][1].update(reveal=["S1"]), "turns[0].activities[1].reveal"),
    (lambda d: d["turns"][0]["activities"][0].update(reveal=["S9"]), "turns[0].activities[0].reveal[0]"),
    (lambda d: d["signals"][0].update(at="1,1"), "signals[0].at"),
    (lambda d: d.update(npc_specialist="Nobody"), "npc_specialist"),
    (lambda d: d["npc_deck"][0].update(name="Xeno"), "npc_deck[0].name"),
])
def test_bad_signal_fields_name_the_field(change, field):
    d = doc("gd-round-npc-signal")
    change(d)
    with pytest.raises(ScenarioError) as e:
        run(d)
    assert e.value.field == field


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 5), st.integers(0, 3), st.integers(0, 3))
def test_property_npcs_in_play_after_reveals(start, deck, k):
    # `start` NPCs in play (the Marine's), `deck` cards in the NPC deck, k NPC signals revealed by one walk: NPCs in
    # play grow by the cards drawn, never past five nor past the deck, drawn from the top; each new NPC goes to the
    # first player with no NPC card or fewer than the others (the Alpha Agent on a tie)
    free = ["0,0", "0,1", "2,0", "2,1", "1,2"]
    npcs = [{"name": f"N{i}", "controller": "Marine", "at": free[i]} for i in range(start)]
    sigs = [{"name": f"S{i}", "at": h, "kind": "npc"} for i, h in enumerate(["4,1", "4,2", "5,0"])]
    d = {"game": "galaxydefenders", "kind": "round", "seed": 1,
         "map": {"areas": doc("gd-round-npc-signal")["map"]["areas"]},
         "agents": [{"name": "Marine", "at": "1,1"}, {"name": "Biotech", "at": "0,2"}], "npcs": npcs,
         "signals": sigs, "npc_deck": [{"name": f"Card {i}"} for i in range(deck)],
         "turns": [{"agent": "Marine", "activities": [{"kind": "move", "to": "3,1",
                                                       "reveal": [f"S{i}" for i in range(k)]}]
                    + [{"kind": "activate_npc", "npc": n["name"]} for n in npcs]}]}
    t = run(d)
    o = t.outcome
    drawn = min(k, deck, max(0, 5 - start))
    assert len(o["npcs"]) == start + drawn
    assert [n for n in o["npcs"] if n.startswith("Card")] == [f"Card {i}" for i in range(drawn)]
    held = {"Marine": start, "Biotech": 0}
    for s in t.steps:
        if s.rule == S.NPC_ASSIGNMENT and s.facts.get("assigned_to"):
            want = next((p for p in ("Marine", "Biotech") if held[p] == 0 or held[p] < max(held.values())),
                        "Marine")
            assert s.facts["assigned_to"] == want
            held[want] += 1
    assert o["signals"] == [f"S{i}" for i in range(k, 3)]


# ------------------------------------------------------------------------------------------------ drones

def test_the_built_in_drones():
    t = resolve("gd-round-drones")
    o = t.outcome
    assert o["drones"]["Vigil (Marine)"]["status"] == "dead" and "Vigil (Marine)" not in o["positions"]
    assert o["drones"]["Hologram (Scout)"]["status"] == "dead"
    assert o["positions"]["GD-5 (Biotech)"] == "1,2" and o["drones"]["GD-5 (Biotech)"]["status"] == "alive"
    assert o["cards"]["Marine"]["discarded"] == ["vigil"] and o["cards"]["Scout"]["discarded"] == ["hologram"]
    walk = next(s for s in t.steps if s.title.startswith("Vigil (Marine) walks 4,1 → 6,1"))
    assert walk.rule == S.VIGIL                           # over the Barrier Hex Side: Vigil flies
    holo = next(s for s in t.steps if s.title.endswith("the Hologram is destroyed"))
    assert holo.rule == S.HOLOGRAM
    target = next(s for s in t.steps if s.section == "Aliens turn 3: Xeno: Targeting")
    assert "Vigil (Marine)" in target.title           # aliens treat drones as agents (11)


@pytest.mark.parametrize("where, words", [("0,0", "not adjacent"), ("0,2", "occupied by Biotech")])
def test_a_drone_is_placed_on_an_empty_adjacent_hex(where, words):
    d = doc("gd-round-drones")
    d["turns"][1]["activities"][0]["place"] = where
    v = refused(d)
    assert words in v.reason and v.rule == S.GD5 and v.rejection.field == "turns[1].activities[0].place"


def test_the_hologram_goes_within_one_area():
    d = doc("gd-round-drones")
    d["turns"][2]["activities"][0]["place"] = "7,0"        # Area C: 2 Areas from the Scout in A
    v = refused(d)
    assert "not within 1 Area" in v.reason and v.rule == S.HOLOGRAM


def test_vigil_walks_its_tile_movement_and_gd5_waits_a_turn():
    d = doc("gd-round-drones")
    d["turns"][0]["activities"][0]["to"] = "8,2"           # 5 Hexes: the stand-in tile gives 4
    v = refused(d)
    assert "needs 5 movement points" in v.reason
    # GD-5 deployed with the Action cannot be activated the same turn: the Action is spent (and 9.7.4.3: from
    # the next turn)
    d = doc("gd-round-drones")
    d["turns"][1]["activities"].append({"kind": "action", "drone": "gd5"})
    v = refused(d)
    assert v.rule == S.FREE_ACTION and "already used its Action" in v.reason


def test_gd5_attacks_with_area_damage_and_a_stand_in_tile_can_be_replaced():
    d = doc("gd-round-drones")
    d["agents"][1]["deployed"] = ["gd5"]
    d["drones"].append({"kind": "gd5", "owner": "Biotech", "at": "2,2"})
    d["drone_tiles"] = {"gd5": {"health": 5, "movement": 2, "weapon": {"name": "Own launcher", "dice": {"red": 1},
                                                                       "damage": "single"}}}
    d["turns"][1]["activities"] = [{"kind": "action", "drone": "gd5", "to": "3,1", "target": "Critter",
                                    "rolled": {"hit": {"red": ["hit"]}, "defend": {"Critter": ["blank"],
                                                                                   "Vigil (Marine)": []}}}]
    d["turns"][1]["activities"][0]["rolled"]["defend"].pop("Vigil (Marine)")
    t = run(d)
    area = [s for s in t.steps if s.section.startswith("Agent turn 2") and "Area" in s.title]
    assert area, "GD-5's attack deals Area Damage whatever its tile says"
    assert "Own launcher" in " ".join(s.title for s in t.steps)


def test_drones_are_not_counted_by_the_event_card():
    d = doc("gd-round-drones")
    d["event"] = {"balancer": "aliens", "aliens": 1, "signals": 0}
    t = run(d)
    assert t.outcome["teleported"] == 2                    # 3 agents - 1 alien; Vigil, GD-5, Hologram not counted


@pytest.mark.parametrize("change, field", [
    (lambda d: d["drones"][0].update(owner="Scout"), "drones[0].kind"),
    (lambda d: d.update(drones=[]), "agents[0].deployed"),
    (lambda d: d["drones"][0].update(at="1,1"), "drones[0].at"),
    (lambda d: d["turns"][1]["activities"][0].update(kind="free_action"), "turns[1].activities[0].place"),
])
def test_bad_drone_fields_name_the_field(change, field):
    d = doc("gd-round-drones")
    change(d)
    with pytest.raises(ScenarioError) as e:
        run(d)
    assert e.value.field == field


def test_the_drone_tiles_are_marked_stand_ins():
    from explorer.games.galaxydefenders import round_signals

    assert "STAND-IN" in round_signals.__doc__ and "(stand-in)" in DRONE_TILES["vigil"]["weapon"]["name"]
    assert DRONE_TILES["vigil"]["flying"] is True and DRONE_TILES["gd-5"]["weapon"]["damage"] == "area"


def test_one_spelling_of_each_drone_id_in_file_outcome_and_text_and_a_discarded_device_is_not_held():
    """A drone is named by its Device card's id (``gd-5``) alike in the file, the outcome (``deployed`` next to
    ``held``) and the text; the old spelling ``gd5`` still loads. A destroyed drone's Device goes to the Warehouse
    (9.7.4.2): the outcome lists it as ``discarded``, not also as ``held``."""
    t = resolve("gd-round-drones")
    o = t.outcome
    bio = o["cards"]["Biotech"]
    assert bio["deployed"] == ["gd-5"] and "gd-5" in bio["held"]
    for agent, c in o["cards"].items():
        assert not set(c["held"]) & set(c["discarded"]), (agent, c)
    assert o["cards"]["Marine"]["discarded"] == ["vigil"] and "vigil" not in o["cards"]["Marine"]["held"]
    assert "gd5" not in t.to_text() and "gd5" not in str(o)
    # the old spelling, everywhere a drone kind is written, loads as the same play
    def placed(kind):
        d = doc("gd-round-drones")
        d["agents"][1]["deployed"] = [kind]
        d["drones"].append({"kind": kind, "owner": "Biotech", "at": "2,2"})
        d["drone_tiles"] = {kind: {"health": 5, "movement": 2}}
        d["turns"][1]["activities"] = [{"kind": "action", "drone": kind, "to": "3,2"}]
        return run(d)
    new, old = placed("gd-5"), placed("gd5")
    assert old.outcome == new.outcome and old.to_text() == new.to_text()
    assert new.outcome["cards"]["Biotech"]["deployed"] == ["gd-5"]
