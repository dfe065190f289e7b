"""Several opponents: Evade (one die against every attack, NOT independent) and a split Burst, vs brute force."""

import itertools
from fractions import Fraction as Fr

import pytest

from explorer.errors import ScenarioError
from explorer.games.tagraid.odds import SideSpec, evade, face_to_face, split_burst
from explorer.games.tagraid.options import rulings as make_rulings
from explorer.games.tagraid.rolls import classify_die, compare, saving_rolls
from odds_brute import save_wounds


def _strip(lst):
    lst = list(lst)
    while len(lst) > 1 and not lst[-1]:
        lst.pop()
    return lst


def brute_evade(evader_svs, attackers, cap=None):
    """Enumerate the Evade die and every attacker's dice; each pair is cancelled by rolls.compare with the SAME
    Evade die; Saving Roll dice are enumerated fail/pass. Returns (wounds list, P(unhurt), P(evader wins all))."""
    r = make_rulings()
    wounds: dict[int, Fr] = {}
    unhurt = wins_all = Fr(0)
    for f in range(1, 21):
        e = [classify_die(f, sv, r) for sv in evader_svs]
        rolls = [list(itertools.product([classify_die(x, a.sv, r) for x in range(1, 21)], repeat=a.burst))
                 for a in attackers]
        for combo in itertools.product(*rolls):
            w = Fr(1, 20) * Fr(1, 20 ** sum(a.burst for a in attackers))
            per_attack = []
            won = []
            for ei, a, roll in zip(e, attackers, combo):
                cmp = compare([ei], roll)
                won.append(cmp.winner == "a")
                per_attack.append(saving_rolls(cmp.b_hits, cmp.b_crits, a.ammunition))
            if all(s == 0 for s in per_attack):
                unhurt += w
            if all(won):
                wins_all += w
            dist = {0: Fr(1)}
            for s, a in zip(per_attack, attackers):
                new: dict[int, Fr] = {}
                for k, p in dist.items():
                    for j, q in save_wounds(s, a.attack_damage).items():
                        new[k + j] = new.get(k + j, 0) + p * q
                dist = new
            for k, p in dist.items():
                kk = k if cap is None else min(k, cap)
                wounds[kk] = wounds.get(kk, 0) + w * p
    n = max(wounds) + 1
    return [wounds.get(i, Fr(0)) for i in range(n)], unhurt, wins_all


@pytest.mark.parametrize("svs,attackers,cap", [
    ([12, 12], [SideSpec(13, 2, 10, "N"), SideSpec(12, 1, 8, "DA")], None),
    ([9, 12], [SideSpec(15, 1, 14, "EXP"), SideSpec(11, 1, 3, "AP")], 3),
    ([20, 1], [SideSpec(20, 1, 20, "DA"), SideSpec(5, 1, 0, "N")], 1),
    ([0], [SideSpec(12, 2, 12, "N")], None),
])
def test_evade_vs_brute(svs, attackers, cap):
    m = evade(svs, attackers, evader_wounds=cap, exact=True)
    wounds, unhurt, wins_all = brute_evade(svs, attackers, cap)
    assert _strip(m.wounds_to_focus) == _strip(wounds)
    assert m.p_focus_unhurt_rolls == unhurt and m.p_focus_wins_all == wins_all
    assert sum(m.wounds_to_focus) == 1 and sum(m.saving_rolls_to_focus) == 1


def test_evade_is_not_independent_pairs():
    """Treating the attacks as independent would be wrong: the same Evade die opposes both."""
    atk = [SideSpec(12, 1, 10), SideSpec(12, 1, 10)]
    m = evade(12, atk, exact=True)
    independent = (1 - m.pairs[0].p_b_wins) * (1 - m.pairs[1].p_b_wins)
    assert m.p_focus_unhurt_rolls != independent
    # linearity of expectation still holds without a cap
    assert m.expected_wounds_to_focus == sum(p.expected_wounds_to_a for p in m.pairs)


def test_evade_single_attacker_equals_face_to_face():
    atk = SideSpec(14, 3, 11, "DA")
    m = evade(10, [atk], evader_wounds=2, exact=True)
    f = face_to_face(SideSpec(10, 1, None, "N", None), SideSpec(14, 3, 11, "DA", 2), exact=True)
    assert m.wounds_to_focus == f.wounds_to_a and m.p_focus_wins_all == f.p_a_wins


def brute_split(parts, reactives, cap):
    """Every roll of all dice at once (the Active Miner's dice given to targets in order), rolls.compare per pair."""
    r = make_rulings()
    n_act = [p.burst for p in parts]
    n_re = [x.burst for x in reactives]
    total = sum(n_act) + sum(n_re)
    wounds: dict[int, Fr] = {}
    die = {sv: [None] + [classify_die(f, sv, r) for f in range(1, 21)] for sv in {s.sv for s in parts + reactives}}
    for faces in itertools.product(range(1, 21), repeat=total):
        it = iter(faces)
        saves = []
        for p, x in zip(parts, reactives):
            a = [die[p.sv][next(it)] for _ in range(p.burst)]
            b = [die[x.sv][next(it)] for _ in range(x.burst)]
            cmp = compare(a, b)
            saves.append((saving_rolls(cmp.b_hits, cmp.b_crits, x.ammunition), x.attack_damage))
        dist = {0: Fr(1)}
        for s, dmg in saves:
            new: dict[int, Fr] = {}
            for k, p in dist.items():
                for j, q in save_wounds(s, dmg).items():
                    new[k + j] = new.get(k + j, 0) + p * q
            dist = new
        for k, p in dist.items():
            kk = k if cap is None else min(k, cap)
            wounds[kk] = wounds.get(kk, 0) + p * Fr(1, 20 ** total)
    return [wounds.get(i, Fr(0)) for i in range(max(wounds) + 1)]


def test_split_burst_vs_brute():
    parts = [SideSpec(12, 1, 10), SideSpec(9, 0, 10), SideSpec(12, 0, 10)]
    reactives = [SideSpec(12, 1, 8, "DA"), SideSpec(0, 0, 8), SideSpec(13, 1, 12, "N")]
    parts, reactives = list(parts), list(reactives)
    m = split_burst(parts, reactives, active_wounds=2, exact=True)
    assert _strip(m.wounds_to_focus) == _strip(brute_split(parts, reactives, 2))
    assert m.pairs[2].kind == "normal" and m.pairs[1].kind == "normal"


def test_split_burst_errors():
    with pytest.raises(ScenarioError, match="active_parts"):
        split_burst([SideSpec(12, 1)], [])
    with pytest.raises(ScenarioError, match="total Burst"):
        split_burst([SideSpec(12, 15), SideSpec(12, 6)], [SideSpec(1, 1), SideSpec(1, 1)])
    with pytest.raises(ScenarioError, match="evader_sv"):
        evade([1, 2], [SideSpec(12, 1)])
