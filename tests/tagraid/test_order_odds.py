"""Exact odds of a whole Order's roll exchange (issue 22, item 7): the joint distribution of who wins each pair and
the Wounds lost (and Deaths) on every Miner, checked against brute-force enumeration (exact Fractions, ``==``) and
against the roll-by-roll resolver (Monte Carlo within a confidence bound).

The brute force here is written from the rules, not from the odds engine: every face of every attack and Evade die
is enumerated and compared with :func:`explorer.games.tagraid.rolls.compare` (Rolls › Face to Face Rolls, Criticals),
the Saving Rolls counted with :func:`~explorer.games.tagraid.rolls.saving_rolls` (Ammunition), and every pattern of
failed Saving Rolls weighted by its faces (Damage › Saving Roll); Wounds are capped at the Wounds left (Death).
"""

import functools
import itertools
import math
from fractions import Fraction

import pytest

from explorer.errors import ScenarioError
from explorer.games.tagraid.model import parse_scenario
from explorer.games.tagraid.order_odds import exchange_odds, order_odds
from explorer.games.tagraid.resolve import resolve_detailed
from explorer.games.tagraid.rolls import classify_die, compare, saving_rolls

RIFLE = {"name": "Rifle", "damage": 13, "burst": 2, "ammunition": "N"}


def _dice(faces, sv):
    return [classify_die(f, sv) for f in faces]


def _kept(cmp_side, survives):
    h = sum(1 for d, s in zip(cmp_side, survives) if s and not d.critical)
    c = sum(1 for d, s in zip(cmp_side, survives) if s and d.critical)
    return h, c


@functools.lru_cache(maxsize=None)
def _kept_pair(faces_a, sv_a, faces_b, sv_b):
    """``(a's uncancelled hits, Criticals, b's hits, Criticals)`` of one Face to Face Roll (cached: the joint
    enumeration below visits each pair's faces many times)."""
    cmp_ = compare(_dice(faces_a, sv_a), _dice(faces_b, sv_b))
    return _kept(cmp_.a, cmp_.a_survives) + _kept(cmp_.b, cmp_.b_survives)


@functools.lru_cache(maxsize=None)
def _wounds(h, c, ammo, damage):
    """``[(wounds, Fraction)]`` over every pattern of failed Saving Rolls (each fails on ``damage`` faces of 20)."""
    n = saving_rolls(h, c, ammo)
    fail = Fraction(max(0, min(20, damage)), 20)
    out = {}
    for pattern in itertools.product((True, False), repeat=n):
        p = Fraction(1)
        for failed in pattern:
            p *= fail if failed else 1 - fail
        k = sum(pattern)
        out[k] = out.get(k, 0) + p
    return tuple(out.items())


