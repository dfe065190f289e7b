"""The engine's structured Resolution (resolve_detailed): the same ruling as the trace, as typed data."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings

from explorer.games.tagraid.resolve import resolve, resolve_detailed
from explorer.games.tagraid.rolls import DieResult, attack_damage, compare, saving_rolls
from explorer.games.tagraid.scenarios import list_scenarios, load_scenario

from engine_helpers import build, miner
from test_properties import scenarios

BUILT_IN = [s["name"] for s in list_scenarios()]


@pytest.mark.parametrize("name", BUILT_IN)
def test_resolve_is_the_resolutions_trace(name):
    sc = load_scenario(name)
    res = resolve_detailed(sc)
    assert resolve(sc).to_dict() == res.trace.to_dict()
    assert res.rulings == res.trace.rulings


def test_book_f2f_1v1_as_data():
    res = resolve_detailed(load_scenario("book-f2f-1v1"))
    a, b = res.miner("A"), res.miner("Tāfāng")
    assert (a.name, b.letter, a.role, b.role) == ("StoneBreaker", "B", "active", "reactive")
    # SV 12 = 12 + 3 Long Range - 3 Partial Cover (derived by the engine from the target's cover)
    assert a.sv.value == 12 and dict(a.sv.mods) == {"Long Range": 3, "Partial Cover": -3}
    assert [p.ids for p in a.pools] == [("A.1", "A.2", "A.3")] and b.pools[0].ids == ("B.1",)
    (pair,) = res.pairs
    assert pair.kind == "face_to_face" and pair.a is a.pools[0] and pair.b is b.pools[0]
    assert pair.comparison.a_cancelled_by == ((0,), (0,), (0,)) and pair.comparison.b_survives == (True,)
    # Attack Damage 13 - 4 Armor - 3 Partial Cover = 6, for both sides' Rifles
    assert {k: v.value for k, v in pair.attack_damage.items()} == {"StoneBreaker": 6, "Tāfāng": 6}
    (saves,) = res.saving_rolls
    assert (saves.attacker, saves.target, saves.count, saves.attack_damage.value) == ("Tāfāng", "StoneBreaker", 1, 6)
    assert [(d.id, d.face, d.failed) for d in saves.dice] == [("A.s1", 5, True)]
    assert (a.wounds_lost, a.wounds_left, a.dead, b.teseum) == (1, 2, False, 1)


def test_stoorworm_pair_and_megabeast_result():
    res = resolve_detailed(load_scenario("book-stoorworm"))
    (pair,) = res.pairs
    assert pair.megabeast and pair.b is res.megabeast.pool and pair.b.ids == ("MB",)
    assert pair.winner == "Cavecrawler" and pair.comparison.b_cancelled_by == ((0,),)
    assert pair.attack_damage.keys() == {"Stoorworm"}  # the Behavior Attack's; no Armor roll against the beast
    (saves,) = res.saving_rolls
    assert saves.against_megabeast and saves.attack_damage is None and saves.dice == ()
    assert res.megabeast.wounds_lost == saves.count == 3 and res.active.t_bezoar == 3


def test_split_attack_has_one_pair_per_target_and_numbered_dice():
    sc = build(miner("A", weapon={"damage": 13, "burst": 3, "ammunition": "N"},
                     attacks=[{"target": "B", "burst": 2, "dice": [4, 5]}, {"target": "C", "burst": 1, "dice": [6]}],
                     save_dice=[20, 20]),
               [miner("B", dice=[9], save_dice=[1, 1]), miner("C", "evade", dice=[2])])
    res = resolve_detailed(sc)
    assert [p.opponent for p in res.pairs] == ["B", "C"]
    assert [p.ids for p in res.active.pools] == [("A.1", "A.2"), ("A.3",)]
    assert res.pair_with("C").b.ids == ("C.1",) and res.pair_with("C").winner == "A"
    assert res.miners["C"].evade_move is False and res.dead == ()


def _pairs_as_outcome(res) -> list[dict]:
    out = []
    for p in res.pairs:
        d = {"active": p.active, "kind": p.kind, "winner": p.winner}
        if p.opponent is not None:
            d["megabeast" if p.megabeast else "reactive"] = p.opponent
        out.append(d)
    return out


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenarios())
def test_resolution_says_what_the_trace_says(case):
    """On random exchanges (several targets, Evade, the MegaBeast, every ruling), the typed Resolution and the trace's
    outcome agree, and each piece of it follows the roll primitives."""
    sc, rulings = case
    res = resolve_detailed(sc, rulings=rulings)
    o = res.trace.outcome
    assert _pairs_as_outcome(res) == [{k: p[k] for k in ("active", "kind", "winner", "reactive", "megabeast")
                                       if k in p} for p in o["pairs"]]
    for p, q in zip(res.pairs, o["pairs"]):
        assert dict(p.hits) == q.get("hits", {}) and dict(p.crits) == q.get("crits", {})
        cmp = p.comparison
        if cmp is None:
            continue
        assert (len(cmp.a), len(cmp.b)) == (len(p.a.dice) if p.a else 0, len(p.b.dice) if p.b else 0)
        if not p.megabeast:  # plain pairs: exactly the shared primitive on the pools
            assert cmp == compare(p.a.dice if p.a else (), p.b.dice if p.b else ())
            if p.kind == "face_to_face" and p.cancel_comparison is None:
                keep_a, keep_b = any(cmp.a_survives), any(cmp.b_survives)
                assert p.winner == (p.active if keep_a else p.opponent if keep_b else None)
        elif p.kind == "face_to_face":
            assert (cmp.winner == "a") == (p.winner == p.active)
            assert (cmp.winner == "b") == p.megabeast_prevails
    for name, m in res.miners.items():
        assert m.wounds_lost == o["wounds"][name] and m.wounds_left == o["wounds_left"][name]
        assert m.saving_rolls == o["saving_rolls"].get(name, 0) == sum(s.count for s in res.saves_of(name))
        assert m.failed_saves == o["failed_saves"].get(name, 0)
        assert m.dead == (name in o["dead"]) and m.teseum == o["teseum"].get(name, 0)
        assert (m.loot is not None) == (name in o["loot"])
        for p in m.pools:
            assert p.owner == name and all(i.startswith(m.letter + ".") for i in p.ids)
            assert all(isinstance(d, DieResult) and d.sv == p.sv.value for d in p.dice)
    for s in res.saving_rolls:
        assert s.count == saving_rolls(s.hits, s.crits, s.ammunition, megabeast=s.against_megabeast)
        if s.against_megabeast:
            assert s.attack_damage is None and s.wounds == s.count
            continue
        target = next(m for m in [sc.active, *sc.reactive] if m.name == s.target)
        assert s.attack_damage.armor == target.armor
        assert [d.failed for d in s.dice] == [d.face <= s.attack_damage.value for d in s.dice]
        assert s.wounds == sum(d.failed for d in s.dice) and len(s.dice) == s.count
        pair = next((p for p in res.pairs if s.attacker in p.attack_damage and s.target in (p.active, p.opponent)),
                    None)
        if pair is not None:  # the Attack Damage the odds feed reads is the one the Saving Rolls used
            assert pair.attack_damage[s.attacker] == s.attack_damage
    if sc.megabeast is not None:
        mbo = o["megabeast"]
        assert (res.megabeast.wounds_lost, res.megabeast.killed, res.megabeast.prevailed) == \
            (mbo["wounds"], mbo["killed"], mbo["prevailed"])
    assert list(res.dead) == o["dead"] and list(res.evade_moves) == o["evade_moves"]
    ids = [i for m in res.miners.values() for p in m.pools for i in p.ids]
    assert len(ids) == len(set(ids))


def test_attack_damage_is_reported_even_without_a_hit():
    """The odds feed needs each side's Attack Damage before any hit lands: a pair carries it for every attacker."""
    sc = build(miner("A", weapon={"damage": 15, "burst": 1, "ammunition": "AP"}, attacks=[{"target": "B"}],
                     dice=None, partial_cover=True),
               [miner("B", armor=5, partial_cover=True, weapon={"damage": 11, "burst": 1, "ammunition": "N"})])
    sc.active.attacks[0].dice = [20]  # A fails, B's die decides
    res = resolve_detailed(sc)
    ad = res.pairs[0].attack_damage
    assert ad["A"] == attack_damage(15, 5, "AP", partial_cover=True)  # 15 - 3 (half of 5, rounded up) - 3
    assert ad["B"] == attack_damage(11, 4, "N", partial_cover=True)
