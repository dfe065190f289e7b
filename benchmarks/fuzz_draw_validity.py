"""Validity never depends on a draw (issue #25 item 4): every built-in whose resolution draws, cut into variants
that leave a draw to the seed, resolved with seed A, seed B and no seed; the three verdicts must agree.

Run:  PYTHONPATH=$PWD python benchmarks/fuzz_draw_validity.py                    (every variant, seeds 1 and 2)
      PYTHONPATH=$PWD python benchmarks/fuzz_draw_validity.py --seeds 5 --game dagger
      PYTHONPATH=$PWD python benchmarks/fuzz_draw_validity.py --sample 300 --rng 7   (a seeded sample)

The variants and the verdicts are those of ``tests/draw_variants.py`` (``all_variants``, ``disagreement``): a draw
field (dice list, deck order, card, Strategy Roll faces, successes) left out, cut to each shorter prefix, its first
item dropped, or one item longer. For each variant and each of ``--seeds`` seeds s = 1..N, the verdict ("accepted"
or the one-line refusal) with seed s, seed s + 1 and no seed at all (the file's ``seed`` line removed) must be the
same, never a traceback, and a refusal must name the file. ``tests/test_validity_without_draws.py`` runs a
hypothesis slice of the same variants (a few per game).

Prints per game the variants, how many were accepted / refused, the CPU time, and every disagreement; exit status 1
if there is one. Results are in ``benchmarks/README.md``.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections import Counter

_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(_HERE, ".."))
sys.path.insert(0, os.path.join(_HERE, "..", "tests"))

from draw_variants import DRAW_KINDS, all_variants, verdicts  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", choices=sorted(DRAW_KINDS), action="append", help="only these games (repeatable)")
    ap.add_argument("--seeds", type=int, default=1, help="seed pairs per variant (s, s + 1 for s = 1..N)")
    ap.add_argument("--sample", type=int, default=0, help="a random sample of this many variants per game (0: all)")
    ap.add_argument("--rng", type=int, default=1, help="the sample's seed")
    args = ap.parse_args(argv)
    faults = []
    for game in args.game or list(DRAW_KINDS):
        vs = all_variants(game)
        if args.sample and args.sample < len(vs):
            vs = random.Random(args.rng).sample(vs, args.sample)
        t0 = time.process_time()
        outcome: Counter = Counter()
        for v in vs:
            text = v.text()
            for s in range(1, args.seeds + 1):
                got = verdicts(text, s * 1000)
                bad = [k for k, x in got.items() if x.startswith("crashed") or "\n" in x
                       or (x.startswith("refused") and "v.toml" not in x)]
                if len(set(got.values())) != 1 or bad:
                    outcome["disagree"] += 1
                    faults.append(f"{game} {v.label()} (seeds {s * 1000}, {s * 1000 + 1}, none):\n"
                                  + "\n".join(f"    {k}: {x[:300]}" for k, x in got.items()))
                else:
                    outcome[got["seed A"].split(":")[0]] += 1
        dt = time.process_time() - t0
        print(f"{game}: {len(vs)} variants x {args.seeds} seed(s): {dict(outcome)}; {dt:.1f} s CPU", flush=True)
    print(f"disagreements: {len(faults)}")
    for f in faults:
        print(f)
    return 1 if faults else 0


if __name__ == "__main__":
    sys.exit(main())
