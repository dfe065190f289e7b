"""The rules between attacks (phases.py, conditions.py): the Menace token (11.3.1), Close Encounter "Activate X
aliens" (11.5, 11.9.1), Event phase signal balancing (6.3), GD-Wings rank rolls (9.8), Area Healing (8.5) and the
Power Suit's Batteries in the Refresh phase (6.1, 9.5). Both readings of every ruling option these consult."""

from __future__ import annotations

import random
import tomllib
from fractions import Fraction
from math import comb

import pytest
from hypothesis import given, settings, strategies as st

from explorer.games import get_game, load_any
from explorer.games.galaxydefenders import phases as P
from explorer.games.galaxydefenders.calibration import default_calibration
from explorer.games.galaxydefenders.options import rulings

G = get_game("galaxydefenders")


def run(name: str, **r):
    return G.resolve(G.load_builtin(name), rulings=r)


def doc(name: str) -> dict:
    return tomllib.loads(G.scenario_text(name))


def resolve_doc(d: dict, **r):
    from test_hostile_files import to_toml

    game, sc = load_any("t.toml", text=to_toml(d))
    return game.resolve(sc, rulings=r)


# ------------------------------------------------------------------------------------------------ 11.3.1 Menace

def test_menace_token_after_each_event():
    t = run("gd-menace-book")
    assert [(a["holder"], a["level"]) for a in t.outcome["after"]] == [
        ("Hulk", 1), ("Hulk", 2), ("Hulk", 1), ("Marine", 1), ("Hulk", 1), ("Hulk", 1), ("Hulk", 2)]
    assert all(s.rule.section.startswith("11.3.1") for s in t.steps)


EVENT = st.one_of(st.tuples(st.just("wound"), st.sampled_from("ABC"), st.integers(0, 3)),
                  st.tuples(st.just("action"), st.sampled_from("ABC"), st.sampled_from([None, 1, 2])))


@settings(max_examples=200, deadline=None)
@given(events=st.lists(EVENT, max_size=12))
def test_menace_invariants(events):
    """Level is 1 or 2; the token changes agents only from Level 1 and always arrives at Level 1; a wound by the
    Menacing Agent leaves Level 2; a wound by another agent never raises the level."""
    m, _ = P.master_alien_enters(P.Menace(), "A")
    for kind, agent, v in events:
        before = m
        m, steps = (P.master_alien_wounded(m, agent, v, "attack") if kind == "wound" else P.menace_action(m, agent, v))
        assert m.level in (1, 2) and steps
        if m.holder != before.holder:
            assert before.level == 1 and m.level == 1 and m.holder == agent
        if kind == "wound" and v >= 1:
            if agent == before.holder:
                assert m == P.Menace(agent, 2)
            else:
                assert m.level <= before.level
        if kind == "wound" and v == 0:
            assert m == before


def test_an_archenemy_targets_the_agent_the_menace_trace_ends_with():
    """11.3.1: the Master Alien's A.I. uses the Menacing Agent: hand each menace outcome to the activation."""
    d = doc("gd-menace-book")
    for upto, want in ((2, "Hulk"), (4, "Marine")):      # after "Hulk wounds it" / "Marine wounds it again"
        m = dict(d, events=d["events"][:upto])
        o = resolve_doc(m).outcome
        assert o["holder"] == want
        act = doc("gd-ai-archenemy")
        for f in act["figures"]:
            f["menace"] = o["level"] if f["name"] == o["holder"] else 0
        assert resolve_doc(act).outcome["target"] == want


def test_menace_after_each_attack_in_combat():
    """11.3.1 in a combat scenario: each attack that wounds the Master Alien moves the token; a drone's wound counts
    for its controlling agent; an attack without a wound changes nothing."""
    t = run("gd-menace-combat")
    assert [(a["menace"]["holder"], a["menace"]["level"]) for a in t.outcome["attacks"]] == [
        ("Hulk", 2), ("Hulk", 1), ("Biotech", 1), ("Biotech", 1)]
    assert [a["targets"][0]["wounds"] for a in t.outcome["attacks"]] == [2, 1, 1, 0]
    d = doc("gd-menace-combat")
    d["attacks"][2].pop("controller")                  # a drone with no controlling agent named
    assert resolve_doc(d).outcome["attacks"][2]["menace"] == {"holder": "Hulk", "level": 1}
    d = doc("gd-menace-combat")
    d.pop("menace")                                    # no token in play: the outcome has none
    assert "menace" not in resolve_doc(d).outcome["attacks"][0]


# ------------------------------------------------------------------------------------------------ 11.5 Close Encounter

