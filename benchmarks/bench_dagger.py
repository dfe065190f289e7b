"""Benchmark: Marvel D.A.G.G.E.R. Nemesis Phases played out from one position, many times, to give the loss
probability of the next round (Nemesis Phase, End of Round, Winning and Losing).

Each play-out shuffles the event deck with its own seed (``seed = 0..N-1``) and plays one Nemesis Phase and the End of
Round through the engine's step functions (:func:`explorer.games.dagger.nemesis.play_phase`): the states are immutable
values, so every frame of the play-out (what a stepper needs for "back") shares structure with the one before it.

The baseline, measured in the same run on the first seeds, is the naive way to keep that history with a mutable
state: deep-copy the starting position for every play-out and deep-copy the state at every step
(``copy.deepcopy``). Both must agree on every play-out's final state (checked; a mismatch prints MISMATCH and exits 1).

Usage::

    python benchmarks/bench_dagger.py [--phases 10000] [--baseline 300] [--scenario dg-three-rounds] [--threat 14]
                                      [--quick]

The default position is dg-three-rounds' board in the Final Showdown at threat 14 (about half the event orders
reach threat 20 this round).

Times are wall clock and process CPU time (``time.process_time``: what a shared, loaded machine distorts least).

``--quick`` (the test suite's mode): 200 play-outs, 20 for the baseline; prints the same lines.

Second part, the planned-round forecast (``explorer dagger forecast`` on a ``round`` file): ``--planned-rounds N``
(default 3; ``--quick``: 2) rounds of ``--planned dg-five-rounds`` (Setup, then planned rounds) computed round by
round with alike positions merged (:func:`explorer.games.dagger.forecast.planned_forecast`) against the earlier way,
measured in the same run: every Setup deal of the top N event cards times every order of the side mission deck's
top cards, all N rounds played from the start for each (the old path, which refused above 5,040 play-outs; here
without that bound). Both must give the same probabilities (a mismatch prints MISMATCH and exits 1).

Third part, quiet play (``--quiet-rounds 3,4``; ``--quick``: 2): the same planned forecast played quiet (the
default: :attr:`explorer.kernel.Context.quiet`, no step text built) against loud (``quiet=False``: every step's
title, detail and facts built as a trace would), measured in the same run, alternated (loud, quiet) per round count.
The two must be equal in every field (probabilities, reasons, threat, positions; a mismatch prints MISMATCH and exits
1).

Fourth part, the round-by-round loop's own costs (``--loop-rounds 3``; ``--quick``: 2; ``0`` skips it; the issue's
case is ``--loop-rounds 4``, about 30 s before): :func:`explorer.games.dagger.forecast.planned_forecast` as it is
against its loop as it was before session 12 (:func:`loop_before`, kept here verbatim as the baseline: a copy of the
dice for every event card's Nemesis Phase, the dice state hashed into every merge key, the event deck rebuilt for
every card, the dice's generator seeded before its state is set), measured in the same run, alternated (before,
after). The two must give equal forecasts (every field; a mismatch prints MISMATCH and exits 1).
"""

from __future__ import annotations

import argparse
import copy
import sys
import time
from collections import Counter
from dataclasses import replace
from itertools import permutations
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from explorer.games import get_game  # noqa: E402
from explorer.games.dagger.forecast import loss_forecast  # noqa: E402
from explorer.games.dagger.nemesis import PhaseContext, play_phase  # noqa: E402
from explorer.games.dagger.nemesis_scenario import initial_state  # noqa: E402
from explorer.games.dagger.options import rulings  # noqa: E402


def position(scenario_id: str = "dg-three-rounds", threat: int | None = 14):
    """The benchmark's position: the built-in scenario's board; with ``threat``, moved into the Final Showdown (no
    nemesis mission left, so step 2 cannot reset the track) at that threat, where the event order decides whether
    the track reaches 20 this round."""
    from dataclasses import replace

    sc = get_game("dagger").load_builtin(scenario_id)[1]
    if threat is None:
        return sc
    return replace(sc, state=replace(sc.state, threat=threat, nemesis_deck=(), showdown=True))


def starts(scenario, n: int):
    """The ``n`` seeded starting states (event deck shuffled by seed 0..n-1)."""
    from dataclasses import replace

    sc = replace(scenario, shuffle_events=True)
    return [initial_state(sc, seed=i) for i in range(n)]


def play_fast(scenario, states):
    """One phase per start through the step functions: ``[(final state, frame count)]``."""
    out = []
    for st in states:
        ctx = PhaseContext(world=scenario.world, rulings=rulings(scenario.rulings), choices=scenario.choices)
        frames = play_phase(st, ctx)
        out.append((frames[-1].state if frames else st, len(frames)))
    return out


