"""Exact odds of a whole Order's roll exchange: the joint distribution of who wins each pair and of the Wounds lost
and Deaths on every Miner (issue 22, item 7).

Sections: Activating a Miner › Order Expenditure Sequence, step 5 (everything rolled at once); Rolls › Successful
Roll, Criticals, Normal Roll, Face to Face Rolls (Face to Face: Evade); Damage › Partial Cover, Saving Roll; Skills and
Tools › Ammunition; Death; Common Skills › Evade.

What is fixed before the dice: the Order's declarations and the board decide every fact of the exchange (LoF, Range,
Partial Cover, who rolls against whom, how many dice at which Success Value, each attack's Attack Damage). The
exchange is resolved once with any dice (:func:`explorer.games.tagraid.resolve.resolve_detailed`) and its typed
:class:`~explorer.games.tagraid.resolve.Pair` list is read for that structure, so the odds are those of the same
pairs, Success Values and Attack Damage the roll-by-roll path uses. Then (probabilities computed, never sampled):

* each pair is one Face to Face Roll or Normal Roll (:func:`.odds.face_to_face`: its exact ``(winner, uncancelled
  hits, Criticals)`` distribution), and each (hits, Criticals) makes ``saving_rolls(h, c, ammunition)`` Saving Rolls
  that each fail with probability ``clamp(Attack Damage, 0, 20) / 20`` (a binomial);
* pairs with disjoint dice are independent, so the joint distribution is their product;
* the Active Miner's one Evade die opposes every attack on it (Rolls › Face to Face Rolls › Evade): those pairs are
  independent only given that die's face, so the product is taken face by face and the 20 faces averaged;
* Wounds lost by a Miner are the sum over the pairs that hurt it, capped at the Wounds it has left; it dies when they
  reach them (Death).

* the MegaBeast does not roll (MegaBeast › Threat Level, Wounds; Skills, Attacks, and AROs): against it each die
  of the Active Miner is classed by :func:`.odds.megabeast_face_classes` (wounds, ties, or does nothing, under
  ``megabeast_critical`` and ``megabeast_equal``) and :func:`.odds.versus_megabeast` gives the pair's exact
  ``(winner, hits, Criticals)``; each Saving Roll produced is a Wound to the MegaBeast (no Armor roll, the
  Critical's extra roll ignored). When it prevails (its Behavior ARO opposed by no success above its Threat Level,
  or unopposed) its Behavior Attack's impacts force Saving Rolls on the Active Miner. Without its ARO it cannot
  prevail (``megabeast_no_aro``: ``threat_level`` still needs a success above it; ``normal_roll``: every success
  wounds). An Evade against it is the Active Miner's one Evade die, so it joins the face-by-face product. The
  MegaBeast's Wounds are tracked like a Miner's (capped at its Wounds left; at 0 it is killed).

Not built yet (refused with a cited :class:`~explorer.errors.ScenarioError`): an Evade against a split Burst under
``evade_vs_split_attack = all_dice`` (every die of the Attack may cancel the Evade: the pairs share dice).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from explorer.distributions import Number, ratio
from explorer.errors import ScenarioError
from explorer.options import Rulings

from .odds import (FACES, SideSpec, _as_rulings, _survivors, face_to_face, megabeast_face_classes, side_keys,
                   versus_megabeast)
from .rolls import saving_rolls

Outcome = tuple[tuple[str | None, ...], tuple[int, ...]]
"""One outcome of the exchange: ``(winner of each pair (None: nobody), Wounds lost by each Miner)``."""


@dataclass(frozen=True)
class PairPlan:
    """One pair of the exchange as the resolver plans it: the two sides' names, dice, Success Values, Attack Damage
    (``None``: this side's success causes no Saving Rolls) and ammunition; ``shared_evade``: the active side is the
    Active Miner's one Evade die (shared with the other pairs that have it). Against the MegaBeast:
    ``threat_level`` (``None`` for a pair of Miners), ``megabeast_mode`` (``"opposed"``: its Behavior ARO against
    the Active Miner's roll; ``"no_aro"``: no ARO, a success must still exceed the Threat Level; ``"normal"``: no
    ARO, every success wounds; ``"unopposed"``: its ARO faces no roll) and ``b`` its Behavior Attack (``burst``: its
    impacts, ``attack_damage`` against the Active Miner; ``None`` when it has none)."""

    kind: str
    active: str
    opponent: str | None
    a: SideSpec
    b: SideSpec
    shared_evade: bool = False
    threat_level: int | None = None
    megabeast_mode: str | None = None


@dataclass(frozen=True)
class OrderOdds:
    """The exact joint distribution of an Order's roll exchange.

    Attributes:
        pairs: the exchange's pairs (:class:`PairPlan`), in the resolver's order.
        miners: names of the Miners in the exchange (the Active Miner first), then the MegaBeast's when it is in it.
        wounds_before: Wounds each has left before the exchange (same order).
        joint: ``{(winners per pair, Wounds lost per Miner): probability}`` (probabilities sum to 1).
        rulings: readings consulted.
        exact: :class:`fractions.Fraction` probabilities (else floats).
        megabeast: the MegaBeast's name when it is in the exchange (its Wounds are in ``miners`` order; "dies"
            means killed).
    """

    pairs: tuple[PairPlan, ...]
    miners: tuple[str, ...]
    wounds_before: tuple[int, ...]
    joint: Mapping[Outcome, Number]
    rulings: Mapping[str, str]
    exact: bool
    megabeast: str | None = None

    def winner_odds(self, i: int) -> dict[str | None, Number]:
        """``{winner name or None: P}`` of pair ``i``."""
        out: dict[str | None, Number] = {}
        for (w, _), p in self.joint.items():
            out[w[i]] = out.get(w[i], 0) + p
        return out

    def wounds(self, name: str) -> list[Number]:
        """``[P(k Wounds lost)]`` for Miner ``name``, k = 0 .. its Wounds left."""
        j = self.miners.index(name)
        out = [ratio(0, 1, self.exact)] * (self.wounds_before[j] + 1)
        for (_, wl), p in self.joint.items():
            out[wl[j]] += p
        return out

    def p_dies(self, name: str) -> Number:
        """P(Miner ``name`` reaches 0 Wounds and dies in this Order) (Death)."""
        return self.wounds(name)[-1] if self.wounds_before[self.miners.index(name)] > 0 else ratio(0, 1, self.exact)

    def p(self, event) -> Number:
        """P(``event(winners, wounds_by_name)``) over the joint distribution (``wounds_by_name``: ``{name: k}``)."""
        total = ratio(0, 1, self.exact)
        for (w, wl), p in self.joint.items():
            if event(w, dict(zip(self.miners, wl))):
                total += p
        return total

    def to_dict(self) -> dict[str, Any]:
        from explorer.distributions import fmt

        return {"pairs": [{"active": p.active, "opponent": p.opponent, "kind": p.kind,
                           "winner": {("nobody" if k is None else k): fmt(v) for k, v in self.winner_odds(i).items()}}
                          for i, p in enumerate(self.pairs)],
                "miners": {m: {"wounds_before": wb, "wounds_lost": [fmt(x) for x in self.wounds(m)],
                               "p_dies": fmt(self.p_dies(m))} for m, wb in zip(self.miners, self.wounds_before)},
                "outcomes": len(self.joint), "exact": self.exact, "rulings": dict(self.rulings),
                **({"megabeast": self.megabeast} if self.megabeast is not None else {})}


def _wound_split(h: int, c: int, side: SideSpec, exact: bool) -> list[tuple[int, Number]]:
    """``[(Wounds, P)]`` caused by ``h`` hits and ``c`` Criticals of ``side`` (uncapped; Damage › Saving Roll;
    Skills and Tools › Ammunition)."""
    one = ratio(1, 1, exact)
    if side.attack_damage is None or h + c == 0:
        return [(0, one)]
    n = saving_rolls(h, c, side.ammunition)
    return _binomial(n, side.attack_damage, exact)


def _binomial(n: int, attack_damage: int, exact: bool) -> list[tuple[int, Number]]:
    """``[(failed Saving Rolls, P)]`` of ``n`` Saving Rolls against ``attack_damage`` (Damage › Saving Roll)."""
    one = ratio(1, 1, exact)
    p = ratio(max(0, min(FACES, attack_damage)), FACES, exact)
    q = one - p
    return [(k, math.comb(n, k) * p ** k * q ** (n - k)) for k in range(n + 1) if (p ** k * q ** (n - k))]


def _pair_outcomes(pp: PairPlan, r: Rulings, exact: bool) -> list[tuple[str | None, dict[str, int], Number]]:
    """``[(winner, {name: Wounds caused}, P)]`` of one pair with its own dice."""
    f = face_to_face(pp.a, pp.b, rulings=r, exact=exact)
    out = []
    for (who, h, c), p in f.outcomes.items():
        if not p:
            continue
        if who is None:
            out.append((None, {}, p))
            continue
        side, name, hurt = (pp.a, pp.active, pp.opponent) if who == "a" else (pp.b, pp.opponent, pp.active)
        for k, pk in _wound_split(h, c, side, exact):
            out.append((name, {hurt: k} if k else {}, p * pk))
    return out


def _evade_outcomes_given(pp: PairPlan, evade_key: int, r: Rulings, exact: bool
                          ) -> list[tuple[str | None, dict[str, int], Number]]:
    """One attacker against the Active Miner's Evade die showing a face of ordering key ``evade_key``: its dice
    are compared with that one die (Rolls › Face to Face Rolls › Evade)."""
    one, zero = ratio(1, 1, exact), ratio(0, 1, exact)
    keys = side_keys(pp.b.sv, r)
    wins = _survivors(keys, pp.b.burst, [(evade_key, one)], exact)
    out = []
    for (h, c), p in wins.items():
        for k, pk in _wound_split(h, c, pp.b, exact):
            out.append((pp.opponent, {pp.active: k} if k else {}, p * pk))
    p_att = sum(wins.values(), zero)
    below = sum(1 for x in keys if x < evade_key)
    p_ev = ratio(below, FACES, exact) ** pp.b.burst if evade_key > 0 else zero
    if p_ev:
        out.append((pp.active, {}, p_ev))
    if one - p_att - p_ev:
        out.append((None, {}, one - p_att - p_ev))
    return out


def _prevails(pp: PairPlan, exact: bool, p: Number) -> list[tuple[str | None, dict[str, int], Number]]:
    """The MegaBeast prevails with probability ``p``: its Behavior Attack's impacts force Saving Rolls on the Active
    Miner (MegaBeast › Skills, Attacks, and AROs; Damage › Saving Roll)."""
    ba = pp.b
    if ba.attack_damage is None or ba.burst == 0:
        return [(pp.opponent, {}, p)]
    n = saving_rolls(ba.burst, 0, ba.ammunition)
    return [(pp.opponent, {pp.active: k} if k else {}, p * q) for k, q in _binomial(n, ba.attack_damage, exact)]


def _megabeast_outcomes(pp: PairPlan, r: Rulings, exact: bool) -> list[tuple[str | None, dict[str, int], Number]]:
    """``[(winner, {name: Wounds caused}, P)]`` of a pair with the MegaBeast (its own dice: not an Evade)."""
    one = ratio(1, 1, exact)
    if pp.megabeast_mode == "unopposed":
        return _prevails(pp, exact, one)
    mb = pp.opponent
    out: list = []
    if pp.megabeast_mode == "normal":
        f = face_to_face(pp.a, SideSpec(0, 0), rulings=r, exact=exact)
        items = [(("a" if who == "a" else None, h, c), p) for (who, h, c), p in f.outcomes.items()]
    else:
        vm = versus_megabeast(pp.a, pp.threat_level, rulings=r, exact=exact)
        r.consulted.update(dict(vm.rulings))  # megabeast_critical, megabeast_equal: listed with the odds
        items = list(vm.outcomes.items())
    for (who, h, c), p in items:
        if not p:
            continue
        if who == "a":
            k = saving_rolls(h, c, pp.a.ammunition, megabeast=True) if pp.a.attack_damage is not None else 0
            out.append((pp.active, {mb: k} if k else {}, p))
        elif who == "b" and pp.megabeast_mode == "opposed":
            out += _prevails(pp, exact, p)
        else:
            out.append((None, {}, p))
    return out


def _megabeast_evade_given(pp: PairPlan, face: int, r: Rulings, exact: bool
                           ) -> list[tuple[str | None, dict[str, int], Number]]:
    """The Active Miner's Evade die showing ``face`` (1..20) against the MegaBeast's Threat Level: it evades, ties
    (``megabeast_equal = tie``), or the MegaBeast prevails and its Behavior Attack applies."""
    one = ratio(1, 1, exact)
    cls = megabeast_face_classes(pp.a.sv, pp.threat_level, r)[face - 1]
    if cls in ("hit", "crit"):
        return [(pp.active, {}, one)]
    if cls == "tie":
        return [(None, {}, one)]
    return _prevails(pp, exact, one)


def _product(dist: dict, pair_list, miners: tuple[str, ...]) -> dict:
    """Extend ``{(winners, uncapped wounds tuple): P}`` by the independent outcomes ``pair_list`` of one more pair."""
    out: dict = {}
    idx = {m: i for i, m in enumerate(miners)}
    for (ws, wl), p in dist.items():
        for who, hurt, q in pair_list:
            w2 = list(wl)
            for name, k in hurt.items():
                w2[idx[name]] += k
            key = (ws + (who,), tuple(w2))
            out[key] = out.get(key, 0) + p * q
    return out


def plan_of(res, scenario) -> tuple[tuple[PairPlan, ...], tuple[str, ...], tuple[int, ...]]:
    """The pairs of a resolved roll exchange (:class:`~explorer.games.tagraid.resolve.Resolution` of
    ``scenario``, a :class:`~explorer.games.tagraid.model.Scenario`), with the Miners and their Wounds left.

    The MegaBeast, when it is in the exchange, is listed after the Miners (its Wounds left before).

    Raises:
        ScenarioError: an Evade faces a split Burst under ``evade_vs_split_attack = all_dice`` (not built yet).
    """
    weapons = {scenario.active.name: scenario.active.weapon}
    weapons.update({m.name: m.weapon for m in scenario.reactive})
    plans = []
    for p in res.pairs:
        if p.cancel_comparison is not None:
            raise ScenarioError("rulings.evade_vs_split_attack", "whole-Order odds of an Evade against a split Burst "
                                "under 'all_dice' (every die of the Attack may cancel the Evade) are not built yet",
                                "the reading 'target_dice'")

        def spec(pool, name, opponent):
            if pool is None:
                return SideSpec(0, 0)
            ad = p.attack_damage.get(name)
            w = weapons.get(name)
            return SideSpec(pool.sv.value if pool.sv is not None else 0, len(pool.dice),
                            ad.value if ad is not None and pool.purpose == "attack" else None,
                            w.ammunition if w is not None else "N")

        a = spec(p.a, p.active, p.opponent)
        if p.megabeast:
            plans.append(_megabeast_plan(p, a, scenario))
            continue
        b = spec(p.b, p.opponent, p.active)
        plans.append(PairPlan(p.kind, p.active, p.opponent, a, b,
                              shared_evade=p.a is not None and p.a.purpose == "evade"))
    miners = tuple(res.miners)  # the Active Miner first, then Reactive Miners in Timeline order
    before = tuple(res.miners[m].wounds_before for m in miners)
    if res.megabeast is not None:
        miners += (res.megabeast.name,)
        before += (res.megabeast.wounds_before,)
    return tuple(plans), miners, before


def _megabeast_plan(p, a: SideSpec, scenario) -> PairPlan:
    """A pair with the MegaBeast (:class:`PairPlan` fields ``threat_level``, ``megabeast_mode``, ``b`` = its
    Behavior Attack), from the resolver's :class:`~explorer.games.tagraid.resolve.Pair`."""
    mb = scenario.megabeast
    mode = {"face_to_face": "opposed", "threat_level": "no_aro", "normal_roll": "normal",
            "unopposed": "unopposed"}[p.kind]
    ba = mb.behavior_attack
    ad = p.attack_damage.get(mb.name)
    b = SideSpec(p.threat_level or 0, ba.hits if ba is not None else 0,
                 ad.value if ad is not None and ba is not None else None,
                 ba.ammunition if ba is not None else "N")
    # an attack on the MegaBeast has no Attack Damage (no Armor roll): its successes wound all the same
    attacks = p.a is not None and p.a.purpose == "attack"
    a = SideSpec(a.sv, a.burst, scenario.active.weapon.damage if attacks else None, a.ammunition)
    return PairPlan(p.kind, p.active, p.opponent, a, b,
                    shared_evade=p.a is not None and p.a.purpose == "evade",
                    threat_level=p.threat_level, megabeast_mode=mode)


