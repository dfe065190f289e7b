"""Exact odds of an attack: the distribution of wounds dealt, of a Critical token, and of the target going down.

Sections: 9.2 Combat and 11.12 Combat (the Hit roll), 11.7 Multiple Energy Shielded Armor, 8.1 Lethal, Storybook
5.5.1 High Impact, 8.2 Critical and 8.2.1 Compatibility, 9.3.1 Health Points / 10.4 NPC Health Status; for an
agent's full attack also 9.2 (dice and hits added by powers and items, a weapon's other effect symbols), 8.2.3 (-X
ATK Dice, "cannot use Bolt effects": ruling ``no_bolt_other_symbols``) and 9.5.2.2 (the Power Suit's weapon).

Nothing is sampled. The Hit roll's distribution of ``(hits, at least one Bolt)`` is the convolution of the
calibrated face tables of every die in the pool; for each Hit roll the deterministic part of the defence (Mark,
Energy Shields, items, the Defend roll's dice count) runs through :func:`.combat.prepare_target`; the number of
shield results of ``n`` Blue dice is the ``n``-fold convolution of the Blue die's table; the rest (wounds, Poison,
the Critical token: the first compatible token of a shuffled pile, so each compatible token with probability
count / compatible tokens) runs through :func:`.combat.finish_target`. The step functions are the engine's own, so
the odds and a resolved trace cannot disagree on a rule; tests check both against brute-force enumeration and
Monte Carlo.

>>> from explorer.games.galaxydefenders.combat import AttackModel, TargetState
>>> from explorer.games.galaxydefenders.calibration import default_calibration
>>> d = attack_odds(TargetState("Xeno", "alien", 3), AttackModel(target="Xeno", fixed_hits=1),
...                 default_calibration(), exact=True)
>>> summary(d)["wounds"]
{0: '1/3', 1: '2/3'}
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING

from explorer.distributions import Dist, convolve, fmt, ratio
from explorer.options import Rulings
from explorer.text import plural

from .calibration import Calibration, CriticalToken, Die, Face
from .combat import HitRoll, TargetState, dice_pool, effect_results, finish_target, prepare_target
from .options import rulings as make_rulings

if TYPE_CHECKING:   # annotations only: the file model imports pydantic
    from .combat_file import AttackModel

Outcome = tuple[int, int, str, str | None]
"""``(wounds from hits, all wounds this attack dealt, status after, Critical token id or None)``."""


def die_hits(die: Die, exact: bool, symbols: Sequence[str] = ("bolt",)) -> Dist:
    """One die in a Hit roll: ``{(hits, Bolt shown, another effect symbol shown): probability}`` (the weapon's
    effect ``symbols``, 9.2)."""
    out: dict = {}
    for f in die.faces:
        b, o = effect_results(f, symbols)
        key = (f.hits, b > 0, o > 0)
        out[key] = out.get(key, 0) + ratio(1, die.sides, exact)
    return Dist(out)


def die_shields(die: Die, exact: bool) -> Dist:
    """One Blue die in a Defend roll: ``{shield results: probability}``."""
    return Dist((f.shields, ratio(1, die.sides, exact)) for f in die.faces)


def _power(single: Dist, n: int, op, zero) -> Dist:
    out = Dist.point(zero, exact=isinstance(next(iter(single.p.values())), Fraction))
    for _ in range(n):
        out = convolve(out, single, op)
    return out


def hit_roll_distribution(attack: AttackModel, cal: Calibration, exact: bool = False) -> Dist:
    """The Hit roll as ``{(hits, at least one Bolt, at least one other effect result): probability}``: the weapon's
    dice and those powers add (9.2) less "-X ATK Dice" (8.2.3), convolved; fixed hits are a point; bonus hits
    shift. Effects apply once however many effect results show (9.2), so only "at least one" matters."""
    if attack.fixed_hits is not None:
        return Dist.point((attack.fixed_hits + attack.bonus_hits, False, False), exact)
    out = Dist.point((attack.bonus_hits, False, False), exact)
    for colour, n in dice_pool(attack).items():
        one = die_hits(cal.die(colour), exact, tuple(attack.effect_symbols))
        out = convolve(out, _power(one, n, _add_hits, (0, False, False)), _add_hits)
    return out


def hit_distribution(attack: AttackModel, cal: Calibration, exact: bool = False) -> Dist:
    """The Hit roll as ``{(hits, at least one effect result: a Bolt or the weapon's other effect symbol):
    probability}`` (:func:`hit_roll_distribution` with its two kinds of effect result joined)."""
    return hit_roll_distribution(attack, cal, exact).map(lambda k: (k[0], k[1] or k[2]))


def _add_hits(a, b):
    return (a[0] + b[0], a[1] or b[1], a[2] or b[2])


def shield_distribution(cal: Calibration, n: int, exact: bool = False) -> Dist:
    """Shield results of ``n`` Blue dice (the calibrated Defend die)."""
    return _shields(cal.defend, n, exact)


@lru_cache(maxsize=256)
def _shields(die: Die, n: int, exact: bool) -> Dist:
    return _power(die_shields(die, exact), n, lambda a, b: a + b, 0)


class _NeedToken(Exception):
    def __init__(self, level: int, kind: str):
        self.level, self.kind = level, kind


class _AskToken:
    """A dice source that only answers "which pile?" by raising, so the odds branch over the tokens."""

    def hit(self, colour, n):   # pragma: no cover - never asked
        raise AssertionError

    def defend(self, target, n):   # pragma: no cover - never asked
        raise AssertionError

    def critical(self, target, level, kind):
        raise _NeedToken(level, kind)


def token_distribution(cal: Calibration, level: int, kind: str, exact: bool = False) -> list[tuple[CriticalToken,
                                                                                                     object]]:
    """``[(token, probability)]``: the first token of the shuffled Critical ``level`` pile compatible with a
    target of this kind (8.2.1: incompatible tokens are discarded and redrawn)."""
    ok = [t for t in cal.pile(level) if t.compatible(kind)]
    total = sum(t.count for t in ok)
    return [(t, ratio(t.count, total, exact)) for t in ok]


def attack_odds(target: TargetState, attack: AttackModel, cal: Calibration, high_impact: bool = True,
                rulings: Rulings | Mapping[str, str] | None = None, exact: bool = False) -> Dist:
    """The exact distribution of what one attack does to one target.

    Args:
        target: the target before the attack (its shields, tokens, wounds).
        attack: the attack (its ``rolled`` faces are ignored: every face counts with its probability).
        cal: dice faces and Critical piles.
        high_impact: Storybook 5.5.1 (default On).
        rulings: readings (defaults where omitted).
        exact: Fractions instead of floats.

    Returns:
        A :class:`~explorer.distributions.Dist` over :data:`Outcome` tuples.
    """
    r = rulings if isinstance(rulings, Rulings) else make_rulings(rulings)
    out: dict = {}
    for (hits, bolt, other), p_hit in hit_roll_distribution(attack, cal, exact).items():
        hr = HitRoll(hits, 1 if bolt else 0, others=1 if other else 0)
        prep, _ = prepare_target(target, attack, hr, high_impact, r)
        shields = _shields(cal.defend, prep.blue_dice, exact) if prep.blue_dice else Dist.point(0, exact)
        for k, p_k in shields.items():
            faces = (Face(plural(k, "shield"), shields=k),) if prep.blue_dice else ()
            try:
                t, res, _ = finish_target(prep, attack, faces, _AskToken(), r)
                branches = [((res.hit_wounds, res.wounds, t.status(), None), 1)]
            except _NeedToken as need:
                branches = []
                for tok, p_t in token_distribution(cal, need.level, need.kind, exact):
                    t, res, _ = finish_target(prep, attack, faces, None, r, token=tok)
                    branches.append(((res.hit_wounds, res.wounds, t.status(), tok.id), p_t))
            for key, p_b in branches:
                out[key] = out.get(key, 0) + p_hit * p_k * p_b
    return Dist(out)


def wounds_distribution(d: Dist) -> Dist:
    """All wounds the attack dealt (hits not cancelled, a second poison, a Critical's extra damage)."""
    return d.map(lambda o: o[1])


def summary(d: Dist) -> dict:
    """JSON-friendly summary: ``{"wounds": {n: p}, "hit_wounds": {n: p}, "expected_wounds", "p_critical",
    "p_down", "critical_tokens": {id: p}}`` (exact probabilities as ``"n/d"`` strings)."""
    def pmf(x: Dist) -> dict:
        return {k: fmt(v) for k, v in sorted(x.items())}

    zero = next(iter(d.p.values())) * 0 if d.p else 0.0
    tokens: dict = {}
    for o, p in d.items():
        if o[3]:
            tokens[o[3]] = tokens.get(o[3], 0) + p
    return {
        "wounds": pmf(wounds_distribution(d)),
        "hit_wounds": pmf(d.map(lambda o: o[0])),
        "expected_wounds": fmt(wounds_distribution(d).mean()),
        "p_critical": fmt(sum((p for o, p in d.items() if o[3]), zero)),
        "p_down": fmt(sum((p for o, p in d.items() if o[2] != "alive"), zero)),
        "critical_tokens": {k: fmt(v) for k, v in sorted(tokens.items())},
    }
