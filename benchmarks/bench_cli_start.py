"""Benchmark: cold start of the command line (``explorer --help``, ``explorer tagraid odds ...``, ``explorer resolve
tr-02``), today's code against the code before the lazy imports, measured in the same run.

Run from the repository root::

    python benchmarks/bench_cli_start.py            (median of 9 runs per command)
    python benchmarks/bench_cli_start.py --quick    (1 run each, no baseline: correctness, for the tests)

Each command runs as a fresh ``python -m explorer.cli ...`` subprocess (bytecode cached in a temporary
``PYTHONPYCACHEPREFIX``, after one warm-up run, as an installed package would be). The baseline is the same commands
on the ``explorer`` package as it was at ``--baseline-ref`` (default: the commit before the lazy imports), extracted
with ``git archive`` into a temporary directory. Floors measured alongside: a bare ``python``, ``import typer``, and
``import typer, typer._adapters`` (typer 0.29 coerces every command-line parameter through a pydantic
``TypeAdapter``, so any typer command with options imports pydantic: that cost is typer's, not the project's).

Then ``python -X importtime`` of ``explorer tagraid odds`` gives the import-time breakdown, and the modules that must
not load for it (our pydantic models, shapely, networkx, numpy, ipywidgets, panel) are listed if they do.

Target (issue #12): ``explorer odds`` and ``explorer resolve`` start in < 150 ms before computing.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BASELINE_REF = "adb37cb"
"""The last commit before the lazy imports of branch tr-speed."""

ODDS = ["tagraid", "odds", "--burst-a", "3", "--sv-a", "13", "--burst-b", "1", "--sv-b", "12"]
COMMANDS = {"explorer --help": ["--help"], "explorer tagraid odds ...": ODDS, "explorer resolve tr-02": ["resolve", "tr-02"]}
MUST_NOT_LOAD = ("explorer.scenario", "explorer.games.tagraid.model", "shapely", "networkx", "numpy", "ipywidgets",
                 "panel", "rich")


def _env(pythonpath: Path, cache: str) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "PYTHONPATH")}
    env["PYTHONPATH"] = str(pythonpath)
    env["PYTHONPYCACHEPREFIX"] = cache
    os.makedirs(cache, exist_ok=True)
    return env


def _run(args: list[str], env: dict) -> tuple[float, subprocess.CompletedProcess]:
    # cwd: a neutral directory (``python -m`` puts the working directory first on sys.path, which would shadow the
    # baseline's PYTHONPATH with the repository's own package)
    t0 = time.perf_counter()
    out = subprocess.run([sys.executable, *args], capture_output=True, text=True, env=env, cwd=env["PYTHONPYCACHEPREFIX"],
                         timeout=120)
    return time.perf_counter() - t0, out


def median_time(args: list[str], env: dict, n: int) -> float:
    _run(args, env)  # warm-up: writes the bytecode cache
    return statistics.median(_run(args, env)[0] for _ in range(n))


def interleaved(args: list[str], env: dict, env_old: dict | None, n: int) -> tuple[float, float | None]:
    """Median times of ``args`` now and (if ``env_old``) before, the runs alternating so that a change of machine
    load affects both alike."""
    _run(args, env)
    if env_old is not None:
        _run(args, env_old)
    new, old = [], []
    for _ in range(n):
        new.append(_run(args, env)[0])
        if env_old is not None:
            old.append(_run(args, env_old)[0])
    return statistics.median(new), (statistics.median(old) if old else None)


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


def import_breakdown(env: dict) -> tuple[list[tuple[str, float]], list[str]]:
    """Top-level import groups of ``explorer tagraid odds`` (ms, cumulative) and the forbidden modules it loads."""
    _, out = _run(["-X", "importtime", "-m", "explorer.cli", *ODDS], env)
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
        key = ("typer._adapters (pydantic)" if mod.startswith("typer._adapters") or top == "pydantic"
               else mod if top == "explorer" else top)
        groups[key] = groups.get(key, 0.0) + int(cum) / 1e3
    bad = sorted(m for m in loaded if any(m == x or m.startswith(x + ".") for x in MUST_NOT_LOAD))
    return sorted(groups.items(), key=lambda kv: -kv[1]), bad


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="one run each, no baseline (used by the tests)")
    ap.add_argument("-n", type=int, default=9, help="runs per command (median)")
    ap.add_argument("--baseline-ref", default=BASELINE_REF, help="git ref of the code to compare with")
    args = ap.parse_args(argv)
    n = 1 if args.quick else args.n
    print(f"CLI cold start{' (quick: correctness only)' if args.quick else ''}; python {sys.version.split()[0]}, "
          f"{os.cpu_count()} cpus, load {os.getloadavg()[0]:.1f}, median of {n}")
    with tempfile.TemporaryDirectory() as tmp:
        env = _env(ROOT, os.path.join(tmp, "pyc-new"))
        ok = True
        for name, cmd in COMMANDS.items():
            t, out = _run(["-m", "explorer.cli", *cmd], env)
            if out.returncode != 0:
                print(f"FAILED: {name}: {out.stderr.strip()[-300:]}", file=sys.stderr)
                ok = False
        if not ok:
            return 1
        base = None if args.quick else baseline_tree(args.baseline_ref, Path(tmp) / "base")
        env_old = _env(base, os.path.join(tmp, "pyc-old")) if base is not None else None
        floors = {"python (bare)": ["-c", "pass"], "import typer": ["-c", "import typer"],
                  "import typer + its pydantic coercion": ["-c", "import typer, typer._adapters"]}
        rows = [(k, median_time(v, env, n), None) for k, v in floors.items()]
        for name, cmd in COMMANDS.items():
            rows.append((name, *interleaved(["-m", "explorer.cli", *cmd], env, env_old, n)))
        head = ("command", "now", f"before ({args.baseline_ref})", "speed-up", "now - import typer")
        bare, typer_t = rows[0][1], rows[1][1]
        table = [(k, f"{t * 1e3:.0f} ms", "" if o is None else f"{o * 1e3:.0f} ms",
                  "" if o is None else f"{o / t:.1f}x", "" if k in floors else f"{(t - typer_t) * 1e3:.0f} ms")
                 for k, t, o in rows]
        if env_old is None and not args.quick:
            print(f"(no baseline: git archive {args.baseline_ref} failed)")
        widths = [max(len(r[i]) for r in table + [head]) for i in range(len(head))]
        line = lambda r: "  ".join(c.ljust(w) for c, w in zip(r, widths))  # noqa: E731
        print(line(head))
        print(line(["-" * w for w in widths]))
        for r in table:
            print(line(r))
        print(f"(python itself: {bare * 1e3:.0f} ms; 'now - import typer' is what the project adds on top of "
              "`import typer`, including typer's own pydantic coercion of the options)")
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