def play_deepcopy(scenario, states):
    """The naive baseline: deep-copy the start, then deep-copy the state after every step (the history a mutable
    stepper keeps for "back")."""
    out = []
    for st in states:
        ctx = PhaseContext(world=scenario.world, rulings=rulings(scenario.rulings), choices=scenario.choices)
        frames = play_phase(copy.deepcopy(st), ctx)
        history = [copy.deepcopy(f.state) for f in frames]
        out.append((history[-1] if history else st, len(history)))
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--phases", type=int, default=10_000)
    ap.add_argument("--baseline", type=int, default=300, help="play-outs measured with the deep-copy baseline")
    ap.add_argument("--scenario", default="dg-three-rounds")
    ap.add_argument("--threat", type=int, default=14, help="threat of the Final Showdown position; -1: the "
                    "scenario as it is")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--planned", default="dg-five-rounds", help="round scenario for the planned-forecast part")
    ap.add_argument("--planned-rounds", type=int, default=3, help="0: skip the second part")
    ap.add_argument("--quiet-rounds", default="3,4", help="round counts of the quiet-against-loud part "
                    "(comma-separated; empty: skip it)")
    ap.add_argument("--loop-rounds", type=int, default=3, help="rounds of the loop-before-and-after part (0: skip)")
    a = ap.parse_args(argv)
    n, nb = (200, 20) if a.quick else (a.phases, min(a.baseline, a.phases))
    scenario = position(a.scenario, None if a.threat < 0 else a.threat)
    where = "as it is" if a.threat < 0 else f"in the Final Showdown at threat {a.threat}"
    print(f"position: {a.scenario}'s board {where}; {len(scenario.state.event_deck)} event cards, shuffled per seed")
    states = starts(scenario, n)

    t0, c0 = time.perf_counter(), time.process_time()
    fast = play_fast(scenario, states)
    t_fast, c_fast = time.perf_counter() - t0, time.process_time() - c0
    t0, c0 = time.perf_counter(), time.process_time()
    base = play_deepcopy(scenario, states[:nb])
    t_base, c_base = time.perf_counter() - t0, time.process_time() - c0

    bad = [i for i in range(nb) if fast[i][0] != base[i][0] or fast[i][1] != base[i][1]]
    if bad:
        print(f"MISMATCH: step functions and deep-copy baseline differ for seeds {bad[:10]}")
        return 1
    print(f"step functions == deep-copy baseline on all {nb} shared seeds (final state and frame count)")

    lost = Counter(r for st, _ in fast for r in st.lost)
    n_lost = sum(1 for st, _ in fast if st.lost)
    threat = Counter(st.threat for st, _ in fast)
    frames = sum(k for _, k in fast)
    print(f"{n} Nemesis Phases: loss probability next round {n_lost / n:.4f} ({n_lost}/{n})"
          + "".join(f"; {r}: {c}" for r, c in lost.most_common()))
    orders = [replace(scenario.state, event_deck=d) for d in dict.fromkeys(permutations(scenario.state.event_deck))]
    exact = sum(1 for st, _ in play_fast(scenario, orders) if st.lost) / len(orders)
    err = 4 * (exact * (1 - exact) / n) ** 0.5 + 1e-9
    ok = abs(n_lost / n - exact) <= err
    print(f"exact over all {len(orders)} event orders: {exact:.4f}; seeded estimate within 4 sigma: "
          f"{'yes' if ok else 'MISMATCH'}")
    if not ok:
        return 1
    t0 = time.perf_counter()
    fc = loss_forecast(scenario, 1, scenario.rulings, state=scenario.state)
    t_fc = time.perf_counter() - t0
    print(f"exact forecast (forecast.loss_forecast: only the top card matters for one phase): {fc.draws} play-outs, "
          f"{t_fc * 1e3:.1f} ms, p = {float(fc.p_loss):.4f}: {'agrees' if fc.p_loss == exact else 'MISMATCH'}")
    if fc.p_loss != exact:
        return 1
    print("threat after the round: " + ", ".join(f"{t}: {c / n:.3f}" for t, c in sorted(threat.items())))
    per_fast = t_fast / n
    per_base = t_base / nb
    print(f"step functions: {t_fast:.2f} s wall ({c_fast:.2f} s CPU) for {n} phases ({frames} frames), "
          f"{per_fast * 1e3:.3f} ms per phase")
    print(f"deep-copy baseline: {t_base:.2f} s wall ({c_base:.2f} s CPU) for {nb} phases, {per_base * 1e3:.3f} ms "
          "per phase")
    print(f"speed-up per phase (baseline / step functions, same run): {per_base / per_fast:.1f}x wall, "
          f"{(c_base / nb) / (c_fast / n):.1f}x CPU")
    rc = planned(a.planned, 2 if a.quick else a.planned_rounds) if a.quick or a.planned_rounds else 0
    counts = [2] if a.quick else [int(x) for x in a.quiet_rounds.split(",") if x.strip()]
    rc = rc or quiet_against_loud(a.planned, counts)
    loop = 2 if a.quick else a.loop_rounds
    return rc or (loop_before_and_after(a.planned, loop) if loop else 0)


