"""Exact odds of an attack: the distribution of wounds dealt, of a Critical token, and of the target going down.

Sections: 9.2 Combat and 11.12 Combat (the Hit roll), 11.7 Multiple Energy Shielded Armor, 8.1 Lethal, Storybook
5.5.1 High Impact, 8.2 Critical and 8.2.1 Compatibility, 9.3.1 Health Points / 10.4 NPC Health Status; for an
agent's full attack also 9.2 (dice and hits added by powers and items, a weapon's other effect symbols), 8.2.3 (-X
ATK Dice, "cannot use Bolt effects": ruling ``no_bolt_other_symbols``) and 9.5.2.2 (the Power Suit's weapon); for a
turn's attacks with Devices (:func:`turn_odds`) 9.7.4 Devices, 9.7.4.2 Vigil and 9.7.4.3 GD-5 (the drone a Device
deployed attacks the same target when the agent's Action activates it; its weapon never jams; GD-5 deals Area Damage).

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

from . import sections as S
from .calibration import Calibration, CriticalToken, Die, Face
from .combat import (HitRoll, TargetState, dice_pool, effect_results, finish_target, prepare_target,
                     select_targets)
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


def token_distribution(cal: Calibration, level: int, kind: str, exact: bool = False,
                       out: Sequence[str] = ()) -> list[tuple[CriticalToken, object]]:
    """``[(token, probability)]``: the first token of the shuffled Critical ``level`` pile compatible with a
    target of this kind (8.2.1: incompatible tokens are discarded and redrawn), the tokens ``out`` (drawn earlier
    from the same full pile, 8.2: a drawn token stays out until the pile is empty) taken out first. Drawing for one
    kind of target, the earlier incompatible tokens do not matter: the ``k``-th compatible token of the shuffled
    pile is found before the pile empties.

    Raises:
        ValueError: no compatible token left (the pile would empty and be recreated first: beyond this model)."""
    left = {t.id: t.count for t in cal.pile(level)}
    for tid in out:
        if left.get(tid):
            left[tid] -= 1
    ok = [t for t in cal.pile(level) if t.compatible(kind) and left[t.id]]
    total = sum(left[t.id] for t in ok)
    if not total:
        raise ValueError(f"the Critical {level} pile has no compatible token left for a {kind} after {len(out)} "
                         "draws: it would be recreated first (8.2), which these odds do not model")
    return [(t, ratio(left[t.id], total, exact)) for t in ok]


def attack_branches(target: TargetState, attack: AttackModel, cal: Calibration, high_impact: bool, r: Rulings,
                    exact: bool, out: Sequence[str] = ()) -> dict[tuple[TargetState, int, int, str | None], object]:
    """Every way one attack can leave one target: ``{(the target after, wounds from hits, all wounds, Critical token
    id or None): probability}`` (the target after carries what the next attack meets: shields used, wounds, Mark,
    Poison, Critical tokens). ``out``: the Critical tokens earlier attacks drew from the full piles
    (:func:`token_distribution`)."""
    drawn, out = out, {}
    for (hits, bolt, other), p_hit in hit_roll_distribution(attack, cal, exact).items():
        hr = HitRoll(hits, 1 if bolt else 0, others=1 if other else 0)
        prep, _ = prepare_target(target, attack, hr, high_impact, r)
        shields = _shields(cal.defend, prep.blue_dice, exact) if prep.blue_dice else Dist.point(0, exact)
        for k, p_k in shields.items():
            faces = (Face(plural(k, "shield"), shields=k),) if prep.blue_dice else ()
            try:
                t, res, _ = finish_target(prep, attack, faces, _AskToken(), r)
                branches = [((t, res.hit_wounds, res.wounds, None), 1)]
            except _NeedToken as need:
                branches = []
                for tok, p_t in token_distribution(cal, need.level, need.kind, exact, drawn):
                    t, res, _ = finish_target(prep, attack, faces, None, r, token=tok)
                    branches.append(((t, res.hit_wounds, res.wounds, tok.id), p_t))
            for key, p_b in branches:
                out[key] = out.get(key, 0) + p_hit * p_k * p_b
    return out


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
    for (t, hit_w, w, tok), p in attack_branches(target, attack, cal, high_impact, r, exact).items():
        key = (hit_w, w, t.status(), tok)
        out[key] = out.get(key, 0) + p
    return Dist(out)


TurnOutcome = tuple[int, int, str, tuple[str | None, ...]]
"""``(wounds from hits, all wounds, status after the last attack, the Critical token id each attack drew or None)``:
every attack of one agent turn on one target, added up (:func:`turn_odds`)."""


def turn_odds(target: TargetState, attacks: Sequence[AttackModel], cal: Calibration, high_impact: bool = True,
              rulings: Rulings | Mapping[str, str] | None = None, exact: bool = False) -> Dist:
    """The exact distribution of what several attacks in a row do to one target: an agent's full attack in one turn,
    its own weapon (with the Powers' and Items' dice and hits, 9.2) and the attack of a drone its Device deployed
    (Vigil or GD-5: activated with the agent's Action, it "immediately moves and fights", 9.7.4.2, 9.7.4.3), in the
    order given.

    The target carries from one attack to the next what the first left (8.2: separate attacks can cause separate
    Critical effects; the Energy Shields used stay used until the Refresh phase, 11.7; a Mark placed counts at once,
    8.3; the second Poison effect, 9.3.2); a target that is dead after an attack is no longer a target of the next
    (:func:`.combat.select_targets`, the engine's own rule: the later attack deals nothing to it; an agent target
    bleeding may still be attacked). The Critical piles are full when the turn starts; a token an attack drew
    stays out of its pile for the later attacks (8.2), as the engine's :class:`.combat.CriticalPiles` draws it.

    Args:
        target: the target before the first attack.
        attacks: the attacks in order (1 to 4).
        cal, high_impact, rulings, exact: as :func:`attack_odds`.

    Returns:
        A :class:`~explorer.distributions.Dist` over :data:`TurnOutcome` tuples.

    Raises:
        ValueError: no attack, or more than 4.
    """
    if not 1 <= len(attacks) <= 4:
        raise ValueError(f"turn_odds takes 1 to 4 attacks, not {len(attacks)}")
    r = rulings if isinstance(rulings, Rulings) else make_rulings(rulings)
    states: dict = {(target, 0, 0, ()): ratio(1, 1, exact)}
    for attack in attacks:
        nxt: dict = {}
        for (t, hit_w, w, toks), p in states.items():
            kept, _ = select_targets(attack.model_copy(update={"target": t.name}), {t.name: t}, None, r)
            if not kept:
                branches = {(t, 0, 0, None): 1}
            else:
                branches = attack_branches(t, attack, cal, high_impact, r, exact, [x for x in toks if x])
            for (t2, hw, ww, tok), q in branches.items():
                key = (t2, hit_w + hw, w + ww, toks + (tok,))
                nxt[key] = nxt.get(key, 0) + p * q
        states = nxt
    out: dict = {}
    for (t, hit_w, w, toks), p in states.items():
        key = (hit_w, w, t.status(), toks)
        out[key] = out.get(key, 0) + p
    return Dist(out)


DRONE_RULE = {"hologram": S.HOLOGRAM, "vigil": S.VIGIL, "gd-5": S.GD5}
"""The section of each Device's figure (:class:`~explorer.trace.RuleRef`)."""


def drone_fields(kind: str, target: str, dice: Mapping[str, int] | None = None, fixed_hits: int | None = None
                 ) -> dict:
    """The attack of a drone a Device deployed, as :class:`~.combat_file.AttackModel` fields: its weapon from its
    Device tile (the STAND-IN :data:`.round_signals.DRONE_TILES`, which the book does not print; ``dice`` or
    ``fixed_hits`` replace the tile's), ``attacker_kind`` ``"drone"``, the Bolt its only effect symbol (its weapon
    never jams, 9.7.4.2 and 9.7.4.3), Area Damage for GD-5 (it "must be used each time GD-5 performs an attack",
    9.7.4.3; on one target it reaches that target once, 11.8).

    Raises:
        ScenarioError: field ``device``: the Hologram (it cannot perform attacks, 9.7.4.1) or an unknown kind;
            field ``drone_dice``: both ``dice`` and ``fixed_hits``.
    """
    from explorer.errors import ScenarioError

    from .round_signals import DRONE_TILES

    if kind == "hologram":
        raise ScenarioError("device", f"the Hologram cannot move and cannot perform attacks ({S.HOLOGRAM.section})",
                            ["vigil", "gd-5"])
    if kind not in ("vigil", "gd-5"):
        raise ScenarioError("device", f"{str(kind)[:20]!r} is not a drone a Device deploys", ["vigil", "gd-5"])
    if dice and fixed_hits is not None:
        raise ScenarioError("drone_dice", "a drone's weapon gives dice or a fixed number of hits, not both",
                            "dice, or fixed hits")
    w = DRONE_TILES[kind]["weapon"]
    own = dice or fixed_hits is not None
    return {"attacker": {"vigil": "Vigil", "gd-5": "GD-5"}[kind], "attacker_kind": "drone",
            "weapon": w["name"] if not own else f"{w['name'].replace(' (stand-in)', '')} (tile given)",
            "dice": dict(dice) if dice else ({} if fixed_hits is not None else dict(w["dice"])),
            "fixed_hits": fixed_hits, "effect_symbols": ["bolt"], "damage": w.get("damage", "single"),
            "target": target}


def drone_attack(kind: str, target: str, dice: Mapping[str, int] | None = None, fixed_hits: int | None = None
                 ) -> AttackModel:
    """:func:`drone_fields` as a validated :class:`~.combat_file.AttackModel` (imports pydantic)."""
    from .combat_file import AttackModel

    return AttackModel(**drone_fields(kind, target, dice, fixed_hits))


def wounds_distribution(d: Dist) -> Dist:
    """All wounds the attack dealt (hits not cancelled, a second poison, a Critical's extra damage)."""
    return d.map(lambda o: o[1])


def _drawn(o) -> tuple[str, ...]:
    """The Critical token ids an outcome drew: one attack's (:data:`Outcome`) or a turn's (:data:`TurnOutcome`)."""
    return tuple(x for x in o[3] if x) if isinstance(o[3], tuple) else ((o[3],) if o[3] else ())


def summary(d: Dist) -> dict:
    """JSON-friendly summary: ``{"wounds": {n: p}, "hit_wounds": {n: p}, "expected_wounds", "p_critical",
    "p_down", "critical_tokens": {id: p}}`` (exact probabilities as ``"n/d"`` strings), of one attack
    (:func:`attack_odds`) or of a turn's attacks (:func:`turn_odds`: ``p_critical`` is the chance of at least one
    Critical token, ``critical_tokens`` each token's chance to be drawn at least once)."""
    def pmf(x: Dist) -> dict:
        return {k: fmt(v) for k, v in sorted(x.items())}

    zero = next(iter(d.p.values())) * 0 if d.p else 0.0
    tokens: dict = {}
    for o, p in d.items():
        for tid in set(_drawn(o)):
            tokens[tid] = tokens.get(tid, 0) + p
    return {
        "wounds": pmf(wounds_distribution(d)),
        "hit_wounds": pmf(d.map(lambda o: o[0])),
        "expected_wounds": fmt(wounds_distribution(d).mean()),
        "p_critical": fmt(sum((p for o, p in d.items() if _drawn(o)), zero)),
        "p_down": fmt(sum((p for o, p in d.items() if o[2] != "alive"), zero)),
        "critical_tokens": {k: fmt(v) for k, v in sorted(tokens.items())},
    }
