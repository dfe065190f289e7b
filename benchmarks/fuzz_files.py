"""Seeded fuzz run: hostile files for every file format, each loaded and used the way the explorer does.

Run:  PYTHONPATH=$PWD python benchmarks/fuzz_files.py                 (20,000 files, seed 7; several minutes)
      PYTHONPATH=$PWD python benchmarks/fuzz_files.py --count 2000 --seed 3

The formats, their loaders and the mutations are those of the property test (``tests/test_hostile_files.py``:
``FORMATS``, ``mutate``, ``run_one``), so a format registered there is fuzzed here too. Files go round-robin over
the formats; each is written to a temporary directory and loaded through the loading gate.

Prints the count, the seed, the outcomes per format (a result / a one-line error / a traceback), every traceback
(must be 0) and every run over ``TIME_BOUND`` = 5 s of CPU time (must be 0; wall time over 5 s is counted too, for
information, since other processes share the machine), then the slowest files. Exit status 1 if tracebacks or CPU
runs over the bound are not 0. ``tests/test_hostile_files.py`` runs a 300-file slice of it.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field

_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(_HERE, ".."))
sys.path.insert(0, os.path.join(_HERE, "..", "tests"))

from test_hostile_files import FORMATS, TIME_BOUND, mutate, run_one, write_file  # noqa: E402


@dataclass
class Report:
    """The outcome of a fuzz run: ``by_format[name]`` counts ``ok`` / ``error`` / ``traceback``; ``tracebacks`` and
    ``slow`` list ``(index, format, seconds, detail, first bytes)``; ``slowest`` the ten slowest files."""

    count: int = 0
    seed: int = 0
    by_format: dict[str, Counter] = field(default_factory=dict)
    tracebacks: list[tuple] = field(default_factory=list)
    slow: list[tuple] = field(default_factory=list)
    slowest: list[tuple] = field(default_factory=list)
    slow_wall: list[tuple] = field(default_factory=list)
    seconds: float = 0.0


def fuzz(count: int = 20_000, seed: int = 7, progress: bool = False) -> Report:
    """Generate and run ``count`` hostile files from ``seed`` (the same files for the same seed and formats)."""
    rng = random.Random(seed)
    rep = Report(count=count, seed=seed, by_format={f.name: Counter() for f in FORMATS})
    t0 = time.perf_counter()
    timings: list[tuple] = []
    with tempfile.TemporaryDirectory() as d:
        for i in range(count):
            fmt = FORMATS[i % len(FORMATS)]
            data = mutate(random.Random(rng.getrandbits(64)), fmt)
            out = run_one(fmt, write_file(d, data))
            rep.by_format[fmt.name][out.kind] += 1
            row = (i, fmt.name, round(out.seconds, 3), out.detail, data[:200])
            if out.kind == "traceback":
                rep.tracebacks.append(row)
            if out.seconds >= TIME_BOUND:
                rep.slow.append(row)
            if out.wall >= TIME_BOUND:
                rep.slow_wall.append(row)
            timings.append((out.seconds, i, fmt.name, out.kind, len(data), out.wall))
            if progress and (i + 1) % 1000 == 0:
                print(f"  {i + 1} files, {len(rep.tracebacks)} tracebacks, {len(rep.slow)} over {TIME_BOUND:g} s, "
                      f"{time.perf_counter() - t0:.0f} s", flush=True)
    rep.slowest = sorted(timings, reverse=True)[:10]
    rep.seconds = time.perf_counter() - t0
    return rep


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=20_000)
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()
    print(f"fuzz: {args.count} files, seed {args.seed}, formats: {', '.join(f.name for f in FORMATS)}", flush=True)
    rep = fuzz(args.count, args.seed, progress=True)
    print(f"count: {rep.count}  seed: {rep.seed}  time: {rep.seconds:.0f} s")
    for name, c in rep.by_format.items():
        print(f"  {name:<20} result {c['ok']:>6}  one-line error {c['error']:>6}  traceback {c['traceback']:>4}")
    print(f"tracebacks: {len(rep.tracebacks)}")
    for i, name, s, detail, head in rep.tracebacks[:20]:
        print(f"--- file {i} ({name}, {s} s), starts {head!r}\n{detail}")
    print(f"runs over {TIME_BOUND:g} s (CPU time): {len(rep.slow)}")
    for i, name, s, _, head in rep.slow[:20]:
        print(f"  file {i} ({name}): {s} s, starts {head!r}")
    print(f"runs over {TIME_BOUND:g} s of wall time (informational: other processes share the machine): "
          f"{len(rep.slow_wall)}")
    print("slowest (CPU): " + ", ".join(f"{s:.2f} s, wall {w:.2f} s ({name}, {kind}, {n:,} bytes)"
                                        for s, _, name, kind, n, w in rep.slowest))
    return 1 if rep.tracebacks or rep.slow else 0


if __name__ == "__main__":
    sys.exit(main())
