"""Seeded fuzz run: hostile files for every file format, each loaded and used the way the explorer does.

Run:  PYTHONPATH=$PWD python benchmarks/fuzz_files.py                 (20,000 files, seed 7; several minutes)
      PYTHONPATH=$PWD python benchmarks/fuzz_files.py --count 2000 --seed 3
      PYTHONPATH=$PWD python benchmarks/fuzz_files.py --seed 11 --only 1006 --save /tmp   (one file of a run, alone)

The formats, their loaders and the mutations are those of the property test (``tests/test_hostile_files.py``:
``FORMATS``, ``mutate``, ``run_one``), so a format registered there is fuzzed here too. Files go round-robin over
the formats; each is written to a temporary directory and loaded through the loading gate.

Prints the count, the seed, the outcomes per format (a result / a one-line error / a traceback), every traceback
(must be 0) and every run over ``TIME_BOUND`` = 5 s of CPU time (must be 0; wall time over 5 s is counted too, for
information, since other processes share the machine), then the slowest files. Exit status 1 if tracebacks or CPU
runs over the bound are not 0. ``tests/test_hostile_files.py`` runs a 300-file slice of it.

``--file-timeout S`` (default 60 s of wall time) stops a file that takes longer, generating or loading it, prints
where it was and counts it as over the bound, so one stalled file cannot stall the run. Every loader is imported
before the first file (so import time is not charged to file 0, and an alarm never lands inside an import).
``--no-gate-shapes`` draws files as the generator did before its loading-gate shapes (long dotted keys and table
names of up to 40,000 parts, deep inline tables, wide tables, long arrays, strings and keys; issue #25), to reproduce
an older run. ``--only INDEX... [--save DIR]`` regenerates given files of a run from the seed's rng sequence alone (the files before
them are neither generated nor loaded) and runs only those, writing them to DIR.

Runs with the loading-gate shapes (``gate_shapes``, 1 file in 8; 2026-12-02):
  --count 20000 --seed 20261203 (10 formats, ``nice -n 19``, load average 10-11 from 8 other jobs on the 2 cores):
    0 tracebacks, 0 runs over 5 s of CPU (slowest 0.71 s CPU, a 950 KB board file), 3 over 5 s of wall time only
    (0.10-0.41 s of CPU each), 1457 s wall.
  --count 1200 --seed 2026120225: 0 tracebacks, 0 runs over 5 s of CPU (slowest 0.61 s CPU), 4 over 5 s of wall
    time only (the machine shared with 6 other sessions).

Last full runs (2026-12-01, this 2-core machine shared with other work, ``nice -n 10``):
  --count 20000 --seed 20261202, session 5's main (10 formats, round files included; the machine otherwise idle):
    0 tracebacks, 0 runs over 5 s (slowest 0.66 s CPU), about 15 % results and 85 % one-line errors, 190 s wall.
  --count 20000 --seed 20261201: 0 tracebacks, 0 runs over 5 s (slowest 1.06 s CPU, 2.63 s wall), 503 s wall.
  --count 20000 --seed 7 (the default), load average 7-12: 0 tracebacks, 0 runs over 5 s of CPU (slowest 1.04 s),
    2 over 5 s of wall time only (under 1.1 s of CPU each), 1161 s wall.
  --count 4000 --seed 11: 0 tracebacks, 0 runs over 5 s (slowest 0.74 s CPU), 190 s wall.
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import sys
import tempfile
import time
import traceback
from collections import Counter
from dataclasses import dataclass, field

_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(_HERE, ".."))
sys.path.insert(0, os.path.join(_HERE, "..", "tests"))

from test_hostile_files import FORMATS, TIME_BOUND, mutate, run_one, write_file  # noqa: E402


class FileTimeout(BaseException):
    """Raised by the per-file alarm (a BaseException, so that ``run_one``'s ``except Exception`` lets it through)."""


def _alarm(signum, frame):
    raise FileTimeout()


@dataclass
class Report:
    """The outcome of a fuzz run: ``by_format[name]`` counts ``ok`` / ``error`` / ``traceback``; ``tracebacks`` and
    ``slow`` list ``(index, format, seconds, detail, first bytes)``; ``slowest`` the ten slowest files;
    ``slow_wall`` the files over the bound in wall time, ``(index, format, CPU s, wall s, outcome, bytes)``."""

    count: int = 0
    seed: int = 0
    by_format: dict[str, Counter] = field(default_factory=dict)
    tracebacks: list[tuple] = field(default_factory=list)
    slow: list[tuple] = field(default_factory=list)
    slowest: list[tuple] = field(default_factory=list)
    slow_wall: list[tuple] = field(default_factory=list)
    timeouts: list[tuple] = field(default_factory=list)
    seconds: float = 0.0


def fuzz(count: int = 20_000, seed: int = 7, progress: bool = False, file_timeout: float = 0,
         only: set[int] | None = None, save_dir: str | None = None, formats: list | None = None,
         gate_shapes: bool = True) -> Report:
    """Generate and run ``count`` hostile files from ``seed`` (the same files for the same seed and formats).

    ``only``: run just these file indexes (each regenerated from the seed's rng sequence alone, the others neither
    generated nor loaded). ``save_dir``: also write each file run there, as ``<seed>-<index>-<format>.toml``.

    ``file_timeout`` > 0 (seconds of wall time, Unix main thread only) stops a file that takes longer, generating
    or loading it, and records ``(index, format, seconds, where it was)`` in ``timeouts`` (counted as slow too), so
    that one stalled file does not stall the run.

    ``formats``: the formats to cycle through (default: every format in ``FORMATS``); file ``i`` is of format
    ``formats[i % len(formats)]``, so a run is reproduced only with the formats it was made with.

    ``gate_shapes``: 1 file in 8 is a seed with a statement shaped against the loading gate's text bounds (long
    dotted keys and table names, deep inline tables, wide tables, long arrays, strings and keys: ``mutate``);
    ``False`` reproduces runs made before those shapes existed (2026-12-01 and earlier), file for file."""
    formats = list(FORMATS if formats is None else formats)
    rng = random.Random(seed)
    rep = Report(count=count, seed=seed, by_format={f.name: Counter() for f in formats})
    t0 = time.perf_counter()
    timings: list[tuple] = []
    with tempfile.TemporaryDirectory() as d:
        for fmt in formats:  # import every loader first: an alarm inside an import would leave a half-made module
            run_one(fmt, write_file(d, fmt.seeds[0].encode("utf-8")))
        for i in range(count):
            fmt = formats[i % len(formats)]
            file_rng = random.Random(rng.getrandbits(64))
            if only is not None and i not in only:
                continue
            if file_timeout > 0:
                old = signal.signal(signal.SIGALRM, _alarm)
                signal.setitimer(signal.ITIMER_REAL, file_timeout)
            t1 = time.perf_counter()
            try:
                data = mutate(file_rng, fmt, gate_shapes)
                if save_dir:
                    with open(os.path.join(save_dir, f"{seed}-{i}-{fmt.name}.toml"), "wb") as f:
                        f.write(data)
                out = run_one(fmt, write_file(d, data))
            except FileTimeout:
                where = "".join(traceback.format_exc(limit=-6).splitlines(keepends=True)[-14:])
                row = (i, fmt.name, round(time.perf_counter() - t1, 1), where, b"")
                rep.timeouts.append(row)
                rep.slow.append(row)
                rep.by_format[fmt.name]["timeout"] += 1
                if progress:
                    print(f"  file {i} ({fmt.name}) stopped after {file_timeout:g} s:\n{where}", flush=True)
                continue
            finally:
                if file_timeout > 0:
                    signal.setitimer(signal.ITIMER_REAL, 0)
                    signal.signal(signal.SIGALRM, old)
            rep.by_format[fmt.name][out.kind] += 1
            row = (i, fmt.name, round(out.seconds, 3), out.detail, data[:200])
            if out.kind == "traceback":
                rep.tracebacks.append(row)
            if out.seconds >= TIME_BOUND:
                rep.slow.append(row)
            if out.wall >= TIME_BOUND:
                rep.slow_wall.append((i, fmt.name, round(out.seconds, 3), round(out.wall, 3), out.kind, len(data)))
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
    ap.add_argument("--file-timeout", type=float, default=60.0,
                    help="stop a file after this many seconds of wall time and report where it was (0: never)")
    ap.add_argument("--only", type=int, nargs="+", metavar="INDEX",
                    help="run only these file indexes of the run (regenerated from the seed alone, the others skipped)")
    ap.add_argument("--save", metavar="DIR", help="also write every file run to DIR as <seed>-<index>-<format>.toml")
    ap.add_argument("--no-gate-shapes", action="store_true",
                    help="draw files as before the loading-gate shapes existed (to reproduce a run of 2026-12-01 or "
                         "earlier)")
    args = ap.parse_args()
    if args.only and max(args.only) >= args.count:
        ap.error(f"--only {max(args.only)}: a run of --count {args.count} has files 0 to {args.count - 1}")
    print(f"fuzz: {args.count} files, seed {args.seed}, file timeout {args.file_timeout:g} s, "
          f"formats: {', '.join(f.name for f in FORMATS)}", flush=True)
    rep = fuzz(args.count, args.seed, progress=True, file_timeout=args.file_timeout,
               only=set(args.only) if args.only else None, save_dir=args.save,
               gate_shapes=not args.no_gate_shapes)
    only = f"  (only files {', '.join(map(str, sorted(args.only)))})" if args.only else ""
    print(f"count: {rep.count}  seed: {rep.seed}  time: {rep.seconds:.0f} s{only}")
    for name, c in rep.by_format.items():
        print(f"  {name:<28} result {c['ok']:>6}  one-line error {c['error']:>6}  traceback {c['traceback']:>4}"
              f"  stopped {c['timeout']:>3}")
    print(f"tracebacks: {len(rep.tracebacks)}")
    for i, name, s, detail, head in rep.tracebacks[:20]:
        print(f"--- file {i} ({name}, {s} s), starts {head!r}\n{detail}")
    print(f"files stopped by the file timeout: {len(rep.timeouts)}")
    for i, name, s, where, _ in rep.timeouts[:20]:
        print(f"--- file {i} ({name}) stopped after {s} s in\n{where}")
    print(f"runs over {TIME_BOUND:g} s (CPU time, stopped files included): {len(rep.slow)}")
    for i, name, s, _, head in rep.slow[:20]:
        print(f"  file {i} ({name}): {s} s, starts {head!r}")
    print(f"runs over {TIME_BOUND:g} s of wall time (informational: other processes share the machine): "
          f"{len(rep.slow_wall)}")
    for i, name, s, w, kind, n in rep.slow_wall[:20]:
        print(f"  file {i} ({name}, {kind}, {n:,} bytes): wall {w} s, CPU {s} s")
    print("slowest (CPU): " + ", ".join(f"{s:.2f} s, wall {w:.2f} s ({name}, {kind}, {n:,} bytes)"
                                        for s, _, name, kind, n, w in rep.slowest))
    return 1 if rep.tracebacks or rep.slow else 0


if __name__ == "__main__":
    sys.exit(main())