def test_split_burst_with_an_evade_matches_brute_force():
    """A splits a Burst 2 Rifle (1 die at B, 1 at C); B answers with a Ranged Attack ARO (Face to Face), C with an
    Evade ARO (Face to Face: Evade). 20^4 faces enumerated."""
    doc = {"active": {"name": "A", "skill": "ranged_attack", "attribute": 13, "armor": 4, "wounds": 2,
                      "weapon": RIFLE, "attacks": [{"target": "B", "burst": 1}, {"target": "C", "burst": 1}]},
           "reactive": [{"name": "B", "skill": "ranged_attack", "attribute": 12, "armor": 5, "wounds": 1,
                         "weapon": {**RIFLE, "ammunition": "DA"}},
                        {"name": "C", "skill": "evade", "attribute": 11, "armor": 3, "wounds": 3}]}
    o = exchange_odds(parse_scenario(doc), exact=True)
    assert [(p.kind, p.opponent) for p in o.pairs] == [("face_to_face", "B"), ("face_to_face", "C")]
    ad_ab, ad_ba, ad_ac = 13 - 5, 13 - 4, 13 - 3
    brute = {}
    unit = Fraction(1, 20 ** 4)
    groups = {}  # every face of the four dice, counted by what each pair keeps (the Saving Rolls come after)
    for a1, a2, b, c in itertools.product(range(1, 21), repeat=4):
        key = (_kept_pair((a1,), 13, (b,), 12), _kept_pair((a2,), 13, (c,), 11))
        groups[key] = groups.get(key, 0) + 1
    for (kept_ab, kept_ac), count in groups.items():
        outcomes = [((), (0, 0, 0), count * unit)]
        for kept, who, ammo, dmg_to, win_b in (
                (kept_ab, "B", ("N", "DA"), (ad_ab, ad_ba), True),
                (kept_ac, "C", ("N", None), (ad_ac, None), False)):
            ha, ca, hb, cb = kept
            if ha + ca:
                winner, hurt, ws = "A", who, _wounds(ha, ca, ammo[0], dmg_to[0])
            elif hb + cb:
                winner = who
                hurt, ws = ("A", _wounds(hb, cb, ammo[1], dmg_to[1])) if win_b else (None, [(0, Fraction(1))])
            else:
                winner, hurt, ws = None, None, [(0, Fraction(1))]
            nxt = []
            for w, wounds, p in outcomes:
                for k, q in ws:
                    wl = list(wounds)
                    if hurt is not None:
                        wl["ABC".index(hurt)] += k
                    nxt.append((w + (winner,), tuple(wl), p * q))
            outcomes = nxt
        for w, wl, p in outcomes:
            key = (w, (min(wl[0], 2), min(wl[1], 1), min(wl[2], 3)))
            brute[key] = brute.get(key, 0) + p
    brute = {k: v for k, v in brute.items() if v}
    assert o.joint == brute
    assert sum(o.joint.values()) == 1
    assert o.p_dies("B") == o.wounds("B")[1] and o.wounds("B")[1] > 0


def test_active_evade_against_two_attackers_matches_brute_force():
    """A Evades (one die, SV 14) two Ranged Attack AROs (B Burst 1, C Burst 2 by a Skill MOD): the one Evade die
    opposes each attack individually, so the two pairs are not independent. 20^4 faces enumerated."""
    doc = {"active": {"name": "A", "skill": "evade", "attribute": 14, "armor": 4, "wounds": 3},
           "reactive": [{"name": "B", "skill": "ranged_attack", "attribute": 12, "armor": 4, "wounds": 3,
                         "weapon": RIFLE},
                        {"name": "C", "skill": "ranged_attack", "attribute": 10, "armor": 4, "wounds": 3,
                         "burst_mod": 1, "weapon": {**RIFLE, "ammunition": "EXP"}}]}
    o = exchange_odds(parse_scenario(doc), exact=True)
    assert all(p.shared_evade for p in o.pairs)
    brute = {}
    unit = Fraction(1, 20 ** 4)
    groups = {}
    for e, b, c1, c2 in itertools.product(range(1, 21), repeat=4):
        key = (_kept_pair((e,), 14, (b,), 12), _kept_pair((e,), 14, (c1, c2), 10))
        groups[key] = groups.get(key, 0) + 1
    for kept, count in groups.items():
        outcomes = [((), 0, count * unit)]
        for (ha, ca, hb, cb), ammo, name in zip(kept, ("N", "EXP"), ("B", "C")):
            if hb + cb:
                winner, ws = name, _wounds(hb, cb, ammo, 9)
            elif ha + ca:
                winner, ws = "A", [(0, Fraction(1))]
            else:
                winner, ws = None, [(0, Fraction(1))]
            outcomes = [(w + (winner,), k0 + k, p * q) for w, k0, p in outcomes for k, q in ws]
        for w, k, p in outcomes:
            key = (w, (min(k, 3), 0, 0))
            brute[key] = brute.get(key, 0) + p
    assert o.joint == {k: v for k, v in brute.items() if v}