def _copy_dice_before(dice):
    """:func:`explorer.games.dagger.forecast._copy_dice` before session 12 (the generator seeded, then set)."""
    import random

    new = copy.copy(dice)
    new.cursor, new.scripts = dict(dice.cursor), dict(dice.scripts)
    new.seeded = copy.copy(dice.seeded)
    rng = random.Random(0)
    rng.setstate(dice.seeded._rng.getstate())
    new.seeded._rng = rng
    return new


def _deck_before(draw, after):
    """The event deck for ``after``, rebuilt every time (the draws' ``deck`` before session 12, not remembered)."""
    from explorer.games.dagger.forecast import _fill_deck, _UniformDeck

    if isinstance(draw, _UniformDeck):
        top = (draw.cards[after[-1]],) if after else ()
        return top + tuple(c for i, c in enumerate(draw.cards) if i not in after)
    return tuple(draw.cards[n] for n in _fill_deck(after, draw.standard, draw.nemesis, draw.size - 1)
                 [max(0, len(after) - 1):])


def loop_before(sc, rounds, chosen, draw, *, side_orders=(None,), quiet=True):
    """``forecast._round_by_round`` as it was before session 12, verbatim but for the two helpers above (the
    baseline of :func:`loop_before_and_after`)."""
    from fractions import Fraction

    from explorer.errors import RuleViolation, ScenarioError
    from explorer.games.dagger.forecast import _dice_key, _Tally
    from explorer.games.dagger.round_scenario import _begin, _over, play_hero_phase, play_nemesis_and_end, \
        quiet_context

    tally = _Tally()
    one = replace(sc, rounds=sc.rounds[:rounds])
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
            hctx = replace(ctx, dice=_copy_dice_before(dice))
            got, refusal = play_hero_phase(state, hctx)
            end = got[-1].state if got else state
            if refusal is not None or _over(end):
                tally.add(end.game, p, refusal is not None)
                continue
            choices = draw.next_cards(prefix) or {None: Fraction(1)}
            for card, q in choices.items():
                after = prefix + (card,) if card is not None else prefix
                here = replace(end, game=end.game.evolve(event_deck=_deck_before(draw, after) if card is not None
                                                         else ()))
                nctx = replace(ctx, dice=_copy_dice_before(hctx.dice))
                try:
                    got2, refusal2 = play_nemesis_and_end(here, nctx)
                except ScenarioError as e:
                    if isinstance(e, RuleViolation):
                        raise
                    tally.add(here.game, p * q, True)
                    continue
                fin = got2[-1].state if got2 else here
                if refusal2 is not None or _over(fin) or r == rounds - 1:
                    tally.add(fin.game, p * q, refusal2 is not None)
                    continue
                g = fin.game
                key = (replace(fin, done=(), setup=None, game=g.evolve(event_deck=(), discard=tuple(sorted(
                    g.discard, key=lambda c: c.name)))), draw.key(after), _dice_key(nctx.dice))
                if key in nxt:
                    nxt[key][3] += p * q
                else:
                    nxt[key] = [fin, nctx.dice, after, p * q]
        level = nxt
        if not level:
            break
    return tally


def loop_before_and_after(scenario_id: str, rounds: int) -> int:
    """The planned forecast of ``scenario_id`` over ``rounds`` rounds with the loop before session 12
    (:func:`loop_before`) and as it is, in the same run, alternated (before, after)."""
    import os

    import explorer.games.dagger.forecast as F

    sc = get_game("dagger").load_builtin(scenario_id)[1]
    now = F._round_by_round
    times, got = {}, {}
    for name, loop in (("before", loop_before), ("after", now)):
        F._round_by_round = loop
        try:
            t0, c0 = time.perf_counter(), time.process_time()
            got[name] = F.planned_forecast(sc, rounds)
            times[name] = (time.perf_counter() - t0, time.process_time() - c0)
        finally:
            F._round_by_round = now
    same = got["before"] == got["after"]
    (bw, bc), (aw, ac) = times["before"], times["after"]
    print(f"forecast loop before and after session 12, {scenario_id}, {rounds} rounds "
          f"({got['after'].positions:,} positions, P(lose) = {float(got['after'].p_loss):.5f}; load average "
          f"{os.getloadavg()[0]:.1f}): before {bw:.2f} s wall ({bc:.2f} s CPU), after {aw:.2f} s wall ({ac:.2f} s "
          f"CPU); ratio before / after {bw / aw:.2f}x wall, {bc / ac:.2f}x CPU; "
          + ("same forecast" if same else "MISMATCH"))
    return 0 if same else 1