def test_activate_x_passes_over_the_paralyzed_alien():
    o = run("gd-close-encounter-paralyzed").outcome
    assert o["x"] == 2 and o["selected"] == ["Digger", "Crimson Nightmare"]


def test_the_only_alien_paralyzed_is_selected_and_skips():
    o = run("gd-close-encounter-only-paralyzed").outcome
    assert o["x"] == 3 and o["selected"] == ["Sentinel"] and o["activated"] == []


def _ce(card=25, aliens=(), players=("Ann", "Ben"), **kw):
    d = {"game": "galaxydefenders", "kind": "close_encounter", "card": card, "players": list(players),
         "aliens": [dict(a) for a in aliens], **kw}
    return resolve_doc(d)


def test_card_25_and_a_paralyzed_alien_both_readings():
    aliens = [{"name": "P", "controller": "Ann", "rank": "purple", "paralyzed": True},
              {"name": "G", "controller": "Ben", "rank": "green"}]
    o = _ce(25, aliens).outcome          # 2 agents: activate 2
    assert o["selected"] == ["G"]
    o = _ce(25, aliens, rulings={"paralyzed_card_25": "selectable"}).outcome
    assert o["selected"] == ["P", "G"] and o["activated"] == ["G"]
    o = _ce(23, aliens, rulings={"paralyzed_card_25": "selectable"}).outcome   # cards 21-24: never selectable
    assert o["selected"] == ["G"]


def test_paralyzed_fill_both_readings():
    aliens = [{"name": "P", "controller": "Ann", "paralyzed": True}, {"name": "G", "controller": "Ben"}]
    assert _ce(23, aliens).outcome["selected"] == ["G"]
    t = _ce(23, aliens, rulings={"paralyzed_fill": "fill"})
    assert t.outcome["selected"] == ["G", "P"] and t.outcome["activated"] == ["G"]
    assert t.rulings["paralyzed_fill"] == "fill"


ALIEN = st.tuples(st.sampled_from(["Ann", "Ben", "Cid"]), st.sampled_from(P.RANKS), st.booleans())


@settings(max_examples=150, deadline=None)
@given(aliens=st.lists(ALIEN, max_size=8), card=st.integers(21, 25), x=st.integers(1, 5))
def test_selection_properties(aliens, card, x):
    """Default readings: the count is min(X, non-Paralyzed aliens) (or 1 Paralyzed alone); the Alpha Agent's player
    first, then turn order; within a player highest rank first; no Paralyzed alien while another is in play."""
    players = ["Ann", "Ben", "Cid"]
    entries = [P.AlienEntry(name=f"a{i}", controller=c, rank=r, paralyzed=p) for i, (c, r, p) in enumerate(aliens)]
    n, _ = P.aliens_to_activate(card, x if card == 21 else None, 3)
    order, _ = P.selection_order(entries, players)
    chosen, steps = P.select_aliens(order, n, card, rulings())
    free = [a for a in entries if not a.paralyzed]
    if free:
        assert len(chosen) == min(n, len(free)) and not any(a.paralyzed for a in chosen)
    else:
        assert len(chosen) == min(n, len(entries))
    keys = [(players.index(a.controller), P.RANKS.index(a.rank)) for a in chosen]
    assert keys == sorted(keys)
    assert all(s.rule.section.startswith(("11.5", "11.9.1")) for s in steps)


# ------------------------------------------------------------------------------------------------ 6.3 Event phase

def test_event_signals_book_reading():
    t = run("gd-event-signals")
    assert t.outcome["teleport"] == 2
    t = run("gd-event-signals", bleeding_agents_in_event="not_count")
    assert t.outcome["teleport"] == 1


@settings(max_examples=150, deadline=None)
@given(agents=st.integers(0, 5), drones=st.integers(0, 3), npcs=st.integers(0, 3), aliens=st.integers(0, 8),
       signals=st.integers(0, 6), second=st.booleans())
def test_signals_are_agents_minus_aliens_at_least_zero(agents, drones, npcs, aliens, signals, second):
    figs = ([P.EventFigure(name=f"A{i}", side="agent") for i in range(agents)]
            + [P.EventFigure(name=f"D{i}", side="drone") for i in range(drones)]
            + [P.EventFigure(name=f"N{i}", side="npc") for i in range(npcs)]
            + [P.EventFigure(name=f"X{i}", side="alien", prime_swarm=i % 2 == 0) for i in range(aliens)])
    n, _ = P.signals_to_teleport(figs, signals, "aliens_and_signals" if second else "aliens", rulings())
    assert n == max(0, agents - aliens - (signals if second else 0))