THREE_AROS = {
    "active": {"name": "A", "skill": "ranged_attack", "attribute": 13, "armor": 4, "wounds": 2,
               "weapon": {"name": "Rifle", "damage": 13, "burst": 3, "ammunition": "N"},
               "attacks": [{"target": "B", "burst": 2}, {"target": "C", "burst": 1}]},
    "reactive": [{"name": "B", "skill": "ranged_attack", "attribute": 12, "armor": 4, "wounds": 2,
                  "weapon": {"name": "Rifle", "damage": 13, "burst": 3, "ammunition": "N"}},
                 {"name": "C", "skill": "evade", "attribute": 11, "armor": 3, "wounds": 2},
                 {"name": "D", "skill": "ranged_attack", "attribute": 11, "armor": 5, "wounds": 3,
                  "weapon": {"name": "Shotgun", "damage": 14, "burst": 1, "ammunition": "DA"}}]}


def _observed(res, names):
    winners = tuple(p.winner for p in res.pairs)
    return winners, tuple(res.miners[n].wounds_lost for n in names)


def test_matches_the_roll_by_roll_resolver_monte_carlo():
    """The resolver (the roll-by-roll path: dice rolled from a seed) run 600 times: every pair's winner, every
    Miner's Wounds and Death, and the joint event 'A dies and B is unhurt' fall within 4.5 standard errors of the
    exact odds (a bound a correct engine breaks about once in 150,000 checks)."""
    sc = parse_scenario(THREE_AROS)
    o = exchange_odds(sc)
    n = 600
    counts = {}
    for seed in range(n):
        sc.seed = seed
        key = _observed(resolve_detailed(sc), o.miners)
        counts[key] = counts.get(key, 0) + 1

    def check(p, hits):
        sd = math.sqrt(max(p * (1 - p), 1e-12) / n)
        assert abs(hits / n - p) <= 4.5 * sd + 1.0 / n, (p, hits / n)

    for i in range(len(o.pairs)):
        for who, p in o.winner_odds(i).items():
            check(float(p), sum(c for (w, _), c in counts.items() if w[i] == who))
    for j, m in enumerate(o.miners):
        for k, p in enumerate(o.wounds(m)):
            check(float(p), sum(c for (_, wl), c in counts.items() if wl[j] == k))
    check(float(o.p(lambda w, wl: wl["A"] == 2 and wl["B"] == 0)),
          sum(c for (_, wl), c in counts.items() if wl[0] == 2 and wl[1] == 0))
    # every outcome the resolver produced has positive exact probability
    assert all(o.joint.get(k, 0) > 0 for k in counts)


def test_pairs_and_structure_follow_the_resolver():
    o = exchange_odds(parse_scenario(THREE_AROS))
    assert [(p.kind, p.opponent, p.a.burst, p.b.burst) for p in o.pairs] == [
        ("face_to_face", "B", 2, 1), ("face_to_face", "C", 1, 1), ("normal_roll", "D", 0, 1)]
    assert o.pairs[0].a.attack_damage == 9 and o.pairs[2].b.attack_damage == 14 - 4 and o.pairs[2].b.ammunition == "DA"
    assert o.pairs[1].b.attack_damage is None  # an Evade causes no Saving Rolls
    assert abs(sum(o.joint.values()) - 1) < 1e-12


def test_fixed_dice_do_not_matter():
    """Odds are over every face: the file's fixed dice are dropped."""
    doc = {**THREE_AROS, "active": {**THREE_AROS["active"], "attacks": [
        {"target": "B", "burst": 2, "dice": [1, 1]}, {"target": "C", "burst": 1, "dice": [1]}]}}
    assert exchange_odds(parse_scenario(doc)).joint == exchange_odds(parse_scenario(THREE_AROS)).joint


MB = {"name": "Stoorworm", "threat_level": 8, "wounds": 10,
      "behavior_attack": {"name": "Bite", "damage": 14, "hits": 2, "ammunition": "N"}}


