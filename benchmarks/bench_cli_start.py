"""Benchmark: CPU time of every command-line verb to its answer, bytecode cached, against ``python -c pass`` and
the same commands at ``--baseline-ref`` (default ``main``) measured in the same run, interleaved.

Run from the repository root::

    python benchmarks/bench_cli_start.py                       (median of 9 runs per command, against main)
    python benchmarks/bench_cli_start.py --baseline-ref 1d0bbcd  (against the last commit on typer 0.29)
    python benchmarks/bench_cli_start.py --quick                (1 run each, no baseline: correctness, for the tests)

Two kinds of rows:

* **start**: the command reaching its callback and returning at once, before computing anything — ``explorer
  --help``, ``explorer resolve --help``, ``explorer tagraid odds --help``.
* **whole**: the whole command, answer printed — ``explorer resolve`` of a built-in scenario of each game (a TAG Raid
  roll exchange and table, a Mass Effect map question, a Galaxy Defenders combat, a D.A.G.G.E.R. Nemesis Phase),
  ``explorer tagraid lof``, ``explorer render tr-22 --format svg`` and every odds/forecast verb.

Target (issue #12 for the start rows, issue #18 for every verb): under 150 ms of CPU, measured against ``python -c
pass`` in the same run: each row gives its CPU time above that bare ``python`` and says whether that is under 150 ms
(a bare interpreter's own start, 30 to 60 ms here depending on the load, is not the command's cost).
The latest numbers and what stands between a file-reading verb and the target: ``benchmarks/README.md``.

Each command runs as a fresh ``python -m explorer.cli ...`` subprocess, bytecode cached in a temporary
``PYTHONPYCACHEPREFIX`` after one warm-up run (as an installed package would be), which also fills the cache of
validated built-in scenarios (``EXPLORER_CACHE_DIR``, one per tree, as a user's first run fills theirs). The
baseline is the same commands on the ``explorer`` package as it was at ``--baseline-ref``, extracted with ``git
archive`` into a temporary directory (a row the baseline cannot run, e.g. a verb it does not have, has no baseline column). Every round runs every row once,
now and before in turn, floors included, so a change of machine load affects all alike; the 1-minute load average is
printed before and after. Wall time and CPU time (user + system of the process) are both reported: on a loaded
machine the wall time mostly measures the wait for a core, and the CPU time is what the command costs when a core is
free (the target is checked on it). Floors: a bare ``python``, ``import click`` (every verb), ``import pydantic``
and click with pydantic and one model class (every verb that reads a scenario file validates it with pydantic; the
first model class also imports ``importlib.metadata``, for pydantic's plugin entry points), typer's ``import
typer, typer._adapters`` when typer is installed, and ``import numpy`` and ``import shapely`` (every verb that computes
a Line of Fire: ``resolve`` of a TAG Raid table, ``tagraid lof``, ``render`` of a table), whose own CPU above a bare
``python`` says whether those verbs can meet the target at all.

CPU time is reported twice: the median of the runs and the minimum (the least-contended run; on a machine shared by
many processes the median mostly measures the others). Each is taken above the same statistic of the bare ``python``
of the same run, and each has its own under-150-ms column.

Then ``python -X importtime`` of ``explorer tagraid odds ...`` gives the import-time breakdown, and the modules that
must not load for it (pydantic, typer, our pydantic models, shapely, networkx, numpy, ipywidgets, panel) are listed if
they do. (Which libraries every other verb loads is a test: ``tests/test_cli_imports.py``.)
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BASELINE_REF = "main"
"""The code to compare with (``1d0bbcd``: the last commit with the command line on typer 0.29)."""

TARGET_MS = 150
"""Issue #12: every verb starts in under this many milliseconds of CPU; issue #18: every verb answers in under it
(CPU time above a bare ``python -c pass`` of the same run)."""

ODDS = ["tagraid", "odds", "--burst-a", "3", "--sv-a", "13", "--burst-b", "1", "--sv-b", "12"]
START = {"explorer --help": ["--help"], "explorer resolve --help": ["resolve", "--help"],
         "explorer tagraid odds --help": ["tagraid", "odds", "--help"]}
WHOLE = {"explorer resolve tr-02": ["resolve", "tr-02"],
         "explorer resolve tr-22": ["resolve", "tr-22"],
         "explorer resolve me-diagram-4": ["resolve", "me-diagram-4"],
         "explorer resolve gd-01": ["resolve", "gd-01"],
         "explorer resolve dg-03": ["resolve", "dg-03"],
         "explorer tagraid lof lof-demo": ["tagraid", "lof", "lof-demo"],
         "explorer render tr-22 --format svg": ["render", "tr-22", "--format", "svg"],
         "explorer tagraid odds ...": ODDS,
         "explorer masseffect strategy-odds": ["masseffect", "strategy-odds"],
         "explorer galaxydefenders odds --dice red=3": ["galaxydefenders", "odds", "--dice", "red=3"],
         "explorer dagger forecast dg-three-rounds": ["dagger", "forecast", "dg-three-rounds"]}
"""Every verb that answers a rules question, whole (issue #18): ``resolve`` of one scenario of each game (and TAG
Raid's table), the Line of Fire verb, ``render`` and every odds/forecast verb."""
_ONE_THREAD = "import os; os.environ.setdefault('OPENBLAS_NUM_THREADS', '1')\n"
"""The numpy and shapely floors run as the command line runs them: with one OpenBLAS thread
(:data:`explorer.cli.BLAS_THREADS`); the row with OpenBLAS's default threads shows what that saves."""
FLOORS = {"python (bare)": ["-c", "pass"], "import click": ["-c", "import click"],
          "import pydantic (BaseModel)": ["-c", "import pydantic; pydantic.BaseModel"],
          "click + pydantic + one model class": ["-c", "import click, pydantic\nclass M(pydantic.BaseModel): x: int"],
          "import typer + its pydantic coercion": ["-c", "import typer, typer._adapters"],
          "import numpy (OpenBLAS's default threads)": ["-c", "import numpy"],
          "import numpy": ["-c", _ONE_THREAD + "import numpy"],
          "import shapely (numpy under it)": ["-c", _ONE_THREAD + "import shapely"],
          "import click + shapely (the least a Line of Fire verb loads)": ["-c", _ONE_THREAD + "import click, shapely"]}
MUST_NOT_LOAD = ("pydantic", "typer", "explorer.scenario", "explorer.games.tagraid.model", "shapely", "networkx",
                 "numpy", "ipywidgets", "panel", "rich")


def _env(pythonpath: Path, cache: str) -> dict:
    """The environment of one tree's runs: its bytecode cache in ``cache`` and, beside it, its own cache of
    validated built-in scenarios (:mod:`explorer.parsecache`, on; filled by the warm-up run as by a user's first
    run)."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONDONTWRITEBYTECODE", "PYTHONPATH", "EXPLORER_CACHE")}
    env["PYTHONPATH"] = str(pythonpath)
    env["PYTHONPYCACHEPREFIX"] = cache
    env["EXPLORER_CACHE_DIR"] = cache + "-scenarios"
    os.makedirs(cache, exist_ok=True)
    return env


def _cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def _run(args: list[str], env: dict) -> tuple[float, subprocess.CompletedProcess, float]:
    """Wall time, result and CPU time (user + system, of the finished child) of ``python *args``."""
    # cwd: a neutral directory (``python -m`` puts the working directory first on sys.path, which would shadow the
    # baseline's PYTHONPATH with the repository's own package)
    c0, t0 = _cpu(), time.perf_counter()
    out = subprocess.run([sys.executable, *args], capture_output=True, text=True, env=env,
                         cwd=env["PYTHONPYCACHEPREFIX"], timeout=120)
    return time.perf_counter() - t0, out, _cpu() - c0


def baseline_tree(ref: str, into: Path) -> Path | None:
    """The ``explorer`` package as it was at ``ref`` (``git archive``), or ``None`` when git cannot give it."""
    try:
        into.mkdir(parents=True, exist_ok=True)
        tar = subprocess.run(["git", "-C", str(ROOT), "archive", ref, "explorer"], capture_output=True, check=True,
                             timeout=60).stdout
        subprocess.run(["tar", "-x", "-C", str(into)], input=tar, check=True, timeout=60)
    except (subprocess.SubprocessError, OSError):
        return None
    return into


def measure(rows: list[tuple[str, list[str], bool]], env: dict, env_old: dict | None,
            n: int) -> dict[str, dict[str, float | None]]:
    """``{label: {"now", "old", "now_cpu", "old_cpu", "now_cpu_min", "old_cpu_min"}}``: median wall and CPU seconds
    now and before, and the least CPU of any run (``None``: no baseline). ``rows`` are ``(label, python args, has a baseline)``; each round runs every row now and (if
    ``env_old``) before, in turn, after one warm-up of each. CPU time (user + system) is what the start costs the
    machine; wall time adds the wait for a core, large on a loaded machine."""
    jobs = [(label, args, env, "now") for label, args, _ in rows]
    if env_old is not None:
        jobs += [(label, args, env_old, "old") for label, args, old in rows if old]
    for _, args, e, _ in jobs:
        _run(args, e)  # warm-up: writes the bytecode cache
    wall: dict[tuple[str, str], list[float]] = {}
    cpu: dict[tuple[str, str], list[float]] = {}
    for _ in range(n):
        for label, args, e, which in jobs:
            t, _, c = _run(args, e)
            wall.setdefault((label, which), []).append(t)
            cpu.setdefault((label, which), []).append(c)
    med = lambda d, k: statistics.median(d[k]) if k in d else None  # noqa: E731
    low = lambda d, k: min(d[k]) if k in d else None  # noqa: E731
    return {label: {"now": med(wall, (label, "now")), "old": med(wall, (label, "old")),
                    "now_cpu": med(cpu, (label, "now")), "old_cpu": med(cpu, (label, "old")),
                    "now_cpu_min": low(cpu, (label, "now")), "old_cpu_min": low(cpu, (label, "old"))}
            for label, _, _ in rows}


def import_breakdown(env: dict) -> tuple[list[tuple[str, float]], list[str]]:
    """Top-level import groups of ``explorer tagraid odds`` (ms, cumulative) and the forbidden modules it loads."""
    out = _run(["-X", "importtime", "-m", "explorer.cli", *ODDS], env)[1]
    groups: dict[str, float] = {}
    loaded = set()
    for line in out.stderr.splitlines():
        if not line.startswith("import time:") or "self [us]" in line:
            continue
        _, cum, name = line.split(":", 1)[1].split("|")
        mod = name.strip()
        loaded.add(mod)
        if len(name) - len(name.lstrip(" ")) > 1:
            continue  # not top level
        top = mod.split(".")[0]
        key = mod if top == "explorer" else top
        groups[key] = groups.get(key, 0.0) + int(cum) / 1e3
    bad = sorted(m for m in loaded if any(m == x or m.startswith(x + ".") for x in MUST_NOT_LOAD))
    return sorted(groups.items(), key=lambda kv: -kv[1]), bad


def _table(head: tuple[str, ...], rows: list[tuple[str, ...]]) -> None:
    widths = [max(len(r[i]) for r in rows + [head]) for i in range(len(head))]
    line = lambda r: "  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip()  # noqa: E731
    print(line(head))
    print(line(tuple("-" * w for w in widths)))
    for r in rows:
        print(line(r))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="one run each, no baseline (used by the tests)")
    ap.add_argument("-n", type=int, default=9, help="runs per command (median)")
    ap.add_argument("--baseline-ref", default=BASELINE_REF, help="git ref of the code to compare with")
    args = ap.parse_args(argv)
    n = 1 if args.quick else args.n
    print(f"CLI cold start{' (quick: correctness only)' if args.quick else ''}; python {sys.version.split()[0]}, "
          f"{os.cpu_count()} cpus, load {os.getloadavg()[0]:.2f} (1 min) before, median of {n}")
    with tempfile.TemporaryDirectory() as tmp:
        env = _env(ROOT, os.path.join(tmp, "pyc-new"))
        ok = True
        for name, cmd in {**START, **WHOLE}.items():
            out = _run(["-m", "explorer.cli", *cmd], env)[1]
            if out.returncode != 0:
                print(f"FAILED: {name}: {out.stderr.strip()[-300:]}", file=sys.stderr)
                ok = False
        if not ok:
            return 1
        env_old, why = None, ""
        if not args.quick:
            base = baseline_tree(args.baseline_ref, Path(tmp) / "base")
            if base is None:
                why = f"git archive {args.baseline_ref} failed"
            else:
                env_old = _env(base, os.path.join(tmp, "pyc-old"))
                out = _run(["-m", "explorer.cli", *ODDS], env_old)[1]
                if out.returncode != 0:   # e.g. typer no longer installed
                    why = f"the baseline does not run here: {out.stderr.strip().splitlines()[-1][:200]}"
                    env_old = None
        old_runs = {k: env_old is not None and _run(["-m", "explorer.cli", *v], env_old)[1].returncode == 0
                    for k, v in {**START, **WHOLE}.items()}
        rows = ([(k, v, False) for k, v in FLOORS.items()]
                + [(k, ["-m", "explorer.cli", *v], old_runs[k]) for k, v in {**START, **WHOLE}.items()])
        if args.quick or _run(["-c", "import typer"], env)[1].returncode != 0:
            rows = [r for r in rows if "typer" not in r[0]]   # typer may be absent where the package is installed
        res = measure(rows, env, env_old, n)
        load_after = os.getloadavg()[0]
        bare, bare_cpu = res["python (bare)"]["now"], res["python (bare)"]["now_cpu"]
        bare_min = res["python (bare)"]["now_cpu_min"]
        ms = lambda x: "" if x is None else f"{x * 1e3:.0f} ms"  # noqa: E731
        head = ("command", "wall now", f"wall before ({args.baseline_ref})", "speed-up", "CPU now",
                "CPU before", "CPU now - python", f"< {TARGET_MS} ms", "min: now / before - python",
                f"min < {TARGET_MS} ms")
        table = []
        for label, _, _ in rows:
            r = res[label]
            above, above_min = r["now_cpu"] - bare_cpu, r["now_cpu_min"] - bare_min
            floor = label == "python (bare)"
            mins = (f"{ms(above_min)} / {ms(r['old_cpu_min'] - bare_min)}" if r["old_cpu_min"] is not None
                    else ms(above_min))
            table.append((label, ms(r["now"]), ms(r["old"]), "" if r["old"] is None else f"{r['old'] / r['now']:.2f}x",
                          ms(r["now_cpu"]), ms(r["old_cpu"]), "" if floor else ms(above),
                          "" if label in FLOORS else ("yes" if above * 1e3 < TARGET_MS else "no"),
                          "" if floor else mins,
                          "" if label in FLOORS else ("yes" if above_min * 1e3 < TARGET_MS else "no")))
        if why:
            print(f"(no baseline: {why})")
        _table(head, table)
        print(f"load {load_after:.2f} (1 min) after. Wall times are medians of interleaved runs; CPU = user + system "
              f"time of the process (what it costs when a core is free). --help rows: the command reaching a callback "
              f"before computing; the others: the whole command. A bare python here: {bare * 1e3:.0f} ms wall, "
              f"{bare_cpu * 1e3:.0f} ms CPU.")
        groups, bad = import_breakdown(env)
        print("\nimport time of `explorer tagraid odds` (python -X importtime, cumulative, top level):")
        for k, ms in groups[:12]:
            print(f"  {ms:8.1f} ms  {k}")
        print("modules that must not load for `explorer tagraid odds`: " + (", ".join(bad) if bad else "none loaded"))
        if bad:
            print("MISMATCH: heavy modules loaded", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