# ------------------------------------------------------------------------------------------------ 9.8 GD-Wings

def test_wings_odds_match_the_binomial_of_the_calibrated_red_die_and_monte_carlo():
    die = default_calibration().die("red")
    p = Fraction(sum(f.wings for f in die.faces), die.sides)
    assert all(f.wings <= 1 for f in die.faces)     # the binomial below needs at most one symbol per face
    for need in (1, 2, 3):
        exact = sum(comb(3, k) * p ** k * (1 - p) ** (3 - k) for k in range(need, 4))
        assert P.wings_odds(need) == exact
        rng = random.Random(need)
        hits = sum(sum(rng.choice(die.faces).wings for _ in range(3)) >= need for _ in range(20000))
        assert abs(hits / 20000 - float(exact)) < 0.015


def test_gd_wings_book_rules():
    o = run("gd-gd-wings").outcome
    assert o["ranks"] == {"Hulk": "earth", "Marine": "earth", "Biotech": "earth"}
    assert o["p_success"]["Biotech"] is None and Fraction(o["p_success"]["Hulk"]) == P.wings_odds(1)
    d = doc("gd-gd-wings")
    d["campaign"] = False                              # a standalone mission has no one-rank limit
    d["agents"][2]["rolled"] = ["wings", "wings", "hit"]
    assert resolve_doc(d).outcome["ranks"]["Biotech"] == "moon"
    d["alien_killed_last_round"] = False
    assert resolve_doc(d).outcome["ranks"] == {"Hulk": "gold", "Marine": "earth", "Biotech": "earth"}


# ------------------------------------------------------------------------------------------------ 8.5 Area Healing

def test_area_healing_both_readings():
    o = run("gd-area-healing").outcome
    assert o["healed"] == ["Hulk", "Marine"] and o["wounds"]["Sgt. Kerr"] == 2 and o["wounds"]["Sniper"] == 2
    o = run("gd-area-healing", area_healing_allies="agents_npcs_drones").outcome
    assert o["healed"] == ["Hulk", "Marine", "Sgt. Kerr"] and o["wounds"]["Sgt. Kerr"] == 0
    d = doc("gd-area-healing")
    d["target"] = "Xeno-Delta"
    d["figures"].append({"name": "Wormoon", "side": "master_alien", "area": "B", "wounds": 5})
    o = resolve_doc(d).outcome
    assert o["healed"] == ["Xeno-Delta", "Wormoon"] and o["wounds"]["Wormoon"] == 3 and o["wounds"]["Hulk"] == 3


@pytest.mark.parametrize("side, section", [("npc", "10.4 NPC Health Status"), ("drone", "9.7.4 Devices")])
def test_area_healing_on_an_npc_or_drone_heals_neither_by_default(side, section):
    """10.4: an NPC cannot be healed with normal healing weapons, powers or items; 9.7.4.2 / 9.7.4.3: Vigil and GD-5
    cannot be healed with standard healing powers. Session 13's default healed an NPC target and every other NPC in
    its Area. 8.5 then applies the healing to the other agents in the target's Area."""
    d = doc("gd-area-healing")
    d["figures"].append({"name": "Ally 2", "side": side, "area": "B", "wounds": 1})
    d["figures"][2]["side"] = side
    d["target"] = "Sgt. Kerr"
    t = resolve_doc(d)
    o = t.outcome
    assert o["wounds"]["Sgt. Kerr"] == 2 and o["wounds"]["Ally 2"] == 1
    assert o["healed"] == ["Hulk", "Marine"] and o["wounds"]["Hulk"] == 1
    assert any(s.rule.section.startswith(section) and "Sgt. Kerr" in s.title for s in t.steps)
    assert t.rulings == {"area_healing_allies": "agents_only"}
    o = resolve_doc(d, area_healing_allies="agents_npcs_drones").outcome
    assert o["wounds"]["Sgt. Kerr"] == 0 and o["wounds"]["Ally 2"] == 0


# ------------------------------------------------------------------------------------------------ 9.5 Power Suit

def test_power_suit_batteries_through_refresh_phases():
    t = run("gd-refresh-power-suit")
    assert [a.get("batteries") for a in t.outcome["after"]] == [0, 1, 0, None]
    assert t.outcome["power_suit"] == {"in_play": False, "batteries": 0, "equipped_by": None}
    assert t.outcome["final"]["wounds"] == 2
    assert any(s.rule.section == "9.5 Power Suit" and "leaves play" in s.title for s in t.steps)