def _mb_die(face, sv, tl, equal_tie=False):
    """One die of the Active Miner against the Threat Level, from the rules (MegaBeast › Threat Level; defaults
    megabeast_critical = must_exceed: a success must exceed it, a Critical included): ``"wound"``, ``"tie"``
    (equal, under megabeast_equal = tie) or ``"none"``."""
    if face > sv:
        return "none"
    if face > tl:
        return "wound"
    return "tie" if face == tl and equal_tie else "none"


def _mb_brute(doc, equal_tie=False):
    """A splits Burst 3 (1 die at B, 2 at the Stoorworm); B answers with a Ranged Attack ARO; the Stoorworm's
    Behavior ARO (Threat Level 8, Bite: 2 impacts, Damage 14). 20^4 faces enumerated; Wounds to the Stoorworm are
    its Saving Rolls produced (N: one per wounding die); the Bite forces 2 Saving Rolls at 14 - 4 on A."""
    brute = {}
    unit = Fraction(1, 20 ** 4)
    for a1, a2, a3, b in itertools.product(range(1, 21), repeat=4):
        ha, ca, hb, cb = _kept_pair((a1,), 13, (b,), 12)
        if ha + ca:
            w1, hurt1, ws1 = "A", 1, _wounds(ha, ca, "N", 13 - 4)
        elif hb + cb:
            w1, hurt1, ws1 = "B", 0, _wounds(hb, cb, "N", 13 - 4)
        else:
            w1, hurt1, ws1 = None, None, [(0, Fraction(1))]
        cls = [_mb_die(f, 13, 8, equal_tie) for f in (a2, a3)]
        k_mb = cls.count("wound")
        if k_mb:
            w2, ws2 = "A", [(0, Fraction(1))]
        elif "tie" in cls:
            w2, ws2 = None, [(0, Fraction(1))]
        else:
            w2, ws2 = "Stoorworm", _wounds(2, 0, "N", 14 - 4)
        for k1, p1 in ws1:
            for k2, p2 in ws2:
                wl = [0, 0, k_mb]
                if hurt1 is not None:
                    wl[hurt1] += k1
                wl[0] += k2
                key = ((w1, w2), (min(wl[0], 3), min(wl[1], 2), min(wl[2], 10)))
                brute[key] = brute.get(key, 0) + unit * p1 * p2
    return {k: v for k, v in brute.items() if v}


MB_DOC = {"active": {"name": "A", "skill": "ranged_attack", "attribute": 13, "armor": 4, "wounds": 3,
                     "weapon": {"name": "Rifle", "damage": 13, "burst": 3, "ammunition": "N"},
                     "attacks": [{"target": "B", "burst": 1}, {"target": "Stoorworm", "burst": 2}]},
          "reactive": [{"name": "B", "skill": "ranged_attack", "attribute": 12, "armor": 4, "wounds": 2,
                        "weapon": RIFLE}],
          "megabeast": MB}


@pytest.mark.parametrize("equal", ["megabeast_prevails", "tie"])
def test_a_split_burst_at_the_megabeast_matches_brute_force(equal):
    """Whole-Order odds with the MegaBeast: its Threat Level is its roll, each Saving Roll produced is a Wound, and
    when it prevails its Behavior Attack hits the Active Miner (both readings of megabeast_equal)."""
    o = exchange_odds(parse_scenario(MB_DOC), {"megabeast_equal": equal}, exact=True)
    assert [(p.kind, p.opponent, p.threat_level, p.megabeast_mode) for p in o.pairs] == [
        ("face_to_face", "B", None, None), ("face_to_face", "Stoorworm", 8, "opposed")]
    assert o.miners == ("A", "B", "Stoorworm") and o.megabeast == "Stoorworm"
    assert o.joint == _mb_brute(MB_DOC, equal_tie=equal == "tie")
    assert o.rulings["megabeast_equal"] == equal