def exchange_odds(scenario, rulings: Rulings | Mapping[str, str] | None = None, *, exact: bool = False
                  ) -> OrderOdds:
    """Exact joint odds of a roll exchange (a :class:`~explorer.games.tagraid.model.Scenario`): see the module
    docstring. ``exact=True``: :class:`fractions.Fraction` probabilities.

    Raises:
        ScenarioError: see :func:`plan_of`.
    """
    from .resolve import resolve_detailed

    # the structure does not depend on the faces: resolve once with any dice (fixed dice dropped: none run short)
    free = scenario.model_copy(deep=True)
    free.active.dice = None
    free.active.save_dice = None
    for at in free.active.attacks:
        at.dice = None
    for m in free.reactive:
        m.dice = None
        m.save_dice = None
    res = resolve_detailed(free, None, rulings)
    plans, miners, before = plan_of(res, free)
    r = _as_rulings(dict(res.trace.rulings) | dict(rulings or {}))
    one = ratio(1, 1, exact)
    zero_w = tuple(0 for _ in miners)
    shared = [p for p in plans if p.shared_evade and p.opponent is not None]
    own = [p for p in plans if not (p.shared_evade and p.opponent is not None)]
    order = [plans.index(p) for p in own + shared]
    dist: dict = {((), zero_w): one}
    for p in own:
        dist = _product(dist, (_megabeast_outcomes(p, r, exact) if p.threat_level is not None
                               else _pair_outcomes(p, r, exact)), miners)
    if shared:
        ev_keys = side_keys(shared[0].a.sv, r)
        face_p = ratio(1, FACES, exact)
        mixed: dict = {}
        for f in range(FACES):
            d = dist
            for p in shared:
                d = _product(d, (_megabeast_evade_given(p, f + 1, r, exact) if p.threat_level is not None
                                 else _evade_outcomes_given(p, ev_keys[f], r, exact)), miners)
            for k, v in d.items():
                mixed[k] = mixed.get(k, 0) + v * face_p
        dist = mixed
    joint: dict = {}
    for (ws, wl), p in dist.items():
        ordered = [None] * len(plans)
        for pos, w in zip(order, ws):
            ordered[pos] = w
        capped = tuple(min(x, b) for x, b in zip(wl, before))
        key = (tuple(ordered), capped)
        joint[key] = joint.get(key, 0) + p
    if not exact:
        joint = {k: v for k, v in joint.items() if v > 0}
    else:
        joint = {k: v for k, v in joint.items() if v}
    return OrderOdds(plans, miners, before, joint, dict(res.trace.rulings) | dict(r.consulted), exact,
                     res.megabeast.name if res.megabeast is not None else None)


