"""Brute-force oracles for the odds tests: enumerate every roll and ask rolls.compare / rolls.saving_rolls.

Two enumerations of the attack dice:

* ``faces="all"``: every ordered tuple of faces 1..20 (20^(nA+nB) rolls), used for the smallest cases;
* ``faces="classes"``: faces that classify_die makes indistinguishable for compare (same kind and key: e.g. every
  failing face) are one class with its face count as weight; every multiset of classes is enumerated once with
  its number of orderings. Still one rolls.compare call per distinct roll, just without repeating equal ones.

Saving Rolls are enumerated die by die as fail/pass with weights AD/20 and 1 - AD/20 (no binomial formula).
"""

from __future__ import annotations

import itertools
import math
from functools import lru_cache
from collections import Counter
from fractions import Fraction as Fr

from explorer.games.tagraid.options import rulings as make_rulings
from explorer.games.tagraid.rolls import DieResult, classify_die, compare, saving_rolls


def _classes(sv, r):
    """[(DieResult representative, number of faces)] grouped by (kind, key)."""
    groups: dict[tuple, list] = {}
    for f in range(1, 21):
        d = classify_die(f, sv, r)
        groups.setdefault((d.kind, d.key), []).append(d)
    return [(ds[0], len(ds)) for ds in groups.values()]


def _rolls(sv, n, r, faces):
    """Yield (tuple of DieResult, Fraction weight) over every roll of n dice."""
    if faces == "all":
        dice = [classify_die(f, sv, r) for f in range(1, 21)]
        w = Fr(1, 20 ** n)
        for roll in itertools.product(dice, repeat=n):
            yield roll, w
        return
    cls = _classes(sv, r)
    for combo in itertools.combinations_with_replacement(range(len(cls)), n):
        counts = Counter(combo)
        orderings = math.factorial(n)
        weight = 1
        for i, k in counts.items():
            orderings //= math.factorial(k)
            weight *= cls[i][1] ** k
        yield tuple(cls[i][0] for i in combo), Fr(orderings * weight, 20 ** n)


@lru_cache(maxsize=None)
def save_wounds(s: int, damage: int) -> dict[int, Fr]:
    """Wounds from s Saving Rolls against ``damage``, enumerating each Saving Roll die as fail or pass."""
    fail = Fr(max(0, min(20, damage)), 20)
    out: dict[int, Fr] = {}
    for roll in itertools.product((True, False), repeat=s):
        w = Fr(1)
        for failed in roll:
            w *= fail if failed else 1 - fail
        k = sum(roll)
        if w:
            out[k] = out.get(k, 0) + w
    return out


def _as_list(d: dict[int, Fr]) -> list[Fr]:
    n = max(k for k, v in d.items() if v) + 1 if any(d.values()) else 1
    return [d.get(i, Fr(0)) for i in range(n)]


def _wounds(saves: dict[int, Fr], side, cap) -> list[Fr]:
    if side.attack_damage is None:
        return [Fr(1)]
    out: dict[int, Fr] = {}
    for s, ps in saves.items():
        for k, pk in save_wounds(s, side.attack_damage).items():
            kk = k if cap is None else min(k, cap)
            out[kk] = out.get(kk, 0) + ps * pk
    return _as_list(out)


def brute_f2f(a, b, rulings=None, faces="classes"):
    """Exact outcomes / Saving Rolls / Wounds of a Face to Face (or Normal) Roll by enumerating every roll."""
    r = make_rulings(rulings)
    outcomes: dict[tuple, Fr] = {}
    saves_a: dict[int, Fr] = {}
    saves_b: dict[int, Fr] = {}
    rolls_b = list(_rolls(b.sv, b.burst, r, faces))
    for ra, wa in _rolls(a.sv, a.burst, r, faces):
        for rb, wb in rolls_b:
            cmp = compare(ra, rb)
            w = wa * wb
            winner = cmp.winner
            hits, crits = ((cmp.a_hits, cmp.a_crits) if winner == "a" else
                           (cmp.b_hits, cmp.b_crits) if winner == "b" else (0, 0))
            key = (winner, hits, crits)
            outcomes[key] = outcomes.get(key, 0) + w
            sb = saving_rolls(cmp.a_hits, cmp.a_crits, a.ammunition) if a.attack_damage is not None else 0
            sa = saving_rolls(cmp.b_hits, cmp.b_crits, b.ammunition) if b.attack_damage is not None else 0
            saves_b[sb] = saves_b.get(sb, 0) + w
            saves_a[sa] = saves_a.get(sa, 0) + w
    return {
        "outcomes": outcomes,
        "p_a_wins": sum(v for k, v in outcomes.items() if k[0] == "a"),
        "p_b_wins": sum(v for k, v in outcomes.items() if k[0] == "b"),
        "p_nobody": outcomes.get((None, 0, 0), Fr(0)),
        "saving_rolls_to_a": _as_list(saves_a),
        "saving_rolls_to_b": _as_list(saves_b),
        "wounds_to_a": _wounds(saves_a, b, b.opponent_wounds),
        "wounds_to_b": _wounds(saves_b, a, a.opponent_wounds),
    }


def brute_megabeast(miner, threat, rulings=None):
    """Miner vs MegaBeast by enumeration: the Threat Level is one fixed opposing success of that value; under
    ``must_exceed`` the Miner's Criticals are compared as plain successes of their value; under
    ``megabeast_prevails`` a roll with no surviving die (even a tie) means the MegaBeast prevails."""
    r = make_rulings(rulings)
    crit_wins = r.reading("megabeast_critical") == "critical_wins"
    equal_tie = r.reading("megabeast_equal") == "tie"
    beast = DieResult(threat, threat, threat, "success")
    outcomes: dict[tuple, Fr] = {}
    saves: dict[int, Fr] = {}
    dice = [classify_die(f, miner.sv, r) for f in range(1, 21)]
    for roll in itertools.product(range(20), repeat=miner.burst):
        w = Fr(1, 20 ** miner.burst)
        orig = [dice[i] for i in roll]
        used = [d if (crit_wins or not d.critical) else DieResult(d.face, d.sv, d.effective, "success") for d in orig]
        cmp = compare(used, [beast])
        surv = [o for o, s in zip(orig, cmp.a_survives) if s]
        if surv:
            h = sum(1 for d in surv if not d.critical)
            c = len(surv) - h
            key = ("a", h, c)
            s = saving_rolls(h, c, miner.ammunition, megabeast=True) if miner.attack_damage is not None else 0
        else:
            key = ("b", 0, 0) if (cmp.b_survives[0] or not equal_tie) else (None, 0, 0)
            s = 0
        outcomes[key] = outcomes.get(key, 0) + w
        saves[s] = saves.get(s, 0) + w
    cap = miner.opponent_wounds
    wounds: dict[int, Fr] = {}
    for s, p in saves.items():
        k = s if cap is None else min(s, cap)
        wounds[k] = wounds.get(k, 0) + p
    return {"outcomes": outcomes, "saving_rolls_to_b": _as_list(saves), "wounds_to_b": _as_list(wounds)}