def test_an_evade_against_the_megabeast_shares_the_one_evade_die():
    """A Evades (SV 14) B's Ranged Attack ARO and the Stoorworm's Behavior ARO: the one Evade die opposes both
    (Face to Face: Evade; MegaBeast › Threat Level). 20^2 faces enumerated."""
    doc = {"active": {"name": "A", "skill": "evade", "attribute": 14, "armor": 4, "wounds": 3},
           "reactive": [{"name": "B", "skill": "ranged_attack", "attribute": 12, "armor": 4, "wounds": 2,
                         "weapon": RIFLE}], "megabeast": MB}
    o = exchange_odds(parse_scenario(doc), exact=True)
    assert all(p.shared_evade for p in o.pairs)
    brute = {}
    for e, b in itertools.product(range(1, 21), repeat=2):
        ha, ca, hb, cb = _kept_pair((e,), 14, (b,), 12)
        w1, ws1 = ("B", _wounds(hb, cb, "N", 9)) if hb + cb else ("A" if ha + ca else None, [(0, Fraction(1))])
        if _mb_die(e, 14, 8) == "wound":
            w2, ws2 = "A", [(0, Fraction(1))]
        else:
            w2, ws2 = "Stoorworm", _wounds(2, 0, "N", 10)
        for k1, p1 in ws1:
            for k2, p2 in ws2:
                key = ((w1, w2), (min(k1 + k2, 3), 0, 0))
                brute[key] = brute.get(key, 0) + Fraction(1, 400) * p1 * p2
    assert o.joint == {k: v for k, v in brute.items() if v}


def test_megabeast_without_aro_cannot_prevail():
    doc = {**MB_DOC, "megabeast": {**MB, "aro": False}}
    o = exchange_odds(parse_scenario(doc), exact=True)
    assert o.pairs[1].megabeast_mode == "no_aro"
    assert "Stoorworm" not in o.winner_odds(1)
    # a die must still exceed the Threat Level: P(wound) per die = (13 - 8) / 20
    assert o.winner_odds(1)["A"] == 1 - Fraction(15, 20) ** 2
    o = exchange_odds(parse_scenario(doc), {"megabeast_no_aro": "normal_roll"}, exact=True)
    assert o.pairs[1].megabeast_mode == "normal" and o.winner_odds(1)["A"] == 1 - Fraction(7, 20) ** 2


def test_megabeast_odds_match_the_roll_by_roll_resolver_monte_carlo():
    """The resolver run 500 times on the MegaBeast exchange: winners and every Wounds count (the Stoorworm's too)
    within 4.5 standard errors of the exact odds."""
    sc = parse_scenario(MB_DOC)
    o = exchange_odds(sc)
    n = 500
    counts = {}
    for seed in range(n):
        sc.seed = seed
        res = resolve_detailed(sc)
        key = (tuple(p.winner for p in res.pairs),
               (res.miners["A"].wounds_lost, res.miners["B"].wounds_lost, res.megabeast.wounds_lost))
        counts[key] = counts.get(key, 0) + 1

    def check(p, hits):
        sd = math.sqrt(max(p * (1 - p), 1e-12) / n)
        assert abs(hits / n - p) <= 4.5 * sd + 1.0 / n, (p, hits / n)

    for i in range(len(o.pairs)):
        for who, p in o.winner_odds(i).items():
            check(float(p), sum(c for (w, _), c in counts.items() if w[i] == who))
    for j, m in enumerate(o.miners):
        for k, p in enumerate(o.wounds(m)):
            check(float(p), sum(c for (_, wl), c in counts.items() if wl[j] == k))
    assert all(o.joint.get(k, 0) > 0 for k in counts)


