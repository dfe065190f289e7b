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

Not built yet (refused with a cited :class:`~explorer.errors.ScenarioError`): an exchange with the MegaBeast (its
Threat Level and Behavior Attack), and an Evade against a split Burst under ``evade_vs_split_attack = all_dice``
(every die of the Attack may cancel the Evade: the pairs share dice).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from explorer.distributions import Number, ratio
from explorer.errors import ScenarioError
from explorer.options import Rulings

from .odds import FACES, SideSpec, _as_rulings, _survivors, face_to_face, side_keys
from .rolls import saving_rolls

Outcome = tuple[tuple[str | None, ...], tuple[int, ...]]
"""One outcome of the exchange: ``(winner of each pair (None: nobody), Wounds lost by each Miner)``."""


@dataclass(frozen=True)
class PairPlan:
    """One pair of the exchange as the resolver plans it: the two sides' names, dice, Success Values, Attack Damage
    (``None``: this side's success causes no Saving Rolls) and ammunition; ``shared_evade``: the active side is the
    Active Miner's one Evade die (shared with the other pairs that have it)."""

    kind: str
    active: str
    opponent: str | None
    a: SideSpec
    b: SideSpec
    shared_evade: bool = False


@dataclass(frozen=True)
class OrderOdds:
    """The exact joint distribution of an Order's roll exchange.

    Attributes:
        pairs: the exchange's pairs (:class:`PairPlan`), in the resolver's order.
        miners: names of the Miners in the exchange (the Active Miner first).
        wounds_before: Wounds each has left before the exchange (same order).
        joint: ``{(winners per pair, Wounds lost per Miner): probability}`` (probabilities sum to 1).
        rulings: readings consulted.
        exact: :class:`fractions.Fraction` probabilities (else floats).
    """

    pairs: tuple[PairPlan, ...]
    miners: tuple[str, ...]
    wounds_before: tuple[int, ...]
    joint: Mapping[Outcome, Number]
    rulings: Mapping[str, str]
    exact: bool

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
                "outcomes": len(self.joint), "exact": self.exact, "rulings": dict(self.rulings)}


def _wound_split(h: int, c: int, side: SideSpec, exact: bool) -> list[tuple[int, Number]]:
    """``[(Wounds, P)]`` caused by ``h`` hits and ``c`` Criticals of ``side`` (uncapped; Damage › Saving Roll;
    Skills and Tools › Ammunition)."""
    one = ratio(1, 1, exact)
    if side.attack_damage is None or h + c == 0:
        return [(0, one)]
    n = saving_rolls(h, c, side.ammunition)
    p = ratio(max(0, min(FACES, side.attack_damage)), FACES, exact)
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

    Raises:
        ScenarioError: the MegaBeast is in the exchange, or an Evade faces a split Burst under
            ``evade_vs_split_attack = all_dice`` (not built yet).
    """
    if res.megabeast is not None or any(p.megabeast for p in res.pairs):
        raise ScenarioError("megabeast", "whole-Order odds with the MegaBeast (its Threat Level and Behavior "
                            "Attack) are not built yet", "an Order whose exchange has no MegaBeast")
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
        b = spec(p.b, p.opponent, p.active)
        plans.append(PairPlan(p.kind, p.active, p.opponent, a, b,
                              shared_evade=p.a is not None and p.a.purpose == "evade"))
    miners = tuple(res.miners)  # the Active Miner first, then Reactive Miners in Timeline order
    before = tuple(res.miners[m].wounds_before for m in miners)
    return tuple(plans), miners, before


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
        dist = _product(dist, _pair_outcomes(p, r, exact), miners)
    if shared:
        ev_keys = side_keys(shared[0].a.sv, r)
        face_p = ratio(1, FACES, exact)
        mixed: dict = {}
        for f in range(FACES):
            d = dist
            for p in shared:
                d = _product(d, _evade_outcomes_given(p, ev_keys[f], r, exact), miners)
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
    return OrderOdds(plans, miners, before, joint, dict(res.trace.rulings) | dict(r.consulted), exact)


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