def order_odds(order, rulings: Mapping[str, str] | None = None, *, exact: bool = False) -> OrderOdds:
    """Exact odds of an Order (a parsed ``kind = "order"`` file, :class:`.orders.orderfile.OrderScenario`) as
    declared: its declarations are played up to Resolution (Order Expenditure Sequence, steps 1 to 4, the board
    deciding every fact), then :func:`exchange_odds` of the roll exchange step 5 would roll.

    Raises:
        RuleViolation: a declaration the rules refuse (as when the Order is resolved).
        ScenarioError: see :func:`plan_of`.
    """
    from dataclasses import replace as dc_replace

    from .model import parse_scenario
    from .orders.resolution import roll_scenario
    from .orders.sequence import STEPS, play

    initial = order.initial
    if rulings:
        initial = dc_replace(initial, rulings=tuple(sorted((dict(initial.rulings) | dict(rulings)).items())))
    upto = [name for name, _ in STEPS].index("5 Resolution")
    state = play(initial, order.declarations, order.dice, upto=upto)[-1].state
    doc, _, board = roll_scenario(state, _NoDice(order.dice.seed))
    o = exchange_odds(parse_scenario(doc, None), dict(state.rulings), exact=exact)
    return dc_replace(o, rulings=dict(o.rulings) | dict(state.consulted) | board)


class _NoDice:
    """The Order's dice with every fixed face dropped (odds are over every face)."""

    def __init__(self, seed: int):
        self.seed = seed

    def of(self, _name: str):
        return None

    def saves_of(self, _name: str):
        return None
