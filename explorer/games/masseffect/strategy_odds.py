"""Exact odds of the Mass Effect: Priority Hagalaz Strategy Roll (computed, not sampled).

Sections: Playing a Mission › Sequence of Play › Strategy Die Icons (six faces, one of them the Core Ability icon);
Squadmate Phase › Step A: Strategy Roll (a Locked die keeps its face); Core Abilities (each icon triggers, icons are
re-rolled until none remain); Action Spaces (which faces fill which spaces); Additional Rules › Paragon Dice.

Why the formulas hold. Each rolled die is re-rolled while it shows the icon, so independently of the others:

* its final face is the first non-icon face it shows: uniform over the five Action faces (probability 1/5 each);
* the number of icons it showed (its Core Ability triggers) ``G`` has ``P(G = g) = (1/6)^g · 5/6`` (geometric);
* ``G`` and the final face are independent (the final face does not depend on how many icons came before).

So for ``m`` rolled dice the counts of final faces are multinomial(m; 1/5 × 5) (plus the Locked die's face), the
total triggers over the ``t`` dice that can trigger are negative binomial, ``P(T = k) = C(t+k-1, k) (1/6)^k (5/6)^t``
(mean ``t/5``), triggers and final faces are independent, and the number of roll rounds is ``1 + max G`` with
``P(rounds ≤ r) = (1 - 6^-r)^m``. Every function has an exact path (Fractions) and a float path.

>>> from fractions import Fraction
>>> p_at_least_one(Face.ENHANCED, 5, exact=True)   # 1 - (4/5)^5
Fraction(2101, 3125)
>>> expected_triggers(12, exact=True)
Fraction(12, 5)
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from fractions import Fraction
from functools import lru_cache

from explorer.distributions import Dist, Number
from explorer.errors import ScenarioError
from explorer.options import Rulings
from explorer.text import plural

from .options import ALL_OPTIONS
from .strategy import ACTION_FACES, PARAGON_DICE_MAX, STRATEGY_DICE, Face, Space, accepts

P_ICON = Fraction(1, 6)
"""Probability that a Strategy die shows the Core Ability icon: one face of six."""

FULL_SPACES: tuple[Space, ...] = (Space.MOVE, Space.STANDARD, Space.ENHANCED)
"""The question players ask most: can my three dice fill a Move, a Standard and an Enhanced Action space?"""


def _p(x: Fraction, exact: bool) -> Number:
    return x if exact else float(x)


def _compositions(n: int, parts: int):
    if parts == 1:
        yield (n,)
        return
    for k in range(n + 1):
        for rest in _compositions(n - k, parts - 1):
            yield (k,) + rest


@lru_cache(maxsize=64)
def final_counts(n: int, exact: bool = False) -> Dist:
    """Counts of each Action face among ``n`` rolled dice once the roll is over: a :class:`Dist` over 5-tuples in
    the order of :data:`ACTION_FACES` (multinomial, 1/5 each: ``n! / (c1! ... c5!) / 5^n``). ``n = 0`` gives the
    all-zero tuple. (Cached: treat the result as read-only.)"""
    if n < 0:
        raise ValueError("n must be >= 0")
    fact = [math.factorial(i) for i in range(n + 1)]
    den = 5 ** n
    return Dist((c, _p(Fraction(fact[n] // math.prod(fact[i] for i in c), den), exact))
                for c in _compositions(n, len(ACTION_FACES)))


def triggers_pmf(t: int, k: int, exact: bool = False) -> Number:
    """``P(T = k)``: probability that ``t`` dice able to trigger show ``k`` icons in all over the whole roll
    (negative binomial: ``C(t+k-1, k) (1/6)^k (5/6)^t``; for ``t = 0`` all mass is on 0)."""
    if t < 0 or k < 0:
        raise ValueError("t and k must be >= 0")
    if t == 0:
        return _p(Fraction(int(k == 0)), exact)
    return _p(math.comb(t + k - 1, k) * P_ICON ** k * (1 - P_ICON) ** t, exact)


def triggers_cdf(t: int, k: int, exact: bool = False) -> Number:
    """``P(T <= k)``."""
    return sum((triggers_pmf(t, j, exact) for j in range(k + 1)), _p(Fraction(0), exact))


def expected_triggers(t: int, exact: bool = False) -> Number:
    """``E[T] = t/5`` (each die shows on average 1/5 icons before its first Action face)."""
    return _p(Fraction(t, 5), exact)


def rounds_cdf(m: int, r: int, exact: bool = False) -> Number:
    """``P(roll rounds <= r)`` for ``m`` rolled dice (round 1 is the first roll; each further round re-rolls icons):
    every die must show an Action face within ``r`` rolls, ``(1 - 6^-r)^m``."""
    if r < 1:
        return _p(Fraction(0), exact)
    return _p((1 - P_ICON ** r) ** m, exact)


def expected_rounds(m: int, exact: bool = False) -> Number:
    """``E[roll rounds] = 1 + E[max G]`` with ``E[max G] = Σ_j C(m,j) (-1)^(j+1) q^j / (1 - q^j)``, ``q = 1/6``."""
    q = P_ICON
    e = sum((math.comb(m, j) * (-1) ** (j + 1) * q ** j / (1 - q ** j) for j in range(1, m + 1)), Fraction(0))
    return _p(1 + e, exact)


def _check(pool: int, locked: str | None, paragon: int, rulings: Rulings) -> Face | None:
    if not 1 <= pool <= STRATEGY_DICE:
        raise ScenarioError("pool", plural(pool, "Strategy die", "Strategy dice"), f"1 to {STRATEGY_DICE}")
    if not 0 <= paragon <= PARAGON_DICE_MAX:
        raise ScenarioError("paragon", plural(paragon, "Paragon die", "Paragon dice"), f"0 to {PARAGON_DICE_MAX}")
    if locked is None:
        return None
    try:
        face = Face(locked)
    except ValueError:
        raise ScenarioError("locked", f"unknown face {locked!r}", [f.value for f in Face]) from None
    if face is Face.CORE and rulings.reading("locked_die_icon") == "cannot_exist":
        raise ScenarioError("locked", "a Locked die cannot show the Core Ability icon (ruling locked_die_icon = "
                            "cannot_exist)", [f.value for f in ACTION_FACES])
    return face


def roll_shape(pool: int, locked: str | None = None, paragon: int = 0, locked_is_paragon: bool = False,
               rulings: Rulings | None = None) -> dict[str, object]:
    """How many dice a Strategy Roll rolls and how many can trigger: ``{"rolled", "triggering", "fixed_face",
    "forced_triggers"}``. ``pool``: Strategy dice in the Pool (1..12, the Locked one included); ``paragon``: Paragon
    dice (0..2); ``locked``: the Locked die's face (``None``: nothing Locked).

    Raises:
        ScenarioError: bounds, an unknown face, or an icon under ``locked_die_icon = cannot_exist``.
    """
    r = rulings if rulings is not None else Rulings(ALL_OPTIONS)
    face = _check(pool, locked, paragon, r)
    rolled = pool + paragon - (face is not None)
    strategy_rolled = pool - (face is not None and not locked_is_paragon)
    forced = 0
    fixed = face
    if face is Face.CORE:  # locked_die_icon = triggers_and_rerolls: it triggers, then is re-rolled
        rolled += 1
        strategy_rolled += not locked_is_paragon
        fixed = None
        forced = 0 if (locked_is_paragon and paragon_no_trigger(r)) else 1
    triggering = rolled if not (paragon and paragon_no_trigger(r)) else strategy_rolled
    return {"rolled": rolled, "triggering": triggering, "fixed_face": fixed, "forced_triggers": forced}


def paragon_no_trigger(rulings: Rulings) -> bool:
    return rulings.reading("paragon_core_icon") == "rerolled_without_trigger"


def pool_counts(pool: int, locked: str | None = None, paragon: int = 0, exact: bool = False,
                rulings: Rulings | None = None) -> Dist:
    """Counts of each Action face among all dice of the Pool after the roll (the Locked die included), over
    5-tuples in the order of :data:`ACTION_FACES`."""
    shape = roll_shape(pool, locked, paragon, rulings=rulings)
    d = final_counts(shape["rolled"], exact)
    f = shape["fixed_face"]
    if f is None:
        return d
    i = ACTION_FACES.index(f)
    return d.map(lambda c: c[:i] + (c[i] + 1,) + c[i + 1:])


@lru_cache(maxsize=8)
def _accepted(spaces: tuple[Space, ...], dual_move: bool) -> tuple[tuple[int, ...], ...]:
    """For each space, the indices in :data:`ACTION_FACES` of the faces it accepts."""
    r = Rulings(ALL_OPTIONS, {"dual_face_in_move_space": "move_2" if dual_move else "standard_only"})
    return tuple(tuple(i for i, f in enumerate(ACTION_FACES) if accepts(s, f, r)) for s in spaces)


@lru_cache(maxsize=8)
def _hall_sets(spaces: tuple[Space, ...], dual_move: bool) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """For every non-empty subset ``S`` of the spaces (by position): ``(len(S), indices of the faces some space of S
    accepts)``, the subsets :func:`_fillable` checks."""
    acc = _accepted(spaces, dual_move)
    out = []
    for mask in range(1, 1 << len(spaces)):
        members = [j for j in range(len(spaces)) if mask >> j & 1]
        out.append((len(members), tuple(sorted({i for j in members for i in acc[j]}))))
    return tuple(out)


@lru_cache(maxsize=65536)
def _fillable(counts: tuple[int, ...], spaces: tuple[Space, ...], dual_move: bool) -> bool:
    """Whether dice with these face counts can fill ``spaces`` (one distinct die each). Hall's marriage theorem for
    spaces and dice: a die for every space exists iff every set of ``k`` spaces accepts at least ``k`` dice between
    them (at most ``2^len(spaces) - 1`` sums; :func:`_fillable_by_trying` is the brute force it is tested against)."""
    return all(sum(counts[i] for i in faces) >= k for k, faces in _hall_sets(spaces, dual_move))


def _fillable_by_trying(counts: tuple[int, ...], spaces: tuple[Space, ...], dual_move: bool) -> bool:
    """:func:`_fillable` by brute force: try every choice of an accepted face per space (at most 5^len(spaces))
    against the counts."""
    for combo in itertools.product(*_accepted(spaces, dual_move)):
        need = [0] * len(ACTION_FACES)
        for i in combo:
            need[i] += 1
        if all(n <= c for n, c in zip(need, counts)):
            return True
    return False


FORMER_PATH = False
"""``True`` runs the former exact path (every composition's Fraction added up, each tested by trying every choice of
faces, the Pool's whole distribution built for its total): the baseline of ``benchmarks/bench_me_distances.py``; the
answers are the same."""

_fillable_former = lru_cache(maxsize=65536)(_fillable_by_trying)


@lru_cache(maxsize=256)
def _at_least(faces: int, m: int, cap: int) -> int:
    """The number of sequences of ``m`` dice over ``faces`` faces in which every face shows at least ``cap`` times
    (``m! [x^m] (e^x - Σ_{j<cap} x^j/j!)^faces``; one face at a time: choose the positions of the first)."""
    if faces == 0:
        return int(m == 0)
    return sum(math.comb(m, j) * _at_least(faces - 1, m - j, cap) for j in range(cap, m - cap * (faces - 1) + 1))


@lru_cache(maxsize=64)
def _capped_multinomials(n: int, cap: int) -> tuple[tuple[tuple[int, ...], int], ...]:
    """``((capped counts, number of the 5^n rolls of n dice whose face counts, each capped at cap, are these), ...)``
    over every capped 5-tuple (at most ``(cap + 1)^5``). A tuple with faces ``E`` below the cap (counts ``k_e``) and
    ``F`` at it: ``n! / (∏ k_e! · m!) · _at_least(|F|, m, cap)`` rolls, ``m = n - Σ k_e``: the sum of
    multinomial coefficients ``n! / (c1! ... c5!)`` over the compositions that cap to it."""
    fact = [math.factorial(i) for i in range(n + 1)]
    out = []
    for k in itertools.product(range(cap + 1), repeat=len(ACTION_FACES)):
        below = [x for x in k if x < cap]
        m = n - sum(below)
        full = len(k) - len(below)
        if m < 0 or (full == 0 and m != 0):
            continue
        ways = _at_least(full, m, cap)
        if ways:
            out.append((k, fact[n] // (math.prod(fact[x] for x in below) * fact[m]) * ways))
    return tuple(out)


def _can_fill_exact(sp: tuple[Space, ...], dual: bool, shape: dict) -> Fraction:
    """:func:`p_can_fill`'s exact value as one integer sum over ``5^rolled``. A face is never needed more often than
    there are spaces, so the test reads each count capped at ``len(sp)`` and the rolls are counted per capped tuple
    (:func:`_capped_multinomials`, at most ``(len(sp) + 1)^5`` terms instead of every composition); the Locked die
    adds one to its face before the cap (capping twice caps the same)."""
    n, fixed = shape["rolled"], shape["fixed_face"]
    i = None if fixed is None else ACTION_FACES.index(fixed)
    cap = len(sp)
    total = 0
    for c, ways in _capped_multinomials(n, cap):
        if i is not None and c[i] < cap:
            c = c[:i] + (c[i] + 1,) + c[i + 1:]
        if _fillable(c, sp, dual):
            total += ways
    return Fraction(total, 5 ** n)


def p_can_fill(spaces: Sequence[Space | str], pool: int, locked: str | None = None, paragon: int = 0,
               exact: bool = False, rulings: Rulings | None = None) -> Number:
    """Probability that after the roll the Pool holds distinct dice for every space in ``spaces`` (e.g. Move,
    Standard, Enhanced) (Action Spaces; the dual face on a Move space follows ``dual_face_in_move_space``).

    The exact value is one integer sum (:func:`_can_fill_exact`); the float value adds the float probabilities of
    :func:`pool_counts` one by one, as it always has."""
    r = rulings if rulings is not None else Rulings(ALL_OPTIONS)
    sp = tuple(Space(s) for s in spaces)
    dual = r.reading("dual_face_in_move_space") == "move_2"
    if exact and not FORMER_PATH:
        return _can_fill_exact(sp, dual, roll_shape(pool, locked, paragon, rulings=r))
    fillable = _fillable_former if FORMER_PATH else _fillable
    total = _p(Fraction(0), exact)
    for counts, p in pool_counts(pool, locked, paragon, exact, r).items():
        if fillable(counts, sp, dual):
            total += p
    return total


def p_at_least_one(face: Face | str, pool: int, locked: str | None = None, paragon: int = 0,
                   exact: bool = False, rulings: Rulings | None = None) -> Number:
    """Probability that at least one die of the Pool shows ``face`` after the roll: ``1 - (4/5)^rolled`` (1 if the
    Locked die shows it; 0 for the icon)."""
    face = Face(face)
    shape = roll_shape(pool, locked, paragon, rulings=rulings)
    if face is Face.CORE:
        return _p(Fraction(0), exact)
    if shape["fixed_face"] is face:
        return _p(Fraction(1), exact)
    return _p(1 - Fraction(4, 5) ** shape["rolled"], exact)


def trigger_dist(pool: int, locked: str | None = None, paragon: int = 0, max_triggers: int = 10,
                 exact: bool = False, rulings: Rulings | None = None,
                 locked_is_paragon: bool = False) -> tuple[Dist, Number]:
    """``(Dist over k = 0..max_triggers, P(T > max_triggers))`` for the Core Ability triggers of this roll (a forced
    trigger from a Locked icon under ``locked_die_icon = triggers_and_rerolls`` shifts it by one)."""
    shape = roll_shape(pool, locked, paragon, locked_is_paragon, rulings)
    t, f = shape["triggering"], shape["forced_triggers"]
    d = Dist((k, triggers_pmf(t, k - f, exact)) for k in range(f, max_triggers + 1))
    return d, (1 - d.total()) if t else _p(Fraction(0), exact)


def _pair(x: Fraction) -> dict[str, object]:
    return {"exact": str(x), "float": float(x)}


def pool_text(table: dict) -> str:
    """The Pool of a :func:`strategy_odds_table` in words: ``"Pool of 12 Strategy dice + 2 Paragon dice, Locked die
    showing enhanced: 13 rolled"``. Paragon dice are added to the Strategy Pool (Paragon Dice), so they are counted on
    top of the Strategy dice, never as a part of them."""
    parts = plural(table["pool"], "Strategy die", "Strategy dice")
    if table["paragon"]:
        parts += " + " + plural(table["paragon"], "Paragon die", "Paragon dice")
    lock = f", Locked die showing {table['locked']}" if table.get("locked") else ""
    return f"Pool of {parts}{lock}: {table['rolled']} rolled"


def strategy_odds_table(pool: int, locked: str | None = None, *, paragon: int = 0,
                        rulings: Rulings | None = None, max_triggers: int = 10,
                        locked_is_paragon: bool = False) -> dict:
    """The odds a player asks about before a Strategy Roll, JSON-friendly (each probability as ``{"exact": "n/d",
    "float": x}``).

    Args:
        pool: Strategy dice in the Pool, 1..12 (the Locked die included).
        locked: face name of the Locked die (``"enhanced"``, ...) or ``None``.
        paragon: Paragon dice in the Pool (0..2).
        rulings: readings of the Mass Effect ruling options (defaults otherwise).
        max_triggers: the trigger distribution is listed for k = 0..max_triggers (0..50), the rest as a tail.
        locked_is_paragon: the Locked die is one of the ``paragon`` dice (matters only when Paragon icons do not
            trigger).

    Returns:
        ``{"pool", "paragon", "locked", "rolled", "triggering_dice", "faces": {face: {"expected_count",
        "p_at_least_one"}}, "p_at_least_one_enhanced", "p_fill_move_standard_enhanced",
        "p_fill_standard_standard_enhanced", "triggers": {"expected", "pmf": {k: p}, "p_more": p}, "roll_rounds":
        {"expected", "cdf": {r: p}}, "rulings": {...}, "note"}``.

    Raises:
        ScenarioError: ``pool`` outside 1..12, ``paragon`` outside 0..2, an unknown face, or ``max_triggers``
            outside 0..50.
    """
    r = rulings if rulings is not None else Rulings(ALL_OPTIONS)
    if not 0 <= max_triggers <= 50:
        raise ScenarioError("max_triggers", f"{max_triggers}", "0 to 50")
    shape = roll_shape(pool, locked, paragon, locked_is_paragon, r)
    m, t = shape["rolled"], shape["triggering"]
    fixed = shape["fixed_face"]
    if FORMER_PATH:
        total_counts = pool_counts(pool, locked, paragon, True, r).total()
    else:
        n_counted = roll_shape(pool, locked, paragon, rulings=r)["rolled"]  # as pool_counts counts them
        total_counts = Fraction(sum(ways for _, ways in _capped_multinomials(n_counted, len(FULL_SPACES))),
                                5 ** n_counted)
    faces = {}
    for i, f in enumerate(ACTION_FACES):
        faces[f.value] = {"expected_count": _pair(Fraction(m, 5) + (fixed is f)),
                          "p_at_least_one": _pair(p_at_least_one(f, pool, locked, paragon, True, r))}
    tdist, tail = trigger_dist(pool, locked, paragon, max_triggers, True, r, locked_is_paragon)
    cdf_rounds = {str(k): _pair(rounds_cdf(m, k, True)) for k in range(1, 6)} if m else {"1": _pair(Fraction(1))}
    out = {
        "pool": pool, "paragon": paragon, "locked": locked, "rolled": m, "triggering_dice": t,
        "faces": faces,
        "p_at_least_one_enhanced": faces[Face.ENHANCED.value]["p_at_least_one"],
        "p_fill_move_standard_enhanced": _pair(p_can_fill(FULL_SPACES, pool, locked, paragon, True, r)),
        "p_fill_standard_standard_enhanced": _pair(p_can_fill((Space.STANDARD, Space.STANDARD, Space.ENHANCED),
                                                              pool, locked, paragon, True, r)),
        "triggers": {"expected": _pair(Fraction(t, 5) + shape["forced_triggers"]),
                     "pmf": {str(k): _pair(tdist[k]) for k in range(max_triggers + 1)},
                     "p_more": _pair(tail)},
        "roll_rounds": {"expected": _pair(expected_rounds(m, True)), "cdf": cdf_rounds},
        "total_counts": _pair(total_counts),
        "rulings": {k: v for k, v in r.as_dict().items()
                    if k in ("dual_face_in_move_space", "paragon_core_icon", "locked_die_icon")},
        "note": "Final faces and Core Ability triggers are independent; Renegade tokens are not counted.",
    }
    return out