def test_order_odds_of_the_book_order_with_the_megabeast():
    """book-oes-order: the Active TAG splits its Burst between the Reactive TAG and the Stoorworm (Behavior ARO).
    The Order names no firing point: by default (ruling route_fire_point = move_start) the TAG fires from where its
    Move began, which faces an adjacent side of the Stoorworm (Threat Level 5); under move_end it fires from the end
    of the Move, which faces its front (Threat Level 8)."""
    import tomllib
    from pathlib import Path

    import explorer.games.tagraid as pkg
    from explorer.games import get_game
    from explorer.games.tagraid.orders.orderfile import parse_order

    o = order_odds(get_game("tagraid").load_builtin("book-oes-order"), exact=True)
    assert o.megabeast == "Stoorworm" and o.pairs[1].threat_level == 5
    # one die at SV 13 must exceed 5: 8 faces of 20
    assert o.winner_odds(1)["Active TAG"] == Fraction(8, 20)
    assert sum(o.joint.values()) == 1
    doc = tomllib.loads((Path(pkg.__file__).parent / "scenarios" / "book-oes-order.toml").read_text("utf-8"))
    doc.setdefault("rulings", {})["route_fire_point"] = "move_end"
    end = order_odds(parse_order(doc, "book-oes-order.toml"), exact=True)
    assert end.pairs[1].threat_level == 8
    # one die at SV 13 must exceed 8: 5 faces of 20
    assert end.winner_odds(1)["Active TAG"] == Fraction(5, 20)
    assert sum(end.joint.values()) == 1


def test_order_odds_of_a_builtin_order():
    """tr-order-range: A's Sniper Rifle (SV 15 at Long Range from its firing point, Burst 2) against B's Rifle ARO
    (SV 12 at Mid Range from where A ends); C's ARO is Out of Range and rolls nothing: one pair."""
    from explorer.games import get_game

    o = order_odds(get_game("tagraid").load_builtin("tr-order-range"), exact=True)
    (p,) = o.pairs
    assert (p.a.sv, p.a.burst, p.b.sv, p.b.burst) == (15, 2, 12, 1)
    assert o.wounds("C") == [1, 0, 0, 0]
    assert sum(o.joint.values()) == 1


def test_cli_order_odds_text_json_and_refusals(capsys):
    import json

    from explorer.cli import main

    def run(*args):
        code = main(["tagraid", "order-odds", *args])
        out = capsys.readouterr()
        return code, out.out, out.err

    code, out, err = run("tr-order-corner")
    assert code == 0, err
    assert "Face to Face Roll: A against T's ARO: A 84.13%" in out and "T (3 Wounds left)" in out
    # only W rolls in the first pair: W declared its ARO against A (trace step 5), so the header says so
    assert "Normal Roll: W's ARO against A: W 60.00%" in out and "A against W" not in out
    code, out, err = run("book-evade-order")
    assert code == 0 and "Face to Face Roll: Yuè Minerals TAG's Evade against RocaWorks TAG's ARO" in out, out
    code, out, err = run("tr-18-order")
    assert code == 0 and "Normal Roll: A against R: A 95.71%" in out, out
    code, out, err = run("tr-order-corner", "--json", "--exact")
    d = json.loads(out)
    assert d["exact"] is True and d["miners"]["T"]["p_dies"] == d["miners"]["T"]["wounds_lost"][-1]
    assert set(d["pairs"][0]["winner"]) == {"W", "nobody"}
    code, out, err = run("tr-05")
    assert code == 2 and "not an Order" in err
    code, out, err = run("book-oes-order")
    assert code == 0 and "Stoorworm's Threat Level 5 (its Behavior ARO): Active TAG 40.00%" in out, err
    assert "Stoorworm (10 Wounds left) loses 0: 60.00%, 1: 40.00%; is killed 0.00%" in out


def test_cli_order_odds_names_the_orders_when_no_file_nor_order_has_the_name(capsys):
    """Session 14: ``explorer tagraid order-odds nope`` said only "nope: scenario: file not found", with nothing
    allowed; ``explorer resolve nope`` names what is."""
    from explorer.cli import main
    from explorer.games import get_game

    assert main(["tagraid", "order-odds", "nope"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "file not found, and no built-in Order is named 'nope'" in err, err
    g = get_game("tagraid")
    orders = [n for n in g.builtin_names() if getattr(g.load_builtin(n), "kind", None) == "order"]
    assert orders and all(n in err for n in orders), err