def planned_by_playouts(sc, rounds: int):
    """The old planned forecast of a file with ``[setup]``: every deal x every side order, played from the start."""
    from fractions import Fraction

    from explorer.games.dagger.forecast import _fill_deck, setup_deals, side_mission_draws
    from explorer.games.dagger.round_scenario import play_rounds

    su = sc.setup
    deals = setup_deals(su.standard_events, su.nemesis_events, rounds)
    side = su.side_deck
    top = min(len(side), side_mission_draws(rounds))
    orders = [tuple(side[i] for i in idx) + tuple(side[j] for j in range(len(side)) if j not in idx)
              for idx in permutations(range(len(side)), top)]
    one = replace(sc, rounds=sc.rounds[:rounds])
    lost, threat = Fraction(0), {}
    for prefix, p in deals.items():
        deck = _fill_deck(prefix, su.standard_events, su.nemesis_events)
        for order in orders:
            frames, _refusal, first, _ctx = play_rounds(one, dealt=deck, side_dealt=order)
            end = frames[-1].state.game if frames else first.game
            w = p / len(orders)
            lost += w if end.lost else 0
            threat[end.threat] = threat.get(end.threat, 0) + w
    return lost, threat, len(deals) * len(orders)


def planned(scenario_id: str, rounds: int) -> int:
    from explorer.games.dagger.forecast import planned_forecast

    sc = get_game("dagger").load_builtin(scenario_id)[1]
    t0, c0 = time.perf_counter(), time.process_time()
    f = planned_forecast(sc, rounds)
    t_new, c_new = time.perf_counter() - t0, time.process_time() - c0
    t0, c0 = time.perf_counter(), time.process_time()
    lost, threat, playouts = planned_by_playouts(sc, rounds)
    t_old, c_old = time.perf_counter() - t0, time.process_time() - c0
    same = f.p_loss == lost and dict(f.threat) == threat
    print(f"planned forecast, {scenario_id}, {rounds} rounds: {playouts} play-outs ({f.draws} Setup deals x "
          f"{f.side_orders or 1} side orders); round by round {f.positions} positions played")
    print(f"  P(lose by the end of round {rounds}) = {float(f.p_loss):.5f}: "
          + ("old path agrees" if same else "MISMATCH with the old path"))
    print(f"  round by round: {t_new:.2f} s wall ({c_new:.2f} s CPU); old path (every play-out from the start): "
          f"{t_old:.2f} s wall ({c_old:.2f} s CPU)")
    print(f"  speed-up (old / round by round, same run): {t_old / t_new:.1f}x wall, {c_old / c_new:.1f}x CPU")
    return 0 if same else 1


def quiet_against_loud(scenario_id: str, counts: list[int]) -> int:
    """The planned forecast of ``scenario_id`` over each of ``counts`` rounds, loud then quiet in the same run."""
    import os

    from explorer.games.dagger.forecast import planned_forecast

    sc = get_game("dagger").load_builtin(scenario_id)[1]
    print(f"quiet play against loud, planned forecast of {scenario_id} (load average at start "
          f"{os.getloadavg()[0]:.1f})")
    for n in counts:
        times = {}
        got = {}
        for quiet in (False, True):
            t0, c0 = time.perf_counter(), time.process_time()
            got[quiet] = planned_forecast(sc, n, quiet=quiet)
            times[quiet] = (time.perf_counter() - t0, time.process_time() - c0)
        same = got[True] == got[False]
        (lw, lc), (qw, qc) = times[False], times[True]
        print(f"  {n} rounds ({got[True].positions:,} positions, P(lose) = {got[True].p_loss}): loud {lw:.2f} s wall "
              f"({lc:.2f} s CPU), quiet {qw:.2f} s wall ({qc:.2f} s CPU); ratio loud / quiet {lw / qw:.2f}x wall, "
              f"{lc / qc:.2f}x CPU; " + ("same forecast" if same else "MISMATCH"))
        if not same:
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
