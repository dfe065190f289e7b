"""The loss probability of the next one or more Nemesis Phases of Marvel D.A.G.G.E.R., exactly, over the event deck's orders.

Rulebook sections: Nemesis Phase (1. Advance Threat, 2. Check Nemesis Mission, 3. Resolve Event Cards), End of Round,
Winning and Losing (played through :func:`.nemesis.play_phases`).

The Nemesis Phase is deterministic once the event deck's order is known (the players' choices are the scenario's
inputs and defaults), and ``k`` phases draw only the top ``k`` event cards. So the chance that the heroes lose within
``k`` phases, with the deck shuffled, is an average over the ``n!/(n-k)!`` ordered draws of ``k`` cards from the
``n`` in the deck, each equally likely: with one phase, ``n`` play-outs give the exact answer that 10,000 seeded
shuffles only estimate (``benchmarks/bench_dagger.py`` checks the two agree). Above ``max_exact`` draws, a seeded
sample of shuffles is used instead (reported as such).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from itertools import permutations
from math import perm

from explorer.dice import Dice
from explorer.errors import ScenarioError
from explorer.text import plural

from .nemesis import PhaseContext, play_phases
from .nemesis_scenario import NemesisScenario
from .options import rulings as make_rulings
from .state import GameState

__all__ = ["LossForecast", "loss_forecast", "planned_forecast", "forecast_text", "phases_words"]

MAX_PHASES = 5
MAX_SAMPLES = 200_000


@dataclass(frozen=True)
class LossForecast:
    """How likely the heroes are to lose within ``phases`` Nemesis Phases from a position.

    Attributes:
        p_loss: the probability (a :class:`~fractions.Fraction` when ``exact``, else the sample frequency as one).
        exact: every ordered draw was played (else ``samples`` seeded shuffles). draws: play-outs made.
        phases: Nemesis Phases played per draw (each followed by End of Round).
        reasons: ``{loss reason: probability}`` (a play-out can name several).
        threat: ``{final threat: probability}``. won: probability the heroes win within the phases.
        planned: the play-outs played a ``round`` file's planned Hero Phases between the Nemesis Phases
            (:func:`planned_forecast`); refused: then, the probability that a planned turn is refused (the draw
            left the plan illegal: an enemy it fights is gone, a slot...); such play-outs count as not lost.
    """

    p_loss: Fraction
    exact: bool
    draws: int
    phases: int
    reasons: Mapping[str, Fraction]
    threat: Mapping[int, Fraction]
    won: Fraction
    refused: Fraction = Fraction(0)
    planned: bool = False
    dealt: bool = False
    """The event deck is the one Setup deals (a ``round`` file with ``[setup]``): exact over Setup's deals of the
    top cards (:func:`setup_deals`); ``draws`` counts the distinct top cards played."""
    side_orders: int = 0
    """With ``dealt``: the orders of the side mission deck's top ``side_top`` cards the forecast is also exact over
    (each deal played with each); 0: the side mission deck is the one the file's seed shuffled (too many orders, or
    no side mission deck)."""
    side_top: int = 0

    def to_dict(self) -> dict:
        """JSON-friendly: probabilities as ``{"exact": "n/d", "float": x}``."""
        def pr(x: Fraction) -> dict:
            return {"exact": str(x), "float": float(x)}
        return {"p_loss": pr(self.p_loss), "exact": self.exact, "draws": self.draws, "phases": self.phases,
                "reasons": {k: pr(v) for k, v in self.reasons.items()},
                "threat": {str(k): pr(v) for k, v in sorted(self.threat.items())}, "won": pr(self.won)} | (
                    {"planned": True, "refused": pr(self.refused)} if self.planned else {}) | (
                    {"setup_dealt": True, "side_orders": self.side_orders, "side_top": self.side_top}
                    if self.dealt else {})


def loss_forecast(scenario: NemesisScenario, phases: int = 1, rulings: Mapping[str, str] | None = None, *,
                  state: GameState | None = None, max_exact: int = 5040, samples: int = 10_000,
                  seed: int = 0) -> LossForecast:
    """The probability that the heroes lose within ``phases`` Nemesis Phases (1..5) from ``state`` (default: the
    scenario's starting state), the event deck shuffled (its order in the file is ignored).

    Args:
        max_exact: play every ordered draw when there are at most this many (1..1,000,000), else sample.
        samples: seeded shuffles when sampling (1..200,000); ``seed`` seeds them.

    Raises:
        ScenarioError: a bound above, or the rulings' errors.
    """
    if not 1 <= phases <= MAX_PHASES:
        raise ScenarioError("phases", f"{phases!r} is out of range", f"1..{MAX_PHASES} Nemesis Phases")
    if not 1 <= max_exact <= 1_000_000:
        raise ScenarioError("max_exact", f"{max_exact!r}", "1..1000000")
    if not 1 <= samples <= MAX_SAMPLES:
        raise ScenarioError("samples", f"{samples!r}", f"1..{MAX_SAMPLES}")
    start = scenario.state if state is None else state
    chosen = {**scenario.rulings, **(rulings or {})}
    make_rulings(chosen)                                     # check the readings once, before any play-out
    deck = start.event_deck
    k = min(phases, len(deck))
    exact = perm(len(deck), k) <= max_exact
    if exact:
        draws = [tuple(deck[i] for i in idx) + tuple(deck[j] for j in range(len(deck)) if j not in idx)
                 for idx in permutations(range(len(deck)), k)] or [deck]
    else:
        dice = Dice(seed=seed)           # one seeded stream for every sampled order (as random.Random(seed) was)
        draws = [dice.shuffled(deck) for _ in range(samples)]
    lost = won = 0
    reasons: Counter[str] = Counter()
    threat: Counter[int] = Counter()
    for d in draws:
        ctx = PhaseContext(world=scenario.world, rulings=make_rulings(chosen), choices=scenario.choices)
        frames = play_phases(start.evolve(event_deck=d), ctx, phases)
        end = frames[-1].state if frames else start
        lost += bool(end.lost)
        won += end.won
        reasons.update(end.lost)
        threat[end.threat] += 1
    n = len(draws)
    return LossForecast(Fraction(lost, n), exact, n, phases, {r: Fraction(c, n) for r, c in reasons.most_common()},
                        {t: Fraction(c, n) for t, c in threat.items()}, Fraction(won, n))


def setup_deals(standard: tuple[str, ...], nemesis: tuple[str, ...], top: int, per_pile: int = 3
                ) -> dict[tuple[str, ...], Fraction]:
    """The top ``top`` cards of the event deck Setup builds, with their exact probabilities: ``{(card, ...): p}``.

    Setup (:mod:`.setup_scenario`): 9 of the ``standard`` events at random, 3 piles of ``per_pile``, the
    ``nemesis`` events dealt one into each pile at random, each pile shuffled, pile 1 on top. Drawn from the top, a
    pile's next card is its nemesis event with probability 1 / (cards left in the pile) while that is not yet drawn
    (which one: uniform among the nemesis events no earlier pile held), else a standard event uniform among those not
    yet drawn (every 3-set and every order is equally likely). The result does not depend on the order of
    ``nemesis``.
    """
    size = per_pile + 1
    out: dict[tuple[str, ...], Fraction] = {}

    def go(prefix: tuple[str, ...], p: Fraction, used: frozenset[int], j: int) -> None:
        if j == top:
            out[prefix] = out.get(prefix, Fraction(0)) + p
            return
        pile, q = divmod(j, size)
        drawn = any(c in nemesis for c in prefix[pile * size:])
        rest = Fraction(1)
        if not drawn:
            first = Fraction(1, size - q)
            free = [n for n in nemesis if n not in prefix]
            for nem in free:
                go(prefix + (nem,), p * first / len(free), used, j + 1)
            rest -= first
        if rest:
            pool = [i for i in range(len(standard)) if i not in used]
            for i in pool:
                go(prefix + (standard[i],), p * rest / len(pool), used | {i}, j + 1)

    go((), Fraction(1), frozenset(), 0)
    return out


def _fill_deck(prefix: tuple[str, ...], standard: tuple[str, ...], nemesis: tuple[str, ...],
               per_pile: int = 3) -> tuple[str, ...]:
    """A whole Setup deck (one nemesis event and ``per_pile`` standard events in each pile) that starts with
    ``prefix``: the cards below it in a fixed order (the forecast never draws them; only their number counts)."""
    size = per_pile + 1
    deck = list(prefix)
    spare = [c for c in standard if c not in prefix]
    for j in range(len(prefix), size * len(nemesis)):
        pile, _q = divmod(j, size)
        body = deck[pile * size:j]
        if not any(c in nemesis for c in body) and j == (pile + 1) * size - 1:
            deck.append(next(n for n in nemesis if n not in deck))
        else:
            deck.append(spare.pop(0))
    return tuple(deck)


def planned_forecast(sc, rounds: int = 1, rulings: Mapping[str, str] | None = None, *,
                     max_exact: int = 5040) -> LossForecast:
    """P(the heroes lose by the end of round ``rounds``) for a ``round`` file (:class:`.round_scenario.RoundScenario`),
    playing its planned Hero Phases (the turns, their rolls as given or from the seed) before each Nemesis Phase:
    exact over the ordered draws of the top ``rounds`` event cards (the deck shuffled; the file's order ignored).
    A draw under which a planned turn is refused counts in ``refused``, not as a loss.

    Raises:
        ScenarioError: ``rounds`` outside 1..the rounds the file plans (at most 5), more ordered draws than
            ``max_exact`` (this forecast does not sample), or the rulings' errors.
    """
    from dataclasses import replace

    from .round_scenario import play_rounds

    if not 1 <= rounds <= min(len(sc.rounds), MAX_PHASES):
        raise ScenarioError("phases", f"{rounds!r} is out of range", f"1..{min(len(sc.rounds), MAX_PHASES)} (the rounds the file "
                            "plans)")
    chosen = {**sc.board.rulings, **(rulings or {})}
    make_rulings(chosen)
    if getattr(sc, "setup", None) is not None:
        return _setup_forecast(sc, rounds, chosen, max_exact)
    start = sc.board.state
    deck = start.event_deck
    k = min(rounds, len(deck))
    if perm(len(deck), k) > max_exact:
        raise ScenarioError("phases", f"{perm(len(deck), k)} ordered draws are too many", f"at most {max_exact}")
    draws = [tuple(deck[i] for i in idx) + tuple(deck[j] for j in range(len(deck)) if j not in idx)
             for idx in permutations(range(len(deck)), k)] or [deck]
    lost = won = refused = 0
    reasons: Counter[str] = Counter()
    threat: Counter[int] = Counter()
    for d in draws:
        one = replace(sc, board=replace(sc.board, state=start.evolve(event_deck=d), shuffle_events=False),
                      rounds=sc.rounds[:rounds])
        frames, refusal, first, _ctx = play_rounds(one, chosen)
        end = frames[-1].state.game if frames else first.game
        refused += refusal is not None
        lost += bool(end.lost)
        won += end.won
        reasons.update(end.lost)
        threat[end.threat] += 1
    n = len(draws)
    return LossForecast(Fraction(lost, n), True, n, rounds, {r: Fraction(c, n) for r, c in reasons.most_common()},
                        {t: Fraction(c, n) for t, c in threat.items()}, Fraction(won, n), Fraction(refused, n), True)


def side_mission_draws(rounds: int) -> int:
    """The most side missions Setup and ``rounds`` rounds can draw from the side mission deck: 1 for the 1st strike's
    Setup, then per Nemesis Phase 1 in step 2 (a nemesis mission completed, or the 1st strike with ruling
    ``first_strike_side_mission`` = ``yes``) and 1 in step 3 (every event spawns one). Nemesis Phase › 2. Check
    Nemesis Mission, 3. Resolve Event Cards; Setup."""
    return 1 + 2 * rounds


def _setup_forecast(sc, rounds: int, chosen: Mapping[str, str], max_exact: int) -> LossForecast:
    """:func:`planned_forecast` for a file with ``[setup]``: exact over the top ``rounds`` cards of the event deck
    Setup deals (:func:`setup_deals`) and, when the play-outs stay within ``max_exact``, over the orders of the top
    :func:`side_mission_draws` cards of the shuffled side mission deck (every order equally likely, independent of
    the event deal; the cards below are never drawn); else the side mission deck is the one the file's seed
    shuffled (``side_orders`` 0: the text says so). The 1st strike's spawns are fixed by the file (no chance)."""
    from dataclasses import replace

    from .round_scenario import play_rounds

    su = sc.setup
    deals = setup_deals(su.standard_events, su.nemesis_events, min(rounds, 3 * 4))
    if len(deals) > max_exact:
        raise ScenarioError("phases", f"{len(deals)} deals of the top {rounds} event cards are too many",
                            f"at most {max_exact}")
    side = su.side_deck
    top = min(len(side), side_mission_draws(rounds))
    orders: list[tuple[str, ...] | None] = [None]
    if side and len(deals) * perm(len(side), top) <= max_exact:
        orders = [tuple(side[i] for i in idx) + tuple(side[j] for j in range(len(side)) if j not in idx)
                  for idx in permutations(range(len(side)), top)]
    q = Fraction(1, len(orders))
    one = replace(sc, rounds=sc.rounds[:rounds])
    lost = won = refused = Fraction(0)
    reasons: dict[str, Fraction] = {}
    threat: dict[int, Fraction] = {}
    for prefix, p_deal in deals.items():
        deck = _fill_deck(prefix, su.standard_events, su.nemesis_events)
        for order in orders:
            p = p_deal * q
            frames, refusal, first, _ctx = play_rounds(one, chosen, dealt=deck, side_dealt=order)
            end = frames[-1].state.game if frames else first.game
            refused += p if refusal is not None else 0
            lost += p if end.lost else 0
            won += p if end.won else 0
            for r in end.lost:
                reasons[r] = reasons.get(r, Fraction(0)) + p
            threat[end.threat] = threat.get(end.threat, Fraction(0)) + p
    exact_side = orders != [None]
    return LossForecast(lost, True, len(deals), rounds, dict(sorted(reasons.items(), key=lambda kv: -kv[1])),
                        threat, won, refused, True, True, len(orders) if exact_side else 0,
                        top if exact_side else 0)


def phases_words(first_round: int, phases: int) -> str:
    """Which Nemesis Phases a forecast covers, by round: ``"the Nemesis Phase of round 2"`` or ``"the Nemesis Phases
    of rounds 1-3"`` (each phase is followed by End of Round, so ``phases`` phases end round ``first + phases - 1``)."""
    if phases == 1:
        return f"the Nemesis Phase of round {first_round}"
    return f"the Nemesis Phases of rounds {first_round}-{first_round + phases - 1}"


def forecast_text(f: LossForecast, start: GameState, scenario_phases: int = 1, after_heroes: bool = False,
                  planned: bool = False) -> str:
    """The forecast in words (``explorer dagger forecast``): what it forecasts for which rounds, from which position,
    how it was computed, then the loss reasons, the threat at the end of the last round forecast and, when the
    scenario plays more Nemesis Phases than forecast, how to forecast them all.

    Args:
        f: the forecast (:func:`loss_forecast`). start: the position it starts from (its ``round``, threat, deck).
        scenario_phases: the Nemesis Phases the scenario file plays (``phases``). after_heroes: ``start`` is a hero
            file's position after its Hero Phase actions. planned: a ``round`` file's forecast from the start of
            round 1's Hero Phase (:func:`planned_forecast`).
    """
    r, k = start.round, f.phases
    deck = len(start.event_deck)
    covered = min(k, deck) if deck else 0
    how = ("the event deck is empty" if not deck else
           f"exact over the {plural(f.draws, 'Setup deal')} of the top {plural(covered, 'event card')}"
           + (f" and the {plural(f.side_orders, 'order')} of the side mission deck's top "
              f"{plural(f.side_top, 'card')}" if f.side_orders else "")
           if f.exact and f.dealt else
           f"exact over the {plural(f.draws, 'ordered draw')} of the top {plural(covered, 'event card')}" if f.exact
           else f"estimated from {plural(f.draws, 'seeded shuffle')}")
    where = ("after the file's Hero Phase actions" if after_heroes else "at the start of the Hero Phase" if planned
             else "at the start of the Nemesis Phase")
    what = (f"by the end of round {r + k - 1}" if planned else f"in {phases_words(r, k)}")
    lines = [f"P(the heroes lose {what}) = {float(f.p_loss):.4f} ({f.p_loss}), {how}  "
             "[Marvel D.A.G.G.E.R.: Winning and Losing]",
             f"  from round {r} {where}: threat {start.threat}, {plural(deck, 'event card')} in the deck ("
             + ("as Setup deals it: 9 standard events in 3 piles of 3, a nemesis event shuffled into each; "
                + ("the side mission deck shuffled (every order of the cards Setup and these rounds can draw); "
                   if f.side_orders else
                   "conditioned on the side mission deck in the order the file's seed shuffles it (too many orders "
                   "to play out); ")
                + "the 1st strike's spawns as the file lists them, no chance)" if f.dealt
                else "order shuffled)")]
    lines += [f"  {reason}: {float(p):.4f}" for reason, p in f.reasons.items()]
    lines.append(f"  threat at the end of round {r + k - 1}: "
                 + ", ".join(f"{t}: {float(p):.3f}" for t, p in sorted(f.threat.items())))
    if f.won:
        lines.append(f"  P(the heroes win by the end of round {r + k - 1}): {float(f.won):.4f}")
    if f.planned:
        lines.append("  the file's planned Hero Phases are played before each Nemesis Phase"
                     + (f"; a planned turn is refused under {float(f.refused):.4f} of the draws (not counted as a "
                        "loss)" if f.refused else ""))
    if scenario_phases > k:
        lines.append(f"  the scenario plays {phases_words(r, scenario_phases)}; "
                     f"--phases {min(scenario_phases, MAX_PHASES)} forecasts "
                     + ("them all" if scenario_phases <= MAX_PHASES else f"the first {MAX_PHASES}"))
    return "\n".join(lines)
