"""The loss probability of the next one or more Nemesis Phases of Marvel D.A.G.G.E.R., exactly, over the event deck's orders.

Rulebook sections: Nemesis Phase (1. Advance Threat, 2. Check Nemesis Mission, 3. Resolve Event Cards), End of Round,
Winning and Losing (played through :func:`.nemesis.play_phases`).

The Nemesis Phase is deterministic once the event deck's order is known (the players' choices are the scenario's
inputs and defaults), and ``k`` phases draw only the top ``k`` event cards. So the chance that the heroes lose within
``k`` phases, with the deck shuffled, is an average over the ``n!/(n-k)!`` ordered draws of ``k`` cards from the
``n`` in the deck, each equally likely: with one phase, ``n`` play-outs give the exact answer that 10,000 seeded
shuffles only estimate (``benchmarks/bench_dagger.py`` checks the two agree). Above ``max_exact`` draws, a seeded
sample of shuffles is used instead (reported as such).

A ``round`` file's planned rounds (:func:`planned_forecast`) are forecast round by round over the same draws, alike
positions merged at the end of each round (:func:`_round_by_round`); it never samples: above
:data:`MAX_PLAYOUTS` play-outs it refuses, naming that bound.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, replace
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
    positions: int = 0
    """:func:`planned_forecast`: the distinct positions played out (alike positions merged round by round)."""

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
                  seed: int = 0, quiet: bool = True) -> LossForecast:
    """The probability that the heroes lose within ``phases`` Nemesis Phases (1..5) from ``state`` (default: the
    scenario's starting state), the event deck shuffled (its order in the file is ignored).

    Args:
        max_exact: play every ordered draw when there are at most this many (1..1,000,000), else sample.
        samples: seeded shuffles when sampling (1..200,000); ``seed`` seeds them.
        quiet: play the phases without step text (:attr:`explorer.kernel.Context.quiet`; ``False``: with it, the
            same answer).

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
        ctx = PhaseContext(world=scenario.world, rulings=make_rulings(chosen), choices=scenario.choices, quiet=quiet)
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


MAX_PLAYOUTS = 60_000
"""The bound of :func:`planned_forecast`: the play-outs it stands for (ordered draws of the event cards the rounds
use, times the orders of the side mission deck's top cards it is exact over) at most this many. Merged round by round
they are played in far fewer positions, quietly (:attr:`explorer.kernel.Context.quiet`): dg-five-rounds over 3
rounds (9,180 play-outs, 880 positions) takes about 3 s of CPU, over 4 rounds (51,840 play-outs, 6,944 positions)
about 14 s (20.7 s with the loop as it was before session 12, measured in the same run: ``benchmarks/bench_dagger.py
--loop-rounds 4``, on a loaded machine); above it the message names the bound."""


def planned_forecast(sc, rounds: int = 1, rulings: Mapping[str, str] | None = None, *,
                     max_exact: int = MAX_PLAYOUTS, quiet: bool = True) -> LossForecast:
    """P(the heroes lose by the end of round ``rounds``) for a ``round`` file (:class:`.round_scenario.RoundScenario`),
    playing its planned Hero Phases (the turns, their rolls as given or from the seed) before each Nemesis Phase:
    exact over the ordered draws of the top ``rounds`` event cards (the deck shuffled; the file's order ignored).
    A draw under which a planned turn is refused (or a ``[[rounds.nemesis]]`` point it never reaches) counts in
    ``refused``, not as a loss.

    Computed round by round (:func:`_round_by_round`): the positions reached at the end of a round that are alike in
    everything later rounds read (the board, the tracks, the cards, the state of the dice, the event cards still to
    draw) are merged, their probabilities added, and each is played on once per next event card (its Hero Phase once;
    the event cards' Nemesis Phases share its dice, as they roll none: checked);
    a position where the game is over, or a turn was refused, is not played on. Earlier this played every ordered draw
    from the start, all rounds again for each, and refused above 5,040 of them.

    ``quiet`` (default): the rounds are played with :attr:`explorer.kernel.Context.quiet` (the same step functions
    and states, no step text built: :func:`.round_scenario.quiet_context`); ``False`` builds every step's text as a
    trace would (the benchmark's baseline; the same answer).

    Raises:
        ScenarioError: ``rounds`` outside 1..the rounds the file plans (at most 5), more than ``max_exact``
            (1..1,000,000; default :data:`MAX_PLAYOUTS`) ordered draws (this forecast does not sample; the message
            names the bound), or the rulings' errors.
    """
    if not 1 <= rounds <= min(len(sc.rounds), MAX_PHASES):
        raise ScenarioError("phases", f"{rounds!r} is out of range", f"1..{min(len(sc.rounds), MAX_PHASES)} (the rounds the file "
                            "plans)")
    if not 1 <= max_exact <= 1_000_000:
        raise ScenarioError("max_exact", f"{max_exact!r}", "1..1000000")
    chosen = {**sc.board.rulings, **(rulings or {})}
    make_rulings(chosen)
    if getattr(sc, "setup", None) is not None:
        return _setup_forecast(sc, rounds, chosen, max_exact, quiet)
    deck = sc.board.state.event_deck
    k = min(rounds, len(deck))
    draws = _exact_playouts(sc, rounds)
    if draws > max_exact:
        raise ScenarioError("phases", f"{draws:,} ordered draws of the top {plural(k, 'event card')} are too many "
                            "for the exact forecast", f"at most {max_exact:,} (its bound): fewer rounds")
    tally = _round_by_round(sc, rounds, chosen, _UniformDeck(deck), quiet=quiet)
    return tally.forecast(draws, rounds)


class _UniformDeck:
    """The event deck shuffled, every order equally likely: after drawing the cards ``prefix`` (indices into
    ``cards``), the next is any card left, each with the same chance."""

    def __init__(self, cards):
        self.cards = tuple(cards)
        self._decks: dict[tuple[int, ...], tuple] = {}

    def next_cards(self, prefix: tuple[int, ...]) -> dict[int, Fraction]:
        left = [i for i in range(len(self.cards)) if i not in prefix]
        return {i: Fraction(1, len(left)) for i in left}

    def deck(self, prefix: tuple[int, ...]) -> tuple:
        """The event deck once ``prefix`` is decided: its last card on top, the cards not drawn below (file order).
        Remembered per ``prefix`` (many positions draw the same cards)."""
        got = self._decks.get(prefix)
        if got is None:
            top = (self.cards[prefix[-1]],) if prefix else ()
            got = self._decks[prefix] = top + tuple(c for i, c in enumerate(self.cards) if i not in prefix)
        return got

    def key(self, prefix: tuple[int, ...]):
        return tuple(sorted(prefix))


class _SetupDeck:
    """The event deck Setup deals (:func:`setup_deals`): the next card's chances after the cards ``prefix`` (names)
    depend on the pile being drawn from and whether its nemesis event is already out."""

    def __init__(self, cards: Mapping[str, object], standard: tuple[str, ...], nemesis: tuple[str, ...],
                 per_pile: int = 3):
        self.cards, self.standard, self.nemesis, self.size = cards, standard, nemesis, per_pile + 1
        self._decks: dict[tuple[str, ...], tuple] = {}

    def _pile_has_nemesis(self, prefix: tuple[str, ...]) -> bool:
        pile = len(prefix) // self.size
        return any(c in self.nemesis for c in prefix[pile * self.size:])

    def next_cards(self, prefix: tuple[str, ...]) -> dict[str, Fraction]:
        if len(prefix) >= self.size * len(self.nemesis):
            return {}
        q = len(prefix) % self.size
        out: dict[str, Fraction] = {}
        rest = Fraction(1)
        if not self._pile_has_nemesis(prefix):
            first = Fraction(1, self.size - q)
            free = [n for n in self.nemesis if n not in prefix]
            for n in free:
                out[n] = first / len(free)
            rest -= first
        if rest:
            pool = [c for c in self.standard if c not in prefix]
            for c in pool:
                out[c] = rest / len(pool)
        return out

    def deck(self, prefix: tuple[str, ...]) -> tuple:
        """The event deck once ``prefix`` is decided: its last card on top (:func:`_fill_deck` below it).
        Remembered per ``prefix`` (many positions draw the same cards)."""
        got = self._decks.get(prefix)
        if got is None:
            got = self._decks[prefix] = tuple(self.cards[n] for n in _fill_deck(prefix, self.standard, self.nemesis,
                                                                                self.size - 1)
                                              [max(0, len(prefix) - 1):])
        return got

    def key(self, prefix: tuple[str, ...]):
        return tuple(sorted(prefix)), len(prefix), self._pile_has_nemesis(prefix)


@dataclass
class _Tally:
    """The forecast's totals, each a probability (:class:`~fractions.Fraction`); ``positions``: the distinct
    positions played."""

    lost: Fraction = Fraction(0)
    won: Fraction = Fraction(0)
    refused: Fraction = Fraction(0)
    reasons: dict | None = None
    threat: dict | None = None
    positions: int = 0

    def add(self, game: GameState, p: Fraction, refused: bool) -> None:
        self.reasons = self.reasons if self.reasons is not None else {}
        self.threat = self.threat if self.threat is not None else {}
        self.refused += p if refused else 0
        self.lost += p if game.lost else 0
        self.won += p if game.won else 0
        for r in game.lost:
            self.reasons[r] = self.reasons.get(r, Fraction(0)) + p
        self.threat[game.threat] = self.threat.get(game.threat, Fraction(0)) + p

    def forecast(self, draws: int, rounds: int) -> LossForecast:
        return LossForecast(self.lost, True, draws, rounds,
                            dict(sorted((self.reasons or {}).items(), key=lambda kv: -kv[1])), self.threat or {},
                            self.won, self.refused, True, positions=self.positions)


def _dice_key(dice) -> tuple:
    return dice.drawn, tuple(sorted(dice.cursor.items())), dice.seeded._rng.getstate()


def _dice_rolled(dice) -> tuple:
    """What a roll changes in ``dice`` (seeded draws, script cursors): equal before and after a play that rolled
    nothing."""
    return dice.drawn, tuple(dice.cursor.items())


def _copy_dice(dice):
    """A copy of a :class:`~explorer.dice.Dice` that rolls on exactly as ``dice`` would (its seeded generator's state,
    script cursors and count), without :func:`copy.deepcopy`'s cost."""
    import copy
    import random

    new = copy.copy(dice)
    new.cursor, new.scripts = dict(dice.cursor), dict(dice.scripts)
    new.seeded = copy.copy(dice.seeded)
    rng = random.Random.__new__(random.Random)      # not seeded: setstate sets all of it (seeding cost 2x)
    rng.setstate(dice.seeded._rng.getstate())
    new.seeded._rng = rng
    return new


def _round_by_round(sc, rounds: int, chosen: Mapping[str, str], draw, *,
                    side_orders: tuple[tuple[str, ...] | None, ...] = (None,), quiet: bool = True) -> _Tally:
    """Play ``sc``'s first ``rounds`` rounds over every draw of the event deck ``draw`` gives (:class:`_UniformDeck`,
    :class:`_SetupDeck`) and, with a ``[setup]``, every order of ``side_orders`` (the side mission deck's, equally
    likely; ``None``: the one the seed shuffles), merging alike positions at the end of each round; returns the
    :class:`_Tally` of the play-outs' ends, each weighted by its probability. ``quiet``: play the rounds with
    :func:`.round_scenario.quiet_context` (no step text)."""
    from explorer.errors import RuleViolation

    from .round_scenario import _begin, _over, play_hero_phase, play_nemesis_and_end, quiet_context

    tally = _Tally()
    dice_ids: dict[tuple, int] = {}     # a dice state (its 625-number generator state) -> a small id, hashed once
    one = replace(sc, rounds=sc.rounds[:rounds])
    # level: {merge key: [state, dice, prefix, probability]}
    level: dict = {}
    for i, order in enumerate(side_orders):
        frames, start, ctx = _begin(one, chosen, None, order)
        level[i] = [frames[-1].state if frames else start, ctx.dice, (), Fraction(1, len(side_orders))]
    if quiet:
        ctx = quiet_context(ctx)
    for r in range(rounds):
        nxt: dict = {}
        for state, dice, prefix, p in level.values():
            tally.positions += 1
            hctx = replace(ctx, dice=_copy_dice(dice))
            got, refusal = play_hero_phase(state, hctx)
            end = got[-1].state if got else state
            if refusal is not None or _over(end):
                tally.add(end.game, p, refusal is not None)
                continue
            choices = draw.next_cards(prefix) or {None: Fraction(1)}
            # The Nemesis Phase and the End of Round roll no dice (checked after each play): every card's play
            # shares the Hero Phase's dice, and their state is keyed once for all of them.
            rolled = _dice_rolled(hctx.dice)
            dice_id = dice_ids.setdefault(_dice_key(hctx.dice), len(dice_ids)) if r < rounds - 1 else None
            for card, q in choices.items():
                after = prefix + (card,) if card is not None else prefix
                here = replace(end, game=end.game.evolve(event_deck=draw.deck(after) if card is not None else ()))
                try:
                    got2, refusal2 = play_nemesis_and_end(here, hctx)
                except ScenarioError as e:          # a [[rounds.nemesis]] point this draw never reaches
                    if isinstance(e, RuleViolation):
                        raise
                    tally.add(here.game, p * q, True)
                    continue
                if _dice_rolled(hctx.dice) != rolled:
                    raise RuntimeError("the Nemesis Phase rolled dice: the forecast shares one Hero Phase's dice "
                                       "among the event cards and cannot")
                fin = got2[-1].state if got2 else here
                if refusal2 is not None or _over(fin) or r == rounds - 1:
                    tally.add(fin.game, p * q, refusal2 is not None)
                    continue
                g = fin.game
                key = (replace(fin, done=(), setup=None, game=g.evolve(event_deck=(), discard=tuple(sorted(
                    g.discard, key=lambda c: c.name)))), draw.key(after), dice_id)
                if key in nxt:
                    nxt[key][3] += p * q
                else:
                    nxt[key] = [fin, hctx.dice, after, p * q]   # copied before its next Hero Phase
        level = nxt
        if not level:
            break
    return tally


def planned_rounds_within(sc, rounds: int, max_exact: int = MAX_PLAYOUTS) -> int:
    """The most rounds, 0..``rounds``, that :func:`planned_forecast` of the ``round`` scenario ``sc`` plays out
    exactly within ``max_exact`` (it refuses more): the same counts it checks (Setup's deals of the top event
    cards, else the ordered draws of the file's event deck). Used by the forecast's hint, which must not offer a
    ``--phases`` it would refuse."""
    return next((k for k in range(rounds, 0, -1) if _exact_playouts(sc, k) <= max_exact), 0)


def _exact_playouts(sc, rounds: int) -> int:
    """How many deals :func:`planned_forecast` plays out for ``rounds`` rounds of ``sc`` (before its bound): Setup's
    deals of the top event cards (a file with ``[setup]``), else the ordered draws of the file's event deck."""
    su = getattr(sc, "setup", None)
    if su is not None:
        return setup_deal_count(len(su.standard_events), len(su.nemesis_events), min(rounds, 3 * 4))
    deck = sc.board.state.event_deck
    return perm(len(deck), min(rounds, len(deck))) if deck else 1


def side_mission_draws(rounds: int) -> int:
    """The most side missions Setup and ``rounds`` rounds can draw from the side mission deck: 1 for the 1st strike's
    Setup, then per Nemesis Phase 1 in step 2 (a nemesis mission completed, or the 1st strike with ruling
    ``first_strike_side_mission`` = ``yes``) and 1 in step 3 (every event spawns one). Nemesis Phase › 2. Check
    Nemesis Mission, 3. Resolve Event Cards; Setup."""
    return 1 + 2 * rounds


def _setup_forecast(sc, rounds: int, chosen: Mapping[str, str], max_exact: int, quiet: bool = True) -> LossForecast:
    """:func:`planned_forecast` for a file with ``[setup]``: exact over the top ``rounds`` cards of the event deck
    Setup deals (:class:`_SetupDeck`, the chances :func:`setup_deals` lists; at most ``max_exact`` of them) and, when
    the deals times the orders stay within ``max_exact``, over the orders of the top :func:`side_mission_draws` cards of the shuffled side
    mission deck (every order equally likely, independent of the event deal; the cards below are never drawn); else
    the side mission deck is the one the file's seed shuffled (``side_orders`` 0: the text says so). The 1st strike's
    spawns are fixed by the file (no chance)."""
    from .round_scenario import _begin

    su = sc.setup
    _frames, start, _ctx = _begin(sc, chosen, None)
    draw = _SetupDeck({c.name: c for c in start.game.event_deck}, su.standard_events, su.nemesis_events)
    deals = _exact_playouts(sc, rounds)
    if deals > max_exact:
        raise ScenarioError("phases", f"{deals:,} Setup deals of the top {plural(min(rounds, 12), 'event card')} are "
                            "too many for the exact forecast", f"at most {max_exact:,} (its bound): fewer rounds")
    side = su.side_deck
    top = min(len(side), side_mission_draws(rounds))
    orders: list[tuple[str, ...] | None] = [None]
    if side and deals * perm(len(side), top) <= max_exact:
        orders = [tuple(side[i] for i in idx) + tuple(side[j] for j in range(len(side)) if j not in idx)
                  for idx in permutations(range(len(side)), top)]
    tally = _round_by_round(sc, rounds, chosen, draw, side_orders=tuple(orders), quiet=quiet)
    exact_side = orders != [None]
    f = tally.forecast(deals, rounds)
    return replace(f, dealt=True, side_orders=len(orders) if exact_side else 0, side_top=top if exact_side else 0)


def setup_deal_count(standard: int, nemesis: int, top: int, per_pile: int = 3) -> int:
    """How many different top ``top`` cards (in order) Setup can deal from ``standard`` standard and ``nemesis``
    nemesis events (the number of keys :func:`setup_deals` returns, counted without listing them)."""
    size = per_pile + 1
    memo: dict = {}

    def go(j: int, used_std: int, used_nem: int, pile_has: bool) -> int:
        if j == top:
            return 1
        key = (j, used_std, used_nem, pile_has)
        if key not in memo:
            pile_start = j % size == 0
            has = False if pile_start else pile_has
            total = 0
            if not has and used_nem < nemesis:
                total += (nemesis - used_nem) * go(j + 1, used_std, used_nem + 1, True)
            can_std = has or (size - (j % size)) > 1      # the pile's last card is its nemesis event if not yet out
            if can_std and used_std < standard:
                total += (standard - used_std) * go(j + 1, used_std + 1, used_nem, has)
            memo[key] = total
        return memo[key]

    return go(0, 0, 0, False)


def phases_words(first_round: int, phases: int) -> str:
    """Which Nemesis Phases a forecast covers, by round: ``"the Nemesis Phase of round 2"`` or ``"the Nemesis Phases
    of rounds 1-3"`` (each phase is followed by End of Round, so ``phases`` phases end round ``first + phases - 1``)."""
    if phases == 1:
        return f"the Nemesis Phase of round {first_round}"
    return f"the Nemesis Phases of rounds {first_round}-{first_round + phases - 1}"


def forecast_text(f: LossForecast, start: GameState, scenario_phases: int = 1, after_heroes: bool = False,
                  planned: bool = False, reachable: int | None = None) -> str:
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
    most = min(scenario_phases, MAX_PHASES, reachable if reachable is not None else MAX_PHASES)
    if scenario_phases > k and most > k:
        lines.append(f"  the scenario plays {phases_words(r, scenario_phases)}; --phases {most} forecasts "
                     + ("them all" if most == scenario_phases else f"the first {most}")
                     + (f" (more are over the exact forecast's bound of {MAX_PLAYOUTS:,} play-outs)"
                        if reachable is not None and reachable < min(scenario_phases, MAX_PHASES) else ""))
    elif scenario_phases > k:
        lines.append(f"  the scenario plays {phases_words(r, scenario_phases)}; more rounds are over the exact "
                     f"forecast's bound of {MAX_PLAYOUTS:,} play-outs")
    return "\n".join(lines)
