"""Exact odds of TAG Raid rolls: Normal Rolls, Face to Face Rolls, Saving Rolls and Wounds, the MegaBeast.

Rule sections: Rolls › Successful Roll, Modifiers (MOD), Criticals, Normal Roll, Face to Face Rolls;
Damage › Partial Cover, Saving Roll; Skills and Tools › Ammunition, Traits; Death; MegaBeast › Wounds, Threat Level;
Common Skills › Evade.

Method (probabilities are computed, never sampled; polynomial in Burst, no enumeration of 20^(nA+nB) rolls):

1. Each face 1..20 of a side gets an ordering key from :func:`~explorer.games.tagraid.rolls.face_keys`:
   failure 0 < success (its value, 1..20) < Critical 100. A die of one side survives the Face to Face Roll
   exactly when its key is strictly above the opponent's best key -- which is what
   :func:`~explorer.games.tagraid.rolls.compare` implements (successes cancel lower and equal enemy successes,
   even when they are cancelled in turn; Criticals cancel everything but enemy Criticals). A side that rolls no
   dice has best key 0, so the other side makes a Normal Roll with the same machinery.
2. Only the opponent's best key ``m`` matters: ``P(best <= m) = q(m)^n`` with ``q(m)`` the share of its faces with
   key ``<= m``.
3. Given ``m``, each of your dice independently is a surviving Critical (key 100 > m), a surviving hit
   (m < key < 100) or neither, so (hits, Criticals) follow a multinomial. Sum over ``m``. Both sides can never
   keep dice at once, so the two "wins" are disjoint and "nobody" is the rest (both fail, or a tie).
4. ``h`` hits and ``c`` Criticals force ``k*(h + c) + c`` Saving Rolls (k = 1 N/AP, 2 DA, 3 EXP;
   :func:`~explorer.games.tagraid.rolls.saving_rolls`); each fails, costing one Wound, with probability
   ``clamp(Attack Damage, 0, 20) / 20``: Wounds are a mixture of binomials, capped at the Wounds the target has
   left (Death: Wounds below 0 are not lost).
5. The MegaBeast does not roll: its Threat Level is its "roll" (a fixed best key), it makes no Saving Rolls (each
   Saving Roll produced is a Wound) and ignores the Critical's extra roll (MegaBeast › Wounds, Threat Level).
6. Several targets of one Active Miner are independent Face to Face Rolls (disjoint dice); one Evade roll opposes
   every attack against the evader, so those pairs are *not* independent: we condition on the Evade die's face,
   after which the attackers are independent (Common Skills › Evade; Rolls › Face to Face Rolls › Evade).

Every function takes ``exact=False``: floats; ``exact=True``: :class:`fractions.Fraction` everywhere, which the
tests compare with brute-force enumeration by ``==``.

Example (the 1 vs 1 anchor, Burst 1 SV 12 each):
    >>> r = face_to_face(SideSpec(12, 1), SideSpec(12, 1), exact=True)
    >>> r.p_a_wins * 400, r.p_b_wins * 400, r.p_nobody * 400
    (Fraction(162, 1), Fraction(162, 1), Fraction(76, 1))
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import lru_cache
from typing import Any

from explorer.distributions import Number, cap_list, convolve_lists, fmt, fractions_over, ratio, scale_counts
from explorer.errors import ScenarioError, short_repr
from explorer.options import Rulings

from . import sections as S
from .options import rulings as default_rulings
from .rolls import CRITICAL_KEY, Ammunition, classify_die, saving_rolls

__all__ = ["RollPlan", "roll_plan", "ODDS_SKILLS", "SideSpec", "F2FOdds", "face_to_face", "normal_roll", "versus_megabeast", "megabeast_face_classes",
           "SVTable", "sv_table", "MultiOdds", "split_burst", "evade", "side_keys", "AMMUNITION", "MAX_BURST"]

MAX_BURST = 20
FACES = 20
AMMUNITION = tuple(a.value for a in Ammunition)


# --------------------------------------------------------------------------------------------------------------
# Inputs
# --------------------------------------------------------------------------------------------------------------

def _check_int(value: Any, field_name: str, allowed: str, lo: int | None = None, hi: int | None = None,
               optional: bool = False) -> None:
    if value is None and optional:
        return
    if isinstance(value, bool) or not isinstance(value, int):
        raise ScenarioError(field_name, f"{short_repr(value)} is not a whole number", allowed)
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        raise ScenarioError(field_name, f"{value} is out of range", allowed)


@dataclass(frozen=True)
class SideSpec:
    """One side of a roll.

    Attributes:
        sv: final Success Value (Attribute after all MODs); any int (<= 0 always fails; > 20 see the
            ``sv_above_20`` ruling option).
        burst: d20s rolled, 0..20. 0 means this side does not roll (the other side makes a Normal Roll).
        attack_damage: the Attack Damage the *opponent* saves against for this side's uncancelled hits
            (Damage › Saving Roll; compute it with :func:`~explorer.games.tagraid.rolls.attack_damage`, which
            handles AP, ``Armor = 0`` and Partial Cover); ``None`` = this side's success causes no Saving Rolls
            (Evade, Idle).
        ammunition: ``"N"``, ``"DA"``, ``"EXP"`` or ``"AP"``: Saving Rolls per hit and the Critical's extra roll
            (Skills and Tools › Ammunition). AP's halved Armor belongs in ``attack_damage``.
        opponent_wounds: Wounds the opponent has left; Wounds caused are capped there (Death). ``None``: no cap.

    Raises:
        ScenarioError: a field of the wrong type or out of range (the message names the field and what is allowed).
    """

    sv: int
    burst: int
    attack_damage: int | None = None
    ammunition: str = "N"
    opponent_wounds: int | None = None

    def __post_init__(self):
        _check_int(self.sv, "sv", "a whole number (the final Success Value)")
        _check_int(self.burst, "burst", f"a whole number 0..{MAX_BURST}", 0, MAX_BURST)
        _check_int(self.attack_damage, "attack_damage", "a whole number or None (no Saving Rolls)", optional=True)
        _check_int(self.opponent_wounds, "opponent_wounds", "a whole number >= 0 or None (no cap)", 0, None,
                   optional=True)
        ammo = self.ammunition.value if isinstance(self.ammunition, Ammunition) else self.ammunition
        if ammo not in AMMUNITION:
            raise ScenarioError("ammunition", f"unknown ammunition {short_repr(self.ammunition)}", AMMUNITION)
        object.__setattr__(self, "ammunition", ammo)

    def to_dict(self) -> dict:
        return {"sv": self.sv, "burst": self.burst, "attack_damage": self.attack_damage,
                "ammunition": self.ammunition, "opponent_wounds": self.opponent_wounds}


def _as_rulings(r: Rulings | Mapping[str, str] | None) -> Rulings:
    """A fresh :class:`Rulings` (so ``consulted`` lists only what this computation used)."""
    if r is None:
        return default_rulings()
    if isinstance(r, Rulings):
        return r.copy()
    return default_rulings(r)


# --------------------------------------------------------------------------------------------------------------
# Who rolls: Face to Face Roll, Normal Roll or no roll (from the Skills declared)
# --------------------------------------------------------------------------------------------------------------

ODDS_SKILLS = ("ranged", "cc", "evade", "idle")
"""Skills a side of :func:`roll_plan` may declare: Ranged Attack, Close Combat Attack, Evade, Idle."""

_ATTACK_SKILLS = ("ranged", "cc")


@dataclass(frozen=True)
class RollPlan:
    """Which rolls a 1 vs 1 exchange makes, derived from the Skills declared (the single source of truth shared by
    ``explorer odds`` text and JSON output; the engine :func:`~explorer.games.tagraid.resolve.resolve_detailed`
    agrees, see ``tests/tagraid/test_roll_plan.py``).

    Side ``a`` is the Active Miner, side ``b`` a Reactive Miner whose ARO targets ``a`` (Activating a Miner ›
    Orders and AROs); ``b`` is taken *not* to be in ``a``'s Hexagon.

    Attributes:
        kind: ``"face_to_face"`` (both roll and their Skills affect each other), ``"normal"`` (one side rolls) or
            ``"none"`` (nobody rolls).
        a_rolls, b_rolls: whether that side rolls dice.
        a_skill, b_skill: the Skill used at Resolution (``"idle"`` when the declared Skill fails its Requirements).
        section: the rulebook section that sets ``kind``.
        notes: one sentence per derivation worth telling the user, each ending with its section.
    """

    kind: str
    a_rolls: bool
    b_rolls: bool
    a_skill: str
    b_skill: str
    section: str
    notes: tuple[str, ...] = ()

    def to_dict(self) -> dict:
        return {"kind": self.kind, "section": self.section, "a_rolls": self.a_rolls, "b_rolls": self.b_rolls,
                "a_skill": self.a_skill, "b_skill": self.b_skill, "notes": list(self.notes)}


def roll_plan(skill_a: str, burst_a: int, skill_b: str, burst_b: int, *,
              silhouette_contact: bool = False) -> RollPlan:
    """Who rolls, and how, when Active Miner ``a`` declares ``skill_a`` and Reactive Miner ``b`` declares
    ``skill_b`` (each one of :data:`ODDS_SKILLS`); ``silhouette_contact``: the two are in Silhouette Contact.

    * Requirements first (Common Skills › Close Combat Attack / Ranged Attack): a Close Combat Attack needs
      Silhouette Contact with its target, a Ranged Attack is not allowed in Silhouette Contact with an enemy Miner; a
      Skill failing its Requirements counts as Idle (Activating a Miner › Order Expenditure Sequence, Resolution).

    * Idle performs no action: no roll (Common Skills › Idle). An attack with Burst 0 at the other side rolls nothing
      at it either.
    * Evade is one die whatever the Burst (Common Skills › Evade), so pass ``burst`` 1 for it. The Active Miner may
      always Evade (Evade › Requirements): unopposed, it makes a Normal Evade Roll. A Reactive Miner may Evade only
      when attacked (or in the Active Miner's Hexagon, excluded here); otherwise its Evade fails its Requirements
      and counts as Idle (Activating a Miner › Order Expenditure Sequence, Resolution).
    * Both roll only when both Skills affect each other (an attack against an attack or an Evade): a Face to Face
      Roll (Rolls › Face to Face Rolls); one side rolling alone makes a Normal Roll (Rolls › Normal Roll).

    Raises:
        ScenarioError: an unknown skill, or a Burst out of 0..20 (field ``skill_a``, ``burst_b``...).
    """
    for name, sk, n in (("a", skill_a, burst_a), ("b", skill_b, burst_b)):
        if sk not in ODDS_SKILLS:
            raise ScenarioError(f"skill_{name}", f"unknown skill {short_repr(sk)}", ODDS_SKILLS)
        _check_int(n, f"burst_{name}", f"a whole number 0..{MAX_BURST}", 0, MAX_BURST)
    notes: list[str] = []
    declared_a = skill_a
    skill_a = _requirements(skill_a, "a", silhouette_contact, notes)
    b_skill = _requirements(skill_b, "b", silhouette_contact, notes)
    a_attacks_b = skill_a in _ATTACK_SKILLS and burst_a > 0
    if skill_b == "evade" and not a_attacks_b:
        b_skill = "idle"
        notes.append(f"b's Evade fails its Requirements (b is not attacked and, as assumed here, not in a's "
                     f"Hexagon), so it counts as Idle [{S.EVADE}; {S.ORDER_EXPENDITURE_SEQUENCE}]")
    if declared_a == "idle":
        notes.append(f"a declares Idle: it performs no action and rolls nothing [{S.IDLE}]")
    if b_skill == "idle" and skill_b == "idle":
        notes.append(f"b declares Idle: it performs no action and rolls nothing [{S.IDLE}]")
    a_rolls = a_attacks_b or skill_a == "evade"
    b_rolls = (b_skill in _ATTACK_SKILLS and burst_b > 0) or b_skill == "evade"
    if skill_a == "evade" and not (b_skill in _ATTACK_SKILLS and burst_b > 0):
        notes.append(f"a (the Active Miner may always Evade) is not attacked: a Normal Evade Roll [{S.EVADE}]")
    if a_rolls and b_rolls:
        kind, section = "face_to_face", (S.FACE_TO_FACE_EVADE if "evade" in (skill_a, b_skill) else S.FACE_TO_FACE).section
    elif a_rolls or b_rolls:
        kind, section = "normal", S.NORMAL_ROLL.section
        if skill_a in _ATTACK_SKILLS or b_skill in _ATTACK_SKILLS or skill_a == "evade":
            who = "a" if a_rolls else "b"
            notes.append(f"only {who} rolls: a Face to Face Roll needs both Skills to affect each other, so {who} "
                         f"makes a Normal Roll [{S.FACE_TO_FACE}; {S.NORMAL_ROLL}]")
    else:
        kind, section = "none", (S.IDLE if "idle" in (skill_a, b_skill) else S.ROLLS).section
        notes.append("nobody rolls: nothing happens")
    return RollPlan(kind, a_rolls, b_rolls, skill_a, b_skill, section, tuple(notes))


def _requirements(skill: str, who: str, contact: bool, notes: list[str]) -> str:
    """The Skill used at Resolution after the Silhouette Contact Requirements of the attack Skills."""
    if skill == "cc" and not contact:
        notes.append(f"{who}'s Close Combat Attack needs Silhouette Contact with its target, so it counts as Idle "
                     f"[{S.CLOSE_COMBAT_ATTACK}; {S.ORDER_EXPENDITURE_SEQUENCE}]")
        return "idle"
    if skill == "ranged" and contact:
        notes.append(f"{who}'s Ranged Attack is not allowed in Silhouette Contact with an enemy Miner, so it counts "
                     f"as Idle [{S.RANGED_ATTACK}; {S.ORDER_EXPENDITURE_SEQUENCE}]")
        return "idle"
    return skill


# --------------------------------------------------------------------------------------------------------------
# Core: face keys and surviving dice
# --------------------------------------------------------------------------------------------------------------

@lru_cache(maxsize=None)
def _face_keys_cached(sv: int, above_20: str) -> tuple[int, ...]:
    r = default_rulings({"sv_above_20": above_20})
    return tuple(classify_die(f, sv, r).key for f in range(1, FACES + 1))


def side_keys(sv: int, rulings: Rulings) -> tuple[int, ...]:
    """Key of each face 1..20 against ``sv`` (same as :func:`rolls.face_keys`); consults ``sv_above_20`` only
    when it matters (SV above 20)."""
    reading = rulings.reading("sv_above_20") if sv > FACES else "literal"
    return _face_keys_cached(sv, reading)


def _counts(keys: Sequence[int]) -> dict[int, int]:
    out: dict[int, int] = {}
    for k in keys:
        out[k] = out.get(k, 0) + 1
    return out


def _best_key_dist(keys: Sequence[int], n: int, exact: bool) -> list[tuple[int, Number]]:
    """``[(m, P(best key of n dice = m))]``; ``n = 0`` gives best key 0 (nothing to beat)."""
    if n == 0:
        return [(0, ratio(1, 1, exact))]
    counts = _counts(keys)
    out = []
    cum, prev = 0, ratio(0, 1, exact)
    for k in sorted(counts):
        cum += counts[k]
        cur = ratio(cum, FACES, exact) ** n
        out.append((k, cur - prev))
        prev = cur
    return out


@lru_cache(maxsize=None)
def _coefs(n: int) -> tuple[tuple[int, ...], ...]:
    """``coef[h][c] = n! / (h! c! (n-h-c)!)``."""
    return tuple(tuple(math.comb(n, h) * math.comb(n - h, c) for c in range(n - h + 1)) for h in range(n + 1))


def _powers(x: Number, n: int) -> list[Number]:
    out = [x * 0 + 1]
    for _ in range(n):
        out.append(out[-1] * x)
    return out


def _survivor_groups(keys_x: Sequence[int], opp_best: list[tuple[int, Number]]) -> dict[tuple[int, int], Number]:
    """Group the opponent's best keys by ``(faces of x that survive as hits, faces that survive as Criticals)``."""
    crit = sum(1 for k in keys_x if k == CRITICAL_KEY)
    succ = sorted(k for k in keys_x if 0 < k < CRITICAL_KEY)
    groups: dict[tuple[int, int], Number] = {}
    for m, w in opp_best:
        if not w:
            continue
        nh = sum(1 for k in succ if k > m)
        nc = crit if m < CRITICAL_KEY else 0
        groups[(nh, nc)] = groups.get((nh, nc), 0) + w
    return groups


def _survivors(keys_x: Sequence[int], nx: int, opp_best: list[tuple[int, Number]], exact: bool
               ) -> dict[tuple[int, int], Number]:
    """``{(hits, crits): P(x keeps exactly these uncancelled dice)}`` for ``hits + crits >= 1``."""
    out: dict[tuple[int, int], Number] = {}
    if nx == 0:
        return out
    coefs = _coefs(nx)
    for (nh, nc), w in _survivor_groups(keys_x, opp_best).items():
        if nh == 0 and nc == 0:
            continue
        ph, pc, pn = ratio(nh, FACES, exact), ratio(nc, FACES, exact), ratio(FACES - nh - nc, FACES, exact)
        php, pcp, pnp = _powers(ph, nx), _powers(pc, nx), _powers(pn, nx)
        hmax = nx if nh else 0
        cmax = nx if nc else 0
        for h in range(hmax + 1):
            row = coefs[h]
            base = w * php[h]
            for c in range(min(cmax, nx - h) + 1):
                if h == 0 and c == 0:
                    continue
                v = base * row[c] * pcp[c] * pnp[nx - h - c]
                if v:
                    out[(h, c)] = out.get((h, c), 0) + v
    return out


def _win_prob(keys_x: Sequence[int], nx: int, opp_best: list[tuple[int, Number]], exact: bool) -> Number:
    """P(x keeps at least one die): ``sum_m P(best=m) * (1 - P(one die does not survive)^nx)``."""
    total = ratio(0, 1, exact)
    if nx == 0:
        return total
    for (nh, nc), w in _survivor_groups(keys_x, opp_best).items():
        total += w * (1 - ratio(FACES - nh - nc, FACES, exact) ** nx)
    return total


def _fail_p(damage: int, exact: bool) -> Number:
    """P(a Saving Roll fails) = clamp(Attack Damage, 0, 20)/20 (Damage › Saving Roll)."""
    return ratio(max(0, min(FACES, damage)), FACES, exact)


def _saves_and_wounds(wins: Mapping[tuple[int, int], Number], total: Number, side: SideSpec, exact: bool,
                      megabeast: bool = False) -> tuple[list[Number], list[Number]]:
    """(Saving Rolls distribution, Wounds distribution) caused by ``side`` given its winning outcomes.

    ``total`` is 1 (the probability space); the mass of outcomes not in ``wins`` is 0 Saving Rolls.
    """
    zero = total * 0
    if side.attack_damage is None:
        return [total], [total]
    saves: dict[int, Number] = {}
    for (h, c), p in wins.items():
        s = saving_rolls(h, c, side.ammunition, megabeast=megabeast)
        saves[s] = saves.get(s, zero) + p
    saves[0] = total - sum(v for k, v in saves.items() if k != 0)
    n_max = max(saves)
    save_list = [saves.get(s, zero) for s in range(n_max + 1)]
    if megabeast:
        wounds = list(save_list)
    else:
        p = _fail_p(side.attack_damage, exact)
        q = 1 - p
        pp, qp = _powers(p, n_max), _powers(q, n_max)
        wounds = [zero] * (n_max + 1)
        for s, ps in enumerate(save_list):
            if not ps:
                continue
            for k in range(s + 1):
                wounds[k] += ps * math.comb(s, k) * pp[k] * qp[s - k]
    if not exact:
        save_list = [max(0.0, x) for x in save_list]
        wounds = [max(0.0, x) for x in wounds]
    wounds = _trim(cap_list(wounds, side.opponent_wounds))
    return save_list, wounds


def _trim(p: list[Number]) -> list[Number]:
    """Drop trailing zero probabilities (keep index 0)."""
    while len(p) > 1 and not p[-1]:
        p.pop()
    return p


# --------------------------------------------------------------------------------------------------------------
# Exact path in integers: outcomes counted over 20^n, one conversion to Fraction at the end
# --------------------------------------------------------------------------------------------------------------
#
# The exact path used to run the float formulas above with Fractions; every Fraction product normalises by a gcd,
# which made it ~15x slower than floats. The same formulas in plain ints: a side rolling n dice has 20^n equally
# likely ordered rolls, so its best-key distribution, its multinomial of survivors and (with the opponent's 20^m)
# every joint outcome are integer counts over 20^(n+m); s Saving Rolls that each fail on d faces of 20 are integer
# counts over 20^s, lifted to the common denominator 20^(n+m+S) (S the largest number of Saving Rolls). Only the
# final probabilities become Fractions, so the results are the same rationals (``==``) as the Fraction path, which
# stays callable for tests and benchmarks through :func:`_fraction_reference`.

_INTEGER_EXACT = True
"""Whether ``exact=True`` uses the integer kernel (``False``: the former all-Fraction path, kept as reference)."""


@contextmanager
def _fraction_reference():
    """Within the block, ``exact=True`` runs the former all-Fraction path (reference for tests and benchmarks;
    not thread-safe: it flips a module flag)."""
    global _INTEGER_EXACT
    old, _INTEGER_EXACT = _INTEGER_EXACT, False
    try:
        yield
    finally:
        _INTEGER_EXACT = old


@lru_cache(maxsize=None)
def _pow20(n: int) -> int:
    return FACES ** n


def _best_key_counts(keys: Sequence[int], n: int) -> list[tuple[int, int]]:
    """``[(m, rolls of n dice whose best key is m)]`` over ``20^n`` (``n = 0``: best key 0, one empty roll)."""
    if n == 0:
        return [(0, 1)]
    counts = _counts(keys)
    out = []
    cum, prev = 0, 0
    for k in sorted(counts):
        cum += counts[k]
        cur = cum ** n
        out.append((k, cur - prev))
        prev = cur
    return out


@lru_cache(maxsize=4096)
def _multinomial_counts(nx: int, nh: int, nc: int) -> tuple[tuple[tuple[int, int], int], ...]:
    """``((h, c), rolls of nx dice with h dice among nh faces, c among nc faces)`` over ``20^nx``, h + c >= 1."""
    coefs = _coefs(nx)
    nn = FACES - nh - nc
    php, pcp, pnp = _powers(nh, nx), _powers(nc, nx), _powers(nn, nx)
    out = []
    for h in range(nx + 1 if nh else 1):
        row = coefs[h]
        base = php[h]
        for c in range(min(nx if nc else 0, nx - h) + 1):
            if h == 0 and c == 0:
                continue
            v = base * row[c] * pcp[c] * pnp[nx - h - c]
            if v:
                out.append(((h, c), v))
    return tuple(out)


def _survivors_int(keys_x: Sequence[int], nx: int, opp_best: list[tuple[int, int]]) -> dict[tuple[int, int], int]:
    """:func:`_survivors` in integer counts: ``{(hits, crits): count}`` over ``20^(nx + opponent's dice)``."""
    out: dict[tuple[int, int], int] = {}
    if nx == 0:
        return out
    for (nh, nc), w in _survivor_groups(keys_x, opp_best).items():
        if nh == 0 and nc == 0:
            continue
        for hc, v in _multinomial_counts(nx, nh, nc):
            out[hc] = out.get(hc, 0) + w * v
    return out


def _win_count(keys_x: Sequence[int], nx: int, opp_best: list[tuple[int, int]]) -> int:
    """:func:`_win_prob` in integer counts over ``20^(nx + opponent's dice)``."""
    if nx == 0:
        return 0
    full = _pow20(nx)
    return sum(w * (full - (FACES - nh - nc) ** nx) for (nh, nc), w in _survivor_groups(keys_x, opp_best).items())


@lru_cache(maxsize=None)
def _saves_per(ammunition: str, megabeast: bool) -> tuple[int, int]:
    """``(Saving Rolls per impact, extra per Critical)`` (Skills and Tools › Ammunition; MegaBeast › Wounds)."""
    return saving_rolls(1, 0, ammunition), (0 if megabeast else saving_rolls(0, 1, ammunition) - saving_rolls(1, 0, ammunition))


def _saves_and_wounds_int(wins: Mapping[tuple[int, int], int], e: int, side: SideSpec, megabeast: bool = False
                          ) -> tuple[list[int], int, list[int], int]:
    """:func:`_saves_and_wounds` in integer counts. ``wins`` are counts over ``20^e``.

    Returns ``(saves, e, wounds, e_w)``: Saving Roll counts over ``20^e`` (not trimmed) and Wound counts over
    ``20^e_w`` (capped at ``side.opponent_wounds``, trimmed).
    """
    total = _pow20(e)
    if side.attack_damage is None:
        return [total], e, [total], e
    per, extra = _saves_per(side.ammunition, megabeast)
    saves: dict[int, int] = {}
    for (h, c), p in wins.items():
        s = per * (h + c) + extra * c
        saves[s] = saves.get(s, 0) + p
    saves[0] = total - sum(v for k, v in saves.items() if k != 0)
    n_max = max(saves)
    save_list = [saves.get(s, 0) for s in range(n_max + 1)]
    if megabeast:
        wounds, e_w = list(save_list), e
    else:
        d = max(0, min(FACES, side.attack_damage))
        pp, qp = _powers(d, n_max), _powers(FACES - d, n_max)
        wounds = [0] * (n_max + 1)
        for s, ps in enumerate(save_list):
            if not ps:
                continue
            lift = ps * _pow20(n_max - s)
            comb = math.comb
            for k in range(s + 1):
                wounds[k] += lift * comb(s, k) * pp[k] * qp[s - k]
        e_w = e + n_max
    return save_list, e, _trim(cap_list(wounds, side.opponent_wounds)), e_w


def _assemble_int(a: SideSpec, b: SideSpec, wins_a: dict, wins_b: dict, e: int, r: Rulings, kind: str,
                  megabeast: bool = False, threat_level: int | None = None) -> F2FOdds:
    """:func:`_assemble` from integer counts over ``20^e``; every probability of the result is a Fraction."""
    den = _pow20(e)
    pa, pb = sum(wins_a.values()), sum(wins_b.values())
    nobody = den - pa - pb
    outcomes: dict[Outcome, Number] = {}
    outcomes.update({("a", h, c): Fraction(p, den) for (h, c), p in wins_a.items()})
    outcomes.update({("b", h, c): Fraction(p, den) for (h, c), p in wins_b.items()})
    if nobody:
        outcomes[(None, 0, 0)] = Fraction(nobody, den)
    sb, esb, wb, ewb = _saves_and_wounds_int(wins_a, e, a, megabeast=megabeast)
    if megabeast:
        sa, esa, wa, ewa = [1], 0, [1], 0
    else:
        sa, esa, wa, ewa = _saves_and_wounds_int(wins_b, e, b)
    return F2FOdds(a, b, kind, Fraction(pa, den), Fraction(pb, den), Fraction(nobody, den), outcomes,
                   fractions_over(wa, _pow20(ewa)), fractions_over(wb, _pow20(ewb)),
                   fractions_over(sa, _pow20(esa)), fractions_over(sb, _pow20(esb)), dict(r.consulted), True,
                   threat_level)


def _face_to_face_int(a: SideSpec, b: SideSpec, r: Rulings) -> F2FOdds:
    keys_a, keys_b = side_keys(a.sv, r), side_keys(b.sv, r)
    wins_a = _survivors_int(keys_a, a.burst, _best_key_counts(keys_b, b.burst))
    wins_b = _survivors_int(keys_b, b.burst, _best_key_counts(keys_a, a.burst))
    return _assemble_int(a, b, wins_a, wins_b, a.burst + b.burst, r,
                         "normal" if (a.burst == 0 or b.burst == 0) else "face_to_face")


# --------------------------------------------------------------------------------------------------------------
# Results
# --------------------------------------------------------------------------------------------------------------

Outcome = tuple[Any, int, int]


@dataclass(frozen=True)
class F2FOdds:
    """The exact distribution of a Face to Face Roll (or Normal Roll) between sides ``a`` and ``b``.

    Attributes:
        a, b: the sides as given (for :func:`normal_roll` ``b`` rolls no dice; for :func:`versus_megabeast` ``b``
            stands for the MegaBeast: ``sv`` = Threat Level, ``burst`` 0).
        kind: ``"face_to_face"``, ``"normal"`` (one side rolls no dice) or ``"megabeast"``; ``explorer odds``
            replaces it by :attr:`RollPlan.kind` (``"none"`` when neither side rolls).
        p_a_wins, p_b_wins, p_nobody: probabilities (sum 1). ``nobody`` = both fail or a tie (Rolls › Face to
            Face Rolls, Breaking Ties); in a Normal Roll ``p_a_wins`` is a's chance of success.
        outcomes: ``{(winner, hits, crits): p}`` with ``winner`` ``"a"``, ``"b"`` or ``None`` (then hits = crits =
            0); ``hits`` are uncancelled non-critical successes, ``crits`` uncancelled Criticals.
        wounds_to_a, wounds_to_b: ``[P(k Wounds caused)]`` for k = 0, 1, ...; capped at ``opponent_wounds``.
        saving_rolls_to_a, saving_rolls_to_b: ``[P(k Saving Rolls)]`` (for the MegaBeast: Saving Rolls produced,
            each a Wound).
        rulings: ``{option key: reading}`` consulted by this computation.
        exact: whether the numbers are :class:`Fraction`.
        threat_level: the MegaBeast's Threat Level (``kind == "megabeast"``), else ``None``.
    """

    a: SideSpec
    b: SideSpec
    kind: str
    p_a_wins: Number
    p_b_wins: Number
    p_nobody: Number
    outcomes: dict[Outcome, Number]
    wounds_to_a: list[Number]
    wounds_to_b: list[Number]
    saving_rolls_to_a: list[Number]
    saving_rolls_to_b: list[Number]
    rulings: dict[str, str] = field(default_factory=dict)
    exact: bool = False
    threat_level: int | None = None

    @property
    def expected_wounds_to_a(self) -> Number:
        return sum(k * p for k, p in enumerate(self.wounds_to_a))

    @property
    def expected_wounds_to_b(self) -> Number:
        return sum(k * p for k, p in enumerate(self.wounds_to_b))

    def outcome_rows(self) -> list[tuple[Any, int, int, Number]]:
        """Outcomes sorted for display: a's wins (most dice first), then nobody, then b's wins."""
        order = {"a": 0, None: 1, "b": 2}
        return sorted(((w, h, c, p) for (w, h, c), p in self.outcomes.items()),
                      key=lambda r: (order[r[0]], -(r[1] + r[2]), -r[2]))

    def to_floats(self) -> "F2FOdds":
        """The same result with every probability as the float nearest to it (``float(Fraction)`` rounds
        correctly): computing exactly then converting avoids float noise such as ``1 - 0.405 - 0.405 =
        0.18999999999999995`` (``p_nobody`` is then ``0.19``). A float result is returned unchanged."""
        if not self.exact:
            return self
        fl = lambda xs: [float(x) for x in xs]  # noqa: E731
        return replace(self, p_a_wins=float(self.p_a_wins), p_b_wins=float(self.p_b_wins),
                       p_nobody=float(self.p_nobody), outcomes={k: float(v) for k, v in self.outcomes.items()},
                       wounds_to_a=fl(self.wounds_to_a), wounds_to_b=fl(self.wounds_to_b),
                       saving_rolls_to_a=fl(self.saving_rolls_to_a), saving_rolls_to_b=fl(self.saving_rolls_to_b),
                       exact=False)

    def to_dict(self) -> dict:
        """JSON-friendly dict (Fractions as ``"n/d"`` strings when exact, else floats).

        ``wounds_to_b``, ``saving_rolls_to_b`` and ``expected_wounds_to_b`` are ``None`` when ``a`` causes no
        Saving Rolls (``a.attack_damage is None``: Evade, Idle, or Wounds not asked for); likewise ``*_to_a`` for
        ``b`` (and always against the MegaBeast, whose Behavior's Attack is on its card).
        """
        no_a = self.a.attack_damage is None
        no_b = self.b.attack_damage is None or self.kind == "megabeast"
        return {
            "kind": self.kind,
            "exact": self.exact,
            "a": self.a.to_dict(),
            "b": self.b.to_dict(),
            "threat_level": self.threat_level,
            "p_a_wins": fmt(self.p_a_wins),
            "p_b_wins": fmt(self.p_b_wins),
            "p_nobody": fmt(self.p_nobody),
            "outcomes": [{"winner": w, "hits": h, "crits": c, "p": fmt(p)} for w, h, c, p in self.outcome_rows()],
            "wounds_to_a": None if no_b else [fmt(p) for p in self.wounds_to_a],
            "wounds_to_b": None if no_a else [fmt(p) for p in self.wounds_to_b],
            "saving_rolls_to_a": None if no_b else [fmt(p) for p in self.saving_rolls_to_a],
            "saving_rolls_to_b": None if no_a else [fmt(p) for p in self.saving_rolls_to_b],
            "expected_wounds_to_a": None if no_b else fmt(self.expected_wounds_to_a),
            "expected_wounds_to_b": None if no_a else fmt(self.expected_wounds_to_b),
            "rulings": dict(self.rulings),
        }


# --------------------------------------------------------------------------------------------------------------
# Public API
# --------------------------------------------------------------------------------------------------------------

def face_to_face(a: SideSpec, b: SideSpec, *, rulings: Rulings | Mapping[str, str] | None = None,
                 exact: bool = False) -> F2FOdds:
    """Exact odds of a Face to Face Roll between ``a`` and ``b`` (a Normal Roll when one Burst is 0).

    Rolls › Face to Face Rolls, Criticals, Normal Roll; Damage › Saving Roll; Skills and Tools › Ammunition; Death.

    Args:
        a, b: the two sides.
        rulings: :class:`Rulings`, ``{key: reading}`` or ``None`` (defaults); ``sv_above_20`` matters here.
        exact: Fractions instead of floats.

    Returns:
        :class:`F2FOdds`.

    Raises:
        ScenarioError: a side is not a :class:`SideSpec`, or an unknown ruling.
    """
    for name, s in (("a", a), ("b", b)):
        if not isinstance(s, SideSpec):
            raise ScenarioError(name, f"expected a SideSpec, got {type(s).__name__}", "SideSpec(sv, burst, ...)")
    r = _as_rulings(rulings)
    if exact and _INTEGER_EXACT:
        return _face_to_face_int(a, b, r)
    keys_a, keys_b = side_keys(a.sv, r), side_keys(b.sv, r)
    best_a = _best_key_dist(keys_a, a.burst, exact)
    best_b = _best_key_dist(keys_b, b.burst, exact)
    wins_a = _survivors(keys_a, a.burst, best_b, exact)
    wins_b = _survivors(keys_b, b.burst, best_a, exact)
    one = ratio(1, 1, exact)
    return _assemble(a, b, wins_a, wins_b, one, exact, r,
                     "normal" if (a.burst == 0 or b.burst == 0) else "face_to_face")


def _assemble(a: SideSpec, b: SideSpec, wins_a, wins_b, one, exact, r: Rulings, kind: str,
              megabeast: bool = False, p_nobody: Number | None = None, threat_level: int | None = None) -> F2FOdds:
    pa = sum(wins_a.values(), one * 0)
    pb = sum(wins_b.values(), one * 0)
    nobody = one - pa - pb
    if not exact:
        nobody = max(0.0, nobody)
    outcomes: dict[Outcome, Number] = {}
    outcomes.update({("a", h, c): p for (h, c), p in wins_a.items()})
    outcomes.update({("b", h, c): p for (h, c), p in wins_b.items()})
    if nobody:
        outcomes[(None, 0, 0)] = nobody
    saves_b, wounds_b = _saves_and_wounds(wins_a, one, a, exact, megabeast=megabeast)
    saves_a, wounds_a = _saves_and_wounds(wins_b, one, b, exact) if not megabeast else ([one], [one])
    return F2FOdds(a, b, kind, pa, pb, nobody, outcomes, wounds_a, wounds_b, saves_a, saves_b,
                   dict(r.consulted), exact, threat_level)


def normal_roll(a: SideSpec, *, rulings: Rulings | Mapping[str, str] | None = None, exact: bool = False) -> F2FOdds:
    """Exact odds of a Normal Roll by ``a`` (Rolls › Normal Roll): the Face to Face machinery against a side that
    rolls no dice. ``p_a_wins`` is the chance that at least one die succeeds."""
    return face_to_face(a, SideSpec(sv=0, burst=0), rulings=rulings, exact=exact)


def megabeast_face_classes(sv: int, threat_level: int, rulings: Rulings) -> list[str]:
    """How each face 1..20 of a Miner's die fares against a MegaBeast's Threat Level (MegaBeast › Threat Level,
    Wounds; Rolls › Criticals, Face to Face Rolls).

    Returns one of ``"crit"`` (wounds, was a Critical), ``"hit"`` (wounds), ``"tie"`` (cancels the MegaBeast's
    roll and is cancelled), ``"none"`` (failure or cancelled) per face.

    * A success above the Threat Level wounds.
    * A success equal to it: ``megabeast_equal`` = ``megabeast_prevails`` -> ``"none"``; ``tie`` -> ``"tie"``.
    * A Critical: ``megabeast_critical`` = ``critical_wins`` -> always ``"crit"``; ``must_exceed`` -> compared by its
      value like any other success (so a Critical equal to the Threat Level follows ``megabeast_equal``).
    """
    crit_reading = rulings.reading("megabeast_critical")
    equal_reading = rulings.reading("megabeast_equal")
    out = []
    for f in range(1, FACES + 1):
        d = classify_die(f, sv, rulings)
        if not d.success:
            out.append("none")
        elif d.critical and crit_reading == "critical_wins":
            out.append("crit")
        elif d.effective > threat_level:
            out.append("crit" if d.critical else "hit")
        elif d.effective == threat_level and equal_reading == "tie":
            out.append("tie")
        else:
            out.append("none")
    return out


def versus_megabeast(miner: SideSpec, threat_level: int, *, rulings: Rulings | Mapping[str, str] | None = None,
                     exact: bool = False) -> F2FOdds:
    """Exact odds of a Miner's roll against the MegaBeast (MegaBeast › Threat Level, Wounds).

    The MegaBeast does not roll: the Threat Level of the side attacked from is its result. Miner's dice above it
    survive; each Saving Roll they produce is a Wound (no Armor roll), the Critical's extra Saving Roll is ignored,
    and Wounds are capped at ``miner.opponent_wounds`` (the MegaBeast's Wounds left, Fury Level Tokens counted as
    Wounds). ``miner.attack_damage``: its value is not used (no Armor roll), but ``None`` means the Miner's success
    causes no Saving Rolls (Evade), so no Wounds; pass any int (e.g. the weapon's Damage) for an Attack.

    ``p_a_wins``: the Miner wounds (or, for Evade, evades); ``p_b_wins``: the MegaBeast prevails (its Behavior's
    Attack or Skill applies -- its effect is on its card, so ``wounds_to_a`` is all zero); ``p_nobody``: a tie
    (only under ``megabeast_equal = tie``). Outcomes with winner ``"b"`` are ``("b", 0, 0)``. A Miner with Burst 0
    does not roll, so the MegaBeast prevails.
    Ruling options consulted: ``megabeast_critical``, ``megabeast_equal`` (and ``sv_above_20`` for an SV above 20).

    Raises:
        ScenarioError: ``threat_level`` not a whole number, or an unknown ruling.
    """
    if not isinstance(miner, SideSpec):
        raise ScenarioError("miner", f"expected a SideSpec, got {type(miner).__name__}", "SideSpec(sv, burst, ...)")
    _check_int(threat_level, "threat_level", "a whole number (the MegaBeast's Threat Level for that side)")
    r = _as_rulings(rulings)
    classes = megabeast_face_classes(miner.sv, threat_level, r)
    n = miner.burst
    nh, nc, nt = classes.count("hit"), classes.count("crit"), classes.count("tie")
    if exact and _INTEGER_EXACT:
        return _versus_megabeast_int(miner, threat_level, n, nh, nc, nt, r)
    one = ratio(1, 1, exact)
    # The Threat Level behaves as an opponent's best key that hit faces exceed and crit faces beat: reuse the
    # multinomial with synthetic keys (hit -> 1, crit -> 100, others 0) against a best key of 0.
    synthetic = [1] * nh + [CRITICAL_KEY] * nc + [0] * (FACES - nh - nc)
    wins = _survivors(synthetic, n, [(0, one)], exact)
    p_none_at_all = ratio(FACES - nh - nc - nt, FACES, exact) ** n
    p_no_survivor = ratio(FACES - nh - nc, FACES, exact) ** n
    beast = SideSpec(sv=threat_level, burst=0)
    res = _assemble(miner, beast, wins, {}, one, exact, r, "megabeast", megabeast=True, threat_level=threat_level)
    nobody = p_no_survivor - p_none_at_all
    outcomes = {k: v for k, v in res.outcomes.items() if k[0] == "a"}
    if p_none_at_all:
        outcomes[("b", 0, 0)] = p_none_at_all
    if nobody:
        outcomes[(None, 0, 0)] = nobody
    return F2FOdds(miner, beast, "megabeast", res.p_a_wins, p_none_at_all, nobody, outcomes, [one], res.wounds_to_b,
                   [one], res.saving_rolls_to_b, res.rulings, exact, threat_level)


def _versus_megabeast_int(miner: SideSpec, threat_level: int, n: int, nh: int, nc: int, nt: int, r: Rulings
                          ) -> F2FOdds:
    """:func:`versus_megabeast` with ``exact=True`` in integer counts over ``20^n``."""
    synthetic = [1] * nh + [CRITICAL_KEY] * nc + [0] * (FACES - nh - nc)
    wins = _survivors_int(synthetic, n, [(0, 1)])
    den = _pow20(n)
    none_at_all = (FACES - nh - nc - nt) ** n
    no_survivor = (FACES - nh - nc) ** n
    beast = SideSpec(sv=threat_level, burst=0)
    res = _assemble_int(miner, beast, wins, {}, n, r, "megabeast", megabeast=True, threat_level=threat_level)
    nobody = no_survivor - none_at_all
    outcomes = {k: v for k, v in res.outcomes.items() if k[0] == "a"}
    if none_at_all:
        outcomes[("b", 0, 0)] = Fraction(none_at_all, den)
    if nobody:
        outcomes[(None, 0, 0)] = Fraction(nobody, den)
    one = Fraction(1)
    return F2FOdds(miner, beast, "megabeast", res.p_a_wins, Fraction(none_at_all, den), Fraction(nobody, den),
                   outcomes, [one], res.wounds_to_b, [one], res.saving_rolls_to_b, res.rulings, True, threat_level)


# --------------------------------------------------------------------------------------------------------------
# SV tables
# --------------------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class SVTable:
    """Win / lose / nobody probabilities for every pair of Success Values (rows: a's SV, columns: b's SV).

    Attributes:
        burst_a, burst_b: the Bursts.
        svs_a, svs_b: the Success Values of the rows and columns.
        win_a, win_b, nobody: ``[[p for sv_b] for sv_a]``.
        rulings: readings consulted.
    """

    burst_a: int
    burst_b: int
    svs_a: tuple[int, ...]
    svs_b: tuple[int, ...]
    win_a: list[list[Number]]
    win_b: list[list[Number]]
    nobody: list[list[Number]]
    rulings: dict[str, str]
    exact: bool = False

    def cell(self, sv_a: int, sv_b: int) -> tuple[Number, Number, Number]:
        """``(p_a_wins, p_b_wins, p_nobody)`` at the given SVs."""
        i, j = self.svs_a.index(sv_a), self.svs_b.index(sv_b)
        return self.win_a[i][j], self.win_b[i][j], self.nobody[i][j]

    def to_dict(self) -> dict:
        conv = lambda t: [[fmt(p) for p in row] for row in t]  # noqa: E731
        return {"burst_a": self.burst_a, "burst_b": self.burst_b, "svs_a": list(self.svs_a),
                "svs_b": list(self.svs_b), "win_a": conv(self.win_a), "win_b": conv(self.win_b),
                "nobody": conv(self.nobody), "rulings": dict(self.rulings), "exact": self.exact}


def sv_table(burst_a: int, burst_b: int, *, svs_a: Sequence[int] = range(1, 21), svs_b: Sequence[int] = range(1, 21),
             rulings: Rulings | Mapping[str, str] | None = None, exact: bool = False) -> SVTable:
    """Face to Face win / lose / nobody for every SV pair (default SV 1..20 x SV 1..20) at fixed Bursts
    (Rolls › Face to Face Rolls). Only win probabilities are computed (no Wounds), which keeps it fast.

    Raises:
        ScenarioError: a Burst outside 0..20 or a non-integer SV.
    """
    _check_int(burst_a, "burst_a", f"a whole number 0..{MAX_BURST}", 0, MAX_BURST)
    _check_int(burst_b, "burst_b", f"a whole number 0..{MAX_BURST}", 0, MAX_BURST)
    svs_a, svs_b = tuple(svs_a), tuple(svs_b)
    for name, svs in (("svs_a", svs_a), ("svs_b", svs_b)):
        for s in svs:
            _check_int(s, name, "whole numbers")
    r = _as_rulings(rulings)
    ka = {s: side_keys(s, r) for s in svs_a}
    kb = {s: side_keys(s, r) for s in svs_b}
    if exact and _INTEGER_EXACT:
        best_a = {s: _best_key_counts(ka[s], burst_a) for s in svs_a}
        best_b = {s: _best_key_counts(kb[s], burst_b) for s in svs_b}
        den = _pow20(burst_a + burst_b)
        wa, wb, nb = [], [], []
        for sa in svs_a:
            counts = [(_win_count(ka[sa], burst_a, best_b[sb]), _win_count(kb[sb], burst_b, best_a[sa]))
                      for sb in svs_b]
            wa.append([Fraction(pa, den) for pa, _ in counts])
            wb.append([Fraction(pb, den) for _, pb in counts])
            nb.append([Fraction(den - pa - pb, den) for pa, pb in counts])
        return SVTable(burst_a, burst_b, svs_a, svs_b, wa, wb, nb, dict(r.consulted), exact)
    best_a = {s: _best_key_dist(ka[s], burst_a, exact) for s in svs_a}
    best_b = {s: _best_key_dist(kb[s], burst_b, exact) for s in svs_b}
    one = ratio(1, 1, exact)
    wa, wb, nb = [], [], []
    for sa in svs_a:
        ra, rb, rn = [], [], []
        for sb in svs_b:
            pa = _win_prob(ka[sa], burst_a, best_b[sb], exact)
            pb = _win_prob(kb[sb], burst_b, best_a[sa], exact)
            ra.append(pa)
            rb.append(pb)
            rn.append(one - pa - pb if exact else max(0.0, one - pa - pb))
        wa.append(ra)
        wb.append(rb)
        nb.append(rn)
    return SVTable(burst_a, burst_b, svs_a, svs_b, wa, wb, nb, dict(r.consulted), exact)


# --------------------------------------------------------------------------------------------------------------
# Several opponents: split Burst, Evade
# --------------------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class MultiOdds:
    """Odds of one Miner (the *focus*: the Active Miner splitting its Burst, or an evader) against several others.

    Attributes:
        kind: ``"split_burst"`` or ``"evade"``.
        pairs: one :class:`F2FOdds` per opponent, with the focus as side ``a`` (its marginal odds).
        wounds_to_focus: ``[P(k Wounds)]`` to the focus from all opponents together, capped at its Wounds left.
        saving_rolls_to_focus: ``[P(k Saving Rolls)]`` the focus makes in total.
        p_focus_unhurt_rolls: P(no opponent keeps an uncancelled success against the focus).
        p_focus_wins_all: P(the focus wins every one of its Face to Face Rolls / Normal Rolls).
        rulings: readings consulted.
    """

    kind: str
    pairs: tuple[F2FOdds, ...]
    wounds_to_focus: list[Number]
    saving_rolls_to_focus: list[Number]
    p_focus_unhurt_rolls: Number
    p_focus_wins_all: Number
    rulings: dict[str, str]
    exact: bool = False

    @property
    def expected_wounds_to_focus(self) -> Number:
        return sum(k * p for k, p in enumerate(self.wounds_to_focus))

    def to_dict(self) -> dict:
        return {"kind": self.kind, "exact": self.exact, "pairs": [p.to_dict() for p in self.pairs],
                "wounds_to_focus": [fmt(p) for p in self.wounds_to_focus],
                "saving_rolls_to_focus": [fmt(p) for p in self.saving_rolls_to_focus],
                "expected_wounds_to_focus": fmt(self.expected_wounds_to_focus),
                "p_focus_unhurt_rolls": fmt(self.p_focus_unhurt_rolls),
                "p_focus_wins_all": fmt(self.p_focus_wins_all), "rulings": dict(self.rulings)}


def split_burst(active_parts: Sequence[SideSpec], reactives: Sequence[SideSpec], *, active_wounds: int | None = None,
                rulings: Rulings | Mapping[str, str] | None = None, exact: bool = False) -> MultiOdds:
    """The Active Miner splits its Burst over several Reactive Miners (Rolls › Face to Face Rolls, Normal Roll;
    the "Two Face to Face Rolls" example).

    ``active_parts[i]`` is the Active Miner's share against ``reactives[i]`` (its own SV, Burst, Attack Damage
    against that target; Burst 0 if it does not shoot that one, so that Reactive Miner's ARO is a Normal Roll).
    A Reactive Miner that does not oppose (Burst 0) faces a Normal Roll. The Active Miner's dice are split into
    disjoint groups, so the pairs are independent: the total Wounds to the Active Miner is the convolution of each
    pair's ``wounds_to_a``, capped at ``active_wounds``. ``active_wounds`` (the Active Miner's Wounds left) replaces
    the reactives' ``opponent_wounds`` in the pairs.

    Raises:
        ScenarioError: lists of different lengths, empty, or a total Burst above 20.
    """
    active_parts, reactives = list(active_parts), list(reactives)
    if not active_parts or len(active_parts) != len(reactives):
        raise ScenarioError("active_parts", f"{len(active_parts)} shares for {len(reactives)} reactive Miners",
                            "one share of the Burst (a SideSpec, Burst may be 0) per reactive Miner")
    if sum(s.burst for s in active_parts) > MAX_BURST:
        raise ScenarioError("active_parts", "total Burst above 20", f"Bursts summing to at most {MAX_BURST}")
    _check_int(active_wounds, "active_wounds", "a whole number >= 0 or None", 0, None, optional=True)
    r = _as_rulings(rulings)
    reactives = [replace(b, opponent_wounds=active_wounds) for b in reactives]
    pairs = tuple(face_to_face(a, b, rulings=r, exact=exact) for a, b in zip(active_parts, reactives))
    one = ratio(1, 1, exact)
    wounds, saves = [one], [one]
    unhurt, wins_all = one, one
    for p in pairs:
        wounds = convolve_lists(wounds, p.wounds_to_a)
        saves = convolve_lists(saves, p.saving_rolls_to_a)
        unhurt *= 1 - p.p_b_wins
        wins_all *= p.p_a_wins
    consulted = {k: v for p in pairs for k, v in p.rulings.items()}
    return MultiOdds("split_burst", pairs, _trim(cap_list(wounds, active_wounds)), _trim(saves), unhurt, wins_all,
                     consulted, exact)


def evade(evader_sv: int | Sequence[int], attackers: Sequence[SideSpec], *, evader_wounds: int | None = None,
          rulings: Rulings | Mapping[str, str] | None = None, exact: bool = False) -> MultiOdds:
    """One Evade roll against several attacks (Common Skills › Evade; Rolls › Face to Face Rolls › Evade).

    The evader rolls a single d20 that opposes every attack against it individually. Its SV may differ per
    attack (e.g. the -3 Evade MOD when it has no LoF to that attacker), so ``evader_sv`` is one int or one per
    attacker. Because the *same* die opposes every attack, the pairs are not independent: we condition on the
    Evade die's face (20 cases, 1/20 each); given the face, each attacker's dice are independent, so the Wounds
    distributions convolve; then we average over the face.

    ``attackers[i].attack_damage`` is the Attack Damage the evader saves against (already with its Armor, Partial
    Cover...). ``evader_wounds`` (the evader's Wounds left) caps the total and each pair's marginal; it replaces the
    attackers' ``opponent_wounds``.
    ``pairs[i]`` has the evader as side ``a`` (Burst 1, no Saving Rolls caused).

    Raises:
        ScenarioError: no attackers, or a list of SVs of the wrong length.
    """
    attackers = list(attackers)
    if not attackers:
        raise ScenarioError("attackers", "no attack to evade", "one SideSpec per attack against the evader")
    svs = [evader_sv] * len(attackers) if isinstance(evader_sv, int) and not isinstance(evader_sv, bool) \
        else list(evader_sv)
    if len(svs) != len(attackers):
        raise ScenarioError("evader_sv", f"{len(svs)} Success Values for {len(attackers)} attacks",
                            "one int, or one per attack")
    for s in svs:
        _check_int(s, "evader_sv", "whole numbers")
    _check_int(evader_wounds, "evader_wounds", "a whole number >= 0 or None", 0, None, optional=True)
    r = _as_rulings(rulings)
    one, zero = ratio(1, 1, exact), ratio(0, 1, exact)
    attackers = [replace(a, opponent_wounds=evader_wounds) for a in attackers]
    pairs = tuple(face_to_face(SideSpec(sv, 1), atk, rulings=r, exact=exact) for sv, atk in zip(svs, attackers))
    keys_e = [side_keys(sv, r) for sv in svs]
    keys_atk = [side_keys(a.sv, r) for a in attackers]
    if exact and _INTEGER_EXACT:
        return _evade_totals_int(pairs, attackers, keys_e, keys_atk, evader_wounds, r)
    face_p = ratio(1, FACES, exact)
    wounds_total: list[Number] = [zero]
    saves_total: list[Number] = [zero]
    unhurt, wins_all = zero, zero
    uncapped = [SideSpec(a.sv, a.burst, a.attack_damage, a.ammunition, None) for a in attackers]
    for f in range(FACES):
        wounds, saves = [one], [one]
        p_unhurt, p_wins = one, one
        for i, atk in enumerate(uncapped):
            k = keys_e[i][f]
            atk_wins = _survivors(keys_atk[i], atk.burst, [(k, one)], exact)
            s_i, w_i = _saves_and_wounds(atk_wins, one, atk, exact)
            wounds = convolve_lists(wounds, w_i)
            saves = convolve_lists(saves, s_i)
            p_unhurt *= 1 - sum(atk_wins.values(), zero)
            # the Evade die survives against this attacker iff its key is above every attacking die's key
            below = sum(1 for x in keys_atk[i] if x < k)
            p_wins *= ratio(below, FACES, exact) ** atk.burst if k > 0 else zero
        wounds_total = _add_lists(wounds_total, [x * face_p for x in wounds])
        saves_total = _add_lists(saves_total, [x * face_p for x in saves])
        unhurt += p_unhurt * face_p
        wins_all += p_wins * face_p
    return MultiOdds("evade", pairs, _trim(cap_list(wounds_total, evader_wounds)), _trim(saves_total), unhurt,
                     wins_all, dict(r.consulted), exact)


def _evade_totals_int(pairs: tuple[F2FOdds, ...], attackers: list[SideSpec], keys_e: list, keys_atk: list,
                      evader_wounds: int | None, r: Rulings) -> MultiOdds:
    """The totals of :func:`evade` with ``exact=True`` in integer counts.

    Given the Evade die's face, attacker ``i``'s Saving Rolls are counts over ``20^b_i`` (its Burst) and its Wounds
    counts over ``20^(b_i + M_i)`` (``M_i`` its most Saving Rolls possible); the convolution over attackers is over
    ``20^(sum b_i)`` and ``20^(sum b_i + M_i)``, the same for every face, so the 20 faces simply add up (over one
    more factor 20).
    """
    uncapped = [SideSpec(a.sv, a.burst, a.attack_damage, a.ammunition, None) for a in attackers]
    e_saves = sum(a.burst for a in uncapped)
    most = [0 if a.attack_damage is None else sum(_saves_per(a.ammunition, False)) * a.burst for a in uncapped]
    e_wounds = e_saves + sum(most)
    wounds_total: list[int] = [0]
    saves_total: list[int] = [0]
    unhurt = wins_all = 0
    for f in range(FACES):
        wounds, saves = [1], [1]
        p_unhurt = p_wins = 1
        for i, atk in enumerate(uncapped):
            k = keys_e[i][f]
            atk_wins = _survivors_int(keys_atk[i], atk.burst, [(k, 1)])
            s_i, _, w_i, e_w = _saves_and_wounds_int(atk_wins, atk.burst, atk)
            wounds = convolve_lists(wounds, scale_counts(w_i, _pow20(atk.burst + most[i] - e_w)))
            saves = convolve_lists(saves, s_i)
            p_unhurt *= _pow20(atk.burst) - sum(atk_wins.values())
            below = sum(1 for x in keys_atk[i] if x < k)
            p_wins *= below ** atk.burst if k > 0 else 0
        wounds_total = _add_lists(wounds_total, wounds)
        saves_total = _add_lists(saves_total, saves)
        unhurt += p_unhurt
        wins_all += p_wins
    den_w, den_s = _pow20(e_wounds + 1), _pow20(e_saves + 1)
    return MultiOdds("evade", pairs, fractions_over(_trim(cap_list(wounds_total, evader_wounds)), den_w),
                     fractions_over(_trim(saves_total), den_s), Fraction(unhurt, den_s), Fraction(wins_all, den_s),
                     dict(r.consulted), True)


def _add_lists(a: list[Number], b: list[Number]) -> list[Number]:
    n = max(len(a), len(b))
    z = (a[0] if a else b[0]) * 0
    return [(a[i] if i < len(a) else z) + (b[i] if i < len(b) else z) for i in range(n)]
